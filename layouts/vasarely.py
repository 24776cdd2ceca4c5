"""Vasarely (Sid Sackson): isometric cubes cut into spaces that carry one to five dots.

The field is a honeycomb of ``cubes`` isometric cubes (the book: ten), drawn the way Vasarely
drew his tumbling blocks: each cube is a hexagon standing on a point, made of three rhombic faces
(top, left, right). The seed says the field "is divided by heavy lines into ten cubes", so the
cubes touch: neighbouring cubes share a heavy edge and together they tile one compact cluster
of centred rows (3-4-3 on portrait paper, 5-5 on landscape). The rows that give the largest
cubes win, except that a cluster that is the same in a mirror is kept over a lopsided one that
is less than 8 % larger. The same seed gives the same division on every paper; only the size
and place of the cubes change.

How a cube is divided. Every face is a 6 x 6 grid of small rhombi (lines parallel to the
face's sides) and is cut along grid lines by straight guillotine cuts into parallelograms of at
least 2 cells on each side and 6 cells in all, so every space is large enough for five dots at a
pencil-friendly size. A cube gets a space count n drawn from ``min_spaces..max_spaces``, shared
among its three faces (each face at least one space), and each face is cut into its share by
random guillotine cuts whose counts are bounded by each part's capacity, so the count is exact
by construction.

Dots. Each space shows 1..``max_dots`` dots (the book: 1..5). **Rule chosen**: every cube holds
every count 1..``max_dots`` at least once (which is why ``min_spaces`` may not be below
``max_dots``); the cube's other spaces take counts drawn uniformly. So whichever cube a player
opens, the fill sequence 1, 2, 3, 4, 5 can start and run in it. The dots are drawn like the pips
of a die seen in the same isometric view as their face where that fits, otherwise as two
staggered rows or one row along the space's longer side; every dot keeps :data:`CLEAR` mm from
its space's border and :data:`SPACING` mm from the next dot.

Ids and numbering (the rules engine and the photo reader rely on them):

* Cubes are numbered 1.. row by row from the top, left to right in a row. Everything belonging
  to cube m carries ``group="cube-m"`` (one ``<g id="cube-m">`` in the SVG).
* ``space-<n>``: numbered cube by cube, within a cube face by face (top, left, right), within a
  face by the centre of the space, top to bottom, then left to right. Data: ``cube``, ``dots``,
  ``face``.
* ``dot-<n>-<k>``: the k-th dot of space n (``Kind.DOT``, a small filled disc).
* ``segment-<n>``: the light cuts inside faces, cube by cube, face by face (top, left,
  right), within a face in the order they were made (a cut before the cuts inside its two
  parts); data ``cube`` and ``face``.
* ``line-<m>``: the heavy hexagon outlining cube m; ``line-<cubes + m>``: the three medium
  edges where cube m's faces meet.
* Page data: ``cubes`` (the space ids of each cube), ``spaces`` (count per cube), ``rows``
  (cubes per row), ``edge`` (the cube's edge in mm), ``tally`` (boxes per score area), ``tiled``
  (the union of the hexagons, which the spaces tile).

"Next to" does not occur in the rules of Vasarely; ``page.topology`` still gives it (spaces of
two touching cubes that share a stretch of heavy edge are neighbours there).

Score areas sit in the four corners (player 1 top left, 2 top right, 3 bottom left, 4 bottom
right). Each has ``sum(n_m - 1)`` tally boxes over the cubes m: completing a cube scores at most
one point for every one of its spaces but the last one filled (the completer's own), and one
player could in principle complete every cube, so no score can exceed that sum. Tally boxes
are 4.5 mm, or 4 mm when the larger ones would leave the cubes too small for their dots.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from shapely.geometry import LineString, MultiLineString, Point, Polygon
from shapely.ops import unary_union

from papergames.compose import Frame
from papergames.errors import FitError, SpecError
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import Feature, Item, Kind, Layer, Sheet, Style
from papergames.params import Param, ParamSet
from papergames.rng import Rng
from papergames.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.score import score_area, score_area_height

GRID = 6
"""Cells along each edge of a face: spaces are unions of these small rhombi."""
MIN_SIDE = 2
"""Least number of cells along either side of a space."""
MIN_CELLS = 6
"""Least number of cells in a space (so 2 x 2 pieces are not allowed)."""
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


# --- dividing a cube --------------------------------------------------------------------------


def _valid(w: int, h: int) -> bool:
    return w >= MIN_SIDE and h >= MIN_SIDE and w * h >= MIN_CELLS


@cache
def capacity(w: int, h: int) -> int:
    """Most spaces a w x h block of cells can be cut into by guillotine cuts.

    Example:
        >>> capacity(6, 6), capacity(3, 6), capacity(2, 3)
        (6, 3, 1)
    """
    best = 1
    for p in range(MIN_SIDE, w - MIN_SIDE + 1):
        if _valid(p, h) and _valid(w - p, h):
            best = max(best, capacity(p, h) + capacity(w - p, h))
    for p in range(MIN_SIDE, h - MIN_SIDE + 1):
        if _valid(w, p) and _valid(w, h - p):
            best = max(best, capacity(w, p) + capacity(w, h - p))
    return best


FACE_CAPACITY = capacity(GRID, GRID)
MAX_SPACES = 3 * FACE_CAPACITY


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
            if not (_valid(*first) and _valid(*second)):
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


# --- dots ---------------------------------------------------------------------------------------

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


# --- the plan: where the score areas and the cubes go -----------------------------------------


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


# --- building the page --------------------------------------------------------------------------


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


@dataclass
class Field:
    """The drawn cubes: page items, the region they tile and the facts for the model."""

    items: list[Item]
    tiled: Polygon
    cubes: list[list[str]]


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
        corners = [(0, -12), (6, -6), (6, 6), (0, 12), (-6, 6), (-6, -6)]
        hexagon = [plan.point(cx + i, cy + j) for i, j in corners]
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
                    data={"cube": m, "dots": k, "face": piece.face},
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


def tally_boxes(divisions: Sequence[CubeDivision]) -> int:
    """The most points one player can reach: every space but the completer's last, per cube."""
    return sum(len(d.pieces) - 1 for d in divisions)


