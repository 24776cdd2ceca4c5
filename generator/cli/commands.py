"""The ``papergames`` command: thin adapters over the library.

Each command parses its options once, calls the library, and prints. Errors the user caused
become one line on stderr and a non-zero exit (2); nothing half-written is left behind.

Annotations here are evaluated when the module loads (no ``from __future__ import
annotations``): typer reads every command's signature on each start, and strings would be
evaluated twice per option, which cost each start about 0.01 s.
"""

import contextlib
import sys
import textwrap
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer

from papergames.cli.terminal import json_text, printable
from papergames.errors import PapergamesError

app = typer.Typer(
    name="papergames",
    help="Printable boards and score sheets for pencil-and-paper games.",
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

EXIT_INPUT = 2

P = ParamSpec("P")
R = TypeVar("R")


def say(text: str, *, err: bool = False) -> None:
    """Print one line (or several), with anything a terminal would obey shown as an escape."""
    typer.echo(printable(text), err=err)


def user_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Report input errors as one line on stderr and exit with code 2, without a traceback."""

    @wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except PapergamesError as exc:
            say(f"papergames: error: {exc}", err=True)
            raise typer.Exit(EXIT_INPUT) from None
        except OSError as exc:
            # A file the library did not name in an error of its own: still one line.
            if exc.filename is None:
                raise
            from papergames.files import shown_path

            say(f"papergames: error: {shown_path(str(exc.filename))}: {exc.strerror}", err=True)
            raise typer.Exit(EXIT_INPUT) from None

    return wrapper


def parse_settings(pairs: list[str]) -> dict[str, str]:
    """Turn repeated ``--set key=value`` into a dict, with the spec's own parser."""
    from papergames.sheets.spec import parse_settings as parse_words

    return parse_words(pairs, "--set")


def complete_game(incomplete: str) -> list[str]:
    """The games whose names start with what has been typed, for shell completion."""
    from papergames.games import game_names

    return [name for name in game_names() if name.startswith(incomplete.lower())]


def complete_spec(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion for a spec: the game's name first, then the keys it takes."""
    typed: list[str] = ctx.params.get("words") or []
    if not typed:
        return complete_game(incomplete)
    from papergames.games import get_game
    from papergames.sheets.spec import RESERVED

    try:
        params = get_game(typed[0]).params()
    except PapergamesError:
        return []
    given = {word.partition("=")[0] for word in typed[1:]}
    keys = [f"{key}=" for key in [*params.params, *RESERVED] if key not in given]
    return [key for key in keys if key.startswith(incomplete)]


def show_version(value: bool) -> None:
    """Print the installed version (from the package's metadata) and stop."""
    if not value:
        return
    from importlib.metadata import PackageNotFoundError, version

    from papergames.version import __version__

    try:
        say(f"papergames {version('papergames')}")
    except PackageNotFoundError:  # run from a source tree that was never installed
        say(f"papergames {__version__}")
    raise typer.Exit()


@app.callback()
def overview(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=show_version,
            is_eager=True,
            help="Show the version and exit.",
        ),
    ] = False,
) -> None:
    """Printable boards and score sheets for pencil-and-paper games."""
    if ctx.invoked_subcommand is None:
        say(ctx.get_help())


RANGE_COLUMN = 20
"""Widest range the parameter table's range column makes room for; a longer range (the rings'
bound forms) keeps its line and puts the parameter's help on the next, so one long entry does
not push every other help text off the screen."""


@app.command("list")
@user_errors
def list_games(
    game: Annotated[
        str | None,
        typer.Argument(
            metavar="GAME",
            help="Show only this game (default: every game).",
            autocompletion=complete_game,
            show_default=False,
        ),
    ] = None,
) -> None:
    """List the games with their players, sheets and parameters, or show one game."""
    from papergames.games import GAMES, get_game

    records = list(GAMES.values()) if game is None else [get_game(game)]
    sets = [record.params() for record in records]
    params = [p for param_set in sets for p in param_set]
    keys = [f"{p.name}={p.format(p.default) or '-'}" for p in params]
    key_width = max(map(len, keys), default=0)
    ranges = [len(p.range_text()) for p in params if len(p.range_text()) <= RANGE_COLUMN]
    range_width = max(ranges, default=0)
    for record, param_set in zip(records, sets, strict=True):
        by = f" ({record.author})" if record.author else ""
        say(record.name)
        say(f"    {record.title}{by}, {record.players_text} players")
        for line in textwrap.wrap(f"play: {record.summary}", 92):
            say(f"    {line}")
        for line in textwrap.wrap(f"sheet: {record.sheet_contents}", 92):
            say(f"    {line}")
        for p in param_set:
            key = f"{p.name}={p.format(p.default) or '-'}"
            left = f"    {key:<{key_width}}  {p.range_text():<{range_width}}  "
            if len(p.range_text()) > range_width:
                say(left.rstrip())
                left = " " * (4 + key_width + 2 + range_width + 2)
            say(f"{left}{p.help}")
        for note in param_set.notes:
            for line in textwrap.wrap(f"note: {note}", 92):
                say(f"    {line}")
        say("")


