"""Class packs made in the background, so the page can show how far the making has got.

A pack of thirty sheets takes a few seconds, longer than a page should hang. The pack page
starts a job here and asks for its progress until the PDF is ready, then downloads it. The PDF
is the one ``papergames pack GAME... --copies N --seed S --paper P --rules R --per-page K``
writes (a game with settings of its own is named as ``'rings rounds=2'``): the specs are made by
the command's own :func:`papergames.packspecs.pack_specs` and the pack by the same
:func:`papergames.pack.make_pack`. Only the last few jobs are kept, in memory.

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
from collections.abc import Sequence
from dataclasses import dataclass

from papergames.errors import PapergamesError, SpecError
from papergames.packspecs import PACK_KEYS, pack_specs
from papergames.spec import SheetSpec

MAX_JOBS = 12
"""Packs kept at once; the oldest is dropped when a new one starts (a teacher downloads at once)."""


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
    """

    id: str
    filename: str
    done: int = 0
    total: int = 0
    data: bytes | None = None
    error: str = ""
    command: str = ""

    @property
    def ready(self) -> bool:
        return self.data is not None

    def to_json(self) -> dict[str, object]:
        return {
            "done": self.done,
            "total": self.total,
            "ready": self.ready,
            "error": self.error,
            "filename": self.filename,
            "command": self.command,
        }


_JOBS: OrderedDict[str, PackJob] = OrderedDict()
_JOBS_LOCK = threading.Lock()


def chosen_specs(games: Sequence[str], seed: int, paper: str) -> list[SheetSpec]:
    """The specs ``papergames pack`` makes for these games (each a name, or a name with its own
    settings), one seed (:func:`papergames.packspecs.pack_specs`).

    Raises:
        SpecError: for no game, a game chosen twice, an unknown game or key, or a bad value.
    """
    names = [text.split()[0] for text in games if text.split()]
    if len(set(names)) != len(names):
        raise SpecError("a game is chosen twice")
    return pack_specs(games, seed=seed, paper=paper)


def command_line(specs: Sequence[SheetSpec], copies: int, rules: str, per_page: int) -> str:
    """The command that makes the same pack (a game with settings is quoted).

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
    return (
        f"papergames pack {' '.join(games)} --copies {copies} --seed {specs[0].seed} "
        f"--paper {specs[0].paper} --rules {rules} --per-page {per_page}"
    )


def start(
    games: Sequence[str], *, copies: int, seed: int, paper: str, rules: str, per_page: int
) -> PackJob:
    """Start making a pack; its errors while making are kept on the job.

    Raises:
        SpecError: for what can be refused at once (see :func:`pack_specs`).
    """
    specs = chosen_specs(games, seed, paper)
    name = "-".join(spec.game for spec in specs)
    job = PackJob(secrets.token_urlsafe(12), f"{name}-pack-{specs[0].seed}.pdf")
    job.command = command_line(specs, copies, rules, per_page)
    with _JOBS_LOCK:
        _JOBS[job.id] = job
        while len(_JOBS) > MAX_JOBS:
            _JOBS.popitem(last=False)
    thread = threading.Thread(target=_make, args=(job, specs, copies, rules, per_page), daemon=True)
    thread.start()
    return job


def _make(job: PackJob, specs: list[SheetSpec], copies: int, rules: str, per_page: int) -> None:
    from papergames.output import render
    from papergames.pack import make_pack
    from papergames.web.making import render_lock

    def progress(done: int, total: int) -> None:
        job.done, job.total = done, total

    try:
        made = make_pack(specs, copies, rules=rules, per_page=per_page, progress=progress)
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
