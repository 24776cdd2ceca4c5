"""The teacher's pages as a new user meets them, on a phone and on a school laptop.

The gallery has a search that narrows its cards on the page itself, and on a phone its cards are
a compact list under a menu on one line. A game's page keeps its preview in sight and shows a
refused setting's message beside its input, naming what was typed and what is allowed, in
words without the command line's ``a|b``. A refusal keeps the form as it was filled in. The
class pack carries every setting of the sheet it was asked from (its paper too), and works
without script: a page that follows the making, then the file. Printing a page leaves the menu
and the forms off. axe-core finds no serious or critical problem on any of these pages.

The layout is tried in Debian's Chromium at both sizes (:mod:`browsing`); the rest through
Starlette's test client. Every page is saved in ``build/screenshots/`` at both sizes to look at.
"""

from __future__ import annotations

import base64
import html
import io
import re
import time
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from typer.testing import CliRunner

from papergames.cli import app as cli_app
from papergames.games import GAMES, get_layout
from papergames.sheets.spec import SheetSpec

from browsing import (
    NEEDS_CHROMIUM,
    SHOTS,
    SIZES,
    in_viewport,
    open_chromium,
    printed_pdf,
    serious_problems,
    serve,
    tap,
    wait_for,
)

if TYPE_CHECKING:
    from starlette.testclient import TestClient

LETTER = (612.0, 792.0)
"""Letter paper in PDF points (8.5 by 11 inches)."""

PHONE_GALLERY_MOST = 3150
"""The tallest the gallery may be on a phone, in CSS pixels: half the 6,300 px of the 18
full-width cards it had. A card is now a row about 110 px high (a 92 px picture beside the
name, players and two lines of summary), so 18 rows and their gaps take about 2,150 px, and
the menu, the heading, the search and the footer about 450 px more; the bound leaves room for
a few more games or larger text."""


# Reading the page's forms as a browser sends them ---------------------------------------------


class FormReader(HTMLParser):
    """The (name, value) pairs a browser sends for the form ``form_id`` of a page, as it is
    drawn: text inputs, hidden inputs, ticked boxes and each select's chosen option; and every
    input's labelling, to check that each has a label."""

    def __init__(self, form_id: str | None = None) -> None:
        super().__init__()
        self.form_id = form_id
        self.inside = form_id is None
        self.pairs: list[tuple[str, str]] = []
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []
        self.labelled_for: set[str] = set()
        self.label_depth = 0
        self.controls: list[tuple[str, bool]] = []  # (id or name, inside a label)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
        if tag == "label":
            self.label_depth += 1
            if a.get("for"):
                self.labelled_for.add(a["for"])
        if tag in ("input", "select", "textarea") and a.get("type") not in ("hidden", "submit"):
            self.controls.append((a.get("id") or a.get("name", "?"), self.label_depth > 0))
        if not self.inside:
            return
        if tag == "input" and "name" in a:
            kind = a.get("type", "text")
            if kind == "checkbox":
                if "checked" in a:
                    self.pairs.append((a["name"], a.get("value", "on")))
            elif kind not in ("submit", "button"):
                self.pairs.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self.select = a.get("name")
            self.options = []
        elif tag == "option" and self.select is not None:
            self.options.append((a.get("value", ""), "selected" in a))

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.label_depth -= 1
        if tag == "select" and self.select is not None:
            chosen = [v for v, s in self.options if s] or [v for v, _ in self.options[:1]]
            if self.select and chosen:
                self.pairs.append((self.select, chosen[0]))
            self.select = None
        if tag == "form" and self.form_id is not None:
            self.inside = False

    def unlabelled(self) -> list[str]:
        return [c for c, inside in self.controls if not inside and c not in self.labelled_for]


def form_values(page: str, form_id: str) -> list[tuple[str, str]]:
    reader = FormReader(form_id)
    reader.feed(page)
    return reader.pairs


