"""The bare paper under the pencil: how white it is at every point of a photo, and how noisy.

Pencil is read as a darkening of the paper, so the reader must know what the paper would look
like there without pencil: light falls unevenly on a sheet, a shadow may cross it, the light may
be tinted, and the camera's levels differ from photo to photo. A fixed threshold would mistake a
shadow for pencil and a light stroke under a bright lamp for paper.

The white is measured from the page's own clear paper: pixels far from printed ink, whether in
the margins, the gutters, or inside spaces (uncoloured ones are the best reference there is next
to coloured ones). In each 2 mm cell a high quantile of the level is taken, so that the gaps
between hatching strokes count for paper; cells grainier than bare paper (hatching leaves strokes
and gaps, a shadow does not) or tinted otherwise are left out, and so are cells inside items
darker than the paper found around them; the rest are smoothed into a field, and the few places
with no accepted cell nearby take the median white. The sensor's noise is measured on the same
cells, as a covariance between the three channels, so that a pixel's darkening is judged
against the noise of the photo it comes from.

Example:
    >>> rng = np.random.default_rng(1)
    >>> light = np.linspace(120, 200, 160, dtype=np.float32)[None, :, None]  # a gradient
    >>> tint = np.array([1.0, 0.95, 0.8])
    >>> photo = np.clip(light * tint + rng.normal(0, 3, (160, 160, 3)), 0, 255)
    >>> photo[40:120, 40:120] *= 0.6  # a space hatched evenly: pencil, not paper
    >>> free = np.ones((160, 160), bool)
    >>> free[20:140, 20:140] = False  # the space and the overflow around it
    >>> paper = paper_of(smoothed(photo.astype(np.uint8)), np.ones((160, 160), bool), 8.0, free)
    >>> bool(np.abs(paper.white[80, 80] - light[0, 80, 0] * tint).max() < 8)
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float32]
Mask = NDArray[np.bool_]

CELL_MM = 2.0
"""Side of the cells the white is sampled in: smaller than a space, larger than a stroke gap."""
ENVELOPE_MM = 16.0
"""Radius of the upper envelope: a patch of pencil narrower than twice this is bridged."""
SMOOTH_MM = 2.0
"""Spread of the smoothing of accepted cells; a shadow's soft edge is wider than this."""
ACCEPT = 0.15
"""Share below the envelope that a cell may lie and still count as bare paper (a shadow's foot
lies a little below it)."""
QUANTILE = 0.75
"""The level taken in each cell (corrected for noise): high enough that hatching gaps count."""


@dataclass(frozen=True)
class Paper:
    """The bare paper of a rectified page.

    Attributes:
        white: (height, width, 3) the level each channel would have there without pencil.
        bare: where bare paper was seen, on every :data:`NOISE_STRIDE`-th row and column: the
            pixels the noise is measured on.
    """

    white: Floats
    bare: Mask

    def noise(self, image: Floats) -> NDArray[np.float64]:
        """The (3, 3) covariance, in levels squared, of ``image`` (the page, smoothed in some
        way) about the white on bare paper, its tails (stray pencil) trimmed."""
        step = NOISE_STRIDE
        residual = (image[::step, ::step] - self.white[::step, ::step])[self.bare]
        if len(residual) < 100:
            return np.eye(3) * 4.0
        residual = residual.astype(np.float64)
        luma = residual.mean(axis=1)
        centre = float(np.median(luma))
        spread = 1.4826 * float(np.median(np.abs(luma - centre))) + 1e-3
        kept = residual[np.abs(luma - centre) < 4.0 * spread]
        return np.asarray(np.cov(kept, rowvar=False) + np.eye(3) * 0.25, dtype=np.float64)


NOISE_STRIDE = 3
"""Every third row and column of bare paper is plenty to measure the noise on."""


def smoothed(pixels: NDArray[np.uint8] | Floats, sigma: float = 0.8) -> Floats:
    """The image as float levels with the sensor's pixel noise softened (the default keeps the
    strokes; a wider ``sigma`` merges them)."""
    image = pixels.astype(np.float32) if pixels.dtype != np.float32 else pixels
    return np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), dtype=np.float32)


