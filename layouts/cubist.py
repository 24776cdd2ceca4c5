"""Cubist (Poelzing and Seegert, 2013): play aids for owners of the published dice game.

Cubist is a commercial game played with dice, boards and cards; papergames prints only aids in
its own words and its own plain drawing (no artwork, card text or card art of the game):

* ``cubist-studio``: a studio board per player, one per page, at true scale for 14 mm dice.
* ``cubist-score``: a final-scoring pad for 2-4 players, 1-4 pads per page.
* :class:`CubistScoreRules` (``RULES``): checks a final-scoring transcript.
* :func:`check_installation`: says whether a described installation (a sculpture of dice) is
  legal, and whether it matches a plan.

**Studio board.** From the top: the player's name (or colour), two workrooms side by side (or
one above the other when they are too wide for the paper), each a grid of ``rows`` by ``cols``
cells of ``cell`` mm; then the storeroom (a dashed open area for rolled dice) and the storage
space (two cells, each with a dotted 14 mm square showing where a die sits); then the turn
summary and the placement rules. Cells are never under 15 mm, so a 14 mm die always fits inside
one; the sheet must be printed at actual size (the 5 cm scale bar in the footer checks it).
``players`` boards are printed, one per page, titled with ``names`` or else with the colours
red, blue, green and yellow in turn.

Studio ids, numbered in this order: ``space-<n>``: workroom 1's cells row by row from the top
left (data ``area="workroom"``, ``workroom``, ``row``, ``col``), then workroom 2's, then the two
storage cells (``area="storage"``, ``slot``), then the storeroom (``area="storeroom"``).
``line-<n>``: for each workroom its heavy outline, its inner vertical lines left to right and
its inner horizontal lines top to bottom (data ``area``, ``workroom``, ``axis``); then the storage
outline and its divider, the storeroom's dashed outline and the board's outline.
``mark-die-<k>``: the dotted 14 mm die squares in the storage cells. Page data: ``player``,
``board``, ``boards``, ``rows``, ``cols``, ``cell``, ``die`` and ``tiled`` (the region the spaces
tile: both workrooms, the storage space and the storeroom).

**Score pad.** Each pad is a table with a row per player: initials (X) and colour boxes as on
every papergames score area, ``installations`` boxes for the values of completed installation
cards, the museum dice count (which is also the tiebreak), the total (T) and a box to tick the
winner. Pads are stacked down the page with dashed cut lines between them. Rows are numbered
down the page: row n = (pad - 1) * players + player. Ids: ``box-initials-<n>``,
``box-legend-<n>``, ``box-installation<n>-<k>`` (k = 1 .. installations), ``box-museum-<n>``,
``box-total-<n>``, ``box-winner-<n>`` (data ``pad``, ``player``, ``area``) and ``mark-cut-<k>``.

**Installation text** (:func:`check_installation`)::

    installation: my tower        # the keyword line; a name after it is optional
    . 4  .                        # one row of stacks per line, cells apart by spaces
    3 55 6                        # a cell: '.' empty, or its dice bottom to top ('55')
    . 4  .
    plan:                         # optional: the plan to compare with, same grid form,
    . *  .                        # '*' a die of any value ('**' two of them, the same value),
    * 55 *                        # a digit a die of that value
    . *  .

A stack's dice must all show one value; two stacks that share an edge touch at every height
both have, and there the dice must differ by exactly one; since a stack holds one value, that
is: neighbouring stacks' values differ by one, whatever their heights. The stacks must form one
edge-connected structure. A plan matches when, turned by 0, 90, 180 or 270 degrees (never
mirrored) and moved, it has exactly the installation's footprint, every cell's height, and the
value wherever the plan names one.

**Score transcript** (``papergames check``): ``sheet: cubist-score ...``, the players, then one
line per player in order, ``Ann: installations 7 5 9 museum 3`` (``installations none`` for
none). Scores are the installation values plus 2 per museum die; the winner has the highest
score, then the most museum dice; still equal, they share the win. Claims: ``score``,
``installations`` (the sum of values), ``cards`` (how many), ``museum`` (dice).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString, MultiPolygon, box
from shapely.ops import unary_union

from papergames.compose import Frame
from papergames.errors import FitError, SpecError
from papergames.fonts import ASCENT, DESCENT, text_width, wrap_text
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import INKS, Feature, Item, Kind, Layer, Sheet, Style, Text, shifted
from papergames.params import Param, ParamSet
from papergames.rng import Rng
from papergames.rules import IllegalMove, MoveSyntaxError, Player, Rules

DIE = 14.0
"""Side in mm of a Cubist die."""
MIN_CELL = 15.0
"""Least side in mm of a workroom cell: a die fits with room to spare."""
COLOURS = ("red", "blue", "green", "yellow")
"""Board titles when no names are given, in turn."""
MAX_BOARDS = 4

PAD = 4.0
"""Room in mm between the board's outline and what is inside it."""
GAP = 7.0
"""Gap in mm between the blocks of the board."""
CAPTION = 3.2
"""Em size of the block captions."""
CAPTION_ROOM = 5.5
NOTE = 2.5
"""Em size of the small notes under a caption."""
NAME_SIZE = 5.0
SUMMARY_SIZES = (3.0, 2.8, 2.6, 2.4, 2.2)
LEADING = 1.35
HEAVY_HALF = INKS[Style.HEAVY].stroke / 2
NOTE_LINE = 5.0
"""Room in mm for a one-line note under a box."""
COLUMN_MIN = 45.0
"""Least width in mm of the storeroom when it stands beside stacked workrooms."""


# --- text helpers -------------------------------------------------------------------------------


def fit_size(text: str, width: float, size: float, bold: bool = False) -> float:
    """The largest size up to ``size`` at which ``text`` fits in ``width`` mm."""
    return min(size, width / max(text_width(text, 1.0, bold), 1e-9))


def _line(ident: str, points: Sequence[tuple[float, float]], style: Style, **data: Any) -> Feature:
    return Feature(ident, Kind.LINE, LineString(points), style, Layer.FIELD, data=data)


def _ring(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]


# --- the studio board ---------------------------------------------------------------------------

STEPS = (
    "Roll two dice from your supply and set them in the storeroom, showing the numbers you "
    "rolled. Any dice kept in the storage space join them and can be used too.",
    "Assign dice from the storeroom: to one of your workrooms, onto an artist card (two or "
    "three dice of one number, as the card asks), or to the storage space.",
    "At any moment of your turn: use an artist card you loaded on an earlier turn, complete "
    "or abandon an installation, and move dice off your completed installation cards - the "
    "only dice that may go into the museum (2 points each at the end).",
    "End the turn: keep at most two dice in the storage space and return every other die in "
    "the storeroom to your supply. After a turn that leaves someone with five installations, "
    "or the museum finished, the game ends.",
)
PLACING = (
    "Same number: stack it on top (only a 4 goes on a 4).",
    "Numbers one apart: set it beside, face against face (a 3 or a 5 beside a 4; a 1 only "
    "beside a 2, a 6 only beside a 5). Every die it touches must be one apart.",
    "Never corner to corner: no diagonal placement, and no gap.",
    "A die always keeps the number it was rolled or set with.",
)


