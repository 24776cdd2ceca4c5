"""Naming the pencil on each item: the players' colours learnt from their colour boxes.

Each player colours their colour box (``box-legend-<name>``) with their own pencil, so the page
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
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import NDArray

from papergames.photo.mixtures import (
    CHANNEL_LAYERS,
    GREY,
    LINE_LAYERS,
    darkness,
    degrees,
    degrees_of,
    fit_lines,
    layered_angle,
    overflow_mixtures,
    pencil_columns,
    print_excess,
)
from papergames.photo.page_traces import colours_ruled_out
from papergames.photo.twins import second_pencil
from papergames.play.final import MARKED

Vector = NDArray[np.float64]

PRESENCE: dict[str, tuple[float, float]] = {
    "area": (0.3, 0.55),
    "box": (0.12, 0.3),
    "line": (0.035, 0.09),
}
"""For each kind of sampling, the evidence of pencil below which an item is surely empty and
above which it is surely coloured. Between the two the decision is flagged."""
CORE_PRESENCE = (0.08, 0.2)
"""The same for an area's core (:attr:`Sample.core`, see :func:`_presence`), where no
neighbour's overflow lies: an empty space's core reads nearly always 0 and at most 0.11 on the
bench's scans, phone photos and copies, while a space hatched by a light hand covers 0.12 to
0.45 of its core on copies, 0.19 and more on scans and phone photos (``bench/photo.py --light
0.4``, 8 sheets a tier); over the whole space its neighbours' overflow makes the two overlap."""
BOX_SIDE_MM = 3.3
"""Inner side of a tally box: a mark's coverage of a larger box is scaled up by the ratio of
sides, since a mark is drawn across the box with a pencil of the same width."""
LEGEND_MIN = 0.4
"""Coverage a colour box needs to count as filled in: below it the colour is not in play."""
SPREAD_FLOOR: dict[str, float] = {"area": 1.0, "box": 1.5, "line": 1.0}
"""Least spread in degrees assumed for each kind (a page's measured spread may be smaller). A
clean scan reads a line's trace to a tenth of a degree, and a dark pencil gone over four times
lies only 3-4 degrees from graphite, so the lines' floor is no looser than the areas'; a line
read far from every colour is judged more loosely by :data:`MISFIT`."""
SPREAD_DEFAULT: dict[str, float] = {"area": 2.0, "box": 3.0, "line": 4.5}
"""Spread in degrees used when a page has too few items of a kind to measure its own."""
STRENGTH_SPREAD = 0.5
"""Spread of the log ratio of an item's strength to its colour box's (pressure varies)."""
LOOSE_FLOOR: dict[str, float] = {"line": 2.5}
"""Least spread in degrees against which a line's fit to its best colour is judged at all
(:data:`FAR`): a trace over hatching strays from its pencil more than the page's median."""
FAR = 4.5
"""Spreads from the best prototype beyond which an item matches no colour in play."""
ALIKE = 6.0
"""Hatching spreads between two prototypes under which the two cannot be told apart surely."""
LOW = 0.5
"""Confidence under which a decision is flagged low."""
MARKS_NEEDED = 5
MARK_DEFAULT = 0.45
"""A mark's strength as a share of its colour box's, when a page has too few marks to say
(colour boxes are often gone over twice, tally marks once)."""
FAINT = (0.25, 0.55)
"""A mark in a score box as strong as this share of the page's usual mark, or less, is a stray
touch, not a tally (tallies are pressed firmly); between the two it is flagged."""
STRAY_STRENGTH = 0.7
STRAY_EVIDENCE = 0.33
"""A mark in a score box fainter than :data:`STRAY_STRENGTH` of the page's usual mark and with
less evidence than :data:`STRAY_EVIDENCE` (its coverage in a 3.3 mm box's terms, see
:attr:`Sample.evidence`) is read as a stray stroke, and flagged. A tally is drawn across the
box's middle and pressed firmly; a stray is a light slip that crosses it. On the bench's scans
and phone photos (16 sheets of each of four seed sets, 5,300 tally marks) no tally was both,
and 10 of the 12 strays read as marks were: the faintest tallies cover 0.46 of a tally box's
read region or more (evidence 0.35), the sparsest are twice as strong as the usual mark."""
STRAY_DOUBT = 0.40
"""Evidence under which a mark fainter than :data:`STRAY_STRENGTH` is kept but flagged: it may
be a stray that covers a little more (a yellow slip across a small loss box covered 0.5 of it
and was read as a sure mark on a sheet then called consistent). It costs looks: on the 16
scans of seed sets 5000 and 6000 it flags 14 and 10 more items, nearly all of them tallies."""


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
        sides: for a traced line, the optical density of its band left and right, then of the
            strips beyond them (see :func:`papergames.photo.sample.measure`).
        texture: how grainy its read pixels are against bare paper (hatching is grainy, a
            shadow is not); ``None`` when not measured.
        channel: a traced line read down the white channel of a line printed as two rules,
            where every pass of the pencil overlaps (see :data:`CHANNEL_LAYERS`).
        core: an area's coverage over its core, where no neighbour's overflow reaches
            (:attr:`papergames.photo.sample.Measured.core`); ``None`` when its core is too
            small to tell.
        core_area: the area of that core, in mm².
        core_fill: the darkness of the core's mean absorbance, pencil or not
            (:attr:`papergames.photo.sample.Measured.core_fill`); ``None`` with :attr:`core`.
        beside: for a box of a score row, the lower median
            :func:`~papergames.photo.mixtures.darkness` of the bare boxes round it
            (:func:`papergames.photo.rows.darkness_beside`): what the page, not pencil,
            darkens there.
        stroke: for a line printed as one grey stroke, the absorbance of the pencil on the
            stroke itself (:attr:`papergames.photo.sample.Measured.stroke`); ``None`` for
            other items.
        core_tint: the tint of an area's core, pencil or not
            (:attr:`papergames.photo.sample.Measured.core_tint`); ``None`` with :attr:`core`.
        edge_share: for an area whose core is too small to settle it, the largest share of its
            pencil lying along one edge of its outline
            (:attr:`papergames.photo.sample.Measured.edge_share`); ``None`` otherwise.
        outer: for a traced line, the optical density between its band and its strip on each
            side, where a trace laid beside the stroke lies
            (:attr:`papergames.photo.sample.Measured.outer`); ``None`` when neither was seen.
        middle: for a traced line, the pencil along the middle of its band, clear of the
            crossing lines' traces, as an absorbance in its largest channel
            (:attr:`papergames.photo.sample.Measured.middle`); ``None`` when not measured.
    """

    sampling: str
    coverage: float
    absorb: tuple[float, float, float]
    fill: tuple[float, float, float]
    clarity: float = 1.0
    size: float = BOX_SIDE_MM**2
    sides: tuple[tuple[float, float, float], ...] | None = None
    texture: float | None = None
    channel: bool = False
    core: float | None = None
    core_area: float = 0.0
    core_fill: float | None = None
    beside: float = 0.0
    stroke: tuple[float, float, float] | None = None
    core_tint: tuple[float, float, float] | None = None
    edge_share: float | None = None
    outer: tuple[tuple[float, float, float], ...] | None = None
    middle: float | None = None

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
    the pairs of colours too alike to be told apart surely; the usual strength of a tally mark
    (:func:`_mark_strength`); and, per kind of item, the usual mean absorbance of one that
    carries pencil (:func:`_usual_fill`); the items flagged as in a pencil no colour box shows;
    and the seats whose score rows are ticked while their colour boxes are empty (for a sheet
    whose boxes are the players', numbered), in order."""

    prototypes: Mapping[str, Prototype]
    spread: Mapping[str, float]
    alike: tuple[tuple[str, str], ...]
    mark: Mapping[str, float] = field(default_factory=lambda: {"": MARK_DEFAULT})
    usual_fill: Mapping[str, float] = field(default_factory=dict)
    graphite: Prototype | None = None
    strangers: int = 0
    unboxed: tuple[str, ...] = ()

    def prototype(self, name: str) -> Prototype:
        """A colour in play, or the graphite that score boxes may be marked with."""
        if name == MARKED and self.graphite is not None:
            return self.graphite
        return self.prototypes[name]

    def look_alike(self, first: str, second: str) -> bool:
        """Whether two colours in play are too alike on this page to be told apart surely."""
        return (first, second) in self.alike or (second, first) in self.alike

    def rgb(self, name: str) -> tuple[int, int, int]:
        """How the colour looks on white paper, as laid in its colour box."""
        proto = self.prototypes[name]
        level = 255.0 * (1.0 - np.clip(proto.direction * proto.strength, 0.0, 1.0))
        return (round(float(level[0])), round(float(level[1])), round(float(level[2])))


