"""The PNG writer's thick polylines drawn with the photo reader's quick joins: no notch at a
turn, no ink beyond the line's reach, and a page only a few edge pixels from Pillow's own."""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from PIL import Image

from papergames.output.png import _Painter

SIZE = 160

points = st.tuples(st.floats(30, SIZE - 30), st.floats(30, SIZE - 30))


def _distance_to_polyline(
    x: np.ndarray, y: np.ndarray, line: list[tuple[float, float]]
) -> np.ndarray:
    best = np.full(x.shape, np.inf)
    for (ax, ay), (bx, by) in itertools.pairwise(line):
        dx, dy = bx - ax, by - ay
        length = max(dx * dx + dy * dy, 1e-12)
        t = np.clip(((x - ax) * dx + (y - ay) * dy) / length, 0.0, 1.0)
        best = np.minimum(best, np.hypot(x - (ax + t * dx), y - (ay + t * dy)))
    return best


@settings(max_examples=60, deadline=None)
@given(st.lists(points, min_size=3, max_size=6), st.integers(6, 20))
def test_a_thick_polyline_drawn_quickly_is_inked_all_round_its_turns(
    line: list[tuple[float, float]], width: int
) -> None:
    assume(all(math.dist(a, b) >= 2.0 for a, b in itertools.pairwise(line)))
    image = Image.new("L", (SIZE, SIZE), 255)
    painter = _Painter(image, scale=1.0, quick_joins=True)
    painter._line(line, width_mm=float(width), dash=())
    inked = np.asarray(image) < 128
    y, x = np.mgrid[0:SIZE, 0:SIZE] + 0.5
    distance = _distance_to_polyline(x, y, line)
    ends = np.minimum(*(np.hypot(x - ex, y - ey) for ex, ey in (line[0], line[-1])))
    inside = (distance <= width / 2 - 1.5) & (ends > width)  # a stroke's ends are square
    # Pillow's flat-ended strokes leave a notch outside every turn; the joins fill it.
    assert inked[inside].all()
    # Far beyond the half width (the round join's disc, or a stroke's square end) nothing is inked.
    assert not inked[distance > width / 2 * math.sqrt(2) + 1.5].any()


def test_the_quick_joins_differ_from_pillows_by_a_few_edge_pixels() -> None:
    """A Miro page at the reading resolution: the two drawings nearly agree, and the files
    people print are drawn with Pillow's joins."""
    from papergames.output.png import draw_page
    from papergames.sheets.sheet import make_sheet
    from papergames.sheets.spec import SheetSpec

    page = make_sheet(SheetSpec.create("miro", seed=3)).pages[0]
    exact = np.asarray(draw_page(page, 100, Image.Resampling.BOX))
    quick = np.asarray(draw_page(page, 100, Image.Resampling.BOX, quick_joins=True))
    differ = np.abs(exact.astype(int) - quick.astype(int)) > 64
    assert 0 < differ.mean() < 0.002
