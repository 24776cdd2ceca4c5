"""Arp: straight lines meeting at T-junctions and crossings, exactly 55 spaces from 25 lines."""

from __future__ import annotations

import itertools
import math
from functools import cache

import pytest
from shapely import wkb
from shapely.geometry import LineString, Point
from shapely.ops import polygonize, unary_union

from papergames.errors import FitError, SpecError
from papergames.layouts.arp.field import MIN_CLEAR, MIN_GAP, _width, frame_sides, space_bounds
from papergames.layouts.arp.params import MIN_ANGLE, MIN_AREA, MIN_WIDTH
from papergames.sheets.model import Feature, Kind, Page, Sheet
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.topology import tiling_gaps

from conftest import sheet_for

SEEDS = list(range(50))
TOL = 1e-6

Pt = tuple[float, float]


@cache
def build(seed: int = 1, paper: str = "a4", orientation: str = "auto", **params: str) -> Sheet:
    spec = SheetSpec.create("arp", params, seed=seed, paper=paper, orientation=orientation)
    return make_sheet(spec)


def lines_of(page: Page) -> dict[str, Feature]:
    return {f.id: f for f in page.features(Kind.LINE)}


def ends(line: Feature) -> tuple[Pt, Pt]:
    coords = list(line.geometry.coords)
    return coords[0], coords[-1]


def meet(a: tuple[Pt, Pt], b: tuple[Pt, Pt]) -> Pt | None:
    """Where two straight segments meet (ends included, up to TOL), recomputed from scratch."""
    (p, q), (r, s) = a, b
    d = (q[0] - p[0], q[1] - p[1])
    e = (s[0] - r[0], s[1] - r[1])
    den = d[0] * e[1] - d[1] * e[0]
    if abs(den) < 1e-12:
        return None
    w = (r[0] - p[0], r[1] - p[1])
    t = (w[0] * e[1] - w[1] * e[0]) / den
    at = (p[0] + t * d[0], p[1] + t * d[1])
    if LineString(a).distance(Point(at)) > TOL or LineString(b).distance(Point(at)) > TOL:
        return None
    return at


def angle(a: tuple[Pt, Pt], b: tuple[Pt, Pt]) -> float:
    """The angle in degrees (0..90) at which two straight lines meet."""
    ta = math.atan2(a[1][1] - a[0][1], a[1][0] - a[0][0])
    tb = math.atan2(b[1][1] - b[0][1], b[1][0] - b[0][0])
    diff = abs(math.degrees(ta - tb)) % 180
    return min(diff, 180 - diff)


def numbers(ids: list[str]) -> list[int]:
    return [int(i.split("-")[1]) for i in ids]


# --- the book's counts and the tiling ---------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_book_counts_tiling_and_space_sizes(seed: int) -> None:
    page = sheet_for("arp", seed).page
    lines = lines_of(page)
    spaces = page.spaces()
    assert len(lines) == 25
    assert len(spaces) == 55
    assert numbers(list(lines)) == list(range(1, 26))
    assert numbers(list(spaces)) == list(range(1, 56))
    assert page.data["lines"] == 25 and page.data["spaces"] == 55
    assert page.field is not None
    overlap, uncovered = tiling_gaps(spaces.values(), page.field)
    assert overlap < 1e-6 * page.field.area and uncovered < 1e-6 * page.field.area
    for sid, poly in spaces.items():
        assert poly.is_valid and poly.area >= MIN_AREA - 1e-6, sid
        # With every line ending on another line, each space is convex; its width (narrowest
        # strip holding it) keeps slivers out.
        assert poly.convex_hull.area == pytest.approx(poly.area, rel=1e-9), sid
        assert _width(list(poly.exterior.coords)[:-1]) >= MIN_WIDTH - 1e-6, sid
    # The spaces are exactly the faces the drawn lines cut the plane into.
    faces = list(polygonize(unary_union([f.geometry for f in lines.values()])))
    assert len(faces) == 55
    # The chords' crossings add up: each chord adds k + 1 spaces to the one of the frame.
    frame = page.data["frame"]
    assert 1 + sum(k + 1 for k in page.data["crossings"]) == 55
    assert len(page.data["crossings"]) == 25 - len(frame)