@dataclass(frozen=True)
class Decision:
    """What an item carries: a colour's name or ``None`` (empty), and how sure that is.

    ``scores`` holds, for a traced line, each colour's misfit (squared angles in spreads, so
    ``exp(-score / 2)`` is the colour's likelihood): what :mod:`papergames.photo.runs` weighs
    against the line's neighbours.
    """

    colour: str | None
    confidence: float
    scores: tuple[tuple[str, float], ...] = ()

    @property
    def low(self) -> bool:
        return self.confidence < LOW


def read_colours(
    samples: Sequence[Sample],
    legends: Sequence[str | None],
    marks: Sequence[bool] | None = None,
    seats: int | None = None,
    ticked: Collection[str] = (),
) -> tuple[Palette, list[Decision]]:
    """The palette learnt from the colour boxes, and the decision on every item.

    Args:
        samples: every item's pencil.
        legends: for each item, the colour it is the sample of, if it is a colour box.
        marks: for each item, whether it is a box in one seat's row of a score area (a tally,
            a loss, a step of a track), whose mark only says *marked*: such a box may also be
            read as :data:`MARKED`, a mark in graphite (see :func:`graphite_prototype`).
        seats: how many players the sheet has at least (its printed names, or the game's
            fewest), when its colour boxes are the players' (numbered): with fewer boxes
            coloured, one player's pencil has no box, and the items of each colour are searched
            for it (:func:`_second_pencils`).
        ticked: the seats whose score rows are ticked (:func:`ticked_seats`): a seat among them
            whose box is not coloured has a pencil with no box, as with ``seats``; such
            seats are kept on the palette (:attr:`Palette.unboxed`) for the report to name.
    """
    prototypes = _prototypes(samples, legends)
    samples = without_print_excess(samples, prototypes)
    graphite = graphite_prototype(prototypes)
    in_rows = list(marks) if marks is not None else [False] * len(samples)
    with_graphite = {**prototypes, MARKED: graphite} if graphite is not None else prototypes
    mixtures = overflow_mixtures(prototypes)
    fits = [
        _fit(s, with_graphite if row else prototypes, mixtures)
        if _present(s) and not name
        else None
        for s, name, row in zip(samples, legends, in_rows, strict=True)
    ]
    spread = _spreads(samples, fits)
    names = sorted(prototypes)
    alike = tuple(
        (a, b)
        for a, b in itertools.combinations(names, 2)
        if _angle(prototypes[a].direction, prototypes[b].direction) < ALIKE * spread["area"]
    )
    palette = Palette(
        prototypes,
        spread,
        alike,
        _mark_strength(samples, fits),
        _usual_fill(samples, fits),
        graphite,
    )
    unmixed = _unmixed(samples, fits, prototypes)
    decisions = [
        _legend_decision(s, name, palette) if name else _decide(s, fit, palette, unmixed.get(k))
        for k, (s, name, fit) in enumerate(zip(samples, legends, fits, strict=True))
    ]
    decisions = _without_far_rivals(samples, fits, decisions, palette, unmixed)
    boxed = sum(name.isdigit() for name in prototypes)
    rows_unboxed = tuple(sorted(set(ticked) - set(prototypes))) if boxed else ()
    unboxed = boxed > 0 and (boxed < (seats or 0) or bool(rows_unboxed))
    hidden = _second_pencils(samples, fits, decisions) if unboxed else []
    strangers = sorted(set(unknown_pencil(samples, fits, spread)) | set(hidden))
    for k in strangers:
        decisions[k] = replace(decisions[k], confidence=min(decisions[k].confidence, LOW - 0.05))
    for k, (sample, name) in enumerate(zip(samples, legends, strict=True)):
        if not name and decisions[k].colour is None and decisions[k].low:
            leaning = _leaning(sample, palette, mixtures)
            if leaning is not None:
                settled = core_settles(sample, leaning, palette)
                confidence = decisions[k].confidence if settled is None else settled
                decisions[k] = replace(decisions[k], colour=leaning, confidence=confidence)
    return replace(palette, strangers=len(strangers), unboxed=rows_unboxed), decisions


def _without_far_rivals(
    samples: Sequence[Sample],
    fits: Sequence[_Fit | None],
    decisions: list[Decision],
    palette: Palette,
    unmixed: Mapping[int, _Unmixed],
) -> list[Decision]:
    """The decisions, each traced line in doubt judged again without the colours whose sure
    lines on this page lie far from it (:func:`~papergames.photo.page_traces.colours_ruled_out`):
    it is made sure only if every other test still holds and its colour stays the same.

    Only a line whose sides, unmixed, name the colour it was read in is judged again. A trace
    seen through a neighbour's hatching lies off its hand's other lines for the hatching's sake,
    not the hand's: on a phone photo of an Arp sheet, a yellow trace between orange spaces
    lay far from the page's yellow lines and was made surely orange while its sides named no
    colour (``bench/photo.py --games arp,miro --sheets 16 --seed 2000``, phone-arp-2006)."""
    lines = [k for k, s in enumerate(samples) if s.sampling == "line" and fits[k] is not None]
    if not lines:
        return decisions
    directions = np.array([_direction(samples[k]) for k in lines])
    ruled = colours_ruled_out(
        directions, [decisions[k].colour for k in lines], [not decisions[k].low for k in lines]
    )
    decided = list(decisions)
    for k, out in zip(lines, ruled, strict=True):
        fit, before = fits[k], decisions[k]
        opinion = unmixed.get(k)
        if not out or not before.low or opinion is None or opinion.colour != before.colour:
            continue
        assert fit is not None
        kept = _Fit({n: a for n, a in fit.angles.items() if n not in out}, fit.strengths)
        again = _decide(samples[k], kept, palette, opinion)
        if again.colour == before.colour and again.confidence > before.confidence:
            decided[k] = replace(before, confidence=again.confidence)
    return decided


def _leaning(sample: Sample, palette: Palette, mixtures: Mapping[str, Vector]) -> str | None:
    """The colour an item read empty but in doubt most likely carries: the one its pencil lies
    nearest, when it lies as near as a coloured item's may (within :data:`FAR` of the page's
    spread, as :func:`_decide` judges a fit, at least half sure) and nearer than grey, which a
    shadow or a misjudged white is while a pencil keeps its tint; ``None`` for boxes and for
    lines printed as two rules (whose channel is read as it is).

    A space is in doubt when its pencil covers too little of it to be sure, or its core holds
    some or is tinted as a pencil (:func:`_core_tinted`), or it is darker than an empty space
    may be. Such a space is far more often hatched lightly, in the colour its pencil shows,
    than left empty: on the bench with 40 % of the
    spaces hatched lightly (``bench/photo.py --sheets 8 --light 0.4``) 53 of the 54 spaces read
    so were hatched, and 15 of 16 on the independent photos.

    A traced line in doubt with pencil over a third or more of its band
    (:data:`TRACED_COVERAGE`) is likelier still to be coloured: Miro and Arp, the games whose
    lines are traced, end only when every line is. A line printed as one grey stroke is named
    from the pencil on the stroke itself (:attr:`Sample.stroke`): its band, read less the
    hatching beyond, loses a trace laid over hatching of the trace's own colour, as a pencil's
    layers saturate. A photocopier prints that stroke nearly black, and no pencil shows on it:
    then the line is named from its band, whose faint tint is the trace's where it strays off
    the stroke, while the paper, a shadow and toner are grey. A band with no pencil found in it
    at all names nothing: on a dim or blurred photo a bare line's band takes a tint from the
    hatching nearby. (On the independent photocopies, 10 of the 16 Miro and Arp lines read
    empty in doubt were named so, all rightly; on the bench's photocopied first-style sheets
    no line changed.) The reading stays in doubt either way; a person looking at it sees the
    likelier colour.
    """
    if sample.sampling == "line":
        if sample.stroke is None:
            return None
        if sample.coverage >= TRACED_COVERAGE:
            on_stroke = _nearest_tint(replace(sample, absorb=sample.stroke), palette, mixtures)
            if on_stroke is not None:
                return on_stroke
    elif sample.sampling != "area":
        return None
    if sample.coverage <= 0.0:
        return None
    named = _nearest_tint(sample, palette, mixtures)
    if named is None and sample.sampling == "line":
        return _tint_beside(sample, palette, mixtures)
    return named


