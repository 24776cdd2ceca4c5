"""Mondrian's sheet: the field between four score areas, typed parameters, the data it leaves."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NamedTuple

from shapely.geometry import box

from papergames.errors import FitError, SpecError
from papergames.fonts import ASCENT, text_width
from papergames.layouts.mondrian.field import (
    WALKTHROUGH,
    Placement,
    field_items,
    mini_partition,
    pick_tints,
)
from papergames.layouts.mondrian.params import (
    MIN_SIDE,
    MIN_SPACE_MM,
    MINI_POINTS,
    PARAMS,
    POINTS,
    MondrianParams,
)
from papergames.layouts.mondrian.partition import (
    CELLS_PER_SPACE,
    FIELD_GAP,
    HALF_STROKE,
    SCORE_GAP,
    STROKE_PAD,
    Partition,
    make_partition,
    pinwheels,
)
from papergames.play.example import Example
from papergames.sheets.compose import Frame
from papergames.sheets.labels import label_areas
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Feature, Item, Kind, Layer, Text
from papergames.sheets.score import (
    BIG,
    CAPTION,
    LABEL,
    SPACING,
    TALLY,
    colour_box,
    name_room,
    score_area,
    score_area_height,
)

NEUTRAL_LABEL = ("neutral colour", "(2-3 players only)")

"""The neutral colour box's label. The sheet does not know the player count, so the box is
always printed, and the label tells a table of four to leave it empty."""
NEUTRAL_GAP = 2.5
"""Distance in mm between the score areas' big boxes and the neutral colour box below them."""
NEUTRAL_CLEAR = 2.0
"""Least distance in mm between the neutral colour box or its label and the tally boxes."""
LABEL_GAP = 1.5
"""Distance in mm between a colour box and its label."""
LEADING = 1.25
"""Line spacing of a label, as a multiple of its type size."""


TINT_COLOURS = ("#e89090", "#ffe68a", "#7090c8")
"""The painter's red, yellow and blue, pale, for the tints with ``colour=on``, taken in turn by
the tinted spaces in order. Their greys (0.67, 0.89, 0.55) differ from each other and from white,
so a black-and-white print still shows three tints."""


def tints_in_colour(items: list[Item]) -> list[Item]:
    """The field's items with each tint in one of :data:`TINT_COLOURS`, in turn."""
    out: list[Item] = []
    turn = 0
    for item in items:
        if isinstance(item, Feature) and item.id.startswith("tint-"):
            item = replace(item, colour=TINT_COLOURS[turn % len(TINT_COLOURS)])
            turn += 1
        out.append(item)
    return out


def neutral_height(area_w: float) -> float:
    """Height in mm a top score area needs for the neutral colour box under its big boxes."""
    return name_room(area_w) + CAPTION + 1.0 + BIG + NEUTRAL_GAP + BIG


def neutral_items(frame: Frame, area_w: float, points: int) -> list[Item]:
    """The neutral colour's box and label, between the two top score areas.

    Under the top row's big boxes, the two areas leave a gap between player 1's tally boxes and
    player 2's: the box goes there, as near the page's middle as the label allows, so it reads
    as belonging to both players and to neither.

    Raises:
        FitError: when the gap is too narrow for the box and its label.
    """
    cols = math.floor((area_w - 3 * (BIG + SPACING) + 1e-9) / TALLY)
    tally_w = min(points, cols) * TALLY
    left = frame.x + 2 * (BIG + SPACING) + tally_w + NEUTRAL_CLEAR
    right = frame.x + area_w + SCORE_GAP + 2 * (BIG + SPACING) - NEUTRAL_CLEAR
    label_w = max(text_width(line, LABEL) for line in NEUTRAL_LABEL)
    width = BIG + LABEL_GAP + label_w
    if width > right - left:
        raise FitError(
            "the neutral colour box does not fit between the score areas on this paper: use "
            "larger paper"
        )
    x = min(max(frame.x + frame.w / 2 - BIG / 2, left), right - width)
    y = frame.y + name_room(area_w) + CAPTION + 1.0 + BIG + NEUTRAL_GAP
    items: list[Item] = [colour_box("neutral", x, y)]
    lead = LEADING * LABEL
    first = y + BIG / 2 - lead * (len(NEUTRAL_LABEL) - 1) / 2 + (ASCENT - 0.5) * LABEL
    for k, line in enumerate(NEUTRAL_LABEL, start=1):
        items.append(
            Text(
                f"caption-legend-neutral-{k}",
                x + BIG + LABEL_GAP,
                first + (k - 1) * lead,
                line,
                LABEL,
                bold=k == 1,
                layer=Layer.SCORE,
            )
        )
    return items


