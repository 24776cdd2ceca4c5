"""The web page's routes, through Starlette's test client: what each page offers, that every
download is the command line's file, and that bad values and hostile uploads get a clear
message and a 4xx, never a traceback."""

from __future__ import annotations

import html
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from papergames.cli import app as cli_app
from papergames.errors import SpecError
from papergames.games import GAMES, get_layout
from papergames.sheets.spec import RESERVED, SheetSpec
from papergames.web.serve import LOOPBACK_NAMES
from papergames.web.uploads import MAX_UPLOAD

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

    from papergames.web.app import create_app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
runner = CliRunner()


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(cli_app, list(args))
    return result.exit_code, result.stderr


def cli_error(*args: str) -> str:
    """The one line the command line prints for a refused spec, without its prefix."""
    code, stderr = cli(*args)
    assert code == 2, stderr
    return stderr.strip().removeprefix("papergames: error: ")


def message_of(page: str) -> str:
    found = re.search(r'id="message"[^>]*>(.*?)</p>', page, re.S)
    assert found, page
    return html.unescape(found.group(1))


def assert_no_trace(text: str) -> None:
    assert "Traceback" not in text and 'File "' not in text


# The gallery ---------------------------------------------------------------------------------


def test_the_gallery_shows_every_game_with_its_picture_players_and_summary(
    client: TestClient,
) -> None:
    page = client.get("/").text
    for record in GAMES.values():
        card = re.search(rf'id="card-{re.escape(record.name)}">(.*?)</li>', page, re.S)
        assert card, record.name
        text = html.unescape(card.group(1))
        assert f'src="/thumb/{record.name}.png"' in text
        assert f'href="/game/{record.name}"' in text
        assert f"{record.players_text} players" in text
        assert record.summary[1:] in text and record.summary[:1].upper() in text


def test_a_thumbnail_is_a_small_png_of_the_sheet_with_its_page_proportions(
    client: TestClient,
) -> None:
    from io import BytesIO

    from PIL import Image

    from conftest import sheet_for

    response = client.get("/thumb/klee.png")
    assert response.status_code == 200 and response.headers["content-type"] == "image/png"
    picture = Image.open(BytesIO(response.content))
    page = sheet_for("klee").page
    assert picture.width < 400
    assert abs(picture.width / picture.height - page.width / page.height) < 0.02


# The sheet form ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_form_has_an_input_for_every_declared_parameter(client: TestClient, game: str) -> None:
    page = client.get(f"/game/{game}").text
    for param in get_layout(game).params:
        default = html.escape(param.format(param.default))
        if param.kind in ("int", "float"):
            found = re.search(rf'<input id="in-{param.name}" name="{param.name}"[^>]*>', page)
            assert found, param.name
            assert f'value="{default}"' in found.group(0)
            low, high = re.search(r'min="([^"]*)" max="([^"]*)"', found.group(0)).groups()
            assert float(low) == param.low and float(high) == param.high
        elif param.kind in ("bool", "choice"):
            select = re.search(rf'<select id="in-{param.name}"(.*?)</select>', page, re.S)
            assert select, param.name
            options = re.findall(r'<option value="([^"]*)"', select.group(1))
            assert options == (["on", "off"] if param.kind == "bool" else list(param.choices))
            assert re.search(rf'value="{re.escape(default)}" selected', select.group(1))
        else:
            assert f'name="{param.name}"' in page
        assert param.help in html.unescape(page)
    for key in RESERVED:
        # A class and a group number are set by a class list's pack, not on one sheet's page.
        assert page.count(f'name="{key}"') == (0 if key in ("class", "group") else 1), key


def test_the_preview_is_the_sheets_svg_and_follows_the_values(client: TestClient) -> None:
    small = client.get("/api/preview/maze?seed=4&size=5")
    large = client.get("/api/preview/maze?seed=4&size=9")
    assert small.status_code == large.status_code == 200
    assert small.headers["content-type"].startswith("image/svg+xml")
    assert small.content != large.content
    spec = SheetSpec.create("maze", {"size": "9"}, seed=4)
    assert large.headers["x-spec"] == str(spec)
    # The same bytes as the library's SVG of that spec.
    from io import BytesIO

    from papergames.output import render
    from papergames.sheets.sheet import make_sheet

    buffer = BytesIO()
    render(make_sheet(spec), buffer, format="svg")
    assert large.content == buffer.getvalue()


