"""Class packs made in the background, so the page can show how far the making has got.

A pack of thirty sheets takes a few seconds, longer than a page should hang. The pack page
starts a job here and asks for its progress until the PDF is ready, then downloads it. The PDF
is the one ``papergames pack GAME... --copies N --seed S --paper P --rules R --per-page K``
writes (a game with settings of its own is named as ``'rings rounds=2'``): the specs are made by
the command's own :func:`papergames.handouts.packspecs.pack_specs` and the pack by the same
:func:`papergames.handouts.pack.make_pack`. Jobs wait their turn to be made, a
few at a time; only the last few finished ones are kept, in memory.

Given a class list (:func:`typed_class_list`, as ``--class`` with ``--groups-of``), each game
gets one sheet per group with the group's names printed on it. The list stays in this
process's memory with its job, like the rest of the form: nothing is sent anywhere else.

Each job keeps the form it was made from (:class:`PackForm`), so a pack refused while it is made
shows the form again with what was typed, and the refusal beside the input it is about
(:func:`bad_field`).

Example:
    >>> job = start(["spaghetti"], copies=1, seed=5, paper="a5", rules="none", per_page=1)
    >>> wait(job.id, 60).ready, job.filename
    (True, 'spaghetti-pack-5.pdf')
"""

from __future__ import annotations

import io
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from papergames.errors import PapergamesError, SpecError
from papergames.handouts.classlist import ClassList
from papergames.handouts.packspecs import PACK_KEYS, pack_specs
from papergames.sheets.spec import SheetSpec

MAX_JOBS = 12
"""Finished packs kept at once; the oldest finished one is dropped when another finishes (a
teacher downloads at once). A pack still waiting or being made is never dropped."""

MAX_WAITING = 60
"""Packs waiting or being made at once; one more is refused as busy (:class:`PacksBusyError`)."""

MAKERS = 2
"""Packs made at the same time. The others wait their turn, so fifty teachers asking at once
do not share the processor fifty ways while the previews of everyone else crawl."""

_MAKING = threading.BoundedSemaphore(MAKERS)


class PacksBusyError(PapergamesError):
    """Too many packs are waiting to be made: the page asks to try again shortly."""


PACK_FIELDS = ("copies", "seed", "paper", "rules", "per_page", "class_list", "groups_of")
"""The pack form's inputs for the whole pack; a game's own setting is named ``GAME:KEY``."""

MAX_CLASS_CHARS = 20_000
"""The longest class list the page takes, in characters: some hundreds of pupils."""


def typed_class_list(text: str, groups_of: str = "", seed: int = 0) -> ClassList | None:
    """The class list typed in a form, or ``None`` when none was; with ``groups_of``, its
    pupils shuffled by ``seed`` into groups of that many (as ``--groups-of`` does).

    Example:
        >>> roll = typed_class_list("class: 5B\\nMia, Leo\\nZoë, Ana, Tom\\n")
        >>> roll.name, [g.names for g in roll.groups]
        ('5B', [('Mia', 'Leo'), ('Zoë', 'Ana', 'Tom')])
        >>> typed_class_list("  \\n") is None
        True

    Raises:
        SpecError: a list too long, a line that is not a group (naming the line), or a
            ``groups_of`` that is not 2 to 6 or more than the pupils listed.
    """
    from papergames.handouts.classlist import make_groups, parse_class_list

    size = groups_of.strip()
    if not text.strip():
        if size:
            raise SpecError(
                "groups of: write the pupils in the class list, one a line, to put them in groups"
            )
        return None
    if len(text) > MAX_CLASS_CHARS:
        raise SpecError(
            f"the class list is {len(text):,} characters long; the page takes at most "
            f"{MAX_CLASS_CHARS:,}: make one pack per class"
        )
    roll = parse_class_list(text, "the class list")
    if not size:
        return roll
    if not (size.isdigit() and 2 <= int(size) <= 6):
        raise SpecError(f"groups of takes a whole number from 2 to 6, not '{size[:20]}'")
    pupils = sum(len(group.names) for group in roll.groups)
    if pupils < int(size):
        raise SpecError(f"groups of {size}: the class list names only {pupils} pupils")
    return make_groups(roll, int(size), seed)


@dataclass
class PackForm:
    """What the pack form sent, as it was typed.

    Attributes:
        games: the games ticked, in the form's order.
        values: the whole pack's inputs (:data:`PACK_FIELDS`) as typed.
        settings: each game's own settings, keyed ``GAME:KEY`` as the form names them.
    """

    games: list[str] = field(default_factory=list)
    values: dict[str, str] = field(default_factory=dict)
    settings: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_items(cls, items: Iterable[tuple[str, str]]) -> PackForm:
        """The form from its sent (name, value) pairs; other names are ignored.

        Example:
            >>> form = PackForm.from_items([("games", "rings"), ("rings:rounds", "2"),
            ...                             ("copies", "3"), ("format", "pdf")])
            >>> form.games, form.values, form.settings
            (['rings'], {'copies': '3'}, {'rings:rounds': '2'})
        """
        form = cls()
        for key, value in items:
            if key == "games":
                form.games.append(value)
            elif key in PACK_FIELDS:
                form.values[key] = value
            elif ":" in key:
                form.settings[key] = value
        return form

    def value(self, key: str, default: str = "") -> str:
        """A whole-pack input as typed, or ``default`` when it was left empty."""
        return self.values.get(key, "").strip() or default


