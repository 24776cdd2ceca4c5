"""The demo: one PDF of every game, to see what papergames prints."""

from __future__ import annotations

from pathlib import Path

from papergames.errors import OutputError
from papergames.games import game_names
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec


def write_demo(folder: Path, seed: int = 1) -> list[Path]:
    """Write ``<game>.pdf`` for every game into ``folder`` (created if missing)."""
    from papergames.output import render

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create {folder}: {exc.strerror}") from None
    written = []
    for name in game_names():
        path = folder / f"{name}.pdf"
        render(make_sheet(SheetSpec.create(name, seed=seed)), path)
        written.append(path)
    return written
