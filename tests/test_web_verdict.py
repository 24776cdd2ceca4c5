"""The checker's verdict as a referee says it, on the page and in every message.

Every example in examples/ (legal games, an illegal game, Cubist installations) and, made from
each example game, an illegal move, a move that cannot be read and a move by the wrong player,
is checked on the page: what the page shows reads as sentences, naming the move by its player
and as it is written, with no place in the file (``line 18, column 6``) and no rule's code
(``[own-colour]``); those stay in the folded "Details", which hold the command line's lines.
After an illegal move the scores written on the sheet are not judged. No message the checkers
produce calls a player "his" or "her". A file the page does not take is named (a ZIP archive,
a Word document, a GIF image...) with what the page does take. And in a browser, as a phone and
as a laptop, the verdict of an illegal game is in view after the upload, its details folded,
and axe-core finds no serious problem on the page before and after.
"""

from __future__ import annotations

import ast
import dataclasses
import html
import io
import json
import re
import warnings
import zipfile
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from papergames.errors import PapergamesError
from papergames.games import find_judge
from papergames.play.checker import Verdict, check, check_text
from papergames.play.final import FinalVerdict, check_final
from papergames.play.game import build_game
from papergames.play.report import ordinal, referee
from papergames.play.rules import IllegalMove, MoveSyntaxError
from papergames.play.transcript import (
    FinalMark,
    Place,
    Transcript,
    format_transcript,
    parse_transcript,
)
from papergames.sheets.sheet import sheets_reused
from papergames.web.uploads import CHECK_TAKES, MAX_UPLOAD

from browsing import (
    NEEDS_CHROMIUM,
    SIZES,
    in_viewport,
    open_chromium,
    serious_problems,
    serve,
    shot,
    wait_for,
)

pytestmark = pytest.mark.usefixtures("sheets_built_once")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GENERATOR = ROOT / "generator"
LAYOUTS = ROOT / "layouts"

PLACE = re.compile(r"\bline \d+|\bcolumn \d+|\b(?:claims|moves|players)\[\d+\]")
"""A place in the transcript file, as the command line names it."""
GRID_CELL = re.compile(r"\brow \d+, column \d+")
"""A die's cell in a Cubist installation ("row 1, column 2"): the board's, not the file's."""
CODE = re.compile(r"\[[a-z]+(?:-[a-z]+)*\]")
"""A rule's code as the command line prints it: ``[own-colour]`` (a move's optional part in a
notation, ``[d4xf6]``, is no code)."""
GENDERED = re.compile(r"\b(?:his|her|hers|him|himself|herself|he|she)\b", re.IGNORECASE)


# The transcripts --------------------------------------------------------------------------


def example_paths() -> list[Path]:
    return sorted(p for p in EXAMPLES.iterdir() if p.suffix in (".txt", ".json"))


def replayable(text: str) -> Transcript | None:
    """The transcript of moves an example is, or ``None`` (an installation, a final state)."""
    if find_judge(text) is not None:
        return None
    transcript = parse_transcript(text)
    return None if transcript.is_final_state or not transcript.moves else transcript


@cache
def variants() -> dict[str, str]:
    """Bad games made from each example game, by name: at the middle of the game, a move the
    rules forbid (an earlier move played again, or another that the rules refuse), a move that
    cannot be read, and a move said to be made by the player whose turn it is not.

    Each is judged here, with its example, while their sheet is kept: the parametrized tests
    below ask for every verdict when the module is collected, which each test worker does, and
    building the example's sheet anew for each of its games cost most of that time."""
    made: dict[str, str] = {}
    with sheets_reused():
        for path in example_paths():
            text = path.read_text(encoding="utf-8")
            transcript = replayable(text)
            if transcript is None or not judged(text).ok:
                continue
            mine = _made_from(path.stem, transcript)
            for bad in mine.values():
                judged(bad)
            made.update(mine)
    return made


