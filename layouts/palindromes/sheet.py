"""The Palindromic Card Game's record sheet: the rows of cards, the finds, the score lines."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shapely.geometry import box

from papergames.errors import FitError, SpecError
from papergames.fonts import text_width
from papergames.layouts.palindromes.params import PARAMS, PLAYERS, PalindromesParams
from papergames.play.example import Example
from papergames.sheets.compose import Frame
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import INKS, Feature, Item, Kind, Layer, Style, Text
from papergames.sheets.score import (
    BIG,
    CAPTION,
    CAPTION_BASE,
    CAPTION_SIZE,
    score_area,
    score_area_height,
)

CARD_MAX = 9.0
"""Largest side in mm of a card box: larger only stretches the rows."""
CARD_COMFORT = 6.0
"""Card boxes at least this wide are preferred to fewer, longer lines."""
CARD_MIN = 5.0
"""Least side in mm of a card box: a handwritten letter still fits."""
MAX_LINES = 4
NUMBER_SIZE = 2.5
"""Em size of the position numbers over the card boxes."""
NUMBER_ROOM = 3.0
"""Height in mm kept over each line of card boxes for its numbers."""
LINE_GAP = 1.5
"""Gap in mm between two lines of one row of cards."""
ROW_GAP = 5.0
"""Gap in mm between the two players' rows of cards."""
NAME_SIZE = 3.2
NAME_ROOM = 20.0
"""Width in mm kept left of the card rows for the player's name."""
HEAD_SIZE = 3.4
NOTE_SIZE = 2.5
COLUMN_GAP = 12.0
SLOT_W = 19.5
"""Least width in mm of a found-palindrome box: its number, two handwritten positions, a dash."""
SLOT_MAX = 26.0
SLOT_H = 7.5
SLOT_INDEX = 4.0
"""Room in mm at the left inside a found box for its small number."""
SLOT_GAP_X = 2.5
SLOT_GAP_Y = 1.5
SECTION_GAP = 7.0
SIGN_ROOM = 7.0
"""Width in mm between two boxes of the score line for the minus or equals sign."""
PAD = INKS[Style.BOX_HEAVY].stroke / 2


def found_boxes(params: PalindromesParams) -> int:
    """Boxes per row for found palindromes: the parameter, or two thirds of the cards."""
    return params.found if params.found else math.ceil(2 * params.cards / 3)


@dataclass(frozen=True)
class _Rows:
    """How the rows of cards are set: ``lines`` lines of ``per_line`` boxes of side ``side``."""

    lines: int
    per_line: int
    side: float

    @property
    def height(self) -> float:
        """Height of one player's row of cards, numbers included."""
        return self.lines * (NUMBER_ROOM + self.side) + (self.lines - 1) * LINE_GAP


def _rows(cards: int, width: float) -> _Rows:
    """The fewest lines that give comfortable boxes, or else the largest boxes that fit.

    Raises:
        FitError: when even the largest boxes are under :data:`CARD_MIN`.
    """
    options = []
    for lines in range(1, MAX_LINES + 1):
        per = math.ceil(cards / lines)
        lines_used = math.ceil(cards / per)
        side = min(CARD_MAX, (width - 2 * PAD) / per)
        options.append(_Rows(lines_used, per, side))
        if side >= CARD_COMFORT:
            return options[-1]
    best = max(options, key=lambda r: r.side)
    if best.side < CARD_MIN:
        raise FitError(
            f"cards={cards} makes the card boxes only {best.side:.1f} mm wide on this paper, "
            f"but they must be at least {CARD_MIN:g} mm to write a letter in: use fewer cards"
        )
    return best


def _fit(text: str, width: float, size: float, bold: bool = False) -> float:
    """The largest size up to ``size`` at which ``text`` fits in ``width`` mm."""
    return min(size, width / max(text_width(text, 1.0, bold), 1e-9))


