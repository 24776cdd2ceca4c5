"""Renderers: one module per format, one signature, picked from a dict by format name.

Every renderer is ``render(sheet, out, *, page=None, dpi=150)`` where ``out`` is a binary
stream. PDF writes every page (or only ``page``); SVG and PNG write one page (the first unless
``page`` says otherwise). :func:`render` adds paths and atomic writes on top, and checks its
arguments first, whoever calls it: every bad value (a text stream too, :func:`check_stream`)
raises :class:`~papergames.errors.SpecError` (or :class:`~papergames.errors.OutputError` for a
file that cannot be written) before a byte is written.

Example:
    >>> import io
    >>> from papergames import SheetSpec, make_sheet
    >>> buf = io.BytesIO()
    >>> render(make_sheet(SheetSpec.create("spaghetti", seed=1)), buf, format="svg")
    >>> buf.getvalue().startswith(b"<?xml")
    True
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Protocol

from papergames.errors import OutputError, SpecError
from papergames.files import shown_path, write_problem
from papergames.output.common import DPI_RANGE as DPI_RANGE
from papergames.output.common import check_request
from papergames.output.common import max_dpi as max_dpi
from papergames.sheets.model import Sheet

RENDERERS: dict[str, str] = {
    "pdf": "papergames.output.pdf",
    "svg": "papergames.output.svg",
    "png": "papergames.output.png",
}
"""Format name -> module holding its ``render`` function (imported on first use)."""

DEFAULT_DPI = 150


class Renderer(Protocol):
    def __call__(
        self, sheet: Sheet, out: IO[bytes], *, page: int | None = None, dpi: int = DEFAULT_DPI
    ) -> None: ...


def get_renderer(format: str) -> Renderer:
    """The ``render`` function of a format.

    Raises:
        SpecError: for an unknown format (the message lists the known ones).
    """
    if not isinstance(format, str):
        raise SpecError(f"a format is named by text (pdf, svg or png), not {type(format).__name__}")
    module = RENDERERS.get(format.lower())
    if module is None:
        raise SpecError(f"unknown format '{format}' (known: {', '.join(RENDERERS)})")
    renderer: Renderer = importlib.import_module(module).render
    return renderer


def format_from_path(path: str | os.PathLike[str]) -> str:
    """The format named by a file's suffix."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in RENDERERS:
        raise SpecError(
            f"cannot tell the format of '{path}' from its suffix: use .pdf, .svg or .png, "
            "or give --format"
        )
    return suffix


def render(
    sheet: Sheet,
    out: str | os.PathLike[str] | IO[bytes],
    *,
    format: str | None = None,
    page: int | None = None,
    dpi: int = DEFAULT_DPI,
) -> None:
    """Render ``sheet`` to a path (written atomically) or a binary stream.

    Raises:
        SpecError: for something that is not a sheet, a sheet without pages, an unknown format,
            a page that does not exist, a resolution that is not a whole number in
            :data:`DPI_RANGE` (PNG: at most :func:`max_dpi` for the page), or a stream that
            does not take bytes (:func:`check_stream`).
        OutputError: when the file cannot be written (nothing is left behind).
    """
    if isinstance(out, str | os.PathLike):
        fmt = format or format_from_path(out)
        renderer = get_renderer(fmt)
        check_request(sheet, page, dpi, fmt.lower())
        with atomic_write(Path(out)) as stream:
            renderer(sheet, stream, page=page, dpi=dpi)
    else:
        check_stream(out)
        if format is None:
            raise SpecError("give a format when rendering to a stream")
        renderer = get_renderer(format)
        check_request(sheet, page, dpi, format.lower())
        renderer(sheet, out, page=page, dpi=dpi)


def check_stream(out: object) -> None:
    """Refuse, before anything is written, a target that is not a binary stream open for writing.

    Every format is written as bytes, so a text stream (``io.StringIO``, a file opened with
    ``"w"``, ``sys.stdout``) is refused with what to pass instead, as is a path given as
    ``bytes`` and a stream opened only for reading.

    Raises:
        SpecError: (a :class:`ValueError`) saying what was given and what to give.

    Example:
        >>> import io
        >>> check_stream(io.BytesIO())
        >>> check_stream(io.StringIO())
        Traceback (most recent call last):
        ...
        papergames.errors.SpecError: sheets are written as bytes, but the stream given \
(StringIO) takes text: open the file in binary mode ('wb'), use io.BytesIO, or pass a path
    """
    what = type(out).__name__
    if isinstance(out, bytes | bytearray | memoryview):
        raise SpecError(
            f"the file to write is given as {what}: pass a path as text (a str or a "
            "pathlib.Path), or a binary stream"
        )
    mode = getattr(out, "mode", None)
    text = isinstance(out, io.TextIOBase) or (
        not isinstance(out, io.RawIOBase | io.BufferedIOBase)
        and isinstance(mode, str)
        and "b" not in mode
    )
    if text:
        raise SpecError(
            f"sheets are written as bytes, but the stream given ({what}) takes text: open the "
            "file in binary mode ('wb'), use io.BytesIO, or pass a path"
        )
    if not callable(getattr(out, "write", None)):
        raise SpecError(
            f"a {what} is neither a path nor a stream: pass a path, or a binary stream open "
            "for writing"
        )
    writable = getattr(out, "writable", None)
    if callable(writable):
        try:
            ok = writable()
        except ValueError:  # a closed file
            raise SpecError(f"the stream given ({what}) is closed") from None
        if not ok:
            raise SpecError(
                f"the stream given ({what}) is open for reading only: open it with 'wb'"
            )


