"""The registry: every game's record agrees with what its layout, engine and judge declare."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest

from papergames import SheetSpec, make_sheet
from papergames.errors import SpecError
from papergames.games import GAMES, Game, find_judge, get_game, get_layout, get_rules
from papergames.play.rules import Player
from papergames.sheets.params import ParamSet

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RECORDS = list(GAMES.values())
ENGINES = [game for game in RECORDS if game.has_rules]


def _check_shape(shape: type[Any] | None, params: ParamSet, what: str) -> None:
    """The shape reads the defaults into values of the declared types."""
    if not list(params):
        return
    assert shape is not None, f"{what} declares parameters but no frozen dataclass to read them"
    assert dataclasses.is_dataclass(shape) and shape.__dataclass_params__.frozen  # type: ignore[attr-defined]
    typed = params.read(shape, params.defaults())
    hints = typing.get_type_hints(shape)
    for field in dataclasses.fields(shape):
        value = getattr(typed, field.name)
        origin = typing.get_origin(hints[field.name]) or hints[field.name]
        if origin in (int, float, bool, str, tuple):
            wanted = (int, float) if origin is float else origin
            assert isinstance(value, wanted), f"{what}.{field.name} = {value!r} is no {origin}"


@pytest.mark.parametrize("game", RECORDS, ids=lambda g: g.name)
def test_the_layout_declares_what_its_record_says(game: Game) -> None:
    layout = game.layout()
    assert layout.name == game.name
    assert layout.game is game
    assert layout.how_to_play.strip(), "every game has a rules text"
    assert game.summary and "\n" not in game.summary and len(game.summary) <= 100
    sheet = make_sheet(SheetSpec.create(game.name, seed=1))
    assert sheet.title == game.title == sheet.page.title
    _check_shape(layout.param_shape, layout.params, f"{game.name} parameters")


@pytest.mark.parametrize("game", RECORDS, ids=lambda g: g.name)
def test_the_notes_are_the_records_parameters_notes_one_line_each(game: Game) -> None:
    layout = game.layout()
    assert layout.notes() == list(game.params().notes)
    assert all(note.strip() and "\n" not in note for note in layout.notes())


GEOMETRY = ("shapely", "numpy", "PIL", "reportlab", "papergames.sheets.model", "papergames.play")


def test_every_games_parameters_load_without_geometry_or_the_layouts() -> None:
    """``papergames list`` and shell completion read the parameters of every game: that must
    not import shapely, a layout, or the rules engines (bench/startup.py times it)."""
    code = (
        "import sys\n"
        "from papergames.games import GAMES\n"
        "for game in GAMES.values():\n"
        "    game.params()\n"
        "loaded = [m for m in sys.modules if m.startswith("
        f"{GEOMETRY!r}) or m.startswith('papergames.layouts.') and not m.endswith('.params')"
        " and m.count('.') > 2]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("game", ENGINES, ids=lambda g: g.name)
def test_the_engine_declares_what_its_record_says(game: Game) -> None:
    rules = game.rules()
    assert rules.game == game.name and get_rules(game.name) is rules
    _check_shape(rules.option_shape, rules.options, f"{game.name} options")
    fewest, most = game.players
    sheet = make_sheet(SheetSpec.create(game.name, seed=1))
    rules(sheet, [Player(f"P{n}") for n in range(fewest)])
    for count in (fewest - 1, most + 1):
        with pytest.raises(SpecError, match="is played by"):
            rules(sheet, [Player(f"P{n}") for n in range(count)])


@pytest.mark.parametrize("game", RECORDS, ids=lambda g: g.name)
def test_the_sheet_can_be_made_without_importing_the_engine(game: Game) -> None:
    """The registry's references are lazy: a sheet never loads the checker's code."""
    if game.rules_ref is None or game.rules_ref.split(":")[0] == game.layout_ref.split(":")[0]:
        pytest.skip("the layout and the engine share a module")
    engine_module = game.rules_ref.split(":")[0]
    code = (
        "import sys\n"
        "from papergames import SheetSpec, make_sheet\n"
        f"make_sheet(SheetSpec.create({game.name!r}, seed=1))\n"
        f"assert {engine_module!r} not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_game_is_found_by_name_in_any_case_and_unknown_ones_are_refused() -> None:
    for game in RECORDS:
        assert get_game(game.name.upper()) is game
        assert get_layout(game.name) is game.layout()
    with pytest.raises(SpecError, match="unknown game 'chess'"):
        get_game("chess")
    with pytest.raises(SpecError, match="the checker knows"):
        get_rules("cubist-studio")


def test_judges_recognise_their_own_form_and_nothing_else() -> None:
    for path in sorted(EXAMPLES.iterdir()):
        judge = find_judge(path.read_text())
        assert (judge is not None) == path.name.startswith("cubist-installation"), path.name
