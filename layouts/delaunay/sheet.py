"""Delaunay's sheet: the sections divided into spaces, the loss rows, typed parameters and data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from shapely.geometry import Polygon

from papergames.compose import Frame
from papergames.errors import FitError, SpecError
from papergames.layout import BuildContext, Layout, PageBody
from papergames.layouts.delaunay.cells import (
    COMPOSITIONS,
    FIELD_GAP,
    FLAT,
    MIN_AREA,
    MIN_THICK,
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
from papergames.layouts.delaunay.sections import _inner_lines, _rect, close_short_borders, compose
from papergames.model import Feature, Item, Kind, Style, Text
from papergames.params import Param, ParamSet
from papergames.score import score_area, score_area_height
from papergames.topology import border_contacts, is_shared_border


@dataclass(frozen=True)
class DelaunayParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    sections: int
    min_spaces: int
    max_spaces: int
    rows: int
    losses: int


PARAMS = ParamSet(
    [
        Param.int("sections", 9, 1, 12, "number of sections (fewer for a short game)"),
        Param.int("min_spaces", 19, 2, 30, "fewest spaces in a section"),
        Param.int("max_spaces", 24, 2, 30, "most spaces in a section"),
        Param.int("rows", 3, 1, 4, "rows of loss boxes (one per player or team)"),
        Param.int("losses", 64, 0, 150, "loss boxes in each row"),
    ]
)


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

    The rules engines read "next to" from :class:`papergames.topology.Topology`, which counts a
    corner where two borders meet at a very small angle as a shared border; such corners, and
    borders shorter than :data:`SHORTEST`, are found here so the division can be made again.
    """
    bad: set[int] = set()
    for i, j, near in border_contacts(cells):
        if is_shared_border(near) and cells[i].boundary.intersection(cells[j].boundary).length < (
            SHORTEST
        ):
            bad.update((i, j))
    return bad


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


@dataclass(frozen=True)
class Plan:
    """Where the field and the loss rows go in the frame.

    The rows run across the foot of the field, or, when that leaves a larger field of fair
    shape (a turned page), stand in a column at its right end.
    """

    width: float
    height: float
    rows_x: float
    rows_y: float
    rows_w: float

    @property
    def area(self) -> float:
        return self.width * self.height if self.fair else 0.0

    @property
    def fair(self) -> bool:
        """Whether the field is no flatter than :data:`FLAT` either way."""
        return min(self.width, self.height) >= FLAT * max(self.width, self.height)


def _block(rows: int, losses: int, width: float) -> float:
    return rows * score_area_height(losses, width) + (rows - 1) * ROW_GAP


def plan_field(frame: Frame, rows: int, losses: int) -> Plan:
    """The larger fair field: loss rows under it or beside it."""
    inner = frame.inset(STROKE_PAD)
    height = inner.h - _block(rows, losses, inner.w) - FIELD_GAP
    best = Plan(inner.w, height, inner.x, inner.y + height + FIELD_GAP, inner.w)
    for column in range(60, int(inner.w * 0.45) + 1, 5):
        if _block(rows, losses, column) <= inner.h:
            width = inner.w - column - FIELD_GAP
            side = Plan(width, inner.h, inner.x + width + FIELD_GAP, inner.y, column)
            if side.area > best.area + 1e-6:
                best = side
            break
    return best


def _reading_key(shape: Polygon) -> tuple[float, float]:
    p = shape.representative_point()
    return round(p.y, 6), round(p.x, 6)


def loss_rows(rows: int, losses: int, x: float, y: float, width: float) -> tuple[list[Item], float]:
    """The loss rows: an X box, a colour box, ``losses`` boxes and a total box each."""
    items: list[Item] = []
    top = y
    for p in range(1, rows + 1):
        area = score_area(p, x, top, width, losses, label=f"row {p}", total_caption="lost")
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


class DelaunayLayout(Layout):
    """Delaunay: an Orphist field of sections cut into spaces, with rows of loss boxes."""

    name = "delaunay"
    params = PARAMS
    param_shape = DelaunayParams
    how_to_play = """\
Setup: two to four players, each with a pencil of his own colour. Each player writes his \
initials in the X box of a loss row and colours the box beside it; with four players the \
partners sit opposite each other and share one row. The field is cut by heavy lines into \
sections, and each section by dotted lines into spaces.

Play: the first player colours any space of any section. Play stays in that section until it \
is completed. In turn, each player colours an empty space next to (sharing a stretch of \
border with) a space already coloured in this section, but never next to a space of his own \
colour. A player who cannot colour a space marks off one box of his row: a point lost.

Completing a section: when the last space that anyone can colour is filled, the other players \
each mark off a box, and any spaces left empty stay empty. The player who coloured that last \
space opens a new section of his choice by colouring any space in it, and play goes on there.

Borders: a space that lies next to an already completed section may not be next to a space of \
the same colour in that section.

End: when all sections are completed, the player (or team) with the fewest points lost wins. \
Two players each use two colours and may play either on a turn; three play each for himself.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """min_spaces may not exceed max_spaces."""
        typed = PARAMS.read(DelaunayParams, params)
        if typed.min_spaces > typed.max_spaces:
            raise SpecError(
                f"min_spaces={typed.min_spaces} is larger than "
                f"max_spaces={typed.max_spaces}: min_spaces must not exceed max_spaces"
            )

    def notes(self) -> list[str]:
        return [
            f"every space is at least {MIN_AREA:.0f} mm^2 and {MIN_THICK} mm thick; very many "
            "sections with many spaces each are refused on small paper",
            "losses=64 fills two lines of boxes across an A4 or Letter page; the book does not "
            "give the number, and with four players a team's two partners share one row",
        ]

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
        params = PARAMS.read(DelaunayParams, ctx.params)
        count, rows, losses = params.sections, params.rows, params.losses
        frame = ctx.frame.inset(STROKE_PAD)
        plan = self._plan(ctx)
        width, height = plan.width, plan.height
        low, high = params.min_spaces, params.max_spaces
        counts_rng = ctx.rng("counts")
        counts = [counts_rng.randint(low, high) for _ in range(count)]
        field = _rect(frame.x, frame.y, width, height)
        for attempt in range(COMPOSITIONS):
            names: tuple[object, ...] = ("sections",) if attempt == 0 else ("sections", attempt)
            comp = compose(frame.x, frame.y, width, height, count, ctx.rng(*names))
            order = sorted(range(count), key=lambda i: _reading_key(comp.sections[i]))
            divided, clean = divide_all(
                field,
                [comp.sections[i] for i in order],
                [comp.axes[i] for i in order],
                counts,
                ctx,
                attempt,
            )
            if clean:
                break
        items: list[Item] = []
        sections: list[list[str]] = []
        per_section: list[int] = []
        section_shapes: list[Polygon] = []
        space_no = 0
        segment_no = 0
        for m, cells in enumerate(divided, start=1):
            n = len(cells)
            placed = _union(cells)
            if not isinstance(placed, Polygon) or not all(
                isinstance(c, Polygon) and c.is_valid and Quality(MIN_AREA, MIN_THICK).ok(c)
                for c in cells
            ):  # pragma: no cover - the division and the snap keep these
                raise AssertionError(f"section {m} lost its shape when its corners were joined")
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
        rows_items, _ = loss_rows(rows, losses, plan.rows_x, plan.rows_y, plan.rows_w)
        items.extend(rows_items)
        subtitle = "Spaces per section: " + ", ".join(str(n) for n in per_section)
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
