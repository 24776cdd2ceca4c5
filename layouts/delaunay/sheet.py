"""Delaunay's sheet: the sections divided into spaces, the loss rows, typed parameters and data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from shapely.geometry import Polygon

from papergames.errors import FitError, SpecError
from papergames.fonts import ASCENT, DESCENT
from papergames.layouts.delaunay.cells import (
    COMPOSITIONS,
    FIELD_GAP,
    FLAT,
    REDIVIDE,
    ROW_GAP,
    SHORTEST,
    STROKE_PAD,
    Axes,
    Quality,
    _shared,
    _union,
    divide_section,
)
from papergames.layouts.delaunay.params import MIN_AREA, MIN_THICK, PARAMS, DelaunayParams
from papergames.layouts.delaunay.sections import _inner_lines, _rect, close_short_borders, compose
from papergames.play.example import Example
from papergames.sheets.compose import Frame
from papergames.sheets.labels import label_areas
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Feature, Item, Kind, Layer, Style, Text
from papergames.sheets.score import (
    BIG,
    CAPTION,
    LABEL,
    TALLY,
    colour_box,
    names_printed,
    printed_names,
    score_area,
    score_area_height,
)
from papergames.sheets.topology import border_contacts, is_shared_border

GAME_COLOURS = ("red", "blue", "yellow", "green")
"""The game's colours in seat order, as the rules name them: each has a colour box
``box-legend-<name>``, since every space is coloured in one of them whoever plays it."""
COLOUR_NOTE = ("3 players: leave", "green empty")
"""Under the colour boxes: three players play only red, blue and yellow."""
PANEL_GAP = 4.0
"""Distance in mm between the loss rows and the colour boxes beside them."""
GRID_GAP = 3.0
"""Distance in mm between two colour boxes side by side in the panel."""
LABEL_GAP = 0.6
"""Distance in mm between a colour's name and its box under it."""
CELL_GAP = 3.0
"""Distance in mm between a colour box and the next colour's name under it: wider than
:data:`LABEL_GAP`, so each name reads with the box it stands over."""
NOTE_GAP = 1.5
"""Distance in mm between the last colour boxes and the note under them."""
LEADING = 1.25
"""Line spacing of the note under the colour boxes, as a multiple of its type size."""
LOSS_MIN = 4.0
"""Smallest loss box in mm the colour boxes may make room by: a loss is a single stroke, and the
boxes stay above the 3.5 mm floor of :mod:`papergames.sheets.score`."""
LOSS_STEP = 0.05
"""Loss boxes are shrunk in steps of this many mm, so sizes stay round."""


class SectionData(TypedDict):
    """What a space or a dotted segment carries: the section (1..) it belongs to."""

    section: int


class PageData(TypedDict):
    """What the page tells the engine: each section's spaces, and which sections touch."""

    sections: list[list[str]]
    spaces_per_section: list[int]
    section_neighbours: list[list[int]]
    min_area: float


def _bad_contacts(cells: Sequence[Polygon]) -> set[int]:
    """Cells the shared topology would call next to a cell they share no visible border with.

    The rules engines read "next to" from :class:`papergames.sheets.topology.Topology`, which
    counts a corner where two borders meet at a very small angle as a shared border; such corners,
    and borders shorter than :data:`SHORTEST`, are found here so the division can be made again.
    """
    bad: set[int] = set()
    for i, j, near in border_contacts(cells):
        if is_shared_border(near) and cells[i].boundary.intersection(cells[j].boundary).length < (
            SHORTEST
        ):
            bad.update((i, j))
    return bad


def _joined(cells: Sequence[Polygon]) -> Polygon | None:
    """A section's outline, when its spaces, their corners joined on the grid, are each a valid
    space of a usable size and together one polygon; else ``None``. On rare seeds a snap pinches
    a section apart; the sheet then takes the next composition rather than fail (seen once in
    CI, for a seed the web page's form chose)."""
    placed = _union(cells)
    if not isinstance(placed, Polygon):
        return None
    usable = Quality(MIN_AREA, MIN_THICK)
    kept = all(isinstance(c, Polygon) and c.is_valid and usable.ok(c) for c in cells)
    return placed if kept else None


