"""Arp's rules: colour lines from where they touch the last one; closing an outline captures."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.layouts.arp.field import LineData, PointData, SegmentData, SpaceData
from papergames.play.final import owners_of, tally_marks
from papergames.play.rules import (
    Breach,
    FinalReport,
    IllegalMove,
    MoveSyntaxError,
    Player,
    Position,
    Rules,
)
from papergames.play.teams import (
    PARTNERSHIP_OPTION,
    TEAMS_OPTION,
    TeamPlay,
)
from papergames.sheets.board import Board
from papergames.sheets.model import Kind, Sheet, data_as
from papergames.sheets.params import Param, ParamSet

FREE = -1
"""Owner of a segment nobody has coloured yet, or of a space nobody has captured."""


_WORD = re.compile(r"\s*(>|[^\s>]+)")


@dataclass(frozen=True)
class ArpMove:
    """Colour (part of) a line.

    ``line`` is the line's index (0-based). ``toward`` is the point index of the end of the line
    the colouring runs towards, or ``None`` for the whole line (or the only way it can go).
    ``start`` is the point index it runs from, or ``None``: the point where the line touches
    the line just coloured (the usual move), or, under ``own_stop`` with no touching line left,
    a point where the line meets one of the mover's own lines (or a line end).
    """

    line: int
    toward: int | None = None
    start: int | None = None


@dataclass(frozen=True)
class ArpState:
    """Who coloured each segment and captured each space, the last line, turn and scores."""

    segments: tuple[int, ...]
    spaces: tuple[int, ...]
    scores: tuple[int, ...]
    last: int = -1
    turn: int = 0


@dataclass(frozen=True)
class ArpOptions:
    """The engine's options, typed."""

    own_stop: bool
    teams: bool
    partnership: str


