"""Crossing the Rings' parameters, the text form of its bounds and the limits its notes promise.

Kept apart from the plan and the drawing so that listing the games and completing a spec import
no geometry: :mod:`papergames.layouts.rings.plan` builds to these limits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from papergames.sheets.params import Param, ParamSet

MIN_WIDTH = 4.0
"""Least width in mm of a section, measured along its inner circle."""


END_GAP = 2.5
"""Least distance in mm between cut ends of neighbouring rings that lie on the same circle."""


CAPS_A4: Mapping[int, tuple[tuple[int, int], ...]] = {
    6: (),
    12: ((7, 77), (8, 88), (9, 99), (10, 110), (11, 121)),
}
"""The rings whose default ``max`` the :data:`MIN_WIDTH` cap lowers, for 6 and 12 circles:
circles -> (ring, most sections) pairs. Computed on A4 portrait from the plan with the other
parameters at their defaults (:func:`papergames.layouts.rings.sheet.capped_rings`, which a test
checks against these); the notes quote them."""


BOUND_HINT = "a whole number, m, <k>m (like 2m), m+<k> (like m+3) or 2^m"


def parse_bound(text: str) -> str:
    """Parse a bound on a ring's section count into its canonical text.

    ``m`` stands for the ring's number counted from the centre. Accepted: a whole number ``5``,
    ``m``, ``2m``, ``m+3`` and ``2^m``.

    Example:
        >>> parse_bound("2M"), parse_bound("m+0"), parse_bound(" 2^m ")
        ('2m', 'm', '2^m')
    """
    form = text.strip().lower().replace(" ", "")
    if re.fullmatch(r"[0-9]+", form):
        value = int(form)
        if not 1 <= value <= 9999:
            raise ValueError("a fixed count must lie between 1 and 9999")
        return str(value)
    if form in ("m", "2^m"):
        return form
    match = re.fullmatch(r"([0-9]+)\*?m", form)
    if match:
        factor = int(match.group(1))
        if not 1 <= factor <= 99:
            raise ValueError("the factor before m must lie between 1 and 99")
        return "m" if factor == 1 else f"{factor}m"
    match = re.fullmatch(r"m\+([0-9]+)", form)
    if match:
        extra = int(match.group(1))
        if extra > 999:
            raise ValueError("the number added to m must be at most 999")
        return "m" if extra == 0 else f"m+{extra}"
    raise ValueError(f"'{text}' is not one of these forms")


def caps_note(circles: int, capped: Sequence[tuple[int, int]]) -> str:
    """The note naming the rings of ``circles`` circles that the width cap holds on A4.

    Example:
        >>> caps_note(6, ())
        'circles=6 on A4: no ring is capped, every ring can reach max'
        >>> caps_note(9, [(7, 77), (8, 88)])
        'circles=9 on A4: rings 7..8 are capped at 77, 88 sections (each section at least 4 mm ...)'
    """
    if not capped:
        return f"circles={circles} on A4: no ring is capped, every ring can reach max"
    first, last = capped[0][0], capped[-1][0]
    counts = ", ".join(str(c) for _, c in capped)
    return (
        f"circles={circles} on A4: rings {first}..{last} are capped at {counts} sections "
        f"(each section at least {MIN_WIDTH:.0f} mm wide along its inner circle)"
    )


@dataclass(frozen=True)
class RingsParams:
    """The sheet's parameters, typed (see :data:`PARAMS`); ``min`` and ``max`` are bound forms."""

    circles: int
    min: str
    max: str
    rounds: int
    labels: bool
    players: int
    centre: bool


PARAMS = ParamSet(
    [
        Param.int("circles", 6, 3, 12, "number of concentric circles"),
        Param.text("min", "m", parse_bound, BOUND_HINT, "fewest sections in ring m"),
        Param.text("max", "2^m", parse_bound, BOUND_HINT, "most sections in ring m"),
        Param.int("rounds", 1, 1, 12, "rounds, one page each with its own division"),
        Param.bool("labels", True, "print the names of the cut ends"),
        Param.int("players", 2, 2, 6, "score rows on each page"),
        Param.bool("centre", False, "the centre disk is a section too"),
    ],
    notes=[
        caps_note(6, CAPS_A4[6]),
        caps_note(12, CAPS_A4[12]),
        f"cut ends of neighbouring rings stay {END_GAP} mm apart on their shared circle, "
        "which can hold a ring below its capped maximum when the ring inside is crowded",
        "labels are always level and clear of the lines; from about 7 circles, where they "
        "are at their least size (7 pt), the cuts are spaced a label apart, so a crowded "
        "sheet has fewer, wider sections; labels=off drops that spacing with the labels",
        "without centre=on the centre disk is hatched: it is not a section",
    ],
)
