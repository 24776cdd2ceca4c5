"""Arp rules: colouring lines that touch the last one, captures, the fallback, variations."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from shapely.geometry import LineString, Point, Polygon

from papergames.errors import SpecError
from papergames.layouts.arp.rules import FREE, ArpMove, ArpRules, ArpState
from papergames.play.rules import IllegalMove, MoveSyntaxError
from papergames.play.teams import PARTNERSHIP, team_total
from papergames.sheets.model import Kind

from playout import new_game, random_game, refused, replay
from playout import play as after

MINI = "arp lines=10 spaces=13 seed=1"
"""Ten lines and thirteen spaces, like the book's mini-field. Its lines, end to end:
line-6: 1-6, 6-9, 6-7, 6-8, 6-10, 3-6; line-7: 3-7, 7-10, 7-8, 6-7, 5-7, 1-7;
line-8: 4-8, 8-9, 7-8, 6-8, 5-8, 2-8; line-9: 3-9, 8-9, 6-9, 1-9; line-10: 7-10, 6-10.
space-7 is the triangle of lines 6, 7 and 8; space-1 (lines 1, 6, 9) and space-2
(lines 1, 6, 7, 9) lie side by side along line-6."""


@cache
def rules(spec: str = MINI, players: int = 2, **options: str) -> ArpRules:
    game = new_game(spec, players, **options)
    assert isinstance(game, ArpRules)
    return game


def seg(game: ArpRules, a: str, b: str) -> int:
    """The segment between two points (``"6-8"``, ``"6-7"``)."""
    pa, pb = game.points.lookup(a), game.points.lookup(b)
    for k, line in enumerate(game.segments_on):
        pts = game.points_on[k]
        for j, s in enumerate(line):
            if {pts[j], pts[j + 1]} == {pa, pb}:
                return s
    raise AssertionError(f"no segment {a} {b}")


def line_segs(game: ArpRules, name: str) -> list[int]:
    return game.segments_on[game.lines.index[name]]


def coloured(game: ArpRules, before: ArpState, now: ArpState) -> set[int]:
    return {k for k, (a, b) in enumerate(zip(before.segments, now.segments, strict=True)) if a != b}


def painted(game: ArpRules, owners: dict[str, int], last: str, turn: int) -> ArpState:
    """A made-up position: whole lines coloured by the given players, spaces closed by them
    captured (by player 0; the tests here only look at what the next move colours)."""
    segments = [FREE] * len(game.segment_ids)
    for name, owner in owners.items():
        for s in line_segs(game, name):
            segments[s] = owner
    spaces = tuple(
        0 if all(segments[t] != FREE for t in game.space_segments[k]) else FREE
        for k in range(len(game.space_ids))
    )
    scores = [0] * len(game.players)
    scores[0] = sum(1 for o in spaces if o != FREE)
    return ArpState(tuple(segments), spaces, tuple(scores), game.lines.index[last], turn)


# --- the first move ---------------------------------------------------------------------------


def test_the_first_player_colours_any_whole_line() -> None:
    game = rules()
    state = game.initial()
    assert refused(game, state, "line-8 > point-2-8") == "whole-line"
    assert refused(game, state, "line-8 from point-4-8 > point-2-8") == "whole-line"
    now = after(game, "line-8")
    assert coloured(game, state, now) == set(line_segs(game, "line-8"))
    assert all(now.segments[s] == 0 for s in line_segs(game, "line-8"))
    assert now.scores == (0, 0) and game.to_move(now) == 1


# --- the usual move ---------------------------------------------------------------------------


def test_a_crossing_line_goes_one_way_from_the_crossing_to_its_end() -> None:
    game = rules()
    state = after(game, "line-8")
    assert refused(game, state, "line-6") == "direction", "6 crosses 8 mid-line"
    now = after(game, "line-8", "line-6 > point-1-6")
    assert coloured(game, state, now) == {
        seg(game, "6-8", "6-7"),
        seg(game, "6-7", "6-9"),
        seg(game, "6-9", "1-6"),
    }
    other = after(game, "line-8", "line-6 > point-3-6")
    assert coloured(game, state, other) == {seg(game, "6-8", "6-10"), seg(game, "6-10", "3-6")}
    explicit = after(game, "line-8", "line-6 from point-6-8 > point-1-6")
    assert explicit == now


def test_the_line_must_touch_the_line_just_coloured() -> None:
    game = rules()
    state = after(game, "line-8")
    assert refused(game, state, "line-10 > point-6-10") == "not-touching"
    assert refused(game, state, "line-8") == "coloured"
    # line-3 does not meet line-8 (line-8 ends on lines 4 and 2).
    assert refused(game, state, "line-3 > point-2-3") == "not-touching"
    # line-2 meets line-8 where line-8 ends: a T-junction touches too.
    after(game, "line-8", "line-2 > point-2-3")


def test_touching_counts_anywhere_along_the_last_line_even_its_uncoloured_part() -> None:
    game = rules()
    # line-6 is coloured from 6-8 towards 1-6 only; line-10 meets it at 6-10, on the part of
    # line-6 left uncoloured, and still counts as touching it. line-10 ends there: one way.
    state = after(game, "line-8", "line-6 > point-1-6")
    now = after(game, "line-8", "line-6 > point-1-6", "line-10")
    assert coloured(game, state, now) == set(line_segs(game, "line-10"))
    assert now == after(game, "line-8", "line-6 > point-1-6", "line-10 > point-7-10")
    assert refused(game, state, "line-10 > point-6-10") == "wrong-way"


def test_direction_start_and_end_are_checked() -> None:
    game = rules()
    state = after(game, "line-8")
    assert refused(game, state, "line-6 > point-6-9") == "not-an-end"
    assert refused(game, state, "line-6 > point-6-8") == "not-an-end"
    assert refused(game, state, "line-6 from point-6-9 > point-1-6") == "wrong-start"
    assert refused(game, state, "line-6 from point-1-7 > point-1-6") == "not-on-line"
    # line-5 ends on line-7 at point-5-7: it can only run towards its other end.
    state = after(game, "line-7")
    assert refused(game, state, "line-5 > point-5-7") == "wrong-way"
    assert refused(game, state, "line-5 > point-5-8") == "not-an-end"
    assert after(game, "line-7", "line-5") == after(game, "line-7", "line-5 > point-3-5")


def test_colouring_stops_on_reaching_a_part_already_coloured() -> None:
    game = rules()
    moves = ("line-7", "line-6 > point-1-6", "line-10")
    state = after(game, *moves)
    assert game.to_move(state) == 1
    # Bob colours line-6 from 6-10 towards 1-6: 6-10 to 6-8 to 6-7, where Ann's earlier
    # stretch of line-6 begins.
    now = after(game, *moves, "line-6 > point-1-6")
    assert coloured(game, state, now) == {seg(game, "6-10", "6-8"), seg(game, "6-8", "6-7")}
    assert now.segments[seg(game, "6-7", "6-9")] == 1


def test_a_line_coloured_on_both_sides_of_the_touching_point_is_not_open() -> None:
    game = rules()
    state = after(game, "line-7", "line-8 > point-2-8", "line-6 > point-1-6")
    # line-8 touches line-6 at 6-8, coloured on both sides (7-8 to 2-8 by Bob).
    assert refused(game, state, "line-8 > point-4-8") == "coloured-there"
    assert refused(game, state, "line-6 > point-3-6") == "not-touching", "the last line itself"
    # A line coloured on one side of its touching point can go the other way only.
    state = after(game, "line-7", "line-8 > point-2-8")
    assert refused(game, state, "line-6") == "direction"
    # Ann's line-6 starts at 6-8 towards 1-6; Bob's line-9 and Ann's line-8 (from 8-9 to
    # 7-8, stopped by Bob's part of line-8) bring the turn back to line-6 at 6-8.
    moves = (
        "line-7",
        "line-8 > point-2-8",
        "line-6 > point-1-6",
        "line-9 > point-3-9",
        "line-8 > point-2-8",
    )
    state = after(game, *moves)
    assert game.to_move(state) == 1
    assert refused(game, state, "line-6 > point-1-6") == "wrong-way"
    now = after(game, *moves, "line-6")
    assert coloured(game, state, now) == {seg(game, "6-8", "6-10"), seg(game, "6-10", "3-6")}


# --- no open line touches the last one --------------------------------------------------------


def test_with_no_open_touching_line_any_line_is_coloured_over_its_uncoloured_length() -> None:
    game = rules()
    # line-10 meets only lines 6 and 7, both fully coloured.
    state = painted(game, {"line-6": 0, "line-7": 1, "line-10": 1}, "line-10", 0)
    assert not game._touching(state)
    assert refused(game, state, "line-6") == "coloured"
    assert refused(game, state, "line-8 > point-2-8") == "whole-line"
    # line-9 does not touch line-10, but may be chosen now.
    nine = game.apply(state, game.parse_move("line-9", state))
    assert coloured(game, state, nine) == set(line_segs(game, "line-9"))
    # A line with a coloured part in the middle: both uncoloured parts, skipping that one.
    segments = list(state.segments)
    segments[seg(game, "7-8", "6-8")] = 1
    state = replace(state, segments=tuple(segments))
    now = game.apply(state, game.parse_move("line-8", state))
    assert coloured(game, state, now) == set(line_segs(game, "line-8")) - {seg(game, "7-8", "6-8")}


# --- capturing --------------------------------------------------------------------------------


def test_closing_a_spaces_outline_captures_it_for_the_mover() -> None:
    game = rules()
    state = after(game, "line-7", "line-8 > point-2-8")
    assert state.scores == (0, 0)
    now = after(game, "line-7", "line-8 > point-2-8", "line-6 > point-1-6")
    # The triangle of lines 6, 7 and 8: its third side closes it, though Ann drew two of them
    # and Bob the other.
    assert now.scores == (1, 0)
    assert [game.space_ids[k] for k, o in enumerate(now.spaces) if o != FREE] == ["space-7"]
    assert now.spaces[game.space_ids.index("space-7")] == 0


def test_one_move_may_capture_several_spaces() -> None:
    game = rules()
    moves = ("line-1", "line-7 > point-3-7", "line-6 > point-1-6")
    state = after(game, *moves)
    assert state.scores == (0, 0)
    now = after(game, *moves, "line-9 > point-1-9")
    assert now.scores == (0, 2)
    won = {game.space_ids[k] for k, o in enumerate(now.spaces) if o == 1}
    assert won == {"space-1", "space-2"}


# --- the variation: stop at one's own line ----------------------------------------------------


def test_own_stop_halts_the_colouring_at_the_movers_own_line() -> None:
    plain = rules()
    stop = rules(MINI, 2, own_stop="on")
    moves = ("line-7", "line-8 > point-4-8")
    # Ann's line-6 from 6-8 towards 1-6 reaches her own line-7 at 6-7.
    a, b = after(plain, *moves), after(plain, *moves, "line-6 > point-1-6")
    assert len(coloured(plain, a, b)) == 3
    a, b = after(stop, *moves), after(stop, *moves, "line-6 > point-1-6")
    assert coloured(stop, a, b) == {seg(stop, "6-8", "6-7")}
    # Only the mover's own lines stop him: line-7 from 7-10 crosses Ann's line-8 at 7-8.
    for mover, size in ((0, 1), (1, 4)):
        state = painted(stop, {"line-8": 0, "line-10": 0}, "line-10", mover)
        now = stop.apply(state, stop.parse_move("line-7 > point-1-7", state))
        assert len(coloured(stop, state, now)) == size


def test_own_stop_cuts_a_whole_line_move_into_stretches() -> None:
    game = rules(MINI, 2, own_stop="on")
    # Ann owns line-6; no open line touches line-10. line-8 crosses Ann's line-6 at 6-8.
    state = painted(game, {"line-6": 0, "line-7": 1, "line-10": 1}, "line-10", 0)
    assert refused(game, state, "line-8") == "stretch"
    assert refused(game, state, "line-8 > point-2-8") == "stretch"
    assert refused(game, state, "line-8 from point-7-8 > point-2-8") == "wrong-start"
    assert refused(game, state, "line-8 from point-2-8 > point-2-8") == "wrong-way"
    to_2 = game.apply(state, game.parse_move("line-8 from point-6-8 > point-2-8", state))
    assert coloured(game, state, to_2) == {seg(game, "6-8", "5-8"), seg(game, "5-8", "2-8")}
    to_4 = game.apply(state, game.parse_move("line-8 from point-6-8 > point-4-8", state))
    assert coloured(game, state, to_4) == {
        seg(game, "4-8", "8-9"),
        seg(game, "8-9", "7-8"),
        seg(game, "7-8", "6-8"),
    }
    same = game.apply(state, game.parse_move("line-8 from point-4-8 > point-2-8", state))
    assert same == to_4
    # Bob's line-7 cuts nothing for Ann (line-5 ends on it), Ann's line-6 cuts line-9.
    five = game.apply(state, game.parse_move("line-5", state))
    assert coloured(game, state, five) == set(line_segs(game, "line-5"))
    assert refused(game, state, "line-9") == "stretch"
    # With the colours of lines 6 and 7 swapped, line-8 is cut at 7-8 instead.
    swapped = painted(game, {"line-6": 1, "line-7": 0, "line-10": 0}, "line-10", 0)
    assert refused(game, swapped, "line-8 from point-6-8 > point-2-8") == "wrong-start"
    game.apply(swapped, game.parse_move("line-8 from point-7-8 > point-2-8", swapped))
    # Without the variation the whole line goes, and a stretch is refused.
    plain = rules()
    state = painted(plain, {"line-6": 0, "line-7": 1, "line-10": 1}, "line-10", 0)
    assert refused(plain, state, "line-8 from point-6-8 > point-2-8") == "whole-line"


# --- teams ------------------------------------------------------------------------------------


def final(game: ArpRules, scores: tuple[int, ...]) -> ArpState:
    n = len(game.segment_ids)
    return ArpState((0,) * n, (0,) * len(game.space_ids), scores, 0, 0)


def test_team_totals_and_miros_partnership_variations() -> None:
    assert [team_total(7, 3, m) for m in PARTNERSHIP] == [10, 13, 17]
    assert team_total(4, 4, "double-lower") == 12
    scores = (7, 5, 1, 5)
    alone = rules(MINI, 4)
    assert alone.winners(final(alone, scores)) == [0]
    added = rules(MINI, 4, teams="on")
    state = final(added, scores)
    assert added.table.scores(state.scores) == (8, 10)
    assert added.winners(state) == [1, 3]
    assert added.claims(state) == {"team": (8, 10, 8, 10)}
    lower = rules(MINI, 4, teams="on", partnership="double-lower")
    assert lower.table.scores(final(lower, scores).scores) == (9, 15)
    higher = rules(MINI, 4, teams="on", partnership="double-higher")
    state = final(higher, scores)
    assert higher.table.scores(state.scores) == (15, 15)
    assert higher.winners(state) == [0, 1, 2, 3]
    assert rules().claims(final(rules(), (7, 6))) == {}


def test_team_options_need_four_players_and_teams() -> None:
    with pytest.raises(SpecError):
        new_game(MINI, 2, teams="on")
    with pytest.raises(SpecError):
        new_game(MINI, 4, partnership="double-lower")


# --- notation ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("", 1),
        ("line-99", 1),
        ("space-3", 1),
        ("line-6 >", 8),
        ("line-6 > point-99-100", 10),
        ("line-6 point-1-6", 8),
        ("line-6 from", 8),
        ("line-6 from point-6-8", 22),
        ("line-6 > point-1-6 point-3-6", 8),
        ("line-6 < point-1-6", 8),
    ],
)
def test_bad_notation_is_a_syntax_error(text: str, column: int) -> None:
    game = rules()
    with pytest.raises(MoveSyntaxError) as info:
        game.parse_move(text, game.initial())
    assert info.value.column == column


def test_notation_reads_short_forms_and_writes_model_ids() -> None:
    game = rules()
    state = game.initial()
    move = game.parse_move("line-6 > point-1-6", state)
    assert move == ArpMove(game.lines.index["line-6"], game.points.index["point-1-6"])
    assert game.parse_move("6>1-6", state) == move
    assert game.parse_move("LINE-6 > 6-1", state) == move
    assert game.format_move(move) == "line-6 > point-1-6"
    stretch = game.parse_move("line-8 from point-6-8 > point-2-8", state)
    assert game.format_move(stretch) == "line-8 from point-6-8 > point-2-8"
    assert game.parse_move(game.format_move(stretch), state) == stretch


# --- random games against the geometry --------------------------------------------------------


class Geometry:
    """The sheet read with shapely alone: which segments lie on each space's outline and on
    each line, where lines meet."""

    def __init__(self, game: ArpRules) -> None:
        page = game.sheet.pages[0]
        self.lines = {f.id: f.geometry for f in page.features(Kind.LINE)}
        self.segs = {f.id: f.geometry for f in page.features(Kind.SEGMENT)}
        polys = {f.id: f.geometry for f in page.features(Kind.SPACE)}
        assert all(isinstance(p, Polygon) for p in polys.values())
        self.outline = [
            {
                game.segment_ids.index(s)
                for s, g in self.segs.items()
                if g.within(polys[sp].exterior.buffer(1e-6))
            }
            for sp in game.space_ids
        ]
        assert all(len(o) >= 3 for o in self.outline)
        self.on_line = [
            {k for k, s in enumerate(game.segment_ids) if self.segs[s].within(g.buffer(1e-6))}
            for g in self.lines.values()
        ]
        self.seg_geom = [self.segs[s] for s in game.segment_ids]
        self.line_geom = list(self.lines.values())

    def meet(self, a: int, b: int) -> Point | None:
        x = self.line_geom[a].intersection(self.line_geom[b])
        return x if isinstance(x, Point) else None

    def at(self, s: int, p: Point) -> bool:
        return any(Point(c).distance(p) < 1e-6 for c in self.seg_geom[s].coords)


def check_game(game: ArpRules, geo: Geometry, moves: list[ArpMove]) -> None:
    stop = game.option_values["own_stop"]
    state = game.initial()
    for number, move in enumerate(moves):
        player = game.to_move(state)
        assert player is not None
        now = game.apply(state, move)
        run = coloured(game, state, now)
        assert run and run <= geo.on_line[move.line]
        assert all(now.segments[s] == player for s in run)
        free = [s for s in geo.on_line[move.line] if state.segments[s] == FREE]
        geoms = [geo.seg_geom[s] for s in run]
        if number == 0:
            assert run == geo.on_line[move.line]
        else:
            last = state.last
            # Lines that touch the last line and are uncoloured right where they touch.
            open_ = {
                k
                for k in range(len(game.line_ids))
                if k != last
                and (x := geo.meet(k, last)) is not None
                and any(geo.at(s, x) for s in geo.on_line[k] if state.segments[s] == FREE)
            }
            if open_:
                assert move.line in open_
                x = geo.meet(move.line, last)
                assert x is not None
                # One unbroken straight run starting at the touching point.
                merged = LineString(
                    sorted({c for g in geoms for c in g.coords}, key=lambda c: Point(c).distance(x))
                )
                assert abs(merged.length - sum(g.length for g in geoms)) < 1e-6
                assert Point(merged.coords[0]).distance(x) < 1e-6
                tip = Point(merged.coords[-1])
                # It stops at the line's end, at a coloured part, or (own_stop) at a line of
                # the mover's, and not before.
                beyond = [s for s in geo.on_line[move.line] if s not in run and geo.at(s, tip)]
                own = {
                    s
                    for s, o in enumerate(state.segments)
                    if o == player and s not in geo.on_line[move.line]
                }
                blocked = any(geo.at(s, tip) for s in own)
                assert not beyond or state.segments[beyond[0]] != FREE or (stop and blocked)
                if stop:
                    for c in merged.coords[1:-1]:
                        assert not any(geo.at(s, Point(c)) for s in own)
            elif not stop:
                assert run == set(free)
            else:
                assert run <= set(free)
        # Captures: exactly the spaces whose outline this move closed, for the mover.
        closed = {
            k
            for k, o in enumerate(geo.outline)
            if all(now.segments[s] != FREE for s in o)
            and not all(state.segments[s] != FREE for s in o)
        }
        taken = {k for k, (a, b) in enumerate(zip(state.spaces, now.spaces, strict=True)) if a != b}
        assert closed == taken and all(now.spaces[k] == player for k in taken)
        assert now.scores[player] - state.scores[player] == len(taken)
        state = now
    assert game.is_over(state)
    assert FREE not in state.segments and FREE not in state.spaces
    assert sum(state.scores) == len(game.space_ids)
    for p, score in enumerate(state.scores):
        assert score == state.spaces.count(p)


@pytest.mark.parametrize(
    ("spec", "players", "options", "games"),
    [
        ("arp seed=1", 2, {}, 200),
        (MINI, 3, {}, 200),
        ("arp seed=2", 4, {"teams": "on", "partnership": "double-lower"}, 40),
        ("arp seed=3", 3, {"own_stop": "on"}, 60),
        (MINI, 2, {"own_stop": "on"}, 200),
    ],
)
def test_random_games_end_replay_and_follow_the_geometry(
    spec: str, players: int, options: dict[str, Any], games: int
) -> None:
    game = rules(spec, players, **options)
    geo = Geometry(game)
    for k, outline in enumerate(geo.outline):
        assert outline == set(game.space_segments[k])
    kinds: set[str] = set()
    for seed in range(games):
        state, moves = random_game(game, seed)
        if seed < 20:
            check_game(game, geo, moves)
        for move in moves[1:]:
            kinds.add("stretch" if move.start is not None else "usual" if move.toward else "whole")
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == game.scores(state)
    assert {"usual", "whole"} <= kinds
    if options.get("own_stop"):
        assert "stretch" in kinds


def test_legal_moves_are_exactly_the_moves_apply_accepts() -> None:
    game = rules(MINI, 2, own_stop="on")
    for seed in range(15):
        state, moves = random_game(game, seed)
        state = game.initial()
        for move in moves:
            legal = set(game.legal_moves(state))
            candidates = {
                ArpMove(line, toward, start)
                for line in range(len(game.line_ids))
                for toward in [None, *game.points_on[line][:: len(game.points_on[line]) - 1]]
                for start in [None, *game.points_on[line]]
            }
            for cand in candidates:
                try:
                    game.apply(state, cand)
                except IllegalMove:
                    assert cand not in legal
                else:
                    # Accepted short forms colour what some listed move colours.
                    assert cand in legal or any(
                        game.apply(state, m) == game.apply(state, cand) for m in legal
                    )
            state = game.apply(state, move)


def test_checking_the_example_is_fast() -> None:
    import time
    from pathlib import Path

    from papergames.play.checker import check
    from papergames.play.transcript import parse_transcript

    path = Path(__file__).parent.parent / "examples" / "arp.txt"
    transcript = parse_transcript(path.read_text(), str(path))
    game = new_game(str(transcript.spec), len(transcript.players))
    began = time.perf_counter()
    verdict = check(transcript, game)
    assert verdict.ok and time.perf_counter() - began < 0.1