def page_paths(path: Path, pages: int) -> list[Path]:
    """File names for a one-page-per-file format: ``name.svg`` or ``name-1.svg``, ``name-2.svg``."""
    if pages == 1:
        return [path]
    return [path.with_name(f"{path.stem}-{k}{path.suffix}") for k in range(1, pages + 1)]


def write_sheet(
    sheet: Sheet, path: Path, *, format: str | None = None, dpi: int = DEFAULT_DPI
) -> list[Path]:
    """Write a whole sheet: one PDF, or one SVG/PNG file per page. Returns the paths written.

    A sheet of several SVG or PNG pages is written all or nothing: every page goes to a
    temporary file first, and the files are moved into place only when all of them are made.

    Raises:
        SpecError: as :func:`render` does.
        OutputError: when a file cannot be written; none of the sheet's files is then left.
    """
    fmt = (format or format_from_path(path)).lower()
    renderer = get_renderer(fmt)
    check_request(sheet, None, dpi, fmt)
    if fmt == "pdf":
        render(sheet, path, format=fmt, dpi=dpi)
        return [path]
    paths = page_paths(Path(path), len(sheet.pages))
    with contextlib.ExitStack() as stack:
        streams = [stack.enter_context(atomic_write(target, defer=True)) for target in paths]
        for number, stream in enumerate(streams, start=1):
            renderer(sheet, stream, page=number, dpi=dpi)
            stream.flush()
        # Every page is made: only now does any of them replace a file.
        for stream in streams:
            stream.commit()
    return paths


def write_stdout(sheet: Sheet, out: IO[bytes], *, format: str, dpi: int = DEFAULT_DPI) -> None:
    """Write a whole sheet to a stream such as standard output (``-o -``), whole or not at all.

    The sheet is rendered in memory first, so an error leaves nothing half-written on the
    stream. A sheet of several SVG or PNG pages cannot be one stream and is refused.

    Raises:
        SpecError: for a multi-page sheet in a one-page format, or as :func:`render` does.
    """
    check_stream(out)
    fmt = format.lower() if isinstance(format, str) else format
    get_renderer(fmt)
    check_request(sheet, None, dpi, fmt)
    if fmt != "pdf" and len(sheet.pages) > 1:
        raise SpecError(
            f"the sheet has {len(sheet.pages)} pages, one {fmt} file each: give a file name "
            "with -o, or choose pdf"
        )
    buffer = io.BytesIO()
    render(sheet, buffer, format=fmt, dpi=dpi)
    out.write(buffer.getvalue())
    out.flush()


@contextlib.contextmanager
def atomic_write(path: Path, *, defer: bool = False) -> Iterator[Any]:
    """Write to a temporary file beside ``path`` and move it into place only on success.

    Whatever ends the write early (an error, Ctrl-C, or SIGTERM/SIGHUP, which the command line
    turns into an exit) removes the temporary file. The target is checked first: ``-`` is not a
    file name here (standard output is written by :func:`write_stdout`), a folder, device, pipe
    or socket is never replaced, a symbolic link is written through (the link stays), and a file
    that is replaced keeps its permission bits.

    Args:
        path: the file to write.
        defer: leave the file beside its target when the block ends; the caller moves it into
            place with the stream's ``commit()`` (:func:`write_sheet` writes pages this way).

    Raises:
        OutputError: naming the file and the reason.
    """
    target = _target(Path(path))
    directory = target.parent if str(target.parent) else Path()
    try:
        if not directory.is_dir():
            raise OutputError(
                f"cannot write {shown_path(path)}: the folder {shown_path(directory)} does not "
                "exist"
            )
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        # The temporary name is kept short: a target's name near the longest a disk takes
        # must not fail for the temporary file's sake.
        prefix = f".{target.name[:100]}."
        fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OutputError(write_problem(exc, path)) from None
    done = False

    def commit() -> None:
        nonlocal done
        try:
            Path(tmp).chmod(mode)
            Path(tmp).replace(target)
        except OSError as exc:
            raise OutputError(write_problem(exc, path)) from None
        done = True

    try:
        with os.fdopen(fd, "wb") as stream:
            stream.commit = commit  # type: ignore[attr-defined]
            yield stream
            if not defer:
                stream.flush()
        if not defer:
            commit()
    except OSError as exc:
        raise OutputError(write_problem(exc, path)) from None
    finally:
        if not done:
            Path(tmp).unlink(missing_ok=True)


def _target(path: Path) -> Path:
    """The file a write to ``path`` replaces: the path, or what its symbolic link points to.

    Raises:
        OutputError: for ``-``, or when the path (or the link's target) exists and is not a
            regular file.
    """
    if str(path) == "-":
        raise OutputError(
            "'-' is not a file name here: this command writes files only (to name a file "
            "'-', give its folder too, such as /tmp/-)"
        )
    try:
        link = path.is_symlink()
    except OSError as exc:  # a name too long, a folder that may not be searched...
        raise OutputError(write_problem(exc, path)) from None
    if link:
        try:
            path = path.resolve(strict=False)
        except (OSError, RuntimeError) as exc:  # a loop of links
            raise OutputError(f"cannot write {shown_path(path)}: {exc}") from None
    try:
        info = path.stat()
    except FileNotFoundError:
        return path
    except OSError as exc:
        raise OutputError(write_problem(exc, path)) from None
    if stat.S_ISDIR(info.st_mode):
        raise OutputError(f"cannot write {shown_path(path)}: it is a folder")
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(
            f"cannot write {shown_path(path)}: it is a device, a pipe or a socket, not a file, "
            "and is left as it is"
        )
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
