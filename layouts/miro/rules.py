"""Miro's rules: colour runs of segments along the line; closing a space captures it."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.layouts.miro.sheet import PageData, SegmentData, SpaceData
from papergames.play.clicks import ClickStep, narrow
from papergames.play.rules import IllegalMove, MoveSyntaxError, Player, Rules
from papergames.play.teams import (
    PARTNERSHIP_OPTION,
    TEAMS_OPTION,
    TeamPlay,
)
from papergames.sheets.board import Board
from papergames.sheets.model import Kind, Sheet, data_as
from papergames.sheets.params import ParamSet

FREE = -1
"""Owner of a segment nobody has coloured yet, or of a space nobody has captured."""


OPENING = (1, 2, 3)
"""Segments the first, second and third moves colour; every later move colours one to three."""


LONGEST = 3
"""Most segments one move colours."""


_WORD = re.compile(r"[^\s,]+")


_ITEM = re.compile(r"(?:segment-)?(\d+)(?:\.\.(?:segment-)?(\d+))?", re.IGNORECASE)


_ORDINAL = ("first", "second", "third")


@dataclass(frozen=True)
class MiroMove:
    """Colour a run of segments.

    ``run`` holds the segments' places along the line (0-based indices into the page's
    ``path``, so place ``k`` is ``segment-<k+1>``) in the order they are coloured: the first
    one next to the segment coloured last.
    """

    run: tuple[int, ...]


@dataclass(frozen=True)
class MiroState:
    """Who coloured each segment (by place along the line) and captured each space, the scores,
    and where the line is being coloured.

    Attributes:
        moves: moves made so far (the mover is ``moves % players``).
        first: place of the segment the first move coloured (-1 before it).
        head: place of the segment coloured last (-1 before the first move).
        way: +1 when play runs forwards along ``path`` (segment numbers going up), -1 when it
            runs backwards, 0 until the second move has chosen.
    """

    segments: tuple[int, ...]
    spaces: tuple[int, ...]
    scores: tuple[int, ...]
    moves: int = 0
    first: int = -1
    head: int = -1
    way: int = 0


@dataclass(frozen=True)
class MiroOptions:
    """The engine's options, typed."""

    teams: bool
    partnership: str


