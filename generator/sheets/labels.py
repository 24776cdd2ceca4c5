"""Printed labels: the name a transcript uses for each space, segment, line or triangle, on it.

The art games name their moves by items that carry no printed name (``space-17``,
``segment-40``). With ``labels=on`` in the spec the sheet prints each item's name on it, so a
player can write a game down from the paper. A label is small (:data:`LABEL_SIZE`, just over
7 pt, readable at 100 %) and mid grey (:data:`LABEL_GREY`): a pencil covers it, and a photocopy
keeps it.

Where a label goes:

* on an area (a space, a triangle): at the point inside it farthest from every other mark,
  starting from shapely's pole of inaccessibility (``polylabel``) and moving off the printed
  dots and texts that sit there, so the label is well inside and out of the way;
* beside a line or a segment: at the middle of the stretch, off to one side, clear of every
  line and crossing, and nearer its own line than any other.

Every label (its digits' box, :func:`label_box`) lies wholly inside its item (areas) or
touches no line at all (lines), keeps
:data:`GAP` from other ink and from other labels, and is a :class:`~papergames.sheets.model.Text`
with id ``name-<item id>``. The text itself is the game's to choose: by default the id's number
(``17`` for ``space-17``), which :class:`~papergames.sheets.board.Board` already accepts.

Example:
    >>> from shapely.geometry import box
    >>> [label] = area_labels([Target("space-7", box(0, 0, 20, 10), "7")], [])
    >>> label.id, label.text, box(0, 0, 20, 10).contains(label_box(label)), label.size >= MIN_SIZE
    ('name-space-7', '7', True, True)
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from papergames.errors import FitError
from papergames.fonts import text_width
from papergames.sheets.geometry import iter_polygons
from papergames.sheets.model import Feature, Item, Kind, Layer, Text

PREFIX = "name-"
"""A label's id is this and the id of the item it names."""
PT = 25.4 / 72
"""A point in mm."""
MIN_SIZE = 7 * PT
"""The smallest em size in mm text a player must read may have: 7 pt."""
LABEL_SIZE = 2.5
"""Em size in mm of a printed label (7.1 pt)."""
LABEL_GREY = 0.5
"""Grey level of a label: mid grey, lighter than the field's lines, darker than a light copy
loses."""
GAP = 0.5
"""Least clear distance in mm between a label's box and any other ink or label."""
TIGHT = 0.15
"""Least clear distance in mm, taken only in an item with no room for :data:`GAP`: still a
visible white rim round the digits."""
COMFORT = 2.0
"""Clearance in mm beyond which an area label gains nothing by moving further from ink."""
CAP = 0.73
"""Height of digits and capitals above the baseline, as a fraction of the em (DejaVu Sans)."""
LINE_COMFORT = 1.0
"""The same beside a line, where a label must stay close to show which line it names."""
STEP = 0.6
"""Spacing in mm of the candidate positions tried inside an area."""


class LabelError(FitError):
    """An item with no room for its label: the sheet cannot be printed labelled as asked."""


@dataclass(frozen=True)
class Target:
    """An item to label.

    Attributes:
        id: the item's feature id.
        geometry: its area (a polygon) or its line.
        text: the label to print.
    """

    id: str
    geometry: BaseGeometry
    text: str


def number(feature_id: str) -> str:
    """The default label: the id's number, as :class:`~papergames.sheets.board.Board` accepts it.

    Example:
        >>> number("segment-40")
        '40'
    """
    return feature_id.partition("-")[2]


def targets(features: Iterable[Feature], name: Callable[[str], str] = number) -> list[Target]:
    """Label targets for features, each named by ``name(feature id)`` (default: its number)."""
    return [Target(f.id, f.geometry, name(f.id)) for f in features]