def as_data(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """A form's pairs as the test client sends them (a name given twice keeps both values)."""
    data: dict[str, list[str]] = {}
    for key, value in pairs:
        data.setdefault(key, []).append(value)
    return data


def pdf_page_sizes(data: bytes) -> set[tuple[float, float]]:
    from pypdf import PdfReader

    pages = PdfReader(io.BytesIO(data)).pages
    return {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in pages}


def field_html(page: str, key: str) -> str:
    """The ``<div class="field...">`` of input ``key`` on a page drawn by the server."""
    start = page.index(f'id="field-{key}"')
    end = page.index("</div>", start)
    return page[start:end]


def cli_pack(tmp_path: Path, command: str) -> bytes:
    import shlex

    out = tmp_path / "cli-pack.pdf"
    result = CliRunner().invoke(cli_app, [*shlex.split(command)[1:], "-o", str(out), "-q"])
    assert result.exit_code == 0, result.stderr
    return out.read_bytes()


# Help and refusals in words -------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_help_is_written_for_people_not_as_the_command_lines_ranges(
    client: TestClient, game: str
) -> None:
    page = client.get(f"/game/{game}").text
    helps = [html.unescape(h) for h in re.findall(r'<small id="help-[^"]*">(.*?)</small>', page)]
    assert helps
    for text in helps:
        plain = re.sub(r"<[^>]+>", "", text)
        assert "|" not in plain and not re.search(r"\d\.\.\d", plain), plain
    for param in get_layout(game).params:
        if param.kind == "int":
            low, high = int(param.low or 0), int(param.high or 0)
            assert f"a whole number from {low} to {high}" in html.unescape(page), param.name


def test_the_pack_pages_help_and_choices_are_words_too(client: TestClient) -> None:
    page = html.unescape(client.get("/pack").text)
    helps = re.findall(r'<small id="help-[^"]*">(.*?)</small>', page)
    assert helps and not [h for h in helps if "|" in h]
    paper = re.search(r'<select id="in-paper"(.*?)</select>', page, re.S)
    assert paper
    assert re.findall(r">([^<]+)</option>", paper.group(1))[:2] == ["A4", "Letter"]


def test_a_word_typed_in_a_number_setting_is_named_in_its_refusal(client: TestClient) -> None:
    page = client.get("/game/springer").text
    tag = re.search(r'<input id="in-triangles"[^>]*>', page)
    assert tag, "the triangles input"
    # Not type=number, whose typed 'abc' a browser sends as an empty value.
    assert 'type="text"' in tag.group(0) and 'inputmode="numeric"' in tag.group(0)
    answer = client.get("/api/preview/springer", params={"seed": "1", "triangles": "abc"})
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "triangles=abc is not allowed: triangles takes a whole number from 2 to 10",
        "field": "triangles",
    }


# A refusal keeps the form ---------------------------------------------------------------------


def test_a_refused_download_shows_the_form_again_with_the_values_sent(
    client: TestClient,
) -> None:
    query = {
        "seed": "77",
        "rows": "7",
        "triangles": "abc",
        "paper": "letter",
        "markers": "off",
        "format": "png",
    }
    response = client.get("/download/springer", params=query)
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    sent = dict(form_values(page, "sheet-form"))
    assert {k: sent[k] for k in query} == query
    triangles = field_html(page, "triangles")
    assert 'aria-invalid="true"' in triangles and 'aria-describedby="help-triangles message"' in (
        triangles
    )
    message = re.search(r'<p id="message"[^>]*>(.*?)</p>', triangles, re.S)
    assert message and "triangles=abc" in html.unescape(message.group(1))
    assert page.count('id="message"') == 1


def test_a_refusal_about_no_single_input_is_at_the_top_of_the_form(client: TestClient) -> None:
    response = client.get("/download/vasarely?seed=2&min_spaces=12&max_spaces=5&format=pdf")
    assert response.status_code == 400
    page = response.text
    form = page[page.index('<form id="sheet-form"') :]
    assert form.index('id="message"') < form.index("<fieldset")
    assert dict(form_values(page, "sheet-form"))["min_spaces"] == "12"


