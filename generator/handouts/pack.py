"""Packs: many different sheets of one or more games in one document, for a class or a game night.

Every sheet of a pack has its own seed, drawn from the pack's seed, so the whole pack can be
made again and each sheet's footer names its own spec. Several games may share one pack; each
gets ``copies`` sheets. Rules pages go behind every sheet (for duplex printing), once at the
front, or nowhere. Small sheets can go two or four to a page: each is then built on the paper of
its cell (A5 or A6 for A4, half or quarter letter for Letter), so the layout itself decides
whether it is still legible there, and dashed cut lines part the cells. A key page at the end
lists every sheet's spec.

The page order is made for long-edge duplex printing, where pages 1 and 2 are the two sides of
the first leaf. A page that is meant to be cut up (the COM:POSITIE pieces) always starts a leaf
and has a blank back, so cutting it destroys nothing, and no board lies behind it.

Example:
    >>> from papergames.sheets.spec import SHEET_PARAMS, SheetSpec
    >>> pack = make_pack(SheetSpec.create("maze", seed=5), copies=3, rules="none")
    >>> [p.data["kind"] for p in pack.pages]
    ['sheet', 'sheet', 'sheet', 'blank', 'key']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from shapely.geometry import LineString

from papergames.errors import FitError, PapergamesError, SpecError
from papergames.fonts import ASCENT, text_width
from papergames.games import get_layout
from papergames.handouts.classlist import ClassList
from papergames.handouts.rulespage import rules_page
from papergames.sheets.compose import MARGIN, spec_lines
from papergames.sheets.model import Feature, Item, Kind, Layer, Page, Sheet, Style, Text, shifted
from papergames.sheets.params import Param
from papergames.sheets.rng import Rng
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SHEET_PARAMS, SheetSpec
from papergames.sheets.units import PAPERS

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
MAX_ITEMS = 200_000
"""Most marks and words (lines, boxes, labels) a whole pack may draw. It bounds the time and
the file size up front: 200 of the busiest default sheets, a few minutes on a slow computer
and a PDF of about 20 MB; a pack that would draw more is refused before it is made."""
MAX_PAGES = 1000
"""Most pages a pack may have, for the same reason."""
KEY_SIZE = 3.0
KEY_LEADING = 1.45
FIX_TRIES = 24
"""Values tried per parameter when looking for a setting that lets a sheet fit its cell."""

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
    """The cells of a portrait page of ``paper`` holding ``per_page`` sheets, row by row.

    Raises:
        SpecError: when that paper has no cell size for ``per_page``.
    """
    width, height = PAPERS[paper].size(False)
    if per_page == 1:
        return [Cell(0.0, 0.0, paper, False)]
    cell_paper = CELL_PAPER.get((paper, per_page))
    if cell_paper is None:
        raise SpecError(
            f"--per-page {per_page} is not available on {paper} paper "
            f"(it is on {', '.join(sorted({p for p, n in CELL_PAPER if n == per_page}))})"
        )
    if per_page == 2:
        return [Cell(0.0, k * height / 2, cell_paper, True) for k in range(2)]
    return [
        Cell(col * width / 2, row * height / 2, cell_paper, False)
        for row in range(2)
        for col in range(2)
    ]


def behind(cell: int, per_page: int) -> int:
    """The cell on the back of ``cell`` when the page is printed long-edge duplex.

    Turning a portrait page over its long edge swaps left and right and keeps top and bottom,
    so on a 4-up page the cell behind the top left one is the back's top right one.

    Example:
        >>> [behind(k, 4) for k in range(4)], [behind(k, 2) for k in range(2)]
        ([1, 0, 3, 2], [0, 1])
    """
    return cell ^ 1 if per_page == 4 else cell


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


def is_cut_out(page: Page) -> bool:
    """Whether a page is meant to be cut up (pieces, or an n-up cell of pieces).

    The COM:POSITIE family's page of 36 pieces is the page of that kind; the pack and the book
    mark it with ``cut_out`` so duplex printing leaves its back blank.
    """
    return bool(page.data.get("cut_out")) or "pieces" in page.data


def blank_page(width: float, height: float) -> Page:
    """An empty page: the back of a page that is cut up, or the padding that starts a leaf."""
    return Page(width, height, title="", data={"kind": "blank"})


class Leaves:
    """Pages in print order for long-edge duplex, padded so cutting never spoils a page.

    A cut-out page always starts a leaf and gets a blank back; :meth:`new_leaf` pads to the
    next front side (a new sheet, a key page).
    """

    def __init__(self, width: float, height: float) -> None:
        self.width, self.height = width, height
        self.pages: list[Page] = []
        self._blank = blank_page(width, height)

    def add(self, page: Page) -> None:
        """Add a page; a cut-out page goes on a front side and its back stays blank."""
        if is_cut_out(page):
            self.new_leaf()
            self.pages += [page, self._blank]
        else:
            self.pages.append(page)

    def add_leaf(self, front: Page, back: Page) -> None:
        """Add a front and the page printed behind it, on a leaf of their own."""
        self.new_leaf()
        self.pages += [front, back]

    def new_leaf(self) -> None:
        """Pad with a blank page so the next page starts a leaf (a front side)."""
        if len(self.pages) % 2:
            self.pages.append(self._blank)


def cell_spec(base: SheetSpec, seed: int, cell: Cell, per_page: int) -> SheetSpec:
    """The spec of one sheet of a pack: the base spec with its own seed, on the cell's paper."""
    if per_page == 1:
        return dataclasses.replace(base, seed=seed)
    orientation = "landscape" if cell.landscape else "portrait"
    return dataclasses.replace(base, seed=seed, paper=cell.paper, orientation=orientation)


