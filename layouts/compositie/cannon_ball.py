"""Cannon-Ball (Fred Horn): move, line up and fire cannons over your own pieces."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import box

from papergames.layouts.compositie.board import (
    COLOUR_BY_WORD,
    LETTERS,
    PER_COLOUR,
    SQUARES,
    CompositieLayout,
    N,
    _square,
    board_marks,
    square_id,
    square_index,
)
from papergames.layouts.compositie.params import CannonBallParams
from papergames.play.clicks import ClickStep, narrow
from papergames.play.example import Example
from papergames.play.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.sheets.grid import GridPlan
from papergames.sheets.layout import BuildContext
from papergames.sheets.model import Feature, Item, Kind, Layer, Sheet, Style
from papergames.sheets.rng import Rng

EXAMPLE = Example(
    transcript="""\
sheet: cannon-ball seed=1
players: Ann (red), Bob (blue)
Ann: lineup Ba1 Bb1 Rc1 Rd1 Re1 Bc2 Bd2 Be2 Rf2
Bob: lineup Ya5 Gd5 Ge5 Gf5 Ya6 Yb6 Gc6 Ge6 Yf6
Ann: e2-d3 c1xc6
claim: Ann score 1
claim: Bob score 0
""",
    text="""\
Moves 1 and 2 are the two set-ups, left out of the picture. In move 3 Ann's blue piece steps \
from e2 to d3 (hatched). Then Ann's red piece on c1 fires up column c (the line). It jumps over \
Ann's own blue piece on c2 and takes Bob's green piece on c6: 1 capture.""",
    marks=((), (), ("space-16", "space-3/space-33")),
)


class CannonBallLayout(CompositieLayout):
    """Cannon-Ball: the board with both sides' home rows shaded and labelled."""

    name = "cannon-ball"
    param_shape = CannonBallParams
    how_to_play = """\
Sides: Player 1 owns the 18 red and blue pieces and sits at row 1. Player 2 owns the 18 green \
and yellow pieces and sits at row 6. Forward means away from your own side.

Set-up: Each player chooses 9 of their pieces, in any mix of their two colours. They place \
them unseen on their two home rows, shaded on the board: rows 1 and 2 for player 1, rows 5 \
and 6 for player 2. A screen across the middle can hide the set-ups until both are done. The \
other 9 pieces of each player are their reserves. Player 1 moves first.

A turn: You must move one of your pieces one step to an empty square: straight forward, \
diagonally forward or sideways. After the move, and only then, you may make one capture. The \
turn ends after the capture, or after the move if you do not capture.

Capturing: Red takes green, green takes blue, blue takes yellow and yellow takes red. The \
capturer and its victim stand on one row, column or diagonal, at any distance. Exactly one \
piece stands between them, and it is of the capturer's owner's other colour. So red jumps over \
blue, blue over red, green over yellow and yellow over green. All other squares between them \
are empty. The capturer jumps onto the victim's square, in any direction, and the victim \
leaves the board. Any of your pieces may make the capture.

Variation: Only the piece that has just moved may capture.

Reserves: When you have lost a piece, begin your next turn by bringing in one reserve. Put it \
on an empty square of your own first row, if you have a reserve and such a square is free. \
Then move as usual.

Winning: You win as soon as 6 of your pieces stand on your far row: row 6 for player 1, row 1 \
for player 2. You also win when your opponent has fewer than 6 pieces on the board. A player \
with no move left loses.
"""

    def subtitle(self, params: Mapping[str, Any]) -> str:
        return "A capturing game for 2 players by Fred Horn: red & blue against green & yellow"

    def heading(self) -> str:
        return "How to play"

    def summary(self, params: Mapping[str, Any]) -> list[str]:
        who = (
            "any of your pieces may then capture"
            if self.params.read(CannonBallParams, params).capture == "any"
            else "the piece that moved may then capture"
        )
        return [
            "Player 1 (red & blue) sits at row 1, player 2 (green & yellow) at row 6. Each "
            "secretly sets up 9 of their 18 pieces on their two shaded home rows; the other 9 are "
            "reserves. Player 1 starts.",
            "Move one piece one step forward, diagonally forward or sideways to an empty "
            f"square; {who}. Red takes green, green takes blue, blue takes yellow, yellow takes "
            "red: along a row, column or diagonal, over exactly one piece of your own other "
            "colour (empty squares between are fine), onto the victim's square.",
            "After losing a piece, start your next turn by putting a reserve on an empty square "
            "of your first row. Win with 6 pieces on your far row, or when your opponent has "
            "fewer than 6 pieces on the board.",
        ]

    def bands(self) -> tuple[str, str]:
        return (
            "Player 2 sits here: Green & Yellow home rows 5-6",
            "Player 1 sits here: Red & Blue home rows 1-2",
        )

    def decorate(self, ctx: BuildContext, plan: GridPlan) -> tuple[list[Item], dict[str, Any]]:
        items: list[Item] = []
        homes = {1: ((1, 2), ("red", "blue")), 2: ((5, 6), ("green", "yellow"))}
        for player, ((low, high), colours) in homes.items():
            shape = box(plan.vx(1), plan.vy(high + 1), plan.vx(N + 1), plan.vy(low))
            items.append(
                Feature(
                    f"mark-home-{player}",
                    Kind.MARK,
                    shape,
                    Style.SHADE,
                    Layer.TINT,
                    data={"player": player, "rows": [low, high], "colours": list(colours)},
                )
            )
        data = {
            "home_rows": {"1": [1, 2], "2": [5, 6]},
            "sides": {"1": ["red", "blue"], "2": ["green", "yellow"]},
            "captures": {"red": "green", "green": "blue", "blue": "yellow", "yellow": "red"},
            "capture": self.params.read(CannonBallParams, ctx.params).capture,
        }
        return items, data


