"""Checking a photo or a scanned PDF from the page: the photo reader, adapted for uploads.

An uploaded file whose first bytes say it is an image or a PDF is read as ``papergames read``
reads a file: each page is a sheet, found by its corner markers, its spec read from its QR code
(or given in the form), every item's pencil measured and the position judged by the rules. The
page shows, for each sheet, the reader's lines, the picture of what it read (the flattened photo
with each item outlined in the colour found), the sheet drawn with the colours read, the broken
rules outlined in red and the doubtful items in orange, and links to the position as a
final-state transcript and, for a class, the CSV list.

Given the class list the sheets were made from (typed in the form, read by
:func:`~papergames.web.packs.typed_class_list`), the page also shows a table of the class: one
row per group in the list's order, with its verdict, each player's score and the winner, a group
whose sheet is not among the scans flagged ``missing`` and a sheet scanned twice flagged too
(:func:`class_table`); the CSV then has the command's rows for ``papergames read --class``. The
list is kept in this process's memory with the reading, and sent nowhere else.

The bytes are untrusted: they are only ever handed to the reader, which bounds the pixels it
decodes and the pages it opens; the file's name is only shown. Reading takes about a second and
a few hundred megabytes per sheet, so the sheets are read one at a time on one worker thread
(:data:`READERS`) whatever the number of pupils uploading; the rest wait their turn.

Example:
    >>> is_photo(b"\\xff\\xd8\\xff\\xe0...JFIF"), is_photo(b"sheet: maze seed=1")
    (True, False)
    >>> is_photo(b"\\x00\\x00\\x00\\x18ftypheic\\x00\\x00\\x00\\x00mif1heic")
    True
"""

from __future__ import annotations

import io
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from papergames.errors import PapergamesError
from papergames.handouts.classlist import ClassList
from papergames.photo.batch import CSV_HEADER, FileResult, csv_lines, csv_rows, csv_text
from papergames.photo.outcome import LOW_CONFIDENCE, RETAKE, SheetOutcome
from papergames.play.report import Said, Told, referee, sentence
from papergames.sheets.sheet import keep_sheets_reused
from papergames.web.record import names_on
from papergames.web.view import SheetView

if TYPE_CHECKING:
    from papergames.photo.roster import RosterReport

MAX_SHEETS = 40
"""The most pages of a PDF read from one upload (a class, with a few to spare)."""

READERS = 1
"""Sheets read at once in the server, each on the same worker thread. A sheet holds a photo and
its flattened page (a few hundred megabytes for a 12 MP photo), and the reader's steps hold
Python's lock between the parts OpenCV does in parallel anyway, so a second reader made six
uploads no faster on the 2-core machine. One thread, not one lock: the C library keeps a memory
pool per thread that has made large allocations, so readings spread over the server's many
request threads left the server at 1.3 GB after six photos, against 0.55 GB on one thread."""

KEPT_BYTES = 120 * 1024 * 1024
"""The pictures, positions and class lists kept for the page to fetch, in bytes all together;
the oldest go first (a class's pictures are a few hundred kilobytes each)."""

MAGIC = (
    b"\xff\xd8\xff",  # JPEG
    b"\x89PNG\r\n\x1a\n",
    b"%PDF",
    b"II*\x00",  # TIFF
    b"MM\x00*",
    b"BM",
    b"GIF8",
)

_READER = ThreadPoolExecutor(
    max_workers=READERS, thread_name_prefix="photo-reader", initializer=keep_sheets_reused
)
"""The reader's thread keeps the sheets it builds and draws: a class's pages are mostly of one
handout."""
_FILES: OrderedDict[str, tuple[bytes, str]] = OrderedDict()
_FILES_LOCK = threading.Lock()
_KEPT_SIZE = 0


