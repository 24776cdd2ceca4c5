"""Klee's rules: set up colour sequences, then colour spaces and score sequences in lines."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.errors import SpecError
from papergames.layouts.klee.coordinates import coordinates
from papergames.layouts.klee.params import PARAMS as SHEET_PARAMS
from papergames.layouts.klee.sheet import KleePageData
from papergames.play.clicks import ClickStep, narrow
from papergames.play.final import MARKED
from papergames.play.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.sheets.board import Board
from papergames.sheets.model import Sheet, data_as
from papergames.sheets.params import Param, ParamSet

KLEE_COLOURS = ("R", "Y", "B", "G")
"""The four pencils, shared by both players: red, yellow, blue, green."""


COLOUR_WORDS = ("red", "yellow", "blue", "green")
"""The words a ``final:`` line uses for :data:`KLEE_COLOURS`, in the same order."""


LEGEND = {c: f"box-legend-{w}" for c, w in zip(KLEE_COLOURS, COLOUR_WORDS, strict=True)}
"""The key's colour box of each pencil, clicked to choose a colour on screen."""


STANDARD_SEQUENCES = 4


LEAD_TO_WIN = 5


def table_points(formed: int) -> int:
    """Points for ``formed`` sequences made by one move in the table variation: k(k+1)/2.

    Example:
        >>> [table_points(k) for k in range(1, 9)]
        [1, 3, 6, 10, 15, 21, 28, 36]
    """
    return formed * (formed + 1) // 2


def _area_order(standard: Sequence[int], areas: int) -> list[int]:
    """The area (numbered from 1, left to right as its player sees it) each sequence goes in.

    The four standard sequences go into the starred areas in order; with ``all_areas`` the
    later ones fill the unstarred areas from the player's left, which is our convention (the
    book only says that experienced players use them all).

    Example:
        >>> _area_order([2, 3, 4, 5], 6)
        [2, 3, 4, 5, 1, 6]
        >>> _area_order([3, 4, 5, 6], 8)
        [3, 4, 5, 6, 1, 2, 7, 8]
    """
    return [*standard, *(a for a in range(1, areas + 1) if a not in standard)]


def _same_sequence(a: str, b: str) -> bool:
    """Sequences are read in either direction, so a reversed copy is the same sequence."""
    return a == b or a == b[::-1]


@dataclass(frozen=True)
class KleeState:
    """The sequences set so far (player 1's and 2's in turn), the field, scores, the winner."""

    sequences: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    field: tuple[str, ...] = ()
    scores: tuple[int, int] = (0, 0)
    turn: int = 0
    winner: tuple[int, ...] | None = None


@dataclass(frozen=True)
class KleeOptions:
    """The engine's options, typed."""

    all_areas: bool
    table: bool
    track: int


