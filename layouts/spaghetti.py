"""Uncooked Spaghetti and Square Meatballs (Leroy Quet): an n-by-n grid for two players.

The sheet is one square grid (:mod:`papergames.grid` gives the conventions): squares ``a1`` ..
named chess style with row 1 at the bottom (columns skip the letter i), vertices named by their
grid lines in capitals (``C4`` is the lower-left corner of square ``c4``). Every vertex on the
perimeter carries its full name beside it and a dot, because the lines of the second phase run
between those vertices and a transcript names them; square coordinates sit in a band further out
on the left and at the bottom, for the squares filled in the first phase. The inner grid lines
are hairlines, as light as print allows, because the game asks for a lightly drawn grid: the
players' lines may run along grid lines and must stay visible there. The perimeter is medium.

Ids: ``space-<k>`` the squares (k = (row - 1) * size + column), ``line-1`` the perimeter,
``line-2`` .. the inner lines, ``point-<name>`` the 4 * size perimeter vertices in rows from the
bottom, left to right, with ``edges`` in their data (a corner lies on both of its edges).
Score rows: ``box-initials-<p>``, ``box-legend-<p>``, ``box-total-<p>`` for players 1 and 2; no
tally boxes, since a game can give up to size * (2 * size - 1) points.

Parameters: ``size`` (default 8, 3..20) squares per side. Squares must be at least 5 mm wide;
larger sizes on small paper are refused.
"""

from __future__ import annotations

from papergames.grid import (
    SCORE_WIDTH,
    GridLook,
    grid_items,
    plan_grid,
    score_rows,
    vertex_edges,
    vertex_name,
)
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import Style
from papergames.params import Param, ParamSet

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


class SpaghettiLayout(Layout):
    """A light grid with named perimeter vertices and two score rows."""

    name = "spaghetti"
    title = "Uncooked Spaghetti and Square Meatballs"
    author = "Leroy Quet"
    players = "2"
    holds = "an n-by-n light grid with named edge vertices, two score rows"
    params = ParamSet([Param.int("size", 8, 3, 20, "squares along each side of the grid")])
    rules = """\
Meatballs: the players take turns shading one whole square each until n squares are \
shaded, n being the number of squares along a side (8 on the default grid). When n is odd \
the starter shades one square more than the other player.

Spaghetti: the player who moved second while shading starts this phase. In turn, each player \
draws one straight line between two free vertices on the grid's outline (the dots). A vertex \
is free until a line starts or ends there. The two ends must lie on different sides of the \
grid; a corner belongs to both of its sides, so a line from a corner may not end anywhere on \
either of them. A line may run along grid lines and may touch shaded squares at an edge or a \
corner, but it may never pass through the inside of a shaded square.

Scoring: whenever your line crosses lines drawn earlier, your opponent gains one point for each \
line crossed. Play stops when no legal line is left; a player who says he is stuck can be \
challenged to have a line shown to him. The higher score wins.

Transcripts: squares are named like chess squares (a1 at the bottom left) and vertices by their \
grid lines in capitals, so C4 is the lower-left corner of square c4.
"""

    def build(self, ctx: BuildContext) -> list[PageBody]:
        n: int = ctx.params["size"]
        plan = plan_grid(ctx.frame, n, LOOK, 2, SCORE_WIDTH)
        items = grid_items(plan, LOOK)
        items.extend(score_rows(plan, caption="points"))
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
