"""A line's channel read far weaker than its pencil is never surely that pencil's trace.

A trace is laid about as firmly as its colour box is filled, and the white channel of a line
printed as two rules shows it whole, so a traced line reads at more than half its pencil's
strength (the bench's least was 0.58). An empty channel on a photocopy can hold a little of the
copier's grey, and next to a greyish pencil that grey fits the pencil's colour: read at a tenth
of the pencil's strength, such a line must be left for a person to look at, not called traced.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from papergames.photo.colours import CHANNEL_TRACE_SHARE, Sample, read_colours

GREEN = (0.66, 0.44, 0.6)
"""A green pencil as a pink-lit photocopy shows it: nearly grey."""
BROWN = (0.45, 0.59, 0.67)


def _scaled(pencil: tuple[float, float, float], share: float) -> tuple[float, float, float]:
    r, g, b = (share * c for c in pencil)
    return (r, g, b)


def _channel(absorb: tuple[float, float, float]) -> Sample:
    return Sample("line", 1.0, absorb, absorb, channel=True)


def _read(line: Sample) -> tuple[str | None, bool]:
    """How ``line`` reads on a page with a green and a brown pencil, five lines traced in
    each down their channels as firmly as the boxes are filled."""
    samples = [
        Sample("box", 0.9, GREEN, GREEN),
        Sample("box", 0.9, BROWN, BROWN),
        *[_channel(_scaled(GREEN, 0.9))] * 5,
        *[_channel(_scaled(BROWN, 0.9))] * 5,
        line,
    ]
    _, decisions = read_colours(samples, ["1", "2", *[None] * 11])
    return decisions[-1].colour, decisions[-1].low


@settings(max_examples=60, deadline=None)
@given(share=st.floats(0.01, 1.0), green=st.booleans())
def test_a_channel_far_weaker_than_its_pencil_is_never_surely_traced(
    share: float, green: bool
) -> None:
    colour, low = _read(_channel(_scaled(GREEN if green else BROWN, share)))
    if share < CHANNEL_TRACE_SHARE and colour is not None:
        assert low
    if share >= 0.5:
        assert (colour, low) == ("1" if green else "2", False)


def test_the_copiers_grey_in_an_empty_channel_is_left_in_doubt() -> None:
    """The reading of an empty line seen on a bench copy: grey at 0.07 absorbance, nearest the
    greyish green."""
    colour, low = _read(_channel((0.069, 0.043, 0.056)))
    assert colour is None or low
