"""Packs: many different sheets of one game in one document, for a class or a game night.

Every sheet of a pack has its own seed, drawn from the pack's seed, so the whole pack can be
made again and each sheet's footer names its own spec. Rules pages go after every sheet (for
duplex printing), once at the front, or nowhere. Small sheets can go two or four to a page:
each is then built on the paper of its cell (A5 or A6 for A4, half or quarter letter for
Letter), so the layout itself decides whether it is still legible there and refuses if not,
and dashed cut lines part the cells. A key page at the end lists every sheet's spec.

Example:
    >>> from papergames.spec import SheetSpec
    >>> pack = make_pack(SheetSpec.create("maze", seed=5), copies=3, rules="none")
    >>> [p.data["kind"] for p in pack.pages]
    ['sheet', 'sheet', 'sheet', 'key']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shapely.geometry import LineString

from papergames.compose import MARGIN
from papergames.errors import FitError, SpecError
from papergames.fonts import ASCENT, text_width
from papergames.games import get_layout
from papergames.model import Feature, Item, Kind, Layer, Page, Sheet, Style, Text, shifted
from papergames.rng import Rng
from papergames.rulespage import rules_page
from papergames.sheet import make_sheet
from papergames.spec import SheetSpec
from papergames.units import PAPERS

RULES_PLACES = ("back", "first", "none")
PER_PAGE = (1, 2, 4)
CELL_PAPER: dict[tuple[str, int], str] = {
    ("a4", 2): "a5",
    ("a4", 4): "a6",
    ("letter", 2): "half-letter",
    ("letter", 4): "quarter-letter",
    ("a3", 2): "a4",
    ("a3", 4): "a5",
}
"""The paper of one cell when a page of the first paper holds 2 or 4 sheets."""
MAX_COPIES = 500
KEY_SIZE = 3.0
KEY_LEADING = 1.45

Progress = Callable[[int, int], None]
"""Called as progress(done, total) after each sheet is made."""


def pack_seeds(seed: int, copies: int) -> list[int]:
    """``copies`` different seeds of at most six digits, drawn from ``seed``.

    Example:
        >>> pack_seeds(7, 3) == pack_seeds(7, 3) and len(set(pack_seeds(7, 50))) == 50
        True
    """
    rng = Rng(seed, "pack")
    seeds: list[int] = []
    seen: set[int] = set()
    while len(seeds) < copies:
        candidate = rng.randint(0, 999_999)
        if candidate not in seen:
            seen.add(candidate)
            seeds.append(candidate)
    return seeds


@dataclass(frozen=True)
class Cell:
    """Where one small sheet goes on an n-up page: its offset and its paper and orientation."""

    x: float
    y: float
    paper: str
    landscape: bool


def cells(paper: str, per_page: int) -> list[Cell]:
    """The cells of a portrait page of ``paper`` holding ``per_page`` sheets.

    Raises:
        SpecError: when that paper has no cell size for ``per_page``.
    """
    width, height = PAPERS[paper].size(False)
    if per_page == 1:
        return [Cell(0.0, 0.0, paper, False)]
    cell_paper = CELL_PAPER.get((paper, per_page))
    if cell_paper is None:
        raise SpecError(f"--per-page {per_page} is not available on {paper} paper")
    if per_page == 2:
        return [Cell(0.0, k * height / 2, cell_paper, True) for k in range(2)]
    return [
        Cell(col * width / 2, row * height / 2, cell_paper, False)
        for row in range(2)
        for col in range(2)
    ]


def cut_lines(paper: str, per_page: int) -> list[Item]:
    """Dashed lines between the cells, kept inside the page margins."""
    width, height = PAPERS[paper].size(False)
    lines = []
    if per_page >= 2:
        lines.append(LineString([(MARGIN, height / 2), (width - MARGIN, height / 2)]))
    if per_page == 4:
        lines.append(LineString([(width / 2, MARGIN), (width / 2, height - MARGIN)]))
    return [
        Feature(f"cut-{k}", Kind.MARK, line, Style.CUT, Layer.FURNITURE)
        for k, line in enumerate(lines, start=1)
    ]


def _sheet_for_cell(base: SheetSpec, seed: int, cell: Cell, per_page: int) -> Sheet:
    spec = SheetSpec(
        base.game,
        base.params,
        seed,
        cell.paper,
        "landscape" if cell.landscape else ("portrait" if per_page > 1 else base.orientation),
        base.markers,
    )
    try:
        return make_sheet(spec)
    except FitError as exc:
        if per_page == 1:
            raise
        smaller = "1" if per_page == 2 else "1 or 2"
        raise FitError(
            f"--per-page {per_page} would put each {base.game} sheet on {cell.paper} paper, "
            f"too small to stay legible ({exc}); use --per-page {smaller}"
        ) from None


def _blank(width: float, height: float) -> Page:
    return Page(width, height, title="", data={"kind": "blank"})


def make_pack(
    spec: SheetSpec,
    copies: int,
    *,
    rules: str = "back",
    per_page: int = 1,
    progress: Progress | None = None,
) -> Sheet:
    """A pack of ``copies`` sheets like ``spec``, each with its own seed drawn from spec.seed.

    Args:
        spec: the game, parameters, paper and the pack's seed.
        copies: how many sheets (1..500).
        rules: ``back`` (a rules page after every sheet, for long-edge duplex printing),
            ``first`` (one rules page at the front) or ``none``.
        per_page: 1, 2 or 4 sheets to a page.
        progress: called after each sheet is made.

    Raises:
        SpecError: for a count, a rules place or a per-page value out of range.
        FitError: when the sheets would be too small to read at ``per_page``.
    """
    if not 1 <= copies <= MAX_COPIES:
        raise SpecError(f"--copies {copies} is out of range 1..{MAX_COPIES}")
    if rules not in RULES_PLACES:
        raise SpecError(f"--rules {rules} is not one of {', '.join(RULES_PLACES)}")
    if per_page not in PER_PAGE:
        raise SpecError(f"--per-page {per_page} is not one of 1, 2, 4")
    layout = get_layout(spec.game)
    width, height = PAPERS[spec.paper].size(False)
    seeds = pack_seeds(spec.seed, copies)
    layout_cells = cells(spec.paper, per_page)
    rules_sheet = (
        rules_page(spec.game, spec.paper, seed=spec.seed, params=spec.params)
        if rules != "none"
        else None
    )
    made: list[Sheet] = []
    for number, seed in enumerate(seeds, start=1):
        made.append(_sheet_for_cell(spec, seed, layout_cells[0], per_page))
        if progress is not None:
            progress(number, copies)
    pages: list[Page] = []
    if rules == "first" and rules_sheet is not None:
        pages.append(rules_sheet)
    if per_page == 1:
        for sheet in made:
            for page in sheet.pages:
                page.data.setdefault("kind", "sheet")
            pages.extend(sheet.pages)
            if rules == "back" and rules_sheet is not None:
                pages.append(rules_sheet)
                if (len(sheet.pages) + 1) % 2:
                    pages.append(_blank(width, height))
    else:
        small = [(number, page) for number, sheet in enumerate(made, 1) for page in sheet.pages]
        for start in range(0, len(small), per_page):
            page = Page(width, height, title=layout.title, data={"kind": "sheet", "cells": []})
            for cell, (number, sub) in zip(
                layout_cells, small[start : start + per_page], strict=False
            ):
                for item in sub.items:
                    page.add(shifted(item, cell.x, cell.y, f"s{number}-"))
                page.data["cells"].append({"sheet": number, "x": cell.x, "y": cell.y})
            page.extend(cut_lines(spec.paper, per_page))
            pages.append(page)
            if rules == "back" and rules_sheet is not None:
                pages.append(rules_sheet)
    pages.extend(key_pages(spec, made, width, height))
    title = f"{layout.title}: a pack of {copies} sheet{'s' * (copies != 1)}"
    return Sheet(spec, title, pages)


def key_rows(sheets: Sequence[Sheet]) -> list[str]:
    """One line per sheet: its number and spec, and for rings each round's section counts."""
    rows = []
    for number, sheet in enumerate(sheets, start=1):
        row = f"{number:>3}.  {sheet.spec}"
        rounds = [p.data["sections"] for p in sheet.pages if "sections" in p.data]
        if rounds:
            row += "  ·  sections per ring: " + " / ".join(
                ", ".join(str(k) for k in counts) for counts in rounds
            )
        rows.append(row)
    return rows