TRACE_BESIDE_SHARE = 0.5
"""Least density, as a share of what a pencil's colour box holds, that a line's band must hold
beyond the strip on its side for :func:`_tint_beside` to name that pencil."""


def _tint_beside(sample: Sample, palette: Palette, mixtures: Mapping[str, Vector]) -> str | None:
    """The pencil of a pale trace laid beside a line's stroke: on the side whose band holds the
    most beyond the strip past it, the colour that excess shows (as :func:`_nearest_tint`
    judges it), when it holds at least :data:`TRACE_BESIDE_SHARE` of that pencil's colour box.

    A pale pencil (a light yellow) traced beside the stroke covers too little of the band to be
    found pixel by pixel, and the band's mean is mostly the stroke's grey; what lies beyond the
    strip on the same side, though, is paper or the same hatching, so a tint in the band beyond
    it is the trace's. Reached only for a line read empty in doubt, which stays in doubt: Miro
    and Arp end only when every line is traced."""
    if sample.sides is None:
        return None
    sides = np.asarray(sample.sides, dtype=np.float64)
    excess = sides[0:2] - sides[2:4]
    excess = excess[np.isfinite(excess).all(axis=1)]
    if not len(excess):
        return None
    side = excess[int(np.argmax(np.linalg.norm(excess, axis=1)))]
    absorb = 1.0 - np.exp(-side)
    vector = (float(absorb[0]), float(absorb[1]), float(absorb[2]))
    named = _nearest_tint(replace(sample, absorb=vector, fill=vector), palette, mixtures)
    if named is None:
        return None
    prototype = palette.prototypes[named]
    box = -np.log1p(-np.clip(prototype.direction * prototype.strength, 0.0, 0.95))
    along = float(side @ box) / float(np.linalg.norm(box))
    return named if along >= TRACE_BESIDE_SHARE * float(np.linalg.norm(box)) else None


def _nearest_tint(sample: Sample, palette: Palette, mixtures: Mapping[str, Vector]) -> str | None:
    """The colour whose tint the item's pencil shows, if it fits as a coloured item's may and
    lies nearer than grey (see :func:`_leaning`)."""
    fit = _fit(sample, palette.prototypes, mixtures)
    if not fit.angles:
        return None
    best = min(fit.angles, key=fit.angles.__getitem__)
    if fit.angles[best] >= _angle(_direction(sample), GREY):
        return None
    return (
        best if _fits(fit, best, sample.sampling, palette.spread[sample.sampling]) >= LOW else None
    )


def without_print_excess(
    samples: Sequence[Sample], prototypes: Mapping[str, Prototype]
) -> list[Sample]:
    """The samples with the grey that a line printed as one grey stroke shows beyond the print
    as drawn (:func:`papergames.photo.mixtures.print_excess`, found on the lines at least
    :data:`EXCESS_CLARITY` clear) taken off every such line's trace.

    A photocopied first-style Miro or Arp sheet prints its grey lines nearly black: read as
    pencil, that grey turned yellow traces orange or green, red ones purple, and untraced lines
    dark colours. The pencil along a line's middle (:attr:`Sample.middle`) loses the same grey,
    the pencil on its stroke the strokes' own (:func:`_strokes_less_excess`). Lines printed as
    two rules are left alone: their channel's own grey is taken off in
    :func:`papergames.photo.sample.measure`. A player's grey pencil (graphite, a black) is not
    fitted: its traces read as more grey than the print's, each its own amount, and the
    excess is the grey most lines share.
    """
    lines = [k for k, s in enumerate(samples) if s.sampling == "line" and not s.channel]
    if not lines:
        return list(samples)
    tinted = tinted_columns(prototypes)
    density = line_densities([samples[k] for k in lines])
    clear = np.array([samples[k].clarity >= EXCESS_CLARITY for k in lines])
    excess = print_excess(density[clear], tinted)
    strokes = _strokes_less_excess([samples[k] for k in lines], tinted)
    lighter = 1.0 - np.exp(-(density - excess))
    found = list(samples)
    for k, trace, stroke in zip(lines, lighter, strokes, strict=True):
        found[k] = replace(samples[k], stroke=stroke)
        if excess == 0.0:
            continue
        vector = (float(trace[0]), float(trace[1]), float(trace[2]))
        middle = samples[k].middle
        if middle is not None:
            middle = 1.0 - math.exp(-(-math.log1p(-min(middle, 0.95)) - excess))
        found[k] = replace(found[k], absorb=vector, fill=vector, middle=middle)
    return found


def _strokes_less_excess(
    samples: Sequence[Sample], tinted: Sequence[Vector]
) -> list[tuple[float, float, float] | None]:
    """Each line's pencil on its printed stroke (:attr:`Sample.stroke`) less the grey that the
    strokes of the page show beyond the print as drawn (:func:`print_excess`, found over every
    stroke measured), or as it was where too few were.

    The stroke is darker than the band around it, and a photocopier darkens it most: on the
    independent photocopies its excess was 0.23-0.31 in optical density, the bands' less. Left
    on, that grey turned yellow traces orange or green when a line in doubt was named from its
    stroke (:func:`_leaning`): 5 of the 58 Arp and Miro lines so named on the independent
    photos, all named rightly with it taken off. The grey is one for the page, not each line's
    own, so a pencil that is an orange with grey in it (brown) stays itself.
    """
    strokes = [s.stroke for s in samples]
    measured = [
        (k, stroke)
        for k, stroke in enumerate(strokes)
        if stroke is not None and all(map(math.isfinite, stroke))
    ]
    if not measured:
        return strokes
    density = _densities([stroke for _, stroke in measured])
    excess = print_excess(density, tinted)
    if excess == 0.0:
        return strokes
    lighter = 1.0 - np.exp(-(density - excess))
    for (k, _), stroke in zip(measured, lighter, strict=True):
        strokes[k] = (float(stroke[0]), float(stroke[1]), float(stroke[2]))
    return strokes


def tinted_columns(prototypes: Mapping[str, Prototype]) -> list[Vector]:
    """The densities each tinted pencil in play lays
    (:func:`~papergames.photo.mixtures.pencil_columns`): those at least :data:`TINTLESS_MOST`
    from grey, which a print's grey cannot be taken for."""
    return [pencil_columns(p.direction, p.strength) for p in prototypes.values() if has_tint(p)]


def has_tint(prototype: Prototype) -> bool:
    """Whether a pencil lies at least :data:`TINTLESS_MOST` from grey: a tint of its own, which a
    print's grey cannot be taken for (graphite has none)."""
    return _angle(prototype.direction, GREY) >= TINTLESS_MOST


def line_densities(samples: Sequence[Sample]) -> Vector:
    """The optical density of each traced line's pencil (``(n, 3)``), from its absorbance."""
    return _densities([s.absorb for s in samples])


def _densities(absorbances: Sequence[tuple[float, float, float]]) -> Vector:
    """Optical densities (``(n, 3)``) of absorbances, a near-black one held at 0.95."""
    return np.asarray(-np.log1p(-np.clip(np.array(absorbances), -1.0, 0.95)), np.float64)


EXCESS_CLARITY = 0.5
"""Least clarity of a line whose trace tells the print's excess: under dense hatching on both
sides a trace is read through the neighbours' pencil, and its colour is not clear enough to be
told from a grey."""


def unknown_pencil(
    samples: Sequence[Sample], fits: Sequence[_Fit | None], spread: Mapping[str, float]
) -> list[int]:
    """The items that carry a pencil no colour box shows: those lying far from every colour in
    play (farther than :data:`FAR` of the page's spreads) that are many and alike.

    A player who leaves their colour box empty still colours the field, and each of their items
    is nearest some other player's colour: one far off alone is a pencil pressed oddly, but
    :data:`STRANGER_ITEMS` or more of one kind lying within :data:`STRANGER_DEGREES` of each
    other are a pencil of their own, and none of them may be given to another player surely.
    """
    off: dict[str, list[int]] = {}
    for k, (sample, fit) in enumerate(zip(samples, fits, strict=True)):
        best = fit.best() if fit is not None else None
        if best is None or best[0] == MARKED:
            continue
        loose = max(spread[sample.sampling], LOOSE_FLOOR.get(sample.sampling, 0.0))
        if best[1] > FAR * loose:
            off.setdefault(sample.sampling, []).append(k)
    found: list[int] = []
    for members in off.values():
        if len(members) < STRANGER_ITEMS:
            continue
        directions = np.array([_direction(samples[k]) for k in members])
        near = degrees_of(directions @ directions.T)
        alike = (near < STRANGER_DEGREES).sum(axis=1)
        found.extend(k for k, count in zip(members, alike, strict=True) if count >= STRANGER_ITEMS)
    return sorted(found)


