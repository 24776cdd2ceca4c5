"""A batch's workers each use one core: OpenCV's threads are set before they are forked."""

from __future__ import annotations

import multiprocessing

import cv2

from papergames.photo.batch import _opencv_threads


def _threads_seen() -> int:
    return int(cv2.getNumThreads())


def test_batch_workers_use_opencv_on_one_thread_and_the_parent_gets_its_own_back() -> None:
    before = cv2.getNumThreads()
    context = multiprocessing.get_context("fork")
    with _opencv_threads(1), context.Pool(1) as pool:
        assert pool.apply(_threads_seen) == 1
    assert cv2.getNumThreads() == before
