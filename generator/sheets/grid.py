"""Square n-by-n grids for the grid games: squares, grid lines, vertices and their coordinates.

The grid games (Uncooked Spaghetti, "Maze" of Polygonal Sections, Co-Compositeness) all print a
square grid with coordinates around it and score rows beside or under it. This module plans
the page (the grid as large as the frame allows, refusing squares too small for a pencil) and
builds the features, so the three layouts share one convention.

Coordinates, chess style:

* Squares: columns ``a, b, c, ...`` from left to right, rows ``1, 2, 3, ...`` from the bottom
  up; square ``a1`` is the bottom-left one. As on a go board the letter i is left out (``h`` is
  followed by ``j``), because a capital I beside digits reads as a 1 (``I8`` or ``18``?); after
  ``z`` come ``aa, ab, ...``.
* Vertices (where grid lines meet): named by their grid lines in capitals. The ``n + 1``
  vertical lines are ``A, B, C, ...`` from the left edge, the ``n + 1`` horizontal lines
  ``1, 2, 3, ...`` from the bottom edge. So vertex ``C4`` is the lower-left corner of square
  ``c4``, ``A1`` is the grid's bottom-left corner and, for n = 8, ``J9`` its top-right one.
  Capitals keep a vertex apart from a square in a transcript.

How the labels are printed, chosen per game by :class:`GridLook`:

* square coordinates: at the middle of each column and row, on the sides the game asks for;
* ``vertex_labels="lines"``: the letter of each vertical line at its ends (top and bottom) and
  the number of each horizontal line at its ends (left and right), as on a go board;
* ``vertex_labels="edges"``: the full name of every vertex on the perimeter printed beside it,
  the corners above or below the grid; square coordinates then go in a band further out.

Ids (numbering starts at 1 and never depends on the paper):

* ``space-<k>``: the squares, row by row from the bottom row, left to right within a row, so
  ``k = (row - 1) * n + column``; data ``{"col": c, "row": r, "name": "c4"}``.
* ``line-1``: the perimeter, one closed line. ``line-2`` .. ``line-<n>``: the inner vertical
  lines from left to right; ``line-<n+1>`` .. ``line-<2n-1>``: the inner horizontal lines from
  the bottom up. Data: ``axis`` (perimeter, vertical, horizontal) and ``index`` (the line's
  letter or number as a vertex column or row).
* ``point-<name>``: the vertices the game asks for (every vertex, or those on the perimeter),
  row by row from the bottom, left to right; data ``{"col", "row", "name", "edges"}`` where
  ``edges`` lists the sides of the grid the vertex lies on (a corner lies on two).
* Texts: ``coord-<side>-<k>`` for square coordinates, ``vline-<side>-<k>`` for vertex line
  labels, ``vname-<name>`` for vertex names.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypedDict

from shapely.geometry import LineString, Point, Polygon, box

from papergames.errors import FitError
from papergames.fonts import text_width
from papergames.sheets.bounds import DOT_RADIUS, text_box
from papergames.sheets.compose import Frame
from papergames.sheets.model import INKS, Feature, Item, Kind, Layer, Style, Text
from papergames.sheets.score import BIG, SPACING, score_area, score_area_height

SIDES = ("bottom", "top", "left", "right")

MIN_LABEL = 2.5
"""Smallest em size in mm of a coordinate label (7.1 pt): legible at 100 % and in a photocopy."""
MAX_LABEL = 3.5
LABEL_RATIO = 0.3
"""Label size as a fraction of the square's side, between the two bounds above."""
CAP_MIDDLE = 0.365
"""Half the height of capitals and digits as a fraction of the em: centres a label on a line."""
CLEAR = 1.0
"""Distance in mm between the grid's ink and the first band of labels."""
BAND_GAP = 1.4
"""Distance in mm between two bands of labels on one side."""
LABEL_GAP = 0.8
"""Least distance in mm between two labels side by side in one band."""
FIELD_GAP = 6.0
"""Distance in mm between the labelled grid and the score rows."""
SCORE_GAP = 4.0
"""Distance in mm between two score rows one above the other."""
SCORE_COL_GAP = 12.0
"""Distance in mm between two score rows side by side: wider than the gaps inside a row."""
SCORE_WIDTH = 3 * BIG + 2 * SPACING + 4.0
"""Width of a score row without tally boxes: initials, colour, a gap, total."""
EDGE_SLACK = 0.05
"""Distance in mm kept from the frame's edge, so rounding never puts ink on the fiducial gap."""
SCORE_PAD = INKS[Style.BOX_HEAVY].stroke / 2
"""How far the outline of a score row's boxes reaches past the row's nominal rectangle."""


