"""A traced line left in doubt is named from the pencil on its printed stroke.

Miro and Arp end only when every line is coloured, so a line the reader cannot call traced or
empty is far likelier traced. On a line printed as one grey stroke, a trace laid over hatching
of its own colour hardly shows in the band beside the line (the layers saturate), but the
stroke itself carries it: the reader names the line from the stroke, and leaves it in doubt.
A photocopier prints the stroke nearly black, and then the band's faint tint names the line.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString

from papergames.photo.colours import TRACED_COVERAGE, Palette, Sample, _leaning, read_colours
from papergames.photo.items import ReadItem, Sampling
from papergames.photo.paper import Paper
from papergames.photo.sample import ON_STROKE, _line_absorbance, _strip_pixels, item_regions

YELLOW = (0.02, 0.12, 0.62)
BLUE = (0.62, 0.35, 0.05)


def _box(pencil: tuple[float, float, float]) -> Sample:
    return Sample("box", 0.9, pencil, pencil)


def _traced(pencil: tuple[float, float, float]) -> Sample:
    r, g, b = (0.5 * c for c in pencil)
    return Sample("line", 1.0, (r, g, b), (r, g, b))


def _read(line: Sample) -> tuple[str | None, bool]:
    """How ``line`` reads on a page with a yellow and a blue pencil, five lines traced in each."""
    samples = [_box(YELLOW), _box(BLUE), *[_traced(YELLOW)] * 5, *[_traced(BLUE)] * 5, line]
    legends = ["1", "2", *[None] * 11]
    _, decisions = read_colours(samples, legends)
    return decisions[-1].colour, decisions[-1].low


def _in_doubt(stroke: tuple[float, float, float] | None) -> Sample:
    """A line a third or more covered whose band, less the hatching beyond it, shows almost
    nothing: a trace laid over hatching of its own colour, or a line barely touched."""
    band = (0.007, 0.007, 0.011)
    return Sample("line", 1.0, band, band, stroke=stroke)


def _scaled(pencil: tuple[float, float, float], share: float) -> tuple[float, float, float]:
    r, g, b = (share * c for c in pencil)
    return (r, g, b)


def test_a_line_in_doubt_is_named_from_its_stroke_and_stays_in_doubt() -> None:
    assert _read(_in_doubt(_scaled(YELLOW, 0.6))) == ("1", True)
    assert _read(_in_doubt(_scaled(BLUE, 0.6))) == ("2", True)
    # A line printed as two rules has no stroke to ask: its channel is its reading.
    assert _read(_in_doubt(None)) == (None, True)


def test_a_stroke_that_shows_only_grey_names_no_colour() -> None:
    # The print's own grey, as a photocopier darkens it, or a shadow: no pencil's tint.
    assert _read(_in_doubt((0.25, 0.25, 0.25))) == (None, True)


def test_a_line_read_surely_is_not_renamed_from_its_stroke() -> None:
    traced = _traced(YELLOW)
    blue = _scaled(BLUE, 0.6)
    assert _read(Sample("line", 1.0, traced.absorb, traced.fill, stroke=blue)) == ("1", False)
    untouched = Sample("line", 0.0, (0.002, 0.003, 0.001), (0.0, 0.0, 0.0), stroke=blue)
    assert _read(untouched) == (None, False)


def test_a_line_with_little_pencil_in_its_band_is_not_named_from_its_stroke() -> None:
    # A dim or blurred photo may leave a bare line in doubt: a stroke darker than drawn does
    # not make it traced. Only a band a third or more covered is (TRACED_COVERAGE).
    samples = [_box(YELLOW), _box(BLUE), *[_traced(YELLOW)] * 5, *[_traced(BLUE)] * 5]
    palette, _ = read_colours(samples, ["1", "2", *[None] * 10])
    line = _in_doubt(_scaled(BLUE, 0.6))
    assert _leaning(line, palette, {}) == "2"
    assert _leaning(replace(line, coverage=TRACED_COVERAGE - 0.05), palette, {}) is None


@settings(max_examples=25, deadline=None)
@given(
    pencil=st.tuples(*[st.floats(0.0, 0.8)] * 3),
    grey=st.floats(0.2, 0.7),
    white=st.floats(150.0, 250.0),
)
def test_the_stroke_reading_divides_the_print_out(
    pencil: tuple[float, float, float], grey: float, white: float
) -> None:
    """Over a stroke that lets ``grey`` of the light through, pencil of absorbance ``pencil``
    reads as ``pencil``, whatever the print and the paper's white; off the stroke nothing is
    read, and a line with no stroke under its band reads NaN."""
    px = 8.0
    size = (80, 160)
    line = LineString([(2.0, 5.0), (18.0, 5.0)])
    item = ReadItem("segment-1", "segment", Sampling.LINE, line, line.buffer(1.0))
    far = LineString([(2.0, 8.0), (18.0, 8.0)])
    other = ReadItem("segment-2", "segment", Sampling.LINE, far, far.buffer(1.0))
    regions = item_regions([item, other], size, px)
    light = np.ones(size, dtype=np.float32)
    rows = slice(round(4.75 * px), round(5.25 * px))
    light[rows, :] = grey
    left = np.array([1.0 - c for c in pencil], dtype=np.float32)
    page = np.full((*size, 3), white, dtype=np.float32)
    page[rows, :] = white * grey * left
    page[light >= ON_STROKE] *= left  # the trace beside the stroke: not what is read here
    paper = Paper(np.full((*size, 3), white, dtype=np.float32), np.ones((27, 54), dtype=bool))
    strips = _strip_pixels(regions, np.ones(size, dtype=bool), 2 * 2 + 1)
    _, _, stroke, _ = _line_absorbance(page, paper, light, regions, strips, 2)
    assert np.allclose(stroke[0], pencil, atol=2e-3)
    assert np.isnan(stroke[1]).all()


def test_a_line_whose_stroke_copied_black_is_named_from_its_band() -> None:
    """A photocopier prints the stroke nearly black, so a trace shows only beside it: the
    band's faint tint names the line, which stays in doubt; a grey band names nothing."""
    black = (0.9, 0.9, 0.9)
    for pencil, name in ((YELLOW, "1"), (BLUE, "2")):
        band = _scaled(pencil, 0.08)
        faint = Sample("line", 0.1, band, band, stroke=black)
        assert _read(faint) == (name, True)
    grey = (0.05, 0.05, 0.05)
    assert _read(Sample("line", 0.1, grey, grey, stroke=black)) == (None, True)


