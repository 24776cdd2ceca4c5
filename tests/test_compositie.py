"""Fred Horn's COM:POSITIE board, its pieces page and the sheets of its three games.

The board must be a true 6 by 6 chess-style grid a cut-out piece fits on, the pieces must come
out 9 per colour and tell their colour without colour ink, and each game's additions (the seeded
start position of Pick Tw=O=ne, the home rows of Cannon-Ball) must say what the page data says.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import pytest
from shapely import affinity
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from papergames.errors import FitError
from papergames.games import get_layout
from papergames.layouts.compositie.board import (
    BOARD,
    LETTERS,
    MAX_CELL,
    SYMBOL_STYLES,
    symbol_shape,
)
from papergames.layouts.compositie.cannon_ball import CANNON_BALL
from papergames.layouts.compositie.params import MIN_CELL
from papergames.layouts.compositie.pick_two_one import PICK_TWO_ONE
from papergames.layouts.compositie.plan_a_head import PLAN_A_HEAD
from papergames.sheets.bounds import inside, item_box, overlaps, text_box
from papergames.sheets.compose import content_frame
from papergames.sheets.grid import cell_name
from papergames.sheets.model import INKS, Feature, Kind, Layer, Page, Sheet, Style, Text
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.topology import tiling_gaps

GAMES = ("compositie", "plan-a-head", "pick-two-one", "cannon-ball")
PAPERS = ("a4", "letter")
COLOURS = ("red", "blue", "green", "yellow")
NAMES = [cell_name(col, row) for row in range(1, 7) for col in range(1, 7)]
FURNITURE_TEXTS = ("title", "subtitle", "spec-", "credit", "scale-label")


@cache
def sheet(
    game: str, seed: int = 1, paper: str = "a4", settings: tuple[tuple[str, str], ...] = ()
) -> Sheet:
    """A sheet built once per test session (tests only read it)."""
    return make_sheet(SheetSpec.create(game, dict(settings), seed=seed, paper=paper))


def squares(page: Page) -> dict[str, Feature]:
    """The board's squares by name (a1, b1, ...)."""
    return {f.data["name"]: f for f in page.features(Kind.SPACE)}


def feature(page: Page, ident: str) -> Feature:
    item = page.get(ident)
    assert isinstance(item, Feature)
    return item


def normalised(geom: BaseGeometry) -> BaseGeometry:
    """The shape moved to the origin and scaled to unit width: what a symbol looks like."""
    minx, miny, maxx, _ = geom.bounds
    moved = affinity.translate(geom, -minx, -miny)
    return affinity.scale(moved, 1 / (maxx - minx), 1 / (maxx - minx), origin=(0, 0))


def same_shape(a: BaseGeometry, b: BaseGeometry) -> bool:
    """Equal up to position and scale (a circle drawn with more chords still counts)."""
    na, nb = normalised(a), normalised(b)
    return bool(na.symmetric_difference(nb).area < 0.01 * max(na.area, nb.area))


def reference_symbol(colour: str) -> Polygon:
    return symbol_shape(colour, 0.0, 0.0, 10.0)


# --- the board ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", PAPERS)
def test_squares_tile_the_board_and_are_named_chess_style(game: str, paper: str) -> None:
    page = sheet(game, 3, paper).pages[0]
    cells = squares(page)
    assert len(cells) == 36 and sorted(cells) == sorted(NAMES)
    assert page.field is not None
    overlap, uncovered = tiling_gaps([f.geometry for f in cells.values()], page.field)
    assert overlap < 1e-6 and uncovered < 1e-6
    for name, f in cells.items():
        col, row = f.data["col"], f.data["row"]
        assert name == "abcdef"[col - 1] + str(row)
        assert f.id == f"space-{(row - 1) * 6 + col}"
    # a-f from left to right, 1-6 from the bottom up (y grows down the page).
    assert cells["b1"].geometry.centroid.x > cells["a1"].geometry.centroid.x
    assert cells["a2"].geometry.centroid.y < cells["a1"].geometry.centroid.y
    minx, _, _, maxy = page.field.bounds
    assert cells["a1"].geometry.bounds[0] == pytest.approx(minx)
    assert cells["a1"].geometry.bounds[3] == pytest.approx(maxy)