def _lattice(width: float, height: float, spaces: int) -> tuple[int, int]:
    """Columns and rows of near-square cells, about :data:`CELLS_PER_SPACE` per space."""
    cell = math.sqrt(width * height / (CELLS_PER_SPACE * spaces))
    return max(MIN_SIDE, round(width / cell)), max(MIN_SIDE, round(height / cell))


EXAMPLE = Example(
    transcript="""\
sheet: mondrian seed=1
players: Ann (red), Bob (blue)
Ann: space-50
Bob: space-51
claim: Ann score 0
claim: Bob score 2
""",
    text="""\
The small numbers give the order of play. Ann colours space 1 (hatched). Bob colours space 2 \
(grey), which shares a border with it. Together the two spaces make a rectangle, so Bob scores \
2 points, one for each space.""",
)


class MondrianLayout(Layout):
    """Ninety-nine rectilinear spaces between heavy lines, two score areas at each end."""

    name = "mondrian"
    param_shape = MondrianParams
    how_to_play = """\
Setup: Two to four players each take a pencil of their own colour. Each writes their initials in \
the X box of a score area and colours its colour box. With two or three players, one more \
colour is neutral. Anyone may use it on their turn instead of their own. But it may never go next \
to itself, and a rectangle it completes scores nothing.

Play: The first player colours any space. Then, in turn to the left, colour an empty space \
next to at least one coloured space. Next to means sharing a stretch of border; touching at a \
corner does not count. You may never colour a space next to one of your own colour.

Scoring: Your space may complete a rectangle made of two or more coloured spaces, of any \
colours. Then you score one point for each space in that rectangle. If your space completes \
several rectangles, only the largest one scores. Colour one tally box per point.

End: The game ends when a player's tally is full, or when nobody can move. Some spaces may \
stay empty. On the full field the tally holds 80 points; two players may agree on 160, each \
using two areas. The highest score wins. Four players may play as partners, sitting \
diagonally, and add their scores.

Small field: You may also print the book's small field of 13 spaces, lettered A to M. The \
book's game on it runs A, B, C (2 points), D (2), E (2), F (5), G (5), H (4).
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """The mini-field has its own 13 spaces, so ``spaces`` cannot be set with it."""
        typed = PARAMS.read(MondrianParams, params)
        if typed.field == "mini" and typed.spaces != 99:
            raise SpecError(
                f"spaces={typed.spaces} does not apply to field=mini, whose 13 spaces are "
                "fixed: drop spaces or use field=book"
            )

    def field_area(self, ctx: BuildContext) -> float:
        """The field's area from the page's plan alone (see :meth:`Layout.field_area`): the
        partition of the field into spaces is the costly part of a build.

        Raises:
            FitError: when the score areas leave no room for the field, or its spaces would be
                too narrow.
        """
        params = PARAMS.read(MondrianParams, ctx.params)
        room = _plan(ctx.frame, params).room
        if params.field == "mini":
            part, _ = mini_partition()
            cell = _mini_cell(room, part)
            return (part.cols * cell) * (part.rows * cell)
        cols, rows, cw, ch = _lattice_cells(room, params.spaces)
        return (cols * cw) * (rows * ch)

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(MondrianParams, ctx.params)
        frame, points, area_w, area_h, room = _plan(ctx.frame, params)
        items: list[Item] = []
        for p in range(4):
            x = frame.x + (p % 2) * (area_w + SCORE_GAP)
            y = frame.y if p < 2 else frame.bottom - area_h
            items.extend(score_area(p + 1, x, y, area_w, points).items)
        items.extend(neutral_items(frame, area_w, points))
        data: dict[str, Any] = {"field": params.field, "points": points}
        letters: list[str] | None = None
        if params.field == "mini":
            part, letters = mini_partition()
            cw = ch = _mini_cell(room, part)
            names = {name: f"space-{k}" for k, name in enumerate(letters, start=1)}
            data["walkthrough"] = [[names[s], colour, score] for s, colour, score in WALKTHROUGH]
        else:
            spaces = params.spaces
            cols, rows, cw, ch = _lattice_cells(room, spaces)
            lshapes = max(2, round(spaces / 14))
            pins = max(1, round(spaces / 33))
            part = make_partition(cols, rows, spaces, lshapes, pins, ctx.rng("field"))
        width, height = part.cols * cw, part.rows * ch
        at = Placement(room.x + (room.w - width) / 2, room.y + (room.h - height) / 2, cw, ch)
        tinted = pick_tints(part, ctx.rng("tints")) if params.tints else set()
        field_ink = field_items(part, at, letters, tinted)
        items[:0] = tints_in_colour(field_ink) if ctx.spec.colour else field_ink
        field = box(at.x, at.y, at.x + width, at.y + height)
        shapes = [len(s) for s in part.spaces]
        data.update(
            {
                "lattice": [part.cols, part.rows],
                "cell": [cw, ch],
                "origin": [at.x, at.y],
                "shapes": {"rectangle": shapes.count(1), "L": shapes.count(2)},
                "pinwheels": [f"space-{k + 1}" for k in pinwheels(part)],
            }
        )
        subtitle = (
            "The book's mini-field: 13 spaces, A to M"
            if letters
            else f"{len(part.spaces)} spaces · fill a space next to a coloured one, "
            "never next to your own colour"
        )
        if ctx.spec.labels and not letters:
            # The mini field prints its letters already; the full field gets its numbers.
            items.extend(label_areas(items, (Kind.SPACE,)))
        return [PageBody(items, subtitle, field, data)]


class _Plan(NamedTuple):
    """Where a sheet's parts go: the frame inside the strokes' pad, the tally's points, each
    score area's width and height, and the room left for the field between the areas."""

    frame: Frame
    points: int
    area_w: float
    area_h: float
    room: Frame


