"""The photo reader's accuracy invariants: what it reads is right or flagged, never wrong and sure.

A finished sheet is made from a seed (:mod:`papergames.photo.synthetic`), photographed as a scan
and read back; the truth is known item by item. The reader may be unsure of an item, but then it
must say so, so that the sheet is called ``check these`` rather than ``consistent``. The parts
that make this hold (the paper's white, a stray touch in a score box, a traced line gone over
several times) are checked on their own below.
"""

from __future__ import annotations

import dataclasses
import math
from functools import cache, partial

import numpy as np
import pytest

from papergames.photo.camera import TIERS, photograph
from papergames.photo.colours import PRESENCE, TRACED_COVERAGE, Prototype, Sample, read_colours
from papergames.photo.copier import photocopy
from papergames.photo.image import images_from_bytes
from papergames.photo.mixtures import layered_angle
from papergames.photo.outcome import CONSISTENT, judge_reading
from papergames.photo.paper import Paper, paper_of, smoothed
from papergames.photo.pencil import PENCILS
from papergames.photo.read import PageReading, read_page
from papergames.photo.sample import Regions, _line_absorbance, _print_light, _strip_pixels
from papergames.photo.synthetic import FinishedSheet, finished_sheet
from papergames.play.final import MARKED
from papergames.sheets.spec import SheetSpec


def scan_of(
    sheet: FinishedSheet, rng: np.random.Generator, name: str, tier: str = "scan"
) -> PageReading:
    """The reading of a scan of ``sheet`` (or a photo of another ``tier``), made with ``rng``."""
    photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS[tier], rng)
    opened = images_from_bytes(photo.data, name)[0]
    return read_page(opened.pixels, opened.source)


@cache
def scanned(game: str, seed: int) -> tuple[FinishedSheet, PageReading]:
    rng = np.random.default_rng([seed, 77])
    sheet = finished_sheet(SheetSpec.create(game, seed=seed), rng)
    return sheet, scan_of(sheet, rng, f"{game}-{seed}.jpg")


def sure_wrong(sheet: FinishedSheet, reading: PageReading) -> list[str]:
    """The items read wrong without a flag, with what they were read as and what they are."""
    return [
        f"{item.id}: read {item.colour}, is {sheet.truth.get(item.id)}"
        for item in reading.items
        if not item.low and item.colour != sheet.truth.get(item.id)
    ]


SCANS = [("mondrian", 21), ("vasarely", 22), ("springer", 23), ("klee", 24), ("delaunay", 25)]


@pytest.mark.parametrize(("game", "seed"), SCANS)
def test_every_item_of_a_scan_is_read_right_or_flagged(game: str, seed: int) -> None:
    sheet, reading = scanned(game, seed)
    assert reading.retake is None
    assert sure_wrong(sheet, reading) == []


@pytest.mark.parametrize(("game", "seed"), SCANS)
def test_a_sheet_read_with_any_error_is_never_called_consistent(game: str, seed: int) -> None:
    sheet, reading = scanned(game, seed)
    errors = [item for item in reading.items if item.colour != sheet.truth.get(item.id)]
    if errors:
        assert judge_reading(reading).outcome != CONSISTENT


def test_a_space_hatched_too_lightly_for_the_detector_is_flagged_not_called_empty() -> None:
    # a light hand on 40 % of the spaces: one of this sheet's is pressed so lightly that the
    # detector finds its pencil on 7 % of it, though its core is tinted in its colour
    rng = np.random.default_rng([1000, 4])
    sheet = finished_sheet(SheetSpec.create("mondrian", seed=1000), rng, graphite=True, light=0.4)
    assert sure_wrong(sheet, scan_of(sheet, rng, "mondrian-light.jpg")) == []


@pytest.mark.parametrize(("game", "seed"), [("springer", 31), ("miro", 32)])
def test_seats_that_press_lightly_throughout_are_read_right_or_flagged(
    game: str, seed: int
) -> None:
    """Every seat presses at a third to a half of a usual hand's pressure, colour box included:
    the pencils are learnt pale from their boxes, and the field is read against them."""
    rng = np.random.default_rng([seed, 78])
    sheet = finished_sheet(SheetSpec.create(game, seed=seed), rng, faint=1.0)
    assert sheet.faint
    reading = scan_of(sheet, rng, f"{game}-faint.jpg")
    assert reading.retake is None
    faint = [item for item in reading.items if sheet.truth.get(item.id) in sheet.faint]
    right = [item for item in faint if item.colour == sheet.truth.get(item.id)]
    assert sure_wrong(sheet, reading) == []
    assert len(right) >= 0.98 * len(faint)


def test_lines_traced_beside_a_grey_stroke_are_read_right_or_flagged() -> None:
    """A Miro sheet printed the first way (one grey stroke), 7 lines in 10 traced beside the
    stroke, scanned: the traces that lie past the band are read from beside it, and the short
    lines that only the crossings' traces reach into are not called traced. Before, four empty
    lines of this sheet were read surely in a crossing line's colour."""
    rng = np.random.default_rng([1001, 4])
    spec = SheetSpec.create("miro", seed=1001)
    sheet = finished_sheet(spec, rng, graphite=0.3, first_style=True, beside=0.7)
    assert sure_wrong(sheet, scan_of(sheet, rng, "miro-beside.jpg")) == []