@dataclass(frozen=True)
class _Text:
    """A block of text set at one size: items with the block's top at y = 0, and its height."""

    items: list[Item]
    height: float


def summary_block(x: float, width: float, size: float) -> _Text:
    """The turn summary and the placement rules, in two columns when wide enough."""
    two = width >= 150.0
    col_gap = 8.0
    col_w = (width - col_gap) / 2 if two else width
    items: list[Item] = []
    k = 0

    def column(cx: float, top: float, heading: str, entries: Sequence[str], mark: str) -> float:
        nonlocal k
        items.append(
            Text(
                f"summary-head-{heading[:4].lower()}",
                cx,
                top + ASCENT * CAPTION,
                heading,
                CAPTION,
                bold=True,
            )
        )
        y = top + CAPTION_ROOM + ASCENT * size
        for n, entry in enumerate(entries, start=1):
            label = f"{n}." if mark == "number" else "•"
            indent = text_width("4. ", size, bold=True)
            items.append(
                Text(f"summary-mark-{heading[:4].lower()}-{n}", cx, y, label, size, bold=True)
            )
            for line in wrap_text(entry, col_w - indent, size):
                k += 1
                items.append(Text(f"summary-{k}", cx + indent, y, line, size))
                y += LEADING * size
            y += 0.5 * size
        return y - (LEADING + 0.5) * size + DESCENT * size - top

    if two:
        h1 = column(x, 0.0, "Your turn, in four steps", STEPS, "number")
        right = x + col_w + col_gap
        h2 = column(right, 0.0, "Placing dice in a workroom", PLACING, "bullet")
        drawn, h3 = placement_examples(right, h2 + 3.0, col_w)
        items += drawn
        return _Text(items, max(h1, h2 + 3.0 + h3))
    h1 = column(x, 0.0, "Your turn, in four steps", STEPS, "number")
    h2 = column(x, h1 + 4.0, "Placing dice in a workroom", PLACING, "bullet")
    return _Text(items, h1 + 4.0 + h2)


EXAMPLE_DIE = 7.0
"""Side in mm of a die in the placement examples (half scale: they are not places for dice)."""
EXAMPLE_DIGIT = 3.4


def placement_examples(x: float, top: float, width: float) -> tuple[list[Item], float]:
    """Three small drawings under the placement rules: stack, beside, never corner to corner.

    Each is drawn plainly with squares and digits (our own drawing, half scale); the first is
    seen from the side, standing on a ground line, the other two from above.
    """
    q = EXAMPLE_DIE
    panel = width / 3
    items: list[Item] = []
    squares: list[tuple[int, float, float, str]] = [
        (1, 0.0, 0.0, "4"),
        (1, 0.0, q, "4"),
        (2, 0.0, q, "4"),
        (2, q, q, "5"),
        (3, 0.0, 0.0, "4"),
        (3, q, q, "5"),
    ]
    captions = {1: "same number: on top", 2: "one apart: beside", 3: "corner to corner: no"}
    for k, (n, dx, dy, digit) in enumerate(squares, start=1):
        x0 = x + (n - 1) * panel + (panel - 2 * q) / 2 + dx
        y0 = top + dy
        items.append(
            Feature(
                f"mark-example-{k}",
                Kind.MARK,
                box(x0, y0, x0 + q, y0 + q),
                Style.MEDIUM,
                Layer.FIELD,
                data={"example": n, "value": int(digit)},
            )
        )
        items.append(
            Text(
                f"example-digit-{k}",
                x0 + q / 2,
                y0 + q / 2 + 0.36 * EXAMPLE_DIGIT,
                digit,
                EXAMPLE_DIGIT,
                "middle",
                bold=True,
            )
        )
    ground_x = x + (panel - 2 * q) / 2
    items.append(
        Feature(
            "mark-example-ground",
            Kind.MARK,
            LineString([(ground_x - 2.0, top + 2 * q), (ground_x + q + 2.0, top + 2 * q)]),
            Style.LIGHT,
            Layer.FIELD,
        )
    )
    cross_x = x + 2 * panel + (panel - 2 * q) / 2 + 2 * q
    items.append(Text("example-cross", cross_x + 1.0, top + q + 0.36 * 5.0, "✗", 5.0, bold=True))
    base = top + 2 * q + 1.5 + ASCENT * NOTE
    for n, caption in captions.items():
        cx = x + (n - 0.5) * panel
        size = fit_size(caption, panel - 1.0, NOTE)
        items.append(Text(f"example-caption-{n}", cx, base, caption, size, "middle"))
    return items, 2 * q + 1.5 + NOTE


def board_titles(params: Mapping[str, Any]) -> list[str]:
    """The title of every board: the names given, or else the colours in turn."""
    names: tuple[str, ...] = params["names"]
    if names:
        return list(names)
    return [COLOURS[k % len(COLOURS)] for k in range(params["players"])]


