"""Springer (Sid Sackson): a rectangle of spaces meeting four at a corner, numbered triangles.

The field is a rectangle cut into ``columns`` x ``rows`` spaces (12 x 9 = 108 in the book). It
starts as a quadrilateral mesh: column widths and row heights vary, and every inner vertex is
moved at random within bounds that keep each quadrilateral convex with no angle under
:data:`QUAD_ANGLE`. For variety of shape and size, ``variety`` pairs of neighbouring spaces are
merged into one and as many other spaces are cut in two (by a diagonal into two triangles, or by
a line across into two quadrilaterals), so the count stays ``columns x rows`` by construction:
each merge is paired with one cut, and merges that find no partner cut are undone. Last, about
a quarter of the inner borders are bent by pushing a point near their middle aside (kept only
where both spaces stay fillable), so the field reads as drawn rather than ruled. Most inner
vertices still have four spaces meeting at them, which is what the game needs: chains run from
space to space through shared corners. Every space has an area of at least :data:`MIN_AREA`,
no angle under :data:`MIN_ANGLE` and room for a disk of radius :data:`MIN_INRADIUS`.

Conventions the rules engine and the photo reader rely on:

* ``space-<n>``: the spaces row by row, left to right (ordered by the grid cell they come from;
  the two halves of a cut cell upper one first, then left one first). Data: ``row`` and ``col``
  (1-based, the first grid cell of the space), ``cells`` (the grid cells it covers, two for a
  merged space) and ``shape`` (``cell``, ``merged`` or ``half``).
* ``line-1``: the heavy outline of the field; ``line-2`` ..: the inner lines, each a chain of
  mesh edges that runs on straight through four-way corners.
* ``triangle-<n>``: the numbered triangles outside the field, numbered clockwise from the top
  left corner (top edge left to right, right edge top down, bottom edge right to left, left edge
  bottom up). Each one's base lies on the field's edge; its data: ``value`` (1..5), ``edge``
  (``top``, ``right``, ``bottom``, ``left``), ``index`` (1.. along its edge, clockwise) and
  ``touches``: the spaces whose border shares a stretch of the base. A base never ends within
  :data:`END_CLEAR` mm of a corner of a space, so whether a space touches a triangle is never a
  matter of a point.
* Score rows (:func:`papergames.score.score_area`): ``box-initials-<p>``, ``box-legend-<p>``,
  ``box-total-<p>`` and four boxes ``box-tally<p>-<k>``, one per edge in the order top, right,
  bottom, left, for the value of the triangle the player took there.
* Page data: ``columns``, ``rows``, ``spaces``, ``triangles_per_edge``, ``triangles`` (id, edge,
  value, touches of each), ``four_corners`` (every point inside the field where four or more
  spaces meet: ``x``, ``y`` and the ``spaces``), ``four_corner_count``, ``inner_vertices`` (points
  inside the field where three or more spaces meet), ``merged``, ``split``, ``bent``,
  ``players``, ``target``.

Triangle values: with ``triangles=5`` (the default) each edge carries 1, 2, 3, 4 and 5 once, in
a random order, so every edge offers a 4 or a 5 and a total of 13 is always within reach. With
fewer triangles an edge carries distinct random values; with more, every value appears as evenly
as possible.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import linemerge
from shapely.ops import split as shp_split

from papergames.compose import Frame
from papergames.errors import FitError, SpecError
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import Feature, Item, Kind, Layer, Sheet, Style, Text
from papergames.params import Param, ParamSet
from papergames.rng import Rng
from papergames.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.score import BIG, SPACING, score_area, score_area_height
from papergames.topology import TOLERANCE

Point2 = tuple[float, float]

EDGES = ("top", "right", "bottom", "left")

MIN_CELL = 9.0
"""Least mean width and height in mm of a grid cell: its halves must still take a pencil."""
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
TALLY_BOX = 8.0
"""Side of the four per-edge boxes of a score row: big enough for a handwritten number."""
SCORE_W = 3 * (BIG + SPACING) + 4 * TALLY_BOX
EDGE_LABEL_SIZE = 1.8
COLUMN_GAP = 10.0
LINE_GAP = 3.0
FIELD_GAP = 4.0
MAX_TRIES = 4
"""Tries to move one vertex before it keeps its place (which is always valid)."""


# --- the plan: where the field and the score rows go ------------------------------------------


@dataclass(frozen=True)
class Plan:
    """The placement on one page.

    Attributes:
        x0, y0: top-left corner of the field.
        width, height: the field's size.
        rows: top-left corners of the players' score rows.
    """

    x0: float
    y0: float
    width: float
    height: float
    rows: tuple[Point2, ...]


def _cells(aw: float, ah: float, columns: int, rows: int) -> tuple[float, float]:
    """Mean cell width and height for a field block of ``aw`` x ``ah`` mm (triangles included)."""
    cw = min(MAX_CELL, (aw - 2 * (DEPTH + STROKE_PAD)) / columns)
    ch = min(MAX_CELL, (ah - 2 * (DEPTH + STROKE_PAD)) / rows)
    cw, ch = min(cw, ASPECT * ch), min(ch, ASPECT * cw)
    return cw, ch


def plan_page(frame: Frame, params: Mapping[str, Any]) -> Plan:
    """Make the field as large as the frame allows, with the score rows under or beside it.

    Raises:
        FitError: when the cells would be smaller than :data:`MIN_CELL`.
    """
    columns: int = params["columns"]
    rows: int = params["rows"]
    players: int = params["players"]
    row_h = score_area_height(4, SCORE_W, TALLY_BOX)
    best: tuple[float, Plan] | None = None
    smallest = 0.0
    for under in (True, False):
        if under:
            cols = max(1, min(players, int((frame.w + COLUMN_GAP) // (SCORE_W + COLUMN_GAP))))
            lines = math.ceil(players / cols)
            block_w = cols * SCORE_W + (cols - 1) * COLUMN_GAP
            block_h = lines * row_h + (lines - 1) * LINE_GAP
            aw, ah = frame.w, frame.h - block_h - FIELD_GAP
        else:
            cols, lines = 1, players
            block_w, block_h = SCORE_W, players * row_h + (players - 1) * LINE_GAP
            aw, ah = frame.w - block_w - FIELD_GAP, frame.h
        if block_w > frame.w or block_h > frame.h:
            continue
        cw, ch = _cells(aw, ah, columns, rows)
        smallest = max(smallest, min(cw, ch))
        if min(cw, ch) < MIN_CELL:
            continue
        width, height = columns * cw, rows * ch
        outer_w, outer_h = width + 2 * DEPTH, height + 2 * DEPTH
        if under:
            top = frame.y + (frame.h - outer_h - FIELD_GAP - block_h) / 2
            x0 = frame.x + (frame.w - width) / 2
            y0 = top + DEPTH
            bx = frame.x + (frame.w - block_w) / 2
            by = top + outer_h + FIELD_GAP
        else:
            left = frame.x + (frame.w - outer_w - FIELD_GAP - block_w) / 2
            x0 = left + DEPTH
            y0 = frame.y + (frame.h - height) / 2
            bx = left + outer_w + FIELD_GAP
            by = frame.y + (frame.h - block_h) / 2
        corners = []
        for p in range(players):
            line, place = divmod(p, cols)
            in_line = min(cols, players - line * cols)
            # A short last line is centred under the full ones.
            shift = (cols - in_line) * (SCORE_W + COLUMN_GAP) / 2
            corners.append(
                (bx + shift + place * (SCORE_W + COLUMN_GAP), by + line * (row_h + LINE_GAP))
            )
        plan = Plan(x0, y0, width, height, tuple(corners))
        area = width * height
        if best is None or area > best[0] + 1e-6:
            best = (area, plan)
    if best is None:
        raise FitError(
            f"columns={columns} and rows={rows} make spaces only {_down(smallest)} mm across "
            f"on this paper (at least {MIN_CELL:.0f} mm are needed): use fewer columns or rows, "
            "or larger paper"
        )
    return best[1]


def _down(value: float) -> str:
    """A length rounded down to a tenth, so a shortfall never prints as the bound itself."""
    return f"{math.floor(value * 10) / 10:.1f}"


# --- polygon measures -------------------------------------------------------------------------


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


# --- the mesh ---------------------------------------------------------------------------------


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


# --- lines ------------------------------------------------------------------------------------


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


# --- triangles --------------------------------------------------------------------------------


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


# --- the layout -------------------------------------------------------------------------------


def corner_points(mesh: Mesh, order: Sequence[int]) -> tuple[list[dict[str, Any]], int]:
    """Points inside the field where four or more spaces meet, and the count where three or more do.

    ``order`` gives each live face's space number.
    """
    x0, y0, x1, y1 = mesh.bounds
    meeting: dict[int, list[int]] = {}
    for f, number in zip(mesh.live(), order, strict=True):
        for v in f.verts:
            meeting.setdefault(v, []).append(number)
    four: list[dict[str, Any]] = []
    inner = 0
    for v in sorted(meeting, key=lambda k: (mesh.pts[k][1], mesh.pts[k][0])):
        x, y = mesh.pts[v]
        if x in (x0, x1) or y in (y0, y1):
            continue
        numbers = sorted(meeting[v])
        if len(numbers) >= 3:
            inner += 1
        if len(numbers) >= 4:
            four.append(
                {
                    "x": round(x, 3),
                    "y": round(y, 3),
                    "spaces": [f"space-{n}" for n in numbers],
                }
            )
    return four, inner


def _score_row(player: int, x: float, y: float) -> list[Item]:
    """The standard score row, its four boxes captioned with the edge each stands for."""
    area = score_area(player, x, y, SCORE_W, 4, tally_size=TALLY_BOX)
    items: list[Item] = []
    for item in area.items:
        if item.id == f"caption-tally-{player}" and isinstance(item, Text):
            items.append(
                Text(item.id, item.x, item.y, "triangle on each edge", item.size, layer=Layer.SCORE)
            )
        else:
            items.append(item)
    for k, edge in enumerate(EDGES, start=1):
        tally = next(
            i for i in area.items if isinstance(i, Feature) and i.id == f"box-tally{player}-{k}"
        )
        bx0, _, bx1, by1 = tally.geometry.bounds
        items.append(
            Text(
                f"caption-edge{player}-{k}",
                (bx0 + bx1) / 2,
                by1 + 2.0,
                edge,
                EDGE_LABEL_SIZE,
                "middle",
                layer=Layer.SCORE,
            )
        )
    return items


class SpringerLayout(Layout):
    """Springer: a field of spaces meeting at corners, numbered triangles on every edge."""

    name = "springer"
    params = ParamSet(
        [
            Param.int("columns", 12, 2, 18, "spaces across the field (before merges and cuts)"),
            Param.int("rows", 9, 2, 18, "spaces down the field; spaces = columns x rows"),
            Param.int("triangles", 5, 2, 10, "numbered triangles on each edge"),
            Param.int(
                "variety",
                9,
                0,
                54,
                "pairs of spaces merged, each balanced by a space cut in two "
                "(at most columns x rows / 6)",
            ),
            Param.int("players", 2, 2, 3, "score rows (3 players: no minimum total)"),
            Param.int("target", 13, 4, 20, "least total of four triangles that wins (2 players)"),
        ]
    )
    how_to_play = """\
