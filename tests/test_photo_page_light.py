"""The page's light is not pencil: boxes under a soft shadow, and a space lit brighter than the
white found round it, read empty surely; a faint mark darkening its own box, and a tint under a
misjudged white, stay in doubt (:func:`papergames.photo.mixtures.darkness`,
:func:`papergames.photo.rows.darkness_beside`)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from papergames.photo.colours import Sample, read_colours
from papergames.photo.items import read_items, row_seat
from papergames.photo.mixtures import darkness
from papergames.photo.read import _beside_in_rows
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

RED = (0.05, 0.5, 0.45)
"""A red tick's mean absorbance over its pencil."""
MARKED = (0.02, 0.17, 0.15)
"""A ticked box's mean absorbance over the whole box."""


def _box(coverage: float, fill: tuple[float, float, float]) -> Sample:
    return Sample("box", coverage, RED if coverage else (0.0, 0.0, 0.0), fill, texture=1.0)


def _read_boxes(
    fills: Callable[[str, float], float],
) -> dict[str, tuple[str | None, bool]]:
    """Every score box of a Delaunay sheet read: the first ten boxes of each row ticked in red,
    the rest bare, darkened alike in every channel by ``fills`` (of a box's id and its centre's
    distance across the page, in mm)."""
    page = make_sheet(SheetSpec.create("delaunay", seed=5)).pages[0]
    items = [item for item in read_items(page, "delaunay") if row_seat(item.id) is not None]
    legend = Sample("box", 0.9, RED, RED, texture=4.0)
    samples = []
    for item in items:
        place = int(item.id.rsplit("-", 1)[1])
        if place <= 10:
            samples.append(_box(0.6, MARKED))
        else:
            level = fills(item.id, item.region.centroid.x)
            samples.append(_box(0.0, (level, level, 0.9 * level)))
    samples = [legend, *_beside_in_rows(samples, items, [True] * len(items))]
    _, decisions = read_colours(samples, ["1", *[None] * len(items)], [False, *[True] * len(items)])
    return {
        item.id: (decision.colour, decision.low)
        for item, decision in zip(items, decisions[1:], strict=True)
    }


SHADE = 0.05
"""How much a soft shadow, or a faint mark, darkens a box in each channel: more than an empty box
may be darkened on its own."""


@pytest.mark.parametrize("middle", [70.0, 110.0, 150.0])
def test_boxes_darkened_alike_by_a_soft_shadow_read_empty_surely(middle: float) -> None:
    def shadow(_: str, x: float) -> float:
        return SHADE * math.exp(-(((x - middle) / 15.0) ** 2) / 2)

    read = _read_boxes(shadow)
    levels = _levels(shadow)
    shaded = [box for box, level in levels.items() if level > SHADE / 2]
    assert len(shaded) >= 20
    assert {read[box] for box in shaded} == {(None, False)}
    # Darkened as much with the boxes round it bare, the darkest is in doubt.
    darkest = max(levels, key=levels.__getitem__)
    alone = _read_boxes(lambda box, x: shadow(box, x) if box == darkest else 0.0)
    assert alone[darkest] == (None, True)


def test_faint_marks_side_by_side_stay_in_doubt() -> None:
    marks = {"box-loss2-40", "box-loss2-41", "box-loss2-42"}
    read = _read_boxes(lambda box, _: SHADE if box in marks else 0.0)
    assert {read[box] for box in marks} == {(None, True)}


def _levels(fills: Callable[[str, float], float]) -> dict[str, float]:
    page = make_sheet(SheetSpec.create("delaunay", seed=5)).pages[0]
    return {
        item.id: fills(item.id, item.region.centroid.x)
        for item in read_items(page, "delaunay")
        if row_seat(item.id) is not None and int(item.id.rsplit("-", 1)[1]) > 10
    }


@given(
    grey=st.floats(-0.2, 0.2),
    tint=st.tuples(st.floats(-0.1, 0.1), st.floats(-0.1, 0.1), st.floats(-0.1, 0.1)),
)
def test_darkness_counts_a_tint_either_way_and_grey_only_when_it_darkens(
    grey: float, tint: tuple[float, float, float]
) -> None:
    pure = np.asarray(tint) - np.mean(tint)
    level = float(darkness(pure + grey))
    assert level >= float(np.linalg.norm(pure)) - 1e-9
    if grey <= 0.0:
        assert abs(level - float(np.linalg.norm(pure))) < 1e-9
    else:
        assert abs(level - float(np.linalg.norm(pure + grey))) < 1e-9


def _space(fill: tuple[float, float, float]) -> Sample:
    return Sample("area", 0.05, (0.0, 0.0, 0.0), fill, texture=1.0, size=400.0)


def test_a_space_brighter_than_its_paper_alike_in_every_channel_is_empty_surely() -> None:
    yellow = (0.02, 0.12, 0.62)
    hatched = Sample("area", 0.9, yellow, (0.01, 0.04, 0.2), texture=4.0, size=400.0)
    legend = Sample("area", 0.9, yellow, yellow, texture=4.0, size=400.0)
    brighter = _space((-0.05, -0.05, -0.045))
    # The white misjudged as much, over a light hatching whose tint still shows.
    tinted = _space((-0.07, -0.04, 0.01))
    _, decisions = read_colours([legend, *[hatched] * 6, brighter, tinted], ["1", *[None] * 8])
    assert [(d.colour, d.low) for d in decisions[-2:]] == [(None, False), (None, True)]