def test_neighbours_come_from_the_topology() -> None:
    page = sheet("compositie").pages[0]
    ids = {f.id: f.data["name"] for f in page.features(Kind.SPACE)}
    topo = page.topology
    named = {ids[k]: {ids[n] for n in v} for k, v in topo.neighbours.items()}
    corners = {ids[k]: {ids[n] for n in v} for k, v in topo.corner_neighbours.items()}
    assert named["a1"] == {"b1", "a2"}
    assert corners["a1"] == {"b2"}
    assert named["c3"] == {"b3", "d3", "c2", "c4"}
    assert corners["c3"] == {"b2", "d2", "b4", "d4"}
    assert Counter(len(v) for v in named.values()) == {2: 4, 3: 16, 4: 16}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", [*PAPERS, "a3"])
def test_squares_are_large_enough_for_a_piece_and_as_large_as_fit(game: str, paper: str) -> None:
    page = sheet(game, 2, paper).pages[0]
    sides = set()
    for f in page.features(Kind.SPACE):
        minx, miny, maxx, maxy = f.geometry.bounds
        assert maxx - minx == pytest.approx(maxy - miny)
        sides.add(round(maxx - minx, 6))
    assert len(sides) == 1
    side = sides.pop()
    assert side >= MIN_CELL
    assert side <= MAX_CELL + 1e-9
    if paper == "a3":
        assert side == pytest.approx(MAX_CELL)
    assert page.data["cell"] == pytest.approx(side)


def test_outline_is_heavy_and_coordinates_sit_on_all_four_sides() -> None:
    page = sheet("compositie").pages[0]
    assert feature(page, "line-1").style == Style.HEAVY
    cells = squares(page)
    assert page.field is not None
    minx, miny, maxx, maxy = page.field.bounds
    for side in ("bottom", "top", "left", "right"):
        labels = [t for t in page.texts() if t.id.startswith(f"coord-{side}-")]
        assert len(labels) == 6
        for k, label in enumerate(labels, start=1):
            x0, y0, x1, y1 = text_box(label)
            if side in ("bottom", "top"):
                assert label.text == "abcdef"[k - 1]
                assert (x0 + x1) / 2 == pytest.approx(cells[f"{label.text}1"].geometry.centroid.x)
                assert y0 > maxy if side == "bottom" else y1 < miny
            else:
                assert label.text == str(k)
                centre_y = cells[f"a{k}"].geometry.centroid.y
                assert y0 < centre_y < y1
                assert x1 < minx if side == "left" else x0 > maxx


@pytest.mark.parametrize("game", GAMES)
def test_key_shows_every_symbol_and_no_texts_collide(game: str) -> None:
    page = sheet(game, 4, "letter").pages[0]
    for colour in COLOURS:
        mark = feature(page, f"mark-key-{colour}")
        assert mark.style == SYMBOL_STYLES[colour]
        assert same_shape(mark.geometry, reference_symbol(colour))
        text = page.get(f"key-{colour}")
        assert isinstance(text, Text) and colour in text.text
        assert text.text.startswith(LETTERS[colour])
    texts = [
        t
        for t in page.texts()
        if t.text and not t.id.startswith(FURNITURE_TEXTS) and not t.id.startswith("letter-")
    ]
    boxes = [text_box(t) for t in texts]
    boxes += [
        b
        for f in page.features(Kind.MARK)
        if f.id.startswith("mark-key")
        for b in [item_box(f)]
        if b
    ]
    for a, b in itertools.combinations(boxes, 2):
        assert not overlaps(a, b)
    assert page.field is not None
    board = page.field.bounds
    summary = [t for t in texts if t.id.startswith("summary")]
    assert summary and all(text_box(t)[1] > board[3] for t in summary)


