"""Fred Horn's COM:POSITIE board and pieces, and the three games he made for them.

The material is a 6 by 6 board and 36 pieces, 9 in each of four colours. Every sheet prints it
on two pages: the board (page 1) and the pieces to colour and cut out (page 2, left out with
``pieces=off``). The plain ``compositie`` sheet lists the games in the free space under the
board; each game's sheet is a small subclass that prints the same board with its own title and
a short summary of its rules, plus what the game needs on the board itself:

* ``plan-a-head``: nothing more (the board starts empty).
* ``pick-two-one``: the start position, a symbol in every square, drawn from the seed.
* ``cannon-ball``: the two home rows of each side shaded and labelled.

Board conventions (:mod:`papergames.grid`): columns ``a`` .. ``f`` from the left, rows ``1`` ..
``6`` from the bottom, chess style, printed on all four sides since players sit on opposite
sides. Squares are as large as the paper allows up to 32 mm and never under 25 mm, so a cut-out
piece, 2 mm narrower than a square, is still easy to handle; only portrait a4, letter and a3 give
that (landscape and a5 are refused with a :class:`~papergames.errors.FitError`).

Colours stay apart in a grayscale copy because each has its own symbol and fill:

======  ==========================  =======
colour  symbol                      letter
======  ==========================  =======
red     solid black disk            R
blue    square, hatched one way     B
green   triangle, cross-hatched     G
yellow  five-pointed star, outline  Y
======  ==========================  =======

Ids on the board page: ``space-<k>`` the squares (k = (row - 1) * 6 + column, data ``col``,
``row``, ``name``), ``line-1`` the heavy outline, ``line-2`` .. ``line-11`` the inner lines,
``coord-<side>-<k>`` the coordinates, ``mark-key-<colour>`` and ``key-<colour>`` the colour key,
``summary-heading`` and ``summary-<k>`` the lines of the rules summary (3 mm text, down to 2.4 mm
where the paper is short, so the squares keep their 25 mm). Pick Tw=O=ne adds ``mark-setup-<k>`` and
``letter-setup-<k>`` in square k (data ``square``, ``colour``; the whole position is also in
``page.data["setup"]``). Cannon-Ball adds ``mark-home-1`` (rows 1-2) and ``mark-home-2`` (rows
5-6) as tints under the grid, labelled by ``home-label-1`` under the board and ``home-label-2``
over it, upside down for the player who sits there.

Ids on the pieces page: ``box-piece-<n>`` the pieces (dashed cut outline, data ``colour`` and
``index`` within the colour), ``mark-piece-<n>`` their symbols and ``letter-piece-<n>`` their
letters. Pieces 1-9 are red, 10-18 blue, 19-27 green, 28-36 yellow; each colour is a 3 by 3 block
(red top left, blue top right, green bottom left, yellow bottom right), numbered row by row from
the top, left to right.

Parameters: every sheet has ``pieces`` (default on; off prints the board page alone).
``plan-a-head`` adds ``players`` (2..3, default 2), ``pick-two-one`` adds ``lines``
(``any`` | ``straight``, default ``any``) and ``cannon-ball`` adds ``capture`` (``any`` |
``mover``, default ``any``); these three only change the printed summary (the rules engine reads
them from the spec). The seed decides the start position of ``pick-two-one`` and nothing else.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Polygon, box

from papergames.bounds import item_box, union_box
from papergames.compose import Frame
from papergames.errors import FitError
from papergames.fonts import ASCENT, DESCENT, text_width, wrap_text
from papergames.geometry import arc_steps, circle_points, polar
from papergames.grid import SCORE_WIDTH, GridLook, GridPlan, cell_name, grid_items, plan_grid
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import INKS, Feature, Item, Kind, Layer, Sheet, Style, Text, shifted
from papergames.params import Param, ParamSet
from papergames.rng import Rng
from papergames.rules import IllegalMove, MoveSyntaxError, Player, Rules

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

MIN_CELL = 25.0
"""Least side of a board square in mm: a cut-out piece must fit and be easy to pick up."""
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
TEXT_SIZES = (3.0, 2.8, 2.6, 2.4)
"""Sizes tried for the rules summary, largest first: the first that leaves squares of
:data:`MIN_CELL` wins, so the squares stay large and the text shrinks only on short paper."""
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

PIECES = Param.bool("pieces", True, "print the page of 36 cut-out pieces")


# --- symbols ------------------------------------------------------------------------------------


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


# --- text ---------------------------------------------------------------------------------------


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


# --- the layouts --------------------------------------------------------------------------------


class CompositieLayout(Layout):
    """The bare board and pieces, with a note on the three games; the base of the game sheets."""

    name = "compositie"
    params = ParamSet([PIECES])
    how_to_play = """\
