"""Klee's field, track and sequence areas: the geometry of the sheet, placed in the frame."""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import LineString, Polygon

from papergames.errors import FitError
from papergames.fonts import ASCENT, DESCENT, text_width
from papergames.layouts.klee.params import MAX_MEAN, MIN_SIDE, MIN_STEP
from papergames.sheets.compose import Frame
from papergames.sheets.model import Feature, Item, Kind, Layer, Style, Text
from papergames.sheets.rng import Rng
from papergames.sheets.score import LABEL

PLAYERS = 2


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


COORD_ROOM = 3.5
"""Extra clear band in mm between the field and the track on a labelled sheet: the grid
coordinates stand in it, clear of the field's heavy border and of the track."""

LANE = 7.0
"""Width in mm of one lane of the track."""


TRACK_GAP = 3.0
"""Distance in mm between the field and the track."""


NUMBER_SIZE = 2.5


NUMBER_CLEAR = 1.0
"""Distance in mm between the track's outer edge and its step numbers."""


NUMBER_ROOM = 4.2
"""Room in mm kept outside the track for its step numbers."""


START_LEN = 24.0
"""Length in mm of the start cell along the track's middle line."""


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


COLOURS = ("red", "yellow", "blue", "green")
"""The four shared pencils by name, in the order of the rules' R, Y, B, G: each has a colour
box ``box-legend-<name>`` under that name, so the photo reader learns the pencils themselves
(the players' own boxes only say which pencil marks each lane)."""


COLOUR_GAP = 5.0
"""Distance in mm between one colour's label and the next colour's box in the strip."""


COLOUR_LABEL_GAP = 1.5
"""Distance in mm between a colour box and its label."""


STRIP_GAP = 3.0
"""Distance in mm between the strip of colour boxes and player 1's end block."""


COLUMN_GAP = 5.0
"""Distance in mm between the track's step numbers and the column of colour boxes."""


COLUMN_STEP = 3.0
"""Distance in mm between a colour box and the next colour's label in the column."""


Point = tuple[float, float]


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


