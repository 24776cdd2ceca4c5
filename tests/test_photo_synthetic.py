"""The synthetic photo maker: pencil that behaves like pencil, and photos whose truth is true.

The photo reader's tests and benchmark trust these images, so what is checked here is what they
rely on: the same seed gives the same bytes; pencil stays within its declared reach of what it
colours; hatching leaves the declared share of white; every photo opens and is the size its tier
says; and the homography handed out with a photo really maps the page onto the image.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray
from PIL import Image, ImageOps
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from papergames import SheetSpec, make_sheet
from papergames.output import get_renderer
from papergames.photo.camera import TIERS, Photo, Tier, photograph
from papergames.photo.pencil import (
    COVERAGE,
    LINE_BAND_MM,
    LINE_BESIDE_MM,
    OVERFLOW_MM,
    PENCILS,
    RGB,
    TALLY_OVERFLOW_MM,
    Colouring,
    colour_page,
)
from papergames.sheets.compose import content_frame, marker_boxes
from papergames.sheets.geometry import iter_polygons
from papergames.sheets.model import Kind, Page

Pixels = NDArray[np.uint8]
DPI = 100
PX_PER_MM = DPI / 25.4
MARKED = 0.06
"""Darkening (in the darkest-hit channel, as a share of the paper's level) that counts as pencil."""

SMALL_TIERS = {
    "scan": replace(TIERS["scan"], scan_dpi=120),
    "phone": replace(TIERS["phone"], frames=((1600, 1200),)),
    "copy": replace(TIERS["copy"], frames=((1600, 1200),)),
    "hard": replace(TIERS["hard"], frames=((1600, 1200),)),
}
"""The tiers with small images, so that many photos can be checked quickly."""


@cache
def _sheet_page() -> tuple[Page, Pixels]:
    sheet = make_sheet(SheetSpec.create("mondrian", seed=1))
    buf = io.BytesIO()
    get_renderer("png")(sheet, buf, page=1, dpi=DPI)
    pixels = np.asarray(Image.open(buf).convert("RGB"), dtype=np.uint8)
    return sheet.pages[0], pixels


def _colouring(page: Page, strays: int = 0) -> Colouring:
    """Every other space hatched and every third score box ticked, in the four players' colours."""
    colours = [PENCILS[name] for name in ("red", "blue", "green", "yellow")]
    spaces = list(page.spaces().values())
    boxes = [f.geometry for f in page.features(Kind.BOX)]
    return Colouring(
        areas=[(shape, colours[i % 4]) for i, shape in enumerate(spaces) if i % 2 == 0],
        tallies=[(shape, colours[i % 4]) for i, shape in enumerate(boxes) if i % 3 == 0],
        strays=strays,
    )


@cache
def _coloured_page() -> Pixels:
    page, pixels = _sheet_page()
    return colour_page(pixels, PX_PER_MM, _colouring(page), np.random.default_rng(11))


@cache
def _photo(tier: str, seed: int, small: bool = True) -> Photo:
    chosen = SMALL_TIERS[tier] if small else TIERS[tier]
    return photograph(_coloured_page(), PX_PER_MM, chosen, np.random.default_rng(seed))


def _upright(photo: Photo) -> Pixels:
    image = ImageOps.exif_transpose(Image.open(io.BytesIO(photo.data)))
    return np.asarray(image.convert("RGB"), dtype=np.uint8)


def _mask(geometry: BaseGeometry, shape: tuple[int, ...], px_per_mm: float) -> NDArray[np.bool_]:
    """The pixels whose centres lie inside a geometry in page mm (OpenCV also takes a pixel whose
    centre lies exactly on the border, so the mask may be a pixel generous)."""
    mask = np.zeros(shape[:2], dtype=np.uint8)

    def ring(coords: object) -> NDArray[np.int32]:
        points = np.asarray(coords) * px_per_mm - 0.5
        return np.asarray(np.round(points * 16), dtype=np.int32)

    for polygon in iter_polygons(geometry):
        cv2.fillPoly(mask, [ring(polygon.exterior.coords)], 1, cv2.LINE_8, 4)
        for hole in polygon.interiors:
            cv2.fillPoly(mask, [ring(hole.coords)], 0, cv2.LINE_8, 4)
    return mask.astype(bool)


def _darkening(before: Pixels, after: Pixels) -> NDArray[np.float64]:
    """How much pencil darkened each pixel: the largest fall of a channel, as a share."""
    fall = (before.astype(np.float64) - after) / np.maximum(before.astype(np.float64), 1.0)
    return np.asarray(fall.max(axis=2), dtype=np.float64)


def _white(size_mm: tuple[int, int], px_per_mm: float) -> Pixels:
    """A blank page."""
    width, height = (round(side * px_per_mm) for side in size_mm)
    return np.full((height, width, 3), 255, dtype=np.uint8)


def _samples(shape: BaseGeometry, step: float) -> NDArray[np.float64]:
    """Points of a grid ``step`` mm apart that lie inside a shape."""
    x0, y0, x1, y1 = shape.bounds
    grid = np.stack(np.meshgrid(np.arange(x0, x1, step), np.arange(y0, y1, step)), -1)
    points = grid.reshape(-1, 2)
    inside = [shape.contains(Point(p)) for p in points]
    return np.asarray(points[inside], dtype=np.float64)


def _levels_at(pixels: Pixels, points_px: NDArray[np.float64]) -> NDArray[np.float64]:
    """The grey level at image points, which must all lie inside the image."""
    cols, rows = np.round(points_px).astype(int).T
    height, width = pixels.shape[:2]
    assert (
        (cols >= 0).all() and (cols < width).all() and (rows >= 0).all() and (rows < height).all()
    )
    return np.asarray(pixels[rows, cols].mean(axis=1), dtype=np.float64)


# The pencil


def test_pencils_are_paper_colours_not_screen_colours() -> None:
    assert len(PENCILS) >= 10
    for rgb in PENCILS.values():
        assert all(30 <= level <= 245 for level in rgb)


def test_the_same_seed_colours_the_same_pixels() -> None:
    page, pixels = _sheet_page()
    before = pixels.copy()
    colouring = _colouring(page, strays=10)
    first = colour_page(pixels, PX_PER_MM, colouring, np.random.default_rng(3))
    again = colour_page(pixels, PX_PER_MM, colouring, np.random.default_rng(3))
    other = colour_page(pixels, PX_PER_MM, colouring, np.random.default_rng(4))
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)
    assert np.array_equal(pixels, before)


