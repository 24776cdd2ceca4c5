"""The maze's sheet: a hairline grid with a heavy outline, vertex names and score rows."""

from __future__ import annotations

from papergames.layouts.maze.params import PARAMS, MazeParams
from papergames.play.example import Example
from papergames.sheets.grid import SCORE_WIDTH, GridLook, plan_grid, scored_grid
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Style

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


EXAMPLE = Example(
    transcript="""\
sheet: maze seed=1
players: Ann (red), Bob (blue)
Ann: D1-C3
Bob: A4-E4
Ann: C4-B3
Bob: C3-E3
claim: Ann score 0
claim: Bob score 0
""",
    text="""\
The small numbers give the order of play; Ann's segments are solid, Bob's dashed. Move 1 \
starts on the bold outline. Move 2 passes over three grid points, so move 3 may start at one \
of them. Move 4 starts where move 1 ended. Nobody scores while the maze is built.""",
)


class MazeLayout(Layout):
    """A hairline grid with a heavy outline, vertex coordinates and a score row per player."""

    name = "maze"
    param_shape = MazeParams
    how_to_play = """\
Building the maze: The grid's outline is printed bold, and every grid point on it counts as \
already reached. In turn, each player draws one straight segment. It starts at a reached \
point: one that a segment or the outline passes through or ends at. It ends at a point that no \
segment touches yet.

Segments: A segment joins two grid points, at any slope, and may pass over untouched points on \
the way. It may not cross, overlap or touch another segment or the outline, except at the \
point it starts from. Any number of segments may leave the same point. Building ends when \
every grid point is touched by a segment.

Sections: The grid lines and the segments cut the field into sections, with no line inside \
them.

Running the corridors: One player fills any section. After that, each player in turn must fill \
an empty section next to the one filled just before. No segment may lie between the two; grid \
lines do not separate them, and that is what makes the corridors. When no such section is \
left, the player who filled the last one scores a point. The player who is stuck then fills \
any empty section to start a new run. The game ends when every section is filled. Most points \
wins.

Names: Grid points are named by their grid lines, letters from the left and numbers from the \
bottom, as printed. So a segment is written like B2-F7.
"""

    def field_area(self, ctx: BuildContext) -> float:
        """The grid's outline, from the plan alone (see :meth:`Layout.field_area`)."""
        params = PARAMS.read(MazeParams, ctx.params)
        plan = plan_grid(ctx.frame, params.size, LOOK, params.players, SCORE_WIDTH)
        return float(plan.outline.area)

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(MazeParams, ctx.params)
        n, players = params.size, params.players
        plan, items = scored_grid(ctx.frame, n, LOOK, players)
        data = plan.facts()
        data["players"] = players
        subtitle = f"{n} by {n} grid, {players} players: build the maze, then run its corridors"
        return [PageBody(items, subtitle, plan.outline, data)]


LAYOUT = MazeLayout()
