"""Reading a user's file safely, and saying in one line why a file cannot be written.

Reading takes regular files only, and never more bytes than a hard limit.

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

Writing is done by :func:`papergames.output.atomic_write`; :func:`write_problem` turns the
:class:`OSError` a write met into the line the user reads:

    >>> import errno
    >>> write_problem(OSError(errno.ENOSPC, "No space left on device"), "class.pdf")
    'cannot write class.pdf: No space left on device: free some space or write elsewhere'
"""

from __future__ import annotations

import errno
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


SHOWN_PATH = 100
"""Most characters of a path shown in a message; a longer one is cut in the middle."""

NAME_MAX = 255
"""The longest file name, in bytes, that most file systems take (ext4, NTFS, APFS)."""


def shown_path(path: str | os.PathLike[str], most: int = SHOWN_PATH) -> str:
    """A path short enough for a one-line message: a long one keeps its start and its end.

    Example:
        >>> shown_path("a" * 300 + ".pdf", 20)
        'aaaaaaaaa...aaaa.pdf'
    """
    text = os.fspath(path)
    if len(text) <= most:
        return text
    tail = (most - 3) // 2
    return f"{text[: most - 3 - tail]}...{text[-tail:]}"


def write_problem(exc: OSError, path: str | os.PathLike[str]) -> str:
    """One line saying why ``path`` could not be written, and what to do, for the error met.

    The path is shortened (:func:`shown_path`); the system's own words are kept, with advice
    for the usual causes: a name too long, no permission, a full or read-only disk, a folder
    that does not exist.
    """
    shown = shown_path(path)
    why = exc.strerror or str(exc)
    code = exc.errno
    if code == errno.ENAMETOOLONG:
        longest = max((len(os.fsencode(part)) for part in Path(path).parts), default=0)
        if longest > NAME_MAX:
            which = "file" if len(os.fsencode(Path(path).name)) == longest else "folder"
            return (
                f"cannot write {shown}: the {which} name is too long ({longest} bytes; most disks "
                f"take names of at most {NAME_MAX}): choose a shorter name"
            )
        return f"cannot write {shown}: the path is too long: choose a shorter one"
    if code in (errno.EACCES, errno.EPERM):
        return f"cannot write {shown}: {why}: choose a folder you may write to"
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return f"cannot write {shown}: {why}: free some space or write elsewhere"
    if code == errno.EROFS:
        return f"cannot write {shown}: {why}: the disk cannot be written to; write elsewhere"
    if code == errno.ENOENT:
        folder = Path(path).parent
        return f"cannot write {shown}: the folder {shown_path(folder)} does not exist"
    if code == errno.ENOTDIR:
        return f"cannot write {shown}: a part of its folder's path is a file, not a folder"
    return f"cannot write {shown}: {why}"
