"""Opening a photo or a scan as pixels, treating the file as hostile until it has been checked.

A phone photo arrives with its EXIF orientation to apply; a copier's scan arrives as a PDF with one
sheet per page. Either may be damaged, truncated, enormous, or not an image at all. Every check is
made before the expensive step it guards: the byte count before reading, the pixel count (from the
header) before decoding, the page count and page size before rendering.

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
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageOps, UnidentifiedImageError

from papergames.errors import PapergamesError
from papergames.files import UnreadableFileError, read_bounded
from papergames.units import MM_PER_INCH

MAX_FILE_BYTES = 80_000_000
"""Largest photo or scan file read: a 48 MP phone JPEG is under 30 MB, a 30-page scan under 80."""
MAX_PIXELS = 60_000_000
"""Largest image decoded (a 48 MP phone photo fits); a bigger one is refused from its header."""
WORKING_SIDE = 3200
"""Longest side, in pixels, the reader works at: enough for 0.2 mm on A4, and quick."""
MAX_PDF_PAGES = 200
SCAN_DPI = 200
"""Resolution a PDF page is rendered at for reading."""


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
    one for a photo, which is only decoded when its page is asked for.

    Raises:
        PhotoFileError: a PDF that is damaged, empty or too long.
    """
    if not data.startswith(b"%PDF"):
        return 1
    with _pdf(data, source) as document:
        return len(document)


def page_from_bytes(data: bytes, source: str, index: int) -> PagePixels:
    """Page ``index`` (from 0) of a file's bytes, decoded: a photo has only page 0. Pages are
    decoded one at a time, so a long PDF of scans never sits in memory whole.

    Raises:
        PhotoFileError: the file is not an image or PDF that can be read, or the page is not
            there or has an impossible size.
    """
    if not data.startswith(b"%PDF"):
        if index != 0:
            raise PhotoFileError(f"{source}: a photo has one page, not {index + 1}")
        return _photo(data, source)
    with _pdf(data, source) as document:
        if not 0 <= index < len(document):
            raise PhotoFileError(f"{source}: the PDF has no page {index + 1}")
        return _pdf_page(document, source, index)


def _photo(data: bytes, source: str) -> PagePixels:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise PhotoFileError(
                    f"{source}: the image is {width} x {height} pixels, more than papergames "
                    f"reads ({MAX_PIXELS // 1_000_000} million); send a smaller photo"
                )
            upright = ImageOps.exif_transpose(image)
            upright.load()
    except PhotoFileError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoFileError(f"{source}: the image claims too many pixels to decode") from None
    except OSError as exc:
        if "truncated" in str(exc).lower():
            raise PhotoFileError(
                f"{source}: the image is truncated (the file is cut short)"
            ) from None
        raise PhotoFileError(f"{source}: not an image or PDF that papergames can read") from None
    except (ValueError, SyntaxError, UnidentifiedImageError):
        raise PhotoFileError(f"{source}: not an image or PDF that papergames can read") from None
    return _working(upright.convert("RGB"), source)


def _working(image: Image.Image, source: str, px_per_mm: float | None = None) -> PagePixels:
    longest = max(image.size)
    scale = min(1.0, WORKING_SIDE / longest) if longest else 1.0
    if scale < 1.0:
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.Resampling.LANCZOS)
    resolution = None if px_per_mm is None else px_per_mm * scale
    return PagePixels(np.asarray(image, dtype=np.uint8), source, scale, resolution)


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
    return _working(image.convert("RGB"), f"{source} page {index + 1}", SCAN_DPI / MM_PER_INCH)
