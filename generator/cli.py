"""The ``papergames`` command: thin adapters over the library.

Each command parses its options once, calls the library, and prints. Errors the user caused
become one line on stderr and a non-zero exit (2); nothing half-written is left behind.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from papergames.errors import PapergamesError

app = typer.Typer(
    name="papergames",
    help="Printable boards and score sheets for pencil-and-paper games.",
    add_completion=False,
    invoke_without_command=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

EXIT_INPUT = 2

P = ParamSpec("P")
R = TypeVar("R")


def user_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Report input errors as one line on stderr and exit with code 2, without a traceback."""

    @wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except PapergamesError as exc:
            typer.echo(f"papergames: error: {exc}", err=True)
            raise typer.Exit(EXIT_INPUT) from None

    return wrapper


def parse_settings(pairs: list[str]) -> dict[str, str]:
    """Turn repeated ``--set key=value`` (or ``key=v1,key2=v2``) into a dict."""
    settings: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise PapergamesError(f"--set takes key=value, got '{pair}'")
        if key in settings:
            raise PapergamesError(f"--set gives '{key}' twice")
        settings[key] = value
    return settings


@app.callback()
def overview(ctx: typer.Context) -> None:
    """Printable boards and score sheets for pencil-and-paper games."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


@app.command("list")
@user_errors
def list_games() -> None:
    """List the games with their players, sheets and parameters."""
    from papergames.registry import game_names, get_layout

    for name in game_names():
        layout = get_layout(name)
        by = f" ({layout.author})" if layout.author else ""
        typer.echo(f"{name}")
        typer.echo(f"    {layout.title}{by}, {layout.players} players")
        if layout.holds:
            for line in textwrap.wrap(f"sheet: {layout.holds}", 92):
                typer.echo(f"    {line}")
        for p in layout.params:
            default = p.format(p.default) or "-"
            typer.echo(f"    {p.name}={default:<8} {p.range_text():<18} {p.help}")
        for note in layout.notes():
            for line in textwrap.wrap(f"note: {note}", 92):
                typer.echo(f"    {line}")
        typer.echo("")


@app.command()
@user_errors
def sheet(
    game: Annotated[str, typer.Argument(help="The game's name (see `papergames list`).")],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="File to write (default: GAME-SEED.FORMAT)."),
    ] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option("--set", "-s", help="A layout parameter, key=value (repeatable)."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Random seed (default: a fresh one).")] = None,
    paper: Annotated[str, typer.Option(help="a4, letter, a3 or a5.")] = "a4",
    landscape: Annotated[
        bool | None,
        typer.Option(
            "--landscape/--portrait",
            help="Page orientation (default: the one with the larger field).",
        ),
    ] = None,
    format: Annotated[
        str | None,
        typer.Option("--format", "-f", help="pdf, svg or png (default: from the suffix)."),
    ] = None,
    dpi: Annotated[int, typer.Option(help="Resolution of PNG output (30..1200).")] = 150,
) -> None:
    """Write one sheet of GAME as PDF, SVG or PNG."""
    from papergames.output import format_from_path, get_renderer, write_sheet
    from papergames.rng import MAX_SEED
    from papergames.sheet import make_sheet
    from papergames.spec import SheetSpec

    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise PapergamesError(f"--seed {seed} is out of range 0..{MAX_SEED}")
    if not 30 <= dpi <= 1200:
        raise PapergamesError(f"--dpi {dpi} is out of range 30..1200")
    orientation = "auto" if landscape is None else ("landscape" if landscape else "portrait")
    spec = SheetSpec.create(
        game, parse_settings(settings or []), seed=seed, paper=paper, orientation=orientation
    )
    if output is None:
        fmt = (format or "pdf").lower()
        output = Path(f"{spec.game}-{spec.seed}.{fmt}")
    fmt = (format or format_from_path(output)).lower()
    get_renderer(fmt)
    if seed is None:
        typer.echo(f"seed {spec.seed}")
    made = make_sheet(spec)
    for path in write_sheet(made, output, format=fmt, dpi=dpi):
        typer.echo(f"wrote {path}  ({spec})")


@app.command()
@user_errors
def rules(game: Annotated[str, typer.Argument(help="The game's name.")]) -> None:
    """Print the rules of GAME in a few short paragraphs."""
    from papergames.registry import get_layout

    layout = get_layout(game)
    by = f" by {layout.author}" if layout.author else ""
    typer.echo(f"{layout.title}{by} ({layout.players} players)\n")
    for para in layout.rules.strip().split("\n\n"):
        text = " ".join(para.split())
        if para.lstrip().startswith("-"):
            for line in para.strip().splitlines():
                typer.echo(textwrap.fill(line.strip(), 88, subsequent_indent="  "))
        else:
            typer.echo(textwrap.fill(text, 88))
        typer.echo("")


@app.command()
@user_errors
def check(
    transcript: Annotated[Path, typer.Argument(help="The transcript file (text or JSON).")],
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Show the scores after every move.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Check a finished game's transcript against the rules.

    Exit status: 0 when the game was legal, complete and every claim holds; 1 when not; 2 when
    the transcript cannot be read.
    """
    import json

    from papergames.checker import check as check_transcript
    from papergames.report import verdict_lines
    from papergames.transcript import read_transcript

    verdict = check_transcript(read_transcript(transcript))
    if as_json:
        typer.echo(json.dumps(verdict.to_json(), indent=2, ensure_ascii=False))
    else:
        for line in verdict_lines(verdict, verbose=verbose):
            typer.echo(line)
    if not verdict.ok:
        raise typer.Exit(1)


@app.command()
@user_errors
def demo(
    out: Annotated[Path, typer.Option(help="Folder for the sheets.")] = Path("sheets"),
    seed: Annotated[int, typer.Option(help="Seed for every sheet.")] = 1,
) -> None:
    """Write one PDF sheet of every game into a folder."""
    from papergames.demo import write_demo

    for path in write_demo(out, seed):
        typer.echo(str(path))


def main() -> None:
    """Entry point: run the app, turning input errors into one line and exit code 2."""
    try:
        code = app(standalone_mode=False)
    except PapergamesError as exc:
        typer.echo(f"papergames: error: {exc}", err=True)
        sys.exit(EXIT_INPUT)
    except typer.TyperException as exc:
        message = exc.format_message().strip().splitlines()
        typer.echo(f"papergames: error: {message[-1] if message else exc}", err=True)
        sys.exit(EXIT_INPUT)
    except typer.Abort:
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(1)
    # Without standalone mode, click returns a typer.Exit's code instead of raising it.
    sys.exit(code if isinstance(code, int) else 0)
