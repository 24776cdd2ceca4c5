"""A doubtful piece of an Arp line is weighed against the pieces beside it (photo/runs.py)."""

from __future__ import annotations

from shapely.geometry import LineString, box

from papergames.photo.colours import LOW, Decision
from papergames.photo.items import ReadItem, Sampling
from papergames.photo.runs import RUN_STAY, _links, follow_runs

from playout import finished_arp_games


def _piece(n: int, line: str = "line-1", beside: tuple[str, ...] = ()) -> ReadItem:
    geometry = LineString([(n, 0), (n + 1, 0)])
    ends = (f"point-{n}", f"point-{n + 1}")
    return ReadItem(
        f"segment-{n}",
        "segment",
        Sampling.LINE,
        geometry,
        geometry,
        line=line,
        ends=ends,
        beside=beside,
    )


def _space(n: int) -> ReadItem:
    return ReadItem(f"space-{n}", "space", Sampling.AREA, box(n, 0, n + 1, 1), box(n, 0, n + 1, 1))


SURE_1 = Decision("1", 0.9, (("1", 0.1), ("2", 9.0)))
SURE_2 = Decision("2", 0.9, (("1", 9.0), ("2", 0.1)))
TORN = Decision("2", 0.3, (("1", 1.3), ("2", 0.7), ("3", 40.0)))
"""Read as 2, but hardly nearer it than 1: a light blue trace over purple hatching."""


def test_a_doubtful_piece_between_two_sure_pieces_of_one_colour_takes_it_and_stays_flagged() -> (
    None
):
    read = follow_runs([_piece(0), _piece(1), _piece(2)], [SURE_1, TORN, SURE_1])
    assert [d.colour for d in read] == ["1", "1", "1"]
    assert read[1].low and read[1].confidence <= TORN.confidence
    assert read[0] == SURE_1 and read[2] == SURE_1


def test_a_sure_piece_keeps_its_colour_whatever_its_neighbours() -> None:
    read = follow_runs([_piece(0), _piece(1), _piece(2)], [SURE_1, SURE_2, SURE_1])
    assert [d.colour for d in read] == ["1", "2", "1"]


def test_a_doubtful_piece_whose_own_pencil_is_clear_keeps_its_colour() -> None:
    clear = Decision("2", 0.3, (("1", 30.0), ("2", 0.5)))
    read = follow_runs([_piece(0), _piece(1), _piece(2)], [SURE_1, clear, SURE_1])
    assert read[1].colour == "2"


def test_pieces_of_two_lines_that_cross_are_not_neighbours() -> None:
    crossing = ReadItem(
        "segment-9",
        "segment",
        Sampling.LINE,
        LineString([(1, -1), (1, 0)]),
        LineString([(1, -1), (1, 0)]),
        line="line-2",
        ends=("point-9", "point-1"),
    )
    read = follow_runs([_piece(0), crossing, _piece(1)], [SURE_1, TORN, SURE_1])
    assert read[1].colour == "2"


def test_two_doubtful_pieces_in_a_row_follow_the_sure_pieces_round_them() -> None:
    pieces = [_piece(n) for n in range(4)]
    read = follow_runs(pieces, [SURE_1, TORN, TORN, SURE_1])
    assert [d.colour for d in read] == ["1", "1", "1", "1"]
    assert read[1].confidence < LOW and read[2].confidence < LOW


def test_neighbouring_pieces_of_arp_lines_share_their_colour_as_often_as_the_reader_assumes() -> (
    None
):
    same = pairs = 0
    for items, colour in finished_arp_games(12, "runs-test"):
        for k, neighbours in _links(items).items():
            for j in neighbours:
                pairs += 1
                same += colour.get(items[k].id) == colour.get(items[j].id)
    assert pairs > 1000
    assert abs(same / pairs - RUN_STAY) < 0.04


HATCHED_2 = Decision("2", 1.0)


def test_a_sure_piece_in_the_colour_of_the_space_beside_it_between_two_of_another_is_flagged() -> (
    None
):
    """Its trace may be hidden under that space's hatching: the colour is kept, flagged."""
    pieces = [_piece(0), _piece(1, beside=("space-1",)), _piece(2), _space(1)]
    read = follow_runs(pieces, [SURE_1, SURE_2, SURE_1, HATCHED_2])
    assert [d.colour for d in read] == ["1", "2", "1", "2"]
    assert read[1].low and not read[0].low and not read[2].low and not read[3].low


