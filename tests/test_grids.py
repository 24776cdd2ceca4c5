"""The grid games (spaghetti, maze, cocomposite) and the shared grid builder.

Every sheet is checked for the properties the rules and the photo reader rely on: the squares
tile the grid, are numbered and named as documented, touch the expected neighbours, carry
coordinates a person can read, and the vertices are where their names say.
"""

from __future__ import annotations

import itertools
import math
from functools import cache

import pytest
from shapely import wkb
from shapely.geometry import box

from papergames.errors import FitError
from papergames.games import get_layout
from papergames.layouts.cocomposite import params as cocomposite_params
from papergames.layouts.cocomposite import sheet as cocomposite
from papergames.layouts.maze.sheet import LOOK as MAZE_LOOK
from papergames.layouts.spaghetti import sheet as spaghetti
from papergames.sheets.bounds import inside, item_box, overlaps, text_box
from papergames.sheets.compose import content_frame
from papergames.sheets.grid import (
    GridLook,
    cell_name,
    column_letters,
    plan_grid,
    vertex_edges,
    vertex_name,
)
from papergames.sheets.model import INKS, Feature, Kind, Page, Sheet, Style, Text
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.topology import tiling_gaps
from papergames.sheets.units import PAPERS

LOOKS: dict[str, GridLook] = {
    "spaghetti": spaghetti.LOOK,
    "maze": MAZE_LOOK,
    "cocomposite": cocomposite.LOOK,
}
SIZES: dict[str, list[int]] = {
    "spaghetti": [3, 5, 8, 13, 20],
    "maze": [3, 8, 11, 24],
    "cocomposite": [4, 9, 16, 18],
}
CASES = [(game, n) for game, sizes in SIZES.items() for n in sizes]
SEEDS = [1, 7, 42, 1000, 987654]


def build(game: str, n: int, seed: int = 1, **extra: str) -> Sheet:
    """A sheet of the game, built once per test session (tests only read it)."""
    return _build(game, n, seed, tuple(sorted(extra.items())))


@cache
def _build(game: str, n: int, seed: int, extra: tuple[tuple[str, str], ...]) -> Sheet:
    params = {"size": str(n)}
    options = dict(extra)
    paper = options.pop("paper", "a4")
    orientation = options.pop("orientation", "auto")
    params.update(options)
    return make_sheet(
        SheetSpec.create(game, params, seed=seed, paper=paper, orientation=orientation)
    )


def texts(page: Page) -> dict[str, Text]:
    return {t.id: t for t in page.texts()}


def grid_box(page: Page) -> tuple[float, float, float, float]:
    assert page.field is not None
    x0, y0, x1, y1 = page.field.bounds
    return x0, y0, x1, y1


# --- names -------------------------------------------------------------------------------------


def test_column_letters_skip_i_and_run_past_z_without_repeats() -> None:
    names = [column_letters(k) for k in range(1, 800)]
    assert names[:3] == ["a", "b", "c"]
    assert names[7:9] == ["h", "j"]
    assert names[24:27] == ["z", "aa", "ab"]
    assert len(set(names)) == len(names)
    assert all(name.isalpha() and name.islower() and "i" not in name for name in names)
    with pytest.raises(ValueError):
        column_letters(0)


def test_vertex_names_are_the_lower_left_corners_of_the_squares_with_the_same_name() -> None:
    for col, row in itertools.product(range(1, 30), repeat=2):
        assert vertex_name(col, row) == cell_name(col, row).upper()


@pytest.mark.parametrize("n", [3, 8, 24])
def test_vertex_edges_put_each_corner_on_two_sides(n: int) -> None:
    counts = dict.fromkeys(("bottom", "top", "left", "right"), 0)
    for col, row in itertools.product(range(1, n + 2), repeat=2):
        edges = vertex_edges(n, col, row)
        corner = col in (1, n + 1) and row in (1, n + 1)
        assert len(edges) == (2 if corner else 1 if (col in (1, n + 1) or row in (1, n + 1)) else 0)
        for side in edges:
            counts[side] += 1
    assert all(count == n + 1 for count in counts.values())


