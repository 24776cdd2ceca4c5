"""Make the small photos of finished sheets that tests/test_photo_files_read.py reads.

Each photo is a synthetic finished sheet (:func:`papergames.photo.synthetic.finished_sheet`: a
random legal game where the game can be played to a finished sheet, coloured by the pencil
model), photographed by the camera model at a small size so the files stay small. The truth
(what is on every item, whether the position is legal) goes in ``truth.json`` beside them.

Run it again only when the sheets or the synthetic pipeline change on purpose::

    .venv/bin/python tests/make_photos.py
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

import numpy as np

from papergames.games import game_names
from papergames.photo.camera import TIERS, Tier, photograph
from papergames.photo.synthetic import finished_sheet
from papergames.sheets.spec import SheetSpec

FOLDER = Path(__file__).parent / "data" / "photos"
SEED = 3

SMALL_SCAN = dataclasses.replace(TIERS["scan"], scan_dpi=120, png_chance=0.0, jpeg_quality=(80, 80))
"""A copier's scan at 120 dpi, stored as JPEG: a sixth of a 300 dpi scan's pixels."""

SMALL_PHONE = dataclasses.replace(
    TIERS["phone"], frames=((2400, 1800),), fill=(0.85, 0.92), jpeg_quality=(75, 75)
)
"""A phone photo of 4.3 MP with the sheet filling it: the phone tier's tilt, light and blur,
with as many pixels per millimetre as a 12 MP photo where the sheet fills half the frame."""

PHONE_GAMES = ("mondrian", "springer")
"""Games also photographed by phone: the ones with the most kinds of item between them."""

FLAWED = (("springer", "neighbour"), ("arp", "tally"))
"""Illegal sheets (a flaw made on purpose in a legal game's final position)."""

FIRST_STYLE_GAMES = ("miro", "arp")
"""Games whose lines were first printed another way (one grey stroke, not two rules): also
photographed as printed then (``<game>-first``), as handouts already in classrooms are."""


def shots() -> list[tuple[str, str, Tier, str | None]]:
    """Every photo to make: file stem, game, tier and flaw (``first`` for the first style)."""
    made: list[tuple[str, str, Tier, str | None]] = [
        (f"{game}-scan", game, SMALL_SCAN, None) for game in game_names()
    ]
    made += [(f"{game}-phone", game, SMALL_PHONE, None) for game in PHONE_GAMES]
    made += [(f"{game}-{flaw}", game, SMALL_SCAN, flaw) for game, flaw in FLAWED]
    made += [(f"{game}-first", game, SMALL_SCAN, "first") for game in FIRST_STYLE_GAMES]
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=FOLDER)
    args = parser.parse_args()
    folder: Path = args.folder
    folder.mkdir(parents=True, exist_ok=True)
    truth: dict[str, object] = {}
    for stem, game, tier, flaw in shots():
        rng = np.random.default_rng([SEED, len(stem)])
        spec = SheetSpec.create(game, seed=SEED)
        first = flaw == "first"
        sheet = finished_sheet(spec, rng, flaw=None if first else flaw, first_style=first)
        photo = photograph(sheet.pixels, sheet.px_per_mm, tier, rng)
        name = f"{stem}.{'jpg' if photo.format == 'jpeg' else 'png'}"
        (folder / name).write_bytes(photo.data)
        truth[name] = {
            "spec": str(spec),
            "tier": tier.name,
            "legal": sheet.legal,
            "flaw": sheet.flaw,
            "first_style": first,
            "pencils": sheet.pencils,
            "items": sheet.truth,
        }
        print(f"{name:28} {len(photo.data) // 1024:5d} KB  legal={sheet.legal}")
    (folder / "truth.json").write_text(json.dumps(truth, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