def cell_sheet(base: SheetSpec, seed: int, cell: Cell, per_page: int) -> Sheet:
    """One sheet of a pack, made for its cell.

    A cell's orientation is fixed; when the layout would choose it anyway, the sheet is made
    with ``orientation=auto``, so its printed spec is shorter and still makes it again.

    Raises:
        FitError: when the sheet does not fit the cell.
    """
    spec = cell_spec(base, seed, cell, per_page)
    if per_page > 1 and base.orientation == "auto":
        try:
            sheet = make_sheet(dataclasses.replace(spec, orientation="auto"))
        except FitError:
            pass
        else:
            first = sheet.pages[0]
            if (first.width > first.height) == cell.landscape:
                return sheet
    return make_sheet(spec)


def _builds(spec: SheetSpec) -> bool:
    try:
        make_sheet(spec)
    except PapergamesError:
        return False
    return True


def _candidates(param: Param, current: object) -> Iterator[object]:
    """Other values of a parameter, nearest to ``current`` first."""
    if param.kind == "bool":
        yield not current
    elif param.kind == "choice":
        yield from (c for c in param.choices if c != current)
    elif param.kind in ("int", "float") and param.low is not None and param.high is not None:
        low, high = param.low, param.high
        if param.kind == "int":
            values: list[float] = list(range(int(low), int(high) + 1))
        else:
            values = [low + (high - low) * k / 8 for k in range(9)]
        assert isinstance(current, int | float)
        ranked = sorted((v for v in values if v != current), key=lambda v: abs(v - current))
        yield from (int(v) if param.kind == "int" else v for v in ranked[:FIX_TRIES])


def setting_fix(spec: SheetSpec) -> str | None:
    """One ``key=value`` change that lets ``spec`` be built, or None when none is found.

    Each parameter in turn is moved step by step away from its value, nearest first; the
    first value that builds is the answer, so the suggested fix is known to work.
    """
    layout = get_layout(spec.game)
    for param in layout.params:
        current = spec.params.get(param.name, param.default)
        for value in _candidates(param, current):
            candidate = dataclasses.replace(spec, params={**spec.params, param.name: value})
            if _builds(candidate):
                return f"{param.name}={param.format(value)}"
    return None


def too_small(base: SheetSpec, seed: int, per_page: int) -> FitError:
    """Why ``base`` cannot go ``per_page`` to a page, with fixes that were tried and work."""
    cell = cells(base.paper, per_page)[0]
    fixes = []
    for fewer in (2, 1) if per_page == 4 else (1,):
        if _builds(cell_spec(base, seed, cells(base.paper, fewer)[0], fewer)):
            fixes.append(f"--per-page {fewer}")
            break
    setting = setting_fix(cell_spec(base, seed, cell, per_page))
    if setting is not None:
        fixes.append(f"--set {setting}")
    advice = f"; use {' or '.join(fixes)}" if fixes else "; no setting makes it fit"
    return FitError(
        f"--per-page {per_page} would print each {base.game} sheet on {cell.paper} paper, "
        f"too small for it to stay legible{advice}"
    )


