"""Finished sheets made by the project itself: a game played, then coloured in pencil.

The photo reader is tested and benchmarked on sheets whose truth is known. Where a game's rules
say what a finished sheet looks like (:meth:`~papergames.play.rules.Rules.final_marks`), a random
legal game is played with the rules engine to its end and its final position is coloured; a
*flaw* makes it illegal on purpose (two neighbours in one colour, one tally too many), so that
the benchmark can count illegal sheets called ``consistent``. Other games get a random share of
their items coloured, which is all the reader needs to be measured on them.

Each colour key (a colour box's suffix: a player's number, or a colour's name such as
``neutral`` or ``red``) gets its own pencil from :data:`~papergames.photo.pencil.PENCILS`:
a named colour the pencil of that name when there is one, a player a pencil picked at random
among the rest, so some pairs look alike, as they do at a real table.

Example:
    >>> from papergames.sheets.spec import SheetSpec
    >>> sheet = finished_sheet(SheetSpec.create("springer", seed=2), np.random.default_rng(2))
    >>> sheet.legal, sorted(set(sheet.truth.values()) - {None})
    (True, ['1', '2'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from papergames.games import get_game, get_rules
from papergames.output.png import draw_page
from papergames.photo.items import ReadItem, Sampling, read_items, row_of, row_seat
from papergames.photo.pencil import PENCILS, RGB, Colouring, colour_page
from papergames.photo.styles import first_printed
from papergames.play.final import MARKED, check_final
from papergames.play.rules import Player, Rules
from papergames.play.transcript import FinalMark, Place, Transcript
from papergames.sheets.board import Board
from papergames.sheets.model import Page
from papergames.sheets.rng import Rng
from papergames.sheets.sheet import make_sheet, sheets_reused
from papergames.sheets.spec import SheetSpec

PRINT_DPI = 254
"""Resolution a coloured page is made at before it is photographed (10 px/mm)."""
FLAWS = ("neighbour", "tally")
"""Ways to make a finished sheet illegal: a space in its neighbour's colour; one tally too many."""


@dataclass(frozen=True)
class FinishedSheet:
    """A coloured page and what is on it.

    Attributes:
        spec: the sheet's spec.
        page: the page coloured (the first of the sheet).
        pixels: the coloured page, RGB, at :data:`PRINT_DPI`.
        truth: for every item the reader reads, the colour key on it, or ``None``.
        pencils: the pencil of each colour key in play.
        legal: whether the rules call the finished position legal (``None`` when coloured at
            random, which no rule judges).
        flaw: how the position was made illegal, if it was.
        played: a rules engine played the game (otherwise items were coloured at random).
        scores: the played game's scores in seat order, when its finished sheet decides them.
        faint: the seats that pressed their pencil lightly throughout (``faint`` of
            :func:`finished_sheet`).
    """

    spec: SheetSpec
    page: Page
    pixels: NDArray[np.uint8] = field(repr=False)
    truth: dict[str, str | None]
    pencils: dict[str, str]
    legal: bool | None
    flaw: str | None = None
    played: bool = False
    scores: tuple[int, ...] | None = None
    faint: frozenset[str] = frozenset()

    @property
    def px_per_mm(self) -> float:
        return PRINT_DPI / 25.4


