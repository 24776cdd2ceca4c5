"""Laying a curled page flat: the reader corrects the corner markers' map on the print itself,
black ink where a field has it and the light print where it has none (Miro's and Arp's lines).

Each photo here is the printed page itself, pushed by a smooth bump in the middle of the field
(a curl the corner markers cannot see), so the true misregistration is known everywhere. Vasarely,
Springer and Delaunay have black ink across their fields; Miro and Arp only light lines.
Mondrian is left out: its large spaces leave most tiles with a line one way only, which cannot
fix a shift both ways (a millimetre off matters little there, its spaces being read well inside).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from papergames import SheetSpec, make_sheet
from papergames.photo import register
from papergames.photo.register import rectify, refine
from papergames.photo.sample import printed, read_px_per_mm

PUSH_MM = 1.2
"""How far the curl moves the middle of the field (the markers' map misses it entirely)."""
SPREAD_MM = 35.0


def curled(ink: NDArray[np.float32], scale: float) -> NDArray[np.uint8]:
    """The page as a photo at the reading resolution, its middle pushed ``PUSH_MM`` right and
    down, its corners where the markers say."""
    height, width = ink.shape
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    bump = np.exp(
        -((xs - width / 2) ** 2 + (ys - height / 2) ** 2) / (2 * (SPREAD_MM * scale) ** 2)
    )
    push = PUSH_MM * scale * bump
    grey = (ink * 255).astype(np.uint8)
    photo = cv2.remap(grey, xs - push, ys - push, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(np.repeat(photo[..., None], 3, axis=2), dtype=np.uint8)


def offset_mm(ink: NDArray[np.float32], flat: NDArray[np.uint8], scale: float) -> float:
    """How far the flattened photo's middle lies from the print's, in mm."""
    height, width = ink.shape
    half = round(25 * scale)
    rows = slice(height // 2 - half, height // 2 + half)
    cols = slice(width // 2 - half, width // 2 + half)
    page = np.ascontiguousarray(1.0 - ink[rows, cols], dtype=np.float32)
    seen = np.ascontiguousarray(1.0 - flat[rows, cols, 0] / 255.0, dtype=np.float32)
    (dx, dy), _ = cv2.phaseCorrelate(
        page, seen, cv2.createHanningWindow(page.shape[::-1], cv2.CV_32F)
    )
    return float(np.hypot(dx, dy)) / scale


@pytest.mark.parametrize("game", ["miro", "arp", "vasarely", "springer", "delaunay"])
def test_a_curl_in_the_middle_of_the_field_is_corrected_on_the_print(game: str) -> None:
    page = make_sheet(SheetSpec.create(game, seed=3)).pages[0]
    scale = read_px_per_mm()
    ink = printed(page)
    photo = curled(ink, scale)
    to_photo = np.array([[scale, 0.0, -0.5], [0.0, scale, -0.5], [0.0, 0.0, 1.0]])
    flat = rectify(photo, to_photo, page.width, page.height, scale)
    assert offset_mm(ink, flat, scale) > 0.8 * PUSH_MM * np.sqrt(2), "the markers miss the curl"
    again = refine(photo, to_photo, flat, ink, scale)
    assert offset_mm(ink, again, scale) < 0.25


def test_tiles_matched_on_threads_keep_each_tile_its_own_shift(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tiles are matched on several threads: each must get the shift and trust of its own
    match, exactly as when they are matched one after another."""
    page = make_sheet(SheetSpec.create("springer", seed=3)).pages[0]
    scale = read_px_per_mm()
    ink = printed(page)
    photo = curled(ink, scale)
    to_photo = np.array([[scale, 0.0, -0.5], [0.0, scale, -0.5], [0.0, 0.0, 1.0]])
    flat = rectify(photo, to_photo, page.width, page.height, scale)
    expected = [register._printed_at(ink, register.BLACK_PRINT)]
    tiles = register._matchable_tiles(
        expected, round(register.TILE_MM * scale), round(register.STRIDE_MM * scale)
    )
    seen = [
        register._Print(expected[0], register.BLACK_SHARE).seen_in(
            register.darkening(register.grey(flat), scale)
        )
    ]
    threaded = register._tile_shifts(tiles, seen, expected)
    monkeypatch.setattr(register, "CORRELATING", 1)
    alone = register._tile_shifts(tiles, seen, expected)
    assert len(tiles.matched) > 100
    assert np.array_equal(threaded[0], alone[0]) and np.array_equal(threaded[1], alone[1])
    shifted = np.hypot(alone[0][..., 0], alone[0][..., 1])
    assert shifted.max() > 0.8 * PUSH_MM * scale, "the curl's tiles are seen to move"


def test_a_tile_whose_shift_disagrees_with_its_neighbours_is_dropped() -> None:
    """A tile matched far off the shift all around it is a false match and is dropped; tiles
    that agree keep their weight, and so does a tile with too few matched neighbours to judge."""
    tolerance = 0.4 * read_px_per_mm()
    shifts = np.zeros((6, 8, 2))
    shifts[..., 0] = 0.5
    weights = np.ones((6, 8))
    shifts[2, 3] = (0.5 + tolerance, -0.5 * tolerance)
    weights[3:, 5:] = 0.0
    weights[5, 7] = 0.7
    shifts[5, 7] = (9.0, 9.0)
    kept = register._drop_outliers(shifts, weights, tolerance)
    assert kept[2, 3] == 0.0, "a false match among agreeing neighbours"
    assert kept[5, 7] == 0.7, "alone, with no neighbours to judge it by"
    others = weights > 0
    others[2, 3] = others[5, 7] = False
    assert np.array_equal(kept[others], weights[others])