ROW_TICKS = 3
"""Fewest boxes of a seat's score row carrying pencil for the row to show the seat plays: a
stray touch or two may fall in a row no one uses."""


def ticked_seats(samples: Sequence[Sample], seats: Sequence[str | None]) -> frozenset[str]:
    """The seats whose score rows carry pencil in :data:`ROW_TICKS` boxes or more (``seats``:
    for each item, the seat whose row it lies in, if any), whatever its colour.

    Example:
        >>> tick = Sample("box", 0.6, (0.3, 0.3, 0.3), (0.2, 0.2, 0.2))
        >>> bare = Sample("box", 0.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
        >>> sorted(ticked_seats([tick] * 3 + [tick, bare, bare], ["2"] * 3 + ["3"] * 3))
        ['2']
    """
    count: dict[str, int] = {}
    for sample, seat in zip(samples, seats, strict=True):
        if seat is not None and _present(sample):
            count[seat] = count.get(seat, 0) + 1
    return frozenset(seat for seat, ticks in count.items() if ticks >= ROW_TICKS)


def _second_pencils(
    samples: Sequence[Sample], fits: Sequence[_Fit | None], decisions: Sequence[Decision]
) -> list[int]:
    """The items read surely as a colour in play that lie in a second pencil among that
    colour's items of their kind (:func:`papergames.photo.twins.second_pencil`): a pencil no
    colour box shows, which holds too much of the page to lie far from the page's spread.

    Asked only of a sheet that shows a player with no box coloured (fewer players' boxes
    coloured than it has players, or a seat's score row ticked and its box not): one pencil's
    items may split as far apart as two pencils' do (on the independent photos, hatching of one
    pencil split into groups 15-23 degrees apart, at 4.6-7 times their spread, on three sheets
    of 48), so a split alone does not show a second pencil."""
    groups: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for k, (sample, fit, decision) in enumerate(zip(samples, fits, decisions, strict=True)):
        colour = decision.colour
        if fit is None or colour is None or colour == MARKED or decision.low:
            continue
        if colour in fit.angles:
            groups.setdefault((colour, sample.sampling), []).append((k, fit.angles[colour]))
    found: list[int] = []
    for members in groups.values():
        directions = np.array([_direction(samples[k]) for k, _ in members])
        second = second_pencil(directions, np.array([misfit for _, misfit in members]))
        if second is not None:
            found.extend(k for (k, _), inside in zip(members, second, strict=True) if inside)
    return found


STRANGER_ITEMS = 6
"""How many items of one kind, each lying within :data:`STRANGER_DEGREES` of the others (itself
counted), make a pencil of their own that no colour box shows."""
STRANGER_DEGREES = 6.0


@dataclass(frozen=True)
class _Unmixed:
    """Unmixing's second opinion on a traced line: the colour it names surely (``None`` when
    it names none surely), the density of the trace it finds in the best colour, and each
    colour's misfit (squared residuals in the page's spread, as :attr:`Decision.scores`)."""

    colour: str | None
    strength: float
    scores: tuple[tuple[str, float], ...] = ()


def _unmixed(
    samples: Sequence[Sample], fits: Sequence[_Fit | None], prototypes: Mapping[str, Prototype]
) -> dict[int, _Unmixed]:
    """For every traced line, what unmixing its sides says (:func:`fit_lines`): a second
    opinion on the line read from its mean pencil."""
    lines = [
        k
        for k, sample in enumerate(samples)
        if sample.sampling == "line" and sample.sides is not None
    ]
    if not lines or not prototypes:
        return {}
    sides = np.array([samples[k].sides for k in lines], dtype=np.float64)
    found = fit_lines(sides, prototypes)
    best = [
        min(line.residuals.values())
        for k, line in zip(lines, found, strict=True)
        if fits[k] is not None
    ]
    sigma = max(UNMIX_FLOOR, float(np.median(best)) if best else 0.0)
    opinions: dict[int, _Unmixed] = {}
    for k, line in zip(lines, found, strict=True):
        ranked = sorted(line.residuals, key=line.residuals.__getitem__)
        first = line.residuals[ranked[0]]
        rivals = sum(
            math.exp(-(line.residuals[n] ** 2 - first**2) / (2 * sigma**2)) for n in ranked[1:]
        )
        sure = 1.0 / (1.0 + rivals) >= UNMIX_SURE
        scores = tuple(sorted((n, (r / sigma) ** 2) for n, r in line.residuals.items()))
        opinions[k] = _Unmixed(ranked[0] if sure else None, line.strengths[ranked[0]], scores)
    return opinions


VETO_DEGREES = 3.0
"""Angle from its best colour beyond which a line's reading gives way to a sure unmixing that
names another colour: the line is flagged, and takes the unmixing's colour and misfits when
the trace it finds is faint (:data:`UNMIX_HIDDEN`). A trace under a neighbour's hatching turns
the band's mean only a little. On the bench's Arp and Miro photos (``bench/photo.py --games
arp,miro``, 8 sheets a tier, scans, phone photos and copies, both prints, traced over the
stroke and with ``--beside 0.7``: 96 photos) 3 degrees left as many lines wrong as 5 (358) and
8 fewer of them unflagged (81 -> 73), for 31 more flags; 2 degrees broke 4 lines more, and 4
or 3.5 left 76 unflagged."""
UNMIX_HIDDEN = 0.3
"""Density of trace, found by unmixing, under which it names a line whose mean pencil leans
another way. A trace hidden under a neighbour's hatching is faint, and the hatching's colour
rules the band's mean; a denser trace would have shown in the mean, so when the two disagree
there, the unmixing has more likely taken a dark trace over hatching for another pencil. On
the bench's Arp photos (``bench/photo.py --games arp,miro --first-style``, waxy and not), the
lines so vetoed whose unmixing was right held a median trace of 0.17, those read right by
their mean 0.56; under 0.3, 38 of the 51 set right and 4 of the 22 broken."""
UNMIX_TRACE = 0.1
"""Density of trace, found by unmixing, that a line read as empty must not hold."""
EMPTY_MARGIN = {"line": 0.75, "area": 0.65}
"""How clear of pencil a line or an area must be to be called empty surely, as a share of the
way from :data:`PRESENCE`'s upper threshold down to its lower one (a trace under hatching is
faint; a light pencil hatched in a dim photo is found on only part of its area, and an area read
just under the middle of the two must not be called empty surely); 0.5 for boxes."""
HIDDEN = 0.5
"""A line's clarity (the light its clearer side's hatching lets through, squared) under which
an empty reading is not sure: a trace in the hatching's own colour hardly shows there."""
UNMIX_FLOOR = 0.02
"""Least spread, in optical density, assumed for a line's unmixing residual."""
UNMIX_SURE = 0.8
"""How sure unmixing must be of a line's colour for its second opinion to count."""


def _mark_strength(samples: Sequence[Sample], fits: Sequence[_Fit | None]) -> dict[str, float]:
    """The usual strength of a mark in a score box on this page, as a share of its colour
    box's, per colour (a light pencil's marks are weak beside its colour box, gone over twice):
    the median over the boxes that carry that colour, or over all boxes when a colour has too
    few; ``""`` holds the page's."""
    ratios: dict[str, list[float]] = {}
    for sample, fit in zip(samples, fits, strict=True):
        if fit is not None and sample.sampling == "box" and (best := fit.best()) is not None:
            ratios.setdefault(best[0], []).append(math.exp(fit.strengths[best[0]]))
    every = [r for found in ratios.values() for r in found]
    page = float(np.median(every)) if len(every) >= MARKS_NEEDED else MARK_DEFAULT
    usual = {name: float(np.median(found)) for name, found in ratios.items() if len(found) >= 3}
    return {"": page, **usual}