ALPHABET = "abcdefghjklmnopqrstuvwxyz"
"""Column letters: the alphabet without i, which as a capital beside digits reads as a 1."""


def column_letters(column: int) -> str:
    """The letters of a column (1-based): a .. h, j .. z (no i), then aa, ab, ... .

    Example:
        >>> [column_letters(k) for k in (1, 8, 9, 25, 26, 27, 50, 51)]
        ['a', 'h', 'j', 'z', 'aa', 'ab', 'az', 'ba']
    """
    if column < 1:
        raise ValueError(f"column numbers start at 1, not {column}")
    base = len(ALPHABET)
    letters = ""
    while column:
        column, rest = divmod(column - 1, base)
        letters = ALPHABET[rest] + letters
    return letters


def cell_name(column: int, row: int) -> str:
    """The name of a square, like ``c4``."""
    return f"{column_letters(column)}{row}"


def vertex_name(column: int, row: int) -> str:
    """The name of a vertex by its grid lines, like ``C4`` (the lower-left corner of ``c4``)."""
    return f"{column_letters(column).upper()}{row}"


def vertex_edges(n: int, column: int, row: int) -> tuple[str, ...]:
    """The sides of an n-by-n grid a vertex lies on: none inside, two at a corner."""
    edges = []
    if row == 1:
        edges.append("bottom")
    if row == n + 1:
        edges.append("top")
    if column == 1:
        edges.append("left")
    if column == n + 1:
        edges.append("right")
    return tuple(edges)


class SquareData(TypedDict):
    """What a square (space) carries: its column and row from 1, and its printed name (``c4``)."""

    col: int
    row: int
    name: str


class VertexData(TypedDict):
    """What a vertex (point) carries: its grid column and row from 1, its name (``C4``), and the
    sides of the outline it lies on (none for an inner vertex)."""

    col: int
    row: int
    name: str
    edges: list[str]


@dataclass(frozen=True)
class GridLook:
    """How one game wants its grid drawn and labelled.

    Attributes:
        min_cell: least side of a square in mm; below it the sheet is refused.
        purpose: what the squares must be large enough for, for the refusal message.
        lines: style of the inner grid lines.
        perimeter: style of the grid's outline.
        cell_sides: the sides along which square coordinates are printed.
        vertex_labels: ``none``, ``lines`` (line letters and numbers, go style) or ``edges``
            (full names of the perimeter vertices).
        points: which vertices become ``point-`` features: ``none``, ``edges`` or ``all``.
        point_style: ``Style.NONE`` (invisible) or a style that draws each point as a dot.
        max_cell: largest side of a square in mm, so a small grid does not turn into a poster.
        param: the parameter named when the grid does not fit.
    """

    min_cell: float
    purpose: str
    lines: Style = Style.LIGHT
    perimeter: Style = Style.MEDIUM
    cell_sides: tuple[str, ...] = ("bottom", "left")
    vertex_labels: str = "none"
    points: str = "none"
    point_style: Style = Style.NONE
    max_cell: float = 30.0
    param: str = "size"

    def __post_init__(self) -> None:
        if self.vertex_labels not in ("none", "lines", "edges"):
            raise ValueError(f"unknown vertex_labels {self.vertex_labels!r}")
        if self.points not in ("none", "edges", "all"):
            raise ValueError(f"unknown points {self.points!r}")
        if any(side not in SIDES for side in self.cell_sides):
            raise ValueError(f"unknown side in {self.cell_sides!r}")


