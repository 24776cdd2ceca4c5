"""Maze rules: building the maze with exact segments, naming sections, running the corridors."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from shapely.geometry import LineString, MultiLineString, Point, Polygon
from shapely.ops import linemerge, polygonize, unary_union
from shapely.strtree import STRtree

from papergames.layouts.maze.rules import MazeRules, MazeState
from papergames.play.rules import IllegalMove, MoveSyntaxError
from papergames.sheets.rng import Rng

from playout import new_game, play, random_game, refused, replay


def maze_game(spec: str, players: int = 2, **options: str) -> MazeRules:
    game = new_game(spec, players, **options)
    assert isinstance(game, MazeRules)
    return game


# On the 3 by 3 grid (vertices A..D, 1..4) these three segments touch all four inner vertices:
# A1-C3 passes over B2 and cuts squares a1 and b2 along their diagonals; A3-B3 runs along the
# grid line between a2 and a3, D2-C2 along the one between c1 and c2 (walls, but no cuts).
SMALL = ("A1-C3", "A3-B3", "D2-C2")
SMALL_SECTIONS = ["a1 nw", "a1 se", "b1", "c1", "a2", "b2 nw", "b2 se", "c2", "a3", "b3", "c3"]


# -- building the maze -----------------------------------------------------------------------


def test_a_segment_runs_from_a_touched_vertex_to_an_untouched_one() -> None:
    game = maze_game("maze size=4 seed=1")
    start = game.initial()
    assert refused(game, start, "B2-C3") == "no-start", "inner vertices are untouched at first"
    assert refused(game, start, "A1-E1") == "end-touched", "the outline counts as drawn"
    assert refused(game, start, "A1-E5") == "end-touched"
    # Either end may be written first: the segment starts at its touched end.
    state = play(game, "B2-A1")
    assert state.segments == ((game.vertex_index["A1"], game.vertex_index["B2"]),)
    assert game.format_move(game.parse_move("B2-A1", start)) == "B2-A1"
    # Any number of segments may leave a vertex, here one that a segment ends at.
    state = play(game, "B2-C2", "B2-B4", state=state)
    assert game.to_move(state) == 1 and len(state.segments) == 3
    assert refused(game, state, "C2-B4") == "end-touched"


def test_a_segment_may_pass_over_untouched_vertices_and_start_where_one_passes() -> None:
    game = maze_game("maze size=5 seed=1")
    state = play(game, "A1-D4")
    for name in ("B2", "C3", "D4"):
        assert state.touched >> game.vertex_index[name] & 1, name
    assert not state.touched >> game.vertex_index["C2"] & 1
    play(game, "B2-D2", state=state)  # from B2, which A1-D4 passes over
    play(game, "D4-E5", state=state)  # straight on from the end, meeting A1-D4 only at D4


def test_a_segment_may_not_cross_another_even_at_a_vertex() -> None:
    game = maze_game("maze size=4 seed=1")
    state = play(game, "A1-C3")
    assert refused(game, state, "A3-C2") == "crosses"  # at (4/3, 4/3), between vertices
    assert refused(game, state, "B1-B3") == "crosses"  # at B2, which A1-C3 passes over
    play(game, "A3-B3", state=state)


def test_a_segment_may_not_overlap_another() -> None:
    game = maze_game("maze size=4 seed=1")
    state = play(game, "A1-C3")
    assert refused(game, state, "B2-D4") == "overlaps"  # along B2-C3
    state = play(game, "E4-C4")
    play(game, "C4-B4", state=state)  # leaves C4 the other way: meets E4-C4 only at C4
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("B4-E4", state))  # from E4, back over E4-C4
    assert info.value.code == "overlaps" and "E4-C4" in info.value.reason


def test_a_segment_may_not_touch_the_drawing_except_at_its_start() -> None:
    game = maze_game("maze size=4 seed=1")
    state = play(game, "A1-C3")
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("C1-C4", state))  # passes over C3, where A1-C3 ends
    assert info.value.code == "touches"
    assert "A1-C3" in info.value.reason and "C1" in info.value.reason
    play(game, "C1-C2", state=state)


def test_pass_ends_lets_a_segment_pass_where_others_end_on_one_side() -> None:
    strict = maze_game("maze size=4 seed=1")
    loose = maze_game("maze size=4 seed=1", pass_ends="on")
    for game in (strict, loose):
        state = play(game, "A1-C3")  # ends at C3, coming from the south-west
        if game is strict:
            assert refused(game, state, "C1-C4") == "touches"
            continue
        after = play(game, "C1-C4", state=state)
        assert after.touched >> game.vertex_index["C2"] & 1
        # Still no crossing: B1-B3 crosses A1-C3 at B2, which A1-C3 passes over.
        assert refused(game, state, "B1-B3") == "crosses"
        assert refused(game, state, "B2-D4") == "overlaps"
        # With C3-D3 drawn, segments end at C3 on both sides of C1-C4: a drawn line through C3.
        state = play(game, "C3-D3", state=state)
        with pytest.raises(IllegalMove) as info:
            game.apply(state, game.parse_move("C1-C4", state))
        assert info.value.code == "crosses" and "at C3" in info.value.reason
        assert game.parse_move("C1-C4", state) not in set(game.legal_moves(state))


def loose_legal(game: MazeRules, drawing: Any, p: int, q: int) -> bool:
    """The looser reading in shapely: the segment meets the drawing only at its start and at
    grid vertices near which the drawing lies on one side of it (it ends there)."""
    line = LineString([xy(game, p), xy(game, q)])
    met = line.intersection(drawing)
    if met.geom_type not in ("Point", "MultiPoint"):
        return False
    points = [met] if met.geom_type == "Point" else list(met.geoms)
    (px, py), (qx, qy) = xy(game, p), xy(game, q)
    for point in points:
        if point.distance(Point(xy(game, p))) < 1e-9:
            continue
        if abs(point.x - round(point.x)) > 1e-9 or abs(point.y - round(point.y)) > 1e-9:
            return False  # a crossing between vertices
        ring = drawing.intersection(point.buffer(1e-3).boundary)
        around = [ring] if ring.geom_type == "Point" else list(ring.geoms)
        sides = {(qx - px) * (c.y - py) - (qy - py) * (c.x - px) > 0 for c in around}
        if len(sides) > 1:
            return False
    return True


def test_pass_ends_games_agree_with_shapely() -> None:
    game = maze_game("maze size=5 seed=1", pass_ends="on")
    rng = Rng(5, "maze-pass-ends")
    verdicts = {True: 0, False: 0}
    passing = 0
    n = game.n
    for seed in range(12):
        final, moves = random_game(game, seed)
        state = game.initial()
        for p, q in final.segments:
            drawing: Any = unary_union(
                [LineString([(0, 0), (n, 0), (n, n), (0, n), (0, 0)])]
                + [LineString([xy(game, a), xy(game, b)]) for a, b in state.segments]
            )
            inner = game._on(xy(game, p), xy(game, q))[1:-1]
            passing += any(state.touched >> v & 1 for v in inner)
            assert loose_legal(game, drawing, p, q)
            touched = [v for v in range(len(game.coords)) if state.touched >> v & 1]
            free = [v for v in range(len(game.coords)) if not state.touched >> v & 1]
            for _ in range(25):
                a, b = rng.choice(touched), rng.choice(free)
                legal = loose_legal(game, drawing, a, b)
                verdicts[legal] += 1
                try:
                    game.apply(state, game.parse_move(game._segment_name((b, a)), state))
                    assert legal
                except IllegalMove as exc:
                    assert not legal and exc.code in ("crosses", "overlaps")
            state = game.apply(state, game.parse_move(game._segment_name((p, q)), state))
        if seed < 6:
            check_sections(game, final)
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == game.scores(final)
    assert passing > 5 and min(verdicts.values()) > 100, (passing, verdicts)


def test_the_maze_is_finished_when_every_vertex_is_touched() -> None:
    game = maze_game("maze size=3 seed=1")
    state = play(game, *SMALL[:2])
    assert state.maze is None and game.to_move(state) == 0
    assert refused(game, state, "b2") == "building"
    state = play(game, SMALL[2], state=state)
    assert state.maze is not None and state.touched == game.everything
    # Ann drew the last segment: Bob, next in turn, fills first.
    assert game.to_move(state) == 1
    assert refused(game, state, "B2-C3") == "maze-done"


def test_a_legal_segment_exists_while_a_vertex_is_untouched() -> None:
    # Whatever has been drawn, an untouched vertex sees a touched corner of its face.
    game = maze_game("maze size=5 seed=1")
    rng = Rng(7, "maze-test")
    for seed in range(20):
        state, _ = random_game(game, seed)
        segments = state.segments
        for k in range(len(segments)):
            part = game.initial()
            for p, q in segments[:k]:
                part = game.apply(part, game.parse_move(f"{game._segment_name((p, q))}", part))
            moves = list(game.legal_moves(part))
            assert moves, k
            for move in rng.sample(moves, min(3, len(moves))):
                game.apply(part, move)


# -- naming sections -------------------------------------------------------------------------


def small_maze(players: int = 2, **options: str) -> tuple[MazeRules, MazeState]:
    game = maze_game("maze size=3 seed=1", players, **options)
    return game, play(game, *SMALL)


def test_sections_are_named_by_square_and_compass_word_or_point() -> None:
    game, state = small_maze()
    assert state.maze is not None
    assert list(state.maze.names) == SMALL_SECTIONS
    named = {
        "b1": "b1",
        "B1": "b1",
        "a1 nw": "a1 nw",
        "a1 W": "a1 nw",
        "a1 n": "a1 nw",
        "a1 se": "a1 se",
        "a1 e": "a1 se",
        "a1 0.2,0.8": "a1 nw",
        "a1 0.9, 0.2": "a1 se",
        "a1 1/3,2/3": "a1 nw",
        "b2 .7,.2": "b2 se",
    }
    for text, name in named.items():
        assert game.format_move(game.parse_move(text, state)) == name, text


def test_unclear_section_names_are_notation_errors() -> None:
    game, state = small_maze()
    for text in ("a1", "a1 sw", "a1 ne", "a1 0.5,0.5", "b2 1/4,1/4"):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(text, state)
    with pytest.raises(MoveSyntaxError) as info:
        game.parse_move("a1", state)
    assert "a1 nw or a1 se" in str(info.value)


def test_notation_errors() -> None:
    game, state = small_maze()
    bad = (
        "z9",
        "d4",
        "A1-Q1",
        "A1-A1",
        "A1-",
        "a1 xx",
        "a1 0.2;0.8",
        "a1 0,0.5",
        "a1 1.5,0.5",
        "a1 0.5",
        "a1 0.2,0.8,0.1",
        "a1 x,0.5",
        "a1 1/0,0.5",
        "",
    )
    for position in (game.initial(), state):
        for text in bad:
            with pytest.raises(MoveSyntaxError):
                game.parse_move(text, position)
    with pytest.raises(MoveSyntaxError) as info:
        game.parse_move("a1 0.2,1.5", state)
    assert info.value.column == 8


# -- running the corridors -------------------------------------------------------------------


def test_each_fill_continues_the_corridor_of_the_last_one() -> None:
    game, state = small_maze()
    state = play(game, "a3", state=state)  # Bob starts anywhere
    assert refused(game, state, "a3") == "filled"
    assert refused(game, state, "a2") == "walled"  # A3-B3 runs between a3 and a2
    assert refused(game, state, "c3") == "not-adjacent"
    state = play(game, "b3", "c3", "c2", state=state)
    assert refused(game, state, "c1") == "walled"  # D2-C2 runs between c2 and c1
    assert refused(game, state, "b2 nw") == "not-adjacent"  # meets c2 only at a corner
    state = play(game, "b2 se", state=state)
    assert refused(game, state, "b2 nw") == "walled"  # across A1-C3 inside b2
    state = play(game, "b1", state=state)
    assert game.scores(state) == (0, 0)


def test_a_stuck_player_gives_the_previous_player_a_point_and_starts_anywhere() -> None:
    game, state = small_maze()
    state = play(game, "a3", "b3", "c3", "c2", "b2 se", "b1", "c1", state=state)
    # Ann is stuck at c1 (b1 filled, c2 walled off): Bob, who filled c1, scores; Ann starts a2.
    assert [game.format_move(m) for m in game.legal_moves(state)] == [
        "a1 nw",
        "a1 se",
        "a2",
        "b2 nw",
    ]
    assert refused(game, state, "c2") == "filled"
    state = play(game, "a2", state=state)
    assert game.scores(state) == (0, 1)
    state = play(game, "b2 nw", "a1 se", state=state)  # Ann stuck again: Bob scores
    assert game.scores(state) == (0, 2)
    state = play(game, "a1 nw", state=state)  # Bob stuck at a1 se: Ann scores
    assert game.is_over(state) and game.scores(state) == (1, 2) and game.winners(state) == [1]
    assert refused(game, state, "a1 nw") == "game-over"
    assert list(game.legal_moves(state)) == []
    assert game.claims(state) == {"segments": (2, 1), "sections": (5, 6)}
    assert "11 sections; 4 runs" in game.describe(state)[0]


def test_final_point_scores_the_last_run_too() -> None:
    fills = ("a3", "b3", "c3", "c2", "b2 se", "b1", "c1", "a2", "b2 nw", "a1 se", "a1 nw")
    game, state = small_maze(final_point="true")
    state = play(game, *fills[:-1], state=state)
    assert game.scores(state) == (0, 2)
    # Bob, stuck at a1 se, gives Ann a point, fills the last section and scores for it too.
    state = play(game, fills[-1], state=state)
    assert game.scores(state) == (1, 3)
    plain, state = small_maze()
    assert plain.scores(play(plain, *fills, state=state)) == (1, 2)


def test_with_three_players_the_previous_player_scores() -> None:
    game, state = small_maze(3)
    assert game.to_move(state) == 0  # Ann, Bob, Cy drew; Ann fills first
    state = play(game, "a3", "b3", "c3", "c2", "b2 se", "b1", "c1", state=state)
    assert game.to_move(state) == 1
    state = play(game, "a2", state=state)  # Bob is stuck: Ann filled c1 and scores
    assert game.scores(state) == (1, 0, 0)


# -- random games against an independent recomputation -----------------------------------------


def xy(game: MazeRules, v: int) -> tuple[int, int]:
    return game.coords[v]


def check_phase_one(game: MazeRules, state: MazeState) -> None:
    """Replay the segments in shapely: each began on the drawing and met it nowhere else."""
    n = game.n
    drawing: Any = LineString([(0, 0), (n, 0), (n, n), (0, n), (0, 0)])
    for p, q in state.segments:
        start, end = Point(xy(game, p)), Point(xy(game, q))
        line = LineString([xy(game, p), xy(game, q)])
        assert drawing.distance(start) < 1e-9 and drawing.distance(end) > 1e-3
        assert line.relate_pattern(drawing, "FF*******")
        drawing = unary_union([drawing, line])
    for v in range(len(game.coords)):
        assert drawing.distance(Point(xy(game, v))) < 1e-9


def shapely_links(game: MazeRules, state: MazeState) -> tuple[list[Polygon], list[set[int]]]:
    """The faces of grid lines and segments (shapely's polygonize), and for each face the
    faces it shares a stretch of border with that is not all segment (its corridor)."""
    n = game.n
    grid = [LineString([(k, 0), (k, n)]) for k in range(n + 1)]
    grid += [LineString([(0, k), (n, k)]) for k in range(n + 1)]
    segments = MultiLineString([[xy(game, p), xy(game, q)] for p, q in state.segments])
    faces = list(polygonize(unary_union([*grid, segments])))
    tree = STRtree(faces)
    corridor: list[set[int]] = [set() for _ in faces]
    walled: list[set[int]] = [set() for _ in faces]
    for a, face in enumerate(faces):
        for b in (int(k) for k in tree.query(face)):
            shared = face.boundary.intersection(faces[b].boundary)
            if b == a or shared.length < 1e-9:
                continue
            # Faces are convex: what two of them share is one straight stretch, on a segment
            # or on a grid line, and segments end at vertices, so they cover it all or none.
            if shared.geom_type != "LineString":
                shared = linemerge(shared)
            assert shared.geom_type == "LineString"
            middle = shared.interpolate(0.5, normalized=True)
            (walled if segments.distance(middle) < 1e-9 else corridor)[a].add(b)
    return faces, [corridor[a] | {-1 - b for b in walled[a]} for a in range(len(faces))]


def check_sections(game: MazeRules, state: MazeState) -> tuple[list[int], list[set[int]]]:
    """Compare the engine's sections and corridors with shapely's faces; return the map from
    the engine's sections to the faces and shapely's corridors."""
    maze = state.maze
    assert maze is not None
    faces, links = shapely_links(game, state)
    assert len(faces) == len(maze.square)
    assert abs(sum(f.area for f in faces) - game.n**2) < 1e-6
    tree = STRtree(faces)
    face_of = []
    for polygon in maze.polygons:
        mine = Polygon([(x / maze.scale, y / maze.scale) for x, y in polygon])
        hits = [int(k) for k in tree.query(mine.representative_point(), predicate="within")]
        assert len(hits) == 1
        assert abs(faces[hits[0]].area - mine.area) < 1e-9
        face_of.append(hits[0])
    assert sorted(face_of) == list(range(len(faces)))
    for s in range(len(maze.square)):
        mine_links = {face_of[t] for t in maze.corridor[s]} | {
            -1 - face_of[t] for t in maze.walled[s]
        }
        assert mine_links == links[face_of[s]], maze.names[s]
    # Every name reads back to its section.
    for s, name in enumerate(maze.names):
        assert game.parse_move(name, state).section == s
    return face_of, [{t for t in link if t >= 0} for link in links]


def expected_scores(
    game: MazeRules, state: MazeState, face_of: list[int], corridor: list[set[int]]
) -> list[int]:
    """Score the fills by shapely's corridors: a point to the previous player when stuck."""
    count = len(game.players)
    scores = [0] * count
    filled: set[int] = set()
    first = len(state.segments)
    for k, s in enumerate(state.filled):
        face = face_of[s]
        if k:
            ahead = corridor[face_of[state.filled[k - 1]]] - filled
            if ahead:
                assert face in ahead
            else:
                scores[(first + k - 1) % count] += 1
        filled.add(face)
    if game.option_values["final_point"]:
        scores[(first + len(state.filled) - 1) % count] += 1
    return scores


def runs_of(state: MazeState) -> int:
    maze = state.maze
    assert maze is not None
    return 1 + sum(1 for a, b in itertools.pairwise(state.filled) if b not in maze.corridor[a])


@pytest.mark.parametrize(
    ("spec", "players", "options", "games", "shapely_games"),
    [
        ("maze size=8 seed=1", 2, {}, 200, 30),
        ("maze size=3 seed=1", 2, {}, 60, 60),
        ("maze size=4 seed=2", 3, {"final_point": "true"}, 60, 30),
        ("maze size=6 seed=3", 6, {}, 30, 10),
    ],
)
def test_random_games_end_and_agree_with_shapely(
    spec: str, players: int, options: dict[str, str], games: int, shapely_games: int
) -> None:
    game = maze_game(spec, players, **options)
    bonus = 1 if options.get("final_point") == "true" else 0
    for seed in range(games):
        state, moves = random_game(game, seed)
        maze = state.maze
        assert maze is not None and game.is_over(state)
        assert state.touched == game.everything
        assert sorted(state.filled) == list(range(len(maze.square)))
        # A point for every run after the first (and the last one with final_point).
        assert sum(game.scores(state)) == runs_of(state) - 1 + bonus
        if seed < shapely_games:
            check_phase_one(game, state)
            face_of, corridor = check_sections(game, state)
            assert list(game.scores(state)) == expected_scores(game, state, face_of, corridor)
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == game.scores(state)


def test_segment_legality_agrees_with_shapely() -> None:
    game = maze_game("maze size=5 seed=1")
    rng = Rng(3, "maze-segments")
    verdicts = {True: 0, False: 0}
    for seed in range(6):
        final, _ = random_game(game, seed)
        state = game.initial()
        for p, q in final.segments:
            n = game.n
            drawing: Any = unary_union(
                [LineString([(0, 0), (n, 0), (n, n), (0, n), (0, 0)])]
                + [LineString([xy(game, a), xy(game, b)]) for a, b in state.segments]
            )
            touched = [v for v in range(len(game.coords)) if state.touched >> v & 1]
            free = [v for v in range(len(game.coords)) if not state.touched >> v & 1]
            for _ in range(25):
                a, b = rng.choice(touched), rng.choice(free)
                line = LineString([xy(game, a), xy(game, b)])
                legal = line.relate_pattern(drawing, "FF*******")
                verdicts[legal] += 1
                try:
                    game.apply(state, game.parse_move(game._segment_name((b, a)), state))
                    assert legal
                except IllegalMove as exc:
                    assert not legal and exc.code in ("crosses", "overlaps", "touches")
            state = game.apply(state, game.parse_move(game._segment_name((p, q)), state))
    assert min(verdicts.values()) > 100, verdicts
