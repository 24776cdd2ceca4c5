"""The "Maze" of Polygonal Sections (Leroy Quet): an n-by-n grid with a bold outline.

The sheet is one square grid (:mod:`papergames.grid` gives the conventions) drawn with hairline
inner lines, because the players' segments may run along them, and a heavy perimeter: the seed
has the outline darkened before play, so every vertex on it counts as reached from the start.
The game is played on vertices, so the coordinates printed are the vertices' own, go style: the
letter of each vertical grid line at both its ends (``A`` on the left edge; no ``I``) and the
number of each horizontal grid line at both its ends (``1`` on the bottom edge). Vertex ``C4``
is where line C meets line 4, the lower-left corner of square ``c4``.

Ids: ``space-<k>`` the squares (k = (row - 1) * size + column; the sections of the second phase
are cut from them by the players), ``line-1`` the perimeter, ``line-2`` .. the inner lines,
``point-<name>`` every vertex, (size + 1)^2 of them in rows from the bottom, left to right,
invisible (the grid's crossings show them), with ``edges`` in their data. Score rows:
``box-initials-<p>``, ``box-legend-<p>``, ``box-total-<p>``, one per player, without tally boxes
(the number of points depends on how the maze is drawn and has no useful bound).

Parameters: ``size`` (default 8, 3..24) squares per side; ``players`` (default 2, 2..6) score
rows. Squares must be at least 5 mm wide.
"""

from __future__ import annotations

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


class MazeLayout(Layout):
    """A hairline grid with a heavy outline, vertex coordinates and a score row per player."""

    name = "maze"
    title = '"Maze" of Polygonal Sections'
    author = "Leroy Quet"
    players = "2-6"
    holds = "an n-by-n light grid with a bold outline and labelled vertices, score rows"
    params = ParamSet(
        [
            Param.int("size", 8, 3, 24, "squares along each side of the grid"),
            Param.int("players", 2, 2, 6, "score rows"),
        ]
    )
    rules = """\
Building the maze: the grid's outline is printed bold, and every vertex on it counts as already \
reached. In turn, each player draws one straight segment from a reached vertex (one that a \
segment or the outline passes through or ends at) to a vertex no segment touches yet. Segments \
run from grid vertex to grid vertex, at any slope, may pass over other vertices on the way, and \
may neither cross nor overlap another segment or the outline. Any number of segments may leave \
the same vertex. This phase ends when every vertex is touched by a segment.

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

    def build(self, ctx: BuildContext) -> list[PageBody]:
        n: int = ctx.params["size"]
        players: int = ctx.params["players"]
        plan = plan_grid(ctx.frame, n, LOOK, players, SCORE_WIDTH)
        items = grid_items(plan, LOOK)
        items.extend(score_rows(plan, caption="points"))
        data = plan.facts()
        data["players"] = players
        subtitle = f"{n} by {n} grid, {players} players: build the maze, then run its corridors"
        return [PageBody(items, subtitle, plan.outline, data)]


LAYOUT = MazeLayout()
