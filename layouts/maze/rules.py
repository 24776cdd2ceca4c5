"""The maze's rules: build a maze of segments, then run its corridors section by section."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from papergames.layouts.maze.geometry import COMPASS, Maze, Point, _cross
from papergames.layouts.maze.params import PARAMS, MazeParams
from papergames.play.rules import IllegalMove, MoveSyntaxError, Player, Rules, parse_pair
from papergames.sheets.board import Board
from papergames.sheets.grid import VertexData, cell_name
from papergames.sheets.model import Kind, Sheet, data_as
from papergames.sheets.params import Param, ParamSet
from papergames.sheets.rng import Rng

MAZES_KEPT = 16
"""Finished mazes a rules instance remembers (a replayed game finds its maze again)."""


_MOVE_WORDS = re.compile(r"([a-z]+\d+)\s*(.*)")


_POINT = re.compile(r"([^,\s]+)\s*,\s*([^,\s]+)")


@dataclass(frozen=True)
class MazeMove:
    """Drawing a segment between two vertices (as written), or filling a section.

    A fill names its section by index in the finished maze and carries the section's name;
    a fill written while the maze is still being built names only its square (section -1).
    """

    kind: str
    ends: tuple[int, int] = (-1, -1)
    section: int = -1
    square: int = -1
    name: str = ""


@dataclass(frozen=True)
class MazeState:
    """Segments drawn (start vertex first), vertices touched (a bit mask), then the sections
    filled (in order, and as a bit mask) and the scores.

    ``maze`` is the finished maze (computed once, when the last vertex is touched).
    """

    segments: tuple[tuple[int, int], ...] = ()
    touched: int = 0
    filled: tuple[int, ...] = ()
    done: int = 0
    scores: tuple[int, ...] = ()
    maze: Maze | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class MazeOptions:
    """The engine's options, typed."""

    final_point: bool
    pass_ends: bool


