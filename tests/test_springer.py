"""Springer: exact counts, tiling, four-way corners, fillable spaces and the numbered triangles.

Facts are checked against the geometry, recomputed here without the layout's own helpers where
that is possible: the corners where spaces meet, the spaces each triangle touches, the lines.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator

import pytest
from shapely import STRtree
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from papergames.errors import FitError, SpecError
from papergames.fonts import text_width
from papergames.layouts.springer.mesh import DEPTH, _merge, build_mesh, vary
from papergames.sheets.model import Feature, Kind, Page, Text
from papergames.sheets.rng import Rng
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.topology import tiling_gaps

from conftest import sheet_for

SEEDS = range(50)
EDGES = ("top", "right", "bottom", "left")
MIN_AREA = 30.0
MIN_ANGLE = 28.0
MIN_INRADIUS = 2.8
MIN_BORDER = 3.0
FOUR_WAY_FRACTION = 0.65
"""Least share of the inner meeting points (three or more spaces) where four or more meet."""


def page_of(seed: int) -> Page:
    return sheet_for("springer", seed).page


def custom(seed: int = 1, paper: str = "a4", orientation: str = "auto", **params: str) -> Page:
    spec = SheetSpec.create("springer", params, seed=seed, paper=paper, orientation=orientation)
    return make_sheet(spec).page


def angles(poly: Polygon) -> list[float]:
    """Interior angles in degrees of a simple polygon, computed from its ring."""
    pts = list(poly.exterior.coords)[:-1]
    n = len(pts)
    ccw = sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1] for i in range(n))
    out = []
    for i in range(n):
        (ax, ay), (bx, by), (cx, cy) = pts[i - 1], pts[i], pts[(i + 1) % n]
        u = (cx - bx, cy - by)
        w = (ax - bx, ay - by)
        cross = u[0] * w[1] - u[1] * w[0]
        turn = math.degrees(math.atan2(cross if ccw > 0 else -cross, u[0] * w[0] + u[1] * w[1]))
        out.append(turn % 360.0)
    return out


def meeting_points(page: Page) -> dict[tuple[float, float], list[str]]:
    """Every corner of a space strictly inside the field, with all spaces that touch it."""
    spaces = page.spaces()
    ids = list(spaces)
    tree = STRtree([spaces[i] for i in ids])
    field = page.field
    assert field is not None
    out: dict[tuple[float, float], list[str]] = {}
    for poly in spaces.values():
        for x, y in poly.exterior.coords[:-1]:
            key = (round(x, 6), round(y, 6))
            if key in out or field.boundary.distance(Point(x, y)) < 1e-6:
                continue
            near = tree.query(Point(x, y), predicate="dwithin", distance=1e-7)
            out[key] = sorted((ids[k] for k in near.tolist()), key=lambda s: int(s[6:]))
    return out


def triangles(page: Page) -> list[Feature]:
    return list(page.features(Kind.TRIANGLE))


def base_of(tri: Feature, field: Polygon) -> LineString:
    """The side of a triangle that lies on the field's outline."""
    shared = tri.geometry.intersection(field.boundary)
    assert isinstance(shared, LineString), tri.id
    return shared


# --- counts and tiling ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_exactly_108_spaces_tile_the_rectangle(seed: int) -> None:
    page = page_of(seed)
    spaces = page.spaces()
    assert len(spaces) == 108
    assert list(spaces) == [f"space-{n}" for n in range(1, 109)]
    field = page.field
    assert field is not None
    assert field.equals(box(*field.bounds)), "the field is a rectangle"
    overlap, uncovered = tiling_gaps(spaces.values(), field)
    assert overlap < 1e-6 * field.area
    assert uncovered < 1e-6 * field.area
    assert page.data["spaces"] == 108
    assert (page.data["columns"], page.data["rows"]) == (12, 9)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_space_is_pencil_fillable(seed: int) -> None:
    for sid, poly in page_of(seed).spaces().items():
        assert poly.is_valid, sid
        assert poly.area >= MIN_AREA, sid
        assert min(angles(poly)) >= MIN_ANGLE - 1e-9, sid
        assert not poly.buffer(-MIN_INRADIUS).is_empty, sid


