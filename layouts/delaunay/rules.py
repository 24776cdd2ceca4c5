"""Delaunay's rules: fill a section space by space; whoever cannot colour loses a point."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from papergames.layouts.delaunay.sheet import PageData
from papergames.play.final import MARKED, item_names
from papergames.play.rules import (
    Breach,
    FinalReport,
    IllegalMove,
    MoveSyntaxError,
    Player,
    Position,
    Rules,
)
from papergames.play.teams import team_scores
from papergames.sheets.board import Board
from papergames.sheets.model import Sheet, data_as

EMPTY = -1
LOSS_ID = re.compile(r"box-loss(\d+)-(\d+)")
"""Colour of a space nobody has coloured."""


COLOURS = ("red", "blue", "yellow", "green")
"""The colours in seat order: the book's illustrated game (red first, then blue, yellow,
green; red and yellow partners). Two players play red + yellow and blue + green."""


LETTERS = {c[0].upper(): k for k, c in enumerate(COLOURS)} | {c: k for k, c in enumerate(COLOURS)}
"""A colour by its letter (R, B, Y, G) or its word."""


OPENING = -1
"""The section in play when a section is to be opened (at the start and after a completion)."""


@dataclass(frozen=True)
class DelaunayMove:
    """Colour a space, or (``space`` None) mark off a loss box.

    ``colour`` is the colour index (:data:`COLOURS`), or ``None`` for the mover's only colour
    (three or four players, written without a colour).
    """

    space: int | None
    colour: int | None = None


LOSS = DelaunayMove(None)


@dataclass(frozen=True)
class DelaunayState:
    """The colour of each space, each player's losses, the completed sections, the section in
    play (:data:`OPENING` when one is to be opened) and whose turn it is."""

    colours: tuple[int, ...]
    losses: tuple[int, ...]
    completed: tuple[bool, ...]
    section: int = OPENING
    turn: int = 0


class DelaunayRules(Rules[DelaunayState, DelaunayMove]):
    """Delaunay: colour spaces section by section, next to coloured ones and never next to the
    same colour; a player who cannot colour loses a point, and so does everyone but the player
    who colours a section's last fillable space. Fewest points lost wins.

    Moves (model ids, as the sheet prints no names): ``space-17`` (or ``17``) colours a space;
    two players add the colour, ``space-17 R`` (player 1 plays R and Y, player 2 B and G);
    ``loss`` marks off a loss box when no space can be coloured. The other players' losses at
    the end of a section are marked automatically. Four players are two teams, partners 1+3
    and 2+4, sharing a row; three play each for themselves.
    """

    game = "delaunay"
    notation = (
        "space-17 (or 17) to colour a space, with the colour for two players (space-17 R: "
        "R, Y for player 1, B, G for player 2); loss to mark off a loss box"
    )

    extra_colours = COLOURS

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        page = sheet.page
        self.board = Board.of(page)
        self.ids = self.board.ids
        self.sections: list[list[int]] = [
            [self.board.index[i] for i in ids] for ids in data_as(page.data, PageData)["sections"]
        ]
        self.section_of = [0] * len(self.ids)
        for m, spaces in enumerate(self.sections):
            for k in spaces:
                self.section_of[k] = m
        self.neighbours = self.board.neighbours
        self.inside: list[tuple[int, ...]] = [
            tuple(n for n in near if self.section_of[n] == self.section_of[k])
            for k, near in enumerate(self.neighbours)
        ]
        count = len(players)
        self.game_colours = tuple(range(3 if count == 3 else 4))
        self.player_colours: list[tuple[int, ...]] = [
            tuple(c for c in self.game_colours if c % count == p) for p in range(count)
        ]

    # -- state -------------------------------------------------------------------------------

    def initial(self) -> DelaunayState:
        return DelaunayState(
            (EMPTY,) * len(self.ids),
            (0,) * len(self.players),
            (False,) * len(self.sections),
        )

    def to_move(self, state: DelaunayState) -> int | None:
        if all(state.completed):
            return None
        return state.turn

    def scores(self, state: DelaunayState) -> tuple[int, ...]:
        """Points lost by each player (with four, a team's row holds both partners' points)."""
        return state.losses

    def team_losses(self, state: DelaunayState) -> tuple[int, int]:
        """The two teams' rows (players 1+3, then 2+4) with four players."""
        return team_scores(state.losses)

    def totals(self, state: DelaunayState) -> tuple[int, ...]:
        """Each player's row total: their own losses, or their team's with four players."""
        if len(self.players) == 4:
            teams = self.team_losses(state)
            return tuple(teams[p % 2] for p in range(4))
        return state.losses

    def winners(self, state: DelaunayState) -> list[int]:
        """The players (or both partners of the team) with the fewest points lost."""
        if not self.is_over(state):
            return []
        totals = self.totals(state)
        best = min(totals)
        return [p for p, t in enumerate(totals) if t == best]

    def claims(self, state: DelaunayState) -> dict[str, tuple[int, ...]]:
        if len(self.players) != 4:
            return {}
        return {"team": self.totals(state)}

    def describe(self, state: DelaunayState) -> list[str]:
        empty = sum(1 for c in state.colours if c == EMPTY)
        lines = [f"spaces left empty: {empty}"]
        if len(self.players) == 4:
            a, b = self.team_losses(state)
            names = [p.name for p in self.players]
            lines.append(f"points lost: {names[0]} + {names[2]} {a}, {names[1]} + {names[3]} {b}")
        return lines

    # -- the rules of a fill -----------------------------------------------------------------

    def _why_not(self, state: DelaunayState, space: int, colour: int) -> tuple[str, str] | None:
        """Why ``colour`` may not go on ``space`` now (code, sentence), or ``None``."""
        name = self.ids[space]
        section = self.section_of[space]
        if state.colours[space] != EMPTY:
            return "filled", f"{name} is already coloured {COLOURS[state.colours[space]]}"
        if state.section == OPENING:
            if state.completed[section]:
                return "completed", f"{name} lies in section {section + 1}, already completed"
        else:
            if section != state.section:
                return (
                    "other-section",
                    f"play stays in section {state.section + 1} until it is completed; "
                    f"{name} lies in section {section + 1}",
                )
            if all(state.colours[n] == EMPTY for n in self.inside[space]):
                return (
                    "not-next",
                    f"{name} is not next to a coloured space of section {section + 1}",
                )
        for n in self.neighbours[space]:
            if state.colours[n] == colour:
                if self.section_of[n] == section:
                    return (
                        "same-colour",
                        f"{name} is next to {self.ids[n]}, already {COLOURS[colour]}",
                    )
                return (
                    "border-colour",
                    f"{name} is next to {self.ids[n]} of completed section "
                    f"{self.section_of[n] + 1}, already {COLOURS[colour]}",
                )
        return None

    def _fills(self, state: DelaunayState, player: int) -> Iterator[DelaunayMove]:
        """Every space and colour ``player`` may fill now."""
        if state.section == OPENING:
            spaces = [
                k for m, done in enumerate(state.completed) if not done for k in self.sections[m]
            ]
        else:
            spaces = self.sections[state.section]
        named = len(self.players) == 2
        for space in spaces:
            for colour in self.player_colours[player]:
                if self._why_not(state, space, colour) is None:
                    yield DelaunayMove(space, colour if named else None)

    def _fillable(self, colours: Sequence[int], section: int, opening: bool) -> bool:
        """Whether any colour of the game can still go on a space of ``section``: next to a
        coloured space of it (not needed when ``opening`` it) and to no space of that colour."""
        for space in self.sections[section]:
            if colours[space] != EMPTY:
                continue
            if not opening and all(colours[n] == EMPTY for n in self.inside[space]):
                continue
            around = {colours[n] for n in self.neighbours[space]}
            if any(c not in around for c in self.game_colours):
                return True
        return False

    def legal_moves(self, state: DelaunayState) -> Iterator[DelaunayMove]:
        player = self.to_move(state)
        if player is None:
            return
        any_fill = False
        for move in self._fills(state, player):
            any_fill = True
            yield move
        if not any_fill:
            yield LOSS

    def apply(self, state: DelaunayState, move: DelaunayMove) -> DelaunayState:
        player = self.to_move(state)
        if player is None:
            raise IllegalMove("game-over", "the game is over: every section is completed")
        count = len(self.players)
        name = self.players[player].name
        if move.space is None:
            example = next(self._fills(state, player), None)
            if example is not None:
                raise IllegalMove(
                    "can-fill",
                    f"{name} can still colour a space, for example {self.format_move(example)}: "
                    "a loss box is marked only when no space can be coloured",
                )
            losses = list(state.losses)
            losses[player] += 1
            return replace(state, losses=tuple(losses), turn=(player + 1) % count)
        if not 0 <= move.space < len(self.ids):
            raise IllegalMove("no-space", f"there is no space number {move.space + 1}")
        mine = self.player_colours[player]
        if move.colour is None:
            if len(mine) > 1:
                raise IllegalMove(
                    "no-colour",
                    f"{name} plays {' and '.join(COLOURS[c] for c in mine)}: name the colour",
                )
            colour = mine[0]
        else:
            colour = move.colour
        if colour not in mine:
            raise IllegalMove(
                "not-your-colour",
                f"{name} plays {' and '.join(COLOURS[c] for c in mine)}, not "
                f"{COLOURS[colour] if 0 <= colour < len(COLOURS) else colour}",
            )
        why = self._why_not(state, move.space, colour)
        if why is not None:
            raise IllegalMove(*why)
        colours = list(state.colours)
        colours[move.space] = colour
        section = self.section_of[move.space]
        if self._fillable(colours, section, opening=False):
            return replace(
                state, colours=tuple(colours), section=section, turn=(player + 1) % count
            )
        # The last fillable space: everyone else marks off a box, the section is completed, and
        # the same player opens a new one. A section that no colour can open any more (every
        # space next to every colour across its borders) is completed as it stands.
        losses = [n + (p != player) for p, n in enumerate(state.losses)]
        completed = list(state.completed)
        completed[section] = True
        for m, done in enumerate(completed):
            if not done and not self._fillable(colours, m, opening=True):
                completed[m] = True
        return DelaunayState(tuple(colours), tuple(losses), tuple(completed), OPENING, player)

    # -- notation ----------------------------------------------------------------------------

    def parse_move(self, text: str, state: DelaunayState) -> DelaunayMove:
        words = text.split()
        if not words:
            raise MoveSyntaxError(f"a move is a space or 'loss': {self.notation}")
        first = words[0]
        column = text.index(first) + 1
        if first.lower() == "loss":
            if len(words) > 1:
                raise MoveSyntaxError("'loss' stands alone", text.index(words[1], column) + 1)
            return LOSS
        space = self.board.lookup(first)
        if space is None:
            raise MoveSyntaxError(
                f"'{first}' is not a space of this field (space-1 to space-{len(self.ids)}) "
                "nor 'loss'",
                column,
            )
        if len(words) > 2:
            raise MoveSyntaxError(
                "a move is a space and at most a colour", text.index(words[2], column) + 1
            )
        if len(words) == 1:
            if len(self.players) == 2:
                raise MoveSyntaxError(
                    "two players name the colour too, as space-17 R (player 1 plays R or Y, "
                    "player 2 B or G)",
                    len(text.rstrip()) + 1,
                )
            return DelaunayMove(space)
        word = words[1]
        colour = LETTERS.get(word.lower() if len(word) > 1 else word.upper())
        if colour is None:
            raise MoveSyntaxError(
                f"'{word}' is not a colour (R, B, Y, G or red, blue, yellow, green)",
                text.index(word, column + len(first)) + 1,
            )
        return DelaunayMove(space, colour)

    def format_move(self, move: DelaunayMove) -> str:
        if move.space is None:
            return "loss"
        text = self.ids[move.space]
        if move.colour is not None:
            text += f" {COLOURS[move.colour][0].upper()}"
        return text

    # -- the finished sheet ------------------------------------------------------------------

    @classmethod
    def seats_from_boxes(cls, params: Mapping[str, Any], coloured: frozenset[str]) -> int | None:
        """Three players leave green out (the sheet says so under the boxes); with green in play
        it is two players, or four in two teams, whose colours fall the same way."""
        return 2 if COLOURS[3] in coloured else 3

    def final_marks(self, state: DelaunayState) -> dict[tuple[int, str], str]:
        marks = {(1, self.ids[k]): COLOURS[c] for k, c in enumerate(state.colours) if c >= 0}
        rows = self.totals(state)[:2] if len(self.players) == 4 else state.losses
        page_ids = set(self.sheet.page.ids())
        for row, count in enumerate(rows, start=1):
            for k in range(1, count + 1):
                if f"box-loss{row}-{k}" in page_ids:
                    marks[(1, f"box-loss{row}-{k}")] = MARKED
        return marks

    def check_final(self, position: Position) -> FinalReport:
        """A finished Delaunay sheet: no colour next to itself (within a section, or across the
        border of a completed one), every section completed, and at least the losses that
        completing the coloured sections gave.

        Who lost each point depends on who coloured each section's last space, so the sheet
        shows a lower bound on the losses, not each player's count.
        """
        report = FinalReport()
        colours = self._final_colours(position, report)
        for a, near in enumerate(self.neighbours):
            for b in near:
                if a < b and colours[a] != EMPTY and colours[a] == colours[b]:
                    inside = self.section_of[a] == self.section_of[b]
                    code = "same-colour" if inside else "border-colour"
                    where = "in one section" if inside else "across a section border"
                    reason = f"two spaces next to each other {where} are both {COLOURS[colours[a]]}"
                    report.breaches.append(Breach(code, reason, item_names(self.board, (a, b))))
        open_sections = [
            m + 1
            for m, spaces in enumerate(self.sections)
            if self._fillable(colours, m, opening=all(colours[k] == EMPTY for k in spaces))
        ]
        if open_sections:
            listed = ", ".join(str(m) for m in open_sections)
            reason = f"the game is not over: section(s) {listed} can still be coloured"
            report.breaches.append(Breach("unfinished", reason))
        played = sum(1 for spaces in self.sections if any(colours[k] != EMPTY for k in spaces))
        rows = self._marked_losses(position)
        least = (len(self.players) - 1) * played
        if sum(rows) < least:
            reason = (
                f"the loss boxes show {sum(rows)} points lost, but completing the {played} "
                f"coloured sections costs at least {least}"
            )
            report.breaches.append(Breach("losses", reason))
        shown = ", ".join(f"row {r} {n}" for r, n in enumerate(rows, start=1))
        report.notes.append(f"loss boxes marked: {shown}")
        report.notes.append(
            "who lost each point depends on who completed each section: check it from a "
            "transcript of the moves"
        )
        return report

    def _final_colours(self, position: Position, report: FinalReport) -> list[int]:
        colours = []
        for k, word in enumerate(position.colours_on(self.board)):
            colour = COLOURS.index(word) if word in COLOURS else EMPTY
            if word is not None and colour not in self.game_colours:
                reason = f"'{word}' is not a colour of this game with {len(self.players)} players"
                report.breaches.append(Breach("not-a-colour", reason, item_names(self.board, [k])))
                colour = EMPTY
            colours.append(colour)
        return colours

    def _marked_losses(self, position: Position) -> list[int]:
        rows = [0] * sum(1 for f in self.sheet.page.features() if f.id.startswith("box-initials-"))
        for (page_no, item), _colour in position.marks.items():
            match = LOSS_ID.fullmatch(item)
            if page_no == 1 and match and int(match.group(1)) <= len(rows):
                rows[int(match.group(1)) - 1] += 1
        return rows


RULES = DelaunayRules
