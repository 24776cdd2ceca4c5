"""Arp's sheet: the field between four score areas, its typed parameters and feature data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from papergames.errors import FitError, SpecError
from papergames.layouts.arp.field import AREA_GAP, PAD, build_field, space_bounds
from papergames.layouts.arp.params import PARAMS, ArpParams
from papergames.play.example import Example
from papergames.sheets.compose import Frame
from papergames.sheets.labels import label_lines
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Item, Kind
from papergames.sheets.score import score_area, score_area_height

EXAMPLE = Example(
    transcript="""\
sheet: arp seed=1
players: Ann (red), Bob (blue)
Ann: line-14
Bob: line-12 > point-4-12
Ann: line-23 > point-3-23
Bob: line-15 > point-15-21
Ann: line-24 > point-4-24
Bob: line-4 > point-4-5
claim: Ann score 0
claim: Bob score 1
""",
    text="""\
The small numbers give the order of play; Ann's lines are solid, Bob's dashed. Each line \
starts where it touches the line coloured just before. With move 6 Bob finishes the outline of \
the grey space. Every side is now coloured, so Bob captures it and scores 1 point.""",
)


class ArpLayout(Layout):
    """Arp: straight lines crossing into spaces, two score areas at each end of the sheet."""

    name = "arp"
    param_shape = ArpParams
    how_to_play = """\
The field: Straight lines cross each other and cut the field into spaces. Every line ends on \
another line, so no line sticks out into empty paper.

Players: Each player takes a pencil of their own colour and one of the four score areas, \
and writes their initials in its X box. Four players may play alone or as two teams, with partners \
sitting diagonally opposite.

Play: The first player picks any line and colours all of it. Then turns pass to the left. Pick \
a line that touches the line coloured just before: it crosses that line or ends on it. It must \
still be uncoloured where it touches.

Colouring: Colour your line from the touching point in one direction. Stop at the line's end \
or where it is already coloured, whichever comes first. If the touching point is not an end of \
your line, you choose the direction. You never colour both ways. If no line touches the last \
one, pick any line with uncoloured parts and colour all of them.

Capturing: Your colouring may finish the outline of a space, so that every side of it is \
coloured. It does not matter who coloured the other sides. Then you fill that space with your \
colour and score one point. One move may capture several spaces.

End: The game ends when every line is coloured and every space captured. The highest score \
wins. Partners add their scores.

Variation: Your colouring also stops where it reaches a line you coloured yourself earlier.

Team variation: Teams may score as in Miro. Before adding, the lower scorer of each team \
doubles their points. Or else the higher scorer doubles their points.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """Refuse space counts the lines cannot make (too few chords, or too few crossings)."""
        typed = PARAMS.read(ArpParams, params)
        lines, spaces = typed.lines, typed.spaces
        low, high = space_bounds(lines)
        if not low <= spaces <= high:
            raise SpecError(
                f"spaces={spaces} cannot be made with lines={lines}: {lines} lines make "
                f"from {low} to {high} spaces"
            )

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(ArpParams, ctx.params)
        lines, spaces = params.lines, params.spaces
        frame = ctx.frame.inset(PAD)
        area_w = (frame.w - AREA_GAP) / 2
        try:
            area_h = score_area_height(spaces, area_w)
        except FitError:
            raise FitError(
                "the score areas do not fit across this paper: use larger paper"
            ) from None
        field_h = frame.h - 2 * (area_h + AREA_GAP)
        if field_h < 0.4 * frame.h:
            raise FitError(
                f"spaces={spaces} makes the score areas too tall for the field on this paper: "
                "use fewer spaces or larger paper"
            )
        box = Frame(frame.x, frame.y + area_h + AREA_GAP, frame.w, field_h)
        result = build_field(ctx.rng("field"), box, lines, spaces)
        items: list[Item] = list(result.items)
        # Numbered in reading order, left to right and top to bottom, as on every sheet.
        places = [
            (frame.x, frame.y),
            (frame.x + area_w + AREA_GAP, frame.y),
            (frame.x, frame.bottom - area_h),
            (frame.x + area_w + AREA_GAP, frame.bottom - area_h),
        ]
        for player, (x, y) in enumerate(places, start=1):
            items.extend(score_area(player, x, y, area_w, spaces).items)
        if ctx.spec.labels:
            items.extend(label_lines(items, (Kind.LINE,), result.outline))
        return [PageBody(items, field=result.outline, data=dict(result.data))]


LAYOUT = ArpLayout()
