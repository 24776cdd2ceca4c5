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
