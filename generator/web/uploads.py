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


class UploadError(PapergamesError):
    """An upload that cannot be read: the message says why, in words for the page."""


def shown_name(name: str | None) -> str:
    """The uploaded file's name as the page may show it: its last part, plain characters only."""
    if not name:
        return "the uploaded file"
    last = re.split(r"[\\/]", name)[-1]
    cleaned = _PLAIN.sub("", last).strip(" .")[:60]
    return cleaned or "the uploaded file"


def decode_text(data: bytes) -> str:
    """The bytes as UTF-8 text (a byte-order mark is dropped).

    Raises:
        UploadError: for an empty file, bytes that are not UTF-8, or a NUL byte (a binary file
            that happens to decode).
    """
    if not data.strip():
        raise UploadError("the file is empty: choose a transcript or a final-state file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UploadError(
            f"the file is not text (UTF-8 expected; byte {exc.start} is not): choose a "
            "transcript or a final-state file"
        ) from None
    if "\x00" in text:
        raise UploadError("the file is not text (it holds NUL bytes): choose a transcript")
    return text
