"""Co-Compositeness (Leroy Quet): an n-by-n grid of squares that each take two numbers.

The sheet is one square grid (:mod:`papergames.sheets.grid` gives the conventions) with light lines
and a medium outline. Play happens in the squares, so the coordinates printed are the squares' own,
chess style, on all four sides (the default grid is 16 by 16, and a label on the near side saves
reaching across it): columns ``a, b, c, ...`` from the left (no ``i``, as on a go board), rows
``1, 2, 3, ...`` from the bottom. A square must take two handwritten numbers of up to four
digits, so it is never drawn smaller than 9 mm; larger sizes are refused on paper too small for
that (the largest size is 19 on A4 and 20 on Letter with two players, 24 needs A3; ``papergames
list`` shows the figures).

Ids: ``space-<k>`` the squares (k = (row - 1) * size + column), ``line-1`` the outline,
``line-2`` .. the inner lines. Score rows: ``box-initials-<p>``, ``box-legend-<p>``,
``box-total-<p>``, one per player, without tally boxes (up to size^2 points are possible).

Parameters: ``size`` (default 16, 4..24) squares per side; ``players`` (default 2, 2..6) score
rows.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.errors import FitError
from papergames.play.example import Example
from papergames.play.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.sheets.board import Board
from papergames.sheets.compose import content_frame
from papergames.sheets.grid import (
    SCORE_WIDTH,
    GridLook,
    SquareData,
    grid_items,
    plan_grid,
    score_rows,
)
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Sheet, Style, data_as
from papergames.sheets.params import Param, ParamSet
from papergames.sheets.units import PAPERS

MIN_CELL = 9.0
"""Least side of a square in mm: room for two handwritten numbers of up to four digits."""

LOOK = GridLook(
    min_cell=MIN_CELL,
    purpose="to hold two handwritten numbers",
    lines=Style.LIGHT,
    perimeter=Style.MEDIUM,
    cell_sides=("bottom", "top", "left", "right"),
    vertex_labels="none",
    points="none",
)


@dataclass(frozen=True)
class CocompositeParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    size: int
    players: int


PARAMS = ParamSet(
    [
        Param.int("size", 16, 4, 24, "squares along each side of the grid"),
        Param.int("players", 2, 2, 6, "score rows"),
    ]
)


EXAMPLE = Example(
    transcript="""\
sheet: cocomposite size=6 seed=1
players: Ann (red), Bob (blue)
Ann: c3
Bob: d4
Ann: d3
Bob: c4
Ann: d4
claim: Ann score 1
claim: Bob score 0
""",
    text="""\
The picture shows the numbers written; Ann's squares are hatched, Bob's grey. Ann writes 1, \
Bob 3, Ann 5 and Bob 7, each in a square beside the number before. Ann writes 9 in the square \
that holds Bob's 3. Nine and three share the factor 3, so Ann scores 1 point.""",
    marks=(("space-15",), ("space-22",), ("space-16",), ("space-21",), ("space-22",)),
    labels=("1", "3", "5", "7", "9"),
)


class CocompositeLayout(Layout):
    """A grid of large squares with coordinates on every side and a score row per player."""

    name = "cocomposite"
    params = PARAMS
    param_shape = CocompositeParams
    how_to_play = """\
Numbers: The players write the odd numbers in order, one per turn. The first player writes 1 \
in any square, the next writes 3, then 5, and so on.

Placing: Each number goes in one of the up to eight squares around the square of the number \
before, sideways or diagonally. That square must be empty, or hold one number that shares a \
factor greater than 1 with the new number. For example, 9 may join 3 or 15, but not 5 or 7. A \
square never holds more than two numbers.

Scoring and end: Writing a number into a square that already holds one scores a point. If you \
can move, you must. The game ends as soon as the player to move has no legal square. Most \
points wins. More players need a larger grid; 16 by 16 suits two.

Names: Squares are named like chess squares, a1 at the bottom left, as printed around the \
grid.
"""

    def notes(self) -> list[str]:
        """Where the 9 mm squares cap the size on common paper, for two players."""
        sizes = ", ".join(f"{largest_size(paper)} on {paper}" for paper in ("a4", "letter"))
        return [f"squares are at least {MIN_CELL:g} mm wide, so the largest size is {sizes}"]

    def field_area(self, ctx: BuildContext) -> float:
        """The grid's outline, from the plan alone (see :meth:`Layout.field_area`)."""
        params = PARAMS.read(CocompositeParams, ctx.params)
        return float(
            plan_grid(ctx.frame, params.size, LOOK, params.players, SCORE_WIDTH).outline.area
        )

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(CocompositeParams, ctx.params)
        n, players = params.size, params.players
        plan = plan_grid(ctx.frame, n, LOOK, players, SCORE_WIDTH)
        items = grid_items(plan, LOOK)
        items.extend(score_rows(plan, caption="points"))
        data = plan.facts()
        data["players"] = players
        subtitle = f"{n} by {n} grid, {players} players: place 1, 3, 5, ... in neighbouring squares"
        return [PageBody(items, subtitle, plan.outline, data)]


