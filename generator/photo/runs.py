"""Lines coloured in runs: a doubtful piece of a line leans to the colour of the pieces beside it.

In Arp a move colours a line from the crossing where it meets the last line onwards, up to the
line's end or the first piece already coloured, so a line's pieces come in runs of one colour:
in random legal games close to nine neighbouring pieces in ten share their colour. Where the pencil
alone hardly tells two colours apart (a light blue trace over purple hatching looks blue), the
pieces on either side are evidence too. Each doubtful piece's likelihoods (from its
:class:`~papergames.photo.colours.Decision` scores) are weighed against the colours of its
neighbours on the same line; a sure piece is never changed, and a piece that changes colour
stays flagged for checking.

A sure piece can still be in doubt: one whose neighbours on both sides read another colour,
while its own colour is that of a space beside it, may be a trace hidden under that space's
hatching (strokes that ran over the line and covered it) rather than a run of one piece. It is
flagged, its colour kept (see :func:`follow_runs`).

Example:
    >>> from shapely.geometry import LineString
    >>> from papergames.photo.colours import Decision
    >>> from papergames.photo.items import ReadItem, Sampling
    >>> def piece(n: int) -> ReadItem:
    ...     geometry = LineString([(n, 0), (n + 1, 0)])
    ...     return ReadItem(f"segment-{n}", "segment", Sampling.LINE, geometry, geometry,
    ...                     line="line-1", ends=(f"point-{n}", f"point-{n + 1}"))
    >>> sure = Decision("1", 0.9)
    >>> torn = Decision("2", 0.3, (("1", 1.2), ("2", 0.8), ("3", 40.0)))
    >>> [d.colour for d in follow_runs([piece(0), piece(1), piece(2)], [sure, torn, sure])]
    ['1', '1', '1']
    >>> clear = Decision("2", 0.3, (("1", 30.0), ("2", 0.5)))  # doubtful, but plainly not 1
    >>> [d.colour for d in follow_runs([piece(0), piece(1), piece(2)], [sure, clear, sure])]
    ['1', '2', '1']
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from papergames.photo.colours import LOW, Decision
from papergames.photo.items import ReadItem

RUN_STAY = 0.89
"""Chance that a piece of a line carries the colour of a piece beside it on the same line: the
share over random legal Arp games is 0.87 to 0.89 (``tests/test_photo_runs.py`` measures it)."""
DOUBT_STAY = 0.75
"""The same, for a neighbour that is itself doubtful: its colour is only the likeliest."""
PASSES = 2
"""Rounds of weighing: in the second, a doubtful piece also hears its doubtful neighbours'
colours as the first round left them."""


def follow_runs(items: Sequence[ReadItem], decisions: Sequence[Decision]) -> list[Decision]:
    """The decisions with each doubtful piece of a line weighed against its neighbours.

    Args:
        items: the items read, in the order of ``decisions``; pieces of one line carry its id
            (``line``) and their end points (``ends``).
        decisions: what each item was read as on its own.

    Returns:
        The decisions, where a doubtful piece that its neighbours pull to another colour now
        has that colour, still flagged; and a sure piece that may be a trace hidden under the
        hatching beside it (:func:`_hidden_under_hatching`) flagged.
    """
    links = _links(items)
    colours = [decision.colour for decision in decisions]
    if not links:
        return list(decisions)
    index = {item.id: k for k, item in enumerate(items)}
    heard = _heard(items, decisions, links, index)
    for _ in range(PASSES):
        colours = [_weighed(k, heard, colours, links.get(k, ())) for k in range(len(items))]
    found = [
        decision
        if colour == decision.colour
        else replace(decision, colour=colour, confidence=min(decision.confidence, LOW - 0.05))
        for decision, colour in zip(decisions, colours, strict=True)
    ]
    return [
        replace(decision, confidence=min(decision.confidence, LOW - 0.05))
        if _hidden_at(k, items, found, links, index)
        else decision
        for k, decision in enumerate(found)
    ]


def _hidden_at(
    k: int,
    items: Sequence[ReadItem],
    decisions: Sequence[Decision],
    links: dict[int, list[int]],
    index: dict[str, int],
) -> bool:
    """Whether piece ``k``, as ``decisions`` read it, may be a trace hidden under the hatching
    beside it (:func:`_hidden_under_hatching`)."""
    return _hidden_under_hatching(
        decisions[k],
        [decisions[j] for j in links.get(k, ())],
        _spaces_beside(items[k], decisions, index),
    )


def _hidden_under_hatching(
    decision: Decision,
    neighbours: Sequence[Decision],
    beside: Sequence[Decision],
) -> bool:
    """Whether a surely read piece may be a trace hidden under the hatching of a space beside
    it: its neighbours on the line, one each side, both read one other colour, and its own
    colour is that space's.

    A hatching that runs over a line covers the trace with its own colour, so a piece read in
    the colour of the space beside it may show that space's strokes, not its trace. A move
    colours a line up to its end or to the first piece already coloured, so a single piece in
    another colour between two pieces of one colour is rare (:data:`RUN_STAY`). On random
    legal Arp games read perfectly, about one piece in a hundred is so placed, and flagged
    (``tests/test_photo_runs.py``). On the bench's first-style Arp sheets, 8 a tier, scanned
    and photographed, plain and waxy (``bench/photo.py --games arp,miro --first-style
    [--waxy 0.7]``), 9 to 15 pieces a tier were so flagged, among them 0 to 7 of the lines
    read wrong without a flag; on the independent photos, 20 pieces, among them 15 of the 47
    lines read wrong without a flag.
    """
    return not decision.low and _between_two_of_another(decision, neighbours, beside) is not None


def _between_two_of_another(
    decision: Decision, neighbours: Sequence[Decision], beside: Sequence[Decision]
) -> str | None:
    """The colour both of a piece's neighbours on the line read (one each side), when it is
    one other colour than the piece's own and the piece's own is that of a space beside it;
    else ``None``."""
    if decision.colour is None or len(neighbours) < 2:
        return None
    others = {neighbour.colour for neighbour in neighbours}
    if len(others) != 1 or None in others or decision.colour in others:
        return None
    if not any(space.colour == decision.colour for space in beside):
        return None
    return next(iter(others))


def _heard(
    items: Sequence[ReadItem],
    decisions: Sequence[Decision],
    links: dict[int, list[int]],
    index: dict[str, int],
) -> list[Decision]:
    """The decisions as the weighing hears them: a doubtful piece read in the colour of a space
    beside it, whose neighbours on the line, one each side, are both sure of one other colour
    (and not themselves alone in a hatching's colour, :func:`_hidden_under_hatching`), has its
    scores for its own colour and for theirs made equal, the lower of the two.

    Its band may show that space's hatching run over the line rather than its trace, so its
    pencil cannot tell the hatching's colour from its neighbours'; the run between two sure
    pieces then settles it (:data:`RUN_STAY`). On the bench's Arp photos (``bench/photo.py
    --games arp,miro``, 8 sheets a tier, scans, phone photos and copies, both prints, traced
    over the stroke and with ``--beside 0.7``) this set 13 flagged pieces right and 3 wrong; on
    the independent photos, 4 right and none wrong. The piece stays flagged either way.
    """
    heard = list(decisions)
    for k, decision in enumerate(decisions):
        neighbours = links.get(k, [])
        if not decision.low:
            continue
        other = _between_two_of_another(
            decision,
            [decisions[j] for j in neighbours],
            _spaces_beside(items[k], decisions, index),
        )
        if other is None:
            continue
        if any(
            decisions[j].low or _hidden_at(j, items, decisions, links, index) for j in neighbours
        ):
            continue
        scores = dict(decision.scores)
        if other not in scores or decision.colour not in scores:
            continue
        scores[decision.colour] = scores[other] = min(scores[decision.colour], scores[other])
        heard[k] = replace(decision, scores=tuple(sorted(scores.items())))
    return heard


def _spaces_beside(
    item: ReadItem, decisions: Sequence[Decision], index: dict[str, int]
) -> list[Decision]:
    """The decisions on the spaces beside a piece of line."""
    return [decisions[index[space]] for space in item.beside if space in index]


def _weighed(
    k: int, decisions: Sequence[Decision], colours: Sequence[str | None], neighbours: Sequence[int]
) -> str | None:
    """The colour piece ``k`` is likeliest to carry, given its neighbours' present colours."""
    decision = decisions[k]
    if not decision.low or decision.colour is None or not decision.scores or not neighbours:
        return decision.colour
    odds = {name: -score / 2.0 for name, score in decision.scores}
    others = max(1, len(odds) - 1)
    for j in neighbours:
        colour = colours[j]
        if colour not in odds:
            continue
        stay = DOUBT_STAY if decisions[j].low else RUN_STAY
        for name in odds:
            odds[name] += math.log(stay if name == colour else (1.0 - stay) / others)
    return max(odds, key=lambda name: (odds[name], name == decision.colour))


def _links(items: Sequence[ReadItem]) -> dict[int, list[int]]:
    """For each piece of a line, the pieces of the same line that share an end point with it."""
    meeting: dict[tuple[str, str], list[int]] = defaultdict(list)
    for k, item in enumerate(items):
        if item.line is not None:
            for point in item.ends:
                meeting[(item.line, point)].append(k)
    links: dict[int, list[int]] = defaultdict(list)
    for pieces in meeting.values():
        for k in pieces:
            links[k].extend(j for j in pieces if j != k)
    return dict(links)
