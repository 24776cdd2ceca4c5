"""Terminal escapes, on every path the command line echoes: a JSON transcript's strings, a file's
name, a mistyped option value. What reaches the terminal is shown, never obeyed (the text
transcript, game names and ``--set`` keys are covered by tests/test_terminal.py)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from papergames.cli import app

runner = CliRunner()
OBEYED = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")
HOSTILE = st.lists(
    st.one_of(
        st.sampled_from(["\x1b[2J", "\x1b]0;x\x07", "\x9b31m", "\x07", "\r", "\u202e", "\x1bc"]),
        st.characters(exclude_categories=["Cs"]),
    ),
    min_size=1,
    max_size=10,
).map("".join)
GOOD = {
    "sheet": "cocomposite size=4 seed=1",
    "players": ["Ann", {"name": "Bob", "colour": "blue"}],
    "options": {},
    "moves": ["b2"],
    "claims": [{"player": "Ann", "what": "score", "value": 0}],
}
PLACES = st.sampled_from(
    [
        ("sheet",),
        ("players", 0),
        ("players", 1, "colour"),
        ("moves", 0),
        ("claims", 0, "what"),
        ("claims", 0, "value"),
        ("claims", 0, "player"),
        ("options", "KEY"),
        ("final", "KEY"),
    ]
)


def shown(result: object) -> str:
    output: str = result.output  # type: ignore[attr-defined]
    return output.replace("\n", "").replace("\t", "")


@settings(max_examples=80, deadline=None)
@given(place=PLACES, text=HOSTILE, as_json=st.booleans())
def test_json_transcript_strings_are_echoed_escaped(
    tmp_path_factory: pytest.TempPathFactory, place: tuple[str | int, ...], text: str, as_json: bool
) -> None:
    data = json.loads(json.dumps(GOOD))
    node = data
    for step in place[:-1]:
        node = node.setdefault(step, {}) if isinstance(step, str) else node[step]
    node[text if place[-1] == "KEY" else place[-1]] = text
    path = tmp_path_factory.mktemp("esc") / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["check", str(path), *(["--json"] if as_json else [])])
    assert result.exit_code in (0, 1, 2)
    assert not OBEYED.search(shown(result))


@settings(max_examples=40, deadline=None)
@given(text=HOSTILE)
def test_option_values_and_file_names_are_echoed_escaped(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    folder = tmp_path_factory.mktemp("names")
    name = text.replace("/", "_").replace("\x00", "_") + ".svg"
    target = folder / name
    for args in (
        ["list", text],
        ["sheet", "spaghetti", "--paper", text],
        ["sheet", "spaghetti", "--format", text, "-o", str(folder / "x.pdf")],
        ["sheet", "spaghetti", "--seed", "1", "-o", str(target)],
        ["check", str(folder / name)],
    ):
        result = runner.invoke(app, args)
        assert not OBEYED.search(shown(result)), args
