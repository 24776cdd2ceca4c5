"""The games papergames knows: one record per game, in one registry.

Like OpenSpiel's game type and python-chess's variant classes, each game is declared once, by a
:class:`Game` record: its identity (name, title, author, how many play), a one-line summary, what
its sheet holds, and lazy references to its layout, its rules engine and any judge. Nothing is
imported until it is asked for, so listing the games is cheap and a broken game cannot break the
others. The layouts and engines read their identity from here; ``tests/test_registry.py`` checks
that what each declares agrees with its record.

Example:
    >>> game = get_game("rings")
    >>> game.title, game.players_text, game.has_rules
    ('Crossing the Rings', '2-6', True)
    >>> get_game("cubist-studio").has_rules
    False
"""

from __future__ import annotations

import difflib
import importlib
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from papergames.errors import SpecError

if TYPE_CHECKING:
    from papergames.play.rules import RulesClass
    from papergames.sheets.layout import Layout
    from papergames.sheets.params import ParamSet


class Judgement(Protocol):
    """What a judge returns: a verdict the CLI prints and a program reads."""

    @property
    def ok(self) -> bool: ...

    def lines(self) -> list[str]: ...

    def to_json(self) -> dict[str, Any]: ...


class Judge(Protocol):
    """Checks a finished position written in a form of its own (a Cubist installation)."""

    def recognises(self, text: str) -> bool:
        """Whether ``text`` is written in this judge's form rather than as a transcript."""
        ...

    def judge(self, text: str, source: str) -> Judgement:
        """Read and judge ``text``; raise :class:`PapergamesError` when it cannot be read."""
        ...


def _load(target: str) -> Any:
    module_name, attr = target.split(":")
    return getattr(importlib.import_module(module_name), attr)


@dataclass(frozen=True)
class Game:
    """One game as the registry knows it.

    Attributes:
        name: the command-line name (``rings``), also the first word of every sheet spec.
        title: the title printed on the sheet.
        author: who designed the game.
        players: the fewest and the most players.
        summary: what the players do, in one line.
        sheet_contents: what the printed sheet holds, in one line.
        layout_ref: ``module:attribute`` of the :class:`~papergames.sheets.layout.Layout`.
        params_ref: ``module:attribute`` of the game's
            :class:`~papergames.sheets.params.ParamSet`, in a module that imports no geometry:
            the layout's own ``params``, read without importing the layout.
        rules_ref: ``module:attribute`` of the :class:`~papergames.play.rules.Rules` subclass,
            if the checker knows the game.
        judge_ref: ``module:attribute`` of a :class:`Judge` for positions in a form of their own.
    """

    name: str
    title: str
    author: str
    players: tuple[int, int]
    summary: str
    sheet_contents: str
    layout_ref: str
    params_ref: str
    rules_ref: str | None = None
    judge_ref: str | None = None

    @property
    def players_text(self) -> str:
        """How many play, as printed: ``2`` or ``2-4``."""
        low, high = self.players
        return str(low) if low == high else f"{low}-{high}"

    @property
    def has_rules(self) -> bool:
        return self.rules_ref is not None

    def layout(self) -> Layout:
        """The game's sheet layout (imported on first use)."""
        layout: Layout = _load(self.layout_ref)
        return layout

    def params(self) -> ParamSet:
        """The game's parameters and their notes, without importing its layout."""
        params: ParamSet = _load(self.params_ref)
        return params

    def rules(self) -> RulesClass:
        """The game's rules engine.

        Raises:
            SpecError: when the checker does not know this game.
        """
        if self.rules_ref is None:
            known = ", ".join(g.name for g in GAMES.values() if g.has_rules)
            raise SpecError(f"no rules for '{self.name}' yet (the checker knows: {known})")
        rules: RulesClass = _load(self.rules_ref)
        return rules

    def judge(self) -> Judge | None:
        """The game's judge of positions in a form of their own, if it has one."""
        if self.judge_ref is None:
            return None
        judge: Judge = _load(self.judge_ref)
        return judge

    @property
    def how_to_play(self) -> str:
        """The rules in a few short paragraphs, as printed on the rules page."""
        return self.layout().how_to_play


_LAYOUTS = "papergames.layouts"
SACKSON = "Sid Sackson"
QUET = "Leroy Quet"
HORN = "Fred Horn"
CUBIST_AUTHORS = "Steven Poelzing and Alf Seegert"