def label_box(text: Text) -> Polygon:
    """The box a label's glyphs cover: its width, from the baseline up to the digits' top.

    Labels are digits and capitals, which stand on the baseline and reach :data:`CAP` of the em
    above it, so this box is the ink, turned with the text.
    """
    [poly] = _boxes(
        *_centre(text.x, text.y, text.angle, text.size),
        np.array([text.angle]),
        text_width(text.text, text.size),
        CAP * text.size,
    )
    return Polygon(poly)


def _centre(x: float, y: float, angle: float, size: float) -> tuple[np.ndarray, np.ndarray]:
    """The centre of a label's box from its anchor (middle of the baseline)."""
    a = math.radians(angle)
    half = CAP * size / 2
    return np.array([x - half * math.sin(a)]), np.array([y - half * math.cos(a)])


def _no_room(target: Target) -> str:
    """The refusal when an item cannot hold its label, with what to do about it."""
    return (
        f"{target.id} has no room for its printed name '{target.text}' on this paper: "
        "use larger paper, or leave the labels off"
    )


def _label(target: Target, cx: float, cy: float, angle: float, size: float) -> Text:
    """The label of ``target`` whose box is centred on (cx, cy), turned by ``angle``."""
    a = math.radians(angle)
    half = CAP * size / 2
    return Text(
        PREFIX + target.id,
        cx + half * math.sin(a),
        cy + half * math.cos(a),
        target.text,
        size=size,
        anchor="middle",
        layer=Layer.TEXT,
        angle=angle,
        grey=LABEL_GREY,
    )


def _boxes(
    xs: np.ndarray, ys: np.ndarray, angles: np.ndarray, width: float, height: float
) -> np.ndarray:
    """Boxes of ``width`` by ``height`` centred on (xs, ys), turned counter-clockwise as seen.

    The page's y grows down, so a turn by ``a`` takes the text's x axis to (cos a, -sin a).
    """
    a = np.radians(angles)
    c, s = np.cos(a), np.sin(a)
    hw, hh = width / 2, height / 2
    corners = [
        (xs + px * c + py * s, ys - px * s + py * c)
        for px, py in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))
    ]
    coords = np.stack([np.stack(corner, axis=-1) for corner in corners], axis=1)
    boxes: np.ndarray = shapely.polygons(coords)
    return boxes


def readable(angle: float) -> float:
    """An angle of text turned to read left to right or bottom to top: in (-90, 90].

    Example:
        >>> readable(135.0), readable(-90.0)
        (-45.0, 90.0)
    """
    angle = (angle + 180.0) % 180.0
    return angle - 180.0 if angle > 90.0 else angle


def _turns(area: BaseGeometry, width: float) -> tuple[float, ...]:
    """Angles a label may take in an area: level first, then along its long axis and along
    its longest sides (a label in a slanted strip fits along the strip)."""
    rect = area.minimum_rotated_rectangle
    edges: list[tuple[float, float]] = []
    for ring in (getattr(rect, "exterior", None), max(iter_polygons(area), key=_size).exterior):
        if ring is None:
            continue
        coords = list(ring.coords)
        for (x0, y0), (x1, y1) in itertools.pairwise(coords):
            length = math.hypot(x1 - x0, y1 - y0)
            if length >= width:
                angle = round(readable(math.degrees(math.atan2(-(y1 - y0), x1 - x0))), 1)
                edges.append((length, angle))
    turns = [0.0]
    for _, angle in sorted(edges, reverse=True):
        if all(abs(angle - t) > 5.0 for t in turns):
            turns.append(angle)
    return tuple(turns[:4])


def _size(poly: Polygon) -> float:
    return float(poly.area)