def _made_from(stem: str, transcript: Transcript) -> dict[str, str]:
    """The bad games made from one example game (see :func:`variants`)."""
    made: dict[str, str] = {}
    moves = transcript.moves
    middle = len(moves) // 2
    forbidden = _forbidden_move(transcript)
    if forbidden is not None:
        made[f"{stem}-bad-move"] = format_transcript(forbidden)
    made[f"{stem}-unreadable"] = format_transcript(
        with_move(transcript, middle, "zz9?", moves[middle].player)
    )
    names = [p.name for p in transcript.players]
    other = next((n for n in names if n != moves[middle].player), None)
    if moves[middle].player is not None and other is not None:
        made[f"{stem}-wrong-player"] = format_transcript(
            with_move(transcript, middle, moves[middle].text, other)
        )
    return made


def with_move(transcript: Transcript, k: int, text: str, player: str | None) -> Transcript:
    """The transcript with its move ``k`` written as ``text`` by ``player``."""
    moves = transcript.moves
    changed = dataclasses.replace(moves[k], text=text, player=player)
    return dataclasses.replace(transcript, moves=[*moves[:k], changed, *moves[k + 1 :]])


def _forbidden_move(transcript: Transcript) -> Transcript | None:
    """The transcript with one move, from the middle on, replaced by an earlier move's text
    that the rules forbid where it now stands."""
    moves = transcript.moves
    game = build_game(transcript)
    state = game.initial()
    for k, line in enumerate(moves):
        if k >= len(moves) // 2:
            for earlier in reversed(moves[max(0, k - 6) : k]):
                try:
                    game.apply(state, game.parse_move(earlier.text, state))
                except IllegalMove:
                    return with_move(transcript, k, earlier.text, line.player)
                except MoveSyntaxError:
                    continue
        state = game.apply(state, game.parse_move(line.text, state))
    return None


def all_uploads() -> list[tuple[str, str]]:
    found = [(p.name, p.read_text(encoding="utf-8")) for p in example_paths()]
    return found + [(f"{name}.txt", text) for name, text in sorted(variants().items())]


@cache
def judged(text: str) -> Any:
    return check_text(text, "game.txt")


def test_the_examples_hold_legal_and_illegal_games_and_every_bad_variant_is_bad() -> None:
    verdicts = [judged(p.read_text(encoding="utf-8")) for p in example_paths()]
    assert any(v.ok for v in verdicts) and not all(v.ok for v in verdicts)
    assert any(isinstance(v, Verdict) and v.illegal is not None for v in verdicts)
    games = [
        p.stem
        for p in example_paths()
        if replayable(p.read_text(encoding="utf-8")) and judged(p.read_text(encoding="utf-8")).ok
    ]
    made = variants()
    assert sum(name.endswith("-bad-move") for name in made) >= len(games) - 3, (games, made.keys())
    for name, text in made.items():
        verdict = judged(text)
        assert isinstance(verdict, Verdict) and verdict.illegal is not None, name
        if name.endswith("-unreadable"):
            assert verdict.illegal.code == "syntax", (name, verdict.illegal)
        elif name.endswith("-wrong-player"):
            assert verdict.illegal.code == "wrong-player", (name, verdict.illegal)
        else:
            assert verdict.illegal.code not in ("syntax", "wrong-player"), (name, verdict.illegal)


# The page ---------------------------------------------------------------------------------


class VerdictText(HTMLParser):
    """The text of the page's verdict, split into what is shown and what the details hold."""

    VOID = frozenset({"br", "img", "input", "hr", "meta", "link", "wbr", "source"})

    def __init__(self, section: str = "verdict") -> None:
        super().__init__()
        self.section = section
        self.depth = 0
        self.in_details = 0
        self.shown: list[str] = []
        self.details: list[str] = []
        self.pre: list[str] = []
        self.in_pre = 0
        self.details_tags: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            if dict(attrs).get("id") == self.section:
                self.depth = 1
            return
        if tag in self.VOID:
            return
        self.depth += 1
        if tag == "details":
            self.in_details += 1
            self.details_tags.append(dict(attrs))
        if tag == "pre" and self.in_details:
            self.in_pre += 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth == 0 or tag in self.VOID:
            return
        self.depth -= 1
        if tag == "details":
            self.in_details -= 1
        if tag == "pre" and self.in_pre:
            self.in_pre -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            (self.details if self.in_details else self.shown).append(data)
        if self.in_pre:
            self.pre.append(data)


