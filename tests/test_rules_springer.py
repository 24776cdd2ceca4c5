"""Springer rules: filling, triangles, corner chains, the winning chain and its final turn,
three players, and the variations (target, divided spaces, double first move, scoring)."""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from functools import cache
from itertools import product

import pytest
from shapely.geometry import LineString, Point

from papergames.errors import SpecError
from papergames.layouts.springer.rules import EMPTY, SpringerRules, SpringerState
from papergames.play.rules import MoveSyntaxError
from papergames.sheets.model import Kind
from papergames.sheets.rng import Rng
from papergames.sheets.topology import Topology

from playout import new_game, play, random_game, refused, replay

SPEC = "springer seed=1"


def rules(spec: str = SPEC, players: int = 2, **options: str) -> SpringerRules:
    game = new_game(spec, players, **options)
    assert isinstance(game, SpringerRules)
    return game


def corner_only(game: SpringerRules, space: int) -> list[int]:
    fld = game.base_field
    return sorted(set(fld.touching[space]) - fld.neighbours[space])


def triangle(game: SpringerRules, edge: str, value: int) -> int:
    return next(
        t for t in range(len(game.tri_ids)) if game.edges[t] == edge and game.values[t] == value
    )


def touching(game: SpringerRules, tri: int) -> set[int]:
    fld = game.base_field
    return {s for s in range(len(fld.ids)) if tri in fld.reaches[s]}


def build_chain(game: SpringerRules, targets: list[set[int]]) -> list[int] | None:
    """Spaces linked corner to corner, no two next to each other, meeting every target set."""
    fld = game.base_field
    chain: list[int] = []
    for target in targets:
        if target & set(chain):
            continue
        starts = list(chain) if chain else sorted(targets[0])
        parent: dict[int, int | None] = dict.fromkeys(starts)

        def path(v: int | None, parent: dict[int, int | None] = parent) -> list[int]:
            out = []
            while v is not None and v not in chain:
                out.append(v)
                v = parent[v]
            return out

        queue, found = deque(starts), None
        while queue:
            v = queue.popleft()
            if v in target:
                found = v
                break
            for w in corner_only(game, v):
                members = set(chain) | set(path(v))
                if w in parent or any(w in fld.neighbours[m] for m in members):
                    continue
                parent[w] = v
                queue.append(w)
        if found is None:
            return None
        chain.extend(reversed(path(found)))
    return chain


def position(
    game: SpringerRules, spaces: list[int], tris: list[int], player: int = 0
) -> SpringerState:
    """The start with ``player``'s colour on ``spaces`` and ``tris``, and him to move."""
    state = game.initial()
    owners = list(state.owners)
    for s in spaces:
        owners[s] = player
    triangles = list(state.triangles)
    for t in tris:
        triangles[t] = player
    return replace(state, owners=tuple(owners), triangles=tuple(triangles), turn=player)


@cache
def book_chain() -> tuple[list[int], dict[str, int]]:
    """A chain on the seed-1 sheet to a top, right and left triangle totalling 9 (the book's
    illustration), that also reaches the bottom triangles worth 3 and 4."""
    game = rules()
    bottom3, bottom4 = triangle(game, "bottom", 3), triangle(game, "bottom", 4)
    for top, right, left in product(*(range(1, 6) for _ in range(3))):
        if top + right + left != 9:
            continue
        picks = {
            "top": triangle(game, "top", top),
            "right": triangle(game, "right", right),
            "left": triangle(game, "left", left),
            "bottom3": bottom3,
            "bottom4": bottom4,
        }
        chain = build_chain(game, [touching(game, t) for t in picks.values()])
        if chain is not None:
            return chain, picks
    raise AssertionError("no chain for the book's example")


# --- filling spaces and triangles ---------------------------------------------------------------


