"""Springer's rules: fill spaces, never beside your own colour; chain to all four edges."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString

from papergames.layouts.springer.division import DividedField, Divisions, Split
from papergames.layouts.springer.mesh import EDGES
from papergames.layouts.springer.sheet import PageData, TriangleData, printed_name
from papergames.play.final import item_names, owners_of
from papergames.play.rules import (
    Breach,
    FinalReport,
    IllegalMove,
    MoveSyntaxError,
    Player,
    Position,
    Rules,
)
from papergames.sheets.board import Board
from papergames.sheets.model import Kind, Sheet, data_as
from papergames.sheets.params import Param, ParamSet
from papergames.sheets.rng import Rng

EMPTY = -1
"""An empty space or triangle in :class:`SpringerState`."""


_SPACE_NAME = re.compile(r"space-(\d+)([ab]*)")


_TRIANGLE_NAME = re.compile(r"triangle-(\d+)")
_PRINTED_TRIANGLE = re.compile(r"t(\d+)")
"""A triangle's printed name, T3 (lower-cased)."""


@dataclass(frozen=True)
class SpringerMove:
    """One move: ``kind`` is ``space``, ``double``, ``triangle`` or ``split``.

    ``names`` holds the space (one), the two spaces of a double first move, the triangle, or the
    divided space and its two borders (a :class:`Split`'s fields in order).
    """

    kind: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class SpringerState:
    """A position.

    Attributes:
        owners: the player who filled each space (:data:`EMPTY` if nobody), in the order of the
            field the splits made (the sheet's spaces when there are none).
        triangles: the player who filled each triangle, in sheet order.
        splits: the spaces divided before play (variation 2), in the order made.
        turns: how many turns of play each player has had (set-up excluded).
        turn: the player to move, ``None`` once the game is over.
        totals: each player's score: the triangles their best chain reaches (or, with
            ``scoring=all``, those any of their spaces reach).
        complete: whether each player has completed a winning chain.
    """

    owners: tuple[int, ...]
    triangles: tuple[int, ...]
    splits: tuple[Split, ...]
    turns: tuple[int, ...]
    turn: int | None
    totals: tuple[int, ...]
    complete: tuple[bool, ...]


@dataclass(frozen=True)
class SpringerOptions:
    """The engine's options, typed."""

    target: int
    split: bool
    double: bool
    scoring: str


