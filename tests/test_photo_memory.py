"""Freed memory kept for the next photo (:mod:`papergames.photo.memory`)."""

from __future__ import annotations

import subprocess
import sys

import pytest

FAULTS = """
import resource, sys
import numpy as np
if sys.argv[1] == "keep":
    from papergames.photo.memory import keep_freed_memory
    assert keep_freed_memory()
np.ones((2400, 1700, 3), np.float32)  # the heap grows once
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    np.ones((2400, 1700, 3), np.float32)  # a page's floats, made and freed as a read does
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(mode: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", FAULTS, mode], capture_output=True, text=True, check=True
    )
    return int(done.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator only")
def test_a_page_sized_array_freed_is_reused_rather_than_mapped_and_zeroed_again() -> None:
    as_glibc_does, kept = _faults("glibc"), _faults("keep")
    huge_pages = 10 * (2400 * 1700 * 3 * 4) // 2**21
    assert as_glibc_does >= huge_pages  # every array mapped afresh, 2 MB a fault at the most
    assert kept <= as_glibc_does // 20


HUGE_PAGE_SETTING = """
import importlib
for name in ("numpy._core.multiarray", "numpy.core.multiarray"):
    try:
        setter = importlib.import_module(name)._set_madvise_hugepage
        break
    except (ImportError, AttributeError):
        continue
"""
"""Finds numpy's huge-page switch as ``setter``; ``setter(True)`` prints the setting before."""

HUGE_PAGES_ASKED = """
from papergames.photo.memory import small_pages
taken = small_pages()
print(taken, setter(True))
"""


def test_small_pages_withdraws_numpys_request_for_huge_pages() -> None:
    script = HUGE_PAGE_SETTING + HUGE_PAGES_ASKED
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["True", "False"]  # taken, and the setting was off


READER_PROCESS = """
import resource
import numpy as np
from papergames.photo.memory import take_memory_as_a_reader
take_memory_as_a_reader()
np.ones((2400, 1700, 3), np.float32)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    np.ones((2400, 1700, 3), np.float32)
print(setter(True), resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator only")
def test_a_reader_process_keeps_freed_memory_and_asks_for_small_pages() -> None:
    done = subprocess.run(
        [sys.executable, "-c", HUGE_PAGE_SETTING + READER_PROCESS],
        capture_output=True,
        text=True,
        check=True,
    )
    setting, faults = done.stdout.split()
    assert setting == "False"  # numpy's huge pages were withdrawn
    small_pages = 10 * (2400 * 1700 * 3 * 4) // 4096
    assert int(faults) <= small_pages // 20  # freed arrays reused, not zeroed afresh
