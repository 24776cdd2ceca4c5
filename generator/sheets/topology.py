"""Which spaces are next to each other, and which touch only at a corner.

"Next to" means sharing a stretch of border of positive length; touching at a corner is not next
to. The rules engines and the photo reader use these relations exactly as computed here.

Example:
    >>> from shapely.geometry import box
    >>> topo = Topology({"a": box(0, 0, 1, 1), "b": box(1, 0, 2, 1), "c": box(1, 1, 2, 2)})
    >>> sorted(topo.neighbours["a"]), sorted(topo.corner_neighbours["a"])
    (['b'], ['c'])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import LineString, MultiLineString, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import polygonize, unary_union

TOLERANCE = 1e-6
"""Distance in mm below which two borders count as the same line."""


class Topology:
    """Adjacency of a set of spaces, computed lazily and cached."""

    def __init__(self, spaces: Mapping[str, Polygon], tolerance: float = TOLERANCE) -> None:
        self.spaces = dict(spaces)
        self.tolerance = tolerance

    @cached_property
    def _contacts(self) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
        ids = list(self.spaces)
        edge: dict[str, set[str]] = {i: set() for i in ids}
        corner: dict[str, set[str]] = {i: set() for i in ids}
        for a, b, length in border_contacts([self.spaces[i] for i in ids], self.tolerance):
            ia, ib = ids[a], ids[b]
            relation = edge if is_shared_border(length, self.tolerance) else corner
            relation[ia].add(ib)
            relation[ib].add(ia)
        return (
            {k: frozenset(v) for k, v in edge.items()},
            {k: frozenset(v) for k, v in corner.items()},
        )

    @property
    def neighbours(self) -> dict[str, frozenset[str]]:
        """For each space, the spaces sharing a border of positive length with it."""
        return self._contacts[0]

    @property
    def corner_neighbours(self) -> dict[str, frozenset[str]]:
        """For each space, the spaces it touches only at corners."""
        return self._contacts[1]

    def are_neighbours(self, a: str, b: str) -> bool:
        return b in self.neighbours[a]

    def touching(self, space: str) -> frozenset[str]:
        """Neighbours and corner neighbours together."""
        return self.neighbours[space] | self.corner_neighbours[space]


def border_contacts(
    shapes: Sequence[BaseGeometry], tolerance: float = TOLERANCE
) -> list[tuple[int, int, float]]:
    """Every pair of shapes that touch, with how much border they share.

    Returns ``(i, j, length)`` with ``i < j`` for each pair within ``tolerance`` of each other,
    ``length`` being how much of shape ``i``'s border runs within ``tolerance`` of shape ``j``.
    :func:`is_shared_border` says whether that makes them next to each other.

    Example:
        >>> from shapely.geometry import box
        >>> found = border_contacts([box(0, 0, 1, 1), box(1, 0, 2, 1), box(1, 1, 2, 2)])
        >>> [(i, j, is_shared_border(length)) for i, j, length in found]
        [(0, 1, True), (0, 2, False), (1, 2, True)]
    """
    geoms = np.asarray(shapes, dtype=object)
    if len(geoms) == 0:
        return []
    left, right = STRtree(geoms).query(geoms, predicate="dwithin", distance=tolerance)
    keep = left < right
    left, right = left[keep], right[keep]
    lengths = shapely.length(
        shapely.intersection(shapely.boundary(geoms[left]), shapely.buffer(geoms[right], tolerance))
    )
    pairs = zip(left.tolist(), right.tolist(), lengths.tolist(), strict=True)
    return sorted((int(a), int(b), float(n)) for a, b, n in pairs)


def is_shared_border(length: float, tolerance: float = TOLERANCE) -> bool:
    """Whether a contact of ``length`` (from :func:`border_contacts`) is a border, not a corner."""
    return length > 10 * tolerance


def contact(a: BaseGeometry, b: BaseGeometry, tolerance: float = TOLERANCE) -> str | None:
    """How two shapes touch: ``"border"``, ``"corner"``, or ``None`` when they do not.

    Example:
        >>> from shapely.geometry import box
        >>> contact(box(0, 0, 1, 1), box(1, 0, 2, 1)), contact(box(0, 0, 1, 1), box(1, 1, 2, 2))
        ('border', 'corner')
    """
    if a.distance(b) > tolerance:
        return None
    length = a.boundary.intersection(b.buffer(tolerance)).length
    return "border" if is_shared_border(length, tolerance) else "corner"


def faces_from_lines(lines: Iterable[BaseGeometry]) -> list[Polygon]:
    """The bounded faces that a set of lines cuts the plane into (lines are noded first).

    Example:
        >>> from shapely.geometry import LineString
        >>> square = [LineString([(0, 0), (2, 0), (2, 2), (0, 2), (0, 0)])]
        >>> len(faces_from_lines(square + [LineString([(1, 0), (1, 2)])]))
        2
    """
    noded = unary_union(list(lines))
    if isinstance(noded, LineString):
        noded = MultiLineString([noded])
    return list(polygonize(noded))


def tiling_gaps(spaces: Iterable[Polygon], field: Polygon) -> tuple[float, float]:
    """How far a set of spaces is from tiling a field: (overlap area, uncovered area).

    Both numbers are zero (up to rounding) for an exact tiling.
    """
    polys = list(spaces)
    total = sum(p.area for p in polys)
    union = unary_union(polys)
    overlap = total - union.area
    uncovered = field.difference(union).area + union.difference(field).area
    return overlap, uncovered