def is_photo(data: bytes) -> bool:
    """Whether the file's first bytes say it is an image or a PDF rather than a text.

    Any picture the photo reader can name goes to it (a HEIC, and also a JPEG XL or a video it
    cannot read), so that the page says what the file is rather than that it is not text.
    """
    from papergames.photo.formats import image_format

    webp = data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    named = image_format(data) is not None
    return webp or named or any(data.startswith(magic) for magic in MAGIC)


@dataclass
class SheetRead:
    """One sheet of the upload, as the page shows it.

    Attributes:
        title: which sheet it is (the file, and its page for a PDF).
        outcome: the verdict word (``consistent``, ``breaks the rules``, ``check these``,
            ``retake``).
        ok: whether the sheet was found consistent.
        lines: what ``papergames read`` prints for it.
        picture: the key of its debug picture, when the sheet was found in the photo.
        state: the key of its position as a final-state transcript, when there is one.
        view: the sheet drawn with what was read, when there is one.
        told: the verdict in sentences (:func:`told_sheet`); ``lines`` are its details.
    """

    title: str
    outcome: str
    ok: bool
    lines: list[str]
    picture: str = ""
    state: str = ""
    view: SheetView | None = None
    told: Told | None = None


@dataclass
class GroupRow:
    """One group of the class list in the class's table.

    Attributes:
        number, names: the group's number and its players' names, from the list.
        verdict: the sheet's verdict word (``consistent``, ``breaks the rules``...), or
            ``missing`` when no page of the scans is the group's sheet.
        scores: each player's name and score as read (the score empty when there is none).
        winner: the winners' names, parted by commas.
        pages: the pages of the upload where the group's sheet was read.
        twice: whether the same sheet was read from more than one page.
    """

    number: int
    names: tuple[str, ...]
    verdict: str
    scores: list[tuple[str, str]] = field(default_factory=list)
    winner: str = ""
    pages: list[int] = field(default_factory=list)
    twice: bool = False

    @property
    def missing(self) -> bool:
        return self.verdict == "missing"

    @property
    def ok(self) -> bool:
        return self.verdict == "consistent" and not self.twice


@dataclass
class ClassTable:
    """The upload held against its class list: a row per group, and what fits no group."""

    name: str
    rows: list[GroupRow]
    notes: list[str] = field(default_factory=list)

    @property
    def missing(self) -> int:
        return sum(row.missing for row in self.rows)

    @property
    def doubled(self) -> int:
        return sum(row.twice for row in self.rows)


@dataclass
class UploadRead:
    """Every sheet of an upload, and the class list when there are several (or a class list
    was given, with its table)."""

    name: str
    sheets: list[SheetRead] = field(default_factory=list)
    csv: str = ""
    table: ClassTable | None = None

    @property
    def ok(self) -> bool:
        return bool(self.sheets) and all(s.ok for s in self.sheets)


def sheet_count(data: bytes, name: str, spec_text: str | None) -> int:
    """How many sheets an upload holds, once the file and the given spec are found fit to read:
    the ``count`` that :func:`read_upload_sheets` and :func:`start_reading` are given.

    Raises:
        PapergamesError: a file that is not an image or PDF the reader can open, a PDF with
            too many pages, or a given spec that is not a papergames spec (the reader's words).
    """
    from papergames.photo.image import page_count
    from papergames.photo.read import parse_spec

    if spec_text is not None:
        parse_spec(spec_text, "the given spec")
    count = page_count(data, name)
    if count > MAX_SHEETS:
        raise PapergamesError(
            f"{name} has {count} pages; the page reads at most {MAX_SHEETS} at once (the "
            "command `papergames read` reads more)"
        )
    return count


