"""The web page in a real browser: Debian's headless Chromium, driven by Selenium.

A uvicorn server runs the page on the loopback in a thread; the browser opens the gallery,
changes a parameter and sees the preview change, sees an out-of-range value refused with the
command line's words, downloads a PDF that is byte for byte the command's, and uploads a
transcript to see the verdict. Each step saves a screenshot in ``build/screenshots/`` to look
at. The browser is never downloaded: Chromium and its driver come from Debian (the Makefile
installs them), and the tests are skipped, saying so, only when the driver is missing.
"""

from __future__ import annotations

import socket
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from papergames.cli import app as cli_app
from papergames.errors import SpecError
from papergames.games import GAMES
from papergames.play.rules import IllegalMove
from papergames.sheets.spec import SheetSpec

CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "build" / "screenshots"
EXAMPLES = ROOT / "examples"

pytestmark = pytest.mark.skipif(
    not CHROMEDRIVER.exists(),
    reason="no /usr/bin/chromedriver: install Debian's chromium and chromium-driver "
    "(make unit does) to run the browser tests",
)

if CHROMEDRIVER.exists():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

WAIT = 20.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The page served by uvicorn on the loopback, as ``papergames serve`` runs it."""
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
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads: Path) -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,1000",
        "--no-first-run",
        "--disable-extensions",
    ):
        options.add_argument(argument)
    options.add_experimental_option(
        "prefs",
        {
            "download.default_directory": str(downloads),
            "download.prompt_for_download": False,
            "plugins.always_open_pdf_externally": True,
            "profile.default_content_setting_values.automatic_downloads": 1,
        },
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def wait_for(driver: Any, condition: Any, what: str) -> Any:
    return WebDriverWait(driver, WAIT).until(condition, message=f"waited for {what}")


def shot(driver: Any, name: str, height: int | None = None) -> None:
    """Save a screenshot of the whole page (up to ``height`` pixels) to look at."""
    driver.set_window_size(1280, 1000)
    full = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1280, min(height or full, 4000))
    driver.save_screenshot(str(SHOTS / f"{name}.png"))
    driver.set_window_size(1280, 1000)


def ids_of(within: Any, selector: str) -> list[str]:
    """The ids of the elements under ``within`` (the page, or an element) that ``selector``
    matches, in document order: asked in one script, where one request per element took
    Chromium's driver about 40 ms each on a sheet of a few hundred."""
    if hasattr(within, "execute_script"):
        found: list[str] = within.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map((e) => e.id);", selector
        )
    else:
        found = within.parent.execute_script(
            "return [...arguments[0].querySelectorAll(arguments[1])].map((e) => e.id);",
            within,
            selector,
        )
    return found


def preview_spec(driver: Any) -> str:
    spec: str = driver.find_element(By.ID, "preview").get_attribute("data-spec") or ""
    return spec


def test_the_gallery_shows_every_game_with_its_picture(browser: Any, server: str) -> None:
    browser.get(server + "/")
    # Under load, a run once counted 3 cards of 18 straight after this first navigation, though
    # the server sends all 18 at once: wait for the whole list before counting it.
    wait_for(
        browser,
        lambda d: len(d.find_elements(By.CSS_SELECTOR, ".card")) >= len(GAMES),
        "every game's card",
    )
    cards = browser.find_elements(By.CSS_SELECTOR, ".card")
    assert len(cards) == len(GAMES)
    titles = [card.find_element(By.CSS_SELECTOR, ".title").text for card in cards]
    assert titles == [record.title for record in GAMES.values()]
    browser.set_window_size(1280, 4000)
    wait_for(
        browser,
        lambda d: d.execute_script(
            "return [...document.images].every(i => i.complete && i.naturalWidth > 0)"
        ),
        "every thumbnail to load",
    )
    shot(browser, "gallery")


def test_changing_a_parameter_changes_the_preview(browser: Any, server: str) -> None:
    browser.get(server + "/game/maze")
    wait_for(browser, lambda d: preview_spec(d).startswith("maze "), "the first preview")
    first = browser.find_element(By.ID, "preview").get_attribute("src")
    size = browser.find_element(By.ID, "in-size")
    size.clear()
    size.send_keys("9")
    wait_for(browser, lambda d: "size=9" in preview_spec(d), "the preview of size 9")
    image = browser.find_element(By.ID, "preview")
    assert image.get_attribute("src") != first
    assert browser.execute_script("return arguments[0].naturalWidth", image) > 0
    seed = browser.find_element(By.ID, "in-seed").get_attribute("value")
    assert preview_spec(browser) == str(SheetSpec.create("maze", {"size": "9"}, seed=int(seed)))
    browser.find_element(By.ID, "new-seed").click()
    wait_for(browser, lambda d: f"seed={seed} " not in preview_spec(d) + " ", "a new seed")
    shot(browser, "sheet-maze")


