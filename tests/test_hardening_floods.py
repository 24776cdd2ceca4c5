"""Error floods: however many problems a transcript holds, the message lists the first twenty and
counts the rest, and a 2 MB file is read in time linear in its size."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from papergames.cli import app
from papergames.play.transcript import (
    KEPT_PROBLEMS,
    MAX_BYTES,
    SHOWN_PROBLEMS,
    TranscriptError,
    parse_transcript,
)

runner = CliRunner()
HEAD = "sheet: cocomposite size=4 seed=1\n"


def _repeated_players(count: int) -> str:
    return HEAD + "players: Ann, " + ", ".join(["Ann"] * count) + "\n"


def _claims_by_strangers(count: int) -> str:
    return HEAD + "players: Ann, Bob\n" + "claim: Zed score 1\n" * count


def _bad_json_moves(count: int) -> str:
    moves = ", ".join(["[1]"] * count)
    return (
        f'{{"sheet": "cocomposite size=4 seed=1", "players": ["Ann", "Bob"], "moves": [{moves}]}}'
    )


@settings(max_examples=40, deadline=None)
@given(
    count=st.one_of(st.integers(1, 60), st.integers(61, 50_000)),
    make=st.sampled_from([_repeated_players, _claims_by_strangers, _bad_json_moves]),
)
def test_problems_beyond_twenty_are_counted_not_listed(count: int, make: object) -> None:
    with pytest.raises(TranscriptError) as info:
        parse_transcript(make(count), "game.txt")  # type: ignore[operator]
    error = info.value
    lines = str(error).splitlines()
    assert len(error.problems) == min(count, KEPT_PROBLEMS)
    assert len(error.problems) + error.more == count
    if count <= SHOWN_PROBLEMS:
        assert len(lines) == count
    else:
        assert len(lines) == SHOWN_PROBLEMS + 1
        hidden = count - SHOWN_PROBLEMS
        plural = "s" if hidden > 1 else ""
        assert lines[-1] == f"game.txt: and {hidden:,} more problem{plural}"


def test_a_two_megabyte_players_line_prints_a_few_lines(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    count = (MAX_BYTES - 200) // 5
    path.write_text(_repeated_players(count))
    started = time.perf_counter()
    result = runner.invoke(app, ["check", str(path)])
    assert time.perf_counter() - started < 30
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == SHOWN_PROBLEMS + 1
    assert lines[-1].endswith(f"and {count - SHOWN_PROBLEMS:,} more problems")


UNIQUE = """
import sys
from papergames.play.transcript import parse_text
names = ", ".join(f"P{k}" for k in range(150_000))
moves = "".join(f"P{k}: a1\\n" for k in range(0, 150_000, 2))
claims = "".join(f"claim: P{k} score 1\\n" for k in range(1, 150_000, 2))
text = "sheet: cocomposite size=4 seed=1\\nplayers: " + names + "\\n" + claims + moves
assert len(text.encode()) < 4_000_000
parse_text(text)
print("parsed")
"""


def test_many_distinct_players_moves_and_claims_are_read_in_linear_time() -> None:
    """150,000 players, 75,000 moves and 75,000 claims: quadratic lookups would take hours."""
    done = subprocess.run(
        [sys.executable, "-c", UNIQUE], capture_output=True, text=True, timeout=60
    )
    assert done.stdout == "parsed\n", done.stderr
