"""The sheet model: pages of named features with stable ids, in millimetres, y down.

A layout builds features; renderers draw them; the checker and the photo reader look them up by
id. The model knows nothing about any output format.

Ids follow one convention (see docs/svg.md): ``space-<n>``, ``segment-<n>``, ``line-<n>``,
``point-<label>``, ``box-<area>-<n>``, ``triangle-<n>``; groups such as ``ring-<m>`` wrap the
features that belong together.

Example:
    >>> from shapely.geometry import box
    >>> page = Page(210, 297)
    >>> page.add(Feature("space-1", Kind.SPACE, box(20, 20, 30, 30)))
    >>> page.spaces()["space-1"].area
    100.0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar, cast

from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

if TYPE_CHECKING:
    from papergames.sheets.board import Board
    from papergames.sheets.spec import SheetSpec
    from papergames.sheets.topology import Topology


class Kind(StrEnum):
    """What a feature is, for the rules and the photo reader."""

    SPACE = "space"
    SEGMENT = "segment"
    LINE = "line"
    POINT = "point"
    BOX = "box"
    DOT = "dot"
    TRIANGLE = "triangle"
    MARK = "mark"
    """Page furniture: fiducial markers, QR code, scale bar, cut lines, decoration."""


class Layer(StrEnum):
    """Drawing order, bottom to top; each is a group in the SVG."""

    TINT = "tint"
    FIELD = "field"
    SCORE = "score"
    TEXT = "text"
    FURNITURE = "furniture"


LAYER_ORDER = tuple(Layer)


class Style(StrEnum):
    """How a feature is inked; see :data:`INKS` for the numbers."""

    NONE = "none"
    HEAVY = "heavy"
    MEDIUM = "medium"
    LIGHT = "light"
    HAIRLINE = "hairline"
    DOTTED = "dotted"
    DASHED = "dashed"
    CUT = "cut"
    BOX = "box"
    BOX_HEAVY = "box-heavy"
    SOLID = "solid"
    TINT = "tint"
    SHADE = "shade"
    HATCH = "hatch"
    CROSSHATCH = "crosshatch"
    OUTLINE_SOLID = "outline-solid"
    TRACE = "trace"
    TRACE_GREY = "trace-grey"


@dataclass(frozen=True)
class Ink:
    """Printable numbers for a style.

    Attributes:
        stroke: line width in mm (0 = no outline).
        dash: on/off lengths in mm, empty for solid lines.
        fill: grey level of the fill, 0 black .. 1 white, ``None`` for no fill.
        hatch: angles in degrees of hatch lines drawn inside the shape.
        hatch_step: distance between hatch lines in mm.
        hatch_width: width of hatch lines in mm.
        stroke_grey: grey level of the outline, 0 black .. 1 white.
        channel: width in mm of white paper left down the middle of the stroke, which then
            prints as two rules; 0 for a plain stroke. Renderers draw a layer's channels after
            all its strokes, with round ends, so channelled lines that meet open into each
            other like roads.
    """

    stroke: float = 0.0
    dash: tuple[float, ...] = ()
    fill: float | None = None
    hatch: tuple[float, ...] = ()
    hatch_step: float = 1.6
    hatch_width: float = 0.2
    stroke_grey: float = 0.0
    channel: float = 0.0


TRACE_CHANNEL = 1.0
"""Width in mm of the white channel down a traced line: a pencil line drawn along it fits."""
TRACE_RULE = 0.25
"""Width in mm of each of the two rules that edge a traced line's channel."""

