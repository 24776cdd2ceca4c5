"""The layers picture in docs/ is drawn from the code as it is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_layers_picture_shows_the_imports_as_they_are() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "layers.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr + "run: .venv/bin/python docs/layers.py"
    picture = (ROOT / "docs" / "layers.svg").read_text()
    for package in ("cli", "web", "photo", "handouts", "layouts", "play", "output", "sheets"):
        assert f">{package}</text>" in picture


def test_the_public_names_resolve_to_their_homes_in_the_packages() -> None:
    import importlib

    import papergames
    from papergames.output import render, write_sheet

    homes = {
        "SheetSpec": "papergames.sheets.spec",
        "make_sheet": "papergames.sheets.sheet",
        "check_text": "papergames.play.checker",
        "make_pack": "papergames.handouts.pack",
        "make_book": "papergames.handouts.book",
    }
    for name, home in homes.items():
        assert name in papergames.__all__
        assert getattr(papergames, name) is getattr(importlib.import_module(home), name)
    assert callable(render) and callable(write_sheet)
    assert papergames.__version__
