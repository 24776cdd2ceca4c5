"""How a read sheet with items to check is judged: on every item's best reading, a broken rule
that hangs on a doubtful item shown as one that *may* be broken, never as a sure breach.

The readings here are made straight from a synthetic finished sheet's truth (no photo), so each
test decides exactly which items the reader doubts.
"""

from __future__ import annotations

import dataclasses
from functools import cache

import numpy as np
import pytest

from papergames.photo.items import read_items, row_seat
from papergames.photo.outcome import BREAKS, CHECK, CONSISTENT, SheetOutcome, judge_reading
from papergames.photo.pencil import PENCILS
from papergames.photo.read import ItemReading, PageReading
from papergames.photo.synthetic import FinishedSheet, finished_sheet
from papergames.play.checker import check_text
from papergames.play.final import MARKED, FinalVerdict
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

pytestmark = pytest.mark.usefixtures("sheets_built_once")

JUDGED = ("arp", "mondrian", "springer", "delaunay", "klee", "rings")
"""Games whose synthetic sheets the rules judge legal: played to the end by their rules engines
(Crossing the Rings is coloured at random, and any colouring of its rings stands)."""


@cache
def finished(game: str, seed: int, flaw: str | None = None) -> FinishedSheet:
    return finished_sheet(SheetSpec.create(game, seed=seed), np.random.default_rng(seed), flaw=flaw)


def reading_of(sheet: FinishedSheet, low: frozenset[str] = frozenset()) -> PageReading:
    """The reading a perfect reader would make of ``sheet``, doubting the items in ``low``."""
    items = tuple(
        ItemReading(
            item.id,
            item.role,
            sheet.truth[item.id],
            1.0 if sheet.truth[item.id] else 0.0,
            0.3 if item.id in low else 0.99,
            item.id in low,
        )
        for item in read_items(sheet.page, sheet.spec.game)
    )
    colours = {key: PENCILS[pencil] for key, pencil in sheet.pencils.items()}
    return PageReading(str(sheet.spec), sheet.spec, 1, colours, items, None, {}, 6.0)


def doubted(outcome: SheetOutcome, share: float, seed: int) -> frozenset[str]:
    """A random share of the coloured items (lines first, where leaving out does most harm)."""
    rng = np.random.default_rng(seed)
    coloured = sorted(i.id for i in outcome.reading.items if i.colour and i.role != "box")
    count = max(1, round(share * len(coloured)))
    return frozenset(rng.choice(coloured, size=min(count, len(coloured)), replace=False))


def breach_lines(outcome: SheetOutcome) -> list[str]:
    return [line for line in outcome.lines() if line.startswith("BREAKS THE RULES")]


@pytest.mark.parametrize("game", JUDGED)
@pytest.mark.parametrize("seed", [1, 2])
def test_doubtful_items_read_right_leave_a_legal_sheet_unbroken(game: str, seed: int) -> None:
    sheet = finished(game, seed)
    sure = judge_reading(reading_of(sheet))
    assert sure.outcome == CONSISTENT, sure.lines()
    for share in (0.05, 0.3):
        outcome = judge_reading(reading_of(sheet, doubted(sure, share, seed)))
        assert outcome.outcome == CHECK
        assert not outcome.sure_breaches() and not breach_lines(outcome), outcome.lines()
        assert outcome.verdict is not None and sure.verdict is not None
        assert outcome.verdict.counts == sure.verdict.counts, "doubtful items are still counted"
        assert outcome.verdict.report.scores == sure.verdict.report.scores


@pytest.mark.parametrize("game", JUDGED)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_doubtful_items_read_in_another_seats_colour_leave_no_sure_breach(
    game: str, seed: int
) -> None:
    """A space read in doubt in the wrong seat's colour may cut a winning chain or close a
    capture for the wrong player: whatever the rules then find, a second look could undo it."""
    sheet = finished(game, seed)
    sure = judge_reading(reading_of(sheet))
    seats = sorted({v for v in sheet.truth.values() if v and v.isdigit()})
    moved = doubted(sure, 0.3, seed)
    reading = reading_of(sheet, moved)
    swapped = tuple(
        dataclasses.replace(i, colour=seats[(seats.index(i.colour) + 1) % len(seats)])
        if i.id in moved and i.colour in seats
        else i
        for i in reading.items
    )
    outcome = judge_reading(dataclasses.replace(reading, items=swapped))
    assert outcome.outcome == CHECK
    assert not outcome.sure_breaches() and not breach_lines(outcome), outcome.lines()


