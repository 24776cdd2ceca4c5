"""The grey a photocopier adds to a line printed as one grey stroke is told from the pencil traced
along it, and taken off before the pencil is named."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from papergames.photo.colours import PRESENCE, Prototype, Sample, without_print_excess
from papergames.photo.mixtures import layered_angle, pencil_columns, print_excess

PENCILS = {
    "yellow": np.array([0.02, 0.05, 1.0]),
    "orange": np.array([0.05, 0.45, 0.89]),
    "red": np.array([0.08, 0.70, 0.71]),
    "green": np.array([0.65, 0.35, 0.67]),
    "blue": np.array([0.84, 0.52, 0.12]),
    "brown": np.array([0.35, 0.56, 0.74]),
}


def _prototypes(names: list[str]) -> dict[str, Prototype]:
    return {n: Prototype(PENCILS[n] / np.linalg.norm(PENCILS[n]), 0.45) for n in names}


@settings(max_examples=60, deadline=None)
@given(
    names=st.lists(
        st.sampled_from(sorted(set(PENCILS) - {"brown"})), min_size=2, max_size=4, unique=True
    ),
    excess=st.floats(-0.05, 0.3),
    seed=st.integers(0, 2**16),
)
def test_the_excess_is_found_whatever_pencils_trace_the_lines(
    names: list[str], excess: float, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    prototypes = _prototypes(names)
    pencils = [pencil_columns(p.direction, p.strength) for p in prototypes.values()]
    lines = []
    for _ in range(12):  # a graphite player's traces: grey, as dark as each was pressed
        lines.append(np.full(3, rng.uniform(0.1, 0.8)))
    for _ in range(28):
        columns = pencils[int(rng.integers(len(pencils)))]
        amount = rng.uniform(0.0, 0.8) if rng.random() < 0.8 else 0.0  # some lines untraced
        share = rng.random()
        lines.append(amount * (share * columns[:, 0] + (1 - share) * columns[:, 1]))
    traces = np.array(lines) + excess + rng.normal(0.0, 0.005, (40, 3))
    # Off by less than the least darkening that puts a line in doubt, an untraced line stays
    # surely empty (dull pencils such as green, a third grey themselves, are the hardest).
    assert abs(print_excess(traces, pencils) - excess) < PRESENCE["line"][0]


def _line(absorb: tuple[float, float, float], channel: bool = False) -> Sample:
    return Sample("line", 1.0, absorb, absorb, channel=channel)


def _box(name: str) -> Sample:
    vector = PENCILS[name] / np.linalg.norm(PENCILS[name]) * 0.45
    absorb = (float(vector[0]), float(vector[1]), float(vector[2]))
    return Sample("box", 0.9, absorb, absorb)


def _darkened(pencil: str, amount: float, grey: float) -> tuple[float, float, float]:
    columns = pencil_columns(PENCILS[pencil] / np.linalg.norm(PENCILS[pencil]), 0.45)
    density = amount * columns[:, 1] + grey
    absorb = 1.0 - np.exp(-density)
    return (float(absorb[0]), float(absorb[1]), float(absorb[2]))


def test_yellow_traced_on_a_darkened_line_is_yellow_again_and_an_untraced_line_empty() -> None:
    """On a copy the grey stroke prints darker: a yellow trace then reads orange or green, an
    untraced line as a dark pencil. Without the grey both are what they are."""
    from papergames.photo.colours import read_colours

    grey = 0.1
    samples = [_box("yellow"), _box("orange"), _box("green")]
    legends: list[str | None] = ["yellow", "orange", "green"]
    lines = [_darkened("yellow", 0.3, grey)] * 4 + [_darkened("orange", 0.4, grey)] * 3
    lines += [_darkened("green", 0.4, grey)] * 2 + [_darkened("yellow", 0.0, grey)] * 3
    samples += [_line(absorb) for absorb in lines]
    legends += [None] * len(lines)
    _, decisions = read_colours(samples, legends)
    read = [d.colour for d in decisions[3:]]
    assert read == ["yellow"] * 4 + ["orange"] * 3 + ["green"] * 2 + [None] * 3
    lighter = without_print_excess(samples, _prototypes(["yellow", "orange", "green"]))
    untraced = np.array(lighter[-1].absorb)
    assert np.abs(untraced).max() < 0.01


def test_lines_read_down_a_white_channel_are_left_alone() -> None:
    """A channel's grey is taken off where it is measured, from the untraced lines."""
    in_channel = [_line(_darkened("yellow", 0.3, 0.1), channel=True)] * 6
    assert without_print_excess(in_channel, _prototypes(["yellow"])) == in_channel


def test_a_graphite_players_traces_are_not_taken_for_the_prints_grey() -> None:
    """Graphite traces are grey too, each as dark as it was pressed: they scatter above the
    print's excess, and stay graphite once it is taken off."""
    from papergames.photo.colours import read_colours

    grey = 0.12
    graphite = (0.35, 0.35, 0.35)
    samples = [_box("yellow"), _box("red"), Sample("box", 0.9, graphite, graphite)]
    legends: list[str | None] = ["yellow", "red", "graphite"]
    lines = [_darkened("yellow", 0.35, grey)] * 3 + [_darkened("red", 0.4, grey)] * 2
    lines += [_grey(grey + amount) for amount in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)]
    lines += [_grey(grey)] * 2
    samples += [_line(absorb) for absorb in lines]
    legends += [None] * len(lines)
    _, decisions = read_colours(samples, legends)
    read = [d.colour for d in decisions[3:]]
    assert read == ["yellow"] * 3 + ["red"] * 2 + ["graphite"] * 7 + [None] * 2


def _grey(density: float) -> tuple[float, float, float]:
    absorb = 1.0 - float(np.exp(-density))
    return (absorb, absorb, absorb)


@settings(max_examples=60, deadline=None)
@given(
    names=st.lists(st.sampled_from(sorted(PENCILS)), min_size=2, max_size=4, unique=True),
    grey=st.floats(0.0, 0.35),
    seed=st.integers(0, 2**16),
)
def test_the_pencil_on_each_stroke_is_its_own_once_the_strokes_grey_is_taken_off(
    names: list[str], grey: float, seed: int
) -> None:
    """A copier prints a line's stroke darker than the band around it: a line in doubt is
    named from the pencil on its stroke, and with the page's grey left on, a light pencil there
    leans to a darker one (yellow to orange). The grey is the page's, one for every stroke, so a
    pencil that is another with grey in it (brown, an orange) keeps its own."""
    rng = np.random.default_rng(seed)
    prototypes = _prototypes(names)
    traced = [names[int(rng.integers(len(names)))] for _ in range(30)]
    samples = []
    for name in traced:
        stroke = np.array(_darkened(name, rng.uniform(0.25, 0.8), grey))
        stroke = stroke + rng.normal(0.0, 0.005, 3)
        band = _darkened(name, 0.3, 0.05)
        samples.append(replace(_line(band), stroke=(stroke[0], stroke[1], stroke[2])))
    for sample, name in zip(without_print_excess(samples, prototypes), traced, strict=True):
        assert sample.stroke is not None
        density = -np.log1p(-np.clip(np.array(sample.stroke), -1.0, 0.95))
        direction = density / np.linalg.norm(density)
        angles = {n: layered_angle(direction, p) for n, p in prototypes.items()}
        assert min(angles, key=angles.__getitem__) == name