@pytest.mark.parametrize("seed", SEEDS)
def test_neighbours_share_a_plain_stretch_of_border(seed: int) -> None:
    page = page_of(seed)
    spaces = page.spaces()
    topo = page.topology
    pairs = 0
    for a, others in topo.neighbours.items():
        for b in others:
            if a < b:
                pairs += 1
                shared = spaces[a].boundary.intersection(spaces[b].boundary).length
                assert shared >= MIN_BORDER - 1e-6, (a, b)
    assert pairs > 2 * 108 - 12 - 9, "a mesh of spaces has many borders"


@pytest.mark.parametrize("seed", SEEDS)
def test_spaces_have_different_shapes_and_sizes(seed: int) -> None:
    page = page_of(seed)
    spaces = page.spaces()
    corners = Counter(len(p.exterior.coords) - 1 for p in spaces.values())
    assert corners[3] >= 1 or corners[5] >= 1, "some spaces are cut or grow extra corners"
    areas = sorted(p.area for p in spaces.values())
    assert areas[-1] > 3 * areas[0]
    shapes = Counter(f.data["shape"] for f in page.features(Kind.SPACE))
    assert shapes["merged"] == page.data["merged"] == 9
    assert shapes["half"] == 2 * page.data["split"] == 18


@pytest.mark.parametrize("seed", SEEDS)
def test_cells_are_covered_once_and_numbered_row_by_row(seed: int) -> None:
    page = page_of(seed)
    cells: Counter[tuple[int, int]] = Counter()
    order = []
    for f in page.features(Kind.SPACE):
        got = [tuple(c) for c in f.data["cells"]]
        assert (f.data["row"], f.data["col"]) == got[0]
        order.append(got[0])
        if f.data["shape"] == "merged":
            (r1, c1), (r2, c2) = got
            assert abs(r1 - r2) + abs(c1 - c2) == 1
        else:
            assert len(got) == 1
        cells.update(got)
    assert order == sorted(order)
    halves = Counter(
        tuple(f.data["cells"][0]) for f in page.features(Kind.SPACE) if f.data["shape"] == "half"
    )
    assert set(halves.values()) <= {2}
    every = {(r, c) for r in range(1, 10) for c in range(1, 13)}
    assert set(cells) == every
    assert all(cells[c] == (2 if c in halves else 1) for c in every)


# --- corners where four spaces meet --------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_four_way_corners_match_the_geometry(seed: int) -> None:
    page = page_of(seed)
    points = meeting_points(page)
    inner = {k: v for k, v in points.items() if len(v) >= 3}
    four = {k: v for k, v in points.items() if len(v) >= 4}
    recorded = page.data["four_corners"]
    assert len(recorded) == len(four)
    for point in recorded:
        near = [k for k in four if math.dist(k, (point["x"], point["y"])) < 2e-3]
        assert len(near) == 1, point
        assert point["spaces"] == four[near[0]]
    assert page.data["four_corner_count"] == len(four)
    assert page.data["inner_vertices"] == len(inner)
    assert len(four) >= FOUR_WAY_FRACTION * len(inner)
    # Bent borders add points where only two spaces meet, and nothing else does.
    assert sum(1 for v in points.values() if len(v) == 2) == page.data["bent"] >= 20
    assert all(len(v) >= 2 for v in points.values())
    assert len(four) >= 60


@pytest.mark.parametrize("seed", range(10))
def test_spaces_across_a_four_way_corner_are_corner_neighbours(seed: int) -> None:
    page = page_of(seed)
    topo = page.topology
    for corner in page.data["four_corners"]:
        ids = corner["spaces"]
        for a in ids:
            for b in ids:
                if a < b:
                    assert topo.are_neighbours(a, b) or b in topo.corner_neighbours[a]
        # Going round the point, each space has exactly two neighbours among the others unless
        # more than four meet; at a four-way corner the two across are corner neighbours only.
        if len(ids) == 4:
            across = sum(1 for a in ids for b in ids if a < b and b in topo.corner_neighbours[a])
            assert across == 2


# --- the lines ------------------------------------------------------------------------------------


