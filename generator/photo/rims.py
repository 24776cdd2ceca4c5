"""Which edge of a space its pencil lies along: a neighbour's overflow comes in over one edge.

A space too small to have a core (:func:`papergames.photo.sample.measure`) cannot be cleared of
its neighbours' overflow by the core's darkening. The overflow has a shape of its own, though:
strokes that ran on over the border lie along the edge they crossed, while a space's own
hatching, even a light hand's, runs from edge to edge and lies along two edges at least.

Example:
    >>> from shapely.geometry import Polygon, box
    >>> cell = box(0.0, 0.0, 6.0, 14.0)
    >>> xs, ys = np.meshgrid(np.arange(0.05, 6.0, 0.1), np.arange(0.05, 14.0, 0.1))
    >>> hatched = np.column_stack([xs.ravel(), ys.ravel()])
    >>> ran_in = hatched[hatched[:, 0] < 1.5]  # strokes over the left edge, 1.5 mm in
    >>> round(edge_share(cell, hatched, 2.5), 2), round(edge_share(cell, ran_in, 2.5), 2)
    (0.34, 0.89)
    >>> edge_share(Polygon(), hatched, 2.5)  # no outline: nothing to tell
    nan
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from papergames.sheets.geometry import iter_polygons

STRAIGHT_MM = 0.3
"""Widest a piece of outline may bow and still be one edge: an arc of a ring, or a bend of Miro's
line drawn as many short pieces, is one border to a stroke crossing it."""


def edge_share(shape: BaseGeometry, points_mm: NDArray[np.float64], reach_mm: float) -> float:
    """The largest share of ``points_mm`` (a space's pencil pixels, in page mm) that lie within
    ``reach_mm`` (how far a neighbour's stroke runs in:
    :data:`papergames.photo.sample.OVERFLOW_MM`) of one edge of the space's outline and nearer
    it than any other edge (NaN for no points, or no outline).

    A neighbour's overflow lies along the one edge it crossed, so its share is near 1; a space's
    own hatching spreads over the space, and even across a narrow one it splits between the two
    long edges.
    """
    starts, ends = _edges(shape.simplify(STRAIGHT_MM))
    if len(points_mm) == 0 or len(starts) == 0:
        return float("nan")
    along = ends - starts
    length = np.maximum(np.einsum("ij,ij->i", along, along), 1e-12)
    offset = points_mm[:, None, :] - starts[None, :, :]
    t = np.clip(np.einsum("pij,ij->pi", offset, along) / length, 0.0, 1.0)
    gap = offset - t[:, :, None] * along[None, :, :]
    distance = np.sqrt(np.einsum("pij,pij->pi", gap, gap))
    nearest = np.argmin(distance, axis=1)
    close = distance[np.arange(len(points_mm)), nearest] <= reach_mm
    counts = np.bincount(nearest[close], minlength=len(starts))
    return float(counts.max()) / len(points_mm)


def _edges(shape: BaseGeometry) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Every edge of every ring of ``shape``, as start and end points."""
    starts: list[NDArray[np.float64]] = []
    ends: list[NDArray[np.float64]] = []
    for polygon in iter_polygons(shape):
        for ring in (polygon.exterior, *polygon.interiors):
            coords = np.asarray(ring.coords, dtype=np.float64)[:, :2]
            starts.append(coords[:-1])
            ends.append(coords[1:])
    if not starts:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.concatenate(starts), np.concatenate(ends)
