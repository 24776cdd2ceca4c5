"""Crossing the Rings' plan: ring bounds, the target and score rows on the page, the division."""

from __future__ import annotations

import math
from dataclasses import dataclass

from papergames.errors import FitError
from papergames.fonts import text_width
from papergames.layouts.rings.params import END_GAP, MIN_WIDTH, RingsParams
from papergames.sheets.compose import Frame
from papergames.sheets.rng import Rng
from papergames.sheets.score import BIG, SPACING, score_area_height

TAU = 2 * math.pi


LETTERS = "ABCDEFGHJKLM"
"""Circle letters, innermost first; no I, which reads as a 1 next to digits."""


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


MIN_LABEL = 2.5
"""Least type size in mm of a cut end's label (7.1 pt): players read them to name their lines."""


CAP_HEIGHT = 0.73
"""Height of capitals and digits as a fraction of the em: the ink of a label."""


LINE_CLEAR = 0.65
"""Distance in mm kept between a label's ink and the centre of a medium line."""


HEAVY_CLEAR = 0.85


DOT_CLEAR = 0.95


LABEL_CLEAR = 0.5


ACROSS_COST = 0.2
"""Extra distance in mm for a label across the circle rather than in the cut's own ring."""


PASSES = 3
"""How often the labels are placed afresh, crowded ones first, before the least bad is kept."""


class BoundsError(FitError):
    """The lower bound ``min`` asks for more sections than the rings can hold."""


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


def _outer_margin(params: RingsParams, size: float, radius: float) -> float:
    """Room outside the outer circle for a label of the largest number that can occur there."""
    n = params.circles
    inner = radius * (n - 1) / n
    most = min(bound_value(params.max, n - 1), math.floor(TAU * inner / MIN_WIDTH + EPS))
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


def plan_page(frame: Frame, params: RingsParams) -> Plan:
    """Make the target as large as the frame allows beside or under the score rows.

    Raises:
        FitError: when the rings would be narrower than :data:`MIN_RING`.
    """
    n, players = params.circles, params.players
    frame = frame.inset(STROKE_PAD)
    best: Plan | None = None
    for under in (True, False):
        w, h, cols, lines = _arrangement(frame, players, under)
        half = min(w, h) / 2
        if half <= 0:
            continue
        rough = half - _outer_margin(params, 2.2, half)
        size = min(2.8, max(MIN_LABEL, round(0.19 * rough / n, 1)))
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


def width_cap(radius: float) -> int:
    """Most sections of at least :data:`MIN_WIDTH` mm along an inner circle of ``radius``."""
    return math.floor(TAU * radius / MIN_WIDTH + EPS)


LABEL_SHARE = 0.7
"""The part of a circle's length one ring's cut ends may fill with labels: the rings on both
sides of a circle share its room, each label sitting on whichever side is free."""


def label_cap(plan: Plan, ring: int) -> int:
    """Most sections of ring ``ring`` that leave its cut ends' labels room to sit level.

    On average each section is wider, along its inner circle, than the widest label of the
    ring's outer circle and the clearance on both sides of it (by :data:`LABEL_SHARE`): on a
    crowded sheet the outer rings get fewer, wider sections rather than labels on the cuts. On
    the default sheets the cap is far above the bounds and changes nothing.
    """
    return max(1, math.floor(LABEL_SHARE * TAU * plan.r(ring) / label_room(plan, ring) + EPS))


def label_room(plan: Plan, ring: int) -> float:
    """Width in mm a section of ``ring`` needs for a level label and its clearance each side."""
    widest = text_width(f"{LETTERS[ring]}88", plan.label_size)
    return widest + 2 * LINE_CLEAR + LABEL_CLEAR


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


def ring_bounds(plan: Plan, params: RingsParams) -> list[tuple[int, int]]:
    """Each ring's (low, high) count, high capped so every section is at least 4 mm wide.

    Raises:
        BoundsError: when a ring cannot hold its lower bound.
    """
    n = plan.circles
    bounds = []
    for m in range(1, n):
        low = bound_value(params.min, m)
        high = min(bound_value(params.max, m), width_cap(plan.r(m)))
        if params.labels:
            high = max(min(high, label_cap(plan, m)), min(low, high))
        room = room_after(plan.r(m + 1), bound_value(params.min, m + 1)) if m < n - 1 else low
        if low > high or low > room:
            why = (
                f"more than fit there at {MIN_WIDTH:.0f} mm each"
                if low > high
                else f"too many to leave room for the {bound_value(params.min, m + 1)} of "
                f"ring {m + 1} on their shared circle"
            )
            raise BoundsError(
                f"min={params.min} asks for {low} sections in ring {m}, {why}, with "
                f"circles={n} on this paper: lower min or use fewer circles"
            )
        bounds.append((low, high))
    return bounds


def _spread(rng: Rng, count: int, start: float, length: float, gap: float) -> list[float]:
    """``count`` random positions in [start, start + length], at least ``gap`` apart."""
    slack = max(0.0, length - (count - 1) * gap)
    offsets = sorted(rng.uniform(0.0, slack) for _ in range(count))
    return [start + u + i * gap for i, u in enumerate(offsets)]


def _arcs(previous: list[float], shut: float, gap: float) -> list[tuple[float, float, int]]:
    """The free arcs between the inner ring's cut ends: (start, length, most cuts gap apart)."""
    arcs: list[tuple[float, float, int]] = []
    for j, a in enumerate(previous):
        b = previous[(j + 1) % len(previous)] + (TAU if j + 1 == len(previous) else 0.0)
        length = (b - shut) - (a + shut)
        if length >= 0:
            arcs.append((a + shut, length, math.floor(length / gap + EPS) + 1))
    return arcs


def divide(plan: Plan, params: RingsParams, rng: Rng) -> list[list[float]]:
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
        # On a crowded sheet (its labels at their least size) cuts are spaced a label apart.
        labelled = params.labels and plan.label_size <= MIN_LABEL + EPS
        if labelled:
            gap = max(gap, label_room(plan, m) / r)
        low, high = bounds[m - 1]
        if m < n - 1:
            high = min(high, room_after(plan.r(m + 1), bound_value(params.min, m + 1)))
        if not previous:
            count = rng.randint(low, high)
            start = rng.uniform(0.0, TAU)
            angles = _spread(rng, count, start, TAU - gap, gap)
        else:
            shut = end_exclusion(r)
            arcs = _arcs(previous, shut, gap)
            if labelled:
                # ... and keeps its cut ends a label's width from those of the ring inside,
                # giving up first that and then the spacing where the ring's lower bound
                # would not fit.
                wide = max(shut, 2 * math.asin(min(1.0, label_room(plan, m) / 2 / r)))
                for trial_shut, trial_gap in (
                    (wide, gap),
                    (shut, gap),
                    (wide, MIN_WIDTH / r),
                    (shut, MIN_WIDTH / r),
                ):
                    arcs = _arcs(previous, trial_shut, trial_gap)
                    if sum(c for _, _, c in arcs) >= low:
                        gap = trial_gap
                        break
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


Box = tuple[float, float, float, float]


Seg = tuple[float, float, float, float]
