"""Coloured pencil on a printed sheet, as players lay it down: the first half of a synthetic photo.

The photo reader is tested and benchmarked on pages coloured by this model before they are
photographed (:mod:`papergames.photo.camera`), so the model copies what makes real colouring hard
to read rather than what makes it pretty: hatching with white gaps between the strokes at any
angle, strokes that stop short of the border or run over it, light and heavy hands, the grain of
the paper showing through, tally marks of every shape, and stray marks where nothing was meant.

Pencil darkens the paper multiplicatively, as a translucent wax layer does: it tints white
paper, darkens a colour already laid, and never hides black ink. A waxy pencil
(:attr:`Colouring.waxy`) also covers part of a colour laid before it, so the order of the layers
shows. Every random choice is drawn from the generator passed in, so a seed gives the same page.

Example:
    >>> import numpy as np
    >>> from shapely.geometry import box
    >>> page = np.full((120, 120, 3), 255, dtype=np.uint8)  # 30 mm square at 4 px/mm
    >>> colouring = Colouring(areas=[(box(2, 2, 18, 18), PENCILS["red"])])
    >>> out = colour_page(page, 4.0, colouring, np.random.default_rng(1))
    >>> coloured = out[8:72, 8:72, 1] < 255  # the square, 2-18 mm
    >>> bool(0.5 < coloured.mean() < 1.0), bool((out[:, 81:] == 255).all())  # none past 20 mm
    (True, True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.affinity import translate
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from papergames.sheets.geometry import iter_polygons

RGB = tuple[int, int, int]
Floats = NDArray[np.float32]
Points = NDArray[np.float64]

PENCILS: dict[str, RGB] = {
    "red": (202, 62, 60),
    "blue": (52, 92, 168),
    "green": (62, 138, 84),
    "orange": (236, 130, 54),
    "purple": (120, 74, 148),
    "brown": (130, 86, 60),
    "yellow": (242, 206, 66),
    "pink": (232, 130, 166),
    "light blue": (110, 172, 220),
    "graphite": (98, 100, 104),
}
"""Coloured pencils as a firm stroke looks on white paper, duller and lighter than on screen."""

COVERAGE = (0.5, 0.95)
"""Share of an area's inside that a single hatching covers: the white gaps are never all gone,
and a hurried player covers at least half."""
LIGHT_COVERAGE = (0.2, 0.5)
LIGHT_PRESSURE = (0.3, 0.55)
"""A light hand's hatching (:attr:`Colouring.light_chance`): far-apart strokes, pressed lightly,
so that much of each stroke's grain stays paper: a space a child fills in a hurry, or a pale
neutral colour that a player barely touches the paper with."""
OVERFLOW_MM = 2.0
"""Farthest a hatching stroke runs past its area's border (many stop short of it)."""
LINE_BAND_MM = 1.5
"""Farthest a traced line's pencil lies from the printed line: a 1-2 mm band, wobble and ends."""
LINE_BESIDE_MM = 2.5
"""Farthest the pencil of a line traced beside its stroke lies from the printed line: the band
moved up to :data:`BESIDE_OFFSET` of its width to one side."""
TALLY_OVERFLOW_MM = 1.0
"""Farthest a tally mark reaches outside its score box."""
STROKE_WIDTH_MM = (0.3, 0.8)
STROKE_SPACING_MM = (0.5, 1.5)
GRAIN = 0.4
"""How strongly the paper's tooth modulates the pigment it catches (0: flat colour)."""

_SUBPIXEL = 4
"""Fixed-point bits OpenCV draws with, so strokes land between pixel centres."""


