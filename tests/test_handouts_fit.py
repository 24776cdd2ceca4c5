"""N-up packs: every refusal names fixes that work; rules behind cells fit their cells."""

from __future__ import annotations

import re

import pytest

from papergames.errors import FitError
from papergames.games import game_names
from papergames.handouts.pack import cells, make_pack
from papergames.sheets.model import Sheet, Text
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.units import PAPERS

WRONG_ADVICE = ("0.0 mm", "portrait", "smaller size", "paper=")


def fixes(message: str) -> list[tuple[int | None, dict[str, str]]]:
    """The fixes a refusal names, as (per_page, settings) to apply."""
    advice = message.rpartition("; use ")[2]
    found: list[tuple[int | None, dict[str, str]]] = []
    for fix in advice.split(" or "):
        if match := re.fullmatch(r"--per-page (\d)", fix.strip()):
            found.append((int(match[1]), {}))
        elif match := re.fullmatch(r"--set (\S+)=(\S+)", fix.strip()):
            found.append((None, {match[1]: match[2]}))
    return found


@pytest.mark.parametrize("per_page", [2, 4])
@pytest.mark.parametrize("game", game_names())
def test_every_n_up_refusal_names_a_fix_that_builds(game: str, per_page: int) -> None:
    spec = SheetSpec.create(game, seed=6)
    try:
        make_pack(spec, 1, rules="none", per_page=per_page)
    except FitError as exc:
        message = str(exc)
    else:
        return
    assert "\n" not in message and not any(w in message for w in WRONG_ADVICE), message
    named = fixes(message)
    assert named, f"no fix named: {message}"
    for fewer, settings in named:
        fixed = SheetSpec.create(game, settings, seed=6) if settings else spec
        pack = make_pack(fixed, 1, rules="none", per_page=fewer or per_page)
        assert pack.pages, (game, fewer, settings)


def test_rules_behind_cells_are_the_cells_size_or_refused_with_a_fix() -> None:
    spec = SheetSpec.create("spaghetti", {"size": "5"}, seed=2)
    pack = make_pack(spec, 2, per_page=2)
    back = pack.pages[1]
    assert back.data["kind"] == "rules" and len(back.data["cells"]) == 2
    cell = cells("a4", 2)[0]
    w, h = PAPERS[cell.paper].size(cell.landscape)
    for k, entry in enumerate(back.data["cells"], start=1):
        texts = [t for t in back.texts() if t.id.startswith(f"r{k}-")]
        assert any("Spaghetti" in t.text for t in texts)
        for t in texts:
            assert entry["x"] <= t.x <= entry["x"] + w and entry["y"] <= t.y <= entry["y"] + h
            assert t.size >= 2.5, "7 pt or more"
    maze = SheetSpec.create("maze", seed=2)
    with pytest.raises(FitError, match=r"--rules back with --per-page 4.*use --rules first") as e:
        make_pack(maze, 4, per_page=4)
    assert make_pack(maze, 4, per_page=4, rules="first").pages
    assert make_pack(maze, 4, per_page=1).pages
    assert str(e.value).count("\n") == 0


def test_the_mini_mondrian_field_has_a_tally_its_scores_can_fill_and_prints_two_up() -> None:
    mini = make_sheet(SheetSpec.create("mondrian", {"field": "mini"}, seed=1))
    full = make_sheet(SheetSpec.create("mondrian", seed=1))
    assert mini.pages[0].data["points"] < full.pages[0].data["points"] == 80

    def tally(sheet: Sheet) -> int:
        return sum(1 for f in sheet.pages[0].features() if f.id.startswith("box-tally1-"))

    assert tally(mini) == mini.pages[0].data["points"] < tally(full) == 80
    assert make_pack(SheetSpec.create("mondrian", {"field": "mini"}, seed=1), 2, per_page=2)
    points = make_sheet(SheetSpec.create("mondrian", {"field": "mini", "points": "20"}, seed=1))
    assert points.pages[0].data["points"] == 20, "an explicit count still wins"


@pytest.mark.parametrize("per_page", [1, 2])
def test_the_scale_bar_label_says_what_the_bar_measures(per_page: int) -> None:
    pack = make_pack(SheetSpec.create("maze", seed=1), per_page, rules="none", per_page=per_page)
    page = pack.pages[0]
    bars = [f for f in page.features() if f.id.endswith("scale-bar")]
    labels = [t for t in page.texts() if t.id.endswith("scale-label")]
    assert len(bars) == len(labels) == per_page
    for bar, label in zip(bars, labels, strict=True):
        assert isinstance(label, Text)
        length = bar.geometry.bounds[2] - bar.geometry.bounds[0]
        assert label.text.startswith(f"{length / 10:g} cm")