def test_never_next_to_ones_own_colour_but_touching_at_a_corner_is_allowed() -> None:
    game = rules()
    fld = game.base_field
    s = next(k for k in range(len(fld.ids)) if corner_only(game, k) and fld.neighbours[k])
    side, corner = sorted(fld.neighbours[s])[0], corner_only(game, s)[0]
    near = {s, side, corner, *fld.touching[s], *fld.touching[side]}
    far = next(k for k in range(len(fld.ids)) if k not in near)
    state = play(game, fld.ids[s], fld.ids[far])
    assert refused(game, state, fld.ids[side]) == "own-colour"
    assert refused(game, state, fld.ids[s]) == "filled"
    assert refused(game, state, fld.ids[far]) == "filled"
    after = play(game, fld.ids[corner], state=state)
    assert after.owners[corner] == 0 and game.to_move(after) == 1
    # The opponent may fill a space next to Ann's colour.
    after = play(game, fld.ids[side], state=after)
    assert after.owners[side] == 1


def test_one_triangle_per_edge_each_and_a_filled_triangle_is_taken() -> None:
    game = rules()
    top1, top2 = triangle(game, "top", 1), triangle(game, "top", 2)
    right = triangle(game, "right", 5)
    state = play(game, game.tri_ids[top1])
    assert refused(game, state, game.tri_ids[top1]) == "triangle-taken"
    state = play(game, game.tri_ids[top2], state=state)  # Bob takes another on the top edge
    assert refused(game, state, game.tri_ids[triangle(game, "top", 3)]) == "edge-used"
    state = play(game, game.tri_ids[right], state=state)
    assert state.triangles[top1] == 0 and state.triangles[top2] == 1 and state.triangles[right] == 0


def test_a_move_after_the_end_is_refused() -> None:
    game = rules()
    state = replace(game.initial(), turn=None)
    assert game.is_over(state)
    assert refused(game, state, "space-1") == "game-over"


# --- chains and the winning chain -----------------------------------------------------------------


def test_the_books_example_three_edges_total_nine_needs_a_four_or_five() -> None:
    game = rules()
    chain, picks = book_chain()
    state = position(game, chain, [picks["top"], picks["right"], picks["left"]])
    assert len(game.chains(state, 0)) == 1, "corner contacts join the chain"
    reached = game.reached(state, 0, chain)
    assert (
        sorted(game.values[t] for t in reached) != [] and sum(game.values[t] for t in reached) == 9
    )
    # A three on the bottom edge makes 12: not enough; the game goes on.
    short = play(game, game.tri_ids[picks["bottom3"]], state=state)
    assert short.totals[0] == 12 and short.complete == (False, False)
    assert game.to_move(short) == 1 and game.winners(short) == []
    # A four makes 13: the chain wins, but Ann played first, so Bob has one final turn.
    won = play(game, game.tri_ids[picks["bottom4"]], state=state)
    assert won.totals[0] == 13 and won.complete == (True, False)
    assert game.to_move(won) == 1 and game.winners(won) == []
    done = game.apply(won, game.random_move(won, Rng(1)))
    assert game.is_over(done) and game.winners(done) == [0]
    assert game.claims(done) == {"chain": ("yes", "no")}
    assert any("winning chain" in line for line in game.describe(done))