@dataclass(frozen=True)
class Colouring:
    """What the players coloured on one page, in page millimetres (y down).

    Attributes:
        areas: spaces hatched in a colour.
        lines: printed lines traced over along their length, in a band 1-2 mm wide.
        tallies: score boxes, each given one tally mark of a random style.
        strays: how many short light marks land at random anywhere on the page.
        dense_chance: the chance that an area is gone over twice, cross-hatched, so that
            it is covered more densely than :data:`COVERAGE` allows for a single hatching.
        light_chance: the chance that an area is hatched once by a light hand
            (:data:`LIGHT_COVERAGE`, :data:`LIGHT_PRESSURE`) rather than as :data:`COVERAGE`
            says; 0 leaves every other choice as it was.
        hurried_chance: the chance that a tally mark is drawn in a hurry, off the box's middle
            and across its border (:func:`_hurried`); 0 leaves every other choice as it was.
        ghost_chance: the chance that a tally mark is pressed so lightly that next to nothing
            of it shows (:data:`GHOST_PRESSURE`): a box a person sees as blank between ticks;
            0 leaves every other choice as it was.
        waxy: how much of a colour laid before it a pencil's full layer covers (0: none, the
            layers only filter the light; 1: a firm stroke hides what lies under it). When it
            is above 0 the lines are traced before the areas are hatched, as Arp and Miro are
            played: a space is captured, and hatched, once the lines round it are coloured, so
            its hatching, and whatever of it runs over the border, lies over their traces.
        pressed: how hard each pencil (by its colour) is pressed, as a share of a usual
            hand's pressure, for the pencils not pressed as usual: a player who presses lightly
            throughout leaves every stroke of theirs, colour box included, pale and grainy.
        beside_chance: the chance that a line is traced beside its printed stroke rather than
            over it (:data:`BESIDE_OFFSET`), on one side chosen at random, as a hand that keeps
            the print in view traces; 0 leaves every other choice as it was.
    """

    areas: Sequence[tuple[Polygon, RGB]] = ()
    lines: Sequence[tuple[LineString, RGB]] = ()
    tallies: Sequence[tuple[Polygon, RGB]] = ()
    strays: int = 0
    dense_chance: float = 0.1
    light_chance: float = 0.0
    hurried_chance: float = 0.0
    ghost_chance: float = 0.0
    waxy: float = 0.0
    pressed: Mapping[RGB, float] = field(default_factory=dict)
    beside_chance: float = 0.0


def colour_page(
    page: NDArray[np.uint8], px_per_mm: float, colouring: Colouring, rng: np.random.Generator
) -> NDArray[np.uint8]:
    """The page with the colouring laid on it in pencil.

    Args:
        page: the flat printed page, RGB (height, width, 3).
        px_per_mm: the page's resolution.
        colouring: what to colour.
        rng: the source of every random choice.

    Returns:
        A new RGB image of the same size; ``page`` is left as it was.
    """
    paper = _Paper(page, px_per_mm, rng, colouring.waxy, colouring.pressed)
    if colouring.waxy > 0.0:
        _trace_lines(paper, colouring, rng)
    for shape, rgb in colouring.areas:
        light = colouring.light_chance > 0.0 and rng.random() < colouring.light_chance
        _hatch_area(
            paper,
            shape,
            rgb,
            rng,
            dense=not light and rng.random() < colouring.dense_chance,
            light=light,
        )
    if colouring.waxy == 0.0:
        _trace_lines(paper, colouring, rng)
    for box, rgb in colouring.tallies:
        hurried = colouring.hurried_chance > 0.0 and rng.random() < colouring.hurried_chance
        ghost = colouring.ghost_chance > 0.0 and rng.random() < colouring.ghost_chance
        shown = _hurried(box, rng) if hurried else box
        _tally(paper, shown, rgb, rng, GHOST_PRESSURE if ghost else 1.0)
    used = [rgb for _, rgb in [*colouring.areas, *colouring.lines, *colouring.tallies]]
    for _ in range(colouring.strays):
        _stray(paper, used or [PENCILS["graphite"]], rng)
    return paper.finished()


def _trace_lines(paper: _Paper, colouring: Colouring, rng: np.random.Generator) -> None:
    chance = colouring.beside_chance
    for line, rgb in colouring.lines:
        beside = chance > 0.0 and rng.random() < chance
        _trace_line(paper, line, rgb, rng, beside)


