"""JSON read from a user's file, checked once against a declared shape, with a path in every error.

``json.loads`` accepts things no caller expects: integers of thousands of digits (which then
refuse to become text), ``NaN`` and ``1e999``, lone surrogates (``"\\ud800"``, which cannot be
printed or encoded), and any type anywhere. :func:`load` reads the text so that none of these can
raise later (a number too long or not finite becomes a :class:`BadNumber` marker), and
:func:`problems` walks the value along a declared :class:`Shape`, naming each value that does not
fit by its path (``moves[3].player``). Code that reads the value after a clean check can trust
every type the shape declares.

Example:
    >>> shape = Record({"name": Text(), "scores": ListOf(Whole())}, required={"name"})
    >>> data = load('{"name": ["Ann"], "scores": [1, 1e999], "x": 1}')
    >>> for path, message in problems(data, shape):
    ...     print(f"{path}: {message}")
    name: must be text, not a list
    scores[1]: must be a whole number, not 1e999 (too large)
    x: is not a key here (known: name, scores)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

MAX_DIGITS = 30
"""Longest whole number read as a number; a longer one is a :class:`BadNumber`."""

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class BadNumber:
    """A number in the JSON text that no caller could use: too long, or not finite."""

    text: str

    def describe(self) -> str:
        if self.text.lstrip("-").isdigit():
            return f"a whole number of {len(self.text.lstrip('-')):,} digits (too long)"
        shown = self.text if len(self.text) <= 20 else f"{self.text[:17]}..."
        return f"{shown} (too large)" if self.text[:1].isdigit() else f"{shown} (not a number)"


def _int(text: str) -> int | BadNumber:
    return BadNumber(text) if len(text.lstrip("-")) > MAX_DIGITS else int(text)


def _float(text: str) -> float | BadNumber:
    value = float(text)
    return value if math.isfinite(value) else BadNumber(text)


def load(text: str) -> Any:
    """Parse JSON text with every number safe to use (see :class:`BadNumber`).

    Raises:
        json.JSONDecodeError: for text that is not JSON.
        RecursionError: for arrays or objects nested too deeply.
    """
    return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=BadNumber)


def kind_of(value: Any) -> str:
    """A JSON value's type in words, as an error message names it."""
    if isinstance(value, BadNumber):
        return value.describe()
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


class Shape:
    """What a JSON value must be; :meth:`check` yields ``(path, message)`` for each misfit."""

    what = "a value"

    def fits(self, value: Any) -> bool:
        """Whether ``value`` has the right JSON type (its contents may still be wrong)."""
        raise NotImplementedError

    def check(self, value: Any, path: str) -> Iterator[tuple[str, str]]:
        if not self.fits(value):
            yield path, f"must be {self.what}, not {kind_of(value)}"


@dataclass(frozen=True)
class Text(Shape):
    """A string of at most ``longest`` characters, without lone surrogates."""

    longest: int = 1000
    what: str = "text"

    def fits(self, value: Any) -> bool:
        return isinstance(value, str)

    def check(self, value: Any, path: str) -> Iterator[tuple[str, str]]:
        if not self.fits(value):
            yield from super().check(value, path)
        elif len(value) > self.longest:
            yield path, f"is too long ({len(value):,} characters; at most {self.longest:,})"
        elif _SURROGATE.search(value):
            code = ord(_SURROGATE.search(value).group())  # type: ignore[union-attr]
            yield path, f"holds a lone surrogate (\\u{code:04x}), which is not a character"


@dataclass(frozen=True)
class Whole(Shape):
    """A whole number (``true`` and ``false`` are not numbers)."""

    what: str = "a whole number"

    def fits(self, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Number(Shape):
    """A finite number, whole or not."""

    what: str = "a number"

    def fits(self, value: Any) -> bool:
        return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass(frozen=True)
class Flag(Shape):
    """``true`` or ``false``."""

    what: str = "true or false"

    def fits(self, value: Any) -> bool:
        return isinstance(value, bool)


@dataclass(frozen=True)
class Null(Shape):
    """``null``."""

    what: str = "null"

    def fits(self, value: Any) -> bool:
        return value is None


@dataclass(frozen=True)
class ListOf(Shape):
    """A list whose every item is ``item``."""

    item: Shape
    what: str = "a list"

    def fits(self, value: Any) -> bool:
        return isinstance(value, list)

    def check(self, value: Any, path: str) -> Iterator[tuple[str, str]]:
        if not self.fits(value):
            yield from super().check(value, path)
            return
        for k, entry in enumerate(value):
            yield from self.item.check(entry, f"{path}[{k}]")


@dataclass(frozen=True)
class MapOf(Shape):
    """An object with any keys (text of at most ``longest`` characters) and ``value`` values."""

    value: Shape
    longest: int = 100
    what: str = "an object"

    def fits(self, value: Any) -> bool:
        return isinstance(value, dict)

    def check(self, value: Any, path: str) -> Iterator[tuple[str, str]]:
        if not self.fits(value):
            yield from super().check(value, path)
            return
        for key, entry in value.items():
            where = f"{path}[{json.dumps(key)[:40]}]"
            yield from Text(self.longest).check(key, where)
            yield from self.value.check(entry, where)


@dataclass(frozen=True)
class Record(Shape):
    """An object with these keys only, each of its own shape; ``required`` keys must be there."""

    fields: Mapping[str, Shape]
    required: frozenset[str] | set[str] = field(default_factory=frozenset)
    what: str = "an object"

    def fits(self, value: Any) -> bool:
        return isinstance(value, dict)

    def check(self, value: Any, path: str) -> Iterator[tuple[str, str]]:
        if not self.fits(value):
            yield from super().check(value, path)
            return
        prefix = f"{path}." if path else ""
        for key in self.fields:
            if key in value:
                yield from self.fields[key].check(value[key], f"{prefix}{key}")
            elif key in self.required:
                yield path or "$", f"has no '{key}'"
        for key in value:
            if key not in self.fields:
                shown = json.dumps(key)[1:-1][:40]
                yield f"{prefix}{shown}", f"is not a key here (known: {', '.join(self.fields)})"


@dataclass(frozen=True)
class AnyOf(Shape):
    """One of several shapes; ``what`` says them in words for the error."""

    options: tuple[Shape, ...]
    what: str = "a value"

    def fits(self, value: Any) -> bool:
        return any(option.fits(value) for option in self.options)

    def check(self, value: Any, path: str) -> Iterator[tuple[str, str]]:
        # The first option of the value's type says what is wrong inside it (a record's key).
        for option in self.options:
            if option.fits(value):
                yield from option.check(value, path)
                return
        yield from super().check(value, path)


def problems(value: Any, shape: Shape, limit: int = 1000) -> list[tuple[str, str]]:
    """The first ``limit`` misfits of ``value`` against ``shape``, as ``(path, message)``."""
    found: list[tuple[str, str]] = []
    for problem in shape.check(value, ""):
        found.append((problem[0] or "$", problem[1]))
        if len(found) >= limit:
            break
    return found
