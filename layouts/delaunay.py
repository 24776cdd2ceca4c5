"""Delaunay (Sid Sackson): nine Orphist sections, each split by dotted lines into 19-24 spaces.

The field is a rectangle composed like a Robert or Sonia Delaunay canvas: a large disc with a
concentric inner circle and lines through its centre, often a second disc and a sweeping arc.
The faces of that drawing, merged or split until there are exactly ``sections`` of them, are
the sections; their borders are drawn heavy. Every section is then cut by dotted lines into a
number of spaces drawn from ``min_spaces``..``max_spaces``: concentric arcs and radial cuts
about the centre of the disc the section belongs to, or parallel bands crossed by parallel cuts
for sections outside every disc. A few compositions are tried and the one with the most even
section areas and no needle-sharp corners is kept. The loss rows (``rows``, each an X box, a
colour box, ``losses`` boxes and a total box) run across the foot of the field, or stand in a
column at its right end when that gives the larger field (a turned page).

How the counts are exact: a section is first cut into bands and each band into cells, then a
bounded repair merges every cell that is too small or too thin into a neighbour, merges the
smallest cell while there are too many and splits the largest cell in two while there are too
few. Every step changes the count by exactly one, so the loop ends on the drawn count or raises
(it never emits a wrong count). The sections are made the same way from the faces of the
drawing.

"Next to" must be visible: sections are divided independently, so a cut on one side of a
border can end a hair's breadth from a cut on the other side, leaving two spaces that share
a border nobody can see. Such borders (shorter than ``SHORTEST`` mm) are shrunk to a corner
after the division, and a section whose spaces would still meet a neighbour at an unseen
border (including corners where two borders meet at so small an angle that
:class:`papergames.topology.Topology` counts them as a shared border) is divided again, a
bounded number of times, then the composition is replaced.

Conventions the rules engine and the photo reader rely on:

* ``section-<m>``: sections numbered 1.. by the position of a point inside each (top to bottom,
  then left to right). Each is an SVG group holding its spaces and its dotted lines.
* ``space-<n>``: spaces numbered 1.. section by section, and inside a section top to bottom,
  then left to right (by a point inside each space). Data: ``{"section": m}``.
* ``line-1``: the outline of the field; ``line-<n>`` (n >= 2): the heavy borders between
  sections, joined straight through crossings, data ``{"sections": [..]}`` (the sections it
  runs along).
* ``segment-<n>``: the dotted lines between spaces of one section, section by section; data
  ``{"section": m}``.
* ``box-initials-<p>`` (the X box), ``box-legend-<p>`` (colour), ``box-loss<p>-<k>`` (the k-th
  loss box of row p), ``box-total-<p>`` (points lost, written at the end).
* Page data: ``sections`` (the space ids of each section, in order), ``spaces_per_section``,
  ``section_neighbours`` (pairs [a, b], a < b, of sections that share a border: a space filled
  next to a completed section must not touch a space of its own colour there), ``min_area``.

Every space is at least ``MIN_AREA`` mm^2 and at least ``MIN_THICK`` mm thick (twice its area
over its perimeter), so it can be coloured with a pencil.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import linemerge, polygonize, unary_union

from papergames.compose import Frame, content_frame
from papergames.errors import FitError, SpecError
from papergames.geometry import ARC_TOLERANCE, arc_steps, iter_lines, iter_polygons
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import Feature, Item, Kind, Sheet, Style, Text
from papergames.params import Param, ParamSet
from papergames.rng import Rng
from papergames.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.score import score_area, score_area_height
from papergames.teams import team_scores
from papergames.topology import TOLERANCE

TAU = 2 * math.pi
FAR = 2000.0
"""Reach in mm of the rays and strips that cut shapes: far beyond any page."""
MIN_AREA = 30.0
"""Least area in mm^2 of a space: room for a few pencil strokes."""
MIN_THICK = 2.4
"""Least thickness in mm of a space, measured as twice its area over its perimeter."""
SECTION_SHARE = 0.45
"""Least area of a section as a share of the mean section area."""
FIELD_GAP = 6.0
"""Between the field and the loss rows."""
ROW_GAP = 2.5
FLAT = 0.4
"""Least ratio of the field's short side to its long side."""
STROKE_PAD = 0.5
"""Room inside the frame for the half stroke of the heavy outline."""
CUSP = 15.0
"""Corners of sections sharper than this (degrees) count against a composition."""
ATTEMPTS = 6
BALANCE = 4
"""Split-and-merge steps that even out the section areas."""
"""Compositions tried for the sections; the best is kept."""
NODE_GRID = 1e-4
"""Grid (mm) of the final noding: borders that cuts of two sections left a few nanometres
apart become one line."""
REDIVIDE = 3
COMPOSITIONS = 3
"""Compositions tried when a division keeps an unseen border."""
"""How often sections with unseen borders are divided again."""
SNAP = 1e-3
"""Corners of spaces closer than this (mm) are one corner."""
SHORTEST = 2.0
"""Least length in mm of a border two spaces share; shorter ones are shrunk to a corner."""
HUG = 2.5
"""Least distance in mm between a cut and a border it runs alongside."""
ROUGH = 0.25
"""Chord error in mm of the circles used only to measure areas while placing cuts."""
NOISE = 1e-9
"""Pieces smaller than this (mm^2) are rounding debris, not shapes."""
GRID = 1e-6
"""Every cut and merge snaps to this grid (mm), so shared borders are exactly equal and a
merge leaves no zero-width slit."""