def divide_all(
    field: Polygon,
    shapes: Sequence[Polygon],
    axes: Sequence[Axes],
    counts: Sequence[int],
    ctx: BuildContext,
    attempt: int = 0,
) -> tuple[list[list[Polygon]], bool]:
    """Divide every section, then join near corners and shrink short borders to corners.

    A section whose spaces still meet a neighbour at an unseen border is divided again with a
    fresh stream, a bounded number of times; if one survives, it is left (a corner contact the
    eye reads correctly, though the shared topology may not).
    """
    divided: list[list[Polygon]] = []
    for m, (shape, ax, n) in enumerate(zip(shapes, axes, counts, strict=True), start=1):
        names: tuple[object, ...] = (m,) if attempt == 0 else (m, "c", attempt)
        divided.append(
            sorted(divide_section(shape, ax, n, ctx.rng("section", *names)), key=_reading_key)
        )
    for again in range(REDIVIDE + 1):
        owner = [m for m, cells in enumerate(divided) for _ in cells]
        flat = close_short_borders([c for cells in divided for c in cells], owner, field, SHORTEST)
        bad = {owner[i] for i in _bad_contacts(flat)}
        if not bad or again == REDIVIDE:
            break
        for m in sorted(bad):
            names = (m + 1, again) if attempt == 0 else (m + 1, again, "c", attempt)
            cells = divide_section(shapes[m], axes[m], counts[m], ctx.rng("section", *names))
            divided[m] = sorted(cells, key=_reading_key)
    out: list[list[Polygon]] = []
    for n in counts:
        out.append(flat[:n])
        flat = flat[n:]
    return out, not bad


def _line() -> float:
    """Height in mm of one line of label."""
    return (ASCENT + DESCENT) * LABEL


def _panel_boxes(kind: str) -> list[tuple[float, float]]:
    """The top-left corner of each colour box, from the panel's top-left corner.

    Each name stands over its box, like every caption on the sheet; the first row's names take
    the caption line that the loss rows' captions take, so the boxes line up with the rows' X
    boxes.
    """
    per_row = 2 if kind == "grid" else 4
    gap = GRID_GAP if kind == "grid" else GRID_GAP + 1.0
    pitch = BIG + CELL_GAP + _line() + LABEL_GAP
    return [
        (c * (BIG + gap), CAPTION + 1.0 + r * pitch)
        for r, c in (divmod(k, per_row) for k in range(len(GAME_COLOURS)))
    ]


def _note_lines(kind: str) -> tuple[str, ...]:
    return COLOUR_NOTE if kind == "grid" else (" ".join(COLOUR_NOTE),)


def panel_size(kind: str) -> tuple[float, float]:
    """Width and height in mm of the colour boxes' panel.

    ``grid`` stands two by two beside the loss rows; ``strip`` is one row of four, under the
    rows when they are too few to stand the grid beside them, or under a column of rows. The
    note for three players goes under the boxes.
    """
    boxes = _panel_boxes(kind)
    width = max(x for x, _ in boxes) + BIG
    height = max(y for _, y in boxes) + BIG + NOTE_GAP
    return width, height + len(_note_lines(kind)) * LEADING * LABEL


@dataclass(frozen=True)
class Plan:
    """Where the field, the loss rows and the game's colour boxes go in the frame.

    The rows run across the foot of the field, or, when that leaves a larger field of fair
    shape (a turned page), stand in a column at its right end. Across the foot, the colour
    boxes stand beside the rows (the loss boxes a little smaller if that keeps the rows as tall
    as they would be alone) or, when that costs the field more, in a strip under them; in a
    column they stand under the rows.

    Attributes:
        width, height: the field's size; it starts at the frame's top-left corner.
        rows_x, rows_y, rows_w: where the loss rows start and how wide they are.
        tally: side of a loss box.
        panel: ``grid`` or ``strip`` (see :func:`panel_size`); ``panel_x``, ``panel_y``: its
            top-left corner.
    """

    width: float
    height: float
    rows_x: float
    rows_y: float
    rows_w: float
    tally: float = TALLY
    panel: str = "grid"
    panel_x: float = 0.0
    panel_y: float = 0.0

    @property
    def area(self) -> float:
        return self.width * self.height if self.fair else 0.0

    @property
    def fair(self) -> bool:
        """Whether the field is no flatter than :data:`FLAT` either way."""
        return min(self.width, self.height) >= FLAT * max(self.width, self.height)


