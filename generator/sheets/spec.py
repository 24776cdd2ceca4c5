"""The sheet spec: which game, which parameters, which seed, which paper.

A spec has one canonical text form, printed in every sheet's footer and in its QR code, so a
sheet can always be made again and a transcript can name it. Parameters equal to their default
are left out; ``seed`` always appears; ``paper``, ``orientation``, ``markers``, ``labels`` and
``colour`` appear when not the default.

There is one parser for that text, wherever it comes from: :meth:`SheetSpec.parse` reads a
footer, a QR code or a transcript's ``sheet:`` line, and the command line hands the words it is
given (a spec typed as the argument, each ``--set``) to :func:`parse_settings` and
:meth:`SheetSpec.create`, which parse them the same way. So the text on a sheet, typed back,
makes that sheet again.

Example:
    >>> spec = SheetSpec.parse("rings circles=7 seed=42")
    >>> spec.params["circles"], spec.seed, spec.paper
    (7, 42, 'a4')
    >>> str(spec)
    'rings circles=7 seed=42'
    >>> str(SheetSpec.parse(str(SheetSpec.create("klee", {"paper": "Letter"}, seed=5))))
    'klee seed=5 paper=letter'
"""

from __future__ import annotations

import difflib
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from papergames.errors import SpecError
from papergames.sheets.params import Param, ParamSet
from papergames.sheets.rng import MAX_SEED
from papergames.sheets.units import PAPERS

ORIENTATIONS = ("auto", "portrait", "landscape")
RESERVED = (
    "seed",
    "paper",
    "orientation",
    "markers",
    "labels",
    "colour",
    "class",
    "group",
    "names",
)

GROUP_KEYS = ("class", "group", "names")
"""The keys a class list sets on each of its groups' sheets
(:mod:`papergames.handouts.classlist`)."""

SHEET_PARAMS = ParamSet(
    [
        Param.int("seed", 0, 0, MAX_SEED, "the random seed"),
        Param.choice("paper", "a4", PAPERS, "the paper size"),
        Param.choice("orientation", "auto", ORIENTATIONS, "the page orientation"),
        Param.bool("markers", True, "print the corner markers"),
        Param.bool("labels", False, "print each space's, segment's or line's name on it"),
        Param.bool("colour", False, "print pieces and tints in colour (grey-safe)"),
        Param.label("class", "the class the sheet was made for, printed in its header"),
        Param.int("group", 0, 0, 999, "the group's number in its class list (0: none)"),
        Param.players("names", "the players' names in the order of their seats"),
    ]
)
"""The keys every spec takes besides its game's parameters (:data:`RESERVED`), parsed by the
same code as a layout's parameters so that a spec's text means one thing wherever it is typed."""


def new_seed() -> int:
    """A fresh seed short enough to type from a printed sheet."""
    return secrets.randbelow(1_000_000)


def parse_seed(text: str) -> int:
    """Parse a seed, naming the problem when it is not a whole number in range."""
    seed: int = SHEET_PARAMS["seed"].parse(text)
    return seed


def parse_settings(words: Iterable[str], where: str = "the sheet spec") -> dict[str, str]:
    """Split ``key=value`` words into a dict, keeping the values as text.

    This is the one place a spec's words are split, whether they come from a footer, a
    transcript or the command line, so each source accepts and refuses the same words.

    Args:
        words: the words, each ``key=value``.
        where: where the words were typed, named in the error (``--set``, the sheet spec).

    Raises:
        SpecError: when a word is not ``key=value`` or a key is given twice.

    Example:
        >>> parse_settings(["circles=7", "paper=letter"])
        {'circles': '7', 'paper': 'letter'}
    """
    settings: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        key = key.strip()
        if not sep or not key:
            raise SpecError(f"{where} takes key=value, got '{word}'")
        if key in settings:
            raise SpecError(f"'{key}' is given twice in {where}")
        settings[key] = value
    return settings


def split_spec(text: str) -> tuple[str, dict[str, str]]:
    """Split a spec's text into the game's name and its ``key=value`` settings, unchecked.

    :meth:`SheetSpec.parse` and the command line's ``sheet SPEC`` both start here, so a spec
    typed on the command line is read exactly as one read from a footer.

    Raises:
        SpecError: when the text is empty, does not start with a name, or a word is malformed.

    Example:
        >>> split_spec("klee seed=5 paper=letter")
        ('klee', {'seed': '5', 'paper': 'letter'})
    """
    words = text.split()
    if not words:
        raise SpecError("empty sheet spec: expected a game name, for example 'rings seed=42'")
    if "=" in words[0]:
        raise SpecError(
            f"the sheet spec starts with '{words[0]}': it starts with the game's name, "
            "for example 'rings seed=42'"
        )
    return words[0], parse_settings(words[1:])


