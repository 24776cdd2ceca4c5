"""Arp's field: straight lines ending on each other, grown until they cut the spaces asked for."""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from shapely.geometry import LineString, Point, Polygon
from shapely.ops import polygonize

from papergames.errors import FitError
from papergames.layouts.arp.params import MAX_K, MIN_ANGLE, MIN_AREA, MIN_WIDTH
from papergames.sheets.compose import Frame
from papergames.sheets.model import Feature, Item, Kind, Style
from papergames.sheets.rng import Rng

Pt = tuple[float, float]


MIN_GAP = 4.0
"""Least distance in mm between two points on one line: crossings stay apart and readable."""


MIN_CLEAR = 3.0
"""Least distance in mm between any two points, on one line or not."""


AHEAD = 1.0
"""How far above the even share of the crossings left each chord aims: early chords run ahead,
so the last ones can be short (short chords always find room)."""


CANDIDATES = 24
"""Random lines tried for each chord; the best fitting one is kept."""


ROUNDS = 3
"""Rounds of candidates a chord may use when the first round finds no place for it."""


ATTEMPTS = 25
"""Fresh starts of the whole field before the build gives up."""


FRAME_ANGLE = 30.0
"""Least angle in degrees at a frame corner: a triangle must still fit a wide box."""


LINE_STYLE = Style.TRACE


AREA_GAP = 6.0
"""Between the field and the score areas, and between the two areas of one end."""


PAD = 0.35
"""Inset of the field from the frame: half the width of the line style the fields were first
drawn with, and a little more. It is kept when the style widens, since a field must come out
the same from a seed whatever the line style (a sheet printed before is read by making it
again)."""


SIN_MIN = math.sin(math.radians(MIN_ANGLE))


EPS = 1e-9


def frame_sides(lines: int) -> int:
    """How many lines form the frame: a triangle for tiny fields, a pentagon from 13 lines."""
    if lines <= 6:
        return 3
    if lines <= 12:
        return 4
    return 5


def space_bounds(lines: int) -> tuple[int, int]:
    """Fewest and most spaces ``lines`` lines make with this construction.

    Each chord adds k + 1 spaces, k being the lines it crosses. Chord j (from 0) can cross at
    most j earlier chords (never a frame line); beyond that, the crossings are capped at two per
    chord on average (2 * chords - 1 in all), which the generator meets reliably with spaces of
    pencil size. The book's 25 lines and 55 spaces use 1.75 per chord.

    Example:
        >>> space_bounds(25), space_bounds(10), space_bounds(4)
        ((21, 60), (7, 18), (2, 2))
    """
    chords = lines - frame_sides(lines)
    most = min(sum(min(j, MAX_K) for j in range(chords)), 2 * chords - 1)
    return 1 + chords, 1 + chords + most


def _cross(a: Pt, b: Pt) -> float:
    return a[0] * b[1] - a[1] * b[0]


def _sub(a: Pt, b: Pt) -> Pt:
    return a[0] - b[0], a[1] - b[1]


def _area(poly: Sequence[Pt]) -> float:
    """Signed area (positive when counter-clockwise in x-right, y-up terms)."""
    s = 0.0
    n = len(poly)
    for i in range(n):
        s += _cross(poly[i], poly[(i + 1) % n])
    return s / 2


def _width(poly: Sequence[Pt]) -> float:
    """Width of a convex polygon: the least distance between two parallel lines holding it."""
    n = len(poly)
    best = math.inf
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        length = math.hypot(ex, ey)
        if length < EPS:
            continue
        far = 0.0
        for px, py in poly:
            c = abs(ex * (py - ay) - ey * (px - ax))
            if c > far:
                far = c
        best = min(best, far / length)
    return best


def _steepness(hits: Sequence[_Hit]) -> float:
    """A factor up to 1 that favours chords meeting every line at 45 degrees or more."""
    return min(min(h.sin for h in hits) / math.sin(math.radians(45.0)), 1.0)


