"""Springer's sheet: the field, its triangles and score rows, and the feature data."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from shapely.geometry import LineString, Polygon, box

from papergames.errors import FitError, SpecError
from papergames.layouts.springer.edges import _down, base_touches, inner_lines, place_triangles
from papergames.layouts.springer.mesh import (
    ASPECT,
    BEND_SHARE,
    COLUMN_GAP,
    DEPTH,
    EDGE_LABEL_SIZE,
    EDGES,
    FIELD_GAP,
    LINE_GAP,
    MAX_CELL,
    SCORE_W,
    STROKE_PAD,
    TALLY_BOX,
    VALUE_SIZE,
    Mesh,
    Point2,
    bend,
    build_mesh,
    vary,
)
from papergames.layouts.springer.params import MIN_CELL, PARAMS, SpringerParams
from papergames.play.example import Example
from papergames.sheets.compose import Frame
from papergames.sheets.labels import label_areas
from papergames.sheets.labels import number as id_number
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Feature, Item, Kind, Layer, Style, Text
from papergames.sheets.score import score_area, score_area_height


@dataclass(frozen=True)
class Plan:
    """The placement on one page.

    Attributes:
        x0, y0: top-left corner of the field.
        width, height: the field's size.
        rows: top-left corners of the players' score rows.
    """

    x0: float
    y0: float
    width: float
    height: float
    rows: tuple[Point2, ...]


def _cells(aw: float, ah: float, columns: int, rows: int) -> tuple[float, float]:
    """Mean cell width and height for a field block of ``aw`` x ``ah`` mm (triangles included)."""
    cw = min(MAX_CELL, (aw - 2 * (DEPTH + STROKE_PAD)) / columns)
    ch = min(MAX_CELL, (ah - 2 * (DEPTH + STROKE_PAD)) / rows)
    cw, ch = min(cw, ASPECT * ch), min(ch, ASPECT * cw)
    return cw, ch


def plan_page(frame: Frame, columns: int, rows: int, players: int) -> Plan:
    """Make the field as large as the frame allows, with the score rows under or beside it.

    Raises:
        FitError: when the cells would be smaller than :data:`MIN_CELL`.
    """
    row_h = score_area_height(4, SCORE_W, TALLY_BOX)
    best: tuple[float, Plan] | None = None
    smallest = 0.0
    for under in (True, False):
        if under:
            cols = max(1, min(players, int((frame.w + COLUMN_GAP) // (SCORE_W + COLUMN_GAP))))
            lines = math.ceil(players / cols)
            block_w = cols * SCORE_W + (cols - 1) * COLUMN_GAP
            block_h = lines * row_h + (lines - 1) * LINE_GAP
            aw, ah = frame.w, frame.h - block_h - FIELD_GAP
        else:
            cols, lines = 1, players
            block_w, block_h = SCORE_W, players * row_h + (players - 1) * LINE_GAP
            aw, ah = frame.w - block_w - FIELD_GAP, frame.h
        if block_w > frame.w or block_h > frame.h:
            continue
        cw, ch = _cells(aw, ah, columns, rows)
        smallest = max(smallest, min(cw, ch))
        if min(cw, ch) < MIN_CELL:
            continue
        width, height = columns * cw, rows * ch
        outer_w, outer_h = width + 2 * DEPTH, height + 2 * DEPTH
        if under:
            top = frame.y + (frame.h - outer_h - FIELD_GAP - block_h) / 2
            x0 = frame.x + (frame.w - width) / 2
            y0 = top + DEPTH
            bx = frame.x + (frame.w - block_w) / 2
            by = top + outer_h + FIELD_GAP
        else:
            left = frame.x + (frame.w - outer_w - FIELD_GAP - block_w) / 2
            x0 = left + DEPTH
            y0 = frame.y + (frame.h - height) / 2
            bx = left + outer_w + FIELD_GAP
            by = frame.y + (frame.h - block_h) / 2
        corners = []
        for p in range(players):
            line, place = divmod(p, cols)
            in_line = min(cols, players - line * cols)
            # A short last line is centred under the full ones.
            shift = (cols - in_line) * (SCORE_W + COLUMN_GAP) / 2
            corners.append(
                (bx + shift + place * (SCORE_W + COLUMN_GAP), by + line * (row_h + LINE_GAP))
            )
        plan = Plan(x0, y0, width, height, tuple(corners))
        area = width * height
        if best is None or area > best[0] + 1e-6:
            best = (area, plan)
    if best is None:
        raise FitError(
            f"columns={columns} and rows={rows} make spaces only {_down(smallest)} mm across "
            f"on this paper (at least {MIN_CELL:.0f} mm are needed): use fewer columns or rows, "
            "or larger paper"
        )
    return best[1]


def corner_points(mesh: Mesh, order: Sequence[int]) -> tuple[list[dict[str, Any]], int]:
    """Points inside the field where four or more spaces meet, and the count where three or more do.

    ``order`` gives each live face's space number.
    """
    x0, y0, x1, y1 = mesh.bounds
    meeting: dict[int, list[int]] = {}
    for f, number in zip(mesh.live(), order, strict=True):
        for v in f.verts:
            meeting.setdefault(v, []).append(number)
    four: list[dict[str, Any]] = []
    inner = 0
    for v in sorted(meeting, key=lambda k: (mesh.pts[k][1], mesh.pts[k][0])):
        x, y = mesh.pts[v]
        if x in (x0, x1) or y in (y0, y1):
            continue
        numbers = sorted(meeting[v])
        if len(numbers) >= 3:
            inner += 1
        if len(numbers) >= 4:
            four.append(
                {
                    "x": round(x, 3),
                    "y": round(y, 3),
                    "spaces": [f"space-{n}" for n in numbers],
                }
            )
    return four, inner


def _score_row(player: int, x: float, y: float) -> list[Item]:
    """The standard score row, its four boxes captioned with the edge each stands for."""
    area = score_area(player, x, y, SCORE_W, 4, tally_size=TALLY_BOX)
    items: list[Item] = []
    for item in area.items:
        if item.id == f"caption-tally-{player}" and isinstance(item, Text):
            items.append(
                Text(item.id, item.x, item.y, "triangle on each edge", item.size, layer=Layer.SCORE)
            )
        else:
            items.append(item)
    for k, edge in enumerate(EDGES, start=1):
        tally = next(
            i for i in area.items if isinstance(i, Feature) and i.id == f"box-tally{player}-{k}"
        )
        bx0, _, bx1, by1 = tally.geometry.bounds
        items.append(
            Text(
                f"caption-edge{player}-{k}",
                (bx0 + bx1) / 2,
                by1 + 2.6,
                edge,
                EDGE_LABEL_SIZE,
                "middle",
                layer=Layer.SCORE,
            )
        )
    return items


def printed_name(feature_id: str) -> str:
    """The name a labelled sheet prints on a space (its number, ``17``) or a triangle (``T3``).

    A triangle's name starts with T so it never reads as a space's number or as the value
    printed beside it; the engine accepts it wherever it accepts ``triangle-3``.

    Example:
        >>> printed_name("space-17"), printed_name("triangle-3")
        ('17', 'T3')
    """
    kind, _, rest = feature_id.partition("-")
    return f"T{rest}" if kind == "triangle" else id_number(feature_id)


class SpaceData(TypedDict):
    """A space: the mesh cell it grew from (row, column), all its cells, and its shape."""

    row: int
    col: int
    cells: list[list[int]]
    shape: str


class TriangleData(TypedDict):
    """A triangle: its printed value, its edge, its place on that edge, the spaces it touches."""

    value: int
    edge: str
    index: int
    touches: list[str]


class PageData(TypedDict):
    """What the page tells the engine and the tests: counts, triangles, the target."""

    columns: int
    rows: int
    spaces: int
    triangles_per_edge: int
    triangles: list[dict[str, Any]]
    four_corners: list[dict[str, Any]]
    four_corner_count: int
    inner_vertices: int
    merged: int
    split: int
    bent: int
    players: int
    target: int


EXAMPLE = Example(
    transcript="""\
