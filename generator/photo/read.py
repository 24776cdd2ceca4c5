"""Reading a photo of a finished sheet: which colour is on every item a player colours or marks.

The pipeline, each step guarding the next:

1. **Find the sheet.** The corner markers (:func:`~papergames.photo.locate.find_markers`) say
   where the page lies and which way up; the QR code says which sheet it is. The QR is read
   from the photo, or, failing that, from the page rectified for each paper size in turn. Its
   text is untrusted input: its length is capped, control characters are refused, and a text
   that does not parse as a sheet spec is a clear :class:`PhotoReadError`. A spec the user
   gives stands in for an unreadable QR code, and must agree with a readable one.
2. **Make the sheet again** from the spec, and pick the page photographed.
3. **Rectify**: the page-to-photo map from every marker found (two are enough), refined on the
   printed ink itself, and the page warped flat at
   :data:`~papergames.photo.sample.READ_DPI`.
4. **Measure** each item's pencil against the paper's own white, away from the printed ink
   (:mod:`papergames.photo.sample`).
5. **Name the colours** from the players' colour boxes (:mod:`papergames.photo.colours`).

A photo that cannot be read well enough gives a :class:`PageReading` whose ``retake`` says what
to do differently (too few corners, too small, too blurred, no QR code, a print not at 100 %),
never a guess.

Example:
    >>> blank = np.full((600, 400, 3), 255, dtype=np.uint8)
    >>> read_page(blank, "table.jpg").retake
    'no sheet found: take the photo with the whole sheet and its four corner squares in view'
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, replace
from functools import partial

import cv2
import numpy as np
from numpy.typing import NDArray

from papergames.errors import PapergamesError
from papergames.games import get_game
from papergames.output.png import draw_page
from papergames.photo.agree import MISMATCH_MOST, print_mismatch
from papergames.photo.beside import (
    clear_crossing_traces,
    doubt_traces_beside,
    read_traces_beside,
)
from papergames.photo.captures import follow_captures
from papergames.photo.colours import (
    Decision,
    Palette,
    Sample,
    read_colours,
    ticked_seats,
    without_print_excess,
)
from papergames.photo.items import ReadItem, Sampling, read_items, row_seat
from papergames.photo.locate import Markers, find_markers, page_to_photo, read_qr
from papergames.photo.meanwhile import meanwhile
from papergames.photo.mixtures import darkness
from papergames.photo.notes import Note
from papergames.photo.register import grey, hidden_corner, rectify, refine_best
from papergames.photo.rows import GAP_PENCIL, darkness_beside, follow_rows
from papergames.photo.runs import follow_runs
from papergames.photo.sample import (
    Measured,
    Plan,
    measure,
    plan_measure,
    print_blur,
    printed,
    read_px_per_mm,
)
from papergames.photo.styles import StyleFit, first_printed, fit_styles, restyled
from papergames.photo.toner import clear_print_grey
from papergames.sheets.compose import marker_boxes
from papergames.sheets.model import Page, Sheet
from papergames.sheets.sheet import made_once, make_sheet
from papergames.sheets.spec import SheetSpec
from papergames.sheets.units import PAPERS

Matrix = NDArray[np.float64]
Pixels = NDArray[np.uint8]

MAX_SPEC_CHARS = 300
"""Longest QR or user spec text taken; every papergames spec is far shorter."""
MIN_MARKER_PX = 25.0
"""Smallest corner marker side, in photo pixels, that the page can be read from."""
FEW_MARKER_PX = 60.0
"""Side, in photo pixels, under which a lone corner marker found says the sheet is small in the
photo: the other three are then most likely in view but too small to make out, not hidden (a
12 mm marker spans 60 pixels when an A4 sheet fills a quarter of a 12 MP photo's width)."""
MAX_BLUR_MM = 0.6
"""Largest blur (a Gaussian's spread on the page) that hatched spaces and ticked boxes can still
be read through: the ink's mask grows with the blur, and what is read lies well inside them (on
the bench, phone photos blurred to 0.57 mm read Vasarely's and Mondrian's sheets without an
error; the QR code is mostly lost beyond it)."""
MAX_BLUR_LINES_MM = 0.45
"""The same for a sheet with traced lines (Miro, Arp), whose 0.8 mm bands a blur smears into the
neighbouring spaces' hatching sooner (Arp read 99.0 % right at 0.22 mm, 98.3 % at 0.57)."""
SHARP_PX = 1.5
"""A blur of fewer photo pixels than this is the camera's own: when it is still too much on the
page, the page is too small in the photo, and the advice is to come closer, not to hold still."""
SCALE_TOLERANCE = 0.02
"""How far a scan's marker spacing may differ from the page's before the print is called scaled."""
QR_BAND_MM = 45.0
"""Height of the footer band searched for the QR code on a rectified page."""


class PhotoReadError(PapergamesError):
    """A photo whose QR code or given spec cannot be a papergames sheet (one clear line)."""


@dataclass(frozen=True)
class ItemReading:
    """What is on one item.

    Attributes:
        id: the feature's id on the page.
        role: ``space``, ``segment``, ``triangle`` or ``box``.
        colour: the colour's name (a colour box's suffix), or ``None`` for no pencil.
        coverage: the share of the item's read pixels that carry pencil.
        confidence: 0 (a guess) to 1 (sure).
        low: the decision is not clear and should be checked by eye.
    """

    id: str
    role: str
    colour: str | None
    coverage: float
    confidence: float
    low: bool


@dataclass(frozen=True)
class PageReading:
    """The reading of one photographed page.

    Attributes:
        source: where the pixels came from.
        spec: the sheet's spec, if the QR code or the user gave one.
        page_number: the page of the sheet photographed (1 for the first).
        colours: the colours in play, as learnt from their colour boxes, in RGB.
        items: every item read, in page order (empty with ``retake``).
        retake: why the photo cannot be read, and what to do instead; ``None`` when read.
        timings: seconds spent in each step.
        px_per_mm: the resolution of the rectified page.
        homography: the map from page mm to photo pixels, when the sheet was found.
        notes: things the reader could not settle (colours too alike to tell apart, a side of a
            captured space read in its colour against its pencil), for people.
        page: the page as made again from the spec (for drawing the reading).
        rectified: the page as photographed, rectified at ``px_per_mm``.
    """

    source: str
    spec: SheetSpec | None
    page_number: int
    colours: Mapping[str, tuple[int, int, int]]
    items: tuple[ItemReading, ...]
    retake: str | None
    timings: Mapping[str, float]
    px_per_mm: float
    homography: Matrix | None = field(default=None, compare=False)
    notes: tuple[Note, ...] = ()
    page: Page | None = field(default=None, repr=False, compare=False)
    rectified: Pixels | None = field(default=None, repr=False, compare=False)


class _Clock:
    """Seconds per step, and the total."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.times: dict[str, float] = {}

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        begun = time.perf_counter()
        try:
            yield
        finally:
            self.times[name] = self.times.get(name, 0.0) + time.perf_counter() - begun

    def done(self) -> dict[str, float]:
        return {**self.times, "total": time.perf_counter() - self.start}


def read_page(
    pixels: Pixels,
    source: str,
    *,
    spec_text: str | None = None,
    image_px_per_mm: float | None = None,
) -> PageReading:
    """Read a photo or scan of one page of a finished sheet.

    Multi-page sheets (Crossing the Rings with several rounds) print the same QR code on every
    page; the page photographed is the one whose print matches the photo best.

    Args:
        pixels: the image, RGB, upright (as :class:`~papergames.photo.image.PagePixels` has it).
        source: the file's name, for messages.
        spec_text: the sheet's spec as the user typed it (``--spec``): used when the QR code
            cannot be read, refused when it disagrees with the QR code.
        image_px_per_mm: the image's true resolution when it is known (a scanned PDF page, a
            scanner's DPI tag): the print's scale is then checked.

    Raises:
        PhotoReadError: the QR code or the given spec is not a papergames sheet spec, the two
            disagree, or the spec makes no sheet.
    """
    clock = _Clock()
    given = parse_spec(spec_text, "the given spec") if spec_text is not None else None
    with clock.step("markers"):
        markers = find_markers(pixels)
    advice = _marker_advice(markers)
    if advice is not None:
        return _retake(source, given, advice, clock)
    with clock.step("qr"):
        text = read_qr(pixels) or _qr_from_pages(pixels, markers)
    spec = _agreed_spec(text, given)
    if spec is None:
        advice = (
            "the QR code cannot be read: retake the photo with the QR code sharp and out of "
            "shadow, or give the sheet's spec as printed beside it"
        )
        return _retake(source, None, advice, clock)
    with clock.step("sheet"):
        sheet = _sheet(spec)
    return _read_sheet(pixels, source, markers, sheet, image_px_per_mm, clock)


def parse_spec(text: str, origin: str) -> SheetSpec:
    """A spec from untrusted text (a QR code, a command line), or a clear error.

    Example:
        >>> str(parse_spec("rings seed=42", "the QR code"))
        'rings seed=42'
        >>> parse_spec("https://example.com/x", "the QR code")
        Traceback (most recent call last):
        ...
        papergames.photo.read.PhotoReadError: the QR code is not a papergames sheet spec: \
'https://example.com/x' (...)
    """
    if len(text) > MAX_SPEC_CHARS:
        raise PhotoReadError(
            f"{origin} is {len(text)} characters long, too long for a papergames sheet spec"
        )
    if any(unicodedata.category(ch)[0] == "C" for ch in text):
        raise PhotoReadError(f"{origin} holds control characters: not a papergames sheet spec")
    try:
        return SheetSpec.parse(text)
    except PapergamesError as exc:
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise PhotoReadError(
            f"{origin} is not a papergames sheet spec: {shown!r} ({exc})"
        ) from None


def _agreed_spec(text: str | None, given: SheetSpec | None) -> SheetSpec | None:
    if text is None:
        return given
    found = parse_spec(text, "the QR code")
    if given is not None and given != found:
        raise PhotoReadError(
            f"the given spec '{given}' is not the sheet photographed, whose QR code says '{found}'"
        )
    return found


def _sheet(spec: SheetSpec) -> Sheet:
    try:
        return make_sheet(spec)
    except PapergamesError as exc:
        raise PhotoReadError(f"the sheet '{spec}' cannot be made again: {exc}") from None


def _marker_advice(markers: Markers) -> str | None:
    found = len(markers.corners)
    if found == 0:
        return (
            "no sheet found: take the photo with the whole sheet and its four corner squares "
            "in view"
        )
    if found < 2 and markers.side_px() < FEW_MARKER_PX:
        return (
            "the sheet is too small in the photo to make out its corner squares: come closer, "
            "so that the sheet fills the photo"
        )
    if found < 2:
        hidden = ", ".join(_CORNER_NAMES[c] for c in markers.missing)
        return f"only one corner square found: the {hidden} corners are hidden or out of the photo"
    if markers.side_px() < MIN_MARKER_PX:
        return "the sheet is too small in the photo: come closer, so that the sheet fills it"
    return None


_CORNER_NAMES = {"tl": "top left", "tr": "top right", "br": "bottom right", "bl": "bottom left"}


def _retake(
    source: str, spec: SheetSpec | None, advice: str, clock: _Clock, page: int = 1
) -> PageReading:
    return PageReading(source, spec, page, {}, (), advice, clock.done(), read_px_per_mm())


def _paper_sizes() -> list[tuple[float, float]]:
    sizes: list[tuple[float, float]] = []
    for paper in PAPERS.values():
        for landscape in (False, True):
            size = paper.size(landscape)
            if size not in sizes:
                sizes.append(size)
    return sizes


def _qr_from_pages(pixels: Pixels, markers: Markers) -> str | None:
    """The QR code read from the footer of the page rectified as each paper size in turn, as it is
    and then smoothed (:data:`QR_NOISE_PX`)."""
    scale = read_px_per_mm()
    for width, height in _paper_sizes():
        to_photo = page_to_photo(markers, marker_boxes(width, height))
        if to_photo is None:
            continue
        top = height - QR_BAND_MM
        shift = np.array([[1 / scale, 0, 0], [0, 1 / scale, top], [0, 0, 1]])
        band = cv2.warpPerspective(
            pixels,
            to_photo @ shift,
            (round(width * scale), round(QR_BAND_MM * scale)),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(255, 255, 255),
        )
        flat = np.asarray(band, dtype=np.uint8)
        text = read_qr(flat) or read_qr(np.asarray(cv2.GaussianBlur(flat, (0, 0), QR_NOISE_PX)))
        if text is not None:
            return text
    return None


QR_NOISE_PX = 1.0
"""Spread, in the flattened footer's pixels (an eighth of a millimetre), of the smoothing a QR code
is read through when it cannot be read as it is: on a dim photo the sensor's noise is as large as
the code's contrast and breaks its modules' edges; smoothed over a pixel, far finer than a
module, the code reads again (the test's four dim, noisy JPEGs of a print at 4 pixels a
millimetre: all four read, rather than two)."""


def _read_sheet(
    pixels: Pixels,
    source: str,
    markers: Markers,
    sheet: Sheet,
    image_px_per_mm: float | None,
    clock: _Clock,
) -> PageReading:
    spec = sheet.spec
    first = sheet.pages[0]
    boxes = marker_boxes(first.width, first.height)
    to_photo = page_to_photo(markers, boxes)
    if to_photo is None:
        return _retake(source, spec, "the corner squares could not be matched", clock)
    scale = read_px_per_mm()
    with clock.step("rectify"):
        flat = rectify(pixels, to_photo, first.width, first.height, scale)
    with clock.step("print"):
        number = _page_photographed(sheet, flat)
    page = sheet.pages[number - 1]
    ink = _print_of(spec, number, page, clock)
    squares = _marker_windows(markers, boxes, scale, flat.shape)
    rough = flat
    look = (
        _style_fit(rough, page, ink, print_blur(grey(rough), ink, squares), clock)
        if restyled(page)
        else None
    )
    first_style = look is not None and look.plainly_first()
    if first_style:
        page = first_printed(page)
        ink = _print_of(spec, number, page, clock)
    if len(markers.missing) == 1:
        with clock.step("corner"):
            found = hidden_corner(to_photo, rough, ink, scale, boxes[markers.missing[0]])
            if found is not None:
                placed = Markers({**markers.corners, markers.missing[0]: found})
                mapped = page_to_photo(placed, boxes)
                if mapped is not None:
                    markers, to_photo = placed, mapped
                    rough = rectify(pixels, to_photo, first.width, first.height, scale)
    with clock.step("register"):
        flat = refine_best(pixels, to_photo, rough, ink, scale)
    blur = print_blur(grey(flat), ink, squares)
    second = (
        _style_fit(flat, page, ink, blur, clock) if restyled(page) and not first_style else None
    )
    if second is not None and second.first_style():
        page = first_printed(page)
        ink = _print_of(spec, number, page, clock)
        with clock.step("register"):
            flat = refine_best(pixels, to_photo, rough, ink, scale)
    items = made_once(
        f"items {spec} page {number} {_printed_as(page)}", lambda: read_items(page, spec.game)
    )
    traced = any(item.sampling == Sampling.LINE for item in items)
    limit = MAX_BLUR_LINES_MM if traced else MAX_BLUR_MM
    advice = _quality_advice(markers, boxes, blur / scale, image_px_per_mm, limit)
    if advice is not None:
        return _retake(source, spec, advice, clock, number)
    with _planned_meanwhile(ink, items, scale, blur) as plan:
        with clock.step("agree"):
            mismatch = print_mismatch(flat, ink, scale, blur)
        if mismatch > MISMATCH_MOST:
            return _retake(source, spec, _foreign_print(spec), clock, number)
        with clock.step("measure"):
            measured = measure(flat, ink, items, scale, blur_px=blur, plan=plan())
    with clock.step("colours"):
        seats = [row_seat(item.id) for item in items]
        in_rows = [seat is not None for seat in seats]
        samples = _beside_in_rows(
            [_sample(item, measured, k) for k, item in enumerate(items)], items, in_rows
        )
        palette, alone = read_colours(
            samples,
            [item.legend for item in items],
            in_rows,
            seats=_fewest_seats(spec),
            ticked=ticked_seats(samples, seats),
        )
        cleared = without_print_excess(samples, palette.prototypes)
        alone = read_traces_beside(cleared, doubt_traces_beside(items, cleared, alone), palette)
        alone = clear_crossing_traces(cleared, alone)
        alone = clear_print_grey(samples, alone, palette.prototypes)
        captured = follow_captures(items, follow_runs(items, alone))
        decisions = follow_rows(
            [item.id for item in items],
            captured.decisions,
            [sample.coverage for sample in samples],
        )
        readings = tuple(
            ItemReading(i.id, i.role, d.colour, s.coverage, d.confidence, d.low)
            for i, s, d in zip(items, samples, decisions, strict=True)
        )
    return PageReading(
        source,
        spec,
        number,
        {name: palette.rgb(name) for name in palette.prototypes},
        readings,
        None,
        clock.done(),
        scale,
        to_photo,
        (*_notes(palette, items, decisions), *_unboxed_rows(spec, palette), *captured.notes),
        page,
        flat,
    )


def _planned_meanwhile(
    ink: NDArray[np.float32], items: Sequence[ReadItem], scale: float, blur: float
) -> AbstractContextManager[Callable[[], Plan]]:
    """A function giving where to measure (:func:`~papergames.photo.sample.plan_measure`),
    worked out meanwhile (:func:`~papergames.photo.meanwhile.meanwhile`): comparing the photo
    with its print is mostly OpenCV's work, the plan mostly Python's and GEOS's, so the two
    share the cores (a Miro or Arp photo is read about 0.15 s sooner)."""
    return meanwhile(partial(plan_measure, ink, items, scale, blur))


def _style_fit(
    flat: Pixels,
    page: Page,
    ink: NDArray[np.float32],
    blur: float,
    clock: _Clock,
) -> StyleFit | None:
    """How far the rectified photo ``flat``, blurred by ``blur`` (:func:`print_blur`), shows
    the page printed in its first line style (``None`` when too few pixels lie round its
    restyled lines to tell).

    :func:`_read_sheet` looks first at the page as the corner markers lay it, and takes the
    first style from that look only when it is plain (:meth:`StyleFit.plainly_first`): an old
    print is then refined once, on its own print, rather than first on the current one as well,
    a third of a second saved. Otherwise it looks again at the page refined on the current
    print, where the two rules lie where they are drawn (:meth:`StyleFit.first_style`). A curl
    can hide the old stroke from the first look, and a blur can make a new print's rules pass
    for it (five of 79 hard bench photos of new prints looked old there, none once registered).
    """
    with clock.step("style"):
        return fit_styles(flat, page, ink, read_px_per_mm(), blur)


def _print_of(spec: SheetSpec, number: int, page: Page, clock: _Clock) -> NDArray[np.float32]:
    """Page ``number`` of the sheet ``spec``, printed as ``page`` is, at the reading resolution:
    drawn once for a class's photos of it (:func:`~papergames.sheets.sheet.made_once`), and
    so read-only."""
    with clock.step("print"):
        return made_once(
            f"print {spec} page {number} {_printed_as(page)}", lambda: _read_only(printed(page))
        )


def _printed_as(page: Page) -> str:
    """Which way ``page``'s lines are printed: as sheets are now, or as they were first."""
    return "restyled" if restyled(page) else "as first printed"


def _read_only(array: NDArray[np.float32]) -> NDArray[np.float32]:
    array.flags.writeable = False
    return array


def _foreign_print(spec: SheetSpec) -> str:
    return (
        f"the print does not match the sheet its QR code names ('{spec}'): the code may belong "
        "to another sheet; check that the QR code is this sheet's own, or give the spec printed "
        "in this sheet's footer"
    )


def _sample(item: ReadItem, measured: Measured, k: int) -> Sample:
    absorb, fill = measured.absorb[k], measured.fill[k]
    return Sample(
        item.sampling.value,
        float(measured.coverage[k]),
        (float(absorb[0]), float(absorb[1]), float(absorb[2])),
        (float(fill[0]), float(fill[1]), float(fill[2])),
        float(measured.clarity[k]),
        float(item.region.area),
        _sides(measured, k) if item.sampling.value == "line" else None,
        float(measured.texture[k]) if measured.texture is not None else None,
        item.channel > 0,
        _told(measured.core, k),
        float(measured.core_area[k]) if measured.core_area is not None else 0.0,
        _told(measured.core_fill, k),
        stroke=_row(measured.stroke, k),
        core_tint=_row(measured.core_tint, k),
        edge_share=_told(measured.edge_share, k),
        outer=_outer(measured, k),
        middle=_told(measured.middle, k),
    )


def _row(values: NDArray[np.float64] | None, k: int) -> tuple[float, float, float] | None:
    """Item ``k``'s row of an (n, 3) measure, ``None`` where it was not measured."""
    if values is None or not np.isfinite(values[k]).all():
        return None
    return (float(values[k][0]), float(values[k][1]), float(values[k][2]))


def _beside_in_rows(
    samples: list[Sample], items: Sequence[ReadItem], in_rows: Sequence[bool]
) -> list[Sample]:
    """The samples, each score box's (``in_rows``) with the darkness of the bare boxes round
    it."""
    boxes = [k for k, in_row in enumerate(in_rows) if in_row]
    if not boxes:
        return samples
    centres = np.array([items[k].region.centroid.coords[0] for k in boxes], dtype=np.float64)
    beside = darkness_beside(
        centres,
        darkness(np.array([samples[k].fill for k in boxes], dtype=np.float64)).tolist(),
        [samples[k].coverage < GAP_PENCIL for k in boxes],
    )
    found = list(samples)
    for k, level in zip(boxes, beside, strict=True):
        found[k] = replace(samples[k], beside=level)
    return found


def _told(values: NDArray[np.float64] | None, k: int) -> float | None:
    if values is None or not np.isfinite(values[k]):
        return None
    return float(values[k])


def _outer(measured: Measured, k: int) -> tuple[tuple[float, float, float], ...] | None:
    """Line ``k``'s outer bands (:attr:`Measured.outer`), a side not seen as no pencil;
    ``None`` when neither side was seen."""
    if measured.outer is None or not np.isfinite(measured.outer[k]).any():
        return None
    found = np.nan_to_num(measured.outer[k])
    return tuple((float(r), float(g), float(b)) for r, g, b in found)


def _sides(measured: Measured, k: int) -> tuple[tuple[float, float, float], ...] | None:
    if measured.sides is None:
        return None
    return tuple((float(v[0]), float(v[1]), float(v[2])) for v in measured.sides[k])


def _fewest_seats(spec: SheetSpec) -> int:
    """How many players the sheet has at least: its printed names, or the game's fewest."""
    return len(spec.names) if spec.names else get_game(spec.game).players[0]


def _notes(
    palette: Palette, items: tuple[ReadItem, ...], decisions: Sequence[Decision]
) -> tuple[Note, ...]:
    """What the reader could not settle on this page. Two pencils that look alike are named
    only when an item read in one of them is flagged: a sheet read all surely would otherwise
    send a teacher looking for flags that are not there."""
    doubted = {d.colour for d in decisions if d.low and d.colour is not None}
    notes = [
        Note("{0} and {1} look alike here: items where they could be confused are flagged", pair)
        for pair in palette.alike
        if doubted & set(pair)
    ]
    if not palette.prototypes and items:
        notes.append(Note("no colour box is filled in: colour each player's box to read colours"))
    elif palette.strangers:
        notes.append(
            Note(
                f"{palette.strangers} items are coloured in a pencil that matches no colour box: "
                "check them. If a player's colour box is empty, colour it and read the sheet again"
            )
        )
    return tuple(notes)


def _unboxed_rows(spec: SheetSpec, palette: Palette) -> tuple[Note, ...]:
    """A note for each seat whose score row is ticked while its colour box is empty
    (:attr:`Palette.unboxed`): that player's pencil is on the sheet with nothing to tell it by.

    Example:
        >>> from papergames.photo.colours import Prototype
        >>> red = Prototype(np.array([0.1, 0.7, 0.7]), 0.9)
        >>> palette = Palette({"1": red, "2": red}, {}, (), unboxed=("3",))
        >>> notes = _unboxed_rows(SheetSpec.create("arp", seed=1), palette)
        >>> [note.text.split(":")[0] for note in notes]
        ["player 3's score row is ticked, but their colour box is empty"]
    """
    return tuple(
        Note(
            f"{_seat_called(spec, seat)}'s score row is ticked, but their colour box is empty: "
            "colour it with their pencil and read the sheet again"
        )
        for seat in palette.unboxed
    )


def _seat_called(spec: SheetSpec, seat: str) -> str:
    """A seat as the sheet prints it in its row: the player's name, else ``player <n>``."""
    number = int(seat)
    return spec.names[number - 1] if 0 < number <= len(spec.names) else f"player {seat}"


def _page_photographed(sheet: Sheet, flat: Pixels) -> int:
    """The number of the sheet's page that the rectified photo shows: the one whose print
    matches its dark ink best (all pages of a sheet share their size, markers and QR code)."""
    if len(sheet.pages) == 1:
        return 1
    dpi = 25
    small = cv2.resize(grey(flat), None, fx=0.125, fy=0.125, interpolation=cv2.INTER_AREA)
    scores = []
    for page in sheet.pages:
        ink = np.asarray(draw_page(page, dpi), dtype=np.float32)
        shot = cv2.resize(small, (ink.shape[1], ink.shape[0]), interpolation=cv2.INTER_AREA)
        scores.append(_correlation(1.0 - ink / 255.0, -np.asarray(shot, dtype=np.float32)))
    return int(np.argmax(scores)) + 1


def _correlation(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    a = a - a.mean()
    b = b - b.mean()
    norm = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / norm if norm > 0 else 0.0


def _marker_windows(
    markers: Markers,
    boxes: Mapping[str, tuple[float, float, float, float]],
    px_per_mm: float,
    shape: tuple[int, ...],
) -> list[tuple[int, int, int, int]]:
    """Each found marker's square with 2 mm of its clear surround, as rectified pixels."""
    windows = []
    for corner in markers.corners:
        x0, y0, x1, y1 = boxes[corner]
        top, left = max(0, int((y0 - 2) * px_per_mm)), max(0, int((x0 - 2) * px_per_mm))
        bottom = min(shape[0], int((y1 + 2) * px_per_mm))
        right = min(shape[1], int((x1 + 2) * px_per_mm))
        windows.append((top, bottom, left, right))
    return windows


def _quality_advice(
    markers: Markers,
    boxes: Mapping[str, tuple[float, float, float, float]],
    blur_mm: float,
    image_px_per_mm: float | None,
    limit: float,
) -> str | None:
    if blur_mm > limit:
        x0, _, x1, _ = next(iter(boxes.values()))
        photo_px_per_mm = markers.side_px() / (x1 - x0)
        if blur_mm * photo_px_per_mm < SHARP_PX:
            return (
                "the sheet is too small in the photo to see the pencil: come closer, so that "
                "the sheet fills the photo"
            )
        return "the photo is too blurred: hold the phone steady, let it focus, and take it again"
    if image_px_per_mm is None or len(markers.corners) < 2:
        return None
    found = list(markers.corners)
    centres = {c: markers.corners[c].mean(axis=0) for c in found}
    ratios = []
    for k, a in enumerate(found):
        for b in found[k + 1 :]:
            page = np.hypot(
                (boxes[a][0] + boxes[a][2] - boxes[b][0] - boxes[b][2]) / 2,
                (boxes[a][1] + boxes[a][3] - boxes[b][1] - boxes[b][3]) / 2,
            )
            seen = float(np.linalg.norm(centres[a] - centres[b])) / image_px_per_mm
            ratios.append(seen / page)
    scale = float(np.median(ratios))
    if abs(scale - 1.0) > SCALE_TOLERANCE:
        return (
            f"the sheet was printed at {scale:.0%} of its size: print it at 100 % "
            "(actual size, not fit to page) and play on that print"
        )
    return None
