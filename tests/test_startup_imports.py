"""A command imports what it uses: making a sheet or listing the games loads no photo or web
stack (bench/startup.py times what that saves)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("cv2", "zxingcpp", "pypdfium2", "starlette", "uvicorn", "jinja2", "pydantic")
OURS = ("papergames.photo", "papergames.web", "papergames.handouts")

PROBE = """
import json, sys
from papergames.cli import main
sys.argv = ["papergames", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


def loaded_by(args: list[str]) -> set[str]:
    """The modules a fresh process has loaded after running ``papergames args``."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "args",
    [
        ["sheet", "spaghetti", "--seed", "1", "-o", "{out}/x.pdf"],
        ["sheet", "rings", "--seed", "2", "-o", "{out}/x.svg"],
        ["list"],
        ["check", "{examples}/spaghetti.txt"],
    ],
    ids=["sheet-pdf", "sheet-svg", "list", "check"],
)
def test_a_command_loads_no_photo_or_web_stack(args: list[str], tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parent.parent / "examples"
    filled = [a.format(out=tmp_path, examples=examples) for a in args]
    modules = loaded_by(filled)
    assert "papergames.cli.commands" in modules
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(OURS))
    assert not heavy, f"papergames {' '.join(args)} loaded {heavy}"


def test_the_probe_sees_the_photo_stack_when_a_photo_is_read(tmp_path: Path) -> None:
    photo = tmp_path / "blank.png"
    from PIL import Image

    Image.new("RGB", (40, 30), "white").save(photo)
    modules = loaded_by(["read", str(photo)])
    assert "cv2" in modules and "papergames.photo.read" in modules