class CubistStudioLayout(Layout):
    """A studio board per player at true scale for 14 mm dice, with the turn summary."""

    name = "cubist-studio"
    params = ParamSet(
        [
            Param.int("players", 1, 1, MAX_BOARDS, "boards to print, one per page"),
            Param.names("names", "titles of the boards, one per player (else colours)"),
            Param.int("cols", 5, 2, 10, "cells across each workroom"),
            Param.int("rows", 5, 2, 10, "cells down each workroom"),
            Param.float("cell", 16.0, MIN_CELL, 30.0, "side of a workroom cell in mm (dice: 14)"),
        ]
    )
    how_to_play = """\
Cubist (Steven Poelzing and Alf Seegert, 2013) is a published dice game for 2-4 players; this \
board is a play aid for owners of it: play with the game's own dice and cards. Print it at \
actual size (100 %, no "fit to page"): the 5 cm bar in the footer must measure 5 cm, and each \
cell then holds one 14 mm die.

On your turn: roll two dice into the storeroom; assign dice from the storeroom to your \
workrooms, to artist cards or to the storage space; at any moment use an artist card loaded on \
an earlier turn, complete or abandon an installation and move dice from completed installation \
cards (the only way into the museum); finally keep at most two dice in the storage space and \
return the rest to your supply.

In a workroom, a die with the same number goes on top of a die; a die one number apart goes \
beside it, touching face against face; never corner to corner. Every die it touches must fit \
these rules. The game ends after the turn in which a player holds five completed installations \
or the museum is finished; then score with the cubist-score pad.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """Names, when given, fix the number of boards; more than four are refused."""
        names: tuple[str, ...] = params["names"]
        if len(names) > MAX_BOARDS:
            raise SpecError(f"names lists {len(names)} players, but Cubist has at most 4")
        if names and params["players"] not in (1, len(names)):
            raise SpecError(
                f"players={params['players']} but names lists {len(names)}: give one or the "
                "other, or make them agree"
            )

    def notes(self) -> list[str]:
        return [
            f"cells are at least {MIN_CELL:g} mm for 14 mm dice: print at actual size; "
            "workrooms too wide for the paper are stacked"
        ]

    def build(self, ctx: BuildContext) -> list[PageBody]:
        titles = board_titles(ctx.params)
        bodies = []
        for k, name in enumerate(titles, start=1):
            bodies.append(self.board(ctx, name, k, len(titles)))
        return bodies

    def board(self, ctx: BuildContext, name: str, number: int, boards: int) -> PageBody:
        """One studio board, centred in the frame."""
        frame = ctx.frame
        rows: int = ctx.params["rows"]
        cols: int = ctx.params["cols"]
        cell: float = ctx.params["cell"]
        room_w = cols * cell
        room_h = rows * cell
        inner_w = frame.w - 2 * (PAD + HEAVY_HALF)
        side_by_side = 2 * room_w + GAP <= inner_w + 1e-9
        if room_w > inner_w + 1e-9:
            raise FitError(
                f"a workroom of cols={cols} cells of {cell:g} mm is {room_w:.0f} mm wide but "
                f"this paper leaves {inner_w:.0f} mm: use fewer cols, a smaller cell, or other "
                "paper or orientation"
            )
        rooms_w = 2 * room_w + GAP if side_by_side else room_w
        rooms_h = CAPTION_ROOM + room_h if side_by_side else 2 * (CAPTION_ROOM + room_h) + GAP
        store_h = CAPTION_ROOM + 2 * cell
        storage_w = 2 * cell
        content_w = inner_w
        name_h = NAME_SIZE + 3.0
        # Stacked workrooms leave room at their right: the storeroom and storage go there
        # when they fit, so tall grids still leave room for the summary.
        column_w = content_w - room_w - GAP
        column_h = 2 * CAPTION_ROOM + 3 * cell + GAP + NOTE_LINE
        in_column = (
            not side_by_side and column_w >= max(storage_w, COLUMN_MIN) and column_h <= rooms_h
        )
        fixed = name_h + rooms_h + GAP + (0.0 if in_column else store_h + GAP)
        summary: _Text | None = None
        for size in SUMMARY_SIZES:
            block = summary_block(frame.x + HEAVY_HALF + PAD, content_w, size)
            if fixed + block.height + 2 * (PAD + HEAVY_HALF) <= frame.h + 1e-9:
                summary = block
                break
        if summary is None:
            raise FitError(
                f"the studio board with rows={rows} cells of {cell:g} mm needs more height "
                f"than this paper leaves ({frame.h:.0f} mm): use fewer rows, a smaller cell, "
                "or portrait paper"
            )
        total_h = fixed + summary.height + 2 * (PAD + HEAVY_HALF)
        bx0 = frame.x + HEAVY_HALF
        by0 = frame.y + (frame.h - total_h) / 2 + HEAVY_HALF
        bx1 = frame.right - HEAVY_HALF
        by1 = by0 + total_h - 2 * HEAVY_HALF
        left = bx0 + PAD
        y = by0 + PAD
        items: list[Item] = []
        spaces: list[Feature] = []
        lines: list[Feature] = []

        items.append(Text("name", left, y + ASCENT * NAME_SIZE, name, NAME_SIZE, bold=True))
        note = "studio board · 14 mm dice · print at actual size"
        items.append(Text("name-note", bx1 - PAD, y + ASCENT * NAME_SIZE, note, NOTE, "end"))
        y += name_h

        # the two workrooms
        x_rooms = left if in_column else left + (content_w - rooms_w) / 2
        rooms_top = y
        n_space = 0
        for w in (1, 2):
            if side_by_side:
                rx, ry = x_rooms + (w - 1) * (room_w + GAP), y
            else:
                rx, ry = x_rooms, y + (w - 1) * (CAPTION_ROOM + room_h + GAP)
            caption = f"Workroom {w}"
            items.append(
                Text(
                    f"caption-workroom-{w}", rx, ry + ASCENT * CAPTION, caption, CAPTION, bold=True
                )
            )
            top = ry + CAPTION_ROOM
            for r in range(rows):
                for c in range(cols):
                    n_space += 1
                    spaces.append(
                        Feature(
                            f"space-{n_space}",
                            Kind.SPACE,
                            box(
                                rx + c * cell,
                                top + r * cell,
                                rx + (c + 1) * cell,
                                top + (r + 1) * cell,
                            ),
                            Style.NONE,
                            Layer.FIELD,
                            data={"area": "workroom", "workroom": w, "row": r + 1, "col": c + 1},
                        )
                    )
            bottom, right = top + room_h, rx + room_w
            lines.append(
                _line(
                    "",
                    _ring(rx, top, right, bottom),
                    Style.HEAVY,
                    area="workroom",
                    workroom=w,
                    axis="outline",
                )
            )
            for c in range(1, cols):
                xc = rx + c * cell
                lines.append(
                    _line(
                        "",
                        [(xc, top), (xc, bottom)],
                        Style.LIGHT,
                        area="workroom",
                        workroom=w,
                        axis="vertical",
                    )
                )
            for r in range(1, rows):
                yr = top + r * cell
                lines.append(
                    _line(
                        "",
                        [(rx, yr), (right, yr)],
                        Style.LIGHT,
                        area="workroom",
                        workroom=w,
                        axis="horizontal",
                    )
                )
        y += rooms_h + GAP

        # storeroom and storage space: in a row under the workrooms, or in a column beside
        hint = "roll here; empty it at the end of your turn"
        if in_column:
            store_x0 = left + room_w + GAP
            store_x1 = left + content_w
            store_top = rooms_top + CAPTION_ROOM
            items.append(
                Text(
                    "caption-storeroom",
                    store_x0,
                    rooms_top + ASCENT * CAPTION,
                    "Storeroom",
                    CAPTION,
                    bold=True,
                )
            )
            hint_at = (store_x0, store_top + 2 * cell + 1.5 + ASCENT * NOTE)
            hint_w = column_w
            caption_y = store_top + 2 * cell + NOTE_LINE + GAP
            sx0 = store_x0
            y = rooms_top + rooms_h + GAP
        else:
            store_x0 = left
            caption_y = y
            store_top = y + CAPTION_ROOM
            sx0 = left + content_w - storage_w
            store_x1 = sx0 - GAP
            items.append(
                Text(
                    "caption-storeroom",
                    left,
                    y + ASCENT * CAPTION,
                    "Storeroom",
                    CAPTION,
                    bold=True,
                )
            )
            hint_x = left + text_width("Storeroom", CAPTION, bold=True) + 2.5
            hint_at = (hint_x, y + ASCENT * CAPTION)
            hint_w = store_x1 - hint_x
            y = store_top + 2 * cell + GAP
        top = caption_y + CAPTION_ROOM
        sx1 = sx0 + storage_w
        items.append(Text("note-storeroom", *hint_at, hint, fit_size(hint, hint_w, NOTE)))
        items.append(
            Text(
                "caption-storage",
                sx0,
                caption_y + ASCENT * CAPTION,
                "Storage space",
                fit_size("Storage space", storage_w, CAPTION, bold=True),
                bold=True,
            )
        )
        keep = "keep 2 dice"
        items.append(
            Text(
                "note-storage",
                sx0,
                top + cell + 1.5 + ASCENT * NOTE,
                keep,
                fit_size(keep, storage_w, NOTE),
            )
        )
        for k in (1, 2):
            cx0 = sx0 + (k - 1) * cell
            n_space += 1
            spaces.append(
                Feature(
                    f"space-{n_space}",
                    Kind.SPACE,
                    box(cx0, top, cx0 + cell, top + cell),
                    Style.NONE,
                    Layer.FIELD,
                    data={"area": "storage", "slot": k},
                )
            )
            inset = (cell - DIE) / 2
            items.append(
                Feature(
                    f"mark-die-{k}",
                    Kind.MARK,
                    box(cx0 + inset, top + inset, cx0 + inset + DIE, top + inset + DIE),
                    Style.DOTTED,
                    Layer.FIELD,
                    data={"side": DIE},
                )
            )
        n_space += 1
        spaces.append(
            Feature(
                f"space-{n_space}",
                Kind.SPACE,
                box(store_x0, store_top, store_x1, store_top + 2 * cell),
                Style.NONE,
                Layer.FIELD,
                data={"area": "storeroom"},
            )
        )
        lines.append(
            _line("", _ring(sx0, top, sx1, top + cell), Style.HEAVY, area="storage", axis="outline")
        )
        lines.append(
            _line(
                "",
                [(sx0 + cell, top), (sx0 + cell, top + cell)],
                Style.LIGHT,
                area="storage",
                axis="vertical",
            )
        )
        lines.append(
            _line(
                "",
                _ring(store_x0, store_top, store_x1, store_top + 2 * cell),
                Style.DASHED,
                area="storeroom",
                axis="outline",
            )
        )
        items += [shifted(item, 0.0, y) for item in summary.items]
        lines.append(
            _line("", _ring(bx0, by0, bx1, by1), Style.MEDIUM, area="board", axis="outline")
        )
        numbered = [dataclasses.replace(f, id=f"line-{k}") for k, f in enumerate(lines, 1)]
        tiled = unary_union([s.geometry for s in spaces])
        data: dict[str, Any] = {
            "player": name,
            "board": number,
            "boards": boards,
            "rows": rows,
            "cols": cols,
            "cell": cell,
            "die": DIE,
            "layout": "side-by-side" if side_by_side else "stacked",
            "store": "column" if in_column else "row",
            "tiled": tiled if isinstance(tiled, MultiPolygon) else MultiPolygon([tiled]),
        }
        subtitle = f"Studio of {name}" if ctx.params["names"] else f"Studio board - {name}"
        field = box(bx0, by0, bx1, by1)
        return PageBody([*spaces, *numbered, *items], subtitle, field, data)


STUDIO = CubistStudioLayout()


# --- the score pad ------------------------------------------------------------------------------

BOX_MAX = 11.0
"""Side in mm of a score box when the page has room (as on every papergames score area)."""
BOX_MIN = 7.0
"""Least side in mm of a score box: two handwritten digits still fit."""
LEFT_GAP = 1.5
"""Gap between the initials and the colour box."""
BLOCK_GAP = 4.0
SIGN_W = 11.0
"""Room in mm for a sign between boxes (``+ 2 ×``, ``=``)."""
PAD_GAP = 7.0
"""Gap in mm between two pads; the cut line runs through its middle."""
HEAD_ROOM = 5.0
CAPTION_SIZE = 2.3
CAPTION_LINE = 3.2
ROW_GAP = 1.0
NOTE_ROOM = 4.0
"""Room in mm under the rows for the tie rule."""


@dataclass(frozen=True)
class _PadPlan:
    """Sizes of one pad: the box side, the row's width and the pad's height."""

    side: float
    width: float
    height: float


def _pad_width(side: float, installations: int) -> float:
    return (
        2 * side
        + LEFT_GAP
        + BLOCK_GAP
        + installations * side
        + SIGN_W
        + side
        + SIGN_W / 1.5
        + side
        + BLOCK_GAP
        + side
    )


def _pad_height(side: float, players: int) -> float:
    return HEAD_ROOM + 2 * CAPTION_LINE + players * side + (players - 1) * ROW_GAP + NOTE_ROOM


def plan_pads(frame: Frame, players: int, installations: int, games: int) -> _PadPlan:
    """The largest box side (up to 11 mm, at least 7 mm) at which the pads fit the frame.

    Raises:
        FitError: when even 7 mm boxes do not fit.
    """
    side = BOX_MAX
    while side >= BOX_MIN - 1e-9:
        width = _pad_width(side, installations)
        height = games * _pad_height(side, players) + (games - 1) * PAD_GAP
        if width <= frame.w - 1.0 and height <= frame.h - 1.0:
            return _PadPlan(side, width, _pad_height(side, players))
        side -= 0.25
    raise FitError(
        f"{games} pads of {players} players with {installations} installation boxes do not "
        f"fit this paper with boxes of at least {BOX_MIN:g} mm: use fewer games or "
        "installations, or other paper or orientation"
    )


class CubistScoreLayout(Layout):
    """A final-scoring pad: installations, museum dice (x2), total and tiebreak per player."""

    name = "cubist-score"
    params = ParamSet(
        [
            Param.int("players", 4, 2, 4, "player rows on each pad"),
            Param.int("installations", 8, 8, 12, "boxes for installation values per player"),
            Param.int("games", 2, 1, 4, "pads per page, one per game of a session"),
        ]
    )
    how_to_play = """\