def _usual_fill(samples: Sequence[Sample], fits: Sequence[_Fit | None]) -> dict[str, float]:
    """Per kind of item (areas, boxes), the median size of the mean absorbance over the items
    found to carry pencil, when the page has at least :data:`MARKS_NEEDED` of them."""
    found: dict[str, list[float]] = {}
    for sample, fit in zip(samples, fits, strict=True):
        if fit is not None and sample.sampling in FILL_DOUBT:
            found.setdefault(sample.sampling, []).append(_size(sample.fill))
    return {
        kind: float(np.median(sizes)) for kind, sizes in found.items() if len(sizes) >= MARKS_NEEDED
    }


def _size(vector: tuple[float, float, float]) -> float:
    return float(np.linalg.norm(np.asarray(vector, dtype=np.float64)))


TRACED_COVERAGE = 0.3
"""Share of a line's band found carrying pencil at or above which the line is not surely empty,
however faint that pencil is overall. A light pencil (yellow above all) traced along a line a
photocopier printed dark darkens it little, so the trace's strength stays under the threshold,
yet it covers most of the band; on the bench's scans, phone and hard photos no empty line's band
is more than 0.2 covered (stray strokes and the neighbours' overflow). It holds for lines
printed as one grey stroke, read beside it. A line printed as two rules is read down its channel
(:func:`~papergames.photo.sample.measure`), where a neighbour's hatching that runs over the line
is found too: on the bench's phone photos of Miro an empty channel was up to 0.49 covered. Its
doubt is :func:`_band_holds_pencil`'s instead."""


FILL_DOUBT = {"area": 0.22, "box": 0.25}
"""Mean absorbance, as a share of the page's usual for an item of that kind with pencil, above
which an item found empty is not surely empty. On a dim, noisy photo a light hatching or a faint
tally mark may darken too few pixels enough to be found, and the paper may even be grown into
it, yet the item as a whole is plainly darker than paper: on hard photos the empty areas read
as empty darken at most 0.14 of the usual, empty boxes 0.2 of it but for 1 %, while the hatched
areas and marked boxes read as empty darken 0.21 to 1.8 of it."""


def _darkened(sample: Sample, usual: float | None) -> bool:
    """Whether an item found empty is darker, as a whole, than an empty one may be
    (:data:`FILL_DOUBT` of the page's ``usual`` for its kind), and for a space with a core of
    :data:`CORE_SETTLES_MM2` or more, in its core too; for a box of a score row, darker than
    the bare boxes round it (:attr:`Sample.beside`).

    An empty space between hatched ones is darkened round its rim by their overflow, as much as
    a light hatching darkens a space all over; a hatching the detector missed darkens the core as
    much as the rest, the overflow leaves it bare. A space too small for such a core is told
    by where its pencil lies: all along one edge of it (:data:`EDGE_OVERFLOW`), it ran in
    over that edge.

    Example:
        >>> rim = Sample("area", 0.2, (0.2, 0.1, 0.2), (0.06, 0.03, 0.05), core=0.0,
        ...              core_area=60.0, core_fill=0.004)
        >>> _darkened(rim, 0.3), _darkened(replace(rim, core_fill=0.07), 0.3)
        (False, True)
        >>> narrow = replace(rim, core=None, core_area=0.0, core_fill=None, edge_share=0.5)
        >>> _darkened(narrow, 0.3), _darkened(replace(narrow, edge_share=0.9), 0.3)
        (True, False)
    """
    seen = float(darkness(np.asarray(sample.fill, dtype=np.float64))) - sample.beside
    if not usual or seen <= FILL_DOUBT[sample.sampling] * usual:
        return False
    if sample.core_fill is None or sample.core_area < CORE_SETTLES_MM2:
        return sample.edge_share is None or sample.edge_share < EDGE_OVERFLOW
    return sample.core_fill > FILL_DOUBT[sample.sampling] * usual


EDGE_OVERFLOW = 0.7
"""Share of a space's pencil lying along one edge of its outline
(:func:`papergames.photo.rims.edge_share`) from which an empty space's darkening is taken as
what ran in over that edge from its neighbour. A space's own hatching, even a light hand's, runs
from edge to edge, so it lies along two edges at least: on the bench's scans, phone photos and
copies, with 40 % of the spaces hatched lightly, no hatched space too small for a core had more
than 0.54 of its pencil along one edge. On a hard photo a hatching found only in part may lie
along one edge, but then it is not found empty and darkened."""


def _core_tinted(sample: Sample, palette: Palette) -> bool:
    """Whether an area found empty has a core tinted as a pencil in play tints paper: by
    :data:`CORE_TINT` or more, within :data:`CORE_TINT_DEGREES` of that pencil's tint.

    A pencil pressed so lightly that the detector finds it on few of its strokes still tints
    the core it lies over, as a whole, in its own hue. No neighbour's overflow reaches the core,
    and a misjudged white darkens or lightens it alike in every channel, so an empty space's
    core has next to no tint, however small the core: on the bench's scans, phone photos and
    copies (16 sheets a tier, ``bench/photo.py --light 0.4 --faint 0.3``) the 649 empty spaces
    with cores under :data:`CORE_SETTLES_MM2` were tinted in a pencil's hue by 0.0054 at most,
    as little as the larger cores, while spaces hatched lightly by a pale seat and read surely
    empty had small cores tinted 0.0085-0.015 within 2 degrees of their pencil. On hard photos
    4 of 213 empty small cores were tinted so (up to 0.015): a look each. Such a tint only
    raises doubt; settling a space takes :data:`CORE_SETTLE_TINT` (:func:`core_settles`).

    Example:
        >>> yellow = Prototype(np.array([0.05, 0.18, 0.98]), 0.12)
        >>> palette = Palette({"1": yellow}, {"area": 1.0}, (), {}, {})
        >>> faint = Sample("area", 0.15, (0.02, 0.05, 0.11), (0.0, 0.01, 0.04),
        ...                core_area=40.0, core_tint=(-0.008, -0.004, 0.012))
        >>> _core_tinted(faint, palette), _core_tinted(replace(faint, core_tint=None), palette)
        (True, False)
        >>> small = replace(faint, core_area=20.0)
        >>> bare = replace(small, core_tint=(-0.002, -0.001, 0.003))
        >>> _core_tinted(small, palette), _core_tinted(bare, palette)
        (True, False)
    """
    if sample.sampling != "area" or sample.core_tint is None:
        return False
    tint = np.asarray(sample.core_tint, dtype=np.float64)
    size = float(np.linalg.norm(tint))
    if size < CORE_TINT:
        return False
    hues = (_chroma(prototype.direction) for prototype in palette.prototypes.values())
    return any(hue is not None and _angle(tint / size, hue) < CORE_TINT_DEGREES for hue in hues)


CORE_TINT = 0.008
"""Size of a core's tint (absorbance, its grey part taken off) from which a space read empty is
in doubt when the tint is a pencil's."""
CORE_TINT_DEGREES = 15.0
"""How near a pencil's tint, in degrees, a core's tint must lie to be that pencil's."""


def core_settles(sample: Sample, colour: str, palette: Palette) -> float | None:
    """The confidence that an area read empty but in doubt, whose pencil leans to ``colour``, is
    that colour, when its core settles it; ``None`` when it does not.

    A pencil laid so lightly, or so smoothly, that the detector finds it on few of its strokes
    still tints the core it lies over in its own hue, and no neighbour's overflow reaches the
    core. A core tinted :data:`CORE_SETTLE_TINT` or more, within :data:`CORE_TINT_DEGREES` of the
    leaning colour's hue and :data:`CLEAR_RATIO` times nearer it than any other colour's, is
    that colour's: the confidence is :data:`LOW` at that tint and rises to 1 at twice it.

    Example:
        >>> yellow = Prototype(np.array([0.05, 0.18, 0.98]), 0.12)
        >>> blue = Prototype(np.array([0.9, 0.4, 0.05]) / np.linalg.norm([0.9, 0.4, 0.05]), 0.5)
        >>> palette = Palette({"1": yellow, "2": blue}, {"area": 1.0}, (), {}, {})
        >>> light = Sample("area", 0.15, (0.02, 0.05, 0.11), (0.0, 0.01, 0.04),
        ...                core_area=35.0, core_tint=(-0.012, -0.006, 0.018))
        >>> round(core_settles(light, "1", palette), 2), core_settles(light, "2", palette)
        (0.62, None)
        >>> core_settles(replace(light, core_tint=(-0.004, -0.002, 0.006)), "1", palette) is None
        True
    """
    if sample.sampling != "area" or sample.core_tint is None:
        return None
    tint = np.asarray(sample.core_tint, dtype=np.float64)
    size = float(np.linalg.norm(tint))
    own = _chroma(palette.prototypes[colour].direction) if colour in palette.prototypes else None
    if size < CORE_SETTLE_TINT or own is None:
        return None
    angle = _angle(tint / size, own)
    others = (
        _angle(tint / size, hue)
        for name, prototype in palette.prototypes.items()
        if name != colour and (hue := _chroma(prototype.direction)) is not None
    )
    if angle >= CORE_TINT_DEGREES or any(other < CLEAR_RATIO * angle for other in others):
        return None
    return LOW + (1.0 - LOW) * min(1.0, (size - CORE_SETTLE_TINT) / CORE_SETTLE_TINT)