def read_upload_sheets(
    data: bytes,
    name: str,
    spec_text: str | None,
    count: int,
    progress: Callable[[int, int], None] | None = None,
    roll: ClassList | None = None,
) -> UploadRead:
    """Read and judge the ``count`` sheets (see :func:`sheet_count`) of an uploaded photo or
    PDF, telling ``progress`` each sheet done. A page of a PDF that cannot be read is shown as
    such; the others are still read. Given the class list ``roll``, the sheets are held against
    it (:func:`class_table`) and the CSV is ``papergames read --class``'s.

    Raises:
        PapergamesError: for a single photo, the reader's reason when it cannot be opened.
    """
    result = FileResult(Path(name))
    upload = UploadRead(name)
    for index in range(count):
        title = name if count == 1 else f"{name}, page {index + 1}"
        try:
            outcome = _READER.submit(_read_one, data, name, index, spec_text).result()
        except PapergamesError as exc:
            if count == 1:
                raise
            line = f"{title}: {exc}"
            told = Told(False, "unreadable", (Said(sentence(str(exc))),), (line,))
            upload.sheets.append(SheetRead(title, "unreadable", False, [line], told=told))
        else:
            result.outcomes.append(outcome)
            result.pages.append(index + 1)
            upload.sheets.append(_shown(outcome, title))
        if progress is not None:
            progress(index + 1, count)
    if roll is not None:
        from papergames.photo.roster import hold_against, with_roster

        report = hold_against(roll, [result])
        rows = with_roster(csv_rows([result]), report, roll)
        upload.table = class_table(roll, report, rows, count)
        upload.csv = keep(csv_lines(rows).encode("utf-8"), "text/csv")
    elif count > 1:
        upload.csv = keep(csv_text([result]).encode("utf-8"), "text/csv")
    return upload


def class_table(
    roll: ClassList, report: RosterReport, rows: list[list[str]], count: int
) -> ClassTable:
    """The class's table: each group of ``roll`` in its order, read from the CSV ``rows``
    (:func:`~papergames.photo.roster.with_roster`'s, so the table and the CSV agree), and notes
    on the pages of the ``count`` read that belong to no group of the list.

    Example:
        >>> from papergames.handouts.classlist import parse_class_list
        >>> from papergames.photo.roster import hold_against, with_roster
        >>> roll = parse_class_list("Mia, Leo\\nZoë, Ana\\n")
        >>> report = hold_against(roll, [])
        >>> table = class_table(roll, report, with_roster([list(CSV_HEADER)], report, roll), 0)
        >>> [(r.number, r.verdict, r.names) for r in table.rows]
        [(1, 'missing', ('Mia', 'Leo')), (2, 'missing', ('Zoë', 'Ana'))]
    """
    column = {name: k for k, name in enumerate(CSV_HEADER)}
    by_page = {row[column["page"]]: row for row in rows[1:] if row[column["page"]]}
    table = ClassTable(roll.name, [])
    placed: set[int] = set()
    for group in roll.groups:
        places = report.found.get(group.number, [])
        if not places:
            table.rows.append(GroupRow(group.number, group.names, "missing"))
            continue
        pages = [place.page for place in places]
        placed.update(pages)
        row = by_page[str(pages[0])]
        scores = [
            (row[column[f"player {k}"]], row[column[f"score {k}"]])
            for k in range(1, 7)
            if row[column[f"player {k}"]]
        ]
        verdict = row[column["verdict"]]
        twice = group.number in report.twice
        winner = row[column["winner"]]
        table.rows.append(
            GroupRow(group.number, group.names, verdict, scores, winner, pages, twice)
        )
    for place, names in report.strangers:
        placed.add(place.page)
        table.notes.append(
            f"Page {place.page} is a sheet made for {', '.join(names)}, who are not a group of "
            "the class list."
        )
    unplaced = [page for page in range(1, count + 1) if page not in placed]
    if unplaced:
        listed = ", ".join(str(page) for page in unplaced)
        which = f"Page {listed} names" if len(unplaced) == 1 else f"Pages {listed} name"
        table.notes.append(
            f"{which} no group (the sheet may not have been made from a class list, or its "
            "code could not be read): see below."
        )
    return table


