"""The photo reader end to end: a finished sheet, photographed, read back to its position.

Synthetic sheets are made here from a seed (:mod:`papergames.photo.synthetic`), photographed
by the camera model, then read as the command line reads a file. The committed photos of
``tests/data/photos`` are checked in ``test_photo_files_read.py``.
"""

from __future__ import annotations

import dataclasses
import io
import json
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest
import segno
from numpy.typing import NDArray
from PIL import Image
from typer.testing import CliRunner

from papergames.cli import app
from papergames.photo.camera import TIERS, Photo, photograph
from papergames.photo.image import PagePixels, images_from_bytes
from papergames.photo.locate import Markers, find_markers
from papergames.photo.outcome import BREAKS, CHECK, CONSISTENT, RETAKE, judge_reading
from papergames.photo.read import PageReading, PhotoReadError, _marker_advice, read_page
from papergames.photo.synthetic import FinishedSheet, finished_sheet
from papergames.play.checker import check_text
from papergames.play.final import FinalVerdict
from papergames.sheets.compose import marker_boxes
from papergames.sheets.spec import SheetSpec

runner = CliRunner()
PENCILS = ("red", "blue", "green", "orange")
"""Pencils no reader should confuse: the tests check reading, not telling alike pencils apart."""


@dataclasses.dataclass(frozen=True)
class Shot:
    sheet: FinishedSheet
    photo: Photo

    @property
    def opened(self) -> PagePixels:
        return images_from_bytes(self.photo.data, "shot.jpg")[0]

    def window(self, box: tuple[float, float, float, float]) -> tuple[slice, slice]:
        """The rows and columns of the opened photo that show a box of the page (in mm)."""
        x0, y0, x1, y1 = box
        corners = self.photo.to_image(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
        corners = corners * self.opened.scale
        (left, top), (right, bottom) = corners.min(axis=0), corners.max(axis=0)
        return slice(int(top), int(bottom) + 1), slice(int(left), int(right) + 1)


@cache
def shot(game: str, seed: int, tier: str = "scan", flaw: str | None = None) -> Shot:
    rng = np.random.default_rng([seed, len(tier)])
    spec = SheetSpec.create(game, seed=seed)
    sheet = finished_sheet(spec, rng, flaw=flaw, pencils=PENCILS)
    return Shot(sheet, photograph(sheet.pixels, sheet.px_per_mm, TIERS[tier], rng))


@cache
def reading_of(game: str, seed: int, tier: str = "scan", flaw: str | None = None) -> PageReading:
    opened = shot(game, seed, tier, flaw).opened
    return read_page(opened.pixels, opened.source)


def misread(reading: PageReading, sheet: FinishedSheet) -> list[str]:
    """The items read with confidence but wrong."""
    return [
        f"{item.id}: read {item.colour}, is {sheet.truth.get(item.id)}"
        for item in reading.items
        if not item.low and item.colour != sheet.truth.get(item.id)
    ]


def saved(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# -- reading ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["springer", "mondrian", "arp", "delaunay", "klee"])
def test_a_scanned_legal_game_reads_back_to_its_position(game: str) -> None:
    reading = reading_of(game, 11)
    sheet = shot(game, 11).sheet
    assert reading.retake is None
    assert str(reading.spec) == str(sheet.spec)
    assert {item.id for item in reading.items} == set(sheet.truth)
    assert misread(reading, sheet) == []
    low = [item.id for item in reading.items if item.low]
    assert len(low) <= 0.02 * len(reading.items), low


def test_every_colour_box_in_play_teaches_the_reader_its_pencil() -> None:
    reading = reading_of("springer", 11)
    assert set(reading.colours) == set(shot("springer", 11).sheet.pencils)


def test_a_legal_game_is_never_called_broken_and_an_illegal_one_never_consistent() -> None:
    legal = judge_reading(reading_of("springer", 11))
    assert legal.outcome in (CONSISTENT, CHECK)
    broken_shot = shot("springer", 12, flaw="neighbour")
    assert broken_shot.sheet.legal is False
    broken = judge_reading(reading_of("springer", 12, flaw="neighbour"))
    assert broken.outcome in (BREAKS, CHECK)
    assert broken.outcome != CONSISTENT


def test_delaunay_takes_its_seats_from_the_named_colour_boxes() -> None:
    sheet = shot("delaunay", 11).sheet
    outcome = judge_reading(reading_of("delaunay", 11))
    assert outcome.transcript is not None
    assert set(outcome.reading.colours) == {"red", "blue", "yellow", "green"}
    assert len(outcome.transcript.players) == 2, "green is in play: two players (or two teams)"
    assert sheet.legal and outcome.outcome != BREAKS, outcome.lines()
    reading = dataclasses.replace(
        outcome.reading, colours={k: v for k, v in outcome.reading.colours.items() if k != "green"}
    )
    transcript = judge_reading(reading).transcript
    assert transcript is not None and len(transcript.players) == 3, "no green: three players"


def test_the_position_read_is_a_final_state_transcript_check_accepts() -> None:
    outcome = judge_reading(reading_of("springer", 11))
    assert outcome.transcript is not None and outcome.verdict is not None
    from papergames.play.transcript import format_transcript

    again = check_text(format_transcript(outcome.transcript))
    assert isinstance(again, FinalVerdict)
    assert again.ok == outcome.verdict.ok
    assert again.report.scores == outcome.verdict.report.scores


def test_two_hidden_corners_still_leave_the_sheet_readable() -> None:
    one = shot("springer", 11)
    pixels = one.opened.pixels.copy()
    page = one.sheet.page
    boxes = marker_boxes(page.width, page.height)
    for corner in ("tl", "br"):
        x0, y0, x1, y1 = boxes[corner]
        pixels[one.window((x0 - 2, y0 - 2, x1 + 2, y1 + 2))] = (200, 170, 150)
    reading = read_page(pixels, "finger.jpg")
    assert reading.retake is None
    assert misread(reading, one.sheet) == []


# -- what cannot be read ---------------------------------------------------------------------


def test_a_photo_without_a_sheet_asks_for_a_retake() -> None:
    table = np.random.default_rng(1).integers(60, 200, (900, 1200, 3), dtype=np.uint8)
    reading = read_page(table, "table.jpg")
    assert reading.retake is not None and "no sheet found" in reading.retake
    assert judge_reading(reading).outcome == RETAKE


def test_a_blurred_photo_asks_for_a_retake() -> None:
    pixels = shot("springer", 11).opened.pixels
    height, width = pixels.shape[:2]
    small = Image.fromarray(pixels).resize((width // 12, height // 12))
    blurred = np.asarray(small.resize((width, height), Image.Resampling.BILINEAR))
    reading = read_page(blurred, "shaky.jpg")
    assert reading.retake is not None
    assert "blurred" in reading.retake or "QR" in reading.retake


def qr_box(shot_: Shot) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = shot_.sheet.page.get("qr-spec").geometry.bounds
    return (x0, y0, x1, y1)


def with_qr(shot_: Shot, text: str) -> NDArray[np.uint8]:
    """The photo's pixels with its QR code replaced by one that holds ``text``."""
    opened = shot_.opened
    pixels = opened.pixels.copy()
    rows, cols = shot_.window(qr_box(shot_))
    out = io.BytesIO()
    segno.make(text, micro=False).save(out, kind="png", scale=10, border=0)
    size = (cols.stop - cols.start, rows.stop - rows.start)
    code = Image.open(out).convert("RGB").resize(size, Image.Resampling.NEAREST)
    pixels[rows, cols] = np.asarray(code)
    return pixels


def test_a_qr_code_that_is_not_a_papergames_spec_is_refused_in_one_line() -> None:
    pixels = with_qr(shot("springer", 11), "https://example.com/\x1b[31mgotcha")
    with pytest.raises(PhotoReadError) as info:
        read_page(pixels, "odd.jpg")
    message = str(info.value)
    assert "\n" not in message and "\x1b" not in message
    assert "not a papergames sheet spec" in message or "control characters" in message


def test_a_given_spec_that_disagrees_with_the_qr_code_is_refused() -> None:
    opened = shot("springer", 11).opened
    with pytest.raises(PhotoReadError, match="is not the sheet photographed"):
        read_page(opened.pixels, opened.source, spec_text="springer seed=12")


def test_a_given_spec_stands_in_for_a_torn_off_qr_code() -> None:
    one = shot("springer", 11)
    pixels = one.opened.pixels.copy()
    x0, y0, x1, y1 = qr_box(one)
    pixels[one.window((x0 - 3, y0 - 3, x1 + 3, y1 + 3))] = 235
    torn = read_page(pixels, "torn.jpg")
    assert torn.retake is not None and "QR code" in torn.retake
    given = read_page(pixels, "torn.jpg", spec_text=str(one.sheet.spec))
    assert given.retake is None
    assert misread(given, one.sheet) == []


def test_a_scan_printed_at_the_wrong_scale_is_named() -> None:
    one = shot("springer", 11)
    pixels = one.opened.pixels
    dpi = 300 / 25.4 * one.opened.scale  # the scan's true resolution, as a PDF would say
    shrunk = Image.fromarray(pixels).resize(
        (round(pixels.shape[1] * 0.9), round(pixels.shape[0] * 0.9)), Image.Resampling.LANCZOS
    )
    page = np.full_like(pixels, 250)
    page[: shrunk.height, : shrunk.width] = np.asarray(shrunk)
    reading = read_page(page, "shrunk.pdf page 1", image_px_per_mm=dpi)
    assert reading.retake is not None and "90%" in reading.retake


# -- the command ------------------------------------------------------------------------------


def test_read_prints_players_checks_and_verdict_and_writes_every_file(tmp_path: Path) -> None:
    photo = saved(tmp_path, "sheet.jpg", shot("springer", 11).photo.data)
    state, csv, debug = tmp_path / "state.txt", tmp_path / "class.csv", tmp_path / "seen.png"
    result = runner.invoke(
        app,
        ["read", str(photo), "--state", str(state), "--csv", str(csv), "--debug", str(debug)],
    )
    outcome = judge_reading(reading_of("springer", 11))
    assert result.exit_code == outcome.exit_code, result.output
    assert "sheet: springer seed=11" in result.output
    assert f"verdict: {outcome.outcome.upper()}" in result.output
    assert state.read_text().startswith("sheet: springer seed=11")
    assert check_text(state.read_text()).ok == (outcome.verdict is not None and outcome.verdict.ok)
    rows = csv.read_text().splitlines()
    assert len(rows) == 2 and rows[1].startswith(f"{photo},1,springer seed=11,{outcome.outcome}")
    with Image.open(debug) as image:
        assert image.size == (round(210 * 203 / 25.4), round(297 * 203 / 25.4))


def test_read_json_follows_the_documented_schema(tmp_path: Path) -> None:
    photo = saved(tmp_path, "sheet.jpg", shot("springer", 11).photo.data)
    result = runner.invoke(app, ["read", str(photo), "--json"])
    data = json.loads(result.stdout)
    assert set(data) >= {"source", "verdict", "spec", "players", "items", "checks", "timings"}
    assert {p["name"] for p in data["players"]} == {"Player1", "Player2"}
    assert {i["id"] for i in data["items"]} == set(shot("springer", 11).sheet.truth)
    assert all(0.0 <= i["confidence"] <= 1.0 for i in data["items"])


def test_read_exit_codes_say_what_happened(tmp_path: Path) -> None:
    table = io.BytesIO()
    Image.fromarray(np.full((600, 800, 3), 128, dtype=np.uint8)).save(table, format="JPEG")
    empty = saved(tmp_path, "table.jpg", table.getvalue())
    junk = saved(tmp_path, "notes.jpg", b"these are not pixels")
    retake = runner.invoke(app, ["read", str(empty)])
    assert retake.exit_code == 3 and "RETAKE" in retake.output
    broken = runner.invoke(app, ["read", str(junk)])
    assert broken.exit_code == 2
    assert broken.output.strip().splitlines()[-1].startswith("papergames: error: ")
    assert "Traceback" not in broken.output
    both = runner.invoke(app, ["read", str(empty), str(junk), "--csv", str(tmp_path / "c.csv")])
    assert both.exit_code == 2
    rows = (tmp_path / "c.csv").read_text().splitlines()
    assert [r.split(",")[3] for r in rows[1:]] == [RETAKE, "unreadable"]


def test_read_refuses_state_for_several_photos_before_reading(tmp_path: Path) -> None:
    result = runner.invoke(app, ["read", "a.jpg", "b.jpg", "--state", str(tmp_path / "s.txt")])
    assert result.exit_code == 2
    assert "give one photo" in result.output
    assert not (tmp_path / "s.txt").exists()


def _far(fill: tuple[float, float]) -> tuple[FinishedSheet, PageReading]:
    far = dataclasses.replace(TIERS["phone"], frames=((2400, 1800),), fill=fill)
    rng = np.random.default_rng(5)
    sheet = finished_sheet(SheetSpec.create("springer", seed=3), rng)
    opened = images_from_bytes(photograph(sheet.pixels, sheet.px_per_mm, far, rng).data, "far")[0]
    return sheet, read_page(opened.pixels, opened.source)


def test_a_sheet_too_small_in_the_photo_is_asked_to_be_closer_not_steadier() -> None:
    _, reading = _far((0.2, 0.22))
    assert reading.retake is not None and "come closer" in reading.retake
    assert judge_reading(reading).outcome == RETAKE


def test_a_sheet_small_in_the_photo_but_readable_is_read_not_refused() -> None:
    """A third of a 4 MP frame still shows Springer's triangles plainly: refuse only what
    cannot be read (it was refused as too small while every sheet had thin lines' blur limit)."""
    sheet, reading = _far((0.3, 0.35))
    assert reading.retake is None, reading.retake
    assert all(item.colour == sheet.truth[item.id] for item in reading.items)


def test_a_lone_small_corner_marker_asks_to_come_closer_not_for_hidden_corners() -> None:
    side = 30.0
    small = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float64) + 100
    advice = _marker_advice(Markers({"tl": small}))
    assert advice is not None and "come closer" in advice and "hidden" not in advice
    large = small * 4
    advice = _marker_advice(Markers({"tl": large}))
    assert advice is not None and "hidden" in advice


@pytest.mark.parametrize(("game", "spread_mm"), [("vasarely", 0.45), ("mondrian", 0.45)])
def test_a_blurred_photo_of_large_spaces_is_read_not_refused(game: str, spread_mm: float) -> None:
    """Hatched spaces of a square centimetre read through a blur that would spoil thin lines."""
    rng = np.random.default_rng(8)
    sheet = finished_sheet(SheetSpec.create(game, seed=8), rng)
    photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS["phone"], rng)
    pixels = images_from_bytes(photo.data, "soft.jpg")[0].pixels
    per_mm = find_markers(pixels).side_px() / 12.0
    soft = np.asarray(cv2.GaussianBlur(pixels, (0, 0), spread_mm * per_mm), dtype=np.uint8)
    reading = read_page(soft, "soft.jpg", spec_text=str(sheet.spec))
    assert reading.retake is None, reading.retake
    right = sum(item.colour == sheet.truth[item.id] for item in reading.items)
    assert right >= 0.99 * len(reading.items)


def test_a_photo_reads_the_same_with_its_parts_worked_out_meanwhile_and_in_turn() -> None:
    """Where to measure, the detector's blur and the traced lines are worked out on a second
    thread beside the rest, unless OpenCV has one thread (a batch's worker): the readings must
    not differ. Arp's sheet has traced lines and spaces both."""
    opened = shot("arp", 2).opened
    threads = cv2.getNumThreads()
    readings = []
    try:
        for count in (2, 1):
            cv2.setNumThreads(count)
            readings.append(read_page(opened.pixels, opened.source))
    finally:
        cv2.setNumThreads(threads)
    beside, in_turn = readings
    assert beside.items == in_turn.items
    assert any(item.colour is not None for item in in_turn.items if item.role == "segment")
