"""Transcripts: what happened on a sheet, typed by a person, as plain text or JSON.

The text form (docs/transcripts.md has the whole grammar)::

    # Co-Compositeness, played on 3 May
    sheet: cocomposite size=6 seed=42
    players: Ann (red), Bob (blue)
    options: key=value ...
    claim: Ann score 3
    Ann: c3
    Bob: d4
    e5                      # the player to move when no name is given

Header lines start with a keyword (``sheet``, ``players``, ``options``, ``claim``); every other
non-blank line is a move, optionally numbered (``12.``) and optionally naming its player
(``Ann:``). ``#`` starts a comment. The JSON form holds the same content::

    {"sheet": "...", "players": ["Ann", {"name": "Bob", "colour": "blue"}],
     "options": {"key": "value"}, "moves": ["c3", {"player": "Bob", "move": "d4"}],
     "claims": [{"player": "Ann", "what": "score", "value": 3}]}

Parsing never raises anything but :class:`TranscriptError`, which lists every problem found,
each with its line and column (text) or its place (JSON).

Example:
    >>> t = parse_transcript("sheet: cocomposite size=4 seed=1\\nplayers: Ann, Bob\\nb2\\n")
    >>> [p.name for p in t.players], [m.text for m in t.moves]
    (['Ann', 'Bob'], ['b2'])
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from papergames.errors import PapergamesError
from papergames.play.jsonshape import (
    AnyOf,
    Flag,
    ListOf,
    MapOf,
    Null,
    Number,
    Record,
    Shape,
    Text,
    Whole,
)
from papergames.play.jsonshape import load as load_json
from papergames.play.rules import Player
from papergames.sheets.names import KEYWORDS, NAME_PATTERN
from papergames.sheets.spec import SheetSpec

_NAME = NAME_PATTERN
_MOVE_NUMBER = re.compile(r"(\d+)\.\s*")
_PLAYER_PREFIX = re.compile(rf"({_NAME})\s*:\s*")
_FINAL_ENTRY = re.compile(r"^(?:[pP](\d{1,3})/)?(\S{1,40})\s+([\w-]+(?: [\w-]+)*)$")
_PLAYER_ENTRY = re.compile(rf"^({_NAME})(?:\s*\(\s*([\w -]{{1,24}}?)\s*\))?$")


MAX_BYTES = 2_000_000


@dataclass(frozen=True)
class Place:
    """Where something stands in the transcript: a line and column, or a JSON path."""

    line: int = 0
    column: int = 0
    path: str = ""

    def __str__(self) -> str:
        if self.path:
            return self.path
        return f"line {self.line}, column {self.column}" if self.column else f"line {self.line}"


@dataclass(frozen=True)
class MoveLine:
    """One move as written: the player it names (if any), the move text and its place."""

    text: str
    place: Place
    player: str | None = None


@dataclass(frozen=True)
class Claim:
    """Something the players wrote down that the checker verifies (a total, a count)."""

    player: str
    what: str
    value: str
    place: Place


@dataclass(frozen=True)
class FinalMark:
    """One item's colour on a finished sheet, as a ``final:`` line gives it.

    Attributes:
        item: the item as written (an id such as ``space-17``, or a printed name such as ``C4``).
        colour: the colour word as written (a player's colour or name, ``neutral``, ``marked``).
        place: where it stands in the transcript.
        page: the sheet's page (``p2/space-5`` names page 2; page 1 otherwise).
    """

    item: str
    colour: str
    place: Place
    page: int = 1


@dataclass
class Transcript:
    """A parsed transcript: the sheet it was played on, players, options, moves and claims.

    A *final-state* transcript has ``final`` marks (the finished sheet) instead of moves.
    """

    spec: SheetSpec
    players: list[Player]
    options: dict[str, str] = field(default_factory=dict)
    moves: list[MoveLine] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    source: str = "<transcript>"
    final: list[FinalMark] = field(default_factory=list)
    final_given: bool = False

    @property
    def is_final_state(self) -> bool:
        """Whether this transcript gives the finished sheet (``final:``, even ``final: none``)."""
        return self.final_given or bool(self.final)


SHOWN_PROBLEMS = 20
"""Most problems an error message lists; the rest are counted ("and 994,998 more")."""

KEPT_PROBLEMS = 1000
"""Most problems kept in :attr:`TranscriptError.problems`; a 2 MB file could hold a million."""


class TranscriptError(PapergamesError):
    """A transcript that cannot be read.

    Attributes:
        problems: the (place, message) pairs found, at most :data:`KEPT_PROBLEMS` of them.
        more: how many more were found and not kept.
    """

    def __init__(self, source: str, problems: list[tuple[Place, str]], more: int = 0) -> None:
        self.source = source
        self.problems = problems[:KEPT_PROBLEMS]
        self.more = more + len(problems) - len(self.problems)
        lines = [f"{source}: {place}: {message}" for place, message in problems[:SHOWN_PROBLEMS]]
        hidden = len(problems) - len(lines) + more
        if hidden:
            lines.append(f"{source}: and {hidden:,} more problem{'s' if hidden > 1 else ''}")
        super().__init__("\n".join(lines))


class _Collector:
    """The problems found so far: the first :data:`KEPT_PROBLEMS` kept, the rest counted."""

    def __init__(self) -> None:
        self.problems: list[tuple[Place, str]] = []
        self.more = 0

    def add(self, place: Place, message: str) -> None:
        if len(self.problems) < KEPT_PROBLEMS:
            self.problems.append((place, message))
        else:
            self.more += 1

    def error(self, source: str) -> TranscriptError:
        return TranscriptError(source, self.problems, self.more)


def _parse_players(text: str, line: int, column: int, out: _Collector) -> list[Player]:
    players: list[Player] = []
    named: set[str] = set()
    offset = column
    for part in text.split(","):
        entry = part.strip()
        col = offset + len(part) - len(part.lstrip())
        offset += len(part) + 1
        match = _PLAYER_ENTRY.match(entry)
        if not match:
            out.add(
                Place(line, col),
                f"'{entry}' is not a player: write a name of letters and digits (words parted "
                "by single spaces), optionally with a colour in brackets, like Mia Rose (red)",
            )
            continue
        name, colour = match.group(1), match.group(2) or ""
        if name.lower() in KEYWORDS:
            out.add(Place(line, col), f"'{name}' is a keyword and cannot name a player")
        elif name in named:
            out.add(Place(line, col), f"player '{name}' is named twice")
        else:
            named.add(name)
            players.append(Player(name, colour))
    return players


def _parse_options(text: str, line: int, column: int, out: _Collector) -> dict[str, str]:
    options: dict[str, str] = {}
    for match in re.finditer(r"\S+", text):
        key, sep, value = match.group().partition("=")
        place = Place(line, column + match.start())
        if not sep or not key or not value:
            out.add(place, f"'{match.group()}' is not an option of the form key=value")
        elif key in options:
            out.add(place, f"option '{key}' is given twice")
        else:
            options[key] = value
    return options


def _parse_claim(text: str, line: int, column: int, out: _Collector) -> Claim | None:
    words = text.split()
    if len(words) < 3:
        out.add(
            Place(line, column),
            "a claim is 'claim: PLAYER WHAT VALUE', for example 'claim: Ann score 12'",
        )
        return None
    player = " ".join(words[:-2])  # a name of several words (Mia Rose) is all but the last two
    return Claim(player, words[-2].lower(), words[-1], Place(line, column))


def _parse_final(text: str, line: int, column: int, out: _Collector) -> list[FinalMark]:
    marks = []
    offset = column
    for part in text.split(","):
        entry = part.strip()
        col = offset + len(part) - len(part.lstrip())
        offset += len(part) + 1
        if not entry or entry.lower() == "none":
            continue
        match = _FINAL_ENTRY.match(entry)
        if not match:
            out.add(
                Place(line, col),
                f"'{entry}' is not an item and its colour: write them like 'space-17 red'",
            )
            continue
        page = int(match.group(1)) if match.group(1) else 1
        marks.append(FinalMark(match.group(2), match.group(3), Place(line, col), page))
    return marks


def _strip_comment(raw: str) -> str:
    cut = raw.find("#")
    return (raw if cut < 0 else raw[:cut]).rstrip()


def parse_text(text: str, source: str = "<transcript>") -> Transcript:
    """Read the text form of a transcript.

    Raises:
        TranscriptError: listing every problem with its line and column.
    """
    require_text(text, source)
    out = _Collector()
    spec: SheetSpec | None = None
    players: list[Player] | None = None
    players_place: Place | None = None
    options: dict[str, str] = {}
    moves: list[MoveLine] = []
    claims: list[Claim] = []
    final: list[FinalMark] = []
    final_given = False
    names: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        body = _strip_comment(raw)
        stripped = body.lstrip()
        if not stripped:
            continue
        indent = len(body) - len(stripped)
        head, sep, rest = stripped.partition(":")
        keyword = head.strip().lower()
        if sep and keyword in KEYWORDS:
            value_col = indent + len(head) + 2 + (len(rest) - len(rest.lstrip()))
            value = rest.strip()
            if moves and keyword not in ("claim", "final"):
                out.add(Place(number, indent + 1), f"'{keyword}:' must come before the moves")
            if keyword == "sheet":
                if spec is not None:
                    out.add(Place(number, indent + 1), "the sheet is named twice")
                    continue
                try:
                    spec = SheetSpec.parse(value)
                except PapergamesError as exc:
                    out.add(Place(number, value_col), f"bad sheet spec: {exc}")
            elif keyword == "players":
                if players is not None:
                    out.add(Place(number, indent + 1), "the players are named twice")
                    continue
                players = _parse_players(rest, number, indent + len(head) + 2, out)
                players_place = Place(number, value_col)
            elif keyword == "options":
                for key, val in _parse_options(rest, number, indent + len(head) + 2, out).items():
                    if key in options:
                        out.add(Place(number, value_col), f"option '{key}' is given twice")
                    options[key] = val
            elif keyword == "final":
                final_given = True
                final += _parse_final(rest, number, indent + len(head) + 2, out)
            else:
                claim = _parse_claim(value, number, value_col, out)
                if claim is not None:
                    claims.append(claim)
            continue
        column = indent + 1
        move_text = stripped
        numbered = _MOVE_NUMBER.match(move_text)
        if numbered:
            column += numbered.end()
            move_text = move_text[numbered.end() :]
        player = None
        named = _PLAYER_PREFIX.match(move_text)
        if players is None and spec is not None and spec.names:
            players = [Player(name) for name in spec.names]  # a named sheet seats its names
        if players is not None and len(names) != len(players):
            names = {p.name for p in players}
        if named and players is not None and named.group(1) in names:
            player = named.group(1)
            column += named.end()
            move_text = move_text[named.end() :]
        elif named and players is not None:
            out.add(Place(number, column), f"'{named.group(1)}' is not one of the players")
            continue
        if not move_text.strip():
            out.add(Place(number, column), "the move is missing")
            continue
        moves.append(MoveLine(move_text.strip(), Place(number, column), player))
    return _finish(
        source, spec, players, options, moves, claims, out, final, final_given, False, players_place
    )


def _seated(
    spec: SheetSpec | None, players: list[Player] | None, place: Place, out: _Collector
) -> list[Player] | None:
    """The players of a sheet made for named players: its names, unless the transcript lists
    them itself. Its list may leave out someone who did not play (a pupil away that day), but
    it may not name anyone else or change their order: that is a problem naming both lists."""
    if spec is None or not spec.names:
        return players
    if players is None:
        return [Player(name) for name in spec.names]
    written = [p.name for p in players]
    printed = iter(spec.names)
    if not all(name in printed for name in written):  # the sheet's names, in order, some left out
        out.add(
            place,
            f"the players are {', '.join(written)}, but the sheet was made for "
            f"{', '.join(spec.names)} (in that order): leave the players out, or write the "
            "sheet's names",
        )
    return players


def _finish(
    source: str,
    spec: SheetSpec | None,
    players: list[Player] | None,
    options: dict[str, str],
    moves: list[MoveLine],
    claims: list[Claim],
    out: _Collector,
    final: list[FinalMark] | None = None,
    final_given: bool = False,
    json_form: bool = False,
    players_place: Place | None = None,
) -> Transcript:
    players = _seated(spec, players, players_place or Place(path="players"), out)
    if spec is None and not any("sheet" in m or p.path == "sheet" for p, m in out.problems):
        out.add(Place(1), "no 'sheet:' line naming the sheet (copy the spec from its footer)")
    if players is None and not json_form:  # the JSON form has said so by its path
        out.add(Place(1), "no 'players:' line")
    elif not players and not out.problems:
        if json_form:
            out.add(Place(path="players"), "the list of players is empty")
        else:
            out.add(Place(1), "the 'players:' line names nobody")
    names = {p.name for p in players or []}
    for claim in claims:
        if players is not None and claim.player not in names:
            out.add(claim.place, f"the claim names '{claim.player}', who is not a player")
    if (final or final_given) and moves:
        out.add(
            moves[0].place,
            "a transcript gives either the moves or the finished sheet ('final:'), not both",
        )
    if out.problems:
        raise out.error(source)
    assert spec is not None and players is not None
    marks = list(final or [])
    return Transcript(spec, players, options, moves, claims, source, marks, final_given)


TRANSCRIPT_SHAPE = Record(
    {
        "sheet": Text(500),
        "players": ListOf(
            AnyOf(
                (Text(100), Record({"name": Text(100), "colour": Text(100)}, {"name"})),
                "a name, or {name, colour}",
            )
        ),
        "options": MapOf(
            AnyOf((Text(), Whole(), Number(), Flag()), "text, a number, or true or false")
        ),
        "moves": ListOf(
            AnyOf(
                (
                    Text(),
                    Record(
                        {"player": AnyOf((Text(100), Null()), "a name"), "move": Text()}, {"move"}
                    ),
                ),
                "a move's text, or {player, move}",
            )
        ),
        "claims": ListOf(
            Record(
                {
                    "player": Text(100),
                    "what": Text(100),
                    "value": AnyOf((Text(100), Whole()), "text or a whole number"),
                },
                {"player", "what", "value"},
            )
        ),
        "final": MapOf(Text(100), longest=100),
    },
    {"sheet"},
)
"""The JSON form of a transcript (docs/transcripts.md): every value :func:`parse_json` reads is
checked against this once, so what follows can trust the types."""


def parse_json(text: str, source: str = "<transcript>") -> Transcript:
    """Read the JSON form of a transcript.

    The text is first checked against :data:`TRANSCRIPT_SHAPE`, so a value of the wrong type,
    a number no one could use, or a lone surrogate is reported by its path before anything
    reads it.

    Raises:
        TranscriptError: listing every problem with its place.
    """
    require_text(text, source)
    try:
        data = load_json(text)
    except json.JSONDecodeError as exc:
        raise TranscriptError(
            source, [(Place(exc.lineno, exc.colno), f"not valid JSON: {exc.msg}")]
        ) from None
    except RecursionError:
        raise TranscriptError(source, [(Place(1), "not valid JSON: nested too deeply")]) from None
    out = _Collector()
    if not isinstance(data, dict):
        raise TranscriptError(source, [(Place(path="$"), "the JSON must be an object")])
    shapes = TRANSCRIPT_SHAPE.fields

    def fits(shape: Shape, value: Any, path: str) -> bool:
        """Report every misfit of ``value`` at ``path``; whether there was none."""
        clean = True
        for where, message in shape.check(value, path):
            out.add(Place(path=where), message)
            clean = False
        return clean

    def items(key: str, default: Any) -> list[Any]:
        """A list section's entries, or none when the section is not a list."""
        value = data.get(key, default)
        if not isinstance(value, list):
            fits(shapes[key], value, key)
            return []
        return value

    for key in data:
        if key not in shapes:
            out.add(Place(path=key[:40]), f"is not a key here (known: {', '.join(shapes)})")
    spec = None
    if "sheet" not in data:
        out.add(Place(path="sheet"), "'sheet' must be the sheet spec as a string")
    elif fits(shapes["sheet"], data["sheet"], "sheet"):
        try:
            spec = SheetSpec.parse(data["sheet"])
        except PapergamesError as exc:
            out.add(Place(path="sheet"), f"bad sheet spec: {exc}")
    players: list[Player] | None = None
    if "players" not in data:
        if spec is None or not spec.names:
            out.add(Place(path="players"), "'players' must be a list of names or objects")
    else:
        entries = []
        player_shape = shapes["players"].item  # type: ignore[attr-defined]
        for k, entry in enumerate(items("players", [])):
            if fits(player_shape, entry, f"players[{k}]"):
                name, colour = (
                    (entry["name"], entry.get("colour", ""))
                    if isinstance(entry, dict)
                    else (entry, "")
                )
                entries.append(f"{name} ({colour})" if colour else name)
        known = len(out.problems)
        players = _parse_players(", ".join(entries), 0, 1, out) if entries else []
        out.problems[known:] = [(Place(path="players"), m) for _, m in out.problems[known:]]
    options: dict[str, str] = {}
    if fits(shapes["options"], data.get("options", {}), "options"):
        options = {key: _option_text(value) for key, value in data.get("options", {}).items()}
    moves: list[MoveLine] = []
    names = {p.name for p in players or []}
    move_shape = shapes["moves"].item  # type: ignore[attr-defined]
    for k, entry in enumerate(items("moves", [])):
        place = Place(path=f"moves[{k}]")
        if not fits(move_shape, entry, place.path):
            continue
        player = None
        if isinstance(entry, dict):
            player, entry = entry.get("player"), entry["move"]
            if player is not None and player not in names:
                out.add(place, f"'{player}' is not one of the players")
                continue
        if not entry.strip():
            out.add(place, "the move is empty")
            continue
        moves.append(MoveLine(entry.strip(), place, player))
    claims: list[Claim] = []
    claim_shape = shapes["claims"].item  # type: ignore[attr-defined]
    for k, entry in enumerate(items("claims", [])):
        place = Place(path=f"claims[{k}]")
        if fits(claim_shape, entry, place.path):
            claims.append(Claim(entry["player"], entry["what"].lower(), str(entry["value"]), place))
    final: list[FinalMark] = []
    if fits(shapes["final"], data.get("final", {}), "final"):
        final = _json_final(data.get("final", {}), out)
    return _finish(
        source, spec, players, options, moves, claims, out, final, "final" in data, json_form=True
    )


def _json_final(raw: Any, out: _Collector) -> list[FinalMark]:
    """``"final": {"space-17": "red", "p2/space-3": "blue"}`` as marks."""
    if not isinstance(raw, dict):
        out.add(Place(path="final"), "'final' must map items to colours")
        return []
    marks = []
    for item, colour in raw.items():
        place = Place(path=f"final[{json.dumps(item)}]")
        entry = f"{item} {colour}" if isinstance(colour, str) else ""
        match = _FINAL_ENTRY.match(entry)
        if not match:
            out.add(place, 'an item maps to a colour word, like "space-17": "red"')
            continue
        page = int(match.group(1)) if match.group(1) else 1
        marks.append(FinalMark(match.group(2), match.group(3), place, page))
    return marks


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def require_text(text: object, source: object) -> None:
    """Refuse a transcript that is not a string (bytes must be decoded: see :func:`read_text`)."""
    if not isinstance(text, str):
        raise TranscriptError(
            str(source), [(Place(path="$"), f"a transcript is text, not {type(text).__name__}")]
        )


def parse_transcript(text: str, source: str = "<transcript>") -> Transcript:
    """Read a transcript in either form (JSON when it starts with ``{``).

    Raises:
        TranscriptError: listing every problem with its place; also for ``text`` that is not a
            string (bytes must be decoded first: :func:`read_text` reads a file).
    """
    require_text(text, source)
    if text.lstrip().startswith("{"):
        return parse_json(text, source)
    return parse_text(text, source)


def read_text(path: Path) -> str:
    """The text of a transcript file.

    ``-`` reads standard input (under the same limit); any other path must be a regular file.

    Raises:
        TranscriptError: when the file is missing, not a regular file (a device or a pipe),
            unreadable, larger than :data:`MAX_BYTES` or not UTF-8 text.
    """
    from papergames.files import UnreadableFileError, read_bounded, read_stream_bounded

    source = str(path)
    try:
        if source == "-":  # standard input, read on purpose and under the same limit
            source = "<stdin>"
            data = read_stream_bounded(sys.stdin.buffer, MAX_BYTES)
        else:
            data = read_bounded(path, MAX_BYTES)
    except UnreadableFileError as exc:
        raise TranscriptError(source, [(Place(path="file"), str(exc))]) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TranscriptError(
            source, [(Place(path=f"byte {exc.start}"), "not a text file (UTF-8 expected)")]
        ) from None


def read_transcript(path: Path) -> Transcript:
    """Read a transcript file.

    Raises:
        TranscriptError: when the file is missing, unreadable, too large, not text, or malformed.
    """
    return parse_transcript(read_text(path), str(path))


def format_transcript(transcript: Transcript) -> str:
    """The text form of a transcript; :func:`parse_text` reads it back to the same content."""
    lines = [f"sheet: {transcript.spec}"]
    lines.append(
        "players: "
        + ", ".join(f"{p.name} ({p.colour})" if p.colour else p.name for p in transcript.players)
    )
    if transcript.options:
        lines.append("options: " + " ".join(f"{k}={v}" for k, v in transcript.options.items()))
    lines += [f"claim: {c.player} {c.what} {c.value}" for c in transcript.claims]
    lines += [
        f"final: {'' if m.page == 1 else f'p{m.page}/'}{m.item} {m.colour}"
        for m in transcript.final
    ]
    if transcript.is_final_state and not transcript.final:
        lines.append("final: none")
    lines += [f"{m.player}: {m.text}" if m.player else m.text for m in transcript.moves]
    return "\n".join(lines) + "\n"
