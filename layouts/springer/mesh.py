"""Springer's field: a jittered quad mesh, merged, split and bent into spaces of many shapes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from shapely.geometry import Point, Polygon

from papergames.sheets.rng import Rng
from papergames.sheets.score import BIG, SPACING

Point2 = tuple[float, float]


EDGES = ("top", "right", "bottom", "left")


MAX_CELL = 24.0
"""Largest mean cell size in mm: a mini-field stays compact instead of filling the page."""


ASPECT = 1.35
"""Most a mean cell may be taller than wide (or wider than tall)."""


SIZE_SPREAD = 0.22
"""Column widths and row heights vary by up to this fraction of their mean."""


JITTER = 0.3
"""Inner vertices move by up to this fraction of the narrower neighbouring column or row."""


QUAD_ANGLE = 55.0
"""Least angle in degrees of a mesh quadrilateral (its largest is then 360 - 3 x this)."""


BEND = 0.16
"""Most a bent border's middle is pushed aside, as a fraction of its length."""


BEND_SHARE = 0.25
"""Share of the inner borders that are tried for a bend."""


MIN_ANGLE = 28.0
"""Least angle in degrees of any space (the triangles cut from a cell are the sharpest)."""


MIN_BORDER = 3.0
"""Least length in mm of a border between two spaces: "next to" must be plain to see."""


MIN_AREA = 30.0
"""Least area in mm^2 of a space."""


MIN_INRADIUS = 2.8
"""Every space holds a disk of this radius in mm: room for a pencil's stroke."""


END_CLEAR = 1.5
"""Least distance in mm between a triangle's base end and any corner of a space on that edge."""


DEPTH = 10.0
"""Height in mm of a triangle, from the field's edge to its tip."""


TRIANGLE_GAP = 1.0
"""Least gap in mm between two triangles on one edge (they sit 3 mm apart where room allows)."""


MIN_BASE = 9.0
"""Least base of a triangle in mm: the number must fit inside."""


VALUE_SIZE = 3.8
"""Em size of the number in a triangle."""


STROKE_PAD = 0.6


TALLY_BOX = 9.0
"""Side of the four per-edge boxes of a score row: big enough for a handwritten number, and wide
enough that the edge names under them (at 7 pt) stay apart."""


SCORE_W = 3 * (BIG + SPACING) + 4 * TALLY_BOX


EDGE_LABEL_SIZE = 2.5
"""Type size in mm of the edge names under the score boxes (7.1 pt, readable at 100 %)."""


COLUMN_GAP = 10.0


LINE_GAP = 3.0


FIELD_GAP = 4.0


MAX_TRIES = 4
"""Tries to move one vertex before it keeps its place (which is always valid)."""


def signed_area(pts: Sequence[Point2]) -> float:
    """Twice the signed area (positive counter-clockwise in x-right, y-up axes)."""
    n = len(pts)
    return sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1] for i in range(n))


def interior_angles(pts: Sequence[Point2]) -> list[float]:
    """The interior angle in degrees at every vertex of a simple polygon (either orientation).

    Example:
        >>> [round(a) for a in interior_angles([(0, 0), (2, 0), (2, 1), (0, 1)])]
        [90, 90, 90, 90]
    """
    sign = 1.0 if signed_area(pts) > 0 else -1.0
    n = len(pts)
    out = []
    for i in range(n):
        ax, ay = pts[i - 1]
        bx, by = pts[i]
        cx, cy = pts[(i + 1) % n]
        ux, uy = cx - bx, cy - by
        wx, wy = ax - bx, ay - by
        turn = math.degrees(math.atan2(sign * (ux * wy - uy * wx), ux * wx + uy * wy))
        out.append(turn % 360.0)
    return out


def fillable(poly: Polygon) -> bool:
    """Whether a space is large and round enough to fill with a pencil."""
    if not poly.is_valid or poly.area < MIN_AREA:
        return False
    if min(interior_angles(list(poly.exterior.coords)[:-1])) < MIN_ANGLE:
        return False
    return not poly.buffer(-MIN_INRADIUS, quad_segs=2).is_empty


@dataclass
class _Face:
    """A space under construction: its corners (vertex ids, in order) and the cells it covers."""

    verts: list[int]
    cells: list[tuple[int, int]]
    shape: str = "cell"