def finished_sheet(
    spec: SheetSpec,
    rng: np.random.Generator,
    *,
    flaw: str | None = None,
    share: float = 0.5,
    pencils: Sequence[str] = (),
    graphite: float = 0.0,
    qr_of: SheetSpec | None = None,
    unboxed: bool = False,
    first_style: bool = False,
    light: float = 0.0,
    hurried: float = 0.0,
    ghost: float = 0.0,
    waxy: float = 0.0,
    faint: float = 0.0,
    beside: float = 0.0,
    printed: Callable[[NDArray[np.uint8], float, np.random.Generator], NDArray[np.uint8]]
    | None = None,
) -> FinishedSheet:
    """``spec``'s first page, finished and coloured in pencil.

    Args:
        spec: the sheet.
        rng: the source of every random choice.
        flaw: one of :data:`FLAWS` to make a played position illegal (ignored where the game
            cannot be played to a finished sheet, or the flaw does not apply).
        share: for games coloured at random, the share of items coloured.
        pencils: the players' pencils in seat order (names in
            :data:`~papergames.photo.pencil.PENCILS`); by default picked at random.
        graphite: the chance that a seat ticks its row of score boxes (tallies, losses, its
            track) with a graphite pencil rather than its own colour, as players at a real
            table often do; such a box's truth is :data:`~papergames.play.final.MARKED`, or the key
            of the player whose own pencil is graphite. Two seats may both do so.
        qr_of: another sheet whose QR code is printed in place of this one's (a code cut from
            another sheet, or a print of one seed carrying another's): what the reader must
            notice rather than judge a position on a sheet nobody played on.
        unboxed: the last player in play leaves their colour box empty, while their pencil is
            on the field: the reader cannot name that pencil and must not give its items to
            the others.
        first_style: the sheet is printed as sheets were before their line styles changed
            (:func:`papergames.photo.styles.first_printed`: Miro's and Arp's lines one grey
            stroke): a handout printed then, which the reader must still read.
        light: the chance that a space is hatched by a light hand: far-apart strokes pressed
            lightly (:data:`~papergames.photo.pencil.LIGHT_COVERAGE`), as a child in a hurry
            or a pale neutral pencil leaves them.
        hurried: the chance that a tally mark is dashed off low, across its box's lower
            border, so that little of it lies inside the box.
        ghost: the chance that a tally mark is pressed so lightly that the box looks bare, a
            tick a person sees only from the ticks on either side.
        waxy: how much of the pencil laid before it a firm stroke covers
            (:attr:`~papergames.photo.pencil.Colouring.waxy`): a space's hatching, laid after
            the lines round it are traced, then hides their traces where it runs over them.
        faint: the chance that a seat presses its pencil lightly throughout, at
            :data:`FAINT_PRESSURE` of a usual hand's pressure: its colour box, its spaces, its
            traced lines and its marks are all pale (one pencil among firm ones, as a child who
            barely touches the paper, or a hard pencil, leaves them).
        beside: the chance that a line is traced beside its printed stroke, on one side, rather
            than over it (:attr:`~papergames.photo.pencil.Colouring.beside_chance`).
        printed: what happens to the print before it is coloured, given the drawn page, its
            px per mm and ``rng`` (:func:`papergames.photo.copier.photocopy` for a photocopied
            handout): the pencil is laid over what it returns.
    """
    with sheets_reused():  # the print, the game and its check share one build of the sheet
        page = make_sheet(spec).pages[0]
        items = read_items(page, spec.game)
        keys = [item.legend for item in items if item.legend is not None]
        plan = _Plan(rng, _pencils(keys, rng, pencils))
        if graphite > 0.0:
            rows = sorted({seat for item in items if (seat := row_seat(item.id)) is not None})
            plan.graphite = {seat for seat in rows if rng.random() < graphite}
        played = _play(spec, page, items, keys, plan, rng, flaw)
        if played is None:
            _colour_at_random(plan, items, spec.game, share)
        legal = played.legal if played is not None else None
        made = played.flaw if played is not None else None
        if unboxed:
            seats = sorted((k for k in plan.in_play if k.isdigit()), key=int)
            plan.unboxed = seats[-1] if seats else None
        for item in items:
            if item.legend:
                plan.legend(item)
        plan.graphite_truth()
        look = first_printed(page) if first_style else page
        pixels = np.asarray(draw_page(look, PRINT_DPI).convert("RGB"), dtype=np.uint8)
        scale = PRINT_DPI / 25.4
        if qr_of is not None:
            pixels = _with_qr_of(pixels, page, make_sheet(qr_of).pages[0], scale)
        if printed is not None:
            pixels = printed(pixels, scale, rng)
        pressed = _faint_pencils(plan, faint)
        pixels = colour_page(
            pixels,
            scale,
            Colouring(areas=plan.legends, dense_chance=0.5, pressed=pressed),
            rng,
        )
        colouring = Colouring(
            areas=plan.areas,
            lines=plan.lines,
            tallies=plan.tallies,
            strays=int(rng.integers(0, 12)),
            light_chance=light,
            hurried_chance=hurried,
            ghost_chance=ghost,
            waxy=waxy,
            pressed=pressed,
            beside_chance=beside,
        )
        pixels = colour_page(pixels, scale, colouring, rng)
        truth = {item.id: plan.truth.get(item.id) for item in items}
        in_play = {k: plan.pencils[k] for k in sorted(plan.in_play)}
        scores = played.scores if played is not None else None
        faint_seats = frozenset(k for k in in_play if PENCILS[in_play[k]] in pressed)
        return FinishedSheet(
            spec, page, pixels, truth, in_play, legal, made, played is not None, scores, faint_seats
        )


