"""What the photo reader reads on a page: every item a player colours or marks, and where to look.

A finished sheet carries pencil in three ways, and each is sampled where that pencil lies and
nothing else does:

* **areas** (spaces and Springer's triangles) are hatched; their inside is read less a rim of
  :data:`AREA_INSET_MM`, so strokes that overflow from a neighbour and the border's ink do not
  count;
* **lines** (Miro's traced segments, the pieces of Arp's lines between crossings) are traced
  along; a band of :data:`LINE_HALF_WIDTH_MM` either side is read, less :data:`LINE_END_MM` at
  each end, where the other lines of the crossing run;
* **boxes** of a score area (a player's colour box, tally, loss, sequence and track boxes) are
  coloured or ticked; their inside less :data:`BOX_INSET_MM` is read.

Each ``box-legend-<name>`` box is the sample of the colour ``<name>`` that the players' pencil is
compared with. Handwriting boxes (initials, totals) and the cut-out pieces are not read, nor any
item of a game whose sheet has nothing to colour (:data:`UNREAD_GAMES`).

Example:
    >>> from papergames import SheetSpec, make_sheet
    >>> page = make_sheet(SheetSpec.create("springer", seed=1)).page
    >>> items = read_items(page, "springer")
    >>> sorted({item.role for item in items})
    ['box', 'space', 'triangle']
    >>> [item.legend for item in items if item.legend]
    ['1', '2']
    >>> read_items(page, "palindromes")
    ()
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry
from shapely.ops import substring

from papergames.sheets.model import INKS, Feature, Kind, Page, Style

AREA_INSET_MM = 0.8
"""Rim left out of a hatched area: a neighbour's overflow and the border's ink stay out."""
BOX_INSET_MM = 0.6
"""Rim left out of a score box: its printed border, with room for the photo's misregistration."""
BOX_INSET_SHARE = 0.22
"""Share of a score box's narrower side left out at each edge (see :func:`box_inset`)."""
OVERFLOW_MM = 2.0
"""Farthest a neighbour's hatching runs into an item."""
LINE_HALF_WIDTH_MM = 0.8
"""Half width of the band read along a traced line: a trace is laid 1-2 mm wide round the
printed line, and farther out the band would hold mostly the neighbouring spaces' hatching that
ran over the border, which pulls the colour read towards theirs (1.3 mm read 3 % fewer of
Arp's lines right)."""
LINE_END_MM = 1.5
"""Length left out at each end of a line, where the lines of the crossing run."""

UNREAD_GAMES = frozenset(
    {
        "compositie",
        "plan-a-head",
        "pick-two-one",
        "cannon-ball",
        "cubist-studio",
        "cubist-score",
        "palindromes",
    }
)
"""Games whose sheets carry nothing coloured: cut-out pieces, dice pads and written records."""

READ_BOX_AREAS = frozenset({"legend", "tally", "loss", "seq", "track", "lane"})
"""Score areas whose boxes are coloured or marked (not initials or totals, which are written)."""

LEGEND_PREFIX = "box-legend-"

TRACED_STYLES = frozenset({Style.TRACE, Style.TRACE_GREY, Style.NONE})
"""Segment styles that are traced in pencil: Miro's segments, and Arp's uninked pieces of its
lines. Other games' segments are printed borders (dotted, light) nobody colours."""


class Sampling(StrEnum):
    """How an item's pencil is laid down, and so how it is sampled."""

    AREA = "area"
    LINE = "line"
    BOX = "box"


@dataclass(frozen=True)
class ReadItem:
    """One item the reader measures.

    Attributes:
        id: the feature's id on the page.
        role: ``space``, ``segment``, ``triangle`` or ``box`` (the feature's kind).
        sampling: how its pencil is laid down.
        geometry: the feature's own geometry in page mm (what a debug image outlines).
        region: where its pixels are read, in page mm (for a line, the band before it is shared
            out between lines that run close).
        area: a box's score area (``legend``, ``tally``...), ``None`` for other items.
        line: for a piece of a longer line (Arp's), that line's id.
        ends: for such a piece, the ids of the points it runs between.
        channel: for a traced line printed as two rules, the width in mm of the white channel
            between them, where its pencil is read; 0 for a line printed as one grey stroke.
        beside: for a traced line, the ids of the spaces it borders (Arp's and Miro's).
    """

    id: str
    role: str
    sampling: Sampling
    geometry: BaseGeometry
    region: BaseGeometry
    area: str | None = None
    line: str | None = None
    ends: tuple[str, ...] = ()
    channel: float = 0.0
    beside: tuple[str, ...] = ()

    @property
    def legend(self) -> str | None:
        """The colour this item is the sample of, if it is a player's colour box."""
        return legend_colour(self.id) if self.area == "legend" else None


