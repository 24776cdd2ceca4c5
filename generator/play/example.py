"""Worked examples for the rules pages: a few real moves drawn on a real sheet.

A rules page says more with one played move than with a page of prose, so every game with moves
declares a short example next to its rules text: a module-level ``EXAMPLE`` in its layout's
module, an :class:`Example` holding a few moves in the game's own transcript notation, the score
they claim and two or three sentences saying why. This module replays those moves through the
game's rules engine, so an example that breaks a rule or claims a wrong score fails loudly (the
tests replay every one), and turns each move into marks to lay over the reduced sheet: the items
it colours, filled or drawn in greys and hatching that stay apart in grayscale, and a small
number giving the order of play.

What a move colours comes from the engine itself where it can say
(:meth:`~papergames.play.rules.Rules.final_marks`, compared before and after the move); otherwise
from the move's words that name items printed on the sheet (an id such as ``space-12``, or two
printed point names joined by ``-``, a line between them), or from the example's own ``marks``.

Example:
    >>> shown = replay(get_example("mondrian"))
    >>> shown.scores == shown.claimed
    True
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from shapely import affinity
from shapely.geometry import LineString, MultiLineString, Point
from shapely.geometry.base import BaseGeometry

from papergames.errors import PapergamesError
from papergames.sheets.model import Feature, Item, Kind, Layer, Page, Sheet, Style, Text

AREA_STYLES = (Style.HATCH, Style.SHADE, Style.CROSSHATCH, Style.TINT)
"""Fills for areas, one per colour in order of first use: hatched, mid grey, cross-hatched and
light grey stay four different things on a grayscale copy."""
LINE_DASHES: tuple[tuple[float, ...], ...] = ((), (2.2, 1.2), (0.7, 0.9), (4.0, 1.0, 0.7, 1.0))
"""On/off lengths in mm for lines, one pattern per colour (solid, dashed, dotted, dash-dot);
all heavy, so they stand out from the sheet's own lines."""
NUMBER_SIZE = 2.6
CLEARING = 0.6
"""Room in mm left round a number's digits, cut out of the example's fills and lines."""
"""The order numbers' type size in mm (7.4 pt), at least the handout's smallest print."""
_POINT_PAIR = re.compile(r"^([\w-]+?)-([\w-]+)$")
_RUN = re.compile(r"^([a-z]+)-(\d+)\.\.(\d+)$")


class ExampleError(PapergamesError):
    """An example that does not replay: an illegal move, a wrong claim or an unknown item."""


@dataclass(frozen=True)
class Example:
    """A game's worked example, as its layout declares it.

    Attributes:
        transcript: a short transcript (``sheet:``, ``players:``, the moves, and ``claim:``
            lines for the scores the text speaks of); the game need not be over.
        text: two or three sentences for the rules page: what the moves do and score, and why.
            It should say that the small numbers give the order.
        marks: for games whose engine cannot say what a move colours, the items each move
            marks (ids on the sheet's first page; ``a/b`` for a line from point ``a`` to point
            ``b``), one tuple per move; empty to take them from the engine or the move's words.
        labels: what each move's mark shows instead of its order number, one per move (the
            number a Co-Compositeness move writes); empty for the order numbers.
    """

    transcript: str
    text: str
    marks: tuple[tuple[str, ...], ...] = ()
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Mark:
    """One item a move coloured: the move's number, the colour's number and the geometry."""

    move: int
    colour: int
    geometry: BaseGeometry
    item: str


@dataclass(frozen=True)
class Replay:
    """An example replayed on a sheet: its marks and the scores it reached and claimed."""

    sheet: Sheet
    marks: tuple[Mark, ...]
    scores: dict[str, str]
    claimed: dict[str, str]
    labels: tuple[str, ...] = ()


def get_example(game: str) -> Example | None:
    """The example the game's layout module declares, or ``None`` when it has none."""
    from papergames.games import get_game

    module_name = get_game(game).layout_ref.split(":")[0]
    example = getattr(importlib.import_module(module_name), "EXAMPLE", None)
    return example if isinstance(example, Example) else None


def paragraphs(game: str) -> list[str]:
    """The example's text as a rules-page paragraph (``Example: ...``), or none."""
    example = get_example(game)
    return [f"Example: {' '.join(example.text.split())}"] if example else []


