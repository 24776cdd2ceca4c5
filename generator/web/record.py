"""Recording a game on screen: each move checked by the game's rules engine as it is made.

The server keeps nothing between requests: the page sends the sheet's spec, the players and
the moves so far with each new move, and this module replays them with the engine
(``parse_move``, ``apply``) before trying the new one, so thirty pupils recording at once have
thirty separate games, and a reload loses nothing the page still holds. A move is typed in the
game's notation, or made by clicking an item of the sheet: the item's id is what the engines of
the games played on unnamed items (spaces, segments, lines) read as a move, and when the id
alone is not a whole move (a colour must be chosen too), or may be played in more than one way,
the legal moves that start with it are offered as choices. Whatever the engine refuses comes
back as its reason, and changes nothing.

The page lists the players in the order they play, from the one who moves first, in the colours
of :data:`COLOURS` in that order. The transcript lists them as the rules number the seats; the
two differ only where the first seat does not move first (in Crossing the Rings the first seat
divides the first round and draws last), and then the transcript's ``players:`` line starts with
the page's last name, each name keeping its colour (:func:`seating`).

Example:
    >>> turn = play("vasarely seed=1", ["Ann", "Bob"], [], item="space-3")
    >>> turn.accepted, turn.moves, turn.to_move
    (True, ['space-3'], 'Bob')
    >>> play("vasarely seed=1", ["Ann", "Bob"], ["space-3"], item="space-3").reason
    'space-3 is already filled'
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from papergames.errors import PapergamesError
from papergames.play.clicks import narrow
from papergames.play.rules import IllegalMove, MoveSyntaxError, Rules
from papergames.sheets.model import Feature, Page
from papergames.sheets.spec import SheetSpec

COLOURS = ("red", "blue", "green", "orange", "purple", "brown")
"""The players' colours in seat order, as the transcript names them and the page shows them."""

MAX_MOVES = 3000
"""The longest game the page records (the longest sheet has a few hundred moves)."""

MAX_TEXT = 200
"""The longest move or player name taken, in characters."""

MAX_CHOICES = 20_000
"""How many legal moves are looked through for the choices an item offers."""


class RecordError(PapergamesError):
    """A request the recorder cannot follow (bad players, a tampered move list)."""


@dataclass
class Turn:
    """The game after a request: what was played, whose turn it is, and any refusal.

    Attributes:
        moves: every move so far, as the engine writes it (a loaded transcript's ``85`` is
            ``space-85``, the id the page colours).
        movers: who made each move: the index of the player in the page's list (in playing
            order, see :func:`seating`), which is their colour's index in :data:`COLOURS`.
        players: the players' names in the page's order.
        accepted: whether the new move was played.
        reason: why it was not (the engine's words), or ``""``.
        choices: the moves an item offers when the item alone is not a whole move.
        pending: the names clicked so far of a move of several items (a line's first end),
            or the ids clicked so far of a move the engine builds from clicks
            (:meth:`~papergames.play.rules.Rules.click_step`).
        hint: what to click next while a move is being built, in words.
        building: ``pending`` holds a move being built from clicks: the same item may be
            clicked again (a colour twice), and the move is let go with a button.
        marks: (item id, colour word) to draw while a move is built (pieces set so far).
        plain: the legal moves that name no item of the sheet (``pass``, ``loss``,
            ``stuck``), offered as buttons when there are a few.
        position: what the sheet shows now, as (page, item id, colour word), for games whose
            engine can say (:meth:`~papergames.play.rules.Rules.position_marks`): pieces where they
            stand, Klee's colours, tallies; ``None`` for the others, whose moves' items are
            coloured in their players' colours.
        items: for each move, the ids of the sheet's features it names (see
            :func:`items_named`), for the page to draw.
        to_move: the name of the player to move (``""`` when the game is over).
        page: the page of the sheet (from 1) the next move is made on: later pages of a
            sheet hold later rounds (Crossing the Rings).
        pages: the page each move was made on.
        pages_played: how many of the sheet's pages moves are made on.
        scores: every player's score, in the page's order.
        over: whether the game has ended.
        winners: the winners' names, once it has.
        transcript: the game as a transcript, for the checker.
    """

    moves: list[str]
    movers: list[int]
    players: list[str] = field(default_factory=list)
    accepted: bool = False
    reason: str = ""
    choices: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    hint: str = ""
    building: bool = False
    marks: list[tuple[str, str]] = field(default_factory=list)
    position: list[tuple[int, str, str]] | None = None
    plain: list[str] = field(default_factory=list)
    items: list[list[str]] = field(default_factory=list)
    to_move: str = ""
    page: int = 1
    pages: list[int] = field(default_factory=list)
    pages_played: int = 1
    scores: dict[str, int] = field(default_factory=dict)
    over: bool = False
    winners: list[str] = field(default_factory=list)
    transcript: str = ""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


