"""Miro rules: runs of 1, 2, 3 then 1-3 segments along the line, captures, teams, notation."""

from __future__ import annotations

import itertools
import math
from functools import cache
from typing import Any

import pytest
import shapely
from shapely import STRtree
from shapely.geometry import LineString, Polygon

from papergames.errors import SpecError
from papergames.layouts.miro.rules import FREE, MiroMove, MiroRules, MiroState
from papergames.play.rules import IllegalMove, MoveSyntaxError
from papergames.play.teams import PARTNERSHIP, team_total
from papergames.sheets.model import Kind

from playout import new_game, random_game, refused, replay
from playout import play as after

MINI = "miro crossings=8 triples=1 seed=1"
"""The book's mini-field size: 19 segments, 11 spaces; segment-<n> is place n-1 along the line.
Its spaces and the segments around them:
space-1: 1 4 14; space-2: 3 15; space-3: 2 4 15; space-4: 1 5 13 18; space-5: 2 5 9 16;
space-6: 13 19; space-7: 9 17; space-8: 8 12 18; space-9: 6 8 11; space-10: 6 10 17;
space-11: 7 11."""

BOOK = "miro seed=1"
"""The book's field: 209 segments, 109 spaces."""


@cache
def rules(spec: str = MINI, players: int = 2, **options: str) -> MiroRules:
    game = new_game(spec, players, **options)
    assert isinstance(game, MiroRules)
    return game


def coloured(before: MiroState, now: MiroState) -> list[int]:
    """Segment numbers (1-based, as printed in ids) a move coloured."""
    return [
        k + 1 for k, (a, b) in enumerate(zip(before.segments, now.segments, strict=True)) if a != b
    ]


def owned(game: MiroRules, state: MiroState) -> dict[str, int]:
    return {game.space_ids[k]: o for k, o in enumerate(state.spaces) if o != FREE}


def test_the_mini_fields_data_is_what_the_tests_assume() -> None:
    game = rules()
    assert game.segment_ids == [f"segment-{n}" for n in range(1, 20)]
    around = {
        game.space_ids[k]: sorted(s + 1 for s in segs) for k, segs in enumerate(game.space_segments)
    }
    assert around["space-1"] == [1, 4, 14]
    assert around["space-4"] == [1, 5, 13, 18]
    assert around["space-6"] == [13, 19]
    assert around["space-8"] == [8, 12, 18]
    assert len(around) == 11


# --- the opening: one, two, three ----------------------------------------------------------------


def test_the_first_move_colours_any_one_segment() -> None:
    game = rules()
    state = game.initial()
    assert refused(game, state, "segment-4..5") == "length"
    assert refused(game, state, "segment-4..6") == "length"
    for n in (1, 7, 19):
        now = after(game, f"segment-{n}")
        assert coloured(state, now) == [n] and now.segments[n - 1] == 0
        assert game.to_move(now) == 1 and now.scores == (0, 0)
    assert len(list(game.legal_moves(state))) == 19


def test_the_second_move_colours_two_from_either_end_of_the_first() -> None:
    game = rules()
    state = after(game, "segment-13")
    forward = after(game, "segment-13", "segment-14..15")
    assert coloured(state, forward) == [14, 15] and forward.way == 1
    backward = after(game, "segment-13", "segment-12..11")
    assert coloured(state, backward) == [11, 12] and backward.way == -1
    assert all(backward.segments[s] == 1 for s in (10, 11))
    assert refused(game, state, "segment-14") == "length"
    assert refused(game, state, "segment-14..16") == "length"
    assert refused(game, state, "segment-15..16") == "not-continuing"
    assert refused(game, state, "segment-13..14") == "not-continuing"
    assert refused(game, state, "segment-15..14") == "order"
    assert refused(game, state, "segment-14 segment-16") == "not-continuous"
    assert refused(game, state, "segment-14 segment-14") == "not-continuous"
    assert {game.format_move(m) for m in game.legal_moves(state)} == {
        "segment-14..15",
        "segment-12..11",
    }


def test_the_second_move_wraps_round_the_closed_line() -> None:
    game = rules()
    state = after(game, "segment-1")
    now = after(game, "segment-1", "segment-19..18")
    assert coloured(state, now) == [18, 19]
    state = after(game, "segment-19")
    assert coloured(state, after(game, "segment-19", "segment-1..2")) == [1, 2]