def test_pencil_only_darkens_and_never_hides_black_ink() -> None:
    _, pixels = _sheet_page()
    coloured = _coloured_page()
    assert (coloured <= pixels).all()
    assert (coloured[pixels == 0] == 0).all()
    assert (coloured < pixels).any()


_SHAPES = (
    box(5, 5, 35, 25),
    Polygon([(45, 5), (75, 40), (40, 35)]),
    Point(20, 55).buffer(14),
    box(45, 45, 75, 75).difference(Point(60, 60).buffer(6)),
)
"""A rectangle, a triangle, a disc and a square with a hole, on an 80 mm white page."""


@pytest.mark.parametrize("colour", ["yellow", "graphite", "light blue"])
def test_a_single_hatching_covers_its_declared_share(colour: str) -> None:
    """Away from the border (where strokes may stop short), a hatching covers between the
    declared shares, with a little slack for the soft edges of each stroke."""
    px_per_mm = 10.0
    page = _white((80, 80), px_per_mm)
    colouring = Colouring(areas=[(s, PENCILS[colour]) for s in _SHAPES], dense_chance=0.0)
    shares = []
    for seed in range(6):
        out = colour_page(page, px_per_mm, colouring, np.random.default_rng(seed))
        marked = _darkening(page, out) > MARKED
        shares += [marked[_mask(s.buffer(-1.0), page.shape, px_per_mm)].mean() for s in _SHAPES]
    assert COVERAGE[0] - 0.05 <= min(shares)
    assert max(shares) <= min(0.985, COVERAGE[1] + 0.035)
    assert max(shares) - min(shares) > 0.2


def _hatched(
    page: Pixels, areas: list[tuple[BaseGeometry, RGB]], seed: int, **colouring: Any
) -> Pixels:
    """``areas`` hatched once each over ``page`` at 10 px/mm, with ``colouring``'s options."""
    settings = Colouring(areas=areas, dense_chance=0.0, **colouring)
    return colour_page(page, 10.0, settings, np.random.default_rng(seed))