def test_a_chain_is_joined_at_corners_and_a_triangle_counts_only_if_the_chain_touches_it() -> None:
    game = rules()
    chain, picks = book_chain()
    # Take one space out of the middle of the chain: it falls into parts.
    cut = chain[len(chain) // 2]
    state = position(game, [s for s in chain if s != cut], [picks["top"], picks["right"]])
    parts = game.chains(state, 0)
    assert len(parts) >= 2
    best = max(sum(game.values[t] for t in game.reached(state, 0, p)) for p in parts)
    assert state.totals == (0, 0) and best <= 9
    # Someone else's triangle never counts for a chain.
    theirs = position(game, chain, [])
    triangles = list(theirs.triangles)
    triangles[picks["top"]] = 1
    theirs = replace(theirs, triangles=tuple(triangles))
    assert game.reached(theirs, 0, chain) == []


def test_target_option_lowers_the_winning_total() -> None:
    chain, picks = book_chain()
    for target, wins in (("12", True), ("13", False), ("0", False)):
        game = rules(target=target)
        state = position(game, chain, [picks["top"], picks["right"], picks["left"]])
        after = play(game, game.tri_ids[picks["bottom3"]], state=state)
        assert after.complete[0] is wins, target
    high = rules("springer seed=1 target=14")
    state = position(high, chain, [picks["top"], picks["right"], picks["left"]])
    assert not play(high, high.tri_ids[picks["bottom4"]], state=state).complete[0]
    with pytest.raises(SpecError):
        SpringerRules.parse_options({"target": "-1"})


def test_the_second_player_completing_ends_the_game_at_once_and_totals_decide() -> None:
    game = rules()
    chain, picks = book_chain()
    four = [picks["top"], picks["right"], picks["left"]]
    state = position(game, chain, four, player=1)
    # Bob (second) completes with 13: over at once.
    won = play(game, game.tri_ids[picks["bottom4"]], state=state)
    assert game.is_over(won) and game.winners(won) == [1]
    # Ann had completed with 14 before; Bob's 13 in his final turn loses, 14 draws.
    for ann, winners in ((14, [0]), (13, [0, 1]), (12, [1])):
        before = replace(state, totals=(ann, 0), complete=(True, False))
        end = play(game, game.tri_ids[picks["bottom4"]], state=before)
        assert game.is_over(end) and game.winners(end) == winners, ann


def test_three_players_win_with_four_edges_whatever_the_total() -> None:
    game = rules(players=3)
    chain, picks = book_chain()
    state = position(game, chain, [picks["top"], picks["right"], picks["left"]])
    state = replace(state, owners=state.owners, turn=0)
    after = play(game, game.tri_ids[picks["bottom3"]], state=state)
    assert after.totals[0] == 12 and after.complete[0]
    # The round is played out: Bob and Cy still move, then the game ends.
    assert game.to_move(after) == 1
    after = game.apply(after, game.random_move(after, Rng(2)))
    assert game.to_move(after) == 2
    after = game.apply(after, game.random_move(after, Rng(3)))
    assert game.is_over(after) and game.winners(after) == [0]
    assert rules(players=2).target == 13


def test_scoring_all_counts_triangles_reached_by_any_chain() -> None:
    chain, picks = book_chain()
    for scoring in ("chain", "all"):
        game = rules(scoring=scoring)
        cut = chain[len(chain) // 2]
        spaces = [s for s in chain if s != cut]
        state = position(game, spaces, [picks["top"], picks["right"], picks["left"]])
        after = play(game, game.tri_ids[picks["bottom4"]], state=state)
        parts = game.chains(after, 0)
        totals = [sum(game.values[t] for t in game.reached(after, 0, p)) for p in parts]
        every = {t for p in parts for t in game.reached(after, 0, p)}
        expected = max(totals) if scoring == "chain" else sum(game.values[t] for t in every)
        assert after.totals[0] == expected
        assert not after.complete[0]
    assert max(totals) < sum(game.values[t] for t in every), "the example tells them apart"


# --- the variations -----------------------------------------------------------------------------


def test_double_first_move_fills_two_neighbouring_spaces_as_one() -> None:
    game = rules(double="on")
    fld = game.base_field
    a = 40
    b = sorted(fld.neighbours[a])[0]
    c = corner_only(game, a)[0]
    state = game.initial()
    assert refused(game, state, fld.ids[a]) == "double-first"
    assert refused(game, state, game.tri_ids[0]) == "double-first"
    assert refused(game, state, f"{fld.ids[a]}+{fld.ids[c]}") == "double-apart"
    assert refused(game, state, f"{fld.ids[a]}+{fld.ids[a]}") in ("double-same", "double-apart")
    state = play(game, f"{fld.ids[a]}+{fld.ids[b]}")
    assert state.owners[a] == state.owners[b] == 0
    assert len(game.chains(state, 0)) == 1, "the two make one space"
    assert refused(game, state, f"{fld.ids[a]}+{fld.ids[b]}") == "filled"
    far = [k for k in range(len(fld.ids)) if k not in fld.touching[a] and k not in fld.touching[b]]
    x = far[0]
    y = next(n for n in sorted(fld.neighbours[x]) if n not in (a, b) and state.owners[n] == EMPTY)
    state = play(game, f"{fld.ids[x]}+{fld.ids[y]}", state=state)
    assert refused(game, state, f"space-{len(fld.ids)}+space-{len(fld.ids) - 1}") in (
        "double-later",
    )
    plain = rules()
    assert refused(plain, plain.initial(), f"{fld.ids[a]}+{fld.ids[b]}") == "no-double"


def test_split_divides_a_space_before_play_and_names_its_parts() -> None:
    game = rules(split="on")
    fld = game.base_field
    k = fld.index["space-40"]
    nbrs = [fld.ids[n] for n in sorted(fld.neighbours[k])]
    state = game.initial()
    assert refused(game, state, "space-40") == "split-first"
    assert refused(game, state, f"split space-40 {nbrs[0]} {nbrs[0]}") == "bad-split"
    stranger = next(s for s in fld.ids if fld.index[s] not in fld.touching[k] and s != "space-40")
    assert refused(game, state, f"split space-40 {nbrs[0]} {stranger}") == "bad-split"
    assert refused(game, state, "split space-40 top left") == "bad-split", "not on the outline"
    state = play(game, f"split space-40 {nbrs[0]} {nbrs[2]}")
    after = game.field(state.splits)
    assert len(after.ids) == len(fld.ids) + 1 and "space-40a" in after.index
    with pytest.raises(MoveSyntaxError, match="divided"):
        game.parse_move("space-40", state)
    # Bob divides a corner space along its two edges, then play begins with Ann.
    state = play(game, "split space-1 top left", state=state)
    assert game.to_move(state) == 0 and len(state.owners) == len(fld.ids) + 2
    final = game.field(state.splits)
    # The parts' contacts are exactly what papergames.sheets.topology finds for the divided field.
    topo = Topology(dict(zip(final.ids, final.polys, strict=True)))
    for n, sid in enumerate(final.ids):
        assert {final.ids[m] for m in final.neighbours[n]} == set(topo.neighbours[sid])
        assert {final.ids[m] for m in final.touching[n]} == set(topo.touching(sid))
    # The parts of a divided space are next to each other: one player cannot fill both.
    a, b = final.index["space-40a"], final.index["space-40b"]
    assert b in final.neighbours[a]
    state = play(game, "space-40a", "space-2", state=state)
    assert refused(game, state, "space-40b") == "own-colour"
    assert refused(game, state, "split space-50 top left") == "split-over"
    # Walking the line from the top edge down to the left edge, the corner lies on the right.
    corner_a, corner_b = final.polys[final.index["space-1a"]], final.polys[final.index["space-1b"]]
    x0, y0 = min(p.bounds[0] for p in fld.polys), min(p.bounds[1] for p in fld.polys)
    assert corner_b.distance(Point(x0, y0)) < 1e-6
    assert corner_a.distance(Point(x0, y0)) > 1
    plain = rules()
    assert refused(plain, plain.initial(), "split space-1 top left") == "no-split"


def test_notation() -> None:
    game = rules()
    state = game.initial()
    assert game.parse_move(" Space-17 ", state).names == ("space-17",)
    assert game.format_move(game.parse_move("space-3+space-4", state)) == "space-3+space-4"
    assert game.format_move(game.parse_move("split space-3 top space-4", state)) == (
        "split space-3 top space-4"
    )
    # The names a labelled sheet prints: the space's number, T and the triangle's number.
    assert game.parse_move("17", state).names == ("space-17",)
    assert game.parse_move("t3", state) == game.parse_move("triangle-3", state)
    for text in (
        "",
        "999",
        "T99",
        "space-999",
        "triangle-99",
        "space-1 space-2",
        "split space-1 top",
        "split space-1 top up",
        "space-1+",
    ):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(text, state)


# --- random games ----------------------------------------------------------------------------


@cache
def geometry(spec: str) -> tuple[list[set[int]], list[set[int]], list[set[int]]]:
    """Independently of the engine's tables: for each space, the spaces sharing a border, the
    spaces it touches at all, and the triangles whose base it shares a stretch with."""
    game = rules(spec)
    page = game.sheet.pages[0]
    polys = [f.geometry for f in page.features(Kind.SPACE)]
    bases = [LineString(list(t.geometry.exterior.coords)[:2]) for t in page.features(Kind.TRIANGLE)]
    side: list[set[int]] = [set() for _ in polys]
    touch: list[set[int]] = [set() for _ in polys]
    for i, p in enumerate(polys):
        for j in range(i + 1, len(polys)):
            q = polys[j]
            if p.distance(q) > 1e-6:
                continue
            touch[i].add(j)
            touch[j].add(i)
            if p.boundary.intersection(q.buffer(1e-6)).length > 1e-4:
                side[i].add(j)
                side[j].add(i)
    reach = [
        {t for t, b in enumerate(bases) if p.boundary.intersection(b).length > 1e-6} for p in polys
    ]
    return side, touch, reach


def check_invariants(game: SpringerRules, spec: str, state: SpringerState, double: bool) -> None:
    side, touch, reach = geometry(spec)
    n = len(game.players)
    for p in range(n):
        mine = [s for s, o in enumerate(state.owners) if o == p]
        clashes = [(a, b) for a in mine for b in side[a] if b in mine and a < b]
        assert len(clashes) <= (1 if double else 0), clashes
        edges = [game.edges[t] for t, o in enumerate(state.triangles) if o == p]
        assert len(edges) == len(set(edges))
        # Chains by plain geometry: spaces that touch, grown from each one.
        left, totals, won = set(mine), [], False
        owned = {t for t, o in enumerate(state.triangles) if o == p}
        every: set[int] = set()
        while left:
            todo = [left.pop()]
            got = set(todo)
            while todo:
                for m in touch[todo.pop()] & left:
                    left.discard(m)
                    got.add(m)
                    todo.append(m)
            tris = {t for s in got for t in reach[s]} & owned
            every |= tris
            total = sum(game.values[t] for t in tris)
            totals.append(total)
            won = won or (len(tris) == 4 and (n == 3 or total >= game.target))
        expected = (
            sum(game.values[t] for t in every) if game.all_reached else max(totals, default=0)
        )
        assert state.totals[p] == expected
        assert state.complete[p] == won
    if not any(state.complete):
        # Nobody won: the game ended because nobody could move.
        for p in range(n):
            mine = {s for s, o in enumerate(state.owners) if o == p}
            free = [s for s, o in enumerate(state.owners) if o == EMPTY and not side[s] & mine]
            edges = {game.edges[t] for t, o in enumerate(state.triangles) if o == p}
            open_tris = [
                t
                for t, o in enumerate(state.triangles)
                if o == EMPTY and game.edges[t] not in edges
            ]
            assert not free and not open_tris
    winners = game.winners(state)
    pool = [p for p in range(n) if state.complete[p]] or list(range(n))
    assert winners and set(winners) <= set(pool)
    assert all(state.totals[w] == max(state.totals[p] for p in pool) for w in winners)


@pytest.mark.parametrize(
    ("spec", "players", "options", "count"),
    [
        (SPEC, 2, {}, 200),
        ("springer seed=4 target=6", 2, {}, 40),
        (SPEC, 3, {}, 40),
        (SPEC, 2, {"double": "on"}, 40),
        (SPEC, 2, {"scoring": "all", "target": "8"}, 40),
        ("springer seed=2 columns=6 rows=5 variety=3", 2, {}, 60),
    ],
)
def test_random_games_end_replay_and_keep_the_rules(
    spec: str, players: int, options: dict[str, str], count: int
) -> None:
    game = rules(spec, players, **options)
    for seed in range(count):
        state, moves = random_game(game, seed)
        check_invariants(game, spec, state, options.get("double") == "on")
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == state.totals


def test_random_games_with_divided_spaces() -> None:
    game = rules(split="on", double="on")
    for seed in range(25):
        state, moves = random_game(game, seed)
        assert len(state.splits) == 2 and len(state.owners) == len(game.base_field.ids) + 2
        fld = game.field(state.splits)
        for p in range(2):
            mine = {s for s, o in enumerate(state.owners) if o == p}
            assert sum(1 for s in mine for m in fld.neighbours[s] if m in mine) <= 2
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == state.totals
