"""Mondrian's parameters and the limits its notes promise.

Kept apart from the field's geometry so that listing the games and completing a spec import
no shapely: :mod:`papergames.layouts.mondrian.partition` grows the field to these limits.
"""

from __future__ import annotations

from dataclasses import dataclass

from papergames.sheets.params import Param, ParamSet

MIN_SIDE = 2
"""Least width of a space in lattice cells (no slivers)."""


MAX_RATIO = 3.0
"""Longest over shortest side of a rectangle the fill aims for: longer ones read as stripes."""


SLIVER_RATIO = 4.0
"""Longest over shortest side any rectangle (or part of an L) may have on the finished field;
the greedy fill may exceed :data:`MAX_RATIO` when nothing else fits a corner."""


MIN_SPACE_MM = 8.0
"""Least width of a space in mm: thinner ones are hard to colour in with a pencil."""


POINTS = 80
"""Tally boxes in each score area by default: the book's end of the game."""
MINI_POINTS = 50
"""Tally boxes by default on the 13-space mini-field, where 80 could never be filled: no player
scored more than 31 in 900 random games of 2 to 4 players, and the smaller areas leave the field
room enough to print two sheets to a page."""


@dataclass(frozen=True)
class MondrianParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    field: str
    spaces: int
    points: int
    tints: bool


PARAMS = ParamSet(
    [
        Param.choice(
            "field", "book", ("book", "mini"), "the random field or the book's mini-field"
        ),
        Param.int("spaces", 99, 30, 160, "spaces on the random field"),
        Param.int(
            "points",
            POINTS,
            10,
            160,
            f"tally boxes in each score area ({MINI_POINTS} on field=mini)",
        ),
        Param.bool("tints", False, "tint a few spaces lightly, for show only"),
    ],
    notes=[
        f"spaces are at least {MIN_SIDE} lattice cells and {MIN_SPACE_MM:.0f} mm wide; "
        f"rectangles are at most {SLIVER_RATIO:g} times as long as wide (the fill aims "
        f"for {MAX_RATIO:g}); every default field has at least 7 L-shapes and 3 pinwheels "
        "and no straight line across it",
        "field=mini is the book's fixed 13-space illustration, lettered A to M; the seed "
        "changes only its tint",
    ],
)
