"""Two-sided printing: nothing to cut ever has ink behind it, in any pack or the book.

Pages are printed long-edge duplex, so pages 2k and 2k+1 (counting from 0) are the two sides of
one leaf. A page meant to be cut up (the COM:POSITIE pieces) must start a leaf and have a blank
back; on an n-up page with the rules behind it, each cell's back holds that cell's own rules, and
a cell of pieces has nothing behind it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papergames.games import game_names
from papergames.handouts.book import make_book
from papergames.handouts.pack import Leaves, behind, cells, is_cut_out, make_pack
from papergames.sheets.model import Page, Sheet
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec


def duplex_faults(pages: list[Page], per_page: int = 1, paper: str = "a4") -> list[str]:
    """Every way ``pages`` break the duplex rules, as readable lines (empty when none)."""
    faults = []
    for k, page in enumerate(pages):
        other = pages[k ^ 1] if k ^ 1 < len(pages) else None
        if is_cut_out(page):
            if k % 2:
                faults.append(f"page {k + 1} is cut out but printed on the back of page {k}")
            if other is not None and other.items:
                faults.append(f"page {k + 1} is cut out but page {k + 2} is printed behind it")
        front_cells = page.data.get("cells", [])
        if page.data.get("kind") == "sheet" and front_cells and other is not None and k % 2 == 0:
            back = {(c["x"], c["y"]): c["game"] for c in other.data.get("cells", [])}
            layout = cells(paper, per_page)
            for n, cell in enumerate(front_cells):
                mirror = layout[behind(n, per_page)]
                there = back.get((mirror.x, mirror.y))
                if cell["cut_out"] and (there is not None or other.data["kind"] != "rules"):
                    if other.items and other.data["kind"] != "rules":
                        faults.append(f"page {k + 1}: pieces with ink behind them")
                    elif there is not None:
                        faults.append(f"page {k + 1}: rules behind a cell of pieces")
                elif other.data["kind"] == "rules" and there != cell["game"]:
                    faults.append(f"page {k + 1}: cell {n + 1} has {there} rules behind it")
    return faults


@pytest.mark.parametrize("game", game_names())
def test_no_pack_puts_ink_behind_a_page_to_cut(game: str) -> None:
    for rules in ("back", "first", "none"):
        pack = make_pack(SheetSpec.create(game, seed=3), 3, rules=rules)
        assert duplex_faults(pack.pages) == [], (game, rules)
        kinds = [p.data["kind"] for p in pack.pages]
        per_sheet = len(make_sheet(SheetSpec.create(game, seed=3)).pages)
        assert kinds.count("sheet") == 3 * per_sheet, "every page of every sheet, once"
        assert kinds.index("key") % 2 == 0, "the key starts a leaf of its own"


@pytest.mark.parametrize(("paper", "per_page"), [("a4", 2), ("letter", 2), ("a3", 4)])
@pytest.mark.parametrize("rules", ["back", "first", "none"])
def test_n_up_packs_keep_each_cells_back_its_own(paper: str, per_page: int, rules: str) -> None:
    spec = SheetSpec.create("spaghetti", {"size": "5"}, seed=4, paper=paper)
    pack = make_pack(spec, per_page + 1, rules=rules, per_page=per_page)
    assert duplex_faults(pack.pages, per_page, paper) == []
    if rules == "back":
        fronts = [k for k, p in enumerate(pack.pages) if p.data["kind"] == "sheet"]
        assert all(k % 2 == 0 and pack.pages[k + 1].data["kind"] == "rules" for k in fronts)


def test_the_book_never_puts_ink_behind_pieces_and_each_game_starts_a_leaf() -> None:
    games = game_names()
    book = make_book(games, seed=2)
    assert duplex_faults(book.pages) == []
    starts = [k for k, p in enumerate(book.pages) if p.data["kind"] == "rules"]
    assert len(starts) == len(games) and all(k % 2 == 0 for k in starts)
    assert any(is_cut_out(p) for p in book.pages), "the book has pieces to cut"
    contents = [t.text for t in book.pages[1].texts() if t.id.startswith("contents-page-")]
    assert [int(entry.split()[-1]) - 1 for entry in contents] == starts


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=1, max_size=4), min_size=1, max_size=8))
def test_leaves_pad_any_run_of_pages_so_cut_outs_stand_alone(sheets: list[list[bool]]) -> None:
    leaves = Leaves(210.0, 297.0)
    originals = []
    for pages in sheets:
        leaves.new_leaf()
        for cut in pages:
            page = Page(210.0, 297.0, data={"kind": "sheet", "cut_out": cut})
            page.data["marker"] = len(originals)
            originals.append(page)
            leaves.add(page)
    assert duplex_faults(leaves.pages) == []
    assert [p for p in leaves.pages if p.data["kind"] != "blank"] == originals, "order kept"
    blanks = sum(p.data["kind"] == "blank" for p in leaves.pages)
    assert blanks <= 2 * len(originals), "padding only where needed"


def test_the_check_catches_ink_behind_pieces() -> None:
    board = Page(210.0, 297.0, data={"kind": "sheet"})
    pieces = Page(210.0, 297.0, data={"kind": "sheet", "cut_out": True})
    assert duplex_faults([board, pieces])
    pack = make_pack(SheetSpec.create("compositie", seed=1), 1, rules="none")
    assert duplex_faults(pack.pages) == []
    assert isinstance(pack, Sheet)
