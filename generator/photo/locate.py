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
    """The papergames corner markers in an RGB image (other ArUco ids are ignored)."""
    grey = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY)
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
    return Markers(found)


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
