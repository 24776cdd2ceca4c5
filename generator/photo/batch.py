"""Reading many photos or scans at once: a class's sheets, one row each.

A teacher hands in a folder of phone photos or a copier's multi-page PDF. Each file is opened on
its own (a damaged file is reported and the rest are still read), each page of a PDF is a sheet,
and each sheet gets its outcome. :func:`csv_rows` makes the class list.
"""

from __future__ import annotations

import csv
import io
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import cv2

from papergames.errors import PapergamesError
from papergames.photo.image import PagePixels, page_count, page_from_bytes, read_photo_file
from papergames.photo.meanwhile import meanwhile
from papergames.photo.memory import take_memory_as_a_reader
from papergames.sheets.sheet import keep_sheets_reused, sheets_reused

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from papergames.photo.outcome import SheetOutcome

EXIT_UNREADABLE = 2


@dataclass
class FileResult:
    """What came of one file: its sheets' outcomes, or why it could not be read."""

    path: Path
    outcomes: list[SheetOutcome] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    pages: list[int] = field(default_factory=list)
    """The file's page (from 1) each outcome was read from: a PDF of scans has many."""


@dataclass(frozen=True)
class _Sheet:
    """One page of one file to read, and what came of it."""

    file: int
    page: int
    outcome: SheetOutcome | None = None
    error: str | None = None
    seconds: float = 0.0


def read_photos(
    paths: Sequence[Path],
    *,
    spec_text: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    pictures: bool = False,
    jobs: int | None = None,
) -> list[FileResult]:
    """Read and judge every sheet in ``paths`` (photos, or PDFs of scans, one sheet a page).

    The sheets are read in ``jobs`` processes (by default one per core, at most
    :data:`MAX_JOBS`), each file opened and each page decoded in the process that reads it, so
    memory grows with the number of processes, not of sheets. Each process builds a sheet, and
    draws it at the reading resolution, once for every photo of it that it reads (a few at a
    time: :data:`~papergames.sheets.sheet.KEPT_MOST`), as a class's photos are mostly of one
    handout. The flattened photo is dropped once read; ``pictures`` keeps each sheet's debug
    picture instead (``SheetOutcome.picture``).
    """
    results = [FileResult(path) for path in paths]
    sheets: list[_Sheet] = []
    for number, path in enumerate(paths):
        try:
            count = page_count(read_photo_file(path), str(path))
        except PapergamesError as exc:
            results[number].error = str(exc)
            continue
        sheets += [_Sheet(number, page) for page in range(count)]
    workers = min(jobs or os.cpu_count() or 1, MAX_JOBS, len(sheets))
    task = partial(_read_sheet, paths=tuple(paths), spec_text=spec_text, pictures=pictures)
    with ExitStack() as stack:
        stack.enter_context(_blas_on_one_thread())
        if workers > 1:
            _load_reader()  # once, before the workers are forked
            stack.enter_context(_opencv_on_one_thread())
            done: Iterator[_Sheet] = stack.enter_context(_processes(workers)).map(task, sheets)
        else:
            stack.enter_context(sheets_reused())
            done = _in_turn(task, sheets, tuple(paths))
        for count, sheet in enumerate(done, start=1):
            _add(results[sheet.file], sheet)
            if progress is not None:
                progress(count, len(sheets))
    return results


MAX_JOBS = 4
"""Most processes reading at once: each holds one photo and its flattened page."""


