"""Packs, rules pages and the book: counts, seeds, specs, the key, n-up, print safety."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from papergames.cli import app
from papergames.errors import FitError, SpecError
from papergames.games import game_names, get_layout
from papergames.handouts.book import make_book, parse_games
from papergames.handouts.pack import cells, make_pack, pack_seeds
from papergames.handouts.rulespage import rules_page
from papergames.output import render
from papergames.output.png import draw_page
from papergames.sheets.bounds import inside, item_box
from papergames.sheets.compose import MARGIN, QR_MARGIN
from papergames.sheets.model import INKS, Feature, Layer, Page, Sheet
from papergames.sheets.spec import SheetSpec

runner = CliRunner()
PRINT_MARGIN = 10.0
"""The brief's safe margin: no ink within 10 mm of the paper's edge (we keep 12)."""


def footer_spec(page: Page) -> SheetSpec:
    texts = sorted(
        (t for t in page.texts() if re.search(r"(^|-)spec-\d+$", t.id)), key=lambda t: t.id
    )
    return SheetSpec.parse(" ".join(t.text for t in texts))


def sheet_pages(pack: Sheet) -> list[Page]:
    return [p for p in pack.pages if p.data.get("kind") == "sheet"]


@pytest.mark.parametrize(
    ("game", "rules", "expected"),
    [
        # The key (for the teacher) and the sheets after a rules page start a leaf of their own.
        ("maze", "none", ["sheet"] * 3 + ["blank", "key"]),
        ("maze", "first", ["rules", "blank"] + ["sheet"] * 3 + ["blank", "key"]),
        ("maze", "back", ["sheet", "rules"] * 3 + ["key"]),
        # The rules go behind the board; the pieces get a leaf with a blank back, for cutting.
        ("compositie", "back", ["sheet", "rules", "sheet", "blank"] * 3 + ["key"]),
    ],
)
def test_pack_page_order(game: str, rules: str, expected: list[str]) -> None:
    pack = make_pack(SheetSpec.create(game, seed=9), 3, rules=rules)
    assert [p.data.get("kind") for p in pack.pages] == expected


def test_pack_sheets_have_distinct_seeds_and_their_own_specs_in_their_footers() -> None:
    spec = SheetSpec.create("rings", {"circles": "5"}, seed=77)
    pack = make_pack(spec, 12, rules="none")
    specs = [footer_spec(p) for p in sheet_pages(pack)]
    assert [s.seed for s in specs] == pack_seeds(77, 12)
    assert len({s.seed for s in specs}) == 12
    assert all(s.game == "rings" and s.params["circles"] == 5 for s in specs)
    again = make_pack(spec, 12, rules="none")
    assert [footer_spec(p) for p in sheet_pages(again)] == specs, "the pack is made again exactly"


def test_the_key_page_lists_every_sheet_and_each_rings_section_counts() -> None:
    pack = make_pack(SheetSpec.create("rings", {"rounds": "2"}, seed=4), 5, rules="none")
    key = " | ".join(t.text for p in pack.pages if p.data["kind"] == "key" for t in p.texts())
    sheets = sheet_pages(pack)
    for number in range(5):
        first, second = sheets[2 * number], sheets[2 * number + 1]
        spec = footer_spec(first)
        counts = [", ".join(map(str, p.data["sections"])) for p in (first, second)]
        assert f"{number + 1:>3}.  {spec}  ·  sections per ring: {counts[0]} / {counts[1]}" in key


@pytest.mark.parametrize(
    ("paper", "per_page"), [("a4", 2), ("a4", 4), ("letter", 2), ("letter", 4)]
)
def test_n_up_sheets_sit_inside_their_cells_with_cut_lines(paper: str, per_page: int) -> None:
    spec = SheetSpec.create("spaghetti", {"size": "5"}, seed=3, paper=paper)
    pack = make_pack(spec, per_page + 1, rules="none", per_page=per_page)
    pages = sheet_pages(pack)
    assert len(pages) == 2, "the last page holds the one sheet left over"
    layout_cells = cells(paper, per_page)
    page = pages[0]
    for k, cell in enumerate(layout_cells):
        sub = [i for i in page.items if i.id.startswith(f"s{k + 1}-")]
        assert any(i.id.endswith("qr-spec") for i in sub)
        from papergames.sheets.units import PAPERS

        w, h = PAPERS[cell.paper].size(cell.landscape)
        for item in sub:
            ink = item_box(item)
            if ink is not None:
                bottom = QR_MARGIN if item.id.endswith("qr-spec") else MARGIN
                box = (
                    cell.x + MARGIN - 0.01,
                    cell.y + MARGIN - 0.01,
                    cell.x + w - MARGIN,
                    cell.y + h - bottom,
                )
                assert inside(ink, box, 0.05), item.id
    assert [i.id for i in page.items if i.id.startswith("cut-")] == (
        ["cut-1"] if per_page == 2 else ["cut-1", "cut-2"]
    )


def test_n_up_is_refused_when_the_sheets_would_be_illegible() -> None:
    with pytest.raises(FitError, match=r"--per-page 4 .* too small for it to stay legible"):
        make_pack(SheetSpec.create("cocomposite", seed=1), 4, per_page=4)
    with pytest.raises(SpecError):
        make_pack(SheetSpec.create("maze", seed=1), 0)
    with pytest.raises(SpecError):
        make_pack(SheetSpec.create("maze", seed=1), 2, per_page=3)


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_game_has_a_rules_page_with_a_diagram_inside_the_margins(
    game: str, paper: str
) -> None:
    page = rules_page(game, paper)
    diagram = [f for f in page.features() if f.id.startswith("diagram-")]
    assert len(diagram) >= 5, "a diagram drawn from a real sheet"
    words = " ".join(t.text for t in page.texts() if t.id.startswith("rules-"))
    first = " ".join(get_layout(game).how_to_play.split()[:6])
    assert " ".join(words.split()[:6]) == first
    for item in page.items:
        ink = item_box(item)
        assert ink is None or inside(
            ink, (MARGIN, MARGIN, page.width - MARGIN, page.height - MARGIN)
        ), item.id


def test_the_book_has_a_cover_contents_and_rules_and_a_sheet_per_game() -> None:
    games = ["rings", "compositie", "mondrian"]
    book = make_book(games, seed=2)
    kinds = [p.data["kind"] for p in book.pages]
    assert kinds == [
        "cover",
        "contents",
        "rules",
        "sheet",
        "rules",
        "sheet",
        "sheet",
        "blank",
        "rules",
        "sheet",
    ]
    contents = [t.text for t in book.pages[1].texts() if t.id.startswith("contents-page-")]
    for game, entry in zip(games, contents, strict=True):
        number = int(entry.split()[-1])
        assert book.pages[number - 1].data == {
            **book.pages[number - 1].data,
            "kind": "rules",
            "game": game,
        }
    with pytest.raises(SpecError, match="nosuch"):
        parse_games("rings,nosuch")


COLOUR_OPERATOR = re.compile(rb"(?<![\w/])(k|K|cs|CS|sc|SC|scn|SCN)(?![\w])")
RGB = re.compile(rb"([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+(rg|RG)(?![\w])")


STRINGS = re.compile(rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>")


def grey_content(content: bytes) -> bool:
    """Whether a page's drawing operators set only greys (g/G, or rg/RG with r = g = b)."""
    content = STRINGS.sub(b" ", content)
    for match in RGB.finditer(content):
        r, g, b = (float(v) for v in match.groups()[:3])
        if not r == g == b:
            return False
    return COLOUR_OPERATOR.search(content) is None