def replay(example: Example, sheet: Sheet | None = None) -> Replay:
    """Play ``example`` through its game's engine on ``sheet`` (else the sheet it names).

    Raises:
        ExampleError: when a move is illegal, a claim is false, or a mark names no item.
    """
    # The checker is imported here, not above: layouts import this module for the
    # :class:`Example` record, and the checker imports the sheet machinery.
    from papergames.play.checker import check
    from papergames.play.game import build_game
    from papergames.play.transcript import parse_text
    from papergames.sheets.sheet import make_sheet

    transcript = parse_text(example.transcript, "<example>")
    if sheet is None:
        sheet = make_sheet(transcript.spec)
    game = build_game(transcript)
    game = type(game)(sheet, transcript.players, game.option_values)
    verdict = check(transcript, game)
    if verdict.illegal is not None:
        problem = verdict.illegal
        raise ExampleError(f"example of {sheet.spec}: move {problem.number}: {problem.reason}")
    wrong = [c for c in verdict.claims if not c.holds]
    if wrong or len(verdict.claims) < len(transcript.claims):
        what = ", ".join(f"{c.player} {c.what} {c.claimed} (is {c.actual})" for c in wrong)
        raise ExampleError(f"example of {sheet.spec}: a claim does not hold: {what or 'unknown'}")
    for given in (example.marks, example.labels):
        if given and len(given) != len(transcript.moves):
            raise ExampleError(f"example of {sheet.spec}: give marks and labels for each move")
    marks = _marks(game, example, [m.text for m in transcript.moves])
    scores = {c.player: c.actual for c in verdict.claims if c.what == "score"}
    claimed = {c.player: c.claimed for c in verdict.claims if c.what == "score"}
    return Replay(sheet, tuple(marks), scores, claimed, example.labels)


def _marks(game: Any, example: Example, moves: Sequence[str]) -> list[Mark]:
    """The items each move coloured, numbered by move and by colour in order of first use."""
    page = game.sheet.pages[0]
    colours: dict[str, int] = {}
    out: list[Mark] = []
    state = game.initial()
    before = game.final_marks(state)
    for number, text in enumerate(moves, start=1):
        mover = game.to_move(state)
        state = game.apply(state, game.parse_move(text, state))
        after = game.final_marks(state)
        if example.marks:
            word = game.colour_word(mover)
            found = [(name, word) for name in example.marks[number - 1]]
        elif after is not None and before is not None:
            found = [(i, w) for (p, i), w in after.items() if p == 1 and before.get((p, i)) != w]
        else:
            found = [(name, game.colour_word(mover)) for name in _named(page, text)]
        before = after
        for name, word in found:
            geometry = _geometry(page, name)
            if geometry is None:
                continue
            colour = colours.setdefault(word, len(colours))
            out.append(Mark(number, colour, geometry, name))
    return out


def _named(page: Page, text: str) -> list[str]:
    """The items a move's words name on ``page``: ids, and point pairs as lines."""
    labels = {f.label.upper(): f.id for f in page.features(Kind.POINT) if f.label}
    ids = set(page.ids())
    names: list[str] = []
    for word in text.split():
        if word in ids:
            names.append(word)
            continue
        run = _RUN.match(word)
        if run:  # ``segment-4..6``: a run of items numbered in order
            kind, first, last = run.group(1), int(run.group(2)), int(run.group(3))
            names.extend(f"{kind}-{n}" for n in range(first, last + 1) if f"{kind}-{n}" in ids)
            continue
        pair = _POINT_PAIR.match(word)
        if pair:
            a, b = (labels.get(p.upper(), p) for p in pair.groups())
            if a in ids and b in ids:
                names.append(f"{a}/{b}")
    return names


def _geometry(page: Page, name: str) -> BaseGeometry | None:
    """The geometry of an item named on ``page`` (``a/b``: the line between two points)."""
    ids = set(page.ids())
    labels = {f.label.upper(): f.id for f in page.features() if f.label}
    if "/" in name:
        a, b = (labels.get(p.upper(), p) for p in name.split("/"))
        if a not in ids or b not in ids:
            raise ExampleError(f"the example names a line between unknown points: {name}")
        pa, pb = (page.get(a), page.get(b))
        assert isinstance(pa, Feature) and isinstance(pb, Feature)
        return LineString([pa.geometry.centroid, pb.geometry.centroid])
    name = labels.get(name.upper(), name)
    if name not in ids:
        raise ExampleError(f"the example names an item the sheet does not have: {name}")
    item = page.get(name)
    if not isinstance(item, Feature) or item.layer not in (Layer.FIELD, Layer.TINT):
        return None  # score boxes and tallies are not drawn on the field's diagram
    return item.geometry


