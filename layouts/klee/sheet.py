"""Klee's sheet: the layout, its typed parameters, and the page data the engine reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from shapely.geometry import box

from papergames.layout import BuildContext, Layout, PageBody
from papergames.layouts.klee.field import (
    MAX_MEAN,
    MIN_SIDE,
    MIN_STEP,
    PLAYERS,
    block_items,
    colour_items,
    field_items,
    grid_lines,
    make_field,
    plan_page,
    standard_areas,
    track_items,
)
from papergames.params import Param, ParamSet


@dataclass(frozen=True)
class KleeParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    size: int
    track: int
    areas: int


PARAMS = ParamSet(
    [
        Param.int("size", 12, 4, 14, "spaces along each side of the field"),
        Param.int("track", 30, 10, 60, "steps on the scoring track (points needed to win)"),
        Param.int("areas", 6, 4, 8, "sequence areas per player; the middle four are starred"),
    ]
)


class KleePageData(TypedDict):
    """What the page tells the engine: the field's lines, the track, the sequence areas."""

    size: int
    rows: list[list[str]]
    columns: list[list[str]]
    diagonals: list[list[str]]
    track: dict[str, list[str]]
    track_length: int
    start: list[str]
    sequences: dict[str, list[list[str]]]
    standard: list[int]


class KleeLayout(Layout):
    """Klee: a 12 x 12 field of uneven squares, a two-lane track round it, sequence areas."""

    name = "klee"
    params = PARAMS
    param_shape = KleeParams
    how_to_play = """\
Material: the sheet and four coloured pencils, shared by both players: no colour belongs to \
either player. Player 1 sits at the top of the sheet, player 2 at the bottom; each has a row \
of sequence areas (three spaces each) at his end. Each writes his initials in his lane at the \
start of the track, beside the arrow: player 1 uses the outer lane, player 2 the inner one. \
Pick a pencil for marking your lane and colour the box marked "track colour" at your end with \
it.

Sequences: the standard game uses only the four areas marked with an asterisk; experienced \
players may agree to use them all. The players fill their starred areas alternately, player 1 \
first, each working from his own left. First area: three different colours, in an order of \
your choosing. Second area: three different colours again, but not the same three: bring in \
the colour you left out and drop one of the others. Third area: two colours, the two end \
spaces alike (such as A B A). Fourth area: two colours with alike ends again, but not the same \
pair of colours as your third (one of them may return). Never copy a sequence your opponent \
already holds, forwards or backwards. When the outer areas are used too, the players agree how \
to fill them (our suggestion: any three colours that copy no sequence already on the \
sheet).

Play: player 1 colours any space of the field with any colour. Player 2 then colours a space \
touching it along an edge or at a corner. From then on, each turn, a player colours any empty \
space that touches at least one coloured space, again in any colour he likes.

Scoring: when the space you colour completes one of your sequences on three neighbouring \
spaces in a row, a column or a diagonal, read in either direction, you score a point. Every \
sequence completed at once scores, also the same sequence in two places. Your opponent's \
sequences score nothing for you. Mark each point in your lane of the track, one box per point, \
starting at the arrow.

Winning: the first to reach the last box of the track wins; for a shorter game agree to stop \
the track at an earlier box. A player who is five or more points ahead at any moment wins at \
once. If the field is full first, the player ahead wins (equal scores: a draw).

Variation: several sequences completed by one move score a triangular number of points: 2 \
sequences score 3, 3 score 6, 4 score 10, 5 score 15, 6 score 21, 7 score 28 and 8 score 36 (k \
sequences score k(k+1)/2). Play it without the five-point rule.
"""

    def notes(self) -> list[str]:
        return [
            f"every space is at least {MIN_SIDE:g} mm across; the squares' mean side is capped "
            f"at {MAX_MEAN:g} mm, and a long track round a small field enlarges the field so "
            f"that each step is at least {MIN_STEP:g} mm long",
            "areas above 6 add experts' areas on both sides; the middle four are always starred",
        ]

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(KleeParams, ctx.params)
        n, steps, areas = params.size, params.track, params.areas
        plan = plan_page(ctx.frame, n, areas, steps)
        fld = make_field(ctx.rng("field"), n, plan.fx, plan.fy, plan.side)
        items = field_items(fld)
        track, order = track_items(plan, steps)
        items.extend(track)
        sequences: dict[str, list[list[str]]] = {}
        for p, corner, turned in ((1, plan.top_block, False), (2, plan.bottom_block, True)):
            block, ids = block_items(plan, p, areas, corner, turned)
            items.extend(block)
            sequences[str(p)] = ids
        items.extend(colour_items(plan))
        field = box(plan.fx, plan.fy, plan.fx + plan.side, plan.fy + plan.side)
        lines = grid_lines(n)
        data = KleePageData(
            size=n,
            rows=lines["rows"],
            columns=lines["columns"],
            diagonals=lines["diagonals"],
            track=order,
            track_length=steps,
            start=[f"box-initials-{p}" for p in range(1, PLAYERS + 1)],
            sequences=sequences,
            standard=standard_areas(areas),
        )
        subtitle = f"{n * n} spaces · a track of {steps} steps · form your sequences in any line"
        return [PageBody(items, subtitle, field, dict(data))]


LAYOUT = KleeLayout()