@dataclass(frozen=True)
class GridPlan:
    """Where the grid and the score rows go on one page.

    Attributes:
        n: squares per side.
        x, y: the grid's top-left corner in page mm.
        cell: side of a square in mm.
        label_size: em size of the coordinate labels.
        turned: whether the vertex names above and below the grid read upwards (small squares).
        scores: top-left corners of the players' score rows.
        score_width: width of a score row.
    """

    n: int
    x: float
    y: float
    cell: float
    label_size: float
    turned: bool
    scores: tuple[tuple[float, float], ...]
    score_width: float

    @property
    def side(self) -> float:
        return self.n * self.cell

    def vx(self, column: int) -> float:
        """Page x of vertical grid line ``column`` (1 = left edge)."""
        return self.x + (column - 1) * self.cell

    def vy(self, row: int) -> float:
        """Page y of horizontal grid line ``row`` (1 = bottom edge)."""
        return self.y + (self.n + 1 - row) * self.cell

    @property
    def outline(self) -> Polygon:
        """The grid's outer square: the playing field."""
        return box(self.x, self.y, self.x + self.side, self.y + self.side)

    def facts(self) -> dict[str, object]:
        """Page data for the rules engine and the photo reader."""
        return {
            "size": self.n,
            "cell": self.cell,
            "grid": {"left": self.x, "top": self.y, "side": self.side},
            "squares": "columns a.. left to right, rows 1.. bottom to top; space-k = (row-1)*n+col",
            "vertices": "lines A.. left to right, 1.. bottom to top; vertex C4 = lower-left of c4",
        }


# --- labels -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Band:
    """One band of labels along a side: texts at positions along the edge, in squares.

    Positions along the bottom and top count from the left edge, along the left and right sides
    from the bottom edge; a vertex sits at a whole number, a square's middle at a half.
    """

    side: str
    kind: str
    labels: tuple[tuple[str, str, float], ...]
    """(id, text, position) for each label."""


def _bands(n: int, look: GridLook) -> dict[str, list[_Band]]:
    """The bands of labels on each side, innermost first."""
    bands: dict[str, list[_Band]] = {side: [] for side in SIDES}
    if look.vertex_labels == "lines":
        for side in ("bottom", "top"):
            labels = tuple(
                (f"vline-{side}-{k}", column_letters(k).upper(), k - 1.0) for k in range(1, n + 2)
            )
            bands[side].append(_Band(side, "vertex", labels))
        for side in ("left", "right"):
            labels = tuple((f"vline-{side}-{k}", str(k), k - 1.0) for k in range(1, n + 2))
            bands[side].append(_Band(side, "vertex", labels))
    elif look.vertex_labels == "edges":
        for side, row in (("bottom", 1), ("top", n + 1)):
            labels = tuple(
                (f"vname-{vertex_name(k, row)}", vertex_name(k, row), k - 1.0)
                for k in range(1, n + 2)
            )
            bands[side].append(_Band(side, "names", labels))
        for side, column in (("left", 1), ("right", n + 1)):
            labels = tuple(
                (f"vname-{vertex_name(column, k)}", vertex_name(column, k), k - 1.0)
                for k in range(2, n + 1)
            )
            bands[side].append(_Band(side, "names", labels))
    for side in look.cell_sides:
        if side in ("bottom", "top"):
            labels = tuple(
                (f"coord-{side}-{k}", column_letters(k), k - 0.5) for k in range(1, n + 1)
            )
        else:
            labels = tuple((f"coord-{side}-{k}", str(k), k - 0.5) for k in range(1, n + 1))
        bands[side].append(_Band(side, "cell", labels))
    return bands


def _first_offset(look: GridLook, side: str) -> float:
    """Distance from the grid's edge to its first band: past the outline's ink and any dot."""
    reach = INKS[look.perimeter].stroke / 2
    if look.points != "none" and look.point_style != Style.NONE:
        reach = max(reach, DOT_RADIUS)
    return reach + CLEAR


def _widest(band: _Band, size: float) -> float:
    return max(text_width(text, size) for _, text, _ in band.labels)