def _block(rows: int, losses: int, width: float, tally: float = TALLY) -> float:
    height = score_area_height(losses, width, tally, legend=False)
    return rows * height + (rows - 1) * ROW_GAP


def _beside_tally(rows: int, losses: int, full: float, width: float) -> float:
    """The largest loss box (at most :data:`TALLY`) that keeps rows ``width`` mm wide as tall as
    ``full`` mm; :data:`TALLY` when none of :data:`LOSS_MIN` or more does."""
    size = TALLY
    while size >= LOSS_MIN - 1e-9:
        if _block(rows, losses, width, size) <= full + 1e-9:
            return size
        size = round(size - LOSS_STEP, 2)
    return TALLY


def plan_field(frame: Frame, rows: int, losses: int) -> Plan:
    """The larger fair field: loss rows and colour boxes under it or beside it."""
    inner = frame.inset(STROKE_PAD)
    full = _block(rows, losses, inner.w)
    grid_w, grid_h = panel_size("grid")
    strip_w, strip_h = panel_size("strip")
    rows_w = inner.w - grid_w - PANEL_GAP
    tally = _beside_tally(rows, losses, full, rows_w)
    block = max(_block(rows, losses, rows_w, tally), grid_h)
    height = inner.h - block - FIELD_GAP
    top = inner.y + height + FIELD_GAP
    best = Plan(
        inner.w, height, inner.x, top, rows_w, tally, "grid", inner.x + rows_w + PANEL_GAP, top
    )
    under = inner.h - (full + ROW_GAP + strip_h) - FIELD_GAP
    if under > height + 1e-6:
        top = inner.y + under + FIELD_GAP
        panel_y = top + full + ROW_GAP
        best = Plan(
            inner.w, under, inner.x, top, inner.w, TALLY, "strip", inner.right - strip_w, panel_y
        )
    for column in range(60, int(inner.w * 0.45) + 1, 5):
        rows_h = _block(rows, losses, column)
        if rows_h + ROW_GAP + strip_h <= inner.h:
            width = inner.w - column - FIELD_GAP
            x = inner.x + width + FIELD_GAP
            panel_x = x + column - strip_w
            side = Plan(
                width,
                inner.h,
                x,
                inner.y,
                column,
                TALLY,
                "strip",
                panel_x,
                inner.y + rows_h + ROW_GAP,
            )
            if side.area > best.area + 1e-6:
                best = side
            break
    return best


def colour_panel(kind: str, x: float, y: float) -> list[Item]:
    """The four game colours' boxes, each named over it, and the note for three players.

    Ids ``box-legend-<colour>`` (data ``{"area": "legend", "colour": <colour>}``), texts
    ``caption-legend-<colour>`` and ``note-colours-<k>``.
    """
    items: list[Item] = []
    for name, (dx, dy) in zip(GAME_COLOURS, _panel_boxes(kind), strict=True):
        bx, by = x + dx, y + dy
        items.append(colour_box(name, bx, by))
        base = by - LABEL_GAP - DESCENT * LABEL
        items.append(
            Text(
                f"caption-legend-{name}",
                bx + BIG / 2,
                base,
                name,
                LABEL,
                "middle",
                layer=Layer.SCORE,
            )
        )
    _, height = panel_size(kind)
    lines = _note_lines(kind)
    base = y + height - (len(lines) - 1) * LEADING * LABEL - DESCENT * LABEL
    for k, line in enumerate(lines, start=1):
        items.append(Text(f"note-colours-{k}", x, base, line, LABEL, layer=Layer.SCORE))
        base += LEADING * LABEL
    return items


def _reading_key(shape: Polygon) -> tuple[float, float]:
    p = shape.representative_point()
    return round(p.y, 6), round(p.x, 6)


