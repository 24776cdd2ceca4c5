"""A print carrying another sheet's QR code is told apart from the sheet the code names."""

from __future__ import annotations

import numpy as np
import pytest

from papergames.photo.camera import TIERS, photograph
from papergames.photo.image import images_from_bytes
from papergames.photo.outcome import RETAKE, judge_reading
from papergames.photo.read import PageReading, read_page
from papergames.photo.synthetic import finished_sheet
from papergames.sheets.spec import SheetSpec


def _read(spec: str, tier: str, qr_of: str | None = None) -> PageReading:
    rng = np.random.default_rng(len(spec) + len(tier))
    other = SheetSpec.parse(qr_of) if qr_of is not None else None
    sheet = finished_sheet(SheetSpec.parse(spec), rng, qr_of=other)
    photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS[tier], rng)
    opened = images_from_bytes(photo.data, f"{tier}.jpg")[0]
    return read_page(opened.pixels, opened.source)


@pytest.mark.parametrize(
    ("spec", "qr_of", "tier"),
    [
        ("klee seed=3", "klee seed=4", "scan"),
        ("klee seed=3", "rings seed=3", "phone"),
        ("springer seed=3", "springer seed=7", "phone"),
        ("arp seed=3", "arp seed=9", "scan"),
    ],
)
def test_a_print_with_another_sheets_qr_code_is_not_judged(
    spec: str, qr_of: str, tier: str
) -> None:
    reading = _read(spec, tier, qr_of)
    assert str(reading.spec) == qr_of, "the code is read"
    assert reading.retake is not None and "does not match" in reading.retake
    assert f"'{qr_of}'" in reading.retake
    assert judge_reading(reading).outcome == RETAKE


@pytest.mark.parametrize("tier", ["scan", "phone", "hard"])
def test_a_sheet_with_its_own_qr_code_is_read(tier: str) -> None:
    reading = _read("klee seed=3", tier)
    assert reading.retake is None or "does not match" not in reading.retake