def paper_of(
    smooth: Floats,
    clear: Mask,
    px_per_mm: float,
    free: Mask | None = None,
    grain: Floats | None = None,
) -> Paper:
    """The paper's white field and noise, from the pixels that ``clear`` says hold no ink.

    Args:
        smooth: the rectified page, RGB, as :func:`smoothed` gives it.
        clear: where no printed ink is near (pencil may be).
        px_per_mm: the page's resolution.
        free: where no pencil is expected either (outside every item): the noise and the
            paper's tint are measured there first. All of ``clear`` if not given.
        grain: each pixel's :func:`grain_of` (worked out here if not given).
    """
    half = _half(smooth)
    half_clear = _half(clear.astype(np.float32)) > 0.999
    half_grain = _half(grain if grain is not None else grain_of(smooth, px_per_mm, clear))
    step = max(2, round(CELL_MM * px_per_mm / 2))
    cells = _cells(half, half_clear, step, half_grain)
    if free is None:
        free_cells = cells.valid
    else:
        free_share = _by_cell(_half(free.astype(np.float32)), step).mean(axis=2)
        free_cells = cells.valid & (free_share > 0.9)
    radius = max(1, round(ENVELOPE_MM / CELL_MM))
    envelope = _envelope(np.where(free_cells, cells.luma, 0.0).astype(np.float32), radius)
    accepted = _bare(cells, free_cells, envelope)
    field = _fill(cells.white, accepted, cells.luma, SMOOTH_MM / CELL_MM)
    height, width = smooth.shape[:2]
    white = _upsample(field, step * 2, (width, height))
    return Paper(white, _bare_pixels(clear, accepted, step * 2))


def grain_of(smooth: Floats, px_per_mm: float, clear: Mask) -> Floats:
    """How much each pixel's level departs from its clear surroundings' (within about half a
    millimetre): hatching's strokes and gaps show here, a shadow or bare paper only as noise.
    Printed ink is left out of the surroundings, or paper beside a line would look grainy."""
    luma = np.asarray(cv2.cvtColor(smooth, cv2.COLOR_RGB2GRAY), dtype=np.float32)
    around, mass = _clear_mean(luma, clear, GRAIN_MM * px_per_mm)
    return np.asarray(np.abs(luma - around) * (mass > 0.05), dtype=np.float32)


def _clear_mean(image: Floats, clear: Mask, sigma: float) -> tuple[Floats, Floats]:
    """The Gaussian mean of ``image`` over the clear pixels around each pixel, and the share of
    clear pixels it was taken over."""
    weight = clear.astype(np.float32)
    mass = cv2.GaussianBlur(weight, (0, 0), sigma)
    mean = cv2.GaussianBlur(image * weight, (0, 0), sigma) / np.maximum(mass, 1e-3)
    return np.asarray(mean, dtype=np.float32), np.asarray(mass, dtype=np.float32)


GRAIN_MM = 0.5
"""Spread of the surroundings a pixel's grain is measured against: a hatching stroke's width."""


def _half(image: Floats) -> Floats:
    """The image at half the resolution (2 x 2 means): quicker, and its noise halved."""
    height, width = image.shape[:2]
    size = (max(1, width // 2), max(1, height // 2))
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), dtype=np.float32)


@dataclass(frozen=True)
class _Cells:
    """Per cell: the white (3 channels), its luma, the spread of its levels (noise, or the
    texture of hatching), its mean grain (the same at a stroke's scale), and whether enough
    clear pixels were seen."""

    white: Floats
    luma: Floats
    spread: Floats
    valid: Mask
    grain: Floats


