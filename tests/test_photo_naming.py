"""Pencil names in a verdict: each seat's pencil named as a person beside the sheet would name it.

The names come from :mod:`papergames.photo.naming`. Our own pencils must keep their names at any
strength, and two pencils that are not ours, a yellow-orange and a lemon yellow that both lie
nearest our yellow, must be told apart in the order of their hues, whichever seat holds which.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from papergames.photo.naming import (
    HUE_APART,
    PALETTE,
    RGB,
    absorbed_angle,
    colour_name,
    distinct_names,
)


def _encoded(linear: np.ndarray) -> RGB:
    srgb = np.where(linear > 0.0031308, 1.055 * linear ** (1 / 2.4) - 0.055, 12.92 * linear)
    red, green, blue = (round(float(c) * 255) for c in np.clip(srgb, 0.0, 1.0))
    return red, green, blue


def _absorbed(rgb: RGB) -> np.ndarray:
    channels = np.asarray(rgb, dtype=np.float64) / 255.0
    linear = np.where(channels > 0.04045, ((channels + 0.055) / 1.055) ** 2.4, channels / 12.92)
    return np.asarray(1.0 - linear)


def _laid(absorbed: np.ndarray, strength: float) -> RGB:
    """A pencil that absorbs ``absorbed`` of each channel's light, hatched over ``strength``
    of white paper (mixed in light)."""
    return _encoded(1.0 - strength * absorbed)


STRENGTHS = st.sampled_from([0.3, 0.45, 0.6, 0.8, 1.0])


@given(
    pair=st.sampled_from(list(itertools.permutations(PALETTE, 2))),
    first=STRENGTHS,
    second=STRENGTHS,
)
def test_two_of_our_pencils_keep_their_names_at_any_strength(
    pair: tuple[str, str], first: float, second: float
) -> None:
    one, other = pair
    colours = {
        "1": _laid(_absorbed(PALETTE[one]), first),
        "2": _laid(_absorbed(PALETTE[other]), second),
    }
    assert distinct_names(colours) == {"1": one, "2": other}


YELLOW_ORANGES = [(share, strength) for share in (0.25, 0.35, 0.5) for strength in (0.3, 0.6, 0.9)]
"""Pencils between our yellow and our orange (the share of orange's absorbance), at strengths."""
LEMONS = [(green, strength) for green in (0.05, 0.15, 0.25) for strength in (0.2, 0.4, 0.7)]
"""Yellows that absorb less green light than ours (a lemon yellow), at strengths."""


def _yellow_orange(share: float, strength: float) -> RGB:
    mixed = (1 - share) * _absorbed(PALETTE["yellow"]) + share * _absorbed(PALETTE["orange"])
    return _laid(mixed, strength)


def _lemon(green: float, strength: float) -> RGB:
    return _laid(np.array([0.02, green, 0.95]), strength)


@pytest.mark.parametrize(("share", "strength"), YELLOW_ORANGES)
@pytest.mark.parametrize(("green", "lemon_strength"), LEMONS)
@pytest.mark.parametrize("seats", [("1", "2"), ("2", "1")])
def test_a_yellow_orange_beside_a_lemon_yellow_is_the_orange(
    share: float, strength: float, green: float, lemon_strength: float, seats: tuple[str, str]
) -> None:
    warm, cool = _yellow_orange(share, strength), _lemon(green, lemon_strength)
    if absorbed_angle(warm, cool) < HUE_APART:
        pytest.skip("too near in hue to be ranked by it")
    orange_seat, yellow_seat = seats
    named = distinct_names(dict(sorted({orange_seat: warm, yellow_seat: cool}.items())))
    assert named == {orange_seat: "orange", yellow_seat: "yellow"}


def test_the_hue_rule_is_asked_for_pencils_that_share_a_nearest_name() -> None:
    """The case the rule is for: both lie nearest our yellow, so each alone is 'yellow'."""
    shared = [
        (warm, cool)
        for warm in itertools.starmap(_yellow_orange, YELLOW_ORANGES)
        for cool in itertools.starmap(_lemon, LEMONS)
        if colour_name(warm) == colour_name(cool) == "yellow"
        and absorbed_angle(warm, cool) >= HUE_APART
    ]
    assert len(shared) >= 10
    for warm, cool in shared:
        assert distinct_names({"1": warm, "2": cool}) == {"1": "orange", "2": "yellow"}


def test_two_pencils_of_one_hue_are_numbered_not_renamed() -> None:
    """Two reds too near in hue to rank keep the nearest name, numbered."""
    first, second = (200, 60, 58), (190, 70, 64)
    assert absorbed_angle(first, second) < HUE_APART
    assert distinct_names({"1": first, "2": second, "3": (60, 95, 170)}) == {
        "1": "red",
        "2": "red-2",
        "3": "blue",
    }


@given(strength=st.floats(0.15, 1.0))
def test_a_pencil_laid_at_any_strength_absorbs_in_one_direction(strength: float) -> None:
    for rgb in PALETTE.values():
        assert absorbed_angle(rgb, _laid(_absorbed(rgb), strength)) < 2.5
