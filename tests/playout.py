"""Random legal games for the rules tests: play, write the transcript, read it back, check it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from papergames.games import get_rules
from papergames.play.checker import Verdict, check
from papergames.play.rules import IllegalMove, Player, Rules
from papergames.play.transcript import MoveLine, Place, Transcript, format_transcript, parse_text
from papergames.sheets.rng import Rng
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay")


def new_game(spec_text: str, players: int = 2, **options: str) -> Rules[Any, Any]:
    """The rules of the game ``spec_text`` names, for ``players`` players."""
    spec = SheetSpec.parse(spec_text)
    rules = get_rules(spec.game)
    return rules(
        make_sheet(spec), [Player(n) for n in NAMES[:players]], rules.parse_options(options)
    )


def random_moves(game: Rules[Any, Any], seed: int, most: int) -> Iterator[tuple[Any, Any, Any]]:
    """Up to ``most`` random legal moves from the start, until the game is over: each with the
    state it is played in and the state it leads to."""
    rng = Rng(seed, "playout", game.game)
    state = game.initial()
    for _ in range(most):
        if game.is_over(state):
            return
        move = game.random_move(state, rng)
        after = game.apply(state, move)
        yield state, move, after
        state = after


def random_game(game: Rules[Any, Any], seed: int, limit: int = 10_000) -> tuple[Any, list[Any]]:
    """Play random legal moves until the game is over; return the final state and the moves."""
    played = list(random_moves(game, seed, limit))
    state = played[-1][2] if played else game.initial()
    assert game.is_over(state), "the game did not end"
    return state, [move for _, move, _ in played]


def transcript_of(game: Rules[Any, Any], moves: list[Any]) -> Transcript:
    """The transcript of a game: every move named by its player, scores claimed at the end."""
    state = game.initial()
    lines = []
    for move in moves:
        mover = game.to_move(state)
        assert mover is not None
        lines.append(MoveLine(game.format_move(move), Place(), game.players[mover].name))
        state = game.apply(state, move)
    options = game.options.non_default(game.option_values)
    return Transcript(game.sheet.spec, list(game.players), options, lines)


def replay(game: Rules[Any, Any], moves: list[Any]) -> Verdict:
    """Write the game as transcript text, read it back and check it."""
    text = format_transcript(transcript_of(game, moves))
    return check(parse_text(text), game)


def play(game: Rules[Any, Any], *moves: str, state: Any = None) -> Any:
    """The state after ``moves``, written in the game's notation, from ``state`` (or the start)."""
    state = game.initial() if state is None else state
    for text in moves:
        state = game.apply(state, game.parse_move(text, state))
    return state


def refused(game: Rules[Any, Any], state: Any, text: str) -> str:
    """The reason code the rules give for refusing the move ``text`` in ``state``."""
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move(text, state))
    return info.value.code


def finished_arp_games(count: int, salt: str) -> list[tuple[tuple[Any, ...], dict[str, str]]]:
    """Random legal Arp games on seeds 1..``count``, played to the end (2 to 4 players): each
    sheet's items as the photo reader reads them, and the colour word each one carries."""
    from papergames.photo.items import read_items

    rules_class = get_rules("arp")
    games = []
    for seed in range(1, count + 1):
        sheet = make_sheet(SheetSpec.create("arp", seed=seed))
        players = [Player(f"Player{k + 1}") for k in range(2 + seed % 3)]
        rules = rules_class(sheet, players, rules_class.parse_options({}))
        state, random = rules.initial(), Rng(seed, salt, "arp")
        while not rules.is_over(state):
            state = rules.apply(state, rules.random_move(state, random))
        marks = rules.final_marks(state)
        assert marks is not None
        colours = {item: word for (_, item), word in marks.items()}
        games.append((read_items(sheet.page, "arp"), colours))
    return games
