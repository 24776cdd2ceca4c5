"""Layout parameters: their types, defaults and ranges, and parsing of ``key=value`` text.

Parameters are parsed once at the edge (the spec text or the CLI's ``--set``) into plain Python
values, so layouts never see strings. A game reads them through :meth:`ParamSet.read` as a frozen
dataclass of its own, so mypy checks every use of a parameter by name and type.

Example:
    >>> circles = Param.int("circles", 6, 3, 12, "number of concentric circles")
    >>> circles.parse("7")
    7
    >>> circles.range_text()
    '3..12'
    >>> @dataclasses.dataclass(frozen=True)
    ... class RingParams:
    ...     circles: int
    ...     centre_section: bool
    >>> params = ParamSet([circles, Param.bool("centre-section", False, "the middle counts")])
    >>> params.read(RingParams, {"circles": 8})
    RingParams(circles=8, centre_section=False)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from papergames.errors import SpecError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Value = Any
Typed = TypeVar("Typed", bound="DataclassInstance")

MAX_LABEL = 40
"""The longest ``label`` value (a class's name), in characters."""
TRUE_WORDS = {"on", "yes", "true", "1"}
FALSE_WORDS = {"off", "no", "false", "0"}


@dataclass(frozen=True)
class Param:
    """One layout parameter.

    Attributes:
        name: the key used in specs and ``--set``.
        kind: one of ``int``, ``float``, ``bool``, ``choice``, ``text``, ``names``,
            ``players`` (players' names, :mod:`papergames.sheets.names`) and ``label`` (a short
            line of words, its spaces written ``+``).
        default: the value used when the spec does not give one.
        help: one line for ``papergames list``.
        low, high: inclusive bounds for numbers.
        choices: allowed words for ``choice``.
        parser: for ``text``, turns the text into a value or raises ``ValueError`` with a reason.
    """

    name: str
    kind: str
    default: Value
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    parser: Callable[[str], Value] | None = None
    range_hint: str = ""

    @classmethod
    def int(cls, name: str, default: int, low: int, high: int, help: str) -> Param:
        return cls(name, "int", default, help, low, high)

    @classmethod
    def float(cls, name: str, default: float, low: float, high: float, help: str) -> Param:
        return cls(name, "float", default, help, low, high)

    @classmethod
    def bool(cls, name: str, default: bool, help: str) -> Param:
        return cls(name, "bool", default, help)

    @classmethod
    def choice(cls, name: str, default: str, choices: Iterable[str], help: str) -> Param:
        return cls(name, "choice", default, help, choices=tuple(choices))

    @classmethod
    def names(cls, name: str, help: str) -> Param:
        """A comma-separated list of short names (player names, for instance)."""
        return cls(name, "names", (), help)

    @classmethod
    def players(cls, name: str, help: str) -> Param:
        """Players' names in the order of their seats, as :mod:`papergames.sheets.names` writes
        them."""
        return cls(name, "players", (), help)

    @classmethod
    def label(cls, name: str, help: str) -> Param:
        """A short line of words (a class's name): its spaces are written ``+`` in a spec."""
        return cls(name, "label", "", help)

    @classmethod
    def text(
        cls, name: str, default: Value, parser: Callable[[str], Value], hint: str, help: str
    ) -> Param:
        return cls(name, "text", default, help, parser=parser, range_hint=hint)

    def range_text(self) -> str:
        """The allowed values, as shown in ``papergames list`` and in error messages."""
        if self.kind in ("int", "float"):
            return f"{_num(self.low)}..{_num(self.high)}"
        if self.kind == "bool":
            return "on|off"
        if self.kind == "choice":
            return "|".join(self.choices)
        if self.kind == "names":
            return "name,name,..."
        if self.kind == "players":
            return "Name,Name+Surname,..."
        if self.kind == "label":
            return "words+parted+by+plus"
        return self.range_hint

    def _reject(self, text: str, why: str) -> SpecError:
        return SpecError(f"{self.name}={_shown(text)} is not allowed: {self.name} takes {why}")

    def takes(self) -> str:
        """What the parameter takes, in words, for error messages."""
        if self.kind in ("int", "float"):
            what = "a whole number" if self.kind == "int" else "a number"
            return f"{what} from {_num(self.low)} to {_num(self.high)}"
        if self.kind == "bool":
            return "on or off"
        if self.kind == "choice":
            return f"one of {', '.join(self.choices)}"
        if self.kind == "names":
            return "names of at most 24 characters, without spaces, '=' or '#'"
        if self.kind == "players":
            return (
                "players' names parted by commas, a space in a name written +: "
                "letters first, at most 24 characters each"
            )
        if self.kind == "label":
            return f"words of at most {MAX_LABEL} characters in all, spaces written +"
        return self.range_hint

    def parse(self, text: str) -> Value:
        """Parse the text form of a value, raising :class:`SpecError` naming the key and range.

        A value that is not text (a library caller's ``{"size": 5}``) is checked as a typed
        value instead (:meth:`check_value`), so it is taken or refused exactly as its text is.
        """
        if not isinstance(text, str):
            return self.check_value(text)
        text = text.strip()
        if self.kind == "int":
            try:
                value: Value = int(text)
            except ValueError:
                raise self._reject(
                    text, f"a whole number from {_num(self.low)} to {_num(self.high)}"
                ) from None
            return self.check(value, text)
        if self.kind == "float":
            try:
                value = float(text)
            except ValueError:
                value = math.nan
            if not math.isfinite(value):  # nan passes every comparison, so refuse it here
                raise self._reject(text, f"a number from {_num(self.low)} to {_num(self.high)}")
            return self.check(value, text)
        if self.kind == "bool":
            low = text.lower()
            if low in TRUE_WORDS:
                return True
            if low in FALSE_WORDS:
                return False
            raise self._reject(text, "on or off")
        if self.kind == "choice":
            if text.lower() in self.choices:
                return text.lower()
            raise self._reject(text, f"one of {', '.join(self.choices)}")
        if self.kind == "names":
            names = tuple(n.strip() for n in text.split(",") if n.strip())
            for n in names:
                # A space would split the spec's text and '#' starts a comment in a transcript,
                # so a name holding either could not be typed back from the sheet's footer; a
                # control character, a lone surrogate (an undecodable byte on the command line)
                # or a direction override cannot be printed, nor encoded in the QR code.
                if len(n) > 24 or any(c in "=#" or c.isspace() for c in n) or not n.isprintable():
                    raise self._reject(text, self.takes())
            return names
        if self.kind == "players":
            from papergames.sheets.names import parse_names

            try:
                return parse_names(text)
            except ValueError as exc:
                raise SpecError(f"{self.name}={_shown(text)} is not allowed: {exc}") from None
        if self.kind == "label":
            label = " ".join(text.replace("+", " ").split())
            if len(label) > MAX_LABEL or any(c in "=#,+" for c in label) or not label.isprintable():
                raise self._reject(text, self.takes())
            return label
        assert self.parser is not None
        try:
            return self.parser(text)
        except ValueError as exc:
            raise self._reject(text, f"{self.range_hint} ({exc})") from None

    def check_value(self, value: Value) -> Value:
        """A typed value (from a library caller) checked as its text would be.

        The value must have the parameter's type (an ``int`` for a whole number, never a
        ``bool``; a ``str`` for a choice or text; a sequence of ``str`` for names) and read back
        from its canonical text as itself, so it is exactly what a spec could print.

        Raises:
            SpecError: naming the key, the value and what the key takes.
        """
        kind_ok = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "float": isinstance(value, int | float) and not isinstance(value, bool),
            "bool": isinstance(value, bool),
            "choice": isinstance(value, str),
            "text": isinstance(value, str),
            "names": isinstance(value, tuple | list) and all(isinstance(v, str) for v in value),
            "players": isinstance(value, tuple | list) and all(isinstance(v, str) for v in value),
            "label": isinstance(value, str),
        }.get(self.kind, False)
        shown = _shown(value)
        if not kind_ok:
            raise self._reject(shown, self.takes())
        if self.kind in ("names", "players"):
            value = tuple(value)
        if self.kind == "float":
            try:
                value = float(value)
            except OverflowError:
                raise self._reject(shown, self.takes()) from None
        if self.kind in ("int", "float"):
            return self.check(value, shown)
        parsed = self.parse(self.format(value))
        if parsed != value:
            raise self._reject(shown, self.takes())
        return parsed

    def check(self, value: Value, text: str | None = None) -> Value:
        """Check a typed number against the bounds."""
        if self.kind == "float" and not math.isfinite(value):
            raise self._reject(text if text is not None else _shown(value), self.takes())
        too_low = self.low is not None and value < self.low
        too_high = self.high is not None and value > self.high
        if self.kind in ("int", "float") and (too_low or too_high):
            raise self._reject(text if text is not None else _shown(value), self.takes())
        return value

    def format(self, value: Value) -> str:
        """The canonical text form of a value (the inverse of :meth:`parse`)."""
        if self.kind == "bool":
            return "on" if value else "off"
        if self.kind == "names":
            return ",".join(value)
        if self.kind == "players":
            from papergames.sheets.names import format_names

            return format_names(value)
        if self.kind == "label":
            return str(value).replace(" ", "+")
        if self.kind == "float":
            # The shortest text that reads back as exactly this number: a rounded form (``:g``)
            # would print a spec that makes a slightly different sheet.
            return _num(value) if float(value).is_integer() else repr(float(value))
        return str(value)


