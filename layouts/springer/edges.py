"""Springer's lines and triangles: the inner lines and the numbered triangles on the edges."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shapely.geometry import LineString, Polygon

from papergames.errors import FitError
from papergames.layouts.springer.mesh import (
    DEPTH,
    EDGES,
    END_CLEAR,
    MIN_BASE,
    TRIANGLE_GAP,
    Mesh,
    Point2,
    _edge_key,
)
from papergames.sheets.rng import Rng


def _down(value: float) -> str:
    """A length rounded down to a tenth, so a shortfall never prints as the bound itself."""
    return f"{math.floor(value * 10) / 10:.1f}"


def inner_lines(mesh: Mesh) -> list[list[int]]:
    """The inner edges of the mesh chained into lines that run straight on through corners.

    At each vertex the incident edges are paired, straightest pair first, when they continue
    one another within 35 degrees; a line ends where its edge finds no partner.
    """
    count: dict[tuple[int, int], int] = {}
    order: list[tuple[int, int]] = []
    for f in mesh.live():
        n = len(f.verts)
        for k in range(n):
            key = _edge_key(f.verts[k], f.verts[(k + 1) % n])
            if key not in count:
                order.append(key)
                count[key] = 0
            count[key] += 1
    edges = sorted(e for e in order if count[e] == 2)
    at: dict[int, list[tuple[int, int]]] = {}
    for e in edges:
        at.setdefault(e[0], []).append(e)
        at.setdefault(e[1], []).append(e)
    partner: dict[tuple[int, tuple[int, int]], tuple[int, int]] = {}
    for v in sorted(at):
        incident = at[v]
        px, py = mesh.pts[v]

        def direction(e: tuple[int, int], px: float = px, py: float = py, v: int = v) -> float:
            w = e[1] if e[0] == v else e[0]
            return math.atan2(mesh.pts[w][1] - py, mesh.pts[w][0] - px)

        candidates = []
        for x in range(len(incident)):
            for y in range(x + 1, len(incident)):
                turn = abs(direction(incident[x]) - direction(incident[y])) % (2 * math.pi)
                bend = abs(math.pi - min(turn, 2 * math.pi - turn))
                if bend <= math.radians(35):
                    candidates.append((bend, x, y))
        candidates.sort()
        taken: set[int] = set()
        for _, x, y in candidates:
            if x in taken or y in taken:
                continue
            taken |= {x, y}
            partner[(v, incident[x])] = incident[y]
            partner[(v, incident[y])] = incident[x]
    seen: set[tuple[int, int]] = set()
    lines: list[list[int]] = []

    def walk(start: tuple[int, int], v: int) -> list[int]:
        """Vertices from ``v`` along ``start`` and onward until the line ends."""
        path = [v]
        e = start
        while True:
            seen.add(e)
            w = e[1] if e[0] == v else e[0]
            path.append(w)
            nxt = partner.get((w, e))
            if nxt is None or nxt in seen:
                return path
            e, v = nxt, w

    for e in edges:
        if e in seen:
            continue
        # Go back to the free end of the line this edge is on, then walk it forward.
        v, cur = e[0], e
        for _ in range(len(edges)):
            prev = partner.get((v, cur))
            if prev is None or prev == e:
                break
            v, cur = _other(prev, v), prev
        lines.append(walk(cur, v))
    return lines


def _other(e: tuple[int, int], v: int) -> int:
    return e[1] if e[0] == v else e[0]


def edge_values(rng: Rng, count: int) -> list[int]:
    """Values for the triangles of one edge, in order along it.

    Every value 1..5 appears as evenly as possible: ``count`` = 5 gives each value once.
    """
    values: list[int] = []
    while len(values) < count:
        block = [1, 2, 3, 4, 5]
        rng.shuffle(block)
        values.extend(block[: count - len(values)])
    rng.shuffle(values)
    return values


def clear_end(end: float, low: float, high: float, stops: Sequence[float]) -> float | None:
    """The place nearest ``end`` in [low, high] at least :data:`END_CLEAR` mm from every stop.

    ``stops`` are the corners of spaces along the edge; a base end there would leave it unclear
    whether the space on the far side touches the triangle. ``None`` when no place is clear.

    Example:
        >>> clear_end(10.0, 5.0, 20.0, [9.5, 30.0])
        11.0
    """
    candidates = [end] + [s + d for s in stops for d in (-END_CLEAR, END_CLEAR)]
    good = [
        c
        for c in candidates
        if low <= c <= high and all(abs(c - s) >= END_CLEAR - 1e-9 for s in stops)
    ]
    if not good:
        return None
    return min(good, key=lambda c: (abs(c - end), c))


@dataclass(frozen=True)
class Triangle:
    """A placed triangle: its edge, corners (base first, then tip) and value."""

    edge: str
    index: int
    corners: tuple[Point2, Point2, Point2]
    value: int


def place_triangles(mesh: Mesh, rng: Rng, per_edge: int) -> list[Triangle]:
    """Triangles along the four edges, clockwise from the top left corner.

    Raises:
        FitError: when a base would be shorter than :data:`MIN_BASE`.
    """
    x0, y0, x1, y1 = mesh.bounds
    tol = 1e-9
    out: list[Triangle] = []
    for edge in EDGES:
        if edge == "top":
            start, length = (x0, y0), x1 - x0
            along, normal = (1.0, 0.0), (0.0, -1.0)
            stops = [p[0] - x0 for p in mesh.pts if abs(p[1] - y0) < tol]
        elif edge == "right":
            start, length = (x1, y0), y1 - y0
            along, normal = (0.0, 1.0), (1.0, 0.0)
            stops = [p[1] - y0 for p in mesh.pts if abs(p[0] - x1) < tol]
        elif edge == "bottom":
            start, length = (x1, y1), x1 - x0
            along, normal = (-1.0, 0.0), (0.0, 1.0)
            stops = [x1 - p[0] for p in mesh.pts if abs(p[1] - y1) < tol]
        else:
            start, length = (x0, y1), y1 - y0
            along, normal = (0.0, -1.0), (-1.0, 0.0)
            stops = [y1 - p[1] for p in mesh.pts if abs(p[0] - x0) < tol]
        stops.sort()
        slot = length / per_edge
        gap = min(1.5, 0.1 * slot)
        values = edge_values(rng, per_edge)
        for k in range(per_edge):
            low, high = k * slot + TRIANGLE_GAP / 2, (k + 1) * slot - TRIANGLE_GAP / 2
            a = clear_end(k * slot + gap, low, high, stops)
            b = clear_end((k + 1) * slot - gap, low, high, stops)
            if a is None or b is None or b - a < MIN_BASE:
                wide = 0.0 if a is None or b is None else max(b - a, 0.0)
                raise FitError(
                    f"triangles={per_edge} leaves a triangle on the {edge} edge only "
                    f"{_down(wide)} mm wide (at least {MIN_BASE:.0f} mm are needed): use fewer"
                    " triangles, more columns or rows, or larger paper"
                )
            pa = (start[0] + a * along[0], start[1] + a * along[1])
            pb = (start[0] + b * along[0], start[1] + b * along[1])
            mid = (a + b) / 2
            tip = (
                start[0] + mid * along[0] + DEPTH * normal[0],
                start[1] + mid * along[1] + DEPTH * normal[1],
            )
            out.append(Triangle(edge, k + 1, (pa, pb, tip), values[k]))
    return out


def base_touches(spaces: Mapping[str, Polygon], tri: Triangle) -> list[str]:
    """The spaces whose border shares a stretch of positive length with the triangle's base."""
    base = LineString(tri.corners[:2])
    minx, miny, maxx, maxy = base.bounds
    found = []
    for sid, poly in spaces.items():
        bx0, by0, bx1, by1 = poly.bounds
        if bx1 < minx - 1e-6 or bx0 > maxx + 1e-6 or by1 < miny - 1e-6 or by0 > maxy + 1e-6:
            continue
        if poly.boundary.intersection(base).length > 1e-6:
            found.append(sid)
    return found
