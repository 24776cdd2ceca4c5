"""Spaghetti's sheet: the grid, its named perimeter vertices and score rows."""

from __future__ import annotations

from papergames.layouts.spaghetti.params import PARAMS, SpaghettiParams
from papergames.play.example import Example
from papergames.sheets.grid import (
    SCORE_WIDTH,
    GridLook,
    plan_grid,
    scored_grid,
    vertex_edges,
    vertex_name,
)
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Style

MIN_CELL = 5.0
"""Least side of a square in mm: a pencil can still fill it."""

LOOK = GridLook(
    min_cell=MIN_CELL,
    purpose="to be filled in by pencil",
    lines=Style.HAIRLINE,
    perimeter=Style.MEDIUM,
    cell_sides=("bottom", "left"),
    vertex_labels="edges",
    points="edges",
    point_style=Style.SOLID,
)


EXAMPLE = Example(
    transcript="""\
sheet: spaghetti size=5 seed=4
players: Ann (red), Bob (blue)
Ann: d3
Bob: a3
Ann: e5
Bob: c2
Ann: c5
Bob: C1-B6
Ann: B1-F3
Bob: D1-D6
claim: Ann score 1
claim: Bob score 1
""",
    text="""\
The small numbers give the order; Ann's marks are hatched or solid, Bob's grey or dashed. \
Moves 1 to 5 shade squares. Ann's line 7 crosses Bob's line 6, so Bob gains 1 point. Bob's \
line 8 crosses line 7, so Ann gains 1 point.""",
    marks=(
        ("space-14",),
        ("space-11",),
        ("space-25",),
        ("space-8",),
        ("space-23",),
        ("C1/B6",),
        ("B1/F3",),
        ("D1/D6",),
    ),
)


class SpaghettiLayout(Layout):
    """A light grid with named perimeter vertices and two score rows."""

    name = "spaghetti"
    param_shape = SpaghettiParams
    how_to_play = """\
Meatballs: The players take turns shading one whole square each. Stop when as many squares are \
shaded as there are squares along a side (8 on the usual grid). When that number is odd, the \
starter shades one square more.

Spaghetti: The player who shaded second starts this part. In turn, each player draws one \
straight line between two free dots on the grid's outline. A dot is free until a line starts \
or ends there. The two ends must lie on different sides of the grid. A corner belongs to both \
its sides, so a line from a corner may not end on either of them. A line may run along grid \
lines. It may touch shaded squares at an edge or a corner, but it may never pass through one.

Scoring: When your line crosses lines drawn earlier, your opponent gains one point for each \
line crossed. Play stops when no legal line is left. A player who says they are stuck may be \
challenged to be shown a line. The higher score wins.

Names: Squares are named like chess squares, a1 at the bottom left. Dot C4 is the lower-left \
corner of square c4.
"""

    def field_area(self, ctx: BuildContext) -> float:
        """The grid's outline, from the plan alone (see :meth:`Layout.field_area`)."""
        n = PARAMS.read(SpaghettiParams, ctx.params).size
        return float(plan_grid(ctx.frame, n, LOOK, 2, SCORE_WIDTH).outline.area)

    def build(self, ctx: BuildContext) -> list[PageBody]:
        n = PARAMS.read(SpaghettiParams, ctx.params).size
        plan, items = scored_grid(ctx.frame, n, LOOK, 2)
        edges: dict[str, list[str]] = {"bottom": [], "top": [], "left": [], "right": []}
        for row in range(1, n + 2):
            for col in range(1, n + 2):
                for edge in vertex_edges(n, col, row):
                    edges[edge].append(vertex_name(col, row))
        data = plan.facts()
        data["edge_vertices"] = edges
        subtitle = f"{n} by {n} grid: shade {n} squares, then draw lines between the dots"
        return [PageBody(items, subtitle, plan.outline, data)]


LAYOUT = SpaghettiLayout()
