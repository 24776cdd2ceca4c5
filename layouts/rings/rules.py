"""Crossing the Rings' rules: lines between cut ends fill every section they pass through."""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.layouts.rings.params import PARAMS, RingsParams
from papergames.layouts.rings.plan import TAU
from papergames.layouts.rings.sheet import CutData, EndData, PageData
from papergames.play.final import owners_of
from papergames.play.rules import FinalReport, IllegalMove, Player, Position, Rules, parse_pair
from papergames.sheets.board import Board
from papergames.sheets.model import Kind, Page, Sheet, data_as
from papergames.sheets.params import Param, ParamSet
from papergames.sheets.rng import Rng

HAIRLINE_REPORT = 0.05
"""Depth in mm below which a line's pass through a section is reported as a hairline: too
shallow to see on paper, where a pencil line is some tenths of a millimetre wide."""


@dataclass(frozen=True)
class _Ring:
    """One ring of a round for the rules: its radii, cut angles and first space number."""

    inner: float
    outer: float
    cuts: tuple[float, ...]
    first: int


class RoundGeometry:
    """The exact geometry of one page (round) for the rules: circles, cut ends, sections.

    Positions are worked out from the radii and clock angles, not from the printed polylines,
    so a line grazing a circle is judged against the true circle. A line passes through a
    section when some open stretch of it lies strictly inside the section.
    """

    def __init__(self, page: Page, centre_space: bool) -> None:
        radii = data_as(page.data, PageData)["radii"]
        self.labels: list[str] = []
        self.xy: list[tuple[float, float]] = []
        self.angle: list[float] = []
        angle_of: dict[str, float] = {}
        for feature in Board.of(page, Kind.POINT).features:
            end = data_as(feature.data, EndData)
            r, t = radii[end["circle"] - 1], end["angle"]
            self.labels.append(feature.label or "")
            self.xy.append((r * math.sin(t), r * math.cos(t)))
            self.angle.append(t)
            angle_of[feature.label or ""] = t
        self.index = {label: k for k, label in enumerate(self.labels)}
        cuts: dict[int, list[float]] = {}
        for feature in Board.of(page, Kind.SEGMENT).features:
            cut = data_as(feature.data, CutData)
            cuts.setdefault(cut["ring"], []).append(angle_of[cut["ends"][0]])
        self.rings: list[_Ring] = []
        first = 1
        for m in range(1, len(radii)):
            ring_cuts = tuple(sorted(cuts.get(m, [])))
            self.rings.append(_Ring(radii[m - 1], radii[m], ring_cuts, first))
            first += len(ring_cuts)
        self.spaces = first - 1
        self.centre_radius = radii[0] if centre_space else 0.0
        self._cache: dict[tuple[int, int], tuple[frozenset[int], frozenset[int]]] = {}
        self._depths: dict[tuple[int, int, float], dict[int, float]] = {}

    def crossing(self, a: int, b: int) -> tuple[frozenset[int], frozenset[int]]:
        """For the line between points a and b: the spaces it passes through, and the spaces
        beside a cut it runs along (empty unless it coincides with a cut). Space 0 is the
        centre disk when it is a section."""
        key = (min(a, b), max(a, b))
        if key not in self._cache:
            self._cache[key] = self._crossing(*key)
        return self._cache[key]

    def _crossing(self, a: int, b: int) -> tuple[frozenset[int], frozenset[int]]:
        (px, py), (qx, qy) = self.xy[a], self.xy[b]
        dx, dy = qx - px, qy - py
        length = math.hypot(dx, dy)
        radial = abs(px * dy - py * dx) <= 1e-9 * max(1.0, length * math.hypot(px, py))
        passed: set[int] = set()
        beside: set[int] = set()
        if self.centre_radius and _inside_spans(px, py, dx, dy, 0.0, self.centre_radius):
            passed.add(0)
        for ring in self.rings:
            for ta, tb in _inside_spans(px, py, dx, dy, ring.inner, ring.outer):
                xa, ya = px + ta * dx, py + ta * dy
                xb, yb = px + tb * dx, py + tb * dy
                if radial:
                    mid = math.atan2((xa + xb) / 2, (ya + yb) / 2) % TAU
                    along = _cut_at(ring.cuts, mid)
                    if along is not None:
                        k = len(ring.cuts)
                        beside.update({ring.first + along, ring.first + (along - 1) % k})
                    else:
                        passed.add(ring.first + _section_at(ring.cuts, mid))
                    continue
                start = math.atan2(xa, ya) % TAU
                end = math.atan2(xb, yb) % TAU
                if px * dy - py * dx > 0:
                    # Clock angles grow clockwise, (x, y) = (r sin t, r cos t): a positive turn
                    # of the line about the centre is anticlockwise, so sweep from its far end.
                    start, end = end, start
                sweep = (end - start) % TAU
                passed.update(
                    ring.first + i for i in _sections_overlapping(ring.cuts, start, sweep)
                )
        return frozenset(passed - beside), frozenset(beside)

    def shallow(self, a: int, b: int, limit: float) -> dict[int, float]:
        """The spaces the line between points a and b passes through less than ``limit`` mm
        deep, with how deep: the greatest distance from the section's border of a point of the
        line inside the section.

        This is what a referee sees on paper: a line that runs a few hundredths of a millimetre
        into a section, past a circle it nearly touches or across the corner of a section, is
        inside it by the exact geometry but looks as if it only touched the border.
        """
        key = (min(a, b), max(a, b), limit)
        if key not in self._depths:
            self._depths[key] = self._measure(key[0], key[1], limit)
        return self._depths[key]

    def _measure(self, a: int, b: int, limit: float) -> dict[int, float]:
        passed = self.crossing(a, b)[0]
        (px, py), (qx, qy) = self.xy[a], self.xy[b]
        dx, dy = qx - px, qy - py
        depth = dict.fromkeys(passed, 0.0)
        if 0 in passed:
            depth[0] = self.centre_radius - _distance_to_segment(0.0, 0.0, px, py, qx, qy)
        for ring in self.rings:
            for ta, tb in _inside_spans(px, py, dx, dy, ring.inner, ring.outer):
                for t0, t1, space in self._pieces(ring, px, py, dx, dy, ta, tb):
                    if space in depth and depth[space] < limit:
                        section = space - ring.first
                        found = _deepest(ring, section, px, py, dx, dy, t0, t1, limit)
                        depth[space] = max(depth[space], found)
        return {space: d for space, d in sorted(depth.items()) if d < limit}

    @staticmethod
    def _pieces(
        ring: _Ring, px: float, py: float, dx: float, dy: float, ta: float, tb: float
    ) -> list[tuple[float, float, int]]:
        """The stretch ta..tb of the line p + t d inside a ring, cut where it meets the ring's
        cuts, each piece with the space it lies in."""
        marks = [ta, tb]
        for cut in ring.cuts:
            ux, uy = math.sin(cut), math.cos(cut)
            across = ux * dy - uy * dx
            if abs(across) < 1e-15:
                continue  # parallel to the cut: a radial line, in one section all along
            t = (uy * px - ux * py) / across
            if ta < t < tb and ux * (px + t * dx) + uy * (py + t * dy) > 0:
                marks.append(t)
        marks.sort()
        pieces = []
        for t0, t1 in itertools.pairwise(marks):
            mx, my = px + (t0 + t1) / 2 * dx, py + (t0 + t1) / 2 * dy
            section = _section_at(ring.cuts, math.atan2(mx, my) % TAU)
            pieces.append((t0, t1, ring.first + section))
        return pieces