COM:POSITIE is a 6 by 6 board (columns a-f, rows 1-6, a1 at the bottom left) with 36 pieces, \
9 each of red, blue, green and yellow. The sheet prints the board and a page of pieces: colour \
each piece with the pencil its letter names (R, B, G, Y) and cut along the dashed lines. Each \
colour also has its own symbol, so the pieces can be told apart even uncoloured.

Fred Horn wrote three games for this material, each with its own sheet:

Plan-A-Head (2 or 3 players, papergames plan-a-head): the pieces go down one at a time, set of \
four by set of four, never next to a piece of the same colour; whoever places the last piece \
that can go down wins.

Pick Tw=O=ne (2 players, papergames pick-two-one): the board starts full; a turn takes one or \
two pieces from a line, as the number of colours on that line allows; whoever makes the last \
possible removal wins.

Cannon-Ball (2 players, papergames cannon-ball): each player leads two colours across the board \
and captures like a cannon in Chinese chess, jumping over a piece of his other colour; six \
pieces on the far row, or an opponent left with fewer than six, wins.
"""

    def notes(self) -> list[str]:
        return [
            f"the board needs squares of at least {MIN_CELL:g} mm: portrait a4, letter or a3 "
            "(landscape and a5 are refused)"
        ]

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
        if ctx.params["pieces"]:
            cell = board.data["cell"]
            bodies.append(pieces_page(ctx.frame, cell - 2 * PIECE_CLEARANCE))
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


class PlanAHeadLayout(CompositieLayout):
    """Plan-A-Head: the empty board and the rules for two or three players."""

    name = "plan-a-head"
    params = ParamSet(
        [
            Param.int("players", 2, 2, 3, "number of players (decides who opens each new set)"),
            PIECES,
        ]
    )
    how_to_play = """\
Material: the empty 6 by 6 board and the 36 pieces, 9 each of red, blue, green and yellow. \
Sort the pieces into nine sets of four, one piece of every colour in each set; the sets are \
played one after another.

A turn: take one piece of the set in play and put it on any empty square that touches no piece \
of the same colour, neither along a side nor at a corner. While the set still holds two or more \
pieces you choose which one; its last piece has to be taken as it is.

Turn order with two players: whoever places the last piece of a set also places the first piece \
of the next one, so he plays twice running. With three players (option players=3) the turn \
just passes on clockwise, whatever happens to the sets.

End: a player who cannot put down any piece he may take is stuck and the game is over; the \
player who placed the last piece wins. If all 36 pieces get placed, the one who placed the last \
of them wins.
"""

    def notes(self) -> list[str]:
        return [*super().notes(), "players only changes the rules summary (who opens a set)"]

    def subtitle(self, params: Mapping[str, Any]) -> str:
        return (
            f"A placing game for {params['players']} players by Fred Horn: the board starts empty"
        )

    def heading(self) -> str:
        return "How to play"

    def summary(self, params: Mapping[str, Any]) -> list[str]:
        if params["players"] == 2:
            order = (
                "Two players take turns; whoever places the last piece of a set also opens "
                "the next set, so he plays twice in a row."
            )
        else:
            order = "Three players take turns clockwise, straight on from one set to the next."
        return [
            "Sort the 36 pieces into nine sets of four, one of each colour, and play the sets "
            "one after another on the empty board.",
            "On your turn take any piece of the set in play (its last piece must be taken) and "
            "put it on an empty square that touches no piece of the same colour, not even at a "
            "corner.",
            order,
            "If you cannot place a piece, the game ends: the player who placed the last piece "
            "wins.",
        ]


class PickTwoOneLayout(CompositieLayout):
    """Pick Tw=O=ne: the full start position drawn from the seed, printed on the board."""

    name = "pick-two-one"
    params = ParamSet(
        [
            Param.choice(
                "lines",
                "any",
                ("any", "straight"),
                "lines to take from: any collinear squares, or only rows, columns, diagonals",
            ),
            PIECES,
        ]
    )
    how_to_play = """\
Set-up: all 36 squares hold a piece, 9 of each colour. The sheet prints a random arrangement \
drawn from its seed, so every seed gives a new game; players may agree on another arrangement \
instead. Lay the cut-out pieces on the printed symbols, or play on the sheet itself and cross \
out a symbol when its piece is taken.

A turn: the two players alternate, and each turn must take at least one piece. Choose a line \
and look at the colours of the pieces still on it. Three or four colours: take one or two of \
those pieces, of any colours. Exactly two colours: take one. A single colour: that line gives \
nothing. A piece lying on several lines may be taken through any of them that allows it, \
whatever the others hold.

Lines: with lines=any (the default) a line is every square whose centre lies on one straight \
line through two square centres: rows, columns and diagonals, and also slanted lines such as \
a1, b3, c5 or a1, c2, e3. With lines=straight only rows, columns and diagonals count.

