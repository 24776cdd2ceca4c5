"""Every page of the web page, at a phone's size and a laptop's, has no serious or critical
accessibility problem that axe-core finds (tests/browsing.py: Debian's Chromium, the bundled
axe-core; skipped without the driver)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browsing import NEEDS_CHROMIUM, SIZES, open_chromium, serious_problems, serve, wait_for

pytestmark = NEEDS_CHROMIUM

PAGES = {
    "games": "/",
    "game": "/game/maze",
    "pack": "/pack",
    "check": "/check",
    "rules": "/rules/maze",
    "record": "/record/springer",
    "error": "/game/nosuchgame",
}
"""Every kind of page the site has, by a name for the test's id."""

SETTLED = (
    "return document.readyState === 'complete'"
    " && !document.querySelector('[aria-busy=\"true\"]')"
    " && Array.from(document.images).every(image => image.complete || image.loading === 'lazy')"
)
"""The page loaded, its script's requests answered and its pictures drawn (a lazy picture out
of sight is not fetched until it is scrolled to)."""


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve() as address:
        yield address


@pytest.fixture(scope="module", params=list(SIZES))
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    """One Chromium per size, kept for every page."""
    with open_chromium(request.param) as driver:
        yield driver


@pytest.mark.parametrize("page", list(PAGES))
def test_no_serious_accessibility_problem(browser: Any, site: str, page: str) -> None:
    browser.get(site + PAGES[page])
    wait_for(browser, lambda driver: driver.execute_script(SETTLED), f"{page} to settle")
    problems = serious_problems(browser)
    assert not problems, f"{PAGES[page]}:\n" + "\n".join(problems)
