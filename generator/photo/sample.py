"""From a rectified page to each item's pencil: how much of it is covered, and in what colour.

The page is known exactly (it is made again from its QR code), so the reader knows where every
drop of printed ink is and does not have to guess what is pencil. The page is rendered at the
reading resolution; pixels near printed ink are left out of the pencil count (black ink hides
pencil, and a photo's registration is never perfect), and the rest are compared with the paper's
own white (:mod:`papergames.photo.paper`).

Pencil is measured as *absorbance*, the share of light each channel loses against bare paper:
a pencil layer filters light, so the absorbance of a stroke is its pigment's colour times how
hard it was pressed, and the *direction* of the three-channel absorbance names the pencil
whatever the pressure, the light or the blur (which mixes a stroke with white paper and so only
scales it). A traced line lies on grey printed ink; there the absorbance is summed over the
whole band against the print's own darkening, so that a slightly misplaced line cancels out.

Example:
    >>> from shapely.geometry import box
    >>> from papergames.photo.items import LINE_HALF_WIDTH_MM, ReadItem, Sampling, trimmed
    >>> page = np.full((80, 80, 3), 200, dtype=np.uint8)
    >>> page[10:40, 10:40] = (190, 60, 60)  # a red square on grey paper
    >>> items = [ReadItem(f"space-{n}", "space", Sampling.AREA, b, b)
    ...          for n, b in enumerate([box(1, 1, 5, 5), box(5.5, 5.5, 9, 9)])]
    >>> ink = np.ones((80, 80), dtype=np.float32)
    >>> found = measure(page, ink, items, 8.0, blur_px=1.0)
    >>> [round(float(c), 2) for c in found.coverage]  # the square is covered, the other not
    [1.0, 0.0]
    >>> red, green, blue = found.absorb[0]  # red pencil takes green and blue light, not red
    >>> bool(green > 0.5 and blue > 0.5 and abs(red) < 0.1)
    True
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry
from shapely.ops import substring

from papergames.output.png import draw_page
from papergames.photo.colours import CORE_SETTLES_MM2, PRESENCE
from papergames.photo.items import LINE_HALF_WIDTH_MM, ReadItem, Sampling, trimmed
from papergames.photo.meanwhile import meanwhile
from papergames.photo.mixtures import GREY, darkness, degrees
from papergames.photo.paper import (
    NOISE_STRIDE,
    Paper,
    channel_mean,
    grain_of,
    paper_of,
    smoothed,
)
from papergames.photo.rims import edge_share
from papergames.photo.streaks import darkened_along, find_streak
from papergames.sheets.geometry import iter_polygons
from papergames.sheets.model import Page
from papergames.sheets.units import MM_PER_INCH

Floats = NDArray[np.float32]
Labels = NDArray[np.int32]
Mask = NDArray[np.bool_]

READ_DPI = 203
"""Resolution the page is read at: 8 px/mm, four pixels across the thinnest hatching stroke."""
INK_MARGIN_MM = 0.3
"""Clearance kept from printed ink, beyond the photo's blur, for the photo's misregistration."""
INK_LEVEL = 0.9
"""Print darker than this (a share of white) counts as ink."""
PAGE_EDGE_MM = 3.0
"""Band along the paper's edges not trusted as paper: the table may show there."""
Z_PENCIL = 5.0
"""How many noise spreads (Mahalanobis, over the three channels) a pixel's darkening must reach
to count as pencil."""
FLOOR = 0.05
"""The least darkening, in the most darkened channel, that counts as pencil: below it a slightly
wrong white could pass for pencil."""


def read_px_per_mm() -> float:
    """The reading resolution in pixels per mm."""
    return READ_DPI / MM_PER_INCH


def printed(page: Page) -> Floats:
    """The page as printed at the reading resolution: 1 for white paper, 0 for black ink."""
    image = draw_page(page, READ_DPI, Image.Resampling.BOX, quick_joins=True)
    return np.asarray(image, dtype=np.float32) / 255.0


@dataclass(frozen=True)
class Measured:
    """Each item's pencil, in the order of the items measured.

    Attributes:
        pixels: how many of its pixels were read, clear of ink.
        coverage: the share of them that carry pencil; for a line printed as two rules, whose
            channel lies too near the rules to be clear of ink, the share of its channel's
            pixels off the rules (:func:`_channel_coverage`).
        absorb: (n, 3) the mean absorbance of its pencil in each channel: over its pencil
            pixels for areas and boxes; for lines, over the whole band with the print's own
            darkening and the neighbouring spaces' pencil taken off.
        fill: (n, 3) the mean absorbance over all its read pixels, pencil or not: how much
            pencil it carries, free of the bias of choosing pixels by their noise.
        clarity: how clearly the pencil could be seen: 1, but for a line between hatched
            spaces (the light the hatching on its clearer side lets through).
        paper: the paper's white found on the way.
        sides: (n, 4, 3) for lines, the mean optical density of the band on the line's left
            and right (off the print), then of the strips beyond them (zero where no strip was
            seen): what :func:`papergames.photo.colours.read_colours` unmixes.
        texture: how grainy each item's read pixels are, as a multiple of bare paper's grain:
            hatching is far grainier than paper; a shadow is not.
        core: for a hatched area, the share of pencil pixels in its core, farther than
            :data:`OVERFLOW_MM` from its border, where no neighbour's hatching reaches: the
            median over the core's cells (NaN where the core is smaller than
            :data:`CORE_LEAST_MM2`, and for other items).
        core_area: the area, in mm², over which each item's core was read.
        core_fill: for a hatched area, the :func:`~papergames.photo.mixtures.darkness` of the
            mean absorbance over its core's read pixels, pencil or not (NaN where
            :attr:`core` is): whether a darkening lies over the whole space or only round its
            rim, where the neighbours' overflow lies.
        stroke: (n, 3) for a line printed as one grey stroke, the mean absorbance of the pencil
            over the stroke itself, the print's own darkening divided out (NaN for other
            items; :func:`_on_stroke`).
        core_tint: (n, 3) for a hatched area, the tint of its core's absorbance, pencil or
            not (an absorbance less its grey part): the mean's over the core's read pixels or
            the median over its cells of each cell's, whichever is less (NaN where
            :attr:`core` is). A pencil too faint for the detector still tints its core as a
            whole and cell by cell; a neighbour's stray stroke across a few cells tints only
            the whole, and a hard photo's colour run in from the hatching round the core
            (its printed number left aside) only most cells.
        edge_share: for a hatched area whose core is too small to settle it, the largest
            share of its pencil that lies along one edge of its outline
            (:func:`papergames.photo.rims.edge_share`): near 1 for a neighbour's overflow (NaN
            for other items, and with no pencil).
        outer: (n, 2, 3) for lines, the mean optical density between the band and the strip
            on each side (:attr:`Regions.outers`; NaN where not seen, and for other items):
            where a trace laid beside the stroke lies.
        middle: for lines, the pencil traced along the line's middle (:attr:`Regions.middles`),
            where no crossing line's trace reaches, found as :attr:`absorb` is over the whole
            band: the largest channel of either side's (NaN for other items, and where the
            middle was not seen).
    """

    pixels: NDArray[np.int64]
    coverage: NDArray[np.float64]
    absorb: NDArray[np.float64]
    fill: NDArray[np.float64]
    clarity: NDArray[np.float64]
    paper: Paper
    sides: NDArray[np.float64] | None = None
    texture: NDArray[np.float64] | None = None
    core: NDArray[np.float64] | None = None
    core_area: NDArray[np.float64] | None = None
    core_fill: NDArray[np.float64] | None = None
    stroke: NDArray[np.float64] | None = None
    core_tint: NDArray[np.float64] | None = None
    edge_share: NDArray[np.float64] | None = None
    outer: NDArray[np.float64] | None = None
    middle: NDArray[np.float64] | None = None


