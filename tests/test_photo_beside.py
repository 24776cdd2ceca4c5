"""A line read empty with a trace's pencil just beyond it, between bare spaces, is flagged.

A hand that keeps the print in view traces beside a line's stroke, and the trace can fall in
the strip beyond the band the reader measures. Only a neighbouring space's hatching should lie
there; where no space beside the line is coloured, pencil there is the line's own trace, so the
line must not be called surely empty. Nothing else about any reading changes.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import LineString, box

from papergames.photo.beside import (
    STRIP_TRACE,
    clear_crossing_traces,
    doubt_traces_beside,
    read_traces_beside,
)
from papergames.photo.colours import LOW, PRESENCE, Decision, Palette, Prototype, Sample
from papergames.photo.items import ReadItem, Sampling

EDGE = LineString([(0.0, 0.0), (20.0, 0.0)])
SPACES = [
    ReadItem(name, "space", Sampling.AREA, shape, shape)
    for name, shape in (("space-1", box(0, -9, 20, 0)), ("space-2", box(0, 0, 20, 9)))
]
LINE = ReadItem("segment-1", "segment", Sampling.LINE, EDGE, EDGE, beside=("space-1", "space-2"))
BARE = Sample("area", 0.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))


def _line(left: float, right: float) -> Sample:
    """A line whose band is bare and whose strips beyond hold these densities (in red)."""
    bare = (0.0, 0.0, 0.0)
    return Sample("line", 0.05, bare, bare, sides=(bare, bare, (left, 0.0, 0.0), (right, 0.0, 0.0)))


densities = st.floats(0.0, 1.5)
readings = st.sampled_from([Decision(None, 1.0), Decision(None, 0.3), Decision("1", 0.9)])
neighbours = st.sampled_from([None, "1", "2"])


@given(densities, densities, readings, neighbours, neighbours)
def test_only_a_sure_empty_line_between_bare_spaces_with_pencil_beyond_is_flagged(
    left: float, right: float, read: Decision, first: str | None, second: str | None
) -> None:
    spaces = [Decision(first, 1.0), Decision(second, 1.0)]
    found = doubt_traces_beside([LINE, *SPACES], [_line(left, right), BARE, BARE], [read, *spaces])
    assert found[1:] == spaces
    assert found[0].colour == read.colour
    assert found[0].confidence <= read.confidence
    traced_beyond = 1.0 - math.exp(-max(left, right)) >= STRIP_TRACE
    should_flag = (
        read.colour is None and not read.low and first is None and second is None and traced_beyond
    )
    assert found[0].low == (read.low or should_flag)
    if not should_flag:
        assert found[0] == read
    else:
        assert found[0].confidence < LOW


RED = Prototype(np.array([0.1, 0.7, 0.7]) / np.linalg.norm([0.1, 0.7, 0.7]), 0.6)
BLUE = Prototype(np.array([0.8, 0.5, 0.1]) / np.linalg.norm([0.8, 0.5, 0.1]), 0.6)
PALETTE = Palette({"1": RED, "2": BLUE}, {"area": 1.0, "box": 1.5, "line": 3.0}, ())


def _beside(hatching: float, trace: float, side: int) -> Sample:
    """A line whose strips hold red hatching of this density on both sides, and whose outer
    band on ``side`` holds a blue trace of this density over the same hatching."""
    red = tuple(hatching * c for c in RED.direction)
    outer = [red, red]
    outer[side] = tuple(
        hatching * r + trace * b for r, b in zip(RED.direction, BLUE.direction, strict=True)
    )
    bare = (0.0, 0.0, 0.0)
    sides = (bare, bare, red, red)
    return Sample("line", 0.0, bare, bare, sides=sides, outer=tuple(outer))


@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.integers(0, 1), readings)
def test_a_trace_beside_the_band_names_the_line_empty_in_its_colour_flagged(
    hatching: float, trace: float, side: int, read: Decision
) -> None:
    """Only a line read empty changes, and only when the outer band holds more than the strip
    by a surely read trace's worth: it takes the trace's colour (blue), flagged."""
    found = read_traces_beside([_beside(hatching, trace, side)], [read], PALETTE)[0]
    excess = 1.0 - math.exp(-trace * max(BLUE.direction))
    if read.colour is not None or excess < STRIP_TRACE - 1e-9:
        assert found == read
    else:
        assert found.colour == "2"
        assert found.low


middles = st.floats(0.0, 0.3)


@given(middles, st.booleans(), st.booleans(), st.booleans(), readings)
def test_a_line_coloured_only_near_its_ends_is_read_empty_flagged(
    middle: float, channel: bool, hatched: bool, beside: bool, read: Decision
) -> None:
    """A line read coloured whose middle is as bare as an empty line's, with nothing beside or
    beyond it, carries the crossings' traces only: read empty, flagged. A line printed as two
    rules, or between hatched spaces, or with a trace beside it, is left as it was read."""
    bare = (0.0, 0.0, 0.0)
    strip = (0.5, 0.5, 0.5) if hatched else bare
    outer = ((0.5, 0.5, 0.5) if beside else strip, strip)
    sample = Sample(
        "line",
        0.2,
        (0.2, 0.2, 0.2),
        (0.2, 0.2, 0.2),
        sides=(bare, bare, strip, strip),
        channel=channel,
        middle=middle,
        outer=outer,
    )
    found = clear_crossing_traces([sample], [read])[0]
    ends_only = (
        read.colour is not None
        and not channel
        and not hatched
        and not beside
        and middle < PRESENCE["line"][0]
    )
    if ends_only:
        assert found.colour is None
        assert found.low
    else:
        assert found == read
