"""Delaunay rules: the book's walk-through, each rule, the section's end, random games."""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path

import pytest
import shapely

from papergames.layouts.delaunay.rules import (
    EMPTY,
    LOSS,
    OPENING,
    DelaunayMove,
    DelaunayRules,
    DelaunayState,
)
from papergames.play.checker import check
from papergames.play.rules import IllegalMove, MoveSyntaxError
from papergames.play.transcript import parse_transcript

from playout import new_game, random_game, refused, replay
from playout import play as after

MINI = "delaunay sections=2 min_spaces=16 max_spaces=16 seed=1"
"""Two sections of sixteen spaces (1-16 and 17-32), small like the book's mini-field.
Section 2's spaces and their neighbours: 17: 8 12 18 19 23; 18: 11 12 14 17 20 22 23;
19: 6 8 17 23 31; 20: 14 16 18 22 24 26; 21: 10 13 15 24 28; 22: 18 20 23 25 27;
23: 17 18 19 22 25 31; 24: 15 16 20 21 26 28 29; 25: 22 23 27 30 31; 26: 20 24 27 29 32;
27: 22 25 26 30 32; 28: 21 24 29; 29: 24 26 28 32; 30: 25 27 31 32; 31: 19 23 25 30;
32: 26 27 29 30. In section 1, space-1, 2, 3, 5 and 7 touch no other section."""
TINY = "delaunay sections=8 min_spaces=2 max_spaces=2 seed=2"
"""Eight sections of two spaces: sections that no colour can open any more are common."""

WALK = (
    *("31", "25", "19", "17"),  # red, blue, yellow, green: the book's A, B, ...
    *("27", "32", "18", "29"),
    *("24", "21", "26", "20"),  # ... to L: each has coloured three spaces
    *("loss", "loss"),  # red cannot colour (M), nor can blue (N)
    *("28", "30"),  # yellow colours O, green P: the last space that can be coloured
)


@cache
def rules(spec: str = MINI, players: int = 4) -> DelaunayRules:
    game = new_game(spec, players)
    assert isinstance(game, DelaunayRules)
    return game


# --- the book's illustrated game --------------------------------------------------------------


def test_the_books_walk_through_loses_red_and_yellow_3_blue_and_green_2() -> None:
    game = rules()
    state = game.initial()
    for k, text in enumerate(WALK):
        assert game.to_move(state) == k % 4
        if text == "loss":
            assert list(game.legal_moves(state)) == [LOSS]
        state = game.apply(state, game.parse_move(text, state))
    # M and N during play; Q, R and S when green coloured the last space.
    assert state.losses == (2, 2, 1, 0)
    assert game.team_losses(state) == (3, 2)
    assert state.completed == (False, True) and state.section == OPENING
    assert {game.ids[k] for k in game.sections[1] if state.colours[k] == EMPTY} == {
        "space-22",
        "space-23",
    }
    # Both empty spaces are next to all four colours.
    for name in ("space-22", "space-23"):
        around = {state.colours[n] for n in game.neighbours[game.board.index[name]]}
        assert {0, 1, 2, 3} <= around
    # Green coloured the last space, so green opens the next section.
    assert game.to_move(state) == 3
    assert game.winners(state) == []
    assert game.totals(state) == (3, 2, 3, 2)


def test_a_section_goes_on_until_the_last_fillable_space_however_many_are_empty() -> None:
    game = rules()
    state = after(game, *WALK[:-1])
    assert state.section == 1 and state.losses == (1, 1, 0, 0)
    # Before green's last fill, space-30 can still be coloured (green only).
    assert [game.format_move(m) for m in game.legal_moves(state)] == ["space-30"]


# --- each rule --------------------------------------------------------------------------------


def test_the_first_player_colours_any_space_of_any_section() -> None:
    game = rules()
    start = game.initial()
    assert len(list(game.legal_moves(start))) == len(game.ids)
    for text in ("space-1", "space-9", "space-32"):
        state = after(game, text)
        assert state.section == game.section_of[game.board.index[text]]
        assert game.to_move(state) == 1


