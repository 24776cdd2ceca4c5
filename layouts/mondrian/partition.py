"""Mondrian's partitions: rectilinear spaces on a lattice, L-shapes, pinwheels, no straight cut."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from papergames.errors import FitError
from papergames.layouts.mondrian.params import MAX_RATIO, MIN_SIDE, SLIVER_RATIO
from papergames.sheets.model import INKS, Style
from papergames.sheets.rng import Rng

Rect = tuple[int, int, int, int]
"""A lattice rectangle ``(x0, y0, x1, y1)``: cells ``x0 <= x < x1`` and ``y0 <= y < y1``."""


CELLS_PER_SPACE = 9.0
"""Lattice cells per space on average: fine enough for varied sizes, coarse enough to keep
lines either aligned or clearly apart."""


MAX_SIDE = 9
"""Longest side of a greedy rectangle in lattice cells."""


SQUARENESS = 2.0
"""How strongly a rectangle's height is drawn towards its width: squares and 1:2 blocks
dominate, as in the paintings, with stripes rarer."""


MAX_AREA = 36
"""Largest greedy rectangle in lattice cells."""


ATTEMPTS = 40
"""Fresh fills tried before giving up; one or two are enough for almost every seed."""


HALF_STROKE = INKS[Style.HEAVY].stroke / 2


SCORE_GAP = 6.0
"""Between the two score areas at one end."""


FIELD_GAP = 4.0
"""Between the field and the score areas."""


STROKE_PAD = 0.5
"""Room kept inside the frame for the half strokes of the score boxes."""


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


MINI_COLS, MINI_ROWS = 13, 9
