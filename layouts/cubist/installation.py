"""Cubist installations judged: a sculpture of dice read from text, its rules checked."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.layouts.cubist.common import Cell

INSTALLATION_KEYWORD = "installation"


PLAN_KEYWORD = "plan"


ANY = "*"


ROTATIONS = (0, 90, 180, 270)


PLAN_CODES = ("plan-mismatch", "bad-plan")
"""Problems about the plan, which do not make the installation itself illegal."""


@dataclass(frozen=True)
class Stack:
    """A stack of dice in one cell, bottom to top; a plan's stack may hold ``None`` (any value)."""

    dice: tuple[int | None, ...]

    @property
    def height(self) -> int:
        return len(self.dice)


@dataclass(frozen=True)
class InstallationProblem:
    """One thing wrong with an installation text or structure.

    Attributes:
        code: a stable reason code: ``syntax``, ``empty``, ``mixed-stack``, ``same-value``,
            ``not-one-apart``, ``disconnected``; about the plan: ``bad-plan`` (the plan itself
            breaks a rule) and ``plan-mismatch``.
        message: a sentence naming the cells involved.
        cells: the cells involved, (row, column), 1-based.
        line: the text line the problem is on, when it is one line's fault.
    """

    code: str
    message: str
    cells: tuple[Cell, ...] = ()
    line: int = 0

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.message} [{self.code}]"


@dataclass(frozen=True)
class InstallationVerdict:
    """What :func:`check_installation` found.

    Attributes:
        name: the name after the keyword, if any.
        stacks: the installation's stacks by cell.
        problems: every problem found (syntax, the rules, and the plan), in text order.
        plan: the plan's stacks by cell, when a plan was given.
        rotation: the turn (degrees clockwise) under which the plan matches, or ``None``.
    """

    name: str
    stacks: Mapping[Cell, Stack]
    problems: tuple[InstallationProblem, ...]
    plan: Mapping[Cell, Stack] | None = None
    rotation: int | None = None

    @property
    def legal(self) -> bool:
        """The structure obeys the placement rules (a plan mismatch does not make it illegal)."""
        return not any(p.code not in PLAN_CODES for p in self.problems)

    @property
    def matches_plan(self) -> bool | None:
        """Whether the plan matches (``None`` without a plan)."""
        if self.plan is None:
            return None
        return self.rotation is not None

    @property
    def ok(self) -> bool:
        """Legal, and matching a sound plan when one is given: no problem at all."""
        return not self.problems

    @property
    def dice(self) -> int:
        return sum(s.height for s in self.stacks.values())

    def lines(self) -> list[str]:
        """A short report for people."""
        title = f"installation {self.name}" if self.name else "installation"
        head = "LEGAL" if self.legal else "ILLEGAL"
        out = [f"{title}: {head}, {self.dice} dice in {len(self.stacks)} stacks"]
        out += [f"  {p}" for p in self.problems]
        if self.plan is not None:
            if self.rotation is not None:
                out.append(f"  matches the plan turned {self.rotation} degrees clockwise")
            else:
                out.append("  does not match the plan under any turn (0, 90, 180, 270 degrees)")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "legal": self.legal,
            "ok": self.ok,
            "dice": self.dice,
            "stacks": {f"{r},{c}": list(s.dice) for (r, c), s in sorted(self.stacks.items())},
            "problems": [
                {
                    "code": p.code,
                    "message": p.message,
                    "cells": [list(c) for c in p.cells],
                    "line": p.line or None,
                }
                for p in self.problems
            ],
            "plan_matches": self.matches_plan,
            "rotation": self.rotation,
        }


def is_installation_text(text: str) -> bool:
    """Whether ``text`` is an installation description: its first real line is ``installation:``.

    Comments (``#``) and blank lines before it are skipped; a transcript starts with ``sheet:``.
    """
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            return line.lower().partition(":")[0].strip() == INSTALLATION_KEYWORD and ":" in line
    return False


def cell_text(cell: Cell) -> str:
    """A cell for people: ``row 2, column 3``."""
    return f"row {cell[0]}, column {cell[1]}"