def key_pages(spec: SheetSpec, sheets: Sequence[Sheet], width: float, height: float) -> list[Page]:
    """Pages listing every sheet of the pack, so a teacher can find one again."""
    rows = key_rows(sheets)
    top = MARGIN + 16.0
    per_page = max(1, int((height - top - MARGIN - 8.0) // (KEY_LEADING * KEY_SIZE)))
    usable = width - 2 * MARGIN
    size = min(KEY_SIZE, usable / max(text_width(r, 1.0) for r in rows))
    pages = []
    chunks = [rows[k : k + per_page] for k in range(0, len(rows), per_page)]
    for number, chunk in enumerate(chunks, start=1):
        page = Page(width, height, title="Key", data={"kind": "key"})
        heading = f"Key to the pack: {len(rows)} sheets, made from seed {spec.seed}"
        if len(chunks) > 1:
            heading += f" (page {number} of {len(chunks)})"
        page.add(Text("title", MARGIN, MARGIN + 6.0, heading, 4.5, bold=True))
        note = (
            "Each line is the spec printed in that sheet's footer: "
            "give it to papergames to print the sheet again."
        )
        note_size = min(2.6, usable / text_width(note, 1.0))
        page.add(Text("subtitle", MARGIN, MARGIN + 11.0, note, note_size))
        baseline = top + ASCENT * size
        for k, row in enumerate(chunk, start=1):
            page.add(Text(f"key-{k}", MARGIN, baseline, row, size))
            baseline += KEY_LEADING * KEY_SIZE
        pages.append(page)
    return pages
