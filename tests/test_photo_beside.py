"""A line read empty with a trace's pencil just beyond it, between bare spaces, is flagged.

A hand that keeps the print in view traces beside a line's stroke, and the trace can fall in
the strip beyond the band the reader measures. Only a neighbouring space's hatching should lie
there; where no space beside the line is coloured, pencil there is the line's own trace, so the
line must not be called surely empty. Nothing else about any reading changes.
"""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import LineString, box

from papergames.photo.beside import STRIP_TRACE, doubt_traces_beside
from papergames.photo.colours import LOW, Decision, Sample
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