Box = tuple[float, float, float, float]
Draw = Callable[[Sheet, Box], list[Item]]
INSET_SHARE = 0.42
"""The share of the diagram's width the example's own sheet takes beside the page's sheet."""
INSET_MIN = 45.0
"""The narrowest inset in mm worth drawing: below it the example's marks would not read."""
GAP = 4.0
"""Space in mm between the page's sheet and the example's, and kept at the box's sides."""


def diagram(game: str, sheet: Sheet, box: Box, draw: Draw) -> list[Item]:
    """A rules page's diagram (``sheet`` reduced into ``box``) with the worked example.

    The example is drawn over ``sheet`` itself when its moves replay there with the scores its
    text claims (its own sheet, or one whose field does not depend on the seed). Otherwise the
    page's sheet keeps the left of the box, so its caption still names the sheet that goes
    with the page, and the example's own sheet is drawn beside it with a caption of its own.
    When the box is too narrow for both, the diagram shows the example's sheet alone; either
    way every caption names the sheet it shows.

    Args:
        game: the game's name.
        sheet: the sheet the page goes with.
        box: the diagram's box (x, y, width, height) in mm.
        draw: draws a sheet's reduced field into a box (the rules page's own diagram),
            returning items whose ids are ``diagram-`` and the sheet's item ids.

    Raises:
        ExampleError: when the example does not replay on its own sheet.
    """
    example = get_example(game)
    if example is None:
        return draw(sheet, box)
    if _same_game(sheet, example):
        try:
            shown = replay(example, sheet)
        except PapergamesError:
            pass
        else:
            items = draw(sheet, box)
            return items + overlay(shown, _placement(sheet, items))
    shown = replay(example)
    x, y, w, h = box
    x, w = x + GAP / 2, w - GAP  # a diagram filling its width keeps its strokes off the margin
    inset_w = w * INSET_SHARE
    main = draw(sheet, (x, y, w - inset_w - GAP, h))
    if inset_w >= INSET_MIN and _inside(main, x, x + w - inset_w - GAP):
        drawn = draw(shown.sheet, (x + w - inset_w, y, inset_w, h))
        inset = [_as_inset(item, shown.sheet) for item in drawn]
        if _inside(inset, x + w - inset_w, x + w):
            return main + inset + overlay(shown, _placement(shown.sheet, drawn))
    items = draw(shown.sheet, box)
    return items + overlay(shown, _placement(shown.sheet, items))


def _same_game(sheet: Sheet, example: Example) -> bool:
    """Whether ``sheet`` has the example's game and parameters (its seed may differ)."""
    from papergames.play.transcript import parse_text

    spec = parse_text(example.transcript, "<example>").spec
    return (sheet.spec.game, dict(sheet.spec.params)) == (spec.game, dict(spec.params))


def _inside(items: Sequence[Item], left: float, right: float) -> bool:
    """Whether the texts among ``items`` (the caption) stay between ``left`` and ``right``."""
    from papergames.fonts import text_width

    for item in items:
        if isinstance(item, Text):
            half = text_width(item.text, item.size, bold=item.bold) / 2
            if item.x - half < left or item.x + half > right:
                return False
    return True


def _as_inset(item: Item, sheet: Sheet) -> Item:
    """An item of the example's own sheet, renamed so its ids stay apart from the diagram's,
    its caption short enough for the narrow inset."""
    name = "example-sheet-" + item.id.removeprefix("diagram-")
    if isinstance(item, Text) and item.id == "diagram-caption":
        return dataclasses.replace(item, id=name, text=f"The example, on the sheet {sheet.spec}")
    return dataclasses.replace(item, id=name)


