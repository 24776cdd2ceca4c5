"""Score rows filled in order: a doubtful box among a row's sure marks is one of them.

A player ticks the next box of their row each time they score (a tally, a loss, a step of the
track), starting from the first, so the marks of a row come first and the empty boxes after
them. A faint tally (a light pencil's single slash) may be read with low confidence on its own,
because a stray stroke across a box looks much the same; but a box with sure marks after it in
its row was passed on the way to them, and so was ticked. Such a box is read as marked, with the
row's usual colour, and no longer needs a look. So is a box read empty there that holds some
pencil (:data:`GAP_PENCIL`), with no box beside it read surely empty and a firm mark after it
(:data:`FIRM`): a tick drawn in a hurry across the box's border leaves little of itself inside
the box, too little to be read as a mark on its own. Any other box read empty there is a gap no
player leaves, and is flagged instead: a bare box, or a run of boxes under a shadow, whose grey
reads as a little pencil, before a mark read barely sure. A bare box with no box beside it read
surely empty and a firm mark after it is flagged too, but shown as marked, the likelier
reading: a tick laid so lightly, or so far across the border, that none of it is inside the box
(three such boxes in one row of a photocopied Mondrian sheet from the independent generator,
where a person sees an empty box between ticks). Boxes after the last sure mark are left as
they were read: that is where a stray touch and the last, faint tally cannot be told apart. Only
what a flagged one is shown as may change there: marked, when the row's own ticks before it
were as faint (:func:`_shown_as_this_hands_tally`).

Example:
    >>> from papergames.photo.colours import Decision
    >>> ids = [f"box-tally1-{k}" for k in range(1, 6)]
    >>> read = [Decision("1", 0.9), Decision(None, 0.45), Decision("1", 0.9),
    ...         Decision(None, 0.45), Decision(None, 1.0)]
    >>> [(d.colour, d.low) for d in follow_rows(ids, read)]
    [('1', False), ('1', False), ('1', False), (None, True), (None, False)]
    >>> gap = [Decision("1", 0.9), Decision(None, 1.0)] * 2 + [Decision("1", 0.9)]
    >>> ids = [f"box-tally1-{k}" for k in range(1, 6)]
    >>> [(d.colour, d.low) for d in follow_rows(ids, gap, [0.6, 0.2, 0.6, 0.0, 0.5])]
    [('1', False), ('1', False), ('1', False), ('1', True), ('1', False)]
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from papergames.photo.colours import LOW, Decision
from papergames.photo.items import row_of

ROW_BOX = re.compile(r"box-(?:tally|loss|track)\d+-(\d+)")
"""A box of a row that is ticked in order: tallies, losses and the steps of Klee's track."""
PASSED = (LOW + 1.0) / 2
"""The confidence of a doubtful box read as marked because sure marks follow it in its row."""
FIRM = 0.9
"""Confidence of the next sure mark in its row that a box read empty but holding some pencil needs
to be read as marked: a shadow across a row can make a mark beyond the last real one read as
barely sure, and the shadowed boxes before it as holding a little pencil."""
GAP_PENCIL = 0.05
"""Coverage of a box read empty before its row's last sure mark from which it is read as marked:
bare score boxes cover at most 0.013 in 99 of 100 on the bench's scans, phone photos and copies
(16 sheets a tier, 6,353 empty boxes), while a tick drawn across the box's border leaves a
tenth to a quarter of the box covered."""


NEAR_BOXES = 2.5
"""Distance between two boxes' centres, in steps from one box to the next, within which they share
the page's light: two boxes either way along the row, and those above and below. A soft
shadow's edge changes little over that, and two or three faint marks side by side are outvoted
by the bare boxes round them."""


def darkness_beside(
    centres: NDArray[np.float64], darkness: Sequence[float], bare: Sequence[bool]
) -> list[float]:
    """For each score box (centres ``(n, 2)``), the lower median darkness of the bare boxes
    round it (:data:`NEAR_BOXES`), 0 for a box with none: with as many darker boxes round it as
    paler, the paler ones are the page's.

    A soft shadow, or paper whose white was taken from too far away, darkens neighbouring
    boxes alike; a faint mark the pencil detector missed darkens its own box and not the bare
    ones round it. What the boxes round it share is the page's, not pencil.

    Example:
        >>> centres = np.array([[5.0 * k, 0.0] for k in range(5)] + [[60.0, 0.0]])
        >>> darkness_beside(centres, [0.05, 0.04, 0.03, 0.0, 0.0, 0.05], [True] * 6)
        [0.03, 0.03, 0.0, 0.03, 0.0, 0.0]
    """
    if len(centres) < 2:
        return [0.0] * len(centres)
    apart = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    np.fill_diagonal(apart, np.inf)
    step = float(np.median(apart.min(axis=1)))
    near = apart < NEAR_BOXES * step
    levels = np.asarray(darkness, dtype=np.float64)
    usable = np.asarray(bare, dtype=bool)
    return [
        float(np.quantile(levels[row & usable], 0.5, method="lower"))
        if (row & usable).any()
        else 0.0
        for row in near
    ]


def follow_rows(
    ids: Sequence[str], decisions: Sequence[Decision], coverages: Sequence[float] = ()
) -> list[Decision]:
    """The decisions with every row's doubtful boxes before its last sure mark read as marked,
    and so a box read empty there that holds some pencil, when neither box beside it reads
    surely empty and the next sure mark is firm; the other boxes read empty there flagged, and
    shown as marked when they are bare on those same terms.

    Args:
        ids: the items' ids, in the order of ``decisions``.
        decisions: what each item was read as.
        coverages: each item's share covered by pencil, in the same order; none given, every
            box read empty among marks is taken as bare.
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
        empty = {p for p, k in boxes if decisions[k].colour is None and not decisions[k].low}
        for position, k in boxes:
            decision = decisions[k]
            if position >= last or (decision.colour is not None and not decision.low):
                continue
            after = next(decisions[j] for p, j in sure if p > position)
            amid = not {position - 1, position + 1} & empty and after.confidence >= FIRM
            held = amid and k < len(coverages) and coverages[k] >= GAP_PENCIL
            if decision.low or held:
                colour = decision.colour or usual
                result[k] = replace(decision, colour=colour, confidence=PASSED)
            elif amid:
                result[k] = replace(decision, colour=usual, confidence=LOW - 0.05)
            else:
                result[k] = replace(decision, confidence=LOW - 0.05)
        _shown_as_this_hands_tally(boxes, decisions, coverages, result, (last, usual))
    return result


def _shown_as_this_hands_tally(
    boxes: Sequence[tuple[int, int]],
    decisions: Sequence[Decision],
    coverages: Sequence[float],
    result: list[Decision],
    row_end: tuple[int, str | None],
) -> None:
    """Show the doubtful boxes just after a row's last sure mark as marked, still flagged, when
    the row's own ticks are as faint: boxes before it read empty in doubt, and marked only because
    sure marks follow them, that cover no more of their box.

    A stray touch and a last faint tally look alike, so such a box stays flagged. But a hand whose
    tallies elsewhere in the row were that faint has likelier ticked once more than slipped.
    """
    last, usual = row_end
    faint = [
        coverages[k]
        for p, k in boxes
        if p < last and k < len(coverages) and decisions[k].colour is None and decisions[k].low
    ]
    if not faint or usual is None:
        return
    expected = last + 1
    for position, k in boxes:
        if position <= last:
            continue
        decision = decisions[k]
        if position != expected or not decision.low:
            return
        if decision.colour is None:
            if k >= len(coverages) or coverages[k] < min(faint):
                return
            result[k] = replace(decision, colour=usual)
        expected += 1
