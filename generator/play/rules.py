"""The rules-engine base every game's rules build on, in the manner of python-chess.

A game's rules are a small subclass of :class:`Rules` living next to its layout in
:mod:`papergames.layouts` and named by the game's record in :mod:`papergames.games`. An instance
is made for one exact sheet (its geometry and topology), its players and its variant options.
States are plain immutable values; :meth:`Rules.apply` returns the next state or raises
:class:`IllegalMove` with a reason code and a sentence, so the checker can report where a game
first went wrong and why.

Example:
    >>> from papergames import SheetSpec, make_sheet
    >>> from papergames.games import get_rules
    >>> from papergames.play.rules import Player
    >>> sheet = make_sheet(SheetSpec.create("cocomposite", {"size": "4"}, seed=1))
    >>> game = get_rules("cocomposite")(sheet, [Player("Ann"), Player("Bob")])
    >>> state = game.apply(game.initial(), game.parse_move("b2", game.initial()))
    >>> game.to_move(state), game.scores(state)
    (1, (0, 0))
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Container, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from papergames.errors import PapergamesError, SpecError
from papergames.sheets.board import Board
from papergames.sheets.model import Sheet
from papergames.sheets.params import ParamSet
from papergames.sheets.rng import Rng

if TYPE_CHECKING:
    from papergames.play.clicks import ClickStep

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")


class IllegalMove(PapergamesError):  # noqa: N818 - the name the issue and python-chess use
    """A move the rules do not allow in the state it was played in.

    Attributes:
        code: a short stable reason code for tools (``occupied``, ``not-adjacent``).
        reason: a sentence for people.
    """

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class MoveSyntaxError(PapergamesError):
    """Move text that does not parse in the game's notation.

    Attributes:
        column: 1-based column inside the move text where the problem starts.
    """

    def __init__(self, message: str, column: int = 1) -> None:
        super().__init__(message)
        self.column = column


@dataclass(frozen=True)
class Player:
    """A player as the transcript names them: a name and, optionally, the colour they play."""

    name: str
    colour: str = ""


@dataclass(frozen=True)
class Position:
    """What is on a finished sheet.

    Attributes:
        sheet: the sheet, made again from its spec.
        players: the players in playing order, with their colour words.
        marks: for each (page number, item id) that carries something, its colour word: a
            player's colour (lower case), an extra colour of the game, or :data:`MARKED`.
    """

    sheet: Sheet
    players: tuple[Player, ...]
    marks: Mapping[tuple[int, str], str]

    def colour(self, item: str, page: int = 1) -> str | None:
        """The colour word on ``item`` of page ``page``, or ``None`` when it is empty."""
        return self.marks.get((page, item))

    def owner(self, item: str, page: int = 1) -> int | None:
        """The player whose colour is on ``item``, if it is a player's colour."""
        colour = self.colour(item, page)
        return None if colour is None else self.player_of(colour)

    def player_of(self, colour: str) -> int | None:
        """The player who plays ``colour`` (a player without a colour is named by their name)."""
        for k, player in enumerate(self.players):
            if (player.colour or player.name).lower() == colour:
                return k
        return None

    def colours_on(self, board: Board, page: int = 1) -> list[str | None]:
        """The colour word on each of a board's features, in board order."""
        return [self.colour(fid, page) for fid in board.ids]


@dataclass(frozen=True)
class Breach:
    """A rule the finished sheet breaks: a code, the items involved and a reason people read."""

    code: str
    reason: str
    items: tuple[str, ...] = ()


@dataclass
class FinalReport:
    """What a game's rules make of a finished sheet.

    Attributes:
        breaches: every rule the sheet breaks.
        scores: each player's score when the finished sheet decides it, else ``None``.
        winners: the winning players when the sheet decides them.
        facts: claimable values by name (``score`` is added from ``scores``), one per player.
        notes: what the referee would add (for instance, that the score needs a transcript).
    """

    breaches: list[Breach] = field(default_factory=list)
    scores: tuple[int, ...] | None = None
    winners: list[int] = field(default_factory=list)
    facts: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