@dataclass
class ReadingJob:
    """The sheets of an upload being read in the background, for the page to follow.

    Attributes:
        id: the job's name in the page's requests (random, not guessable).
        name: the uploaded file's shown name.
        total: its sheets; ``done``: those read so far.
        result: every sheet, once all are read.
        error: the reader's words when the upload cannot be read at all.
        class_list: the class list as it was typed, for the form to show again.
    """

    id: str
    name: str
    total: int
    done: int = 0
    result: UploadRead | None = None
    error: str = ""
    class_list: str = ""

    def to_json(self) -> dict[str, object]:
        ready = self.result is not None
        return {"done": self.done, "total": self.total, "ready": ready, "error": self.error}


MAX_JOBS = 12
"""Uploads being read or read lately that are kept for their pages; the oldest go first."""

_JOBS: OrderedDict[str, ReadingJob] = OrderedDict()


def start_reading(
    data: bytes,
    name: str,
    spec_text: str | None,
    count: int,
    roll: ClassList | None = None,
    class_list: str = "",
) -> ReadingJob:
    """Start reading the ``count`` sheets (see :func:`sheet_count`) of an upload in the
    background, held against the class list ``roll`` when there is one (``class_list``: its
    text as typed)."""
    job = ReadingJob(secrets.token_urlsafe(12), name, count, class_list=class_list)
    with _FILES_LOCK:
        _JOBS[job.id] = job
        while len(_JOBS) > MAX_JOBS:
            _JOBS.popitem(last=False)

    def progress(done: int, total: int) -> None:
        job.done = done

    def work() -> None:
        try:
            job.result = read_upload_sheets(data, name, spec_text, count, progress, roll)
        except PapergamesError as exc:
            job.error = str(exc)
        except Exception:  # the page shows a message, never a traceback
            job.error = f"{name} could not be read; try again, or read it with papergames read"

    threading.Thread(target=work, daemon=True).start()
    return job


def reading_job(job_id: str) -> ReadingJob | None:
    """The job of that id, if it is still kept."""
    with _FILES_LOCK:
        return _JOBS.get(job_id)


def _read_one(data: bytes, name: str, index: int, spec_text: str | None) -> SheetOutcome:
    from dataclasses import replace

    from papergames.photo.debug import debug_image
    from papergames.photo.image import page_from_bytes
    from papergames.photo.outcome import judge_reading
    from papergames.photo.read import read_page

    page = page_from_bytes(data, name, index)
    reading = read_page(
        page.pixels, page.source, spec_text=spec_text, image_px_per_mm=page.px_per_mm
    )
    del page
    outcome = judge_reading(reading)
    picture = None
    if reading.rectified is not None:
        buffer = io.BytesIO()
        debug_image(outcome.reading).save(buffer, format="JPEG", quality=85)
        picture = buffer.getvalue()
    return replace(outcome, reading=replace(outcome.reading, rectified=None), picture=picture)


def told_sheet(outcome: SheetOutcome) -> Told:
    """A read sheet's verdict in sentences, as :func:`papergames.play.report.referee` says a
    finished sheet's: what to do for a photo to retake, the players found, the rules broken
    (those that hang on an item to check as rules it may break) and the items to look at
    again, and what the reader noticed but could not settle. ``papergames read``'s lines are the
    details.

    Example:
        >>> from papergames.photo.read import PageReading
        >>> advice = "no corner marker was found: photograph the whole sheet"
        >>> reading = PageReading("p.jpg", None, 1, {}, (), advice, {}, 0.0)
        >>> told = told_sheet(SheetOutcome(reading, RETAKE))
        >>> told.outcome, told.paragraphs[0].text
        ('retake', 'No corner marker was found: photograph the whole sheet.')
    """
    lines = tuple(outcome.lines())
    reading = outcome.reading
    if outcome.outcome == RETAKE:
        said = Said(sentence(reading.retake or "the photo cannot be read: take it again"))
        return Told(False, RETAKE, (said,), lines)
    paragraphs: list[Said] = []
    if outcome.transcript is not None:
        players = [
            f"{p.name} ({p.colour})" if p.colour else p.name for p in outcome.transcript.players
        ]
        paragraphs.append(Said(f"Players found: {', '.join(players)}."))
    if outcome.verdict is not None:
        if outcome.doubts:
            paragraphs.append(
                Said(
                    "Judged on what each item most likely is; a rule that hangs on an item to "
                    "check may be broken."
                )
            )
        paragraphs += referee(outcome.verdict, outcome.unsure).paragraphs
    if outcome.doubts:
        paragraphs.append(Said("Look again at:", tuple(_plain_doubts(outcome))))
    if outcome.notes:
        paragraphs.append(Said("Also noticed:", tuple(sentence(n) for n in outcome.notes)))
    return Told(outcome.ok, outcome.outcome, tuple(paragraphs), lines)