def test_a_photocopied_sheet_printed_the_first_way_reads_the_prints_grey_as_no_pencil() -> None:
    """A Miro sheet printed the first way (one grey stroke), photocopied: the copier's screen
    prints some lines darker than the page's excess grey, and one player's pencil lies 8
    degrees from grey. Before, 17 empty lines of this sheet were read surely in that pencil."""
    rng = np.random.default_rng([1007, 4])
    copied = partial(photocopy, copier=TIERS["copy"].copier)
    spec = SheetSpec.create("miro", seed=1007)
    sheet = finished_sheet(spec, rng, graphite=0.3, first_style=True, printed=copied)
    assert sure_wrong(sheet, scan_of(sheet, rng, "miro-copy.jpg", "copy")) == []


YELLOW_AND_BLUE_BOXES = [
    Sample("box", 0.9, (0.05, 0.18, 0.98), (0.05, 0.18, 0.98)),
    Sample("box", 0.9, (0.84, 0.54, 0.08), (0.84, 0.54, 0.08)),
]
"""Two colour boxes, yellow for seat 1 and blue for seat 2."""


def _faint_yellow(core_area: float, core_tint: tuple[float, float, float]) -> Sample:
    """A space hatched in yellow so lightly that the detector finds pencil on 12 % of it and
    none of its core, whose core is ``core_area`` mm² and tinted by ``core_tint``."""
    return Sample(
        "area",
        0.12,
        (0.02, 0.045, 0.11),
        (0.0, 0.01, 0.035),
        core=0.0,
        core_area=core_area,
        core_fill=0.02,
        core_tint=core_tint,
    )


def test_a_core_tinted_as_a_pencil_puts_an_empty_reading_in_doubt_and_grey_does_not() -> None:
    faint = _faint_yellow(40.0, (-0.008, -0.003, 0.011))
    grey = dataclasses.replace(faint, absorb=(0.05, 0.05, 0.05), core_tint=(0.0, 0.0, 0.0))
    faintly_tinted = dataclasses.replace(faint, core_tint=(-0.002, -0.001, 0.003))
    _, decisions = read_colours(
        [*YELLOW_AND_BLUE_BOXES, faint, grey, faintly_tinted], ["1", "2", None, None, None]
    )
    assert decisions[2].low and decisions[2].colour == "1"
    assert not decisions[3].low and decisions[3].colour is None
    assert not decisions[4].low and decisions[4].colour is None


def test_a_core_tinted_plainly_in_its_pencils_hue_settles_a_light_hatching() -> None:
    # the detector found too little of this hatching to be sure, but its core is tinted twice as
    # much as an empty space's ever is, in yellow's hue: it is yellow, with no need for a look
    light = _faint_yellow(35.0, (-0.012, -0.008, 0.02))
    # as strong, but in a hue that is neither pencil's: given to neither
    off_hue = _faint_yellow(40.0, (-0.012, 0.02, -0.008))
    # in yellow's hue, more than an empty space's core is tinted but too little to settle it:
    # in doubt, over a large core and a small one alike (a pale seat's light hatching of a
    # small space is read so; an empty space's small core is tinted no more than a large one)
    weak = _faint_yellow(40.0, (-0.006, -0.004, 0.01))
    weak_small = _faint_yellow(20.0, (-0.006, -0.004, 0.01))
    # a small core tinted as little as an empty space's may be: surely empty
    bare_small = _faint_yellow(20.0, (-0.002, -0.001, 0.003))
    _, decisions = read_colours(
        [*YELLOW_AND_BLUE_BOXES, light, off_hue, weak, weak_small, bare_small],
        ["1", "2", None, None, None, None, None],
    )
    assert decisions[2].colour == "1" and not decisions[2].low
    assert decisions[3].colour is None
    assert decisions[4].low and decisions[4].colour == "1"
    assert decisions[5].low and decisions[5].colour == "1"
    assert decisions[6].colour is None and not decisions[6].low


def test_a_scan_is_mostly_read_without_doubt() -> None:
    flagged = total = 0
    for game, seed in SCANS:
        _, reading = scanned(game, seed)
        flagged += sum(item.low for item in reading.items)
        total += len(reading.items)
    assert flagged <= 0.02 * total


