"""Moves built from several clicks on the recorder: Klee's colours, Cannon-Ball's pieces and
Miro's runs of segments.

Random legal games are played by the engine, and each move is then made on the page's API by
clicking the items a player would click (the key's colours, the squares), one request per
click as the page sends them. The game recorded must be the engine's, move for move; a
misclick must lose nothing built so far; and what the page draws must be where the pieces
stand.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from papergames.layouts.compositie.board import SQUARES, square_id
from papergames.layouts.klee.rules import LEGEND
from papergames.play.checker import check_text
from papergames.play.game import build_game
from papergames.play.transcript import parse_transcript
from papergames.web.record import header

from playout import random_moves

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PLAYERS = ["Ann", "Bob"]


def send(client: TestClient, game: str, body: Any) -> dict[str, Any]:
    response = client.post(f"/api/record/{game}", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def click_move(
    client: TestClient, game: str, spec: str, moves: list[str], clicks: list[str], text: str
) -> dict[str, Any]:
    """Make a move by its clicks; when the clicks leave a choice (a step that could go on to
    capture), pick the move from the choices offered, as a player does."""
    body = {"spec": spec, "players": PLAYERS, "moves": moves}
    pending: list[str] = []
    turn: dict[str, Any] = {}
    for number, item in enumerate(clicks, start=1):
        turn = send(client, game, {**body, "item": item, "pending": pending})
        assert not turn["reason"], (text, item, turn["reason"])
        if turn["accepted"]:
            assert number == len(clicks), (text, clicks[:number])
            break
        pending = turn["pending"]
    if not turn["accepted"]:
        assert text in turn["choices"], (text, turn["choices"])
        turn = send(client, game, {**body, "text": text})
    assert turn["accepted"] and turn["moves"] == [*moves, text]
    return turn


def klee_clicks(engine: Any, move: tuple[int, str]) -> list[str]:
    space, text = move
    if space == -1:
        return [LEGEND[c] for c in text]
    return [engine.ids[space], LEGEND[text]]


def cannon_clicks(move: Any) -> list[str]:
    if move.lineup:
        clicks: list[str] = []
        for colour, square in move.lineup:
            clicks += [f"mark-key-{colour}", square_id(square)]
        return clicks
    clicks = []
    if move.reserve is not None:
        clicks += [f"mark-key-{move.reserve[0]}", square_id(move.reserve[1])]
    for pair in (move.step, move.capture):
        if pair is not None:
            clicks += [square_id(pair[0]), square_id(pair[1])]
    return clicks


def play_by_clicks(client: TestClient, game: str, spec: str, seed: int, turns: int) -> Any:
    engine = build_game(parse_transcript(header(spec, PLAYERS)))
    played = list(random_moves(engine, seed, turns))
    moves: list[str] = []
    turn: dict[str, Any] = {}
    for _, move, _ in played:
        text = engine.format_move(move)
        if game == "klee":
            clicks = klee_clicks(engine, move)
        elif game == "miro":
            clicks = list(engine.move_items(move))
        else:
            clicks = cannon_clicks(move)
        turn = click_move(client, game, spec, moves, clicks, text)
        moves = turn["moves"]
    assert check_text(turn["transcript"]).illegal is None
    return engine, played[-1][2], turn


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_klee_game_is_recorded_by_clicking_colours(client: TestClient, seed: int) -> None:
    engine, state, turn = play_by_clicks(client, "klee", f"klee seed={seed}", seed, 24)
    words = {(page, item): word for page, item, word in turn["position"]}
    assert words == engine.position_marks(state)
    assert any(item.startswith("box-seq") for _, item in words)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_cannon_ball_game_is_recorded_by_clicking_pieces(client: TestClient, seed: int) -> None:
    spec = f"cannon-ball seed={seed}"
    engine, state, turn = play_by_clicks(client, "cannon-ball", spec, seed, 30)
    shown = {item: word for _, item, word in turn["position"]}
    assert shown == {square_id(k): c for k, c in enumerate(state.board) if c}
    assert shown == {item: word for (_, item), word in engine.position_marks(state).items()}


@pytest.mark.parametrize("seed", [1, 4])
def test_a_miro_game_is_recorded_by_clicking_each_runs_segments(
    client: TestClient, seed: int
) -> None:
    engine, state, turn = play_by_clicks(client, "miro", f"miro seed={seed}", seed, 40)
    drawn = [item for items in turn["items"] for item in items]
    coloured = {engine.segment_ids[k] for k, s in enumerate(state.segments) if s != -1}
    assert len(drawn) == len(set(drawn)) and set(drawn) == coloured
    assert any(len(items) > 1 for items in turn["items"])


def test_a_sequence_being_clicked_shows_in_its_area_and_a_wrong_colour_is_refused(
    client: TestClient,
) -> None:
    body = {"spec": "klee seed=1", "players": PLAYERS, "moves": []}
    first = send(client, "klee", {**body, "item": LEGEND["R"]})
    assert first["building"] and first["pending"] == [LEGEND["R"]]
    assert [word for _, word in first["marks"]] == ["red"]
    assert all(choice.startswith("R") for choice in first["choices"])
    again = send(client, "klee", {**body, "item": LEGEND["R"], "pending": first["pending"]})
    assert "three different colours" in again["reason"] and not again["accepted"]
    assert again["pending"] == first["pending"] and again["marks"] == first["marks"]


def test_a_misplaced_piece_loses_none_of_the_line_up(client: TestClient) -> None:
    body = {"spec": "cannon-ball seed=1", "players": PLAYERS, "moves": []}
    pending: list[str] = []
    for item in ("mark-key-blue", "space-1", "space-2", "space-3"):
        turn = send(client, "cannon-ball", {**body, "item": item, "pending": pending})
        pending = turn["pending"]
    assert sorted(turn["marks"]) == [[square_id(k), "blue"] for k in range(3)]
    far = send(client, "cannon-ball", {**body, "item": "space-20", "pending": pending})
    assert f"{SQUARES[19]} is not on your home rows" in far["reason"]
    assert far["pending"] == pending and far["marks"] == turn["marks"]
    off = send(client, "cannon-ball", {**body, "item": "space-2", "pending": pending})
    assert sorted(off["marks"]) == [[square_id(0), "blue"], [square_id(2), "blue"]]
    green = send(client, "cannon-ball", {**body, "item": "mark-key-green", "pending": pending})
    assert "your colours are red and blue" in green["reason"]


def test_a_game_without_its_own_clicks_keeps_the_players_colours(client: TestClient) -> None:
    turn = send(client, "vasarely", {"spec": "vasarely seed=1", "players": PLAYERS, "moves": []})
    assert turn["position"] is None and not turn["building"]


def test_a_move_of_two_spaces_is_built_from_two_clicks_in_any_game(client: TestClient) -> None:
    """Springer's double first move (variation 3) has no clicking of its own: the recorder
    matches the clicks against the spaces each legal move names."""
    spec = "springer seed=3"
    options = {"double": "on"}
    engine = build_game(parse_transcript(header(spec, PLAYERS, options)))
    state = engine.initial()
    moves: list[str] = []
    for _ in range(2):
        move = next(iter(engine.legal_moves(state)))
        text = engine.format_move(move)
        first, second = text.split("+")
        body = {"spec": spec, "players": PLAYERS, "moves": moves, "options": options}
        start = send(client, "springer", {**body, "item": first})
        assert start["building"] and start["pending"] == [first] and text in start["choices"]
        wrong = send(
            client, "springer", {**body, "item": first, "pending": [first], "building": True}
        )
        assert wrong["reason"].startswith("no move goes on with that click")
        assert wrong["pending"] == [first]
        done = send(
            client, "springer", {**body, "item": second, "pending": [first], "building": True}
        )
        assert done["accepted"] and done["moves"] == [*moves, text]
        assert done["items"][-1] == [first, second]
        moves = done["moves"]
        state = engine.apply(state, move)
