"""Arp (Sid Sackson): straight lines that cross each other and cut a field into spaces.

The book's field has 25 straight lines forming 55 spaces, with two score areas at each end of the
sheet. Players colour lines (or the part of a line from where it touches the last coloured line to
its end) and capture a space when their line completes its outline, so what matters in play is
which lines touch, where, and which stretches of line surround each space.

How the field is made, and why the counts are exact:

* The first few lines (``frame`` lines: 3, 4 or 5 of them, by the line count) form an irregular
  convex polygon that fills the field's box: one space.
* Every further line (a chord) is straight, starts on one existing line and ends on another, and
  crosses k existing lines in between. Adding it to the connected arrangement adds exactly k + 1
  spaces (it splits each of the k + 1 spaces it runs through in two), so after all lines the count
  is 1 + sum(k + 1). Each chord's k is picked so the sum lands exactly on ``spaces``: chords aim a
  little above the even share of the crossings still needed (long chords are easy while the
  field is open), so the last ones can be short; the last chord must have exactly the k left.
  A run that cannot finish is started again (a bounded number of times); then the build fails
  with an error naming the parameters, never with a wrong count.
* No line ends in the middle of nowhere: every line's two ends lie on other lines (T-junctions),
  and the frame lines meet end to end at the frame's corners. There are no dangling stubs, so
  every stretch of line borders a space on each side (or the outside), every space is convex, and
  Euler's formula holds as V - E + F = 2 with V = all points where lines meet (crossings,
  T-junctions, corners), E = the pieces of line between consecutive points, F = spaces + 1.
* Each chord is checked before it is kept: every crossing and junction angle is at least
  :data:`MIN_ANGLE`, no two points on one line are closer than :data:`MIN_GAP` and no two points
  at all closer than :data:`MIN_CLEAR` (so no three lines pass through one point and no crossing
  sits on top of another or on a line's end), and each space it makes has at least
  :data:`MIN_AREA` of area and :data:`MIN_WIDTH` of width (no slivers). Among the chords that
  pass, the one with the best score wins: its smallest new space, times a random factor of
  0.7..1.3, marked down when it meets a line at under 45 degrees. That keeps the spaces even and
  the lines from bunching into hatching.

Ids and numbering (the rules engine and the photo reader rely on these):

* ``line-<n>``: the whole straight line, drawn once in a medium weight. Lines 1..m are the frame,
  clockwise on the page from its top-left corner; the chords follow, ordered by the height of their
  midpoints (top first). Data: ``crossings`` (every point on the line, in order from the line's
  left end; top end for a vertical line), ``frame`` (bool).
* ``point-<i>-<j>``: where line i meets line j (i < j); label ``"<i>-<j>"``. Not drawn. Data:
  ``lines`` (the two line ids) and ``ends`` (the ids of lines that end at this point: none for a
  crossing, one for a T-junction, two for a frame corner).
* ``segment-<n>``: the piece of a line between two consecutive points, line by line and along each
  line in its order. Not drawn (the line is). Data: ``line``, ``points`` (its two ends) and
  ``spaces`` (the one or two spaces it borders).
* ``space-<n>``: the spaces, ordered by the height of their centroids (top first, then left).
  Not drawn. Data: ``segments`` (around its outline) and ``lines`` (the lines those lie on).
* Score areas ``box-*-<p>``: players 1 and 2 at the top (left, right), 3 and 4 at the bottom
  (right, left), so the numbers go clockwise round the table and partners sitting diagonally
  opposite are 1 and 3, 2 and 4. Each has one tally box per space: the highest possible score.
* Page data: ``lines``, ``spaces``, ``frame`` (ids of the frame lines), ``crossings`` (k of each
  chord in the order drawn).
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shapely.geometry import LineString, Point, Polygon
from shapely.ops import polygonize

from papergames.compose import Frame
from papergames.errors import FitError, SpecError
from papergames.layout import BuildContext, Layout, PageBody
from papergames.model import INKS, Feature, Item, Kind, Sheet, Style
from papergames.params import Param, ParamSet
from papergames.rng import Rng
from papergames.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.score import score_area, score_area_height
from papergames.teams import (
    PARTNERSHIP_OPTION,
    TEAMS_OPTION,
    check_team_options,
    team_scores,
    team_winners,
)

Pt = tuple[float, float]

MIN_ANGLE = 20.0
"""Least angle in degrees at which two lines may meet (crossing or T-junction)."""
MIN_AREA = 60.0
"""Least area of a space in mm^2: room to fill with a pencil."""
MIN_WIDTH = 5.0
"""Least width of a space in mm (the narrowest strip that holds it): no slivers."""
MIN_GAP = 4.0
"""Least distance in mm between two points on one line: crossings stay apart and readable."""
MIN_CLEAR = 3.0
"""Least distance in mm between any two points, on one line or not."""
MAX_K = 4
"""Most lines one chord may cross: long chords through many spaces make hatching, not Arp."""
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

LINE_STYLE = Style.MEDIUM
AREA_GAP = 6.0
"""Between the field and the score areas, and between the two areas of one end."""
PAD = INKS[LINE_STYLE].stroke / 2 + 0.1
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


# --- small plane geometry ---------------------------------------------------------------------


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


# --- the arrangement --------------------------------------------------------------------------


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


# --- building the field -----------------------------------------------------------------------


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
                data={"segments": seg_ids, "lines": [f"line-{k}" for k in on_lines]},
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
                data={
                    "crossings": [point_id[p] for p in stops],
                    "frame": arr.lines[old].frame,
                },
            )
        )
    for n, (sid, old, a, b) in enumerate(pieces):
        items.append(
            Feature(
                sid,
                Kind.SEGMENT,
                geoms[n],
                Style.NONE,
                data={
                    "line": line_id[old],
                    "points": [point_id[a], point_id[b]],
                    "spaces": piece_spaces[n],
                },
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
                data={"lines": [line_id[i] for i in meets], "ends": [line_id[i] for i in ends]},
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


# --- the layout -------------------------------------------------------------------------------


class ArpLayout(Layout):
    """Arp: straight lines crossing into spaces, two score areas at each end of the sheet."""

    name = "arp"
    params = ParamSet(
        [
            Param.int("lines", 25, 4, 32, "straight lines in the field"),
            Param.int("spaces", 55, 2, 81, "spaces the lines form (see notes for the range)"),
        ]
    )
    how_to_play = """\
