"""Densities as mixtures: a pencil's layers, a neighbour's hatching and a print's grey, fitted by
non-negative least squares.

Layers of pencil and toner multiply the light, so their optical densities add: what a band of
the page shows is a sum of what lies on it, each part a known direction in the three channels
with an unknown, non-negative amount. :func:`nnls` fits such sums for many small systems at
once; :func:`pencil_columns` gives the directions one pencil lays; :func:`grey_and_pencil`
parts a line's density into a grey and a pencil, and :func:`print_excess` uses that to find how
much darker a traced line's print came out than the sheet drew it;
:func:`fit_lines` unmixes a traced line's trace from the hatching beside it, and
:func:`layered_angle` measures a trace against its pencil laid in layers. The colours a space
may show when a neighbour's hatching runs into it are :func:`overflow_mixtures`.

Example:
    >>> yellow = pencil_columns(np.array([0.02, 0.05, 1.0]), 0.35)
    >>> traces = np.outer([0.4, 0.6, 0.0, 0.3, 0.5, 0.0], yellow[:, 1])  # traced or not
    >>> round(print_excess(traces + 0.08, [yellow]), 3)  # a copier's grey over every line
    0.08
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]

GREY = np.full(3, 1.0 / math.sqrt(3.0))
"""The direction of a grey's density (a shadow, toner, graphite): every channel loses the same
share of light."""


class Pencil(Protocol):
    """A pencil in play as its colour box shows it: the unit direction of its absorbance and
    its length (:class:`papergames.photo.colours.Prototype`)."""

    @property
    def direction(self) -> Floats: ...

    @property
    def strength(self) -> float: ...


def degrees(cosine: float) -> float:
    """The angle, in degrees, whose cosine is ``cosine`` (clipped to [-1, 1] against rounding).

    Example:
        >>> round(degrees(0.5), 3), degrees(1.0000001)
        (60.0, 0.0)
    """
    return math.degrees(math.acos(float(np.clip(cosine, -1.0, 1.0))))


def degrees_of(cosines: Floats) -> Floats:
    """:func:`degrees` of every cosine in an array, at once.

    Example:
        >>> degrees_of(np.array([0.5, 1.0000001])).round(3).tolist()
        [60.0, 0.0]
    """
    return np.asarray(np.degrees(np.arccos(np.clip(cosines, -1.0, 1.0))), dtype=np.float64)


def pencil_columns(direction: Floats, strength: float) -> Floats:
    """The densities one pencil lays, as two unit columns ``(3, 2)``: light (its colour box's
    absorbance direction) to heavy (the density of its colour box's layer).

    Example:
        >>> pencil_columns(np.array([0.0, 0.6, 0.8]), 0.5).round(2).tolist()
        [[0.0, 0.0], [0.6, 0.57], [0.8, 0.82]]
    """
    sample = np.clip(direction * strength, 0.0, 0.95)
    dense = -np.log1p(-sample)
    light = sample / max(float(np.linalg.norm(sample)), 1e-9)
    heavy = dense / max(float(np.linalg.norm(dense)), 1e-9)
    return np.stack([light, heavy], axis=1)


def darkness(absorbance: Floats) -> Floats:
    """How much darker than paper mean absorbances are (the last axis the channels): the size of
    their tint, with their grey part counted only when it darkens.

    A reading brighter than the paper's white alike in every channel is that white misjudged
    (taken from farther away, under other light), not pencil; a tint is a pencil's whichever
    way the white was misjudged. A reading darker in every channel is its full size.

    Example:
        >>> darkness(np.array([[0.03, 0.04, 0.0], [-0.04, -0.04, -0.04]])).round(3).tolist()
        [0.05, 0.0]
        >>> round(float(darkness(np.array([-0.066, -0.039, 0.008]))), 3)
        0.053
    """
    grey = absorbance.mean(axis=-1, keepdims=True)
    tint = absorbance - grey
    darker = np.maximum(grey[..., 0], 0.0)
    return np.asarray(np.sqrt((tint**2).sum(axis=-1) + 3.0 * darker**2), dtype=np.float64)


def nnls(design: Floats, target: Floats, most: Floats | None = None) -> Floats:
    """Non-negative least squares for a batch of small systems (``(b, m, n)``, ``(b, m)``), by
    trying every set of columns: the coefficients, zero for columns left out. A column may be
    given a largest coefficient (``most``, one per column): a set of columns whose fit exceeds
    it is not taken.

    Example:
        >>> design = np.array([[[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]])
        >>> nnls(design, np.array([[2.0, -1.0, 0.5]])).round(6).tolist()
        [[2.0, 0.0]]
        >>> nnls(design, np.array([[2.0, -1.0, 0.5]]), np.array([1.0, np.inf])).tolist()
        [[0.0, 0.0]]
    """
    batch, _, n = design.shape
    best = np.zeros((batch, n))
    best_error = np.einsum("bm,bm->b", target, target)
    for mask in range(1, 1 << n):
        chosen = [j for j in range(n) if mask >> j & 1]
        sub = design[:, :, chosen]
        normal = np.einsum("bmi,bmj->bij", sub, sub) + np.eye(len(chosen)) * 1e-9
        rhs = np.einsum("bmi,bm->bi", sub, target)
        coef = np.linalg.solve(normal, rhs[..., None])[..., 0]
        error = target - np.einsum("bmi,bi->bm", sub, coef)
        squared = np.einsum("bm,bm->b", error, error)
        better = (coef >= 0.0).all(axis=1) & (squared < best_error)
        if most is not None:
            better &= (coef <= most[chosen]).all(axis=1)
        if better.any():
            full = np.zeros((batch, n))
            full[:, chosen] = coef
            best[better] = full[better]
            best_error[better] = squared[better]
    return best


EXCESS_LINES = 5
"""Fewest lines from which a page's print excess is found; with fewer it is taken as none."""


def print_excess(traces: Floats, pencils: Sequence[Floats]) -> float:
    """The grey density that a traced line's print shows beyond what the sheet drew, the same
    on every line of the page: over ``traces`` (``(n, 3)``, each line's density across its band
    less the print as drawn), the grey that, added to the best mixture of one of ``pencils``'
    columns (:func:`pencil_columns`, tinted pencils only), fits each line best (one column at a
    time, so that a pencil's amount and the grey are found from three channels); the page's is
    where those greys lie densest (:func:`densest`).

    Miro's and Arp's lines were first printed as one mid grey stroke. A photocopier prints that
    grey far darker (its toner spreads; a mid grey comes out nearly black), and a camera's tone
    curve may darken or lighten it a little: by an amount the sheet cannot tell. That excess is
    grey, the same in every channel, while a pencil is tinted, so it is told apart line by line;
    an untraced line is all excess. A trace in a grey pencil (graphite) adds its own grey, a
    different amount on each line, so those lines scatter above the excess while the others
    gather at it. Negative when the print came out lighter than drawn; 0 with fewer than
    :data:`EXCESS_LINES` lines or no tinted pencil.

    Example:
        >>> red = pencil_columns(np.array([0.05, 0.7, 0.7]), 0.5)
        >>> print_excess(np.array([[0.02, 0.6, 0.6]] * 5) - 0.01, [red]) < 0
        True
    """
    if len(traces) < EXCESS_LINES or not pencils:
        return 0.0
    return densest(grey_and_pencil(traces, pencils)[0])


def grey_and_pencil(traces: Floats, pencils: Sequence[Floats]) -> tuple[Floats, Floats]:
    """Each of ``traces`` (``(n, 3)`` densities) as a grey plus one column of one of
    ``pencils`` (:func:`pencil_columns`), whichever fits it best: the grey's density per
    channel (negative for a grey taken off) and the pencil's density (its length), per trace.

    Example:
        >>> red = pencil_columns(np.array([0.05, 0.7, 0.7]), 0.5)
        >>> traces = np.array([[0.1, 0.1, 0.1], 0.05 + 0.4 * red[:, 1]])  # bare; traced
        >>> grey, pencil = grey_and_pencil(traces, [red])
        >>> grey.round(3).tolist(), pencil.round(3).tolist()
        ([0.1, 0.05], [0.0, 0.4])
    """
    count = len(traces)
    grey = GREY[:, None]
    best_error = np.full(count, np.inf)
    best_grey = np.zeros(count)
    best_pencil = np.zeros(count)
    for column in (columns[:, [j]] for columns in pencils for j in range(columns.shape[1])):
        for sign in (1.0, -1.0):
            design = np.broadcast_to(np.hstack([column, sign * grey]), (count, 3, 2))
            coef = nnls(design, traces)
            error = np.linalg.norm(traces - np.einsum("bmi,bi->bm", design, coef), axis=1)
            better = error < best_error - 1e-12
            best_error[better] = error[better]
            best_grey[better] = sign * coef[better, 1] * GREY[0]
            best_pencil[better] = coef[better, 0]
    return best_grey, best_pencil


def densest(values: Floats) -> float:
    """Where ``values`` lie densest: the middle of the narrowest half of them, then of the
    narrowest half of that, down to three (the half-sample mode). It follows the largest tight
    cluster and ignores values scattered to one side, even when they are nearly half.

    Example:
        >>> densest(np.array([0.10, 0.11, 0.09, 0.10, 0.3, 0.5, 0.42, 0.25]))
        0.1
    """
    ordered = np.sort(values)
    while len(ordered) > 3:
        half = (len(ordered) + 1) // 2
        widths = ordered[half - 1 :] - ordered[: len(ordered) - half + 1]
        start = int(np.argmin(widths))
        ordered = ordered[start : start + half]
    return float(np.median(ordered))


OVERFLOW_SHARE = 1 / 3
"""Most of a space that a neighbour's overflow may cover, its pencil laid as in its colour box:
strokes run up to 2 mm over a border, which on a small space is up to a third of it. A small
space's reading mixes its own hatching with what ran in: a light red triangle with a fifth of
it under a strong green neighbour's strokes reads 15-17 degrees off red, towards brown."""


def overflow_mixtures(prototypes: Mapping[str, Pencil]) -> dict[str, Floats]:
    """For each colour in play, the unit directions of its pencil with up to
    :data:`OVERFLOW_SHARE` of another colour's laid over it, as rows.

    Example:
        >>> from papergames.photo.colours import Prototype
        >>> red = Prototype(np.array([0.0, 0.7071, 0.7071]), 0.2)
        >>> blue = Prototype(np.array([0.8, 0.6, 0.0]), 0.4)
        >>> rows = overflow_mixtures({"red": red, "blue": blue})["red"]
        >>> rows.shape, rows[0].round(3).tolist()
        ((11, 3), [0.0, 0.707, 0.707])
    """
    shares = np.linspace(0.0, OVERFLOW_SHARE, 11)[:, None]
    mixtures: dict[str, Floats] = {}
    for name, own in prototypes.items():
        rows = [
            own.direction * own.strength + shares * other.direction * other.strength
            for other_name, other in prototypes.items()
            if other_name != name
        ]
        if not rows:
            continue
        stacked = np.concatenate(rows)
        mixtures[name] = stacked / np.maximum(np.linalg.norm(stacked, axis=1, keepdims=True), 1e-9)
    return mixtures


_SHARES = np.linspace(0.1, 1.0, 10)[:, None, None]
LINE_LAYERS = 4
"""Most layers of a colour box's pencil a traced line is read as: gone over two to four times,
and read across its whole band, the passes' edges with them."""
CHANNEL_LAYERS = 6
"""Most layers for a line read down the middle of its white channel, where every pass of the
pencil overlaps and each presses harder than a hatching's stroke: a light blue traced there is
as deep as six of its colour box's layers, which four layers left nearer blue."""


def layered_angle(direction: Floats, prototype: Pencil, layers: int = LINE_LAYERS) -> float:
    """The angle from ``direction`` to the nearest colour that ``prototype``'s pencil gives when
    laid lighter, or gone over several times.

    A pencil layer filters light: one layer of absorbance ``a`` leaves ``1 - a``, ``n`` layers
    ``(1 - a) ** n``, so the colour of a traced line, gone over two to four times and often over
    hatching, is more saturated, and nearer grey, than its colour box's. The box itself may be
    one layer or two.
    """
    sample = np.clip(prototype.direction * prototype.strength, 0.0, 0.98)
    bases = np.stack([sample, 1.0 - np.sqrt(1.0 - sample)])
    counts = np.arange(1.0, layers + 1.0)[None, :, None, None]
    layered = 1.0 - (1.0 - _SHARES[..., None] * bases[None, None]) ** counts
    vectors = layered.reshape(-1, 3)
    norms = np.linalg.norm(vectors, axis=1)
    cosines = (vectors @ direction) / np.maximum(norms, 1e-9)
    return degrees(float(cosines.max()))


@dataclass(frozen=True)
class LineFit:
    """A traced line unmixed: per colour, how far the best mixture of that colour's trace with
    the neighbours' hatching lies from what was measured, and how strong the trace is in it;
    and how far the hatching alone lies (no trace)."""

    residuals: dict[str, float]
    strengths: dict[str, float]
    empty: float


RAN_ON_MOST = 1.0
"""Most of a neighbour's hatching, against the strip beyond its own side, that a line's band on
the other side may hold: strokes that run on over the line thin out, so a band denser in a
hatching's colour than the hatching itself holds a trace of it, not its overflow."""


def fit_lines(sides: Floats, prototypes: Mapping[str, Pencil]) -> list[LineFit]:
    """Unmix each traced line's sides (``(n, 4, 3)``, see
    :attr:`papergames.photo.colours.Sample.sides`): the band on each
    side is the strips beyond both sides, scaled (the hatching that ran over the border, which
    may run on over the line into the other side's band), plus the trace in one colour, the
    same on both sides."""
    count = len(sides)
    band = sides[:, 0:2].reshape(count, 6)
    strips = np.zeros((count, 6, 4))
    strips[:, 0:3, 0] = sides[:, 2]
    strips[:, 3:6, 1] = sides[:, 3]
    strips[:, 3:6, 2] = sides[:, 2]
    strips[:, 0:3, 3] = sides[:, 3]
    most = np.array([np.inf, np.inf, RAN_ON_MOST, RAN_ON_MOST, np.inf, np.inf])
    hatch = nnls(strips, band, most[:4])
    empty = np.linalg.norm(band - np.einsum("bmi,bi->bm", strips, hatch), axis=1)
    residuals: list[dict[str, float]] = [{} for _ in range(count)]
    strengths: list[dict[str, float]] = [{} for _ in range(count)]
    for name, prototype in prototypes.items():
        trace = np.tile(pencil_columns(prototype.direction, prototype.strength), (2, 1))
        design = np.concatenate([strips, np.broadcast_to(trace, (count, 6, 2))], axis=2)
        coef = nnls(design, band, most)
        error = np.linalg.norm(band - np.einsum("bmi,bi->bm", design, coef), axis=1)
        laid = np.linalg.norm(np.einsum("mi,bi->bm", trace[:3], coef[:, 4:]), axis=1)
        for k in range(count):
            residuals[k][name] = float(error[k])
            strengths[k][name] = float(laid[k])
    return [LineFit(residuals[k], strengths[k], float(empty[k])) for k in range(count)]
