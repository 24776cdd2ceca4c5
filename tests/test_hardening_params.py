"""Parameters: any text for any key is taken or refused by name, and what is taken can be printed.

Every game's every parameter gets arbitrary text (control characters, lone surrogates such as an
undecodable byte on the command line gives, ``nan``, numbers of thousands of digits). What is
taken must print a spec that encodes as UTF-8 (the QR code) and reads back as the same spec;
what is refused is a :class:`SpecError` naming the key. The PNG resolution has one range for the
command line and the library, lowered for large paper.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papergames.errors import SpecError
from papergames.games import game_names, get_layout
from papergames.output.common import DPI_RANGE, check_request, max_dpi
from papergames.sheets.compose import qr_feature
from papergames.sheets.spec import SheetSpec
from papergames.sheets.units import PAPERS

from conftest import sheet_for

KEYS = [(game, p.name) for game in game_names() for p in get_layout(game).params]
HOSTILE_TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["nan", "-nan", "inf", "1e999", "9" * 5000, "", " ", "0x10", "1_0", "٣"]),
    st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1),
    st.lists(st.sampled_from(["Ann", "\udcff", "\x1b[2J", "😀", ",", "Zoë", "\u202e"])).map(
        "".join
    ),
)


@settings(max_examples=400, deadline=None)
@given(key=st.sampled_from(KEYS), text=HOSTILE_TEXT)
def test_any_text_is_taken_and_printable_or_refused_by_name(
    key: tuple[str, str], text: str
) -> None:
    game, name = key
    try:
        spec = SheetSpec.create(game, {name: text}, seed=1)
    except SpecError as exc:
        assert str(exc).startswith(f"{name}=") or name in str(exc)
        return
    printed = str(spec)
    printed.encode("utf-8")  # the QR code's bytes: a lone surrogate would fail here
    assert printed.isprintable()
    assert SheetSpec.parse(printed) == spec
    value = spec.params[name]
    if isinstance(value, float):
        assert math.isfinite(value)


@settings(max_examples=60, deadline=None)
@given(names=st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=4))
def test_names_that_are_taken_go_into_the_qr_code(names: list[str]) -> None:
    try:
        spec = SheetSpec.create("cubist-studio", {"names": ",".join(names)}, seed=1)
    except SpecError as exc:
        assert str(exc).startswith("names=")
        return
    assert qr_feature(str(spec), 0, 0).id


def test_undecodable_bytes_in_names_on_the_command_line_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    code = "import sys; from papergames.cli import main; main()"
    argv = [b"papergames", b"sheet", b"cubist-studio", b"names=Ann,\xff\xfe", b"-o", bytes(out)]
    done = subprocess.run(
        [sys.executable.encode(), b"-c", code.encode(), *argv[1:]],
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(b"papergames: error: names=") and b"Traceback" not in done.stderr
    assert not out.exists()


@settings(max_examples=200, deadline=None)
@given(paper=st.sampled_from(sorted(PAPERS)), dpi=st.integers(-10, 5000))
def test_one_resolution_range_for_every_paper(paper: str, dpi: int) -> None:
    sheet = sheet_for("spaghetti", paper=paper)
    width, height = sheet.pages[0].width, sheet.pages[0].height
    top = max_dpi(width, height)
    # The top is the largest resolution whose supersampled image stays within the pixel cap.
    assert DPI_RANGE[0] <= top <= DPI_RANGE[1]
    assert (2 * top * width / 25.4) * (2 * top * height / 25.4) <= 120_000_000
    if top < DPI_RANGE[1]:
        assert (2 * (top + 1) * width / 25.4) * (2 * (top + 1) * height / 25.4) > 120_000_000
    for fmt in ("png", "svg", "pdf"):
        ok = DPI_RANGE[0] <= dpi <= (top if fmt == "png" else DPI_RANGE[1])
        if ok:
            check_request(sheet, None, dpi, fmt)
        else:
            with pytest.raises(SpecError, match="dpi"):
                check_request(sheet, None, dpi, fmt)


@pytest.mark.parametrize("value", ["150", 150.0, True, None, "abc"])
def test_a_resolution_that_is_not_a_whole_number_is_refused(value: object) -> None:
    with pytest.raises(SpecError, match="dpi is a whole number"):
        check_request(sheet_for("spaghetti"), None, value, "png")  # type: ignore[arg-type]


def test_a_too_high_dpi_on_a4_is_one_line_and_no_file(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from papergames.cli import app

    out = tmp_path / "s.png"
    result = CliRunner().invoke(
        app, ["sheet", "spaghetti", "--seed", "1", "--dpi", "600", "-o", str(out)]
    )
    assert result.exit_code == 2
    assert result.stderr == (
        "papergames: error: dpi 600 is too high for this paper as PNG: at most 557 (a larger "
        "image would need too much memory); use PDF or SVG for a sharper print\n"
    )
    assert list(tmp_path.iterdir()) == []


@settings(max_examples=100, deadline=None)
@given(cell=st.floats(15.0, 30.0))
def test_a_float_prints_exactly_what_makes_the_sheet(cell: float) -> None:
    spec = SheetSpec.create("cubist-studio", {"cell": repr(cell)}, seed=1)
    again = SheetSpec.parse(str(spec))
    assert again.params["cell"] == cell and again == spec


@pytest.mark.parametrize("text", ["nan", "NaN", "-nan", "inf", "-inf", "1e999"])
def test_a_float_that_is_not_a_number_is_refused(text: str) -> None:
    with pytest.raises(SpecError, match=f"cell={text} is not allowed"):
        SheetSpec.create("cubist-studio", {"cell": text}, seed=1)


@pytest.mark.parametrize("dpi", ["10", "29", "1201", "5000", "-3"])
def test_a_resolution_out_of_range_is_refused_by_the_command_line(tmp_path: Path, dpi: str) -> None:
    from typer.testing import CliRunner

    from papergames.cli import app

    out = tmp_path / "s.png"
    result = CliRunner().invoke(
        app, ["sheet", "spaghetti", "--seed", "1", "--dpi", dpi, "-o", str(out)]
    )
    assert result.exit_code == 2
    assert result.stderr == f"papergames: error: --dpi {dpi} is out of range 30..1200\n"
    assert list(tmp_path.iterdir()) == []
