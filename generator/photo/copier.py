"""A photocopied handout: the print as a laser printer and then a photocopier leave it.

Teachers mostly hand out photocopies: the sheet printed on a laser printer, copied, coloured by
pupils, then photographed on a phone. The copy changes the print in two ways, made apart:

* its tone (:func:`photocopy`), on the print before any pencil is laid, so that the pencil lies
  over the toner: the laser printer prints grey as a clustered-dot screen of toner (150 lines
  per inch at 45 degrees, each dot a little larger or smaller than it should be), black as solid
  toner; the copier's optics blur a little and its toner spreads (dot gain), so thin lines
  thicken and greys darken, a mid grey nearly to black where the copier prints dark; its toner
  density varies across the page in soft bands (the drum's turn along the paper path, uneven
  charge across it), and a dirty drum or mirror leaves a faint streak along the paper path.
* its place on the paper (:func:`copy_placement`, :func:`lay_copy`): reduced to 97-100 % and
  turned up to 1.5 degrees about the paper's centre, then shifted up to 3 mm along each side.
  Pupils colour the copy they are given, so their pencil follows the copied print: the placement
  is applied to the coloured page, print and pencil together. The ``copy`` tier of
  :mod:`papergames.photo.camera` does so before it photographs the page.

Example:
    >>> import numpy as np
    >>> grey = np.full((200, 200, 3), 128, dtype=np.uint8)
    >>> copy = photocopy(grey, 10.0, np.random.default_rng(1))
    >>> bool(copy.std() > 10), bool(copy.mean() < 128)
    (True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
from numpy.typing import NDArray

from papergames.sheets.units import MM_PER_INCH

Pixels = NDArray[np.uint8]
Floats = NDArray[np.float32]
Matrix = NDArray[np.float64]
Range = tuple[float, float]


@dataclass(frozen=True)
class Copier:
    """A laser printer and a photocopier: each knob is a bound that every copy respects.

    Attributes:
        lpi: the printer's screen ruling, in lines per inch.
        screen_deg: the angle of the screen's rows of dots.
        toner_noise: the spread of the toner's grain, as a share of the tone: dots come out a
            little larger or smaller and rough at their edges.
        blur_mm: the spread (sigma) of the copier's blur, in mm.
        gain: the dot gain, as an exponent ``k``: a coverage ``c`` copies as
            ``1 - (1 - c) ** k`` (1 for none; 2 turns a 50 % grey into 75 %). Black stays black.
        density: how far the toner density departs from the copy's own in its bands, as a share
            of ``k``: the darkest bands turn a mid grey nearly black, the lightest barely darken it.
        drum_mm: the drum's circumference: the bands' period along the paper path.
        streak: the range of the streak's coverage at its core.
        streak_mm: the range of the streak's half width (a Gaussian's spread), in mm.
        black: the range of solid toner's level, as a share of the paper's white.
        scale: the range of the copy's scale.
        turn_deg: the largest turn of the print on the copy's paper.
        shift_mm: the largest shift of the print on the copy's paper, along each side.
    """

    lpi: float = 150.0
    screen_deg: float = 45.0
    toner_noise: float = 0.08
    blur_mm: Range = (0.03, 0.07)
    gain: Range = (1.4, 2.4)
    density: float = 0.35
    drum_mm: Range = (75.0, 95.0)
    streak: Range = (0.04, 0.1)
    streak_mm: Range = (0.2, 0.8)
    black: Range = (0.04, 0.08)
    scale: Range = (0.97, 1.0)
    turn_deg: float = 1.5
    shift_mm: float = 3.0


COPIER = Copier()
"""An office laser printer and copier."""

_CHUNK = 1 << 17
"""Grey pixels screened at a time (each is cut into a few dozen subpixels)."""


def photocopy(
    pixels: Pixels, px_per_mm: float, rng: np.random.Generator, copier: Copier = COPIER
) -> Pixels:
    """The tone of a photocopy of a laser print of ``pixels``, in place on the page.

    Args:
        pixels: the page as drawn, RGB (height, width, 3); any colour is copied as its grey.
        px_per_mm: the page's resolution.
        rng: the source of every random choice.
        copier: the bounds of the printer and copier.

    Returns:
        The copy, RGB and grey, the same size: a flat mid grey becomes dots and darkens, black
        stays black (at solid toner's level), white paper stays white but for the streak.
    """
    grey = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY).astype(np.float32)
    coverage = 1.0 - grey / np.float32(255.0)
    screened = _screen(coverage, px_per_mm, copier, rng)
    blur = rng.uniform(*copier.blur_mm) * px_per_mm
    spread = np.clip(cv2.GaussianBlur(screened, (0, 0), blur), 0.0, 1.0)
    along_rows = bool(rng.random() < 0.5)
    bands = _bands(coverage.shape, px_per_mm, along_rows, copier, rng)
    gain = rng.uniform(*copier.gain) * (1.0 + copier.density * bands)
    gained = 1.0 - (1.0 - spread) ** gain
    streak = _streak(coverage.shape, px_per_mm, along_rows, copier, rng)
    toned = 1.0 - (1.0 - gained) * (1.0 - streak)
    black = rng.uniform(*copier.black)
    level = np.rint(255.0 * (1.0 - toned * (1.0 - black))).astype(np.uint8)
    return np.asarray(cv2.merge([level] * 3), dtype=np.uint8)


def copy_placement(
    size_mm: tuple[float, float], rng: np.random.Generator, copier: Copier = COPIER
) -> Matrix:
    """Where a copy puts each point of the original: the 3 x 3 map from the sheet's mm to the
    copy's paper mm, reduced and turned about the paper's centre, then shifted."""
    scale = rng.uniform(*copier.scale)
    turn = math.radians(rng.uniform(-copier.turn_deg, copier.turn_deg))
    shift = rng.uniform(-copier.shift_mm, copier.shift_mm, 2)
    cx, cy = size_mm[0] / 2, size_mm[1] / 2
    c, s = scale * math.cos(turn), scale * math.sin(turn)
    return np.array(
        [
            [c, -s, cx + shift[0] - c * cx + s * cy],
            [s, c, cy + shift[1] - s * cx - c * cy],
            [0.0, 0.0, 1.0],
        ]
    )


def lay_copy(pixels: Pixels, px_per_mm: float, placement: Matrix) -> Pixels:
    """The page moved as :func:`copy_placement` says, on white paper of the same size."""
    to_pixels = np.array([[px_per_mm, 0.0, -0.5], [0.0, px_per_mm, -0.5], [0.0, 0.0, 1.0]])
    warp = to_pixels @ placement @ np.linalg.inv(to_pixels)
    moved = cv2.warpAffine(
        pixels,
        warp[:2],
        (pixels.shape[1], pixels.shape[0]),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(255, 255, 255),
    )
    return np.asarray(moved, dtype=np.uint8)


def _screen(coverage: Floats, px_per_mm: float, copier: Copier, rng: np.random.Generator) -> Floats:
    """Grey turned into a clustered-dot screen of toner, each pixel the share of it inked.

    Only pixels neither white nor black are screened, each cut into enough subpixels that a
    screen cell spans five or more across; a subpixel is inked where its place in the cell (the
    share of the cell that inks before it, as the dot grows from the cell's centre) lies below
    the grey's coverage, give or take the toner's grain: a dot's size shared over the cell, and
    a rough edge for each subpixel.
    """
    inked = (coverage >= 0.5).astype(np.float32)
    rows, cols = np.nonzero((coverage > 0.002) & (coverage < 0.998))
    if rows.size == 0:
        return inked
    cell = px_per_mm * MM_PER_INCH / copier.lpi
    fine = max(1, math.ceil(5.0 / cell))
    offsets = ((np.arange(fine, dtype=np.float32) + 0.5) / fine - 0.5).astype(np.float32)
    angle = math.radians(copier.screen_deg)
    step = np.float32(2.0 * math.pi / cell)
    cos_a, sin_a = np.float32(math.cos(angle)), np.float32(math.sin(angle))
    phase = rng.uniform(0.0, 2.0 * math.pi, 2).astype(np.float32)
    grain = _smooth(coverage.shape, max(0.5, cell / 2), rng)
    for start in range(0, rows.size, _CHUNK):
        r, c = rows[start : start + _CHUNK], cols[start : start + _CHUNK]
        ys = r.astype(np.float32)[:, None, None] + offsets[None, :, None]
        xs = c.astype(np.float32)[:, None, None] + offsets[None, None, :]
        u = (xs * cos_a + ys * sin_a) * step + phase[0]
        v = (ys * cos_a - xs * sin_a) * step + phase[1]
        place = _place_in_cell(np.cos(u) + np.cos(v))
        rough = rng.standard_normal(place.shape, dtype=np.float32)
        noise = np.float32(copier.toner_noise) * (
            np.float32(0.8) * grain[r, c][:, None, None] + np.float32(0.6) * rough
        )
        ink = place + noise < coverage[r, c][:, None, None]
        inked[r, c] = ink.mean(axis=(1, 2), dtype=np.float32)
    return inked


def _place_in_cell(spot: Floats) -> Floats:
    """For a clustered dot's spot value (``cos u + cos v``, 2 at the cell's centre), the share
    of the cell whose value is higher: a dot inks the cell from its centre out, and a coverage
    ``c`` inks exactly the share ``c`` of it."""
    values, shares = _spot_table()
    return np.asarray(np.interp(spot, values, shares), dtype=np.float32)


@cache
def _spot_table() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The spot values over a cell, rising, and the share of the cell above each."""
    angles = (np.arange(256) + 0.5) * (2.0 * math.pi / 256)
    values = np.sort((np.cos(angles)[:, None] + np.cos(angles)[None, :]).ravel())
    shares = 1.0 - (np.arange(values.size) + 0.5) / values.size
    return values, shares


def _bands(
    shape: tuple[int, ...],
    px_per_mm: float,
    along_rows: bool,
    copier: Copier,
    rng: np.random.Generator,
) -> Floats:
    """The toner density's departure from its mean, from -1 to 1: bands across the paper path
    repeating with the drum's turn, and bands along it from uneven charge across the drum."""
    height, width = shape[:2]
    along_px, across_px = (width, height) if along_rows else (height, width)
    period = rng.uniform(*copier.drum_mm) * px_per_mm
    turn = np.sin(np.arange(along_px) * (2.0 * math.pi / period) + rng.uniform(0, 2 * math.pi))
    charge = _smooth_line(across_px, 20.0 * px_per_mm, rng)
    share = rng.uniform(0.0, 1.0)
    field = share * turn[None, :] + (1.0 - share) * charge[:, None]
    oriented = field if along_rows else field.T
    return np.asarray(oriented, dtype=np.float32)


def _streak(
    shape: tuple[int, ...],
    px_per_mm: float,
    along_rows: bool,
    copier: Copier,
    rng: np.random.Generator,
) -> Floats:
    """A faint line of toner along the paper path, fading a little here and there."""
    height, width = shape[:2]
    along_px, across_px = (width, height) if along_rows else (height, width)
    where = rng.uniform(0.1, 0.9) * across_px
    half = rng.uniform(*copier.streak_mm) * px_per_mm
    profile = np.exp(-0.5 * ((np.arange(across_px) - where) / half) ** 2)
    fade = 0.8 + 0.2 * _smooth_line(along_px, 15.0 * px_per_mm, rng)
    field = rng.uniform(*copier.streak) * profile[:, None] * fade[None, :]
    oriented = field if along_rows else field.T
    return np.asarray(oriented, dtype=np.float32)


def _smooth(shape: tuple[int, ...], spread: float, rng: np.random.Generator) -> Floats:
    """Noise of unit spread that changes over ``spread`` pixels."""
    noise = rng.standard_normal(shape[:2], dtype=np.float32)
    smooth = cv2.GaussianBlur(noise, (0, 0), spread)
    return np.asarray(smooth / (float(smooth.std()) or 1.0), dtype=np.float32)


def _smooth_line(length: int, spread: float, rng: np.random.Generator) -> NDArray[np.float64]:
    """Noise along a line that changes over ``spread`` pixels, scaled to reach -1 or 1."""
    noise = rng.standard_normal((1, length))
    smooth = np.asarray(
        cv2.GaussianBlur(noise, (0, 0), spread, borderType=cv2.BORDER_REFLECT), dtype=np.float64
    ).ravel()
    return smooth / (float(np.abs(smooth).max()) or 1.0)
