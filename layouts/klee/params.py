"""Klee's parameters and the limits its notes promise.

Kept apart from the field's geometry so that listing the games and completing a spec import
no shapely: :mod:`papergames.layouts.klee.field` builds to these limits.
"""

from __future__ import annotations

from dataclasses import dataclass

from papergames.sheets.params import Param, ParamSet

MIN_SIDE = 6.0
"""Least distance in mm across a space, in both directions: room for a pencil."""


MAX_MEAN = 16.0
"""Largest mean side in mm of a square, so a mini-field does not turn into a poster."""


MIN_STEP = 8.0
"""Least length in mm of a track step along the middle line: room for a pencil mark."""


@dataclass(frozen=True)
class KleeParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    size: int
    track: int
    areas: int


PARAMS = ParamSet(
    [
        Param.int("size", 12, 4, 14, "spaces along each side of the field"),
        Param.int("track", 30, 10, 60, "steps on the scoring track (points needed to win)"),
        Param.int("areas", 6, 4, 8, "sequence areas per player; the middle four are starred"),
    ],
    notes=[
        f"every space is at least {MIN_SIDE:g} mm across; the squares' mean side is capped "
        f"at {MAX_MEAN:g} mm, and a long track round a small field enlarges the field so "
        f"that each step is at least {MIN_STEP:g} mm long",
        "areas above 6 add experts' areas on both sides; the middle four are always starred",
    ],
)
