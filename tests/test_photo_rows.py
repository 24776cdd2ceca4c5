"""Score rows are ticked in order, and the reader leans on it (:mod:`papergames.photo.rows`)."""

from __future__ import annotations

import numpy as np
import pytest

from papergames.photo.colours import Decision
from papergames.photo.items import read_items, row_of, row_seat
from papergames.photo.outcome import CONSISTENT, judge_reading
from papergames.photo.read import ItemReading, PageReading
from papergames.photo.rows import ROW_BOX, follow_rows
from papergames.photo.synthetic import finished_sheet
from papergames.spec import SheetSpec


@pytest.mark.parametrize("game", ["arp", "mondrian", "springer", "delaunay", "klee", "vasarely"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_marked_boxes_of_a_finished_row_come_first(game: str, seed: int) -> None:
    """The premise of follow_rows, on games played to their end by the rules engines and on
    sheets coloured at random as players would."""
    sheet = finished_sheet(SheetSpec.create(game, seed=seed), np.random.default_rng(seed))
    rows: dict[str, list[tuple[int, bool]]] = {}
    for item_id, key in sheet.truth.items():
        match = ROW_BOX.fullmatch(item_id)
        if match is not None:
            rows.setdefault(row_of(item_id), []).append((int(match.group(1)), key is not None))
    assert rows
    for row, boxes in rows.items():
        marks = [marked for _, marked in sorted(boxes)]
        assert marks == sorted(marks, reverse=True), f"{row} has a gap: {marks}"


def _row(*read: tuple[str | None, float]) -> list[Decision]:
    return [Decision(colour, confidence) for colour, confidence in read]


def test_a_doubtful_box_before_the_rows_last_sure_mark_is_read_as_marked() -> None:
    ids = [f"box-loss2-{k}" for k in range(1, 7)]
    read = _row(("1", 0.9), (None, 0.45), ("1", 0.3), ("1", 0.9), (None, 0.45), (None, 1.0))
    after = follow_rows(ids, read)
    assert [(d.colour, d.low) for d in after] == [
        ("1", False),
        ("1", False),
        ("1", False),
        ("1", False),
        (None, True),  # after the last sure mark: a stray and a faint tally look alike
        (None, False),
    ]


def test_a_surely_empty_box_amid_a_rows_marks_is_flagged_and_other_items_are_left() -> None:
    ids = ["box-tally1-1", "box-tally1-2", "box-tally1-3", "space-4", "box-legend-1"]
    read = _row(("2", 0.9), (None, 1.0), ("2", 0.9), (None, 0.3), (None, 0.3))
    after = follow_rows(ids, read)
    assert after[1].colour is None and after[1].low
    assert after[3:] == read[3:]


def test_a_row_ticked_throughout_in_another_seats_pencil_needs_no_look() -> None:
    """Seat 2 ticks in graphite, which is seat 1's own pencil: its row is its own ticking."""
    sheet = finished_sheet(SheetSpec.create("mondrian", seed=2), np.random.default_rng(2))
    items = []
    for item in read_items(sheet.page, "mondrian"):
        key = sheet.truth[item.id]
        if key == "2" and row_seat(item.id) == "2":
            key = "1"
        items.append(ItemReading(item.id, item.role, key, 1.0 if key else 0.0, 0.99, False))
    assert any(i.colour == "1" and row_seat(i.id) == "2" for i in items)
    colours = dict.fromkeys(sheet.pencils, (90, 90, 90))
    reading = PageReading("x", sheet.spec, 1, colours, tuple(items), None, {}, 6.0)
    outcome = judge_reading(reading)
    assert outcome.outcome == CONSISTENT, outcome.lines()
    stray = tuple(
        ItemReading(i.id, i.role, "1", 0.6, 0.99, False) if i.id == "box-tally2-1" else i
        for i in (ItemReading(i.id, i.role, sheet.truth[i.id], 1.0, 0.99, False) for i in items)
    )
    outcome = judge_reading(PageReading("x", sheet.spec, 1, colours, stray, None, {}, 6.0))
    assert outcome.outcome != CONSISTENT, "one box in another seat's colour is a stray touch"