def test_play_stays_in_the_section_and_spreads_from_its_coloured_spaces() -> None:
    game = rules()
    state = after(game, "31")
    assert refused(game, state, "space-1") == "other-section"
    # space-17 is in section 2 but touches no coloured space.
    assert refused(game, state, "space-17") == "not-next"
    assert refused(game, state, "space-31") == "filled"
    after(game, "31", "25")
    # Not necessarily next to the space just coloured: red's 31 still counts for green.
    assert refused(game, after(game, "31", "25", "19"), "space-26") == "not-next"
    after(game, "31", "25", "19", "30")


def test_a_colour_never_goes_next_to_itself() -> None:
    game = rules()
    state = after(game, "31", "25", "19", "17")
    # space-23 touches red's space-31.
    assert refused(game, state, "space-23") == "same-colour"
    assert state.colours[game.board.index["space-31"]] == 0
    after(game, "31", "25", "19", "17", "27")
    # Yellow may colour next to its partner's red, blue next to anything but blue.
    after(game, "31", "25", "19", "17", "27", "18")


def test_a_new_section_must_not_touch_its_own_colour_across_the_border() -> None:
    game = rules()
    state = after(game, *WALK)
    green = game.to_move(state)
    assert green == 3
    # space-8 and space-12 touch green's space-17; space-16 touches green's space-20.
    for text in ("space-8", "space-12", "space-16"):
        assert refused(game, state, text) == "border-colour"
    # Completed sections are closed; empty spaces in them stay empty.
    assert refused(game, state, "space-22") == "completed"
    # space-10 touches blue's space-21, which does not bar green; space-1 touches nothing.
    for text in ("space-10", "space-1"):
        opened = game.apply(state, game.parse_move(text, state))
        assert opened.section == 0 and game.to_move(opened) == 0
    # Inside the section in play the border rule holds too: blue may not touch 21 from 10.
    opened = after(game, *WALK, "13")
    assert game.to_move(opened) == 0
    state = game.apply(opened, game.parse_move("space-4", opened))
    assert refused(game, state, "space-10") == "border-colour"


def test_a_loss_is_marked_only_by_a_player_who_cannot_colour() -> None:
    game = rules()
    state = after(game, "31")
    with pytest.raises(IllegalMove) as info:
        game.apply(state, LOSS)
    assert info.value.code == "can-fill" and "for example space-" in info.value.reason
    state = after(game, *WALK[:12])
    now = game.apply(state, LOSS)
    assert now.losses == (1, 0, 0, 0) and game.to_move(now) == 1
    assert now.colours == state.colours and now.section == state.section


def test_colours_belong_to_their_players() -> None:
    four = rules()
    state = after(four, "31")
    assert refused(four, state, "space-25 R") == "not-your-colour"
    after(four, "31", "space-25 B")
    three = rules(MINI, 3)
    assert refused(three, three.initial(), "space-25 G") == "not-your-colour"
    after(three, "space-25 red", "22", "space-20 Y")
    two = rules(MINI, 2)
    assert refused(two, two.initial(), "space-25 B") == "not-your-colour"
    with pytest.raises(IllegalMove) as info:
        two.apply(two.initial(), DelaunayMove(24))
    assert info.value.code == "no-colour"


def test_two_players_use_either_colour_and_each_colour_avoids_only_itself() -> None:
    game = rules(MINI, 2)
    state = after(game, "31 R", "25 B")
    assert game.to_move(state) == 0
    moves = {game.format_move(m) for m in game.legal_moves(state)}
    # Red may not touch red's 31, yellow may: the rule holds for each colour.
    assert "space-23 Y" in moves and "space-23 R" not in moves
    assert refused(game, state, "space-23 R") == "same-colour"
    state = after(game, "31 R", "25 B", "23 Y", "22 G")
    assert refused(game, state, "space-18 Y") == "same-colour"
    assert refused(game, state, "space-27 G") == "not-your-colour"
    state = after(game, "31 R", "25 B", "23 Y", "22 G", "18 R")
    assert refused(game, state, "space-27 G") == "same-colour"
    assert refused(game, state, "space-27 B") == "same-colour"
    after(game, "31 R", "25 B", "23 Y", "22 G", "18 R", "20 B")


def test_three_players_each_for_himself_with_three_colours() -> None:
    game = rules(MINI, 3)
    assert game.player_colours == [(0,), (1,), (2,)]
    assert game.claims(game.initial()) == {}