def _bbox(poly: Sequence[Pt]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


def _inside(poly: Sequence[Pt], p: Pt) -> bool:
    """Whether ``p`` lies strictly inside the convex polygon ``poly`` (either orientation)."""
    sign = 0.0
    n = len(poly)
    for i in range(n):
        c = _cross(_sub(poly[(i + 1) % n], poly[i]), _sub(p, poly[i]))
        if abs(c) < EPS:
            return False
        if sign == 0.0:
            sign = c
        elif (c > 0) != (sign > 0):
            return False
    return True


def _split(poly: Sequence[Pt], s: Pt, d: Pt) -> tuple[list[Pt], list[Pt]]:
    """Cut a convex polygon by the line through ``s`` with direction ``d`` into its two sides."""
    left: list[Pt] = []
    right: list[Pt] = []
    n = len(poly)
    side = [_cross(d, _sub(p, s)) for p in poly]
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        sa, sb = side[i], side[(i + 1) % n]
        (left if sa >= 0 else right).append(a)
        if (sa >= 0) != (sb >= 0):
            f = sa / (sa - sb)
            x = (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]))
            left.append(x)
            right.append(x)
    return left, right


@dataclass
class _Line:
    """One straight line from ``p`` to ``q`` and the points on it, by parameter t in [0, 1]."""

    p: Pt
    q: Pt
    frame: bool
    stops: list[tuple[float, int]] = field(default_factory=list)

    @property
    def vec(self) -> Pt:
        return _sub(self.q, self.p)

    @property
    def length(self) -> float:
        return math.hypot(*self.vec)


@dataclass
class _Hit:
    """Where a trial line meets an existing line: parameters along both, and the point."""

    u: float
    line: int
    t: float
    at: Pt
    ok: bool
    sin: float


@dataclass
class _Option:
    """A chord that passed every check: its hits from start to end and the faces it splits."""

    hits: list[_Hit]
    faces: list[int]
    halves: list[list[Pt]]
    quality: float

    @property
    def k(self) -> int:
        return len(self.hits) - 2


