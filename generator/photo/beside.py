"""Traces laid beside their line, rather than over its stroke.

A player who keeps the print in view traces beside a line's grey stroke, or beside a two-rule
line's channel: the trace then lies mostly between the band the reader measures and the strip
it takes for the neighbouring space's hatching (see :func:`papergames.photo.sample.measure`),
partly in that strip. Such a line can be read empty, and a crossing line's trace laid so reaches
into a short line's band near its ends. Three second looks follow, each flagging what it changes:

- :func:`doubt_traces_beside`: a line read surely empty whose strip holds a trace's pencil while
  no space beside it is coloured (no hatching can have put it there) is flagged;
- :func:`read_traces_beside`: a line read empty whose outer band, between band and strip, holds
  a trace's worth more than its strip takes that pencil's colour;
- :func:`clear_crossing_traces`: a one-stroke line read coloured whose middle holds no pencil,
  with nothing beside or beyond it, is read empty.

On the bench's Arp and Miro photos with 7 lines in 10 traced beside their stroke
(``bench/photo.py --games arp,miro --beside 0.7``), traced lines read surely empty held
0.10-0.48 of optical density in a strip, empty lines between bare spaces at most 0.02; the
figures of the other two are in docs/measurements.md ("A line traced beside its stroke").

Example:
    >>> from shapely.geometry import LineString, box
    >>> from papergames.photo.colours import Sample
    >>> from papergames.photo.items import ReadItem, Sampling
    >>> edge = LineString([(0, 0), (9, 0)])
    >>> line = ReadItem("segment-1", "segment", Sampling.LINE, edge, edge, beside=("space-1",))
    >>> space = ReadItem("space-1", "space", Sampling.AREA, box(0, 0, 9, 9), box(0, 0, 9, 9))
    >>> strip = Sample("line", 0.1, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0),
    ...                sides=((0.0,) * 3, (0.0,) * 3, (0.0,) * 3, (0.05, 0.3, 0.3)))
    >>> bare = Sample("area", 0.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    >>> empty = Decision(None, 1.0)
    >>> [d.low for d in doubt_traces_beside([line, space], [strip, bare], [empty, empty])]
    [True, False]
    >>> hatched = Decision("1", 1.0)
    >>> [d.low for d in doubt_traces_beside([line, space], [strip, bare], [empty, hatched])]
    [False, False]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from papergames.photo.colours import LOW, PRESENCE, Decision, Palette, Sample
from papergames.photo.items import ReadItem
from papergames.photo.mixtures import layered_angle

STRIP_TRACE = PRESENCE["line"][1]
"""Absorbance, in its densest channel, from which a strip beyond a line holds a trace: as much
as a trace read surely holds in the line's band."""


def doubt_traces_beside(
    items: Sequence[ReadItem], samples: Sequence[Sample], decisions: Sequence[Decision]
) -> list[Decision]:
    """The decisions with each line read surely empty flagged where a strip beyond it holds a
    trace's pencil (:data:`STRIP_TRACE`) and no space beside it is coloured."""
    index = {item.id: k for k, item in enumerate(items)}
    found = list(decisions)
    for k, (item, sample, decision) in enumerate(zip(items, samples, decisions, strict=True)):
        if decision.colour is not None or decision.low or sample.sides is None:
            continue
        spaces = [decisions[index[space]] for space in item.beside if space in index]
        if not spaces or any(space.colour is not None for space in spaces):
            continue
        if _strip_holds_pencil(sample):
            found[k] = replace(decision, confidence=min(decision.confidence, LOW - 0.05))
    return found


def read_traces_beside(
    samples: Sequence[Sample], decisions: Sequence[Decision], palette: Palette
) -> list[Decision]:
    """The decisions with each line read empty given the colour of a trace found beside its
    band, flagged: on either side, the pencil between the band and the strip
    (:attr:`~papergames.photo.colours.Sample.outer`) beyond what the strip holds (a
    neighbour's hatching lies in both, a trace beside the stroke in the first) when it is as
    much as a surely read trace holds (:data:`STRIP_TRACE`). The colour is the pencil whose
    layers lie nearest that excess; a person is asked to look, since hatching laid densest at
    its edge looks the same."""
    found = list(decisions)
    for k, (sample, decision) in enumerate(zip(samples, decisions, strict=True)):
        if decision.colour is not None or not palette.prototypes:
            continue
        trace = _trace_beside(sample)
        if trace is None or trace.max() < STRIP_TRACE:
            continue
        direction = trace / float(np.linalg.norm(trace))
        angles = {
            name: layered_angle(direction, prototype)
            for name, prototype in palette.prototypes.items()
        }
        nearest = min(angles, key=angles.__getitem__)
        found[k] = Decision(nearest, min(decision.confidence, LOW - 0.05))
    return found


def clear_crossing_traces(
    samples: Sequence[Sample], decisions: Sequence[Decision]
) -> list[Decision]:
    """The decisions with each line printed as one stroke, read coloured, whose pencil lies only
    near its ends read empty instead, flagged: along its middle, where no crossing line's trace
    reaches (:attr:`~papergames.photo.colours.Sample.middle`), it holds less than a surely
    empty line (:data:`~papergames.photo.colours.PRESENCE`'s lower threshold), and nothing
    lies beside it or beyond it (:data:`STRIP_TRACE`): a trace in the colour of a neighbour's
    hatching hardly shows over it. A crossing line's trace laid beside its own stroke
    reaches past the ends the reader leaves out; the line's own trace would run along its
    middle, or beside it."""
    found = list(decisions)
    for k, (sample, decision) in enumerate(zip(samples, decisions, strict=True)):
        if decision.colour is None or sample.sides is None or sample.channel:
            continue
        if sample.middle is None or sample.middle >= PRESENCE["line"][0]:
            continue
        trace = _trace_beside(sample)
        if (trace is not None and trace.max() >= STRIP_TRACE) or _strip_holds_pencil(sample):
            continue
        found[k] = Decision(None, LOW - 0.05)
    return found


def _strip_holds_pencil(sample: Sample) -> bool:
    """Whether a strip beyond a line holds as much pencil as a surely read trace
    (:data:`STRIP_TRACE`): a neighbour's hatching, or a trace laid beside the stroke."""
    assert sample.sides is not None
    return 1.0 - math.exp(-max(max(strip) for strip in sample.sides[2:4])) >= STRIP_TRACE


def _trace_beside(sample: Sample) -> NDArray[np.float64] | None:
    """The pencil between the band and the strip beyond what the strip holds, as an absorbance,
    on the side that holds more: a trace laid beside the stroke (``None`` when not measured)."""
    if sample.outer is None or sample.sides is None:
        return None
    outer = np.asarray(sample.outer, dtype=np.float64)
    strips = np.asarray(sample.sides[2:4], dtype=np.float64)
    excess = np.clip(outer - strips, 0.0, None)
    return np.asarray(1.0 - np.exp(-excess[int(np.argmax(excess.max(axis=1)))]), np.float64)
