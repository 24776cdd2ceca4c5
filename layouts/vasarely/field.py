"""Vasarely's field: isometric cubes divided into dotted spaces, placed in rows on the page."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypedDict

from shapely.geometry import LineString, MultiLineString, Point, Polygon
from shapely.ops import unary_union

from papergames.errors import FitError, SpecError
from papergames.layouts.vasarely.params import (
    FACE_CAPACITY,
    GRID,
    MAX_SPACES,
    MIN_SIDE,
    capacity,
    valid_block,
)
from papergames.sheets.compose import Frame
from papergames.sheets.model import Feature, Item, Kind, Layer, Style
from papergames.sheets.rng import Rng
from papergames.sheets.score import score_area_height

FACES = ("top", "left", "right")


SIN60 = math.sqrt(3) / 2


AXES: Mapping[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "top": ((1, -1), (-1, -1)),
    "left": ((-1, -1), (0, 2)),
    "right": ((0, 2), (1, -1)),
}
"""For each face, its two edge directions from the cube's centre, in lattice steps per cell.

The lattice has steps of ``edge * cos 30 / 6`` across and ``edge / 12`` down, so every corner
of every space, face and cube is a whole lattice point and shared corners are identical floats.
The two axes of every face meet at 120 degrees.
"""


DOT_RADIUS = 0.55
"""Radius in mm of a printed dot."""


SPACING = 2.3
"""Least distance in mm between the centres of two dots of one space."""


CLEAR = 1.6
"""Least distance in mm from a dot's centre to its space's border (the centre of the line)."""


MAX_EDGE = 40.0
"""Largest cube edge in mm: a few cubes on a big page stay a sensible size."""


PAD = 0.5
"""Room kept inside the frame for half the strokes of score boxes and heavy outlines."""


COLUMN_GAP = 8.0
"""Between the left and right score areas."""


FIELD_GAP = 5.0
"""Between the score areas and the cubes."""


MAX_ROW_CHOICES = 8
"""Up to this many rows, every placement of the longer rows is tried."""


SYMMETRY_SLACK = 0.08
"""How much larger (as a fraction) lopsided cubes must be to win over a mirror-even cluster."""


TALLY_SIZES = (4.5, 4.0)
"""Tally box sides tried in turn: the smaller one only when the cubes would not fit."""


@dataclass(frozen=True)
class Piece:
    """A space in cell coordinates of its face: cells i0..i1 along U, j0..j1 along V."""

    face: str
    i0: int
    j0: int
    i1: int
    j1: int


@dataclass(frozen=True)
class Cut:
    """A light cut in cell coordinates of its face, from (i0, j0) to (i1, j1)."""

    face: str
    i0: int
    j0: int
    i1: int
    j1: int


@dataclass(frozen=True)
class CubeDivision:
    """One cube's spaces (unordered), cuts and the dot count of each space (same order)."""

    pieces: tuple[Piece, ...]
    cuts: tuple[Cut, ...]
    dots: tuple[int, ...]


def _split(
    rng: Rng, face: str, block: tuple[int, int, int, int], k: int
) -> tuple[list[Piece], list[Cut]]:
    """Cut a block of cells (i0, j0, w, h) into exactly ``k`` spaces by guillotine cuts.

    Each cut is chosen only where both parts can still take a share of ``k``, so the count is
    reached whenever ``k <= capacity(w, h)``.
    """
    i0, j0, w, h = block
    if k == 1:
        return [Piece(face, i0, j0, i0 + w, j0 + h)], []
    options: list[tuple[int, int, int, int]] = []
    for axis, size in ((0, w), (1, h)):
        for p in range(MIN_SIDE, size - MIN_SIDE + 1):
            first = (p, h) if axis == 0 else (w, p)
            second = (w - p, h) if axis == 0 else (w, h - p)
            if not (valid_block(*first) and valid_block(*second)):
                continue
            low = max(1, k - capacity(*second))
            high = min(capacity(*first), k - 1)
            if low <= high:
                options.append((axis, p, low, high))
    if not options:
        raise AssertionError(f"a {w}x{h} block cannot hold {k} spaces")
    axis, p, low, high = rng.choice(options)
    share = p / (w if axis == 0 else h)
    k1 = min(high, max(low, math.floor(k * share + rng.random())))
    if axis == 0:
        cut = Cut(face, i0 + p, j0, i0 + p, j0 + h)
        a = (i0, j0, p, h)
        b = (i0 + p, j0, w - p, h)
    else:
        cut = Cut(face, i0, j0 + p, i0 + w, j0 + p)
        a = (i0, j0, w, p)
        b = (i0, j0 + p, w, h - p)
    pa, ca = _split(rng, face, a, k1)
    pb, cb = _split(rng, face, b, k - k1)
    return pa + pb, [cut, *ca, *cb]