def test_the_third_move_colours_three_from_the_far_end_of_the_second() -> None:
    game = rules()
    state = after(game, "segment-13", "segment-14..15")
    now = after(game, "segment-13", "segment-14..15", "segment-16..18")
    assert coloured(state, now) == [16, 17, 18] and game.to_move(now) == 1
    # The other end of the coloured stretch (before the first segment) is not open.
    assert refused(game, state, "segment-12..10") == "not-continuing"
    assert refused(game, state, "segment-16..17") == "length"
    assert refused(game, state, "segment-16") == "length"
    assert refused(game, state, "segment-18..16") == "order"
    # After a backward second move the third runs backwards too.
    state = after(game, "segment-13", "segment-12..11")
    assert refused(game, state, "segment-14..16") == "not-continuing"
    now = after(game, "segment-13", "segment-12..11", "segment-10..8")
    assert coloured(state, now) == [8, 9, 10]
    assert [game.format_move(m) for m in game.legal_moves(state)] == ["segment-10..8"]


# --- later moves: one to three, continuing from the last segment coloured ---------------------

OPEN = ("segment-13", "segment-14..15", "segment-16..18")


def test_later_moves_colour_one_two_or_three_segments_continuing_from_the_last() -> None:
    game = rules()
    state = after(game, *OPEN)
    assert game.to_move(state) == 1
    for text, run in (
        ("segment-19", [19]),
        ("segment-19..1", [1, 19]),
        ("segment-19..2", [1, 2, 19]),
    ):
        assert coloured(state, after(game, *OPEN, text)) == run
    assert {game.format_move(m) for m in game.legal_moves(state)} == {
        "segment-19",
        "segment-19..1",
        "segment-19..2",
    }
    assert refused(game, state, "segment-19 segment-1 segment-2 segment-3") == "length"
    assert refused(game, state, "segment-1") == "not-continuing"
    assert refused(game, state, "segment-1..2") == "not-continuing"
    assert refused(game, state, "segment-12") == "not-continuing", "the stretch's other end"
    assert refused(game, state, "segment-2..19") == "order"
    assert refused(game, state, "segment-19 segment-2") == "not-continuous"


def test_play_keeps_running_the_way_the_second_move_chose() -> None:
    game = rules()
    moves = ("segment-5", "segment-4..3", "segment-2..19", "segment-18")
    state = after(game, *moves)
    assert coloured(after(game, *moves[:3]), state) == [18]
    assert state.way == -1 and state.head == 17
    assert refused(game, state, "segment-6") == "not-continuing"
    assert {game.format_move(m) for m in game.legal_moves(state)} == {
        "segment-17",
        "segment-17..16",
        "segment-17..15",
    }


def test_a_run_may_not_pass_a_coloured_segment_and_the_game_ends_when_all_are_coloured() -> None:
    game = rules()
    moves = (
        *OPEN,
        "segment-19..1",
        "segment-2..4",
        "segment-5..7",
        "segment-8..10",
        "segment-11",
    )
    state = after(game, *moves)
    assert [k + 1 for k, o in enumerate(state.segments) if o == FREE] == [12]
    assert game.to_move(state) == 0
    # The run would reach segment-13, the first segment coloured.
    assert refused(game, state, "segment-12..14") == "coloured"
    assert refused(game, state, "segment-12..13") == "coloured"
    assert [game.format_move(m) for m in game.legal_moves(state)] == ["segment-12"]
    end = after(game, *moves, "segment-12")
    assert game.is_over(end) and game.to_move(end) is None
    assert FREE not in end.segments and FREE not in end.spaces
    assert list(game.legal_moves(end)) == []
    assert refused(game, end, "segment-13") == "game-over"


def test_the_seeds_mini_game_has_the_runs_of_its_illustration() -> None:
    # A (red, 1), B (blue, 2), C (red, 3), D (blue, 3), E (red, 1), F (blue, 2), then on.
    game = rules()
    moves = ("segment-13", "segment-14..15", "segment-16..18", "segment-19..2", "segment-3")
    state = game.initial()
    lengths = []
    for text in (*moves, "segment-4..5"):
        now = game.apply(state, game.parse_move(text, state))
        lengths.append(len(coloured(state, now)))
        state = now
    assert lengths == [1, 2, 3, 3, 1, 2]
    assert [game.to_move(after(game, *moves[:k])) for k in range(6)] == [0, 1, 0, 1, 0, 1]


# --- capturing --------------------------------------------------------------------------------