# --- the squares -------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "n"), CASES)
def test_squares_tile_the_field_in_the_documented_order(game: str, n: int) -> None:
    page = build(game, n).page
    spaces = list(page.features(Kind.SPACE))
    assert len(spaces) == n * n
    assert page.field is not None
    overlap, uncovered = tiling_gaps([s.geometry for s in spaces], page.field)
    assert overlap < 1e-6 * page.field.area
    assert uncovered < 1e-6 * page.field.area
    cell = page.data["cell"]
    x0, _, _, y1 = grid_box(page)
    for k, space in enumerate(spaces, start=1):
        row, col = divmod(k - 1, n)
        row, col = row + 1, col + 1
        assert space.id == f"space-{k}"
        assert space.style == Style.NONE
        assert dict(space.data) == {"col": col, "row": row, "name": cell_name(col, row)}
        expected = box(
            x0 + (col - 1) * cell, y1 - row * cell, x0 + col * cell, y1 - (row - 1) * cell
        )
        assert space.geometry.symmetric_difference(expected).area < 1e-6
        assert space.geometry.area == pytest.approx(cell * cell)


@pytest.mark.parametrize(("game", "n"), CASES)
def test_squares_are_at_least_the_minimum_and_fill_the_field_named_in_the_body(
    game: str, n: int
) -> None:
    page = build(game, n).page
    cell = page.data["cell"]
    assert cell >= LOOKS[game].min_cell - 1e-9
    assert cell <= LOOKS[game].max_cell + 1e-9
    x0, y0, x1, y1 = grid_box(page)
    assert x1 - x0 == pytest.approx(n * cell)
    assert y1 - y0 == pytest.approx(n * cell)


@pytest.mark.parametrize(("game", "n"), CASES)
def test_every_square_touches_the_expected_neighbours(game: str, n: int) -> None:
    page = build(game, n).page
    topo = page.topology
    names = {f.id: f.data["name"] for f in page.features(Kind.SPACE)}
    by_name = {name: ident for ident, name in names.items()}
    for ident, name in names.items():
        space = page.get(ident)
        assert isinstance(space, Feature)
        col, row = space.data["col"], space.data["row"]
        on_x, on_y = col in (1, n), row in (1, n)
        if on_x and on_y:
            expect = (2, 1)
        elif on_x or on_y:
            expect = (3, 2)
        else:
            expect = (4, 4)
        assert (len(topo.neighbours[ident]), len(topo.corner_neighbours[ident])) == expect, name
        side = {
            by_name[cell_name(c, r)]
            for c, r in ((col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1))
            if 1 <= c <= n and 1 <= r <= n
        }
        assert topo.neighbours[ident] == side


# --- ids, stability, lines ----------------------------------------------------------------------


@pytest.mark.parametrize(("game", "n"), CASES)
def test_ids_are_unique_and_identical_across_builds_and_seeds(game: str, n: int) -> None:
    pages = [build(game, n, seed).page for seed in SEEDS[:3]] + [build(game, n, SEEDS[0]).page]
    first = pages[0]
    ids = first.ids()
    assert len(ids) == len(set(ids))
    for other in pages[1:]:
        assert other.ids() == ids
        for fa, fb in zip(first.features(), other.features(), strict=True):
            if fa.kind != Kind.MARK:
                assert wkb.dumps(fa.geometry) == wkb.dumps(fb.geometry), fa.id


@pytest.mark.parametrize(("game", "n"), CASES)
def test_grid_lines_follow_the_documented_ids_and_styles(game: str, n: int) -> None:
    page = build(game, n).page
    look = LOOKS[game]
    lines = list(page.features(Kind.LINE))
    assert [f.id for f in lines] == [f"line-{k}" for k in range(1, 2 * n)]
    cell = page.data["cell"]
    x0, y0, x1, y1 = grid_box(page)
    perimeter = lines[0]
    assert perimeter.style == look.perimeter
    assert perimeter.geometry.is_ring
    assert box(x0, y0, x1, y1).exterior.equals(perimeter.geometry)
    for k, line in enumerate(lines[1:n], start=2):
        assert line.style == look.lines
        assert line.data == {"axis": "vertical", "index": column_letters(k).upper()}
        assert [x for x, _ in line.geometry.coords] == pytest.approx([x0 + (k - 1) * cell] * 2)
    for k, line in enumerate(lines[n:], start=2):
        assert line.style == look.lines
        assert line.data == {"axis": "horizontal", "index": k}
        assert [y for _, y in line.geometry.coords] == pytest.approx([y1 - (k - 1) * cell] * 2)
    assert INKS[look.lines].stroke <= INKS[look.perimeter].stroke


