"""Score areas: where a player writes his initials, shows his colour, tallies and totals.

Each area is one row::

    initials  colour   points                  total
    [  X  ]  [     ]  [][][][][][][][][][]     [  T  ]
                      [][][][][][][][][][]

The colour box is left empty for the player to colour with his pencil: the photo reader takes
each player's colour from it. Ids: ``box-initials-<p>``, ``box-legend-<p>``,
``box-tally<p>-<k>``, ``box-total-<p>``.

A colour that belongs to no single player (Mondrian's neutral colour, the game colours of
Delaunay and Klee) gets a colour box of its own, named for the colour rather than a player
(``box-legend-neutral``, ``box-legend-red``): :func:`colour_box` makes it, and the game places it
with a label that says which pencil goes in it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import box

from papergames.errors import FitError
from papergames.model import Feature, Item, Kind, Layer, Style, Text

BIG = 11.0
"""Side in mm of the initials, colour and total boxes."""
TALLY = 4.5
"""Side in mm of a tally box: large enough to fill with one pencil stroke."""
MIN_TALLY = 3.5
CAPTION = 2.2
"""Room in mm for the captions over the boxes, less the 1 mm gap between them and the boxes."""
CAPTION_SIZE = 2.5
"""Type size in mm of the captions (7.1 pt): nothing a player reads is under 7 pt."""
CAPTION_BASE = 2.3
"""Baseline of a caption below the top of its score area: the caption's capitals stay inside the
area and its descenders clear the boxes, so the larger type needs no more room."""
SPACING = 2.0
LABEL = 2.6
"""Type size in mm of a named colour box's label (7.4 pt): the label is the only way players know
which pencil the box wants, so it is larger than the score areas' captions."""


@dataclass(frozen=True)
class ScoreArea:
    """A placed score area and the room it took."""

    items: list[Item]
    height: float
    width: float


def score_area_height(
    tally: int, width: float, tally_size: float = TALLY, *, legend: bool = True
) -> float:
    """Height of a score area with ``tally`` boxes in ``width`` mm (see :func:`score_area`)."""
    rows = _tally_rows(tally, width, tally_size, legend)[1]
    return CAPTION + 1.0 + max(BIG, rows * tally_size)


def _tally_rows(
    tally: int, width: float, tally_size: float, legend: bool = True
) -> tuple[int, int]:
    room = width - (3 if legend else 2) * (BIG + SPACING)
    cols = math.floor((room + 1e-9) / tally_size)
    if tally and cols < 1:
        raise FitError(f"a score area needs more than {width:.0f} mm of width")
    rows = math.ceil(tally / cols) if tally else 0
    return cols, rows


def score_area(
    player: int,
    x: float,
    y: float,
    width: float,
    tally: int = 0,
    *,
    label: str | None = None,
    tally_size: float = TALLY,
    total_caption: str = "total",
    legend: bool = True,
) -> ScoreArea:
    """Build the score area of player ``player`` (1-based) with its top-left corner at (x, y).

    Args:
        player: the player's number, used in ids.
        x, y, width: where the area goes; its height follows from the tally count.
        tally: number of tally boxes (0 for none: initials, colour and total only).
        label: caption over the initials box (defaults to "player <n>").
        tally_size: side of a tally box; never below 3.5 mm.
        total_caption: caption over the total box.
        legend: whether the area has its player's colour box. A game whose colours are not
            the players' own (Delaunay's rows each play colours fixed by the seat) leaves it
            out and names its colours with :func:`colour_box` instead; the tally boxes then
            start where the colour box would have been.
    """
    if tally_size < MIN_TALLY:
        raise FitError(f"tally boxes of {tally_size:.1f} mm are too small to fill by pencil")
    p = player
    items: list[Item] = []
    top = y + CAPTION + 1.0
    cols, rows = _tally_rows(tally, width, tally_size, legend)

    def big_box(area: str, bx: float, letter: str, caption: str) -> None:
        items.append(
            Feature(
                f"box-{area}-{p}",
                Kind.BOX,
                box(bx, top, bx + BIG, top + BIG),
                Style.BOX_HEAVY,
                Layer.SCORE,
                data={"player": p, "area": area},
            )
        )
        if letter:
            items.append(
                Text(
                    f"letter-{area}-{p}",
                    bx + 1.0,
                    top + 3.0,
                    letter,
                    2.6,
                    layer=Layer.SCORE,
                    bold=True,
                )
            )
        items.append(
            Text(
                f"caption-{area}-{p}",
                bx,
                y + CAPTION_BASE,
                caption,
                CAPTION_SIZE,
                layer=Layer.SCORE,
            )
        )

    big_box("initials", x, "X", label or f"player {p}")
    if legend:
        big_box("legend", x + BIG + SPACING, "", "colour")
    right = x + width - BIG
    big_box("total", right, "T", total_caption)
    if tally:
        tx = x + (2 if legend else 1) * (BIG + SPACING)
        items.append(
            Text(
                f"caption-tally-{p}",
                tx,
                y + CAPTION_BASE,
                "points",
                CAPTION_SIZE,
                layer=Layer.SCORE,
            )
        )
        for k in range(tally):
            r, c = divmod(k, cols)
            bx, by = tx + c * tally_size, top + r * tally_size
            items.append(
                Feature(
                    f"box-tally{p}-{k + 1}",
                    Kind.BOX,
                    box(bx, by, bx + tally_size, by + tally_size),
                    Style.BOX,
                    Layer.SCORE,
                    data={"player": p, "area": "tally", "value": k + 1},
                )
            )
    height = CAPTION + 1.0 + max(BIG, rows * tally_size)
    return ScoreArea(items, height, width)


def colour_box(key: str, x: float, y: float, side: float = BIG) -> Feature:
    """The colour box of a colour that belongs to no single player, top-left corner at (x, y).

    Its id ``box-legend-<key>`` names the colour (``neutral``, ``red``), so the photo reader
    learns that pencil under the colour's own name; a player's box is ``box-legend-<p>``. The
    box is drawn like a score area's colour box and left empty inside, since the pencil in it is
    the sample; the caller prints the label beside it.

    Example:
        >>> box = colour_box("neutral", 10.0, 20.0)
        >>> box.id, box.data["area"], box.geometry.bounds
        ('box-legend-neutral', 'legend', (10.0, 20.0, 21.0, 31.0))
    """
    return Feature(
        f"box-legend-{key}",
        Kind.BOX,
        box(x, y, x + side, y + side),
        Style.BOX_HEAVY,
        Layer.SCORE,
        data={"area": "legend", "colour": key},
    )
