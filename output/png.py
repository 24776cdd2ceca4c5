"""PNG with Pillow: a white page at a chosen DPI, with the DPI recorded for true-scale printing.

Pillow draws without anti-aliasing, so the page is drawn at twice the size and scaled down.
Dashed lines are cut into pieces here, since Pillow has no dash pattern.
"""

from __future__ import annotations

from functools import cache
from typing import IO

from PIL import Image, ImageDraw, ImageFont
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from papergames.errors import SpecError
from papergames.fonts import font_path
from papergames.output.common import (
    PNG_MAX_PIXELS,
    PNG_SUPERSAMPLE,
    Channels,
    by_layer,
    check_request,
    drawn,
    grey_255,
    hatching,
    ink_of,
)
from papergames.sheets.bounds import DOT_RADIUS
from papergames.sheets.geometry import dash_polyline, iter_lines, iter_polygons
from papergames.sheets.model import Feature, Kind, Page, Sheet, Style, Text, rgb_of
from papergames.sheets.units import MM_PER_INCH

SUPERSAMPLE = PNG_SUPERSAMPLE
MAX_PIXELS = PNG_MAX_PIXELS
JOINED_WIDTH = 4
"""Width in pixels over which a polyline's turns get round joins, as Pillow's ``joint="curve"``
gives them. With ``quick_joins`` each is one disc, a C call, rather than Pillow's wedge worked
out in Python: a Miro sheet's curves turn at some 10,000 points, and the photo reader draws the
page for every photo, in 0.31 s with Pillow's joins at the reading resolution and 0.09 s so.
The files people print keep Pillow's joins, and so does every synthetic photo: they stay byte
for byte as they were."""


def render(sheet: Sheet, out: IO[bytes], *, page: int | None = None, dpi: int = 150) -> None:
    """Write one page of the sheet (the first unless ``page`` is given) as PNG to ``out``.

    Raises:
        SpecError: for a bad page or resolution (:func:`~papergames.output.common.check_request`).
    """
    pg = check_request(sheet, page if page is not None else 1, dpi, "png")[0]
    image = draw_page(pg, dpi)
    image.save(out, format="PNG", dpi=(dpi, dpi), compress_level=6)


def draw_page(
    page: Page,
    dpi: int,
    resample: Image.Resampling = Image.Resampling.LANCZOS,
    *,
    quick_joins: bool = False,
) -> Image.Image:
    """The page as an image at ``dpi``: greyscale, or RGB when a feature has a colour.

    It is drawn at :data:`SUPERSAMPLE` times the size and scaled down with ``resample``:
    Lanczos for files people print and look at; the photo reader, which blurs the page as the
    photo is blurred anyway, takes a box filter, a quarter of the time. The reader also asks for
    ``quick_joins``: each turn of a thick line is rounded by one disc rather than by Pillow's
    wedge (:data:`JOINED_WIDTH`), a few edge pixels apart on a page.
    """
    scale = dpi * SUPERSAMPLE / MM_PER_INCH
    size = (round(page.width * scale), round(page.height * scale))
    if size[0] * size[1] > MAX_PIXELS:
        raise SpecError(f"{dpi} dpi makes an image too large to draw")
    coloured = any(isinstance(item, Feature) and item.colour for item in page.items)
    image = Image.new("RGB", size, (255, 255, 255)) if coloured else Image.new("L", size, 255)
    painter = _Painter(image, scale, quick_joins=quick_joins)
    for _, items in by_layer(page):
        for entry in drawn(items):
            if isinstance(entry, Channels):
                for feature in entry.features:
                    painter.channel(feature)
            elif isinstance(entry, Text):
                painter.text(entry)
            else:
                painter.feature(entry)
    final = (round(page.width * dpi / MM_PER_INCH), round(page.height * dpi / MM_PER_INCH))
    return image.resize(final, resample)


@cache
def _font(bold: bool, size_px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_path(bold)), size_px, layout_engine=ImageFont.Layout.BASIC)


PenInk = int | tuple[int, int, int]


