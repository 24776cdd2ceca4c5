"""Work done on a second thread while the reader goes on, when there is a core to spare.

Much of a read is OpenCV's and numpy's work, which let go of Python's lock, and parts of it do
not wait on each other: where to measure does not need the photo, the pencil detector's wider
blur does not need the paper's white, and the traced lines are measured apart from the spaces.
On two cores such parts overlap. In a batch's worker OpenCV is held to one thread, the other core
being a neighbour's (:mod:`papergames.photo.batch`), and the work is then done when asked for,
in turn, with the same result.

Example:
    >>> with meanwhile(lambda: sum(range(10))) as total:
    ...     total()
    45
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

import cv2

Result = TypeVar("Result")


@contextmanager
def meanwhile(work: Callable[[], Result]) -> Iterator[Callable[[], Result]]:
    """A function giving ``work()``'s result: started on a second thread at the start of the
    block when OpenCV may use more than one, else done when the function is called. Leaving
    the block waits for the thread, so nothing runs on after it."""
    if cv2.getNumThreads() < 2:
        yield work
        return
    with ThreadPoolExecutor(1, thread_name_prefix="photo-meanwhile") as pool:
        yield pool.submit(work).result
