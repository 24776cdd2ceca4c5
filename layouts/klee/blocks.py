"""Klee's players' end blocks (their scoring sequences and track colour box) and the four shared
colour boxes, placed where the page plan puts them."""

from __future__ import annotations

from shapely.geometry import Polygon, box

from papergames.fonts import ASCENT, text_width
from papergames.layouts.klee.field import (
    AREA_GAP,
    CAPTION,
    COLOUR_GAP,
    COLOUR_LABEL_GAP,
    COLOURS,
    COLUMN_STEP,
    LEGEND,
    LEGEND_GAP,
    STAR_ROOM,
    STAR_SIZE,
    Plan,
    Point,
    column_size,
    label_line,
)
from papergames.sheets.compose import SMALL_TEXT
from papergames.sheets.model import Feature, Item, Kind, Layer, Style, Text
from papergames.sheets.score import LABEL, colour_box, printed_names


def colour_items(plan: Plan) -> list[Item]:
    """The four shared colour boxes, each with its colour's name beside or over it.

    Ids ``box-legend-<name>`` and texts ``caption-legend-<name>``; the box is as large as a
    player's track colour box, the name in type a child reads
    (:data:`~papergames.sheets.score.LABEL`).
    """
    items: list[Item] = []
    x, y = plan.colours_at
    column_w, _ = column_size()
    line = label_line()
    for name in COLOURS:
        label_w = text_width(name, LABEL)
        if plan.colours == "strip":
            items.append(colour_box(name, x, y, LEGEND))
            base = y + LEGEND / 2 + (ASCENT - 0.5) * LABEL
            items.append(
                Text(
                    f"caption-legend-{name}",
                    x + LEGEND + COLOUR_LABEL_GAP,
                    base,
                    name,
                    LABEL,
                    layer=Layer.SCORE,
                )
            )
            x += LEGEND + COLOUR_LABEL_GAP + label_w + COLOUR_GAP
        else:
            middle = x + column_w / 2
            items.append(
                Text(
                    f"caption-legend-{name}",
                    middle,
                    y + ASCENT * LABEL,
                    name,
                    LABEL,
                    "middle",
                    layer=Layer.SCORE,
                )
            )
            top = y + line + COLOUR_LABEL_GAP / 2
            items.append(colour_box(name, middle - LEGEND / 2, top, LEGEND))
            y = top + LEGEND + COLUMN_STEP
    return items


def standard_areas(areas: int) -> list[int]:
    """The middle four of ``areas`` areas (numbered from 1): the standard game's.

    Example:
        >>> standard_areas(6), standard_areas(4), standard_areas(7)
        ([2, 3, 4, 5], [1, 2, 3, 4], [2, 3, 4, 5])
    """
    first = (areas - 4) // 2 + 1
    return list(range(first, first + 4))


def block_items(
    plan: Plan, p: int, areas: int, corner: Point, turned: bool
) -> tuple[list[Item], list[list[str]]]:
    """Player p's end block: their sequence areas, the asterisks and their colour box.

    The block is laid out as the player sees it; ``turned`` turns it half round on the page.
    """
    w, h, q = plan.block_w, plan.block_h, plan.q
    cx, cy = corner

    def at(x: float, y: float) -> Point:
        return (cx + w - x, cy + h - y) if turned else (cx + x, cy + y)

    def rect(x0: float, y0: float, x1: float, y1: float) -> Polygon:
        (ax, ay), (bx, by) = at(x0, y0), at(x1, y1)
        return box(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))

    def text(ident: str, x: float, y: float, s: str, size: float, anchor: str, bold: bool) -> Text:
        px, py = at(x, y)
        return Text(ident, px, py, s, size, anchor, bold, Layer.SCORE, angle=180.0 if turned else 0)

    items: list[Item] = []
    standard = standard_areas(areas)
    room = w - LEGEND_GAP - LEGEND
    names = printed_names()
    who = names[p - 1] if p <= len(names) else f"player {p}"
    caption = f"{who}: scoring sequences (standard game: the areas marked *)"
    if names and text_width(caption, SMALL_TEXT) > room:  # a long name keeps its 7 pt
        caption = f"{who}: scoring sequences"
    size = min(CAPTION, room / max(text_width(caption, 1.0), 1e-9))
    items.append(text(f"caption-seq-{p}", 0.0, CAPTION * 0.76, caption, size, "start", False))
    top = CAPTION + 1.0 + STAR_ROOM
    row_top = top + max(q, LEGEND) - q
    ids: list[list[str]] = []
    x = 0.0
    for a in range(1, areas + 1):
        area_ids = []
        for k in range(1, 4):
            ident = f"box-seq{p}-{a}-{k}"
            area_ids.append(ident)
            items.append(
                Feature(
                    ident,
                    Kind.BOX,
                    rect(x + (k - 1) * q, row_top, x + k * q, row_top + q),
                    Style.BOX_HEAVY,
                    Layer.SCORE,
                    data={
                        "player": p,
                        "area": "seq",
                        "sequence": a,
                        "position": k,
                        "standard": a in standard,
                    },
                )
            )
        if a in standard:
            items.append(
                text(
                    f"asterisk-{p}-{a}",
                    x + 1.5 * q,
                    row_top - 0.1 * STAR_SIZE,
                    "*",
                    STAR_SIZE,
                    "middle",
                    True,
                )
            )
        ids.append(area_ids)
        x += 3 * q + AREA_GAP * q
    lx = w - LEGEND
    items.append(
        Feature(
            f"box-lane-{p}",
            Kind.BOX,
            rect(lx, top, lx + LEGEND, top + LEGEND),
            Style.BOX_HEAVY,
            Layer.SCORE,
            data={"player": p, "area": "lane"},
        )
    )
    items.append(text(f"caption-lane-{p}", w, top - 1.0, "track colour", 2.5, "end", False))
    return items, ids
