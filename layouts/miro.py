"""Miro (Sid Sackson): one continuous line that crosses itself, cut into segments and spaces.

How the line is made, so the book's counts hold exactly for every seed:

1. A patch of a jittered, gently warped triangular lattice G is cut to a rounded blob that fills
   the field. The *medial* curve of G runs through the midpoints of G's edges: through every
   inner edge's midpoint two strands cross (at about 60 degrees), at a border edge's midpoint the
   line bounces back inside. Its spaces are one small triangle per lattice triangle and one
   larger polygon per inner lattice vertex.
2. Triple points: ``triples`` lattice triangles far apart are reserved. Their three corner
   crossings are never removed; at the end each reserved triangle is shrunk to its centre, so
   its three strands meet in one point at about 60 degrees (three double crossings, three
   segments and one space become one triple crossing).
3. Crossings are removed one at a time by *smoothing* (the two strands turn away instead of
   crossing) until exactly ``crossings + 3 * triples`` crossings are left. While the curve has
   several closed parts a crossing between two parts is smoothed, which joins them; once it is
   one closed line, only the smoothing that keeps it one line is used. Every smoothing merges
   two spaces; a union-find over the lattice's vertices and triangles keeps every space from
   touching a crossing twice (no pinched or self-touching spaces, the field stays one piece).
4. The line is drawn as a centripetal Catmull-Rom spline through the crossing points and the
   offset turning points: smooth (tangent-continuous), through every crossing exactly once per
   strand. The drawing is then checked: segments meet only at their ends, the faces are exactly
   ``spaces``, crossing angles, segment lengths, space areas and clearances. A failed check
   draws another patch (at most :data:`ATTEMPTS` times) and then raises an error naming the
   parameters; the defaults never get there.

Counts (V crossings, E segments, F spaces): V = crossings + triples,
E = 2 * crossings + 3 * triples, F = E - V + 1 = crossings + 2 * triples + 1. The book's 109
spaces and 209 segments are crossings=94, triples=7.

The sheet: the field in the middle, two score areas at each short end of the page (side by side
above and below the field on an upright page, stacked left and right of it on a turned one).
Each area has ``ceil(segments / 2)`` tally boxes (105 by default): a captured space scores one
point per segment of the capturer's colour around it, so a segment scores at most once for each
of its two sides and the whole field gives at most 2 * segments points; the four areas hold
them all (with two players, each uses two areas).

Ids and order:

* ``segment-<n>``: the pieces of the line between consecutive crossing points, numbered along
  the line from ``crossing-1`` (the crossing nearest the field's top-left corner). Data:
  ``spaces`` (the one or two spaces it borders), ``from`` and ``to`` (crossing ids, in the
  direction of travel).
* ``space-<n>``: the spaces in reading order (rows of about 15 mm, left to right). Data:
  ``segments`` (the segments around it).
* Page data: ``path`` (segment ids in order along the closed line), ``crossings`` (for each
  crossing point: ``id`` ``crossing-<k>`` numbered by first visit along the line, ``x``, ``y``,
  ``degree`` 4 or 6 and ``segments`` meeting there), and ``counts``.
* Score areas: the standard ids of :func:`papergames.score.score_area`, players 1 and 2 at the
  top (or left) end, 3 and 4 at the bottom (or right) end.

Parameters: ``crossings`` (double crossings, default 94, 3..120) and ``triples`` (triple
crossings, default 7, 0..10), with ``triples <= crossings / 2`` and
``crossings + 3 * triples <= 120``. Small values give a mini-field like the book's
illustrations (``crossings=8 triples=1``: 11 spaces, 19 segments).

Guarantees checked on every sheet: spaces of at least 40 mm^2, segments of at least 3 mm,
strands crossing at 30 degrees or more, 2 mm between strands that do not cross, and no space
with a neck narrower than 2 mm.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import LineString, MultiLineString, Polygon
from shapely.ops import polygonize, unary_union

from papergames.compose import Frame
from papergames.errors import FitError, SpecError
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import Feature, Item, Kind, Layer, Sheet, Style
from papergames.params import Param, ParamSet
from papergames.rng import Rng
from papergames.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.score import BIG, SPACING, score_area, score_area_height
from papergames.teams import (
    PARTNERSHIP_OPTION,
    TEAMS_OPTION,
    check_team_options,
    team_scores,
    team_winners,
)

SQRT3 = math.sqrt(3.0)
ATTEMPTS = 40
"""Patches drawn before giving up; the default sheet needs one or two."""
MIN_AREA = 40.0
"""Least area in mm^2 of a space: room to fill it with a pencil."""
MIN_SEGMENT = 3.0
"""Least length in mm of a segment."""
MIN_ANGLE = 30.0
"""Least angle in degrees between two strands at a crossing."""
MIN_GAP = 2.0
"""Least distance in mm between strands that do not meet at a crossing, and least width of a
space's narrowest neck."""
SMOOTHING = 0.35
"""Share of the lattice's crossings that are smoothed away: more makes the spaces less regular."""
SAMPLES = 14
"""Polyline points per spline piece between two consecutive waypoints."""
THIN = 0.012
"""Largest distance in mm between the drawn polyline and the spline it stands for."""
FIELD_GAP = 5.0
AREA_GAP = 8.0
STROKE_PAD = 0.6


# --- the lattice patch ------------------------------------------------------------------------


Pt = tuple[float, float]


