"""Laying the photographed page flat, pixel for pixel where the print's render puts it.

The corner markers give a page-to-photo map (:func:`~papergames.photo.locate.page_to_photo`);
:func:`rectify` warps the photo through it. A curled sheet or a bending lens moves the middle of
the page by up to a millimetre, which would put black ink into the items' samples, so
:func:`refine` matches the known print with the photo tile by tile and warps again through the
corrected map. Tiles are matched on the black print where they have some; a field printed light
all over (Miro's and Arp's lines are mid grey, so that pencil on them can be measured) is matched
on its light print instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

Matrix = NDArray[np.float64]
Pixels = NDArray[np.uint8]
ImageT = TypeVar("ImageT", NDArray[np.uint8], NDArray[np.float32])


def _flat_to_photo(to_photo: Matrix, px_per_mm: float) -> Matrix:
    """Rectified pixel (centres at whole numbers, pixel ``k`` centred on ``(k + 0.5) / s`` mm)
    to photo pixel."""
    step = 1.0 / px_per_mm
    return np.asarray(
        to_photo @ np.array([[step, 0.0, 0.5 * step], [0.0, step, 0.5 * step], [0.0, 0.0, 1.0]]),
        dtype=np.float64,
    )


def rectify(
    pixels: Pixels, to_photo: Matrix, width_mm: float, height_mm: float, px_per_mm: float
) -> Pixels:
    """The page flat at ``px_per_mm``, pixel for pixel where the print's render puts it."""
    size = (round(width_mm * px_per_mm), round(height_mm * px_per_mm))
    flat = cv2.warpPerspective(
        pixels,
        _flat_to_photo(to_photo, px_per_mm),
        size,
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(flat, dtype=np.uint8)


def grey(pixels: Pixels) -> NDArray[np.float32]:
    return np.asarray(cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY), dtype=np.float32)


TILE_MM = 16.0
"""Side of the tiles the print is matched in: several lines in each, small enough to follow a
curl."""
STRIDE_MM = 10.0
MAX_SHIFT_MM = 3.0
"""Largest correction the ink match may make; a larger one is a mismatch, not a curl."""
SETTLED_MM = 0.08
"""Corrections all smaller than this leave the marker map as it is."""


def refine(
    pixels: Pixels,
    to_photo: Matrix,
    flat: Pixels,
    ink: NDArray[np.float32],
    px_per_mm: float,
    start: CoarseShifts | None = None,
    rounds: int = 2,
) -> Pixels:
    """The page rectified again with the marker map corrected on the printed ink.

    The corner markers fix the map at the corners; a sheet that is curled, or a lens that bends
    lines, moves the middle by up to a millimetre, which would put black ink in the items'
    samples. The print (known exactly) is matched with the photo tile by tile; the tiles'
    shifts, outliers dropped, are smoothed into a field, and the photo is sampled again through
    the map plus the field. A second round mops up what the first, measuring large shifts,
    left. ``start`` (:func:`coarse_shifts`) moves the page by several millimetres first, where
    these tiles could not follow.
    """
    prints, tiles = _matchable(ink, px_per_mm)
    tile, stride = tiles.size, tiles.stride
    total = None if start is None else start.at(tiles)
    if total is not None:
        flat = _resample(pixels, to_photo, px_per_mm, flat.shape, total, (tile - 1) / 2, stride)
    for _ in range(rounds):
        shifts, weights = _shifts_seen(flat, px_per_mm, prints, tiles)
        weights[np.hypot(shifts[..., 0], shifts[..., 1]) > MAX_SHIFT_MM * px_per_mm] = 0.0
        weights = _drop_outliers(shifts, weights, 0.4 * px_per_mm)
        if weights.sum() < 4:
            break
        field = _smooth_field(shifts, weights)
        if np.abs(field).max() < SETTLED_MM * px_per_mm:
            break
        total = field if total is None else total + field
        flat = _resample(pixels, to_photo, px_per_mm, flat.shape, total, (tile - 1) / 2, stride)
    return flat