def test_a_value_out_of_range_shows_the_command_lines_message(browser: Any, server: str) -> None:
    browser.get(server + "/game/rings")
    wait_for(browser, lambda d: preview_spec(d).startswith("rings "), "the first preview")
    circles = browser.find_element(By.ID, "in-circles")
    circles.clear()
    circles.send_keys("99")
    message = browser.find_element(By.ID, "message")
    with pytest.raises(SpecError) as refused:
        SheetSpec.create("rings", {"circles": "99"}, seed=1)
    # Clearing the box is a change of its own, refused on a slow machine before 99 is typed.
    wait_for(
        browser,
        lambda d: message.is_displayed() and message.text == str(refused.value),
        "the message about 99",
    )
    assert circles.get_attribute("aria-invalid") == "true"
    browser.find_element(By.ID, "download").click()
    assert browser.current_url.endswith("/game/rings")
    shot(browser, "sheet-refused", height=1000)
    circles.clear()
    circles.send_keys("5")
    wait_for(browser, lambda d: not message.is_displayed(), "the message to go")
    assert circles.get_attribute("aria-invalid") is None


def test_a_downloaded_pdf_is_the_command_lines(
    browser: Any, server: str, downloads: Path, tmp_path: Path
) -> None:
    browser.get(server + "/game/klee")
    wait_for(browser, lambda d: preview_spec(d).startswith("klee "), "the first preview")
    seed = browser.find_element(By.ID, "in-seed")
    seed.clear()
    seed.send_keys("314")
    Select(browser.find_element(By.ID, "in-paper")).select_by_value("letter")
    wait_for(browser, lambda d: preview_spec(d) == "klee seed=314 paper=letter", "the preview")
    Select(browser.find_element(By.ID, "in-format")).select_by_value("pdf")
    browser.find_element(By.ID, "download").click()
    target = downloads / "klee-314.pdf"
    wait_for(browser, lambda d: target.exists() and target.stat().st_size > 0, "the download")
    time.sleep(0.3)  # the browser renames its partial file into place when it is complete
    result = CliRunner().invoke(
        cli_app, ["sheet", "klee seed=314 paper=letter", "-o", str(tmp_path / "cli.pdf")]
    )
    assert result.exit_code == 0, result.stderr
    assert target.read_bytes() == (tmp_path / "cli.pdf").read_bytes()


def test_an_uploaded_transcript_gets_its_verdict(browser: Any, server: str) -> None:
    from papergames.play.checker import check_text

    example = EXAMPLES / "rings.txt"
    verdict = check_text(example.read_text(encoding="utf-8"), "rings.txt")
    browser.get(server + "/check")
    browser.find_element(By.ID, "transcript").send_keys(str(example))
    browser.find_element(By.ID, "check").click()
    shown = wait_for(browser, lambda d: d.find_element(By.ID, "verdict"), "the verdict")
    assert "all in order" in shown.text
    from papergames.play.report import referee

    assert referee(verdict).paragraphs[0].text in shown.text
    assert verdict.lines()[0] not in shown.text, "the command line's lines are in the details"
    shot(browser, "check-verdict")


def test_an_upload_that_is_not_text_is_refused_on_the_page(
    browser: Any, server: str, tmp_path: Path
) -> None:
    picture = tmp_path / "game.txt"
    picture.write_bytes(b"sheet: maze\xff\xfe\x00\x01")
    browser.get(server + "/check")
    browser.find_element(By.ID, "transcript").send_keys(str(picture))
    browser.find_element(By.ID, "check").click()
    message = wait_for(browser, lambda d: d.find_element(By.ID, "message"), "the message")
    assert "not text" in message.text
    shot(browser, "check-refused", height=700)


def test_the_rules_page_reads_well(browser: Any, server: str) -> None:
    browser.get(server + "/rules/springer")
    assert GAMES["springer"].title in browser.find_element(By.TAG_NAME, "h1").text
    shot(browser, "rules-springer")