class MazeRules(Rules[MazeState, MazeMove]):
    """The "Maze" of Polygonal Sections: draw a maze of segments, then run its corridors.

    Geometry is exact: vertices are integer points, segments are tested against each other by
    integer cross products, and the sections are cut in integer units of a fraction of a square
    (:class:`Maze`), worked out once per finished maze.

    Phase 1: a segment joins a touched vertex (on the outline, or on a segment) to an untouched
    one; it may pass over untouched vertices, and may meet the outline and the segments only
    at its touched end (no crossing, overlapping or touching anywhere else). The seed forbids
    only crossing and coinciding, so option ``pass_ends`` takes the looser reading: a segment
    may also pass through a vertex where other segments end, as long as they all lie on one
    side of it there (segments ending there on both sides make a drawn line it would cross).
    Off by default, since the text does not clearly allow it. A legal segment
    always exists while a vertex is untouched (the vertex lies inside a face of the drawing,
    a polygon with grid vertices for corners, and sees a corner of it), so phase 1 ends exactly
    when every vertex is touched. Phase 2 is begun by the player after the one who drew the last
    segment; turns keep rotating. A player who is stuck needs no move of their own: they write the
    section that starts the new run, and the point goes to the player before them. Option
    ``final_point``: the player who fills the last section also scores, as if the next player
    were stuck (off by default: the game is over when every section is filled).

    Notation: segments by their end vertices in either order (B2-F7); sections by their square
    (c4) when it is undivided, else by the square and a compass word (c4 nw: the section at the
    north-west corner, entered from the corner towards the centre; n, e, s, w enter at the
    middle of a side) or a point inside the section, across and up from the square's lower-left
    corner as decimals or fractions (c4 0.3,0.65; c4 1/3,2/3). A word or point that falls on a
    segment is refused as ambiguous.
    """

    game = "maze"
    notation = (
        "a segment between vertices (B2-F7); a section to fill: a square (c4), "
        "or when it is divided, c4 nw (a compass word) or c4 0.3,0.65 (a point in it)"
    )
    options = ParamSet(
        [
            Param.bool(
                "final_point",
                False,
                "the player who fills the last section scores a point for ending the last run",
            ),
            Param.bool(
                "pass_ends",
                False,
                "a segment may pass through a vertex where other segments end, without crossing",
            ),
        ]
    )
    option_shape = MazeOptions

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        self.opts = self.options.read(MazeOptions, self.option_values)
        self.n = PARAMS.read(MazeParams, sheet.spec.params).size
        n = self.n
        self.coords: list[Point] = []
        self.vertex_names: list[str] = []
        for feature in Board.of(sheet.page, Kind.POINT).features:
            vertex = data_as(feature.data, VertexData)
            self.coords.append((vertex["col"] - 1, vertex["row"] - 1))
            self.vertex_names.append(vertex["name"])
        self.vertex_index = {name: v for v, name in enumerate(self.vertex_names)}
        self.at = {xy: v for v, xy in enumerate(self.coords)}
        self.outline = 0
        for v, (x, y) in enumerate(self.coords):
            if x in (0, n) or y in (0, n):
                self.outline |= 1 << v
        self.everything = (1 << len(self.coords)) - 1
        self.squares = [cell_name(c, r) for r in range(1, n + 1) for c in range(1, n + 1)]
        self.square_index = {name: k for k, name in enumerate(self.squares)}
        self._mazes: dict[frozenset[tuple[int, int]], Maze] = {}
        self._boxes: dict[tuple[int, int], tuple[int, int, int, int]] = {}

    # -- phase 1: building the maze ------------------------------------------------------------

    def _touched(self, state: MazeState, v: int) -> bool:
        return bool(state.touched >> v & 1)

    def _on(self, p: Point, q: Point) -> list[int]:
        """The vertices on the segment p-q, ends included, from p to q."""
        dx, dy = q[0] - p[0], q[1] - p[1]
        g = math.gcd(dx, dy)
        return [self.at[(p[0] + i * dx // g, p[1] + i * dy // g)] for i in range(g + 1)]

    @staticmethod
    def _conflict(p: Point, q: Point, a: Point, b: Point) -> str | None:
        """How the new segment p-q (from p, to an untouched q) meets the drawn a-b, if at all
        anywhere but p: ``crosses``, ``overlaps`` or ``touches``."""
        o1, o2 = _cross(p, q, a), _cross(p, q, b)
        if o1 == 0 and o2 == 0:
            axis = (q[0] - p[0], q[1] - p[1])
            length = axis[0] ** 2 + axis[1] ** 2
            ta = (a[0] - p[0]) * axis[0] + (a[1] - p[1]) * axis[1]
            tb = (b[0] - p[0]) * axis[0] + (b[1] - p[1]) * axis[1]
            low, high = max(min(ta, tb), 0), min(max(ta, tb), length)
            if high > low:
                return "overlaps"
            if high == low and low != 0:
                return "touches"
            return None
        if o1 * o2 < 0 and _cross(a, b, p) * _cross(a, b, q) < 0:
            return "crosses"
        for end, side in ((a, o1), (b, o2)):
            if end != p and side == 0 and _between(p, q, end):
                return "touches"
        if _cross(a, b, q) == 0 and _between(a, b, q):
            return "touches"  # pragma: no cover - q is untouched, so never on a segment
        return None

    def _clear(self, state: MazeState, p: int, q: int) -> bool:
        """Whether p (touched) -> q (untouched) is a legal segment; the fast test for playouts."""
        pp, qq = self.coords[p], self.coords[q]
        passed = [v for v in self._on(pp, qq)[1:-1] if state.touched >> v & 1]
        if passed and not self.opts.pass_ends:
            return False
        x_low, x_high = (pp[0], qq[0]) if pp[0] < qq[0] else (qq[0], pp[0])
        y_low, y_high = (pp[1], qq[1]) if pp[1] < qq[1] else (qq[1], pp[1])
        boxes = self._boxes
        for segment in state.segments:
            box = boxes.get(segment)
            if box is None:
                box = boxes[segment] = self._box(segment)
            if box[1] < x_low or box[0] > x_high or box[3] < y_low or box[2] > y_high:
                continue
            code = self._conflict(pp, qq, self.coords[segment[0]], self.coords[segment[1]])
            if code is not None and not (code == "touches" and self.opts.pass_ends):
                return False
        return not any(self._through(state, pp, qq, v) for v in passed)

    def _through(self, state: MazeState, p: Point, q: Point, v: int) -> bool:
        """Whether the segment p-q, passing through the vertex v where segments end, crosses
        the drawing there: some of those segments lie on either side of it.

        Two segments ending at v from opposite sides make one drawn line through v, and a pen
        passing through v goes over that line, so this counts as crossing even though neither
        segment is crossed on its own. (Collinear ones overlap and are refused before this.)
        """
        sides = set()
        for a, b in state.segments:
            if v in (a, b):
                other = self.coords[b if a == v else a]
                sides.add(_cross(p, q, other) > 0)
        return len(sides) > 1

    def _box(self, segment: tuple[int, int]) -> tuple[int, int, int, int]:
        """The bounding box of a segment: least and greatest x, least and greatest y."""
        (ax, ay), (bx, by) = self.coords[segment[0]], self.coords[segment[1]]
        return min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)

    def _segment_problem(self, state: MazeState, a: int, b: int) -> IllegalMove | None:
        name = self._segment_name((a, b))
        ta, tb = self._touched(state, a), self._touched(state, b)
        if not ta and not tb:
            return IllegalMove(
                "no-start",
                f"{name} starts nowhere: neither {self.vertex_names[a]} nor "
                f"{self.vertex_names[b]} is on the outline or on a segment",
            )
        if ta and tb:
            return IllegalMove(
                "end-touched",
                f"{name} must end at an untouched vertex, but {self.vertex_names[a]} and "
                f"{self.vertex_names[b]} are both on the outline or on segments",
            )
        p, q = (a, b) if ta else (b, a)
        if self._clear(state, p, q):
            return None
        pp, qq = self.coords[p], self.coords[q]
        for s, e in state.segments:
            code = self._conflict(pp, qq, self.coords[s], self.coords[e])
            if code == "touches" and self.opts.pass_ends:
                continue
            if code is not None:
                what = {"crosses": "cross", "overlaps": "overlap", "touches": "touch"}[code]
                where = f"only at its start, {self.vertex_names[p]}"
                if self.opts.pass_ends:
                    where += ", or by passing through a vertex where other segments end"
                return IllegalMove(
                    code,
                    f"{name} would {what} the segment {self._segment_name((s, e))}; a new "
                    f"segment may meet the drawing {where}",
                )
        passed = [v for v in self._on(pp, qq)[1:-1] if self._touched(state, v)]
        for v in passed:
            if self._through(state, pp, qq, v):
                return IllegalMove(
                    "crosses",
                    f"{name} would cross the drawing at {self.vertex_names[v]}: segments end "
                    "there on both sides of it",
                )
        over = passed[0]
        return IllegalMove(  # pragma: no cover - a touched vertex lies on some segment
            "touches", f"{name} would pass over {self.vertex_names[over]}, already touched"
        )

    def _segment_name(self, ends: tuple[int, int]) -> str:
        return f"{self.vertex_names[ends[0]]}-{self.vertex_names[ends[1]]}"

    def _draw(self, state: MazeState, p: int, q: int) -> MazeState:
        touched = state.touched
        for v in self._on(self.coords[p], self.coords[q]):
            touched |= 1 << v
        segments = (*state.segments, (p, q))
        maze = None
        if touched == self.everything:
            maze = self._maze(segments)
        return MazeState(segments, touched, (), 0, state.scores, maze)

    def _maze(self, segments: Sequence[tuple[int, int]]) -> Maze:
        """The sections of a finished maze, worked out once per set of segments."""
        key = frozenset((min(s, e), max(s, e)) for s, e in segments)
        maze = self._mazes.get(key)
        if maze is None:
            if len(self._mazes) >= MAZES_KEPT:
                self._mazes.clear()
            maze = Maze.build(self.n, ((self.coords[s], self.coords[e]) for s, e in segments))
            self._mazes[key] = maze
        return maze

    def _random_segment(self, state: MazeState, rng: Rng) -> MazeMove:
        touched = [v for v in range(len(self.coords)) if state.touched >> v & 1]
        untouched = [v for v in range(len(self.coords)) if not state.touched >> v & 1]
        for _ in range(40):
            p, q = rng.choice(touched), rng.choice(untouched)
            if self._clear(state, p, q):
                return MazeMove("segment", (p, q))
        q = rng.choice(untouched)
        qx, qy = self.coords[q]
        near = sorted(
            touched,
            key=lambda v: (
                (self.coords[v][0] - qx) ** 2 + (self.coords[v][1] - qy) ** 2,
                rng.random(),
            ),
        )
        for p in near:
            if self._clear(state, p, q):
                return MazeMove("segment", (p, q))
        raise AssertionError("an untouched vertex always sees a touched one")  # pragma: no cover

    # -- the game ------------------------------------------------------------------------------

    def initial(self) -> MazeState:
        return MazeState(touched=self.outline, scores=(0,) * len(self.players))

    def to_move(self, state: MazeState) -> int | None:
        if state.maze is None:
            return len(state.segments) % len(self.players)
        if len(state.filled) == len(state.maze.square):
            return None
        return (len(state.segments) + len(state.filled)) % len(self.players)

    def _ahead(self, state: MazeState) -> list[int] | None:
        """The empty sections in the corridor of the one filled last (empty when the player to
        move is stuck), or ``None`` before the first fill."""
        maze = state.maze
        assert maze is not None
        if not state.filled:
            return None
        return sorted(s for s in maze.corridor[state.filled[-1]] if not state.done >> s & 1)

    def _choices(self, state: MazeState) -> list[int]:
        """The sections the player to move may fill."""
        assert state.maze is not None
        ahead = self._ahead(state)
        if ahead:
            return ahead
        return [s for s in range(len(state.maze.square)) if not state.done >> s & 1]

    def legal_moves(self, state: MazeState) -> Iterator[MazeMove]:
        if self.to_move(state) is None:
            return
        maze = state.maze
        if maze is None:
            for q in range(len(self.coords)):
                if self._touched(state, q):
                    continue
                for p in range(len(self.coords)):
                    if self._touched(state, p) and self._clear(state, p, q):
                        yield MazeMove("segment", (p, q))
            return
        for s in self._choices(state):
            yield self._fill(maze, s)

    def random_move(self, state: MazeState, rng: Rng) -> MazeMove:
        if self.to_move(state) is None:
            raise IllegalMove("no-move", "nobody can move: the game is over")
        if state.maze is None:
            return self._random_segment(state, rng)
        return self._fill(state.maze, rng.choice(self._choices(state)))

    @staticmethod
    def _fill(maze: Maze, section: int) -> MazeMove:
        return MazeMove(
            "fill", section=section, square=maze.square[section], name=maze.names[section]
        )

    def apply(self, state: MazeState, move: MazeMove) -> MazeState:
        mover = self.to_move(state)
        if mover is None:
            raise IllegalMove("game-over", "the game is over: every section is filled")
        maze = state.maze
        if maze is None:
            if move.kind != "segment":
                left = bin(self.everything & ~state.touched).count("1")
                raise IllegalMove(
                    "building",
                    f"the maze is not finished ({left} vertices untouched): draw a segment",
                )
            problem = self._segment_problem(state, *move.ends)
            if problem is not None:
                raise problem
            a, b = move.ends
            return self._draw(state, *((a, b) if self._touched(state, a) else (b, a)))
        if move.kind != "fill" or move.section < 0:
            raise IllegalMove(
                "maze-done", "every vertex is touched: the maze is finished, now fill sections"
            )
        section = move.section
        name = maze.names[section]
        if state.done >> section & 1:
            raise IllegalMove("filled", f"{name} is already filled")
        ahead = self._ahead(state)
        stuck = ahead is not None and not ahead
        if ahead and section not in ahead:
            last = state.filled[-1]
            example = maze.names[ahead[0]]
            if section in maze.walled[last]:
                raise IllegalMove(
                    "walled",
                    f"a segment separates {name} from {maze.names[last]}, filled last; "
                    f"fill a section in its corridor, like {example}",
                )
            raise IllegalMove(
                "not-adjacent",
                f"{name} is not next to {maze.names[last]}, filled last, and that section "
                f"still has an empty neighbour in its corridor, like {example}",
            )
        scores = list(state.scores)
        count = len(self.players)
        if stuck:
            scores[(mover - 1) % count] += 1
        filled = (*state.filled, section)
        if len(filled) == len(maze.square) and self.opts.final_point:
            scores[mover] += 1
        done = state.done | 1 << section
        return MazeState(state.segments, state.touched, filled, done, tuple(scores), maze)

    # -- notation ------------------------------------------------------------------------------

    def parse_move(self, text: str, state: MazeState) -> MazeMove:
        word = text.strip()
        if "-" in word:
            return self._parse_segment(word)
        match = _MOVE_WORDS.fullmatch(word.lower())
        if match is None or match.group(1) not in self.square_index:
            raise MoveSyntaxError(
                f"'{word}' is neither a segment (like B2-F7) nor a section (a square from a1 to "
                f"{self.squares[-1]}, like c4, c4 nw or c4 0.3,0.65)"
            )
        square = self.square_index[match.group(1)]
        rest = match.group(2)
        column = match.start(2) + 1
        where: tuple[Fraction, Fraction] | None = None
        if rest and rest not in COMPASS:
            where = self._parse_point(rest, column)
        maze = state.maze
        if maze is None:
            label = match.group(1) + (f" {rest}" if rest else "")
            return MazeMove("fill", square=square, name=label)
        sections = maze.in_square[square]
        name = self.squares[square]
        if not rest:
            if len(sections) > 1:
                raise MoveSyntaxError(
                    f"{name} is divided into {len(sections)} sections: name one, like "
                    + " or ".join(maze.names[s] for s in sections[:2]),
                    len(word) + 1,
                )
            return self._fill(maze, sections[0])
        found = maze.find(square, where) if where is not None else maze.toward(square, rest)
        if found is None:
            raise MoveSyntaxError(
                f"'{rest}' lies on a segment dividing {name}: name a point inside the section, "
                f"like {maze.names[sections[0]]}",
                column,
            )
        return self._fill(maze, found)

    def _parse_point(self, text: str, column: int) -> tuple[Fraction, Fraction]:
        match = _POINT.fullmatch(text)
        if match is None:
            raise MoveSyntaxError(
                f"'{text}' is neither a compass word ({', '.join(COMPASS)}) nor a point inside "
                "the square like 0.3,0.65",
                column,
            )
        values: list[Fraction] = []
        for k in (1, 2):
            try:
                value = Fraction(match.group(k))
            except (ValueError, ZeroDivisionError):
                value = Fraction(-1)
            if not 0 < value < 1:
                raise MoveSyntaxError(
                    f"'{match.group(k)}' is not a number between 0 and 1 (a point inside the "
                    "square, measured from its lower-left corner)",
                    column + match.start(k),
                )
            values.append(value)
        return values[0], values[1]

    def _parse_segment(self, word: str) -> MazeMove:
        what = f"a vertex of the grid (named like A1, {self.vertex_names[-1]})"
        a, b = parse_pair(word, self.vertex_index, what, "a segment")
        return MazeMove("segment", (self.vertex_index[a], self.vertex_index[b]))

    def format_move(self, move: MazeMove) -> str:
        if move.kind == "segment":
            return self._segment_name(move.ends)
        return move.name

    # -- results -------------------------------------------------------------------------------

    def scores(self, state: MazeState) -> tuple[int, ...]:
        return state.scores

    def claims(self, state: MazeState) -> dict[str, tuple[int, ...]]:
        count = len(self.players)
        drawn = [0] * count
        for k in range(len(state.segments)):
            drawn[k % count] += 1
        fills = [0] * count
        for k in range(len(state.filled)):
            fills[(len(state.segments) + k) % count] += 1
        return {"segments": tuple(drawn), "sections": tuple(fills)}

    def describe(self, state: MazeState) -> list[str]:
        if state.maze is None:
            return []
        bonus = int(self.is_over(state) and self.opts.final_point)
        runs = sum(state.scores) + 1 - bonus if state.filled else 0
        return [
            f"the maze: {len(state.segments)} segments cut the {self.n * self.n} squares into "
            f"{len(state.maze.square)} sections; {runs} runs filled"
        ]


def _between(p: Point, q: Point, x: Point) -> bool:
    """Whether x, known to be on the line p-q, lies on the closed segment p-q."""
    return min(p[0], q[0]) <= x[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= x[1] <= max(p[1], q[1])


RULES = MazeRules