def _first_sheet(spec: SheetSpec, seed: int, per_page: int) -> Sheet:
    cell = cells(spec.paper, per_page)[0]
    try:
        return cell_sheet(spec, seed, cell, per_page)
    except FitError:
        if per_page == 1:
            raise
        raise too_small(spec, seed, per_page) from None


def _check_work(specs: Sequence[SheetSpec], firsts: Sequence[Sheet], copies: int) -> None:
    """Refuse a pack that would draw more than :data:`MAX_ITEMS` or print :data:`MAX_PAGES`.

    The first sheet of each game stands for its copies; the suggested count is computed from
    the same figures, so it passes this check.
    """
    items = sum(sum(len(p.items) for p in sheet.pages) for sheet in firsts)
    pages = sum(len(sheet.pages) for sheet in firsts)
    games = " and ".join(s.game for s in specs)
    what = f"{copies} {games} sheet{'s' * (copies != 1)}"
    if len(specs) > 1:
        what += " of each"
    if items * copies > MAX_ITEMS:
        most = MAX_ITEMS // items
        fix = f"use --copies {most} or fewer" if most else "use smaller settings"
        raise SpecError(
            f"{what} would draw about {items * copies:,} lines, boxes and words, more than the "
            f"{MAX_ITEMS:,} a pack may hold; {fix}"
        )
    if pages * copies > MAX_PAGES:
        most = MAX_PAGES // pages
        raise SpecError(
            f"{what} would need {pages * copies:,} pages, more than the {MAX_PAGES:,} a pack "
            f"may hold; use --copies {most} or fewer"
        )


def _cell_rules(game: str, sheet: Sheet, cell: Cell, per_page: int) -> Page:
    """The rules of ``game`` at the size of one cell, or a refusal that says what to do."""
    try:
        return rules_page(game, cell.paper, landscape=cell.landscape, sheet=sheet)
    except FitError:
        raise FitError(
            f"--rules back with --per-page {per_page} puts each sheet's rules behind it on "
            f"{cell.paper} paper, and the rules of {game} do not fit there legibly; use "
            "--rules first (one full page of rules at the front) or --per-page 1"
        ) from None


def _specs(spec: SheetSpec | Sequence[SheetSpec]) -> list[SheetSpec]:
    specs = [spec] if isinstance(spec, SheetSpec) else list(spec)
    if not specs:
        raise SpecError("a pack needs at least one game")
    if not all(isinstance(s, SheetSpec) for s in specs):
        raise SpecError("a pack is made from SheetSpecs")
    games = [s.game for s in specs]
    if len(set(games)) != len(games):
        raise SpecError("the pack names a game twice: give each game once and use --copies")
    if len({s.paper for s in specs}) != 1:
        raise SpecError("the games of one pack are printed on one paper")
    return specs


def group_specs(base: SheetSpec, roll: ClassList) -> list[SheetSpec]:
    """The pack's base spec made for each group of a class list: their names, number, class.

    The number of players follows each group (a ``players`` setting of the base is dropped).

    Raises:
        SpecError: naming the line (or group) whose names do not fit the game.
    """
    settings = {k: v for k, v in base.settings().items() if k != "players"}
    out = []
    for group in roll.groups:
        named = {
            **settings,
            "names": SHEET_PARAMS["names"].format(group.names),
            "group": str(group.number),
        }
        if roll.name:
            named["class"] = SHEET_PARAMS["class"].format(roll.name)
        try:
            out.append(
                SheetSpec.create(
                    base.game,
                    named,
                    seed=base.seed,
                    paper=base.paper,
                    orientation=base.orientation,
                    markers=base.markers,
                    labels=base.labels,
                    colour=base.colour,
                )
            )
        except SpecError as exc:
            raise SpecError(f"{roll.where(group)}: {exc}") from None
    return out


def make_pack(
    spec: SheetSpec | Sequence[SheetSpec],
    copies: int,
    *,
    rules: str = "back",
    per_page: int = 1,
    progress: Progress | None = None,
    roll: ClassList | None = None,
) -> Sheet:
    """A pack of ``copies`` sheets of each spec's game, each with its own seed.

    Args:
        spec: the game, parameters, paper and the pack's seed; or several such specs (one per
            game, all on one paper) for a mixed pack.
        copies: how many sheets of each game (1..500).
        rules: ``back`` (the game's rules behind every sheet, for long-edge duplex printing;
            at the cell's size behind each cell of an n-up page), ``first`` (each game's rules
            once at the front, full size) or ``none``.
        per_page: 1, 2 or 4 sheets to a page.
        progress: called after each sheet is made.
        roll: a class list: each game then gets one sheet per group, made for it (the names
            printed in its rows, its group and class in its header and spec), and ``copies``
            is the number of groups.

    Raises:
        SpecError: for a count, a rules place or a per-page value out of range, or a pack that
            would be too large to make (:data:`MAX_ITEMS`, :data:`MAX_PAGES`).
        FitError: when the sheets, or with ``rules="back"`` their rules, would be too small to
            read at ``per_page``; the message names fixes that were tried and work.
    """
    specs = _specs(spec)
    if roll is not None:
        copies = len(roll.groups)
    if not 1 <= copies <= MAX_COPIES:
        raise SpecError(f"--copies {copies} is out of range 1..{MAX_COPIES}")
    if rules not in RULES_PLACES:
        raise SpecError(f"--rules {rules} is not one of {', '.join(RULES_PLACES)}")
    if per_page not in PER_PAGE:
        raise SpecError(f"--per-page {per_page} is not one of 1, 2, 4")
    paper = specs[0].paper
    width, height = PAPERS[paper].size(False)
    layout_cells = cells(paper, per_page)
    seeds = {s.game: pack_seeds(s.seed, copies) for s in specs}
    bases = {s.game: group_specs(s, roll) if roll else [s] * copies for s in specs}
    firsts = [_first_sheet(bases[s.game][0], seeds[s.game][0], per_page) for s in specs]
    _check_work(specs, firsts, copies)
    cell_rules: dict[str, Page] = {}
    full_rules: dict[str, Page] = {}
    for s, first in zip(specs, firsts, strict=True):
        if rules == "back" and per_page > 1:
            cell_rules[s.game] = _cell_rules(s.game, first, layout_cells[0], per_page)
        elif rules != "none":
            full_rules[s.game] = (
                rules_page(s.game, paper, sheet=first)
                if per_page == 1
                else rules_page(s.game, paper, seed=first.spec.seed, params=s.params)
            )
    made: list[Sheet] = []
    for s, first in zip(specs, firsts, strict=True):
        for k, seed in enumerate(seeds[s.game]):
            if k == 0:
                made.append(first)
            else:
                base = bases[s.game][k]
                try:
                    made.append(cell_sheet(base, seed, layout_cells[0], per_page))
                except FitError:
                    if per_page == 1:
                        raise
                    raise too_small(base, seed, per_page) from None
            if progress is not None:
                progress(len(made), copies * len(specs))
    for sheet in made:
        for page in sheet.pages:
            page.data.setdefault("kind", "sheet")
            if is_cut_out(page):
                page.data["cut_out"] = True
    leaves = Leaves(width, height)
    for page in full_rules.values() if rules == "first" else ():
        leaves.add(page)
    leaves.new_leaf()
    if per_page == 1:
        _single(leaves, made, full_rules if rules == "back" else {})
    else:
        _n_up(leaves, made, paper, per_page, cell_rules)
    leaves.new_leaf()
    leaves.pages.extend(key_pages(specs[0], made, width, height))
    titles = " + ".join(get_layout(s.game).title for s in specs)
    count = copies * len(specs)
    return Sheet(specs[0], f"{titles}: a pack of {count} sheet{'s' * (count != 1)}", leaves.pages)


def _single(leaves: Leaves, made: Sequence[Sheet], rules: dict[str, Page]) -> None:
    """One sheet per page: the rules behind each sheet's first page, pieces on leaves of
    their own; a sheet of several pages, or with its rules, starts a leaf."""
    for sheet in made:
        plain = [p for p in sheet.pages if not is_cut_out(p)]
        cut = [p for p in sheet.pages if is_cut_out(p)]
        behind_it = rules.get(sheet.spec.game)
        if behind_it is not None or len(sheet.pages) > 1:
            leaves.new_leaf()
        for page in [*plain[:1], *([behind_it] if behind_it else []), *plain[1:], *cut]:
            leaves.add(page)