def test_maze_has_a_bold_perimeter_and_light_grid() -> None:
    page = build("maze", 8).page
    assert page.get("line-1").style == Style.HEAVY  # type: ignore[union-attr]
    assert all(
        INKS[f.style].stroke < INKS[Style.MEDIUM].stroke
        for f in page.features(Kind.LINE)
        if f.id != "line-1"
    )


# --- coordinates -------------------------------------------------------------------------------


def _near(text: Text, x: float, y: float, reach: float) -> bool:
    bx0, by0, bx1, by1 = text_box(text)
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
    return math.hypot(cx - x, cy - y) <= reach


@pytest.mark.parametrize(("game", "n"), CASES)
def test_square_coordinates_are_printed_beside_every_column_and_row(game: str, n: int) -> None:
    page = build(game, n).page
    look = LOOKS[game]
    found = texts(page)
    cell = page.data["cell"]
    x0, y0, x1, y1 = grid_box(page)
    for side in look.cell_sides:
        for k in range(1, n + 1):
            text = found[f"coord-{side}-{k}"]
            bx0, by0, bx1, by1 = text_box(text)
            if side in ("bottom", "top"):
                assert text.text == column_letters(k)
                assert (bx0 + bx1) / 2 == pytest.approx(x0 + (k - 0.5) * cell, abs=0.05)
                assert by0 >= y1 if side == "bottom" else by1 <= y0
            else:
                assert text.text == str(k)
                assert y1 - k * cell < (by0 + by1) / 2 < y1 - (k - 1) * cell
                assert bx0 >= x1 if side == "right" else bx1 <= x0
    printed = {t.id for t in page.texts() if t.id.startswith("coord-")}
    assert len(printed) == n * len(look.cell_sides)


def test_each_game_prints_the_coordinates_it_documents() -> None:
    assert set(spaghetti.LOOK.cell_sides) == {"bottom", "left"}
    assert spaghetti.LOOK.vertex_labels == "edges"
    assert MAZE_LOOK.vertex_labels == "lines"
    assert set(cocomposite.LOOK.cell_sides) == {"bottom", "top", "left", "right"}


@pytest.mark.parametrize("n", SIZES["maze"])
def test_maze_prints_every_vertex_line_at_both_ends(n: int) -> None:
    page = build("maze", n).page
    found = texts(page)
    cell = page.data["cell"]
    x0, y0, x1, y1 = grid_box(page)
    for k in range(1, n + 2):
        for side in ("bottom", "top"):
            text = found[f"vline-{side}-{k}"]
            assert text.text == column_letters(k).upper()
            bx0, by0, bx1, by1 = text_box(text)
            assert (bx0 + bx1) / 2 == pytest.approx(x0 + (k - 1) * cell, abs=0.05)
            assert by0 >= y1 if side == "bottom" else by1 <= y0
        for side in ("left", "right"):
            text = found[f"vline-{side}-{k}"]
            assert text.text == str(k)
            bx0, by0, bx1, by1 = text_box(text)
            assert abs((by0 + by1) / 2 - (y1 - (k - 1) * cell)) < 0.25 * text.size
            assert bx1 <= x0 if side == "left" else bx0 >= x1


@pytest.mark.parametrize("n", SIZES["spaghetti"])
def test_spaghetti_names_every_edge_vertex_beside_its_dot(n: int) -> None:
    page = build("spaghetti", n).page
    points = list(page.features(Kind.POINT))
    assert len(points) == 4 * n
    found = texts(page)
    names = [p.label for p in points]
    assert len(set(names)) == len(names)
    edges = page.data["edge_vertices"]
    assert all(len(edges[side]) == n + 1 for side in ("bottom", "top", "left", "right"))
    corners = {vertex_name(1, 1), vertex_name(n + 1, 1), vertex_name(1, n + 1)}
    corners.add(vertex_name(n + 1, n + 1))
    cell = page.data["cell"]
    x0, _, _, y1 = grid_box(page)
    for point in points:
        col, row = point.data["col"], point.data["row"]
        assert point.id == f"point-{point.label}"
        assert point.label == vertex_name(col, row)
        assert point.style != Style.NONE
        assert point.geometry.x == pytest.approx(x0 + (col - 1) * cell)
        assert point.geometry.y == pytest.approx(y1 - (row - 1) * cell)
        assert set(point.data["edges"]) == set(vertex_edges(n, col, row))
        assert len(point.data["edges"]) == (2 if point.label in corners else 1)
        for side in point.data["edges"]:
            assert point.label in edges[side]
        label = found[f"vname-{point.label}"]
        assert label.text == point.label
        assert _near(label, point.geometry.x, point.geometry.y, 1.5 + label.size * 2)