def test_arp_lines_in_doubt_do_not_open_the_spaces_they_close() -> None:
    """Leaving a doubtful line out used to leave every space it closes 'captured but open'."""
    sheet = finished("arp", 3)
    sure = judge_reading(reading_of(sheet))
    lines = frozenset(i.id for i in sure.reading.items if i.role == "segment" and i.colour)
    outcome = judge_reading(reading_of(sheet, frozenset(sorted(lines)[:15])))
    assert outcome.verdict is not None and not outcome.verdict.breaches, outcome.lines()
    assert outcome.verdict.report.winners == sure.verdict.report.winners  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", [3, 5])
def test_arp_lines_read_empty_in_doubt_leave_no_sure_breach(seed: int) -> None:
    """A traced line read as empty with low confidence may be traced after all: the spaces it
    closes, read as captured with an open outline, may break the rules, never surely."""
    sheet = finished("arp", seed)
    sure = judge_reading(reading_of(sheet))
    lines = sorted(i.id for i in sure.reading.items if i.role == "segment" and i.colour)
    missed = frozenset(lines[::5])
    reading = reading_of(sheet, missed)
    blanked = tuple(
        dataclasses.replace(i, colour=None, coverage=0.6) if i.id in missed else i
        for i in reading.items
    )
    outcome = judge_reading(dataclasses.replace(reading, items=blanked))
    assert outcome.verdict is not None and outcome.verdict.breaches, "open outlines are seen"
    assert not outcome.sure_breaches() and not breach_lines(outcome), outcome.lines()


@pytest.mark.parametrize("game", ["springer", "mondrian", "delaunay"])
def test_a_broken_rule_away_from_the_doubtful_items_stays_sure(game: str) -> None:
    sheet = finished(game, 4, flaw="neighbour")
    sure = judge_reading(reading_of(sheet))
    assert sure.outcome == BREAKS and sure.verdict is not None
    pairs = [b for b in sure.verdict.breaches if b.code in ("same-colour", "own-colour")]
    assert pairs, sure.lines()
    involved = {item for b in pairs for item in b.items}
    far = doubted(sure, 0.2, 4) - involved
    outcome = judge_reading(reading_of(sheet, far))
    assert outcome.outcome == CHECK
    for breach in pairs:
        assert breach in outcome.sure_breaches(), outcome.lines()


@pytest.mark.parametrize("game", ["springer", "mondrian", "delaunay"])
def test_a_broken_rule_that_hangs_on_a_doubtful_item_may_be_broken(game: str) -> None:
    sheet = finished(game, 4, flaw="neighbour")
    sure = judge_reading(reading_of(sheet))
    assert sure.verdict is not None
    pair = next(b for b in sure.verdict.breaches if b.code in ("same-colour", "own-colour"))
    outcome = judge_reading(reading_of(sheet, frozenset(pair.items[-1:])))
    assert pair in outcome.unsure and pair not in outcome.sure_breaches()
    hedged = [line for line in outcome.lines() if line.startswith("MAY BREAK THE RULES")]
    assert any(f"({', '.join(pair.items)})" in line for line in hedged), outcome.lines()
    assert not any(", ".join(pair.items) in line for line in breach_lines(outcome))
    shown = outcome.to_json()["checks"]["breaches"]
    assert [b["sure"] for b in shown if tuple(b["items"]) == pair.items] == [False]


