"""Traces laid beside their line: pencil along a line read empty, where no space beside it is
coloured.

A player who keeps the print in view traces beside a line's grey stroke, or beside a two-rule
line's channel, rather than over it: the trace then lies partly or wholly in the strip beyond
the band the reader measures, the strip it takes for the neighbouring space's hatching (see
:func:`papergames.photo.sample.measure`). Such a line can be read empty. Where no space beside
the line is coloured, no hatching can have put pencil in that strip, so a strip holding as much
pencil as a surely read trace holds the line's own trace, laid beside it: the line is flagged
for a person to look at.

On the bench's Arp and Miro photos with 7 lines in 10 traced beside their stroke
(``bench/photo.py --games arp,miro --beside 0.7``, lines printed as two rules), traced lines
read surely empty held 0.10-0.48 of optical density in a strip, empty lines between bare spaces
at most 0.02. On a finished Arp sheet every space is coloured and nothing changes.

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

from papergames.photo.colours import LOW, PRESENCE, Decision, Sample
from papergames.photo.items import ReadItem

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
        density = max(max(strip) for strip in sample.sides[2:4])
        if 1.0 - math.exp(-density) >= STRIP_TRACE:
            found[k] = replace(decision, confidence=min(decision.confidence, LOW - 0.05))
    return found
