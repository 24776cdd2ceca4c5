"""The Palindromic Card Game's rules engine: two rows of cards, then the palindromes found."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.layouts.palindromes.params import PARAMS, PLAYERS, PalindromesParams
from papergames.play.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.sheets.model import Sheet
from papergames.sheets.rng import Rng


def distinct_palindromes(row: str) -> list[str]:
    """Every distinct palindrome in a row of ``R``/``B`` cards, shortest first.

    A palindrome is a run of consecutive cards that starts and ends with a red card and reads
    the same both ways.

    Example:
        >>> distinct_palindromes("RBBRRBBBRBBR")
        ['R', 'RR', 'RBBR', 'RBBBR']
    """
    found = {
        row[i:j]
        for i in range(len(row))
        if row[i] == "R"
        for j in range(i + 1, len(row) + 1)
        if row[j - 1] == "R" and row[i:j] == row[i:j][::-1]
    }
    return sorted(found, key=lambda p: (len(p), p))


@dataclass(frozen=True)
class CardMove:
    """A player's row of cards (``kind="row"``) or the palindromes they found (``"found"``)."""

    kind: str
    cards: str = ""
    found: tuple[str, ...] = ()


@dataclass(frozen=True)
class PalindromesState:
    """The rows laid out so far and the palindromes each player found in the other's row."""

    rows: tuple[str, ...] = ()
    found: tuple[tuple[str, ...], ...] = ()


_RUN = re.compile(r"(\d+)\s*-\s*(\d+)$")