def grey_only(pdf: bytes) -> bool:
    """Whether every page of a PDF, and every form it places, draws in greys only."""
    reader = PdfReader(io.BytesIO(pdf))
    streams = []
    for page in reader.pages:
        streams.append(page.get_contents().get_data())
        forms = page["/Resources"].get("/XObject", {})
        streams += [ref.get_object().get_data() for ref in forms.values()]
    return all(grey_content(stream) for stream in streams)


def test_a_recurring_rules_page_is_one_form_placed_on_every_back() -> None:
    pack = make_pack(SheetSpec.create("maze", seed=4), 3)
    buffer = io.BytesIO()
    render(pack, buffer, format="pdf")
    reader = PdfReader(io.BytesIO(buffer.getvalue()))
    backs = [reader.pages[k] for k in (1, 3, 5)]
    forms = {tuple(p["/Resources"]["/XObject"].keys()) for p in backs}
    assert len(forms) == 1, "the same form on every back"
    assert all("Uncooked" not in p.extract_text() and "Maze" in p.extract_text() for p in backs)
    assert "/XObject" not in reader.pages[0]["/Resources"], "sheets are drawn directly"


def field_inks_distinct(page: Page) -> bool:
    """Different field styles on a page differ in weight, dash, fill or hatch, not just colour."""
    styles = {f.style for f in page.features() if f.layer == Layer.FIELD and isinstance(f, Feature)}
    signatures = {(INKS[s].stroke, INKS[s].dash, INKS[s].fill, INKS[s].hatch) for s in styles}
    return len(signatures) == len(styles)


