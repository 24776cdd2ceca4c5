"""Mondrian's rules: fill next to coloured spaces, not beside your own colour; rectangles score."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from papergames.layouts.mondrian.field import SpaceData
from papergames.play.final import (
    connected_groups,
    count_tallies,
    item_names,
    same_colour_neighbours,
    tally_marks,
)
from papergames.play.rules import (
    Breach,
    FinalReport,
    IllegalMove,
    MoveSyntaxError,
    Player,
    Position,
    Rules,
)
from papergames.play.teams import TEAMS_OPTION, TeamPlay
from papergames.sheets.board import Board
from papergames.sheets.model import Sheet, data_as
from papergames.sheets.params import Param, ParamSet

NEUTRAL = -2


EMPTY = -1


@dataclass(frozen=True)
class MondrianState:
    """Who filled each space (a player, :data:`NEUTRAL` or :data:`EMPTY`), scores, turn."""

    owners: tuple[int, ...]
    scores: tuple[int, ...]
    turn: int = 0
    over: bool = False


class _Lattice:
    """The field as lattice cells, with what the rectangle search needs in O(1) per test.

    A set of spaces is a rectangle exactly when a lattice rectangle is wholly filled and no
    space crosses its sides; the spaces inside are then those whose first cell lies inside.
    """

    def __init__(self, spaces: Sequence[Sequence[Sequence[int]]]) -> None:
        self.cols = max(r[2] for rects in spaces for r in rects)
        self.rows = max(r[3] for rects in spaces for r in rects)
        owner = [[-1] * self.cols for _ in range(self.rows)]
        self.cells: list[list[tuple[int, int]]] = []
        self.bbox: list[tuple[int, int, int, int]] = []
        for k, rects in enumerate(spaces):
            cells = [
                (x, y) for x0, y0, x1, y1 in rects for y in range(y0, y1) for x in range(x0, x1)
            ]
            for x, y in cells:
                owner[y][x] = k
            self.cells.append(cells)
            self.bbox.append(
                (
                    min(r[0] for r in rects),
                    min(r[1] for r in rects),
                    max(r[2] for r in rects),
                    max(r[3] for r in rects),
                )
            )
        self.owner = np.array(owner, dtype=np.intp).reshape(self.rows, self.cols)
        # Walls: vertical[y][x] is a border between cells (x - 1, y) and (x, y) or the field's
        # edge; horizontal[y][x] likewise between (x, y - 1) and (x, y). Prefix sums along them.
        self.vwall = [
            _prefix(
                [x in (0, self.cols) or owner[y][x - 1] != owner[y][x] for y in range(self.rows)]
            )
            for x in range(self.cols + 1)
        ]
        self.hwall = [
            _prefix(
                [y in (0, self.rows) or owner[y - 1][x] != owner[y][x] for x in range(self.cols)]
            )
            for y in range(self.rows + 1)
        ]
        anchors = {cells[0] for cells in self.cells if cells}
        self.anchor = _prefix2(
            [[(x, y) in anchors for x in range(self.cols)] for y in range(self.rows)]
        )

    def largest_rectangle(self, filled: Sequence[bool], space: int) -> int:
        """The most spaces (two or more) of a filled set that includes ``space`` and forms a
        rectangle; 0 when there is none."""
        full = _prefix2(np.asarray(filled, dtype=np.bool_)[self.owner])

        def filled_rect(x0: int, y0: int, x1: int, y1: int) -> bool:
            return _sum2(full, x0, y0, x1, y1) == (x1 - x0) * (y1 - y0)

        sx0, sy0, sx1, sy1 = self.bbox[space]
        best = 0
        for y0 in range(sy0, -1, -1):
            if not filled_rect(sx0, y0, sx1, sy1):
                break
            for y1 in range(sy1, self.rows + 1):
                if not filled_rect(sx0, y0, sx1, y1):
                    break
                lefts = []
                for x0 in range(sx0, -1, -1):
                    if not filled_rect(x0, y0, sx1, y1):
                        break
                    if _run(self.vwall[x0], y0, y1):
                        lefts.append(x0)
                if not lefts:
                    continue
                for x1 in range(sx1, self.cols + 1):
                    if not filled_rect(sx0, y0, x1, y1):
                        break
                    if not _run(self.vwall[x1], y0, y1):
                        continue
                    for x0 in lefts:
                        if _run(self.hwall[y0], x0, x1) and _run(self.hwall[y1], x0, x1):
                            best = max(best, _sum2(self.anchor, x0, y0, x1, y1))
        return best if best >= 2 else 0


def _prefix(flags: Sequence[bool]) -> list[int]:
    out = [0]
    for flag in flags:
        out.append(out[-1] + int(flag))
    return out


def _run(prefix: Sequence[int], a: int, b: int) -> bool:
    """Whether every flag in [a, b) is set."""
    return prefix[b] - prefix[a] == b - a


def _prefix2(grid: Sequence[Sequence[bool]] | NDArray[np.bool_]) -> list[list[int]]:
    """The flags set in ``grid`` above row ``y`` and left of column ``x``, as ``out[y][x]``:
    summed by numpy, as a move's rectangle search asks for the whole field's anew, and handed
    back as lists, which the search reads a cell at a time faster than an array.

    Example:
        >>> _prefix2([[True, False], [True, True]])
        [[0, 0, 0], [0, 1, 1], [0, 2, 3]]
    """
    rows = len(grid)
    cols = len(grid[0]) if rows else 0
    out = np.zeros((rows + 1, cols + 1), dtype=np.int64)
    out[1:, 1:] = np.asarray(grid, dtype=np.int64).reshape(rows, cols).cumsum(0).cumsum(1)
    result: list[list[int]] = out.tolist()
    return result


def _sum2(p: Sequence[Sequence[int]], x0: int, y0: int, x1: int, y1: int) -> int:
    return p[y1][x1] - p[y0][x1] - p[y1][x0] + p[y0][x0]


@dataclass(frozen=True)
class MondrianOptions:
    """The engine's options, typed."""

    target: int
    teams: bool


