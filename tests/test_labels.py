"""Printed labels (``labels=on``): where they stand, how they look, and that transcripts take them.

The invariants hold for every seed tried: each label lies inside its item and outside every
other, no two labels overlap, every label is at least 7 pt and mid grey, the labelled sheet stays
inside the margins, and a random legal game written with the printed names replays exactly as
the same game written with model ids.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache
from io import BytesIO
from typing import Any

import pytest
import shapely
from shapely.geometry import Polygon, box

from papergames.errors import FitError, PapergamesError
from papergames.games import get_rules
from papergames.layouts.klee.coordinates import coordinates
from papergames.output import svg
from papergames.play.checker import Verdict, check
from papergames.play.rules import Player
from papergames.play.transcript import format_transcript, parse_text
from papergames.sheets.bounds import inside, item_box
from papergames.sheets.compose import content_frame
from papergames.sheets.labels import LABEL_GREY, MIN_SIZE, PREFIX, TIGHT, label_box
from papergames.sheets.model import INKS, Feature, Kind, Page, Sheet, Style, Text
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

from playout import NAMES, random_game, transcript_of

AREAS = {
    "vasarely": (Kind.SPACE,),
    "mondrian": (Kind.SPACE,),
    "delaunay": (Kind.SPACE,),
    "springer": (Kind.SPACE, Kind.TRIANGLE),
}
LINES = {"miro": (Kind.SEGMENT,), "arp": (Kind.LINE,)}
LABELLED = {**AREAS, **LINES}
SEEDS = (1, 2)


def labelled(game: str, seed: int, paper: str = "a4") -> Sheet:
    """The labelled sheet, made once for the whole module."""
    return _labelled(game, seed, paper)


@cache
def _labelled(game: str, seed: int, paper: str) -> Sheet:
    return make_sheet(SheetSpec.create(game, {"labels": "on", "paper": paper}, seed=seed))


def printed(page: Page) -> dict[str, Text]:
    """Each labelled item's id and its label."""
    return {t.id.removeprefix(PREFIX): t for t in page.texts() if t.id.startswith(PREFIX)}


def items_of(page: Page, kinds: tuple[Kind, ...]) -> list[Feature]:
    return [f for f in page.features() if f.kind in kinds]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", sorted(LABELLED))
def test_every_item_a_move_names_has_one_label_of_readable_grey_text(game: str, seed: int) -> None:
    page = labelled(game, seed).page
    names = printed(page)
    assert set(names) == {f.id for f in items_of(page, LABELLED[game])}
    for label in names.values():
        assert label.size >= MIN_SIZE - 1e-9, f"{label.id} is under 7 pt"
        assert label.grey == LABEL_GREY
        assert re.fullmatch(r"[0-9A-Z]+", label.text), "digits and capitals sit on the baseline"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", sorted(AREAS))
def test_area_labels_lie_inside_their_item_and_outside_every_other(game: str, seed: int) -> None:
    page = labelled(game, seed).page
    areas = {f.id: f.geometry for f in items_of(page, AREAS[game])}
    tree_ids = list(areas)
    tree = shapely.STRtree([areas[i] for i in tree_ids])
    for fid, label in printed(page).items():
        glyphs = label_box(label)
        assert glyphs.difference(areas[fid]).area < 1e-9, f"{label.id} leaves {fid}"
        assert areas[fid].exterior.distance(glyphs) >= TIGHT - 1e-6, f"{label.id} is on a border"
        for k in tree.query(glyphs):
            other = tree_ids[k]
            if other != fid:
                assert glyphs.intersection(areas[other]).area < 1e-9, f"{label.id} is in {other}"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", sorted(LINES))
def test_line_labels_touch_no_line_and_stand_nearest_their_own(game: str, seed: int) -> None:
    page = labelled(game, seed).page
    lines = {f.id: f for f in items_of(page, LINES[game])}
    ids = list(lines)
    tree = shapely.STRtree([f.geometry for f in lines.values()])
    for fid, label in printed(page).items():
        glyphs = label_box(label)
        centre = glyphs.centroid
        for k in tree.query(glyphs.buffer(2.0)):
            line = lines[ids[k]]
            half = INKS[line.style].stroke / 2
            assert line.geometry.distance(glyphs) >= half + TIGHT - 1e-6, f"{label.id} on {ids[k]}"
        nearest = min(ids, key=lambda i: lines[i].geometry.distance(centre))
        assert nearest == fid, f"{label.id} stands nearer {nearest}"
        assert page.field is not None and page.field.contains(glyphs)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", sorted(LABELLED))