# Widths and greys are chosen for office printers and photocopies: every mark a game needs keeps
# its pixels through a light copy (tests/test_print_quality.py blurs a 150 dpi render by 0.17 mm
# and drops everything lighter than 35 % grey), so nothing a game needs is thinner than 0.25 mm or
# lighter than 40 % grey; only TINT, which is decoration, may fade. Each style differs from the
# others by weight, dash or fill so a grayscale copy keeps them apart.
INKS: Mapping[Style, Ink] = {
    Style.NONE: Ink(),
    Style.HEAVY: Ink(stroke=0.9),
    Style.MEDIUM: Ink(stroke=0.5),
    Style.LIGHT: Ink(stroke=0.3),
    Style.HAIRLINE: Ink(stroke=0.25),
    Style.DOTTED: Ink(stroke=0.35, dash=(0.4, 0.9)),
    Style.DASHED: Ink(stroke=0.3, dash=(2.0, 1.5)),
    Style.CUT: Ink(stroke=0.25, dash=(3.0, 2.0)),
    Style.BOX: Ink(stroke=0.3),
    Style.BOX_HEAVY: Ink(stroke=0.6),
    Style.SOLID: Ink(fill=0.0),
    # A light tint for show only (Mondrian's painted spaces): a light copy may lose it.
    Style.TINT: Ink(fill=0.88),
    # Shading a game needs (Cannon-Ball's home rows): dark enough to survive a light copy, light
    # enough that the lines and pieces on it stay apart from it in grey.
    Style.SHADE: Ink(fill=0.6),
    Style.HATCH: Ink(stroke=0.3, hatch=(45.0,)),
    Style.CROSSHATCH: Ink(stroke=0.3, hatch=(45.0, -45.0)),
    Style.OUTLINE_SOLID: Ink(stroke=0.3, fill=0.0),
    # A line players colour along (Miro's segments, Arp's lines): two grey rules with white paper
    # between them, where the pencil goes. A photocopier prints grey nearly black, and a light
    # pencil on black cannot be told from another; in the channel it lies on white whatever the
    # copy made of the rules.
    Style.TRACE: Ink(stroke=TRACE_CHANNEL + 2 * TRACE_RULE, channel=TRACE_CHANNEL),
    # How traced lines were printed until 27 November 2026 (one mid-grey line): kept so that the
    # photo reader can make those sheets again and read them (papergames.photo.styles).
    Style.TRACE_GREY: Ink(stroke=0.5, stroke_grey=0.5),
}


FIRST_PRINTED: Mapping[Style, Style] = {Style.TRACE: Style.TRACE_GREY}
"""Styles whose ink changed, with the style sheets were first printed in: layouts were fitted to
the first (papergames.sheets.sheet.check_fit), and the photo reader still reads sheets printed in it
(papergames.photo.styles)."""


def rgb_of(colour: str) -> tuple[float, float, float]:
    """A colour ``#rrggbb`` as red, green and blue from 0 to 1.

    Example:
        >>> rgb_of("#ff8000")
        (1.0, 0.5019607843137255, 0.0)
    """
    value = int(colour.lstrip("#"), 16)
    return ((value >> 16) & 0xFF) / 255, ((value >> 8) & 0xFF) / 255, (value & 0xFF) / 255


