"""Delaunay's parameters and the limits its notes promise.

Kept apart from the sections' geometry so that listing the games and completing a spec import
no shapely: :mod:`papergames.layouts.delaunay.cells` cuts the spaces to these limits.
"""

from __future__ import annotations

from dataclasses import dataclass

from papergames.sheets.params import Param, ParamSet

MIN_AREA = 30.0
"""Least area in mm^2 of a space: room for a few pencil strokes."""


MIN_THICK = 2.4
"""Least thickness in mm of a space, measured as twice its area over its perimeter."""


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
    ],
    notes=[
        f"every space is at least {MIN_AREA:.0f} mm^2 and {MIN_THICK} mm thick; very many "
        "sections with many spaces each are refused on small paper",
        "losses=64 fills two lines of boxes across an A4 or Letter page; the book does not "
        "give the number, and with four players a team's two partners share one row",
    ],
)
