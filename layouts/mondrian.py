"""Mondrian (Sid Sackson): a field of rectilinear spaces between heavy black lines.

The field is a partition of an integer lattice of ``cols`` x ``rows`` near-square cells into
axis-aligned spaces: mostly rectangles, some L-shapes. It is grown, not cut. Rectangles are laid
greedily like a skyline (always at the top-most, left-most empty cell, with a random size that
fits, drawn towards squares and towards lines already on the lattice, so many unions of spaces
are rectangles, which is what the game scores); a few of the blocks are laid as pinwheels (four
rectangles turning round a fifth, a figure no guillotine cut can make). Then every straight
line that would still run across the whole field is broken by joining a pair of spaces across
it, pairs of rectangles meeting along a corner-aligned side are joined into L-shapes, and a
bounded repair splits one of the largest rectangles (never along a line that would then cross
the field) or joins the smallest pair that makes a rectangle, one space at a time, until the
count is exact. A fill that misses anything (the count, the Ls, the pinwheels, no full cut) is
thrown away and grown again from the next random stream, at most :data:`ATTEMPTS` times; then
the build fails loudly rather than print a wrong sheet. One or two fills are usual.

Every space is at least :data:`MIN_SIDE` cells and :data:`MIN_SPACE_MM` mm wide in each part,
and no rectangle is longer than :data:`MAX_RATIO` times its width.

Parameters: ``field`` (``book``, the random field, or ``mini``, the book's 13-space
illustration), ``spaces`` (99; 30..160), ``points`` (80 tally boxes per score area; 10..160),
``tints`` (off; on tints about one space in twelve grey, for show only).

Ids and conventions (y grows down the page):

* ``space-<n>``: the spaces, numbered by their top-left lattice cell, row by row from the top,
  left to right. Data: ``rects`` (the space as one or two lattice rectangles
  ``[x0, y0, x1, y1]``, cells ``x0 <= x < x1``, ``y0 <= y < y1``), ``shape`` (``"rectangle"``
  or ``"L"``) and ``cells`` (its area in lattice cells). With ``field=mini`` the label is the
  space's letter, A to M, as in the book's illustration.
* ``line-<n>``: the heavy lines, every maximal straight run of border between spaces or round
  the field, horizontal ones first (top to bottom, left to right), then vertical ones (left to
  right, top to bottom). Each runs half a stroke past its ends so corners close cleanly.
* ``tint-<n>``: with ``tints=on``, the tint over ``space-<n>``, for show only.
* Score areas ``box-...-<p>`` for players 1 to 4: two above the field, two below it.
* Page data: ``field`` (``book`` or ``mini``), ``lattice`` ``[cols, rows]``, ``cell``
  ``[width, height]`` in mm, ``origin`` (the field's top-left corner in mm), ``shapes``
  (counts by shape), ``pinwheels`` (the ids of the hubs of pinwheels: rectangles with one
  rectangle along each whole side, turning the same way), ``points`` (tally boxes per area);
  for the mini field ``walkthrough``: the book's example fills in order as
  ``[space id, colour, expected score]``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString, Polygon, box
from shapely.ops import unary_union

from papergames.compose import Frame
from papergames.errors import FitError, SpecError
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import INKS, Feature, Item, Kind, Layer, Sheet, Style, Text
from papergames.params import Param, ParamSet
from papergames.rng import Rng
from papergames.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.score import TALLY, score_area, score_area_height
from papergames.teams import team_winners

Rect = tuple[int, int, int, int]
"""A lattice rectangle ``(x0, y0, x1, y1)``: cells ``x0 <= x < x1`` and ``y0 <= y < y1``."""

CELLS_PER_SPACE = 9.0
"""Lattice cells per space on average: fine enough for varied sizes, coarse enough to keep
lines either aligned or clearly apart."""
MIN_SIDE = 2
"""Least width of a space in lattice cells (no slivers)."""
MAX_SIDE = 9
"""Longest side of a greedy rectangle in lattice cells."""
MAX_RATIO = 3.0
"""Longest over shortest side of a rectangle the fill aims for: longer ones read as stripes."""
SLIVER_RATIO = 4.0
"""Longest over shortest side any rectangle (or part of an L) may have on the finished field;
the greedy fill may exceed :data:`MAX_RATIO` when nothing else fits a corner."""
SQUARENESS = 2.0
"""How strongly a rectangle's height is drawn towards its width: squares and 1:2 blocks
dominate, as in the paintings, with stripes rarer."""
MAX_AREA = 36
"""Largest greedy rectangle in lattice cells."""
MIN_SPACE_MM = 8.0
"""Least width of a space in mm: thinner ones are hard to colour in with a pencil."""
ATTEMPTS = 40
"""Fresh fills tried before giving up; one or two are enough for almost every seed."""

HALF_STROKE = INKS[Style.HEAVY].stroke / 2
SCORE_GAP = 6.0
"""Between the two score areas at one end."""
FIELD_GAP = 4.0
"""Between the field and the score areas."""
STROKE_PAD = 0.5
"""Room kept inside the frame for the half strokes of the score boxes."""


# --- lattice partitions -----------------------------------------------------------------------


@dataclass
class Partition:
    """Spaces on a ``cols`` x ``rows`` lattice, each one or two rectangles.

    Attributes:
        cols, rows: the lattice size.
        spaces: each space as its rectangles (one for a rectangle, two for an L).
    """

    cols: int
    rows: int
    spaces: list[list[Rect]]

    def owners(self) -> list[list[int]]:
        """The index of the space holding each cell, as ``grid[y][x]``."""
        grid = [[-1] * self.cols for _ in range(self.rows)]
        for k, rects in enumerate(self.spaces):
            for x0, y0, x1, y1 in rects:
                for y in range(y0, y1):
                    row = grid[y]
                    for x in range(x0, x1):
                        row[x] = k
        return grid


def area(r: Rect) -> int:
    return (r[2] - r[0]) * (r[3] - r[1])


def full_cuts(cols: int, rows: int, grid: Sequence[Sequence[int]]) -> list[tuple[str, int]]:
    """Every lattice line that runs across the whole field along borders only.

    A full cut would split the field in two like a guillotine; the Mondrian field has none.

    Example:
        >>> halves = Partition(4, 2, [[(0, 0, 2, 2)], [(2, 0, 4, 2)]])
        >>> full_cuts(4, 2, halves.owners())
        [('x', 2)]
    """
    cuts: list[tuple[str, int]] = []
    for y in range(1, rows):
        if all(grid[y - 1][x] != grid[y][x] for x in range(cols)):
            cuts.append(("y", y))
    for x in range(1, cols):
        if all(grid[y][x - 1] != grid[y][x] for y in range(rows)):
            cuts.append(("x", x))
    return cuts


def pinwheels(part: Partition) -> list[int]:
    """Indices of the rectangles that are the hub of a pinwheel.

    A pinwheel is a rectangle with one rectangle along each whole side, each of those running
    past exactly one corner of the hub, all turning the same way, so no straight line runs past
    the hub on any side: the figure a guillotine cut can never make.
    """
    grid = part.owners()
    found: list[int] = []
    for k, rects in enumerate(part.spaces):
        if len(rects) != 1:
            continue
        x0, y0, x1, y1 = rects[0]
        if x0 == 0 or y0 == 0 or x1 == part.cols or y1 == part.rows:
            continue
        sides = (
            {grid[y0 - 1][x] for x in range(x0, x1)},
            {grid[y][x1] for y in range(y0, y1)},
            {grid[y1][x] for x in range(x0, x1)},
            {grid[y][x0 - 1] for y in range(y0, y1)},
        )
        if any(len(s) != 1 for s in sides):
            continue
        arms = [part.spaces[next(iter(s))] for s in sides]
        if any(len(a) != 1 for a in arms):
            continue
        top, right, bottom, left = (a[0] for a in arms)
        turning = (
            top[0] < x0
            and top[2] == x1
            and right[1] < y0
            and right[3] == y1
            and bottom[2] > x1
            and bottom[0] == x0
            and left[3] > y1
            and left[1] == y0
        )
        mirrored = (
            top[2] > x1
            and top[0] == x0
            and left[1] < y0
            and left[3] == y1
            and bottom[0] < x0
            and bottom[2] == x1
            and right[3] > y1
            and right[1] == y0
        )
        if turning or mirrored:
            found.append(k)
    return found


def _weighted(rng: Rng, options: Sequence[int], weights: Sequence[float]) -> int:
    total = sum(weights)
    pick = rng.random() * total
    for option, weight in zip(options, weights, strict=True):
        if pick < weight:
            return option
        pick -= weight
    return options[-1]


def _fits(rem: int) -> bool:
    """A leftover run of ``rem`` cells can still take a space (or there is none)."""
    return rem == 0 or rem >= MIN_SIDE


def _line_weight(at: int, lines: set[int], near: Sequence[int]) -> float:
    """Prefer ending on a line already drawn; avoid ending one cell beside a neighbour's."""
    weight = 1.0
    if at in lines:
        weight *= 3.0
    if any(abs(at - n) == 1 for n in near):
        weight *= 0.15
    return weight


