"""Springer's parameters and the limit its notes promise.

Kept apart from the field's geometry so that listing the games and completing a spec import
no shapely: :mod:`papergames.layouts.springer.sheet` builds to these limits.
"""

from __future__ import annotations

from dataclasses import dataclass

from papergames.sheets.params import Param, ParamSet

MIN_CELL = 9.0
"""Least mean width and height in mm of a grid cell: its halves must still take a pencil."""


@dataclass(frozen=True)
class SpringerParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    columns: int
    rows: int
    triangles: int
    variety: int
    players: int
    target: int


PARAMS = ParamSet(
    [
        Param.int("columns", 12, 2, 18, "spaces across the field (before merges and cuts)"),
        Param.int("rows", 9, 2, 18, "spaces down the field; spaces = columns x rows"),
        Param.int("triangles", 5, 2, 10, "numbered triangles on each edge"),
        Param.int(
            "variety",
            9,
            0,
            54,
            "pairs of spaces merged, each balanced by a space cut in two "
            "(at most columns x rows / 6)",
        ),
        Param.int("players", 2, 2, 3, "score rows (3 players: no minimum total)"),
        Param.int("target", 13, 4, 20, "least total of four triangles that wins (2 players)"),
    ],
    notes=[
        "spaces = columns x rows exactly: each merged pair is balanced by one space cut in two",
        f"cells are at least {MIN_CELL:.0f} mm across on average, which caps columns and rows "
        "on small paper",
    ],
)
