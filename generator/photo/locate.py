"""Finding the sheet in a photo: its corner markers, its QR code, and the map from page to pixels.

The four corner markers are ArUco markers with one id per corner (:mod:`papergames.sheets.aruco`),
so each one found gives four known points of the page, the right way up, whatever way the photo was
taken. Two markers are enough for a perspective map; a hand over the other two still leaves the
sheet readable. The QR code is read from the photo as it is and, if that fails, again from the
rectified page, where it is square and sharp.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np
import zxingcpp
from numpy.typing import NDArray

from papergames.sheets.aruco import CORNER_IDS

Points = NDArray[np.float64]
"""An (n, 2) array of points."""

QR_ONLY = zxingcpp.barcode_formats_from_str("QRCode")
CORNER_BY_ID = {marker_id: corner for corner, marker_id in CORNER_IDS.items()}


@dataclass(frozen=True)
class Markers:
    """The corner markers found in a photo.

    Attributes:
        corners: for each corner name found, the marker's four corners in pixels, clockwise from
            the marker's own top left.
    """

    corners: Mapping[str, Points]

    @property
    def missing(self) -> list[str]:
        """The corners whose marker was not found, in clockwise order."""
        return [c for c in CORNER_IDS if c not in self.corners]

    def side_px(self) -> float:
        """The median side of the found markers in pixels (how large the sheet is in the photo)."""
        sides = [
            float(np.linalg.norm(quad[k] - quad[(k + 1) % 4]))
            for quad in self.corners.values()
            for k in range(4)
        ]
        return float(np.median(sides)) if sides else 0.0


def find_markers(pixels: NDArray[np.uint8]) -> Markers:
    """The papergames corner markers in an RGB image (other ArUco ids are ignored).

    A corner missed on the photo as it is is looked for again on the photo brightened and
    smoothed (:func:`_second_look`): see there why a dim photo hides markers.
    """
    grey = np.asarray(cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY), dtype=np.uint8)
    found = _detected(grey)
    if len(found) < len(CORNER_IDS):
        again = _second_look(grey)
        if again is not None:
            for corner, quad in _detected(again).items():
                found.setdefault(corner, quad)
    return Markers(found)


def _detected(grey: NDArray[np.uint8]) -> dict[str, Points]:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(dictionary, parameters)
    quads, ids, _ = detector.detectMarkers(grey)
    found: dict[str, Points] = {}
    if ids is not None:
        for quad, marker_id in zip(quads, ids.ravel().tolist(), strict=True):
            corner = CORNER_BY_ID.get(int(marker_id))
            if corner is not None and corner not in found:
                found[corner] = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    return found


PAPER_PERCENTILE = 99.0
"""Percentile of a photo's grey levels taken as its paper's white."""
DIM_WHITE = 200.0
"""Paper's white under which a photo is dim enough for a second look."""
NOISE_PX = 1.0
"""Spread of the smoothing that quiets a dim photo's noise, in pixels: far finer than a marker's
cells, which are a sixth of a marker some 40 pixels across or more."""


def _second_look(grey: NDArray[np.uint8]) -> NDArray[np.uint8] | None:
    """A dim photo brightened until its paper is white and smoothed over a pixel, or ``None`` for
    a photo that is not dim.

    ArUco finds a marker's square as the pixels some grey levels (7) darker than the mean of a
    window around them. Inside a marker's black border, wider than most windows, that mean is
    nearly black, and only the paper at the window's edge lifts it: by a few levels on a dim
    photo whose paper is a quarter of white, no more than the noise, so the border breaks up
    and the square is never closed. Brightened, the paper lifts the mean as on a well-lit photo;
    smoothed, the noise no longer breaks the border.
    """
    white = float(np.percentile(grey[::4, ::4], PAPER_PERCENTILE))
    if white >= DIM_WHITE:
        return None
    brighter = cv2.convertScaleAbs(grey, alpha=255.0 / max(white, 1.0))
    return np.asarray(cv2.GaussianBlur(brighter, (0, 0), NOISE_PX), dtype=np.uint8)


def page_to_photo(
    markers: Markers, boxes: Mapping[str, tuple[float, float, float, float]]
) -> NDArray[np.float64] | None:
    """The perspective map from page millimetres to photo pixels, or ``None`` with too few markers.

    Args:
        markers: the markers found in the photo.
        boxes: each corner marker's square on the page, ``(x0, y0, x1, y1)`` in mm.
    """
    if len(markers.corners) < 2:
        return None
    page: list[tuple[float, float]] = []
    photo: list[Points] = []
    for corner, quad in markers.corners.items():
        x0, y0, x1, y1 = boxes[corner]
        page += [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        photo.append(quad)
    matrix, _ = cv2.findHomography(
        np.asarray(page, dtype=np.float64), np.concatenate(photo), method=0
    )
    return None if matrix is None else np.asarray(matrix, dtype=np.float64)


def read_qr(pixels: NDArray[np.uint8]) -> str | None:
    """The text of the first QR code found in an RGB image, if any can be read."""
    grey = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY)
    for found in zxingcpp.read_barcodes(grey, formats=QR_ONLY):
        if found.valid and found.text:
            return str(found.text)
    return None