End: when no line allows a removal the game is over and the player who made the last removal \
wins. (A piece alone on a line can never be taken, so some pieces always stay.)
"""

    def notes(self) -> list[str]:
        return [
            *super().notes(),
            "the seed decides the start position; lines only changes the rules summary",
        ]

    def subtitle(self, params: Mapping[str, Any]) -> str:
        return "A taking game for 2 players by Fred Horn: the start position comes from the seed"

    def heading(self) -> str:
        return "How to play"

    def summary(self, params: Mapping[str, Any]) -> list[str]:
        if params["lines"] == "any":
            lines = (
                "A line is any set of squares whose centres lie on one straight line: rows, "
                "columns, diagonals, and slanted lines such as a1, b3, c5."
            )
        else:
            lines = "A line is a whole row, column or diagonal of the board."
        return [
            "Start with a piece on every square as printed (or cross symbols out on the sheet "
            "as pieces are taken). Players alternate; each turn takes at least one piece.",
            "Pick a line and count the colours still on it: three or four colours, take one or "
            "two of its pieces; two colours, take one; one colour, nothing. " + lines,
            "When no line allows a removal, the player who made the last removal wins.",
        ]

    def decorate(self, ctx: BuildContext, plan: GridPlan) -> tuple[list[Item], dict[str, Any]]:
        setup = start_position(ctx)
        items: list[Item] = []
        size = SYMBOL_RATIO * plan.cell
        for k, (name, colour) in enumerate(setup.items(), start=1):
            col, row = (k - 1) % N + 1, (k - 1) // N + 1
            x0, y0 = plan.vx(col), plan.vy(row + 1)
            cx, cy = x0 + plan.cell / 2, y0 + plan.cell / 2
            items.append(symbol(f"mark-setup-{k}", colour, cx, cy, size, square=name))
            items.append(letter(f"letter-setup-{k}", colour, x0, y0))
        return items, {"setup": setup, "lines": ctx.params["lines"]}


def start_position(ctx: BuildContext) -> dict[str, str]:
    """A full board, 9 pieces of each colour, shuffled by the seed: square name -> colour.

    Squares are listed in id order (a1, b1, .. f1, a2, ..), so the k-th entry sits in space-k.
    """
    pieces = [colour for colour in COLOURS for _ in range(PER_COLOUR)]
    ctx.rng("setup").shuffle(pieces)
    names = [cell_name(col, row) for row in range(1, N + 1) for col in range(1, N + 1)]
    return dict(zip(names, pieces, strict=True))


class CannonBallLayout(CompositieLayout):
    """Cannon-Ball: the board with both sides' home rows shaded and labelled."""

    name = "cannon-ball"
    params = ParamSet(
        [
            Param.choice(
                "capture",
                "any",
                ("any", "mover"),
                "which piece may capture after a move: any of the player's, or the one that moved",
            ),
            PIECES,
        ]
    )
    how_to_play = """\
Sides: player 1 owns the 18 red and blue pieces and sits at row 1; player 2 owns the 18 green \
and yellow pieces and sits at row 6. Forward means away from one's own side.

Set-up: each player chooses 9 of his pieces, in any mix of his two colours, and places them \
unseen on his two home rows (rows 1-2 for player 1, rows 5-6 for player 2; shaded on the \
board). A screen across the middle of the board can hide the set-ups until both are done. The \
other 9 pieces of each player are his reserves. Player 1 moves first.

A turn: you must move one of your pieces one step to an empty square: straight forward, \
diagonally forward, or sideways. After the move, and only then, you may make one capture; \
the turn ends after the capture, or after the move if you do not capture.

Capturing: red takes green, green takes blue, blue takes yellow and yellow takes red. The \
capturer and its victim must be on one row, column or diagonal, at any distance, with exactly \
one piece between them, and that piece must be of the capturer's owner's other colour (blue \
for red, red for blue, yellow for green, green for yellow); all other squares between them are \
empty. The capturer jumps onto the victim's square, in any direction, and the victim leaves the \
board. With capture=any (the default) any of your pieces may make the capture; with \
capture=mover only the piece that has just moved.

Reserves: when you have lost a piece, begin your next turn by putting one of your reserves on \
an empty square of your own first row, if you have a reserve left and such a square is free; \
then move as usual.

Winning: you win as soon as 6 of your pieces stand on your far row (row 6 for player 1, row 1 \
for player 2), or when your opponent has fewer than 6 pieces on the board. A player who has no \
move left loses.
"""

    def notes(self) -> list[str]:
        return [*super().notes(), "capture only changes the rules summary"]

    def subtitle(self, params: Mapping[str, Any]) -> str:
        return "A capturing game for 2 players by Fred Horn: red & blue against green & yellow"

    def heading(self) -> str:
        return "How to play"

    def summary(self, params: Mapping[str, Any]) -> list[str]:
        who = (
            "any of your pieces may then capture"
            if params["capture"] == "any"
            else "the piece that moved may then capture"
        )
        return [
            "Player 1 (red & blue) sits at row 1, player 2 (green & yellow) at row 6. Each "
            "secretly sets up 9 of his 18 pieces on his two shaded home rows; the other 9 are "
            "reserves. Player 1 starts.",
            "Move one piece one step forward, diagonally forward or sideways to an empty "
            f"square; {who}. Red takes green, green takes blue, blue takes yellow, yellow takes "
            "red: along a row, column or diagonal, over exactly one piece of your own other "
            "colour (empty squares between are fine), onto the victim's square.",
            "After losing a piece, start your next turn by putting a reserve on an empty square "
            "of your first row. Win with 6 pieces on your far row, or when your opponent has "
            "fewer than 6 pieces on the board.",
        ]

    def bands(self) -> tuple[str, str]:
        return (
            "Player 2 sits here: Green & Yellow home rows 5-6",
            "Player 1 sits here: Red & Blue home rows 1-2",
        )

    def decorate(self, ctx: BuildContext, plan: GridPlan) -> tuple[list[Item], dict[str, Any]]:
        items: list[Item] = []
        homes = {1: ((1, 2), ("red", "blue")), 2: ((5, 6), ("green", "yellow"))}
        for player, ((low, high), colours) in homes.items():
            shape = box(plan.vx(1), plan.vy(high + 1), plan.vx(N + 1), plan.vy(low))
            items.append(
                Feature(
                    f"mark-home-{player}",
                    Kind.MARK,
                    shape,
                    Style.TINT,
                    Layer.TINT,
                    data={"player": player, "rows": [low, high], "colours": list(colours)},
                )
            )
        data = {
            "home_rows": {"1": [1, 2], "2": [5, 6]},
            "sides": {"1": ["red", "blue"], "2": ["green", "yellow"]},
            "captures": {"red": "green", "green": "blue", "blue": "yellow", "yellow": "red"},
            "capture": ctx.params["capture"],
        }
        return items, data


