"""What a read sheet amounts to: its players, its final-state transcript and the verdict.

The reader says which colour key (a colour box's suffix: ``1``..``4``, ``neutral``) is on each
item. Here the keys become players and colour words: each coloured box of a score area is a
player (``Player1`` with the name of the colour found, say ``red``), a game's own extra colours
keep their names. Every item's best reading makes a final-state transcript, which the rules judge
like a typed one (:func:`papergames.play.final.check_final`). A broken rule is sure only if it is
also broken with the items read with low confidence left out; one that hangs on such an item is
shown as one that *may* be broken. The outcome is one of:

* ``consistent``: every item read with confidence and no rule broken (exit status 0);
* ``breaks the rules``: a rule is broken; each breach names its items (exit status 1);
* ``check these``: some items were read with low confidence; they are listed, and the sheet is
  never called consistent while any remain (exit status 3);
* ``retake``: the photo cannot be read; the advice says why (exit status 3).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from papergames.errors import PapergamesError
from papergames.games import get_game, get_rules
from papergames.photo.items import legend_colour, row_of, row_seat
from papergames.photo.naming import distinct_names
from papergames.photo.read import ItemReading, PageReading
from papergames.play.final import MARKED, FinalVerdict, breach_line, check_final
from papergames.play.rules import Breach, Player
from papergames.play.transcript import FinalMark, Place, Transcript, format_transcript
from papergames.sheets.sheet import sheets_reused

CONSISTENT = "consistent"
BREAKS = "breaks the rules"
CHECK = "check these"
RETAKE = "retake"
EXIT_CODES = {CONSISTENT: 0, BREAKS: 1, CHECK: 3, RETAKE: 3}
SHOWN = 12
"""Low-confidence items listed by name before the rest are counted."""
LOW_CONFIDENCE = "read with low confidence"
"""How the doubt listing the items read with low confidence begins."""
JUDGED_ON_BEST = (
    "judged on every item's best reading; a rule that hangs on an item to check may be broken:"
)
BREAKS_PREFIX = "BREAKS THE RULES: "
MAY_BREAK = "MAY BREAK THE RULES (hangs on an item to check)"


@dataclass
class SheetOutcome:
    """One read sheet, judged.

    Attributes:
        reading: what the reader saw.
        outcome: one of :data:`CONSISTENT`, :data:`BREAKS`, :data:`CHECK`, :data:`RETAKE`.
        transcript: the final-state transcript of every item's best reading.
        verdict: what the rules make of it (``None`` when the photo could not be read or the
            players do not fit the game).
        doubts: the items read with low confidence, and other reasons to look again.
        picture: the debug picture as PNG, when it was asked for.
        unsure: the verdict's breaches that hang on an item read with low confidence: with
            those items left out they are not broken (or not in the same way).
        notes: what the reader could not settle (:attr:`PageReading.notes`), with the
            players' colours named.
    """

    reading: PageReading
    outcome: str
    transcript: Transcript | None = None
    verdict: FinalVerdict | None = None
    doubts: list[str] = field(default_factory=list)
    picture: bytes | None = field(default=None, repr=False)
    unsure: list[Breach] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.outcome]

    @property
    def ok(self) -> bool:
        return self.outcome == CONSISTENT

    def lines(self) -> list[str]:
        """The outcome for people: players and colours found, counts, checks, verdict."""
        reading = self.reading
        lines = [f"photo: {reading.source}"]
        if self.outcome == RETAKE:
            return [*lines, f"RETAKE: {reading.retake}"]
        if self.transcript is not None:
            lines.append(f"sheet: {self.transcript.spec}")
            spec = self.transcript.spec
            if spec.class_name or spec.group:
                made = [f"class {spec.class_name}"] if spec.class_name else []
                made += [f"group {spec.group}"] if spec.group else []
                lines.append(f"made for: {', '.join(made)}: {', '.join(spec.names)}")
            players = self.transcript.players
            seats = [f"{p.name} {p.colour}" for p in players if p.colour]
            shared = [key for key in reading.colours if not key.isdigit()]
            lines.append(f"players: {len(players)}")
            lines.append(f"colours found: {', '.join(seats + shared) or 'none'}")
        if self.verdict is not None:
            if self.outcome == CHECK:
                lines.append(JUDGED_ON_BEST)
            lines += [self._hedged(line) for line in self.verdict.lines()[2:]]
        lines += [f"check: {doubt}" for doubt in self.doubts]
        lines += [f"note: {note}" for note in self.notes]
        lines.append(f"verdict: {self.outcome.upper()}")
        return lines

    def _hedged(self, line: str) -> str:
        """A verdict line, turned into a "may break" line when its breach is unsure."""
        for breach in self.unsure:
            if line == breach_line(breach):
                return f"{MAY_BREAK}: {line.removeprefix(BREAKS_PREFIX)}"
        return line

    def sure_breaches(self) -> list[Breach]:
        """The verdict's breaches that hold whatever the items to check turn out to be."""
        if self.verdict is None:
            return []
        return [b for b in self.verdict.breaches if b not in self.unsure]

    def state_text(self) -> str:
        """The position read as a final-state transcript, each item read with low confidence
        marked by a comment so that a person can look at it, correct it and check again."""
        assert self.transcript is not None
        low = {item.id for item in self.reading.items if item.low}
        lines = []
        for line in format_transcript(self.transcript).splitlines():
            named = line.removeprefix("final: ").split(" ")[0] if line.startswith("final: ") else ""
            item = named.rpartition("/")[2]  # a later page's items are written p2/space-5
            lines.append(f"{line}  # check: read with low confidence" if item in low else line)
        return "\n".join(lines) + "\n"

    def _players_json(self) -> list[dict[str, Any]]:
        """Each player with the colour word and the pencil's mean colour found for them."""
        assert self.transcript is not None
        players = self.transcript.players
        keys = player_keys(self.reading)
        rgbs: list[list[int] | None] = [None] * len(players)
        if len(keys) == len(players):
            rgbs = [list(self.reading.colours.get(k, ())) or None for k in keys]
        return [
            {"name": p.name, "colour": p.colour or None, "rgb": rgb}
            for p, rgb in zip(players, rgbs, strict=True)
        ]

    def to_json(self) -> dict[str, Any]:
        """The whole result in the schema docs/photo.md describes."""
        reading = self.reading
        checks = None if self.verdict is None else self.verdict.to_json()
        if checks is not None and self.verdict is not None:
            for shown, breach in zip(checks["breaches"], self.verdict.breaches, strict=True):
                shown["sure"] = breach not in self.unsure
        return {
            "source": reading.source,
            "verdict": self.outcome,
            "spec": None if reading.spec is None else str(reading.spec),
            "page": reading.page_number,
            "retake": reading.retake,
            "class": None if reading.spec is None else reading.spec.class_name or None,
            "group": None if reading.spec is None else reading.spec.group or None,
            "names": None if reading.spec is None else list(reading.spec.names) or None,
            "players": [] if self.transcript is None else self._players_json(),
            "items": [
                {
                    "id": item.id,
                    "role": item.role,
                    "colour": item.colour,
                    "coverage": round(item.coverage, 3),
                    "confidence": round(item.confidence, 3),
                    "low": item.low,
                }
                for item in reading.items
            ],
            "checks": checks,
            "doubts": self.doubts,
            "notes": self.notes,
            "timings": {k: round(v, 3) for k, v in reading.timings.items()},
        }