The field: straight lines that cross each other and cut the field into spaces (25 lines and 55 \
spaces on the book's sheet). Every line ends on another line, so no line sticks out into empty \
paper. Each player takes a pencil of his own colour and one of the four score areas, two at each \
end of the sheet, and writes his initials in its X box. Four players may play alone or as two \
teams, partners sitting diagonally opposite (areas 1 and 3 against areas 2 and 4).

Play: the first player picks any line and colours all of it. Then, in turn to the left, each \
player picks a line that touches the line coloured on the turn before (crosses it or ends on \
it, anywhere along its length) and is still uncoloured where it touches, and colours it from \
that point in one direction, up to the line's end or to a part of it that is already coloured, \
whichever comes first. When the touching point is not an end of the picked line (it crosses \
the previous line, or the previous line ends on it), the player chooses which way to go, but \
colours one way only. If no such line exists, the player picks any line that \
still has uncoloured parts and colours them all.

Capturing: when a player's colouring completes the outline of a space (every side of it is now \
coloured, whoever coloured it), he fills that space with his colour and marks one tally box for \
one point. One move may capture several spaces.

End: the game ends when every line is coloured and every space captured. The highest score \
wins; partners add their scores. Variation: a player's colouring also stops where it reaches a \
line he coloured himself earlier.
"""

    def validate(self, params: Mapping[str, Any]) -> None:
        """Refuse space counts the lines cannot make (too few chords, or too few crossings)."""
        lines, spaces = params["lines"], params["spaces"]
        low, high = space_bounds(lines)
        if not low <= spaces <= high:
            raise SpecError(
                f"spaces={spaces} cannot be made with lines={lines}: {lines} lines make "
                f"from {low} to {high} spaces"
            )

    def notes(self) -> list[str]:
        return [
            f"lines meet at {MIN_ANGLE:.0f} degrees or more; every space has at least "
            f"{MIN_AREA:.0f} mm2 and is {MIN_WIDTH:.0f} mm wide; a line crosses at most {MAX_K} "
            "others, and at most 2 on average, which caps the spaces for a given number of "
            "lines (validate names the range)",
            "each score area holds one tally box per space; on A5 paper the four areas leave too "
            "little room for the field unless spaces is small",
        ]

    def build(self, ctx: BuildContext) -> list[PageBody]:
        lines: int = ctx.params["lines"]
        spaces: int = ctx.params["spaces"]
        frame = ctx.frame.inset(PAD)
        area_w = (frame.w - AREA_GAP) / 2
        try:
            area_h = score_area_height(spaces, area_w)
        except FitError:
            raise FitError(
                "the score areas do not fit across this paper: use larger paper"
            ) from None
        field_h = frame.h - 2 * (area_h + AREA_GAP)
        if field_h < 0.4 * frame.h:
            raise FitError(
                f"spaces={spaces} makes the score areas too tall for the field on this paper: "
                "use fewer spaces or larger paper"
            )
        box = Frame(frame.x, frame.y + area_h + AREA_GAP, frame.w, field_h)
        result = build_field(ctx.rng("field"), box, lines, spaces)
        items: list[Item] = list(result.items)
        places = [
            (frame.x, frame.y),
            (frame.x + area_w + AREA_GAP, frame.y),
            (frame.x + area_w + AREA_GAP, frame.bottom - area_h),
            (frame.x, frame.bottom - area_h),
        ]
        for player, (x, y) in enumerate(places, start=1):
            items.extend(score_area(player, x, y, area_w, spaces).items)
        return [PageBody(items, field=result.outline, data=dict(result.data))]


LAYOUT = ArpLayout()


# --- the rules --------------------------------------------------------------------------------

FREE = -1
"""Owner of a segment nobody has coloured yet, or of a space nobody has captured."""

"""Team scoring: partners add their scores, or (Miro's variations) one of them counts double."""

_WORD = re.compile(r"\s*(>|[^\s>]+)")


@dataclass(frozen=True)
class ArpMove:
    """Colour (part of) a line.

    ``line`` is the line's index (0-based). ``toward`` is the point index of the end of the line
    the colouring runs towards, or ``None`` for the whole line (or the only way it can go).
    ``start`` is the point index it runs from, or ``None``: the point where the line touches
    the line just coloured (the usual move), or, under ``own_stop`` with no touching line left,
    a point where the line meets one of the mover's own lines (or a line end).
    """

    line: int
    toward: int | None = None
    start: int | None = None


@dataclass(frozen=True)
class ArpState:
    """Who coloured each segment and captured each space, the last line, turn and scores."""

    segments: tuple[int, ...]
    spaces: tuple[int, ...]
    scores: tuple[int, ...]
    last: int = -1
    turn: int = 0


class ArpRules(Rules[ArpState, ArpMove]):
    """Arp: colour lines that touch the line just coloured; closing a space's outline captures it.

    Moves (model ids, as the sheet prints no names):

    * ``line-7``: the whole line (the first move, or when no line touching the last one is still
      uncoloured where it touches: then every uncoloured part of line-7); also accepted for a
      usual move when only one way is open.
    * ``line-7 > point-7-12``: the usual move: colour line-7 from where it touches the line just
      coloured towards its end point-7-12, up to that end or to the first already coloured part.
    * ``line-7 from point-3-7 > point-7-12``: with ``own_stop``, for the whole-line move when the
      mover's own lines cut line-7 into stretches: the stretch that starts at point-3-7 (one of
      the mover's lines, or an end) and runs towards point-7-12; ``from`` may also restate the
      touching point of a usual move.

    Options: ``own_stop`` (the book's variation: colouring also stops on reaching a line the
    mover coloured himself), ``teams`` (four players, partners 1+3 against 2+4) and
    ``partnership`` (Miro's team scoring: add, double-lower, double-higher).
    """

    game = "arp"
    notation = (
        "line-7 (whole line), line-7 > point-7-12 (from where it touches the last line towards "
        "that end), line-7 from point-3-7 > point-7-12 (a stretch, with own_stop)"
    )
    options = ParamSet(
        [
            Param.bool(
                "own_stop", False, "colouring also stops on reaching a line the mover coloured"
            ),
            TEAMS_OPTION,
            PARTNERSHIP_OPTION,
        ]
    )

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        page = sheet.pages[0]
        lines = list(page.features(Kind.LINE))
        points = list(page.features(Kind.POINT))
        segments = list(page.features(Kind.SEGMENT))
        spaces = list(page.features(Kind.SPACE))
        self.line_ids = [f.id for f in lines]
        self.point_ids = [f.id for f in points]
        self.segment_ids = [f.id for f in segments]
        self.space_ids = [f.id for f in spaces]
        line_index = {f.id: k for k, f in enumerate(lines)}
        point_index = {f.id: k for k, f in enumerate(points)}
        space_index = {f.id: k for k, f in enumerate(spaces)}
        segment_index = {f.id: k for k, f in enumerate(segments)}
        self.line_names = dict(line_index)
        for k, f in enumerate(lines):
            self.line_names[f.id.removeprefix("line-")] = k
        self.point_names = dict(point_index)
        for k, f in enumerate(points):
            i, j = f.id.removeprefix("point-").split("-")
            self.point_names[f"{i}-{j}"] = k
            self.point_names[f"{j}-{i}"] = k
            self.point_names[f"point-{j}-{i}"] = k
        self.point_lines: list[tuple[int, int]] = [
            (line_index[f.data["lines"][0]], line_index[f.data["lines"][1]]) for f in points
        ]
        self.points_on: list[list[int]] = [
            [point_index[p] for p in f.data["crossings"]] for f in lines
        ]
        self.position: list[dict[int, int]] = [
            {p: j for j, p in enumerate(pts)} for pts in self.points_on
        ]
        by_ends = {
            frozenset(point_index[p] for p in f.data["points"]): k for k, f in enumerate(segments)
        }
        self.segments_on: list[list[int]] = [
            [by_ends[frozenset(pair)] for pair in itertools.pairwise(pts)] for pts in self.points_on
        ]
        self.segment_spaces: list[list[int]] = [
            [space_index[s] for s in f.data["spaces"]] for f in segments
        ]
        self.space_segments: list[list[int]] = [
            [segment_index[s] for s in f.data["segments"]] for f in spaces
        ]
        # Every line the given line meets, and where.
        self.meets: list[list[tuple[int, int]]] = [[] for _ in lines]
        for p, (a, b) in enumerate(self.point_lines):
            self.meets[a].append((b, p))
            self.meets[b].append((a, p))
        self.touch: list[dict[int, int]] = [dict(m) for m in self.meets]
        check_team_options(self.option_values, len(players))

    # -- state -------------------------------------------------------------------------------

    def initial(self) -> ArpState:
        return ArpState(
            (FREE,) * len(self.segment_ids),
            (FREE,) * len(self.space_ids),
            (0,) * len(self.players),
        )

    def to_move(self, state: ArpState) -> int | None:
        if FREE not in state.segments:
            return None
        return state.turn

    def scores(self, state: ArpState) -> tuple[int, ...]:
        return state.scores

    def team_scores(self, state: ArpState) -> tuple[int, int]:
        """The two teams' totals (players 1+3, then 2+4), by the ``partnership`` option."""
        return team_scores(state.scores, self.option_values["partnership"])

    def winners(self, state: ArpState) -> list[int]:
        if self.is_over(state) and self.option_values["teams"]:
            return team_winners(state.scores, self.option_values["partnership"])
        return super().winners(state)

    def claims(self, state: ArpState) -> dict[str, tuple[int, ...]]:
        if not self.option_values["teams"]:
            return {}
        teams = self.team_scores(state)
        return {"team": tuple(teams[p % 2] for p in range(4))}

    def describe(self, state: ArpState) -> list[str]:
        if not self.option_values["teams"]:
            return []
        a, b = self.team_scores(state)
        names = [p.name for p in self.players]
        mode = self.option_values["partnership"]
        return [f"teams ({mode}): {names[0]} + {names[2]} {a}, {names[1]} + {names[3]} {b}"]

    # -- geometry of a move ------------------------------------------------------------------

    def _step(self, line: int, j: int, way: int) -> int | None:
        """The segment of ``line`` leaving its point number ``j`` in direction ``way`` (+1/-1)."""
        k = j if way > 0 else j - 1
        segs = self.segments_on[line]
        return segs[k] if 0 <= k < len(segs) else None

    def _blocks(self, state: ArpState, player: int, line: int, point: int) -> bool:
        """Whether ``point`` on ``line`` lies on another line ``player`` coloured there."""
        a, b = self.point_lines[point]
        other = b if a == line else a
        j = self.position[other][point]
        return any(
            (s := self._step(other, j, way)) is not None and state.segments[s] == player
            for way in (1, -1)
        )

    def _run(self, state: ArpState, player: int, line: int, j: int, way: int) -> list[int]:
        """The segments a usual move colours: from point number ``j`` along ``way`` until the
        end, an already coloured segment or (``own_stop``) a line of the mover's."""
        stop = self.option_values["own_stop"]
        points = self.points_on[line]
        run: list[int] = []
        while (s := self._step(line, j, way)) is not None and state.segments[s] == FREE:
            run.append(s)
            j += way
            if stop and self._blocks(state, player, line, points[j]):
                break
        return run

    def _cuts(self, state: ArpState, player: int, line: int) -> list[int]:
        """Point numbers along ``line`` that split it into stretches: its two ends and, with
        ``own_stop``, every point on a line the mover coloured himself."""
        points = self.points_on[line]
        last = len(points) - 1
        cuts = [0]
        if self.option_values["own_stop"]:
            cuts += [j for j in range(1, last) if self._blocks(state, player, line, points[j])]
        return [*cuts, last]

    def _touching(self, state: ArpState) -> list[tuple[int, int]]:
        """Lines (and their touching points) that meet the line just coloured and are still
        uncoloured right at that point, on at least one side."""
        found: list[tuple[int, int]] = []
        for line, point in self.meets[state.last]:
            j = self.position[line][point]
            if any(
                (s := self._step(line, j, way)) is not None and state.segments[s] == FREE
                for way in (1, -1)
            ):
                found.append((line, point))
        return sorted(found)

    def _uncoloured(self, state: ArpState, segs: Sequence[int]) -> list[int]:
        return [s for s in segs if state.segments[s] == FREE]

    # -- moves -------------------------------------------------------------------------------

    def legal_moves(self, state: ArpState) -> Iterator[ArpMove]:
        player = self.to_move(state)
        if player is None:
            return
        if state.last >= 0:
            touching = self._touching(state)
            if touching:
                for line, point in touching:
                    j = self.position[line][point]
                    ends = self.points_on[line]
                    for way, end in ((-1, ends[0]), (1, ends[-1])):
                        s = self._step(line, j, way)
                        if s is not None and state.segments[s] == FREE:
                            yield ArpMove(line, end)
                return
        for line in range(len(self.line_ids)):
            segs = self.segments_on[line]
            points = self.points_on[line]
            cuts = self._cuts(state, player, line)
            if len(cuts) == 2:
                if self._uncoloured(state, segs):
                    yield ArpMove(line)
                continue
            for n, (a, b) in enumerate(itertools.pairwise(cuts)):
                if self._uncoloured(state, segs[a:b]):
                    # Canonical: start at a cut of the mover's own (never a line end).
                    if n == 0:
                        yield ArpMove(line, points[0], points[b])
                    else:
                        yield ArpMove(line, points[-1], points[a])

    def _colouring(self, state: ArpState, player: int, move: ArpMove) -> list[int]:
        """The segments ``move`` colours, or :class:`IllegalMove` saying why it may not."""
        line = move.line
        name = self.line_ids[line]
        segs = self.segments_on[line]
        points = self.points_on[line]
        ends = (points[0], points[-1])
        if not self._uncoloured(state, segs):
            raise IllegalMove("coloured", f"{name} is already coloured over its whole length")
        if move.toward is not None and move.toward not in ends:
            raise IllegalMove(
                "not-an-end",
                f"{self.point_ids[move.toward]} is not an end of {name} "
                f"(its ends are {self.point_ids[ends[0]]} and {self.point_ids[ends[1]]})",
            )
        if move.start is not None and move.start not in self.position[line]:
            raise IllegalMove(
                "not-on-line", f"{self.point_ids[move.start]} is not a point of {name}"
            )
        if state.last < 0:
            if move.toward is not None or move.start is not None:
                raise IllegalMove(
                    "whole-line", f"the first player colours the whole of {name}, no direction"
                )
            return list(segs)
        touching = self._touching(state)
        if touching:
            return self._usual(state, player, move, dict(touching))
        return self._whole(state, player, move)

    def _usual(
        self, state: ArpState, player: int, move: ArpMove, touching: dict[int, int]
    ) -> list[int]:
        """A usual move: from where the line touches the last one, one way."""
        line = move.line
        name = self.line_ids[line]
        last = self.line_ids[state.last]
        if line == state.last:
            raise IllegalMove("not-touching", f"{name} is the line just coloured")
        if line not in touching:
            if line in self.touch[state.last]:
                at = self.point_ids[self.touch[state.last][line]]
                raise IllegalMove(
                    "coloured-there",
                    f"{name} touches {last} at {at}, but is already coloured on both sides there",
                )
            raise IllegalMove(
                "not-touching",
                f"{name} does not touch {last}, the line just coloured "
                f"(lines to choose from: {', '.join(self.line_ids[k] for k in touching)})",
            )
        point = touching[line]
        if move.start is not None and move.start != point:
            raise IllegalMove(
                "wrong-start",
                f"{name} must be coloured from {self.point_ids[point]}, where it touches "
                f"{last}, not from {self.point_ids[move.start]}",
            )
        j = self.position[line][point]
        points = self.points_on[line]
        open_ways = [
            way
            for way in (-1, 1)
            if (s := self._step(line, j, way)) is not None and state.segments[s] == FREE
        ]
        if move.toward is None:
            if len(open_ways) > 1:
                raise IllegalMove(
                    "direction",
                    f"{name} can go either way from {self.point_ids[point]}: name the end, "
                    f"{name} > {self.point_ids[points[0]]} or "
                    f"{name} > {self.point_ids[points[-1]]}",
                )
            way = open_ways[0]
        else:
            way = -1 if move.toward == points[0] else 1
            if move.toward == point:
                raise IllegalMove(
                    "wrong-way",
                    f"{self.point_ids[point]} is where {name} touches {last}: name its other end",
                )
            if way not in open_ways:
                raise IllegalMove(
                    "wrong-way",
                    f"{name} is already coloured next to {self.point_ids[point]} towards "
                    f"{self.point_ids[move.toward]}",
                )
        return self._run(state, player, line, j, way)

    def _whole(self, state: ArpState, player: int, move: ArpMove) -> list[int]:
        """No line touching the last one is open: all of a line (or of one stretch of it)."""
        line = move.line
        name = self.line_ids[line]
        segs = self.segments_on[line]
        points = self.points_on[line]
        cuts = self._cuts(state, player, line)
        stretches = [
            (a, b) for a, b in itertools.pairwise(cuts) if self._uncoloured(state, segs[a:b])
        ]
        if move.toward is None and move.start is None:
            if len(stretches) > 1:
                raise IllegalMove(
                    "stretch",
                    f"lines of yours cut {name} into stretches: name one, as "
                    f"{name} from <point> > <end>",
                )
            a, b = stretches[0]
            return self._uncoloured(state, segs[a:b])
        if len(cuts) == 2:
            raise IllegalMove(
                "whole-line",
                f"no line touching {self.line_ids[state.last]} is open, so {name} is coloured "
                "over its whole length: write it without a direction",
            )
        if move.toward is None or move.start is None:
            raise IllegalMove(
                "stretch", f"name a stretch of {name} as {name} from <point> > <end of the line>"
            )
        j = self.position[line][move.start]
        if j not in cuts:
            raise IllegalMove(
                "wrong-start",
                f"a stretch of {name} starts at one of your own lines or at an end, "
                f"not at {self.point_ids[move.start]}",
            )
        if move.toward == move.start:
            raise IllegalMove(
                "wrong-way", f"{self.point_ids[move.start]} is an end: name the other end"
            )
        if move.toward == points[0]:
            a, b = cuts[cuts.index(j) - 1], j
        else:
            a, b = j, cuts[cuts.index(j) + 1]
        todo = self._uncoloured(state, segs[a:b])
        if not todo:
            raise IllegalMove(
                "coloured",
                f"the stretch of {name} from {self.point_ids[points[a]]} to "
                f"{self.point_ids[points[b]]} is already coloured",
            )
        return todo

    def apply(self, state: ArpState, move: ArpMove) -> ArpState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        run = self._colouring(state, player, move)
        segments = list(state.segments)
        for s in run:
            segments[s] = player
        spaces = list(state.spaces)
        scores = list(state.scores)
        for s in run:
            for k in self.segment_spaces[s]:
                if spaces[k] == FREE and all(segments[t] != FREE for t in self.space_segments[k]):
                    spaces[k] = player
                    scores[player] += 1
        return ArpState(
            tuple(segments),
            tuple(spaces),
            tuple(scores),
            move.line,
            (player + 1) % len(self.players),
        )

    # -- notation ----------------------------------------------------------------------------

    def parse_move(self, text: str, state: ArpState) -> ArpMove:
        words: list[tuple[str, int]] = []
        pos = 0
        while pos < len(text):
            m = _WORD.match(text, pos)
            if m is None:
                break
            words.append((m.group(1), m.start(1) + 1))
            pos = m.end()
        if not words:
            raise MoveSyntaxError(f"a move is a line: {self.notation}")
        word, col = words[0]
        line = self.line_names.get(word.lower())
        if line is None:
            raise MoveSyntaxError(
                f"'{word}' is not a line of this field (line-1 to line-{len(self.line_ids)})", col
            )
        rest = words[1:]
        start: int | None = None
        toward: int | None = None
        if rest and rest[0][0].lower() == "from":
            if len(rest) < 2:
                raise MoveSyntaxError("'from' needs a point, as from point-3-7", rest[0][1])
            start = self._point(*rest[1])
            rest = rest[2:]
        if rest:
            if rest[0][0] != ">" or len(rest) != 2:
                raise MoveSyntaxError(
                    "after the line comes '> <end point>' (or 'from <point> > <end point>')",
                    rest[0][1],
                )
            toward = self._point(*rest[1])
        elif start is not None:
            raise MoveSyntaxError(
                "a stretch needs its direction: from <point> > <end point>", len(text) + 1
            )
        return ArpMove(line, toward, start)

    def _point(self, word: str, col: int) -> int:
        point = self.point_names.get(word.lower())
        if point is None:
            raise MoveSyntaxError(f"'{word}' is not a point of this field (as point-3-7)", col)
        return point

    def format_move(self, move: ArpMove) -> str:
        text = self.line_ids[move.line]
        if move.start is not None:
            text += f" from {self.point_ids[move.start]}"
        if move.toward is not None:
            text += f" > {self.point_ids[move.toward]}"
        return text


RULES = ArpRules
