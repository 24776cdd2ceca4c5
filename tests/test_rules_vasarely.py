"""Vasarely rules: the book's 8-point cube, the number sequence, cubes in play, random games."""

from __future__ import annotations

import pytest

from papergames.layouts.vasarely.rules import EMPTY, PASS, VasarelyRules, VasarelyState
from papergames.play.rules import IllegalMove, MoveSyntaxError

from playout import new_game, random_game, replay


def rules(spec: str = "vasarely seed=1", players: int = 4, **options: str) -> VasarelyRules:
    game = new_game(spec, players, **options)
    assert isinstance(game, VasarelyRules)
    return game


def refused(game: VasarelyRules, state: VasarelyState, move: int) -> str:
    with pytest.raises(IllegalMove) as info:
        game.apply(state, move)
    return info.value.code


def test_completing_a_cube_scores_its_spaces_of_other_colours() -> None:
    """The book's example: 3 red, 2 blue, 1 yellow and 5 green; red completes it: 8 points."""
    for seed in range(1, 40):
        game = rules(f"vasarely min_spaces=12 seed={seed}")
        cube = next((c for c, ks in game.cube_spaces.items() if len(ks) == 12), None)
        if cube is not None:
            break
    else:
        pytest.fail("no cube of 12 spaces")
    spaces = game.cube_spaces[cube]
    last = spaces[-1]
    owners = [EMPTY] * len(game.ids)
    for k, owner in zip(spaces[:-1], [0, 0, 1, 1, 2, 3, 3, 3, 3, 3, 0], strict=True):
        owners[k] = owner
    state = VasarelyState(tuple(owners), (0, 0, 0, 0), (cube,), 0, game.dots[last])
    after = game.apply(state, last)
    assert after.scores == (8, 0, 0, 0) and after.in_play == ()


def test_spaces_follow_the_sequence_one_to_five() -> None:
    game = rules()
    state = game.initial()
    two = next(k for k, d in enumerate(game.dots) if d == 2)
    assert refused(game, state, two) == "wrong-number"
    state = game.apply(state, next(game.legal_moves(state)))
    assert state.number == 2 and state.turn == 1


def test_at_most_two_cubes_are_in_play_and_the_variation_allows_three() -> None:
    for limit in (2, 3):
        game = rules(in_play=str(limit))
        state = game.initial()
        picked: list[int] = []
        while len(picked) < 3:
            need = state.number
            fresh = [
                k
                for k in range(len(game.ids))
                if game.dots[k] == need and game.cube[k] not in picked
            ]
            move = fresh[0]
            if len(picked) == limit:
                assert refused(game, state, move) == "cube-closed"
                break
            picked.append(game.cube[move])
            state = game.apply(state, move)
        assert len(state.in_play) == limit


def test_a_pass_is_legal_only_without_a_space_to_fill() -> None:
    game = rules()
    state = game.initial()
    assert refused(game, state, PASS) == "must-fill"
    # A state where the two cubes in play hold no empty 3-dot space: pass, and 4 is due next.
    cubes = sorted(game.cube_spaces)[:2]
    owners = [EMPTY] * len(game.ids)
    for cube in cubes:
        for k in game.cube_spaces[cube]:
            if game.dots[k] == 3:
                owners[k] = 1
        owners[next(k for k in game.cube_spaces[cube] if game.dots[k] == 1)] = 0
    state = VasarelyState(tuple(owners), (0,) * 4, tuple(cubes), 2, 3)
    assert list(game.legal_moves(state)) == [PASS]
    assert game.apply(state, PASS).number == 4
    same = rules(after_pass="same")
    assert same.apply(state, PASS).number == 3


def test_notation() -> None:
    game = rules()
    assert game.parse_move("space-3", game.initial()) == 2
    assert game.parse_move("PASS", game.initial()) == PASS
    for text in ("space-0", "cube-1", "3x"):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(text, game.initial())


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {"in_play": "3"}), (4, {"after_pass": "same"})]
)
def test_random_games_fill_every_space_and_score_each_cube_once(
    players: int, options: dict[str, str]
) -> None:
    game = rules("vasarely seed=4", players, **options)
    total = len(game.ids)
    for seed in range(200):
        state, moves = random_game(game, seed)
        assert all(o != EMPTY for o in state.owners)
        if not options:
            for turn, move in enumerate(moves):
                assert move == PASS or game.dots[move] == turn % 5 + 1
        # Each cube scores once: its spaces minus those of whoever filled its last space.
        assert sum(state.scores) <= total - len(game.cube_spaces)
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == game.scores(state)