class PalindromesRules(Rules[PalindromesState, CardMove]):
    """The Palindromic Card Game as four moves: both rows, then both lists of finds.

    Notation: a row is its cards as ``R`` and ``B`` (spaces allowed: ``RBBR RBBB``); finds are
    ``found`` and then each palindrome as its cards (``RBBR``) or as the positions of its first
    and last card in the opponent's row (``4-7``), or ``found none``.
    """

    game = "palindromes"
    notation = "a row as R and B letters; then 'found RBR 4-7 ...' or 'found none'"

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        self.cards = PARAMS.read(PalindromesParams, sheet.spec.params).cards

    def initial(self) -> PalindromesState:
        return PalindromesState()

    def to_move(self, state: PalindromesState) -> int | None:
        if len(state.rows) < PLAYERS:
            return len(state.rows)
        if len(state.found) < PLAYERS:
            return len(state.found)
        return None

    def _reds_left(self, state: PalindromesState) -> int:
        return self.cards - sum(row.count("R") for row in state.rows)

    def legal_moves(self, state: PalindromesState) -> Iterator[CardMove]:
        mover = self.to_move(state)
        if mover is None:
            return
        if len(state.rows) < PLAYERS:
            if mover == 0:
                for cards in itertools.product("RB", repeat=self.cards):
                    yield CardMove("row", "".join(cards))
                return
            reds = self._reds_left(state)
            for spots in itertools.combinations(range(self.cards), reds):
                chosen = set(spots)
                yield CardMove(
                    "row", "".join("R" if k in chosen else "B" for k in range(self.cards))
                )
            return
        pool = distinct_palindromes(state.rows[1 - mover])
        for size in range(len(pool), -1, -1):
            for picked in itertools.combinations(pool, size):
                yield CardMove("found", found=picked)

    def random_move(self, state: PalindromesState, rng: Rng) -> CardMove:
        mover = self.to_move(state)
        if mover is None:
            raise IllegalMove("game-over", "the game is over")
        if len(state.rows) < PLAYERS:
            if mover == 0:
                deck = ["R"] * self.cards + ["B"] * self.cards
                rng.shuffle(deck)
                return CardMove("row", "".join(deck[: self.cards]))
            reds = self._reds_left(state)
            hand = ["R"] * reds + ["B"] * (self.cards - reds)
            rng.shuffle(hand)
            return CardMove("row", "".join(hand))
        pool = distinct_palindromes(state.rows[1 - mover])
        return CardMove("found", found=tuple(p for p in pool if rng.random() < 0.8))

    def apply(self, state: PalindromesState, move: CardMove) -> PalindromesState:
        mover = self.to_move(state)
        if mover is None:
            raise IllegalMove("game-over", "the game is over: both rows are scored")
        name = self.players[mover].name
        if len(state.rows) < PLAYERS:
            if move.kind != "row":
                raise IllegalMove("row-first", f"{name} must lay out a row of cards first")
            if len(move.cards) != self.cards or set(move.cards) - {"R", "B"}:
                raise IllegalMove(
                    "row-length",
                    f"a row holds {self.cards} cards, R or B; this one holds {len(move.cards)}",
                )
            reds = move.cards.count("R")
            if mover == 1 and reds != self._reds_left(state):
                raise IllegalMove(
                    "deck",
                    f"the deck holds {self.cards} red cards and the first row has "
                    f"{self.cards - self._reds_left(state)}, so this row must have "
                    f"{self._reds_left(state)} red cards, not {reds}",
                )
            return PalindromesState((*state.rows, move.cards), state.found)
        if move.kind != "found":
            raise IllegalMove("rows-done", "both rows are laid out: now list the palindromes found")
        row = state.rows[1 - mover]
        seen: set[str] = set()
        for pattern in move.found:
            if pattern in seen:
                raise IllegalMove(
                    "repeated", f"{pattern} is listed twice: each pattern counts only once"
                )
            seen.add(pattern)
            if pattern[0] != "R" or pattern[-1] != "R":
                raise IllegalMove("black-end", f"{pattern} does not start and end with red")
            if pattern != pattern[::-1]:
                raise IllegalMove("not-palindrome", f"{pattern} does not read the same both ways")
            if pattern not in row:
                raise IllegalMove(
                    "not-in-row",
                    f"{pattern} does not occur in {self.players[1 - mover].name}'s row",
                )
        return PalindromesState(state.rows, (*state.found, move.found))

    def parse_move(self, text: str, state: PalindromesState) -> CardMove:
        words = text.split()
        if words and words[0].lower() == "found":
            if len(words) == 2 and words[1].lower() == "none":
                return CardMove("found")
            found: list[str] = []
            mover = self.to_move(state)
            row = state.rows[1 - mover] if mover is not None and len(state.rows) == PLAYERS else ""
            column = len(words[0]) + 2
            for word in words[1:]:
                run = _RUN.match(word)
                if run:
                    first, last = int(run.group(1)), int(run.group(2))
                    if not row:
                        raise MoveSyntaxError("positions need both rows laid out first", column)
                    if not 1 <= first <= last <= len(row):
                        raise MoveSyntaxError(
                            f"{word} is not a run of cards 1 to {len(row)} (first-last)", column
                        )
                    found.append(row[first - 1 : last])
                elif set(word.upper()) <= {"R", "B"}:
                    found.append(word.upper())
                else:
                    raise MoveSyntaxError(
                        f"'{word}' is neither a pattern of R and B nor positions like 4-7", column
                    )
                column += len(word) + 1
            if not found:
                raise MoveSyntaxError("write the palindromes found, or 'found none'")
            return CardMove("found", found=tuple(found))
        cards = "".join(words).upper()
        bad = next((k for k, c in enumerate(text) if c.upper() not in "RB "), None)
        if bad is not None or not cards:
            raise MoveSyntaxError(
                "a row is written with R (red) and B (black) only", (bad or 0) + 1
            )
        return CardMove("row", cards)

    def format_move(self, move: CardMove) -> str:
        if move.kind == "row":
            return move.cards
        return "found " + (" ".join(move.found) if move.found else "none")

    def _found_in(self, state: PalindromesState, player: int) -> int:
        """How many distinct palindromes the opponent found in ``player``'s row."""
        finder = 1 - player
        return len(state.found[finder]) if finder < len(state.found) else 0

    def scores(self, state: PalindromesState) -> tuple[int, ...]:
        return tuple(
            (state.rows[p].count("R") if p < len(state.rows) else 0) - self._found_in(state, p)
            for p in range(PLAYERS)
        )

    def claims(self, state: PalindromesState) -> dict[str, tuple[int, ...]]:
        return {
            "reds": tuple(
                state.rows[p].count("R") if p < len(state.rows) else 0 for p in range(PLAYERS)
            ),
            "palindromes": tuple(self._found_in(state, p) for p in range(PLAYERS)),
        }

    def describe(self, state: PalindromesState) -> list[str]:
        lines = []
        for p, row in enumerate(state.rows):
            every = distinct_palindromes(row)
            line = f"{self.players[p].name}'s row {row} holds {len(every)} distinct palindromes: "
            line += " ".join(every) if every else "none"
            finder = 1 - p
            if finder < len(state.found):
                missed = [x for x in every if x not in state.found[finder]]
                if missed:
                    line += f" ({self.players[finder].name} missed {' '.join(missed)})"
            lines.append(line)
        return lines


RULES = PalindromesRules
