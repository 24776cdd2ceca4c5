"""A captured space's colour is on one of its sides (photo/captures.py)."""

from __future__ import annotations

from shapely.geometry import LineString, box

from papergames import SheetSpec, make_sheet
from papergames.layouts.arp.rules import ArpRules
from papergames.photo.captures import follow_captures
from papergames.photo.colours import Decision
from papergames.photo.items import ReadItem, Sampling, read_items
from papergames.play.rules import Player

from playout import finished_arp_games

COLOURS = ("1", "2", "3")


def _space(n: int) -> ReadItem:
    return ReadItem(f"space-{n}", "space", Sampling.AREA, box(n, 0, n + 1, 1), box(n, 0, n + 1, 1))


def _side(n: int, *spaces: int) -> ReadItem:
    edge = LineString([(n, 0), (n, 1)])
    beside = tuple(f"space-{s}" for s in spaces)
    return ReadItem(f"segment-{n}", "segment", Sampling.LINE, edge, edge, beside=beside)


def _line(colour: str, misfits: dict[str, float], confidence: float = 0.9) -> Decision:
    scores = {name: misfits.get(name, 60.0) for name in COLOURS}
    scores[colour] = 0.0
    return Decision(colour, confidence, tuple(sorted(scores.items())))


def test_a_space_with_no_side_in_its_colour_gives_it_to_the_likeliest_side_flagged() -> None:
    items = [_space(0), _side(0, 0), _side(1, 0), _side(2, 0)]
    read = [Decision("2", 1.0), _line("1", {"2": 40.0}), _line("1", {"2": 9.0}), _line("3", {})]
    captured = follow_captures(items, read)
    found = captured.decisions
    assert [d.colour for d in found] == ["2", "1", "2", "3"]
    assert found[2].low
    assert found[0] == read[0] and found[1] == read[1] and found[3] == read[3]
    [note] = captured.notes
    said = note.said({"1": "red", "2": "blue", "3": "green"})
    assert said.startswith(
        "segment-1 is taken to be blue like space-0, though its pencil looks red"
    )
    assert "If it is red, space-0 breaks the rules" in said


def test_a_space_with_a_side_in_its_colour_adds_no_note() -> None:
    items = [_space(0), _side(0, 0), _side(1, 0)]
    read = [Decision("2", 1.0), _line("2", {}), _line("1", {"2": 1.0})]
    assert follow_captures(items, read).notes == []


def test_a_space_with_a_side_in_its_colour_changes_nothing() -> None:
    items = [_space(0), _side(0, 0), _side(1, 0)]
    read = [Decision("2", 1.0), _line("2", {}), _line("1", {"2": 1.0})]
    assert follow_captures(items, read).decisions == read


def test_a_space_read_in_doubt_or_empty_changes_nothing() -> None:
    items = [_space(0), _side(0, 0), _side(1, 0)]
    sides = [_line("1", {"2": 2.0}), _line("1", {"2": 3.0})]
    for space in (Decision("2", 0.3), Decision(None, 1.0)):
        assert follow_captures(items, [space, *sides]).decisions == [space, *sides]


def test_a_line_read_empty_is_the_first_to_take_the_colour() -> None:
    items = [_space(0), _side(0, 0), _side(1, 0)]
    read = [Decision("2", 1.0), _line("1", {"2": 0.5}), Decision(None, 0.4)]
    assert [d.colour for d in follow_captures(items, read).decisions] == ["2", "1", "2"]


def test_the_only_side_of_its_colour_round_another_captured_space_keeps_it() -> None:
    items = [_space(0), _space(1), _side(0, 0, 1), _side(1, 0), _side(2, 1)]
    read = [
        Decision("2", 1.0),
        Decision("1", 1.0),
        _line("1", {"2": 0.5}),
        _line("3", {"2": 30.0}),
        _line("3", {}),
    ]
    found = follow_captures(items, read).decisions
    assert [d.colour for d in found] == ["2", "1", "1", "2", "3"]


def _finished_arp_games(count: int) -> list[tuple[tuple[ReadItem, ...], dict[str, str]]]:
    return finished_arp_games(count, "captures-test")


def _read_as(items: tuple[ReadItem, ...], truth: dict[str, str]) -> list[Decision]:
    words = sorted(set(truth.values()))
    return [
        Decision(truth.get(item.id), 1.0)
        if item.role != "segment"
        else Decision(
            truth[item.id],
            0.9,
            tuple((w, 0.0 if w == truth[item.id] else 60.0) for w in words),
        )
        for item in items
    ]


def test_every_finished_legal_arp_game_read_right_is_left_as_it_is() -> None:
    for items, truth in _finished_arp_games(6):
        read = _read_as(items, truth)
        assert follow_captures(items, read).decisions == read


def test_the_lone_side_that_closed_a_space_misread_as_its_neighbours_colour_is_put_right() -> None:
    mended = 0
    for items, truth in _finished_arp_games(6):
        words = sorted(set(truth.values()))
        where = {item.id: k for k, item in enumerate(items)}
        for space in (item for item in items if item.role == "space"):
            sides = [k for k, item in enumerate(items) if space.id in item.beside]
            own = [k for k in sides if truth[items[k].id] == truth[space.id]]
            if len(own) != 1:
                continue
            k = own[0]
            others = [w for w in words if w != truth[space.id]]
            wrong = others[0]
            read = _read_as(items, truth)
            scores = tuple(
                (w, 0.0 if w == wrong else 4.0 if w == truth[space.id] else 60.0) for w in words
            )
            read[k] = Decision(wrong, 0.9, scores)
            found = follow_captures(items, read).decisions
            needed_elsewhere = any(
                truth.get(name) == wrong
                and not any(
                    truth[items[j].id] == wrong
                    for j, item in enumerate(items)
                    if name in item.beside and j != k
                )
                for name in items[k].beside
                if name in where
            )
            if needed_elsewhere:
                assert found[k].colour == wrong
                continue
            assert found[k].colour == truth[space.id] and found[k].low
            assert [d for j, d in enumerate(found) if j != k] == [
                d for j, d in enumerate(read) if j != k
            ]
            mended += 1
    assert mended > 20


def test_the_reader_knows_each_arp_space_by_the_same_sides_as_the_rules() -> None:
    for seed in (1, 2, 3):
        sheet = make_sheet(SheetSpec.create("arp", seed=seed))
        rules = ArpRules(sheet, [Player("A"), Player("B")], ArpRules.parse_options({}))
        items = read_items(sheet.page, "arp")
        sides: dict[str, set[str]] = {item.id: set() for item in items if item.role == "space"}
        for item in items:
            for space in item.beside:
                sides[space].add(item.id)
        assert sides == {
            rules.space_ids[k]: {rules.segment_ids[t] for t in segments}
            for k, segments in enumerate(rules.space_segments)
        }
