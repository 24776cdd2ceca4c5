"""What the checker's page draws on the sheet: the moves played, and the items found at fault.

After a check the page shows the sheet with each legal move's item in its player's colour and
the offending items outlined: the illegal move's item for a transcript of moves, the items of
each broken rule for a finished sheet (``final:`` lines). Only items the sheet holds by id can
be drawn (the games played on spaces, segments, lines and triangles); a move named otherwise is
listed in the verdict but not drawn.

Example:
    >>> from papergames.checker import check_text
    >>> head = "sheet: vasarely seed=1\\nplayers: Ann (red), Bob (blue)\\n"
    >>> text = head + "Ann: space-3\\nBob: space-3\\n"
    >>> view = checked_view(text, check_text(text))
    >>> view.paint, view.flagged
    ([('space-3', 'red')], ['space-3'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from papergames.errors import PapergamesError
from papergames.rules import IllegalMove, MoveSyntaxError
from papergames.web.record import COLOURS


@dataclass(frozen=True)
class SheetView:
    """The sheet to draw and what to mark on it.

    Attributes:
        game: the game's name.
        spec: the sheet's spec.
        paint: (item id, colour word) for each coloured item, in playing order.
        flagged: the ids of the items at fault.
    """

    game: str
    spec: str
    paint: list[tuple[str, str]]
    flagged: list[str]


def checked_view(text: str, result: Any) -> SheetView | None:
    """The sheet view of a checked transcript, or ``None`` when there is nothing to draw."""
    from papergames.checker import Verdict, build_game
    from papergames.final import FinalVerdict
    from papergames.transcript import parse_transcript

    if not isinstance(result, Verdict | FinalVerdict):
        return None
    try:
        transcript = parse_transcript(text, "the checked file")
        game = build_game(transcript)
    except PapergamesError:
        return None
    ids = {f.id for f in game.sheet.pages[0].features()}
    names = {p.name: p.colour or COLOURS[n % len(COLOURS)] for n, p in enumerate(game.players)}
    colours = [names[p.name] for p in game.players]
    paint: list[tuple[str, str]] = []
    flagged: list[str] = []
    if isinstance(result, FinalVerdict):
        for mark in transcript.final:
            if mark.page == 1 and mark.item in ids:
                paint.append((mark.item, names.get(mark.colour, mark.colour)))
        flagged = [i for b in result.report.breaches for i in b.items if i in ids]
    else:
        state = game.initial()
        for line in transcript.moves[: len(result.steps)]:
            seat = game.to_move(state)
            move = game.parse_move(line.text, state)
            state = game.apply(state, move)
            item = game.format_move(move)
            if item in ids and seat is not None:
                paint.append((item, colours[seat]))
        if result.illegal is not None:
            try:
                item = game.format_move(game.parse_move(result.illegal.move, state))
            except (MoveSyntaxError, IllegalMove):
                item = ""
            flagged = [item] if item in ids else []
    return SheetView(
        game.sheet.spec.game, str(game.sheet.spec), paint, list(dict.fromkeys(flagged))
    )