class _Arrangement:
    """Lines, their meeting points and the convex faces between them, grown chord by chord."""

    def __init__(self, corners: list[Pt]) -> None:
        self.lines: list[_Line] = []
        self.points: list[Pt] = []
        self.point_lines: list[tuple[int, int]] = []
        self.point_ends: list[tuple[int, ...]] = []
        m = len(corners)
        for i in range(m):
            self.lines.append(_Line(corners[i], corners[(i + 1) % m], True))
        for i in range(m):
            prev = (i - 1) % m
            self._add_point(corners[i], (prev, i), (prev, i))
            self.lines[i].stops.append((0.0, len(self.points) - 1))
            self.lines[prev].stops.append((1.0, len(self.points) - 1))
        self.faces: list[list[Pt]] = [list(corners)]
        self.boxes: list[tuple[float, float, float, float]] = [_bbox(corners)]
        self.ks: list[int] = []

    def _add_point(self, at: Pt, lines: tuple[int, int], ends: tuple[int, ...]) -> int:
        self.points.append(at)
        self.point_lines.append(lines)
        self.point_ends.append(ends)
        return len(self.points) - 1

    def hits(self, s: Pt, d: Pt) -> list[_Hit]:
        """Every existing line the infinite line through ``s`` along unit ``d`` meets, in order."""
        found: list[_Hit] = []
        for i, line in enumerate(self.lines):
            e = line.vec
            den = _cross(d, e)
            if abs(den) < EPS:
                continue
            w = _sub(line.p, s)
            t = _cross(w, d) / den
            if t < -EPS or t > 1 + EPS:
                continue
            u = _cross(w, e) / den
            at = (line.p[0] + t * e[0], line.p[1] + t * e[1])
            length = line.length
            sin = abs(den) / length
            ok = sin >= SIN_MIN and all(abs(t - ts) * length >= MIN_GAP for ts, _ in line.stops)
            found.append(_Hit(u, i, t, at, ok, sin))
        found.sort(key=lambda h: h.u)
        return found

    def clear(self, hit: _Hit) -> bool:
        """Whether a hit passes its own checks and keeps :data:`MIN_CLEAR` from every point."""
        if not hit.ok:
            return False
        x, y = hit.at
        limit = MIN_CLEAR * MIN_CLEAR
        return all((px - x) ** 2 + (py - y) ** 2 >= limit for px, py in self.points)

    def face_at(self, p: Pt) -> int:
        """The face whose inside holds ``p``, or -1 (on a line, or outside)."""
        x, y = p
        for i, (x0, y0, x1, y1) in enumerate(self.boxes):
            if x0 < x < x1 and y0 < y < y1 and _inside(self.faces[i], p):
                return i
        return -1

    def options(self, s: Pt, d: Pt, seed_face: int, ks: range) -> list[_Option]:
        """The chords along the line through ``s`` that pass every check and cross k in ``ks``.

        A chord runs from one hit to a later one and must contain the seed point; every hit it
        touches and every face it splits must pass the angle, gap, area and width checks. Faces
        are looked at outward from the seed only as far as ``ks`` allows.
        """
        hits = self.hits(s, d)
        n = len(hits)
        j0 = sum(1 for h in hits if h.u < 0) - 1
        if j0 < 0 or j0 + 1 >= n or not ks:
            return []
        cache: dict[int, tuple[int, list[Pt], list[Pt], float] | None] = {}

        def cell(j: int) -> tuple[int, list[Pt], list[Pt], float] | None:
            """Face between hits j and j + 1 and its two halves, or None if it fails a check."""
            if j in cache:
                return cache[j]
            a, b = hits[j], hits[j + 1]
            result: tuple[int, list[Pt], list[Pt], float] | None = None
            if b.u - a.u >= MIN_GAP:
                if j == j0:
                    f = seed_face
                else:
                    mid = ((a.at[0] + b.at[0]) / 2, (a.at[1] + b.at[1]) / 2)
                    f = self.face_at(mid)
                if f >= 0:
                    left, right = _split(self.faces[f], s, d)
                    if len(left) >= 3 and len(right) >= 3:
                        small = min(abs(_area(left)), abs(_area(right)))
                        if (
                            small >= MIN_AREA
                            and _width(left) >= MIN_WIDTH
                            and _width(right) >= MIN_WIDTH
                        ):
                            result = (f, left, right, small)
            cache[j] = result
            return result

        if cell(j0) is None:
            return []
        most = ks.stop - 1
        starts: list[int] = []
        start = j0
        while start >= 0 and self.clear(hits[start]) and j0 - start <= most:
            if cell(start) is None:
                break
            starts.append(start)
            start -= 1
        ends: list[int] = []
        end = j0 + 1
        while end < n and self.clear(hits[end]) and end - j0 - 1 <= most:
            if cell(end - 1) is None:
                break
            ends.append(end)
            end += 1
        found: list[_Option] = []
        for start in starts:
            for end in ends:
                k = end - start - 1
                if k not in ks:
                    continue
                chosen = [cache[j] for j in range(start, end)]
                parts = [c for c in chosen if c is not None]
                found.append(
                    _Option(
                        hits[start : end + 1],
                        [c[0] for c in parts],
                        [h for c in parts for h in (c[1], c[2])],
                        min(c[3] for c in parts) * _steepness(hits[start : end + 1]),
                    )
                )
        return found

    def add(self, option: _Option) -> None:
        """Add a chord: new points on the lines it meets, new faces for the ones it splits."""
        index = len(self.lines)
        first, last = option.hits[0], option.hits[-1]
        chord = _Line(first.at, last.at, False)
        self.lines.append(chord)
        span = last.u - first.u
        for j, hit in enumerate(option.hits):
            end = j in (0, len(option.hits) - 1)
            pid = self._add_point(hit.at, (hit.line, index), (index,) if end else ())
            self.lines[hit.line].stops.append((hit.t, pid))
            chord.stops.append(((hit.u - first.u) / span, pid))
        for f in sorted(option.faces, reverse=True):
            del self.faces[f]
            del self.boxes[f]
        self.faces.extend(option.halves)
        self.boxes.extend(_bbox(h) for h in option.halves)
        self.ks.append(option.k)


