"""The reader on committed photos of finished sheets, one scan of every game and a few more.

The photos in ``tests/data/photos`` were made by ``tests/make_photos.py`` (small copier scans at
120 dpi, two phone photos, two sheets made illegal on purpose) with the truth of every item in
``truth.json``. Reading them is the check that a real file, as committed, still reads: the QR
code names the sheet, every item is either read right or flagged, and the verdict never calls
a misread or illegal sheet consistent.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from papergames.cli import app
from papergames.games import get_game
from papergames.photo.image import images_from_bytes
from papergames.photo.outcome import (
    BREAKS,
    CHECK,
    CONSISTENT,
    JUDGED_ON_BEST,
    SheetOutcome,
    judge_reading,
)
from papergames.photo.read import read_page

FOLDER = Path(__file__).parent / "data" / "photos"
TRUTH: dict[str, dict[str, Any]] = json.loads((FOLDER / "truth.json").read_text())
NAMES = sorted(TRUTH)
runner = CliRunner()


@cache
def outcome_of(name: str) -> SheetOutcome:
    opened = images_from_bytes((FOLDER / name).read_bytes(), name)[0]
    return judge_reading(read_page(opened.pixels, opened.source))


def misread(name: str) -> list[str]:
    truth = TRUTH[name]["items"]
    return [
        f"{item.id}: read {item.colour}, is {truth.get(item.id)}"
        for item in outcome_of(name).reading.items
        if not item.low and item.colour != truth.get(item.id)
    ]


def test_every_game_has_a_committed_photo() -> None:
    from papergames.games import game_names

    games = {truth["spec"].split()[0] for truth in TRUTH.values()}
    assert games == set(game_names())
    assert all((FOLDER / name).stat().st_size < 600_000 for name in NAMES), "kept small"


@pytest.mark.parametrize("name", NAMES)
def test_a_committed_photo_names_its_sheet_and_reads_every_item(name: str) -> None:
    reading = outcome_of(name).reading
    assert reading.retake is None, reading.retake
    assert str(reading.spec) == TRUTH[name]["spec"]
    assert {item.id for item in reading.items} == set(TRUTH[name]["items"])


@pytest.mark.parametrize("name", NAMES)
def test_a_misread_or_illegal_sheet_is_never_called_consistent(name: str) -> None:
    outcome = outcome_of(name)
    if misread(name) or TRUTH[name]["legal"] is False:
        assert outcome.outcome != CONSISTENT, outcome.lines()
    if TRUTH[name]["legal"] is True and not misread(name):
        assert outcome.outcome != BREAKS, outcome.lines()
        assert not outcome.sure_breaches(), outcome.lines()


def test_nearly_every_item_read_with_confidence_is_right() -> None:
    confident = sum(not item.low for name in NAMES for item in outcome_of(name).reading.items)
    wrong = [f"{name}: {line}" for name in NAMES for line in misread(name)]
    assert confident > 3000
    assert len(wrong) <= 0.001 * confident, wrong


def test_an_illegal_sheet_read_cleanly_names_what_breaks() -> None:
    outcome = outcome_of("springer-neighbour.jpg")
    assert not misread("springer-neighbour.jpg")
    assert outcome.outcome == BREAKS
    assert outcome.verdict is not None and outcome.verdict.breaches
    assert any("space-" in line for line in outcome.lines())


@pytest.mark.parametrize("name", ["cannon-ball-scan.jpg", "compositie-scan.jpg"])
def test_a_sheet_with_nothing_to_read_or_judge_says_so(name: str) -> None:
    outcome = outcome_of(name)
    title = get_game(TRUTH[name]["spec"].split()[0]).title
    assert outcome.outcome != CONSISTENT
    assert any(title in doubt for doubt in outcome.doubts), outcome.doubts


def test_the_command_reads_the_committed_photos_into_one_class_list(tmp_path: Path) -> None:
    names = ["springer-scan.jpg", "springer-neighbour.jpg", "mondrian-scan.jpg"]
    table = tmp_path / "class.csv"
    result = runner.invoke(
        app, ["read", *(str(FOLDER / n) for n in names), "--csv", str(table), "--quiet"]
    )
    rows = table.read_text().splitlines()
    assert len(rows) == 1 + len(names)
    verdicts = [outcome_of(n).outcome for n in names]
    for row, verdict in zip(rows[1:], verdicts, strict=True):
        assert verdict in row
    assert result.exit_code == max(outcome_of(n).exit_code for n in names)


def test_a_sheet_to_check_says_its_rule_checks_take_each_items_best_reading() -> None:
    checked = [n for n in NAMES if outcome_of(n).outcome == CHECK and outcome_of(n).verdict]
    assert checked, "some committed photo has items to check and a verdict"
    for name in checked:
        lines = outcome_of(name).lines()
        note = lines.index(JUDGED_ON_BEST)
        assert note < next(k for k, line in enumerate(lines) if line.startswith("verdict:"))


def test_each_players_pencil_is_named_as_the_pencil_it_is() -> None:
    """A colour box is hatched, so its average is the pencil thinned with paper white: the name
    must still be the pencil's (a hatched purple is not "light blue")."""
    named = 0
    for name in NAMES:
        transcript = outcome_of(name).transcript
        pencils = TRUTH[name].get("pencils", {})
        for player in transcript.players if transcript is not None else []:
            pencil = pencils.get(player.name.removeprefix("Player"))
            if pencil is not None:
                assert player.colour.rsplit("-2", 1)[0] == pencil.replace(" ", "-"), name
                named += 1
    assert named >= 20
