"""Lines whose pencil is the print's own grey.

Miro's and Arp's lines were first printed as one grey stroke. A laser printer lays a grey as a
screen of dots and a photocopier prints it darker, by an amount the sheet cannot tell, so the
reader takes the page's excess grey off every such line
(:func:`~papergames.photo.colours.without_print_excess`). The copy does not print every line
alike, though (the screen's dots, the copier's bands): on a photocopied first-style Miro sheet
of the bench (``bench/photo.py --games arp,miro --first-style``, the copy of seed 1007) the
untraced lines' excess fell into two groups, near 0.07 and near 0.135, whichever way the lines
ran and wherever they lay. The page's
excess was the larger group's; the darker lines kept about 0.06 of grey, and a pencil 8 degrees
from grey took it: 17 empty lines were read surely in that pencil.

:func:`clear_print_grey` reads such a line empty, flagged: one printed as a single stroke, read
coloured, whose density is a grey with less tinted pencil in it than a surely empty line holds,
or, read in a tinted pencil, whose tint is no more than an empty line's (:data:`TINT_NOISE`),
while its band off the print holds none either. A trace is wider than the stroke or strays off
it, so a grey pencil's trace (graphite) shows beside the stroke; a tinted one shows its tint.

Example:
    >>> import numpy as np
    >>> from papergames.photo.colours import Prototype
    >>> def pencil(absorbance: tuple[float, float, float]) -> Prototype:
    ...     vector = np.array(absorbance)
    ...     return Prototype(vector / np.linalg.norm(vector), float(np.linalg.norm(vector)))
    >>> pencils = {"1": pencil((0.05, 0.6, 0.6)), "2": pencil((0.4, 0.5, 0.56))}  # red, greyish
    >>> bare, beside = ((0.0,) * 3,) * 4, ((0.2,) * 3,) + ((0.0,) * 3,) * 3
    >>> lines = [
    ...     Sample("line", 0.5, (0.13,) * 3, (0.13,) * 3, sides=bare),  # the print's grey
    ...     Sample("line", 0.5, (0.13,) * 3, (0.13,) * 3, sides=beside),  # a grey trace
    ...     Sample("line", 0.9, (0.1, 0.5, 0.5), (0.1, 0.5, 0.5), sides=bare),  # a red trace
    ... ]
    >>> read = [Decision("2", 0.7), Decision("2", 0.7), Decision("1", 1.0)]
    >>> [d.colour for d in clear_print_grey(lines, read, pencils)]
    [None, '2', '1']
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from papergames.photo.colours import (
    LOW,
    PRESENCE,
    Decision,
    Prototype,
    Sample,
    has_tint,
    line_densities,
    tinted_columns,
)
from papergames.photo.mixtures import grey_and_pencil

TINT_LEAST = PRESENCE["line"][0]
"""Density of tinted pencil below which a line's own density is the print's grey: as little
pencil as a line read surely empty holds."""
TINT_NOISE = 0.015
"""Size of a line's tint (its density less the mean of its channels) under which it holds no
pencil that the photo can tell from the print's grey. A pencil near grey (a greyish blue 8
degrees from it) fits a line's grey with a little of itself, so its amount in the fit overstates
it; its tint does not. On the bench's photos of first-style Miro and Arp sheets (copies, phone
photos and scans of 12 sheets each, seeds 1000-1005, 2000-2005 and 3000-3005), no empty line's
tint reached 0.012 (1,861 lines), and every line traced in a tinted pencil, the greyish one
included, showed 0.02 or more. A line read in graphite, or any pencil with no tint of its own
(:func:`~papergames.photo.colours.has_tint`), is not judged by its tint: a graphite trace
on a scan of the bench held 0.0135 of tint and 0.07 of grey beside its stroke."""
OFF_PRINT_TRACE = PRESENCE["line"][1]
"""Absorbance, in its densest channel, from which the band beside a line's stroke holds pencil:
as much as a surely read trace holds."""


def clear_print_grey(
    samples: Sequence[Sample], decisions: Sequence[Decision], prototypes: Mapping[str, Prototype]
) -> list[Decision]:
    """The decisions with each line printed as one stroke and read coloured, whose density is
    the print's grey (:data:`TINT_LEAST`, :data:`TINT_NOISE`) and whose band off the print is
    bare (:data:`OFF_PRINT_TRACE`), read empty instead, flagged.

    Args:
        samples: every item's pencil as measured, before the page's excess grey is taken off.
        decisions: what each item was read as.
        prototypes: the pencils in play.
    """
    lines = [
        k
        for k, (sample, decision) in enumerate(zip(samples, decisions, strict=True))
        if sample.sampling == "line"
        and not sample.channel
        and sample.sides is not None
        and decision.colour is not None
    ]
    tinted = tinted_columns(prototypes)
    if not lines or not tinted:
        return list(decisions)
    densities = line_densities([samples[k] for k in lines])
    _, pencil = grey_and_pencil(densities, tinted)
    tints = np.linalg.norm(densities - densities.mean(axis=1, keepdims=True), axis=1)
    found = list(decisions)
    for k, amount, tint in zip(lines, pencil, tints, strict=True):
        pencil_read = prototypes.get(str(decisions[k].colour))
        untinted = tint < TINT_NOISE and pencil_read is not None and has_tint(pencil_read)
        if (amount < TINT_LEAST or untinted) and not _pencil_off_print(samples[k]):
            found[k] = Decision(None, LOW - 0.05)
    return found


def _pencil_off_print(sample: Sample) -> bool:
    """Whether the band on either side of a line's stroke, off the print, holds pencil."""
    assert sample.sides is not None
    return 1.0 - math.exp(-max(max(side) for side in sample.sides[0:2])) >= OFF_PRINT_TRACE