def refine_best(
    pixels: Pixels,
    to_photo: Matrix,
    flat: Pixels,
    ink: NDArray[np.float32],
    px_per_mm: float,
) -> Pixels:
    """The page refined from the markers' map, or from the large tiles' shifts
    (:func:`coarse_shifts`) where they find a curl: whichever lays more of the print where the
    page has it.

    The large tiles follow a curl the small ones cannot, but a large tile matched to the wrong
    place can also move a stretch of a faint print off its lines, which the small tiles do not
    all bring back (a hard photo of an Arp sheet printed in grey strokes, on the bench). So where
    they move the page, it is refined both ways, and the page whose small tiles find the print
    within :data:`PLACED_MM` of its place, weighed by how surely, is kept.
    """
    plain = refine(pixels, to_photo, flat, ink, px_per_mm)
    start = coarse_shifts(flat, ink, px_per_mm)
    if start is None:
        return plain
    moved = refine(pixels, to_photo, flat, ink, px_per_mm, start)
    placed_moved, placed_plain = _placed([moved, plain], ink, px_per_mm)
    return moved if placed_moved > placed_plain else plain


PLACED_MM = 0.4
"""A tile whose print lies this near its place counts as placed (the tolerance of
:func:`refine`'s outliers)."""


def _placed(flats: Sequence[Pixels], ink: NDArray[np.float32], px_per_mm: float) -> list[float]:
    """How much of the print each photo shows in its place: the weights of the small tiles
    matched within :data:`PLACED_MM`, at :data:`COARSE_STEP` of the resolution (a quarter of
    the memory: a tile's shift is still found to a fraction of a pixel)."""
    scale = px_per_mm / COARSE_STEP
    prints, tiles = _matchable(_smaller(ink), scale)
    placed = []
    for flat in flats:
        shifts, weights = _shifts_seen(_smaller(flat), scale, prints, tiles)
        near = np.hypot(shifts[..., 0], shifts[..., 1]) <= PLACED_MM * scale
        placed.append(float(weights[near].sum()))
    return placed


def _smaller(image: ImageT) -> ImageT:
    """A page image (the photo or the print) at :data:`COARSE_STEP` of its resolution."""
    height, width = image.shape[:2]
    size = (width // COARSE_STEP, height // COARSE_STEP)
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), dtype=image.dtype)


COARSE_TILE_MM = 40.0
"""Side of the tiles of :func:`coarse_shifts`: each holds enough print, past a tally grid's
repeating cells or a dim photo's noise, to be matched several millimetres off."""
COARSE_STRIDE_MM = 20.0
COARSE_STEP = 2
"""The coarse tiles are matched at this fraction of the page's resolution: blur that wide costs
them nothing, and it averages the noise away."""
COARSE_MAX_SHIFT_MM = 10.0
COARSE_OUTLIER_MM = 1.0
"""A coarse tile further than this from its neighbours' median is dropped."""
COARSE_LEAST_MM = 1.0
"""A coarse field nowhere this large is left out: :func:`refine`'s own tiles follow it."""


@dataclass(frozen=True)
class CoarseShifts:
    """Shifts of the page matched on large tiles (:func:`coarse_shifts`), in page pixels, known
    at ``offset + k * stride`` pixels across and down."""

    field: NDArray[np.float32]
    stride: float
    offset: float

    def at(self, tiles: _Tiles) -> NDArray[np.float32]:
        """The shifts at the centres of :func:`refine`'s tiles, falling to nothing a stride past
        the outermost large tile."""
        ratio = tiles.stride / self.stride
        moved = ((tiles.size - 1) / 2 - self.offset) / self.stride
        to_coarse = np.array([[ratio, 0.0, moved], [0.0, ratio, moved]])
        at_tiles = [
            cv2.warpAffine(
                np.ascontiguousarray(self.field[..., k]),
                to_coarse,
                (tiles.cols, tiles.rows),
                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=0.0,
            )
            for k in range(2)
        ]
        return np.stack(at_tiles, axis=-1).astype(np.float32)


