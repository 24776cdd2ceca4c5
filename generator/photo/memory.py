"""Keeping freed memory for the next photo, in a process that reads many, and touching fewer
fresh pages in the first.

Reading a photo makes a few hundred page-sized arrays, 4 to 100 MB each, most of them for a
moment. glibc's allocator hands every block over 32 MB to the system as soon as it is freed and
maps it afresh the next time; the system then zeroes each new page when it is first touched. On
the development machine that zeroing took a fifth of a read's time once the first photo was read
(16 independent photos read in one process: 42-43 s as glibc does it, 36-38 s with freed memory
kept; 5.8 s of the system's time down to 1.1 s), and the process's peak grew by about 1 %.

:func:`keep_freed_memory` asks glibc to keep such blocks for reuse. It is a choice for a whole
process, so it is made at the edge (``papergames read`` and its batch's workers), never by the
reader itself. Elsewhere (macOS, Windows, musl) it does nothing.

The first photo a process reads touches every page of its arrays afresh, and numpy asks Linux to
back arrays of 4 MB or more with huge pages of 2 MB, each zeroed whole at its first touch and
found by compacting memory when none is free. :func:`small_pages` withdraws that request, made
at the same edge for the same reason (docs/measurements.md, "A single photo's fresh memory").

:func:`take_memory_as_a_reader` makes both choices; the edges call it.

Example:
    >>> keep_freed_memory()  # on Linux with glibc
    True
    >>> small_pages()  # numpy's huge pages withdrawn
    True
"""

from __future__ import annotations

import ctypes
import importlib
import sys

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameters (``malloc.h``)."""

KEPT_BLOCK_MOST = 256 * 2**20
"""Largest block taken from the reused heap rather than mapped on its own: a 12 MP photo as
floats, three channels, is 144 MB; anything larger is unusual enough to map and give back."""
KEPT_FREE_MOST = 512 * 2**20
"""Most freed memory kept at the heap's top before it is given back to the system."""


def take_memory_as_a_reader() -> None:
    """Make this process's memory choices for reading photos one after another: freed blocks
    kept (:func:`keep_freed_memory`) and small pages (:func:`small_pages`). Called by
    ``papergames read``, a batch's workers, ``papergames serve`` and ``bench/photo.py``."""
    keep_freed_memory()
    small_pages()


def keep_freed_memory() -> bool:
    """Ask the C allocator to reuse large freed blocks rather than give them back at once.

    Returns:
        Whether the allocator took the request (glibc on Linux); ``False`` elsewhere.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, KEPT_BLOCK_MOST)) and bool(
        mallopt(M_TRIM_THRESHOLD, KEPT_FREE_MOST)
    )


def small_pages() -> bool:
    """Ask numpy to leave its arrays on the system's usual pages, not huge ones.

    On the development machine (a virtual machine with 2 cores), with the BLAS on one thread,
    a phone photo's read took 1.72 s rather than 1.98 s and 3.0 s of processor time rather
    than 3.6 s (median of the 16 independent phone photos, each read twice either way in
    turn), though it faulted 129,000 pages rather than 48,000: a fifth of the processor's time
    had gone to zeroing pages (``perf``: ``clear_page_erms``), most of them in huge pages of
    which a passing array used a part.

    Returns:
        Whether numpy took the request: ``False`` for a numpy without the setting.
    """
    for name in ("numpy._core.multiarray", "numpy.core.multiarray"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        setter = getattr(module, "_set_madvise_hugepage", None)
        if setter is not None:
            setter(False)
            return True
    return False
