"""Reading users' files: regular files only, within a hard byte limit, whatever the size says."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from papergames.cli import app
from papergames.files import UnreadableFileError, read_bounded

runner = CliRunner()


def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda tmp: Path("/dev/zero"), "not a regular file"),
        (_fifo, "not a regular file"),
        (lambda tmp: tmp, "is a folder"),
        (lambda tmp: tmp / "missing.txt", "no such file"),
    ],
)
def test_what_is_not_a_regular_file_is_refused_without_reading_it(
    tmp_path: Path, make: object, why: str
) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(UnreadableFileError, match=why):
        read_bounded(path, 1000)
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 2 and why in result.output and "Traceback" not in result.output


@settings(max_examples=40, deadline=None)
@given(size=st.integers(0, 5000), limit=st.integers(0, 5000))
def test_the_limit_holds_on_the_bytes_read(
    tmp_path_factory: pytest.TempPathFactory, size: int, limit: int
) -> None:
    path = tmp_path_factory.mktemp("bounded") / "data.bin"
    path.write_bytes(b"x" * size)
    if size <= limit:
        assert read_bounded(path, limit) == b"x" * size
    else:
        with pytest.raises(UnreadableFileError, match="too large"):
            read_bounded(path, limit)
