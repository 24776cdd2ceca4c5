"""From a spec to a finished sheet: build the layout, choose the orientation, add furniture."""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar, cast

from papergames.errors import FitError, SpecError
from papergames.games import get_layout
from papergames.sheets.bounds import inside, item_box, overlaps
from papergames.sheets.compose import content_frame, furniture, furniture_size, marker_boxes
from papergames.sheets.layout import BuildContext, Layout, PageBody
from papergames.sheets.model import FIRST_PRINTED, Feature, Item, Page, Sheet
from papergames.sheets.score import names_box, names_printed
from papergames.sheets.spec import SheetSpec
from papergames.sheets.units import PAPERS

_REUSED: ContextVar[OrderedDict[str, object] | None] = ContextVar("reused_sheets", default=None)
KEPT_MOST = 8
"""Most things a :func:`sheets_reused` block keeps (sheets, and what :func:`made_once` works out
from them), the least lately asked for going first: a class's photos are of one sheet or a few,
each kept with its print and what is read on it, and a batch may run through hundreds."""
Made = TypeVar("Made")


@contextmanager
def sheets_reused() -> Iterator[None]:
    """Within the block, :func:`make_sheet` builds each spec once and hands back that sheet.

    Judging one photo replays its position several times (the reading, then each second look
    at a doubtful item), and every replay asks for the sheet again: a Voronoi field such as
    Arp's takes a few hundred milliseconds to grow, so building it once saves most of a
    second a photo. The sheets are kept only for the block, because a caller outside it may
    change the sheet it was given (a pack shifts pages onto a larger one). A block inside
    another shares the outer one's sheets: reading a photo and then judging it build its sheet
    once.

    Example:
        >>> spec = SheetSpec.create("spaghetti", seed=3)
        >>> with sheets_reused():
        ...     make_sheet(spec) is make_sheet(spec)
        True
        >>> make_sheet(spec) is make_sheet(spec)
        False
    """
    if _REUSED.get() is not None:  # inside another such block: its sheets serve this one
        yield
        return
    token = _REUSED.set(OrderedDict())
    try:
        yield
    finally:
        _REUSED.reset(token)


def make_sheet(spec: SheetSpec) -> Sheet:
    """Build every page of the sheet ``spec`` describes.

    With ``orientation=auto`` both orientations are built and the one whose first field is
    larger wins (portrait on a tie). When the layout can tell the field areas cheaply, the
    winner is built first and the other only if the winner cannot be built: the same choice.

    Raises:
        SpecError: when ``spec`` is not a :class:`SheetSpec` or holds a bad value (a spec built
            directly is checked as :meth:`SheetSpec.create` checks one).
        FitError: when the layout cannot fit the paper at a legible size.
    """
    if not isinstance(spec, SheetSpec):
        raise SpecError(f"make_sheet takes a SheetSpec, not {type(spec).__name__}")
    spec = spec.checked()
    return made_once(f"sheet {spec}", lambda: _built(spec))


def made_once(key: str, make: Callable[[], Made]) -> Made:
    """``make()``, or within a :func:`sheets_reused` block what it gave for ``key`` before, while
    that is kept (:data:`KEPT_MOST`). For what is worked out from a sheet alone and asked for
    again with each photo of it, such as its print at the reading resolution: ``key`` must name
    all that it depends on, and the caller must not change what it is given.

    Example:
        >>> with sheets_reused():
        ...     made_once("a list", lambda: [1, 2]) is made_once("a list", lambda: [1, 2])
        True
    """
    reused = _REUSED.get()
    if reused is None:
        return make()
    if key in reused:
        reused.move_to_end(key)
    else:
        reused[key] = make()
        while len(reused) > KEPT_MOST:
            reused.popitem(last=False)
    return cast(Made, reused[key])


def keep_sheets_reused() -> None:
    """From now on in this context, :func:`make_sheet` and :func:`made_once` reuse what they
    made as inside a :func:`sheets_reused` block that does not end: for a process or thread
    that only reads photos, such as a batch's worker, so that a class's thirty photos of one
    handout build its sheet, and draw it at the reading resolution, once.

    Example:
        >>> import contextvars
        >>> def reused_after_keeping() -> bool:
        ...     keep_sheets_reused()
        ...     spec = SheetSpec.create("spaghetti", seed=3)
        ...     return make_sheet(spec) is make_sheet(spec)
        >>> contextvars.copy_context().run(reused_after_keeping)
        True
    """
    if _REUSED.get() is None:
        _REUSED.set(OrderedDict())


def _built(spec: SheetSpec) -> Sheet:
    layout = get_layout(spec.game)
    paper = PAPERS[spec.paper]
    choices = [False, True] if spec.orientation == "auto" else [spec.orientation == "landscape"]
    cheap = _cheap_choice(layout, spec) if len(choices) == 2 else None
    if cheap is None and len(choices) == 2 and _labels_apart(layout, spec):
        cheap = _choice_without_labels(layout, spec)
    if cheap is not None:
        choices = [cheap, not cheap]
    best: tuple[float, bool, list[PageBody]] | None = None
    error: FitError | None = None
    for landscape in choices:
        if cheap is not None and best is not None:
            break
        width, height = paper.size(landscape)
        try:
            bodies = _bodies(layout, spec, width, height, landscape)
        except FitError as exc:
            error = exc
            continue
        size = _field_size(bodies)
        if best is None or size > best[0] + 1e-6:
            best = (size, landscape, bodies)
    if best is None:
        assert error is not None
        raise error
    _, landscape, bodies = best
    width, height = paper.size(landscape)
    spec_text = str(spec)
    pages = []
    for number, body in enumerate(bodies, start=1):
        page = Page(
            width, height, title=layout.page_title(), field=body.field, data=dict(body.data)
        )
        page.extend(body.items)
        check_fit(page, spec_text)
        page.extend(
            furniture(
                width,
                height,
                spec_text=spec_text,
                title=layout.page_title(),
                subtitle=_with_group(body.subtitle, spec, page),
                page_no=number,
                pages=len(bodies),
                markers=spec.markers,
                colour_note=any(item.id.startswith("box-legend-") for item in body.items),
            )
        )
        pages.append(page)
    return Sheet(spec, layout.title, pages)


