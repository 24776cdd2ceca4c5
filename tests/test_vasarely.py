"""Vasarely: a honeycomb of isometric cubes cut into dotted spaces, and four corner score areas.

Every property the rules and the photo reader rely on is checked against the geometry itself:
the book's counts for every seed, each cube's spaces tiling its hexagon along isometric lines,
the dots inside their spaces with room to spare, the dot rule (every cube shows every count),
the cubes not overlapping, the ids in their documented order, and the tally boxes enough for
the highest score a player can reach.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import cache

import pytest
from shapely import wkb
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from papergames.errors import FitError, SpecError
from papergames.layouts.vasarely.field import CLEAR, FACES, SPACING, choose_pattern, divide_cube
from papergames.layouts.vasarely.params import GRID, MAX_SPACES
from papergames.sheets.compose import content_frame
from papergames.sheets.model import Feature, Kind, Page, Sheet
from papergames.sheets.rng import Rng
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.topology import tiling_gaps

from conftest import sheet_for

SEEDS = list(range(1, 51))
EPS = 1e-6
ISO_ANGLES = (30.0, 90.0, 150.0)
"""Directions (degrees, modulo 180) of the lines of an isometric cube standing on a point."""


@cache
def build(seed: int = 1, paper: str = "a4", orientation: str = "auto", **params: str) -> Sheet:
    spec = SheetSpec.create("vasarely", params, seed=seed, paper=paper, orientation=orientation)
    return make_sheet(spec)


def default(seed: int) -> Page:
    return sheet_for("vasarely", seed).page


def spaces(page: Page) -> list[Feature]:
    return list(page.features(Kind.SPACE))


def hexagons(page: Page) -> dict[int, Polygon]:
    """Each cube's hexagon, read from its heavy outline."""
    n = len(page.data["cubes"])
    out = {}
    for m in range(1, n + 1):
        line = page.get(f"line-{m}")
        assert isinstance(line, Feature) and line.style.value == "heavy"
        out[m] = Polygon(line.geometry.coords)
    return out


