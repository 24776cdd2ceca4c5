"""Crossing the Rings (Leroy Quet): concentric circles whose rings are cut into random sections.

The sheet is a target of ``circles`` equally spaced circles. Ring m lies between circle m and
circle m + 1 (counted from the centre) and is cut by k_m radial segments into k_m sections, k_m
drawn from the bounds ``min`` and ``max``. Each round is a page with its own division.

Conventions the rules engine and the photo reader rely on:

* Clock angles: 0 at 12 o'clock, growing clockwise as seen on the page.
* ``line-<c>``: circle c (1 = innermost), a closed polyline through a fine angular grid plus every
  cut end on it, so spaces share exact vertices with it and with each other.
* ``segment-<n>``: the cuts, ring by ring from the centre, clockwise from 12 o'clock within a ring.
* ``space-<n>``: the sections in the same order; section i of a ring runs clockwise from its cut i
  to its cut i + 1 (the last one wraps past 12 o'clock). ``space-0`` is the centre disk when
  ``centre=on``.
* ``point-<label>``: the cut ends. The label is the circle's letter (A = circle 1, the letter I is
  skipped so it is not read as a 1) and the point's number on that circle, clockwise from 12
  o'clock, counting the ends of the cuts on both sides of the circle together. Point data:
  circle, ring (of its cut) and clock angle; segment data: ring, index and its two end labels.
* Page data: round, sections (k per ring), tiled (the region the spaces tile), centre, radii,
  crowded_labels (labels that found no clear spot; 0 on the default sheet).

Every section is at least 4 mm wide along its inner circle and cut ends of neighbouring rings
stay 2.5 mm apart, which caps the counts of crowded rings. The room for the outer labels is kept
even with ``labels=off``, so both print the same division for a seed.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString, Point, Polygon

from papergames.bounds import text_box
from papergames.compose import Frame, content_frame
from papergames.errors import FitError, SpecError
from papergames.fonts import text_width
from papergames.geometry import arc_steps
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import Feature, Item, Kind, Layer, Sheet, Style, Text
from papergames.params import Param, ParamSet
from papergames.rng import Rng
from papergames.rules import IllegalMove, Player, Rules, parse_pair
from papergames.score import BIG, SPACING, score_area, score_area_height
from papergames.units import PAPERS

TAU = 2 * math.pi
LETTERS = "ABCDEFGHJKLM"
"""Circle letters, innermost first; no I, which reads as a 1 next to digits."""

MIN_WIDTH = 4.0
"""Least width in mm of a section, measured along its inner circle."""
END_GAP = 2.5
"""Least distance in mm between cut ends of neighbouring rings that lie on the same circle."""
MIN_RING = 6.0
"""Least distance in mm between neighbouring circles: narrower rings are too cramped to play."""
EPS = 1e-9

SCORE_WIDTH = 3 * BIG + 2 * SPACING
COLUMN_GAP = 10.0
"""Between players' score rows side by side: wider than the gaps inside a row, so each row
reads as one."""
LINE_GAP = 3.0
STROKE_PAD = 0.5
"""Room in mm kept inside the frame for the half strokes of the score boxes and the outer circle."""
FIELD_GAP = 4.0

CAP_HEIGHT = 0.73
"""Height of capitals and digits as a fraction of the em: the ink of a label."""
LINE_CLEAR = 0.65
"""Distance in mm kept between a label's ink and the centre of a medium line."""
HEAVY_CLEAR = 0.85
DOT_CLEAR = 0.95
LABEL_CLEAR = 0.5

TURN_COST = 2.5
"""Extra distance in mm a label along the radius must save to be preferred to a level one."""
ACROSS_COST = 0.2
"""Extra distance in mm for a label across the circle rather than in the cut's own ring."""
PASSES = 3
"""How often the labels are placed afresh, crowded ones first, before the least bad is kept."""

BOUND_HINT = "a whole number, m, <k>m (like 2m), m+<k> (like m+3) or 2^m"


class BoundsError(FitError):
    """The lower bound ``min`` asks for more sections than the rings can hold."""


# --- ring bounds ------------------------------------------------------------------------------


def parse_bound(text: str) -> str:
    """Parse a bound on a ring's section count into its canonical text.

    ``m`` stands for the ring's number counted from the centre. Accepted: a whole number ``5``,
    ``m``, ``2m``, ``m+3`` and ``2^m``.

    Example:
        >>> parse_bound("2M"), parse_bound("m+0"), parse_bound(" 2^m ")
        ('2m', 'm', '2^m')
    """
    form = text.strip().lower().replace(" ", "")
    if re.fullmatch(r"[0-9]+", form):
        value = int(form)
        if not 1 <= value <= 9999:
            raise ValueError("a fixed count must lie between 1 and 9999")
        return str(value)
    if form in ("m", "2^m"):
        return form
    match = re.fullmatch(r"([0-9]+)\*?m", form)
    if match:
        factor = int(match.group(1))
        if not 1 <= factor <= 99:
            raise ValueError("the factor before m must lie between 1 and 99")
        return "m" if factor == 1 else f"{factor}m"
    match = re.fullmatch(r"m\+([0-9]+)", form)
    if match:
        extra = int(match.group(1))
        if extra > 999:
            raise ValueError("the number added to m must be at most 999")
        return "m" if extra == 0 else f"m+{extra}"
    raise ValueError(f"'{text}' is not one of these forms")


def bound_value(form: str, ring: int) -> int:
    """The count a canonical bound gives for ring ``ring``.

    Example:
        >>> [bound_value(f, 4) for f in ("7", "m", "3m", "m+2", "2^m")]
        [7, 4, 12, 6, 16]
    """
    if form == "m":
        return ring
    if form == "2^m":
        return 1 << ring
    if form.endswith("m"):
        return int(form[:-1]) * ring
    if form.startswith("m+"):
        return ring + int(form[2:])
    return int(form)


# --- the plan: where the field and the score rows go ------------------------------------------


@dataclass(frozen=True)
class Plan:
    """The placement of one page: the target's centre and radius, label size, score rows.

    Attributes:
        cx, cy: centre of the circles in page mm.
        radius: radius of the outermost circle.
        circles: number of circles.
        label_size: em size of the point labels.
        margin: room kept outside the outermost circle for its labels.
        rows: top-left corners of the players' score rows.
    """

    cx: float
    cy: float
    radius: float
    circles: int
    label_size: float
    margin: float
    rows: tuple[tuple[float, float], ...]

    @property
    def spacing(self) -> float:
        return self.radius / self.circles

    def r(self, circle: int) -> float:
        """Radius of circle ``circle`` (1 = innermost)."""
        return circle * self.radius / self.circles


