"""A second pencil among one colour's items: a player whose colour box was left empty.

With two players and one box empty, the unboxed pencil holds half the page and sets the page's
spread, so none of its items lies far from the colour in play: they were all read surely as the
other player's. Split by their own spread, they are a pencil of their own and are flagged. The
reader looks for it only where the sheet shows a box is missing (fewer boxes than players).
Whole scanned sheets with a box left empty are read in ``tests/test_photo_notes.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray

from papergames.photo.camera import TIERS, photograph
from papergames.photo.colours import ROW_TICKS, Palette, Prototype, Sample, read_colours
from papergames.photo.image import images_from_bytes
from papergames.photo.items import LEGEND_PREFIX, row_seat
from papergames.photo.read import _unboxed_rows, read_page
from papergames.photo.synthetic import finished_sheet
from papergames.photo.twins import SPLIT_DEGREES, SPLIT_ITEMS, second_pencil
from papergames.play.final import MARKED
from papergames.sheets.spec import SheetSpec

PENCILS = ("red", "blue", "green", "orange")


def _around(
    centre: NDArray[np.float64], degrees: float, count: int, seed: int
) -> NDArray[np.float64]:
    """``count`` unit vectors scattered about ``centre`` by about ``degrees`` each way."""
    rng = np.random.default_rng(seed)
    unit = centre / np.linalg.norm(centre)
    tilt = rng.normal(0.0, np.radians(degrees), (count, 3))
    tilt -= np.outer(tilt @ unit, unit)
    vectors = unit + tilt
    return np.asarray(vectors / np.linalg.norm(vectors, axis=1, keepdims=True), dtype=np.float64)


def _turned(centre: NDArray[np.float64], degrees: float) -> NDArray[np.float64]:
    """``centre`` turned by ``degrees`` towards the blue end."""
    unit = centre / np.linalg.norm(centre)
    away = np.array([0.0, 0.0, 1.0]) - unit[2] * unit
    away /= np.linalg.norm(away)
    angle = np.radians(degrees)
    return np.asarray(np.cos(angle) * unit + np.sin(angle) * away, dtype=np.float64)


RED = np.array([0.1, 0.75, 0.65])


@pytest.mark.parametrize("seed", range(12))
def test_one_pencils_items_are_never_split_however_they_scatter(seed: int) -> None:
    scatter = 0.5 + seed * 0.4
    items = _around(RED, scatter, 20 + 7 * seed, seed)
    misfits = np.degrees(np.arccos(np.clip(items @ (RED / np.linalg.norm(RED)), -1, 1)))
    assert second_pencil(items, misfits) is None


@pytest.mark.parametrize("seed", range(6))
def test_a_second_pencil_apart_from_the_first_is_found_and_only_it(seed: int) -> None:
    own = _around(RED, 1.0, 15 + seed, seed)
    other = _turned(RED, SPLIT_DEGREES + 2.0 + seed)
    stranger = _around(other, 1.0, SPLIT_ITEMS + seed, 100 + seed)
    items = np.concatenate([own, stranger])
    misfits = np.degrees(np.arccos(np.clip(items @ (RED / np.linalg.norm(RED)), -1, 1)))
    found = second_pencil(items, misfits)
    assert found is not None
    assert found.tolist() == [False] * len(own) + [True] * len(stranger)


def test_too_few_items_far_off_are_not_a_pencil() -> None:
    own = _around(RED, 1.0, 20, 1)
    stray = _around(_turned(RED, 20.0), 1.0, SPLIT_ITEMS - 1, 2)
    items = np.concatenate([own, stray])
    misfits = np.degrees(np.arccos(np.clip(items @ (RED / np.linalg.norm(RED)), -1, 1)))
    assert second_pencil(items, misfits) is None


def test_the_farther_group_by_its_fit_is_the_stranger_even_when_nearer_in_plain_angle() -> None:
    """A traced line gone over several times lies off its colour box in plain angle, though it
    fits the box's pencil laid in layers: the misfit given, not the angle, names the stranger."""
    own = _around(_turned(RED, 7.0), 1.0, 12, 3)
    stranger = _around(_turned(RED, -5.0), 1.0, 12, 4)
    items = np.concatenate([own, stranger])
    misfits = np.array([0.5] * 12 + [6.0] * 12)
    found = second_pencil(items, misfits)
    assert found is not None and found.tolist() == [False] * 12 + [True] * 12


