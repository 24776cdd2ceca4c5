"""Naming the pencil on each item: the players' colours learnt from their colour boxes.

Each player colours his colour box (``box-legend-<name>``) with his own pencil, so the page
carries a sample of every colour in play, photographed in the same light as the rest of the
sheet. Each filled colour box gives a *prototype*: the direction of its mean absorbance (see
:mod:`papergames.photo.sample`), which does not change with how hard the pencil was pressed, and
its strength, which does a little.

An item carries pencil when its evidence (the share of it covered, or for a traced line the
strength of the trace) passes the threshold for its kind of sampling; its colour is then the
prototype it fits best. The fit is judged against the page's own spread: how far, in angle,
the items of each kind lie from their nearest prototype on this page, so that a noisy photo
is judged by its noise and a clean scan by its precision. The confidence of a decision is the
smaller of the presence's (how far the evidence lies from the threshold) and the colour's (how
much better the best prototype fits than the second, and whether it fits at all); a decision
under :data:`LOW` is flagged. Prototypes that lie too close to be told apart are reported.

Example:
    >>> legend = Sample("box", 0.9, (0.2, 0.7, 0.7), (0.2, 0.7, 0.7))
    >>> other = Sample("box", 0.9, (0.6, 0.4, 0.1), (0.6, 0.4, 0.1))
    >>> hatched = Sample("area", 0.8, (0.1, 0.4, 0.38), (0.08, 0.3, 0.3))
    >>> empty = Sample("area", 0.02, (0.1, 0.1, 0.1), (0.0, 0.0, 0.0))
    >>> palette, decisions = read_colours([legend, other, hatched, empty], ["1", "2", None, None])
    >>> palette.rgb("1"), [d.colour for d in decisions]
    ((204, 77, 77), ['1', '2', '1', None])
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Vector = NDArray[np.float64]

PRESENCE: dict[str, tuple[float, float]] = {
    "area": (0.3, 0.55),
    "box": (0.12, 0.3),
    "line": (0.035, 0.09),
}
"""For each kind of sampling, the evidence of pencil below which an item is surely empty and
above which it is surely coloured. Between the two the decision is flagged."""
BOX_SIDE_MM = 3.3
"""Inner side of a tally box: a mark's coverage of a larger box is scaled up by the ratio of
sides, since a mark is drawn across the box with a pencil of the same width."""
LEGEND_MIN = 0.4
"""Coverage a colour box needs to count as filled in: below it the colour is not in play."""
SPREAD_FLOOR: dict[str, float] = {"area": 1.0, "box": 1.5, "line": 2.5}
"""Least spread in degrees assumed for each kind (a page's measured spread may be smaller)."""
SPREAD_DEFAULT: dict[str, float] = {"area": 2.0, "box": 3.0, "line": 4.5}
"""Spread in degrees used when a page has too few items of a kind to measure its own."""
STRENGTH_SPREAD = 0.5
"""Spread of the log ratio of an item's strength to its colour box's (pressure varies)."""
FAR = 4.5
"""Spreads from the best prototype beyond which an item matches no colour in play."""
ALIKE = 6.0
"""Hatching spreads between two prototypes under which the two cannot be told apart surely."""
LOW = 0.5
"""Confidence under which a decision is flagged low."""


@dataclass(frozen=True)
class Sample:
    """An item's pencil as measured.

    Attributes:
        sampling: ``area``, ``line`` or ``box`` (see :class:`papergames.photo.items.Sampling`).
        coverage: the share of its pixels with pencil.
        absorb: the mean absorbance of its pencil in each channel (0: none, 1: black).
        fill: the mean absorbance over all its pixels.
        clarity: how clearly its pencil could be seen (less than 1 for a line between hatched
            spaces).
        size: the area it is read over, in mm² (a box's coverage is scaled by it).
    """

    sampling: str
    coverage: float
    absorb: tuple[float, float, float]
    fill: tuple[float, float, float]
    clarity: float = 1.0
    size: float = BOX_SIDE_MM**2

    @property
    def evidence(self) -> float:
        """How much pencil it carries, as :data:`PRESENCE` measures it."""
        if self.sampling == "line":
            return max(self.absorb)
        if self.sampling == "box":
            return self.coverage * math.sqrt(max(self.size, 1.0)) / BOX_SIDE_MM
        return self.coverage


@dataclass(frozen=True)
class Prototype:
    """A colour in play: the unit direction of its absorbance and its strength (length)."""

    direction: Vector
    strength: float


@dataclass(frozen=True)
class Palette:
    """The colours in play, by name; the spread of each kind's fit on the page, in degrees;
    and the pairs of colours too alike to be told apart surely."""

    prototypes: Mapping[str, Prototype]
    spread: Mapping[str, float]
    alike: tuple[tuple[str, str], ...]

    def rgb(self, name: str) -> tuple[int, int, int]:
        """How the colour looks on white paper, as laid in its colour box."""
        proto = self.prototypes[name]
        level = 255.0 * (1.0 - np.clip(proto.direction * proto.strength, 0.0, 1.0))
        return (round(float(level[0])), round(float(level[1])), round(float(level[2])))


@dataclass(frozen=True)
class Decision:
    """What an item carries: a colour's name or ``None`` (empty), and how sure that is."""

    colour: str | None
    confidence: float

    @property
    def low(self) -> bool:
        return self.confidence < LOW


def read_colours(
    samples: Sequence[Sample], legends: Sequence[str | None]
) -> tuple[Palette, list[Decision]]:
    """The palette learnt from the colour boxes, and the decision on every item.

    Args:
        samples: every item's pencil.
        legends: for each item, the colour it is the sample of, if it is a colour box.
    """
    prototypes = _prototypes(samples, legends)
    fits = [
        _fit(s, prototypes) if _present(s) and not name else None
        for s, name in zip(samples, legends, strict=True)
    ]
    spread = _spreads(samples, fits)
    names = sorted(prototypes)
    alike = tuple(
        (a, b)
        for a, b in itertools.combinations(names, 2)
        if _angle(prototypes[a].direction, prototypes[b].direction) < ALIKE * spread["area"]
    )
    palette = Palette(prototypes, spread, alike)
    decisions = [
        _legend_decision(s, name, palette) if name else _decide(s, fit, palette)
        for s, name, fit in zip(samples, legends, fits, strict=True)
    ]
    return palette, decisions


def _prototypes(samples: Sequence[Sample], legends: Sequence[str | None]) -> dict[str, Prototype]:
    found: dict[str, Prototype] = {}
    for sample, name in zip(samples, legends, strict=True):
        vector = np.asarray(sample.absorb, dtype=np.float64)
        strength = float(np.linalg.norm(vector))
        if name and sample.coverage >= LEGEND_MIN and strength > 0.0:
            found[name] = Prototype(vector / strength, strength)
    return found


def _present(sample: Sample) -> bool:
    low, high = PRESENCE[sample.sampling]
    return sample.evidence >= (low + high) / 2


@dataclass(frozen=True)
class _Fit:
    """An item's angle (degrees) and log strength ratio to each prototype, by name."""

    angles: dict[str, float]
    strengths: dict[str, float]

    def best(self) -> tuple[str, float] | None:
        if not self.angles:
            return None
        name = min(self.angles, key=self.angles.__getitem__)
        return name, self.angles[name]


def _fit(sample: Sample, prototypes: Mapping[str, Prototype]) -> _Fit:
    vector = np.asarray(sample.absorb, dtype=np.float64)
    strength = float(np.linalg.norm(vector))
    if strength <= 0.0:
        return _Fit({}, {})
    direction = vector / strength
    return _Fit(
        {name: _angle(direction, p.direction) for name, p in prototypes.items()},
        {name: math.log(strength / p.strength) for name, p in prototypes.items()},
    )


def _angle(a: Vector, b: Vector) -> float:
    return math.degrees(math.acos(float(np.clip(a @ b, -1.0, 1.0))))


def _spreads(samples: Sequence[Sample], fits: Sequence[_Fit | None]) -> dict[str, float]:
    """Each kind's spread of angles to the nearest prototype on this page (the median of a
    two-dimensional normal error's length is 1.18 spreads)."""
    spread: dict[str, float] = {}
    for kind, default in SPREAD_DEFAULT.items():
        angles = [
            best[1]
            for sample, fit in zip(samples, fits, strict=True)
            if fit is not None and sample.sampling == kind and (best := fit.best()) is not None
        ]
        measured = float(np.median(angles)) / 1.18 if len(angles) >= 8 else default
        spread[kind] = max(SPREAD_FLOOR[kind], measured)
    return spread


def _presence(sample: Sample) -> float:
    """How sure it is that the item carries pencil: 0 at the low threshold, 1 at the high."""
    low, high = PRESENCE[sample.sampling]
    return float(np.clip((sample.evidence - low) / (high - low), 0.0, 1.0))


def _decide(sample: Sample, fit: _Fit | None, palette: Palette) -> Decision:
    presence = _presence(sample)
    if fit is None:
        return Decision(None, _certain(1.0 - presence, margin=0.5))
    if not fit.angles:
        return Decision(None, 0.0)
    spread = palette.spread[sample.sampling]
    scores = {
        name: (angle / spread) ** 2
        + (0.0 if sample.sampling == "line" else (fit.strengths[name] / STRENGTH_SPREAD) ** 2)
        for name, angle in fit.angles.items()
    }
    ranked = sorted(scores, key=scores.__getitem__)
    best = ranked[0]
    gap = scores[ranked[1]] - scores[best] if len(ranked) > 1 else math.inf
    odds = 1.0 / (1.0 + math.exp(-gap / 2.0)) if math.isfinite(gap) else 1.0
    fits = 1.0 - max(0.0, fit.angles[best] / spread - FAR) / FAR
    confidence = min(
        _certain(presence, margin=0.5),
        _certain(odds, margin=0.5),
        fits,
        0.5 + 0.5 * sample.clarity if sample.sampling == "line" else 1.0,
    )
    if any(best in pair and ranked[1] in pair for pair in palette.alike):
        confidence = min(confidence, LOW - 0.05)
    return Decision(best, float(np.clip(confidence, 0.0, 1.0)))


def _certain(value: float, margin: float) -> float:
    """A probability-like value mapped to a confidence: ``margin`` maps to :data:`LOW`."""
    if value <= margin:
        return LOW * value / margin
    return LOW + (1.0 - LOW) * (value - margin) / (1.0 - margin)


def _legend_decision(sample: Sample, name: str, palette: Palette) -> Decision:
    """A colour box reads as its own colour when filled in, else as empty."""
    return Decision(name if name in palette.prototypes else None, 1.0)