The field: a rectangle divided into spaces of many shapes and sizes, with numbered triangles \
(1 to 5) outside it along all four edges. Spaces often meet four at a corner. Each player takes \
a pencil of his own colour and colours the box beside his initials with it.

A turn: fill one empty space with your colour. You may never fill a space next to one of your \
own colour; "next to" means sharing a stretch of border, and touching only at a corner does not \
count. Instead of a space you may fill an empty triangle, but only one triangle on each edge \
per player; write its number in your box for that edge.

Chains: a chain is a set of spaces of one colour connected through shared corners. A chain \
reaches a triangle when one of its spaces touches that triangle's base, and a chain scores the \
triangles of its owner's colour that it reaches.

Winning, two players: you win by completing a chain that reaches one of your triangles on each \
of the four edges with a total of 13 or more (the target printed on the sheet). If the first \
player does it first, the second player gets one last turn. If both complete a chain, the \
higher total wins; equal totals draw. If nobody completes a chain, the higher total of \
triangles connected to wins.

Three players: a chain to one of your triangles on each edge wins, whatever its total; usually \
nobody manages it and the highest total of triangles connected to wins.

Variations for experienced players: change the target; before play each player draws a line \
that cuts one space in two; or on his first turn each player fills two neighbouring spaces, \
which then count as one.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """Keep the number of merged pairs within a sixth of the spaces."""
        most = params["columns"] * params["rows"] // 6
        if params["variety"] > most:
            raise SpecError(
                f"variety={params['variety']} is too many for columns={params['columns']} and "
                f"rows={params['rows']}: variety may be at most columns x rows / 6 = {most}"
            )

    def notes(self) -> list[str]:
        """How the count is kept exact and what caps the grid."""
        return [
            "spaces = columns x rows exactly: each merged pair is balanced by one space cut in two",
            f"cells are at least {MIN_CELL:.0f} mm across on average, which caps columns and rows "
            "on small paper",
        ]

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = ctx.params
        columns: int = params["columns"]
        rows: int = params["rows"]
        per_edge: int = params["triangles"]
        players: int = params["players"]
        target: int = params["target"]
        plan = plan_page(ctx.frame.inset(STROKE_PAD), params)
        mesh = build_mesh(ctx.rng("mesh"), columns, rows, plan.x0, plan.y0, plan.width, plan.height)
        merged, split = vary(mesh, ctx.rng("variety"), params["variety"])
        bent = bend(mesh, ctx.rng("bend"), BEND_SHARE)
        faces = mesh.live()
        if len(faces) != columns * rows:
            raise AssertionError(
                f"springer columns={columns} rows={rows}: made {len(faces)} spaces, "
                f"not {columns * rows}"
            )
        polys = [mesh.polygon(f.verts) for f in faces]
        keys = [
            (f.cells[0][0], f.cells[0][1], round(p.centroid.y, 6), round(p.centroid.x, 6))
            for f, p in zip(faces, polys, strict=True)
        ]
        ranking = sorted(range(len(faces)), key=lambda k: keys[k])
        number = [0] * len(faces)
        for n, k in enumerate(ranking, start=1):
            number[k] = n

        items: list[Item] = []
        spaces: dict[str, Polygon] = {}
        for k in ranking:
            f = faces[k]
            sid = f"space-{number[k]}"
            spaces[sid] = polys[k]
            items.append(
                Feature(
                    sid,
                    Kind.SPACE,
                    polys[k],
                    data={
                        "row": f.cells[0][0],
                        "col": f.cells[0][1],
                        "cells": [list(c) for c in f.cells],
                        "shape": f.shape,
                    },
                )
            )
        x0, y0, x1, y1 = mesh.bounds
        outline = box(x0, y0, x1, y1)
        items.append(
            Feature(
                "line-1",
                Kind.LINE,
                LineString([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]),
                Style.HEAVY,
                data={"outline": True},
            )
        )
        for n, line in enumerate(inner_lines(mesh), start=2):
            items.append(
                Feature(
                    f"line-{n}",
                    Kind.LINE,
                    LineString([mesh.pts[v] for v in line]),
                    Style.MEDIUM,
                )
            )
        triangles = place_triangles(mesh, ctx.rng("values"), per_edge)
        tri_data: list[dict[str, Any]] = []
        for n, tri in enumerate(triangles, start=1):
            touches = base_touches(spaces, tri)
            if not touches:
                raise AssertionError(f"triangle-{n} touches no space")
            facts = {"value": tri.value, "edge": tri.edge, "index": tri.index, "touches": touches}
            items.append(
                Feature(
                    f"triangle-{n}", Kind.TRIANGLE, Polygon(tri.corners), Style.MEDIUM, data=facts
                )
            )
            (ax, ay), (bx, by), (tx, ty) = tri.corners
            mx, my = (ax + bx) / 2, (ay + by) / 2
            cx, cy = mx + 0.36 * (tx - mx), my + 0.36 * (ty - my)
            items.append(
                Text(
                    f"label-triangle-{n}",
                    cx,
                    cy + 0.36 * VALUE_SIZE,
                    str(tri.value),
                    VALUE_SIZE,
                    "middle",
                    bold=True,
                )
            )
            tri_data.append({"id": f"triangle-{n}", **facts})
        for p, (sx, sy) in enumerate(plan.rows, start=1):
            items.extend(_score_row(p, sx, sy))
        four, inner = corner_points(mesh, number)
        data: dict[str, Any] = {
            "columns": columns,
            "rows": rows,
            "spaces": len(faces),
            "triangles_per_edge": per_edge,
            "triangles": tri_data,
            "four_corners": four,
            "four_corner_count": len(four),
            "inner_vertices": inner,
            "merged": merged,
            "split": split,
            "bent": bent,
            "players": players,
            "target": target,
        }
        goal = f"total {target} or more" if players == 2 else "any total"
        subtitle = (
            f"{len(faces)} spaces: chain your colour corner to corner to a triangle on every "
            f"edge, {goal}"
        )
        return [PageBody(items, subtitle, outline, data)]


