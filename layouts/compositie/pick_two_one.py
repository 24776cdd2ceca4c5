"""Pick Tw=O=ne (Fred Horn): take pieces from a full board along straight lines."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from papergames.layouts.compositie.board import (
    COLOURS,
    LETTERS,
    PER_COLOUR,
    SQUARES,
    SYMBOL_RATIO,
    CompositieLayout,
    N,
    _square,
    board_marks,
    letter,
    symbol,
)
from papergames.layouts.compositie.params import PickTwoOneParams
from papergames.play.example import Example
from papergames.play.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.sheets.grid import GridPlan, cell_name
from papergames.sheets.layout import BuildContext
from papergames.sheets.model import Item, Sheet, data_as
from papergames.sheets.params import Param, ParamSet


class SetupData(TypedDict):
    """The page's facts: the start position (square name -> colour) and the line set."""

    setup: dict[str, str]
    lines: str


EXAMPLE = Example(
    transcript="""\
sheet: pick-two-one seed=1
players: Ann (red), Bob (blue)
Ann: f1 f2
Bob: a1
claim: Ann score 2
claim: Bob score 1
""",
    text="""\
The small numbers give the order of play. Ann's line holds three or more colours, so Ann takes \
two pieces, f1 and f2 (hatched). Bob then takes one piece, a1 (grey). Ann has taken 2 pieces \
and Bob 1.""",
    marks=(("space-6", "space-12"), ("space-1",)),
)


class PickTwoOneLayout(CompositieLayout):
    """Pick Tw=O=ne: the full start position drawn from the seed, printed on the board."""

    name = "pick-two-one"
    param_shape = PickTwoOneParams
    how_to_play = """\
Set-up: All 36 squares hold a piece, 9 of each colour. The sheet prints a random arrangement, \
a new one on every sheet. Players may agree on another arrangement instead. Lay the cut-out \
pieces on the printed symbols, or play on the sheet and cross out a symbol when its piece is \
taken.

A turn: The two players take turns, and each turn must take at least one piece. Choose a line \
and look at the colours of the pieces still on it. Three or four colours: take one or two of \
those pieces, of any colours. Exactly two colours: take one. A single colour: that line gives \
nothing. A piece on several lines may be taken through any line that allows it.

Lines: A line is every square whose centre lies on one straight line through two square \
centres. Rows, columns and diagonals are lines, and so are slanted lines such as a1, b3, c5 or \
a1, c2, e3.

Variation: Only rows, columns and diagonals count as lines.

End: When no line allows a removal, the game is over, and the player who made the last removal \
wins. A piece alone on a line can never be taken, so some pieces always stay.
"""

    def subtitle(self, params: Mapping[str, Any]) -> str:
        return "A taking game for 2 players by Fred Horn: the start position comes from the seed"

    def heading(self) -> str:
        return "How to play"

    def summary(self, params: Mapping[str, Any]) -> list[str]:
        if self.params.read(PickTwoOneParams, params).lines == "any":
            lines = (
                "A line is any set of squares whose centres lie on one straight line: rows, "
                "columns, diagonals, and slanted lines such as a1, b3, c5."
            )
        else:
            lines = "A line is a whole row, column or diagonal of the board."
        return [
            "Start with a piece on every square as printed (or cross symbols out on the sheet "
            "as pieces are taken). Players alternate; each turn takes at least one piece.",
            "Pick a line and count the colours still on it: three or four colours, take one or "
            "two of its pieces; two colours, take one; one colour, nothing. " + lines,
            "When no line allows a removal, the player who made the last removal wins.",
        ]

    def decorate(self, ctx: BuildContext, plan: GridPlan) -> tuple[list[Item], dict[str, Any]]:
        setup = start_position(ctx)
        items: list[Item] = []
        size = SYMBOL_RATIO * plan.cell
        for k, (name, colour) in enumerate(setup.items(), start=1):
            col, row = (k - 1) % N + 1, (k - 1) // N + 1
            x0, y0 = plan.vx(col), plan.vy(row + 1)
            cx, cy = x0 + plan.cell / 2, y0 + plan.cell / 2
            items.append(symbol(f"mark-setup-{k}", colour, cx, cy, size, square=name))
            items.append(letter(f"letter-setup-{k}", colour, x0, y0))
        lines = self.params.read(PickTwoOneParams, ctx.params).lines
        return items, dict(SetupData(setup=setup, lines=lines))


def start_position(ctx: BuildContext) -> dict[str, str]:
    """A full board, 9 pieces of each colour, shuffled by the seed: square name -> colour.

    Squares are listed in id order (a1, b1, .. f1, a2, ..), so the k-th entry sits in space-k.
    """
    pieces = [colour for colour in COLOURS for _ in range(PER_COLOUR)]
    ctx.rng("setup").shuffle(pieces)
    names = [cell_name(col, row) for row in range(1, N + 1) for col in range(1, N + 1)]
    return dict(zip(names, pieces, strict=True))