Final scoring in Cubist (Steven Poelzing and Alf Seegert, 2013), a published dice game for \
2-4 players; this pad is a play aid for owners of the game.

When the game ends, each player writes the value of every installation card he completed, \
face up or face down, one per box; then the number of dice he placed in the museum. His \
total is the sum of the installation values plus two points for each museum die.

The highest total wins. On a tie, the tied player with more dice in the museum wins; if they \
also have the same number of museum dice, they share the victory. Tick the winner's box. Print \
several pads on a page (games=2 or 4) for a session, and cut them apart along the dashes. \
papergames check reads the final figures and checks the totals and the winner.
"""

    def build(self, ctx: BuildContext) -> list[PageBody]:
        players: int = ctx.params["players"]
        installations: int = ctx.params["installations"]
        games: int = ctx.params["games"]
        frame = ctx.frame
        plan = plan_pads(frame, players, installations, games)
        total_h = games * plan.height + (games - 1) * PAD_GAP
        x = frame.x + (frame.w - plan.width) / 2
        y = frame.y + (frame.h - total_h) / 2
        items: list[Item] = []
        for g in range(1, games + 1):
            items += self.pad(g, players, installations, plan, x, y)
            if g < games:
                cut_y = y + plan.height + PAD_GAP / 2
                items.append(
                    Feature(
                        f"mark-cut-{g}",
                        Kind.MARK,
                        LineString([(frame.x + 0.2, cut_y), (frame.right - 0.2, cut_y)]),
                        Style.CUT,
                        Layer.SCORE,
                    )
                )
            y += plan.height + PAD_GAP
        data: dict[str, Any] = {
            "players": players,
            "installations": installations,
            "games": games,
            "box": plan.side,
        }
        subtitle = "total = installation values + 2 × museum dice · tie: more museum dice wins"
        return [PageBody(items, subtitle, None, data)]

    def pad(
        self, g: int, players: int, installations: int, plan: _PadPlan, x: float, y: float
    ) -> list[Item]:
        """One pad with its top-left corner at (x, y)."""
        s = plan.side
        items: list[Item] = []
        head = f"Game {g}"
        items.append(Text(f"pad-head-{g}", x, y + ASCENT * 3.6, head, 3.6, bold=True))
        date = "date ______________   museum plan ______________"
        dx = x + text_width(head, 3.6, bold=True) + 6.0
        items.append(
            Text(
                f"pad-date-{g}",
                dx,
                y + ASCENT * 3.6,
                date,
                fit_size(date, x + plan.width - dx, 2.6),
            )
        )
        # column positions
        x_init = x
        x_leg = x + s + LEFT_GAP
        x_inst = x_leg + s + BLOCK_GAP
        x_plus = x_inst + installations * s
        x_mus = x_plus + SIGN_W
        x_eq = x_mus + s
        x_tot = x_eq + SIGN_W / 1.5
        x_win = x_tot + s + BLOCK_GAP
        cap_y = y + HEAD_ROOM
        captions = [
            ("initials", x_init, "player"),
            ("legend", x_leg, "colour"),
            ("installation", x_inst, "values of completed installation cards"),
            ("museum", x_mus, "museum dice"),
            ("total", x_tot, "total"),
            ("winner", x_win, "won"),
        ]
        seconds = {
            "installation": "(face up and face down), one per box",
            "museum": "(tiebreak)",
        }
        limits = {
            "initials": s + LEFT_GAP,
            "legend": s + BLOCK_GAP,
            "installation": installations * s + SIGN_W - 1.0,
            "museum": s + SIGN_W / 1.5 - 1.0,
            "total": s + BLOCK_GAP,
            "winner": s + 1.0,
        }
        for area, cx, text in captions:
            size = fit_size(text, limits[area], CAPTION_SIZE)
            items.append(
                Text(
                    f"caption-{area}-{g}",
                    cx,
                    cap_y + ASCENT * CAPTION_SIZE,
                    text,
                    size,
                    layer=Layer.SCORE,
                )
            )
            if area in seconds:
                more = seconds[area]
                items.append(
                    Text(
                        f"caption2-{area}-{g}",
                        cx,
                        cap_y + CAPTION_LINE + ASCENT * CAPTION_SIZE,
                        more,
                        fit_size(more, limits[area], CAPTION_SIZE),
                        layer=Layer.SCORE,
                    )
                )
        top = cap_y + 2 * CAPTION_LINE
        for p in range(1, players + 1):
            n = (g - 1) * players + p
            ry = top + (p - 1) * (s + ROW_GAP)
            meta = {"pad": g, "player": p}

            def square(
                ident: str,
                bx: float,
                style: Style,
                area: str,
                ry: float = ry,
                meta: dict[str, int] = meta,
                **more: Any,
            ) -> None:
                items.append(
                    Feature(
                        ident,
                        Kind.BOX,
                        box(bx, ry, bx + s, ry + s),
                        style,
                        Layer.SCORE,
                        data={**meta, "area": area, **more},
                    )
                )

            square(f"box-initials-{n}", x_init, Style.BOX_HEAVY, "initials")
            square(f"box-legend-{n}", x_leg, Style.BOX_HEAVY, "legend")
            for k in range(1, installations + 1):
                square(
                    f"box-installation{n}-{k}",
                    x_inst + (k - 1) * s,
                    Style.BOX,
                    "installation",
                    index=k,
                )
            square(f"box-museum-{n}", x_mus, Style.BOX_HEAVY, "museum")
            square(f"box-total-{n}", x_tot, Style.BOX_HEAVY, "total")
            square(f"box-winner-{n}", x_win, Style.BOX, "winner")
            letter = min(2.6, 0.3 * s)
            items.append(
                Text(
                    f"letter-initials-{n}",
                    x_init + 0.8,
                    ry + 0.6 + ASCENT * letter,
                    "X",
                    letter,
                    bold=True,
                    layer=Layer.SCORE,
                )
            )
            items.append(
                Text(
                    f"letter-total-{n}",
                    x_tot + 0.8,
                    ry + 0.6 + ASCENT * letter,
                    "T",
                    letter,
                    bold=True,
                    layer=Layer.SCORE,
                )
            )
            mid = ry + s / 2 + 0.36 * 3.4
            items.append(
                Text(
                    f"sign-plus-{n}",
                    x_plus + SIGN_W / 2,
                    mid,
                    "+ 2 ×",
                    3.0,
                    "middle",
                    bold=True,
                    layer=Layer.SCORE,
                )
            )
            items.append(
                Text(
                    f"sign-equals-{n}",
                    x_eq + SIGN_W / 3,
                    mid,
                    "=",
                    3.4,
                    "middle",
                    bold=True,
                    layer=Layer.SCORE,
                )
            )
        rule = (
            "Tie: the tied player with more museum dice wins; the same number too: they share "
            "the win."
        )
        ny = top + players * s + (players - 1) * ROW_GAP + 1.2 + ASCENT * NOTE
        items.append(
            Text(f"pad-note-{g}", x, ny, rule, fit_size(rule, plan.width, NOTE), layer=Layer.SCORE)
        )
        return items


SCORE = CubistScoreLayout()


# --- the final-scoring transcript ---------------------------------------------------------------

INSTALLATION_CARDS = 23
"""Installation cards in the game: no more can be completed by all players together."""
MAX_VALUE = 99
"""A sanity bound on one installation's value (the cards show small numbers)."""
MAX_MUSEUM = 99