def test_a_band_with_no_pencil_found_names_nothing() -> None:
    # A bare line on a blurred photo: its band tinted by the hatching nearby, no pencil in it.
    samples = [_box(YELLOW), _box(BLUE), *[_traced(YELLOW)] * 5, *[_traced(BLUE)] * 5]
    palette, _ = read_colours(samples, ["1", "2", *[None] * 10])
    band = _scaled(BLUE, 0.08)
    tinted = Sample("line", 0.05, band, band, stroke=(0.9, 0.9, 0.9))
    assert _leaning(tinted, palette, {}) == "2"
    assert _leaning(replace(tinted, coverage=0.0), palette, {}) is None


def _pale_page() -> tuple[Palette, tuple[float, float, float]]:
    """A page whose yellow pencil is pale (a third of the usual), with a blue one."""
    pale = _scaled(YELLOW, 0.3)
    samples = [_box(pale), _box(BLUE), *[_traced(pale)] * 5, *[_traced(BLUE)] * 5]
    palette, _ = read_colours(samples, ["1", "2", *[None] * 10])
    density = -np.log1p(-np.array(pale))
    return palette, (float(density[0]), float(density[1]), float(density[2]))


def _beside(trace: tuple[float, float, float], strip: tuple[float, float, float]) -> Sample:
    """A line whose band, mostly the copier's black stroke, holds ``trace`` beyond ``strip`` on
    one side and nothing beyond bare paper on the other."""
    band = (trace[0] + strip[0], trace[1] + strip[1], trace[2] + strip[2])
    bare = (0.0, 0.0, 0.0)
    grey = (0.1, 0.1, 0.11)
    sides = (band, bare, strip, bare)
    return Sample("line", 0.05, grey, grey, stroke=(0.9, 0.9, 0.9), sides=sides)


@settings(max_examples=30, deadline=None)
@given(share=st.floats(0.6, 1.5), hatched=st.booleans())
def test_a_pale_trace_beside_the_stroke_is_named_from_its_band_beyond_the_strip(
    share: float, hatched: bool
) -> None:
    """A pale pencil traced beside a stroke a copier printed black covers too little of the
    band to be found pixel by pixel, and the band's mean is the stroke's grey; beyond the strip
    on its side (paper, or that side's hatching) the band holds the trace, and names it."""
    palette, box = _pale_page()
    strip = _scaled(BLUE, 0.5) if hatched else (0.0, 0.0, 0.0)
    assert _leaning(_beside(_scaled(box, share), strip), palette, {}) == "1"


def test_a_band_holding_no_more_than_its_strip_or_a_trace_too_faint_names_nothing() -> None:
    palette, box = _pale_page()
    assert _leaning(_beside((0.0, 0.0, 0.0), _scaled(box, 1.0)), palette, {}) is None
    assert _leaning(_beside(_scaled(box, 0.3), (0.0, 0.0, 0.0)), palette, {}) is None
    # No pencil found anywhere in the band: a blurred photo's bare line (see above).
    line = replace(_beside(_scaled(box, 1.0), (0.0, 0.0, 0.0)), coverage=0.0)
    assert _leaning(line, palette, {}) is None
    # A side not measured (no strip past it on the page) says nothing; the other still does.
    nan = (float("nan"),) * 3
    traced = _beside(_scaled(box, 1.0), (0.0, 0.0, 0.0))
    assert traced.sides is not None
    band, _, strip, _ = traced.sides
    assert _leaning(replace(traced, sides=(band, nan, strip, nan)), palette, {}) == "1"
    assert _leaning(replace(traced, sides=(nan, nan, nan, nan)), palette, {}) is None
