"""The book: every game in one document, a cover, a contents page, then rules and a sheet each.

Each game's sheet gets its own seed drawn from the book's seed, so the book can be made again.

Example:
    >>> book = make_book(["maze", "palindromes"], seed=3)
    >>> [p.data["kind"] for p in book.pages]
    ['cover', 'contents', 'rules', 'sheet', 'rules', 'sheet']
"""

from __future__ import annotations

from collections.abc import Sequence

from papergames.compose import MARGIN
from papergames.errors import SpecError
from papergames.fonts import text_width
from papergames.games import game_names, get_layout
from papergames.model import Page, Sheet, Text
from papergames.pack import Progress
from papergames.rng import Rng
from papergames.rulespage import rules_page
from papergames.sheet import make_sheet
from papergames.spec import SheetSpec
from papergames.units import PAPERS

BOOK_TITLE = "A book of paper games"


def book_seed(seed: int, game: str) -> int:
    """The seed of one game's sheet in a book made from ``seed``."""
    return Rng(seed, "book", game).randint(0, 999_999)


def parse_games(text: str | None) -> list[str]:
    """The games a ``--games a,b,c`` list names (all games when empty), checked and in order.

    Raises:
        SpecError: naming the first unknown game.
    """
    if not text:
        return game_names()
    games = [g.strip().lower() for g in text.split(",") if g.strip()]
    known = game_names()
    for game in games:
        if game not in known:
            raise SpecError(
                f"--games names '{game}', which is not a game (known: {', '.join(known)})"
            )
    if len(set(games)) != len(games):
        raise SpecError("--games names a game twice")
    return games


def _cover(width: float, height: float, games: Sequence[str], seed: int) -> Page:
    page = Page(width, height, title=BOOK_TITLE, data={"kind": "cover"})
    page.add(Text("title", width / 2, height * 0.36, BOOK_TITLE, 11.0, "middle", bold=True))
    sub = f"{len(games)} games to print, play and check, with their rules"
    page.add(Text("subtitle", width / 2, height * 0.36 + 12.0, sub, 4.5, "middle"))
    made = f"made by papergames from seed {seed}: the same seed makes the same book"
    page.add(Text("credit", width / 2, height - MARGIN - 4.0, made, 3.0, "middle"))
    return page


def _contents(width: float, height: float, entries: Sequence[tuple[str, str, int]]) -> Page:
    page = Page(width, height, title="Contents", data={"kind": "contents"})
    page.add(Text("title", MARGIN, MARGIN + 10.0, "Contents", 7.0, bold=True))
    size = 3.6
    step = min(8.0, (height - 2 * MARGIN - 24.0) / max(len(entries), 1))
    size = min(size, step / 1.5)
    right = width - MARGIN
    for k, (title, author, number) in enumerate(entries, start=1):
        y = MARGIN + 24.0 + (k - 1) * step
        left = f"{title}" + (f" ({author})" if author else "")
        page.add(Text(f"contents-{k}", MARGIN, y, left, size))
        page.add(Text(f"contents-page-{k}", right, y, f"page {number}", size, "end"))
        gap_from = MARGIN + text_width(left, size) + 2.0
        gap_to = right - text_width(f"page {number}", size) - 2.0
        dots = "." * max(0, int((gap_to - gap_from) / text_width(".", size)))
        if dots:
            page.add(Text(f"contents-dots-{k}", gap_from, y, dots, size))
    return page


def make_book(
    games: Sequence[str] | None = None,
    *,
    paper: str = "a4",
    seed: int = 1,
    progress: Progress | None = None,
) -> Sheet:
    """Every game (or those named): cover, contents, then each game's rules page and sheet."""
    chosen = list(games) if games else game_names()
    if paper not in PAPERS:
        raise SpecError(f"--paper {paper} is not one of {', '.join(PAPERS)}")
    width, height = PAPERS[paper].size(False)
    body: list[Page] = []
    entries: list[tuple[str, str, int]] = []
    first_sheet: Sheet | None = None
    for number, game in enumerate(chosen, start=1):
        layout = get_layout(game)
        entries.append((layout.title, layout.author, 3 + len(body)))
        body.append(rules_page(game, paper))
        sheet = make_sheet(SheetSpec.create(game, seed=book_seed(seed, game), paper=paper))
        first_sheet = first_sheet or sheet
        for page in sheet.pages:
            page.data.setdefault("kind", "sheet")
        body.extend(sheet.pages)
        if progress is not None:
            progress(number, len(chosen))
    pages = [_cover(width, height, chosen, seed), _contents(width, height, entries), *body]
    assert first_sheet is not None
    return Sheet(first_sheet.spec, BOOK_TITLE, pages)
