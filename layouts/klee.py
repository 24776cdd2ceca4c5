"""Klee (Sid Sackson): a field of 12 x 12 spaces in the manner of Paul Klee's square paintings,
a two-lane scoring track around it, and each player's sequence areas at his end of the sheet.

The field keeps the topology of a regular grid while its squares vary in size: the column
widths and row heights are drawn at random (each at least 65 % of the mean), and every inner
grid line then wobbles gently, its crossing points shifted by a small, bounded amount. The
outline stays a square. Because every space is the quadrilateral between four crossing points,
each space shares an edge with the spaces before and after it in its row and column and only a
corner with its diagonal neighbours, whatever the seed; a space is at least
:data:`MIN_SIDE` mm across in both directions (so never under :data:`MIN_AREA` mm²).

The track runs clockwise round the field from a start cell at the top left. Its sides are cut
square across into ``track`` steps, the corners along their mitres, so no step bends round a
corner; the steps are spread over the four sides so that their lengths along the track's middle
line differ as little as possible (within 14 % for the default 30 steps), all steps of one side
being equal. Each step has an outer lane (player 1) and an inner lane (player 2): each player
marks his own points, one box per point. The start cell holds the two players' initials, one
either side of the start arrow, which points into step 1; the last step ends at the start cell.

Conventions the rules engine and the photo reader rely on:

* ``space-<n>``: the spaces row by row from the top, left to right within a row, so
  ``n = (row - 1) * size + col``; data ``{"row": r, "col": c}`` (1-based, row 1 at the top).
* ``line-1``: the field's outline (closed, through every crossing point on it);
  ``line-2`` .. ``line-<size>``: the inner vertical lines from the left; ``line-<size+1>`` ..
  ``line-<2 size - 1>``: the inner horizontal lines from the top. Data: ``axis`` and ``index``
  (the line's number counted from the left or top edge, 0 being the edge).
* ``box-track<p>-<k>``: step k (1 = next to the start arrow) of player p's lane (1 outer, 2
  inner); data ``{"player", "area": "track", "step"}``.
* ``box-initials-<p>``: player p's initials, in his lane of the start cell.
* ``box-seq<p>-<a>-<k>``: space k (1..3, left to right as player p sees it) of player p's
  sequence area a (1 = his leftmost); data ``{"player", "area": "seq", "sequence", "position",
  "standard"}``; ``standard`` is true for the middle four areas, the ones marked with an
  asterisk (texts ``asterisk-<p>-<a>``).
* ``box-legend-<p>``: player p colours it with the pencil he marks his lane of the track with.
* Page data: ``size``; ``rows``, ``columns`` (lists of space ids, left to right and top to
  bottom); ``diagonals``: every diagonal of the grid, first those running down to the right
  (from the lower-left one to the upper-right one) and then those running down to the left (from
  the top-left corner on), each listed from its top space, so every space lies on exactly one
  diagonal of each direction; ``track`` (player -> his lane's box ids in order), ``track_length``,
  ``start`` (the initials boxes), ``sequences`` (player -> areas -> box ids) and ``standard``
  (the numbers of the areas marked with an asterisk).

Player 1's areas are at the top of the page; player 2's are at the bottom, turned round to
face a player sitting at that end.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString, Polygon, box

from papergames.compose import Frame
from papergames.errors import FitError
from papergames.fonts import text_width
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import Feature, Item, Kind, Layer, Sheet, Style, Text
from papergames.params import Param, ParamSet
from papergames.rng import Rng
from papergames.rules import IllegalMove, MoveSyntaxError, Player, Rules

PLAYERS = 2
MIN_SIDE = 6.0
"""Least distance in mm across a space, in both directions: room for a pencil."""
MIN_AREA = MIN_SIDE * MIN_SIDE
"""Least area of a space in mm², implied by :data:`MIN_SIDE` (a space holds that square)."""
FLOOR = 0.65
"""Least column width or row height as a fraction of the mean."""
WEIGHT_LOW = 0.2
"""Least random weight of the width above the floor (the largest weight is 1)."""
WOBBLE = 0.09
"""Largest shift of a crossing point as a fraction of the mean square."""
MIN_MEAN = MIN_SIDE / FLOOR
"""Least mean side in mm of a square: below it the floor could not keep :data:`MIN_SIDE`."""
MAX_MEAN = 16.0
"""Largest mean side in mm of a square, so a mini-field does not turn into a poster."""

LANE = 7.0
"""Width in mm of one lane of the track."""
TRACK_GAP = 3.0
"""Distance in mm between the field and the track."""
NUMBER_SIZE = 2.2
NUMBER_CLEAR = 1.0
"""Distance in mm between the track's outer edge and its step numbers."""
NUMBER_ROOM = 4.2
"""Room in mm kept outside the track for its step numbers."""
START_LEN = 24.0
"""Length in mm of the start cell along the track's middle line."""
MIN_STEP = 8.0
"""Least length in mm of a track step along the middle line: room for a pencil mark."""
ARROW_SHAFT = 0.9
ARROW_HEAD = 3.6
ARROW_HALF = 2.2