FAINT_PRESSURE = (0.3, 0.5)
"""A faint seat's pressure as a share of a usual hand's: on the independent photos, one
player's pencil on a sheet was a fifth to a half as dense as another's."""


def _faint_pencils(plan: _Plan, chance: float) -> dict[RGB, float]:
    """For each seat in play that presses lightly (each with ``chance``), its pencil and the
    share of a usual pressure it is pressed with. Graphite is left out: seats that tick in
    graphite share it."""
    if chance <= 0.0:
        return {}
    pressed: dict[RGB, float] = {}
    for key in sorted(plan.in_play):
        pencil = plan.pencils.get(key)
        if key.isdigit() and pencil not in (None, "graphite") and plan.rng.random() < chance:
            pressed[PENCILS[pencil]] = float(plan.rng.uniform(*FAINT_PRESSURE))
    return pressed


def _with_qr_of(
    pixels: NDArray[np.uint8], page: Page, other: Page, scale: float
) -> NDArray[np.uint8]:
    """``page``'s print with ``other``'s QR code over its own (both sit in the footer's middle)."""
    pixels = pixels.copy()
    boxes = [_qr_bounds(p) for p in (page, other)]
    x0, y0 = (min(b[k] for b in boxes) - 1.0 for k in (0, 1))
    x1, y1 = (max(b[k] for b in boxes) + 1.0 for k in (2, 3))
    drawn = np.asarray(draw_page(other, PRINT_DPI).convert("RGB"), dtype=np.uint8)
    rows = slice(round(y0 * scale), round(y1 * scale))
    cols = slice(round(x0 * scale), round(x1 * scale))
    pixels[rows, cols] = drawn[rows, cols]
    return pixels


def _qr_bounds(page: Page) -> tuple[float, float, float, float]:
    code = next(f for f in page.features() if f.id == "qr-spec")
    x0, y0, x1, y1 = code.geometry.bounds
    return (x0, y0, x1, y1)


def _pencils(keys: list[str], rng: np.random.Generator, chosen: Sequence[str]) -> dict[str, str]:
    named = {k: k for k in keys if k in PENCILS}
    rest = [p for p in PENCILS if p not in named.values() and p not in chosen]
    picked = rng.choice(rest, size=len(keys) - len(named), replace=False).tolist()
    players = iter([*(p for p in chosen if p not in named.values()), *map(str, picked)])
    return {k: named.get(k) or next(players) for k in keys}


