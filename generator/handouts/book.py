"""The book: every game in one document, a cover, a contents page, then rules and a sheet each.

Each game's sheet gets its own seed drawn from the book's seed, so the book can be made again,
and its rules page draws that very sheet. The pages are ordered for long-edge duplex printing:
each game starts a leaf (its rules on the front, its sheet behind), and a page of pieces to cut
out gets a leaf of its own with a blank back.

Example:
    >>> book = make_book(["maze", "palindromes"], seed=3)
    >>> [p.data["kind"] for p in book.pages]
    ['cover', 'contents', 'rules', 'sheet', 'rules', 'sheet']
"""

from __future__ import annotations

from collections.abc import Sequence

from papergames.errors import SpecError
from papergames.fonts import text_width
from papergames.games import game_names, get_layout
from papergames.handouts.pack import Leaves, Progress, is_cut_out
from papergames.handouts.rulespage import rules_page
from papergames.sheets.compose import MARGIN
from papergames.sheets.model import Page, Sheet, Text
from papergames.sheets.rng import Rng
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.units import PAPERS

BOOK_TITLE = "A book of paper games"
BOOK_PAPERS = ("a4", "letter", "a3")
"""The papers a book is printed on. On the smaller ones (a5 and below) most games' sheets do
not fit at a size a child can play on, so such a book is refused before any work is done."""


def book_seed(seed: int, game: str) -> int:
    """The seed of one game's sheet in a book made from ``seed``."""
    return Rng(seed, "book", game).randint(0, 999_999)


def parse_games(text: str | None) -> list[str]:
    """The games a ``--games a,b,c`` list names (all games when not given), checked, in order.

    Raises:
        SpecError: naming the first unknown game, or when the list names no game at all.
    """
    if text is None:
        return game_names()
    games = [g.strip().lower() for g in text.split(",") if g.strip()]
    if not games:
        raise SpecError(f"--games {text!r} names no game (leave --games out for every game)")
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
    """Every game (or those named): cover, contents, then each game's rules page and sheet.

    Raises:
        SpecError: for a paper the book is not printed on (see :data:`BOOK_PAPERS`), an
            unknown game, or an empty list of games.
    """
    chosen = game_names() if games is None else parse_games(",".join(games))
    if paper not in BOOK_PAPERS:
        raise SpecError(
            f"--paper {paper}: the book is printed on {', '.join(BOOK_PAPERS)} only; on smaller "
            "paper most games' sheets are too small to play on (print single sheets instead)"
        )
    width, height = PAPERS[paper].size(False)
    made: list[tuple[Page, Sheet]] = []
    for number, game in enumerate(chosen, start=1):
        sheet = make_sheet(SheetSpec.create(game, seed=book_seed(seed, game), paper=paper))
        made.append((rules_page(game, paper, sheet=sheet), sheet))
        if progress is not None:
            progress(number, len(chosen))
    leaves = Leaves(width, height)
    leaves.pages += [_cover(width, height, chosen, seed), _contents(width, height, [])]
    entries: list[tuple[str, str, int]] = []
    for rules, sheet in made:
        layout = get_layout(sheet.spec.game)
        leaves.new_leaf()
        entries.append((layout.title, layout.author, len(leaves.pages) + 1))
        leaves.add(rules)
        for page in sheet.pages:
            page.data.setdefault("kind", "sheet")
            if is_cut_out(page):
                page.data["cut_out"] = True
            leaves.add(page)
    leaves.pages[1] = _contents(width, height, entries)
    return Sheet(made[0][1].spec, BOOK_TITLE, leaves.pages)