def test_a_sheet_of_several_pages_previews_each_page(client: TestClient) -> None:
    first = client.get("/api/preview/compositie?seed=2&page=1")
    second = client.get("/api/preview/compositie?seed=2&page=2")
    assert first.headers["x-pages"] == "2"
    assert first.content != second.content
    missing = client.get("/api/preview/compositie?seed=2&page=3")
    assert missing.status_code == 400 and "page 3" in missing.json()["error"]


@pytest.mark.parametrize(
    ("spec", "fmt", "name"),
    [
        ("maze size=7 seed=11", "pdf", "maze-11.pdf"),
        ("rings circles=5 seed=3 paper=letter", "svg", "rings-3.svg"),
        ("klee seed=8 markers=off", "png", "klee-8.png"),
        ("cannon-ball seed=5", "pdf", "cannon-ball-5.pdf"),
    ],
)
def test_a_download_is_the_same_bytes_as_the_command_lines_file(
    client: TestClient, tmp_path: Path, spec: str, fmt: str, name: str
) -> None:
    game, *words = spec.split()
    query = "&".join(words) + f"&format={fmt}"
    response = client.get(f"/download/{game}?{query}")
    assert response.status_code == 200, response.text
    assert response.headers["content-disposition"] == f'attachment; filename="{name}"'
    code, stderr = cli("sheet", spec, "-o", str(tmp_path / name))
    assert code == 0, stderr
    assert response.content == (tmp_path / name).read_bytes()


def test_one_page_of_a_two_page_sheet_is_the_commands_numbered_file(
    client: TestClient, tmp_path: Path
) -> None:
    response = client.get("/download/compositie?seed=6&format=svg&page=2")
    assert 'filename="compositie-6-2.svg"' in response.headers["content-disposition"]
    code, stderr = cli("sheet", "compositie seed=6", "-o", str(tmp_path / "compositie-6.svg"))
    assert code == 0, stderr
    assert response.content == (tmp_path / "compositie-6-2.svg").read_bytes()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_value_out_of_range_is_refused_with_the_command_lines_words(
    client: TestClient, game: str
) -> None:
    param = next(p for p in get_layout(game).params if p.kind in ("int", "bool", "choice"))
    too_big = str(int(param.high or 0) + 1) if param.kind == "int" else "nonsense"
    with pytest.raises(SpecError) as refused:
        SheetSpec.create(game, {param.name: too_big}, seed=1)
    response = client.get(f"/api/preview/{game}?seed=1&{param.name}={too_big}")
    assert response.status_code == 400
    assert response.json() == {"error": str(refused.value), "field": param.name}
    download = client.get(f"/download/{game}?seed=1&{param.name}={too_big}&format=pdf")
    assert download.status_code == 400
    assert message_of(download.text) == str(refused.value)


@pytest.mark.parametrize(
    "query",
    [
        "size=99&seed=1",
        "size=lots&seed=1",
        "size=&seed=1",
        "sise=5&seed=1",
        "seed=-4",
        "seed=1&paper=napkin",
        "seed=1&markers=maybe",
    ],
)
def test_the_preview_gives_the_same_message_as_the_command_line(
    client: TestClient, query: str
) -> None:
    words = " ".join(query.split("&"))
    expected = cli_error("sheet", f"maze {words}", "-o", "unused.pdf")
    response = client.get(f"/api/preview/maze?{query}")
    assert response.status_code == 400
    assert response.json()["error"] == expected


@pytest.mark.parametrize(
    ("url", "status", "words"),
    [
        ("/game/mazee", 404, "did you mean maze"),
        ("/api/preview/nothing?seed=1", 404, "unknown game"),
        ("/download/maze?seed=1&format=docx", 400, "unknown format 'docx'"),
        ("/download/maze?seed=1&format=png&dpi=5000", 400, "--dpi 5000 is out of range"),
        ("/download/maze?seed=1&format=png&dpi=lots", 400, "dpi takes a whole number"),
        ("/download/maze?seed=1&format=svg&page=9", 400, "page 9 is not in the sheet"),
        ("/rules/maze.pdf?paper=napkin", 400, "paper=napkin is not allowed"),
        ("/static/../app.py", 404, ""),
        ("/static/app.py", 404, "no such file"),
    ],
)
def test_bad_requests_get_a_message_and_a_4xx(
    client: TestClient, url: str, status: int, words: str
) -> None:
    response = client.get(url)
    assert response.status_code == status
    assert_no_trace(response.text)
    body = response.json()["error"] if "json" in response.headers["content-type"] else response.text
    assert words in html.unescape(body)


