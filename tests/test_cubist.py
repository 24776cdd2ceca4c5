"""Cubist play aids: studio board at true scale, score pads, the score checker, installations."""

from __future__ import annotations

import io
import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from shapely.geometry import box

from papergames.errors import FitError, SpecError
from papergames.layouts.cubist.installation import (
    Stack,
    check_installation,
    is_installation_text,
    plan_rotation,
    rotate,
)
from papergames.layouts.cubist.params import DIE, MIN_CELL
from papergames.layouts.cubist.rules import (
    CubistScoreRules,
    CubistScoreState,
    FinalFigures,
    cubist_winners,
)
from papergames.layouts.cubist.score import SCORE
from papergames.layouts.cubist.studio import STUDIO
from papergames.output import render
from papergames.play.checker import check
from papergames.play.rules import IllegalMove, MoveSyntaxError
from papergames.play.transcript import parse_text, read_transcript
from papergames.sheets.model import Feature, Kind, Page, Sheet, Text
from papergames.sheets.rng import Rng
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.topology import tiling_gaps
from papergames.sheets.units import PT_PER_MM

from conftest import sheet_for
from playout import new_game, random_game, replay

EXAMPLES = Path(__file__).parent.parent / "examples"
SEEDS = [1, 2, 3, 17]


def studio(paper: str = "a4", seed: int = 1, **params: str) -> Sheet:
    return make_sheet(SheetSpec.create("cubist-studio", params, seed=seed, paper=paper))


def score_pad(paper: str = "a4", **params: str) -> Sheet:
    return make_sheet(SheetSpec.create("cubist-score", params, seed=1, paper=paper))


def spaces_of(page: Page, area: str) -> list[Feature]:
    return [f for f in page.features(Kind.SPACE) if f.data["area"] == area]


def side(feature: Feature) -> tuple[float, float]:
    x0, y0, x1, y1 = feature.geometry.bounds
    return x1 - x0, y1 - y0


# --- studio board: true scale -------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_cell_holds_a_14_mm_die_at_true_scale(paper: str) -> None:
    sheet = sheet_for("cubist-studio", 1, paper)
    page = sheet.page
    expected = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}[paper]
    assert (page.width, page.height) == expected, "default boards are portrait"
    cells = spaces_of(page, "workroom") + spaces_of(page, "storage")
    assert len(cells) == 2 * 5 * 5 + 2
    for cell in cells:
        w, h = side(cell)
        assert w >= MIN_CELL - 1e-9 and h >= MIN_CELL - 1e-9, cell.id
        assert abs(w - page.data["cell"]) < 1e-9 and abs(h - page.data["cell"]) < 1e-9
        x0, y0, _, _ = cell.geometry.bounds
        die = box(x0 + 0.5, y0 + 0.5, x0 + 0.5 + DIE, y0 + 0.5 + DIE)
        assert cell.geometry.contains(die), f"a 14 mm die does not fit in {cell.id}"
    for k in (1, 2):
        mark = page.get(f"mark-die-{k}")
        assert isinstance(mark, Feature)
        assert side(mark) == pytest.approx((DIE, DIE))
        slot = page.get(f"space-{2 * 25 + k}")
        assert isinstance(slot, Feature) and slot.geometry.contains(mark.geometry)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_pdf_is_printed_at_true_size(paper: str) -> None:
    sheet = sheet_for("cubist-studio", 1, paper)
    buf = io.BytesIO()
    render(sheet, buf, format="pdf")
    reader = PdfReader(io.BytesIO(buf.getvalue()))
    media = reader.pages[0].mediabox
    assert float(media.width) == pytest.approx(sheet.page.width * PT_PER_MM, abs=0.01)
    assert float(media.height) == pytest.approx(sheet.page.height * PT_PER_MM, abs=0.01)
    # 1 mm of model is 72 / 25.4 pt of PDF: a 16 mm cell is 45.35 pt, a die 39.69 pt.
    assert pytest.approx(72 / 25.4) == PT_PER_MM
    assert "print at actual size" in " ".join(reader.pages[0].extract_text().split())


