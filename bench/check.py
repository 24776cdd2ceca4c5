"""Time the checker: a complete game of each kind, and random playouts per second.

Run: ``.venv/bin/python bench/check.py [--runs N]``. For every game with a rules engine, a
complete random game is written as a transcript; the first figure is the median time to parse
and check that transcript (the sheet is made once beforehand, as the figure is about the rules),
the second the median with the sheet made from its spec as ``papergames check`` does, and the
third how many complete random games per second the engine plays. Target: every complete
transcript checked in under 100 ms.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable
from typing import Any

from papergames.games import get_rules, rules_games
from papergames.play.checker import check
from papergames.play.rules import Player
from papergames.play.transcript import MoveLine, Place, Transcript, format_transcript, parse_text
from papergames.sheets.rng import Rng
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec


def median_ms(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def play(game: Any, seed: int) -> list[Any]:
    rng = Rng(seed, "bench")
    state, moves = game.initial(), []
    while not game.is_over(state):
        move = game.random_move(state, rng)
        moves.append(move)
        state = game.apply(state, move)
    return moves


def transcript_text(game: Any, moves: list[Any]) -> str:
    state, lines = game.initial(), []
    for move in moves:
        lines.append(
            MoveLine(game.format_move(move), Place(), game.players[game.to_move(state)].name)
        )
        state = game.apply(state, move)
    return format_transcript(Transcript(game.sheet.spec, list(game.players), {}, lines))


def check_with_rules(text: str, rules: Any, sheet: Any, players: Any) -> None:
    check(parse_text(text), rules(sheet, players, {}))


def check_text(text: str) -> None:
    check(parse_text(text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="runs per figure (median taken)")
    args = parser.parse_args()
    print(f"papergames check timings, median of {args.runs} runs")
    print()
    print("| game | sheet | moves | check (ms) | check with sheet (ms) | playouts / s |")
    print("|---|---|---:|---:|---:|---:|")
    for name in rules_games():
        spec = SheetSpec.create(name, seed=1)
        rules = get_rules(name)
        game = rules(make_sheet(spec), [Player("Ann"), Player("Bob")], {})
        moves = play(game, 1)
        text = transcript_text(game, moves)
        warm = check(parse_text(text), game)
        assert warm.legal, warm.illegal
        with_rules = median_ms(
            functools.partial(check_with_rules, text, rules, game.sheet, game.players), args.runs
        )
        full = median_ms(functools.partial(check_text, text), args.runs)
        start, games = time.perf_counter(), 0
        while time.perf_counter() - start < 1.0:
            play(rules(game.sheet, game.players, {}), games)
            games += 1
        rate = games / (time.perf_counter() - start)
        print(f"| {name} | `{spec}` | {len(moves)} | {with_rules:.1f} | {full:.0f} | {rate:.0f} |")


if __name__ == "__main__":
    main()