# Rules ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["rings", "cubist-studio", "palindromes"])
def test_the_rules_are_in_the_page(client: TestClient, game: str) -> None:
    record = GAMES[game]
    for url in (f"/game/{game}", f"/rules/{game}"):
        words = re.sub(r"<[^>]+>", "", client.get(url).text)
        text = html.unescape(re.sub(r"\s+", " ", words))
        for para in record.how_to_play.strip().split("\n\n"):
            assert " ".join(para.split()) in text


def test_the_rules_pdf_is_the_command_lines(client: TestClient, tmp_path: Path) -> None:
    response = client.get("/rules/spaghetti.pdf?paper=letter")
    assert response.status_code == 200
    code, stderr = cli("rules", "spaghetti", "--paper", "letter", "-o", str(tmp_path / "r.pdf"))
    assert code == 0, stderr
    assert response.content == (tmp_path / "r.pdf").read_bytes()


# Check ---------------------------------------------------------------------------------------


def check(client: TestClient, name: str, data: bytes) -> tuple[int, str]:
    response = client.post("/check", files={"transcript": (name, data, "text/plain")})
    assert_no_trace(response.text)
    return response.status_code, response.text


@pytest.mark.parametrize("example", ["maze.txt", "rings.txt", "palindromes.json"])
def test_a_finished_game_gets_the_checkers_verdict(client: TestClient, example: str) -> None:
    from papergames.play.checker import check_text

    text = (EXAMPLES / example).read_text(encoding="utf-8")
    verdict = check_text(text, example)
    status, page = check(client, example, text.encode())
    assert status == 200
    shown = html.unescape(re.search(r"<pre>(.*?)</pre>", page, re.S).group(1))
    assert shown.splitlines() == verdict.lines()
    assert ("verdict good" in page) == verdict.ok


def test_a_game_that_stops_early_is_not_in_order(client: TestClient) -> None:
    lines = (EXAMPLES / "maze.txt").read_text(encoding="utf-8").splitlines()
    head = [line for line in lines if line.startswith(("sheet:", "players:"))]
    moves = [line for line in lines if re.match(r"(Ann|Bob|Cy): ", line)]
    cut = "\n".join(head + moves[:10]) + "\n"
    status, page = check(client, "short.txt", cut.encode())
    assert status == 200
    assert "verdict bad" in page


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "game.txt is empty"),
        (b"\xff\xfe\x00\x01 binary", "not text in UTF-8 but in UTF-16"),
        (b"sheet: maze seed=1\x00\n", "NUL bytes"),
        (b"hello", "no 'sheet:' line"),
        (b"sheet: maze size=99 seed=1\nplayers: A B\n1. A x\n", "size=99 is not allowed"),
    ],
)
def test_an_unreadable_upload_is_a_message_and_a_400(
    client: TestClient, data: bytes, words: str
) -> None:
    status, page = check(client, "game.txt", data)
    assert status == 400
    assert words in message_of(page)


def test_an_upload_over_the_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    status, page = check(client, "big.txt", b"#" * (MAX_UPLOAD + 20_000))
    assert status == 413
    assert "too large" in message_of(page)


def test_an_upload_sent_in_chunks_is_cut_at_the_limit(client: TestClient) -> None:
    boundary = "xyz"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="transcript"; '
        'filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n'
    ).encode()

    def body() -> Iterator[bytes]:
        yield head
        for _ in range(40):
            yield b"#" * 16_384
        yield f"\r\n--{boundary}--\r\n".encode()

    response = client.post(
        "/check",
        content=body(),
        headers={"content-type": f"multipart/form-data; boundary={boundary}"},
    )
    assert response.status_code == 413
    assert "too large" in message_of(response.text)


