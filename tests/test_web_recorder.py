"""The game recorder as a child uses it, on a phone (390x844) and a school laptop (1366x768).

In Chromium at both sizes (tests/browsing.py): a game recorded by clicks survives a reload,
going away and coming back; names with spaces work, and the first click after typing them counts;
every refusal and the turn are on screen together with the sheet; every item to click is at
least 24 CSS px at a phone's default zoom (WCAG 2.2); the items are buttons for the keyboard;
axe-core finds no serious problem. Through the API: the names' order is the order of play
(Crossing the Rings too), a sheet for three starts with three names, Klee's moves use the names
printed on the sheet, and the sections won in Crossing the Rings are shaded.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from papergames.play.checker import check_text
from papergames.play.game import build_game
from papergames.play.rules import IllegalMove
from papergames.play.transcript import parse_transcript
from papergames.web.record import header

from browsing import (
    CHROMEDRIVER,
    NEEDS_CHROMIUM,
    SIZES,
    in_viewport,
    open_chromium,
    serious_problems,
    serve,
    shot,
    wait_for,
)

# The API ----------------------------------------------------------------------------------------


def send(client: Any, game: str, body: Any) -> dict[str, Any]:
    response = client.post(f"/api/record/{game}", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_the_rings_players_are_listed_in_the_order_they_play(client: Any) -> None:
    """In Crossing the Rings the first seat divides the first round and draws last; the page's
    first name draws first, and the transcript seats the names so the checker agrees."""
    spec = "rings seed=11 rounds=3 players=3"
    names = ["Ann", "Bob", "Mia Rose"]
    body = {"spec": spec, "players": names, "moves": []}
    turn = send(client, "rings", body)
    assert turn["to_move"] == "Ann" and turn["players"] == names
    engine = build_game(parse_transcript(turn["transcript"]))
    assert [p.name for p in engine.players] == ["Mia Rose", "Ann", "Bob"]
    assert [p.colour for p in engine.players] == ["green", "red", "blue"]
    state = engine.initial()
    moves: list[str] = []
    for _ in range(9):
        move = next(iter(engine.legal_moves(state)))
        moves.append(engine.format_move(move))
        state = engine.apply(state, move)
    turn = send(client, "rings", {**body, "moves": moves})
    order = [names[m] for m in turn["movers"]]
    assert order == ["Ann", "Bob", "Mia Rose", "Bob", "Mia Rose", "Ann", "Mia Rose", "Ann", "Bob"]
    assert list(turn["scores"]) == names
    verdict = check_text(turn["transcript"])
    assert verdict.illegal is None and verdict.ok
    assert [step.move for step in verdict.steps] == moves


def test_a_loaded_rings_transcript_lists_its_players_in_the_order_they_play(client: Any) -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "examples" / "rings.txt").read_text()
    response = client.post(
        "/record", files={"transcript": ("rings.txt", text.encode(), "text/plain")}
    )
    assert response.status_code == 200
    assert 'data-players="Bob, Cy, Ann"' in response.text  # Ann divides round 1: Bob draws first


def test_the_sections_a_line_fills_are_shaded_in_its_players_colour(client: Any) -> None:
    spec = "rings seed=4"
    engine = build_game(parse_transcript(header(spec, ["Bob", "Ann"])))
    move = next(
        m
        for m in engine.legal_moves(engine.initial())
        if max(engine.apply(engine.initial(), m).owners) >= 0
    )
    filled = engine.apply(engine.initial(), move).owners
    turn = send(client, "rings", {"spec": spec, "players": ["Ann", "Bob"], "moves": []})
    clicked = send(
        client,
        "rings",
        {"spec": spec, "players": ["Ann", "Bob"], "moves": [engine.format_move(move)]},
    )
    assert turn["position"] == []
    shaded = {(page, item): word for page, item, word in clicked["position"]}
    assert shaded == {(1, f"space-{k}"): "red" for k, owner in enumerate(filled) if owner >= 0}
    assert shaded and clicked["items"][0] == [f"point-{end}" for end in move]


def test_a_sheet_for_three_starts_with_three_names(client: Any) -> None:
    import re

    page = client.get("/record/rings?seed=1&players=3").text
    assert re.search(r'<input id="players"[^>]*value="Ann, Bob, Cy"', page)
    page = client.get("/record/rings?seed=1").text
    assert re.search(r'<input id="players"[^>]*value="Ann, Bob"', page)


def test_names_with_spaces_are_players_and_bad_names_say_so(client: Any) -> None:
    body = {"spec": "springer seed=2", "players": ["Mia Rose", "Bob"], "moves": []}
    turn = send(client, "springer", {**body, "item": "space-1"})
    assert turn["accepted"] and "players: Mia Rose (red), Bob (blue)\n" in turn["transcript"]
    assert turn["transcript"].endswith("Mia Rose: space-1\n")
    assert check_text(turn["transcript"]).illegal is None
    for names, words in (
        (["Mia  Rose", "Bob"], "is not a player's name"),
        (["Ann", "Ann"], "named twice"),
        (["A" * 30, "Bob"], "longer than"),
        ([], "write the players' names"),
    ):
        response = client.post("/api/record/springer", json={**body, "players": names})
        assert response.status_code == 400
        error = response.json()["error"]
        assert error.startswith("players: ") and words in error and "line 2" not in error


def test_klee_moves_are_written_with_the_names_printed_on_the_sheet(client: Any) -> None:
    spec = "klee seed=5"
    engine = build_game(parse_transcript(header(spec, ["Ann", "Bob"])))
    state = engine.initial()
    moves = []
    while len(state.sequences[1]) < 4:
        move = next(iter(engine.legal_moves(state)))
        moves.append(engine.format_move(move))
        state = engine.apply(state, move)
    body = {"spec": spec, "players": ["Ann", "Bob"], "moves": moves}
    first = send(client, "klee", {**body, "item": "space-29"})
    assert first["hint"] == "colour e10: click its colour in the key"
    done = send(
        client,
        "klee",
        {**body, "item": "box-legend-red", "pending": first["pending"], "building": True},
    )
    assert done["accepted"] and done["moves"][-1] == "e10 R"
    assert done["items"][-1] == ["space-29"]
    refused = send(client, "klee", {**body, "moves": done["moves"], "item": "space-1"})
    assert refused["reason"].startswith("a12 (space-1) touches no coloured space")


def test_the_page_names_each_item_to_click_as_the_sheet_prints_it(client: Any) -> None:
    import html
    import json
    import re

    page = client.get("/record/klee?seed=5").text
    labels = json.loads(html.unescape(re.search(r'data-labels="([^"]*)"', page).group(1)))
    assert labels[0]["space-29"] == "e10" and labels[0]["box-legend-red"] == "box legend red"
    assert 'data-kinds="space"' in page
    page = client.get("/record/rings?seed=4&rounds=2").text
    labels = json.loads(html.unescape(re.search(r'data-labels="([^"]*)"', page).group(1)))
    assert len(labels) == 2 and labels[1]["point-A1"] == "A1" and "space-3" not in labels[0]
    assert 'data-kinds="point"' in page  # the sections are filled by lines, not clicked


# The browser -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serve() as address:
        yield address


@pytest.fixture(scope="module", params=list(SIZES))
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    """Chromium as a phone, then as a laptop; each test runs at both sizes."""
    if not CHROMEDRIVER.exists():
        pytest.skip("no /usr/bin/chromedriver")
    with open_chromium(request.param) as driver:
        driver.size_name = request.param
        yield driver


def start(browser: Any, server: str, path: str, forget: bool = True) -> Any:
    """The recorder at ``path``, started (with no game kept from before, unless ``forget`` is
    false); its status line."""
    from selenium.webdriver.common.by import By

    if forget:
        browser.get(server + "/")
        browser.execute_script("window.localStorage.clear()")
    browser.get(server + path)
    status = browser.find_element(By.ID, "status")
    wait_for(browser, lambda d: "to move" in status.text, "the game to start")
    return status


def item(browser: Any, name: str) -> Any:
    """The target clicked for an item: its larger target when it has one, else itself."""
    from selenium.webdriver.common.by import By

    found = browser.find_elements(By.CSS_SELECTOR, f'#board [data-for="{name}"]')
    return found[0] if found else browser.find_element(By.CSS_SELECTOR, f'#board [id="{name}"]')


def tap(browser: Any, name: str) -> Any:
    """Tap an item as a finger does: scrolled into view, pressed where it is drawn."""
    from selenium.webdriver.common.action_chains import ActionChains

    target = item(browser, name)
    browser.execute_script(
        "arguments[0].scrollIntoView({block: 'center', inline: 'center'})", target
    )
    ActionChains(browser).move_to_element(target).click().perform()
    return target


def retype(field: Any, text: str) -> None:
    """Replace a field's text as a person does, selecting it all and typing over it.

    Selenium's ``clear`` leaves the field, so the page takes the empty field as given and says
    so; that message moving the sheet while a tap was on its way once made CI's tap land beside
    its target.
    """
    from selenium.webdriver.common.keys import Keys

    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(text)


def moves_shown(browser: Any) -> list[str]:
    shown: list[str] = browser.execute_script(
        "return [...document.querySelectorAll('#moves li')].map((li) => li.innerText.trim())"
    )
    return shown


def leaving_asks(browser: Any) -> bool:
    """Whether leaving the page now asks first (a beforeunload that prevents the default)."""
    asked: bool = browser.execute_script(
        "const e = new Event('beforeunload', {cancelable: true});"
        "window.dispatchEvent(e); return e.defaultPrevented;"
    )
    return asked


def together(browser: Any, target: Any) -> None:
    """The turn, any refusal and the item just played are on screen at once, the bar over the
    sheet hiding nothing of it."""
    from selenium.webdriver.common.by import By

    status = browser.find_element(By.ID, "status")
    message = browser.find_element(By.ID, "message")
    assert in_viewport(browser, status), "the turn is off screen"
    if message.is_displayed():
        assert in_viewport(browser, message), "the refusal is off screen"
    assert in_viewport(browser, target), "the item played is off screen"
    bar = browser.find_element(By.ID, "bar").rect
    assert target.rect["y"] >= bar["y"] + bar["height"] - 1, "the bar hides the item"


def springer_moves(spec: str, count: int) -> list[str]:
    engine = build_game(parse_transcript(header(spec, ["Ann", "Bob"])))
    state = engine.initial()
    moves = []
    for _ in range(count):
        move = next(iter(engine.legal_moves(state)))
        moves.append(engine.format_move(move))
        state = engine.apply(state, move)
    return moves


@NEEDS_CHROMIUM
def test_a_recorded_game_survives_a_reload_and_going_away_and_back(
    browser: Any, server: str
) -> None:
    from selenium.webdriver.common.by import By

    path = "/record/springer?seed=2"
    first, second = springer_moves("springer seed=2", 2)
    status = start(browser, server, path)
    assert not leaving_asks(browser)
    retype(browser.find_element(By.ID, "players"), "Mia Rose, Bob")
    tap(browser, first)  # straight after typing: the names are sent first, then this click
    wait_for(browser, lambda d: "Bob to move" in status.text, "the first click")
    tap(browser, second)
    wait_for(browser, lambda d: "Mia Rose to move" in status.text, "the second click")
    played = [f"Mia Rose: {first}", f"Bob: {second}"]
    assert moves_shown(browser) == played
    assert leaving_asks(browser)
    shot(browser, f"recorder-{browser.size_name}-midgame")

    browser.refresh()
    wait_for(browser, lambda d: moves_shown(d) == played, "the game after a reload")
    assert browser.find_element(By.ID, "players").get_attribute("value") == "Mia Rose, Bob"
    assert browser.find_element(By.ID, "kept").is_displayed()
    assert "Mia Rose to move" in browser.find_element(By.ID, "status").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .space.played")) == 2

    browser.find_element(By.CSS_SELECTOR, "header nav a").click()  # the menu: away
    wait_for(browser, lambda d: not d.find_elements(By.ID, "recorder"), "another page")
    browser.back()
    wait_for(browser, lambda d: moves_shown(d) == played, "the game after going back")
    start(browser, server, path, forget=False)  # opened again
    wait_for(browser, lambda d: moves_shown(d) == played, "the game opened again")

    players = browser.find_element(By.ID, "players")
    players.clear()  # Selenium's clear leaves the field, as a tap elsewhere would
    message = browser.find_element(By.ID, "message")
    wait_for(browser, lambda d: "Write the players' names" in message.text, "no names")
    assert "line" not in message.text
    assert "Mia Rose to move" in browser.find_element(By.ID, "status").text
    retype(players, "Mia Rose, Bo")
    browser.find_element(By.ID, "move").click()
    wait_for(browser, lambda d: moves_shown(d) == [played[0], f"Bo: {second}"], "new names")

    browser.find_element(By.ID, "save").click()
    assert not leaving_asks(browser)
    browser.execute_script("window.confirm = () => true")
    browser.find_element(By.ID, "new-game").click()
    wait_for(browser, lambda d: not moves_shown(d), "a new game")
    assert "Mia Rose to move" in browser.find_element(By.ID, "status").text


@NEEDS_CHROMIUM
@pytest.mark.parametrize("game", ["springer", "rings"])
def test_a_refusal_and_the_turn_are_on_screen_with_the_sheet(
    browser: Any, server: str, game: str
) -> None:
    from selenium.webdriver.common.by import By

    if game == "springer":
        spec, path = "springer seed=2", "/record/springer?seed=2"
        first, second = springer_moves(spec, 2)
        clicks = [[first], [second], [first]]
    else:
        spec, path = "rings seed=4", "/record/rings?seed=4"
        engine = build_game(parse_transcript(header(spec, ["Bob", "Ann"])))
        start_state = engine.initial()
        legal = {engine.format_move(m) for m in engine.legal_moves(start_state)}
        labels = engine.rounds[0].labels
        along = next(
            f"{a}-{b}" for a, b in itertools.combinations(labels, 2) if f"{a}-{b}" not in legal
        )
        with pytest.raises(IllegalMove):
            engine.apply(start_state, engine.parse_move(along, start_state))
        line = next(
            text
            for text in sorted(legal)
            if max(engine.apply(start_state, engine.parse_move(text, start_state)).owners) >= 0
        )
        clicks = [line.split("-"), along.split("-")]
        clicks = [[f"point-{end}" for end in pair] for pair in clicks]
    status = start(browser, server, path)
    message = browser.find_element(By.ID, "message")
    for number, pair in enumerate(clicks, start=1):
        for name in pair:
            target = tap(browser, name)
            wait_for(
                browser,
                lambda d: "Scores" in status.text or "other end" in status.text,
                "the click's answer",
            )
            together(browser, target)
        if number < len(clicks):
            wait_for(browser, lambda d, n=number: len(moves_shown(d)) == n, "the move")
    wait_for(browser, lambda d: message.is_displayed(), "the refusal")
    together(browser, target)
    outlined = browser.find_elements(By.CSS_SELECTOR, "#board .turned-down")
    assert outlined and outlined[0].value_of_css_property("stroke-dasharray") not in ("none", "")
    shot(browser, f"recorder-{browser.size_name}-{game}-refused")
    wait_for(
        browser,
        lambda d: not d.find_elements(By.CSS_SELECTOR, "#board .turned-down"),
        "the refusal's outline to go",
    )
    if game == "rings":
        shaded = browser.find_elements(By.CSS_SELECTOR, "#board .space.played")
        assert shaded and all("214, 40, 40" in s.value_of_css_property("fill") for s in shaded)
    assert serious_problems(browser) == []


MEASURE = """
const svg = document.querySelector('#board svg');
const scale = svg.getScreenCTM().a;
const sizes = [];
for (const button of document.querySelectorAll('#board [role=button]')) {
  const r = button.getBoundingClientRect();
  let least = Math.min(r.width, r.height);
  if (button.classList.contains('hit-stroke')) {
    least = Math.max(least, parseFloat(button.style.strokeWidth) * scale);
  }
  sizes.push([button.dataset.for || button.id, least, button.getAttribute('aria-label')]);
}
const missing = [...document.querySelectorAll('#board .playable')]
  .filter((e) => e.getAttribute('role') !== 'button'
    && !document.querySelector(`#board [data-for="${CSS.escape(e.id)}"]`))
  .map((e) => e.id);