def _frame_corners(rng: Rng, box: Frame, sides: int) -> list[Pt] | None:
    """An irregular convex polygon with ``sides`` corners whose bounding box is ``box``.

    Corners are drawn at jittered angles on a squarish superellipse, then the polygon is
    stretched to fill the box. ``None`` when the draw has a corner too sharp or too flat or a
    side too short.
    """
    offset = rng.uniform(0.0, 2 * math.pi)
    raw: list[Pt] = []
    for i in range(sides):
        turn_at = offset + 2 * math.pi * (i + rng.uniform(-0.22, 0.22)) / sides
        cos, sin = math.cos(turn_at), math.sin(turn_at)
        raw.append((math.copysign(abs(cos) ** 0.55, cos), math.copysign(abs(sin) ** 0.55, sin)))
    xs, ys = [p[0] for p in raw], [p[1] for p in raw]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    if x1 - x0 < EPS or y1 - y0 < EPS:
        return None
    corners = [
        (box.x + (x - x0) / (x1 - x0) * box.w, box.y + (y - y0) / (y1 - y0) * box.h) for x, y in raw
    ]
    if _area(corners) < 0:
        corners.reverse()
    short = 0.28 * min(box.w, box.h)
    for i in range(sides):
        a, b, c = corners[i - 1], corners[i], corners[(i + 1) % sides]
        u, v = _sub(a, b), _sub(c, b)
        if math.hypot(*v) < short:
            return None
        turn = math.degrees(math.atan2(abs(_cross(u, v)), u[0] * v[0] + u[1] * v[1]))
        if turn < FRAME_ANGLE or turn > 155 or _cross(v, u) <= 0:
            return None
    return corners


def _direction(rng: Rng, angles: list[float]) -> Pt:
    """A random direction, the least parallel to the lines so far (``angles``) of three draws."""
    best: tuple[float, Pt] | None = None
    for _ in range(3):
        a = rng.uniform(0.0, math.pi)
        apart = math.pi
        for b in angles:
            diff = (a - b) % math.pi
            apart = min(apart, diff, math.pi - diff)
        if best is None or apart > best[0]:
            best = (apart, (math.cos(a), math.sin(a)))
    assert best is not None
    return best[1]


def _seed(rng: Rng, faces: list[list[Pt]], weights: list[float]) -> tuple[int, Pt]:
    """A face, chosen by ``weights`` (area squared: big spaces get split), and a point in it."""
    pick = rng.random() * weights[-1]
    index = min(bisect.bisect_right(weights, pick), len(faces) - 1)
    face = faces[index]
    cx = sum(p[0] for p in face) / len(face)
    cy = sum(p[1] for p in face) / len(face)
    raw = [rng.random() + 0.05 for _ in face]
    total = sum(raw)
    rx = sum(w * p[0] for w, p in zip(raw, face, strict=True)) / total
    ry = sum(w * p[1] for w, p in zip(raw, face, strict=True)) / total
    return index, (cx + 0.6 * (rx - cx), cy + 0.6 * (ry - cy))


