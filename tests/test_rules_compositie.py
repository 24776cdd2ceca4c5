"""Fred Horn's Plan-A-Head and Pick Tw=O=ne on the COM:POSITIE board: rules and random games."""

from __future__ import annotations

from typing import Any

import pytest

from papergames.layouts.compositie import SQUARES, TOUCHING
from papergames.rules import IllegalMove, MoveSyntaxError, Rules

from playout import new_game, random_game, replay


def play(game: Rules[Any, Any], *moves: str) -> Any:
    state = game.initial()
    for text in moves:
        state = game.apply(state, game.parse_move(text, state))
    return state


def refused(game: Rules[Any, Any], state: Any, text: str) -> str:
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move(text, state))
    return info.value.code


def test_plan_a_head_placing_rules() -> None:
    game = new_game("plan-a-head seed=1")
    state = play(game, "R c3")
    assert refused(game, state, "B c3") == "occupied"
    assert refused(game, state, "R f6") == "not-in-set", "red of this set is placed"
    state = play(game, "R c3", "B a1", "G a6")
    assert game.to_move(state) == 1
    # Bob places the set's last piece (yellow, which he must take) and opens the next set.
    state = game.apply(state, game.parse_move("Y f1", state))
    assert state.left == ("red", "blue", "green", "yellow") and game.to_move(state) == 1
    assert refused(game, state, "R d4") == "same-colour", "touching at a corner counts"
    assert refused(game, state, "B b2") == "same-colour"
    game.apply(state, game.parse_move("R e5", state))


def test_plan_a_head_with_three_players_passes_the_turn_on_clockwise() -> None:
    game = new_game("plan-a-head players=3 seed=1", 3)
    state = play(game, "R a1", "B c1", "G e1", "Y a3")
    assert game.to_move(state) == 1


def test_plan_a_head_notation() -> None:
    game = new_game("plan-a-head seed=1")
    for text in ("c3", "P c3", "R g1", "R c3 d4"):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(text, game.initial())
    assert game.parse_move("red C3", game.initial()) == ("red", SQUARES.index("c3"))


@pytest.mark.parametrize("players", [2, 3])
def test_plan_a_head_random_games(players: int) -> None:
    game = new_game(f"plan-a-head players={players} seed=1", players)
    for seed in range(200):
        state, moves = random_game(game, seed)
        board = state.board
        for k, colour in enumerate(board):
            assert not colour or all(board[t] != colour for t in TOUCHING[k])
        # Stuck means stuck: no piece the mover may take fits anywhere.
        if len(moves) < 36:
            assert not any(
                not board[k] and all(board[t] != c for t in TOUCHING[k])
                for c in state.left
                for k in range(36)
            )
        assert game.winners(state) == [state.last]
        verdict = replay(game, moves)
        assert verdict.legal and verdict.winners == [game.players[state.last].name]


def test_pick_two_one_taking_rules() -> None:
    game = new_game("pick-two-one seed=1")
    start = game.initial()
    board = list(start.board)
    # A two-colour line allows one piece, not two; three colours allow two.
    board[:6] = ["red", "red", "blue", "blue", "red", "blue"]
    state = type(start)(tuple(board))
    code = refused(game, state, "a1 c1")
    assert code == "two-colours"
    board[:6] = ["red", "green", "blue", "blue", "red", "blue"]
    state = type(start)(tuple(board))
    after = game.apply(state, game.parse_move("a1 f1", state))
    assert after.board[0] == after.board[5] == "" and after.taken == (2, 0) and after.turn == 1
    assert refused(game, after, "a1") == "empty"


def test_pick_two_one_takes_along_slanted_lines_only_with_lines_any() -> None:
    for lines, legal in (("any", True), ("straight", False)):
        game = new_game(f"pick-two-one lines={lines} seed=1")
        board = [""] * 36
        for name, colour in (("a1", "red"), ("b3", "blue"), ("c5", "green")):
            board[SQUARES.index(name)] = colour
        state = type(game.initial())(tuple(board))
        if legal:
            game.apply(state, game.parse_move("a1 c5", state))
            continue
        assert game.is_over(state), "no straight line holds two colours"
        board[SQUARES.index("a2")] = "blue"
        state = type(game.initial())(tuple(board))
        assert refused(game, state, "a1 c5") == "no-line"
        assert refused(game, state, "b3") == "one-colour"
        game.apply(state, game.parse_move("a1", state))


@pytest.mark.parametrize("lines", ["any", "straight"])
def test_pick_two_one_random_games(lines: str) -> None:
    game = new_game(f"pick-two-one lines={lines} seed=3")
    for seed in range(200):
        state, moves = random_game(game, seed)
        left = [(k, c) for k, c in enumerate(state.board) if c]
        assert sum(state.taken) + len(left) == 36
        if lines == "any":
            # Any two pieces of different colours make a two-colour line: so one colour is left.
            assert len({c for _, c in left}) <= 1
        verdict = replay(game, moves)
        assert verdict.legal and verdict.winners == [game.players[state.last].name]
