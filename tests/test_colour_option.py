"""colour=on (--colour): COM:POSITIE's pieces and Mondrian's tints in colour, grey-safe.

The default stays black and white, byte for byte; with colour on, the colours a sheet uses each
keep a grey of their own, so a black-and-white print or copy still tells them apart, and every
mark the game needs still survives a light photocopy.
"""

from __future__ import annotations

import io
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from papergames.cli import app
from papergames.output import render
from papergames.sheets.model import Feature, Sheet, grey_of
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from tests.test_handouts import grey_only
from tests.test_print_quality import copy_pages, missing_marks

COLOURED = [
    ("compositie", {}),
    ("plan-a-head", {}),
    ("pick-two-one", {}),
    ("cannon-ball", {}),
    ("mondrian", {"tints": "on"}),
]
MIN_GREY_STEP = 0.1
"""Least difference in grey between two colours of one sheet, and between a colour and white."""


def sheet(game: str, settings: dict[str, str], colour: bool | None) -> Sheet:
    return make_sheet(SheetSpec.create(game, settings, seed=3, colour=colour))


def rendered(made: Sheet, fmt: str) -> bytes:
    buf = io.BytesIO()
    render(made, buf, format=fmt)
    return buf.getvalue()


def colours(made: Sheet) -> set[str]:
    return {f.colour for page in made.pages for f in page.features() if f.colour is not None}


@pytest.mark.parametrize(("game", "settings"), COLOURED)
@pytest.mark.parametrize("fmt", ["pdf", "svg", "png"])
def test_colour_off_is_the_default_byte_for_byte(
    game: str, settings: dict[str, str], fmt: str
) -> None:
    plain = sheet(game, settings, None)
    off = make_sheet(SheetSpec.create(game, {**settings, "colour": "off"}, seed=3))
    assert str(plain.spec) == str(off.spec)
    assert "colour" not in str(plain.spec)
    assert rendered(plain, fmt) == rendered(off, fmt)
    assert not colours(plain)


@pytest.mark.parametrize(("game", "settings"), COLOURED)
def test_colour_on_prints_colours_that_stay_apart_in_grey(
    game: str, settings: dict[str, str]
) -> None:
    made = sheet(game, settings, True)
    assert str(made.spec).endswith("colour=on")
    used = colours(made)
    assert len(used) >= 3, "each of the game's colours gets a colour of its own"
    greys = sorted(grey_of(c) for c in used)
    for a, b in combinations(greys, 2):
        assert abs(a - b) >= MIN_GREY_STEP, f"{game}: two colours print as one grey"
    assert 1 - greys[-1] >= MIN_GREY_STEP, f"{game}: a colour prints as white"
    pdf = rendered(made, "pdf")
    assert not grey_only(pdf), "the PDF draws in colour"
    assert grey_only(rendered(sheet(game, settings, False), "pdf"))
    svg = rendered(made, "svg").decode()
    assert all(c in svg for c in used)


def test_each_piece_keeps_its_pattern_and_gets_its_own_colour() -> None:
    """The colour is added to the pattern, never put in its place: shape and style stay."""
    plain, col = sheet("compositie", {}, False), sheet("compositie", {}, True)
    for page_plain, page_col in zip(plain.pages, col.pages, strict=True):
        by_colour: dict[str, set[str]] = {}
        for a, b in zip(page_plain.features(), page_col.features(), strict=True):
            if a.id == "qr-spec":
                continue  # the code holds the spec, which says colour=on
            assert (a.id, a.style, a.geometry.wkb) == (b.id, b.style, b.geometry.wkb)
            if b.colour is not None:
                by_colour.setdefault(b.data["colour"], set()).add(b.colour)
        assert all(len(printed) == 1 for printed in by_colour.values())
        assert len({next(iter(p)) for p in by_colour.values()}) == len(by_colour)


@pytest.mark.parametrize(("game", "settings"), COLOURED[::2])
def test_a_colour_sheet_copied_in_black_and_white_keeps_every_mark(
    game: str, settings: dict[str, str]
) -> None:
    made = sheet(game, settings, True)
    for page, kept in zip(made.pages, copy_pages(made), strict=True):
        assert not missing_marks(page, kept)


def test_a_colour_png_is_rgb_and_a_plain_one_grey() -> None:
    from PIL import Image

    col = Image.open(io.BytesIO(rendered(sheet("compositie", {}, True), "png")))
    plain = Image.open(io.BytesIO(rendered(sheet("compositie", {}, False), "png")))
    assert (col.mode, plain.mode) == ("RGB", "L")
    rgb = np.asarray(col.convert("RGB")).astype(int)
    assert (abs(rgb[..., 0] - rgb[..., 1]) > 60).any(), "some pixels are really coloured"


def test_the_cli_takes_colour_and_the_spec_round_trips(tmp_path: Path) -> None:
    out = tmp_path / "pieces.pdf"
    result = CliRunner().invoke(
        app, ["sheet", "compositie", "--seed", "4", "--colour", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "compositie seed=4 colour=on" in result.output
    again = tmp_path / "again.pdf"
    result = CliRunner().invoke(app, ["sheet", "compositie seed=4 colour=on", "-o", str(again)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == again.read_bytes()
    spec = SheetSpec.parse("mondrian tints=on seed=2 colour=on")
    assert spec.colour and str(spec) == "mondrian tints=on seed=2 colour=on"
    assert SheetSpec.parse(str(spec.with_seed(5))).colour


def test_colour_given_twice_with_different_values_is_refused() -> None:
    from papergames.errors import SpecError

    with pytest.raises(SpecError, match="colour"):
        SheetSpec.create("compositie", {"colour": "on"}, seed=1, colour=False)


def test_a_game_without_colours_prints_the_same_ink_with_colour_on() -> None:
    plain, col = sheet("maze", {}, False), sheet("maze", {}, True)
    assert not colours(col)
    ink = [f for f in plain.page.features() if not f.id.startswith("qr-")]
    again = [f for f in col.page.features() if not f.id.startswith("qr-")]
    assert [(f.id, f.geometry.wkb) for f in ink] == [(f.id, f.geometry.wkb) for f in again]
    assert isinstance(ink[0], Feature)
