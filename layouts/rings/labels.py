"""Crossing the Rings' labels: names for every cut end, placed clear of lines and of each other."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from papergames.errors import FitError
from papergames.fonts import text_width
from papergames.layouts.rings.plan import (
    ACROSS_COST,
    CAP_HEIGHT,
    DOT_CLEAR,
    HEAVY_CLEAR,
    LABEL_CLEAR,
    LINE_CLEAR,
    PASSES,
    TAU,
    Box,
    Plan,
    Seg,
)
from papergames.sheets.bounds import text_box
from papergames.sheets.compose import Frame
from papergames.sheets.model import Layer, Text


@dataclass
class _End:
    """A cut end to label: where it is, on which circle, and which ring's cut it ends."""

    label: str
    x: float
    y: float
    circle: int
    angle: float
    ring: int


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


AMBIGUOUS_COST = 0.5
"""Badness of a label that is clear of all ink but nearer another point than its own."""


class _Labeller:
    """Places each point's label next to it, clear of every line, dot and other label.

    Labels are always set level, so they read without turning the sheet: beside the cut in its
    own ring or across the circle, and farther off where the point is crowded. A label that fits
    nowhere takes its least crowded spot and is counted in ``crowded``.
    """

    def __init__(
        self,
        plan: Plan,
        frame: Frame,
        cuts: Sequence[Seg],
        ends: Sequence[_End],
        keep_out: Sequence[Box],
        hatched: float = 0.0,
    ) -> None:
        self.plan = plan
        self.hatched = hatched
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
        self.unclear_ends: set[int] = set()
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
        if self.hatched and near < self.hatched + LINE_CLEAR:
            return math.inf
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
        return self._lead(lab, own) < 0.5

    def _lead(self, lab: _Label, own: int) -> float:
        """How much nearer the label is to its own point than to any other (up to 0.5 mm)."""
        e = self.ends[own]
        mine = lab.dist(e.x, e.y)
        b = lab.box
        reach = mine + 0.5
        grown = (b[0] - reach, b[1] - reach, b[2] + reach, b[3] + reach)
        return min(
            [0.5]
            + [
                lab.dist(self.ends[i].x, self.ends[i].y) - mine
                for i in self.end_grid.near(grown)
                if i != own
            ]
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
        hb = abs(vx) * w / 2 + abs(vy) * h / 2

        def level(a: float, b: float, px: float = nx, py: float = ny) -> _Label:
            """A level label whose near side is ``a`` mm from P along (px, py), ``b`` across."""
            ha = abs(px) * w / 2 + abs(py) * h / 2
            bb = b + math.copysign(hb, b) if b else 0.0
            x, y = e.x + (a + ha) * px + bb * vx, e.y + (a + ha) * py + bb * vy
            return _Label(x, y, w / 2, h / 2, 0.0)

        outer = e.circle == self.plan.circles
        near: list[tuple[float, _Label]] = []
        if outer:
            for b in (0.0, 0.4, -0.4, 0.8, -0.8, 1.2, -1.2, 1.6, -1.6):
                near.append((0.0, level(HEAVY_CLEAR, b, ux, uy)))
        else:
            for b in (0.0, 0.45, -0.45, 0.9, -0.9, 1.35, -1.35, 1.8, -1.8):
                near.append((ACROSS_COST, level(side, b, -nx, -ny)))
                near.append((ACROSS_COST, level(side + 0.5, b, -nx, -ny)))
        for a in (0.0, side / 2, side, side + 0.35, side + 0.7, side + 1.1, side + 1.5):
            for b in (side, side + 0.4):
                near.append((0.0, level(a, b)))
                near.append((0.0, level(a, -b)))
        near.sort(key=lambda item: item[0] + item[1].dist(e.x, e.y))
        for _, lab in near:
            yield lab
        # Farther out, still level: a crowded point's label moves away rather than turning.
        for a in (side, side + 1.0, side + 2.0, side + 3.5):
            for b in (side + 1.0, -side - 1.0, side + 2.5, -side - 2.5):
                yield level(a, b)
                if not outer:
                    yield level(a, b, -nx, -ny)
        for k in range(24):
            phi = TAU * k / 24
            for dist in (1.2, 2.5, 4.0):
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
        fallback: tuple[float, _Label] | None = None
        chosen: _Label | None = None
        for lab in self._candidates(index, w, h):
            bad = self._clashes(lab, index)
            if bad == 0:
                if not self._ambiguous(lab, index):
                    chosen = lab
                    break
                if fallback is None:
                    fallback = (self._lead(lab, index), lab)
            elif best is None or bad < best[0]:
                best = (bad, lab)
        if chosen is None and fallback is not None:
            # Clear of all ink but nearer another point: placed, and placed earlier next pass.
            chosen = fallback[1]
            self.unclear_ends.add(index)
            self.badness += AMBIGUOUS_COST
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
    plan: Plan,
    frame: Frame,
    cuts: Sequence[Seg],
    ends: Sequence[_End],
    keep_out: Sequence[Box],
    hatched: float = 0.0,
) -> tuple[list[Text], int]:
    """Label every point; when some are crowded, try again placing the crowded ones first.

    ``hatched`` is the radius of the centre disk when it is hatched out of play: no label goes
    there."""
    order = list(range(len(ends)))
    hard: list[int] = []
    best: tuple[tuple[int, float], list[Text], int] | None = None
    for _ in range(PASSES):
        labeller = _Labeller(plan, frame, cuts, ends, keep_out, hatched)
        first = set(hard)
        placed = {i: labeller.place(i) for i in hard + [i for i in order if i not in first]}
        # A label on a line or a label is worse than any number of merely unclear ones.
        score = (labeller.crowded, labeller.badness)
        if best is None or score < best[0]:
            best = (score, [placed[i] for i in order], labeller.crowded)
        if not labeller.crowded and not labeller.unclear_ends:
            break
        trouble = labeller.crowded_ends | labeller.unclear_ends
        hard += [i for i in order if i in trouble and i not in first]
    assert best is not None
    return best[1], best[2]
