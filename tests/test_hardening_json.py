"""JSON transcripts: any JSON value in any field is refused with its path, never a traceback.

The JSON form is checked once against :data:`papergames.play.transcript.TRANSCRIPT_SHAPE`; the
strategies here put arbitrary JSON (wrong types, integers of thousands of digits, ``NaN``,
``1e999``, lone surrogates, deep nesting) into every field and check what the user sees.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from papergames.cli import app
from papergames.errors import PapergamesError
from papergames.play.checker import check_text
from papergames.play.transcript import TranscriptError, parse_json

runner = CliRunner()
GOOD = {
    "sheet": "cocomposite size=4 seed=1",
    "players": ["Ann", {"name": "Bob", "colour": "blue"}],
    "options": {},
    "moves": ["b2", {"player": "Bob", "move": "b3"}],
    "claims": [{"player": "Ann", "what": "score", "value": 0}],
}
RAW_NUMBERS = ["9" * 5000, "-" + "9" * 400, "NaN", "Infinity", "-Infinity", "1e999", "-1e400"]
"""Numbers as JSON text that ``json.dumps`` cannot write from Python values."""

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1),
    st.sampled_from([f"@raw{k}" for k in range(len(RAW_NUMBERS))]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    [
        ("sheet",),
        ("players",),
        ("players", 0),
        ("players", 1, "name"),
        ("players", 1, "colour"),
        ("options",),
        ("moves",),
        ("moves", 0),
        ("moves", 1, "player"),
        ("moves", 1, "move"),
        ("claims", 0, "value"),
        ("claims", 0),
        ("final",),
        ("extra",),
    ]
)


def dumps(data: Any) -> str:
    """JSON text of ``data``, with the raw-number markers replaced by their text."""
    text = json.dumps(data)
    for k, raw in enumerate(RAW_NUMBERS):
        text = text.replace(f'"@raw{k}"', raw)
    return text


def put(data: dict[str, Any], where: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    node: Any = data
    for step in where[:-1]:
        node = node[step]
    node[where[-1]] = value
    return data


@settings(max_examples=300, deadline=None)
@given(where=FIELDS, value=JSON)
def test_any_value_in_any_field_is_read_or_refused_with_its_path(
    where: tuple[str | int, ...], value: Any
) -> None:
    text = dumps(put(GOOD, where, value))
    try:
        parse_json(text, "game.json")
    except TranscriptError as exc:
        assert exc.problems, "an error names at least one problem"
        for place, message in exc.problems:
            assert str(place) and message
        str(exc).encode("utf-8", "backslashreplace")
        # Every problem is placed by a JSON path, never by a line of text.
        assert all(place.line == 0 and place.path for place, _ in exc.problems)


@pytest.mark.parametrize(
    ("where", "raw", "path", "why"),
    [
        (("moves", 1, "player"), '["Bob"]', "moves[1].player", "not a list"),
        (("claims", 0, "value"), "9" * 5000, "claims[0].value", "5,000 digits"),
        (("options",), '{"x": ' + "9" * 5000 + "}", 'options["x"]', "5,000 digits"),
        (("moves", 0), '"b2\\ud800"', "moves[0]", "lone surrogate"),
        (("players", 0), '"Ann\\udfff"', "players[0]", "lone surrogate"),
        (("options",), '{"x": NaN}', 'options["x"]', "not a number"),
        (("sheet",), "1e999", "sheet", "too large"),
        (("move",), "[]", "move", "is not a key here (known: sheet, players,"),
    ],
)
def test_the_campaigns_examples_name_the_place(
    tmp_path: Path, where: tuple[str | int, ...], raw: str, path: str, why: str
) -> None:
    text = dumps(put(GOOD, where, "@MARK")).replace('"@MARK"', raw)
    file = tmp_path / "game.json"
    file.write_text(text, encoding="utf-8")
    for extra in ([], ["--json"]):
        result = runner.invoke(app, ["check", str(file), *extra])
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        assert result.stderr.startswith(f"papergames: error: {file}: {path}: ")
        assert why in result.stderr and "Traceback" not in result.stderr


@settings(max_examples=40, deadline=None)
@given(move=st.text(max_size=12), player=st.text(min_size=1, max_size=6))
def test_json_output_is_whole_and_valid_whatever_the_strings(
    tmp_path_factory: pytest.TempPathFactory, move: str, player: str
) -> None:
    data = put(GOOD, ("moves", 0), move)
    data["claims"][0]["what"] = player
    file = tmp_path_factory.mktemp("json") / "game.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["check", "--json", str(file)])
    if result.exit_code == 2:
        assert result.stdout == "" and result.stderr.startswith("papergames: error:")
    else:
        assert result.exit_code in (0, 1)
        assert json.loads(result.stdout)["sheet"] == "cocomposite size=4 seed=1"


@settings(max_examples=60, deadline=None)
@given(value=JSON)
def test_the_whole_document_may_be_any_json(value: Any) -> None:
    with contextlib.suppress(PapergamesError):
        check_text(dumps(value))
