"""Miro's sheet: the line placed between four score areas, typed parameters and feature data."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from shapely.geometry import LineString, Polygon

from papergames.errors import FitError, SpecError
from papergames.layouts.miro.curve import (
    AREA_GAP,
    ATTEMPTS,
    FIELD_GAP,
    SMOOTHING,
    STROKE_PAD,
    Patch,
    make_patch,
    smooth,
)
from papergames.layouts.miro.drawing import DrawError, Drawing, draw
from papergames.layouts.miro.params import PARAMS, MiroParams, counts, tally_boxes
from papergames.play.example import Example
from papergames.sheets.compose import Frame
from papergames.sheets.labels import label_lines
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Feature, Item, Kind, Layer, Style
from papergames.sheets.rng import Rng
from papergames.sheets.score import BIG, SPACING, score_area, score_area_height

MAX_LOAD = 120
"""Most crossings + 3 * triples that fit on A4 or Letter with spaces of at least 40 mm^2."""


TALLY_SIZE = 4.0
"""Side in mm of a tally box: a little under the standard 4.5 mm, as each area holds many."""


SPREAD = 1.0 + SMOOTHING
"""The lattice patch has this many times the crossings the line keeps."""


ROOM = 190.0
"""Least field area in mm^2 per unit of crossings + 3 * triples: below it spaces get too small."""


DENSITY = 2.22
"""Inner lattice edges per (area / spacing^2) of a cleaned patch: a first guess of the spacing."""


def reading_order(polys: Sequence[Polygon], band: float = 15.0) -> list[int]:
    """Indices of the polygons in reading order: rows of ``band`` mm, left to right.

    Rows are counted from the top of the polygons, so the order does not depend on where the
    field sits on the page.
    """
    spots = [p.representative_point() for p in polys]
    top = min((p.bounds[1] for p in polys), default=0.0)
    return sorted(
        range(len(polys)),
        key=lambda i: (math.floor((spots[i].y - top) / band), spots[i].x, spots[i].y),
    )


def _sized_patch(w: float, h: float, s: float, want: int, rng: Rng) -> Patch:
    """A patch with about ``want`` inner edges (at least that many if any spacing gives it).

    The spacing is searched by bisection on a log scale, starting from the guess ``s``.
    """
    fine: float | None = None
    coarse: float | None = None
    best: Patch | None = None
    for step in range(12):
        patch = make_patch(w, h, s, rng.child(step))
        have = len(patch.inner_edges)
        if have >= want and (best is None or have < len(best.inner_edges)):
            best = patch
        if want <= have <= want * 1.08 + 2:
            return patch
        if have < want:
            coarse = s
        else:
            fine = s
        if fine is not None and coarse is not None:
            s = math.sqrt(fine * coarse)
        elif coarse is not None:
            s = coarse * max(0.6, math.sqrt(max(have, 1) / want))
        else:
            s = s * min(1.6, math.sqrt(have / want))
    return best if best is not None else patch


def build_line(
    box: tuple[float, float, float, float], crossings: int, triples: int, rng: Rng
) -> Drawing:
    """Draw a line with exactly these crossings inside ``box``, retrying a bounded number of times.

    Raises:
        FitError: when no attempt keeps every rule (the field is too small for the counts).
    """
    _, segments, spaces = counts(crossings, triples)
    load = crossings + 3 * triples
    w, h = box[2] - box[0], box[3] - box[1]
    if w * h < ROOM * load:
        raise FitError(
            f"crossings={crossings} triples={triples} need a field of {ROOM * load:.0f} mm^2, "
            f"this page leaves {w * h:.0f}: use fewer crossings or triples, or larger paper "
            "(upright pages leave the most room)"
        )
    want = max(math.ceil(load * SPREAD) + 2, load + 12, 10 * triples)
    s = math.sqrt(DENSITY * w * h / want)
    reasons: dict[str, int] = {}
    for attempt in range(ATTEMPTS):
        stream = rng.child("attempt", attempt)
        patch = _sized_patch(w, h, s, want, stream.child("patch"))
        s = patch.s
        curve = smooth(patch, load, triples, stream.child("smooth"))
        if curve is None:
            # Too few crossings to join the strands or to hold the triple points far apart:
            # the next patch is finer.
            reasons["no single line"] = reasons.get("no single line", 0) + 1
            if load >= 40:
                want = math.ceil(want * 1.05)
            continue
        try:
            return draw(curve, box, (segments, spaces))
        except DrawError as exc:
            reasons[str(exc)] = reasons.get(str(exc), 0) + 1
    worst = max(reasons, key=lambda k: reasons[k])
    raise FitError(
        f"crossings={crossings} triples={triples}: no drawing of the line kept every rule in "
        f"{ATTEMPTS} tries ({worst}): use fewer crossings or triples, or larger paper"
    )


def _place_areas(
    frame: Frame, tally: int
) -> tuple[tuple[float, float, float, float], list[tuple[float, float]], float]:
    """Put two score areas at each short end of the sheet; return the field's box, the areas'
    top-left corners (players 1 and 2 at the top or left end) and the areas' width.

    On an upright page the areas sit side by side above and below the field; on a turned page
    they are stacked at its left and right ends, each as narrow as its tally boxes allow.

    Raises:
        FitError: when the areas leave too little room for the field.
    """
    if frame.h >= frame.w:
        width = (frame.w - AREA_GAP) / 2
        band = score_area_height(tally, width, TALLY_SIZE)
        top, bottom = frame.y + band + FIELD_GAP, frame.bottom - band - FIELD_GAP
        corners = [
            (frame.x, frame.y),
            (frame.x + width + AREA_GAP, frame.y),
            (frame.x, frame.bottom - band),
            (frame.x + width + AREA_GAP, frame.bottom - band),
        ]
        box = (frame.x, top, frame.right, bottom)
    else:
        fixed = 3 * (BIG + SPACING)
        for cols in range(1, tally + 1):
            width = fixed + cols * TALLY_SIZE + 0.01
            height = score_area_height(tally, width, TALLY_SIZE)
            if 2 * height + AREA_GAP <= frame.h:
                break
        left, right = frame.x + width + FIELD_GAP, frame.right - width - FIELD_GAP
        lower = frame.y + height + AREA_GAP
        corners = [
            (frame.x, frame.y),
            (frame.x, lower),
            (frame.right - width, frame.y),
            (frame.right - width, lower),
        ]
        box = (left, frame.y, right, frame.bottom)
    if min(box[2] - box[0], box[3] - box[1]) < 60:
        raise FitError("the score areas leave no room for the field: use larger paper")
    return box, corners, width


SegmentData = TypedDict("SegmentData", {"spaces": list[str], "from": str, "to": str})
"""A segment: the spaces on either side and the crossings it runs from and to."""


class SpaceData(TypedDict):
    """A space: the segments round it."""

    segments: list[str]


class CrossingData(TypedDict):
    """A crossing point: where it is, how many strands meet there, its segments."""

    id: str
    x: float
    y: float
    degree: int
    segments: list[str]


class CountData(TypedDict):
    double: int
    triple: int
    points: int
    segments: int
    spaces: int


class PageData(TypedDict):
    """What the page tells the engine: the segments in order along the line, the crossings."""

    path: list[str]
    crossings: list[CrossingData]
    counts: CountData


EXAMPLE = Example(
    transcript="""\
sheet: miro seed=1
players: Ann (red), Bob (blue)
Ann: segment-209
Bob: segment-1..2
Ann: segment-3..5
claim: Ann score 4
claim: Bob score 0
""",
    text="""\
The small numbers give the order of play; Ann's segments are solid, Bob's dashed. Ann colours \
one segment, Bob carries the line on with two, and Ann with three. Ann's move closes three \
spaces at once (hatched) and scores one point for each of Ann's segments around them: 4 points.""",
    marks=(
        ("segment-209",),
        ("segment-1", "segment-2"),
        ("segment-3", "segment-4", "segment-5", "space-4", "space-5", "space-6"),
    ),
)


class MiroLayout(Layout):
    """One closed line crossing itself, with four score areas, two at each end."""

    name = "miro"
    param_shape = MiroParams
    how_to_play = """\
The field: One closed line crosses itself many times. A segment is the piece of line between \
two crossings that follow each other. A space is an area closed in by segments.

Players: Each player takes a colour. With three or four players, each uses one score area. \
With two, each uses two.

Play: The first player colours any one segment. The next player colours two segments that \
carry on the line from either end of it. The next colours three segments that carry on from \
the two just coloured. After that, each player colours one, two or three segments. They must \
carry on the line from the end of the last segments coloured. A run goes straight on through a \
crossing; it never turns onto the other strand.

