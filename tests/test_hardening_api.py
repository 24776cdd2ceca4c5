"""The library API: any value given to a public call is taken or refused with the project's own
error (:class:`papergames.errors.PapergamesError`), never a ``TypeError``, ``KeyError`` or
``IndexError`` from deep inside (docs/errors.md lists what each call raises)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papergames import SheetSpec, make_sheet
from papergames.errors import PapergamesError, SpecError
from papergames.output import render, write_sheet
from papergames.play.checker import check_text
from papergames.play.transcript import TranscriptError, parse_json, parse_text, parse_transcript
from papergames.sheets.model import Sheet
from papergames.sheets.rng import MAX_SEED

ANY = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**80), max_value=2**80),
        st.floats(),
        st.text(max_size=12),
        st.binary(max_size=8),
    ),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


@pytest.fixture(scope="module")
def maze() -> Sheet:
    return make_sheet(SheetSpec.create("maze", seed=1))


def refused_or_taken(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except PapergamesError as exc:
        assert str(exc), "the error says what is wrong"
        return exc


@settings(max_examples=150, deadline=None)
@given(
    keyword=st.sampled_from(["seed", "paper", "orientation", "markers", "settings", "game"]),
    value=ANY,
)
def test_create_takes_or_refuses_any_value(keyword: str, value: Any) -> None:
    if keyword == "settings":
        made = refused_or_taken(lambda: SheetSpec.create("maze", value, seed=1))
    elif keyword == "game":
        made = refused_or_taken(lambda: SheetSpec.create(value, seed=1))
    else:
        made = refused_or_taken(lambda: SheetSpec.create("maze", **{keyword: value}))
    if isinstance(made, SheetSpec):
        assert isinstance(made.seed, int) and not isinstance(made.seed, bool)
        assert 0 <= made.seed <= MAX_SEED
        assert isinstance(made.markers, bool)
        assert SheetSpec.parse(str(made)) == made


@pytest.mark.parametrize("seed", [-1, 2**63, 2**70, "abc", "7", 1.5, 7.0, True, None, [7]])
def test_only_a_whole_number_in_range_is_a_seed(seed: Any) -> None:
    if seed is None:
        assert SheetSpec.create("maze").seed >= 0  # no seed: a fresh one is drawn
        return
    with pytest.raises(SpecError, match="seed"):
        SheetSpec.create("maze", seed=seed)


@settings(max_examples=80, deadline=None)
@given(
    field=st.sampled_from(["game", "params", "seed", "paper", "orientation", "markers", "size"]),
    value=ANY,
)
def test_make_sheet_checks_a_spec_built_directly(field: str, value: Any) -> None:
    if field == "size":
        spec = SheetSpec("maze", {"size": value}, seed=1)
    else:
        spec = SheetSpec(**{"game": "maze", "seed": 1, field: value})
    made = refused_or_taken(lambda: make_sheet(spec))
    if isinstance(made, Sheet):
        assert made.pages and SheetSpec.parse(str(made.spec)) == made.spec


@settings(max_examples=100, deadline=None)
@given(
    argument=st.sampled_from(["sheet", "format", "page", "dpi"]),
    value=ANY,
)
def test_render_checks_every_argument(maze: Sheet, argument: str, value: Any) -> None:
    kwargs: dict[str, Any] = {"format": "png", "dpi": 30}
    sheet: Any = value if argument == "sheet" else maze
    if argument != "sheet":
        kwargs[argument] = value
    out = io.BytesIO()
    made = refused_or_taken(lambda: render(sheet, out, **kwargs))
    if isinstance(made, PapergamesError):
        assert out.getvalue() == b""  # refused before a byte is written


@pytest.mark.parametrize("fmt", ["pdf", "svg", "png"])
def test_a_sheet_with_no_pages_is_refused(tmp_path: Any, maze: Sheet, fmt: str) -> None:
    empty = Sheet(maze.spec, "nothing", [])
    with pytest.raises(SpecError, match="no pages"):
        render(empty, io.BytesIO(), format=fmt)
    with pytest.raises(SpecError, match="no pages"):
        write_sheet(empty, tmp_path / f"x.{fmt}")
    assert list(tmp_path.iterdir()) == []


@settings(max_examples=60, deadline=None)
@given(value=ANY, parser=st.sampled_from([parse_transcript, parse_text, parse_json, check_text]))
def test_transcript_readers_take_text_only(value: Any, parser: Callable[[Any], Any]) -> None:
    if isinstance(value, str):
        refused_or_taken(lambda: parser(value))
        return
    with pytest.raises(TranscriptError, match="a transcript is text"):
        parser(value)


@settings(max_examples=60, deadline=None)
@given(value=ANY)
def test_parse_takes_text_only(value: Any) -> None:
    made = refused_or_taken(lambda: SheetSpec.parse(value))
    if not isinstance(value, str):
        assert isinstance(made, SpecError)