def _plain_doubts(outcome: SheetOutcome) -> list[str]:
    """The doubts in sentences, the items read with low confidence counted and shown in the
    picture of what the reader saw rather than named by their ids (which stay in the details):
    a teacher finds a ringed item on the sheet, not ``box-tally1-53``."""
    unsure = sum(item.low for item in outcome.reading.items)
    said = []
    for doubt in outcome.doubts:
        if outcome.picture is not None and unsure and doubt.startswith(LOW_CONFIDENCE):
            items = "1 item" if unsure == 1 else f"{unsure} items"
            each = "" if unsure == 1 else "each "
            doubt = f"{items} the reader is unsure of, {each}ringed with a ? in the picture below"
        said.append(sentence(doubt))
    return said


def _shown(outcome: SheetOutcome, title: str) -> SheetRead:
    told = told_sheet(outcome)
    shown = SheetRead(title, outcome.outcome, outcome.ok, list(told.details), told=told)
    if outcome.picture is not None:
        shown.picture = keep(outcome.picture, "image/jpeg")
    if outcome.transcript is not None and outcome.outcome != RETAKE:
        text = outcome.state_text()
        shown.state = keep(text.encode("utf-8"), "text/plain; charset=utf-8")
        shown.view = photo_view(outcome)
    return shown


def photo_view(outcome: SheetOutcome) -> SheetView | None:
    """The sheet drawn with what the reader found: each item in the pencil's colour as read
    (so a misread shows as the wrong colour; a doubtful item in its likeliest colour, as the
    rules judged it), sure broken rules and doubtful items marked."""
    reading = outcome.reading
    if reading.spec is None or reading.page is None:
        return None
    rgb = {key: "#{:02x}{:02x}{:02x}".format(*value) for key, value in reading.colours.items()}
    paint = [
        (item.id, rgb.get(item.colour, "#777777"))
        for item in reading.items
        if item.colour is not None
    ]
    named = names_on(reading.page)
    flagged: list[str] = []
    for breach in outcome.sure_breaches():
        flagged += [named[i] for i in breach.items if i in named]
    doubtful = [item.id for item in reading.items if item.low]
    spec = reading.spec
    return SheetView(
        spec.game,
        str(spec),
        paint,
        [],
        list(dict.fromkeys(flagged)),
        page=reading.page_number,
        doubtful=doubtful,
    )


def keep(data: bytes, media_type: str) -> str:
    """Keep a file for the page to fetch by a random key; the oldest go past
    :data:`KEPT_BYTES`."""
    global _KEPT_SIZE
    key = secrets.token_urlsafe(12)
    with _FILES_LOCK:
        _FILES[key] = (data, media_type)
        _KEPT_SIZE += len(data)
        while _KEPT_SIZE > KEPT_BYTES and len(_FILES) > 1:
            _, (old, _) = _FILES.popitem(last=False)
            _KEPT_SIZE -= len(old)
    return key


def kept(key: str) -> tuple[bytes, str] | None:
    """A kept file and its media type, if it is still there."""
    with _FILES_LOCK:
        return _FILES.get(key)
