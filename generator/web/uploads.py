"""Reading an uploaded file: a hard size limit, text decoded strictly, the name never trusted.

An upload is held in memory (or in the multipart parser's spooled temporary file, which lives
in the system's temporary folder) and is never written anywhere by name: the name the browser
sends is only shown, cut short and stripped of anything but plain characters. The size limit is
enforced on the bytes that actually arrive, since a request's ``Content-Length`` can lie or be
missing.

Example:
    >>> shown_name("../../etc/passwd")
    'passwd'
    >>> shown_name("C:\\\\games\\\\rings game.txt")
    'rings game.txt'
    >>> decode_text(b"\\xef\\xbb\\xbfsheet: maze seed=1")
    'sheet: maze seed=1'

A file that is neither a picture nor text is named from its first bytes (:func:`file_kind`), so
that a teacher who sends a ZIP or a Word document is told what it is and what the page takes:

    >>> file_kind(b"PK\\x03\\x04" + bytes(26) + b"[Content_Types].xml...word/document.xml")
    'a Word document (.docx)'
"""

from __future__ import annotations

import re

from papergames.errors import PapergamesError

MAX_UPLOAD = 256 * 1024
"""The largest file the checker takes, in bytes: a long game's transcript is a few kilobytes."""

MAX_REQUEST = MAX_UPLOAD + 16 * 1024
"""The largest request body: the file and the form's few fields around it."""

MAX_PHOTO = 40 * 1024 * 1024
"""The largest photo or PDF of scans the checker takes, in bytes: a phone photo is a few
megabytes, a class's scans from a copier a few dozen."""

MAX_PHOTO_REQUEST = MAX_PHOTO + 16 * 1024
"""The largest request body of the checker's form, which takes photos."""

_PLAIN = re.compile(r"[^\w .,()+-]")


CHECK_TAKES = "a photo (JPEG, PNG, HEIC), a scanned PDF, or a transcript (.txt or .json)"
"""What the checker's page takes, as its messages say it."""

TEXT_TAKES = "a transcript (.txt or .json)"
"""What a form that takes only text (the recorder's "Load") takes."""


class UploadError(PapergamesError):
    """An upload that cannot be read: the message says why, in words for the page."""


_ZIPPED = (
    (b"word/", "a Word document (.docx)"),
    (b"xl/", "an Excel spreadsheet (.xlsx)"),
    (b"ppt/", "a PowerPoint presentation (.pptx)"),
    (b"mimetypeapplication/vnd.oasis.opendocument.text", "an OpenDocument text (.odt)"),
    (b"mimetypeapplication/vnd.oasis.opendocument.spreadsheet", "an OpenDocument spreadsheet"),
    (b"mimetypeapplication/vnd.oasis.opendocument.presentation", "an OpenDocument presentation"),
    (b"mimetypeapplication/epub+zip", "an e-book (EPUB)"),
    (b"Index/Document.iwa", "an Apple Pages, Numbers or Keynote document"),
)
"""Names inside a ZIP file that say which kind of document it is (documents are ZIP files)."""

_OLE_STREAMS = (
    ("WordDocument", "a Word document (.doc)"),
    ("Workbook", "an Excel spreadsheet (.xls)"),
    ("PowerPoint Document", "a PowerPoint presentation (.ppt)"),
)
"""Streams inside an old Microsoft Office file that say which program made it."""