def legend_colour(item_id: str) -> str | None:
    """The colour named by a colour box's id (``box-legend-3`` is colour ``3``).

    Example:
        >>> legend_colour("box-legend-neutral"), legend_colour("box-tally1-2")
        ('neutral', None)
    """
    if item_id.startswith(LEGEND_PREFIX) and len(item_id) > len(LEGEND_PREFIX):
        return item_id[len(LEGEND_PREFIX) :]
    return None


ROW_ID = re.compile(r"box-[a-z]+(\d+)-\d+")
"""A box in a seat's row of a score area: ``box-tally2-17``, ``box-loss1-3``."""


def row_seat(item_id: str) -> str | None:
    """The seat whose row of a score area a box lies in, if it lies in one.

    Example:
        >>> row_seat("box-tally2-17"), row_seat("box-legend-2"), row_seat("space-4")
        ('2', None, None)
    """
    row = ROW_ID.fullmatch(item_id)
    return None if row is None else row.group(1)


def row_of(item_id: str) -> str:
    """The row a score box lies in: its id less its place in the row.

    Example:
        >>> row_of("box-tally2-17")
        'box-tally2'
    """
    return item_id.rsplit("-", 1)[0]


def read_items(page: Page, game: str) -> tuple[ReadItem, ...]:
    """Every item of ``page`` that carries a player's pencil, in page order."""
    if game in UNREAD_GAMES:
        return ()
    styles = {f.id: f.style for f in page.features() if f.kind == Kind.LINE}
    items = (_read_item(feature, styles) for feature in page.features())
    return tuple(item for item in items if item is not None)


def _read_item(feature: Feature, line_styles: dict[str, Style]) -> ReadItem | None:
    if feature.kind in (Kind.SPACE, Kind.TRIANGLE):
        region = _inset(feature.geometry, AREA_INSET_MM)
        return ReadItem(feature.id, feature.kind.value, Sampling.AREA, feature.geometry, region)
    if feature.kind == Kind.SEGMENT and feature.style in TRACED_STYLES:
        if not isinstance(feature.geometry, LineString) or feature.geometry.length <= 0.0:
            return None
        region = line_band(feature.geometry)
        line, points = feature.data.get("line"), feature.data.get("points", ())
        spaces = feature.data.get("spaces", ())
        printed = line_styles.get(line, feature.style) if isinstance(line, str) else feature.style
        return ReadItem(
            feature.id,
            Kind.SEGMENT.value,
            Sampling.LINE,
            feature.geometry,
            region,
            line=line if isinstance(line, str) else None,
            ends=tuple(str(point) for point in points),
            channel=INKS[printed].channel,
            beside=tuple(str(space) for space in spaces),
        )
    if feature.kind == Kind.BOX:
        area = feature.data.get("area")
        if not isinstance(area, str) or area not in READ_BOX_AREAS:
            return None
        region = _inset(feature.geometry, box_inset(feature.geometry))
        return ReadItem(feature.id, Kind.BOX.value, Sampling.BOX, feature.geometry, region, area)
    return None


def box_inset(shape: BaseGeometry) -> float:
    """The rim left out of a score box: :data:`BOX_INSET_MM`, or a share of its narrower side
    up to :data:`OVERFLOW_MM` for larger boxes, which are hatched like spaces and whose
    neighbours' hatching runs over into them; a mark drawn in a box crosses its middle.

    Example:
        >>> from shapely.geometry import box
        >>> box_inset(box(0, 0, 4, 4)), round(box_inset(box(0, 0, 20, 7)), 2)
        (0.88, 1.54)
    """
    rectangle = shape.minimum_rotated_rectangle
    coords = list(rectangle.exterior.coords) if hasattr(rectangle, "exterior") else []
    if len(coords) < 4:
        return BOX_INSET_MM
    sides = [float(LineString(coords[k : k + 2]).length) for k in range(2)]
    return float(min(OVERFLOW_MM, max(BOX_INSET_MM, BOX_INSET_SHARE * min(sides))))


def _inset(shape: BaseGeometry, inset: float) -> BaseGeometry:
    """The shape less a rim, or less a thinner rim when the full one leaves nothing."""
    for depth in (inset, inset / 2, 0.0):
        inner = shape.buffer(-depth, join_style="mitre") if depth else shape
        if not inner.is_empty and inner.area > 0.0:
            return inner
    return shape


def line_band(line: LineString) -> BaseGeometry:
    """The band read along a traced line: :data:`LINE_HALF_WIDTH_MM` either side, its ends cut.

    A line too short to lose :data:`LINE_END_MM` at both ends keeps its middle third.

    Example:
        >>> round(line_band(LineString([(0, 0), (10, 0)])).area, 1)  # 7 mm by 1.6 mm
        11.2
    """
    return trimmed(line).buffer(LINE_HALF_WIDTH_MM, cap_style="flat", join_style="round")


def trimmed(line: LineString) -> LineString:
    """The line less :data:`LINE_END_MM` at each end (its middle third when too short)."""
    cut = LINE_END_MM if line.length > 3 * LINE_END_MM else line.length / 3
    middle = substring(line, cut, line.length - cut)
    return middle if isinstance(middle, LineString) else line