@app.command()
@user_errors
def sheet(
    words: Annotated[
        list[str],
        typer.Argument(
            metavar="SPEC",
            help="The game's name (see `papergames list`) and any key=value settings; the spec "
            "printed at the foot of a sheet, such as 'klee seed=5 paper=letter', makes that "
            "sheet again.",
            autocompletion=complete_spec,
            show_default=False,
        ),
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="File to write (default: GAME-SEED.FORMAT); - writes to standard output.",
        ),
    ] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            "-s",
            metavar="KEY=VALUE",
            help="A layout parameter, or seed, paper, orientation, markers, labels or colour "
            "(repeatable).",
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Random seed (default: a fresh one).")] = None,
    paper: Annotated[
        str | None,
        typer.Option(
            help="a4 (the default), letter, a3, a5 (or a6, half-letter, quarter-letter).",
            show_default=False,
        ),
    ] = None,
    landscape: Annotated[
        bool | None,
        typer.Option(
            "--landscape/--portrait",
            help="Page orientation (default: the one with the larger field).",
        ),
    ] = None,
    format: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            help="pdf, svg or png (default: from the suffix; a suffix naming another format "
            "is refused).",
        ),
    ] = None,
    dpi: Annotated[
        int, typer.Option(help="Resolution of PNG output (30..1200; at most 557 on A4).")
    ] = 150,
    markers: Annotated[
        bool | None,
        typer.Option(
            "--markers/--no-markers",
            help="Print the corner markers the photo reader needs (leave them off for a sheet "
            "that will never be photographed; default: on).",
            show_default=False,
        ),
    ] = None,
    labels: Annotated[
        bool | None,
        typer.Option(
            "--labels/--no-labels",
            help="Print each space's, segment's or line's name on it, small and grey, so a game "
            "can be written down from the paper (the art games; Klee gets grid coordinates; "
            "default: off).",
            show_default=False,
        ),
    ] = None,
    colour: Annotated[
        bool | None,
        typer.Option(
            "--colour/--no-colour",
            help="Print COM:POSITIE's pieces and Mondrian's tints (tints=on) in colour; each "
            "keeps a grey of its own, so a black-and-white copy still tells them apart "
            "(default: off, black and white).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Write one sheet of a game as PDF, SVG or PNG.

    SPEC is the game's name, followed by any key=value settings as on a sheet's footer, so
    typing a printed spec makes the same sheet again; --set gives the same settings one by one.
    """
    from papergames.output import (
        DPI_RANGE,
        RENDERERS,
        format_from_path,
        get_renderer,
        write_sheet,
        write_stdout,
    )
    from papergames.sheets.rng import MAX_SEED
    from papergames.sheets.sheet import make_sheet
    from papergames.sheets.spec import SheetSpec, split_spec

    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise PapergamesError(f"--seed {seed} is out of range 0..{MAX_SEED}")
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise PapergamesError(f"--dpi {dpi} is out of range {DPI_RANGE[0]}..{DPI_RANGE[1]}")
    # The argument may be one quoted spec ("klee seed=5") or its words unquoted: split it as
    # SheetSpec.parse does, and add --set's words (split by the same parser), refusing a key
    # typed both ways.
    game, given = split_spec(" ".join(words))
    for key, value in parse_settings(settings or []).items():
        if key in given:
            raise PapergamesError(f"'{key}' is given twice, in the spec and with --set")
        given[key] = value
    orientation = None if landscape is None else ("landscape" if landscape else "portrait")
    spec = SheetSpec.create(
        game,
        given,
        seed=seed,
        paper=paper,
        orientation=orientation,
        markers=markers,
        labels=labels,
        colour=colour,
    )
    if format is not None and output is not None:
        suffix = output.suffix.lower().lstrip(".")
        if suffix in RENDERERS and suffix != format.lower():
            raise PapergamesError(
                f"--format {format} does not match the suffix of {output} (a {suffix} file): "
                "change one of them"
            )
    to_stdout = output is not None and str(output) == "-"
    if output is None:
        output = Path(f"{spec.game}-{spec.seed}.{(format or 'pdf').lower()}")
    fmt = (format or ("pdf" if to_stdout else format_from_path(output))).lower()
    get_renderer(fmt)
    if to_stdout and sys.stdout.isatty():
        raise PapergamesError(f"-o - would print a {fmt} file on the terminal: redirect it")
    if seed is None and "seed" not in given:
        say(f"seed {spec.seed}", err=to_stdout)
    made = make_sheet(spec)
    if to_stdout:
        write_stdout(made, sys.stdout.buffer, format=fmt, dpi=dpi)
        say(f"wrote {fmt} to standard output  ({spec})", err=True)
        return
    for path in write_sheet(made, output, format=fmt, dpi=dpi):
        say(f"wrote {path}  ({spec})")


@app.command()
@user_errors
def rules(
    game: Annotated[str, typer.Argument(help="The game's name.", autocompletion=complete_game)],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write the rules as a printable page (pdf, svg, png)."),
    ] = None,
    paper: Annotated[
        str, typer.Option(help="Paper of the printed page: a4, letter, a3, a5 or a6.")
    ] = "a4",
) -> None:
    """Print the rules of GAME, or write them as a page with a diagram of a real sheet."""
    from papergames.games import get_layout

    layout = get_layout(game)
    check_paper(paper)
    paper = paper.lower()
    if output is not None:
        from papergames.handouts.rulespage import rules_page
        from papergames.output import write_sheet
        from papergames.sheets.model import Sheet
        from papergames.sheets.spec import SheetSpec

        page = rules_page(layout.name, paper)
        document = Sheet(SheetSpec.create(layout.name, seed=1, paper=paper), page.title, [page])
        for path in write_sheet(document, output):
            say(f"wrote {path}")
        return
    record = layout.game
    by = f" by {record.author}" if record.author else ""
    say(f"{record.title}{by} ({record.players_text} players)\n")
    for para in record.how_to_play.strip().split("\n\n"):
        text = " ".join(para.split())
        if para.lstrip().startswith("-"):
            for line in para.strip().splitlines():
                say(textwrap.fill(line.strip(), 88, subsequent_indent="  "))
        else:
            say(textwrap.fill(text, 88))
        say("")


def check_paper(paper: str) -> None:
    from papergames.sheets.units import PAPERS

    if paper.lower() not in PAPERS:
        raise PapergamesError(f"--paper {paper} is not one of {', '.join(PAPERS)}")


def progress_reporter(label: str, quiet: bool) -> tuple[Any, Callable[[int, int], None] | None]:
    """A rich progress bar on stderr, or nothing when quiet or stderr is not a terminal."""
    if quiet or not sys.stderr.isatty():
        return contextlib.nullcontext(), None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    bar = Progress(
        f"[progress.description]{label}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return bar, update


@app.command()
@user_errors
def pack(
    games: Annotated[
        list[str],
        typer.Argument(
            metavar="GAME...",
            help="One or more games (see `papergames list`), each alone or with its own "
            "settings in quotes ('rings rounds=2'); a mixed pack has COPIES of each.",
            autocompletion=complete_game,
            show_default=False,
        ),
    ],
    copies: Annotated[
        int, typer.Option("--copies", "-n", help="How many sheets of each game (1..500).")
    ] = 10,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="File to write (default: GAMES-pack-SEED.pdf)."),
    ] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            "-s",
            metavar="KEY=VALUE",
            help="A layout parameter (repeatable); in a mixed pack it applies to every game "
            "that takes it.",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the pack; each sheet's seed is drawn from it.")
    ] = None,
    paper: Annotated[
        str,
        typer.Option(help="a4, letter, a3, a5, a6, half-letter or quarter-letter."),
    ] = "a4",
    rules_at: Annotated[
        str,
        typer.Option(
            "--rules",
            help="back: the rules behind every sheet, for long-edge duplex printing (with "
            "--per-page 2 or 4 they are printed at the cell's size behind each cell, and a game "
            "whose rules do not fit there is refused); first: each game's rules once at the "
            "front; none.",
        ),
    ] = "back",
    per_page: Annotated[
        int,
        typer.Option(
            "--per-page",
            help="Sheets per page: 1, 2 or 4 (on a4, letter or a3); a sheet too small to "
            "read there is refused with settings that fit.",
        ),
    ] = 1,
    class_file: Annotated[
        Path | None,
        typer.Option(
            "--class",
            help="A class list: one group a line, the players' names parted by commas in the "
            "order they play (a first line 'class: NAME' names the class). Each group gets its "
            "own sheet of each game, its names printed in the score rows; --copies is then the "
            "number of groups.",
        ),
    ] = None,
    groups_of: Annotated[
        int | None,
        typer.Option(
            "--groups-of",
            help="With --class: the list is of pupils, to be shuffled by the seed into groups "
            "of this many (2..6; pupils left over join groups, so none plays alone).",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Write one PDF with COPIES different sheets of each GAME, rules pages and a key page.

    Pages to cut up (the COM:POSITIE pieces) get a blank back, so the pack prints two-sided. A
    pack is limited to 1,000 pages and 200,000 drawn lines, boxes and words, checked before it
    is made.
    """
    from papergames.handouts.pack import make_pack
    from papergames.handouts.packspecs import pack_specs
    from papergames.output import write_sheet
    from papergames.sheets.rng import MAX_SEED

    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise PapergamesError(f"--seed {seed} is out of range 0..{MAX_SEED}")
    check_paper(paper)
    given = parse_settings(settings or [])
    specs = pack_specs(games, shared=given, seed=seed, paper=paper)
    if seed is None and "seed" not in given:
        say(f"seed {specs[0].seed}")
    roll = None
    if class_file is not None:
        from papergames.handouts.classlist import make_groups, read_class_list

        roll = read_class_list(class_file)
        if groups_of is not None:
            roll = make_groups(roll, groups_of, specs[0].seed)
        copies = len(roll.groups)
    elif groups_of is not None:
        raise PapergamesError("--groups-of makes groups of a class list: give it with --class")
    name = "-".join(spec.game for spec in specs)
    output = output or Path(f"{name}-pack-{specs[0].seed}.pdf")
    bar, update = progress_reporter("sheets", quiet)
    with bar:
        made = make_pack(
            specs, copies, rules=rules_at, per_page=per_page, progress=update, roll=roll
        )
    count = copies * len(specs)
    for path in write_sheet(made, output):
        sheets = "1 sheet" if count == 1 else f"{count} sheets"
        say(f"wrote {path}  ({sheets}, {len(made.pages)} pages, from seed {specs[0].seed})")


@app.command()
@user_errors
def book(
    output: Annotated[Path, typer.Option("--output", "-o", help="File to write.")] = Path(
        "papergames-book.pdf"
    ),
    games: Annotated[
        str | None, typer.Option(help="Comma-separated games (default: every game).")
    ] = None,
    paper: Annotated[
        str, typer.Option(help="a4, letter or a3 (smaller paper is refused: see the help).")
    ] = "a4",
    seed: Annotated[int, typer.Option(help="Seed of the book's sheets.")] = 1,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Write one PDF with every game: a cover, contents, then each game's rules and a sheet.

    The book is printed on a4, letter or a3: on smaller paper most games' sheets would be too
    small to play on. Each game starts a new leaf, for two-sided printing.
    """
    from papergames.handouts.book import BOOK_PAPERS, make_book, parse_games
    from papergames.output import write_sheet
    from papergames.sheets.rng import MAX_SEED

    if not 0 <= seed <= MAX_SEED:
        raise PapergamesError(f"--seed {seed} is out of range 0..{MAX_SEED}")
    check_paper(paper)
    if paper.lower() not in BOOK_PAPERS:
        raise PapergamesError(
            f"--paper {paper}: the book is printed on {', '.join(BOOK_PAPERS)} only; on smaller "
            "paper most games' sheets are too small to play on"
        )
    chosen = parse_games(games)
    bar, update = progress_reporter("games", quiet)
    with bar:
        made = make_book(chosen, paper=paper.lower(), seed=seed, progress=update)
    for path in write_sheet(made, output):
        say(f"wrote {path}  ({len(chosen)} games, {len(made.pages)} pages)")


@app.command()
@user_errors
def check(
    transcript: Annotated[
        Path,
        typer.Argument(help="The transcript file (text or JSON); - reads standard input."),
    ],
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Show the scores after every move.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Check a finished game's transcript (or a Cubist installation) against the rules.

    Exit status: 0 when the game was legal, complete and every claim holds; 1 when not; 2 when
    the transcript cannot be read.
    """
    from papergames.play.checker import Verdict, check_text
    from papergames.play.transcript import read_text

    source = "<stdin>" if str(transcript) == "-" else str(transcript)
    result = check_text(read_text(transcript), source)
    if as_json:
        say(json_text(result.to_json(), indent=2))
    else:
        lines = result.lines(verbose=verbose) if isinstance(result, Verdict) else result.lines()
        for line in lines:
            say(line)
    if not result.ok:
        raise typer.Exit(1)


@app.command()
@user_errors
def read(
    photos: Annotated[
        list[Path],
        typer.Argument(
            help="Photos or scans of finished sheets (JPEG, PNG, HEIC, or a PDF of scans)."
        ),
    ],
    spec: Annotated[
        str | None,
        typer.Option(help="The sheet's spec, as printed in its footer, when the QR code is torn."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the whole result as JSON (docs/photo.md).")
    ] = False,
    state: Annotated[
        Path | None,
        typer.Option(help="Write the position read as a final-state transcript (one sheet)."),
    ] = None,
    debug: Annotated[
        Path | None,
        typer.Option(
            help="Draw what was read over the flattened photo, as PNG (several sheets: "
            "NAME-1.png, NAME-2.png...)."
        ),
    ] = None,
    csv_path: Annotated[
        Path | None, typer.Option("--csv", help="Write one row per sheet to this CSV file.")
    ] = None,
    class_file: Annotated[
        Path | None,
        typer.Option(
            "--class",
            help="The class list the sheets were made from: the groups whose sheets are not "
            "among the scans are listed, and any sheet scanned twice.",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Read photos or scans of finished sheets and check them against the rules.

    Exit status: 0 when every sheet is consistent; 1 when a sheet breaks the rules; 3 when a
    sheet must be photographed again or some items need a look; 2 when a file cannot be read.
    """
    from papergames.photo.batch import (
        csv_lines,
        csv_rows,
        csv_text,
        debug_pictures,
        exit_code,
        read_photos,
        state_text,
    )
    from papergames.photo.memory import take_memory_as_a_reader

    take_memory_as_a_reader()
    refuse_outputs_among_photos(photos, {"--state": state, "--csv": csv_path, "--debug": debug})
    roll = None
    if class_file is not None:
        from papergames.handouts.classlist import read_class_list

        roll = read_class_list(class_file)
    if state is not None and len(photos) != 1:
        raise PapergamesError("--state writes one sheet's position: give one photo")
    bar, update = progress_reporter("sheets", quiet or as_json)
    with bar:
        results = read_photos(photos, spec_text=spec, progress=update, pictures=debug is not None)
    outcomes = [o for r in results for o in r.outcomes]
    report = None
    if roll is not None:
        from papergames.photo.roster import hold_against

        report = hold_against(roll, results)
    if as_json:
        sheets = [o.to_json() for o in outcomes]
        errors = [{"source": str(r.path), "error": r.error} for r in results if r.error]
        shown: object = sheets[0] if len(sheets) == 1 and not errors else sheets + errors
        if report is not None:
            shown = {"sheets": sheets + errors, "class": report.to_json()}
        say(json_text(shown, indent=2))
    else:
        for result in results:
            if result.error is not None:
                say(f"papergames: error: {result.error}", err=True)
            for outcome in result.outcomes:
                say("\n".join(outcome.lines()) + "\n")
    if report is not None and roll is not None and not as_json:
        say("\n".join(report.lines() or [f"every group of {roll.source} is there, once"]))
    if csv_path is not None:
        text = csv_text(results)
        if report is not None and roll is not None:
            from papergames.photo.roster import with_roster

            text = csv_lines(with_roster(csv_rows(results), report, roll))
        write_file(csv_path, text.encode("utf-8"))
    if debug is not None:
        for path, picture in debug_pictures(outcomes, debug):
            write_file(path, picture)
    if state is not None and (outcomes or not any(r.error for r in results)):
        write_file(state, state_text(outcomes).encode("utf-8"))
    code = exit_code(results)
    if code:
        raise typer.Exit(code)


def refuse_outputs_among_photos(photos: list[Path], outputs: dict[str, Path | None]) -> None:
    """Refuse, before anything is read, an output of ``read`` that is one of its photos.

    ``papergames read v.png --state v.png`` would replace the photo by its transcript once read:
    the teacher would lose the only copy of a pupil's sheet. A path is the photo when both name
    the same file, through a link or another spelling of the folder (resolved), or as a hard link
    (the same file on disk). ``--debug`` with several sheets writes ``NAME-1.png``,
    ``NAME-2.png``..., and how many is known only once the files are read, so any numbered name
    that is one of the photos is refused as well.

    Raises:
        PapergamesError: naming the option, the file, and what to do.
    """
    import re

    def photo_at(target: Path) -> Path | None:
        where = target.resolve()
        for photo in photos:
            if where == photo.resolve():
                return photo
            with contextlib.suppress(OSError):
                if target.samefile(photo):
                    return photo
        return None

    for option, target in outputs.items():
        if target is not None and photo_at(target) is not None:
            raise PapergamesError(
                f"{option} {target} is one of the photos being read: choose another file name"
            )
    debug = outputs.get("--debug")
    if debug is None:
        return
    numbered = re.compile(re.escape(debug.stem) + r"-[0-9]+" + re.escape(debug.suffix))
    folder = debug.parent
    names = {photo.name for photo in photos}
    with contextlib.suppress(OSError):  # a folder that cannot be listed fails at the write
        names.update(entry.name for entry in folder.iterdir())
    for name in sorted(names):
        if numbered.fullmatch(name) and photo_at(folder / name) is not None:
            raise PapergamesError(
                f"--debug {debug} writes {name} when there are several sheets, and {folder / name} "
                "is one of the photos being read: choose another file name"
            )


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all."""
    from papergames.output import atomic_write

    with atomic_write(path) as out:
        out.write(data)


@app.command()
@user_errors
def demo(
    out: Annotated[Path, typer.Option(help="Folder for the sheets.")] = Path("sheets"),
    seed: Annotated[int, typer.Option(help="Seed for every sheet.")] = 1,
) -> None:
    """Write one PDF sheet of every game into a folder."""
    from papergames.cli.demo import write_demo

    for path in write_demo(out, seed):
        say(str(path))


@app.command()
@user_errors
def serve(
    port: Annotated[int, typer.Option(help="Port to listen on (1..65535).")] = 8765,
    host: Annotated[
        str,
        typer.Option(
            help="Address to listen on: 127.0.0.1 is this computer only; 0.0.0.0 opens the "
            "page to the local network (a warning is printed)."
        ),
    ] = "127.0.0.1",
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Do not open the page in a browser.")
    ] = False,
) -> None:
    """Start the local web page: browse the games, make and download sheets, check games.

    The page runs on this computer until Ctrl-C; nothing is fetched from or sent elsewhere.
    """
    from papergames.photo.memory import take_memory_as_a_reader
    from papergames.web.serve import check_port, is_loopback, page_url
    from papergames.web.serve import serve as run_server

    take_memory_as_a_reader()  # the page reads photos one after another, as a batch does
    if not is_loopback(host):
        say(
            f"papergames: warning: --host {host} lets anyone on your network open this page, "
            "make sheets and upload files; use it only on a network you trust",
            err=True,
        )
    check_port(host, port)
    say(f"papergames is running at {page_url(host, port)}  (Ctrl-C stops it)")
    run_server(host, port, open_browser=not no_browser)


def _exit_on_signal(signum: int, frame: object) -> None:
    """Turn SIGTERM or SIGHUP into an exit that runs cleanup (temporary files are removed)."""
    raise SystemExit(128 + signum)


def main() -> None:
    """Entry point: run the app, turning input errors into one line and exit code 2."""
    import signal

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _exit_on_signal)
    try:
        _run_app()
    finally:
        _end_without_collecting()


def _run_app() -> None:
    try:
        code = app(standalone_mode=False)
    except PapergamesError as exc:
        say(f"papergames: error: {exc}", err=True)
        sys.exit(EXIT_INPUT)
    except typer.TyperException as exc:
        message = exc.format_message().strip().splitlines()
        say(f"papergames: error: {message[-1] if message else exc}", err=True)
        sys.exit(EXIT_INPUT)
    except typer.Abort:
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(1)
    # Without standalone mode, click returns a typer.Exit's code instead of raising it.
    sys.exit(code if isinstance(code, int) else 0)


def _end_without_collecting() -> None:
    """Spare the interpreter's last garbage collections: the process is about to end, and the
    system takes its memory back at once.

    Python collects every object it tracks a few times as it shuts down. After reading a photo
    (some 49,000 objects, a sheet's geometry and the reader's arrays among them) that took
    0.13-0.16 s of a 2 s run; with the objects frozen (:func:`gc.freeze`), 0.06-0.10 s (three
    runs each way, docs/measurements.md). Every file papergames writes is closed by then
    (:func:`write_file`), and standard output is still flushed.
    """
    import gc

    gc.freeze()
