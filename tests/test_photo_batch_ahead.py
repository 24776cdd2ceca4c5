"""Sheets read in one process, the first photo decoded on a second thread while the reader's
modules load (:func:`papergames.photo.batch._in_turn`): what comes of each file is what comes of
it read alone, a damaged first file included."""

from __future__ import annotations

import shutil
from pathlib import Path

from papergames.photo.batch import read_photos

PHOTOS = Path(__file__).parent / "data" / "photos"


def _a_photo() -> Path:
    return sorted(PHOTOS.glob("*.jpg"))[0]


def test_a_truncated_first_photo_is_named_and_the_next_is_still_read(tmp_path: Path) -> None:
    good = tmp_path / "good.jpg"
    shutil.copy(_a_photo(), good)
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    broken, read = read_photos([cut, good], jobs=1)
    assert broken.error is not None and "truncated" in broken.error
    assert not broken.outcomes
    assert read.error is None and len(read.outcomes) == 1
    [alone] = read_photos([good], jobs=1)[0].outcomes
    assert read.outcomes[0].outcome == alone.outcome
    assert read.outcomes[0].reading.items == alone.reading.items