MAX_OPTIONS = 20
"""The most rule options a request names (the games declare a handful)."""


def header(
    spec: str,
    players: Sequence[str],
    options: Mapping[str, str] | None = None,
    colours: Sequence[str] = COLOURS,
) -> str:
    """A transcript's first lines: the sheet, the players with their colours (by default those of
    :data:`COLOURS` in order), the options.

    Example:
        >>> print(header("klee seed=2", ["Ann", "Mia Rose"], {"track": "20"}), end="")
        sheet: klee seed=2
        players: Ann (red), Mia Rose (blue)
        options: track=20
    """
    seats = ", ".join(f"{name} ({colour})" for name, colour in zip(players, colours, strict=False))
    text = f"sheet: {spec}\nplayers: {seats}\n"
    given = " ".join(f"{key}={value}" for key, value in (options or {}).items() if value)
    return text + (f"options: {given}\n" if given else "")


def printed_name(feature: Feature) -> str:
    """The name a transcript uses for a feature: its printed label (a vertex's ``B3``), a grid
    square's name from its data (``c4``), or else its id (``space-17``)."""
    name = feature.data.get("name") if feature.data else None
    return feature.label or (name if isinstance(name, str) else feature.id)


def names_on(page: Page) -> dict[str, str]:
    """Every name of a page's features (printed name and id) and the id it names."""
    names: dict[str, str] = {}
    for feature in page.features():
        names.setdefault(feature.id, feature.id)
        names.setdefault(printed_name(feature), feature.id)
    return names


@lru_cache(maxsize=64)
def _names(head: str, page: int = 1) -> dict[str, str]:
    """:func:`names_on` the page (from 1) of a recorded game's sheet, built once."""
    pages = _game(head).sheet.pages
    return names_on(pages[min(page, len(pages)) - 1])


def move_items(game: Rules[Any, Any], move: Any, names: dict[str, str]) -> list[str]:
    """The ids of the items a move colours or marks: the engine's own list when it gives one
    (:meth:`~papergames.play.rules.Rules.move_items`), else the ones its text names."""
    given = game.move_items(move)
    if given is not None:
        return [names.get(item, item) for item in given]
    return items_named(names, game.format_move(move))


def items_named(names: dict[str, str], text: str) -> list[str]:
    """The ids of the features a move's text names (``A1-B2``: two vertices; ``R a1``: one
    square), so the page can colour them or draw the line between them."""
    found: list[str] = []
    for word in text.split():
        for part in word.split("+"):
            if part in names:
                found.append(names[part])
            else:
                found += [names[end] for end in part.split("-") if end in names]
    return found


@dataclass(frozen=True)
class Seating:
    """The page's players (in playing order) seated as the rules number the seats.

    Attributes:
        head: the transcript's first lines, the players in seat order with their colours.
        game: the engine for them.
        first: the seat that moves first, which the page lists first.
    """

    head: str
    game: Rules[Any, Any]
    first: int

    def page_index(self, seat: int) -> int:
        """The place in the page's list of the player in ``seat``."""
        return (seat - self.first) % len(self.game.players)

    def seat(self, index: int) -> int:
        """The seat of the page's ``index``-th player."""
        return (index + self.first) % len(self.game.players)


