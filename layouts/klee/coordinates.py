"""Klee's grid coordinates: each space's printed name, and the letters and numbers round the
field."""

from __future__ import annotations

from papergames.layouts.klee.field import Field
from papergames.sheets.grid import cell_name
from papergames.sheets.labels import CAP, LABEL_GREY, LABEL_SIZE
from papergames.sheets.model import Item, Layer, Text


def coordinate(n: int, row: int, col: int) -> str:
    """The grid name of a space, as the grid games name their squares.

    ``row`` and ``col`` count from 1 at the top left, as the model numbers the spaces; the
    name counts columns ``a, b, c, ...`` from the left (no i, which reads as a 1) and rows
    ``1 .. n`` from the bottom, so ``a1`` is the bottom-left space.

    Example:
        >>> coordinate(12, 12, 1), coordinate(12, 1, 12), coordinate(12, 4, 9)
        ('a1', 'm12', 'j9')
    """
    return cell_name(col, n - row + 1)


def coordinates(n: int) -> dict[str, str]:
    """Every space's grid name and its id (``space-<k>``, row by row from the top left)."""
    return {
        coordinate(n, r + 1, c + 1): f"space-{r * n + c + 1}" for r in range(n) for c in range(n)
    }


def coordinate_items(fld: Field, gap: float) -> list[Item]:
    """The grid coordinates printed round the field, in the band ``gap`` mm wide round it.

    Column letters stand above and below the middle of each column, row numbers left and right
    of the middle of each row, small and grey like every printed label.
    """
    n, p = fld.n, fld.points
    size = LABEL_SIZE
    rise = CAP * size / 2
    x0, y0 = p[0][0]
    x1, y1 = p[n][n]
    items: list[Item] = []
    for c in range(n):
        name = coordinate(n, n, c + 1)[:-1]
        for side, y in (("top", y0 - gap / 2), ("bottom", y1 + gap / 2)):
            j = 0 if side == "top" else n
            x = (p[c][j][0] + p[c + 1][j][0]) / 2
            items.append(_coordinate(f"coord-{side}-{c + 1}", x, y + rise, name, size))
    for r in range(n):
        name = str(n - r)
        for side, x, i in (("left", x0 - gap / 2, 0), ("right", x1 + gap / 2, n)):
            y = (p[i][r][1] + p[i][r + 1][1]) / 2
            items.append(_coordinate(f"coord-{side}-{n - r}", x, y + rise, name, size))
    return items


def _coordinate(ident: str, x: float, y: float, text: str, size: float) -> Text:
    return Text(ident, x, y, text, size, "middle", layer=Layer.TEXT, grey=LABEL_GREY)