def test_the_uploads_name_is_shown_plain_and_never_used_as_a_path(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    text = (EXAMPLES / "maze.txt").read_bytes()
    status, page = check(client, '../../<script>alert(1)</script>"x.txt', text)
    assert status == 200
    assert "<script>alert" not in page
    heading = re.search(r"<h2>(.*?):", page).group(1)
    assert "/" not in heading and "<" not in heading and ".." not in heading
    assert list(tmp_path.iterdir()) == []


def test_a_form_without_a_file_or_with_two_is_refused(client: TestClient) -> None:
    none = client.post("/check", data={"other": "x"})
    assert none.status_code == 400 and "choose a transcript" in message_of(none.text)
    two = client.post(
        "/check",
        files=[("transcript", ("a.txt", b"a")), ("transcript", ("b.txt", b"b"))],
    )
    assert two.status_code == 400
    assert_no_trace(two.text)


def test_broken_multipart_data_is_a_400(client: TestClient) -> None:
    response = client.post(
        "/check", content=b"nonsense", headers={"content-type": "multipart/form-data; boundary=q"}
    )
    assert response.status_code == 400
    assert_no_trace(response.text)


# The server ----------------------------------------------------------------------------------


def test_every_page_is_sent_with_headers_that_keep_it_to_itself(client: TestClient) -> None:
    for url in ("/", "/game/maze", "/check", "/api/preview/maze?seed=1"):
        headers = client.get(url).headers
        assert "default-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"


def test_pages_load_nothing_from_elsewhere(client: TestClient) -> None:
    for url in ("/", "/game/rings", "/rules/rings", "/check", "/static/style.css"):
        text = client.get(url).text
        assert not re.search(r"(src|href)=\"(https?:)?//", text)
        assert "@import" not in text and "url(http" not in text


def test_on_the_loopback_a_request_for_another_host_name_is_refused() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        local = TestClient(create_app(allowed_hosts=LOOPBACK_NAMES), base_url="http://127.0.0.1")
    assert local.get("/check").status_code == 200
    assert local.get("/check", headers={"host": "evil.example"}).status_code == 400


def test_serve_warns_when_the_page_is_opened_to_the_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[str, int, bool]] = []
    monkeypatch.setattr(
        "papergames.web.serve.serve",
        lambda host, port, *, open_browser: calls.append((host, port, open_browser)),
    )
    monkeypatch.setattr("papergames.web.serve.check_port", lambda host, port: None)
    loud = runner.invoke(cli_app, ["serve", "--host", "0.0.0.0", "--port", "8123", "--no-browser"])
    assert loud.exit_code == 0
    assert "warning" in loud.stderr and "network" in loud.stderr
    quiet = runner.invoke(cli_app, ["serve", "--port", "8124"])
    assert quiet.exit_code == 0 and "warning" not in quiet.stderr
    assert "http://127.0.0.1:8124/" in quiet.stdout
    assert calls == [("0.0.0.0", 8123, False), ("127.0.0.1", 8124, True)]


def test_serve_refuses_a_port_in_use_with_one_line() -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(cli_app, ["serve", "--port", str(port), "--no-browser"])
    assert result.exit_code == 2
    assert re.fullmatch(rf"papergames: error: --port {port}: .*\n", result.stderr)
    bad = runner.invoke(cli_app, ["serve", "--port", "70000", "--no-browser"])
    assert bad.exit_code == 2 and "out of range" in bad.stderr


def board_data(page: str) -> tuple[list[list[str]], list[str]]:
    import json

    paint = re.search(r'data-paint="([^"]*)"', page)
    flagged = re.search(r'data-flagged="([^"]*)"', page)
    assert paint and flagged, page[-800:]
    return json.loads(html.unescape(paint.group(1))), json.loads(html.unescape(flagged.group(1)))


def test_the_checked_sheet_shows_the_moves_and_outlines_the_illegal_one(
    client: TestClient,
) -> None:
    moves = ["space-3", "space-3"]
    text = "sheet: vasarely seed=1\nplayers: Ann (red), Bob (blue)\n"
    text += "".join(f"{p}: {m}\n" for p, m in zip(["Ann", "Bob"], moves, strict=True))
    status, page = check(client, "game.txt", text.encode())
    assert status == 200 and "verdict bad" in page
    paint, flagged = board_data(page)
    assert paint == [["space-3", "red"]]
    assert flagged == ["space-3"]
    assert (
        "'unsafe-inline'"
        in client.post("/check", files={"transcript": ("g.txt", text.encode())}).headers[
            "content-security-policy"
        ]
    )


