"""A coloured page photographed or scanned: the second half of a synthetic photo.

The photo reader is tested and benchmarked on these images, with the truth they were made from:
where each point of the page landed in the image. Four tiers copy the ways sheets reach the
reader, from easy to hard (see :data:`TIERS`):

* ``scan``: a copier's flat scan at 300 dpi, barely turned or shifted.
* ``phone``: a phone photo of the sheet on a table, seen by a pinhole camera tilted up to 25
  degrees over the sheet's plane, under uneven, tinted light, half of them stored sideways or
  upside down with an EXIF Orientation tag, as phones store them.
* ``copy``: the phone photo of a photocopied handout: the print's tone is copied on the page
  before the pencil (:func:`papergames.photo.copier.photocopy`, for the page's maker to apply),
  and the coloured page is placed on the copy's paper here, reduced, turned and shifted a little.
* ``hard``: a steeper tilt, a curled edge or corner, dim light and its noise, a shadow across
  the sheet, a finger holding a margin, and strong JPEG compression.

Example:
    >>> import numpy as np
    >>> page = np.full((297, 210, 3), 255, dtype=np.uint8)
    >>> photo = photograph(page, 1.0, TIERS["scan"], np.random.default_rng(1))
    >>> photo.format in ("jpeg", "png"), photo.size
    (True, (2480, 3508))
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import ExifTags, Image
from shapely.geometry import LineString, Polygon, box
from shapely.ops import unary_union

from papergames.photo.copier import COPIER, Copier, copy_placement, lay_copy
from papergames.sheets.compose import content_frame, marker_boxes
from papergames.sheets.units import MM_PER_INCH

Matrix = NDArray[np.float64]
Points = NDArray[np.float64]
Floats = NDArray[np.float32]
Pixels = NDArray[np.uint8]
Range = tuple[float, float]
Field = TypeVar("Field", NDArray[np.float32], NDArray[np.uint8])


@dataclass(frozen=True)
class Tier:
    """How a sheet is photographed: each knob is a bound that every photo of the tier respects.

    Attributes:
        name: the tier's name in :data:`TIERS`.
        flat: a scanner (the paper pressed flat, no table, no perspective) rather than a camera.
        frames: the camera's image sizes ``(long side, short side)`` in pixels; one is chosen
            per photo and stood the way the page stands.
        scan_dpi: a scanner's resolution; its image is the paper's size at this resolution.
        fill: how much of the frame the sheet fills: the larger of its width and height in the
            image, each as a share of the frame's.
        tilt_deg: largest angle between the camera's axis and the paper's normal.
        turn_deg: largest turn of the sheet within the image.
        shift_mm: largest shift of the paper on a scanner's glass.
        white: the level of the best lit white paper, as a share of 255.
        black: a scanner's level of black ink, as a share of 255.
        gradient: the largest fall of light across the sheet, as a share of its brightest.
        cast: the largest departure of a colour channel's gain from 1.
        blur_px: the spread (sigma) of the Gaussian blur, in pixels.
        noise: the spread of the sensor's noise, in 8-bit levels.
        jpeg_quality: the range of JPEG quality.
        png_chance: the chance that the image is stored as PNG rather than JPEG.
        exif_chance: the chance that the image is stored turned, with an EXIF Orientation tag.
        curl_mm: how far a curled edge or corner lifts off the table; ``(0, 0)`` for none.
        shadow: how dark a shadow band across the sheet gets at most (0 for no shadow).
        finger: whether a finger holds the sheet down at a margin.
        copier: for a photocopied handout, the copier whose placement of the print on its paper
            (:func:`~papergames.photo.copier.copy_placement`) the page is given before it is
            photographed; the page's maker applies its tone before the pencil.
    """

    name: str
    flat: bool
    frames: tuple[tuple[int, int], ...] = ()
    scan_dpi: int = 300
    fill: Range = (0.55, 0.9)
    tilt_deg: float = 0.0
    turn_deg: float = 0.0
    shift_mm: float = 0.0
    white: Range = (0.9, 0.97)
    black: Range = (0.04, 0.12)
    gradient: float = 0.0
    cast: float = 0.0
    blur_px: Range = (0.3, 0.7)
    noise: Range = (1.0, 2.5)
    jpeg_quality: tuple[int, int] = (88, 92)
    png_chance: float = 0.0
    exif_chance: float = 0.0
    curl_mm: Range = (0.0, 0.0)
    shadow: float = 0.0
    finger: bool = False
    copier: Copier | None = None


_PHONE_FRAMES = ((4000, 3000), (4032, 3024), (3264, 2448))
"""12, 12.2 and 8 megapixel 4:3 sensors, as phones' main cameras have."""

