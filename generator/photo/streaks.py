"""A photocopier's streak: a faint straight band of toner down the whole page, found so that the
paper's white can follow it.

A dirty drum or mirror leaves a line of toner along the copier's paper path, a few tenths of a
millimetre to a millimetre or so wide and a few hundredths darker than paper, from one edge of
the copy to the other. It is too narrow for the paper's white (:mod:`papergames.photo.paper`)
to follow, so where it crosses a tally box or a small space it reads as pencil: on photocopied
handouts it ticked one tally box in every row it crossed. The copy lies turned on its paper by
up to a degree and a half, so on the page as printed the streak runs slantwise, shifting several
millimetres from top to bottom.

Nothing else on a sheet is that long, that straight and that narrow: pencil is drawn in strokes
and spaces, a shadow is broad, printed ink is left out. So the page's darkening off the ink is
looked at along every straight line within :data:`TURN_MOST` degrees of the page's upright and of
its width; along each, a low share of the darkening (:data:`ALONG`) is taken, which passes over
hatching and marks wherever bare paper shows for a third of the way; and a streak is a narrow
rise of that against the lines a few millimetres either side.

Example:
    >>> rng = np.random.default_rng(3)
    >>> height, width, px = 1200, 800, 4.0
    >>> darkening = rng.normal(0.0, 0.01, (height, width)).astype(np.float32)
    >>> ys, xs = np.mgrid[0:height, 0:width]
    >>> across = xs - (100.0 * px + ys * math.tan(math.radians(0.8)))  # turned 0.8 degrees
    >>> darkening += 0.06 * np.exp(-0.5 * (across / (0.4 * px)) ** 2)
    >>> streak = find_streak(darkening, np.ones((height, width), bool), px)
    >>> round(streak.turn, 1), round(streak.at_mm, 1), streak.upright
    (0.8, 100.0, True)
    >>> white = darkened_along(np.full((height, width, 3), 200.0, np.float32), streak, px)
    >>> middle = round(100 * px + 600 * math.tan(math.radians(0.8)))
    >>> abs(1.0 - float(white[600, middle, 0]) / 200.0 - 0.06) < 0.015
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float32]
Mask = NDArray[np.bool_]

TURN_MOST = 2.0
"""Largest turn, in degrees, of a streak on the page: a copy lies turned on its paper by up to
1.5 degrees, and the photo's registration follows the print, not the paper."""
TURN_STEP = 0.05
"""Step of the turns tried: over a 300 mm page it moves the line by a quarter of a millimetre;
they are tried about the best of a first pass every :data:`COARSE` degrees."""
COARSE = 0.2
ACROSS_MM = 0.25
"""Resolution across the streak's line."""
BLOCK_MM = 6.0
"""Length of the blocks a line is cut into along its way: each block's darkening is its
median, and a turn of two degrees moves the line by a fifth of a millimetre within one."""
ALONG = 0.3
"""Share of the darkening along a line taken as that line's: low enough to pass over a field
hatched for two thirds of its height."""
SEEN_LEAST = 0.3
"""Least share of a line's length that must show paper (clear of ink) for it to count."""
BESIDE_MM = (1.5, 5.0)
"""Distances either side of a line at which the lines it is compared with lie."""
WIDTH_MOST_MM = 3.0
"""Widest streak: half its peak's height is reached within this."""
RISE_LEAST = 0.02
"""Least darkening, as a share of the paper's light, of a streak's middle."""
RISE_SPREADS = 8.0
"""How many times the spread of the rises across the page a streak's must reach."""


@dataclass(frozen=True)
class Streak:
    """A streak found: ``upright`` when it runs down the page (else across), where it crosses
    the page's top (or left) edge, in mm, its turn in degrees, and the darkening it adds across
    its width (``profile``, every ``step_mm`` from ``len(profile) // 2`` steps before
    ``at_mm``)."""

    upright: bool
    at_mm: float
    turn: float
    profile: tuple[float, ...]
    step_mm: float


def find_streak(darkening: Floats, clear: Mask, px_per_mm: float) -> Streak | None:
    """The copier's streak on a page, or ``None``.

    Args:
        darkening: each pixel's share of the paper's light lost (0 on bare paper).
        clear: where no printed ink is near.
        px_per_mm: the page's resolution.
    """
    found = [
        _along(darkening, clear, px_per_mm, upright=True),
        _along(darkening.T, clear.T, px_per_mm, upright=False),
    ]
    return max((s for s in found if s is not None), key=lambda s: max(s.profile), default=None)