LAYOUT = SpringerLayout()


# --- the rules --------------------------------------------------------------------------------

EMPTY = -1
"""An empty space or triangle in :class:`SpringerState`."""
SPLIT_LEAST = 1.0
"""Least area in mm^2 of either part of a divided space (variation 2)."""
_SPACE_NAME = re.compile(r"space-(\d+)([ab]*)")
_TRIANGLE_NAME = re.compile(r"triangle-(\d+)")


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
class SpringerMove:
    """One move: ``kind`` is ``space``, ``double``, ``triangle`` or ``split``.

    ``names`` holds the space (one), the two spaces of a double first move, the triangle, or the
    divided space and its two borders (a :class:`Split`'s fields in order).
    """

    kind: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class SpringerState:
    """A position.

    Attributes:
        owners: the player who filled each space (:data:`EMPTY` if nobody), in the order of the
            field the splits made (the sheet's spaces when there are none).
        triangles: the player who filled each triangle, in sheet order.
        splits: the spaces divided before play (variation 2), in the order made.
        turns: how many turns of play each player has had (set-up excluded).
        turn: the player to move, ``None`` once the game is over.
        totals: each player's score: the triangles his best chain reaches (or, with
            ``scoring=all``, those any of his spaces reach).
        complete: whether each player has completed a winning chain.
    """

    owners: tuple[int, ...]
    triangles: tuple[int, ...]
    splits: tuple[Split, ...]
    turns: tuple[int, ...]
    turn: int | None
    totals: tuple[int, ...]
    complete: tuple[bool, ...]