@dataclass
class Patch:
    """A patch of triangles of a jittered triangular lattice.

    Attributes:
        pts: vertex positions.
        tris: triangles as vertex triples.
        edges: edges as sorted vertex pairs.
        edge_tris: the one or two triangles of each edge.
        tri_edges: the three edges of each triangle.
        boundary_vertex: whether each vertex lies on the patch's border.
        s: the lattice spacing in mm.
    """

    pts: list[Pt]
    tris: list[tuple[int, int, int]]
    edges: list[tuple[int, int]]
    edge_tris: list[list[int]]
    tri_edges: list[tuple[int, int, int]]
    boundary_vertex: list[bool]
    s: float

    def mid(self, e: int) -> Pt:
        a, b = self.edges[e]
        (ax, ay), (bx, by) = self.pts[a], self.pts[b]
        return ((ax + bx) / 2, (ay + by) / 2)

    def centroid(self, t: int) -> Pt:
        a, b, c = (self.pts[v] for v in self.tris[t])
        return ((a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3)

    @property
    def inner_edges(self) -> list[int]:
        return [e for e, ts in enumerate(self.edge_tris) if len(ts) == 2]


def _clean(tris: set[tuple[int, int, int]]) -> set[tuple[int, int, int]]:
    """Drop border triangles until the patch has no spikes, chords or pinched vertices.

    A spike (a vertex with one triangle) makes a tiny loop, a chord (an inner edge between two
    border vertices) pinches the field at its crossing, and a pinched vertex splits the border.
    """
    for _ in range(200):
        at: dict[int, list[tuple[int, int, int]]] = {}
        count: dict[tuple[int, int], int] = {}
        for t in sorted(tris):
            for v in t:
                at.setdefault(v, []).append(t)
            for e in _tri_edge_keys(t):
                count[e] = count.get(e, 0) + 1
        border_edges = [e for e, k in count.items() if k == 1]
        border_degree: dict[int, int] = {}
        for a, b in border_edges:
            border_degree[a] = border_degree.get(a, 0) + 1
            border_degree[b] = border_degree.get(b, 0) + 1
        drop: set[tuple[int, int, int]] = set()
        for v, ts in at.items():
            if len(ts) == 1 or border_degree.get(v, 0) > 2:
                drop.update(ts)
        if not drop:
            for (a, b), k in sorted(count.items()):
                if k == 2 and a in border_degree and b in border_degree:
                    pair = [t for t in at[a] if b in t]
                    pair.sort(key=lambda t: -sum(count[e] == 1 for e in _tri_edge_keys(t)))
                    drop.add(pair[0])
        if not drop:
            return tris
        tris = tris - drop
    return tris


def _tri_edge_keys(t: tuple[int, int, int]) -> list[tuple[int, int]]:
    a, b, c = t
    return [(min(a, b), max(a, b)), (min(b, c), max(b, c)), (min(a, c), max(a, c))]


def _largest_part(tris: set[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The largest set of triangles connected through shared edges, in a stable order."""
    by_edge: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    for t in sorted(tris):
        for e in _tri_edge_keys(t):
            by_edge.setdefault(e, []).append(t)
    seen: set[tuple[int, int, int]] = set()
    best: list[tuple[int, int, int]] = []
    for start in sorted(tris):
        if start in seen:
            continue
        part = [start]
        seen.add(start)
        k = 0
        while k < len(part):
            for e in _tri_edge_keys(part[k]):
                for u in by_edge[e]:
                    if u not in seen:
                        seen.add(u)
                        part.append(u)
            k += 1
        if len(part) > len(best):
            best = part
    return sorted(best)


def make_patch(w: float, h: float, s: float, rng: Rng) -> Patch:
    """A cleaned lattice patch of spacing ``s`` inside a wobbly rounded box of ``w`` x ``h``.

    The box is centred on the origin; the lattice is turned by a random angle and its points are
    jittered and warped, so no two sheets share the strands' directions.
    """
    turn = rng.uniform(0.0, math.pi / 3)
    ox, oy = rng.uniform(0.0, s), rng.uniform(0.0, s)
    power = rng.uniform(2.6, 4.0)
    wob = [(rng.uniform(-0.05, 0.05), rng.uniform(0.0, 2 * math.pi)) for _ in range(3)]
    warp = [
        (
            rng.uniform(0.10, 0.16) * s,
            rng.uniform(0.0, 2 * math.pi),
            rng.uniform(0.0, 2 * math.pi),
            2 * math.pi / (rng.uniform(3.5, 5.5) * s),
        )
        for _ in range(2)
    ]
    a, b = w / 2, h / 2
    c, sn = math.cos(turn), math.sin(turn)
    reach = math.hypot(a, b) + 2 * s
    n = int(reach / s) + 2
    index: dict[tuple[int, int], int] = {}
    pts: list[Pt] = []
    inside: list[bool] = []
    for j in range(-n - 2, n + 3):
        for i in range(-2 * n - 2, 2 * n + 3):
            u = (i + j / 2) * s + ox
            v = j * s * SQRT3 / 2 + oy
            x, y = u * c - v * sn, u * sn + v * c
            if abs(x) > a + s or abs(y) > b + s:
                continue
            phi = math.atan2(y / b, x / a)
            r = 1.0 + sum(amp * math.sin((k + 2) * phi + ph) for k, (amp, ph) in enumerate(wob))
            inside.append((abs(x) / a) ** power + (abs(y) / b) ** power <= r**power)
            index[(i, j)] = len(pts)
            pts.append((x, y))
    jittered: list[Pt] = []
    for x, y in pts:
        dx = sum(
            am * math.sin(k * (x * math.cos(p1) + y * math.sin(p1)) + p2)
            for am, p1, p2, k in warp[:1]
        )
        dy = sum(
            am * math.sin(k * (x * math.cos(p1) + y * math.sin(p1)) + p2)
            for am, p1, p2, k in warp[1:]
        )
        r = rng.uniform(0.0, 0.08 * s)
        q = rng.uniform(0.0, 2 * math.pi)
        jittered.append((x + dx + r * math.cos(q), y + dy + r * math.sin(q)))
    tris: set[tuple[int, int, int]] = set()
    for (i, j), p in index.items():
        for other in (((i + 1, j), (i, j + 1)), ((i + 1, j), (i + 1, j - 1))):
            q1, q2 = index.get(other[0]), index.get(other[1])
            if q1 is None or q2 is None:
                continue
            t = (p, q1, q2)
            if all(inside[v] for v in t):
                tris.add(tuple(sorted(t)))  # type: ignore[arg-type]
    kept = _largest_part(_clean(tris))
    used = sorted({v for t in kept for v in t})
    renumber = {v: k for k, v in enumerate(used)}
    final_tris = [(renumber[a], renumber[b], renumber[c]) for a, b, c in kept]
    edge_index: dict[tuple[int, int], int] = {}
    edges: list[tuple[int, int]] = []
    edge_tris: list[list[int]] = []
    tri_edges: list[tuple[int, int, int]] = []
    for k, t in enumerate(final_tris):
        ids = []
        for e in _tri_edge_keys(t):
            if e not in edge_index:
                edge_index[e] = len(edges)
                edges.append(e)
                edge_tris.append([])
            edge_tris[edge_index[e]].append(k)
            ids.append(edge_index[e])
        tri_edges.append((ids[0], ids[1], ids[2]))
    border = [False] * len(used)
    for e, ts in zip(edges, edge_tris, strict=True):
        if len(ts) == 1:
            border[e[0]] = border[e[1]] = True
    return Patch(
        [jittered[v] for v in used],
        final_tris,
        edges,
        edge_tris,
        tri_edges,
        border,
        s,
    )


# --- the curve as a combinatorial object ------------------------------------------------------

Port = tuple[int, int]
"""A strand's way out of a lattice edge's midpoint: (triangle, edge it heads to)."""

STRAIGHT, MIRROR, PINCH = 0, 1, 2
"""How a lattice edge's midpoint is passed: strands crossing, or smoothed so the two spaces of
the edge's end vertices merge (MIRROR), or so the two triangles' spaces merge (PINCH)."""


class _Faces:
    """Union-find over the lattice's vertices and triangles: which cells form one space."""

    def __init__(self, patch: Patch) -> None:
        self.nv = len(patch.pts)
        self.parent = list(range(self.nv + len(patch.tris)))
        border = [v for v in range(self.nv) if patch.boundary_vertex[v]]
        for v in border[1:]:
            self.union(border[0], v)

    def find(self, x: int) -> int:
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, x: int, y: int) -> None:
        self.parent[self.find(x)] = self.find(y)


@dataclass
class _Visit:
    """One pass of the line through a lattice edge's midpoint."""

    edge: int
    inport: Port
    outport: Port


class Curve:
    """The medial curve of a patch with its smoothings and reserved triangles."""

    def __init__(self, patch: Patch) -> None:
        self.patch = patch
        self.state: dict[int, int] = dict.fromkeys(patch.inner_edges, STRAIGHT)
        self.reserved: list[int] = []
        self.side: dict[tuple[int, int], tuple[int, int]] = {}
        """(edge, triangle) -> (its other edge at the edge's first vertex, at the second)."""
        for e, (v1, _v2) in enumerate(patch.edges):
            for t in patch.edge_tris[e]:
                others = [f for f in patch.tri_edges[t] if f != e]
                at1 = next(f for f in others if v1 in patch.edges[f])
                at2 = next(f for f in others if f != at1)
                self.side[(e, t)] = (at1, at2)

        # Directed medial edges: 6 t + 2 k + d runs inside triangle t between its edges k and
        # k + 1, forwards (d = 0) or backwards (d = 1). ``ahead[d]`` is the edge it arrives at.
        self.ahead: list[int] = []
        self.origin: list[int] = []
        for es in patch.tri_edges:
            for k in range(3):
                a, b = es[k], es[(k + 1) % 3]
                self.ahead += [b, a]
                self.origin += [a, b]
        self.table = [[self._next(d, s) for d in range(len(self.ahead))] for s in range(3)]

    def _leave(self, e: int, port: Port) -> int:
        """The directed medial edge leaving edge ``e``'s midpoint through ``port``."""
        t, f = port
        es = self.patch.tri_edges[t]
        for k in range(3):
            a, b = es[k], es[(k + 1) % 3]
            if (a, b) == (e, f):
                return 6 * t + 2 * k
            if (a, b) == (f, e):
                return 6 * t + 2 * k + 1
        raise AssertionError("port not in triangle")

    def _next(self, d: int, state: int) -> int:
        e, t, f = self.ahead[d], d // 6, self.origin[d]
        return self._leave(e, self._partner(e, (t, f), state))

    def _partner(self, e: int, port: Port, state: int) -> Port:
        """Where a strand arriving at edge ``e``'s midpoint through ``port`` leaves."""
        t, f = port
        ts = self.patch.edge_tris[e]
        if len(ts) == 1:
            a1, a2 = self.side[(e, t)]
            return (t, a2 if f == a1 else a1)
        t1, t2 = ts
        u = t2 if t == t1 else t1
        first = f == self.side[(e, t)][0]
        if state == MIRROR:
            return (t, self.side[(e, t)][1 if first else 0])
        if state == PINCH:
            return (u, self.side[(e, u)][0 if first else 1])
        return (u, self.side[(e, u)][1 if first else 0])

    def loops(self) -> list[list[int]]:
        """Every closed strand as its directed medial edges, in a stable order."""
        seen = [False] * (len(self.ahead) // 2)
        out: list[list[int]] = []
        state = self.state
        table = self.table
        ahead = self.ahead
        for start in range(0, len(self.ahead), 2):
            if seen[start // 2]:
                continue
            run: list[int] = []
            d = start
            while not seen[d // 2]:
                seen[d // 2] = True
                run.append(d)
                d = table[state.get(ahead[d], 0)][d]
            out.append(run)
        return out

    def visits(self) -> list[_Visit]:
        """The single closed line's passes through edge midpoints, in order."""
        (run,) = self.loops()
        out = []
        for i, d in enumerate(run):
            nxt = run[(i + 1) % len(run)]
            out.append(_Visit(self.ahead[d], (d // 6, self.origin[d]), (nxt // 6, self.ahead[nxt])))
        return out


def _reserve(patch: Patch, count: int, rng: Rng) -> list[int] | None:
    """``count`` inner triangles far apart, to become triple crossings."""
    inner = [
        t for t, es in enumerate(patch.tri_edges) if all(len(patch.edge_tris[e]) == 2 for e in es)
    ]
    deep = [t for t in inner if not any(patch.boundary_vertex[v] for v in patch.tris[t])]
    shallow = [t for t in inner if t not in deep]
    if count == 0:
        return []
    centre = {t: patch.centroid(t) for t in inner}
    for spread in (3.0, 2.5, 2.0, 1.6, 1.3):
        for _ in range(4):
            # Triangles away from the border first: their triple points are ringed by spaces.
            order, more = list(deep), list(shallow)
            rng.shuffle(order)
            rng.shuffle(more)
            order += more
            chosen: list[int] = []
            reach = spread * patch.s
            for t in order:
                c = centre[t]
                if all(
                    math.dist(c, centre[u]) >= reach and not set(patch.tris[t]) & set(patch.tris[u])
                    for u in chosen
                ):
                    chosen.append(t)
                    if len(chosen) == count:
                        return sorted(chosen)
    return None


def smooth(patch: Patch, target: int, triples: int, rng: Rng) -> Curve | None:
    """Reserve the triple triangles and smooth crossings until one line with ``target`` is left.

    Returns ``None`` when this patch cannot get there (too few crossings to join its strands, or
    every remaining choice would pinch a space); the caller then draws another patch.
    """
    curve = Curve(patch)
    reserved = _reserve(patch, triples, rng)
    if reserved is None:
        return None
    curve.reserved = reserved
    protected = {e for t in reserved for e in patch.tri_edges[t]}
    faces = _Faces(patch)
    nv = faces.nv
    rules: dict[int, list[tuple[int, int]]] = {}
    for e in patch.inner_edges:
        t1, t2 = patch.edge_tris[e]
        rules[e] = [patch.edges[e], (nv + t1, nv + t2)]
    fixed: list[tuple[int, int]] = []
    for t in reserved:
        vs = patch.tris[t]
        fixed += [(vs[0], vs[1]), (vs[1], vs[2]), (vs[0], vs[2])]
        across = [nv + next(u for u in patch.edge_tris[e] if u != t) for e in patch.tri_edges[t]]
        fixed += [(across[0], across[1]), (across[1], across[2]), (across[0], across[2])]

    counts: dict[tuple[int, int], int] = {}
    root: list[int] = []
    active: list[tuple[int, int]] = []

    def recount() -> None:
        """Count the active rules by the pair of spaces they keep apart."""
        root[:] = [faces.find(x) for x in range(len(faces.parent))]
        counts.clear()
        active[:] = [pq for f, pairs in rules.items() if curve.state[f] == STRAIGHT for pq in pairs]
        for p, q in active + fixed:
            a, b = root[p], root[q]
            k = (a, b) if a < b else (b, a)
            counts[k] = counts.get(k, 0) + 1

    def allowed(e: int, how: int) -> bool:
        """Whether smoothing keeps every space from meeting a crossing in two corners."""
        v1, v2 = patch.edges[e]
        if how == MIRROR:
            if patch.boundary_vertex[v1] or patch.boundary_vertex[v2]:
                return False
            a, b = root[v1], root[v2]
        else:
            t1, t2 = patch.edge_tris[e]
            a, b = root[nv + t1], root[nv + t2]
        k = (a, b) if a < b else (b, a)
        return a != b and counts.get(k, 0) == 1

    def apply(e: int, how: int) -> None:
        curve.state[e] = how
        if how == MIRROR:
            faces.union(*patch.edges[e])
        else:
            t1, t2 = patch.edge_tris[e]
            faces.union(nv + t1, nv + t2)

    left = len(patch.inner_edges)
    free = [e for e in patch.inner_edges if e not in protected]
    rng.shuffle(free)
    history: list[tuple[dict[int, int], list[int]]] = []
    backtracks = 0
    for _ in range(6 * len(free) + 40):
        if left <= target:
            break
        loops = curve.loops()
        passes: dict[int, list[tuple[int, int]]] = {}
        for k, run in enumerate(loops):
            for d in run:
                e = curve.ahead[d]
                if curve.state.get(e, MIRROR) == STRAIGHT:
                    passes.setdefault(e, []).append((k, d // 6))
        order = [e for e in free if curve.state[e] == STRAIGHT]
        recount()
        choice: tuple[int, int] | None = None
        if len(loops) - 1 > left - target:
            pass
        elif len(loops) > 1:
            for e in order:
                (k1, _), (k2, _) = passes[e]
                if k1 == k2:
                    continue
                hows = [MIRROR, PINCH]
                rng.shuffle(hows)
                for how in hows:
                    if allowed(e, how):
                        choice = (e, how)
                        break
                if choice:
                    break
        else:
            for e in order:
                (_, p), (_, q) = passes[e]
                how = MIRROR if p == q else PINCH
                if allowed(e, how):
                    if how == PINCH:
                        choice = (e, how)
                        break
                    if choice is None:
                        choice = (e, how)
        if choice is None:
            # Stuck: undo the last few smoothings and try again in another order. Small
            # targets need this; the book's counts almost never do.
            backtracks += 1
            if backtracks > 60 or not history:
                return None
            back = min(len(history), 1 + backtracks % 5)
            state, parent = history[-back]
            del history[-back:]
            curve.state = dict(state)
            faces.parent = list(parent)
            left += back
            rng.shuffle(free)
            continue
        history.append((dict(curve.state), list(faces.parent)))
        apply(*choice)
        left -= 1
    if left != target or len(curve.loops()) != 1:
        return None
    return curve


# --- the drawing --------------------------------------------------------------------------------

BOUNCE = 0.16
"""How far (in lattice spacings) a bounce at the border swings out past the edge's midpoint."""
BOUNCE_WIDTH = 0.22
"""Half the width of a bounce's rounded turn, in half edges."""
PINCH_OFFSET = 0.30
"""How far (in half edges) a PINCH smoothing's two arcs stay from the edge's midpoint."""
MIRROR_OFFSET = 0.30
"""How far (towards the triangle's centre) a MIRROR smoothing's arcs stay from the midpoint."""
BOW = 0.09
"""How far (in lattice spacings) each strand bows out of the small triangle it runs along, so
strands weave and the small spaces grow."""


def waypoints(curve: Curve) -> tuple[list[Pt], list[str | None]]:
    """The points the line passes through, with the key of each crossing point (else None).

    A crossing's key is ``x<edge>``, a triple point's ``t<triangle>``; both strands (three at a
    triple point) pass through the very same coordinates.
    """
    patch = curve.patch
    visits = curve.visits()
    reserved = set(curve.reserved)
    # Start at an ordinary crossing so no reserved triangle straddles the list's ends.
    first = next(
        i
        for i, v in enumerate(visits)
        if curve.state.get(v.edge, MIRROR) == STRAIGHT
        and v.inport[0] not in reserved
        and v.outport[0] not in reserved
    )
    visits = visits[first:] + visits[:first]
    pts: list[Pt] = []
    keys: list[str | None] = []
    s = patch.s
    skip = False
    for i, v in enumerate(visits):
        nxt = visits[(i + 1) % len(visits)]
        e = v.edge
        mx, my = patch.mid(e)
        t_in, t_out = v.inport[0], v.outport[0]
        if skip:
            skip = False
        elif t_out in reserved:
            pts.append(patch.centroid(t_out))
            keys.append(f"t{t_out}")
            skip = True
        elif len(patch.edge_tris[e]) == 1:
            (cx, cy) = patch.centroid(t_in)
            a, b = patch.edges[e]
            (ax, ay), (bx, by) = patch.pts[a], patch.pts[b]
            nx, ny = -(by - ay), bx - ax
            if nx * (mx - cx) + ny * (my - cy) < 0:
                nx, ny = -nx, -ny
            k = BOUNCE * s / math.hypot(nx, ny)
            # Two points side by side round the turn off: first on the arriving strand's side.
            near = a if a in patch.edges[v.inport[1]] else b
            (qx, qy) = patch.pts[near]
            for sign in (1.0, -1.0):
                pts.append(
                    (
                        mx + k * nx + sign * BOUNCE_WIDTH * (qx - mx),
                        my + k * ny + sign * BOUNCE_WIDTH * (qy - my),
                    )
                )
                keys.append(None)
        elif curve.state[e] == STRAIGHT:
            pts.append((mx, my))
            keys.append(f"x{e}")
        elif curve.state[e] == MIRROR:
            cx, cy = patch.centroid(t_in)
            pts.append((mx + MIRROR_OFFSET * (cx - mx), my + MIRROR_OFFSET * (cy - my)))
            keys.append(None)
        else:
            shared = set(patch.edges[v.inport[1]]) & set(patch.edges[v.outport[1]])
            (vx, vy) = patch.pts[shared.pop()]
            pts.append((mx + PINCH_OFFSET * (vx - mx), my + PINCH_OFFSET * (vy - my)))
            keys.append(None)
        if t_out in reserved:
            continue
        # The bow point of the medial edge from this visit to the next.
        (ax, ay), (bx, by) = patch.mid(e), patch.mid(nxt.edge)
        cx, cy = patch.centroid(t_out)
        px, py = (ax + bx) / 2, (ay + by) / 2
        nx, ny = -(by - ay), bx - ax
        if nx * (px - cx) + ny * (py - cy) < 0:
            nx, ny = -nx, -ny
        k = BOW * s / max(math.hypot(nx, ny), 1e-9)
        pts.append((px + k * nx, py + k * ny))
        keys.append(None)
    return pts, keys


def spline(pts: Sequence[Pt], samples: int = SAMPLES) -> np.ndarray:
    """A closed centripetal Catmull-Rom spline through ``pts``, ``samples`` points per piece.

    Row ``i * samples`` is exactly ``pts[i]``, so strands meet at shared waypoints exactly.
    """
    p = np.asarray(pts, dtype=float)
    n = len(p)
    p0, p1, p2, p3 = np.roll(p, 1, 0), p, np.roll(p, -1, 0), np.roll(p, -2, 0)

    def knot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out: np.ndarray = np.maximum(np.sqrt(np.hypot(*(b - a).T)), 1e-6)[:, None]
        return out

    t0 = np.zeros((n, 1))
    t1 = t0 + knot(p0, p1)
    t2 = t1 + knot(p1, p2)
    t3 = t2 + knot(p2, p3)
    u = np.linspace(0.0, 1.0, samples, endpoint=False)[None, :]
    t = t1 + (t2 - t1) * u  # (n, samples)

    def lerp(pa: np.ndarray, pb: np.ndarray, ta: np.ndarray, tb: np.ndarray) -> np.ndarray:
        wa = ((tb - t) / (tb - ta))[:, :, None]
        wb = ((t - ta) / (tb - ta))[:, :, None]
        out: np.ndarray = wa * pa[:, None, :] + wb * pb[:, None, :]
        return out

    a1 = lerp(p0, p1, t0, t1)
    a2 = lerp(p1, p2, t1, t2)
    a3 = lerp(p2, p3, t2, t3)
    w1a = ((t2 - t) / (t2 - t0))[:, :, None]
    w1b = ((t - t0) / (t2 - t0))[:, :, None]
    b1 = w1a * a1 + w1b * a2
    w2a = ((t3 - t) / (t3 - t1))[:, :, None]
    w2b = ((t - t1) / (t3 - t1))[:, :, None]
    b2 = w2a * a2 + w2b * a3
    wa = ((t2 - t) / (t2 - t1))[:, :, None]
    wb = ((t - t1) / (t2 - t1))[:, :, None]
    c = wa * b1 + wb * b2
    c[:, 0, :] = p
    flat: np.ndarray = c.reshape(-1, 2)
    return flat


@dataclass
class Drawing:
    """The drawn line cut into segments, with its spaces, ready to check and to print.

    Attributes:
        segments: coordinates of each segment, in order along the line.
        ends: the crossing keys each segment runs from and to.
        points: each crossing key's position.
        faces: the spaces' polygons (unordered).
        sides: for each segment, the indices into ``faces`` on its two sides (outside: None).
        angles: for each crossing key, the least angle in degrees between its strands.
        field: the union of the spaces (the region the line encloses).
    """

    segments: list[np.ndarray]
    ends: list[tuple[str, str]]
    points: dict[str, Pt]
    faces: list[Polygon]
    sides: list[tuple[int | None, int | None]]
    angles: dict[str, float]
    field: Polygon


class DrawError(Exception):
    """This attempt's drawing breaks a rule; another patch is drawn."""


def _fit(samples: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """Scale and move the line to fill the box (x0, y0, x1, y1), keeping its proportions."""
    lo, hi = samples.min(axis=0), samples.max(axis=0)
    x0, y0, x1, y1 = box
    k = min((x1 - x0) / (hi[0] - lo[0]), (y1 - y0) / (hi[1] - lo[1]))
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    fitted: np.ndarray = (samples - (lo + hi) / 2) * k + centre
    return fitted


def draw(curve: Curve, box: tuple[float, float, float, float], expect: tuple[int, int]) -> Drawing:
    """Draw the curve into ``box`` and check every rule of the field.

    Args:
        curve: the smoothed curve (one closed line).
        box: where the line goes, in page mm.
        expect: (segments, spaces) the counts must come to.

    Raises:
        DrawError: naming the rule the drawing breaks.
    """
    pts, keys = waypoints(curve)
    raw = spline(pts)
    c = _fit(raw, box)
    n = len(pts)
    marks = [i for i, k in enumerate(keys) if k is not None]
    # Start the numbering at the crossing nearest the box's top-left corner, heading right.
    where = {str(keys[i]): (float(c[i * SAMPLES, 0]), float(c[i * SAMPLES, 1])) for i in marks}
    first_key = min(where, key=lambda k: (where[k][0] - box[0]) + (where[k][1] - box[1]))
    starts = [j for j, i in enumerate(marks) if keys[i] == first_key]
    heading = [
        float(c[(marks[j] * SAMPLES + 1) % len(c), 0] - c[marks[j] * SAMPLES, 0]) for j in starts
    ]
    start = starts[max(range(len(starts)), key=lambda k: heading[k])]
    marks = marks[start:] + marks[:start]
    segments: list[np.ndarray] = []
    ends: list[tuple[str, str]] = []
    total = n * SAMPLES
    for j, i in enumerate(marks):
        k = marks[(j + 1) % len(marks)]
        a, b = i * SAMPLES, k * SAMPLES
        if b <= a:
            b += total
        rows = np.arange(a, b + 1) % total
        segments.append(c[rows])
        ends.append((str(keys[i]), str(keys[k])))
    want_segments, want_faces = expect
    if len(segments) != want_segments:
        raise DrawError(f"{len(segments)} segments instead of {want_segments}")
    # Thin the dense samples to what the eye needs; the checks below see the thinned line.
    lines = list(
        shapely.simplify(
            np.array([LineString(seg) for seg in segments]), THIN, preserve_topology=False
        )
    )
    segments = [np.asarray(line.coords) for line in lines]
    lengths = [line.length for line in lines]
    if min(lengths) < MIN_SEGMENT:
        raise DrawError("a segment is too short")
    # The pieces meet only at their ends: noding them must not cut any piece.
    noded = unary_union(lines)
    parts = list(noded.geoms) if isinstance(noded, MultiLineString) else [noded]
    if len(parts) != len(lines):
        raise DrawError("the line touches itself away from its crossing points")
    faces = list(polygonize(parts))
    if len(faces) != want_faces:
        raise DrawError(f"{len(faces)} spaces instead of {want_faces}")
    for f in faces:
        if not f.is_valid or f.interiors or f.area < MIN_AREA:
            raise DrawError("a space is too small")
    for core in shapely.buffer(np.array(faces), -MIN_GAP / 2, quad_segs=2):
        if core.is_empty or core.geom_type != "Polygon":
            raise DrawError("a space has a neck narrower than the least gap")
    field = shapely.coverage_union_all(faces)
    if not isinstance(field, Polygon) or field.interiors:
        raise DrawError("the spaces do not form one field")
    # Crossing angles.
    dirs: dict[str, list[tuple[float, float]]] = {}
    for i in marks:
        row = i * SAMPLES
        d = c[(row + 1) % total] - c[(row - 1) % total]
        dirs.setdefault(str(keys[i]), []).append((float(d[0]), float(d[1])))
    angles: dict[str, float] = {}
    for key, ds in dirs.items():
        least = 90.0
        for p in range(len(ds)):
            for q in range(p + 1, len(ds)):
                (ax, ay), (bx, by) = ds[p], ds[q]
                cos = abs(ax * bx + ay * by) / (math.hypot(ax, ay) * math.hypot(bx, by))
                least = min(least, math.degrees(math.acos(min(1.0, cos))))
        angles[key] = least
    if min(angles.values()) < MIN_ANGLE:
        raise DrawError("two strands cross at too small an angle")
    # Clearance between strands that share no crossing.
    tree = STRtree(lines)
    grown = shapely.buffer(shapely.envelope(np.array(lines)), MIN_GAP, quad_segs=1)
    near = tree.query(grown)
    pairs = [
        (a, b)
        for a, b in zip(near[0].tolist(), near[1].tolist(), strict=True)
        if a < b and not set(ends[a]) & set(ends[b])
    ]
    if pairs:
        left = np.array([lines[a] for a, _ in pairs])
        right = np.array([lines[b] for _, b in pairs])
        if shapely.dwithin(left, right, MIN_GAP).any():
            raise DrawError("two strands run too close together")
    # Which spaces lie on each side of each segment: probe just left and right of its middle.
    face_tree = STRtree(faces)
    line_array = np.array(lines)
    mids = shapely.get_coordinates(shapely.line_interpolate_point(line_array, 0.5, normalized=True))
    after = shapely.get_coordinates(
        shapely.line_interpolate_point(line_array, 0.52, normalized=True)
    )
    before = shapely.get_coordinates(
        shapely.line_interpolate_point(line_array, 0.48, normalized=True)
    )
    along = after - before
    normal = np.stack([-along[:, 1], along[:, 0]], axis=1)
    normal *= 0.05 / np.hypot(normal[:, 0], normal[:, 1])[:, None]
    probes = shapely.points(np.concatenate([mids + normal, mids - normal]))
    hit = face_tree.query(probes, predicate="within")
    found: dict[int, int] = dict(zip(hit[0].tolist(), hit[1].tolist(), strict=True))
    m = len(segments)
    sides = [(found.get(i), found.get(i + m)) for i in range(m)]
    if any(a == b for a, b in sides):
        raise DrawError("a segment has the same space on both sides")
    return Drawing(segments, ends, where, faces, sides, angles, field)


# --- the sheet ------------------------------------------------------------------------------------

MAX_LOAD = 120
"""Most crossings + 3 * triples that fit on A4 or Letter with spaces of at least 40 mm^2."""
TALLY_SIZE = 4.0
"""Side in mm of a tally box: a little under the standard 4.5 mm, as each area holds many."""
SPREAD = 1.0 + SMOOTHING
"""The lattice patch has this many times the crossings the line keeps."""
ROOM = 190.0
"""Least field area in mm^2 per unit of crossings + 3 * triples: below it spaces get too small."""
DENSITY = 2.22
"""Inner lattice edges per (area / spacing^2) of a cleaned patch: a first guess of the spacing."""


def counts(crossings: int, triples: int) -> tuple[int, int, int]:
    """(crossing points, segments, spaces) of a line with these double and triple crossings.

    Example:
        >>> counts(94, 7)
        (101, 209, 109)
    """
    points = crossings + triples
    segments = 2 * crossings + 3 * triples
    return points, segments, segments - points + 1


def tally_boxes(segments: int) -> int:
    """Tally boxes in each of the four score areas.

    A captured space scores one point per segment of the capturer's colour around it, so each
    segment scores at most once for each of its two sides: the field can give at most
    2 * segments points, and the four areas together hold that many.
    """
    return math.ceil(2 * segments / 4)


def reading_order(polys: Sequence[Polygon], band: float = 15.0) -> list[int]:
    """Indices of the polygons in reading order: rows of ``band`` mm, left to right."""
    spots = [p.representative_point() for p in polys]
    return sorted(
        range(len(polys)), key=lambda i: (math.floor(spots[i].y / band), spots[i].x, spots[i].y)
    )


def _sized_patch(w: float, h: float, s: float, want: int, rng: Rng) -> Patch:
    """A patch with about ``want`` inner edges (at least that many if any spacing gives it).

    The spacing is searched by bisection on a log scale, starting from the guess ``s``.
    """
    fine: float | None = None
    coarse: float | None = None
    best: Patch | None = None
    for step in range(12):
        patch = make_patch(w, h, s, rng.child(step))
        have = len(patch.inner_edges)
        if have >= want and (best is None or have < len(best.inner_edges)):
            best = patch
        if want <= have <= want * 1.08 + 2:
            return patch
        if have < want:
            coarse = s
        else:
            fine = s
        if fine is not None and coarse is not None:
            s = math.sqrt(fine * coarse)
        elif coarse is not None:
            s = coarse * max(0.6, math.sqrt(max(have, 1) / want))
        else:
            s = s * min(1.6, math.sqrt(have / want))
    return best if best is not None else patch


def build_line(
    box: tuple[float, float, float, float], crossings: int, triples: int, rng: Rng
) -> Drawing:
    """Draw a line with exactly these crossings inside ``box``, retrying a bounded number of times.

    Raises:
        FitError: when no attempt keeps every rule (the field is too small for the counts).
    """
    _, segments, spaces = counts(crossings, triples)
    load = crossings + 3 * triples
    w, h = box[2] - box[0], box[3] - box[1]
    if w * h < ROOM * load:
        raise FitError(
            f"crossings={crossings} triples={triples} need a field of {ROOM * load:.0f} mm^2, "
            f"this page leaves {w * h:.0f}: use fewer crossings or triples, or larger paper "
            "(upright pages leave the most room)"
        )
    want = max(math.ceil(load * SPREAD) + 2, load + 12, 10 * triples)
    s = math.sqrt(DENSITY * w * h / want)
    reasons: dict[str, int] = {}
    for attempt in range(ATTEMPTS):
        stream = rng.child("attempt", attempt)
        patch = _sized_patch(w, h, s, want, stream.child("patch"))
        s = patch.s
        curve = smooth(patch, load, triples, stream.child("smooth"))
        if curve is None:
            # Too few crossings to join the strands or to hold the triple points far apart:
            # the next patch is finer.
            reasons["no single line"] = reasons.get("no single line", 0) + 1
            if load >= 40:
                want = math.ceil(want * 1.05)
            continue
        try:
            return draw(curve, box, (segments, spaces))
        except DrawError as exc:
            reasons[str(exc)] = reasons.get(str(exc), 0) + 1
    worst = max(reasons, key=lambda k: reasons[k])
    raise FitError(
        f"crossings={crossings} triples={triples}: no drawing of the line kept every rule in "
        f"{ATTEMPTS} tries ({worst}): use fewer crossings or triples, or larger paper"
    )


def _place_areas(
    frame: Frame, tally: int
) -> tuple[tuple[float, float, float, float], list[tuple[float, float]], float]:
    """Put two score areas at each short end of the sheet; return the field's box, the areas'
    top-left corners (players 1 and 2 at the top or left end) and the areas' width.

    On an upright page the areas sit side by side above and below the field; on a turned page
    they are stacked at its left and right ends, each as narrow as its tally boxes allow.

    Raises:
        FitError: when the areas leave too little room for the field.
    """
    if frame.h >= frame.w:
        width = (frame.w - AREA_GAP) / 2
        band = score_area_height(tally, width, TALLY_SIZE)
        top, bottom = frame.y + band + FIELD_GAP, frame.bottom - band - FIELD_GAP
        corners = [
            (frame.x, frame.y),
            (frame.x + width + AREA_GAP, frame.y),
            (frame.x, frame.bottom - band),
            (frame.x + width + AREA_GAP, frame.bottom - band),
        ]
        box = (frame.x, top, frame.right, bottom)
    else:
        fixed = 3 * (BIG + SPACING)
        for cols in range(1, tally + 1):
            width = fixed + cols * TALLY_SIZE + 0.01
            height = score_area_height(tally, width, TALLY_SIZE)
            if 2 * height + AREA_GAP <= frame.h:
                break
        left, right = frame.x + width + FIELD_GAP, frame.right - width - FIELD_GAP
        lower = frame.y + height + AREA_GAP
        corners = [
            (frame.x, frame.y),
            (frame.x, lower),
            (frame.right - width, frame.y),
            (frame.right - width, lower),
        ]
        box = (left, frame.y, right, frame.bottom)
    if min(box[2] - box[0], box[3] - box[1]) < 60:
        raise FitError("the score areas leave no room for the field: use larger paper")
    return box, corners, width


class MiroLayout(Layout):
    """One closed line crossing itself, with four score areas, two at each end."""

    name = "miro"
    params = ParamSet(
        [
            Param.int("crossings", 94, 3, 120, "points where two strands of the line cross"),
            Param.int("triples", 7, 0, 10, "points where three strands of the line cross"),
        ]
    )
    how_to_play = """\
The field is one closed line that crosses itself. A segment is the stretch of line between \
two neighbouring crossing points; a space is a region enclosed by segments. Each player takes \
a colour; with three or four players each uses one score area, with two each uses two.

The first player colours any one segment. The next colours two segments that continue the \
line from either end of it, and the next three segments that continue from the two just \
coloured. From then on each player in turn colours one, two or three segments continuing the \
line from the end of the last segments coloured. A run follows the line straight through a \
crossing, never turning onto another strand.

Whoever colours the last uncoloured segment around a space captures it and scores one point \
for each segment of his own colour around that space; one move may capture several spaces. \
Tally the points in your score area and write the total in T. When every segment is coloured \
the highest score wins; partners in a four-player game add their scores.

Partnership variants: before adding, the lower scorer of each team doubles his score (so \
partners keep level), or the higher scorer does (so they back the leader). For a short game \
print a mini-field, for instance crossings=8 triples=1 (11 spaces, 19 segments).
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """Refuse counts that cannot fit with pencil-sized spaces."""
        load = params["crossings"] + 3 * params["triples"]
        if load > MAX_LOAD:
            raise SpecError(
                f"crossings={params['crossings']} with triples={params['triples']} is too many: "
                f"crossings + 3 * triples must be at most {MAX_LOAD}"
            )
        if params["triples"] > params["crossings"] // 2:
            raise SpecError(
                f"triples={params['triples']} needs more double crossings: triples must be at "
                f"most half of crossings (crossings={params['crossings']})"
            )

    def notes(self) -> list[str]:
        points, segments, spaces = counts(94, 7)
        return [
            f"the defaults give the book's field: {points} crossing points, {segments} segments, "
            f"{spaces} spaces",
            "segments = 2 * crossings + 3 * triples, spaces = crossings + 2 * triples + 1",
            f"each score area holds segments / 2 tally boxes, rounded up ({tally_boxes(segments)} "
            "by default): the four areas hold every point the field can give",
            "a mini-field for a short game: crossings=8 triples=1 (11 spaces, 19 segments)",
        ]

    def build(self, ctx: BuildContext) -> list[PageBody]:
        crossings: int = ctx.params["crossings"]
        triples: int = ctx.params["triples"]
        points, segments, spaces = counts(crossings, triples)
        frame = ctx.frame.inset(STROKE_PAD)
        tally = tally_boxes(segments)
        box, corners, width = _place_areas(frame, tally)
        drawing = build_line(box, crossings, triples, ctx.rng("line"))
        items: list[Item] = []
        order = reading_order(drawing.faces)
        number = {face: k for k, face in enumerate(order, start=1)}
        crossing_ids: dict[str, str] = {}
        for a, _ in drawing.ends:
            crossing_ids.setdefault(a, f"crossing-{len(crossing_ids) + 1}")
        around: dict[int, list[str]] = {k: [] for k in range(1, len(order) + 1)}
        meeting: dict[str, list[str]] = {cid: [] for cid in crossing_ids.values()}
        path: list[str] = []
        for n, (seg, (a, b), side) in enumerate(
            zip(drawing.segments, drawing.ends, drawing.sides, strict=True), start=1
        ):
            sid = f"segment-{n}"
            path.append(sid)
            beside = sorted(number[f] for f in side if f is not None)
            for k in beside:
                around[k].append(sid)
            for c in (crossing_ids[a], crossing_ids[b]):
                if sid not in meeting[c]:
                    meeting[c].append(sid)
            items.append(
                Feature(
                    sid,
                    Kind.SEGMENT,
                    LineString(seg),
                    Style.MEDIUM,
                    Layer.FIELD,
                    data={
                        "spaces": [f"space-{k}" for k in beside],
                        "from": crossing_ids[a],
                        "to": crossing_ids[b],
                    },
                )
            )
        for k, face in enumerate(order, start=1):
            items.append(
                Feature(
                    f"space-{k}",
                    Kind.SPACE,
                    drawing.faces[face],
                    Style.NONE,
                    Layer.FIELD,
                    data={"segments": around[k]},
                )
            )
        field = drawing.field
        for p, (x, y) in enumerate(corners, start=1):
            items.extend(score_area(p, x, y, width, tally, tally_size=TALLY_SIZE).items)
        crossing_data = []
        for key, cid in crossing_ids.items():
            x, y = drawing.points[key]
            crossing_data.append(
                {
                    "id": cid,
                    "x": round(x, 4),
                    "y": round(y, 4),
                    "degree": 6 if key.startswith("t") else 4,
                    "segments": meeting[cid],
                }
            )
        data: dict[str, Any] = {
            "path": path,
            "crossings": crossing_data,
            "counts": {
                "double": crossings,
                "triple": triples,
                "points": points,
                "segments": segments,
                "spaces": spaces,
            },
        }
        subtitle = f"{spaces} spaces, {segments} segments"
        return [PageBody(items, subtitle, field, data)]


LAYOUT = MiroLayout()


# --- the rules --------------------------------------------------------------------------------

FREE = -1
"""Owner of a segment nobody has coloured yet, or of a space nobody has captured."""

OPENING = (1, 2, 3)
"""Segments the first, second and third moves colour; every later move colours one to three."""

LONGEST = 3
"""Most segments one move colours."""

"""Team scoring: partners add their scores, or the lower (higher) scorer of a team counts twice."""

_WORD = re.compile(r"[^\s,]+")
_ITEM = re.compile(r"(?:segment-)?(\d+)(?:\.\.(?:segment-)?(\d+))?", re.IGNORECASE)
_ORDINAL = ("first", "second", "third")


@dataclass(frozen=True)
class MiroMove:
    """Colour a run of segments.

    ``run`` holds the segments' places along the line (0-based indices into the page's
    ``path``, so place ``k`` is ``segment-<k+1>``) in the order they are coloured: the first
    one next to the segment coloured last.
    """

    run: tuple[int, ...]


@dataclass(frozen=True)
class MiroState:
    """Who coloured each segment (by place along the line) and captured each space, the scores,
    and where the line is being coloured.

    Attributes:
        moves: moves made so far (the mover is ``moves % players``).
        first: place of the segment the first move coloured (-1 before it).
        head: place of the segment coloured last (-1 before the first move).
        way: +1 when play runs forwards along ``path`` (segment numbers going up), -1 when it
            runs backwards, 0 until the second move has chosen.
    """

    segments: tuple[int, ...]
    spaces: tuple[int, ...]
    scores: tuple[int, ...]
    moves: int = 0
    first: int = -1
    head: int = -1
    way: int = 0


class MiroRules(Rules[MiroState, MiroMove]):
    """Miro: colour runs of segments along one closed line; closing a space captures it.

    The first move colours one segment, the second two segments continuing the line from
    either end of it, the third three continuing from the second's far end, and every later
    move one, two or three continuing from the segment coloured last. A run follows the line
    straight through crossings (the order of the page's ``path``), so the coloured part is
    always one unbroken stretch of the line, and after the second move play always runs the
    same way round. A run may not pass a segment already coloured: near the end it stops short
    of the first segment, and the game ends when the line is coloured all round. The move that
    colours the last uncoloured segment around a space captures it and scores one point for
    each segment around it in the mover's colour.

    Moves (the sheet prints no names: model ids, numbered along the line):

    * ``segment-17``: one segment;
    * ``segment-17..19``: a run along the line from segment-17 to segment-19, written from the
      end next to the segment coloured last; ``segment-19..17`` runs backwards. The numbering
      wraps round the closed line: with 209 segments, ``segment-208..1`` is 208, 209, 1.
    * ``segment-17 segment-18 segment-19`` (or ``17 18 19``): the same run, one by one.

    Options: ``teams`` (four players, partners 1+3 against 2+4) and ``partnership`` (the
    book's partnership variations: add, double-lower, double-higher).
    """

    game = "miro"
    notation = (
        "segment-17 (one segment), segment-17..19 (a run along the line, written from the end "
        "next to the segment coloured last; segment-19..17 runs backwards; numbers wrap round "
        "the closed line), or the segments one by one: segment-17 segment-18"
    )
    options = ParamSet(
        [
            TEAMS_OPTION,
            PARTNERSHIP_OPTION,
        ]
    )

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        page = sheet.pages[0]
        self.segment_ids: list[str] = list(page.data["path"])
        self.place: dict[str, int] = {sid: k for k, sid in enumerate(self.segment_ids)}
        segments = {f.id: f for f in page.features(Kind.SEGMENT)}
        spaces = list(page.features(Kind.SPACE))
        self.space_ids = [f.id for f in spaces]
        space_index = {f.id: k for k, f in enumerate(spaces)}
        self.segment_spaces: list[tuple[int, ...]] = [
            tuple(space_index[s] for s in segments[sid].data["spaces"]) for sid in self.segment_ids
        ]
        self.space_segments: list[tuple[int, ...]] = [
            tuple(self.place[s] for s in f.data["segments"]) for f in spaces
        ]
        self.size = len(self.segment_ids)
        check_team_options(self.option_values, len(players))

    # -- state -------------------------------------------------------------------------------

    def initial(self) -> MiroState:
        return MiroState(
            (FREE,) * self.size, (FREE,) * len(self.space_ids), (0,) * len(self.players)
        )

    def to_move(self, state: MiroState) -> int | None:
        if FREE not in state.segments:
            return None
        return state.moves % len(self.players)

    def scores(self, state: MiroState) -> tuple[int, ...]:
        return state.scores

    def team_scores(self, state: MiroState) -> tuple[int, int]:
        """The two teams' totals (players 1+3, then 2+4), by the ``partnership`` option."""
        return team_scores(state.scores, self.option_values["partnership"])

    def winners(self, state: MiroState) -> list[int]:
        if self.is_over(state) and self.option_values["teams"]:
            return team_winners(state.scores, self.option_values["partnership"])
        return super().winners(state)

    def captured(self, state: MiroState) -> tuple[int, ...]:
        """How many spaces each player has captured."""
        return tuple(state.spaces.count(p) for p in range(len(self.players)))

    def claims(self, state: MiroState) -> dict[str, tuple[int, ...]]:
        found = {"spaces": self.captured(state)}
        if self.option_values["teams"]:
            teams = self.team_scores(state)
            found["team"] = tuple(teams[p % 2] for p in range(4))
        return found

    def describe(self, state: MiroState) -> list[str]:
        names = [p.name for p in self.players]
        spaces = ", ".join(f"{n} {c}" for n, c in zip(names, self.captured(state), strict=True))
        lines = [f"spaces captured: {spaces}"]
        if self.option_values["teams"]:
            a, b = self.team_scores(state)
            mode = self.option_values["partnership"]
            lines.append(
                f"teams ({mode}): {names[0]} + {names[2]} {a}, {names[1]} + {names[3]} {b}"
            )
        return lines

    # -- runs --------------------------------------------------------------------------------

    def lengths(self, state: MiroState) -> tuple[int, ...]:
        """How many segments the next move may colour."""
        if state.moves < len(OPENING):
            return (OPENING[state.moves],)
        return tuple(range(1, LONGEST + 1))

    def starts(self, state: MiroState) -> list[tuple[int, int]]:
        """Where the next run may begin and which way it runs: (place, +1 or -1). Empty before
        the first move, which may colour any segment."""
        if state.moves == 0:
            return []
        if state.moves == 1:
            return [((state.first + 1) % self.size, 1), ((state.first - 1) % self.size, -1)]
        return [((state.head + state.way) % self.size, state.way)]

    def _along(self, start: int, way: int, count: int) -> tuple[int, ...]:
        return tuple((start + k * way) % self.size for k in range(count))

    def _way(self, run: Sequence[int]) -> int | None:
        """+1 or -1 when the run's segments follow each other along the line that way (0 for a
        single segment), ``None`` when they do not."""
        if len(run) == 1:
            return 0
        way = 1 if (run[1] - run[0]) % self.size == 1 else -1
        if len(set(run)) != len(run):
            return None
        if any((b - a) % self.size != way % self.size for a, b in itertools.pairwise(run)):
            return None
        return way

    # -- moves -------------------------------------------------------------------------------

    def legal_moves(self, state: MiroState) -> Iterator[MiroMove]:
        if self.to_move(state) is None:
            return
        if state.moves == 0:
            for place in range(self.size):
                yield MiroMove((place,))
            return
        for start, way in self.starts(state):
            for count in self.lengths(state):
                run = self._along(start, way, count)
                if all(state.segments[s] == FREE for s in run):
                    yield MiroMove(run)

    def _check(self, state: MiroState, run: tuple[int, ...]) -> int:
        """The way the run goes (0 for the first move), or :class:`IllegalMove` saying why the
        run may not be coloured now."""
        if any(not 0 <= s < self.size for s in run):
            raise IllegalMove("no-segment", "the move names a segment this field does not have")
        lengths = self.lengths(state)
        if len(run) not in lengths:
            if state.moves < len(OPENING):
                want = lengths[0]
                raise IllegalMove(
                    "length",
                    f"the {_ORDINAL[state.moves]} move colours exactly {want} "
                    f"segment{'s' if want > 1 else ''}, not {len(run)}",
                )
            raise IllegalMove(
                "length", f"a move colours one, two or three segments, not {len(run)}"
            )
        way = self._way(run)
        if way is None:
            raise IllegalMove(
                "not-continuous",
                f"{', '.join(self.segment_ids[s] for s in run)} do not follow one another "
                "along the line",
            )
        if state.moves == 0:
            return 0
        starts = self.starts(state)
        for start, w in starts:
            if run[0] == start and way in (0, w):
                for s in run:
                    if state.segments[s] != FREE:
                        left = state.segments.count(FREE)
                        raise IllegalMove(
                            "coloured",
                            f"{self.segment_ids[s]} is already coloured: a run may not pass it "
                            f"(only {left} segment{'s' if left > 1 else ''} left to colour)",
                        )
                return w
        back = run[::-1]
        if any(back[0] == start and -way == w for start, w in starts):
            raise IllegalMove(
                "order",
                f"write the run from the end next to the segment coloured last: "
                f"{self.format_move(MiroMove(back))}",
            )
        if state.moves == 1:
            (a, _), (b, _) = starts
            first = self.segment_ids[state.first]
            raise IllegalMove(
                "not-continuing",
                f"the second move continues the line from either end of {first}: it starts at "
                f"{self.segment_ids[a]} or {self.segment_ids[b]}",
            )
        (start, _w), *_ = starts
        raise IllegalMove(
            "not-continuing",
            f"the run must continue the line from {self.segment_ids[state.head]}, coloured "
            f"last: it starts at {self.segment_ids[start]}",
        )

    def apply(self, state: MiroState, move: MiroMove) -> MiroState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over: every segment is coloured")
        run = move.run
        if not run:
            raise IllegalMove("length", "a move colours at least one segment")
        way = self._check(state, run)
        segments = list(state.segments)
        for s in run:
            segments[s] = player
        spaces = list(state.spaces)
        scores = list(state.scores)
        for s in run:
            for k in self.segment_spaces[s]:
                around = self.space_segments[k]
                if spaces[k] == FREE and all(segments[t] != FREE for t in around):
                    spaces[k] = player
                    scores[player] += sum(1 for t in around if segments[t] == player)
        return MiroState(
            tuple(segments),
            tuple(spaces),
            tuple(scores),
            state.moves + 1,
            run[0] if state.moves == 0 else state.first,
            run[-1],
            way if state.moves else 0,
        )

    # -- notation ----------------------------------------------------------------------------

    def _number(self, digits: str, word: str, col: int) -> int:
        place = self.place.get(f"segment-{int(digits)}")
        if place is None:
            raise MoveSyntaxError(
                f"'{word}' names no segment of this field (segment-1 to segment-{self.size})",
                col,
            )
        return place

    def parse_move(self, text: str, state: MiroState) -> MiroMove:
        run: list[int] = []
        for m in _WORD.finditer(text):
            word, col = m.group(0), m.start() + 1
            item = _ITEM.fullmatch(word)
            if item is None:
                raise MoveSyntaxError(
                    f"'{word}' is not a segment or a run (as segment-17 or segment-17..19)", col
                )
            a = self._number(item.group(1), word, col + item.start(1))
            if item.group(2) is None:
                run.append(a)
                continue
            b = self._number(item.group(2), word, col + item.start(2))
            forward, backward = (b - a) % self.size, (a - b) % self.size
            if min(forward, backward) >= LONGEST:
                raise MoveSyntaxError(
                    f"'{word}' spans more than {LONGEST} segments along the line either way",
                    col,
                )
            way, steps = (1, forward) if forward <= backward else (-1, backward)
            run.extend(self._along(a, way, steps + 1))
        if not run:
            raise MoveSyntaxError(f"a move is a run of segments: {self.notation}")
        return MiroMove(tuple(run))

    def format_move(self, move: MiroMove) -> str:
        run = move.run
        if all(0 <= s < self.size for s in run):
            if 1 < len(run) <= LONGEST and self._way(run):
                last = self.segment_ids[run[-1]].removeprefix("segment-")
                return f"{self.segment_ids[run[0]]}..{last}"
            return " ".join(self.segment_ids[s] for s in run)
        return " ".join(f"segment-{s + 1}" for s in run)


RULES = MiroRules
