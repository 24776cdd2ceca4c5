"""Output targets: ``-o -`` is standard output, a device, pipe or folder is never replaced, a
symbolic link is written through, a replaced file keeps its permissions, and any character in a
name reaches the PDF as text a reader can copy back."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

import pypdfium2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from papergames.cli import app
from papergames.errors import OutputError
from papergames.output import _target, atomic_write, render
from papergames.output.pdf import _utf16_hex
from papergames.sheets.names import name_problem
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

runner = CliRunner()


@pytest.mark.parametrize(
    ("fmt", "magic"),
    [(None, b"%PDF-"), ("pdf", b"%PDF-"), ("svg", b"<?xml"), ("png", b"\x89PNG")],
)
def test_a_dash_writes_the_sheet_to_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str | None, magic: bytes
) -> None:
    monkeypatch.chdir(tmp_path)
    given = [] if fmt is None else ["-f", fmt]
    result = runner.invoke(app, ["sheet", "spaghetti", "--seed", "1", *given, "-o", "-"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout_bytes.startswith(magic)
    assert result.stderr == f"wrote {fmt or 'pdf'} to standard output  (spaghetti seed=1)\n"
    assert list(tmp_path.iterdir()) == []  # no file named '-'


def test_several_pages_of_svg_are_refused_on_standard_output(tmp_path: Path) -> None:
    args = ["sheet", "rings", "rounds=2", "--seed", "1", "-f", "svg", "-o", "-"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stdout_bytes == b""
    assert "the sheet has 2 pages, one svg file each" in result.stderr


def _fifo(tmp: Path) -> Path:
    os.mkfifo(tmp / "pipe.pdf")
    return tmp / "pipe.pdf"


def _folder(tmp: Path) -> Path:
    (tmp / "folder.pdf").mkdir()
    return tmp / "folder.pdf"


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (_fifo, "a device, a pipe or a socket"),
        (_folder, "it is a folder"),
        (lambda tmp: Path("-"), "'-' is not a file name here"),
    ],
)
def test_what_is_not_a_file_is_not_replaced(tmp_path: Path, make: object, why: str) -> None:
    target: Path = make(tmp_path)  # type: ignore[operator]
    before = target.lstat() if target.exists() else None
    with pytest.raises(OutputError, match=why), atomic_write(target) as out:
        out.write(b"x")
    if before is not None:
        after = target.lstat()
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert not any(p.name.endswith(".tmp") for p in tmp_path.iterdir())


def test_a_device_is_not_replaced() -> None:
    """Checked without writing: a broken check run as root would replace /dev/null itself."""
    with pytest.raises(OutputError, match="a device, a pipe or a socket"):
        _target(Path("/dev/null"))
    args = ["sheet", "spaghetti", "--seed", "1", "-f", "pdf", "-o", "/dev/null"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "is left as it is" in result.stderr
    assert stat.S_ISCHR(Path("/dev/null").stat().st_mode)


def test_a_symbolic_link_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real.pdf"
    real.write_bytes(b"old")
    link = tmp_path / "link.pdf"
    link.symlink_to(real)
    result = runner.invoke(app, ["sheet", "spaghetti", "--seed", "1", "-o", str(link)])
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and link.resolve() == real
    assert real.read_bytes().startswith(b"%PDF-")


@settings(max_examples=30, deadline=None)
@given(mode=st.integers(0o000, 0o777))
def test_a_replaced_file_keeps_its_permissions(
    tmp_path_factory: pytest.TempPathFactory, mode: int
) -> None:
    path = tmp_path_factory.mktemp("mode") / "out.bin"
    path.write_bytes(b"old")
    path.chmod(mode)
    with atomic_write(path) as out:
        out.write(b"new")
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(path.stat().st_mode) == mode


def _beyond_bmp_in_font() -> list[str]:
    """Characters beyond U+FFFF that the bundled font draws (mathematical letters, emoji)."""
    from reportlab.pdfbase.ttfonts import TTFont

    from papergames.fonts import font_path

    codes = TTFont("probe", str(font_path(False))).face.charToGlyph
    return [chr(c) for c in sorted(codes) if c > 0xFFFF and chr(c).isprintable()]


BEYOND_BMP = st.sampled_from(_beyond_bmp_in_font())


@settings(max_examples=30, deadline=None)
@given(code=st.integers(0x20, 0x10FFFF).filter(lambda c: not 0xD800 <= c <= 0xDFFF))
def test_each_code_point_maps_to_even_length_utf16_hex(code: int) -> None:
    text = _utf16_hex(code)
    assert len(text) in (4, 8)
    assert bytes.fromhex(text).decode("utf-16-be") == chr(code)


@settings(max_examples=15, deadline=None)
@given(char=BEYOND_BMP.filter(lambda c: name_problem(f"{c}Ann") is None))
def test_a_name_beyond_the_basic_plane_is_copied_back_from_the_pdf(char: str) -> None:
    # A name starts with a letter (papergames.sheets.names), so the letters beyond U+FFFF the font
    # draws (mathematical alphabets, old scripts) are what a name may hold there.
    name = f"{char}Ann"
    sheet = make_sheet(SheetSpec.create("cubist-studio", {"names": f"{name},Bob"}, seed=1))
    buffer = io.BytesIO()
    render(sheet, buffer, format="pdf")
    page = pypdfium2.PdfDocument(buffer.getvalue())[0]
    # The footer's spec is set in the regular face, which draws every character chosen.
    assert f"cubist-studio names={name},Bob seed=1" in page.get_textpage().get_text_range()


def test_a_dash_to_a_terminal_is_refused(tmp_path: Path) -> None:
    """A PDF printed on a terminal is garbage on the screen: refused, and nothing is written."""
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    code = "import sys; from papergames.cli import main; main()"
    args = ["sheet", "spaghetti", "--seed", "1", "-o", "-"]
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, *args],
            stdout=follower,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            timeout=120,
        )
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 2
    assert (
        done.stderr
        == b"papergames: error: -o - would print a pdf file on the terminal: redirect it\n"
    )
    assert list(tmp_path.iterdir()) == []
