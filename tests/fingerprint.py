"""Hashes of everything papergames makes, to prove a refactor changed no output.

Run it before and after a change and compare the two files::

    .venv/bin/python tests/fingerprint.py > /tmp/before.json
    ... change the code ...
    .venv/bin/python tests/fingerprint.py > /tmp/after.json
    diff /tmp/before.json /tmp/after.json && echo unchanged

It renders every game at seeds 1-5 as PDF, SVG and PNG (and once on Letter), every rules page, a
pack with rules pages, a two-up pack and the book, and checks every example transcript, hashing
each file and each verdict. ``--games`` limits it to some games (the packs and the book are then
skipped); compare such a run with the matching keys of a full one::

    .venv/bin/python tests/fingerprint.py --games arp --compare /tmp/before.json
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from pathlib import Path

from papergames import SheetSpec, make_sheet
from papergames.games import game_names
from papergames.handouts.book import make_book
from papergames.handouts.pack import make_pack
from papergames.handouts.rulespage import rules_page
from papergames.output import get_renderer

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _render(sheet: object, fmt: str, page: int | None = None) -> str:
    buf = io.BytesIO()
    get_renderer(fmt)(sheet, buf, page=page, dpi=40)  # type: ignore[arg-type]
    return _digest(buf.getvalue())


def sheet_hashes(game: str, seeds: range) -> dict[str, str]:
    out: dict[str, str] = {}
    for seed in seeds:
        sheet = make_sheet(SheetSpec.create(game, seed=seed))
        out[f"{game} seed={seed} pdf"] = _render(sheet, "pdf")
        for page in range(1, len(sheet.pages) + 1):
            out[f"{game} seed={seed} page={page} svg"] = _render(sheet, "svg", page)
            out[f"{game} seed={seed} page={page} png"] = _render(sheet, "png", page)
    letter = make_sheet(SheetSpec.create(game, seed=1, paper="letter"))
    out[f"{game} seed=1 letter pdf"] = _render(letter, "pdf")
    return out


def rules_hashes(games: list[str]) -> dict[str, str]:
    from papergames.sheets.model import Sheet

    out: dict[str, str] = {}
    for game in games:
        document = Sheet(SheetSpec.create(game, seed=1), game, [rules_page(game)])
        out[f"rules {game} pdf"] = _render(document, "pdf")
    return out


def handout_hashes() -> dict[str, str]:
    out: dict[str, str] = {}
    out["pack rings x3"] = _render(make_pack(SheetSpec.create("rings", seed=7), 3), "pdf")
    out["pack spaghetti x4 2-up"] = _render(
        make_pack(SheetSpec.create("spaghetti", seed=7), 4, per_page=2), "pdf"
    )
    out["book"] = _render(make_book(seed=3), "pdf")
    return out


def verdict_hashes(games: list[str]) -> dict[str, str]:
    """The checker's text and JSON output, and exit code, for every example, through the CLI."""
    from typer.testing import CliRunner

    from papergames.cli import app

    out: dict[str, str] = {}
    for path in sorted(EXAMPLES.iterdir()):
        game = "cubist-score" if path.name.startswith("cubist-installation") else path.stem
        if game not in games:
            continue
        for extra in ([], ["--json"], ["--verbose"]):
            result = CliRunner().invoke(app, ["check", str(path), *extra])
            key = f"check {path.name} {' '.join(extra)}".strip()
            out[key] = f"{result.exit_code} {_digest(result.output.encode())}"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", help="comma-separated games (default: all)")
    parser.add_argument("--seeds", type=int, default=5, help="seeds 1..N (default 5)")
    parser.add_argument("--compare", help="a full run's file: report the keys that differ")
    args = parser.parse_args()
    games = args.games.split(",") if args.games else game_names()
    out: dict[str, str] = {}
    for game in games:
        out.update(sheet_hashes(game, range(1, args.seeds + 1)))
        print(game, file=sys.stderr)
    out.update(rules_hashes(games))
    out.update(verdict_hashes(games))
    if not args.games:
        out.update(handout_hashes())
    if args.compare:
        before = json.loads(Path(args.compare).read_text())
        changed = sorted(k for k in out if before.get(k) != out[k])
        for key in changed:
            print(f"changed: {key}")
        print(f"{len(out) - len(changed)} of {len(out)} unchanged")
        sys.exit(1 if changed else 0)
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