def divide_cube(rng: Rng, spaces: int, max_dots: int) -> CubeDivision:
    """Cut one cube into exactly ``spaces`` spaces and give each its dot count.

    The spaces are shared among the faces one at a time, a face being chosen with weight equal
    to the room it has left, which keeps faces mixed but never over capacity.
    """
    if not max(3, max_dots) <= spaces <= MAX_SPACES:
        raise SpecError(
            f"a cube cannot hold {spaces} spaces with max_dots={max_dots} "
            f"(between {max(3, max_dots)} and {MAX_SPACES})"
        )
    shares = [1, 1, 1]
    for _ in range(spaces - 3):
        room = [FACE_CAPACITY - s for s in shares]
        pick = rng.random() * sum(room)
        for f, r in enumerate(room):
            if pick < r:
                shares[f] += 1
                break
            pick -= r
        else:
            shares[max(range(3), key=lambda f: room[f])] += 1
    pieces: list[Piece] = []
    cuts: list[Cut] = []
    for face, share in zip(FACES, shares, strict=True):
        p, c = _split(rng, face, (0, 0, GRID, GRID), share)
        pieces.extend(p)
        cuts.extend(c)
    dots = list(range(1, max_dots + 1))
    dots += [rng.randint(1, max_dots) for _ in range(spaces - max_dots)]
    rng.shuffle(dots)
    if len(pieces) != spaces or sorted(set(dots)) != list(range(1, max_dots + 1)):
        raise AssertionError("a cube's division broke its counts")
    return CubeDivision(tuple(pieces), tuple(cuts), tuple(dots))


Offsets = tuple[tuple[float, float], ...]


def _centred(points: Sequence[tuple[float, float]]) -> Offsets:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    mx, my = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return tuple((x - mx, y - my) for x, y in points)


@cache
def dot_patterns(k: int) -> tuple[Offsets, ...]:
    """Arrangements of ``k`` dots in a face's own axes (120 degrees apart), best first.

    Offsets are in units of :data:`SPACING`; with axes at 120 degrees the whole-number points
    form a triangular lattice whose nearest points are one unit apart. The first is the die's
    pattern in the cube's view; then two staggered rows along U or V; then one row along U or V.

    Example:
        >>> dot_patterns(5)[0]
        ((-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0), (0.0, 0.0))
    """
    die: dict[int, list[tuple[float, float]]] = {
        1: [(0.0, 0.0)],
        2: [(-1.0, -1.0), (1.0, 1.0)],
        3: [(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
        4: [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)],
        5: [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0), (0.0, 0.0)],
    }
    patterns: list[Offsets] = []
    if k in die:
        patterns.append(_centred(die[k]))
    m = math.ceil(k / 2)
    zig = [(float(x), 0.0) for x in range(m)] + [(float(x), 1.0) for x in range(1, k - m + 1)]
    patterns.append(_centred(zig))
    patterns.append(_centred([(y, x) for x, y in zig]))
    row = [(float(x), 0.0) for x in range(k)]
    patterns.append(_centred(row))
    patterns.append(_centred([(y, x) for x, y in row]))
    return tuple(patterns)


def skew_distance(dx: float, dy: float) -> float:
    """Length of dx * u + dy * v for unit vectors u, v at 120 degrees."""
    return math.sqrt(max(0.0, dx * dx + dy * dy - dx * dy))


def choose_pattern(k: int, lu: float, lv: float) -> Offsets | None:
    """The dot pattern for ``k`` dots in a space whose sides are ``lu`` x ``lv`` mm.

    The die pattern is kept wherever it leaves :data:`CLEAR` mm to the border; otherwise the
    pattern with the most room wins. ``None`` when no pattern keeps the clearance.
    """
    best: tuple[float, Offsets] | None = None
    for rank, pattern in enumerate(dot_patterns(k)):
        ex = max(abs(x) for x, _ in pattern) * SPACING
        ey = max(abs(y) for _, y in pattern) * SPACING
        room = min(lu / 2 - ex, lv / 2 - ey) * SIN60
        if room < CLEAR - 1e-9:
            continue
        if rank == 0:
            return pattern
        if best is None or room > best[0] + 1e-9:
            best = (room, pattern)
    return None if best is None else best[1]