@dataclass(frozen=True)
class FinalFigures:
    """One player's final figures: the values of his installations and his museum dice."""

    installations: tuple[int, ...]
    museum: int

    @property
    def score(self) -> int:
        """Installation values plus two points per museum die."""
        return sum(self.installations) + 2 * self.museum


@dataclass(frozen=True)
class CubistScoreState:
    """The figures given so far, in player order."""

    figures: tuple[FinalFigures, ...] = ()


_WORD = re.compile(r"\S+")
INSTALLATION_WORDS = ("installations", "installation", "inst")
MUSEUM_WORDS = ("museum",)


def cubist_winners(figures: Sequence[FinalFigures]) -> list[int]:
    """The winners: the highest score, then the most museum dice; several share a full tie.

    Example:
        >>> a, b = FinalFigures((7, 5), 3), FinalFigures((9, 5), 1)
        >>> a.score, b.score, cubist_winners([a, b])
        (18, 16, [0])
    """
    if not figures:
        return []
    best = max((f.score, f.museum) for f in figures)
    return [k for k, f in enumerate(figures) if (f.score, f.museum) == best]


class CubistScoreRules(Rules[CubistScoreState, FinalFigures]):
    """Cubist's final scoring: each player's figures in turn; totals and the winner follow.

    A move is one player's final figures: ``installations 7 5 9 museum 3`` (the values of his
    completed installation cards, face up or down, and his dice in the museum), or
    ``installations none museum 2``. The parts may come in either order.
    """

    game = "cubist-score"
    notation = "'installations 7 5 9 museum 3' (or 'installations none museum 0')"

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        rows: int = sheet.spec.params.get("players", 4)
        if len(players) > rows:
            raise SpecError(f"the pad {sheet.spec} has rows for {rows} players, not {len(players)}")
        self.boxes: int = sheet.spec.params.get("installations", 8)

    def initial(self) -> CubistScoreState:
        return CubistScoreState()

    def to_move(self, state: CubistScoreState) -> int | None:
        done = len(state.figures)
        return done if done < len(self.players) else None

    def legal_moves(self, state: CubistScoreState) -> Iterator[FinalFigures]:
        if self.to_move(state) is None:
            return
        left = INSTALLATION_CARDS - sum(len(f.installations) for f in state.figures)
        for museum in range(MAX_MUSEUM + 1):
            yield FinalFigures((), museum)
            for count in range(1, min(left, self.boxes) + 1):
                for values in itertools.product(range(1, MAX_VALUE + 1), repeat=count):
                    yield FinalFigures(values, museum)

    def random_move(self, state: CubistScoreState, rng: Rng) -> FinalFigures:
        if self.to_move(state) is None:
            raise IllegalMove("game-over", "every player's figures are in")
        left = INSTALLATION_CARDS - sum(len(f.installations) for f in state.figures)
        count = rng.randint(0, min(6, left, self.boxes))
        values = tuple(rng.randint(1, 12) for _ in range(count))
        return FinalFigures(values, rng.randint(0, 8))

    def apply(self, state: CubistScoreState, move: FinalFigures) -> CubistScoreState:
        mover = self.to_move(state)
        if mover is None:
            raise IllegalMove("game-over", "the game is over: every player's figures are in")
        name = self.players[mover].name
        for value in move.installations:
            if not 1 <= value <= MAX_VALUE:
                raise IllegalMove(
                    "bad-value",
                    f"{name}'s installation value {value} is not a card value from 1 to "
                    f"{MAX_VALUE}",
                )
        if not 0 <= move.museum <= MAX_MUSEUM:
            raise IllegalMove("bad-museum", f"{name} cannot have {move.museum} museum dice")
        if len(move.installations) > self.boxes:
            raise IllegalMove(
                "too-many-boxes",
                f"{name} lists {len(move.installations)} installations but the pad has "
                f"{self.boxes} boxes: print it with installations={len(move.installations)}",
            )
        done = sum(len(f.installations) for f in state.figures) + len(move.installations)
        if done > INSTALLATION_CARDS:
            raise IllegalMove(
                "too-many-installations",
                f"the players list {done} completed installations, but the game has only "
                f"{INSTALLATION_CARDS} installation cards",
            )
        return CubistScoreState((*state.figures, move))

    def parse_move(self, text: str, state: CubistScoreState) -> FinalFigures:
        words = [(m.group(), m.start() + 1) for m in _WORD.finditer(text)]
        installations: list[int] | None = None
        museum: int | None = None
        current: str | None = None
        none_seen = False
        for word, column in words:
            low = word.lower().rstrip(":")
            if low in INSTALLATION_WORDS:
                if installations is not None:
                    raise MoveSyntaxError("'installations' is given twice", column)
                installations, current, none_seen = [], "installations", False
            elif low in MUSEUM_WORDS:
                if museum is not None or current == "museum":
                    raise MoveSyntaxError("'museum' is given twice", column)
                current = "museum"
            elif current == "installations" and low in ("none", "-"):
                assert installations is not None
                if installations or none_seen:
                    raise MoveSyntaxError("'none' cannot follow installation values", column)
                none_seen = True
            elif current is None:
                raise MoveSyntaxError(
                    f"'{word}': start with 'installations' or 'museum' ({self.notation})",
                    column,
                )
            elif not word.isdigit():
                raise MoveSyntaxError(f"'{word}' is not a whole number", column)
            elif current == "installations":
                assert installations is not None
                if none_seen:
                    raise MoveSyntaxError("'none' cannot be followed by values", column)
                installations.append(int(word))
            else:
                if museum is not None:
                    raise MoveSyntaxError("the museum takes one number, the dice count", column)
                museum = int(word)
        if installations is None:
            raise MoveSyntaxError(f"the installations are missing ({self.notation})", len(text) + 1)
        if not installations and not none_seen:
            raise MoveSyntaxError(
                "list the installation values, or write 'installations none'", len(text) + 1
            )
        if museum is None:
            raise MoveSyntaxError(
                f"the museum dice are missing: add 'museum N' ({self.notation})", len(text) + 1
            )
        return FinalFigures(tuple(installations), museum)

    def format_move(self, move: FinalFigures) -> str:
        values = " ".join(str(v) for v in move.installations) or "none"
        return f"installations {values} museum {move.museum}"

    def scores(self, state: CubistScoreState) -> tuple[int, ...]:
        return tuple(
            state.figures[p].score if p < len(state.figures) else 0
            for p in range(len(self.players))
        )

    def winners(self, state: CubistScoreState) -> list[int]:
        """The highest score; on a tie the most museum dice; still tied, a shared win."""
        if not self.is_over(state):
            return []
        return cubist_winners(state.figures)

    def claims(self, state: CubistScoreState) -> dict[str, tuple[int, ...]]:
        def per_player(value: Any) -> tuple[int, ...]:
            return tuple(
                value(state.figures[p]) if p < len(state.figures) else 0
                for p in range(len(self.players))
            )

        return {
            "installations": per_player(lambda f: sum(f.installations)),
            "cards": per_player(lambda f: len(f.installations)),
            "museum": per_player(lambda f: f.museum),
        }

    def describe(self, state: CubistScoreState) -> list[str]:
        lines = []
        for p, figures in enumerate(state.figures):
            values = " + ".join(str(v) for v in figures.installations) or "0"
            lines.append(
                f"{self.players[p].name}: installations {values} = {sum(figures.installations)}, "
                f"museum {figures.museum} × 2 = {2 * figures.museum}, total {figures.score}"
            )
        if self.is_over(state):
            top = max(f.score for f in state.figures)
            tied = [p for p, f in enumerate(state.figures) if f.score == top]
            won = cubist_winners(state.figures)
            names = ", ".join(self.players[p].name for p in won)
            if len(tied) > 1 and len(won) == 1:
                lines.append(f"tie at {top} points broken by museum dice: {names} wins")
            elif len(won) > 1:
                lines.append(f"tie at {top} points and equal museum dice: {names} share the win")
            if all(len(f.installations) < 5 for f in state.figures):
                lines.append(
                    "nobody completed five installations, so the game ended with the museum "
                    "finished"
                )
        return lines


