"""A line whose own density is the print's grey is read empty, whatever the page's excess.

A laser printer's screen prints one grey line darker than another, and a photocopier darkens
them all, so a line can keep some of the print's grey after the page's excess grey is taken
off; a pencil close to grey must not take it. Only lines printed as one stroke, with no tinted
pencil in their density and none in the band beside the stroke, are read empty, and flagged.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from papergames.photo.colours import LOW, Decision, Prototype, Sample
from papergames.photo.mixtures import GREY, pencil_columns
from papergames.photo.toner import TINT_LEAST, TINT_NOISE, clear_print_grey


def _pencil(absorbance: tuple[float, float, float]) -> Prototype:
    vector = np.array(absorbance)
    return Prototype(vector / np.linalg.norm(vector), float(np.linalg.norm(vector)))


RED = _pencil((0.05, 0.6, 0.6))
GREYISH = _pencil((0.4, 0.5, 0.56))
PENCILS = {"1": RED, "2": GREYISH}
BARE = (0.0, 0.0, 0.0)


def _line(grey: float, red: float, beside: float, *, channel: bool = False) -> Sample:
    """A line whose density is ``grey`` of grey plus ``red`` of the red pencil's light column,
    with ``beside`` of grey in the band left of its stroke."""
    density = grey * GREY / GREY[0] + red * pencil_columns(RED.direction, RED.strength)[:, 0]
    absorb = tuple(float(v) for v in 1.0 - np.exp(-density))
    sides = ((beside,) * 3, BARE, BARE, BARE)
    return Sample("line", 0.5, absorb, absorb, sides=sides, channel=channel)


greys = st.floats(0.0, 0.4)
reds = st.one_of(st.floats(0.0, 0.9 * TINT_LEAST), st.floats(1.2 * TINT_LEAST, 1.0))
readings = st.sampled_from([Decision("1", 0.9), Decision("2", 0.7), Decision("2", 0.3)])


@given(greys, reds, st.floats(0.0, 0.08), readings)
def test_a_line_of_grey_alone_with_a_bare_band_is_read_empty_and_flagged(
    grey: float, red: float, beside: float, read: Decision
) -> None:
    found = clear_print_grey([_line(grey, red, beside)], [read], PENCILS)[0]
    if red < TINT_LEAST:
        assert found.colour is None
        assert found.confidence < LOW
    else:
        assert found == read


@given(greys, reds, st.floats(0.1, 1.0), readings)
def test_a_line_with_pencil_beside_its_stroke_keeps_its_reading(
    grey: float, red: float, beside: float, read: Decision
) -> None:
    assert clear_print_grey([_line(grey, red, beside)], [read], PENCILS) == [read]


@given(greys, readings)
def test_lines_printed_as_two_rules_and_lines_read_empty_are_left_alone(
    grey: float, read: Decision
) -> None:
    channelled = _line(grey, 0.0, 0.0, channel=True)
    empty = Decision(None, 1.0)
    found = clear_print_grey([channelled, _line(grey, 0.0, 0.0)], [read, empty], PENCILS)
    assert found == [read, empty]


def test_with_no_tinted_pencil_in_play_nothing_changes() -> None:
    graphite = {"1": _pencil((0.3, 0.3, 0.31))}
    read = [Decision("1", 0.9)]
    assert clear_print_grey([_line(0.2, 0.0, 0.0)], read, graphite) == read


def _greyish_line(grey: float, tint: float, beside: float = 0.0) -> Sample:
    """A line whose density is ``grey`` of grey plus as much of the greyish pencil's light
    column as shows a tint of ``tint``, with ``beside`` of grey left of its stroke."""
    column = pencil_columns(GREYISH.direction, GREYISH.strength)[:, 0]
    amount = tint / float(np.linalg.norm(column - column.mean()))
    density = grey * GREY / GREY[0] + amount * column
    absorb = tuple(float(v) for v in 1.0 - np.exp(-density))
    return Sample("line", 0.5, absorb, absorb, sides=((beside,) * 3, BARE, BARE, BARE))


@given(greys, st.floats(0.0, 0.9 * TINT_NOISE), readings)
def test_a_line_tinted_no_more_than_an_empty_one_is_read_empty_whatever_pencil_fits_it(
    grey: float, tint: float, read: Decision
) -> None:
    """A pencil near grey fits a line of the print's grey with a little of itself; the line's
    tint says how little. (A Miro copy's line printed darker than the page's excess was read
    surely in a greyish pencil at 0.05 of it, with a tint of 0.009.)"""
    found = clear_print_grey([_greyish_line(grey, tint)], [read], PENCILS)[0]
    assert found.colour is None
    assert found.confidence < LOW


@given(greys, st.floats(1.2 * TINT_NOISE, 0.3), readings)
def test_a_greyish_trace_whose_tint_shows_keeps_its_reading(
    grey: float, tint: float, read: Decision
) -> None:
    assert clear_print_grey([_greyish_line(grey, tint)], [read], PENCILS) == [read]


@given(greys, st.floats(0.0, 0.9 * TINT_NOISE), st.floats(0.1, 1.0), readings)
def test_an_untinted_line_with_pencil_beside_its_stroke_keeps_its_reading(
    grey: float, tint: float, beside: float, read: Decision
) -> None:
    assert clear_print_grey([_greyish_line(grey, tint, beside)], [read], PENCILS) == [read]


@given(greys, st.floats(0.5 * TINT_NOISE, 0.9 * TINT_NOISE))
def test_a_line_read_in_graphite_is_not_judged_by_its_tint(grey: float, tint: float) -> None:
    """Graphite has no tint of its own: its traces are told by the pencil beside the stroke,
    and a line read in it whose density holds as much greyish pencil as a trace stays as read."""
    pencils = {**PENCILS, "3": _pencil((0.3, 0.3, 0.31))}
    read = [Decision("3", 0.9)]
    assert clear_print_grey([_greyish_line(grey, tint)], read, pencils) == read
