"""Vasarely's parameters and the cutting rules that bound the spaces in a cube.

Kept apart from the field's geometry so that listing the games and completing a spec import
no shapely: :mod:`papergames.layouts.vasarely.field` cuts the cubes by these rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from papergames.sheets.params import Param, ParamSet

GRID = 6
"""Cells along each edge of a face: spaces are unions of these small rhombi."""


MIN_SIDE = 2
"""Least number of cells along either side of a space."""


MIN_CELLS = 6
"""Least number of cells in a space (so 2 x 2 pieces are not allowed)."""


def valid_block(w: int, h: int) -> bool:
    """Whether a w x h block of cells is large enough to be a space."""
    return w >= MIN_SIDE and h >= MIN_SIDE and w * h >= MIN_CELLS


@cache
def capacity(w: int, h: int) -> int:
    """Most spaces a w x h block of cells can be cut into by guillotine cuts.

    Example:
        >>> capacity(6, 6), capacity(3, 6), capacity(2, 3)
        (6, 3, 1)
    """
    best = 1
    for p in range(MIN_SIDE, w - MIN_SIDE + 1):
        if valid_block(p, h) and valid_block(w - p, h):
            best = max(best, capacity(p, h) + capacity(w - p, h))
    for p in range(MIN_SIDE, h - MIN_SIDE + 1):
        if valid_block(w, p) and valid_block(w, h - p):
            best = max(best, capacity(w, p) + capacity(w, h - p))
    return best


FACE_CAPACITY = capacity(GRID, GRID)
"""Most spaces one face can be cut into."""


MAX_SPACES = 3 * FACE_CAPACITY
"""Most spaces in a cube, each face cut into its most: the bound of both space parameters."""


@dataclass(frozen=True)
class VasarelyParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    cubes: int
    min_spaces: int
    max_spaces: int
    max_dots: int


PARAMS = ParamSet(
    [
        Param.int("cubes", 10, 1, 16, "number of cubes"),
        Param.int("min_spaces", 7, 3, MAX_SPACES, "fewest spaces in a cube"),
        Param.int("max_spaces", 12, 3, MAX_SPACES, "most spaces in a cube"),
        Param.int("max_dots", 5, 2, 5, "most dots in a space (spaces show 1 to this)"),
    ],
    notes=[
        "every cube holds each number of dots from 1 to max_dots at least once",
        "score areas have one box per point a player could at most reach: the sum over "
        "the cubes of their spaces less one",
        "the cubes shrink with more cubes or spaces; below an edge of about 18 mm the "
        "dots no longer fit and the sheet is refused",
    ],
)