def _turn(band: _Band, size: float, cell: float) -> bool:
    """Whether a band above or below the grid must read upwards to keep its labels apart."""
    return (
        band.side in ("bottom", "top")
        and band.kind != "cell"
        and _widest(band, size) + LABEL_GAP > cell
    )


def _label_texts(
    n: int, x: float, y: float, cell: float, size: float, turned: bool, look: GridLook
) -> list[Text]:
    """Every coordinate label for a grid whose top-left corner is (x, y)."""
    side_len = n * cell
    texts: list[Text] = []
    all_bands = _bands(n, look)
    for side, bands in all_bands.items():
        offset = _first_offset(look, side)
        if side in ("left", "right") and look.vertex_labels == "lines":
            offset = max(offset, _corner_reach(all_bands, side, size) + LABEL_GAP)
        for band in bands:
            turn = turned and band.side in ("bottom", "top") and band.kind != "cell"
            thick = _widest(band, size) if turn or side in ("left", "right") else size
            for ident, text, pos in band.labels:
                if side == "bottom":
                    px, edge = x + pos * cell, y + side_len + offset
                    if turn:
                        item = Text(ident, px + CAP_MIDDLE * size, edge, text, size, "end")
                        item = _turned(item)
                    else:
                        item = Text(ident, px, edge + 0.76 * size, text, size, "middle")
                elif side == "top":
                    px, edge = x + pos * cell, y - offset
                    if turn:
                        item = _turned(Text(ident, px + CAP_MIDDLE * size, edge, text, size))
                    else:
                        item = Text(ident, px, edge - 0.24 * size, text, size, "middle")
                else:
                    py = y + side_len - pos * cell + CAP_MIDDLE * size
                    if side == "left":
                        item = Text(ident, x - offset, py, text, size, "end")
                    else:
                        item = Text(ident, x + side_len + offset, py, text, size)
                texts.append(item)
            offset += thick + BAND_GAP
    return texts


def _corner_reach(bands: dict[str, list[_Band]], side: str, size: float) -> float:
    """How far the letters at a corner reach sideways past the left or right edge.

    With go-style labels the line letters above and below a corner are centred on it, so the
    numbers beside it start past them instead of colliding.
    """
    reach = 0.0
    for edge in ("bottom", "top"):
        for band in bands[edge][:1]:
            _, text, _ = band.labels[0] if side == "left" else band.labels[-1]
            reach = max(reach, text_width(text, size) / 2)
    return reach


def _turned(text: Text) -> Text:
    return Text(text.id, text.x, text.y, text.text, text.size, text.anchor, angle=90.0)


@cache
def _margins(
    n: int, size: float, turned: bool, look: GridLook
) -> tuple[float, float, float, float]:
    """Room the labels take outside the grid: (left, top, right, bottom) in mm.

    Measured on a trial placement; the overhang of a label past a corner does not depend on the
    square size, so the result holds for any square the labels themselves allow.
    """
    trial = 10.0
    side_len = n * trial
    reach = INKS[look.perimeter].stroke / 2
    left, top, right, bottom = reach, reach, reach, reach
    for text in _label_texts(n, 0.0, 0.0, trial, size, turned, look):
        x0, y0, x1, y1 = text_box(text)
        left, top = max(left, -x0), max(top, -y0)
        right, bottom = max(right, x1 - side_len), max(bottom, y1 - side_len)
    return left, top, right, bottom


def _label_size(cell: float) -> float:
    return min(MAX_LABEL, max(MIN_LABEL, round(LABEL_RATIO * cell, 1)))


# --- planning -----------------------------------------------------------------------------------