Q_MAX = 9.0
"""Largest side in mm of a sequence space."""
Q_MIN = 5.5
"""Least side in mm of a sequence space."""
AREA_GAP = 0.6
"""Gap between two sequence areas as a fraction of a sequence space."""
LEGEND = 9.0
"""Side in mm of a player's track colour box: as large as the largest sequence space."""
LEGEND_GAP = 6.0
CAPTION = 2.8
STAR_SIZE = 5.0
STAR_ROOM = 3.8
"""Height in mm of the band over the sequence areas that holds the asterisks."""
BLOCK_GAP = 4.0
"""Distance in mm between an end block and the track's numbers."""
PAD = 0.5
"""Room in mm kept inside the frame for half strokes."""

Point = tuple[float, float]


# --- the field ---------------------------------------------------------------------------------


def spans(rng: Rng, n: int, total: float) -> list[float]:
    """``n`` random widths summing to ``total``, each at least :data:`FLOOR` of the mean.

    Example:
        >>> w = spans(Rng(1, "doc"), 12, 120.0)
        >>> round(sum(w), 9), min(w) >= 0.65 * 10.0 - 1e-9
        (120.0, True)
    """
    mean = total / n
    weights = [rng.uniform(WEIGHT_LOW, 1.0) for _ in range(n)]
    extra = total - n * FLOOR * mean
    scale = extra / sum(weights)
    return [FLOOR * mean + w * scale for w in weights]


def wobble(rng: Rng, n: int, amp: float) -> list[float]:
    """Shifts of the ``n + 1`` crossing points along one inner line: a gentle tilt plus noise.

    Each shift is at most ``amp`` in size, so neighbouring lines never come closer than their
    spacing less twice ``amp``.
    """
    a, b, bow = rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)
    out = []
    for j in range(n + 1):
        s = j / n
        shift = 0.55 * (a * (1 - s) + b * s) + 0.3 * bow * math.sin(math.pi * s)
        shift += 0.15 * rng.uniform(-1.0, 1.0)
        out.append(amp * max(-1.0, min(1.0, shift)))
    return out


@dataclass(frozen=True)
class Field:
    """The crossing points of the field's grid lines: ``points[i][j]`` is vertical line i
    (0 = left edge) crossing horizontal line j (0 = top edge)."""

    n: int
    points: list[list[Point]]

    def cell(self, r: int, c: int) -> Polygon:
        """The space in row r, column c (0-based from the top left), clockwise on the page."""
        p = self.points
        return Polygon([p[c][r], p[c + 1][r], p[c + 1][r + 1], p[c][r + 1]])

    def vertical(self, i: int) -> list[Point]:
        return [self.points[i][j] for j in range(self.n + 1)]

    def horizontal(self, j: int) -> list[Point]:
        return [self.points[i][j] for i in range(self.n + 1)]

    def outline(self) -> list[Point]:
        """Every crossing point on the outline, clockwise from the top-left corner, closed."""
        n = self.n
        top = self.horizontal(0)
        right = self.vertical(n)[1:]
        bottom = self.horizontal(n)[::-1][1:]
        left = self.vertical(0)[::-1][1:]
        return top + right + bottom + left


def make_field(rng: Rng, n: int, x: float, y: float, side: float) -> Field:
    """A Klee field of n x n spaces filling the square (x, y, side).

    Raises:
        FitError: if the mean square is under :data:`MIN_MEAN` (the caller checks first).
    """
    mean = side / n
    if mean < MIN_MEAN - 1e-9:
        raise FitError(f"squares of {mean:.1f} mm are too small for a pencil: use larger paper")
    amp = min(WOBBLE * mean, (FLOOR * mean - MIN_SIDE) / 2)
    widths = spans(rng.child("columns"), n, side)
    heights = spans(rng.child("rows"), n, side)
    xs = [x + sum(widths[:i]) for i in range(n + 1)]
    ys = [y + sum(heights[:j]) for j in range(n + 1)]
    xs[n], ys[n] = x + side, y + side
    dx = [[0.0] * (n + 1) for _ in range(n + 1)]
    dy = [[0.0] * (n + 1) for _ in range(n + 1)]
    lines = rng.child("wobble")
    for i in range(1, n):
        dx[i] = wobble(lines, n, amp)
    for j in range(1, n):
        shifts = wobble(lines, n, amp)
        for i in range(n + 1):
            dy[i][j] = shifts[i]
    points = [[(xs[i] + dx[i][j], ys[j] + dy[i][j]) for j in range(n + 1)] for i in range(n + 1)]
    return Field(n, points)


