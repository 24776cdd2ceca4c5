"""Crossing the Rings' rules: lines between cut ends fill every section they pass through."""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.board import Board
from papergames.final import FinalReport, Position, owners_of
from papergames.layouts.rings.plan import PARAMS, TAU, RingsParams
from papergames.layouts.rings.sheet import CutData, EndData, PageData
from papergames.model import Kind, Page, Sheet, data_as
from papergames.params import Param, ParamSet
from papergames.rng import Rng
from papergames.rules import IllegalMove, Player, Rules, parse_pair


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
class RingsState:
    """Where the game stands: the round and move in it, who owns each section, the scores."""

    round: int = 0
    step: int = 0
    owners: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()


@dataclass(frozen=True)
class RingsOptions:
    """The engine's options, typed."""

    coincide: str


class RingsRules(Rules[RingsState, tuple[str, str]]):
    """Crossing the Rings on a printed sheet: one page per round, the division as printed.

    In round r (from 0) the divider is player r mod P; the others draw a line each, in order
    starting after the divider, and the divider draws last. A move is the pair of labels of
    the two cut ends, as printed on the round's page (``C4-F17``).
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
            )
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

    def order(self, round_no: int) -> list[int]:
        """Who moves in a round, in order: the others from after the divider, then the divider."""
        count = len(self.players)
        divider = round_no % count
        return [(divider + j) % count for j in range(1, count)] + [divider]

    def _blank(self, round_no: int, scores: tuple[int, ...]) -> RingsState:
        size = self.rounds[round_no].spaces + 1
        return RingsState(round_no, 0, (-1,) * size, scores)

    def initial(self) -> RingsState:
        return self._blank(0, (0,) * len(self.players))

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
        passed, beside = geometry.crossing(geometry.index[move[0]], geometry.index[move[1]])
        if beside and not self.coincide_allowed:
            raise IllegalMove(
                "along-cut",
                f"{'-'.join(move)} runs along a cut between two sections "
                "(allowed only with the option coincide=allowed)",
            )
        owners = list(state.owners)
        scores = list(state.scores)
        for space in sorted(passed):
            if owners[space] < 0:
                owners[space] = mover
                scores[mover] += 1
        step = state.step + 1
        if step == len(self.players):
            if state.round + 1 < len(self.rounds):
                return self._blank(state.round + 1, tuple(scores))
            return RingsState(state.round + 1, 0, tuple(owners), tuple(scores))
        return RingsState(state.round, step, tuple(owners), tuple(scores))

    def parse_move(self, text: str, state: RingsState) -> tuple[str, str]:
        geometry = self.rounds[min(state.round, len(self.rounds) - 1)]
        return parse_pair(
            text, geometry.index, f"a cut end printed on page {state.round + 1}", "a line"
        )

    def format_move(self, move: tuple[str, str]) -> str:
        return f"{move[0]}-{move[1]}"

    def scores(self, state: RingsState) -> tuple[int, ...]:
        return state.scores

    def describe(self, state: RingsState) -> list[str]:
        count = len(self.players)
        if len(self.rounds) % count:
            return [
                f"{len(self.rounds)} rounds for {count} players: not everyone was the divider "
                "equally often (print rounds as a multiple of the players)"
            ]
        return []

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
