"""The maze's parameters.

Kept apart from the sheet so that listing the games and completing a spec import no drawing
code: :mod:`papergames.layouts.maze.sheet` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from papergames.sheets.params import Param, ParamSet


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