def bad_field(form: PackForm, message: str) -> str | None:
    """The input a refusal of the pack is about, so the page can show it there (``None``: the
    refusal is about the whole pack).

    Each input is tried in the order the pack's making checks them; a refusal no single value
    explains (too many sheets, rules too small to read) is placed by the option it names.

    Example:
        >>> bad_field(PackForm(["rings"], {"copies": "3"}, {"rings:rounds": "99"}), "")
        'rings:rounds'
        >>> bad_field(PackForm([], {"copies": "3"}), "choose at least one game for the pack")
        'games'
    """
    from papergames.games import get_layout
    from papergames.handouts.pack import MAX_COPIES, PER_PAGE, RULES_PLACES
    from papergames.sheets.spec import SHEET_PARAMS

    def refused(check: object, text: str) -> bool:
        try:
            check(text)  # type: ignore[operator]
        except (PapergamesError, ValueError):
            return True
        return False

    listed = bool(form.value("class_list"))
    if listed or form.value("groups_of"):
        if message.startswith("the class list"):
            return "class_list"
        if message.startswith("group"):  # "groups of ...", or a group made by groups of
            return "groups_of"
    for key, value in form.settings.items():
        if key.split(":")[0] in form.games and any(c.isspace() for c in value.strip()):
            return key
    copies = form.value("copies")
    if not listed and not (copies.isdigit() and len(copies) <= 6):
        return "copies"
    if refused(SHEET_PARAMS["seed"].parse, form.value("seed", "0")):
        return "seed"
    names = [g.strip() for g in form.games]
    if not names or len(set(names)) != len(names):
        return "games"
    for name in names:
        try:
            params = get_layout(name).params
        except PapergamesError:
            return "games"
        for key, value in form.settings.items():
            game, _, param = key.partition(":")
            known = params.params.get(param) or SHEET_PARAMS.params.get(param)
            if game == name and value.strip() and known and refused(known.parse, value.strip()):
                return key
    if refused(SHEET_PARAMS["paper"].parse, form.value("paper", "a4")):
        return "paper"
    if not listed and not 1 <= int(copies) <= MAX_COPIES:
        return "copies"
    if form.value("rules", "back") not in RULES_PLACES:
        return "rules"
    per_page = form.value("per_page", "1")
    if not per_page.isdigit() or int(per_page) not in PER_PAGE:
        return "per_page"
    if "--copies" in message:
        return "copies"
    if "--per-page" in message or "too small" in message:
        return "per_page"
    return None


@dataclass
class PackJob:
    """One pack being made.

    Attributes:
        id: the job's name in the page's requests (random, not guessable).
        filename: the name the command would give the file.
        done, total: sheets made so far and in all (``total`` is 0 until it is known).
        data: the PDF once it is made.
        error: the library's message when the pack cannot be made.
        command: the command line that makes the same pack.
        form: the form the pack was asked with, to show again when it is refused.
    """

    id: str
    filename: str
    done: int = 0
    total: int = 0
    data: bytes | None = None
    error: str = ""
    command: str = ""
    form: PackForm | None = None

    @property
    def field(self) -> str | None:
        """The input the job's refusal is about (``None``: none, or no refusal)."""
        if not self.error or self.form is None:
            return None
        return bad_field(self.form, self.error)

    @property
    def ready(self) -> bool:
        return self.data is not None

    @property
    def finished(self) -> bool:
        """Made or refused: nothing more will happen to the job."""
        return self.data is not None or bool(self.error)

    def to_json(self) -> dict[str, object]:
        return {
            "done": self.done,
            "total": self.total,
            "ready": self.ready,
            "error": self.error,
            "filename": self.filename,
            "command": self.command,
            "field": self.field,
        }


_JOBS: OrderedDict[str, PackJob] = OrderedDict()
_JOBS_LOCK = threading.Lock()


def chosen_specs(games: Sequence[str], seed: int, paper: str) -> list[SheetSpec]:
    """The specs ``papergames pack`` makes for these games (each a name, or a name with its own
    settings), one seed (:func:`papergames.handouts.packspecs.pack_specs`).

    Raises:
        SpecError: for no game, a game chosen twice, an unknown game or key, or a bad value.
    """
    names = [text.split()[0] for text in games if text.split()]
    if len(set(names)) != len(names):
        raise SpecError("a game is chosen twice")
    return pack_specs(games, seed=seed, paper=paper)


