"""Names for the pencil colours the reader learns, so a verdict can say "red" rather than RGB.

The reader learns each player's colour from the colour box; people know it by a name. The name
is the nearest of the common coloured-pencil colours in CIELAB, where distance follows what the
eye sees, each colour taken as laid on paper at any strength from light hatching to solid: a box
hatched lightly in purple averages to a pale lilac, which is nearer light blue than purple
itself but lies on purple's way to the paper's white. Two players whose pencils are nearest the
same name are told apart by the next name that fits one of them nearly as well (a light orange
beside a yellow is the orange), else by a number (``blue``, ``blue-2``); every name is a single
word that a ``final:`` line accepts.

Example:
    >>> colour_name((200, 60, 58)), colour_name((60, 95, 170))
    ('red', 'blue')
    >>> distinct_names({"1": (200, 60, 58), "2": (190, 70, 64), "3": (60, 95, 170)})
    {'1': 'red', '2': 'red-2', '3': 'blue'}
    >>> distinct_names({"1": (254, 254, 130), "2": (251, 199, 133)})  # yellow, light orange
    {'1': 'yellow', '2': 'orange'}
    >>> colour_name((169, 144, 185)), colour_name((250, 217, 194))  # hatched purple, orange
    ('purple', 'orange')
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
    channels = np.asarray(rgb, dtype=np.float64) / 255.0
    linear = np.where(channels > 0.04045, ((channels + 0.055) / 1.055) ** 2.4, channels / 12.92)
    matrix = np.array(
        [
            [0.4124564, 0.3575761, 0.1804375],
            [0.2126729, 0.7151522, 0.0721750],
            [0.0193339, 0.1191920, 0.9503041],
        ]
    )
    xyz = matrix @ linear / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


STRENGTHS = np.linspace(0.15, 1.0, 35)
"""How much of the paper a pencil covers, from light hatching to solid, for :func:`colour_name`."""


def _linear(rgb: RGB) -> np.ndarray:
    channels = np.asarray(rgb, dtype=np.float64) / 255.0
    return np.where(channels > 0.04045, ((channels + 0.055) / 1.055) ** 2.4, channels / 12.92)


def _as_laid(rgb: RGB) -> np.ndarray:
    """CIELAB of the colour over white paper at each of :data:`STRENGTHS` (mixed in light)."""
    mixed = STRENGTHS[:, None] * _linear(rgb) + (1.0 - STRENGTHS[:, None])
    encoded = np.where(mixed > 0.0031308, 1.055 * mixed ** (1 / 2.4) - 0.055, 12.92 * mixed)
    return np.array([to_lab(tuple(channel * 255.0 for channel in row)) for row in encoded])


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
    name within :data:`NEAR_ENOUGH` of its nearest; numbered (``red-2``) where no such choice
    keeps them apart."""
    keys = list(colours)
    distances = [_distances(colours[key]) for key in keys]
    choices = [
        [name for name, d in found.items() if d <= min(found.values()) + NEAR_ENOUGH]
        for found in distances
    ]
    best: tuple[float, tuple[str, ...]] | None = None
    if math.prod(len(c) for c in choices) <= MAX_CHOICES:
        for names in itertools.product(*choices):
            if len(set(names)) == len(names):
                cost = sum(found[name] for found, name in zip(distances, names, strict=True))
                if best is None or cost < best[0]:
                    best = (cost, names)
    if best is not None:
        return dict(zip(keys, best[1], strict=True))
    named: dict[str, str] = {}
    used: dict[str, int] = {}
    for key in keys:
        name = colour_name(colours[key])
        used[name] = used.get(name, 0) + 1
        named[key] = name if used[name] == 1 else f"{name}-{used[name]}"
    return named


MAX_CHOICES = 100_000