# --- the lines and where they meet ------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_recorded_points_match_recomputed_meetings(seed: int) -> None:
    page = sheet_for("arp", seed).page
    lines = lines_of(page)
    points = {f.id: f for f in page.features(Kind.POINT)}
    seg = {lid: ends(f) for lid, f in lines.items()}
    expected: dict[str, Pt] = {}
    for (ia, a), (ib, b) in itertools.combinations(seg.items(), 2):
        at = meet(a, b)
        if at is None:
            continue
        na, nb = sorted(numbers([ia, ib]))
        pid = f"point-{na}-{nb}"
        expected[pid] = at
        assert angle(a, b) >= MIN_ANGLE - 1e-9, (pid, angle(a, b))
    assert set(points) == set(expected)
    for pid, feature in points.items():
        x, y = feature.geometry.coords[0]
        assert math.dist((x, y), expected[pid]) < TOL, pid
        assert feature.style.value == "none"
        assert feature.label == pid.removeprefix("point-")
        met = feature.data["lines"]
        assert sorted(numbers(met)) == numbers(["x-" + n for n in feature.label.split("-")])
        # A line ends at the point exactly when the point is one of its two ends.
        for lid in met:
            is_end = min(math.dist((x, y), e) for e in seg[lid]) < TOL
            assert (lid in feature.data["ends"]) == is_end, (pid, lid)
        assert set(feature.data["ends"]) <= set(met)
    # No three lines through one point, and no two points closer than the clearance.
    where = list(expected.values())
    for p, q in itertools.combinations(where, 2):
        assert math.dist(p, q) >= MIN_CLEAR - 1e-6
    for pid, at in expected.items():
        on = [lid for lid, s in seg.items() if LineString(s).distance(Point(at)) < 1e-3]
        assert len(on) == 2, (pid, on)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_line_ends_on_other_lines(seed: int) -> None:
    page = sheet_for("arp", seed).page
    lines = lines_of(page)
    frame = set(page.data["frame"])
    for lid, line in lines.items():
        for end in ends(line):
            others = [
                o for o, f in lines.items() if o != lid and f.geometry.distance(Point(end)) < TOL
            ]
            assert len(others) == 1, (lid, end, others)
            other_end = min(math.dist(end, e) for e in ends(lines[others[0]])) < TOL
            # Frame lines meet end to end at corners; chords end inside another line.
            assert other_end == (lid in frame and others[0] in frame), (lid, others)
        assert line.data["frame"] == (lid in frame)
    assert [f"line-{n}" for n in range(1, len(frame) + 1)] == page.data["frame"]
    # Frame lines run clockwise as seen on the page, line 1 from the top-left corner.
    m = len(frame)
    corners = [page.get(f"point-{min(i, i % m + 1)}-{max(i, i % m + 1)}") for i in range(1, m + 1)]
    xy = [c.geometry.coords[0] for c in corners]  # type: ignore[union-attr]
    shoelace = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(xy, xy[1:] + xy[:1], strict=True))
    assert shoelace > 0, "y grows down the page, so a positive sum is clockwise as seen"
    assert min(xy, key=lambda p: p[0] + p[1]) == xy[-1], "line 1 starts at the top-left corner"


@pytest.mark.parametrize("seed", SEEDS[:20])
def test_crossings_are_ordered_along_each_line(seed: int) -> None:
    page = sheet_for("arp", seed).page
    points = {f.id: f.geometry.coords[0] for f in page.features(Kind.POINT)}
    for lid, line in lines_of(page).items():
        crossings = line.data["crossings"]
        a, b = ends(line)
        assert a <= b, "a line runs from its left (top) end"
        assert points[crossings[0]] == pytest.approx(a) and points[crossings[-1]] == pytest.approx(
            b
        )
        along = [math.dist(a, points[c]) for c in crossings]
        assert along == sorted(along)
        assert all(q - p >= MIN_GAP - 1e-6 for p, q in itertools.pairwise(along))
        assert list(line.geometry.coords) == [points[c] for c in crossings]
        for c in crossings:
            assert lid in page.get(c).data["lines"]  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", SEEDS[:20])
def test_segments_and_spaces_match_geometry_and_euler(seed: int) -> None:
    page = sheet_for("arp", seed).page
    lines = lines_of(page)
    spaces = page.spaces()
    points = {f.id: f.geometry.coords[0] for f in page.features(Kind.POINT)}
    segments = list(page.features(Kind.SEGMENT))
    assert numbers([s.id for s in segments]) == list(range(1, len(segments) + 1))
    # Segments run line by line, each line's pieces between consecutive points.
    expected = [
        (lid, a, b)
        for lid, line in lines.items()
        for a, b in itertools.pairwise(line.data["crossings"])
    ]
    got = [(s.data["line"], *s.data["points"]) for s in segments]
    assert got == expected
    frame = set(page.data["frame"])
    seg_of_space: dict[str, set[str]] = {sid: set() for sid in spaces}
    for s in segments:
        assert s.style.value == "none"
        a, b = (points[p] for p in s.data["points"])
        assert list(s.geometry.coords) == [a, b]
        mid = Point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        beside = sorted(sid for sid, poly in spaces.items() if poly.boundary.distance(mid) < TOL)
        assert sorted(s.data["spaces"]) == beside, s.id
        assert len(beside) == (1 if s.data["line"] in frame else 2), s.id
        for sid in beside:
            seg_of_space[sid].add(s.id)
    for f in page.features(Kind.SPACE):
        assert set(f.data["segments"]) == seg_of_space[f.id]
        assert f.data["lines"] == sorted(
            {page.get(s).data["line"] for s in f.data["segments"]},  # type: ignore[union-attr]
            key=lambda i: int(i.split("-")[1]),
        )
        length = sum(page.get(s).geometry.length for s in f.data["segments"])  # type: ignore[union-attr]
        assert length == pytest.approx(f.geometry.length, rel=1e-9)
    # Euler: every meeting point is a vertex, every piece an edge, spaces plus the outside faces.
    v, e, f_ = len(points), len(segments), len(spaces) + 1
    assert v - e + f_ == 2


