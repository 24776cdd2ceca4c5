"""Opening a photo or a scan as pixels, treating the file as hostile until it has been checked.

A phone photo arrives with its EXIF orientation to apply (an iPhone's as HEIC); a copier's scan
arrives as a PDF with one sheet per page. Either may be damaged, truncated, enormous, or not an
image at all. Every check is made before the expensive step it guards: the byte count before
reading, the pixel count (from the header) before decoding, the page count and page size before
rendering. Only the formats a phone or a copier makes are decoded; any other picture is named and
refused. A PDF's size says nothing of what drawing it costs (a page of a few kilobytes can inflate
to gigabytes), so every PDF is opened and drawn in a child process with a memory and time limit.

What a file is, and which formats are decoded, is :mod:`papergames.photo.formats`'s to say; the
child process is :mod:`papergames.photo.apart`'s. This module opens the file with them and hands
back pixels.

Example:
    >>> import io
    >>> from PIL import Image
    >>> buf = io.BytesIO()
    >>> Image.new("RGB", (40, 30), "white").save(buf, "PNG")
    >>> [page.pixels.shape for page in images_from_bytes(buf.getvalue(), "white.png")]
    [(30, 40, 3)]
    >>> images_from_bytes(b"not an image", "note.txt")
    Traceback (most recent call last):
    ...
    papergames.photo.image.PhotoFileError: note.txt: not an image or PDF that papergames can read
    >>> images_from_bytes(b"\\xff\\x0a" + bytes(40), "x.jxl")
    Traceback (most recent call last):
    ...
    papergames.photo.image.PhotoFileError: x.jxl: an image in JPEG XL format, which papergames ...
"""

from __future__ import annotations

import io
import re
import struct
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageOps, UnidentifiedImageError

from papergames.errors import PapergamesError
from papergames.files import UnreadableFileError, read_bounded
from papergames.photo.apart import (
    CrashError,
    MemoryLimitError,
    TimeLimitError,
    WorkError,
    run_apart,
)
from papergames.photo.formats import READ_FORMATS, heif_opener, image_format, why_unreadable
from papergames.sheets.units import MM_PER_INCH

MAX_FILE_BYTES = 80_000_000
"""Largest photo or scan file read: a 48 MP phone JPEG is under 30 MB, a 30-page scan under 80."""
MAX_PIXELS = 60_000_000
"""Largest image decoded (a 48 MP phone photo fits); a bigger one is refused from its header."""
WORKING_SIDE = 3200
"""Longest side, in pixels, the reader works at: enough for 0.2 mm on A4, and quick."""
MAX_PDF_PAGES = 200
SCAN_DPI = 200
"""Resolution a PDF page is rendered at for reading."""

PDF_MEMORY = 512 * 2**20
"""Memory, in bytes, that opening a PDF or drawing one of its pages may take on top of what the
reader already holds. A 600 dpi A3 scan takes about 130 MB; a page that inflates to gigabytes is
stopped here, so a copier's PDF is read in under 1 GB whatever it holds."""
PDF_SECONDS = 120.0
"""Time, in seconds, that opening a PDF or drawing one of its pages may take (a scanned page
takes well under a second); a page that would take for ever is stopped."""

EMPTY_PAGE_TREE = re.compile(
    rb"/Type\s*/Pages\b[^>]*/Count\s+0\b|/Count\s+0\b[^>]*/Type\s*/Pages\b"
)
"""A page tree that counts no pages: PDFium refuses such a file without saying why."""


class PhotoFileError(PapergamesError):
    """A photo or scan file that cannot be read as an image (the message names the file)."""


@dataclass(frozen=True)
class PagePixels:
    """One page to read: RGB pixels (height, width, 3) and where they came from.

    Attributes:
        pixels: 8-bit RGB, upright (EXIF orientation applied), at most :data:`WORKING_SIDE` long.
        source: the file name, with ``page N`` for a page of a PDF.
        scale: working pixels per original pixel (1.0 when not reduced).
        px_per_mm: the working pixels' true resolution on paper, when the file says it (a page
            of a PDF, whose size is the paper's); ``None`` for photos, whose resolution depends
            on how far the camera was.
    """

    pixels: NDArray[np.uint8]
    source: str
    scale: float
    px_per_mm: float | None = None


