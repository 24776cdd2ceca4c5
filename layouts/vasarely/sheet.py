"""Vasarely's sheet: the field, four corner score areas, and the data the rules engine reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from shapely.geometry import Polygon

from papergames.errors import SpecError
from papergames.layout import BuildContext, Layout, PageBody
from papergames.layouts.vasarely.field import (
    MAX_SPACES,
    CubeDivision,
    divide_cube,
    draw_field,
    plan_page,
)
from papergames.params import Param, ParamSet
from papergames.score import score_area


def tally_boxes(divisions: Sequence[CubeDivision]) -> int:
    """The most points one player can reach: every space but the completer's last, per cube."""
    return sum(len(d.pieces) - 1 for d in divisions)


@dataclass(frozen=True)
class VasarelyParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    cubes: int
    min_spaces: int
    max_spaces: int
    max_dots: int


PARAMS = ParamSet(
    [
        Param.int("cubes", 10, 1, 16, "number of cubes"),
        Param.int("min_spaces", 7, 3, MAX_SPACES, "fewest spaces in a cube"),
        Param.int("max_spaces", 12, 3, MAX_SPACES, "most spaces in a cube"),
        Param.int("max_dots", 5, 2, 5, "most dots in a space (spaces show 1 to this)"),
    ]
)


class PageData(TypedDict):
    """What the page carries for the engine and the tests."""

    cubes: list[list[str]]
    spaces: list[int]
    rows: list[int]
    edge: float
    tally: int
    tiled: Polygon


class VasarelyLayout(Layout):
    """Vasarely: a honeycomb of isometric cubes cut into dotted spaces, four corner score areas."""

    name = "vasarely"
    params = PARAMS
    param_shape = VasarelyParams
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

    def notes(self) -> list[str]:
        return [
            "every cube holds each number of dots from 1 to max_dots at least once",
            "score areas have one box per point a player could at most reach: the sum over "
            "the cubes of their spaces less one",
            "the cubes shrink with more cubes or spaces; below an edge of about 18 mm the "
            "dots no longer fit and the sheet is refused",
        ]

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(VasarelyParams, ctx.params)
        rng = ctx.rng("division")
        divisions = [
            divide_cube(
                rng.child("cube", m),
                rng.randint(params.min_spaces, params.max_spaces),
                params.max_dots,
            )
            for m in range(1, params.cubes + 1)
        ]
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
        return [PageBody(items, subtitle, field.tiled, dict(data))]


LAYOUT = VasarelyLayout()
