"""The traces a page's own lines show for each colour: a rival colour that no trace of it on this
page resembles is no rival.

A traced line is compared with each colour box's pencil laid in one to six layers
(:func:`~papergames.photo.mixtures.layered_angle`). A dark pencil layered deep saturates towards
black, so a line traced in graphite lies within a degree of a purple or a brown gone over six
times, and is flagged for a look however the page's purple lines actually look. But one hand
traces all of a colour's lines on a sheet, with much the same pressure and passes: when that
colour's lines read surely lie together, well away from the line in doubt, the line is not in
that colour. A colour with few sure lines, or whose lines spread widely (traces over hatching,
beside their stroke, of two hands), rules nothing out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from papergames.photo.mixtures import degrees_of

PAGE_TRACES_FEWEST = 10
"""Fewest lines read surely in a colour from which the page's traces of it are judged."""
TRACES_SIGMA_MOST = 1.7
"""Largest spread in degrees (the scatter of one direction, :func:`_scatter`) of a colour's sure
lines under which the page's traces of it count as one hand's laid alike."""
TRACES_APART = 4.0
"""How many of its spreads (and at least :data:`TRACES_APART_LEAST` degrees) a line must lie from
the middle of a colour's sure lines on the page for that colour to be ruled out: a line laid as
those were lies so far once in thousands."""
TRACES_APART_LEAST = 3.0


def _scatter(angles: NDArray[np.float64]) -> float:
    """The scatter per direction (the sigma) of directions about their middle, from their
    angles to it: in two directions at once the angles follow a Rayleigh distribution, whose
    mean square is twice sigma squared. A few stray lines widen it, which only rules out less;
    the median angle is spoilt less by them, but from ten lines it comes out too narrow more
    often, and rules out a line laid as the others."""
    return math.sqrt(float(np.mean(np.square(angles))) / 2.0)


def colours_ruled_out(
    directions: NDArray[np.float64], colours: Sequence[str | None], sure: Sequence[bool]
) -> list[frozenset[str]]:
    """For each traced line, the colours whose sure lines on this page lie far from it.

    Args:
        directions: each line's pencil as a unit vector ``(n, 3)`` (rows of zeros for lines with
            no pencil).
        colours: the colour each line was read in, ``None`` for empty.
        sure: whether each reading is sure.

    Example:
        >>> purple = np.array([0.564, 0.672, 0.480])
        >>> wobble = [np.array([0.0, 0.003, -0.003]) * k for k in range(-5, 6)]
        >>> purples = [(purple + w) / np.linalg.norm(purple + w) for w in wobble]
        >>> lines = np.array([*purples, np.full(3, 3**-0.5)])
        >>> ruled = colours_ruled_out(lines, ["3"] * 11 + ["2"], [True] * 11 + [False])
        >>> ruled[-1], ruled[0]
        (frozenset({'3'}), frozenset())
    """
    count = len(colours)
    ruled: list[set[str]] = [set() for _ in range(count)]
    for colour in sorted({c for c in colours if c is not None}):
        own = [k for k in range(count) if colours[k] == colour and sure[k]]
        if len(own) < PAGE_TRACES_FEWEST:
            continue
        middle = np.median(directions[own], axis=0)
        middle /= max(float(np.linalg.norm(middle)), 1e-9)
        sigma = _scatter(degrees_of(directions[own] @ middle))
        if sigma > TRACES_SIGMA_MOST:
            continue
        apart = max(TRACES_APART * sigma, TRACES_APART_LEAST)
        far = degrees_of(directions @ middle) > apart
        for k in np.flatnonzero(far).tolist():
            if colours[k] != colour and np.any(directions[k]):
                ruled[k].add(colour)
    return [frozenset(names) for names in ruled]