def test_a_game_is_recorded_by_clicking_and_an_illegal_click_is_refused(
    browser: Any, server: str, downloads: Path
) -> None:
    from papergames.games import get_rules
    from papergames.play.checker import check_text
    from papergames.play.rules import Player
    from papergames.sheets.sheet import make_sheet

    spec = "springer seed=2"
    engine = get_rules("springer")(
        make_sheet(SheetSpec.parse(spec)), [Player("Ann"), Player("Bob")]
    )
    start = engine.initial()
    first = engine.format_move(next(iter(engine.legal_moves(start))))
    after = engine.apply(start, engine.parse_move(first, start))
    second = engine.format_move(next(iter(engine.legal_moves(after))))
    browser.get(server + "/record/springer?seed=2")
    status = browser.find_element(By.ID, "status")
    wait_for(browser, lambda d: "Ann to move" in status.text, "the game to start")

    def click(item: str) -> None:
        browser.find_element(By.CSS_SELECTOR, f'#board [id="{item}"]').click()

    click(first)
    wait_for(browser, lambda d: "Bob to move" in status.text, "Ann's move")
    click(first)
    message = browser.find_element(By.ID, "message")
    wait_for(browser, lambda d: message.is_displayed(), "the refusal")
    with pytest.raises(IllegalMove) as refused:
        engine.apply(after, engine.parse_move(first, after))
    assert message.text == refused.value.reason
    assert "Bob to move" in status.text
    click(second)
    wait_for(browser, lambda d: "Ann to move" in status.text, "Bob's move")
    shot(browser, "record-springer")
    moves = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert [m.text for m in moves] == [f"Ann: {first}", f"Bob: {second}"]
    browser.find_element(By.ID, "undo").click()
    wait_for(browser, lambda d: "Bob to move" in status.text, "the undo")
    click(second)
    wait_for(browser, lambda d: "Ann to move" in status.text, "Bob's move again")
    browser.find_element(By.ID, "save").click()
    saved = downloads / "springer-game.txt"
    wait_for(browser, lambda d: saved.exists() and saved.stat().st_size > 0, "the transcript")
    time.sleep(0.3)
    verdict = check_text(saved.read_text(encoding="utf-8"))
    assert verdict.illegal is None and [s.move for s in verdict.steps] == [first, second]


def test_a_transcript_loaded_into_the_recorder_shows_the_game(browser: Any, server: str) -> None:
    from papergames.play.checker import check_text
    from papergames.play.transcript import parse_transcript

    example = EXAMPLES / "springer.txt"
    text = example.read_text(encoding="utf-8")
    transcript = parse_transcript(text)
    verdict = check_text(text)
    browser.get(server + "/record/springer?seed=7")
    status = browser.find_element(By.ID, "status")
    wait_for(browser, lambda d: "to move" in status.text, "the empty game")
    browser.find_element(By.ID, "load-file").send_keys(str(example))
    browser.find_element(By.ID, "load").click()
    wait_for(
        browser,
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#moves li")) == len(transcript.moves),
        "the loaded moves",
    )
    status = browser.find_element(By.ID, "status")
    wait_for(browser, lambda d: "over" in status.text, "the final position")
    assert f"won by {' and '.join(verdict.winners)}" in status.text
    from papergames.play.game import build_game

    engine = build_game(transcript)
    state = engine.initial()
    ids = set()
    for line in transcript.moves:
        move = engine.parse_move(line.text, state)
        state = engine.apply(state, move)
        ids.add(engine.format_move(move))
    page_ids = {f.id for f in engine.sheet.pages[0].features()}
    played = set(ids_of(browser, ".played"))
    assert played == ids & page_ids
    assert len(played) > len(transcript.moves) // 2
    shot(browser, "record-loaded")


def test_a_checked_game_is_drawn_with_the_illegal_move_outlined(
    browser: Any, server: str, tmp_path: Path
) -> None:
    lines = (EXAMPLES / "vasarely.txt").read_text(encoding="utf-8").splitlines()
    head = [line for line in lines if line.startswith(("sheet:", "players:"))]
    moves = [line for line in lines if line.startswith(("Ann:", "Bob:"))][:6]
    repeat = moves[-2].split(": ", 1)[1]
    text = "\n".join([*head, *moves, f"{moves[-2].split(':')[0]}: {repeat}"]) + "\n"
    game = tmp_path / "vasarely-illegal.txt"
    game.write_text(text, encoding="utf-8")
    browser.get(server + "/check")
    browser.find_element(By.ID, "transcript").send_keys(str(game))
    browser.find_element(By.ID, "check").click()
    board = wait_for(browser, lambda d: d.find_element(By.ID, "board"), "the sheet")
    wait_for(browser, lambda d: board.get_attribute("data-drawn") == "yes", "the drawing")
    flagged = ids_of(board, ".flagged")
    from papergames.play.checker import check_text
    from papergames.web.view import checked_views

    [view] = checked_views(text, check_text(text))
    assert flagged == view.flagged and flagged
    assert set(ids_of(board, "[style*='fill']")) >= {item for item, _ in view.paint}
    shot(browser, "check-illegal")