_PHONE = Tier(
    name="phone",
    flat=False,
    frames=_PHONE_FRAMES,
    tilt_deg=25.0,
    turn_deg=8.0,
    white=(0.68, 0.82),
    gradient=0.35,
    cast=0.15,
    blur_px=(0.5, 1.5),
    noise=(2.0, 4.5),
    jpeg_quality=(70, 90),
    exif_chance=0.5,
)

TIERS: dict[str, Tier] = {
    "scan": Tier(
        name="scan",
        flat=True,
        turn_deg=1.0,
        shift_mm=2.0,
        cast=0.02,
        png_chance=0.3,
    ),
    "phone": _PHONE,
    "copy": replace(_PHONE, name="copy", copier=COPIER),
    "hard": Tier(
        name="hard",
        flat=False,
        frames=_PHONE_FRAMES,
        tilt_deg=40.0,
        turn_deg=12.0,
        white=(0.4, 0.55),
        gradient=0.35,
        cast=0.15,
        blur_px=(0.7, 1.8),
        noise=(6.0, 10.0),
        jpeg_quality=(55, 55),
        exif_chance=0.5,
        curl_mm=(4.0, 12.0),
        shadow=0.55,
        finger=True,
    ),
}
"""The four tiers, easiest first."""


@dataclass(frozen=True)
class Curl:
    """A corner or edge of the paper lifted off the table, bending up smoothly from a fold line.

    The paper beyond the fold line (``n . p > offset``, page mm) rises as the square of its
    distance past the line, to ``lift`` mm at ``reach`` mm; the paper keeps its length, so the
    lifted part is also drawn in towards the line. ``eye`` is the camera's centre in page mm
    with its height over the table, through which the lifted paper is seen.
    """

    normal: tuple[float, float]
    offset: float
    reach: float
    lift: float
    eye: tuple[float, float, float]

    def flat_points(self, points_mm: Points) -> Points:
        """Where on the flat table each page point appears to lie, seen from the camera."""
        n = np.asarray(self.normal)
        past = np.clip(points_mm @ n - self.offset, 0.0, None)
        rise = self.lift * (past / self.reach) ** 2
        shrink = 2.0 * self.lift**2 * past**3 / (3.0 * self.reach**4)
        bent = points_mm - shrink[:, None] * n
        eye = np.asarray(self.eye[:2])
        height = self.eye[2]
        along_ray = height / (height - rise)
        return np.asarray(eye + along_ray[:, None] * (bent - eye), dtype=np.float64)


@dataclass(frozen=True)
class Photo:
    """A synthetic photo or scan of a page, and where the page lies in it.

    Attributes:
        data: the encoded file, as it would arrive from a phone or a scanner.
        format: ``"jpeg"`` or ``"png"``.
        exif_orientation: the EXIF Orientation tag stored (1: none, the image is upright).
        page_to_image: the 3 x 3 homography from page millimetres (y down) to pixels of the
            upright image (EXIF orientation applied), with pixel centres at whole numbers, as
            OpenCV has them. With a curl it is the flat part's map only, and points on the
            curled part land a few millimetres away; :meth:`to_image` is exact everywhere. On a
            copy it takes the sheet's mm through the copy's placement.
        size: the upright image's ``(width, height)``.
        curl: the paper's curl, if it has one (in the paper's mm).
        finger: the outline in the paper's mm of the finger over the sheet, if there is one (it
            reaches beyond the paper).
        copy: on a photocopied handout, the map from the sheet's mm to the copy's paper mm.
    """

    data: bytes
    format: Literal["jpeg", "png"]
    exif_orientation: int
    page_to_image: Matrix
    size: tuple[int, int]
    curl: Curl | None = None
    finger: Polygon | None = None
    copy: Matrix | None = None

    def to_image(self, points_mm: Points) -> Points:
        """Where page points (an (n, 2) array in mm) are in the upright image, curl included."""
        points = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        if self.curl is None:
            return _apply(self.page_to_image, points)
        placed = np.eye(3) if self.copy is None else self.copy
        paper = self.curl.flat_points(_apply(placed, points))
        return _apply(self.page_to_image @ _inverse(placed), paper)