DETECT_SIGMA_MM = 0.25
"""Spread of the smoothing that pencil is detected on: it merges a hatching's strokes and gaps
and quiets the sensor's noise, so faint pencil in a dim photo still shows, while the colour is
taken from the lightly smoothed page, pixel by pixel."""


def measure(
    page_pixels: NDArray[np.uint8],
    ink: Floats,
    items: Sequence[ReadItem],
    px_per_mm: float,
    *,
    blur_px: float,
    plan: Plan | None = None,
) -> Measured:
    """Measure every item's pencil on a rectified page.

    Args:
        page_pixels: the rectified page, RGB, at ``px_per_mm``.
        ink: the page as printed (:func:`printed`), the same size.
        items: what to measure.
        px_per_mm: the resolution of both.
        blur_px: the photo's blur as a Gaussian spread in page pixels.
        plan: where to read, if already worked out by :func:`plan_measure` from the same
            ``ink``, ``items``, resolution and blur.
    """
    clear, regions, taken = (
        plan if plan is not None else plan_measure(ink, items, px_per_mm, blur_px)
    )
    smooth = smoothed(page_pixels)
    wider = partial(smoothed, smooth, max(0.5, DETECT_SIGMA_MM * px_per_mm))
    with meanwhile(wider) as detected:
        grain = grain_of(smooth, px_per_mm, clear)
        paper = paper_of(smooth, clear, px_per_mm, clear & ~taken, grain)
        paper = _along_streak(paper, smooth, clear, px_per_mm)
        detect = detected()
    count = len(items)
    lines = [k for k, item in enumerate(items) if item.sampling == Sampling.LINE]
    channelled = np.array([False, *(item.channel > 0 for item in items)])
    traced_lines = partial(
        _traced_lines, smooth, paper, ink, (regions, clear, channelled), blur_px, px_per_mm
    )
    with meanwhile(traced_lines if lines else lambda: None) as lines_traced:
        in_area = np.flatnonzero(clear & (regions.areas > 0))
        in_band = np.flatnonzero(clear & (regions.bands > 0))
        read = np.concatenate([in_area, in_band])
        owner = np.concatenate(
            [regions.areas.ravel()[in_area] - 1, (regions.bands.ravel()[in_band] + 1) // 2 - 1]
        ).astype(np.int64)
        white = _rows(paper.white, read)
        pencil = _pencil(detect, read, white, paper.noise(detect))
        absorb = _absorbance(smooth, read, white)
        pixels = np.bincount(owner, minlength=count)
        pencil_owner = _kept(owner, pencil)
        covered = np.bincount(pencil_owner, minlength=count)
        mean = _sums(pencil_owner, _kept(absorb, pencil), count) / np.maximum(covered, 1)[:, None]
        fill = _sums(owner, absorb, count) / np.maximum(pixels, 1)[:, None]
        coverage = covered / np.maximum(pixels, 1)
        core, core_area, core_fill, core_tint = _core_coverage(
            items, ink.shape, px_per_mm, in_area, (pencil[: in_area.size], absorb[: in_area.size])
        )
        on_area = pencil[: in_area.size]
        edges = _edge_shares(
            items,
            (coverage, core_area),
            (_kept(in_area, on_area), _kept(owner[: in_area.size], on_area)),
            ink.shape[1],
            px_per_mm,
        )
        traced = lines_traced()
    clarity = np.ones(count, dtype=np.float64)
    stroke: NDArray[np.float64] | None = None
    sides: NDArray[np.float64] | None = None
    outer: NDArray[np.float64] | None = None
    middle: NDArray[np.float64] | None = None
    if traced is not None:
        mean[lines] = traced.absorb[lines]
        fill[lines] = traced.absorb[lines]
        clarity[lines] = traced.seen[lines]
        stroke, sides, outer, middle = traced.stroke, traced.sides, traced.outer, traced.middle
        coverage[channelled[1:]] = traced.coverage[channelled[1:]]
    bare = grain[::NOISE_STRIDE, ::NOISE_STRIDE][paper.bare]
    plain = float(np.mean(bare)) if bare.size >= 100 else float(np.median(grain))
    texture = np.bincount(owner, weights=grain.ravel()[read], minlength=count) / np.maximum(
        pixels, 1
    )
    texture = texture / max(plain, 1e-3)
    return Measured(
        pixels,
        coverage,
        mean,
        fill,
        clarity,
        paper,
        sides,
        texture,
        core,
        core_area,
        core_fill,
        stroke,
        core_tint,
        edges,
        outer,
        middle,
    )


class _TracedLines(NamedTuple):
    """What :func:`_traced_lines` finds, one row per item (only the lines' rows are used):
    the pencil's absorbance traced along each line, the share of the line seen, the stroke's
    absorbance where it shows beside the print (NaN in a channel), each line's sides
    (:func:`_line_sides`) and, for a line printed with a channel, the share of its channel
    carrying pencil (:func:`_channel_coverage`; 0 for other items)."""

    absorb: NDArray[np.float64]
    seen: NDArray[np.float64]
    stroke: NDArray[np.float64]
    sides: NDArray[np.float64]
    coverage: NDArray[np.float64]
    outer: NDArray[np.float64]
    middle: NDArray[np.float64]


def _traced_lines(
    smooth: Floats,
    paper: Paper,
    ink: Floats,
    where: tuple[Regions, Mask, NDArray[np.bool_]],
    blur_px: float,
    px_per_mm: float,
) -> _TracedLines:
    """The pencil along the traced lines, against the print's own darkening there. It needs
    nothing of the spaces' pencil, so :func:`measure` works it out meanwhile.

    Args:
        smooth: the rectified page, smoothed (:func:`~papergames.photo.paper.smoothed`).
        paper: the paper's white on it, streak included.
        ink: the page as printed, the same size.
        where: the items' regions, the pixels clear of ink, and whether each item is a line
            printed with a channel (its index shifted by one, as in the regions' labels: the
            first entry stands for no item).
        blur_px: the photo's blur in page pixels.
        px_per_mm: the page's resolution.
    """
    regions, clear, channelled = where
    count = len(channelled) - 1
    level = _black_level(smooth, paper, ink, blur_px)
    in_channel = channelled[(regions.bands + 1) // 2] & (regions.bands > 0)
    strips = _strip_pixels(regions, clear, 2 * count + 1)
    light = _print_light(ink * (1.0 - level) + level, blur_px)
    traced, seen, stroke, beyond = _line_absorbance(smooth, paper, light, regions, strips, count)
    middle = _middle_trace(smooth, paper, light, regions, beyond, count)
    sides = _line_sides(
        smooth, paper, ink, regions, beyond, count, blur_px, px_per_mm, (in_channel, light)
    )
    floor = _channel_floor(traced[channelled[1:]], _paper_cast(paper))
    traced[channelled[1:]] -= floor
    sides[channelled[1:], 0:2] += np.log(np.maximum(1.0 - floor, 0.05))
    stroke[channelled[1:]] = np.nan
    coverage = _channel_coverage(smooth, paper, light, regions, in_channel, count)
    outer = _outer_bands(smooth, paper, ink, regions, count, blur_px, px_per_mm)
    return _TracedLines(traced, seen, stroke, sides, coverage, outer, middle)


def _channel_coverage(
    smooth: Floats,
    paper: Paper,
    light: Floats,
    regions: Regions,
    in_channel: Mask,
    count: int,
) -> NDArray[np.float64]:
    """For each line printed as two rules with a channel between them, the share of its band's
    pixels off the rules (where the print, blurred as the photo is, lets :data:`ON_STROKE` of
    the light through) that carry pencil, found as :func:`_pencil` finds it against the paper's
    white dimmed by the print there; 0 for every other item. The page is read only smoothed, not
    smoothed wider as pencil is found in spaces: that would spread the rules into the channel.

    The whole channel lies nearer the rules than pixels clear of ink may
    (:func:`clear_of_ink`), so the coverage read with the spaces' pixels would be 0 for every
    such line, traced or not.
    """
    at = np.flatnonzero(in_channel & (light >= ON_STROKE))
    owner = (regions.bands.ravel()[at] + 1) // 2 - 1
    dimmed = _rows(paper.white, at) * light.ravel()[at][:, None]
    pencil = _pencil(smooth, at, dimmed, paper.noise(smooth))
    pixels = np.bincount(owner, minlength=count)
    covered = np.bincount(_kept(owner, pencil), minlength=count)
    return np.asarray(covered / np.maximum(pixels, 1), dtype=np.float64)


class Plan(NamedTuple):
    """Where :func:`measure` reads a page, worked out from its print and its items alone, not
    from the photo's pixels: so it can be worked out while the photo is still being compared
    with the print.

    Attributes:
        clear: the pixels clear of printed ink (:func:`clear_of_ink`).
        regions: where each item is read (:func:`item_regions`).
        taken: the pixels near any item, left out of the bare paper whose white is learnt.
    """

    clear: Mask
    regions: Regions
    taken: Mask


def plan_measure(ink: Floats, items: Sequence[ReadItem], px_per_mm: float, blur_px: float) -> Plan:
    """Where :func:`measure` reads the page printed as ``ink``, in a photo blurred by
    ``blur_px`` pixels."""
    clear = clear_of_ink(ink, px_per_mm, blur_px)
    blur_mm = blur_px / px_per_mm
    regions = item_regions(items, ink.shape, px_per_mm, band_half_width(blur_mm), blur_mm)
    taken = _near(
        _footprint(items, ink.shape, px_per_mm) | (regions.bands > 0) | (regions.strips > 0),
        round(OVERFLOW_MM * px_per_mm),
    )
    return Plan(clear, regions, taken)


def _edge_shares(
    items: Sequence[ReadItem],
    measured: tuple[NDArray[np.float64], NDArray[np.float64]],
    pencil: tuple[NDArray[np.intp], NDArray[np.int64]],
    width: int,
    px_per_mm: float,
) -> NDArray[np.float64]:
    """:attr:`Measured.edge_share` for every area whose core is too small to settle it
    (:data:`~papergames.photo.colours.CORE_SETTLES_MM2`) and that may be found empty (its
    coverage, the first of ``measured``, under what is surely hatched), from the areas' pencil
    pixels: their flat indices on a page ``width`` pixels wide, and the item each belongs to."""
    coverage, core_area = measured
    at, owner = pencil
    shares = np.full(len(items), np.nan)
    asked = np.array(
        [
            item.sampling == Sampling.AREA
            and core_area[k] < CORE_SETTLES_MM2
            and coverage[k] < PRESENCE["area"][1]
            for k, item in enumerate(items)
        ]
    )
    if not asked.any():
        return shares
    mine = asked[owner]
    at, owner = at[mine], owner[mine]
    order, bounds = _grouped(owner, 0, len(items))
    for k in np.flatnonzero(asked).tolist():
        if bounds[k] == bounds[k + 1]:
            continue
        item = items[k]
        rows, cols = np.divmod(at[order[bounds[k] : bounds[k + 1]]], width)
        points = np.column_stack([cols + 0.5, rows + 0.5]) / px_per_mm
        shares[k] = edge_share(item.geometry, points, OVERFLOW_MM)
    return shares


def _grouped(
    owner: NDArray[np.int64], first: int, count: int
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """The positions in ``owner`` sorted by owner, and where each owner's run begins among them:
    owner ``first + k`` holds ``order[bounds[k] : bounds[k + 1]]``, for ``k`` below ``count``.

    Example:
        >>> order, bounds = _grouped(np.array([2, 0, 2, 1]), 0, 3)
        >>> order.tolist(), bounds.tolist()
        ([1, 3, 0, 2], [0, 1, 2, 4])
    """
    order = np.argsort(owner, kind="stable")
    return order, np.searchsorted(owner[order], np.arange(first, first + count + 1))


def _along_streak(paper: Paper, smooth: Floats, clear: Mask, px_per_mm: float) -> Paper:
    """The paper's white darkened along a photocopier's streak, when the page shows one
    (:mod:`papergames.photo.streaks`, looked for at half the resolution): the streak is the
    paper's, not pencil."""
    edge = round(PAGE_EDGE_MM * px_per_mm)
    inside = np.zeros_like(clear)
    inside[edge : clear.shape[0] - edge, edge : clear.shape[1] - edge] = True
    size = (clear.shape[1] // 2, clear.shape[0] // 2)
    summed = np.ones((1, 3), dtype=np.float32)
    level = cv2.transform(cv2.resize(smooth, size, interpolation=cv2.INTER_AREA), summed)
    white = cv2.transform(cv2.resize(paper.white, size, interpolation=cv2.INTER_AREA), summed)
    seen = cv2.resize((clear & inside).astype(np.float32), size, interpolation=cv2.INTER_AREA)
    darkening = np.asarray(1.0 - level / np.maximum(white, 1.0), dtype=np.float32)
    streak = find_streak(darkening, seen > 0.999, px_per_mm / 2)
    if streak is None:
        return paper
    return replace(paper, white=darkened_along(paper.white, streak, px_per_mm))


CORE_LEAST_MM2 = 4.0
"""Least core, in mm² of read pixels, whose coverage is told (:attr:`Measured.core`)."""
CORE_CELL_MM = 2.0
"""Side of the square cells a core is told in: hatching, even a light hand's with strokes 1.5 mm
apart, crosses most cells; a stray touch or the tip of a neighbour's stroke only a few."""


def _core_coverage(
    items: Sequence[ReadItem],
    shape: tuple[int, ...],
    px_per_mm: float,
    at: NDArray[np.intp],
    read: tuple[NDArray[np.bool_], Floats],
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Each hatched area's coverage over its core (:attr:`Measured.core`), the core's read
    area in mm² (:attr:`Measured.core_area`), its mean darkening (:attr:`Measured.core_fill`)
    and its tint (:attr:`Measured.core_tint`), from the area pixels read at flat indices
    ``at``, whether each carries pencil and its absorbance (``read``): the coverage is the
    median over the :data:`CORE_CELL_MM` cells the core is cut into (a cell counts when a
    quarter of it or more is read), and the tint the lesser of the core's mean tint and its
    cells' median.

    An empty space between hatched ones carries its neighbours' overflow round its rim, up to
    a third of it on a small space; a lightly hatched one carries as little over its whole. In
    the core only the space's own pencil lies, and a stray touch there covers only a few cells.
    Two cores lie at least twice their inset apart, so no cell holds two.
    """
    height, width = shape[:2]
    cores = np.zeros((height, width), dtype=np.int32)
    for k, item in enumerate(items):
        if item.sampling == Sampling.AREA:
            _fill(cores, item.geometry.buffer(-OVERFLOW_MM), k + 1, px_per_mm)
    pencil, absorb = read
    owner = cores.ravel()[at]
    inner = owner > 0
    side = max(1, round(CORE_CELL_MM * px_per_mm))
    columns = -(-width // side)
    rows, cols = np.divmod(_kept(at, inner), width)
    cell = (rows // side) * columns + cols // side
    cells = columns * -(-height // side)
    pixels = np.bincount(cell, minlength=cells)
    covered = np.bincount(cell, weights=_kept(pencil, inner), minlength=cells)
    cell_owner = np.zeros(cells, dtype=np.int64)
    inside = _kept(owner, inner).astype(np.int64)
    cell_owner[cell] = inside
    counted = np.flatnonzero(pixels >= side * side / 4)
    core = np.full(len(items), np.nan)
    core_fill = np.full(len(items), np.nan)
    total = np.bincount(cell_owner[counted], weights=pixels[counted], minlength=len(items) + 1)
    by_owner, bounds = _grouped(cell_owner[counted], 1, len(items))
    order = counted[by_owner]
    least = CORE_LEAST_MM2 * px_per_mm**2
    told = np.flatnonzero(total[1:] >= least)
    absorb_there = _kept(absorb, inner)
    darkening = _sums(inside, absorb_there, len(items) + 1)[1:]
    read_there = np.bincount(inside, minlength=len(items) + 1)[1:]
    mean_there = darkening[told] / np.maximum(read_there[told], 1)[:, None]
    core_fill[told] = darkness(mean_there)
    cell_mean = _sums(cell, absorb_there, cells) / np.maximum(pixels, 1)[:, None]
    cell_tint = cell_mean - cell_mean.mean(axis=1, keepdims=True)
    core_tint = np.full((len(items), 3), np.nan)
    core_tint[told] = mean_there - mean_there.mean(axis=1, keepdims=True)
    for k in told.tolist():
        mine = order[bounds[k] : bounds[k + 1]]
        core[k] = float(np.median(covered[mine] / pixels[mine]))
        typical = np.median(cell_tint[mine], axis=0)
        if np.linalg.norm(typical) < np.linalg.norm(core_tint[k]):
            core_tint[k] = typical
    return core, total[1:] / px_per_mm**2, core_fill, core_tint


def _print_light(photographed: Floats, blur_px: float) -> Floats:
    """The share of the paper's light the print lets through at each pixel, blurred as the photo
    is: inside a two-rule line's channel, the paper's white as the rules' edges leave it."""
    return np.asarray(cv2.GaussianBlur(photographed, (0, 0), max(0.3, blur_px)), dtype=np.float32)


def _black_level(smooth: Floats, paper: Paper, ink: Floats, blur_px: float) -> float:
    """The level of solid black print as a share of the paper's white in this photo (a scanner
    or camera never renders black as 0): a grey print's level follows from it."""
    radius = max(1, round(2.0 * blur_px) + 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    solid = cv2.erode((ink <= 0.05).astype(np.uint8), disc) > 0
    if int(solid.sum()) < 200:
        return 0.0
    seen = channel_mean(smooth[solid]) / np.maximum(channel_mean(paper.white[solid]), 1.0)
    return float(np.clip(np.median(seen), 0.0, 0.5))


OVERFLOW_MM = 2.5
"""How far pencil may stray past an item's border: hatching runs up to 2 mm over it. Paper is
first measured only farther than this from every item."""


def _footprint(items: Sequence[ReadItem], shape: tuple[int, ...], px_per_mm: float) -> Mask:
    """Where the items themselves lie (areas and boxes whole, not less their rim)."""
    mask = np.zeros(shape[:2], dtype=np.uint8)
    for item in items:
        if item.sampling != Sampling.LINE:
            _fill(mask, item.geometry, 1, px_per_mm)
    return np.asarray(mask > 0, dtype=np.bool_)


def _rows(image: Floats, at: NDArray[np.intp]) -> Floats:
    """The pixels of an ``(h, w, 3)`` image at flat indices ``at``, one row each: the same as
    ``image.reshape(-1, 3)[at]`` in a third of the time, on the millions of pixels read."""
    return np.take(image.reshape(-1, 3), at, axis=0)


def _kept(values: NDArray[Any], mask: NDArray[np.bool_]) -> NDArray[Any]:
    """``values[mask]`` along the first axis, in a quarter of the time numpy takes to index
    millions of rows with a mask."""
    return np.compress(mask, values, axis=0)


def _sums(
    owner: NDArray[np.int64], values: NDArray[np.floating[Any]], count: int
) -> NDArray[np.float64]:
    """Per owner, the sum of each column of ``values``."""
    return np.stack(
        [np.bincount(owner, weights=values[:, c], minlength=count) for c in range(3)], axis=1
    )


def print_blur(grey: Floats, ink: Floats, squares: Sequence[tuple[int, int, int, int]]) -> float:
    """The photo's blur as a Gaussian spread in page pixels, measured on the corner markers.

    Around each marker the print, blurred by each candidate spread and scaled to the photo's
    levels, is compared with the photo; the spread that fits best wins, and the median over the
    markers is the page's. The markers' edges are where the page is best registered, and they are
    sharp black on white, so the fit is not fooled by pencil or by a slightly shifted line.

    Args:
        grey: the rectified page's grey levels.
        ink: the page as printed (:func:`printed`).
        squares: each marker's window as ``(top, bottom, left, right)`` pixels.
    """
    fits = [
        _blur_fit(grey[top:bottom, left:right], ink[top:bottom, left:right])
        for top, bottom, left, right in squares
        if bottom > top and right > left
    ]
    return float(np.median(fits)) if fits else 1.0


_BLURS = np.geomspace(0.3, 12.0, 24)


def _blur_fit(grey: Floats, ink: Floats) -> float:
    """The candidate spread whose blurred print, scaled and offset to fit (least squares),
    leaves the smallest residual against the photo: for a straight-line fit that residual is
    the photo's variance less the share the model explains, ``S_xx - S_xy**2 / S_yy``."""
    target = grey.ravel().astype(np.float64)
    target -= target.mean()
    total = float(target @ target)
    errors = []
    for sigma in _BLURS:
        model = cv2.GaussianBlur(ink, (0, 0), float(sigma)).ravel().astype(np.float64)
        model -= model.mean()
        spread = float(model @ model)
        errors.append(total - float(model @ target) ** 2 / spread if spread > 1e-9 else math.inf)
    best = int(np.argmin(errors))
    return float(_BLURS[best])


def clear_of_ink(ink: Floats, px_per_mm: float, blur_px: float) -> Mask:
    """Pixels with no printed ink within :data:`INK_MARGIN_MM` and twice the blur, away from
    the paper's edges."""
    radius = max(1, round(INK_MARGIN_MM * px_per_mm + 2.0 * blur_px))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    white = (ink >= INK_LEVEL).astype(np.uint8)
    clear = cv2.erode(white, disc, borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0
    edge = round(PAGE_EDGE_MM * px_per_mm)
    clear[:edge] = clear[-edge:] = False
    clear[:, :edge] = clear[:, -edge:] = False
    return np.asarray(clear, dtype=np.bool_)


def _near(mask: Mask, radius: int) -> Mask:
    """The mask grown by ``radius`` pixels (a square's reach: quicker than a disc's, and a
    little wider)."""
    if radius <= 0:
        return mask
    disc = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * radius + 1, 2 * radius + 1))
    return np.asarray(cv2.dilate(mask.astype(np.uint8), disc) > 0, dtype=np.bool_)


@dataclass(frozen=True)
class Regions:
    """Where each item is read, as label images over the page (0: no item).

    Attributes:
        areas: ``k + 1`` inside area or box ``k`` (less its rim).
        bands: ``2 k + 1`` on the left of line ``k`` within its band, ``2 k + 2`` on its right.
        strips: the same labels, on a strip beyond each side of the band, where a hatched
            neighbouring space shows its pencil but the traced line does not reach.
        outers: the same labels, between the band and the strip, along the line less
            :data:`OUTER_END_MM` at each end: where a trace laid beside the line's stroke lies.
        middles: the bands along the line less :data:`OUTER_END_MM` at each end, where no
            crossing line's trace reaches.
    """

    areas: Labels
    bands: Labels
    strips: Labels
    outers: Labels
    middles: Mask


LIGHT_POWER = 2.0
PRINT_SLACK_MM = 0.12
"""Extra spread given to the print before a line's band is read off it: the registration of a
photo is good to about this."""
OFF_PRINT = 0.95
"""A traced line's pencil is read only where the print, blurred as the photo is, is this near
white: on the printed line itself its level is not known well enough to name the colour."""
STRIP_MM = (1.8, 3.0)
"""Distances from a line between which its strips lie."""


def band_half_width(blur_mm: float) -> float:
    """Half width of the band read along a traced line in a photo of this blur: the trace's
    own (:data:`~papergames.photo.items.LINE_HALF_WIDTH_MM`), widened by the blur that spreads
    it (a blurred trace narrowly read is mostly the print's edge and noise).

    Example:
        >>> band_half_width(0.0), band_half_width(0.2)
        (0.8, 1.0)
    """
    return LINE_HALF_WIDTH_MM + BAND_BLUR * blur_mm


BAND_BLUR = 1.0
"""How much a line's band widens, either side, per mm of the photo's blur."""
CHANNEL_LEAST_MM = 0.1
"""Narrowest half width read inside a two-rule line's channel, however blurred the photo."""


def channel_half_width(channel: float, blur_mm: float) -> float:
    """Half width of the band read down the white channel of a line printed as two rules: the
    channel's own, less what the photo's registration and blur bring of the rules into it. The
    pencil there lies on white paper whatever a photocopier made of the rules.

    Example:
        >>> round(channel_half_width(0.8, 0.1), 2), channel_half_width(0.8, 1.0)
        (0.18, 0.1)
    """
    return max(CHANNEL_LEAST_MM, channel / 2 - PRINT_SLACK_MM - blur_mm)


def item_regions(
    items: Sequence[ReadItem],
    shape: tuple[int, ...],
    px_per_mm: float,
    half_width: float = LINE_HALF_WIDTH_MM,
    blur_mm: float = 0.0,
) -> Regions:
    """The label images of :class:`Regions` for ``items`` on a page of ``shape`` pixels, lines'
    bands ``half_width`` mm either side (inside the channel of a line printed as two rules:
    :func:`channel_half_width` of a photo blurred by ``blur_mm``).

    Bands overlap where lines run close or cross; a pixel there goes to the nearest line.
    """
    height, width = shape[:2]
    areas = np.zeros((height, width), dtype=np.int32)
    bands = np.zeros((height, width), dtype=np.int32)
    strips = np.zeros((height, width), dtype=np.int32)
    outers = np.zeros((height, width), dtype=np.int32)
    middles = np.zeros((height, width), dtype=np.bool_)
    lines = [(k, item) for k, item in enumerate(items) if item.sampling == Sampling.LINE]
    for k, item in enumerate(items):
        if item.sampling != Sampling.LINE:
            _fill(areas, item.region, k + 1, px_per_mm)
    if not lines:
        return Regions(areas, bands, strips, outers, middles)
    nearest, distance = _nearest_line(lines, (height, width), px_per_mm)
    for k, item in lines:
        half = channel_half_width(item.channel, blur_mm) if item.channel else half_width
        _paint_line((bands, strips, outers, middles), k, item, nearest, distance, px_per_mm, half)
    return Regions(areas, bands, strips, outers, middles)


OUTER_END_MM = 2.5
"""Length left out at each end of a line's outer band (:attr:`Regions.outers`): a crossing
line's trace laid beside its own stroke reaches this far from it."""


def _paint_line(
    labels: tuple[Labels, Labels, Labels, Mask],
    k: int,
    item: ReadItem,
    nearest: Labels,
    distance: Floats,
    px_per_mm: float,
    half_width: float,
) -> None:
    """Label line ``k``'s band, strips and outer bands, each side apart, on the pixels nearest
    to it, and mark its band away from its ends (``labels``: the bands, strips, outers and
    middles of :class:`Regions`)."""
    bands, strips, outers, middles = labels
    line = item.geometry
    assert isinstance(line, LineString)
    middle = trimmed(line)
    reach = STRIP_MM[1]
    x0, y0, x1, y1 = middle.bounds
    window = _window((x0 - reach, y0 - reach, x1 + reach, y1 + reach), px_per_mm, bands.shape)
    if window is None:
        return
    top, bottom, left, right = window
    span = np.zeros((bottom - top, right - left), dtype=np.uint8)
    _fill(span, middle.buffer(reach, cap_style="flat"), 1, px_per_mm, offset=(left, top))
    _fill(span, middle.buffer(reach + 1.0, single_sided=True), 2, px_per_mm, offset=(left, top))
    mine = (nearest[top:bottom, left:right] == k + 1) & (span > 0)
    far = distance[top:bottom, left:right] / px_per_mm
    side = np.where(span == 2, 2 * k + 1, 2 * k + 2).astype(np.int32)
    band = mine & (far <= half_width)
    strip = mine & (far >= STRIP_MM[0]) & (far <= STRIP_MM[1])
    bands[top:bottom, left:right][band] = side[band]
    strips[top:bottom, left:right][strip] = side[strip]
    if line.length <= 2 * OUTER_END_MM + 1.0:
        return
    along = substring(line, OUTER_END_MM, line.length - OUTER_END_MM)
    if not isinstance(along, LineString):
        return
    span[:] = 0
    _fill(span, along.buffer(reach, cap_style="flat"), 1, px_per_mm, offset=(left, top))
    outer = mine & (span > 0) & (far > half_width) & (far < STRIP_MM[0])
    outers[top:bottom, left:right][outer] = side[outer]
    middles[top:bottom, left:right] |= band & (span > 0)


def to_pixels(coords: object, px_per_mm: float, offset: tuple[int, int]) -> NDArray[np.int32]:
    """Page mm to OpenCV's fixed-point pixel coordinates (pixel centres at ``(k + 0.5) / s``)."""
    points = np.asarray(coords, dtype=np.float64)[:, :2] * px_per_mm - 0.5 - np.array(offset)
    return np.asarray(np.round(points * 16), dtype=np.int32)


def _fill(
    image: NDArray[np.int32] | NDArray[np.uint8],
    shape: BaseGeometry,
    value: int,
    px_per_mm: float,
    offset: tuple[int, int] = (0, 0),
) -> None:
    for polygon in iter_polygons(shape):
        outer = to_pixels(polygon.exterior.coords, px_per_mm, offset)
        cv2.fillPoly(image, [outer], value, cv2.LINE_8, 4)
        holes = [to_pixels(ring.coords, px_per_mm, offset) for ring in polygon.interiors]
        if holes:
            cv2.fillPoly(image, holes, 0, cv2.LINE_8, 4)


def _window(
    bounds: tuple[float, float, float, float], px_per_mm: float, size: tuple[int, ...]
) -> tuple[int, int, int, int] | None:
    """The pixels ``(top, bottom, left, right)`` covering a box in mm, cut to the page."""
    x0, y0, x1, y1 = bounds
    height, width = size[:2]
    left, top = max(0, int(x0 * px_per_mm) - 2), max(0, int(y0 * px_per_mm) - 2)
    right, bottom = min(width, int(x1 * px_per_mm) + 3), min(height, int(y1 * px_per_mm) + 3)
    if right <= left or bottom <= top:
        return None
    return top, bottom, left, right


def _nearest_line(
    lines: Sequence[tuple[int, ReadItem]], size: tuple[int, int], px_per_mm: float
) -> tuple[Labels, Floats]:
    """For every pixel, ``k + 1`` for the line item ``k`` whose centre line is nearest, and the
    distance to it in pixels."""
    centres = np.zeros(size, dtype=np.int32)
    for k, item in lines:
        points = to_pixels(item.geometry.coords, px_per_mm, (0, 0))
        cv2.polylines(centres, [points], False, k + 1, 1, cv2.LINE_8, 4)
    distance, nearest = cv2.distanceTransformWithLabels(
        (centres == 0).astype(np.uint8), cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL
    )
    owner = np.zeros(int(nearest.max()) + 1, dtype=np.int32)
    owner[nearest[centres > 0]] = centres[centres > 0]
    return np.asarray(owner[nearest], dtype=np.int32), np.asarray(distance, dtype=np.float32)


def _pencil(
    detect: Floats, at: NDArray[np.intp], white: Floats, noise: NDArray[np.float64]
) -> NDArray[np.bool_]:
    """Whether each pixel of ``detect`` at flat indices ``at`` (their paper's whites one row
    each) is pencil: darker than the noise explains by :data:`Z_PENCIL` spreads (over the three
    channels together, so that a coloured pencil stands out in the channels where the noise is
    weak) and by at least :data:`FLOOR` in its most darkened channel.

    The millions of pixels are judged :data:`PENCIL_ROWS` at a time: each one's answer is its
    own, and a block's working arrays stay in the processor's cache, where the whole page's
    did not (a phone photo's 4 million pixels took 100 ms at once and 22 ms in blocks).
    """
    inverse = np.linalg.inv(noise).astype(np.float32)
    found = np.empty(len(at), dtype=np.bool_)
    for rows in _blocks(len(at)):
        found[rows] = _pencil_rows(_rows(detect, at[rows]), white[rows], inverse)
    return found


PENCIL_ROWS = 32768
"""Rows :func:`_pencil` judges, and :func:`_absorbance` works out, at once."""


def _blocks(count: int) -> Iterator[slice]:
    """``count`` rows cut into slices of :data:`PENCIL_ROWS`, the last one shorter."""
    return (slice(start, start + PENCIL_ROWS) for start in range(0, count, PENCIL_ROWS))


def _absorbance(smooth: Floats, at: NDArray[np.intp], white: Floats) -> Floats:
    """The absorbance ``1 - level / white`` of the pixels at flat indices ``at`` (their whites
    one row each), :data:`PENCIL_ROWS` rows at a time, for the reason :func:`_pencil` gives."""
    absorb = np.empty((len(at), 3), dtype=np.float32)
    for rows in _blocks(len(at)):
        absorb[rows] = 1.0 - _rows(smooth, at[rows]) / np.maximum(white[rows], 1.0)
    return absorb


def _pencil_rows(levels: Floats, white: Floats, inverse: Floats) -> NDArray[np.bool_]:
    darkening = white - levels
    terms = (darkening @ inverse) * darkening
    distance = (terms[:, 0] + terms[:, 1]) + terms[:, 2]
    share = darkening / np.maximum(white, 1.0)
    first, second, third = share.T
    most = np.maximum(np.maximum(first, second), third)
    return np.asarray(
        (distance > Z_PENCIL**2) & (most > FLOOR) & (first + second + third > 0),
        dtype=np.bool_,
    )


@dataclass(frozen=True)
class _Strips:
    """The pixels of the lines' outer strips that nothing else covers: their flat indices, the
    side each belongs to, and which sides have enough of them (20 or more) to be measured."""

    at: NDArray[np.intp]
    labels: NDArray[np.int32]
    seen: NDArray[np.bool_]


def _strip_pixels(regions: Regions, clear: Mask, sides: int) -> _Strips:
    """The strips' clear pixels, found once for both line measures."""
    at = np.flatnonzero(clear & (regions.strips > 0))
    labels = regions.strips.ravel()[at]
    return _Strips(at, labels, np.bincount(labels, minlength=sides) >= 20)


CHANNEL_FAINT = 0.3
"""Strength (the largest channel's absorbance) under which a line printed as two rules holds no
trace: a pencil gone over a line two to four times absorbs far more of some colour of light
(half or more on the bench's photos, even a light pencil in a dim one)."""
CHANNEL_FLOOR_MOST = 0.25
"""Most darkening taken as the rules' own in their channel (:func:`_channel_floor`)."""
CHANNEL_FLOOR_LINES = 5
"""Fewest faint lines from which the floor is found."""
NEUTRAL_DEGREES = 15.0
"""Largest angle from grey of a darkening taken as the toner's, not a pencil's."""


def _paper_cast(paper: Paper) -> NDArray[np.float64]:
    """The paper's tint in this photo: how much each channel's log white lies above their mean
    (all 0 for a white balanced as grey)."""
    white = np.log(np.maximum(np.median(paper.white[::8, ::8].reshape(-1, 3), axis=0), 1.0))
    return np.asarray(white - white.mean(), dtype=np.float64)


def _channel_floor(traced: NDArray[np.float64], cast: NDArray[np.float64]) -> NDArray[np.float64]:
    """The darkening the rules' own toner leaves down the channel of every untraced line on this
    page: taken off each such line's reading.

    A photocopier spreads its toner (dot gain) and the camera blurs it, by amounts the reader
    cannot know from the print, so the channel of an empty line reads a little grey, the same
    grey on every line of the page, and more on a copy than on a print. The lines too faint to
    hold a trace show it: their median, when there are :data:`CHANNEL_FLOOR_LINES` of them and
    it is grey (a pencil is coloured, or graphite far darker) and at most
    :data:`CHANNEL_FLOOR_MOST`; else nothing is taken off.

    On a tinted photo the channel's grey is tinted the other way: the camera keeps colour at a
    coarser grain than light (a JPEG halves it each way), so the dark rules beside the channel
    wash out some of its paper's tint, and the channel reads as if it took the paper's ``cast``
    back out. Up to the whole cast is allowed for before the floor is judged grey: a pink-tinted
    copy's channels read 17 degrees from grey, 1 degree once its cast is allowed for.

    Example:
        >>> empty = [[0.05, 0.07, 0.05]] * 6
        >>> traced = [[0.1, 0.3, 0.8]] * 4
        >>> plain = np.zeros(3)
        >>> _channel_floor(np.array(empty + traced), plain).round(2).tolist()
        [0.05, 0.07, 0.05]
        >>> _channel_floor(np.array(traced), plain).tolist()
        [0.0, 0.0, 0.0]
        >>> pink = np.array([0.11, -0.11, 0.0])
        >>> washed = [[0.056, 0.025, 0.042]] * 6
        >>> _channel_floor(np.array(washed + traced), plain).tolist()
        [0.0, 0.0, 0.0]
        >>> _channel_floor(np.array(washed + traced), pink).round(3).tolist()
        [0.056, 0.025, 0.042]
    """
    none = np.zeros(3, dtype=np.float64)
    if len(traced) == 0:
        return none
    faint = traced[traced.max(axis=1) < CHANNEL_FAINT]
    if len(faint) < CHANNEL_FLOOR_LINES:
        return none
    floor = np.clip(np.median(faint, axis=0), 0.0, None)
    if not floor.any() or float(floor.max()) > CHANNEL_FLOOR_MOST:
        return none
    untinted = floor - _washed_cast(floor, cast)
    size = float(np.linalg.norm(untinted))
    grey = degrees(float(untinted @ GREY) / size) if size > 0.0 else 180.0
    return floor if grey <= NEUTRAL_DEGREES else none


def _washed_cast(floor: NDArray[np.float64], cast: NDArray[np.float64]) -> NDArray[np.float64]:
    """The part of ``floor`` that the paper's ``cast`` washed out explains: its share of the cast,
    from none to the whole of it."""
    strength = float(cast @ cast)
    if strength < 1e-6:
        return np.zeros(3, dtype=np.float64)
    share = float(np.clip((floor - floor.mean()) @ cast / strength, 0.0, 1.0))
    return np.asarray(share * cast, dtype=np.float64)


def _line_absorbance(
    smooth: Floats,
    paper: Paper,
    light: Floats,
    regions: Regions,
    strips: _Strips,
    count: int,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Each line's traced pencil, clarity and pencil on its printed stroke (:func:`_on_stroke`):
    per side, the band's mean optical density less the
    strip's, as an absorbance (``light``: the print as photographed, :func:`_print_light`); and
    per side, the strip's mean optical density (0 where the strip was not seen), which
    :func:`_line_sides` reports beside the band's.

    In the band the print, blurred as the photo is, is taken as the level without pencil, so
    the grey line's own darkening drops out and a line a little off its place cancels out
    (what one edge gains the other loses). Pencil layers multiply the light, so their optical
    densities add: a hatched space beside the line shows in its strip as much as in the band,
    and its density is taken off the band's, which leaves the trace's own however dark the
    hatching under it (taking off absorbances instead, as the reader once did, left a trace over
    hatching pulled towards the hatching's colour, and read Arp's lines 5-10 % less often
    right). The sides are weighed by the square of the light the hatching lets through, so
    that a side under dense hatching, where the trace hardly shows, counts little; the larger
    weight is returned as the line's clarity. A side whose strip was not seen (a short line
    whose surroundings are nearer other lines) cannot be cleared of its neighbour's hatching:
    it is left out when the other side was seen, and when neither was, the clarity is 0 and
    the colour read is not sure.
    """
    sides = 2 * count + 1
    at = np.flatnonzero(regions.bands)
    seen = light.ravel()[at]
    ratio = _rows(smooth, at) / np.maximum(_rows(paper.white, at), 1.0)
    labels = regions.bands.ravel()[at]
    over_print = -np.log(np.clip(ratio / np.maximum(seen[:, None], 0.05), 0.02, 1.5))
    strip_ratio = _rows(smooth, strips.at) / np.maximum(_rows(paper.white, strips.at), 1.0)
    strip = _means(strips.labels, 1.0 - strip_ratio, sides)
    strip_density = _means(strips.labels, -np.log(np.clip(strip_ratio, 0.02, 1.5)), sides)
    band_seen = np.bincount(labels, minlength=sides) > 0
    under = np.where(strips.seen[:, None], np.clip(strip, 0.0, 0.9), 0.0)
    below = np.where(strips.seen[:, None], strip_density, 0.0)
    traced = 1.0 - np.exp(-(_means(labels, over_print, sides) - below))
    light = np.where(band_seen, (1.0 - under.max(axis=1)) ** LIGHT_POWER, 0.0)
    weights = light[1:].reshape(count, 2)
    known = strips.seen[1:].reshape(count, 2)
    either: NDArray[np.bool_] = np.asarray(known.any(axis=1), dtype=np.bool_)
    weights = np.where(either[:, None] & ~known, 0.0, weights)
    clarity = np.where(either, weights.max(axis=1), 0.0)
    weights = np.where(either[:, None], weights, light[1:].reshape(count, 2))
    pairs = traced[1:].reshape(count, 2, 3)
    total = np.maximum(weights.sum(axis=1), 1e-6)
    mean = (pairs * weights[:, :, None]).sum(axis=1) / total[:, None]
    stroke = _on_stroke(over_print, seen, labels, count)
    clarity = np.asarray(clarity, dtype=np.float64)
    return np.asarray(mean, dtype=np.float64), clarity, stroke, np.asarray(below, np.float64)


ON_STROKE = 0.8
"""Share of the paper's light the print lets through (blurred as the photo is) under which a
pixel of a line's band lies on the printed stroke."""


def _on_stroke(
    over_print: NDArray[np.floating[Any]],
    passed: Floats,
    labels: NDArray[np.int32],
    count: int,
) -> NDArray[np.float64]:
    """Each line's pencil over its printed stroke, from its band's pixels (their optical density
    over the print, the light the print lets through there, and the band side each lies in):
    the mean absorbance of those on the stroke (NaN where none).

    A line printed as one grey stroke is read in a band either side of it, less the
    neighbours' hatching seen beyond (:func:`_line_absorbance`). Where a space on both sides is
    hatched in the trace's own colour, or darker, the band says little: a pencil's layers
    saturate, and a yellow trace on yellow hatching adds almost nothing to it. On the stroke
    itself the hatching mostly stops at the line, while the trace runs along it, so what the
    stroke carries names the trace's colour (see :func:`papergames.photo.colours.read_colours`,
    which asks it only of a line left in doubt).
    """
    on = passed < ON_STROKE
    owner = (labels[on].astype(np.int64) + 1) // 2
    found = np.bincount(owner, minlength=count + 1)[1:]
    mean = _sums(owner, over_print[on], count + 1)[1:] / np.maximum(found, 1)[:, None]
    absorbance = 1.0 - np.exp(-mean)
    absorbance[found == 0] = np.nan
    return np.asarray(absorbance, dtype=np.float64)


def _middle_trace(
    smooth: Floats,
    paper: Paper,
    light: Floats,
    regions: Regions,
    beyond: NDArray[np.float64],
    count: int,
) -> NDArray[np.float64]:
    """Each line's pencil along its middle (:attr:`Regions.middles`), found as
    :func:`_line_absorbance` finds it over the whole band: per side, the band's optical density
    over the print less the strip's (``beyond``, per side label), as an absorbance; the larger
    side's largest channel (NaN where the middle was not seen)."""
    sides = 2 * count + 1
    at = np.flatnonzero(regions.middles.ravel() & (regions.bands.ravel() > 0))
    labels = regions.bands.ravel()[at]
    ratio = _rows(smooth, at) / np.maximum(_rows(paper.white, at), 1.0)
    seen = np.maximum(light.ravel()[at], 0.05)[:, None]
    over_print = -np.log(np.clip(ratio / seen, 0.02, 1.5))
    found = np.bincount(labels, minlength=sides) > 0
    trace = 1.0 - np.exp(-(_means(labels, over_print, sides) - beyond))
    strength = np.where(found, trace.max(axis=1), np.nan)[1:].reshape(count, 2)
    return np.asarray(np.fmax(strength[:, 0], strength[:, 1]), dtype=np.float64)


def _outer_bands(
    smooth: Floats,
    paper: Paper,
    ink: Floats,
    regions: Regions,
    count: int,
    blur_px: float,
    px_per_mm: float,
) -> NDArray[np.float64]:
    """Each line's mean optical density on each side between its band and its strip
    (:attr:`Regions.outers`), off the print (``(count, 2, 3)``; NaN where none was seen)."""
    spread = max(0.3, blur_px) + PRINT_SLACK_MM * px_per_mm
    seen = cv2.GaussianBlur(ink, (0, 0), spread).ravel()
    at = np.flatnonzero((regions.outers.ravel() > 0) & (seen >= OFF_PRINT))
    labels = regions.outers.ravel()[at]
    density = _density(_rows(smooth, at), _rows(paper.white, at))
    sums = _means(labels, density, 2 * count + 1)
    found = np.bincount(labels, minlength=2 * count + 1) > 0
    sums[~found] = np.nan
    return np.asarray(sums[1:].reshape(count, 2, 3), dtype=np.float64)


def _line_sides(
    smooth: Floats,
    paper: Paper,
    ink: Floats,
    regions: Regions,
    beyond: NDArray[np.float64],
    count: int,
    blur_px: float,
    px_per_mm: float,
    channels: tuple[Mask, Floats],
) -> NDArray[np.float64]:
    """Each line's optical density (``-log`` of the share of light left) on each side: in its
    band, off the printed line, and in the strip beyond, where only the neighbouring space's
    hatching lies (``beyond``, per side, as :func:`_line_absorbance` found it). The band of a
    line printed as two rules lies down its white channel (the first of ``channels``), and is
    read whole against the light that the rules' blurred edges leave there (the second,
    :func:`_print_light`).

    Pencil layers multiply the light, so their densities add: the band holds the trace plus
    some of the neighbours' hatching that ran over the border; the strip, the hatching alone.
    The reader unmixes the two (:mod:`papergames.photo.colours`).
    """
    sides = 2 * count + 1
    spread = max(0.3, blur_px) + PRINT_SLACK_MM * px_per_mm
    seen = cv2.GaussianBlur(ink, (0, 0), spread).ravel()
    in_channel, print_light = channels
    inside = in_channel.ravel()
    at = np.flatnonzero((regions.bands.ravel() > 0) & ((seen >= OFF_PRINT) | inside))
    paper_there = (
        _rows(paper.white, at) * np.where(inside[at], print_light.ravel()[at], 1.0)[:, None]
    )
    band = _means(regions.bands.ravel()[at], _density(_rows(smooth, at), paper_there), sides)
    out = np.zeros((count, 4, 3), dtype=np.float64)
    out[:, 0:2] = band[1:].reshape(count, 2, 3)
    out[:, 2:4] = beyond[1:].reshape(count, 2, 3)
    return out


def _density(levels: Floats, white: Floats) -> NDArray[np.float64]:
    """Optical density of pixels against their paper's white (0 on bare paper)."""
    share = np.clip(levels / np.maximum(white, 1.0), 0.02, 1.5)
    return np.asarray(-np.log(share), dtype=np.float64)


def _means(
    labels: NDArray[np.int32], values: NDArray[np.floating[Any]], count: int
) -> NDArray[np.float64]:
    total = np.bincount(labels, minlength=count).astype(np.float64)
    return _sums(labels.astype(np.int64), values, count) / np.maximum(total, 1.0)[:, None]