def test_the_board_holds_two_workrooms_storage_and_storeroom_tiled_by_its_spaces() -> None:
    page = sheet_for("cubist-studio", 1).page
    rooms = {w: [f for f in spaces_of(page, "workroom") if f.data["workroom"] == w] for w in (1, 2)}
    assert [len(rooms[1]), len(rooms[2])] == [25, 25]
    assert len(spaces_of(page, "storage")) == 2 and len(spaces_of(page, "storeroom")) == 1
    overlap, uncovered = tiling_gaps(list(page.spaces().values()), page.data["tiled"])
    assert overlap < 1e-6 and uncovered < 1e-6
    assert page.field is not None
    assert page.field.contains(page.data["tiled"])
    # the workrooms do not touch each other, the storage or the storeroom
    areas = {
        "w1": rooms[1],
        "w2": rooms[2],
        "storage": spaces_of(page, "storage"),
        "storeroom": spaces_of(page, "storeroom"),
    }
    from shapely.ops import unary_union

    shapes = {k: unary_union([f.geometry for f in v]) for k, v in areas.items()}
    for a, b in itertools.combinations(shapes, 2):
        assert shapes[a].distance(shapes[b]) >= 5.0, (a, b)
    # the storeroom holds at least the two rolled dice and the two stored ones
    (store,) = areas["storeroom"]
    w, h = side(store)
    assert (w // DIE) * (h // DIE) >= 4


def test_workroom_cells_are_numbered_row_by_row_and_their_neighbours_follow_the_grid() -> None:
    page = sheet_for("cubist-studio", 1).page
    topo = page.topology
    cells = spaces_of(page, "workroom")
    for n, cell in enumerate(cells, start=1):
        assert cell.id == f"space-{n}"
        w, r, c = cell.data["workroom"], cell.data["row"], cell.data["col"]
        assert n == (w - 1) * 25 + (r - 1) * 5 + c
        expected = {
            f"space-{(w - 1) * 25 + (r + dr - 1) * 5 + c + dc}"
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if 1 <= r + dr <= 5 and 1 <= c + dc <= 5
        }
        assert set(topo.neighbours[cell.id]) == expected, cell.id
    assert page.get("space-51").data == {"area": "storage", "slot": 1}  # type: ignore[union-attr]
    assert page.get("space-53").data == {"area": "storeroom"}  # type: ignore[union-attr]


def test_the_seed_changes_nothing_but_the_footer() -> None:
    first = sheet_for("cubist-studio", 1).page
    for seed in SEEDS[1:]:
        other = sheet_for("cubist-studio", seed).page
        a = [(f.id, f.geometry.wkt) for f in first.features() if f.layer.value != "furniture"]
        b = [(f.id, f.geometry.wkt) for f in other.features() if f.layer.value != "furniture"]
        assert a == b


def test_the_turn_summary_gives_four_steps_and_the_placement_rules() -> None:
    page = sheet_for("cubist-studio", 1).page
    marks = [t.text for t in page.texts() if t.id.startswith("summary-mark-")]
    assert marks.count("1.") == 1 and "4." in marks and "5." not in marks
    words = " ".join(t.text for t in page.texts() if t.id.startswith("summary-")).lower()
    for needed in ("roll two dice", "same number", "one apart", "diagonal", "storage space"):
        assert needed in words, needed
    frame_ok = all(t.size >= 2.2 for t in page.texts() if t.id.startswith("summary-"))
    assert frame_ok


# --- studio board: parameters -------------------------------------------------------------------


def test_names_give_one_titled_board_per_page() -> None:
    sheet = studio(names="Ann,Bob,Cy")
    assert [p.data["player"] for p in sheet.pages] == ["Ann", "Bob", "Cy"]
    for page, name in zip(sheet.pages, ["Ann", "Bob", "Cy"], strict=True):
        title = page.get("name")
        assert isinstance(title, Text) and title.text == name
        assert any(
            isinstance(t, Text) and name in t.text for t in page.texts() if t.id == "subtitle"
        )
        assert len(spaces_of(page, "workroom")) == 50


def test_players_without_names_are_titled_with_colours() -> None:
    sheet = studio(players="4")
    assert [p.data["player"] for p in sheet.pages] == ["red", "blue", "green", "yellow"]
    assert len(studio().pages) == 1


@pytest.mark.parametrize(
    ("params", "key"),
    [
        ({"cell": "14.9"}, "cell"),
        ({"cell": "31"}, "cell"),
        ({"cols": "1"}, "cols"),
        ({"rows": "11"}, "rows"),
        ({"players": "5"}, "players"),
        ({"players": "3", "names": "Ann,Bob"}, "players"),
        ({"names": "A,B,C,D,E"}, "names"),
    ],
)
def test_bad_studio_parameters_are_refused_naming_the_key(params: dict[str, str], key: str) -> None:
    with pytest.raises(SpecError, match=key):
        studio(**params)


def test_grid_size_and_cell_size_are_parameters() -> None:
    page = studio(cols="3", rows="4", cell="20").page
    rooms = spaces_of(page, "workroom")
    assert len(rooms) == 2 * 12
    assert all(side(f) == pytest.approx((20.0, 20.0)) for f in rooms)
    assert max(f.data["row"] for f in rooms) == 4 and max(f.data["col"] for f in rooms) == 3


def test_workrooms_too_wide_to_sit_side_by_side_are_stacked() -> None:
    page = studio(cols="7", rows="3", cell="15").page
    assert page.data["layout"] == "stacked" and page.data["store"] == "column"
    (store,) = spaces_of(page, "storeroom")
    rooms = spaces_of(page, "workroom")
    assert store.geometry.bounds[0] > max(f.geometry.bounds[2] for f in rooms), "beside them"
    overlap, uncovered = tiling_gaps(list(page.spaces().values()), page.data["tiled"])
    assert overlap < 1e-6 and uncovered < 1e-6
    one = [f.geometry.bounds for f in spaces_of(page, "workroom") if f.data["workroom"] == 1]
    two = [f.geometry.bounds for f in spaces_of(page, "workroom") if f.data["workroom"] == 2]
    assert max(b[3] for b in one) < min(b[1] for b in two)
    assert sheet_for("cubist-studio", 1).page.data["layout"] == "side-by-side"


def test_a_grid_too_large_for_the_paper_is_refused_naming_the_paper() -> None:
    with pytest.raises(FitError, match="paper"):
        studio(cols="10", rows="10", cell="25")


# --- score pad ----------------------------------------------------------------------------------


def rows_of(page: Page) -> dict[int, dict[str, Feature]]:
    rows: dict[int, dict[str, Feature]] = {}
    for f in page.features(Kind.BOX):
        n = int(f.id.rsplit("-", 2)[-1]) if not f.id.startswith("box-installation") else None
        if n is None:
            n = int(f.id.removeprefix("box-installation").split("-")[0])
            key = f"installation-{f.data['index']}"
        else:
            key = f.data["area"]
        rows.setdefault(n, {})[key] = f
    return rows


@pytest.mark.parametrize(
    ("params", "games", "players", "installations"),
    [
        ({}, 2, 4, 8),
        ({"games": "4", "installations": "12"}, 4, 4, 12),
        ({"games": "1", "players": "2"}, 1, 2, 8),
    ],
)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_score_pads_hold_a_row_per_player_per_game(
    params: dict[str, str], games: int, players: int, installations: int, paper: str
) -> None:
    page = score_pad(paper, **params).page
    rows = rows_of(page)
    assert sorted(rows) == list(range(1, games * players + 1))
    for n, row in rows.items():
        pad, player = divmod(n - 1, players)
        for f in row.values():
            assert (f.data["pad"], f.data["player"]) == (pad + 1, player + 1)
        wanted = {"initials", "legend", "museum", "total", "winner"}
        wanted |= {f"installation-{k}" for k in range(1, installations + 1)}
        assert set(row) == wanted
        for f in row.values():
            w, h = side(f)
            assert 7.0 - 1e-9 <= w <= 11.0 + 1e-9 and abs(w - h) < 1e-9
        # left to right: initials, colour, installations, museum dice, total, winner
        order = ["initials", "legend"] + [f"installation-{k}" for k in range(1, installations + 1)]
        order += ["museum", "total", "winner"]
        xs = [row[k].geometry.bounds[0] for k in order]
        assert xs == sorted(xs)
        lefts = [row[k].geometry.bounds for k in order]
        for a, b in itertools.pairwise(lefts):
            assert a[2] <= b[0] + 1e-9, "boxes do not overlap"
    letters = {t.id: t.text for t in page.texts() if t.id.startswith("letter-")}
    assert letters["letter-initials-1"] == "X" and letters["letter-total-1"] == "T"
    cuts = [f for f in page.features(Kind.MARK) if f.id.startswith("mark-cut-")]
    assert len(cuts) == games - 1
    # pads do not overlap: every pad's boxes lie between the cut lines
    for k, cut in enumerate(cuts, start=1):
        y = cut.geometry.bounds[1]
        above = [f for row in rows.values() for f in row.values() if f.data["pad"] == k]
        below = [f for row in rows.values() for f in row.values() if f.data["pad"] == k + 1]
        assert (
            max(f.geometry.bounds[3] for f in above) < y < min(f.geometry.bounds[1] for f in below)
        )


@pytest.mark.parametrize(
    ("params", "key"),
    [
        ({"installations": "7"}, "installations"),
        ({"games": "5"}, "games"),
        ({"players": "1"}, "players"),
        ({"players": "5"}, "players"),
    ],
)
def test_bad_score_parameters_are_refused_naming_the_key(params: dict[str, str], key: str) -> None:
    with pytest.raises(SpecError, match=key):
        score_pad(**params)


def test_rules_texts_are_our_own_and_long_enough() -> None:
    for layout in (STUDIO, SCORE):
        assert len(layout.how_to_play.split()) > 60
        assert "play aid" in layout.how_to_play


# --- the final-scoring transcript ---------------------------------------------------------------


def score_rules(players: int = 3, spec: str = "cubist-score seed=1") -> CubistScoreRules:
    game = new_game(spec, players)
    assert isinstance(game, CubistScoreRules)
    return game


def after(game: CubistScoreRules, *moves: str) -> CubistScoreState:
    state = game.initial()
    for text in moves:
        state = game.apply(state, game.parse_move(text, state))
    return state


def test_totals_are_installation_values_plus_two_per_museum_die() -> None:
    game = score_rules(3)
    state = after(
        game,
        "installations 7 5 9 museum 3",
        "installations none museum 4",
        "museum 0 installations 10 2",
    )
    assert game.is_over(state)
    assert game.scores(state) == (21 + 6, 0 + 8, 12 + 0)
    assert game.winners(state) == [0]
    claims = game.claims(state)
    assert claims["installations"] == (21, 0, 12)
    assert claims["cards"] == (3, 0, 2)
    assert claims["museum"] == (3, 4, 0)


def test_a_tie_goes_to_more_museum_dice_and_then_is_shared() -> None:
    game = score_rules(3)
    broken = after(
        game, "installations 10 museum 1", "installations 8 museum 2", "inst 12 museum 0"
    )
    assert game.scores(broken) == (12, 12, 12)
    assert game.winners(broken) == [1]
    assert any("broken by museum dice" in line for line in game.describe(broken))
    shared = after(
        game, "installations 10 museum 1", "installations 4 4 museum 1", "inst 5 museum 3"
    )
    assert game.scores(shared) == (12, 10, 11)
    assert game.winners(shared) == [0]
    full = after(game, "installations 6 museum 2", "installations 3 3 museum 2", "inst 2 museum 1")
    assert game.scores(full) == (10, 10, 4)
    assert game.winners(full) == [0, 1]
    assert any("share the win" in line for line in game.describe(full))
    assert game.winners(after(game, "installations 6 museum 2")) == [], "not over: no winner"


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("installations 7 5", 18),
        ("museum 3", 9),
        ("7 5 museum 3", 1),
        ("installations 7 x museum 3", 17),
        ("installations 7 museum 3 4", 26),
        ("installations museum 3", 23),
        ("installations none 4 museum 1", 20),
        ("installations 4 museum 1 installations 5", 26),
    ],
)
def test_bad_notation_is_a_syntax_error_with_its_column(text: str, column: int) -> None:
    game = score_rules(2)
    with pytest.raises(MoveSyntaxError) as info:
        game.parse_move(text, game.initial())
    assert info.value.column == column