def command_line(
    specs: Sequence[SheetSpec],
    copies: int,
    rules: str,
    per_page: int,
    groups_of: str | None = None,
) -> str:
    """The command that makes the same pack (a game with settings is quoted). With
    ``groups_of`` (empty: the list's own groups) the pack is a class list's, saved as
    ``class.txt``.

    Example:
        >>> specs = pack_specs(["rings rounds=2", "maze"], seed=7, paper="a4")
        >>> print(command_line(specs, 10, "back", 1).replace(" --", "\\n--"))
        papergames pack 'rings rounds=2' maze
        --copies 10
        --seed 7
        --paper a4
        --rules back
        --per-page 1
    """
    games = []
    for spec in specs:
        words = str(spec).split()
        own = [w for w in words[1:] if w.split("=")[0] not in PACK_KEYS]
        games.append(f"'{' '.join([words[0], *own])}'" if own else words[0])
    count = f"--copies {copies}"
    if groups_of is not None:
        count = "--class class.txt" + (f" --groups-of {groups_of}" if groups_of else "")
    return (
        f"papergames pack {' '.join(games)} {count} --seed {specs[0].seed} "
        f"--paper {specs[0].paper} --rules {rules} --per-page {per_page}"
    )


def start(
    games: Sequence[str],
    *,
    copies: int,
    seed: int,
    paper: str,
    rules: str,
    per_page: int,
    form: PackForm | None = None,
    class_list: str = "",
    groups_of: str = "",
) -> PackJob:
    """Start making a pack; its errors while making are kept on the job, with the ``form`` it
    was asked with. Given a ``class_list`` (the text typed, see :func:`typed_class_list`),
    each game gets a sheet per group and ``copies`` is ignored.

    Raises:
        SpecError: for what can be refused at once (see :func:`pack_specs`), a class list
            refused, or a group the game cannot seat (naming its line).
    """
    from papergames.handouts.pack import group_specs

    specs = chosen_specs(games, seed, paper)
    roll = typed_class_list(class_list, groups_of, specs[0].seed)
    if roll is not None:
        copies = len(roll.groups)
        for spec in specs:
            group_specs(spec, roll)  # a group the game cannot seat is refused at once
    name = "-".join(spec.game for spec in specs)
    job = PackJob(secrets.token_urlsafe(12), f"{name}-pack-{specs[0].seed}.pdf")
    shown_groups = None if roll is None else groups_of.strip()
    job.command = command_line(specs, copies, rules, per_page, shown_groups)
    job.form = form
    with _JOBS_LOCK:
        _forget_finished()
        if sum(not j.finished for j in _JOBS.values()) >= MAX_WAITING:
            raise PacksBusyError(
                f"{MAX_WAITING} packs are being made already: try again in a minute"
            )
        _JOBS[job.id] = job
    thread = threading.Thread(
        target=_make, args=(job, specs, copies, rules, per_page, roll), daemon=True
    )
    thread.start()
    return job


def _forget_finished() -> None:
    """Drop the oldest finished jobs beyond :data:`MAX_JOBS` (the caller holds the lock)."""
    finished = [key for key, job in _JOBS.items() if job.finished]
    for key in finished[: max(0, len(finished) - MAX_JOBS)]:
        del _JOBS[key]


def _make(
    job: PackJob,
    specs: list[SheetSpec],
    copies: int,
    rules: str,
    per_page: int,
    roll: ClassList | None = None,
) -> None:
    with _MAKING:
        _make_now(job, specs, copies, rules, per_page, roll)
    with _JOBS_LOCK:
        _forget_finished()


def _make_now(
    job: PackJob,
    specs: list[SheetSpec],
    copies: int,
    rules: str,
    per_page: int,
    roll: ClassList | None = None,
) -> None:
    from papergames.handouts.pack import make_pack
    from papergames.output import render
    from papergames.web.making import render_lock

    def progress(done: int, total: int) -> None:
        job.done, job.total = done, total

    try:
        made = make_pack(
            specs, copies, rules=rules, per_page=per_page, progress=progress, roll=roll
        )
        buffer = io.BytesIO()
        with render_lock():
            render(made, buffer, format="pdf")
    except PapergamesError as exc:
        job.error = str(exc)
        return
    except Exception:  # the page shows a message, never a traceback
        job.error = "the pack could not be made; try fewer copies or other settings"
        return
    job.data = buffer.getvalue()


def get(job_id: str) -> PackJob | None:
    """The job of that id, if it is still kept."""
    with _JOBS_LOCK:
        return _JOBS.get(job_id)


def wait(job_id: str, seconds: float) -> PackJob:
    """The job once it is ready or failed (for tests and examples)."""
    deadline = time.monotonic() + seconds
    while True:
        job = get(job_id)
        if job is None:
            raise KeyError(job_id)
        if job.ready or job.error or time.monotonic() > deadline:
            return job
        time.sleep(0.05)