def first_seat(spec: str, count: int, options: Mapping[str, str] | None = None) -> int:
    """The seat (from 0) that moves first when ``count`` play on the sheet ``spec``.

    It depends only on the count; a sheet made for named players is asked with its own names in
    their seats, since a transcript of it may list no others.

    Example:
        >>> first_seat("rings seed=1", 3), first_seat("maze seed=1 names=Ann,Bob", 2)
        (1, 0)
    """
    named = SheetSpec.parse(spec).names
    players = named if len(named) == count else [f"Player{k + 1}" for k in range(count)]
    game = _game(header(spec, players, options))
    return game.to_move(game.initial()) or 0


def seating(spec: str, players: Sequence[str], options: Mapping[str, str] | None = None) -> Seating:
    """The page's players, listed from the one who moves first, seated for the engine.

    Most games start with the first seat, and then the two orders are one. In Crossing the
    Rings the first seat divides the first round and draws last, so the page's last name takes
    the first seat and the first name draws first; each keeps the colour of their place in the
    page's list.

    Example:
        >>> seated = seating("rings seed=1", ["Ann", "Bob", "Cy"])
        >>> seated.head.splitlines()[1], seated.first
        ('players: Cy (green), Ann (red), Bob (blue)', 1)
    """
    first = first_seat(spec, len(players), options)
    head = header(spec, players, options)
    if not first:
        return Seating(head, _game(head), 0)
    count = len(players)
    order = [(seat - first) % count for seat in range(count)]
    head = header(spec, [players[k] for k in order], options, [COLOURS[k] for k in order])
    return Seating(head, _game(head), first)


def page_order(
    spec: str, seats: Sequence[str], options: Mapping[str, str] | None = None
) -> list[str]:
    """A transcript's players (in seat order) as the page lists them: from the first to move.

    Example:
        >>> page_order("rings seed=1", ["Cy", "Ann", "Bob"])
        ['Ann', 'Bob', 'Cy']
    """
    game = _game(header(spec, seats, options))
    first = game.to_move(game.initial()) or 0
    return [seats[(k + first) % len(seats)] for k in range(len(seats))]


@lru_cache(maxsize=64)
def _game(head: str) -> Rules[Any, Any]:
    """The engine for a sheet and its players, built once for many requests (and its sheet
    once for every seating of it, the preview and the checker's drawing)."""
    from papergames.play.game import build_game
    from papergames.play.transcript import parse_transcript
    from papergames.web.making import built_sheet

    transcript = parse_transcript(head, "the recorded game")
    return build_game(transcript, built_sheet(transcript.spec))


def _check_request(
    players: Sequence[str], moves: Sequence[str], options: Mapping[str, str] | None = None
) -> None:
    if len(options or {}) > MAX_OPTIONS:
        raise RecordError(f"a game has at most {MAX_OPTIONS} options")
    for key, value in (options or {}).items():
        if not key.isidentifier() or len(value) > MAX_TEXT or any(c.isspace() for c in value):
            raise RecordError(f"the option {key[:40]!r} is not a name with a one-word value")
    if len(players) > len(COLOURS):
        raise RecordError(f"at most {len(COLOURS)} players can be recorded here")
    if len(moves) > MAX_MOVES:
        raise RecordError(f"a recorded game has at most {MAX_MOVES} moves")
    for text in [*players, *moves]:
        if not text.strip() or len(text) > MAX_TEXT or "\n" in text or "\r" in text:
            raise RecordError("a player's name or a move is empty, too long or has a line break")