@dataclass
class _Plan:
    """The colouring being planned, and its truth."""

    rng: np.random.Generator
    pencils: dict[str, str]
    in_play: set[str] = field(default_factory=set)
    truth: dict[str, str | None] = field(default_factory=dict)
    legends: list[tuple[BaseGeometry, RGB]] = field(default_factory=list)
    areas: list[tuple[BaseGeometry, RGB]] = field(default_factory=list)
    lines: list[tuple[LineString, RGB]] = field(default_factory=list)
    tallies: list[tuple[Polygon, RGB]] = field(default_factory=list)
    graphite: set[str] = field(default_factory=set)
    ticked: set[str] = field(default_factory=set)
    unboxed: str | None = None

    def graphite_truth(self) -> None:
        """Name the boxes ticked in graphite: the colour of the player in play whose own pencil
        is graphite, or else :data:`~papergames.play.final.MARKED`."""
        owners = [k for k in sorted(self.in_play) if self.pencils.get(k) == "graphite"]
        for item_id in self.ticked:
            self.truth[item_id] = owners[0] if owners else MARKED

    def pencil(self, key: str) -> str:
        """The pencil of ``key``; a colour with no box of its own gets an unused one."""
        if key not in self.pencils:
            free = [p for p in PENCILS if p not in self.pencils.values()]
            self.pencils[key] = key if key in free else free[int(self.rng.integers(len(free)))]
        return self.pencils[key]

    def legend(self, item: ReadItem) -> None:
        colour = item.legend
        if colour is None or colour not in self.in_play or colour == self.unboxed:
            self.truth[item.id] = None
            return
        self.truth[item.id] = colour
        self.legends.append((item.geometry, PENCILS[self.pencils[colour]]))

    def colour(self, item: ReadItem, key: str) -> None:
        """Lay ``key``'s pencil on ``item`` the way its kind is coloured (a seat that ticks
        in graphite marks its own row's boxes in graphite)."""
        self.in_play.add(key)
        self.truth[item.id] = key
        rgb = PENCILS[self.pencil(key)]
        if item.area != "lane" and row_seat(item.id) in self.graphite:
            self.ticked.add(item.id)
            rgb = PENCILS["graphite"]
        if item.sampling == Sampling.LINE and isinstance(item.geometry, LineString):
            self.lines.append((item.geometry, rgb))
        elif item.sampling == Sampling.AREA or (
            item.area in ("seq", "track") and self.rng.random() < 0.5
        ):
            self.areas.append((item.geometry, rgb))
        elif isinstance(item.geometry, Polygon):
            self.tallies.append((item.geometry, rgb))


def _play(
    spec: SheetSpec,
    page: Page,
    items: tuple[ReadItem, ...],
    keys: list[str],
    plan: _Plan,
    rng: np.random.Generator,
    flaw: str | None,
) -> _Played | None:
    """Colour a random legal game's final position; ``None`` when the game cannot be played
    to a finished sheet."""
    if not get_game(spec.game).has_rules:
        return None
    rules_class = get_rules(spec.game)
    seats = [k for k in keys if k.isdigit()]
    low, high = get_game(spec.game).players
    high = min(high, len(seats)) if seats else low
    if high < low:
        return None
    count = int(rng.integers(low, high + 1))
    if low <= len(spec.names) <= high:  # a sheet made for a group seats exactly its names
        count = len(spec.names)
    players = [Player(f"Player{k + 1}") for k in range(count)]
    try:
        rules = rules_class(make_sheet(spec), players, rules_class.parse_options({}))
    except Exception:
        return None
    state = _random_game(rules, int(rng.integers(1 << 30)))
    marks = rules.final_marks(state)
    if marks is None:
        return None
    words = {rules.colour_word(p): str(p + 1) for p in range(count)}
    by_id = {item.id: item for item in items}
    truth = {item: word for (page_no, item), word in marks.items() if page_no == 1}
    made = _flaw(flaw, truth, page, words, rng) if flaw is not None else None
    seat_keys = {k for k in keys if k.isdigit()} & set(words.values())
    shared = sorted({w for w in truth.values() if w in keys and not w.isdigit()})
    for item_id, word in truth.items():
        item = by_id.get(item_id)
        if item is not None:
            key = _key(word, item_id, seat_keys, words)
            if key is None:  # a mark whose colour means nothing: a pencil in play
                key = str(rng.choice(shared)) if shared else "1"
            plan.colour(item, key)
    plan.in_play.update(key for key in words.values() if key in keys)
    final = [FinalMark(item, word, Place(), 1) for item, word in truth.items()]
    transcript = Transcript(spec, players, final=final, final_given=True)
    judged = check_final(transcript)
    return _Played(judged.ok, made, judged.report.scores)


@dataclass(frozen=True)
class _Played:
    """A game played to its end: whether the rules call its final position legal, and the flaw
    made in it, if any."""

    legal: bool
    flaw: str | None
    scores: tuple[int, ...] | None = None


