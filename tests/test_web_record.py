"""Recording a game through the web page's API: every move judged by the game's engine.

The page sends the whole game with each move, so these tests play random legal games by
clicking items, check that what was recorded is a transcript the checker finds legal, and that
a refused click gives the engine's own reason and changes nothing."""

from __future__ import annotations

import itertools
import random
import warnings
from typing import Any

import pytest

from papergames.errors import PapergamesError
from papergames.games import get_rules
from papergames.play.checker import check_text
from papergames.play.game import build_game
from papergames.play.rules import IllegalMove, Player
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

from playout import random_moves

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def send(client: TestClient, game: str, body: Any) -> tuple[int, dict[str, Any]]:
    response = client.post(f"/api/record/{game}", json=body)
    assert "Traceback" not in response.text
    return response.status_code, response.json()


@pytest.mark.parametrize(("game", "seed"), [("springer", 3), ("vasarely", 4), ("arp", 5)])
def test_a_game_clicked_item_by_item_is_a_legal_transcript(
    client: TestClient, game: str, seed: int
) -> None:
    spec = str(SheetSpec.create(game, seed=seed))
    players = ["Ann", "Bob"]
    rng = random.Random(seed)
    moves: list[str] = []
    turn: dict[str, Any] = {}
    for _ in range(12):
        status, turn = send(client, game, {"spec": spec, "players": players, "moves": moves})
        assert status == 200
        if turn["over"]:
            break
        engine = get_rules(game)(make_sheet(SheetSpec.parse(spec)), [Player(p) for p in players])
        state = engine.initial()
        for text in moves:
            state = engine.apply(state, engine.parse_move(text, state))
        texts = [engine.format_move(m) for m in engine.legal_moves(state)]
        clickable = [t for t in texts if t.split()[0] == t and t != "pass"]
        if not clickable:
            break
        item = rng.choice(clickable)
        status, turn = send(
            client, game, {"spec": spec, "players": players, "moves": moves, "item": item}
        )
        assert status == 200 and turn["accepted"], turn
        assert turn["moves"] == [*moves, item]
        moves = turn["moves"]
    verdict = check_text(turn["transcript"])
    assert verdict.illegal is None
    assert [step.move for step in verdict.steps] == moves
    assert dict(zip(verdict.players, verdict.scores, strict=True)) == turn["scores"]


def test_a_refused_click_gives_the_engines_reason_and_changes_nothing(client: TestClient) -> None:
    spec = "springer seed=3"
    body = {"spec": spec, "players": ["Ann", "Bob"], "moves": ["space-1"]}
    _, before = send(client, "springer", body)
    status, turn = send(client, "springer", {**body, "item": "space-1"})
    assert status == 200 and not turn["accepted"]
    engine = get_rules("springer")(
        make_sheet(SheetSpec.parse(spec)), [Player("Ann"), Player("Bob")]
    )
    state = engine.apply(engine.initial(), engine.parse_move("space-1", engine.initial()))
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, engine.parse_move("space-1", state))
    assert turn["reason"] == refused.value.reason
    assert {k: turn[k] for k in ("moves", "to_move", "scores")} == {
        k: before[k] for k in ("moves", "to_move", "scores")
    }


def test_undo_is_the_game_without_its_last_move(client: TestClient) -> None:
    body = {"spec": "vasarely seed=4", "players": ["Ann", "Bob"], "moves": []}
    _, start = send(client, "vasarely", body)
    _, one = send(client, "vasarely", {**body, "text": "pass"})
    _, undone = send(client, "vasarely", {**body, "moves": one["moves"][:-1]})
    assert undone == start


def test_an_item_that_can_be_played_several_ways_offers_each_way(client: TestClient) -> None:
    body = {"spec": "mondrian seed=3", "players": ["Ann", "Bob"], "moves": [], "item": "space-2"}
    _, turn = send(client, "mondrian", body)
    assert not turn["accepted"] and turn["moves"] == []
    engine = get_rules("mondrian")(
        make_sheet(SheetSpec.parse("mondrian seed=3")), [Player("Ann"), Player("Bob")]
    )
    texts = [engine.format_move(m) for m in engine.legal_moves(engine.initial())]
    assert turn["choices"] == [t for t in texts if t.split()[0] == "space-2"]
    _, chosen = send(client, "mondrian", {**body, "item": None, "text": turn["choices"][-1]})
    assert chosen["accepted"] and chosen["moves"] == [turn["choices"][-1]]


