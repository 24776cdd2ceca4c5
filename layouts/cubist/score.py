"""Cubist's final-scoring pad: installation values, museum dice, totals and tiebreak."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString, box

from papergames.errors import FitError
from papergames.fonts import ASCENT, text_width
from papergames.layouts.cubist.common import NOTE, fit_size
from papergames.layouts.cubist.params import SCORE_PARAMS, ScoreParams
from papergames.sheets.compose import Frame
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import Feature, Item, Kind, Layer, Style, Text
from papergames.sheets.names import initials
from papergames.sheets.score import printed_names

BOX_MAX = 11.0
"""Side in mm of a score box when the page has room (as on every papergames score area)."""


BOX_MIN = 7.0
"""Least side in mm of a score box: two handwritten digits still fit."""


LEFT_GAP = 1.5
"""Gap between the initials and the colour box."""


BLOCK_GAP = 4.0


SIGN_W = 11.0
"""Room in mm for a sign between boxes (``+ 2 ×``, ``=``)."""


PAD_GAP = 7.0
"""Gap in mm between two pads; the cut line runs through its middle."""


HEAD_ROOM = 5.0


CAPTION_SIZE = 2.5


CAPTION_LINE = 3.2


ROW_GAP = 1.0


NOTE_ROOM = 4.0
"""Room in mm under the rows for the tie rule."""


@dataclass(frozen=True)
class _PadPlan:
    """Sizes of one pad: the box side, the row's width and the pad's height."""

    side: float
    width: float
    height: float


def _pad_width(side: float, installations: int) -> float:
    return (
        2 * side
        + LEFT_GAP
        + BLOCK_GAP
        + installations * side
        + SIGN_W
        + side
        + SIGN_W / 1.5
        + side
        + BLOCK_GAP
        + side
    )


def _pad_height(side: float, players: int) -> float:
    return HEAD_ROOM + 2 * CAPTION_LINE + players * side + (players - 1) * ROW_GAP + NOTE_ROOM


def plan_pads(frame: Frame, players: int, installations: int, games: int) -> _PadPlan:
    """The largest box side (up to 11 mm, at least 7 mm) at which the pads fit the frame.

    Raises:
        FitError: when even 7 mm boxes do not fit.
    """
    side = BOX_MAX
    while side >= BOX_MIN - 1e-9:
        width = _pad_width(side, installations)
        height = games * _pad_height(side, players) + (games - 1) * PAD_GAP
        if width <= frame.w - 1.0 and height <= frame.h - 1.0:
            return _PadPlan(side, width, _pad_height(side, players))
        side -= 0.25
    raise FitError(
        f"{games} pads of {players} players with {installations} installation boxes do not "
        f"fit this paper with boxes of at least {BOX_MIN:g} mm: use fewer games or "
        "installations, or other paper or orientation"
    )


class CubistScoreLayout(Layout):
    """A final-scoring pad: installations, museum dice (x2), total and tiebreak per player."""

    name = "cubist-score"
    param_shape = ScoreParams
    how_to_play = """\
Final scoring in Cubist, by Steven Poelzing and Alf Seegert (2013), a published dice game for \
2 to 4 players. This pad is a play aid for owners of the game.

When the game ends, each player writes the value of every installation card they completed, face \
up or face down, one per box. Then they write the number of dice they placed in the museum. \
Their total is the sum of the installation values plus two points for each museum die.