def grid_lines(n: int) -> dict[str, list[list[str]]]:
    """Rows, columns and diagonals of an n x n grid as lists of space ids, for the rules.

    Example:
        >>> lines = grid_lines(3)
        >>> lines["rows"][0], lines["columns"][0]
        (['space-1', 'space-2', 'space-3'], ['space-1', 'space-4', 'space-7'])
        >>> [d for d in lines["diagonals"] if len(d) == 3]
        [['space-1', 'space-5', 'space-9'], ['space-3', 'space-5', 'space-7']]
    """

    def sid(r: int, c: int) -> str:
        return f"space-{r * n + c + 1}"

    rows = [[sid(r, c) for c in range(n)] for r in range(n)]
    columns = [[sid(r, c) for r in range(n)] for c in range(n)]
    diagonals = []
    for d in range(-(n - 1), n):
        diagonals.append([sid(r, r + d) for r in range(n) if 0 <= r + d < n])
    for s in range(2 * n - 1):
        diagonals.append([sid(r, s - r) for r in range(n) if 0 <= s - r < n])
    return {"rows": rows, "columns": columns, "diagonals": diagonals}


# --- the track ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ring:
    """A square ring round the field, its sides cut square across.

    A place on the ring is (j, s, o): side j (0 top, 1 right, 2 bottom, 3 left, clockwise), the
    distance s along the side's share of the track's middle line (0 at the mitre the side starts
    from, :attr:`length` at the mitre it ends at) and the distance o out from the field's edge.
    Cuts at s = 0 and s = length follow the mitres; every other cut is square to the side.
    """

    x: float
    y: float
    side: float
    middle: float
    """Distance out from the field of the track's middle line."""

    @property
    def length(self) -> float:
        """Length of one side of the middle line."""
        return self.side + 2 * self.middle

    def corner(self, k: int, o: float) -> Point:
        x0, y0, x1, y1 = self.x - o, self.y - o, self.x + self.side + o, self.y + self.side + o
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)][k % 4]

    def at(self, j: int, s: float, o: float) -> Point:
        if s <= 0.0:
            return self.corner(j, o)
        if s >= self.length:
            return self.corner(j + 1, o)
        (ax, ay), (bx, by) = self.corner(j, self.middle), self.corner(j + 1, self.middle)
        u = s / self.length
        out = o - self.middle
        nx, ny = [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)][j]
        return ax + u * (bx - ax) + out * nx, ay + u * (by - ay) + out * ny

    def cell(self, j: int, s0: float, s1: float, o0: float, o1: float) -> Polygon:
        """The part of side j between s0 and s1 and between offsets o0 and o1."""
        return Polygon(
            [self.at(j, s0, o1), self.at(j, s1, o1), self.at(j, s1, o0), self.at(j, s0, o0)]
        )


def side_counts(steps: int, room: list[float]) -> list[int]:
    """Steps on each side: the split of ``steps`` whose longest and shortest steps differ least.

    Each side's steps share its room equally; the counts stay within one of the proportional
    share, so the search is small and bounded.

    Example:
        >>> side_counts(30, [139.0, 163.0, 163.0, 163.0])
        [6, 8, 8, 8]
    """
    total = sum(room)
    ranges = []
    for r in room:
        exact = steps * r / total
        low = max(1, math.floor(exact) - 1)
        ranges.append(range(low, math.ceil(exact) + 2))
    best: tuple[float, list[int]] | None = None
    for a in ranges[0]:
        for b in ranges[1]:
            for c in ranges[2]:
                d = steps - a - b - c
                if d not in ranges[3]:
                    continue
                counts = [a, b, c, d]
                lengths = [r / k for r, k in zip(room, counts, strict=True)]
                ratio = max(lengths) / min(lengths)
                if best is None or ratio < best[0] - 1e-12:
                    best = (ratio, counts)
    if best is None:
        raise AssertionError(f"no split of {steps} steps over the four sides")
    return best[1]


def arrow(tail: Point, tip: Point) -> Polygon:
    """A solid arrow from ``tail`` to ``tip`` (horizontal, pointing right)."""
    (x0, y), (x1, _) = tail, tip
    h = ARROW_SHAFT / 2
    base = x1 - ARROW_HEAD
    return Polygon(
        [
            (x0, y - h),
            (base, y - h),
            (base, y - ARROW_HALF),
            (x1, y),
            (base, y + ARROW_HALF),
            (base, y + h),
            (x0, y + h),
        ]
    )