def _parse_cell(
    token: str, line: int, cell: Cell, plan: bool, problems: list[InstallationProblem]
) -> Stack | None:
    """A cell's token: ``.`` (``None``), or its dice bottom to top (a plan also allows ``*``)."""
    if token == ".":
        return None
    allowed = "123456" + (ANY if plan else "")
    bad = [ch for ch in token if ch not in allowed]
    if bad:
        what = "1-6 or *" if plan else "1-6"
        problems.append(
            InstallationProblem(
                "syntax",
                f"'{token}' at {cell_text(cell)} is not a stack: write '.' for an empty cell or "
                f"the dice bottom to top, each a digit {what}",
                (cell,),
                line,
            )
        )
        return None
    return Stack(tuple(None if ch == ANY else int(ch) for ch in token))


def _parse_grid(
    rows: Sequence[tuple[int, str]], plan: bool, problems: list[InstallationProblem]
) -> dict[Cell, Stack]:
    stacks: dict[Cell, Stack] = {}
    for r, (line, body) in enumerate(rows, start=1):
        for c, token in enumerate(body.split(), start=1):
            stack = _parse_cell(token, line, (r, c), plan, problems)
            if stack is not None:
                stacks[(r, c)] = stack
    return stacks


NEIGHBOURS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def structure_problems(stacks: Mapping[Cell, Stack]) -> list[InstallationProblem]:
    """Every breach of the placement rules in a structure, in reading order.

    A stack holds one value; two stacks that share an edge touch at each height both reach,
    and there their dice must differ by exactly one; the stacks form one edge-connected group.

    Example:
        >>> s = {(1, 1): Stack((3, 3)), (1, 2): Stack((4,)), (2, 2): Stack((4,))}
        >>> [p.code for p in structure_problems(s)]
        ['same-value']
    """
    problems: list[InstallationProblem] = []
    if not stacks:
        return [InstallationProblem("empty", "the installation holds no dice")]
    for cell in sorted(stacks):
        dice = stacks[cell].dice
        if len({d for d in dice if d is not None}) > 1:
            shown = "".join("*" if d is None else str(d) for d in dice)
            problems.append(
                InstallationProblem(
                    "mixed-stack",
                    f"the stack {shown} at {cell_text(cell)} mixes numbers: only a die of the "
                    "same number goes on top of a die",
                    (cell,),
                )
            )
    for cell in sorted(stacks):
        for dr, dc in ((0, 1), (1, 0)):
            other = (cell[0] + dr, cell[1] + dc)
            if other not in stacks:
                continue
            a, b = stacks[cell].dice, stacks[other].dice
            for level in range(min(len(a), len(b))):
                va, vb = a[level], b[level]
                if va is None or vb is None or abs(va - vb) == 1:
                    continue
                code = "same-value" if va == vb else "not-one-apart"
                problems.append(
                    InstallationProblem(
                        code,
                        f"at height {level + 1}, the {va} at {cell_text(cell)} touches the {vb} "
                        f"at {cell_text(other)}: dice side by side must differ by exactly one",
                        (cell, other),
                    )
                )
    groups = _groups(stacks)
    if len(groups) > 1:
        sizes = ", ".join(
            f"{len(g)} stack{'s' if len(g) > 1 else ''} from {cell_text(min(g))}" for g in groups
        )
        problems.append(
            InstallationProblem(
                "disconnected",
                f"the installation falls apart into {len(groups)} pieces ({sizes}): every die "
                "must join the others face to face, never only at a corner",
                tuple(min(g) for g in groups),
            )
        )
    return problems


def _groups(stacks: Mapping[Cell, Stack]) -> list[list[Cell]]:
    """The edge-connected groups of cells, each sorted, in reading order of their first cell."""
    seen: set[Cell] = set()
    groups: list[list[Cell]] = []
    for start in sorted(stacks):
        if start in seen:
            continue
        seen.add(start)
        todo, group = [start], []
        while todo:
            cell = todo.pop()
            group.append(cell)
            for dr, dc in NEIGHBOURS:
                nxt = (cell[0] + dr, cell[1] + dc)
                if nxt in stacks and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        groups.append(sorted(group))
    return groups


def _normal(stacks: Mapping[Cell, Stack]) -> dict[Cell, Stack]:
    """The stacks moved so the smallest row and column are 1."""
    r0 = min(r for r, _ in stacks)
    c0 = min(c for _, c in stacks)
    return {(r - r0 + 1, c - c0 + 1): s for (r, c), s in stacks.items()}