def _choose(
    target: Target,
    xs: np.ndarray,
    ys: np.ndarray,
    angles: np.ndarray,
    penalty: np.ndarray,
    ok: np.ndarray,
    boxes: np.ndarray,
    obstacles: Sequence[BaseGeometry],
    size: float,
    comfort: float = COMFORT,
) -> tuple[Text, Polygon, float]:
    """The candidate with the best score (and its clearance), clear of ink by :data:`GAP`
    if any candidate is, else by :data:`TIGHT`."""
    if not ok.any():
        raise LabelError(_no_room(target))
    clearance = np.zeros(len(xs))
    if obstacles and ok.any():
        # Only the ink within reach matters: clip it to the candidates' surroundings, which
        # keeps the distances cheap beside long lines.
        x0, y0, x1, y1 = shapely.total_bounds(boxes[ok])
        reach = comfort + GAP
        near = shapely.clip_by_rect(
            np.array(obstacles, dtype=object), x0 - reach, y0 - reach, x1 + reach, y1 + reach
        )
        near = near[~shapely.is_empty(near)]
        if len(near):
            clearance[ok] = shapely.distance(boxes[ok][:, None], near[None, :]).min(axis=1)
        else:
            clearance[ok] = comfort
    else:
        clearance[ok] = comfort
    score = np.minimum(clearance, comfort) - penalty
    # Nearer than GAP only when nothing else fits, and never nearer than TIGHT.
    score[clearance < GAP] -= 2 * COMFORT
    score[~ok | (clearance < TIGHT)] = -math.inf
    best = int(np.argmax(score))
    if score[best] == -math.inf:
        raise LabelError(_no_room(target))
    label = _label(target, float(xs[best]), float(ys[best]), float(angles[best]), size)
    return label, boxes[best], float(clearance[best])


def area_labels(
    items: Sequence[Target], ink: Sequence[BaseGeometry], size: float = LABEL_SIZE
) -> list[Text]:
    """A label inside each area, as far from its border and from other ink as it can be.

    The label reads across the page when it fits so; in a narrow area it turns along the
    area's long axis.

    Args:
        items: the areas to label (polygons).
        ink: other printed marks the labels must keep clear of (dots, texts as boxes, lines).
        size: the labels' em size in mm.

    Raises:
        LabelError: naming the first area too small to hold its label clear of ink.
    """
    ink_list = list(ink)
    others = shapely.STRtree(ink_list) if ink_list else None
    placed: list[Polygon] = []
    texts = []
    for target in items:
        area = target.geometry
        width, height = text_width(target.text, size), CAP * size
        pole = polylabel(max(iter_polygons(area), key=_size), tolerance=0.05)
        x0, y0, x1, y1 = area.bounds
        gx, gy = np.meshgrid(np.arange(x0, x1, STEP) + STEP / 2, np.arange(y0, y1, STEP) + STEP / 2)
        grid_x = np.concatenate([[pole.x], gx.ravel()])
        grid_y = np.concatenate([[pole.y], gy.ravel()])
        inner = area.buffer(-TIGHT)
        shapely.prepare(inner)
        near: list[BaseGeometry] = [area.boundary]
        if others is not None:
            near += [ink_list[k] for k in others.query(area)]
        near += [p for p in placed if p.intersects(area)]
        obstacles = near
        found: tuple[Text, Polygon] | None = None
        fine_x, fine_y = np.meshgrid(np.arange(x0, x1, STEP / 3), np.arange(y0, y1, STEP / 3))
        sweep = tuple(float(a) for a in range(-75, 91, 15))
        # Level first; turned along the area only when a level label has no room; a finer
        # search at every angle only when neither has.
        for turns, (cx, cy) in (
            ((0.0,), (grid_x, grid_y)),
            (_turns(area, width)[1:], (grid_x, grid_y)),
            (sweep, (fine_x.ravel(), fine_y.ravel())),
        ):
            if not turns or (found is not None and turns == sweep):
                continue
            xs = np.concatenate([cx] * len(turns))
            ys = np.concatenate([cy] * len(turns))
            angles = np.repeat(np.array(turns), len(cx))
            boxes = _boxes(xs, ys, angles, width, height)
            ok = shapely.contains(inner, boxes)
            # Off the pole costs a little, a turned label more: level text reads best.
            penalty = 0.01 * np.hypot(xs - pole.x, ys - pole.y) + 0.5 * (angles != 0.0)
            try:
                label, chosen, clear = _choose(
                    target, xs, ys, angles, penalty, ok, boxes, obstacles, size
                )
            except LabelError:
                continue
            if found is None or clear >= GAP:
                found = (label, chosen)
            if clear >= GAP:
                break
        if found is None:
            raise LabelError(_no_room(target))
        placed.append(found[1])
        texts.append(found[0])
    return texts


