"""The spec printed on a sheet is the spec you type.

The text in a sheet's footer and QR code (``str(spec)``), given back to ``papergames sheet`` or
written on a transcript's ``sheet:`` line, must make that very sheet: the same bytes as the
command that first made it. Every game in the registry is tried, with parameters off their
defaults, other papers and orientations, and without markers, so a game added later is covered
without touching this file.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from papergames.cli import app
from papergames.errors import PapergamesError
from papergames.games import game_names, get_layout
from papergames.play.transcript import parse_json, parse_text
from papergames.sheets.params import Param
from papergames.sheets.spec import RESERVED, SheetSpec

runner = CliRunner()


def other_value(param: Param) -> str | None:
    """A value other than the default, leaning smaller so that the sheet still fits its paper."""
    if param.kind == "int":
        value = param.default - 1
        return str(value if value >= (param.low or 0) else param.default + 1)
    if param.kind == "float":
        low = param.low if param.low is not None else param.default - 1
        step = 0.25 if param.default - 0.25 >= low else -0.25
        return repr(param.default - step)
    if param.kind == "bool":
        return "off" if param.default else "on"
    if param.kind == "choice":
        return next(c for c in param.choices if c != param.default)
    return None  # names and free text depend on other parameters: covered by explicit cases


@cache
def changed_settings(game: str) -> tuple[tuple[str, str], ...]:
    """As many parameters off their defaults as the game accepts together, in declared order."""
    chosen: dict[str, str] = {}
    for param in get_layout(game).params:
        value = other_value(param)
        if value is None:
            continue
        try:
            SheetSpec.create(game, {**chosen, param.name: value}, seed=1)
        except PapergamesError:  # refused with the others (mondrian's spaces with field=mini)
            continue
        chosen[param.name] = value
    return tuple(chosen.items())


CASES = [
    # seed, paper, orientation, markers, the parameters off their defaults, format
    pytest.param(3, "letter", "portrait", True, True, "pdf", id="letter-portrait"),
    pytest.param(11, "a3", "landscape", False, True, "svg", id="a3-landscape-no-markers"),
    pytest.param(27, "a4", "auto", True, False, "svg", id="a4-defaults"),
]


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


def written(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def printed_spec(stdout: str) -> str:
    """The spec the command says it printed on the sheet: ``wrote PATH  (SPEC)``."""
    line = next(line for line in stdout.splitlines() if line.startswith("wrote "))
    return line.split("  (", 1)[1].removesuffix(")")


@pytest.mark.parametrize("game", game_names())
def test_no_parameter_shadows_a_key_of_the_sheet(game: str) -> None:
    # Except labels: Crossing the Rings prints its names with a parameter of that name, which
    # means there what the sheet's labels key means elsewhere (SheetSpec.create routes it); and
    # names: Cubist's studio titles its boards with the players' names, its own parameter.
    assert not set(get_layout(game).params.params) & (set(RESERVED) - {"labels", "names"})


@pytest.mark.parametrize(("seed", "paper", "orientation", "markers", "changed", "fmt"), CASES)
@pytest.mark.parametrize("game", game_names())
def test_the_printed_spec_typed_back_makes_the_same_sheet(
    tmp_path: Path,
    game: str,
    seed: int,
    paper: str,
    orientation: str,
    markers: bool,
    changed: bool,
    fmt: str,
) -> None:
    settings = dict(changed_settings(game)) if changed else {}
    options = [arg for key, value in settings.items() for arg in ("--set", f"{key}={value}")]
    options += ["--seed", str(seed), "--paper", paper]
    options += {"portrait": ["--portrait"], "landscape": ["--landscape"], "auto": []}[orientation]
    options += [] if markers else ["--no-markers"]
    first, again = tmp_path / "first", tmp_path / "again"
    first.mkdir()
    again.mkdir()
    stdout = run("sheet", game, *options, "-o", str(first / f"sheet.{fmt}"))
    spec = SheetSpec.create(
        game, settings, seed=seed, paper=paper, orientation=orientation, markers=markers
    )
    text = str(spec)
    assert printed_spec(stdout) == text
    run("sheet", text, "-o", str(again / f"sheet.{fmt}"))
    assert written(again) == written(first)
    assert all(f"{key}={value}" in text.split() for key, value in settings.items())
    transcript = parse_text(f"sheet: {text}   # from the footer\nplayers: Ann, Bob\n")
    assert transcript.spec == spec
    assert parse_json(json.dumps({"sheet": text, "players": ["Ann", "Bob"]})).spec == spec
    assert SheetSpec.parse(text) == spec


def test_the_spec_typed_unquoted_or_with_set_makes_the_same_sheet(tmp_path: Path) -> None:
    run("sheet", "klee", "--seed", "5", "--paper", "letter", "-o", str(tmp_path / "a.pdf"))
    run("sheet", "klee seed=5 paper=letter", "-o", str(tmp_path / "b.pdf"))
    run("sheet", "klee", "seed=5", "paper=letter", "-o", str(tmp_path / "c.pdf"))
    run("sheet", "klee", "--set", "paper=letter", "--set", "seed=5", "-o", str(tmp_path / "d.pdf"))
    run("sheet", "Klee  seed=5 paper=Letter", "-o", str(tmp_path / "e.pdf"))
    pdfs = [(tmp_path / f"{name}.pdf").read_bytes() for name in "abcde"]
    assert all(pdf == pdfs[0] for pdf in pdfs)


@pytest.mark.parametrize(
    ("game", "settings"),
    [
        ("cubist-studio", {"players": "2", "names": "Ann,Bob"}),
        ("cubist-studio", {"cell": "16.123456789"}),
        ("rings", {"min": "m + 1", "max": "3 * m", "circles": "5"}),
    ],
)
def test_names_text_and_precise_numbers_print_as_they_were_given(
    tmp_path: Path, game: str, settings: dict[str, str]
) -> None:
    options = [arg for key, value in settings.items() for arg in ("--set", f"{key}={value}")]
    first, again = tmp_path / "first", tmp_path / "again"
    first.mkdir()
    again.mkdir()
    stdout = run("sheet", game, *options, "--seed", "4", "-o", str(first / "sheet.svg"))
    text = printed_spec(stdout)
    run("sheet", text, "-o", str(again / "sheet.svg"))
    assert written(again) == written(first)
    spec = SheetSpec.create(game, settings, seed=4)
    assert text == str(spec)
    assert SheetSpec.parse(text) == spec


@pytest.mark.parametrize("names", ["Ann#1,Bob", "Ann=1,Bob", "Ann+,+Bob,Bob"])
def test_a_name_that_could_not_be_typed_back_is_refused(names: str) -> None:
    result = runner.invoke(app, ["sheet", "cubist-studio", "--set", f"names={names}"])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"papergames: error: names={names} is not allowed: ")
    assert len(result.stderr.splitlines()) == 1


def test_a_name_with_a_space_prints_its_space_as_a_plus_and_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "studio.svg"
    result = runner.invoke(
        app, ["sheet", "cubist-studio", "--set", "names=Ann Lee,Bob", "-o", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    spec = SheetSpec.parse("cubist-studio seed=1 names=Ann+Lee,Bob")
    assert spec.player_names == ("Ann Lee", "Bob")
    assert "names=Ann+Lee,Bob" in str(spec)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_number_that_is_not_finite_is_refused(value: str) -> None:
    with pytest.raises(PapergamesError, match=f"cell={value} is not allowed"):
        SheetSpec.create("cubist-studio", {"cell": value}, seed=1)


@pytest.mark.parametrize("game", ["rings", "springer"])
def test_the_qr_code_read_from_a_picture_makes_the_same_sheet(tmp_path: Path, game: str) -> None:
    import zxingcpp
    from PIL import Image

    first = tmp_path / "first.png"
    run("sheet", game, "--seed", "8", "--paper", "letter", "--portrait", "-o", str(first))
    with Image.open(first) as picture:
        codes = zxingcpp.read_barcodes(picture.convert("L"))
    texts = [code.text for code in codes if code.format == zxingcpp.BarcodeFormat.QRCode]
    assert texts == [f"{game} seed=8 paper=letter orientation=portrait"]
    run("sheet", texts[0], "-o", str(tmp_path / "again.png"))
    assert (tmp_path / "again.png").read_bytes() == first.read_bytes()