class SpringerRules(Rules[SpringerState, SpringerMove]):
    """Springer: fill spaces, never next to your own colour, and chain corner to corner to a
    triangle of yours on every edge.

    Moves: a space (``space-17``), a triangle (``triangle-3``: by model id, as its printed number
    is its value), a double first move (``space-17+space-18``, variation 3) and, before play, a
    division (``split space-17 space-5 top``, variation 2). Options: ``target`` (0: the sheet's),
    ``split``, ``double`` and ``scoring`` (``chain``: the best chain's triangles; ``all``: every
    triangle any of one's spaces reaches).
    """

    game = "springer"
    notation = (
        "space-17 or 17, triangle-3 or T3 (as a labelled sheet prints them); double first move "
        "space-17+space-18; "
        "set-up split space-17 BORDER BORDER (a neighbour or top/right/bottom/left)"
    )
    options = ParamSet(
        [
            Param.int("target", 0, 0, 40, "least total of a winning chain (0: the sheet's target)"),
            Param.bool("split", False, "variation 2: each player first divides a space in two"),
            Param.bool(
                "double", False, "variation 3: each first turn fills two neighbouring spaces"
            ),
            Param.choice(
                "scoring",
                "chain",
                ("chain", "all"),
                "without a winning chain: the best chain's triangles, or all reached ones",
            ),
        ]
    )
    option_shape = SpringerOptions
    tallies_are_points = False

    def __init__(
        self, sheet: Sheet, players: Sequence[Player], options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(sheet, players, options)
        opts = self.options.read(SpringerOptions, self.option_values)
        page = sheet.page
        spaces = Board.of(page)
        # A labelled sheet prints T3 in triangle-3; any sheet takes that name.
        tris = Board.of(page, Kind.TRIANGLE)
        self.triangle_names = {printed_name(fid): fid for fid in tris.ids}
        self.tris = tris.named(self.triangle_names)
        facts = [data_as(t.data, TriangleData) for t in tris.features]
        self.tri_ids = tris.ids
        self.tri_index = tris.index
        self.values: list[int] = [fact["value"] for fact in facts]
        self.edges: list[str] = [fact["edge"] for fact in facts]
        bases = [LineString(list(t.geometry.exterior.coords)[:2]) for t in tris.features]
        x0, y0, x1, y1 = Board.of(page, Kind.LINE).features[0].geometry.bounds
        sides = {
            "top": LineString([(x0, y0), (x1, y0)]),
            "right": LineString([(x1, y0), (x1, y1)]),
            "bottom": LineString([(x1, y1), (x0, y1)]),
            "left": LineString([(x0, y1), (x0, y0)]),
        }
        self.target = opts.target or data_as(page.data, PageData)["target"]
        self.any_total = len(players) >= 3
        self.split = opts.split
        self.double = opts.double
        self.all_reached = opts.scoring == "all"
        reaches: list[list[int]] = [[] for _ in spaces.ids]
        for t, fact in enumerate(facts):
            for s in fact["touches"]:
                reaches[spaces.index[s]].append(t)
        self.base_field = DividedField(
            spaces.ids,
            spaces.index,
            tuple(f.geometry for f in spaces.features),
            tuple(frozenset(near) for near in spaces.neighbours),
            spaces.touching,
            tuple(tuple(r) for r in reaches),
        )
        self.divisions = Divisions(self.base_field, sides, bases)

    def field(self, splits: tuple[Split, ...]) -> DividedField:
        """The spaces after ``splits`` (each assumed valid), computed once."""
        return self.divisions.field(splits)

    # -- state ------------------------------------------------------------------------------

    def initial(self) -> SpringerState:
        n = len(self.players)
        return SpringerState(
            (EMPTY,) * len(self.base_field.ids),
            (EMPTY,) * len(self.tri_ids),
            (),
            (0,) * n,
            0,
            (0,) * n,
            (False,) * n,
        )

    def to_move(self, state: SpringerState) -> int | None:
        return state.turn

    def setting_up(self, state: SpringerState) -> bool:
        """Whether players are still dividing spaces (variation 2)."""
        return self.split and len(state.splits) < len(self.players)

    def _first_double(self, state: SpringerState, player: int) -> bool:
        return self.double and state.turns[player] == 0

    def chains(self, state: SpringerState, player: int) -> list[list[int]]:
        """The player's chains: their spaces grouped by contact (corners; a double is one
        space)."""
        fld = self.field(state.splits)
        seen: set[int] = set()
        out: list[list[int]] = []
        for start, owner in enumerate(state.owners):
            if owner != player or start in seen:
                continue
            chain, todo = [start], [start]
            seen.add(start)
            while todo:
                for m in fld.touching[todo.pop()]:
                    if m not in seen and state.owners[m] == player:
                        seen.add(m)
                        chain.append(m)
                        todo.append(m)
            out.append(sorted(chain))
        return out

    def reached(self, state: SpringerState, player: int, chain: Sequence[int]) -> list[int]:
        """The player's own triangles that one of the chain's spaces touches."""
        fld = self.field(state.splits)
        found = {t for s in chain for t in fld.reaches[s] if state.triangles[t] == player}
        return sorted(found)

    def _assess(self, state: SpringerState, player: int) -> tuple[int, bool]:
        """The player's score and whether they have a winning chain."""
        owned = {t for t, owner in enumerate(state.triangles) if owner == player}
        if not owned:
            return 0, False
        reaches = self.field(state.splits).reaches
        best, done, every = 0, False, set()
        for chain in self.chains(state, player):
            tris = {t for s in chain for t in reaches[s]} & owned
            every |= tris
            total = sum(self.values[t] for t in tris)
            best = max(best, total)
            if len(tris) == len(EDGES) and (self.any_total or total >= self.target):
                done = True
        if self.all_reached:
            best = sum(self.values[t] for t in every)
        return best, done

    # -- moves ------------------------------------------------------------------------------

    def _space_problem(self, state: SpringerState, player: int, space: int) -> IllegalMove | None:
        fld = self.field(state.splits)
        name = fld.ids[space]
        owner = state.owners[space]
        if owner != EMPTY:
            return IllegalMove("filled", f"{name} is already filled by {self.players[owner].name}")
        own = [fld.ids[n] for n in sorted(fld.neighbours[space]) if state.owners[n] == player]
        if own:
            return IllegalMove(
                "own-colour",
                f"{name} is next to {', '.join(own)}, already {self.players[player].name}'s "
                "colour (touching at a corner only would be allowed)",
            )
        return None

    def _triangle_problem(self, state: SpringerState, player: int, tri: int) -> IllegalMove | None:
        name = self.tri_ids[tri]
        owner = state.triangles[tri]
        if owner != EMPTY:
            return IllegalMove(
                "triangle-taken", f"{name} is already filled by {self.players[owner].name}"
            )
        edge = self.edges[tri]
        mine = [
            self.tri_ids[t]
            for t, o in enumerate(state.triangles)
            if o == player and self.edges[t] == edge
        ]
        if mine:
            return IllegalMove(
                "edge-used",
                f"{self.players[player].name} already has {mine[0]} on the {edge} edge: "
                "one triangle per edge each",
            )
        return None

    def _open(self, state: SpringerState, player: int) -> list[int]:
        """The spaces the player may fill: empty and not next to their colour."""
        owners = state.owners
        mine = {s for s, owner in enumerate(owners) if owner == player}
        neighbours = self.field(state.splits).neighbours
        return [
            s for s, owner in enumerate(owners) if owner == EMPTY and mine.isdisjoint(neighbours[s])
        ]

    def _doubles(self, state: SpringerState, player: int) -> Iterator[tuple[int, int]]:
        fld = self.field(state.splits)
        open_ = set(self._open(state, player))
        for a in sorted(open_):
            for b in sorted(fld.neighbours[a]):
                if b > a and b in open_:
                    yield a, b

    def _plays(self, state: SpringerState, player: int) -> Iterator[SpringerMove]:
        """The player's moves in play (not set-up), whether or not it is their turn."""
        fld = self.field(state.splits)
        if self._first_double(state, player):
            for a, b in self._doubles(state, player):
                yield SpringerMove("double", (fld.ids[a], fld.ids[b]))
            return
        for s in self._open(state, player):
            yield SpringerMove("space", (fld.ids[s],))
        used = {self.edges[t] for t, owner in enumerate(state.triangles) if owner == player}
        for t, owner in enumerate(state.triangles):
            if owner == EMPTY and self.edges[t] not in used:
                yield SpringerMove("triangle", (self.tri_ids[t],))

    def _splits(self, state: SpringerState) -> Iterator[SpringerMove]:
        fld = self.field(state.splits)
        for k, sid in enumerate(fld.ids):
            names = list(self.divisions.borders(fld, k))
            for first in names:
                for second in names:
                    if first != second and not isinstance(
                        self.divisions.divide(fld, Split(sid, first, second)), str
                    ):
                        yield SpringerMove("split", (sid, first, second))

    def legal_moves(self, state: SpringerState) -> Iterator[SpringerMove]:
        player = state.turn
        if player is None:
            return
        if self.setting_up(state):
            yield from self._splits(state)
            return
        yield from self._plays(state, player)

    def random_move(self, state: SpringerState, rng: Rng) -> SpringerMove:
        player = state.turn
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        if self.setting_up(state):
            fld = self.field(state.splits)
            while True:
                k = rng.randint(0, len(fld.ids) - 1)
                names = list(self.divisions.borders(fld, k))
                first, second = rng.choice(names), rng.choice(names)
                split = Split(fld.ids[k], first, second)
                if first != second and not isinstance(self.divisions.divide(fld, split), str):
                    return SpringerMove("split", (split.space, first, second))
        return rng.choice(list(self._plays(state, player)))

    def _can_move(self, state: SpringerState, player: int) -> bool:
        if not self._first_double(state, player):
            used = {self.edges[t] for t, owner in enumerate(state.triangles) if owner == player}
            if any(
                owner == EMPTY and self.edges[t] not in used
                for t, owner in enumerate(state.triangles)
            ):
                return True
        return next(self._plays(state, player), None) is not None

    def apply(self, state: SpringerState, move: SpringerMove) -> SpringerState:
        player = state.turn
        if player is None:
            raise IllegalMove("game-over", "the game is over")
        name = self.players[player].name
        if self.setting_up(state):
            if move.kind != "split":
                raise IllegalMove(
                    "split-first",
                    f"before play each player divides a space in two (variation 2); {name} "
                    "has not yet: write split space-17 BORDER BORDER",
                )
            split = Split(*move.names)
            splits = (*state.splits, split)
            made = self.divisions.known(splits) or self.divisions.divide(
                self.field(state.splits), split
            )
            if isinstance(made, str):
                raise IllegalMove("bad-split", f"{name} cannot divide {split.space}: {made}")
            self.divisions.remember(splits, made)
            n = len(self.players)
            return SpringerState(
                (EMPTY,) * len(made.ids),
                state.triangles,
                splits,
                state.turns,
                0 if len(splits) == n else player + 1,
                state.totals,
                state.complete,
            )
        if move.kind == "split":
            if not self.split:
                raise IllegalMove("no-split", "dividing a space is variation 2 (option split=on)")
            raise IllegalMove("split-over", "spaces are divided only before play begins")
        fld = self.field(state.splits)
        first = self._first_double(state, player)
        if move.kind == "double" and not self.double:
            raise IllegalMove(
                "no-double", "filling two spaces at once is variation 3 (option double=on)"
            )
        if move.kind == "double" and not first:
            raise IllegalMove(
                "double-later",
                f"only a player's first turn fills two spaces; {name} has had that turn",
            )
        if first and move.kind != "double":
            raise IllegalMove(
                "double-first",
                f"{name}'s first turn fills two neighbouring spaces (variation 3), "
                "written space-17+space-18",
            )
        owners = list(state.owners)
        triangles = list(state.triangles)
        if move.kind == "triangle":
            t = self.tri_index[move.names[0]]
            problem = self._triangle_problem(state, player, t)
            if problem:
                raise problem
            triangles[t] = player
        else:
            cells = [fld.index[s] for s in move.names]
            for s in cells:
                problem = self._space_problem(state, player, s)
                if problem:
                    raise problem
            if len(cells) == 2:
                a, b = cells
                if a == b:
                    raise IllegalMove(
                        "double-same",
                        f"a double fills two different spaces, not {fld.ids[a]} twice",
                    )
                if b not in fld.neighbours[a]:
                    raise IllegalMove(
                        "double-apart",
                        f"{fld.ids[a]} and {fld.ids[b]} are not next to each other (they must "
                        "share a stretch of border)",
                    )
            for s in cells:
                owners[s] = player
        turns = list(state.turns)
        turns[player] += 1
        after = SpringerState(
            tuple(owners),
            tuple(triangles),
            state.splits,
            tuple(turns),
            None,
            state.totals,
            state.complete,
        )
        total, done = self._assess(after, player)
        totals = list(state.totals)
        totals[player] = total
        complete = list(state.complete)
        complete[player] = complete[player] or done
        n = len(self.players)
        # Once a chain is complete the round is played out, so every player has had as many
        # turns: with two players, the second answers a first player's winning chain.
        order = (
            range(player + 1, n) if any(complete) else [(player + k) % n for k in range(1, n + 1)]
        )
        after = SpringerState(
            after.owners,
            after.triangles,
            after.splits,
            after.turns,
            None,
            tuple(totals),
            tuple(complete),
        )
        turn = next((q for q in order if self._can_move(after, q)), None)
        return SpringerState(
            after.owners,
            after.triangles,
            after.splits,
            after.turns,
            turn,
            after.totals,
            after.complete,
        )

    # -- notation ---------------------------------------------------------------------------

    def _space_name(self, text: str, column: int, state: SpringerState) -> str:
        word = text.strip().lower()
        fld = self.field(state.splits)
        if word in fld.index:
            return word
        if f"space-{word}" in fld.index:
            # The printed name: the space's number (with a or b for a divided space's parts).
            return f"space-{word}"
        for name in (word, f"space-{word}"):
            if any(s.space == name for s in state.splits):
                raise MoveSyntaxError(
                    f"{name} was divided: name its parts {name}a and {name}b", column
                )
        if _SPACE_NAME.fullmatch(word) is None:
            raise MoveSyntaxError(
                f"'{text.strip()}' is not a space: write its model id, like space-17", column
            )
        raise MoveSyntaxError(
            f"'{text.strip()}' is not a space of this sheet "
            f"(space-1 .. space-{len(self.base_field.ids)})",
            column,
        )

    def parse_move(self, text: str, state: SpringerState) -> SpringerMove:
        stripped = text.strip()
        lead = len(text) - len(text.lstrip()) + 1
        words = stripped.split()
        if not words:
            raise MoveSyntaxError(
                "an empty move: write a space (space-17) or a triangle (triangle-3)"
            )
        if words[0].lower() == "split":
            if len(words) != 4:
                raise MoveSyntaxError(
                    "a division is: split SPACE BORDER BORDER, each border a neighbouring space "
                    "or an edge (top, right, bottom, left)",
                    lead,
                )
            columns = [lead + stripped.index(w) for w in words]
            space = self._space_name(words[1], columns[1], state)
            borders: list[str] = []
            for w, col in zip(words[2:], columns[2:], strict=True):
                low = w.lower()
                borders.append(low if low in EDGES else self._space_name(w, col, state))
            return SpringerMove("split", (space, borders[0], borders[1]))
        if len(words) != 1 and "+" not in stripped:
            raise MoveSyntaxError(
                "a move is one space (space-17), a triangle (triangle-3), or on a double first "
                "turn two spaces (space-17+space-18)",
                lead + len(words[0]),
            )
        if "+" in stripped:
            left_text, _, right_text = stripped.partition("+")
            a = self._space_name(left_text, lead, state)
            b = self._space_name(right_text, lead + len(left_text) + 1, state)
            return SpringerMove("double", (a, b))
        word = stripped.lower()
        if _PRINTED_TRIANGLE.fullmatch(word):
            found = self.tris.lookup(word)
            word = self.tri_ids[found] if found is not None else f"triangle-{word[1:]}"
        match = _TRIANGLE_NAME.fullmatch(word)
        if match:
            if word not in self.tri_index:
                raise MoveSyntaxError(
                    f"'{stripped}' is not a triangle of this sheet (triangle-1 .. "
                    f"triangle-{len(self.tri_ids)}, numbered clockwise from the top left)",
                    lead,
                )
            return SpringerMove("triangle", (word,))
        return SpringerMove("space", (self._space_name(stripped, lead, state),))

    def format_move(self, move: SpringerMove) -> str:
        if move.kind == "split":
            return "split " + " ".join(move.names)
        return "+".join(move.names)

    # -- the end ----------------------------------------------------------------------------

    def scores(self, state: SpringerState) -> tuple[int, ...]:
        return state.totals

    def winners(self, state: SpringerState) -> list[int]:
        """A winning chain beats none; between winning chains (or none) the higher total wins."""
        if state.turn is not None:
            return []
        pool = [p for p, done in enumerate(state.complete) if done] or list(
            range(len(self.players))
        )
        best = max(state.totals[p] for p in pool)
        return [p for p in pool if state.totals[p] == best]

    def claims(self, state: SpringerState) -> dict[str, Any]:
        """``chain``: ``yes`` for a player who completed a winning chain, else ``no``."""
        return {"chain": tuple("yes" if done else "no" for done in state.complete)}

    def describe(self, state: SpringerState) -> list[str]:
        """Each player's best chain: its triangles and total, and whether it wins."""
        fld = self.field(state.splits)
        lines = []
        for p, player in enumerate(self.players):
            best: tuple[int, list[int], list[int]] = (-1, [], [])
            for chain in self.chains(state, p):
                tris = self.reached(state, p, chain)
                total = sum(self.values[t] for t in tris)
                if (len(tris), total) > (len(best[2]), best[0]):
                    best = (total, chain, tris)
            total, chain, tris = best
            if not tris:
                lines.append(f"{player.name}: no chain reaches a triangle of theirs")
                continue
            reached = ", ".join(
                f"{self.tri_ids[t]} ({self.edges[t]}, {self.values[t]})" for t in tris
            )
            first = fld.ids[chain[0]]
            verdict = "a winning chain" if state.complete[p] else "not a winning chain"
            lines.append(
                f"{player.name}: the chain through {first} ({len(chain)} "
                f"{'space' if len(chain) == 1 else 'spaces'}) reaches "
                f"{reached}: total {total}, {verdict}"
            )
        return lines

    # -- the finished sheet -----------------------------------------------------------------

    def printed_names(self) -> Mapping[str, str]:
        return self.triangle_names

    def final_marks(self, state: SpringerState) -> dict[tuple[int, str], str] | None:
        if state.splits:
            return None
        words = [self.colour_word(p) for p in range(len(self.players))]
        marks = {
            (1, self.base_field.ids[s]): words[o] for s, o in enumerate(state.owners) if o >= 0
        }
        marks |= {(1, self.tri_ids[t]): words[o] for t, o in enumerate(state.triangles) if o >= 0}
        return marks

    def check_final(self, position: Position) -> FinalReport:
        """A finished Springer sheet: no colour next to itself, one triangle per edge each, and
        each player's chains, the triangles they reach, the totals and the winner.
        """
        report = FinalReport()
        if self.split:
            report.notes.append("a sheet with divided spaces cannot be judged from its colours")
            return report
        spaces = Board.of(self.sheet.page)
        owners = tuple(owners_of(position, spaces.ids, report, EMPTY))
        triangles = tuple(owners_of(position, self.tri_ids, report, EMPTY))
        for a, near in enumerate(spaces.neighbours):
            for b in near:
                if a < b and owners[a] != EMPTY and owners[a] == owners[b]:
                    who = self.players[owners[a]].name
                    reason = f"two spaces next to each other are both {who}'s colour"
                    report.breaches.append(Breach("own-colour", reason, item_names(spaces, (a, b))))
        for p, player in enumerate(self.players):
            for edge in EDGES:
                mine = [t for t, o in enumerate(triangles) if o == p and self.edges[t] == edge]
                if len(mine) > 1:
                    reason = f"{player.name} has {len(mine)} triangles on the {edge} edge, not one"
                    names = tuple(self.tri_ids[t] for t in mine)
                    report.breaches.append(Breach("edge-used", reason, names))
        n = len(self.players)
        state = SpringerState(owners, triangles, (), (1,) * n, None, (0,) * n, (False,) * n)
        assessed = [self._assess(state, p) for p in range(n)]
        state = SpringerState(
            owners,
            triangles,
            (),
            state.turns,
            None,
            tuple(total for total, _ in assessed),
            tuple(done for _, done in assessed),
        )
        if not any(state.complete):
            movers = [q.name for k, q in enumerate(self.players) if self._can_move(state, k)]
            if movers:
                reason = (
                    f"the game is not over: nobody has a winning chain and {movers[0]} can "
                    "still fill a space or a triangle"
                )
                report.breaches.append(Breach("unfinished", reason))
        report.scores = state.totals
        report.winners = self.winners(state)
        report.facts = dict(self.claims(state))
        report.notes = self.describe(state)
        return report


RULES = SpringerRules