Scoring: Colouring the last free segment around a space captures it. You score one point for \
each segment of your colour around that space. One move may capture several spaces. Tally your \
points in your score area and write the total in T.

End: The game ends when every segment is coloured, and the highest score wins. Four players \
may play as two teams; partners add their scores.

Team variation: Before adding, the lower scorer of each team doubles their score, so partners \
try to keep level. Or else the higher scorer doubles their score, so partners help the leader.

Short game: Print a small field with fewer crossings, for instance one of 11 spaces and 19 \
segments.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """Refuse counts that cannot fit with pencil-sized spaces."""
        typed = PARAMS.read(MiroParams, params)
        load = typed.crossings + 3 * typed.triples
        if load > MAX_LOAD:
            raise SpecError(
                f"crossings={typed.crossings} with triples={typed.triples} is too many: "
                f"crossings + 3 * triples must be at most {MAX_LOAD}"
            )
        if typed.triples > typed.crossings // 2:
            raise SpecError(
                f"triples={typed.triples} needs more double crossings: triples must be at "
                f"most half of crossings (crossings={typed.crossings})"
            )

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(MiroParams, ctx.params)
        crossings, triples = params.crossings, params.triples
        points, segments, spaces = counts(crossings, triples)
        frame = ctx.frame.inset(STROKE_PAD)
        tally = tally_boxes(segments)
        box, corners, width = _place_areas(frame, tally)
        drawing = build_line(box, crossings, triples, ctx.rng("line"))
        items: list[Item] = []
        order = reading_order(drawing.faces)
        number = {face: k for k, face in enumerate(order, start=1)}
        crossing_ids: dict[str, str] = {}
        for a, _ in drawing.ends:
            crossing_ids.setdefault(a, f"crossing-{len(crossing_ids) + 1}")
        around: dict[int, list[str]] = {k: [] for k in range(1, len(order) + 1)}
        meeting: dict[str, list[str]] = {cid: [] for cid in crossing_ids.values()}
        path: list[str] = []
        for n, (seg, (a, b), side) in enumerate(
            zip(drawing.segments, drawing.ends, drawing.sides, strict=True), start=1
        ):
            sid = f"segment-{n}"
            path.append(sid)
            beside = sorted(number[f] for f in side if f is not None)
            for k in beside:
                around[k].append(sid)
            for c in (crossing_ids[a], crossing_ids[b]):
                if sid not in meeting[c]:
                    meeting[c].append(sid)
            items.append(
                Feature(
                    sid,
                    Kind.SEGMENT,
                    LineString(seg),
                    Style.TRACE,
                    Layer.FIELD,
                    data=SegmentData(
                        {
                            "spaces": [f"space-{k}" for k in beside],
                            "from": crossing_ids[a],
                            "to": crossing_ids[b],
                        }
                    ),
                )
            )
        for k, face in enumerate(order, start=1):
            items.append(
                Feature(
                    f"space-{k}",
                    Kind.SPACE,
                    drawing.faces[face],
                    Style.NONE,
                    Layer.FIELD,
                    data=SpaceData(segments=around[k]),
                )
            )
        field = drawing.field
        for p, (x, y) in enumerate(corners, start=1):
            items.extend(score_area(p, x, y, width, tally, tally_size=TALLY_SIZE).items)
        crossing_data: list[CrossingData] = []
        for key, cid in crossing_ids.items():
            x, y = drawing.points[key]
            crossing_data.append(
                CrossingData(
                    id=cid,
                    x=round(x, 4),
                    y=round(y, 4),
                    degree=6 if key.startswith("t") else 4,
                    segments=meeting[cid],
                )
            )
        data = PageData(
            path=path,
            crossings=crossing_data,
            counts=CountData(
                double=crossings, triple=triples, points=points, segments=segments, spaces=spaces
            ),
        )
        subtitle = f"{spaces} spaces, {segments} segments"
        if ctx.spec.labels:
            items.extend(label_lines(items, (Kind.SEGMENT,), field))
        return [PageBody(items, subtitle, field, dict(data))]


LAYOUT = MiroLayout()
