"""Benchmark the photo reader on synthetic photos of finished sheets; print a table per tier.

Run: ``.venv/bin/python bench/photo.py [--sheets N] [--tiers scan,phone,copy,hard]``. For each
tier, N sheets cycle through the art games and Crossing the Rings, each with its own seed
(:func:`papergames.photo.synthetic.finished_sheet`): where the rules can say what a finished
sheet looks like, a random legal game is played to its end and coloured, and every third such
sheet gets a flaw (a space in its neighbour's colour, one tally too many) that makes it illegal;
the other games get a random share of their items coloured. Each page is photographed
(:mod:`papergames.photo.camera`: 300 dpi scans, 8-12 MP phone photos, phone photos of a
photocopied handout, hard photos), opened as the command line opens a file, read and judged;
every item's reading is compared with the truth. For the ``copy`` tier the print is photocopied
(:func:`papergames.photo.copier.photocopy`: screened greys, dot gain, toner bands, a streak)
before the pencil is laid, and the coloured copy is reduced, turned and shifted on its paper.

The table gives, per tier: the share of photos whose QR code was read; the accuracy per item
role, as the share of items read right, then the share read right and not flagged low
confidence (a flagged item costs the player a look even when it was read right; an item the
judging lists to check, such as another seat's colour in a row of tally boxes, is flagged); the
sheets read without a single error; the items flagged; the errors not flagged (the ones a player
would not be warned about); illegal or misread sheets called consistent (the target is none);
legal sheets called broken; and what a teacher gets: the legal sheets called consistent, the
items to look at per sheet (the median and worst count of items flagged), and the sure breaches
on legal sheets (the sheets given one, and their number: the target is none); the median and
worst seconds per photo (opening the file included) and the peak memory. Targets: scan >= 99.9 %
of items, phone >= 99.5 %, hard >= 97 % with most remaining errors flagged; every scan, phone
and copy QR code read; median under 1.5 s per 12 MP photo; under 1 GB. ``--debug DIR`` saves
the reader's debug image of the first sheets of each tier; ``--games arp,miro`` cycles through
those games only (to study one game on many seeds), and ``--errors`` lists every item read wrong
or flagged, not only the first unflagged errors. ``--names`` makes every sheet for a group of a
class list with the hardest names (accents, Cyrillic, Greek, 24 characters: the longest QR
codes) and adds the row "names read back identical" (the target is every one).
``--first-style`` prints every sheet as sheets were printed before Miro's and Arp's lines became
two rules (one grey stroke): the handouts already in classrooms, which must still read.
``--light CHANCE`` hatches each space by a light hand with that chance (strokes far apart and
pressed lightly, covering a quarter to a half of the space: what a child in a hurry or a pale
neutral pencil leaves).
``--hurried CHANCE`` dashes each tally mark off low with that chance, across its box's lower
border, so that little of it lies inside the box.
``--ghost CHANCE`` presses each tally mark so lightly, with that chance, that its box looks bare:
a tick a person sees only from the ticks on either side.
``--unboxed`` has the last seat of every sheet leave its colour box empty while its pencil is on
the field, and adds the row "unboxed pencil read surely as another's": the items in that pencil
the reader gave surely to another seat's colour (the target is none; a box of the seat's own
score row read as marked in graphite is theirs and not counted; the sheet's other items and its
verdict are counted as always).
``--waxy SHARE`` makes the pencils waxy: a firm stroke covers that share of the colour laid
before it, and the lines are traced before the spaces are hatched, as Arp and Miro are played,
so a space's hatching hides part of the traces round it where it runs over them.
``--faint CHANCE`` has each seat press its pencil lightly throughout with that chance (its colour
box, spaces, traced lines and marks all pale beside the others'), and adds the row "faint
seats' items read right", with those read wrong without a flag.
``--beside CHANCE`` traces each line, with that chance, beside its printed stroke on one side
rather than over it, as a hand keeping the print in view does (Arp's traces then lie under one
neighbour's hatching, not both).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from papergames.games import get_game
from papergames.photo.camera import TIERS, photograph
from papergames.photo.copier import photocopy
from papergames.photo.debug import debug_image
from papergames.photo.image import images_from_bytes
from papergames.photo.items import LEGEND_PREFIX
from papergames.photo.memory import take_memory_as_a_reader
from papergames.photo.outcome import BREAKS, CONSISTENT, judge_reading, player_keys, seat_players
from papergames.photo.read import ItemReading, PageReading, read_page
from papergames.photo.synthetic import FinishedSheet, finished_sheet
from papergames.play.final import MARKED
from papergames.sheets.names import format_names
from papergames.sheets.spec import SheetSpec

GAMES = ("vasarely", "miro", "mondrian", "arp", "delaunay", "klee", "springer", "rings")
ROLES = ("space", "segment", "triangle", "box")
GRAPHITE_TICKS = 0.3
"""The chance that a seat ticks its score boxes in graphite rather than its own colour."""


@dataclass
class _Tally:
    """The counts of one tier."""

    photos: int = 0
    qr: int = 0
    retakes: Counter[str] = field(default_factory=Counter)
    items: Counter[str] = field(default_factory=Counter)
    right: Counter[str] = field(default_factory=Counter)
    sure: Counter[str] = field(default_factory=Counter)
    flagged: int = 0
    unflagged_errors: int = 0
    perfect: int = 0
    illegal: int = 0
    illegal_consistent: int = 0
    misread_consistent: int = 0
    legal: int = 0
    legal_broken: int = 0
    legal_consistent: int = 0
    legal_sure_sheets: int = 0
    legal_sure_breaches: int = 0
    to_look_at: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    every_error: bool = False
    named: int = 0
    names_same: int = 0
    pencils: int = 0
    pencils_named: int = 0
    unboxed_items: int = 0
    unboxed_given: int = 0
    faint_items: int = 0
    faint_right: int = 0
    faint_sure_wrong: int = 0

    def add(self, reading: PageReading, sheet: FinishedSheet, seconds: float) -> None:
        self.photos += 1
        self.seconds.append(seconds)
        if reading.spec is not None:
            self.qr += 1
            if sheet.spec.names:
                self.named += 1
                self.names_same += reading.spec.names == sheet.spec.names
        if reading.retake is not None:
            self.retakes[reading.retake.split(":")[0]] += 1
            return
        self._pencil_names(reading, sheet)
        judged = judge_reading(reading)
        wrong = sum(self._item(judged.reading, item, sheet) for item in judged.reading.items)
        self.perfect += wrong == 0
        self._unboxed(judged.reading, sheet)
        self._faint(judged.reading, sheet)
        self.to_look_at.append(sum(item.low for item in judged.reading.items))
        verdict = judged.outcome
        if sheet.legal is False:
            self.illegal += 1
            self.illegal_consistent += verdict == CONSISTENT
        if sheet.legal:
            self.legal += 1
            self.legal_broken += verdict == BREAKS
            self.legal_consistent += verdict == CONSISTENT
            sure = len(judged.sure_breaches())
            self.legal_sure_sheets += sure > 0
            self.legal_sure_breaches += sure
        if wrong and verdict == CONSISTENT:
            self.misread_consistent += 1

    def _unboxed(self, reading: PageReading, sheet: FinishedSheet) -> None:
        """Count the items of a pencil whose colour box is empty, and those given surely to
        another seat's colour (a box of that seat's own row read as marked in graphite stays
        theirs)."""
        keys = {v for v in sheet.truth.values() if v and v.isdigit()}
        empty = {k for k in keys if sheet.truth.get(f"{LEGEND_PREFIX}{k}") is None}
        for item in reading.items:
            if sheet.truth.get(item.id) in empty:
                self.unboxed_items += 1
                self.unboxed_given += item.colour not in (None, MARKED) and not item.low

    def _faint(self, reading: PageReading, sheet: FinishedSheet) -> None:
        """Count the items of the seats that pressed lightly, those read right, and those read
        wrong without a flag."""
        for item in reading.items:
            if sheet.truth.get(item.id) in sheet.faint:
                self.faint_items += 1
                right = item.colour == sheet.truth.get(item.id)
                self.faint_right += right
                self.faint_sure_wrong += not right and not item.low

    def _pencil_names(self, reading: PageReading, sheet: FinishedSheet) -> None:
        """Count the seats whose pencil the report names as the bench coloured with it."""
        players, _ = seat_players(reading)
        for key, player in zip(player_keys(reading), players, strict=False):
            self.pencils += 1
            given = sheet.pencils.get(key, "").replace(" ", "-")
            self.pencils_named += player.colour == given

    def _item(self, reading: PageReading, item: ItemReading, sheet: FinishedSheet) -> bool:
        """Count one item; whether it was read wrong."""
        expected = sheet.truth.get(item.id)
        self.items[item.role] += 1
        self.flagged += item.low
        if item.colour == expected:
            self.right[item.role] += 1
            self.sure[item.role] += not item.low
        if item.colour != expected and not item.low:
            self.unflagged_errors += 1
        listed = item.colour != expected or (self.every_error and item.low)
        if listed and ((not item.low and len(self.examples) < 12) or self.every_error):
            self.examples.append(
                f"{reading.source} {item.id}: read {_named(item.colour, sheet)}, "
                f"is {_named(expected, sheet)} (coverage {item.coverage:.2f}, "
                f"confidence {item.confidence:.2f}{', flagged' if item.low else ''})"
            )
        return item.colour != expected


NAMES = (
    ("Zoë Łukasz-Nowak", "Αικατερίνη Παπαδοπούλου", "Александра Петровская"),
    ("Wolfeschlegelsteinhausen", "Mia Rose", "Νίκος"),
    ("Анна-Мария Иванова", "Chloé", "Björn Åström"),
)
"""Names of a class list that make the QR code hardest to read back: spaces, accents, Cyrillic
and Greek (two bytes each in the code), names of 24 characters."""


def named_spec(game: str, seed: int) -> SheetSpec:
    """A sheet of ``game`` made for a group with names from :data:`NAMES`."""
    low, high = get_game(game).players
    names = NAMES[seed % len(NAMES)][: max(low, min(high, 3))]
    return SheetSpec.create(game, {"names": format_names(names)}, seed=seed)


def _named(colour: str | None, sheet: FinishedSheet) -> str:
    return "empty" if colour is None else f"{colour} ({sheet.pencils.get(colour, '?')})"


def run_tier(
    tier: str,
    sheets: int,
    base_seed: int,
    debug: Path | None,
    games: tuple[str, ...] = GAMES,
    every_error: bool = False,
    names: bool = False,
    first_style: bool = False,
    light: float = 0.0,
    hurried: float = 0.0,
    ghost: float = 0.0,
    waxy: float = 0.0,
    unboxed: bool = False,
    faint: float = 0.0,
    beside: float = 0.0,
) -> _Tally:
    tally = _Tally(every_error=every_error)
    for k in range(sheets):
        game = games[k % len(games)]
        seed = base_seed + k
        rng = np.random.default_rng([seed, len(tier)])
        flaw = ("neighbour", "tally")[k // len(GAMES) % 2] if k % 3 == 2 else None
        copier = TIERS[tier].copier
        sheet = finished_sheet(
            named_spec(game, seed) if names else SheetSpec.create(game, seed=seed),
            rng,
            flaw=flaw,
            graphite=GRAPHITE_TICKS,
            first_style=first_style,
            light=light,
            hurried=hurried,
            ghost=ghost,
            waxy=waxy,
            unboxed=unboxed,
            faint=faint,
            beside=beside,
            printed=partial(photocopy, copier=copier) if copier is not None else None,
        )
        photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS[tier], rng)
        # Read as ``papergames read`` reads: the BLAS on one thread (photo.batch).
        with threadpool_limits(1, user_api="blas"):
            start = time.perf_counter()
            opened = images_from_bytes(photo.data, f"{tier}-{game}-{seed}")[0]
            reading = read_page(opened.pixels, opened.source)
            seconds = time.perf_counter() - start
        tally.add(reading, sheet, seconds)
        if debug is not None and k < 4 and reading.retake is None:
            debug.mkdir(parents=True, exist_ok=True)
            debug_image(reading, scale=0.5).save(debug / f"{opened.source}.png")
    return tally


def _percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.2f} %" if whole else "-"


def report(tier: str, tally: _Tally) -> None:
    total_items = sum(tally.items.values())
    total_right = sum(tally.right.values())
    total_sure = sum(tally.sure.values())
    print(f"\n### {tier} ({tally.photos} photos)\n")
    print("| measure | value |")
    print("|---|---|")
    print(f"| QR read | {_percent(tally.qr, tally.photos)} |")
    if tally.named:
        print(f"| names read back identical | {tally.names_same} of {tally.named} |")
    for role in ROLES:
        if tally.items[role]:
            print(
                f"| {role} accuracy | {_percent(tally.right[role], tally.items[role])}; "
                f"{_percent(tally.sure[role], tally.items[role])} also not flagged "
                f"({tally.items[role]} items) |"
            )
    print(
        f"| all items | {_percent(total_right, total_items)}; "
        f"{_percent(total_sure, total_items)} also not flagged ({total_items} items) |"
    )
    print(f"| sheets read perfectly | {tally.perfect} of {tally.photos} |")
    if tally.pencils:
        print(f"| pencils named as coloured | {tally.pencils_named} of {tally.pencils} |")
    if tally.unboxed_items:
        print(
            f"| unboxed pencil read surely as another's | {tally.unboxed_given} of "
            f"{tally.unboxed_items} items |"
        )
    if tally.faint_items:
        print(
            f"| faint seats' items read right | "
            f"{_percent(tally.faint_right, tally.faint_items)} of {tally.faint_items}; "
            f"{tally.faint_sure_wrong} wrong without a flag |"
        )
    print(f"| items flagged low confidence | {tally.flagged} |")
    print(f"| errors not flagged | {tally.unflagged_errors} |")
    print(f"| illegal sheets called consistent | {tally.illegal_consistent} of {tally.illegal} |")
    print(f"| misread sheets called consistent | {tally.misread_consistent} |")
    print(f"| legal sheets called broken | {tally.legal_broken} of {tally.legal} |")
    print(f"| legal sheets called consistent | {tally.legal_consistent} of {tally.legal} |")
    if tally.to_look_at:
        print(
            f"| items to look at per sheet | median {statistics.median(tally.to_look_at):g}, "
            f"worst {max(tally.to_look_at)} |"
        )
    print(
        f"| sure breaches on legal sheets | {tally.legal_sure_sheets} of {tally.legal} sheets, "
        f"{tally.legal_sure_breaches} in all |"
    )
    if tally.retakes:
        print(f"| retakes | {dict(tally.retakes)} |")
    print(f"| median s per photo | {statistics.median(tally.seconds):.2f} |")
    print(f"| worst s per photo | {max(tally.seconds):.2f} |")
    for line in tally.examples:
        print(f"  - {line}")


def main() -> None:
    take_memory_as_a_reader()  # the process's memory taken as ``papergames read`` takes it
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=16, help="sheets per tier")
    parser.add_argument("--tiers", default="scan,phone,copy,hard")
    parser.add_argument("--seed", type=int, default=1000, help="first sheet's seed")
    parser.add_argument("--debug", type=Path, default=None, help="folder for debug images")
    parser.add_argument("--games", default=",".join(GAMES), help="games to cycle through")
    parser.add_argument("--errors", action="store_true", help="list every item wrong or flagged")
    parser.add_argument(
        "--names", action="store_true", help="make every sheet for a group with hard names"
    )
    parser.add_argument(
        "--first-style", action="store_true", help="print lines as sheets were first printed"
    )
    parser.add_argument(
        "--light", type=float, default=0.0, help="chance that a space is hatched lightly"
    )
    parser.add_argument(
        "--hurried", type=float, default=0.0, help="chance that a tally mark is dashed off low"
    )
    parser.add_argument(
        "--ghost", type=float, default=0.0, help="chance that a tally mark barely shows"
    )
    parser.add_argument(
        "--waxy", type=float, default=0.0, help="share of earlier pencil a firm stroke covers"
    )
    parser.add_argument(
        "--unboxed", action="store_true", help="the last seat leaves its colour box empty"
    )
    parser.add_argument(
        "--faint", type=float, default=0.0, help="chance that a seat presses lightly throughout"
    )
    parser.add_argument(
        "--beside", type=float, default=0.0, help="chance that a line is traced beside its stroke"
    )
    args = parser.parse_args()
    bounded = {
        "light": "chance",
        "hurried": "chance",
        "ghost": "chance",
        "waxy": "share",
        "faint": "chance",
        "beside": "chance",
    }
    for name, kind in bounded.items():
        value = getattr(args, name)
        if not 0.0 <= value <= 1.0:
            parser.error(f"--{name} is a {kind} between 0 and 1, not {value}")
    games = tuple(args.games.split(","))
    for game in games:
        if game not in GAMES:
            parser.error(f"unknown game {game!r}: choose from {', '.join(GAMES)}")
    for tier in args.tiers.split(","):
        if tier not in TIERS:
            parser.error(f"unknown tier {tier!r}: choose from {', '.join(TIERS)}")
        tally = run_tier(
            tier,
            args.sheets,
            args.seed,
            args.debug,
            games,
            args.errors,
            args.names,
            args.first_style,
            args.light,
            args.hurried,
            args.ghost,
            args.waxy,
            args.unboxed,
            args.faint,
            args.beside,
        )
        report(tier, tally)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory: {peak:.0f} MB")


if __name__ == "__main__":
    main()
