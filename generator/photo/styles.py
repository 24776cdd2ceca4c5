"""Which line style a photographed sheet was printed in.

Miro's and Arp's traced lines were first printed as one mid-grey stroke; they are now printed as
two rules with white paper between them (:data:`papergames.model.INKS`), so that the pencil
traced along them lies on white even after a photocopier has printed the rules nearly black. The
QR code names the sheet, not the style, and sheets of both kinds are in classrooms; so the reader
looks at the lines of the photo. Where the two prints differ they differ plainly: the old stroke
darkens the line's middle, where the new channel is white, and the new rules darken its edges,
where the old print left paper. Pencil traced along a line darkens its middle and edges alike,
and less than black toner, so it does not tip the choice. An old print is then made again in its
own style and read as such.

Example:
    >>> from papergames import SheetSpec, make_sheet
    >>> page = make_sheet(SheetSpec.create("miro", seed=2)).page
    >>> [f.style.value for f in first_printed(page).features() if f.kind.value == "segment"][:2]
    ['trace-grey', 'trace-grey']
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
from numpy.typing import NDArray
from shapely.geometry import LineString

from papergames.geometry import iter_lines
from papergames.model import Feature, Item, Page, Style
from papergames.photo.register import grey

Floats = NDArray[np.float32]

FIRST_STYLES = {Style.TRACE: Style.TRACE_GREY}
"""Line styles whose look changed, with the style sheets were first printed in."""
MIDDLE_MM = 0.1
"""Half width of the strip down a line's middle that is compared."""
EDGE_MM = (0.45, 0.65)
"""Distances from a line's middle between which the rules are compared (where the current
style prints its rules and the first left paper)."""
WINDOW_MARGIN_MM = 5.0
"""Room kept round the lines when the photo is cut down to them."""
LEAST_PIXELS = 200
"""Fewest pixels on each side of the comparison for it to decide anything."""


def restyled(page: Page) -> bool:
    """Whether the page has print whose style changed since sheets were first printed."""
    return any(isinstance(i, Feature) and i.style in FIRST_STYLES for i in page.items)


def first_printed(page: Page) -> Page:
    """The page as it was printed before its line styles changed."""
    items: list[Item] = [
        dataclasses.replace(item, style=FIRST_STYLES[item.style])
        if isinstance(item, Feature) and item.style in FIRST_STYLES
        else item
        for item in page.items
    ]
    return dataclasses.replace(page, items=items)


def shows_first_style(flat: NDArray[np.uint8], page: Page, ink: Floats, px_per_mm: float) -> bool:
    """Whether the rectified photo ``flat`` shows ``page`` printed in its first style, its
    restyled lines as one grey stroke rather than as two rules (``ink``: the page made again in
    the current style at the photo's resolution, 1 paper .. 0 black).

    The photo's grey down the lines' middles is compared with that along their rules: the
    print photographed is darker where it put its ink (the two lie half a millimetre apart, so
    the light falls alike on both). When there are too few pixels to
    compare, the current style is kept.
    """
    lines = [
        line
        for item in page.items
        if isinstance(item, Feature) and item.style in FIRST_STYLES
        for line in iter_lines(item.geometry)
    ]
    if not lines:
        return False
    window = _window(lines, ink.shape, px_per_mm)
    top, left = window[0].start, window[1].start
    near = ink[window]
    bands = [np.zeros(near.shape, dtype=np.uint8) for _ in range(3)]
    for line in lines:
        points = np.asarray(line.coords, dtype=np.float64)[:, :2] * px_per_mm - 0.5
        fixed = np.round((points - (left, top)) * 16).astype(np.int32)
        for band, reach in zip(bands, (MIDDLE_MM, *EDGE_MM), strict=True):
            width = max(1, round(2 * reach * px_per_mm))
            cv2.polylines(band, [fixed], False, 1, width, cv2.LINE_8, 4)
    middle, inner, outer = (band > 0 for band in bands)
    centre = middle & (near > 0.9)
    rules = outer & ~inner & (near < 0.5)
    if int(centre.sum()) < LEAST_PIXELS or int(rules.sum()) < LEAST_PIXELS:
        return False
    seen = grey(flat[window])
    return float(np.median(seen[centre])) < float(np.median(seen[rules]))


def _window(
    lines: list[LineString], shape: tuple[int, ...], px_per_mm: float
) -> tuple[slice, slice]:
    """The pixels round the lines, with room for the paper's white to be found beside them."""
    x0 = min(line.bounds[0] for line in lines) - WINDOW_MARGIN_MM
    y0 = min(line.bounds[1] for line in lines) - WINDOW_MARGIN_MM
    x1 = max(line.bounds[2] for line in lines) + WINDOW_MARGIN_MM
    y1 = max(line.bounds[3] for line in lines) + WINDOW_MARGIN_MM
    rows = slice(max(0, int(y0 * px_per_mm)), min(shape[0], int(y1 * px_per_mm) + 1))
    cols = slice(max(0, int(x0 * px_per_mm)), min(shape[1], int(x1 * px_per_mm) + 1))
    return rows, cols
