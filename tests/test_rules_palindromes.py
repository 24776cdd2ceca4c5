"""Palindromic Card Game rules: the seed's example, each rule, random games, the referee."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papergames.layouts.palindromes.rules import distinct_palindromes
from papergames.play.rules import IllegalMove, MoveSyntaxError

from playout import new_game, random_game, replay


def brute_force(row: str) -> set[str]:
    """Distinct palindromes by the definition, read off every run of cards."""
    runs = (row[i:j] for i, j in itertools.combinations(range(len(row) + 1), 2))
    return {r for r in runs if r[0] == r[-1] == "R" and r == r[::-1]}


def test_the_seeds_example_row() -> None:
    row = "RBBRRBBBRBBR"
    found = distinct_palindromes(row)
    assert found.count("RBBR") == 1, "RBBR occurs twice but counts once"
    assert "BBRBB" not in found, "a palindrome must start and end with red"
    assert "R" in found, "a single red card is a palindrome"
    assert set(found) == brute_force(row)


@given(st.text(alphabet="RB", max_size=30))
def test_palindromes_match_the_definition_and_never_exceed_the_reds(row: str) -> None:
    found = distinct_palindromes(row)
    assert set(found) == brute_force(row) and len(found) == len(set(found))
    assert len(found) <= row.count("R")


def test_rows_must_hold_the_dealt_cards() -> None:
    game = new_game("palindromes cards=6 seed=1")
    state = game.initial()
    for bad, code in (("RBRB", "row-length"), ("found R", "row-first")):
        with pytest.raises(IllegalMove) as info:
            game.apply(state, game.parse_move(bad, state))
        assert info.value.code == code
    state = game.apply(state, game.parse_move("R R B R B B", state))
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("RRBBBB", state))
    assert info.value.code == "deck", "six red cards in all: three are left for Bob"
    state = game.apply(state, game.parse_move("RBRBBR", state))
    assert game.scores(state) == (3, 3)


def test_finds_are_checked_one_by_one() -> None:
    game = new_game("palindromes cards=6 seed=1")
    state = game.initial()
    for row in ("RRBRBB", "RBRBBR"):
        state = game.apply(state, game.parse_move(row, state))
    cases = {
        "found RBR RBR": "repeated",
        "found RB": "black-end",
        "found RRBR": "not-palindrome",
        "found RR": "not-in-row",
    }
    for text, code in cases.items():
        with pytest.raises(IllegalMove) as info:
            game.apply(state, game.parse_move(text, state))
        assert info.value.code == code, text
    # Positions name the run in the opponent's row (Bob's RBRBBR): 1-3 is RBR.
    after = game.apply(state, game.parse_move("found 1-3 R", state))
    assert after.found[0] == ("RBR", "R")
    assert game.scores(after) == (3, 1)
    for text in ("found 0-2", "found 4-9", "found XR", "RBX"):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(text, state)


@pytest.mark.parametrize("cards", [4, 8, 26])
def test_random_games_end_replay_and_score_by_the_rules(cards: int) -> None:
    game = new_game(f"palindromes cards={cards} seed=1")
    for seed in range(200):
        state, moves = random_game(game, seed)
        assert len(moves) == 4
        assert sum(row.count("R") for row in state.rows) == cards
        scores = game.scores(state)
        assert all(s >= 0 for s in scores), "a score is never below zero"
        for player in (0, 1):
            found_by_other = state.found[1 - player]
            assert set(found_by_other) <= brute_force(state.rows[player])
            assert scores[player] == state.rows[player].count("R") - len(found_by_other)
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == scores


def test_the_referee_lists_every_palindrome_and_what_was_missed() -> None:
    game = new_game("palindromes cards=6 seed=1")
    state = game.initial()
    for move in ("RRBRBB", "RBRBBR", "found R", "found R"):
        state = game.apply(state, game.parse_move(move, state))
    notes = game.describe(state)
    assert "holds 3 distinct palindromes: R RR RBR" in notes[0]
    assert "missed RR RBR" in notes[0]