def test_a_waxy_pencil_on_bare_paper_lays_as_a_translucent_one() -> None:
    """Wax only shows where a colour lies under it: one hatching over bare paper is the same
    whatever its wax."""
    page = _white((80, 80), 10.0)
    areas = [(s, PENCILS["red"]) for s in _SHAPES]
    plain, waxy = (_hatched(page, areas, 3, waxy=wax) for wax in (0.0, 0.8))
    assert np.array_equal(plain, waxy)


def test_a_waxy_hatching_hides_the_trace_it_is_laid_over() -> None:
    """With waxy pencils the lines are traced first and the space hatched over them, as Arp and
    Miro are played: under the red hatching the blue trace shows far less, against the trace
    on bare paper, than with translucent layers (blue pencil takes red light, red lets it
    through)."""
    px_per_mm = 10.0
    page = _white((80, 40), px_per_mm)
    square = box(10, 5, 40, 35)
    line = LineString([(5, 20), (75, 20)])
    under = _mask(square.buffer(-1.0), page.shape, px_per_mm) & _mask(
        line.buffer(0.3), page.shape, px_per_mm
    )
    bare = _mask(LineString([(50, 20), (70, 20)]).buffer(0.3), page.shape, px_per_mm)

    def blue_shown(wax: float, where: NDArray[np.bool_]) -> float:
        colouring = Colouring(
            areas=[(square, PENCILS["red"])],
            lines=[(line, PENCILS["blue"])],
            dense_chance=0.0,
            waxy=wax,
        )
        shown = []
        for seed in range(4):
            red_light = colour_page(page, px_per_mm, colouring, np.random.default_rng(seed))[..., 0]
            shown.append(1.0 - red_light[where].mean() / 255.0)
        return float(np.mean(shown))

    hidden = blue_shown(1.0, under) / blue_shown(1.0, bare)
    assert hidden < 0.6 * blue_shown(0.0, under) / blue_shown(0.0, bare)


def test_a_pencil_pressed_lightly_lays_the_same_strokes_paler() -> None:
    """A seat that presses lightly (``pressed``) draws the same strokes as a firm hand, laying
    a share of the pigment: nowhere darker than the firm strokes, about as pale as its pressure
    says, and the other pencil's strokes are left exactly as they were."""
    px_per_mm = 10.0
    page = _white((80, 80), px_per_mm)
    red, blue = PENCILS["red"], PENCILS["blue"]
    areas = [(shape, red if k % 2 == 0 else blue) for k, shape in enumerate(_SHAPES)]
    firm, faint = (_hatched(page, areas, 5, pressed=pressed) for pressed in ({}, {blue: 0.4}))
    reach = OVERFLOW_MM + 0.5
    blue_reach = _mask(unary_union(_SHAPES[1::2]).buffer(reach), page.shape, px_per_mm)
    red_reach = _mask(unary_union(_SHAPES[0::2]).buffer(reach), page.shape, px_per_mm)
    red_only, blue_only = red_reach & ~blue_reach, blue_reach & ~red_reach
    assert np.array_equal(firm[red_only], faint[red_only])
    assert (faint >= firm).all()
    share = _darkening(page, faint)[blue_only].sum() / _darkening(page, firm)[blue_only].sum()
    assert 0.35 < share < 0.55


def test_a_dense_fill_covers_more_than_a_hatching() -> None:
    """Cross-hatched twice, an area is covered at least as much as two of the thinnest
    hatchings would cover it, and on the whole more than by one hatching."""
    px_per_mm = 10.0
    page = _white((80, 80), px_per_mm)
    inner = [_mask(s.buffer(-1.0), page.shape, px_per_mm) for s in _SHAPES]
    shares: dict[float, list[float]] = {0.0: [], 1.0: []}
    for dense, seed in [(d, s) for d in shares for s in range(3)]:
        colouring = Colouring(areas=[(s, PENCILS["red"]) for s in _SHAPES], dense_chance=dense)
        out = colour_page(page, px_per_mm, colouring, np.random.default_rng(seed))
        marked = _darkening(page, out) > MARKED
        shares[dense] += [float(marked[m].mean()) for m in inner]
    assert min(shares[1.0]) >= 1 - (1 - COVERAGE[0]) ** 2 - 0.03
    assert np.mean(shares[1.0]) > np.mean(shares[0.0]) + 0.05


