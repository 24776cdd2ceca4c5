"""A finished sheet as a position: which colour each item carries, and what the rules make of it.

A photo of a finished sheet, or a person copying one, gives no order of moves, only the end: a
colour (or nothing) on each space, segment, triangle and box. That is written as a *final-state
transcript* (``final:`` lines instead of moves, see docs/transcripts.md) and judged here: each
item must exist, each colour must be a player's or one the game names (Mondrian's ``neutral``),
the game's rules say what a finished sheet decides (:meth:`Rules.check_final`), the tally boxes
are counted per score area, and where the sheet fixes the scores, the tallies and the claims are
compared with them.

Example:
    >>> from papergames.play.transcript import parse_transcript
    >>> text = '''sheet: mondrian field=mini seed=1
    ... players: Ann (red), Bob (blue)
    ... final: A red, B red'''
    >>> verdict = check_final(parse_transcript(text))
    >>> verdict.ok, [b.code for b in verdict.breaches]
    (False, ['own-colour', 'unfinished'])
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from papergames.play.game import UnknownClaim, build_game
from papergames.play.rules import Breach, FinalReport, Player, Position
from papergames.play.transcript import Place, Transcript, TranscriptError
from papergames.sheets.board import Board
from papergames.sheets.model import Feature, Kind, Page

if TYPE_CHECKING:
    from papergames.play.rules import Rules

MARKED = "marked"
"""The colour word for a box marked with no colour that matters (a tally, a loss)."""
TALLY_ID = re.compile(r"box-tally(\d+)-\d+")
LEGEND_ID = re.compile(r"box-legend-(\d+)")


def scores_text(players: Sequence[str], scores: Sequence[int]) -> str:
    """Each player's name and score, as a verdict's lines write them: ``Ann 3, Bob 5``."""
    return ", ".join(f"{name} {score}" for name, score in zip(players, scores, strict=True))


@dataclass
class FinalVerdict:
    """Everything the checker found about a finished sheet; printed like a transcript's."""

    spec: str
    players: list[str]
    counts: dict[str, list[int]]
    tallies: list[int] | None
    report: FinalReport
    claims: list[tuple[str, str, str, str, Place]] = field(default_factory=list)
    unknown_claims: list[UnknownClaim] = field(default_factory=list)
    """The claims of something the sheet does not decide; the report's notes say so too."""

    @property
    def breaches(self) -> list[Breach]:
        return self.report.breaches

    @property
    def ok(self) -> bool:
        """No rule broken and every claim true."""
        return not self.breaches and all(c[2] == c[3] for c in self.claims)

    @property
    def verdict(self) -> str:
        return "consistent" if self.ok else "breaks the rules"

    def lines(self) -> list[str]:
        """The verdict for people: the outcome, counts, tallies, scores, breaches, claims."""
        lines = [f"sheet: {self.spec}", f"final position: {self.verdict.upper()}"]
        for kind, per_player in self.counts.items():
            counts = ", ".join(f"{n} {c}" for n, c in zip(self.players, per_player, strict=True))
            lines.append(f"{kind} coloured: {counts}")
        if self.tallies is not None:
            lines.append(f"tally boxes marked: {scores_text(self.players, self.tallies)}")
        if self.report.scores is not None:
            lines.append(f"scores: {scores_text(self.players, self.report.scores)}")
        if self.report.winners:
            names = ", ".join(self.players[p] for p in self.report.winners)
            lines.append(f"{'winner' if len(self.report.winners) == 1 else 'winners'}: {names}")
        lines += [breach_line(breach) for breach in self.breaches]
        for player, what, claimed, actual, place in self.claims:
            outcome = "holds" if claimed == actual else f"is wrong: the sheet shows {actual}"
            lines.append(f"claim at {place}: {player} {what} {claimed} {outcome}")
        lines.extend(f"note: {note}" for note in self.report.notes)
        return lines

    def to_json(self) -> dict[str, Any]:
        scores = self.report.scores
        return {
            "sheet": self.spec,
            "players": self.players,
            "verdict": self.verdict,
            "ok": self.ok,
            "counts": {k: dict(zip(self.players, v, strict=True)) for k, v in self.counts.items()},
            "tallies": None
            if self.tallies is None
            else dict(zip(self.players, self.tallies, strict=True)),
            "scores": None if scores is None else dict(zip(self.players, scores, strict=True)),
            "winners": [self.players[p] for p in self.report.winners],
            "breaches": [
                {"code": b.code, "reason": b.reason, "items": list(b.items)} for b in self.breaches
            ],
            "claims": [
                {
                    "player": p,
                    "what": w,
                    "claimed": c,
                    "actual": a,
                    "holds": c == a,
                    "where": str(pl),
                }
                for p, w, c, a, pl in self.claims
            ],
            "notes": self.report.notes,
        }