@pytest.mark.parametrize("n", SIZES["maze"])
def test_maze_vertices_are_all_there_at_the_corners_their_names_say(n: int) -> None:
    page = build("maze", n).page
    points = list(page.features(Kind.POINT))
    assert len(points) == (n + 1) ** 2
    order = [(p.data["row"], p.data["col"]) for p in points]
    assert order == sorted(order)
    spaces = {f.data["name"]: f.geometry for f in page.features(Kind.SPACE)}
    for point in points:
        assert point.style == Style.NONE
        name = point.label
        assert name is not None
        square = spaces.get(name.lower())
        if square is not None:
            minx, _, _, maxy = square.bounds
            assert (point.geometry.x, point.geometry.y) == pytest.approx((minx, maxy))


def test_cocomposite_has_no_vertex_points() -> None:
    assert not list(build("cocomposite", 16).page.features(Kind.POINT))


@pytest.mark.parametrize(("game", "n"), CASES)
def test_labels_stay_clear_of_each_other_and_of_the_grid(game: str, n: int) -> None:
    page = build(game, n).page
    x0, y0, x1, y1 = grid_box(page)
    reach = INKS[LOOKS[game].perimeter].stroke / 2
    grid = (x0 - reach, y0 - reach, x1 + reach, y1 + reach)
    labels = [text_box(t) for t in page.texts() if t.id.startswith(("coord-", "vline-", "vname-"))]
    assert labels
    for label in labels:
        assert not overlaps(label, grid)
    for a, b in itertools.combinations(labels, 2):
        assert not overlaps(a, b)


# --- score rows, players -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players"),
    [("spaghetti", 2), ("maze", 2), ("maze", 6), ("cocomposite", 3), ("cocomposite", 6)],
)
def test_one_score_row_per_player_away_from_the_grid(game: str, players: int) -> None:
    extra: dict[str, str] = {} if game == "spaghetti" else {"players": str(players)}
    page = build(game, 8, 1, **extra).page
    boxes = list(page.features(Kind.BOX))
    for p in range(1, players + 1):
        for area in ("initials", "legend", "total"):
            assert isinstance(page.get(f"box-{area}-{p}"), Feature)
    assert {f.data["player"] for f in boxes} == set(range(1, players + 1))
    grid = grid_box(page)
    for f in boxes:
        ink = item_box(f)
        assert ink is not None and not overlaps(ink, grid)
    for a, b in itertools.combinations([item_box(f) for f in boxes], 2):
        assert a is not None and b is not None and not overlaps(a, b)


# --- paper -------------------------------------------------------------------------------------


def _ink_inside(page: Page) -> None:
    frame = content_frame(page.width, page.height)
    furniture = ("marker-", "qr-", "scale-", "title", "subtitle", "spec-", "credit", "note-colour")
    for item in page.items:
        if item.id.startswith(furniture):
            continue
        ink = item_box(item)
        if ink is not None:
            assert inside(ink, frame.box, slack=0.01), item.id


@pytest.mark.parametrize(("game", "n"), CASES)
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_everything_fits_a4_and_letter_in_both_orientations(
    game: str, n: int, paper: str, orientation: str
) -> None:
    extra: dict[str, str] = {} if game == "spaghetti" else {"players": "6"}
    try:
        sheet = build(game, n, 1, paper=paper, orientation=orientation, **extra)
    except FitError as exc:
        assert f"size={n}" in str(exc)
        width, height = PAPERS[paper].size(orientation == "landscape")
        frame = content_frame(width, height)
        assert min(frame.w, frame.h) / n < LOOKS[game].min_cell + 10, "refused a roomy grid"
        return
    _ink_inside(sheet.page)


@pytest.mark.parametrize(("game", "n"), [(g, SIZES[g][-1]) for g in SIZES] + [("maze", 8)])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_largest_tested_sizes_fit_a4_and_letter(game: str, n: int, paper: str) -> None:
    sheet = build(game, n, paper=paper)
    assert sheet.page.data["cell"] >= LOOKS[game].min_cell
    _ink_inside(sheet.page)