def test_figures_the_game_cannot_produce_are_illegal() -> None:
    game = score_rules(3)
    state = game.initial()
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("installations 0 4 museum 1", state))
    assert info.value.code == "bad-value"
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("installations 1 2 3 4 5 6 7 8 9 museum 1", state))
    assert info.value.code == "too-many-boxes"
    wide = score_rules(3, "cubist-score installations=12 seed=1")
    state = after(
        wide, "inst 1 1 1 1 1 1 1 1 1 1 1 1 museum 0", "inst 1 1 1 1 1 1 1 1 1 1 museum 0"
    )
    with pytest.raises(IllegalMove) as info:
        wide.apply(state, wide.parse_move("installations 2 2 museum 0", state))
    assert info.value.code == "too-many-installations", "23 installation cards in all"
    done = after(
        wide, "inst 1 1 1 1 1 1 1 1 1 1 1 1 museum 0", "inst 1 museum 0", "inst 2 museum 0"
    )
    with pytest.raises(IllegalMove) as info:
        wide.apply(done, FinalFigures((), 0))
    assert info.value.code == "game-over"


def test_the_pad_must_have_a_row_for_every_player() -> None:
    with pytest.raises(SpecError, match="rows for 2 players"):
        new_game("cubist-score players=2 seed=1", 3)
    with pytest.raises(SpecError):
        new_game("cubist-score seed=1", 1)


