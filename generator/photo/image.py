"""Opening a photo or a scan as pixels, treating the file as hostile until it has been checked.

A phone photo arrives with its EXIF orientation to apply (an iPhone's as HEIC); a copier's scan
arrives as a PDF with one sheet per page. Either may be damaged, truncated, enormous, or not an
image at all. Every check is made before the expensive step it guards: the byte count before
reading, the pixel count (from the header) before decoding, the page count and page size before
rendering. Only the formats a phone or a copier makes are decoded; any other picture is named and
refused. A PDF's size says nothing of what drawing it costs (a page of a few kilobytes can inflate
to gigabytes), so every PDF is opened and drawn in a child process with a memory and time limit.

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
import os
import re
import selectors
import signal
import struct
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any, NoReturn

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

PDF_MEMORY = 512 * 2**20
"""Memory, in bytes, that opening a PDF or drawing one of its pages may take on top of what the
reader already holds. A 600 dpi A3 scan takes about 130 MB; a page that inflates to gigabytes is
stopped here, so a copier's PDF is read in under 1 GB whatever it holds."""
PDF_SECONDS = 120.0
"""Time, in seconds, that opening a PDF or drawing one of its pages may take (a scanned page
takes well under a second); a page that would take for ever is stopped."""

READ_FORMATS = ("JPEG", "MPO", "PNG", "HEIF", "AVIF", "WEBP", "TIFF", "BMP", "GIF")
"""The image formats decoded, as Pillow names them: what phones, cameras, scanners and screenshots
make (HEIF is an iPhone's HEIC, read by pillow-heif; MPO is a camera's JPEG). Pillow knows many
more, but their decoders (PostScript through Ghostscript, say) are more than a photo of a sheet
needs, so any other format is named and refused, never decoded."""

GIVE = "give a JPEG, PNG, HEIC or a PDF"
"""What to send instead of a file that cannot be read."""

VIDEO = "video"
"""What :func:`image_format` says of a film."""

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xd8\xff", "JPEG"),
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"BM", "BMP"),
    (b"II*\x00", "TIFF"),
    (b"MM\x00*", "TIFF"),
    (b"\xff\x0a", "JPEG XL"),
    (b"\x00\x00\x00\x0cJXL \r\n\x87\n", "JPEG XL"),
    (b"\x00\x00\x00\x0cjP  \r\n\x87\n", "JPEG 2000"),
    (b"\xff\x4f\xff\x51", "JPEG 2000"),
    (b"8BPS", "Photoshop (PSD)"),
    (b"%!PS", "PostScript"),
    (b"\xc5\xd0\xd3\xc6", "PostScript"),
    (b"gimp xcf", "GIMP (XCF)"),
    (b"qoif", "QOI"),
    (b"\x76\x2f\x31\x01", "OpenEXR"),
    (b"\x00\x00\x01\x00", "ICO"),
    (b"\x1a\x45\xdf\xa3", VIDEO),
)
"""First bytes that name a picture's format (or a film's)."""