def check_players(players: Sequence[str]) -> None:
    """Refuse names a transcript cannot hold, in words about the players (not about a line
    of a transcript the page writes).

    Raises:
        RecordError: naming the first bad name and why.
    """
    from papergames.sheets.names import name_problem

    if not players:
        raise RecordError("players: write the players' names, parted by commas")
    for name in players:
        problem = name_problem(name)
        if problem is not None:
            raise RecordError(f"players: {problem}")
    seen: set[str] = set()
    for name in players:
        if name in seen:
            raise RecordError(f"players: {name} is named twice; give each player their own name")
        seen.add(name)


def play(
    spec: str,
    players: Sequence[str],
    moves: Sequence[str],
    *,
    text: str | None = None,
    item: str | None = None,
    pending: Sequence[str] = (),
    options: Mapping[str, str] | None = None,
    building: bool = False,
) -> Turn:
    """Replay ``moves`` and try the new move, typed (``text``) or clicked (``item``, after the
    names of the move's earlier clicks, ``pending``; ``building`` when they are the ids of a
    move being built click by click), under the rules' ``options`` (as a
    transcript's ``options:`` line gives them; an empty value is the default).

    Raises:
        PapergamesError: when the spec, the players or the moves so far cannot be replayed (a
            page that was tampered with, or a spec no longer valid); a refused new move is not
            an error but a :class:`Turn` with its reason.
    """
    _check_request([spec, *players], moves, options)
    check_players(players)
    seated = seating(spec, players, options)
    head, game = seated.head, seated.game
    names = [p.name for p in game.players]
    state = game.initial()
    movers: list[int] = []
    played: list[str] = []
    pages: list[int] = []
    made: list[Any] = []
    for number, move_text in enumerate(moves, start=1):
        pages.append(game.page_of(state))
        mover = game.to_move(state)
        try:
            if mover is None:
                raise IllegalMove("game-over", "the game is already over")
            move = game.parse_move(move_text, state)
            state = game.apply(state, move)
        except (MoveSyntaxError, IllegalMove) as exc:
            raise RecordError(f"move {number} ({move_text}) cannot be replayed: {exc}") from None
        movers.append(mover)
        played.append(game.format_move(move))
        made.append(move)
    turn = Turn(played, movers, pages=pages)
    if text is not None or item is not None:
        _check_request([], pending)
        state = _try(game, state, turn, text, item, pending, made, building)
    turn.page = game.page_of(state)
    turn.pages_played = game.pages_played()
    marks = game.position_marks(state)
    if marks is not None:
        turn.position = [(page, item, word) for (page, item), word in sorted(marks.items())]
    mover = game.to_move(state)
    turn.to_move = "" if mover is None else names[mover]
    scores = game.scores(state)
    turn.players = list(players)
    turn.scores = {name: scores[seated.seat(k)] for k, name in enumerate(players)}
    turn.over = game.is_over(state)
    turn.winners = [names[p] for p in game.winners(state)]
    lines = [f"{names[m]}: {t}" for m, t in zip(turn.movers, turn.moves, strict=True)]
    turn.transcript = head + "".join(f"{line}\n" for line in lines)
    turn.movers = [seated.page_index(m) for m in turn.movers]
    turn.items = [
        move_items(game, move, _names(head, page))
        for page, move in zip(turn.pages, made, strict=True)
    ]
    if mover is not None:
        turn.plain = plain_moves(game, state, _names(head, turn.page))
    return turn


PLAYOUT_MOVES = 400
"""The most moves of the random game :func:`clicked_kinds` plays (the longest games end sooner)."""

LOOKED_AT = 400
"""How many legal moves of each state :func:`clicked_kinds` looks at."""