def test_the_state_written_marks_the_doubtful_items_and_checks_the_same() -> None:
    sheet = finished("arp", 3)
    sure = judge_reading(reading_of(sheet))
    low = doubted(sure, 0.1, 3)
    outcome = judge_reading(reading_of(sheet, low))
    text = outcome.state_text()
    note = "# check: read with low confidence"
    marked = {line.split()[1] for line in text.splitlines() if line.endswith(note)}
    assert marked == {i for i in low if sheet.truth[i]}
    again = check_text(text)
    assert isinstance(again, FinalVerdict) and outcome.verdict is not None
    assert again.counts == outcome.verdict.counts
    assert again.report.scores == outcome.verdict.report.scores
    assert dataclasses.asdict(again.report) == dataclasses.asdict(outcome.verdict.report)


def test_a_box_in_another_seats_row_is_marked_low_wherever_the_sheet_is_shown() -> None:
    sheet = finished("springer", 1)
    reading = reading_of(sheet)
    row_two = next(i for i in reading.items if i.id.startswith("box-tally2-") and i.colour is None)
    stray = dataclasses.replace(row_two, colour="1", coverage=0.2)
    items = tuple(stray if i.id == stray.id else i for i in reading.items)
    outcome = judge_reading(dataclasses.replace(reading, items=items))
    assert outcome.outcome == CHECK
    assert f"{stray.id} in seat 2's row carries seat 1's colour" in outcome.doubts
    marked = {i.id: i.low for i in outcome.reading.items}
    assert marked[stray.id] and sum(marked.values()) == 1
    shown = {i["id"]: i["low"] for i in outcome.to_json()["items"]}
    assert shown[stray.id] is True
    assert not any(stray.id in line for line in outcome.state_text().splitlines())


def test_tallies_that_disagree_only_through_a_doubtful_space_may_be_broken() -> None:
    """A doubtful Arp space read in another player's colour moves a point between two players:
    with it left out the tallies still disagree, but about one player, not two."""
    sheet = finished("arp", 3)
    reading = reading_of(sheet)
    space = next(i for i in reading.items if i.role == "space" and i.colour)
    other = next(k for k in sorted(sheet.pencils) if k.isdigit() and k != space.colour)
    misread = dataclasses.replace(space, colour=other, confidence=0.3, low=True)
    items = tuple(misread if i.id == space.id else i for i in reading.items)
    outcome = judge_reading(dataclasses.replace(reading, items=items))
    assert outcome.verdict is not None
    tally = [b for b in outcome.verdict.breaches if b.code == "tally"]
    assert tally, outcome.lines()
    assert not outcome.sure_breaches() and outcome.unsure == tally
    assert not breach_lines(outcome)


def test_the_state_of_a_later_page_marks_its_doubtful_items_too() -> None:
    """A round of Crossing the Rings after the first is written ``p2/space-1``."""
    spec = SheetSpec.parse("rings rounds=2 seed=2")
    page = make_sheet(spec).pages[1]
    spaces = [i for i in read_items(page, "rings") if i.role == "space"]
    doubtful = spaces[0].id
    items = tuple(
        ItemReading(i.id, i.role, "1" if i in spaces[:3] else None, 1.0, 0.3, i.id == doubtful)
        for i in read_items(page, "rings")
    )
    reading = PageReading("round 2", spec, 2, {"1": PENCILS["red"]}, items, None, {}, 6.0)
    text = judge_reading(reading).state_text()
    marked = [
        line for line in text.splitlines() if line.endswith("# check: read with low confidence")
    ]
    assert marked == [f"final: p2/{doubtful} red  # check: read with low confidence"]


@pytest.mark.parametrize("game", JUDGED)
def test_score_boxes_ticked_in_graphite_count_for_their_rows(game: str) -> None:
    spec = SheetSpec.create(game, seed=5)
    sheet = finished_sheet(spec, np.random.default_rng(5), graphite=1.0)
    marked = {key for item, key in sheet.truth.items() if row_seat(item) and key}
    assert marked <= {MARKED}, "every seat ticks its score boxes in graphite"
    outcome = judge_reading(reading_of(sheet))
    assert outcome.outcome == CONSISTENT, outcome.lines()
    assert outcome.verdict is not None and outcome.verdict.ok