# --- the plan ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """Where everything goes on one page.

    Attributes:
        side: the field's side in mm; ``fx``, ``fy`` its top-left corner.
        q: side of a sequence space; ``block_w``, ``block_h`` the size of an end block.
        top_block, bottom_block: top-left corners of the players' end blocks.
    """

    n: int
    side: float
    fx: float
    fy: float
    q: float
    block_w: float
    block_h: float
    top_block: Point
    bottom_block: Point


def ring_reach() -> float:
    """Distance from the field's edge to the outer edge of the track's numbers."""
    return TRACK_GAP + 2 * LANE + NUMBER_ROOM


def plan_page(frame: Frame, params: Mapping[str, Any]) -> Plan:
    """The largest field the frame holds between the two end blocks.

    Raises:
        FitError: when the squares, the sequence spaces or the track steps would be too small.
    """
    n: int = params["size"]
    areas: int = params["areas"]
    steps: int = params["track"]
    f = frame.inset(PAD)
    q = min(Q_MAX, (f.w - LEGEND_GAP - LEGEND) / (3 * areas + AREA_GAP * (areas - 1)))
    if q < Q_MIN:
        raise FitError(
            f"areas={areas} makes the sequence spaces only {q:.1f} mm wide on this paper (at "
            f"least {Q_MIN} mm are needed): use fewer areas or larger paper"
        )
    block_w = 3 * areas * q + AREA_GAP * q * (areas - 1) + LEGEND_GAP + LEGEND
    block_h = CAPTION + 1.0 + STAR_ROOM + max(q, LEGEND)
    room_h = f.h - 2 * (block_h + BLOCK_GAP)
    reach = ring_reach()
    most = min(f.w, room_h) - 2 * reach
    side = min(most, MAX_MEAN * n)
    if side / n < MIN_MEAN:
        raise FitError(
            f"size={n} makes the spaces only {max(side, 0) / n:.1f} mm on this paper (at least "
            f"{MIN_MEAN:.1f} mm are needed): use a smaller size, portrait or larger paper"
        )
    # A long track round a small field: enlarge the field until the steps are long enough.
    while shortest_step(side, steps) < MIN_STEP:
        if side >= most:
            raise FitError(
                f"track={steps} makes the track steps only {shortest_step(most, steps):.1f} mm "
                f"long round a size={n} field on this paper (at least {MIN_STEP:.0f} mm are "
                "needed): use a shorter track, a larger size or larger paper"
            )
        side = min(most, side + 1.0)
    total_h = 2 * (block_h + BLOCK_GAP + reach) + side
    top = f.y + (f.h - total_h) / 2
    fy = top + block_h + BLOCK_GAP + reach
    fx = f.x + (f.w - side) / 2
    bx = f.x + (f.w - block_w) / 2
    return Plan(
        n,
        side,
        fx,
        fy,
        q,
        block_w,
        block_h,
        (bx, top),
        (bx, top + total_h - block_h),
    )


# --- building ----------------------------------------------------------------------------------


def field_items(fld: Field) -> list[Item]:
    """The spaces and the lines that draw them."""
    n = fld.n
    items: list[Item] = []
    for r in range(n):
        for c in range(n):
            items.append(
                Feature(
                    f"space-{r * n + c + 1}",
                    Kind.SPACE,
                    fld.cell(r, c),
                    data={"row": r + 1, "col": c + 1},
                )
            )
    outline = fld.outline()
    items.append(
        Feature(
            "line-1",
            Kind.LINE,
            LineString([*outline, outline[0]]),
            Style.HEAVY,
            data={"axis": "perimeter", "index": 0},
        )
    )
    number = 2
    for i in range(1, n):
        items.append(
            Feature(
                f"line-{number}",
                Kind.LINE,
                LineString(fld.vertical(i)),
                Style.LIGHT,
                data={"axis": "vertical", "index": i},
            )
        )
        number += 1
    for j in range(1, n):
        items.append(
            Feature(
                f"line-{number}",
                Kind.LINE,
                LineString(fld.horizontal(j)),
                Style.LIGHT,
                data={"axis": "horizontal", "index": j},
            )
        )
        number += 1
    return items


def track_layout(plan: Plan, steps: int) -> tuple[Ring, list[tuple[int, float, float]]]:
    """The ring and, for every step in order, its side and its stretch (s0, s1) on that side.

    The start cell takes the first :data:`START_LEN` mm of the top side; the steps share the
    rest, each side's steps of one length, the counts in proportion to the room.
    """
    ring = Ring(plan.fx, plan.fy, plan.side, TRACK_GAP + LANE)
    c = ring.length
    room = [c - START_LEN, c, c, c]
    counts = side_counts(steps, room)
    stretches = []
    for j, (r, k) in enumerate(zip(room, counts, strict=True)):
        first = c - r
        for i in range(k):
            stretches.append((j, first + i * r / k, first + (i + 1) * r / k))
    return ring, stretches


def shortest_step(side: float, steps: int) -> float:
    """Length along the middle line of the shortest step round a field of ``side`` mm."""
    c = side + 2 * (TRACK_GAP + LANE)
    room = [c - START_LEN, c, c, c]
    counts = side_counts(steps, room)
    return min(r / k for r, k in zip(room, counts, strict=True) if k)


def track_items(plan: Plan, steps: int) -> tuple[list[Item], dict[str, list[str]]]:
    """The start cell, the two lanes of ``steps`` boxes each, and the step numbers."""
    ring, stretches = track_layout(plan, steps)
    items: list[Item] = []
    g = TRACK_GAP
    lanes = {1: (g + LANE, g + 2 * LANE), 2: (g, g + LANE)}
    # The start cell: each player's initials in his lane, the arrow between them.
    for p, (o0, o1) in lanes.items():
        items.append(
            Feature(
                f"box-initials-{p}",
                Kind.BOX,
                ring.cell(0, 0.0, START_LEN, o0, o1),
                Style.BOX_HEAVY,
                Layer.SCORE,
                data={"player": p, "area": "initials"},
            )
        )
        # Just inside the lane's mitred left end, clear of the arrow on the lane divider.
        x, _ = ring.at(0, TRACK_GAP + 2 * LANE - o1 + 1.2, o1)
        _, y = ring.at(0, 0.0, o1)
        _, y_in = ring.at(0, 0.0, o0)
        items.append(
            Text(
                f"letter-initials-{p}",
                x,
                (y + y_in) / 2 + 0.365 * 2.4,
                str(p),
                2.4,
                bold=True,
                layer=Layer.SCORE,
            )
        )
    tail = ring.at(0, LANE + 4.0, g + LANE)
    tip = ring.at(0, START_LEN, g + LANE)
    items.append(Feature("mark-start-arrow", Kind.MARK, arrow(tail, tip), Style.SOLID, Layer.SCORE))
    sx, sy = ring.at(0, START_LEN / 2 + LANE / 2, g + 2 * LANE)
    items.append(Text("caption-start", sx, sy - NUMBER_CLEAR, "start", NUMBER_SIZE, "middle", True))
    order: dict[str, list[str]] = {"1": [], "2": []}
    for k, (j, s0, s1) in enumerate(stretches, start=1):
        for p, (o0, o1) in lanes.items():
            ident = f"box-track{p}-{k}"
            order[str(p)].append(ident)
            items.append(
                Feature(
                    ident,
                    Kind.BOX,
                    ring.cell(j, s0, s1, o0, o1),
                    Style.BOX,
                    Layer.SCORE,
                    data={"player": p, "area": "track", "step": k},
                )
            )
        items.append(number_text(ring, k, j, (s0 + s1) / 2, k == steps or k % 5 == 0))
    return items, order


def number_text(ring: Ring, k: int, side: int, s: float, bold: bool) -> Text:
    """Step k's number, just outside the track beside the step's middle."""
    out = TRACK_GAP + 2 * LANE + NUMBER_CLEAR
    x, y = ring.at(side, s, out)
    size = NUMBER_SIZE
    ident, text = f"track-number-{k}", str(k)
    if side == 0:
        return Text(ident, x, y, text, size, "middle", bold, Layer.SCORE)
    if side == 2:
        return Text(ident, x, y + 0.73 * size, text, size, "middle", bold, Layer.SCORE)
    anchor = "start" if side == 1 else "end"
    return Text(ident, x, y + 0.365 * size, text, size, anchor, bold, Layer.SCORE)


def standard_areas(areas: int) -> list[int]:
    """The middle four of ``areas`` areas (numbered from 1): the standard game's.

    Example:
        >>> standard_areas(6), standard_areas(4), standard_areas(7)
        ([2, 3, 4, 5], [1, 2, 3, 4], [2, 3, 4, 5])
    """
    first = (areas - 4) // 2 + 1
    return list(range(first, first + 4))


def block_items(
    plan: Plan, p: int, areas: int, corner: Point, turned: bool
) -> tuple[list[Item], list[list[str]]]:
    """Player p's end block: his sequence areas, the asterisks and his colour box.

    The block is laid out as the player sees it; ``turned`` turns it half round on the page.
    """
    w, h, q = plan.block_w, plan.block_h, plan.q
    cx, cy = corner

    def at(x: float, y: float) -> Point:
        return (cx + w - x, cy + h - y) if turned else (cx + x, cy + y)

    def rect(x0: float, y0: float, x1: float, y1: float) -> Polygon:
        (ax, ay), (bx, by) = at(x0, y0), at(x1, y1)
        return box(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))

    def text(ident: str, x: float, y: float, s: str, size: float, anchor: str, bold: bool) -> Text:
        px, py = at(x, y)
        return Text(ident, px, py, s, size, anchor, bold, Layer.SCORE, angle=180.0 if turned else 0)

    items: list[Item] = []
    standard = standard_areas(areas)
    caption = f"player {p}: scoring sequences (standard game: the areas marked *)"
    room = w - LEGEND_GAP - LEGEND
    size = min(CAPTION, room / max(text_width(caption, 1.0), 1e-9))
    items.append(text(f"caption-seq-{p}", 0.0, CAPTION * 0.76, caption, size, "start", False))
    top = CAPTION + 1.0 + STAR_ROOM
    row_top = top + max(q, LEGEND) - q
    ids: list[list[str]] = []
    x = 0.0
    for a in range(1, areas + 1):
        area_ids = []
        for k in range(1, 4):
            ident = f"box-seq{p}-{a}-{k}"
            area_ids.append(ident)
            items.append(
                Feature(
                    ident,
                    Kind.BOX,
                    rect(x + (k - 1) * q, row_top, x + k * q, row_top + q),
                    Style.BOX_HEAVY,
                    Layer.SCORE,
                    data={
                        "player": p,
                        "area": "seq",
                        "sequence": a,
                        "position": k,
                        "standard": a in standard,
                    },
                )
            )
        if a in standard:
            items.append(
                text(
                    f"asterisk-{p}-{a}",
                    x + 1.5 * q,
                    row_top - 0.1 * STAR_SIZE,
                    "*",
                    STAR_SIZE,
                    "middle",
                    True,
                )
            )
        ids.append(area_ids)
        x += 3 * q + AREA_GAP * q
    lx = w - LEGEND
    items.append(
        Feature(
            f"box-legend-{p}",
            Kind.BOX,
            rect(lx, top, lx + LEGEND, top + LEGEND),
            Style.BOX_HEAVY,
            Layer.SCORE,
            data={"player": p, "area": "legend"},
        )
    )
    items.append(text(f"caption-legend-{p}", w, top - 1.0, "track colour", 2.2, "end", False))
    return items, ids


class KleeLayout(Layout):
    """Klee: a 12 x 12 field of uneven squares, a two-lane track round it, sequence areas."""

    name = "klee"
    params = ParamSet(
        [
            Param.int("size", 12, 4, 14, "spaces along each side of the field"),
            Param.int("track", 30, 10, 60, "steps on the scoring track (points needed to win)"),
            Param.int("areas", 6, 4, 8, "sequence areas per player; the middle four are starred"),
        ]
    )
    how_to_play = """\
