"""Score areas: where a player writes their initials, shows their colour, tallies and totals.

Each area is one row::

    initials  colour   points                  total
    [  X  ]  [     ]  [][][][][][][][][][]     [  T  ]
                      [][][][][][][][][][]

The colour box is left empty for the player to colour with their pencil: the photo reader takes
each player's colour from it. Ids: ``box-initials-<p>``, ``box-legend-<p>``,
``box-tally<p>-<k>``, ``box-total-<p>``.

A sheet made for named players (a class list's group, ``names=`` in the spec) prints each name
in a box of its own over its row, as wide as the row (``box-name-<p>``, never read by the photo
reader), and the name's initials in the X box. :func:`names_printed` says which names the score
areas built inside it carry; :func:`make_sheet <papergames.sheets.sheet.make_sheet>` sets it from
the spec, so every game's rows get the names without a layout knowing of them, and a sheet without
names is drawn exactly as before.

A colour that belongs to no single player (Mondrian's neutral colour, the game colours of
Delaunay and Klee) gets a colour box of its own, named for the colour rather than a player
(``box-legend-neutral``, ``box-legend-red``): :func:`colour_box` makes it, and the game places it
with a label that says which pencil goes in it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from shapely.geometry import box

from papergames.errors import FitError
from papergames.fonts import ASCENT, DESCENT, text_width, wrap_text
from papergames.sheets.compose import fit_text_lines
from papergames.sheets.model import Feature, Item, Kind, Layer, Style, Text
from papergames.sheets.names import initials

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


NAME_ROW = 4.4
"""Height in mm of a named player's box when every name fits on one line (at 9 pt or less)."""
NAME_ROW_TWO = 7.2
"""Height in mm of the name boxes when a name takes two lines of 7.1 pt type."""
NAME_GAP = 0.6
NAME_SIZES = (3.2, 2.5)
"""Type sizes in mm of a name: 9 pt when it fits on one line, never under 7.1 pt."""
NAME_PAD = 1.2

_PRINTED: ContextVar[tuple[str, ...]] = ContextVar("printed_names", default=())


@contextmanager
def names_printed(names: tuple[str, ...]) -> Iterator[None]:
    """Score areas built inside print these names in seat order (player 1 the first).

    Example:
        >>> with names_printed(("Mia Rose", "Leo")):
        ...     area = score_area(1, 0.0, 0.0, 40.0)
        >>> [t.text for t in area.items if isinstance(t, Text) and t.id.startswith("name-")]
        ['Mia Rose']
    """
    token = _PRINTED.set(tuple(names))
    try:
        yield
    finally:
        _PRINTED.reset(token)


def printed_names() -> tuple[str, ...]:
    """The names the score areas being built print (see :func:`names_printed`)."""
    return _PRINTED.get()


def name_room(width: float) -> float:
    """Height in mm the name boxes add over score areas ``width`` mm wide (0 without names).

    Every row of a sheet gets the same room, so the rows stay aligned: a box of two lines when
    any name needs them in that width, else of one.
    """
    names = _PRINTED.get()
    if not names:
        return 0.0
    two = any(len(name_lines(name, width - 2 * NAME_PAD)[0]) > 1 for name in names)
    return (NAME_ROW_TWO if two else NAME_ROW) + NAME_GAP


def name_lines(name: str, width: float) -> tuple[list[str], float]:
    """A name set in ``width`` mm: one line at the largest size that fits, else two at 7.1 pt.

    A word too long for a line of its own is broken between letters, so every name of at most
    24 characters fits a row of 37 mm, the narrowest any game has.

    Raises:
        FitError: when the name needs more than two lines.

    Example:
        >>> name_lines("Mia Rose", 40.0)
        (['Mia Rose'], 3.2)
        >>> name_lines("Αικατερίνη Παπαδοπούλου", 30.0)
        (['Αικατερίνη', 'Παπαδοπούλου'], 2.5)
    """
    try:
        return fit_text_lines(name, width, NAME_SIZES, 2)
    except FitError:  # a word too long for a line of its own: broken between letters below
        pass
    small = NAME_SIZES[1]
    lines: list[str] = []
    for word in name.split():
        if lines and text_width(f"{lines[-1]} {word}", small) <= width:
            lines[-1] = f"{lines[-1]} {word}"
            continue
        while text_width(word, small) > width:
            cut = max(k for k in range(1, len(word)) if text_width(word[:k], small) <= width)
            lines.append(word[:cut])
            word = word[cut:]
        lines.append(word)
    if len(lines) > 2:
        raise FitError(f"the name '{name}' does not fit in its row of {width:.0f} mm")
    return lines, small


