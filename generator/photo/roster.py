"""A class's scanned sheets held against its class list: whose sheet is missing, which came twice.

Each sheet made from a class list carries its group's number and names in its spec (and so in
its QR code), so the scans alone say which group each page belongs to. Given the list too, the
groups with no sheet among the scans are named, and so is a sheet scanned more than once (the
same spec and page read from two pages of the scans). A sheet whose names match no group of the
list (one of another class, or a list edited since) is reported as not on the list.

Example:
    >>> from papergames.handouts.classlist import parse_class_list
    >>> roll = parse_class_list("Mia, Leo\\nZoë, Ana\\n")
    >>> report = hold_against(roll, [])
    >>> [g.number for g in report.missing], report.lines()[0]
    ([1, 2], 'missing: group 1 (Mia, Leo)')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from papergames.handouts.classlist import ClassList, Group
from papergames.photo.batch import CSV_HEADER, FileResult


@dataclass(frozen=True)
class Place:
    """Where a sheet was read: the file and its page."""

    file: str
    page: int

    def __str__(self) -> str:
        return f"{self.file} page {self.page}"


@dataclass
class RosterReport:
    """The scans held against the class list.

    Attributes:
        missing: the groups no scanned page belongs to.
        twice: for each group read more than once, every place its sheet was read.
        strangers: places of named sheets whose names are on no group of the list.
        found: for each group found, the places its sheet was read (first the one kept).
    """

    missing: list[Group] = field(default_factory=list)
    twice: dict[int, list[Place]] = field(default_factory=dict)
    strangers: list[tuple[Place, tuple[str, ...]]] = field(default_factory=list)
    found: dict[int, list[Place]] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """What a teacher reads after the sheets: each missing group, each doubled sheet."""
        out = [f"missing: group {g.number} ({', '.join(g.names)})" for g in self.missing]
        for number, places in self.twice.items():
            out.append(f"scanned twice: group {number}, at " + " and ".join(str(p) for p in places))
        for place, names in self.strangers:
            out.append(f"not on the class list: {place} ({', '.join(names)})")
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "missing": [{"group": g.number, "names": list(g.names)} for g in self.missing],
            "twice": [
                {"group": n, "places": [str(p) for p in places]} for n, places in self.twice.items()
            ],
            "not_on_list": [
                {"place": str(place), "names": list(names)} for place, names in self.strangers
            ],
        }


def _group_of(roll: ClassList, number: int, names: tuple[str, ...]) -> Group | None:
    """The list's group a sheet was made for: its number and names agree, else its names."""
    for group in roll.groups:
        if group.number == number and group.names == names:
            return group
    same = [g for g in roll.groups if g.names == names]
    return same[0] if len(same) == 1 else None


def hold_against(roll: ClassList, results: Sequence[FileResult]) -> RosterReport:
    """Which groups of ``roll`` the scans hold, which they lack and which they hold twice."""
    report = RosterReport()
    seen: dict[tuple[int, str, int], list[Place]] = {}
    for result in results:
        pages = result.pages or list(range(1, len(result.outcomes) + 1))
        for page, outcome in zip(pages, result.outcomes, strict=True):
            spec = outcome.reading.spec
            if spec is None or not spec.names:
                continue
            place = Place(str(result.path), page)
            group = _group_of(roll, spec.group, spec.names)
            if group is None:
                report.strangers.append((place, spec.names))
                continue
            key = (group.number, str(spec), outcome.reading.page_number)
            seen.setdefault(key, []).append(place)
            report.found.setdefault(group.number, []).append(place)
    for (number, _, _), places in seen.items():
        if len(places) > 1:
            report.twice.setdefault(number, []).extend(places)
    report.missing = [g for g in roll.groups if g.number not in report.found]
    return report


def with_roster(rows: list[list[str]], report: RosterReport, roll: ClassList) -> list[list[str]]:
    """The CSV's rows (header first) with the roster's findings: a sheet scanned twice says so
    in its check column, and each missing group gets a row of its own, verdict ``missing``."""
    column = {name: k for k, name in enumerate(CSV_HEADER)}
    doubled = {(str(p.file), str(p.page)) for places in report.twice.values() for p in places}
    out = [rows[0]]
    for row in rows[1:]:
        if (row[column["file"]], row[column["page"]]) in doubled:
            row = list(row)
            check = row[column["check"]]
            row[column["check"]] = "; ".join(filter(None, ["scanned twice", check]))
        out.append(row)
    for group in report.missing:
        row = [""] * len(CSV_HEADER)
        row[column["verdict"]] = "missing"
        row[column["check"]] = "no sheet of this group among the scans"
        row[column["class"]] = roll.name
        row[column["group"]] = str(group.number)
        for k, name in enumerate(group.names[:6], start=1):
            row[column[f"player {k}"]] = name
        out.append(row)
    return out