PICK_TWO_ONE = PickTwoOneLayout()


def _collinear_lines(straight: bool) -> list[frozenset[int]]:
    """Every maximal set of two or more squares whose centres lie on one straight line.

    With ``straight`` only rows, columns and the two diagonal directions count.
    """
    lines: set[frozenset[int]] = set()
    for a, b in itertools.combinations(range(N * N), 2):
        (ra, ca), (rb, cb) = divmod(a, N), divmod(b, N)
        dr, dc = rb - ra, cb - ca
        if straight and not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
            continue
        lines.add(
            frozenset(
                k
                for k in range(N * N)
                if (divmod(k, N)[0] - ra) * dc == (divmod(k, N)[1] - ca) * dr
            )
        )
    return sorted(lines, key=lambda line: sorted(line))


START_HINT = "six rows of six colour letters R, B, G, Y, row 1 first, joined by '/'"


def parse_start(text: str) -> str:
    """Read an agreed start set-up (option ``start``) and write it canonically.

    The seed lets players change the start set-up as they wish, but the game still begins on
    a full board with the set's 36 pieces, 9 of each colour, so anything else is refused. Rows
    run from row 1 (a1 .. f1) to row 6, squares a to f within a row, as the squares are named.
    The letters are our notation for the pieces' colours, not the game's, so they are read in
    either case; the slashes may be left out (the 36 letters in one run). The value is written
    back in capitals with the slashes, as a transcript's ``options:`` line shows it.

    Raises:
        ValueError: one line saying what makes the text no legal set-up: a character that is
            no colour letter, the row that is not six squares long, or the colours' counts.

    Example:
        >>> parse_start("rrrbbb/rrrbbb/rrrbbb/gggyyy/gggyyy/gggyyy")
        'RRRBBB/RRRBBB/RRRBBB/GGGYYY/GGGYYY/GGGYYY'
        >>> parse_start("RRRBBB/RRRBBB/RRRBB/GGGYYYB/GGGYYY/GGGYYY")
        Traceback (most recent call last):
        ...
        ValueError: the board has 6 rows of 6 squares, but row 3 has 5
        >>> parse_start("RRRBBB-RRRBBB-RRRBBB-GGGYYY-GGGYYY-GGGYYY")
        Traceback (most recent call last):
        ...
        ValueError: '-' is none of the colours R, B, G, Y, nor the '/' between rows
        >>> parse_start("RRRRRRRRRRBBBBBBBBGGGGGGGGGYYYYYYYYY")
        Traceback (most recent call last):
        ...
        ValueError: the set has 9 pieces of each colour, not R 10, B 8, G 9, Y 9
    """
    letters = {letter: colour for colour, letter in LETTERS.items()}
    text = text.strip()
    # Checked before upper-casing: str.upper turns some letters into others ('ß' into 'SS').
    wrong = [c for c in text if not c.isascii() or (c != "/" and c.upper() not in letters)]
    if wrong:
        raise ValueError(
            f"{wrong[0]!r} is none of the colours {', '.join(letters)}, nor the '/' between rows"
        )
    rows = text.upper().split("/")
    if len(rows) == 1:
        if len(rows[0]) != N * N:
            raise ValueError(
                f"every one of the {N * N} squares starts with a piece, not {len(rows[0])}"
            )
        rows = [rows[0][k : k + N] for k in range(0, N * N, N)]
    if len(rows) != N:
        raise ValueError(f"the board has {N} rows of {N} squares, not {len(rows)} rows")
    for number, row in enumerate(rows, start=1):
        if len(row) != N:
            raise ValueError(
                f"the board has {N} rows of {N} squares, but row {number} has {len(row)}"
            )
    squares = "".join(rows)
    counts = {letter: squares.count(letter) for letter in letters}
    if any(count != PER_COLOUR for count in counts.values()):
        shown = ", ".join(f"{letter} {count}" for letter, count in counts.items())
        raise ValueError(f"the set has {PER_COLOUR} pieces of each colour, not {shown}")
    return "/".join(rows)


@dataclass(frozen=True)
class PickTwoOneOptions:
    """The engine's options, typed: ``start`` is canonical (:func:`parse_start`) or empty."""

    start: str


@dataclass(frozen=True)
class PickState:
    """The board (a colour or ``""`` per square), whose turn, who took last, pieces taken."""

    board: tuple[str, ...]
    turn: int = 0
    last: int | None = None
    taken: tuple[int, int] = (0, 0)


