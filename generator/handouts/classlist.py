"""Class lists: a teacher's groups of pupils, each group to play on a sheet made for it.

A class list is plain text, one group per line, the players' names parted by commas in the
order of their seats (the order they play in every game but Crossing the Rings)::

    class: 5B
    Mia Rose, Leo
    Zoë, Łukasz, Ana
    # a comment; blank lines are skipped

The optional ``class:`` line names the class; it is printed on every sheet with the group's
number. A plain list of pupils, one to a line, becomes groups with :func:`make_groups`: the pupils
are shuffled by the pack's seed, so the same list and seed make the same groups again.

Names follow the one rule of :mod:`papergames.sheets.names`. Everything read from the file is
untrusted: each problem names its line.

Example:
    >>> roll = parse_class_list("class: 5B\\nMia Rose, Leo\\nZoë, Ana\\n")
    >>> roll.name, [g.names for g in roll.groups]
    ('5B', [('Mia Rose', 'Leo'), ('Zoë', 'Ana')])
    >>> [g.names for g in make_groups(roll, 2, seed=1).groups]
    [('Ana', 'Zoë'), ('Leo', 'Mia Rose')]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from papergames.errors import SpecError
from papergames.files import UnreadableFileError, read_bounded, shown_path
from papergames.sheets.names import name_problem, tidy_name
from papergames.sheets.params import MAX_LABEL
from papergames.sheets.rng import Rng

MAX_GROUPS = 500
"""The most groups one class list may hold: a pack's most copies."""
MAX_BYTES = 200_000
"""The largest class list file read, in bytes."""
MAX_LINE = 400
"""The longest line a class list may have, in characters."""


@dataclass(frozen=True)
class Group:
    """One group of a class list: its number (from 1), its names in seat order, its line."""

    number: int
    names: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class ClassList:
    """A class's name (may be empty) and its groups, in the list's order."""

    name: str
    groups: tuple[Group, ...]
    source: str = "the class list"

    def where(self, group: Group) -> str:
        """The place a group was written, for an error message."""
        return f"{self.source}, line {group.line}" if group.line else f"group {group.number}"


def _problem(source: str, line: int, what: str) -> SpecError:
    return SpecError(f"{source}, line {line}: {what}")


def parse_class_list(text: str, source: str = "the class list") -> ClassList:
    """Read a class list's text, refusing the first line that is not a group of names.

    Raises:
        SpecError: naming the line and what is wrong with it (a bad or repeated name, a line
            too long, an empty list, more than :data:`MAX_GROUPS` groups).
    """
    class_name = ""
    groups: list[Group] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if len(raw) > MAX_LINE:
            raise _problem(source, number, f"the line is longer than {MAX_LINE} characters")
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, rest = line.partition(":")
        if colon and key.strip().lower() == "class":
            if groups or class_name:
                raise _problem(source, number, "the class: line comes once, before the groups")
            class_name = " ".join(rest.split())
            if not class_name or len(class_name) > MAX_LABEL or any(c in "=#,+" for c in rest):
                raise _problem(
                    source,
                    number,
                    f"a class's name is up to {MAX_LABEL} characters, without = # , or +",
                )
            if not class_name.isprintable():
                raise _problem(source, number, "the class's name holds a character not printable")
            continue
        names: list[str] = []
        for word in line.split(","):
            name = tidy_name(word)
            if not name:
                raise _problem(source, number, "a name is missing between two commas")
            problem = name_problem(name)
            if problem:
                raise _problem(source, number, problem)
            if name in names:
                raise _problem(source, number, f"'{name}' is named twice in one group")
            names.append(name)
        groups.append(Group(len(groups) + 1, tuple(names), number))
        if len(groups) > MAX_GROUPS:
            raise _problem(source, number, f"a class list holds at most {MAX_GROUPS} groups")
    if not groups:
        raise SpecError(f"{source} has no groups: write one group a line, names parted by commas")
    return ClassList(class_name, tuple(groups), source)


def read_class_list(path: Path) -> ClassList:
    """Read a class list file (UTF-8 text, a byte-order mark allowed).

    Raises:
        SpecError: naming the file and why it cannot be read, or its first bad line.
    """
    shown = shown_path(path)
    try:
        data = read_bounded(path, MAX_BYTES)
    except UnreadableFileError as exc:
        raise SpecError(f"class list {shown} {exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SpecError(
            f"{shown}, line {line}: not UTF-8 text (save the class list as UTF-8)"
        ) from None
    return parse_class_list(text, shown)


def make_groups(roll: ClassList, size: int, seed: int) -> ClassList:
    """The pupils of ``roll`` shuffled by ``seed`` into groups of ``size``.

    The groups are as even as the count allows and none is larger than ``size``, except where
    that would leave a pupil alone: seven pupils in groups of four make 4 and 3, five in groups
    of two make 3 and 2.

    Raises:
        SpecError: when ``size`` is not 2 to 6 or there are fewer pupils than ``size``.
    """
    if not 2 <= size <= 6:
        raise SpecError(f"--groups-of {size} is out of range 2..6")
    pupils = [name for group in roll.groups for name in group.names]
    if len(pupils) < size:
        raise SpecError(f"{roll.source} names {len(pupils)} pupils, fewer than --groups-of {size}")
    Rng(seed, "groups").shuffle(pupils)
    count = -(-len(pupils) // size)
    if len(pupils) // count < 2:  # the even split would leave someone alone
        count = len(pupils) // size
    sizes = [len(pupils) // count + (k < len(pupils) % count) for k in range(count)]
    groups: list[Group] = []
    start = 0
    for number, n in enumerate(sizes, start=1):
        groups.append(Group(number, tuple(pupils[start : start + n]), 0))
        start += n
    return replace(roll, groups=tuple(groups))