def coarse_shifts(flat: Pixels, ink: NDArray[np.float32], px_per_mm: float) -> CoarseShifts | None:
    """How far the print lies from where the corner markers put it, matched on large tiles,
    where that is :data:`COARSE_LEAST_MM` or more somewhere; else ``None``.

    On a curled, dim photo the middle of the page can lie 3-4 mm from where the markers put it:
    past :data:`MAX_SHIFT_MM`, and on a tally grid past half a cell, where :func:`refine`'s
    16 mm tiles lock onto the neighbouring cell. Those tiles were dropped, and the grid was read
    half a cell off, its printed rules taken for ticks. Tiles of :data:`COARSE_TILE_MM` hold
    the grid's edges and the print round it, and at :data:`COARSE_STEP` the photo's noise is
    averaged away. The shifts are kept only near the tiles that measured them, so the page's
    edges, held by the markers, are left to :func:`refine`'s own tiles.

    Args:
        flat: the photo rectified through the markers' map.
        ink: the page as printed, at the same resolution.
        px_per_mm: that resolution.
    """
    scale = px_per_mm / COARSE_STEP
    prints, tiles = _matchable(_smaller(ink), scale, COARSE_TILE_MM, COARSE_STRIDE_MM)
    shifts, weights = _shifts_seen(_smaller(flat), scale, prints, tiles)
    weights[np.hypot(shifts[..., 0], shifts[..., 1]) > COARSE_MAX_SHIFT_MM * scale] = 0.0
    weights = _drop_outliers(shifts, weights, COARSE_OUTLIER_MM * scale)
    mass = _near_tiles(weights)
    share = np.clip(mass / 0.2, 0.0, 1.0) / np.maximum(mass, 1e-6) * COARSE_STEP
    field = _near_tiles(shifts * weights[..., None]) * share[..., None]
    if np.abs(field).max() < COARSE_LEAST_MM * px_per_mm:
        return None
    return CoarseShifts(
        field, tiles.stride * COARSE_STEP, ((tiles.size - 1) / 2 + 0.5) * COARSE_STEP - 0.5
    )


def _near_tiles(values: NDArray[np.float64]) -> NDArray[np.float32]:
    """Values at tiles spread over their neighbours (a Gaussian of one tile), nothing beyond
    the edges."""
    return np.asarray(
        cv2.GaussianBlur(values.astype(np.float32), (7, 7), 1.0, borderType=cv2.BORDER_CONSTANT),
        dtype=np.float32,
    )


def hidden_corner(
    to_photo: Matrix,
    flat: Pixels,
    ink: NDArray[np.float32],
    px_per_mm: float,
    square: tuple[float, float, float, float],
) -> NDArray[np.float64] | None:
    """Where a hidden corner marker's square lies in the photo, found from the print around it.

    With three markers the fourth corner is placed by extending the map past them, and on a
    steep or curled photo it lands several millimetres off: more than :func:`refine` corrects
    (:data:`MAX_SHIFT_MM`), so the print there was read off its lines or taken for another
    sheet's. Here the print within :data:`CORNER_REACH_MM` of the hidden square is matched tile
    by tile as :func:`refine` does; each tile's shift, up to :data:`CORNER_SHIFT_MM`, votes for
    one perspective map of that part of the page (RANSAC, within :data:`CORNER_TOLERANCE_MM`),
    and the square is placed through it. A tile locked onto the wrong line does not move the
    map, and a print that is not this sheet's finds no map that most tiles agree with: then
    ``None``, and the square stays where the markers found put it.

    Args:
        to_photo: the map from the markers found.
        flat: the photo rectified through it.
        ink: the page as printed, at the same resolution as ``flat``.
        px_per_mm: that resolution.
        square: the hidden marker's square on the page, ``(x0, y0, x1, y1)`` in mm.

    Returns:
        The square's four corners in the photo, clockwise from its top left, or ``None``.
    """
    prints, tiles = _matchable(ink, px_per_mm)
    shifts, weights = _shifts_seen(flat, px_per_mm, prints, tiles)
    rows, cols = np.indices(weights.shape)
    at = np.stack([cols, rows], axis=-1) * tiles.stride + (tiles.size - 1) / 2.0
    at_mm = (at + 0.5) / px_per_mm
    x0, y0, x1, y1 = square
    near = np.hypot(at_mm[..., 0] - (x0 + x1) / 2, at_mm[..., 1] - (y0 + y1) / 2)
    usable = (
        (weights > 0)
        & (near <= CORNER_REACH_MM)
        & (np.hypot(shifts[..., 0], shifts[..., 1]) <= CORNER_SHIFT_MM * px_per_mm)
    )
    if usable.sum() < CORNER_TILES:
        return None
    page = at_mm[usable]
    moved = at[usable] + shifts[usable]
    seen = cv2.perspectiveTransform(
        moved.reshape(-1, 1, 2), _flat_to_photo(to_photo, px_per_mm)
    ).reshape(-1, 2)
    tolerance = CORNER_TOLERANCE_MM * _local_scale(to_photo, page)
    matrix, inliers = cv2.findHomography(page, seen, cv2.RANSAC, tolerance, maxIters=500)
    if matrix is None or inliers is None:
        return None
    agreed = int(inliers.sum())
    if agreed < CORNER_TILES or agreed < 0.5 * len(page):
        return None
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)
    return np.asarray(
        cv2.perspectiveTransform(corners.reshape(-1, 1, 2), matrix).reshape(-1, 2),
        dtype=np.float64,
    )


