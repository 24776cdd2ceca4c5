"""Vasarely's sheet: the field, four corner score areas, and the data the rules engine reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from shapely.geometry import Polygon

from papergames.errors import SpecError
from papergames.layouts.vasarely.field import (
    CubeDivision,
    cubes_area,
    divide_cube,
    draw_field,
    plan_page,
)
from papergames.layouts.vasarely.params import PARAMS, VasarelyParams
from papergames.play.example import Example
from papergames.sheets.labels import label_areas
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Kind
from papergames.sheets.score import score_area


def tally_boxes(divisions: Sequence[CubeDivision]) -> int:
    """The most points one player can reach: every space but the completer's last, per cube."""
    return sum(len(d.pieces) - 1 for d in divisions)


class PageData(TypedDict):
    """What the page carries for the engine and the tests."""

    cubes: list[list[str]]
    spaces: list[int]
    rows: list[int]
    edge: float
    tally: int
    tiled: Polygon


EXAMPLE = Example(
    transcript="""\
sheet: vasarely seed=1
players: Ann (red), Bob (blue)
Ann: space-56
Bob: space-54
Ann: space-81
Bob: space-87
Ann: space-48
Bob: space-55
Ann: space-49
Bob: space-53
Ann: space-50
Bob: space-51
Ann: space-80
Bob: space-52
claim: Ann score 0
claim: Bob score 4
""",
    text="""\
The small numbers give the order of play; Ann's spaces are hatched, Bob's grey. The dots \
needed run 1, 2, 3, 4, 5, then 1 again. With move 12 Bob colours the last empty space of a \
cube. Ann coloured 4 of its spaces, so Bob scores 4 points.""",
)


class VasarelyLayout(Layout):
    """Vasarely: a honeycomb of isometric cubes cut into dotted spaces, four corner score areas."""

    name = "vasarely"
    param_shape = VasarelyParams
    how_to_play = """\
Setup: Two to four players play. Each has a pencil of their own colour. Each takes a corner \
score area and writes their initials in its X box.

The field: Heavy lines outline cubes. Light lines cut each cube into spaces, and every space \
shows one to five dots. Every cube holds at least one space of each number of dots.

Play: The first player picks any cube and colours a one-dot space in it. Then turns pass to \
the left. The number of dots to colour goes 1, 2, 3, 4, 5, then 1 again, and so on.

Cubes in play: A cube is in play from its first coloured space until it is full. At most two \
cubes may be in play. While only one is, you may colour in it or start a new cube. Once two \
are in play, nobody starts another until one of them is full. If only one of them has an empty \
space with the right number of dots, you must use that one. If neither has, you colour \
nothing, and the next player needs the next number.

Scoring: Whoever colours the last empty space of a cube scores. They get one point for every \
space of that cube coloured by someone else, and colour that many small boxes in their score \
area. When every cube is full, write each total in the T box. The highest total wins.

Variation: For a harder game, allow three cubes in play at once.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """Refuse a space range that is empty or too small to show every number of dots."""
        typed = PARAMS.read(VasarelyParams, params)
        low, high, dots = typed.min_spaces, typed.max_spaces, typed.max_dots
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

    def field_area(self, ctx: BuildContext) -> float:
        """The cubes' area from the page's plan alone (see :meth:`Layout.field_area`): drawing
        their spaces, dots and score areas is the costly part of a build.

        Raises:
            FitError: when the cubes would be too small for their dots on this paper.
        """
        params = PARAMS.read(VasarelyParams, ctx.params)
        divisions = _divisions(ctx, params)
        return cubes_area(plan_page(ctx.frame, divisions, tally_boxes(divisions)))

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(VasarelyParams, ctx.params)
        divisions = _divisions(ctx, params)
        tally = tally_boxes(divisions)
        plan = plan_page(ctx.frame, divisions, tally)
        field = draw_field(plan, divisions)
        items = field.items
        for p, (x, y) in enumerate(plan.corners, start=1):
            area = score_area(p, x, y, plan.area_width, tally, tally_size=plan.tally_size)
            items.extend(area.items)
        sequence = ", ".join(str(k) for k in range(1, params.max_dots + 1))
        subtitle = (
            f"Colour spaces by their dots in turn: {sequence}, 1, ... · "
            "at most two cubes in play · complete a cube to score its other colours"
        )
        data = PageData(
            cubes=field.cubes,
            spaces=[len(c) for c in field.cubes],
            rows=list(plan.rows),
            edge=plan.edge,
            tally=tally,
            tiled=field.tiled,
        )
        if ctx.spec.labels:
            items.extend(label_areas(items, (Kind.SPACE,)))
        return [PageBody(items, subtitle, field.tiled, dict(data))]


def _divisions(ctx: BuildContext, params: VasarelyParams) -> list[CubeDivision]:
    """Each cube's spaces and dots, drawn from the sheet's seed: the same for every orientation
    and every call."""
    rng = ctx.rng("division")
    return [
        divide_cube(
            rng.child("cube", m),
            rng.randint(params.min_spaces, params.max_spaces),
            params.max_dots,
        )
        for m in range(1, params.cubes + 1)
    ]


LAYOUT = VasarelyLayout()
