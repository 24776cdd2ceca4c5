"""The marks the photo reader finds a sheet by: ArUco corners and a QR code a phone can read."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest
from PIL import Image

from papergames import SheetSpec, make_sheet
from papergames.errors import FitError, SpecError
from papergames.games import game_names
from papergames.output import get_renderer
from papergames.photo.locate import _detected, find_markers, read_qr
from papergames.photo.read import read_page
from papergames.sheets.aruco import CELLS, CORNER_IDS, marker_cells
from papergames.sheets.compose import QR_MARGIN, QR_MODULE, furniture_size, marker_boxes
from papergames.sheets.model import Feature, Sheet

GAMES = game_names()
DPI = 100


def pixels(sheet: Sheet, page: int = 1, dpi: int = DPI) -> np.ndarray:
    buf = io.BytesIO()
    get_renderer("png")(sheet, buf, page=page, dpi=dpi)
    return np.asarray(Image.open(buf).convert("RGB"))


@pytest.mark.parametrize("marker_id", sorted(CORNER_IDS.values()))
def test_printed_markers_are_opencvs_dictionary(marker_id: int) -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, CELLS)
    black = {(r, c) for r in range(CELLS) for c in range(CELLS) if image[r, c] == 0}
    assert black == set(marker_cells(marker_id))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_rendered_sheet_shows_its_corners_and_spec_to_the_reader(game: str, paper: str) -> None:
    sheet = make_sheet(SheetSpec.create(game, seed=3, paper=paper))
    image = pixels(sheet)
    found = find_markers(image)
    assert sorted(found.corners) == sorted(CORNER_IDS)
    page = sheet.pages[0]
    px = DPI / 25.4
    for corner, (x0, y0, x1, y1) in marker_boxes(page.width, page.height).items():
        quad = found.corners[corner]
        expected = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]) * px
        assert np.abs(quad - expected).max() < 1.5, corner
    text = read_qr(image)
    assert text == str(sheet.spec)
    assert SheetSpec.parse(text) == sheet.spec


@pytest.mark.parametrize("game", GAMES)
def test_qr_modules_are_large_enough_for_a_phone_on_full_size_paper(game: str) -> None:
    for seed in (1, 999_999):
        for landscape in ("portrait", "landscape"):
            try:
                sheet = make_sheet(SheetSpec.create(game, seed=seed, orientation=landscape))
            except FitError:
                continue
            for page in sheet.pages:
                qr = page.get("qr-spec")
                assert isinstance(qr, Feature)
                assert qr.data["module_mm"] >= QR_MODULE
                size = furniture_size(page.width, page.height)
                x0, _, x1, y1 = qr.geometry.bounds
                assert y1 <= page.height - QR_MARGIN + 1e-9
                if size.qr_centred:
                    assert abs((x0 + x1) / 2 - page.width / 2) < size.qr / 4


def test_a_sheet_without_markers_is_the_same_sheet_less_its_corners() -> None:
    plain = make_sheet(SheetSpec.create("mondrian", seed=4))
    bare = make_sheet(SheetSpec.create("mondrian", seed=4, markers=False))
    assert str(bare.spec) == "mondrian seed=4 markers=off"
    assert SheetSpec.parse(str(bare.spec)) == bare.spec
    ids = {item.id for item in plain.pages[0].items}
    bare_ids = {item.id for item in bare.pages[0].items}
    assert ids - bare_ids == {f"marker-{corner}" for corner in CORNER_IDS}
    assert not find_markers(pixels(bare)).corners
    for item in bare.pages[0].features():
        if item.id != "qr-spec" and not item.id.startswith("spec-"):
            assert item.geometry.equals(plain.pages[0].get(item.id).geometry), item.id


def test_markers_take_on_or_off_and_nothing_else() -> None:
    assert SheetSpec.parse("rings seed=1 markers=ON").markers
    with pytest.raises(SpecError, match="markers takes on or off"):
        SheetSpec.parse("rings seed=1 markers=maybe")


@pytest.mark.parametrize("game", ["mondrian", "arp", "springer", "rings", "klee"])
def test_sheets_with_colour_boxes_say_the_reader_learns_the_pencils_there(game: str) -> None:
    from papergames.sheets.bounds import item_box, overlaps

    page = make_sheet(SheetSpec.create(game, seed=2)).pages[0]
    notes = [t for t in page.texts() if t.id.startswith("note-colour-")]
    assert any("photo reader" in t.text for t in notes)
    others = [page.get("qr-spec"), page.get("scale-label"), page.get("marker-br")]
    for note in notes:
        ink = item_box(note)
        assert ink is not None
        for other in others:
            other_ink = item_box(other)
            assert other_ink is not None and not overlaps(ink, other_ink), (note.id, other.id)


def test_sheets_without_colour_boxes_carry_no_colour_note() -> None:
    page = make_sheet(SheetSpec.create("compositie", seed=2)).pages[0]
    assert not [t for t in page.texts() if t.id.startswith("note-colour-")]


def _dim_noisy_photo(
    image: np.ndarray, seed: int, paper: float = 45.0, blur_px: float = 2.5, noise: float = 8.0
) -> np.ndarray:
    """A print photographed in a dim room: paper at a sixth of white or so, soft focus, sensor
    noise and a phone's strong JPEG compression."""
    rng = np.random.default_rng(seed)
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY).astype(np.float32) / 255.0
    black = 5.0
    dim = cv2.GaussianBlur(black + grey * (paper - black), (0, 0), blur_px)
    dim += rng.normal(0.0, noise, grey.shape)
    buffer = io.BytesIO()
    Image.fromarray(np.clip(dim, 0, 255).astype(np.uint8)).save(buffer, "JPEG", quality=55)
    return np.asarray(Image.open(buffer).convert("RGB"))


def test_every_corner_is_found_on_a_dim_noisy_photo() -> None:
    sheet = make_sheet(SheetSpec.create("mondrian", seed=3))
    dpi = 200
    px = dpi / 25.4
    page = sheet.pages[0]
    print_ = pixels(sheet, dpi=dpi)
    hidden = 0
    for seed in range(4):
        photo = _dim_noisy_photo(print_, seed)
        hidden += len(CORNER_IDS) - len(_detected(cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY)))
        found = find_markers(photo)
        assert sorted(found.corners) == sorted(CORNER_IDS), seed
        for corner, (x0, y0, x1, y1) in marker_boxes(page.width, page.height).items():
            expected = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]) * px
            near = np.abs(found.corners[corner] - expected).max() / px
            assert near < 1.5, f"{corner} {near:.2f} mm off: more than the print match mends"
    assert hidden > 0, "the photos as they are must hide a corner, or this shows nothing"


def test_the_qr_code_is_read_on_a_dim_noisy_photo() -> None:
    spec = SheetSpec.create("mondrian", seed=3)
    print_ = pixels(make_sheet(spec), dpi=100)
    for seed in range(4):
        photo = _dim_noisy_photo(print_, seed, paper=53.0, blur_px=1.5, noise=10.0)
        reading = read_page(photo, f"dim-{seed}.jpg")
        assert reading.spec == spec, (seed, reading.retake)
