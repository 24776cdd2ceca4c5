"""The command line's manners: one game's record, help and version, completion, suggestions for
mistyped games, refusals that name what is wrong, and a README whose examples run."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from papergames.cli import app, main
from papergames.errors import PapergamesError, SpecError
from papergames.games import game_names, get_layout
from papergames.play.transcript import parse_text
from papergames.sheets.spec import SheetSpec

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
COMMANDS = list(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    assert lines[0].startswith("papergames: error: ")
    return lines[0]


def refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    """Run a command that must fail: exit 2, one error line, nothing written."""
    monkeypatch.chdir(tmp_path)
    before = sorted(tmp_path.iterdir())
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, result.stdout
    assert sorted(tmp_path.iterdir()) == before
    return one_error_line(result.stderr)


# --- list GAME ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", game_names())
def test_list_game_shows_that_game_alone(game: str) -> None:
    result = runner.invoke(app, ["list", game])
    assert result.exit_code == 0, result.stderr
    layout = get_layout(game)
    record = layout.game
    lines = result.stdout.splitlines()
    assert lines[0] == game
    assert record.title in lines[1] and record.author in lines[1]
    assert f"{record.players_text} players" in lines[1]
    assert " ".join(record.summary.split()[:4]) in result.stdout
    others = [name for name in game_names() if name != game]
    assert not any(re.search(rf"^{re.escape(name)}$", result.stdout, re.M) for name in others)
    for p in layout.params:
        assert f"{p.name}={p.format(p.default) or '-'}" in result.stdout
        assert p.range_text() in result.stdout


def test_list_game_takes_any_case() -> None:
    assert runner.invoke(app, ["list", "RINGS"]).stdout.startswith("rings\n")


@pytest.mark.parametrize("args", [["list"], ["list", "rings"], ["list", "cubist-studio"]])
def test_the_range_column_is_aligned(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0
    starts = set()
    blocks = {block.split("\n", 1)[0]: block for block in result.stdout.split("\n\n")}
    for game in game_names() if len(args) == 1 else [args[1]]:
        lines = blocks[game].splitlines()
        for p in get_layout(game).params:
            key = f"{p.name}={p.format(p.default) or '-'}"
            line = next(line for line in lines if line.split()[:1] == [key])
            starts.add(line.index(p.range_text(), len("    ") + len(key)))
    assert len(starts) == 1, starts


# --- help, version, completion -----------------------------------------------------------------


@pytest.mark.parametrize("command", [[], *[[name] for name in COMMANDS]])
def test_h_is_help_on_every_command(command: list[str]) -> None:
    short = runner.invoke(app, [*command, "-h"])
    long = runner.invoke(app, [*command, "--help"])
    assert short.exit_code == 0 and long.exit_code == 0
    assert short.stdout == long.stdout
    assert short.stdout.startswith("Usage: ")
    assert "-h, --help" in short.stdout


def test_version_comes_from_the_package_metadata(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"papergames {version('papergames')}\n"
    monkeypatch.setattr("sys.argv", ["papergames", "--version"])
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == result.stdout


def test_shell_completion_is_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    result = runner.invoke(app, ["--help"])
    assert "--install-completion" in result.stdout and "--show-completion" in result.stdout
    # --show-completion takes no value: typer finds the shell among the process's ancestors,
    # and a test run started with no shell above it (a detached job) has none.
    monkeypatch.setattr("typer.completion._get_shell_name", lambda: "bash")
    script = runner.invoke(app, ["--show-completion"])
    assert script.exit_code == 0
    assert "_PAPERGAMES_COMPLETE" in script.stdout


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("papergames sheet ri", ["rings"]),
        ("papergames rules cu", ["cubist-studio", "cubist-score"]),
        ("papergames list pa", ["palindromes"]),
        ("papergames sheet rings ci", ["circles="]),
        ("papergames sheet klee size=10 s", ["seed="]),
    ],
)
def test_completion_knows_games_and_their_keys(words: str, expected: list[str]) -> None:
    env = {
        "_PAPERGAMES_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - 1),
    }
    result = runner.invoke(app, [], env=env, prog_name="papergames")
    assert result.exit_code == 0
    assert result.stdout.split() == expected


def test_pack_help_names_every_paper_it_takes() -> None:
    from papergames.sheets.units import PAPERS

    result = runner.invoke(app, ["pack", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    missing = [paper for paper in PAPERS if paper not in text]
    assert not missing, f"pack --help does not name {missing}"


# --- did you mean ------------------------------------------------------------------------------

SUGGESTION = "unknown game 'ring': did you mean rings?"


@pytest.mark.parametrize(
    "args",
    [
        ["sheet", "ring"],
        ["sheet", "ring seed=4"],
        ["pack", "ring", "-n", "2"],
        ["rules", "ring"],
        ["rules", "ring", "-o", "r.pdf"],
        ["list", "ring"],
    ],
)
def test_a_mistyped_game_gets_the_nearest_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    assert refused(tmp_path, monkeypatch, *args) == f"papergames: error: {SUGGESTION}"


def test_a_transcript_and_a_spec_get_the_same_suggestion(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SpecError, match=re.escape(SUGGESTION)):
        SheetSpec.parse("ring seed=4")
    with pytest.raises(PapergamesError, match=re.escape(SUGGESTION)):
        parse_text("sheet: ring seed=4\nplayers: Ann, Bob\n")
    (tmp_path / "game.txt").write_text("sheet: ring seed=4\nplayers: Ann, Bob\n")
    assert SUGGESTION in refused(tmp_path, monkeypatch, "check", "game.txt")


def test_a_name_far_from_every_game_lists_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = refused(tmp_path, monkeypatch, "sheet", "chess")
    assert "unknown game 'chess' (known: " in line
    assert all(name in line for name in game_names())


def test_a_mistyped_key_gets_the_nearest_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = refused(tmp_path, monkeypatch, "sheet", "rings circle=7 seed=1")
    assert line.endswith("unknown parameter 'circle' for rings: did you mean circles?")
    line = refused(tmp_path, monkeypatch, "sheet", "rings", "--set", "papr=letter")
    assert line.endswith("did you mean paper?")


# --- the spec's keys on the command line --------------------------------------------------------


def test_set_takes_the_sheet_keys_too(tmp_path: Path) -> None:
    out = tmp_path / "k.pdf"
    args = ["--set", "paper=letter", "--set", "orientation=portrait", "--set", "markers=off"]
    result = runner.invoke(app, ["sheet", "klee", "--set", "seed=5", *args, "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert "(klee seed=5 paper=letter orientation=portrait markers=off)" in result.stdout
    assert not re.search(r"^seed \d+$", result.stdout, re.M), "a seed given is not announced"
    assert out.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["sheet", "klee seed=5", "--seed", "6"], "seed is given twice, as seed=5 and seed=6"),
        (["sheet", "klee seed=5 paper=a3", "--paper", "letter"], "paper is given twice"),
        (["sheet", "klee", "--set", "markers=off", "--markers"], "markers is given twice"),
        (["sheet", "klee orientation=portrait", "--landscape"], "orientation is given twice"),
        (["sheet", "klee seed=5", "--set", "seed=5"], "'seed' is given twice"),
        (["sheet", "klee seed=5 seed=6"], "'seed' is given twice in the sheet spec"),
        (["sheet", "klee size"], "the sheet spec takes key=value, got 'size'"),
        (["sheet", "klee", "--set", "paper=b5"], "paper=b5 is not allowed"),
        (["sheet", "klee", "--set", "orientation=sideways"], "orientation=sideways is not"),
        (["sheet", "klee", "--set", "markers=maybe"], "markers=maybe is not allowed"),
        (["sheet", "klee", "--set", "seed=-1"], "seed=-1 is not allowed"),
        (["sheet", ""], "empty sheet spec"),
        (["sheet", "seed=5 klee"], "it starts with the game's name"),
    ],
)
def test_conflicting_or_malformed_keys_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], needle: str
) -> None:
    assert needle in refused(tmp_path, monkeypatch, *args)


def test_a_spec_given_twice_the_same_way_is_fine(tmp_path: Path) -> None:
    out = tmp_path / "k.svg"
    result = runner.invoke(
        app,
        ["sheet", "klee seed=5 paper=letter", "--seed", "5", "--paper", "letter", "-o", str(out)],
    )
    assert result.exit_code == 0, result.stderr


# --- --format and the suffix --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "name"), [("png", "x.pdf"), ("svg", "x.PNG"), ("pdf", "x.svg"), ("PNG", "x.pdf")]
)
def test_a_suffix_that_disagrees_with_format_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, name: str
) -> None:
    line = refused(tmp_path, monkeypatch, "sheet", "rings", "--format", fmt, "-o", name)
    assert f"--format {fmt}" in line and name in line


@pytest.mark.parametrize(("fmt", "name"), [("png", "x.PNG"), ("svg", "x.out"), ("PDF", "x.pdf")])
def test_a_suffix_that_agrees_or_names_no_format_is_fine(
    tmp_path: Path, fmt: str, name: str
) -> None:
    out = tmp_path / name
    result = runner.invoke(app, ["sheet", "rings", "--seed", "1", "-f", fmt, "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    magic = {"pdf": b"%PDF", "svg": b"<?xml", "png": b"\x89PNG"}[fmt.lower()]
    assert out.read_bytes().startswith(magic)


# --- the README ---------------------------------------------------------------------------------


def test_readme_check_examples_name_files_that_exist() -> None:
    readme = (ROOT / "README.md").read_text()
    named = re.findall(r"^papergames check (\S+)", readme, re.M)
    assert named
    for path in named:
        assert (ROOT / path).is_file(), path


def test_readme_says_how_to_run_the_command_after_make_demo() -> None:
    readme = (ROOT / "README.md").read_text()
    first_steps = readme.split("## Using it")[0]
    assert ".venv/bin/papergames" in first_steps
    assert "source .venv/bin/activate" in first_steps
