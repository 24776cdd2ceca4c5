"""Densities as mixtures: a pencil's layers, a neighbour's hatching and a print's grey, fitted by
non-negative least squares.

Layers of pencil and toner multiply the light, so their optical densities add: what a band of
the page shows is a sum of what lies on it, each part a known direction in the three channels
with an unknown, non-negative amount. :func:`nnls` fits such sums for many small systems at
once; :func:`pencil_columns` gives the directions one pencil lays; :func:`print_excess` uses
both to find how much darker a traced line's print came out than the sheet drew it.

Example:
    >>> yellow = pencil_columns(np.array([0.02, 0.05, 1.0]), 0.35)
    >>> traces = np.outer([0.4, 0.6, 0.0, 0.3, 0.5, 0.0], yellow[:, 1])  # traced or not
    >>> round(print_excess(traces + 0.08, [yellow]), 3)  # a copier's grey over every line
    0.08
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]

GREY = np.full(3, 1.0 / math.sqrt(3.0))
"""The direction of a grey's density (a shadow, toner, graphite): every channel loses the same
share of light."""


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


def nnls(design: Floats, target: Floats) -> Floats:
    """Non-negative least squares for a batch of small systems (``(b, m, n)``, ``(b, m)``), by
    trying every set of columns: the coefficients, zero for columns left out.

    Example:
        >>> design = np.array([[[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]])
        >>> nnls(design, np.array([[2.0, -1.0, 0.5]])).round(6).tolist()
        [[2.0, 0.0]]
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
    grey = GREY[:, None]
    best_error = np.full(len(traces), np.inf)
    best_grey = np.zeros(len(traces))
    for column in (columns[:, [j]] for columns in pencils for j in range(columns.shape[1])):
        for sign in (1.0, -1.0):
            design = np.broadcast_to(np.hstack([column, sign * grey]), (len(traces), 3, 2))
            coef = nnls(design, traces)
            error = np.linalg.norm(traces - np.einsum("bmi,bi->bm", design, coef), axis=1)
            better = error < best_error - 1e-12
            best_error[better] = error[better]
            best_grey[better] = sign * coef[better, 1] * GREY[0]
    return densest(best_grey)


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