def test_a_click_on_something_that_is_no_move_says_to_type_it(client: TestClient) -> None:
    body = {"spec": "vasarely seed=1", "players": ["Ann", "Bob"], "moves": []}
    page = make_sheet(SheetSpec.parse(body["spec"])).pages[0]
    tally = next(f.id for f in page.features() if f.id.startswith("box-"))
    _, turn = send(client, "vasarely", {**body, "item": tally})
    assert not turn["accepted"] and "type the move" in turn["reason"]
    _, turn = send(client, "vasarely", {**body, "item": "no-such-thing"})
    assert not turn["accepted"] and "not an item" in turn["reason"]


def test_a_grid_square_is_clicked_by_the_name_the_sheet_gives_it(client: TestClient) -> None:
    from papergames.sheets.model import Kind

    spec = "spaghetti size=5 seed=1"
    page = make_sheet(SheetSpec.parse(spec)).pages[0]
    square = next(f for f in page.features(Kind.SPACE) if f.data["name"] == "c4")
    body = {"spec": spec, "players": ["Ann", "Bob"], "moves": []}
    _, clicked = send(client, "spaghetti", {**body, "item": square.id})
    _, typed = send(client, "spaghetti", {**body, "text": "c4"})
    assert clicked["accepted"] and clicked["moves"] == typed["moves"] == ["c4"]
    assert clicked["items"] == typed["items"] == [[square.id]]
    assert clicked["transcript"].endswith("Ann: c4\n")


SPRINGER = {"spec": "springer seed=1", "players": ["Ann", "Bob"]}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ([1, 2], "JSON object"),
        ({"players": ["Ann", "Bob"]}, "no sheet spec"),
        ({"spec": "maze seed=1", "players": ["Ann", "Bob"]}, "not a springer sheet"),
        ({"spec": "springer seed=1\nAnn: space-1", "players": ["Ann", "Bob"]}, "line break"),
        ({"spec": "springer seed=1", "players": "Ann"}, "list of texts"),
        ({"spec": "springer seed=1", "players": ["Ann", 3]}, "list of texts"),
        ({"spec": "springer seed=1", "players": ["Ann"]}, "not 1"),
        ({"spec": "springer size=0 seed=1", "players": ["Ann", "Bob"]}, "unknown parameter"),
        (
            {"spec": "springer seed=1", "players": ["Ann", "Bob"], "moves": ["space-1"] * 2},
            "move 2",
        ),
        ({"spec": "springer seed=1", "players": ["Ann", "Bob"], "moves": ["x"] * 4000}, "at most"),
        ({"spec": "springer seed=1", "players": ["Ann", "Bob"], "item": 5}, "is a text"),
    ],
)
def test_a_request_that_cannot_be_followed_is_a_message_and_a_400(
    client: TestClient, body: Any, words: str
) -> None:
    status, answer = send(client, "springer", body)
    assert status == 400
    assert words in answer["error"]


def test_a_request_that_is_not_json_is_a_400(client: TestClient) -> None:
    response = client.post("/api/record/springer", content=b"{not json")
    assert response.status_code == 400 and "not JSON" in response.json()["error"]


def test_the_record_page_is_offered_only_for_games_with_rules(client: TestClient) -> None:
    assert client.get("/record/springer?seed=2").status_code == 200
    assert 'id="record-link"' in client.get("/game/springer").text
    assert client.get("/record/cubist-studio").status_code == 404
    assert 'id="record-link"' not in client.get("/game/cubist-studio").text
    refused = client.get("/record/springer?seed=2&rows=999")
    assert refused.status_code == 400
    with pytest.raises(PapergamesError) as error:
        SheetSpec.create("springer", {"rows": "999"}, seed=2)
    assert str(error.value).replace("'", "&#39;") in refused.text


