"""What every renderer shares: the draw order of a page and how a style turns into ink."""

from __future__ import annotations

from collections.abc import Iterator

from shapely.geometry import LineString

from papergames.geometry import hatch_lines, iter_polygons
from papergames.model import INKS, LAYER_ORDER, Feature, Ink, Item, Layer, Page, Sheet


def pages_to_draw(sheet: Sheet, page: int | None) -> list[Page]:
    """The pages a call draws: all, or the one numbered ``page`` (1-based)."""
    if page is None:
        return list(sheet.pages)
    if not 1 <= page <= len(sheet.pages):
        raise ValueError(f"page {page} does not exist (the sheet has {len(sheet.pages)})")
    return [sheet.pages[page - 1]]


def by_layer(page: Page) -> Iterator[tuple[Layer, list[Item]]]:
    """Items grouped by layer, bottom layer first, keeping insertion order within a layer."""
    for layer in LAYER_ORDER:
        items = [item for item in page.items if item.layer == layer]
        if items:
            yield layer, items


def ink_of(feature: Feature) -> Ink:
    return INKS[feature.style]


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
