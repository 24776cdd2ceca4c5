"""Invariants every sheet of every game must keep, whatever its seed and paper."""

from __future__ import annotations

import pytest
from shapely import wkb

from papergames.errors import FitError
from papergames.games import game_names, get_layout
from papergames.sheets.bounds import inside, item_box, overlaps
from papergames.sheets.compose import MARGIN, QR_MARGIN, content_frame, marker_boxes
from papergames.sheets.layout import Layout
from papergames.sheets.model import Feature, Kind, Sheet
from papergames.sheets.sheet import fitted_box, make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.topology import tiling_gaps

from conftest import sheet_for

GAMES = game_names()
SEEDS = [1, 2, 3, 17, 4242]


def tiled_region(page_data: dict[str, object], field: object) -> object:
    return page_data.get("tiled", field)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_spaces_tile_the_field(game: str, seed: int) -> None:
    sheet = sheet_for(game, seed)
    for page in sheet.pages:
        spaces = list(page.spaces().values())
        if not spaces or page.field is None:
            continue
        region = tiled_region(page.data, page.field)
        overlap, uncovered = tiling_gaps(spaces, region)  # type: ignore[arg-type]
        assert overlap < 1e-6 * region.area  # type: ignore[attr-defined]
        assert uncovered < 1e-6 * region.area  # type: ignore[attr-defined]
        assert all(p.is_valid and p.area > 0 for p in spaces)


@pytest.mark.parametrize("game", GAMES)
def test_ids_are_unique_and_stable(game: str) -> None:
    first = make_sheet(SheetSpec.create(game, seed=99))
    second = make_sheet(SheetSpec.create(game, seed=99))
    for a, b in zip(first.pages, second.pages, strict=True):
        ids = a.ids()
        assert len(ids) == len(set(ids))
        assert ids == b.ids()
        for fa, fb in zip(a.features(), b.features(), strict=True):
            assert wkb.dumps(fa.geometry) == wkb.dumps(fb.geometry), fa.id


ID_PREFIXES = ("space-", "segment-", "line-", "point-", "box-", "triangle-", "dot-")


@pytest.mark.parametrize("game", GAMES)
def test_ids_follow_the_convention(game: str) -> None:
    prefix = {
        Kind.SPACE: "space-",
        Kind.SEGMENT: "segment-",
        Kind.LINE: "line-",
        Kind.POINT: "point-",
        Kind.BOX: "box-",
        Kind.TRIANGLE: "triangle-",
    }
    for page in sheet_for(game).pages:
        for feature in page.features():
            if feature.kind in prefix:
                assert feature.id.startswith(prefix[feature.kind]), feature.id


def all_ink_inside(sheet: Sheet) -> None:
    for page in sheet.pages:
        printable = (MARGIN, MARGIN, page.width - MARGIN, page.height - MARGIN)
        corners = list(marker_boxes(page.width, page.height).values())
        frame = content_frame(page.width, page.height)
        for item in page.items:
            ink = fitted_box(item)
            if ink is None:
                continue
            real = item_box(item)
            assert real is not None
            least = 10.0  # the margin every printer keeps (see sheet.fitted_box for the 12 mm)
            assert inside(real, (least, least, page.width - least, page.height - least))
            if item.id == "qr-spec":
                qr_printable = (MARGIN, MARGIN, page.width - MARGIN, page.height - QR_MARGIN)
                assert inside(ink, qr_printable), "the QR code crosses the margin"
            else:
                assert inside(ink, printable), f"{item.id} crosses the margin"
            if not item.id.startswith("marker-"):
                assert not any(overlaps(ink, c) for c in corners), f"{item.id} in a corner"
            if isinstance(item, Feature) and item.kind in (Kind.SPACE, Kind.SEGMENT, Kind.LINE):
                assert inside(ink, frame.box, 0.01), f"{item.id} outside the content frame"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("orientation", ["auto", "portrait", "landscape"])
def test_everything_lies_in_the_printable_area(game: str, paper: str, orientation: str) -> None:
    try:
        sheet = sheet_for(game, 5, paper, orientation)
    except FitError as exc:
        # A forced orientation may be refused (a 16x16 grid of 9 mm squares is too wide for
        # landscape A4), but only with a message that says what to change; auto never is.
        assert orientation != "auto" and "paper" in str(exc)
        return
    all_ink_inside(sheet)
    page = sheet.pages[0]
    expected = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}[paper]
    assert sorted((page.width, page.height)) == sorted(expected)
    if orientation != "auto":
        assert (page.width > page.height) == (orientation == "landscape")