def darkened_along(white: Floats, streak: Streak, px_per_mm: float) -> Floats:
    """``white`` (a page's paper, ``(height, width, 3)``) with the share of light the streak
    takes taken off along it; only the pixels near its line are touched."""
    upright = white if streak.upright else white.transpose(1, 0, 2)
    height, width = upright.shape[:2]
    half = len(streak.profile) // 2
    reach = math.ceil(half * streak.step_mm * px_per_mm) + 1
    rows = np.arange(height)
    middle = (streak.at_mm + rows / px_per_mm * math.tan(math.radians(streak.turn))) * px_per_mm
    columns = np.rint(middle)[:, None].astype(np.int64) + np.arange(-reach, reach + 1)[None, :]
    inside = (columns >= 0) & (columns < width)
    positions = (np.arange(len(streak.profile)) - half) * streak.step_mm
    across = (columns - middle[:, None]) / px_per_mm
    shade = np.interp(across, positions, np.asarray(streak.profile), left=0.0, right=0.0)
    found = upright.copy()
    down = np.broadcast_to(rows[:, None], columns.shape)[inside]
    found[down, columns[inside]] *= (1.0 - shade[inside])[:, None].astype(np.float32)
    return found if streak.upright else np.ascontiguousarray(found.transpose(1, 0, 2))


def _along(darkening: Floats, clear: Mask, px_per_mm: float, *, upright: bool) -> Streak | None:
    """The streak running down ``darkening`` (within :data:`TURN_MOST` of upright), if any."""
    down, across = (max(1, round(mm * px_per_mm)) for mm in (BLOCK_MM, ACROSS_MM))
    blocks = _blocks(darkening, clear, down, across)
    rows, columns = blocks.shape
    if rows < 10 or columns < 40:
        return None
    per_mm = px_per_mm / across
    row_mm = (np.arange(rows, dtype=np.float64) * down + (down - 1) / 2) / px_per_mm
    coarse = _best_turn(blocks, row_mm, per_mm, np.arange(-TURN_MOST, TURN_MOST + 1e-9, COARSE))
    fine = np.arange(coarse[1] - COARSE, coarse[1] + COARSE + 1e-9, TURN_STEP)
    score, turn, peak, rise, values = _best_turn(blocks, row_mm, per_mm, fine)
    height = float(rise[peak])
    if score < RISE_SPREADS or height < RISE_LEAST:
        return None
    parts = [_rise(part, per_mm)[peak] for part in np.array_split(values, PARTS, axis=0)]
    seen = [rise_there for rise_there in parts if np.isfinite(rise_there)]
    if len(seen) < PARTS_SEEN or any(rise_there < PART_SHARE * height for rise_there in seen):
        return None
    reach = round(WIDTH_MOST_MM * per_mm)
    window = rise[max(0, peak - reach) : peak + reach + 1]
    if len(window) < 2 * reach + 1:
        return None
    profile = _profile(window, height)
    if profile is None:
        return None
    at_mm = (peak * across + (across - 1) / 2) / px_per_mm
    return Streak(upright, at_mm, turn, profile, across / px_per_mm)


def _profile(window: NDArray[np.float64], height: float) -> tuple[float, ...] | None:
    """The darkening across a streak from the rises of the lines within :data:`WIDTH_MOST_MM`
    either side of its middle (``window``), or ``None`` when it is wider: the outermost line
    seen on each side must be darkened by less than half its middle's ``height``.

    A line that runs along printed ink (a frame's edge, a row of score boxes) shows no paper
    and has no rise (NaN). A streak across the page may lie right beside one: through a row of
    tally boxes it ran a millimetre under their top edge and ticked every box of the row
    (``bench/photo.py --games arp,miro --tiers copy --seed 2000 --first-style``, copy-miro-2005).
    Such lines take no darkening here (ink is never read as pencil), and the streak's width is
    judged on the lines seen.

    Example:
        >>> nan = float("nan")
        >>> _profile(np.array([0.0, nan, nan, 0.06, 0.02, 0.0, 0.0]), 0.06)
        (0.0, 0.0, 0.0, 0.06, 0.02, 0.0, 0.0)
        >>> _profile(np.array([0.04, nan, nan, 0.06, 0.02, 0.0, 0.0]), 0.06) is None
        True
    """
    middle = len(window) // 2
    for side in (window[:middle], window[middle + 1 :][::-1]):
        seen = side[np.isfinite(side)]
        if seen.size and seen[0] > height / 2:
            return None
    return tuple(float(v) for v in np.clip(np.nan_to_num(window, nan=0.0), 0.0, None))