def test_an_unknown_game_is_offered_the_games_named_like_it(client: TestClient) -> None:
    response = client.get("/game/mazes")
    assert response.status_code == 404
    assert 'href="/game/maze"' in response.text
    assert 'href="/pack"' in response.text and 'href="/check"' in response.text


def test_a_refused_pack_shows_its_form_again_with_the_message_beside_the_setting(
    client: TestClient,
) -> None:
    sent = {
        "games": ["rings", "maze"],
        "rings:rounds": "99",
        "maze:size": "9",
        "copies": "3",
        "seed": "5",
        "paper": "letter",
        "rules": "none",
        "per_page": "1",
    }
    response = client.post("/pack", data=sent)
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    values = form_values(page, "pack-form")
    assert [v for k, v in values if k == "games"] == ["rings", "maze"]
    kept = dict(values)
    for key in ("rings:rounds", "maze:size", "copies", "seed", "paper", "rules", "per_page"):
        assert kept[key] == sent[key], key
    rounds = field_html(page, "rings:rounds")
    assert 'aria-invalid="true"' in rounds and "rounds=99" in html.unescape(rounds)
    assert '<details id="settings-rings" open>' in page


def test_a_pack_refused_while_it_is_made_shows_its_form_again(client: TestClient) -> None:
    sent = {"games": ["maze"], "copies": "0", "seed": "5", "paper": "a5", "rules": "first"}
    response = client.post("/pack", data=sent)
    assert response.status_code == 400  # after the redirect to the pack's own page
    page = response.text
    kept = dict(form_values(page, "pack-form"))
    assert (kept["copies"], kept["seed"], kept["paper"], kept["rules"]) == ("0", "5", "a5", "first")
    copies = field_html(page, "copies")
    assert 'aria-invalid="true"' in copies and "--copies 0 is out of range" in copies


def test_the_pages_script_gets_the_input_a_pack_refusal_is_about(client: TestClient) -> None:
    fields = {"games": "rings", "rings:rounds": "99", "copies": "3", "seed": "1"}
    answer = client.post("/api/pack", data=fields)
    assert answer.status_code == 400 and answer.json()["field"] == "rings:rounds"
    answer = client.post("/api/pack", data={"copies": "3", "seed": "1"})
    assert answer.status_code == 400 and answer.json()["field"] == "games"


# The class pack: every setting carried, and made without script -------------------------------


def finish_without_script(client: TestClient, response: Any) -> tuple[str, bytes]:
    """Follow a pack's page as a browser without script does (it reloads itself) until it
    offers the file; the page's last HTML and the file."""
    page = response.text
    deadline = time.monotonic() + 120
    while not re.search(r'<a id="pack-link" href="/api/pack/[^"]+/file"', page):
        assert time.monotonic() < deadline, "the pack was not made in time"
        assert response.status_code == 200, page
        assert response.headers["content-type"].startswith("text/html")
        assert '<meta http-equiv="refresh" content="1">' in page
        time.sleep(0.2)
        response = client.get(str(response.url))
        page = response.text
    link = re.search(r'<a id="pack-link" href="([^"]+)"', page)
    assert link
    made = client.get(link.group(1))
    assert made.status_code == 200 and made.headers["content-type"] == "application/pdf"
    return page, made.content


