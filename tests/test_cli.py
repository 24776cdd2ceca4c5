"""The command line, through typer's CliRunner: exit codes, messages, files written or not."""

from __future__ import annotations

import gc
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from papergames.cli import app, main
from papergames.games import game_names, get_layout
from papergames.sheets.spec import SheetSpec

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    assert lines[0].startswith("papergames: error: ")
    return lines[0]


def test_list_shows_every_game_with_parameters_and_ranges() -> None:
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0
    for name in game_names():
        layout = get_layout(name)
        assert re.search(rf"^{re.escape(name)}$", result.stdout, re.M)
        assert layout.title in result.stdout
        for p in layout.params:
            assert f"{p.name}=" in result.stdout
            assert p.range_text() in result.stdout


@pytest.mark.parametrize("fmt", ["pdf", "svg", "png"])
def test_sheet_writes_each_format(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"rings.{fmt}"
    code, stdout, stderr = run(
        "sheet", "rings", "--set", "circles=7", "--seed", "42", "--paper", "letter", "-o", str(out)
    )
    assert code == 0, stderr
    magic = {"pdf": b"%PDF", "svg": b"<?xml", "png": b"\x89PNG"}[fmt]
    assert out.read_bytes().startswith(magic)
    assert "rings circles=7 seed=42 paper=letter" in stdout


def test_format_option_overrides_suffix(tmp_path: Path) -> None:
    out = tmp_path / "board.out"
    code, _, stderr = run("sheet", "maze", "--seed", "1", "--format", "svg", "-o", str(out))
    assert code == 0, stderr
    assert out.read_bytes().startswith(b"<?xml")


def test_sheet_without_seed_prints_the_chosen_seed(tmp_path: Path) -> None:
    out = tmp_path / "r.pdf"
    code, stdout, _ = run("sheet", "rings", "-o", str(out))
    assert code == 0
    match = re.search(r"^seed (\d+)$", stdout, re.M)
    assert match is not None
    assert f"seed={match.group(1)}" in stdout


def test_sheet_orientation_flags(tmp_path: Path) -> None:
    from pypdf import PdfReader

    out = tmp_path / "l.pdf"
    assert run("sheet", "rings", "--seed", "3", "--landscape", "-o", str(out))[0] == 0
    box = PdfReader(str(out)).pages[0].mediabox
    assert float(box.width) > float(box.height)
    assert (
        "orientation=landscape"
        in run("sheet", "rings", "--seed", "3", "--landscape", "-o", str(out))[1]
    )


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["sheet", "rings", "--set", "circles=99"], "circles=99 is not allowed"),
        (["sheet", "rings", "--set", "circles"], "--set takes key=value"),
        (["sheet", "rings", "--set", "shade=red"], "unknown parameter 'shade'"),
        (["sheet", "nosuchgame"], "unknown game 'nosuchgame'"),
        (["sheet", "rings", "--paper", "b5"], "paper=b5 is not allowed"),
        (["sheet", "rings", "--format", "gif"], "unknown format 'gif'"),
        (["sheet", "rings", "--dpi", "5", "-f", "png"], "--dpi 5 is out of range"),
        (["sheet", "rings", "--seed", "-4"], "--seed -4 is out of range"),
        (["rules", "nosuchgame"], "unknown game"),
    ],
)
def test_bad_input_gives_one_line_and_no_file(
    tmp_path: Path, args: list[str], needle: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, stderr = run(*args)
    assert code == 2
    assert needle in one_error_line(stderr)
    assert list(tmp_path.iterdir()) == []


def test_unwritable_output_path(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "rings.pdf"
    code, _, stderr = run("sheet", "rings", "--seed", "1", "-o", str(target))
    assert code == 2
    assert "does not exist" in one_error_line(stderr)
    assert not target.parent.exists()
    blocked = tmp_path / "ro"
    blocked.mkdir()
    blocked.chmod(0o500)
    try:
        code, _, stderr = run("sheet", "rings", "--seed", "1", "-o", str(blocked / "x.pdf"))
        import os

        if os.geteuid() != 0:  # root may write anywhere
            assert code == 2
            assert "cannot write" in one_error_line(stderr)
        assert [p.name for p in blocked.iterdir() if p.name != "x.pdf"] == []
    finally:
        blocked.chmod(0o700)
    code, _, stderr = run("sheet", "rings", "--seed", "1", "-o", str(tmp_path))
    assert code == 2
    assert "cannot tell the format" in one_error_line(stderr)


@pytest.mark.parametrize("game", game_names())
def test_rules_prints_a_section_for_every_game(game: str) -> None:
    result = runner.invoke(app, ["rules", game])
    assert result.exit_code == 0
    layout = get_layout(game)
    assert result.stdout.startswith(layout.title)
    assert len(result.stdout.split()) > 60, "a rules section is a few paragraphs, not a line"


def test_demo_writes_a_pdf_of_every_game(tmp_path: Path) -> None:
    code, stdout, stderr = run("demo", "--out", str(tmp_path / "sheets"))
    assert code == 0, stderr
    written = [Path(line) for line in stdout.split()]
    assert sorted(p.stem for p in written) == sorted(game_names())
    for path in written:
        assert path.read_bytes().startswith(b"%PDF")


def test_spec_printed_by_sheet_parses_back(tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    _, stdout, _ = run("sheet", "rings", "--seed", "5", "--set", "circles=8", "-o", str(out))
    spec_text = stdout.split("(", 1)[1].rsplit(")", 1)[0]
    assert SheetSpec.parse(spec_text) == SheetSpec.create("rings", {"circles": "8"}, seed=5)


@pytest.mark.parametrize(
    ("args", "needle"),
    [(["sheet", "rings", "--bogus"], "No such option"), (["sheet"], "Missing argument")],
)
def test_console_script_turns_usage_errors_into_one_line(
    args: list[str],
    needle: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr("sys.argv", ["papergames", *args])
    with pytest.raises(SystemExit) as exit_info:
        main()
    gc.unfreeze()
    assert exit_info.value.code == 2
    assert needle in one_error_line(capsys.readouterr().err)


def test_console_script_ends_without_collecting_what_the_process_leaves_behind(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.argv", ["papergames", "list"])
    gc.unfreeze()
    with pytest.raises(SystemExit) as exit_info:
        main()
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    assert exit_info.value.code == 0
    assert "arp" in capsys.readouterr().out
    assert frozen > 0