_HEIF_BRANDS = frozenset(
    {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs", b"mif1", b"msf1"}
)
_VIDEO_BRANDS = frozenset(
    {b"qt  ", b"isom", b"iso2", b"mp41", b"mp42", b"avc1", b"M4V ", b"3gp4", b"3gp5", b"3g2a"}
)

_READ_AS = {
    "JPEG": "JPEG",
    "PNG": "PNG",
    "HEIC": "HEIF",
    "AVIF": "AVIF",
    "WEBP": "WEBP",
    "TIFF": "TIFF",
    "BMP": "BMP",
    "GIF": "GIF",
}
"""The formats :func:`image_format` names that papergames reads, and Pillow's name for each."""


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


def image_format(data: bytes) -> str | None:
    r"""The picture format a file's first bytes name (``"HEIC"``, ``"JPEG XL"``...), or
    :data:`VIDEO` for a film, or ``None``: so that a picture papergames cannot read is called
    what it is, and the web page sends every picture to the photo reader rather than to the
    transcript reader. Text never starts with these bytes.

    Example:
        >>> image_format(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")
        'HEIC'
        >>> image_format(b"sheet: maze seed=1") is None
        True
    """
    for signature, name in _SIGNATURES:
        if data.startswith(signature):
            return name
    if data[4:8] == b"ftyp":
        size = int.from_bytes(data[:4], "big")
        brands = {data[8:12]} | {data[k : k + 4] for k in range(16, min(size, 256) - 3, 4)}
        if brands & {b"avif", b"avis"}:
            return "AVIF"
        if brands & _HEIF_BRANDS:
            return "HEIC"
        if b"crx " in brands:
            return "Canon raw (CR3)"
        if brands & _VIDEO_BRANDS:
            return VIDEO
    if data.startswith(b"RIFF") and data[8:12] in (b"WEBP", b"AVI "):
        return "WEBP" if data[8:12] == b"WEBP" else VIDEO
    start = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if start.startswith(b"<svg") or (start.startswith(b"<?xml") and b"<svg" in start):
        return "SVG"
    return None


def page_count(data: bytes, source: str) -> int:
    """How many sheets a file holds: a PDF's pages (checked against :data:`MAX_PDF_PAGES`), or
    one for a photo, which is only decoded when its page is asked for. The PDF is opened in a
    child process (see :func:`_apart`): a page tree can be made to inflate as much as a page.

    Raises:
        PhotoFileError: a PDF that is damaged, empty or too long, or that takes more memory or
            time to open than :data:`PDF_MEMORY` and :data:`PDF_SECONDS`.
    """
    if not data.startswith(b"%PDF"):
        return 1
    return int(_apart(partial(_pdf_page_count, data, source), source, "the PDF"))


def page_from_bytes(data: bytes, source: str, index: int) -> PagePixels:
    """Page ``index`` (from 0) of a file's bytes, decoded: a photo has only page 0. Pages are
    decoded one at a time, so a long PDF of scans never sits in memory whole; each page of a PDF
    is drawn in a child process (see :func:`_apart`), so a page made to inflate to gigabytes is
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
    drawn = _apart(partial(_pdf_page_drawn, data, source, index), source, f"page {index + 1}")
    return _unpacked(drawn, f"{source} page {index + 1}")


@cache
def _heif_opener() -> bool:
    """Whether HEIC photos can be opened: pillow-heif is registered with Pillow the first time a
    photo is opened, not on import, so reading a PDF or a JPEG never loads it. Thumbnails, depth
    maps and other extra pictures in the file are not decoded: the reader wants the photo."""
    try:
        import pillow_heif
    except ImportError:
        return False
    pillow_heif.register_heif_opener(thumbnails=False, depth_images=False, aux_images=False)
    return True


def _open_image(data: bytes) -> Image.Image:
    """The image in ``data``, opened (its header read, nothing decoded) by one of the decoders of
    :data:`READ_FORMATS`.

    Raises:
        UnidentifiedImageError: none of them recognises it.
    """
    _heif_opener()
    Image.init()
    formats = [name for name in READ_FORMATS if name in Image.OPEN]
    return Image.open(io.BytesIO(data), formats=formats)


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
            upright = ImageOps.exif_transpose(image)
            upright.load()
    except PhotoFileError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoFileError(f"{source}: the image claims too many pixels to decode") from None
    except UnidentifiedImageError:
        raise PhotoFileError(_unreadable(data, source)) from None
    except (OSError, ValueError, RuntimeError, SyntaxError) as exc:
        # Pillow says "truncated" of a JPEG or PNG cut short, libheif "end of file" of a HEIC.
        if any(word in str(exc).lower() for word in ("truncated", "end of file")):
            raise PhotoFileError(
                f"{source}: the image is truncated (the file is cut short)"
            ) from None
        raise PhotoFileError(_unreadable(data, source)) from None
    return _working(upright.convert("RGB"), source)


def _unreadable(data: bytes, source: str) -> str:
    """Why ``data`` is no image papergames reads, in one line naming what it is when that is
    known: a teacher told "not an image" of a WEBP or a HEIC would not know what to send."""
    name = image_format(data) or _known_to_pillow(data)
    if name is None:
        return f"{source}: not an image or PDF that papergames can read"
    if name == VIDEO:
        return f"{source}: a video, not a photo: {GIVE}"
    if name == "HEIC" and not _heif_opener():
        return (
            f"{source}: an image in HEIC format, which this installation cannot read (the "
            "pillow-heif package is missing): give a JPEG, PNG or a PDF"
        )
    if _READ_AS.get(name) in Image.OPEN:
        return f"{source}: a damaged {name} image that cannot be read"
    return f"{source}: an image in {name} format, which papergames cannot read: {GIVE}"


def _known_to_pillow(data: bytes) -> str | None:
    """The format Pillow finds in ``data`` by reading its header only (never decoding it), for a
    picture :func:`image_format` cannot name."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as image:
                return image.format
    except Exception:  # a damaged header in any of Pillow's formats: the file is not named
        return None


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


def _apart(work: Callable[[], bytes], source: str, what: str) -> bytes:
    """What ``work`` returns, worked out in a child process that may take at most
    :data:`PDF_MEMORY` more memory and :data:`PDF_SECONDS` of time.

    PDFium decodes a page's content streams and images whole: a PDF of a megabyte can make it
    allocate gigabytes, and no check of the file's declared sizes catches every way (nested
    streams, object streams, filters stacked on filters). So the work is done where running out
    of memory stops a throwaway process, not the reader or the web page, and whatever the file
    holds costs at most the limit. Forking shares the reader's memory, so the child starts at
    once, with nothing copied. Where there is no ``fork`` (Windows), the work is done here.

    Raises:
        PhotoFileError: ``work``'s own error, or that ``what`` (``page 3``, ``the PDF``) takes
            too much memory or time, or broke PDFium.
    """
    if not hasattr(os, "fork"):
        return work()
    import pypdfium2  # noqa: F401 -- loaded here once, not in every child

    resident = _own_memory().get("VmRSS", 0)
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():
        # Python 3.12 warns of forking a process with threads (the web page has some): the child
        # only draws and writes to its pipe, and takes none of the locks they may hold.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _child(work, write_end)
    os.close(write_end)
    reaped = False
    try:
        answer = _answer(read_end, time.monotonic() + PDF_SECONDS)
        if answer is None:
            os.kill(pid, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
        reaped = True
    finally:
        os.close(read_end)
        if not reaped:  # stopped by a signal or an error of its own: the child goes too
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
    if answer is None:
        raise PhotoFileError(
            f"{source}: {what} takes too long to draw (more than {PDF_SECONDS:.0f} seconds); "
            "papergames does not read it"
        )
    if answer[:1] == b"P" and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return answer[1:]
    if answer[:1] == b"E":
        raise PhotoFileError(answer[1:].decode("utf-8", "replace"))
    grown = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024) - resident
    if answer[:1] == b"M" or grown > PDF_MEMORY // 2:
        raise PhotoFileError(
            f"{source}: {what} needs more than {PDF_MEMORY // 2**20} MB of memory to draw, far "
            "more than a scanned sheet; papergames does not read it"
        )
    raise PhotoFileError(f"{source}: {what} could not be drawn (the PDF is damaged)")


def _answer(read_end: int, deadline: float) -> bytes | None:
    """All the child writes to its pipe, or ``None`` when it is still writing at ``deadline``.
    (A selector, not ``select``, which fails on the high descriptors of a busy web page.)"""
    chunks: list[bytes] = []
    with selectors.DefaultSelector() as waiting:
        waiting.register(read_end, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0:
            if not waiting.select(left):
                continue
            chunk = os.read(read_end, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    return None


def _child(work: Callable[[], bytes], write_end: int) -> NoReturn:
    """The child of :func:`_apart`: limit itself, do the work, write the answer, and end without
    running anything of the parent's (no ``atexit``, no buffers flushed twice).

    The answer is one letter then its text: ``P`` and the work's bytes, ``E`` and a
    :class:`PapergamesError`'s message, ``M`` when Python ran out of memory. PDFium itself ends
    the process when it does; the parent tells that from the child's exit.
    """
    code = 1
    try:
        _quieten()
        _limit_memory(PDF_MEMORY)
        try:
            answer = [b"P", work()]
        except PapergamesError as exc:
            answer = [b"E", str(exc).encode("utf-8", "replace")]
        except MemoryError:
            answer = [b"M"]
        with open(write_end, "wb") as out:
            for part in answer:
                out.write(part)
        code = 0
    except BaseException:  # the parent reads a missing answer as a failure
        pass
    finally:
        os._exit(code)


def _quieten() -> None:
    """Send the child's output nowhere: PDFium may print, and the terminal is the parent's (a
    fault handler the parent set up would print a stack when PDFium ends the child: off too)."""
    import faulthandler

    faulthandler.disable()
    warnings.simplefilter("ignore")
    nowhere = os.open(os.devnull, os.O_WRONLY)
    os.dup2(nowhere, 1)
    os.dup2(nowhere, 2)
    os.close(nowhere)
    sys.stdout = sys.stderr = Path(os.devnull).open("w")  # noqa: SIM115 -- ended by os._exit


def _limit_memory(extra: int) -> None:
    """Let this process map at most ``extra`` more bytes than it has now (and leave no core file
    when it is stopped). Both the address space and the data segment are limited: memory that a
    thread of the parent had reserved without using counts in the first but not the second."""
    try:
        import resource
    except ImportError:  # no such limits here: the child still keeps the reader safe from crashes
        return
    sizes = _own_memory()
    limits = [(resource.RLIMIT_AS, "VmSize"), (resource.RLIMIT_DATA, "VmData")]
    for limit, key in limits:
        if key not in sizes:
            continue
        _, hard = resource.getrlimit(limit)
        wanted = sizes[key] + extra
        if hard != resource.RLIM_INFINITY:
            wanted = min(wanted, hard)
        with suppress(ValueError, OSError):
            resource.setrlimit(limit, (wanted, hard))
    with suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _own_memory() -> dict[str, int]:
    """This process's memory from ``/proc/self/status``, in bytes (``VmSize``, ``VmData``,
    ``VmRSS``), or nothing where there is no ``/proc``."""
    sizes: dict[str, int] = {}
    try:
        with Path("/proc/self/status").open(encoding="ascii", errors="replace") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmSize", "VmData", "VmRSS") and value.strip().endswith("kB"):
                    sizes[key] = int(value.split()[0]) * 1024
    except (OSError, ValueError):
        return {}
    return sizes