def test_the_example_transcript_is_legal_and_its_claims_hold() -> None:
    verdict = check(read_transcript(EXAMPLES / "cubist-score.txt"))
    assert verdict.legal and verdict.ok
    assert verdict.winners == ["Ann"]
    assert verdict.scores == (27, 20, 27)
    bad = (EXAMPLES / "cubist-score.txt").read_text().replace("Ann score 27", "Ann score 28")
    assert not check(parse_text(bad)).ok


def test_random_score_sheets_replay_to_independently_computed_scores() -> None:
    for players in (2, 3, 4):
        game = score_rules(players)
        for seed in range(70):
            state, moves = random_game(game, seed)
            assert len(moves) == players
            verdict = replay(game, moves)
            assert verdict.legal and verdict.scores == game.scores(state)
            figures: list[FinalFigures] = list(moves)
            expected = [sum(f.installations) + 2 * f.museum for f in figures]
            assert list(verdict.scores) == expected
            best = max(expected)
            tied = [k for k, s in enumerate(expected) if s == best]
            most = max(figures[k].museum for k in tied)
            assert game.winners(state) == [k for k in tied if figures[k].museum == most]
            for move in moves:
                assert game.parse_move(game.format_move(move), game.initial()) == move


def test_winners_helper_on_its_own() -> None:
    assert cubist_winners([]) == []
    assert cubist_winners([FinalFigures((5,), 0), FinalFigures((3,), 1)]) == [1]
    assert cubist_winners([FinalFigures((5,), 1), FinalFigures((2, 3), 1)]) == [0, 1]