BOARD = CompositieLayout()
PLAN_A_HEAD = PlanAHeadLayout()
PICK_TWO_ONE = PickTwoOneLayout()
CANNON_BALL = CannonBallLayout()


SQUARES = [cell_name(col, row) for row in range(1, N + 1) for col in range(1, N + 1)]
"""Square names in index order: a1, b1, .. f1, a2, .. f6 (index = (row - 1) * 6 + col - 1)."""
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


def _touching(square: int) -> list[int]:
    row, col = divmod(square, N)
    return [
        r * N + c
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if (r, c) != (row, col) and 0 <= r < N and 0 <= c < N
    ]


TOUCHING = [_touching(k) for k in range(N * N)]


@dataclass(frozen=True)
class PlanAHeadState:
    """The board (a colour or ``""`` per square), the set in play, whose turn, who placed last."""

    board: tuple[str, ...] = ("",) * (N * N)
    left: tuple[str, ...] = COLOURS
    sets_done: int = 0
    turn: int = 0
    last: int | None = None
    placed: tuple[int, ...] = ()


class PlanAHeadRules(Rules[PlanAHeadState, tuple[str, int]]):
    """Plan-A-Head: place pieces set by set, never next to a piece of the same colour.

    A move is (colour, square), written ``R c4`` or ``red c4``. The player who places the last
    piece wins; the game ends when the player to move cannot place any piece he may take.
    Scores count the pieces each player placed (the winner is decided by the last piece).
    """

    game = "plan-a-head"
    notation = "the colour (R, B, G, Y) and the square, like R c4"

    def initial(self) -> PlanAHeadState:
        return PlanAHeadState(placed=(0,) * len(self.players))

    def _may_take(self, state: PlanAHeadState) -> tuple[str, ...]:
        return state.left

    def _fits(self, state: PlanAHeadState, colour: str, square: int) -> bool:
        return not state.board[square] and all(state.board[t] != colour for t in TOUCHING[square])

    def legal_moves(self, state: PlanAHeadState) -> Iterator[tuple[str, int]]:
        if state.sets_done == PER_COLOUR:
            return
        for colour in state.left:
            for square in range(N * N):
                if self._fits(state, colour, square):
                    yield (colour, square)

    def to_move(self, state: PlanAHeadState) -> int | None:
        if next(self.legal_moves(state), None) is None:
            return None
        return state.turn

    def apply(self, state: PlanAHeadState, move: tuple[str, int]) -> PlanAHeadState:
        if self.to_move(state) is None:
            raise IllegalMove("game-over", "the game is over: nobody can place the next piece")
        colour, square = move
        if colour not in state.left:
            raise IllegalMove(
                "not-in-set",
                f"the set in play has {', '.join(state.left)} left, not {colour}",
            )
        if state.board[square]:
            raise IllegalMove("occupied", f"{SQUARES[square]} already holds a piece")
        same = [SQUARES[t] for t in TOUCHING[square] if state.board[t] == colour]
        if same:
            raise IllegalMove(
                "same-colour",
                f"{colour} on {SQUARES[square]} would touch the {colour} on {same[0]}",
            )
        board = list(state.board)
        board[square] = colour
        left = tuple(c for c in state.left if c != colour)
        sets_done = state.sets_done
        count = len(self.players)
        nxt = (state.turn + 1) % count
        if not left:
            sets_done += 1
            left = COLOURS if sets_done < PER_COLOUR else ()
            if count == 2:
                nxt = state.turn
        placed = list(state.placed)
        placed[state.turn] += 1
        return PlanAHeadState(tuple(board), left, sets_done, nxt, state.turn, tuple(placed))

    def parse_move(self, text: str, state: PlanAHeadState) -> tuple[str, int]:
        words = text.split()
        if len(words) != 2 or words[0].lower() not in COLOUR_BY_WORD:
            raise MoveSyntaxError("a move is a colour and a square, like R c4 or red c4")
        return COLOUR_BY_WORD[words[0].lower()], _square(words[1], len(words[0]) + 2)

    def format_move(self, move: tuple[str, int]) -> str:
        return f"{LETTERS[move[0]]} {SQUARES[move[1]]}"

    def scores(self, state: PlanAHeadState) -> tuple[int, ...]:
        return state.placed

    def winners(self, state: PlanAHeadState) -> list[int]:
        if not self.is_over(state) or state.last is None:
            return []
        return [state.last]