def _bare(cells: _Cells, free: Mask, envelope: Floats) -> Mask:
    """The cells that show bare paper, found in two rounds.

    First the *free* cells, where no pencil is expected (outside every item and its overflow):
    those as smooth as the noise allows, as fine-grained as most free cells and tinted as the
    paper is are paper, down to :data:`FREE_FLOOR` of the brightest paper near them, since a
    shadow darkens paper too. Their white, spread over the page, is the first guess everywhere.
    Then the cells inside items are added where they are as smooth, as fine-grained, as tinted
    and as bright as that guess says paper is there: an empty space next to hatched ones. A
    hatched cell is never taken for paper because a whole field is hatched: it must match the
    paper seen outside, not its own neighbours. An island of such cells a square centimetre or
    more across (:func:`_islands`) is paper from the first round, however far a shadow darkens
    it: the guess cannot follow a shadow across the hatching that rings it.
    """
    reference = free if free.sum() >= 20 else cells.valid
    if not reference.any():
        return cells.valid
    noise = float(np.median(cells.spread[reference]))
    tint = cells.white / np.maximum(cells.luma, 1e-3)[:, :, None]
    paper_tint = np.median(tint[reference], axis=0)
    off_tint = np.abs(tint - paper_tint).max(axis=2)
    plain = float(np.median(cells.grain[reference]))
    smooth = (
        cells.valid
        & (cells.spread <= 1.8 * noise + 0.01 * cells.luma)
        & (cells.grain <= GRAIN_SMOOTH * plain)
        & (off_tint < 0.04)
    )
    lit = smooth & (cells.luma >= envelope * FREE_FLOOR)
    first = lit & reference
    if first.sum() < 4:
        first = smooth & (cells.luma >= envelope * (1.0 - ACCEPT))
    first = first | _islands(lit & ~reference)
    accepted = first
    for _ in range(GROW_ROUNDS):
        guess = _fill(cells.white, accepted, cells.luma, SMOOTH_MM / CELL_MM).mean(axis=2)
        grown = first | (smooth & ~reference & (cells.luma >= guess * (1.0 - INSIDE_ACCEPT)))
        if (grown == accepted).all():
            break
        accepted = grown
    return np.asarray(accepted, dtype=np.bool_)