def test_hatching_stays_within_its_overflow_and_sometimes_uses_it() -> None:
    page, pixels = _sheet_page()
    colouring = _colouring(page)
    areas = Colouring(areas=colouring.areas, dense_chance=0.3)
    out = colour_page(pixels, PX_PER_MM, areas, np.random.default_rng(5))
    shapes = unary_union([shape for shape, _ in areas.areas])
    reach = _mask(shapes.buffer(OVERFLOW_MM + 1.0 / PX_PER_MM), pixels.shape, PX_PER_MM)
    assert np.array_equal(out[~reach], pixels[~reach])
    beyond = ~_mask(shapes.buffer(1.0), pixels.shape, PX_PER_MM)
    assert (_darkening(pixels, out)[beyond] > MARKED).sum() > 50


def test_a_traced_line_stays_in_its_band_and_follows_the_whole_line() -> None:
    px_per_mm = 10.0
    page = _white((80, 80), px_per_mm)
    arc = [(40 + 25 * math.cos(a), 40 + 25 * math.sin(a)) for a in np.linspace(0, 2.5, 40)]
    lines = [
        LineString([(5, 5), (75, 12)]),
        LineString([(5, 30), (20, 45), (35, 30), (50, 45)]),
        LineString(arc),
    ]
    for seed in range(3):
        colouring = Colouring(lines=[(line, PENCILS["blue"]) for line in lines])
        out = colour_page(page, px_per_mm, colouring, np.random.default_rng(seed))
        marked = _darkening(page, out) > 0.0
        band = unary_union([line.buffer(LINE_BAND_MM + 1.0 / px_per_mm) for line in lines])
        assert not marked[~_mask(band, page.shape, px_per_mm)].any()
        for line in lines:
            inner = np.arange(1.5, line.length - 1.5, 1.0)
            points = np.array([line.interpolate(d).coords[0] for d in inner])
            cols, rows = np.round(points * px_per_mm - 0.5).astype(int).T
            near = [
                marked[r - 5 : r + 6, c - 5 : c + 6].any() for r, c in zip(rows, cols, strict=True)
            ]
            assert np.mean(near) > 0.95


def _one_side_share(marked: NDArray[np.bool_], line: LineString, px_per_mm: float) -> float:
    """Of the pencil within 3 mm of a straight ``line`` (away from its ends), the share on
    the side that holds more of it."""
    (x0, y0), (x1, y1) = line.coords
    rows, cols = np.nonzero(marked)
    x, y = (cols + 0.5) / px_per_mm, (rows + 0.5) / px_per_mm
    length = math.hypot(x1 - x0, y1 - y0)
    along = ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / length
    across = ((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)) / length
    near = (np.abs(across) < 3.0) & (along > 2.0) & (along < length - 2.0)
    left = float((across[near] < 0).mean())
    return max(left, 1.0 - left)


def test_a_line_traced_beside_its_stroke_lies_on_one_side_within_its_reach() -> None:
    """A hand that keeps the print in view traces beside the stroke: each such line's pencil
    lies mostly on one side of it (a centred trace splits about evenly), and no farther from
    it than :data:`LINE_BESIDE_MM`."""
    px_per_mm = 10.0
    page = _white((80, 60), px_per_mm)
    lines = [LineString([(5, 8 + 10 * k), (75, 12 + 10 * k)]) for k in range(5)]
    shares: dict[float, list[float]] = {0.0: [], 1.0: []}
    for chance, seed in [(c, s) for c in shares for s in range(3)]:
        colouring = Colouring(
            lines=[(line, PENCILS["blue"]) for line in lines], beside_chance=chance
        )
        out = colour_page(page, px_per_mm, colouring, np.random.default_rng(seed))
        marked = _darkening(page, out) > 0.0
        reach = unary_union([line.buffer(LINE_BESIDE_MM + 1.0 / px_per_mm) for line in lines])
        assert not marked[~_mask(reach, page.shape, px_per_mm)].any()
        shares[chance] += [_one_side_share(marked, line, px_per_mm) for line in lines]
    assert min(shares[1.0]) > 0.75
    assert max(shares[0.0]) < 0.6


