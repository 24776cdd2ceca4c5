"""Sheets built once and reused: within a reading, and across a class's photos of one handout."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import papergames.photo.read as read_module
import papergames.sheets.sheet as sheet_module
from papergames.photo.batch import read_photos
from papergames.photo.camera import TIERS, photograph
from papergames.photo.synthetic import finished_sheet
from papergames.sheets.sheet import KEPT_MOST, make_sheet, sheets_reused
from papergames.sheets.spec import SheetSpec


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
