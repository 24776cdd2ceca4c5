"""Delaunay's cuts: a section cut into an exact number of cells along its own system of lines."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from papergames.errors import FitError
from papergames.layouts.delaunay.params import MIN_AREA, MIN_THICK
from papergames.sheets.geometry import ARC_TOLERANCE, arc_steps, iter_lines, iter_polygons
from papergames.sheets.rng import Rng

TAU = 2 * math.pi


FAR = 2000.0
"""Reach in mm of the rays and strips that cut shapes: far beyond any page."""


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