def _grow(rng: Rng, box: Frame, lines: int, spaces: int) -> _Arrangement | None:
    """One attempt at the whole field; ``None`` when some chord finds no place."""
    sides = frame_sides(lines)
    corners = None
    for _ in range(60):
        corners = _frame_corners(rng, box, sides)
        if corners is not None:
            break
    if corners is None:
        return None
    arr = _Arrangement(corners)
    chords = lines - sides
    left = spaces - 1 - chords
    for j in range(chords):
        remaining = chords - j
        low = max(0, left - MAX_K * (remaining - 1))
        high = min(left, MAX_K, j)
        if low > high:
            return None
        target = left / remaining + AHEAD
        best: tuple[float, float, _Option] | None = None
        weights = list(itertools.accumulate(_area(f) ** 2 for f in arr.faces))
        angles = [math.atan2(ln.vec[1], ln.vec[0]) for ln in arr.lines]
        for _ in range(CANDIDATES * ROUNDS):
            if best is not None and _ % CANDIDATES == 0:
                break
            face, s = _seed(rng, arr.faces, weights)
            d = _direction(rng, angles)
            for option in arr.options(s, d, face, range(low, high + 1)):
                miss = round(max(0.0, abs(option.k - target) - 0.5), 6)
                score = option.quality * (0.7 + 0.6 * rng.random())
                if best is None or (miss, -score) < (best[0], -best[1]):
                    best = (miss, score, option)
        if best is None:
            return None
        arr.add(best[2])
        left -= best[2].k
    return arr if left == 0 else None


class SpaceData(TypedDict):
    """A space: the segments round it and the lines they lie on."""

    segments: list[str]
    lines: list[str]


class LineData(TypedDict):
    """A line: its points in order (both ends included) and whether it is a side of the frame."""

    crossings: list[str]
    frame: bool


class SegmentData(TypedDict):
    """A segment: its line, its two end points and the spaces on either side."""

    line: str
    points: list[str]
    spaces: list[str]


class PointData(TypedDict):
    """A point: the two lines that meet there and those of them that end there."""

    lines: list[str]
    ends: list[str]


@dataclass(frozen=True)
class Field:
    """The finished field: every feature, the outline and the facts for the page data."""

    items: list[Item]
    outline: Polygon
    data: dict[str, Any]


def build_field(rng: Rng, box: Frame, lines: int, spaces: int) -> Field:
    """Grow a field of exactly ``lines`` lines and ``spaces`` spaces inside ``box``.

    Raises:
        FitError: when no attempt succeeds (the box is too small for the counts).
    """
    for attempt in range(ATTEMPTS):
        arr = _grow(rng.child("attempt", attempt), box, lines, spaces)
        if arr is None:
            continue
        result = _features(arr, lines, spaces)
        if result is not None:
            return result
    raise FitError(
        f"lines={lines} spaces={spaces} found no field with spaces of at least "
        f"{MIN_AREA:.0f} mm2 on this paper: use fewer spaces or larger paper"
    )