def _shown(value: Value) -> str:
    """A value of any type as an error message shows it: short, and typed as given."""
    try:
        text = value if isinstance(value, str) else repr(value)
    except ValueError:  # an integer of thousands of digits refuses to become text
        return "(a number too long to show)"
    return text if len(text) <= 40 else f"{text[:37]}..."


def _num(value: float | None) -> str:
    if value is None:
        return ""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:g}"


class ParamSet:
    """The ordered parameters of one layout, and the notes ``papergames list`` prints under them.

    A game declares its set in a module of its own that imports no geometry, so listing the
    games and completing a spec on the command line never load shapely or a layout.

    Attributes:
        params: each parameter by name, in order.
        notes: remarks on the ranges (a cap on small paper, a known limit), one sentence each.
    """

    def __init__(self, params: Iterable[Param], notes: Iterable[str] = ()) -> None:
        self.notes: tuple[str, ...] = tuple(notes)
        self.params: dict[str, Param] = {}
        for p in params:
            if p.name in self.params:
                raise ValueError(f"duplicate parameter {p.name}")
            self.params[p.name] = p

    def __iter__(self) -> Any:
        return iter(self.params.values())

    def __contains__(self, name: object) -> bool:
        return name in self.params

    def __getitem__(self, name: str) -> Param:
        return self.params[name]

    def defaults(self) -> dict[str, Value]:
        return {p.name: p.default for p in self.params.values()}

    def parse_items(self, items: Mapping[str, str], game: str) -> dict[str, Value]:
        """Parse ``key -> text`` pairs, rejecting unknown keys with the list of known ones."""
        values: dict[str, Value] = {}
        for key, text in items.items():
            if key not in self.params:
                known = ", ".join(self.params) or "none"
                raise SpecError(f"unknown parameter '{key}' for {game} (known: {known})")
            values[key] = self.params[key].parse(text)
        return values

    def resolve(self, values: Mapping[str, Value]) -> dict[str, Value]:
        """Fill in defaults for the parameters not given."""
        out = self.defaults()
        out.update(values)
        return out

    def read(self, shape: type[Typed], values: Mapping[str, Value]) -> Typed:
        """The values, defaults filled in, as the frozen dataclass ``shape``.

        ``shape`` has one field per parameter, named like it with ``-`` written ``_``, so a game
        reads ``params.centre_section`` instead of ``params["centre-section"]``.

        Raises:
            TypeError: when ``shape``'s fields are not exactly these parameters (a programming
                error, caught by the registry tests).
        """
        fields = {f.name for f in dataclasses.fields(shape)}
        names = {name.replace("-", "_"): name for name in self.params}
        if fields != set(names):
            raise TypeError(
                f"{shape.__name__} has fields {sorted(fields)}, but the parameters are "
                f"{sorted(names)}"
            )
        resolved = self.resolve(values)
        return shape(**{field: resolved[name] for field, name in names.items()})

    def non_default(self, values: Mapping[str, Value]) -> dict[str, str]:
        """The canonical text of every value that differs from its default, in declared order."""
        out: dict[str, str] = {}
        for name, p in self.params.items():
            if name in values and p.format(values[name]) != p.format(p.default):
                out[name] = p.format(values[name])
        return out
