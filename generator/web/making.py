"""Sheets, rules pages and thumbnails for the web page, made by the library and kept a while.

A spec comes from a form's values through :meth:`SheetSpec.create`, the same parser the command
line's ``sheet`` uses, so a value the command refuses is refused here with the same words. The
bytes are made by :func:`papergames.output.render`, the function behind ``papergames sheet -o``
and ``papergames rules -o``, so a download is the file the command writes.

Sheets and their renders are kept in small caches keyed by the spec's canonical text: moving a
slider back and forth, or two pupils asking for the same sheet, costs one build, and so does a
game loaded into the recorder, whose preview, seating and every move ask for the same sheet.
Building and rendering happen under one lock, since the renderers' font caches were written for
one caller at a time.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from papergames.errors import SpecError
from papergames.output import DPI_RANGE, RENDERERS, render
from papergames.sheets.spec import SHEET_PARAMS, SheetSpec

if TYPE_CHECKING:
    from papergames.sheets.model import Sheet

THUMBNAIL_DPI = 30
"""Resolution of the gallery's pictures: an A4 sheet is 248 by 351 pixels, about 15 KB."""

CONTROL_KEYS = ("format", "page", "dpi")
"""Query keys that choose the file rather than the sheet: never part of a spec."""

MEDIA_TYPES = {"pdf": "application/pdf", "svg": "image/svg+xml", "png": "image/png"}

_LOCK = threading.RLock()


def render_lock() -> threading.RLock:
    """The lock every build and render here takes (a pack's PDF too)."""
    return _LOCK


KEPT_SHEETS = 8
"""Sheets kept built: a class's handouts are one sheet or a few, and a Springer sheet with its
labels takes seconds to build."""


def built_sheet(spec: SheetSpec) -> Sheet:
    """The sheet ``spec`` describes, built once while it is among the :data:`KEPT_SHEETS` last
    asked for. Nothing on the web page changes a sheet it is given: the recorder's rules, the
    preview and the checker's drawing only read it (a pack builds its own).

    Raises:
        SpecError, FitError: as :func:`~papergames.sheets.sheet.make_sheet` does.
    """
    return _built_sheet(str(spec))


@lru_cache(maxsize=KEPT_SHEETS)
def _built_sheet(spec_text: str) -> Sheet:
    from papergames.sheets.sheet import make_sheet

    with _LOCK:
        return make_sheet(SheetSpec.parse(spec_text))


@dataclass(frozen=True)
class Made:
    """One rendered file.

    Attributes:
        data: the file's bytes.
        media_type: its MIME type.
        filename: the name the command line would give it.
        spec: the spec's canonical text (what the sheet's footer prints).
        pages: how many pages the whole sheet has.
    """

    data: bytes
    media_type: str
    filename: str
    spec: str
    pages: int


def spec_from_values(game: str, values: Mapping[str, str]) -> SheetSpec:
    """The spec a form's values describe, checked by the library.

    Every key but the file's own (:data:`CONTROL_KEYS`) is handed to :meth:`SheetSpec.create`,
    so an unknown key or a value out of range is refused there, in the command line's words.

    Raises:
        SpecError: naming the first unknown game or key, or the first bad value.
    """
    settings = {k: v for k, v in values.items() if k not in CONTROL_KEYS}
    return SheetSpec.create(game, settings)


def bad_field(game: str, values: Mapping[str, str]) -> str | None:
    """The first input whose own value is refused, so the page can mark it (``None``: none is).

    A value can be fine alone and refused with another (a smallest above a largest); then no
    single input is to blame and ``None`` is returned.
    """
    from papergames.games import get_layout

    params = get_layout(game).params
    for key, text in values.items():
        param = params.params.get(key) or SHEET_PARAMS.params.get(key)
        if param is None:
            continue
        try:
            param.parse(text)
        except SpecError:
            return key
    return None


def parse_file_choice(values: Mapping[str, str]) -> tuple[str, int, int]:
    """The format, page and resolution a download asks for, checked as the command line does.

    Raises:
        SpecError: for an unknown format, a page or resolution that is not a whole number, or a
            resolution outside :data:`DPI_RANGE`.
    """
    fmt = values.get("format", "pdf").lower()
    if fmt not in RENDERERS:
        raise SpecError(f"unknown format '{fmt}' (known: {', '.join(RENDERERS)})")
    page = whole(values.get("page", "1"), "page")
    dpi = whole(values.get("dpi", "150"), "dpi")
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise SpecError(f"--dpi {dpi} is out of range {DPI_RANGE[0]}..{DPI_RANGE[1]}")
    return fmt, page, dpi


def whole(text: str, key: str) -> int:
    """A small whole number typed in a form (at most six digits), or a refusal naming its key."""
    if not text.strip().isdigit() or len(text.strip()) > 6:
        raise SpecError(f"{key}={text[:20]} is not allowed: {key} takes a whole number")
    return int(text)


def sheet_file(spec: SheetSpec, fmt: str, page: int = 1, dpi: int = 150) -> Made:
    """The sheet as a file: the whole PDF, or one page of SVG or PNG.

    The bytes are those ``papergames sheet SPEC -o NAME`` writes; for a sheet of several pages
    an SVG or PNG is the one page the command writes as ``NAME-PAGE``.

    Raises:
        SpecError: for a page the sheet does not have, or a resolution too fine for the paper.
    """
    return _sheet_file(str(spec), fmt, page, dpi)


@lru_cache(maxsize=48)
def _sheet_file(spec_text: str, fmt: str, page: int, dpi: int) -> Made:
    spec = SheetSpec.parse(spec_text)
    with _LOCK:
        sheet = built_sheet(spec)
        pages = len(sheet.pages)
        if not 1 <= page <= pages:
            raise SpecError(f"page {page} is not in the sheet: it has {pages} page(s)")
        buffer = io.BytesIO()
        render(sheet, buffer, format=fmt, page=None if fmt == "pdf" else page, dpi=dpi)
    name = f"{spec.game}-{spec.seed}"
    if fmt != "pdf" and pages > 1:
        name += f"-{page}"
    return Made(buffer.getvalue(), MEDIA_TYPES[fmt], f"{name}.{fmt}", spec_text, pages)


@cache
def thumbnail(game: str) -> bytes:
    """A small PNG of the game's first page with its default parameters and seed 1."""
    spec = SheetSpec.create(game, seed=1)
    return sheet_file(spec, "png", 1, THUMBNAIL_DPI).data


@lru_cache(maxsize=32)
def rules_file(game: str, paper: str) -> Made:
    """The rules page as the PDF ``papergames rules GAME -o NAME.pdf --paper PAPER`` writes.

    Raises:
        SpecError: for an unknown game or paper.
    """
    from papergames.games import get_layout
    from papergames.handouts.rulespage import rules_page
    from papergames.sheets.model import Sheet

    layout = get_layout(game)
    paper = SHEET_PARAMS["paper"].parse(paper)
    with _LOCK:
        page = rules_page(layout.name, paper)
        document = Sheet(SheetSpec.create(layout.name, seed=1, paper=paper), page.title, [page])
        buffer = io.BytesIO()
        render(document, buffer, format="pdf")
    spec_text = str(document.spec)
    return Made(buffer.getvalue(), MEDIA_TYPES["pdf"], f"{layout.name}-rules.pdf", spec_text, 1)
