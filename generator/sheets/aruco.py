"""The corner markers: ArUco markers that tell the photo reader which corner of the sheet it sees.

Each corner carries its own marker from OpenCV's ``DICT_4X4_50`` dictionary (a 6 x 6 grid of
cells: a black border round 4 x 4 data bits), so a photo taken upside down or sideways is still
read the right way up, and a hand over one corner is named. The bit patterns are copied here so
printing a sheet needs no OpenCV; ``tests/test_photo_markers.py`` checks them against OpenCV's
dictionary and detector.

Example:
    >>> marker = marker_feature("tl", 10.0, 10.0, 12.0)
    >>> marker.id, marker.data["aruco"], round(marker.geometry.area, 1)
    ('marker-tl', 0, 112.0)
"""

from __future__ import annotations

from shapely.geometry import MultiPolygon, box

from papergames.sheets.model import Feature, Kind, Layer, Style

CORNER_IDS = {"tl": 0, "tr": 1, "br": 2, "bl": 3}
"""The ArUco id printed in each corner, clockwise from the top left."""

CELLS = 6
"""A marker is 6 x 6 cells: a one-cell black border round the 4 x 4 data bits."""

DATA_BITS: dict[int, tuple[str, ...]] = {
    0: ("1011", "0101", "0011", "0010"),
    1: ("0000", "1111", "1001", "1010"),
    2: ("0011", "0011", "0010", "1101"),
    3: ("1001", "1001", "0100", "0110"),
}
"""The 4 x 4 data bits of DICT_4X4_50 ids 0-3, row by row from the top; 1 is white."""


def marker_cells(marker_id: int) -> list[tuple[int, int]]:
    """The (row, column) of every black cell of a marker, border included.

    Example:
        >>> len(marker_cells(0))
        28
    """
    bits = DATA_BITS[marker_id]
    black = []
    for row in range(CELLS):
        for col in range(CELLS):
            border = row in (0, CELLS - 1) or col in (0, CELLS - 1)
            if border or bits[row - 1][col - 1] == "0":
                black.append((row, col))
    return black


def marker_feature(corner: str, x: float, y: float, size: float) -> Feature:
    """The marker of ``corner`` as black cells in the ``size`` mm square at (x, y)."""
    marker_id = CORNER_IDS[corner]
    cell = size / CELLS
    squares = [
        box(x + col * cell, y + row * cell, x + (col + 1) * cell, y + (row + 1) * cell)
        for row, col in marker_cells(marker_id)
    ]
    return Feature(
        f"marker-{corner}",
        Kind.MARK,
        MultiPolygon(squares),
        Style.SOLID,
        Layer.FURNITURE,
        data={"aruco": marker_id},
    )
