"""A sheet curled by several millimetres round a tally grid: the grid is read where it lies.

Where a curl moves the middle of the page 3-4 mm from where the corner markers put it, the
reader's 16 mm tiles cannot follow: they lock onto a tally grid's neighbouring cell, and the
grid was read half a cell off, its printed rules taken for ticks (a rephotographed Miro sheet
of the independent set lost 85 boxes so). Larger tiles find the move first
(:func:`papergames.photo.register.coarse_shifts`).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest
from shapely.ops import unary_union

import papergames.photo.register as register_module
from papergames.photo.camera import TIERS, photograph
from papergames.photo.image import images_from_bytes
from papergames.photo.items import read_items
from papergames.photo.locate import find_markers, page_to_photo
from papergames.photo.read import read_page
from papergames.photo.register import coarse_shifts, rectify
from papergames.photo.sample import printed, read_px_per_mm
from papergames.photo.synthetic import FinishedSheet, finished_sheet
from papergames.sheets.compose import marker_boxes
from papergames.sheets.spec import SheetSpec

GRID = "box-tally1-"


def _moved_round(sheet: FinishedSheet, centre: tuple[float, float], lift_mm: float) -> Any:
    """The sheet's pixels with the paper round ``centre`` (mm) moved diagonally by up to
    ``lift_mm``, falling off as a Gaussian of 30 mm: a curl the markers do not see."""
    scale = sheet.px_per_mm
    height, width = sheet.pixels.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    far = ((xs / scale - centre[0]) ** 2 + (ys / scale - centre[1]) ** 2) / (2 * 30.0**2)
    move = (np.exp(-far) * (lift_mm * scale / np.sqrt(2))).astype(np.float32)
    return cv2.remap(sheet.pixels, xs - move, ys - move, cv2.INTER_LINEAR)


def _photo(tier: str, lift_mm: float) -> tuple[FinishedSheet, Any]:
    rng = np.random.default_rng(3)
    sheet = finished_sheet(SheetSpec.parse("miro seed=3"), rng)
    grid = [i.geometry for i in read_items(sheet.page, "miro") if i.id.startswith(GRID)]
    centre = unary_union(grid).centroid
    pixels = _moved_round(sheet, (centre.x, centre.y), lift_mm)
    photo = photograph(pixels, sheet.px_per_mm, TIERS[tier], rng)
    return sheet, images_from_bytes(photo.data, f"{tier}.jpg")[0].pixels


def _wrong(sheet: FinishedSheet, pixels: Any) -> tuple[int, int, int]:
    """Items read wrong, of them the grid's boxes, and the items read."""
    reading = read_page(pixels, "curled.jpg")
    assert reading.retake is None
    wrong = [i.id for i in reading.items if sheet.truth.get(i.id) != i.colour]
    return len(wrong), sum(w.startswith(GRID) for w in wrong), len(reading.items)


@pytest.mark.parametrize("tier", ["scan", "phone"])
def test_a_tally_grid_moved_4_mm_by_a_curl_is_read_where_it_lies(
    tier: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet, pixels = _photo(tier, 4.0)
    wrong, in_grid, read = _wrong(sheet, pixels)
    assert in_grid == 0 and wrong <= 0.01 * read
    # The same photo read with the markers' map refined by the small tiles alone loses the grid:
    # the photo does hold the move this test is about.
    monkeypatch.setattr(register_module, "coarse_shifts", lambda *args: None)
    assert _wrong(sheet, pixels)[1] >= 50


def test_a_flat_photo_is_left_to_the_small_tiles() -> None:
    """A page lying where its markers put it is not moved by the large tiles, so a flat photo
    costs only their matching and reads as it did before them."""
    sheet, pixels = _photo("scan", 0.0)
    width, height = sheet.page.width, sheet.page.height
    to_photo = page_to_photo(find_markers(pixels), marker_boxes(width, height))
    assert to_photo is not None
    scale = read_px_per_mm()
    flat = rectify(pixels, to_photo, width, height, scale)
    assert coarse_shifts(flat, printed(sheet.page), scale) is None