def _largest_cell(game: str, n: int, paper: str) -> float:
    """An upper bound on the square size: the grid alone filling the frame's short side."""
    best = 0.0
    for landscape in (False, True):
        frame = content_frame(*PAPERS[paper].size(landscape))
        best = max(best, min(frame.w, frame.h) / n)
    return min(best, LOOKS[game].max_cell)


@pytest.mark.parametrize("game", list(SIZES))
@pytest.mark.parametrize("paper", ["a5", "a4", "letter"])
def test_sizes_too_large_for_the_paper_are_refused_naming_size(game: str, paper: str) -> None:
    param = get_layout(game).params["size"]
    assert param.low is not None and param.high is not None
    refused = False
    for n in range(int(param.low), int(param.high) + 1):
        too_small = _largest_cell(game, n, paper) < LOOKS[game].min_cell
        try:
            sheet = build(game, n, paper=paper)
        except FitError as exc:
            assert f"size={n}" in str(exc)
            assert f"{LOOKS[game].min_cell:g} mm" in str(exc)
            refused = True
            continue
        assert not too_small, f"size={n} built with squares under the minimum"
        assert not refused, f"size={n} fits although a smaller size was refused"
        assert sheet.page.data["cell"] >= LOOKS[game].min_cell - 1e-9


@pytest.mark.parametrize("game", list(SIZES))
def test_the_first_refused_size_on_a5_is_refused_for_a_reason(game: str) -> None:
    """Refusal is tight: the largest accepted size's squares, shrunk to one more column, are
    under the minimum (give or take the smaller labels the smaller squares allow)."""
    param = get_layout(game).params["size"]
    assert param.high is not None
    accepted: tuple[int, float] | None = None
    for n in range(int(param.high), 2, -1):
        try:
            accepted = (n, build(game, n, paper="a5").page.data["cell"])
            break
        except FitError:
            continue
    assert accepted is not None
    n, cell = accepted
    if n < param.high:
        assert cell * n / (n + 1) < LOOKS[game].min_cell * 1.1


@pytest.mark.parametrize(
    ("game", "n", "paper"),
    [("maze", 24, "a5"), ("cocomposite", 24, "a4"), ("cocomposite", 20, "a4")],
)
def test_known_refusals(game: str, n: int, paper: str) -> None:
    with pytest.raises(FitError, match=f"size={n}"):
        build(game, n, paper=paper)


def test_spaghetti_refuses_squares_under_5_mm() -> None:
    frame = content_frame(*PAPERS["a5"].size(False)).inset(8.0)
    largest = _largest_cell("spaghetti", 20, "a5")
    assert largest >= spaghetti.MIN_CELL
    with pytest.raises(FitError, match=r"size=20 .* at least 5 mm"):
        plan_grid(frame, 20, spaghetti.LOOK, 2, 40.0)
    plan = plan_grid(frame, 12, spaghetti.LOOK, 2, 40.0)
    assert plan.cell >= spaghetti.MIN_CELL


def test_cocomposite_default_fits_a4_with_squares_for_two_numbers() -> None:
    for paper in ("a4", "letter"):
        page = build("cocomposite", 16, paper=paper).page
        assert page.data["cell"] >= cocomposite_params.MIN_CELL


def test_plan_refuses_a_frame_without_room() -> None:
    frame = content_frame(*PAPERS["a5"].size(False))
    with pytest.raises(FitError, match="size=24"):
        plan_grid(frame, 24, cocomposite.LOOK, 2, 40.0)


# --- layout metadata ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "default", "low", "high"),
    [("spaghetti", 8, 3, 20), ("maze", 8, 3, 24), ("cocomposite", 16, 4, 24)],
)
def test_parameters_have_the_documented_defaults_and_ranges(
    game: str, default: int, low: int, high: int
) -> None:
    layout = get_layout(game)
    size = layout.params["size"]
    assert (size.default, size.low, size.high) == (default, low, high)
    if game != "spaghetti":
        players = layout.params["players"]
        assert (players.default, players.low, players.high) == (2, 2, 6)
        assert layout.game.players_text == "2-6"
    else:
        assert "players" not in layout.params
        assert layout.game.players_text == "2"
    assert layout.how_to_play.strip() and layout.game.sheet_contents


def test_spaghetti_rules_state_the_decided_points() -> None:
    rules = spaghetti.LAYOUT.how_to_play.lower()
    assert "corner belongs to both" in rules
    assert "different sides" in rules