def test_the_others_mark_a_box_when_a_section_ends_with_two_or_three_players() -> None:
    for players in (2, 3):
        game = rules(TINY, players)
        for seed in range(40):
            _, moves = random_game(game, seed)
            state = game.initial()
            for move in moves:
                mover = game.to_move(state)
                now = game.apply(state, move)
                if move.space is not None and now.section == OPENING:
                    gained = [b - a for a, b in zip(state.losses, now.losses, strict=True)]
                    assert gained == [int(p != mover) for p in range(players)]
                    assert game.to_move(now) in (mover, None)
                state = now


def test_the_game_ends_when_every_section_is_completed_and_fewest_losses_win() -> None:
    game = rules()
    state = after(game, *WALK)
    done = DelaunayState(state.colours, (4, 2, 1, 3), (True, True))
    assert game.is_over(done) and game.to_move(done) is None
    # Teams: Ann + Cy lost 5, Bob + Di 5: a tie shared by all four.
    assert game.winners(done) == [0, 1, 2, 3]
    done = DelaunayState(state.colours, (4, 2, 1, 4), (True, True))
    assert game.winners(done) == [0, 2]
    assert game.claims(done) == {"team": (5, 6, 5, 6)}
    assert refused(game, done, "space-1") == "game-over"
    three = rules(MINI, 3)
    ended = DelaunayState(state.colours, (4, 2, 2), (True, True))
    assert three.winners(ended) == [1, 2]


def test_a_section_no_colour_can_open_is_completed_as_it_stands() -> None:
    found = 0
    for players in (2, 3, 4):
        game = rules(TINY, players)
        for seed in range(60):
            final, _ = random_game(game, seed)
            for spaces in game.sections:
                if all(final.colours[k] == EMPTY for k in spaces):
                    found += 1
                    for k in spaces:
                        around = {final.colours[n] for n in game.neighbours[k]}
                        assert set(game.game_colours) <= around
    assert found > 0


# --- notation ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "players", "column"),
    [
        ("", 4, 1),
        ("space-99", 4, 1),
        ("  x3", 4, 3),
        ("loss now", 4, 6),
        ("space-3 R G", 4, 11),
        ("space-3 purple", 4, 9),
        ("space-3", 2, 8),
        ("17", 2, 3),
    ],
)
def test_bad_notation_is_a_syntax_error(text: str, players: int, column: int) -> None:
    game = rules(MINI, players)
    with pytest.raises(MoveSyntaxError) as info:
        game.parse_move(text, game.initial())
    assert info.value.column == column


def test_notation_reads_short_forms_and_writes_model_ids() -> None:
    four = rules()
    state = four.initial()
    assert four.parse_move("17", state) == DelaunayMove(16)
    assert four.parse_move("SPACE-17", state) == DelaunayMove(16)
    assert four.parse_move("LOSS", state) == LOSS
    assert four.format_move(LOSS) == "loss"
    assert four.format_move(DelaunayMove(16)) == "space-17"
    two = rules(MINI, 2)
    for text in ("space-17 y", "17 Yellow", "space-17 Y"):
        assert two.parse_move(text, state) == DelaunayMove(16, 2)
    assert two.format_move(DelaunayMove(16, 2)) == "space-17 Y"


# --- random games against the geometry --------------------------------------------------------


@cache
def shapely_neighbours(spec: str) -> list[set[int]]:
    """Spaces sharing a stretch of border (0.5 mm or more), from the polygons themselves."""
    game = rules(spec)
    polys = list(game.sheet.pages[0].spaces().values())
    out: list[set[int]] = [set() for _ in polys]
    for a, poly in enumerate(polys):
        near = shapely.dwithin(poly, polys, 1e-4).tolist()
        for b, close in enumerate(near):
            if b > a and close and poly.boundary.intersection(polys[b].buffer(1e-4)).length > 0.5:
                out[a].add(b)
                out[b].add(a)
    return out


def fillable(
    game: DelaunayRules, near: list[set[int]], state: DelaunayState, space: int, colour: int
) -> bool:
    """The rules, recomputed: an empty space in the section in play (or in any uncompleted
    section when opening), next to a coloured space of its section, next to none of its
    colour."""
    section = game.section_of[space]
    if state.colours[space] != EMPTY or state.completed[section]:
        return False
    if state.section != OPENING:
        if section != state.section:
            return False
        if not any(state.colours[n] != EMPTY for n in near[space] if game.section_of[n] == section):
            return False
    return all(state.colours[n] != colour for n in near[space])


