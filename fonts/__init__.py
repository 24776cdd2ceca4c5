"""The bundled font (DejaVu Sans, see LICENSE-DejaVu.txt) and text measurement.

Text widths come from the font's own advance widths without kerning, which is also how the PDF
renderer sets text, so a layout can measure a label before it places it.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

FAMILY = "DejaVu Sans"
FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


def font_path(bold: bool = False) -> Path:
    """The file of the regular or bold face."""
    return Path(str(resources.files(__name__).joinpath(FILES[bold])))


def font_bytes(bold: bool = False) -> bytes:
    return resources.files(__name__).joinpath(FILES[bold]).read_bytes()


@cache
def _metrics(bold: bool) -> tuple[dict[int, float], float]:
    from fontTools.ttLib import TTFont

    font = TTFont(font_path(bold), lazy=True)
    units = float(font["head"].unitsPerEm)
    hmtx = font["hmtx"].metrics
    cmap = font.getBestCmap()
    widths = {code: hmtx[glyph][0] / units for code, glyph in cmap.items()}
    missing = hmtx[".notdef"][0] / units
    font.close()
    return widths, missing


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of ``text`` set at ``size`` (em, any unit), in that unit."""
    widths, missing = _metrics(bold)
    return size * sum(widths.get(ord(ch), missing) for ch in text)


ASCENT = 0.76
"""Height of capitals above the baseline, as a fraction of the em (DejaVu Sans: 0.729)."""
DESCENT = 0.24
"""Depth of descenders below the baseline, as a fraction of the em."""


def wrap_text(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Break a paragraph into lines no wider than ``width`` (mm) when set at ``size``.

    Example:
        >>> wrap_text("one two three", 16.0, 3.5)
        ['one two', 'three']
    """
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if current and text_width(trial, size, bold) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines
