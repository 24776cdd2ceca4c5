"""The COM:POSITIE board and pieces: symbols, the board and pieces pages, squares and contacts."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from shapely.geometry import Polygon, box

from papergames.errors import FitError
from papergames.fonts import ASCENT, DESCENT, text_width, wrap_text
from papergames.layouts.compositie.params import MIN_CELL, BoardParams, WithPieces
from papergames.play.rules import MoveSyntaxError
from papergames.sheets.bounds import item_box, union_box
from papergames.sheets.compose import Frame
from papergames.sheets.geometry import arc_steps, circle_points, polar
from papergames.sheets.grid import SCORE_WIDTH, GridLook, GridPlan, cell_name, grid_items, plan_grid
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import INKS, Feature, Item, Kind, Layer, Style, Text, shifted

N = 6
"""Squares along each side of the board."""


COLOURS = ("red", "blue", "green", "yellow")


PER_COLOUR = 9


LETTERS: Mapping[str, str] = {"red": "R", "blue": "B", "green": "G", "yellow": "Y"}


SHAPES: Mapping[str, str] = {"red": "disk", "blue": "square", "green": "triangle", "yellow": "star"}


SYMBOL_STYLES: Mapping[str, Style] = {
    "red": Style.SOLID,
    "blue": Style.HATCH,
    "green": Style.CROSSHATCH,
    "yellow": Style.HEAVY,
}
"""Fill of each symbol: black, one-way hatch, cross-hatch, bare outline (darkest to lightest)."""


PRINT_COLOURS: Mapping[str, str] = {
    "red": "#d03a2f",
    "blue": "#5b9be0",
    "green": "#8fd48f",
    "yellow": "#ffe45c",
}
"""Each colour as printed with ``colour=on``, under the symbol's black pattern. Their greys go
from dark to light in the order of :data:`SYMBOL_STYLES` (0.40, 0.56, 0.72, 0.86), so a
black-and-white print of a colour sheet still tells them apart by grey as well as by pattern."""


CUT_ONLY = "The pieces are printed in their colours: cut along the dashes"
"""The pieces page's subtitle with ``colour=on``, when there is nothing left to colour."""


def in_colour(items: Sequence[Item]) -> list[Item]:
    """The items with every colour's symbol (key, piece, set-up) filled with its print colour."""
    return [
        dataclasses.replace(item, colour=PRINT_COLOURS[item.data["colour"]])
        if isinstance(item, Feature) and item.kind == Kind.MARK and "colour" in item.data
        else item
        for item in items
    ]


MAX_CELL = 32.0
"""Largest side of a board square in mm, so a3 paper does not make a poster."""


PIECE_CLEARANCE = 1.0
"""How much narrower than a board square a piece is, on each side, in mm."""


PIECE_GAP = 3.0
"""Space in mm between two pieces of one colour: two separate cuts, no shared line."""


BLOCK_GAP = 8.0
"""Space in mm between the 3 by 3 blocks of the four colours."""


SYMBOL_RATIO = 0.45
"""Symbol width as a fraction of a piece's or a square's side: room left to colour around it."""


LETTER_SIZE = 3.0


LETTER_INSET = 1.4


KEY_SYMBOL = 5.0
"""Width in mm of a symbol in the colour key."""


KEY_SIZE = 3.2


KEY_GAP = 5.0
"""Space in mm between two entries of the colour key."""


TEXT_SIZES = (3.0, 2.8, 2.6, 2.5)
"""Sizes tried for the rules summary, largest first: the first that leaves squares of
:data:`MIN_CELL` wins, so the squares stay large and the text shrinks only on short paper (never
below 7 pt)."""


HEADING_SIZE = 3.4


LEADING = 1.4
"""Baseline distance as a multiple of the text size."""


PARAGRAPH_GAP = 0.6
"""Extra space between paragraphs, as a multiple of the text size."""


BLOCK_SPACE = 4.0
"""Space in mm between the labelled board, the key and the summary."""


BAND_SIZE = 3.2
"""Text size of the home-row labels of Cannon-Ball."""


LOOK = GridLook(
    min_cell=1.0,
    purpose="for the cut-out pieces",
    lines=Style.MEDIUM,
    perimeter=Style.HEAVY,
    cell_sides=("bottom", "top", "left", "right"),
    vertex_labels="none",
    points="none",
    max_cell=MAX_CELL,
)
"""The board: heavy outline, medium inner lines, square coordinates on every side."""


def symbol_shape(colour: str, cx: float, cy: float, size: float) -> Polygon:
    """The symbol of a colour, centred on (cx, cy) and ``size`` mm wide.

    The shapes differ in outline (round, square, pointed up, spiky) as well as in fill, so each
    stays recognisable when the fill is lost in a poor copy or covered by coloured pencil.
    """
    half = size / 2
    if colour == "red":
        return Polygon(circle_points(cx, cy, half, max(24, 4 * arc_steps(half, math.pi / 2))))
    if colour == "blue":
        side = 0.82 * half
        return box(cx - side, cy - side, cx + side, cy + side)
    if colour == "green":
        height = half * math.sqrt(3)
        top, bottom = cy - height / 2, cy + height / 2
        return Polygon([(cx, top), (cx + half, bottom), (cx - half, bottom)])
    if colour == "yellow":
        points = []
        for k in range(10):
            radius = half if k % 2 == 0 else 0.42 * half
            points.append(polar(cx, cy + 0.06 * size, radius, -math.pi / 2 + k * math.pi / 5))
        return Polygon(points)
    raise ValueError(f"unknown colour {colour!r}")


def symbol(ident: str, colour: str, cx: float, cy: float, size: float, **data: Any) -> Feature:
    """A colour's symbol as a mark feature."""
    return Feature(
        ident,
        Kind.MARK,
        symbol_shape(colour, cx, cy, size),
        SYMBOL_STYLES[colour],
        Layer.FIELD,
        data={"colour": colour, **data},
    )


def letter(ident: str, colour: str, x0: float, y0: float) -> Text:
    """A colour's initial in the top-left corner of a square whose corner is (x0, y0)."""
    y = y0 + LETTER_INSET + ASCENT * LETTER_SIZE
    return Text(ident, x0 + LETTER_INSET, y, LETTERS[colour], LETTER_SIZE, bold=True)


def text_block(
    heading: str, paragraphs: Sequence[str], x: float, width: float, size: float
) -> tuple[list[Item], float]:
    """The heading line (with the colour key at its right) and the wrapped paragraphs.

    The block's top is at y = 0 (the caller moves it); returns (items, height).
    """
    key, key_w = key_row(x + width, KEY_SYMBOL / 2)
    middle = KEY_SYMBOL / 2
    items: list[Item] = [
        Text("summary-heading", x, middle + 0.365 * HEADING_SIZE, heading, HEADING_SIZE, bold=True)
    ]
    head_w = text_width(heading, HEADING_SIZE, bold=True)
    if head_w + KEY_GAP + key_w <= width:
        items += key
        baseline = KEY_SYMBOL + 1.0 + ASCENT * size
    else:
        shift = KEY_SYMBOL + 1.5
        items += [shifted(item, 0.0, shift) for item in key]
        baseline = shift + KEY_SYMBOL + 1.0 + ASCENT * size
    k = 0
    for paragraph in paragraphs:
        for line in wrap_text(paragraph, width, size):
            k += 1
            items.append(Text(f"summary-{k}", x, baseline, line, size))
            baseline += LEADING * size
        baseline += PARAGRAPH_GAP * size
    height = baseline - (LEADING + PARAGRAPH_GAP) * size + DESCENT * size
    return items, height


def key_row(right: float, middle: float) -> tuple[list[Item], float]:
    """The colour key, ending at x = ``right`` and centred on y = ``middle``; returns its width.

    Each entry is the colour's symbol, its letter and its name, so a reader matches the symbols
    on the board and the pieces to the pencils without a colour print.
    """
    words = [f"{LETTERS[c]} {c}" for c in COLOURS]
    widths = [KEY_SYMBOL + 1.2 + text_width(w, KEY_SIZE) for w in words]
    total = sum(widths) + KEY_GAP * (len(COLOURS) - 1)
    x = right - total
    baseline = middle + 0.365 * KEY_SIZE
    items: list[Item] = []
    for colour, word, width in zip(COLOURS, words, widths, strict=True):
        items.append(symbol(f"mark-key-{colour}", colour, x + KEY_SYMBOL / 2, middle, KEY_SYMBOL))
        items.append(Text(f"key-{colour}", x + KEY_SYMBOL + 1.2, baseline, word, KEY_SIZE))
        x += width + KEY_GAP
    return items, total


def band_text(ident: str, text: str, cx: float, top: float, upside_down: bool) -> Text:
    """A centred label filling a band of height ``BAND_SIZE`` from ``top``."""
    if upside_down:
        return Text(ident, cx, top + DESCENT * BAND_SIZE, text, BAND_SIZE, "middle", angle=180.0)
    return Text(ident, cx, top + ASCENT * BAND_SIZE, text, BAND_SIZE, "middle")


class CompositieLayout(Layout):
    """The bare board and pieces, with a note on the three games; the base of the game sheets."""

    name = "compositie"
    param_shape: ClassVar[type[Any]] = BoardParams
    how_to_play = """\
COM:POSITIE is a 6 by 6 board with 36 pieces, 9 each of red, blue, green and yellow. Columns \
are a to f and rows 1 to 6, with a1 at the bottom left. The sheet prints the board and a page \
of pieces. Colour each piece with the pencil its letter names (R, B, G, Y), then cut along the \
dashed lines. Each colour also has its own symbol, so the pieces can be told apart uncoloured.

Fred Horn wrote three games for this set. Each has its own sheet with its rules.

Plan-A-Head, for 2 or 3 players: Pieces go down one at a time, set of four by set of four. A \
piece never goes next to one of its own colour. Whoever places the last piece that can go down \
wins.

Pick Tw=O=ne, for 2 players: The board starts full. A turn takes one or two pieces from a \
line, as the number of colours on it allows. Whoever makes the last possible removal wins.

Cannon-Ball, for 2 players: Each player leads two colours across the board and captures by \
jumping over a piece of their other colour, like a cannon in Chinese chess. Six pieces on the \
far row wins, and so does leaving the opponent fewer than six.
"""

    def subtitle(self, params: Mapping[str, Any]) -> str:
        """The line under the title of the board page."""
        return "The board for Plan-A-Head, Pick Tw=O=ne and Cannon-Ball (Fred Horn, 2013)"

    def heading(self) -> str:
        """The heading of the text under the board."""
        return "Three games on this board"

    def summary(self, params: Mapping[str, Any]) -> list[str]:
        """The paragraphs printed under the board: a short form of :attr:`rules`."""
        return [
            "Colour each piece on page 2 with the pencil its letter names, then cut it out. "
            "Every game has its own sheet with its rules beside the board:",
            "Plan-A-Head (2-3 players, papergames plan-a-head): place pieces one by one, four "
            "colours per round, never next to a piece of the same colour; the last to place "
            "one wins.",
            "Pick Tw=O=ne (2 players, papergames pick-two-one): from a full board take one or "
            "two pieces out of a line with several colours; the last to take one wins.",
            "Cannon-Ball (2 players, papergames cannon-ball): lead red and blue against green "
            "and yellow, capture by jumping over your own other colour; reach the far row "
            "with six pieces.",
        ]

    def bands(self) -> tuple[str, str]:
        """Labels over and under the board (the top one is printed upside down); empty: none."""
        return "", ""

    def decorate(self, ctx: BuildContext, plan: GridPlan) -> tuple[list[Item], dict[str, Any]]:
        """Game-specific ink on the board and facts for the page data."""
        return [], {}

    def build(self, ctx: BuildContext) -> list[PageBody]:
        board = self.board_page(ctx)
        bodies = [board]
        settings: WithPieces = self.params.read(self.param_shape, ctx.params)
        if settings.pieces:
            cell = board.data["cell"]
            bodies.append(pieces_page(ctx.frame, cell - 2 * PIECE_CLEARANCE))
        if ctx.spec.colour:
            bodies = [dataclasses.replace(body, items=in_colour(body.items)) for body in bodies]
            if settings.pieces:
                bodies[1] = dataclasses.replace(bodies[1], subtitle=CUT_ONLY)
        return bodies

    def board_page(self, ctx: BuildContext) -> PageBody:
        """The board as large as fits above the key and the rules summary."""
        frame = ctx.frame
        top_label, bottom_label = self.bands()
        top_band = BAND_SIZE + BLOCK_SPACE / 2 if top_label else 0.0
        bottom_band = BAND_SIZE + BLOCK_SPACE / 2 if bottom_label else 0.0
        paragraphs = self.summary(ctx.params)
        best: tuple[GridPlan, list[Item], float] | None = None
        for size in TEXT_SIZES:
            summary, height = text_block(self.heading(), paragraphs, frame.x, frame.w, size)
            below = bottom_band + BLOCK_SPACE + height
            room = Frame(frame.x, frame.y + top_band, frame.w, frame.h - top_band - below)
            if room.h <= 0:
                continue
            plan = plan_grid(room, N, LOOK, 0, SCORE_WIDTH)
            if best is None or plan.cell > best[0].cell:
                best = plan, summary, below
            if plan.cell >= MIN_CELL - 1e-9:
                break
        if best is None or best[0].cell < MIN_CELL - 1e-9:
            have = 0.0 if best is None else best[0].cell
            raise FitError(
                f"the {self.name} board would have squares of only {have:.1f} mm on this "
                f"paper, but the cut-out pieces need at least {MIN_CELL:g} mm: use paper=a4, "
                "letter or a3 in portrait (orientation=auto or portrait)"
            )
        plan, summary, below = best
        ink = union_box([b for b in map(item_box, grid_items(plan, LOOK)) if b is not None])
        assert ink is not None
        total = top_band + (ink[3] - ink[1]) + below
        top = frame.y + (frame.h - total) / 2
        plan = dataclasses.replace(plan, y=plan.y + top + top_band - ink[1])
        grid_bottom = top + top_band + (ink[3] - ink[1])

        items: list[Item] = grid_items(plan, LOOK)
        extra, data = self.decorate(ctx, plan)
        items = [i for i in extra if i.layer == Layer.TINT] + items
        items += [i for i in extra if i.layer != Layer.TINT]
        cx = frame.x + frame.w / 2
        if top_label:
            items.append(band_text("home-label-2", top_label, cx, top, upside_down=True))
        if bottom_label:
            y = grid_bottom + BLOCK_SPACE / 2
            items.append(band_text("home-label-1", bottom_label, cx, y, upside_down=False))
        y = grid_bottom + bottom_band + BLOCK_SPACE
        items += [shifted(item, 0.0, y) for item in summary]

        facts: dict[str, Any] = dict(plan.facts())
        facts["colours"] = list(COLOURS)
        facts["symbols"] = {c: SHAPES[c] for c in COLOURS}
        facts["letters"] = dict(LETTERS)
        facts.update(data)
        return PageBody(items, self.subtitle(ctx.params), plan.outline, facts)


def pieces_page(frame: Frame, limit: float) -> PageBody:
    """The 36 pieces to cut out, each no wider than ``limit`` mm, in four 3 by 3 colour blocks."""
    frame = frame.inset(INKS[Style.CUT].stroke / 2 + 0.05)
    fit_w = (frame.w - BLOCK_GAP - 4 * PIECE_GAP) / N
    fit_h = (frame.h - BLOCK_GAP - 4 * PIECE_GAP) / N
    side = min(limit, fit_w, fit_h)
    if side < MIN_CELL - 2 * PIECE_CLEARANCE:
        raise FitError(f"the pieces would be only {side:.1f} mm wide on this paper")
    block = 3 * side + 2 * PIECE_GAP
    span = 2 * block + BLOCK_GAP
    x0 = frame.x + (frame.w - span) / 2
    y0 = frame.y + (frame.h - span) / 2
    items: list[Item] = []
    n = 0
    for c, colour in enumerate(COLOURS):
        bx = x0 + (c % 2) * (block + BLOCK_GAP)
        by = y0 + (c // 2) * (block + BLOCK_GAP)
        for k in range(PER_COLOUR):
            n += 1
            x = bx + (k % 3) * (side + PIECE_GAP)
            y = by + (k // 3) * (side + PIECE_GAP)
            items.append(
                Feature(
                    f"box-piece-{n}",
                    Kind.BOX,
                    box(x, y, x + side, y + side),
                    Style.CUT,
                    Layer.FIELD,
                    data={"colour": colour, "index": k + 1},
                )
            )
            size = SYMBOL_RATIO * side
            items.append(symbol(f"mark-piece-{n}", colour, x + side / 2, y + side / 2, size))
            items.append(letter(f"letter-piece-{n}", colour, x, y))
    subtitle = "Colour each piece with the pencil its letter names, then cut along the dashes"
    data = {"piece": side, "pieces": N * N, "colours": list(COLOURS), "per_colour": PER_COLOUR}
    return PageBody(items, subtitle, None, data)


BOARD = CompositieLayout()


SQUARES = [cell_name(col, row) for row in range(1, N + 1) for col in range(1, N + 1)]
"""Square names in index order: a1, b1, .. f1, a2, .. f6 (index = (row - 1) * 6 + col - 1)."""


def square_id(square: int) -> str:
    """The sheet's id of a board square, by index: ``space-1`` is a1, ``space-36`` f6."""
    return f"space-{square + 1}"


def square_index(item: str) -> int | None:
    """The board square an item id names, or ``None`` for another item.

    Example:
        >>> square_index("space-8"), square_index("mark-key-red"), square_index("space-99")
        (7, None, None)
    """
    number = item.removeprefix("space-")
    if number == item or not number.isdigit() or not 1 <= int(number) <= N * N:
        return None
    return int(number) - 1


def board_marks(board: Sequence[str]) -> dict[tuple[int, str], str]:
    """The pieces on a board (a colour word or ``""`` per square) as marks to draw."""
    return {(1, square_id(k)): colour for k, colour in enumerate(board) if colour}


SQUARE_INDEX = {name: k for k, name in enumerate(SQUARES)}


COLOUR_BY_WORD: Mapping[str, str] = {
    **{c: c for c in COLOURS},
    **{LETTERS[c].lower(): c for c in COLOURS},
}


def _square(word: str, column: int) -> int:
    index = SQUARE_INDEX.get(word.lower())
    if index is None:
        raise MoveSyntaxError(f"'{word}' is not a square of the board (a1 .. f6)", column)
    return index