def _name_box(
    player: int, name: str, x: float, y: float, width: float, height: float
) -> list[Item]:
    """A named player's box over their score area, the name centred in it."""
    frame = Feature(
        f"box-name-{player}",
        Kind.BOX,
        box(x, y, x + width, y + height),
        Style.BOX,
        Layer.SCORE,
        data={"player": player, "area": "name", "name": name},
    )
    lines, size = name_lines(name, width - 2 * NAME_PAD)
    pitch = size * 1.15
    block = (len(lines) - 1) * pitch + size * (ASCENT + DESCENT)
    baseline = y + (height - block) / 2 + size * ASCENT
    items: list[Item] = [frame]
    for k, line in enumerate(lines):
        items.append(
            Text(
                f"name-{player}" + (f"-{k + 1}" if k else ""),
                x + NAME_PAD,
                baseline + k * pitch,
                line,
                size,
                layer=Layer.SCORE,
            )
        )
    return items


NAMES_GAP = 1.5
"""Room in mm between a sheet's names box and the layout above it."""
NAMES_PAD = 0.9
"""Room in mm between the names box's edge and its text: the box takes little of a page whose
board is as large as the paper allows (Cannon Ball's on Letter has 8 mm to spare)."""


def names_box(names: tuple[str, ...], x: float, bottom: float, width: float) -> ScoreArea:
    """One box naming every player, its bottom edge at ``bottom``, for a sheet whose layout has
    no score rows to print the names in (the COM:POSITIE boards, Klee, Cubist's score pads).

    The height given is the box's and the gap above it, which the layout leaves free.

    Example:
        >>> area = names_box(("Mia Rose", "Leo"), 10.0, 200.0, 120.0)
        >>> [t.text for t in area.items if isinstance(t, Text)], round(area.height, 1)
        (['players: Mia Rose, Leo'], 6.5)
    """
    text = "players: " + ", ".join(names)
    inner = width - 2 * NAMES_PAD
    big, small = NAME_SIZES
    size, lines = big, [text]
    if text_width(text, big) > inner:
        size, lines = small, wrap_text(text, inner, small)
    pitch = size * 1.15
    height = (len(lines) - 1) * pitch + size * (ASCENT + DESCENT) + 2 * NAMES_PAD
    top = bottom - height
    frame = Feature(
        "box-names",
        Kind.BOX,
        box(x, top, x + width, bottom),
        Style.BOX,
        Layer.SCORE,
        data={"area": "name", "names": list(names)},
    )
    items: list[Item] = [frame]
    for k, line in enumerate(lines):
        baseline = top + NAMES_PAD + size * ASCENT + k * pitch
        items.append(Text(f"names-{k + 1}", x + NAMES_PAD, baseline, line, size, layer=Layer.SCORE))
    return ScoreArea(items, height + NAMES_GAP, width)


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
    return name_room(width) + CAPTION + 1.0 + max(BIG, rows * tally_size)


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
    names = _PRINTED.get()
    name = names[p - 1] if p <= len(names) else None
    room = name_room(width)
    if name:
        items += _name_box(p, name, x, y, width, room - NAME_GAP)
    y += room
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

    big_box("initials", x, initials(name) if name else "X", label or f"player {p}")
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
    height = room + CAPTION + 1.0 + max(BIG, rows * tally_size)
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