class Rules(ABC, Generic[StateT, MoveT]):
    """One game's rules for one sheet, players and options.

    Subclasses set the class attributes and implement the abstract methods. Players are
    numbered from 0 in the order the transcript lists them; how many may play comes from the
    game's record (:attr:`papergames.games.Game.players`).

    Attributes:
        game: the command-line name of the game.
        options: the variant options, parsed like layout parameters.
        option_shape: the frozen dataclass the engine reads its options as, through
            :meth:`~papergames.sheets.params.ParamSet.read` (``None`` when there are none).
        notation: one line on how a move is written, for error messages and docs.
    """

    game: ClassVar[str]
    options: ClassVar[ParamSet] = ParamSet([])
    option_shape: ClassVar[type[Any] | None] = None
    notation: ClassVar[str] = ""
    extra_colours: ClassVar[tuple[str, ...]] = ()
    click_targets: ClassVar[tuple[str, ...]] = ()
    """Ids of items clicked to build moves (see :meth:`click_step`) that are no space, segment,
    line or triangle, so a recorder must make them clickable: Klee's colour key."""
    tallies_are_points: ClassVar[bool] = True
    """Whether a score area's tally boxes count points (Springer's hold written numbers)."""

    def __init__(
        self,
        sheet: Sheet,
        players: Sequence[Player],
        options: Mapping[str, Any] | None = None,
    ) -> None:
        from papergames.games import get_game

        fewest, most = get_game(self.game).players
        if not fewest <= len(players) <= most:
            wanted = str(fewest) if fewest == most else f"{fewest} to {most}"
            raise SpecError(f"{self.game} is played by {wanted} players, not {len(players)}")
        self.sheet = sheet
        self.players = tuple(players)
        self.option_values = self.options.resolve(dict(options or {}))

    @classmethod
    def parse_options(cls, settings: Mapping[str, str]) -> dict[str, Any]:
        """Parse ``key -> text`` option settings, rejecting unknown keys and bad values."""
        return cls.options.parse_items(settings, f"{cls.game} (options)")

    @abstractmethod
    def initial(self) -> StateT:
        """The state before the first move."""

    @abstractmethod
    def to_move(self, state: StateT) -> int | None:
        """The player whose turn it is, or ``None`` when nobody moves (the game is over)."""

    @abstractmethod
    def legal_moves(self, state: StateT) -> Iterator[MoveT]:
        """Every move allowed in ``state`` (nothing when the game is over)."""

    @abstractmethod
    def apply(self, state: StateT, move: MoveT) -> StateT:
        """The state after ``move``.

        Raises:
            IllegalMove: when the rules forbid the move in ``state``.
        """

    @abstractmethod
    def parse_move(self, text: str, state: StateT) -> MoveT:
        """Read a move in the game's notation.

        Raises:
            MoveSyntaxError: when the text is not a move of this game.
        """

    @abstractmethod
    def format_move(self, move: MoveT) -> str:
        """The notation of a move; :meth:`parse_move` reads it back to the same move."""

    @abstractmethod
    def scores(self, state: StateT) -> tuple[int, ...]:
        """Every player's score in ``state``, in player order."""

    def is_over(self, state: StateT) -> bool:
        return self.to_move(state) is None

    def winners(self, state: StateT) -> list[int]:
        """The players with the highest score (several on a tie); none before the end."""
        if not self.is_over(state):
            return []
        scores = self.scores(state)
        best = max(scores)
        return [p for p, s in enumerate(scores) if s == best]

    def random_move(self, state: StateT, rng: Rng) -> MoveT:
        """A legal move drawn at random (for playouts); games with huge move lists override it."""
        moves = list(self.legal_moves(state))
        if not moves:
            raise IllegalMove("no-move", "nobody can move: the game is over")
        return rng.choice(moves)

    def claims(self, state: StateT) -> dict[str, Any]:
        """Facts a transcript may claim and the checker verifies (``score`` is always checked)."""
        return {}

    def describe(self, state: StateT) -> list[str]:
        """Lines a referee would add about the final state (palindromes found, for instance)."""
        return []

    def final_marks(self, state: StateT) -> dict[tuple[int, str], str] | None:
        """The finished sheet ``state`` leaves: (page, item id) -> colour word, tallies included.

        Colour words are the players' colours (their names when they gave none) and the game's
        :attr:`extra_colours`. ``None`` when the game cannot say (the default).
        """
        return None

    def position_marks(self, state: StateT) -> dict[tuple[int, str], str] | None:
        """What the sheet shows at ``state``, as :meth:`final_marks` words it: (page, item id)
        -> colour word, for a recorder to draw. By default the finished sheet's marks; a game
        whose pieces move or leave the board says where they are now. ``None`` when the game
        cannot say: the recorder then colours each move's items in its player's colour."""
        return self.final_marks(state)

    def click_step(self, state: StateT, clicks: tuple[str, ...]) -> ClickStep | None:
        """What the items clicked so far (ids on :meth:`page_of`'s page) make, for a game whose
        moves are clicked on items their text does not name (Klee's colours, Cannon-Ball's
        pieces); see :func:`papergames.play.clicks.narrow`. ``None`` (the default): each move is
        clicked on the items its text names."""
        return None

    def move_items(self, move: MoveT) -> tuple[str, ...] | None:
        """The ids of the items ``move`` colours or marks, in the order they are clicked, when
        its text does not name them one by one (Miro's run ``segment-17..19``). ``None`` (the
        default): the items are the ones the move's text names."""
        return None

    def page_of(self, state: StateT) -> int:
        """The page of the sheet (from 1) the next move is made on; 1 by default. A sheet whose
        later pages hold later rounds (Crossing the Rings) says which, so a recorder shows it."""
        return 1

    def pages_played(self) -> int:
        """How many of the sheet's first pages moves are made on (1 by default: later pages
        are pieces to cut out and the like)."""
        return 1

    def printed_names(self) -> Mapping[str, str]:
        """Names printed on the sheet that are not an id's number, each with the id it names.

        ``final:`` lines take them like moves do (Klee's ``c5``, Springer's ``T3``); they also
        settle a bare number that could name two kinds of item (on Miro's sheet a printed
        ``17`` is segment 17). Empty by default.
        """
        return {}

    @classmethod
    def seats_from_boxes(cls, params: Mapping[str, Any], coloured: frozenset[str]) -> int | None:
        """How many played, judged from the named colour boxes that were coloured.

        Only for games whose colours belong to no single player, so the sheet has no colour box
        per seat (Delaunay, Klee): the photo reader asks this to know the seats. ``None`` (the
        default) leaves it to the game's fewest players.

        Args:
            params: the sheet's parameters.
            coloured: the keys of the named colour boxes found coloured (``red``, ``green``).
        """
        return None

    def colour_word(self, player: int) -> str:
        """The word a ``final:`` line uses for a player's colour."""
        who = self.players[player]
        return (who.colour or who.name).lower()

    def check_final(self, position: Position) -> FinalReport:
        """What the finished sheet alone decides: broken rules, and the scores where it fixes them.

        Games whose scores and legality depend on the order of the moves keep this default:
        nothing is decided, and the report says a transcript of the moves is needed.
        """
        return FinalReport(
            notes=[
                f"a finished {self.game} sheet does not show whether the moves were legal: "
                "check a transcript of the moves"
            ]
        )


RulesClass = type[Rules[Any, Any]]


def parse_pair(text: str, known: Container[str], what: str, joined: str) -> tuple[str, str]:
    """Read two names joined by a hyphen (``A3-F5``), upper-cased and checked against ``known``.

    Args:
        text: the move text.
        known: the names that exist (vertices, cut ends).
        what: how an unknown name is described, as in "'Q9' is not {what}".
        joined: what the pair makes, as in "{joined} needs two different ends".

    Raises:
        MoveSyntaxError: naming the first unknown name and its column, or a repeated name.

    Example:
        >>> parse_pair("a1-C3", {"A1", "C3"}, "a vertex", "a line")
        ('A1', 'C3')
    """
    first, sep, second = text.strip().partition("-")
    if not sep:
        raise MoveSyntaxError(f"{joined} is written as two names joined by '-', like A1-C3")
    names = []
    column = 1
    for part in (first, second):
        name = part.strip().upper()
        if name not in known:
            raise MoveSyntaxError(f"'{part.strip()}' is not {what}", column)
        names.append(name)
        column += len(part) + 1
    if names[0] == names[1]:
        raise MoveSyntaxError(f"{joined} needs two different ends")
    return names[0], names[1]