def photograph(
    page: NDArray[np.uint8], px_per_mm: float, tier: Tier, rng: np.random.Generator
) -> Photo:
    """A photo or scan of a (coloured) page, made as ``tier`` says.

    Args:
        page: the page as RGB (height, width, 3), the whole paper at ``px_per_mm``.
        px_per_mm: the page's resolution; the paper's size is taken from it.
        tier: how the page is taken (:data:`TIERS`); a copy tier first places the page on the
            copy's paper, as its copier does.
        rng: the source of every random choice: the same seed gives the same bytes.

    Returns:
        The encoded image and its truth: where the page lies in the upright image. On a
        curled sheet the homography is only the flat part's map (see :class:`Photo`).
    """
    size_mm = (page.shape[1] / px_per_mm, page.shape[0] / px_per_mm)
    placed = None
    if tier.copier is not None:
        placed = copy_placement(size_mm, rng, tier.copier)
        page = lay_copy(page, px_per_mm, placed)
    if tier.flat:
        photo = _scan(page, px_per_mm, size_mm, tier, rng)
    else:
        photo = _phone_photo(page, px_per_mm, size_mm, tier, rng)
    if placed is None:
        return photo
    return replace(photo, page_to_image=photo.page_to_image @ placed, copy=placed)


def _apply(matrix: Matrix, points: Points) -> Points:
    """Points (n, 2) mapped by a homography."""
    if points.size == 0:
        return np.zeros((0, 2), dtype=np.float64)
    mapped = cv2.perspectiveTransform(points.reshape(-1, 1, 2), matrix)
    return np.asarray(mapped, dtype=np.float64).reshape(-1, 2)


def _inverse(matrix: Matrix) -> Matrix:
    return np.asarray(np.linalg.inv(matrix), dtype=np.float64)


def _page_pixels(px_per_mm: float, px_per_mm_down: float | None = None) -> Matrix:
    """Page mm to page pixels, pixel centres at whole numbers (``px_per_mm_down`` down the page,
    when it differs from across)."""
    down = px_per_mm if px_per_mm_down is None else px_per_mm_down
    return np.array([[px_per_mm, 0.0, -0.5], [0.0, down, -0.5], [0.0, 0.0, 1.0]])


def _scan(
    page: Pixels,
    px_per_mm: float,
    size_mm: tuple[float, float],
    tier: Tier,
    rng: np.random.Generator,
) -> Photo:
    """The paper on a scanner's glass: turned and shifted a little, in flat, even light."""
    scale = tier.scan_dpi / MM_PER_INCH
    size = (round(size_mm[0] * scale), round(size_mm[1] * scale))
    turn = math.radians(rng.uniform(-tier.turn_deg, tier.turn_deg))
    shift = rng.uniform(-tier.shift_mm, tier.shift_mm, 2)
    to_image = _page_pixels(scale) @ _turned_about_centre(size_mm, turn, shift)
    lid = float(rng.uniform(0.88, 0.98) * 255)
    warp = to_image @ _inverse(_page_pixels(px_per_mm))
    image = cv2.warpPerspective(
        page, warp, size, flags=cv2.INTER_LINEAR, borderValue=(lid, lid, lid)
    )
    white, black = rng.uniform(*tier.white), rng.uniform(*tier.black)
    gains = rng.uniform(1 - tier.cast, 1 + tier.cast, 3) * (white - black)
    tone = np.column_stack([np.diag(gains), np.full(3, black * 255.0)])
    toned = np.asarray(cv2.transform(image, tone), dtype=np.uint8)
    pixels = _sensor(toned, rng.uniform(*tier.blur_px), rng.uniform(*tier.noise), rng)
    return Photo(*_encode(pixels, tier, rng), page_to_image=to_image, size=size)


def _turned_about_centre(size_mm: tuple[float, float], turn: float, shift: Points) -> Matrix:
    """Page mm to glass mm: the paper turned by ``turn`` radians about its centre, then shifted."""
    cx, cy = size_mm[0] / 2, size_mm[1] / 2
    c, s = math.cos(turn), math.sin(turn)
    return np.array(
        [
            [c, -s, cx + shift[0] - c * cx + s * cy],
            [s, c, cy + shift[1] - s * cx - c * cy],
            [0.0, 0.0, 1.0],
        ]
    )