def _local_scale(to_photo: Matrix, on_page: NDArray[np.float64]) -> float:
    """Photo pixels per page millimetre around the given page points, about (the median of
    their neighbours' spacings, mapped)."""
    mapped = cv2.perspectiveTransform(on_page.reshape(-1, 1, 2), to_photo).reshape(-1, 2)
    page_steps = np.hypot(*np.diff(on_page, axis=0).T)
    photo_steps = np.hypot(*np.diff(mapped, axis=0).T)
    usable = page_steps > 1e-6
    return float(np.median(photo_steps[usable] / page_steps[usable])) if usable.any() else 1.0


CORNER_SHIFT_MM = 8.0
"""Largest shift a tile may vote with in :func:`hidden_corner`: the fourth corner of a steep,
curled photo extended from three markers lands some 4 mm off (the hard photos of
``bench/rephotograph.py``), and the votes must reach it."""
CORNER_TOLERANCE_MM = 1.0
"""How near a tile's shift must lie to the map fitted for the tile to agree with it. A dim,
blurred photo's tiles are matched to a few tenths of a millimetre: within 0.5 mm (and 9 cm of the
corner) only 6-10 of the 13-25 tiles near a covered corner agreed on four hard photos tried, too
few to place it; within 1 mm (and 12 cm) 16-34 of 23-52, and each corner was placed."""
CORNER_TILES = 10
"""Fewest tiles that must agree with the map fitted near a hidden corner before it places the
corner: a perspective map has eight unknowns, and each tile gives two."""
CORNER_REACH_MM = 120.0
"""How far from a hidden corner the tiles that place it are taken: near enough that a curled
page is nearly flat over them, far enough to hold a few dozen tiles of print."""


def _matchable(
    ink: NDArray[np.float32],
    px_per_mm: float,
    tile_mm: float = TILE_MM,
    stride_mm: float = STRIDE_MM,
) -> tuple[list[_Print], _Tiles]:
    """The two kinds of print a tile is matched on (black ink, then the light print), and the
    tiles each can be matched in."""
    prints = [
        _Print(_printed_at(ink, BLACK_PRINT), BLACK_SHARE),
        _Print(_printed_at(ink, LIGHT_PRINT), LIGHT_SHARE),
    ]
    tile = round(tile_mm * px_per_mm)
    stride = round(stride_mm * px_per_mm)
    return prints, _matchable_tiles([p.expected for p in prints], tile, stride)