CANNON_BALL = CannonBallLayout()


SIDES: tuple[tuple[str, str], tuple[str, str]] = (("red", "blue"), ("green", "yellow"))
"""Each player's two colours: player 1 red and blue, player 2 green and yellow."""


PREY: Mapping[str, str] = {"red": "green", "green": "blue", "blue": "yellow", "yellow": "red"}


HOME_ROWS = ((0, 1), (4, 5))


FIRST_ROW = (0, 5)


LAST_ROW = (5, 0)


FORWARD = (1, -1)


LINEUP = 9


WIN_ROW = 6


LOW_PIECES = 6


DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def _turn_clicks(move: CannonMove) -> tuple[str, ...]:
    """The items clicked for a turn: the reserve's key and square, the step, the capture."""
    clicks: list[str] = []
    if move.reserve is not None:
        clicks += [f"mark-key-{move.reserve[0]}", square_id(move.reserve[1])]
    for pair in (move.step, move.capture):
        if pair is not None:
            clicks += [square_id(pair[0]), square_id(pair[1])]
    return tuple(clicks)


def _clicked_names(clicks: Sequence[str]) -> str:
    """The clicks as a player reads them: square names and colours."""
    names = []
    for click in clicks:
        square = square_index(click)
        names.append(SQUARES[square] if square is not None else click.removeprefix("mark-key-"))
    return " ".join(names)


OWNER: Mapping[str, int] = {colour: player for player, side in enumerate(SIDES) for colour in side}
"""The player each colour belongs to."""

PARTNER: Mapping[str, str] = {a: b for side in SIDES for a, b in (side, side[::-1])}
"""Each colour's partner: the other colour of the same player, the screen its cannon needs."""


def _rays(square: int) -> tuple[tuple[int, ...], ...]:
    """The squares in each of the eight directions from ``square``, nearest first."""
    row, col = divmod(square, N)
    rays = []
    for dr, dc in DIRECTIONS:
        ray = []
        r, c = row + dr, col + dc
        while 0 <= r < N and 0 <= c < N:
            ray.append(r * N + c)
            r, c = r + dr, c + dc
        if ray:
            rays.append(tuple(ray))
    return tuple(rays)


RAYS = tuple(_rays(square) for square in range(N * N))
"""Every square's rays, worked out once: a random game asks for them a million times."""


@dataclass(frozen=True)
class CannonMove:
    """A set-up (nine pieces), or a turn: an optional reserve placed, a step, a capture."""

    lineup: tuple[tuple[str, int], ...] = ()
    reserve: tuple[str, int] | None = None
    step: tuple[int, int] | None = None
    capture: tuple[int, int] | None = None


@dataclass(frozen=True)
class CannonState:
    """The board, each player's reserves by colour, whose turn, who owes a reserve, the end."""

    board: tuple[str, ...] = ("",) * (N * N)
    reserves: tuple[tuple[int, int], tuple[int, int]] = ((PER_COLOUR,) * 2, (PER_COLOUR,) * 2)
    lined_up: int = 0
    turn: int = 0
    owes: tuple[bool, bool] = (False, False)
    captures: tuple[int, int] = (0, 0)
    winner: int | None = None


