"""The Palindromic Card Game record sheet: card boxes, found-palindrome boxes, score lines."""

from __future__ import annotations

import itertools
import math
from functools import cache

import pytest
from shapely import STRtree, wkb
from shapely.geometry import box

from papergames.errors import FitError, SpecError
from papergames.layouts.palindromes import sheet as palindromes
from papergames.sheets.bounds import inside, item_box, text_box
from papergames.sheets.compose import content_frame
from papergames.sheets.model import Feature, Kind, Page, Sheet
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

CARDS = [4, 7, 13, 26, 27, 40, 52]
SEEDS = [1, 5, 99, 31337]


@cache
def build(
    cards: int = 26, found: int = 0, paper: str = "a4", orientation: str = "auto", seed: int = 1
) -> Sheet:
    params = {"cards": str(cards), "found": str(found)}
    spec = SheetSpec.create("palindromes", params, seed=seed, paper=paper, orientation=orientation)
    return make_sheet(spec)


def boxes(page: Page, prefix: str) -> list[Feature]:
    return [f for f in page.features(Kind.BOX) if f.id.startswith(prefix)]


def side(feature: Feature) -> tuple[float, float]:
    x0, y0, x1, y1 = feature.geometry.bounds
    return x1 - x0, y1 - y0


@pytest.mark.parametrize("cards", CARDS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_player_has_one_box_per_card_in_row_order(cards: int, paper: str) -> None:
    page = build(cards, paper=paper).page
    for p in (1, 2):
        row = boxes(page, f"box-cards{p}-")
        assert [f.id for f in row] == [f"box-cards{p}-{k}" for k in range(1, cards + 1)]
        assert [f.data["position"] for f in row] == list(range(1, cards + 1))
        assert all(f.data["player"] == p for f in row)
        for a, b in itertools.pairwise(row):
            ax0, ay0, _, _ = a.geometry.bounds
            bx0, by0, _, _ = b.geometry.bounds
            same_line = math.isclose(ay0, by0)
            assert (same_line and bx0 > ax0) or (by0 > ay0 and bx0 < ax0), b.id
    assert not boxes(page, "box-cards3-")


@pytest.mark.parametrize("cards", CARDS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_card_boxes_are_square_and_large_enough_for_a_letter(cards: int, paper: str) -> None:
    page = build(cards, paper=paper).page
    for f in boxes(page, "box-cards"):
        w, h = side(f)
        assert w == pytest.approx(h)
        assert w >= palindromes.CARD_MIN
    assert page.data["card_box"] >= palindromes.CARD_MIN


@pytest.mark.parametrize("cards", CARDS)
def test_every_card_box_carries_its_position_number_above_it(cards: int) -> None:
    page = build(cards).page
    texts = {t.id: t for t in page.texts()}
    for f in boxes(page, "box-cards"):
        p, k = f.data["player"], f.data["position"]
        number = texts[f"position{p}-{k}"]
        assert number.text == str(k)
        x0, y0, x1, _ = f.geometry.bounds
        tx0, _, tx1, ty1 = text_box(number)
        assert x0 <= tx0 and tx1 <= x1
        assert ty1 <= y0 + 0.05
        assert number.bold == (k % 5 == 0)


@pytest.mark.parametrize("cards", CARDS)
@pytest.mark.parametrize("found", [0, 4])
def test_no_two_boxes_overlap_and_no_text_runs_into_a_box(cards: int, found: int) -> None:
    page = build(cards, found).page
    features = list(page.features(Kind.BOX))
    geoms = [f.geometry for f in features]
    tree = STRtree(geoms)
    left, right = tree.query(geoms, predicate="intersects")
    for a, b in zip(left.tolist(), right.tolist(), strict=True):
        if a != b:
            assert geoms[a].intersection(geoms[b]).area < 1e-9, (features[a].id, features[b].id)
            assert geoms[a].distance(geoms[b]) > 0 or features[a].id.startswith("box-cards")
    inside_ok = ("letter-", "found-index", "found-dash")
    for text in page.texts():
        if text.id.startswith(inside_ok) or not text.text:
            continue
        ink = box(*text_box(text))
        for i in tree.query(ink, predicate="intersects").tolist():
            assert ink.intersection(geoms[i]).area < 0.05, (text.id, features[i].id)


@pytest.mark.parametrize(("cards", "found"), [(4, 0), (26, 0), (26, 10), (52, 0), (40, 40)])
def test_found_boxes_per_row_match_the_parameter(cards: int, found: int) -> None:
    page = build(cards, found).page
    expected = found or math.ceil(2 * cards / 3)
    assert page.data["found"] == expected
    for p in (1, 2):
        slots = boxes(page, f"box-found{p}-")
        assert [f.id for f in slots] == [f"box-found{p}-{k}" for k in range(1, expected + 1)]
        assert all(
            f.data == {"player": p, "area": "found", "slot": k}
            for k, f in enumerate(slots, start=1)
        )
        for f in slots:
            w, h = side(f)
            assert w >= palindromes.SLOT_W - 1e-9 and h >= palindromes.CARD_MIN


def test_found_boxes_sit_under_the_row_they_belong_to_in_two_columns() -> None:
    page = build(26).page
    split = min(f.geometry.bounds[0] for f in boxes(page, "box-found2-"))
    assert all(f.geometry.bounds[2] < split for f in boxes(page, "box-found1-"))
    card_bottom = max(f.geometry.bounds[3] for f in boxes(page, "box-cards"))
    assert all(f.geometry.bounds[1] > card_bottom for f in boxes(page, "box-found"))


@pytest.mark.parametrize("cards", [4, 26, 52])
def test_score_line_reads_reds_minus_palindromes_equals_score(cards: int) -> None:
    page = build(cards).page
    found_bottom = max(f.geometry.bounds[3] for f in boxes(page, "box-found"))
    for p in (1, 2):
        parts = [page.get(f"box-{a}-{p}") for a in ("initials", "legend", "reds", "palindromes")]
        parts.append(page.get(f"box-total-{p}"))
        assert all(isinstance(f, Feature) for f in parts)
        lefts = [f.geometry.bounds[0] for f in parts]  # type: ignore[union-attr]
        tops = {round(f.geometry.bounds[1], 6) for f in parts}  # type: ignore[union-attr]
        assert lefts == sorted(lefts)
        assert len(tops) == 1
        assert min(tops) > found_bottom
        signs = [page.get(f"sign-{s}-{p}") for s in ("minus", "equals")]
        assert [s.text for s in signs] == ["−", "="]  # type: ignore[union-attr]


@pytest.mark.parametrize("cards", CARDS)
def test_field_is_the_outline_of_both_rows_of_cards(cards: int) -> None:
    page = build(cards).page
    assert page.field is not None
    cards_union = [f.geometry for f in boxes(page, "box-cards")]
    x0 = min(g.bounds[0] for g in cards_union)
    y0 = min(g.bounds[1] for g in cards_union)
    x1 = max(g.bounds[2] for g in cards_union)
    y1 = max(g.bounds[3] for g in cards_union)
    assert page.field.symmetric_difference(box(x0, y0, x1, y1)).area < 1e-6
    assert not any(
        page.field.intersects(f.geometry.buffer(-0.01)) for f in boxes(page, "box-found")
    )


def _ink_inside(page: Page) -> None:
    frame = content_frame(page.width, page.height)
    furniture = ("marker-", "qr-", "scale-", "title", "subtitle", "spec-", "credit", "note-colour")
    for item in page.items:
        if item.id.startswith(furniture):
            continue
        ink = item_box(item)
        if ink is not None:
            assert inside(ink, frame.box, slack=0.01), item.id


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("cards", "found"), [(52, 0), (52, 52), (26, 26), (4, 0)])
def test_fits_a4_and_letter_even_with_52_cards(paper: str, cards: int, found: int) -> None:
    sheet = build(cards, found, paper)
    _ink_inside(sheet.page)
    assert len(boxes(sheet.page, "box-cards")) == 2 * cards


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
@pytest.mark.parametrize(("cards", "found"), [(26, 0), (52, 0), (52, 52), (13, 13)])
def test_forced_orientations_fit_or_refuse_naming_the_parameters(
    paper: str, orientation: str, cards: int, found: int
) -> None:
    try:
        sheet = build(cards, found, paper, orientation)
    except FitError as exc:
        assert orientation == "landscape" and cards == 52
        assert "found=" in str(exc) and f"cards={cards}" in str(exc)
        return
    _ink_inside(sheet.page)


def test_a_page_too_small_is_refused_naming_the_parameters() -> None:
    with pytest.raises(FitError, match=r"cards=52"):
        build(52, 52, "a5")


def test_more_found_boxes_than_cards_is_rejected() -> None:
    with pytest.raises(SpecError, match=r"found=30 .*cards=26"):
        SheetSpec.create("palindromes", {"cards": "26", "found": "30"})


def test_ids_are_unique_and_identical_across_seeds() -> None:
    pages = [build(26, seed=seed).page for seed in SEEDS]
    ids = pages[0].ids()
    assert len(ids) == len(set(ids))
    for page in pages[1:]:
        assert page.ids() == ids
        for fa, fb in zip(pages[0].features(), page.features(), strict=True):
            if fa.kind != Kind.MARK:
                assert wkb.dumps(fa.geometry) == wkb.dumps(fb.geometry), fa.id


def test_rules_and_metadata() -> None:
    layout = palindromes.LAYOUT
    assert layout.game.players_text == "2"
    cards = layout.params["cards"]
    assert (cards.default, cards.low, cards.high) == (26, 4, 52)
    assert "consecutive" in layout.how_to_play
    assert "distinct" in layout.how_to_play.lower()
