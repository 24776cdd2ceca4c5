"""A batch's workers each use one core: OpenCV's threads and the BLAS's are set before they are
forked, and the parent gets its own back."""

from __future__ import annotations

import multiprocessing

import cv2
from threadpoolctl import threadpool_info

from papergames.photo.batch import _library_threads


def _threads_seen() -> tuple[int, list[int]]:
    blas = [int(pool["num_threads"]) for pool in threadpool_info() if pool["user_api"] == "blas"]
    return int(cv2.getNumThreads()), blas


def test_batch_workers_use_one_thread_each_and_the_parent_gets_its_own_back() -> None:
    before = _threads_seen()
    context = multiprocessing.get_context("fork")
    with _library_threads(1), context.Pool(1) as pool:
        opencv, blas = pool.apply(_threads_seen)
    assert opencv == 1
    assert blas and all(threads == 1 for threads in blas)
    assert _threads_seen() == before
