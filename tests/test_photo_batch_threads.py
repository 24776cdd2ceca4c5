"""The BLAS under numpy reads on one thread, in a single read as in a batch; a batch's workers
each use one core: OpenCV's threads and the BLAS's are set before they are forked, and the
parent gets its own back."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import cv2
import pytest
from threadpoolctl import threadpool_info

from papergames.photo import batch
from papergames.photo.batch import _blas_on_one_thread, _opencv_on_one_thread, _Sheet


def _threads_seen() -> tuple[int, list[int]]:
    blas = [int(pool["num_threads"]) for pool in threadpool_info() if pool["user_api"] == "blas"]
    return int(cv2.getNumThreads()), blas


def test_batch_workers_use_one_thread_each_and_the_parent_gets_its_own_back() -> None:
    before = _threads_seen()
    context = multiprocessing.get_context("fork")
    with _blas_on_one_thread(), _opencv_on_one_thread(), context.Pool(1) as pool:
        opencv, blas = pool.apply(_threads_seen)
    assert opencv == 1
    assert blas and all(threads == 1 for threads in blas)
    assert _threads_seen() == before


def test_a_single_read_keeps_opencv_threads_and_puts_the_blas_on_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    before = _threads_seen()
    seen: list[tuple[int, list[int]]] = []

    def record(sheet: _Sheet, **_: object) -> _Sheet:
        seen.append(_threads_seen())
        return sheet

    monkeypatch.setattr(batch, "_read_sheet", record)
    photo = tmp_path / "photo.png"
    cv2.imwrite(str(photo), (255 * cv2.getGaussianKernel(9, 2) @ cv2.getGaussianKernel(9, 2).T))
    batch.read_photos([photo], jobs=1)
    assert len(seen) == 1
    opencv, blas = seen[0]
    assert opencv == before[0]
    assert blas and all(threads == 1 for threads in blas)
    assert _threads_seen() == before