def _shifts_seen(
    flat: Pixels, px_per_mm: float, prints: list[_Print], tiles: _Tiles
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Each tile's shift between the print and the rectified photo, and its weight."""
    dark = darkening(grey(flat), px_per_mm)
    return _tile_shifts(tiles, [p.seen_in(dark) for p in prints], [p.expected for p in prints])


def _resample(
    pixels: Pixels,
    to_photo: Matrix,
    px_per_mm: float,
    shape: tuple[int, ...],
    field: NDArray[np.float32],
    offset: float,
    stride: int,
) -> Pixels:
    """The page rectified through the marker map plus a field of shifts known at tile centres
    (``offset + k * stride`` pixels); the map is worked out every 8 pixels and interpolated."""
    height, width = shape[:2]
    step = 8
    rows, cols = height // step + 2, width // step + 2
    grid_x, grid_y = np.meshgrid(
        np.arange(cols, dtype=np.float32) * step, np.arange(rows, dtype=np.float32) * step
    )
    shift_x = _spread(field[..., 0], stride, offset, step, (cols, rows))
    shift_y = _spread(field[..., 1], stride, offset, step, (cols, rows))
    points = np.stack([grid_x + shift_x, grid_y + shift_y], axis=-1).reshape(-1, 1, 2)
    mapped = cv2.perspectiveTransform(points, _flat_to_photo(to_photo, px_per_mm))
    coarse = mapped.reshape(rows, cols, 2).astype(np.float32)
    map_x = _spread(coarse[..., 0], step, 0.0, 1, (width, height))
    map_y = _spread(coarse[..., 1], step, 0.0, 1, (width, height))
    again = cv2.remap(pixels, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(again, dtype=np.uint8)


BLACK_PRINT = 0.45
"""Print level (a share of white) under which the print counts as black ink."""
BLACK_SHARE = 0.45
"""Share of light, taken by a pixel from the brightest paper near it, over which the photo shows
black ink (pencil is seldom that dark)."""
LIGHT_PRINT = 0.8
"""Print level under which the print counts when a tile has no black ink: the mid-grey lines."""
LIGHT_SHARE = 0.15
"""Share of light over which the photo shows print, black or light, in such a tile."""
LIGHT_WEIGHT = 0.5
"""How much a tile matched on its light print counts beside one matched on black ink: pencil
darkens a light print's surroundings as much as the print itself, and often lies on it."""


@dataclass(frozen=True)
class _Print:
    """One kind of print matched: where the print has it, and how dark the photo must be to
    show it."""

    expected: NDArray[np.float32]
    share: float

    def seen_in(self, darkening: NDArray[np.float32]) -> NDArray[np.float32]:
        """How surely each pixel of the photo shows this print, from its :func:`darkening`."""
        return _ramp(np.subtract(darkening, self.share, dtype=np.float32))


def darkening(grey: NDArray[np.float32], px_per_mm: float) -> NDArray[np.float32]:
    """The share of light each pixel takes from the brightest paper near it.

    The paper's white is the brightest level within 1.5 mm, smoothed over 1.5 mm: so smooth
    that it is smoothed at a quarter of the resolution and brought back (a thousandth of the
    light apart from smoothing it whole, in a third of the time).
    """
    radius = max(2, round(1.5 * px_per_mm))
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * radius + 1, 2 * radius + 1))
    brightest = cv2.dilate(grey, square)
    height, width = grey.shape
    small = cv2.resize(
        brightest, (-(-width // WHITE_STEP), -(-height // WHITE_STEP)), interpolation=cv2.INTER_AREA
    )
    small = cv2.GaussianBlur(small, (0, 0), radius / WHITE_STEP)
    white = np.asarray(
        cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR), dtype=np.float32
    )
    share = np.maximum(white, 1.0, out=white)
    np.divide(grey, share, out=share)
    return np.subtract(1.0, share, out=share)


WHITE_STEP = 4
"""Pixels a side of the square each of whose paper's white :func:`darkening` works out once."""


def _printed_at(ink: NDArray[np.float32], level: float) -> NDArray[np.float32]:
    """How surely each pixel of the print is darker than ``level``."""
    return _ramp(np.subtract(level, ink, dtype=np.float32))


def _ramp(excess: NDArray[np.float32]) -> NDArray[np.float32]:
    """``excess`` over 0.3, clipped to 0..1, in place: these are whole pages, made nine times a
    read, and a fresh page-sized array for each step cost more than the step itself."""
    np.divide(excess, 0.3, out=excess)
    return np.clip(excess, 0.0, 1.0, out=excess)


@dataclass(frozen=True)
class _Tiles:
    """The tiles of a page whose print can be matched: their grid, and for each such tile its
    row, column and the kind of print it is matched on (0 black ink, 1 the light print)."""

    size: int
    stride: int
    rows: int
    cols: int
    matched: tuple[tuple[int, int, int], ...]


def _matchable_tiles(expected: list[NDArray[np.float32]], tile: int, stride: int) -> _Tiles:
    """Per tile, the first kind of print it has structure in: found once a page, as the print
    does not change from one round of :func:`refine` to the next."""
    height, width = expected[0].shape
    rows = max(1, (height - tile) // stride + 1)
    cols = max(1, (width - tile) // stride + 1)
    matched: list[tuple[int, int, int]] = []
    for r in range(rows):
        for c in range(cols):
            y, x = r * stride, c * stride
            for kind, page in enumerate(expected):
                a = page[y : y + tile, x : x + tile]
                if a.shape == (tile, tile) and _structured(a):
                    matched.append((r, c, kind))
                    break
    return _Tiles(tile, stride, rows, cols, tuple(matched))


def _tile_shifts(
    tiles: _Tiles, seen: list[NDArray[np.float32]], expected: list[NDArray[np.float32]]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per tile, how far the photo's print lies from the page's, and how much to trust that:
    matched on the first kind of print the tile has structure in (black ink, then the light
    print, whose matches count :data:`LIGHT_WEIGHT` as much)."""
    tile, stride = tiles.size, tiles.stride
    shifts = np.zeros((tiles.rows, tiles.cols, 2), dtype=np.float64)
    weights = np.zeros((tiles.rows, tiles.cols), dtype=np.float64)
    window = cv2.createHanningWindow((tile, tile), cv2.CV_32F)
    trust = (1.0, LIGHT_WEIGHT)

    def correlated(matched: Sequence[tuple[int, int, int]]) -> list[Correlation]:
        found = []
        for r, c, kind in matched:
            y, x = r * stride, c * stride
            a = np.ascontiguousarray(expected[kind][y : y + tile, x : x + tile])
            b = np.ascontiguousarray(seen[kind][y : y + tile, x : x + tile])
            found.append(cv2.phaseCorrelate(a, b, window))
        return found

    threads = max(1, min(CORRELATING, cv2.getNumThreads()))
    parts = [tiles.matched[k::threads] for k in range(threads)]
    if threads == 1:
        done = [correlated(parts[0])]
    else:
        with ThreadPoolExecutor(threads) as pool:
            done = list(pool.map(correlated, parts))
    for part, found in zip(parts, done, strict=True):
        for (r, c, kind), ((dx, dy), response) in zip(part, found, strict=True):
            shifts[r, c] = (dx, dy)
            weights[r, c] = trust[kind] * response if response > 0.1 else 0.0
    return shifts, weights


Correlation = tuple[Sequence[float], float]
CORRELATING = 2
"""Threads the tiles are matched in: OpenCV matches a tile without Python's lock but on one core,
and a page has some 250 tiles, so two cores match them in little more than half the time. No
more than OpenCV itself may use (``cv2.getNumThreads``): one in a batch's worker, whose
neighbour has the other core."""


def _structured(tile: NDArray[np.float32]) -> bool:
    """Whether a tile's print has edges both across and down, so that a shift can be measured
    (the edges down are summed only for a tile with enough across)."""
    least = 2.0 * int(tile.shape[0])
    return _edges(tile, 1) > least and _edges(tile, 0) > least


def _edges(tile: NDArray[np.float32], axis: int) -> float:
    """How much a tile's print changes along ``axis``, summed over the tile."""
    steps = np.diff(tile, axis=axis)
    return float(np.abs(steps, out=steps).sum())


def _drop_outliers(
    shifts: NDArray[np.float64], weights: NDArray[np.float64], tolerance: float
) -> NDArray[np.float64]:
    """Weights with the tiles that disagree with their neighbours' median set to zero: each
    matched tile against the median shift of the matched tiles within two rows and columns of
    it, itself included, when there are three or more."""
    rows, cols = weights.shape
    matched = weights > 0
    padded = np.full((rows + 4, cols + 4, 2), np.nan)
    padded[2:-2, 2:-2][matched] = shifts[matched]
    around = np.stack([padded[r : r + rows, c : c + cols] for r in range(5) for c in range(5)])
    judged = matched & (np.isfinite(around[..., 0]).sum(axis=0) >= 3)
    kept = weights.copy()
    if judged.any():
        middle = np.nanmedian(around[:, judged], axis=0)
        off = shifts[judged] - middle
        kept[judged] = np.where(np.hypot(off[:, 0], off[:, 1]) > tolerance, 0.0, weights[judged])
    return kept


def _smooth_field(shifts: NDArray[np.float64], weights: NDArray[np.float64]) -> NDArray[np.float32]:
    """The tiles' shifts smoothed by normalised convolution, at growing scales where tiles are
    missing."""
    weight = weights.astype(np.float32)
    values = shifts.astype(np.float32)
    field = np.zeros_like(values)
    have = np.zeros(weight.shape, dtype=np.float32)
    for sigma in (1.0, 3.0, 9.0):
        size = 2 * int(3 * sigma) + 1
        mass = cv2.GaussianBlur(weight, (size, size), sigma, borderType=cv2.BORDER_REPLICATE)
        spread = cv2.GaussianBlur(
            values * weight[..., None], (size, size), sigma, borderType=cv2.BORDER_REPLICATE
        )
        share = np.clip(mass / 0.2, 0.0, 1.0) * (1.0 - have)
        field += share[..., None] * spread / np.maximum(mass, 1e-6)[..., None]
        have += share
    return field


def _spread(
    grid: NDArray[np.float32], stride: int, offset: float, step: int, size: tuple[int, int]
) -> NDArray[np.float32]:
    """A field known at ``offset + k * stride`` pixels, sampled every ``step`` pixels over
    ``size`` samples."""
    scale = np.array(
        [[step / stride, 0.0, -offset / stride], [0.0, step / stride, -offset / stride]]
    )
    full = cv2.warpAffine(
        np.ascontiguousarray(grid),
        scale,
        size,
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(full, dtype=np.float32)
