"""Fred Horn's Plan-A-Head and Pick Tw=O=ne on the COM:POSITIE board: rules and random games."""

from __future__ import annotations

import re
from typing import Any

import pytest

from papergames.errors import SpecError
from papergames.layouts.compositie.board import SQUARES, N
from papergames.layouts.compositie.plan_a_head import PlanAHeadRules
from papergames.play.checker import Verdict, check_text
from papergames.play.rules import MoveSyntaxError, Rules
from papergames.play.transcript import format_transcript

from playout import new_game, play, random_game, refused, replay, transcript_of


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


def king_moves(square: int) -> set[int]:
    row, col = divmod(square, N)
    return {
        r * N + c
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if (r, c) != (row, col) and 0 <= r < N and 0 <= c < N
    }


TOUCHING = [king_moves(k) for k in range(N * N)]


def test_plan_a_head_reads_touching_squares_from_the_board_as_a_kings_moves() -> None:
    game = new_game("plan-a-head seed=1", 2)
    assert isinstance(game, PlanAHeadRules)
    assert [set(near) for near in game.touching] == TOUCHING


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


AGREED = "RRRRRR/RRRBBB/BBBBBB/GGGGGG/GGGYYY/YYYYYY"
"""A start set-up the players agreed on: row 1 all red, row 6 all yellow."""


def test_pick_two_one_starts_from_an_agreed_set_up() -> None:
    game = new_game("pick-two-one seed=1", start=AGREED.lower().replace("/", ""))
    printed = new_game("pick-two-one seed=1")
    start = game.initial().board
    assert start[:9] == ("red",) * 9 and start[-9:] == ("yellow",) * 9
    assert start != printed.initial().board
    assert game.option_values["start"] == AGREED, "read back in the canonical form"
    assert refused(game, game.initial(), "a1 c1") == "two-colours", "row 1 is all red"
    game.apply(game.initial(), game.parse_move("a1 a6", game.initial()))
    _state, moves = random_game(game, 1)
    text = format_transcript(transcript_of(game, moves))
    assert f"options: start={AGREED}" in text
    verdict = check_text(text)
    assert isinstance(verdict, Verdict) and verdict.legal and verdict.over
    assert any("own start set-up" in note for note in verdict.notes)
    assert not any("own start" in note for note in replay(printed, []).notes)


@pytest.mark.parametrize(
    ("start", "reason"),
    [
        ("RRRRRRRRRRBBBBBBBBGGGGGGGGGYYYYYYYYY", "9 pieces of each colour, not R 10, B 8"),
        ("RRRRRRRRRBBBBBBBBBGGGGGGGGGYYYYYYYY", "36 squares starts with a piece, not 35"),
        ("RRRRRRRRRBBBBBBBBBGGGGGGGGGYYYYYYYYX", "'X' is none of the colours"),
        ("RRRRRRR/RRBBBB/BBBBBB/GGGGGG/GGGYYY/YYYYY", "6 rows of 6 squares"),
    ],
)
def test_pick_two_one_refuses_a_start_that_is_no_full_set(start: str, reason: str) -> None:
    text = f"sheet: pick-two-one seed=1\nplayers: Ann, Bob\noptions: start={start}\na1\n"
    with pytest.raises(SpecError, match=re.escape(reason)):
        check_text(text)


def cannon_position(game: Rules[Any, Any], pieces: dict[str, str], turn: int = 0, **kw: Any) -> Any:
    board = [""] * 36
    for name, colour in pieces.items():
        board[SQUARES.index(name)] = colour
    return type(game.initial())(tuple(board), lined_up=2, turn=turn, **kw)


# Enough pieces on both sides that nobody wins by numbers: six blue and six yellow at the back.
BACKS = {**{f"{c}1": "blue" for c in "abcdef"}, **{f"{c}6": "yellow" for c in "abcdef"}}


def test_cannon_ball_line_ups() -> None:
    game = new_game("cannon-ball seed=1")
    state = game.initial()
    assert refused(game, state, "lineup Ra1 Rb1") == "lineup-size"
    assert refused(game, state, "lineup Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Ra2 Rb2 Rc3") == "lineup-rows"
    assert refused(game, state, "lineup Ga1 Rb1 Rc1 Rd1 Re1 Rf1 Ra2 Rb2 Rc2") == "lineup-colour"
    assert refused(game, state, "a1-a2") == "lineup-first"
    state = game.apply(state, game.parse_move("lineup Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Ba2 Bb2 Bc2", state))
    assert state.reserves[0] == (3, 6) and game.to_move(state) == 1
    assert refused(game, state, "lineup Ga1 Gb6 Gc6 Gd6 Ge6 Gf6 Ya5 Yb5 Yc5") == "lineup-rows"