def test_a_capture_scores_the_movers_own_segments_around_the_space() -> None:
    game = rules()
    played = [*OPEN, "segment-19"]
    state = after(game, *played)
    # space-6 is segment-13 (Ann's) and segment-19 (Bob's): Bob closes it and scores 1.
    assert owned(game, state) == {"space-6": 1} and state.scores == (0, 1)
    played.append("segment-1..3")
    state = after(game, *played)
    # space-2: segment-3 (Ann) and segment-15 (Bob): Ann closes it, 1 point.
    assert owned(game, state) == {"space-6": 1, "space-2": 0} and state.scores == (1, 1)
    played.append("segment-4..5")
    before, state = state, after(game, *played)
    # Three spaces at once for Bob: space-1 (1 Ann, 4 Bob, 14 Bob) 2 points, space-3
    # (2 Ann, 4 Bob, 15 Bob) 2 points, space-4 (1 Ann, 5 Bob, 13 Ann, 18 Ann) 1 point.
    new = set(owned(game, state)) - set(owned(game, before))
    assert new == {"space-1", "space-3", "space-4"}
    assert state.scores == (1, 6)
    played.append("segment-6..8")
    assert after(game, *played).scores == (1, 6), "nothing closed"
    played.append("segment-9..11")
    state = after(game, *played)
    # space-5 2, space-7 1, space-10 1, space-9 1, space-11 1: six points for Bob.
    assert state.scores == (1, 12)
    played.append("segment-12")
    state = after(game, *played)
    # space-8 is segments 8, 12 and 18, all Ann's: 3 points.
    assert game.is_over(state) and state.scores == (4, 12)
    assert game.winners(state) == [1]
    assert game.claims(state) == {"spaces": (2, 9)}
    assert game.describe(state) == ["spaces captured: Ann 2, Bob 9"]


def test_a_capture_counts_only_the_capturers_colour_around_the_space() -> None:
    game = rules()
    # A made-up position: every segment Ann's but segment-11, which Bob colours next.
    made = [0] * 19
    made[10] = FREE
    state = MiroState(tuple(made), (FREE,) * 11, (0, 0), moves=5, first=11, head=9, way=1)
    assert game.to_move(state) == 1
    now = game.apply(state, game.parse_move("segment-11", state))
    # space-9 (6, 8, 11) and space-11 (7, 11): Bob's only segment around each is segment-11.
    assert owned(game, now) == {"space-9": 1, "space-11": 1}
    assert now.scores == (0, 2)
    # The same move by Ann, whose colour is all round both spaces, scores 3 + 2.
    ann = game.apply(
        MiroState(tuple(made), (FREE,) * 11, (0, 0), moves=4, first=11, head=9, way=1),
        MiroMove((10,)),
    )
    assert ann.scores == (5, 0)


def test_refusals_name_the_segments_involved() -> None:
    game = rules()
    state = after(game, *OPEN)
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("segment-2", state))
    assert "segment-18" in info.value.reason and "starts at segment-19" in info.value.reason
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("segment-1..19", state))
    assert info.value.reason.endswith("segment-19..1")
    first = after(game, "segment-13")
    with pytest.raises(IllegalMove) as info:
        game.apply(first, game.parse_move("segment-15..16", first))
    assert "segment-14 or segment-12" in info.value.reason
    assert refused(game, game.initial(), "segment-3 segment-3") == "length"
    with pytest.raises(IllegalMove) as info:
        game.apply(game.initial(), MiroMove((99,)))
    assert info.value.code == "no-segment"
    with pytest.raises(IllegalMove) as info:
        game.apply(game.initial(), MiroMove(()))
    assert info.value.code == "length"


# --- three and four players, teams ------------------------------------------------------------


def test_three_players_take_turns_to_the_left() -> None:
    game = rules(MINI, 3)
    state = after(game, *OPEN)
    assert all(state.segments[n - 1] == 2 for n in (16, 17, 18))
    assert game.to_move(state) == 0
    assert all(state.segments[n - 1] == p for n, p in ((13, 0), (14, 1), (15, 1)))


def final(game: MiroRules, scores: tuple[int, ...]) -> MiroState:
    return MiroState((0,) * 19, (0,) * 11, scores, 19, 0, 0, 1)


