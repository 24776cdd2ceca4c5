"""Renderers: one module per format, one signature, picked from a dict by format name.

Every renderer is ``render(sheet, out, *, page=None, dpi=150)`` where ``out`` is a binary
stream. PDF writes every page (or only ``page``); SVG and PNG write one page (the first unless
``page`` says otherwise). :func:`render` adds paths and atomic writes on top.

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
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Protocol

from papergames.errors import OutputError, SpecError
from papergames.model import Sheet

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
    """Render ``sheet`` to a path (written atomically) or a binary stream."""
    if isinstance(out, str | os.PathLike):
        fmt = format or format_from_path(out)
        renderer = get_renderer(fmt)
        with atomic_write(Path(out)) as stream:
            renderer(sheet, stream, page=page, dpi=dpi)
    else:
        if format is None:
            raise SpecError("give a format when rendering to a stream")
        get_renderer(format)(sheet, out, page=page, dpi=dpi)


def page_paths(path: Path, pages: int) -> list[Path]:
    """File names for a one-page-per-file format: ``name.svg`` or ``name-1.svg``, ``name-2.svg``."""
    if pages == 1:
        return [path]
    return [path.with_name(f"{path.stem}-{k}{path.suffix}") for k in range(1, pages + 1)]


def write_sheet(
    sheet: Sheet, path: Path, *, format: str | None = None, dpi: int = DEFAULT_DPI
) -> list[Path]:
    """Write a whole sheet: one PDF, or one SVG/PNG file per page. Returns the paths written."""
    fmt = (format or format_from_path(path)).lower()
    get_renderer(fmt)
    if fmt == "pdf":
        render(sheet, path, format=fmt, dpi=dpi)
        return [path]
    paths = page_paths(path, len(sheet.pages))
    for number, target in enumerate(paths, start=1):
        render(sheet, target, format=fmt, page=number, dpi=dpi)
    return paths


@contextlib.contextmanager
def atomic_write(path: Path) -> Iterator[IO[bytes]]:
    """Write to a temporary file beside ``path`` and move it into place only on success."""
    directory = path.parent if str(path.parent) else Path()
    if not directory.is_dir():
        raise OutputError(f"cannot write {path}: the folder {directory} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as stream:
            yield stream
        Path(tmp).chmod(0o666 & ~_umask())
        Path(tmp).replace(path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"cannot write {path}: {exc.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
