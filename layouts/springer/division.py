"""Springer's variation 2: spaces divided in two by a straight line before play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString, Polygon
from shapely.ops import linemerge
from shapely.ops import split as shp_split

from papergames.layouts.springer.mesh import EDGES
from papergames.sheets.topology import contact

SPLIT_LEAST = 1.0
"""Least area in mm^2 of either part of a divided space (variation 2)."""


@dataclass(frozen=True)
class Split:
    """Variation 2: a space divided by a straight line between the middles of two of its borders.

    Attributes:
        space: the space divided (``space-17``, or a part of one divided before: ``space-17a``).
        first, second: the borders the line joins, each a neighbouring space's id or an edge of
            the field (``top``, ``right``, ``bottom``, ``left``). The part on the left as one
            walks the line from the first border to the second becomes ``<space>a``, the other
            ``<space>b``.
    """

    space: str
    first: str
    second: str


@dataclass(frozen=True)
class DividedField:
    """The spaces as divided by the splits so far, with their contacts (indices)."""

    ids: tuple[str, ...]
    index: Mapping[str, int]
    polys: tuple[Polygon, ...]
    neighbours: tuple[frozenset[int], ...]
    touching: tuple[tuple[int, ...], ...]
    reaches: tuple[tuple[int, ...], ...]
    """For each space, the triangles (indices) whose base it touches."""


def _lines_of(geom: Any) -> list[LineString]:
    """The line parts (longer than a speck) of a shapely intersection result."""
    if isinstance(geom, LineString):
        parts = [geom]
    else:
        parts = [g for g in getattr(geom, "geoms", []) if isinstance(g, LineString)]
    return [p for p in parts if p.length > 1e-5]


class Divisions:
    """The sheet's spaces as the splits divide them, each division made once and kept.

    Attributes:
        base: the spaces as printed.
        sides: the field's four edges by name, which a dividing line may start from.
        bases: each triangle's base, to tell which part of a divided space still reaches it.
    """

    def __init__(
        self,
        base: DividedField,
        sides: Mapping[str, LineString],
        bases: Sequence[LineString],
    ) -> None:
        self.base = base
        self.sides = dict(sides)
        self.bases = list(bases)
        self._fields: dict[tuple[Split, ...], DividedField] = {(): base}

    def known(self, splits: tuple[Split, ...]) -> DividedField | None:
        """The field after ``splits`` if it was made before."""
        return self._fields.get(splits)

    def remember(self, splits: tuple[Split, ...], made: DividedField) -> None:
        self._fields.setdefault(splits, made)

    def field(self, splits: tuple[Split, ...]) -> DividedField:
        """The spaces after ``splits`` (each assumed valid), computed once."""
        known = self._fields.get(splits)
        if known is None:
            parent = self.field(splits[:-1])
            made = self.divide(parent, splits[-1])
            if isinstance(made, str):
                raise AssertionError(made)
            known = self._fields[splits] = made
        return known

    def borders(self, fld: DividedField, space: int) -> dict[str, LineString]:
        """The borders of a space one may draw a dividing line from: neighbours and edges."""
        poly = fld.polys[space]
        out: dict[str, LineString] = {}
        names = [fld.ids[n] for n in sorted(fld.neighbours[space])]
        for name in [*names, *EDGES]:
            other = self.sides[name] if name in self.sides else fld.polys[fld.index[name]]
            parts = _lines_of(poly.boundary.intersection(other.buffer(1e-6)))
            if not parts:
                continue
            merged = linemerge(parts) if len(parts) > 1 else parts[0]
            if isinstance(merged, LineString):
                out[name] = merged
        return out

    def divide(self, fld: DividedField, split: Split) -> DividedField | str:
        """The field with ``split`` made, or why it cannot be made."""
        k = fld.index.get(split.space)
        if k is None:
            return f"{split.space} is not a space of the field"
        if split.first == split.second:
            return "the line must join two different borders"
        borders = self.borders(fld, k)
        for name in (split.first, split.second):
            if name not in borders:
                return (
                    f"{name} is not a border of {split.space} with one stretch (its borders: "
                    f"{', '.join(borders)})"
                )
        poly = fld.polys[k]
        p = borders[split.first].interpolate(0.5, normalized=True)
        q = borders[split.second].interpolate(0.5, normalized=True)
        chord = LineString([p, q])
        if chord.length < 1e-3 or chord.difference(poly.buffer(1e-7)).length > 1e-7:
            return (
                f"the line from the middle of the border with {split.first} to the middle of "
                f"the border with {split.second} leaves {split.space}"
            )
        dx, dy = q.x - p.x, q.y - p.y
        far = LineString([(p.x - 1e-4 * dx, p.y - 1e-4 * dy), (q.x + 1e-4 * dx, q.y + 1e-4 * dy)])
        pieces = [g for g in shp_split(poly, far).geoms if isinstance(g, Polygon)]
        if len(pieces) != 2 or min(g.area for g in pieces) < SPLIT_LEAST:
            return f"that line does not divide {split.space} into two spaces"

        def left(g: Polygon) -> bool:
            r = g.representative_point()
            return bool(dx * (r.y - p.y) - dy * (r.x - p.x) < 0)  # y grows down the page

        a, b = sorted(pieces, key=lambda g: not left(g))
        ids = list(fld.ids)
        polys = list(fld.polys)
        ids[k : k + 1] = [split.space + "a", split.space + "b"]
        polys[k : k + 1] = [a, b]
        # Only contacts with the divided space change: measure each part against the spaces
        # that touched it, with the contact test the whole sheet's topology uses, and against
        # each other.
        halves = {split.space + "a": a, split.space + "b": b}
        edge: dict[str, set[str]] = {}
        touch: dict[str, set[str]] = {}
        for n, sid in enumerate(fld.ids):
            if n != k:
                edge[sid] = {fld.ids[m] for m in fld.neighbours[n]} - {split.space}
                touch[sid] = {fld.ids[m] for m in fld.touching[n]} - {split.space}
        around = [fld.ids[m] for m in fld.touching[k]]
        for hid in halves:
            edge[hid], touch[hid] = set(), set()
        for hid, half in halves.items():
            for other in [*around, *(h for h in halves if h != hid)]:
                geom = halves[other] if other in halves else fld.polys[fld.index[other]]
                how = contact(half, geom)
                if how is None:
                    continue
                touch[hid].add(other)
                touch[other].add(hid)
                if how == "border":
                    edge[hid].add(other)
                    edge[other].add(hid)
        index = {sid: n for n, sid in enumerate(ids)}
        reaches = [fld.reaches[fld.index[sid]] if sid in fld.index else () for sid in ids]
        for hid, half in halves.items():
            reaches[index[hid]] = tuple(
                t for t in fld.reaches[k] if half.boundary.intersection(self.bases[t]).length > 1e-6
            )
        return DividedField(
            tuple(ids),
            index,
            tuple(polys),
            tuple(frozenset(index[m] for m in edge[sid]) for sid in ids),
            tuple(tuple(sorted(index[m] for m in touch[sid])) for sid in ids),
            tuple(reaches),
        )