def test_every_tally_lands_in_its_box_with_at_most_a_little_overflow() -> None:
    px_per_mm = 12.0
    page = _white((100, 60), px_per_mm)
    boxes = [box(x, y, x + 6, y + 6) for x in range(5, 95, 10) for y in range(5, 55, 10)]
    out = colour_page(
        page,
        px_per_mm,
        Colouring(tallies=[(b, PENCILS["purple"]) for b in boxes]),
        np.random.default_rng(8),
    )
    marked = _darkening(page, out) > 0.0
    room = TALLY_OVERFLOW_MM + 1.0 / px_per_mm
    allowed = unary_union([b.buffer(room, join_style="mitre") for b in boxes])
    assert not marked[~_mask(allowed, page.shape, px_per_mm)].any()
    for b in boxes:
        inside = marked[_mask(b, page.shape, px_per_mm)]
        around = marked[_mask(b.buffer(room, join_style="mitre"), page.shape, px_per_mm)]
        assert inside.sum() > 20
        assert inside.sum() >= 0.75 * around.sum()


def test_strays_are_short_light_marks() -> None:
    px_per_mm = 6.0
    page = _white((200, 280), px_per_mm)
    assert np.array_equal(colour_page(page, px_per_mm, Colouring(), np.random.default_rng(1)), page)
    out = colour_page(page, px_per_mm, Colouring(strays=30), np.random.default_rng(1))
    darkening = _darkening(page, out)
    marked = darkening > 0.0
    assert 0 < marked.mean() < 0.01
    assert np.median(darkening[marked]) < 0.35


# The camera


@pytest.mark.parametrize("tier", list(TIERS))
def test_the_same_seed_gives_the_same_bytes(tier: str) -> None:
    first = _photo(tier, 1)
    again = photograph(_coloured_page(), PX_PER_MM, SMALL_TIERS[tier], np.random.default_rng(1))
    assert first.data == again.data
    assert first.data != _photo(tier, 2).data


def test_the_tiers_are_scan_phone_copy_hard() -> None:
    assert list(TIERS) == ["scan", "phone", "copy", "hard"]
    assert all(isinstance(t, Tier) and t.name == name for name, t in TIERS.items())


@pytest.mark.parametrize("tier", list(TIERS))
def test_every_photo_opens_at_its_tiers_size(tier: str) -> None:
    page, _ = _sheet_page()
    for seed in (1, 2):
        photo = _photo(tier, seed, small=False)
        image = Image.open(io.BytesIO(photo.data))
        image.load()
        assert image.format == {"jpeg": "JPEG", "png": "PNG"}[photo.format]
        assert ImageOps.exif_transpose(image).size == photo.size
        if TIERS[tier].flat:
            dots = 300 / 25.4
            expected = (page.width * dots, page.height * dots)
            assert all(abs(a - b) <= 2 for a, b in zip(photo.size, expected, strict=True))
        else:
            assert tuple(sorted(image.size, reverse=True)) in TIERS[tier].frames
            assert 7.9e6 <= image.size[0] * image.size[1] <= 12.5e6


@pytest.mark.parametrize("tier", list(TIERS))
@pytest.mark.parametrize("seed", range(5))
def test_the_corner_markers_land_on_dark_pixels(tier: str, seed: int) -> None:
    """Mapped with the photo's truth, the inside of every marker's black cells is dark and the
    clear paper round it is light, in the upright image (EXIF applied)."""
    page, _ = _sheet_page()
    photo = _photo(tier, seed)
    pixels = _upright(photo)
    assert (pixels.shape[1], pixels.shape[0]) == photo.size
    for marker in (f for f in page.features() if f.id.startswith("marker-")):
        square = box(*marker.geometry.bounds)
        ring = square.buffer(3.0, join_style="mitre").difference(square.buffer(1.0))
        dark_mm, light_mm = _samples(marker.geometry.buffer(-0.7), 0.4), _samples(ring, 0.7)
        to_image = photo.to_image if photo.curl else _flat_map(photo)
        dark = _levels_at(pixels, to_image(dark_mm))
        light = np.median(_levels_at(pixels, to_image(light_mm)))
        assert np.median(dark) < 0.3 * light, marker.id
        assert np.mean(dark < 0.5 * light) > 0.95, marker.id


