"""Which line style a photographed sheet was printed in.

Miro's and Arp's traced lines were first printed as one mid-grey stroke; they are now printed as
two rules with white paper between them (:data:`papergames.sheets.model.INKS`), so that the pencil
traced along them lies on white even after a photocopier has printed the rules nearly black. The
QR code names the sheet, not the style, and sheets of both kinds are in classrooms; so the reader
looks at the lines of the photo: the old stroke darkens a line's middle, where the new channel is
white, and the new rules darken its edges, where the old print left paper. Pencil traced along a
line darkens a band round its middle in either style, so it is fitted as a pattern of its own
(:func:`fit_styles`). An old print is then made again in its own style and read as such.

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

from papergames.photo.register import darkening, grey
from papergames.photo.sample import to_pixels
from papergames.sheets.geometry import iter_lines
from papergames.sheets.model import FIRST_PRINTED, INKS, Feature, Item, Page, Style

Floats = NDArray[np.float32]

TRACE_MM = 1.5
"""Width of the band a pencil trace is taken to cover along a line."""
ROUND_MM = 1.2
"""How far from a line's middle the photo is compared with the prints."""
WINDOW_MARGIN_MM = 5.0
"""Room kept round the lines when the photo is cut down to them."""
FIRST_MARGIN = 1.5
"""How many times the current print's share the first print's must be for the photo to be
taken as the first print, once the page is registered on the print. On the bench's photos of
old prints it is twice or more (often the current print takes none); on blurred, steep photos
of new prints, as much as the same."""
PLAIN_MARGIN = 2.0
"""The same, for the look at the page as the corner markers lay it, before it is registered:
there a curl or a blur lets a new print's blurred rules pass for a grey stroke (1.5 to 1.8
times the current print's share on five of 79 hard bench photos of new prints), so only a
plainer answer is taken without the second look."""
PLAIN_SHARE = 0.2
"""Least share of the first print for the unregistered look to be taken without the second:
on hard photos of either print both shares can be near nothing."""
LEAST_PIXELS = 500
"""Fewest pixels round the lines for the comparison to decide anything."""


def restyled(page: Page) -> bool:
    """Whether the page has print whose style changed since sheets were first printed."""
    return any(isinstance(i, Feature) and i.style in FIRST_PRINTED for i in page.items)


def first_printed(page: Page) -> Page:
    """The page as it was printed before its line styles changed."""
    items: list[Item] = [
        dataclasses.replace(item, style=FIRST_PRINTED[item.style])
        if isinstance(item, Feature) and item.style in FIRST_PRINTED
        else item
        for item in page.items
    ]
    return dataclasses.replace(page, items=items)


@dataclasses.dataclass(frozen=True)
class StyleFit:
    """How much of the darkening round a photo's lines each print explains
    (:func:`fit_styles`).

    Attributes:
        now: the share of the current print (two rules).
        first: the share of the first print (one grey stroke down the middle).
    """

    now: float
    first: float

    def plainly_first(self) -> bool:
        """Whether the first print is taken from a look at the page before it is registered:
        only when its share is plain (:data:`PLAIN_MARGIN`, :data:`PLAIN_SHARE`).

        Example:
            >>> StyleFit(now=-0.1, first=0.6).plainly_first()
            True
            >>> StyleFit(now=0.33, first=0.6).plainly_first(), StyleFit(-0.05, 0.01).plainly_first()
            (False, False)
        """
        return self.first >= PLAIN_SHARE and self.first > PLAIN_MARGIN * max(self.now, 0.0)

    def first_style(self) -> bool:
        """Whether the page, registered on the current print, shows the first print: its share
        plainly the larger (:data:`FIRST_MARGIN`), or the current print's below nothing and
        the first's above it. On a registered page the two rules darken the photo wherever
        they are printed, so a share below nothing says they are not there; a dim, blurred
        photo with pencil down every line can leave the grey stroke's share below nothing
        too, and then the print less contradicted is taken.

        Example:
            >>> StyleFit(now=0.3, first=0.6).first_style(), StyleFit(-0.43, -0.14).first_style()
            (True, True)
            >>> StyleFit(now=0.5, first=0.6).first_style(), StyleFit(-0.14, -0.7).first_style()
            (False, False)
        """
        if self.now < 0.0 and self.first > self.now:
            return True
        return self.first > 0.0 and self.first > FIRST_MARGIN * max(self.now, 0.0)


def fit_styles(
    flat: NDArray[np.uint8], page: Page, ink: Floats, px_per_mm: float, blur_px: float
) -> StyleFit | None:
    """How far the rectified photo ``flat`` shows ``page`` printed in its first style, its
    restyled lines as one grey stroke rather than as two rules (``ink``: the page made again in
    the current style at the photo's resolution, 1 paper .. 0 black; ``blur_px``: the photo's
    blur as a Gaussian spread). ``None`` when the page has no restyled lines or too few pixels
    lie round them to tell.

    Round the lines, the photo's darkening is fitted as the sum of three patterns, each blurred
    as the photo is: the current print (two rules), the first print (one grey stroke down the
    middle) and a pencil trace (a band 1.5 mm wide down the middle, however it was coloured).
    Pencil, which darkens a line's middle in either style, goes to the third pattern, not to the
    first print, even on a blurred photo of a sheet traced throughout, where the thin rules are
    faint beside the pencil.
    """
    lines = [
        line
        for item in page.items
        if isinstance(item, Feature) and item.style in FIRST_PRINTED
        for line in iter_lines(item.geometry)
    ]
    if not lines:
        return None
    window = _window(lines, ink.shape, px_per_mm)
    top, left = window[0].start, window[1].start
    first_ink = INKS[Style.TRACE_GREY]
    masks = [np.zeros(ink[window].shape, dtype=np.uint8) for _ in range(3)]
    for line in lines:
        fixed = to_pixels(line.coords, px_per_mm, (left, top))
        for mask, width_mm in zip(masks, (first_ink.stroke, TRACE_MM, 2 * ROUND_MM), strict=True):
            width = max(1, round(width_mm * px_per_mm))
            cv2.polylines(mask, [fixed], False, 1, width, cv2.LINE_8, 4)
    first_mask, trace_mask, zone_mask = masks
    zone = zone_mask > 0
    if int(zone.sum()) < LEAST_PIXELS:
        return None
    sigma = max(0.5, blur_px)
    now = 1.0 - ink[window]
    first = first_mask.astype(np.float32) * (1.0 - first_ink.stroke_grey)
    trace = trace_mask.astype(np.float32)
    columns = [cv2.GaussianBlur(p, (0, 0), sigma)[zone] for p in (now, first, trace)]
    design = np.column_stack([np.ones(int(zone.sum()), dtype=np.float32), *columns])
    dark = darkening(grey(flat[window]), px_per_mm)[zone]
    weights, *_ = np.linalg.lstsq(design, dark, rcond=None)
    return StyleFit(now=float(weights[1]), first=float(weights[2]))


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