def test_spaces_are_numbered_from_the_top() -> None:
    page = sheet_for("arp", 1).page
    heights = [round(p.centroid.y, 6) for p in page.spaces().values()]
    assert heights == sorted(heights)


# --- score areas ------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_two_score_areas_at_each_end(paper: str) -> None:
    page = sheet_for("arp", 3, paper).page
    assert page.field is not None
    top, bottom = page.field.bounds[1], page.field.bounds[3]
    tops = []
    for p in range(1, 5):
        tally = [f for f in page.features(Kind.BOX) if f.id.startswith(f"box-tally{p}-")]
        assert len(tally) == 55, "one tally box per space: the highest possible score"
        initials = page.get(f"box-initials-{p}")
        assert isinstance(initials, Feature)
        y0, y1 = initials.geometry.bounds[1], initials.geometry.bounds[3]
        tops.append(y0 < top)
        assert y1 < top or y0 > bottom
        assert not any(page.field.intersects(b.geometry) for b in page.features(Kind.BOX))
    assert tops == [True, True, False, False]
    x = [page.get(f"box-initials-{p}").geometry.bounds[0] for p in range(1, 5)]  # type: ignore[union-attr]
    assert x[0] < x[1] and x[2] < x[3], "areas are numbered in reading order, as on every sheet"


# --- parameters -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "spaces"),
    [(10, 13), (4, 2), (6, 6), (25, 21), (25, 60), (32, 81), (32, 28), (12, 20)],
)
def test_other_counts_are_exact(lines: int, spaces: int) -> None:
    for seed in (1, 2):
        page = build(seed, lines=str(lines), spaces=str(spaces)).page
        assert len(list(page.features(Kind.LINE))) == lines
        got = page.spaces()
        assert len(got) == spaces
        assert min(p.area for p in got.values()) >= MIN_AREA - 1e-6
        points = len(list(page.features(Kind.POINT)))
        assert points - len(list(page.features(Kind.SEGMENT))) + spaces + 1 == 2


@pytest.mark.parametrize(
    ("key", "value"), [("lines", "3"), ("lines", "33"), ("spaces", "1"), ("spaces", "82")]
)
def test_out_of_range_values_are_refused_naming_the_key(key: str, value: str) -> None:
    with pytest.raises(SpecError, match=rf"^{key}="):
        SheetSpec.create("arp", {key: value}, seed=1)


@pytest.mark.parametrize(
    ("lines", "spaces"), [(25, 20), (25, 61), (10, 19), (10, 6), (4, 3), (12, 25)]
)
def test_impossible_combinations_are_refused(lines: int, spaces: int) -> None:
    low, high = space_bounds(lines)
    if low <= spaces <= high:
        pytest.skip("inside the bounds")
    with pytest.raises(SpecError, match=r"^spaces=.*lines="):
        SheetSpec.create("arp", {"lines": str(lines), "spaces": str(spaces)}, seed=1)


def test_bounds_follow_the_construction() -> None:
    for lines in range(4, 33):
        low, high = space_bounds(lines)
        chords = lines - frame_sides(lines)
        assert low == 1 + chords
        assert low <= high <= 1 + chords + chords * (chords - 1) // 2
    assert space_bounds(25)[0] <= 55 <= space_bounds(25)[1]


def test_small_paper_fails_with_a_clear_message_or_fits() -> None:
    try:
        page = build(1, "a5", lines="32", spaces="81").page
    except FitError as exc:
        assert "paper" in str(exc)
    else:
        assert len(page.spaces()) == 81


# --- stability --------------------------------------------------------------------------------


def test_same_seed_same_field_other_seed_other_field() -> None:
    a = make_sheet(SheetSpec.create("arp", seed=7)).page
    b = sheet_for("arp", 7).page
    for fa, fb in zip(a.features(), b.features(), strict=True):
        assert fa.id == fb.id and wkb.dumps(fa.geometry) == wkb.dumps(fb.geometry)
    fields = {
        tuple(wkb.dumps(f.geometry) for f in sheet_for("arp", s).page.features(Kind.LINE))
        for s in SEEDS[:20]
    }
    assert len(fields) == 20