@pytest.mark.parametrize("tier", list(TIERS))
def test_the_truth_is_exact_to_a_pixel(tier: str) -> None:
    """Small black squares on a white page are found, by their dark centroids, within a
    fraction of a pixel of where the photo's truth puts them: no half-pixel or resampling slip,
    and the curl's map is exact. The light is kept clean so that only the geometry is judged."""
    px_per_mm = 4.0
    page = _white((210, 297), px_per_mm)
    centres = [(x, y) for x in (12, 60, 105, 150, 198) for y in (12, 70, 130, 190, 240, 285)]
    for x, y in centres:
        page[4 * y - 8 : 4 * y + 8, 4 * x - 8 : 4 * x + 8] = 0
    clean = replace(
        SMALL_TIERS[tier], white=(0.8, 0.9), noise=(0.5, 0.5), shadow=0.0, jpeg_quality=(95, 95)
    )
    for seed in range(3):
        photo = photograph(page, px_per_mm, clean, np.random.default_rng(seed))
        grey = _upright(photo).astype(np.float64).mean(axis=2)
        for x, y in centres:
            if photo.finger is not None and photo.finger.distance(Point(x, y)) < 12.0:
                continue
            found = _dark_centroid(grey, photo, (x, y))
            expected = photo.to_image(np.array([[x, y]], dtype=np.float64))[0]
            assert np.hypot(*(found - expected)) < 0.25, (x, y)


def _dark_centroid(
    grey: NDArray[np.float64], photo: Photo, centre: tuple[int, int]
) -> NDArray[np.float64]:
    """The centroid of the dark blob within about 4 mm of a page point, in image pixels: each pixel
    of the blob and of a two-pixel rim round it weighs by how much darker it is than the paper
    round it (the brightest level nearby, so that a shadow's edge is not taken for the blob)."""
    x, y = centre
    corners = photo.to_image(np.array([[x - 4, y - 4], [x + 4, y + 4]], dtype=np.float64))
    reach = int(np.ceil(np.abs(np.diff(corners, axis=0)).max() / 2))
    col, row = np.round(photo.to_image(np.array([[x, y]], dtype=np.float64))[0]).astype(int)
    window = grey[row - reach : row + reach + 1, col - reach : col + reach + 1]
    paper = cv2.dilate(cv2.blur(window, (3, 3)), np.ones((reach, reach), np.uint8))
    blob = cv2.dilate((window < 0.5 * paper).astype(np.uint8), np.ones((5, 5), np.uint8))
    weight = np.clip(paper - window, 0.0, None) * blob
    rows, cols = np.indices(window.shape)
    found = np.array([(cols * weight).sum(), (rows * weight).sum()]) / weight.sum()
    return np.asarray(found + np.array([col - reach, row - reach]), dtype=np.float64)


def _flat_map(photo: Photo) -> Callable[[NDArray[np.float64]], NDArray[np.float64]]:
    """The map by the photo's homography alone."""

    def apply(points: NDArray[np.float64]) -> NDArray[np.float64]:
        mapped = cv2.perspectiveTransform(points.reshape(-1, 1, 2), photo.page_to_image)
        return np.asarray(mapped.reshape(-1, 2), dtype=np.float64)

    return apply


def test_the_scan_is_flat_barely_turned_and_barely_shifted() -> None:
    page, _ = _sheet_page()
    tier = SMALL_TIERS["scan"]
    dots = tier.scan_dpi / 25.4
    centre = np.array([[page.width / 2, page.height / 2]])
    for seed in range(5):
        photo = _photo("scan", seed)
        matrix = photo.page_to_image
        assert np.allclose(matrix[2], [0, 0, 1])
        assert abs(math.degrees(math.atan2(matrix[1, 0], matrix[0, 0]))) <= tier.turn_deg
        assert math.hypot(matrix[0, 0], matrix[1, 0]) == pytest.approx(dots)
        shift = (photo.to_image(centre)[0] + 0.5) / dots - centre[0]
        assert (np.abs(shift) <= tier.shift_mm + 1e-9).all()


@pytest.mark.parametrize("tier", ["phone", "hard"])
def test_the_sheet_fills_its_share_of_the_frame(tier: str) -> None:
    page, _ = _sheet_page()
    corners = np.array([[0, 0], [page.width, 0], [page.width, page.height], [0, page.height]])
    low, high = SMALL_TIERS[tier].fill
    for seed in range(5):
        photo = _photo(tier, seed)
        seen = _flat_map(photo)(corners.astype(np.float64))
        assert (seen >= 0).all() and (seen <= np.array(photo.size) - 1).all()
        share = (np.ptp(seen, axis=0) / np.array(photo.size)).max()
        assert low - 0.01 <= share <= high + 0.01