def pinwheel_block(x: int, y: int, w: int, h: int, rng: Rng) -> list[Rect]:
    """Five rectangles filling the block ``w`` x ``h`` at (x, y) as a pinwheel, either way round.

    The hub's sides are each covered by one arm that runs past one corner of the hub; each
    piece is at least :data:`MIN_SIDE` cells in both directions.
    """
    p2 = rng.randint(MIN_SIDE, w - 2 * MIN_SIDE)
    p1 = rng.randint(p2 + MIN_SIDE, w - MIN_SIDE)
    q1 = rng.randint(MIN_SIDE, h - 2 * MIN_SIDE)
    q2 = rng.randint(q1 + MIN_SIDE, h - MIN_SIDE)
    pieces = [(0, 0, p1, q1), (p1, 0, w, q2), (p2, q2, w, h), (0, q1, p2, h), (p2, q1, p1, q2)]
    if rng.random() < 0.5:
        pieces = [(w - c, b, w - a, d) for a, b, c, d in pieces]
    return [(x + a, y + b, x + c, y + d) for a, b, c, d in pieces]


def greedy_fill(
    cols: int, rows: int, rng: Rng, scale: float, pins: int = 0
) -> tuple[list[Rect], set[Rect]]:
    """Fill the lattice with rectangles, skyline fashion, top-most then left-most first.

    Up to ``pins`` blocks are laid as pinwheels (:func:`pinwheel_block`); their rectangles are
    returned as the locked set, which later merges and splits leave alone.

    Every column's filled height is either the whole field or leaves room for a full space, and
    every run of equal height is at least :data:`MIN_SIDE` wide, so the fill never gets stuck.
    ``scale`` stretches the preferred sizes so the count comes out near the target.
    """
    heights = [0] * cols
    xs: set[int] = {0, cols}
    ys: set[int] = {0, rows}
    rects: list[Rect] = []
    locked: set[Rect] = set()
    steps = 0
    while True:
        r = min(heights)
        if r >= rows:
            return rects, locked
        x = heights.index(r)
        end = x
        while end < cols and heights[end] == r:
            end += 1
        avail = end - x
        # Heights of the columns either side: a new top edge should not sit one cell off them.
        near_h = [heights[x - 1]] if x > 0 else []
        if end < cols:
            near_h.append(heights[end])
        steps += 1
        block = _pin_size(avail, rows - r, rng) if len(locked) < 5 * pins and steps > 3 else None
        if block is not None:
            w, h = block
            pieces = pinwheel_block(x, r, w, h, rng)
            rects.extend(pieces)
            locked.update(pieces)
            for c in range(x, x + w):
                heights[c] = r + h
            xs.add(x + w)
            ys.add(r + h)
            continue
        widths = [w for w in range(MIN_SIDE, min(MAX_SIDE, avail) + 1) if _fits(avail - w)] or [
            avail
        ]
        w_weights = [_line_weight(x + w, xs, sorted(xs)) * _size_weight(w, scale) for w in widths]
        w = _weighted(rng, widths, w_weights)
        left = rows - r
        heights_ok = [
            h
            for h in range(MIN_SIDE, min(MAX_SIDE, left) + 1)
            if _fits(left - h) and max(w, h) <= MAX_RATIO * min(w, h) and w * h <= MAX_AREA
        ]
        if not heights_ok:
            heights_ok = [h for h in range(MIN_SIDE, left + 1) if _fits(left - h)] or [left]
        h_weights = [
            _line_weight(r + h, ys, near_h) * math.exp(-SQUARENESS * abs(math.log(h / w)))
            for h in heights_ok
        ]
        h = _weighted(rng, heights_ok, h_weights)
        rects.append((x, r, x + w, r + h))
        for c in range(x, x + w):
            heights[c] = r + h
        xs.add(x + w)
        ys.add(r + h)