@dataclass
class Mesh:
    """A planar division of the field into faces that share exact vertices.

    Attributes:
        pts: vertex coordinates by id.
        faces: the spaces; ``None`` marks a face removed by a merge.
        columns, rows: the grid the mesh started from.
        bounds: the field rectangle (x0, y0, x1, y1).
    """

    pts: list[Point2]
    faces: list[_Face | None]
    columns: int
    rows: int
    bounds: tuple[float, float, float, float]
    used: set[tuple[int, int]] = field(default_factory=set)
    cut_edges: set[tuple[int, int]] = field(default_factory=set)
    merged_at: set[int] = field(default_factory=set)
    removed_at: set[int] = field(default_factory=set)
    split_at: set[int] = field(default_factory=set)

    def vid(self, i: int, j: int) -> int:
        """The id of grid vertex (column line i, row line j)."""
        return j * (self.columns + 1) + i

    def polygon(self, verts: Sequence[int]) -> Polygon:
        return Polygon([self.pts[v] for v in verts])

    def face_of(self, cell: tuple[int, int]) -> int:
        """The index of grid cell (row, col) (1-based) in the initial list of faces."""
        r, c = cell
        return (r - 1) * self.columns + (c - 1)

    def live(self) -> list[_Face]:
        return [f for f in self.faces if f is not None]

    def insert_on_edge(self, u: int, v: int, w: int) -> None:
        """Put vertex ``w`` between ``u`` and ``v`` in every face that has the edge u-v."""
        for f in self.faces:
            if f is None:
                continue
            vs = f.verts
            n = len(vs)
            for k in range(n):
                a, b = vs[k], vs[(k + 1) % n]
                if (a, b) in ((u, v), (v, u)):
                    vs.insert(k + 1, w)
                    break


def _edge_key(u: int, v: int) -> tuple[int, int]:
    return (u, v) if u < v else (v, u)


def split_verts(verts: Sequence[int], p: int, q: int) -> tuple[list[int], list[int]]:
    """The two halves of a face cut by the chord between its vertices ``p`` and ``q``.

    Example:
        >>> split_verts([1, 2, 3, 4], 1, 3)
        ([1, 2, 3], [3, 4, 1])
    """
    vs = list(verts)
    i, j = vs.index(p), vs.index(q)
    if i > j:
        i, j = j, i
    return vs[i : j + 1], vs[j:] + vs[: i + 1]


def join_verts(a: Sequence[int], b: Sequence[int], u: int, v: int) -> list[int]:
    """One face from faces ``a`` (with edge u->v) and ``b`` (with edge v->u) across that edge.

    Example:
        >>> join_verts([1, 2, 3, 4], [2, 5, 6, 3], 2, 3)
        [3, 4, 1, 2, 5, 6]
    """
    ia = list(a).index(v)
    path_a = list(a[ia:]) + list(a[:ia])  # v ... u
    ib = list(b).index(u)
    path_b = list(b[ib:]) + list(b[:ib])  # u ... v
    return path_a + path_b[1:-1]


def _quad_ok(pts: Sequence[Point2]) -> bool:
    """Whether a mesh quadrilateral keeps its turn, its angles and sides long enough to cut."""
    angles = interior_angles(pts)
    sides = [math.dist(pts[k], pts[(k + 1) % 4]) for k in range(4)]
    return (
        signed_area(pts) > 0
        and all(QUAD_ANGLE <= a <= 180.0 - 1.0 for a in angles)
        and min(sides) >= 2 * MIN_BORDER
    )


def build_mesh(
    rng: Rng, columns: int, rows: int, x0: float, y0: float, width: float, height: float
) -> Mesh:
    """A jittered quadrilateral mesh of ``columns`` x ``rows`` cells tiling the rectangle."""

    def spans(count: int, total: float) -> list[float]:
        sizes = [rng.uniform(1 - SIZE_SPREAD, 1 + SIZE_SPREAD) for _ in range(count)]
        scale = total / sum(sizes)
        return [s * scale for s in sizes]

    ws, hs = spans(columns, width), spans(rows, height)
    xs = [x0 + sum(ws[:i]) for i in range(columns)] + [x0 + width]
    ys = [y0 + sum(hs[:j]) for j in range(rows)] + [y0 + height]
    pts: list[Point2] = [(xs[i], ys[j]) for j in range(rows + 1) for i in range(columns + 1)]
    mesh = Mesh(pts, [], columns, rows, (x0, y0, x0 + width, y0 + height))
    for r in range(rows):
        for c in range(columns):
            verts = [mesh.vid(c, r), mesh.vid(c + 1, r), mesh.vid(c + 1, r + 1), mesh.vid(c, r + 1)]
            mesh.faces.append(_Face(verts, [(r + 1, c + 1)]))

    order = [(i, j) for j in range(rows + 1) for i in range(columns + 1)]
    rng.shuffle(order)
    for i, j in order:
        on_x = i in (0, columns)
        on_y = j in (0, rows)
        if on_x and on_y:
            continue
        ax = 0.0 if on_x else JITTER * min(ws[i - 1], ws[i])
        ay = 0.0 if on_y else JITTER * min(hs[j - 1], hs[j])
        quads = [
            (c, r) for c in (i - 1, i) for r in (j - 1, j) if 0 <= c < columns and 0 <= r < rows
        ]
        v = mesh.vid(i, j)
        home = pts[v]
        for attempt in range(MAX_TRIES):
            scale = 1.0 - attempt / MAX_TRIES
            pts[v] = (
                home[0] + scale * rng.uniform(-ax, ax),
                home[1] + scale * rng.uniform(-ay, ay),
            )
            if all(
                _quad_ok([pts[k] for k in mesh.faces[r * columns + c].verts])  # type: ignore[union-attr]
                for c, r in quads
            ):
                break
        else:
            pts[v] = home
    return mesh


