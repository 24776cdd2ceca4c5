"""Sheets built once and reused: within a reading, and across a class's photos of one handout."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

import papergames.photo.read as read_module
import papergames.sheets.sheet as sheet_module
from papergames.photo.batch import read_photos
from papergames.photo.camera import TIERS, photograph
from papergames.photo.synthetic import finished_sheet
from papergames.play.transcript import parse_transcript
from papergames.sheets.sheet import KEPT_MOST, make_sheet, sheets_reused
from papergames.sheets.spec import SheetSpec

if TYPE_CHECKING:
    from starlette.testclient import TestClient

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_a_reuse_block_keeps_the_sheets_lately_asked_for() -> None:
    specs = [SheetSpec.create("spaghetti", seed=seed) for seed in range(KEPT_MOST + 1)]
    with sheets_reused():
        first = [make_sheet(spec) for spec in specs[:KEPT_MOST]]
        assert make_sheet(specs[0]) is first[0], "asked for again, so now the latest"
        make_sheet(specs[KEPT_MOST])
        assert make_sheet(specs[0]) is first[0]
        assert make_sheet(specs[1]) is not first[1], "the least lately asked for went"
        assert make_sheet(specs[1]) == first[1], "and is built again the same"


def _photos(folder: Path, spec: SheetSpec, count: int) -> list[Path]:
    """``count`` phone photos of one handout, each finished by different hands."""
    paths = []
    for k in range(count):
        rng = np.random.default_rng([k, 21])
        sheet = finished_sheet(spec, rng)
        photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS["phone"], rng)
        path = folder / f"pupil-{k}.jpg"
        path.write_bytes(photo.data)
        paths.append(path)
    return paths


def test_a_class_batch_of_one_handout_builds_prints_and_lays_out_its_sheet_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three photos of one handout read in one batch: the sheet is built, drawn at the reading
    resolution and cut into the items to read once, and every photo reads as it does alone."""
    spec = SheetSpec.create("springer", seed=21)
    paths = _photos(tmp_path, spec, 3)
    alone = [read_photos([path], jobs=1)[0].outcomes[0] for path in paths]
    made: Counter[str] = Counter()
    for module, name in (
        (sheet_module, "_built"),
        (read_module, "printed"),
        (read_module, "read_items"),
    ):
        monkeypatch.setattr(module, name, _counted(getattr(module, name), name, made))
    together = [result.outcomes[0] for result in read_photos(paths, jobs=1)]
    assert made == Counter({"_built": 1, "printed": 1, "read_items": 1})
    for one, other in zip(alone, together, strict=True):
        assert one.outcome == other.outcome
        assert one.reading.items == other.reading.items


def _counted(work: Callable[..., object], name: str, made: Counter[str]) -> Callable[..., object]:
    def counting(*args: object) -> object:
        made[name] += 1
        return work(*args)

    return counting


def test_the_web_page_builds_a_loaded_games_sheet_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Springer sheet with its labels takes seconds to build: loading a game into the
    recorder, drawing its preview, playing on and checking the game build it once between them
    (the recorder once built it for each seating and the preview again: twenty seconds)."""
    import papergames.web.making as making
    import papergames.web.record as record

    making._built_sheet.cache_clear()
    record._game.cache_clear()
    text = (EXAMPLES / "springer.txt").read_text(encoding="utf-8")
    transcript = parse_transcript(text)
    made: Counter[str] = Counter()
    monkeypatch.setattr(sheet_module, "_built", _counted(sheet_module._built, "_built", made))
    loaded = client.post("/record", files={"transcript": ("game.txt", text, "text/plain")})
    assert loaded.status_code == 200 and f'data-spec="{transcript.spec}"' in loaded.text
    query = "&".join(str(transcript.spec).split()[1:])  # seed=7 labels=on
    preview = client.get(f"/api/preview/springer?{query}")
    assert preview.status_code == 200 and preview.headers["x-spec"] == str(transcript.spec)
    seats = [p.name for p in transcript.players]
    moves = [line.text for line in transcript.moves]
    body = {"spec": str(transcript.spec), "players": seats, "moves": moves[:-1], "text": moves[-1]}
    played = client.post("/api/record/springer", json=body)
    assert played.status_code == 200 and "error" not in played.json()
    assert made == Counter({"_built": 1})
    made.clear()
    checked = client.post("/check", files={"transcript": ("game.txt", text, "text/plain")})
    assert checked.status_code == 200 and "data-paint" in checked.text
    assert made == Counter({"_built": 1}), "the verdict and its drawing share one build"
