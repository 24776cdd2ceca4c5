"""Work done meanwhile: on a second thread when OpenCV may use two, else in turn when asked."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import cv2
import pytest

from papergames.photo.meanwhile import meanwhile


@pytest.fixture
def opencv_threads() -> Iterator[None]:
    threads = cv2.getNumThreads()
    yield
    cv2.setNumThreads(threads)


def _worker() -> str:
    return threading.current_thread().name


def test_with_two_threads_the_work_runs_on_another_thread_from_the_start(
    opencv_threads: None,
) -> None:
    cv2.setNumThreads(2)
    started = threading.Event()

    def work() -> str:
        started.set()
        return _worker()

    with meanwhile(work) as result:
        assert started.wait(10), "the work did not start before it was asked for"
        assert result() != threading.current_thread().name


def test_with_one_thread_the_work_runs_in_turn_when_asked(opencv_threads: None) -> None:
    cv2.setNumThreads(1)
    calls: list[str] = []

    def work() -> str:
        calls.append(_worker())
        return calls[-1]

    with meanwhile(work) as result:
        assert calls == []
        assert result() == threading.current_thread().name
    assert calls == [threading.current_thread().name]


def test_an_error_in_the_work_reaches_the_caller(opencv_threads: None) -> None:
    def work() -> None:
        raise ValueError("broken")

    for count in (2, 1):
        cv2.setNumThreads(count)
        with pytest.raises(ValueError, match="broken"), meanwhile(work) as result:
            result()
