"""The maze's sheet: a hairline grid with a heavy outline, vertex names and score rows."""

from __future__ import annotations

from dataclasses import dataclass

from papergames.grid import SCORE_WIDTH, GridLook, grid_items, plan_grid, score_rows
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import Style
from papergames.params import Param, ParamSet

MIN_CELL = 5.0
"""Least side of a square in mm: sections cut from it must still take a pencil."""


LOOK = GridLook(
    min_cell=MIN_CELL,
    purpose="for the sections to be filled in by pencil",
    lines=Style.HAIRLINE,
    perimeter=Style.HEAVY,
    cell_sides=(),
    vertex_labels="lines",
    points="all",
    point_style=Style.NONE,
)


@dataclass(frozen=True)
class MazeParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    size: int
    players: int


PARAMS = ParamSet(
    [
        Param.int("size", 8, 3, 24, "squares along each side of the grid"),
        Param.int("players", 2, 2, 6, "score rows"),
    ]
)


class MazeLayout(Layout):
    """A hairline grid with a heavy outline, vertex coordinates and a score row per player."""

    name = "maze"
    params = PARAMS
    param_shape = MazeParams
    how_to_play = """\
Building the maze: the grid's outline is printed bold, and every vertex on it counts as already \
reached. In turn, each player draws one straight segment from a reached vertex (one that a \
segment or the outline passes through or ends at) to a vertex no segment touches yet. Segments \
run from grid vertex to grid vertex, at any slope, may pass over untouched vertices on the way, \
and may not cross, overlap or touch another segment or the outline anywhere but at the vertex \
they start from. Any number of segments may leave the same vertex. This phase ends when every \
vertex is touched by a segment.

Sections: the grid lines and the segments together cut the field into sections, each bounded by \
them with no line inside.

Running the corridors: one player fills any section. After that, each player in turn must fill \
an empty section next to the section filled just before, provided no segment separates the two \
(grid lines do not separate: that is what makes the corridors). When no such section is left, \
the player who filled the previous section scores a point, and the player who is stuck fills any \
empty section to start a new run. The game ends when every section is filled; most points wins.

Transcripts: vertices are named by their grid lines, letters from the left and numbers from the \
bottom as printed around the grid, so a segment is written like B2-F7.
"""

    def field_area(self, ctx: BuildContext) -> float:
        """The grid's outline, from the plan alone (see :meth:`Layout.field_area`)."""
        params = PARAMS.read(MazeParams, ctx.params)
        plan = plan_grid(ctx.frame, params.size, LOOK, params.players, SCORE_WIDTH)
        return float(plan.outline.area)

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(MazeParams, ctx.params)
        n, players = params.size, params.players
        plan = plan_grid(ctx.frame, n, LOOK, players, SCORE_WIDTH)
        items = grid_items(plan, LOOK)
        items.extend(score_rows(plan, caption="points"))
        data = plan.facts()
        data["players"] = players
        subtitle = f"{n} by {n} grid, {players} players: build the maze, then run its corridors"
        return [PageBody(items, subtitle, plan.outline, data)]


LAYOUT = MazeLayout()
