"""Klee: a 12 x 12 field of uneven squares with a regular grid's topology, a two-lane track in
order round it, and each player's sequence areas with the middle four starred.

Every fact the rules engine reads from the model (rows, columns, diagonals, the track's order)
is checked against the geometry, not against the layout's own arithmetic.
"""

from __future__ import annotations

import itertools
import math
from functools import cache

import pytest
from shapely import wkb
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from papergames.errors import FitError, SpecError
from papergames.games import get_layout
from papergames.layouts.klee.field import LANE
from papergames.layouts.klee.params import MIN_STEP
from papergames.sheets.bounds import text_box
from papergames.sheets.model import Feature, Kind, Page, Sheet, Text
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.topology import tiling_gaps

from conftest import sheet_for

SEEDS = list(range(1, 61))
MIN_SIDE = 6.0
MIN_AREA = 36.0


@cache
def sheet(seed: int, paper: str = "a4", orientation: str = "auto", **settings: str) -> Sheet:
    if not settings and orientation == "auto":
        return sheet_for("klee", seed, paper)
    return make_sheet(
        SheetSpec.create("klee", settings, seed=seed, paper=paper, orientation=orientation)
    )


def boxes(page: Page, prefix: str) -> dict[str, Feature]:
    return {f.id: f for f in page.features(Kind.BOX) if f.id.startswith(prefix)}


def shared_length(a: Polygon, b: Polygon) -> float:
    return float(a.boundary.intersection(b.buffer(1e-6)).length)


# --- the field ---------------------------------------------------------------------------------


def check_field(page: Page, n: int) -> None:
    spaces = page.spaces()
    assert list(spaces) == [f"space-{k}" for k in range(1, n * n + 1)]
    assert page.field is not None
    overlap, uncovered = tiling_gaps(spaces.values(), page.field)
    assert overlap < 1e-6 * page.field.area and uncovered < 1e-6 * page.field.area
    # The outline is a square.
    minx, miny, maxx, maxy = page.field.bounds
    assert maxx - minx == pytest.approx(maxy - miny)
    assert page.field.area == pytest.approx((maxx - minx) ** 2)
    where: dict[tuple[int, int], str] = {}
    for f in page.features(Kind.SPACE):
        r, c = f.data["row"], f.data["col"]
        assert f.id == f"space-{(r - 1) * n + c}"
        where[(r, c)] = f.id
        poly = f.geometry
        assert poly.is_valid and len(poly.exterior.coords) == 5
        assert poly.area >= MIN_AREA - 1e-9
        assert poly.convex_hull.area == pytest.approx(poly.area)
        cx, cy = poly.centroid.x, poly.centroid.y
        across = poly.intersection(LineString([(minx, cy), (maxx, cy)])).length
        down = poly.intersection(LineString([(cx, miny), (cx, maxy)])).length
        assert min(across, down) >= MIN_SIDE - 1e-9, f.id
    # Rows run left to right from the top: centroids agree with the numbers.
    cent = {k: spaces[v].centroid for k, v in where.items()}
    for r in range(1, n + 1):
        for c in range(1, n):
            assert cent[(r, c)].x < cent[(r, c + 1)].x
            assert cent[(c, r)].y < cent[(c + 1, r)].y
    # The topology of a regular grid, recomputed from the polygons.
    topo = page.topology
    for (r, c), sid in where.items():
        edge = {
            where[(r + dr, c + dc)]
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
            if (r + dr, c + dc) in where
        }
        diag = {
            where[(r + dr, c + dc)]
            for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1))
            if (r + dr, c + dc) in where
        }
        assert topo.neighbours[sid] == edge, sid
        assert topo.corner_neighbours[sid] == diag, sid


