"""Names for the pencil colours the reader learns, so a verdict can say "red" rather than RGB.

The reader learns each player's colour from the colour box; people know it by a name. The name
is the nearest of the common coloured-pencil colours in CIELAB, where distance follows what the
eye sees, each colour taken as laid on paper at any strength from light hatching to solid: a box
hatched lightly in purple averages to a pale lilac, which is nearer light blue than purple
itself but lies on purple's way to the paper's white. Two players whose pencils are nearest the
same name are told apart by the next name that fits one of them nearly as well (a light orange
beside a yellow is the orange), else by their hues, else by a number (``blue``, ``blue-2``);
every name is a single word that a ``final:`` line accepts.

Beside each other, two pencils are named in the order of their hues. Their pencils need not be
ours: a yellow-orange pencil lies nearer our yellow than our orange, and so may a pale lemon
yellow beside it, but a person who sees both calls the first orange. Lightness tells little here,
as a pencil laid lightly is pale whatever its colour, so the hue is taken from the share of each
channel's light the pencil absorbs, which does not change with how hard it was laid
(:func:`absorbed_angle`).

Example:
    >>> colour_name((200, 60, 58)), colour_name((60, 95, 170))
    ('red', 'blue')
    >>> distinct_names({"1": (200, 60, 58), "2": (190, 70, 64), "3": (60, 95, 170)})
    {'1': 'red', '2': 'red-2', '3': 'blue'}
    >>> distinct_names({"1": (254, 254, 130), "2": (251, 199, 133)})  # yellow, light orange
    {'1': 'yellow', '2': 'orange'}
    >>> colour_name((169, 144, 185)), colour_name((250, 217, 194))  # hatched purple, orange
    ('purple', 'orange')
    >>> colour_name((253, 205, 117)), colour_name((254, 252, 200))  # yellow-orange, lemon
    ('yellow', 'yellow')
    >>> distinct_names({"1": (253, 205, 117), "2": (254, 252, 200)})
    {'1': 'orange', '2': 'yellow'}
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import numpy as np

from papergames.photo.pencil import PENCILS

RGB = tuple[int, int, int]

PALETTE: dict[str, RGB] = {name.replace(" ", "-"): rgb for name, rgb in PENCILS.items()}
"""The named colours, as coloured pencil looks on white paper."""


def to_lab(rgb: RGB) -> np.ndarray:
    """CIELAB (D65) of an sRGB colour."""
    return _lab_of_linear(_linear(rgb))


_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
_WHITE_XYZ = np.array([0.95047, 1.0, 1.08883])


def _lab_of_linear(linear: np.ndarray) -> np.ndarray:
    """CIELAB of linear-light sRGB colours (0-1), one per row (or a single colour)."""
    xyz = linear @ _TO_XYZ.T / _WHITE_XYZ
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    lightness = 116 * f[..., 1] - 16
    return np.stack([lightness, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


STRENGTHS = np.linspace(0.15, 1.0, 35)
"""How much of the paper a pencil covers, from light hatching to solid, for :func:`colour_name`."""


def _linear(rgb: RGB) -> np.ndarray:
    channels = np.asarray(rgb, dtype=np.float64) / 255.0
    return np.where(channels > 0.04045, ((channels + 0.055) / 1.055) ** 2.4, channels / 12.92)


def _as_laid(rgb: RGB) -> np.ndarray:
    """CIELAB of the colour over white paper at each of :data:`STRENGTHS` (mixed in light)."""
    return _lab_of_linear(STRENGTHS[:, None] * _linear(rgb) + (1.0 - STRENGTHS[:, None]))


_LAID = {name: _as_laid(rgb) for name, rgb in PALETTE.items()}


def colour_name(rgb: RGB) -> str:
    """The palette name whose colour, at some strength on white paper, is nearest to ``rgb``."""
    distances = _distances(rgb)
    return min(distances, key=distances.__getitem__)


def _distances(rgb: RGB) -> dict[str, float]:
    lab = to_lab(rgb)
    return {name: float(np.min(np.linalg.norm(laid - lab, axis=1))) for name, laid in _LAID.items()}


NEAR_ENOUGH = 12.0
"""How much farther (CIELAB distance) than the nearest name another name may lie and still be
given to a pencil, so that two players' pencils get two names: a light orange lies 12 from
yellow and 20 from orange, and beside a player's real yellow it is the orange."""