@dataclass(frozen=True)
class _Field:
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


class SpringerRules(Rules[SpringerState, SpringerMove]):
    """Springer: fill spaces, never next to your own colour, and chain corner to corner to a
    triangle of yours on every edge.

    Moves: a space (``space-17``), a triangle (``triangle-3``: by model id, as its printed number
    is its value), a double first move (``space-17+space-18``, variation 3) and, before play, a
    division (``split space-17 space-5 top``, variation 2). Options: ``target`` (0: the sheet's),
    ``split``, ``double`` and ``scoring`` (``chain``: the best chain's triangles; ``all``: every
    triangle any of one's spaces reaches).
    """

    game = "springer"
    notation = (
        "space-17, triangle-3; double first move space-17+space-18; "
        "set-up split space-17 BORDER BORDER (a neighbour or top/right/bottom/left)"
    )
    options = ParamSet(
        [
            Param.int("target", 0, 0, 40, "least total of a winning chain (0: the sheet's target)"),
            Param.bool("split", False, "variation 2: each player first divides a space in two"),
            Param.bool(
                "double", False, "variation 3: each first turn fills two neighbouring spaces"
            ),
            Param.choice(
                "scoring",
                "chain",
                ("chain", "all"),
                "without a winning chain: the best chain's triangles, or all reached ones",
            ),
        ]
    )

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        page = sheet.pages[0]
        spaces = list(page.features(Kind.SPACE))
        tris = list(page.features(Kind.TRIANGLE))
        self.tri_ids = [t.id for t in tris]
        self.tri_index = {t: k for k, t in enumerate(self.tri_ids)}
        self.values: list[int] = [int(t.data["value"]) for t in tris]
        self.edges: list[str] = [str(t.data["edge"]) for t in tris]
        self.bases = [LineString(list(t.geometry.exterior.coords)[:2]) for t in tris]
        x0, y0, x1, y1 = next(
            f for f in page.features(Kind.LINE) if f.id == "line-1"
        ).geometry.bounds
        self.sides = {
            "top": LineString([(x0, y0), (x1, y0)]),
            "right": LineString([(x1, y0), (x1, y1)]),
            "bottom": LineString([(x1, y1), (x0, y1)]),
            "left": LineString([(x0, y1), (x0, y0)]),
        }
        self.target: int = self.option_values["target"] or int(page.data["target"])
        self.any_total = len(players) >= 3
        self.split = bool(self.option_values["split"])
        self.double = bool(self.option_values["double"])
        self.all_reached = self.option_values["scoring"] == "all"
        topo = page.topology
        ids = tuple(f.id for f in spaces)
        index = {s: k for k, s in enumerate(ids)}
        reaches: list[list[int]] = [[] for _ in ids]
        for t, tri in enumerate(tris):
            for s in tri.data["touches"]:
                reaches[index[s]].append(t)
        self.base_field = _Field(
            ids,
            index,
            tuple(f.geometry for f in spaces),
            tuple(frozenset(index[n] for n in topo.neighbours[s]) for s in ids),
            tuple(tuple(sorted(index[n] for n in topo.touching(s))) for s in ids),
            tuple(tuple(r) for r in reaches),
        )
        self._fields: dict[tuple[Split, ...], _Field] = {(): self.base_field}

    # -- the field, divided ----------------------------------------------------------------

    def field(self, splits: tuple[Split, ...]) -> _Field:
        """The spaces after ``splits`` (each assumed valid), computed once."""
        known = self._fields.get(splits)
        if known is None:
            parent = self.field(splits[:-1])
            made = self._divide(parent, splits[-1])
            if isinstance(made, str):
                raise AssertionError(made)
            known = self._fields[splits] = made
        return known

    def borders(self, fld: _Field, space: int) -> dict[str, LineString]:
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

    def _divide(self, fld: _Field, split: Split) -> _Field | str:
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
        # that touched it (as papergames.topology does for the whole sheet) and against each
        # other.
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
                if half.distance(geom) > TOLERANCE:
                    continue
                touch[hid].add(other)
                touch[other].add(hid)
                if half.boundary.intersection(geom.buffer(TOLERANCE)).length > 10 * TOLERANCE:
                    edge[hid].add(other)
                    edge[other].add(hid)
        index = {sid: n for n, sid in enumerate(ids)}
        reaches = [fld.reaches[fld.index[sid]] if sid in fld.index else () for sid in ids]
        for hid, half in halves.items():
            reaches[index[hid]] = tuple(
                t for t in fld.reaches[k] if half.boundary.intersection(self.bases[t]).length > 1e-6
            )
        return _Field(
            tuple(ids),
            index,
            tuple(polys),
            tuple(frozenset(index[m] for m in edge[sid]) for sid in ids),
            tuple(tuple(sorted(index[m] for m in touch[sid])) for sid in ids),
            tuple(reaches),
        )

    # -- state ------------------------------------------------------------------------------

    def initial(self) -> SpringerState:
        n = len(self.players)
        return SpringerState(
            (EMPTY,) * len(self.base_field.ids),
            (EMPTY,) * len(self.tri_ids),
            (),
            (0,) * n,
            0,
            (0,) * n,
            (False,) * n,
        )

    def to_move(self, state: SpringerState) -> int | None:
        return state.turn

    def setting_up(self, state: SpringerState) -> bool:
        """Whether players are still dividing spaces (variation 2)."""
        return self.split and len(state.splits) < len(self.players)

    def _first_double(self, state: SpringerState, player: int) -> bool:
        return self.double and state.turns[player] == 0

    def chains(self, state: SpringerState, player: int) -> list[list[int]]:
        """The player's chains: his spaces grouped by contact (corners; a double is one space)."""
        fld = self.field(state.splits)
        seen: set[int] = set()
        out: list[list[int]] = []
        for start, owner in enumerate(state.owners):
            if owner != player or start in seen:
                continue
            chain, todo = [start], [start]
            seen.add(start)
            while todo:
                for m in fld.touching[todo.pop()]:
                    if m not in seen and state.owners[m] == player:
                        seen.add(m)
                        chain.append(m)
                        todo.append(m)
            out.append(sorted(chain))
        return out

    def reached(self, state: SpringerState, player: int, chain: Sequence[int]) -> list[int]:
        """The player's own triangles that one of the chain's spaces touches."""
        fld = self.field(state.splits)
        found = {t for s in chain for t in fld.reaches[s] if state.triangles[t] == player}
        return sorted(found)

    def _assess(self, state: SpringerState, player: int) -> tuple[int, bool]:
        """The player's score and whether he has a winning chain."""
        owned = {t for t, owner in enumerate(state.triangles) if owner == player}
        if not owned:
            return 0, False
        reaches = self.field(state.splits).reaches
        best, done, every = 0, False, set()
        for chain in self.chains(state, player):
            tris = {t for s in chain for t in reaches[s]} & owned
            every |= tris
            total = sum(self.values[t] for t in tris)
            best = max(best, total)
            if len(tris) == len(EDGES) and (self.any_total or total >= self.target):
                done = True
        if self.all_reached:
            best = sum(self.values[t] for t in every)
        return best, done

    # -- moves ------------------------------------------------------------------------------

    def _space_problem(self, state: SpringerState, player: int, space: int) -> IllegalMove | None:
        fld = self.field(state.splits)
        name = fld.ids[space]
        owner = state.owners[space]
        if owner != EMPTY:
            return IllegalMove("filled", f"{name} is already filled by {self.players[owner].name}")
        own = [fld.ids[n] for n in sorted(fld.neighbours[space]) if state.owners[n] == player]
        if own:
            return IllegalMove(
                "own-colour",
                f"{name} is next to {', '.join(own)}, already {self.players[player].name}'s "
                "colour (touching at a corner only would be allowed)",
            )
        return None

    def _triangle_problem(self, state: SpringerState, player: int, tri: int) -> IllegalMove | None:
        name = self.tri_ids[tri]
        owner = state.triangles[tri]
        if owner != EMPTY:
            return IllegalMove(
                "triangle-taken", f"{name} is already filled by {self.players[owner].name}"
            )
        edge = self.edges[tri]
        mine = [
            self.tri_ids[t]
            for t, o in enumerate(state.triangles)
            if o == player and self.edges[t] == edge
        ]
        if mine:
            return IllegalMove(
                "edge-used",
                f"{self.players[player].name} already has {mine[0]} on the {edge} edge: "
                "one triangle per edge each",
            )
        return None

    def _open(self, state: SpringerState, player: int) -> list[int]:
        """The spaces the player may fill: empty and not next to his colour."""
        owners = state.owners
        mine = {s for s, owner in enumerate(owners) if owner == player}
        neighbours = self.field(state.splits).neighbours
        return [
            s for s, owner in enumerate(owners) if owner == EMPTY and mine.isdisjoint(neighbours[s])
        ]

    def _doubles(self, state: SpringerState, player: int) -> Iterator[tuple[int, int]]:
        fld = self.field(state.splits)
        open_ = set(self._open(state, player))
        for a in sorted(open_):
            for b in sorted(fld.neighbours[a]):
                if b > a and b in open_:
                    yield a, b

    def _plays(self, state: SpringerState, player: int) -> Iterator[SpringerMove]:
        """The player's moves in play (not set-up), whether or not it is his turn."""
        fld = self.field(state.splits)
        if self._first_double(state, player):
            for a, b in self._doubles(state, player):
                yield SpringerMove("double", (fld.ids[a], fld.ids[b]))
            return
        for s in self._open(state, player):
            yield SpringerMove("space", (fld.ids[s],))
        used = {self.edges[t] for t, owner in enumerate(state.triangles) if owner == player}
        for t, owner in enumerate(state.triangles):
            if owner == EMPTY and self.edges[t] not in used:
                yield SpringerMove("triangle", (self.tri_ids[t],))

    def _splits(self, state: SpringerState) -> Iterator[SpringerMove]:
        fld = self.field(state.splits)
        for k, sid in enumerate(fld.ids):
            names = list(self.borders(fld, k))
            for first in names:
                for second in names:
                    if first != second and not isinstance(
                        self._divide(fld, Split(sid, first, second)), str
                    ):
                        yield SpringerMove("split", (sid, first, second))

    def legal_moves(self, state: SpringerState) -> Iterator[SpringerMove]:
        player = state.turn
        if player is None:
            return
        if self.setting_up(state):
            yield from self._splits(state)
            return
        yield from self._plays(state, player)

    def random_move(self, state: SpringerState, rng: Rng) -> SpringerMove:
        player = state.turn
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        if self.setting_up(state):
            fld = self.field(state.splits)
            while True:
                k = rng.randint(0, len(fld.ids) - 1)
                names = list(self.borders(fld, k))
                first, second = rng.choice(names), rng.choice(names)
                split = Split(fld.ids[k], first, second)
                if first != second and not isinstance(self._divide(fld, split), str):
                    return SpringerMove("split", (split.space, first, second))
        return rng.choice(list(self._plays(state, player)))

    def _can_move(self, state: SpringerState, player: int) -> bool:
        if not self._first_double(state, player):
            used = {self.edges[t] for t, owner in enumerate(state.triangles) if owner == player}
            if any(
                owner == EMPTY and self.edges[t] not in used
                for t, owner in enumerate(state.triangles)
            ):
                return True
        return next(self._plays(state, player), None) is not None

    def apply(self, state: SpringerState, move: SpringerMove) -> SpringerState:
        player = state.turn
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        name = self.players[player].name
        if self.setting_up(state):
            if move.kind != "split":
                raise IllegalMove(
                    "split-first",
                    f"before play each player divides a space in two (variation 2); {name} "
                    "has not yet: write split space-17 BORDER BORDER",
                )
            split = Split(*move.names)
            splits = (*state.splits, split)
            made = self._fields.get(splits) or self._divide(self.field(state.splits), split)
            if isinstance(made, str):
                raise IllegalMove("bad-split", f"{name} cannot divide {split.space}: {made}")
            self._fields.setdefault(splits, made)
            n = len(self.players)
            return SpringerState(
                (EMPTY,) * len(made.ids),
                state.triangles,
                splits,
                state.turns,
                0 if len(splits) == n else player + 1,
                state.totals,
                state.complete,
            )
        if move.kind == "split":
            if not self.split:
                raise IllegalMove("no-split", "dividing a space is variation 2 (option split=on)")
            raise IllegalMove("split-over", "spaces are divided only before play begins")
        fld = self.field(state.splits)
        first = self._first_double(state, player)
        if move.kind == "double" and not self.double:
            raise IllegalMove(
                "no-double", "filling two spaces at once is variation 3 (option double=on)"
            )
        if move.kind == "double" and not first:
            raise IllegalMove(
                "double-later", f"only a player's first turn fills two spaces; {name} has had his"
            )
        if first and move.kind != "double":
            raise IllegalMove(
                "double-first",
                f"on his first turn {name} fills two neighbouring spaces (variation 3), "
                "written space-17+space-18",
            )
        owners = list(state.owners)
        triangles = list(state.triangles)
        if move.kind == "triangle":
            t = self.tri_index[move.names[0]]
            problem = self._triangle_problem(state, player, t)
            if problem:
                raise problem
            triangles[t] = player
        else:
            cells = [fld.index[s] for s in move.names]
            for s in cells:
                problem = self._space_problem(state, player, s)
                if problem:
                    raise problem
            if len(cells) == 2:
                a, b = cells
                if a == b:
                    raise IllegalMove(
                        "double-same",
                        f"a double fills two different spaces, not {fld.ids[a]} twice",
                    )
                if b not in fld.neighbours[a]:
                    raise IllegalMove(
                        "double-apart",
                        f"{fld.ids[a]} and {fld.ids[b]} are not next to each other (they must "
                        "share a stretch of border)",
                    )
            for s in cells:
                owners[s] = player
        turns = list(state.turns)
        turns[player] += 1
        after = SpringerState(
            tuple(owners),
            tuple(triangles),
            state.splits,
            tuple(turns),
            None,
            state.totals,
            state.complete,
        )
        total, done = self._assess(after, player)
        totals = list(state.totals)
        totals[player] = total
        complete = list(state.complete)
        complete[player] = complete[player] or done
        n = len(self.players)
        # Once a chain is complete the round is played out, so every player has had as many
        # turns: with two players, the second answers a first player's winning chain.
        order = (
            range(player + 1, n) if any(complete) else [(player + k) % n for k in range(1, n + 1)]
        )
        after = SpringerState(
            after.owners,
            after.triangles,
            after.splits,
            after.turns,
            None,
            tuple(totals),
            tuple(complete),
        )
        turn = next((q for q in order if self._can_move(after, q)), None)
        return SpringerState(
            after.owners,
            after.triangles,
            after.splits,
            after.turns,
            turn,
            after.totals,
            after.complete,
        )

    # -- notation ---------------------------------------------------------------------------

    def _space_name(self, text: str, column: int, state: SpringerState) -> str:
        word = text.strip().lower()
        fld = self.field(state.splits)
        if word in fld.index:
            return word
        if any(s.space == word for s in state.splits):
            raise MoveSyntaxError(f"{word} was divided: name its parts {word}a and {word}b", column)
        if _SPACE_NAME.fullmatch(word) is None:
            raise MoveSyntaxError(
                f"'{text.strip()}' is not a space: write its model id, like space-17", column
            )
        raise MoveSyntaxError(
            f"'{text.strip()}' is not a space of this sheet "
            f"(space-1 .. space-{len(self.base_field.ids)})",
            column,
        )

    def parse_move(self, text: str, state: SpringerState) -> SpringerMove:
        stripped = text.strip()
        lead = len(text) - len(text.lstrip()) + 1
        words = stripped.split()
        if not words:
            raise MoveSyntaxError(
                "an empty move: write a space (space-17) or a triangle (triangle-3)"
            )
        if words[0].lower() == "split":
            if len(words) != 4:
                raise MoveSyntaxError(
                    "a division is: split SPACE BORDER BORDER, each border a neighbouring space "
                    "or an edge (top, right, bottom, left)",
                    lead,
                )
            columns = [lead + stripped.index(w) for w in words]
            space = self._space_name(words[1], columns[1], state)
            borders: list[str] = []
            for w, col in zip(words[2:], columns[2:], strict=True):
                low = w.lower()
                borders.append(low if low in EDGES else self._space_name(w, col, state))
            return SpringerMove("split", (space, borders[0], borders[1]))
        if len(words) != 1 and "+" not in stripped:
            raise MoveSyntaxError(
                "a move is one space (space-17), a triangle (triangle-3), or on a double first "
                "turn two spaces (space-17+space-18)",
                lead + len(words[0]),
            )
        if "+" in stripped:
            left_text, _, right_text = stripped.partition("+")
            a = self._space_name(left_text, lead, state)
            b = self._space_name(right_text, lead + len(left_text) + 1, state)
            return SpringerMove("double", (a, b))
        word = stripped.lower()
        match = _TRIANGLE_NAME.fullmatch(word)
        if match:
            if word not in self.tri_index:
                raise MoveSyntaxError(
                    f"'{stripped}' is not a triangle of this sheet (triangle-1 .. "
                    f"triangle-{len(self.tri_ids)}, numbered clockwise from the top left)",
                    lead,
                )
            return SpringerMove("triangle", (word,))
        return SpringerMove("space", (self._space_name(stripped, lead, state),))

    def format_move(self, move: SpringerMove) -> str:
        if move.kind == "split":
            return "split " + " ".join(move.names)
        return "+".join(move.names)

    # -- the end ----------------------------------------------------------------------------

    def scores(self, state: SpringerState) -> tuple[int, ...]:
        return state.totals

    def winners(self, state: SpringerState) -> list[int]:
        """A winning chain beats none; between winning chains (or none) the higher total wins."""
        if state.turn is not None:
            return []
        pool = [p for p, done in enumerate(state.complete) if done] or list(
            range(len(self.players))
        )
        best = max(state.totals[p] for p in pool)
        return [p for p in pool if state.totals[p] == best]

    def claims(self, state: SpringerState) -> dict[str, Any]:
        """``chain``: ``yes`` for a player who completed a winning chain, else ``no``."""
        return {"chain": tuple("yes" if done else "no" for done in state.complete)}

    def describe(self, state: SpringerState) -> list[str]:
        """Each player's best chain: its triangles and total, and whether it wins."""
        fld = self.field(state.splits)
        lines = []
        for p, player in enumerate(self.players):
            best: tuple[int, list[int], list[int]] = (-1, [], [])
            for chain in self.chains(state, p):
                tris = self.reached(state, p, chain)
                total = sum(self.values[t] for t in tris)
                if (len(tris), total) > (len(best[2]), best[0]):
                    best = (total, chain, tris)
            total, chain, tris = best
            if not tris:
                lines.append(f"{player.name}: no chain reaches a triangle of his")
                continue
            reached = ", ".join(
                f"{self.tri_ids[t]} ({self.edges[t]}, {self.values[t]})" for t in tris
            )
            first = fld.ids[chain[0]]
            verdict = "a winning chain" if state.complete[p] else "not a winning chain"
            lines.append(
                f"{player.name}: the chain through {first} ({len(chain)} "
                f"{'space' if len(chain) == 1 else 'spaces'}) reaches "
                f"{reached}: total {total}, {verdict}"
            )
        return lines


RULES = SpringerRules