def test_a_checked_miro_game_shows_each_segment_coloured_down_its_channel(
    browser: Any, server: str
) -> None:
    """Miro's lines are two rules with a white channel drawn over them: each coloured segment is
    drawn again over the channel in its colour, not left under it."""
    from papergames.play.checker import check_text
    from papergames.web.view import checked_views

    game = EXAMPLES / "miro.txt"
    browser.get(server + "/check")
    browser.find_element(By.ID, "transcript").send_keys(str(game))
    browser.find_element(By.ID, "check").click()
    board = wait_for(browser, lambda d: d.find_element(By.ID, "board"), "the sheet")
    wait_for(browser, lambda d: board.get_attribute("data-drawn") == "yes", "the drawing")
    text = game.read_text(encoding="utf-8")
    [view] = checked_views(text, check_text(text))
    segments = [item for item, _ in view.paint if item.startswith("segment-")]
    over = browser.execute_script(
        """
        const svg = arguments[0].querySelector('svg');
        const channel = svg.querySelector('.channel');
        return [...svg.querySelectorAll('.drawn')].filter((copy) =>
          channel.compareDocumentPosition(copy) & Node.DOCUMENT_POSITION_FOLLOWING
          && getComputedStyle(copy).stroke !== 'rgb(255, 255, 255)').length;
        """,
        board,
    )
    assert segments and over == len(segments)
    shot(browser, "check-miro")


def test_a_photo_is_read_and_its_broken_rule_outlined(browser: Any, server: str) -> None:
    from papergames.photo.batch import read_photos

    photo = ROOT / "tests" / "data" / "photos" / "springer-neighbour.jpg"
    [outcome] = read_photos([photo], jobs=1)[0].outcomes
    assert outcome.verdict is not None and outcome.verdict.report.breaches
    browser.get(server + "/check")
    browser.find_element(By.ID, "transcript").send_keys(str(photo))
    browser.find_element(By.ID, "check").click()
    board = wait_for(browser, lambda d: d.find_element(By.ID, "board-1"), "the sheet read")
    wait_for(browser, lambda d: board.get_attribute("data-drawn") == "yes", "the drawing")
    title = browser.find_element(By.CSS_SELECTOR, "#sheet-1 h3").text
    assert title == f"{photo.name}: {outcome.outcome}"
    flagged = set(ids_of(board, ".flagged"))
    assert flagged >= set(outcome.verdict.report.breaches[0].items)
    picture = browser.find_element(By.CSS_SELECTOR, "#sheet-1 img")
    wait_for(browser, lambda d: picture.get_attribute("naturalWidth") not in (None, "0"), "picture")
    shot(browser, "check-photo")


def test_a_pdf_of_scans_shows_its_progress_then_every_sheet(
    browser: Any, server: str, tmp_path: Path
) -> None:
    from PIL import Image

    photos = ROOT / "tests" / "data" / "photos"
    pages = [Image.open(photos / f"{g}-scan.jpg").convert("RGB") for g in ("maze", "rings")]
    scans = tmp_path / "class.pdf"
    pages[0].save(scans, format="PDF", save_all=True, append_images=pages[1:], resolution=120)
    browser.get(server + "/check")
    browser.find_element(By.ID, "transcript").send_keys(str(scans))
    browser.find_element(By.ID, "check").click()
    wait_for(browser, lambda d: "/check/job/" in d.current_url, "the reading's page")
    wait_for(browser, lambda d: d.find_elements(By.ID, "sheet-2"), "every sheet read")
    titles = [h.text for h in browser.find_elements(By.CSS_SELECTOR, ".sheet-read h3")]
    assert [t.split(":")[0] for t in titles] == ["class.pdf, page 1", "class.pdf, page 2"]
    assert browser.find_element(By.ID, "class-csv").get_attribute("href")
    for board in browser.find_elements(By.CSS_SELECTOR, ".sheet-read .board"):
        wait_for(browser, lambda d, b=board: b.get_attribute("data-drawn") == "yes", "a sheet")
    shot(browser, "check-scans", height=1600)