def player_keys(reading: PageReading) -> list[str]:
    """The colour keys of the score areas' colour boxes that were coloured, in area order."""
    return sorted((k for k in reading.colours if k.isdigit()), key=int)


def seat_players(reading: PageReading) -> tuple[list[Player], dict[str, str]]:
    """The players a read sheet shows, and the colour word of every colour key.

    Where each seat has a colour box (``box-legend-1``..), each coloured one is a player named
    for its seat (by the name printed in its row on a named sheet, else ``Player<n>``) and
    coloured with the name of the pencil found. Where the colours belong to no
    seat (Delaunay, Klee), the game judges the number of players from its named boxes
    (:meth:`~papergames.play.rules.Rules.seats_from_boxes`), else it is the game's fewest; their
    colours are the game's own words.
    """
    assert reading.spec is not None
    rules = get_rules(reading.spec.game)
    keys = player_keys(reading)
    names = distinct_names({k: reading.colours[k] for k in keys})
    words = {k: names[k] for k in keys} | {c: c for c in rules.extra_colours} | {MARKED: MARKED}
    printed = reading.spec.names

    def seat(k: int) -> str:
        return printed[k - 1] if k <= len(printed) else f"Player{k}"

    if keys:
        return [Player(seat(int(k)), names[k]) for k in keys], words
    coloured = frozenset(k for k in reading.colours if k in rules.extra_colours)
    low, high = get_game(reading.spec.game).players
    count = rules.seats_from_boxes(reading.spec.params, coloured) or low
    count = min(max(count, low), high)
    return [Player(seat(k)) for k in range(1, count + 1)], words


