"""The parameters of Cubist's two play aids, the studio board and the final-scoring pad.

Kept apart from the drawing so that listing the games imports no geometry:
:mod:`papergames.layouts.cubist.studio` and :mod:`papergames.layouts.cubist.score` import these
declarations, and the sizes the studio's note promises.
"""

from __future__ import annotations

from dataclasses import dataclass

from papergames.sheets.params import Param, ParamSet

DIE = 14.0
"""Side in mm of a Cubist die."""


MIN_CELL = 15.0
"""Least side in mm of a workroom cell: a die fits with room to spare."""


MAX_BOARDS = 4
"""Most studio boards one sheet prints: Cubist is for at most four players."""


@dataclass(frozen=True)
class StudioParams:
    """The studio board's parameters, typed (see :data:`STUDIO_PARAMS`)."""

    players: int
    names: tuple[str, ...]
    cols: int
    rows: int
    cell: float


STUDIO_PARAMS = ParamSet(
    [
        Param.int("players", 1, 1, MAX_BOARDS, "boards to print, one per page"),
        Param.players("names", "titles of the boards, one per player (else colours)"),
        Param.int("cols", 5, 2, 10, "cells across each workroom"),
        Param.int("rows", 5, 2, 10, "cells down each workroom"),
        Param.float("cell", 16.0, MIN_CELL, 30.0, f"side of a workroom cell in mm (dice: {DIE:g})"),
    ],
    notes=[
        f"cells are at least {MIN_CELL:g} mm for {DIE:g} mm dice: print at actual size; "
        "workrooms too wide for the paper are stacked"
    ],
)


@dataclass(frozen=True)
class ScoreParams:
    """The score pad's parameters, typed (see :data:`SCORE_PARAMS`)."""

    players: int
    installations: int
    games: int


SCORE_PARAMS = ParamSet(
    [
        Param.int("players", 4, 2, 4, "player rows on each pad"),
        Param.int("installations", 8, 8, 12, "boxes for installation values per player"),
        Param.int("games", 2, 1, 4, "pads per page, one per game of a session"),
    ]
)
