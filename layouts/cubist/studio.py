"""Cubist's studio board: a player's workrooms, storeroom and storage at true scale."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString, MultiPolygon, Polygon, box
from shapely.ops import unary_union

from papergames.errors import FitError, SpecError
from papergames.fonts import ASCENT, DESCENT, text_width, wrap_text
from papergames.layouts.cubist.common import (
    CAPTION,
    CAPTION_ROOM,
    COLOURS,
    COLUMN_MIN,
    GAP,
    HEAVY_HALF,
    LEADING,
    NAME_SIZE,
    NOTE,
    NOTE_LINE,
    PAD,
    SUMMARY_SIZES,
    _line,
    _ring,
    fit_size,
)
from papergames.layouts.cubist.params import DIE, MAX_BOARDS, STUDIO_PARAMS, StudioParams
from papergames.sheets.compose import Frame
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Feature, Item, Kind, Layer, Style, Text, shifted

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


def board_titles(params: StudioParams) -> list[str]:
    """The title of every board: the names given, or else the colours in turn."""
    if params.names:
        return list(params.names)
    return [COLOURS[k % len(COLOURS)] for k in range(params.players)]


class CubistStudioLayout(Layout):
    """A studio board per player at true scale for 14 mm dice, with the turn summary."""

    name = "cubist-studio"
    param_shape = StudioParams
    how_to_play = """\
Cubist, by Steven Poelzing and Alf Seegert (2013), is a published dice game for 2 to 4 \
players. This board is a play aid for owners of the game: play with its own dice and cards. \
Print it at actual size, 100 %, without "fit to page". The 5 cm bar in the footer must then \
measure 5 cm, and each cell holds one 14 mm die.

On your turn: Roll two dice into the storeroom. Put dice from the storeroom in your workrooms, \
on artist cards or in the storage space. At any moment you may use an artist card loaded on an \
earlier turn. You may also complete or give up an installation. Move dice from completed \
installation cards; this is the only way into the museum. Finally keep at most two dice in the \
storage space and return the rest to your supply.

Workrooms: A die goes on top of a die with the same number. A die one number apart goes beside \
it, touching face to face, never corner to corner. Every die it touches must fit these rules.

End: The game ends after the turn in which a player holds five completed installations, or the \
museum is finished. Then add up the scores on the final scoring pad.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """Names, when given, fix the number of boards; more than four are refused."""
        typed = STUDIO_PARAMS.read(StudioParams, params)
        names = typed.names
        if len(names) > MAX_BOARDS:
            raise SpecError(f"names lists {len(names)} players, but Cubist has at most 4")
        if names and typed.players not in (1, len(names)):
            raise SpecError(
                f"players={typed.players} but names lists {len(names)}: give one or the "
                "other, or make them agree"
            )

    def build(self, ctx: BuildContext) -> list[PageBody]:
        titles = board_titles(STUDIO_PARAMS.read(StudioParams, ctx.params))
        bodies = []
        for k, name in enumerate(titles, start=1):
            bodies.append(self.board(ctx, name, k, len(titles)))
        return bodies

    def board(self, ctx: BuildContext, name: str, number: int, boards: int) -> PageBody:
        """One studio board, centred in the frame: name, workrooms, storeroom, summary."""
        params = STUDIO_PARAMS.read(StudioParams, ctx.params)
        plan = plan_studio(ctx.frame, params)
        parts = _Parts()
        bx0, by0, bx1, by1 = plan.outline
        y = by0 + PAD
        baseline = y + ASCENT * NAME_SIZE
        parts.items.append(Text("name", plan.left, baseline, name, NAME_SIZE, bold=True))
        note = "studio board · 14 mm dice · print at actual size"
        parts.items.append(Text("name-note", bx1 - PAD, baseline, note, NOTE, "end"))
        rooms_top = y + plan.name_h
        x_rooms = plan.left if plan.in_column else plan.left + (plan.content_w - plan.rooms_w) / 2
        for w in (1, 2):
            if plan.side_by_side:
                corner = (x_rooms + (w - 1) * (plan.room_w + GAP), rooms_top)
            else:
                corner = (x_rooms, rooms_top + (w - 1) * (CAPTION_ROOM + plan.room_h + GAP))
            draw_workroom(parts, plan, w, corner)
        summary_top = draw_store(parts, plan, rooms_top)
        parts.items += [shifted(item, 0.0, summary_top) for item in plan.summary.items]
        parts.lines.append(
            _line("", _ring(bx0, by0, bx1, by1), Style.MEDIUM, area="board", axis="outline")
        )
        numbered = [dataclasses.replace(f, id=f"line-{k}") for k, f in enumerate(parts.lines, 1)]
        tiled = unary_union([s.geometry for s in parts.spaces])
        data: dict[str, Any] = {
            "player": name,
            "board": number,
            "boards": boards,
            "rows": plan.rows,
            "cols": plan.cols,
            "cell": plan.cell,
            "die": DIE,
            "layout": "side-by-side" if plan.side_by_side else "stacked",
            "store": "column" if plan.in_column else "row",
            "tiled": tiled if isinstance(tiled, MultiPolygon) else MultiPolygon([tiled]),
        }
        subtitle = f"Studio of {name}" if params.names else f"Studio board - {name}"
        field = box(bx0, by0, bx1, by1)
        return PageBody([*parts.spaces, *numbered, *parts.items], subtitle, field, data)


