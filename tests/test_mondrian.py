"""Mondrian: exact counts, a rectilinear non-guillotine tiling, and the book's example game.

Everything here is read back from the page's geometry (polygons and lines in mm) and compared
with what the layout claims in its data, so a broken generator cannot pass by agreeing with
itself.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, pairwise

import pytest
from shapely import STRtree
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from papergames.errors import SpecError
from papergames.layouts.mondrian.field import COLOURS
from papergames.layouts.mondrian.partition import Partition, full_cuts, pinwheel_block, pinwheels
from papergames.sheets.model import Feature, Kind, Layer, Page, Sheet, Style
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.topology import tiling_gaps

from conftest import sheet_for

SEEDS = list(range(1, 51))
EPS = 1e-6
MIN_MM = 8.0


@cache
def sheet(seed: int = 1, paper: str = "a4", **settings: str) -> Sheet:
    return make_sheet(SheetSpec.create("mondrian", settings, seed=seed, paper=paper))


def book(seed: int) -> Page:
    return sheet_for("mondrian", seed).page


def spaces(page: Page) -> dict[str, Feature]:
    return {f.id: f for f in page.features(Kind.SPACE)}


def is_rectangle(poly: Polygon) -> bool:
    return abs(poly.area - poly.envelope.area) < EPS * max(poly.area, 1.0)


def union_is_rectangle(polys: list[Polygon]) -> bool:
    """Disjoint polygons make exactly a rectangle when their areas fill their joint bounds."""
    x0 = min(p.bounds[0] for p in polys)
    y0 = min(p.bounds[1] for p in polys)
    x1 = max(p.bounds[2] for p in polys)
    y1 = max(p.bounds[3] for p in polys)
    return abs(sum(p.area for p in polys) - (x1 - x0) * (y1 - y0)) < 1e-6 * (x1 - x0) * (y1 - y0)


def corners(poly: Polygon) -> list[tuple[float, float]]:
    """The polygon's vertices with collinear ones dropped."""
    pts = list(poly.exterior.coords)[:-1]
    out = []
    for k, p in enumerate(pts):
        a, c = pts[k - 1], pts[(k + 1) % len(pts)]
        cross = (p[0] - a[0]) * (c[1] - p[1]) - (p[1] - a[1]) * (c[0] - p[0])
        if abs(cross) > EPS:
            out.append(p)
    return out


# --- the book's field, every seed -------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_book_field_counts_tiling_and_shapes(seed: int) -> None:
    page = book(seed)
    found = spaces(page)
    assert len(found) == 99
    assert list(found) == [f"space-{n}" for n in range(1, 100)]
    assert page.field is not None
    overlap, uncovered = tiling_gaps([f.geometry for f in found.values()], page.field)
    assert overlap < 1e-6 * page.field.area and uncovered < 1e-6 * page.field.area
    cw, ch = page.data["cell"]
    ox, oy = page.data["origin"]
    shapes = {"rectangle": 0, "L": 0}
    for f in found.values():
        poly = f.geometry
        assert f.style == Style.NONE and poly.is_valid
        # Rectilinear: every edge is horizontal or vertical.
        pts = list(poly.exterior.coords)
        for a, b in pairwise(pts):
            assert abs(a[0] - b[0]) < EPS or abs(a[1] - b[1]) < EPS, f.id
        # The shape claimed is the shape drawn: 4 corners for a rectangle, 6 for an L.
        n = len(corners(poly))
        assert (n, f.data["shape"]) in ((4, "rectangle"), (6, "L")), f.id
        shapes[f.data["shape"]] += 1
        # The lattice rectangles in the data rebuild the polygon, and each is wide enough.
        parts = [
            box(ox + x0 * cw, oy + y0 * ch, ox + x1 * cw, oy + y1 * ch)
            for x0, y0, x1, y1 in f.data["rects"]
        ]
        assert unary_union(parts).symmetric_difference(poly).area < 1e-6, f.id
        for part in parts:
            x0, y0, x1, y1 = part.bounds
            w, h = x1 - x0, y1 - y0
            assert min(w, h) >= MIN_MM - EPS, f.id
            assert max(w, h) <= 4.5 * min(w, h), f"{f.id} is a sliver"
        # No part of an L is a thin arm: a disc of half the least width fits everywhere.
        assert not poly.buffer(-(MIN_MM / 2 - 0.01)).is_empty
    assert shapes["L"] >= 7, "some spaces must be L-shaped"
    assert shapes["rectangle"] > 3 * shapes["L"], "mostly rectangles"
    assert page.data["shapes"] == shapes