class CannonBallRules(Rules[CannonState, CannonMove]):
    """Cannon-Ball: step forward or sideways, then capture like a Chinese cannon.

    Notation: the set-up is ``lineup`` and nine pieces like ``Ra1 Bb2 ...``; a turn is an
    optional reserve ``+Ra1``, the step ``b2-c3`` and an optional capture ``d4xf6``. The sheet's
    ``capture`` parameter says whether any piece (default) or only the one that moved may
    capture. Scores count captures; the winner is decided by the far row or the pieces left.
    """

    game = "cannon-ball"
    notation = "lineup Ra1 Bb1 ... (nine pieces); then turns like +Ra1 b2-c3 d4xf6"
    click_targets = tuple(f"mark-key-{colour}" for side in SIDES for colour in side)

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        capture = CANNON_BALL.params.read(CannonBallParams, sheet.spec.params).capture
        self.mover_only = capture == "mover"

    def initial(self) -> CannonState:
        return CannonState()

    def to_move(self, state: CannonState) -> int | None:
        if state.winner is not None:
            return None
        return state.turn

    # -- what the board allows -------------------------------------------------------------

    @staticmethod
    def _steps(board: Sequence[str], player: int) -> Iterator[tuple[int, int]]:
        for k, colour in enumerate(board):
            if colour and OWNER[colour] == player:
                row, col = divmod(k, N)
                for dr, dc in (
                    (FORWARD[player], -1),
                    (FORWARD[player], 0),
                    (FORWARD[player], 1),
                    (0, -1),
                    (0, 1),
                ):
                    r, c = row + dr, col + dc
                    if 0 <= r < N and 0 <= c < N and not board[r * N + c]:
                        yield (k, r * N + c)

    @staticmethod
    def _captures_from(board: Sequence[str], square: int) -> Iterator[tuple[int, int]]:
        colour = board[square]
        partner, prey = PARTNER[colour], PREY[colour]
        for ray in RAYS[square]:
            screened = False
            for k in ray:
                here = board[k]
                if here:
                    if not screened:
                        if here != partner:
                            break
                        screened = True
                    else:
                        if here == prey:
                            yield (square, k)
                        break

    def _captures(self, board: Sequence[str], player: int, moved: int) -> Iterator[tuple[int, int]]:
        pieces = (
            [moved]
            if self.mover_only
            else [k for k, c in enumerate(board) if c and OWNER[c] == player]
        )
        for k in pieces:
            yield from self._captures_from(board, k)

    def _reserve_options(self, state: CannonState, player: int) -> list[tuple[str, int] | None]:
        if not state.owes[player]:
            return [None]
        free = [
            FIRST_ROW[player] * N + c
            for c in range(N)
            if not state.board[FIRST_ROW[player] * N + c]
        ]
        colours = [c for c, n in zip(SIDES[player], state.reserves[player], strict=True) if n]
        if not free or not colours:
            return [None]
        return [(c, k) for c in colours for k in free]

    def legal_moves(self, state: CannonState) -> Iterator[CannonMove]:
        player = self.to_move(state)
        if player is None:
            return
        if state.lined_up < 2:
            yield from self._lineups(player)
            return
        for reserve in self._reserve_options(state, player):
            board = list(state.board)
            if reserve is not None:
                board[reserve[1]] = reserve[0]
            for frm, to in self._steps(board, player):
                after = list(board)
                after[to], after[frm] = after[frm], ""
                yield CannonMove(reserve=reserve, step=(frm, to))
                for capture in self._captures(after, player, to):
                    yield CannonMove(reserve=reserve, step=(frm, to), capture=capture)

    def _lineups(self, player: int) -> Iterator[CannonMove]:
        home = [r * N + c for r in HOME_ROWS[player] for c in range(N)]
        a, b = SIDES[player]
        for spots in itertools.combinations(home, LINEUP):
            for colours in itertools.product((a, b), repeat=LINEUP):
                yield CannonMove(lineup=tuple(zip(colours, spots, strict=True)))

    def random_move(self, state: CannonState, rng: Rng) -> CannonMove:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        if state.lined_up < 2:
            home = [r * N + c for r in HOME_ROWS[player] for c in range(N)]
            spots = sorted(rng.sample(home, LINEUP))
            return CannonMove(lineup=tuple((rng.choice(SIDES[player]), k) for k in spots))
        # Mostly forward steps and captures: sideways steps alone can shuffle for ever.
        moves = list(self.legal_moves(state))
        onward = [
            m
            for m in moves
            if m.capture is not None
            or (m.step is not None and m.step[1] // N - m.step[0] // N == FORWARD[player])
        ]
        return rng.choice(onward if onward and rng.random() < 0.8 else moves)

    # -- playing a move --------------------------------------------------------------------

    def apply(self, state: CannonState, move: CannonMove) -> CannonState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        if state.lined_up < 2:
            return self._apply_lineup(state, player, move)
        if move.lineup or move.step is None:
            raise IllegalMove("lineups-done", "both sides are lined up: move a piece")
        board = list(state.board)
        reserves = [list(r) for r in state.reserves]
        options = self._reserve_options(state, player)
        if move.reserve is None and options != [None]:
            raise IllegalMove(
                "reserve-owed",
                "you lost a piece: first put a reserve on an empty square of your first row",
            )
        if move.reserve is not None:
            if move.reserve not in options:
                raise IllegalMove(
                    "bad-reserve",
                    f"no {move.reserve[0]} reserve can go to {SQUARES[move.reserve[1]]} now "
                    "(it must be one of your colours with reserves left, on your empty first row)",
                )
            colour, square = move.reserve
            board[square] = colour
            reserves[player][SIDES[player].index(colour)] -= 1
        frm, to = move.step
        if (frm, to) not in set(self._steps(board, player)):
            raise IllegalMove(
                "bad-step",
                f"{SQUARES[frm]}-{SQUARES[to]} is not a step of one of your pieces one square "
                "forward, diagonally forward or sideways to an empty square",
            )
        board[to], board[frm] = board[frm], ""
        captures = list(state.captures)
        owes = [False, False]
        owes[player] = False
        if move.capture is not None:
            if move.capture not in set(self._captures(board, player, to)):
                who = "the piece that moved" if self.mover_only else "one of your pieces"
                raise IllegalMove(
                    "bad-capture",
                    f"{SQUARES[move.capture[0]]}x{SQUARES[move.capture[1]]} is not a capture by "
                    f"{who}: it needs a straight line with exactly one piece of your other colour "
                    "between, and a victim of the colour it takes",
                )
            src, dst = move.capture
            board[dst], board[src] = board[src], ""
            captures[player] += 1
            owes[1 - player] = True
        winner = self._winner(board, player)
        after = CannonState(
            tuple(board),
            ((reserves[0][0], reserves[0][1]), (reserves[1][0], reserves[1][1])),
            state.lined_up,
            1 - player,
            (owes[0], owes[1]),
            (captures[0], captures[1]),
            winner,
        )
        if winner is None and next(self.legal_moves(after), None) is None:
            return dataclasses.replace(after, winner=player)
        return after

    def _apply_lineup(self, state: CannonState, player: int, move: CannonMove) -> CannonState:
        if not move.lineup:
            raise IllegalMove("lineup-first", "each side first lines up nine pieces")
        home = {r * N + c for r in HOME_ROWS[player] for c in range(N)}
        squares = [k for _, k in move.lineup]
        if len(move.lineup) != LINEUP or len(set(squares)) != LINEUP:
            raise IllegalMove("lineup-size", f"a line-up is {LINEUP} pieces on different squares")
        outside = [SQUARES[k] for k in squares if k not in home]
        if outside:
            rows = "-".join(str(r + 1) for r in HOME_ROWS[player])
            raise IllegalMove("lineup-rows", f"{outside[0]} is not on your home rows ({rows})")
        if any(c not in SIDES[player] for c, _ in move.lineup):
            raise IllegalMove("lineup-colour", f"your colours are {' and '.join(SIDES[player])}")
        board = list(state.board)
        reserves = list(state.reserves[player])
        for colour, k in move.lineup:
            board[k] = colour
            reserves[SIDES[player].index(colour)] -= 1
        both = list(state.reserves)
        both[player] = (reserves[0], reserves[1])
        return CannonState(tuple(board), (both[0], both[1]), state.lined_up + 1, 1 - player)

    @staticmethod
    def _winner(board: Sequence[str], player: int) -> int | None:
        far = LAST_ROW[player] * N
        if sum(1 for c in board[far : far + N] if c and OWNER[c] == player) >= WIN_ROW:
            return player
        if sum(1 for c in board if c and OWNER[c] != player) < LOW_PIECES:
            return player
        return None

    # -- on screen ---------------------------------------------------------------------------

    def position_marks(self, state: CannonState) -> dict[tuple[int, str], str]:
        """Where the pieces stand now, each square in its piece's colour."""
        return board_marks(state.board)

    def click_step(self, state: CannonState, clicks: tuple[str, ...]) -> ClickStep | None:
        """A line-up is clicked piece by piece: a square of the home rows takes a piece of the
        colour chosen in the key (the player's first colour until another is clicked), and a
        second click takes it off; the ninth piece makes the line-up. A turn is clicked as it
        is written: a reserve's colour in the key and its square, the step's two squares, then
        a capture's two squares."""
        player = self.to_move(state)
        if player is None:
            return None
        if state.lined_up < 2:
            return self._lineup_clicks(player, clicks)
        moves = [(self.format_move(m), _turn_clicks(m)) for m in self.legal_moves(state)]
        if state.owes[player] and len(clicks) < 2:
            hint = "you lost a piece: click a reserve's colour in the key, then its square"
        else:
            hint = "click on: a step's second square, or a capturing piece and its victim"
        step = narrow(moves, clicks, hint=hint)
        if step.reason and len(clicks) >= 2:
            return ClickStep(reason=f"no turn goes on with {_clicked_names(clicks)}")
        return step

    def _lineup_clicks(self, player: int, clicks: tuple[str, ...]) -> ClickStep:
        home = {r * N + c for r in HOME_ROWS[player] for c in range(N)}
        rows = "-".join(str(r + 1) for r in HOME_ROWS[player])
        colour = SIDES[player][0]
        pieces: dict[int, str] = {}
        for click in clicks:
            if click.startswith("mark-key-"):
                chosen = click.removeprefix("mark-key-")
                if chosen not in SIDES[player]:
                    return ClickStep(reason=f"your colours are {' and '.join(SIDES[player])}")
                colour = chosen
                continue
            square = square_index(click)
            if square is None:
                return ClickStep(reason=f"line up your pieces on the squares of rows {rows}")
            if square not in home:
                return ClickStep(reason=f"{SQUARES[square]} is not on your home rows ({rows})")
            if pieces.get(square) == colour:
                del pieces[square]
            else:
                pieces[square] = colour
        if len(pieces) == LINEUP:
            chosen_pieces = tuple((c, k) for k, c in sorted(pieces.items()))
            return ClickStep(move=self.format_move(CannonMove(lineup=chosen_pieces)))
        marks = tuple((square_id(k), c) for k, c in pieces.items())
        hint = (
            f"line-up: {len(pieces)} of {LINEUP} pieces; a click puts a {colour} piece on a "
            f"square of rows {rows} or takes one off; click a colour in the key to change it"
        )
        return ClickStep(pending=clicks, hint=hint, marks=marks)

    # -- notation --------------------------------------------------------------------------

    def parse_move(self, text: str, state: CannonState) -> CannonMove:
        words = text.split()
        if not words:
            raise MoveSyntaxError("the move is empty")
        if words[0].lower() == "lineup":
            pieces = []
            column = len(words[0]) + 2
            for word in words[1:]:
                colour = COLOUR_BY_WORD.get(word[:1].lower())
                if colour is None:
                    raise MoveSyntaxError(f"'{word}' is not a piece like Ra1 or Bb2", column)
                pieces.append((colour, _square(word[1:], column + 1)))
                column += len(word) + 1
            return CannonMove(lineup=tuple(pieces))
        reserve = step = capture = None
        column = 1
        for word in words:
            if word.startswith("+") and reserve is None and step is None:
                colour = COLOUR_BY_WORD.get(word[1:2].lower())
                if colour is None:
                    raise MoveSyntaxError(f"'{word}' is not a reserve like +Ra1", column)
                reserve = (colour, _square(word[2:], column + 2))
            elif "-" in word and step is None:
                a, _, b = word.partition("-")
                step = (_square(a, column), _square(b, column + len(a) + 1))
            elif "x" in word.lower() and step is not None and capture is None:
                a, _, b = word.lower().partition("x")
                capture = (_square(a, column), _square(b, column + len(a) + 1))
            else:
                raise MoveSyntaxError(
                    f"'{word}' does not fit: a turn is [+Ra1] b2-c3 [d4xf6]", column
                )
            column += len(word) + 1
        if step is None:
            raise MoveSyntaxError("a turn needs a step like b2-c3")
        return CannonMove(reserve=reserve, step=step, capture=capture)

    def format_move(self, move: CannonMove) -> str:
        if move.lineup:
            return "lineup " + " ".join(f"{LETTERS[c]}{SQUARES[k]}" for c, k in move.lineup)
        words = []
        if move.reserve is not None:
            words.append(f"+{LETTERS[move.reserve[0]]}{SQUARES[move.reserve[1]]}")
        if move.step is not None:
            words.append(f"{SQUARES[move.step[0]]}-{SQUARES[move.step[1]]}")
        if move.capture is not None:
            words.append(f"{SQUARES[move.capture[0]]}x{SQUARES[move.capture[1]]}")
        return " ".join(words)

    def scores(self, state: CannonState) -> tuple[int, ...]:
        return state.captures

    def winners(self, state: CannonState) -> list[int]:
        return [] if state.winner is None else [state.winner]


CANNON_BALL_RULES = CannonBallRules