def test_a_pack_asked_from_a_game_page_keeps_every_setting_and_its_paper(
    client: TestClient, tmp_path: Path
) -> None:
    # The game page's form, filled in, sent by its pack button (name=game, to /pack).
    game_page = client.get("/game/maze").text
    values = dict(form_values(game_page, "sheet-form"))
    values.update(size="9", paper="letter", markers="off", seed="31")
    assert re.search(r'id="pack-link" formaction="/pack" formmethod="get"\s+name="game"', game_page)
    pack_page = client.get("/pack", params={**values, "game": "maze"}).text
    pack = form_values(pack_page, "pack-form")
    kept = dict(pack)
    assert [v for k, v in pack if k == "games"] == ["maze"]
    assert (kept["paper"], kept["seed"]) == ("letter", "31")
    assert (kept["maze:size"], kept["maze:markers"]) == ("9", "off")
    pack = [(k, "2" if k == "copies" else v) for k, v in pack]
    response = client.post("/pack", data=as_data(pack))  # as a browser without script sends it
    page, made = finish_without_script(client, response)
    assert pdf_page_sizes(made) == {LETTER}
    command = html.unescape(re.search(r'<code id="pack-command">(.*?)</code>', page).group(1))
    assert command.startswith("papergames pack 'maze size=9 markers=off' --copies 2 --seed 31")
    assert "--paper letter" in command
    assert made == cli_pack(tmp_path, command)


def test_without_script_the_pack_form_answers_pages_then_the_file(
    client: TestClient, tmp_path: Path
) -> None:
    form = client.get("/pack").text
    assert '<form id="pack-form" class="pack-form" action="/pack" method="post"' in form
    sent = {"games": ["spaghetti", "klee"], "copies": "2", "seed": "8", "rules": "first"}
    started = client.post("/pack", data=sent, follow_redirects=False)
    assert started.status_code == 303
    assert started.headers["location"].startswith("/pack/job/")
    response = client.get(started.headers["location"])
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-store"
    page, made = finish_without_script(client, response)
    assert "4 sheets made" in page
    command = html.unescape(re.search(r'<code id="pack-command">(.*?)</code>', page).group(1))
    assert made == cli_pack(tmp_path, command)
    again = re.search(r'href="(/pack\?from=[^"]+)"', page)
    assert again
    kept = form_values(client.get(html.unescape(again.group(1))).text, "pack-form")
    assert [v for k, v in kept if k == "games"] == ["klee", "spaghetti"]  # the page's order
    assert dict(kept)["copies"] == "2"


# The gallery without a browser ----------------------------------------------------------------


def test_the_gallery_search_works_without_script_too(client: TestClient) -> None:
    from papergames.web.view import finds

    page = client.get("/", params={"q": "Quet", "players": "6"}).text
    shown = re.findall(r'<li class="card"[^>]*?(?<!hidden) id="card-([^"]+)">', page)
    hidden = re.findall(r'<li class="card"[^>]* hidden id="card-([^"]+)">', page)
    expected = [name for name, game in GAMES.items() if finds(game, "Quet", "6")]
    assert shown == expected == ["rings", "maze", "cocomposite"]
    assert len(hidden) == len(GAMES) - 3
    assert f"3 of {len(GAMES)} games" in page


def test_gallery_pictures_say_what_the_sheet_holds(client: TestClient) -> None:
    page = client.get("/").text
    found = re.findall(r'<img src="/thumb/([^.]+)\.png" alt="([^"]*)"', page)
    alts = {name: html.unescape(alt) for name, alt in found}
    assert set(alts) == set(GAMES)
    for name, alt in alts.items():
        game = GAMES[name]
        assert alt == f"Sheet of {game.title}: {game.sheet_contents}"


@pytest.mark.parametrize("url", ["/", "/game/rings", "/pack", "/rules/arp", "/game/nothing"])
def test_every_page_has_a_skip_link_and_every_input_a_label(client: TestClient, url: str) -> None:
    page = client.get(url).text
    assert re.search(
        r'<body[^>]*>\s*<a class="skip-link" href="#content">Skip to the content</a>', page
    )
    assert '<main id="content"' in page
    reader = FormReader()
    reader.feed(page)
    assert reader.controls or url in ("/rules/arp", "/game/nothing")
    assert reader.unlabelled() == []


# In the browser, at both sizes ----------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serve() as address:
        yield address