def test_team_totals_and_the_partnership_variations() -> None:
    assert [team_total(7, 3, m) for m in PARTNERSHIP] == [10, 13, 17]
    assert team_total(4, 4, "double-lower") == 12
    scores = (7, 5, 1, 5)
    alone = rules(MINI, 4)
    assert alone.winners(final(alone, scores)) == [0]
    added = rules(MINI, 4, teams="on")
    state = final(added, scores)
    assert added.table.scores(state.scores) == (8, 10) and added.winners(state) == [1, 3]
    assert added.claims(state)["team"] == (8, 10, 8, 10)
    assert added.describe(state)[-1] == "teams (add): Ann + Cy 8, Bob + Di 10"
    lower = rules(MINI, 4, teams="on", partnership="double-lower")
    assert lower.table.scores(final(lower, scores).scores) == (9, 15)
    higher = rules(MINI, 4, teams="on", partnership="double-higher")
    state = final(higher, scores)
    assert higher.table.scores(state.scores) == (15, 15) and higher.winners(state) == [0, 1, 2, 3]
    assert "team" not in rules().claims(final(rules(), (7, 6)))


def test_team_options_need_four_players_and_teams() -> None:
    with pytest.raises(SpecError):
        new_game(MINI, 2, teams="on")
    with pytest.raises(SpecError):
        new_game(MINI, 4, partnership="double-lower")
    with pytest.raises(SpecError):
        new_game(MINI, 5)


# --- notation ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("", 1),
        ("   ", 1),
        ("segment-20", 9),
        ("segment-0", 9),
        ("space-2", 1),
        ("seg-3", 1),
        ("segment-3..", 1),
        ("segment-3..20", 12),
        ("segment-3..7", 1),
        ("segment-3 segment-99", 19),
        ("segment-3..segment-5 x", 22),
        ("segment-3 > segment-4", 11),
    ],
)
def test_bad_notation_is_a_syntax_error(text: str, column: int) -> None:
    game = rules()
    with pytest.raises(MoveSyntaxError) as info:
        game.parse_move(text, game.initial())
    assert info.value.column == column


def test_notation_reads_ranges_lists_and_short_forms_and_writes_ranges() -> None:
    game = rules()
    state = game.initial()
    move = game.parse_move("segment-17..19", state)
    assert move == MiroMove((16, 17, 18))
    for text in (
        "17 18 19",
        "segment-17, segment-18, segment-19",
        "SEGMENT-17..segment-19",
        "17..19",
    ):
        assert game.parse_move(text, state) == move
    assert game.format_move(move) == "segment-17..19"
    assert game.parse_move("segment-19..17", state) == MiroMove((18, 17, 16))
    wrap = game.parse_move("segment-18..1", state)
    assert wrap == MiroMove((17, 18, 0)) and game.format_move(wrap) == "segment-18..1"
    assert game.parse_move("segment-1..18", state) == MiroMove((0, 18, 17))
    assert game.format_move(MiroMove((4,))) == "segment-5"
    odd = MiroMove((4, 6))
    assert game.format_move(odd) == "segment-5 segment-7"
    assert game.parse_move(game.format_move(odd), state) == odd


# --- the line's geometry, and random games against it -------------------------------------------


class Geometry:
    """The sheet read with shapely alone: each space's outline segments, and for each segment
    the segment that continues it straight through the crossing at its end."""

    def __init__(self, game: MiroRules) -> None:
        page = game.sheet.pages[0]
        segs = {f.id: f.geometry for f in page.features(Kind.SEGMENT)}
        lines = [segs[s] for s in game.segment_ids]
        assert all(isinstance(g, LineString) for g in lines)
        polys = {f.id: f.geometry for f in page.features(Kind.SPACE)}
        assert all(isinstance(p, Polygon) for p in polys.values())
        tree = STRtree(lines)
        rims = shapely.buffer([polys[s].exterior for s in game.space_ids], 1e-6)
        found = tree.query(rims, predicate="contains")
        self.outline: list[set[int]] = [set() for _ in game.space_ids]
        for space, seg in zip(found[0].tolist(), found[1].tolist(), strict=True):
            self.outline[space].add(seg)
        # The continuation of each segment at its far end: the segment leaving that point in
        # the direction closest to the one it arrives in.
        self.next: list[int] = []
        self.turn = 0.0
        starts = [g.coords[0] for g in lines]
        for g in lines:
            end = g.coords[-1]
            heading = _heading(g.coords[-2], end)
            out = [k for k, s in enumerate(starts) if s == end]
            bends = {
                k: _angle(heading, _heading(lines[k].coords[0], lines[k].coords[1])) for k in out
            }
            best = min(bends, key=lambda k: bends[k])
            assert all(b >= 30 for k, b in bends.items() if k != best), "strands cross steeply"
            self.turn = max(self.turn, bends[best])
            self.next.append(best)


