"""Time `papergames read PHOTO` one photo at a time, each in a fresh process, as a user runs it.

Run: ``.venv/bin/python bench/one_photo.py [--photos 16] [--tier phone] [--runs 2]``, or
``... --folder DIR [--pattern GLOB]`` for photos already on disk; for the independent set's
phone photos: ``--folder ../shared/photos/independent/cases --pattern 'phone-*/photo.jpg'``.
Without ``--folder`` it makes the photos first, as ``bench/batch.py`` does (synthetic finished
sheets of the art games and Crossing the Rings, at the tier's full size: 8-12 MP for phone).

Every photo is read with ``papergames read PHOTO --json``, one after another, and the whole
round is run ``--runs`` times, so that the machine's slow and quick minutes fall on every
photo alike. Per round, the table gives the median and worst of the reader's own time (the
JSON's ``timings.total``: from the decoded photo to its reading), of the command's wall time
(from starting Python to the process's end), and the median of their difference (starting
Python, importing, decoding the photo and judging the sheet); and the largest process's peak
memory over all rounds. The issue's targets: under 1.5 s in the reader for a 12 MP photo and
under 2 s end to end, on the 2-core machine, in under 1 GB.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from batch import make_photos

from papergames.photo.camera import TIERS


def read_once(program: Path, photo: Path) -> tuple[float, float]:
    """The reader's own seconds and the command's wall seconds for one photo.

    Raises:
        SystemExit: the command gave no reading of the photo (one line says why).
    """
    start = time.perf_counter()
    done = subprocess.run(
        [str(program), "read", str(photo), "--json"], capture_output=True, check=False
    )
    wall = time.perf_counter() - start
    try:
        found = json.loads(done.stdout)
    except ValueError:
        found = None
    sheet = found[0] if isinstance(found, list) and found else found
    if not isinstance(sheet, dict) or "timings" not in sheet:
        said = sheet.get("error") if isinstance(sheet, dict) else done.stderr.decode().strip()
        sys.exit(f"{photo}: no reading ({said or 'nothing said'})")
    return float(sheet["timings"]["total"]), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=16, help="photos to make")
    parser.add_argument("--tier", default="phone", choices=sorted(TIERS))
    parser.add_argument("--folder", type=Path, default=None, help="read these photos instead")
    parser.add_argument("--pattern", default="*.jpg", help="which files of --folder")
    parser.add_argument("--runs", type=int, default=2, help="rounds over every photo")
    args = parser.parse_args()
    program = Path(sys.executable).parent / "papergames"
    with tempfile.TemporaryDirectory() as tmp:
        if args.folder is not None:
            photos = sorted(args.folder.glob(args.pattern))
            where = f"{len(photos)} photos of {args.folder} ({args.pattern})"
        else:
            photos = make_photos(Path(tmp), args.photos, args.tier)
            where = f"{len(photos)} synthetic {args.tier} photos"
        if not photos:
            sys.exit(f"no photos match {args.pattern} in {args.folder}")
        rounds = [[read_once(program, photo) for photo in photos] for _ in range(args.runs)]
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{where}, `papergames read PHOTO --json` one at a time, {args.runs} rounds")
    print()
    print(
        "| round | reader median s | reader worst s | end to end median s "
        "| end to end worst s | outside the reader, median s |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for k, times in enumerate(rounds, start=1):
        reader = [r for r, _ in times]
        wall = [w for _, w in times]
        outside = statistics.median(w - r for r, w in times)
        print(
            f"| {k} | {statistics.median(reader):.2f} | {max(reader):.2f} "
            f"| {statistics.median(wall):.2f} | {max(wall):.2f} | {outside:.2f} |"
        )
    print()
    print(f"peak memory of the largest process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
