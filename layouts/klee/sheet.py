"""Klee's sheet: the layout and the page data the engine reads."""

from __future__ import annotations

from typing import TypedDict

from shapely.geometry import box

from papergames.layouts.klee.blocks import block_items, colour_items, standard_areas
from papergames.layouts.klee.coordinates import coordinate_items
from papergames.layouts.klee.field import (
    COORD_ROOM,
    PLAYERS,
    TRACK_GAP,
    field_items,
    grid_lines,
    make_field,
    plan_page,
    track_items,
)
from papergames.layouts.klee.params import PARAMS, KleeParams
from papergames.play.example import Example
from papergames.sheets.layout import BuildContext, Layout, PageBody


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


EXAMPLE = Example(
    transcript="""\
sheet: klee seed=1
players: Ann (red), Bob (blue)
Ann: BRY
Bob: RYB
Ann: YGR
Bob: BGY
Ann: GYG
Bob: BYB
Ann: RYR
Bob: BRB
Ann: space-9 G
Bob: space-20 Y
Ann: space-31 G
claim: Ann score 1
claim: Bob score 0
""",
    text="""\
The small numbers give the order of play; moves 1 to 8 filled the sequence areas. One of Ann's \
sequences is green, yellow, green. Moves 9 to 11 colour three spaces on a diagonal: green \
(hatched), yellow (grey), green. Move 11 completes Ann's sequence, which scores Ann 1 point.""",
)


class KleeLayout(Layout):
    """Klee: a 12 x 12 field of uneven squares, a two-lane track round it, sequence areas."""

    name = "klee"
    param_shape = KleeParams
    how_to_play = """\
Material: The sheet and four coloured pencils. Both players share the pencils; no colour \
belongs to either player. Player 1 sits at the top of the sheet and player 2 at the bottom. \
Each has a row of sequence areas at their end, three spaces each.

Track: Player 1 uses the outer lane of the track and player 2 the inner lane. Each writes their \
initials in their lane beside the start arrow. Pick a pencil for marking your lane, and colour \
the "track colour" box at your end with it.

Sequences: The usual game uses only the four areas marked with an asterisk (a star). \
Experienced players may agree to use all six. The players fill their starred areas in turn, \
player 1 first. Each works from their own left.

First area: three different colours, in any order. Second area: three different colours again, \
but not the same three. Bring in the colour you left out and drop another. Third area: two \
colours, with both end spaces alike (such as A B A). Fourth area: alike ends again, but not \
the same pair of colours as your third. One of them may come back.

Never copy a sequence your opponent already holds, forwards or backwards. When all six areas \
are used, fill the outer ones as you agree. We suggest any three colours that copy no sequence \
already on the sheet.

Play: Player 1 colours any space of the field, in any colour. Player 2 then colours a space \
touching it, along an edge or at a corner. After that, each turn, colour any empty space that \
touches a coloured space. You may use any colour.

Scoring: You score a point when your space completes one of your own sequences. Its three \
spaces lie next to each other in a row, a column or a diagonal, and may read either way. Every \
sequence completed at once scores, even the same one in two places. Your opponent's sequences \
score nothing for you. Mark each point in your lane, one box per point, starting at the arrow.

Winning: The first to reach the last box of the track wins. For a shorter game, agree to stop \
at an earlier box. A player who is five or more points ahead wins at once. If the field fills \
up first, the player ahead wins. Equal scores are a draw.

Variation: Several sequences completed by one move score more. Then 2 sequences score 3 \
points, 3 score 6, 4 score 10, 5 score 15, 6 score 21, 7 score 28 and 8 score 36. In short, k \
sequences score k(k+1)/2. Play this without the five-point rule.
"""

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(KleeParams, ctx.params)
        n, steps, areas = params.size, params.track, params.areas
        gap = TRACK_GAP + COORD_ROOM if ctx.spec.labels else TRACK_GAP
        plan = plan_page(ctx.frame, n, areas, steps, gap)
        fld = make_field(ctx.rng("field"), n, plan.fx, plan.fy, plan.side)
        items = field_items(fld)
        if ctx.spec.labels:
            items.extend(coordinate_items(fld, gap))
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
