"""SVG 1.1 with svgwrite: physical size in mm, every feature an element carrying its id.

Features are grouped by layer (``<g id="layer-field">``) and, inside a layer, by their group
(``<g id="ring-3">``), so counts can be read straight from the file. Every feature carries a
``<title>`` with its id (and, on a labelled sheet, the name printed on it), which a browser shows
when the pointer rests on it: hovering finds the name a transcript uses. Text uses the bundled
font, embedded as a subset holding only the characters the page uses.
"""

from __future__ import annotations

import base64
import io
import re
from functools import cache
from typing import IO, Any

import svgwrite
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from papergames.fonts import FAMILY, font_bytes
from papergames.output.common import (
    Channels,
    by_layer,
    drawn,
    grey_255,
    hatching,
    ink_of,
    pages_to_draw,
)
from papergames.sheets.bounds import DOT_RADIUS
from papergames.sheets.geometry import iter_lines, iter_polygons
from papergames.sheets.labels import PREFIX as PRINTED
from papergames.sheets.model import Feature, Kind, Page, Sheet, Style, Text

FONT_FAMILY = "PapergamesSans"
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def render(sheet: Sheet, out: IO[bytes], *, page: int | None = None, dpi: int = 150) -> None:
    """Write one page of the sheet (the first unless ``page`` is given) as SVG to ``out``."""
    pg = pages_to_draw(sheet, page if page is not None else 1)[0]
    drawing = svgwrite.Drawing(
        size=(f"{_num(pg.width)}mm", f"{_num(pg.height)}mm"),
        viewBox=f"0 0 {_num(pg.width)} {_num(pg.height)}",
        profile="full",
        debug=False,
    )
    drawing.set_desc(title=clean(sheet.title), desc=clean(str(sheet.spec)))
    style = _font_css(pg)
    if style:
        drawing.defs.add(drawing.style(style))
    drawing.add(drawing.rect((0, 0), (pg.width, pg.height), fill="white", id="paper"))
    printed = {t.id.removeprefix(PRINTED): t.text for t in pg.texts() if t.id.startswith(PRINTED)}
    for layer, items in by_layer(pg):
        layer_group = drawing.g(id=f"layer-{layer.value}")
        groups: dict[str, Any] = {}
        for item in drawn(items):
            if isinstance(item, Channels):
                layer_group.add(_channels(drawing, list(item.features)))
                continue
            if isinstance(item, Text):
                element = _text(drawing, item)
            else:
                element = _feature(drawing, item)
                element.set_desc(title=clean(tooltip(item, printed.get(item.id))))
            if item.group:
                if item.group not in groups:
                    groups[item.group] = drawing.g(id=item.group)
                    layer_group.add(groups[item.group])
                groups[item.group].add(element)
            else:
                layer_group.add(element)
        drawing.add(layer_group)
    text = io.StringIO()
    drawing.write(text, pretty=False)
    out.write(text.getvalue().encode("utf-8"))


def tooltip(feature: Feature, printed: str | None) -> str:
    """A feature's tooltip: its id, and the names printed on it when they differ from the id.

    Example:
        >>> from shapely.geometry import box
        >>> tooltip(Feature("space-17", Kind.SPACE, box(0, 0, 1, 1)), "17")
        'space-17 (printed: 17)'
    """
    names = [n for n in (printed, feature.label) if n and n != feature.id]
    return f"{feature.id} (printed: {', '.join(dict.fromkeys(names))})" if names else feature.id


def clean(text: str) -> str:
    """Drop characters XML 1.0 cannot hold (svgwrite escapes the rest)."""
    return _NOT_XML.sub("", text)