CORE_SETTLE_TINT = 0.018
"""Size of a core's tint in a pencil's hue that settles a space read empty in doubt as hatched in
that pencil (:func:`core_settles`): twice the most that an empty space's core was tinted on the
bench (0.0089 among 1,885 empty spaces on its scans, phone photos and copies, 16 sheets a tier,
``bench/photo.py --light 0.4``; 0.0054 at most on its phone photos, 0.0023 on its scans)."""


def _prototypes(samples: Sequence[Sample], legends: Sequence[str | None]) -> dict[str, Prototype]:
    found: dict[str, Prototype] = {}
    for sample, name in zip(samples, legends, strict=True):
        vector = np.asarray(sample.absorb, dtype=np.float64)
        strength = float(np.linalg.norm(vector))
        if name and sample.coverage >= LEGEND_MIN and strength > 0.0:
            found[name] = Prototype(vector / strength, strength)
    return found


def graphite_prototype(prototypes: Mapping[str, Prototype]) -> Prototype | None:
    """The grey pencil that tallies are often ticked with, as a colour a score box may carry.

    Players colour the field in their own pencils but often tick their tallies with whatever
    pencil is at hand, which is most often a graphite one, and two players may share it. A
    box in a seat's row belongs to that seat whatever marks it, so a grey mark there is that
    row's mark, not the nearest colour in play (a graphite tick lies nearer purple or blue than
    any other colour box, and was read as that seat's stray touch). Graphite's strength is
    not known before it is seen; :data:`GRAPHITE_STRENGTH` is a middling stroke's, and a
    page's own graphite marks set the faint-mark test's measure (:func:`_mark_strength`).
    ``None`` when a player's own pencil is a grey one: graphite then cannot be told from it.

    Example:
        >>> red = Prototype(np.array([0.1, 0.7, 0.7]) / np.linalg.norm([0.1, 0.7, 0.7]), 0.8)
        >>> graphite_prototype({"1": red}).direction.round(3).tolist()
        [0.577, 0.577, 0.577]
        >>> graphite_prototype({"1": red, "2": Prototype(GREY, 0.6)}) is None
        True
    """
    if any(_angle(p.direction, GREY) < TINTLESS_MOST for p in prototypes.values()):
        return None
    return Prototype(GREY, GRAPHITE_STRENGTH)


GRAPHITE_STRENGTH = 0.6
"""Length of a middling graphite stroke's absorbance (about 0.35 in each channel)."""


CORE_DOUBT = 0.025
"""Coverage of an area's core from which a space read empty is in doubt. No neighbour's overflow
reaches the core, so an empty space's core reads 0 on the bench's scans and phone photos and at
most 0.071 on its copies (once above 0.02 in 954 empty spaces, 8 sheets a tier, ``--light
0.4``), while a pale pencil hatched lightly, which the pencil detector finds on only part of its
strokes, covers 0.03-0.1 of the core (Mondrian's neutral pencil on a phone photo) where the
space as a whole reads under :data:`PRESENCE`'s threshold."""
CORE_SETTLES_MM2 = 36.0
"""Least core (nine 2 mm cells) that settles a space in doubt over its whole as coloured: the
median of fewer cells is swayed by one stray touch or one photocopier's streak down the core,
and a narrow triangle's core is mostly its printed number. A smaller core only adds doubt."""


def _present(sample: Sample) -> bool:
    return _presence(sample) >= 0.5


@dataclass(frozen=True)
class _Fit:
    """An item's angle (degrees) and log strength ratio to each prototype, by name; for an area,
    also its angle to each prototype's pencil with a neighbour's overflow laid over it
    (:func:`~papergames.photo.mixtures.overflow_mixtures`)."""

    angles: dict[str, float]
    strengths: dict[str, float]
    mixed: dict[str, float] = field(default_factory=dict)

    def best(self) -> tuple[str, float] | None:
        if not self.angles:
            return None
        name = min(self.angles, key=self.angles.__getitem__)
        return name, self.angles[name]


def _fit(
    sample: Sample,
    prototypes: Mapping[str, Prototype],
    mixtures: Mapping[str, Vector] | None = None,
) -> _Fit:
    """How well the item's pencil fits each prototype: a traced line's against the pencil laid
    in layers (:func:`layered_angle`), an area's or a box's allowing for a misjudged white
    (:data:`GREY_SLACK`), and an area's also against each prototype with a neighbour's overflow
    (``mixtures``, from :func:`~papergames.photo.mixtures.overflow_mixtures`)."""
    vector = np.asarray(sample.absorb, dtype=np.float64)
    strength = float(np.linalg.norm(vector))
    if strength <= 0.0:
        return _Fit({}, {})
    direction = vector / strength
    mixed: dict[str, float] = {}
    if sample.sampling == "line":
        layers = CHANNEL_LAYERS if sample.channel else LINE_LAYERS
        angles = {name: layered_angle(direction, p, layers) for name, p in prototypes.items()}
    else:
        shifts = np.linspace(-GREY_SLACK, GREY_SLACK, 9)[:, None] * strength * GREY[None, :]
        moved = vector[None, :] - shifts
        moved = moved / np.maximum(np.linalg.norm(moved, axis=1, keepdims=True), 1e-9)
        angles = {name: degrees((moved @ p.direction).max()) for name, p in prototypes.items()}
        if sample.sampling == "area" and mixtures:
            mixed = {name: degrees((moved @ mix.T).max()) for name, mix in mixtures.items()}
    return _Fit(
        angles,
        {name: math.log(strength / p.strength) for name, p in prototypes.items()},
        mixed,
    )


GREY_SLACK = 0.3
"""Largest grey, as a share of an area's or box's absorbance, that may be taken off or added
before its colour is compared with a pencil's: the paper's white under a shadow or in a dim
corner is known only so well, and a white judged a little too bright or too dark adds or takes
the same share of light in every channel, which turns a colour greyer or brighter but not into
another hue (on hard photos this read 5 % more spaces right)."""


def _chroma(vector: Vector) -> Vector | None:
    """A pencil's absorbance less its grey part, as a unit vector (``None`` for a grey)."""
    tint = vector - vector.mean()
    size = float(np.linalg.norm(tint))
    return tint / size if size > 1e-3 else None


def _tinted_elsewhere(sample: Sample, best: str, palette: Palette, spread: float) -> bool:
    """Whether the item's tint, its grey part set aside, clearly names another colour than the
    one read: a white misjudged under a shadow adds or takes a grey, which turns red or
    yellow brownish, and the reading is then not sure."""
    seen = _chroma(np.asarray(sample.absorb, dtype=np.float64))
    if seen is None:
        return False
    if _tintless(palette.prototype(best), spread):
        # read as a grey pencil: sure only if it is grey too, not a colour dulled by a shadow
        return _angle(_direction(sample), GREY) >= min(TINTLESS * spread, TINTLESS_MOST)
    angles = _tint_angles(seen, palette, spread)
    if best not in angles or len(angles) < 2:
        return False
    other = min((name for name in angles if name != best), key=angles.__getitem__)
    return angles[best] - angles[other] > TINT_SPREADS * spread


