"""Miro's line as drawn: the curve's waypoints through a smooth spline, fitted to the field."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import LineString, MultiLineString, Polygon
from shapely.ops import polygonize, unary_union

from papergames.layouts.miro.curve import (
    MIN_ANGLE,
    MIN_AREA,
    MIN_GAP,
    MIN_SEGMENT,
    MIRROR,
    SAMPLES,
    STRAIGHT,
    THIN,
    Curve,
    Pt,
)

BOUNCE = 0.16
"""How far (in lattice spacings) a bounce at the border swings out past the edge's midpoint."""


BOUNCE_WIDTH = 0.22
"""Half the width of a bounce's rounded turn, in half edges."""


PINCH_OFFSET = 0.30
"""How far (in half edges) a PINCH smoothing's two arcs stay from the edge's midpoint."""


MIRROR_OFFSET = 0.30
"""How far (towards the triangle's centre) a MIRROR smoothing's arcs stay from the midpoint."""


BOW = 0.09
"""How far (in lattice spacings) each strand bows out of the small triangle it runs along, so
strands weave and the small spaces grow."""


def waypoints(curve: Curve) -> tuple[list[Pt], list[str | None]]:
    """The points the line passes through, with the key of each crossing point (else None).

    A crossing's key is ``x<edge>``, a triple point's ``t<triangle>``; both strands (three at a
    triple point) pass through the very same coordinates.
    """
    patch = curve.patch
    visits = curve.visits()
    reserved = set(curve.reserved)
    # Start at an ordinary crossing so no reserved triangle straddles the list's ends.
    first = next(
        i
        for i, v in enumerate(visits)
        if curve.state.get(v.edge, MIRROR) == STRAIGHT
        and v.inport[0] not in reserved
        and v.outport[0] not in reserved
    )
    visits = visits[first:] + visits[:first]
    pts: list[Pt] = []
    keys: list[str | None] = []
    s = patch.s
    skip = False
    for i, v in enumerate(visits):
        nxt = visits[(i + 1) % len(visits)]
        e = v.edge
        mx, my = patch.mid(e)
        t_in, t_out = v.inport[0], v.outport[0]
        if skip:
            skip = False
        elif t_out in reserved:
            pts.append(patch.centroid(t_out))
            keys.append(f"t{t_out}")
            skip = True
        elif len(patch.edge_tris[e]) == 1:
            (cx, cy) = patch.centroid(t_in)
            a, b = patch.edges[e]
            (ax, ay), (bx, by) = patch.pts[a], patch.pts[b]
            nx, ny = -(by - ay), bx - ax
            if nx * (mx - cx) + ny * (my - cy) < 0:
                nx, ny = -nx, -ny
            k = BOUNCE * s / math.hypot(nx, ny)
            # Two points side by side round the turn off: first on the arriving strand's side.
            near = a if a in patch.edges[v.inport[1]] else b
            (qx, qy) = patch.pts[near]
            for sign in (1.0, -1.0):
                pts.append(
                    (
                        mx + k * nx + sign * BOUNCE_WIDTH * (qx - mx),
                        my + k * ny + sign * BOUNCE_WIDTH * (qy - my),
                    )
                )
                keys.append(None)
        elif curve.state[e] == STRAIGHT:
            pts.append((mx, my))
            keys.append(f"x{e}")
        elif curve.state[e] == MIRROR:
            cx, cy = patch.centroid(t_in)
            pts.append((mx + MIRROR_OFFSET * (cx - mx), my + MIRROR_OFFSET * (cy - my)))
            keys.append(None)
        else:
            shared = set(patch.edges[v.inport[1]]) & set(patch.edges[v.outport[1]])
            (vx, vy) = patch.pts[shared.pop()]
            pts.append((mx + PINCH_OFFSET * (vx - mx), my + PINCH_OFFSET * (vy - my)))
            keys.append(None)
        if t_out in reserved:
            continue
        # The bow point of the medial edge from this visit to the next.
        (ax, ay), (bx, by) = patch.mid(e), patch.mid(nxt.edge)
        cx, cy = patch.centroid(t_out)
        px, py = (ax + bx) / 2, (ay + by) / 2
        nx, ny = -(by - ay), bx - ax
        if nx * (px - cx) + ny * (py - cy) < 0:
            nx, ny = -nx, -ny
        k = BOW * s / max(math.hypot(nx, ny), 1e-9)
        pts.append((px + k * nx, py + k * ny))
        keys.append(None)
    return pts, keys


