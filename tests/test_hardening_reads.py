"""Unbounded reads and hangs: a transcript is read under a hard byte limit, from a regular file or
from standard input given on purpose as ``-``; a device or a pipe is refused without waiting."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from papergames.cli import app
from papergames.files import UnreadableFileError, read_stream_bounded
from papergames.play import transcript

runner = CliRunner()
GAME = "sheet: cocomposite size=4 seed=1\nplayers: Ann, Bob\nb2\n"


@settings(max_examples=60, deadline=None)
@given(size=st.integers(0, 4000), limit=st.integers(0, 4000))
def test_a_stream_is_never_read_past_its_limit(size: int, limit: int) -> None:
    stream = io.BytesIO(b"x" * size)
    if size <= limit:
        assert read_stream_bounded(stream, limit) == b"x" * size
    else:
        with pytest.raises(UnreadableFileError, match="too large"):
            read_stream_bounded(stream, limit)
        assert stream.tell() == limit + 1  # one byte past the limit, never the whole stream


def test_a_dash_reads_standard_input_and_names_it() -> None:
    result = runner.invoke(app, ["check", "-"], input=GAME)
    assert result.exit_code == 1 and "UNFINISHED after 1 legal moves" in result.stdout
    bad = runner.invoke(app, ["check", "-"], input="sheet: nosuchgame seed=1\nplayers: A, B\n")
    assert bad.exit_code == 2 and bad.stderr.startswith("papergames: error: <stdin>: ")


@settings(max_examples=10, deadline=None)
@given(extra=st.integers(1, 5000))
def test_standard_input_over_the_limit_is_refused(extra: int) -> None:
    limit = transcript.MAX_BYTES
    try:
        transcript.MAX_BYTES = 1000
        result = runner.invoke(app, ["check", "-"], input="#" * (1000 + extra))
    finally:
        transcript.MAX_BYTES = limit
    assert result.exit_code == 2 and "too large" in result.stderr


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_pipe_or_a_device_ends_at_once_in_a_real_process(tmp_path: Path, kind: str) -> None:
    """Run as a user would, in a process of its own, so a hang fails the test instead of it."""
    path = tmp_path / "pipe" if kind == "fifo" else Path("/dev/zero")
    if kind == "fifo":
        os.mkfifo(path)
    code = (
        "import sys; from papergames.cli import main; "
        "sys.argv = ['papergames', 'check', sys.argv[1]]; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "not a regular file" in done.stderr and "Traceback" not in done.stderr