def _best_turn(
    blocks: NDArray[np.float64],
    row_mm: NDArray[np.float64],
    per_mm: float,
    turns: NDArray[np.float64],
) -> tuple[float, float, int, NDArray[np.float64], NDArray[np.float64]]:
    """Of the lines at ``turns``, the one that rises highest above its neighbours (at each
    turn, the column that rises most in spreads of that turn's rises): its score in spreads,
    turn, column, the rises at that turn and the blocks along it. A line turned a little off a
    streak rises less, as it leaves the streak for part of its way."""
    columns = blocks.shape[1]
    best: tuple[float, float, int, NDArray[np.float64], NDArray[np.float64]] | None = None
    for turn in turns:
        shift = np.rint(row_mm * math.tan(math.radians(turn)) * per_mm).astype(np.int64)
        index = np.arange(columns)[None, :] + shift[:, None]
        inside = (index >= 0) & (index < columns)
        values = np.take_along_axis(blocks, np.clip(index, 0, columns - 1), axis=1)
        values = np.where(inside, values, np.nan)
        rise = _rise(values, per_mm)
        spread = 1.4826 * float(np.nanmedian(np.abs(rise - np.nanmedian(rise)))) + 1e-4
        score = np.where(np.isfinite(rise), rise / spread, -np.inf)
        peak = int(np.argmax(score))
        if best is None or rise[peak] > best[3][best[2]]:
            best = (float(score[peak]), float(turn), peak, rise, values)
    assert best is not None
    return best


def _rise(values: NDArray[np.float64], per_mm: float) -> NDArray[np.float64]:
    """Per column of ``values`` (blocks along the lines of one turn), how much darker its low
    share is than the lines beside it."""
    line = _low_share(values)
    return line - _beside(line, per_mm)


PARTS = 5
PART_SHARE = 0.4
"""A streak runs the whole page: in each of :data:`PARTS` stretches along it where paper shows,
its rise must be at least this share of the whole line's (a row of tallies, a field's edge, a
fold of the paper run only part of the way)."""
PARTS_SEEN = 3
"""Fewest of the :data:`PARTS` stretches in which a streak must be seen: along a printed line,
or under hatching dense for a fifth of the page, no paper shows, which says nothing either way."""


def _blocks(darkening: Floats, clear: Mask, down: int, across: int) -> NDArray[np.float64]:
    """The darkening in blocks ``down`` pixels long and ``across`` wide: the mean over the
    block's pixels clear of ink that are nearly paper (:data:`PAPERISH`: bare paper, the gaps
    between hatching strokes, and the streak itself), NaN where fewer than :data:`GAPS` are."""
    height, width = darkening.shape
    rows, columns = height // down, width // across
    usable = (clear & (darkening < PAPERISH)).astype(np.float32)
    shown = np.where(usable > 0, darkening, 0.0).astype(np.float32)
    size = (columns, rows)
    kept = slice(0, rows * down), slice(0, columns * across)
    total = cv2.resize(shown[kept], size, interpolation=cv2.INTER_AREA).astype(np.float64)
    share = cv2.resize(usable[kept], size, interpolation=cv2.INTER_AREA).astype(np.float64)
    mean = total / np.maximum(share, 1e-6)
    return np.where(share >= GAPS, mean, np.nan)


PAPERISH = 0.15
"""Most darkening of a pixel counted as paper in a block: a streak darkens paper by a tenth or
less, pencil strokes by far more, so a hatched block still shows the streak in its gaps."""
GAPS = 0.1
"""Least share of a block's pixels that must be paper for the block to count."""


def _low_share(values: NDArray[np.float64], share: float = ALONG) -> NDArray[np.float64]:
    """Per column, the ``share`` quantile of its finite values (NaN where fewer than
    :data:`SEEN_LEAST` of the column is finite)."""
    ordered = np.sort(values, axis=0)
    count = np.isfinite(values).sum(axis=0)
    pick = np.clip(np.floor(share * (count - 1)).astype(np.int64), 0, None)
    low = np.take_along_axis(ordered, pick[None, :], axis=0)[0]
    return np.where(count >= SEEN_LEAST * values.shape[0], low, np.nan)


def _beside(line: NDArray[np.float64], per_mm: float) -> NDArray[np.float64]:
    """Per column, the median of the lines :data:`BESIDE_MM` away on either side."""
    near, far = (round(d * per_mm) for d in BESIDE_MM)
    offsets = [*range(near, far + 1), *range(-far, -near + 1)]
    padded = np.pad(line, far, constant_values=np.nan)
    stacked = np.stack([padded[far + d : far + d + len(line)] for d in offsets])
    return _low_share(stacked, 0.5)