def test_labels_never_overlap_each_other_or_other_ink(game: str, seed: int) -> None:
    page = labelled(game, seed).page
    labels = list(printed(page).values())
    boxes = [label_box(t) for t in labels]
    tree = shapely.STRtree(boxes)
    for k, glyphs in enumerate(boxes):
        for j in tree.query(glyphs.buffer(TIGHT - 1e-6), predicate="intersects"):
            assert j == k, f"{labels[k].id} and {labels[j].id} overlap"
    mine = {t.id for t in labels}
    for item in page.items:
        if isinstance(item, Text) and item.id not in mine and item.text:
            ink = box(*item_box(item))  # type: ignore[misc]
            for j in tree.query(ink):
                assert not boxes[j].intersects(ink), f"{labels[j].id} covers {item.id}"
        elif isinstance(item, Feature) and item.kind == Kind.DOT:
            for j in tree.query(item.geometry):
                assert not boxes[j].intersects(item.geometry), f"{labels[j].id} on {item.id}"


@pytest.mark.parametrize(
    ("game", "paper"),
    [*((game, "a4") for game in [*sorted(LABELLED), "klee"]), ("vasarely", "letter")],
)
def test_the_labelled_sheet_stays_inside_the_margins(game: str, paper: str) -> None:
    page = labelled(game, 1, paper).page
    frame = content_frame(page.width, page.height)
    for item in page.items:
        ink = item_box(item)
        if ink is None:
            continue
        assert min(ink[0], ink[1], page.width - ink[2], page.height - ink[3]) >= 10.0, item.id
        if isinstance(item, Text) and item.id.startswith((PREFIX, "coord-")):
            assert inside(ink, frame.box, slack=0.01), f"{item.id} leaves the frame"


@pytest.mark.parametrize("seed", SEEDS)
def test_klee_prints_grid_coordinates_round_the_field_and_nothing_else(seed: int) -> None:
    page = labelled("klee", seed).page
    n = page.data["size"]
    coords = [t for t in page.texts() if t.id.startswith("coord-")]
    assert len(coords) == 4 * n
    assert not printed(page)
    assert page.field is not None
    field: Polygon = page.field
    boxes = [label_box(t) for t in coords]
    others = [
        box(*ink)
        for item in page.items
        if item not in coords and (ink := item_box(item)) is not None and item.id != "paper"
    ]
    for t, glyphs in zip(coords, boxes, strict=True):
        assert t.size >= MIN_SIZE - 1e-9 and t.grey == LABEL_GREY
        assert not glyphs.intersects(field.buffer(INKS[Style.HEAVY].stroke / 2)), t.id
        near = [o for o in others if o.intersects(glyphs)]
        assert all(o.contains(glyphs) for o in near), f"{t.id} crosses other ink"
    columns = {t.text for t in coords if t.id.startswith("coord-top-")}
    rows = {t.text for t in coords if t.id.startswith("coord-left-")}
    names = {c + r for c in columns for r in rows}
    assert names == set(coordinates(n))


def plain_names(game: str, page: Page) -> dict[str, str]:
    """Each model id a move may name, and the name the labelled sheet prints for it."""
    if game == "klee":
        return {fid: name for name, fid in coordinates(page.data["size"]).items()}
    return {fid: t.text for fid, t in printed(page).items()}


def with_printed_names(game: str, page: Page, text: str) -> str:
    """A transcript's moves with every model id swapped for the name printed on the sheet."""
    names = plain_names(game, page)

    def name(match: re.Match[str]) -> str:
        ident = match.group(0)
        if ident.startswith("point-"):
            _, a, b = ident.split("-")
            return f"{names[f'line-{a}']}-{names[f'line-{b}']}"
        return names[ident]

    sheet, _, rest = text.partition("\n")
    return (
        sheet + "\n" + re.sub(r"\b(?:space|segment|line|triangle)-\d+|\bpoint-\d+-\d+", name, rest)
    )


def outcome(verdict: Verdict) -> tuple[Any, ...]:
    return (verdict.illegal, verdict.over, verdict.scores, verdict.winners, len(verdict.steps))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", [*sorted(LABELLED), "klee"])
