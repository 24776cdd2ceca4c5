"""Paper sizes and unit conversions.

Everything inside papergames is in millimetres with y growing down the page; conversion to
points or pixels happens only in the renderers, through the helpers here.
"""

from __future__ import annotations

from dataclasses import dataclass

MM_PER_INCH = 25.4
PT_PER_MM = 72.0 / MM_PER_INCH


@dataclass(frozen=True)
class Paper:
    """A paper size in portrait orientation, in millimetres."""

    name: str
    width: float
    height: float

    def size(self, landscape: bool) -> tuple[float, float]:
        """Return (width, height) for the given orientation."""
        return (self.height, self.width) if landscape else (self.width, self.height)


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", 210.0, 297.0),
    "letter": Paper("letter", 215.9, 279.4),
    "a3": Paper("a3", 297.0, 420.0),
    "a5": Paper("a5", 148.0, 210.0),
    "a6": Paper("a6", 105.0, 148.0),
    "half-letter": Paper("half-letter", 139.7, 215.9),
    "quarter-letter": Paper("quarter-letter", 107.95, 139.7),
}
"""Paper sizes by the name a spec uses; the small ones are the cells of 2-up and 4-up pages."""


def mm_to_pt(value: float) -> float:
    """Convert millimetres to PostScript points."""
    return value * PT_PER_MM


def mm_to_px(value: float, dpi: float) -> float:
    """Convert millimetres to pixels at ``dpi``."""
    return value * dpi / MM_PER_INCH