def _processes(workers: int) -> Executor:
    """A pool of ``workers`` processes, each building and drawing a sheet once for all the
    photos of it that it reads; imported here, as a single photo is read without one."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(workers, initializer=_start_worker)


@contextmanager
def _blas_on_one_thread() -> Iterator[None]:
    """The BLAS under numpy on one thread meanwhile, in this process and the workers it forks.

    The reader's matrices are small (a few colours, a few hundred pixels' fits), and OpenBLAS's
    idle threads spin on ``sched_yield`` after each call (19,000 calls in one photo's reading),
    taking the core that OpenCV and the reader's second thread (:mod:`~papergames.photo.
    meanwhile`) would use. A batch read in 30-36 s rather than 34-39 s on one thread (four runs
    of each in turn); a single phone photo took 3.0 s of processor time rather than 3.3 s, its
    wall time within the machine's noise (docs/measurements.md, "A single photo's fresh
    memory"). :mod:`threadpoolctl` is imported here, as it is needed nowhere else.
    """
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1, user_api="blas"):
        yield


@contextmanager
def _opencv_on_one_thread() -> Iterator[None]:
    """OpenCV on one thread meanwhile, in this process and the workers it forks.

    A batch's workers already keep every core busy, one each: OpenCV's own threads (and the
    print's tiles matched on two, :data:`~papergames.photo.register.CORRELATING`) only make them
    wait on each other. With OpenCV on one thread, thirty photos of their own sheets read in 35 s
    rather than 42 s (eight runs of each in turn). Set here before the workers are forked, not in
    them: OpenCV cannot change its threads in a child forked from a process that has used them.
    """
    before = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        yield
    finally:
        cv2.setNumThreads(before)


def _start_worker() -> None:
    """A worker only reads photos: it keeps the sheets it built and the memory it freed for
    the next one, and leaves numpy's arrays on small pages
    (:func:`~papergames.photo.memory.take_memory_as_a_reader`)."""
    take_memory_as_a_reader()
    keep_sheets_reused()


def _in_turn(
    task: Callable[..., _Sheet], sheets: Sequence[_Sheet], paths: tuple[Path, ...]
) -> Iterator[_Sheet]:
    """Each sheet read in this process, in turn.

    The first sheet's photo is decoded on a second thread (:mod:`~papergames.photo.meanwhile`)
    while the reader's modules load: decoding a 12 MP JPEG (0.1-0.15 s) waits on no Python lock,
    loading modules on nothing else. ``papergames read photo.jpg`` starts reading that much
    sooner (docs/measurements.md, "A single photo's fresh memory").
    """
    if not sheets:
        return
    first = sheets[0]
    with meanwhile(partial(_opened, paths, first)) as opened:
        _load_reader()
        done = task(first, opened=opened)
    yield done
    for sheet in sheets[1:]:
        yield task(sheet)


def _load_reader() -> None:
    """Load the reader's and the judge's modules (about a tenth of a second)."""
    import papergames.photo.outcome
    import papergames.photo.read  # noqa: F401


def _opened(paths: tuple[Path, ...], sheet: _Sheet) -> PagePixels:
    path = paths[sheet.file]
    return page_from_bytes(read_photo_file(path), str(path), sheet.page)


def _read_sheet(
    sheet: _Sheet,
    *,
    paths: tuple[Path, ...],
    spec_text: str | None,
    pictures: bool,
    opened: Callable[[], PagePixels] | None = None,
) -> _Sheet:
    """Read and judge one sheet; ``opened`` gives its page when it was decoded ahead."""
    from papergames.photo.outcome import judge_reading
    from papergames.photo.read import read_page

    start = time.perf_counter()
    # The reading and the judging both ask for the sheet its QR code names: built once.
    with sheets_reused():
        try:
            page = opened() if opened is not None else _opened(paths, sheet)
            reading = read_page(
                page.pixels, page.source, spec_text=spec_text, image_px_per_mm=page.px_per_mm
            )
        except PapergamesError as exc:
            return replace(sheet, error=str(exc), seconds=time.perf_counter() - start)
        outcome = judge_reading(reading)
    picture = _png(outcome) if pictures and reading.rectified is not None else None
    light = replace(outcome.reading, rectified=None, page=None)
    outcome = replace(outcome, reading=light, picture=picture)
    return replace(sheet, outcome=outcome, seconds=time.perf_counter() - start)


def _add(result: FileResult, sheet: _Sheet) -> None:
    result.seconds += sheet.seconds
    if sheet.outcome is not None:
        result.outcomes.append(sheet.outcome)
        result.pages.append(sheet.page + 1)
    elif result.error is None:
        result.error = sheet.error


def _png(outcome: SheetOutcome) -> bytes:
    from papergames.photo.debug import debug_image  # the drawing is asked for with --debug only

    data = io.BytesIO()
    debug_image(outcome.reading).save(data, format="PNG")
    return data.getvalue()


def exit_code(results: Sequence[FileResult]) -> int:
    """2 when a file could not be read, else 3 for a retake or doubts, 1 for a broken rule."""
    if any(r.error is not None for r in results):
        return EXIT_UNREADABLE
    codes = [o.exit_code for r in results for o in r.outcomes]
    if not codes:
        return EXIT_UNREADABLE
    return 3 if 3 in codes else max(codes)


CSV_HEADER = (
    "file",
    "page",
    "sheet",
    "verdict",
    "players",
    "tallies",
    "scores",
    "broken rules",
    "check",
    "seconds",
    "class",
    "group",
    "winner",
    *(f"{what} {n}" for n in range(1, 7) for what in ("player", "score")),
)
"""The columns of the CSV. A sheet made for a class list's group names its class, group and
players (its row reads as the group's result: each player's name and score, and the winner)."""


def csv_rows(results: Sequence[FileResult]) -> list[list[str]]:
    """One row per sheet (and per unreadable file), under :data:`CSV_HEADER`.

    Example:
        >>> csv_rows([FileResult(Path("torn.jpg"), error="torn.jpg: not an image")])[1][3]
        'unreadable'
    """
    rows = [list(CSV_HEADER)]
    for result in results:
        if result.error is not None:
            row = [str(result.path), "", "", "unreadable", "", "", "", "", result.error, ""]
            rows.append(row + [""] * (len(CSV_HEADER) - len(row)))
            continue
        pages = result.pages or list(range(1, len(result.outcomes) + 1))
        for page, outcome in zip(pages, result.outcomes, strict=True):
            rows.append(_row(result.path, page, outcome))
    return rows


def _row(path: Path, page: int, outcome: SheetOutcome) -> list[str]:
    """A sheet's row: ``page`` is the file's page; the sheet's own page (a round of Crossing
    the Rings) follows its spec when it is not the first."""
    reading = outcome.reading
    spec = "" if reading.spec is None else str(reading.spec)
    if spec and reading.page_number > 1:
        spec += f" (page {reading.page_number})"
    players = outcome.transcript.players if outcome.transcript is not None else []
    verdict = outcome.verdict
    tallies = "" if verdict is None or verdict.tallies is None else _joined(verdict.tallies)
    scores = verdict.report.scores if verdict is not None else None
    breaches = "; ".join(
        [b.reason for b in outcome.sure_breaches()] + [f"may: {b.reason}" for b in outcome.unsure]
    )
    doubts = "; ".join([*outcome.doubts, *outcome.notes]) or (reading.retake or "")
    return [
        str(path),
        str(page),
        spec,
        outcome.outcome,
        " ".join(f"{p.name}:{p.colour}" for p in players),
        tallies,
        "" if scores is None else _joined(scores),
        breaches,
        doubts,
        f"{reading.timings.get('total', 0.0):.2f}",
        *_by_name(outcome),
    ]


def _by_name(outcome: SheetOutcome) -> list[str]:
    """The class, group and winners, then each player's name and score (six pairs)."""
    spec = outcome.reading.spec
    players = [p.name for p in outcome.transcript.players] if outcome.transcript else []
    verdict = outcome.verdict
    scores: Sequence[int | None] = [None] * len(players)
    winners = ""
    if verdict is not None:
        if verdict.report.scores is not None:
            scores = verdict.report.scores
        winners = ", ".join(players[w] for w in verdict.report.winners if w < len(players))
    pairs: list[str] = []
    for name, score in list(zip(players, scores, strict=True))[:6]:
        pairs += [name, "" if score is None else str(score)]
    pairs += [""] * (12 - len(pairs))
    group = "" if spec is None or not spec.group else str(spec.group)
    return ["" if spec is None else spec.class_name, group, winners, *pairs]


def _joined(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


def csv_text(results: Sequence[FileResult]) -> str:
    """The class list as CSV text (:func:`csv_rows`)."""
    return csv_lines(csv_rows(results))


def csv_lines(rows: Sequence[Sequence[str]]) -> str:
    """Rows as CSV text."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    return text.getvalue()


def state_text(outcomes: Sequence[SheetOutcome]) -> str:
    """The final-state transcript of the one sheet read.

    Raises:
        PapergamesError: when there is not exactly one sheet, or it could not be read.
    """
    if len(outcomes) != 1:
        raise PapergamesError(f"--state writes one sheet's position, and {len(outcomes)} were read")
    if outcomes[0].transcript is None:
        raise PapergamesError("--state: the sheet could not be read, so there is no position")
    return outcomes[0].state_text()


def debug_pictures(outcomes: Sequence[SheetOutcome], path: Path) -> Iterator[tuple[Path, bytes]]:
    """Each read sheet's debug picture, named after ``path`` (numbered when there are many)."""
    drawn = [o.picture for o in outcomes if o.picture is not None]
    for number, picture in enumerate(drawn, start=1):
        yield (path if len(drawn) == 1 else path.with_stem(f"{path.stem}-{number}")), picture