def check_game(game: DelaunayRules, near: list[set[int]], moves: list[DelaunayMove]) -> None:
    count = len(game.players)
    state = game.initial()
    loss_moves = completions = 0
    for move in moves:
        player = game.to_move(state)
        assert player is not None
        mine = game.player_colours[player]
        now = game.apply(state, move)
        gained = [b - a for a, b in zip(state.losses, now.losses, strict=True)]
        if move.space is None:
            loss_moves += 1
            assert not any(
                fillable(game, near, state, k, c) for k in range(len(near)) for c in mine
            )
            assert gained == [int(p == player) for p in range(count)]
            assert now.turn == (player + 1) % count
            state = now
            continue
        colour = mine[0] if move.colour is None else move.colour
        assert fillable(game, near, state, move.space, colour)
        assert now.colours[move.space] == colour
        section = game.section_of[move.space]
        probe = DelaunayState(now.colours, now.losses, state.completed, section)
        open_left = any(
            fillable(game, near, probe, k, c)
            for k in game.sections[section]
            for c in game.game_colours
        )
        if open_left:
            assert gained == [0] * count and now.section == section
            assert now.turn == (player + 1) % count
        else:
            completions += 1
            assert now.completed[section] and now.section == OPENING
            assert gained == [int(p != player) for p in range(count)]
            assert game.is_over(now) or game.to_move(now) == player
        state = now
    assert game.is_over(state) and all(state.completed)
    for k, colour in enumerate(state.colours):
        if colour != EMPTY:
            assert all(state.colours[n] != colour for n in near[k])
    for k in range(len(game.ids)):
        assert not any(
            fillable(
                game,
                near,
                DelaunayState(
                    state.colours, state.losses, (False,) * len(game.sections), game.section_of[k]
                ),
                k,
                c,
            )
            for c in game.game_colours
        )
    assert sum(state.losses) == loss_moves + (count - 1) * completions


@pytest.mark.parametrize(
    ("spec", "players", "games", "checked"),
    [
        ("delaunay seed=1", 4, 200, 40),
        ("delaunay seed=2", 3, 60, 20),
        ("delaunay seed=3", 2, 60, 20),
        (MINI, 3, 200, 200),
        (TINY, 2, 200, 200),
        (TINY, 4, 200, 200),
    ],
)
def test_random_games_end_replay_and_follow_the_geometry(
    spec: str, players: int, games: int, checked: int
) -> None:
    game = rules(spec, players)
    near = shapely_neighbours(spec)
    assert near == [set(n) for n in game.neighbours]
    for seed in range(games):
        state, moves = random_game(game, seed)
        if seed < checked:
            check_game(game, near, moves)
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == game.scores(state)
        totals = game.totals(state)
        assert verdict.winners == [
            game.players[p].name for p in range(players) if totals[p] == min(totals)
        ]


def test_legal_moves_are_exactly_the_moves_apply_accepts() -> None:
    for players in (2, 4):
        game = rules(MINI, players)
        for seed in range(6):
            _, moves = random_game(game, seed)
            state = game.initial()
            for move in moves:
                legal = set(game.legal_moves(state))
                colours = [None] if players > 2 else [0, 1, 2, 3]
                accepted = set()
                for cand in [LOSS] + [
                    DelaunayMove(k, c) for k in range(len(game.ids)) for c in colours
                ]:
                    try:
                        game.apply(state, cand)
                    except IllegalMove:
                        continue
                    accepted.add(cand)
                assert accepted == legal
                state = game.apply(state, move)


def test_checking_the_example_is_fast() -> None:
    path = Path(__file__).parent.parent / "examples" / "delaunay.txt"
    transcript = parse_transcript(path.read_text(), str(path))
    game = new_game(str(transcript.spec), len(transcript.players))
    began = time.perf_counter()
    verdict = check(transcript, game)
    assert verdict.ok and time.perf_counter() - began < 0.1
    assert [c.what for c in verdict.claims].count("team") == 2
