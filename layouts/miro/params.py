"""Miro's parameters and the counts its notes give, which follow from them by arithmetic.

Kept apart from the line's geometry so that listing the games and completing a spec import
no shapely: :mod:`papergames.layouts.miro.sheet` draws the line to these counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from papergames.sheets.params import Param, ParamSet


def counts(crossings: int, triples: int) -> tuple[int, int, int]:
    """(crossing points, segments, spaces) of a line with these double and triple crossings.

    Example:
        >>> counts(94, 7)
        (101, 209, 109)
    """
    points = crossings + triples
    segments = 2 * crossings + 3 * triples
    return points, segments, segments - points + 1


def tally_boxes(segments: int) -> int:
    """Tally boxes in each of the four score areas.

    A captured space scores one point per segment of the capturer's colour around it, so each
    segment scores at most once for each of its two sides: the field can give at most
    2 * segments points, and the four areas together hold that many.
    """
    return math.ceil(2 * segments / 4)


@dataclass(frozen=True)
class MiroParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    crossings: int
    triples: int


def _notes() -> list[str]:
    """The notes under the parameters, their numbers counted for the defaults."""
    points, segments, spaces = counts(94, 7)
    return [
        f"the defaults give the book's field: {points} crossing points, {segments} segments, "
        f"{spaces} spaces",
        "segments = 2 * crossings + 3 * triples, spaces = crossings + 2 * triples + 1",
        f"each score area holds segments / 2 tally boxes, rounded up ({tally_boxes(segments)} "
        "by default): the four areas hold every point the field can give",
        "a mini-field for a short game: crossings=8 triples=1 (11 spaces, 19 segments)",
    ]


PARAMS = ParamSet(
    [
        Param.int("crossings", 94, 3, 120, "points where two strands of the line cross"),
        Param.int("triples", 7, 0, 10, "points where three strands of the line cross"),
    ],
    notes=_notes(),
)