def load(client: TestClient, name: str, data: bytes) -> tuple[int, str]:
    response = client.post("/record", files={"transcript": (name, data, "text/plain")})
    assert "Traceback" not in response.text
    return response.status_code, response.text


def test_a_transcript_loads_into_the_recorder_with_every_move(client: TestClient) -> None:
    import html
    import json
    import re
    from pathlib import Path

    from papergames.play.transcript import parse_transcript

    text = (Path(__file__).resolve().parent.parent / "examples" / "springer.txt").read_text()
    transcript = parse_transcript(text)
    status, page = load(client, "springer.txt", text.encode())
    assert status == 200
    loaded = re.search(r'data-moves="([^"]*)"', page)
    assert loaded
    engine = build_game(transcript)
    state = engine.initial()
    written = []
    for line in transcript.moves:
        move = engine.parse_move(line.text, state)
        state = engine.apply(state, move)
        written.append(engine.format_move(move))
    assert json.loads(html.unescape(loaded.group(1))) == written
    assert written != [m.text for m in transcript.moves]  # "85" on paper is space-85 here
    assert f'data-spec="{transcript.spec}"' in page
    assert "Ann, Bob" in page


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"sheet: springer seed=1\nplayers: Ann, Bob\nfinal: space-1 Ann\n", "finished sheet"),
        (b"sheet: springer seed=1\nplayers: Ann, Bob\nAnn: space-1\nBob: space-1\n", "move 2"),
        (b"sheet: cubist-studio seed=1\nplayers: Ann, Bob\nAnn: x\n", "no rules"),
        (b"\xff\xfe\x00", "not text"),
        (b"", "empty"),
    ],
)
def test_a_transcript_the_recorder_cannot_go_on_with_is_a_message_and_a_400(
    client: TestClient, data: bytes, words: str
) -> None:
    import html
    import re

    status, page = load(client, "game.txt", data)
    assert status == 400
    message = re.search(r'id="message"[^>]*>(.*?)</p>', page, re.S)
    assert message and words in html.unescape(message.group(1)), page[-600:]


def test_a_line_is_made_by_clicking_its_two_ends(client: TestClient) -> None:
    body = {"spec": "rings seed=1", "players": ["Ann", "Bob"], "moves": []}
    _, first = send(client, "rings", {**body, "item": "point-A1"})
    assert first["pending"] == ["A1"] and not first["accepted"] and first["moves"] == []
    _, line = send(client, "rings", {**body, "item": "point-B2", "pending": ["A1"]})
    assert line["accepted"] and line["moves"] == ["A1-B2"]
    _, same = send(client, "rings", {**body, "item": "point-A1", "pending": ["A1"]})
    assert not same["accepted"] and same["reason"]


def test_a_vertex_is_never_taken_for_the_square_of_the_same_name(client: TestClient) -> None:
    body = {"spec": "spaghetti size=4 seed=1", "players": ["Ann", "Bob"], "moves": []}
    _, turn = send(client, "spaghetti", {**body, "item": "point-A1"})
    assert not turn["accepted"] and turn["moves"] == []
    assert "nothing can be played" in turn["reason"]


def engine_game(spec: str, options: dict[str, str], seed: int, stop: Any) -> list[str]:
    """A random legal game played by the engine under ``options`` until ``stop(state)``."""
    from papergames.play.transcript import parse_transcript
    from papergames.web.record import header

    engine = build_game(parse_transcript(header(spec, ["Ann", "Bob"], options)))
    played = random_moves(engine, seed, 10_000)
    return [
        engine.format_move(move)
        for _, move, _ in itertools.takewhile(lambda p: not stop(p[0]), played)
    ]