def verdict_of(page: str, section: str = "verdict") -> VerdictText:
    parsed = VerdictText(section)
    parsed.feed(page)
    assert parsed.shown, f"no #{section} on the page"
    return parsed


def shown_text(parsed: VerdictText) -> str:
    return " ".join(" ".join(parsed.shown).split())


def details_text(parsed: VerdictText) -> str:
    return "".join(parsed.details)


@pytest.fixture(scope="module")
def pages(client: TestClient) -> dict[str, str]:
    """Every upload's page, posted once."""
    out = {}
    for name, text in all_uploads():
        response = client.post("/check", files={"transcript": (name, text.encode(), "text/plain")})
        assert response.status_code == 200, (name, response.text[-500:])
        out[name] = response.text
    return out


@pytest.mark.parametrize(("name", "text"), all_uploads(), ids=[n for n, _ in all_uploads()])
def test_the_verdict_reads_as_sentences_and_keeps_the_codes_in_its_details(
    pages: dict[str, str], name: str, text: str
) -> None:
    parsed = verdict_of(pages[name])
    shown = shown_text(parsed)
    details = details_text(parsed)
    outside = GRID_CELL.sub("", shown)
    assert not PLACE.search(outside), shown
    assert not CODE.search(shown), shown
    for code in _codes(judged(text)):
        assert f"[{code}]" not in shown
    assert parsed.details_tags and all("open" not in t for t in parsed.details_tags)
    assert "Details" in details
    result = judged(text)
    assert "".join(parsed.pre).splitlines() == result.lines()
    codes = _codes(result)
    for code in codes:
        assert f"[{code}]" in details, (code, details)
    if isinstance(result, Verdict):
        places = [c.place for c in result.claims]
        places += [result.illegal.place] if result.illegal is not None else []
        for place in places:
            assert str(place) in details


def _codes(result: Any) -> list[str]:
    if isinstance(result, Verdict):
        return [result.illegal.code] if result.illegal is not None else []
    if isinstance(result, FinalVerdict):
        return [b.code for b in result.breaches]
    return [p["code"] for p in result.to_json().get("problems", [])]


@pytest.mark.parametrize(
    ("name", "text"),
    [u for u in all_uploads() if isinstance(judged(u[1]), Verdict) and judged(u[1]).illegal],
    ids=[n for n, t in all_uploads() if isinstance(judged(t), Verdict) and judged(t).illegal],
)
def test_an_illegal_move_is_named_by_its_player_and_as_written_and_nothing_after_it_judged(
    pages: dict[str, str], name: str, text: str
) -> None:
    verdict = judged(text)
    problem = verdict.illegal
    shown = shown_text(verdict_of(pages[name]))
    own = 1 + sum(step.player == problem.player for step in verdict.steps)
    assert f"{problem.player}'s {ordinal(own)} move, “{problem.move}”," in shown, shown
    assert " ".join(problem.reason.split()) in shown
    assert "checked only up to that move" in shown
    for words in ("is wrong", "true value", "but it is"):
        assert words not in shown
    assert "verdict bad" in pages[name]


def test_the_scores_written_are_judged_only_when_the_game_is_legal(client: TestClient) -> None:
    text = (EXAMPLES / "cocomposite.txt").read_text(encoding="utf-8")
    wrong = text.replace("claim: Bob score 2", "claim: Bob score 5")
    page = client.post("/check", files={"transcript": ("g.txt", wrong.encode())}).text
    shown = shown_text(verdict_of(page))
    assert "Bob's score is written as 5, but it is 2." in shown
    assert "Ann's score 0" in shown and "verdict bad" in page
    assert "something written on the sheet is wrong" in shown