return [sizes, missing, svg.getAttribute('role'), svg.getAttribute('aria-label')];
"""


@NEEDS_CHROMIUM
@pytest.mark.parametrize(
    ("path", "fewest"),
    [
        ("/record/springer?seed=2", 100),
        ("/record/rings?seed=4", 80),
        ("/record/klee?seed=5", 140),
        ("/record/miro?seed=1", 200),
        ("/record/maze?seed=1&size=8", 140),
        ("/record/cannon-ball?seed=5", 36),
    ],
)
def test_every_item_to_click_is_at_least_24_px_and_a_button(
    browser: Any, server: str, path: str, fewest: int
) -> None:
    start(browser, server, path)
    sizes, missing, role, name = browser.execute_script(MEASURE)
    assert role == "group" and "The sheet of" in name
    assert not missing, f"items to click with no button: {missing[:5]}"
    assert len(sizes) >= fewest
    small = [(item, round(least, 1)) for item, least, _ in sizes if least < 24]
    assert not small, f"targets under 24 CSS px at the {browser.size_name}'s size: {small[:5]}"
    assert all(label and not label.startswith(("space-", "point-")) for _, _, label in sizes)


@NEEDS_CHROMIUM
def test_an_item_is_played_from_the_keyboard(browser: Any, server: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    first, _ = springer_moves("springer seed=2", 2)
    status = start(browser, server, "/record/springer?seed=2")
    space = item(browser, first)
    assert space.get_attribute("role") == "button" and space.get_attribute("tabindex") == "0"
    assert space.get_attribute("aria-label") == first.replace("-", " ")
    browser.execute_script("arguments[0].focus()", space)
    assert browser.switch_to.active_element == space
    space.send_keys(Keys.ENTER)
    wait_for(browser, lambda d: "Bob to move" in status.text, "Enter to play the space")
    assert moves_shown(browser) == [f"Ann: {first}"]
    assert browser.find_element(By.CSS_SELECTOR, f'#board [id="{first}"]').get_attribute("class")


@NEEDS_CHROMIUM
def test_a_colour_clicked_after_a_refused_klee_space_gives_the_spaces_reason(
    browser: Any, server: str
) -> None:
    from selenium.webdriver.common.by import By

    spec = "klee seed=5"
    engine = build_game(parse_transcript(header(spec, ["Ann", "Bob"])))
    state = engine.initial()
    typed = []
    while len(state.sequences[1]) < 4:
        move = next(iter(engine.legal_moves(state)))
        typed.append(engine.format_move(move))
        state = engine.apply(state, move)
    typed.append("e10 R")
    status = start(browser, server, "/record/klee?seed=5")
    box = browser.find_element(By.ID, "move")
    for number, text in enumerate(typed, start=1):
        box.send_keys(text + "\n")
        wait_for(browser, lambda d, n=number: len(moves_shown(d)) == n, f"move {number}")
    assert moves_shown(browser)[-1] == "Ann: e10 R"
    tap(browser, "space-1")
    message = browser.find_element(By.ID, "message")
    wait_for(browser, lambda d: "touches no coloured space" in message.text, "the space refused")
    tap(browser, "box-legend-red")
    wait_for(browser, lambda d: "Click another space first" in message.text, "the colour")
    assert message.text.startswith("a12 (space-1) touches no coloured space")
    assert "click the space first" not in message.text
    assert "Bob to move" in status.text


@NEEDS_CHROMIUM
def test_a_segment_coloured_on_a_two_rule_line_shows_down_its_channel(
    browser: Any, server: str
) -> None:
    """Miro's lines are printed as two rules with a white channel over them; a played segment's
    colour is drawn over the channel, as the pencil goes down it on paper, not hidden under it."""
    status = start(browser, server, "/record/miro?seed=1")
    tap(browser, "segment-5")
    wait_for(browser, lambda d: "Bob to move" in status.text, "the first segment")
    copies = browser.execute_script(
        """
        const svg = document.querySelector('#board svg');
        const channel = svg.querySelector('.channel');
        const played = svg.querySelector('[id="segment-5"]');
        return [...svg.querySelectorAll('.drawn')].map((copy) => ({
          over: Boolean(channel.compareDocumentPosition(copy) & Node.DOCUMENT_POSITION_FOLLOWING),
          same: copy.getAttribute('d') === played.getAttribute('d'),
          stroke: getComputedStyle(copy).stroke,
          width: parseFloat(getComputedStyle(copy).strokeWidth),
        }));
        """
    )
    assert len(copies) == 1
    copy = copies[0]
    assert copy["over"] and copy["same"]
    assert copy["stroke"] not in ("none", "rgb(255, 255, 255)", "rgb(0, 0, 0)")
    assert copy["width"] > 0.5
    shot(browser, f"recorder-{browser.size_name}-miro")
