"""The web page in Debian's headless Chromium, shared by the browser tests.

A test module asks for a served page (:func:`serve`) and a browser the size of a phone or of a
school laptop (:func:`open_chromium`); :func:`serious_problems` runs axe-core, which the
``axe-selenium-python`` package bundles, so nothing is downloaded. The browser is never
downloaded either: Chromium and its driver come from Debian (the Makefile installs them), and
modules using this skip, saying so, when the driver is missing (:data:`NEEDS_CHROMIUM`).
"""

from __future__ import annotations

import base64
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "build" / "screenshots"
WAIT = 20.0

SIZES: dict[str, tuple[int, int]] = {"phone": (390, 844), "laptop": (1366, 768)}
"""The two sizes the page is tried at, in CSS pixels: a phone held upright, a school laptop."""

NEEDS_CHROMIUM = pytest.mark.skipif(
    not CHROMEDRIVER.exists(),
    reason="no /usr/bin/chromedriver: install Debian's chromium and chromium-driver "
    "(make unit does) to run the browser tests",
)


def free_port() -> int:
    """A port on the loopback that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serve() -> Iterator[str]:
    """The page served by uvicorn on the loopback, as ``papergames serve`` runs it; yields its
    address."""
    import uvicorn

    from papergames.web.app import create_app
    from papergames.web.serve import LOOPBACK_NAMES

    port = free_port()
    config = uvicorn.Config(
        create_app(allowed_hosts=LOOPBACK_NAMES), host="127.0.0.1", port=port, log_level="error"
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(timeout=10)


@contextmanager
def open_chromium(size: str, downloads: Path | None = None) -> Iterator[Any]:
    """Headless Chromium at one of :data:`SIZES`; a ``"phone"`` is emulated as a phone (touch,
    its viewport meta tag obeyed, three device pixels to a CSS pixel), so the page is seen at a
    phone's default zoom."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    width, height = SIZES[size]
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--disable-extensions",
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    if size == "phone":
        options.add_experimental_option(
            "mobileEmulation",
            {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 3.0, "touch": True}},
        )
    if downloads is not None:
        options.add_experimental_option(
            "prefs",
            {
                "download.default_directory": str(downloads),
                "download.prompt_for_download": False,
                "plugins.always_open_pdf_externally": True,
            },
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    if size != "phone":
        driver.set_window_size(width, height)
        inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
        driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver: Any, condition: Any, what: str) -> Any:
    """Wait for ``condition(driver)`` to be truthy, failing with ``what`` if it never is."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(condition, message=f"waited for {what}")


def printed_pdf(driver: Any, attempts: int = 3) -> bytes:
    """The page shown now as Chromium prints it (``Page.printToPDF``), once it and its fonts
    have loaded.

    Headless Chromium now and then answers "Printing failed" for a page it prints a moment
    later (seen once in CI, under load, on the phone-sized browser; never on a quiet machine),
    so that answer alone is tried again; any other error, or the same one every time, fails.
    """
    from selenium.common.exceptions import WebDriverException

    wait_for(
        driver,
        lambda d: d.execute_script("return document.readyState") == "complete",
        "the page to load",
    )
    driver.execute_async_script(
        "const done = arguments[0]; document.fonts.ready.then(() => done())"
    )
    for _ in range(attempts - 1):
        try:
            return _print_to_pdf(driver)
        except WebDriverException as error:
            if "Printing failed" not in str(error):
                raise
            time.sleep(0.5)
    return _print_to_pdf(driver)


def _print_to_pdf(driver: Any) -> bytes:
    printed = driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": False})
    return base64.b64decode(printed["data"])


def shot(driver: Any, name: str) -> Path:
    """Save what the viewport shows now, to look at, as ``build/screenshots/<name>.png``."""
    path = SHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def serious_problems(driver: Any) -> list[str]:
    """axe-core's serious and critical violations on the page shown now, one line each."""
    from axe_selenium_python import Axe

    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} at "
        + ", ".join(str(node["target"]) for node in violation["nodes"][:3])
        for violation in results["violations"]
        if violation.get("impact") in {"serious", "critical"}
    ]


def in_viewport(driver: Any, element: Any) -> bool:
    """Whether the whole of ``element`` lies inside the viewport as it is scrolled now.

    Edges are compared to the pixel: a box laid out at fractions of a CSS pixel (a phone at 3
    device pixels to one) may end 0.4 px past the viewport when scrolled to its very bottom.
    """
    inside: bool = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return r.width > 0 && r.height > 0 && r.top >= -0.5 && r.left >= -0.5 &&"
        " r.bottom <= window.innerHeight + 0.5 && r.right <= window.innerWidth + 0.5;",
        element,
    )
    return inside


def tap(driver: Any, element: Any) -> None:
    """Click ``element`` with input events, as a finger or a mouse does.

    With the page's script turned off, chromedriver's own click waits about 30 s on an emulated
    phone before it acts (it looks for the element with script the page no longer runs); input
    events sent through the DevTools protocol act at once, and follow a link or submit a form
    like a real click.
    """
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    x, y = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2];",
        element,
    )
    for kind in ("mousePressed", "mouseReleased"):
        driver.execute_cdp_cmd(
            "Input.dispatchMouseEvent",
            {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
        )