def row_lengths(cubes: int, rows: int) -> list[int]:
    """Cubes per row, the longer rows in the middle.

    Example:
        >>> row_lengths(10, 3), row_lengths(10, 4), row_lengths(10, 2)
        ([3, 4, 3], [2, 3, 3, 2], [5, 5])
    """
    base, extra = divmod(cubes, rows)
    lengths = [base] * rows
    middle = sorted(range(rows), key=lambda r: (abs(r - (rows - 1) / 2), r))
    for r in middle[:extra]:
        lengths[r] += 1
    return lengths


def row_options(cubes: int) -> list[tuple[int, ...]]:
    """Candidate cubes-per-row lists: every number of rows, lengths differing by at most one.

    The middle-heavy split of :func:`row_lengths` comes first for each number of rows; up to
    :data:`MAX_ROW_CHOICES` rows every other placement of the longer rows is tried too.

    Example:
        >>> row_options(5)[:4]
        [(5,), (3, 2), (2, 3), (2, 2, 1)]
    """
    out: list[tuple[int, ...]] = []
    for rows in range(1, cubes + 1):
        first = tuple(row_lengths(cubes, rows))
        out.append(first)
        if rows > MAX_ROW_CHOICES:
            continue
        base, extra = divmod(cubes, rows)
        for longer in itertools.combinations(range(rows), extra):
            lengths = tuple(base + (r in longer) for r in range(rows))
            if lengths != first:
                out.append(lengths)
    return out


def cluster(lengths: Sequence[int], phase: int = 0) -> list[tuple[int, int]]:
    """Lattice centres of the cubes in a honeycomb of centred rows, in cube order.

    A cube is 12 steps wide and 24 high; rows are 18 steps apart and a row's centres lie on
    the honeycomb (every other row shifted by half a cube: the odd rows when ``phase`` is 0,
    the even ones when it is 1), as near to centred as the lattice allows (a row that cannot be
    centred is pushed half a cube right, the next such one left).

    Example:
        >>> cluster([3, 4, 3])[:4]
        [(-12, 0), (0, 0), (12, 0), (-18, 18)]
    """
    centres: list[tuple[int, int]] = []
    flip = 1
    for r, length in enumerate(lengths):
        start = -6 * (length - 1)
        if (start - 6 * ((r + phase) % 2)) % 12:
            start += 6 * flip
            flip = -flip
        centres.extend((start + 12 * k, 18 * r) for k in range(length))
    return centres


def mirrored(centres: Sequence[tuple[int, int]]) -> bool:
    """Whether the cluster is the same in a mirror (left and right swapped)."""
    xs = [c[0] for c in centres]
    middle = min(xs) + max(xs)
    return {(middle - x, y) for x, y in centres} == set(centres)


@dataclass(frozen=True)
class Plan:
    """Where everything goes on one page.

    Attributes:
        edge: the cubes' edge in mm.
        x0, y0: page position of lattice point (0, 0).
        centres: lattice centres of the cubes, in cube order.
        rows: cubes per row.
        tally_size: side of a tally box.
        area_width, area_height: size of each score area.
        corners: top-left corners of the four score areas.
    """

    edge: float
    x0: float
    y0: float
    centres: tuple[tuple[int, int], ...]
    rows: tuple[int, ...]
    tally_size: float
    area_width: float
    area_height: float
    corners: tuple[tuple[float, float], ...]

    @property
    def dx(self) -> float:
        return self.edge * SIN60 / GRID

    @property
    def dy(self) -> float:
        return self.edge / (2 * GRID)

    def point(self, i: int, j: int) -> tuple[float, float]:
        """Page position of lattice point (i, j)."""
        return self.x0 + i * self.dx, self.y0 + j * self.dy


def _best_cluster(
    cubes: int, w: float, h: float
) -> tuple[float, tuple[int, ...], list[tuple[int, int]]]:
    """The rows that give the largest cubes in a w x h box: (edge, cubes per row, centres).

    A cluster that is the same in a mirror is preferred to a lopsided one unless the lopsided
    one gives cubes more than :data:`SYMMETRY_SLACK` larger.
    """
    found: list[tuple[float, bool, tuple[int, ...], list[tuple[int, int]]]] = []
    for lengths, phase in itertools.product(row_options(cubes), (0, 1)):
        centres = cluster(lengths, phase)
        xs = [c[0] for c in centres]
        wide = max(xs) - min(xs) + 2 * GRID
        high = 18 * (len(lengths) - 1) + 4 * GRID
        edge = min(w * GRID / (SIN60 * wide), h * 2 * GRID / high, MAX_EDGE)
        found.append((edge, mirrored(centres), lengths, centres))
    largest = max(f[0] for f in found)
    edge, _, lengths, centres = max(
        (f for f in found if f[0] >= largest * (1 - SYMMETRY_SLACK)),
        key=lambda f: (f[1], round(f[0], 6)),
    )
    return edge, lengths, centres


