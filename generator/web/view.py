"""What the checker's page draws on the sheet: the moves played, and the items found at fault.

After a check the page shows the sheet with each legal move's item in its player's colour and
the offending items outlined: the illegal move's item for a transcript of moves, the items of
each broken rule for a finished sheet (``final:`` lines). The items a move names are found by
their ids and printed names (spaces, segments, lines, triangles, grid squares, a line's two
ends: the ends are coloured); a move that names none is listed in the verdict but not drawn.

Example:
    >>> from papergames.checker import check_text
    >>> head = "sheet: vasarely seed=1\\nplayers: Ann (red), Bob (blue)\\n"
    >>> text = head + "Ann: space-3\\nBob: space-3\\n"
    >>> view = checked_view(text, check_text(text))
    >>> view.paint, view.flagged
    ([('space-3', 'red')], ['space-3'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from papergames.errors import PapergamesError
from papergames.model import Kind
from papergames.rules import IllegalMove, MoveSyntaxError
from papergames.web.record import COLOURS, move_items, printed_name


@dataclass(frozen=True)
class SheetView:
    """The sheet to draw and what to mark on it.

    Attributes:
        game: the game's name.
        spec: the sheet's spec.
        paint: (item id, colour word) for each coloured item, in playing order.
        lines: (point id, point id, colour word) for each line drawn between two points.
        flagged: the ids of the items at fault.
        page: the page of the sheet drawn (from 1).
        doubtful: the ids of the items to look at again (a photo's low-confidence readings).
    """

    game: str
    spec: str
    paint: list[tuple[str, str]]
    lines: list[tuple[str, str, str]]
    flagged: list[str]
    page: int = 1
    doubtful: list[str] = field(default_factory=list)


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
    features = list(game.sheet.pages[0].features())
    ids = {f.id for f in features}
    points = {f.id for f in features if f.kind == Kind.POINT}
    named = {printed_name(f): f.id for f in features} | {f.id: f.id for f in features}
    names = {p.name: p.colour or COLOURS[n % len(COLOURS)] for n, p in enumerate(game.players)}
    colours = [names[p.name] for p in game.players]
    paint: list[tuple[str, str]] = []
    lines: list[tuple[str, str, str]] = []
    flagged: list[str] = []
    if isinstance(result, FinalVerdict):
        for mark in transcript.final:
            if mark.page == 1 and mark.item in named:
                paint.append((named[mark.item], names.get(mark.colour, mark.colour)))
        flagged = [named[i] for b in result.report.breaches for i in b.items if i in named]
    else:
        state = game.initial()
        for line in transcript.moves[: len(result.steps)]:
            seat = game.to_move(state)
            move = game.parse_move(line.text, state)
            state = game.apply(state, move)
            if seat is None:
                continue
            items = move_items(game, move, named)
            if len(items) == 2 and all(i in points for i in items):
                lines.append((items[0], items[1], colours[seat]))
            else:
                paint += [(item, colours[seat]) for item in items if item in ids]
        if result.illegal is not None:
            try:
                flagged = move_items(game, game.parse_move(result.illegal.move, state), named)
            except (MoveSyntaxError, IllegalMove):
                flagged = []
    spec = game.sheet.spec
    return SheetView(spec.game, str(spec), paint, lines, list(dict.fromkeys(flagged)))
