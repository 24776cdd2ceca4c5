"""Small geometry helpers shared by layouts and renderers.

Example:
    >>> ring = circle_points(0, 0, 10, 8)
    >>> len(ring), round(ring[2][1], 6)
    (8, 10.0)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence

from shapely import affinity
from shapely.geometry import LineString, MultiLineString, Polygon
from shapely.geometry.base import BaseGeometry

Point2 = tuple[float, float]

ARC_TOLERANCE = 0.05
"""Largest gap in mm between a true arc and the polyline that draws it."""


def arc_steps(radius: float, sweep: float, tolerance: float = ARC_TOLERANCE) -> int:
    """How many chords draw an arc of ``sweep`` radians within ``tolerance`` mm."""
    if radius <= tolerance:
        return 1
    step = 2 * math.acos(1 - tolerance / radius)
    return max(1, math.ceil(abs(sweep) / step))


def circle_points(cx: float, cy: float, r: float, n: int) -> list[Point2]:
    """``n`` points evenly around a circle, starting at angle 0 (pointing right)."""
    return [
        (cx + r * math.cos(2 * math.pi * k / n), cy + r * math.sin(2 * math.pi * k / n))
        for k in range(n)
    ]


def polar(cx: float, cy: float, r: float, angle: float) -> Point2:
    """The point at ``angle`` radians and distance ``r`` from the centre."""
    return (cx + r * math.cos(angle), cy + r * math.sin(angle))


def hatch_lines(shape: Polygon, angle_deg: float, step: float) -> list[LineString]:
    """Parallel lines ``step`` mm apart at ``angle_deg`` clipped to ``shape``.

    Lines are anchored to the page origin, not the shape, so neighbouring hatched shapes line up.
    """
    if shape.is_empty:
        return []
    rotated = affinity.rotate(shape, -angle_deg, origin=(0, 0))
    minx, miny, maxx, maxy = rotated.bounds
    lines = []
    k = math.ceil(miny / step)
    while k * step <= maxy:
        y = k * step
        lines.append(LineString([(minx - 1, y), (maxx + 1, y)]))
        k += 1
    if not lines:
        return []
    clipped = MultiLineString(lines).intersection(rotated)
    back = affinity.rotate(clipped, angle_deg, origin=(0, 0))
    return list(iter_lines(back))


def iter_lines(geom: BaseGeometry) -> Iterator[LineString]:
    """Every non-empty LineString inside a geometry of any type."""
    if geom.is_empty:
        return
    if isinstance(geom, LineString):
        yield geom
    elif hasattr(geom, "geoms"):
        for part in geom.geoms:
            yield from iter_lines(part)


def iter_polygons(geom: BaseGeometry) -> Iterator[Polygon]:
    """Every non-empty Polygon inside a geometry of any type."""
    if geom.is_empty:
        return
    if isinstance(geom, Polygon):
        yield geom
    elif hasattr(geom, "geoms"):
        for part in geom.geoms:
            yield from iter_polygons(part)


def dash_polyline(coords: Sequence[Point2], dash: Sequence[float]) -> list[list[Point2]]:
    """Split a polyline into the 'on' pieces of a dash pattern (for renderers without dashes)."""
    pieces: list[list[Point2]] = []
    pattern = list(dash) if len(dash) % 2 == 0 else list(dash) * 2
    idx, left, on = 0, pattern[0], True
    current: list[Point2] = [coords[0]] if coords else []
    for (x0, y0), (x1, y1) in itertools.pairwise(coords):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while seg - pos > left:
            pos += left
            t = pos / seg
            p = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            if on:
                current.append(p)
                pieces.append(current)
            current = [p]
            on = not on
            idx = (idx + 1) % len(pattern)
            left = pattern[idx]
        left -= seg - pos
        if on:
            current.append((x1, y1))
    if on and len(current) > 1:
        pieces.append(current)
    return pieces
