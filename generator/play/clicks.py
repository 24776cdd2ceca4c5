"""Moves made by clicking a sheet's items one after another, for a game whose moves name no
single item (Klee's colour sequences, Cannon-Ball's line-ups and turns).

Most moves are clicked as the items their text names: a space, a segment, a line's two ends.
A game whose moves are made of several clicks that the text does not spell out says which
items make each move (:meth:`~papergames.play.rules.Rules.click_step`), usually through
:func:`narrow`: the clicks so far are compared with each legal move's clicks, and the move is
played as soon as only one fits, or the moves that fit are offered. The engine still judges
the move made, so a click never lets through what a typed move would not.

Example:
    >>> moves = {"RYB": ("red", "yellow", "blue"), "RYR": ("red", "yellow", "red")}
    >>> narrow(moves.items(), ("red", "yellow")).choices
    ('RYB', 'RYR')
    >>> narrow(moves.items(), ("red", "yellow", "blue")).move
    'RYB'
    >>> narrow(moves.items(), ("blue",)).reason
    'no move starts with that click: a move starts with red'
    >>> narrow(moves.items(), ("red", "blue")).reason
    'no move goes on with that click: the next click is yellow'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

MAX_OFFERED = 12
"""The most moves offered as buttons; past that the player clicks on to narrow them."""


@dataclass(frozen=True)
class ClickStep:
    """What the clicks so far amount to.

    Attributes:
        move: the whole move they make, as its text, to be judged by the engine.
        pending: the clicks (item ids) kept while the move is not whole yet.
        choices: whole moves the clicks may end as, for the player to pick one.
        hint: what to click next, in words.
        reason: why no move goes on from these clicks.
        marks: (item id, colour word) to draw while the move is built (pieces set so far).
    """

    move: str | None = None
    pending: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    hint: str = ""
    reason: str = ""
    marks: tuple[tuple[str, str], ...] = ()


def narrow(
    moves: Iterable[tuple[str, tuple[str, ...]]], clicks: tuple[str, ...], hint: str = ""
) -> ClickStep:
    """The step ``clicks`` make among ``moves`` (each move's text with the items clicked, in
    order, to make it): the move when exactly one is made whole and none goes further, else
    the clicks kept with the moves they may end as (offered when there are few).

    Args:
        moves: the legal moves, as (text, clicks).
        clicks: the item ids clicked so far.
        hint: what to say while more clicks are needed (a default is given).
    """
    moves = list(moves)
    fitting = [(text, made) for text, made in moves if made[: len(clicks)] == clicks]
    if not fitting:
        return ClickStep(reason=_no_fit(moves, clicks))
    whole = list(dict.fromkeys(text for text, made in fitting if len(made) == len(clicks)))
    longer = list(dict.fromkeys(text for text, made in fitting if len(made) > len(clicks)))
    if len(whole) == 1 and not longer:
        return ClickStep(move=whole[0])
    offered = tuple(dict.fromkeys(whole + longer))
    if len(offered) > MAX_OFFERED:
        offered = tuple(whole)
    if not hint:
        ways = len(set(whole + longer))
        hint = f"{ways} moves go on from here: click on, or choose one"
    return ClickStep(pending=clicks, choices=offered, hint=hint)


MAX_NAMED = 8
"""The most next clicks a refusal lists."""


def _no_fit(moves: list[tuple[str, tuple[str, ...]]], clicks: tuple[str, ...]) -> str:
    """Why the last click fits no move, with the clicks that would (when they are few)."""
    before = clicks[:-1]
    nexts = sorted(
        {
            made[len(before)]
            for _, made in moves
            if made[: len(before)] == before and len(made) > len(before)
        }
    )
    said = "no move goes on with that click" if before else "no move starts with that click"
    if not nexts:
        return said
    if len(nexts) > MAX_NAMED:
        return said
    options = " or ".join(nexts)
    where = "the next click is" if before else "a move starts with"
    return f"{said}: {where} {options}"