sheet: springer seed=1
players: Ann (red), Bob (blue)
Ann: triangle-8
Bob: triangle-3
Ann: space-72
claim: Ann score 3
claim: Bob score 0
""",
    text="""\
The small numbers give the order of play; Ann's are hatched, Bob's grey. Ann takes a triangle \
worth 3, and Bob takes one too. With move 3 Ann fills a space touching the base of Ann's \
triangle, so Ann's chain reaches it: 3 points.""",
)


class SpringerLayout(Layout):
    """Springer: a field of spaces meeting at corners, numbered triangles on every edge."""

    name = "springer"
    param_shape = SpringerParams
    how_to_play = """\
The field: A rectangle is divided into spaces of many shapes and sizes. Numbered triangles, 1 \
to 5, lie outside it along all four edges. Spaces often meet four at a corner. Each player \
takes a pencil of their own colour and colours the box beside their initials with it.

A turn: Fill one empty space with your colour. You may never fill a space next to one of your \
own colour. Next to means sharing a stretch of border; touching only at a corner does not \
count. Instead of a space, you may fill an empty triangle. You may take only one triangle on \
each edge. Write its number in your box for that edge.

Chains: A chain is a group of spaces of one colour joined at their corners. A chain reaches a \
triangle when one of its spaces touches that triangle's base. A chain scores the triangles of \
its owner's colour that it reaches.

Winning with two players: Complete a chain that reaches one of your triangles on each of the \
four edges. Those four triangles must add up to 13 or more, the target printed on the sheet. \
If the first player does it first, the second player gets one last turn. If both complete a \
chain, the higher total wins; equal totals draw. If nobody completes a chain, the higher total \
of triangles reached wins.

Three players: A chain to one of your triangles on each edge wins, whatever its total. Usually \
nobody manages it. Then the highest total of triangles reached wins.

