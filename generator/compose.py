"""Page furniture: margins, the frame the layout fills, fiducial corners, header and footer.

Every page has the same frame around its content: four fiducial markers in the corners (kept
free for the photo reader), a title at the top, and a footer with a 5 cm scale bar, the sheet's
spec as text and as a QR code, and the project's name.

    +--[M]---- title -----------[M]--+
    |                                |
    |        content frame           |
    |                                |
    +--[M]-- scale, spec ---[QR][M]--+
"""

from __future__ import annotations

from dataclasses import dataclass

import segno
from shapely.geometry import MultiPolygon, Polygon, box

from papergames.errors import FitError
from papergames.fonts import text_width
from papergames.model import Feature, Item, Kind, Layer, Style, Text

MARGIN = 12.0
"""Distance in mm from the paper's edge that no ink crosses (printers need at least 10)."""
MARKER = 16.0
"""Side in mm of a fiducial marker square."""
GAP = 4.0
"""Clear space in mm around markers and between the frame and the header and footer."""
QR_SIZE = 16.0
SCALE_BAR = 50.0


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
    top = MARGIN + MARKER + GAP
    return Frame(MARGIN, top, width - 2 * MARGIN, height - 2 * top)


def marker_boxes(width: float, height: float) -> dict[str, tuple[float, float, float, float]]:
    """The four fiducial squares, with the clear gap around them, by corner name."""
    m, s = MARGIN, MARKER
    corners = {
        "tl": (m, m),
        "tr": (width - m - s, m),
        "bl": (m, height - m - s),
        "br": (width - m - s, height - m - s),
    }
    return {k: (x, y, x + s, y + s) for k, (x, y) in corners.items()}


def fiducial(corner: str, x: float, y: float) -> Feature:
    """A concentric square marker: black frame, white ring, black centre."""
    s = MARKER
    outer = box(x, y, x + s, y + s).difference(box(x + 3, y + 3, x + s - 3, y + s - 3))
    centre = box(x + 5.5, y + 5.5, x + s - 5.5, y + s - 5.5)
    geom = MultiPolygon([outer, centre])
    return Feature(f"marker-{corner}", Kind.MARK, geom, Style.SOLID, Layer.FURNITURE)


def qr_feature(text: str, x: float, y: float, size: float = QR_SIZE) -> Feature:
    """The spec as a QR code, drawn as black runs of modules inside a ``size`` mm square."""
    qr = segno.make(text, error="m", micro=False)
    matrix = qr.matrix
    n = len(matrix)
    quiet = 2
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
    return Feature(
        "qr-spec", Kind.MARK, MultiPolygon(rects), Style.SOLID, Layer.FURNITURE, data={"text": text}
    )


def scale_bar(x: float, y: float) -> list[Item]:
    """A 5 cm bar of alternating 1 cm cells, so a shrunk print is noticed."""
    height = 1.6
    solid = [box(x + k * 10, y, x + k * 10 + 10, y + height) for k in range(0, 5, 2)]
    items: list[Item] = [
        Feature(
            "scale-bar",
            Kind.MARK,
            box(x, y, x + SCALE_BAR, y + height),
            Style.BOX,
            Layer.FURNITURE,
            data={"length_mm": SCALE_BAR},
        ),
        Feature("scale-bar-fill", Kind.MARK, MultiPolygon(solid), Style.SOLID, Layer.FURNITURE),
        Text("scale-label", x + SCALE_BAR + 2, y + height, "5 cm", 2.4, layer=Layer.FURNITURE),
    ]
    return items


def fit_text_lines(text: str, width: float, sizes: tuple[float, float]) -> tuple[list[str], float]:
    """Set ``text`` in one line at the largest size that fits, or two lines at the smallest."""
    big, small = sizes
    for size in (big, (big + small) / 2, small):
        if text_width(text, size) <= width:
            return [text], size
    words = text.split()
    for cut in range(len(words) - 1, 0, -1):
        first, second = " ".join(words[:cut]), " ".join(words[cut:])
        if text_width(first, small) <= width and text_width(second, small) <= width:
            return [first, second], small
    raise FitError(f"the footer text does not fit in {width:.0f} mm: {text!r}")


def furniture(
    width: float,
    height: float,
    *,
    spec_text: str,
    title: str,
    subtitle: str,
    page_no: int,
    pages: int,
) -> list[Item]:
    """Everything every page carries besides the layout's content."""
    items: list[Item] = []
    markers = marker_boxes(width, height)
    for corner, (x, y, _, _) in markers.items():
        items.append(fiducial(corner, x, y))

    left = MARGIN + MARKER + GAP
    right = width - MARGIN - MARKER - GAP
    mid = width / 2
    span = right - left
    title_size = min(6.0, span / max(text_width(title, 1.0, bold=True), 1e-9))
    items.append(Text("title", mid, MARGIN + 7.0, title, title_size, "middle", bold=True))
    if subtitle:
        sub_size = min(3.4, span / max(text_width(subtitle, 1.0), 1e-9))
        items.append(Text("subtitle", mid, MARGIN + 13.5, subtitle, sub_size, "middle"))

    foot = height - MARGIN - MARKER
    qr_x = right - QR_SIZE
    items.append(qr_feature(spec_text, qr_x, foot))
    items.extend(scale_bar(left, foot + 0.6))
    text_width_mm = qr_x - GAP - left
    lines, size = fit_text_lines(spec_text, text_width_mm, (2.8, 1.8))
    y = foot + 6.8
    for k, line in enumerate(lines):
        items.append(Text(f"spec-{k + 1}", left, y, line, size, layer=Layer.FURNITURE))
        y += size * 1.25
    credit = f"papergames · {title}" + (f" · page {page_no} of {pages}" if pages > 1 else "")
    items.append(Text("credit", left, foot + MARKER - 0.6, credit, 2.2, layer=Layer.FURNITURE))
    return items