def _greyed_colour(sample: Sample, palette: Palette, spread: float) -> str | None:
    """For an area that fits a grey pencil best: ``None`` when its tint is as faint as a grey
    pencil's; else the colour whose tint it shares (``""`` when none).

    A white judged far too bright (a shadow across a field hatched throughout, where no bare
    paper shows) adds the same absorbance to every channel, so a coloured hatching looks nearly
    grey; its tint, the absorbance less its mean, is only scaled down, and still points to its
    pencil. Graphite's tint is a few thousandths; such an area is flagged and named by its tint.
    """
    vector = np.asarray(sample.absorb, dtype=np.float64)
    tint = vector - vector.mean()
    if float(np.linalg.norm(tint)) <= GREYED_TINT:
        return None
    seen = tint / float(np.linalg.norm(tint))
    angles = _tint_angles(seen, palette, spread)
    if not angles:
        return ""
    nearest = min(angles, key=angles.__getitem__)
    return nearest if angles[nearest] <= GREYED_ANGLE else ""


GREYED_TINT = 0.035
"""Size of an area's tint (its absorbance less the mean of its channels) above which it is not
a grey pencil's: graphite areas show at most 0.027 on hard photos, a purple or light blue
greyed by a shadow 0.045 or more."""
GREYED_ANGLE = 35.0
"""Degrees within which a greyed area's tint must point to a colour's to be named by it."""


def _tint_angles(seen: Vector, palette: Palette, spread: float) -> dict[str, float]:
    """The angle from a unit tint to the tint of each colour in play that has one."""
    angles = {}
    for name, prototype in palette.prototypes.items():
        tint = _chroma(prototype.direction)
        if tint is not None and not _tintless(prototype, spread):
            angles[name] = _angle(seen, tint)
    return angles


def _tintless(prototype: Prototype, spread: float) -> bool:
    """Whether a pencil is so near grey (graphite, a black) that its tint is only noise: its
    tint's direction then says nothing, and an item read as it, or near it, is judged by its
    whole colour alone. How near is judged in the page's spreads, but never wider than
    :data:`TINTLESS_MOST` (a noisy photo's spread must not make a dull colour tintless)."""
    return _angle(prototype.direction, GREY) < min(TINTLESS * spread, TINTLESS_MOST)


TINTLESS = 3.0
"""Spreads from grey within which a pencil has no tint to compare."""
TINTLESS_MOST = 5.0
"""Degrees from grey beyond which a pencil always has a tint: graphite lies about 1 degree from
grey, the dullest coloured pencils (brown, purple) 12 or more."""
TINT_SPREADS = 6.0
"""How much nearer, in the page's spreads, another colour's tint must lie than the colour
read's for the reading to be flagged."""


def _direction(sample: Sample) -> Vector:
    vector = np.asarray(sample.absorb, dtype=np.float64)
    return vector / max(float(np.linalg.norm(vector)), 1e-9)


def _angle(a: Vector, b: Vector) -> float:
    return degrees(float(a @ b))


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
    """How sure it is that the item carries pencil: 0 at the low threshold, 1 at the high.

    An area's core (:attr:`Sample.core`) only ever adds doubt or settles it: a space read empty
    over its whole but with any pencil in its core (:data:`CORE_DOUBT`) is left in doubt (a light
    hand's hatching, a pale pencil, or a copier's streak down a small space); one in doubt over
    its whole is coloured when a core of :data:`CORE_SETTLES_MM2` or more is plainly hatched,
    and stays in doubt at least when its core holds any pencil. A core never makes a space empty: a
    narrow space's core may be little more than its printed number.
    """
    low, high = PRESENCE[sample.sampling]
    whole = float(np.clip((sample.evidence - low) / (high - low), 0.0, 1.0))
    if sample.sampling != "area" or sample.core is None or whole >= 1.0:
        return whole
    low, high = CORE_PRESENCE
    core = float(np.clip((sample.core - low) / (high - low), 0.0, 1.0))
    # Empty, but in doubt as soon as its core holds any pencil.
    doubt = LOW - 0.05 if sample.core >= CORE_DOUBT else 0.0
    if sample.core_area >= CORE_SETTLES_MM2 and whole > 0.0:
        return max(whole, core, doubt)
    return max(whole, doubt)


def _decide(
    sample: Sample, fit: _Fit | None, palette: Palette, unmixed: _Unmixed | None = None
) -> Decision:
    presence = _presence(sample)
    if fit is None:
        margin = EMPTY_MARGIN.get(sample.sampling, 0.5)
        confidence = _certain(1.0 - presence, margin=margin)
        if unmixed is not None and (unmixed.strength >= UNMIX_TRACE or sample.clarity < HIDDEN):
            confidence = min(confidence, LOW - 0.05)
        if _band_holds_pencil(sample):
            confidence = min(confidence, LOW - 0.05)
        if _darkened(sample, palette.usual_fill.get(sample.sampling)):
            confidence = min(confidence, LOW - 0.05)
        if _core_tinted(sample, palette):
            confidence = min(confidence, LOW - 0.05)
        if _stroke_line(sample) and sample.coverage >= TRACED_COVERAGE:
            confidence = min(confidence, LOW - 0.05)
        return Decision(None, confidence)
    if not fit.angles:
        return Decision(None, 0.0)
    spread = palette.spread[sample.sampling]
    rivalry = max(spread, MISFIT[sample.sampling] * min(fit.angles.values()))
    scores = {
        name: (angle / rivalry) ** 2
        + (
            0.0
            if sample.sampling == "line" or name == MARKED
            else (fit.strengths[name] / STRENGTH_SPREAD) ** 2
        )
        for name, angle in fit.angles.items()
    }
    ranked = sorted(scores, key=scores.__getitem__)
    best = ranked[0]
    if sample.sampling == "box":
        low, high = FAINT
        ratio = math.exp(fit.strengths[best]) / palette.mark.get(best, palette.mark[""])
        if ratio <= low:
            return Decision(None, _certain(1.0 - presence * ratio / low, margin=0.5))
        if ratio < STRAY_STRENGTH and sample.evidence < STRAY_EVIDENCE:
            return Decision(None, LOW - 0.05)
        if ratio < high or (ratio < STRAY_STRENGTH and sample.evidence < STRAY_DOUBT):
            presence = min(presence, 0.5 - 0.05)
    rivals = sum(math.exp(-(scores[name] - scores[best]) / 2.0) for name in ranked[1:])
    posterior = 1.0 / (1.0 + rivals)
    fits = _fits(fit, best, sample.sampling, spread)
    confidence = min(
        _certain(presence, margin=0.5),
        _certain(posterior, margin=SURE),
        fits,
        0.5 + 0.5 * sample.clarity if sample.sampling == "line" else 1.0,
    )
    if sample.sampling == "line" and sample.clarity <= BLIND_CLARITY:
        confidence = min(confidence, LOW - 0.05)
    if sample.channel and math.exp(fit.strengths[best]) < CHANNEL_TRACE_SHARE:
        confidence = min(confidence, LOW - 0.05)
    if sample.sampling == "line" and _hardly_nearer(fit, best, ranked, palette):
        confidence = min(confidence, LOW - 0.05)
    if sample.sampling != "line" and _tinted_elsewhere(sample, best, palette, spread):
        confidence = min(confidence, LOW - 0.05)
    if sample.sampling == "area" and _tintless(palette.prototype(best), spread):
        tinted = _greyed_colour(sample, palette, spread)
        if tinted is not None:
            best = tinted or best
            confidence = min(confidence, LOW - 0.05)
    smooth = SMOOTH.get(sample.sampling, 0.0)
    if (sample.texture or smooth) < smooth:
        shade = _angle(_direction(sample), GREY) / spread
        if shade**2 - scores[best] < 2.0 * math.log(SURE / (1.0 - SURE)):
            confidence = min(confidence, LOW - 0.05)
    if (
        unmixed is not None
        and unmixed.colour is not None
        and unmixed.colour != best
        and fit.angles[best] > VETO_DEGREES
    ):
        doubtful = float(np.clip(min(confidence, LOW - 0.05), 0.0, 1.0))
        if unmixed.strength < UNMIX_HIDDEN:
            return Decision(unmixed.colour, doubtful, unmixed.scores)
        confidence = doubtful
    misfits = tuple(sorted(scores.items())) if sample.sampling == "line" else ()
    return Decision(best, float(np.clip(confidence, 0.0, 1.0)), misfits)


