"""Mixed packs, a pack's bounded size, the book's paper and games, and bad input at the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import papergames.handouts.pack as pack_module
from papergames.cli import app
from papergames.errors import FitError, SpecError
from papergames.games import game_names
from papergames.handouts.book import BOOK_PAPERS, make_book
from papergames.handouts.pack import key_rows, make_pack
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.units import PAPERS

runner = CliRunner()


def test_a_mixed_pack_has_copies_of_each_game_and_a_key_naming_every_sheet(
    tmp_path: Path,
) -> None:
    out = tmp_path / "class.pdf"
    result = runner.invoke(
        app, ["pack", "rings", "spaghetti", "maze", "--copies", "4", "--seed", "3", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "12 sheets" in result.stdout and out.exists()
    specs = [SheetSpec.create(g, seed=3) for g in ("rings", "spaghetti", "maze")]
    pack = make_pack(specs, 4)
    games = [p.data.get("game") for p in pack.pages if p.data["kind"] == "rules"]
    assert games == ["rings"] * 4 + ["spaghetti"] * 4 + ["maze"] * 4, "each sheet's own rules"
    key = " | ".join(t.text for p in pack.pages if p.data["kind"] == "key" for t in p.texts())
    sheets = [p for p in pack.pages if p.data["kind"] == "sheet"]
    assert len(sheets) == 12
    for number, page in enumerate(sheets, start=1):
        spec = " ".join(t.text for t in page.texts() if t.id.startswith("spec-"))
        assert f"{number:>3}.  {spec}" in key


def test_set_in_a_mixed_pack_goes_to_the_games_that_take_it(tmp_path: Path) -> None:
    out = tmp_path / "mixed.pdf"
    result = runner.invoke(
        app,
        [
            "pack",
            "maze",
            "rings",
            "-n",
            "1",
            "--set",
            "circles=4",
            "--rules",
            "none",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    bad = runner.invoke(app, ["pack", "maze", "rings", "--set", "nosuch=1", "-o", str(out)])
    assert bad.exit_code == 2 and "nosuch" in bad.stderr


def test_a_pack_too_large_is_refused_before_it_is_made_with_a_count_that_works(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pack_module, "MAX_ITEMS", 5_000)
    spec = SheetSpec.create("maze", seed=1)
    made: list[int] = []
    with pytest.raises(SpecError, match=r"use --copies (\d+) or fewer") as refused:
        make_pack(spec, 100, rules="none", progress=lambda done, total: made.append(done))
    assert made == [], "refused before the sheets are made"
    most = int(str(refused.value).rpartition("--copies ")[2].split()[0])
    assert make_pack(spec, most, rules="none").pages
    with pytest.raises(SpecError):
        make_pack(spec, most + 1, rules="none")


@pytest.mark.parametrize(
    "args",
    [
        ["pack", "delaunay", "--copies", "500"],
        ["pack", "rings", "--copies", "500", "--set", "circles=12", "--set", "rounds=12"],
    ],
)
def test_the_slow_packs_of_the_hardening_campaign_are_refused_at_once(
    args: list[str], tmp_path: Path
) -> None:
    out = tmp_path / "big.pdf"
    result = runner.invoke(app, [*args, "-o", str(out)])
    assert result.exit_code == 2 and "or fewer" in result.stderr, result.output
    assert result.stderr.count("\n") == 1 and not out.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["book", "--games", ","], "names no game"),
        (["book", "--games", " , "], "names no game"),
        (["book", "--paper", "a5"], "a4, letter, a3 only"),
        (["book", "--paper", "zz"], "--paper zz"),
        (["rules", "rings", "--paper", "zz"], "--paper zz"),
        (["pack", "maze", "maze"], "twice"),
        (["pack", "maze", "--copies", "0"], "--copies 0"),
        (["pack", "maze", "--per-page", "4", "--paper", "a6"], "--per-page 4"),
    ],
)
def test_bad_handout_input_is_one_line_exit_2_and_no_file(
    args: list[str], words: str, tmp_path: Path
) -> None:
    out = tmp_path / "x.pdf"
    result = runner.invoke(app, [*args, "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert words in result.stderr and result.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_every_paper_the_book_refuses_really_is_too_small_for_some_game() -> None:
    for paper in PAPERS:
        if paper in BOOK_PAPERS:
            continue
        with pytest.raises(SpecError, match="printed on"):
            make_book(["maze"], paper=paper)
        failing = []
        for game in game_names():
            try:
                make_sheet(SheetSpec.create(game, seed=1, paper=paper))
            except FitError:
                failing.append(game)
        assert len(failing) > len(game_names()) / 2, (paper, failing)
    with pytest.raises(SpecError, match="names no game"):
        make_book([])


def test_the_book_rules_page_caption_names_the_sheet_that_follows_it() -> None:
    book = make_book(["klee", "compositie"], seed=4)
    for k, page in enumerate(book.pages):
        if page.data["kind"] != "rules":
            continue
        caption = next(t.text for t in page.texts() if t.id == "diagram-caption")
        following = book.pages[k + 1]
        spec = " ".join(t.text for t in following.texts() if t.id.startswith("spec-"))
        assert f"the sheet {spec}," in caption
    assert key_rows([]) == []