def rotate(stacks: Mapping[Cell, Stack], degrees: int) -> dict[Cell, Stack]:
    """The stacks turned clockwise by 0, 90, 180 or 270 degrees, seen from above, normalised.

    Example:
        >>> sorted(rotate({(1, 1): Stack((1,)), (1, 2): Stack((2,))}, 90).items())
        [((1, 1), Stack(dice=(1,))), ((2, 1), Stack(dice=(2,)))]
    """
    if degrees not in ROTATIONS:
        raise ValueError(f"a turn is one of {ROTATIONS}, not {degrees}")
    out = dict(stacks)
    for _ in range(degrees // 90):
        out = {(c, -r): s for (r, c), s in out.items()}
    return _normal(out) if out else out


def _fits(plan: Stack, built: Stack) -> bool:
    return plan.height == built.height and all(
        p is None or p == b for p, b in zip(plan.dice, built.dice, strict=True)
    )


def plan_rotation(plan: Mapping[Cell, Stack], stacks: Mapping[Cell, Stack]) -> int | None:
    """The smallest clockwise turn under which ``plan`` matches ``stacks``, or ``None``.

    The footprints must coincide after the turn and a shift; every cell's height must be
    equal, and its value where the plan names one. Mirror images do not match.
    """
    if not plan or not stacks:
        return None
    built = _normal(stacks)
    for degrees in ROTATIONS:
        turned = rotate(plan, degrees)
        if turned.keys() == built.keys() and all(
            _fits(turned[cell], built[cell]) for cell in built
        ):
            return degrees
    return None


def check_installation(text: str) -> InstallationVerdict:
    """Read an installation (and optionally a plan) and list every problem with it.

    The text starts with an ``installation:`` line (comments and blank lines may come first);
    the grid's rows follow, one per line; an optional ``plan:`` line starts the plan's grid.
    See the module docstring for the format.

    Example:
        >>> v = check_installation("installation:\\n3 4 5\\n. 44 .\\n")
        >>> v.legal, [p.code for p in v.problems]
        (False, ['same-value'])
    """
    problems: list[InstallationProblem] = []
    name = ""
    section: str | None = None
    rows: dict[str, list[tuple[int, str]]] = {"installation": [], "plan": []}
    plan_given = False
    for number, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        head, sep, rest = body.partition(":")
        keyword = head.strip().lower()
        if sep and keyword == INSTALLATION_KEYWORD:
            if section is not None:
                problems.append(
                    InstallationProblem("syntax", "'installation:' is given twice", line=number)
                )
                continue
            section, name = "installation", rest.strip()
            continue
        if sep and keyword == PLAN_KEYWORD:
            if section is None or plan_given:
                why = "twice" if plan_given else "before 'installation:'"
                problems.append(
                    InstallationProblem("syntax", f"'plan:' is given {why}", line=number)
                )
                continue
            if rest.strip():
                problems.append(
                    InstallationProblem(
                        "syntax", "the plan's rows go on the lines after 'plan:'", line=number
                    )
                )
            section, plan_given = "plan", True
            continue
        if section is None:
            problems.append(
                InstallationProblem(
                    "syntax",
                    "an installation starts with a line 'installation:' (a name may follow)",
                    line=number,
                )
            )
            break
        rows[section].append((number, body))
    stacks = _parse_grid(rows["installation"], False, problems)
    plan = _parse_grid(rows["plan"], True, problems) if plan_given else None
    if section is not None:
        problems += structure_problems(stacks)
    rotation = None
    if plan is not None:
        if not plan:
            problems.append(InstallationProblem("syntax", "the plan holds no dice"))
        else:
            for p in structure_problems(plan):
                problems.append(
                    dataclasses.replace(p, code="bad-plan", message="in the plan: " + p.message)
                )
            rotation = plan_rotation(plan, stacks)
            if rotation is None and stacks:
                problems.append(
                    InstallationProblem(
                        "plan-mismatch",
                        "the installation does not match the plan, turned by 0, 90, 180 or "
                        "270 degrees: compare the footprint, each stack's height and the "
                        "numbers the plan names",
                    )
                )
    return InstallationVerdict(name, stacks, tuple(problems), plan, rotation)


class InstallationJudge:
    """The registry's judge for installation texts (see :class:`papergames.games.Judge`)."""

    def recognises(self, text: str) -> bool:
        return is_installation_text(text)

    def judge(self, text: str, source: str) -> InstallationVerdict:
        return check_installation(text)


INSTALLATION_JUDGE = InstallationJudge()
