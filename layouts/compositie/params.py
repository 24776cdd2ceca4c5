"""The parameters of the COM:POSITIE board and its three games, and the limit their notes promise.

Kept apart from the board's drawing so that listing the games imports no geometry:
:mod:`papergames.layouts.compositie.board` and the games' modules import these declarations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from papergames.sheets.params import Param, ParamSet

MIN_CELL = 25.0
"""Least side of a board square in mm: a cut-out piece must fit and be easy to pick up."""


BOARD_NOTE = (
    f"the board needs squares of at least {MIN_CELL:g} mm: portrait a4, letter or a3 "
    "(landscape and a5 are refused)"
)
"""The note every COM:POSITIE sheet shares, first among its notes."""


PIECES = Param.bool("pieces", True, "print the page of 36 cut-out pieces")
"""Whether to print the pieces page: a parameter of every COM:POSITIE sheet, listed last."""


class WithPieces(Protocol):
    """What every COM:POSITIE sheet's parameters hold: whether to print the pieces page."""

    pieces: bool


@dataclass(frozen=True)
class BoardParams:
    """The bare board's parameters, typed (see :data:`BOARD_PARAMS`)."""

    pieces: bool


@dataclass(frozen=True)
class PlanAHeadParams:
    """Plan-A-Head's parameters, typed (see :data:`PLAN_A_HEAD_PARAMS`)."""

    players: int
    pieces: bool


@dataclass(frozen=True)
class PickTwoOneParams:
    """Pick Tw=O=ne's parameters, typed (see :data:`PICK_TWO_ONE_PARAMS`)."""

    lines: str
    pieces: bool


@dataclass(frozen=True)
class CannonBallParams:
    """Cannon-Ball's parameters, typed (see :data:`CANNON_BALL_PARAMS`)."""

    capture: str
    pieces: bool


BOARD_PARAMS = ParamSet([PIECES], notes=[BOARD_NOTE])


PLAN_A_HEAD_PARAMS = ParamSet(
    [
        Param.int("players", 2, 2, 3, "number of players (decides who opens each new set)"),
        PIECES,
    ],
    notes=[BOARD_NOTE, "players only changes the rules summary (who opens a set)"],
)


PICK_TWO_ONE_PARAMS = ParamSet(
    [
        Param.choice(
            "lines",
            "any",
            ("any", "straight"),
            "lines to take from: any collinear squares, or only rows, columns, diagonals",
        ),
        PIECES,
    ],
    notes=[BOARD_NOTE, "the seed decides the start position; lines only changes the rules summary"],
)


CANNON_BALL_PARAMS = ParamSet(
    [
        Param.choice(
            "capture",
            "any",
            ("any", "mover"),
            "which piece may capture after a move: any of the player's, or the one that moved",
        ),
        PIECES,
    ],
    notes=[BOARD_NOTE, "capture only changes the rules summary"],
)