CHANNEL_TRACE_SHARE = 0.25
"""Share of its pencil's strength (its colour box's absorbance) under which the pencil read down
a line's channel is too weak to be surely that line's trace. A trace is laid as firmly as the
box is filled, and the white channel shows it whole: on the bench's Arp and Miro sheets
(``bench/photo.py --games arp,miro``, scans, phone photos and copies, 16 sheets a tier, with and
without ``--faint 0.5``), every traced line read as its colour held 0.58 of its pencil's strength
or more (its largest channel's absorbance against the box's absorbance length), including the
seats that pressed lightly, whose boxes are as pale as their traces. An empty line on a copy
holds the copier's grey wherever its toner runs darker than the page's usual
(:func:`~papergames.photo.sample._channel_floor` takes off only the page's median), and on a
pale greyish pencil's page that grey can fit the pencil: two empty lines were read so, at 0.11
of the pencil's strength as this rule measures it (the absorbance's length)."""


def _stroke_line(sample: Sample) -> bool:
    """Whether ``sample`` is of a traced line printed as one grey stroke, not as two rules."""
    return sample.sampling == "line" and not sample.channel


def _band_holds_pencil(sample: Sample) -> bool:
    """Whether a traced line read empty holds, in its band itself, as much pencil as a trace
    read surely (:data:`PRESENCE`'s upper threshold for lines) on either side, before the
    hatching beyond it is taken off.

    Such a line is read empty because the hatching of the spaces beside it explains its band:
    their strokes ran over the line. A waxy hatching laid over a trace covers it, and a trace in
    the hatching's own colour adds almost nothing to it, so the line may well be traced. Read
    surely empty, it made every space it closes an open capture for sure: on the bench's Arp
    and Miro scans with waxy pencils (``bench/photo.py --games arp,miro --waxy 0.7``, lines
    printed as two rules) 6 traced lines were read so, among them light blue traces between two
    light blue spaces, whose channel held as much pencil as the hatching. On a finished sheet
    of either game every line is traced, so this costs nothing there.
    """
    if sample.sampling != "line" or sample.sides is None:
        return False
    density = max(max(side) for side in sample.sides[:2])
    return 1.0 - math.exp(-density) >= PRESENCE["line"][1]


def _fits(fit: _Fit, best: str, sampling: str, spread: float) -> float:
    """How surely an item fits its best colour: 1 within :data:`FAR` of the spread it is judged
    against (the page's, or wider for a line or a colour plainly nearest), falling to 0 at
    twice that."""
    clear = _clear_of_rivals(fit, best) if sampling != "line" else 0.0
    loose = max(spread, LOOSE_FLOOR.get(sampling, 0.0), clear)
    fitted = _overflowed(fit, best, spread) if sampling == "area" else fit.angles[best]
    return 1.0 - max(0.0, fitted / loose - FAR) / FAR


def _overflowed(fit: _Fit, best: str, spread: float) -> float:
    """An area's angle to its best colour, or to that colour with a neighbour's overflow over it
    (:data:`~papergames.photo.mixtures.OVERFLOW_SHARE`) when that explains the reading and no
    other colour, with overflow, explains it nearly as well (:data:`SURE` under the page's
    spread).

    The overflow only vouches for a colour already read best; it never names one.
    """
    angle = fit.angles[best]
    mixed = fit.mixed.get(best)
    if mixed is None or mixed >= angle:
        return angle
    others = [a for name, a in fit.mixed.items() if name != best]
    if any(a <= mixed for a in others):
        return angle
    rivals = sum(math.exp(-((a / spread) ** 2 - (mixed / spread) ** 2) / 2.0) for a in others)
    return mixed if 1.0 / (1.0 + rivals) >= SURE else angle


def _clear_of_rivals(fit: _Fit, best: str) -> float:
    """The spread, in degrees, against which an area or a box that lies plainly nearer one colour
    than any other is judged to fit it: such an item fits, however far it lies, up to
    :data:`CLEAR_MOST` degrees, when every other colour lies :data:`CLEAR_RATIO` times as far.

    A page's spread is measured on its items' median, which a clean scan makes a degree or
    less; but a pencil's hue shifts with pressure (a light hatching shows its pencil's grain, a
    heavy one its wax), and pencils other than the ones the reader was made with shift more:
    a lightly hatched green 11 degrees from its box and 32 from every other colour is green,
    not a colour that fits nothing. Lines have their own test (:data:`MISFIT`)."""
    angle = fit.angles[best]
    others = [a for name, a in fit.angles.items() if name != best]
    if not others or angle > CLEAR_MOST or min(others) < CLEAR_RATIO * angle:
        return 0.0
    return angle / FAR


CLEAR_RATIO = 1.6
"""How many times farther than the best colour every other colour must lie for an area or box
to fit the best one however far off it is (see :func:`_clear_of_rivals`)."""
CLEAR_MOST = 25.0
"""Degrees from its best colour beyond which an item fits no colour, however far the others
are: pencils of neighbouring hues (red and orange, blue and purple) lie 20 to 30 degrees apart."""


def _hardly_nearer(fit: _Fit, best: str, ranked: list[str], palette: Palette) -> bool:
    """Whether a line lies hardly nearer its colour than the next one (within
    :data:`ALIKE_LINE` line spreads), whatever the two colour boxes look like."""
    if len(ranked) < 2:
        return False
    margin = fit.angles[ranked[1]] - fit.angles[best]
    return margin < ALIKE_LINE * palette.spread["line"]


ALIKE_LINE = 3.0
"""How much nearer, in line spreads, a line must lie to its colour than to the next to be read as
it surely. A trace is laid in layers, which shifts its colour from its colour box's, and the
page's spread of lines does not show how far: a box's colour is one layer, a trace two to six.
On a dim photo a light blue trace lay 2-4 degrees nearer blue, whose box was 6 degrees from light
blue's, than light blue itself, and was read as blue with full confidence; on a photocopy a light
blue traced six layers deep down a channel lay 2.4 degrees from blue and 5.5 from light blue,
whose boxes were 15 degrees apart (``bench/photo.py --games arp,miro --sheets 8``, copy-arp-1006:
9 lines read surely as blue), so the margin holds between any two colours, not only look-alike
boxes. On a clean scan lines lie 3.5 degrees or more nearer their own pencil. Over that bench's
scans, phone photos and copies it flagged 58 more lines and left 9 errors unflagged instead of
16; on the independent photos it flagged 76 more lines on their four Arp sheets, and left 23
errors unflagged instead of 29, with no reading or verdict changed."""


BLIND_CLARITY = 0.0
"""A line's clarity at or under which its colour is not sure: neither side of it could be
cleared of the neighbouring spaces' hatching (see :mod:`papergames.photo.sample`)."""
MISFIT = {"line": 0.4, "box": 0.5, "area": 0.0}
"""Per kind, the share of an item's angle to its best colour taken as the spread its rivals are
judged against, when that is more than the page's spread. A trace read far from every colour in
play is mixed with something else (the neighbours' hatching under it, a crossing line), and a
tally mark with the box's print and a shadow's grey; such a mixture can shift it towards a
look-alike pencil: green towards light blue, orange towards red or brown. How much nearer the
best colour lies must then be judged against how far off the reading already is, or a
look-alike would be named with full confidence (an orange tally 8 degrees from brown and 15
from orange, on a page whose marks lie 2 degrees from their colours, was read surely as
brown)."""


SMOOTH = {"area": 1.3, "box": 1.6}
"""Grain, as a multiple of bare paper's, under which a darkened area or box is not surely
hatched or marked: a shadow or a dim corner darkens paper evenly, and grey, while hatching and
tally marks leave strokes and gaps.
Such an item is flagged when a shadow's grey would explain its colour nearly as well. Since the
grain leaves printed ink out of its surroundings, paper reads 1.0-1.15 and hatching under a
shadow 1.1-1.4, and the paper's white follows shadows far into a field: at 1.6 every graphite
space in a shadow was flagged, at 1.3 some 3-8 % fewer items are on hard photos (boxes, where
a light stray touch must not pass for a tally, keep 1.6)."""
SURE = 0.98
"""The chance, under the page's own spread of angles, that the best colour is right, under which a
colour is flagged: a colour is named only when no other colour in play could well explain it."""


def _certain(value: float, margin: float) -> float:
    """A probability-like value mapped to a confidence: ``margin`` maps to :data:`LOW`."""
    if value <= margin:
        return LOW * value / margin
    return LOW + (1.0 - LOW) * (value - margin) / (1.0 - margin)


def _legend_decision(sample: Sample, name: str, palette: Palette) -> Decision:
    """A colour box reads as its own colour when filled in, else as empty."""
    return Decision(name if name in palette.prototypes else None, 1.0)
