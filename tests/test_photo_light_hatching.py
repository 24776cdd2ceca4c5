"""A space hatched by a light hand (strokes far apart, pressed lightly) is coloured, and an empty
space between hatched ones is empty, though both carry pencil over about a third of their area:
the empty one only round its rim, where its neighbours' hatching runs over the border."""

from __future__ import annotations

from functools import cache, partial

import numpy as np
import pytest

from papergames.photo.camera import TIERS, photograph
from papergames.photo.colours import CORE_DOUBT, CORE_PRESENCE, PRESENCE, Sample, read_colours
from papergames.photo.copier import photocopy
from papergames.photo.image import images_from_bytes
from papergames.photo.read import PageReading, read_page
from papergames.photo.synthetic import FinishedSheet, finished_sheet
from papergames.sheets.spec import SheetSpec


@cache
def _copied(game: str, seed: int) -> tuple[FinishedSheet, PageReading]:
    """A photocopied handout on which some spaces are hatched by a light hand, photographed by
    phone."""
    rng = np.random.default_rng([seed, 4])
    tier = TIERS["copy"]
    assert tier.copier is not None
    sheet = finished_sheet(
        SheetSpec.create(game, seed=seed),
        rng,
        light=0.4,
        printed=partial(photocopy, copier=tier.copier),
    )
    photo = photograph(sheet.pixels, sheet.px_per_mm, tier, rng)
    opened = images_from_bytes(photo.data, f"{game}-{seed}.jpg")[0]
    return sheet, read_page(opened.pixels, opened.source)


@pytest.mark.parametrize(("game", "seed"), [("mondrian", 1002), ("delaunay", 1004)])
def test_light_hatching_on_a_copy_is_never_read_empty_surely(game: str, seed: int) -> None:
    sheet, reading = _copied(game, seed)
    assert reading.retake is None
    spaces = [item for item in reading.items if item.role == "space"]
    hatched = [item for item in spaces if sheet.truth.get(item.id) is not None]
    assert len(hatched) >= 10
    # The light hand leaves so little pencil that over the whole space it is no more than an
    # empty neighbour's rim carries: that is the case this reads through.
    assert any(item.coverage < PRESENCE["area"][1] for item in hatched)
    wrong = [
        f"{item.id}: read {item.colour}, is {sheet.truth.get(item.id)}"
        for item in spaces
        if not item.low and item.colour != sheet.truth.get(item.id)
    ]
    assert wrong == []


def _area(coverage: float, core: float | None, core_area: float = 0.0) -> Sample:
    yellow = (0.02, 0.12, 0.62)
    return Sample(
        "area", coverage, yellow, yellow, texture=4.0, size=400.0, core=core, core_area=core_area
    )


LEANING = ("1", True)
"""A space in doubt is read, still in doubt, in the colour its pencil shows."""


def _decided(*areas: Sample) -> list[tuple[str | None, bool]]:
    legend = _area(0.9, None)
    _, decisions = read_colours([legend, *areas], ["1", *[None] * len(areas)])
    return [(decision.colour, decision.low) for decision in decisions[1:]]


def test_a_space_in_doubt_over_its_whole_is_settled_by_a_large_core() -> None:
    doubt = sum(PRESENCE["area"]) / 2 - 0.02
    hatched, bare = CORE_PRESENCE[1] + 0.05, CORE_PRESENCE[0] / 2
    assert _decided(_area(doubt, hatched, 40.0)) == [("1", False)]
    assert _decided(_area(doubt, None)) == [LEANING]
    # A small core only adds doubt; and no core, however bare, makes a space empty surely.
    assert _decided(_area(doubt, hatched, 20.0)) == [LEANING]
    assert _decided(_area(doubt, bare, 40.0)) == [LEANING]
    nearly_empty = PRESENCE["area"][0] + 0.05
    assert _decided(_area(nearly_empty, None)) == [(None, False)]
    assert _decided(_area(nearly_empty, hatched, 20.0)) == [LEANING]


def test_a_space_plainly_empty_over_its_whole_is_in_doubt_when_its_core_holds_pencil() -> None:
    rim = PRESENCE["area"][0] - 0.02
    middle = sum(CORE_PRESENCE) / 2
    assert _decided(_area(rim, CORE_DOUBT / 2, 40.0)) == [(None, False)]
    # A pale pencil hatched lightly: the detector finds only part of its strokes, in the core
    # as over the whole, and no neighbour's overflow reaches a core.
    assert _decided(_area(rim, CORE_DOUBT, 40.0)) == [LEANING]
    assert _decided(_area(rim, middle, 10.0)) == [LEANING]
    assert _decided(_area(rim, CORE_PRESENCE[1] + 0.05, 40.0)) == [LEANING]


def test_a_space_in_doubt_over_its_whole_with_pencil_in_its_core_is_never_empty_surely() -> None:
    doubt = PRESENCE["area"][0] + 0.02
    assert _decided(_area(doubt, CORE_DOUBT / 2, 40.0)) == [(None, False)]
    assert _decided(_area(doubt, CORE_DOUBT, 40.0)) == [LEANING]


def test_a_space_in_doubt_is_read_in_the_colour_its_pencil_shows_and_stays_in_doubt() -> None:
    doubt = sum(PRESENCE["area"]) / 2 - 0.02
    yellow = _area(doubt, None)
    assert _decided(yellow) == [LEANING]
    # Pencil far from every colour in play (a grey smudge, a shadow) names none.
    grey = Sample("area", doubt, (0.2, 0.2, 0.2), (0.05, 0.05, 0.05), texture=4.0, size=400.0)
    assert _decided(grey) == [(None, True)]
    # A space plainly empty stays empty, surely.
    assert _decided(_area(PRESENCE["area"][0] / 2, None)) == [(None, False)]