def _phone_photo(
    page: Pixels,
    px_per_mm: float,
    size_mm: tuple[float, float],
    tier: Tier,
    rng: np.random.Generator,
) -> Photo:
    """The sheet on a table, seen by a tilted pinhole camera under uneven light."""
    long_side, short_side = tier.frames[int(rng.integers(len(tier.frames)))]
    portrait = size_mm[1] >= size_mm[0]
    size = (short_side, long_side) if portrait else (long_side, short_side)
    to_image, eye = _aim(size_mm, size, tier, rng)
    curl = _curl(size_mm, eye, tier, rng) if tier.curl_mm[1] > 0 else None
    scene = _table(size, rng)
    _lay_sheet(scene, page, px_per_mm, size_mm, to_image, curl)
    finger = _finger_outline(size_mm, rng) if tier.finger else None
    if finger is not None:
        _draw_finger(scene, *finger, size_mm, to_image, rng)
    white = rng.uniform(*tier.white)
    gains = white * rng.uniform(1 - tier.cast, 1 + tier.cast, 3)
    light = _light(size, size_mm, to_image, tier, rng)
    lit = cv2.multiply(scene, _coloured_light(light, gains, size), scale=1.0 / 255.0)
    pixels = _sensor(
        np.asarray(lit, dtype=np.uint8), rng.uniform(*tier.blur_px), rng.uniform(*tier.noise), rng
    )
    data, fmt, orientation = _encode(pixels, tier, rng)
    outline = finger[0] if finger else None
    return Photo(data, fmt, orientation, to_image, size, curl, outline)


def _aim(
    size_mm: tuple[float, float], frame: tuple[int, int], tier: Tier, rng: np.random.Generator
) -> tuple[Matrix, tuple[float, float, float]]:
    """Place a pinhole camera over the sheet: the page-to-image homography and the eye.

    The camera is turned about its axis, tilted about a random line in the paper's plane, and
    backed off along its axis until the sheet fills the chosen share of the frame; the frame is
    then moved over the sensor (a shifted principal point) to put the sheet anywhere in it.
    """
    width, height = frame
    field_of_view = math.radians(rng.uniform(63.0, 72.0))
    focal = max(frame) / 2 / math.tan(field_of_view / 2)
    lens = np.array([[focal, 0.0, (width - 1) / 2], [0.0, focal, (height - 1) / 2], [0, 0, 1.0]])
    turn = math.radians(rng.uniform(-tier.turn_deg, tier.turn_deg))
    tilt = math.radians(rng.uniform(0.0, tier.tilt_deg))
    axis = rng.uniform(0.0, 2.0 * math.pi)
    camera_to_world = _rotation((math.cos(axis), math.sin(axis), 0.0), tilt) @ _rotation(
        (0.0, 0.0, 1.0), turn
    )
    target = np.array([size_mm[0] / 2, size_mm[1] / 2, 0.0])
    corners = np.array([[0, 0], [size_mm[0], 0], size_mm, [0, size_mm[1]]], dtype=np.float64)
    fill = rng.uniform(*tier.fill)
    distance = 1000.0
    for _ in range(6):
        eye = target - distance * camera_to_world[:, 2]
        homography = _plane_to_image(lens, camera_to_world, eye)
        spread = np.ptp(_apply(homography, corners), axis=0) / np.array(frame)
        distance *= float(spread.max()) / fill
    eye = target - distance * camera_to_world[:, 2]
    homography = _plane_to_image(lens, camera_to_world, eye)
    seen = _apply(homography, corners)
    low, high = seen.min(axis=0), seen.max(axis=0)
    room = np.array(frame) - 1 - (high - low)
    move = rng.uniform(0.0, 1.0, 2) * np.clip(room, 0.0, None) - low
    shift = np.array([[1.0, 0.0, move[0]], [0.0, 1.0, move[1]], [0.0, 0.0, 1.0]])
    return shift @ homography, (float(eye[0]), float(eye[1]), float(-eye[2]))


def _rotation(axis: tuple[float, float, float], angle: float) -> Matrix:
    turned, _ = cv2.Rodrigues(np.asarray(axis, dtype=np.float64) * angle)
    return np.asarray(turned, dtype=np.float64)


def _plane_to_image(lens: Matrix, camera_to_world: Matrix, eye: Matrix) -> Matrix:
    """The homography from the table's plane (page mm, z = 0, z into the table) to pixels."""
    world_to_camera = camera_to_world.T
    translation = -world_to_camera @ eye
    extrinsic = np.column_stack([world_to_camera[:, 0], world_to_camera[:, 1], translation])
    return np.asarray(lens @ extrinsic, dtype=np.float64)