def breach_line(breach: Breach) -> str:
    """How a verdict prints a broken rule: its reason, its items and its code."""
    items = f" ({', '.join(breach.items)})" if breach.items else ""
    return f"BREAKS THE RULES: {breach.reason}{items} [{breach.code}]"


def check_final(transcript: Transcript, game: Rules[Any, Any] | None = None) -> FinalVerdict:
    """Judge the finished sheet a final-state transcript describes.

    Raises:
        TranscriptError: when an item does not exist on the sheet or a colour is nobody's.
        PapergamesError: when the game has no rules, or the players or options do not fit.
    """
    game = game or build_game(transcript)
    position = read_position(transcript, game)
    names = [p.name for p in transcript.players]
    report = game.check_final(position)
    tallies = count_tallies(position) if game.tallies_are_points else None
    if report.scores is not None:
        report.facts.setdefault("score", report.scores)
        if tallies is not None and list(report.scores) != tallies:
            report.breaches.append(_tally_breach(names, report.scores, tallies))
    verdict = FinalVerdict(str(transcript.spec), names, count_items(position), tallies, report)
    for claim in transcript.claims:
        values = report.facts.get(claim.what)
        if values is None:
            known = ", ".join(report.facts) or "nothing"
            report.notes.append(f"{claim.place}: cannot check '{claim.what}' (known: {known})")
            known_facts = tuple(report.facts)
            verdict.unknown_claims.append(
                UnknownClaim(claim.player, claim.what, claim.value, claim.place, known_facts)
            )
            continue
        actual = str(values[names.index(claim.player)])
        verdict.claims.append((claim.player, claim.what, claim.value, actual, claim.place))
    return verdict


def read_position(transcript: Transcript, game: Rules[Any, Any]) -> Position:
    """The position the ``final:`` lines describe, every item and colour checked.

    Raises:
        TranscriptError: listing every unknown item and colour with its place.
    """
    sheet = game.sheet
    words = _colour_words(transcript.players, game.extra_colours)
    printed = {name.upper(): fid for name, fid in game.printed_names().items()}
    problems: list[tuple[Place, str]] = []
    marks: dict[tuple[int, str], str] = {}
    for mark in transcript.final:
        if not 1 <= mark.page <= len(sheet.pages):
            problems.append((mark.place, f"the sheet has no page {mark.page}"))
            continue
        feature = find_item(sheet.pages[mark.page - 1], mark.item, printed)
        colour = words.get(mark.colour.lower())
        if feature is None:
            problems.append((mark.place, f"'{mark.item}' is not an item of this sheet"))
        elif colour is None:
            known = ", ".join(sorted(set(words.values())))
            problems.append((mark.place, f"'{mark.colour}' is not a colour here (known: {known})"))
        elif (mark.page, feature.id) in marks:
            problems.append((mark.place, f"'{mark.item}' is given twice"))
        else:
            marks[(mark.page, feature.id)] = colour
    if problems:
        raise TranscriptError(transcript.source, problems)
    return Position(sheet, tuple(transcript.players), marks)


def _colour_words(players: Sequence[Player], extra: Sequence[str]) -> dict[str, str]:
    """Every word a ``final:`` line may use for a colour, mapped to the colour it means."""
    words = {MARKED: MARKED, "x": MARKED}
    for word in extra:
        words[word.lower()] = word.lower()
    for player in players:
        colour = (player.colour or player.name).lower()
        words[player.name.lower()] = colour
        words[colour] = colour
    return words


def find_item(page: Page, name: str, printed: Mapping[str, str] | None = None) -> Feature | None:
    """The feature a ``final:`` line names: its id, a name the game prints (``printed``, upper
    case, see :meth:`~papergames.play.rules.Rules.printed_names`), or a space's or point's number or
    label."""
    fid = (printed or {}).get(name.upper())
    if fid is not None:
        name = fid
    try:
        item = page.get(name)
    except KeyError:
        pass
    else:
        return item if isinstance(item, Feature) else None
    for kind in (Kind.SPACE, Kind.SEGMENT, Kind.TRIANGLE, Kind.LINE):
        board = Board.of(page, kind)
        found = board.lookup(name)
        if found is not None:
            return board.features[found]
    return None


def count_items(position: Position) -> dict[str, list[int]]:
    """How many items of each kind carry each player's colour (kinds with none left out)."""
    counts: dict[str, list[int]] = {}
    for (page_no, item), _colour in position.marks.items():
        owner = position.owner(item, page_no)
        feature = position.sheet.pages[page_no - 1].get(item)
        if owner is None or not isinstance(feature, Feature) or feature.kind == Kind.BOX:
            continue
        per_player = counts.setdefault(f"{feature.kind.value}s", [0] * len(position.players))
        per_player[owner] += 1
    return counts