def edges_of(coords: list[tuple[float, float]]) -> list[frozenset[tuple[float, float]]]:
    pts = [(round(x, 6), round(y, 6)) for x, y in coords]
    return [frozenset(pair) for pair in itertools.pairwise(pts)]


@pytest.mark.parametrize("seed", range(10))
def test_lines_draw_every_border_once(seed: int) -> None:
    page = page_of(seed)
    field = page.field
    assert field is not None
    lines = list(page.features(Kind.LINE))
    assert lines[0].id == "line-1"
    assert lines[0].style.value == "heavy"
    assert lines[0].geometry.length == pytest.approx(field.length)
    sides: Counter[frozenset[tuple[float, float]]] = Counter()
    for poly in page.spaces().values():
        sides.update(edges_of(list(poly.exterior.coords)))
    shared = {e for e, n in sides.items() if n == 2}
    assert set(sides.values()) <= {1, 2}
    drawn: list[frozenset[tuple[float, float]]] = []
    for line in lines[1:]:
        drawn.extend(edges_of(list(line.geometry.coords)))
    assert len(drawn) == len(set(drawn)), "no border is drawn twice"
    assert set(drawn) == shared, "every border between two spaces is drawn"
    outline = sum(math.dist(*tuple(e)) for e, n in sides.items() if n == 1)
    assert outline == pytest.approx(field.length)


# --- triangles ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_triangles_touch_what_their_data_says(seed: int) -> None:
    page = page_of(seed)
    field = page.field
    assert field is not None
    spaces = page.spaces()
    tris = triangles(page)
    assert [t.id for t in tris] == [f"triangle-{n}" for n in range(1, 21)]
    for tri in tris:
        touching = [
            sid
            for sid, poly in spaces.items()
            if poly.boundary.intersection(tri.geometry).length > 1e-6
        ]
        assert touching, tri.id
        assert tri.data["touches"] == touching
        # Touching is never a matter of one point: any space that meets the triangle at all
        # shares a clear stretch of its base.
        for sid, poly in spaces.items():
            if poly.distance(tri.geometry) < 1e-9:
                assert poly.boundary.intersection(tri.geometry).length >= 1.5 - 1e-6, (tri.id, sid)
    # Nor does a space meet the outline at a lone point, save at the field's corners, which no
    # triangle covers.
    corners = [Point(p) for p in field.exterior.coords[:-1]]
    for sid, poly in spaces.items():
        shared = poly.boundary.intersection(field.boundary)
        if not shared.is_empty and shared.length < 1e-6:
            assert any(shared.distance(c) < 1e-9 for c in corners), sid
    listed = [{k: v for k, v in t.items() if k != "id"} for t in page.data["triangles"]]
    assert listed == [dict(t.data) for t in tris]
    assert [t["id"] for t in page.data["triangles"]] == [t.id for t in tris]


@pytest.mark.parametrize("seed", SEEDS)
def test_triangles_lie_outside_the_field_and_apart(seed: int) -> None:
    page = page_of(seed)
    field = page.field
    assert field is not None
    tris = triangles(page)
    for tri in tris:
        geom = tri.geometry
        assert tri.style.value != "none"
        assert len(geom.exterior.coords) == 4
        assert geom.intersection(field).area < 1e-9
        base = base_of(tri, field)
        assert base.length >= 9.0 - 1e-9
        tip = max(geom.exterior.coords[:-1], key=lambda p: field.distance(Point(p)))
        assert field.distance(Point(tip)) == pytest.approx(DEPTH)
    for i, a in enumerate(tris):
        for b in tris[i + 1 :]:
            assert a.geometry.intersection(b.geometry).area < 1e-9
            assert a.geometry.distance(b.geometry) >= 1.0 - 1e-9, (a.id, b.id)