def line_labels(
    items: Sequence[Target],
    ink: Sequence[BaseGeometry],
    within: BaseGeometry,
    size: float = LABEL_SIZE,
) -> list[Text]:
    """A label beside each line or segment, near its middle, clear of every line and crossing.

    Each label sits just off its line, level or turned along it, on whichever side has more
    room, where along the middle of the line it is farthest from every other line and label;
    its centre is nearer its own line than any other, so a reader knows which line it names.
    The shortest lines, with the least choice, are labelled first.

    Args:
        items: the lines to label.
        ink: every printed mark to keep clear of, the lines' own ink included.
        within: the region the labels must stay inside (the field).
        size: the labels' em size in mm.

    Raises:
        LabelError: naming the first line with no room for its label.
    """
    lines = [t.geometry for t in items]
    tree = shapely.STRtree(lines)
    all_ink = list(ink)
    ink_tree = shapely.STRtree(all_ink)
    room = within.buffer(-GAP)
    shapely.prepare(room)
    placed: dict[int, Polygon] = {}
    result: dict[int, Text] = {}
    queue = deque(sorted(range(len(items)), key=lambda k: lines[k].length))
    moves_left = 3 * len(items)
    while queue:
        k = queue.popleft()
        target = items[k]
        width, height = text_width(target.text, size), CAP * size
        xs, ys, angles, along, off = _beside(lines[k], width, height)
        boxes = _boxes(xs, ys, angles, width, height)
        ok = shapely.contains(room, boxes)
        region = box(*shapely.total_bounds(boxes)).buffer(COMFORT + GAP, join_style="mitre")
        # The centre must be nearer this line than any other, so the label names it.
        rivals = [j for j in tree.query(region) if j != k]
        centres = shapely.points(xs, ys)
        own = shapely.distance(centres, lines[k])
        if rivals:
            apart = shapely.distance(
                centres[:, None], np.array(lines, dtype=object)[rivals][None, :]
            )
            ok &= own < apart.min(axis=1)
        near = [all_ink[j] for j in ink_tree.query(region)]
        neighbours = [j for j, p in placed.items() if p.intersects(region)]
        # Near the middle, close beside the line, and level read best.
        penalty = 0.5 * np.abs(along - 0.5) + off + 0.3 * (angles != 0.0)
        try:
            label, chosen, _ = _choose(
                target,
                xs,
                ys,
                angles,
                penalty,
                ok,
                boxes,
                near + [placed[j] for j in neighbours],
                size,
                LINE_COMFORT,
            )
            crowded = False
        except LabelError:
            if not neighbours or moves_left <= 0:
                raise
            crowded = True
        if crowded:
            # Other labels take this line's room: place it against the ink alone, where it
            # displaces the fewest, and put those back in the queue to find room elsewhere
            # along their lines.
            taken = np.array([placed[j] for j in neighbours], dtype=object)
            clashes = (shapely.distance(boxes[:, None], taken[None, :]) < GAP).sum(axis=1)
            label, chosen, _ = _choose(
                target,
                xs,
                ys,
                angles,
                penalty + COMFORT * clashes,
                ok,
                boxes,
                near,
                size,
                LINE_COMFORT,
            )
            for j in neighbours:
                if placed[j].distance(chosen) < GAP:
                    del placed[j], result[j]
                    queue.append(j)
                    moves_left -= 1
        placed[k] = chosen
        result[k] = label
    return [result[k] for k in range(len(items))]


