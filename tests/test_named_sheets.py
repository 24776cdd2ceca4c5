"""Sheets made for named players: the names print whole, legible and clear of everything else.

Every game's sheet is made with the longest and least Latin names a class list may hold; each
name must lie inside its own box at 7 pt or more and touch no other ink, and the spec printed on
the sheet must make the same named sheet again.
"""

from __future__ import annotations

import pytest

from papergames.games import game_names, get_game
from papergames.sheets.bounds import item_box, overlaps
from papergames.sheets.model import Feature, Sheet, Text
from papergames.sheets.names import format_names
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

LONG_NAMES = (
    "Αικατερίνη Παπαδοπούλου",
    "Wolfeschlegelsteinhausen",
    "Łukasz Wiśniewski-Kowal",
    "Александра Петровская",
    "Zoë",
    "Mia Rose",
)
SEVEN_PT = 7 * 25.4 / 72


def named_spec(game: str, names: tuple[str, ...] = LONG_NAMES, paper: str = "a4") -> SheetSpec:
    most = get_game(game).players[1]
    settings = {"names": format_names(names[:most]), "class": "5B+Smith", "group": "7"}
    return SheetSpec.create(game, settings, seed=3, paper=paper)


def _texts(sheet: Sheet) -> list[tuple[int, Text]]:
    return [(k, i) for k, p in enumerate(sheet.pages) for i in p.items if isinstance(i, Text)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", game_names())
def test_names_print_inside_their_boxes_and_touch_nothing(game: str, paper: str) -> None:
    spec = named_spec(game, paper=paper)
    sheet = make_sheet(spec)
    boxes = {
        f.data["name"]: (k, f)
        for k, page in enumerate(sheet.pages)
        for f in page.features()
        if f.id.startswith("box-name-")
    }
    if game == "cubist-studio":  # each player's board is headed with their name
        heading = " ".join(t.text for _, t in _texts(sheet) if t.id.startswith("subtitle"))
        assert all(name in heading for name in spec.player_names), heading
        return
    if not boxes:
        # No score rows (the COM:POSITIE boards, Klee's sequences, Cubist's pads): one box at
        # the foot of the first page names every player.
        page = sheet.pages[0]
        frame = next(f for f in page.features() if f.id == "box-names")
        lines = [t for t in page.items if isinstance(t, Text) and t.id.startswith("names-")]
        said = " ".join(t.text for t in lines)
        assert all(name in said for name in spec.names), said
        outer = item_box(frame)
        assert outer is not None
        for text in lines:
            inner = item_box(text)
            assert inner is not None and text.size >= SEVEN_PT - 1e-6
            assert outer[0] < inner[0] and inner[2] < outer[2] and outer[1] < inner[1]
            assert inner[3] < outer[3]
        for item in page.items:
            ink = item_box(item)
            if item is not frame and item not in lines and ink is not None:
                assert not overlaps(outer, ink), f"box-names runs into {item.id}"
        if game == "klee":  # and each player's row of sequences is captioned with their name
            captions = {t.id: t.text for _, t in _texts(sheet) if t.id.startswith("caption-seq-")}
            assert [captions[f"caption-seq-{p}"].split(":")[0] for p in (1, 2)] == list(spec.names)
        return
    if game == "delaunay" and len(spec.names) == 4:  # partners 1+3 and 2+4 share a row
        n = spec.names
        assert set(boxes) == {f"{n[0]} & {n[2]}", f"{n[1]} & {n[3]}"}
    else:
        assert set(boxes) == set(spec.names)
    for name, (page_no, frame) in boxes.items():
        page = sheet.pages[page_no]
        player = frame.data["player"]
        own = [t for t in page.items if isinstance(t, Text) and t.id.startswith(f"name-{player}")]
        assert "".join(t.text.replace(" ", "") for t in own) == name.replace(" ", "")
        assert all(name in t.text or t.text in name for t in own)
        outer = item_box(frame)
        assert outer is not None
        for text in own:
            assert text.size >= SEVEN_PT - 1e-6
            inner = item_box(text)
            assert inner is not None
            assert outer[0] < inner[0] and inner[2] < outer[2], (name, inner, outer)
            assert outer[1] < inner[1] and inner[3] < outer[3], (name, inner, outer)
        for item in page.items:
            if item is frame or item in own:
                continue
            ink = item_box(item)
            if ink is not None:
                assert not overlaps(outer, ink), f"{frame.id} runs into {item.id}"


@pytest.mark.parametrize("game", game_names())
def test_the_printed_spec_makes_the_same_named_sheet(game: str) -> None:
    spec = named_spec(game)
    sheet = make_sheet(spec)
    printed = [
        t.text for t in sheet.pages[0].items if isinstance(t, Text) and t.id.startswith("spec-")
    ]
    typed_back = SheetSpec.parse("".join(_rejoined(printed)))
    assert typed_back == spec
    qr = next(f for f in sheet.pages[0].features() if f.id == "qr-spec")
    assert isinstance(qr, Feature) and SheetSpec.parse(qr.data["text"]) == spec


def _rejoined(lines: list[str]) -> list[str]:
    """The footer's lines typed one after another: a line ending in a comma goes on unspaced."""
    return [
        line if line.endswith(",") or k == len(lines) - 1 else line + " "
        for k, line in enumerate(lines)
    ]


def test_a_sheet_without_names_has_no_name_boxes_and_an_x_to_write_in() -> None:
    sheet = make_sheet(SheetSpec.create("maze", seed=3))
    ids = {item.id for item in sheet.pages[0].items}
    assert not any(i.startswith("box-name-") for i in ids)
    letters = [
        t.text
        for t in sheet.pages[0].items
        if isinstance(t, Text) and t.id.startswith("letter-initials-")
    ]
    assert letters == ["X", "X"]


def test_named_rows_carry_the_initials_and_unnamed_rows_keep_their_x() -> None:
    sheet = make_sheet(SheetSpec.parse("vasarely seed=4 names=Mia+Rose,Leo"))
    letters = {
        t.id: t.text
        for t in sheet.pages[0].items
        if isinstance(t, Text) and t.id.startswith("letter-initials-")
    }
    assert letters == {
        "letter-initials-1": "MR",
        "letter-initials-2": "L",
        "letter-initials-3": "X",
        "letter-initials-4": "X",
    }


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("klee seed=1 names=Ann,Bob,Cyd", "3 names (Ann, Bob, Cyd), but Klee takes 2 players"),
        ("rings seed=1 players=3 names=Ann,Bob", "players=3 is given with 2 names"),
        ("rings seed=1 names=Ann,7up", "'7up' is not a player's name"),
        ("rings seed=1 names=Ann,Ann", "'Ann' is named twice"),
        ("rings seed=1 names=Ann,Bob,C\u202eD", "is not a player's name"),
        ("rings seed=1 class=5B,6A names=Ann,Bob", "class=5B,6A is not allowed"),
        ("rings seed=1 group=1000 names=Ann,Bob", "group=1000 is not allowed"),
    ],
)
def test_names_that_cannot_seat_the_game_are_refused_by_name(text: str, problem: str) -> None:
    from papergames.errors import SpecError

    with pytest.raises(SpecError, match=None) as caught:
        SheetSpec.parse(text)
    assert problem in str(caught.value)


