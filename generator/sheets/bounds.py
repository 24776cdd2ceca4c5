"""Where ink lands: the bounding box of each feature and text, strokes and glyphs included.

Used to check that everything lies inside the printable area and that the fiducial corners stay
free of ink.
"""

from __future__ import annotations

import math

from papergames.fonts import ASCENT, DESCENT, text_width
from papergames.sheets.model import INKS, Feature, Item, Kind, Text

Box = tuple[float, float, float, float]

DOT_RADIUS = 0.6
"""Radius in mm of the dot drawn for a visible point feature."""


def text_box(text: Text) -> Box:
    """The box a line of text covers on the page, turned by its angle."""
    width = text_width(text.text, text.size, text.bold)
    shift = {"start": 0.0, "middle": -width / 2, "end": -width}.get(text.anchor, 0.0)
    x0, x1 = shift, shift + width
    y0, y1 = -ASCENT * text.size, DESCENT * text.size
    a = math.radians(text.angle)
    c, s = math.cos(a), math.sin(a)
    # y grows down on the page, so a counter-clockwise turn as seen is (c, s) / (-s, c) flipped.
    xs, ys = [], []
    for px, py in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        xs.append(text.x + px * c + py * s)
        ys.append(text.y - px * s + py * c)
    return min(xs), min(ys), max(xs), max(ys)


def item_box(item: Item) -> Box | None:
    """The inked box of an item, or ``None`` when it leaves no ink."""
    if isinstance(item, Text):
        return text_box(item) if item.text else None
    return feature_box(item)


def feature_box(feature: Feature) -> Box | None:
    ink = INKS[feature.style]
    if feature.kind == Kind.POINT and feature.style.value != "none":
        x, y = feature.geometry.coords[0]
        return x - DOT_RADIUS, y - DOT_RADIUS, x + DOT_RADIUS, y + DOT_RADIUS
    if ink.stroke == 0 and ink.fill is None and not ink.hatch:
        return None
    minx, miny, maxx, maxy = feature.geometry.bounds
    pad = ink.stroke / 2
    return minx - pad, miny - pad, maxx + pad, maxy + pad


def union_box(boxes: list[Box]) -> Box | None:
    if not boxes:
        return None
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def inside(inner: Box, outer: Box, slack: float = 1e-6) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
