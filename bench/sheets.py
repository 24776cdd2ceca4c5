"""Time sheet generation per game and format, and the CLI's cold start; print a Markdown table.

Run: ``.venv/bin/python bench/sheets.py [--runs N]``. Each figure is the median of N runs in one
process (ms per sheet, building the sheet included), except the CLI rows, which start a fresh
process each time. A second table builds every game for ``--seeds`` different seeds (to PDF) and
gives the median and the worst, since random fields (the art games above all) vary by seed.
Targets: under 100 ms per grid or ring sheet to PDF; under 1 s per art sheet for every seed;
``papergames sheet`` end to end under 1 s; a pack of 30 rings sheets under 2 s and a book of
every game under 5 s.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from papergames.games import game_names
from papergames.output import render
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

FORMATS = ("pdf", "svg", "png")


def median_ms(action: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def time_sheet(game: str, fmt: str, runs: int) -> float:
    seeds = iter(range(1000, 1000 + runs + 1))

    def once() -> None:
        sheet = make_sheet(SheetSpec.create(game, seed=next(seeds)))
        render(sheet, io.BytesIO(), format=fmt)

    once()  # warm caches (font registration, imports) outside the timing
    return median_ms(once, runs)


def seed_sweep(game: str, seeds: int) -> tuple[float, float]:
    """Median and worst ms to build and render one sheet to PDF, over ``seeds`` seeds."""
    make_sheet(SheetSpec.create(game, seed=0))
    times = []
    for seed in range(1, seeds + 1):
        start = time.perf_counter()
        render(make_sheet(SheetSpec.create(game, seed=seed)), io.BytesIO(), format="pdf")
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def time_handouts(runs: int) -> list[tuple[str, float]]:
    """A pack of 30 rings sheets with rules pages, and a book of every game, each to one PDF."""
    from papergames.handouts.book import make_book
    from papergames.handouts.pack import make_pack

    def pack() -> None:
        render(make_pack(SheetSpec.create("rings", seed=5), 30), io.BytesIO(), format="pdf")

    def book() -> None:
        render(make_book(seed=5), io.BytesIO(), format="pdf")

    book()
    return [
        ("pack of 30 rings sheets with rules pages, to PDF", median_ms(pack, runs)),
        ("book of every game (rules page and sheet each), to PDF", median_ms(book, runs)),
    ]


def time_command(args: list[str], runs: int) -> float:
    exe = shutil.which("papergames") or str(Path(sys.executable).with_name("papergames"))

    def once() -> None:
        subprocess.run([exe, *args], check=True, capture_output=True)

    return median_ms(once, runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="runs per figure (median taken)")
    parser.add_argument("--seeds", type=int, default=20, help="seeds per game in the sweep")
    args = parser.parse_args()

    cores = os.cpu_count()
    print(f"papergames sheet timings, median of {args.runs} runs, ms per sheet ({cores} cores)")
    print()
    print("| game | pages | PDF | SVG | PNG (150 dpi) |")
    print("|---|---:|---:|---:|---:|")
    for game in game_names():
        pages = len(make_sheet(SheetSpec.create(game, seed=1)).pages)
        cells = [f"{time_sheet(game, fmt, args.runs):.0f}" for fmt in FORMATS]
        print(f"| {game} | {pages} | " + " | ".join(cells) + " |")
    print()
    print(f"Every seed from 1 to {args.seeds}, built and rendered to PDF (ms per sheet)")
    print()
    print("| game | median | worst |")
    print("|---|---:|---:|")
    for game in game_names():
        median, worst = seed_sweep(game, args.seeds)
        print(f"| {game} | {median:.0f} | {worst:.0f} |")
    print()
    print("| handout (median of 3 runs) | ms |")
    print("|---|---:|")
    for label, ms in time_handouts(3):
        print(f"| {label} | {ms:.0f} |")
    print()
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "rings.pdf")
        rows = [
            ("papergames --help", ["--help"]),
            ("papergames sheet rings -o rings.pdf", ["sheet", "rings", "--seed", "1", "-o", out]),
        ]
        print("| command (fresh process) | ms |")
        print("|---|---:|")
        for label, command in rows:
            print(f"| `{label}` | {time_command(command, args.runs):.0f} |")


if __name__ == "__main__":
    main()
