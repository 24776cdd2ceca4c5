"""Co-Compositeness's sheet: the grid of large squares, its coordinates and score rows."""

from __future__ import annotations

from papergames.errors import FitError
from papergames.layouts.cocomposite.params import MIN_CELL, PARAMS, CocompositeParams
from papergames.play.example import Example
from papergames.sheets.compose import content_frame
from papergames.sheets.grid import SCORE_WIDTH, GridLook, plan_grid, scored_grid
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Style
from papergames.sheets.units import PAPERS

LOOK = GridLook(
    min_cell=MIN_CELL,
    purpose="to hold two handwritten numbers",
    lines=Style.LIGHT,
    perimeter=Style.MEDIUM,
    cell_sides=("bottom", "top", "left", "right"),
    vertex_labels="none",
    points="none",
)


EXAMPLE = Example(
    transcript="""\
sheet: cocomposite size=6 seed=1
players: Ann (red), Bob (blue)
Ann: c3
Bob: d4
Ann: d3
Bob: c4
Ann: d4
claim: Ann score 1
claim: Bob score 0
""",
    text="""\
The picture shows the numbers written; Ann's squares are hatched, Bob's grey. Ann writes 1, \
Bob 3, Ann 5 and Bob 7, each in a square beside the number before. Ann writes 9 in the square \
that holds Bob's 3. Nine and three share the factor 3, so Ann scores 1 point.""",
    marks=(("space-15",), ("space-22",), ("space-16",), ("space-21",), ("space-22",)),
    labels=("1", "3", "5", "7", "9"),
)


class CocompositeLayout(Layout):
    """A grid of large squares with coordinates on every side and a score row per player."""

    name = "cocomposite"
    param_shape = CocompositeParams
    how_to_play = """\
Numbers: The players write the odd numbers in order, one per turn. The first player writes 1 \
in any square, the next writes 3, then 5, and so on.

Placing: Each number goes in one of the up to eight squares around the square of the number \
before, sideways or diagonally. That square must be empty, or hold one number that shares a \
factor greater than 1 with the new number. For example, 9 may join 3 or 15, but not 5 or 7. A \
square never holds more than two numbers.

Scoring and end: Writing a number into a square that already holds one scores a point. If you \
can move, you must. The game ends as soon as the player to move has no legal square. Most \
points wins. More players need a larger grid; 16 by 16 suits two.

Names: Squares are named like chess squares, a1 at the bottom left, as printed around the \
grid.
"""

    def field_area(self, ctx: BuildContext) -> float:
        """The grid's outline, from the plan alone (see :meth:`Layout.field_area`)."""
        params = PARAMS.read(CocompositeParams, ctx.params)
        return float(
            plan_grid(ctx.frame, params.size, LOOK, params.players, SCORE_WIDTH).outline.area
        )

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(CocompositeParams, ctx.params)
        n, players = params.size, params.players
        plan, items = scored_grid(ctx.frame, n, LOOK, players)
        data = plan.facts()
        data["players"] = players
        subtitle = f"{n} by {n} grid, {players} players: place 1, 3, 5, ... in neighbouring squares"
        return [PageBody(items, subtitle, plan.outline, data)]


def largest_size(paper: str, players: int = 2) -> int:
    """The largest size whose squares reach :data:`MIN_CELL` on ``paper`` in some orientation.

    For two players on A4 and Letter, :data:`~papergames.layouts.cocomposite.params.LARGEST_SIZE`
    declares the results for the note ``papergames list`` prints.
    """
    high = int(PARAMS["size"].high or 0)
    low = int(PARAMS["size"].low or 0)
    for n in range(high, low - 1, -1):
        for landscape in (False, True):
            try:
                plan_grid(
                    content_frame(*PAPERS[paper].size(landscape)), n, LOOK, players, SCORE_WIDTH
                )
            except FitError:
                continue
            return n
    return low - 1


LAYOUT = CocompositeLayout()