def judge_reading(reading: PageReading) -> SheetOutcome:
    """Turn a reading into players, a final-state transcript and a verdict.

    The position is replayed once as read and again for each second look; the sheet is built
    once for all of them.
    """
    with sheets_reused():
        return _judged(reading)


def _judged(reading: PageReading) -> SheetOutcome:
    if reading.retake is not None or reading.spec is None:
        return SheetOutcome(reading, RETAKE)
    game = get_game(reading.spec.game)
    if not reading.items:
        nothing = f"a {game.title} sheet has nothing a player colours or ticks for the reader"
        return SheetOutcome(reading, CHECK, doubts=[nothing])
    if not game.has_rules:
        unjudged = f"papergames has no rules for {game.title}: what was read is not judged"
        notes = [note.said({}) for note in reading.notes]
        return SheetOutcome(reading, CHECK, doubts=[*_doubts(reading.items), unjudged], notes=notes)
    players, words = seat_players(reading)
    notes = [note.said(words) for note in reading.notes]
    doubts = _doubts(reading.items)
    best: list[FinalMark] = []
    sure: list[FinalMark] = []
    questioned: set[str] = set()
    ticked_with = row_pencils(reading.items)
    for item in reading.items:
        if item.colour is None:
            continue
        word = words.get(item.colour)
        trouble = _stranger_in_row(item, ticked_with) or (
            None if word else f"{item.id} carries a colour that belongs to no player"
        )
        if trouble is not None or word is None:
            if not item.low and trouble is not None:
                doubts.append(trouble)
                questioned.add(item.id)
            continue
        mark = FinalMark(item.id, word, Place(), reading.page_number)
        best.append(mark)
        if not item.low:
            sure.append(mark)
    reading = _with_low(reading, questioned)
    transcript = _final_state(reading, players, best)
    try:
        verdict = check_final(transcript)
        others = _other_readings(reading, players, best, sure)
        unsure = _unsure(verdict, others)
    except PapergamesError as exc:
        doubts.append(_unfit(reading, len(players), exc))
        return SheetOutcome(reading, CHECK, transcript, None, doubts, notes=notes)
    if doubts:
        return SheetOutcome(reading, CHECK, transcript, verdict, doubts, unsure=unsure, notes=notes)
    outcome = CONSISTENT if verdict.ok else BREAKS
    return SheetOutcome(reading, outcome, transcript, verdict, notes=notes)


def _unfit(reading: PageReading, seats: int, error: PapergamesError) -> str:
    """Why the colour boxes do not fit the game, and what to do when a box looks left empty.

    A player who does not colour their box still colours the field; with one box too few for
    the game, their pencil is given to the players whose boxes were coloured.
    """
    assert reading.spec is not None
    fewest = get_game(reading.spec.game).players[0]
    if player_keys(reading) and seats < fewest:
        coloured = "only 1 colour box is" if seats == 1 else f"only {seats} colour boxes are"
        return (
            f"{coloured} coloured, but the game needs {fewest} players or more: if a player's "
            "colour box is empty, colour it and read the sheet again"
        )
    return f"the colour boxes do not fit the game: {error}"


def _with_low(reading: PageReading, questioned: set[str]) -> PageReading:
    """The reading with the items the judging questioned (another seat's colour in a row, a
    colour no player has) marked low, so that every view of the sheet rings them like the
    items the reader itself doubted."""
    if not questioned:
        return reading
    items = tuple(replace(i, low=True) if i.id in questioned else i for i in reading.items)
    return replace(reading, items=items)


def _final_state(reading: PageReading, players: list[Player], marks: list[FinalMark]) -> Transcript:
    assert reading.spec is not None
    return Transcript(reading.spec, players, final=marks, final_given=True, source=reading.source)


