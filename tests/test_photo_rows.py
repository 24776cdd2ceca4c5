"""Score rows are ticked in order, and the reader leans on it (:mod:`papergames.photo.rows`)."""

from __future__ import annotations

import numpy as np
import pytest

from papergames.photo.camera import TIERS, photograph
from papergames.photo.colours import Decision
from papergames.photo.image import images_from_bytes
from papergames.photo.items import read_items, row_of, row_seat
from papergames.photo.outcome import CONSISTENT, judge_reading
from papergames.photo.read import ItemReading, PageReading, read_page
from papergames.photo.rows import GAP_PENCIL, ROW_BOX, follow_rows
from papergames.photo.synthetic import finished_sheet
from papergames.sheets.spec import SheetSpec


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


def test_a_doubtful_box_after_the_last_mark_is_shown_marked_where_the_rows_ticks_are_as_faint() -> (
    None
):
    """A hand whose ticks elsewhere in the row were read empty in doubt (passed, as sure marks
    follow them) has likelier ticked once more than slipped: the doubtful boxes just after the
    last sure mark, as covered as those ticks, are shown as the row's mark and stay flagged."""
    ids = [f"box-tally1-{k}" for k in range(1, 8)]
    read = _row(
        ("1", 0.9), (None, 0.45), ("1", 0.9), (None, 0.45), (None, 0.45), (None, 0.45), (None, 1.0)
    )
    covered = [0.6, 0.35, 0.6, 0.4, 0.35, 0.3, 0.0]
    after = follow_rows(ids, read, covered)
    assert [(d.colour, d.low) for d in after] == [
        ("1", False),
        ("1", False),  # a faint tick, passed on the way to the next mark
        ("1", False),
        ("1", True),  # as faint: shown as a tick, still flagged
        ("1", True),
        (None, True),  # fainter than any of the row's ticks: left as read
        (None, False),
    ]
    firm = _row(("1", 0.9), ("1", 0.9), ("1", 0.9), (None, 0.45), (None, 0.45), (None, 0.45))
    assert follow_rows(ids[:6], firm, covered[:6])[3:] == firm[3:], "a firm hand slips"
    apart = _row(("1", 0.9), (None, 0.45), ("1", 0.9), (None, 1.0), (None, 0.45), (None, 1.0))
    assert follow_rows(ids[:6], apart, covered[:6])[3:] == apart[3:], "past a bare box"
    shown = _row(("1", 0.9), (None, 0.45), ("1", 0.9), ("1", 0.45), (None, 0.45), (None, 1.0))
    after = follow_rows(ids[:6], shown, covered[:6])
    assert [(d.colour, d.low) for d in after[3:5]] == [("1", True), ("1", True)], "past a doubt"


def test_a_surely_empty_box_amid_a_rows_marks_is_flagged_and_other_items_are_left() -> None:
    """A bare box between two sure marks is flagged and shown as the row's mark, the likelier
    reading; one beside another bare box, or before a barely sure mark, is flagged as empty."""
    ids = ["box-tally1-1", "box-tally1-2", "box-tally1-3", "space-4", "box-legend-1"]
    read = _row(("2", 0.9), (None, 1.0), ("2", 0.9), (None, 0.3), (None, 0.3))
    after = follow_rows(ids, read)
    assert after[1].colour == "2" and after[1].low
    assert after[3:] == read[3:]
    ids = [f"box-tally1-{k}" for k in range(1, 8)]
    read = _row(("2", 0.9), (None, 1.0), (None, 1.0), ("2", 0.9), (None, 1.0), ("2", 0.6), ("2", 1))
    after = follow_rows(ids, read)
    assert [(d.colour, d.low) for d in after[1:3]] == [(None, True), (None, True)]
    assert (after[4].colour, after[4].low) == (None, True)  # the mark after it barely sure


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


