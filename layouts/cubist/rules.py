"""Cubist's final scoring checked: installation values and museum dice add to each total."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.errors import SpecError
from papergames.layouts.cubist.params import SCORE_PARAMS, ScoreParams
from papergames.play.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.sheets.model import Sheet
from papergames.sheets.rng import Rng

INSTALLATION_CARDS = 23
"""Installation cards in the game: no more can be completed by all players together."""


MAX_VALUE = 99
"""A sanity bound on one installation's value (the cards show small numbers)."""


MAX_MUSEUM = 99


@dataclass(frozen=True)
class FinalFigures:
    """One player's final figures: the values of their installations and their museum dice."""

    installations: tuple[int, ...]
    museum: int

    @property
    def score(self) -> int:
        """Installation values plus two points per museum die."""
        return sum(self.installations) + 2 * self.museum


@dataclass(frozen=True)
class CubistScoreState:
    """The figures given so far, in player order."""

    figures: tuple[FinalFigures, ...] = ()


_WORD = re.compile(r"\S+")


INSTALLATION_WORDS = ("installations", "installation", "inst")


MUSEUM_WORDS = ("museum",)


def cubist_winners(figures: Sequence[FinalFigures]) -> list[int]:
    """The winners: the highest score, then the most museum dice; several share a full tie.

    Example:
        >>> a, b = FinalFigures((7, 5), 3), FinalFigures((9, 5), 1)
        >>> a.score, b.score, cubist_winners([a, b])
        (18, 16, [0])
    """
    if not figures:
        return []
    best = max((f.score, f.museum) for f in figures)
    return [k for k, f in enumerate(figures) if (f.score, f.museum) == best]