def test_a_sure_piece_is_not_flagged_unless_both_neighbours_and_a_space_beside_it_say_so() -> None:
    beside_other = [_piece(0), _piece(1, beside=("space-1",)), _piece(2), _space(1)]
    read = follow_runs(beside_other, [SURE_1, SURE_2, SURE_1, Decision("3", 1.0)])
    assert not read[1].low
    at_the_end = [_piece(0), _piece(1, beside=("space-1",)), _space(1)]
    assert not follow_runs(at_the_end, [SURE_1, SURE_2, HATCHED_2])[1].low
    neighbours_differ = [_piece(0), _piece(1, beside=("space-1",)), _piece(2), _space(1)]
    read = follow_runs(neighbours_differ, [SURE_1, SURE_2, Decision("3", 0.9), HATCHED_2])
    assert not read[1].low


def test_on_legal_arp_games_read_perfectly_few_pieces_are_flagged_and_none_changes() -> None:
    """What the hidden-trace check costs a sheet read without a fault: a piece alone in its
    colour between two of another, next to a space it captured, is legal but rare."""
    pieces = flagged = 0
    for items, colour in finished_arp_games(12, "runs-test"):
        read = follow_runs(items, [Decision(colour.get(item.id), 1.0) for item in items])
        assert [d.colour for d in read] == [colour.get(item.id) for item in items]
        lines = [k for k, item in enumerate(items) if item.line is not None]
        pieces += len(lines)
        flagged += sum(read[k].low for k in lines)
    assert pieces > 1000
    assert 0 < flagged <= 0.02 * pieces


CLEAR_2 = Decision("2", 0.3, (("1", 30.0), ("2", 0.5)))
"""Doubtful, but plainly nearer 2 than 1 by its pencil."""


def test_a_doubtful_piece_in_the_colour_of_the_hatching_beside_it_follows_its_sure_neighbours() -> (
    None
):
    """Its band may show that space's hatching rather than its trace, so its pencil, however
    plainly 2, cannot tell 2 from 1: the two sure pieces round it settle it, flagged."""
    pieces = [_piece(0), _piece(1, beside=("space-1",)), _piece(2), _space(1)]
    read = follow_runs(pieces, [SURE_1, CLEAR_2, SURE_1, HATCHED_2])
    assert [d.colour for d in read] == ["1", "1", "1", "2"]
    assert read[1].low and read[1].scores == CLEAR_2.scores


def test_a_doubtful_piece_keeps_its_colour_unless_the_hatching_and_two_sure_neighbours_agree() -> (
    None
):
    def middle(decisions: list[Decision], beside: tuple[str, ...] = ("space-1",)) -> str | None:
        pieces = [_piece(0), _piece(1, beside=beside), _piece(2), _space(1)]
        return follow_runs(pieces, decisions)[1].colour

    assert middle([SURE_1, CLEAR_2, SURE_1, Decision("3", 1.0)]) == "2"
    assert middle([SURE_1, CLEAR_2, SURE_1, HATCHED_2], beside=()) == "2"
    assert middle([SURE_1, CLEAR_2, TORN, HATCHED_2]) == "2"
    assert middle([SURE_1, CLEAR_2, Decision("3", 0.9, (("3", 0.1),)), HATCHED_2]) == "2"
    at_the_end = [_piece(0), _piece(1, beside=("space-1",)), _space(1)]
    assert follow_runs(at_the_end, [SURE_1, CLEAR_2, HATCHED_2])[1].colour == "2"


def test_on_legal_arp_games_read_right_few_doubtful_pieces_follow_their_neighbours() -> None:
    """What it costs: a piece alone in its captor's colour between two of another, beside the
    space it captured, is legal, and read in doubt it follows its neighbours. Every third piece
    is read in doubt here, plainly in its own colour; the others surely."""
    pieces = changed = 0
    for items, colour in finished_arp_games(12, "runs-test"):
        lines = [k for k, item in enumerate(items) if item.line is not None]
        doubtful = {k for k in lines[::3] if colour.get(items[k].id) is not None}
        decisions = []
        for k, item in enumerate(items):
            name = colour.get(item.id)
            others = [(f"player{n}", 30.0) for n in range(1, 5) if f"player{n}" != name]
            if k in doubtful and name is not None:
                decisions.append(Decision(name, 0.3, ((name, 0.5), *others)))
            else:
                decisions.append(Decision(name, 1.0))
        read = follow_runs(items, decisions)
        pieces += len(doubtful)
        changed += sum(read[k].colour != colour.get(items[k].id) for k in doubtful)
    assert pieces > 300
    assert changed <= 0.01 * pieces