# --- installations ------------------------------------------------------------------------------


def verdict(rows: str, plan: str | None = None) -> Any:
    text = "installation:\n" + rows + ("\nplan:\n" + plan if plan is not None else "")
    return check_installation(text)


def codes(rows: str, plan: str | None = None) -> list[str]:
    return [p.code for p in verdict(rows, plan).problems]


@pytest.mark.parametrize(
    "rows",
    [
        "4",
        "666",
        "1 2 3 4 5 6",
        "1\n2\n3",
        "3 4 3\n4 . 4\n3 4 3",  # a ring around an empty cell
        "33 4 55\n.  5 .",  # stacks of different heights, one apart
        "2 3\n3 2",  # a 2 by 2 block: every edge pair is one apart
        ". 4 .\n4 55 6\n. 6 .",  # diagonal neighbours may be anything: they do not touch
    ],
)
def test_legal_structures_have_no_problem(rows: str) -> None:
    result = verdict(rows)
    assert result.legal and result.ok and result.problems == ()
    assert result.matches_plan is None


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ("34", ["mixed-stack"]),
        ("4 4", ["same-value"]),
        ("44 4", ["same-value"]),  # they touch at height 1
        ("3 5", ["not-one-apart"]),
        ("1 6", ["not-one-apart"]),
        ("3 .\n. 4", ["disconnected"]),  # corner to corner only
        ("3 . 3", ["disconnected"]),
        (". .\n. .", ["empty"]),
        (
            "2 34\n2 .\n. .  6\n. .  4",
            ["mixed-stack", "same-value", "not-one-apart", "disconnected"],
        ),
    ],
)
def test_each_placement_rule_is_its_own_problem(rows: str, expected: list[str]) -> None:
    result = verdict(rows)
    assert not result.legal
    assert [p.code for p in result.problems] == expected