def _features(arr: _Arrangement, lines: int, spaces: int) -> Field | None:
    """Number everything, cut the lines into pieces, polygonize, and check the count."""
    sides = frame_sides(lines)
    if len(arr.lines) != lines:
        return None
    # Frame lines: clockwise on the page from the top-left corner; chords by midpoint height.
    corners = [arr.lines[i].p for i in range(sides)]
    start = min(range(sides), key=lambda i: corners[i][0] + corners[i][1])
    # On the page (y down) a positive _area is clockwise as seen, so the order already runs
    # clockwise: line i goes from corner i to corner i + 1.
    order = [(start + i) % sides for i in range(sides)]
    chords = sorted(
        range(sides, lines),
        key=lambda i: (
            (arr.lines[i].p[1] + arr.lines[i].q[1]) / 2,
            (arr.lines[i].p[0] + arr.lines[i].q[0]) / 2,
        ),
    )
    number = {old: new for new, old in enumerate(order + chords, start=1)}
    line_id = {old: f"line-{new}" for old, new in number.items()}

    def label(pid: int) -> str:
        a, b = sorted(number[i] for i in arr.point_lines[pid])
        return f"{a}-{b}"

    point_id = [f"point-{label(p)}" for p in range(len(arr.points))]
    items: list[Item] = []
    pieces: list[tuple[str, int, int, int]] = []  # (segment id, line, point a, point b)
    line_stops: dict[int, list[int]] = {}
    for old in order + chords:
        ln = arr.lines[old]
        stops = [pid for _, pid in sorted(ln.stops)]
        if arr.points[stops[0]] > arr.points[stops[-1]]:
            stops.reverse()
        line_stops[old] = stops
    for old in order + chords:
        stops = line_stops[old]
        for a, b in itertools.pairwise(stops):
            pieces.append((f"segment-{len(pieces) + 1}", old, a, b))
    by_ends: dict[frozenset[int], int] = {}
    for n, (_, _, a, b) in enumerate(pieces):
        by_ends[frozenset((a, b))] = n
    coord_point = {arr.points[p]: p for p in range(len(arr.points))}
    geoms = [LineString([arr.points[a], arr.points[b]]) for _, _, a, b in pieces]
    faces = [f for f in polygonize(geoms) if f.area > 0]
    if len(faces) != spaces or len(coord_point) != len(arr.points):
        return None
    faces.sort(key=lambda f: (round(f.centroid.y, 6), round(f.centroid.x, 6)))
    piece_spaces: list[list[str]] = [[] for _ in pieces]
    space_items: list[Item] = []
    for n, face in enumerate(faces, start=1):
        if abs(face.area) < MIN_AREA - 1e-6:
            return None
        sid = f"space-{n}"
        ring = [coord_point.get((x, y), -1) for x, y in face.exterior.coords]
        if -1 in ring:
            return None
        around: list[int] = []
        for a, b in itertools.pairwise(ring):
            piece = by_ends.get(frozenset((a, b)))
            if piece is None:
                return None
            around.append(piece)
            piece_spaces[piece].append(sid)
        seg_ids = [pieces[i][0] for i in around]
        on_lines = sorted({number[pieces[i][1]] for i in around})
        space_items.append(
            Feature(
                sid,
                Kind.SPACE,
                face,
                Style.NONE,
                data=SpaceData(segments=seg_ids, lines=[f"line-{k}" for k in on_lines]),
            )
        )
    for old in order + chords:
        stops = line_stops[old]
        items.append(
            Feature(
                line_id[old],
                Kind.LINE,
                LineString([arr.points[p] for p in stops]),
                LINE_STYLE,
                data=LineData(crossings=[point_id[p] for p in stops], frame=arr.lines[old].frame),
            )
        )
    for n, (sid, old, a, b) in enumerate(pieces):
        items.append(
            Feature(
                sid,
                Kind.SEGMENT,
                geoms[n],
                Style.NONE,
                data=SegmentData(
                    line=line_id[old],
                    points=[point_id[a], point_id[b]],
                    spaces=piece_spaces[n],
                ),
            )
        )
    point_order = sorted(
        range(len(arr.points)), key=lambda p: tuple(sorted(number[i] for i in arr.point_lines[p]))
    )
    for p in point_order:
        meets = sorted(arr.point_lines[p], key=lambda i: number[i])
        ends = sorted(arr.point_ends[p], key=lambda i: number[i])
        items.append(
            Feature(
                point_id[p],
                Kind.POINT,
                Point(arr.points[p]),
                Style.NONE,
                label=label(p),
                data=PointData(lines=[line_id[i] for i in meets], ends=[line_id[i] for i in ends]),
            )
        )
    items.extend(space_items)
    frame_ids = [line_id[i] for i in order]
    data: dict[str, Any] = {
        "lines": lines,
        "spaces": spaces,
        "frame": frame_ids,
        "crossings": list(arr.ks),
    }
    return Field(items, Polygon([arr.lines[i].p for i in order]), data)
