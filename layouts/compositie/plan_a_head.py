"""Plan-A-Head (Fred Horn): place pieces set by set, never touching their own colour."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.layouts.compositie.board import (
    COLOUR_BY_WORD,
    COLOURS,
    LETTERS,
    PER_COLOUR,
    SQUARES,
    CompositieLayout,
    N,
    _square,
    board_marks,
)
from papergames.layouts.compositie.params import PlanAHeadParams
from papergames.play.example import Example
from papergames.play.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.sheets.board import Board
from papergames.sheets.model import Sheet

EXAMPLE = Example(
    transcript="""\
sheet: plan-a-head seed=1
players: Ann (red), Bob (blue)
Ann: Y f2
Bob: G d6
Ann: B b2
Bob: R c1
Bob: G a6
claim: Ann score 2
claim: Bob score 3
""",
    text="""\
The small numbers give the order of play; Ann's pieces are hatched, Bob's grey. The first set \
is yellow, green, blue and red. No piece touches one of its own colour. Bob places the last \
piece of the set, so Bob also places the first piece of the next one. Ann has placed 2 pieces \
and Bob 3.""",
    marks=(("space-12",), ("space-34",), ("space-8",), ("space-3",), ("space-31",)),
)


class PlanAHeadLayout(CompositieLayout):
    """Plan-A-Head: the empty board and the rules for two or three players."""

    name = "plan-a-head"
    param_shape = PlanAHeadParams
    how_to_play = """\
Material: The empty 6 by 6 board and the 36 pieces, 9 each of red, blue, green and yellow. \
Sort the pieces into nine sets of four, one piece of each colour in each set. The sets are \
played one after another.

A turn: Take one piece of the set in play. Put it on any empty square that touches no piece of \
the same colour, neither along a side nor at a corner. While the set still holds two or more \
pieces, you choose which one. Its last piece has to be taken as it is.

Turn order: With two players, whoever places the last piece of a set also places the first \
piece of the next one, and so plays twice in a row. With three players, the turn simply passes \
on clockwise.

End: A player who cannot put down any piece they may take is stuck, and the game is over. The \
player who placed the last piece wins. If all 36 pieces get placed, the one who placed the \
last of them wins.
"""

    def subtitle(self, params: Mapping[str, Any]) -> str:
        players = self.params.read(PlanAHeadParams, params).players
        return f"A placing game for {players} players by Fred Horn: the board starts empty"

    def heading(self) -> str:
        return "How to play"

    def summary(self, params: Mapping[str, Any]) -> list[str]:
        if self.params.read(PlanAHeadParams, params).players == 2:
            order = (
                "Two players take turns; whoever places the last piece of a set also opens "
                "the next set, and so plays twice in a row."
            )
        else:
            order = "Three players take turns clockwise, straight on from one set to the next."
        return [
            "Sort the 36 pieces into nine sets of four, one of each colour, and play the sets "
            "one after another on the empty board.",
            "On your turn take any piece of the set in play (its last piece must be taken) and "
            "put it on an empty square that touches no piece of the same colour, not even at a "
            "corner.",
            order,
            "If you cannot place a piece, the game ends: the player who placed the last piece "
            "wins.",
        ]


PLAN_A_HEAD = PlanAHeadLayout()


@dataclass(frozen=True)
class PlanAHeadState:
    """The board (a colour or ``""`` per square), the set in play, whose turn, who placed last."""

    board: tuple[str, ...] = ("",) * (N * N)
    left: tuple[str, ...] = COLOURS
    sets_done: int = 0
    turn: int = 0
    last: int | None = None
    placed: tuple[int, ...] = ()


class PlanAHeadRules(Rules[PlanAHeadState, tuple[str, int]]):
    """Plan-A-Head: place pieces set by set, never next to a piece of the same colour.

    A move is (colour, square), written ``R c4`` or ``red c4``. The player who places the last
    piece wins; the game ends when the player to move cannot place any piece they may take.
    Scores count the pieces each player placed (the winner is decided by the last piece).
    """

    game = "plan-a-head"
    notation = "the colour (R, B, G, Y) and the square, like R c4"

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        self.touching = Board.of(sheet.page).touching
        """For each square (a1, b1, ..), the squares it touches along a side or at a corner."""

    def position_marks(self, state: PlanAHeadState) -> dict[tuple[int, str], str]:
        """The pieces on the board now, each square in its piece's colour."""
        return board_marks(state.board)

    def initial(self) -> PlanAHeadState:
        return PlanAHeadState(placed=(0,) * len(self.players))

    def _may_take(self, state: PlanAHeadState) -> tuple[str, ...]:
        return state.left

    def _fits(self, state: PlanAHeadState, colour: str, square: int) -> bool:
        return not state.board[square] and all(
            state.board[t] != colour for t in self.touching[square]
        )

    def legal_moves(self, state: PlanAHeadState) -> Iterator[tuple[str, int]]:
        if state.sets_done == PER_COLOUR:
            return
        for colour in state.left:
            for square in range(N * N):
                if self._fits(state, colour, square):
                    yield (colour, square)

    def to_move(self, state: PlanAHeadState) -> int | None:
        if next(self.legal_moves(state), None) is None:
            return None
        return state.turn

    def apply(self, state: PlanAHeadState, move: tuple[str, int]) -> PlanAHeadState:
        if self.to_move(state) is None:
            raise IllegalMove("game-over", "the game is over: nobody can place the next piece")
        colour, square = move
        if colour not in state.left:
            raise IllegalMove(
                "not-in-set",
                f"the set in play has {', '.join(state.left)} left, not {colour}",
            )
        if state.board[square]:
            raise IllegalMove("occupied", f"{SQUARES[square]} already holds a piece")
        same = [SQUARES[t] for t in self.touching[square] if state.board[t] == colour]
        if same:
            raise IllegalMove(
                "same-colour",
                f"{colour} on {SQUARES[square]} would touch the {colour} on {same[0]}",
            )
        board = list(state.board)
        board[square] = colour
        left = tuple(c for c in state.left if c != colour)
        sets_done = state.sets_done
        count = len(self.players)
        nxt = (state.turn + 1) % count
        if not left:
            sets_done += 1
            left = COLOURS if sets_done < PER_COLOUR else ()
            if count == 2:
                nxt = state.turn
        placed = list(state.placed)
        placed[state.turn] += 1
        return PlanAHeadState(tuple(board), left, sets_done, nxt, state.turn, tuple(placed))

    def parse_move(self, text: str, state: PlanAHeadState) -> tuple[str, int]:
        words = text.split()
        if len(words) != 2 or words[0].lower() not in COLOUR_BY_WORD:
            raise MoveSyntaxError("a move is a colour and a square, like R c4 or red c4")
        return COLOUR_BY_WORD[words[0].lower()], _square(words[1], len(words[0]) + 2)

    def format_move(self, move: tuple[str, int]) -> str:
        return f"{LETTERS[move[0]]} {SQUARES[move[1]]}"

    def scores(self, state: PlanAHeadState) -> tuple[int, ...]:
        return state.placed

    def winners(self, state: PlanAHeadState) -> list[int]:
        if not self.is_over(state) or state.last is None:
            return []
        return [state.last]


PLAN_A_HEAD_RULES = PlanAHeadRules
