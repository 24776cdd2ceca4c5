"""Co-Compositeness's parameters and the limits its note promises.

Kept apart from the sheet's grid so that listing the games and completing a spec import no
geometry: :mod:`papergames.layouts.cocomposite.sheet` builds to these limits.
"""

from __future__ import annotations

from dataclasses import dataclass

from papergames.sheets.params import Param, ParamSet

MIN_CELL = 9.0
"""Least side of a square in mm: room for two handwritten numbers of up to four digits."""


LARGEST_SIZE = {"a4": 19, "letter": 20}
"""The largest size whose squares reach :data:`MIN_CELL` on each paper, for two players.

Worked out by :func:`papergames.layouts.cocomposite.sheet.largest_size`, which plans the grid on
the paper in both orientations; declared here so the note needs no geometry, and held equal to
that function by a test.
"""


@dataclass(frozen=True)
class CocompositeParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    size: int
    players: int


PARAMS = ParamSet(
    [
        Param.int("size", 16, 4, 24, "squares along each side of the grid"),
        Param.int("players", 2, 2, 6, "score rows"),
    ],
    notes=[
        f"squares are at least {MIN_CELL:g} mm wide, so the largest size is "
        + ", ".join(f"{size} on {paper}" for paper, size in LARGEST_SIZE.items())
    ],
)