class KleeRules(Rules[KleeState, tuple[int, str]]):
    """Klee: set up colour sequences, then colour spaces and score one's sequences in lines.

    Moves: in the set-up a sequence of three colour letters (``RYB``; move = (-1, "RYB"));
    afterwards a space and a colour, ``c5 R`` by the grid name printed round the field (or
    ``space-17 R`` by its id; move = (space index, "R")), written back by its grid name. The
    colours are R, Y, B and G. Options: ``all_areas`` (the experienced game: a sequence in
    every area of the sheet, six each on the default sheet; the ones after the fourth are free,
    see :meth:`_sequence_problem`), ``table`` (the variation: k sequences at once score
    k(k+1)/2, no five-point lead win) and ``track`` (the box the players agreed to cut the
    track at, 10 up to the printed track; 0 keeps the whole track, :meth:`_goal`). The points
    needed to win are the track's length.

    The finished sheet (:meth:`final_marks`) names the field's colours with the words of
    :attr:`extra_colours`, because no colour belongs to a player; it does not decide the
    score, which depends on the order of the fills, so :meth:`check_final` keeps the base
    class's note that a transcript of the moves is needed.
    """

    game = "klee"
    notation = (
        "set-up: three colour letters (RYB); play: the space by its grid name and a colour, "
        "c5 R (colours R, Y, B, G; space-17 R names it by its model id)"
    )
    options = ParamSet(
        [
            Param.bool("all_areas", False, "use every sequence area (experienced players)"),
            Param.bool("table", False, "several sequences at once score a triangular number"),
            Param.int(
                "track",
                0,
                0,
                60,
                "cut the track short at this box (10 up to the printed track), the points "
                "that win; 0: no cut-off, the whole track",
            ),
        ]
    )
    option_shape = KleeOptions
    extra_colours = COLOUR_WORDS
    click_targets = tuple(LEGEND.values())

    @staticmethod
    def _goal(cut: int, printed: int) -> int:
        """The points that win: the whole printed track, or the box it is cut at.

        The rules let the players cut the track "at any point agreed to in advance", for a
        shorter game. A cut is taken from the shortest track a sheet prints
        (:data:`~papergames.layouts.klee.sheet.PARAMS`' ``track``, 10) to the printed track.
        Shorter, a few lucky sequences decide the game (one colouring may form several), at 5
        or less the five-point lead could never decide it, and at 1 the first sequence wins.

        Raises:
            SpecError: one line naming ``track``, the value and the boxes it may be cut at.

        Example:
            >>> KleeRules._goal(0, 30), KleeRules._goal(12, 30)
            (30, 12)
            >>> KleeRules._goal(3, 30)
            Traceback (most recent call last):
            ...
            papergames.errors.SpecError: track=3 is not allowed: track takes 0 (no cut-off) or ...
        """
        if cut == 0:
            return printed
        shortest = int(SHEET_PARAMS["track"].low or 0)
        if shortest <= cut <= printed:
            return cut
        why = (
            "the players may only cut the track short"
            if cut > printed
            else f"a track cut shorter than {shortest} is not a game"
        )
        raise SpecError(
            f"track={cut} is not allowed: track takes 0 (no cut-off) or a box from {shortest} "
            f"to {printed}, this sheet's track; {why}"
        )

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        self.opts = self.options.read(KleeOptions, self.option_values)
        page = sheet.page
        data = data_as(page.data, KleePageData)
        # A labelled sheet prints grid coordinates (c5) round the field; any sheet takes them.
        grid = coordinates(data["size"])
        board = Board.of(page).named(grid)
        self.board = board
        self.grid = grid
        by_id = {fid: name for name, fid in grid.items()}
        self.grid_names = [by_id[fid] for fid in board.ids]
        self.ids = board.ids
        self.index = board.index
        # Each player has as many areas as the sheet prints (``areas``, six by default); the
        # standard game uses the four starred ones. ``standard`` always lists four, so it
        # cannot say how many the experienced game fills.
        self.areas = len(data["sequences"]["1"])
        self.per_player = self.areas if self.opts.all_areas else STANDARD_SEQUENCES
        self.area_order = _area_order(data["standard"], self.areas)
        self.lanes = [data["track"][str(p)] for p in (1, 2)]
        printed = data["track_length"]
        self.goal = self._goal(self.opts.track, printed)
        lines = [*data["rows"], *data["columns"], *data["diagonals"]]
        self.triples: list[list[tuple[int, int, int]]] = [[] for _ in self.ids]
        for line in lines:
            ks = [self.index[i] for i in line]
            for a, b, c in zip(ks, ks[1:], ks[2:], strict=False):
                for k in (a, b, c):
                    self.triples[k].append((a, b, c))
        self.touching = board.touching

    def initial(self) -> KleeState:
        return KleeState(field=("",) * len(self.ids))

    def _setting_up(self, state: KleeState) -> bool:
        return len(state.sequences[1]) < self.per_player

    def to_move(self, state: KleeState) -> int | None:
        if state.winner is not None:
            return None
        return state.turn

    # -- set-up ----------------------------------------------------------------------------

    def _sequence_problem(self, state: KleeState, player: int, seq: str) -> str | None:
        """Why ``seq`` cannot be this player's next sequence, or ``None``.

        The book gives the make-up of the four standard sequences only; the ones after them
        (``all_areas``) may be any three colours that copy neither the opponent's nor one's
        own sequences, since a repeat would score the same lines twice.
        """
        own = state.sequences[player]
        number = len(own) + 1
        if len(seq) != 3 or set(seq) - set(KLEE_COLOURS):
            return f"a sequence is three of the colours {', '.join(KLEE_COLOURS)}"
        other = state.sequences[1 - player]
        if any(_same_sequence(seq, s) for s in other):
            return "it copies a sequence of the opponent (read either way)"
        if number in (1, 2):
            if len(set(seq)) != 3:
                return f"sequence {number} uses three different colours"
            if number == 2 and set(seq) == set(own[0]):
                return "sequence 2 brings in the colour sequence 1 left out"
        elif number in (3, 4):
            if seq[0] != seq[2] or seq[0] == seq[1]:
                return f"sequence {number} uses two colours, the two ends alike"
            if number == 4 and set(seq) == set(own[2]):
                return "sequence 4 may not use the same two colours as sequence 3"
        elif any(_same_sequence(seq, s) for s in own):
            return "it repeats one of your own sequences"
        return None

    def _all_sequences(self) -> Iterator[str]:
        for a in KLEE_COLOURS:
            for b in KLEE_COLOURS:
                for c in KLEE_COLOURS:
                    yield a + b + c

    # -- play ------------------------------------------------------------------------------

    def _open_spaces(self, state: KleeState) -> Iterator[int]:
        if not any(state.field):
            yield from range(len(self.ids))
            return
        for k, c in enumerate(state.field):
            if not c and any(state.field[n] for n in self.touching[k]):
                yield k

    def _is_open(self, state: KleeState, space: int) -> bool:
        """Whether ``space`` is one of :meth:`_open_spaces`, without listing them all: each move
        asked that of every space on the field."""
        if state.field[space]:
            return False
        return not any(state.field) or any(state.field[n] for n in self.touching[space])

    def legal_moves(self, state: KleeState) -> Iterator[tuple[int, str]]:
        player = self.to_move(state)
        if player is None:
            return
        if self._setting_up(state):
            for seq in self._all_sequences():
                if self._sequence_problem(state, player, seq) is None:
                    yield (-1, seq)
            return
        for k in self._open_spaces(state):
            for colour in KLEE_COLOURS:
                yield (k, colour)

    def _formed(self, field: Sequence[str], space: int, sequences: Sequence[str]) -> int:
        """How many of ``sequences`` the colouring of ``space`` completes, each place counted."""
        count = 0
        for a, b, c in self.triples[space]:
            if field[a] and field[b] and field[c]:
                read = field[a] + field[b] + field[c]
                count += sum(1 for s in set(sequences) if _same_sequence(read, s))
        return count

    def apply(self, state: KleeState, move: tuple[int, str]) -> KleeState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        space, text = move
        if self._setting_up(state):
            if space != -1:
                raise IllegalMove("set-up", "first both players set their sequences")
            why = self._sequence_problem(state, player, text)
            if why is not None:
                raise IllegalMove("bad-sequence", f"{text} cannot be set: {why}")
            seqs = list(state.sequences)
            seqs[player] = (*seqs[player], text)
            return KleeState((seqs[0], seqs[1]), state.field, state.scores, 1 - player)
        if space == -1:
            raise IllegalMove("play", "the sequences are set: colour a space")
        name = f"{self.grid_names[space]} ({self.ids[space]})"
        if state.field[space]:
            raise IllegalMove("coloured", f"{name} is already coloured")
        if not self._is_open(state, space):
            raise IllegalMove(
                "not-touching", f"{name} touches no coloured space, along a side or at a corner"
            )
        field = list(state.field)
        field[space] = text
        formed = self._formed(field, space, state.sequences[player])
        gained = table_points(formed) if self.opts.table else formed
        scores = list(state.scores)
        scores[player] += gained
        winner: tuple[int, ...] | None = None
        reached = scores[player] >= self.goal
        ahead = scores[player] - scores[1 - player] >= LEAD_TO_WIN
        if reached or (ahead and not self.opts.table):
            winner = (player,)
        elif all(field):
            best = max(scores)
            winner = tuple(p for p in (0, 1) if scores[p] == best)
        return KleeState(state.sequences, tuple(field), (scores[0], scores[1]), 1 - player, winner)

    # -- clicking ----------------------------------------------------------------------------

    def click_step(self, state: KleeState, clicks: tuple[str, ...]) -> ClickStep | None:
        """A sequence is clicked colour by colour in the key (the four colour boxes), and shows
        in the player's next sequence area as it is clicked; a space is clicked, then its
        colour in the key (or one of the four offered)."""
        player = self.to_move(state)
        if player is None:
            return None
        if self._setting_up(state):
            return self._sequence_clicks(state, player, clicks)
        moves = [
            (self.format_move(m), (self.ids[m[0]], LEGEND[m[1]])) for m in self.legal_moves(state)
        ]
        if clicks[0] in LEGEND.values():
            return ClickStep(reason="click the space first, then its colour in the key")
        space = self.board.lookup(clicks[0])
        shown = clicks[0] if space is None else self.grid_names[space]
        step = narrow(moves, clicks, hint=f"colour {shown}: click its colour in the key")
        if step.reason and space is not None and len(clicks) == 1:
            try:
                self.apply(state, (space, KLEE_COLOURS[0]))
            except IllegalMove as exc:
                return ClickStep(reason=exc.reason)
        return step

    def _sequence_clicks(self, state: KleeState, player: int, clicks: tuple[str, ...]) -> ClickStep:
        colour_of = {box: c for c, box in LEGEND.items()}
        number = len(state.sequences[player]) + 1
        if any(click not in colour_of for click in clicks):
            return ClickStep(
                reason=f"sequence {number} is set by clicking three colours in the key, one by one"
            )
        letters = "".join(colour_of[click] for click in clicks)
        area = self.area_order[number - 1]
        marks = tuple(
            (f"box-seq{player + 1}-{area}-{k}", COLOUR_WORDS[KLEE_COLOURS.index(c)])
            for k, c in enumerate(letters, start=1)
        )
        moves = [(m[1], tuple(LEGEND[c] for c in m[1])) for m in self.legal_moves(state)]
        hint = f"sequence {number}: {'-'.join(letters)}, click the next colour in the key"
        step = narrow(moves, clicks, hint=hint)
        if step.reason:
            tails = ("".join(t) for t in itertools.product(KLEE_COLOURS, repeat=3 - len(letters)))
            why = next(
                why
                for tail in tails
                if (why := self._sequence_problem(state, player, letters + tail)) is not None
            )
            return ClickStep(reason=f"no sequence {number} starts {'-'.join(letters)}: {why}")
        return dataclasses.replace(step, marks=marks)

    def parse_move(self, text: str, state: KleeState) -> tuple[int, str]:
        words = text.split()
        if len(words) == 1 and len(words[0]) == 3:
            return (-1, words[0].upper())
        if len(words) != 2:
            raise MoveSyntaxError("a move is a sequence (RYB) or a space and a colour (space-17 R)")
        space = self.board.lookup(words[0])
        if space is None:
            raise MoveSyntaxError(
                f"'{words[0]}' is not a space (a grid name like c5, or space-1 .. "
                f"space-{len(self.ids)})"
            )
        colour = words[1].upper()
        if colour not in KLEE_COLOURS:
            raise MoveSyntaxError(
                f"'{words[1]}' is not one of the colours {', '.join(KLEE_COLOURS)}",
                len(words[0]) + 2,
            )
        return (space, colour)

    def format_move(self, move: tuple[int, str]) -> str:
        return move[1] if move[0] == -1 else f"{self.grid_names[move[0]]} {move[1]}"

    def move_items(self, move: tuple[int, str]) -> tuple[str, ...]:
        """A colouring's space (its id: the move names it by its grid name); a sequence names
        no item of the field."""
        return () if move[0] == -1 else (self.ids[move[0]],)

    def scores(self, state: KleeState) -> tuple[int, ...]:
        return state.scores

    def winners(self, state: KleeState) -> list[int]:
        return [] if state.winner is None else list(state.winner)

    # -- the finished sheet ------------------------------------------------------------------

    def printed_names(self) -> Mapping[str, str]:
        return self.grid

    def final_marks(self, state: KleeState) -> dict[tuple[int, str], str]:
        """The field's spaces and the sequence areas in colour words, and each lane marked up
        to its player's score (the track holds no more than its boxes).

        The lanes' colour boxes (``box-lane-<p>``) are left out, and the lanes are only marked:
        which pencil a player marked their lane with is not part of the game.
        """
        word = dict(zip(KLEE_COLOURS, COLOUR_WORDS, strict=True))
        marks = {(1, self.ids[k]): word[c] for k, c in enumerate(state.field) if c}
        for p, sequences in enumerate(state.sequences):
            for area, seq in zip(self.area_order, sequences, strict=False):
                for position, colour in enumerate(seq, start=1):
                    marks[(1, f"box-seq{p + 1}-{area}-{position}")] = word[colour]
        for p, lane in enumerate(self.lanes):
            for box in lane[: state.scores[p]]:
                marks[(1, box)] = MARKED
        return marks


RULES = KleeRules
