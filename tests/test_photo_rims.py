"""A neighbour's overflow lies along the edge it crossed; a space's own hatching, even a light
hand's, runs from edge to edge: the shares of pencil along one edge that tell them apart."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from shapely.geometry import box

from papergames.photo.colours import EDGE_OVERFLOW
from papergames.photo.pencil import PENCILS, Colouring, colour_page
from papergames.photo.rims import edge_share
from papergames.photo.sample import OVERFLOW_MM

PX_PER_MM = 10.0
CELL = box(20.0, 5.0, 26.0, 25.0)
"""A narrow space, 6 mm wide, as a ring's outer cells are: too small for a core."""
NEIGHBOUR = box(5.0, 5.0, 20.0, 25.0)


def _pencil_in_cell(colouring: Colouring, seed: int) -> NDArray[np.float64]:
    """The cell's pixels (page mm) that the colouring darkened, a printed border's width in."""
    page = np.full((round(30 * PX_PER_MM), round(40 * PX_PER_MM), 3), 255, dtype=np.uint8)
    out = colour_page(page, PX_PER_MM, colouring, np.random.default_rng(seed))
    fall = (255.0 - out.min(axis=2)) / 255.0
    rows, cols = np.nonzero(fall > 0.06)
    points = np.column_stack([cols + 0.5, rows + 0.5]) / PX_PER_MM
    x0, y0, x1, y1 = CELL.buffer(-0.3).bounds
    inside = (points[:, 0] > x0) & (points[:, 0] < x1) & (points[:, 1] > y0) & (points[:, 1] < y1)
    return np.asarray(points[inside], dtype=np.float64)


def test_a_neighbours_overflow_lies_along_one_edge() -> None:
    shares = []
    for seed in range(12):
        ran_in = _pencil_in_cell(Colouring(areas=[(NEIGHBOUR, PENCILS["green"])]), seed)
        if len(ran_in) >= 50:
            shares.append(edge_share(CELL, ran_in, OVERFLOW_MM))
    assert len(shares) >= 4
    assert min(shares) >= EDGE_OVERFLOW


def test_a_hatching_even_a_light_hands_lies_along_two_edges() -> None:
    for light in (0.0, 1.0):
        colouring = Colouring(areas=[(CELL, PENCILS["yellow"])], light_chance=light)
        for seed in range(12):
            assert edge_share(CELL, _pencil_in_cell(colouring, seed), OVERFLOW_MM) < EDGE_OVERFLOW
