"""Vector PDF with reportlab: true page size, the bundled font embedded, byte-identical output.

The canvas is turned into page millimetres with y down, so geometry goes in as it is in the
model; text is flipped back upright locally.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from functools import cache
from typing import IO, Any

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from papergames.fonts import font_path
from papergames.output.common import Channels, by_layer, drawn, hatching, ink_of, pages_to_draw
from papergames.sheets.bounds import DOT_RADIUS
from papergames.sheets.geometry import iter_lines, iter_polygons
from papergames.sheets.model import Feature, Kind, Page, Sheet, Style, Text, rgb_of
from papergames.sheets.units import PT_PER_MM
from papergames.version import __version__

FONT_NAMES = {False: "PapergamesSans", True: "PapergamesSans-Bold"}


@cache
def _register_fonts() -> None:
    ttfonts.makeToUnicodeCMap = _to_unicode_cmap
    for bold, name in FONT_NAMES.items():
        pdfmetrics.registerFont(TTFont(name, str(font_path(bold))))


def _utf16_hex(code: int) -> str:
    """A code point as the UTF-16BE hex a ToUnicode CMap maps to: 4 digits, or 8 for a pair.

    Example:
        >>> _utf16_hex(0x41), _utf16_hex(0x1F600)
        ('0041', 'D83DDE00')
    """
    return chr(code).encode("utf-16-be", "surrogatepass").hex().upper()


_reportlab_cmap = ttfonts.makeToUnicodeCMap


def _to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """reportlab's ToUnicode CMap, with characters beyond U+FFFF written as UTF-16 pairs.

    reportlab writes ``<%04X>`` of the code point, which for an emoji or a mathematical letter
    in a player's name is an odd-length hex string (``<1F600>``) that PDF readers misread; the
    text is copied and searched through this map, so it must be UTF-16BE. Fonts whose subset
    stays within U+FFFF get reportlab's own map, byte for byte.
    """
    cmap: str = _reportlab_cmap(fontname, subset)
    for code in subset:
        if code > 0xFFFF:
            cmap = cmap.replace(f"> <{code:04X}>\n", f"> <{_utf16_hex(code)}>\n", 1)
    return cmap


def render(sheet: Sheet, out: IO[bytes], *, page: int | None = None, dpi: int = 150) -> None:
    """Write the sheet (every page, or one) as a PDF to ``out``."""
    _register_fonts()
    pages = pages_to_draw(sheet, page)
    first = pages[0]
    canvas = Canvas(
        out,
        pagesize=(first.width * PT_PER_MM, first.height * PT_PER_MM),
        invariant=1,
        pageCompression=1,
        initialFontName=FONT_NAMES[False],
    )
    canvas.setTitle(f"{sheet.title} ({sheet.spec})")
    canvas.setAuthor("papergames")
    canvas.setSubject(str(sheet.spec))
    canvas.setCreator(f"papergames {__version__}")
    # A page object that recurs (a pack's rules page after every sheet) is drawn once, as a
    # form, and placed on each of its pages: the file stays small and is written faster.
    uses = Counter(id(pg) for pg in pages)
    forms: dict[int, str] = {}
    for pg in pages:
        canvas.setPageSize((pg.width * PT_PER_MM, pg.height * PT_PER_MM))
        if uses[id(pg)] == 1:
            _draw_page(canvas, pg)
        else:
            if id(pg) not in forms:
                forms[id(pg)] = f"page{len(forms) + 1}"
                canvas.beginForm(forms[id(pg)])
                _draw_page(canvas, pg)
                canvas.endForm()
            canvas.doForm(forms[id(pg)])
        canvas.showPage()
    canvas.save()


def _draw_page(canvas: Canvas, pg: Page) -> None:
    canvas.saveState()
    canvas.translate(0, pg.height * PT_PER_MM)
    canvas.scale(PT_PER_MM, -PT_PER_MM)
    canvas.setLineJoin(1)
    for _, items in by_layer(pg):
        for entry in drawn(items):
            if isinstance(entry, Channels):
                for feature in entry.features:
                    _draw_channel(canvas, feature)
            elif isinstance(entry, Text):
                _draw_text(canvas, entry)
            else:
                _draw_feature(canvas, entry)
    canvas.restoreState()


def _draw_channel(canvas: Canvas, feature: Feature) -> None:
    """The white channel down a channelled stroke (see :class:`~papergames.sheets.model.Ink`)."""
    canvas.setLineWidth(ink_of(feature).channel)
    canvas.setDash([])
    canvas.setLineCap(1)
    canvas.setStrokeGray(1)
    _path(canvas, feature.geometry, stroke=True, fill=False)
    canvas.setStrokeGray(0)


def _draw_feature(canvas: Canvas, feature: Feature) -> None:
    ink = ink_of(feature)
    if feature.kind == Kind.POINT:
        if feature.style != Style.NONE:
            x, y = feature.geometry.coords[0]
            canvas.setFillGray(0)
            canvas.circle(x, y, DOT_RADIUS, stroke=0, fill=1)
        return
    if feature.colour is not None:
        # The colour fills the shape first; the style's hatching and outline go over it.
        canvas.setFillColorRGB(*rgb_of(feature.colour))
        _path(canvas, feature.geometry, stroke=False, fill=True)
        canvas.setFillGray(0)
        ink = dataclasses.replace(ink, fill=None)
    if ink.fill is not None:
        canvas.setFillGray(ink.fill)
    for line in hatching(feature):
        _stroke(canvas, line, ink.hatch_width, ())
    if ink.stroke or ink.fill is not None:
        canvas.setLineWidth(ink.stroke)
        canvas.setDash(list(ink.dash) if ink.dash else [])
        canvas.setLineCap(1 if ink.channel else 0)
        if ink.stroke_grey:
            canvas.setStrokeGray(ink.stroke_grey)
        _path(canvas, feature.geometry, stroke=ink.stroke > 0, fill=ink.fill is not None)
        if ink.stroke_grey:
            canvas.setStrokeGray(0)


def _stroke(canvas: Canvas, line: LineString, width: float, dash: tuple[float, ...]) -> None:
    canvas.setLineWidth(width)
    canvas.setDash(list(dash) if dash else [])
    _path(canvas, line, stroke=True, fill=False)


def _path(canvas: Canvas, geom: BaseGeometry, *, stroke: bool, fill: bool) -> None:
    path = canvas.beginPath()
    empty = True
    for poly in iter_polygons(geom):
        for ring in (poly.exterior, *poly.interiors):
            coords = list(ring.coords)[:-1]
            path.moveTo(*coords[0])
            for x, y in coords[1:]:
                path.lineTo(x, y)
            path.close()
            empty = False
    if not isinstance(geom, Polygon | Point):
        for line in iter_lines(geom):
            coords = list(line.coords)
            path.moveTo(*coords[0])
            for x, y in coords[1:]:
                path.lineTo(x, y)
            if line.is_ring:
                path.close()
            empty = False
    if not empty:
        kwargs: dict[str, Any] = {"stroke": int(stroke), "fill": int(fill)}
        if fill:
            kwargs["fillMode"] = FILL_EVEN_ODD
        canvas.drawPath(path, **kwargs)


def _draw_text(canvas: Canvas, text: Text) -> None:
    name = FONT_NAMES[text.bold]
    canvas.saveState()
    canvas.translate(text.x, text.y)
    canvas.scale(1, -1)
    if text.angle:
        canvas.rotate(text.angle)
    canvas.setFillGray(text.grey)
    canvas.setFont(name, text.size)
    if text.anchor == "middle":
        canvas.drawCentredString(0, 0, text.text)
    elif text.anchor == "end":
        canvas.drawRightString(0, 0, text.text)
    else:
        canvas.drawString(0, 0, text.text)
    canvas.restoreState()
