"""The rules pages players read: plain sentences, no command-line words, a worked example.

Every game's rules text must read like a handout (short sentences, no ``key=value``, options or
program names), and every worked example must replay legally through the game's engine with
the scores its text claims, and be drawn on its rules page.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from papergames.games import GAMES, game_names, get_layout
from papergames.handouts.rulespage import rules_page
from papergames.play.example import Example, ExampleError, get_example, paragraphs, replay
from papergames.sheets.model import Feature, Layer, Text
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

LONGEST_SENTENCE = 30
"""Most words in one sentence of a rules text: a ten-year-old reads it in one go."""
MIN_TEXT_MM = 7 * 25.4 / 72
"""7 pt in mm: nothing a player must read on a handout is smaller."""
_COMMAND_WORDS = re.compile(r"\w=\w|--\w|\bpapergames\b|\btranscripts?\b", re.IGNORECASE)
EXAMPLE_GAMES = [name for name in game_names() if get_example(name) is not None]


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", " ".join(text.split())) if s]


def _handout_text(game: str) -> str:
    """The rules text and the example's text, with the game's own title taken out."""
    text = " ".join([get_layout(game).how_to_play, *paragraphs(game)])
    for other in GAMES.values():  # titles such as Pick Tw=O=ne are names, not options
        text = text.replace(other.title, "the game")
    return text


@pytest.mark.parametrize("game", game_names())
def test_rules_text_has_short_sentences_and_no_command_line_words(game: str) -> None:
    text = _handout_text(game)
    for sentence in _sentences(text):
        assert len(sentence.split()) <= LONGEST_SENTENCE, sentence
    found = _COMMAND_WORDS.findall(text)
    assert not found, f"{game}: command-line words on a handout: {found}"


def test_every_game_played_on_its_sheet_has_a_worked_example() -> None:
    for name, game in GAMES.items():
        page = make_sheet(SheetSpec.create(name, seed=1)).pages[0]
        played_on = any(f.layer == Layer.FIELD for f in page.features())
        if game.has_rules and played_on:  # not a score pad, nor a board without rules
            assert name in EXAMPLE_GAMES, f"{name} has moves on its sheet but no example"


@pytest.mark.parametrize("game", EXAMPLE_GAMES)
def test_example_replays_through_the_engine_with_the_scores_its_text_claims(game: str) -> None:
    example = get_example(game)
    assert example is not None
    shown = replay(example)
    assert shown.claimed, "the example claims the scores it speaks of"
    assert shown.scores == shown.claimed
    moves = [ln for ln in example.transcript.splitlines() if re.match(r"^\w+: ", ln)]
    moves = [ln for ln in moves if ln.split(":")[0] not in ("sheet", "players", "claim")]
    drawn = {mark.move for mark in shown.marks}
    assert drawn, "the example's moves are drawn on the sheet"
    assert drawn <= set(range(1, len(moves) + 1)), "each mark belongs to a move"
    numbers = {int(n) for n in re.findall(r"\b\d+\b", example.text)}
    for player, score in shown.claimed.items():
        if int(score):
            assert int(score) in numbers, f"the text says {player}'s {score} points"


@pytest.mark.parametrize("game", EXAMPLE_GAMES[:3])
def test_a_wrong_example_fails_loudly(game: str) -> None:
    example = get_example(game)
    assert example is not None
    lines = example.transcript.splitlines()
    claim = next(k for k, ln in enumerate(lines) if ln.startswith("claim:"))
    words = lines[claim].split()
    lines[claim] = " ".join([*words[:-1], str(int(words[-1]) + 7)])
    with pytest.raises(ExampleError, match="claim"):
        replay(dataclasses.replace(example, transcript="\n".join(lines)))
    moves = [k for k, ln in enumerate(example.transcript.splitlines()) if ln.startswith("Ann:")]
    twice = example.transcript.splitlines()
    twice.insert(moves[0] + 1, twice[moves[0]].replace("Ann:", "Bob:"))
    with pytest.raises(ExampleError, match="move 2"):
        replay(Example("\n".join(twice), example.text, ()))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", EXAMPLE_GAMES)
def test_rules_page_draws_the_example_legibly_inside_the_margins(game: str, paper: str) -> None:
    page = rules_page(game, paper)
    marks = [f for f in page.features() if f.id.startswith("example-")]
    numbers = [t for t in page.texts() if t.id.startswith("example-number-")]
    assert marks and numbers, "the example's moves and their order are drawn"
    words = " ".join(t.text for t in page.texts() if t.id.startswith("rules-"))
    assert "Example:" in words
    diagram = [f for f in page.features() if f.id.startswith(("diagram-", "example-sheet-"))]
    left = min(f.geometry.bounds[0] for f in diagram)
    right = max(f.geometry.bounds[2] for f in diagram)
    for item in marks:
        assert isinstance(item, Feature)
        x0, _, x1, _ = item.geometry.bounds
        assert left - 1.0 <= x0 and x1 <= right + 1.0, f"{item.id} lies on the diagram"
    for text in page.texts():
        assert isinstance(text, Text)
        assert text.size >= MIN_TEXT_MM - 1e-9, f"{text.id} is {text.size} mm"


@pytest.mark.parametrize("game", ["klee", "vasarely", "cocomposite"])
def test_a_page_for_another_sheet_names_it_and_still_draws_the_example(game: str) -> None:
    other = make_sheet(SheetSpec.create(game, seed=99))
    page = rules_page(game, "a4", sheet=other)
    captions = {t.id: t.text for t in page.texts() if t.id.endswith("caption")}
    assert f"the sheet {other.spec}," in captions["diagram-caption"], "the page's own sheet"
    marks = [f for f in page.features() if f.id.startswith("example-") and "sheet" not in f.id]
    assert marks, "the worked example is drawn"
    example = get_example(game)
    assert example is not None
    if "example-sheet-caption" in captions:  # the example's own sheet, beside the page's
        assert str(replay(example).sheet.spec) in captions["example-sheet-caption"]
