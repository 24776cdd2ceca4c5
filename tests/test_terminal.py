"""Nothing a user typed or a file held reaches the terminal raw: escapes are shown, not obeyed."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from papergames.cli import app
from papergames.cli.terminal import json_text, printable

runner = CliRunner()
OBEYED = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")
HOSTILE = st.lists(
    st.one_of(
        st.sampled_from(["\x1b[2J", "\x1b]0;x\x07", "\x9b", "\x07", "\r", "\x00", "\u202e"]),
        st.characters(),
    ),
    min_size=1,
    max_size=12,
).map("".join)


@given(HOSTILE)
def test_printable_text_holds_nothing_a_terminal_obeys(text: str) -> None:
    assert not OBEYED.search(printable(text))


@given(HOSTILE)
def test_json_text_stays_valid_json_with_the_same_value(text: str) -> None:
    shown = json_text({"name": text})
    assert not OBEYED.search(shown)
    assert json.loads(shown) == {"name": text}


@settings(max_examples=60, deadline=None)
@given(HOSTILE)
def test_names_and_settings_are_echoed_escaped(text: str) -> None:
    for args in (["sheet", text], ["sheet", "rings", "--set", f"{text}=1"], ["rules", text]):
        result = runner.invoke(app, args)
        assert result.exit_code != 0
        assert not OBEYED.search(result.output.replace("\n", "").replace("\t", ""))


@settings(max_examples=60, deadline=None)
@given(HOSTILE, HOSTILE)
def test_transcript_text_is_echoed_escaped(
    tmp_path_factory: object, player: str, move: str
) -> None:
    folder = tmp_path_factory.mktemp("esc")  # type: ignore[attr-defined]
    path = Path(folder) / "game.txt"
    text = f"sheet: cocomposite size=4 seed=1\nplayers: Ann, {player}\n{move}\n"
    # A lone surrogate cannot be UTF-8: written as its raw bytes it makes a file that is not text.
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    for extra in ([], ["--json"]):
        result = runner.invoke(app, ["check", str(path), *extra])
        assert result.exit_code in (1, 2)
        assert not OBEYED.search(result.output.replace("\n", "").replace("\t", ""))