def grey_of(colour: str) -> float:
    """The grey a black-and-white printer or copier makes of a colour (0 black .. 1 white).

    Its luma by the ITU-R BT.601 weights, which is how office devices turn colour into grey:
    two colours a game tells apart must differ here too.

    Example:
        >>> round(grey_of("#ffffff"), 3), round(grey_of("#ff0000"), 3)
        (1.0, 0.299)
    """
    r, g, b = rgb_of(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b


@dataclass(frozen=True)
class Feature:
    """A named piece of geometry on a page.

    Attributes:
        id: unique on its page, following the id convention.
        kind: what the feature is.
        geometry: a shapely geometry in page millimetres.
        style: how it is inked (``NONE`` for spaces whose outline is drawn by lines).
        layer: drawing layer.
        group: id of the group that holds it (``ring-3``), if any.
        label: a printed name (a point's label), if any.
        data: facts the rules need (a ring number, a dot count, a triangle's value).
        colour: a fill colour ``#rrggbb`` printed with ``colour=on`` (COM:POSITIE's pieces,
            Mondrian's tints), or ``None``: the style's grey. The colour fills the shape under
            the style's own lines and hatching, which stay black, so a black-and-white print
            keeps every distinction the grey style makes; see :func:`grey_of`.
    """

    id: str
    kind: Kind
    geometry: BaseGeometry
    style: Style = Style.NONE
    layer: Layer = Layer.FIELD
    group: str | None = None
    label: str | None = None
    data: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    colour: str | None = None


@dataclass(frozen=True)
class Text:
    """A line of text. ``x, y`` is the anchor point on the baseline; sizes are in mm (em).

    ``angle`` turns the text counter-clockwise as seen on the page, about the anchor. ``grey``
    is the ink's grey level, 0 black .. 1 white (printed labels are mid grey, so pencil covers
    them).
    """

    id: str
    x: float
    y: float
    text: str
    size: float = 3.5
    anchor: str = "start"
    bold: bool = False
    layer: Layer = Layer.TEXT
    group: str | None = None
    angle: float = 0.0
    grey: float = 0.0


Item = Feature | Text


@dataclass
class Page:
    """One printed page.

    Attributes:
        width, height: page size in mm.
        items: features and texts in insertion order (the order they are drawn within a layer).
        title: the page's heading.
        field: the outline of the playing field, if the page has one.
        data: layout facts about the page (a round number, ring section counts).
    """

    width: float
    height: float
    items: list[Item] = dataclasses.field(default_factory=list)
    title: str = ""
    field: Polygon | None = None
    data: dict[str, Any] = dataclasses.field(default_factory=dict)
    _ids: set[str] = dataclasses.field(default_factory=set, repr=False)
    _topology: Topology | None = dataclasses.field(default=None, repr=False)
    boards: dict[Kind, Board] = dataclasses.field(default_factory=dict, repr=False, compare=False)
    """The page's boards by kind, each built once by :meth:`Board.of
    <papergames.sheets.board.Board.of>` and dropped when an item is added."""

    def add(self, item: Item) -> None:
        """Add a feature or text; ids must be unique on the page."""
        if item.id in self._ids:
            raise ValueError(f"duplicate id {item.id!r} on page")
        self._ids.add(item.id)
        self.items.append(item)
        self._topology = None
        self.boards.clear()

    def extend(self, items: list[Item]) -> None:
        for item in items:
            self.add(item)

    def get(self, item_id: str) -> Item:
        for item in self.items:
            if item.id == item_id:
                return item
        raise KeyError(item_id)

    def features(self, kind: Kind | None = None) -> Iterator[Feature]:
        """Features (not texts), optionally of one kind, in order."""
        for item in self.items:
            if isinstance(item, Feature) and (kind is None or item.kind == kind):
                yield item

    def texts(self) -> Iterator[Text]:
        for item in self.items:
            if isinstance(item, Text):
                yield item

    def spaces(self) -> dict[str, Polygon]:
        """Every space's polygon by id, in order."""
        return {f.id: f.geometry for f in self.features(Kind.SPACE)}

    def ids(self) -> list[str]:
        return [item.id for item in self.items]

    @property
    def topology(self) -> Topology:
        """Neighbours and corner contacts of the spaces, computed once per page."""
        if self._topology is None:
            from papergames.sheets.topology import Topology

            self._topology = Topology(self.spaces())
        return self._topology


@dataclass
class Sheet:
    """A finished sheet: the spec that made it and its pages."""

    spec: SheetSpec
    title: str
    pages: list[Page]

    @property
    def page(self) -> Page:
        """The first page (most sheets have only one)."""
        return self.pages[0]


DataShape = TypeVar("DataShape", bound=Mapping[str, Any])


def data_as(data: Mapping[str, Any], shape: type[DataShape]) -> DataShape:
    """A feature's or page's ``data`` read through the ``TypedDict`` its layout declares.

    The layout builds its data as that ``TypedDict`` and the rules engine reads it back through
    this call, so mypy checks both sides of the contract; nothing is checked at run time.

    Example:
        >>> from typing import TypedDict
        >>> class RingData(TypedDict):
        ...     ring: int
        >>> data_as({"ring": 3}, RingData)["ring"]
        3
    """
    return cast(DataShape, data)


def shifted(item: Item, dx: float, dy: float, prefix: str = "") -> Item:
    """The item moved by (dx, dy) mm, with ``prefix`` put before its id and group.

    Used to place one page's items on another (several small sheets on one page).

    Example:
        >>> from shapely.geometry import Point
        >>> dot = Feature("point-A1", Kind.POINT, Point(1, 2), group="ring-1")
        >>> moved = shifted(dot, 10, 20, "s2-")
        >>> moved.id, moved.group, moved.geometry.coords[0]
        ('s2-point-A1', 's2-ring-1', (11.0, 22.0))
    """
    group = prefix + item.group if item.group else None
    if isinstance(item, Text):
        return dataclasses.replace(
            item, id=prefix + item.id, x=item.x + dx, y=item.y + dy, group=group
        )
    from shapely import affinity

    return dataclasses.replace(
        item, id=prefix + item.id, geometry=affinity.translate(item.geometry, dx, dy), group=group
    )