def largest_size(paper: str, players: int = 2) -> int:
    """The largest size whose squares reach :data:`MIN_CELL` on ``paper`` in some orientation."""
    high = int(PARAMS["size"].high or 0)
    low = int(PARAMS["size"].low or 0)
    for n in range(high, low - 1, -1):
        for landscape in (False, True):
            try:
                plan_grid(
                    content_frame(*PAPERS[paper].size(landscape)), n, LOOK, players, SCORE_WIDTH
                )
            except FitError:
                continue
            return n
    return low - 1


LAYOUT = CocompositeLayout()


@dataclass(frozen=True)
class CocompositeState:
    """A position: the numbers in each square (index ``(row - 1) * size + col - 1``).

    Attributes:
        squares: for each square, the numbers written in it (at most two).
        last: the square that received the last number, ``None`` before the first move.
        moves: how many numbers have been written; the next one is ``2 * moves + 1``.
        scores: points per player.
    """

    squares: tuple[tuple[int, ...], ...]
    last: int | None
    moves: int
    scores: tuple[int, ...]


class CocompositeRules(Rules[CocompositeState, int]):
    """Co-Compositeness: write 1, 3, 5, ... next to the last number; doubling up scores.

    A move is a square index; its notation is the square's name as printed (``c4``).
    """

    game = "cocomposite"
    notation = "the square's name as printed around the grid, like c4"

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        page = sheet.pages[0]
        self.size = PARAMS.read(CocompositeParams, sheet.spec.params).size
        self.names: list[str] = [""] * self.size**2
        for feature in Board.of(page).features:
            square = data_as(feature.data, SquareData)
            col, row = square["col"], square["row"]
            self.names[(row - 1) * self.size + col - 1] = square["name"]
        self.index = {name: k for k, name in enumerate(self.names)}
        self.around: list[tuple[int, ...]] = [self._around(k) for k in range(self.size**2)]

    def _around(self, square: int) -> tuple[int, ...]:
        row, col = divmod(square, self.size)
        return tuple(
            r * self.size + c
            for r in range(row - 1, row + 2)
            for c in range(col - 1, col + 2)
            if (r, c) != (row, col) and 0 <= r < self.size and 0 <= c < self.size
        )

    def initial(self) -> CocompositeState:
        return CocompositeState(((),) * self.size**2, None, 0, (0,) * len(self.players))

    def _fits(self, state: CocompositeState, square: int) -> bool:
        held = state.squares[square]
        number = 2 * state.moves + 1
        return not held or (len(held) == 1 and math.gcd(held[0], number) > 1)

    def legal_moves(self, state: CocompositeState) -> Iterator[int]:
        targets = range(self.size**2) if state.last is None else self.around[state.last]
        return (k for k in targets if self._fits(state, k))

    def to_move(self, state: CocompositeState) -> int | None:
        if next(self.legal_moves(state), None) is None:
            return None
        return state.moves % len(self.players)

    def apply(self, state: CocompositeState, move: int) -> CocompositeState:
        number = 2 * state.moves + 1
        name = self.names[move]
        if self.to_move(state) is None:
            raise IllegalMove("game-over", "the game is over: the last number has no free square")
        if state.last is not None and move not in self.around[state.last]:
            raise IllegalMove(
                "not-adjacent",
                f"{number} must go in a square around {self.names[state.last]}, "
                f"where {number - 2} was written; {name} is not next to it",
            )
        held = state.squares[move]
        if len(held) >= 2:
            raise IllegalMove("full", f"{name} already holds two numbers ({held[0]}, {held[1]})")
        if held and math.gcd(held[0], number) == 1:
            raise IllegalMove(
                "coprime",
                f"{number} cannot join {held[0]} in {name}: they share no factor above 1",
            )
        player = state.moves % len(self.players)
        scores = list(state.scores)
        if held:
            scores[player] += 1
        squares = list(state.squares)
        squares[move] = (*held, number)
        return CocompositeState(tuple(squares), move, state.moves + 1, tuple(scores))

    def parse_move(self, text: str, state: CocompositeState) -> int:
        name = text.strip().lower()
        if name not in self.index:
            raise MoveSyntaxError(
                f"'{text}' is not a square of this {self.size} by {self.size} grid "
                f"(squares run from {self.names[0]} to {self.names[-1]})"
            )
        return self.index[name]

    def format_move(self, move: int) -> str:
        return self.names[move]

    def scores(self, state: CocompositeState) -> tuple[int, ...]:
        return state.scores

    def claims(self, state: CocompositeState) -> dict[str, tuple[int, ...]]:
        return {"moves": tuple(state.moves for _ in self.players)}


RULES = CocompositeRules