# --- the pieces ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", PAPERS)
def test_pieces_page_has_nine_pieces_per_colour_that_fit_a_square(game: str, paper: str) -> None:
    board, pieces = sheet(game, 5, paper).pages
    cell = board.data["cell"]
    boxes = [f for f in pieces.features(Kind.BOX) if f.id.startswith("box-piece-")]
    assert [f.id for f in boxes] == [f"box-piece-{n}" for n in range(1, 37)]
    assert Counter(f.data["colour"] for f in boxes) == dict.fromkeys(COLOURS, 9)
    for n, f in enumerate(boxes, start=1):
        assert f.style == Style.CUT
        assert f.data["colour"] == COLOURS[(n - 1) // 9]
        minx, miny, maxx, maxy = f.geometry.bounds
        side = maxx - minx
        assert side == pytest.approx(maxy - miny)
        assert cell - 4.0 <= side < cell, "slightly smaller than a board square"
        mark = feature(pieces, f"mark-piece-{n}")
        assert mark.data["colour"] == f.data["colour"]
        assert mark.style == SYMBOL_STYLES[f.data["colour"]]
        assert same_shape(mark.geometry, reference_symbol(f.data["colour"]))
        assert f.geometry.contains(mark.geometry.buffer(INKS[mark.style].stroke / 2))
        letter = pieces.get(f"letter-piece-{n}")
        assert isinstance(letter, Text)
        assert letter.text == LETTERS[f.data["colour"]]
        x0, y0, x1, y1 = text_box(letter)
        assert inside((x0, y0, x1, y1), f.geometry.bounds)
        assert not overlaps((x0, y0, x1, y1), mark.geometry.bounds)
    for a, b in itertools.combinations(boxes, 2):
        ink_a, ink_b = item_box(a), item_box(b)
        assert ink_a is not None and ink_b is not None
        assert not overlaps(ink_a, ink_b), (a.id, b.id)


def test_pieces_page_can_be_left_out() -> None:
    for game in GAMES:
        assert len(sheet(game).pages) == 2
        assert len(sheet(game, settings=(("pieces", "off"),)).pages) == 1


def test_the_four_symbols_differ_without_colour() -> None:
    shapes = {c: reference_symbol(c) for c in COLOURS}
    for a, b in itertools.combinations(COLOURS, 2):
        ink_a = INKS[SYMBOL_STYLES[a]]
        ink_b = INKS[SYMBOL_STYLES[b]]
        assert (ink_a.fill, ink_a.hatch) != (ink_b.fill, ink_b.hatch), (a, b)
        na, nb = normalised(shapes[a]), normalised(shapes[b])
        differs = na.symmetric_difference(nb).area / unary_union([na, nb]).area
        assert differs > 0.2, (a, b)
        assert abs(na.area - nb.area) > 0.05 or len(na.exterior.coords) != len(nb.exterior.coords)
    assert len(set(LETTERS.values())) == 4


# --- Pick Tw=O=ne -------------------------------------------------------------------------------


SEEDS = range(1, 25)


@pytest.mark.parametrize("seed", SEEDS)
def test_start_position_is_a_full_board_drawn_as_recorded(seed: int) -> None:
    page = sheet("pick-two-one", seed).pages[0]
    setup = page.data["setup"]
    assert list(setup) == NAMES
    assert Counter(setup.values()) == dict.fromkeys(COLOURS, 9)
    cells = squares(page)
    for k, name in enumerate(NAMES, start=1):
        mark = feature(page, f"mark-setup-{k}")
        colour = setup[name]
        assert mark.data == {"colour": colour, "square": name}
        assert mark.style == SYMBOL_STYLES[colour]
        assert same_shape(mark.geometry, reference_symbol(colour))
        assert cells[name].geometry.contains(mark.geometry)
        letter = page.get(f"letter-setup-{k}")
        assert isinstance(letter, Text) and letter.text == LETTERS[colour]
        assert inside(text_box(letter), cells[name].geometry.bounds)


def test_start_position_follows_the_seed_only() -> None:
    setups = [tuple(sheet("pick-two-one", s).pages[0].data["setup"].values()) for s in SEEDS]
    assert len(set(setups)) == len(setups)
    again = make_sheet(SheetSpec.create("pick-two-one", seed=7)).pages[0].data["setup"]
    assert again == sheet("pick-two-one", 7).pages[0].data["setup"]
    assert sheet("pick-two-one", 7, "letter").pages[0].data["setup"] == again
    straight = sheet("pick-two-one", 7, settings=(("lines", "straight"),)).pages[0]
    assert straight.data["setup"] == again


def test_lines_option_changes_the_summary() -> None:
    def summary(settings: tuple[tuple[str, str], ...]) -> str:
        page = sheet("pick-two-one", 3, settings=settings).pages[0]
        return " ".join(t.text for t in page.texts() if t.id.startswith("summary-"))

    anyway, straight = summary(()), summary((("lines", "straight"),))
    assert "a1, b3, c5" in anyway and "a1, b3, c5" not in straight
    assert "row, column or diagonal" in straight
    assert sheet("pick-two-one", 3).pages[0].data["lines"] == "any"


# --- Cannon-Ball and Plan-A-Head ------------------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS)
def test_home_rows_cover_rows_one_two_and_five_six(paper: str) -> None:
    page = sheet("cannon-ball", 1, paper).pages[0]
    cells = list(page.features(Kind.SPACE))
    for player, rows in ((1, {1, 2}), (2, {5, 6})):
        mark = feature(page, f"mark-home-{player}")
        assert mark.layer == Layer.TINT and mark.style != Style.NONE
        assert set(mark.data["rows"]) == rows
        expected = unary_union([f.geometry for f in cells if f.data["row"] in rows])
        assert mark.geometry.symmetric_difference(expected).area < 1e-6
    assert page.field is not None
    _, top, _, bottom = page.field.bounds
    below, above = page.get("home-label-1"), page.get("home-label-2")
    assert isinstance(below, Text) and isinstance(above, Text)
    assert "Red & Blue" in below.text and "Green & Yellow" in above.text
    assert text_box(below)[1] > bottom and text_box(above)[3] < top
    assert above.angle == 180.0 and below.angle == 0.0
    assert page.data["home_rows"] == {"1": [1, 2], "2": [5, 6]}


def test_summaries_follow_their_options() -> None:
    def summary(game: str, settings: tuple[tuple[str, str], ...]) -> str:
        page = sheet(game, 3, settings=settings).pages[0]
        return " ".join(t.text for t in page.texts() if t.id.startswith("summary-"))

    assert "twice in a row" in summary("plan-a-head", ())
    three = summary("plan-a-head", (("players", "3"),))
    assert "Three players" in three and "twice" not in three
    assert "any of your pieces" in summary("cannon-ball", ())
    assert "the piece that moved" in summary("cannon-ball", (("capture", "mover"),))
    assert "9 of their 18 pieces" in summary("cannon-ball", ())
    listing = summary("compositie", ())
    assert all(name in listing for name in ("Plan-A-Head", "Pick Tw=O=ne", "Cannon-Ball"))


# --- every sheet --------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", PAPERS)
def test_every_variant_fits_in_portrait(game: str, paper: str) -> None:
    for orientation in ("auto", "portrait"):
        built = make_sheet(SheetSpec.create(game, seed=9, paper=paper, orientation=orientation))
        for page in built.pages:
            assert page.width < page.height
            frame = content_frame(page.width, page.height)
            for item in page.items:
                ink = item_box(item)
                if ink is None or item.layer == Layer.FURNITURE:
                    continue
                if isinstance(item, Text) and item.id.startswith(FURNITURE_TEXTS):
                    continue
                assert inside(ink, frame.box, 0.01), item.id


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("paper", "orientation"), [("a4", "landscape"), ("letter", "landscape"), ("a5", "auto")]
)
def test_paper_too_short_for_the_squares_is_refused(
    game: str, paper: str, orientation: str
) -> None:
    spec = SheetSpec.create(game, seed=1, paper=paper, orientation=orientation)
    with pytest.raises(FitError, match=r"at least 25 mm.*portrait"):
        make_sheet(spec)


def test_layouts_are_registered_with_their_players_and_rules() -> None:
    expected = {
        "compositie": (BOARD, "2-3"),
        "plan-a-head": (PLAN_A_HEAD, "2-3"),
        "pick-two-one": (PICK_TWO_ONE, "2"),
        "cannon-ball": (CANNON_BALL, "2"),
    }
    for name, (layout, players) in expected.items():
        assert get_layout(name) is layout
        assert layout.name == name and layout.game.players_text == players
        assert layout.author == "Fred Horn"
        assert len(layout.how_to_play.split("\n\n")) >= 3
        built = sheet(name)
        assert built.pages[0].title == layout.title
        ids = built.pages[0].ids()
        assert len(ids) == len(set(ids))
    assert "9 of their pieces" in CANNON_BALL.how_to_play
    assert "a1, b3, c5" in PICK_TWO_ONE.how_to_play