def _other_readings(
    reading: PageReading, players: list[Player], best: list[FinalMark], sure: list[FinalMark]
) -> list[Transcript]:
    """The readings a second look at the doubtful items could lead to: with the doubtful
    coloured items left out; with the doubtful empty items coloured, in each colour in play in
    turn; and with the doubtful coloured items all in one colour in play, each colour in turn
    (none when no item is in doubt).

    A doubtful item can be misread either way. A line read empty with low confidence may be
    traced after all: a broken rule that rests on its being empty (an Arp space captured with
    an open outline) must stand with it coloured too to be sure. Which colour it would be is
    not known, so every colour in play is tried; a box in a seat's row is that row's mark. A
    space read in doubt as one player's may be another's: a game read as unfinished because a
    winning chain seemed cut by spaces in the wrong colour is over once they are that player's.
    """
    blanks = [i for i in reading.items if i.low and i.colour is None and not legend_colour(i.id)]
    if sure == best and not blanks:
        return []
    others = [_final_state(reading, players, sure)] if sure != best else []
    assert reading.spec is not None
    extra = get_rules(reading.spec.game).extra_colours
    colours = [p.colour for p in players if p.colour] + list(extra)
    for colour in colours if blanks else []:
        filled = [
            FinalMark(i.id, MARKED if row_seat(i.id) else colour, Place(), reading.page_number)
            for i in blanks
        ]
        others.append(_final_state(reading, players, best + filled))
    certain = set(sure)
    recoloured = {m for m in best if m not in certain and row_seat(m.item) is None}
    for colour in colours if recoloured else []:
        if all(m.colour == colour for m in recoloured):
            continue
        moved = [replace(m, colour=colour) if m in recoloured else m for m in best]
        others.append(_final_state(reading, players, moved))
    return others


def _unsure(verdict: FinalVerdict, others: list[Transcript]) -> list[Breach]:
    """The breaches of ``verdict`` not found, the same in code, reason and items, in every other
    reading a second look could lead to (:func:`_other_readings`): whether they stand hangs on
    the doubtful items.

    A breach that shows under those readings and the best one alike stands either way. The
    reason counts too: a doubtful space read in the wrong colour moves a point between two
    players, so the tallies disagree with the sheet in both readings, but not in the same way.
    The breaches only another reading shows come from that reading (an Arp line left out
    leaves its spaces' outlines open) and are not reported at all.
    """
    standing = [check_final(other).breaches for other in others]
    return [b for b in verdict.breaches if not all(b in found for found in standing)]


def _stranger_in_row(item: ItemReading, ticked_with: Mapping[str, str] | None = None) -> str | None:
    """Why a box in one seat's row that carries another seat's pencil needs a look, if it does.

    A player marks their own row; another player's colour there is most often a stray touch
    of a pencil, which must not be counted as that row's mark without a person's look. A row
    ticked throughout with the pencil of another seat (:func:`row_pencils`: a player ticking in
    graphite when another player's colour is graphite) is that row's own ticking.

    Example:
        >>> read = ItemReading("box-tally2-5", "box", "1", 0.2, 0.9, False)
        >>> _stranger_in_row(read)
        "box-tally2-5 in seat 2's row carries seat 1's colour"
        >>> _stranger_in_row(read, {"box-tally2": "1"}) is None
        True
        >>> _stranger_in_row(ItemReading("box-tally2-5", "box", "2", 0.2, 0.9, False)) is None
        True
    """
    seat = row_seat(item.id)
    if seat is None or item.colour is None or not item.colour.isdigit() or item.colour == seat:
        return None
    if ticked_with is not None and ticked_with.get(row_of(item.id)) == item.colour:
        return None
    return f"{item.id} in seat {seat}'s row carries seat {item.colour}'s colour"


def row_pencils(items: tuple[ItemReading, ...]) -> dict[str, str]:
    """The colour each seat's row of boxes is ticked with, where one colour holds at least
    :data:`ROW_PENCIL_SHARE` of the row's sure marks and there are :data:`ROW_PENCIL_MARKS` of
    them or more: stray touches are few and scattered, a player's ticks are many and alike.

    Example:
        >>> ticks = [ItemReading(f"box-tally2-{k}", "box", "1", 0.6, 0.9, False) for k in (1, 2, 3)]
        >>> row_pencils((*ticks, ItemReading("box-tally1-1", "box", "1", 0.6, 0.9, False)))
        {'box-tally2': '1'}
    """
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    seats: dict[str, str] = {}
    for item in items:
        seat = row_seat(item.id)
        if seat is not None and item.colour is not None and not item.low:
            rows[row_of(item.id)][item.colour] += 1
            seats[row_of(item.id)] = seat
    found = {}
    for row, colours in sorted(rows.items()):
        colour, count = colours.most_common(1)[0]
        many = count >= max(ROW_PENCIL_MARKS, ROW_PENCIL_SHARE * colours.total())
        if colour != seats[row] and many:
            found[row] = colour
    return found


ROW_PENCIL_MARKS = 3
ROW_PENCIL_SHARE = 0.75


def _doubts(items: tuple[ItemReading, ...]) -> list[str]:
    low = [item for item in items if item.low]
    if not low:
        return []
    shown = ", ".join(item.id for item in low[:SHOWN])
    more = f" and {len(low) - SHOWN} more" if len(low) > SHOWN else ""
    return [f"{LOW_CONFIDENCE}: {shown}{more}"]