PIN_CHANCE = 0.12
"""Chance that a place with room for one takes a pinwheel block."""
PIN_SIDES = (6, 7, 8)
"""Sides of a pinwheel block in lattice cells: room for five spaces of at least 2 x 2."""


def _pin_size(avail: int, left: int, rng: Rng) -> tuple[int, int] | None:
    """The size of a pinwheel block to lay here, or None (no room, or not this time)."""
    widths = [w for w in PIN_SIDES if w <= avail and _fits(avail - w)]
    heights = [h for h in PIN_SIDES if h <= left and _fits(left - h)]
    if not widths or not heights or rng.random() >= PIN_CHANCE:
        return None
    return rng.choice(widths), rng.choice(heights)


def _size_weight(side: int, scale: float) -> float:
    """Small sides are common, long ones rarer: Mondrian's few large fields among many small."""
    return math.exp(-((side - MIN_SIDE) / scale))


def _touching_pairs(rects: Sequence[Rect], locked: set[Rect]) -> list[tuple[int, int, str]]:
    """Pairs of rectangles sharing a side stretch: ``(i, j, how)`` with j right of or below i.

    Locked rectangles (the pieces of planted pinwheels) are left out.
    """
    pairs: list[tuple[int, int, str]] = []
    by_x0: dict[int, list[int]] = {}
    by_y0: dict[int, list[int]] = {}
    for k, r in enumerate(rects):
        by_x0.setdefault(r[0], []).append(k)
        by_y0.setdefault(r[1], []).append(k)
    for i, a in enumerate(rects):
        if a in locked:
            continue
        for j in by_x0.get(a[2], []):
            if rects[j] in locked:
                continue
            b = rects[j]
            if min(a[3], b[3]) > max(a[1], b[1]):
                pairs.append((i, j, "x"))
        for j in by_y0.get(a[3], []):
            if rects[j] in locked:
                continue
            b = rects[j]
            if min(a[2], b[2]) > max(a[0], b[0]):
                pairs.append((i, j, "y"))
    return pairs