The highest total wins. On a tie, the tied player with more dice in the museum wins. If that \
is equal too, they share the victory. Tick the winner's box. A page may hold two or four pads \
for a session; cut them apart along the dashes.
"""

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = SCORE_PARAMS.read(ScoreParams, ctx.params)
        players, installations, games = params.players, params.installations, params.games
        frame = ctx.frame
        plan = plan_pads(frame, players, installations, games)
        total_h = games * plan.height + (games - 1) * PAD_GAP
        x = frame.x + (frame.w - plan.width) / 2
        y = frame.y + (frame.h - total_h) / 2
        items: list[Item] = []
        for g in range(1, games + 1):
            items += self.pad(g, players, installations, plan, x, y)
            if g < games:
                cut_y = y + plan.height + PAD_GAP / 2
                items.append(
                    Feature(
                        f"mark-cut-{g}",
                        Kind.MARK,
                        LineString([(frame.x + 0.2, cut_y), (frame.right - 0.2, cut_y)]),
                        Style.CUT,
                        Layer.SCORE,
                    )
                )
            y += plan.height + PAD_GAP
        data: dict[str, Any] = {
            "players": players,
            "installations": installations,
            "games": games,
            "box": plan.side,
        }
        subtitle = "total = installation values + 2 × museum dice · tie: more museum dice wins"
        return [PageBody(items, subtitle, None, data)]

    def pad(
        self, g: int, players: int, installations: int, plan: _PadPlan, x: float, y: float
    ) -> list[Item]:
        """One pad with its top-left corner at (x, y): heading, captions, a row per player."""
        items: list[Item] = []
        head = f"Game {g}"
        items.append(Text(f"pad-head-{g}", x, y + ASCENT * 3.6, head, 3.6, bold=True))
        date = "date ______________   museum plan ______________"
        dx = x + text_width(head, 3.6, bold=True) + 6.0
        date_size = fit_size(date, x + plan.width - dx, 2.6)
        items.append(Text(f"pad-date-{g}", dx, y + ASCENT * 3.6, date, date_size))
        columns = PadColumns.at(x, plan.side, installations)
        cap_y = y + HEAD_ROOM
        items += pad_captions(g, columns, cap_y)
        top = cap_y + 2 * CAPTION_LINE
        s = plan.side
        for p in range(1, players + 1):
            n = (g - 1) * players + p
            items += player_row(columns, n, top + (p - 1) * (s + ROW_GAP), {"pad": g, "player": p})
        rule = (
            "Tie: the tied player with more museum dice wins; the same number too: they share "
            "the win."
        )
        ny = top + players * s + (players - 1) * ROW_GAP + 1.2 + ASCENT * NOTE
        items.append(
            Text(f"pad-note-{g}", x, ny, rule, fit_size(rule, plan.width, NOTE), layer=Layer.SCORE)
        )
        return items


@dataclass(frozen=True)
class PadColumns:
    """The left edge of each column of a pad, and the box side they were spaced for."""

    side: float
    installations: int
    initials: float
    legend: float
    installation: float
    plus: float
    museum: float
    equals: float
    total: float
    winner: float

    @classmethod
    def at(cls, x: float, side: float, installations: int) -> PadColumns:
        """Columns for a pad whose left edge is at ``x``."""
        legend = x + side + LEFT_GAP
        installation = legend + side + BLOCK_GAP
        plus = installation + installations * side
        museum = plus + SIGN_W
        equals = museum + side
        total = equals + SIGN_W / 1.5
        winner = total + side + BLOCK_GAP
        return cls(
            side, installations, x, legend, installation, plus, museum, equals, total, winner
        )


CAPTIONS = {
    "initials": ("player", None),
    "legend": ("colour", None),
    "installation": (
        "values of completed installation cards",
        "(face up and face down), one per box",
    ),
    "museum": ("museum dice", "(tiebreak)"),
    "total": ("total", None),
    "winner": ("won", None),
}
"""Each column's caption and, for some, a second line under it."""


def pad_captions(g: int, columns: PadColumns, cap_y: float) -> list[Item]:
    """The column captions of pad ``g``, each fitted to the width its column leaves."""
    s = columns.side
    limits = {
        "initials": s + LEFT_GAP,
        "legend": s + BLOCK_GAP,
        "installation": columns.installations * s + SIGN_W - 1.0,
        "museum": s + SIGN_W / 1.5 - 1.0,
        "total": s + BLOCK_GAP,
        "winner": s + 1.0,
    }
    items: list[Item] = []
    for area, (text, more) in CAPTIONS.items():
        cx = getattr(columns, area)
        size = fit_size(text, limits[area], CAPTION_SIZE)
        y = cap_y + ASCENT * CAPTION_SIZE
        items.append(Text(f"caption-{area}-{g}", cx, y, text, size, layer=Layer.SCORE))
        if more is not None:
            size = fit_size(more, limits[area], CAPTION_SIZE)
            y = cap_y + CAPTION_LINE + ASCENT * CAPTION_SIZE
            items.append(Text(f"caption2-{area}-{g}", cx, y, more, size, layer=Layer.SCORE))
    return items


def player_row(columns: PadColumns, n: int, ry: float, meta: dict[str, int]) -> list[Item]:
    """Player row ``n`` (counted over the page's pads) with its top at ``ry``."""
    s = columns.side
    items: list[Item] = []

    def square(ident: str, bx: float, style: Style, area: str, **more: Any) -> None:
        square = box(bx, ry, bx + s, ry + s)
        data = {**meta, "area": area, **more}
        items.append(Feature(ident, Kind.BOX, square, style, Layer.SCORE, data=data))

    square(f"box-initials-{n}", columns.initials, Style.BOX_HEAVY, "initials")
    square(f"box-legend-{n}", columns.legend, Style.BOX_HEAVY, "legend")
    for k in range(1, columns.installations + 1):
        bx = columns.installation + (k - 1) * s
        square(f"box-installation{n}-{k}", bx, Style.BOX, "installation", index=k)
    square(f"box-museum-{n}", columns.museum, Style.BOX_HEAVY, "museum")
    square(f"box-total-{n}", columns.total, Style.BOX_HEAVY, "total")
    square(f"box-winner-{n}", columns.winner, Style.BOX, "winner")
    letter = min(2.6, 0.3 * s)
    letter_y = ry + 0.6 + ASCENT * letter
    names = printed_names()
    seat = meta.get("player", 0)
    mark_x = initials(names[seat - 1])[:2] if 0 < seat <= len(names) else "X"
    for area, mark in (("initials", mark_x), ("total", "T")):
        bx = getattr(columns, area) + 0.8
        items.append(
            Text(f"letter-{area}-{n}", bx, letter_y, mark, letter, bold=True, layer=Layer.SCORE)
        )
    mid = ry + s / 2 + 0.36 * 3.4
    signs = (
        ("plus", columns.plus + SIGN_W / 2, "+ 2 ×", 3.0),
        ("equals", columns.equals + SIGN_W / 3, "=", 3.4),
    )
    for name, sx, sign, size in signs:
        items.append(
            Text(f"sign-{name}-{n}", sx, mid, sign, size, "middle", bold=True, layer=Layer.SCORE)
        )
    return items


SCORE = CubistScoreLayout()