_RECORDS = (
    Game(
        "vasarely",
        "Vasarely",
        SACKSON,
        (2, 4),
        "colour dotted spaces as the count runs 1 to 5; filling a cube scores the others' spaces",
        "ten isometric cubes, each cut into 7 to 12 spaces of one to five dots, and four corner "
        "score areas",
        f"{_LAYOUTS}.vasarely.sheet:LAYOUT",
        f"{_LAYOUTS}.vasarely.params:PARAMS",
        f"{_LAYOUTS}.vasarely.rules:RULES",
    ),
    Game(
        "miro",
        "Miro",
        SACKSON,
        (2, 4),
        "colour runs of segments along one looping line; closing a space scores your segments",
        "one closed line crossing itself into spaces and segments, four score areas",
        f"{_LAYOUTS}.miro.sheet:LAYOUT",
        f"{_LAYOUTS}.miro.params:PARAMS",
        f"{_LAYOUTS}.miro.rules:RULES",
    ),
    Game(
        "mondrian",
        "Mondrian",
        SACKSON,
        (2, 4),
        "colour spaces next to coloured ones, never beside your own colour; rectangles score",
        "a field of rectangular and L-shaped spaces between heavy lines in Mondrian's manner (or "
        "the book's 13-space mini-field), four score areas of tally boxes",
        f"{_LAYOUTS}.mondrian.sheet:LAYOUT",
        f"{_LAYOUTS}.mondrian.params:PARAMS",
        f"{_LAYOUTS}.mondrian.rules:RULES",
    ),
    Game(
        "arp",
        "Arp",
        SACKSON,
        (2, 4),
        "colour lines from where the last one touched; completing a space's outline captures it",
        "straight lines that cross and meet to form spaces, four score areas",
        f"{_LAYOUTS}.arp.sheet:LAYOUT",
        f"{_LAYOUTS}.arp.params:PARAMS",
        f"{_LAYOUTS}.arp.rules:RULES",
    ),
    Game(
        "delaunay",
        "Delaunay",
        SACKSON,
        (2, 4),
        "fill a section space by space, never beside your own colour; being stuck loses a point",
        "9 sections with heavy borders in Orphist discs and arcs, each cut by dotted lines into "
        "19-24 spaces; three rows of loss boxes",
        f"{_LAYOUTS}.delaunay.sheet:LAYOUT",
        f"{_LAYOUTS}.delaunay.params:PARAMS",
        f"{_LAYOUTS}.delaunay.rules:RULES",
    ),
    Game(
        "klee",
        "Klee",
        SACKSON,
        (2, 2),
        "two players share four colours; colours in a row matching your sequences move you round "
        "the track",
        "a 12 x 12 field of uneven squares in Klee's manner, a two-lane scoring track round it "
        "with a start arrow, six sequence areas for each player at their end",
        f"{_LAYOUTS}.klee.sheet:LAYOUT",
        f"{_LAYOUTS}.klee.params:PARAMS",
        f"{_LAYOUTS}.klee.rules:RULES",
    ),
    Game(
        "springer",
        "Springer",
        SACKSON,
        (2, 3),
        "build a chain of spaces linked at corners that reaches your triangles on all four edges",
        "a rectangle of spaces of many shapes meeting four at a corner, numbered triangles on all "
        "four edges, score rows",
        f"{_LAYOUTS}.springer.sheet:LAYOUT",
        f"{_LAYOUTS}.springer.params:PARAMS",
        f"{_LAYOUTS}.springer.rules:RULES",
    ),
    Game(
        "rings",
        "Crossing the Rings",
        QUET,
        (2, 6),
        "draw straight lines between cut ends; every section a line passes through becomes yours",
        "concentric circles cut into random sections, one page per round, score rows",
        f"{_LAYOUTS}.rings.sheet:LAYOUT",
        f"{_LAYOUTS}.rings.params:PARAMS",
        f"{_LAYOUTS}.rings.rules:RULES",
    ),
    Game(
        "spaghetti",
        "Uncooked Spaghetti and Square Meatballs",
        QUET,
        (2, 2),
        "shade squares, then draw lines across the grid; each line you cross scores for your "
        "opponent",
        "an n-by-n light grid with named edge vertices, two score rows",
        f"{_LAYOUTS}.spaghetti.sheet:LAYOUT",
        f"{_LAYOUTS}.spaghetti.params:PARAMS",
        f"{_LAYOUTS}.spaghetti.rules:RULES",
    ),
    Game(
        "maze",
        '"Maze" of Polygonal Sections',
        QUET,
        (2, 6),
        "build a maze of segments between grid vertices, then run its corridors section by section",
        "an n-by-n light grid with a bold outline and labelled vertices, score rows",
        f"{_LAYOUTS}.maze.sheet:LAYOUT",
        f"{_LAYOUTS}.maze.params:PARAMS",
        f"{_LAYOUTS}.maze.rules:RULES",
    ),
    Game(
        "cocomposite",
        "Co-Compositeness",
        QUET,
        (2, 6),
        "write 1, 3, 5, ... each beside the last; joining a number that shares a factor scores",
        "an n-by-n grid of squares large enough for two numbers, score rows",
        f"{_LAYOUTS}.cocomposite.sheet:LAYOUT",
        f"{_LAYOUTS}.cocomposite.params:PARAMS",
        f"{_LAYOUTS}.cocomposite.rules:RULES",
    ),
    Game(
        "palindromes",
        "Palindromic Card Game",
        QUET,
        (2, 2),
        "lay out a row of red and black cards; score the palindromes you find in your opponent's",
        "a record sheet: each player's row of cards, palindromes found in it, score lines",
        f"{_LAYOUTS}.palindromes.sheet:LAYOUT",
        f"{_LAYOUTS}.palindromes.params:PARAMS",
        f"{_LAYOUTS}.palindromes.rules:RULES",
    ),
    Game(
        "compositie",
        "COM:POSITIE",
        HORN,
        (2, 3),
        "the board and 36 pieces in four colours for Fred Horn's three COM:POSITIE games",
        "a 6 by 6 board with coordinates on every side, 36 cut-out pieces in four colours",
        f"{_LAYOUTS}.compositie.board:BOARD",
        f"{_LAYOUTS}.compositie.params:BOARD_PARAMS",
    ),
    Game(
        "plan-a-head",
        "Plan-A-Head",
        HORN,
        (2, 3),
        "place pieces set by set, never touching their own colour; lines of a colour score",
        "the COM:POSITIE board with a rules summary, 36 cut-out pieces",
        f"{_LAYOUTS}.compositie.plan_a_head:PLAN_A_HEAD",
        f"{_LAYOUTS}.compositie.params:PLAN_A_HEAD_PARAMS",
        f"{_LAYOUTS}.compositie.plan_a_head:PLAN_A_HEAD_RULES",
    ),
    Game(
        "pick-two-one",
        "Pick Tw=O=ne",
        HORN,
        (2, 2),
        "take pieces from a full board along straight lines, by how many colours the line holds",
        "the COM:POSITIE board filled with a seeded start position, 36 cut-out pieces",
        f"{_LAYOUTS}.compositie.pick_two_one:PICK_TWO_ONE",
        f"{_LAYOUTS}.compositie.params:PICK_TWO_ONE_PARAMS",
        f"{_LAYOUTS}.compositie.pick_two_one:PICK_TWO_ONE_RULES",
    ),
    Game(
        "cannon-ball",
        "Cannon-Ball",
        HORN,
        (2, 2),
        "move and line up your pieces, bring in reserves and fire cannons across the board",
        "the COM:POSITIE board with both home rows shaded, 36 cut-out pieces",
        f"{_LAYOUTS}.compositie.cannon_ball:CANNON_BALL",
        f"{_LAYOUTS}.compositie.params:CANNON_BALL_PARAMS",
        f"{_LAYOUTS}.compositie.cannon_ball:CANNON_BALL_RULES",
    ),
    Game(
        "cubist-studio",
        "Cubist - studio board",
        CUBIST_AUTHORS,
        (2, 4),
        "a play aid for the dice game Cubist: each player's studio at true scale for the dice",
        "a studio board per player, true scale for 14 mm dice: two workrooms, the storeroom, the "
        "storage space for two dice and a turn summary",
        f"{_LAYOUTS}.cubist.studio:STUDIO",
        f"{_LAYOUTS}.cubist.params:STUDIO_PARAMS",
    ),
    Game(
        "cubist-score",
        "Cubist - final scoring",
        CUBIST_AUTHORS,
        (2, 4),
        "a play aid for the dice game Cubist: add installation values and museum dice at the end",
        "final-scoring pads: per player initials, colour, installation values, museum dice, total "
        "and winner; 1-4 pads per page",
        f"{_LAYOUTS}.cubist.score:SCORE",
        f"{_LAYOUTS}.cubist.params:SCORE_PARAMS",
        f"{_LAYOUTS}.cubist.rules:RULES",
        judge_ref=f"{_LAYOUTS}.cubist.installation:INSTALLATION_JUDGE",
    ),
)