def _merge(mesh: Mesh, rng: Rng, wanted: int) -> list[tuple[int, int, int, int, list[int]]]:
    """Merge up to ``wanted`` pairs of neighbouring cells; return what is needed to undo each.

    A first pass keeps merged pairs from touching each other, so they spread over the field;
    a second pass only keeps them from sharing an end of the edge they remove, so each merge
    turns at most two four-way corners into three-way ones.
    """
    pairs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for r in range(1, mesh.rows + 1):
        for c in range(1, mesh.columns + 1):
            if c < mesh.columns:
                pairs.append(((r, c), (r, c + 1)))
            if r < mesh.rows:
                pairs.append(((r, c), (r + 1, c)))
    rng.shuffle(pairs)
    done: list[tuple[int, int, int, int, list[int]]] = []
    for strict, (a, b) in [(k, pair) for k in (True, False) for pair in pairs]:
        if len(done) >= wanted:
            break
        if a in mesh.used or b in mesh.used:
            continue
        ia, ib = mesh.face_of(a), mesh.face_of(b)
        fa, fb = mesh.faces[ia], mesh.faces[ib]
        assert fa is not None and fb is not None
        r, c = a
        if b == (r, c + 1):
            u, v = mesh.vid(c, r - 1), mesh.vid(c, r)  # right side of a, top down
        else:
            u, v = mesh.vid(c, r), mesh.vid(c - 1, r)  # bottom side of a, right to left
        corners = _corners(mesh, a) | _corners(mesh, b)
        clash = corners & mesh.merged_at if strict else {u, v} & mesh.removed_at
        if clash:
            continue
        joined = join_verts(fa.verts, fb.verts, u, v)
        if not fillable(mesh.polygon(joined)):
            continue
        done.append((ia, ib, u, v, list(fb.verts)))
        mesh.faces[ia] = _Face(joined, [a, b], "merged")
        mesh.faces[ib] = None
        mesh.used |= {a, b}
        mesh.merged_at |= corners
        mesh.removed_at |= {u, v}
    return done


def _unmerge(mesh: Mesh, undo: tuple[int, int, int, int, list[int]]) -> None:
    """Cut a merged face back into its two cells along the edge the merge removed."""
    ia, ib, u, v, _ = undo
    face = mesh.faces[ia]
    assert face is not None
    one, two = split_verts(face.verts, u, v)
    first_cell, second_cell = face.cells
    inside = mesh.polygon(one).contains(_cell_centre(mesh, first_cell))
    a_half, b_half = (one, two) if inside else (two, one)
    mesh.faces[ia] = _Face(a_half, [first_cell])
    mesh.faces[ib] = _Face(b_half, [second_cell])
    mesh.used -= {first_cell, second_cell}
    mesh.merged_at -= _corners(mesh, first_cell) | _corners(mesh, second_cell)
    mesh.removed_at -= {u, v}


def _corners(mesh: Mesh, cell: tuple[int, int]) -> set[int]:
    """The four grid vertices of cell (row, col)."""
    r, c = cell
    return {mesh.vid(c - 1, r - 1), mesh.vid(c, r - 1), mesh.vid(c, r), mesh.vid(c - 1, r)}


def _cell_centre(mesh: Mesh, cell: tuple[int, int]) -> Any:
    r, c = cell
    corners = [mesh.vid(c - 1, r - 1), mesh.vid(c, r - 1), mesh.vid(c, r), mesh.vid(c - 1, r)]
    return mesh.polygon(corners).centroid


