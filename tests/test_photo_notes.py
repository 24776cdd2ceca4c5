"""What the reader could not settle reaches the person who photographed the sheet."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from papergames.cli import app
from papergames.photo.camera import TIERS, photograph
from papergames.photo.image import images_from_bytes
from papergames.photo.items import LEGEND_PREFIX, read_items
from papergames.photo.notes import Note
from papergames.photo.outcome import CONSISTENT, judge_reading
from papergames.photo.read import ItemReading, PageReading, read_page
from papergames.photo.synthetic import FinishedSheet, finished_sheet
from papergames.sheets.spec import SheetSpec
from papergames.web.photos import told_sheet

runner = CliRunner()
EMPTY_BOX = "colour box is empty"


@cache
def _scanned(game: str, seed: int, unboxed: bool) -> tuple[FinishedSheet, bytes]:
    """A finished sheet and its scan; with ``unboxed``, its last player's colour box left
    empty."""
    rng = np.random.default_rng(seed)
    pencils = ("red", "blue", "green", "orange")
    sheet = finished_sheet(SheetSpec.create(game, seed=seed), rng, pencils=pencils, unboxed=unboxed)
    return sheet, photograph(sheet.pixels, sheet.px_per_mm, TIERS["scan"], rng).data


def _photo(game: str, seed: int, unboxed: bool) -> bytes:
    return _scanned(game, seed, unboxed)[1]


@cache
def _read(data: bytes) -> PageReading:
    opened = images_from_bytes(data, "sheet.jpg")[0]
    return read_page(opened.pixels, opened.source)


def test_a_pencil_whose_colour_box_is_left_empty_is_said_in_every_view_of_the_sheet() -> None:
    outcome = judge_reading(_read(_photo("mondrian", 3, unboxed=True)))
    assert outcome.outcome != CONSISTENT
    notes = [n for n in outcome.notes if EMPTY_BOX in n]
    assert [n for n in notes if "matches no colour box" in n]
    assert [n for n in notes if n.startswith("player 2's score row is ticked")]
    assert outcome.to_json()["notes"] == outcome.notes
    noticed = [p for p in told_sheet(outcome).paragraphs if p.text == "Also noticed:"]
    for note in notes:
        assert f"note: {note}" in outcome.lines()
        assert [item for item in noticed[0].items if note[1:] in item]


def test_read_json_and_the_class_csv_carry_the_notes(tmp_path: Path) -> None:
    path = tmp_path / "unboxed.jpg"
    path.write_bytes(_photo("mondrian", 3, unboxed=True))
    table = tmp_path / "class.csv"
    result = runner.invoke(app, ["read", str(path), "--json", "-q", "--csv", str(table)])
    notes = [note for note in json.loads(result.stdout)["notes"] if EMPTY_BOX in note]
    [row] = list(csv.DictReader(table.open(encoding="utf-8")))
    assert notes and all(note in row["check"] for note in notes)


def test_a_note_names_the_players_pencils_not_their_colour_boxes() -> None:
    reading = _read(_photo("arp", 2, unboxed=False))
    noted = replace(reading, notes=(Note("{0} and {1}", ("1", "2")),))
    outcome = judge_reading(noted)
    assert outcome.transcript is not None
    pencils = [p.colour for p in outcome.transcript.players]
    assert outcome.notes == [f"{pencils[0]} and {pencils[1]}"]


def test_one_colour_box_too_few_for_the_game_asks_whether_a_box_was_left_empty() -> None:
    outcome = judge_reading(_read(_photo("springer", 4, unboxed=True)))
    assert outcome.outcome != CONSISTENT
    assert [doubt for doubt in outcome.doubts if EMPTY_BOX in doubt]
    assert not [doubt for doubt in outcome.doubts if "do not fit the game" in doubt]


@pytest.mark.parametrize(("game", "seed"), [("springer", 4), ("miro", 1)])
def test_no_item_of_a_pencil_with_an_empty_colour_box_is_given_surely_to_another(
    game: str, seed: int
) -> None:
    """Two players, one box empty: the unboxed pencil holds half the page and once set the
    page's spread, so all its items were read surely as the other player's
    (:mod:`papergames.photo.twins` now finds them)."""
    sheet, data = _scanned(game, seed, unboxed=True)
    reading = _read(data)
    keys = {key for key in sheet.truth.values() if key and key.isdigit()}
    unboxed = {key for key in keys if sheet.truth.get(f"{LEGEND_PREFIX}{key}") is None}
    theirs = [item for item in reading.items if sheet.truth.get(item.id) in unboxed]
    assert len(theirs) > 30
    assert [item.id for item in theirs if item.colour is not None and not item.low] == []


def test_look_alike_pencils_are_named_only_when_an_item_of_theirs_is_flagged() -> None:
    """A sheet whose graphite and purple lines look alike by their colour boxes, but are all
    read surely (the page's own purple lines lie far from grey), asks for no look: naming the
    two would send a teacher looking for flags that are not there."""
    rng = np.random.default_rng([2003, 4])
    sheet = finished_sheet(SheetSpec.create("miro", seed=2003), rng, graphite=0.3)
    photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS["scan"], rng)
    reading = read_page(images_from_bytes(photo.data, "scan.jpg")[0].pixels, "scan.jpg")
    flagged = {item.colour for item in reading.items if item.low}
    alike = [note.colours for note in reading.notes if "look alike" in note.text]
    assert not flagged and not alike
    outcome = judge_reading(reading)
    assert outcome.outcome == CONSISTENT and not any(
        "look alike" in line for line in outcome.lines()
    )


def test_the_web_page_counts_the_items_to_look_at_and_points_to_the_picture() -> None:
    """A teacher finds an item ringed on the picture, not by its id: the ids stay in the
    details, and without a picture to point to the items are named as before."""
    sheet = finished_sheet(SheetSpec.create("mondrian", seed=2), np.random.default_rng(2))
    items = [
        ItemReading(item.id, item.role, sheet.truth[item.id], 1.0, 0.99, False)
        for item in read_items(sheet.page, "mondrian")
    ]
    unsure = [k for k, item in enumerate(items) if item.id.startswith("space-")][:2]
    for k in unsure:
        items[k] = replace(items[k], confidence=0.4, low=True)
    colours = dict.fromkeys(sheet.pencils, (90, 90, 90))
    reading = PageReading("x.jpg", sheet.spec, 1, colours, tuple(items), None, {}, 6.0)
    outcome = judge_reading(reading)
    ids = [items[k].id for k in unsure]

    told = told_sheet(replace(outcome, picture=b"a picture"))
    [look] = [p for p in told.paragraphs if p.text == "Look again at:"]
    assert "2 items the reader is unsure of, each ringed with a ? in the picture below." in (
        look.items
    )
    assert not [said for said in look.items if any(i in said for i in ids)]
    assert all(any(i in line for line in told.details) for i in ids)

    [look] = [p for p in told_sheet(outcome).paragraphs if p.text == "Look again at:"]
    assert all(any(i in said for said in look.items) for i in ids)