def test_the_command_line_keeps_its_places_and_codes_and_judges_no_claim_after_an_illegal_move(
    tmp_path: Path,
) -> None:
    from papergames.cli import app

    path = EXAMPLES / "mondrian-illegal.txt"
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    out = result.stdout
    assert "ILLEGAL: move 9 at line 18, column 6 (Ann: J)" in out and "[own-colour]" in out
    assert "is wrong" not in out
    assert "claim at line 6, column 8: Ann score 24 not checked" in out
    assert "scores before move 9: Ann 2, Bob 5, Cy 7, Di 6" in out


def test_the_file_input_has_a_label_and_the_help_says_what_is_taken(client: TestClient) -> None:
    page = client.get("/check").text
    assert re.search(r'<label for="transcript">[^<]+</label>', page)
    assert 'id="transcript"' in page and 'href="/static/check.css"' in page
    assert client.get("/static/check.css").status_code == 200


# "Their", never "his" or "her" ------------------------------------------------------------


def probe(transcript: Transcript) -> Iterator[str]:
    """Messages the rules give along a game: at a few points, what every move of the game
    (and some nonsense) is refused with, what the referee says of the position, and what the
    finished-sheet check makes of the sheet there (unfinished, or complete)."""
    game = build_game(transcript)
    texts = [*list(dict.fromkeys(m.text for m in transcript.moves))[:40], "zz9?", "", "pass"]
    state = game.initial()
    stops = {0, len(transcript.moves) // 3, len(transcript.moves) // 2, len(transcript.moves)}
    for k in range(len(transcript.moves) + 1):
        if k in stops:
            for text in texts:
                try:
                    game.apply(state, game.parse_move(text, state))
                except PapergamesError as exc:
                    yield str(exc)
            yield from game.describe(state)
            marks = game.final_marks(state)
            if marks is not None:
                yield from _final_messages(transcript, marks)
        if k < len(transcript.moves):
            state = game.apply(state, game.parse_move(transcript.moves[k].text, state))


def _final_messages(transcript: Transcript, marks: dict[tuple[int, str], str]) -> Iterator[str]:
    """What the finished-sheet check says of a position, and of it with the colours of the
    first half of its items swapped round (so that rules are broken)."""
    marked = [FinalMark(item, colour, Place(), page) for (page, item), colour in marks.items()]
    half = len(marked) // 2
    colours = [m.colour for m in marked[:half]]
    swapped = [
        dataclasses.replace(m, colour=colours[(k + 1) % len(colours)])
        for k, m in enumerate(marked[:half])
    ]
    for final in (marked, swapped + marked[half:]):
        position = dataclasses.replace(transcript, moves=[], final=final, final_given=True)
        try:
            verdict = check_final(position)
        except PapergamesError as exc:
            yield str(exc)
            continue
        yield from verdict.lines()
        yield referee(verdict).text()


def strings_of(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings_of(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_of(item)


def every_message() -> Iterator[tuple[str, str]]:
    """(where, message) for everything the checkers say of the examples and their variants."""
    for name, text in all_uploads():
        result = judged(text)
        lines = result.lines(verbose=True) if isinstance(result, Verdict) else result.lines()
        for line in [*result.lines(), *lines, referee(result).text()]:
            yield name, line
        for value in strings_of(result.to_json()):
            yield name, value
    for path in example_paths():
        text = path.read_text(encoding="utf-8")
        transcript = replayable(text)
        if transcript is not None and judged(text).ok:
            for message in probe(transcript):
                yield path.name, message
            half = dataclasses.replace(transcript, moves=transcript.moves[:3])
            verdict = check(half)
            for line in [*verdict.lines(), referee(verdict).text()]:
                yield f"{path.name} cut short", line


def test_no_message_of_the_checkers_calls_a_player_his_or_her() -> None:
    said = list(every_message())
    assert len(said) > 2000
    found = sorted({f"{where}: {m}" for where, m in said if GENDERED.search(m)})
    assert not found, "\n".join(found[:20])


def string_constants(path: Path) -> Iterator[tuple[int, str]]:
    """The strings in a module that are not docstrings: its messages and printed texts."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.lineno, node.value


def test_no_message_or_rules_text_in_the_code_says_his_or_her() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {match.group()!r} in {text[:60]!r}"
        for folder in (GENERATOR, LAYOUTS)
        for path in sorted(folder.rglob("*.py"))
        for line, text in string_constants(path)
        if (match := GENDERED.search(text))
    ]
    assert not found, "\n".join(found)


# Files the page does not check ------------------------------------------------------------


def zipped(*names: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in names:
            archive.writestr(name, "sheet: maze seed=1\n")
    return out.getvalue()


def gif() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (60, 40), "white").save(out, format="GIF")
    return out.getvalue()


OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)
NOISE = bytes((n * 7919 + 13) % 256 for n in range(3000))


@pytest.mark.parametrize(
    ("name", "data", "status", "words"),
    [
        ("class.zip", zipped("a.txt", "b.txt"), 400, "class.zip is a ZIP archive"),
        ("game.docx", zipped("[Content_Types].xml", "word/document.xml"), 400, "a Word document"),
        ("game.odt", zipped("mimetype"), 400, "a ZIP archive"),
        ("game.doc", OLE + "WordDocument".encode("utf-16-le"), 400, "a Word document (.doc)"),
        ("game.xls", OLE, 400, "an old Microsoft Office document"),
        ("game.bin", NOISE, 400, "game.bin is not text, nor a picture or a PDF"),
        ("game.gz", b"\x1f\x8b\x08\x00" + NOISE, 400, "a gzip archive"),
        ("song.mp3", b"ID3\x04\x00\x00" + NOISE, 400, "an MP3 sound file"),
        ("page.html", b"<!DOCTYPE html><html><body>x</body></html>", 400, "a web page (HTML)"),
        ("big.zip", zipped("a.txt") + NOISE * 100, 400, "big.zip is a ZIP archive"),
        ("big.bin", NOISE * 100, 400, "big.bin is not text"),
    ],
)
def test_a_file_of_another_kind_is_named_with_what_the_page_takes(
    client: TestClient, name: str, data: bytes, status: int, words: str
) -> None:
    response = client.post("/check", files={"transcript": (name, data)})
    assert response.status_code == status
    message = message_of(response.text)
    assert words in message
    assert CHECK_TAKES in message or "plain text (.txt)" in message
    assert "UTF-8 expected" not in message and "too large" not in message


def message_of(page: str) -> str:
    found = re.search(r'id="message"[^>]*>(.*?)</p>', page, re.S)
    assert found, page[-800:]
    return html.unescape(found.group(1))


def test_a_word_document_is_told_to_be_saved_as_plain_text(client: TestClient) -> None:
    data = zipped("[Content_Types].xml", "word/document.xml")
    message = message_of(client.post("/check", files={"transcript": ("g.docx", data)}).text)
    assert message.startswith("g.docx is a Word document (.docx), which papergames does not read")
    assert "save the transcript in it as plain text (.txt)" in message


def test_a_gif_goes_to_the_photo_reader_and_is_named_when_it_cannot_be_read(
    client: TestClient,
) -> None:
    damaged = client.post("/check", files={"transcript": ("a.gif", b"GIF89a" + NOISE[:40])})
    assert damaged.status_code == 400
    assert "a.gif: a damaged GIF image" in message_of(damaged.text)
    blank = client.post("/check", files={"transcript": ("blank.gif", gif())})
    assert blank.status_code in (200, 400)
    if blank.status_code == 200:
        said = shown_text(verdict_of(blank.text, "photo-result"))
        assert "blank.gif: 1 sheet read" in said and "retake" in said
    else:
        assert "blank.gif" in message_of(blank.text)


def test_text_that_is_not_utf8_is_told_to_be_saved_as_utf8(client: TestClient) -> None:
    latin = "sheet: maze seed=1\nplayers: Zoé, Léa\n".encode("latin-1")
    message = message_of(client.post("/check", files={"transcript": ("g.txt", latin)}).text)
    assert message.startswith("g.txt is text, but not in UTF-8") and "save it as UTF-8" in message
    wide = "sheet: maze seed=1\n".encode("utf-16")
    message = message_of(client.post("/check", files={"transcript": ("w.txt", wide)}).text)
    assert "w.txt is not text in UTF-8 but in UTF-16" in message


def test_an_oversized_text_is_named_with_its_size_and_the_limit(client: TestClient) -> None:
    data = b"# a long comment\n" * (300 * 1024 // 17)
    response = client.post("/check", files={"transcript": ("long.txt", data)})
    assert response.status_code == 413
    message = message_of(response.text)
    kb = len(data) // 1024
    assert message == (
        f"long.txt is a text file of {kb} KB, too large for a transcript: the checker takes "
        f"text files of at most {MAX_UPLOAD // 1024} KB"
    )


def test_the_recorders_load_names_a_file_and_asks_for_a_transcript(client: TestClient) -> None:
    response = client.post("/record", files={"transcript": ("class.zip", zipped("a.txt"))})
    assert response.status_code == 400
    message = message_of(response.text)
    assert "is a ZIP archive" in message and "a transcript (.txt or .json)" in message
    assert "photo" not in message


# In a browser ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serve() as address:
        yield address


@NEEDS_CHROMIUM
@pytest.mark.parametrize("size", list(SIZES))
def test_the_verdict_of_an_illegal_game_is_in_view_with_its_details_folded(
    server: str, size: str
) -> None:
    from selenium.webdriver.common.by import By

    example = EXAMPLES / "mondrian-illegal.txt"
    with open_chromium(size) as browser:
        browser.get(server + "/check")
        label = browser.find_element(By.CSS_SELECTOR, "label[for=transcript]")
        assert label.text and label.is_displayed()
        assert serious_problems(browser) == []
        shot(browser, f"check-form-{size}")
        browser.find_element(By.ID, "transcript").send_keys(str(example))
        browser.find_element(By.ID, "check").click()
        verdict = wait_for(browser, lambda d: d.find_element(By.ID, "verdict"), "the verdict")
        wait_for(browser, lambda d: in_viewport(d, verdict), "the verdict in view")
        heading = verdict.find_element(By.TAG_NAME, "h2")
        assert heading.text == "mondrian-illegal.txt: an illegal move"
        assert "Ann's 3rd move, “J”, breaks the rules" in verdict.text
        assert browser.switch_to.active_element == verdict
        details = verdict.find_element(By.TAG_NAME, "details")
        assert details.get_attribute("open") is None
        code = verdict.find_element(By.TAG_NAME, "pre")
        assert not code.is_displayed() and "[own-colour]" not in verdict.text
        assert "line 18" not in verdict.text
        shot(browser, f"check-verdict-{size}")
        assert serious_problems(browser) == []
        details.find_element(By.TAG_NAME, "summary").click()
        wait_for(browser, lambda d: code.is_displayed(), "the details")
        assert "[own-colour]" in code.text and "line 18, column 6" in code.text
        assert serious_problems(browser) == []
        browser.execute_script("arguments[0].scrollIntoView()", details)
        shot(browser, f"check-details-{size}")


@NEEDS_CHROMIUM
def test_a_file_of_another_kind_is_refused_in_view_on_a_phone(server: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    archive = tmp_path / "class.zip"
    archive.write_bytes(zipped("a.txt"))
    with open_chromium("phone") as browser:
        browser.get(server + "/check")
        browser.find_element(By.ID, "transcript").send_keys(str(archive))
        browser.find_element(By.ID, "check").click()
        message = wait_for(browser, lambda d: d.find_element(By.ID, "message"), "the message")
        assert "class.zip is a ZIP archive" in message.text
        assert in_viewport(browser, message)
        assert serious_problems(browser) == []
        shot(browser, "check-refused-zip-phone")


def test_the_verdicts_json_is_unchanged_by_the_telling() -> None:
    text = (EXAMPLES / "mondrian-illegal.txt").read_text(encoding="utf-8")
    data = judged(text).to_json()
    assert data["illegal"]["code"] == "own-colour" and data["illegal"]["line"] == 18
    assert [c["holds"] for c in data["claims"]] == [False, True, True, True]
    json.dumps(data)
