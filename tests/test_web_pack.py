"""The class pack through the web page's API: the command line's PDF, made in the background
with its progress, and every refusal a message."""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from papergames.cli import app as cli_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def start(client: TestClient, **fields: Any) -> tuple[int, dict[str, Any]]:
    response = client.post("/api/pack", data=fields)
    assert "Traceback" not in response.text
    return response.status_code, response.json()


def finish(client: TestClient, job: str) -> list[dict[str, Any]]:
    """Every status the job reports until it is ready or fails."""
    seen = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status = client.get(f"/api/pack/{job}").json()
        seen.append(status)
        if status["ready"] or status["error"]:
            return seen
        time.sleep(0.05)
    raise AssertionError("the pack was not made in time")


def test_a_pack_is_the_command_lines_pdf(client: TestClient, tmp_path: Path) -> None:
    fields = {"games": ["maze", "spaghetti"], "copies": "3", "seed": "42", "paper": "letter"}
    code, job = start(client, **fields, rules="first", per_page="2")
    assert code == 202 and job["filename"] == "maze-spaghetti-pack-42.pdf"
    seen = finish(client, job["id"])
    assert seen[-1]["ready"] and seen[-1]["done"] == seen[-1]["total"] == 6
    dones = [s["done"] for s in seen]
    assert dones == sorted(dones)
    response = client.get(f"/api/pack/{job['id']}/file")
    assert response.headers["content-disposition"] == f'attachment; filename="{job["filename"]}"'
    out = tmp_path / "pack.pdf"
    options = ["--copies", "3", "--seed", "42", "--paper", "letter", "--rules", "first"]
    command = ["pack", "maze", "spaghetti", *options, "--per-page", "2", "-o", str(out), "-q"]
    result = CliRunner().invoke(cli_app, command)
    assert result.exit_code == 0, result.stderr
    assert response.content == out.read_bytes()


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"copies": "3", "seed": "1"}, "choose at least one game"),
        ({"games": ["maze"], "copies": "lots", "seed": "1"}, "copies takes a whole number"),
        ({"games": ["maze"], "copies": "3", "seed": "-1"}, "seed=-1 is not allowed"),
        ({"games": ["maze", "maze"], "copies": "3", "seed": "1"}, "chosen twice"),
        ({"games": ["mazes"], "copies": "3", "seed": "1"}, "did you mean maze"),
        ({"games": ["maze"], "copies": "3", "seed": "1", "paper": "napkin"}, "napkin"),
    ],
)
def test_a_pack_that_cannot_start_is_a_message_and_a_400(
    client: TestClient, fields: dict[str, Any], words: str
) -> None:
    code, answer = start(client, **fields)
    assert code == 400 and words in answer["error"]


@pytest.mark.parametrize(
    ("fields", "flag"),
    [
        ({"copies": "0"}, ["--copies", "0"]),
        ({"copies": "3", "per_page": "3"}, ["--copies", "3", "--per-page", "3"]),
        ({"copies": "3", "rules": "middle"}, ["--copies", "3", "--rules", "middle"]),
    ],
)
def test_a_pack_the_library_refuses_reports_the_command_lines_words(
    client: TestClient, tmp_path: Path, fields: dict[str, Any], flag: list[str]
) -> None:
    code, job = start(client, games=["maze"], seed="1", **fields)
    assert code == 202
    error = finish(client, job["id"])[-1]["error"]
    result = CliRunner().invoke(
        cli_app, ["pack", "maze", "--seed", "1", *flag, "-o", str(tmp_path / "p.pdf"), "-q"]
    )
    assert result.exit_code == 2
    assert error == result.stderr.strip().removeprefix("papergames: error: ")
    assert client.get(f"/api/pack/{job['id']}/file").status_code == 409


def test_an_unknown_pack_is_a_404(client: TestClient) -> None:
    assert client.get("/api/pack/nothing").status_code == 404
    assert client.get("/api/pack/nothing/file").status_code == 404


def test_the_pack_page_offers_every_game(client: TestClient) -> None:
    from papergames.games import GAMES

    page = client.get("/pack").text
    for name in GAMES:
        assert f'name="games" value="{name}"' in page


def test_each_games_own_settings_make_the_command_lines_pack(
    client: TestClient, tmp_path: Path
) -> None:
    import shlex

    fields = {
        "games": ["rings", "maze"],
        "rings:rounds": "2",
        "rings:circles": "5",
        "maze:size": "8",  # the default: left out of the command
        "spaghetti:size": "5",  # a game not chosen: ignored
        "copies": "2",
        "seed": "11",
        "rules": "none",
    }
    code, job = start(client, **fields)
    assert code == 202
    assert job["command"] == (
        "papergames pack 'rings circles=5 rounds=2' maze --copies 2 --seed 11 --paper a4 "
        "--rules none --per-page 1"
    )
    assert finish(client, job["id"])[-1]["ready"]
    made = client.get(f"/api/pack/{job['id']}/file").content
    out = tmp_path / "pack.pdf"
    words = shlex.split(job["command"])[1:]
    result = CliRunner().invoke(cli_app, [*words, "-o", str(out), "-q"])
    assert result.exit_code == 0, result.stderr
    assert made == out.read_bytes()


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"rings:rounds": "99"}, "rounds=99"),
        ({"rings:rounds": "2 3"}, "one word"),
    ],
)
def test_a_games_bad_setting_is_refused_before_the_pack_starts(
    client: TestClient, fields: dict[str, str], words: str
) -> None:
    code, answer = start(client, games=["rings"], copies="1", seed="1", **fields)
    assert code == 400 and words in answer["error"]


def test_the_pack_page_opens_with_the_sheet_pages_settings(client: TestClient) -> None:
    import re

    page = client.get("/pack?game=rings&rounds=2&seed=4&paper=letter").text
    assert re.search(r'value="rings" checked', page)
    assert '<details id="settings-rings" open>' in page
    rounds = re.search(r'<input id="in-rings:rounds"[^>]*>', page, re.S)
    assert rounds and 'value="2"' in rounds.group(0)
    assert '<details id="settings-maze">' in page


def test_a_games_own_seed_or_paper_is_refused_by_the_command(tmp_path: Path) -> None:
    for spec in ("rings seed=2", "maze paper=a5"):
        result = CliRunner().invoke(cli_app, ["pack", spec, "-o", str(tmp_path / "p.pdf")])
        assert result.exit_code == 2
        assert "is the whole pack's, not one game's" in result.stderr
        assert not (tmp_path / "p.pdf").exists()


@pytest.mark.parametrize(
    ("spec", "words"),
    [("rings rounds=99", "rounds=99 is not allowed"), ("rings rounds=2 bad", "key=value")],
)
def test_a_games_own_bad_setting_names_that_game(tmp_path: Path, spec: str, words: str) -> None:
    out = tmp_path / "p.pdf"
    result = CliRunner().invoke(cli_app, ["pack", "maze", spec, "-o", str(out), "-q"])
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert line.startswith(f"papergames: error: '{spec}': ") and words in line
    assert "\n" not in line and not out.exists()