def white_margins(page: Page, dpi: int = 50) -> bool:
    image = draw_page(page, dpi)
    band = round(PRINT_MARGIN * dpi / 25.4)
    w, h = image.size
    for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
        if image.crop(box).getextrema()[0] < 250:
            return False
    return True


@pytest.mark.parametrize(
    ("document", "paper"),
    [
        ("pack-rings", "a4"),
        ("pack-springer", "letter"),
        ("pack-spaghetti-4up", "letter"),
        ("book", "letter"),
    ],
)
def test_every_page_is_grey_distinct_and_inside_the_margins(document: str, paper: str) -> None:
    if document == "book":
        made = make_book(
            ["springer", "vasarely", "cannon-ball", "palindromes"], paper=paper, seed=5
        )
    elif document.endswith("4up"):
        made = make_pack(
            SheetSpec.create("spaghetti", {"size": "5"}, seed=2, paper=paper), 4, per_page=4
        )
    else:
        made = make_pack(SheetSpec.create(document.split("-")[1], seed=2, paper=paper), 2)
    buffer = io.BytesIO()
    render(made, buffer, format="pdf")
    assert grey_only(buffer.getvalue())
    for page in made.pages:
        assert field_inks_distinct(page), page.title
        assert white_margins(page), page.title


def test_grey_check_catches_colour() -> None:
    assert not grey_content(b"0 0 m 1 1 l 1 0 0 rg f")
    assert not grey_content(b"0 0 0 1 k")
    assert grey_content(b"0.5 0.5 0.5 rg f 0 g BT /F1+0 12 Tf (k) Tj ET")


def test_cli_pack_book_and_rules_page(tmp_path: Path) -> None:
    out = tmp_path / "pack.pdf"
    result = runner.invoke(app, ["pack", "maze", "--copies", "3", "--seed", "8", "-o", str(out)])
    assert result.exit_code == 0, result.output
    reader = PdfReader(out)
    assert len(reader.pages) == 7 and "maze size=8" not in reader.pages[0].extract_text()
    assert "seed=" in reader.pages[0].extract_text()
    bad = runner.invoke(
        app, ["pack", "cocomposite", "-n", "2", "--per-page", "4", "-o", str(tmp_path / "x.pdf")]
    )
    assert bad.exit_code == 2 and "--per-page 4" in bad.stderr and not (tmp_path / "x.pdf").exists()
    bad = runner.invoke(app, ["pack", "maze", "--rules", "middle", "-o", str(tmp_path / "y.pdf")])
    assert (
        bad.exit_code == 2 and "--rules middle" in bad.stderr and not (tmp_path / "y.pdf").exists()
    )
    book = tmp_path / "book.pdf"
    result = runner.invoke(app, ["book", "--games", "maze,rings", "-o", str(book)])
    assert result.exit_code == 0 and len(PdfReader(book).pages) == 6
    rules_pdf = tmp_path / "rules.pdf"
    result = runner.invoke(app, ["rules", "klee", "-o", str(rules_pdf)])
    assert result.exit_code == 0 and "Klee" in PdfReader(rules_pdf).pages[0].extract_text()
    text = runner.invoke(app, ["rules", "klee"])
    assert text.exit_code == 0 and "Sequences" in text.stdout
