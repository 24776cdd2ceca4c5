"""A space's core tint (:attr:`papergames.photo.sample.Measured.core_tint`) tells a pencil laid
over the whole core from a neighbour's stray stroke across a few of its cells: the first tints
every cell, the second only those it crosses."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from papergames.photo import sample
from papergames.photo.colours import CORE_TINT
from papergames.photo.items import ReadItem, Sampling

PX_PER_MM = 10.0
YELLOW = np.array([0.02, 0.06, 0.30], dtype=np.float32)
"""The absorbance of a yellow stroke: a tint of about 0.2 on its own pixels."""


def _core_tint(absorb: np.ndarray) -> np.ndarray:
    """The core tint measured over a 12 mm square space on a 20 mm page whose read pixels
    carry ``absorb`` (an ``(h, w, 3)`` image)."""
    space = box(4.0, 4.0, 16.0, 16.0)
    item = ReadItem("space-1", "space", Sampling.AREA, space, space)
    height, width = absorb.shape[:2]
    inside = np.zeros((height, width), dtype=np.uint8)
    sample._fill(inside, space, 1, PX_PER_MM)
    at = np.flatnonzero(inside.ravel()).astype(np.intp)
    rows = absorb.reshape(-1, 3)[at].astype(np.float32)
    pencil = rows.sum(axis=1) > 0.1
    _, _, _, tint = sample._core_coverage([item], (height, width), PX_PER_MM, at, (pencil, rows))
    return np.asarray(tint[0])


def _stroke(
    absorb: np.ndarray, row_mm: float, width_mm: float, strength: float, end_mm: float = 20.0
) -> None:
    """A level stroke from the page's left edge to ``end_mm``."""
    top = round(row_mm * PX_PER_MM)
    rows = slice(top, top + max(1, round(width_mm * PX_PER_MM)))
    absorb[rows, : round(end_mm * PX_PER_MM)] += strength * YELLOW


@settings(max_examples=25, deadline=None)
@given(row_mm=st.floats(6.5, 12.5), width_mm=st.floats(0.8, 1.2), into_mm=st.floats(3.0, 4.5))
def test_the_tip_of_a_neighbours_stroke_in_an_empty_core_leaves_it_untinted(
    row_mm: float, width_mm: float, into_mm: float
) -> None:
    """The stroke runs in over the space's left edge and up to ``into_mm`` into its 7 mm core:
    it tints the core's mean as a faint hatching would, but only a few of its cells."""
    absorb = np.zeros((200, 200, 3), dtype=np.float32)
    _stroke(absorb, row_mm, width_mm, 1.0, end_mm=6.5 + into_mm)
    core = absorb[65:135, 65:135].reshape(-1, 3)
    mean = core.mean(axis=0)
    assert np.linalg.norm(mean - mean.mean()) >= CORE_TINT, "the stroke tints the core's mean"
    assert np.linalg.norm(_core_tint(absorb)) < CORE_TINT


@settings(max_examples=25, deadline=None)
@given(gap_mm=st.floats(1.2, 1.8), strength=st.floats(0.25, 0.5))
def test_a_faint_hatching_over_the_core_tints_it_in_its_pencils_hue(
    gap_mm: float, strength: float
) -> None:
    absorb = np.zeros((200, 200, 3), dtype=np.float32)
    for row_mm in np.arange(4.0, 16.0, gap_mm):
        _stroke(absorb, float(row_mm), 0.5, strength)
    tint = _core_tint(absorb)
    hue = YELLOW - YELLOW.mean()
    assert np.linalg.norm(tint) >= CORE_TINT
    cosine = float(tint @ hue) / (np.linalg.norm(tint) * np.linalg.norm(hue))
    assert cosine > 0.99