def _collinear_lines(straight: bool) -> list[frozenset[int]]:
    """Every maximal set of two or more squares whose centres lie on one straight line.

    With ``straight`` only rows, columns and the two diagonal directions count.
    """
    lines: set[frozenset[int]] = set()
    for a, b in itertools.combinations(range(N * N), 2):
        (ra, ca), (rb, cb) = divmod(a, N), divmod(b, N)
        dr, dc = rb - ra, cb - ca
        if straight and not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
            continue
        lines.add(
            frozenset(
                k
                for k in range(N * N)
                if (divmod(k, N)[0] - ra) * dc == (divmod(k, N)[1] - ca) * dr
            )
        )
    return sorted(lines, key=lambda line: sorted(line))


@dataclass(frozen=True)
class PickState:
    """The board (a colour or ``""`` per square), whose turn, who took last, pieces taken."""

    board: tuple[str, ...]
    turn: int = 0
    last: int | None = None
    taken: tuple[int, int] = (0, 0)


class PickTwoOneRules(Rules[PickState, tuple[int, ...]]):
    """Pick Tw=O=ne: take one or two pieces out of a line, as its colours allow.

    A move is the square or the two squares taken (``c4`` or ``a1 c2``). Two pieces need a line
    through both holding three or more colours; one piece needs some line through it holding
    two or more. The line set is the sheet's ``lines`` parameter. The last to take wins.
    """

    game = "pick-two-one"
    notation = "the square or two squares taken, like c4 or a1 c2"

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        setup: Mapping[str, str] = sheet.pages[0].data["setup"]
        self.start = tuple(setup[name] for name in SQUARES)
        self.lines = _collinear_lines(sheet.spec.params["lines"] == "straight")
        self.lines_through: list[list[frozenset[int]]] = [
            [line for line in self.lines if k in line] for k in range(N * N)
        ]

    def initial(self) -> PickState:
        return PickState(self.start)

    @staticmethod
    def _colours(state: PickState, line: frozenset[int]) -> int:
        return len({state.board[k] for k in line if state.board[k]})

    def legal_moves(self, state: PickState) -> Iterator[tuple[int, ...]]:
        for k in range(N * N):
            if state.board[k] and any(
                self._colours(state, ln) >= 2 for ln in self.lines_through[k]
            ):
                yield (k,)
        for line in self.lines:
            if self._colours(state, line) >= 3:
                held = sorted(k for k in line if state.board[k])
                yield from itertools.combinations(held, 2)

    def to_move(self, state: PickState) -> int | None:
        if next(self.legal_moves(state), None) is None:
            return None
        return state.turn

    def apply(self, state: PickState, move: tuple[int, ...]) -> PickState:
        if self.to_move(state) is None:
            raise IllegalMove("game-over", "the game is over: no line allows a removal")
        names = " and ".join(SQUARES[k] for k in move)
        for k in move:
            if not state.board[k]:
                raise IllegalMove("empty", f"{SQUARES[k]} holds no piece")
        if len(move) == 1:
            best = max((self._colours(state, ln) for ln in self.lines_through[move[0]]), default=0)
            if best < 2:
                raise IllegalMove("one-colour", f"every line through {names} holds a single colour")
        else:
            line = next((ln for ln in self.lines_through[move[0]] if move[1] in ln), None)
            if line is None:
                raise IllegalMove("no-line", f"{names} are not on one allowed line")
            colours = self._colours(state, line)
            if colours < 3:
                raise IllegalMove(
                    "two-colours",
                    f"the line through {names} holds {colours} colour{'s' * (colours != 1)}: "
                    "two pieces need three or more",
                )
        board = list(state.board)
        for k in move:
            board[k] = ""
        taken = list(state.taken)
        taken[state.turn] += len(move)
        return PickState(tuple(board), 1 - state.turn, state.turn, (taken[0], taken[1]))

    def parse_move(self, text: str, state: PickState) -> tuple[int, ...]:
        words = text.split()
        if not 1 <= len(words) <= 2:
            raise MoveSyntaxError("a move is one square or two, like c4 or a1 c2")
        squares = []
        column = 1
        for word in words:
            squares.append(_square(word, column))
            column += len(word) + 1
        if len(squares) == 2 and squares[0] == squares[1]:
            raise MoveSyntaxError("the two squares must differ")
        return tuple(sorted(squares))

    def format_move(self, move: tuple[int, ...]) -> str:
        return " ".join(SQUARES[k] for k in move)

    def scores(self, state: PickState) -> tuple[int, ...]:
        return state.taken

    def winners(self, state: PickState) -> list[int]:
        if not self.is_over(state) or state.last is None:
            return []
        return [state.last]


