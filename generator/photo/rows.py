"""Score rows filled in order: a doubtful box among a row's sure marks is one of them.

A player ticks the next box of their row each time they score (a tally, a loss, a step of the
track), starting from the first, so the marks of a row come first and the empty boxes after
them. A faint tally (a light pencil's single slash) may be read with low confidence on its own,
because a stray stroke across a box looks much the same; but a box with sure marks after it in
its row was passed on the way to them, and so was ticked. Such a box is read as marked, with the
row's usual colour, and no longer needs a look. A box read surely empty there is a gap no player
leaves, and is flagged instead. Boxes after the last sure mark are left as they were read: that
is where a stray touch and the last, faint tally cannot be told apart.

Example:
    >>> from papergames.photo.colours import Decision
    >>> ids = [f"box-tally1-{k}" for k in range(1, 6)]
    >>> read = [Decision("1", 0.9), Decision(None, 0.45), Decision("1", 0.9),
    ...         Decision(None, 0.45), Decision(None, 1.0)]
    >>> [(d.colour, d.low) for d in follow_rows(ids, read)]
    [('1', False), ('1', False), ('1', False), (None, True), (None, False)]
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace

from papergames.photo.colours import LOW, Decision
from papergames.photo.items import row_of

ROW_BOX = re.compile(r"box-(?:tally|loss|track)\d+-(\d+)")
"""A box of a row that is ticked in order: tallies, losses and the steps of Klee's track."""
PASSED = (LOW + 1.0) / 2
"""The confidence of a doubtful box read as marked because sure marks follow it in its row."""


def follow_rows(ids: Sequence[str], decisions: Sequence[Decision]) -> list[Decision]:
    """The decisions with every row's doubtful boxes before its last sure mark read as marked,
    and its surely empty boxes there flagged.

    Args:
        ids: the items' ids, in the order of ``decisions``.
        decisions: what each item was read as.
    """
    rows: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for k, item_id in enumerate(ids):
        match = ROW_BOX.fullmatch(item_id)
        if match is not None:
            rows[row_of(item_id)].append((int(match.group(1)), k))
    result = list(decisions)
    for boxes in rows.values():
        boxes.sort()
        sure = [
            (p, k) for p, k in boxes if decisions[k].colour is not None and not decisions[k].low
        ]
        if not sure:
            continue
        usual = Counter(decisions[k].colour for _, k in sure).most_common(1)[0][0]
        last = sure[-1][0]
        for position, k in boxes:
            decision = decisions[k]
            if position >= last or (decision.colour is not None and not decision.low):
                continue
            if decision.low:
                colour = decision.colour or usual
                result[k] = replace(decision, colour=colour, confidence=PASSED)
            else:
                result[k] = replace(decision, confidence=LOW - 0.05)
    return result
