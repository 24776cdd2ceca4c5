"""Page furniture: margins, the frame the layout fills, corner markers, header and footer.

Every page has the same frame around its content: four ArUco corner markers (one id per corner,
so the photo reader knows which corner it sees and which way up the sheet is), a title at the
top, and a footer with the sheet's spec as text and as a QR code, a 5 cm scale bar and the
project's name. On full-size paper the QR code sits in the middle of the bottom edge, away from
the corners that curl and the edges that fingers hold, with modules of 0.8 mm or more:

    +--[M]------------ title ------------[M]--+
    |                                         |
    |              content frame              |
    |                                         |
    +--[M]-- spec, credit --[QR]-- scale --[M]+

Narrow pages (A5 portrait, the cells of n-up pages) keep the QR code beside the bottom-right
marker, with the scale bar and the spec text to its left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from shapely.geometry import MultiPolygon, Polygon, box

from papergames.errors import FitError
from papergames.fonts import ASCENT, text_width, wrap_text
from papergames.sheets.aruco import marker_feature
from papergames.sheets.model import Feature, Item, Kind, Layer, Style, Text

if TYPE_CHECKING:
    import segno

MARGIN = 12.0
"""Distance in mm from the paper's edge that no ink crosses (printers need at least 10)."""
MARKER = 12.0
"""Side in mm of a corner marker on full-size paper: 2 mm cells, which a phone photo of the
whole sheet resolves."""
GAP = 3.0
"""Clear space in mm around markers and between the frame and the header and footer."""
QR_SIZE = 23.5
"""Side in mm of the QR code on full-size paper: modules of 0.8 mm or more for specs of up to 53
characters (version 3), smaller ones for longer specs. It has no quiet zone of its own: the
footer's gaps and the margin keep 3 mm or more of white around it."""
QR_MARGIN = 10.5
"""Distance in mm of the QR code from the paper's bottom edge: nearer than other ink, so the
content frame stays as tall as it was before the code grew (printers need 10 mm; the half
millimetre keeps a rendered pixel off the 10 mm band)."""
QR_MODULE = 0.8
"""Smallest QR module in mm that a phone reads from an angled photo at arm's length."""
SCALE_BAR = 50.0
SMALL_PAGE = 120.0
"""Pages narrower than this (A6 and quarter letter, the cells of 4-up pages) get smaller
markers, QR code and scale bar, so there is still room to play on them."""
SIDE_BLOCK = 56.0
"""Width in mm the footer needs on each side of a centred QR code (the scale bar and label)."""
SMALL_TEXT = 2.5
"""Type size in mm of the footer's small print (7.1 pt): the least a player has to read."""


@dataclass(frozen=True)
class FurnitureSize:
    """The sizes in mm of a page's furniture and where its QR code goes.

    Attributes:
        marker: side of a corner marker.
        qr: side of the QR code's square.
        gap: clear space around markers and bands.
        scale: length of the scale bar.
        qr_centred: the QR code sits in the middle of the footer (else beside the bottom-right
            marker).
        title: type size of the page title.
    """

    marker: float
    qr: float
    gap: float
    scale: float
    qr_centred: bool
    title: float = 6.0

    @property
    def footer(self) -> float:
        """Height of the footer band above the bottom margin: a marker or the QR code."""
        return max(self.marker, QR_MARGIN + self.qr - MARGIN)


def furniture_size(width: float, height: float) -> FurnitureSize:
    """Full-size furniture on ordinary paper, smaller on the cells of n-up pages.

    Example:
        >>> furniture_size(210.0, 297.0).qr_centred, furniture_size(148.0, 210.0).qr_centred
        (True, False)
    """
    if min(width, height) < SMALL_PAGE:
        return FurnitureSize(12.0, 12.0, 2.5, 30.0, False, 3.75)
    side = (width - QR_SIZE) / 2 - MARGIN - MARKER - 2 * GAP
    return FurnitureSize(MARKER, QR_SIZE, GAP, SCALE_BAR, side >= SIDE_BLOCK)