@dataclass(frozen=True)
class _Window:
    """A rectangle of pixels, ``[y0:y1, x0:x1]``, and the millimetre centre of each pixel in it."""

    x0: int
    y0: int
    x1: int
    y1: int
    px_per_mm: float

    @property
    def empty(self) -> bool:
        return self.x1 <= self.x0 or self.y1 <= self.y0

    @property
    def shape(self) -> tuple[int, int]:
        return self.y1 - self.y0, self.x1 - self.x0

    def centres_mm(self) -> tuple[Floats, Floats]:
        """The x (a row) and y (a column) of the pixel centres, for broadcasting."""
        xs = (np.arange(self.x0, self.x1, dtype=np.float32) + 0.5) / self.px_per_mm
        ys = (np.arange(self.y0, self.y1, dtype=np.float32) + 0.5) / self.px_per_mm
        return xs[None, :], ys[:, None]

    def to_pixels(self, points_mm: Points) -> NDArray[np.int32]:
        """Points in mm as OpenCV's fixed-point pixel coordinates inside the window."""
        px = points_mm * self.px_per_mm - 0.5 - np.array([self.x0, self.y0])
        return np.asarray(np.round(px * (1 << _SUBPIXEL)), dtype=np.int32)


class _Paper:
    """The page being coloured, and the tooth of the paper under it."""

    def __init__(
        self,
        page: NDArray[np.uint8],
        px_per_mm: float,
        rng: np.random.Generator,
        waxy: float,
        pressed: Mapping[RGB, float],
    ) -> None:
        self.printed = page
        self.pixels = page.copy()
        self.waxy = waxy
        self.pressed = pressed
        self.px_per_mm = px_per_mm
        self.height, self.width = page.shape[:2]
        self.tooth = _paper_tooth(px_per_mm, rng)

    def window(self, bounds_mm: tuple[float, float, float, float], margin_mm: float) -> _Window:
        """The pixels within ``margin_mm`` of a box, cut to the page."""
        x0, y0, x1, y1 = bounds_mm
        s = self.px_per_mm
        return _Window(
            max(0, math.floor((x0 - margin_mm) * s)),
            max(0, math.floor((y0 - margin_mm) * s)),
            min(self.width, math.ceil((x1 + margin_mm) * s)),
            min(self.height, math.ceil((y1 + margin_mm) * s)),
            s,
        )

    def lay(self, window: _Window, density: Floats, rgb: RGB) -> None:
        """Lay pigment of ``density`` (0 none, 1 a firm full stroke) over a window's pixels,
        less for a pencil pressed lightly (:attr:`Colouring.pressed`).

        The paper's tooth catches more pigment on its peaks than in its valleys, so the same
        pressure leaves a grainy layer; the layer filters the light (multiplies), so black
        ink stays black and a second layer darkens the first. A waxy layer also covers a share
        of the colour under it (``waxy`` times its deposit): there the pixel is the print with
        this layer alone on it.
        """
        rows, cols = np.nonzero(density > 0.0)
        if rows.size == 0:
            return
        rows_page, cols_page = window.y0 + rows, window.x0 + cols
        side = self.tooth.shape[0]
        tooth = self.tooth[rows_page % side, cols_page % side]
        laid_down = density[rows, cols]
        if rgb in self.pressed:
            laid_down = laid_down * np.float32(self.pressed[rgb])
        deposit = np.clip(laid_down * (1.0 + GRAIN * tooth), 0.0, 1.0)
        absorb = 1.0 - np.asarray(rgb, dtype=np.float32) / 255.0
        under = self.pixels[rows_page, cols_page].astype(np.float32)
        laid = under * (1.0 - deposit[:, None] * absorb)
        if self.waxy > 0.0:
            bare = self.printed[rows_page, cols_page].astype(np.float32)
            alone = bare * (1.0 - deposit[:, None] * absorb)
            covered = (self.waxy * deposit)[:, None]
            laid += (alone - laid) * covered
        laid += 0.5
        self.pixels[rows_page, cols_page] = laid.astype(np.uint8)

    def finished(self) -> NDArray[np.uint8]:
        return self.pixels


def _paper_tooth(px_per_mm: float, rng: np.random.Generator) -> Floats:
    """A tile of the paper's surface roughness, about zero-mean and unit spread, 0.1 mm bumps.

    The tile repeats every few centimetres; under hatching the repeat cannot be seen, and one
    tile is much quicker to make than a page of noise.
    """
    side = 512
    noise = rng.standard_normal((side, side), dtype=np.float32)
    sigma = max(0.4, 0.08 * px_per_mm)
    pad = math.ceil(4 * sigma)
    wrapped = np.pad(noise, pad, mode="wrap")
    smooth = cv2.GaussianBlur(wrapped, (0, 0), sigma)[pad:-pad, pad:-pad]
    spread = float(smooth.std()) or 1.0
    return np.asarray(smooth / spread, dtype=np.float32)


