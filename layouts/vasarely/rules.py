"""Vasarely's rules: fill spaces by their dots, 1 to 5 in turn, in at most two cubes at a time."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.layouts.vasarely.field import SpaceData
from papergames.layouts.vasarely.params import PARAMS, VasarelyParams
from papergames.play.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.sheets.board import Board
from papergames.sheets.model import Sheet, data_as
from papergames.sheets.params import Param, ParamSet

EMPTY = -1


PASS = -1
"""The move of a player who has no space of the number they need."""


@dataclass(frozen=True)
class VasarelyState:
    """Who filled each space, the cubes in play in the order they were picked, scores, turn."""

    owners: tuple[int, ...]
    scores: tuple[int, ...]
    in_play: tuple[int, ...] = ()
    turn: int = 0
    number: int = 1
    passes: int = 0


@dataclass(frozen=True)
class VasarelyOptions:
    """The engine's options, typed."""

    in_play: int
    after_pass: str


class VasarelyRules(Rules[VasarelyState, int]):
    """Vasarely: fill spaces by their dots in the order 1, 2, 3, 4, 5, 1, ... in at most two
    cubes at a time; whoever fills a cube's last space scores its spaces of other colours.

    A move is a space index (written ``space-17``) or :data:`PASS` (written ``pass``), which is
    legal only when no space of the needed number can be filled. Options: ``in_play`` (2, or 3
    for the book's harder variation) and ``after_pass`` (``next``: the sequence moves on after a
    pass, the default; ``same``: the next player needs the same number, until a whole round of
    players has passed on it).
    """

    game = "vasarely"
    notation = "the space filled, 17 (as a labelled sheet prints it) or space-17, or pass"
    options = ParamSet(
        [
            Param.int("in_play", 2, 2, 3, "cubes in play at one time (3: the harder variation)"),
            Param.choice("after_pass", "next", ("next", "same"), "the number needed after a pass"),
        ]
    )
    option_shape = VasarelyOptions

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        self.opts = self.options.read(VasarelyOptions, self.option_values)
        board = Board.of(sheet.page)
        self.ids = board.ids
        self.index = board.index
        spaces = [data_as(f.data, SpaceData) for f in board.features]
        self.cube = [space["cube"] for space in spaces]
        self.dots = [space["dots"] for space in spaces]
        self.max_dots = PARAMS.read(VasarelyParams, sheet.spec.params).max_dots
        self.cube_spaces: dict[int, list[int]] = {}
        for k, cube in enumerate(self.cube):
            self.cube_spaces.setdefault(cube, []).append(k)
        self.limit = self.opts.in_play

    def initial(self) -> VasarelyState:
        return VasarelyState((EMPTY,) * len(self.ids), (0,) * len(self.players))

    def _complete(self, owners: Sequence[int], cube: int) -> bool:
        return all(owners[k] != EMPTY for k in self.cube_spaces[cube])

    def _fills(self, state: VasarelyState) -> Iterator[int]:
        started = {self.cube[k] for k, o in enumerate(state.owners) if o != EMPTY}
        open_cubes = list(state.in_play)
        if len(open_cubes) < self.limit:
            open_cubes += [c for c in self.cube_spaces if c not in started]
        for cube in open_cubes:
            for k in self.cube_spaces[cube]:
                if state.owners[k] == EMPTY and self.dots[k] == state.number:
                    yield k

    def to_move(self, state: VasarelyState) -> int | None:
        if all(o != EMPTY for o in state.owners):
            return None
        return state.turn

    def legal_moves(self, state: VasarelyState) -> Iterator[int]:
        if self.to_move(state) is None:
            return
        any_fill = False
        for k in self._fills(state):
            any_fill = True
            yield k
        if not any_fill:
            yield PASS

    def _next_number(self, number: int) -> int:
        return number % self.max_dots + 1

    def apply(self, state: VasarelyState, move: int) -> VasarelyState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "every cube is complete")
        nxt = (player + 1) % len(self.players)
        if move == PASS:
            example = next(self._fills(state), None)
            if example is not None:
                raise IllegalMove(
                    "must-fill",
                    f"a {state.number}-dot space can be filled, for example {self.ids[example]}",
                )
            passes = state.passes + 1
            # With after_pass=same the number stays until a whole round has passed on it.
            stay = self.opts.after_pass == "same" and passes < len(self.players)
            return VasarelyState(
                state.owners,
                state.scores,
                state.in_play,
                nxt,
                state.number if stay else self._next_number(state.number),
                passes if stay else 0,
            )
        name = self.ids[move]
        if state.owners[move] != EMPTY:
            raise IllegalMove("filled", f"{name} is already filled")
        if self.dots[move] != state.number:
            raise IllegalMove(
                "wrong-number",
                f"{name} has {self.dots[move]} dots, but a {state.number}-dot space is due",
            )
        cube = self.cube[move]
        if cube not in state.in_play:
            started = any(state.owners[k] != EMPTY for k in self.cube_spaces[cube])
            if started or len(state.in_play) >= self.limit:
                raise IllegalMove(
                    "cube-closed",
                    f"{name} lies in cube {cube}, but {len(state.in_play)} cubes are in play: one "
                    "of them must be completed before another is picked",
                )
        owners = list(state.owners)
        owners[move] = player
        scores = list(state.scores)
        in_play = list(state.in_play)
        if cube not in in_play:
            in_play.append(cube)
        if self._complete(owners, cube):
            scores[player] += sum(1 for k in self.cube_spaces[cube] if owners[k] != player)
            in_play.remove(cube)
        return VasarelyState(
            tuple(owners), tuple(scores), tuple(in_play), nxt, self._next_number(state.number)
        )

    def parse_move(self, text: str, state: VasarelyState) -> int:
        word = text.strip().lower()
        if word == "pass":
            return PASS
        key = word if word.startswith("space-") else f"space-{word}"
        if key not in self.index:
            raise MoveSyntaxError(
                f"'{text.strip()}' is not a space (space-1 .. space-{len(self.ids)})"
            )
        return self.index[key]

    def format_move(self, move: int) -> str:
        return "pass" if move == PASS else self.ids[move]

    def scores(self, state: VasarelyState) -> tuple[int, ...]:
        return state.scores


RULES = VasarelyRules
