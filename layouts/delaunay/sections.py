"""Delaunay's composition: Orphist sections of discs and arcs, and the lines between cells."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import linemerge, polygonize, unary_union

from papergames.errors import FitError
from papergames.layouts.delaunay.cells import (
    ATTEMPTS,
    BALANCE,
    CUSP,
    FAR,
    GRID,
    NODE_GRID,
    NOISE,
    SECTION_SHARE,
    SNAP,
    TAU,
    Axes,
    Quality,
    _merge_into_neighbour,
    _split,
    _union,
    exact_cells,
)
from papergames.layouts.delaunay.params import MIN_AREA, MIN_THICK
from papergames.sheets.geometry import arc_steps, iter_lines
from papergames.sheets.rng import Rng


def _rect(x: float, y: float, width: float, height: float) -> Polygon:
    return Polygon([(x, y), (x + width, y), (x + width, y + height), (x, y + height)])


@dataclass(frozen=True)
class Disc:
    cx: float
    cy: float
    r: float


def _circle_line(d: Disc) -> LineString:
    steps = max(48, arc_steps(d.r, TAU))
    pts = [
        (d.cx + d.r * math.cos(TAU * k / steps), d.cy + d.r * math.sin(TAU * k / steps))
        for k in range(steps)
    ]
    return LineString([*pts, pts[0]])


def _through(x: float, y: float, angle: float) -> LineString:
    dx, dy = math.cos(angle), math.sin(angle)
    return LineString([(x - FAR * dx, y - FAR * dy), (x + FAR * dx, y + FAR * dy)])


@dataclass
class Composition:
    """The sections of one try and how each is cut."""

    sections: list[Polygon]
    axes: list[Axes]
    score: float


def _compose_once(
    x0: float, y0: float, width: float, height: float, count: int, rng: Rng
) -> Composition:
    """One random Orphist drawing on the field, its faces repaired to ``count`` sections."""
    field = _rect(x0, y0, width, height)
    m = min(width, height)
    discs: list[Disc] = []
    lines: list[BaseGeometry] = [field.exterior]
    directions: list[float] = []
    main = Disc(x0 + width * rng.uniform(0.36, 0.64), y0 + height * rng.uniform(0.36, 0.6), 0.0)
    main = Disc(main.cx, main.cy, m * rng.uniform(0.3, 0.4))
    discs.append(main)
    lines.append(_circle_line(main))
    inner: Disc | None = None
    if rng.random() < 0.85:
        inner = Disc(main.cx, main.cy, main.r * rng.uniform(0.42, 0.58))
        lines.append(_circle_line(inner))
    a = rng.uniform(0.0, math.pi)
    for angle in (a, a + rng.uniform(0.38, 0.62) * math.pi):
        line = _through(main.cx, main.cy, angle)
        if inner is not None and rng.random() < 0.7:
            line = line.difference(Polygon(_circle_line(inner).coords))
        lines.append(line)
        directions.append(angle)
    if rng.random() < 0.8:
        corners = [(x0, y0), (x0 + width, y0), (x0 + width, y0 + height), (x0, y0 + height)]
        corners.sort(key=lambda c: -math.hypot(c[0] - main.cx, c[1] - main.cy))
        cx, cy = rng.choice(corners[:2])
        px = cx + (1 if cx == x0 else -1) * width * rng.uniform(0.12, 0.3)
        py = cy + (1 if cy == y0 else -1) * height * rng.uniform(0.12, 0.3)
        second = Disc(px, py, m * rng.uniform(0.16, 0.26))
        discs.append(second)
        lines.append(_circle_line(second))
        if rng.random() < 0.5:
            angle = math.atan2(main.cy - py, main.cx - px) + rng.uniform(-0.15, 0.15)
            lines.append(_through(px, py, angle))
            directions.append(angle)
    if rng.random() < 0.45:
        side = rng.randint(0, 3)
        big = m * rng.uniform(0.9, 1.3)
        along = rng.uniform(0.2, 0.8)
        centre = [
            (x0 + width * along, y0 - big * 0.55),
            (x0 + width + big * 0.55, y0 + height * along),
            (x0 + width * along, y0 + height + big * 0.55),
            (x0 - big * 0.55, y0 + height * along),
        ][side]
        lines.append(_circle_line(Disc(centre[0], centre[1], big)))
    clipped = [g.intersection(field) if not g.equals(field.exterior) else g for g in lines]
    faces = [
        shapely.set_precision(f, GRID)
        for f in polygonize(shapely.union_all(clipped, grid_size=GRID).geoms)
        if f.area > NOISE
    ]
    flip = rng.random() < 0.5
    reach = rng.uniform(0.15, 0.35) * m

    def axes_for(shape: Polygon) -> Axes:
        """Polar about the smallest disc holding the shape, else about a near disc or bands."""
        p = shape.representative_point()
        inside = [d for d in discs if math.hypot(p.x - d.cx, p.y - d.cy) < d.r]
        if inside:
            d = min(inside, key=lambda d: d.r)
            return Axes(True, d.cx, d.cy)
        nearest = min(discs, key=lambda d: math.hypot(p.x - d.cx, p.y - d.cy) - d.r)
        if math.hypot(p.x - nearest.cx, p.y - nearest.cy) - nearest.r < reach:
            return Axes(True, nearest.cx, nearest.cy)
        angle = directions[0] + (math.pi / 2 if flip else 0.0)
        return Axes(False, p.x, p.y, angle)

    target = field.area / count
    quality = Quality(SECTION_SHARE * target, 0.12 * math.sqrt(target))
    sections = exact_cells(faces, count, axes_for, rng, quality)
    sections = _balance(sections, axes_for, rng, quality)
    axes = [axes_for(s) for s in sections]
    areas = [s.area for s in sections]
    round_ = min(4 * math.pi * s.area / s.length**2 for s in sections)
    score = max(areas) / min(areas) + 4 * max(0.0, 0.4 - round_) + 5 * _cusps(sections)
    return Composition(sections, axes, score)


def _spread(cells: Sequence[Polygon]) -> float:
    areas = [float(c.area) for c in cells]
    return max(areas) / min(areas)


def _balance(
    cells: list[Polygon], axes_of: Callable[[Polygon], Axes], rng: Rng, quality: Quality
) -> list[Polygon]:
    """Even out the section areas: split the largest and merge the smallest, while it helps."""
    for _ in range(BALANCE):
        if len(cells) < 2 or _spread(cells) < 1.8:
            break
        trial = list(cells)
        big = max(range(len(trial)), key=lambda i: (trial[i].area, -i))
        pieces = _split(trial[big], axes_of(trial[big]), rng, quality)
        if pieces is None:
            break
        trial[big : big + 1] = pieces
        small = min(range(len(trial)), key=lambda i: (trial[i].area, i))
        if not _merge_into_neighbour(trial, small, prefer_small=True):
            break
        if _spread(trial) >= _spread(cells) or not all(quality.ok(c) for c in trial):
            break
        cells = trial
    return cells


def _cusps(shapes: Sequence[Polygon]) -> int:
    """How many corners sharper than :data:`CUSP` degrees the shapes have.

    Two borders crossing at such a small angle give corners the eye barely sees and spaces
    with needle tips, so compositions with them are scored down.
    """
    limit = math.radians(CUSP)
    count = 0
    for shape in shapes:
        pts = list(shape.exterior.coords)[:-1]
        for k, (x, y) in enumerate(pts):
            ax, ay = pts[k - 1]
            bx, by = pts[(k + 1) % len(pts)]
            u = (ax - x, ay - y)
            v = (bx - x, by - y)
            nu, nv = math.hypot(*u), math.hypot(*v)
            if nu < 1e-9 or nv < 1e-9:
                continue
            cos = (u[0] * v[0] + u[1] * v[1]) / (nu * nv)
            if math.acos(max(-1.0, min(1.0, cos))) < limit:
                count += 1
    return count


def compose(x0: float, y0: float, width: float, height: float, count: int, rng: Rng) -> Composition:
    """The best of a few compositions: sections of similar area and compact shape."""
    best: Composition | None = None
    for attempt in range(ATTEMPTS):
        try:
            comp = _compose_once(x0, y0, width, height, count, rng.child("try", attempt))
        except FitError:
            continue
        if best is None or comp.score < best.score:
            best = comp
        if best.score < 2.25:
            break
    if best is None:
        raise FitError(
            f"the field cannot be cut into {count} sections: use fewer sections or larger paper"
        )
    return best


def _node(cells: Sequence[Polygon]) -> list[Polygon]:
    """The same cells, each carrying a corner wherever another cell's corner lies on its border.

    After this, two cells that share a stretch of border share its end points as corners, so
    moving a corner moves it in every cell at once and the cells still tile.
    """
    net = shapely.union_all([c.boundary for c in cells], grid_size=NODE_GRID)
    faces = [f for f in polygonize(list(iter_lines(net))) if f.area > NOISE]
    tree = shapely.STRtree(faces)
    out = []
    for cell in cells:
        found = [
            faces[j]
            for j in tree.query(cell.representative_point(), predicate="intersects").tolist()
            if abs(faces[j].area - cell.area) < 1e-3 * cell.area + 1e-6
        ]
        out.append(found[0] if len(found) == 1 else cell)
    return out


def snap_vertices(shapes: Sequence[Polygon], radius: float) -> list[Polygon]:
    """Make corners that lie within ``radius`` of each other one point, in every shape.

    Used on noded cells only (see :func:`_node`), so a corner moves in every cell that has it.
    """
    cell = radius * 4
    grid: dict[tuple[int, int], list[tuple[float, float]]] = {}

    def home(x: float, y: float) -> tuple[float, float]:
        gx, gy = math.floor(x / cell), math.floor(y / cell)
        for i in (gx - 1, gx, gx + 1):
            for j in (gy - 1, gy, gy + 1):
                for q in grid.get((i, j), ()):
                    if math.hypot(q[0] - x, q[1] - y) <= radius:
                        return q
        grid.setdefault((gx, gy), []).append((x, y))
        return (x, y)

    result = []
    for shape in shapes:
        rings = [shape.exterior, *shape.interiors]
        moved = {(x, y): home(x, y) for r in rings for x, y in r.coords}
        result.append(
            Polygon(
                _moved(shape.exterior.coords, moved),
                [_moved(h.coords, moved) for h in shape.interiors],
            )
        )
    return result


def close_short_borders(
    cells: Sequence[Polygon], owner: Sequence[int], field: Polygon, shortest: float
) -> list[Polygon]:
    """Shrink every shared border shorter than ``shortest`` mm to a point.

    Neighbouring sections are cut independently, so a cut on one side of a border can end a
    hair's breadth from a cut on the other side; the two spaces between them would then be
    "next to" each other along a border nobody can see. The ends of such a border are made one
    corner, so the two spaces touch at that corner only. A corner on the field's edge never
    moves, a corner on a section border moves only along that border, and a change that would
    spoil a space or the tiling is not made.
    """
    cells = _node(cells)
    snapped = snap_vertices(cells, SNAP)
    if all(c.is_valid for c in snapped):
        cells = snapped
    quality = Quality(MIN_AREA, MIN_THICK)
    edge = field.exterior
    sections = [
        _union([c for c, o in zip(cells, owner, strict=True) if o == m]) for m in sorted(set(owner))
    ]
    borders = shapely.union_all([s.boundary for s in sections])
    for _ in range(3):
        changed = False
        tree = shapely.STRtree(cells)
        left, right = tree.query(cells, predicate="dwithin", distance=1e-6)
        keep = left < right
        left, right = left[keep], right[keep]
        rings = shapely.boundary(cells)
        lengths = shapely.length(shapely.intersection(rings[left], rings[right]))
        short = [
            (int(a), int(b))
            for a, b, length in zip(left, right, lengths, strict=True)
            if 0 < length < shortest
        ]
        if not short:
            break
        users: dict[tuple[float, float], set[int]] = {}
        for k, cell in enumerate(cells):
            for ring in (cell.exterior, *cell.interiors):
                for x, y in ring.coords:
                    users.setdefault((x, y), set()).add(k)
        for a, b in short:
            shared = cells[a].boundary.intersection(cells[b].boundary)
            pieces = list(iter_lines(shared))
            if not pieces or not 0 < sum(p.length for p in pieces) < shortest:
                continue
            chain = [(x, y) for piece in pieces for x, y in piece.coords]
            same = owner[a] == owner[b]
            level = {p: _pin(p, borders, edge) for p in chain}
            for target in sorted((chain[0], chain[-1]), key=lambda p: -level[p]):
                moved = {p: target for p in chain if p != target}
                if any(level[p] > (0 if same else min(level[target], 1)) for p in moved):
                    continue
                touched = sorted({k for p in moved for k in users.get(p, ())})
                trial = {
                    k: Polygon(
                        _moved(cells[k].exterior.coords, moved),
                        [_moved(h.coords, moved) for h in cells[k].interiors],
                    )
                    for k in touched
                }
                if all(t.is_valid and quality.ok(t) for t in trial.values()) and _same_cover(
                    [cells[k] for k in touched], list(trial.values())
                ):
                    for k, t in trial.items():
                        cells[k] = t
                    for p in moved:
                        for k in users.pop(p, set()):
                            users.setdefault(target, set()).add(k)
                    changed = True
                    break
        if not changed:
            break
    return cells


def _pin(p: tuple[float, float], borders: BaseGeometry, edge: BaseGeometry) -> int:
    """How fixed a corner is: 2 on the field's edge, 1 on a section border, 0 inside a section."""
    point = Point(p)
    if edge.distance(point) < 1e-6:
        return 2
    return 1 if borders.distance(point) < 1e-3 else 0


