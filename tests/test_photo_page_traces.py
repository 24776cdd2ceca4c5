"""A traced line's rival colour is ruled out only by that colour's own sure lines on the page,
lying together and far from it; a seat tracing in graphite beside dark pencils is read surely."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papergames.photo.camera import TIERS, photograph
from papergames.photo.image import images_from_bytes
from papergames.photo.page_traces import colours_ruled_out
from papergames.photo.read import read_page
from papergames.photo.synthetic import finished_sheet
from papergames.sheets.spec import SheetSpec


def _around(
    middle: np.ndarray, sigma_degrees: float, count: int, rng: np.random.Generator
) -> np.ndarray:
    """``count`` unit directions scattered about ``middle`` by ``sigma_degrees`` each way."""
    jitter = rng.normal(0.0, math.radians(sigma_degrees), (count, 3))
    jitter -= (jitter @ middle)[:, None] * middle[None, :]
    directions = middle[None, :] + jitter
    return np.asarray(directions / np.linalg.norm(directions, axis=1, keepdims=True))


def _unit(rng: np.random.Generator) -> np.ndarray:
    vector = rng.uniform(0.1, 1.0, 3)
    return np.asarray(vector / np.linalg.norm(vector))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), sigma=st.floats(0.2, 1.6), count=st.integers(10, 40))
def test_a_line_laid_as_a_colours_sure_lines_is_never_ruled_out_of_it(
    seed: int, sigma: float, count: int
) -> None:
    rng = np.random.default_rng(seed)
    middle = _unit(rng)
    sure = _around(middle, sigma, count, rng)
    doubted = _around(middle, sigma, 1, rng)
    if math.degrees(math.acos(min(1.0, float(doubted[0] @ middle)))) > 2.0 * sigma:
        return  # farther out than a line laid alike lies, but for once in seven
    lines = np.vstack([sure, doubted])
    ruled = colours_ruled_out(lines, ["a"] * count + ["b"], [True] * count + [False])
    assert "a" not in ruled[-1]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), count=st.integers(10, 40))
def test_a_colour_whose_sure_lines_spread_widely_rules_nothing_out(seed: int, count: int) -> None:
    rng = np.random.default_rng(seed)
    sure = _around(_unit(rng), 4.0, count, rng)
    far = _unit(rng)
    lines = np.vstack([sure, far])
    ruled = colours_ruled_out(lines, ["a"] * count + ["b"], [True] * count + [False])
    assert not ruled[-1]


def test_few_sure_lines_rule_nothing_out() -> None:
    rng = np.random.default_rng(1)
    sure = _around(np.array([0.6, 0.7, 0.39]) / 1.0, 0.3, 9, rng)
    grey = np.full((1, 3), 3**-0.5)
    ruled = colours_ruled_out(np.vstack([sure, grey]), ["a"] * 9 + ["b"], [True] * 9 + [False])
    assert not ruled[-1]


@pytest.mark.parametrize(("game", "seed"), [("miro", 4), ("arp", 6)])
def test_a_seat_tracing_in_graphite_beside_dark_pencils_is_read_surely(
    game: str, seed: int
) -> None:
    """Purple and brown gone over six times saturate towards black, within a degree of
    graphite; this page's own purple and brown lines lie far from grey, so its graphite lines
    are graphite, and a look at each is not asked for."""
    rng = np.random.default_rng([seed, 4])
    pencils = ("green", "graphite", "purple", "brown")
    sheet = finished_sheet(SheetSpec.create(game, seed=seed), rng, pencils=pencils)
    photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS["scan"], rng)
    reading = read_page(images_from_bytes(photo.data, "scan.png")[0].pixels, "scan.png")
    graphite = [
        item for item in reading.items if item.role == "segment" and sheet.truth.get(item.id) == "2"
    ]
    assert len(graphite) >= 10
    assert all(item.colour == "2" for item in graphite)
    assert sum(item.low for item in graphite) <= 0.4 * len(graphite)