def read_images(path: Path) -> list[PagePixels]:
    """Every page in a photo (one) or a scanned PDF (one per page).

    Raises:
        PhotoFileError: missing, not a regular file, too large, damaged, or not an image or PDF.
    """
    return images_from_bytes(read_photo_file(path), str(path))


def read_photo_file(path: Path) -> bytes:
    """A photo or scan file's bytes, read within :data:`MAX_FILE_BYTES`.

    Raises:
        PhotoFileError: missing, not a regular file, or too large.
    """
    try:
        return read_bounded(path, MAX_FILE_BYTES)
    except UnreadableFileError as exc:
        raise PhotoFileError(f"{path}: {exc}") from None


def images_from_bytes(data: bytes, source: str) -> list[PagePixels]:
    """The pages held in a file's bytes (see :func:`read_images`)."""
    return [page_from_bytes(data, source, k) for k in range(page_count(data, source))]


def page_count(data: bytes, source: str) -> int:
    """How many sheets a file holds: a PDF's pages (checked against :data:`MAX_PDF_PAGES`), or
    one for a photo, which is only decoded when its page is asked for. The PDF is opened in a
    child process (see :func:`_pdf_apart`): a page tree can be made to inflate as much as a page.

    Raises:
        PhotoFileError: a PDF that is damaged, empty or too long, or that takes more memory or
            time to open than :data:`PDF_MEMORY` and :data:`PDF_SECONDS`.
    """
    if not data.startswith(b"%PDF"):
        return 1
    return int(_pdf_apart(partial(_pdf_page_count, data, source), source, "the PDF"))


def page_from_bytes(data: bytes, source: str, index: int) -> PagePixels:
    """Page ``index`` (from 0) of a file's bytes, decoded: a photo has only page 0. Pages are
    decoded one at a time, so a long PDF of scans never sits in memory whole; each page of a PDF
    is drawn in a child process (see :func:`_pdf_apart`), so a page made to inflate to gigabytes is
    refused rather than filling the memory.

    Raises:
        PhotoFileError: the file is not an image or PDF that can be read, or the page is not
            there, has an impossible size, or takes more memory or time to draw than
            :data:`PDF_MEMORY` and :data:`PDF_SECONDS`.
    """
    if not data.startswith(b"%PDF"):
        if index != 0:
            raise PhotoFileError(f"{source}: a photo has one page, not {index + 1}")
        return _photo(data, source)
    drawn = _pdf_apart(partial(_pdf_page_drawn, data, source, index), source, f"page {index + 1}")
    return _unpacked(drawn, f"{source} page {index + 1}")


def _open_image(data: bytes) -> Image.Image:
    """The image in ``data``, opened (its header read, nothing decoded) by one of the decoders of
    :data:`~papergames.photo.formats.READ_FORMATS`.

    A JPEG or a PNG, nearly every photo, is opened by the decoders Pillow loads first: loading
    all of Pillow's formats and pillow-heif costs a tenth of a second that ``papergames read``
    would pay on every photo.

    Raises:
        UnidentifiedImageError: none of them recognises it.
    """
    Image.preinit()
    if image_format(data) not in QUICK_FORMATS:
        heif_opener()
        Image.init()
    formats = [name for name in READ_FORMATS if name in Image.OPEN]
    return Image.open(io.BytesIO(data), formats=formats)


QUICK_FORMATS = frozenset({"JPEG", "PNG", "GIF", "BMP"})
"""Formats, as :func:`~papergames.photo.formats.image_format` names them, whose decoders Pillow
loads before any other (``Image.preinit``)."""


