"""Spaghetti's parameters.

Kept apart from the sheet's grid so that listing the games and completing a spec import no
geometry: :mod:`papergames.layouts.spaghetti.sheet` builds to these.
"""

from __future__ import annotations

from dataclasses import dataclass

from papergames.sheets.params import Param, ParamSet


@dataclass(frozen=True)
class SpaghettiParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    size: int


PARAMS = ParamSet([Param.int("size", 8, 3, 20, "squares along each side of the grid")])