def _distance_to_segment(x: float, y: float, ax: float, ay: float, bx: float, by: float) -> float:
    """The distance from the point (x, y) to the segment a-b."""
    ex, ey = bx - ax, by - ay
    length = ex * ex + ey * ey
    t = 0.0 if length == 0 else min(1.0, max(0.0, ((x - ax) * ex + (y - ay) * ey) / length))
    return math.hypot(x - ax - t * ex, y - ay - t * ey)


def _deepest(
    ring: _Ring,
    section: int,
    px: float,
    py: float,
    dx: float,
    dy: float,
    t0: float,
    t1: float,
    limit: float,
) -> float:
    """The greatest distance from the border of a ring's section of a point p + t d with t in
    t0..t1 (a piece of the line inside that section), or a value of at least ``limit`` as soon
    as one is found, since only shallow pieces need the exact figure.

    Sampled from the middle outwards (a deep piece usually shows at once), then refined by a
    golden-section search round the best sample: exact to well under a micrometre.
    """
    cuts = ring.cuts
    ends = []
    for cut in (cuts[section], cuts[(section + 1) % len(cuts)]):
        ux, uy = math.sin(cut), math.cos(cut)
        ends.append((ring.inner * ux, ring.inner * uy, ring.outer * ux, ring.outer * uy))

    def clearance(t: float) -> float:
        x, y = px + t * dx, py + t * dy
        r = math.hypot(x, y)
        return min(
            r - ring.inner,
            ring.outer - r,
            *(_distance_to_segment(x, y, *end) for end in ends),
        )

    samples = 32
    order = sorted(range(1, samples), key=lambda k: abs(2 * k - samples))
    values = [0.0] * (samples + 1)
    for k in order:
        values[k] = clearance(t0 + (t1 - t0) * k / samples)
        if values[k] >= limit:
            return values[k]
    best = max(range(samples + 1), key=values.__getitem__)
    step = (t1 - t0) / samples
    lo, hi = t0 + step * max(best - 1, 0), t0 + step * min(best + 1, samples)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        m1, m2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if clearance(m1) < clearance(m2):
            lo = m1
        else:
            hi = m2
    return max(0.0, values[best], clearance((lo + hi) / 2))