def test_half_the_phone_photos_are_stored_turned_with_an_exif_tag() -> None:
    orientations = []
    for seed in range(12):
        photo = _photo("phone", seed)
        stored = Image.open(io.BytesIO(photo.data))
        assert stored.getexif().get(274, 1) == photo.exif_orientation
        turned = photo.exif_orientation in (6, 8)
        assert stored.size == (photo.size[::-1] if turned else photo.size)
        orientations.append(photo.exif_orientation)
    assert set(orientations) <= {1, 3, 6, 8}
    assert 3 <= sum(o != 1 for o in orientations) <= 9


def test_the_phone_light_varies_and_tints_within_its_bounds() -> None:
    """On a blank page, the paper's level falls by at most the tier's gradient across the
    sheet, and the channels differ by at most what the gains allow."""
    tier = SMALL_TIERS["phone"]
    px_per_mm = 2.0
    blank = _white((210, 297), px_per_mm)
    points = _samples(box(8, 8, 202, 289), 12.0)
    falls, casts = [], []
    for seed in range(8):
        photo = photograph(blank, px_per_mm, tier, np.random.default_rng(seed))
        pixels = _upright(photo).astype(np.float64)
        smooth = cv2.blur(pixels, (7, 7))
        cols, rows = np.round(photo.to_image(points)).astype(int).T
        paper = smooth[rows, cols]
        level = paper.mean(axis=1)
        falls.append(1.0 - level.min() / level.max())
        channels = paper.mean(axis=0)
        casts.append(channels.max() / channels.min())
        assert paper.max() < 250
    assert max(falls) <= tier.gradient + 0.04
    assert max(casts) <= (1 + tier.cast) / (1 - tier.cast) + 0.03
    assert max(falls) > 0.12 and max(casts) > 1.05


def test_a_curl_moves_content_a_few_mm_near_one_edge_only() -> None:
    page, _ = _sheet_page()
    grid = _samples(box(0, 0, page.width, page.height), 3.0)
    for seed in range(5):
        curl = _photo("hard", seed).curl
        assert curl is not None
        moved = np.linalg.norm(curl.flat_points(grid) - grid, axis=1)
        assert 0.5 < moved.max() < 12.0
        far = grid @ np.array(curl.normal) < curl.offset
        assert (moved[far] < 1e-9).all() and far.mean() > 0.5


def test_the_finger_holds_a_margin_and_covers_nothing_the_reader_needs() -> None:
    page, _ = _sheet_page()
    needed = unary_union(
        [box(*content_frame(page.width, page.height).box)]
        + [f.geometry for f in page.features() if f.id.startswith(("marker-", "qr"))]
        + [f.geometry for f in page.features(Kind.BOX)]
        + [box(*b) for b in marker_boxes(page.width, page.height).values()]
    )
    sheet = box(0, 0, page.width, page.height)
    for seed in range(5):
        photo = _photo("hard", seed)
        assert photo.finger is not None
        assert not photo.finger.intersects(needed)
        assert photo.finger.intersects(sheet)
        pixels = _upright(photo).astype(np.float64)
        on_paper = photo.finger.intersection(sheet).buffer(-1.0).representative_point()
        col, row = np.round(photo.to_image(np.array(on_paper.coords))).astype(int)[0]
        skin = pixels[row - 1 : row + 2, col - 1 : col + 2].reshape(-1, 3).mean(axis=0)
        corners = np.array([[5, 5], [page.width - 5, 5], [5, page.height - 5]], dtype=float)
        clear = [p for p in corners if not photo.finger.buffer(8).contains(Point(p))]
        cols, rows = np.round(photo.to_image(np.array(clear))).astype(int).T
        paper = pixels[rows, cols].mean(axis=0)
        assert skin[0] / skin[2] > 1.2 * paper[0] / paper[2]


def test_the_hard_tier_is_darker_than_the_phone_tier() -> None:
    page, _ = _sheet_page()
    margins = np.array([[6.0, page.height / 2], [page.width - 6.0, page.height / 2], [100.0, 6.0]])
    levels = {}
    for tier in ("phone", "hard"):
        values = []
        for seed in range(4):
            photo = _photo(tier, seed)
            cols, rows = np.round(photo.to_image(margins)).astype(int).T
            values.append(np.median(cv2.blur(_upright(photo), (5, 5))[rows, cols]))
        levels[tier] = np.median(values)
    assert levels["hard"] < 0.85 * levels["phone"]