# --- cut systems ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Axes:
    """The coordinates a section is cut along.

    ``polar``: s is the distance from (cx, cy) and t the angle about it, so s-cuts are
    concentric arcs and t-cuts radial lines. Otherwise s and t are distances along two
    perpendicular directions (``angle`` is the direction of s), so cuts are parallel lines.
    """

    polar: bool
    cx: float
    cy: float
    angle: float = 0.0

    def _circle(self, r: float, rough: bool = False) -> list[tuple[float, float]]:
        steps = max(24, arc_steps(r, TAU, ROUGH if rough else ARC_TOLERANCE))
        return [
            (self.cx + r * math.cos(TAU * k / steps), self.cy + r * math.sin(TAU * k / steps))
            for k in range(steps)
        ]

    def _uv(self) -> tuple[float, float, float, float]:
        return (
            math.cos(self.angle),
            math.sin(self.angle),
            -math.sin(self.angle),
            math.cos(self.angle),
        )

    def around(self, shape: Polygon) -> bool:
        """Whether the shape goes all the way round the centre (holding it or ringing it)."""
        return self.polar and Polygon(shape.exterior).contains(Point(self.cx, self.cy))

    def s_range(self, shape: Polygon) -> tuple[float, float]:
        """Least and greatest s over the shape."""
        coords = shapely.get_coordinates(shape)
        if self.polar:
            centre = Point(self.cx, self.cy)
            low = 0.0 if shape.covers(centre) else shape.distance(centre)
            high = float(max(math.hypot(x - self.cx, y - self.cy) for x, y in coords))
            return low, high
        ux, uy, _, _ = self._uv()
        values = [(x - self.cx) * ux + (y - self.cy) * uy for x, y in coords]
        return min(values), max(values)

    def t_range(self, shape: Polygon, rng: Rng) -> tuple[float, float, bool]:
        """Least and greatest t over the shape, and whether it goes all the way round."""
        if self.polar:
            if self.around(shape):
                start = rng.uniform(0.0, TAU)
                return start, start + TAU, True
            coords = shapely.get_coordinates(shapely.segmentize(shape.exterior, 2.0))
            angles = sorted(
                math.atan2(y - self.cy, x - self.cx) % TAU
                for x, y in coords
                if math.hypot(x - self.cx, y - self.cy) > 1e-4
            )
            gaps = [(angles[0] + TAU - angles[-1], len(angles) - 1)] + [
                (angles[i + 1] - angles[i], i) for i in range(len(angles) - 1)
            ]
            _, at = max(gaps)
            start = angles[(at + 1) % len(angles)]
            end = angles[at]
            if end <= start:
                end += TAU
            return start, end, False
        _, _, vx, vy = self._uv()
        values = [
            (x - self.cx) * vx + (y - self.cy) * vy for x, y in shapely.get_coordinates(shape)
        ]
        return min(values), max(values), False

    def s_region(self, low: float | None, high: float | None, rough: bool = False) -> Polygon:
        """Where low <= s <= high (None: unbounded on that side; rough: for measuring only)."""
        if self.polar:
            outer = (
                self._circle(high, rough)
                if high is not None
                else [
                    (self.cx - FAR, self.cy - FAR),
                    (self.cx + FAR, self.cy - FAR),
                    (self.cx + FAR, self.cy + FAR),
                    (self.cx - FAR, self.cy + FAR),
                ]
            )
            if low is None or low <= 0:
                return Polygon(outer)
            return Polygon(outer, [self._circle(low)])
        return self._strip(low, high, along_s=True)

    def t_region(self, low: float | None, high: float | None) -> Polygon:
        """Where low <= t <= high (a wedge for polar axes, a strip otherwise)."""
        if self.polar:
            assert low is not None and high is not None
            sweep = high - low
            if sweep >= TAU - 1e-12:
                return self.s_region(None, None)
            steps = max(1, math.ceil(sweep / (math.pi / 8)))
            pts = [(self.cx, self.cy)] + [
                (
                    self.cx + FAR * math.cos(low + sweep * k / steps),
                    self.cy + FAR * math.sin(low + sweep * k / steps),
                )
                for k in range(steps + 1)
            ]
            return Polygon(pts)
        return self._strip(low, high, along_s=False)

    def cut_line(self, way: str, x: float) -> BaseGeometry:
        """The line where s (way "s") or t (way "t") equals x."""
        if self.polar:
            if way == "s":
                pts = self._circle(x)
                return LineString([*pts, pts[0]])
            return LineString(
                [(self.cx, self.cy), (self.cx + FAR * math.cos(x), self.cy + FAR * math.sin(x))]
            )
        ux, uy, vx, vy = self._uv()
        if way == "t":
            ux, uy, vx, vy = vx, vy, -ux, -uy
        return LineString(
            [
                (self.cx + x * ux - FAR * vx, self.cy + x * uy - FAR * vy),
                (self.cx + x * ux + FAR * vx, self.cy + x * uy + FAR * vy),
            ]
        )

    def _strip(self, low: float | None, high: float | None, *, along_s: bool) -> Polygon:
        ux, uy, vx, vy = self._uv()
        if not along_s:
            ux, uy, vx, vy = vx, vy, -ux, -uy
        a = -FAR if low is None else low
        b = FAR if high is None else high
        pts = [
            (self.cx + s * ux + t * vx, self.cy + s * uy + t * vy)
            for s, t in ((a, -FAR), (b, -FAR), (b, FAR), (a, FAR))
        ]
        return Polygon(pts)


def _cut(shape: Polygon, region: Polygon) -> BaseGeometry:
    """The part of ``shape`` inside ``region``, on the grid."""
    return shapely.intersection(shape, region, grid_size=GRID)


def hugs(shape: Polygon, line: BaseGeometry, gap: float = HUG) -> bool:
    """Whether a cut would run alongside the shape's border, closer than ``gap`` mm.

    Such a cut leaves a strip too thin to colour, or a thin arm on a space after a repair, so
    it is moved or left out. Near its ends a cut always meets the border; that much is allowed.
    """
    inside = line.intersection(shape)
    parts = list(iter_lines(inside))
    if not parts:
        return False
    near = shape.boundary.intersection(inside.buffer(gap, cap_style="flat")).length
    return bool(near > len(parts) * 8 * gap + gap)