@dataclass(frozen=True)
class StudioPlan:
    """Where a studio board's parts go, decided once from the grid and the frame.

    The two workrooms sit side by side when the paper is wide enough, else one above the other;
    stacked workrooms leave room at their right, where the storeroom and storage go when they
    fit (``in_column``), so tall grids still leave room for the summary.
    """

    rows: int
    cols: int
    cell: float
    side_by_side: bool
    in_column: bool
    left: float
    content_w: float
    name_h: float
    summary: _Text
    outline: tuple[float, float, float, float]

    @property
    def room_w(self) -> float:
        return self.cols * self.cell

    @property
    def room_h(self) -> float:
        return self.rows * self.cell

    @property
    def rooms_w(self) -> float:
        return 2 * self.room_w + GAP if self.side_by_side else self.room_w

    @property
    def rooms_h(self) -> float:
        if self.side_by_side:
            return CAPTION_ROOM + self.room_h
        return 2 * (CAPTION_ROOM + self.room_h) + GAP


def plan_studio(frame: Frame, params: StudioParams) -> StudioPlan:
    """Choose the arrangement and the summary's type size, or say why the board cannot fit."""
    rows, cols, cell = params.rows, params.cols, params.cell
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
    rooms_h = CAPTION_ROOM + room_h if side_by_side else 2 * (CAPTION_ROOM + room_h) + GAP
    store_h = CAPTION_ROOM + 2 * cell
    name_h = NAME_SIZE + 3.0
    column_w = inner_w - room_w - GAP
    column_h = 2 * CAPTION_ROOM + 3 * cell + GAP + NOTE_LINE
    in_column = not side_by_side and column_w >= max(2 * cell, COLUMN_MIN) and column_h <= rooms_h
    fixed = name_h + rooms_h + GAP + (0.0 if in_column else store_h + GAP)
    for size in SUMMARY_SIZES:
        summary = summary_block(frame.x + HEAVY_HALF + PAD, inner_w, size)
        if fixed + summary.height + 2 * (PAD + HEAVY_HALF) <= frame.h + 1e-9:
            break
    else:
        raise FitError(
            f"the studio board with rows={rows} cells of {cell:g} mm needs more height "
            f"than this paper leaves ({frame.h:.0f} mm): use fewer rows, a smaller cell, "
            "or portrait paper"
        )
    total_h = fixed + summary.height + 2 * (PAD + HEAVY_HALF)
    bx0 = frame.x + HEAVY_HALF
    by0 = frame.y + (frame.h - total_h) / 2 + HEAVY_HALF
    outline = (bx0, by0, frame.right - HEAVY_HALF, by0 + total_h - 2 * HEAVY_HALF)
    return StudioPlan(
        rows, cols, cell, side_by_side, in_column, bx0 + PAD, inner_w, name_h, summary, outline
    )


@dataclass
class _Parts:
    """A board's features as they are drawn: spaces, lines and the rest, each in order."""

    spaces: list[Feature] = dataclasses.field(default_factory=list)
    lines: list[Feature] = dataclasses.field(default_factory=list)
    items: list[Item] = dataclasses.field(default_factory=list)

    def add_space(self, geometry: Polygon, data: dict[str, Any]) -> None:
        space_id = f"space-{len(self.spaces) + 1}"
        self.spaces.append(
            Feature(space_id, Kind.SPACE, geometry, Style.NONE, Layer.FIELD, data=data)
        )