def _plan(frame: Frame, params: MondrianParams) -> _Plan:
    """The page's plan for ``params`` in ``frame``.

    Raises:
        FitError: when the score areas leave no room for the field.
    """
    frame = frame.inset(STROKE_PAD)
    mini_default = params.field == "mini" and params.points == POINTS
    points = MINI_POINTS if mini_default else params.points
    area_w = (frame.w - SCORE_GAP) / 2
    area_h = max(score_area_height(points, area_w, TALLY), neutral_height(area_w))
    room = Frame(
        frame.x,
        frame.y + area_h + FIELD_GAP,
        frame.w,
        frame.h - 2 * (area_h + FIELD_GAP),
    ).inset(2 * HALF_STROKE)
    if room.h <= 0:
        raise FitError(
            f"points={points} leaves no room for the field: use fewer points or larger paper"
        )
    return _Plan(frame, points, area_w, area_h, room)


def _mini_cell(room: Frame, part: Partition) -> float:
    """The side of the mini-field's square cells, as large as ``room`` holds."""
    return min(room.w / part.cols, room.h / part.rows)


def _lattice_cells(room: Frame, spaces: int) -> tuple[int, int, float, float]:
    """The book field's lattice in ``room``: columns, rows, and a cell's width and height.

    Raises:
        FitError: when the spaces would be narrower than :data:`MIN_SPACE_MM`.
    """
    cols, rows = _lattice(room.w, room.h, spaces)
    cw, ch = room.w / cols, room.h / rows
    if min(cw, ch) * MIN_SIDE < MIN_SPACE_MM:
        raise FitError(
            f"spaces={spaces} makes spaces narrower than {MIN_SPACE_MM:.0f} mm on this "
            "paper: use fewer spaces or larger paper"
        )
    return cols, rows, cw, ch


LAYOUT = MondrianLayout()