@dataclass(frozen=True)
class _Hatching:
    """One pass of parallel strokes over an area, each stroke with its own hand.

    Strokes run along ``v`` and are spaced along ``u`` (both in mm, turned by ``angle``); the
    arrays hold one value per stroke, stroke ``k`` lying near ``u = phase + k * spacing``.
    """

    angle: float
    spacing: float
    phase: float
    first: int
    widths: Floats
    pressures: Floats
    shifts: Floats
    tilts: Floats
    wobbles: Floats
    wobble_waves: Floats
    overflow_start: Floats
    overflow_end: Floats
    fades: Floats


def _hatch_area(
    paper: _Paper,
    shape: BaseGeometry,
    rgb: RGB,
    rng: np.random.Generator,
    *,
    dense: bool,
    light: bool = False,
) -> None:
    """Hatch an area in one pass, or in two crossing passes when the player went over it (or
    in one light pass, see :data:`LIGHT_COVERAGE`)."""
    window = paper.window(shape.bounds, OVERFLOW_MM + 0.5)
    if window.empty:
        return
    signed = _signed_distance_mm(shape, window)
    angle = rng.uniform(0.0, math.pi)
    passes = [angle, angle + rng.uniform(0.9, 1.6)] if dense else [angle]
    for turn in passes:
        hatching = _plan_hatching(shape, turn, rng, light=light)
        paper.lay(window, _hatching_density(hatching, signed, window, shape), rgb)