def crossing(line: LineString, tree: STRtree, polys: list[Polygon]) -> bool:
    """Whether the line runs through the inside of some space."""
    return any(
        line.intersection(polys[k]).length > 1e-6 and line.crosses(polys[k])
        for k in tree.query(line)
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_no_straight_line_crosses_the_whole_field(seed: int) -> None:
    page = book(seed)
    polys = [f.geometry for f in spaces(page).values()]
    tree = STRtree(polys)
    assert page.field is not None
    fx0, fy0, fx1, fy1 = page.field.bounds
    xs = sorted({round(x, 6) for p in polys for x, _ in p.exterior.coords} - {fx0, fx1})
    ys = sorted({round(y, 6) for p in polys for _, y in p.exterior.coords} - {fy0, fy1})
    assert len(xs) > 10 and len(ys) > 10
    for x in xs:
        if fx0 + EPS < x < fx1 - EPS:
            assert crossing(LineString([(x, fy0), (x, fy1)]), tree, polys), f"cut at x={x}"
    for y in ys:
        if fy0 + EPS < y < fy1 - EPS:
            assert crossing(LineString([(fx0, y), (fx1, y)]), tree, polys), f"cut at y={y}"


def pinwheel_hubs(page: Page) -> list[str]:
    """Rectangles with one rectangle along each whole side, the four turning the same way."""
    found = spaces(page)
    ids = list(found)
    polys = [found[i].geometry for i in ids]
    tree = STRtree(polys)
    d = 0.01

    def at(x: float, y: float) -> Polygon | None:
        hits = [polys[k] for k in tree.query(Point(x, y)) if polys[k].contains(Point(x, y))]
        return hits[0] if len(hits) == 1 else None

    hubs = []
    for fid, poly in zip(ids, polys, strict=True):
        if not is_rectangle(poly):
            continue
        x0, y0, x1, y1 = poly.bounds
        arms = [
            (at(x0 + d, y0 - d), at(x1 - d, y0 - d)),
            (at(x1 + d, y0 + d), at(x1 + d, y1 - d)),
            (at(x0 + d, y1 + d), at(x1 - d, y1 + d)),
            (at(x0 - d, y0 + d), at(x0 - d, y1 - d)),
        ]
        if any(a is None or a is not b or not is_rectangle(a) for a, b in arms):
            continue
        top, right, bottom, left = (a.bounds for a, _ in arms if a is not None)

        def same(u: float, v: float) -> bool:
            return abs(u - v) < EPS

        turning = (
            top[0] < x0 - EPS
            and same(top[2], x1)
            and right[1] < y0 - EPS
            and same(right[3], y1)
            and bottom[2] > x1 + EPS
            and same(bottom[0], x0)
            and left[3] > y1 + EPS
            and same(left[1], y0)
        )
        mirrored = (
            top[2] > x1 + EPS
            and same(top[0], x0)
            and left[1] < y0 - EPS
            and same(left[3], y1)
            and bottom[0] < x0 - EPS
            and same(bottom[2], x1)
            and right[3] > y1 + EPS
            and same(right[1], y0)
        )
        if turning or mirrored:
            hubs.append(fid)
    return hubs


@pytest.mark.parametrize("seed", SEEDS)
def test_pinwheels_and_rectangle_unions(seed: int) -> None:
    page = book(seed)
    hubs = pinwheel_hubs(page)
    assert len(hubs) >= 3
    assert hubs == page.data["pinwheels"]
    found = spaces(page)
    topo = page.topology
    pairs = {
        frozenset((a, b))
        for a in found
        for b in topo.neighbours[a]
        if union_is_rectangle([found[a].geometry, found[b].geometry])
    }
    triples = set()
    for a in found:
        for b in topo.neighbours[a]:
            for c in topo.neighbours[a] | topo.neighbours[b]:
                if len({a, b, c}) == 3:
                    trio = [found[a].geometry, found[b].geometry, found[c].geometry]
                    if union_is_rectangle(trio):
                        triples.add(frozenset((a, b, c)))
    assert len(pairs) >= 40, len(pairs)
    assert len(triples) >= 25, len(triples)


@pytest.mark.parametrize("seed", SEEDS[:10])
def test_heavy_lines_draw_every_border_and_nothing_else(seed: int) -> None:
    page = book(seed)
    lines = list(page.features(Kind.LINE))
    assert lines and all(f.style == Style.HEAVY and f.id.startswith("line-") for f in lines)
    ink = unary_union([f.geometry for f in lines]).buffer(0.01)
    for f in spaces(page).values():
        assert f.geometry.boundary.difference(ink).length < 1e-6, f"{f.id} has an undrawn side"
        inside = f.geometry.buffer(-0.5)
        assert all(line.geometry.intersection(inside).length < 1e-9 for line in lines), f.id


@pytest.mark.parametrize("seed", SEEDS[:10])
def test_score_areas_two_at_each_end(seed: int) -> None:
    page = book(seed)
    assert page.field is not None
    _, fy0, _, fy1 = page.field.bounds
    for p in range(1, 5):
        tally = [f for f in page.features(Kind.BOX) if f.id.startswith(f"box-tally{p}-")]
        assert len(tally) == 80
        initials = page.get(f"box-initials-{p}")
        assert isinstance(initials, Feature)
        total = page.get(f"box-total-{p}")
        assert isinstance(total, Feature)
        cells = [initials, total, *tally]
        if p <= 2:
            assert all(c.geometry.bounds[3] < fy0 for c in cells)
        else:
            assert all(c.geometry.bounds[1] > fy1 for c in cells)
        assert all(c.geometry.bounds[3] - c.geometry.bounds[1] >= 4.5 - EPS for c in tally)


# --- parameters -------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [30, 60, 160])
def test_other_counts_are_exact(count: int) -> None:
    for seed in (1, 2, 3):
        page = sheet(seed, spaces=str(count)).page
        found = spaces(page)
        assert len(found) == count
        assert page.field is not None
        overlap, uncovered = tiling_gaps([f.geometry for f in found.values()], page.field)
        assert overlap < 1e-6 * page.field.area and uncovered < 1e-6 * page.field.area
        assert page.data["shapes"]["L"] >= 2
        assert pinwheel_hubs(page)


def test_points_and_tints() -> None:
    page = sheet(1, points="120", tints="on").page
    for p in range(1, 5):
        tally = [f for f in page.features(Kind.BOX) if f.id.startswith(f"box-tally{p}-")]
        assert len(tally) == 120
    tints = [f for f in page.features() if f.id.startswith("tint-")]
    assert tints and all(f.layer == Layer.TINT and f.style == Style.TINT for f in tints)
    found = spaces(page)
    for t in tints:
        assert t.geometry.equals(found["space-" + t.id.removeprefix("tint-")].geometry)
    assert not [f for f in book(1).features() if f.id.startswith("tint-")]
    # Tints are for show only: the field is the same with or without them.
    plain = spaces(sheet(1, points="120").page)
    assert all(plain[k].geometry.equals(found[k].geometry) for k in found)


@pytest.mark.parametrize(
    ("key", "value"),
    [("spaces", "29"), ("spaces", "161"), ("points", "9"), ("points", "161"), ("field", "x")],
)
def test_out_of_range_values_are_refused(key: str, value: str) -> None:
    with pytest.raises(SpecError, match=key):
        SheetSpec.create("mondrian", {key: value})


def test_spaces_do_not_apply_to_the_mini_field() -> None:
    with pytest.raises(SpecError, match="spaces"):
        make_sheet(SheetSpec.create("mondrian", {"field": "mini", "spaces": "50"}))


def test_lattice_helpers() -> None:
    # A planted pinwheel is found as one by the lattice check the generator uses.
    from papergames.sheets.rng import Rng

    for k in range(20):
        pieces = pinwheel_block(1, 1, 7, 6, Rng(k, "pin"))
        frame = [(0, 0, 9, 1), (0, 7, 9, 8), (0, 1, 1, 7), (8, 1, 9, 7)]
        part = Partition(9, 8, [[r] for r in pieces + frame])
        assert pinwheels(part) == [4]
        # The block alone has no straight line across it: a pinwheel is never guillotine.
        alone = [[(x0 - 1, y0 - 1, x1 - 1, y1 - 1)] for x0, y0, x1, y1 in pieces]
        assert full_cuts(7, 6, Partition(7, 6, alone).owners()) == []
    halves = Partition(4, 2, [[(0, 0, 2, 2)], [(2, 0, 4, 2)]])
    assert full_cuts(4, 2, halves.owners()) == [("x", 2)]


# --- the book's mini-field and example game ---------------------------------------------------


def score(found: dict[str, Polygon], filled: list[str], new: str) -> int:
    """The decided rule: the largest set of two or more filled spaces, including the new one,
    whose union is exactly a rectangle (0 if there is none)."""
    best = 0
    others = [s for s in filled if s != new]
    for k in range(1, len(others) + 1):
        for group in combinations(others, k):
            if k + 1 > best and union_is_rectangle([found[new]] + [found[g] for g in group]):
                best = k + 1
    return best


def test_mini_field_plays_the_books_example() -> None:
    page = sheet(1, field="mini").page
    found = {k: f.geometry for k, f in spaces(page).items()}
    letters = {f.label: f.id for f in spaces(page).values()}
    assert sorted(letters) == list("ABCDEFGHIJKLM")
    assert page.field is not None
    overlap, uncovered = tiling_gaps(list(found.values()), page.field)
    assert overlap < 1e-6 * page.field.area and uncovered < 1e-6 * page.field.area
    assert sum(not is_rectangle(p) for p in found.values()) >= 1
    walk = page.data["walkthrough"]
    assert [(letter, colour, points) for letter, colour, points in walk] == [
        (letters[s], c, p)
        for s, c, p in zip("ABCDEFGH", COLOURS * 2, (0, 0, 2, 2, 2, 5, 5, 4), strict=True)
    ]
    topo = page.topology
    owner: dict[str, str] = {}
    scores = []
    for space, colour, expected in walk:
        if owner:
            assert topo.neighbours[space] & set(owner), f"{space} is next to no coloured space"
        assert all(owner.get(n) != colour for n in topo.neighbours[space]), space
        owner[space] = colour
        got = score(found, list(owner), space)
        assert got == expected, (space, got, expected)
        scores.append(got)
    assert scores[2:] == [2, 2, 2, 5, 5, 4]
    # Red wanted F but F is next to A, which is red.
    assert letters["A"] in topo.neighbours[letters["F"]]
    # F completes A, D, F as well as A, B, C, D, F; the five count.
    abc = [found[letters[x]] for x in "ADF"]
    assert union_is_rectangle(abc)


def test_mini_field_needs_its_l_shapes() -> None:
    """With A a rectangle under B, B would already have scored: the L-shape matters."""
    page = sheet(1, field="mini").page
    found = {f.label: f.geometry for f in spaces(page).values()}
    assert not is_rectangle(found["A"])
    filled = {"A": found["A"], "B": found["B"]}
    assert score(filled, ["A", "B"], "B") == 0
    a_rect = found["A"].envelope.difference(found["F"]).difference(found["D"])
    assert score({"A": a_rect.envelope, "B": found["B"]}, ["A", "B"], "B") == 2
