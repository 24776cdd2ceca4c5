"""The per-pixel measures of :mod:`papergames.photo.sample` give the same answer block by block
as over the whole page at once."""

from __future__ import annotations

import numpy as np
import pytest

from papergames.photo import sample


@pytest.fixture
def page() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A noisy page with darker patches (pencil), the flat indices read on it (scattered, as
    the items' pixels are) and each one's paper white."""
    rng = np.random.default_rng(7)
    white = np.full((120, 150, 3), 200.0, dtype=np.float32) + rng.normal(0, 2, (120, 150, 3))
    detect = white + rng.normal(0, 3, white.shape)
    detect[20:60, 30:90] *= np.array([0.9, 0.6, 0.95])
    detect[80:100, 10:140] *= 0.97
    at = np.sort(rng.choice(detect.shape[0] * detect.shape[1], 10_007, replace=False))
    rows_white = white.reshape(-1, 3)[at].astype(np.float32)
    return detect.astype(np.float32), at.astype(np.intp), rows_white


def test_pencil_judged_in_blocks_is_pencil_judged_at_once(
    page: tuple[np.ndarray, np.ndarray, np.ndarray], monkeypatch: pytest.MonkeyPatch
) -> None:
    detect, at, white = page
    noise = np.array([[9.0, 1.0, 0.5], [1.0, 9.0, 1.0], [0.5, 1.0, 9.0]])
    inverse = np.linalg.inv(noise).astype(np.float32)
    at_once = sample._pencil_rows(detect.reshape(-1, 3)[at], white, inverse)
    monkeypatch.setattr(sample, "PENCIL_ROWS", 1000)  # ten full blocks and a short one
    in_blocks = sample._pencil(detect, at, white, noise)
    assert 0 < in_blocks.sum() < len(at)
    assert np.array_equal(in_blocks, at_once)


def test_absorbance_worked_out_in_blocks_is_the_same_as_at_once(
    page: tuple[np.ndarray, np.ndarray, np.ndarray], monkeypatch: pytest.MonkeyPatch
) -> None:
    detect, at, white = page
    at_once = 1.0 - detect.reshape(-1, 3)[at] / np.maximum(white, 1.0)
    monkeypatch.setattr(sample, "PENCIL_ROWS", 1000)
    in_blocks = sample._absorbance(detect, at, white)
    assert in_blocks.dtype == np.float32
    assert np.array_equal(in_blocks, at_once)