PLAN_A_HEAD_RULES = PlanAHeadRules
PICK_TWO_ONE_RULES = PickTwoOneRules


SIDES: tuple[tuple[str, str], tuple[str, str]] = (("red", "blue"), ("green", "yellow"))
"""Each player's two colours: player 1 red and blue, player 2 green and yellow."""
PREY: Mapping[str, str] = {"red": "green", "green": "blue", "blue": "yellow", "yellow": "red"}
HOME_ROWS = ((0, 1), (4, 5))
FIRST_ROW = (0, 5)
LAST_ROW = (5, 0)
FORWARD = (1, -1)
LINEUP = 9
WIN_ROW = 6
LOW_PIECES = 6
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def _owner(colour: str) -> int:
    return 0 if colour in SIDES[0] else 1


def _partner(colour: str) -> str:
    a, b = SIDES[_owner(colour)]
    return b if colour == a else a


@dataclass(frozen=True)
class CannonMove:
    """A set-up (nine pieces), or a turn: an optional reserve placed, a step, a capture."""

    lineup: tuple[tuple[str, int], ...] = ()
    reserve: tuple[str, int] | None = None
    step: tuple[int, int] | None = None
    capture: tuple[int, int] | None = None


@dataclass(frozen=True)
class CannonState:
    """The board, each player's reserves by colour, whose turn, who owes a reserve, the end."""

    board: tuple[str, ...] = ("",) * (N * N)
    reserves: tuple[tuple[int, int], tuple[int, int]] = ((PER_COLOUR,) * 2, (PER_COLOUR,) * 2)
    lined_up: int = 0
    turn: int = 0
    owes: tuple[bool, bool] = (False, False)
    captures: tuple[int, int] = (0, 0)
    winner: int | None = None