def distinct_names(colours: Mapping[str, RGB]) -> dict[str, str]:
    """A different name for each key's colour: the names nearest in all, each pencil taking a
    name within :data:`NEAR_ENOUGH` of its nearest, then put in the order of the pencils' hues
    (:func:`_in_hue_order`). Where no such choice keeps them apart, pencils whose hues lie
    :data:`HUE_APART` apart may also take one of the :data:`HUE_NEIGHBOURS` names nearest their
    hue, and the names nearest the hues in all are given; else names are numbered (``red-2``)."""
    keys = list(colours)
    distances = [_distances(colours[key]) for key in keys]
    angles = [_angles(colours[key]) for key in keys]
    choices = [
        [name for name, d in found.items() if d <= min(found.values()) + NEAR_ENOUGH]
        for found in distances
    ]
    best = _cheapest(choices, distances)
    if best is not None:
        return dict(zip(keys, _in_hue_order(list(best), colours, angles), strict=True))
    by_hue = [
        sorted({*names, *sorted(found, key=found.__getitem__)[:HUE_NEIGHBOURS]})
        for names, found in zip(choices, angles, strict=True)
    ]
    best = _cheapest(by_hue, angles)
    nearest = [min(found, key=found.__getitem__) for found in distances]
    if best is not None and _hues_apart(list(colours.values()), nearest):
        return dict(zip(keys, best, strict=True))
    named: dict[str, str] = {}
    used: dict[str, int] = {}
    for key in keys:
        name = colour_name(colours[key])
        used[name] = used.get(name, 0) + 1
        named[key] = name if used[name] == 1 else f"{name}-{used[name]}"
    return named


MAX_CHOICES = 100_000
"""Most combinations of names weighed for the players' pencils (ten per pencil for six seats
would be a million)."""

HUE_APART = 10.0
"""Least angle (:func:`absorbed_angle`) between two pencils for their hues to rank them. One
pencil read from its colour box lies within 4.4° of its colour on nine of ten of the bench's
photos, and within 6° on all (93 boxes on scans, phone photos and copies), so two pencils this
far apart are two colours, not one read twice."""

HUE_NEIGHBOURS = 2
"""How many of the names nearest a pencil's hue it may take when two pencils would otherwise
share a name: the nearest and the next nearest."""


def _cheapest(choices: list[list[str]], costs: list[dict[str, float]]) -> tuple[str, ...] | None:
    """The distinct names, one from each pencil's ``choices``, of the least total cost."""
    if math.prod(len(c) for c in choices) > MAX_CHOICES:
        return None
    best: tuple[float, tuple[str, ...]] | None = None
    for names in itertools.product(*choices):
        if len(set(names)) == len(names):
            cost = sum(found[name] for found, name in zip(costs, names, strict=True))
            if best is None or cost < best[0]:
                best = (cost, names)
    return None if best is None else best[1]


def _in_hue_order(
    names: list[str], colours: Mapping[str, RGB], angles: list[dict[str, float]]
) -> list[str]:
    """``names`` with every two pencils :data:`HUE_APART` apart swapped whose hues lie nearer
    each other's names (:func:`absorbed_angle`, summed over the two) than their own."""
    rgb = list(colours.values())
    swapped = True
    while swapped:
        swapped = False
        for a, b in itertools.combinations(range(len(names)), 2):
            if absorbed_angle(rgb[a], rgb[b]) < HUE_APART:
                continue
            kept = angles[a][names[a]] + angles[b][names[b]]
            if angles[a][names[b]] + angles[b][names[a]] < kept - 1e-9:
                names[a], names[b] = names[b], names[a]
                swapped = True
    return names


def _hues_apart(rgb: list[RGB], nearest: list[str]) -> bool:
    """Whether every two pencils that share their ``nearest`` name lie :data:`HUE_APART` apart."""
    return all(
        absorbed_angle(rgb[a], rgb[b]) >= HUE_APART
        for a, b in itertools.combinations(range(len(rgb)), 2)
        if nearest[a] == nearest[b]
    )


def absorbed_angle(first: RGB, second: RGB) -> float:
    """The angle in degrees between the shares of red, green and blue light two colours absorb
    from white paper: 0 for one pencil laid at any strength, as hatching mixes the pencil's
    colour with the paper's white in light.

    Example:
        >>> round(absorbed_angle((242, 206, 66), (251, 242, 220)), 1)  # yellow, laid lightly
        0.6
        >>> round(absorbed_angle((242, 206, 66), (236, 130, 54)))  # yellow, orange
        17
    """
    return _angle(_absorbed(first), _absorbed(second))


def _angle(a: np.ndarray | None, b: np.ndarray | None) -> float:
    if a is None or b is None:
        return 90.0
    return math.degrees(math.acos(float(np.clip(a @ b, -1.0, 1.0))))


def _absorbed(rgb: RGB) -> np.ndarray | None:
    """The unit direction of the light ``rgb`` absorbs from white, or ``None`` for white."""
    absorbed = 1.0 - _linear(rgb)
    size = float(np.linalg.norm(absorbed))
    return absorbed / size if size > 1e-3 else None


_PALETTE_ABSORBED = {name: _absorbed(rgb) for name, rgb in PALETTE.items()}


def _angles(rgb: RGB) -> dict[str, float]:
    """:func:`absorbed_angle` from ``rgb`` to each palette colour."""
    absorbed = _absorbed(rgb)
    return {name: _angle(absorbed, named) for name, named in _PALETTE_ABSORBED.items()}
