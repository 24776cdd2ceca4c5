"""A corner marker hidden under a thumb on a steep, curled photo: the print places it again."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from papergames.photo.camera import TIERS, photograph
from papergames.photo.image import images_from_bytes
from papergames.photo.locate import find_markers
from papergames.photo.read import read_page
from papergames.photo.synthetic import finished_sheet
from papergames.sheets.spec import SheetSpec


def _hard_photo_with_a_corner_hidden(
    spec: str, seed: int, qr_of: str | None = None
) -> tuple[np.ndarray, dict[str, str | None]]:
    rng = np.random.default_rng(seed)
    other = SheetSpec.parse(qr_of) if qr_of is not None else None
    sheet = finished_sheet(SheetSpec.parse(spec), rng, qr_of=other)
    photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS["hard"], rng)
    pixels = images_from_bytes(photo.data, "hard.jpg")[0].pixels.copy()
    quad = find_markers(pixels).corners["tl"]
    centre = quad.mean(axis=0)
    side = float(np.linalg.norm(quad[1] - quad[0]))
    thumb = (150, 110, 95)
    cv2.circle(pixels, (int(centre[0]), int(centre[1])), int(side * 1.1), thumb, -1)
    return pixels, sheet.truth


@pytest.mark.parametrize("seed", [1, 6])
def test_a_sheet_with_a_corner_under_a_thumb_reads_as_with_all_four(seed: int) -> None:
    pixels, truth = _hard_photo_with_a_corner_hidden(f"mondrian seed={seed}", seed)
    assert "tl" not in find_markers(pixels).corners
    reading = read_page(pixels, "hard.jpg")
    assert reading.retake is None
    right = sum(truth.get(item.id) == item.colour for item in reading.items)
    assert right >= 0.99 * len(reading.items)


def test_another_sheets_print_with_a_corner_under_a_thumb_is_still_refused() -> None:
    pixels, _ = _hard_photo_with_a_corner_hidden("mondrian seed=3", 3, qr_of="mondrian seed=4")
    reading = read_page(pixels, "hard.jpg")
    assert reading.retake is not None and "does not match" in reading.retake