def _split(mesh: Mesh, rng: Rng, wanted: int) -> int:
    """Cut up to ``wanted`` unmerged cells in two; return how many were cut.

    A first pass keeps cut cells from touching each other; a second takes any cell left.
    """
    cells = [
        (r, c)
        for r in range(1, mesh.rows + 1)
        for c in range(1, mesh.columns + 1)
        if (r, c) not in mesh.used
    ]
    rng.shuffle(cells)
    count = 0
    for strict, cell in [(k, cell) for k in (True, False) for cell in cells]:
        if count >= wanted:
            break
        if cell in mesh.used:
            continue
        index = mesh.face_of(cell)
        face = mesh.faces[index]
        assert face is not None
        r, c = cell
        a, b = mesh.vid(c - 1, r - 1), mesh.vid(c, r - 1)
        cc, d = mesh.vid(c, r), mesh.vid(c - 1, r)
        pa, pb, pc, pd = (mesh.pts[k] for k in (a, b, cc, d))
        wide = math.dist(pa, pb) + math.dist(pd, pc)
        tall = math.dist(pa, pd) + math.dist(pb, pc)
        options: list[tuple[str, int, int, int, int]] = []
        corners = {a, b, cc, d}
        if strict and corners & mesh.split_at:
            continue
        diagonal = rng.random() < 0.45
        # Cut across the longer sides so the halves stay as round as possible.
        if wide > 1.15 * tall:
            across = "v"
        elif tall > 1.15 * wide:
            across = "h"
        else:
            across = "v" if rng.random() < 0.5 else "h"
        for kind in ["diag", across] if diagonal else [across, "diag"]:
            if kind == "diag":
                first = rng.random() < 0.5
                options.append(("diag", *((a, cc, b, d) if first else (b, d, a, cc))))
            elif kind == "v":
                options.append(("cut", a, b, d, cc))  # top edge a-b, bottom edge d-c
            else:
                options.append(("cut", a, d, b, cc))  # left edge a-d, right edge b-c
        t1, t2 = rng.uniform(0.35, 0.65), rng.uniform(0.35, 0.65)
        for kind, p1, p2, p3, p4 in options:
            if kind == "diag":
                if len(face.verts) != 4:
                    continue
                chords = [(p1, p2), (p3, p4)]
                # A chord may not end on the outline except at a field corner: a half would
                # touch the outline (and maybe a triangle) at a single point.
                chords = [(x, y) for x, y in chords if not (_on_side(mesh, x) or _on_side(mesh, y))]
                halves = [split_verts(face.verts, x, y) for x, y in chords]
                polys = [(h, mesh.polygon(h[0]), mesh.polygon(h[1])) for h in halves]
                good = [h for h, x, y in polys if fillable(x) and fillable(y)]
                if not good:
                    continue
                one, two = good[0]
                _replace_halves(mesh, index, cell, one, two)
                count += 1
                break
            e1, e2 = _edge_key(p1, p2), _edge_key(p3, p4)
            if e1 in mesh.cut_edges or e2 in mesh.cut_edges:
                continue
            if not (_consecutive(face.verts, p1, p2) and _consecutive(face.verts, p3, p4)):
                continue
            q1 = _lerp(mesh, p1, p2, t1)
            q2 = _lerp(mesh, p3, p4, t2)
            ends = (mesh.pts[p1], mesh.pts[p2], mesh.pts[p3], mesh.pts[p4])
            if (
                min(math.dist(q, e) for q, e in zip((q1, q1, q2, q2), ends, strict=True))
                < MIN_BORDER
            ):
                continue
            trial = list(face.verts)
            _insert(trial, p1, p2, len(mesh.pts))
            _insert(trial, p3, p4, len(mesh.pts) + 1)
            mesh.pts.extend([q1, q2])
            one, two = split_verts(trial, len(mesh.pts) - 2, len(mesh.pts) - 1)
            if fillable(mesh.polygon(one)) and fillable(mesh.polygon(two)):
                w1, w2 = len(mesh.pts) - 2, len(mesh.pts) - 1
                mesh.insert_on_edge(p1, p2, w1)
                mesh.insert_on_edge(p3, p4, w2)
                face = mesh.faces[index]
                assert face is not None
                one, two = split_verts(face.verts, w1, w2)
                mesh.cut_edges |= {e1, e2}
                _replace_halves(mesh, index, cell, one, two)
                count += 1
                break
            del mesh.pts[-2:]
    return count


