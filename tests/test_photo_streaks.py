"""A photocopier's streak runs straight down the whole page: it is found, whatever its turn, and
is not read as pencil."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from papergames.photo.items import read_items
from papergames.photo.sample import measure, printed, read_px_per_mm
from papergames.photo.streaks import find_streak
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

PX = 4.0
HEIGHT, WIDTH = 297 * 4, 210 * 4


def _page(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A page's darkening off the ink: noise, spaces hatched in strokes, rows of tally marks,
    and where the ink is (grid lines and borders, left out)."""
    darkening = rng.normal(0.0, 0.008, (HEIGHT, WIDTH)).astype(np.float32)
    clear = np.ones((HEIGHT, WIDTH), dtype=bool)
    for _ in range(12):  # hatched spaces in the field
        top, left = int(rng.integers(200, 900)), int(rng.integers(40, 600))
        tall, wide = int(rng.integers(60, 240)), int(rng.integers(60, 240))
        rows = np.arange(tall)[:, None] + np.arange(wide)[None, :]
        strokes = (np.sin(rows / rng.uniform(2.0, 5.0)) > 0.2) * rng.uniform(0.15, 0.5)
        darkening[top : top + tall, left : left + wide] += strokes.astype(np.float32)
        clear[top, left : left + wide] = clear[top : top + tall, left] = False
    for row in (80, 100, 1080, 1100):  # score rows: boxes, some ticked
        clear[row, 60:780] = False
        for column in range(60, 780, 14):
            clear[row : row + 20, column] = False
            if rng.random() < 0.5:
                darkening[row + 4 : row + 16, column + 3 : column + 11] += 0.4
    return darkening, clear


def _streak(
    darkening: np.ndarray, at_mm: float, turn: float, width_mm: float, amount: float
) -> None:
    ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH]
    across = xs / PX - (at_mm + ys / PX * math.tan(math.radians(turn)))
    darkening += (amount * np.exp(-0.5 * (across / (width_mm / 2.355)) ** 2)).astype(np.float32)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    at_mm=st.floats(20.0, 190.0),
    turn=st.floats(-1.5, 1.5),
    width_mm=st.floats(0.6, 1.3),
    amount=st.floats(0.04, 0.1),
)
# Down a space's printed edge for a fifth of the page, where no paper shows beside the streak.
@example(seed=475, at_mm=71.75, turn=0.0, width_mm=1.0, amount=0.0625)
def test_a_streak_down_the_page_is_found_at_its_place_and_turn(
    seed: int, at_mm: float, turn: float, width_mm: float, amount: float
) -> None:
    darkening, clear = _page(np.random.default_rng(seed))
    _streak(darkening, at_mm, turn, width_mm, amount)
    found = find_streak(darkening, clear, PX)
    assert found is not None and found.upright
    assert abs(found.at_mm - at_mm) < 1.0 and abs(found.turn - turn) < 0.2
    assert abs(max(found.profile) - amount) < 0.4 * amount


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_a_page_without_a_streak_shows_none(seed: int) -> None:
    darkening, clear = _page(np.random.default_rng(seed))
    assert find_streak(darkening, clear, PX) is None
    assert find_streak(np.ascontiguousarray(darkening.T), np.ascontiguousarray(clear.T), PX) is None


def test_no_item_a_streak_crosses_is_read_as_pencil() -> None:
    """An uncoloured copy with a streak turned a degree down the page: every item reads bare.
    Before the streak was found, it ticked tally boxes and darkened small spaces."""
    assert not _items_read_as_pencil(lambda ys, xs: xs - (60.0 + ys * math.tan(math.radians(1.0))))


def _items_read_as_pencil(across: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> list[str]:
    """The items of an uncoloured copy of Mondrian seed 5 read as holding pencil, with a streak
    0.08 darker than paper whose middle lies where ``across(y_mm, x_mm)`` is 0 (in mm)."""
    page = make_sheet(SheetSpec.create("mondrian", seed=5)).pages[0]
    px = read_px_per_mm()
    ink = printed(page)
    items = read_items(page, "mondrian")
    height, width = ink.shape
    ys, xs = np.mgrid[0:height, 0:width]
    streak = 0.08 * np.exp(-0.5 * (across(ys / px, xs / px) / 0.35) ** 2)
    level = 235.0 * ink[..., None] * (1.0 - streak[..., None]) * np.ones(3)
    pixels = np.clip(level + 10.0, 0, 255).astype(np.uint8)
    found = measure(pixels, ink, items, px, blur_px=1.0)
    return [item.id for item, coverage in zip(items, found.coverage, strict=True) if coverage > 0.1]


def test_a_line_seen_on_less_than_most_of_the_page_is_no_streak() -> None:
    """A dark line where paper shows on only two fifths of the page (ink covers the rest of its
    way) may be a fold or a field's edge: it is not taken for a streak."""
    darkening, clear = _page(np.random.default_rng(3))
    _streak(darkening, 100.0, 0.0, 1.0, 0.08)
    assert find_streak(darkening, clear, PX) is not None
    clear[: HEIGHT * 3 // 5, 396:404] = False
    assert find_streak(darkening, clear, PX) is None


@settings(max_examples=6, deadline=None)
@given(below_mm=st.floats(0.8, 1.6), turn=st.floats(-0.3, 0.3))
def test_a_streak_across_a_row_of_tally_boxes_just_under_their_edge_ticks_none(
    below_mm: float, turn: float
) -> None:
    """A streak across the page, just under the top edge of a row of tally boxes: the lines
    along the edge show no paper, but the streak is found and no box of the row reads marked.
    Before, those lines' missing rise hid the streak, and it ticked every box of the row."""
    page = make_sheet(SheetSpec.create("mondrian", seed=5)).pages[0]
    row = [item for item in read_items(page, "mondrian") if item.id.startswith("box-tally1-")]
    top_mm = min(item.geometry.bounds[1] for item in row)
    slope = math.tan(math.radians(turn))
    assert not _items_read_as_pencil(lambda ys, xs: ys - (top_mm + below_mm + xs * slope))
