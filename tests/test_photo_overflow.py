"""A neighbour's hatching that runs over a space's border is not the space's own pencil: a small
space mixes the two in its reading, and an empty one is darkened round its rim. Neither may
leave a plain reading in doubt, and neither may hide a real one."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from papergames.photo.colours import (
    CORE_SETTLES_MM2,
    FILL_DOUBT,
    Decision,
    Prototype,
    Sample,
    read_colours,
)
from papergames.photo.mixtures import OVERFLOW_SHARE, fit_lines

# Colour boxes as a scan of light pencils reads them (absorbance per channel).
BOXES = {
    "red": (0.01, 0.125, 0.12),
    "green": (0.39, 0.18, 0.34),
    "blue": (0.34, 0.23, 0.055),
    "yellow": (0.012, 0.03, 0.235),
}


def _area(absorb: tuple[float, float, float], size: float = 36.0) -> Sample:
    """A hatched space: pencil over most of it, grainy as hatching is."""
    return Sample("area", 0.85, absorb, absorb, texture=40.0, size=size)


def _mixed(own: str, other: str, share: float) -> tuple[float, float, float]:
    total = np.asarray(BOXES[own]) + share * np.asarray(BOXES[other])
    return (float(total[0]), float(total[1]), float(total[2]))


def _read(*spaces: Sample) -> list[tuple[str | None, bool]]:
    """The decisions on ``spaces`` on a page whose other spaces are hatched plainly in every
    colour (which sets the page's spread of angles)."""
    legends = [Sample("area", 0.95, box, box, texture=40.0) for box in BOXES.values()]
    plain = [_area(box, size=300.0) for box in BOXES.values() for _ in range(3)]
    samples = [*legends, *plain, *spaces]
    names: list[str | None] = [*BOXES, *[None] * (len(plain) + len(spaces))]
    _, decisions = read_colours(samples, names)
    return [(d.colour, d.low) for d in decisions[-len(spaces) :]]


def test_a_space_with_a_neighbours_overflow_reads_its_own_colour_surely() -> None:
    # A light red triangle with a quarter of it under a strong green neighbour's strokes reads
    # 15-20 degrees off red, nearer brown: far from every colour in play, and hardly nearer red
    # than green, yet nothing but red and that overflow explains it.
    pairs = [("red", "green"), ("yellow", "blue"), ("red", "blue"), ("blue", "red")]
    for own, other in pairs:
        overflowed = _area(_mixed(own, other, 0.9 * OVERFLOW_SHARE))
        assert _read(overflowed) == [(own, False)], (own, other)


def test_a_mixture_beyond_what_overflow_lays_stays_in_doubt() -> None:
    # Half again as much green as a neighbour's overflow lays, or a pencil not in play.
    assert _read(_area(_mixed("red", "green", 1.5 * OVERFLOW_SHARE))) == [("green", True)]
    assert _read(_area((0.05, 0.3, 0.0))) == [("red", True)]


def test_an_empty_space_darkened_only_round_its_rim_is_empty_surely() -> None:
    usual = max(float(np.linalg.norm(box)) for box in BOXES.values())
    dark = 2.0 * FILL_DOUBT["area"] * usual / np.sqrt(3.0)
    rim = (dark, dark, dark)
    bare_core = FILL_DOUBT["area"] * usual / 4
    empty = Sample("area", 0.1, rim, rim, texture=10.0, size=120.0, core=0.0)
    large, small = CORE_SETTLES_MM2 + 10.0, CORE_SETTLES_MM2 / 2
    assert _read(replace(empty, core_area=large, core_fill=bare_core)) == [(None, False)]
    # Darkened in its core too (a light hatching the detector missed), or with too small a core
    # to tell, it stays in doubt.
    assert _read(replace(empty, core_area=large, core_fill=2 * dark)) == [(None, True)]
    assert _read(replace(empty, core_area=small, core_fill=bare_core)) == [(None, True)]


def _density(absorb: tuple[float, float, float], scale: float = 1.0) -> np.ndarray:
    return -np.log(1.0 - scale * np.asarray(absorb))


def test_hatching_that_ran_on_over_a_line_is_not_taken_for_its_trace() -> None:
    # A light blue trace between a firm red hatching and bare paper, the red strokes run on
    # over the line: the band on the far side, whose strip beyond is bare paper, holds the
    # trace and half as much red as the strip beyond the hatched side.
    red, blue = _density(BOXES["red"], 3.0), _density(BOXES["blue"], 0.6)
    sides = np.array([[red + blue, blue + 0.5 * red, red, np.zeros(3)]])
    prototypes = {
        name: Prototype(np.asarray(box) / np.linalg.norm(box), float(np.linalg.norm(box)))
        for name, box in BOXES.items()
    }
    fitted = fit_lines(sides, prototypes)[0]
    assert min(fitted.residuals, key=fitted.residuals.__getitem__) == "blue"
    assert fitted.residuals["blue"] < 0.5 * fitted.residuals["red"]


def _line(absorb: np.ndarray, sides: list[np.ndarray]) -> Sample:
    """A traced line: its band's mean pencil, and its sides' densities."""
    return Sample(
        "line",
        0.9,
        (float(absorb[0]), float(absorb[1]), float(absorb[2])),
        (float(absorb[0]), float(absorb[1]), float(absorb[2])),
        sides=tuple((float(d[0]), float(d[1]), float(d[2])) for d in sides),
        texture=40.0,
    )


def _unmixed_against_mean(trace: float, lean: float = 0.25) -> Decision:
    """The decision on a line whose band's mean leans from red toward blue (``lean`` of the
    blue box to one red box), with red hatching run on over a blue trace of ``trace`` times
    the blue box's density, on a page whose other lines are traced plainly in every colour."""
    red, blue = _density(BOXES["red"], 3.0), trace * _density(BOXES["blue"])
    traced = np.asarray(BOXES["red"]) + lean * np.asarray(BOXES["blue"])
    hidden = _line(traced, [red + blue, blue + 0.5 * red, red, np.zeros(3)])
    plain = [
        _line(1.5 * np.asarray(box), [_density(box, 1.5)] * 2 + [np.zeros(3)] * 2)
        for box in BOXES.values()
        for _ in range(3)
    ]
    legends = [Sample("area", 0.95, box, box, texture=40.0) for box in BOXES.values()]
    spaces = [_area(box, size=300.0) for box in BOXES.values() for _ in range(3)]
    names: list[str | None] = [*BOXES, *[None] * (len(spaces) + len(plain) + 1)]
    _, decisions = read_colours([*legends, *spaces, *plain, hidden], names)
    assert [(d.colour, d.low) for d in decisions[-len(plain) - 1 : -1]] == [
        (name, False) for name in BOXES for _ in range(3)
    ]
    return decisions[-1]


def test_a_trace_hidden_under_hatching_is_named_by_unmixing_and_flagged() -> None:
    # Read from its mean, red lies nearest but not near; unmixing the sides finds a faint blue
    # trace, and the line is named blue and left for a person to look at.
    hidden = _unmixed_against_mean(0.4)
    assert (hidden.colour, hidden.low) == ("blue", True)


def test_a_dense_trace_the_mean_does_not_show_names_nothing_new() -> None:
    # A trace as dense as three blue boxes would have turned the band's mean blue: unmixing
    # that finds it there, while the mean leans red, is doubted, and only flags the line.
    dense = _unmixed_against_mean(3.0)
    assert (dense.colour, dense.low) == ("red", True)


def test_a_mean_a_few_degrees_off_its_colour_gives_way_to_a_sure_unmixing_in_doubt() -> None:
    # The band's mean 3.9 degrees from red, as red hatching over a faint blue trace leaves it:
    # the unmixing's blue puts the line in doubt. At 1.8 degrees the mean is red's own.
    assert _unmixed_against_mean(0.4, lean=0.04).low
    near = _unmixed_against_mean(0.4, lean=0.02)
    assert (near.colour, near.low) == ("red", False)