def _pair_kind(a: Rect, b: Rect, how: str) -> str:
    """``rect`` if the two make a rectangle, ``L`` if they share one corner-aligned end."""
    same = (a[1] == b[1]) + (a[3] == b[3]) if how == "x" else (a[0] == b[0]) + (a[2] == b[2])
    return {2: "rect", 1: "L"}.get(same, "")


def _l_ok(a: Rect, b: Rect) -> bool:
    """An L worth having: not so large that it dwarfs the spaces round it."""
    return area(a) + area(b) <= 2 * MAX_AREA


def _split_options(r: Rect) -> list[tuple[Rect, Rect]]:
    x0, y0, x1, y1 = r
    out: list[tuple[Rect, Rect]] = []
    for x in range(x0 + MIN_SIDE, x1 - MIN_SIDE + 1):
        a, b = (x0, y0, x, y1), (x, y0, x1, y1)
        if _shape_ok(a) and _shape_ok(b):
            out.append((a, b))
    for y in range(y0 + MIN_SIDE, y1 - MIN_SIDE + 1):
        a, b = (x0, y0, x1, y), (x0, y, x1, y1)
        if _shape_ok(a) and _shape_ok(b):
            out.append((a, b))
    return out


def _shape_ok(r: Rect) -> bool:
    w, h = r[2] - r[0], r[3] - r[1]
    return min(w, h) >= MIN_SIDE and max(w, h) <= MAX_RATIO * min(w, h)


def _union(a: Rect, b: Rect) -> Rect:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _straddles(a: Rect, b: Rect, how: str, cut: tuple[str, int]) -> bool:
    """Whether the side ``a`` and ``b`` share lies on the lattice line ``cut``."""
    axis, at = cut
    return (how == "x" and axis == "x" and a[2] == at) or (
        how == "y" and axis == "y" and a[3] == at
    )


def _break_cuts(
    cols: int, rows: int, rects: list[Rect], ls: list[list[Rect]], locked: set[Rect], rng: Rng
) -> bool:
    """Join a pair of spaces across every full cut, so no straight line crosses the field.

    A pair whose union is an allowed rectangle is preferred; otherwise the pair becomes an L.
    Returns False if some cut has no suitable pair (the caller then grows a fresh fill).
    """
    for _ in range(cols + rows):
        cuts = full_cuts(cols, rows, Partition(cols, rows, [[r] for r in rects] + ls).owners())
        if not cuts:
            return True
        cut = cuts[0]
        whole: list[tuple[int, int]] = []
        bent: list[tuple[int, int]] = []
        for i, j, how in _touching_pairs(rects, locked):
            a, b = rects[i], rects[j]
            if not _straddles(a, b, how, cut):
                continue
            kind = _pair_kind(a, b, how)
            u = _union(a, b)
            if kind == "rect" and _shape_ok(u) and area(u) <= MAX_AREA:
                whole.append((i, j))
            elif kind == "L" and _l_ok(a, b):
                bent.append((i, j))
        if whole:
            i, j = rng.choice(whole)
            merged: list[Rect] = [_union(rects[i], rects[j])]
            rects[:] = [r for k, r in enumerate(rects) if k not in (i, j)] + merged
        elif bent:
            i, j = rng.choice(bent)
            ls.append([rects[i], rects[j]])
            rects[:] = [r for k, r in enumerate(rects) if k not in (i, j)]
        else:
            return False
    return False


def _make_ls(
    rects: list[Rect], ls: list[list[Rect]], locked: set[Rect], count: int, rng: Rng
) -> None:
    """Join pairs of rectangles that meet along a corner-aligned side into Ls, up to ``count``."""
    pairs = [
        (i, j)
        for i, j, how in _touching_pairs(rects, locked)
        if _pair_kind(rects[i], rects[j], how) == "L" and _l_ok(rects[i], rects[j])
    ]
    rng.shuffle(pairs)
    used: set[int] = set()
    for i, j in pairs:
        if len(ls) >= count:
            break
        if i in used or j in used:
            continue
        used.update((i, j))
        ls.append([rects[i], rects[j]])
    rects[:] = [r for k, r in enumerate(rects) if k not in used]


def _cut_line(a: Rect, b: Rect) -> tuple[str, int]:
    """The lattice line between the two halves of a split."""
    return ("x", a[2]) if a[2] == b[0] else ("y", a[3])