GAMES: dict[str, Game] = {game.name: game for game in _RECORDS}
"""Every game by command-line name, in the order they are listed and printed in the book."""


def game_names() -> list[str]:
    return list(GAMES)


def get_game(name: str) -> Game:
    """The record of a game by its command-line name.

    Raises:
        SpecError: when no game has that name (the message lists the known ones).
    """
    game = GAMES.get(name.lower())
    if game is None:
        raise SpecError(unknown_game(name))
    return game


def unknown_game(name: str) -> str:
    """The message for a name that is no game: the nearest name when one is close, else all.

    Every command, spec and transcript that takes a game's name asks :func:`get_game`, so a
    mistyped name gets the same suggestion wherever it was typed.

    Example:
        >>> unknown_game("ring")
        "unknown game 'ring': did you mean rings?"
    """
    close = difflib.get_close_matches(name.lower(), GAMES, n=1)
    if close:
        return f"unknown game '{name}': did you mean {close[0]}?"
    return f"unknown game '{name}' (known: {', '.join(GAMES)})"


@cache
def get_layout(name: str) -> Layout:
    """The layout of a game by its command-line name (see :func:`get_game` for errors)."""
    return get_game(name).layout()


def rules_games() -> list[str]:
    """The games the checker knows."""
    return [game.name for game in GAMES.values() if game.has_rules]


@cache
def get_rules(name: str) -> RulesClass:
    """The rules engine of a game by its command-line name.

    Raises:
        SpecError: when the game is unknown or the checker does not know it.
    """
    return get_game(name).rules()


def find_judge(text: str) -> Judge | None:
    """The judge that recognises ``text`` as written in its own form, if any does."""
    for game in GAMES.values():
        judge = game.judge()
        if judge is not None and judge.recognises(text):
            return judge
    return None