def _bodies(
    layout: Layout, spec: SheetSpec, width: float, height: float, landscape: bool
) -> list[PageBody]:
    """The layout's pages on one orientation of the paper, with the players' names on them.

    A layout that printed no name in a score row (one without rows) is built again above a box
    naming the players at the foot of its first page.

    Raises:
        FitError: when the layout, or the layout above the names box, does not fit.
    """
    frame = content_frame(width, height)
    with names_printed(spec.player_names):
        bodies = layout.build(BuildContext(spec, frame, width, height, landscape))
    named = any(item.id.startswith("box-name-") for body in bodies for item in body.items)
    if not spec.names or named:
        return bodies
    band = names_box(spec.names, frame.x + 0.5, frame.bottom - 0.5, frame.w - 1.0)
    smaller = dataclasses.replace(frame, h=frame.h - band.height - 0.5)
    with names_printed(spec.player_names):
        bodies = layout.build(BuildContext(spec, smaller, width, height, landscape))
    bodies[0].items.extend(band.items)
    return bodies


def _with_group(subtitle: str, spec: SheetSpec, page: Page) -> str:
    """The page's subtitle, followed by the class and group it was made for, if any.

    A page without the players' names in a box (a later page of a sheet whose first page has
    the names box, such as the COM:POSITIE pieces) names them here.
    """
    parts = [spec.class_name] if spec.class_name else []
    if spec.group:
        parts.append(f"group {spec.group}")
    rows = any(item.id.startswith("box-name") for item in page.items)
    if spec.names and not rows:
        parts.append(", ".join(spec.names))
    if not parts:
        return subtitle
    return " · ".join([subtitle, *parts] if subtitle else parts)


def _field_size(bodies: list[PageBody]) -> float:
    """The area of the first page's field: the larger wins the orientation."""
    field = bodies[0].field
    return field.area if field is not None else 0.0


def _labels_apart(layout: Layout, spec: SheetSpec) -> bool:
    """Whether the sheet's labels are added over a field that is the same without them: where
    they are not one of the layout's own parameters, which may change the field."""
    return spec.labels and "labels" not in layout.params


def _choice_without_labels(layout: Layout, spec: SheetSpec) -> bool | None:
    """Whether landscape wins, from both orientations built without their labels.

    Placing the labels costs most of a labelled build (a second for Vasarely's 270 spaces), and
    the field they are placed on is the same without them. The winner is then built with its
    labels, and the other only if the winner's do not fit: the choice building both would make.
    ``None`` when neither orientation fits even without labels.
    """
    plain = dataclasses.replace(spec, labels=False)
    paper = PAPERS[spec.paper]
    best: tuple[float, bool] | None = None
    for landscape in (False, True):
        width, height = paper.size(landscape)
        try:
            size = _field_size(_bodies(layout, plain, width, height, landscape))
        except FitError:
            continue
        if best is None or size > best[0] + 1e-6:
            best = (size, landscape)
    return None if best is None else best[1]


def _cheap_choice(layout: Layout, spec: SheetSpec) -> bool | None:
    """Whether landscape wins, when the layout can tell both field areas cheaply."""
    paper = PAPERS[spec.paper]
    areas: list[float] = []
    for landscape in (False, True):
        width, height = paper.size(landscape)
        ctx = BuildContext(spec, content_frame(width, height), width, height, landscape)
        try:
            area = layout.field_area(ctx)
        except FitError:
            area = -1.0
        if area is None:
            return None
        areas.append(area)
    if max(areas) < 0:
        return None
    return areas[1] > areas[0] + 1e-6


def fitted_box(item: Item) -> tuple[float, float, float, float] | None:
    """The inked box of an item as its layout fitted it. Miro's and Arp's fields come out of a
    seed the same whatever their line style (a sheet printed before is read by making it
    again), so their two-rule lines may run up to 0.4 mm past the frame into the 12 mm margin:
    the frame is judged by the width the fields were fitted to (:data:`FIRST_PRINTED`)."""
    if isinstance(item, Feature) and item.style in FIRST_PRINTED:
        item = dataclasses.replace(item, style=FIRST_PRINTED[item.style])
    return item_box(item)


def check_fit(page: Page, spec_text: str) -> None:
    """Fail loudly when the layout's ink leaves its frame or touches a fiducial corner."""
    frame = content_frame(page.width, page.height)
    gap = furniture_size(page.width, page.height).gap
    corners = [
        (x0 - gap, y0 - gap, x1 + gap, y1 + gap)
        for x0, y0, x1, y1 in marker_boxes(page.width, page.height).values()
    ]
    for item in page.items:
        ink = item_box(item)
        if ink is None:
            continue
        fitted = fitted_box(item)
        if fitted is None or not inside(fitted, frame.box, slack=0.01):
            raise FitError(f"{spec_text}: '{item.id}' does not fit inside the page margins")
        if any(overlaps(ink, corner) for corner in corners):
            raise FitError(f"{spec_text}: '{item.id}' runs into a fiducial corner")