def _hatched_page(level: float, dark: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 200 x 200 px page of paper at ``level`` whose middle 140 px are hatched with stripes
    ``dark`` times as bright as the paper (a field coloured wall to wall), and the mask of
    where no item lies (the margin)."""
    page = np.full((200, 200, 3), level, dtype=np.float32)
    stripes = (np.arange(200) % 6 < 4)[None, :] & np.ones((200, 1), dtype=bool)
    middle = np.zeros((200, 200), dtype=bool)
    middle[30:170, 30:170] = True
    page[middle & stripes] *= dark
    noise = np.random.default_rng(3).normal(0.0, 1.5, page.shape)
    pixels = np.clip(page + noise, 0, 255).astype(np.uint8)
    return pixels, middle, ~middle


def test_a_field_hatched_wall_to_wall_is_not_taken_for_paper() -> None:
    pixels, middle, free = _hatched_page(230.0, 0.55)
    paper = paper_of(smoothed(pixels), np.ones(middle.shape, dtype=bool), 8.0, free)
    inside = paper.white[middle]
    assert np.abs(inside - 230.0).max() < 0.04 * 230.0


def test_paper_white_follows_a_shadow_across_an_empty_area() -> None:
    light = np.linspace(1.0, 0.6, 200, dtype=np.float32)[None, :, None]
    page = np.full((200, 200, 3), 220.0, dtype=np.float32) * light
    noise = np.random.default_rng(4).normal(0.0, 1.5, page.shape)
    pixels = np.clip(page + noise, 0, 255).astype(np.uint8)
    free = np.ones((200, 200), dtype=bool)
    free[30:170, 30:170] = False
    paper = paper_of(smoothed(pixels), np.ones((200, 200), dtype=bool), 8.0, free)
    error = np.abs(paper.white[40:160, 40:160] - page[40:160, 40:160]) / page[40:160, 40:160]
    assert float(error.max()) < 0.05


def test_paper_white_on_empty_spaces_ringed_by_hatching_in_a_shadow_is_their_own() -> None:
    """A shadow over a field hatched but for an island of empty spaces in its middle: the
    island's paper is two fifths darker than the free paper the white first comes from, and no
    smooth path of paper leads to it through the hatching, yet its white is its own. Before,
    the island was refused as paper and every space on it read as grey pencil (Delaunay, hard
    photos of the independent set's scans, ``bench/rephotograph.py``)."""
    size = 400  # 50 mm at 8 px/mm
    truth = np.full((size, size, 3), 220.0, dtype=np.float32)
    truth[:, 200:] *= 0.6  # the shadow over the field
    field = np.zeros((size, size), dtype=bool)
    field[:, 190:] = True
    island = (slice(120, 280), slice(240, 360))  # 20 by 15 mm of empty spaces
    hatched = field.copy()
    hatched[island] = False
    stripes = (np.arange(size) % 6 < 4)[None, :]
    page = truth * np.where(hatched & stripes, 0.55, 1.0)[:, :, None]
    noise = np.random.default_rng(9).normal(0.0, 1.5, page.shape)
    pixels = np.clip(page + noise, 0, 255).astype(np.uint8)
    paper = paper_of(smoothed(pixels), np.ones((size, size), dtype=bool), 8.0, ~field)
    inside = (slice(136, 264), slice(256, 344))
    assert float((np.abs(paper.white[inside] - truth[inside]) / truth[inside]).max()) < 0.05


def test_paper_white_over_a_box_ringed_by_hatching_comes_from_the_paper_beside_it() -> None:
    # 50 mm at 8 px/mm, lit from the left: the right half is hatched wall to wall but for four
    # patches of bare paper round a hatched box; the left half is free paper, brighter
    size = 400
    light = np.linspace(1.0, 0.85, size, dtype=np.float32)[None, :, None]
    truth = np.full((size, size, 3), 220.0, dtype=np.float32) * light
    hatched = np.zeros((size, size), dtype=bool)
    hatched[:, 200:] = True
    for y, x in ((176, 224), (176, 320), (128, 272), (224, 272)):
        hatched[y : y + 48, x : x + 48] = False
    stripes = (np.arange(size) % 6 < 4)[None, :]
    page = truth * np.where(hatched & stripes, 0.55, 1.0)[:, :, None]
    noise = np.random.default_rng(8).normal(0.0, 1.5, page.shape)
    pixels = np.clip(page + noise, 0, 255).astype(np.uint8)
    free = np.zeros((size, size), dtype=bool)
    free[:, :190] = True
    paper = paper_of(smoothed(pixels), np.ones((size, size), dtype=bool), 8.0, free)
    box = (slice(178, 222), slice(274, 318))
    assert float((np.abs(paper.white[box] - truth[box]) / truth[box]).max()) < 0.04


def test_a_faint_touch_in_a_score_box_is_not_a_tally() -> None:
    red = (0.2, 0.7, 0.7)
    legend = Sample("box", 0.9, red, red)
    marks = [Sample("box", 0.3, (0.08, 0.3, 0.3), (0.02, 0.1, 0.1)) for _ in range(6)]
    faint = Sample("box", 0.3, (0.016, 0.06, 0.06), (0.005, 0.02, 0.02))
    _, decisions = read_colours([legend, *marks, faint], ["1", *[None] * 6, None])
    assert [d.colour for d in decisions[1:-1]] == ["1"] * 6
    assert decisions[-1].colour is None


def test_a_light_thin_stroke_across_a_score_box_is_read_as_a_stray_and_flagged() -> None:
    red = (0.2, 0.7, 0.7)
    legend = Sample("box", 0.9, red, red)
    usual = np.array([0.08, 0.3, 0.3])
    marks = [Sample("box", 0.6, tuple(usual), tuple(usual / 3)) for _ in range(6)]

    def mark(coverage: float, strength: float) -> Sample:
        return Sample("box", coverage, tuple(usual * strength), tuple(usual * strength / 3))

    stray, light_tally, thin_tally = mark(0.25, 0.55), mark(0.5, 0.6), mark(0.25, 1.0)
    doubtful = mark(0.37, 0.6)
    samples = [legend, *marks, stray, light_tally, thin_tally, doubtful]
    _, decisions = read_colours(samples, ["1", *[None] * 10])
    assert [d.colour for d in decisions[1:7]] == ["1"] * 6
    assert decisions[7].colour is None and decisions[7].low
    assert decisions[8].colour == "1" and not decisions[8].low
    assert decisions[9].colour == "1" and not decisions[9].low
    assert decisions[10].colour == "1" and decisions[10].low


@pytest.mark.parametrize("layers", [1, 2, 3, 4])
def test_a_line_gone_over_again_and_again_still_fits_its_pencil(layers: int) -> None:
    absorb = np.array([0.2, 0.75, 0.75])
    prototype = Prototype(absorb / np.linalg.norm(absorb), float(np.linalg.norm(absorb)))
    laid = 1.0 - (1.0 - 0.8 * absorb) ** layers
    assert layered_angle(laid / np.linalg.norm(laid), prototype) < 1.0


RGBShare = tuple[float, float, float]


def _prototype(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """A pencil's absorbance as laid firmly in its colour box."""
    r, g, b = (1.0 - c / 255.0 for c in rgb)
    return (r, g, b)


def _line(pencil: tuple[float, float, float]) -> Sample:
    """A line traced firmly in ``pencil``."""
    r, g, b = (0.5 * c for c in pencil)
    return Sample("line", 1.0, (r, g, b), (r, g, b))


def _page_of_two(first: RGBShare, second: RGBShare, line: RGBShare) -> list[Sample]:
    """Two colour boxes, five lines laid right on each of their pencils, then ``line``."""
    legends = [Sample("box", 0.9, first, first), Sample("box", 0.9, second, second)]
    laid = [_line(first)] * 5 + [_line(second)] * 5
    return [*legends, *laid, Sample("line", 1.0, line, line)]


def _layered_angles(line: RGBShare, *pencils: RGBShare) -> list[float]:
    """The angle from a line's colour to each pencil as laid in layers."""
    direction = np.asarray(line) / np.linalg.norm(line)
    return [
        layered_angle(direction, Prototype(np.asarray(p) / np.linalg.norm(p), np.linalg.norm(p)))
        for p in pencils
    ]


def test_a_line_read_between_two_look_alike_pencils_is_flagged() -> None:
    green, light_blue = _prototype(PENCILS["green"]), _prototype(PENCILS["light blue"])
    mixed = (0.294, 0.203, 0.18)  # a light blue trace greyed by what lies under it
    near, far = _layered_angles(mixed, light_blue, green)
    assert near > 3 * 1.5 and far - near < near / 3  # far off both, hardly nearer one
    _, decisions = read_colours(_page_of_two(green, light_blue, mixed), ["1", "2", *[None] * 11])
    assert all(not d.low for d in decisions[2:-1])  # the page's lines read surely
    assert decisions[-1].low


def test_a_grey_pencils_marks_are_read_surely_beside_a_tinted_pencil() -> None:
    graphite, light_blue = _prototype(PENCILS["graphite"]), _prototype(PENCILS["light blue"])
    legends = [Sample("box", 0.9, graphite, graphite), Sample("box", 0.9, light_blue, light_blue)]
    # graphite marks, their faint tint tipped towards light blue's by the photo's noise
    marks = [Sample("box", 0.6, (0.203 + 0.002 * k, 0.199, 0.196), (0.1,) * 3) for k in range(6)]
    hatched = Sample("area", 1.0, (0.226, 0.22, 0.215), (0.2,) * 3, texture=13.0)
    _, decisions = read_colours([*legends, *marks, hatched], ["1", "2", *[None] * 7])
    assert [d.colour for d in decisions[2:]] == ["1"] * 7
    assert not any(d.low for d in decisions[2:])


def test_a_graphite_line_beside_a_dark_pencil_gone_over_is_read_surely() -> None:
    green = (0.55, 0.36, 0.5)  # a dark green as laid in its colour box
    graphite = (0.38, 0.377, 0.368)
    trace = (0.463, 0.461, 0.453)  # graphite gone over three times
    assert _layered_angles(trace, green)[0] < 4.0
    _, decisions = read_colours(_page_of_two(green, graphite, trace), ["1", "2", *[None] * 11])
    assert decisions[-1].colour == "2"
    assert not decisions[-1].low


def test_a_shadow_over_an_empty_box_is_not_read_surely_as_graphite() -> None:
    graphite, light_blue = _prototype(PENCILS["graphite"]), _prototype(PENCILS["light blue"])
    legends = [Sample("box", 0.9, graphite, graphite), Sample("box", 0.9, light_blue, light_blue)]
    marks = [Sample("box", 0.6, (0.2, 0.198, 0.195), (0.1,) * 3, texture=12.0)] * 6
    shaded = Sample("box", 0.9, (0.2, 0.2, 0.2), (0.2,) * 3, texture=1.1)  # even and grey
    _, decisions = read_colours([*legends, *marks, shaded], ["1", "2", *[None] * 7])
    assert not any(d.low for d in decisions[2:-1])
    assert decisions[-1].low


def _turned(vector: tuple[float, float, float], degrees: float, seed: int) -> Sample:
    """A hatched area in ``vector``'s pencil, its colour turned ``degrees`` off (a noisy photo)."""
    v = np.asarray(vector)
    other = np.random.default_rng(seed).normal(size=3)
    other -= (other @ v) / (v @ v) * v
    turn = np.radians(degrees)
    w = np.cos(turn) * v + np.sin(turn) * np.linalg.norm(v) * other / np.linalg.norm(other)
    r, g, b = (float(c) for c in 0.5 * w)
    return Sample("area", 0.9, (r, g, b), (r, g, b), texture=8.0)


def test_a_dull_pencil_on_a_noisy_photo_is_not_taken_for_a_grey_one() -> None:
    purple, red = _prototype(PENCILS["purple"]), _prototype(PENCILS["red"])
    legends = [Sample("box", 0.9, purple, purple), Sample("box", 0.9, red, red)]
    areas = [_turned(purple, 6.0, k) for k in range(6)] + [_turned(red, 6.0, k) for k in range(6)]
    _, decisions = read_colours([*legends, *areas], ["1", "2", *[None] * 12])
    assert [d.colour for d in decisions[2:]] == ["1"] * 6 + ["2"] * 6
    assert not any(d.low for d in decisions[2:])


def _traced_over_hatching(strip_seen: tuple[bool, bool]) -> tuple[np.ndarray, float]:
    """A line's trace read by the sampler on a page made for it: a light blue trace laid
    over dense red hatching on the printed grey line, on the line's left, and over the grey
    print alone on its right; the strips beyond hold the hatching alone (or nothing). Returns
    the trace's absorbance read and its clarity."""
    white = 230.0
    hatch = 1.0 - 0.8 * np.asarray(_prototype(PENCILS["red"]))  # light let through, per channel
    trace = 1.0 - 0.7 * np.asarray(_prototype(PENCILS["light blue"]))
    page = np.full((40, 20, 3), white, dtype=np.float32)
    page[0:10] *= 0.5 * hatch * trace  # the band on the left: the trace over the hatching
    page[10:20] *= 0.5 * trace  # the band on the right: the trace on the print
    page[20:30] *= hatch  # the strip on the left: the hatching alone
    bands = np.zeros((40, 20), dtype=np.int32)
    bands[0:10], bands[10:20] = 1, 2
    strips = np.zeros((40, 20), dtype=np.int32)
    strips[20:30], strips[30:40] = 1, 2
    none = np.zeros_like(bands)
    regions = Regions(none, bands, strips, none, none.astype(bool))
    paper = Paper(np.full((40, 20, 3), white, dtype=np.float32), np.ones((40, 20), dtype=bool))
    found = _strip_pixels(regions, np.ones((40, 20), dtype=bool), 3)
    seen = np.array([False, *strip_seen])
    found = dataclasses.replace(found, seen=seen)
    ink = np.ones((40, 20), dtype=np.float32)
    ink[0:20] = 0.5  # the printed line, grey, under both bands
    absorb, clarity, _, _ = _line_absorbance(page, paper, _print_light(ink, 0.3), regions, found, 1)
    return absorb[0], float(clarity[0])


def test_a_trace_over_another_colours_hatching_keeps_its_own_colour() -> None:
    absorb, clarity = _traced_over_hatching((True, False))
    laid = 0.7 * np.asarray(_prototype(PENCILS["light blue"]))
    angle = np.degrees(np.arccos(absorb @ laid / np.linalg.norm(absorb) / np.linalg.norm(laid)))
    assert angle < 1.0
    assert 0.0 < clarity < 0.5  # only the hatched side's strip was seen


def test_a_line_whose_neighbours_cannot_be_seen_is_not_read_surely() -> None:
    _, clarity = _traced_over_hatching((False, False))
    assert clarity == 0.0
    light_blue = _prototype(PENCILS["light blue"])
    legends = [Sample("box", 0.9, light_blue, light_blue)]
    laid = [_line(light_blue)] * 8
    blind = dataclasses.replace(_line(light_blue), clarity=clarity)
    _, decisions = read_colours([*legends, *laid, blind], ["1", *[None] * 9])
    assert not any(d.low for d in decisions[1:-1])
    assert decisions[-1].colour == "1" and decisions[-1].low


def test_a_line_read_empty_whose_band_holds_the_hatching_beside_it_is_not_sure() -> None:
    """Hatching that ran over a line may cover its trace, and a trace in the hatching's own
    colour adds little to it: the band, less the hatching beyond, reads empty, but the band
    itself holds pencil. A line whose band is bare paper between the same hatched spaces is
    surely empty."""
    light_blue = _prototype(PENCILS["light blue"])
    density = tuple(-math.log(1.0 - 0.6 * c) for c in light_blue)
    bare = (0.0, 0.0, 0.0)
    legends = [Sample("box", 0.9, light_blue, light_blue)]
    laid = [_line(light_blue)] * 8
    covered = Sample("line", 0.0, bare, bare, clarity=0.7, sides=(density,) * 4)
    clear = Sample("line", 0.0, bare, bare, clarity=0.7, sides=(bare, bare, density, density))
    _, decisions = read_colours([*legends, *laid, covered, clear], ["1", *[None] * 10])
    assert decisions[-2].low
    assert decisions[-1].colour is None and not decisions[-1].low


def test_an_area_greyed_by_a_misjudged_white_keeps_its_pencil() -> None:
    names = ("red", "blue", "yellow", "green")
    pencils = [_prototype(PENCILS[name]) for name in names]
    legends = [Sample("box", 0.9, p, p) for p in pencils]
    areas = [_turned(p, 0.5, k) for k, p in enumerate(pencils) for _ in range(3)]
    red = 0.5 * np.asarray(pencils[0])
    grey = red + 0.4 * np.linalg.norm(red) / np.sqrt(3.0)  # a white judged too bright
    r, g, b = (float(c) for c in grey)
    greyed = Sample("area", 0.9, (r, g, b), (r, g, b), texture=8.0)
    keys = [str(k + 1) for k in range(4)]
    _, decisions = read_colours([*legends, *areas, greyed], [*keys, *[None] * 13])
    assert [d.colour for d in decisions[4:-1]] == [k for k in keys for _ in range(3)]
    assert decisions[-1].colour == "1"
    assert not decisions[-1].low


def test_an_area_just_short_of_hatched_is_not_called_empty_surely() -> None:
    yellow = _prototype(PENCILS["yellow"])
    legends = [Sample("box", 0.9, yellow, yellow)]
    low, high = PRESENCE["area"]
    hatched = Sample("area", low + 0.45 * (high - low), yellow, yellow, texture=5.0)
    bare = Sample("area", low, (0.01, 0.01, 0.01), (0.0,) * 3, texture=1.0)
    _, decisions = read_colours([*legends, hatched, bare], ["1", None, None])
    # In doubt, and read in the colour its pencil shows, the likelier reading for a person to see.
    assert decisions[1].colour == "1" and decisions[1].low
    assert decisions[2].colour is None and not decisions[2].low


def _white_error_in_field(page: np.ndarray, noise: float, seed: int) -> float:
    """The largest error of the paper's white found inside a 120 mm field of empty spaces, on a
    ``page`` 150 mm square at 4 px/mm whose 15 mm margin is free paper."""
    size = page.shape[0]
    pixels = np.random.default_rng(seed).normal(0.0, noise, page.shape) + page
    free = np.ones((size, size), dtype=bool)
    free[60:-60, 60:-60] = False
    clear = np.ones((size, size), dtype=bool)
    paper = paper_of(smoothed(np.clip(pixels, 0, 255).astype(np.uint8)), clear, 4.0, free)
    inside = (slice(80, -80), slice(80, -80))
    return float((np.abs(paper.white[inside] - page[inside]) / page[inside]).max())


def test_paper_white_follows_a_shadow_into_the_middle_of_a_wide_empty_field() -> None:
    x = np.arange(600, dtype=np.float32)
    light = 1.0 - 0.3 * np.exp(-(((x - 360.0) / 72.0) ** 2))
    page = np.full((600, 600, 3), 220.0, dtype=np.float32) * light[None, :, None]
    assert _white_error_in_field(page, 1.5, 5) < 0.06


def test_a_faint_hatching_in_dim_light_is_not_grown_into_as_paper() -> None:
    # thin strokes a quarter darker, one pixel in three: the cells' upper quantile is paper
    # level, but the strokes still show at their own scale
    page = np.full((200, 200, 3), 110.0, dtype=np.float32)
    middle = np.zeros((200, 200), dtype=bool)
    middle[30:170, 30:170] = True
    strokes = (np.arange(200) % 3 == 0)[None, :] & middle
    page[strokes] *= 0.75
    noise = np.random.default_rng(6).normal(0.0, 3.0, page.shape)
    pixels = np.clip(page + noise, 0, 255).astype(np.uint8)
    paper = paper_of(smoothed(pixels), np.ones((200, 200), dtype=bool), 8.0, ~middle)
    assert not paper.bare[middle[::3, ::3]].any()


def test_paper_white_follows_a_deep_shadow_band_from_the_margins_into_the_field() -> None:
    y = np.arange(600, dtype=np.float32)  # a band taking 55 % of the light, margin to margin
    light = 1.0 - 0.55 * np.exp(-(((y - 300.0) / 60.0) ** 2))
    page = np.full((600, 600, 3), 200.0, dtype=np.float32) * light[:, None, None]
    assert _white_error_in_field(page, 2.0, 7) < 0.08


def test_a_colour_greyed_past_the_slack_is_named_by_its_tint_and_flagged() -> None:
    names = ("graphite", "purple", "light blue")
    pencils = [_prototype(PENCILS[name]) for name in names]
    legends = [Sample("box", 0.9, p, p) for p in pencils]
    areas = [_turned(p, 0.5, k) for k, p in enumerate(pencils) for _ in range(3)]
    purple = 0.4 * np.asarray(pencils[1])
    greyed = purple * 0.5 + 0.5  # half the light was taken for pencil: a shadow not followed
    r, g, b = (float(c) for c in greyed)
    _, decisions = read_colours(
        [*legends, *areas, Sample("area", 1.0, (r, g, b), (r, g, b), texture=2.0)],
        ["1", "2", "3", *[None] * 10],
    )
    assert [d.colour for d in decisions[3:-1]] == [k for k in ("1", "2", "3") for _ in range(3)]
    assert decisions[-1].colour == "2"
    assert decisions[-1].low


def test_an_item_found_empty_but_darkened_as_a_mark_is_flagged() -> None:
    red = (0.2, 0.7, 0.7)
    legend = Sample("box", 0.9, red, red)
    marks = [Sample("box", 0.6, (0.16, 0.56, 0.56), (0.1, 0.35, 0.35)) for _ in range(6)]
    unfound = Sample("box", 0.02, (0.16, 0.56, 0.56), (0.05, 0.15, 0.15))  # faint, noisy photo
    bare = Sample("box", 0.01, (0.02, 0.02, 0.02), (0.005, 0.005, 0.005))
    _, decisions = read_colours([legend, *marks, unfound, bare], ["1", *[None] * 8])
    assert decisions[-2].colour is None and decisions[-2].low
    assert decisions[-1].colour is None and not decisions[-1].low


def test_a_tally_far_from_every_colour_is_not_named_surely_by_the_nearer() -> None:
    brown = (0.81 * 0.47, 0.81 * 0.59, 0.81 * 0.66)
    orange = (0.79 * 0.09, 0.79 * 0.56, 0.79 * 0.82)
    legends = [Sample("box", 1.0, brown, brown), Sample("box", 1.0, orange, orange)]
    marks = [
        dataclasses.replace(_turned(p, 1.5, k), sampling="box", coverage=0.7)
        for k, p in enumerate([brown, orange] * 4)
    ]
    # an orange mark mixed with the box's print and a shadow: 8 degrees from brown, 10 from orange
    odd = Sample("box", 0.6, (0.124, 0.185, 0.3), (0.07, 0.1, 0.17))
    _, decisions = read_colours([*legends, *marks, odd], ["1", "2", *[None] * 9])
    assert [d.colour for d in decisions[2:-1]] == ["1", "2"] * 4
    assert not any(d.low for d in decisions[2:-1])
    assert decisions[-1].low


def test_graphite_hatching_in_a_shadow_is_read_surely_and_an_even_grey_is_not() -> None:
    graphite, light_blue = _prototype(PENCILS["graphite"]), _prototype(PENCILS["light blue"])
    legends = [Sample("box", 0.9, graphite, graphite), Sample("box", 0.9, light_blue, light_blue)]
    grey = (0.3, 0.297, 0.294)
    hatched = [Sample("area", 1.0, grey, grey, texture=1.35) for _ in range(6)]  # strokes dimmed
    even = Sample("area", 1.0, grey, grey, texture=1.05)  # a shadow the white did not follow
    _, decisions = read_colours([*legends, *hatched, even], ["1", "2", *[None] * 7])
    assert [d.colour for d in decisions[2:-1]] == ["1"] * 6
    assert not any(d.low for d in decisions[2:-1])
    assert decisions[-1].low


def test_a_line_hardly_nearer_one_of_two_look_alike_pencils_is_flagged() -> None:
    """On a dim photo light blue and blue lay 6 degrees apart in their colour boxes, and a light
    blue trace, laid in layers, leant 2-4 degrees towards blue: it must not be read as blue
    surely. A line lying right on either pencil still is."""
    light_blue, blue = (0.29, 0.174, 0.052), (0.47, 0.378, 0.195)
    leaning = (0.437, 0.316, 0.155)  # a light blue trace gone over on a dim photo
    to_light_blue, to_blue = _layered_angles(leaning, light_blue, blue)
    assert 0 < to_light_blue - to_blue < 2.5, "nearer blue, but hardly"
    page = _page_of_two(light_blue, blue, leaning)
    palette, decisions = read_colours(page, ["1", "2", *[None] * 11])
    assert palette.look_alike("1", "2")
    assert all(not d.low for d in decisions[2:-1]), "lines on their pencils are read surely"
    assert decisions[-1].colour == "2" and decisions[-1].low


def test_a_trace_deep_down_a_channel_hardly_nearer_another_pencil_is_flagged() -> None:
    """On a photocopy light blue and blue lay 15 degrees apart in their colour boxes, too far
    apart to be look-alikes, yet a light blue traced six layers deep down a line's channel lay
    2.4 degrees from blue and 5.5 from light blue: it must not be read as blue surely. Lines
    lying right on a pencil still are."""
    light_blue = (0.291 * 0.856, 0.291 * 0.474, 0.291 * 0.204)
    blue = (1.042 * 0.703, 1.042 * 0.608, 1.042 * 0.369)
    deep = (0.794, 0.62, 0.406)

    def channel(absorb: tuple[float, ...]) -> Sample:
        r, g, b = absorb
        return Sample("line", 1.0, (r, g, b), (r, g, b), channel=True)

    boxes = [Sample("box", 0.9, light_blue, light_blue), Sample("box", 0.9, blue, blue)]
    scatter = [(0.02, -0.02, 0.0), (-0.02, 0.02, 0.01), (0.0, 0.02, -0.02), (0.01, -0.01, 0.02)]
    lines = [
        channel(tuple(depth * c + d for c, d in zip(pencil, tilt, strict=True)))
        for pencil, depth in ((light_blue, 2.5), (blue, 1.0))
        for tilt in scatter
    ]
    palette, decisions = read_colours([*boxes, *lines, channel(deep)], ["1", "2", *[None] * 9])
    assert not palette.look_alike("1", "2")
    assert all(not d.low for d in decisions[2:-1]), "lines on their pencils are read surely"
    assert decisions[-1].colour == "2" and decisions[-1].low


def _graphite_page(second: RGBShare) -> tuple[list[Sample], list[bool]]:
    """A purple and a ``second`` colour box, six purple tallies, then six graphite ticks: all
    in seats' rows of a score area."""
    purple = _prototype(PENCILS["purple"])
    graphite = _prototype(PENCILS["graphite"])
    legends = [Sample("box", 0.9, purple, purple), Sample("box", 0.9, second, second)]

    def tick(pencil: RGBShare) -> Sample:
        laid = tuple(0.6 * c for c in pencil)
        return Sample("box", 0.6, (laid[0], laid[1], laid[2]), (laid[0], laid[1], laid[2]))

    samples = [*legends, *[tick(purple)] * 6, *[tick(graphite)] * 6]
    return samples, [False, False, *[True] * 12]


def test_a_tally_ticked_in_graphite_is_its_rows_mark_not_the_nearest_colour() -> None:
    samples, in_rows = _graphite_page(_prototype(PENCILS["yellow"]))
    _, decisions = read_colours(samples, ["1", "2", *[None] * 12], in_rows)
    assert [d.colour for d in decisions[2:8]] == ["1"] * 6
    assert all(d.colour == MARKED and not d.low for d in decisions[8:])
    _, outside_rows = read_colours(samples, ["1", "2", *[None] * 12])
    assert all(d.colour == "1" for d in outside_rows[8:]), "elsewhere graphite is no colour"


def test_graphite_is_no_mark_of_its_own_when_a_player_plays_it() -> None:
    samples, in_rows = _graphite_page(_prototype(PENCILS["graphite"]))
    _, decisions = read_colours(samples, ["1", "2", *[None] * 12], in_rows)
    assert all(d.colour == "2" for d in decisions[8:])


def test_a_faint_trace_covering_most_of_its_line_is_not_surely_empty() -> None:
    yellow = _prototype(PENCILS["yellow"])
    page = _page_of_two(yellow, _prototype(PENCILS["blue"]), (0.004, 0.01, 0.02))
    bare = Sample("line", 0.02, (0.004, 0.01, 0.02), (0.0, 0.0, 0.0))
    covered = dataclasses.replace(page[-1], coverage=0.6)
    _, decisions = read_colours([*page[:-1], bare, covered], ["1", "2", *[None] * 12])
    assert decisions[-2].colour is None and not decisions[-2].low
    assert decisions[-1].colour is None and decisions[-1].low


def test_a_hatching_far_from_its_box_but_plainly_nearest_it_is_read_surely() -> None:
    green, red = (0.7, 0.22, 0.66), (0.08, 0.72, 0.68)
    off = (0.16, 0.11, 0.2)  # a light green hatching of another make: 11 degrees off its box
    near = [Sample("area", 1.0, green, green)] * 8 + [Sample("area", 1.0, red, red)] * 8
    legends = [Sample("box", 0.9, green, green), Sample("box", 0.9, red, red)]
    unknown = (0.2, 0.45, 0.2)  # a pencil between them, far from both: no colour in play
    samples = [
        *legends,
        *near,
        Sample("area", 1.0, off, off),
        Sample("area", 1.0, unknown, unknown),
    ]
    _, decisions = read_colours(samples, ["1", "2", *[None] * 18])
    assert decisions[-2].colour == "1" and not decisions[-2].low
    assert decisions[-1].low


def test_many_items_in_a_pencil_no_colour_box_shows_are_not_given_to_a_player() -> None:
    """A player left their colour box empty: their green lies nearer blue than red, but many
    items alike and far from every box make a pencil of its own."""
    blue, red = _prototype(PENCILS["blue"]), _prototype(PENCILS["red"])
    green = _prototype(PENCILS["green"])
    legends = [Sample("box", 0.9, blue, blue), Sample("box", 0.9, red, red)]
    own = [Sample("area", 1.0, blue, blue)] * 10 + [Sample("area", 1.0, red, red)] * 10
    stranger = [Sample("area", 1.0, green, green)] * 8
    palette, decisions = read_colours([*legends, *own, *stranger], ["1", "2", *[None] * 28])
    assert all(not d.low for d in decisions[2:22])
    assert all(d.low for d in decisions[22:])
    assert palette.strangers == 8


def test_a_line_printed_as_two_rules_reports_the_pencil_down_its_channel() -> None:
    sheet, reading = scanned("miro", 26)
    lines = [item for item in reading.items if item.id.startswith("segment-")]
    traced = [item.coverage for item in lines if sheet.truth.get(item.id) is not None]
    empty = [item.coverage for item in lines if sheet.truth.get(item.id) is None]
    assert traced and empty
    assert min(traced) >= 0.9
    assert float(np.median(empty)) < TRACED_COVERAGE
