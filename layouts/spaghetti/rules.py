"""Spaghetti's rules engine: shade squares, then draw lines; each crossing scores for the other."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.layouts.spaghetti.params import PARAMS, SpaghettiParams
from papergames.play.rules import IllegalMove, MoveSyntaxError, Player, Rules, parse_pair
from papergames.sheets.board import Board
from papergames.sheets.grid import VertexData, cell_name
from papergames.sheets.model import Kind, Sheet, data_as


@dataclass(frozen=True)
class SpaghettiMove:
    """Shading a square (``kind="fill"``), drawing a line, or claiming to be stuck."""

    kind: str
    square: int = -1
    ends: tuple[int, int] = (-1, -1)


STUCK = SpaghettiMove("stuck")


@dataclass(frozen=True)
class SpaghettiState:
    """Squares shaded (in order), lines drawn (as vertex-index pairs), points, and the end."""

    filled: tuple[int, ...] = ()
    lines: tuple[tuple[int, int], ...] = ()
    scores: tuple[int, int] = (0, 0)
    ended: bool = False


class SpaghettiRules(Rules[SpaghettiState, SpaghettiMove]):
    """Uncooked Spaghetti: shade n squares, then draw lines; each crossing scores for the other.

    Geometry is exact: vertices are integer grid points, so whether a line enters a shaded
    square or crosses another line is decided by integer cross products, never by floating
    point. The second phase ends when a player says ``stuck`` and no line is left; the claim is
    refused, with a line they could still draw, when one exists.
    """

    game = "spaghetti"
    notation = "a square to shade (c4); a line between two edge vertices (A3-F9); or stuck"

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        self.n = PARAMS.read(SpaghettiParams, sheet.spec.params).size
        n = self.n
        self.squares = [cell_name(c, r) for r in range(1, n + 1) for c in range(1, n + 1)]
        self.square_index = {name: k for k, name in enumerate(self.squares)}
        self.vertices: list[tuple[int, int]] = []
        self.vertex_names: list[str] = []
        self.vertex_edges: list[frozenset[str]] = []
        for feature in Board.of(sheet.page, Kind.POINT).features:
            vertex = data_as(feature.data, VertexData)
            self.vertices.append((vertex["col"], vertex["row"]))
            self.vertex_names.append(vertex["name"])
            self.vertex_edges.append(frozenset(vertex["edges"]))
        self.vertex_index = {name: k for k, name in enumerate(self.vertex_names)}
        self.pairs = [
            (a, b)
            for a, b in itertools.combinations(range(len(self.vertices)), 2)
            if not self.vertex_edges[a] & self.vertex_edges[b]
        ]
        self._clear: dict[frozenset[int], list[tuple[int, int]]] = {}

    def _enters(self, ends: tuple[int, int], square: int) -> bool:
        """Whether the line between two vertices passes through the inside of a square."""
        (x0, y0), (x1, y1) = self.vertices[ends[0]], self.vertices[ends[1]]
        row, col = divmod(square, self.n)
        sides = set()
        for cx, cy in (
            (col + 1, row + 1),
            (col + 2, row + 1),
            (col + 1, row + 2),
            (col + 2, row + 2),
        ):
            cross = (x1 - x0) * (cy - y0) - (y1 - y0) * (cx - x0)
            sides.add((cross > 0) - (cross < 0))
        # Both ends lie on the grid's outline, so the line spans the whole grid: it enters the
        # square exactly when the square's corners lie strictly on both sides of it.
        return 1 in sides and -1 in sides

    def _crosses(self, p: tuple[int, int], q: tuple[int, int]) -> bool:
        (ax, ay), (bx, by) = self.vertices[p[0]], self.vertices[p[1]]
        (cx, cy), (dx, dy) = self.vertices[q[0]], self.vertices[q[1]]

        def side(ox: int, oy: int, px: int, py: int, qx: int, qy: int) -> int:
            cross = (px - ox) * (qy - oy) - (py - oy) * (qx - ox)
            return (cross > 0) - (cross < 0)

        return (
            side(ax, ay, bx, by, cx, cy) * side(ax, ay, bx, by, dx, dy) < 0
            and side(cx, cy, dx, dy, ax, ay) * side(cx, cy, dx, dy, bx, by) < 0
        )

    def initial(self) -> SpaghettiState:
        return SpaghettiState()

    def to_move(self, state: SpaghettiState) -> int | None:
        if len(state.filled) < self.n:
            return len(state.filled) % 2
        if state.ended:
            return None
        return (1 + len(state.lines)) % 2

    def _clear_of(self, filled: tuple[int, ...]) -> list[tuple[int, int]]:
        """The vertex pairs whose line enters no shaded square; worked out once per shading."""
        key = frozenset(filled)
        if key not in self._clear:
            self._clear[key] = [
                pair for pair in self.pairs if not any(self._enters(pair, sq) for sq in filled)
            ]
        return self._clear[key]

    def _open_lines(self, state: SpaghettiState) -> Iterator[tuple[int, int]]:
        used = {v for line in state.lines for v in line}
        for pair in self._clear_of(state.filled):
            if pair[0] not in used and pair[1] not in used:
                yield pair

    def legal_moves(self, state: SpaghettiState) -> Iterator[SpaghettiMove]:
        if self.to_move(state) is None:
            return
        if len(state.filled) < self.n:
            taken = set(state.filled)
            yield from (SpaghettiMove("fill", k) for k in range(self.n**2) if k not in taken)
            return
        any_line = False
        for pair in self._open_lines(state):
            any_line = True
            yield SpaghettiMove("line", ends=pair)
        if not any_line:
            yield STUCK

    def apply(self, state: SpaghettiState, move: SpaghettiMove) -> SpaghettiState:
        mover = self.to_move(state)
        if mover is None:
            raise IllegalMove("game-over", "the game is over")
        if len(state.filled) < self.n:
            if move.kind != "fill":
                raise IllegalMove(
                    "shade-first", f"first {self.n} squares are shaded ({len(state.filled)} so far)"
                )
            if move.square in state.filled:
                raise IllegalMove("shaded", f"{self.squares[move.square]} is already shaded")
            return SpaghettiState((*state.filled, move.square))
        if move.kind == "fill":
            raise IllegalMove("lines-now", f"all {self.n} squares are shaded: now draw lines")
        if move.kind == "stuck":
            example = next(self._open_lines(state), None)
            if example is not None:
                raise IllegalMove(
                    "not-stuck", f"not stuck: {self._line_name(example)} can still be drawn"
                )
            return SpaghettiState(state.filled, state.lines, state.scores, ended=True)
        a, b = move.ends
        name = self._line_name(move.ends)
        shared = self.vertex_edges[a] & self.vertex_edges[b]
        if shared:
            raise IllegalMove(
                "same-side", f"{name} has both ends on the {sorted(shared)[0]} side of the grid"
            )
        for line in state.lines:
            for v in (a, b):
                if v in line:
                    raise IllegalMove(
                        "vertex-used", f"{self.vertex_names[v]} already has a line at it"
                    )
        for square in state.filled:
            if self._enters(move.ends, square):
                raise IllegalMove(
                    "through-shaded",
                    f"{name} passes through the shaded square {self.squares[square]}",
                )
        crossed = sum(1 for line in state.lines if self._crosses(move.ends, line))
        scores = list(state.scores)
        scores[1 - mover] += crossed
        return SpaghettiState(
            state.filled, (*state.lines, move.ends), (scores[0], scores[1]), state.ended
        )

    def _line_name(self, ends: tuple[int, int]) -> str:
        return f"{self.vertex_names[ends[0]]}-{self.vertex_names[ends[1]]}"

    def parse_move(self, text: str, state: SpaghettiState) -> SpaghettiMove:
        word = text.strip()
        if word.lower() == "stuck":
            return STUCK
        if "-" in word:
            what = f"a vertex on the grid's outline (named like A1, {self.vertex_names[-1]})"
            a, b = parse_pair(word, self.vertex_index, what, "a line")
            return SpaghettiMove("line", ends=(self.vertex_index[a], self.vertex_index[b]))
        name = word.lower()
        if name not in self.square_index:
            raise MoveSyntaxError(
                f"'{word}' is neither a square (a1 .. {self.squares[-1]}), a line (A1-D9), "
                "nor 'stuck'"
            )
        return SpaghettiMove("fill", self.square_index[name])

    def format_move(self, move: SpaghettiMove) -> str:
        if move.kind == "fill":
            return self.squares[move.square]
        if move.kind == "line":
            return self._line_name(move.ends)
        return "stuck"

    def scores(self, state: SpaghettiState) -> tuple[int, ...]:
        return state.scores

    def claims(self, state: SpaghettiState) -> dict[str, tuple[int, ...]]:
        return {"lines": tuple(len(state.lines) for _ in self.players)}


RULES = SpaghettiRules
