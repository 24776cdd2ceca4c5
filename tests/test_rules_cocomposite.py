"""Co-Compositeness rules: each rule legal and illegal, random complete games, the referee."""

from __future__ import annotations

import math

import pytest

from papergames.play.rules import IllegalMove, MoveSyntaxError

from playout import new_game, play, random_game, replay


def test_first_number_goes_anywhere_and_the_next_must_touch_it() -> None:
    game = new_game("cocomposite size=6 seed=1")
    assert len(list(game.legal_moves(game.initial()))) == 36
    state = play(game, "a1")
    assert sorted(game.format_move(m) for m in game.legal_moves(state)) == ["a2", "b1", "b2"]
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("c3", state))
    assert info.value.code == "not-adjacent"
    assert game.to_move(state) == 1


def test_a_number_may_join_only_a_co_composite_one_and_scores() -> None:
    game = new_game("cocomposite size=6 seed=1")
    # 1 b2, 3 c2, 5 b2? gcd(1, 5) = 1: refused.
    state = play(game, "b2", "c2")
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("b2", state))
    assert info.value.code == "coprime"
    # 1 b2, 3 c2, 5 c3, 7 d3, 9 c2: gcd(3, 9) = 3, so 9 joins 3 and Ann (the mover) scores.
    state = play(game, "b2", "c2", "c3", "d3")
    assert game.to_move(state) == 0
    state = game.apply(state, game.parse_move("c2", state))
    assert state.squares[game.index["c2"]] == (3, 9)
    assert game.scores(state) == (1, 0)


def test_a_square_never_holds_three_numbers() -> None:
    game = new_game("cocomposite size=6 seed=1")
    # 3 and 9 share c2; 11 goes to d2, and 13 back into c2 would make three numbers there.
    state = play(game, "b2", "c2", "c3", "d3", "c2", "d2")
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("c2", state))
    assert info.value.code == "full"


def test_unknown_squares_are_syntax_errors() -> None:
    game = new_game("cocomposite size=4 seed=1")
    for text in ("e1", "a5", "i1", "", "b"):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(text, game.initial())


def test_the_game_ends_exactly_when_the_mover_has_no_square() -> None:
    game = new_game("cocomposite size=4 seed=1")
    state, _ = random_game(game, 3)
    assert game.is_over(state) and not list(game.legal_moves(state))


@pytest.mark.parametrize(("size", "players"), [(4, 2), (5, 3), (8, 2), (16, 2)])
def test_random_games_end_replay_and_score_by_the_rules(size: int, players: int) -> None:
    game = new_game(f"cocomposite size={size} seed=2", players)
    for seed in range(200 if size < 16 else 50):
        state, moves = random_game(game, seed)
        doubled = [held for held in state.squares if len(held) == 2]
        # Every point is one doubled square, every pair is co-composite, numbers are 1, 3, 5...
        assert sum(game.scores(state)) == len(doubled)
        assert all(math.gcd(*held) > 1 for held in doubled)
        written = sorted(n for held in state.squares for n in held)
        assert written == list(range(1, 2 * len(moves), 2))
        verdict = replay(game, moves)
        assert verdict.legal and verdict.ok
        assert verdict.scores == game.scores(state)
        assert [s.scores for s in verdict.steps][-1] == game.scores(state)