RULES = CubistScoreRules


# --- installation legality ----------------------------------------------------------------------

INSTALLATION_KEYWORD = "installation"
PLAN_KEYWORD = "plan"
ANY = "*"
ROTATIONS = (0, 90, 180, 270)
PLAN_CODES = ("plan-mismatch", "bad-plan")
"""Problems about the plan, which do not make the installation itself illegal."""

Cell = tuple[int, int]
"""A cell of an installation grid: (row, column), 1-based, rows top to bottom as written."""


@dataclass(frozen=True)
class Stack:
    """A stack of dice in one cell, bottom to top; a plan's stack may hold ``None`` (any value)."""

    dice: tuple[int | None, ...]

    @property
    def height(self) -> int:
        return len(self.dice)


@dataclass(frozen=True)
class InstallationProblem:
    """One thing wrong with an installation text or structure.

    Attributes:
        code: a stable reason code: ``syntax``, ``empty``, ``mixed-stack``, ``same-value``,
            ``not-one-apart``, ``disconnected``; about the plan: ``bad-plan`` (the plan itself
            breaks a rule) and ``plan-mismatch``.
        message: a sentence naming the cells involved.
        cells: the cells involved, (row, column), 1-based.
        line: the text line the problem is on, when it is one line's fault.
    """

    code: str
    message: str
    cells: tuple[Cell, ...] = ()
    line: int = 0

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.message} [{self.code}]"