def _score_block(players: int, width: float, room: float, across: bool) -> tuple[int, int]:
    """(columns, lines) of score rows: side by side in ``room`` mm, or stacked when not across."""
    if players == 0:
        return 0, 0
    if across:
        cols = max(1, min(players, int((room + SCORE_COL_GAP) // (width + SCORE_COL_GAP))))
        return cols, math.ceil(players / cols)
    row_h = score_area_height(0, width)
    lines = max(1, min(players, int((room + SCORE_GAP) // (row_h + SCORE_GAP))))
    return math.ceil(players / lines), lines


def _label_fit(
    frame: Frame, n: int, look: GridLook, extra_w: float, extra_h: float
) -> tuple[float, float, bool, tuple[float, float, float, float]] | None:
    """The largest label size the squares it leaves can carry: (cell, size, turned, margins).

    Larger labels take more room and leave smaller squares, so sizes are tried from the largest
    down and the first one no larger than :func:`_label_size` of its squares wins. Vertex names
    above and below the grid read upwards when they would not fit side by side.
    """
    steps = round((MAX_LABEL - MIN_LABEL) * 10)
    bands = [band for side in _bands(n, look).values() for band in side]
    for step in range(steps + 1):
        size = round(MAX_LABEL - step / 10, 1)
        for turned in (False, True):
            margins = _margins(n, size, turned, look)
            left, top, right, bottom = margins
            room_w = frame.w - left - right - extra_w
            room_h = frame.h - top - bottom - extra_h
            cell = min(look.max_cell, room_w / n, room_h / n)
            if cell <= 0:
                return None
            if turned or not any(_turn(band, size, cell) for band in bands):
                break
        if size <= _label_size(cell) + 1e-9 or step == steps:
            return cell, size, turned, margins
    return None


def plan_grid(frame: Frame, n: int, look: GridLook, players: int, score_width: float) -> GridPlan:
    """Make the grid as large as the frame allows beside or under the players' score rows.

    Both arrangements are tried (score rows under the grid, and in a column to its right) and the
    one with the larger squares wins, under on a tie.

    Raises:
        FitError: when the squares would be smaller than ``look.min_cell``, naming the parameter.
    """
    row_h = score_area_height(0, score_width)
    frame = frame.inset(EDGE_SLACK)
    best: GridPlan | None = None
    for under in (True, False):
        if under:
            cols, lines = _score_block(players, score_width, frame.w, True)
        else:
            cols, lines = _score_block(players, score_width, frame.h, False)
        block_w = cols * score_width + max(0, cols - 1) * SCORE_COL_GAP + 2 * SCORE_PAD
        block_h = lines * row_h + max(0, lines - 1) * SCORE_GAP + 2 * SCORE_PAD
        extra_w = 0.0 if under or not players else block_w + FIELD_GAP
        extra_h = block_h + FIELD_GAP if under and players else 0.0
        found = _label_fit(frame, n, look, extra_w, extra_h)
        if found is None:
            continue
        cell, size, turned, (left, top, right, bottom) = found
        side_len = n * cell
        field_w = left + side_len + right
        field_h = top + side_len + bottom
        if under:
            total_h = field_h + extra_h
            gx = frame.x + (frame.w - field_w) / 2 + left
            gy = frame.y + (frame.h - total_h) / 2 + top
            bx = frame.x + (frame.w - block_w) / 2
            by = gy + side_len + bottom + FIELD_GAP
        else:
            total_w = field_w + extra_w
            gx = frame.x + (frame.w - total_w) / 2 + left
            gy = frame.y + (frame.h - field_h) / 2 + top
            bx = gx + side_len + right + FIELD_GAP
            by = frame.y + (frame.h - block_h) / 2
        scores = []
        for p in range(players):
            if under:
                c, r = p % cols, p // cols
            else:
                c, r = p // lines, p % lines
            scores.append(
                (
                    bx + SCORE_PAD + c * (score_width + SCORE_COL_GAP),
                    by + SCORE_PAD + r * (row_h + SCORE_GAP),
                )
            )
        plan = GridPlan(n, gx, gy, cell, size, turned, tuple(scores), score_width)
        if best is None or plan.cell > best.cell + 1e-6:
            best = plan
    if best is None or best.cell < look.min_cell - 1e-9:
        have = 0.0 if best is None else best.cell
        raise FitError(
            f"{look.param}={n} makes the squares only {have:.1f} mm wide on this paper, but "
            f"they must be at least {look.min_cell:g} mm {look.purpose}: use a smaller "
            f"{look.param} or larger paper"
        )
    return best


# --- features -----------------------------------------------------------------------------------


def grid_items(plan: GridPlan, look: GridLook) -> list[Item]:
    """The squares, grid lines, vertices and coordinate labels of a planned grid.

    Every coordinate comes from :meth:`GridPlan.vx` and :meth:`GridPlan.vy`, so neighbouring
    squares share their borders exactly and tile the outline without gaps.
    """
    n = plan.n
    items: list[Item] = []
    for row in range(1, n + 1):
        for col in range(1, n + 1):
            items.append(
                Feature(
                    f"space-{(row - 1) * n + col}",
                    Kind.SPACE,
                    box(plan.vx(col), plan.vy(row + 1), plan.vx(col + 1), plan.vy(row)),
                    Style.NONE,
                    Layer.FIELD,
                    data=SquareData(col=col, row=row, name=cell_name(col, row)),
                )
            )
    left, right = plan.vx(1), plan.vx(n + 1)
    top, bottom = plan.vy(n + 1), plan.vy(1)
    items.append(
        Feature(
            "line-1",
            Kind.LINE,
            LineString([(left, top), (right, top), (right, bottom), (left, bottom), (left, top)]),
            look.perimeter,
            Layer.FIELD,
            data={"axis": "perimeter"},
        )
    )
    for k in range(2, n + 1):
        items.append(
            Feature(
                f"line-{k}",
                Kind.LINE,
                LineString([(plan.vx(k), top), (plan.vx(k), bottom)]),
                look.lines,
                Layer.FIELD,
                data={"axis": "vertical", "index": column_letters(k).upper()},
            )
        )
    for k in range(2, n + 1):
        items.append(
            Feature(
                f"line-{n - 1 + k}",
                Kind.LINE,
                LineString([(left, plan.vy(k)), (right, plan.vy(k))]),
                look.lines,
                Layer.FIELD,
                data={"axis": "horizontal", "index": k},
            )
        )
    items.extend(vertex_points(plan, look))
    items.extend(_label_texts(n, plan.x, plan.y, plan.cell, plan.label_size, plan.turned, look))
    return items


def vertex_points(plan: GridPlan, look: GridLook) -> list[Feature]:
    """The ``point-`` features of the vertices the look asks for, in id order."""
    n = plan.n
    points: list[Feature] = []
    if look.points == "none":
        return points
    for row in range(1, n + 2):
        for col in range(1, n + 2):
            edges = vertex_edges(n, col, row)
            if look.points == "edges" and not edges:
                continue
            name = vertex_name(col, row)
            points.append(
                Feature(
                    f"point-{name}",
                    Kind.POINT,
                    Point(plan.vx(col), plan.vy(row)),
                    look.point_style,
                    Layer.FIELD,
                    label=name,
                    data=VertexData(col=col, row=row, name=name, edges=list(edges)),
                )
            )
    return points


def scored_grid(frame: Frame, n: int, look: GridLook, players: int) -> tuple[GridPlan, list[Item]]:
    """The plan of an ``n`` by ``n`` grid with ``players`` score rows captioned "points", and
    its items: the page of the grid games whose score is a tally of points."""
    plan = plan_grid(frame, n, look, players, SCORE_WIDTH)
    return plan, [*grid_items(plan, look), *score_rows(plan, caption="points")]


def score_rows(
    plan: GridPlan, *, tally: int = 0, caption: str = "score", names: Sequence[str] = ()
) -> list[Item]:
    """The players' score rows at the places the plan keeps for them.

    Args:
        plan: the page plan.
        tally: tally boxes per row (0: initials, colour and total only).
        caption: caption over the total box.
        names: players' names for the captions over the initials boxes, where given.
    """
    items: list[Item] = []
    for p, (x, y) in enumerate(plan.scores, start=1):
        label = names[p - 1] if p <= len(names) else None
        area = score_area(p, x, y, plan.score_width, tally, label=label, total_caption=caption)
        items.extend(area.items)
    return items