def loss_rows(
    rows: int, losses: int, x: float, y: float, width: float, tally: float = TALLY
) -> tuple[list[Item], float]:
    """The loss rows: an X box, ``losses`` boxes and a total box each.

    A row has no colour box of its own: the rules fix which colours each row plays (by seat),
    two players and four players' teams play two colours in a row, and the game's colour boxes
    already give the reader each pencil, so a row's box would be ambiguous and a second sample
    of a pencil the reader must then tell apart from itself.
    """
    items: list[Item] = []
    top = y
    for p in range(1, rows + 1):
        area = score_area(
            p,
            x,
            top,
            width,
            losses,
            label=f"row {p}",
            total_caption="lost",
            tally_size=tally,
            legend=False,
        )
        for item in area.items:
            if isinstance(item, Feature) and item.id.startswith("box-tally"):
                data = dict(item.data)
                data["area"] = "loss"
                items.append(
                    Feature(
                        item.id.replace("box-tally", "box-loss"),
                        item.kind,
                        item.geometry,
                        item.style,
                        item.layer,
                        data=data,
                    )
                )
            elif isinstance(item, Text) and item.id.startswith("caption-tally"):
                items.append(
                    Text(
                        item.id.replace("caption-tally", "caption-loss"),
                        item.x,
                        item.y,
                        "points lost",
                        item.size,
                        layer=item.layer,
                    )
                )
            else:
                items.append(item)
        top += area.height + ROW_GAP
    return items, top - ROW_GAP - y


EXAMPLE = Example(
    transcript="""\
sheet: delaunay seed=1
players: Ann (red), Bob (blue), Cy (yellow)
Ann: space-132
Bob: space-129
Cy: space-127
Ann: loss
claim: Ann score 1
claim: Bob score 0
claim: Cy score 0
""",
    text="""\
The small numbers give the order of play; Ann's space is hatched, Bob's grey, Cy's \
cross-hatched. Ann opens the middle section with a small space. Bob and Cy colour spaces next \
to coloured ones. Every empty space next to a coloured one now touches Ann's space, so Ann \
cannot move. Ann marks off a box: Ann has lost 1 point.""",
)


