"""Renderers: byte-identical output, and every format read back to the model it came from."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest
from PIL import Image
from pypdf import PdfReader
from shapely.geometry import Polygon

from papergames.games import game_names
from papergames.output import RENDERERS, page_paths, render, write_sheet
from papergames.sheets.aruco import CELLS, CORNER_IDS, marker_cells
from papergames.sheets.compose import MARGIN, MARKER
from papergames.sheets.model import Feature, Kind, Sheet, Text
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.units import PT_PER_MM

from conftest import sheet_for

GAMES = game_names()
SVG = "{http://www.w3.org/2000/svg}"


def rendered(sheet: Sheet, fmt: str, page: int | None = None, dpi: int = 60) -> bytes:
    buf = io.BytesIO()
    render(sheet, buf, format=fmt, page=page, dpi=dpi)
    return buf.getvalue()


@cache
def built_apart(game: str) -> tuple[Sheet, Sheet, Sheet]:
    """Seed 31 built twice, each build on its own, and seed 32: shared by the three formats."""
    spec = SheetSpec.create(game, seed=31)
    return make_sheet(spec), make_sheet(spec), make_sheet(spec.with_seed(32))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("fmt", list(RENDERERS))
def test_same_spec_gives_identical_bytes(game: str, fmt: str) -> None:
    first, again, other = built_apart(game)
    assert first is not again
    assert rendered(first, fmt) == rendered(again, fmt)
    assert rendered(first, fmt) != rendered(other, fmt)


def svg_root(sheet: Sheet, page: int = 1) -> ET.Element:
    return ET.fromstring(rendered(sheet, "svg", page))


def path_polygon(d: str) -> Polygon:
    rings = []
    for part in d.split("M")[1:]:
        numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", part)]
        rings.append(list(zip(numbers[::2], numbers[1::2], strict=True)))
    return Polygon(rings[0], rings[1:])


@pytest.mark.parametrize("game", GAMES)
def test_svg_holds_one_element_per_id_with_the_same_geometry(game: str) -> None:
    sheet = sheet_for(game)
    for number, page in enumerate(sheet.pages, start=1):
        root = svg_root(sheet, number)
        assert root.get("width") == f"{page.width:g}mm"
        assert root.get("height") == f"{page.height:g}mm"
        elements = {e.get("id"): e for e in root.iter() if e.get("id")}
        for item in page.items:
            assert item.id in elements, item.id
        spaces = page.spaces()
        svg_spaces = [i for i in elements if i and i.startswith("space-")]
        assert sorted(svg_spaces) == sorted(spaces)
        for space_id, polygon in spaces.items():
            element = elements[space_id]
            path = element if element.tag == f"{SVG}path" else element.find(f"{SVG}path")
            assert path is not None
            back = path_polygon(path.get("d", ""))
            assert abs(back.area - polygon.area) < 0.01 * max(1.0, polygon.length)
            assert back.symmetric_difference(polygon).area < 0.01 * max(1.0, polygon.length)


@pytest.mark.parametrize("game", GAMES)
def test_svg_groups_hold_their_features(game: str) -> None:
    sheet = sheet_for(game)
    page = sheet.pages[0]
    root = svg_root(sheet)
    for item in page.items:
        if item.group:
            group = root.find(f".//*[@id='{item.group}']")
            assert group is not None and group.tag == f"{SVG}g"
            assert group.find(f".//*[@id='{item.id}']") is not None


def test_user_text_is_escaped_in_svg_and_safe_in_pdf() -> None:
    sheet = make_sheet(SheetSpec.create("rings", seed=1))
    name = '<Ann & "Bob"> (x) \\ ]]>'
    sheet.pages[0].add(Text("user-name", 50, 50, name + "\x00", 4))
    root = svg_root(sheet)
    element = root.find(".//*[@id='user-name']")
    assert element is not None and element.text == name
    reader = PdfReader(io.BytesIO(rendered(sheet, "pdf")))
    assert name in reader.pages[0].extract_text()


@pytest.mark.parametrize("game", GAMES)
def test_pdf_has_true_page_size_embedded_font_and_spec(game: str) -> None:
    sheet = sheet_for(game, 4, "letter")
    reader = PdfReader(io.BytesIO(rendered(sheet, "pdf")))
    assert len(reader.pages) == len(sheet.pages)
    for pdf_page, page in zip(reader.pages, sheet.pages, strict=True):
        box = pdf_page.mediabox
        assert abs(float(box.width) - page.width * PT_PER_MM) < 0.01
        assert abs(float(box.height) - page.height * PT_PER_MM) < 0.01
        fonts = pdf_page["/Resources"]["/Font"]
        for ref in fonts.values():
            font = ref.get_object()
            assert "DejaVuSans" in str(font["/BaseFont"]), "only the bundled font may be used"
            descendant = (
                font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            )
            descriptor = descendant["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor, "the TrueType font must be embedded"
        text = " ".join(pdf_page.extract_text().split())
        assert str(sheet.spec) in text


@pytest.mark.parametrize("dpi", [60, 150])
def test_png_has_page_size_dpi_and_markers_where_the_model_puts_them(dpi: int) -> None:
    sheet = sheet_for("rings")
    page = sheet.pages[0]
    image = Image.open(io.BytesIO(rendered(sheet, "png", dpi=dpi)))
    assert image.size == (round(page.width * dpi / 25.4), round(page.height * dpi / 25.4))
    assert round(image.info["dpi"][0]) == dpi
    px = dpi / 25.4
    grey = image.convert("L")
    cell = MARKER / CELLS
    black = set(marker_cells(CORNER_IDS["tl"]))
    for row in range(CELLS):
        for col in range(CELLS):
            x = round((MARGIN + (col + 0.5) * cell) * px)
            y = round((MARGIN + (row + 0.5) * cell) * px)
            level = grey.getpixel((x, y))
            assert (level < 60) if (row, col) in black else (level > 200), (row, col)
    assert grey.getpixel((round(page.width * px / 2), round(5 * px))) == 255  # blank margin


def test_multi_page_sheet_writes_one_svg_per_page(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    sheet = make_sheet(SheetSpec.create("rings", {"rounds": "3"}, seed=2))
    written = write_sheet(sheet, folder / "r.svg")
    assert written == page_paths(folder / "r.svg", 3)
    assert [p.name for p in written] == ["r-1.svg", "r-2.svg", "r-3.svg"]
    pdf = write_sheet(sheet, folder / "r.pdf")
    assert len(PdfReader(str(pdf[0])).pages) == 3


def test_render_failure_leaves_no_file(tmp_path: object) -> None:
    from pathlib import Path

    target = Path(str(tmp_path)) / "broken.png"
    with pytest.raises(ValueError, match="dpi"):
        render(sheet_for("rings"), target, dpi=5)
    assert not target.exists()
    assert list(Path(str(tmp_path)).iterdir()) == []


def test_visible_features_are_drawn_in_png() -> None:
    sheet = sheet_for("rings")
    page = sheet.pages[0]
    dpi = 100
    grey = Image.open(io.BytesIO(rendered(sheet, "png", dpi=dpi))).convert("L")
    px = dpi / 25.4
    checked = 0
    for feature in page.features(Kind.POINT):
        if feature.style.value == "none":
            continue
        x, y = feature.geometry.coords[0]
        assert grey.getpixel((round(x * px), round(y * px))) < 128, feature.id
        checked += 1
    assert checked > 0 or not any(isinstance(f, Feature) for f in page.features(Kind.POINT))