def check_lines(page: Page, n: int) -> None:
    """Rows, columns and diagonals in the page data agree with the computed topology."""
    topo = page.topology
    rows, columns, diagonals = page.data["rows"], page.data["columns"], page.data["diagonals"]
    assert len(rows) == len(columns) == n
    assert all(len(line) == n for line in rows + columns)
    assert sorted(s for line in rows for s in line) == sorted(page.spaces())
    assert sorted(s for line in columns for s in line) == sorted(page.spaces())
    for line in rows + columns:
        for a, b in itertools.pairwise(line):
            assert topo.are_neighbours(a, b)
    for line in rows:
        assert len({page.get(s).data["row"] for s in line}) == 1  # type: ignore[union-attr]
    # Diagonals: consecutive spaces meet at a corner only, they keep one direction, each space
    # lies on one diagonal of each direction, and every corner contact is on a diagonal.
    assert len(diagonals) == 2 * (2 * n - 1)
    count = dict.fromkeys(page.spaces(), 0)
    pairs = set()
    for line in diagonals:
        for s in line:
            count[s] += 1
        steps = set()
        for a, b in itertools.pairwise(line):
            assert b in topo.corner_neighbours[a]
            fa, fb = page.get(a), page.get(b)
            assert isinstance(fa, Feature) and isinstance(fb, Feature)
            steps.add((fb.data["row"] - fa.data["row"], fb.data["col"] - fa.data["col"]))
            pairs.add(frozenset((a, b)))
        assert len(steps) <= 1 and steps <= {(1, 1), (1, -1)}
    assert set(count.values()) == {2}
    corner_pairs = {frozenset((a, b)) for a, bs in topo.corner_neighbours.items() for b in bs}
    assert pairs == corner_pairs
    assert sum(len(line) >= 3 for line in diagonals) == 2 * (2 * n - 5)


@pytest.mark.parametrize("seed", SEEDS)
def test_field_has_144_spaces_with_grid_topology(seed: int) -> None:
    page = sheet(seed).page
    check_field(page, 12)
    check_lines(page, 12)
    assert page.data["size"] == 12


def test_fields_differ_between_seeds_and_squares_vary() -> None:
    seen = set()
    for seed in SEEDS[:10]:
        page = sheet(seed).page
        seen.add(wkb.dumps(page.get("space-14").geometry))  # type: ignore[union-attr]
        areas = [p.area for p in page.spaces().values()]
        assert max(areas) > 1.6 * min(areas), "Klee's squares vary in size"
        inner = [f for f in page.features(Kind.LINE) if f.data["axis"] != "perimeter"]
        assert len(inner) == 22
        assert sum(len(f.geometry.coords) == 13 for f in inner) == 22
        # The lines wobble: some crossing points leave the straight line between the ends by
        # more than 1% of a square's side (the wobble scales with the squares).
        assert page.field is not None
        square = (page.field.bounds[2] - page.field.bounds[0]) / 12
        bent = 0
        for f in inner:
            coords = list(f.geometry.coords)
            chord = LineString([coords[0], coords[-1]])
            bent += max(chord.distance(Point(p)) for p in coords) > 0.01 * square
        assert bent >= 5
    assert len(seen) == 10


# --- the track ---------------------------------------------------------------------------------