@lru_cache(maxsize=32)
def clicked_kinds(head: str) -> frozenset[str]:
    """The kinds of item (``space``, ``point``, ...) the moves of a game name, gathered from the
    legal moves along a seeded random game, so the page lets only those be clicked: Crossing
    the Rings' sections, which its lines fill, are not a move. Empty when the game cannot be
    played out (the page then lets every item be clicked, as the engine refuses what is no
    move).

    Example:
        >>> sorted(clicked_kinds(header("rings seed=1", ["Ann", "Bob"])))
        ['point']
        >>> sorted(clicked_kinds(header("springer seed=1", ["Ann", "Bob"])))
        ['space', 'triangle']
    """
    from papergames.sheets.rng import Rng

    game = _game(head)
    pages = game.sheet.pages
    kinds = {f.id: str(f.kind) for page in pages for f in page.features()}
    names = [names_on(page) for page in pages]
    rng = Rng(0, "recorder", game.game)
    state = game.initial()
    found: set[str] = set()
    try:
        for _ in range(PLAYOUT_MOVES):
            if game.is_over(state):
                break
            named = names[min(game.page_of(state), len(names)) - 1]
            for move in itertools.islice(game.legal_moves(state), LOOKED_AT):
                found.update(kinds.get(item, "") for item in move_items(game, move, named))
            state = game.apply(state, game.random_move(state, rng))
    except PapergamesError:
        return frozenset()
    found.discard("")
    return frozenset(found)


def item_labels(head: str, kinds: frozenset[str]) -> list[dict[str, str]]:
    """For each page moves are made on, what to call each item of ``kinds`` and each of the
    engine's click targets, for a screen reader and the pointer's tooltip: the name printed
    on the sheet (``C4``, Klee's ``e10``, Springer's ``T3``), a bare number with its kind
    (``segment 17``), or else the id in words (``space 17``).

    Example:
        >>> labels = item_labels(header("klee seed=1", ["Ann", "Bob"]), frozenset({"space"}))
        >>> labels[0]["space-1"], labels[0]["box-legend-red"]
        ('a12', 'box legend red')
    """
    game = _game(head)
    printed = {item: name for name, item in game.printed_names().items()}
    targets = set(game.click_targets)
    labels: list[dict[str, str]] = []
    for page in game.sheet.pages[: game.pages_played()]:
        shown: dict[str, str] = {}
        for feature in page.features():
            if str(feature.kind) not in kinds and feature.id not in targets:
                continue
            name = printed.get(feature.id) or printed_name(feature)
            if name == feature.id:
                name = name.replace("-", " ")
            elif name.isdigit():
                name = f"{feature.kind} {name}"
            shown[feature.id] = name
        labels.append(shown)
    return labels


MAX_PLAIN = 6
"""The most moves naming no item offered as buttons (more are a set-up to type or click)."""


def plain_moves(game: Rules[Any, Any], state: Any, names: dict[str, str]) -> list[str]:
    """The legal moves that name no item of the page (a pass, a loss, being stuck), when there
    are at most :data:`MAX_PLAIN` of them among the first :data:`MAX_CHOICES` legal moves."""
    plain: list[str] = []
    for move in itertools.islice(game.legal_moves(state), MAX_CHOICES):
        if not move_items(game, move, names):
            plain.append(game.format_move(move))
            if len(plain) > MAX_PLAIN:
                return []
    return plain


def _try(
    game: Rules[Any, Any],
    state: Any,
    turn: Turn,
    text: str | None,
    item: str | None,
    pending: Sequence[str],
    made: list[Any],
    building: bool = False,
) -> Any:
    """Play the new move on ``turn`` (and its move on ``made``) if the engine takes it;
    otherwise give its reason."""
    mover = game.to_move(state)
    if mover is None:
        turn.reason = "the game is over"
        return state
    if item is not None:
        text = _clicked(game, state, turn, item, pending, building)
        if text is None:
            return state
    assert text is not None
    _check_request([], [text])
    page = game.page_of(state)
    try:
        move = game.parse_move(text.strip(), state)
        state = game.apply(state, move)
    except MoveSyntaxError as exc:
        turn.reason = str(exc)
        return state
    except IllegalMove as exc:
        turn.reason = exc.reason
        return state
    made.append(move)
    turn.pages.append(page)
    turn.moves.append(game.format_move(move))
    turn.movers.append(mover)
    turn.accepted = True
    return state