def test_the_names_decide_the_count_of_players() -> None:
    spec = SheetSpec.parse("maze seed=2 names=Ann,Bob,Cyd")
    assert spec.params["players"] == 3
    assert str(spec) == "maze players=3 seed=2 names=Ann,Bob,Cyd"
    rows = [f.id for f in make_sheet(spec).pages[0].features() if f.id.startswith("box-name-")]
    assert rows == ["box-name-1", "box-name-2", "box-name-3"]


def test_a_transcript_of_a_named_sheet_takes_its_players_from_the_sheet() -> None:
    from papergames.play.checker import check_text

    text = "sheet: maze seed=1 names=Mia+Rose,Łukasz\nb2\n"
    verdict = check_text(text, "game.txt")
    assert verdict.players == ["Mia Rose", "Łukasz"]


@pytest.mark.parametrize("written", ["Ann, Bob", "Łukasz, Mia Rose", "Mia Rose, Ann"])
def test_a_players_line_that_disagrees_with_the_sheet_is_refused_with_both_lists(
    written: str,
) -> None:
    from papergames.play.transcript import TranscriptError, parse_transcript

    text = f"sheet: maze seed=1 names=Mia+Rose,Łukasz\nplayers: {written}\nb2\n"
    with pytest.raises(TranscriptError) as caught:
        parse_transcript(text, "game.txt")
    message = str(caught.value)
    assert f"the players are {written}, but the sheet was made for Mia Rose, Łukasz" in message
    assert "line 2" in message


def test_a_players_line_that_agrees_with_the_sheet_may_give_colours() -> None:
    from papergames.play.transcript import parse_transcript

    text = "sheet: maze seed=1 names=Mia+Rose,Łukasz\nplayers: Mia Rose (red), Łukasz\nb2\n"
    players = parse_transcript(text, "game.txt").players
    assert [(p.name, p.colour) for p in players] == [("Mia Rose", "red"), ("Łukasz", "")]


def test_the_hardest_names_come_back_identical_from_a_phone_photo_of_the_qr_code() -> None:
    import numpy as np

    from papergames.photo.camera import TIERS, photograph
    from papergames.photo.image import images_from_bytes
    from papergames.photo.read import read_page
    from papergames.photo.synthetic import finished_sheet

    spec = named_spec("mondrian", LONG_NAMES[:4])
    rng = np.random.default_rng(5)
    sheet = finished_sheet(spec, rng, pencils=("red", "blue", "green", "orange"))
    photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS["phone"], rng)
    opened = images_from_bytes(photo.data, "phone.jpg")[0]
    reading = read_page(opened.pixels, opened.source)
    assert reading.spec is not None
    assert reading.spec.names == LONG_NAMES[:4]


def test_the_named_example_names_its_movers_and_claims_without_a_players_line() -> None:
    from pathlib import Path

    from papergames.play.checker import check_text

    path = Path(__file__).resolve().parent.parent / "examples" / "cocomposite-named.txt"
    text = path.read_text(encoding="utf-8")
    assert not any(line.startswith("players:") for line in text.splitlines())
    assert "Łukasz Nowak: " in text
    verdict = check_text(text, path.name)
    assert verdict.ok
    assert verdict.players == ["Zoë", "Łukasz Nowak"]
    assert verdict.winners == ["Łukasz Nowak"]


def test_a_players_line_may_leave_out_a_player_who_did_not_play() -> None:
    from papergames.play.transcript import parse_transcript

    text = "sheet: maze players=3 seed=1 names=Mia+Rose,Leo,Łukasz\nplayers: Mia Rose, Łukasz\nb2\n"
    players = parse_transcript(text, "game.txt").players
    assert [p.name for p in players] == ["Mia Rose", "Łukasz"]
