"""The Palindromic Card Game's parameters and the note on them.

Kept apart from the record sheet's layout so that listing the games and completing a spec
import no geometry: :mod:`papergames.layouts.palindromes.sheet` builds to these.
"""

from __future__ import annotations

from dataclasses import dataclass

from papergames.sheets.params import Param, ParamSet

PLAYERS = 2
"""Players of one game: the sheet records two rows of cards, and each scores the other's."""


@dataclass(frozen=True)
class PalindromesParams:
    """The sheet's parameters, typed (see :data:`PARAMS`)."""

    cards: int
    found: int


PARAMS = ParamSet(
    [
        Param.int("cards", 26, 4, 52, "cards in each player's row"),
        Param.int(
            "found", 0, 0, 52, "boxes per row for found palindromes (0: two thirds of cards)"
        ),
    ],
    notes=[
        "found=0 gives two thirds of the cards in boxes; a row never holds more distinct "
        "palindromes than red cards"
    ],
)