def _num(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _path_data(geom: BaseGeometry) -> str:
    parts: list[str] = []
    for poly in iter_polygons(geom):
        for ring in (poly.exterior, *poly.interiors):
            coords = list(ring.coords)[:-1]
            parts.append("M" + " L".join(f"{_num(x)} {_num(y)}" for x, y in coords) + " Z")
    if not isinstance(geom, Polygon | Point):
        for line in iter_lines(geom):
            coords = list(line.coords)
            closed = line.is_ring
            if closed:
                coords = coords[:-1]
            parts.append(
                "M"
                + " L".join(f"{_num(x)} {_num(y)}" for x, y in coords)
                + (" Z" if closed else "")
            )
    return " ".join(parts)


def _grey(level: float) -> str:
    v = grey_255(level)
    return f"#{v:02x}{v:02x}{v:02x}"


def _feature(drawing: svgwrite.Drawing, feature: Feature) -> Any:
    ink = ink_of(feature)
    attrs: dict[str, Any] = {"id": feature.id, "class_": feature.kind.value}
    if feature.kind == Kind.POINT:
        x, y = feature.geometry.coords[0]
        radius = DOT_RADIUS if feature.style != Style.NONE else 0
        element = drawing.circle((_num(x), _num(y)), radius, fill="black", **attrs)
    else:
        attrs["fill"] = _grey(ink.fill) if ink.fill is not None else "none"
        if feature.colour is not None:
            # The colour fills the shape; the style's hatching and outline stay black over it.
            attrs["fill"] = feature.colour
        if ink.fill is not None or feature.colour is not None:
            attrs["fill_rule"] = "evenodd"
        if ink.stroke:
            attrs["stroke"] = _grey(ink.stroke_grey) if ink.stroke_grey else "black"
            attrs["stroke_width"] = _num(ink.stroke)
            attrs["stroke_linejoin"] = "round"
            if ink.channel:
                attrs["stroke_linecap"] = "round"
            if ink.dash:
                attrs["stroke_dasharray"] = ",".join(_num(d) for d in ink.dash)
        else:
            attrs["stroke"] = "none"
        hatch = hatching(feature)
        if hatch:
            group = drawing.g(id=feature.id, class_=feature.kind.value)
            del attrs["id"], attrs["class_"]
            group.add(drawing.path(d=_path_data(feature.geometry), **attrs))
            lines = " ".join(_path_data(line) for line in hatch)
            group.add(
                drawing.path(
                    d=lines, fill="none", stroke="black", stroke_width=_num(ink.hatch_width)
                )
            )
            element = group
        else:
            element = drawing.path(d=_path_data(feature.geometry), **attrs)
    if feature.label:
        element.attribs["data-label"] = clean(feature.label)
    return element


def _channels(drawing: svgwrite.Drawing, features: list[Feature]) -> Any:
    """One path for the white channels down the layer's channelled strokes (see
    :class:`~papergames.sheets.model.Ink`); it carries no id, being part of the lines it lies on."""
    width = ink_of(features[0]).channel
    return drawing.path(
        d=" ".join(_path_data(f.geometry) for f in features),
        class_="channel",
        fill="none",
        stroke="white",
        stroke_width=_num(width),
        stroke_linecap="round",
        stroke_linejoin="round",
    )


def _text(drawing: svgwrite.Drawing, text: Text) -> Any:
    attrs: dict[str, Any] = {
        "id": text.id,
        "font_size": _num(text.size),
        "font_family": f"{FONT_FAMILY}, '{FAMILY}', sans-serif",
    }
    if text.anchor != "start":
        attrs["text_anchor"] = text.anchor
    if text.bold:
        attrs["font_weight"] = "bold"
    if text.angle:
        attrs["transform"] = f"rotate({_num(-text.angle)} {_num(text.x)} {_num(text.y)})"
    return drawing.text(clean(text.text), insert=(_num(text.x), _num(text.y)), **attrs)


def _font_css(page: Page) -> str:
    rules = []
    for bold in (False, True):
        chars = "".join(sorted({ch for t in page.texts() if t.bold == bold for ch in t.text}))
        if chars:
            data = base64.b64encode(_subset(bold, chars)).decode("ascii")
            weight = "bold" if bold else "normal"
            rules.append(
                f"@font-face{{font-family:{FONT_FAMILY};font-weight:{weight};"
                f"src:url(data:font/ttf;base64,{data}) format('truetype')}}"
            )
    return "".join(rules)


@cache
def _subset(bold: bool, chars: str) -> bytes:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.hinting = False
    options.layout_features = ["kern", "liga"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    options.drop_tables += ["FFTM", "MATH"]
    font = TTFont(io.BytesIO(font_bytes(bold)), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(font)
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()