@dataclass(frozen=True)
class Plan:
    """Where everything goes on one page.

    Attributes:
        side: the field's side in mm; ``fx``, ``fy`` its top-left corner.
        q: side of a sequence space; ``block_w``, ``block_h`` the size of an end block.
        top_block, bottom_block: top-left corners of the players' end blocks.
        colours: how the four shared colour boxes stand: ``strip`` (in a row above player
            1's block) or ``column`` (one above the other beside the track).
        colours_at: the top-left corner of the strip or column.
        gap: the clear band between the field and the track (wider on a labelled sheet,
            which prints the grid coordinates there).
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
    colours: str = "strip"
    colours_at: Point = (0.0, 0.0)
    gap: float = TRACK_GAP


def label_line() -> float:
    """Height in mm of a line of colour-box label."""
    return (ASCENT + DESCENT) * LABEL


def strip_size() -> tuple[float, float]:
    """Width and height in mm of the strip: each box with its name to its right."""
    width = sum(LEGEND + COLOUR_LABEL_GAP + text_width(name, LABEL) for name in COLOURS)
    return width + COLOUR_GAP * (len(COLOURS) - 1), LEGEND


def column_size() -> tuple[float, float]:
    """Width and height in mm of the column: each box with its name centred over it."""
    width = max(LEGEND, *(text_width(name, LABEL) for name in COLOURS))
    step = label_line() + COLOUR_LABEL_GAP / 2 + LEGEND
    return width, len(COLOURS) * step + COLUMN_STEP * (len(COLOURS) - 1)


def ring_reach(gap: float = TRACK_GAP) -> float:
    """Distance from the field's edge to the outer edge of the track's numbers."""
    return gap + 2 * LANE + NUMBER_ROOM


def _field_side(most: float, n: int, steps: int, gap: float) -> float:
    """The field's side: the largest up to ``most`` mm, enlarged for a long track's steps.

    Raises:
        FitError: when the squares or the track steps would be too small.
    """
    side = min(most, MAX_MEAN * n)
    if side / n < MIN_MEAN:
        raise FitError(
            f"size={n} makes the spaces only {max(side, 0) / n:.1f} mm on this paper (at least "
            f"{MIN_MEAN:.1f} mm are needed): use a smaller size, portrait or larger paper"
        )
    # A long track round a small field: enlarge the field until the steps are long enough.
    while shortest_step(side, steps, gap) < MIN_STEP:
        if side >= most:
            raise FitError(
                f"track={steps} makes the track steps only "
                f"{shortest_step(most, steps, gap):.1f} mm "
                f"long round a size={n} field on this paper (at least {MIN_STEP:.0f} mm are "
                "needed): use a shorter track, a larger size or larger paper"
            )
        side = min(most, side + 1.0)
    return side


def plan_page(frame: Frame, n: int, areas: int, steps: int, gap: float = TRACK_GAP) -> Plan:
    """The largest field of ``n`` x ``n`` spaces the frame holds between the two end blocks.

    The four shared colour boxes take a strip above player 1's block or a column beside the
    track, whichever leaves the larger field: a strip costs height, which a portrait A4 page has
    a little of to spare, a column costs width, which a Letter page has (there the field is as
    large as the height allows). On a tie the strip wins, keeping the field centred.

    Raises:
        FitError: when the squares, the sequence spaces or the track steps would be too small.
    """
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
    reach = ring_reach(gap)
    strip_w, strip_h = strip_size()
    column_w, column_h = column_size()
    choices: list[tuple[float, str]] = []
    error: FitError | None = None
    for kind, most in (
        ("strip", min(f.w, room_h - strip_h - STRIP_GAP) - 2 * reach),
        ("column", min(f.w - column_w - COLUMN_GAP, room_h) - 2 * reach),
    ):
        try:
            side = _field_side(most, n, steps, gap)
        except FitError as exc:
            error = error or exc
            continue
        if kind == "column" and column_h > side + 2 * reach:
            continue
        choices.append((side, kind))
    if not choices:
        assert error is not None
        raise error
    side, kind = max(choices, key=lambda c: (c[0], c[1] == "strip"))
    bx = f.x + (f.w - block_w) / 2
    if kind == "strip":
        total_h = strip_h + STRIP_GAP + 2 * (block_h + BLOCK_GAP + reach) + side
        top = f.y + (f.h - total_h) / 2
        at = (f.x + (f.w - strip_w) / 2, top)
        top += strip_h + STRIP_GAP
        fx = f.x + (f.w - side) / 2
    else:
        total_h = 2 * (block_h + BLOCK_GAP + reach) + side
        top = f.y + (f.h - total_h) / 2
        group = side + 2 * reach + COLUMN_GAP + column_w
        fx = f.x + (f.w - group) / 2 + reach
    fy = top + block_h + BLOCK_GAP + reach
    if kind == "column":
        at = (fx + side + reach + COLUMN_GAP, fy + (side - column_h) / 2)
    return Plan(
        n,
        side,
        fx,
        fy,
        q,
        block_w,
        block_h,
        (bx, top),
        (bx, top + 2 * (block_h + BLOCK_GAP + reach) + side - block_h),
        kind,
        at,
        gap,
    )


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
    ring = Ring(plan.fx, plan.fy, plan.side, plan.gap + LANE)
    c = ring.length
    room = [c - START_LEN, c, c, c]
    counts = side_counts(steps, room)
    stretches = []
    for j, (r, k) in enumerate(zip(room, counts, strict=True)):
        first = c - r
        for i in range(k):
            stretches.append((j, first + i * r / k, first + (i + 1) * r / k))
    return ring, stretches


def shortest_step(side: float, steps: int, gap: float = TRACK_GAP) -> float:
    """Length along the middle line of the shortest step round a field of ``side`` mm."""
    c = side + 2 * (gap + LANE)
    room = [c - START_LEN, c, c, c]
    counts = side_counts(steps, room)
    return min(r / k for r, k in zip(room, counts, strict=True) if k)


def track_items(plan: Plan, steps: int) -> tuple[list[Item], dict[str, list[str]]]:
    """The start cell, the two lanes of ``steps`` boxes each, and the step numbers."""
    ring, stretches = track_layout(plan, steps)
    items: list[Item] = []
    g = plan.gap
    lanes = {1: (g + LANE, g + 2 * LANE), 2: (g, g + LANE)}
    # The start cell: each player's initials in their lane, the arrow between them.
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
        x, _ = ring.at(0, g + 2 * LANE - o1 + 1.2, o1)
        _, y = ring.at(0, 0.0, o1)
        _, y_in = ring.at(0, 0.0, o0)
        items.append(
            Text(
                f"letter-initials-{p}",
                x,
                (y + y_in) / 2 + 0.365 * 2.5,
                str(p),
                2.5,
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
        items.append(number_text(ring, k, j, (s0 + s1) / 2, k == steps or k % 5 == 0, g))
    return items, order


def number_text(
    ring: Ring, k: int, side: int, s: float, bold: bool, gap: float = TRACK_GAP
) -> Text:
    """Step k's number, just outside the track beside the step's middle."""
    out = gap + 2 * LANE + NUMBER_CLEAR
    x, y = ring.at(side, s, out)
    size = NUMBER_SIZE
    ident, text = f"track-number-{k}", str(k)
    if side == 0:
        return Text(ident, x, y, text, size, "middle", bold, Layer.SCORE)
    if side == 2:
        return Text(ident, x, y + 0.73 * size, text, size, "middle", bold, Layer.SCORE)
    anchor = "start" if side == 1 else "end"
    return Text(ident, x, y + 0.365 * size, text, size, anchor, bold, Layer.SCORE)