def _key(word: str, item_id: str, seats: set[str], words: Mapping[str, str]) -> str | None:
    """The colour key of a colour word: a player's number, a named colour, or for a box marked
    with no colour that matters, the seat whose row it is in; ``None`` when the row belongs to
    no seat with a colour box (Delaunay's rows play the game's shared colours)."""
    if word in words:
        return words[word]
    if word == MARKED:
        seat = row_seat(item_id)
        if seat is not None and seat in seats:
            return seat
        return None if not seats else "1"
    return word


def _random_game(rules: Rules[Any, Any], seed: int) -> Any:
    random = Rng(seed, "synthetic", rules.game)
    state = rules.initial()
    for _ in range(100_000):
        if rules.is_over(state):
            return state
        state = rules.apply(state, rules.random_move(state, random))
    raise RuntimeError(f"a random {rules.game} game did not end")


def _flaw(
    flaw: str,
    truth: dict[str, str],
    page: Page,
    words: Mapping[str, str],
    rng: np.random.Generator,
) -> str | None:
    """Make the position illegal in place; the flaw's description, or ``None`` if it cannot."""
    if flaw == "neighbour":
        board = Board.of(page)
        pairs = [
            (board.ids[a], board.ids[b])
            for a, near in enumerate(board.neighbours)
            for b in near
            if truth.get(board.ids[a]) not in (None, MARKED)
            and truth.get(board.ids[b]) not in (None, MARKED)
            and truth[board.ids[a]] != truth[board.ids[b]]
        ]
        if not pairs:
            return None
        a, b = pairs[int(rng.integers(len(pairs)))]
        truth[a] = truth[b]
        return f"neighbour: {a} recoloured as {b}"
    if flaw == "tally":
        word = sorted(words)[int(rng.integers(len(words)))]
        row = words[word]
        for k in range(1, 1000):
            item = f"box-tally{row}-{k}"
            if item not in page.ids():
                return None
            if item not in truth:
                truth[item] = word
                return f"tally: {item} marked"
    return None


def _colour_at_random(plan: _Plan, items: tuple[ReadItem, ...], game: str, share: float) -> None:
    """Colour a random share of the items in the players' colours, as the game would: Miro's
    spaces stay white, Arp's are filled only once every line round them is traced, and a row of
    tally boxes is marked only by its own seat, from its first box on, as players tick them (a
    stray mark may still cross it)."""
    seats = sorted(plan.pencils)
    keys = [k for k in seats if k.isdigit()] or seats
    count = int(plan.rng.integers(2, len(keys) + 1)) if len(keys) > 2 else len(keys)
    playing = sorted(plan.rng.choice(keys, size=count, replace=False).tolist())
    plan.in_play.update(str(k) for k in playing)
    extra = [k for k in seats if not k.isdigit()]
    colours = [*(str(k) for k in playing), *(extra if game in ("klee", "delaunay") else [])]
    plan.in_play.update(colours)
    rows = Counter(row_of(item.id) for item in items if row_seat(item.id) in colours)
    ticks = {row: int(plan.rng.binomial(boxes, share)) for row, boxes in sorted(rows.items())}
    for item in items:
        if item.legend:
            continue
        plan.truth[item.id] = None
        seat = row_seat(item.id)
        if seat is not None:
            row = row_of(item.id)
            if seat in colours and ticks.get(row, 0) > 0:
                ticks[row] -= 1
                plan.colour(item, seat)
            continue
        if item.role == "space" and game in ("miro", "arp"):
            continue
        chance = 0.7 if item.sampling == Sampling.LINE and game == "arp" else share
        if plan.rng.random() < chance:
            plan.colour(item, colours[int(plan.rng.integers(len(colours)))])
    if game == "arp":
        for item in items:
            if item.role == "space":
                _capture(plan, item, items, colours)


def _capture(plan: _Plan, space: ReadItem, items: tuple[ReadItem, ...], colours: list[str]) -> None:
    edge = space.geometry.boundary.buffer(0.05)
    sides = [
        i
        for i in items
        if i.sampling == Sampling.LINE
        and edge.intersection(i.geometry).length > 0.5 * i.geometry.length
    ]
    if sides and all(plan.truth.get(s.id) for s in sides) and plan.rng.random() < 0.8:
        plan.colour(space, colours[int(plan.rng.integers(len(colours)))])
