"""Photograph flat scans of finished sheets again, as a tier's camera takes them (hard by default).

Run: ``.venv/bin/python bench/rephotograph.py SCAN... --out DIR [--tier hard] [--seed 0]``.

``bench/photo.py`` measures the reader on sheets coloured by papergames' own pencil model. A scan
of a sheet coloured by hand, or by another generator (the independent set's ``scan-*`` photos),
carries pencils that model never made; this script lays such a scan flat (the reader finds its
corner squares and QR code, as ``papergames read`` does) and hands the flat page to
:func:`papergames.photo.camera.photograph`, so that the same pencils can be read again under a
steep, dim, blurred, curled photo with a finger over it. Each photo is written as
``DIR/<scan's folder or name>.jpg``; read them with ``papergames read --json`` and score them
with the truth that came with the scans. For the independent set (its README gives the
scorer's commands)::

    .venv/bin/python bench/rephotograph.py ../shared/photos/independent/cases/scan-*/photo.jpg \\
        --out /tmp/hard
    for f in /tmp/hard/*.jpg; do
      .venv/bin/papergames read "$f" --json > /tmp/hard-raw/$(basename "$f" .jpg).json
    done

then ``tools/adapt.py`` and ``tools/score.py`` on ``/tmp/hard-raw``, whose files are named as the
scans' cases (the scorer prints them under the scans' tier).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from papergames.errors import PapergamesError
from papergames.photo.camera import TIERS, photograph
from papergames.photo.image import read_images
from papergames.photo.read import read_page
from papergames.photo.register import rectify

PAGE_PX_PER_MM = 300 / 25.4
"""Resolution the scan is laid flat at before it is photographed again: a copier's 300 dpi."""


def flat_page(scan: Path) -> np.ndarray:
    """The scan's page laid flat at :data:`PAGE_PX_PER_MM`, as the reader lays a photo flat
    (:func:`papergames.photo.register.rectify`: the scan's edge pixels repeated beyond it).

    Raises:
        SystemExit: the file is not a picture, or the reader could not find the sheet on it
            (one line says why).
    """
    try:
        opened = read_images(scan)[0]
    except PapergamesError as exc:
        sys.exit(str(exc))
    reading = read_page(opened.pixels, opened.source, image_px_per_mm=opened.px_per_mm)
    if reading.retake is not None or reading.homography is None or reading.page is None:
        sys.exit(f"{scan}: the sheet cannot be laid flat: {reading.retake}")
    page = reading.page
    return rectify(opened.pixels, reading.homography, page.width, page.height, PAGE_PX_PER_MM)


def photo_name(scan: Path) -> str:
    """A scan's photo's name: its folder's when the scan is a case's ``photo.jpg``."""
    return scan.parent.name if scan.stem == "photo" else scan.stem


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scans", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--tier", default="hard", choices=sorted(TIERS))
    parser.add_argument("--seed", type=int, default=0, help="the camera's choices")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for number, scan in enumerate(args.scans):
        page = flat_page(scan)
        rng = np.random.default_rng([args.seed, number])
        photo = photograph(page, PAGE_PX_PER_MM, TIERS[args.tier], rng)
        suffix = "jpg" if photo.format == "jpeg" else "png"
        target = args.out / f"{photo_name(scan)}.{suffix}"
        target.write_bytes(photo.data)
        print(f"{scan} -> {target} ({len(photo.data) // 1000} kB)")


if __name__ == "__main__":
    main()