@dataclass(frozen=True)
class InstallationVerdict:
    """What :func:`check_installation` found.

    Attributes:
        name: the name after the keyword, if any.
        stacks: the installation's stacks by cell.
        problems: every problem found (syntax, the rules, and the plan), in text order.
        plan: the plan's stacks by cell, when a plan was given.
        rotation: the turn (degrees clockwise) under which the plan matches, or ``None``.
    """

    name: str
    stacks: Mapping[Cell, Stack]
    problems: tuple[InstallationProblem, ...]
    plan: Mapping[Cell, Stack] | None = None
    rotation: int | None = None

    @property
    def legal(self) -> bool:
        """The structure obeys the placement rules (a plan mismatch does not make it illegal)."""
        return not any(p.code not in PLAN_CODES for p in self.problems)

    @property
    def matches_plan(self) -> bool | None:
        """Whether the plan matches (``None`` without a plan)."""
        if self.plan is None:
            return None
        return self.rotation is not None

    @property
    def ok(self) -> bool:
        """Legal, and matching a sound plan when one is given: no problem at all."""
        return not self.problems

    @property
    def dice(self) -> int:
        return sum(s.height for s in self.stacks.values())

    def lines(self) -> list[str]:
        """A short report for people."""
        title = f"installation {self.name}" if self.name else "installation"
        head = "LEGAL" if self.legal else "ILLEGAL"
        out = [f"{title}: {head}, {self.dice} dice in {len(self.stacks)} stacks"]
        out += [f"  {p}" for p in self.problems]
        if self.plan is not None:
            if self.rotation is not None:
                out.append(f"  matches the plan turned {self.rotation} degrees clockwise")
            else:
                out.append("  does not match the plan under any turn (0, 90, 180, 270 degrees)")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "legal": self.legal,
            "ok": self.ok,
            "dice": self.dice,
            "stacks": {f"{r},{c}": list(s.dice) for (r, c), s in sorted(self.stacks.items())},
            "problems": [
                {
                    "code": p.code,
                    "message": p.message,
                    "cells": [list(c) for c in p.cells],
                    "line": p.line or None,
                }
                for p in self.problems
            ],
            "plan_matches": self.matches_plan,
            "rotation": self.rotation,
        }


def is_installation_text(text: str) -> bool:
    """Whether ``text`` is an installation description: its first real line is ``installation:``.

    Comments (``#``) and blank lines before it are skipped; a transcript starts with ``sheet:``.
    """
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            return line.lower().partition(":")[0].strip() == INSTALLATION_KEYWORD and ":" in line
    return False


def cell_text(cell: Cell) -> str:
    """A cell for people: ``row 2, column 3``."""
    return f"row {cell[0]}, column {cell[1]}"


def _parse_cell(
    token: str, line: int, cell: Cell, plan: bool, problems: list[InstallationProblem]
) -> Stack | None:
    """A cell's token: ``.`` (``None``), or its dice bottom to top (a plan also allows ``*``)."""
    if token == ".":
        return None
    allowed = "123456" + (ANY if plan else "")
    bad = [ch for ch in token if ch not in allowed]
    if bad:
        what = "1-6 or *" if plan else "1-6"
        problems.append(
            InstallationProblem(
                "syntax",
                f"'{token}' at {cell_text(cell)} is not a stack: write '.' for an empty cell or "
                f"the dice bottom to top, each a digit {what}",
                (cell,),
                line,
            )
        )
        return None
    return Stack(tuple(None if ch == ANY else int(ch) for ch in token))


def _parse_grid(
    rows: Sequence[tuple[int, str]], plan: bool, problems: list[InstallationProblem]
) -> dict[Cell, Stack]:
    stacks: dict[Cell, Stack] = {}
    for r, (line, body) in enumerate(rows, start=1):
        for c, token in enumerate(body.split(), start=1):
            stack = _parse_cell(token, line, (r, c), plan, problems)
            if stack is not None:
                stacks[(r, c)] = stack
    return stacks