def _beside(line: BaseGeometry, width: float, height: float) -> tuple[np.ndarray, ...]:
    """Candidate centres and angles of a label box beside ``line``.

    Along the line's middle, on both sides, level and turned along the line, a few distances
    off it. Returns the centres' x and y, the angles, where along the line (0 .. 1) each
    stands, and how much further off the line than the nearest place each is (mm).
    """
    xs: list[float] = []
    ys: list[float] = []
    angles: list[float] = []
    along: list[float] = []
    off: list[float] = []
    length = line.length
    for t in np.linspace(0.1, 0.9, 33):
        p = line.interpolate(t * length)
        q0 = line.interpolate(max(0.0, t * length - 0.5))
        q1 = line.interpolate(min(length, t * length + 0.5))
        dx, dy = q1.x - q0.x, q1.y - q0.y
        norm = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / norm, dx / norm
        turned = readable(math.degrees(math.atan2(-dy, dx)))
        for angle, reach in (
            (0.0, abs(nx) * width / 2 + abs(ny) * height / 2),
            (turned, height / 2),
        ):
            for side in (1.0, -1.0):
                for extra in (0.0, 0.6, 1.2):
                    d = side * (reach + GAP + 0.4 + extra)
                    xs.append(p.x + nx * d)
                    ys.append(p.y + ny * d)
                    angles.append(angle)
                    along.append(float(t))
                    off.append(extra)
    return np.array(xs), np.array(ys), np.array(angles), np.array(along), np.array(off)


def ink_of(items: Iterable[Feature | Text], skip: Iterable[str] = ()) -> list[BaseGeometry]:
    """The printed marks of ``items`` as geometry labels keep clear of (texts as their boxes).

    Features that leave no ink (spaces whose outline is drawn by lines) are left out, as are
    the ids in ``skip``.
    """
    from papergames.sheets.bounds import text_box
    from papergames.sheets.model import INKS, Kind, Style

    skipped = set(skip)
    marks: list[BaseGeometry] = []
    for item in items:
        if item.id in skipped:
            continue
        if isinstance(item, Text):
            if item.text:
                marks.append(box(*text_box(item)))
            continue
        ink = INKS[item.style]
        if item.kind == Kind.POINT:
            if item.style != Style.NONE:
                from papergames.sheets.bounds import DOT_RADIUS

                marks.append(item.geometry.buffer(DOT_RADIUS))
            continue
        if ink.fill is not None and ink.fill < 0.8:
            marks.append(item.geometry)
        elif ink.stroke:
            outline = item.geometry.boundary if item.geometry.area > 0 else item.geometry
            marks.append(outline.buffer(ink.stroke / 2, quad_segs=2))
    return marks


def as_line(geometry: BaseGeometry) -> LineString:
    """A feature's geometry as one line (the longest part of a multi-part line)."""
    if isinstance(geometry, LineString):
        return geometry
    parts = list(getattr(geometry, "geoms", []))
    return max(parts, key=lambda g: g.length)


def label_areas(
    items: Sequence[Item], kinds: Sequence[Kind], name: Callable[[str], str] = number
) -> list[Text]:
    """Labels for every feature of ``kinds`` among a page's ``items``, clear of all their ink.

    What a layout calls at the end of its build when the spec asks for labels.
    """
    areas = [f for f in items if isinstance(f, Feature) and f.kind in kinds]
    return area_labels(targets(areas, name), ink_of(items))


def label_lines(
    items: Sequence[Item],
    kinds: Sequence[Kind],
    within: BaseGeometry,
    name: Callable[[str], str] = number,
) -> list[Text]:
    """Labels beside every feature of ``kinds`` among ``items``, inside ``within``."""
    lines = [f for f in items if isinstance(f, Feature) and f.kind in kinds]
    found = [Target(f.id, as_line(f.geometry), name(f.id)) for f in lines]
    return line_labels(found, ink_of(items), within)
