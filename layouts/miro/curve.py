"""Miro's line as a combinatorial object: a lattice patch and one closed curve through it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from papergames.sheets.rng import Rng

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