def _heading(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


def _angle(a: float, b: float) -> float:
    return abs((b - a + 180) % 360 - 180)


@cache
def geometry(spec: str) -> Geometry:
    return Geometry(rules(spec))


@pytest.mark.parametrize("spec", [MINI, BOOK])
def test_the_line_runs_straight_through_crossings_in_path_order(spec: str) -> None:
    game = rules(spec)
    geo = geometry(spec)
    n = len(game.segment_ids)
    assert geo.next == [(k + 1) % n for k in range(n)]
    assert geo.turn < 15
    for k, outline in enumerate(geo.outline):
        assert outline == set(game.space_segments[k])


def check_game(game: MiroRules, geo: Geometry, moves: list[MiroMove]) -> None:
    """Replay ``moves`` checking every rule against the geometry, not the engine's tables."""
    before = [0] * len(geo.next)
    for a, b in enumerate(geo.next):
        before[b] = a
    state = game.initial()
    captured_by: dict[int, int] = {}
    points = [0] * len(game.players)
    previous: list[int] = []
    way = geo.next
    for number, move in enumerate(moves):
        player = game.to_move(state)
        assert player == number % len(game.players)
        now = game.apply(state, move)
        run = list(move.run)
        assert sorted(run) == sorted(
            k for k, (a, b) in enumerate(zip(state.segments, now.segments, strict=True)) if a != b
        )
        assert all(state.segments[s] == FREE and now.segments[s] == player for s in run)
        assert len(run) == (number + 1 if number < 3 else len(run)) and 1 <= len(run) <= 3
        # One way along the line, continuing from the segment coloured last.
        step = geo.next if len(run) == 1 or geo.next[run[0]] == run[1] else before
        assert all(step[a] == b for a, b in itertools.pairwise(run))
        if number == 1:
            assert run[0] in (geo.next[previous[0]], before[previous[0]])
            way = geo.next if run[0] == geo.next[previous[0]] else before
            assert step is way
        elif number >= 2:
            assert run[0] == way[previous[-1]]
            assert len(run) == 1 or step is way
        # Captures: the spaces whose outline this move closed, each worth the mover's segments.
        for k, outline in enumerate(geo.outline):
            closed_now = all(now.segments[s] != FREE for s in outline)
            closed_before = all(state.segments[s] != FREE for s in outline)
            if closed_now and not closed_before:
                assert k not in captured_by and now.spaces[k] == player
                captured_by[k] = player
                points[player] += sum(1 for s in outline if now.segments[s] == player)
            else:
                assert now.spaces[k] == state.spaces[k]
        assert list(now.scores) == points
        previous = run
        state = now
    assert game.is_over(state) and FREE not in state.segments
    assert sorted(captured_by) == list(range(len(game.space_ids)))
    assert sum(state.scores) <= 2 * len(game.segment_ids)


@pytest.mark.parametrize(
    ("spec", "players", "options", "games"),
    [
        (BOOK, 2, {}, 200),
        (MINI, 3, {}, 200),
        ("miro seed=2", 4, {"teams": "on", "partnership": "double-lower"}, 30),
        ("miro crossings=20 triples=2 seed=3", 4, {}, 100),
    ],
)
def test_random_games_end_replay_and_follow_the_geometry(
    spec: str, players: int, options: dict[str, Any], games: int
) -> None:
    game = rules(spec, players, **options)
    geo = geometry(spec)
    lengths: set[int] = set()
    for seed in range(games):
        state, moves = random_game(game, seed)
        if seed < 15:
            check_game(game, geo, moves)
        lengths.update(len(m.run) for m in moves[3:])
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == game.scores(state)
        assert sum(game.claims(state)["spaces"]) == len(game.space_ids)
    assert lengths == {1, 2, 3}


def test_legal_moves_are_exactly_the_runs_apply_accepts() -> None:
    game = rules()
    n = len(game.segment_ids)
    candidates = [
        MiroMove(tuple((start + k * way) % n for k in range(size)))
        for start in range(n)
        for way in (1, -1)
        for size in range(1, 5)
    ]
    for seed in range(10):
        _, moves = random_game(game, seed)
        state = game.initial()
        for move in moves:
            legal = set(game.legal_moves(state))
            for cand in candidates:
                try:
                    game.apply(state, cand)
                except IllegalMove:
                    assert cand not in legal
                else:
                    assert cand in legal
            state = game.apply(state, move)
