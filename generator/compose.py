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
SMALL_PAGE = 120.0
"""Pages narrower than this (A6 and quarter letter, the cells of 4-up pages) get smaller
markers, QR code and scale bar, so there is still room to play on them."""


@dataclass(frozen=True)
class FurnitureSize:
    """The sizes in mm of a page's furniture: marker squares, QR code, clear gap, scale bar."""

    marker: float
    qr: float
    gap: float
    scale: float


def furniture_size(width: float, height: float) -> FurnitureSize:
    """Full-size furniture on ordinary paper, smaller on the cells of 4-up pages."""
    if min(width, height) < SMALL_PAGE:
        return FurnitureSize(10.0, 12.0, 3.0, 30.0)
    return FurnitureSize(MARKER, QR_SIZE, GAP, SCALE_BAR)


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
    return Frame(MARGIN, top, width - 2 * MARGIN, height - 2 * top)


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


def fiducial(corner: str, x: float, y: float, s: float = MARKER) -> Feature:
    """A concentric square marker of side ``s``: black frame, white ring, black centre."""
    ring, inset = 3.0 * s / MARKER, 5.5 * s / MARKER
    outer = box(x, y, x + s, y + s).difference(box(x + ring, y + ring, x + s - ring, y + s - ring))
    centre = box(x + inset, y + inset, x + s - inset, y + s - inset)
    geom = MultiPolygon([outer, centre])
    return Feature(f"marker-{corner}", Kind.MARK, geom, Style.SOLID, Layer.FURNITURE)


def qr_feature(text: str, x: float, y: float, size: float = QR_SIZE) -> Feature:
    """The spec as a QR code, drawn as black runs of modules inside a ``size`` mm square."""
    quiet = 2
    # Medium error correction where the modules stay 0.3 mm or more, else low (small cells).
    for level in ("m", "l"):
        qr = segno.make(text, error=level, boost_error=False, micro=False)
        matrix = qr.matrix
        n = len(matrix)
        module = size / (n + 2 * quiet)
        if module >= 0.3:
            break
    else:
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


def scale_bar(x: float, y: float, length: float = SCALE_BAR) -> list[Item]:
    """A bar of alternating 1 cm cells (5 cm, or 3 cm on small pages): a shrunk print shows."""
    height = 1.6
    cells = round(length / 10)
    solid = [box(x + k * 10, y, x + k * 10 + 10, y + height) for k in range(0, cells, 2)]
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
        Text("scale-label", x + length + 2, y + height, f"{cells} cm", 2.4, layer=Layer.FURNITURE),
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
    size = furniture_size(width, height)
    markers = marker_boxes(width, height)
    for corner, (x, y, _, _) in markers.items():
        items.append(fiducial(corner, x, y, size.marker))

    left = MARGIN + size.marker + size.gap
    right = width - MARGIN - size.marker - size.gap
    mid = width / 2
    span = right - left
    title_size = min(
        6.0 * size.marker / MARKER, span / max(text_width(title, 1.0, bold=True), 1e-9)
    )
    items.append(
        Text("title", mid, MARGIN + 0.44 * size.marker, title, title_size, "middle", bold=True)
    )
    if subtitle:
        sub_size = min(3.4 * size.marker / MARKER, span / max(text_width(subtitle, 1.0), 1e-9))
        items.append(
            Text("subtitle", mid, MARGIN + 0.84 * size.marker, subtitle, sub_size, "middle")
        )

    foot = height - MARGIN - size.marker
    qr_x = right - size.qr
    items.append(qr_feature(spec_text, qr_x, height - MARGIN - size.qr, size.qr))
    items.extend(scale_bar(left, foot + 0.6, size.scale))
    text_width_mm = qr_x - size.gap - left
    lines, text_size = fit_text_lines(spec_text, text_width_mm, (2.8, 1.8))
    y = foot + (6.8 if size.marker >= MARKER else 4.9)
    for k, line in enumerate(lines):
        items.append(Text(f"spec-{k + 1}", left, y, line, text_size, layer=Layer.FURNITURE))
        y += text_size * 1.25
    credit = f"papergames · {title}" + (f" · page {page_no} of {pages}" if pages > 1 else "")
    credit_size = min(2.2, text_width_mm / max(text_width(credit, 1.0), 1e-9))
    if credit_size >= 1.5:
        items.append(
            Text(
                "credit", left, foot + size.marker - 0.6, credit, credit_size, layer=Layer.FURNITURE
            )
        )
    return items
