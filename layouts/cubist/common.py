"""What Cubist's two play aids share: the colours, sizes, text and line helpers.

The die's size and the least cell are in :mod:`papergames.layouts.cubist.params`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shapely.geometry import LineString

from papergames.fonts import text_width
from papergames.sheets.model import INKS, Feature, Kind, Layer, Style

COLOURS = ("red", "blue", "green", "yellow")
"""Board titles when no names are given, in turn."""


PAD = 4.0
"""Room in mm between the board's outline and what is inside it."""


GAP = 7.0
"""Gap in mm between the blocks of the board."""


CAPTION = 3.2
"""Em size of the block captions."""


CAPTION_ROOM = 5.5


NOTE = 2.5
"""Em size of the small notes under a caption."""


NAME_SIZE = 5.0


SUMMARY_SIZES = (3.0, 2.8, 2.6, 2.4, 2.2)


LEADING = 1.35


HEAVY_HALF = INKS[Style.HEAVY].stroke / 2


NOTE_LINE = 5.0
"""Room in mm for a one-line note under a box."""


COLUMN_MIN = 45.0
"""Least width in mm of the storeroom when it stands beside stacked workrooms."""


def fit_size(text: str, width: float, size: float, bold: bool = False) -> float:
    """The largest size up to ``size`` at which ``text`` fits in ``width`` mm."""
    return min(size, width / max(text_width(text, 1.0, bold), 1e-9))


def _line(ident: str, points: Sequence[tuple[float, float]], style: Style, **data: Any) -> Feature:
    return Feature(ident, Kind.LINE, LineString(points), style, Layer.FIELD, data=data)


def _ring(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]


Cell = tuple[int, int]
"""A cell of an installation grid: (row, column), 1-based, rows top to bottom as written."""