@pytest.mark.parametrize("game", GAMES)
def test_auto_orientation_picks_the_larger_field(game: str) -> None:
    auto = sheet_for(game, 3, "a4", "auto").pages[0]
    if auto.field is None:
        return
    areas = []
    for orientation in ("portrait", "landscape"):
        try:
            page = sheet_for(game, 3, "a4", orientation).pages[0]
        except FitError:
            continue
        assert page.field is not None
        areas.append(page.field.area)
    assert areas, "at least one orientation must fit"
    assert auto.field.area >= max(areas) - 1e-6


@pytest.mark.parametrize("game", GAMES)
def test_every_page_carries_the_spec_and_markers(game: str) -> None:
    sheet = sheet_for(game, 8)
    for page in sheet.pages:
        ids = set(page.ids())
        assert {"marker-tl", "marker-tr", "marker-bl", "marker-br", "qr-spec"} <= ids
        qr = page.get("qr-spec")
        assert isinstance(qr, Feature) and qr.data["text"] == str(sheet.spec)
        spec_text = " ".join(t.text for t in page.texts() if t.id.startswith("spec-"))
        assert SheetSpec.parse(spec_text) == sheet.spec
        bar = page.get("scale-bar")
        assert isinstance(bar, Feature)
        minx, _, maxx, _ = bar.geometry.bounds
        assert abs((maxx - minx) - 50.0) < 1e-9


def _cheap_games() -> list[str]:
    """The games whose layout tells its field area without building the page."""
    return [g for g in GAMES if type(get_layout(g)).field_area is not Layout.field_area]


def _cheap_cases() -> list[tuple[str, dict[str, str]]]:
    cases: list[tuple[str, dict[str, str]]] = []
    for game in _cheap_games():
        params = get_layout(game).params
        keys = ("circles", "size", "losses", "rows", "spaces", "cubes")
        key = next(k for k in keys if k in params)
        param = params[key]
        values = {int(param.low or 0), int(param.default), int(param.high or 0)}
        values.add((min(values) + max(values)) // 2)
        # Springer's merged pairs need room: a field two rows high has none for the default.
        fixed = {"variety": "0"} if "variety" in params else {}
        cases += [(game, {key: str(v), **fixed}) for v in sorted(values)]
    # Mondrian's score areas grow with the tally's points and leave the field less room; its
    # mini field is square cells in a fixed lattice.
    cases += [
        ("mondrian", settings)
        for settings in ({"points": "160"}, {"field": "mini"}, {"field": "mini", "points": "160"})
    ]
    return cases


def test_the_orientation_shortcut_serves_the_layouts_that_plan_their_field() -> None:
    grids = {"spaghetti", "maze", "cocomposite"}
    art = {"delaunay", "springer", "mondrian", "vasarely"}
    assert grids | art | {"rings"} <= set(_cheap_games())


@pytest.mark.parametrize("paper", ["a4", "letter", "a5", "a3"])
@pytest.mark.parametrize(("game", "settings"), _cheap_cases())
def test_a_cheap_orientation_choice_picks_what_building_both_would(
    paper: str, game: str, settings: dict[str, str]
) -> None:
    """A layout that tells its field area without building (Layout.field_area): same choice.

    The orientation chosen is built by the choice itself; only the other is built to compare.
    """

    def field_area(orientation: str) -> float | None:
        spec = SheetSpec.create(game, settings, seed=3, paper=paper, orientation=orientation)
        try:
            page = make_sheet(spec).pages[0]
        except FitError:
            return None
        assert page.field is not None
        return page.field.area

    try:
        auto = make_sheet(SheetSpec.create(game, settings, seed=3, paper=paper)).pages[0]
    except FitError:
        assert field_area("portrait") is None and field_area("landscape") is None
        return
    assert auto.field is not None
    chosen = "landscape" if auto.width > auto.height else "portrait"
    other = field_area("portrait" if chosen == "landscape" else "landscape")
    built = {chosen: auto.field.area, "other": -1.0 if other is None else other}
    assert built[chosen] > built["other"] - 1e-6, "the larger field, portrait on a tie"
    if abs(built[chosen] - built["other"]) <= 1e-6:
        assert chosen == "portrait"
