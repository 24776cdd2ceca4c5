"""Co-Compositeness (Leroy Quet): an n-by-n grid of squares that each take two numbers.

The sheet is one square grid (:mod:`papergames.grid` gives the conventions) with light lines and
a medium outline. Play happens in the squares, so the coordinates printed are the squares' own,
chess style, on all four sides (the default grid is 16 by 16, and a label on the near side saves
reaching across it): columns ``a, b, c, ...`` from the left (no ``i``, as on a go board), rows
``1, 2, 3, ...`` from the bottom. A square must take two handwritten numbers of up to four
digits, so it is never drawn smaller than 9 mm; larger sizes are refused on paper too small for
that (the largest size is 19 on A4 and 20 on Letter with two players, 24 needs A3; ``papergames
list`` shows the figures).

Ids: ``space-<k>`` the squares (k = (row - 1) * size + column), ``line-1`` the outline,
``line-2`` .. the inner lines. Score rows: ``box-initials-<p>``, ``box-legend-<p>``,
``box-total-<p>``, one per player, without tally boxes (up to size^2 points are possible).

Parameters: ``size`` (default 16, 4..24) squares per side; ``players`` (default 2, 2..6) score
rows.
"""

from __future__ import annotations

from papergames.compose import content_frame
from papergames.errors import FitError
from papergames.grid import SCORE_WIDTH, GridLook, grid_items, plan_grid, score_rows
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import Style
from papergames.params import Param, ParamSet
from papergames.units import PAPERS

MIN_CELL = 9.0
"""Least side of a square in mm: room for two handwritten numbers of up to four digits."""

LOOK = GridLook(
    min_cell=MIN_CELL,
    purpose="to hold two handwritten numbers",
    lines=Style.LIGHT,
    perimeter=Style.MEDIUM,
    cell_sides=("bottom", "top", "left", "right"),
    vertex_labels="none",
    points="none",
)


class CocompositeLayout(Layout):
    """A grid of large squares with coordinates on every side and a score row per player."""

    name = "cocomposite"
    title = "Co-Compositeness"
    author = "Leroy Quet"
    players = "2-6"
    holds = "an n-by-n grid of squares large enough for two numbers, score rows"
    params = ParamSet(
        [
            Param.int("size", 16, 4, 24, "squares along each side of the grid"),
            Param.int("players", 2, 2, 6, "score rows"),
        ]
    )
    rules = """\
Numbers: the players write the odd numbers in order, one per turn: the first player writes 1 \
in any square, the next writes 3, then 5, and so on (after m moves in all, the next number is \
2m+1).

Placing: each number goes in one of the up to eight squares around the square that received \
the number before it (sideways or diagonally). The square must be empty, or hold exactly one \
number that shares a factor greater than 1 with the new number (the two are not coprime). A \
square never holds more than two numbers.

Scoring and end: writing a number into a square that already holds one scores a point. A player \
who can move must move; the game ends as soon as the player to move has no legal square. Most \
points wins. More players call for a larger grid; 16 by 16 suits two.

Transcripts: squares are named like chess squares, a1 at the bottom left, as printed around the \
grid.
"""

    def notes(self) -> list[str]:
        """Where the 9 mm squares cap the size on common paper, for two players."""
        sizes = ", ".join(f"{largest_size(paper)} on {paper}" for paper in ("a4", "letter"))
        return [f"squares are at least {MIN_CELL:g} mm wide, so the largest size is {sizes}"]

    def build(self, ctx: BuildContext) -> list[PageBody]:
        n: int = ctx.params["size"]
        players: int = ctx.params["players"]
        plan = plan_grid(ctx.frame, n, LOOK, players, SCORE_WIDTH)
        items = grid_items(plan, LOOK)
        items.extend(score_rows(plan, caption="points"))
        data = plan.facts()
        data["players"] = players
        subtitle = f"{n} by {n} grid, {players} players: place 1, 3, 5, ... in neighbouring squares"
        return [PageBody(items, subtitle, plan.outline, data)]


def largest_size(paper: str, players: int = 2) -> int:
    """The largest size whose squares reach :data:`MIN_CELL` on ``paper`` in some orientation."""
    high = int(CocompositeLayout.params["size"].high or 0)
    low = int(CocompositeLayout.params["size"].low or 0)
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