def _label_width(circles: int, size: float, count: int) -> float:
    return text_width(f"{LETTERS[circles - 1]}{'8' * len(str(max(count, 1)))}", size)


def _outer_margin(params: Mapping[str, Any], size: float, radius: float) -> float:
    """Room outside the outer circle for a label of the largest number that can occur there."""
    n = params["circles"]
    inner = radius * (n - 1) / n
    most = min(bound_value(params["max"], n - 1), math.floor(TAU * inner / MIN_WIDTH + EPS))
    return HEAVY_CLEAR + _label_width(n, size, most) + 0.3


def _arrangement(frame: Frame, players: int, under: bool) -> tuple[float, float, int, int]:
    """Room left for the field (w, h) and the grid of score rows (columns, lines)."""
    row_h = score_area_height(0, SCORE_WIDTH)
    if under:
        cols = max(1, min(players, int((frame.w + COLUMN_GAP) // (SCORE_WIDTH + COLUMN_GAP))))
        lines = math.ceil(players / cols)
        block = lines * row_h + (lines - 1) * LINE_GAP
        return frame.w, frame.h - block - FIELD_GAP, cols, lines
    lines = max(1, int((frame.h + LINE_GAP) // (row_h + LINE_GAP)))
    lines = min(lines, players)
    cols = math.ceil(players / lines)
    block = cols * SCORE_WIDTH + (cols - 1) * COLUMN_GAP
    return frame.w - block - FIELD_GAP, frame.h, cols, lines


def plan_page(frame: Frame, params: Mapping[str, Any]) -> Plan:
    """Make the target as large as the frame allows beside or under the score rows.

    Raises:
        FitError: when the rings would be narrower than :data:`MIN_RING`.
    """
    n: int = params["circles"]
    players: int = params["players"]
    frame = frame.inset(STROKE_PAD)
    best: Plan | None = None
    for under in (True, False):
        w, h, cols, lines = _arrangement(frame, players, under)
        half = min(w, h) / 2
        if half <= 0:
            continue
        rough = half - _outer_margin(params, 2.2, half)
        size = min(2.8, max(2.2, round(0.19 * rough / n, 1)))
        margin = _outer_margin(params, size, rough)
        radius = half - margin
        if radius <= 0:
            continue
        row_h = score_area_height(0, SCORE_WIDTH)
        disk = 2 * (radius + margin)
        if under:
            block_w = cols * SCORE_WIDTH + (cols - 1) * COLUMN_GAP
            block_h = lines * row_h + (lines - 1) * LINE_GAP
            top = frame.y + (frame.h - disk - FIELD_GAP - block_h) / 2
            cx, cy = frame.x + frame.w / 2, top + disk / 2
            bx, by = cx - block_w / 2, top + disk + FIELD_GAP
        else:
            block_w = cols * SCORE_WIDTH + (cols - 1) * COLUMN_GAP
            block_h = lines * row_h + (lines - 1) * LINE_GAP
            left = frame.x + (frame.w - disk - FIELD_GAP - block_w) / 2
            cx, cy = left + disk / 2, frame.y + frame.h / 2
            bx, by = left + disk + FIELD_GAP, cy - block_h / 2
        rows = tuple(
            (
                bx + (p // lines if not under else p % cols) * (SCORE_WIDTH + COLUMN_GAP),
                by + (p % lines if not under else p // cols) * (row_h + LINE_GAP),
            )
            for p in range(players)
        )
        plan = Plan(cx, cy, radius, n, size, margin, rows)
        if best is None or plan.radius > best.radius + 1e-6:
            best = plan
    if best is None or best.spacing < MIN_RING:
        have = 0.0 if best is None else best.spacing
        raise FitError(
            f"circles={n} makes rings only {have:.1f} mm wide on this paper (at least "
            f"{MIN_RING:.0f} mm are needed): use fewer circles or larger paper"
        )
    return best


# --- how many sections a ring may have --------------------------------------------------------


def width_cap(radius: float) -> int:
    """Most sections of at least :data:`MIN_WIDTH` mm along an inner circle of ``radius``."""
    return math.floor(TAU * radius / MIN_WIDTH + EPS)


def end_exclusion(radius: float) -> float:
    """Angle on a circle of ``radius`` that spans a chord of :data:`END_GAP` mm."""
    return 2 * math.asin(END_GAP / 2 / radius)


def room_after(radius: float, low_next: int) -> int:
    """Most cuts a ring may end on the circle of ``radius`` so the next ring keeps ``low_next``.

    Each end shuts :func:`end_exclusion` on both sides of it; what is left holds at least
    (left / gap) cuts of the next ring, whatever the ends' positions.
    """
    gap = MIN_WIDTH / radius
    return math.floor((TAU - gap * low_next) / (2 * end_exclusion(radius)) - EPS)


def ring_bounds(plan: Plan, params: Mapping[str, Any]) -> list[tuple[int, int]]:
    """Each ring's (low, high) count, high capped so every section is at least 4 mm wide.

    Raises:
        BoundsError: when a ring cannot hold its lower bound.
    """
    n = plan.circles
    bounds = []
    for m in range(1, n):
        low = bound_value(params["min"], m)
        high = min(bound_value(params["max"], m), width_cap(plan.r(m)))
        room = room_after(plan.r(m + 1), bound_value(params["min"], m + 1)) if m < n - 1 else low
        if low > high or low > room:
            why = (
                f"more than fit there at {MIN_WIDTH:.0f} mm each"
                if low > high
                else f"too many to leave room for the {bound_value(params['min'], m + 1)} of "
                f"ring {m + 1} on their shared circle"
            )
            raise BoundsError(
                f"min={params['min']} asks for {low} sections in ring {m}, {why}, with "
                f"circles={n} on this paper: lower min or use fewer circles"
            )
        bounds.append((low, high))
    return bounds


# --- the random division ----------------------------------------------------------------------


def _spread(rng: Rng, count: int, start: float, length: float, gap: float) -> list[float]:
    """``count`` random positions in [start, start + length], at least ``gap`` apart."""
    slack = max(0.0, length - (count - 1) * gap)
    offsets = sorted(rng.uniform(0.0, slack) for _ in range(count))
    return [start + u + i * gap for i, u in enumerate(offsets)]


def divide(plan: Plan, params: Mapping[str, Any], rng: Rng) -> list[list[float]]:
    """Clock angles of the cuts of every ring, sorted, each in [0, 2 pi).

    Cuts of one ring are at least :data:`MIN_WIDTH` mm apart along its inner circle; a cut end
    stays :data:`END_GAP` mm from the ends of the ring inside on the shared circle.
    """
    bounds = ring_bounds(plan, params)
    n = plan.circles
    rings: list[list[float]] = []
    previous: list[float] = []
    for m in range(1, n):
        r = plan.r(m)
        gap = MIN_WIDTH / r
        low, high = bounds[m - 1]
        if m < n - 1:
            high = min(high, room_after(plan.r(m + 1), bound_value(params["min"], m + 1)))
        if not previous:
            count = rng.randint(low, high)
            start = rng.uniform(0.0, TAU)
            angles = _spread(rng, count, start, TAU - gap, gap)
        else:
            shut = end_exclusion(r)
            arcs: list[tuple[float, float, int]] = []
            for j, a in enumerate(previous):
                b = previous[(j + 1) % len(previous)] + (TAU if j + 1 == len(previous) else 0.0)
                length = (b - shut) - (a + shut)
                if length >= 0:
                    arcs.append((a + shut, length, math.floor(length / gap + EPS) + 1))
            capacity = sum(c for _, _, c in arcs)
            if capacity < low:
                raise AssertionError("ring bounds let a ring fall below its lower bound")
            count = rng.randint(low, min(high, capacity))
            taken = [0] * len(arcs)
            for _ in range(count):
                left = [c - t for (_, _, c), t in zip(arcs, taken, strict=True)]
                pick = rng.random() * sum(left)
                for j, room in enumerate(left):
                    if pick < room:
                        taken[j] += 1
                        break
                    pick -= room
                else:
                    taken[max(range(len(left)), key=lambda j: left[j])] += 1
            angles = []
            for (start, length, _), t in zip(arcs, taken, strict=True):
                if t:
                    angles.extend(_spread(rng, t, start, length, gap))
        ring = sorted(a % TAU for a in angles)
        rings.append(ring)
        previous = ring
    return rings


# --- labels -----------------------------------------------------------------------------------


@dataclass
class _End:
    """A cut end to label: where it is, on which circle, and which ring's cut it ends."""

    label: str
    x: float
    y: float
    circle: int
    angle: float
    ring: int


Box = tuple[float, float, float, float]
Seg = tuple[float, float, float, float]


class _Label:
    """A label's ink: a rectangle of half sizes ``hw`` x ``hh`` centred at (x, y), turned by
    ``angle`` degrees counter-clockwise as seen on the page (as :class:`Text` turns)."""

    __slots__ = ("angle", "axes", "box", "hh", "hw", "pts", "x", "y")

    def __init__(self, x: float, y: float, hw: float, hh: float, angle: float) -> None:
        self.x, self.y, self.hw, self.hh, self.angle = x, y, hw, hh, angle
        a = math.radians(angle)
        c, s = math.cos(a), math.sin(a)
        self.axes = ((c, -s), (s, c))
        self.pts = [
            (x + i * hw * c + j * hh * s, y - i * hw * s + j * hh * c)
            for i, j in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        xs, ys = [p[0] for p in self.pts], [p[1] for p in self.pts]
        self.box: Box = (min(xs), min(ys), max(xs), max(ys))

    def local(self, px: float, py: float) -> tuple[float, float]:
        (ax, ay), (bx, by) = self.axes
        dx, dy = px - self.x, py - self.y
        return dx * ax + dy * ay, dx * bx + dy * by

    def dist(self, px: float, py: float) -> float:
        u, v = self.local(px, py)
        return math.hypot(max(abs(u) - self.hw, 0.0), max(abs(v) - self.hh, 0.0))

    def seg_dist(self, seg: Seg) -> float:
        u1, v1 = self.local(seg[0], seg[1])
        u2, v2 = self.local(seg[2], seg[3])
        return _seg_box_dist((u1, v1, u2, v2), (-self.hw, -self.hh, self.hw, self.hh))

    def overlaps(self, other: _Label, gap: float) -> bool:
        """Whether the two rectangles come closer than ``gap`` (separating axes)."""
        o = other.box
        if (
            self.box[0] >= o[2] + gap
            or o[0] >= self.box[2] + gap
            or self.box[1] >= o[3] + gap
            or o[1] >= self.box[3] + gap
        ):
            return False
        mine, theirs = self.pts, other.pts
        for ax, ay in (*self.axes, *other.axes):
            p = [x * ax + y * ay for x, y in mine]
            q = [x * ax + y * ay for x, y in theirs]
            if min(p) >= max(q) + gap or min(q) >= max(p) + gap:
                return False
        return True

    def text(self, item_id: str, label: str, size: float) -> Text:
        _, (bx, by) = self.axes
        return Text(
            item_id,
            self.x + self.hh * bx,
            self.y + self.hh * by,
            label,
            size,
            "middle",
            layer=Layer.TEXT,
            angle=self.angle,
        )


def _box_dist(px: float, py: float, b: Box) -> float:
    dx = max(b[0] - px, 0.0, px - b[2])
    dy = max(b[1] - py, 0.0, py - b[3])
    return math.hypot(dx, dy)


def _seg_point_dist(x1: float, y1: float, x2: float, y2: float, px: float, py: float) -> float:
    vx, vy = x2 - x1, y2 - y1
    t = max(0.0, min(1.0, ((px - x1) * vx + (py - y1) * vy) / (vx * vx + vy * vy)))
    return math.hypot(x1 + t * vx - px, y1 + t * vy - py)


def _seg_box_dist(seg: Seg, b: Box) -> float:
    """Distance between a segment and an axis-aligned box (0 when they meet)."""
    x1, y1, x2, y2 = seg
    t0, t1 = 0.0, 1.0
    dx, dy = x2 - x1, y2 - y1
    crosses = True
    for p, q in ((-dx, x1 - b[0]), (dx, b[2] - x1), (-dy, y1 - b[1]), (dy, b[3] - y1)):
        if p == 0:
            if q < 0:
                crosses = False
                break
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            crosses = False
            break
    if crosses:
        return 0.0
    corners = ((b[0], b[1]), (b[2], b[1]), (b[0], b[3]), (b[2], b[3]))
    return min(
        _box_dist(x1, y1, b),
        _box_dist(x2, y2, b),
        *(_seg_point_dist(x1, y1, x2, y2, cx, cy) for cx, cy in corners),
    )


class _Grid:
    """A coarse bucket grid so a label only meets the ink near it."""

    CELL = 5.0

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[int]] = {}

    def keys(self, b: Box) -> list[tuple[int, int]]:
        c = self.CELL
        return [
            (i, j)
            for i in range(math.floor(b[0] / c), math.floor(b[2] / c) + 1)
            for j in range(math.floor(b[1] / c), math.floor(b[3] / c) + 1)
        ]

    def add(self, b: Box, index: int) -> None:
        for key in self.keys(b):
            self.cells.setdefault(key, []).append(index)

    def near(self, b: Box) -> set[int]:
        found: set[int] = set()
        for key in self.keys(b):
            found.update(self.cells.get(key, ()))
        return found


def _upright(degrees: float) -> float:
    """The same direction of text turned half a turn if it would read upside down."""
    a = (degrees + 180.0) % 360.0 - 180.0
    if a > 90.0:
        a -= 180.0
    elif a <= -90.0:
        a += 180.0
    return a


class _Labeller:
    """Places each point's label next to it, clear of every line, dot and other label.

    Labels are set level where they fit; where the sections are too narrow for a level label
    one is turned to run along the radius, beside the cut or in line with it across the circle.
    A label that fits nowhere takes its least crowded spot and is counted in ``crowded``.
    """

    def __init__(
        self,
        plan: Plan,
        frame: Frame,
        cuts: Sequence[Seg],
        ends: Sequence[_End],
        keep_out: Sequence[Box],
    ) -> None:
        self.plan = plan
        self.frame = frame
        self.size = plan.label_size
        self.cuts = list(cuts)
        self.ends = list(ends)
        self.cut_grid = _Grid()
        for i, (x1, y1, x2, y2) in enumerate(self.cuts):
            self.cut_grid.add((min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)), i)
        self.end_grid = _Grid()
        for i, e in enumerate(self.ends):
            self.end_grid.add((e.x, e.y, e.x, e.y), i)
        self.labels: list[_Label] = []
        self.label_grid = _Grid()
        self.keep_out = list(keep_out)
        self.crowded_ends: set[int] = set()
        self.badness = 0.0

    def _clashes(self, lab: _Label, own: int) -> float:
        """How badly a label collides: 0 when it is clear of all ink, inf when off limits."""
        plan = self.plan
        box = lab.box
        f = self.frame
        pad = 0.3 * self.size
        full = (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)
        if full[0] < f.x or full[1] < f.y or full[2] > f.right or full[3] > f.bottom:
            full = text_box(lab.text("probe", self.ends[own].label, self.size))
            if full[0] < f.x or full[1] < f.y or full[2] > f.right or full[3] > f.bottom:
                return math.inf
        if any(
            full[0] < k[2] and k[0] < full[2] and full[1] < k[3] and k[1] < full[3]
            for k in self.keep_out
        ):
            return math.inf
        near = lab.dist(plan.cx, plan.cy)
        far = max(math.hypot(px - plan.cx, py - plan.cy) for px, py in lab.pts)
        if far > plan.radius + plan.margin:
            return math.inf
        bad = 0.0
        d = plan.spacing
        for c in range(max(1, math.ceil((near - HEAVY_CLEAR) / d)), plan.circles + 1):
            r = c * d
            if r > far + HEAVY_CLEAR:
                break
            clear = HEAVY_CLEAR if c == plan.circles else LINE_CLEAR
            if near - clear < r < far + clear:
                bad += 1.0
        grown = (box[0] - DOT_CLEAR, box[1] - DOT_CLEAR, box[2] + DOT_CLEAR, box[3] + DOT_CLEAR)
        for i in self.cut_grid.near(grown):
            x1, y1, x2, y2 = self.cuts[i]
            if (
                min(x1, x2) < grown[2]
                and max(x1, x2) > grown[0]
                and min(y1, y2) < grown[3]
                and max(y1, y2) > grown[1]
                and lab.seg_dist(self.cuts[i]) < LINE_CLEAR
            ):
                bad += 1.0
        for i in self.end_grid.near(grown):
            e = self.ends[i]
            if lab.dist(e.x, e.y) < DOT_CLEAR - (0.2 if i == own else 0.0):
                bad += 3.0
        for i in self.label_grid.near(grown):
            if lab.overlaps(self.labels[i], LABEL_CLEAR):
                bad += 10.0
        return bad

    def _ambiguous(self, lab: _Label, own: int) -> bool:
        """Whether another point lies about as close to the label as its own point."""
        e = self.ends[own]
        mine = lab.dist(e.x, e.y)
        b = lab.box
        reach = mine + 0.5
        grown = (b[0] - reach, b[1] - reach, b[2] + reach, b[3] + reach)
        return any(
            lab.dist(self.ends[i].x, self.ends[i].y) < mine + 0.5
            for i in self.end_grid.near(grown)
            if i != own
        )

    def _candidates(self, index: int, w: float, h: float) -> Iterator[_Label]:
        """Label spots to try, best first: the spots right at the point (beside the cut in its
        own ring, across the circle, level or along the radius) nearest first, then farther."""
        e = self.ends[index]
        ux, uy = math.sin(e.angle), -math.cos(e.angle)
        vx, vy = -uy, ux
        sign = 1.0 if e.ring == e.circle else -1.0
        nx, ny = sign * ux, sign * uy
        side = LINE_CLEAR + 0.15
        radial = _upright(90.0 - math.degrees(e.angle))
        hb = abs(vx) * w / 2 + abs(vy) * h / 2

        def level(a: float, b: float, px: float = nx, py: float = ny) -> _Label:
            """A level label whose near side is ``a`` mm from P along (px, py), ``b`` across."""
            ha = abs(px) * w / 2 + abs(py) * h / 2
            bb = b + math.copysign(hb, b) if b else 0.0
            x, y = e.x + (a + ha) * px + bb * vx, e.y + (a + ha) * py + bb * vy
            return _Label(x, y, w / 2, h / 2, 0.0)

        def turned(a: float, b: float, px: float = nx, py: float = ny) -> _Label:
            """A label along the radius, ``a`` mm out from P along (px, py), ``b`` across."""
            bb = b + math.copysign(h / 2, b) if b else 0.0
            x, y = e.x + (a + w / 2) * px + bb * vx, e.y + (a + w / 2) * py + bb * vy
            return _Label(x, y, w / 2, h / 2, radial)

        outer = e.circle == self.plan.circles
        near: list[tuple[float, _Label]] = []
        if outer:
            for b in (0.0, 0.8, -0.8, 1.6, -1.6):
                near.append((0.0, level(HEAVY_CLEAR, b, ux, uy)))
            near.append((TURN_COST, turned(HEAVY_CLEAR, 0.0, ux, uy)))
        else:
            for b in (0.0, 0.9, -0.9, 1.8, -1.8):
                near.append((ACROSS_COST, level(side, b, -nx, -ny)))
            near.append((ACROSS_COST + TURN_COST, turned(side, 0.0, -nx, -ny)))
        for a in (side, side + 0.7, side + 1.5):
            near.append((0.0, level(a, side)))
            near.append((0.0, level(a, -side)))
            near.append((TURN_COST, turned(a, side)))
            near.append((TURN_COST, turned(a, -side)))
        near.sort(key=lambda item: item[0] + item[1].dist(e.x, e.y))
        for _, lab in near:
            yield lab
        if not outer:
            for b in (0.9, -0.9, 1.8, -1.8):
                yield turned(side, b, -nx, -ny)
        for a in (side + 2.5, side + 3.5):
            yield turned(a, side)
            yield turned(a, -side)
        for a in (side, side + 1.0, side + 2.0, side + 3.5):
            for b in (side + 1.0, -side - 1.0, side + 2.5, -side - 2.5):
                yield level(a, b)
        for k in range(16):
            phi = TAU * k / 16
            for dist in (1.2, 2.5):
                x, y = e.x + math.cos(phi) * (w / 2 + dist), e.y + math.sin(phi) * (h / 2 + dist)
                yield _Label(x, y, w / 2, h / 2, 0.0)

    @property
    def crowded(self) -> int:
        return len(self.crowded_ends)

    def place(self, index: int) -> Text:
        """Place the label of end ``index`` at its best free spot and return its text."""
        e = self.ends[index]
        w = text_width(e.label, self.size)
        h = CAP_HEIGHT * self.size
        best: tuple[float, _Label] | None = None
        fallback: _Label | None = None
        chosen: _Label | None = None
        for lab in self._candidates(index, w, h):
            bad = self._clashes(lab, index)
            if bad == 0:
                if not self._ambiguous(lab, index):
                    chosen = lab
                    break
                if fallback is None:
                    fallback = lab
            elif best is None or bad < best[0]:
                best = (bad, lab)
        if chosen is None:
            chosen = fallback
        if chosen is None:
            if best is None or best[0] == math.inf:
                raise FitError(f"no room to print the label {e.label}: set labels=off")
            chosen = best[1]
            self.crowded_ends.add(index)
            self.badness += best[0]
        self.label_grid.add(chosen.box, len(self.labels))
        self.labels.append(chosen)
        return chosen.text(f"label-{e.label}", e.label, self.size)


def _place_labels(
    plan: Plan, frame: Frame, cuts: Sequence[Seg], ends: Sequence[_End], keep_out: Sequence[Box]
) -> tuple[list[Text], int]:
    """Label every point; when some are crowded, try again placing the crowded ones first."""
    order = list(range(len(ends)))
    hard: list[int] = []
    best: tuple[float, list[Text], int] | None = None
    for _ in range(PASSES):
        labeller = _Labeller(plan, frame, cuts, ends, keep_out)
        first = set(hard)
        placed = {i: labeller.place(i) for i in hard + [i for i in order if i not in first]}
        if best is None or labeller.badness < best[0]:
            best = (labeller.badness, [placed[i] for i in order], labeller.crowded)
        if not labeller.crowded:
            break
        hard += [i for i in order if i in labeller.crowded_ends and i not in first]
    assert best is not None
    return best[1], best[2]


# --- the layout -------------------------------------------------------------------------------


@dataclass
class _Round:
    """The geometry of one round's division."""

    items: list[Item]
    field: Polygon
    tiled: Polygon
    sections: list[int]
    crowded: int


def _circular_gap(keys: Sequence[float], t: float) -> float:
    """Angular distance from ``t`` to the nearest of the sorted angles ``keys``."""
    k = bisect.bisect_left(keys, t)
    near = (keys[k % len(keys)], keys[k - 1])
    return min(min(abs(a - t), TAU - abs(a - t)) for a in near)


def _build_round(plan: Plan, frame: Frame, params: Mapping[str, Any], rng: Rng) -> _Round:
    n = plan.circles
    cuts = divide(plan, params, rng)

    def xy(r: float, t: float) -> tuple[float, float]:
        return (plan.cx + r * math.sin(t), plan.cy - r * math.cos(t))

    # Every circle's vertices: a fine grid plus the cut ends on it, in clock order.
    angles: list[list[float]] = []
    coords: list[list[tuple[float, float]]] = []
    ends_on: list[list[tuple[float, int]]] = []
    for c in range(1, n + 1):
        r = plan.r(c)
        special = sorted(
            [(t, c - 1) for t in (cuts[c - 2] if c >= 2 else [])]
            + [(t, c) for t in (cuts[c - 1] if c <= n - 1 else [])]
        )
        ends_on.append(special)
        steps = arc_steps(r, TAU)
        keys = [t for t, _ in special]
        grid = [TAU * j / steps for j in range(steps)]
        if keys:
            grid = [t for t in grid if _circular_gap(keys, t) >= 1e-4]
        merged = sorted(set(grid) | set(keys))
        angles.append(merged)
        coords.append([xy(r, t) for t in merged])

    def index_of(c: int, t: float) -> int:
        return bisect.bisect_left(angles[c - 1], t)

    def arc(c: int, a: float, b: float) -> list[tuple[float, float]]:
        i, j = index_of(c, a), index_of(c, b)
        pts = coords[c - 1]
        return pts[i : j + 1] if i <= j else pts[i:] + pts[: j + 1]

    items: list[Item] = []
    for c in range(1, n + 1):
        pts = coords[c - 1]
        items.append(
            Feature(
                f"line-{c}",
                Kind.LINE,
                LineString([*pts, pts[0]]),
                Style.HEAVY if c == n else Style.MEDIUM,
                data={"circle": c, "radius": plan.r(c)},
            )
        )
    field = Polygon(coords[n - 1])
    inner = Polygon(coords[0])
    if params["centre"]:
        items.append(Feature("space-0", Kind.SPACE, inner, group="ring-0", data={"ring": 0}))
    labels: dict[tuple[int, float], str] = {}
    ends: list[_End] = []
    for c in range(1, n + 1):
        for j, (t, owner) in enumerate(ends_on[c - 1], start=1):
            label = f"{LETTERS[c - 1]}{j}"
            labels[(c, t)] = label
            x, y = xy(plan.r(c), t)
            ends.append(_End(label, x, y, c, t, owner))
    space_no = 0
    segment_no = 0
    segments: list[tuple[float, float, float, float]] = []
    for m, ring in enumerate(cuts, start=1):
        k = len(ring)
        for i, t in enumerate(ring, start=1):
            segment_no += 1
            foot = coords[m - 1][index_of(m, t)]
            head = coords[m][index_of(m + 1, t)]
            segments.append((*foot, *head))
            items.append(
                Feature(
                    f"segment-{segment_no}",
                    Kind.SEGMENT,
                    LineString([foot, head]),
                    Style.MEDIUM,
                    group=f"ring-{m}",
                    data={
                        "ring": m,
                        "index": i,
                        "ends": [labels[(m, t)], labels[(m + 1, t)]],
                    },
                )
            )
        for i in range(k):
            space_no += 1
            if k == 1:
                shape = Polygon(coords[m], [coords[m - 1]])
            else:
                start, end = ring[i], ring[(i + 1) % k]
                shape = Polygon(arc(m + 1, start, end) + arc(m, start, end)[::-1])
            items.append(
                Feature(
                    f"space-{space_no}",
                    Kind.SPACE,
                    shape,
                    group=f"ring-{m}",
                    data={"ring": m, "index": i + 1},
                )
            )
    for e in ends:
        items.append(
            Feature(
                f"point-{e.label}",
                Kind.POINT,
                Point(e.x, e.y),
                Style.SOLID,
                label=e.label,
                data={"circle": e.circle, "ring": e.ring, "angle": e.angle},
            )
        )
    crowded = 0
    if params["labels"]:
        row_h = score_area_height(0, SCORE_WIDTH)
        keep_out = [(x, y, x + SCORE_WIDTH, y + row_h) for x, y in plan.rows]
        texts, crowded = _place_labels(plan, frame, segments, ends, keep_out)
        items.extend(texts)
    tiled = field if params["centre"] else Polygon(coords[n - 1], [coords[0]])
    return _Round(items, field, tiled, [len(r) for r in cuts], crowded)


def _caps_note(circles: int) -> str:
    params = dict(LAYOUT.params.defaults())
    params["circles"] = circles
    a4 = PAPERS["a4"]
    frame = content_frame(*a4.size(False))
    plan = plan_page(frame, params)
    capped = []
    for m in range(1, circles):
        high = bound_value(params["max"], m)
        cap = width_cap(plan.r(m))
        if cap < high:
            capped.append((m, cap))
    if not capped:
        return f"circles={circles} on A4: no ring is capped, every ring can reach max"
    first, last = capped[0][0], capped[-1][0]
    counts = ", ".join(str(c) for _, c in capped)
    return (
        f"circles={circles} on A4: rings {first}..{last} are capped at {counts} sections "
        f"(each section at least {MIN_WIDTH:.0f} mm wide along its inner circle)"
    )


def _telling_error(ctx: BuildContext, own: FitError) -> FitError:
    """The error to report when this orientation fails.

    The sheet maker reports the last orientation's error; when both fail, the reason of the
    turned page may be narrow rings while the upright one failed only on ``min``, which is the
    one a user can act on, so that one wins.
    """
    if isinstance(own, BoundsError) or ctx.spec.orientation != "auto":
        return own
    other = content_frame(ctx.page_height, ctx.page_width)
    try:
        ring_bounds(plan_page(other, ctx.params), ctx.params)
    except BoundsError as exc:
        return exc
    except FitError:
        pass
    return own


class RingsLayout(Layout):
    """Crossing the Rings: a target of circles cut into random sections, a page per round."""

    name = "rings"
    params = ParamSet(
        [
            Param.int("circles", 6, 3, 12, "number of concentric circles"),
            Param.text("min", "m", parse_bound, BOUND_HINT, "fewest sections in ring m"),
            Param.text("max", "2^m", parse_bound, BOUND_HINT, "most sections in ring m"),
            Param.int("rounds", 1, 1, 12, "rounds, one page each with its own division"),
            Param.bool("labels", True, "print the names of the cut ends"),
            Param.int("players", 2, 2, 6, "score rows on each page"),
            Param.bool("centre", False, "the centre disk is a section too"),
        ]
    )
    how_to_play = """\
Setup: the sheet shows equally spaced circles like a target; ring m is the band between circle \
m and circle m+1, counting from the middle. Each player takes a pencil of a colour nobody else \
uses. One player is the divider for the round; the role passes on each round.

Dividing: the divider splits every ring into sections with straight cuts that run across the \
ring along a radius, giving ring m between m and 2^m sections (players may agree on other \
bounds) and placing the cuts as he likes. Each printed page already carries a random division \
for one round, so the divider's job can be left to the sheet. The disk inside circle 1 is not \
a section unless the centre option is on.

Lines: every cut has two ends, and these ends are the only points lines may join. The players \
other than the divider each draw one straight line, in turn, from any end to any other end; \
the divider draws the last line. The ends are named on the sheet by the circle's letter and a \
number counted clockwise from the top, so a line can be written down as, for example, C4-F17.

Filling: right after drawing a line, its owner colours every still empty section the line \
passes through. A line passes through a section only if it goes through the section's inside; \
running along its rim or touching it at a corner does not count. Lines may cross one another \
and may pass through coloured sections, but a coloured section keeps its first colour. A line \
may not run along a cut; by agreement it may, but then neither section beside that cut is \
filled by it.

Scoring: each section in your colour scores one point. Play enough rounds that everyone is the \
divider equally often, and change the order of play from round to round so that everyone has \
each place in the order equally often. The highest total over all rounds wins.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """Reject bounds whose minimum exceeds the maximum on some ring."""
        for m in range(1, params["circles"]):
            low, high = bound_value(params["min"], m), bound_value(params["max"], m)
            if low > high:
                raise SpecError(
                    f"min={params['min']} is larger than max={params['max']} in ring {m} "
                    f"({low} > {high}): min must not exceed max on any ring"
                )

    def notes(self) -> list[str]:
        """Where the 4 mm width caps the default bounds, computed on A4 portrait."""
        return [
            _caps_note(6),
            _caps_note(12),
            f"cut ends of neighbouring rings stay {END_GAP} mm apart on their shared circle, "
            "which can hold a ring below its capped maximum when the ring inside is crowded",
            "from about 10 circles with the default bounds the labels of the outer rings are "
            "tight and a few may touch a line; labels=off prints the same division without them",
        ]

    def field_area(self, ctx: BuildContext) -> float:
        """The target's disk: its radius comes from the plan, before any division or label."""
        try:
            plan = plan_page(ctx.frame, ctx.params)
            ring_bounds(plan, ctx.params)
        except FitError as own:
            raise _telling_error(ctx, own) from None
        return math.pi * plan.radius**2

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = ctx.params
        try:
            plan = plan_page(ctx.frame, params)
            ring_bounds(plan, params)
        except FitError as own:
            raise _telling_error(ctx, own) from None
        rounds: int = params["rounds"]
        bodies = []
        for r in range(1, rounds + 1):
            done = _build_round(plan, ctx.frame, params, ctx.rng("round", r))
            items = done.items
            for p, (x, y) in enumerate(plan.rows, start=1):
                items.extend(score_area(p, x, y, SCORE_WIDTH, 0, total_caption="score").items)
            counts = ", ".join(str(k) for k in done.sections)
            subtitle = f"sections per ring: {counts}"
            if rounds > 1:
                subtitle = f"Round {r} of {rounds} · {subtitle}"
            else:
                subtitle = subtitle[0].upper() + subtitle[1:]
            bodies.append(
                PageBody(
                    items,
                    subtitle,
                    done.field,
                    {
                        "round": r,
                        "sections": done.sections,
                        "tiled": done.tiled,
                        "centre": (plan.cx, plan.cy),
                        "radii": [plan.r(c) for c in range(1, plan.circles + 1)],
                        "crowded_labels": done.crowded,
                    },
                )
            )
        return bodies


LAYOUT = RingsLayout()


@dataclass(frozen=True)
class _Ring:
    """One ring of a round for the rules: its radii, cut angles and first space number."""

    inner: float
    outer: float
    cuts: tuple[float, ...]
    first: int


class RoundGeometry:
    """The exact geometry of one page (round) for the rules: circles, cut ends, sections.

    Positions are worked out from the radii and clock angles, not from the printed polylines,
    so a line grazing a circle is judged against the true circle. A line passes through a
    section when some open stretch of it lies strictly inside the section.
    """

    def __init__(self, page: Any, centre_space: bool) -> None:
        radii: list[float] = page.data["radii"]
        self.labels: list[str] = []
        self.xy: list[tuple[float, float]] = []
        self.angle: list[float] = []
        angle_of: dict[str, float] = {}
        for feature in page.features(Kind.POINT):
            r, t = radii[feature.data["circle"] - 1], feature.data["angle"]
            self.labels.append(feature.label or "")
            self.xy.append((r * math.sin(t), r * math.cos(t)))
            self.angle.append(t)
            angle_of[feature.label or ""] = t
        self.index = {label: k for k, label in enumerate(self.labels)}
        cuts: dict[int, list[float]] = {}
        for feature in page.features(Kind.SEGMENT):
            cuts.setdefault(feature.data["ring"], []).append(angle_of[feature.data["ends"][0]])
        self.rings: list[_Ring] = []
        first = 1
        for m in range(1, len(radii)):
            ring_cuts = tuple(sorted(cuts.get(m, [])))
            self.rings.append(_Ring(radii[m - 1], radii[m], ring_cuts, first))
            first += len(ring_cuts)
        self.spaces = first - 1
        self.centre_radius = radii[0] if centre_space else 0.0
        self._cache: dict[tuple[int, int], tuple[frozenset[int], frozenset[int]]] = {}

    def crossing(self, a: int, b: int) -> tuple[frozenset[int], frozenset[int]]:
        """For the line between points a and b: the spaces it passes through, and the spaces
        beside a cut it runs along (empty unless it coincides with a cut). Space 0 is the
        centre disk when it is a section."""
        key = (min(a, b), max(a, b))
        if key not in self._cache:
            self._cache[key] = self._crossing(*key)
        return self._cache[key]

    def _crossing(self, a: int, b: int) -> tuple[frozenset[int], frozenset[int]]:
        (px, py), (qx, qy) = self.xy[a], self.xy[b]
        dx, dy = qx - px, qy - py
        length = math.hypot(dx, dy)
        radial = abs(px * dy - py * dx) <= 1e-9 * max(1.0, length * math.hypot(px, py))
        passed: set[int] = set()
        beside: set[int] = set()
        if self.centre_radius and _inside_spans(px, py, dx, dy, 0.0, self.centre_radius):
            passed.add(0)
        for ring in self.rings:
            for ta, tb in _inside_spans(px, py, dx, dy, ring.inner, ring.outer):
                xa, ya = px + ta * dx, py + ta * dy
                xb, yb = px + tb * dx, py + tb * dy
                if radial:
                    mid = math.atan2((xa + xb) / 2, (ya + yb) / 2) % TAU
                    along = _cut_at(ring.cuts, mid)
                    if along is not None:
                        k = len(ring.cuts)
                        beside.update({ring.first + along, ring.first + (along - 1) % k})
                    else:
                        passed.add(ring.first + _section_at(ring.cuts, mid))
                    continue
                start = math.atan2(xa, ya) % TAU
                end = math.atan2(xb, yb) % TAU
                if px * dy - py * dx > 0:
                    # Clock angles grow clockwise, (x, y) = (r sin t, r cos t): a positive turn
                    # of the line about the centre is anticlockwise, so sweep from its far end.
                    start, end = end, start
                sweep = (end - start) % TAU
                passed.update(
                    ring.first + i for i in _sections_overlapping(ring.cuts, start, sweep)
                )
        return frozenset(passed - beside), frozenset(beside)


def _inside_spans(
    px: float, py: float, dx: float, dy: float, inner: float, outer: float
) -> list[tuple[float, float]]:
    """The open stretches t in (0, 1) where inner < |p + t d| < outer, longer than a trace."""
    a = dx * dx + dy * dy
    b = 2 * (px * dx + py * dy)
    c = px * px + py * py

    def below(r: float) -> tuple[float, float] | None:
        disc = b * b - 4 * a * (c - r * r)
        if disc <= 0:
            return None
        root = math.sqrt(disc)
        return ((-b - root) / (2 * a), (-b + root) / (2 * a))

    out_span = below(outer)
    if out_span is None:
        return []
    lo, hi = max(0.0, out_span[0]), min(1.0, out_span[1])
    spans = [(lo, hi)]
    hole = below(inner) if inner > 0 else None
    if hole is not None:
        spans = [(lo, min(hi, hole[0])), (max(lo, hole[1]), hi)]
    trace = 1e-7 / math.sqrt(a)
    return [(s, e) for s, e in spans if e - s > trace]


def _cut_at(cuts: Sequence[float], angle: float) -> int | None:
    for i, t in enumerate(cuts):
        if abs((angle - t + math.pi) % TAU - math.pi) < 1e-9:
            return i
    return None


def _section_at(cuts: Sequence[float], angle: float) -> int:
    """The 0-based section holding ``angle``: section i runs clockwise from cut i to cut i+1."""
    i = bisect.bisect_right(cuts, angle) - 1
    return i % len(cuts)


def _sections_overlapping(cuts: Sequence[float], start: float, sweep: float) -> list[int]:
    """Sections whose open angular span meets the open clockwise span (start, start + sweep)."""
    k = len(cuts)
    hit = []
    for i in range(k):
        a = cuts[i]
        width = (cuts[(i + 1) % k] - a) % TAU or TAU
        offset = (a - start) % TAU
        # Two open arcs meet when one starts strictly inside the other.
        if offset < sweep - 1e-12 or (TAU - offset) < width - 1e-12:
            hit.append(i)
    return hit


@dataclass(frozen=True)
class RingsState:
    """Where the game stands: the round and move in it, who owns each section, the scores."""

    round: int = 0
    step: int = 0
    owners: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()


class RingsRules(Rules[RingsState, tuple[str, str]]):
    """Crossing the Rings on a printed sheet: one page per round, the division as printed.

    In round r (from 0) the divider is player r mod P; the others draw a line each, in order
    starting after the divider, and the divider draws last. A move is the pair of labels of
    the two cut ends, as printed on the round's page (``C4-F17``).
    """

    game = "rings"
    notation = "a line between two cut ends by their printed labels, like C4-F17"
    options = ParamSet(
        [
            Param.choice(
                "coincide",
                "illegal",
                ("illegal", "allowed"),
                "a line along a cut: refused, or allowed but filling neither section beside it",
            )
        ]
    )

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        centre = bool(sheet.spec.params["centre"])
        self.rounds = [RoundGeometry(page, centre) for page in sheet.pages]
        self.coincide_allowed = self.option_values["coincide"] == "allowed"

    def order(self, round_no: int) -> list[int]:
        """Who moves in a round, in order: the others from after the divider, then the divider."""
        count = len(self.players)
        divider = round_no % count
        return [(divider + j) % count for j in range(1, count)] + [divider]

    def _blank(self, round_no: int, scores: tuple[int, ...]) -> RingsState:
        size = self.rounds[round_no].spaces + 1
        return RingsState(round_no, 0, (-1,) * size, scores)

    def initial(self) -> RingsState:
        return self._blank(0, (0,) * len(self.players))

    def to_move(self, state: RingsState) -> int | None:
        if state.round >= len(self.rounds):
            return None
        return self.order(state.round)[state.step]

    def legal_moves(self, state: RingsState) -> Iterator[tuple[str, str]]:
        if self.to_move(state) is None:
            return
        geometry = self.rounds[state.round]
        labels = geometry.labels
        for a, b in itertools.combinations(range(len(labels)), 2):
            if (
                self.coincide_allowed
                or not self._radial_pair(geometry, a, b)
                or not geometry.crossing(a, b)[1]
            ):
                yield (labels[a], labels[b])

    @staticmethod
    def _radial_pair(geometry: RoundGeometry, a: int, b: int) -> bool:
        gap = abs(geometry.angle[a] - geometry.angle[b]) % math.pi
        return min(gap, math.pi - gap) < 1e-9

    def random_move(self, state: RingsState, rng: Rng) -> tuple[str, str]:
        if self.to_move(state) is None:
            raise IllegalMove("game-over", "every round has been played")
        geometry = self.rounds[state.round]
        while True:
            a, b = sorted(rng.sample(range(len(geometry.labels)), 2))
            if self.coincide_allowed or not geometry.crossing(a, b)[1]:
                return (geometry.labels[a], geometry.labels[b])

    def apply(self, state: RingsState, move: tuple[str, str]) -> RingsState:
        mover = self.to_move(state)
        if mover is None:
            raise IllegalMove("game-over", "every round has been played")
        geometry = self.rounds[state.round]
        missing = [label for label in move if label not in geometry.index]
        if missing or move[0] == move[1]:
            raise IllegalMove(
                "no-such-end", f"{'-'.join(move)} does not join two cut ends of this round's page"
            )
        passed, beside = geometry.crossing(geometry.index[move[0]], geometry.index[move[1]])
        if beside and not self.coincide_allowed:
            raise IllegalMove(
                "along-cut",
                f"{'-'.join(move)} runs along a cut between two sections "
                "(allowed only with the option coincide=allowed)",
            )
        owners = list(state.owners)
        scores = list(state.scores)
        for space in sorted(passed):
            if owners[space] < 0:
                owners[space] = mover
                scores[mover] += 1
        step = state.step + 1
        if step == len(self.players):
            if state.round + 1 < len(self.rounds):
                return self._blank(state.round + 1, tuple(scores))
            return RingsState(state.round + 1, 0, tuple(owners), tuple(scores))
        return RingsState(state.round, step, tuple(owners), tuple(scores))

    def parse_move(self, text: str, state: RingsState) -> tuple[str, str]:
        geometry = self.rounds[min(state.round, len(self.rounds) - 1)]
        return parse_pair(
            text, geometry.index, f"a cut end printed on page {state.round + 1}", "a line"
        )

    def format_move(self, move: tuple[str, str]) -> str:
        return f"{move[0]}-{move[1]}"

    def scores(self, state: RingsState) -> tuple[int, ...]:
        return state.scores

    def describe(self, state: RingsState) -> list[str]:
        count = len(self.players)
        if len(self.rounds) % count:
            return [
                f"{len(self.rounds)} rounds for {count} players: not everyone was the divider "
                "equally often (print rounds as a multiple of the players)"
            ]
        return []


RULES = RingsRules