class PickTwoOneRules(Rules[PickState, tuple[int, ...]]):
    """Pick Tw=O=ne: take one or two pieces out of a line, as its colours allow.

    A move is the square or the two squares taken (``c4`` or ``a1 c2``). Two pieces need a line
    through both holding three or more colours; one piece needs some line through it holding
    two or more. The line set is the sheet's ``lines`` parameter. The last to take wins.

    The game starts on the position printed on the sheet, unless the players agreed their own
    (the seed allows it): option ``start``, six rows of six colour letters (R, B, G, Y) from
    row 1 to row 6, each row from a to f, joined by ``/``, such as
    ``start=RBGYRB/GYRBGY/...`` (letters in either case, the slashes optional). It must fill
    every square with the set's pieces, 9 of each colour; anything else is refused with the
    reason (:func:`parse_start`).
    """

    game = "pick-two-one"
    notation = "the square or two squares taken, like c4 or a1 c2"
    options = ParamSet(
        [
            Param.text(
                "start",
                "",
                parse_start,
                START_HINT,
                "the players' own start set-up instead of the printed one (letters in either "
                "case; the slashes may be left out)",
            )
        ]
    )
    option_shape = PickTwoOneOptions

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        agreed = self.options.read(PickTwoOneOptions, self.option_values).start
        if agreed:
            letters = {letter: colour for colour, letter in LETTERS.items()}
            self.start = tuple(letters[c] for c in agreed.replace("/", ""))
        else:
            setup = data_as(sheet.page.data, SetupData)["setup"]
            self.start = tuple(setup[name] for name in SQUARES)
        self.agreed = bool(agreed)
        lines = PICK_TWO_ONE.params.read(PickTwoOneParams, sheet.spec.params).lines
        self.lines = _collinear_lines(lines == "straight")
        self.lines_through: list[list[frozenset[int]]] = [
            [line for line in self.lines if k in line] for k in range(N * N)
        ]

    def position_marks(self, state: PickState) -> dict[tuple[int, str], str]:
        """The pieces on the board now, each square in its piece's colour."""
        return board_marks(state.board)

    def initial(self) -> PickState:
        return PickState(self.start)

    @staticmethod
    def _colours(state: PickState, line: frozenset[int]) -> int:
        return len({state.board[k] for k in line if state.board[k]})

    def legal_moves(self, state: PickState) -> Iterator[tuple[int, ...]]:
        for k in range(N * N):
            if state.board[k] and any(
                self._colours(state, ln) >= 2 for ln in self.lines_through[k]
            ):
                yield (k,)
        for line in self.lines:
            if self._colours(state, line) >= 3:
                held = sorted(k for k in line if state.board[k])
                yield from itertools.combinations(held, 2)

    def to_move(self, state: PickState) -> int | None:
        if next(self.legal_moves(state), None) is None:
            return None
        return state.turn

    def apply(self, state: PickState, move: tuple[int, ...]) -> PickState:
        if self.to_move(state) is None:
            raise IllegalMove("game-over", "the game is over: no line allows a removal")
        names = " and ".join(SQUARES[k] for k in move)
        for k in move:
            if not state.board[k]:
                raise IllegalMove("empty", f"{SQUARES[k]} holds no piece")
        if len(move) == 1:
            best = max((self._colours(state, ln) for ln in self.lines_through[move[0]]), default=0)
            if best < 2:
                raise IllegalMove("one-colour", f"every line through {names} holds a single colour")
        else:
            line = next((ln for ln in self.lines_through[move[0]] if move[1] in ln), None)
            if line is None:
                raise IllegalMove("no-line", f"{names} are not on one allowed line")
            colours = self._colours(state, line)
            if colours < 3:
                raise IllegalMove(
                    "two-colours",
                    f"the line through {names} holds {colours} colour{'s' * (colours != 1)}: "
                    "two pieces need three or more",
                )
        board = list(state.board)
        for k in move:
            board[k] = ""
        taken = list(state.taken)
        taken[state.turn] += len(move)
        return PickState(tuple(board), 1 - state.turn, state.turn, (taken[0], taken[1]))

    def parse_move(self, text: str, state: PickState) -> tuple[int, ...]:
        words = text.split()
        if not 1 <= len(words) <= 2:
            raise MoveSyntaxError("a move is one square or two, like c4 or a1 c2")
        squares = []
        column = 1
        for word in words:
            squares.append(_square(word, column))
            column += len(word) + 1
        if len(squares) == 2 and squares[0] == squares[1]:
            raise MoveSyntaxError("the two squares must differ")
        return tuple(sorted(squares))

    def format_move(self, move: tuple[int, ...]) -> str:
        return " ".join(SQUARES[k] for k in move)

    def scores(self, state: PickState) -> tuple[int, ...]:
        return state.taken

    def winners(self, state: PickState) -> list[int]:
        if not self.is_over(state) or state.last is None:
            return []
        return [state.last]

    def describe(self, state: PickState) -> list[str]:
        """Says so when the game did not start on the printed position, which a reader of the
        verdict would otherwise assume."""
        if not self.agreed:
            return []
        return ["the players' own start set-up (option start) was used, not the printed one"]


PICK_TWO_ONE_RULES = PickTwoOneRules
