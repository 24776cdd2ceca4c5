"""Crossing the Rings' sheet: a page per round and the data the engine reads."""

from __future__ import annotations

import bisect
import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from shapely.geometry import LineString, Point, Polygon

from papergames.errors import FitError, SpecError
from papergames.layouts.rings.labels import _End, _place_labels
from papergames.layouts.rings.params import PARAMS, RingsParams
from papergames.layouts.rings.plan import (
    LETTERS,
    SCORE_WIDTH,
    TAU,
    BoundsError,
    Plan,
    bound_value,
    divide,
    plan_page,
    ring_bounds,
    width_cap,
)
from papergames.play.example import Example
from papergames.sheets.compose import Frame, content_frame
from papergames.sheets.geometry import arc_steps
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Feature, Item, Kind, Style
from papergames.sheets.rng import Rng
from papergames.sheets.score import score_area, score_area_height
from papergames.sheets.units import PAPERS


class CutData(TypedDict):
    """A cut (segment) across ring ``ring``: its number in the ring and its two ends' labels."""

    ring: int
    index: int
    ends: list[str]


class EndData(TypedDict):
    """A cut end (point): the circle it lies on, the ring it cuts, its clock angle in radians."""

    circle: int
    ring: int
    angle: float


class PageData(TypedDict):
    """A round's page: its number, sections per ring, the target's centre and circle radii."""

    round: int
    sections: list[int]
    tiled: Polygon
    centre: tuple[float, float]
    radii: list[float]
    crowded_labels: int


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


def _build_round(plan: Plan, frame: Frame, params: RingsParams, rng: Rng) -> _Round:
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
    if params.centre:
        items.append(Feature("space-0", Kind.SPACE, inner, group="ring-0", data={"ring": 0}))
    else:
        # Hatched out of play, so nobody colours the centre as if it were a section.
        items.append(Feature("mark-centre", Kind.MARK, inner, Style.HATCH, data={"play": False}))
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
                    data=CutData(ring=m, index=i, ends=[labels[(m, t)], labels[(m + 1, t)]]),
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
                data=EndData(circle=e.circle, ring=e.ring, angle=e.angle),
            )
        )
    crowded = 0
    if params.labels:
        row_h = score_area_height(0, SCORE_WIDTH)
        keep_out = [(x, y, x + SCORE_WIDTH, y + row_h) for x, y in plan.rows]
        hatched = 0.0 if params.centre else plan.r(1)
        texts, crowded = _place_labels(plan, frame, segments, ends, keep_out, hatched)
        items.extend(texts)
    tiled = field if params.centre else Polygon(coords[n - 1], [coords[0]])
    return _Round(items, field, tiled, [len(r) for r in cuts], crowded)


def capped_rings(circles: int) -> list[tuple[int, int]]:
    """The rings whose default ``max`` the width cap lowers on A4 portrait, with their caps.

    The other parameters keep their defaults. :data:`~papergames.layouts.rings.params.CAPS_A4`
    declares the result for the circle counts the notes quote.
    """
    params = dataclasses.replace(PARAMS.read(RingsParams, {}), circles=circles)
    a4 = PAPERS["a4"]
    frame = content_frame(*a4.size(False))
    plan = plan_page(frame, params)
    capped = []
    for m in range(1, circles):
        high = bound_value(params.max, m)
        cap = width_cap(plan.r(m))
        if cap < high:
            capped.append((m, cap))
    return capped


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
        params = PARAMS.read(RingsParams, ctx.params)
        ring_bounds(plan_page(other, params), params)
    except BoundsError as exc:
        return exc
    except FitError:
        pass
    return own


EXAMPLE = Example(
    transcript="""\
sheet: rings seed=1
players: Ann (red), Bob (blue), Cy (green)
Bob: D5-F13
Cy: B1-E7
claim: Bob score 6
claim: Cy score 4
""",
    text="""\
The small numbers give the order of play. Ann divides this round, so Bob draws first and Ann \
last. Bob's line 1 (solid) passes through six empty sections, which become Bob's (hatched): 6 \
points. Cy's line 2 (dashed) fills the four empty sections it passes through (grey): 4 points.""",
    marks=(
        ("D5/F13", "space-6", "space-13", "space-27", "space-40", "space-41", "space-42"),
        ("B1/E7", "space-1", "space-2", "space-9", "space-15"),
    ),
)


class RingsLayout(Layout):
    """Crossing the Rings: a target of circles cut into random sections, a page per round."""

    name = "rings"
    param_shape = RingsParams
    how_to_play = """\
Setup: The sheet shows circles spaced evenly, like a target. Counting from the middle, ring 1 \
is the band between circles 1 and 2, ring 2 the next band, and so on. Each player takes a \
pencil of a colour nobody else uses. One player is the divider for the round. The role passes \
on each round.

Dividing: The divider cuts every ring into sections with straight cuts across the ring, \
pointing at the middle. Ring 1 gets 1 or 2 sections, ring 2 gets 2 to 4, ring 3 gets 3 to 8, \
and so on. Players may agree on other limits. Each printed page already carries a random \
division for one round, so the sheet can do the divider's job. The disk in the middle is not a \
section, unless the players agree that it is.

Lines: Every cut has two ends, and lines may only join these ends. The players other than the \
divider each draw one straight line, in turn, from any end to any other end. The divider draws \
the last line. Each end is named on the sheet by its circle's letter and a number counted \
clockwise from the top. So a line can be written down as C4-F17.

Filling: Right after drawing a line, its owner colours every empty section the line passes \
through. A line passes through a section only if it goes through its inside; running along its \
rim or touching a corner does not count. Lines may cross each other and pass through coloured \
sections. A coloured section keeps its first colour. A line may not run along a cut. By \
agreement it may, but then it fills neither section beside that cut.

Scoring: Each section in your colour scores one point. Play enough rounds that everyone is the \
divider equally often. Change the order of play each round, so that everyone has each place in \
the order equally often. The highest total over all rounds wins.
"""

    def validate(self, settings: Mapping[str, Any]) -> None:
        """Reject bounds whose minimum exceeds the maximum on some ring."""
        params = PARAMS.read(RingsParams, settings)
        for m in range(1, params.circles):
            low, high = bound_value(params.min, m), bound_value(params.max, m)
            if low > high:
                raise SpecError(
                    f"min={params.min} is larger than max={params.max} in ring {m} "
                    f"({low} > {high}): min must not exceed max on any ring"
                )

    def field_area(self, ctx: BuildContext) -> float:
        """The target's disk: its radius comes from the plan, before any division or label."""
        try:
            params = PARAMS.read(RingsParams, ctx.params)
            plan = plan_page(ctx.frame, params)
            ring_bounds(plan, params)
        except FitError as own:
            raise _telling_error(ctx, own) from None
        return math.pi * plan.radius**2

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(RingsParams, ctx.params)
        try:
            plan = plan_page(ctx.frame, params)
            ring_bounds(plan, params)
        except FitError as own:
            raise _telling_error(ctx, own) from None
        rounds = params.rounds
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
                    dict(
                        PageData(
                            round=r,
                            sections=done.sections,
                            tiled=done.tiled,
                            centre=(plan.cx, plan.cy),
                            radii=[plan.r(c) for c in range(1, plan.circles + 1)],
                            crowded_labels=done.crowded,
                        )
                    ),
                )
            )
        return bodies


LAYOUT = RingsLayout()