def _wedge_from(axes: Axes, start: float) -> Callable[[float], Polygon]:
    """The region from angle ``start`` to a given angle, for :func:`_quantiles`."""

    def region(end: float) -> Polygon:
        return axes.t_region(start, end)

    return region


def _union(shapes: Sequence[Polygon]) -> BaseGeometry:
    """The union of shapes on the grid; GEOS may refuse a near-degenerate input on a grid, and
    then the plain union (cleaned) is used."""
    try:
        return shapely.union_all(shapes, grid_size=GRID)
    except shapely.errors.GEOSException:
        return shapely.union_all([s.buffer(0) for s in shapes]).buffer(0)


def _parts(geom: BaseGeometry) -> list[Polygon]:
    """The polygons of a geometry, without rounding debris."""
    return [p for p in iter_polygons(geom) if p.area > NOISE]


def _quantiles(
    shape: Polygon,
    region: Callable[[float], Polygon],
    low: float,
    high: float,
    fractions: Sequence[float],
    samples: int = 12,
) -> list[float]:
    """Where the area of ``shape`` below a cut reaches each fraction of the whole.

    ``region(x)`` is the part of the plane below a cut at x; the area curve is sampled and
    inverted linearly, which is close enough for cuts whose fractions are jittered anyway.
    """
    xs = [low + (high - low) * k / samples for k in range(1, samples)]
    areas = shapely.area(shapely.intersection(shape, [region(x) for x in xs])).tolist()
    xs = [low, *xs, high]
    cum = [0.0, *areas, shape.area]
    out = []
    for f in fractions:
        goal = f * shape.area
        value = high
        for i in range(1, len(cum)):
            if cum[i] >= goal:
                span = cum[i] - cum[i - 1]
                u = 0.5 if span <= 0 else (goal - cum[i - 1]) / span
                value = xs[i - 1] + u * (xs[i] - xs[i - 1])
                break
        out.append(value)
    return out


# --- cutting a shape into an exact number of cells ----------------------------------------------


@dataclass(frozen=True)
class Quality:
    """What a cell must satisfy: least area and least thickness (2 * area / perimeter)."""

    area: float
    thick: float

    def ok(self, shape: Polygon) -> bool:
        area, length = float(shape.area), float(shape.length)
        return area >= self.area and 2 * area / length >= self.thick


def _split(shape: Polygon, axes: Axes, rng: Rng, quality: Quality) -> list[Polygon] | None:
    """Cut ``shape`` in two good pieces along s or t, the longer way first; None if impossible."""
    s_low, s_high = axes.s_range(shape)
    t_low, t_high, full = axes.t_range(shape, rng)
    t_len = (t_high - t_low) * ((s_low + s_high) / 2 if axes.polar else 1.0)
    ways = ["s", "t"] if (s_high - s_low) * rng.uniform(0.8, 1.25) > t_len else ["t", "s"]
    first = rng.uniform(0.4, 0.6)
    # First only cuts that keep clear of the border they would run alongside, then any cut.
    for strict, way in ((True, ways[0]), (True, ways[1]), (False, ways[0]), (False, ways[1])):
        for f in (first, 0.5, 0.35, 0.65):
            if way == "s":
                (x,) = _quantiles(
                    shape, lambda v: axes.s_region(None, v, rough=True), s_low, s_high, [f]
                )
                regions = [axes.s_region(None, x), axes.s_region(x, None)]
            elif axes.polar:
                pad = 0.0 if full else min(0.01, (TAU - (t_high - t_low)) / 3)
                lo, hi = t_low - pad, t_high + pad
                (x,) = _quantiles(shape, _wedge_from(axes, lo), t_low, t_high, [f])
                regions = [axes.t_region(lo, x), axes.t_region(x, hi)]
            else:
                (x,) = _quantiles(shape, lambda v: axes.t_region(None, v), t_low, t_high, [f])
                regions = [axes.t_region(None, x), axes.t_region(x, None)]
            pieces = [_cut(shape, r) for r in regions]
            if abs(sum(p.area for p in pieces) - shape.area) > 1e-6 * shape.area:
                continue
            if not all(isinstance(p, Polygon) and quality.ok(p) for p in pieces):
                continue
            if strict and hugs(shape, axes.cut_line(way, x)):
                continue
            return [p for p in pieces if isinstance(p, Polygon)]
    return None


def _shared(a: Polygon, b: Polygon) -> float:
    return float(a.boundary.intersection(b.buffer(1e-6)).length)


def _merge_into_neighbour(cells: list[Polygon], index: int, prefer_small: bool) -> bool:
    """Merge cell ``index`` into the neighbour it shares most border with (or the smallest)."""
    cell = cells[index]
    near = [j for j, close in enumerate(shapely.dwithin(cell, cells, 1e-6).tolist()) if close]
    near = [j for j in near if j != index]
    strip = cell.boundary.buffer(1e-6)
    lengths = shapely.length(
        shapely.intersection(shapely.boundary([cells[j] for j in near]), strip)
    )
    options = [(float(n), j) for n, j in zip(lengths, near, strict=True)]
    if not options:
        return False
    longest = max(s for s, _ in options)
    order = [j for _, j in sorted(options, key=lambda o: (-o[0], o[1]))]
    if prefer_small:
        pool = sorted(
            (j for s, j in options if s >= 0.4 * longest), key=lambda j: (cells[j].area, j)
        )
        order = pool + [j for j in order if j not in pool]
    for j in order:
        union = _union([cell, cells[j]])
        if isinstance(union, Polygon):
            cells[j] = union
            del cells[index]
            return True
    return False