def _photo(data: bytes, source: str) -> PagePixels:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = _open_image(data)
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise PhotoFileError(
                    f"{source}: the image is {width} x {height} pixels, more than papergames "
                    f"reads ({MAX_PIXELS // 1_000_000} million); send a smaller photo"
                )
            decoded = _decoded_jpeg(data, image)
            if decoded is not None:
                return _working(decoded, source)
            # In place: a photo already upright is not copied (0.03 s on 12 MP).
            ImageOps.exif_transpose(image, in_place=True)
            image.load()
    except PhotoFileError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoFileError(f"{source}: the image claims too many pixels to decode") from None
    except UnidentifiedImageError:
        raise PhotoFileError(why_unreadable(data, source)) from None
    except (OSError, ValueError, RuntimeError, SyntaxError) as exc:
        # Pillow says "truncated" of a JPEG or PNG cut short, libheif "end of file" of a HEIC.
        if any(word in str(exc).lower() for word in ("truncated", "end of file")):
            raise PhotoFileError(
                f"{source}: the image is truncated (the file is cut short)"
            ) from None
        raise PhotoFileError(why_unreadable(data, source)) from None
    return _working(_rgb(image), source)


def _rgb(image: Image.Image) -> NDArray[np.uint8]:
    return np.asarray(image if image.mode == "RGB" else image.convert("RGB"), dtype=np.uint8)


JPEG_END = b"\xff\xd9"
"""The marker a whole JPEG ends with: a file cut short lacks it."""
ORIENTATION_TAG = 0x0112
"""The EXIF tag saying how the camera was turned."""
_UPRIGHT: dict[int, Callable[[NDArray[np.uint8]], NDArray[Any]]] = {
    2: lambda a: cv2.flip(a, 1),
    3: lambda a: cv2.rotate(a, cv2.ROTATE_180),
    4: lambda a: cv2.flip(a, 0),
    5: lambda a: cv2.transpose(a),
    6: lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
    7: lambda a: cv2.rotate(cv2.transpose(a), cv2.ROTATE_180),
    8: lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE),
}
"""Each EXIF orientation's turn back to upright, as :func:`PIL.ImageOps.exif_transpose` makes
it. OpenCV turns a 12 MP photo in 0.02 s, where numpy took 0.14 s to copy a turned view of
it; a phone held upright marks every photo it takes as turned."""


def _decoded_jpeg(data: bytes, image: Image.Image) -> NDArray[np.uint8] | None:
    """A colour JPEG photo decoded by OpenCV and turned upright, or ``None`` for Pillow to decode.

    OpenCV decodes a 12 MP phone photo in about half the time Pillow takes, to the same pixels
    (both use libjpeg-turbo), and straight to RGB (``IMREAD_COLOR_RGB``, OpenCV 4.11). Pillow
    keeps what OpenCV would not say: a JPEG that does not end as a whole one does (cut short,
    which OpenCV fills with grey), or that is not plain RGB (greyscale, CMYK).
    """
    whole = data.rstrip(b"\x00").endswith(JPEG_END)
    if image.format not in ("JPEG", "MPO") or image.mode != "RGB" or not whole:
        return None
    flags = cv2.IMREAD_COLOR_RGB | cv2.IMREAD_IGNORE_ORIENTATION
    try:
        decoded = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flags)
    except cv2.error:
        return None
    if decoded is None or decoded.shape != (image.height, image.width, 3):
        return None
    pixels = np.asarray(decoded, dtype=np.uint8)
    turn = _UPRIGHT.get(image.getexif().get(ORIENTATION_TAG, 1))
    return pixels if turn is None else np.asarray(turn(pixels), dtype=np.uint8)