def _curl(
    size_mm: tuple[float, float],
    eye: tuple[float, float, float],
    tier: Tier,
    rng: np.random.Generator,
) -> Curl:
    """A curl of one edge (bending along it) or one corner (bending across it)."""
    width, height = size_mm
    if rng.random() < 0.5:
        normal = np.array([(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)][rng.integers(4)])
    else:
        normal = np.array([(1, 1), (-1, 1), (1, -1), (-1, -1)][rng.integers(4)], dtype=np.float64)
        normal /= np.linalg.norm(normal)
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float64)
    farthest = float((corners @ normal).max())
    reach = rng.uniform(25.0, 60.0)
    return Curl(
        normal=(float(normal[0]), float(normal[1])),
        offset=farthest - reach,
        reach=reach,
        lift=rng.uniform(*tier.curl_mm),
        eye=eye,
    )


def _table(frame: tuple[int, int], rng: np.random.Generator) -> Pixels:
    """A table top filling the frame: wood with its grain, or a speckled laminate.

    It is made on a grid eight times coarser than the frame and stretched: the sensor's noise
    and the blur give it its fine texture.
    """
    width, height = frame
    coarse = (max(2, height // 8), max(2, width // 8))
    ys, xs = np.mgrid[0 : coarse[0], 0 : coarse[1]].astype(np.float32)
    blotches = _smooth_noise(coarse, 12.0, rng)
    if rng.random() < 0.6:
        base = np.array(rng.choice(_WOODS), dtype=np.float32) * rng.uniform(0.85, 1.1)
        heading = rng.uniform(0.0, math.pi)
        across = xs * math.cos(heading) + ys * math.sin(heading)
        rings = across / rng.uniform(2.0, 5.0) + 4.0 * _smooth_noise(coarse, 25.0, rng)
        streaks = rng.standard_normal(coarse).astype(np.float32)
        streaks = _stretch_along(streaks, heading + math.pi / 2, 12.0)
        shade = 1.0 + 0.07 * np.sin(rings) + 0.05 * streaks + 0.05 * blotches
    else:
        base = np.array(rng.choice(_LAMINATES), dtype=np.float32) * rng.uniform(0.9, 1.1)
        speckle = rng.standard_normal(coarse).astype(np.float32)
        shade = 1.0 + 0.06 * speckle + 0.04 * blotches
    small = np.clip(shade[:, :, None] * base, 0, 255).astype(np.uint8)
    return np.asarray(cv2.resize(small, frame, interpolation=cv2.INTER_LINEAR), dtype=np.uint8)


def _stretch_along(noise: Floats, heading: float, length: float) -> Floats:
    """Noise smeared along a direction into streaks ``length`` grid cells long."""
    size = int(2 * length) | 1
    kernel = np.zeros((size, size), dtype=np.float32)
    half = size // 2
    reach = np.linspace(-half, half, 4 * size)
    cols = np.round(half + reach * math.cos(heading)).astype(int)
    rows = np.round(half + reach * math.sin(heading)).astype(int)
    kernel[rows, cols] = 1.0
    smeared = cv2.filter2D(noise, -1, kernel / kernel.sum())
    return np.asarray(smeared / (float(smeared.std()) or 1.0), dtype=np.float32)


_WOODS = ((150, 105, 70), (180, 140, 100), (110, 75, 50), (200, 170, 130))
_LAMINATES = ((120, 120, 118), (70, 72, 76), (160, 150, 135), (95, 100, 90))


def _smooth_noise(shape: tuple[int, int], scale: float, rng: np.random.Generator) -> Floats:
    """Noise of about unit spread that changes over ``scale`` pixels."""
    noise = rng.standard_normal(shape).astype(np.float32)
    smooth = cv2.GaussianBlur(noise, (0, 0), scale)
    return np.asarray(smooth / (float(smooth.std()) or 1.0), dtype=np.float32)


def _lay_sheet(
    scene: Pixels,
    page: Pixels,
    px_per_mm: float,
    size_mm: tuple[float, float],
    to_image: Matrix,
    curl: Curl | None,
) -> None:
    """Draw the paper into the scene, over the table, curled if it is."""
    page = _match_resolution(page, px_per_mm, size_mm, to_image)
    to_page = _page_pixels(page.shape[1] / size_mm[0], page.shape[0] / size_mm[1])
    frame = (scene.shape[1], scene.shape[0])
    if curl is None:
        cv2.warpPerspective(
            page,
            to_image @ _inverse(to_page),
            frame,
            dst=scene,
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_TRANSPARENT,
        )
        return
    map_x, map_y = _curled_map(frame, to_image, curl, to_page)
    cv2.remap(page, map_x, map_y, cv2.INTER_LINEAR, dst=scene, borderMode=cv2.BORDER_TRANSPARENT)


def _match_resolution(
    page: Pixels, px_per_mm: float, size_mm: tuple[float, float], to_image: Matrix
) -> Pixels:
    """The page shrunk first when the photo sees it much smaller, so that warping it does not
    alias its fine lines."""
    seen_px_per_mm = _seen_px_per_mm(size_mm, to_image)
    if seen_px_per_mm > 0.8 * px_per_mm:
        return page
    shrink = seen_px_per_mm / px_per_mm
    size = (max(2, round(page.shape[1] * shrink)), max(2, round(page.shape[0] * shrink)))
    return np.asarray(cv2.resize(page, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)


def _seen_px_per_mm(size_mm: tuple[float, float], to_image: Matrix) -> float:
    """The photo's mean resolution over the sheet, from the area the sheet takes up in it."""
    corners = np.array([[0, 0], [size_mm[0], 0], size_mm, [0, size_mm[1]]], dtype=np.float64)
    seen = _apply(to_image, corners)
    twice_area = np.dot(seen[:, 0], np.roll(seen[:, 1], 1)) - np.dot(
        seen[:, 1], np.roll(seen[:, 0], 1)
    )
    return math.sqrt(abs(float(twice_area)) / 2 / (size_mm[0] * size_mm[1]))


def _curled_map(
    frame: tuple[int, int], to_image: Matrix, curl: Curl, to_page: Matrix
) -> tuple[Floats, Floats]:
    """For every image pixel, the page pixel seen there, found on a coarse grid and smoothed up.

    Each image point is first taken back to the flat table; the page point that appears there is
    found by fixed-point iteration, which converges because the curl moves points by a few mm
    and changes slowly.
    """
    step = 8
    width, height = frame
    xs = np.arange(0, width + step, step, dtype=np.float64)
    ys = np.arange(0, height + step, step, dtype=np.float64)
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    flat = _apply(_inverse(to_image), np.asarray(grid, dtype=np.float64))
    points = flat.copy()
    for _ in range(8):
        points += flat - curl.flat_points(points)
    pixels = _apply(to_page, points).astype(np.float32)
    shape = (len(ys), len(xs))
    map_x = _upsample(pixels[:, 0].reshape(shape), step, frame)
    map_y = _upsample(pixels[:, 1].reshape(shape), step, frame)
    return map_x, map_y


def _upsample(coarse: Field, step: int, frame: tuple[int, int]) -> Field:
    """A field known on grid nodes ``step`` pixels apart (node 0 on pixel 0), over the frame."""
    scale = np.array([[1.0 / step, 0.0, 0.0], [0.0, 1.0 / step, 0.0]])
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    full = cv2.warpAffine(coarse, scale, frame, flags=flags, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(full, dtype=coarse.dtype)


def _draw_finger(
    scene: Pixels,
    outline: Polygon,
    radius_mm: float,
    size_mm: tuple[float, float],
    to_image: Matrix,
    rng: np.random.Generator,
) -> None:
    """A fingertip over the sheet: a rounded, shaded, skin-coloured blob and its soft shadow."""
    across = 2 * radius_mm * _seen_px_per_mm(size_mm, to_image)
    polygon = _apply(to_image, np.asarray(outline.exterior.coords))
    height, width = scene.shape[:2]
    pad = math.ceil(across)
    x0, y0 = np.floor(polygon.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(polygon.max(axis=0)).astype(int) + pad
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
    corner = np.array([x0, y0])
    cv2.fillPoly(mask, [np.round((polygon - corner) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    shadow = _cast_shadow(mask, rng.uniform(0.1, 0.3) * across, 0.25 * across, rng)
    alpha = cv2.GaussianBlur(mask, (0, 0), max(1.0, 0.03 * across)).astype(np.float32) / 255.0
    depth = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
    roundness = np.sqrt(np.clip(depth / (across / 2), 0.0, 1.0))
    skin = np.array(rng.choice(_SKINS), dtype=np.float32) * rng.uniform(0.9, 1.1)
    under = (1.0 - 0.45 * shadow) * (1.0 - alpha)
    over = (0.55 + 0.45 * roundness) * alpha
    patch = scene[y0:y1, x0:x1].astype(np.float32) * under[:, :, None]
    patch += over[:, :, None] * skin
    scene[y0:y1, x0:x1] = np.clip(patch, 0, 255).astype(np.uint8)


_SKINS = ((232, 186, 160), (214, 160, 128), (176, 120, 90), (120, 80, 58))


def _finger_outline(
    size_mm: tuple[float, float], rng: np.random.Generator
) -> tuple[Polygon, float] | None:
    """A hand beyond the paper's left, right or top edge with a finger 16-22 mm wide lying on the
    margin, and the finger's radius in mm; ``None`` if no place is found (a page too small).

    It never covers the content frame (the field and score areas) or a corner marker, and it
    leaves the bottom edge, which holds the QR code, alone.
    """
    width, height = size_mm
    keep_clear = unary_union(
        [box(*content_frame(width, height).box)]
        + [box(*b).buffer(2.0) for b in marker_boxes(width, height).values()]
    )
    for _ in range(40):
        side = ("left", "right", "top")[int(rng.integers(3))]
        radius = rng.uniform(8.0, 11.0)
        slant = math.radians(rng.uniform(-25.0, 25.0))
        if side == "top":
            tip = np.array([rng.uniform(0.25, 0.75) * width, rng.uniform(3.0, 25.0)])
            inward = np.array([math.sin(slant), math.cos(slant)])
        else:
            tip = np.array([rng.uniform(2.0, 10.0), rng.uniform(0.2, 0.8) * height])
            inward = np.array([math.cos(slant), math.sin(slant)])
            if side == "right":
                tip[0] = width - tip[0]
                inward[0] = -inward[0]
        finger = LineString([tip - inward * 90.0, tip - inward * radius]).buffer(radius)
        palm = LineString([tip - inward * 120.0, tip - inward * 300.0]).buffer(45.0)
        hand = unary_union([finger, palm])
        if isinstance(hand, Polygon) and not hand.intersects(keep_clear):
            return Polygon(hand.exterior), radius
    return None


def _cast_shadow(mask: Pixels, shift: float, blur: float, rng: np.random.Generator) -> Floats:
    """The mask moved ``shift`` pixels in a random direction and softened by ``blur``: the
    shadow it casts, made at a quarter of the resolution since it has no sharp edge."""
    height, width = mask.shape
    small = cv2.resize(
        mask, (max(1, width // 4), max(1, height // 4)), interpolation=cv2.INTER_AREA
    )
    heading = rng.uniform(0.0, 2.0 * math.pi)
    dx, dy = shift / 4 * math.cos(heading), shift / 4 * math.sin(heading)
    move = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
    moved = cv2.warpAffine(small, move, (small.shape[1], small.shape[0]))
    soft = cv2.GaussianBlur(moved, (0, 0), max(0.5, blur / 4))
    full = cv2.resize(soft, (width, height), interpolation=cv2.INTER_LINEAR)
    return np.asarray(full, dtype=np.float32) / 255.0


_LIGHT_STEP = 16


def _light(
    frame: tuple[int, int],
    size_mm: tuple[float, float],
    to_image: Matrix,
    tier: Tier,
    rng: np.random.Generator,
) -> Floats:
    """The light falling on a coarse grid of the frame's pixels, 1 at the sheet's brightest.

    A smooth gradient (a slope in one direction and a fall from a bright spot) dims the sheet by
    at most ``tier.gradient``; a soft shadow band may cross it too.
    """
    width, height = frame
    step = _LIGHT_STEP
    grid_x = (np.arange(width // step + 2, dtype=np.float32) * step)[None, :]
    grid_y = (np.arange(height // step + 2, dtype=np.float32) * step)[:, None]
    heading = rng.uniform(0.0, 2.0 * math.pi)
    slope = grid_x * math.cos(heading) + grid_y * math.sin(heading)
    spot = rng.uniform([0.0, 0.0], [width, height])
    fall = np.hypot(grid_x - spot[0], grid_y - spot[1])
    mix = rng.uniform(0.0, 1.0)
    ramp = mix * slope + (1.0 - mix) * fall
    on_sheet = _sheet_mask(grid_x, grid_y, size_mm, to_image)
    low, high = float(ramp[on_sheet].min()), float(ramp[on_sheet].max())
    ramp = np.clip((ramp - low) / max(high - low, 1e-6), 0.0, 1.3)
    light = 1.0 - rng.uniform(0.3, 1.0) * tier.gradient * ramp
    if tier.shadow > 0.0:
        light *= 1.0 - rng.uniform(0.5, 1.0) * tier.shadow * _band(grid_x, grid_y, frame, rng)
    return np.asarray(light, dtype=np.float32)


def _coloured_light(light: Floats, gains: Points, frame: tuple[int, int]) -> Pixels:
    """The coarse light field times each channel's gain, as 8-bit multipliers over the frame."""
    channels = np.clip(light[:, :, None] * gains * 255.0 + 0.5, 0.0, 255.0).astype(np.uint8)
    return _upsample(channels, _LIGHT_STEP, frame)


def _sheet_mask(
    grid_x: Floats, grid_y: Floats, size_mm: tuple[float, float], to_image: Matrix
) -> NDArray[np.bool_]:
    """Which grid points see the sheet."""
    points = np.stack(np.broadcast_arrays(grid_x, grid_y), axis=-1).reshape(-1, 2)
    page = _apply(_inverse(to_image), np.asarray(points, dtype=np.float64))
    inside = (page >= 0).all(axis=1) & (page[:, 0] <= size_mm[0]) & (page[:, 1] <= size_mm[1])
    return np.asarray(inside.reshape(grid_y.size, grid_x.size))


def _band(
    grid_x: Floats, grid_y: Floats, frame: tuple[int, int], rng: np.random.Generator
) -> Floats:
    """A straight shadow band with soft edges, 0 outside and 1 in its core."""
    diagonal = math.hypot(*frame)
    heading = rng.uniform(0.0, math.pi)
    through = rng.uniform([0.25, 0.25], [0.75, 0.75]) * np.array(frame)
    across = np.abs(
        (grid_x - through[0]) * -math.sin(heading) + (grid_y - through[1]) * math.cos(heading)
    )
    half = rng.uniform(0.06, 0.15) * diagonal
    soft = rng.uniform(0.02, 0.06) * diagonal
    return np.asarray(np.clip((half - across) / soft + 0.5, 0.0, 1.0), dtype=np.float32)


def _sensor(image: Pixels, blur: float, noise: float, rng: np.random.Generator) -> Pixels:
    """The lens's blur, then the sensor's noise.

    The noise is mostly shared by the channels (luminance), with a weaker and coarser colour
    part, as a phone's processing leaves it.
    """
    height, width = image.shape[:2]
    blurred = cv2.GaussianBlur(image, (0, 0), blur)
    grey = np.rint(rng.standard_normal((height, width), dtype=np.float32) * np.float32(noise))
    coarse = rng.standard_normal(((height + 3) // 4, (width + 3) // 4, 3), dtype=np.float32)
    colour = cv2.resize(np.rint(coarse * np.float32(0.5 * noise)).astype(np.int16), (width, height))
    grain = cv2.add(cv2.merge([grey.astype(np.int16)] * 3), colour)
    return np.asarray(cv2.add(blurred, grain, dtype=cv2.CV_8U), dtype=np.uint8)


_STORED_TURN = {
    3: Image.Transpose.ROTATE_180,
    6: Image.Transpose.ROTATE_90,
    8: Image.Transpose.ROTATE_270,
}
"""How an upright image is turned for storing with each EXIF Orientation, so that applying the
tag turns it back."""


def _encode(
    pixels: Pixels, tier: Tier, rng: np.random.Generator
) -> tuple[bytes, Literal["jpeg", "png"], int]:
    """The image as its file's bytes, its format and the EXIF orientation it is stored with."""
    image = Image.fromarray(pixels)
    exif = Image.Exif()
    orientation = 1
    if rng.random() < tier.exif_chance:
        orientation = int(rng.choice(list(_STORED_TURN)))
        image = image.transpose(_STORED_TURN[orientation])
        exif[ExifTags.Base.Orientation] = orientation
    out = io.BytesIO()
    if rng.random() < tier.png_chance:
        image.save(out, format="PNG", compress_level=1, exif=exif)
        return out.getvalue(), "png", orientation
    quality = int(rng.integers(tier.jpeg_quality[0], tier.jpeg_quality[1] + 1))
    image.save(out, format="JPEG", quality=quality, exif=exif)
    return out.getvalue(), "jpeg", orientation