@pytest.fixture(scope="module", params=list(SIZES))
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    if not Path("/usr/bin/chromedriver").exists():
        pytest.skip("no /usr/bin/chromedriver")
    with open_chromium(request.param) as driver:
        driver.size_name = request.param
        yield driver


def whole_page_shot(driver: Any, name: str) -> Path:
    """The whole page, not only the viewport, as ``build/screenshots/<name>.png``, seen from
    its top (a sticky preview is drawn where it stands at the scroll position)."""
    driver.execute_script("window.scrollTo(0, 0)")
    width = driver.execute_script("return window.innerWidth")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": min(height, 5000), "scale": 1},
        },
    )
    path = SHOTS / f"{name}.png"
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


def load_every_picture(driver: Any) -> None:
    """Scroll down the page a screen at a time so that every lazy picture loads, then back up."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    step = driver.execute_script("return window.innerHeight")
    for y in range(0, height + step, step):
        driver.execute_script("window.scrollTo(0, arguments[0])", y)
        time.sleep(0.05)
    wait_for(
        driver,
        lambda d: d.execute_script(
            "return [...document.images].every(i => i.complete && i.naturalWidth > 0)"
        ),
        "every picture to load",
    )
    driver.execute_script("window.scrollTo(0, 0)")


def rect(driver: Any, element: Any) -> dict[str, float]:
    box: dict[str, float] = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height};",
        element,
    )
    return box


def uncovered(driver: Any, element: Any) -> bool:
    """Whether nothing lies over the middle of ``element`` (a sticky preview, say)."""
    on_top: bool = driver.execute_script(
        "const e = arguments[0], r = e.getBoundingClientRect();"
        "const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);"
        "return hit !== null && (hit === e || e.contains(hit));",
        element,
    )
    return on_top


def open_game(driver: Any, server: str, game: str) -> None:
    driver.get(f"{server}/game/{game}")
    wait_for(
        driver,
        lambda d: (d.find_element("id", "preview").get_attribute("data-spec") or "").startswith(
            game
        ),
        "the first preview",
    )


@NEEDS_CHROMIUM
def test_the_gallery_search_narrows_the_cards_on_the_page(browser: Any, server: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from papergames.web.view import finds

    browser.get(server + "/")
    cards = wait_for(
        browser,
        lambda d: (
            (found := d.find_elements(By.CSS_SELECTOR, ".card"))
            and len(found) == len(GAMES)
            and found
        ),
        f"the gallery's {len(GAMES)} cards (the page is {browser.current_url})",
    )
    browser.execute_script("window.notReloaded = true")

    def shown() -> list[str]:
        return [c.get_attribute("id").removeprefix("card-") for c in cards if c.is_displayed()]

    find = browser.find_element(By.ID, "find")
    find.send_keys("pieces")
    expected = [n for n, g in GAMES.items() if finds(g, "pieces")]
    wait_for(browser, lambda d: shown() == expected, "the cards with pieces")
    assert len(expected) == 4
    Select(browser.find_element(By.ID, "players")).select_by_value("3")
    expected = [n for n, g in GAMES.items() if finds(g, "pieces", "3")]
    wait_for(browser, lambda d: shown() == expected, "the cards for three players")
    status = browser.find_element(By.ID, "found").text
    assert status == f"{len(expected)} of {len(GAMES)} games"
    find.clear()
    find.send_keys("Sackson")
    expected = [n for n, g in GAMES.items() if finds(g, "Sackson", "3")]
    wait_for(browser, lambda d: shown() == expected, "Sackson's games for three")
    find.clear()
    find.send_keys("zzz")
    wait_for(browser, lambda d: shown() == [], "no card")
    assert "No game matches" in browser.find_element(By.ID, "found").text
    assert browser.execute_script("return window.notReloaded === true"), "the page was reloaded"
    assert not browser.find_element(By.ID, "find-button").is_displayed()


@NEEDS_CHROMIUM
def test_the_first_key_press_reaches_the_skip_link(browser: Any, server: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(server + "/game/maze")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    skip = browser.switch_to.active_element
    assert skip.text == "Skip to the content" and in_viewport(browser, skip)
    skip.send_keys(Keys.ENTER)
    assert browser.switch_to.active_element.get_attribute("id") == "content"


@NEEDS_CHROMIUM
def test_the_gallery_is_compact_and_the_menu_on_one_line(browser: Any, server: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(server + "/")
    load_every_picture(browser)
    width = browser.execute_script("return window.innerWidth")
    height = browser.execute_script("return document.documentElement.scrollHeight")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    if browser.size_name == "phone":
        assert height <= PHONE_GALLERY_MOST, f"the gallery is {height} px tall on a phone"
    links = browser.find_elements(By.CSS_SELECTOR, "header.top nav a")
    assert [link.text for link in links][:2] == ["Games", "Class pack"]
    assert links[2].get_attribute("textContent") == "Check a game"  # what a screen reader reads
    boxes = [rect(browser, e) for e in [browser.find_element(By.CSS_SELECTOR, ".brand"), *links]]
    line = boxes[1]["height"]
    for box in boxes[1:]:
        assert abs(box["top"] - boxes[1]["top"]) < 1, "the links are on one line"
        assert box["height"] <= line + 1, "a link is wrapped onto two lines"
        assert box["right"] <= width
    middles = [(box["top"] + box["bottom"]) / 2 for box in boxes]
    assert abs(middles[0] - middles[1]) < 8, "the brand and the links are on one line"
    whole_page_shot(browser, f"teacher-gallery-{browser.size_name}")


@NEEDS_CHROMIUM
def test_a_refused_setting_is_told_beside_its_input(browser: Any, server: str) -> None:
    from selenium.webdriver.common.by import By

    open_game(browser, server, "springer")
    triangles = browser.find_element(By.ID, "in-triangles")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", triangles)
    triangles.clear()
    triangles.send_keys("abc")
    message = browser.find_element(By.ID, "message")
    # Clearing the box is a change of its own; on a slow machine the empty value's refusal is
    # shown before the typed one replaces it.
    wait_for(
        browser,
        lambda d: message.is_displayed() and "triangles=abc" in message.text,
        "the refusal of abc",
    )
    assert "triangles=abc" in message.text and "a whole number from 2 to 10" in message.text
    assert message.find_element(By.XPATH, "..").get_attribute("id") == "field-triangles"
    assert triangles.get_attribute("aria-invalid") == "true"
    assert "message" in triangles.get_attribute("aria-describedby").split()
    assert in_viewport(browser, message) and uncovered(browser, message)
    assert 0 <= rect(browser, message)["top"] - rect(browser, triangles)["bottom"] < 80
    assert browser.find_element(By.ID, "preview-box").get_attribute("class").count("refused")
    browser.save_screenshot(str(SHOTS / f"teacher-game-refused-view-{browser.size_name}.png"))
    whole_page_shot(browser, f"teacher-game-refused-{browser.size_name}")
    # A refusal about no single input is told beside the one just changed.
    triangles.clear()
    triangles.send_keys("5")
    wait_for(browser, lambda d: not message.is_displayed(), "the refusal to go")
    assert triangles.get_attribute("aria-invalid") is None
    assert "message" not in (triangles.get_attribute("aria-describedby") or "").split()


@NEEDS_CHROMIUM
def test_the_preview_is_in_sight_from_the_start_and_while_the_form_is_filled(
    browser: Any, server: str
) -> None:
    from selenium.webdriver.common.by import By

    open_game(browser, server, "springer")
    inner = browser.execute_script("return window.innerHeight")
    image = browser.find_element(By.ID, "preview")
    first = rect(browser, image)
    assert first["top"] < inner / 2, "the preview starts in the first half of the first screen"
    assert min(first["bottom"], inner) - first["top"] >= 0.25 * inner
    browser.save_screenshot(str(SHOTS / f"teacher-game-{browser.size_name}.png"))
    # Down at the download button, the preview is still in sight, and not under the button.
    download = browser.find_element(By.ID, "download")
    browser.execute_script("arguments[0].scrollIntoView({block: 'end'})", download)
    time.sleep(0.2)
    assert browser.execute_script("return window.scrollY") > 300
    assert in_viewport(browser, image), rect(browser, image)
    assert in_viewport(browser, download) and uncovered(browser, download)
    browser.save_screenshot(str(SHOTS / f"teacher-game-scrolled-{browser.size_name}.png"))
    whole_page_shot(browser, f"teacher-game-whole-{browser.size_name}")


@NEEDS_CHROMIUM
def test_printing_leaves_the_menu_and_the_forms_off(browser: Any, server: str) -> None:
    from pypdf import PdfReader
    from selenium.webdriver.common.by import By

    screen_only = ["header.top", "nav", "footer.bottom", ".skip-link", "form", "button"]
    for url in ("/rules/arp", "/game/arp", "/", "/pack"):
        browser.get(server + url)
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        try:
            for selector in screen_only:
                for element in browser.find_elements(By.CSS_SELECTOR, selector):
                    assert not element.is_displayed(), f"{selector} is printed on {url}"
            assert browser.find_element(By.TAG_NAME, "h1").is_displayed()
            if url != "/" and url != "/pack":
                assert browser.find_element(By.CSS_SELECTOR, ".rules p").is_displayed()
        finally:
            browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    browser.get(server + "/rules/arp")
    reader = PdfReader(io.BytesIO(printed_pdf(browser)))
    text = " ".join(page.extract_text() for page in reader.pages)
    assert "Arp" in text and "Sid Sackson" in text
    for menu in ("Class pack", "Skip to the content", "Runs on this computer", "as PDF"):
        assert menu not in text, f"{menu!r} is printed"


PLACEHOLDER_FITS = """
const input = arguments[0];
const style = getComputedStyle(input, "::placeholder");
const context = document.createElement("canvas").getContext("2d");
context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
const room = input.clientWidth - parseFloat(getComputedStyle(input).paddingLeft)
    - parseFloat(getComputedStyle(input).paddingRight);