def _clicked(
    game: Rules[Any, Any],
    state: Any,
    turn: Turn,
    item: str,
    pending: Sequence[str],
    building: bool = False,
) -> str | None:
    """The move text a click makes, or ``None`` when the click only chooses or starts a move.

    The clicked item is named as a transcript names it (:func:`printed_name`). A name that is a
    legal move is played; one that legal moves join to another name with ``-`` (a line's end)
    is kept as ``turn.pending``, and the next click finishes the line, which the engine then
    judges; an item that can be played several ways (a colour to choose, a second square)
    offers them as ``turn.choices``. A move of several items that is none of these (Springer's
    double first move ``space-17+space-18``, or any move of a game with its own
    :meth:`~papergames.play.rules.Rules.click_step`) is built click by click (``building``), its
    clicks kept as ids in ``turn.pending``.
    """
    page = game.sheet.pages[game.page_of(state) - 1]
    feature = next((f for f in page.features() if f.id == item), None)
    if feature is None:
        turn.reason = "that is not an item of the sheet's field"
        return None
    own = game.click_step(state, (item,)) is not None
    if own or building:
        return _built(game, state, turn, (*pending, item), own)
    name = printed_name(feature)
    if pending:
        return f"{pending[0]}-{name}"
    legal = [game.format_move(m) for m in itertools.islice(game.legal_moves(state), MAX_CHOICES)]
    choices = [t for t in legal if t == name or t.startswith(f"{name} ") or t.endswith(f" {name}")]
    if len(choices) > 1:
        turn.choices = choices
        return None
    if choices:
        return choices[0]
    if any(name in t.split("-") for t in legal):
        turn.pending = [name]
        return None
    found = _built(game, state, turn, (item,), False)
    if found is not None or turn.building:
        return found  # a move of several items (space-17+space-18) starts here
    turn.reason = ""
    try:
        move = game.parse_move(name, state)
    except MoveSyntaxError:
        move = None
    if move is not None and game.format_move(move) == name:
        return name  # a move of this item that the rules forbid now: the engine says why
    how = f" ({game.notation})" if game.notation else ""
    turn.reason = f"nothing can be played on {name} now: type the move instead{how}"
    return None


def _built(
    game: Rules[Any, Any], state: Any, turn: Turn, clicks: tuple[str, ...], own: bool
) -> str | None:
    """The move the clicks of a move of several items make, or ``None`` while it is built
    (``turn`` then says what is kept, offered or wrong). The engine's own
    :meth:`~papergames.play.rules.Rules.click_step` decides when it has one (``own``); otherwise
    the clicks are matched against the items each legal move names."""
    if own:
        step = game.click_step(state, clicks)
        before = game.click_step(state, clicks[:-1]) if len(clicks) > 1 else None
    else:
        names = _page_names(game, state)
        moves = [
            (game.format_move(m), tuple(move_items(game, m, names)))
            for m in itertools.islice(game.legal_moves(state), MAX_CHOICES)
        ]
        step = narrow(moves, clicks)
        before = narrow(moves, clicks[:-1]) if len(clicks) > 1 else None
    assert step is not None
    if step.move is not None:
        return step.move
    if step.reason and before is not None and not before.reason and before.move is None:
        step = dataclasses.replace(before, reason=step.reason)  # a misclick loses nothing built
    turn.reason = step.reason
    turn.pending = list(step.pending)
    turn.choices = list(step.choices)
    turn.hint = step.hint
    turn.building = bool(step.pending)
    turn.marks = list(step.marks)
    return None


def _page_names(game: Rules[Any, Any], state: Any) -> dict[str, str]:
    """:func:`names_on` the page the next move is made on."""
    return names_on(game.sheet.pages[game.page_of(state) - 1])