def test_a_lone_gap_in_a_row_holding_some_pencil_is_read_as_marked() -> None:
    ids = [f"box-track1-{k}" for k in range(1, 8)]
    read = _row(
        (None, 1.0), ("1", 0.9), (None, 1.0), ("1", 0.9), (None, 1.0), ("1", 0.9), (None, 1.0)
    )
    after = follow_rows(ids, read, [GAP_PENCIL, 0.5, GAP_PENCIL / 2, 0.5, GAP_PENCIL, 0.5, 0.2])
    assert [(d.colour, d.low) for d in after] == [
        ("1", False),  # the row's first box, before a sure mark
        ("1", False),
        ("1", True),  # bare between two marks: a gap no player leaves, so a person looks
        ("1", False),
        ("1", False),  # a tick dashed off across the border leaves a little of itself inside
        ("1", False),
        (None, False),  # after the last mark: left as read
    ]


def test_shadowed_boxes_before_a_barely_sure_mark_are_flagged_not_marked() -> None:
    """A shadow's grey across a row reads as a little pencil in every box it covers; a mark
    read barely sure beyond them must not turn them into ticks (the doubtful one between them
    is passed, as any doubtful box before a sure mark is)."""
    ids = [f"box-tally3-{k}" for k in range(1, 7)]
    read = _row(("2", 0.9), ("2", 0.9), (None, 1.0), (None, 0.4), (None, 1.0), ("2", 0.6))
    after = follow_rows(ids, read, [0.5, 0.5, 0.2, 0.15, 0.25, 0.3])
    assert [(d.colour, d.low) for d in after[2:5]] == [(None, True), ("2", False), (None, True)]


def _ticked_rows(
    seed: int, stream: int, **colouring: float
) -> tuple[dict[str, ItemReading], dict[str, str | None], list[list[str]]]:
    """A Mondrian sheet coloured with ``colouring``, scanned and read: the items read, the
    truth, and each row's ticked boxes in order but the last (passed on the way to it)."""
    rng = np.random.default_rng([seed, stream])
    sheet = finished_sheet(SheetSpec.create("mondrian", seed=seed), rng, **colouring)
    photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS["scan"], rng)
    reading = read_page(images_from_bytes(photo.data, "rows.jpg")[0].pixels, "rows.jpg")
    rows: dict[str, list[tuple[int, str]]] = {}
    for item_id, key in sheet.truth.items():
        match = ROW_BOX.fullmatch(item_id)
        if match is not None and key is not None:
            rows.setdefault(row_of(item_id), []).append((int(match.group(1)), item_id))
    passed = [[i for _, i in sorted(boxes)][:-1] for boxes in rows.values()]
    return {item.id: item for item in reading.items}, dict(sheet.truth), passed


@pytest.mark.parametrize("seed", [1, 2])
def test_ticks_dashed_off_across_their_borders_are_read_as_the_rows_marks(seed: int) -> None:
    """A third of the tally marks drawn low, over the box's lower border: every box ticked
    before a row's last tick is read as marked, without a look."""
    got, _, rows = _ticked_rows(seed, 9, graphite=0.3, hurried=0.3)
    passed = [item_id for ticked in rows for item_id in ticked]
    assert len(passed) > 20
    missed = [i for i in passed if got[i].colour is None or got[i].low]
    assert not missed, f"ticked boxes read empty or flagged: {missed}"


def test_a_tick_that_barely_shows_is_flagged_and_shown_as_marked() -> None:
    """A tenth of the tally marks pressed so lightly that their boxes look bare: a bare box
    between read marks is shown as marked and flagged; two bare side by side stay empty,
    flagged; no ticked box is read wrong without a flag."""
    shown = 0
    for seed in (1, 2):
        got, truth, rows = _ticked_rows(seed, 10, ghost=0.1)
        for ticked in rows:
            for k, item_id in enumerate(ticked):
                item = got[item_id]
                assert item.colour == truth[item_id] or item.low, item_id
                if item.colour is None:
                    beside = [got[i].colour for i in ticked[max(k - 1, 0) : k + 2] if i != item_id]
                    assert None in beside, f"{item_id}: a lone bare box among marks"
                elif item.low and item.coverage < GAP_PENCIL:
                    shown += 1
    assert shown > 0
