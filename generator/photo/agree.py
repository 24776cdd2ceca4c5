"""Whether the print photographed is the sheet its QR code names.

The QR code is the only thing the reader is told about a sheet; everything else it knows by
making that sheet again. A code cut from another sheet and glued on, a sheet printed from one
seed with another seed's code, or a photocopy of a pack's key over a sheet would have the reader
judge a position on a sheet nobody played on, and perhaps call it consistent. So the print made
again is laid over the rectified photo, tile by tile: in each tile with print, the share of the
printed pixels that the photo shows dark. A tile of the right sheet shows nearly all of them
(pencil over a line only darkens it); a tile of another sheet shows only where the two prints
happen to cross. Tiles are matched on the black print where they have some, else on the light
print (Miro's and Arp's fields are printed mid grey).

Example:
    >>> import numpy as np
    >>> ink = np.ones((200, 200), dtype=np.float32)
    >>> ink[::20, :] = 0.0  # a ruled page
    >>> photo = np.repeat((ink * 230 + 20)[..., None], 3, axis=2).astype(np.uint8)
    >>> print_mismatch(photo, ink, 6.0)
    0.0
    >>> print_mismatch(np.roll(photo, 10, axis=0), ink, 6.0)  # the rules fall between
    1.0
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from papergames.photo.register import BLACK_PRINT, LIGHT_PRINT, darkening, grey

Floats = NDArray[np.float32]

TILE_MM = 20.0
"""Side of the tiles compared: a few lines in each, so a sheet of another seed differs in most."""
TILE_INK = 0.004
"""Share of a tile's pixels that must be print for the tile to be compared."""
TOLERANCE_MM = 0.4
"""How far a printed pixel may lie from where the photo shows it dark (what registration may
leave)."""
SHOWN = 0.5
"""Share of a tile's printed pixels the photo must show dark for the tile to agree."""
INKED_PERCENTILE = 99.5
"""Percentile of the photo's darkening taken as black ink's on this photo: every sheet has more
black print (markers, QR code, frames) than half a percent of its area."""
TILE_DARKEST = 98.0
"""Percentile of a tile's darkening taken as its darkest print's: a phone photo's focus falls
off across a tilted sheet, and thin lines in a blurred part darken half as much as in a sharp
one, so each tile is judged against its own darkest marks, whatever sheet they belong to."""
SEEN_LEVEL = 0.4
"""A pixel shows print when it is darkened by this share of its tile's darkest (less in a
blurred photo, see :data:`THIN_LINE_MM`)."""
THIN_LINE_MM = 0.3
SPREAD_WIDTHS = 2.5
"""A line :data:`THIN_LINE_MM` wide blurred by a spread of ``s`` keeps about
``THIN_LINE_MM / (2.5 s)`` of its darkness: the share by which :data:`SEEN_LEVEL` is lowered once
the blur is wider than the line."""
UNPRINTED_LEVEL = 0.8
"""A pixel darkened by this share of black ink's darkening or more is ink, not pencil (even a
heavy graphite hatching lets more light through)."""
UNPRINTED = 0.5
"""Share of a tile's ink that may lie away from the print before the tile disagrees."""
MISMATCH_MOST = 0.1
"""Share of compared tiles that may disagree before the print is called another sheet's. On the
bench's own photos of the right sheet (scans, phone and hard photos with a finger, a curl and a
shadow) at most 0.01 disagree; a sheet of another game disagrees in 0.8, and one of another seed
of the same game in 0.2 to 0.5, but for Vasarely's and Crossing the Rings' (0.02 to 0.07), whose
seeds move little of the print: such a mix-up is not caught."""


def print_mismatch(
    flat: NDArray[np.uint8], ink: Floats, px_per_mm: float, blur_px: float = 0.0
) -> float:
    """The share of the print's tiles that the photo does not show (0: all agree).

    Args:
        flat: the photo rectified onto the sheet, RGB.
        ink: the sheet as printed, at the same resolution: 1 for white paper, 0 for black ink.
        px_per_mm: their resolution.
        blur_px: the photo's blur (a Gaussian's spread) on the rectified page: a blurred thin
            line is wider and fainter, so it is looked for farther and at a lower darkening.
    """
    dark = darkening(grey(flat), px_per_mm)
    reach = max(1, round(TOLERANCE_MM * px_per_mm + blur_px))
    blur_mm = blur_px / px_per_mm
    seen_level = SEEN_LEVEL * min(1.0, THIN_LINE_MM / (SPREAD_WIDTHS * max(blur_mm, 1e-6)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    nearby = np.asarray(cv2.dilate(dark, kernel), dtype=np.float32)
    black = ink < BLACK_PRINT
    light = (ink < LIGHT_PRINT) & ~black
    inked = float(np.percentile(dark, INKED_PERCENTILE))
    explained = np.asarray(cv2.dilate((ink < LIGHT_PRINT).astype(np.uint8), kernel), dtype=bool)
    stray_ink = dark > UNPRINTED_LEVEL * inked
    side = max(8, round(TILE_MM * px_per_mm))
    least = TILE_INK * side * side
    compared = disagree = 0
    for top in range(0, ink.shape[0] - side // 2, side):
        for left in range(0, ink.shape[1] - side // 2, side):
            window = (slice(top, top + side), slice(left, left + side))
            for printed in (black[window], light[window]):
                if printed.sum() < least:
                    continue
                level = float(np.percentile(nearby[window], TILE_DARKEST))
                shown = float((nearby[window][printed] > seen_level * level).mean())
                found = stray_ink[window]
                unprinted = float((found & ~explained[window]).sum()) / max(1.0, found.sum())
                compared += 1
                disagree += int(shown < SHOWN or (found.sum() >= least and unprinted > UNPRINTED))
                break
    return float(disagree) / compared if compared else 0.0