def _on_side(mesh: Mesh, v: int) -> bool:
    """Whether vertex ``v`` lies on the outline but is not one of the field's four corners."""
    x, y = mesh.pts[v]
    x0, y0, x1, y1 = mesh.bounds
    on_x, on_y = x in (x0, x1), y in (y0, y1)
    return on_x != on_y


def _consecutive(verts: Sequence[int], u: int, v: int) -> bool:
    n = len(verts)
    return any((verts[k], verts[(k + 1) % n]) in ((u, v), (v, u)) for k in range(n))


def _insert(verts: list[int], u: int, v: int, w: int) -> None:
    n = len(verts)
    for k in range(n):
        if (verts[k], verts[(k + 1) % n]) in ((u, v), (v, u)):
            verts.insert(k + 1, w)
            return


def _lerp(mesh: Mesh, u: int, v: int, t: float) -> Point2:
    """The point at ``t`` along edge u-v, snapped onto the outline when the edge lies on it."""
    (ux, uy), (vx, vy) = mesh.pts[u], mesh.pts[v]
    x, y = ux + t * (vx - ux), uy + t * (vy - uy)
    if ux == vx:
        x = ux
    if uy == vy:
        y = uy
    return (x, y)


def _replace_halves(
    mesh: Mesh, index: int, cell: tuple[int, int], one: list[int], two: list[int]
) -> None:
    """Put the two halves of a cut cell in the mesh: the first in place, the second appended."""
    mesh.split_at |= _corners(mesh, cell)
    mesh.faces[index] = _Face(one, [cell], "half")
    mesh.faces.append(_Face(two, [cell], "half"))
    mesh.used.add(cell)


def vary(mesh: Mesh, rng: Rng, pairs: int) -> tuple[int, int]:
    """Merge ``pairs`` pairs of cells and cut as many other cells, keeping the count exact.

    Returns:
        (merged, split): how many of each were made; always equal.
    """
    merges = _merge(mesh, rng.child("merge"), pairs)
    cuts = _split(mesh, rng.child("split"), len(merges))
    while len(merges) > cuts:
        _unmerge(mesh, merges.pop())
    return len(merges), cuts


def bend(mesh: Mesh, rng: Rng, share: float) -> int:
    """Bend about ``share`` of the inner borders by pushing a point near their middle aside.

    A bend only moves area between the two spaces on either side of a border, so the count and
    the tiling stay as they are; it is kept only when both spaces stay fillable. The new point
    has two spaces meeting at it, so it never makes a corner for chains.

    Returns:
        How many borders were bent.
    """
    sides_of = _inner_edges(mesh)
    edges = sorted(sides_of)
    rng.shuffle(edges)
    count = 0
    for u, v in edges[: round(share * len(edges))]:
        (ux, uy), (vx, vy) = mesh.pts[u], mesh.pts[v]
        length = math.hypot(vx - ux, vy - uy)
        t = rng.uniform(0.4, 0.6)
        push = rng.choice((-1.0, 1.0)) * rng.uniform(0.08, BEND) * length
        nx, ny = -(vy - uy) / length, (vx - ux) / length
        w = (ux + t * (vx - ux) + push * nx, uy + t * (vy - uy) + push * ny)
        faces = [mesh.faces[k] for k in sides_of[(u, v)]]
        before = [mesh.polygon(f.verts) for f in faces if f is not None]
        mesh.pts.append(w)
        trial = []
        for f in faces:
            assert f is not None
            verts = list(f.verts)
            _insert(verts, u, v, len(mesh.pts) - 1)
            trial.append(verts)
        polys = [mesh.polygon(verts) for verts in trial]
        # The point must fall inside one of the two spaces, which gives up a sliver to the other.
        if (
            any(b.contains(Point(w)) for b in before)
            and abs(sum(p.area for p in polys) - sum(b.area for b in before)) < 1e-6
            and all(fillable(p) for p in polys)
        ):
            for f, verts in zip(faces, trial, strict=True):
                assert f is not None
                f.verts = verts
            count += 1
        else:
            mesh.pts.pop()
    return count


def _inner_edges(mesh: Mesh) -> dict[tuple[int, int], list[int]]:
    """The borders shared by two spaces (smaller vertex id first), with those spaces' indices."""
    sides: dict[tuple[int, int], list[int]] = {}
    for k, f in enumerate(mesh.faces):
        if f is None:
            continue
        n = len(f.verts)
        for i in range(n):
            sides.setdefault(_edge_key(f.verts[i], f.verts[(i + 1) % n]), []).append(k)
    return {e: ks for e, ks in sides.items() if len(ks) == 2}