def _repair(
    cols: int,
    rows: int,
    rects: list[Rect],
    ls: list[list[Rect]],
    locked: set[Rect],
    target: int,
    rng: Rng,
) -> bool:
    """Split or merge rectangles one at a time until the count is ``target``; False if stuck.

    Splits take one of the largest rectangles and never along a line that would then cut
    across the whole field; merges join the smallest pair whose union is an allowed rectangle.
    Neither makes a full cut, so the field stays non-guillotine.
    """
    for _ in range(2 * target):
        count = len(rects) + len(ls)
        if count == target:
            return True
        if count < target:
            free = [k for k in range(len(rects)) if rects[k] not in locked]
            order = sorted(free, key=lambda k: (-area(rects[k]), k))[:8]
            rng.shuffle(order)
            done = False
            for k in order:
                options = _split_options(rects[k])
                rng.shuffle(options)
                for a, b in options:
                    trial = [*rects[:k], a, b, *rects[k + 1 :]]
                    grid = Partition(cols, rows, [[t] for t in trial] + ls).owners()
                    if _cut_line(a, b) not in full_cuts(cols, rows, grid):
                        rects[:] = trial
                        done = True
                        break
                if done:
                    break
            if not done:
                return False
        else:
            best: tuple[int, int, int] | None = None
            for i, j, how in _touching_pairs(rects, locked):
                a, b = rects[i], rects[j]
                u = _union(a, b)
                if _pair_kind(a, b, how) != "rect" or not _shape_ok(u) or area(u) > MAX_AREA:
                    continue
                key = (area(u), i, j)
                if best is None or key < best:
                    best = key
            if best is None:
                return False
            _, i, j = best
            merged = [_union(rects[i], rects[j])]
            rects[:] = [r for k, r in enumerate(rects) if k not in (i, j)] + merged
    return False