def test_a_line_is_recorded_by_clicking_its_two_ends(browser: Any, server: str) -> None:
    from papergames.play.game import build_game
    from papergames.play.transcript import parse_transcript

    spec = "maze size=4 seed=1"
    engine = build_game(parse_transcript(f"sheet: {spec}\nplayers: Ann, Bob\n"))
    start = engine.initial()
    line = next(t for t in map(engine.format_move, engine.legal_moves(start)) if "-" in t)
    first, second = line.split("-")
    after = engine.apply(start, engine.parse_move(line, start))
    with pytest.raises(IllegalMove) as refused:
        engine.apply(after, engine.parse_move(line, after))
    browser.get(server + "/record/maze?size=4&seed=1")
    status = browser.find_element(By.ID, "status")
    wait_for(browser, lambda d: "Ann to move" in status.text, "the game to start")

    def click(name: str) -> None:
        browser.find_element(By.CSS_SELECTOR, f'#board [data-for="point-{name}"]').click()

    click(first)
    wait_for(browser, lambda d: "click the other end" in status.text, "the first end")
    click(second)
    wait_for(browser, lambda d: "Bob to move" in status.text, "the line")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board line.drawn")) == 1
    click(first)
    wait_for(browser, lambda d: "click the other end" in status.text, "Bob's first end")
    click(second)
    message = browser.find_element(By.ID, "message")
    wait_for(browser, lambda d: message.is_displayed(), "the refusal")
    assert message.text == refused.value.reason
    assert "Bob to move" in status.text
    assert [m.text for m in browser.find_elements(By.CSS_SELECTOR, "#moves li")] == [f"Ann: {line}"]
    shot(browser, "record-maze")


def test_the_second_round_of_the_rings_is_played_on_the_second_page(
    browser: Any, server: str
) -> None:
    from papergames.play.game import build_game
    from papergames.play.transcript import parse_transcript

    spec = "rings seed=4 rounds=2"
    engine = build_game(parse_transcript(f"sheet: {spec}\nplayers: Ann, Bob\n"))
    state = engine.initial()
    lines = []
    while engine.page_of(state) == 1:
        move = next(iter(engine.legal_moves(state)))
        lines.append(engine.format_move(move))
        state = engine.apply(state, move)
    browser.get(server + "/record/rings?seed=4&rounds=2")
    status = browser.find_element(By.ID, "status")
    board = browser.find_element(By.ID, "board")
    wait_for(browser, lambda d: "to move" in status.text, "the game to start")
    assert board.get_attribute("data-page") == "1"

    def click(name: str) -> None:
        hit = next(
            e
            for e in browser.find_elements(By.CSS_SELECTOR, "#board [data-for]")
            if e.get_attribute("data-for") == f"point-{name}"
        )
        hit.click()

    for number, line in enumerate(lines, start=1):
        first, second = line.split("-")
        click(first)
        wait_for(browser, lambda d: "click the other end" in status.text, "the first end")
        click(second)
        wait_for(
            browser,
            lambda d, n=number: len(d.find_elements(By.CSS_SELECTOR, "#moves li")) == n,
            "the line",
        )
    wait_for(browser, lambda d: board.get_attribute("data-page") == "2", "the second page")
    assert not browser.find_elements(By.CSS_SELECTOR, "#board line.drawn")
    pages = browser.find_element(By.ID, "pages")
    assert "Page 2 (to play)" in pages.text
    shot(browser, "record-rings-round-2")
    pages.find_element(By.XPATH, ".//button[1]").click()
    wait_for(browser, lambda d: board.get_attribute("data-page") == "1", "the first page again")
    drawn = browser.find_elements(By.CSS_SELECTOR, "#board line.drawn")
    assert len(drawn) == len(lines)