def area_owners(position: Position) -> dict[int, int]:
    """Which player each score area belongs to: from its colour box, else area k is player k."""
    owners = {k + 1: k for k in range(len(position.players))}
    for (page_no, item), colour in position.marks.items():
        match = LEGEND_ID.fullmatch(item)
        player = position.player_of(colour)
        if page_no == 1 and match and player is not None:
            owners[int(match.group(1))] = player
    return owners


def count_tallies(position: Position) -> list[int] | None:
    """Marked tally boxes per player, or ``None`` when the sheet has no tally boxes."""
    page = position.sheet.pages[0]
    if not any(TALLY_ID.fullmatch(f.id) for f in page.features()):
        return None
    owners = area_owners(position)
    tallies = [0] * len(position.players)
    for (page_no, item), _colour in position.marks.items():
        match = TALLY_ID.fullmatch(item)
        if page_no == 1 and match and int(match.group(1)) in owners:
            tallies[owners[int(match.group(1))]] += 1
    return tallies


def tally_marks(page: Page, counts: Sequence[int], colours: Sequence[str]) -> dict[str, str]:
    """Tally boxes marked as a finished sheet shows scores: ``counts[p]`` boxes in area p + 1.

    Example:
        >>> from papergames import SheetSpec, make_sheet
        >>> page = make_sheet(SheetSpec.create("mondrian", seed=1)).page
        >>> sorted(tally_marks(page, [2, 0], ["red", "blue"]).items())
        [('box-tally1-1', 'red'), ('box-tally1-2', 'red')]
    """
    marks = {}
    for player, count in enumerate(counts):
        for k in range(1, count + 1):
            item = f"box-tally{player + 1}-{k}"
            if item in page.ids():
                marks[item] = colours[player]
    return marks


def _tally_breach(names: list[str], scores: Sequence[int], tallies: Sequence[int]) -> Breach:
    wrong = [
        f"{n} marked {t} but the sheet shows {s}"
        for n, s, t in zip(names, scores, tallies, strict=True)
        if s != t
    ]
    return Breach("tally", "the tally boxes disagree with the sheet: " + "; ".join(wrong))


def same_colour_neighbours(
    board: Board, colours: Sequence[str | None], *, skip: Sequence[str] = (MARKED,)
) -> list[tuple[int, int]]:
    """Every pair of features next to each other (sharing a border) that carry one colour.

    Example:
        >>> from shapely.geometry import box
        >>> page = Page(100, 100)
        >>> for n, x in enumerate((0, 10, 20), start=1):
        ...     page.add(Feature(f"space-{n}", Kind.SPACE, box(x, 0, x + 10, 10)))
        >>> same_colour_neighbours(Board.of(page), ["red", "red", "blue"])
        [(0, 1)]
    """
    pairs = []
    for a, near in enumerate(board.neighbours):
        for b in near:
            colour = colours[a]
            if a < b and colour is not None and colour == colours[b] and colour not in skip:
                pairs.append((a, b))
    return pairs


def connected_groups(board: Board, members: Sequence[int]) -> list[list[int]]:
    """The groups ``members`` fall into when joined through shared borders, largest first."""
    left = set(members)
    groups = []
    while left:
        start = min(left)
        group, todo = {start}, [start]
        while todo:
            for near in board.neighbours[todo.pop()]:
                if near in left and near not in group:
                    group.add(near)
                    todo.append(near)
        left -= group
        groups.append(sorted(group))
    return sorted(groups, key=lambda g: (-len(g), g))


def owners_of(
    position: Position, ids: Sequence[str], report: FinalReport, empty: int, page: int = 1
) -> list[int]:
    """The player whose colour is on each item (``empty`` for none), in the order of ``ids``.

    A colour that is no player's (a game's extra colour where it has no meaning) is reported as
    a breach and read as empty.
    """
    owners = []
    for item in ids:
        colour = position.colour(item, page)
        owner = None if colour is None else position.player_of(colour)
        if colour is not None and owner is None:
            reason = f"'{colour}' is no player's colour"
            report.breaches.append(Breach("not-a-colour", reason, (item,)))
        owners.append(empty if owner is None else owner)
    return owners


def item_names(board: Board, indices: Sequence[int]) -> tuple[str, ...]:
    """Items as people find them: the id, with the printed label when there is one."""
    names = []
    for k in indices:
        feature = board.features[k]
        names.append(f"{feature.id} ({feature.label})" if feature.label else feature.id)
    return tuple(names)
