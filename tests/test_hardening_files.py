"""Files left behind: a write that ends early, by an error or a signal, leaves nothing; a sheet of
several SVG or PNG pages is written whole or not at all, and an old file survives a failed write."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papergames.errors import OutputError, SpecError
from papergames.output import page_paths, write_sheet
from papergames.sheets.model import Sheet
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

SLOW_WRITER = """
import sys, time
import papergames.output.svg as svg

def slow(sheet, out, *, page=None, dpi=150):
    out.write(b"<svg>half")
    out.flush()
    print("writing", flush=True)
    time.sleep(60)

svg.render = slow
from papergames.cli import main
sys.argv = ["papergames", "sheet", "spaghetti", "--seed", "1", "-o", sys.argv[1]]
main()
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_a_write_leaves_no_temporary_file(tmp_path: Path, signum: int) -> None:
    target = tmp_path / "sheet.svg"
    target.write_text("the old sheet")
    with subprocess.Popen(
        [sys.executable, "-c", SLOW_WRITER, str(target)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "writing\n"
        assert any(p.name.endswith(".tmp") for p in tmp_path.iterdir())
        proc.send_signal(signum)
        code = proc.wait(timeout=30)
    assert code == 128 + signum
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.svg"]
    assert target.read_text() == "the old sheet"


@pytest.fixture(scope="module")
def three_pages() -> Sheet:
    sheet = make_sheet(SheetSpec.create("rings", {"rounds": "3"}, seed=1))
    assert len(sheet.pages) == 3
    return sheet


@settings(max_examples=12, deadline=None)
@given(failing=st.integers(1, 3), fmt=st.sampled_from(["svg", "png"]), old=st.booleans())
def test_pages_are_written_all_or_nothing(
    tmp_path_factory: pytest.TempPathFactory,
    three_pages: Sheet,
    failing: int,
    fmt: str,
    old: bool,
) -> None:
    import importlib

    folder = tmp_path_factory.mktemp("pages")
    paths = page_paths(folder / f"r.{fmt}", 3)
    if old:
        for path in paths:
            path.write_bytes(b"old")
    module = importlib.import_module(f"papergames.output.{fmt}")
    real = module.render

    def flaky(sheet: Sheet, out: object, *, page: int | None = None, dpi: int = 150) -> None:
        if page == failing:
            raise OSError(28, "No space left on device")
        real(sheet, out, page=page, dpi=60)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "render", flaky)
        with pytest.raises(OutputError, match="No space left on device"):
            write_sheet(three_pages, folder / f"r.{fmt}", dpi=60)
    left = sorted(p.name for p in folder.iterdir())
    assert left == (sorted(p.name for p in paths) if old else [])
    assert all(p.read_bytes() == b"old" for p in folder.iterdir())


def test_a_page_that_cannot_be_a_file_stops_the_sheet_before_any_page(
    tmp_path: Path, three_pages: Sheet
) -> None:
    (tmp_path / "r-3.svg").mkdir()
    with pytest.raises(OutputError, match=r"r-3\.svg: it is a folder"):
        write_sheet(three_pages, tmp_path / "r.svg")
    assert [p.name for p in tmp_path.iterdir()] == ["r-3.svg"]


def test_a_refused_resolution_writes_nothing(tmp_path: Path, three_pages: Sheet) -> None:
    with pytest.raises(SpecError, match="dpi"):
        write_sheet(three_pages, tmp_path / "r.png", dpi=900)
    assert list(tmp_path.iterdir()) == []