def spline(pts: Sequence[Pt], samples: int = SAMPLES) -> np.ndarray:
    """A closed centripetal Catmull-Rom spline through ``pts``, ``samples`` points per piece.

    Row ``i * samples`` is exactly ``pts[i]``, so strands meet at shared waypoints exactly.
    """
    p = np.asarray(pts, dtype=float)
    n = len(p)
    p0, p1, p2, p3 = np.roll(p, 1, 0), p, np.roll(p, -1, 0), np.roll(p, -2, 0)

    def knot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out: np.ndarray = np.maximum(np.sqrt(np.hypot(*(b - a).T)), 1e-6)[:, None]
        return out

    t0 = np.zeros((n, 1))
    t1 = t0 + knot(p0, p1)
    t2 = t1 + knot(p1, p2)
    t3 = t2 + knot(p2, p3)
    u = np.linspace(0.0, 1.0, samples, endpoint=False)[None, :]
    t = t1 + (t2 - t1) * u  # (n, samples)

    def lerp(pa: np.ndarray, pb: np.ndarray, ta: np.ndarray, tb: np.ndarray) -> np.ndarray:
        wa = ((tb - t) / (tb - ta))[:, :, None]
        wb = ((t - ta) / (tb - ta))[:, :, None]
        out: np.ndarray = wa * pa[:, None, :] + wb * pb[:, None, :]
        return out

    a1 = lerp(p0, p1, t0, t1)
    a2 = lerp(p1, p2, t1, t2)
    a3 = lerp(p2, p3, t2, t3)
    w1a = ((t2 - t) / (t2 - t0))[:, :, None]
    w1b = ((t - t0) / (t2 - t0))[:, :, None]
    b1 = w1a * a1 + w1b * a2
    w2a = ((t3 - t) / (t3 - t1))[:, :, None]
    w2b = ((t - t1) / (t3 - t1))[:, :, None]
    b2 = w2a * a2 + w2b * a3
    wa = ((t2 - t) / (t2 - t1))[:, :, None]
    wb = ((t - t1) / (t2 - t1))[:, :, None]
    c = wa * b1 + wb * b2
    c[:, 0, :] = p
    flat: np.ndarray = c.reshape(-1, 2)
    return flat


@dataclass
class Drawing:
    """The drawn line cut into segments, with its spaces, ready to check and to print.

    Attributes:
        segments: coordinates of each segment, in order along the line.
        ends: the crossing keys each segment runs from and to.
        points: each crossing key's position.
        faces: the spaces' polygons (unordered).
        sides: for each segment, the indices into ``faces`` on its two sides (outside: None).
        angles: for each crossing key, the least angle in degrees between its strands.
        field: the union of the spaces (the region the line encloses).
    """

    segments: list[np.ndarray]
    ends: list[tuple[str, str]]
    points: dict[str, Pt]
    faces: list[Polygon]
    sides: list[tuple[int | None, int | None]]
    angles: dict[str, float]
    field: Polygon


class DrawError(Exception):
    """This attempt's drawing breaks a rule; another patch is drawn."""