@pytest.mark.parametrize("seed", SEEDS)
def test_triangles_per_edge_values_and_clockwise_order(seed: int) -> None:
    page = page_of(seed)
    field = page.field
    assert field is not None
    x0, y0, x1, y1 = field.bounds
    tris = triangles(page)
    by_edge: dict[str, list[Feature]] = {e: [] for e in EDGES}
    for tri in tris:
        by_edge[tri.data["edge"]].append(tri)
    assert [t.data["edge"] for t in tris] == [e for e in EDGES for _ in range(5)]
    assert page.data["triangles_per_edge"] == 5
    for edge, group in by_edge.items():
        assert len(group) == 5
        assert sorted(t.data["value"] for t in group) == [1, 2, 3, 4, 5]
        assert [t.data["index"] for t in group] == [1, 2, 3, 4, 5]
        centres = [t.geometry.centroid for t in group]
        if edge == "top":
            assert all(c.y < y0 for c in centres)
            keys = [c.x for c in centres]
        elif edge == "right":
            assert all(c.x > x1 for c in centres)
            keys = [c.y for c in centres]
        elif edge == "bottom":
            assert all(c.y > y1 for c in centres)
            keys = [-c.x for c in centres]
        else:
            assert all(c.x < x0 for c in centres)
            keys = [-c.y for c in centres]
        assert keys == sorted(keys), f"{edge} triangles run clockwise"


def value_texts(page: Page) -> Iterator[tuple[Feature, Text]]:
    for tri in triangles(page):
        text = page.get(f"label-{tri.id}")
        assert isinstance(text, Text)
        yield tri, text


@pytest.mark.parametrize("seed", range(10))
def test_each_triangle_shows_its_value_inside(seed: int) -> None:
    for tri, text in value_texts(page_of(seed)):
        assert text.text == str(tri.data["value"])
        assert text.bold and text.size >= 3.0
        w = text_width(text.text, text.size, bold=True)
        ink = box(text.x - w / 2, text.y - 0.73 * text.size, text.x + w / 2, text.y)
        assert tri.geometry.contains(ink), tri.id


def test_values_are_random_from_seed_to_seed() -> None:
    orders = {tuple(t.data["value"] for t in triangles(page_of(s))) for s in range(10)}
    assert len(orders) == 10


# --- score rows ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", ["2", "3"])
def test_score_rows_per_player(players: str) -> None:
    page = custom(4, players=players)
    n = int(players)
    field = page.field
    assert field is not None
    tris = unary_union([t.geometry for t in triangles(page)])
    boxes = list(page.features(Kind.BOX))
    for p in range(1, n + 1):
        for area in ("initials", "legend", "total"):
            assert isinstance(page.get(f"box-{area}-{p}"), Feature)
        tallies = [b for b in boxes if b.id.startswith(f"box-tally{p}-")]
        assert len(tallies) == 4
        for k, edge in enumerate(EDGES, start=1):
            caption = page.get(f"caption-edge{p}-{k}")
            assert isinstance(caption, Text) and caption.text == edge
    assert not any(f"box-initials-{n + 1}" == b.id for b in boxes)
    for b in boxes:
        assert not b.geometry.intersects(field)
        assert not b.geometry.intersects(tris)
    assert page.data["players"] == n
    subtitle = next(t for t in page.texts() if t.id == "subtitle")
    assert ("13 or more" in subtitle.text) == (n == 2)


# --- parameters ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_a_mini_field(seed: int) -> None:
    page = custom(seed, columns="5", rows="4", triangles="3", variety="3")
    spaces = page.spaces()
    assert len(spaces) == 20
    field = page.field
    assert field is not None
    overlap, uncovered = tiling_gaps(spaces.values(), field)
    assert overlap < 1e-6 * field.area and uncovered < 1e-6 * field.area
    assert page.data["merged"] == page.data["split"] == 3
    tris = triangles(page)
    assert Counter(t.data["edge"] for t in tris) == dict.fromkeys(EDGES, 3)
    for edge in EDGES:
        values = [t.data["value"] for t in tris if t.data["edge"] == edge]
        assert len(set(values)) == 3 and set(values) <= {1, 2, 3, 4, 5}
    for poly in spaces.values():
        assert poly.area >= MIN_AREA and min(angles(poly)) >= MIN_ANGLE - 1e-9


@pytest.mark.parametrize("seed", range(5))
def test_more_triangles_repeat_values_evenly(seed: int) -> None:
    page = custom(seed, triangles="7")
    for edge in EDGES:
        values = Counter(t.data["value"] for t in triangles(page) if t.data["edge"] == edge)
        assert sum(values.values()) == 7
        assert set(values) == {1, 2, 3, 4, 5}
        assert max(values.values()) == 2


