"""Captured spaces: a space's colour is on one of its sides, as whoever closed it coloured one.

In Arp a space is captured by the player who colours the last open piece of line round it, so
every captured space has a side in its captor's colour. A hatched space is read far more surely
than the traced lines round it: where the hatching of a space beside a line ran over it, the
line's faint trace can be read in the hatching's colour instead (on the independent photos,
every line read surely wrong was read so). When no side of a surely read space carries the
space's colour, one of them was misread: the side whose pencil is least unlike that colour
(each line's misfits from :class:`~papergames.photo.colours.Decision`) is given it, flagged for
a person to look at. A side that is the only one of its colour round another captured space of
that colour keeps it, and a space read in doubt changes nothing: its own colour may be the
misreading.

Example:
    >>> from shapely.geometry import LineString, box
    >>> from papergames.photo.colours import Decision
    >>> from papergames.photo.items import ReadItem, Sampling
    >>> space = ReadItem("space-1", "space", Sampling.AREA, box(0, 0, 1, 1), box(0, 0, 1, 1))
    >>> def side(n: int) -> ReadItem:
    ...     edge = LineString([(0, n), (1, n)])
    ...     return ReadItem(f"segment-{n}", "segment", Sampling.LINE, edge, edge,
    ...                     beside=("space-1",))
    >>> hatched = Decision("2", 1.0)
    >>> red_like = Decision("1", 0.9, (("1", 0.5), ("2", 9.0)))
    >>> plainly_red = Decision("1", 0.9, (("1", 0.5), ("2", 80.0)))
    >>> found = follow_captures([space, side(0), side(1)], [hatched, red_like, plainly_red])
    >>> [(d.colour, d.low) for d in found.decisions]
    [('2', False), ('2', True), ('1', False)]
    >>> found.notes[0].said({"1": "red", "2": "blue"})  # doctest: +NORMALIZE_WHITESPACE
    'segment-0 is taken to be blue like space-1, though its pencil looks red: whoever captured
    space-1 coloured one of its sides, and no other side is blue. If it is red, space-1 breaks
    the rules'
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from papergames.photo.colours import LOW, Decision
from papergames.photo.items import ReadItem
from papergames.photo.notes import Note


class Captures(NamedTuple):
    """The decisions after the capture rule, and a note for each side it gave a colour."""

    decisions: list[Decision]
    notes: list[Note]


def follow_captures(items: Sequence[ReadItem], decisions: Sequence[Decision]) -> Captures:
    """The decisions with a side of each surely captured space that has none in its colour
    given that colour, flagged, and said in a note: a person who finds the side in the colour
    its pencil showed knows the space breaks the rules.

    Args:
        items: the items read, in the order of ``decisions``; traced lines name the spaces they
            border (``beside``).
        decisions: what each item was read as.

    Returns:
        The decisions, with at most one side changed for each space that needed one.
    """
    where = {item.id: k for k, item in enumerate(items) if item.role == "space"}
    sides = _sides(items, where)
    found = list(decisions)
    notes: list[Note] = []
    for space in sorted(sides):
        colour = found[space].colour
        if colour is None or found[space].low:
            continue
        pieces = sides[space]
        if any(found[k].colour == colour for k in pieces):
            continue
        free = [k for k in pieces if not _needed(k, items[k].beside, found, sides, where)]
        if not free:
            continue
        k = min(free, key=lambda j: (_misfit(found[j], colour), j))
        notes.append(_said(items[k].id, items[space].id, colour, found[k].colour))
        found[k] = replace(found[k], colour=colour, confidence=min(found[k].confidence, LOW - 0.05))
    return Captures(found, notes)


def _said(side: str, space: str, colour: str, pencil: str | None) -> Note:
    """The note on a side given its space's colour against its pencil's."""
    why = f"whoever captured {space} coloured one of its sides, and no other side is {{0}}"
    if pencil is None:
        return Note(
            f"{side} is taken to be {{0}} like {space}, though it looks bare: {why}", (colour,)
        )
    return Note(
        f"{side} is taken to be {{0}} like {space}, though its pencil looks {{1}}: {why}. "
        f"If it is {{1}}, {space} breaks the rules",
        (colour, pencil),
    )


def _sides(items: Sequence[ReadItem], where: dict[str, int]) -> dict[int, list[int]]:
    """For each space read (found by id in ``where``), the traced lines that border it."""
    sides: dict[int, list[int]] = defaultdict(list)
    for k, item in enumerate(items):
        for space in item.beside:
            if space in where:
                sides[where[space]].append(k)
    return dict(sides)


def _needed(
    k: int,
    beside: Sequence[str],
    found: Sequence[Decision],
    sides: dict[int, list[int]],
    where: dict[str, int],
) -> bool:
    """Whether line ``k`` (bordering the spaces ``beside``) is the only side in its colour of a
    surely captured space of that colour."""
    colour = found[k].colour
    if colour is None:
        return False
    for name in beside:
        space = where.get(name)
        if space is None or found[space].colour != colour or found[space].low:
            continue
        if not any(found[j].colour == colour for j in sides[space] if j != k):
            return True
    return False


def _misfit(decision: Decision, colour: str) -> float:
    """How much worse ``colour`` fits a line than its best colour (0 when the line's pencil was
    not weighed against the colours, as for a line read empty)."""
    scores = dict(decision.scores)
    if colour not in scores:
        return 0.0
    return scores[colour] - min(scores.values())