def dots_fit(divisions: Sequence[CubeDivision], edge: float) -> bool:
    """Whether every space keeps its dots clear of its border at this cube edge."""
    cell = edge / GRID
    return all(
        choose_pattern(k, (p.i1 - p.i0) * cell, (p.j1 - p.j0) * cell) is not None
        for d in divisions
        for p, k in zip(d.pieces, d.dots, strict=True)
    )


def plan_page(frame: Frame, divisions: Sequence[CubeDivision], tally: int) -> Plan:
    """Put the score areas in the corners and the largest cluster of cubes between them.

    Raises:
        FitError: when the cubes would be too small for their dots on this paper.
    """
    frame = frame.inset(PAD)
    cubes = len(divisions)
    area_width = (frame.w - COLUMN_GAP) / 2
    edge = 0.0
    for size in TALLY_SIZES:
        area_height = score_area_height(tally, area_width, size)
        top = frame.y + area_height + FIELD_GAP
        field_h = frame.h - 2 * (area_height + FIELD_GAP)
        if field_h <= 0:
            continue
        edge, lengths, centres = _best_cluster(cubes, frame.w, field_h)
        if not dots_fit(divisions, edge):
            continue
        xs = [c[0] for c in centres]
        ys = [c[1] for c in centres]
        dx, dy = edge * SIN60 / GRID, edge / (2 * GRID)
        left = min(xs) - GRID
        wide = (max(xs) + GRID - left) * dx
        high = (max(ys) + 2 * GRID - (min(ys) - 2 * GRID)) * dy
        x0 = frame.x + (frame.w - wide) / 2 - left * dx
        y0 = top + (field_h - high) / 2 + (2 * GRID - min(ys)) * dy
        bottom = frame.bottom - area_height
        right = frame.x + area_width + COLUMN_GAP
        corners = ((frame.x, frame.y), (right, frame.y), (frame.x, bottom), (right, bottom))
        return Plan(edge, x0, y0, tuple(centres), lengths, size, area_width, area_height, corners)
    raise FitError(
        f"cubes={cubes} with up to {max(len(d.pieces) for d in divisions)} spaces each leaves "
        f"cubes of {edge:.1f} mm, too small for the dots on this paper: use fewer cubes, "
        "a lower max_spaces, or larger paper"
    )


def _lattice(centre: tuple[int, int], face: str, i: int, j: int) -> tuple[int, int]:
    (ux, uy), (vx, vy) = AXES[face]
    return centre[0] + i * ux + j * vx, centre[1] + i * uy + j * vy


def _order(centre: tuple[int, int], division: CubeDivision) -> list[int]:
    """Indices of the cube's spaces in id order: face by face, then top to bottom, left to
    right by the (exact, lattice) centre of the space."""

    def key(n: int) -> tuple[int, int, int]:
        p = division.pieces[n]
        corners = [_lattice(centre, p.face, i, j) for i in (p.i0, p.i1) for j in (p.j0, p.j1)]
        return FACES.index(p.face), sum(c[1] for c in corners), sum(c[0] for c in corners)

    return sorted(range(len(division.pieces)), key=key)


def _dots(plan: Plan, poly: Sequence[tuple[float, float]], k: int, pattern: Offsets) -> list[Point]:
    """Dot centres: the pattern laid along the space's own sides from its centre."""
    p0, p1, _, p3 = poly
    lu = math.dist(p0, p1)
    lv = math.dist(p0, p3)
    ux, uy = (p1[0] - p0[0]) / lu, (p1[1] - p0[1]) / lu
    vx, vy = (p3[0] - p0[0]) / lv, (p3[1] - p0[1]) / lv
    cx = p0[0] + (p1[0] - p0[0] + p3[0] - p0[0]) / 2
    cy = p0[1] + (p1[1] - p0[1] + p3[1] - p0[1]) / 2
    return [
        Point(cx + (x * ux + y * vx) * SPACING, cy + (x * uy + y * vy) * SPACING)
        for x, y in pattern[:k]
    ]


class SpaceData(TypedDict):
    """What a space feature carries: its cube (1..), its dots, and its face."""

    cube: int
    dots: int
    face: str