def _same_cover(before: Sequence[Polygon], after: Sequence[Polygon]) -> bool:
    """Whether the cells after a change still tile what they tiled before.

    Every cell that has a moved corner is among them, so their outline cannot change; they
    tile it still when their areas add up as before and no two of them overlap.
    """
    if abs(sum(c.area for c in after) - sum(c.area for c in before)) > 1e-6:
        return False
    pairs = list(itertools.combinations(range(len(after)), 2))
    if not pairs:
        return True
    left = [after[i] for i, _ in pairs]
    right = [after[j] for _, j in pairs]
    clash = shapely.intersects(left, right) & ~shapely.touches(left, right)
    return not bool(clash.any())


def _moved(
    coords: Sequence[tuple[float, float]], moved: Mapping[tuple[float, float], tuple[float, float]]
) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for p in coords:
        q = moved.get((p[0], p[1]), (p[0], p[1]))
        if not out or out[-1] != q:
            out.append(q)
    return out


def _key(p: tuple[float, float]) -> tuple[int, int]:
    return round(p[0] * 1e4), round(p[1] * 1e4)


def join_straight(pieces: Sequence[LineString]) -> list[LineString]:
    """Join line pieces end to end through crossings, always along the straightest way on.

    Heavy lines are drawn with butt ends, so a line that runs on through a crossing leaves no
    notch where three or four borders meet.
    """
    coords_of = [list(p.coords) for p in pieces if p.length > 1e-6]
    ends: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for i, c in enumerate(coords_of):
        ends.setdefault(_key(c[0]), []).append((i, 0))
        ends.setdefault(_key(c[-1]), []).append((i, 1))

    def heading(i: int, end: int) -> tuple[float, float]:
        """Direction leaving the node along piece i from its ``end``."""
        c = coords_of[i]
        a, b = (c[0], c[1]) if end == 0 else (c[-1], c[-2])
        d = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        return (b[0] - a[0]) / d, (b[1] - a[1]) / d

    partner: dict[tuple[int, int], tuple[int, int]] = {}
    for node in sorted(ends):
        here = list(ends[node])
        while len(here) >= 2:
            best: tuple[float, int, int] | None = None
            for x in range(len(here)):
                for y in range(x + 1, len(here)):
                    hx, hy = heading(*here[x]), heading(*here[y])
                    straight = hx[0] * hy[0] + hx[1] * hy[1]
                    if best is None or straight < best[0]:
                        best = (straight, x, y)
            assert best is not None
            if best[0] > -0.5 and len(here) > 2:
                break
            _, x, y = best
            partner[here[x]] = here[y]
            partner[here[y]] = here[x]
            here = [h for k, h in enumerate(here) if k not in (x, y)]
    used = [False] * len(coords_of)
    out: list[LineString] = []

    def walk(start: int, end: int) -> list[tuple[float, float]]:
        coords: list[tuple[float, float]] = []
        i, at = start, end
        while True:
            used[i] = True
            c = coords_of[i]
            seq = c if at == 0 else c[::-1]
            coords.extend(seq if not coords else seq[1:])
            nxt = partner.get((i, 1 - at))
            if nxt is None or used[nxt[0]]:
                return coords
            i, at = nxt

    for i in range(len(coords_of)):
        if used[i]:
            continue
        # Start from a free end if the chain has one, so the chain is drawn whole.
        j, at = i, 0
        seen = {i}
        while (j, at) in partner:
            k, kat = partner[(j, at)]
            if k in seen:
                break
            seen.add(k)
            j, at = k, 1 - kat
        out.append(LineString(walk(j, at)))
    return out


def _inner_lines(shapes: Sequence[Polygon], outline: BaseGeometry) -> list[LineString]:
    """The borders between the shapes, without the parts that lie on ``outline``."""
    net = unary_union([s.boundary for s in shapes])
    merged = linemerge(list(iter_lines(net)))
    keep = []
    for line in iter_lines(merged):
        mid = line.interpolate(0.5, normalized=True)
        if outline.distance(mid) > 1e-5:
            keep.append(line)
    return join_straight(keep)