def _islands(candidates: Mask) -> Mask:
    """The candidate cells that lie side by side in groups of :data:`ISLAND_CELLS` or more."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(
        candidates.astype(np.uint8), connectivity=4
    )
    large = stats[:, cv2.CC_STAT_AREA] >= ISLAND_CELLS
    large[0] = False
    return np.asarray(large[labels] & candidates, dtype=np.bool_)


ISLAND_CELLS = 25
"""Fewest smooth cells inside items (bare by their grain, spread and tint, not by their level)
that are paper together whatever their level: a square centimetre, an empty space or more.
Paper is grown inwards from the free paper only through smooth cells, so an island of empty
spaces ringed by hatched ones under a shadow was refused, its white guessed from the lit margins
a third too bright, and every space on it read as grey pencil: on hard photos of the
independent set's scans (``bench/rephotograph.py``, three draws of the camera) Delaunay's field
read green, 17-105 items a sheet. With islands those draws read 87.6, 91.6 and 95.2 % of items
right rather than 87.6, 90.2 and 93.6 %; the bench's hard tier 99.09 % rather than 98.52 %
(spaces 97.98 % rather than 96.13 %, 122 items flagged rather than 143), and its scans, phone
photos and copies and the independent set's 48 photos read item for item as before. Hatching
stays out by its grain (:data:`GRAIN_SMOOTH`) and its tint, as before."""


GRAIN_SMOOTH = 1.3
"""Mean grain (:func:`grain_of`), as a multiple of the free paper's median, above which a cell
is not bare paper. In a dim, blurred photo a light hatching's cell is as even as paper at 2 mm
(its quantile falls in the gaps), but its strokes still show at their own scale: without this
test the paper was grown into graphite hatching and whole hatched spaces read as surely empty."""
FREE_FLOOR = 0.3
"""Share of the brightest paper within :data:`ENVELOPE_MM` that a smooth free cell may fall to
and still count as paper: a hard shadow takes more than half the light, and a shadow band cut
off at the margins left the white across the field far too bright."""
GROW_ROUNDS = 30
"""Most rounds in which bare cells inside the items are added from the white guessed from the
cells found so far: each round follows a shadow a little farther in from the free paper, and
the growing stops when a round adds nothing (a shadow across a wide field of empty spaces takes
some twenty rounds; eight left many empty spaces in a band's core read as pencil)."""


INSIDE_ACCEPT = 0.12
"""Share below the white guessed from the free paper that an item's smooth cell may lie and
still count as bare paper (the guess is smooth; light changes a little within a few cm)."""


def _cells(half: Floats, clear: Mask, step: int, grain: Floats) -> _Cells:
    """Each cell's high-quantile level among its clear pixels, less the quantile's noise bias.

    The quantile is taken on the mean of the channels; each channel's white is the mean, in
    that channel, of the clear pixels at or above the cell's median, scaled to the quantile.
    """
    blocks = _by_cell(half, step)
    ok = _by_cell(clear, step)
    page_luma = channel_mean(half)
    luma = np.where(ok, _by_cell(page_luma, step), -1.0).astype(np.float32)
    ordered = np.sort(luma, axis=2)
    count = ok.sum(axis=2)
    valid = count >= max(8, step * step // 4)

    median, high = _quantile(ordered, count, 0.5), _quantile(ordered, count, QUANTILE)
    spread = _even_spread(page_luma, clear, step, ok, count)
    sigma = float(np.percentile(spread[valid], 20)) if valid.any() else 0.0
    level = high - 0.674 * sigma
    upper = ok & (luma >= median[:, :, None])
    weight = upper.sum(axis=2, keepdims=True).clip(1)
    means = (blocks * upper[:, :, :, None]).sum(axis=2) / weight
    luma_means = means.mean(axis=2, keepdims=True).clip(1e-3)
    white = means / luma_means * level[:, :, None]
    mean_grain = (_by_cell(grain, step) * ok).sum(axis=2) / np.maximum(count, 1)
    return _Cells(
        white.astype(np.float32),
        np.where(valid, level, 0.0).astype(np.float32),
        spread.astype(np.float32),
        valid,
        mean_grain.astype(np.float32),
    )


def channel_mean(image: Floats) -> Floats:
    """The mean of the last axis' three channels, bit for bit as ``image.mean(axis=-1)`` has it
    (the same two additions and division, in the same order) in a tenth of the time: numpy
    reduces a short last axis slowly.

    Example:
        >>> pixels = np.array([[[0.1, 0.2, 0.4], [3.0, 5.0, 7.0]]], dtype=np.float32)
        >>> bool((channel_mean(pixels) == pixels.mean(axis=-1)).all())
        True
    """
    return np.asarray((image[..., 0] + image[..., 1] + image[..., 2]) / 3, dtype=image.dtype)


def _even_spread(
    luma: Floats, clear: Mask, step: int, ok: NDArray[np.bool_], count: NDArray[np.int64]
) -> Floats:
    """Each cell's spread of levels about the light's own slope: the interquartile range, as
    a normal spread, of the clear pixels less their clear surroundings' mean (a shadow's edge
    is a slope across a cell, not a texture, and must not make bare paper look uneven)."""
    trend, _ = _clear_mean(luma, clear, step / 2.0)
    ordered = np.sort(np.where(ok, _by_cell(luma - trend, step), -1e30), axis=2)
    quartiles = _quantile(ordered, count, 0.75) - _quantile(ordered, count, 0.25)
    return np.asarray(np.where(count > 0, quartiles / 1.349, np.inf), dtype=np.float32)


def _by_cell(image: NDArray[np.generic], step: int) -> NDArray[Any]:
    """The image cut into cells ``step`` pixels square (the ragged edge dropped): ``(rows,
    cols, step * step)`` and then the image's channels, if any."""
    rows, cols = image.shape[0] // step, image.shape[1] // step
    rest = image.shape[2:]
    cut = image[: rows * step, : cols * step].reshape(rows, step, cols, step, *rest)
    return np.asarray(cut.swapaxes(1, 2).reshape(rows, cols, step * step, *rest))


def _quantile(ordered: Floats, count: NDArray[np.int64], share: float) -> Floats:
    """Per cell, the ``share`` quantile of its clear pixels: ``ordered`` holds each cell's
    pixels sorted along the last axis, the ``count`` clear ones last."""
    size = ordered.shape[2]
    index = np.clip(size - count + np.floor(share * (count - 1)).astype(np.int64), 0, size - 1)
    return np.asarray(np.take_along_axis(ordered, index[:, :, None], axis=2)[:, :, 0])


def _envelope(luma: Floats, radius: int) -> Floats:
    """The brightest level within ``radius`` cells: what paper near a cell at least reaches
    (a shadow's foot lies under it, so it is only used with a wide tolerance)."""
    size = 2 * radius + 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    return np.asarray(cv2.dilate(luma, disc, borderType=cv2.BORDER_REPLICATE), dtype=np.float32)


def _fill(white: Floats, accepted: Mask, luma: Floats, sigma: float) -> Floats:
    """The accepted cells smoothed into a field, by normalised convolution at growing scales;
    where none is near even at the widest, the median white of all accepted cells.

    At the two finer scales a few accepted cells (:data:`NEAR_CELLS`) settle the white: the
    light beside a colour box ringed by print is best told by the few bare cells between the
    print, not by the wide paper of the margins, which a lamp may light otherwise. At the
    wider scales, across a field hatched wall to wall, only a broad average of the paper round
    it is taken (:data:`FAR_SHARE`), since a few cells on one side would tilt it.
    """
    weight = accepted.astype(np.float32)
    field = np.zeros_like(white)
    have = np.zeros(weight.shape, dtype=np.float32)
    for step, scale in enumerate((sigma, 3 * sigma, 9 * sigma, 27 * sigma)):
        mass = _blur(weight, scale)
        values = _blur(white * weight[:, :, None], scale) / np.maximum(mass, 1e-6)[:, :, None]
        needed = NEAR_CELLS / (2.0 * math.pi * scale**2) if step < 2 else FAR_SHARE
        share = np.clip(mass / needed, 0.0, 1.0) * (1.0 - have)
        field += share[:, :, None] * values
        have += share
    if have.min() < 1.0:
        if accepted.any():
            fallback = np.median(white[accepted], axis=0)
        else:
            fallback = np.full(3, float(luma.max()) or 255.0, dtype=np.float32)
        field += (1.0 - have)[:, :, None] * fallback[None, None, :]
    return field


NEAR_CELLS = 3.0
"""Accepted cells' worth of weight (a Gaussian's weight at its centre counting as one cell)
that settles the white at the finer scales of :func:`_fill`."""
FAR_SHARE = 0.3
"""Share of the surroundings that must be accepted paper for a wide scale of :func:`_fill` to
settle the white."""


def _blur(image: Floats, sigma: float) -> Floats:
    size = 2 * math.ceil(3 * sigma) + 1
    return np.asarray(
        cv2.GaussianBlur(image, (size, size), sigma, borderType=cv2.BORDER_REPLICATE),
        dtype=np.float32,
    )


def _upsample(cells: Floats, step: int, size: tuple[int, int]) -> Floats:
    """A field known at cell centres, ``step`` pixels apart, over the whole page."""
    offset = (step - 1) / 2
    scale = np.array([[1.0 / step, 0.0, -offset / step], [0.0, 1.0 / step, -offset / step]])
    full = cv2.warpAffine(
        cells,
        scale,
        size,
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(full, dtype=np.float32)


def _bare_pixels(clear: Mask, accepted: Mask, step: int) -> Mask:
    """The clear pixels of bare cells (cells ``step`` pixels wide), on every
    :data:`NOISE_STRIDE`-th row and column."""
    stride = NOISE_STRIDE
    rows = np.arange(0, clear.shape[0], stride)
    cols = np.arange(0, clear.shape[1], stride)
    cell_rows = np.minimum(rows // step, accepted.shape[0] - 1)
    cell_cols = np.minimum(cols // step, accepted.shape[1] - 1)
    inside = (rows[:, None] < accepted.shape[0] * step) & (cols[None, :] < accepted.shape[1] * step)
    bare = accepted[cell_rows][:, cell_cols] & inside & clear[::stride, ::stride]
    return np.asarray(bare, dtype=np.bool_)