def direction(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 180.0


def is_iso(angle: float) -> bool:
    return any(abs(angle - iso) < 1e-6 for iso in ISO_ANGLES)


def dots_of(page: Page) -> dict[str, list[Feature]]:
    out: dict[str, list[Feature]] = {}
    for dot in page.features(Kind.DOT):
        _, n, _ = dot.id.split("-")
        out.setdefault(f"space-{n}", []).append(dot)
    return out


def tally_boxes(page: Page, player: int) -> list[Feature]:
    return [f for f in page.features(Kind.BOX) if f.id.startswith(f"box-tally{player}-")]


# --- the book's counts, for every seed ------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_book_counts_hold_for_every_seed(seed: int) -> None:
    page = default(seed)
    cubes = page.data["cubes"]
    assert len(cubes) == 10
    by_cube: dict[str, list[str]] = {}
    for f in spaces(page):
        assert f.group == f"cube-{f.data['cube']}"
        by_cube.setdefault(f.group, []).append(f.id)
    assert sorted(by_cube) == sorted(f"cube-{m}" for m in range(1, 11))
    for m, ids in enumerate(cubes, start=1):
        assert by_cube[f"cube-{m}"] == ids
        assert 7 <= len(ids) <= 12
    assert page.data["spaces"] == [len(c) for c in cubes]
    dots = dots_of(page)
    for f in spaces(page):
        k = f.data["dots"]
        assert 1 <= k <= 5
        n = f.id.split("-")[1]
        assert [d.id for d in dots[f.id]] == [f"dot-{n}-{i}" for i in range(1, k + 1)]
        assert all(d.group == f.group and d.style.value == "solid" for d in dots[f.id])
        assert all(d.data == {"space": f.id, "cube": f.data["cube"]} for d in dots[f.id])
    assert sum(len(v) for v in dots.values()) == sum(f.data["dots"] for f in spaces(page))


def test_space_counts_vary_between_cubes_and_sheets() -> None:
    counts = Counter(n for seed in SEEDS for n in default(seed).data["spaces"])
    assert set(counts) == set(range(7, 13)), "every count from 7 to 12 occurs"
    shares = Counter(
        sum(1 for f in spaces(default(seed)) if f.data["cube"] == 1 and f.data["face"] == face)
        for seed in SEEDS
        for face in FACES
    )
    assert len(shares) >= 4, "faces carry different numbers of spaces"


# --- each cube tiles its hexagon along isometric lines --------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_each_cubes_spaces_tile_exactly_its_hexagon(seed: int) -> None:
    page = default(seed)
    hexes = hexagons(page)
    edge = page.data["edge"]
    polys = page.spaces()
    for m, ids in enumerate(page.data["cubes"], start=1):
        hexagon = hexes[m]
        coords = list(hexagon.exterior.coords)[:-1]
        assert len(coords) == 6
        for a, b in itertools.pairwise([*coords, coords[0]]):
            assert math.dist(a, b) == pytest.approx(edge, abs=EPS)
            assert is_iso(direction(a, b))
        overlap, uncovered = tiling_gaps([polys[s] for s in ids], hexagon)
        assert abs(overlap) < EPS * hexagon.area
        assert uncovered < EPS * hexagon.area
    tiled = page.data["tiled"]
    assert tiled.equals(page.field)
    assert unary_union(list(hexes.values())).symmetric_difference(tiled).area < EPS


@pytest.mark.parametrize("seed", SEEDS)
def test_spaces_are_parallelograms_along_the_cube_lines_within_their_face(seed: int) -> None:
    page = default(seed)
    hexes = hexagons(page)
    edge = page.data["edge"]
    cell = edge / GRID
    for f in spaces(page):
        poly = f.geometry
        assert poly.is_valid
        pts = list(poly.exterior.coords)[:-1]
        assert len(pts) == 4
        sides = list(itertools.pairwise([*pts, pts[0]]))
        angles = [direction(a, b) for a, b in sides]
        assert all(is_iso(a) for a in angles), f.id
        assert angles[0] == pytest.approx(angles[2]) and angles[1] == pytest.approx(angles[3])
        assert angles[0] != pytest.approx(angles[1])
        lengths = [math.dist(a, b) for a, b in sides]
        # Unions of whole small rhombi: sides are whole multiples of the cell, at least 2 each,
        # at least 6 cells in all (big enough for five dots).
        for length in lengths:
            assert length / cell == pytest.approx(round(length / cell), abs=1e-6)
            assert length >= 2 * cell - EPS
        assert poly.area >= 6 * cell * cell * math.sqrt(3) / 2 - EPS
        # The face the data names is the rhombus of the hexagon the space lies in.
        hexagon = hexes[f.data["cube"]]
        c = hexagon.centroid
        t, ur, lr, b, ll, ul = list(hexagon.exterior.coords)[:-1]
        centre = (c.x, c.y)
        faces = {
            "top": Polygon([centre, ur, t, ul]),
            "left": Polygon([centre, ul, ll, b]),
            "right": Polygon([centre, b, lr, ur]),
        }
        assert t[1] < b[1] and ll[0] < lr[0]
        assert faces[f.data["face"]].buffer(EPS).contains(poly), f.id


@pytest.mark.parametrize("seed", SEEDS[:10])
def test_light_cuts_run_along_the_cube_lines_between_spaces_of_one_face(seed: int) -> None:
    page = default(seed)
    polys = {f.id: f for f in spaces(page)}
    segments = list(page.features(Kind.SEGMENT))
    assert [s.id for s in segments] == [f"segment-{n}" for n in range(1, len(segments) + 1)]
    order = [(s.data["cube"], FACES.index(s.data["face"])) for s in segments]
    assert order == sorted(order)
    for seg in segments:
        assert seg.style.value == "light"
        a, b = seg.geometry.coords
        assert is_iso(direction(a, b))
        beside = [
            f
            for f in polys.values()
            if f.data["cube"] == seg.data["cube"]
            and f.geometry.boundary.intersection(seg.geometry.buffer(1e-7)).length > 1e-4
        ]
        assert beside and all(f.data["face"] == seg.data["face"] for f in beside), seg.id
        # The cut lies on the spaces' borders: it crosses no space's inside.
        for f in beside:
            inner = f.geometry.buffer(-1e-6)
            assert inner.intersection(seg.geometry).length < 1e-6
        # Every point of the cut has spaces on both sides.
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        nx, ny = (b[1] - a[1]), -(b[0] - a[0])
        norm = math.hypot(nx, ny)
        for sign in (1, -1):
            probe = Point(mid[0] + sign * 1e-3 * nx / norm, mid[1] + sign * 1e-3 * ny / norm)
            assert any(f.geometry.contains(probe) for f in beside), seg.id
    # Each cube: spaces = cuts that each add one space, per face (guillotine cuts).
    for m, ids in enumerate(page.data["cubes"], start=1):
        for face in FACES:
            on_face = [s for s in ids if polys[s].data["face"] == face]
            cuts = [s for s in segments if s.data["cube"] == m and s.data["face"] == face]
            assert len(cuts) == len(on_face) - 1


@pytest.mark.parametrize("seed", SEEDS[:10])
def test_face_edges_and_outlines_are_drawn_by_weight(seed: int) -> None:
    page = default(seed)
    n = len(page.data["cubes"])
    hexes = hexagons(page)
    for m in range(1, n + 1):
        outline = page.get(f"line-{m}")
        edges = page.get(f"line-{n + m}")
        assert isinstance(outline, Feature) and isinstance(edges, Feature)
        assert outline.group == edges.group == f"cube-{m}"
        assert edges.style.value == "medium"
        c = hexes[m].centroid
        # The three face edges meet at the centre and end on the outline.
        assert edges.geometry.length == pytest.approx(3 * page.data["edge"], abs=EPS)
        assert edges.geometry.distance(c) < EPS
        assert hexes[m].buffer(EPS).contains(edges.geometry)


# --- dots -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_dots_lie_inside_their_space_clear_of_its_border_and_of_each_other(seed: int) -> None:
    page = default(seed)
    for f in spaces(page):
        dots = dots_of(page)[f.id]
        centres = []
        for d in dots:
            c = d.geometry.centroid
            centres.append(c)
            assert d.geometry.bounds[2] - d.geometry.bounds[0] >= 1.0, "legible dot"
            assert f.geometry.contains(d.geometry), d.id
            assert f.geometry.exterior.distance(c) >= CLEAR - EPS, d.id
        for a, b in itertools.combinations(centres, 2):
            assert a.distance(b) >= SPACING - EPS, f.id


@pytest.mark.parametrize("seed", SEEDS)
def test_every_cube_shows_every_number_of_dots(seed: int) -> None:
    page = default(seed)
    dots = dots_of(page)
    for ids in page.data["cubes"]:
        drawn = {len(dots[s]) for s in ids}
        assert drawn == {1, 2, 3, 4, 5}


@pytest.mark.parametrize("seed", range(20))
def test_the_dot_rule_holds_with_fewer_dots(seed: int) -> None:
    page = build(seed, max_dots="3", min_spaces="3", max_spaces="5").page
    for ids in page.data["cubes"]:
        assert 3 <= len(ids) <= 5
        counts = [f.data["dots"] for f in spaces(page) if f.id in ids]
        assert set(counts) == {1, 2, 3}


def test_dot_counts_are_otherwise_mixed() -> None:
    counts = Counter(f.data["dots"] for seed in SEEDS for f in spaces(default(seed)))
    total = sum(counts.values())
    for k in range(1, 6):
        # 5 forced per cube, the others uniform: each count has about a fifth.
        assert 0.15 < counts[k] / total < 0.25, counts


@pytest.mark.parametrize("spaces_count", range(3, MAX_SPACES + 1))
def test_divide_cube_gives_the_exact_count_and_dot_rule(spaces_count: int) -> None:
    for seed in range(30):
        max_dots = min(5, spaces_count)
        d = divide_cube(Rng(seed, "t"), spaces_count, max_dots)
        assert len(d.pieces) == len(d.dots) == spaces_count
        assert set(d.dots) == set(range(1, max_dots + 1))
        cells = sum((p.i1 - p.i0) * (p.j1 - p.j0) for p in d.pieces)
        assert cells == 3 * GRID**2
        for p in d.pieces:
            assert p.i1 - p.i0 >= 2 and p.j1 - p.j0 >= 2
            assert (p.i1 - p.i0) * (p.j1 - p.j0) >= 6


def test_smallest_space_holds_five_dots_at_the_smallest_cube_the_plan_allows() -> None:
    edge = min(default(s).data["edge"] for s in SEEDS)
    cell = edge / GRID
    for w, h in ((2, 3), (3, 2), (2, 4), (3, 3)):
        for k in range(1, 6):
            assert choose_pattern(k, w * cell, h * cell) is not None


# --- cubes and neighbours -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_cubes_do_not_overlap_and_form_one_honeycomb(seed: int) -> None:
    page = default(seed)
    hexes = hexagons(page)
    edge = page.data["edge"]
    touching: dict[int, set[int]] = {m: set() for m in hexes}
    for (i, a), (j, b) in itertools.combinations(hexes.items(), 2):
        assert a.intersection(b).area < EPS
        shared = a.boundary.intersection(b.boundary).length
        assert shared < EPS or shared == pytest.approx(edge, abs=1e-6)
        if shared > EPS:
            touching[i].add(j)
            touching[j].add(i)
    seen, todo = {1}, [1]
    while todo:
        for n in touching[todo.pop()] - seen:
            seen.add(n)
            todo.append(n)
    assert seen == set(hexes), "the cubes form one connected cluster"
    assert sum(page.data["rows"]) == 10


def probed_neighbours(page: Page) -> dict[str, set[str]]:
    """Neighbours found by probing just outside every cell-long stretch of every space's sides.

    Shared borders are whole numbers of cells long, so a probe at the middle of each stretch,
    a hair outside, lands in the space across the border if there is one.
    """
    feats = spaces(page)
    cell = page.data["edge"] / GRID
    out: dict[str, set[str]] = {f.id: set() for f in feats}
    for f in feats:
        pts = list(f.geometry.exterior.coords)
        c = f.geometry.centroid
        for a, b in itertools.pairwise(pts):
            steps = round(math.dist(a, b) / cell)
            nx, ny = b[1] - a[1], -(b[0] - a[0])
            norm = math.hypot(nx, ny)
            nx, ny = nx / norm, ny / norm
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            if (mid[0] - c.x) * nx + (mid[1] - c.y) * ny < 0:
                nx, ny = -nx, -ny
            for k in range(steps):
                t = (k + 0.5) / steps
                probe = Point(
                    a[0] + t * (b[0] - a[0]) + 1e-3 * nx, a[1] + t * (b[1] - a[1]) + 1e-3 * ny
                )
                out[f.id].update(g.id for g in feats if g.id != f.id and g.geometry.contains(probe))
    return out


@pytest.mark.parametrize(
    ("paper", "orientation", "cubes", "rows"),
    [
        ("a4", "portrait", "10", [3, 4, 3]),
        ("letter", "portrait", "10", [3, 4, 3]),
        ("a4", "landscape", "10", [5, 5]),
        ("a4", "portrait", "7", [2, 3, 2]),
        ("a3", "portrait", "10", [3, 2, 3, 2]),
    ],
)
def test_cluster_is_compact_centred_and_balanced(
    paper: str, orientation: str, cubes: str, rows: list[int]
) -> None:
    page = build(2, paper, orientation, cubes=cubes).page
    assert page.data["rows"] == rows
    frame = content_frame(page.width, page.height)
    assert page.field is not None
    x0, _, x1, _ = page.field.bounds
    assert (x0 + x1) / 2 == pytest.approx(frame.x + frame.w / 2, abs=1e-6)
    centres = [h.centroid for h in hexagons(page).values()]
    mirror = {(round(x0 + x1 - c.x, 4), round(c.y, 4)) for c in centres}
    same = mirror == {(round(c.x, 4), round(c.y, 4)) for c in centres}
    assert same == (len(rows) > 2), "rows of unequal length are mirror even"


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_topology_matches_the_geometry(seed: int) -> None:
    page = default(seed)
    topo = page.topology
    probed = probed_neighbours(page)
    feats = {f.id: f for f in spaces(page)}
    hexes = hexagons(page)
    for a in feats:
        assert set(topo.neighbours[a]) == probed[a], a
        for b in probed[a]:
            ca, cb = feats[a].data["cube"], feats[b].data["cube"]
            if ca != cb:
                # Spaces of two cubes are next to each other only along the cubes' shared edge.
                border = hexes[ca].boundary.intersection(hexes[cb].buffer(1e-6))
                assert border.length == pytest.approx(page.data["edge"], abs=1e-5)
    # Within a cube the spaces are all connected through shared borders.
    for ids in page.data["cubes"]:
        seen, todo = {ids[0]}, [ids[0]]
        while todo:
            for n in topo.neighbours[todo.pop()] & set(ids):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert seen == set(ids)


@pytest.mark.parametrize("seed", SEEDS[:10])
def test_ids_follow_the_documented_order(seed: int) -> None:
    page = default(seed)
    feats = spaces(page)
    assert [f.id for f in feats] == [f"space-{n}" for n in range(1, len(feats) + 1)]
    hexes = hexagons(page)
    # Cubes row by row from the top, left to right.
    centres = [hexes[m].centroid for m in range(1, len(hexes) + 1)]
    keys = [(round(c.y, 6), round(c.x, 6)) for c in centres]
    assert keys == sorted(keys)
    # Within a cube: faces top, left, right; then by centre top to bottom, left to right.
    order = {face: k for k, face in enumerate(FACES)}
    for ids in page.data["cubes"]:
        cube = [f for f in feats if f.id in ids]
        got = [
            (order[f.data["face"]], round(f.geometry.centroid.y, 6), f.geometry.centroid.x)
            for f in cube
        ]
        assert [g[:2] for g in got] == sorted(g[:2] for g in got)
        for x, y in itertools.pairwise(got):
            if x[:2] == y[:2]:
                assert x[2] < y[2]


def test_same_seed_same_sheet_other_seeds_other_divisions() -> None:
    a = make_sheet(SheetSpec.create("vasarely", seed=77))
    b = make_sheet(SheetSpec.create("vasarely", seed=77))
    assert a.page.ids() == b.page.ids()
    for fa, fb in zip(a.page.features(), b.page.features(), strict=True):
        assert wkb.dumps(fa.geometry) == wkb.dumps(fb.geometry), fa.id
        assert fa.data == fb.data
    seen = {tuple(wkb.dumps(f.geometry) for f in default(s).features(Kind.SEGMENT)) for s in SEEDS}
    assert len(seen) == len(SEEDS)


def test_division_is_the_same_on_every_paper() -> None:
    """The paper changes the cubes' size and place, never which spaces and dots they hold."""
    ref = default(3)
    for paper, orientation in (("letter", "auto"), ("a4", "landscape"), ("letter", "portrait")):
        page = build(3, paper, orientation).page
        assert page.data["cubes"] == ref.data["cubes"]
        assert [f.data for f in spaces(page)] == [f.data for f in spaces(ref)]


# --- score areas ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS[:20])
def test_four_corner_score_areas_hold_the_highest_reachable_score(seed: int) -> None:
    page = default(seed)
    # A completion scores at most the cube's spaces less the completer's last one; one player
    # may complete every cube.
    most = sum(len(ids) - 1 for ids in page.data["cubes"])
    assert page.data["tally"] == most
    field = page.field
    assert field is not None
    fx0, fy0, fx1, fy1 = field.bounds
    mid_x = (fx0 + fx1) / 2
    for p in range(1, 5):
        boxes = tally_boxes(page, p)
        assert [b.data["value"] for b in boxes] == list(range(1, most + 1))
        for kind in ("initials", "legend", "total"):
            assert isinstance(page.get(f"box-{kind}-{p}"), Feature)
        _, y0, x1, y1 = unary_union([b.geometry for b in boxes]).bounds
        assert (x1 <= mid_x) == (p in (1, 3))
        assert (y1 <= fy0) == (p in (1, 2))
        assert (y0 >= fy1) == (p in (3, 4))
        assert not any(field.intersects(b.geometry) for b in boxes)
    assert not tally_boxes(page, 5)


# --- parameters and fitting -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cubes", "low", "high"), [(1, 7, 12), (4, 9, 9), (7, 5, 18), (12, 5, 8), (16, 7, 12)]
)
def test_other_counts(cubes: int, low: int, high: int) -> None:
    params = {"cubes": str(cubes), "min_spaces": str(low), "max_spaces": str(high)}
    for seed in (1, 2):
        page = build(seed, **params).page
        assert len(page.data["cubes"]) == cubes == sum(page.data["rows"])
        assert all(low <= len(ids) <= high for ids in page.data["cubes"])
        overlap, uncovered = tiling_gaps(page.spaces().values(), page.data["tiled"])
        assert abs(overlap) < EPS * page.data["tiled"].area
        assert uncovered < EPS * page.data["tiled"].area
        dots = dots_of(page)
        for ids in page.data["cubes"]:
            assert {len(dots[s]) for s in ids} == {1, 2, 3, 4, 5}


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("cubes", "0"),
        ("cubes", "17"),
        ("min_spaces", "2"),
        ("max_spaces", "19"),
        ("max_dots", "6"),
        ("max_dots", "1"),
        ("cubes", "x"),
    ],
)
def test_out_of_range_values_are_refused_naming_the_key(key: str, value: str) -> None:
    with pytest.raises(SpecError, match=rf"^{key}="):
        SheetSpec.create("vasarely", {key: value}, seed=1)


def test_min_above_max_is_refused() -> None:
    with pytest.raises(SpecError, match=r"min_spaces=9.*max_spaces=8"):
        SheetSpec.create("vasarely", {"min_spaces": "9", "max_spaces": "8"}, seed=1)


def test_fewer_spaces_than_dot_counts_is_refused() -> None:
    with pytest.raises(SpecError, match=r"max_dots=5.*min_spaces=4"):
        SheetSpec.create("vasarely", {"min_spaces": "4"}, seed=1)
    SheetSpec.create("vasarely", {"min_spaces": "4", "max_dots": "4"}, seed=1)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_fullest_book_sheet_fits_both_papers(paper: str) -> None:
    """Twelve spaces in every cube asks for the most tally boxes (110) the book allows."""
    page = build(1, paper, min_spaces="12").page
    assert page.data["tally"] == 110
    assert page.data["edge"] >= 20.0
    assert len(tally_boxes(page, 4)) == 110


def test_too_many_spaces_for_the_paper_is_a_fit_error_naming_paper() -> None:
    with pytest.raises(FitError, match="paper"):
        build(1, cubes="16", min_spaces="18", max_spaces="18")