NEIGHBOURS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def structure_problems(stacks: Mapping[Cell, Stack]) -> list[InstallationProblem]:
    """Every breach of the placement rules in a structure, in reading order.

    A stack holds one value; two stacks that share an edge touch at each height both reach,
    and there their dice must differ by exactly one; the stacks form one edge-connected group.

    Example:
        >>> s = {(1, 1): Stack((3, 3)), (1, 2): Stack((4,)), (2, 2): Stack((4,))}
        >>> [p.code for p in structure_problems(s)]
        ['same-value']
    """
    problems: list[InstallationProblem] = []
    if not stacks:
        return [InstallationProblem("empty", "the installation holds no dice")]
    for cell in sorted(stacks):
        dice = stacks[cell].dice
        if len({d for d in dice if d is not None}) > 1:
            shown = "".join("*" if d is None else str(d) for d in dice)
            problems.append(
                InstallationProblem(
                    "mixed-stack",
                    f"the stack {shown} at {cell_text(cell)} mixes numbers: only a die of the "
                    "same number goes on top of a die",
                    (cell,),
                )
            )
    for cell in sorted(stacks):
        for dr, dc in ((0, 1), (1, 0)):
            other = (cell[0] + dr, cell[1] + dc)
            if other not in stacks:
                continue
            a, b = stacks[cell].dice, stacks[other].dice
            for level in range(min(len(a), len(b))):
                va, vb = a[level], b[level]
                if va is None or vb is None or abs(va - vb) == 1:
                    continue
                code = "same-value" if va == vb else "not-one-apart"
                problems.append(
                    InstallationProblem(
                        code,
                        f"at height {level + 1}, the {va} at {cell_text(cell)} touches the {vb} "
                        f"at {cell_text(other)}: dice side by side must differ by exactly one",
                        (cell, other),
                    )
                )
    groups = _groups(stacks)
    if len(groups) > 1:
        sizes = ", ".join(
            f"{len(g)} stack{'s' if len(g) > 1 else ''} from {cell_text(min(g))}" for g in groups
        )
        problems.append(
            InstallationProblem(
                "disconnected",
                f"the installation falls apart into {len(groups)} pieces ({sizes}): every die "
                "must join the others face to face, never only at a corner",
                tuple(min(g) for g in groups),
            )
        )
    return problems


def _groups(stacks: Mapping[Cell, Stack]) -> list[list[Cell]]:
    """The edge-connected groups of cells, each sorted, in reading order of their first cell."""
    seen: set[Cell] = set()
    groups: list[list[Cell]] = []
    for start in sorted(stacks):
        if start in seen:
            continue
        seen.add(start)
        todo, group = [start], []
        while todo:
            cell = todo.pop()
            group.append(cell)
            for dr, dc in NEIGHBOURS:
                nxt = (cell[0] + dr, cell[1] + dc)
                if nxt in stacks and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        groups.append(sorted(group))
    return groups


def _normal(stacks: Mapping[Cell, Stack]) -> dict[Cell, Stack]:
    """The stacks moved so the smallest row and column are 1."""
    r0 = min(r for r, _ in stacks)
    c0 = min(c for _, c in stacks)
    return {(r - r0 + 1, c - c0 + 1): s for (r, c), s in stacks.items()}


def rotate(stacks: Mapping[Cell, Stack], degrees: int) -> dict[Cell, Stack]:
    """The stacks turned clockwise by 0, 90, 180 or 270 degrees, seen from above, normalised.

    Example:
        >>> sorted(rotate({(1, 1): Stack((1,)), (1, 2): Stack((2,))}, 90).items())
        [((1, 1), Stack(dice=(1,))), ((2, 1), Stack(dice=(2,)))]
    """
    if degrees not in ROTATIONS:
        raise ValueError(f"a turn is one of {ROTATIONS}, not {degrees}")
    out = dict(stacks)
    for _ in range(degrees // 90):
        out = {(c, -r): s for (r, c), s in out.items()}
    return _normal(out) if out else out


def _fits(plan: Stack, built: Stack) -> bool:
    return plan.height == built.height and all(
        p is None or p == b for p, b in zip(plan.dice, built.dice, strict=True)
    )


def plan_rotation(plan: Mapping[Cell, Stack], stacks: Mapping[Cell, Stack]) -> int | None:
    """The smallest clockwise turn under which ``plan`` matches ``stacks``, or ``None``.

    The footprints must coincide after the turn and a shift; every cell's height must be
    equal, and its value where the plan names one. Mirror images do not match.
    """
    if not plan or not stacks:
        return None
    built = _normal(stacks)
    for degrees in ROTATIONS:
        turned = rotate(plan, degrees)
        if turned.keys() == built.keys() and all(
            _fits(turned[cell], built[cell]) for cell in built
        ):
            return degrees
    return None


def check_installation(text: str) -> InstallationVerdict:
    """Read an installation (and optionally a plan) and list every problem with it.

    The text starts with an ``installation:`` line (comments and blank lines may come first);
    the grid's rows follow, one per line; an optional ``plan:`` line starts the plan's grid.
    See the module docstring for the format.

    Example:
        >>> v = check_installation("installation:\\n3 4 5\\n. 44 .\\n")
        >>> v.legal, [p.code for p in v.problems]
        (False, ['same-value'])
    """
    problems: list[InstallationProblem] = []
    name = ""
    section: str | None = None
    rows: dict[str, list[tuple[int, str]]] = {"installation": [], "plan": []}
    plan_given = False
    for number, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        head, sep, rest = body.partition(":")
        keyword = head.strip().lower()
        if sep and keyword == INSTALLATION_KEYWORD:
            if section is not None:
                problems.append(
                    InstallationProblem("syntax", "'installation:' is given twice", line=number)
                )
                continue
            section, name = "installation", rest.strip()
            continue
        if sep and keyword == PLAN_KEYWORD:
            if section is None or plan_given:
                why = "twice" if plan_given else "before 'installation:'"
                problems.append(
                    InstallationProblem("syntax", f"'plan:' is given {why}", line=number)
                )
                continue
            if rest.strip():
                problems.append(
                    InstallationProblem(
                        "syntax", "the plan's rows go on the lines after 'plan:'", line=number
                    )
                )
            section, plan_given = "plan", True
            continue
        if section is None:
            problems.append(
                InstallationProblem(
                    "syntax",
                    "an installation starts with a line 'installation:' (a name may follow)",
                    line=number,
                )
            )
            break
        rows[section].append((number, body))
    stacks = _parse_grid(rows["installation"], False, problems)
    plan = _parse_grid(rows["plan"], True, problems) if plan_given else None
    if section is not None:
        problems += structure_problems(stacks)
    rotation = None
    if plan is not None:
        if not plan:
            problems.append(InstallationProblem("syntax", "the plan holds no dice"))
        else:
            for p in structure_problems(plan):
                problems.append(
                    dataclasses.replace(p, code="bad-plan", message="in the plan: " + p.message)
                )
            rotation = plan_rotation(plan, stacks)
            if rotation is None and stacks:
                problems.append(
                    InstallationProblem(
                        "plan-mismatch",
                        "the installation does not match the plan, turned by 0, 90, 180 or "
                        "270 degrees: compare the footprint, each stack's height and the "
                        "numbers the plan names",
                    )
                )
    return InstallationVerdict(name, stacks, tuple(problems), plan, rotation)


class InstallationJudge:
    """The registry's judge for installation texts (see :class:`papergames.games.Judge`)."""

    def recognises(self, text: str) -> bool:
        return is_installation_text(text)

    def judge(self, text: str, source: str) -> InstallationVerdict:
        return check_installation(text)


INSTALLATION_JUDGE = InstallationJudge()
