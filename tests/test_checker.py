"""Transcripts and the checker: parsing with every error placed, verdicts, `papergames check`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from papergames.cli import app
from papergames.games import rules_games
from papergames.play.checker import Verdict, check, check_text
from papergames.play.transcript import (
    TranscriptError,
    format_transcript,
    parse_json,
    parse_text,
    parse_transcript,
    read_transcript,
)

pytestmark = pytest.mark.usefixtures("sheets_built_once")

EXAMPLES = Path(__file__).parent.parent / "examples"
runner = CliRunner()

HEAD = "sheet: cocomposite size=4 seed=1\nplayers: Ann (red), Bob (blue)\n"


def problems(text: str) -> list[tuple[int, int, str]]:
    with pytest.raises(TranscriptError) as info:
        parse_text(text, "t.txt")
    return [(p.line, p.column, m) for p, m in info.value.problems]


def test_the_text_form_reads_header_moves_players_and_comments() -> None:
    t = parse_text(HEAD + "options: \nclaim: Ann score 0\n1. Ann: b2  # first\n\n  c3\n")
    assert str(t.spec) == "cocomposite size=4 seed=1"
    assert [(p.name, p.colour) for p in t.players] == [("Ann", "red"), ("Bob", "blue")]
    assert [(m.player, m.text, m.place.line, m.place.column) for m in t.moves] == [
        ("Ann", "b2", 5, 9),
        (None, "c3", 7, 3),
    ]
    assert [(c.player, c.what, c.value) for c in t.claims] == [("Ann", "score", "0")]
    assert parse_text(format_transcript(t)).moves[0].text == "b2"


def test_every_problem_is_reported_with_its_line_and_column() -> None:
    found = problems(
        "sheet: cocomposite size=99 seed=1\n"
        "players: Ann, 7up, Ann\n"
        "options: novalue\n"
        "claim: Ann score\n"
        "Zed: b2\n"
    )
    assert [(line, column) for line, column, _ in found] == [
        (1, 8),
        (2, 15),
        (2, 20),
        (3, 10),
        (4, 8),
        (5, 1),
    ]
    messages = " | ".join(m for _, _, m in found)
    for words in (
        "size=99",
        "'7up' is not a player",
        "named twice",
        "key=value",
        "claim:",
        "'Zed'",
    ):
        assert words in messages


def test_a_transcript_needs_a_sheet_and_players() -> None:
    assert any("no 'sheet:'" in m for _, _, m in problems("players: Ann, Bob\nb2\n"))
    assert any("no 'players:'" in m for _, _, m in problems("sheet: cocomposite seed=1\n"))
    assert any(
        "before the moves" in m
        for _, _, m in problems("sheet: cocomposite seed=1\nb2\nplayers: A, B\n")
    )


def test_the_json_form_holds_the_same_content() -> None:
    text = parse_text(HEAD + "claim: Bob score 1\nAnn: b2\nc3\n")
    data = {
        "sheet": "cocomposite size=4 seed=1",
        "players": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}],
        "moves": [{"player": "Ann", "move": "b2"}, "c3"],
        "claims": [{"player": "Bob", "what": "score", "value": 1}],
    }
    from_json = parse_transcript(json.dumps(data))
    assert from_json.spec == text.spec and from_json.players == text.players
    assert [(m.player, m.text) for m in from_json.moves] == [(m.player, m.text) for m in text.moves]
    assert [(c.player, c.what, c.value) for c in from_json.claims] == [("Bob", "score", "1")]
    with pytest.raises(TranscriptError) as info:
        parse_json('{"sheet": 3, "players": [1], "moves": [{"player": "Zed", "move": "b2"}, 4]}')
    places = [str(p) for p, _ in info.value.problems]
    assert places == ["sheet", "players[0]", "moves[0]", "moves[1]"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_raises_nothing_but_the_parsers_error(text: str) -> None:
    for candidate in (text, HEAD + text, "{" + text):
        try:
            parse_transcript(candidate)
        except TranscriptError as exc:
            assert exc.problems and all(m for _, m in exc.problems)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["a1", "b2", "c3", "d4", "a2", "Bob: b1", "Ann: zz", "#", "x"])))
def test_arbitrary_moves_get_a_verdict_never_a_crash(moves: list[str]) -> None:
    verdict = check(parse_text(HEAD + "\n".join(moves) + "\n"))
    assert verdict.legal == (verdict.illegal is None and verdict.over)
    if verdict.illegal is not None:
        assert verdict.illegal.reason and verdict.illegal.place.line >= 3


def test_the_checker_stops_at_the_first_illegal_move_and_names_it() -> None:
    verdict = check(parse_text(HEAD + "claim: Bob score 0\nb2\nBob: a1\nd4\nBob: b1\n"))
    problem = verdict.illegal
    assert problem is not None and not verdict.legal
    assert (problem.number, problem.place.line, problem.code, problem.player) == (
        3,
        6,
        "not-adjacent",
        "Ann",
    )
    assert len(verdict.steps) == 2 and verdict.claims[0].holds


def test_moving_out_of_turn_or_after_the_end_is_illegal() -> None:
    verdict = check(parse_text(HEAD + "Bob: b2\n"))
    assert verdict.illegal is not None and verdict.illegal.code == "wrong-player"


def test_an_unfinished_game_is_not_legal_and_the_note_shows_a_move_left() -> None:
    verdict = check(parse_text(HEAD + "b2\n"))
    assert verdict.illegal is None and not verdict.over and not verdict.legal
    assert any("can still play, for example" in n for n in verdict.notes)


@pytest.mark.parametrize("game", rules_games())
def test_every_game_with_rules_has_a_complete_legal_example(game: str) -> None:
    paths = sorted(EXAMPLES.glob(f"{game}.*"))
    assert paths, f"examples/{game}.txt is missing"
    for path in paths:
        transcript = read_transcript(path)
        assert transcript.spec.game == game
        verdict = check(transcript)
        assert verdict.legal and verdict.ok, (path, verdict.illegal, verdict.notes)
        assert verdict.claims, "an example shows claims being checked"


def test_cli_exit_codes_say_legal_illegal_or_unreadable(tmp_path: Path) -> None:
    good = EXAMPLES / "cocomposite.txt"
    result = runner.invoke(app, ["check", str(good)])
    assert result.exit_code == 0 and "LEGAL" in result.stdout and "winner" in result.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text(good.read_text().replace("claim: Bob score 2", "claim: Bob score 5"))
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 1 and "is wrong: the true value is 2" in result.stdout
    broken = tmp_path / "broken.txt"
    broken.write_text("sheet: nosuchgame seed=1\nplayers: ,\n")
    result = runner.invoke(app, ["check", str(broken)])
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert "line 1" in result.stderr and "line 2" in result.stderr
    for path in (tmp_path / "missing.txt", tmp_path):
        result = runner.invoke(app, ["check", str(path)])
        assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1


def test_cli_json_and_verbose_show_the_scores_move_by_move() -> None:
    path = str(EXAMPLES / "cocomposite.txt")
    data = json.loads(runner.invoke(app, ["check", "--json", path]).stdout)
    assert data["legal"] and data["ok"] and data["winners"] == ["Bob"]
    assert data["moves"][-1]["scores"] == data["scores"]
    verbose = runner.invoke(app, ["check", "--verbose", path]).stdout
    rows = re.findall(r"^\s+(\d+)\. (\w+): \S+ .* Ann (\d+), Bob (\d+)$", verbose, re.M)
    assert [int(r[0]) for r in rows] == [m["move"] for m in data["moves"]]
    assert [(int(r[2]), int(r[3])) for r in rows][-1] == tuple(data["scores"].values())


def test_cli_checks_a_cubist_installation_by_its_keyword(tmp_path: Path) -> None:
    legal = runner.invoke(app, ["check", str(EXAMPLES / "cubist-installation.txt")])
    assert legal.exit_code == 0 and "LEGAL" in legal.stdout and "matches the plan" in legal.stdout
    illegal = runner.invoke(
        app, ["check", "--json", str(EXAMPLES / "cubist-installation-illegal.txt")]
    )
    data = json.loads(illegal.stdout)
    assert illegal.exit_code == 1 and not data["legal"]
    codes = {p["code"] for p in data["problems"]}
    assert {"mixed-stack", "same-value"} <= codes
    broken = tmp_path / "broken.txt"
    broken.write_text("installation:\n1 2 x\n")
    result = runner.invoke(app, ["check", str(broken)])
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_the_library_judges_what_the_cli_judges() -> None:
    """check_text takes an installation to its game's judge, and a transcript to the replay."""
    for path in sorted(EXAMPLES.iterdir()):
        result = check_text(path.read_text(), str(path))
        assert isinstance(result, Verdict) != path.name.startswith("cubist-installation")
        cli = runner.invoke(app, ["check", "--json", str(path)])
        assert json.loads(cli.stdout) == result.to_json()
        assert (cli.exit_code == 0) == result.ok


def test_the_cli_imports_no_game() -> None:
    folder = Path(__file__).resolve().parent.parent / "generator" / "cli"
    sources = {path.name: path.read_text() for path in folder.glob("*.py")}
    assert "commands.py" in sources
    assert not [name for name, source in sources.items() if "papergames.layouts" in source]
