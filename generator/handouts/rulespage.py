"""A printable page of a game's rules, with a small diagram drawn from a real sheet.

The text is the layout's own rules (written in our words), set in one column at the largest
size that fits; a paragraph that opens with a short label (``Scoring:``) has the label in bold.
Above it sits a reduced copy of the field of a real sheet of the game (the sheet it is printed
with in a pack or the book, else seed 1), and the caption names that sheet's spec, so a reader
sees what the rules speak of. Rules pages carry no fiducial markers or QR code: they are not
played on. A pack prints them at the size of an n-up cell too, when they fit there.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from shapely import affinity

from papergames.errors import FitError
from papergames.fonts import ASCENT, text_width, wrap_text
from papergames.games import get_layout
from papergames.play import example
from papergames.sheets.compose import MARGIN
from papergames.sheets.model import Feature, Item, Layer, Page, Sheet, Style, Text
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.units import PAPERS

TEXT_SIZES = (3.6, 3.4, 3.2, 3.0, 2.8, 2.6)
"""Em sizes in mm tried for the rules text, largest first; 2.6 mm still reads in a copy."""
DIAGRAM_HEIGHTS = (80.0, 60.0, 45.0)
"""Heights in mm tried for the diagram, largest first, before the text is set smaller."""
LEADING = 1.35
PARAGRAPH_GAP = 0.55
TITLE_SIZE = 6.0
SUB_SIZE = 3.2
CAPTION_SIZE = 2.5
"""The caption's and credit's type size in mm (7.1 pt): the smallest print on a handout."""
TOP = MARGIN + 2.0
_LABEL = re.compile(r"^([A-Z][\w' -]{0,30}?):\s")


def paragraphs(rules: str) -> list[str]:
    """The layout's rules text as paragraphs of single-spaced text."""
    return [" ".join(p.split()) for p in rules.strip().split("\n\n") if p.strip()]


def _diagram_sheet(spec: SheetSpec) -> Sheet:
    """The sheet a diagram shows: ``spec``, or on A4 when it does not fit the rules' paper."""
    try:
        return make_sheet(spec)
    except FitError:
        return make_sheet(dataclasses.replace(spec, paper="a4", orientation="auto"))


def _field_diagram(sheet: Sheet, box: tuple[float, float, float, float]) -> list[Item]:
    """The field of ``sheet``'s first page, reduced to fit ``box`` (x, y, w, h), centred."""
    page = sheet.pages[0]
    features = [
        f for f in page.features() if f.layer in (Layer.FIELD, Layer.TINT) and f.style != Style.NONE
    ]
    if not features:  # a score pad has no field: show its boxes instead
        features = [f for f in page.features() if f.layer == Layer.SCORE and f.style != Style.NONE]
    if not features:
        return []
    minx = min(f.geometry.bounds[0] for f in features)
    miny = min(f.geometry.bounds[1] for f in features)
    maxx = max(f.geometry.bounds[2] for f in features)
    maxy = max(f.geometry.bounds[3] for f in features)
    x, y, w, h = box
    scale = min(w / (maxx - minx), h / (maxy - miny), 0.6)
    dx = x + (w - (maxx - minx) * scale) / 2
    dy = y + (h - (maxy - miny) * scale) / 2
    items: list[Item] = []
    for f in features:
        geometry = affinity.scale(f.geometry, scale, scale, origin=(minx, miny))
        geometry = affinity.translate(geometry, dx - minx, dy - miny)
        items.append(Feature(f"diagram-{f.id}", f.kind, geometry, f.style, f.layer, data={}))
    caption = f"{sheet.title}: the sheet {sheet.spec}, reduced to {scale * 100:.0f} %"
    items.append(Text("diagram-caption", x + w / 2, y + h + 4.0, caption, CAPTION_SIZE, "middle"))
    return items


def _set_text(
    paras: list[str], x: float, top: float, width: float, bottom: float, size: float
) -> list[Item] | None:
    """The paragraphs set at ``size`` from ``top``; ``None`` when they run past ``bottom``."""
    items: list[Item] = []
    baseline = top + ASCENT * size
    spare = text_width("M", size, bold=True) - text_width("M", size)
    k = 0
    for para in paras:
        label_match = _LABEL.match(para)
        label = label_match.group(1) + ":" if label_match else ""
        body_width = width - (spare * len(label) if label else 0.0)
        for n, line in enumerate(wrap_text(para, body_width, size)):
            k += 1
            if n == 0 and label and line.startswith(label):
                items.append(Text(f"rules-{k}a", x, baseline, label, size, bold=True))
                rest = line[len(label) :].lstrip()
                shift = text_width(label + " ", size, bold=True)
                items.append(Text(f"rules-{k}", x + shift, baseline, rest, size))
            else:
                items.append(Text(f"rules-{k}", x, baseline, line, size))
            baseline += LEADING * size
            if baseline > bottom:
                return None
        baseline += PARAGRAPH_GAP * size
    return items


def rules_page(
    game: str,
    paper: str = "a4",
    *,
    seed: int = 1,
    params: Mapping[str, Any] | None = None,
    landscape: bool = False,
    sheet: Sheet | None = None,
) -> Page:
    """The rules of ``game`` as one page of ``paper``, with a diagram of a real sheet.

    Args:
        game: the game's name.
        paper: the page's paper.
        seed, params: the sheet drawn in the diagram (default parameters unless given).
        landscape: a landscape page (the rules behind a 2-up cell), else portrait.
        sheet: the sheet to draw instead (the one the page is printed with).

    Raises:
        FitError: when the rules cannot be set legibly on that paper.
    """
    layout = get_layout(game)
    width, height = PAPERS[paper].size(landscape)
    x, usable = MARGIN, width - 2 * MARGIN
    page = Page(width, height, title=f"{layout.title}: rules", data={"kind": "rules", "game": game})
    title_size = min(TITLE_SIZE, usable / text_width(layout.title, 1.0, bold=True))
    page.add(
        Text("title", width / 2, TOP + TITLE_SIZE, layout.title, title_size, "middle", bold=True)
    )
    by = f"by {layout.author} · " if layout.author else ""
    sub = f"{by}{layout.game.players_text} players · the rules in short"
    page.add(Text("subtitle", width / 2, TOP + TITLE_SIZE + 6.5, sub, SUB_SIZE, "middle"))
    credit = f"papergames · rules of {layout.title}"
    page.add(Text("credit", x, height - MARGIN - 0.6, credit, CAPTION_SIZE, layer=Layer.FURNITURE))
    paras = paragraphs(layout.how_to_play) + example.paragraphs(game)
    top = TOP + TITLE_SIZE + 12.0
    bottom = height - MARGIN - 6.0
    for diagram_h in (*DIAGRAM_HEIGHTS, 0.0):
        text_top = top + (diagram_h + 10.0 if diagram_h else 0.0)
        for size in TEXT_SIZES:
            text = _set_text(paras, x, text_top, usable, bottom, size)
            if text is None:
                continue
            if diagram_h:
                if sheet is None:
                    spec = SheetSpec.create(
                        layout.name,
                        layout.params.non_default(dict(params or {})),
                        seed=seed,
                        paper=paper,
                    )
                    sheet = _diagram_sheet(spec)
                box = (x, top, usable, diagram_h)
                page.extend(example.diagram(game, sheet, box, _field_diagram))
            page.extend(text)
            page.data["text_size"] = size
            return page
    raise FitError(f"the rules of {game} do not fit on {paper} paper at a legible size")