class DelaunayLayout(Layout):
    """Delaunay: an Orphist field of sections cut into spaces, with rows of loss boxes."""

    name = "delaunay"
    param_shape = DelaunayParams
    how_to_play = """\
Setup: Two to four players each take a pencil of their own colour. Each writes their initials in \
the X box of a loss row and colours the box beside it. With four players, partners sit \
opposite each other and share one row. Heavy lines cut the field into sections. Dotted lines \
cut each section into spaces.

Play: The first player colours any space of any section. Play stays in that section until it \
is complete. On your turn, colour an empty space next to a coloured space in this section. \
Next to means sharing a stretch of border. You may never colour a space next to one of your \
own colour. If you cannot colour a space, mark off one box of your row: you lose a point.

Completing a section: A section is complete when nobody can colour any more of it. Then every \
other player marks off a box, and spaces left empty stay empty. The player who coloured the \
last space opens a new section of their choice, colouring any space in it, and play goes on \
there.

Borders: A space next to a completed section may not touch a space of the same colour in that \
section.

End: The game ends when all sections are complete. The player or team with the fewest points \
lost wins. Two players each use two colours and may play either one on a turn. Three players \
each play alone.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """min_spaces may not exceed max_spaces."""
        typed = PARAMS.read(DelaunayParams, params)
        if typed.min_spaces > typed.max_spaces:
            raise SpecError(
                f"min_spaces={typed.min_spaces} is larger than "
                f"max_spaces={typed.max_spaces}: min_spaces must not exceed max_spaces"
            )

    def field_area(self, ctx: BuildContext) -> float:
        """The field's area from the plan alone: dividing the sections is the costly part.

        Raises:
            FitError: when the loss rows leave no field of fair shape.
        """
        return self._plan(ctx).area

    def _plan(self, ctx: BuildContext) -> Plan:
        params = PARAMS.read(DelaunayParams, ctx.params)
        plan = plan_field(ctx.frame, params.rows, params.losses)
        if not plan.fair:
            raise FitError(
                f"rows={params.rows} with losses={params.losses} leave too little room for the "
                "field on this paper: lower losses or rows, or use larger paper"
            )
        return plan

    def build(self, ctx: BuildContext) -> list[PageBody]:
        """The sheet; with four named players, each team's row carries both partners' names."""
        names = printed_names()
        if len(names) != 4:
            return self._build(ctx)
        with names_printed((f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}")):
            return self._build(ctx)

    def _build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(DelaunayParams, ctx.params)
        count, rows, losses = params.sections, params.rows, params.losses
        frame = ctx.frame.inset(STROKE_PAD)
        plan = self._plan(ctx)
        width, height = plan.width, plan.height
        low, high = params.min_spaces, params.max_spaces
        counts_rng = ctx.rng("counts")
        counts = [counts_rng.randint(low, high) for _ in range(count)]
        field = _rect(frame.x, frame.y, width, height)
        divided: list[list[Polygon]] | None = None
        outlines: list[Polygon] = []
        for attempt in range(COMPOSITIONS):
            names: tuple[object, ...] = ("sections",) if attempt == 0 else ("sections", attempt)
            comp = compose(frame.x, frame.y, width, height, count, ctx.rng(*names))
            order = sorted(range(count), key=lambda i: _reading_key(comp.sections[i]))
            tried, clean = divide_all(
                field,
                [comp.sections[i] for i in order],
                [comp.axes[i] for i in order],
                counts,
                ctx,
                attempt,
            )
            joined = [_joined(cells) for cells in tried]
            if None in joined:
                continue
            divided, outlines = tried, [j for j in joined if j is not None]
            if clean:
                break
        if divided is None:  # pragma: no cover - never seen: every composition lost a section
            raise AssertionError("every composition lost a section's shape when joined")
        items: list[Item] = []
        sections: list[list[str]] = []
        per_section: list[int] = []
        section_shapes: list[Polygon] = []
        space_no = 0
        segment_no = 0
        for m, cells in enumerate(divided, start=1):
            n = len(cells)
            placed = outlines[m - 1]
            section_shapes.append(placed)
            ids = []
            for cell in cells:
                space_no += 1
                ids.append(f"space-{space_no}")
                items.append(
                    Feature(
                        f"space-{space_no}",
                        Kind.SPACE,
                        cell,
                        group=f"section-{m}",
                        data=SectionData(section=m),
                    )
                )
            for line in _inner_lines(cells, placed.boundary):
                segment_no += 1
                items.append(
                    Feature(
                        f"segment-{segment_no}",
                        Kind.SEGMENT,
                        line,
                        Style.DOTTED,
                        group=f"section-{m}",
                        data=SectionData(section=m),
                    )
                )
            sections.append(ids)
            per_section.append(n)
        items.append(Feature("line-1", Kind.LINE, field.exterior, Style.HEAVY, data={}))
        neighbours: set[tuple[int, int]] = set()
        for a in range(count):
            for b in range(a + 1, count):
                if _shared(section_shapes[a], section_shapes[b]) > 1e-3:
                    neighbours.add((a + 1, b + 1))
        for k, line in enumerate(_inner_lines(section_shapes, field.boundary), start=2):
            mid = line.buffer(1e-5)
            along = [
                m
                for m, s in enumerate(section_shapes, start=1)
                if s.boundary.intersection(mid).length > 0.01
            ]
            items.append(
                Feature(f"line-{k}", Kind.LINE, line, Style.HEAVY, data={"sections": along})
            )
        rows_items, _ = loss_rows(rows, losses, plan.rows_x, plan.rows_y, plan.rows_w, plan.tally)
        items.extend(rows_items)
        items.extend(colour_panel(plan.panel, plan.panel_x, plan.panel_y))
        subtitle = "Spaces per section: " + ", ".join(str(n) for n in per_section)
        if ctx.spec.labels:
            items.extend(label_areas(items, (Kind.SPACE,)))
        return [
            PageBody(
                items,
                subtitle,
                field,
                dict(
                    PageData(
                        sections=sections,
                        spaces_per_section=per_section,
                        section_neighbours=[list(p) for p in sorted(neighbours)],
                        min_area=MIN_AREA,
                    )
                ),
            )
        ]


LAYOUT = DelaunayLayout()