class _Builder:
    """Places every part of the sheet inside the frame, top to bottom."""

    def __init__(self, frame: Frame, cards: int, found: int) -> None:
        self.frame = frame
        self.cards = cards
        self.found = found
        self.items: list[Item] = []
        self.rows = _rows(cards, frame.w - NAME_ROOM)
        self.column_w = (frame.w - COLUMN_GAP) / 2
        per = int((self.column_w - 2 * PAD + SLOT_GAP_X) // (SLOT_W + SLOT_GAP_X))
        if per < 1:
            raise FitError("the page is too narrow for the boxes of found palindromes")
        self.slots_per_line = per
        room = self.column_w - 2 * PAD - (per - 1) * SLOT_GAP_X
        self.slot_w = min(SLOT_MAX, room / per)
        self.slot_lines = math.ceil(found / per)
        self.score_h = score_area_height(0, self.column_w)

    def height(self) -> float:
        """Total height of the sheet's content."""
        cards = HEAD_SIZE + 2.0 + PLAYERS * self.rows.height + (PLAYERS - 1) * ROW_GAP
        slots = self.slot_lines * SLOT_H + (self.slot_lines - 1) * SLOT_GAP_Y
        column = HEAD_SIZE + 1.5 + NOTE_SIZE + 2.0 + slots + SECTION_GAP + self.score_h
        return cards + SECTION_GAP + column + 2 * PAD

    def build(self) -> tuple[list[Item], tuple[float, float, float, float]]:
        """Every item, and the outline of the card rows (the field)."""
        total = self.height()
        while total > self.frame.h + 1e-9 and self.rows.side - 0.25 >= CARD_COMFORT:
            self.rows = dataclasses.replace(self.rows, side=self.rows.side - 0.25)
            total = self.height()
        if total > self.frame.h + 1e-9:
            raise FitError(
                f"found={self.found} boxes per row with cards={self.cards} need "
                f"{total:.0f} mm of height but the page has {self.frame.h:.0f} mm: use fewer "
                "found boxes or fewer cards"
            )
        y = self.frame.y + (self.frame.h - total) / 2 + PAD
        field, y = self._card_rows(y)
        y += SECTION_GAP
        for p in range(1, PLAYERS + 1):
            x = self.frame.x + (p - 1) * (self.column_w + COLUMN_GAP)
            self._found_column(p, x, y)
        return self.items, field

    def _card_rows(self, top: float) -> tuple[tuple[float, float, float, float], float]:
        f, rows = self.frame, self.rows
        head = "Rows of cards: write R for a red card and B for a black one, in order"
        size = _fit(head, f.w, HEAD_SIZE, bold=True)
        self.items.append(Text("head-cards", f.x, top + 0.76 * size, head, size, bold=True))
        y = top + HEAD_SIZE + 2.0
        row_w = rows.per_line * rows.side
        x0 = f.x + NAME_ROOM + (f.w - NAME_ROOM - row_w) / 2
        first = y
        for p in range(1, PLAYERS + 1):
            name_y = y + NUMBER_ROOM + rows.side / 2 + 0.365 * NAME_SIZE
            self.items.append(
                Text(f"name-cards-{p}", x0 - 2.5, name_y, f"player {p}", NAME_SIZE, "end", True)
            )
            for k in range(1, self.cards + 1):
                line, col = divmod(k - 1, rows.per_line)
                bx = x0 + col * rows.side
                by = y + line * (NUMBER_ROOM + rows.side + LINE_GAP) + NUMBER_ROOM
                self.items.append(
                    Feature(
                        f"box-cards{p}-{k}",
                        Kind.BOX,
                        box(bx, by, x0 + (col + 1) * rows.side, by + rows.side),
                        Style.BOX,
                        Layer.FIELD,
                        data={"player": p, "area": "cards", "position": k},
                    )
                )
                self.items.append(
                    Text(
                        f"position{p}-{k}",
                        bx + rows.side / 2,
                        by - 0.8,
                        str(k),
                        NUMBER_SIZE,
                        "middle",
                        bold=k % 5 == 0,
                    )
                )
            y += rows.height + ROW_GAP
        last = y - ROW_GAP
        field = (x0, first + NUMBER_ROOM, x0 + row_w, last)
        return field, last

    def _found_column(self, p: int, x: float, top: float) -> None:
        w = self.column_w
        head = f"Palindromes found in player {p}'s row"
        size = _fit(head, w, HEAD_SIZE - 0.2, bold=True)
        self.items.append(Text(f"head-found-{p}", x, top + 0.76 * size, head, size, bold=True))
        note = "first and last position of one place it occurs, like 4 – 9"
        note_size = _fit(note, w, NOTE_SIZE)
        y = top + HEAD_SIZE + 1.5
        self.items.append(Text(f"note-found-{p}", x, y + 0.76 * note_size, note, note_size))
        y += NOTE_SIZE + 2.0
        per = self.slots_per_line
        for k in range(1, self.found + 1):
            line, col = divmod(k - 1, per)
            bx = x + PAD + col * (self.slot_w + SLOT_GAP_X)
            sy = y + line * (SLOT_H + SLOT_GAP_Y)
            self.items.append(
                Text(
                    f"found-index{p}-{k}",
                    bx + 0.8,
                    sy + 0.7 + 0.76 * NUMBER_SIZE,
                    str(k),
                    NUMBER_SIZE,
                    layer=Layer.SCORE,
                )
            )
            self.items.append(
                Feature(
                    f"box-found{p}-{k}",
                    Kind.BOX,
                    box(bx, sy, bx + self.slot_w, sy + SLOT_H),
                    Style.BOX,
                    Layer.SCORE,
                    data={"player": p, "area": "found", "slot": k},
                )
            )
            self.items.append(
                Text(
                    f"found-dash{p}-{k}",
                    bx + (SLOT_INDEX + self.slot_w) / 2,
                    sy + SLOT_H / 2 + 0.3 * NOTE_SIZE,
                    "–",
                    NOTE_SIZE,
                    "middle",
                )
            )
        y += self.slot_lines * SLOT_H + (self.slot_lines - 1) * SLOT_GAP_Y + SECTION_GAP
        self._score_line(p, x + PAD, y, w - 2 * PAD)

    def _score_line(self, p: int, x: float, y: float, width: float) -> None:
        """Initials, colour, red cards - palindromes = score, for the owner of row p."""
        area = score_area(p, x, y, width, 0, label=f"player {p}", total_caption="score")
        self.items.extend(area.items)
        top = y + area.height - BIG
        total_x = x + width - BIG
        pal_x = total_x - SIGN_ROOM - BIG
        reds_x = pal_x - SIGN_ROOM - BIG
        for name, bx, caption in (
            ("reds", reds_x, "red cards"),
            ("palindromes", pal_x, "palindromes"),
        ):
            self.items.append(
                Feature(
                    f"box-{name}-{p}",
                    Kind.BOX,
                    box(bx, top, bx + BIG, top + BIG),
                    Style.BOX_HEAVY,
                    Layer.SCORE,
                    data={"player": p, "area": name},
                )
            )
            self.items.append(
                Text(
                    f"caption-{name}-{p}",
                    bx,
                    top - 1.0 - CAPTION + CAPTION_BASE,
                    caption,
                    CAPTION_SIZE,
                    layer=Layer.SCORE,
                )
            )
        for ident, sx, sign in (("minus", pal_x, "−"), ("equals", total_x, "=")):
            self.items.append(
                Text(
                    f"sign-{ident}-{p}",
                    sx - SIGN_ROOM / 2,
                    top + BIG / 2 + 0.3 * 5.0,
                    sign,
                    5.0,
                    "middle",
                    bold=True,
                    layer=Layer.SCORE,
                )
            )


EXAMPLE = Example(
    transcript="""\
sheet: palindromes cards=12 seed=3
players: Ann (red), Bob (blue)
Ann: R B B R R B B B R B B R
Bob: R B R R B R B R B R B R
Ann: found R RR RBR 6-10 RBRBRBR
Bob: found R RR RBBR 5-9
claim: Ann score 1
claim: Bob score 2
""",
    text="""\
The red cards are marked: Ann's row on top (hatched), Bob's below (grey). Ann finds five \
different palindromes in Bob's row, such as RBRBR on cards 6 to 10 (line 3). Bob finds four in \
Ann's row, such as RBBBR on cards 5 to 9 (line 4). Ann scores 5 red cards minus 4, which is 1 \
point. Bob scores 7 minus 5, which is 2.""",
    marks=(
        ("box-cards1-1", "box-cards1-4", "box-cards1-5", "box-cards1-9", "box-cards1-12"),
        (
            "box-cards2-1",
            "box-cards2-3",
            "box-cards2-4",
            "box-cards2-6",
            "box-cards2-8",
            "box-cards2-10",
            "box-cards2-12",
        ),
        ("box-cards2-6/box-cards2-10",),
        ("box-cards1-5/box-cards1-9",),
    ),
)


class PalindromesLayout(Layout):
    """A record sheet: two rows of card boxes, found palindromes, and the score lines."""

    name = "palindromes"
    param_shape = PalindromesParams
    how_to_play = """\
Cards: Use an even number of cards, half red and half black; only the colour counts. A full \
deck gives 26 of each: hearts and diamonds are red, spades and clubs black. Each player gets \
half the cards and lays them face up in one row, in any order they like. Write each row on the \
sheet, R for red and B for black.

Palindromes: Each player then looks for palindromes in the other player's row. Here a \
palindrome is a run of consecutive cards, side by side, that starts and ends with a red card. \
It reads the same forwards and backwards by colour, such as R, RR, RBR or RBBR. A single red \
card counts too. Only distinct patterns count: a pattern found twice counts once. Palindromes \
may overlap.

Scoring: Your score is the number of red cards in your row, minus the number of distinct \
palindromes found in it. It never goes below zero. The higher score wins. On the sheet, write \
each palindrome found as the places of its first and last card.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """A row of n cards holds at most n distinct palindromes: refuse more found boxes."""
        typed = PARAMS.read(PalindromesParams, params)
        if typed.found > typed.cards:
            raise SpecError(
                f"found={typed.found} is more than cards={typed.cards}: a row holds "
                "no more distinct palindromes than it has cards"
            )

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = PARAMS.read(PalindromesParams, ctx.params)
        cards, found = params.cards, found_boxes(params)
        builder = _Builder(ctx.frame, cards, found)
        items, (x0, y0, x1, y1) = builder.build()
        data: dict[str, Any] = {
            "cards": cards,
            "found": found,
            "lines": builder.rows.lines,
            "per_line": builder.rows.per_line,
            "card_box": builder.rows.side,
        }
        subtitle = f"{cards} cards in each row · score = red cards − palindromes found"
        return [PageBody(items, subtitle, box(x0, y0, x1, y1), data)]


LAYOUT = PalindromesLayout()