def make_partition(
    cols: int, rows: int, target: int, lshapes: int, pins: int, rng: Rng
) -> Partition:
    """A non-guillotine partition of the lattice into exactly ``target`` spaces.

    It holds at least ``lshapes`` L-shapes (more when a full cut could only be broken by one)
    and at least ``pins`` pinwheels.

    Raises:
        FitError: when no attempt reaches the count (the lattice is too small for it).
    """
    cells = cols * rows
    # Preferred side length grows with the room each space has; it is nudged after each
    # attempt so the greedy count lands near the target.
    scale = max(0.5, math.sqrt(cells / (target + lshapes)) - MIN_SIDE)
    for attempt in range(ATTEMPTS):
        stream = rng.child("attempt", attempt)
        rects, locked = greedy_fill(cols, rows, stream, scale, pins)
        wanted = target + lshapes + 2
        if abs(len(rects) - wanted) > max(6, target // 8):
            scale *= min(1.5, max(0.67, (len(rects) / wanted) ** 0.7))
            continue
        ls: list[list[Rect]] = []
        if len(locked) < 5 * pins or not _break_cuts(cols, rows, rects, ls, locked, stream):
            continue
        _make_ls(rects, ls, locked, lshapes, stream)
        if len(ls) < lshapes or not _repair(cols, rows, rects, ls, locked, target, stream):
            continue
        part = Partition(cols, rows, [[r] for r in rects] + ls)
        if full_cuts(cols, rows, part.owners()) or len(pinwheels(part)) < pins:
            continue
        sides = [sorted((r[2] - r[0], r[3] - r[1])) for s in part.spaces for r in s]
        if any(long > SLIVER_RATIO * short for short, long in sides):
            continue
        return _ordered(part)
    raise FitError(
        f"spaces={target} cannot be laid out on a {cols} x {rows} lattice: "
        "use fewer spaces or larger paper"
    )


def _ordered(part: Partition) -> Partition:
    """Spaces sorted by their top-left cell, row by row; an L's rectangles top first."""

    def top_left(rects: list[Rect]) -> tuple[int, int]:
        y = min(r[1] for r in rects)
        return y, min(r[0] for r in rects if r[1] == y)

    spaces = [sorted(s, key=lambda r: (r[1], r[0])) for s in part.spaces]
    spaces.sort(key=top_left)
    return Partition(part.cols, part.rows, spaces)


# --- the book's mini-field --------------------------------------------------------------------

MINI_COLS, MINI_ROWS = 13, 9
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


# --- drawing ----------------------------------------------------------------------------------


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
                data={
                    "rects": [list(r) for r in rects],
                    "shape": "L" if len(rects) == 2 else "rectangle",
                    "cells": sum(area(r) for r in rects),
                },
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


# --- the layout -------------------------------------------------------------------------------


def _lattice(width: float, height: float, spaces: int) -> tuple[int, int]:
    """Columns and rows of near-square cells, about :data:`CELLS_PER_SPACE` per space."""
    cell = math.sqrt(width * height / (CELLS_PER_SPACE * spaces))
    return max(MIN_SIDE, round(width / cell)), max(MIN_SIDE, round(height / cell))


class MondrianLayout(Layout):
    """Ninety-nine rectilinear spaces between heavy lines, two score areas at each end."""

    name = "mondrian"
    params = ParamSet(
        [
            Param.choice(
                "field", "book", ("book", "mini"), "the random field or the book's mini-field"
            ),
            Param.int("spaces", 99, 30, 160, "spaces on the random field"),
            Param.int("points", 80, 10, 160, "tally boxes in each score area"),
            Param.bool("tints", False, "tint a few spaces lightly, for show only"),
        ]
    )
    how_to_play = """\
Setup: two to four players, each with a pencil of his own colour. Each player writes his \
initials in the X box of a score area and colours its colour box. With two or three players a \
further colour is neutral: anyone may use it in his turn instead of his own, but it may never \
be placed next to itself, and a rectangle it completes scores nothing.

Play: the first player colours any space. After that, in turn to the left, each player colours \
an empty space that is next to at least one coloured space (sharing a stretch of border; a \
corner touch does not count), but never a space next to one already in his own colour.

Scoring: when your fill completes a rectangle made of two or more coloured spaces of any \
colours, you score one point per space in it. Of all the sets of coloured spaces that include \
the space just filled and together form exactly a rectangle, only the largest counts. Colour \
one tally box per point.

End: the game ends when a player's tally is full (80 points; two players may agree on 160, each \
using two areas) or when no one can move; some spaces may stay empty. The highest score wins. \
Four players may play as diagonal partners and add their scores.

The mini-field (field=mini) is the book's 13-space example, lettered A to M; the example game \
runs A (red), B (yellow), C (blue, 2 points), D (green, 2), E (red, 2), F (yellow, 5), \
G (blue, 5), H (green, 4).
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """The mini-field has its own 13 spaces, so ``spaces`` cannot be set with it."""
        if params["field"] == "mini" and params["spaces"] != 99:
            raise SpecError(
                f"spaces={params['spaces']} does not apply to field=mini, whose 13 spaces are "
                "fixed: drop spaces or use field=book"
            )

    def notes(self) -> list[str]:
        return [
            f"spaces are at least {MIN_SIDE} lattice cells and {MIN_SPACE_MM:.0f} mm wide; "
            f"rectangles are at most {SLIVER_RATIO:g} times as long as wide (the fill aims "
            f"for {MAX_RATIO:g}); every default field has at least 7 L-shapes and 3 pinwheels "
            "and no straight line across it",
            "field=mini is the book's fixed 13-space illustration, lettered A to M; the seed "
            "changes only its tint",
        ]

    def build(self, ctx: BuildContext) -> list[PageBody]:
        params = ctx.params
        frame = ctx.frame.inset(STROKE_PAD)
        points: int = params["points"]
        items: list[Item] = []
        area_w = (frame.w - SCORE_GAP) / 2
        area_h = score_area_height(points, area_w, TALLY)
        for p in range(4):
            x = frame.x + (p % 2) * (area_w + SCORE_GAP)
            y = frame.y if p < 2 else frame.bottom - area_h
            items.extend(score_area(p + 1, x, y, area_w, points).items)
        room = Frame(
            frame.x,
            frame.y + area_h + FIELD_GAP,
            frame.w,
            frame.h - 2 * (area_h + FIELD_GAP),
        ).inset(2 * HALF_STROKE)
        if room.h <= 0:
            raise FitError(
                f"points={points} leaves no room for the field: use fewer points or larger paper"
            )
        data: dict[str, Any] = {"field": params["field"], "points": points}
        letters: list[str] | None = None
        if params["field"] == "mini":
            part, letters = mini_partition()
            cell = min(room.w / part.cols, room.h / part.rows)
            cw = ch = cell
            names = {name: f"space-{k}" for k, name in enumerate(letters, start=1)}
            data["walkthrough"] = [[names[s], colour, score] for s, colour, score in WALKTHROUGH]
        else:
            spaces: int = params["spaces"]
            cols, rows = _lattice(room.w, room.h, spaces)
            cw, ch = room.w / cols, room.h / rows
            if min(cw, ch) * MIN_SIDE < MIN_SPACE_MM:
                raise FitError(
                    f"spaces={spaces} makes spaces narrower than {MIN_SPACE_MM:.0f} mm on this "
                    "paper: use fewer spaces or larger paper"
                )
            lshapes = max(2, round(spaces / 14))
            pins = max(1, round(spaces / 33))
            part = make_partition(cols, rows, spaces, lshapes, pins, ctx.rng("field"))
        width, height = part.cols * cw, part.rows * ch
        at = Placement(room.x + (room.w - width) / 2, room.y + (room.h - height) / 2, cw, ch)
        tinted = pick_tints(part, ctx.rng("tints")) if params["tints"] else set()
        items[:0] = field_items(part, at, letters, tinted)
        field = box(at.x, at.y, at.x + width, at.y + height)
        shapes = [len(s) for s in part.spaces]
        data.update(
            {
                "lattice": [part.cols, part.rows],
                "cell": [cw, ch],
                "origin": [at.x, at.y],
                "shapes": {"rectangle": shapes.count(1), "L": shapes.count(2)},
                "pinwheels": [f"space-{k + 1}" for k in pinwheels(part)],
            }
        )
        subtitle = (
            "The book's mini-field: 13 spaces, A to M"
            if letters
            else f"{len(part.spaces)} spaces · fill a space next to a coloured one, "
            "never next to your own colour"
        )
        return [PageBody(items, subtitle, field, data)]


LAYOUT = MondrianLayout()


# --- rules ------------------------------------------------------------------------------------

NEUTRAL = -2
EMPTY = -1


@dataclass(frozen=True)
class MondrianState:
    """Who filled each space (a player, :data:`NEUTRAL` or :data:`EMPTY`), scores, turn."""

    owners: tuple[int, ...]
    scores: tuple[int, ...]
    turn: int = 0
    over: bool = False


class _Lattice:
    """The field as lattice cells, with what the rectangle search needs in O(1) per test.

    A set of spaces is a rectangle exactly when a lattice rectangle is wholly filled and no
    space crosses its sides; the spaces inside are then those whose first cell lies inside.
    """

    def __init__(self, spaces: Sequence[Sequence[Sequence[int]]]) -> None:
        self.cols = max(r[2] for rects in spaces for r in rects)
        self.rows = max(r[3] for rects in spaces for r in rects)
        owner = [[-1] * self.cols for _ in range(self.rows)]
        self.cells: list[list[tuple[int, int]]] = []
        self.bbox: list[tuple[int, int, int, int]] = []
        for k, rects in enumerate(spaces):
            cells = [
                (x, y) for x0, y0, x1, y1 in rects for y in range(y0, y1) for x in range(x0, x1)
            ]
            for x, y in cells:
                owner[y][x] = k
            self.cells.append(cells)
            self.bbox.append(
                (
                    min(r[0] for r in rects),
                    min(r[1] for r in rects),
                    max(r[2] for r in rects),
                    max(r[3] for r in rects),
                )
            )
        self.owner = owner
        # Walls: vertical[y][x] is a border between cells (x - 1, y) and (x, y) or the field's
        # edge; horizontal[y][x] likewise between (x, y - 1) and (x, y). Prefix sums along them.
        self.vwall = [
            _prefix(
                [x in (0, self.cols) or owner[y][x - 1] != owner[y][x] for y in range(self.rows)]
            )
            for x in range(self.cols + 1)
        ]
        self.hwall = [
            _prefix(
                [y in (0, self.rows) or owner[y - 1][x] != owner[y][x] for x in range(self.cols)]
            )
            for y in range(self.rows + 1)
        ]
        anchors = {cells[0] for cells in self.cells if cells}
        self.anchor = _prefix2(
            [[(x, y) in anchors for x in range(self.cols)] for y in range(self.rows)]
        )

    def largest_rectangle(self, filled: Sequence[bool], space: int) -> int:
        """The most spaces (two or more) of a filled set that includes ``space`` and forms a
        rectangle; 0 when there is none."""
        full = _prefix2(
            [[filled[self.owner[y][x]] for x in range(self.cols)] for y in range(self.rows)]
        )

        def filled_rect(x0: int, y0: int, x1: int, y1: int) -> bool:
            return _sum2(full, x0, y0, x1, y1) == (x1 - x0) * (y1 - y0)

        sx0, sy0, sx1, sy1 = self.bbox[space]
        best = 0
        for y0 in range(sy0, -1, -1):
            if not filled_rect(sx0, y0, sx1, sy1):
                break
            for y1 in range(sy1, self.rows + 1):
                if not filled_rect(sx0, y0, sx1, y1):
                    break
                lefts = []
                for x0 in range(sx0, -1, -1):
                    if not filled_rect(x0, y0, sx1, y1):
                        break
                    if _run(self.vwall[x0], y0, y1):
                        lefts.append(x0)
                if not lefts:
                    continue
                for x1 in range(sx1, self.cols + 1):
                    if not filled_rect(sx0, y0, x1, y1):
                        break
                    if not _run(self.vwall[x1], y0, y1):
                        continue
                    for x0 in lefts:
                        if _run(self.hwall[y0], x0, x1) and _run(self.hwall[y1], x0, x1):
                            best = max(best, _sum2(self.anchor, x0, y0, x1, y1))
        return best if best >= 2 else 0


def _prefix(flags: Sequence[bool]) -> list[int]:
    out = [0]
    for flag in flags:
        out.append(out[-1] + int(flag))
    return out


def _run(prefix: Sequence[int], a: int, b: int) -> bool:
    """Whether every flag in [a, b) is set."""
    return prefix[b] - prefix[a] == b - a


def _prefix2(grid: Sequence[Sequence[bool]]) -> list[list[int]]:
    rows, cols = len(grid), len(grid[0]) if grid else 0
    out = [[0] * (cols + 1) for _ in range(rows + 1)]
    for y in range(rows):
        acc = 0
        for x in range(cols):
            acc += int(grid[y][x])
            out[y + 1][x + 1] = out[y][x + 1] + acc
    return out


def _sum2(p: Sequence[Sequence[int]], x0: int, y0: int, x1: int, y1: int) -> int:
    return p[y1][x1] - p[y0][x1] - p[y1][x0] + p[y0][x0]


class MondrianRules(Rules[MondrianState, tuple[int, bool]]):
    """Mondrian: fill spaces next to coloured ones, never next to your own colour; completing a
    rectangle of filled spaces scores its number of spaces.

    A move is (space index, neutral?), written as the space (``17``, ``space-17``, or its letter
    on the mini field) and ``neutral`` when the neutral colour is used (two or three players).
    Options: ``target`` (0 = the sheet's score boxes, 80 by default) and ``teams`` (four
    players, partners sitting opposite: 1 and 3 against 2 and 4).
    """

    game = "mondrian"
    notation = "the space (17 or space-17; a letter on the mini field), + ' neutral' if so"
    options = ParamSet(
        [
            Param.int("target", 0, 0, 320, "points that end the game (0: the sheet's boxes)"),
            Param.bool("teams", False, "four players in two teams, partners 1+3 and 2+4"),
        ]
    )

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        page = sheet.pages[0]
        features = list(page.features(Kind.SPACE))
        self.ids = [f.id for f in features]
        self.names = {f.id: k for k, f in enumerate(features)}
        for k, f in enumerate(features):
            self.names[f.id.split("-")[1]] = k
            if f.label:
                self.names[f.label.upper()] = k
        self.lattice = _Lattice([f.data["rects"] for f in features])
        self.neighbours = [
            sorted(self.names[n] for n in page.topology.neighbours[i]) for i in self.ids
        ]
        self.neutral = len(players) < 4
        self.target = self.option_values["target"] or int(sheet.spec.params["points"])
        if self.option_values["teams"] and len(players) != 4:
            raise SpecError("teams=on needs four players")

    def initial(self) -> MondrianState:
        return MondrianState((EMPTY,) * len(self.ids), (0,) * len(self.players))

    def _may_fill(self, state: MondrianState, space: int, colour: int) -> str | None:
        """Why ``colour`` may not go on ``space`` now, or ``None`` when it may."""
        if state.owners[space] != EMPTY:
            return "filled"
        around = [state.owners[n] for n in self.neighbours[space]]
        if any(o != EMPTY for o in state.owners) and all(o == EMPTY for o in around):
            return "not-next"
        if colour in around:
            return "own-colour" if colour != NEUTRAL else "neutral-next"
        return None

    def _colours(self, player: int) -> list[int]:
        return [player, NEUTRAL] if self.neutral else [player]

    def legal_moves(self, state: MondrianState) -> Iterator[tuple[int, bool]]:
        player = self.to_move(state)
        if player is None:
            return
        yield from self._moves_for(state, player)

    def _moves_for(self, state: MondrianState, player: int) -> Iterator[tuple[int, bool]]:
        for space in range(len(self.ids)):
            for colour in self._colours(player):
                if self._may_fill(state, space, colour) is None:
                    yield (space, colour == NEUTRAL)

    def _next_able(self, state: MondrianState, start: int) -> int | None:
        """The first player from ``start`` on who can fill a space (players who cannot pass)."""
        count = len(self.players)
        for j in range(count):
            player = (start + j) % count
            if next(self._moves_for(state, player), None) is not None:
                return player
        return None

    def to_move(self, state: MondrianState) -> int | None:
        if state.over:
            return None
        return self._next_able(state, state.turn)

    def apply(self, state: MondrianState, move: tuple[int, bool]) -> MondrianState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        space, neutral = move
        if neutral and not self.neutral:
            raise IllegalMove("no-neutral", "four players play without the neutral colour")
        colour = NEUTRAL if neutral else player
        why = self._may_fill(state, space, colour)
        name = self.ids[space]
        reasons = {
            "filled": f"{name} is already filled",
            "not-next": f"{name} is not next to any filled space",
            "own-colour": f"{name} is next to a space {self.players[player].name} already filled",
            "neutral-next": f"the neutral colour may not go next to itself, as on {name}",
        }
        if why is not None:
            raise IllegalMove(why, reasons[why])
        owners = list(state.owners)
        owners[space] = colour
        scores = list(state.scores)
        if not neutral:
            scores[player] += self.lattice.largest_rectangle([o != EMPTY for o in owners], space)
        over = scores[player] >= self.target
        return MondrianState(tuple(owners), tuple(scores), (player + 1) % len(self.players), over)

    def parse_move(self, text: str, state: MondrianState) -> tuple[int, bool]:
        words = text.split()
        if not 1 <= len(words) <= 2 or (len(words) == 2 and words[1].lower() != "neutral"):
            raise MoveSyntaxError("a move is a space, and 'neutral' when that colour is used")
        key = words[0].upper() if len(words[0]) == 1 else words[0].lower()
        if key not in self.names:
            raise MoveSyntaxError(
                f"'{words[0]}' is not a space of this field (1 to {len(self.ids)})"
            )
        return (self.names[key], len(words) == 2)

    def format_move(self, move: tuple[int, bool]) -> str:
        return self.ids[move[0]] + (" neutral" if move[1] else "")

    def scores(self, state: MondrianState) -> tuple[int, ...]:
        return state.scores

    def winners(self, state: MondrianState) -> list[int]:
        if not self.is_over(state):
            return []
        scores = state.scores
        if self.option_values["teams"]:
            return team_winners(scores)
        best = max(scores)
        return [p for p, s in enumerate(scores) if s == best]


RULES = MondrianRules
