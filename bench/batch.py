"""Time a teacher's batch: `papergames read` on a class's photos at once, as a separate process.

Run: ``.venv/bin/python bench/batch.py [--photos 30] [--tier phone] [--handout GAME]``. It makes
the photos first (synthetic finished sheets of the art games and Crossing the Rings, or with
``--handout`` all of one sheet of that game as a class's photocopies are, photographed at the tier's
full size: 8-12 MP for phone), writes them to a temporary folder, then runs
``papergames read <every photo> --csv class.csv --quiet`` in a fresh process and reports the
wall time, the time per photo, the peak memory of the process and its workers, and how the
sheets came out. The issue's target is 30 photos in well under a minute on the 2-core machine.
"""

from __future__ import annotations

import argparse
import csv
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

from papergames.photo.camera import TIERS, photograph
from papergames.photo.synthetic import finished_sheet
from papergames.sheets.spec import SheetSpec

GAMES = ("vasarely", "miro", "mondrian", "arp", "delaunay", "klee", "springer", "rings")


def make_photos(folder: Path, count: int, tier: str, handout: str | None = None) -> list[Path]:
    """Write ``count`` photos of finished sheets into ``folder``: of as many sheets, or all of
    one ``handout`` (a game's name) as a class's photocopies are, each finished apart."""
    paths = []
    for k in range(count):
        game = handout or GAMES[k % len(GAMES)]
        rng = np.random.default_rng([k, 7])
        seed = 100 if handout else 100 + k
        sheet = finished_sheet(SheetSpec.create(game, seed=seed), rng)
        photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS[tier], rng)
        path = folder / f"{k:02d}-{game}.{'jpg' if photo.format == 'jpeg' else 'png'}"
        path.write_bytes(photo.data)
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=30)
    parser.add_argument("--tier", default="phone", choices=sorted(TIERS))
    parser.add_argument(
        "--handout",
        choices=GAMES,
        default=None,
        help="every photo of one sheet of this game, as a class's photocopied handout",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = make_photos(folder, args.photos, args.tier, args.handout)
        size = sum(p.stat().st_size for p in paths) / len(paths) / 1e6
        table = folder / "class.csv"
        program = Path(sys.executable).parent / "papergames"
        command = [str(program), "read", *map(str, paths)]
        start = time.perf_counter()
        done = subprocess.run(
            [*command, "--csv", str(table), "--quiet"], capture_output=True, check=False
        )
        wall = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        with table.open(newline="") as handle:
            rows = list(csv.DictReader(handle))
    verdicts = Counter(row.get("verdict", "?") for row in rows)
    sheets = f"all of one {args.handout} handout" if args.handout else "each of its own sheet"
    print(
        f"{args.photos} {args.tier} photos ({size:.1f} MB each, {sheets}), "
        "`papergames read ... --csv`"
    )
    print()
    print("| photos | wall s | s per photo | peak MB (largest process) | rows | exit | verdicts |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    summary = ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items()))
    print(
        f"| {args.photos} | {wall:.1f} | {wall / args.photos:.2f} | {peak:.0f} | {len(rows)} "
        f"| {done.returncode} | {summary} |"
    )


if __name__ == "__main__":
    main()