def test_a_finished_sheet_outlines_the_items_of_every_broken_rule(client: TestClient) -> None:
    from papergames.play.checker import check_text
    from papergames.sheets.board import Board

    from conftest import sheet_for

    board = Board.of(sheet_for("mondrian").page)
    a, b = board.ids[0], board.ids[board.neighbours[0][0]]
    text = f"sheet: mondrian seed=1\nplayers: Ann (red), Bob (blue)\nfinal: {a} red, {b} Ann\n"
    verdict = check_text(text)
    status, page = check(client, "final.txt", text.encode())
    assert status == 200 and "verdict bad" in page
    paint, flagged = board_data(page)
    assert paint == [[a, "red"], [b, "red"]]
    breached = [i for breach in verdict.report.breaches for i in breach.items]
    assert {a, b} <= set(flagged) and set(flagged) <= set(breached)


def test_a_judge_of_its_own_form_shows_no_sheet(client: TestClient) -> None:
    text = (EXAMPLES / "cubist-installation-illegal.txt").read_bytes()
    status, page = check(client, "cubist.txt", text)
    assert status == 200 and 'id="board"' not in page


def test_every_file_the_page_serves_ships_in_the_package() -> None:
    import tomllib
    from fnmatch import fnmatch

    root = Path(__file__).resolve().parent.parent
    pyproject = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["papergames.web"]
    web = root / "generator" / "web"
    assets = [p for folder in ("static", "templates") for p in (web / folder).iterdir()]
    assert assets
    for path in assets:
        name = path.relative_to(web).as_posix()
        assert any(fnmatch(name, pattern) for pattern in patterns), f"{name} is not package data"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_form_as_drawn_previews_the_default_sheet(client: TestClient, game: str) -> None:
    page = client.get(f"/game/{game}").text
    form = page[page.index('<form id="sheet-form"') : page.index("</form>")]
    values = dict(
        re.findall(r'<input id="in-[^"]*" name="([^"]*)" type="[^"]*" value="([^"]*)"', form)
    )
    for name, select in re.findall(
        r'<select id="in-[^"]*" name="([^"]*)"(.*?)</select>', form, re.S
    ):
        values[name] = re.search(r'<option value="([^"]*)" selected', select).group(1)
    values = {k: html.unescape(v) for k, v in values.items() if k != "format"}
    response = client.get(f"/api/preview/{game}", params=values)
    assert response.status_code == 200, response.text
    assert response.headers["x-spec"] == str(SheetSpec.create(game, seed=int(values["seed"])))


def test_a_form_sent_from_another_web_site_is_refused(client: TestClient) -> None:
    text = (EXAMPLES / "maze.txt").read_bytes()
    files = {"transcript": ("maze.txt", text)}
    elsewhere = client.post("/check", files=files, headers={"origin": "http://evil.example"})
    assert elsewhere.status_code == 403 and "another web site" in message_of(elsewhere.text)
    here = client.post("/check", files=files, headers={"origin": "http://testserver"})
    assert here.status_code == 200


def random_game(spec: str, seed: int, most: int) -> tuple[Any, Any, str]:
    """A random legal game of at most ``most`` moves: the engine, its last state, the text."""
    from papergames.play.game import build_game
    from papergames.play.transcript import format_transcript, parse_transcript
    from papergames.web.record import header

    from playout import random_moves, transcript_of

    engine = build_game(parse_transcript(header(spec, ["Ann", "Bob"])))
    played = list(random_moves(engine, seed, most))
    state = played[-1][2] if played else engine.initial()
    text = format_transcript(transcript_of(engine, [move for _, move, _ in played]))
    return engine, state, text


def test_a_checked_game_of_several_rounds_draws_each_rounds_page(client: TestClient) -> None:
    import json

    _, _, text = random_game("rings seed=4 rounds=2", 4, 1000)
    moves = sum(1 for line in text.splitlines() if line.startswith(("Ann:", "Bob:")))
    status, page = check(client, "rings.txt", text.encode())
    assert status == 200
    pages = [int(p) for p in re.findall(r'data-page="(\d+)"', page)]
    assert pages == [1, 2]
    drawn = [json.loads(html.unescape(v)) for v in re.findall(r'data-lines="([^"]*)"', page)]
    assert [len(d) for d in drawn] == [moves // 2, moves // 2]


def test_a_checked_cannon_ball_game_shows_the_pieces_where_they_stand(client: TestClient) -> None:
    import json

    from papergames.layouts.compositie.board import square_id

    _, state, text = random_game("cannon-ball seed=2", 2, 12)
    status, page = check(client, "cb.txt", text.encode())
    assert status == 200
    [painted] = [json.loads(html.unescape(v)) for v in re.findall(r'data-paint="([^"]*)"', page)]
    assert dict(painted) == {square_id(k): c for k, c in enumerate(state.board) if c}