def test_the_rules_options_reach_the_engine_and_the_transcript(client: TestClient) -> None:
    spec = "klee seed=2"
    moves = engine_game(spec, {"track": "10"}, 7, lambda state: False)
    body = {"spec": spec, "players": ["Ann", "Bob"], "moves": moves}
    status, short = send(client, "klee", {**body, "options": {"track": "10"}})
    assert status == 200 and short["over"] and max(short["scores"].values()) >= 10
    assert "options: track=10\n" in short["transcript"]
    assert check_text(short["transcript"]).ok
    status, whole = send(client, "klee", {**body, "options": {"track": ""}})
    assert status == 200 and not whole["over"] and "options:" not in whole["transcript"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"track": "99"}, "track"),
        ({"nope": "1"}, "nope"),
        ({"track": "3 table=on"}, "one-word value"),
        ({"track": 3}, "names with texts"),
        ([], "names with texts"),
    ],
)
def test_a_bad_option_is_refused_with_its_reason(
    client: TestClient, options: Any, words: str
) -> None:
    body = {"spec": "klee seed=2", "players": ["Ann", "Bob"], "moves": [], "options": options}
    status, answer = send(client, "klee", body)
    assert status == 400 and words in answer["error"]


def test_a_transcript_with_options_loads_with_them_chosen(client: TestClient) -> None:
    import re

    moves = engine_game("klee seed=2", {"table": "on"}, 3, lambda state: len(state.field) > 0)
    text = "sheet: klee seed=2\nplayers: Ann, Bob\noptions: table=on\n"
    text += "".join(f"{('Ann', 'Bob')[n % 2]}: {m}\n" for n, m in enumerate(moves))
    status, page = load(client, "klee.txt", text.encode())
    assert status == 200
    chosen = re.search(r'<select id="in-table".*?</select>', page, re.S)
    assert chosen and '<option value="on" selected>' in chosen.group(0)


def test_each_round_of_the_rings_is_recorded_on_its_own_page(client: TestClient) -> None:
    spec = "rings seed=4 rounds=2"
    moves = engine_game(spec, {}, 5, lambda state: False)
    pages = make_sheet(SheetSpec.parse(spec)).pages
    status, turn = send(client, "rings", {"spec": spec, "players": ["Ann", "Bob"], "moves": []})
    assert status == 200 and turn["page"] == 1 and turn["pages_played"] == len(pages) == 2
    status, turn = send(client, "rings", {"spec": spec, "players": ["Ann", "Bob"], "moves": moves})
    assert status == 200 and turn["over"]
    assert turn["pages"] == sorted(turn["pages"]) and set(turn["pages"]) == {1, 2}
    for page, move, items in zip(turn["pages"], turn["moves"], turn["items"], strict=True):
        ends = {f.id for f in pages[page - 1].features() if f.label in move.split("-")}
        assert set(items) == ends and len(items) == 2
    half = turn["pages"].index(2)
    status, second = send(
        client, "rings", {"spec": spec, "players": ["Ann", "Bob"], "moves": moves[:half]}
    )
    assert second["page"] == 2
    first_end = moves[half].split("-")[0]
    end_id = next(f.id for f in pages[1].features() if f.label == first_end)
    body = {"spec": spec, "players": ["Ann", "Bob"], "moves": moves[:half], "item": end_id}
    status, clicked = send(client, "rings", body)
    assert status == 200 and clicked["pending"] == [first_end]


@pytest.mark.parametrize(("game", "word"), [("vasarely", "pass"), ("delaunay", "loss")])
def test_moves_that_name_no_item_are_offered_exactly_when_legal(
    client: TestClient, game: str, word: str
) -> None:
    spec = f"{game} seed=2"
    engine = get_rules(game)(make_sheet(SheetSpec.parse(spec)), [Player("Ann"), Player("Bob")])
    moves: list[str] = []
    offered = 0
    for state, move, _ in random_moves(engine, 2, 120):
        _, turn = send(client, game, {"spec": spec, "players": ["Ann", "Bob"], "moves": moves})
        legal = {engine.format_move(m) for m in engine.legal_moves(state)}
        assert (word in turn["plain"]) == (word in legal)
        offered += word in turn["plain"]
        moves.append(engine.format_move(move))
    assert offered


def test_a_page_of_pieces_to_cut_out_is_not_a_page_played_on(client: TestClient) -> None:
    spec = "cannon-ball seed=1"
    assert len(make_sheet(SheetSpec.parse(spec)).pages) == 2
    _, turn = send(client, "cannon-ball", {"spec": spec, "players": ["Ann", "Bob"], "moves": []})
    assert turn["pages_played"] == 1