class ArpRules(Rules[ArpState, ArpMove]):
    """Arp: colour lines that touch the line just coloured; closing a space's outline captures it.

    Moves (model ids, as the sheet prints no names):

    * ``line-7``: the whole line (the first move, or when no line touching the last one is still
      uncoloured where it touches: then every uncoloured part of line-7); also accepted for a
      usual move when only one way is open.
    * ``line-7 > point-7-12``: the usual move: colour line-7 from where it touches the line just
      coloured towards its end point-7-12, up to that end or to the first already coloured part.
    * ``line-7 from point-3-7 > point-7-12``: with ``own_stop``, for the whole-line move when the
      mover's own lines cut line-7 into stretches: the stretch that starts at point-3-7 (one of
      the mover's lines, or an end) and runs towards point-7-12; ``from`` may also restate the
      touching point of a usual move.

    Options: ``own_stop`` (the book's variation: colouring also stops on reaching a line the
    mover coloured themselves), ``teams`` (four players, partners 1+3 against 2+4) and
    ``partnership`` (Miro's team scoring: add, double-lower, double-higher).
    """

    game = "arp"
    notation = (
        "line-7 (whole line), line-7 > point-7-12 (from where it touches the last line towards "
        "that end), line-7 from point-3-7 > point-7-12 (a stretch, with own_stop); the "
        "numbers alone as a labelled sheet prints them: 7 > 7-12"
    )
    options = ParamSet(
        [
            Param.bool(
                "own_stop", False, "colouring also stops on reaching a line the mover coloured"
            ),
            TEAMS_OPTION,
            PARTNERSHIP_OPTION,
        ]
    )
    option_shape = ArpOptions

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        self.opts = self.options.read(ArpOptions, self.option_values)
        self.table = TeamPlay.of(self.opts.teams, self.opts.partnership, players=len(players))
        page = sheet.page
        self.lines = Board.of(page, Kind.LINE)
        self.points = Board.of(page, Kind.POINT)
        segments = Board.of(page, Kind.SEGMENT)
        spaces = Board.of(page, Kind.SPACE)
        self.line_ids = self.lines.ids
        self.point_ids = self.points.ids
        self.segment_ids = segments.ids
        self.space_ids = spaces.ids
        point_data = [data_as(f.data, PointData) for f in self.points.features]
        self.point_lines: list[tuple[int, int]] = [
            (self.lines.index[data["lines"][0]], self.lines.index[data["lines"][1]])
            for data in point_data
        ]
        self.points_on: list[list[int]] = [
            [self.points.index[p] for p in data_as(f.data, LineData)["crossings"]]
            for f in self.lines.features
        ]
        self.position: list[dict[int, int]] = [
            {p: j for j, p in enumerate(pts)} for pts in self.points_on
        ]
        segment_data = [data_as(f.data, SegmentData) for f in segments.features]
        by_ends = {
            frozenset(self.points.index[p] for p in data["points"]): k
            for k, data in enumerate(segment_data)
        }
        self.segments_on: list[list[int]] = [
            [by_ends[frozenset(pair)] for pair in itertools.pairwise(pts)] for pts in self.points_on
        ]
        self.segment_spaces: list[list[int]] = [
            [spaces.index[s] for s in data["spaces"]] for data in segment_data
        ]
        self.space_segments: list[list[int]] = [
            [segments.index[s] for s in data_as(f.data, SpaceData)["segments"]]
            for f in spaces.features
        ]
        # Every line the given line meets, and where.
        self.meets: list[list[tuple[int, int]]] = [[] for _ in self.line_ids]
        for p, (a, b) in enumerate(self.point_lines):
            self.meets[a].append((b, p))
            self.meets[b].append((a, p))
        self.touch: list[dict[int, int]] = [dict(m) for m in self.meets]

    # -- state -------------------------------------------------------------------------------

    def initial(self) -> ArpState:
        return ArpState(
            (FREE,) * len(self.segment_ids),
            (FREE,) * len(self.space_ids),
            (0,) * len(self.players),
        )

    def to_move(self, state: ArpState) -> int | None:
        if FREE not in state.segments:
            return None
        return state.turn

    def scores(self, state: ArpState) -> tuple[int, ...]:
        return state.scores

    def winners(self, state: ArpState) -> list[int]:
        team = self.table.winners(state.scores) if self.is_over(state) else None
        return super().winners(state) if team is None else team

    def claims(self, state: ArpState) -> dict[str, tuple[int, ...]]:
        return self.table.claims(state.scores)

    def describe(self, state: ArpState) -> list[str]:
        return self.table.describe([p.name for p in self.players], state.scores)

    # -- geometry of a move ------------------------------------------------------------------

    def _step(self, line: int, j: int, way: int) -> int | None:
        """The segment of ``line`` leaving its point number ``j`` in direction ``way`` (+1/-1)."""
        k = j if way > 0 else j - 1
        segs = self.segments_on[line]
        return segs[k] if 0 <= k < len(segs) else None

    def _blocks(self, state: ArpState, player: int, line: int, point: int) -> bool:
        """Whether ``point`` on ``line`` lies on another line ``player`` coloured there."""
        a, b = self.point_lines[point]
        other = b if a == line else a
        j = self.position[other][point]
        return any(
            (s := self._step(other, j, way)) is not None and state.segments[s] == player
            for way in (1, -1)
        )

    def _run(self, state: ArpState, player: int, line: int, j: int, way: int) -> list[int]:
        """The segments a usual move colours: from point number ``j`` along ``way`` until the
        end, an already coloured segment or (``own_stop``) a line of the mover's."""
        stop = self.opts.own_stop
        points = self.points_on[line]
        run: list[int] = []
        while (s := self._step(line, j, way)) is not None and state.segments[s] == FREE:
            run.append(s)
            j += way
            if stop and self._blocks(state, player, line, points[j]):
                break
        return run

    def _cuts(self, state: ArpState, player: int, line: int) -> list[int]:
        """Point numbers along ``line`` that split it into stretches: its two ends and, with
        ``own_stop``, every point on a line the mover coloured themselves."""
        points = self.points_on[line]
        last = len(points) - 1
        cuts = [0]
        if self.opts.own_stop:
            cuts += [j for j in range(1, last) if self._blocks(state, player, line, points[j])]
        return [*cuts, last]

    def _touching(self, state: ArpState) -> list[tuple[int, int]]:
        """Lines (and their touching points) that meet the line just coloured and are still
        uncoloured right at that point, on at least one side."""
        found: list[tuple[int, int]] = []
        for line, point in self.meets[state.last]:
            j = self.position[line][point]
            if any(
                (s := self._step(line, j, way)) is not None and state.segments[s] == FREE
                for way in (1, -1)
            ):
                found.append((line, point))
        return sorted(found)

    def _uncoloured(self, state: ArpState, segs: Sequence[int]) -> list[int]:
        return [s for s in segs if state.segments[s] == FREE]

    # -- moves -------------------------------------------------------------------------------

    def legal_moves(self, state: ArpState) -> Iterator[ArpMove]:
        player = self.to_move(state)
        if player is None:
            return
        if state.last >= 0:
            touching = self._touching(state)
            if touching:
                for line, point in touching:
                    j = self.position[line][point]
                    ends = self.points_on[line]
                    for way, end in ((-1, ends[0]), (1, ends[-1])):
                        s = self._step(line, j, way)
                        if s is not None and state.segments[s] == FREE:
                            yield ArpMove(line, end)
                return
        for line in range(len(self.line_ids)):
            segs = self.segments_on[line]
            points = self.points_on[line]
            cuts = self._cuts(state, player, line)
            if len(cuts) == 2:
                if self._uncoloured(state, segs):
                    yield ArpMove(line)
                continue
            for n, (a, b) in enumerate(itertools.pairwise(cuts)):
                if self._uncoloured(state, segs[a:b]):
                    # Canonical: start at a cut of the mover's own (never a line end).
                    if n == 0:
                        yield ArpMove(line, points[0], points[b])
                    else:
                        yield ArpMove(line, points[-1], points[a])

    def _colouring(self, state: ArpState, player: int, move: ArpMove) -> list[int]:
        """The segments ``move`` colours, or :class:`IllegalMove` saying why it may not."""
        line = move.line
        name = self.line_ids[line]
        segs = self.segments_on[line]
        points = self.points_on[line]
        ends = (points[0], points[-1])
        if not self._uncoloured(state, segs):
            raise IllegalMove("coloured", f"{name} is already coloured over its whole length")
        if move.toward is not None and move.toward not in ends:
            raise IllegalMove(
                "not-an-end",
                f"{self.point_ids[move.toward]} is not an end of {name} "
                f"(its ends are {self.point_ids[ends[0]]} and {self.point_ids[ends[1]]})",
            )
        if move.start is not None and move.start not in self.position[line]:
            raise IllegalMove(
                "not-on-line", f"{self.point_ids[move.start]} is not a point of {name}"
            )
        if state.last < 0:
            if move.toward is not None or move.start is not None:
                raise IllegalMove(
                    "whole-line", f"the first player colours the whole of {name}, no direction"
                )
            return list(segs)
        touching = self._touching(state)
        if touching:
            return self._usual(state, player, move, dict(touching))
        return self._whole(state, player, move)

    def _usual(
        self, state: ArpState, player: int, move: ArpMove, touching: dict[int, int]
    ) -> list[int]:
        """A usual move: from where the line touches the last one, one way."""
        line = move.line
        name = self.line_ids[line]
        last = self.line_ids[state.last]
        if line == state.last:
            raise IllegalMove("not-touching", f"{name} is the line just coloured")
        if line not in touching:
            if line in self.touch[state.last]:
                at = self.point_ids[self.touch[state.last][line]]
                raise IllegalMove(
                    "coloured-there",
                    f"{name} touches {last} at {at}, but is already coloured on both sides there",
                )
            raise IllegalMove(
                "not-touching",
                f"{name} does not touch {last}, the line just coloured "
                f"(lines to choose from: {', '.join(self.line_ids[k] for k in touching)})",
            )
        point = touching[line]
        if move.start is not None and move.start != point:
            raise IllegalMove(
                "wrong-start",
                f"{name} must be coloured from {self.point_ids[point]}, where it touches "
                f"{last}, not from {self.point_ids[move.start]}",
            )
        j = self.position[line][point]
        points = self.points_on[line]
        open_ways = [
            way
            for way in (-1, 1)
            if (s := self._step(line, j, way)) is not None and state.segments[s] == FREE
        ]
        if move.toward is None:
            if len(open_ways) > 1:
                raise IllegalMove(
                    "direction",
                    f"{name} can go either way from {self.point_ids[point]}: name the end, "
                    f"{name} > {self.point_ids[points[0]]} or "
                    f"{name} > {self.point_ids[points[-1]]}",
                )
            way = open_ways[0]
        else:
            way = -1 if move.toward == points[0] else 1
            if move.toward == point:
                raise IllegalMove(
                    "wrong-way",
                    f"{self.point_ids[point]} is where {name} touches {last}: name its other end",
                )
            if way not in open_ways:
                raise IllegalMove(
                    "wrong-way",
                    f"{name} is already coloured next to {self.point_ids[point]} towards "
                    f"{self.point_ids[move.toward]}",
                )
        return self._run(state, player, line, j, way)

    def _whole(self, state: ArpState, player: int, move: ArpMove) -> list[int]:
        """No line touching the last one is open: all of a line (or of one stretch of it)."""
        line = move.line
        name = self.line_ids[line]
        segs = self.segments_on[line]
        points = self.points_on[line]
        cuts = self._cuts(state, player, line)
        stretches = [
            (a, b) for a, b in itertools.pairwise(cuts) if self._uncoloured(state, segs[a:b])
        ]
        if move.toward is None and move.start is None:
            if len(stretches) > 1:
                raise IllegalMove(
                    "stretch",
                    f"lines of yours cut {name} into stretches: name one, as "
                    f"{name} from <point> > <end>",
                )
            a, b = stretches[0]
            return self._uncoloured(state, segs[a:b])
        if len(cuts) == 2:
            raise IllegalMove(
                "whole-line",
                f"no line touching {self.line_ids[state.last]} is open, so {name} is coloured "
                "over its whole length: write it without a direction",
            )
        if move.toward is None or move.start is None:
            raise IllegalMove(
                "stretch", f"name a stretch of {name} as {name} from <point> > <end of the line>"
            )
        j = self.position[line][move.start]
        if j not in cuts:
            raise IllegalMove(
                "wrong-start",
                f"a stretch of {name} starts at one of your own lines or at an end, "
                f"not at {self.point_ids[move.start]}",
            )
        if move.toward == move.start:
            raise IllegalMove(
                "wrong-way", f"{self.point_ids[move.start]} is an end: name the other end"
            )
        if move.toward == points[0]:
            a, b = cuts[cuts.index(j) - 1], j
        else:
            a, b = j, cuts[cuts.index(j) + 1]
        todo = self._uncoloured(state, segs[a:b])
        if not todo:
            raise IllegalMove(
                "coloured",
                f"the stretch of {name} from {self.point_ids[points[a]]} to "
                f"{self.point_ids[points[b]]} is already coloured",
            )
        return todo

    def apply(self, state: ArpState, move: ArpMove) -> ArpState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        run = self._colouring(state, player, move)
        segments = list(state.segments)
        for s in run:
            segments[s] = player
        spaces = list(state.spaces)
        scores = list(state.scores)
        for s in run:
            for k in self.segment_spaces[s]:
                if spaces[k] == FREE and all(segments[t] != FREE for t in self.space_segments[k]):
                    spaces[k] = player
                    scores[player] += 1
        return ArpState(
            tuple(segments),
            tuple(spaces),
            tuple(scores),
            move.line,
            (player + 1) % len(self.players),
        )

    # -- notation ----------------------------------------------------------------------------

    def parse_move(self, text: str, state: ArpState) -> ArpMove:
        words: list[tuple[str, int]] = []
        pos = 0
        while pos < len(text):
            m = _WORD.match(text, pos)
            if m is None:
                break
            words.append((m.group(1), m.start(1) + 1))
            pos = m.end()
        if not words:
            raise MoveSyntaxError(f"a move is a line: {self.notation}")
        word, col = words[0]
        line = self.lines.lookup(word)
        if line is None:
            raise MoveSyntaxError(
                f"'{word}' is not a line of this field (line-1 to line-{len(self.line_ids)})", col
            )
        rest = words[1:]
        start: int | None = None
        toward: int | None = None
        if rest and rest[0][0].lower() == "from":
            if len(rest) < 2:
                raise MoveSyntaxError("'from' needs a point, as from point-3-7", rest[0][1])
            start = self._point(*rest[1])
            rest = rest[2:]
        if rest:
            if rest[0][0] != ">" or len(rest) != 2:
                raise MoveSyntaxError(
                    "after the line comes '> <end point>' (or 'from <point> > <end point>')",
                    rest[0][1],
                )
            toward = self._point(*rest[1])
        elif start is not None:
            raise MoveSyntaxError(
                "a stretch needs its direction: from <point> > <end point>", len(text) + 1
            )
        return ArpMove(line, toward, start)

    def _point(self, word: str, col: int) -> int:
        point = self.points.lookup(word)
        if point is None:
            first, sep, second = word.lower().removeprefix("point-").partition("-")
            point = self.points.lookup(f"{second}-{first}") if sep else None
        if point is None:
            raise MoveSyntaxError(f"'{word}' is not a point of this field (as point-3-7)", col)
        return point

    def format_move(self, move: ArpMove) -> str:
        text = self.line_ids[move.line]
        if move.start is not None:
            text += f" from {self.point_ids[move.start]}"
        if move.toward is not None:
            text += f" > {self.point_ids[move.toward]}"
        return text

    # -- the finished sheet ------------------------------------------------------------------

    def final_marks(self, state: ArpState) -> dict[tuple[int, str], str]:
        words = [self.colour_word(p) for p in range(len(self.players))]
        marks = {(1, self.segment_ids[k]): words[o] for k, o in enumerate(state.segments) if o >= 0}
        marks |= {(1, self.space_ids[k]): words[o] for k, o in enumerate(state.spaces) if o >= 0}
        for item, word in tally_marks(self.sheet.page, state.scores, words).items():
            marks[(1, item)] = word
        return marks

    def check_final(self, position: Position) -> FinalReport:
        """A finished Arp sheet: every line coloured to its ends, every space whose outline is
        all coloured captured in the colour of one of its sides (whoever closed it coloured one),
        no space captured before its outline was closed; each captured space is a point.
        """
        report = FinalReport()
        segments = owners_of(position, self.segment_ids, report, FREE)
        spaces = owners_of(position, self.space_ids, report, FREE)
        left = [self.segment_ids[k] for k, o in enumerate(segments) if o == FREE]
        if left:
            reason = f"the game is not over: {len(left)} piece(s) of line are not coloured"
            report.breaches.append(Breach("unfinished", reason, tuple(left[:5])))
        for k, owner in enumerate(spaces):
            sides = [segments[t] for t in self.space_segments[k]]
            name = self.space_ids[k]
            if owner == FREE and FREE not in sides:
                reason = f"{name} has its whole outline coloured but nobody captured it"
                report.breaches.append(Breach("not-captured", reason, (name,)))
            elif owner != FREE and FREE in sides:
                reason = f"{name} is captured but its outline is not all coloured"
                report.breaches.append(Breach("open-capture", reason, (name,)))
            elif owner != FREE and owner not in sides:
                who = self.players[owner].name
                reason = f"{name} is {who}'s, but {who} coloured none of its sides"
                report.breaches.append(Breach("captured-by-stranger", reason, (name,)))
        scores = tuple(spaces.count(p) for p in range(len(self.players)))
        state = ArpState(tuple(segments), tuple(spaces), scores)
        report.scores = scores
        report.winners = self.winners(state) if not left else []
        report.facts = dict(self.claims(state))
        report.notes = self.describe(state)
        return report


RULES = ArpRules