class VasarelyLayout(Layout):
    """Vasarely: a honeycomb of isometric cubes cut into dotted spaces, four corner score areas."""

    name = "vasarely"
    params = ParamSet(
        [
            Param.int("cubes", 10, 1, 16, "number of cubes"),
            Param.int("min_spaces", 7, 3, MAX_SPACES, "fewest spaces in a cube"),
            Param.int("max_spaces", 12, 3, MAX_SPACES, "most spaces in a cube"),
            Param.int("max_dots", 5, 2, 5, "most dots in a space (spaces show 1 to this)"),
        ]
    )
    how_to_play = """\
Setup: two to four players, each with a pencil of his own colour, each taking one corner score \
area and writing his initials in its X box. The field is made of cubes outlined by heavy lines; \
light lines cut each cube into spaces, and every space shows from one to five dots. Every cube \
on this sheet holds at least one space of each number of dots.

Play: the first player picks any cube and colours a one-dot space in it. Turns pass to \
the left, and the number of dots required runs 1, 2, 3, 4, 5, 1, 2, and so on. A cube is in \
play from its first coloured space until its last. At most two cubes may be in play: while \
only one is, a player may colour his space in it or start a second cube of his choice; once \
two are, nobody starts another until one of them is full. If only one of the two has an empty \
space with the required number, that one must be used; if neither has, the player colours \
nothing that turn and the next player needs the next number.

Scoring: whoever colours the last empty space of a cube scores one point for every space of \
that cube coloured by someone else; he colours that many small boxes in his score area. When \
every cube is full, write each total in the T box; the highest total wins.

Harder game: allow three cubes in play at once instead of two.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """Refuse a space range that is empty or too small to show every number of dots."""
        low, high, dots = params["min_spaces"], params["max_spaces"], params["max_dots"]
        if low > high:
            raise SpecError(
                f"min_spaces={low} is larger than max_spaces={high}: "
                "min_spaces must not exceed max_spaces"
            )
        if dots > low:
            raise SpecError(
                f"max_dots={dots} is larger than min_spaces={low}: every cube needs a space for "
                "each number of dots, so min_spaces must be at least max_dots"
            )

    def notes(self) -> list[str]:
        return [
            "every cube holds each number of dots from 1 to max_dots at least once",
            "score areas have one box per point a player could at most reach: the sum over "
            "the cubes of their spaces less one",
            "the cubes shrink with more cubes or spaces; below an edge of about 18 mm the "
            "dots no longer fit and the sheet is refused",
        ]

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = ctx.params
        rng = ctx.rng("division")
        divisions = [
            divide_cube(
                rng.child("cube", m),
                rng.randint(params["min_spaces"], params["max_spaces"]),
                params["max_dots"],
            )
            for m in range(1, params["cubes"] + 1)
        ]
        tally = tally_boxes(divisions)
        plan = plan_page(ctx.frame, divisions, tally)
        field = draw_field(plan, divisions)
        items = field.items
        for p, (x, y) in enumerate(plan.corners, start=1):
            area = score_area(p, x, y, plan.area_width, tally, tally_size=plan.tally_size)
            items.extend(area.items)
        sequence = ", ".join(str(k) for k in range(1, params["max_dots"] + 1))
        subtitle = (
            f"Colour spaces by their dots in turn: {sequence}, 1, ... · "
            "at most two cubes in play · complete a cube to score its other colours"
        )
        data: dict[str, Any] = {
            "cubes": field.cubes,
            "spaces": [len(c) for c in field.cubes],
            "rows": list(plan.rows),
            "edge": plan.edge,
            "tally": tally,
            "tiled": field.tiled,
        }
        return [PageBody(items, subtitle, field.tiled, data)]


LAYOUT = VasarelyLayout()


# --- rules ------------------------------------------------------------------------------------

EMPTY = -1
PASS = -1
"""The move of a player who has no space of the number he needs."""


@dataclass(frozen=True)
class VasarelyState:
    """Who filled each space, the cubes in play in the order they were picked, scores, turn."""

    owners: tuple[int, ...]
    scores: tuple[int, ...]
    in_play: tuple[int, ...] = ()
    turn: int = 0
    number: int = 1
    passes: int = 0


class VasarelyRules(Rules[VasarelyState, int]):
    """Vasarely: fill spaces by their dots in the order 1, 2, 3, 4, 5, 1, ... in at most two
    cubes at a time; whoever fills a cube's last space scores its spaces of other colours.

    A move is a space index (written ``space-17``) or :data:`PASS` (written ``pass``), which is
    legal only when no space of the needed number can be filled. Options: ``in_play`` (2, or 3
    for the book's harder variation) and ``after_pass`` (``next``: the sequence moves on after a
    pass, the default; ``same``: the next player needs the same number, until a whole round of
    players has passed on it).
    """

    game = "vasarely"
    notation = "the space filled, space-17, or pass"
    options = ParamSet(
        [
            Param.int("in_play", 2, 2, 3, "cubes in play at one time (3: the harder variation)"),
            Param.choice("after_pass", "next", ("next", "same"), "the number needed after a pass"),
        ]
    )

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        features = list(sheet.pages[0].features(Kind.SPACE))
        self.ids = [f.id for f in features]
        self.index = {f.id: k for k, f in enumerate(features)}
        self.cube = [int(f.data["cube"]) for f in features]
        self.dots = [int(f.data["dots"]) for f in features]
        self.max_dots = int(sheet.spec.params["max_dots"])
        self.cube_spaces: dict[int, list[int]] = {}
        for k, cube in enumerate(self.cube):
            self.cube_spaces.setdefault(cube, []).append(k)
        self.limit: int = self.option_values["in_play"]

    def initial(self) -> VasarelyState:
        return VasarelyState((EMPTY,) * len(self.ids), (0,) * len(self.players))

    def _complete(self, owners: Sequence[int], cube: int) -> bool:
        return all(owners[k] != EMPTY for k in self.cube_spaces[cube])

    def _fills(self, state: VasarelyState) -> Iterator[int]:
        started = {self.cube[k] for k, o in enumerate(state.owners) if o != EMPTY}
        open_cubes = list(state.in_play)
        if len(open_cubes) < self.limit:
            open_cubes += [c for c in self.cube_spaces if c not in started]
        for cube in open_cubes:
            for k in self.cube_spaces[cube]:
                if state.owners[k] == EMPTY and self.dots[k] == state.number:
                    yield k

    def to_move(self, state: VasarelyState) -> int | None:
        if all(o != EMPTY for o in state.owners):
            return None
        return state.turn

    def legal_moves(self, state: VasarelyState) -> Iterator[int]:
        if self.to_move(state) is None:
            return
        any_fill = False
        for k in self._fills(state):
            any_fill = True
            yield k
        if not any_fill:
            yield PASS

    def _next_number(self, number: int) -> int:
        return number % self.max_dots + 1

    def apply(self, state: VasarelyState, move: int) -> VasarelyState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "every cube is complete")
        nxt = (player + 1) % len(self.players)
        if move == PASS:
            example = next(self._fills(state), None)
            if example is not None:
                raise IllegalMove(
                    "must-fill",
                    f"a {state.number}-dot space can be filled, for example {self.ids[example]}",
                )
            passes = state.passes + 1
            # With after_pass=same the number stays until a whole round has passed on it.
            stay = self.option_values["after_pass"] == "same" and passes < len(self.players)
            return VasarelyState(
                state.owners,
                state.scores,
                state.in_play,
                nxt,
                state.number if stay else self._next_number(state.number),
                passes if stay else 0,
            )
        name = self.ids[move]
        if state.owners[move] != EMPTY:
            raise IllegalMove("filled", f"{name} is already filled")
        if self.dots[move] != state.number:
            raise IllegalMove(
                "wrong-number",
                f"{name} has {self.dots[move]} dots, but a {state.number}-dot space is due",
            )
        cube = self.cube[move]
        if cube not in state.in_play:
            started = any(state.owners[k] != EMPTY for k in self.cube_spaces[cube])
            if started or len(state.in_play) >= self.limit:
                raise IllegalMove(
                    "cube-closed",
                    f"{name} lies in cube {cube}, but {len(state.in_play)} cubes are in play: one "
                    "of them must be completed before another is picked",
                )
        owners = list(state.owners)
        owners[move] = player
        scores = list(state.scores)
        in_play = list(state.in_play)
        if cube not in in_play:
            in_play.append(cube)
        if self._complete(owners, cube):
            scores[player] += sum(1 for k in self.cube_spaces[cube] if owners[k] != player)
            in_play.remove(cube)
        return VasarelyState(
            tuple(owners), tuple(scores), tuple(in_play), nxt, self._next_number(state.number)
        )

    def parse_move(self, text: str, state: VasarelyState) -> int:
        word = text.strip().lower()
        if word == "pass":
            return PASS
        key = word if word.startswith("space-") else f"space-{word}"
        if key not in self.index:
            raise MoveSyntaxError(
                f"'{text.strip()}' is not a space (space-1 .. space-{len(self.ids)})"
            )
        return self.index[key]

    def format_move(self, move: int) -> str:
        return "pass" if move == PASS else self.ids[move]

    def scores(self, state: VasarelyState) -> tuple[int, ...]:
        return state.scores


RULES = VasarelyRules