def _signed_distance_mm(shape: BaseGeometry, window: _Window) -> Floats:
    """Each pixel's distance to the area's border in mm, negative inside."""
    inside = np.zeros(window.shape, dtype=np.uint8)
    for polygon in iter_polygons(shape):
        exterior = window.to_pixels(np.asarray(polygon.exterior.coords))
        cv2.fillPoly(inside, [exterior], 1, cv2.LINE_8, _SUBPIXEL)
        holes = [window.to_pixels(np.asarray(ring.coords)) for ring in polygon.interiors]
        if holes:
            cv2.fillPoly(inside, holes, 0, cv2.LINE_8, _SUBPIXEL)
    to_outside = cv2.distanceTransform(inside, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
    to_inside = cv2.distanceTransform(1 - inside, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
    signed = np.where(inside > 0, 0.5 - to_outside, to_inside - 0.5)
    return np.asarray(signed / window.px_per_mm, dtype=np.float32)


def _plan_hatching(
    shape: BaseGeometry, angle: float, rng: np.random.Generator, *, light: bool = False
) -> _Hatching:
    """Choose how one pass is drawn: coverage, spacing and widths, and each stroke's hand.

    The coverage is drawn first and the spacing from what that coverage allows, so a pass never
    leaves less than :data:`COVERAGE` (or :data:`LIGHT_COVERAGE`) says, however the width and
    spacing fall.
    """
    coverage = rng.uniform(*(LIGHT_COVERAGE if light else COVERAGE))
    low = max(STROKE_SPACING_MM[0], STROKE_WIDTH_MM[0] / coverage)
    high = min(STROKE_SPACING_MM[1], STROKE_WIDTH_MM[1] / coverage)
    spacing = rng.uniform(low, high)
    width = coverage * spacing
    across, along = _project(shape, angle)
    half_length = max(1.0, float(np.ptp(along)) / 2)
    lean = 0.15 * spacing / half_length
    first = math.floor(across.min() / spacing) - 3
    count = math.ceil(across.max() / spacing) - first + 4
    careful = rng.random() < 0.5
    reach = (-0.6, 0.6) if careful else (-0.3, OVERFLOW_MM - 0.1)
    return _Hatching(
        angle=angle,
        spacing=spacing,
        phase=rng.uniform(0.0, spacing),
        first=first,
        widths=_jitter(rng, width, 0.12 * width, count, STROKE_WIDTH_MM),
        pressures=_jitter(
            rng,
            rng.uniform(*(LIGHT_PRESSURE if light else (0.55, 0.95))),
            0.1,
            count,
            (0.2 if light else 0.35, 1.0),
        ),
        shifts=_jitter(rng, 0.0, 0.12 * (spacing - width), count, (-0.3 * spacing, 0.3 * spacing)),
        tilts=_jitter(rng, 0.0, 0.004, count, (-lean, lean)),
        wobbles=_jitter(rng, 0.06, 0.04, count, (0.0, 0.25 * (spacing - width) + 0.02)),
        wobble_waves=rng.uniform(0.0, 2.0 * math.pi, count).astype(np.float32),
        overflow_start=rng.uniform(*reach, count).astype(np.float32),
        overflow_end=rng.uniform(*reach, count).astype(np.float32),
        fades=rng.uniform(0.0, 0.3, count).astype(np.float32),
    )


def _jitter(
    rng: np.random.Generator, mean: float, spread: float, count: int, limits: tuple[float, float]
) -> Floats:
    return np.clip(rng.normal(mean, spread, count), *limits).astype(np.float32)


def _project(shape: BaseGeometry, angle: float) -> tuple[Points, Points]:
    """The shape's outline points across (``u``) and along (``v``) strokes at ``angle``."""
    coords = np.concatenate([np.asarray(p.exterior.coords) for p in iter_polygons(shape)])
    c, s = math.cos(angle), math.sin(angle)
    return coords[:, 0] * c + coords[:, 1] * s, -coords[:, 0] * s + coords[:, 1] * c


def _hatching_density(
    hatching: _Hatching, signed: Floats, window: _Window, shape: BaseGeometry
) -> Floats:
    """The pigment density of one pass over the window's pixels.

    Each pixel looks at the two strokes either side of it; a stroke is drawn where the pixel is
    within half the stroke's width of its slightly tilted and wavy centre line, and within the
    stroke's own overflow of the border (the stroke's start and end each have one).
    """
    xs, ys = window.centres_mm()
    c, s = math.cos(hatching.angle), math.sin(hatching.angle)
    u = xs * c + ys * s
    v = -xs * s + ys * c
    middle = float(np.mean(_project(shape, hatching.angle)[1]))
    before = v < middle
    nearest = np.floor((u - hatching.phase) / hatching.spacing).astype(np.int64) - hatching.first
    density = np.zeros(window.shape, dtype=np.float32)
    last = len(hatching.widths) - 1
    for step in (0, 1):
        k = np.clip(nearest + step, 0, last)
        centre = (
            hatching.phase
            + (k + hatching.first) * hatching.spacing
            + hatching.shifts[k]
            + hatching.tilts[k] * (v - middle)
            + hatching.wobbles[k] * np.sin(v * 0.9 + hatching.wobble_waves[k])
        )
        across = (hatching.widths[k] * 0.5 - np.abs(u - centre)) * window.px_per_mm + 0.5
        reach = np.where(before, hatching.overflow_start[k], hatching.overflow_end[k]) - signed
        within = np.clip(reach * window.px_per_mm + 0.5, 0.0, 1.0)
        taper = np.clip(0.45 + reach / 1.5, 0.45, 1.0)
        wave = 1.0 - hatching.fades[k] * (0.5 + 0.5 * np.sin(v * 0.35 + hatching.wobble_waves[k]))
        stroke = np.clip(across, 0.0, 1.0) * within * taper * wave * hatching.pressures[k]
        np.maximum(density, stroke, out=density)
    return density


def _pen(paper: _Paper, points_mm: Points, width_mm: float, pressures: Floats, rgb: RGB) -> None:
    """Draw a polyline with a pencil of ``width_mm``, its pressure varying point to point."""
    margin = width_mm + 1.0
    x0, y0 = points_mm.min(axis=0)
    x1, y1 = points_mm.max(axis=0)
    window = paper.window((float(x0), float(y0), float(x1), float(y1)), margin)
    if window.empty:
        return
    canvas = np.zeros(window.shape, dtype=np.uint8)
    pixels = window.to_pixels(points_mm)
    thickness = max(1, round(width_mm * paper.px_per_mm))
    for i in range(len(pixels) - 1):
        level = round(255 * float(pressures[i]))
        start = (int(pixels[i, 0]), int(pixels[i, 1]))
        end = (int(pixels[i + 1, 0]), int(pixels[i + 1, 1]))
        cv2.line(canvas, start, end, level, thickness, cv2.LINE_AA, _SUBPIXEL)
    paper.lay(window, canvas.astype(np.float32) / 255.0, rgb)


def _pressure_along(rng: np.random.Generator, count: int, mean: float) -> Floats:
    """A hand's pressure along a stroke: a slow swell and ebb round ``mean``."""
    t = np.linspace(0.0, 1.0, count)
    swell = 0.15 * np.sin(2 * math.pi * (t * rng.uniform(0.5, 2.0) + rng.random()))
    return np.clip(mean * (1.0 + swell), 0.1, 1.0).astype(np.float32)


BESIDE_OFFSET = (0.35, 0.6)
"""How far a band traced beside its printed stroke lies from it, centre to centre, as a share
of the band's width: its inner edge from just over the stroke to a little clear of it. On the
independent photos a trace often runs along one side of the grey stroke, the stroke showing
at its edge."""


def _trace_line(
    paper: _Paper, line: LineString, rgb: RGB, rng: np.random.Generator, beside: bool = False
) -> None:
    """Go over a printed line two to four times, each pass wandering inside a 1-2 mm band,
    centred on the line or, ``beside`` it, to one side (:data:`BESIDE_OFFSET`).

    A pass may stop up to 1 mm short of either end or run on by half a millimetre.
    """
    if line.length <= 0.0:
        return
    band = rng.uniform(1.0, 2.0)
    shift = 0.0
    if beside:
        shift = float(rng.choice((-1.0, 1.0)) * band * rng.uniform(*BESIDE_OFFSET))
    for _ in range(int(rng.integers(2, 5))):
        width = band * rng.uniform(0.45, 0.75)
        start = rng.uniform(-0.5, 1.0)
        end = line.length - rng.uniform(-0.5, 1.0)
        if end - start < 0.5:
            continue
        points = _along(line, start, end)
        sway = (band - width) / 2 - 0.05
        offsets = shift + sway * np.clip(_smooth_noise(rng, len(points), 12), -1.0, 1.0)
        pressures = _pressure_along(rng, len(points), rng.uniform(0.55, 0.95))
        _pen(paper, points + _normals(points) * offsets[:, None], width, pressures, rgb)


def _along(line: LineString, start: float, end: float) -> Points:
    """Points every half millimetre from ``start`` to ``end`` along a line, run on straight past
    its ends when ``start`` is negative or ``end`` beyond its length."""
    count = max(2, math.ceil((end - start) / 0.5) + 1)
    distances = np.linspace(start, end, count)
    inside = np.clip(distances, 0.0, line.length)
    points = shapely.get_coordinates(shapely.line_interpolate_point(line, inside))
    coords = np.asarray(line.coords, dtype=np.float64)
    for index, anchor, towards in ((0, coords[0], coords[1]), (-1, coords[-1], coords[-2])):
        past = -distances[index] if index == 0 else distances[index] - line.length
        if past > 0.0:
            direction = anchor - towards
            points[index] = anchor + direction / np.linalg.norm(direction) * past
    return np.asarray(points, dtype=np.float64)


def _normals(points: Points) -> Points:
    """The unit normal of a polyline at each of its points."""
    tangent = np.gradient(points, axis=0)
    length = np.linalg.norm(tangent, axis=1, keepdims=True)
    tangent = tangent / np.where(length > 0.0, length, 1.0)
    return np.column_stack([-tangent[:, 1], tangent[:, 0]])


def _smooth_noise(rng: np.random.Generator, count: int, correlation: int) -> Points:
    """Noise of unit spread that changes over about ``correlation`` samples."""
    raw = rng.standard_normal(count + 2 * correlation)
    kernel = np.hanning(2 * correlation + 1)
    smooth = np.convolve(raw, kernel / kernel.sum(), mode="same")[correlation:-correlation]
    spread = float(smooth.std()) if count > 1 else 1.0
    return smooth / (spread or 1.0)


_TALLY_STROKES: dict[str, tuple[tuple[tuple[float, float], ...], ...]] = {
    "tick": (((0.18, 0.55), (0.42, 0.82), (0.86, 0.16)),),
    "cross": (((0.16, 0.16), (0.84, 0.84)), ((0.84, 0.16), (0.16, 0.84))),
    "slash": (((0.2, 0.84), (0.8, 0.16)),),
}
"""Tally marks drawn as strokes, in the score box's own coordinates (0 to 1 across and down)."""
TALLY_STYLES = (*_TALLY_STROKES, "scribble", "circle")


GHOST_PRESSURE = 0.05
"""The share of a tally mark's usual pressure with which a ghost of a tick is laid: so little
pigment that the box reads as bare."""


def _tally(
    paper: _Paper, box: Polygon, rgb: RGB, rng: np.random.Generator, lightness: float = 1.0
) -> None:
    """One tally mark in a random style, inside the box but for a little overflow, pressed
    with ``lightness`` of a usual mark's pressure."""
    style = TALLY_STYLES[int(rng.integers(len(TALLY_STYLES)))]
    x0, y0, x1, y1 = box.bounds
    size = np.array([x1 - x0, y1 - y0])
    width = rng.uniform(0.35, 0.7)
    pressure = rng.uniform(0.7, 1.0) * lightness
    for stroke in _tally_strokes(style, rng):
        jittered = stroke + rng.normal(0.0, 0.05, stroke.shape)
        points = np.array([x0, y0]) + jittered * size
        room = TALLY_OVERFLOW_MM - width / 2
        points = np.clip(points, [x0 - room, y0 - room], [x1 + room, y1 + room])
        _pen(paper, points, width, _pressure_along(rng, len(points), pressure), rgb)


HURRIED_SHIFT = (0.2, 0.35)
"""How far a hurried tally mark lies off its box's middle, as a share of the box's side."""


def _hurried(box: Polygon, rng: np.random.Generator) -> Polygon:
    """The box a hurried tally mark is drawn in: ``box`` moved down, and a little to one side,
    by :data:`HURRIED_SHIFT` of its size, so that the mark runs over the box's lower border and
    leaves only part of itself inside (a tick dashed off low in a row of ticks)."""
    x0, y0, x1, y1 = box.bounds
    down = rng.uniform(*HURRIED_SHIFT) * (y1 - y0)
    across = rng.uniform(-0.15, 0.15) * (x1 - x0)
    return translate(box, across, down)


def _tally_strokes(style: str, rng: np.random.Generator) -> list[Points]:
    """The strokes of a tally mark in box coordinates."""
    if style == "scribble":
        rows = int(rng.integers(4, 8))
        ys = np.linspace(0.22, 0.78, rows) + rng.normal(0.0, 0.03, rows)
        xs = np.where(np.arange(rows) % 2 == 0, 0.2, 0.8) + rng.normal(0.0, 0.04, rows)
        return [np.column_stack([xs, ys])]
    if style == "circle":
        radius = rng.uniform(0.28, 0.4)
        start = rng.uniform(0.0, 2.0 * math.pi)
        turns = np.linspace(start, start + 2.0 * math.pi + rng.uniform(0.2, 0.9), 24)
        squash = rng.uniform(0.85, 1.0)
        return [
            np.column_stack([0.5 + radius * np.cos(turns), 0.5 + squash * radius * np.sin(turns)])
        ]
    return [np.asarray(stroke, dtype=np.float64) for stroke in _TALLY_STROKES[style]]


def _stray(paper: _Paper, colours: Sequence[RGB], rng: np.random.Generator) -> None:
    """A short, light, slightly curved mark anywhere: a slip, a test stroke, a smudge."""
    width_mm, height_mm = paper.width / paper.px_per_mm, paper.height / paper.px_per_mm
    start = rng.uniform([0.0, 0.0], [width_mm, height_mm])
    heading = rng.uniform(0.0, 2.0 * math.pi)
    length = rng.uniform(2.0, 10.0)
    bend = rng.uniform(-0.3, 0.3)
    turns = heading + bend * np.linspace(-1.0, 1.0, 6)
    steps = length / 5 * np.column_stack([np.cos(turns), np.sin(turns)])
    points = start + np.concatenate([[[0.0, 0.0]], np.cumsum(steps[:5], axis=0)])
    colour = colours[int(rng.integers(len(colours)))]
    pressures = _pressure_along(rng, len(points), rng.uniform(0.15, 0.45))
    _pen(paper, points, rng.uniform(0.3, 0.6), pressures, colour)