def test_adjacent_stacks_are_compared_at_every_height_both_reach() -> None:
    result = verdict("333 44")
    assert result.legal and result.dice == 5
    # a mixed stack is reported, and its upper die is compared where its neighbour reaches
    found = verdict("36 44")
    assert [p.code for p in found.problems] == ["mixed-stack", "not-one-apart"]
    assert "height 2" in found.problems[1].message
    assert found.problems[1].cells == ((1, 1), (1, 2))


def test_problems_name_the_cells_and_lines() -> None:
    result = check_installation("# note\ninstallation: x\n4 7\n")
    syntax = [p for p in result.problems if p.code == "syntax"]
    assert syntax and syntax[0].line == 3 and syntax[0].cells == ((1, 2),)
    assert "row 1, column 2" in syntax[0].message
    missing = check_installation("4 5\n")
    assert [p.code for p in missing.problems][:1] == ["syntax"]
    assert "installation:" in missing.problems[0].message
    twice = check_installation("installation:\n4\nplan:\n*\nplan:\n*\n")
    assert any(p.code == "syntax" and p.line == 5 for p in twice.problems)


def test_the_keyword_line_tells_an_installation_from_a_transcript() -> None:
    assert is_installation_text("# built today\n\ninstallation: tower\n44\n")
    assert is_installation_text("Installation:\n4\n")
    assert not is_installation_text("sheet: cubist-score seed=1\nplayers: Ann, Bob\n")
    assert not is_installation_text("installation 4\n")
    for path in sorted(EXAMPLES.glob("cubist-installation*.txt")):
        assert is_installation_text(path.read_text())


SHAPE = {(1, 1): Stack((2,)), (1, 2): Stack((3,)), (1, 3): Stack((4, 4, 4)), (2, 3): Stack((5,))}
"""An L with a tower: no turn maps it onto itself, and its mirror image is not a turn of it."""


def text_of(stacks: dict[tuple[int, int], Stack]) -> str:
    rows = max(r for r, _ in stacks)
    cols = max(c for _, c in stacks)
    out = []
    for r in range(1, rows + 1):
        cells = []
        for c in range(1, cols + 1):
            s = stacks.get((r, c))
            cells.append(
                "." if s is None else "".join("*" if d is None else str(d) for d in s.dice)
            )
        out.append(" ".join(cells))
    return "\n".join(out)


@pytest.mark.parametrize("degrees", [0, 90, 180, 270])
def test_a_plan_matches_its_turned_installation_with_the_right_turn(degrees: int) -> None:
    built = rotate(SHAPE, degrees)
    assert len({tuple(sorted(rotate(SHAPE, d))) for d in (0, 90, 180, 270)}) == 4
    assert plan_rotation(SHAPE, built) == degrees
    result = verdict(text_of(built), text_of(SHAPE))
    assert result.legal and result.ok and result.rotation == degrees
    # heights only ('*') match too, whatever the numbers
    blind = {cell: Stack((None,) * s.height) for cell, s in SHAPE.items()}
    assert verdict(text_of(built), text_of(blind)).rotation == degrees