def _working(pixels: NDArray[np.uint8], source: str, px_per_mm: float | None = None) -> PagePixels:
    height, width = pixels.shape[:2]
    longest = max(width, height)
    scale = min(1.0, WORKING_SIDE / longest) if longest else 1.0
    if scale < 1.0:
        # Averaging over each new pixel's area (OpenCV's INTER_AREA) is as faithful to pencil
        # as Lanczos when shrinking, and a tenth of the time on a 12 MP photo.
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        pixels = np.asarray(cv2.resize(pixels, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
    resolution = None if px_per_mm is None else px_per_mm * scale
    return PagePixels(pixels, source, scale, resolution)


@contextmanager
def _pdf(data: bytes, source: str) -> Iterator[Any]:
    """The PDF document in ``data``, checked to have between one and :data:`MAX_PDF_PAGES` pages."""
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError:
        if EMPTY_PAGE_TREE.search(data):
            raise PhotoFileError(f"{source}: the PDF has no pages") from None
        raise PhotoFileError(f"{source}: a damaged PDF that cannot be opened") from None
    with document:
        count = len(document)
        if count == 0:
            raise PhotoFileError(f"{source}: the PDF has no pages")
        if count > MAX_PDF_PAGES:
            raise PhotoFileError(
                f"{source}: the PDF has {count} pages; papergames reads at most {MAX_PDF_PAGES}"
            )
        yield document


def _pdf_page(document: Any, source: str, index: int) -> PagePixels:
    page = document[index]
    width, height = page.get_size()
    scale = SCAN_DPI / 72.0
    if width * height * scale * scale > MAX_PIXELS or min(width, height) <= 0:
        raise PhotoFileError(f"{source}: page {index + 1} has an impossible size")
    image = page.render(scale=scale).to_pil()
    return _working(_rgb(image), f"{source} page {index + 1}", SCAN_DPI / MM_PER_INCH)


def _pdf_page_count(data: bytes, source: str) -> bytes:
    """The PDF's page count, as the child process hands it back."""
    with _pdf(data, source) as document:
        return str(len(document)).encode()


def _pdf_page_drawn(data: bytes, source: str, index: int) -> bytes:
    """Page ``index`` of the PDF drawn, as the child process hands it back (:func:`_packed`)."""
    with _pdf(data, source) as document:
        if not 0 <= index < len(document):
            raise PhotoFileError(f"{source}: the PDF has no page {index + 1}")
        return _packed(_pdf_page(document, source, index))


_HEADER = struct.Struct("<IIdd")
"""A drawn page's height, width, scale and pixels per millimetre, before its RGB bytes."""


def _packed(page: PagePixels) -> bytes:
    height, width, _ = page.pixels.shape
    resolution = float("nan") if page.px_per_mm is None else page.px_per_mm
    header = _HEADER.pack(height, width, page.scale, resolution)
    return header + np.ascontiguousarray(page.pixels, dtype=np.uint8).tobytes()


def _unpacked(data: bytes, source: str) -> PagePixels:
    """The page :func:`_packed` made, checked to be whole (the bytes come from another process,
    which has read a hostile file)."""
    if len(data) < _HEADER.size:
        raise PhotoFileError(f"{source}: could not be drawn (the PDF is damaged)")
    height, width, scale, resolution = _HEADER.unpack_from(data)
    if len(data) != _HEADER.size + height * width * 3 or not 0 < scale <= 1:
        raise PhotoFileError(f"{source}: could not be drawn (the PDF is damaged)")
    pixels = np.frombuffer(data, np.uint8, offset=_HEADER.size).reshape(height, width, 3)
    return PagePixels(pixels, source, scale, None if resolution != resolution else resolution)


def _pdf_apart(work: Callable[[], bytes], source: str, what: str) -> bytes:
    """What ``work`` returns, worked out in a child process (see
    :func:`~papergames.photo.apart.run_apart`) that may take at most :data:`PDF_MEMORY` more
    memory and :data:`PDF_SECONDS` of time: PDFium decodes a page whole, so a PDF of a megabyte
    can make it allocate gigabytes.

    Raises:
        PhotoFileError: ``work``'s own error, or that ``what`` (``page 3``, ``the PDF``) takes
            too much memory or time, or broke PDFium.
    """
    import pypdfium2  # noqa: F401 -- loaded here once, not in every child

    try:
        return run_apart(work, memory=PDF_MEMORY, seconds=PDF_SECONDS)
    except WorkError as exc:
        raise PhotoFileError(str(exc)) from None
    except TimeLimitError:
        raise PhotoFileError(
            f"{source}: {what} takes too long to draw (more than {PDF_SECONDS:.0f} seconds); "
            "papergames does not read it"
        ) from None
    except MemoryLimitError:
        raise PhotoFileError(
            f"{source}: {what} needs more than {PDF_MEMORY // 2**20} MB of memory to draw, far "
            "more than a scanned sheet; papergames does not read it"
        ) from None
    except CrashError:
        raise PhotoFileError(f"{source}: {what} could not be drawn (the PDF is damaged)") from None
