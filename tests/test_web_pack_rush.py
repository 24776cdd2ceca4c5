"""Many teachers asking for packs at once: every pack is made, none is dropped half made, and
beyond what can wait the page says it is busy instead of losing the request."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest

from papergames.web import packs

if TYPE_CHECKING:
    from starlette.testclient import TestClient


def test_more_packs_than_are_kept_are_all_made_and_none_is_dropped_while_made() -> None:
    asked = [
        packs.start(["spaghetti"], copies=1, seed=s, paper="a5", rules="none", per_page=1)
        for s in range(1, packs.MAX_JOBS + 9)
    ]
    deadline = time.monotonic() + 120
    while not all(job.finished for job in asked):
        assert time.monotonic() < deadline, "the packs were not made in two minutes"
        for job in asked:
            if not job.finished:
                assert packs.get(job.id) is job, "a pack still being made was dropped"
        time.sleep(0.05)
    assert all(job.ready and job.data and job.data.startswith(b"%PDF") for job in asked)
    kept = [job for job in asked if packs.get(job.id) is not None]
    assert len(kept) >= packs.MAX_JOBS - 1
    assert asked[-1] in kept


def test_a_pack_beyond_what_can_wait_is_refused_as_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packs, "MAX_WAITING", 0)
    with pytest.raises(packs.PacksBusyError, match="try again"):
        packs.start(["spaghetti"], copies=1, seed=1, paper="a5", rules="none", per_page=1)


def test_the_page_answers_busy_with_503(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(packs, "MAX_WAITING", 0)
    answer = client.post(
        "/api/pack",
        data={"games": "spaghetti", "copies": "1", "seed": "1", "paper": "a4"},
        headers={"origin": "http://testserver"},
    )
    assert answer.status_code == 503
    assert "try again" in answer.json()["error"]
