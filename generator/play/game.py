"""A game set up from its transcript: the engine for its sheet, players and options.

Both the replay of a game's moves (:mod:`papergames.play.checker`) and the judge of a finished
sheet (:mod:`papergames.play.final`) start from here, and both keep the claims of something the
game does not count apart, as :class:`UnknownClaim`.

Example:
    >>> from papergames.play.transcript import parse_transcript
    >>> text = "sheet: cocomposite size=4 seed=1\\nplayers: Ann, Bob\\n"
    >>> game = build_game(parse_transcript(text))
    >>> type(game).__name__, [player.name for player in game.players]
    ('CocompositeRules', ['Ann', 'Bob'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from papergames.games import get_rules
from papergames.play.rules import Rules
from papergames.play.transcript import Place, Transcript
from papergames.sheets.model import Sheet
from papergames.sheets.sheet import make_sheet


@dataclass(frozen=True)
class UnknownClaim:
    """A claim of something the game does not count, which cannot be checked."""

    player: str
    what: str
    claimed: str
    place: Place
    known: tuple[str, ...]


def build_game(transcript: Transcript, sheet: Sheet | None = None) -> Rules[Any, Any]:
    """The rules of the transcript's game, for its sheet, players and options.

    ``sheet`` is the transcript's sheet when the caller has it built already (the web page
    keeps a few); otherwise it is built here.

    Raises:
        PapergamesError: when the game has no rules yet, or the players or options do not fit.
    """
    rules = get_rules(transcript.spec.game)
    options = rules.parse_options(transcript.options)
    if sheet is None:
        sheet = make_sheet(transcript.spec)
    return rules(sheet, transcript.players, options)