def test_cannon_ball_steps_go_forward_or_sideways_only() -> None:
    game = new_game("cannon-ball seed=1")
    state = cannon_position(game, {**BACKS, "c3": "red", "d4": "green"})
    for ok in ("c3-c4", "c3-b4", "c3-d3"):
        game.apply(state, game.parse_move(ok, state))
    assert refused(game, state, "c3-c2") == "bad-step", "never backwards"
    assert refused(game, state, "c3-c5") == "bad-step", "one square only"
    assert refused(game, state, "c3-d4") == "bad-step", "onto an empty square only"
    # Player 2 moves down the board.
    state2 = cannon_position(game, {**BACKS, "c3": "red", "d4": "green"}, turn=1)
    game.apply(state2, game.parse_move("d4-d3", state2))
    assert refused(game, state2, "d4-d5") == "bad-step"


def test_cannon_ball_captures_jump_exactly_one_piece_of_the_other_own_colour() -> None:
    game = new_game("cannon-ball seed=1")
    # The rules' example: red, blue, green side by side: red takes green over the blue.
    state = cannon_position(game, {**BACKS, "a3": "red", "b3": "blue", "c3": "green", "f3": "red"})
    after = game.apply(state, game.parse_move("f3-f4 a3xc3", state))
    assert after.board[SQUARES.index("c3")] == "red" and after.board[SQUARES.index("a3")] == ""
    assert after.captures == (1, 0) and after.owes == (False, True)
    # Empty squares may lie between; a wrong screen, two screens or a wrong victim may not.
    spaced = cannon_position(game, {**BACKS, "a3": "red", "c3": "blue", "f3": "green", "f4": "red"})
    game.apply(spaced, game.parse_move("f4-e5 a3xf3", spaced))
    cases = {
        "wrong screen": {"a3": "red", "b3": "red", "c3": "green"},
        "two screens": {"a3": "red", "b3": "blue", "c3": "blue", "d3": "green"},
        "wrong victim": {"a3": "red", "b3": "blue", "c3": "yellow"},
        "no screen": {"a3": "red", "c3": "green"},
    }
    for why, pieces in cases.items():
        bad = cannon_position(game, {**BACKS, **pieces, "f3": "red"})
        assert refused(game, bad, "f3-f4 a3xc3") == "bad-capture", why


def test_cannon_ball_capture_mover_lets_only_the_moved_piece_capture() -> None:
    game = new_game("cannon-ball capture=mover seed=1")
    state = cannon_position(game, {**BACKS, "a3": "red", "b3": "blue", "c3": "green", "f3": "red"})
    assert refused(game, state, "f3-f4 a3xc3") == "bad-capture"
    moved = cannon_position(game, {**BACKS, "a2": "red", "b3": "blue", "c3": "green"})
    game.apply(moved, game.parse_move("a2-a3 a3xc3", moved))


def test_cannon_ball_a_player_who_lost_a_piece_first_brings_in_a_reserve() -> None:
    game = new_game("cannon-ball seed=1")
    pieces = {
        **BACKS,
        "a3": "red",
        "b3": "blue",
        "c3": "green",
        "f3": "red",
        "f6": "",
        "d5": "green",
    }
    state = cannon_position(game, pieces, reserves=((5, 5), (5, 5)))
    state = game.apply(state, game.parse_move("f3-f4 a3xc3", state))
    assert not game.is_over(state)
    assert refused(game, state, "a6-a5") == "reserve-owed"
    assert refused(game, state, "+Ga1 a6-a5") == "bad-reserve", "on his own first row only"
    assert refused(game, state, "+Ra6 a6-a5") == "bad-reserve"
    after = game.apply(state, game.parse_move("+Gf6 a6-a5", state))
    assert after.reserves[1] == (4, 5) and after.board[SQUARES.index("f6")] == "green"


def test_cannon_ball_wins_by_the_far_row_or_by_numbers() -> None:
    game = new_game("cannon-ball seed=1")
    far = {f"{c}6": "red" for c in "abcde"}
    state = cannon_position(game, {**far, "f5": "blue", **{f"{c}3": "green" for c in "abcdef"}})
    after = game.apply(state, game.parse_move("f5-f6", state))
    assert game.winners(after) == [0] and game.is_over(after)
    few = {
        "a6": "green",
        "b6": "green",
        "c6": "yellow",
        "d6": "yellow",
        "e6": "green",
        "f6": "green",
    }
    state = cannon_position(
        game, {**few, **{f"{c}1": "blue" for c in "abcdef"}, "a4": "red", "a5": "blue"}
    )
    after = game.apply(state, game.parse_move("b1-b2 a4xa6", state))
    assert game.winners(after) == [0], "five pieces left is fewer than six"


@pytest.mark.parametrize("capture", ["any", "mover"])
def test_cannon_ball_random_games(capture: str) -> None:
    game = new_game(f"cannon-ball capture={capture} seed=1")
    for seed in range(200 if capture == "any" else 60):
        state, moves = random_game(game, seed, limit=3000)
        assert state.winner is not None
        for player, colours in enumerate((("red", "blue"), ("green", "yellow"))):
            on_board = sum(1 for c in state.board if c in colours)
            lost = state.captures[1 - player]
            assert on_board + sum(state.reserves[player]) + lost == 18, "no piece is made or lost"
        verdict = replay(game, moves)
        assert verdict.legal and verdict.winners == [game.players[state.winner].name]