Variations: These are for two experienced players. Change the target: lower it for a faster \
game, or raise it for a tighter one. Or, before play, each player draws a straight line that \
cuts one space in two. Or, on their first turn, each player fills two neighbouring spaces, which \
then count as one. The variations may be combined, two of them or all three.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """Keep the number of merged pairs within a sixth of the spaces."""
        typed = PARAMS.read(SpringerParams, params)
        most = typed.columns * typed.rows // 6
        if typed.variety > most:
            raise SpecError(
                f"variety={typed.variety} is too many for columns={typed.columns} and "
                f"rows={typed.rows}: variety may be at most columns x rows / 6 = {most}"
            )

    def field_area(self, ctx: BuildContext) -> float:
        """The field's area from the plan alone: the mesh and the labels are the costly part.

        Raises:
            FitError: when the spaces would be too small on this paper.
        """
        params = PARAMS.read(SpringerParams, ctx.params)
        plan = plan_page(ctx.frame.inset(STROKE_PAD), params.columns, params.rows, params.players)
        return plan.width * plan.height

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(SpringerParams, ctx.params)
        columns, rows, players = params.columns, params.rows, params.players
        per_edge, target = params.triangles, params.target
        plan = plan_page(ctx.frame.inset(STROKE_PAD), columns, rows, players)
        mesh = build_mesh(ctx.rng("mesh"), columns, rows, plan.x0, plan.y0, plan.width, plan.height)
        merged, split = vary(mesh, ctx.rng("variety"), params.variety)
        bent = bend(mesh, ctx.rng("bend"), BEND_SHARE)
        faces = mesh.live()
        if len(faces) != columns * rows:
            raise AssertionError(
                f"springer columns={columns} rows={rows}: made {len(faces)} spaces, "
                f"not {columns * rows}"
            )
        polys = [mesh.polygon(f.verts) for f in faces]
        keys = [
            (f.cells[0][0], f.cells[0][1], round(p.centroid.y, 6), round(p.centroid.x, 6))
            for f, p in zip(faces, polys, strict=True)
        ]
        ranking = sorted(range(len(faces)), key=lambda k: keys[k])
        number = [0] * len(faces)
        for n, k in enumerate(ranking, start=1):
            number[k] = n

        items: list[Item] = []
        spaces: dict[str, Polygon] = {}
        for k in ranking:
            f = faces[k]
            sid = f"space-{number[k]}"
            spaces[sid] = polys[k]
            items.append(
                Feature(
                    sid,
                    Kind.SPACE,
                    polys[k],
                    data=SpaceData(
                        row=f.cells[0][0],
                        col=f.cells[0][1],
                        cells=[list(c) for c in f.cells],
                        shape=f.shape,
                    ),
                )
            )
        x0, y0, x1, y1 = mesh.bounds
        outline = box(x0, y0, x1, y1)
        items.append(
            Feature(
                "line-1",
                Kind.LINE,
                LineString([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]),
                Style.HEAVY,
                data={"outline": True},
            )
        )
        for n, line in enumerate(inner_lines(mesh), start=2):
            items.append(
                Feature(
                    f"line-{n}",
                    Kind.LINE,
                    LineString([mesh.pts[v] for v in line]),
                    Style.MEDIUM,
                )
            )
        triangles = place_triangles(mesh, ctx.rng("values"), per_edge)
        tri_data: list[dict[str, Any]] = []
        for n, tri in enumerate(triangles, start=1):
            touches = base_touches(spaces, tri)
            if not touches:
                raise AssertionError(f"triangle-{n} touches no space")
            facts = TriangleData(value=tri.value, edge=tri.edge, index=tri.index, touches=touches)
            items.append(
                Feature(
                    f"triangle-{n}", Kind.TRIANGLE, Polygon(tri.corners), Style.MEDIUM, data=facts
                )
            )
            (ax, ay), (bx, by), (tx, ty) = tri.corners
            mx, my = (ax + bx) / 2, (ay + by) / 2
            cx, cy = mx + 0.36 * (tx - mx), my + 0.36 * (ty - my)
            items.append(
                Text(
                    f"label-triangle-{n}",
                    cx,
                    cy + 0.36 * VALUE_SIZE,
                    str(tri.value),
                    VALUE_SIZE,
                    "middle",
                    bold=True,
                )
            )
            tri_data.append({"id": f"triangle-{n}", **facts})
        for p, (sx, sy) in enumerate(plan.rows, start=1):
            items.extend(_score_row(p, sx, sy))
        four, inner = corner_points(mesh, number)
        data = PageData(
            columns=columns,
            rows=rows,
            spaces=len(faces),
            triangles_per_edge=per_edge,
            triangles=tri_data,
            four_corners=four,
            four_corner_count=len(four),
            inner_vertices=inner,
            merged=merged,
            split=split,
            bent=bent,
            players=players,
            target=target,
        )
        goal = f"total {target} or more" if players == 2 else "any total"
        subtitle = (
            f"{len(faces)} spaces: chain your colour corner to corner to a triangle on every "
            f"edge, {goal}"
        )
        if ctx.spec.labels:
            items.extend(label_areas(items, (Kind.SPACE, Kind.TRIANGLE), printed_name))
        return [PageBody(items, subtitle, outline, dict(data))]


LAYOUT = SpringerLayout()
