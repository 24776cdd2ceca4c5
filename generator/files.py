"""Reading a user's file safely: regular files only, and never more bytes than a hard limit.

A file's reported size cannot be trusted (a device such as ``/dev/zero`` reports 0 bytes and never
ends, a FIFO blocks until someone writes to it), so the limit is enforced on the bytes actually
read, and anything that is not a regular file is refused before it is opened for reading.

Example:
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "game.txt"
    ...     _ = path.write_bytes(b"sheet: rings seed=1")
    ...     read_bounded(path, 100)
    b'sheet: rings seed=1'
    >>> read_bounded(pathlib.Path("/dev/zero"), 100)
    Traceback (most recent call last):
    ...
    papergames.files.UnreadableFileError: is not a regular file (a device, a pipe or a socket)
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from papergames.errors import PapergamesError


class UnreadableFileError(PapergamesError):
    """A file that cannot be read as asked: the message says why, the caller says which file."""


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Raises:
        UnreadableFileError: missing, a folder, not a regular file, unreadable, or over ``limit``.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        raise UnreadableFileError("no such file") from None
    except OSError as exc:
        raise UnreadableFileError(f"cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise UnreadableFileError("is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableFileError("is not a regular file (a device, a pipe or a socket)")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise UnreadableFileError(f"cannot read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise UnreadableFileError("is not a regular file (a device, a pipe or a socket)")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise UnreadableFileError(f"is too large (more than {limit:,} bytes)")
    return data


def read_stream_bounded(stream: BinaryIO, limit: int) -> bytes:
    """At most ``limit`` bytes from a stream such as standard input (``-``), read to its end.

    Raises:
        UnreadableFileError: when the stream holds more than ``limit`` bytes (only ``limit + 1``
            are ever read) or cannot be read.
    """
    try:
        data = stream.read(limit + 1)
    except OSError as exc:
        raise UnreadableFileError(f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise UnreadableFileError(f"is too large (more than {limit:,} bytes)")
    return data
