"""What the pages show beyond the library's own words: the gallery's cards (what a search finds,
what a picture shows) and the sheet the checker's page draws.

After a check the page shows the sheet with each legal move's item in its player's colour and
the offending items outlined: the illegal move's item for a transcript of moves, the items of
each broken rule for a finished sheet (``final:`` lines). The items a move names are found by
their ids and printed names (spaces, segments, lines, triangles, grid squares, a line's two
ends: the ends are coloured); a move that names none is listed in the verdict but not drawn.

Example:
    >>> from papergames.play.checker import check_text
    >>> head = "sheet: vasarely seed=1\\nplayers: Ann (red), Bob (blue)\\n"
    >>> text = head + "Ann: space-3\\nBob: space-3\\n"
    >>> [view] = checked_views(text, check_text(text))
    >>> view.paint, view.flagged
    ([('space-3', 'red')], ['space-3'])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from papergames.errors import PapergamesError
from papergames.play.rules import IllegalMove, MoveSyntaxError
from papergames.sheets.model import Kind, Page
from papergames.web.record import COLOURS, move_items, names_on


def finder_words(text: str) -> str:
    """``text`` as the gallery's search compares it: lower case, words of letters and digits
    (the page's script does the same to what is typed).

    Example:
        >>> finder_words('"Maze" of Polygonal Sections, pick-two-one')
        'maze of polygonal sections pick two one'
    """
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split())


def finder_text(game: Any) -> str:
    """What the gallery's search looks in for a game: its name and title, its author, what the
    players do and what kind of sheet it is (a grid, a board and pieces, score pads)."""
    return finder_words(
        " ".join([game.name, game.title, game.author, game.summary, game.sheet_contents])
    )


def finds(game: Any, query: str = "", players: str = "") -> bool:
    """Whether the gallery shows ``game`` for a search: every word typed is found in its
    :func:`finder_text`, and ``players`` (a number, or empty for any) can play it.

    Example:
        >>> from papergames.games import get_game
        >>> rings = get_game("rings")
        >>> finds(rings, "quet circles"), finds(rings, "sackson"), finds(rings, "", "6")
        (True, False, True)
    """
    text = finder_text(game)
    if not all(word in text for word in finder_words(query).split()):
        return False
    if players.strip().isdigit():
        low, high = game.players
        return bool(low <= int(players) <= high)
    return True


def sheet_alt(game: Any) -> str:
    """The gallery picture's text for someone who cannot see it: what the sheet holds.

    Example:
        >>> from papergames.games import get_game
        >>> sheet_alt(get_game("arp"))
        'Sheet of Arp: straight lines that cross and meet to form spaces, four score areas'
    """
    return f"Sheet of {game.title}: {game.sheet_contents}"


@dataclass(frozen=True)
class SheetView:
    """The sheet to draw and what to mark on it.

    Attributes:
        game: the game's name.
        spec: the sheet's spec.
        paint: (item id, colour word) for each coloured item, in playing order.
        lines: (point id, point id, colour word) for each line drawn between two points.
        flagged: the ids of the items at fault.
        page: the page of the sheet drawn (from 1).
        doubtful: the ids of the items to look at again (a photo's low-confidence readings).
    """

    game: str
    spec: str
    paint: list[tuple[str, str]]
    lines: list[tuple[str, str, str]]
    flagged: list[str]
    page: int = 1
    doubtful: list[str] = field(default_factory=list)


def checked_views(text: str, result: Any) -> list[SheetView]:
    """The sheet views of a checked transcript, one per page played on (a round of the rings
    each), or none when there is nothing to draw.

    A game whose engine says what the sheet shows (pieces where they stand, Klee's colours;
    :meth:`~papergames.play.rules.Rules.position_marks`) is drawn as it stands after the moves
    checked; the others have each move's items in its player's colour.
    """
    from papergames.play.checker import Verdict
    from papergames.play.final import FinalVerdict
    from papergames.play.game import build_game
    from papergames.play.transcript import parse_transcript

    if not isinstance(result, Verdict | FinalVerdict):
        return []
    try:
        transcript = parse_transcript(text, "the checked file")
        game = build_game(transcript)
    except PapergamesError:
        return []
    colour_of = {p.name: p.colour or COLOURS[n % len(COLOURS)] for n, p in enumerate(game.players)}
    colours = [colour_of[p.name] for p in game.players]
    words = {game.colour_word(n): colours[n] for n in range(len(game.players))}
    pages = [_Drawing(page) for page in game.sheet.pages]
    if isinstance(result, FinalVerdict):
        for mark in transcript.final:
            drawing = pages[mark.page - 1] if 0 < mark.page <= len(pages) else None
            if drawing is not None and mark.item in drawing.named:
                word = colour_of.get(mark.colour, mark.colour)
                drawing.paint.append((drawing.named[mark.item], word))
        first = pages[0]
        first.flagged = [
            first.named[i] for b in result.report.breaches for i in b.items if i in first.named
        ]
        return [_view(game, 1, first)]
    state = game.initial()
    played = {1}
    for line in transcript.moves[: len(result.steps)]:
        seat = game.to_move(state)
        page = game.page_of(state)
        move = game.parse_move(line.text, state)
        state = game.apply(state, move)
        if seat is not None:
            pages[page - 1].add(move_items(game, move, pages[page - 1].named), colours[seat])
            played.add(page)
    marks = game.position_marks(state)
    if marks is not None:
        for drawing in pages:
            drawing.paint = []
        for (page, item), word in sorted(marks.items()):
            if 0 < page <= len(pages):
                pages[page - 1].paint.append((item, words.get(word, word)))
    if result.illegal is not None:
        page = game.page_of(state)
        played.add(page)
        try:
            illegal = game.parse_move(result.illegal.move, state)
            pages[page - 1].flagged = move_items(game, illegal, pages[page - 1].named)
        except (MoveSyntaxError, IllegalMove):
            pass
    return [_view(game, k, pages[k - 1]) for k in sorted(played)]


class _Drawing:
    """What one page of a checked sheet shows, while it is worked out."""

    def __init__(self, page: Page) -> None:
        features = list(page.features())
        self.ids = {f.id for f in features}
        self.points = {f.id for f in features if f.kind == Kind.POINT}
        self.named = names_on(page)
        self.paint: list[tuple[str, str]] = []
        self.lines: list[tuple[str, str, str]] = []
        self.flagged: list[str] = []

    def add(self, items: list[str], colour: str) -> None:
        """A move's items in its player's colour: a line between two points, or areas."""
        if len(items) == 2 and all(i in self.points for i in items):
            self.lines.append((items[0], items[1], colour))
        else:
            self.paint += [(item, colour) for item in items if item in self.ids]


def _view(game: Any, page: int, drawing: _Drawing) -> SheetView:
    spec = game.sheet.spec
    flagged = list(dict.fromkeys(drawing.flagged))
    return SheetView(spec.game, str(spec), drawing.paint, drawing.lines, flagged, page=page)
