"""The maze's exact geometry: segments on the grid in integer arithmetic, the sections they cut."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from papergames.sheets.grid import cell_name

Point = tuple[int, int]
"""A grid vertex in integer coordinates: (column, row) counted from 0 at the lower left."""


COMPASS: dict[str, tuple[Point, Point]] = {
    "nw": ((0, 2), (1, -1)),
    "ne": ((2, 2), (-1, -1)),
    "sw": ((0, 0), (1, 1)),
    "se": ((2, 0), (-1, 1)),
    "n": ((1, 2), (0, -1)),
    "e": ((2, 1), (-1, 0)),
    "s": ((1, 0), (0, 1)),
    "w": ((0, 1), (1, 0)),
}
"""Compass words naming a section of a divided square, in the order names are chosen.

A word stands for a corner or the middle of a side of the square (its base point, in half
squares from the square's lower-left corner) and the direction from there towards the square's
centre; it names the section that holds every point a little way along that direction.
"""


def _cross(o: Point, a: Point, b: Point) -> int:
    """Twice the signed area of triangle o, a, b: positive when b lies left of o -> a."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _inside(polygon: Sequence[Point], point: Point, den: int = 1, way: Point | None = None) -> bool:
    """Whether the point ``point / den`` lies strictly inside a convex polygon listed
    counter-clockwise; with ``way``, whether every point a little way from it along ``way``
    does."""
    for j, a in enumerate(polygon):
        b = polygon[(j + 1) % len(polygon)]
        ex, ey = b[0] - a[0], b[1] - a[1]
        side = ex * (point[1] - a[1] * den) - ey * (point[0] - a[0] * den)
        if side < 0:
            return False
        if side == 0 and (way is None or ex * way[1] - ey * way[0] <= 0):
            return False
    return True


def _split(pieces: list[list[Point]], p: Point, q: Point) -> None:
    """Cut the piece of a square that the chord p-q runs through into its two halves.

    The chord runs from side to side of the square and crosses no other chord, so it spans the
    piece holding its middle: where the piece's border meets the chord's line is p or q.
    """
    middle = (p[0] + q[0], p[1] + q[1])
    for i, piece in enumerate(pieces):
        if not _inside(piece, middle, 2):
            continue
        left: list[Point] = []
        right: list[Point] = []
        for j, a in enumerate(piece):
            b = piece[(j + 1) % len(piece)]
            sa, sb = _cross(p, q, a), _cross(p, q, b)
            if sa >= 0:
                left.append(a)
            if sa <= 0:
                right.append(a)
            if sa * sb < 0:
                cut = p if _cross(a, b, p) == 0 else q
                left.append(cut)
                right.append(cut)
        pieces[i : i + 1] = [left, right]
        return
    raise AssertionError(f"no piece holds the chord {p}-{q}")  # pragma: no cover


def _share(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """Whether two convex polygons share a stretch of border of positive length."""
    for i, a0 in enumerate(a):
        a1 = a[(i + 1) % len(a)]
        axis = (a1[0] - a0[0], a1[1] - a0[1])
        length = axis[0] * axis[0] + axis[1] * axis[1]
        for j, b0 in enumerate(b):
            b1 = b[(j + 1) % len(b)]
            if _cross(a0, a1, b0) != 0 or _cross(a0, a1, b1) != 0:
                continue
            t0 = (b0[0] - a0[0]) * axis[0] + (b0[1] - a0[1]) * axis[1]
            t1 = (b1[0] - a0[0]) * axis[0] + (b1[1] - a0[1]) * axis[1]
            if min(max(t0, t1), length) > max(min(t0, t1), 0):
                return True
    return False


def _spans(polygon: Sequence[Point], low: Point, high: Point) -> dict[str, tuple[int, int]]:
    """The stretches of the square low..high's right and top sides (``v``, ``h``) and of its
    left and bottom sides (``-v``, ``-h``) that the polygon's border runs along."""
    found: dict[str, tuple[int, int]] = {}
    for j, a in enumerate(polygon):
        b = polygon[(j + 1) % len(polygon)]
        if a[0] == b[0] and a[0] in (low[0], high[0]):
            key = "v" if a[0] == high[0] else "-v"
            found[key] = (min(a[1], b[1]), max(a[1], b[1]))
        elif a[1] == b[1] and a[1] in (low[1], high[1]):
            key = "h" if a[1] == high[1] else "-h"
            found[key] = (min(a[0], b[0]), max(a[0], b[0]))
    return found


def _decimal(value: Fraction, places: int) -> str:
    """A fraction with a finite decimal expansion of ``places`` digits, written out (0 < x < 1)."""
    digits = f"{int(value * 10**places):0{places}d}".rstrip("0")
    return f"0.{digits}"


@dataclass(frozen=True)
class Maze:
    """The sections a finished maze cuts the grid into, and which of them meet.

    Coordinates are integers in units of 1/``scale`` of a square, exact for every corner of
    every section (their denominators divide the segments' slopes' run and rise).

    Attributes:
        n: squares along a side.
        scale: units per square side.
        square: the square (k = row * n + column, from 0) each section lies in.
        polygons: each section as a convex polygon, counter-clockwise.
        in_square: the sections of each square.
        corridor: for each section, the sections sharing a stretch of grid line with it that no
            segment covers (the ones a run may continue into).
        walled: for each section, the sections sharing a stretch of segment with it.
        names: each section's name in transcripts (``c4``, ``c4 nw``, ``c4 0.3,0.65``).
    """

    n: int
    scale: int
    square: tuple[int, ...]
    polygons: tuple[tuple[Point, ...], ...]
    in_square: tuple[tuple[int, ...], ...]
    corridor: tuple[frozenset[int], ...]
    walled: tuple[frozenset[int], ...]
    names: tuple[str, ...]

    @classmethod
    def build(cls, n: int, segments: Iterable[tuple[Point, Point]]) -> Maze:
        """Cut the n-by-n grid by the segments (which meet only at grid vertices).

        Inside one square every segment that enters it is a straight chord from side to side,
        and chords never cross, so each square falls into convex pieces: the sections. Segments
        along a grid line cut no square; they wall off the unit sides they cover.
        """
        drawn = sorted((min(s), max(s)) for s in segments)
        runs = [abs(c - a) for (a, b), (c, d) in drawn] + [abs(d - b) for (a, b), (c, d) in drawn]
        scale = 2 * math.lcm(1, *(r for r in runs if r))
        pieces: list[list[list[Point]]] = [
            [
                [
                    (c * scale, r * scale),
                    ((c + 1) * scale, r * scale),
                    ((c + 1) * scale, (r + 1) * scale),
                    (c * scale, (r + 1) * scale),
                ]
            ]
            for r in range(n)
            for c in range(n)
        ]
        covered: set[tuple[str, int, int]] = set()
        for (x0, y0), (x1, y1) in drawn:
            dx, dy = x1 - x0, y1 - y0
            if dx == 0 or dy == 0:
                for k in range(abs(dx) + abs(dy)):
                    if dx == 0:
                        covered.add(("v", x0, min(y0, y1) + k))
                    else:
                        covered.add(("h", min(x0, x1) + k, y0))
                continue
            # Break the segment where it meets grid lines: at j / m of its length.
            m = math.lcm(abs(dx), abs(dy))
            steps = sorted(
                {k * (m // abs(dx)) for k in range(abs(dx) + 1)}
                | {k * (m // abs(dy)) for k in range(abs(dy) + 1)}
            )
            unit = scale // m
            for j0, j1 in itertools.pairwise(steps):
                col = (2 * m * x0 + (j0 + j1) * dx) // (2 * m)
                row = (2 * m * y0 + (j0 + j1) * dy) // (2 * m)
                p = (x0 * scale + j0 * dx * unit, y0 * scale + j0 * dy * unit)
                q = (x0 * scale + j1 * dx * unit, y0 * scale + j1 * dy * unit)
                _split(pieces[row * n + col], p, q)
        square: list[int] = []
        polygons: list[tuple[Point, ...]] = []
        in_square: list[tuple[int, ...]] = []
        for k, parts in enumerate(pieces):
            first = len(polygons)
            for part in sorted(parts, key=sorted):
                square.append(k)
                polygons.append(tuple(part))
            in_square.append(tuple(range(first, len(polygons))))
        spans = []
        for s, polygon in enumerate(polygons):
            row, col = divmod(square[s], n)
            low = (col * scale, row * scale)
            spans.append(_spans(polygon, low, (low[0] + scale, low[1] + scale)))
        corridor: list[set[int]] = [set() for _ in polygons]
        walled: list[set[int]] = [set() for _ in polygons]
        for k, group in enumerate(in_square):
            for a, b in itertools.combinations(group, 2):
                if _share(polygons[a], polygons[b]):
                    walled[a].add(b)
                    walled[b].add(a)
            row, col = divmod(k, n)
            for key, beyond, side in (
                ("v", k + 1, ("v", col + 1, row)),
                ("h", k + n, ("h", col, row + 1)),
            ):
                if (col if key == "v" else row) + 1 >= n:
                    continue
                links = walled if side in covered else corridor
                for a in group:
                    mine = spans[a].get(key)
                    if mine is None:
                        continue
                    for b in in_square[beyond]:
                        theirs = spans[b].get("-" + key)
                        if theirs is not None and min(mine[1], theirs[1]) > max(mine[0], theirs[0]):
                            links[a].add(b)
                            links[b].add(a)
        maze = cls(
            n,
            scale,
            tuple(square),
            tuple(polygons),
            tuple(in_square),
            tuple(frozenset(c) for c in corridor),
            tuple(frozenset(w) for w in walled),
            (),
        )
        names = tuple(maze._name(s) for s in range(len(polygons)))
        return cls(
            n, scale, maze.square, maze.polygons, maze.in_square, maze.corridor, maze.walled, names
        )

    def _name(self, section: int) -> str:
        """The section's name: its square, and a compass word or a point when it is divided."""
        square = self.square[section]
        row, col = divmod(square, self.n)
        name = cell_name(col + 1, row + 1)
        if len(self.in_square[square]) == 1:
            return name
        polygon = self.polygons[section]
        for word in COMPASS:
            if self.toward(square, word) == section:
                return f"{name} {word}"
        size = len(polygon) * self.scale
        cx = Fraction(sum(p[0] for p in polygon), size) - col
        cy = Fraction(sum(p[1] for p in polygon), size) - row
        for places in itertools.count(1):
            tens = 10**places
            x, y = Fraction(round(cx * tens), tens), Fraction(round(cy * tens), tens)
            if 0 < x < 1 and 0 < y < 1 and self.find(square, (x, y)) == section:
                return f"{name} {_decimal(x, places)},{_decimal(y, places)}"
        raise AssertionError("unreachable")  # pragma: no cover

    def find(self, square: int, point: tuple[Fraction, Fraction]) -> int | None:
        """The section of ``square`` holding a point given in the square's own coordinates
        (0..1 from its lower-left corner); none when the point is on a segment."""
        row, col = divmod(square, self.n)
        x, y = (col + point[0]) * self.scale, (row + point[1]) * self.scale
        den = math.lcm(x.denominator, y.denominator)
        where = (x.numerator * (den // x.denominator), y.numerator * (den // y.denominator))
        for s in self.in_square[square]:
            if _inside(self.polygons[s], where, den):
                return s
        return None

    def toward(self, square: int, word: str) -> int | None:
        """The section of ``square`` a compass word names; none when a segment runs from the
        word's corner straight towards the centre."""
        row, col = divmod(square, self.n)
        base, way = COMPASS[word]
        half = self.scale // 2
        where = ((2 * col + base[0]) * half, (2 * row + base[1]) * half)
        for s in self.in_square[square]:
            if _inside(self.polygons[s], where, 1, way):
                return s
        return None