class CannonBallRules(Rules[CannonState, CannonMove]):
    """Cannon-Ball: step forward or sideways, then capture like a Chinese cannon.

    Notation: the set-up is ``lineup`` and nine pieces like ``Ra1 Bb2 ...``; a turn is an
    optional reserve ``+Ra1``, the step ``b2-c3`` and an optional capture ``d4xf6``. The sheet's
    ``capture`` parameter says whether any piece (default) or only the one that moved may
    capture. Scores count captures; the winner is decided by the far row or the pieces left.
    """

    game = "cannon-ball"
    notation = "lineup Ra1 Bb1 ... (nine pieces); then turns like +Ra1 b2-c3 d4xf6"

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        self.mover_only = sheet.spec.params["capture"] == "mover"

    def initial(self) -> CannonState:
        return CannonState()

    def to_move(self, state: CannonState) -> int | None:
        if state.winner is not None:
            return None
        return state.turn

    # -- what the board allows -------------------------------------------------------------

    @staticmethod
    def _steps(board: Sequence[str], player: int) -> Iterator[tuple[int, int]]:
        for k, colour in enumerate(board):
            if colour and _owner(colour) == player:
                row, col = divmod(k, N)
                for dr, dc in (
                    (FORWARD[player], -1),
                    (FORWARD[player], 0),
                    (FORWARD[player], 1),
                    (0, -1),
                    (0, 1),
                ):
                    r, c = row + dr, col + dc
                    if 0 <= r < N and 0 <= c < N and not board[r * N + c]:
                        yield (k, r * N + c)

    @staticmethod
    def _captures_from(board: Sequence[str], square: int) -> Iterator[tuple[int, int]]:
        colour = board[square]
        row, col = divmod(square, N)
        for dr, dc in DIRECTIONS:
            r, c = row + dr, col + dc
            screened = False
            while 0 <= r < N and 0 <= c < N:
                here = board[r * N + c]
                if here:
                    if not screened:
                        if here != _partner(colour):
                            break
                        screened = True
                    else:
                        if here == PREY[colour]:
                            yield (square, r * N + c)
                        break
                r, c = r + dr, c + dc

    def _captures(self, board: Sequence[str], player: int, moved: int) -> Iterator[tuple[int, int]]:
        pieces = (
            [moved]
            if self.mover_only
            else [k for k, c in enumerate(board) if c and _owner(c) == player]
        )
        for k in pieces:
            yield from self._captures_from(board, k)

    def _reserve_options(self, state: CannonState, player: int) -> list[tuple[str, int] | None]:
        if not state.owes[player]:
            return [None]
        free = [
            FIRST_ROW[player] * N + c
            for c in range(N)
            if not state.board[FIRST_ROW[player] * N + c]
        ]
        colours = [c for c, n in zip(SIDES[player], state.reserves[player], strict=True) if n]
        if not free or not colours:
            return [None]
        return [(c, k) for c in colours for k in free]

    def legal_moves(self, state: CannonState) -> Iterator[CannonMove]:
        player = self.to_move(state)
        if player is None:
            return
        if state.lined_up < 2:
            yield from self._lineups(player)
            return
        for reserve in self._reserve_options(state, player):
            board = list(state.board)
            if reserve is not None:
                board[reserve[1]] = reserve[0]
            for frm, to in self._steps(board, player):
                after = list(board)
                after[to], after[frm] = after[frm], ""
                yield CannonMove(reserve=reserve, step=(frm, to))
                for capture in self._captures(after, player, to):
                    yield CannonMove(reserve=reserve, step=(frm, to), capture=capture)

    def _lineups(self, player: int) -> Iterator[CannonMove]:
        home = [r * N + c for r in HOME_ROWS[player] for c in range(N)]
        a, b = SIDES[player]
        for spots in itertools.combinations(home, LINEUP):
            for colours in itertools.product((a, b), repeat=LINEUP):
                yield CannonMove(lineup=tuple(zip(colours, spots, strict=True)))

    def random_move(self, state: CannonState, rng: Rng) -> CannonMove:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        if state.lined_up < 2:
            home = [r * N + c for r in HOME_ROWS[player] for c in range(N)]
            spots = sorted(rng.sample(home, LINEUP))
            return CannonMove(lineup=tuple((rng.choice(SIDES[player]), k) for k in spots))
        # Mostly forward steps and captures: sideways steps alone can shuffle for ever.
        moves = list(self.legal_moves(state))
        onward = [
            m
            for m in moves
            if m.capture is not None
            or (m.step is not None and m.step[1] // N - m.step[0] // N == FORWARD[player])
        ]
        return rng.choice(onward if onward and rng.random() < 0.8 else moves)

    # -- playing a move --------------------------------------------------------------------

    def apply(self, state: CannonState, move: CannonMove) -> CannonState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        if state.lined_up < 2:
            return self._apply_lineup(state, player, move)
        if move.lineup or move.step is None:
            raise IllegalMove("lineups-done", "both sides are lined up: move a piece")
        board = list(state.board)
        reserves = [list(r) for r in state.reserves]
        options = self._reserve_options(state, player)
        if move.reserve is None and options != [None]:
            raise IllegalMove(
                "reserve-owed",
                "you lost a piece: first put a reserve on an empty square of your first row",
            )
        if move.reserve is not None:
            if move.reserve not in options:
                raise IllegalMove(
                    "bad-reserve",
                    f"no {move.reserve[0]} reserve can go to {SQUARES[move.reserve[1]]} now "
                    "(it must be one of your colours with reserves left, on your empty first row)",
                )
            colour, square = move.reserve
            board[square] = colour
            reserves[player][SIDES[player].index(colour)] -= 1
        frm, to = move.step
        if (frm, to) not in set(self._steps(board, player)):
            raise IllegalMove(
                "bad-step",
                f"{SQUARES[frm]}-{SQUARES[to]} is not a step of one of your pieces one square "
                "forward, diagonally forward or sideways to an empty square",
            )
        board[to], board[frm] = board[frm], ""
        captures = list(state.captures)
        owes = [False, False]
        owes[player] = False
        if move.capture is not None:
            if move.capture not in set(self._captures(board, player, to)):
                who = "the piece that moved" if self.mover_only else "one of your pieces"
                raise IllegalMove(
                    "bad-capture",
                    f"{SQUARES[move.capture[0]]}x{SQUARES[move.capture[1]]} is not a capture by "
                    f"{who}: it needs a straight line with exactly one piece of your other colour "
                    "between, and a victim of the colour it takes",
                )
            src, dst = move.capture
            board[dst], board[src] = board[src], ""
            captures[player] += 1
            owes[1 - player] = True
        winner = self._winner(board, player)
        after = CannonState(
            tuple(board),
            ((reserves[0][0], reserves[0][1]), (reserves[1][0], reserves[1][1])),
            state.lined_up,
            1 - player,
            (owes[0], owes[1]),
            (captures[0], captures[1]),
            winner,
        )
        if winner is None and next(self.legal_moves(after), None) is None:
            return dataclasses.replace(after, winner=player)
        return after

    def _apply_lineup(self, state: CannonState, player: int, move: CannonMove) -> CannonState:
        if not move.lineup:
            raise IllegalMove("lineup-first", "each side first lines up nine pieces")
        home = {r * N + c for r in HOME_ROWS[player] for c in range(N)}
        squares = [k for _, k in move.lineup]
        if len(move.lineup) != LINEUP or len(set(squares)) != LINEUP:
            raise IllegalMove("lineup-size", f"a line-up is {LINEUP} pieces on different squares")
        outside = [SQUARES[k] for k in squares if k not in home]
        if outside:
            rows = "-".join(str(r + 1) for r in HOME_ROWS[player])
            raise IllegalMove("lineup-rows", f"{outside[0]} is not on your home rows ({rows})")
        if any(c not in SIDES[player] for c, _ in move.lineup):
            raise IllegalMove("lineup-colour", f"your colours are {' and '.join(SIDES[player])}")
        board = list(state.board)
        reserves = list(state.reserves[player])
        for colour, k in move.lineup:
            board[k] = colour
            reserves[SIDES[player].index(colour)] -= 1
        both = list(state.reserves)
        both[player] = (reserves[0], reserves[1])
        return CannonState(tuple(board), (both[0], both[1]), state.lined_up + 1, 1 - player)

    @staticmethod
    def _winner(board: Sequence[str], player: int) -> int | None:
        far = LAST_ROW[player] * N
        if sum(1 for c in board[far : far + N] if c and _owner(c) == player) >= WIN_ROW:
            return player
        if sum(1 for c in board if c and _owner(c) != player) < LOW_PIECES:
            return player
        return None

    # -- notation --------------------------------------------------------------------------

    def parse_move(self, text: str, state: CannonState) -> CannonMove:
        words = text.split()
        if not words:
            raise MoveSyntaxError("the move is empty")
        if words[0].lower() == "lineup":
            pieces = []
            column = len(words[0]) + 2
            for word in words[1:]:
                colour = COLOUR_BY_WORD.get(word[:1].lower())
                if colour is None:
                    raise MoveSyntaxError(f"'{word}' is not a piece like Ra1 or Bb2", column)
                pieces.append((colour, _square(word[1:], column + 1)))
                column += len(word) + 1
            return CannonMove(lineup=tuple(pieces))
        reserve = step = capture = None
        column = 1
        for word in words:
            if word.startswith("+") and reserve is None and step is None:
                colour = COLOUR_BY_WORD.get(word[1:2].lower())
                if colour is None:
                    raise MoveSyntaxError(f"'{word}' is not a reserve like +Ra1", column)
                reserve = (colour, _square(word[2:], column + 2))
            elif "-" in word and step is None:
                a, _, b = word.partition("-")
                step = (_square(a, column), _square(b, column + len(a) + 1))
            elif "x" in word.lower() and step is not None and capture is None:
                a, _, b = word.lower().partition("x")
                capture = (_square(a, column), _square(b, column + len(a) + 1))
            else:
                raise MoveSyntaxError(
                    f"'{word}' does not fit: a turn is [+Ra1] b2-c3 [d4xf6]", column
                )
            column += len(word) + 1
        if step is None:
            raise MoveSyntaxError("a turn needs a step like b2-c3")
        return CannonMove(reserve=reserve, step=step, capture=capture)

    def format_move(self, move: CannonMove) -> str:
        if move.lineup:
            return "lineup " + " ".join(f"{LETTERS[c]}{SQUARES[k]}" for c, k in move.lineup)
        words = []
        if move.reserve is not None:
            words.append(f"+{LETTERS[move.reserve[0]]}{SQUARES[move.reserve[1]]}")
        if move.step is not None:
            words.append(f"{SQUARES[move.step[0]]}-{SQUARES[move.step[1]]}")
        if move.capture is not None:
            words.append(f"{SQUARES[move.capture[0]]}x{SQUARES[move.capture[1]]}")
        return " ".join(words)

    def scores(self, state: CannonState) -> tuple[int, ...]:
        return state.captures

    def winners(self, state: CannonState) -> list[int]:
        return [] if state.winner is None else [state.winner]


CANNON_BALL_RULES = CannonBallRules