def _n_up(
    leaves: Leaves, made: Sequence[Sheet], paper: str, per_page: int, rules: dict[str, Page]
) -> None:
    """Two or four sheets to a page; behind each cell its game's rules at the cell's size
    (when ``rules`` has them), and never anything behind a cell of pieces."""
    width, height = PAPERS[paper].size(False)
    layout_cells = cells(paper, per_page)
    small = [
        (number, f"s{number}-" if k == 0 else f"s{number}.{k + 1}-", sheet, page)
        for number, sheet in enumerate(made, 1)
        for k, page in enumerate(sheet.pages)
    ]
    backs: dict[tuple[str | None, ...], Page] = {}
    for start in range(0, len(small), per_page):
        chunk = small[start : start + per_page]
        title = " + ".join(dict.fromkeys(get_layout(s.spec.game).title for _, _, s, _ in chunk))
        front = Page(width, height, title=title, data={"kind": "sheet", "cells": []})
        for cell, (number, prefix, sheet, sub) in zip(layout_cells, chunk, strict=False):
            for item in sub.items:
                front.add(shifted(item, cell.x, cell.y, prefix))
            cut_out = is_cut_out(sub)
            front.data["cells"].append(
                {
                    "sheet": number,
                    "game": sheet.spec.game,
                    "x": cell.x,
                    "y": cell.y,
                    "cut_out": cut_out,
                }
            )
        front.extend(cut_lines(paper, per_page))
        if rules:
            games: list[str | None] = [None] * per_page
            for k, entry in enumerate(front.data["cells"]):
                if not entry["cut_out"]:
                    games[behind(k, per_page)] = entry["game"]
            key = tuple(games)
            if key not in backs:
                backs[key] = _rules_back(width, height, layout_cells, games, rules)
            leaves.add_leaf(front, backs[key])
        elif any(entry["cut_out"] for entry in front.data["cells"]):
            front.data["cut_out"] = True
            leaves.add(front)
        else:
            leaves.add(front)


def _rules_back(
    width: float,
    height: float,
    layout_cells: Sequence[Cell],
    games: Sequence[str | None],
    rules: dict[str, Page],
) -> Page:
    """The back of an n-up page: each game's rules in the cell behind its sheet."""
    back = Page(width, height, title="rules", data={"kind": "rules", "cells": []})
    for k, (cell, game) in enumerate(zip(layout_cells, games, strict=True)):
        if game is None:
            continue
        for item in rules[game].items:
            back.add(shifted(item, cell.x, cell.y, f"r{k + 1}-"))
        back.data["cells"].append({"game": game, "x": cell.x, "y": cell.y})
    return back


def key_rows(sheets: Sequence[Sheet], width: float = 0.0) -> list[str]:
    """One line per sheet: its number and spec, and for rings each round's section counts.

    A sheet made for a group of a class list takes a line naming the group and its players,
    then its spec in lines of ``width`` mm at the key's type size.
    """
    rows = []
    for number, sheet in enumerate(sheets, start=1):
        spec = sheet.spec
        if spec.names:
            group = f"group {spec.group}" if spec.group else "players"
            rows.append(f"{number:>3}.  {group}: {', '.join(spec.names)}")
            rows += [f"       {line}" for line in spec_lines(str(spec), width - 12.0, KEY_SIZE)]
            continue
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
    rows = key_rows(sheets, width - 2 * MARGIN)
    top = MARGIN + 16.0
    per_page = max(1, int((height - top - MARGIN - 8.0) // (KEY_LEADING * KEY_SIZE)))
    usable = width - 2 * MARGIN
    size = min(KEY_SIZE, usable / max(text_width(r, 1.0) for r in rows))
    pages = []
    chunks = [rows[k : k + per_page] for k in range(0, len(rows), per_page)]
    for number, chunk in enumerate(chunks, start=1):
        page = Page(width, height, title="Key", data={"kind": "key"})
        heading = f"Key to the pack: {len(sheets)} sheets, made from seed {spec.seed}"
        named = [s.spec for s in sheets if s.spec.names]
        if named:
            heading = f"Key to the pack: {len(named)} sheets for " + (
                f"class {named[0].class_name}" if named[0].class_name else "a class list"
            )
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