@dataclass
class Field:
    """The drawn cubes: page items, the region they tile and the facts for the model."""

    items: list[Item]
    tiled: Polygon
    cubes: list[list[str]]


HEXAGON = ((0, -12), (6, -6), (6, 6), (0, 12), (-6, 6), (-6, -6))
"""A cube's outline as lattice steps from its centre."""


def cube_outline(plan: Plan, centre: tuple[int, int]) -> list[tuple[float, float]]:
    """The page positions of the corners of the cube at lattice point ``centre``."""
    cx, cy = centre
    return [plan.point(cx + i, cy + j) for i, j in HEXAGON]


def cubes_area(plan: Plan) -> float:
    """The area the cubes of ``plan`` cover, as :func:`draw_field` tiles them (they meet
    edge to edge, so the union's area is the sum of theirs)."""
    return float(sum(Polygon(cube_outline(plan, centre)).area for centre in plan.centres))


def draw_field(plan: Plan, divisions: Sequence[CubeDivision]) -> Field:
    """Spaces, dots, cuts, face edges and outlines of every cube, grouped by cube."""
    cubes = len(divisions)
    items: list[Item] = []
    hexagons: list[Polygon] = []
    ids: list[list[str]] = []
    space_no = 0
    segment_no = 0
    cell = plan.edge / GRID
    for m, (centre, division) in enumerate(zip(plan.centres, divisions, strict=True), start=1):
        group = f"cube-{m}"
        cx, cy = centre
        hexagon = cube_outline(plan, centre)
        hexagons.append(Polygon(hexagon))
        spaces: list[Item] = []
        dots: list[Item] = []
        mine: list[str] = []
        for n in _order(centre, division):
            space_no += 1
            piece = division.pieces[n]
            k = division.dots[n]
            corner_cells = [
                (piece.i0, piece.j0),
                (piece.i1, piece.j0),
                (piece.i1, piece.j1),
                (piece.i0, piece.j1),
            ]
            poly = [plan.point(*_lattice(centre, piece.face, i, j)) for i, j in corner_cells]
            sid = f"space-{space_no}"
            mine.append(sid)
            spaces.append(
                Feature(
                    sid,
                    Kind.SPACE,
                    Polygon(poly),
                    Style.NONE,
                    Layer.FIELD,
                    group,
                    data=SpaceData(cube=m, dots=k, face=piece.face),
                )
            )
            pattern = choose_pattern(k, (piece.i1 - piece.i0) * cell, (piece.j1 - piece.j0) * cell)
            if pattern is None:
                raise AssertionError("the plan let a space fall below the size of its dots")
            for d, spot in enumerate(_dots(plan, poly, k, pattern), start=1):
                dots.append(
                    Feature(
                        f"dot-{space_no}-{d}",
                        Kind.DOT,
                        spot.buffer(DOT_RADIUS, quad_segs=3),
                        Style.SOLID,
                        Layer.FIELD,
                        group,
                        data={"space": f"space-{space_no}", "cube": m},
                    )
                )
        ids.append(mine)
        segments: list[Item] = []
        for cut in division.cuts:
            segment_no += 1
            a = plan.point(*_lattice(centre, cut.face, cut.i0, cut.j0))
            b = plan.point(*_lattice(centre, cut.face, cut.i1, cut.j1))
            segments.append(
                Feature(
                    f"segment-{segment_no}",
                    Kind.SEGMENT,
                    LineString([a, b]),
                    Style.LIGHT,
                    Layer.FIELD,
                    group,
                    data={"cube": m, "face": cut.face},
                )
            )
        middle = plan.point(cx, cy)
        edges = MultiLineString(
            [
                [plan.point(cx - 6, cy - 6), middle, plan.point(cx + 6, cy - 6)],
                [middle, plan.point(cx, cy + 12)],
            ]
        )
        items.extend(spaces)
        items.extend(segments)
        items.append(
            Feature(
                f"line-{cubes + m}",
                Kind.LINE,
                edges,
                Style.MEDIUM,
                Layer.FIELD,
                group,
                data={"cube": m, "edges": "faces"},
            )
        )
        items.append(
            Feature(
                f"line-{m}",
                Kind.LINE,
                LineString([*hexagon, hexagon[0]]),
                Style.HEAVY,
                Layer.FIELD,
                group,
                data={"cube": m, "edges": "outline"},
            )
        )
        items.extend(dots)
    tiled = unary_union(hexagons)
    if not isinstance(tiled, Polygon):
        raise AssertionError("the cubes do not form one connected cluster")
    return Field(items, tiled, ids)
