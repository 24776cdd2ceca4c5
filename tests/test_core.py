"""The core pieces on their own: parameters, specs, random streams, topology, geometry."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import LineString, box

from papergames.errors import SpecError
from papergames.games import game_names, get_layout
from papergames.sheets.geometry import dash_polyline, hatch_lines
from papergames.sheets.params import Param, ParamSet
from papergames.sheets.rng import Rng
from papergames.sheets.spec import SheetSpec
from papergames.sheets.topology import Topology, faces_from_lines, tiling_gaps


def test_rng_streams_are_reproducible_and_independent() -> None:
    a = [Rng(7, "x").random() for _ in range(3)]
    assert a == [Rng(7, "x").random() for _ in range(3)]
    first = Rng(7, "x")
    second = Rng(7, "y")
    assert [first.random() for _ in range(5)] != [second.random() for _ in range(5)]


def test_rng_randint_covers_range_evenly() -> None:
    rng = Rng(1, "even")
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.randint(1, 6) - 1] += 1
    assert all(800 < c < 1200 for c in counts)


def test_rng_sequence_is_pinned() -> None:
    # A sheet must come out the same on every Python and platform: the stream for a seed is a
    # contract, so its first draws are pinned here (sha256 seeding + Mersenne Twister random()).
    rng = Rng(42, "pin")
    assert [round(rng.random(), 12) for _ in range(3)] == [
        0.734605090054,
        0.126844991113,
        0.808921779627,
    ]
    rng = Rng(42, "pin")
    assert [rng.randint(1, 100) for _ in range(5)] == [74, 13, 81, 17, 29]


PARAMS = ParamSet(
    [
        Param.int("n", 6, 3, 12, "count"),
        Param.bool("labels", True, "labels"),
        Param.choice("mode", "a", ["a", "b"], "mode"),
        Param.float("gap", 1.5, 0.5, 4.0, "gap"),
        Param.names("names", "players"),
    ]
)


def test_params_parse_and_format_round_trip() -> None:
    values = PARAMS.parse_items(
        {"n": "7", "labels": "off", "mode": "B", "gap": "2.25", "names": "Ann, Bob"}, "g"
    )
    assert values == {"n": 7, "labels": False, "mode": "b", "gap": 2.25, "names": ("Ann", "Bob")}
    text = PARAMS.non_default(values)
    assert PARAMS.parse_items(text, "g") == values


@pytest.mark.parametrize(
    ("key", "value", "needle"),
    [
        ("n", "13", "n takes a whole number from 3 to 12"),
        ("n", "x", "n takes a whole number"),
        ("labels", "maybe", "on or off"),
        ("mode", "c", "one of a, b"),
        ("gap", "9", "from 0.5 to 4"),
        ("bogus", "1", "unknown parameter 'bogus'"),
    ],
)
def test_params_reject_with_key_and_range(key: str, value: str, needle: str) -> None:
    with pytest.raises(SpecError, match=needle):
        PARAMS.parse_items({key: value}, "g")


@pytest.mark.parametrize("game", game_names())
def test_spec_text_round_trips_for_every_game(game: str) -> None:
    layout = get_layout(game)
    spec = SheetSpec.create(game, seed=123, paper="letter")
    again = SheetSpec.parse(str(spec))
    assert again == spec
    assert str(spec).startswith(game + " ")
    assert "seed=123" in str(spec) and "paper=letter" in str(spec)
    for p in layout.params:
        assert f"{p.name}=" not in str(spec), "defaults are left out of the canonical text"


@pytest.mark.parametrize(
    "text",
    ["", "nosuchgame seed=1", "rings circles", "rings seed=x", "rings seed=1 seed=2", "rings"],
)
def test_spec_parse_rejects_malformed_text(text: str) -> None:
    with pytest.raises(SpecError):
        SheetSpec.parse(text)


@given(st.text(max_size=60))
def test_spec_parse_raises_only_spec_errors(text: str) -> None:
    with contextlib.suppress(SpecError):
        SheetSpec.parse(text)


def test_topology_edges_and_corners() -> None:
    cells = {f"{c}{r}": box(c, r, c + 1, r + 1) for c in range(3) for r in range(3)}
    topo = Topology(cells)
    assert topo.neighbours["11"] == {"01", "21", "10", "12"}
    assert topo.corner_neighbours["11"] == {"00", "02", "20", "22"}
    assert topo.neighbours["00"] == {"10", "01"}


def test_faces_from_lines_counts_regions() -> None:
    frame = LineString([(0, 0), (4, 0), (4, 4), (0, 4), (0, 0)])
    cross = [LineString([(2, -1), (2, 5)]), LineString([(-1, 2), (5, 2)])]
    faces = faces_from_lines([frame, *cross])
    assert len(faces) == 4
    overlap, uncovered = tiling_gaps(faces, box(0, 0, 4, 4))
    assert overlap < 1e-9 and uncovered < 1e-9


def test_hatch_lines_stay_inside_shape() -> None:
    shape = box(0, 0, 10, 5)
    lines = hatch_lines(shape, 45, 1.0)
    assert len(lines) > 5
    assert all(shape.buffer(1e-9).contains(line) for line in lines)


def test_dash_pattern_covers_half_of_a_line() -> None:
    pieces = dash_polyline([(0, 0), (10, 0), (10, 10)], (1.0, 1.0))
    inked = sum(LineString(p).length for p in pieces)
    assert abs(inked - 10.0) < 1e-9
    assert all(abs(LineString(p).length - 1.0) < 1e-9 for p in pieces)