class _Painter:
    def __init__(self, image: Image.Image, scale: float, *, quick_joins: bool = False) -> None:
        self.image = image
        self.quick_joins = quick_joins
        self.draw = ImageDraw.Draw(image)
        self.scale = scale
        self.rgb = image.mode == "RGB"

    def _ink(self, level: int) -> PenInk:
        """A grey level as this image's ink: itself on a grey image, a grey RGB on a colour one."""
        return (level, level, level) if self.rgb else level

    def _xy(self, coords: list[tuple[float, float]]) -> list[tuple[float, float]]:
        s = self.scale
        return [(x * s, y * s) for x, y in coords]

    def _width(self, mm: float) -> int:
        return max(1, round(mm * self.scale))

    def feature(self, feature: Feature) -> None:
        ink = ink_of(feature)
        if feature.kind == Kind.POINT:
            if feature.style != Style.NONE:
                x, y = feature.geometry.coords[0]
                r = DOT_RADIUS * self.scale
                cx, cy = x * self.scale, y * self.scale
                self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=self._ink(0))
            return
        if feature.colour is not None:
            # The colour fills the shape; the style's hatching and outline stay black over it.
            r, g, b = (round(255 * c) for c in rgb_of(feature.colour))
            self._fill(feature.geometry, (r, g, b))
        elif ink.fill is not None:
            self._fill(feature.geometry, self._ink(grey_255(ink.fill)))
        for line in hatching(feature):
            self._line(list(line.coords), ink.hatch_width, ())
        if ink.stroke:
            level = grey_255(ink.stroke_grey)
            for coords in _outlines(feature.geometry):
                self._line(coords, ink.stroke, ink.dash, level, round_ends=ink.channel > 0)

    def channel(self, feature: Feature) -> None:
        """The white channel down a channelled stroke (see
        :class:`~papergames.sheets.model.Ink`)."""
        width = ink_of(feature).channel
        for coords in _outlines(feature.geometry):
            self._line(coords, width, (), 255, round_ends=True)

    def _fill(self, geom: BaseGeometry, level: PenInk) -> None:
        for poly in iter_polygons(geom):
            if not poly.interiors:
                self.draw.polygon(self._xy(list(poly.exterior.coords)), fill=level)
                continue
            mask = Image.new("1", self.image.size, 0)
            pen = ImageDraw.Draw(mask)
            pen.polygon(self._xy(list(poly.exterior.coords)), fill=1)
            for hole in poly.interiors:
                pen.polygon(self._xy(list(hole.coords)), fill=0)
            self.image.paste(level, mask=mask)

    def _line(
        self,
        coords: list[tuple[float, float]],
        width_mm: float,
        dash: tuple[float, ...],
        level: int = 0,
        *,
        round_ends: bool = False,
    ) -> None:
        width = self._width(width_mm)
        pieces = dash_polyline(coords, dash) if dash else [coords]
        for piece in pieces:
            if len(piece) >= 2:
                points = self._xy(piece)
                ink = self._ink(level)
                if self.quick_joins:
                    self.draw.line(points, fill=ink, width=width)
                    r = width / 2 - 1
                    for x, y in _turns(points) if width > JOINED_WIDTH else []:
                        self.draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)
                else:
                    self.draw.line(points, fill=ink, width=width, joint="curve")
                if round_ends:
                    r = width / 2
                    for x, y in (points[0], points[-1]):
                        self.draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)

    def text(self, text: Text) -> None:
        size_px = max(1, round(text.size * self.scale))
        font = _font(text.bold, size_px)
        anchor = {"start": "ls", "middle": "ms", "end": "rs"}.get(text.anchor, "ls")
        x, y = text.x * self.scale, text.y * self.scale
        if not text.angle:
            ink = self._ink(grey_255(text.grey))
            self.draw.text((x, y), text.text, fill=ink, font=font, anchor=anchor)
            return
        # Draw on a square tile centred on the anchor, turn it about its centre, paste it back.
        half = round(font.getlength(text.text) + size_px) + 2
        tile = Image.new("L", (2 * half, 2 * half), 0)
        ImageDraw.Draw(tile).text((half, half), text.text, fill=255, font=font, anchor=anchor)
        tile = tile.rotate(text.angle, resample=Image.Resampling.BICUBIC)
        self.image.paste(
            self._ink(grey_255(text.grey)), (round(x) - half, round(y) - half), mask=tile
        )


def _outlines(geom: BaseGeometry) -> list[list[tuple[float, float]]]:
    out: list[list[tuple[float, float]]] = []
    for poly in iter_polygons(geom):
        for ring in (poly.exterior, *poly.interiors):
            out.append(list(ring.coords))
    if not isinstance(geom, Polygon | Point):
        out.extend(list(line.coords) for line in iter_lines(geom))
    return out


def _turns(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The inner points of a polyline where it changes direction, and of a closed one its
    start: each needs a round join, a disc as wide as the line less a pixel, to close the notch
    that two flat-ended strokes leave on the outside of the turn."""
    turns = [
        (bx, by)
        for (ax, ay), (bx, by), (cx, cy) in zip(points, points[1:], points[2:], strict=False)
        if (bx - ax) * (cy - by) != (by - ay) * (cx - bx)
        or (bx - ax) * (cx - bx) + (by - ay) * (cy - by) < 0
    ]
    if len(points) > 2 and points[0] == points[-1]:
        turns.append(points[0])
    return turns