def exact_cells(
    cells: list[Polygon], count: int, axes_of: Callable[[Polygon], Axes], rng: Rng, quality: Quality
) -> list[Polygon]:
    """Repair ``cells`` to exactly ``count`` good cells by merging and splitting, one at a time.

    Raises:
        FitError: when no cell can be split or merged any more (the shape is too small).
    """
    cells = list(cells)
    for _ in range(20 * count + 100):
        bad = [i for i, c in enumerate(cells) if not quality.ok(c)]
        if bad and len(cells) > 1:
            worst = min(bad, key=lambda i: (cells[i].area, i))
            if _merge_into_neighbour(cells, worst, prefer_small=False):
                continue
            raise FitError("a space could not be merged with a neighbour")
        if len(cells) > count:
            order = sorted(range(len(cells)), key=lambda i: (cells[i].area, i))
            if not any(_merge_into_neighbour(cells, i, prefer_small=True) for i in order[:3]):
                raise FitError("spaces could not be merged down to their count")
            continue
        if len(cells) < count:
            order = sorted(range(len(cells)), key=lambda i: (-cells[i].area, i))
            for i in order:
                pieces = _split(cells[i], axes_of(cells[i]), rng, quality)
                if pieces is not None:
                    cells[i : i + 1] = pieces
                    break
            else:
                raise FitError(
                    f"a section is too small for {count} spaces of at least {quality.area:.0f}"
                    " mm^2: lower max_spaces or sections, or use larger paper"
                )
            continue
        if not bad:
            return cells
    raise FitError("the division into spaces did not settle")  # pragma: no cover