def test_a_split_is_looked_for_only_when_the_sheet_shows_a_player_without_a_box() -> None:
    """One pencil's items may split as two pencils' do: with every player's box coloured, a
    split names nobody a stranger. A player without a box shows as fewer boxes than the sheet's
    players, or as a seat whose score row is ticked and whose box is not coloured."""
    own = _around(RED, 0.5, 14, 5)
    split = _around(_turned(RED, 15.0), 0.5, 14, 6)
    items = np.concatenate([own, split])
    legend = Sample("box", 0.9, tuple(RED * 0.9), tuple(RED * 0.9))
    other = Sample("box", 0.9, (0.7, 0.45, 0.1), (0.7, 0.45, 0.1))
    hatched = [Sample("area", 0.8, tuple(v * 0.8), tuple(v * 0.6)) for v in items]
    samples = [legend, other, *hatched]
    legends = ["1", "2", *[None] * len(hatched)]
    shown: list[tuple[int, frozenset[str], int, tuple[str, ...]]] = [
        (2, frozenset(), 0, ()),
        (2, frozenset({"1", "2"}), 0, ()),
        (3, frozenset(), len(split), ()),
        (2, frozenset({"1", "3"}), len(split), ("3",)),
        (2, frozenset({"4", "3"}), len(split), ("3", "4")),
    ]
    for seats, ticked, flagged, unboxed in shown:
        palette, decisions = read_colours(samples, legends, seats=seats, ticked=ticked)
        assert palette.strangers == flagged
        assert sum(d.low for d in decisions[2 + len(own) :]) == flagged
        assert palette.unboxed == unboxed


def test_no_seat_is_unboxed_on_a_sheet_whose_colour_boxes_are_not_the_players() -> None:
    """Delaunay's and Klee's boxes are named pencils, not seats: a ticked row there says
    nothing of a box left empty."""
    named = Sample("box", 0.9, tuple(RED * 0.9), tuple(RED * 0.9))
    palette, _ = read_colours([named], ["red"], ticked=frozenset({"1"}))
    assert palette.unboxed == ()


def test_a_ticked_score_row_shows_a_player_whose_box_is_empty() -> None:
    """Three players, the third's box empty: two boxes are as many as Arp's fewest players, so
    only the third seat's ticked score row shows a player without a box. Their traced lines
    were read surely as the second player's (the bench's phone photo of Arp seed 1003)."""
    rng = np.random.default_rng([1003, len("phone")])
    sheet = finished_sheet(SheetSpec.create("arp", seed=1003), rng, graphite=0.3, unboxed=True)
    photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS["phone"], rng)
    opened = images_from_bytes(photo.data, "sheet.jpg")[0]
    reading = read_page(opened.pixels, opened.source)
    keys = {key for key in sheet.truth.values() if key and key.isdigit()}
    empty = [key for key in sorted(keys) if sheet.truth.get(f"{LEGEND_PREFIX}{key}") is None]
    assert len(keys) == 3 and empty == ["3"]
    theirs = [item for item in reading.items if sheet.truth.get(item.id) == "3"]
    assert len([item for item in theirs if row_seat(item.id) == "3"]) >= ROW_TICKS
    assert [item.id for item in theirs if item.colour not in (None, MARKED) and not item.low] == []
    said = [note.text for note in reading.notes]
    assert [text for text in said if text.startswith("player 3's score row is ticked")]


def test_the_note_on_a_ticked_row_without_a_box_names_the_seat_as_printed() -> None:
    red = Prototype(RED / np.linalg.norm(RED), 0.9)
    palette = Palette({"1": red, "2": red}, {}, (), unboxed=("3",))
    named = SheetSpec.parse("arp seed=1 names=Ana,Ben,Cy")
    notes = [note.text for note in _unboxed_rows(named, palette)]
    assert len(notes) == 1 and notes[0].startswith("Cy's score row is ticked")
    unnamed = [note.text for note in _unboxed_rows(SheetSpec.parse("arp seed=1"), palette)]
    assert unnamed[0].startswith("player 3's score row is ticked")
    assert _unboxed_rows(named, Palette({"1": red, "2": red, "3": red}, {}, ())) == ()
