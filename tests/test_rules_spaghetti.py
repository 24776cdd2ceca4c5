"""Uncooked Spaghetti rules: shading, lines, crossings scored for the opponent, the stuck claim."""

from __future__ import annotations

from typing import Any

import pytest
from shapely.geometry import LineString, box

from papergames.play.rules import IllegalMove, MoveSyntaxError, Rules

from playout import new_game, play, random_game, refused, replay

SHADED_3 = ("a1", "b2", "c3")  # the diagonal of a 3 by 3 grid


def test_shading_comes_first_and_alternates_with_the_starter_shading_more() -> None:
    game = new_game("spaghetti size=3 seed=1")
    state = play(game, "a1")
    assert refused(game, state, "a1") == "shaded"
    assert refused(game, state, "A2-D2") == "shade-first"
    assert [game.to_move(play(game, *SHADED_3[:k])) for k in range(3)] == [0, 1, 0]
    # n = 3: Ann shades two squares, Bob one; Bob, who shaded second, draws the first line.
    state = play(game, *SHADED_3)
    assert game.to_move(state) == 1
    assert refused(game, state, "a2") == "lines-now"


def test_a_line_joins_free_vertices_on_two_different_sides() -> None:
    game = new_game("spaghetti size=3 seed=1")
    state = play(game, *SHADED_3)
    assert refused(game, state, "B1-C1") == "same-side"
    assert refused(game, state, "A1-A4") == "same-side", "a corner lies on both its sides"
    assert refused(game, state, "D1-D3") == "same-side", "the corner D1 is on the right side too"
    state = game.apply(state, game.parse_move("B1-D2", state))
    assert refused(game, state, "D2-A3") == "vertex-used"


def test_a_line_may_touch_shaded_squares_but_not_pass_through_them() -> None:
    game = new_game("spaghetti size=3 seed=1")
    state = play(game, *SHADED_3)
    assert refused(game, state, "A2-D3") == "through-shaded"
    # B1-D3 runs along edges and corners of b2 and c3 only; the diagonal A1-D4 would cut them.
    game.apply(state, game.parse_move("B1-D3", state))
    with pytest.raises(IllegalMove):
        game.apply(state, game.parse_move("A1-D4", state))
    # Lines along grid lines are allowed: B1-B4 runs between a1/b2 without entering them.
    game.apply(state, game.parse_move("B1-B4", state))


def test_each_line_crossed_scores_a_point_for_the_opponent() -> None:
    game = new_game("spaghetti size=3 seed=1")
    state = play(game, "a1", "c1", "a3", "B1-B4", "A2-D2")
    # Bob drew B1-B4; Ann's A2-D2 crosses it: Bob gains a point.
    assert game.scores(state) == (0, 1)
    state = game.apply(state, game.parse_move("C1-C4", state))
    assert game.scores(state) == (1, 1)


def test_a_stuck_claim_is_answered_with_a_line_when_one_exists() -> None:
    game = new_game("spaghetti size=3 seed=1")
    state = play(game, *SHADED_3)
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("stuck", state))
    assert info.value.code == "not-stuck" and "can still be drawn" in info.value.reason
    line = info.value.reason.split(": ")[1].split()[0]
    game.apply(state, game.parse_move(line, state))


def test_notation_errors() -> None:
    game = new_game("spaghetti size=3 seed=1")
    for text in ("z9", "A1-Q1", "B2-A1", "A1-A1", "unstuck"):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(text, game.initial())


def unit(game: Rules[Any, Any], vertex: int) -> tuple[int, int]:
    return game.vertices[vertex]  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize(("size", "games"), [(3, 200), (5, 200), (8, 200)])
def test_random_games_end_stuck_and_agree_with_shapely(size: int, games: int) -> None:
    game = new_game(f"spaghetti size={size} seed=1")
    for seed in range(games):
        state, moves = random_game(game, seed)
        assert state.ended and len(state.filled) == size
        lines = [LineString([unit(game, a), unit(game, b)]) for a, b in state.lines]
        shaded = [
            box(c + 1, r + 1, c + 2, r + 2) for r, c in (divmod(k, size) for k in state.filled)
        ]
        # Every line keeps out of the shaded squares' insides; points = crossings, all counted.
        assert not any(line.relate_pattern(sq, "T********") for line in lines for sq in shaded)
        crossings = sum(a.crosses(b) for i, a in enumerate(lines) for b in lines[:i])
        assert sum(game.scores(state)) == crossings
        # Stuck means stuck: no free pair of vertices on different sides has a clear line.
        used = {v for pair in state.lines for v in pair}
        for a, b in game.pairs:  # type: ignore[attr-defined]
            if a in used or b in used:
                continue
            line = LineString([unit(game, a), unit(game, b)])
            assert any(line.relate_pattern(sq, "T********") for sq in shaded)
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == game.scores(state)
