"""Crossing the Rings rules: which sections a line passes through, turn order, rounds, options."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from shapely.geometry import LineString

from papergames.layouts.rings.rules import RingsRules
from papergames.layouts.rings.sheet import EndData, PageData
from papergames.play.checker import Verdict, check_text
from papergames.play.rules import IllegalMove, MoveSyntaxError
from papergames.sheets.model import data_as
from papergames.sheets.rng import Rng

from playout import new_game, random_game, replay


def points(game: Any, page: int = 0) -> dict[str, tuple[float, float]]:
    return {
        f.label: f.geometry.coords[0]
        for f in game.sheet.pages[page].features()
        if f.id.startswith("point-")
    }


def passes_inside(line: LineString, shape: Any, margin: float) -> bool:
    return bool(line.relate_pattern(shape.buffer(margin), "T********"))


@pytest.mark.parametrize(
    "spec", ["rings seed=3", "rings circles=9 seed=8", "rings centre=on seed=5"]
)
def test_the_sections_a_line_fills_agree_with_the_printed_sections(spec: str) -> None:
    """Sandwich the exact answer between the printed polygons shrunk and grown by 0.1 mm
    (the printed circles are polylines within 0.05 mm of the true ones)."""
    game = new_game(spec)
    assert isinstance(game, RingsRules)
    geometry = game.rounds[0]
    where = points(game)
    spaces = game.sheet.pages[0].spaces()
    rng = Rng(1, "lines")
    for _ in range(300):
        a, b = sorted(rng.sample(range(len(geometry.labels)), 2))
        passed, beside = geometry.crossing(a, b)
        line = LineString([where[geometry.labels[a]], where[geometry.labels[b]]])
        for space_id, shape in spaces.items():
            number = int(space_id.split("-")[1])
            if passes_inside(line, shape, -0.1):
                assert number in passed | beside, (geometry.labels[a], geometry.labels[b], space_id)
            if number in passed:
                assert passes_inside(line, shape, 0.1), (geometry.labels[a], geometry.labels[b])


def cut_ends(game: RingsRules, ring: int) -> tuple[str, str]:
    segment = next(
        f
        for f in game.sheet.pages[0].features()
        if f.id.startswith("segment-") and f.data["ring"] == ring
    )
    inner, outer = segment.data["ends"]
    return inner, outer


def test_a_line_along_a_cut_is_illegal_unless_the_option_allows_it() -> None:
    game = new_game("rings seed=3")
    assert isinstance(game, RingsRules)
    move = cut_ends(game, 3)
    with pytest.raises(IllegalMove) as info:
        game.apply(game.initial(), move)
    assert info.value.code == "along-cut"
    assert move not in set(game.legal_moves(game.initial()))
    allowed = new_game("rings seed=3", coincide="allowed")
    assert isinstance(allowed, RingsRules)
    state = allowed.apply(allowed.initial(), move)
    geometry = allowed.rounds[0]
    passed, beside = geometry.crossing(geometry.index[move[0]], geometry.index[move[1]])
    assert len(beside) == 2 and not passed, "only the two sections beside the cut are touched"
    assert sum(state.scores) == 0 and all(o < 0 for o in state.owners)


def test_a_line_between_neighbouring_ends_of_one_section_fills_only_that_section() -> None:
    game = new_game("rings seed=3")
    assert isinstance(game, RingsRules)
    geometry = game.rounds[0]
    ring = geometry.rings[4]
    # Outer ends (on circle F) of the two closest neighbouring cuts of ring 5: the chord between
    # them stays inside circle F and, being shallow, above circle E: it crosses one section.
    k = len(ring.cuts)
    i = min(range(k), key=lambda j: (ring.cuts[(j + 1) % k] - ring.cuts[j]) % math.tau)
    gap = (ring.cuts[(i + 1) % k] - ring.cuts[i]) % math.tau
    assert ring.outer * (1 - math.cos(gap / 2)) < ring.outer - ring.inner
    outer = {
        round(geometry.angle[n], 9): n for n, label in enumerate(geometry.labels) if label[0] == "F"
    }
    a, b = outer[round(ring.cuts[i], 9)], outer[round(ring.cuts[(i + 1) % k], 9)]
    passed, beside = geometry.crossing(a, b)
    assert passed == {ring.first + i} and not beside


def test_turn_order_rotates_the_divider_who_always_draws_last() -> None:
    game = new_game("rings rounds=3 seed=2", 3)
    assert isinstance(game, RingsRules)
    assert [game.order(r) for r in range(3)] == [[1, 2, 0], [2, 0, 1], [0, 1, 2]]
    state, moves = random_game(game, 1)
    assert len(moves) == 9 and game.is_over(state)


def test_filled_sections_keep_their_first_colour_and_rounds_add_up() -> None:
    game = new_game("rings rounds=2 seed=2", 3)
    assert isinstance(game, RingsRules)
    state = game.initial()
    first = game.random_move(state, Rng(5, "t"))
    after = game.apply(state, first)
    assert sum(o >= 0 for o in after.owners) == game.scores(after)[1] > 0
    again = game.apply(after, first)  # the same line again fills nothing new
    assert after.owners == again.owners and game.scores(again) == game.scores(after)
    last = game.apply(again, first)
    assert last.round == 1 and sum(o >= 0 for o in last.owners) == 0, "round 2 starts blank"


def test_labels_must_be_printed_on_the_rounds_page() -> None:
    game = new_game("rings seed=2")
    for text in ("A1", "A1-Z9", "A1-A1", "Q3-B2"):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(text, game.initial())


@pytest.mark.parametrize(
    ("spec", "players", "options"),
    [
        ("rings seed=1", 2, {}),
        ("rings circles=4 rounds=3 seed=2", 3, {}),
        ("rings circles=8 centre=on seed=3", 4, {"coincide": "allowed"}),
    ],
)
def test_random_games_end_replay_and_score_each_section_once(
    spec: str, players: int, options: dict[str, str]
) -> None:
    game = new_game(spec, players, **options)
    assert isinstance(game, RingsRules)
    for seed in range(200):
        state, moves = random_game(game, seed)
        assert len(moves) == players * len(game.rounds)
        assert sum(game.scores(state)) <= sum(r.spaces + 1 for r in game.rounds)
        assert sum(o >= 0 for o in state.owners) <= game.rounds[-1].spaces + 1
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == game.scores(state)
    assert math.isfinite(sum(game.scores(state)))


# On "rings seed=1" the line B1-D20 passes through spaces 1, 4, 5 and 12, but into space-1 by
# 0.025 mm only: it runs that little way inside circle 2 before crossing out again.
HAIRLINE_GAME = "sheet: rings seed=1\nplayers: Ann, Bob\n{options}Bob: B1-D20\nAnn: D1-E3\n"


def hairline_verdict(options: str = "") -> Verdict:
    verdict = check_text(HAIRLINE_GAME.format(options=f"options: {options}\n" if options else ""))
    assert isinstance(verdict, Verdict) and verdict.legal and verdict.over
    return verdict


def test_a_hairline_pass_is_reported_and_the_option_decides_whether_it_counts() -> None:
    exact = hairline_verdict()
    assert exact.scores == (3, 4), "every pass counts by default, however shallow"
    (note,) = [n for n in exact.notes if n.startswith("hairline")]
    assert "Bob's line B1-D20 passes only 0.025 mm into space-1" in note
    assert "round 1" in note and "counted: it filled the section" in note
    agreed = hairline_verdict("hairline=0.05")
    assert agreed.scores == (3, 3), "space-1 is not Bob's when the pass is too shallow"
    (note,) = [n for n in agreed.notes if n.startswith("hairline")]
    assert "0.025 mm into space-1" in note and "not counted (option hairline=0.05)" in note
    finer = hairline_verdict("hairline=0.02")
    assert finer.scores == (3, 4) and any("0.025 mm" in n for n in finer.notes)
    wider = hairline_verdict("hairline=0.5")
    assert wider.scores[1] < 4 and len([n for n in wider.notes if "hairline" in n]) >= 1


def test_hairline_depths_agree_with_dense_sampling() -> None:
    """The depth of a pass, measured independently: points every 0.2 micrometres along the
    line, each placed in its ring and section by polar coordinates, with its distance to the
    section's border (circles and the two cuts)."""
    game = new_game("rings seed=1")
    assert isinstance(game, RingsRules)
    geometry = game.rounds[0]
    page = game.sheet.pages[0]
    radii = data_as(page.data, PageData)["radii"]
    ends: dict[int, list[float]] = {}
    for f in page.features():
        if f.id.startswith("point-"):
            end = data_as(f.data, EndData)
            if end["circle"] == end["ring"]:  # the inner end of a cut of that ring
                ends.setdefault(end["ring"], []).append(end["angle"])
    cases = 0
    for first, second in (("B1", "D20"), ("B1", "E21"), ("C1", "F11"), ("C2", "E1")):
        a, b = geometry.index[first], geometry.index[second]
        for space, depth in geometry.shallow(a, b, 0.05).items():
            ring = next(r for r in geometry.rings if r.first <= space < r.first + len(r.cuts))
            m = geometry.rings.index(ring) + 1
            cuts = sorted(ends[m])
            assert list(ring.cuts) == pytest.approx(cuts)
            i = space - ring.first
            start, stop = cuts[i], cuts[(i + 1) % len(cuts)]
            width = (stop - start) % math.tau or math.tau
            (px, py), (qx, qy) = geometry.xy[a], geometry.xy[b]
            count = int(math.hypot(qx - px, qy - py) / 2e-4)
            t = np.linspace(0.0, 1.0, count)
            x, y = px + t * (qx - px), py + t * (qy - py)
            r = np.hypot(x, y)
            offset = (np.arctan2(x, y) - start) % math.tau
            inside = (r > radii[m - 1]) & (r < radii[m]) & (offset > 0) & (offset < width)
            clear = np.minimum(r - radii[m - 1], radii[m] - r)
            for angle in (start, stop):
                along = x * math.sin(angle) + y * math.cos(angle)
                across = np.abs(x * math.cos(angle) - y * math.sin(angle))
                below = np.clip(along, radii[m - 1], radii[m])
                gap = np.hypot(along - below, across)
                clear = np.minimum(clear, gap)
            assert float(clear[inside].max()) == pytest.approx(depth, abs=3e-4), (first, space)
            cases += 1
    assert cases >= 4