Material: the sheet and four coloured pencils, shared by both players: no colour belongs to \
either player. Player 1 sits at the top of the sheet, player 2 at the bottom; each has a row \
of sequence areas (three spaces each) at his end. Each writes his initials in his lane at the \
start of the track, beside the arrow: player 1 uses the outer lane, player 2 the inner one. \
Pick a pencil for marking your lane and colour the box marked "track colour" at your end with \
it.

Sequences: the standard game uses only the four areas marked with an asterisk; experienced \
players may agree to use them all. The players fill their starred areas alternately, player 1 \
first, each working from his own left. First area: three different colours, in an order of \
your choosing. Second area: three different colours again, but not the same three: bring in \
the colour you left out and drop one of the others. Third area: two colours, the two end \
spaces alike (such as A B A). Fourth area: two colours with alike ends again, but not the same \
pair of colours as your third (one of them may return). Never copy a sequence your opponent \
already holds, forwards or backwards. When the outer areas are used too, the players agree how \
to fill them (our suggestion: any three colours that copy no sequence already on the \
sheet).

Play: player 1 colours any space of the field with any colour. Player 2 then colours a space \
touching it along an edge or at a corner. From then on, each turn, a player colours any empty \
space that touches at least one coloured space, again in any colour he likes.

Scoring: when the space you colour completes one of your sequences on three neighbouring \
spaces in a row, a column or a diagonal, read in either direction, you score a point. Every \
sequence completed at once scores, also the same sequence in two places. Your opponent's \
sequences score nothing for you. Mark each point in your lane of the track, one box per point, \
starting at the arrow.

