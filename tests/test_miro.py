"""Miro: one closed line crossing itself, with the book's exact counts for every seed.

The facts in the model (crossings, path, the spaces beside each segment) are checked against
the drawn geometry, recomputed here from the segments' polylines.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from shapely import STRtree
from shapely.geometry import LineString, MultiLineString, Point, Polygon
from shapely.ops import polygonize, unary_union

from papergames.errors import FitError, SpecError
from papergames.sheets.model import Feature, Kind, Page
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.topology import tiling_gaps

from conftest import sheet_for

SEEDS = range(50)
BOOK = {"points": 101, "double": 94, "triple": 7, "segments": 209, "spaces": 109}


def page_for(seed: int) -> Page:
    """A default sheet, built once per seed (portrait only, to keep the file quick)."""
    return sheet_for("miro", seed, "a4", "portrait").pages[0]


def segments(page: Page) -> list[Feature]:
    return list(page.features(Kind.SEGMENT))


def coords(f: Feature) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in f.geometry.coords]


def direction(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.atan2(b[1] - a[1], b[0] - a[0])


def turn(a: float, b: float) -> float:
    """The angle in degrees between two headings."""
    return abs(math.degrees((b - a + math.pi) % (2 * math.pi) - math.pi))


def line_angle(a: float, b: float) -> float:
    """The angle in degrees between two undirected lines."""
    t = turn(a, b)
    return min(t, 180.0 - t)


def heading(points: list[tuple[float, float]], reach: float = 0.6) -> float:
    """The heading of a polyline at its start, over about ``reach`` mm."""
    for p in points[1:]:
        if math.dist(points[0], p) >= reach:
            return direction(points[0], p)
    return direction(points[0], points[-1])


# --- counts -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_book_counts_hold_exactly(seed: int) -> None:
    page = page_for(seed)
    segs = segments(page)
    spaces = page.spaces()
    crossings = page.data["crossings"]
    degrees = Counter(c["degree"] for c in crossings)
    assert len(segs) == BOOK["segments"]
    assert len(spaces) == BOOK["spaces"]
    assert len(crossings) == BOOK["points"]
    assert degrees == {4: BOOK["double"], 6: BOOK["triple"]}
    # Euler's formula for a connected plane graph, counting bounded faces only.
    assert len(crossings) - len(segs) + len(spaces) == 1
    assert sum(c["degree"] for c in crossings) == 2 * len(segs)
    assert page.data["counts"] == BOOK


@pytest.mark.parametrize("seed", SEEDS)
def test_geometry_matches_the_model(seed: int) -> None:
    page = page_for(seed)
    segs = segments(page)
    spaces = page.spaces()
    lines = [f.geometry for f in segs]
    # The segments meet only at their ends: noding them cuts none of them.
    noded = unary_union(lines)
    parts = list(noded.geoms) if isinstance(noded, MultiLineString) else [noded]
    assert len(parts) == len(lines)
    faces = list(polygonize(parts))
    assert len(faces) == len(spaces)
    assert sorted(round(f.area, 3) for f in faces) == sorted(
        round(p.area, 3) for p in spaces.values()
    )
    # Every crossing point is where its listed segments start or end, 4 or 6 ends at a time.
    ends: Counter[tuple[float, float]] = Counter()
    for f in segs:
        c = coords(f)
        ends[c[0]] += 1
        ends[c[-1]] += 1
    by_id = {c["id"]: c for c in page.data["crossings"]}
    assert len(ends) == len(by_id)
    for c in page.data["crossings"]:
        where = min(ends, key=lambda p: math.dist(p, (c["x"], c["y"])))
        assert math.dist(where, (c["x"], c["y"])) < 1e-3
        assert ends[where] == c["degree"]
        for sid in c["segments"]:
            seg = page.get(sid)
            assert isinstance(seg, Feature)
            assert c["id"] in (seg.data["from"], seg.data["to"])


@pytest.mark.parametrize("seed", SEEDS)
def test_spaces_tile_the_field_and_are_fillable(seed: int) -> None:
    page = page_for(seed)
    field = page.field
    assert isinstance(field, Polygon) and not field.interiors
    spaces = page.spaces()
    overlap, uncovered = tiling_gaps(spaces.values(), field)
    assert overlap < 1e-6 * field.area and uncovered < 1e-6 * field.area
    assert min(p.area for p in spaces.values()) >= 40.0
    assert min(f.geometry.length for f in segments(page)) >= 3.0
    numbers = [int(s.split("-")[1]) for s in spaces]
    assert numbers == list(range(1, len(spaces) + 1))


@pytest.mark.parametrize("seed", SEEDS)
def test_crossing_angles_and_clearance(seed: int) -> None:
    page = page_for(seed)
    segs = {f.id: f for f in segments(page)}
    for c in page.data["crossings"]:
        at = (c["x"], c["y"])
        headings = []
        for sid in c["segments"]:
            pts = coords(segs[sid])
            for run in (pts, pts[::-1]):
                if math.dist(run[0], at) < 1e-3:
                    headings.append(heading(run))
        assert len(headings) == c["degree"]
        # Strands: a heading and its opposite are the two halves of one strand.
        least = min(
            line_angle(a, b)
            for i, a in enumerate(headings)
            for b in headings[i + 1 :]
            if turn(a, b) < 150.0
        )
        assert least >= 30.0, c["id"]
    # Strands that share no crossing keep apart.
    ids = list(segs)
    lines = [segs[i].geometry for i in ids]
    tree = STRtree(lines)
    near = tree.query(lines, predicate="dwithin", distance=2.0)
    for a, b in zip(near[0].tolist(), near[1].tolist(), strict=True):
        fa, fb = segs[ids[a]], segs[ids[b]]
        shared = {fa.data["from"], fa.data["to"]} & {fb.data["from"], fb.data["to"]}
        assert a == b or shared, (fa.id, fb.id)


@pytest.mark.parametrize("seed", SEEDS)
def test_path_runs_along_the_line_straight_through_crossings(seed: int) -> None:
    page = page_for(seed)
    path = page.data["path"]
    assert path == [f"segment-{n}" for n in range(1, len(path) + 1)]
    segs = {f.id: f for f in segments(page)}
    for here, there in zip(path, path[1:] + path[:1], strict=True):
        a, b = segs[here], segs[there]
        assert a.data["to"] == b.data["from"]
        end, start = coords(a), coords(b)
        assert end[-1] == start[0]
        # Straight through: the line leaves the crossing the way it came in.
        assert turn(heading(end[::-1]) + math.pi, heading(start)) < 20.0
    first = page.data["crossings"][0]
    assert first["id"] == "crossing-1" == segs["segment-1"].data["from"]


@pytest.mark.parametrize("seed", SEEDS)
def test_segments_know_the_spaces_beside_them(seed: int) -> None:
    page = page_for(seed)
    spaces = page.spaces()
    names = list(spaces)
    rims = [spaces[s].boundary.buffer(1e-6, quad_segs=1) for s in names]
    tree = STRtree([spaces[s] for s in names])
    around: dict[str, set[str]] = {s: set() for s in spaces}
    for f in segments(page):
        line: LineString = f.geometry
        beside = {names[i] for i in tree.query(line) if rims[i].contains(line)}
        assert set(f.data["spaces"]) == beside, f.id
        assert 1 <= len(beside) <= 2
        for s in beside:
            around[s].add(f.id)
    for feature in page.features(Kind.SPACE):
        assert set(feature.data["segments"]) == around[feature.id]
        assert feature.style.value == "none"


@pytest.mark.parametrize("seed", range(10))
def test_the_line_is_smooth(seed: int) -> None:
    page = page_for(seed)
    worst = 0.0
    previous: float | None = None
    for sid in page.data["path"]:
        pts = coords(page.get(sid))  # type: ignore[arg-type]
        for a, b in itertools.pairwise(pts):
            h = direction(a, b)
            if previous is not None:
                worst = max(worst, turn(previous, h))
            previous = h
    assert worst < 25.0


# --- sheet --------------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_four_score_areas_two_at_each_end(paper: str) -> None:
    page = sheet_for("miro", 2, paper).pages[0]
    field = page.field
    assert field is not None
    _, top, _, bottom = field.bounds
    for p in range(1, 5):
        initials = page.get(f"box-initials-{p}")
        assert isinstance(initials, Feature)
        y = initials.geometry.bounds[1]
        assert (y < top) == (p <= 2) and (y > bottom) == (p > 2)
        tallies = [f for f in page.features(Kind.BOX) if f.id.startswith(f"box-tally{p}-")]
        assert len(tallies) == math.ceil(2 * 209 / 4)
        assert not any(field.intersects(f.geometry) for f in tallies)


def test_same_seed_same_line_other_seed_other_line() -> None:
    spec = SheetSpec.create("miro", seed=12)
    a, b = make_sheet(spec).page, make_sheet(spec).page
    assert a.ids() == b.ids()
    assert [coords(f) for f in segments(a)] == [coords(f) for f in segments(b)]
    assert a.data == b.data
    other = page_for(13)
    assert [coords(f) for f in segments(other)] != [coords(f) for f in segments(a)]


# --- parameters -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("crossings", "triples"), [(3, 0), (3, 1), (8, 1), (8, 4), (20, 3), (40, 0), (60, 10)]
)
def test_other_counts_are_exact(crossings: int, triples: int) -> None:
    spec = SheetSpec.create(
        "miro", {"crossings": str(crossings), "triples": str(triples)}, seed=crossings + triples
    )
    page = make_sheet(spec).page
    segs = segments(page)
    assert len(segs) == 2 * crossings + 3 * triples
    assert len(page.spaces()) == crossings + 2 * triples + 1
    degrees = Counter(c["degree"] for c in page.data["crossings"])
    assert degrees[4] == crossings and degrees[6] == triples
    assert min(p.area for p in page.spaces().values()) >= 40.0
    noded = unary_union([f.geometry for f in segs])
    parts = list(noded.geoms) if isinstance(noded, MultiLineString) else [noded]
    assert len(parts) == len(segs)


@pytest.mark.parametrize(
    ("settings", "key"),
    [
        ({"crossings": "2"}, "crossings"),
        ({"crossings": "121"}, "crossings"),
        ({"triples": "11"}, "triples"),
        ({"triples": "-1"}, "triples"),
        ({"crossings": "x"}, "crossings"),
    ],
)
def test_out_of_range_values_are_refused(settings: dict[str, str], key: str) -> None:
    with pytest.raises(SpecError, match=rf"^{key}="):
        SheetSpec.create("miro", settings, seed=1)


@pytest.mark.parametrize(
    "settings", [{"crossings": "110", "triples": "5"}, {"crossings": "6", "triples": "4"}]
)
def test_impossible_combinations_are_refused(settings: dict[str, str]) -> None:
    with pytest.raises(SpecError) as err:
        SheetSpec.create("miro", settings, seed=1)
    assert "crossings=" in str(err.value) and "triples=" in str(err.value)


def test_small_paper_fits_or_says_why() -> None:
    try:
        page = make_sheet(SheetSpec.create("miro", seed=1, paper="a5")).page
    except FitError as exc:
        assert "paper" in str(exc)
    else:
        assert len(page.spaces()) == 109
        assert min(p.area for p in page.spaces().values()) >= 40.0


def test_point_in_each_space_is_inside_only_that_space() -> None:
    page = page_for(3)
    spaces = page.spaces()
    tree = STRtree(list(spaces.values()))
    for poly in spaces.values():
        p: Point = poly.representative_point()
        assert len(tree.query(p, predicate="within")) == 1
