"""Arp's parameters and the limits its notes promise.

Kept apart from the field's geometry so that listing the games and completing a spec import
no shapely: :mod:`papergames.layouts.arp.field` builds to these limits.
"""

from __future__ import annotations

from dataclasses import dataclass

from papergames.sheets.params import Param, ParamSet

MIN_ANGLE = 20.0
"""Least angle in degrees at which two lines may meet (crossing or T-junction)."""


MIN_AREA = 60.0
"""Least area of a space in mm^2: room to fill with a pencil."""


MIN_WIDTH = 5.0
"""Least width of a space in mm (the narrowest strip that holds it): no slivers."""


MAX_K = 4
"""Most lines one chord may cross: long chords through many spaces make hatching, not Arp."""


@dataclass(frozen=True)
class ArpParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    lines: int
    spaces: int


PARAMS = ParamSet(
    [
        Param.int("lines", 25, 4, 32, "straight lines in the field"),
        Param.int("spaces", 55, 2, 81, "spaces the lines form (see notes for the range)"),
    ],
    notes=[
        f"lines meet at {MIN_ANGLE:.0f} degrees or more; every space has at least "
        f"{MIN_AREA:.0f} mm2 and is {MIN_WIDTH:.0f} mm wide; a line crosses at most {MAX_K} "
        "others, and at most 2 on average, which caps the spaces for a given number of "
        "lines (validate names the range)",
        "each score area holds one tally box per space; on A5 paper the four areas leave too "
        "little room for the field unless spaces is small",
    ],
)
