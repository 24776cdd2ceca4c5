"""Mondrian rules: the book's walk-through, each rule, the rectangle search, random games."""

from __future__ import annotations

import itertools

import pytest
from shapely.ops import unary_union

from papergames.layouts.mondrian.rules import EMPTY, MondrianRules
from papergames.play.rules import IllegalMove, MoveSyntaxError
from papergames.sheets.rng import Rng

from playout import new_game, random_game, replay

COLOURS = ("red", "yellow", "blue", "green")


def test_the_books_walk_through_scores_2_2_2_5_5_4() -> None:
    game = new_game("mondrian field=mini seed=1", 4)
    assert isinstance(game, MondrianRules)
    walk = game.sheet.pages[0].data["walkthrough"]
    state = game.initial()
    for space_id, colour, points in walk:
        player = COLOURS.index(colour)
        assert game.to_move(state) == player
        before = game.scores(state)[player]
        state = game.apply(state, game.parse_move(space_id, state))
        assert game.scores(state)[player] - before == points, space_id
    assert [p for _, _, p in walk if p] == [2, 2, 2, 5, 5, 4]


def test_red_may_not_fill_f_next_to_its_own_a() -> None:
    game = new_game("mondrian field=mini seed=1", 4)
    state = game.initial()
    for letter in "ABCD":
        state = game.apply(state, game.parse_move(letter, state))
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("F", state))
    assert info.value.code == "own-colour"
    game.apply(state, game.parse_move("E", state))


def test_fills_must_touch_along_a_side_and_neutral_never_touches_neutral() -> None:
    game = new_game("mondrian field=mini seed=1", 2)
    state = game.apply(game.initial(), game.parse_move("A", game.initial()))
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("M", state))
    assert info.value.code == "not-next"
    state = game.apply(state, game.parse_move("B neutral", state))
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("C neutral", state))
    assert info.value.code == "neutral-next"
    with pytest.raises(IllegalMove) as info:
        game.apply(state, game.parse_move("B", state))
    assert info.value.code == "filled"
    four = new_game("mondrian field=mini seed=1", 4)
    with pytest.raises(IllegalMove) as info:
        four.apply(four.initial(), four.parse_move("A neutral", four.initial()))
    assert info.value.code == "no-neutral"
    for text in ("Z", "space-99", "A blue", ""):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(text, game.initial())


def brute_force(game: MondrianRules, filled: set[int], space: int) -> int:
    spaces = list(game.sheet.pages[0].spaces().values())
    others = sorted(filled - {space})
    best = 0
    for size in range(1, len(others) + 1):
        for group in itertools.combinations(others, size):
            union = unary_union([spaces[k] for k in (space, *group)])
            if abs(union.area - union.envelope.area) < 1e-6:
                best = max(best, size + 1)
    return best


def test_the_rectangle_search_agrees_with_brute_force_on_the_mini_field() -> None:
    game = new_game("mondrian field=mini seed=1", 4)
    assert isinstance(game, MondrianRules)
    rng = Rng(3, "mini")
    for _ in range(25):
        order = list(range(13))
        rng.shuffle(order)
        filled: set[int] = set()
        for space in order[: rng.randint(2, 13)]:
            filled.add(space)
            flags = [k in filled for k in range(13)]
            assert game.lattice.largest_rectangle(flags, space) == brute_force(game, filled, space)


@pytest.mark.parametrize(
    ("spec", "players", "options", "games"),
    [
        ("mondrian seed=1", 2, {}, 200),
        ("mondrian spaces=40 points=30 seed=2", 3, {}, 200),
        ("mondrian seed=3", 4, {"teams": "on"}, 40),
        ("mondrian field=mini seed=1", 4, {}, 200),
    ],
)
def test_random_games_end_and_replay(
    spec: str, players: int, options: dict[str, str], games: int
) -> None:
    game = new_game(spec, players, **options)
    assert isinstance(game, MondrianRules)
    for seed in range(games):
        state, moves = random_game(game, seed)
        owners = state.owners
        # Nobody's colour ever touches itself along a side, nor does the neutral colour.
        for k, owner in enumerate(owners):
            if owner != EMPTY:
                assert all(owners[n] != owner for n in game.neighbours[k])
        if not state.over:
            assert all(game._next_able(state, p) is None for p in range(players))
        else:
            assert max(state.scores) >= game.target
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == game.scores(state)


def test_the_mini_field_ends_at_the_boxes_it_prints() -> None:
    from papergames.games import get_rules
    from papergames.play.rules import Player
    from papergames.sheets.sheet import make_sheet
    from papergames.sheets.spec import SheetSpec

    sheet = make_sheet(SheetSpec.create("mondrian", {"field": "mini"}, seed=1))
    boxes = [i for i in sheet.page.items if i.id.startswith("box-tally1-")]
    rules = get_rules("mondrian")(sheet, [Player("Ann"), Player("Bob")])
    assert rules.target == len(boxes) < 80