def _inside_spans(
    px: float, py: float, dx: float, dy: float, inner: float, outer: float
) -> list[tuple[float, float]]:
    """The open stretches t in (0, 1) where inner < |p + t d| < outer, longer than a trace."""
    a = dx * dx + dy * dy
    b = 2 * (px * dx + py * dy)
    c = px * px + py * py

    def below(r: float) -> tuple[float, float] | None:
        disc = b * b - 4 * a * (c - r * r)
        if disc <= 0:
            return None
        root = math.sqrt(disc)
        return ((-b - root) / (2 * a), (-b + root) / (2 * a))

    out_span = below(outer)
    if out_span is None:
        return []
    lo, hi = max(0.0, out_span[0]), min(1.0, out_span[1])
    spans = [(lo, hi)]
    hole = below(inner) if inner > 0 else None
    if hole is not None:
        spans = [(lo, min(hi, hole[0])), (max(lo, hole[1]), hi)]
    trace = 1e-7 / math.sqrt(a)
    return [(s, e) for s, e in spans if e - s > trace]


def _cut_at(cuts: Sequence[float], angle: float) -> int | None:
    for i, t in enumerate(cuts):
        if abs((angle - t + math.pi) % TAU - math.pi) < 1e-9:
            return i
    return None


def _section_at(cuts: Sequence[float], angle: float) -> int:
    """The 0-based section holding ``angle``: section i runs clockwise from cut i to cut i+1."""
    i = bisect.bisect_right(cuts, angle) - 1
    return i % len(cuts)


def _sections_overlapping(cuts: Sequence[float], start: float, sweep: float) -> list[int]:
    """Sections whose open angular span meets the open clockwise span (start, start + sweep)."""
    k = len(cuts)
    hit = []
    for i in range(k):
        a = cuts[i]
        width = (cuts[(i + 1) % k] - a) % TAU or TAU
        offset = (a - start) % TAU
        # Two open arcs meet when one starts strictly inside the other.
        if offset < sweep - 1e-12 or (TAU - offset) < width - 1e-12:
            hit.append(i)
    return hit


@dataclass(frozen=True)
class Hairline:
    """A line that passes through a section only by a hairline (see :data:`HAIRLINE_REPORT`).

    Attributes:
        round: the round (from 1), which is the page the line is on.
        line: the line as written (``C4-F17``).
        player: who drew it.
        space: the section's number (``space-<n>`` on that page).
        depth: how far the line gets into the section, in mm.
        counted: whether it counts as passing through (option ``hairline``).
        filled: whether the line filled the section (counted, and it was still empty).
    """

    round: int
    line: str
    player: int
    space: int
    depth: float
    counted: bool
    filled: bool


@dataclass(frozen=True)
class RingsState:
    """Where the game stands: the round and move in it, who owns each section, the scores,
    the hairline passes so far (reported in the verdict), and who owns each section of the
    rounds already played (``won``, one tuple per round, for the sheet shown)."""

    round: int = 0
    step: int = 0
    owners: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    hairlines: tuple[Hairline, ...] = ()
    won: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class RingsOptions:
    """The engine's options, typed."""

    coincide: str
    hairline: float