_KINDS: tuple[tuple[bytes, str], ...] = (
    (b"PK\x05\x06", "an empty ZIP archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"\xfd7zXZ\x00", "an xz archive"),
    (b"\x28\xb5\x2f\xfd", "a Zstandard archive"),
    (b"{\\rtf", "a Rich Text (RTF) document"),
    (b"\x7fELF", "a program (Linux ELF)"),
    (b"MZ", "a Windows program (.exe or .dll)"),
    (b"\xca\xfe\xba\xbe", "a program (Mac or Java)"),
    (b"\xcf\xfa\xed\xfe", "a Mac program"),
    (b"ID3", "an MP3 sound file"),
    (b"OggS", "an Ogg sound file"),
    (b"fLaC", "a FLAC sound file"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"wOFF", "a web font"),
    (b"wOF2", "a web font"),
    (b"OTTO", "a font"),
)
"""First bytes that name a kind of file papergames does not check. Those made of letters alone
(``MZ``, ``ID3``, ``OTTO``...) name it only when a NUL byte follows soon, as in a binary file:
text that starts with the same letters is not taken for one."""


def file_kind(data: bytes) -> str | None:
    r"""What a file is that is neither a picture the photo reader names nor text, told from
    its first bytes, as a teacher would call it (``"a ZIP archive"``, ``"a Word document
    (.docx)"``, ``"an MP3 sound file"``), or ``None``. A transcript never starts with these
    bytes (it starts with ``sheet:``, a comment or ``{``); pictures and PDFs are named by
    :func:`papergames.photo.formats.image_format` and read by the photo reader.

    Example:
        >>> file_kind(b"PK\x03\x04" + bytes(40)), file_kind(b"Rar!\x1a\x07\x01\x00")
        ('a ZIP archive', 'a RAR archive')
        >>> file_kind(b"<!DOCTYPE html><html>"), file_kind(b"sheet: maze seed=1") is None
        ('a web page (HTML)', True)
    """
    if data.startswith((b"PK\x03\x04", b"PK\x07\x08")):
        for inside, kind in _ZIPPED:
            if inside in data:
                return kind
        return "a ZIP archive"
    if data.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        for stream, kind in _OLE_STREAMS:
            if stream.encode("utf-16-le") in data:
                return kind
        return "an old Microsoft Office document (.doc, .xls or .ppt)"
    binary = b"\x00" in data[:1024]
    for signature, kind in _KINDS:
        if data.startswith(signature) and (binary or not signature.isalnum()):
            return kind
    if data[4:8] == b"ftyp" and data[8:11] == b"M4A":
        return "an M4A sound file"
    if data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        return "a WAV sound file"
    if data.startswith((b"\xff\xfb", b"\xff\xf3", b"\xff\xf2")):
        return "an MP3 sound file"
    if len(data) > 262 and data[257:262] == b"ustar":
        return "a tar archive"
    start = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if start.startswith((b"<!doctype html", b"<html")):
        return "a web page (HTML)"
    if start.startswith(b"<?xml"):
        return "an XML file"
    return None


DOCUMENTS = ("document", "spreadsheet", "presentation", "(RTF)", "web page", "XML")
"""Kinds of file a transcript may have been typed into: the advice is to save it as text."""


def not_taken(name: str, kind: str, takes: str = CHECK_TAKES) -> str:
    """The message for a file of a kind the page does not check: what it is, what to send.

    Example:
        >>> not_taken("game.zip", "a ZIP archive")
        'game.zip is a ZIP archive, which papergames does not check: choose a photo (JPEG, PNG, \
HEIC), a scanned PDF, or a transcript (.txt or .json)'
    """
    if any(word in kind for word in DOCUMENTS):
        return (
            f"{name} is {kind}, which papergames does not read: save the transcript in it as "
            f"plain text (.txt), or choose {takes}"
        )
    return f"{name} is {kind}, which papergames does not check: choose {takes}"


def not_text_message(name: str, takes: str = CHECK_TAKES) -> str:
    """The message for bytes that are no text and no kind of file :func:`file_kind` names."""
    return (
        f"{name} is not text, nor a picture or a PDF: its bytes are no kind of file papergames "
        f"knows; choose {takes}"
    )


def looks_like_text(data: bytes) -> bool:
    """Whether the bytes look like text in some 8-bit encoding: no NUL and few control
    characters, so a file that is not UTF-8 is told to be saved as UTF-8 rather than called a
    file of an unknown kind."""
    sample = data[:65536]
    if b"\x00" in sample:
        return False
    controls = sum(1 for byte in sample if byte < 32 and byte not in b"\t\n\r\x0c")
    return controls <= len(sample) // 100


def shown_name(name: str | None) -> str:
    """The uploaded file's name as the page may show it: its last part, plain characters only."""
    if not name:
        return "the uploaded file"
    last = re.split(r"[\\/]", name)[-1]
    cleaned = _PLAIN.sub("", last).strip(" .")[:60]
    return cleaned or "the uploaded file"


def decode_text(data: bytes, name: str = "the file", takes: str = TEXT_TAKES) -> str:
    """The bytes as UTF-8 text (a byte-order mark is dropped).

    Args:
        data: the uploaded bytes.
        name: the file's shown name, for the messages.
        takes: what the form takes, for the messages (:data:`CHECK_TAKES` on the checker's).

    Raises:
        UploadError: for an empty file, a file of a kind :func:`file_kind` names, text that
            is not UTF-8 (UTF-16, or an 8-bit encoding: to save as UTF-8), bytes that are no
            text at all, or a NUL byte (a binary file that happens to decode).
    """
    if not data.strip():
        raise UploadError(f"{name} is empty: choose {takes}")
    kind = file_kind(data)
    if kind is not None:
        raise UploadError(not_taken(name, kind, takes))
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise UploadError(
            f"{name} is not text in UTF-8 but in UTF-16: save it as UTF-8 (plain text) and "
            "choose it again"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if looks_like_text(data):
            raise UploadError(
                f"{name} is text, but not in UTF-8 (byte {exc.start} is not UTF-8; an "
                "accented letter saved by an older editor?): save it as UTF-8 and choose it "
                "again"
            ) from None
        raise UploadError(not_text_message(name, takes)) from None
    if "\x00" in text:
        raise UploadError(f"{name} is not plain text (it holds NUL bytes): choose {takes}")
    return text
