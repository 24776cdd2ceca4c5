"""The bundled font (DejaVu Sans, see LICENSE-DejaVu.txt) and text measurement.

Text widths come from the font's own advance widths without kerning, which is also how the PDF
renderer sets text, so a layout can measure a label before it places it.
"""

from __future__ import annotations

import threading
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont

FAMILY = "DejaVu Sans"
FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


def font_path(bold: bool = False) -> Path:
    """The file of the regular or bold face."""
    return Path(str(resources.files(__name__).joinpath(FILES[bold])))


def font_bytes(bold: bool = False) -> bytes:
    return resources.files(__name__).joinpath(FILES[bold]).read_bytes()


EM = 2048
"""The bundled faces' units per em: at this size in pixels, FreeType gives each advance width in
the font's own units, exactly as the font's metrics table holds it."""


@cache
def _face(bold: bool) -> FreeTypeFont:
    from PIL import ImageFont

    return ImageFont.truetype(str(font_path(bold)), EM, layout_engine=ImageFont.Layout.BASIC)


_WIDTHS: dict[bool, dict[str, float]] = {False: {}, True: {}}
"""Each character's advance width in em, per face, as far as it has been asked for."""
_ASKING = threading.Lock()
"""One thread at a time asks FreeType (a face is not to be used by two at once)."""


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of ``text`` set at ``size`` (em, any unit), in that unit.

    Each character's advance is asked of FreeType the first time it is measured: a character
    the font lacks takes the width of the font's missing-glyph box, as a PDF viewer shows it.
    Reading the font's whole metrics table instead took a twentieth of a second on every start.

    Example:
        >>> text_width("Arp", 10.0) == text_width("A", 10.0) + text_width("rp", 10.0)
        True
    """
    widths = _WIDTHS[bold]
    total = 0.0
    for character in text:
        width = widths.get(character)
        if width is None:
            with _ASKING:
                width = widths[character] = _face(bold).getlength(character) / EM
        total += width
    return size * total


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