class RingsRules(Rules[RingsState, tuple[str, str]]):
    """Crossing the Rings on a printed sheet: one page per round, the division as printed.

    In round r (from 0) the divider is player r mod P; the others draw a line each, in order
    starting after the divider, and the divider draws last. A move is the pair of labels of
    the two cut ends, as printed on the round's page (``C4-F17``).

    Passing through a section is decided on the exact circles, so a line may pass through one
    by a few micrometres, which nobody can see on the sheet. Every pass shallower than
    :data:`HAIRLINE_REPORT` (or than the option, when that is larger) is listed in the verdict
    with its depth. Option ``hairline`` (mm, default 0: every pass counts, as decided) makes
    shallower passes not count, for players who agree to judge by what the paper shows.
    """

    game = "rings"
    notation = "a line between two cut ends by their printed labels, like C4-F17"
    options = ParamSet(
        [
            Param.choice(
                "coincide",
                "illegal",
                ("illegal", "allowed"),
                "a line along a cut: refused, or allowed but filling neither section beside it",
            ),
            Param.float(
                "hairline",
                0.0,
                0.0,
                2.0,
                "mm: a line passing less deep than this into a section does not fill it",
            ),
        ]
    )
    option_shape = RingsOptions

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        opts = self.options.read(RingsOptions, self.option_values)
        centre = PARAMS.read(RingsParams, sheet.spec.params).centre
        self.rounds = [RoundGeometry(page, centre) for page in sheet.pages]
        self.coincide_allowed = opts.coincide == "allowed"
        self.hairline = opts.hairline
        self.report_below = max(HAIRLINE_REPORT, opts.hairline)

    def order(self, round_no: int) -> list[int]:
        """Who moves in a round, in order: the others from after the divider, then the divider."""
        count = len(self.players)
        divider = round_no % count
        return [(divider + j) % count for j in range(1, count)] + [divider]

    def _blank(
        self,
        round_no: int,
        scores: tuple[int, ...],
        hairlines: tuple[Hairline, ...] = (),
        won: tuple[tuple[int, ...], ...] = (),
    ) -> RingsState:
        size = self.rounds[round_no].spaces + 1
        return RingsState(round_no, 0, (-1,) * size, scores, hairlines, won)

    def initial(self) -> RingsState:
        return self._blank(0, (0,) * len(self.players))

    def pages_played(self) -> int:
        return len(self.rounds)

    def page_of(self, state: RingsState) -> int:
        """The round's page; after the last round, the last page."""
        return min(state.round, len(self.rounds) - 1) + 1

    def to_move(self, state: RingsState) -> int | None:
        if state.round >= len(self.rounds):
            return None
        return self.order(state.round)[state.step]

    def legal_moves(self, state: RingsState) -> Iterator[tuple[str, str]]:
        if self.to_move(state) is None:
            return
        geometry = self.rounds[state.round]
        labels = geometry.labels
        for a, b in itertools.combinations(range(len(labels)), 2):
            if (
                self.coincide_allowed
                or not self._radial_pair(geometry, a, b)
                or not geometry.crossing(a, b)[1]
            ):
                yield (labels[a], labels[b])

    @staticmethod
    def _radial_pair(geometry: RoundGeometry, a: int, b: int) -> bool:
        gap = abs(geometry.angle[a] - geometry.angle[b]) % math.pi
        return min(gap, math.pi - gap) < 1e-9

    def random_move(self, state: RingsState, rng: Rng) -> tuple[str, str]:
        if self.to_move(state) is None:
            raise IllegalMove("game-over", "every round has been played")
        geometry = self.rounds[state.round]
        while True:
            a, b = sorted(rng.sample(range(len(geometry.labels)), 2))
            if self.coincide_allowed or not geometry.crossing(a, b)[1]:
                return (geometry.labels[a], geometry.labels[b])

    def apply(self, state: RingsState, move: tuple[str, str]) -> RingsState:
        mover = self.to_move(state)
        if mover is None:
            raise IllegalMove("game-over", "every round has been played")
        geometry = self.rounds[state.round]
        missing = [label for label in move if label not in geometry.index]
        if missing or move[0] == move[1]:
            raise IllegalMove(
                "no-such-end", f"{'-'.join(move)} does not join two cut ends of this round's page"
            )
        a, b = geometry.index[move[0]], geometry.index[move[1]]
        passed, beside = geometry.crossing(a, b)
        if beside and not self.coincide_allowed:
            raise IllegalMove(
                "along-cut",
                f"{'-'.join(move)} runs along a cut between two sections "
                "(allowed only with the option coincide=allowed)",
            )
        shallow = geometry.shallow(a, b, self.report_below)
        owners = list(state.owners)
        scores = list(state.scores)
        hairlines = list(state.hairlines)
        for space in sorted(passed):
            depth = shallow.get(space)
            counted = depth is None or depth >= self.hairline
            filled = counted and owners[space] < 0
            if filled:
                owners[space] = mover
                scores[mover] += 1
            if depth is not None:
                line = f"{move[0]}-{move[1]}"
                hairlines.append(
                    Hairline(state.round + 1, line, mover, space, depth, counted, filled)
                )
        step = state.step + 1
        done = tuple(hairlines)
        if step == len(self.players):
            won = (*state.won, tuple(owners))
            if state.round + 1 < len(self.rounds):
                return self._blank(state.round + 1, tuple(scores), done, won)
            return RingsState(state.round + 1, 0, tuple(owners), tuple(scores), done, won)
        return RingsState(state.round, step, tuple(owners), tuple(scores), done, state.won)

    def parse_move(self, text: str, state: RingsState) -> tuple[str, str]:
        geometry = self.rounds[min(state.round, len(self.rounds) - 1)]
        return parse_pair(
            text, geometry.index, f"a cut end printed on page {state.round + 1}", "a line"
        )

    def format_move(self, move: tuple[str, str]) -> str:
        return f"{move[0]}-{move[1]}"

    def scores(self, state: RingsState) -> tuple[int, ...]:
        return state.scores

    def position_marks(self, state: RingsState) -> dict[tuple[int, str], str]:
        """Every section filled so far in its owner's colour word, on its round's page (the
        centre disk, a section only with ``centre=on``, is ``space-0``), for a recorder or
        the checker's page to shade; the lines themselves are each move's two ends."""
        rounds = list(state.won)
        if state.round < len(self.rounds):
            rounds.append(state.owners)
        return {
            (page, f"space-{space}"): self.colour_word(owner)
            for page, owners in enumerate(rounds, start=1)
            for space, owner in enumerate(owners)
            if owner >= 0
        }

    def describe(self, state: RingsState) -> list[str]:
        notes = [self._hairline_note(h) for h in state.hairlines]
        count = len(self.players)
        if len(self.rounds) % count:
            notes.append(
                f"{len(self.rounds)} rounds for {count} players: not everyone was the divider "
                "equally often (print rounds as a multiple of the players)"
            )
        return notes

    def _hairline_note(self, hairline: Hairline) -> str:
        """One hairline pass for the verdict: the line, the section, the depth, what it did."""
        if not hairline.counted:
            outcome = f"not counted (option hairline={self.hairline:g})"
        elif hairline.filled:
            outcome = "counted: it filled the section"
        else:
            outcome = "counted, but the section was coloured already"
        who = self.players[hairline.player].name
        depth = f"{hairline.depth:.3f} mm" if hairline.depth >= 0.001 else "under 0.001 mm"
        return (
            f"hairline: round {hairline.round}, {who}'s line {hairline.line} passes only "
            f"{depth} into space-{hairline.space}; {outcome}"
        )

    def check_final(self, position: Position) -> FinalReport:
        """A finished Rings sheet: each page is a round, and each section a line passed through is
        coloured by the player who drew it, so the sections per colour are the round's scores.

        Which sections a line fills depends only on the line, so the sheet decides the scores;
        whether each line was legal needs the transcript.
        """
        report = FinalReport()
        totals = [0] * len(self.players)
        names = [p.name for p in self.players]
        for round_no, page in enumerate(self.sheet.pages, start=1):
            ids = Board.of(page).ids
            owners = owners_of(position, ids, report, -1, page=round_no)
            counts = [owners.count(p) for p in range(len(self.players))]
            totals = [t + c for t, c in zip(totals, counts, strict=True)]
            shown = ", ".join(f"{n} {c}" for n, c in zip(names, counts, strict=True))
            report.notes.append(f"round {round_no}: sections {shown}")
        report.scores = tuple(totals)
        best = max(totals)
        report.winners = [p for p, t in enumerate(totals) if t == best]
        report.notes += self.describe(RingsState())
        return report


RULES = RingsRules