def test_mirror_images_heights_and_numbers_that_differ_do_not_match() -> None:
    mirror = {(r, 4 - c): s for (r, c), s in SHAPE.items()}
    result = verdict(text_of(mirror), text_of(SHAPE))
    assert result.legal and result.matches_plan is False and not result.ok
    assert [p.code for p in result.problems] == ["plan-mismatch"]
    lower = dict(SHAPE)
    lower[(1, 3)] = Stack((4, 4))
    assert verdict(text_of(lower), text_of(SHAPE)).matches_plan is False
    other = {cell: Stack((None,) * s.height) for cell, s in SHAPE.items()}
    other[(2, 3)] = Stack((6,))
    assert verdict(text_of(SHAPE), text_of(other)).matches_plan is False
    bigger = dict(SHAPE)
    bigger[(2, 2)] = Stack((4,))
    assert verdict(text_of(bigger), text_of(SHAPE)).matches_plan is False


def test_random_legal_structures_are_legal_and_match_their_turned_plans() -> None:
    rng = Rng(5, "cubist-structures")
    for _ in range(150):
        stacks = grow(rng)
        text = text_of(stacks)
        assert verdict(text).legal, text
        d = rng.choice([0, 90, 180, 270])
        plan = {cell: Stack((None,) * s.height) for cell, s in rotate(stacks, d).items()}
        result = verdict(text, text_of(plan))
        assert result.matches_plan, (text, d)
        assert plan_rotation(plan, stacks) is not None


def grow(rng: Rng) -> dict[tuple[int, int], Stack]:
    """A random legal structure built die by die as the rules allow (each new stack one apart)."""
    value = rng.randint(1, 6)
    stacks = {(3, 3): Stack((value,) * rng.randint(1, 3))}
    for _ in range(rng.randint(0, 7)):
        r, c = rng.choice(sorted(stacks))
        dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
        cell = (r + dr, c + dc)
        if cell in stacks or not (1 <= cell[0] <= 5 and 1 <= cell[1] <= 5):
            continue
        around = [
            stacks[(cell[0] + a, cell[1] + b)].dice[0]
            for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if (cell[0] + a, cell[1] + b) in stacks
        ]
        fits = [v for v in range(1, 7) if all(abs(v - n) == 1 for n in around if n is not None)]
        if fits:
            stacks[cell] = Stack((rng.choice(fits),) * rng.randint(1, 3))
    return stacks


def test_the_installation_examples_say_what_their_comments_say() -> None:
    pyramid = check_installation((EXAMPLES / "cubist-installation.txt").read_text())
    assert pyramid.ok and pyramid.rotation == 0 and pyramid.name == "five-tower"
    legal = check_installation((EXAMPLES / "cubist-installation-legal.txt").read_text())
    assert legal.ok and legal.rotation == 270 and legal.dice == 6
    illegal = check_installation((EXAMPLES / "cubist-installation-illegal.txt").read_text())
    assert not illegal.legal
    assert sorted({p.code for p in illegal.problems}) == [
        "disconnected",
        "mixed-stack",
        "not-one-apart",
        "same-value",
    ]
    data = illegal.to_json()
    assert data["legal"] is False and len(data["problems"]) == len(illegal.problems)
    assert illegal.lines()[0].startswith("installation broken: ILLEGAL")


def test_a_plan_that_breaks_the_rules_is_reported_but_the_installation_stays_legal() -> None:
    result = verdict("3 4", "4 4")
    assert result.legal and not result.ok
    assert [p.code for p in result.problems] == ["bad-plan", "plan-mismatch"]
    assert verdict("44 5", "*4 *").ok, "a '*' in a stack takes the stack's number"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="123456789*.#: \nplaninstl", max_size=80))
def test_any_text_gets_a_verdict_never_a_crash(text: str) -> None:
    for candidate in (text, "installation:\n" + text):
        result = check_installation(candidate)
        assert result.legal == all(p.code in ("plan-mismatch", "bad-plan") for p in result.problems)
        assert all(p.message for p in result.problems)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="installations museum none 0123456789-x", max_size=40))
def test_any_move_text_parses_or_raises_a_syntax_error(text: str) -> None:
    game = score_rules(2)
    try:
        move = game.parse_move(text, game.initial())
    except MoveSyntaxError as exc:
        assert 1 <= exc.column <= len(text) + 1
        return
    assert game.parse_move(game.format_move(move), game.initial()) == move