def check_track(page: Page, steps: int) -> None:
    assert page.field is not None
    field = page.field
    centre = field.centroid
    track = page.data["track"]
    assert page.data["track_length"] == steps
    assert page.data["start"] == ["box-initials-1", "box-initials-2"]
    start = {p: page.get(f"box-initials-{p}").geometry for p in (1, 2)}  # type: ignore[union-attr]
    lanes = {}
    for p in (1, 2):
        ids = track[str(p)]
        assert ids == [f"box-track{p}-{k}" for k in range(1, steps + 1)]
        lane = [page.get(i) for i in ids]
        assert all(
            isinstance(f, Feature) and f.data["step"] == k for k, f in enumerate(lane, start=1)
        )
        polys = [f.geometry for f in lane if isinstance(f, Feature)]
        lanes[p] = polys
        # In order: each box touches the next along a cut; the first and last touch the start.
        for a, b in itertools.pairwise(polys):
            assert shared_length(a, b) > 5.0
        assert shared_length(start[p], polys[0]) > 5.0
        assert shared_length(start[p], polys[-1]) > 5.0
        assert all(not field.intersects(q) for q in polys)
        # The lane goes once round the field, clockwise on the page, from the start cell.
        angles = [
            math.atan2(q.centroid.y - centre.y, q.centroid.x - centre.x) for q in [start[p], *polys]
        ]
        turns = [(b - a) % math.tau for a, b in itertools.pairwise(angles)]
        assert all(0 < t < math.pi / 2 for t in turns)
        assert sum(turns) < math.tau
        ring = unary_union([start[p], *polys])
        assert isinstance(ring, Polygon) and len(ring.interiors) == 1
        assert Polygon(ring.interiors[0]).contains(field)
        # No two boxes overlap.
        assert ring.area == pytest.approx(sum(q.area for q in [start[p], *polys]))
    # The outer lane is player 1's, the inner one player 2's; a step's two halves meet.
    for a, b in zip(lanes[1], lanes[2], strict=True):
        assert a.distance(field) > b.distance(field)
        assert shared_length(a, b) > 5.0
    # Evenly spread: the steps' lengths along the middle line differ little.
    lengths = [(a.area + b.area) / (2 * LANE) for a, b in zip(lanes[1], lanes[2], strict=True)]
    assert max(lengths) <= (1.2 if steps >= 20 else 1.5) * min(lengths) + 1e-9
    assert min(lengths) >= MIN_STEP - 1e-6
    # Numbered from the start, each number beside its own step.
    for k in range(1, steps + 1):
        text = page.get(f"track-number-{k}")
        assert isinstance(text, Text) and text.text == str(k)
        x0, y0, x1, y1 = text_box(text)
        label = Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        step = unary_union([lanes[1][k - 1], lanes[2][k - 1]])
        nearest = min(range(steps), key=lambda i: lanes[1][i].distance(label.centroid))
        assert nearest == k - 1
        assert not label.intersects(step)
    arrow = page.get("mark-start-arrow")
    assert isinstance(arrow, Feature)
    tip_x = max(x for x, _ in arrow.geometry.exterior.coords)
    assert tip_x == pytest.approx(start[1].bounds[2], abs=1e-6)
    assert arrow.geometry.within(unary_union(list(start.values())).buffer(0.01))


@pytest.mark.parametrize("seed", SEEDS)
def test_track_is_a_two_lane_ring_in_order(seed: int) -> None:
    check_track(sheet(seed).page, 30)


# --- the sequence areas ------------------------------------------------------------------------


