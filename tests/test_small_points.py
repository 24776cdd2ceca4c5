"""Small points: the page's script gets JSON refusals, refusals that say what the rule is, option
values checked against what the game means, and files or streams that cannot take a sheet
refused in one line before anything is written."""

from __future__ import annotations

import errno
import io
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from papergames.cli import app as cli_app
from papergames.errors import SpecError
from papergames.layouts.klee.rules import KleeRules
from papergames.play.checker import check_text
from papergames.play.rules import IllegalMove
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.web.serve import LOOPBACK_NAMES

from playout import new_game, play

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

runner = CliRunner()

# -- 1. refusals the page's script can read ---------------------------------------------------

RECORD_BODY = {"spec": "springer seed=1", "players": ["Ann", "Bob"], "moves": []}


def is_json_error(response: Any, status: int) -> str:
    """The refusal's message, once it is JSON ``{"error": ...}`` with ``status``."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json"), response.text
    message = response.json()["error"]
    assert isinstance(message, str) and message and "\n" not in message
    assert "default-src 'self'" in response.headers["content-security-policy"]
    return message


def is_error_page(response: Any, status: int) -> None:
    assert response.status_code == status
    assert response.headers["content-type"].startswith("text/html")
    assert 'id="message"' in response.text


def test_a_request_from_another_site_is_refused_in_json_to_the_script(client: TestClient) -> None:
    elsewhere = {"origin": "http://evil.example"}
    answer = client.post("/api/record/springer", json=RECORD_BODY, headers=elsewhere)
    assert "another web site" in is_json_error(answer, 403)
    answer = client.post("/api/pack", data={"games": "maze"}, headers=elsewhere)
    assert "another web site" in is_json_error(answer, 403)
    # A page keeps its error page, and the page's own origin is let through.
    is_error_page(client.post("/check", data={}, headers=elsewhere), 403)
    here = {"origin": "http://testserver"}
    assert client.post("/api/record/springer", json=RECORD_BODY, headers=here).status_code == 200


def test_a_body_too_large_is_refused_in_json_to_the_script(client: TestClient) -> None:
    big = {"content-length": str(10**9), "content-type": "application/json"}
    answer = client.post("/api/record/springer", content=b"{}", headers=big)
    assert "too large" in is_json_error(answer, 413)


def test_an_unknown_api_address_or_method_is_json_and_a_page_stays_a_page(
    client: TestClient,
) -> None:
    is_json_error(client.get("/api/nosuchthing"), 404)
    is_json_error(client.get("/api/record/springer"), 405)
    is_json_error(client.get("/api/pack/nosuchjob/file"), 404)
    is_error_page(client.get("/game/nosuchgame"), 404)


def test_a_request_for_another_host_name_is_refused_as_json_or_as_a_page() -> None:
    from papergames.web.app import create_app

    local = TestClient(create_app(allowed_hosts=LOOPBACK_NAMES), base_url="http://127.0.0.1")
    evil = {"host": "evil.example"}
    message = is_json_error(local.get("/api/preview/maze?seed=1", headers=evil), 400)
    assert "127.0.0.1" in message and "localhost" in message
    is_error_page(local.get("/check", headers=evil), 400)
    for name in ("127.0.0.1:8765", "localhost", "LOCALHOST:80", "[::1]:8765"):
        assert local.get("/check", headers={"host": name}).status_code == 200, name
    assert local.get("/check", headers={"host": "127.0.0.1.evil.example"}).status_code == 400


# -- 2. the maze's refusal says what the rule is -----------------------------------------------


@pytest.mark.parametrize("pass_ends", ["off", "on"])
def test_a_maze_segment_meeting_the_drawing_is_told_where_it_may(pass_ends: str) -> None:
    game = new_game("maze size=4 seed=1", pass_ends=pass_ends)
    state = play(game, "A1-C3")
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("B1-B3", state))  # crosses A1-C3 at B2
    reason = info.value.reason
    assert info.value.code == "crosses" and "anywhere but" not in reason
    assert "may meet the drawing only at its start, B1" in reason
    passing = "or by passing through a vertex where other segments end"
    assert (passing in reason) == (pass_ends == "on")


# -- 3. Klee's cut-off ------------------------------------------------------------------------


def test_klee_track_0_is_no_cut_off_and_its_help_says_so() -> None:
    assert new_game("klee seed=1", track="0").goal == 30
    assert new_game("klee track=20 seed=1").goal == 20
    assert new_game("klee seed=1", track="10").goal == 10
    assert new_game("klee track=60 seed=1", track="60").goal == 60
    help_text = KleeRules.options["track"].help
    assert "0: no cut-off" in help_text and "10" in help_text


@pytest.mark.parametrize(("track", "printed"), [(1, 30), (9, 30), (5, 12), (31, 30), (25, 20)])
def test_klee_refuses_a_cut_off_too_short_or_past_the_track_in_one_line(
    track: int, printed: int
) -> None:
    with pytest.raises(SpecError) as info:
        new_game(f"klee track={printed} seed=1", track=str(track))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"track={track} is not allowed: ")
    assert f"0 (no cut-off) or a box from 10 to {printed}" in message


def test_klee_refuses_a_short_cut_off_in_a_transcript_in_one_line(tmp_path: Path) -> None:
    text = tmp_path / "klee.txt"
    text.write_text("sheet: klee seed=1\nplayers: Ann, Bob\noptions: track=3\nRYB\n")
    result = runner.invoke(cli_app, ["check", str(text)])
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1, result.stderr
    assert "track=3 is not allowed" in lines[0] and "from 10 to 30" in lines[0]
    with pytest.raises(SpecError, match="track=3"):
        check_text(text.read_text())


# -- 4. Pick Tw=O=ne's agreed start -----------------------------------------------------------

AGREED = "RRRRRR/RRRBBB/BBBBBB/GGGGGG/GGGYYY/YYYYYY"


@pytest.mark.parametrize(
    "given", [AGREED, AGREED.lower(), AGREED.replace("/", ""), " rRrRrR/" + AGREED[7:]]
)
def test_pick_two_one_reads_a_start_in_either_case_with_or_without_slashes(given: str) -> None:
    game = new_game("pick-two-one seed=1", start=given)
    assert game.option_values["start"] == AGREED
    assert game.initial().board[:6] == ("red",) * 6


@pytest.mark.parametrize(
    ("given", "why"),
    [
        (AGREED.replace("/", "-"), "'-' is none of the colours R, B, G, Y, nor the '/'"),
        (AGREED.replace("R", "X", 1), "'X' is none of the colours"),
        ("ß" + AGREED[1:], "'ß' is none of the colours"),
        (AGREED + "/", "6 rows of 6 squares, not 7 rows"),
        (AGREED.replace("/", "//", 1), "not 7 rows"),
        ("RRRRRR/RRRBBB/BBBBB/BGGGGGG/GGGYYY/YYYYYY", "but row 3 has 5"),
        (AGREED.replace("/", ""), None),
        (AGREED.replace("/", "")[:-1], "36 squares starts with a piece, not 35"),
        (AGREED.replace("B", "R", 1), "9 pieces of each colour, not R 10, B 8"),
    ],
)
def test_pick_two_one_refuses_a_malformed_start_in_one_line(given: str, why: str | None) -> None:
    if why is None:
        new_game("pick-two-one seed=1", start=given)
        return
    with pytest.raises(SpecError) as info:
        new_game("pick-two-one seed=1", start=given)
    message = str(info.value)
    assert "\n" not in message and message.startswith("start=")
    assert "start takes six rows of six colour letters" in message and why in message


# -- 5. an output file that cannot be written ---------------------------------------------------


def one_error_line(result: Any) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith("papergames: error: cannot write ")
    return lines[0]


@pytest.mark.parametrize("fmt", ["pdf", "svg", "png"])
def test_a_file_name_too_long_is_one_line_with_the_path_shortened(
    tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    name = "m" * 300 + f".{fmt}"
    result = runner.invoke(cli_app, ["sheet", "maze", "--seed", "1", "-o", name])
    line = one_error_line(result)
    assert "file name is too long" in line and "at most 255" in line
    assert name not in line and "mmm...mmm" in line and len(line) < 240
    assert list(tmp_path.iterdir()) == []


def test_a_name_near_the_longest_is_written(tmp_path: Path) -> None:
    """The temporary file beside it must not be what is too long."""
    out = tmp_path / ("m" * 250 + ".pdf")
    result = runner.invoke(cli_app, ["sheet", "maze", "--seed", "1", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


def test_a_folder_that_does_not_exist_or_a_path_too_long_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "maze.pdf"
    result = runner.invoke(cli_app, ["sheet", "maze", "--seed", "1", "-o", str(missing)])
    assert "does not exist" in one_error_line(result)
    deep = tmp_path.joinpath(*["d" * 200] * 25, "maze.pdf")
    result = runner.invoke(cli_app, ["sheet", "maze", "--seed", "1", "-o", str(deep)])
    line = one_error_line(result)
    assert "too long" in line or "does not exist" in line
    assert len(line) < 240
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (errno.EACCES, "choose a folder you may write to"),
        (errno.EROFS, "write elsewhere"),
        (errno.ENOSPC, "free some space or write elsewhere"),
    ],
)
def test_a_file_the_system_will_not_take_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, words: str
) -> None:
    import os

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError(code, os.strerror(code))

    if code == errno.ENOSPC:  # met while the file is written, half of it on the disk
        import papergames.output.pdf as pdf

        real = pdf.render

        def half(sheet: Any, out: Any, **kwargs: Any) -> None:
            real(sheet, out, **kwargs)
            refuse()

        monkeypatch.setattr(pdf, "render", half)
    else:  # met when the file is made
        monkeypatch.setattr(tempfile, "mkstemp", refuse)
    out = tmp_path / "maze.pdf"
    result = runner.invoke(cli_app, ["sheet", "maze", "--seed", "1", "-o", str(out)])
    line = one_error_line(result)
    assert str(out) in line and os.strerror(code) in line and words in line
    assert list(tmp_path.iterdir()) == []


def test_write_problem_shortens_the_path_and_names_the_cause() -> None:
    from papergames.files import shown_path, write_problem

    long = "/tmp/" + "x" * 400 + ".pdf"
    assert len(shown_path(long)) == 100 and shown_path(long).endswith("xx.pdf")
    assert shown_path("short.pdf") == "short.pdf"
    message = write_problem(OSError(errno.ENAMETOOLONG, "File name too long"), long)
    assert "the file name is too long (404 bytes" in message and len(message) < 240
    other = write_problem(OSError(errno.EIO, "Input/output error"), "a.pdf")
    assert other == "cannot write a.pdf: Input/output error"


# -- 6. a stream that does not take bytes --------------------------------------------------------


@pytest.fixture(scope="module")
def maze() -> Any:
    return make_sheet(SheetSpec.create("maze", seed=1))


@pytest.mark.parametrize("fmt", ["pdf", "svg", "png"])
def test_render_to_a_text_stream_is_refused_before_anything_is_written(maze: Any, fmt: str) -> None:
    from papergames.output import render

    out = io.StringIO()
    with pytest.raises(ValueError) as info:
        render(maze, out, format=fmt)
    message = str(info.value)
    assert isinstance(info.value, SpecError) and "\n" not in message
    assert "StringIO" in message and "binary mode ('wb')" in message and "path" in message
    assert out.getvalue() == ""
    with tempfile.TemporaryFile("w+") as text:
        with pytest.raises(SpecError, match="takes text"):
            render(maze, text, format=fmt)
        assert text.tell() == 0
    binary = io.BytesIO()
    render(maze, binary, format=fmt)
    assert binary.getvalue()


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda folder: b"maze.svg", "pass a path as text"),
        (lambda folder: (folder / "r.svg").open("rb"), "open for reading only"),
        (lambda folder: object(), "neither a path nor a stream"),
    ],
)
def test_render_refuses_what_is_no_binary_stream_in_one_line(
    maze: Any, tmp_path: Path, make: Any, words: str
) -> None:
    from papergames.output import render, write_stdout

    (tmp_path / "r.svg").write_bytes(b"")
    out = make(tmp_path)
    try:
        for call in (
            lambda: render(maze, out, format="svg"),
            lambda: write_stdout(maze, out, format="svg"),
        ):
            with pytest.raises(SpecError, match=words):
                call()
    finally:
        if hasattr(out, "close"):
            out.close()
    assert (tmp_path / "r.svg").read_bytes() == b""