class MiroRules(Rules[MiroState, MiroMove]):
    """Miro: colour runs of segments along one closed line; closing a space captures it.

    The first move colours one segment, the second two segments continuing the line from
    either end of it, the third three continuing from the second's far end, and every later
    move one, two or three continuing from the segment coloured last. A run follows the line
    straight through crossings (the order of the page's ``path``), so the coloured part is
    always one unbroken stretch of the line, and after the second move play always runs the
    same way round. A run may not pass a segment already coloured: near the end it stops short
    of the first segment, and the game ends when the line is coloured all round. The move that
    colours the last uncoloured segment around a space captures it and scores one point for
    each segment around it in the mover's colour.

    Moves (the sheet prints no names: model ids, numbered along the line):

    * ``segment-17``: one segment;
    * ``segment-17..19``: a run along the line from segment-17 to segment-19, written from the
      end next to the segment coloured last; ``segment-19..17`` runs backwards. The numbering
      wraps round the closed line: with 209 segments, ``segment-208..1`` is 208, 209, 1.
    * ``segment-17 segment-18 segment-19`` (or ``17 18 19``): the same run, one by one.

    Options: ``teams`` (four players, partners 1+3 against 2+4) and ``partnership`` (the
    book's partnership variations: add, double-lower, double-higher).
    """

    game = "miro"
    notation = (
        "segment-17 (one segment), segment-17..19 (a run along the line, written from the end "
        "next to the segment coloured last; segment-19..17 runs backwards; numbers wrap round "
        "the closed line), or the segments one by one: segment-17 segment-18; the numbers "
        "alone (17..19) as a labelled sheet prints them"
    )
    options = ParamSet(
        [
            TEAMS_OPTION,
            PARTNERSHIP_OPTION,
        ]
    )
    option_shape = MiroOptions

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        opts = self.options.read(MiroOptions, self.option_values)
        self.table = TeamPlay.of(opts.teams, opts.partnership, players=len(players))
        page = sheet.page
        self.segment_ids: list[str] = list(data_as(page.data, PageData)["path"])
        self.place: dict[str, int] = {sid: k for k, sid in enumerate(self.segment_ids)}
        segments = Board.of(page, Kind.SEGMENT)
        spaces = Board.of(page, Kind.SPACE)
        self.space_ids = spaces.ids
        self.segment_spaces: list[tuple[int, ...]] = [
            tuple(
                spaces.index[s]
                for s in data_as(segments.features[segments.index[sid]].data, SegmentData)["spaces"]
            )
            for sid in self.segment_ids
        ]
        self.space_segments: list[tuple[int, ...]] = [
            tuple(self.place[s] for s in data_as(f.data, SpaceData)["segments"])
            for f in spaces.features
        ]
        self.size = len(self.segment_ids)

    # -- state -------------------------------------------------------------------------------

    def initial(self) -> MiroState:
        return MiroState(
            (FREE,) * self.size, (FREE,) * len(self.space_ids), (0,) * len(self.players)
        )

    def to_move(self, state: MiroState) -> int | None:
        if FREE not in state.segments:
            return None
        return state.moves % len(self.players)

    def scores(self, state: MiroState) -> tuple[int, ...]:
        return state.scores

    def winners(self, state: MiroState) -> list[int]:
        team = self.table.winners(state.scores) if self.is_over(state) else None
        return super().winners(state) if team is None else team

    def captured(self, state: MiroState) -> tuple[int, ...]:
        """How many spaces each player has captured."""
        return tuple(state.spaces.count(p) for p in range(len(self.players)))

    def claims(self, state: MiroState) -> dict[str, tuple[int, ...]]:
        return {"spaces": self.captured(state), **self.table.claims(state.scores)}

    def describe(self, state: MiroState) -> list[str]:
        names = [p.name for p in self.players]
        spaces = ", ".join(f"{n} {c}" for n, c in zip(names, self.captured(state), strict=True))
        return [f"spaces captured: {spaces}", *self.table.describe(names, state.scores)]

    # -- runs --------------------------------------------------------------------------------

    def lengths(self, state: MiroState) -> tuple[int, ...]:
        """How many segments the next move may colour."""
        if state.moves < len(OPENING):
            return (OPENING[state.moves],)
        return tuple(range(1, LONGEST + 1))

    def starts(self, state: MiroState) -> list[tuple[int, int]]:
        """Where the next run may begin and which way it runs: (place, +1 or -1). Empty before
        the first move, which may colour any segment."""
        if state.moves == 0:
            return []
        if state.moves == 1:
            return [((state.first + 1) % self.size, 1), ((state.first - 1) % self.size, -1)]
        return [((state.head + state.way) % self.size, state.way)]

    def _along(self, start: int, way: int, count: int) -> tuple[int, ...]:
        return tuple((start + k * way) % self.size for k in range(count))

    def _way(self, run: Sequence[int]) -> int | None:
        """+1 or -1 when the run's segments follow each other along the line that way (0 for a
        single segment), ``None`` when they do not."""
        if len(run) == 1:
            return 0
        way = 1 if (run[1] - run[0]) % self.size == 1 else -1
        if len(set(run)) != len(run):
            return None
        if any((b - a) % self.size != way % self.size for a, b in itertools.pairwise(run)):
            return None
        return way

    # -- moves -------------------------------------------------------------------------------

    def legal_moves(self, state: MiroState) -> Iterator[MiroMove]:
        if self.to_move(state) is None:
            return
        if state.moves == 0:
            for place in range(self.size):
                yield MiroMove((place,))
            return
        for start, way in self.starts(state):
            for count in self.lengths(state):
                run = self._along(start, way, count)
                if all(state.segments[s] == FREE for s in run):
                    yield MiroMove(run)

    def _check(self, state: MiroState, run: tuple[int, ...]) -> int:
        """The way the run goes (0 for the first move), or :class:`IllegalMove` saying why the
        run may not be coloured now."""
        if any(not 0 <= s < self.size for s in run):
            raise IllegalMove("no-segment", "the move names a segment this field does not have")
        lengths = self.lengths(state)
        if len(run) not in lengths:
            if state.moves < len(OPENING):
                want = lengths[0]
                raise IllegalMove(
                    "length",
                    f"the {_ORDINAL[state.moves]} move colours exactly {want} "
                    f"segment{'s' if want > 1 else ''}, not {len(run)}",
                )
            raise IllegalMove(
                "length", f"a move colours one, two or three segments, not {len(run)}"
            )
        way = self._way(run)
        if way is None:
            raise IllegalMove(
                "not-continuous",
                f"{', '.join(self.segment_ids[s] for s in run)} do not follow one another "
                "along the line",
            )
        if state.moves == 0:
            return 0
        starts = self.starts(state)
        for start, w in starts:
            if run[0] == start and way in (0, w):
                for s in run:
                    if state.segments[s] != FREE:
                        left = state.segments.count(FREE)
                        raise IllegalMove(
                            "coloured",
                            f"{self.segment_ids[s]} is already coloured: a run may not pass it "
                            f"(only {left} segment{'s' if left > 1 else ''} left to colour)",
                        )
                return w
        back = run[::-1]
        if any(back[0] == start and -way == w for start, w in starts):
            raise IllegalMove(
                "order",
                f"write the run from the end next to the segment coloured last: "
                f"{self.format_move(MiroMove(back))}",
            )
        if state.moves == 1:
            (a, _), (b, _) = starts
            first = self.segment_ids[state.first]
            raise IllegalMove(
                "not-continuing",
                f"the second move continues the line from either end of {first}: it starts at "
                f"{self.segment_ids[a]} or {self.segment_ids[b]}",
            )
        (start, _w), *_ = starts
        raise IllegalMove(
            "not-continuing",
            f"the run must continue the line from {self.segment_ids[state.head]}, coloured "
            f"last: it starts at {self.segment_ids[start]}",
        )

    def apply(self, state: MiroState, move: MiroMove) -> MiroState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over: every segment is coloured")
        run = move.run
        if not run:
            raise IllegalMove("length", "a move colours at least one segment")
        way = self._check(state, run)
        segments = list(state.segments)
        for s in run:
            segments[s] = player
        spaces = list(state.spaces)
        scores = list(state.scores)
        for s in run:
            for k in self.segment_spaces[s]:
                around = self.space_segments[k]
                if spaces[k] == FREE and all(segments[t] != FREE for t in around):
                    spaces[k] = player
                    scores[player] += sum(1 for t in around if segments[t] == player)
        return MiroState(
            tuple(segments),
            tuple(spaces),
            tuple(scores),
            state.moves + 1,
            run[0] if state.moves == 0 else state.first,
            run[-1],
            way if state.moves else 0,
        )

    # -- on screen ---------------------------------------------------------------------------

    def move_items(self, move: MiroMove) -> tuple[str, ...]:
        """A run's segments, in the order they are coloured."""
        return tuple(self.segment_ids[s] for s in move.run if 0 <= s < self.size)

    def click_step(self, state: MiroState, clicks: tuple[str, ...]) -> ClickStep | None:
        """A run is clicked segment by segment, in the order it is coloured; a segment that
        may end the run or go on offers both."""
        if self.to_move(state) is None:
            return None
        moves = [(self.format_move(m), self.move_items(m)) for m in self.legal_moves(state)]
        step = narrow(moves, clicks, hint="click the run's next segment, or choose")
        if step.reason and len(clicks) == 1:
            try:
                self.apply(state, MiroMove((self.place[clicks[0]],)))
            except IllegalMove as exc:
                if exc.code != "length":
                    return ClickStep(reason=exc.reason)
            except KeyError:
                return ClickStep(reason=f"{clicks[0]} is not a segment of the line")
        return step

    # -- notation ----------------------------------------------------------------------------

    def printed_names(self) -> Mapping[str, str]:
        """A labelled sheet prints each segment's number on it, so a bare number is a segment."""
        return {sid.partition("-")[2]: sid for sid in self.segment_ids}

    def _number(self, digits: str, word: str, col: int) -> int:
        place = self.place.get(f"segment-{int(digits)}")
        if place is None:
            raise MoveSyntaxError(
                f"'{word}' names no segment of this field (segment-1 to segment-{self.size})",
                col,
            )
        return place

    def parse_move(self, text: str, state: MiroState) -> MiroMove:
        run: list[int] = []
        for m in _WORD.finditer(text):
            word, col = m.group(0), m.start() + 1
            item = _ITEM.fullmatch(word)
            if item is None:
                raise MoveSyntaxError(
                    f"'{word}' is not a segment or a run (as segment-17 or segment-17..19)", col
                )
            a = self._number(item.group(1), word, col + item.start(1))
            if item.group(2) is None:
                run.append(a)
                continue
            b = self._number(item.group(2), word, col + item.start(2))
            forward, backward = (b - a) % self.size, (a - b) % self.size
            if min(forward, backward) >= LONGEST:
                raise MoveSyntaxError(
                    f"'{word}' spans more than {LONGEST} segments along the line either way",
                    col,
                )
            way, steps = (1, forward) if forward <= backward else (-1, backward)
            run.extend(self._along(a, way, steps + 1))
        if not run:
            raise MoveSyntaxError(f"a move is a run of segments: {self.notation}")
        return MiroMove(tuple(run))

    def format_move(self, move: MiroMove) -> str:
        run = move.run
        if all(0 <= s < self.size for s in run):
            if 1 < len(run) <= LONGEST and self._way(run):
                last = self.segment_ids[run[-1]].removeprefix("segment-")
                return f"{self.segment_ids[run[0]]}..{last}"
            return " ".join(self.segment_ids[s] for s in run)
        return " ".join(f"segment-{s + 1}" for s in run)


RULES = MiroRules