return [context.measureText(input.placeholder).width, room];
"""


@NEEDS_CHROMIUM
def test_every_one_line_placeholder_fits_its_field(browser: Any, server: str) -> None:
    """A hint cut off inside its field tells a teacher on a phone half of what it means."""
    from selenium.webdriver.common.by import By

    cut = []
    for url in ("/", "/check", "/pack", "/record/springer?seed=2", "/game/springer"):
        browser.get(server + url)
        for field in browser.find_elements(By.CSS_SELECTOR, "input[placeholder]"):
            if not field.is_displayed():
                continue
            width, room = browser.execute_script(PLACEHOLDER_FITS, field)
            if width > room:
                cut.append(f"{url} #{field.get_attribute('id')}: {width:.0f} > {room:.0f} px")
    assert cut == []


@NEEDS_CHROMIUM
def test_axe_finds_no_serious_problem_on_the_teachers_pages(browser: Any, server: str) -> None:
    from selenium.webdriver.common.by import By

    pages = {
        "gallery": "/",
        "game": "/game/springer",
        "pack": "/pack?game=rings&rounds=2",
        "rules": "/rules/arp",
        "refused": "/download/springer?triangles=abc&seed=3&format=pdf",
        "error": "/game/mazes",
    }
    found = {}
    for name, url in pages.items():
        browser.get(server + url)
        if name == "game":
            open_game(browser, server, "springer")
        if name == "refused":
            state = browser.find_element(By.ID, "preview-state")
            wait_for(browser, lambda d, s=state: s.is_displayed(), "the refused preview")
        problems = serious_problems(browser)
        if problems:
            found[name] = problems
        whole_page_shot(browser, f"teacher-{name}-{browser.size_name}")
    assert found == {}


@NEEDS_CHROMIUM
def test_a_pack_from_a_game_page_in_the_browser_comes_out_on_its_paper(
    browser: Any, server: str
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_game(browser, server, "maze")
    Select(browser.find_element(By.ID, "in-paper")).select_by_value("letter")
    size = browser.find_element(By.ID, "in-size")
    size.clear()
    size.send_keys("7")
    wait_for(
        browser,
        lambda d: "size=7" in (d.find_element(By.ID, "preview").get_attribute("data-spec") or ""),
        "the preview of size 7",
    )
    pack = browser.find_element(By.ID, "pack-link")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", pack)
    pack.click()
    wait_for(browser, lambda d: "/pack?" in d.current_url, "the pack page")
    assert Select(browser.find_element(By.ID, "in-paper")).first_selected_option.text == "Letter"
    assert browser.find_element(By.CSS_SELECTOR, 'input[value="maze"]').is_selected()
    assert browser.find_element(By.ID, "in-maze:size").get_attribute("value") == "7"
    copies = browser.find_element(By.ID, "in-copies")
    copies.clear()
    copies.send_keys("2")
    browser.find_element(By.ID, "make-pack").click()
    link = browser.find_element(By.ID, "pack-link")
    wait_for(browser, lambda d: link.is_displayed(), "the pack")
    with urllib.request.urlopen(link.get_attribute("href"), timeout=60) as answer:
        assert pdf_page_sizes(answer.read()) == {LETTER}


@NEEDS_CHROMIUM
def test_without_script_the_pack_page_follows_the_making_to_the_file(
    browser: Any, server: str
) -> None:
    from selenium.webdriver.common.by import By

    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(server + "/pack")
        tap(browser, browser.find_element(By.CSS_SELECTOR, 'input[value="spaghetti"]'))
        copies = browser.find_element(By.ID, "in-copies")
        copies.clear()
        copies.send_keys("2")
        tap(browser, browser.find_element(By.ID, "make-pack"))
        wait_for(browser, lambda d: "/pack/job/" in d.current_url, "the pack's page")
        link = wait_for(browser, lambda d: d.find_element(By.ID, "pack-link"), "the download link")
        assert "2 sheets made" in browser.find_element(By.ID, "progress-text").text
        browser.save_screenshot(str(SHOTS / f"teacher-pack-made-{browser.size_name}.png"))
        with urllib.request.urlopen(link.get_attribute("href"), timeout=60) as answer:
            assert answer.read().startswith(b"%PDF")
        # A refusal without script: the form again, as it was filled in.
        browser.get(server + "/pack")
        # Under load the made pack's page was once still on screen here: wait for the form.
        copies = wait_for(browser, lambda d: d.find_element(By.ID, "in-copies"), "the pack form")
        copies.clear()
        copies.send_keys("12")
        tap(browser, browser.find_element(By.ID, "make-pack"))
        wait_for(browser, lambda d: d.title.startswith("Refused"), "the refusal")
        message = browser.find_element(By.ID, "message")
        assert "choose at least one game" in message.text
        assert in_viewport(browser, message)
        assert browser.find_element(By.ID, "in-copies").get_attribute("value") == "12"
        whole_page_shot(browser, f"teacher-pack-refused-{browser.size_name}")
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def test_the_sheet_spec_a_download_names_is_the_command_lines(client: TestClient) -> None:
    """Downloads stay the command line's bytes with the new form (text inputs for numbers)."""
    page = client.get("/game/klee").text
    values = dict(form_values(page, "sheet-form"))
    values["seed"] = "12"
    response = client.get("/download/klee", params=values)
    assert response.status_code == 200
    assert response.headers["content-disposition"] == 'attachment; filename="klee-12.pdf"'
    from papergames.web import making

    assert response.content == making.sheet_file(SheetSpec.create("klee", seed=12), "pdf").data