def divide_section(shape: Polygon, axes: Axes, count: int, rng: Rng) -> list[Polygon]:
    """Cut a section into exactly ``count`` spaces: bands of s, each cut across along t."""
    quality = Quality(MIN_AREA, MIN_THICK)
    area = shape.area
    side = math.sqrt(area / count)
    s_low, s_high = axes.s_range(shape)
    centred = axes.polar and s_low == 0.0
    bands = round((s_high - s_low) / (side * rng.uniform(1.05, 1.45)))
    bands = max(1, min(bands, max(1, count // 3)))
    fractions: list[float] = []
    if bands > 1:
        first = 0.0
        if centred:
            # A disc about the centre may hold a few spaces; a wedge with its tip on the
            # centre keeps its tip whole, so no slivers meet there.
            first = (rng.choice([1, 1, 3, 4]) if axes.around(shape) else 1) / count
        rest = bands - (1 if centred else 0)
        for k in range(1, bands):
            if centred and k == 1:
                fractions.append(first)
            else:
                j = k - (1 if centred else 0)
                base = first + (1 - first) * j / rest
                fractions.append(base + rng.uniform(-0.12, 0.12) / bands)
    cuts = (
        _quantiles(shape, lambda v: axes.s_region(None, v, rough=True), s_low, s_high, fractions)
        if fractions
        else []
    )
    clear: list[float] = []
    for x in cuts:
        for shift in (0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0):
            y = x + shift * HUG / 1.5
            if s_low + HUG < y < s_high - HUG and not hugs(shape, axes.cut_line("s", y)):
                clear.append(y)
                break
    cuts = sorted(set(clear))
    edges: list[float | None] = [None, *cuts, None]
    pieces: list[Polygon] = []
    for k in range(bands):
        pieces.extend(_parts(_cut(shape, axes.s_region(edges[k], edges[k + 1]))))
    if abs(sum(p.area for p in pieces) - area) > 1e-6 * area:
        pieces = [shape]
    # Share the spaces among the band pieces by area (largest remainder, at least one each).
    total = sum(p.area for p in pieces)
    raw = [count * p.area / total for p in pieces]
    share = [max(1, math.floor(r)) for r in raw]
    order = sorted(range(len(pieces)), key=lambda i: (-(raw[i] - math.floor(raw[i])), i))
    k = 0
    while sum(share) < count and order:
        share[order[k % len(order)]] += 1
        k += 1
    cells: list[Polygon] = []
    for piece, m in zip(pieces, share, strict=True):
        if m <= 1:
            cells.append(piece)
            continue
        t_low, t_high, full = axes.t_range(piece, rng)
        fr = [(i + rng.uniform(-0.2, 0.2)) / m for i in range(1, m)]
        if axes.polar:
            ts = _quantiles(piece, _wedge_from(axes, t_low), t_low, t_high, fr)
            pad = 0.0 if full else min(0.01, (TAU - (t_high - t_low)) / 3)
            marks = [t_low - pad, *ts, t_high + pad]
        else:
            ts = _quantiles(piece, lambda v: axes.t_region(None, v), t_low, t_high, fr)
            marks = [t_low - 1.0, *ts, t_high + 1.0]
        got: list[Polygon] = []
        for i in range(m):
            if axes.polar:
                region = axes.t_region(marks[i], marks[i + 1])
            else:
                region = axes.t_region(
                    None if i == 0 else marks[i], None if i == m - 1 else marks[i + 1]
                )
            got.extend(_parts(_cut(piece, region)))
        # A wedge that misses part of the piece (its angle range was misjudged) would leave a
        # hole: then the piece stays whole and the repair below splits it.
        whole = abs(sum(g.area for g in got) - piece.area) <= 1e-6 * piece.area
        cells.extend(got if whole else [piece])
    return exact_cells(cells, count, lambda _: axes, rng, quality)


# --- the composition of the sections ----------------------------------------------------------


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


# --- drawing the lines --------------------------------------------------------------------------


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


# --- the layout ---------------------------------------------------------------------------------


def _bad_contacts(cells: Sequence[Polygon]) -> set[int]:
    """Cells the shared topology would call next to a cell they share no visible border with.

    The rules engines read "next to" from :class:`papergames.topology.Topology`, which counts a
    corner where two borders meet at a very small angle as a shared border; such corners, and
    borders shorter than :data:`SHORTEST`, are found here so the division can be made again.
    """
    # The same test as Topology (a border within its tolerance of the other cell, longer than
    # ten tolerances), done for all pairs at once.
    tol = TOLERANCE
    tree = shapely.STRtree(cells)
    left, right = tree.query(cells, predicate="dwithin", distance=tol)
    keep = left < right
    left, right = left[keep], right[keep]
    rings = shapely.boundary(cells)
    near = shapely.length(shapely.intersection(rings[left], shapely.buffer(cells, tol)[right]))
    exact = shapely.length(shapely.intersection(rings[left], rings[right]))
    bad: set[int] = set()
    for i, j, n, e in zip(left.tolist(), right.tolist(), near, exact, strict=True):
        if n > 10 * tol and e < SHORTEST:
            bad.update((i, j))
    return bad


def divide_all(
    field: Polygon,
    shapes: Sequence[Polygon],
    axes: Sequence[Axes],
    counts: Sequence[int],
    ctx: BuildContext,
    attempt: int = 0,
) -> tuple[list[list[Polygon]], bool]:
    """Divide every section, then join near corners and shrink short borders to corners.

    A section whose spaces still meet a neighbour at an unseen border is divided again with a
    fresh stream, a bounded number of times; if one survives, it is left (a corner contact the
    eye reads correctly, though the shared topology may not).
    """
    divided: list[list[Polygon]] = []
    for m, (shape, ax, n) in enumerate(zip(shapes, axes, counts, strict=True), start=1):
        names: tuple[object, ...] = (m,) if attempt == 0 else (m, "c", attempt)
        divided.append(
            sorted(divide_section(shape, ax, n, ctx.rng("section", *names)), key=_reading_key)
        )
    for again in range(REDIVIDE + 1):
        owner = [m for m, cells in enumerate(divided) for _ in cells]
        flat = close_short_borders([c for cells in divided for c in cells], owner, field, SHORTEST)
        bad = {owner[i] for i in _bad_contacts(flat)}
        if not bad or again == REDIVIDE:
            break
        for m in sorted(bad):
            names = (m + 1, again) if attempt == 0 else (m + 1, again, "c", attempt)
            cells = divide_section(shapes[m], axes[m], counts[m], ctx.rng("section", *names))
            divided[m] = sorted(cells, key=_reading_key)
    out: list[list[Polygon]] = []
    for n in counts:
        out.append(flat[:n])
        flat = flat[n:]
    return out, not bad


@dataclass(frozen=True)
class Plan:
    """Where the field and the loss rows go in the frame.

    The rows run across the foot of the field, or, when that leaves a larger field of fair
    shape (a turned page), stand in a column at its right end.
    """

    width: float
    height: float
    rows_x: float
    rows_y: float
    rows_w: float

    @property
    def area(self) -> float:
        return self.width * self.height if self.fair else 0.0

    @property
    def fair(self) -> bool:
        """Whether the field is no flatter than :data:`FLAT` either way."""
        return min(self.width, self.height) >= FLAT * max(self.width, self.height)


def _block(rows: int, losses: int, width: float) -> float:
    return rows * score_area_height(losses, width) + (rows - 1) * ROW_GAP


def plan_field(frame: Frame, rows: int, losses: int) -> Plan:
    """The larger fair field: loss rows under it or beside it."""
    inner = frame.inset(STROKE_PAD)
    height = inner.h - _block(rows, losses, inner.w) - FIELD_GAP
    best = Plan(inner.w, height, inner.x, inner.y + height + FIELD_GAP, inner.w)
    for column in range(60, int(inner.w * 0.45) + 1, 5):
        if _block(rows, losses, column) <= inner.h:
            width = inner.w - column - FIELD_GAP
            side = Plan(width, inner.h, inner.x + width + FIELD_GAP, inner.y, column)
            if side.area > best.area + 1e-6:
                best = side
            break
    return best


def _reading_key(shape: Polygon) -> tuple[float, float]:
    p = shape.representative_point()
    return round(p.y, 6), round(p.x, 6)


def loss_rows(rows: int, losses: int, x: float, y: float, width: float) -> tuple[list[Item], float]:
    """The loss rows: an X box, a colour box, ``losses`` boxes and a total box each."""
    items: list[Item] = []
    top = y
    for p in range(1, rows + 1):
        area = score_area(p, x, top, width, losses, label=f"row {p}", total_caption="lost")
        for item in area.items:
            if isinstance(item, Feature) and item.id.startswith("box-tally"):
                data = dict(item.data)
                data["area"] = "loss"
                items.append(
                    Feature(
                        item.id.replace("box-tally", "box-loss"),
                        item.kind,
                        item.geometry,
                        item.style,
                        item.layer,
                        data=data,
                    )
                )
            elif isinstance(item, Text) and item.id.startswith("caption-tally"):
                items.append(
                    Text(
                        item.id.replace("caption-tally", "caption-loss"),
                        item.x,
                        item.y,
                        "points lost",
                        item.size,
                        layer=item.layer,
                    )
                )
            else:
                items.append(item)
        top += area.height + ROW_GAP
    return items, top - ROW_GAP - y


class DelaunayLayout(Layout):
    """Delaunay: an Orphist field of sections cut into spaces, with rows of loss boxes."""

    name = "delaunay"
    params = ParamSet(
        [
            Param.int("sections", 9, 1, 12, "number of sections (fewer for a short game)"),
            Param.int("min_spaces", 19, 2, 30, "fewest spaces in a section"),
            Param.int("max_spaces", 24, 2, 30, "most spaces in a section"),
            Param.int("rows", 3, 1, 4, "rows of loss boxes (one per player or team)"),
            Param.int("losses", 64, 0, 150, "loss boxes in each row"),
        ]
    )
    how_to_play = """\
Setup: two to four players, each with a pencil of his own colour. Each player writes his \
initials in the X box of a loss row and colours the box beside it; with four players the \
partners sit opposite each other and share one row. The field is cut by heavy lines into \
sections, and each section by dotted lines into spaces.

Play: the first player colours any space of any section. Play stays in that section until it \
is completed. In turn, each player colours an empty space next to (sharing a stretch of \
border with) a space already coloured in this section, but never next to a space of his own \
colour. A player who cannot colour a space marks off one box of his row: a point lost.

Completing a section: when the last space that anyone can colour is filled, the other players \
each mark off a box, and any spaces left empty stay empty. The player who coloured that last \
space opens a new section of his choice by colouring any space in it, and play goes on there.

Borders: a space that lies next to an already completed section may not be next to a space of \
the same colour in that section.

End: when all sections are completed, the player (or team) with the fewest points lost wins. \
Two players each use two colours and may play either on a turn; three play each for himself.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """min_spaces may not exceed max_spaces."""
        if params["min_spaces"] > params["max_spaces"]:
            raise SpecError(
                f"min_spaces={params['min_spaces']} is larger than "
                f"max_spaces={params['max_spaces']}: min_spaces must not exceed max_spaces"
            )

    def notes(self) -> list[str]:
        return [
            f"every space is at least {MIN_AREA:.0f} mm^2 and {MIN_THICK} mm thick; very many "
            "sections with many spaces each are refused on small paper",
            "losses=64 fills two lines of boxes across an A4 or Letter page; the book does not "
            "give the number, and with four players a team's two partners share one row",
        ]

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = ctx.params
        count: int = params["sections"]
        rows: int = params["rows"]
        losses: int = params["losses"]
        frame = ctx.frame.inset(STROKE_PAD)
        plan = plan_field(ctx.frame, rows, losses)
        width, height = plan.width, plan.height
        if not plan.fair:
            raise FitError(
                f"rows={rows} with losses={losses} leave too little room for the field on this "
                "paper: lower losses or rows, or use larger paper"
            )
        if ctx.spec.orientation == "auto":
            # The sheet maker builds both orientations and keeps the larger field (portrait on
            # a tie); the loser is only measured, so it is not divided into spaces at all.
            other = plan_field(content_frame(ctx.page_height, ctx.page_width), rows, losses).area
            if (ctx.landscape and other >= plan.area - 1e-6) or (
                not ctx.landscape and other > plan.area + 1e-6
            ):
                return [PageBody([], "", _rect(frame.x, frame.y, width, height))]
        low, high = params["min_spaces"], params["max_spaces"]
        counts_rng = ctx.rng("counts")
        counts = [counts_rng.randint(low, high) for _ in range(count)]
        field = _rect(frame.x, frame.y, width, height)
        for attempt in range(COMPOSITIONS):
            names: tuple[object, ...] = ("sections",) if attempt == 0 else ("sections", attempt)
            comp = compose(frame.x, frame.y, width, height, count, ctx.rng(*names))
            order = sorted(range(count), key=lambda i: _reading_key(comp.sections[i]))
            divided, clean = divide_all(
                field,
                [comp.sections[i] for i in order],
                [comp.axes[i] for i in order],
                counts,
                ctx,
                attempt,
            )
            if clean:
                break
        items: list[Item] = []
        sections: list[list[str]] = []
        per_section: list[int] = []
        section_shapes: list[Polygon] = []
        space_no = 0
        segment_no = 0
        for m, cells in enumerate(divided, start=1):
            n = len(cells)
            placed = _union(cells)
            if not isinstance(placed, Polygon) or not all(
                isinstance(c, Polygon) and c.is_valid and Quality(MIN_AREA, MIN_THICK).ok(c)
                for c in cells
            ):  # pragma: no cover - the division and the snap keep these
                raise AssertionError(f"section {m} lost its shape when its corners were joined")
            section_shapes.append(placed)
            ids = []
            for cell in cells:
                space_no += 1
                ids.append(f"space-{space_no}")
                items.append(
                    Feature(
                        f"space-{space_no}",
                        Kind.SPACE,
                        cell,
                        group=f"section-{m}",
                        data={"section": m},
                    )
                )
            for line in _inner_lines(cells, placed.boundary):
                segment_no += 1
                items.append(
                    Feature(
                        f"segment-{segment_no}",
                        Kind.SEGMENT,
                        line,
                        Style.DOTTED,
                        group=f"section-{m}",
                        data={"section": m},
                    )
                )
            sections.append(ids)
            per_section.append(n)
        items.append(Feature("line-1", Kind.LINE, field.exterior, Style.HEAVY, data={}))
        neighbours: set[tuple[int, int]] = set()
        for a in range(count):
            for b in range(a + 1, count):
                if _shared(section_shapes[a], section_shapes[b]) > 1e-3:
                    neighbours.add((a + 1, b + 1))
        for k, line in enumerate(_inner_lines(section_shapes, field.boundary), start=2):
            mid = line.buffer(1e-5)
            along = [
                m
                for m, s in enumerate(section_shapes, start=1)
                if s.boundary.intersection(mid).length > 0.01
            ]
            items.append(
                Feature(f"line-{k}", Kind.LINE, line, Style.HEAVY, data={"sections": along})
            )
        rows_items, _ = loss_rows(rows, losses, plan.rows_x, plan.rows_y, plan.rows_w)
        items.extend(rows_items)
        subtitle = "Spaces per section: " + ", ".join(str(n) for n in per_section)
        return [
            PageBody(
                items,
                subtitle,
                field,
                {
                    "sections": sections,
                    "spaces_per_section": per_section,
                    "section_neighbours": [list(p) for p in sorted(neighbours)],
                    "min_area": MIN_AREA,
                },
            )
        ]


LAYOUT = DelaunayLayout()


# --- rules ------------------------------------------------------------------------------------

EMPTY = -1
"""Colour of a space nobody has coloured."""
COLOURS = ("red", "blue", "yellow", "green")
"""The colours in seat order: the book's illustrated game (red first, then blue, yellow,
green; red and yellow partners). Two players play red + yellow and blue + green."""
LETTERS = {c[0].upper(): k for k, c in enumerate(COLOURS)} | {c: k for k, c in enumerate(COLOURS)}
"""A colour by its letter (R, B, Y, G) or its word."""
OPENING = -1
"""The section in play when a section is to be opened (at the start and after a completion)."""


@dataclass(frozen=True)
class DelaunayMove:
    """Colour a space, or (``space`` None) mark off a loss box.

    ``colour`` is the colour index (:data:`COLOURS`), or ``None`` for the mover's only colour
    (three or four players, written without a colour).
    """

    space: int | None
    colour: int | None = None


LOSS = DelaunayMove(None)


@dataclass(frozen=True)
class DelaunayState:
    """The colour of each space, each player's losses, the completed sections, the section in
    play (:data:`OPENING` when one is to be opened) and whose turn it is."""

    colours: tuple[int, ...]
    losses: tuple[int, ...]
    completed: tuple[bool, ...]
    section: int = OPENING
    turn: int = 0


class DelaunayRules(Rules[DelaunayState, DelaunayMove]):
    """Delaunay: colour spaces section by section, next to coloured ones and never next to the
    same colour; a player who cannot colour loses a point, and so does everyone but the player
    who colours a section's last fillable space. Fewest points lost wins.

    Moves (model ids, as the sheet prints no names): ``space-17`` (or ``17``) colours a space;
    two players add the colour, ``space-17 R`` (player 1 plays R and Y, player 2 B and G);
    ``loss`` marks off a loss box when no space can be coloured. The other players' losses at
    the end of a section are marked automatically. Four players are two teams, partners 1+3
    and 2+4, sharing a row; three play each for himself.
    """

    game = "delaunay"
    notation = (
        "space-17 (or 17) to colour a space, with the colour for two players (space-17 R: "
        "R, Y for player 1, B, G for player 2); loss to mark off a loss box"
    )

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        page = sheet.pages[0]
        features = list(page.features(Kind.SPACE))
        self.ids = [f.id for f in features]
        index = {f.id: k for k, f in enumerate(features)}
        self.names = dict(index)
        for k, f in enumerate(features):
            self.names[f.id.removeprefix("space-")] = k
        self.sections: list[list[int]] = [[index[i] for i in ids] for ids in page.data["sections"]]
        self.section_of = [0] * len(self.ids)
        for m, spaces in enumerate(self.sections):
            for k in spaces:
                self.section_of[k] = m
        topology = page.topology.neighbours
        self.neighbours: list[tuple[int, ...]] = [
            tuple(sorted(index[n] for n in topology[i])) for i in self.ids
        ]
        self.inside: list[tuple[int, ...]] = [
            tuple(n for n in near if self.section_of[n] == self.section_of[k])
            for k, near in enumerate(self.neighbours)
        ]
        count = len(players)
        self.game_colours = tuple(range(3 if count == 3 else 4))
        self.player_colours: list[tuple[int, ...]] = [
            tuple(c for c in self.game_colours if c % count == p) for p in range(count)
        ]

    # -- state -------------------------------------------------------------------------------

    def initial(self) -> DelaunayState:
        return DelaunayState(
            (EMPTY,) * len(self.ids),
            (0,) * len(self.players),
            (False,) * len(self.sections),
        )

    def to_move(self, state: DelaunayState) -> int | None:
        if all(state.completed):
            return None
        return state.turn

    def scores(self, state: DelaunayState) -> tuple[int, ...]:
        """Points lost by each player (with four, a team's row holds both partners' points)."""
        return state.losses

    def team_losses(self, state: DelaunayState) -> tuple[int, int]:
        """The two teams' rows (players 1+3, then 2+4) with four players."""
        return team_scores(state.losses)

    def totals(self, state: DelaunayState) -> tuple[int, ...]:
        """Each player's row total: his own losses, or his team's with four players."""
        if len(self.players) == 4:
            teams = self.team_losses(state)
            return tuple(teams[p % 2] for p in range(4))
        return state.losses

    def winners(self, state: DelaunayState) -> list[int]:
        """The players (or both partners of the team) with the fewest points lost."""
        if not self.is_over(state):
            return []
        totals = self.totals(state)
        best = min(totals)
        return [p for p, t in enumerate(totals) if t == best]

    def claims(self, state: DelaunayState) -> dict[str, tuple[int, ...]]:
        if len(self.players) != 4:
            return {}
        return {"team": self.totals(state)}

    def describe(self, state: DelaunayState) -> list[str]:
        empty = sum(1 for c in state.colours if c == EMPTY)
        lines = [f"spaces left empty: {empty}"]
        if len(self.players) == 4:
            a, b = self.team_losses(state)
            names = [p.name for p in self.players]
            lines.append(f"points lost: {names[0]} + {names[2]} {a}, {names[1]} + {names[3]} {b}")
        return lines

    # -- the rules of a fill -----------------------------------------------------------------

    def _why_not(self, state: DelaunayState, space: int, colour: int) -> tuple[str, str] | None:
        """Why ``colour`` may not go on ``space`` now (code, sentence), or ``None``."""
        name = self.ids[space]
        section = self.section_of[space]
        if state.colours[space] != EMPTY:
            return "filled", f"{name} is already coloured {COLOURS[state.colours[space]]}"
        if state.section == OPENING:
            if state.completed[section]:
                return "completed", f"{name} lies in section {section + 1}, already completed"
        else:
            if section != state.section:
                return (
                    "other-section",
                    f"play stays in section {state.section + 1} until it is completed; "
                    f"{name} lies in section {section + 1}",
                )
            if all(state.colours[n] == EMPTY for n in self.inside[space]):
                return (
                    "not-next",
                    f"{name} is not next to a coloured space of section {section + 1}",
                )
        for n in self.neighbours[space]:
            if state.colours[n] == colour:
                if self.section_of[n] == section:
                    return (
                        "same-colour",
                        f"{name} is next to {self.ids[n]}, already {COLOURS[colour]}",
                    )
                return (
                    "border-colour",
                    f"{name} is next to {self.ids[n]} of completed section "
                    f"{self.section_of[n] + 1}, already {COLOURS[colour]}",
                )
        return None

    def _fills(self, state: DelaunayState, player: int) -> Iterator[DelaunayMove]:
        """Every space and colour ``player`` may fill now."""
        if state.section == OPENING:
            spaces = [
                k for m, done in enumerate(state.completed) if not done for k in self.sections[m]
            ]
        else:
            spaces = self.sections[state.section]
        named = len(self.players) == 2
        for space in spaces:
            for colour in self.player_colours[player]:
                if self._why_not(state, space, colour) is None:
                    yield DelaunayMove(space, colour if named else None)

    def _fillable(self, colours: Sequence[int], section: int, opening: bool) -> bool:
        """Whether any colour of the game can still go on a space of ``section``: next to a
        coloured space of it (not needed when ``opening`` it) and to no space of that colour."""
        for space in self.sections[section]:
            if colours[space] != EMPTY:
                continue
            if not opening and all(colours[n] == EMPTY for n in self.inside[space]):
                continue
            around = {colours[n] for n in self.neighbours[space]}
            if any(c not in around for c in self.game_colours):
                return True
        return False

    def legal_moves(self, state: DelaunayState) -> Iterator[DelaunayMove]:
        player = self.to_move(state)
        if player is None:
            return
        any_fill = False
        for move in self._fills(state, player):
            any_fill = True
            yield move
        if not any_fill:
            yield LOSS

    def apply(self, state: DelaunayState, move: DelaunayMove) -> DelaunayState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over: every section is completed")
        count = len(self.players)
        name = self.players[player].name
        if move.space is None:
            example = next(self._fills(state, player), None)
            if example is not None:
                raise IllegalMove(
                    "can-fill",
                    f"{name} can still colour a space, for example {self.format_move(example)}: "
                    "a loss box is marked only when no space can be coloured",
                )
            losses = list(state.losses)
            losses[player] += 1
            return replace(state, losses=tuple(losses), turn=(player + 1) % count)
        if not 0 <= move.space < len(self.ids):
            raise IllegalMove("no-space", f"there is no space number {move.space + 1}")
        mine = self.player_colours[player]
        if move.colour is None:
            if len(mine) > 1:
                raise IllegalMove(
                    "no-colour",
                    f"{name} plays {' and '.join(COLOURS[c] for c in mine)}: name the colour",
                )
            colour = mine[0]
        else:
            colour = move.colour
        if colour not in mine:
            raise IllegalMove(
                "not-your-colour",
                f"{name} plays {' and '.join(COLOURS[c] for c in mine)}, not "
                f"{COLOURS[colour] if 0 <= colour < len(COLOURS) else colour}",
            )
        why = self._why_not(state, move.space, colour)
        if why is not None:
            raise IllegalMove(*why)
        colours = list(state.colours)
        colours[move.space] = colour
        section = self.section_of[move.space]
        if self._fillable(colours, section, opening=False):
            return replace(
                state, colours=tuple(colours), section=section, turn=(player + 1) % count
            )
        # The last fillable space: everyone else marks off a box, the section is completed, and
        # the same player opens a new one. A section that no colour can open any more (every
        # space next to every colour across its borders) is completed as it stands.
        losses = [n + (p != player) for p, n in enumerate(state.losses)]
        completed = list(state.completed)
        completed[section] = True
        for m, done in enumerate(completed):
            if not done and not self._fillable(colours, m, opening=True):
                completed[m] = True
        return DelaunayState(tuple(colours), tuple(losses), tuple(completed), OPENING, player)

    # -- notation ----------------------------------------------------------------------------

    def parse_move(self, text: str, state: DelaunayState) -> DelaunayMove:
        words = text.split()
        if not words:
            raise MoveSyntaxError(f"a move is a space or 'loss': {self.notation}")
        first = words[0]
        column = text.index(first) + 1
        if first.lower() == "loss":
            if len(words) > 1:
                raise MoveSyntaxError("'loss' stands alone", text.index(words[1], column) + 1)
            return LOSS
        space = self.names.get(first.lower())
        if space is None:
            raise MoveSyntaxError(
                f"'{first}' is not a space of this field (space-1 to space-{len(self.ids)}) "
                "nor 'loss'",
                column,
            )
        if len(words) > 2:
            raise MoveSyntaxError(
                "a move is a space and at most a colour", text.index(words[2], column) + 1
            )
        if len(words) == 1:
            if len(self.players) == 2:
                raise MoveSyntaxError(
                    "two players name the colour too, as space-17 R (player 1 plays R or Y, "
                    "player 2 B or G)",
                    len(text.rstrip()) + 1,
                )
            return DelaunayMove(space)
        word = words[1]
        colour = LETTERS.get(word.lower() if len(word) > 1 else word.upper())
        if colour is None:
            raise MoveSyntaxError(
                f"'{word}' is not a colour (R, B, Y, G or red, blue, yellow, green)",
                text.index(word, column + len(first)) + 1,
            )
        return DelaunayMove(space, colour)

    def format_move(self, move: DelaunayMove) -> str:
        if move.space is None:
            return "loss"
        text = self.ids[move.space]
        if move.colour is not None:
            text += f" {COLOURS[move.colour][0].upper()}"
        return text


RULES = DelaunayRules