def _unknown_key(key: str, game: str, known: list[str]) -> SpecError:
    """The error for a key the game does not take, suggesting the nearest one when close."""
    close = difflib.get_close_matches(key, known, n=1)
    if close:
        return SpecError(f"unknown parameter '{key}' for {game}: did you mean {close[0]}?")
    return SpecError(f"unknown parameter '{key}' for {game} (known: {', '.join(known)})")


def _agree(key: str, typed: Any, given: Any) -> Any:
    """One value from a spec's words and from a keyword: either, or both when they agree."""
    if given is not None:  # a library caller's keyword is checked as its text would be
        given = SHEET_PARAMS[key].parse(given)
    if typed is None or given is None or typed == given:
        return given if typed is None else typed
    param = SHEET_PARAMS[key]
    raise SpecError(
        f"{key} is given twice, as {key}={param.format(typed)} and {key}={param.format(given)}"
    )


@dataclass(frozen=True)
class SheetSpec:
    """Everything needed to make one sheet again, exactly.

    Attributes:
        game: the game's command-line name.
        params: every layout parameter, defaults filled in.
        seed: the random seed.
        paper: a key of :data:`papergames.sheets.units.PAPERS`.
        orientation: ``auto``, ``portrait`` or ``landscape``.
        markers: whether the corner markers the photo reader finds the sheet by are printed.
        labels: whether the names a transcript uses for the field's items are printed on them
            (small and grey, see :mod:`papergames.sheets.labels`).
        colour: whether the pieces and tints that have a colour print in it (each keeps a grey
            of its own, so a black-and-white print still tells them apart).
        names: the players' names in the order of their seats, printed in their score rows
            (a class list's group); empty for a sheet whose players write their initials.
        class_name: the class the sheet was made for (``class=`` in the text form).
        group: the group's number in that class's list, 0 for none.
    """

    game: str
    params: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    paper: str = "a4"
    orientation: str = "auto"
    markers: bool = True
    labels: bool = False
    colour: bool = False
    names: tuple[str, ...] = ()
    class_name: str = ""
    group: int = 0

    @classmethod
    def create(
        cls,
        game: str,
        settings: Mapping[str, str] | None = None,
        *,
        seed: int | None = None,
        paper: str | None = None,
        orientation: str | None = None,
        markers: bool | None = None,
        labels: bool | None = None,
        colour: bool | None = None,
    ) -> SheetSpec:
        """Build a spec from text settings, validating every value.

        ``settings`` holds ``key=value`` pairs as typed (in a spec's text or with ``--set``):
        the game's parameters and, like the printed spec, ``seed``, ``paper``, ``orientation``,
        ``markers``, ``labels`` and ``colour``, so ``--set paper=letter`` means what
        ``paper=letter`` means on a sheet. The keywords give those six as the command line's
        options do; a key given
        both ways with different values is refused rather than one silently winning. Without a
        seed a fresh one is drawn.

        Raises:
            SpecError: naming the first unknown game or key, or the first value out of range.
        """
        from papergames.games import get_layout

        if not isinstance(game, str):
            raise SpecError(f"the game is named by text, not {type(game).__name__}")
        if settings is not None and not isinstance(settings, Mapping):
            raise SpecError("the settings are a mapping of key to value, like {'size': '5'}")
        layout = get_layout(game)
        settings = dict(settings or {})
        for key in settings:
            if not isinstance(key, str):
                raise SpecError(f"a setting's key is text, not {type(key).__name__}")
            if key not in layout.params and key not in SHEET_PARAMS:
                raise _unknown_key(key, layout.name, [*layout.params.params, *RESERVED])
        if labels is not None and "labels" in layout.params:
            # A game that prints its names anyway (Crossing the Rings) switches them with a
            # parameter of its own; ``labels`` means that parameter there, typed or --labels.
            word = "on" if labels else "off"
            typed = settings.setdefault("labels", word)
            if layout.params["labels"].parse(typed) != labels:
                raise SpecError(f"labels is given twice, as labels={typed} and labels={word}")
            labels = None
        sheet = SHEET_PARAMS.parse_items(
            {k: v for k, v in settings.items() if k in SHEET_PARAMS and k not in layout.params},
            layout.name,
        )
        given = {
            "seed": None if seed is None else SHEET_PARAMS["seed"].check_value(seed),
            "paper": None if paper is None else SHEET_PARAMS["paper"].parse(paper),
            "orientation": (
                None if orientation is None else SHEET_PARAMS["orientation"].parse(orientation)
            ),
            "markers": markers,
            "labels": labels,
            "colour": colour,
        }
        chosen = {key: _agree(key, sheet.get(key), value) for key, value in given.items()}
        values = layout.params.parse_items(
            {k: v for k, v in settings.items() if k not in SHEET_PARAMS or k in layout.params},
            layout.name,
        )
        names: tuple[str, ...] = sheet.get("names", ())
        values = _seat_names(layout.name, layout.params, values, names)
        params = layout.params.resolve(values)
        layout.validate(params)
        return cls(
            layout.name,
            params,
            new_seed() if chosen["seed"] is None else chosen["seed"],
            "a4" if chosen["paper"] is None else chosen["paper"],
            "auto" if chosen["orientation"] is None else chosen["orientation"],
            True if chosen["markers"] is None else chosen["markers"],
            bool(chosen["labels"]),
            bool(chosen["colour"]),
            names,
            sheet.get("class", ""),
            sheet.get("group", 0),
        )

    @classmethod
    def parse(cls, text: str) -> SheetSpec:
        """Parse a spec's text (as printed in a sheet's footer and QR code).

        The text is the game's name and then ``key=value`` words in any order; it must name a
        seed, since a spec that did not could not make the same sheet twice.

        Raises:
            SpecError: naming the first problem (an unknown game suggests the nearest name).
        """
        if not isinstance(text, str):
            raise SpecError(f"a sheet spec is text, not {type(text).__name__}")
        game, settings = split_spec(text)
        if "seed" not in settings:
            raise SpecError("the sheet spec has no seed (add seed=N)")
        return cls.create(game, settings)

    def checked(self) -> SheetSpec:
        """This spec with every value checked and the defaults filled in.

        A spec built directly (``SheetSpec("maze", {"size": -3}, paper="zz")``) skips the
        parsing :meth:`create` does; :func:`papergames.make_sheet` checks it here, so a bad
        value is refused by name instead of failing deep inside a layout.

        Raises:
            SpecError: naming the first unknown game or key, or the first bad value.
        """
        from papergames.games import get_layout

        if not isinstance(self.game, str):
            raise SpecError(f"the game is named by text, not {type(self.game).__name__}")
        if not isinstance(self.params, Mapping):
            raise SpecError("a spec's params are a mapping of key to value")
        for key in SHEET_PARAMS.params:
            SHEET_PARAMS[key].check_value(getattr(self, _attribute(key)))
        layout = get_layout(self.game)
        values = {}
        for key, value in self.params.items():
            if key not in layout.params:
                raise _unknown_key(str(key), layout.name, list(layout.params.params))
            values[key] = layout.params[key].check_value(value)
        params = layout.params.resolve(values)
        _seat_names(layout.name, layout.params, params, tuple(self.names), given=True)
        layout.validate(params)
        return replace(self, game=layout.name, params=params, names=tuple(self.names))

    def settings(self) -> dict[str, str]:
        """The non-default parameters in canonical text form."""
        from papergames.games import get_layout

        return get_layout(self.game).params.non_default(self.params)

    def __str__(self) -> str:
        words = [self.game]
        words += [f"{k}={v}" for k, v in self.settings().items()]
        words.append(f"seed={self.seed}")
        if self.paper != "a4":
            words.append(f"paper={self.paper}")
        if self.orientation != "auto":
            words.append(f"orientation={self.orientation}")
        if not self.markers:
            words.append("markers=off")
        if self.labels:
            words.append("labels=on")
        if self.colour:
            words.append("colour=on")
        for key in ("class", "group", "names"):
            param = SHEET_PARAMS[key]
            value = getattr(self, _attribute(key))
            if value != param.default:
                words.append(f"{key}={param.format(value)}")
        return " ".join(words)

    @property
    def player_names(self) -> tuple[str, ...]:
        """The players' names the sheet prints, in seat order; empty when it prints none.

        A layout with a ``names`` parameter of its own (Cubist's studio titles each player's
        board) takes the names there.
        """
        own = self.params.get("names", ())
        return tuple(self.names) or (tuple(own) if isinstance(own, tuple | list) else ())

    def with_seed(self, seed: int) -> SheetSpec:
        """The same spec with another seed."""
        return replace(self, seed=seed)


def _attribute(key: str) -> str:
    """The spec's attribute a reserved key sets (``class`` is a Python keyword)."""
    return "class_name" if key == "class" else key


def _seat_names(
    game: str,
    params: ParamSet,
    values: dict[str, Any],
    names: tuple[str, ...],
    *,
    given: bool = False,
) -> dict[str, Any]:
    """The game's values with its player count following the names, when it has one.

    A named sheet seats exactly its names: a game with a ``players`` parameter takes the count
    from them (a different count typed beside them is refused), and every game refuses more or
    fewer names than it takes players.

    Raises:
        SpecError: when the names do not fit the game's players.
    """
    if not names:
        return values
    from papergames.games import get_game

    record = get_game(game)
    fewest, most = record.players
    if not fewest <= len(names) <= most:
        takes = f"{fewest} players" if fewest == most else f"{fewest} to {most} players"
        raise SpecError(
            f"{len(names)} names ({', '.join(names)}), but {record.title} takes {takes}"
        )
    if "players" not in params:
        return values
    typed = values.get("players")
    if typed is not None and typed != len(names):
        raise SpecError(f"players={typed} is given with {len(names)} names ({', '.join(names)})")
    if not given:
        values = {**values, "players": len(names)}
    return values
