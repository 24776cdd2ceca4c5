"""What every renderer shares: the draw order of a page and how a style turns into ink."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from shapely.geometry import LineString

from papergames.errors import SpecError
from papergames.sheets.geometry import hatch_lines, iter_polygons
from papergames.sheets.model import INKS, LAYER_ORDER, Feature, Ink, Item, Layer, Page, Sheet
from papergames.sheets.units import MM_PER_INCH

DPI_RANGE = (30, 1200)
"""The resolutions a PNG may be asked for, wherever the request comes from (the command line's
``--dpi``, :func:`papergames.output.render`); a large page lowers the top (:func:`max_dpi`)."""

PNG_SUPERSAMPLE = 2
"""Pillow draws without anti-aliasing, so a PNG page is drawn this many times larger, then
scaled down."""

PNG_MAX_PIXELS = 120_000_000
"""Most pixels a PNG page is drawn with (before scaling down): about 120 MB of memory."""


def max_dpi(width: float, height: float) -> int:
    """The highest resolution at which a page of ``width`` x ``height`` mm can be drawn as PNG.

    Example:
        >>> max_dpi(210, 297)  # A4
        557
    """
    side = math.sqrt(PNG_MAX_PIXELS / (width * height)) / PNG_SUPERSAMPLE
    return min(DPI_RANGE[1], math.floor(side * MM_PER_INCH))


def check_request(sheet: Sheet, page: int | None, dpi: int, format: str) -> list[Page]:
    """The pages a render call draws, once its arguments are known to be sound.

    This is the renderers' one gate: the library's callers reach it with any values, so the
    types are checked as well as the ranges.

    Raises:
        SpecError: for something that is not a sheet, a sheet with no pages, a page that does
            not exist, or a resolution that is not a whole number in range for the page size.
    """
    if not isinstance(sheet, Sheet):
        raise SpecError(f"only a Sheet can be rendered, not {type(sheet).__name__}")
    if not sheet.pages:
        raise SpecError("the sheet has no pages to render")
    if isinstance(dpi, bool) or not isinstance(dpi, int):
        raise SpecError(f"dpi is a whole number from {DPI_RANGE[0]} to {DPI_RANGE[1]}")
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise SpecError(f"dpi {dpi} is out of range {DPI_RANGE[0]}..{DPI_RANGE[1]}")
    pages = pages_to_draw(sheet, page)
    if format == "png":
        top = min(max_dpi(pg.width, pg.height) for pg in pages)
        if dpi > top:
            raise SpecError(
                f"dpi {dpi} is too high for this paper as PNG: at most {top} (a larger image "
                "would need too much memory); use PDF or SVG for a sharper print"
            )
    return pages


def pages_to_draw(sheet: Sheet, page: int | None) -> list[Page]:
    """The pages a call draws: all, or the one numbered ``page`` (1-based).

    Raises:
        SpecError: when ``page`` is not a whole number naming one of the sheet's pages.
    """
    if page is None:
        return list(sheet.pages)
    if isinstance(page, bool) or not isinstance(page, int):
        raise SpecError(f"a page is given by its number, not {type(page).__name__}")
    if not 1 <= page <= len(sheet.pages):
        raise SpecError(f"page {page} does not exist (the sheet has {len(sheet.pages)})")
    return [sheet.pages[page - 1]]


def by_layer(page: Page) -> Iterator[tuple[Layer, list[Item]]]:
    """Items grouped by layer, bottom layer first, keeping insertion order within a layer."""
    for layer in LAYER_ORDER:
        items = [item for item in page.items if item.layer == layer]
        if items:
            yield layer, items


def ink_of(feature: Feature) -> Ink:
    return INKS[feature.style]


@dataclass(frozen=True)
class Channels:
    """The white channels down a layer's channelled strokes (see
    :class:`~papergames.sheets.model.Ink`), drawn all at once: where two such lines meet, the rules
    of one must not cross the other's channel."""

    features: tuple[Feature, ...]


def drawn(items: list[Item]) -> Iterator[Item | Channels]:
    """A layer's items in drawing order, with its :class:`Channels` right after the last
    channelled stroke, so that what a layout draws over the lines (a rules page's example moves)
    stays over them.

    Example:
        >>> from shapely.geometry import LineString
        >>> from papergames.sheets.model import Kind, Style
        >>> line = Feature("segment-1", Kind.SEGMENT, LineString([(0, 0), (9, 0)]), Style.TRACE)
        >>> move = Feature("move-1", Kind.SEGMENT, LineString([(0, 0), (9, 0)]), Style.HEAVY)
        >>> [type(entry).__name__ for entry in drawn([line, move])]
        ['Feature', 'Channels', 'Feature']
    """
    channelled = [item for item in items if isinstance(item, Feature) and ink_of(item).channel > 0]
    last = channelled[-1] if channelled else None
    for item in items:
        yield item
        if item is last:
            yield Channels(tuple(channelled))


def hatching(feature: Feature) -> list[LineString]:
    """The hatch lines a feature's style asks for, clipped to its polygons."""
    ink = ink_of(feature)
    lines: list[LineString] = []
    for angle in ink.hatch:
        for poly in iter_polygons(feature.geometry):
            lines.extend(hatch_lines(poly, angle, ink.hatch_step))
    return lines


def grey_255(level: float) -> int:
    return round(255 * level)
