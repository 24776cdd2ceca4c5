"""Two pencils read as one colour: a player's pencil whose colour box was left empty.

A player who leaves their colour box empty still colours the field, and each of their items is
read as the colour in play it lies nearest. Where that pencil is far from every colour in play,
:func:`papergames.photo.colours.unknown_pencil` finds it. Where it holds much of the page (two
players, one box empty), it also sets the page's spread, the yardstick every item is judged
against, and then none of its items lies far: they are read surely as another player's.

The items of one colour then form two groups, each as tight as one pencil's items are, far
apart from each other. The page's spread cannot tell that, but the groups' own spread can: on
the bench's photos (``bench/photo.py --sheets 16``, scans, phone photos and photocopies, with
every colour box filled, and with the last seat's left empty) the items of one pencil split at
most 6.6 degrees apart, or less than 3.2 times their groups' spread apart, while a second
pencil lay 9.4 degrees or more away and 5 times its spread or more. The group farther from the
colour box (by the fit that allows for a pencil's layers) is the stranger.

A split alone does not prove a second pencil: on three of the 48 independent photos, one
pencil's hatching split into groups 15-23 degrees apart, at 4.6 to 7 times their spread. So the
reader looks for a second pencil only on a sheet that shows a box is missing: fewer players'
boxes coloured than its printed names, or than the game's fewest players, or a seat's score row
ticked while its box is empty (:func:`papergames.photo.colours.read_colours`).

Example:
    >>> one = np.array([[0.6, 0.7, 0.39], [0.61, 0.69, 0.38], [0.6, 0.71, 0.37]] * 3)
    >>> other = np.array([[0.3, 0.8, 0.52], [0.31, 0.79, 0.53], [0.3, 0.81, 0.5]] * 3)
    >>> unit = np.concatenate([one, other])
    >>> unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    >>> misfit = np.array([1.0] * 9 + [12.0] * 9)
    >>> second_pencil(unit, misfit).tolist() == [False] * 9 + [True] * 9
    True
    >>> second_pencil(one / np.linalg.norm(one, axis=1, keepdims=True), misfit[:9]) is None
    True
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from papergames.photo.mixtures import degrees_of

SPLIT_DEGREES = 8.0
"""Least angle between two groups of one colour's items for them to be two pencils."""
SPLIT_RATIO = 5.0
"""Least angle between the two groups, in their own spread (the root mean square angle of their
items to their group's centre), for them to be two pencils."""
SPLIT_ITEMS = 6
"""Fewest items in the group farther from the colour box: fewer are stray touches or a few
lines traced oddly, not a player's pencil."""
_ROUNDS = 20


def second_pencil(
    directions: NDArray[np.float64], misfits: NDArray[np.float64]
) -> NDArray[np.bool_] | None:
    """The items in a second pencil among those read as one colour, or ``None`` when they are
    all one pencil.

    Args:
        directions: each item's pencil as a unit vector of absorbance, ``(n, 3)``.
        misfits: each item's misfit to the colour read (degrees, as the reader fits it); the
            group farther from the colour's box on average is the second pencil.
    """
    if len(directions) < 2 * SPLIT_ITEMS - 1:
        return None
    split = _two_groups(directions)
    if split is None:
        return None
    group, apart, spread = split
    if apart < SPLIT_DEGREES or apart < SPLIT_RATIO * spread:
        return None
    far = group if misfits[group].mean() > misfits[~group].mean() else ~group
    return far if int(far.sum()) >= SPLIT_ITEMS else None


def _two_groups(
    directions: NDArray[np.float64],
) -> tuple[NDArray[np.bool_], float, float] | None:
    """Two-means on unit vectors, started across the items' main axis: the first group's
    mask, the angle between the groups' centres and the groups' own spread (degrees)."""
    centred = directions - directions.mean(axis=0)
    axis = np.linalg.svd(centred, full_matrices=False)[2][0]
    group = centred @ axis > 0.0
    centres = np.zeros((2, 3))
    for _ in range(_ROUNDS):
        if group.all() or not group.any():
            return None
        for k, members in enumerate((group, ~group)):
            mean = directions[members].mean(axis=0)
            centres[k] = mean / max(float(np.linalg.norm(mean)), 1e-12)
        moved = directions @ centres[0] > directions @ centres[1]
        if (moved == group).all():
            break
        group = moved
    apart = degrees_of(np.array([centres[0] @ centres[1]]))[0]
    within = np.where(
        group, degrees_of(directions @ centres[0]), degrees_of(directions @ centres[1])
    )
    return group, float(apart), float(np.sqrt(np.mean(within**2)))