class MondrianRules(Rules[MondrianState, tuple[int, bool]]):
    """Mondrian: fill spaces next to coloured ones, never next to your own colour; completing a
    rectangle of filled spaces scores its number of spaces.

    A move is (space index, neutral?), written as the space (``17``, ``space-17``, or its letter
    on the mini field) and ``neutral`` when the neutral colour is used (two or three players).
    Options: ``target`` (0 = the sheet's score boxes, 80 by default) and ``teams`` (four
    players, partners sitting opposite: 1 and 3 against 2 and 4).
    """

    game = "mondrian"
    notation = "the space (17 or space-17; a letter on the mini field), + ' neutral' if so"
    options = ParamSet(
        [
            Param.int("target", 0, 0, 320, "points that end the game (0: the sheet's boxes)"),
            TEAMS_OPTION,
        ]
    )
    option_shape = MondrianOptions
    extra_colours = ("neutral",)

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        opts = self.options.read(MondrianOptions, self.option_values)
        self.board = Board.of(sheet.page)
        self.ids = self.board.ids
        self.lattice = _Lattice([data_as(f.data, SpaceData)["rects"] for f in self.board.features])
        self.neighbours = self.board.neighbours
        self.neutral = len(players) < 4
        # The page says how many tally boxes it printed (the mini field prints fewer).
        self.target = opts.target or int(sheet.page.data["points"])
        self.teams = TeamPlay.of(opts.teams, "add", players=len(players))

    def initial(self) -> MondrianState:
        return MondrianState((EMPTY,) * len(self.ids), (0,) * len(self.players))

    def _may_fill(
        self, state: MondrianState, space: int, colour: int, started: bool | None = None
    ) -> str | None:
        """Why ``colour`` may not go on ``space`` now, or ``None`` when it may. ``started`` says
        whether any space is filled yet, when the caller asks of every space in turn."""
        if state.owners[space] != EMPTY:
            return "filled"
        around = [state.owners[n] for n in self.neighbours[space]]
        if started is None:
            started = any(o != EMPTY for o in state.owners)
        if started and all(o == EMPTY for o in around):
            return "not-next"
        if colour in around:
            return "own-colour" if colour != NEUTRAL else "neutral-next"
        return None

    def _colours(self, player: int) -> list[int]:
        return [player, NEUTRAL] if self.neutral else [player]

    def legal_moves(self, state: MondrianState) -> Iterator[tuple[int, bool]]:
        player = self.to_move(state)
        if player is None:
            return
        yield from self._moves_for(state, player)

    def _moves_for(self, state: MondrianState, player: int) -> Iterator[tuple[int, bool]]:
        started = any(o != EMPTY for o in state.owners)
        for space in range(len(self.ids)):
            for colour in self._colours(player):
                if self._may_fill(state, space, colour, started) is None:
                    yield (space, colour == NEUTRAL)

    def _next_able(self, state: MondrianState, start: int) -> int | None:
        """The first player from ``start`` on who can fill a space (players who cannot pass)."""
        count = len(self.players)
        for j in range(count):
            player = (start + j) % count
            if next(self._moves_for(state, player), None) is not None:
                return player
        return None

    def to_move(self, state: MondrianState) -> int | None:
        if state.over:
            return None
        return self._next_able(state, state.turn)

    def apply(self, state: MondrianState, move: tuple[int, bool]) -> MondrianState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        space, neutral = move
        if neutral and not self.neutral:
            raise IllegalMove("no-neutral", "four players play without the neutral colour")
        colour = NEUTRAL if neutral else player
        why = self._may_fill(state, space, colour)
        name = self.ids[space]
        reasons = {
            "filled": f"{name} is already filled",
            "not-next": f"{name} is not next to any filled space",
            "own-colour": f"{name} is next to a space {self.players[player].name} already filled",
            "neutral-next": f"the neutral colour may not go next to itself, as on {name}",
        }
        if why is not None:
            raise IllegalMove(why, reasons[why])
        owners = list(state.owners)
        owners[space] = colour
        scores = list(state.scores)
        if not neutral:
            scores[player] += self.lattice.largest_rectangle([o != EMPTY for o in owners], space)
        over = scores[player] >= self.target
        return MondrianState(tuple(owners), tuple(scores), (player + 1) % len(self.players), over)

    def parse_move(self, text: str, state: MondrianState) -> tuple[int, bool]:
        words = text.split()
        if not 1 <= len(words) <= 2 or (len(words) == 2 and words[1].lower() != "neutral"):
            raise MoveSyntaxError("a move is a space, and 'neutral' when that colour is used")
        space = self.board.lookup(words[0])
        if space is None:
            raise MoveSyntaxError(
                f"'{words[0]}' is not a space of this field (1 to {len(self.ids)})"
            )
        return (space, len(words) == 2)

    def format_move(self, move: tuple[int, bool]) -> str:
        return self.ids[move[0]] + (" neutral" if move[1] else "")

    def scores(self, state: MondrianState) -> tuple[int, ...]:
        return state.scores

    def winners(self, state: MondrianState) -> list[int]:
        if not self.is_over(state):
            return []
        scores = state.scores
        team = self.teams.winners(scores)
        if team is not None:
            return team
        best = max(scores)
        return [p for p, s in enumerate(scores) if s == best]

    def final_marks(self, state: MondrianState) -> dict[tuple[int, str], str]:
        words = [self.colour_word(p) for p in range(len(self.players))]
        marks = {}
        for space, owner in enumerate(state.owners):
            if owner != EMPTY:
                marks[(1, self.ids[space])] = "neutral" if owner == NEUTRAL else words[owner]
        for item, word in tally_marks(self.sheet.page, state.scores, words).items():
            marks[(1, item)] = word
        return marks

    def check_final(self, position: Position) -> FinalReport:
        """A finished Mondrian field: no colour next to itself, one coloured region, and no
        space left that someone could still fill (unless a player's tallies reached the target).

        The score is the rectangles each fill completed, which depends on the order of the
        fills: the report says so and leaves the score to a transcript.
        """
        colours = position.colours_on(self.board)
        report = FinalReport(
            notes=["the points come from the order of the fills: check them from a transcript"]
        )
        owners = [self._owner_of(position, colour, k, report) for k, colour in enumerate(colours)]
        for a, b in same_colour_neighbours(self.board, colours):
            code = "neutral-next" if colours[a] == "neutral" else "own-colour"
            reason = f"two spaces next to each other are both {colours[a]}"
            report.breaches.append(Breach(code, reason, item_names(self.board, (a, b))))
        filled = [k for k, owner in enumerate(owners) if owner != EMPTY]
        groups = connected_groups(self.board, filled)
        if len(groups) > 1:
            apart = [k for group in groups[1:] for k in group]
            reason = f"the coloured spaces form {len(groups)} regions, not one"
            report.breaches.append(Breach("apart", reason, item_names(self.board, apart)))
        tallies = count_tallies(position) or []
        if not any(t >= self.target for t in tallies):
            self._check_finished(owners, report)
        return report

    def _owner_of(self, position: Position, colour: str | None, k: int, report: FinalReport) -> int:
        if colour is None:
            return EMPTY
        if colour == "neutral":
            if not self.neutral:
                reason = "four players play without the neutral colour"
                report.breaches.append(Breach("no-neutral", reason, item_names(self.board, [k])))
            return NEUTRAL
        owner = position.player_of(colour)
        if owner is None:
            reason = f"'{colour}' is no player's colour"
            report.breaches.append(Breach("not-a-colour", reason, item_names(self.board, [k])))
            return NEUTRAL
        return owner

    def _check_finished(self, owners: list[int], report: FinalReport) -> None:
        state = MondrianState(tuple(owners), (0,) * len(self.players))
        for player in range(len(self.players)):
            open_spaces = sorted({space for space, _ in self._moves_for(state, player)})
            if open_spaces:
                name = self.players[player].name
                reason = (
                    f"the game is not over: {name} could still fill {len(open_spaces)} "
                    "space(s), and nobody's tallies reached the target"
                )
                shown = item_names(self.board, open_spaces[:5])
                report.breaches.append(Breach("unfinished", reason, shown))
                return


RULES = MondrianRules