def _fit(samples: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """Scale and move the line to fill the box (x0, y0, x1, y1), keeping its proportions."""
    lo, hi = samples.min(axis=0), samples.max(axis=0)
    x0, y0, x1, y1 = box
    k = min((x1 - x0) / (hi[0] - lo[0]), (y1 - y0) / (hi[1] - lo[1]))
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    fitted: np.ndarray = (samples - (lo + hi) / 2) * k + centre
    return fitted


def draw(curve: Curve, box: tuple[float, float, float, float], expect: tuple[int, int]) -> Drawing:
    """Draw the curve into ``box`` and check every rule of the field.

    Args:
        curve: the smoothed curve (one closed line).
        box: where the line goes, in page mm.
        expect: (segments, spaces) the counts must come to.

    Raises:
        DrawError: naming the rule the drawing breaks.
    """
    pts, keys = waypoints(curve)
    raw = spline(pts)
    c = _fit(raw, box)
    n = len(pts)
    marks = [i for i, k in enumerate(keys) if k is not None]
    # Start the numbering at the crossing nearest the box's top-left corner, heading right.
    where = {str(keys[i]): (float(c[i * SAMPLES, 0]), float(c[i * SAMPLES, 1])) for i in marks}
    first_key = min(where, key=lambda k: (where[k][0] - box[0]) + (where[k][1] - box[1]))
    starts = [j for j, i in enumerate(marks) if keys[i] == first_key]
    heading = [
        float(c[(marks[j] * SAMPLES + 1) % len(c), 0] - c[marks[j] * SAMPLES, 0]) for j in starts
    ]
    start = starts[max(range(len(starts)), key=lambda k: heading[k])]
    marks = marks[start:] + marks[:start]
    segments: list[np.ndarray] = []
    ends: list[tuple[str, str]] = []
    total = n * SAMPLES
    for j, i in enumerate(marks):
        k = marks[(j + 1) % len(marks)]
        a, b = i * SAMPLES, k * SAMPLES
        if b <= a:
            b += total
        rows = np.arange(a, b + 1) % total
        segments.append(c[rows])
        ends.append((str(keys[i]), str(keys[k])))
    want_segments, want_faces = expect
    if len(segments) != want_segments:
        raise DrawError(f"{len(segments)} segments instead of {want_segments}")
    # Thin the dense samples to what the eye needs; the checks below see the thinned line.
    lines = list(
        shapely.simplify(
            np.array([LineString(seg) for seg in segments]), THIN, preserve_topology=False
        )
    )
    segments = [np.asarray(line.coords) for line in lines]
    lengths = [line.length for line in lines]
    if min(lengths) < MIN_SEGMENT:
        raise DrawError("a segment is too short")
    # The pieces meet only at their ends: noding them must not cut any piece.
    noded = unary_union(lines)
    parts = list(noded.geoms) if isinstance(noded, MultiLineString) else [noded]
    if len(parts) != len(lines):
        raise DrawError("the line touches itself away from its crossing points")
    faces = list(polygonize(parts))
    if len(faces) != want_faces:
        raise DrawError(f"{len(faces)} spaces instead of {want_faces}")
    for f in faces:
        if not f.is_valid or f.interiors or f.area < MIN_AREA:
            raise DrawError("a space is too small")
    for core in shapely.buffer(np.array(faces), -MIN_GAP / 2, quad_segs=2):
        if core.is_empty or core.geom_type != "Polygon":
            raise DrawError("a space has a neck narrower than the least gap")
    field = shapely.coverage_union_all(faces)
    if not isinstance(field, Polygon) or field.interiors:
        raise DrawError("the spaces do not form one field")
    # Crossing angles.
    dirs: dict[str, list[tuple[float, float]]] = {}
    for i in marks:
        row = i * SAMPLES
        d = c[(row + 1) % total] - c[(row - 1) % total]
        dirs.setdefault(str(keys[i]), []).append((float(d[0]), float(d[1])))
    angles: dict[str, float] = {}
    for key, ds in dirs.items():
        least = 90.0
        for p in range(len(ds)):
            for q in range(p + 1, len(ds)):
                (ax, ay), (bx, by) = ds[p], ds[q]
                cos = abs(ax * bx + ay * by) / (math.hypot(ax, ay) * math.hypot(bx, by))
                least = min(least, math.degrees(math.acos(min(1.0, cos))))
        angles[key] = least
    if min(angles.values()) < MIN_ANGLE:
        raise DrawError("two strands cross at too small an angle")
    # Clearance between strands that share no crossing.
    tree = STRtree(lines)
    grown = shapely.buffer(shapely.envelope(np.array(lines)), MIN_GAP, quad_segs=1)
    near = tree.query(grown)
    pairs = [
        (a, b)
        for a, b in zip(near[0].tolist(), near[1].tolist(), strict=True)
        if a < b and not set(ends[a]) & set(ends[b])
    ]
    if pairs:
        left = np.array([lines[a] for a, _ in pairs])
        right = np.array([lines[b] for _, b in pairs])
        if shapely.dwithin(left, right, MIN_GAP).any():
            raise DrawError("two strands run too close together")
    # Which spaces lie on each side of each segment: probe just left and right of its middle.
    face_tree = STRtree(faces)
    line_array = np.array(lines)
    mids = shapely.get_coordinates(shapely.line_interpolate_point(line_array, 0.5, normalized=True))
    after = shapely.get_coordinates(
        shapely.line_interpolate_point(line_array, 0.52, normalized=True)
    )
    before = shapely.get_coordinates(
        shapely.line_interpolate_point(line_array, 0.48, normalized=True)
    )
    along = after - before
    normal = np.stack([-along[:, 1], along[:, 0]], axis=1)
    normal *= 0.05 / np.hypot(normal[:, 0], normal[:, 1])[:, None]
    probes = shapely.points(np.concatenate([mids + normal, mids - normal]))
    hit = face_tree.query(probes, predicate="within")
    found: dict[int, int] = dict(zip(hit[0].tolist(), hit[1].tolist(), strict=True))
    m = len(segments)
    sides = [(found.get(i), found.get(i + m)) for i in range(m)]
    if any(a == b for a, b in sides):
        raise DrawError("a segment has the same space on both sides")
    return Drawing(segments, ends, where, faces, sides, angles, field)
