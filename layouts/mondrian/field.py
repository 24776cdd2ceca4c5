"""Mondrian's field as drawn: the book's mini-field, space polygons, heavy lines, tints, letters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from shapely.geometry import LineString, Polygon, box
from shapely.ops import unary_union

from papergames.layouts.mondrian.params import MIN_SIDE
from papergames.layouts.mondrian.partition import (
    HALF_STROKE,
    MINI_COLS,
    MINI_ROWS,
    Partition,
    Rect,
    area,
)
from papergames.sheets.model import Feature, Item, Kind, Layer, Style, Text
from papergames.sheets.rng import Rng

MINI: tuple[tuple[str, tuple[Rect, ...]], ...] = (
    ("A", ((0, 2, 4, 5), (0, 5, 2, 7))),
    ("B", ((0, 0, 4, 2),)),
    ("C", ((4, 0, 7, 2),)),
    ("D", ((4, 2, 7, 5),)),
    ("E", ((7, 2, 9, 5),)),
    ("F", ((2, 5, 7, 7),)),
    ("G", ((9, 2, 11, 5), (7, 5, 11, 7))),
    ("H", ((7, 0, 9, 2),)),
    ("I", ((9, 0, 11, 2),)),
    ("J", ((0, 7, 4, 9),)),
    ("K", ((4, 7, 8, 9),)),
    ("L", ((11, 6, 13, 9), (8, 7, 11, 9))),
    ("M", ((11, 0, 13, 6),)),
)
"""The thirteen spaces of the book's illustration, A to M, on a 13 x 9 lattice.

A, G and L are L-shaped. The book's example needs that: B lies on A's top side and fills it
exactly, so if A were a rectangle the two would already make a rectangle when B is filled.
"""


COLOURS = ("red", "yellow", "blue", "green")
"""The book's players in turn order."""


WALKTHROUGH: tuple[tuple[str, str, int], ...] = (
    ("A", "red", 0),
    ("B", "yellow", 0),
    ("C", "blue", 2),
    ("D", "green", 2),
    ("E", "red", 2),
    ("F", "yellow", 5),
    ("G", "blue", 5),
    ("H", "green", 4),
)
"""The book's example game: each fill and the points it scores (B-C, C-D, D-E, A-B-C-D-F,
A-D-E-F-G, C-D-E-H)."""


def mini_partition() -> tuple[Partition, list[str]]:
    """The mini-field as a partition, with the letters in space order."""
    return Partition(MINI_COLS, MINI_ROWS, [list(r) for _, r in MINI]), [n for n, _ in MINI]


@dataclass(frozen=True)
class Placement:
    """Where the lattice lands on the page: top-left corner and cell size in mm."""

    x: float
    y: float
    cw: float
    ch: float

    def px(self, x: float) -> float:
        return self.x + x * self.cw

    def py(self, y: float) -> float:
        return self.y + y * self.ch


def space_polygon(rects: Sequence[Rect], at: Placement) -> Polygon:
    """A space's outline in page mm, built from its lattice rectangles."""
    shape = unary_union([box(*r) for r in rects])
    assert isinstance(shape, Polygon)
    coords = [(at.px(x), at.py(y)) for x, y in shape.exterior.coords]
    return Polygon(coords)


def border_runs(part: Partition) -> list[tuple[str, int, int, int]]:
    """Maximal straight runs of border: ``("h", y, x0, x1)`` then ``("v", x, y0, y1)``."""
    grid = part.owners()
    cols, rows = part.cols, part.rows
    runs: list[tuple[str, int, int, int]] = []
    for y in range(rows + 1):
        start: int | None = None
        for x in range(cols + 1):
            edge = x < cols and (y in (0, rows) or grid[y - 1][x] != grid[y][x])
            if edge and start is None:
                start = x
            elif not edge and start is not None:
                runs.append(("h", y, start, x))
                start = None
    for x in range(cols + 1):
        start = None
        for y in range(rows + 1):
            edge = y < rows and (x in (0, cols) or grid[y][x - 1] != grid[y][x])
            if edge and start is None:
                start = y
            elif not edge and start is not None:
                runs.append(("v", x, start, y))
                start = None
    return runs


class SpaceData(TypedDict):
    """What a space feature carries: its lattice rectangles, its shape and its cell count."""

    rects: list[list[int]]
    shape: str
    cells: int


def field_items(
    part: Partition, at: Placement, letters: Sequence[str] | None, tinted: set[int]
) -> list[Item]:
    """Spaces, heavy lines, optional tints and letters."""
    items: list[Item] = []
    for n, rects in enumerate(part.spaces, start=1):
        poly = space_polygon(rects, at)
        items.append(
            Feature(
                f"space-{n}",
                Kind.SPACE,
                poly,
                label=letters[n - 1] if letters else None,
                data=SpaceData(
                    rects=[list(r) for r in rects],
                    shape="L" if len(rects) == 2 else "rectangle",
                    cells=sum(area(r) for r in rects),
                ),
            )
        )
        if n - 1 in tinted:
            items.append(Feature(f"tint-{n}", Kind.MARK, poly, Style.TINT, Layer.TINT))
    pad = HALF_STROKE
    for k, (axis, at_line, a, b) in enumerate(border_runs(part), start=1):
        if axis == "h":
            y = at.py(at_line)
            line = LineString([(at.px(a) - pad, y), (at.px(b) + pad, y)])
        else:
            x = at.px(at_line)
            line = LineString([(x, at.py(a) - pad), (x, at.py(b) + pad)])
        items.append(Feature(f"line-{k}", Kind.LINE, line, Style.HEAVY, data={"axis": axis}))
    if letters:
        size = min(6.0, 0.35 * min(at.cw, at.ch) * MIN_SIDE)
        for n, rects in enumerate(part.spaces, start=1):
            x0, y0 = rects[0][0], rects[0][1]
            items.append(
                Text(
                    f"letter-{n}",
                    at.px(x0) + pad + 0.25 * size + 0.8,
                    at.py(y0) + pad + 0.8 + 0.75 * size,
                    letters[n - 1],
                    size,
                    bold=True,
                )
            )
    return items


def pick_tints(part: Partition, rng: Rng) -> set[int]:
    """About one space in twelve, of the larger half, no two next to each other.

    Only a nod to the painter's coloured fields; the game never needs them.
    """
    grid = part.owners()
    near: dict[int, set[int]] = {k: set() for k in range(len(part.spaces))}
    for y in range(part.rows):
        for x in range(part.cols):
            for nx, ny in ((x + 1, y), (x, y + 1)):
                if nx < part.cols and ny < part.rows and grid[ny][nx] != grid[y][x]:
                    near[grid[y][x]].add(grid[ny][nx])
                    near[grid[ny][nx]].add(grid[y][x])
    sizes = sorted(sum(area(r) for r in s) for s in part.spaces)
    median = sizes[len(sizes) // 2]
    order = [k for k, s in enumerate(part.spaces) if sum(area(r) for r in s) >= median]
    rng.shuffle(order)
    chosen: set[int] = set()
    for k in order:
        if len(chosen) >= max(1, len(part.spaces) // 12):
            break
        if not near[k] & chosen:
            chosen.add(k)
    return chosen