def check_areas(page: Page, areas: int) -> None:
    marked = list(range((areas - 4) // 2 + 1, (areas - 4) // 2 + 5))
    assert page.data["standard"] == marked
    for p in (1, 2):
        ids = page.data["sequences"][str(p)]
        assert len(ids) == areas
        found = boxes(page, f"box-seq{p}-")
        assert len(found) == 3 * areas
        stars = [t for t in page.texts() if t.id.startswith(f"asterisk-{p}-")]
        assert sorted(int(t.id.rsplit("-", 1)[1]) for t in stars) == marked
        assert all(t.text == "*" for t in stars)
        spans = []
        for a, area in enumerate(ids, start=1):
            assert area == [f"box-seq{p}-{a}-{k}" for k in (1, 2, 3)]
            polys = [found[i].geometry for i in area]
            for k, i in enumerate(area, start=1):
                data = found[i].data
                assert (data["player"], data["sequence"], data["position"]) == (p, a, k)
                assert data["standard"] == (a in marked)
            # Three spaces in a strip, each touching the next.
            for x, y in itertools.pairwise(polys):
                assert shared_length(x, y) > 5.0
            assert min(q.area for q in polys) >= 5.5**2 - 1e-9
            spans.append(unary_union(polys))
        # Areas stand apart, in the player's left-to-right order (player 2's block is turned).
        xs = [s.centroid.x for s in spans]
        assert xs == sorted(xs, reverse=(p == 2))
        for x, y in itertools.pairwise(spans):
            assert x.distance(y) > 2.0
        for star in stars:
            a = int(star.id.rsplit("-", 1)[1])
            x0, _, x1, _ = spans[a - 1].bounds
            assert x0 < star.x < x1
            assert star.angle == (0.0 if p == 1 else 180.0)
            sx0, sy0, sx1, sy1 = text_box(star)
            near = Polygon([(sx0, sy0), (sx1, sy0), (sx1, sy1), (sx0, sy1)])
            assert near.distance(spans[a - 1]) < 3.0
            others = [s for b, s in enumerate(spans, start=1) if b != a]
            assert all(near.distance(s) > near.distance(spans[a - 1]) for s in others)
        assert isinstance(page.get(f"box-lane-{p}"), Feature)
        assert isinstance(page.get(f"box-initials-{p}"), Feature)
    # Player 1's areas are at the top end, player 2's at the bottom.
    assert page.field is not None
    top = unary_union([f.geometry for f in boxes(page, "box-seq1-").values()])
    bottom = unary_union([f.geometry for f in boxes(page, "box-seq2-").values()])
    assert top.bounds[3] < page.field.bounds[1] < page.field.bounds[3] < bottom.bounds[1]


@pytest.mark.parametrize("seed", SEEDS[:20])
def test_six_sequence_areas_per_player_middle_four_starred(seed: int) -> None:
    check_areas(sheet(seed).page, 6)


# --- parameters --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [4, 7, 14])
def test_other_field_sizes(size: int) -> None:
    for seed in (1, 2):
        page = sheet(seed, size=str(size)).page
        check_field(page, size)
        check_lines(page, size)
        check_track(page, 30)


@pytest.mark.parametrize("steps", [10, 17, 45, 60])
def test_other_track_lengths(steps: int) -> None:
    check_track(sheet(3, track=str(steps)).page, steps)


def test_a_long_track_round_a_mini_field_enlarges_the_field() -> None:
    page = sheet(4, size="4", track="60").page
    check_field(page, 4)
    check_track(page, 60)


@pytest.mark.parametrize("areas", [4, 5, 7, 8])
def test_other_area_counts(areas: int) -> None:
    check_areas(sheet(5, areas=str(areas)).page, areas)


def test_letter_paper() -> None:
    page = sheet(6, "letter").page
    check_field(page, 12)
    check_track(page, 30)
    check_areas(page, 6)
    assert page.width < page.height


def test_the_largest_sheet_fits_letter_upright() -> None:
    page = sheet(2, "letter", size="14", areas="8", track="60").page
    assert page.width < page.height
    check_field(page, 14)
    check_track(page, 60)
    check_areas(page, 8)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("size", "3"),
        ("size", "15"),
        ("track", "9"),
        ("track", "61"),
        ("areas", "3"),
        ("areas", "9"),
        ("size", "x"),
    ],
)
def test_out_of_range_values_are_refused_naming_the_key(key: str, value: str) -> None:
    with pytest.raises(SpecError, match=rf"^{key}="):
        SheetSpec.create("klee", {key: value}, seed=1)


def test_a_sheet_too_large_for_the_paper_says_what_to_change() -> None:
    with pytest.raises(FitError, match="paper"):
        make_sheet(SheetSpec.create("klee", seed=1, orientation="landscape"))
    with pytest.raises(FitError, match="paper"):
        make_sheet(SheetSpec.create("klee", {"size": "14"}, seed=1, paper="a5"))


def test_same_spec_same_sheet() -> None:
    a = make_sheet(SheetSpec.create("klee", {"track": "40"}, seed=77))
    b = make_sheet(SheetSpec.create("klee", {"track": "40"}, seed=77))
    assert a.page.ids() == b.page.ids()
    for fa, fb in zip(a.page.features(), b.page.features(), strict=True):
        assert wkb.dumps(fa.geometry) == wkb.dumps(fb.geometry), fa.id
    assert a.page.data == b.page.data


# --- rules and docs ----------------------------------------------------------------------------


def test_rules_give_the_triangular_scoring_table() -> None:
    rules = get_layout("klee").how_to_play
    for k in range(2, 9):
        assert f"{k} score {k * (k + 1) // 2}" in rules or f"{k} sequences score 3" in rules
    assert "k(k+1)/2" in rules
    assert "five" in rules and "asterisk" in rules
