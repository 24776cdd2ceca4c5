"""Co-Compositeness's rules engine: write 1, 3, 5, ... beside the last; doubling up scores."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.layouts.cocomposite.params import PARAMS, CocompositeParams
from papergames.play.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.sheets.board import Board
from papergames.sheets.grid import SquareData
from papergames.sheets.model import Sheet, data_as


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