def test_a_game_written_with_printed_names_replays_as_with_ids(game: str, seed: int) -> None:
    engine = get_rules(game)
    players = [Player(name) for name in NAMES[:2]]
    rules = engine(labelled(game, seed), players, engine.parse_options({}))
    _, moves = random_game(rules, seed)
    by_id = format_transcript(transcript_of(rules, moves))
    if game == "klee":  # the engine writes a space by its grid name: write it by its id here
        grid = coordinates(rules.sheet.page.data["size"])
        by_id = re.sub(r"(?m)^(\w+: )([a-z]\d+) ", lambda m: f"{m[1]}{grid[m[2]]} ", by_id)
    by_name = with_printed_names(game, rules.sheet.page, by_id)
    moved = [line for line in by_name.splitlines() if ": " in line and line[0] != "#"]
    assert not any(re.search(r"\b(space|segment|line|triangle|point)-\d", m) for m in moved[2:])
    assert by_name != by_id
    want = check(parse_text(by_id), rules)
    got = check(parse_text(by_name), rules)
    assert want.illegal is None
    assert outcome(got) == outcome(want)


def test_a_labelled_spec_says_so_and_a_plain_one_is_unchanged() -> None:
    on = SheetSpec.create("miro", {"labels": "on"}, seed=4)
    assert str(on) == "miro seed=4 labels=on"
    assert SheetSpec.parse(str(on)) == on
    off = SheetSpec.create("miro", {"labels": "off"}, seed=4)
    assert str(off) == "miro seed=4" and off == SheetSpec.create("miro", seed=4)
    assert on.with_seed(5).labels


def svg_tree(sheet: Sheet) -> ET.Element:
    out = BytesIO()
    svg.render(sheet, out)
    return ET.fromstring(out.getvalue())


@pytest.mark.parametrize(
    ("game", "labels"),
    [("vasarely", "on"), ("springer", "on"), ("arp", "on"), ("klee", "on"), ("klee", "off")],
)
def test_every_svg_feature_carries_its_id_and_printed_name_as_a_tooltip(
    game: str, labels: str
) -> None:
    sheet = labelled(game, 1) if labels == "on" else make_sheet(SheetSpec.create(game, seed=1))
    root = svg_tree(sheet)
    ns = "{http://www.w3.org/2000/svg}"
    titles = {
        element.get("id"): element.findtext(f"{ns}title")
        for element in root.iter()
        if element.get("id") is not None
    }
    names = printed(sheet.page)
    for feature in sheet.page.features():
        title = titles.get(feature.id)
        assert title is not None and title.split(" ")[0] == feature.id, feature.id
        if feature.id in names:
            assert f"printed: {names[feature.id].text}" in title


def test_rings_keeps_its_own_labels_parameter_and_the_option_sets_it() -> None:
    typed = SheetSpec.create("rings", {"labels": "off"}, seed=3)
    assert not typed.labels and typed.params["labels"] is False
    assert SheetSpec.create("rings", seed=3, labels=False) == typed
    assert str(typed) == "rings labels=off seed=3"
    with pytest.raises(PapergamesError, match="labels is given twice"):
        SheetSpec.create("rings", {"labels": "on"}, seed=3, labels=False)


@pytest.mark.parametrize("game", sorted(LABELLED))
def test_a_labelled_sheet_takes_the_orientation_building_both_labelled_would(game: str) -> None:
    """The orientation is chosen from the field's area as the page's plan tells it
    (``Layout.field_area``), or else on the fields built without labels, and only the winner is
    labelled: the choice must be the one that labelling both would make (letter paper and seed
    3; the other tests here use A4)."""
    areas = {}
    for orientation in ("portrait", "landscape"):
        settings = {"labels": "on", "paper": "letter", "orientation": orientation}
        try:
            field = make_sheet(SheetSpec.create(game, settings, seed=3)).page.field
        except FitError:  # its labels, or the field itself, do not fit
            areas[orientation] = -1.0
            continue
        assert field is not None
        areas[orientation] = field.area
    try:
        auto = labelled(game, 3, "letter").page
    except FitError:
        assert areas == {"portrait": -1.0, "landscape": -1.0}
        return
    chosen = "landscape" if auto.width > auto.height else "portrait"
    want = "landscape" if areas["landscape"] > areas["portrait"] + 1e-6 else "portrait"
    assert chosen == want
    assert auto.field is not None and abs(auto.field.area - areas[chosen]) < 1e-9


@pytest.mark.parametrize("game", sorted(LABELLED))
def test_labels_add_the_names_and_move_nothing_else(game: str) -> None:
    plain = make_sheet(SheetSpec.create(game, seed=1)).page
    page = labelled(game, 1).page

    def field(p: Page) -> dict[str, Any]:
        return {
            item.id: item.geometry.wkt if isinstance(item, Feature) else item
            for item in p.items
            if not item.id.startswith(PREFIX) and (isinstance(item, Text) or item.kind != Kind.MARK)
            if not item.id.startswith(("spec", "qr"))
        }

    assert field(page) == field(plain)
    assert page.data == plain.data