def _placement(sheet: Sheet, items: Sequence[Item]) -> Callable[[BaseGeometry], BaseGeometry]:
    """The map from the sheet's page to the diagram, read off the largest drawn item."""
    page = sheet.pages[0]
    best: tuple[float, BaseGeometry, BaseGeometry] | None = None
    for item in items:
        if not isinstance(item, Feature) or not item.id.startswith("diagram-"):
            continue
        original = page.get(item.id.removeprefix("diagram-"))
        if not isinstance(original, Feature):
            continue
        minx, miny, maxx, maxy = original.geometry.bounds
        extent = max(maxx - minx, maxy - miny)
        if best is None or extent > best[0]:
            best = (extent, original.geometry, item.geometry)
    if best is None:
        raise ExampleError(f"the diagram of {sheet.spec} shows none of the sheet's items")
    extent, source, drawn = best
    sx0, sy0, _, _ = source.bounds
    dx0, dy0, dx1, dy1 = drawn.bounds
    scale = max(dx1 - dx0, dy1 - dy0) / extent

    def place(geometry: BaseGeometry) -> BaseGeometry:
        moved = affinity.scale(geometry, scale, scale, origin=(sx0, sy0))
        return affinity.translate(moved, dx0 - sx0, dy0 - sy0)

    return place


def overlay(shown: Replay, place: Callable[[BaseGeometry], BaseGeometry]) -> list[Item]:
    """The marks of a replayed example as items, placed by ``place`` (page to diagram).

    Each move's number sits on its first mark, in a small clearing cut out of the example's
    own fills and lines, so a digit never sits on hatching or on a heavy line.
    """
    placed = [(mark, place(mark.geometry)) for mark in shown.marks]
    labels = {mark.move: str(mark.move) for mark in shown.marks}
    labels |= {k + 1: label for k, label in enumerate(shown.labels)}
    centres: dict[int, Point] = {}
    for mark, geometry in placed:
        if mark.move not in centres:
            centre = _centre(geometry)
            while any(centre.distance(c) < NUMBER_SIZE for c in centres.values()):
                centre = Point(centre.x + NUMBER_SIZE * 0.7, centre.y)  # two labels on one item
            centres[mark.move] = centre
    clearings = [
        centre.buffer(CLEARING + NUMBER_SIZE * 0.3 * len(labels[move]))
        for move, centre in centres.items()
    ]
    items: list[Item] = []
    for k, (mark, geometry) in enumerate(placed):
        for clearing in clearings:
            geometry = geometry.difference(clearing)
        if geometry.is_empty:
            continue
        ident = f"example-{k + 1}-{mark.item}"
        if geometry.geom_type in ("LineString", "MultiLineString"):
            dashes = LINE_DASHES[mark.colour % len(LINE_DASHES)]
            drawn = _dashed(geometry, dashes) if dashes else geometry
            items.append(Feature(ident, Kind.LINE, drawn, Style.HEAVY, Layer.FIELD, data={}))
        else:
            style = AREA_STYLES[mark.colour % len(AREA_STYLES)]
            items.append(Feature(ident, Kind.SPACE, geometry, style, Layer.TINT, data={}))
    for move, centre in centres.items():
        baseline = centre.y + NUMBER_SIZE * 0.36
        label = labels[move]
        text = Text(f"example-number-{move}", centre.x, baseline, label, NUMBER_SIZE, "middle")
        items.append(dataclasses.replace(text, bold=True))
    return items


def _centre(geometry: BaseGeometry) -> Point:
    """Where a mark's number goes: a line's middle, or a point well inside an area."""
    if geometry.geom_type in ("LineString", "MultiLineString"):
        line = geometry if isinstance(geometry, LineString) else _longest(geometry)
        where: Point = line.interpolate(0.5, normalized=True)
        return where
    inside: Point = geometry.representative_point()
    return inside


def _longest(geometry: BaseGeometry) -> LineString:
    parts = list(getattr(geometry, "geoms", [geometry]))
    longest: LineString = max(parts, key=lambda g: g.length)
    return longest


def _dashed(geometry: BaseGeometry, pattern: tuple[float, ...]) -> BaseGeometry:
    """``geometry``'s lines cut into dashes of ``pattern`` (on, off, on, off, ... in mm)."""
    pieces: list[LineString] = []
    for line in getattr(geometry, "geoms", [geometry]):
        at, k = 0.0, 0
        while at < line.length:
            step = pattern[k % len(pattern)]
            if k % 2 == 0:
                piece = _cut(line, at, min(at + step, line.length))
                if piece is not None:
                    pieces.append(piece)
            at += step
            k += 1
    return MultiLineString(pieces) if pieces else geometry


def _cut(line: LineString, start: float, end: float) -> LineString | None:
    """The part of ``line`` between two distances along it."""
    if end - start < 1e-6:
        return None
    inner = [Point(c) for c in line.coords if start < line.project(Point(c)) < end]
    points = [line.interpolate(start), *inner, line.interpolate(end)]
    return LineString(points)
