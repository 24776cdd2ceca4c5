"""Work done in a child process with a memory and a time limit, for work a hostile file can make
take without bound.

Some work cannot be bounded by checking its input first: PDFium decodes a page's content streams
and images whole, so a PDF of a megabyte can make it allocate gigabytes, and no check of the
file's declared sizes catches every way (nested streams, object streams, filters stacked on
filters). :func:`run_apart` does such work where running out of memory or time stops a throwaway
process, not the reader or the web page, so whatever the file holds costs at most the limits.
Forking shares the parent's memory, so the child starts at once, with nothing copied; where there
is no ``fork`` (Windows), the work is done in this process, with no limits.

The child hands back bytes. Each way of failing is an :class:`ApartError` of its own, so that the
caller can word it for what the work was (``page 3 needs more than 512 MB of memory to draw``).

Example:
    >>> run_apart(lambda: b"drawn", memory=2**28, seconds=10.0)
    b'drawn'
"""

from __future__ import annotations

import os
import selectors
import signal
import sys
import time
import warnings
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import NoReturn

from papergames.errors import PapergamesError


class ApartError(Exception):
    """Work done apart that gave no answer; the subclass says why (the caller words it)."""


class WorkError(ApartError):
    """The work raised a :class:`PapergamesError` in the child: this one carries its message."""


class TimeLimitError(ApartError):
    """The work was still going at the time limit, and was stopped."""


class MemoryLimitError(ApartError):
    """The work ran out of memory within the limit, or grew past half of it before it ended."""


class CrashError(ApartError):
    """The child ended without an answer and not for want of memory (a library crashed)."""


def run_apart(work: Callable[[], bytes], *, memory: int, seconds: float) -> bytes:
    """What ``work`` returns, worked out in a child process that may take at most ``memory``
    bytes more than this process holds, and ``seconds`` of time.

    Where there is no ``fork``, ``work`` is called here, and its errors are its own.

    Raises:
        WorkError: ``work`` raised a :class:`PapergamesError` (its message is kept).
        TimeLimitError: ``work`` took more than ``seconds``.
        MemoryLimitError: ``work`` needed more than ``memory``.
        CrashError: the child ended without an answer in any other way.
    """
    if not hasattr(os, "fork"):
        return work()
    resident = _own_memory().get("VmRSS", 0)
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():
        # Python 3.12 warns of forking a process with threads (the web page has some): the child
        # only works and writes to its pipe, and takes none of the locks they may hold.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _child(work, write_end, memory)
    os.close(write_end)
    reaped = False
    try:
        answer = _answer(read_end, time.monotonic() + seconds)
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
        raise TimeLimitError
    if answer[:1] == b"P" and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return answer[1:]
    if answer[:1] == b"E":
        raise WorkError(answer[1:].decode("utf-8", "replace"))
    grown = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024) - resident
    if answer[:1] == b"M" or grown > memory // 2:
        raise MemoryLimitError
    raise CrashError


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


def _child(work: Callable[[], bytes], write_end: int, memory: int) -> NoReturn:
    """The child of :func:`run_apart`: limit itself, do the work, write the answer, and end
    without running anything of the parent's (no ``atexit``, no buffers flushed twice).

    The answer is one letter then its text: ``P`` and the work's bytes, ``E`` and a
    :class:`PapergamesError`'s message, ``M`` when Python ran out of memory. A library that runs
    out of memory (PDFium) may end the process itself; the parent tells that from the child's exit.
    """
    code = 1
    try:
        _quieten()
        _limit_memory(memory)
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
    """Send the child's output nowhere: a library may print, and the terminal is the parent's (a
    fault handler the parent set up would print a stack when a library ends the child: off too)."""
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
    except ImportError:  # no such limits here: the child still keeps the parent safe from crashes
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