@dataclass(frozen=True)
class Frame:
    """A rectangle on the page, in mm."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def box(self) -> tuple[float, float, float, float]:
        return self.x, self.y, self.right, self.bottom

    def inset(self, dx: float, dy: float | None = None) -> Frame:
        dy = dx if dy is None else dy
        return Frame(self.x + dx, self.y + dy, self.w - 2 * dx, self.h - 2 * dy)


def content_frame(width: float, height: float) -> Frame:
    """The area a layout may fill: the page less margins, header and footer bands."""
    size = furniture_size(width, height)
    top = MARGIN + size.marker + size.gap
    bottom = MARGIN + size.footer + size.gap
    return Frame(MARGIN, top, width - 2 * MARGIN, height - top - bottom)


def marker_boxes(width: float, height: float) -> dict[str, tuple[float, float, float, float]]:
    """The four fiducial squares, with the clear gap around them, by corner name."""
    m, s = MARGIN, furniture_size(width, height).marker
    corners = {
        "tl": (m, m),
        "tr": (width - m - s, m),
        "bl": (m, height - m - s),
        "br": (width - m - s, height - m - s),
    }
    return {k: (x, y, x + s, y + s) for k, (x, y) in corners.items()}


def _strongest_smallest(text: str) -> segno.QRCode:
    """The code of ``text`` at the smallest version, with the strongest correction that keeps it.

    Level L always needs the fewest modules, so its version is the smallest; Q, then M, is
    tried at that version, which fails at once when the data does not fit. One full encoding
    (the mask search is the costly part) instead of one per level.
    """
    import segno  # on first use: many paths place furniture and never draw a code

    smallest = segno.make(text, error="l", boost_error=False, micro=False)
    for level in "qm":
        try:
            return segno.make(
                text, error=level, version=smallest.version, boost_error=False, micro=False
            )
        except segno.DataOverflowError:
            continue
    return smallest


def qr_feature(text: str, x: float, y: float, size: float = QR_SIZE) -> Feature:
    """The spec as a QR code, drawn as black runs of modules filling a ``size`` mm square.

    The error correction is the strongest that keeps the smallest version (Q, else M, else L),
    so short specs get both large modules and more correction; the square around the code is
    kept white by the footer's gaps and the margin, which serve as its quiet zone.

    Example:
        >>> qr = qr_feature("rings seed=42", 0.0, 0.0)
        >>> qr.data["module_mm"] >= QR_MODULE
        True
    """
    quiet = 0
    qr = _strongest_smallest(text)
    matrix = qr.matrix
    n = len(matrix)
    module = size / (n + 2 * quiet)
    if module < 0.3:
        raise FitError(f"the sheet spec is too long for a legible QR code: {text!r}")
    rects: list[Polygon] = []
    for row, bits in enumerate(matrix):
        col = 0
        while col < n:
            if bits[col]:
                start = col
                while col < n and bits[col]:
                    col += 1
                x0 = x + (quiet + start) * module
                y0 = y + (quiet + row) * module
                rects.append(box(x0, y0, x0 + (col - start) * module, y0 + module))
            else:
                col += 1
    data = {"text": text, "module_mm": module}
    return Feature(
        "qr-spec", Kind.MARK, MultiPolygon(rects), Style.SOLID, Layer.FURNITURE, data=data
    )


def scale_bar(
    x: float, y: float, length: float = SCALE_BAR, *, label_above: bool = False
) -> list[Item]:
    """A bar of alternating 1 cm cells (5 cm, or 3 cm on small pages): a shrunk print shows."""
    height = 1.6
    cells = round(length / 10)
    solid = [box(x + k * 10, y, x + k * 10 + 10, y + height) for k in range(0, cells, 2)]
    label = f"{cells} cm"
    if label_above:
        label_at = (x, y - 1.0)
        label += " at 100 %: measure to check the print"
    else:
        label_at = (x + length + 2, y + height)
    items: list[Item] = [
        Feature(
            "scale-bar",
            Kind.MARK,
            box(x, y, x + length, y + height),
            Style.BOX,
            Layer.FURNITURE,
            data={"length_mm": length},
        ),
        Feature("scale-bar-fill", Kind.MARK, MultiPolygon(solid), Style.SOLID, Layer.FURNITURE),
        Text("scale-label", *label_at, label, SMALL_TEXT, layer=Layer.FURNITURE),
    ]
    return items


def fit_text_lines(
    text: str, width: float, sizes: tuple[float, float], most: int = 2
) -> tuple[list[str], float]:
    """Set ``text`` in one line at the largest size that fits, or in up to ``most`` lines at the
    smallest, which is never below the 7 pt a player must be able to read.

    Example:
        >>> fit_text_lines("rings seed=42", 60.0, (2.8, 2.5))
        (['rings seed=42'], 2.8)
        >>> spec = "spaghetti size=5 seed=7 paper=a6 orientation=portrait"
        >>> fit_text_lines(spec, 38.0, (2.8, 2.5), 3)[0]
        ['spaghetti size=5 seed=7', 'paper=a6', 'orientation=portrait']
    """
    big, small = sizes
    for size in (big, (big + small) / 2, small):
        if text_width(text, size) <= width:
            return [text], size
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", small) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) <= most and all(text_width(line, small) <= width for line in lines):
        return lines, small
    raise FitError(f"the footer text does not fit in {width:.0f} mm: {text!r}")


def spec_lines(text: str, width: float, size: float) -> list[str]:
    """A spec set in lines of ``width`` mm, broken at spaces and after the commas of a list.

    A named sheet's spec holds its names as one word (``names=Mia+Rose,Leo,...``) too long for
    a line; it breaks after a comma, so each name stays whole and typing the lines back one
    after another, without the line breaks, gives the spec again.

    Example:
        >>> spec_lines("maze seed=1 names=Ann+Lee,Bob,Cyd", 25.0, 2.5)
        ['maze seed=1', 'names=Ann+Lee,', 'Bob,Cyd']
    """
    atoms: list[tuple[str, str]] = []
    for word in text.split():
        pieces = word.split(",")
        for k, piece in enumerate(pieces):
            last = k == len(pieces) - 1
            atoms.append((piece + ("" if last else ","), " " if last else ""))
    lines: list[str] = []
    current, joiner = "", ""
    for atom, after in atoms:
        trial = current + joiner + atom if current else atom
        if current and text_width(trial, size) > width:
            lines.append(current)
            current = atom
        else:
            current = trial
        joiner = after
    if current:
        lines.append(current)
    return lines


def _named_spec(text: str, left: float, width: float, top: float, bottom: float) -> list[Item]:
    """A spec too long for the footer's three lines (a named sheet's): set from the footer's top.

    The QR code makes the footer band taller than its text needs, so the long spec fills that
    band at 7.1 pt, in place of the credit line.

    Raises:
        FitError: when even that band cannot hold it (a small cell of an n-up page).
    """
    lines = spec_lines(text, width, SMALL_TEXT)
    pitch = 1.2 * SMALL_TEXT
    first = top + 1.0 + ASCENT * SMALL_TEXT
    if first + (len(lines) - 1) * pitch > bottom - 0.6 or any(
        text_width(line, SMALL_TEXT) > width for line in lines
    ):
        raise FitError(f"the sheet spec is too long for this paper's footer: {text!r}")
    return [
        Text(f"spec-{k + 1}", left, first + k * pitch, line, SMALL_TEXT, layer=Layer.FURNITURE)
        for k, line in enumerate(lines)
    ]


def furniture(
    width: float,
    height: float,
    *,
    spec_text: str,
    title: str,
    subtitle: str,
    page_no: int,
    pages: int,
    markers: bool = True,
    colour_note: bool = False,
) -> list[Item]:
    """Everything every page carries besides the layout's content.

    ``colour_note`` adds, where the footer has room, a line telling players that their colour
    boxes are where the photo reader learns each pencil.
    """
    items: list[Item] = []
    size = furniture_size(width, height)
    if markers:
        for corner, (x, y, _, _) in marker_boxes(width, height).items():
            items.append(marker_feature(corner, x, y, size.marker))
    items += header(width, size, title, subtitle)
    items += footer(width, height, size, spec_text, title, page_no, pages)
    if colour_note and size.qr_centred:
        items += colour_box_note(width, height, size)
    return items


COLOUR_NOTE = "Colour boxes: fill yours in fully. The photo reader learns each pencil from them."
NOTE_SIZE = SMALL_TEXT


def colour_box_note(width: float, height: float, size: FurnitureSize) -> list[Item]:
    """The colour-box note, above the scale bar to the right of a centred QR code."""
    x = (width + size.qr) / 2 + size.gap
    room = width - MARGIN - size.marker - size.gap - x
    lines = wrap_text(COLOUR_NOTE, room, NOTE_SIZE)
    y = height - MARGIN - size.marker - 0.5
    items: list[Item] = []
    for k, line in enumerate(lines[:2], start=1):
        items.append(Text(f"note-colour-{k}", x, y, line, NOTE_SIZE, layer=Layer.FURNITURE))
        y += NOTE_SIZE * 1.25
    return items


def header(width: float, size: FurnitureSize, title: str, subtitle: str) -> list[Item]:
    """The title, and the subtitle under it, centred between the top markers.

    Neither is set under 7 pt: one too long for a line at that size (on the small cells of
    n-up pages) takes two lines, set closer.
    """
    left = MARGIN + size.marker + size.gap
    span = width - 2 * left
    mid = width / 2
    title_size = min(size.title, span / max(text_width(title, 1.0, bold=True), 1e-9))
    title_y = MARGIN + 0.44 * size.marker
    titles = [title]
    if title_size < SMALL_TEXT and len(wrap_text(title, span, SMALL_TEXT, bold=True)) == 2:
        titles, title_size = wrap_text(title, span, SMALL_TEXT, bold=True), SMALL_TEXT
        title_y = MARGIN + ASCENT * SMALL_TEXT
    items: list[Item] = []
    for k, line in enumerate(titles):
        ident = "title" if k == 0 else "title-2"
        items.append(Text(ident, mid, title_y, line, title_size, "middle", bold=True))
        title_y += 1.2 * title_size if k + 1 < len(titles) else 0.0
    if subtitle:
        fit = span / max(text_width(subtitle, 1.0), 1e-9)
        sub_size = min(max(0.57 * size.title, SMALL_TEXT), fit)
        lines = wrap_text(subtitle, span, SMALL_TEXT) if sub_size < SMALL_TEXT else [subtitle]
        if len(lines) == 1:
            items.append(
                Text("subtitle", mid, MARGIN + 0.84 * size.marker, subtitle, sub_size, "middle")
            )
        elif len(lines) == 2:
            y = title_y + 0.24 * title_size + 0.3 + ASCENT * SMALL_TEXT
            for k, line in enumerate(lines):
                ident = "subtitle" if k == 0 else "subtitle-2"
                items.append(Text(ident, mid, y, line, SMALL_TEXT, "middle"))
                y += 1.2 * SMALL_TEXT
        else:
            items.append(
                Text("subtitle", mid, MARGIN + 0.84 * size.marker, subtitle, fit, "middle")
            )
    return items


def footer(
    width: float,
    height: float,
    size: FurnitureSize,
    spec_text: str,
    title: str,
    page_no: int,
    pages: int,
) -> list[Item]:
    """The QR code, the spec as text, the scale bar and the credit line."""
    left = MARGIN + size.marker + size.gap
    right = width - MARGIN - size.marker - size.gap
    bottom = height - MARGIN
    foot = bottom - size.footer
    items: list[Item] = []
    if size.qr_centred:
        qr_x = (width - size.qr) / 2
        text_right = qr_x - size.gap
        bar_x = qr_x + size.qr + size.gap
        items += scale_bar(bar_x, bottom - 1.6 - 0.6, size.scale, label_above=True)
        spec_y = bottom - size.marker + 2.8
    else:
        qr_x = right - size.qr
        text_right = qr_x - size.gap
        items += scale_bar(left, foot + 0.6, size.scale)
        spec_y = foot + (6.8 if size.footer > size.marker else 5.6)
    items.append(qr_feature(spec_text, qr_x, height - QR_MARGIN - size.qr, size.qr))
    text_width_mm = text_right - left
    # A long spec takes a third line, set closer, in place of the credit line (a tall footer
    # keeps both). One too long even for that is set smaller rather than refused: the QR code
    # beside it holds the same text.
    try:
        lines, text_size = fit_text_lines(spec_text, text_width_mm, (2.8, SMALL_TEXT), 3)
    except FitError:
        named = any(word.startswith("names=") for word in spec_text.split())
        if named and size.qr_centred:
            return items + _named_spec(spec_text, left, text_width_mm, foot, bottom)
        lines, text_size = fit_text_lines(spec_text, text_width_mm, (SMALL_TEXT, 1.8), 3)
    small_page = not size.qr_centred and size.footer <= size.marker
    pitch = text_size * (1.2 if len(lines) > 2 else 1.25)
    y = foot + 4.7 if len(lines) > 2 and small_page else spec_y
    for k, line in enumerate(lines):
        items.append(Text(f"spec-{k + 1}", left, y, line, text_size, layer=Layer.FURNITURE))
        y += pitch
    tall = not size.qr_centred and size.footer > size.marker
    credit = f"papergames · {title}" + (f" · page {page_no} of {pages}" if pages > 1 else "")
    if text_width(credit, SMALL_TEXT) > text_width_mm:
        credit = "papergames" + (f" · page {page_no} of {pages}" if pages > 1 else "")
    if (len(lines) <= 2 or tall) and text_width(credit, SMALL_TEXT) <= text_width_mm:
        items.append(Text("credit", left, bottom - 0.6, credit, SMALL_TEXT, layer=Layer.FURNITURE))
    return items