@pytest.mark.parametrize("seed", range(5))
def test_without_variety_every_inner_corner_is_four_way(seed: int) -> None:
    page = custom(seed, variety="0")
    assert len(page.spaces()) == 108
    assert all(f.data["shape"] == "cell" for f in page.features(Kind.SPACE))
    assert page.data["four_corner_count"] == page.data["inner_vertices"] == 8 * 11


@pytest.mark.parametrize(
    "columns,rows,variety", [("18", "18", "54"), ("6", "6", "6"), ("17", "3", "8"), ("2", "2", "0")]
)
def test_other_counts_are_exact(columns: str, rows: str, variety: str) -> None:
    for seed in range(3):
        page = custom(seed, columns=columns, rows=rows, variety=variety, triangles="2")
        assert len(page.spaces()) == int(columns) * int(rows)
        assert page.data["merged"] == page.data["split"]


@pytest.mark.parametrize(
    "key,value",
    [
        ("columns", "1"),
        ("columns", "19"),
        ("rows", "0"),
        ("rows", "19"),
        ("triangles", "1"),
        ("triangles", "11"),
        ("variety", "-1"),
        ("players", "1"),
        ("players", "4"),
        ("target", "3"),
        ("target", "21"),
        ("variety", "55"),
    ],
)
def test_out_of_range_values_are_refused(key: str, value: str) -> None:
    with pytest.raises(SpecError, match=rf"^{key}="):
        SheetSpec.create("springer", {key: value}, seed=1)


def test_too_much_variety_for_the_grid_is_refused() -> None:
    with pytest.raises(SpecError, match=r"^variety=3 .*columns=4.*rows=3"):
        SheetSpec.create("springer", {"columns": "4", "rows": "3", "variety": "3"}, seed=1)
    assert SheetSpec.create("springer", {"columns": "4", "rows": "3", "variety": "2"}, seed=1)


def test_crowded_triangles_are_a_fit_error() -> None:
    with pytest.raises(FitError, match=r"triangles=10.*paper"):
        custom(1, columns="3", rows="2", triangles="10", variety="0")


def test_a_field_too_fine_for_the_paper_is_a_fit_error() -> None:
    with pytest.raises(FitError, match=r"columns=18.*paper"):
        custom(1, paper="a5", columns="18", rows="18")


def test_landscape_and_letter_keep_the_counts() -> None:
    for paper, orientation in (("a4", "landscape"), ("letter", "portrait"), ("letter", "auto")):
        page = custom(3, paper=paper, orientation=orientation)
        assert len(page.spaces()) == 108
        assert len(triangles(page)) == 20


# --- the construction ---------------------------------------------------------------------------


def test_merges_without_partner_cuts_are_undone() -> None:
    """On a 2 x 1 mesh the one merge leaves no cell to cut, so it must be undone."""
    mesh = build_mesh(Rng(5, "t"), 2, 1, 0.0, 0.0, 40.0, 20.0)
    before = [mesh.polygon(f.verts) for f in mesh.live()]
    assert len(_merge(mesh, Rng(5, "m"), 1)) == 1
    mesh = build_mesh(Rng(5, "t"), 2, 1, 0.0, 0.0, 40.0, 20.0)
    assert vary(mesh, Rng(5, "v"), 1) == (0, 0)
    after = [mesh.polygon(f.verts) for f in mesh.live()]
    assert len(after) == 2
    assert all(a.equals(b) for a, b in zip(before, after, strict=True))
    assert [f.cells for f in mesh.live()] == [[(1, 1)], [(1, 2)]]


def test_same_seed_same_field_other_seed_other_field() -> None:
    a, b = custom(21), custom(21)
    assert [f.geometry.wkb for f in a.features()] == [f.geometry.wkb for f in b.features()]
    c = custom(22)
    assert [f.geometry.wkb for f in a.features(Kind.SPACE)] != [
        f.geometry.wkb for f in c.features(Kind.SPACE)
    ]