class CubistScoreRules(Rules[CubistScoreState, FinalFigures]):
    """Cubist's final scoring: each player's figures in turn; totals and the winner follow.

    A move is one player's final figures: ``installations 7 5 9 museum 3`` (the values of their
    completed installation cards, face up or down, and their dice in the museum), or
    ``installations none museum 2``. The parts may come in either order.
    """

    game = "cubist-score"
    notation = "'installations 7 5 9 museum 3' (or 'installations none museum 0')"

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        pad = SCORE_PARAMS.read(ScoreParams, sheet.spec.params)
        if len(players) > pad.players:
            raise SpecError(
                f"the pad {sheet.spec} has rows for {pad.players} players, not {len(players)}"
            )
        self.boxes = pad.installations

    def initial(self) -> CubistScoreState:
        return CubistScoreState()

    def to_move(self, state: CubistScoreState) -> int | None:
        done = len(state.figures)
        return done if done < len(self.players) else None

    def legal_moves(self, state: CubistScoreState) -> Iterator[FinalFigures]:
        if self.to_move(state) is None:
            return
        left = INSTALLATION_CARDS - sum(len(f.installations) for f in state.figures)
        for museum in range(MAX_MUSEUM + 1):
            yield FinalFigures((), museum)
            for count in range(1, min(left, self.boxes) + 1):
                for values in itertools.product(range(1, MAX_VALUE + 1), repeat=count):
                    yield FinalFigures(values, museum)

    def random_move(self, state: CubistScoreState, rng: Rng) -> FinalFigures:
        if self.to_move(state) is None:
            raise IllegalMove("game-over", "every player's figures are in")
        left = INSTALLATION_CARDS - sum(len(f.installations) for f in state.figures)
        count = rng.randint(0, min(6, left, self.boxes))
        values = tuple(rng.randint(1, 12) for _ in range(count))
        return FinalFigures(values, rng.randint(0, 8))

    def apply(self, state: CubistScoreState, move: FinalFigures) -> CubistScoreState:
        mover = self.to_move(state)
        if mover is None:
            raise IllegalMove("game-over", "the game is over: every player's figures are in")
        name = self.players[mover].name
        for value in move.installations:
            if not 1 <= value <= MAX_VALUE:
                raise IllegalMove(
                    "bad-value",
                    f"{name}'s installation value {value} is not a card value from 1 to "
                    f"{MAX_VALUE}",
                )
        if not 0 <= move.museum <= MAX_MUSEUM:
            raise IllegalMove("bad-museum", f"{name} cannot have {move.museum} museum dice")
        if len(move.installations) > self.boxes:
            raise IllegalMove(
                "too-many-boxes",
                f"{name} lists {len(move.installations)} installations but the pad has "
                f"{self.boxes} boxes: print it with installations={len(move.installations)}",
            )
        done = sum(len(f.installations) for f in state.figures) + len(move.installations)
        if done > INSTALLATION_CARDS:
            raise IllegalMove(
                "too-many-installations",
                f"the players list {done} completed installations, but the game has only "
                f"{INSTALLATION_CARDS} installation cards",
            )
        return CubistScoreState((*state.figures, move))

    def parse_move(self, text: str, state: CubistScoreState) -> FinalFigures:
        words = [(m.group(), m.start() + 1) for m in _WORD.finditer(text)]
        installations: list[int] | None = None
        museum: int | None = None
        current: str | None = None
        none_seen = False
        for word, column in words:
            low = word.lower().rstrip(":")
            if low in INSTALLATION_WORDS:
                if installations is not None:
                    raise MoveSyntaxError("'installations' is given twice", column)
                installations, current, none_seen = [], "installations", False
            elif low in MUSEUM_WORDS:
                if museum is not None or current == "museum":
                    raise MoveSyntaxError("'museum' is given twice", column)
                current = "museum"
            elif current == "installations" and low in ("none", "-"):
                assert installations is not None
                if installations or none_seen:
                    raise MoveSyntaxError("'none' cannot follow installation values", column)
                none_seen = True
            elif current is None:
                raise MoveSyntaxError(
                    f"'{word}': start with 'installations' or 'museum' ({self.notation})",
                    column,
                )
            elif not word.isdigit():
                raise MoveSyntaxError(f"'{word}' is not a whole number", column)
            elif current == "installations":
                assert installations is not None
                if none_seen:
                    raise MoveSyntaxError("'none' cannot be followed by values", column)
                installations.append(int(word))
            else:
                if museum is not None:
                    raise MoveSyntaxError("the museum takes one number, the dice count", column)
                museum = int(word)
        if installations is None:
            raise MoveSyntaxError(f"the installations are missing ({self.notation})", len(text) + 1)
        if not installations and not none_seen:
            raise MoveSyntaxError(
                "list the installation values, or write 'installations none'", len(text) + 1
            )
        if museum is None:
            raise MoveSyntaxError(
                f"the museum dice are missing: add 'museum N' ({self.notation})", len(text) + 1
            )
        return FinalFigures(tuple(installations), museum)

    def format_move(self, move: FinalFigures) -> str:
        values = " ".join(str(v) for v in move.installations) or "none"
        return f"installations {values} museum {move.museum}"

    def scores(self, state: CubistScoreState) -> tuple[int, ...]:
        return tuple(
            state.figures[p].score if p < len(state.figures) else 0
            for p in range(len(self.players))
        )

    def winners(self, state: CubistScoreState) -> list[int]:
        """The highest score; on a tie the most museum dice; still tied, a shared win."""
        if not self.is_over(state):
            return []
        return cubist_winners(state.figures)

    def claims(self, state: CubistScoreState) -> dict[str, tuple[int, ...]]:
        def per_player(value: Any) -> tuple[int, ...]:
            return tuple(
                value(state.figures[p]) if p < len(state.figures) else 0
                for p in range(len(self.players))
            )

        return {
            "installations": per_player(lambda f: sum(f.installations)),
            "cards": per_player(lambda f: len(f.installations)),
            "museum": per_player(lambda f: f.museum),
        }

    def describe(self, state: CubistScoreState) -> list[str]:
        lines = []
        for p, figures in enumerate(state.figures):
            values = " + ".join(str(v) for v in figures.installations) or "0"
            lines.append(
                f"{self.players[p].name}: installations {values} = {sum(figures.installations)}, "
                f"museum {figures.museum} × 2 = {2 * figures.museum}, total {figures.score}"
            )
        if self.is_over(state):
            top = max(f.score for f in state.figures)
            tied = [p for p, f in enumerate(state.figures) if f.score == top]
            won = cubist_winners(state.figures)
            names = ", ".join(self.players[p].name for p in won)
            if len(tied) > 1 and len(won) == 1:
                lines.append(f"tie at {top} points broken by museum dice: {names} wins")
            elif len(won) > 1:
                lines.append(f"tie at {top} points and equal museum dice: {names} share the win")
            if all(len(f.installations) < 5 for f in state.figures):
                lines.append(
                    "nobody completed five installations, so the game ended with the museum "
                    "finished"
                )
        return lines


RULES = CubistScoreRules
