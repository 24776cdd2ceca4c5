"""The reader's reading drawn over the rectified photo, for a person to check at a glance."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry

from papergames.photo.items import read_items
from papergames.photo.read import PageReading
from papergames.sheets.geometry import iter_polygons


def debug_image(reading: PageReading, scale: float = 1.0) -> Image.Image:
    """The rectified page with every item outlined in the colour read, for checking by eye.

    Areas and boxes are outlined, lines drawn over, in the colour learnt for what they carry;
    empty items get a thin grey outline; low-confidence items a thick magenta ring and a ``?``.

    Raises:
        ValueError: for a reading that did not get as far as the rectified page (a retake).
    """
    if reading.rectified is None or reading.page is None or reading.spec is None:
        raise ValueError("a retake has no rectified page to draw on")
    canvas = (reading.rectified.astype(np.float32) * 0.55 + 255 * 0.45).astype(np.uint8)
    items = {item.id: item for item in read_items(reading.page, reading.spec.game)}
    s = reading.px_per_mm
    for found in reading.items:
        item = items.get(found.id)
        if item is None:
            continue
        colour = reading.colours.get(found.colour, (0, 0, 0)) if found.colour else (150,) * 3
        width = 3 if found.colour else 1
        for points, closed in _outlines(item.geometry):
            pixels = np.round(points * s * 16 - 8).astype(np.int32)
            cv2.polylines(
                canvas, [pixels], closed, colour, width + 2 * (not closed), cv2.LINE_AA, 4
            )
        if found.low:
            x, y = item.geometry.representative_point().coords[0]
            centre = (round(x * s), round(y * s))
            cv2.circle(canvas, centre, round(2.5 * s), (230, 0, 200), 3, cv2.LINE_AA)
            cv2.putText(
                canvas,
                "?",
                (centre[0] - round(s), centre[1] + round(s)),
                cv2.FONT_HERSHEY_SIMPLEX,
                s / 8,
                (230, 0, 200),
                2,
                cv2.LINE_AA,
            )
    image = Image.fromarray(canvas)
    if scale != 1.0:
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.Resampling.LANCZOS)
    return image


def _outlines(shape: BaseGeometry) -> list[tuple[NDArray[np.float64], bool]]:
    """The polylines that draw a shape: each polygon's rings (closed), or a line (open)."""
    if isinstance(shape, LineString):
        return [(np.asarray(shape.coords, dtype=np.float64), False)]
    return [
        (np.asarray(ring.coords, dtype=np.float64), True)
        for polygon in iter_polygons(shape)
        for ring in (polygon.exterior, *polygon.interiors)
    ]
