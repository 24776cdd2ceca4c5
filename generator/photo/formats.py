"""What a picture file is, told from its first bytes, and which formats the photo reader decodes.

A teacher who sends a WEBP, a HEIC without pillow-heif, or a phone's video should be told what
the file is and what to send instead, not that it is "not an image". And the web page must send
every picture to the photo reader, not to the transcript reader, even one the reader refuses. So
the format is named from the file's first bytes, without decoding anything, and the reader
decodes only the formats of :data:`READ_FORMATS`: what a phone, a camera or a copier makes.

Example:
    >>> image_format(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(20))
    'PNG'
    >>> why_unreadable(b"\\xff\\x0a" + bytes(40), "x.jxl")
    'x.jxl: an image in JPEG XL format, which papergames cannot read: give a JPEG, PNG, HEIC...'
"""

from __future__ import annotations

import io
import warnings
from functools import cache

from PIL import Image

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


@cache
def heif_opener() -> bool:
    """Whether HEIC photos can be opened: pillow-heif is registered with Pillow the first time a
    photo is opened, not on import, so reading a PDF or a JPEG never loads it. Thumbnails, depth
    maps and other extra pictures in the file are not decoded: the reader wants the photo."""
    try:
        import pillow_heif
    except ImportError:
        return False
    pillow_heif.register_heif_opener(thumbnails=False, depth_images=False, aux_images=False)
    return True


def why_unreadable(data: bytes, source: str) -> str:
    """Why ``data`` is no image papergames reads, in one line naming what it is when that is
    known: a teacher told "not an image" of a WEBP or a HEIC would not know what to send."""
    Image.init()  # all of Pillow's formats in Image.OPEN, not the few it loads first
    name = image_format(data) or _known_to_pillow(data)
    if name is None:
        return f"{source}: not an image or PDF that papergames can read"
    if name == VIDEO:
        return f"{source}: a video, not a photo: {GIVE}"
    if name == "HEIC" and not heif_opener():
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