def draw_workroom(parts: _Parts, plan: StudioPlan, w: int, corner: tuple[float, float]) -> None:
    """Workroom ``w``: its caption, a space per cell, its outline and its grid lines."""
    rx, ry = corner
    cell = plan.cell
    caption = f"Workroom {w}"
    parts.items.append(
        Text(f"caption-workroom-{w}", rx, ry + ASCENT * CAPTION, caption, CAPTION, bold=True)
    )
    top = ry + CAPTION_ROOM
    for r in range(plan.rows):
        for c in range(plan.cols):
            square = box(rx + c * cell, top + r * cell, rx + (c + 1) * cell, top + (r + 1) * cell)
            parts.add_space(square, {"area": "workroom", "workroom": w, "row": r + 1, "col": c + 1})
    bottom, right = top + plan.room_h, rx + plan.room_w
    outline = _ring(rx, top, right, bottom)
    parts.lines.append(_line("", outline, Style.HEAVY, area="workroom", workroom=w, axis="outline"))
    for c in range(1, plan.cols):
        xc = rx + c * cell
        parts.lines.append(
            _line(
                "",
                [(xc, top), (xc, bottom)],
                Style.LIGHT,
                area="workroom",
                workroom=w,
                axis="vertical",
            )
        )
    for r in range(1, plan.rows):
        yr = top + r * cell
        parts.lines.append(
            _line(
                "",
                [(rx, yr), (right, yr)],
                Style.LIGHT,
                area="workroom",
                workroom=w,
                axis="horizontal",
            )
        )


def draw_store(parts: _Parts, plan: StudioPlan, rooms_top: float) -> float:
    """The storeroom and the storage space, in a row under the workrooms or a column beside.

    Returns:
        Where the summary's top goes.
    """
    cell, left, content_w = plan.cell, plan.left, plan.content_w
    storage_w = 2 * cell
    hint = "roll here; empty it at the end of your turn"
    below_rooms = rooms_top + plan.rooms_h + GAP
    if plan.in_column:
        store_x0 = left + plan.room_w + GAP
        store_x1 = left + content_w
        store_top = rooms_top + CAPTION_ROOM
        caption_at = (store_x0, rooms_top + ASCENT * CAPTION)
        hint_at = (store_x0, store_top + 2 * cell + 1.5 + ASCENT * NOTE)
        hint_w = content_w - plan.room_w - GAP
        caption_y = store_top + 2 * cell + NOTE_LINE + GAP
        sx0 = store_x0
        summary_top = below_rooms
    else:
        store_x0 = left
        caption_y = below_rooms
        store_top = below_rooms + CAPTION_ROOM
        sx0 = left + content_w - storage_w
        store_x1 = sx0 - GAP
        caption_at = (left, below_rooms + ASCENT * CAPTION)
        hint_x = left + text_width("Storeroom", CAPTION, bold=True) + 2.5
        hint_at = (hint_x, below_rooms + ASCENT * CAPTION)
        hint_w = store_x1 - hint_x
        summary_top = store_top + 2 * cell + GAP
    parts.items.append(Text("caption-storeroom", *caption_at, "Storeroom", CAPTION, bold=True))
    top = caption_y + CAPTION_ROOM
    sx1 = sx0 + storage_w
    parts.items.append(Text("note-storeroom", *hint_at, hint, fit_size(hint, hint_w, NOTE)))
    storage = "Storage space"
    parts.items.append(
        Text(
            "caption-storage",
            sx0,
            caption_y + ASCENT * CAPTION,
            storage,
            fit_size(storage, storage_w, CAPTION, bold=True),
            bold=True,
        )
    )
    keep = "keep 2 dice"
    keep_y = top + cell + 1.5 + ASCENT * NOTE
    parts.items.append(Text("note-storage", sx0, keep_y, keep, fit_size(keep, storage_w, NOTE)))
    for k in (1, 2):
        cx0 = sx0 + (k - 1) * cell
        parts.add_space(box(cx0, top, cx0 + cell, top + cell), {"area": "storage", "slot": k})
        inset = (cell - DIE) / 2
        die = box(cx0 + inset, top + inset, cx0 + inset + DIE, top + inset + DIE)
        parts.items.append(
            Feature(f"mark-die-{k}", Kind.MARK, die, Style.DOTTED, Layer.FIELD, data={"side": DIE})
        )
    parts.add_space(box(store_x0, store_top, store_x1, store_top + 2 * cell), {"area": "storeroom"})
    parts.lines.append(
        _line("", _ring(sx0, top, sx1, top + cell), Style.HEAVY, area="storage", axis="outline")
    )
    divider = [(sx0 + cell, top), (sx0 + cell, top + cell)]
    parts.lines.append(_line("", divider, Style.LIGHT, area="storage", axis="vertical"))
    store_ring = _ring(store_x0, store_top, store_x1, store_top + 2 * cell)
    parts.lines.append(_line("", store_ring, Style.DASHED, area="storeroom", axis="outline"))
    return summary_top


STUDIO = CubistStudioLayout()