def test_klee_sequences_and_a_cannon_ball_line_up_are_clicked(browser: Any, server: str) -> None:
    from papergames.play.game import build_game
    from papergames.play.transcript import parse_transcript

    engine = build_game(parse_transcript("sheet: klee seed=5\nplayers: Ann, Bob\n"))
    first = next(iter(engine.legal_moves(engine.initial())))[1]
    browser.get(server + "/record/klee?seed=5")
    status = browser.find_element(By.ID, "status")
    wait_for(browser, lambda d: "Ann to move" in status.text, "the game to start")
    words = dict(zip("RYBG", ("red", "yellow", "blue", "green"), strict=True))
    for number, letter in enumerate(first, start=1):
        browser.find_element(By.ID, f"box-legend-{words[letter]}").click()
        if number < 3:
            wait_for(browser, lambda d: "click the next colour" in status.text, "the next colour")
            # After the second click the status already reads as it did after the first, so
            # the building itself is waited for, not the status.
            wait_for(
                browser,
                lambda d, n=number: len(d.find_elements(By.CSS_SELECTOR, "#board .building")) == n,
                f"{number} colours of the sequence drawn",
            )
    wait_for(browser, lambda d: "Bob to move" in status.text, "the sequence")
    assert [m.text for m in browser.find_elements(By.CSS_SELECTOR, "#moves li")] == [
        f"Ann: {first}"
    ]
    painted = browser.find_elements(By.CSS_SELECTOR, "#board [id^='box-seq1-'].played")
    assert len(painted) == 3
    shot(browser, "record-klee-sequence")

    browser.get(server + "/record/cannon-ball?seed=5")
    status = browser.find_element(By.ID, "status")
    wait_for(browser, lambda d: "Ann to move" in status.text, "the game to start")
    browser.find_element(By.ID, "mark-key-blue").click()
    for square in range(1, 10):
        browser.find_element(By.ID, f"space-{square}").click()
        if square < 9:
            wait_for(
                browser, lambda d, n=square: f"{n} of 9 pieces" in status.text, "the next piece"
            )
    wait_for(browser, lambda d: "Bob to move" in status.text, "the line-up")
    pieces = browser.find_elements(By.CSS_SELECTOR, "#board .space.played")
    assert len(pieces) == 9
    shot(browser, "record-cannon-ball-lineup")


def test_a_class_pack_shows_its_progress_and_downloads_the_commands_pdf(
    browser: Any, server: str, downloads: Path, tmp_path: Path
) -> None:
    browser.get(server + "/pack")
    for game in ("rings", "klee"):
        browser.find_element(By.CSS_SELECTOR, f'input[name="games"][value="{game}"]').click()
    browser.find_element(By.CSS_SELECTOR, "#settings-rings summary").click()
    rounds = browser.find_element(By.ID, "in-rings:rounds")
    rounds.clear()
    rounds.send_keys("2")
    copies = browser.find_element(By.ID, "in-copies")
    copies.clear()
    copies.send_keys("4")
    seed = browser.find_element(By.ID, "in-seed")
    seed.clear()
    seed.send_keys("77")
    browser.find_element(By.ID, "make-pack").click()
    text = browser.find_element(By.ID, "progress-text")
    link = browser.find_element(By.ID, "pack-link")
    wait_for(browser, lambda d: link.is_displayed(), "the pack")
    assert "8 sheets made" in text.text
    link.click()
    target = downloads / "klee-rings-pack-77.pdf"  # the games in the page's order
    wait_for(
        browser,
        lambda d: target.exists() and target.stat().st_size > 0,
        f"the download (the folder holds {sorted(p.name for p in downloads.iterdir())})",
    )
    time.sleep(0.3)
    command = browser.find_element(By.ID, "pack-command").text
    assert command.startswith("papergames pack klee 'rings rounds=2' --copies 4 --seed 77")
    shot(browser, "pack", height=1400)
    out = tmp_path / "pack.pdf"
    result = CliRunner().invoke(
        cli_app,
        ["pack", "klee", "rings rounds=2", "--copies", "4", "--seed", "77", "-o", str(out), "-q"],
    )
    assert result.exit_code == 0, result.stderr
    assert target.read_bytes() == out.read_bytes()


def test_a_checked_grid_game_is_drawn_with_its_squares_and_lines(browser: Any, server: str) -> None:
    from papergames.play.checker import check_text
    from papergames.web.view import checked_views

    example = EXAMPLES / "spaghetti.txt"
    text = example.read_text(encoding="utf-8")
    [view] = checked_views(text, check_text(text))
    assert view.paint and view.lines
    browser.get(server + "/check")
    browser.find_element(By.ID, "transcript").send_keys(str(example))
    browser.find_element(By.ID, "check").click()
    board = wait_for(browser, lambda d: d.find_element(By.ID, "board"), "the sheet")
    wait_for(browser, lambda d: board.get_attribute("data-drawn") == "yes", "the drawing")
    assert len(board.find_elements(By.CSS_SELECTOR, "line.drawn")) == len(view.lines)
    shot(browser, "check-spaghetti")