Winning: the first to reach the last box of the track wins; for a shorter game agree to stop \
the track at an earlier box. A player who is five or more points ahead at any moment wins at \
once. If the field is full first, the player ahead wins (equal scores: a draw).

Variation: several sequences completed by one move score a triangular number of points: 2 \
sequences score 3, 3 score 6, 4 score 10, 5 score 15, 6 score 21, 7 score 28 and 8 score 36 (k \
sequences score k(k+1)/2). Play it without the five-point rule.
"""

    def notes(self) -> list[str]:
        return [
            f"every space is at least {MIN_SIDE:g} mm across; the squares' mean side is capped "
            f"at {MAX_MEAN:g} mm, and a long track round a small field enlarges the field so "
            f"that each step is at least {MIN_STEP:g} mm long",
            "areas above 6 add experts' areas on both sides; the middle four are always starred",
        ]

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = ctx.params
        n: int = params["size"]
        steps: int = params["track"]
        areas: int = params["areas"]
        plan = plan_page(ctx.frame, params)
        fld = make_field(ctx.rng("field"), n, plan.fx, plan.fy, plan.side)
        items = field_items(fld)
        track, order = track_items(plan, steps)
        items.extend(track)
        sequences: dict[str, list[list[str]]] = {}
        for p, corner, turned in ((1, plan.top_block, False), (2, plan.bottom_block, True)):
            block, ids = block_items(plan, p, areas, corner, turned)
            items.extend(block)
            sequences[str(p)] = ids
        field = box(plan.fx, plan.fy, plan.fx + plan.side, plan.fy + plan.side)
        data: dict[str, Any] = {"size": n, **grid_lines(n)}
        data.update(
            {
                "track": order,
                "track_length": steps,
                "start": [f"box-initials-{p}" for p in range(1, PLAYERS + 1)],
                "sequences": sequences,
                "standard": standard_areas(areas),
            }
        )
        subtitle = f"{n * n} spaces · a track of {steps} steps · form your sequences in any line"
        return [PageBody(items, subtitle, field, data)]


LAYOUT = KleeLayout()


# --- rules ------------------------------------------------------------------------------------

KLEE_COLOURS = ("R", "Y", "B", "G")
"""The four pencils, shared by both players: red, yellow, blue, green."""
STANDARD_SEQUENCES = 4
LEAD_TO_WIN = 5


def table_points(formed: int) -> int:
    """Points for ``formed`` sequences made by one move in the table variation: k(k+1)/2.

    Example:
        >>> [table_points(k) for k in range(1, 9)]
        [1, 3, 6, 10, 15, 21, 28, 36]
    """
    return formed * (formed + 1) // 2


def _same_sequence(a: str, b: str) -> bool:
    """Sequences are read in either direction, so a reversed copy is the same sequence."""
    return a == b or a == b[::-1]


@dataclass(frozen=True)
class KleeState:
    """The sequences set so far (player 1's and 2's in turn), the field, scores, the winner."""

    sequences: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    field: tuple[str, ...] = ()
    scores: tuple[int, int] = (0, 0)
    turn: int = 0
    winner: tuple[int, ...] | None = None


class KleeRules(Rules[KleeState, tuple[int, str]]):
    """Klee: set up colour sequences, then colour spaces and score one's sequences in lines.

    Moves: in the set-up a sequence of three colour letters (``RYB``; move = (-1, "RYB"));
    afterwards a space and a colour, ``space-17 R`` (move = (space index, "R")). The colours
    are R, Y, B and G. Options: ``all_areas`` (the experienced game: six sequences each) and
    ``table`` (the variation: k sequences at once score k(k+1)/2, no five-point lead win).
    The track's length (the sheet's ``track``) is the winning score.
    """

    game = "klee"
    notation = "set-up: three colour letters (RYB); play: space-17 R (colours R, Y, B, G)"
    options = ParamSet(
        [
            Param.bool("all_areas", False, "use all six sequence areas (experienced players)"),
            Param.bool("table", False, "several sequences at once score a triangular number"),
        ]
    )

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        page = sheet.pages[0]
        features = list(page.features(Kind.SPACE))
        self.ids = [f.id for f in features]
        self.index = {f.id: k for k, f in enumerate(features)}
        self.per_player = (
            len(page.data["standard"]) if self.option_values["all_areas"] else STANDARD_SEQUENCES
        )
        self.goal: int = page.data["track_length"]
        lines = [*page.data["rows"], *page.data["columns"], *page.data["diagonals"]]
        self.triples: list[list[tuple[int, int, int]]] = [[] for _ in self.ids]
        for line in lines:
            ks = [self.index[i] for i in line]
            for a, b, c in zip(ks, ks[1:], ks[2:], strict=False):
                for k in (a, b, c):
                    self.triples[k].append((a, b, c))
        self.touching = [sorted(self.index[n] for n in page.topology.touching(i)) for i in self.ids]

    def initial(self) -> KleeState:
        return KleeState(field=("",) * len(self.ids))

    def _setting_up(self, state: KleeState) -> bool:
        return len(state.sequences[1]) < self.per_player

    def to_move(self, state: KleeState) -> int | None:
        if state.winner is not None:
            return None
        return state.turn

    # -- set-up ----------------------------------------------------------------------------

    def _sequence_problem(self, state: KleeState, player: int, seq: str) -> str | None:
        """Why ``seq`` cannot be this player's next sequence, or ``None``."""
        own = state.sequences[player]
        number = len(own) + 1
        if len(seq) != 3 or set(seq) - set(KLEE_COLOURS):
            return f"a sequence is three of the colours {', '.join(KLEE_COLOURS)}"
        other = state.sequences[1 - player]
        if any(_same_sequence(seq, s) for s in other):
            return "it copies a sequence of the opponent (read either way)"
        if number in (1, 2):
            if len(set(seq)) != 3:
                return f"sequence {number} uses three different colours"
            if number == 2 and set(seq) == set(own[0]):
                return "sequence 2 brings in the colour sequence 1 left out"
        elif number in (3, 4):
            if seq[0] != seq[2] or seq[0] == seq[1]:
                return f"sequence {number} uses two colours, the two ends alike"
            if number == 4 and set(seq) == set(own[2]):
                return "sequence 4 may not use the same two colours as sequence 3"
        elif any(_same_sequence(seq, s) for s in own):
            return "it repeats one of your own sequences"
        return None

    def _all_sequences(self) -> Iterator[str]:
        for a in KLEE_COLOURS:
            for b in KLEE_COLOURS:
                for c in KLEE_COLOURS:
                    yield a + b + c

    # -- play ------------------------------------------------------------------------------

    def _open_spaces(self, state: KleeState) -> Iterator[int]:
        coloured = [k for k, c in enumerate(state.field) if c]
        if not coloured:
            yield from range(len(self.ids))
            return
        for k, c in enumerate(state.field):
            if not c and any(state.field[n] for n in self.touching[k]):
                yield k

    def legal_moves(self, state: KleeState) -> Iterator[tuple[int, str]]:
        player = self.to_move(state)
        if player is None:
            return
        if self._setting_up(state):
            for seq in self._all_sequences():
                if self._sequence_problem(state, player, seq) is None:
                    yield (-1, seq)
            return
        for k in self._open_spaces(state):
            for colour in KLEE_COLOURS:
                yield (k, colour)

    def _formed(self, field: Sequence[str], space: int, sequences: Sequence[str]) -> int:
        """How many of ``sequences`` the colouring of ``space`` completes, each place counted."""
        count = 0
        for a, b, c in self.triples[space]:
            if field[a] and field[b] and field[c]:
                read = field[a] + field[b] + field[c]
                count += sum(1 for s in set(sequences) if _same_sequence(read, s))
        return count

    def apply(self, state: KleeState, move: tuple[int, str]) -> KleeState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        space, text = move
        if self._setting_up(state):
            if space != -1:
                raise IllegalMove("set-up", "first both players set their sequences")
            why = self._sequence_problem(state, player, text)
            if why is not None:
                raise IllegalMove("bad-sequence", f"{text} cannot be set: {why}")
            seqs = list(state.sequences)
            seqs[player] = (*seqs[player], text)
            return KleeState((seqs[0], seqs[1]), state.field, state.scores, 1 - player)
        if space == -1:
            raise IllegalMove("play", "the sequences are set: colour a space")
        name = self.ids[space]
        if state.field[space]:
            raise IllegalMove("coloured", f"{name} is already coloured")
        if space not in set(self._open_spaces(state)):
            raise IllegalMove(
                "not-touching", f"{name} touches no coloured space, along a side or at a corner"
            )
        field = list(state.field)
        field[space] = text
        formed = self._formed(field, space, state.sequences[player])
        gained = table_points(formed) if self.option_values["table"] else formed
        scores = list(state.scores)
        scores[player] += gained
        winner: tuple[int, ...] | None = None
        reached = scores[player] >= self.goal
        ahead = scores[player] - scores[1 - player] >= LEAD_TO_WIN
        if reached or (ahead and not self.option_values["table"]):
            winner = (player,)
        elif all(field):
            best = max(scores)
            winner = tuple(p for p in (0, 1) if scores[p] == best)
        return KleeState(state.sequences, tuple(field), (scores[0], scores[1]), 1 - player, winner)

    def parse_move(self, text: str, state: KleeState) -> tuple[int, str]:
        words = text.split()
        if len(words) == 1 and len(words[0]) == 3:
            return (-1, words[0].upper())
        if len(words) != 2:
            raise MoveSyntaxError("a move is a sequence (RYB) or a space and a colour (space-17 R)")
        key = words[0].lower() if words[0].lower().startswith("space-") else f"space-{words[0]}"
        if key not in self.index:
            raise MoveSyntaxError(f"'{words[0]}' is not a space (space-1 .. space-{len(self.ids)})")
        colour = words[1].upper()
        if colour not in KLEE_COLOURS:
            raise MoveSyntaxError(
                f"'{words[1]}' is not one of the colours {', '.join(KLEE_COLOURS)}",
                len(words[0]) + 2,
            )
        return (self.index[key], colour)

    def format_move(self, move: tuple[int, str]) -> str:
        return move[1] if move[0] == -1 else f"{self.ids[move[0]]} {move[1]}"

    def scores(self, state: KleeState) -> tuple[int, ...]:
        return state.scores

    def winners(self, state: KleeState) -> list[int]:
        return [] if state.winner is None else list(state.winner)


RULES = KleeRules
