"""Klee rules: setting up the sequences, colouring, scoring sequences in lines, winning."""

from __future__ import annotations

from typing import Any

import pytest

from papergames.errors import SpecError
from papergames.layouts.klee.rules import KleeRules, KleeState, table_points
from papergames.play.checker import check_text
from papergames.play.final import FinalVerdict, read_position
from papergames.play.rules import MoveSyntaxError
from papergames.play.transcript import FinalMark, Place, Transcript, format_transcript, parse_text

from playout import new_game, random_game, refused, replay
from playout import play as after

SETUP = ("RYB", "GYR", "RGY", "BYG", "RBR", "YBY", "GYG", "GRG")
"""Ann: RYB, RGY, RBR, GYG; Bob: GYR, BYG, YBY, GRG (set alternately, Ann first)."""


def rules(spec: str = "klee seed=1", **options: str) -> KleeRules:
    game = new_game(spec, 2, **options)
    assert isinstance(game, KleeRules)
    return game


def test_the_set_up_follows_the_books_four_kinds_of_sequence() -> None:
    game = rules()
    state = game.initial()
    assert refused(game, state, "RRY") == "bad-sequence", "the first has three colours"
    assert refused(game, state, "space-1 R") == "set-up"
    state = after(game, "RYB")
    assert refused(game, state, "BYR") == "bad-sequence", "the opponent's, reversed"
    state = after(game, "RYB", "GYR")
    assert refused(game, state, "BRY") == "bad-sequence", "the same three colours again"
    state = after(game, *SETUP[:4])
    assert refused(game, state, "RRB") == "bad-sequence", "the ends must be alike"
    assert refused(game, state, "RRR") == "bad-sequence", "two colours"
    state = after(game, *SETUP[:6])
    assert refused(game, state, "BRB") == "bad-sequence", "the same two colours as area 3"
    state = after(game, *SETUP[:7])
    assert refused(game, state, "GYG") == "bad-sequence", "copies the opponent's"
    state = after(game, *SETUP)
    assert state.sequences == (SETUP[0::2], SETUP[1::2]) and game.to_move(state) == 0
    assert refused(game, state, "RYB") == "play"


def space(game: KleeRules, row: int, col: int) -> str:
    return game.ids[(row - 1) * game.sheet.spec.params["size"] + col - 1]


def test_colouring_spreads_from_coloured_spaces_touching_at_sides_or_corners() -> None:
    game = rules()
    state = after(game, *SETUP, f"{space(game, 5, 5)} R")
    assert refused(game, state, f"{space(game, 5, 5)} Y") == "coloured"
    assert refused(game, state, f"{space(game, 7, 7)} Y") == "not-touching"
    after_corner = game.apply(state, game.parse_move(f"{space(game, 6, 6)} Y", state))
    game.apply(after_corner, game.parse_move(f"{space(game, 7, 7)} B", after_corner))


def test_sequences_score_in_any_line_and_direction_and_only_for_their_owner() -> None:
    game = rules()
    moves = [
        f"{space(game, 5, 5)} R",  # Ann
        f"{space(game, 5, 6)} Y",  # Bob
        f"{space(game, 5, 7)} B",  # Ann: R Y B along row 5, her first sequence
    ]
    state = after(game, *SETUP, *moves)
    assert state.scores == (1, 0)
    state = after(game, *SETUP, *moves, f"{space(game, 6, 5)} Y", f"{space(game, 4, 4)} G")
    # Bob makes R Y B down column 5: Ann's sequence, so it is disregarded for him.
    state = game.apply(state, game.parse_move(f"{space(game, 7, 5)} B", state))
    assert state.scores == (1, 0)
    # Ann colours (3, 3) G: G G R down the diagonal is nobody's sequence.
    state = game.apply(state, game.parse_move(f"{space(game, 3, 3)} G", state))
    assert state.scores == (1, 0)


def test_one_space_can_complete_several_sequences_and_the_table_variation() -> None:
    for table, gained in (("off", 2), ("on", 3)):
        game = rules(table=table)
        # Reds round (5, 5): Ann's B there makes R B R across row 5 and down column 5.
        moves = [
            f"{space(game, 5, 4)} R",
            f"{space(game, 4, 5)} R",
            f"{space(game, 5, 6)} R",
            f"{space(game, 6, 5)} R",
        ]
        state = after(game, *SETUP, *moves)
        assert state.scores == (0, 0)
        state = game.apply(state, game.parse_move(f"{space(game, 5, 5)} B", state))
        assert state.scores == (gained, 0)


def test_five_points_ahead_or_the_end_of_the_track_wins() -> None:
    game = rules("klee track=10 seed=1")
    state = KleeState((SETUP[0::2], SETUP[1::2]), ("",) * 144, (9, 5), 0)
    field = list(state.field)
    field[0], field[1] = "R", "Y"
    state = KleeState(state.sequences, tuple(field), (4, 0), 0)
    won = game.apply(state, game.parse_move(f"{space(game, 1, 3)} B", state))
    assert won.scores == (5, 0) and game.winners(won) == [0], "five ahead"
    state = KleeState(state.sequences, tuple(field), (9, 8), 0)
    won = game.apply(state, game.parse_move(f"{space(game, 1, 3)} B", state))
    assert won.scores == (10, 8) and game.winners(won) == [0], "the end of a 10-step track"
    table = rules("klee track=10 seed=1", table="on")
    state = KleeState(state.sequences, tuple(field), (4, 0), 0)
    assert not table.is_over(table.apply(state, table.parse_move(f"{space(game, 1, 3)} B", state)))


def test_notation() -> None:
    game = rules()
    for text in ("space-999 R", "space-1 Q", "RY", "space-1"):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(text, game.initial())


@pytest.mark.parametrize("options", [{}, {"table": "on"}, {"all_areas": "on"}, {"track": "12"}])
def test_random_games_end_and_replay(options: dict[str, Any]) -> None:
    game = rules("klee seed=3", **options)
    wanted = 6 if options.get("all_areas") else 4
    for seed in range(200 if not options else 60):
        state, moves = random_game(game, seed)
        assert [len(s) for s in state.sequences] == [wanted, wanted]
        winners = game.winners(state)
        a, b = state.scores
        assert winners
        if len(winners) == 1:
            w = winners[0]
            mine, theirs = state.scores[w], state.scores[1 - w]
            assert mine >= game.goal or mine - theirs >= 5 or (all(state.field) and mine > theirs)
        else:
            assert a == b and all(state.field)
        verdict = replay(game, moves)
        assert verdict.legal and verdict.scores == (a, b)


def test_the_variations_table_matches_the_book() -> None:
    """The book's table: 2 sequences score 3, 3 score 6, ... 8 score 36."""
    book = {2: 3, 3: 6, 4: 10, 5: 15, 6: 21, 7: 28, 8: 36}
    assert {k: table_points(k) for k in book} == book
    assert table_points(1) == 1


EXTRA = ("YYY", "BBB", "RRG", "GBY")
"""The fifth and sixth sequences with all areas: Ann YYY, RRG; Bob BBB, GBY."""


def test_all_areas_sets_up_and_scores_six_sequences_each() -> None:
    game = rules(all_areas="on")
    state = after(game, *SETUP)
    assert game.to_move(state) == 0, "the set-up goes on after four each"
    assert refused(game, state, "BYR") == "bad-sequence", "Ann's first, reversed"
    assert refused(game, state, "GRG") == "bad-sequence", "Bob's fourth"
    assert refused(game, state, f"{space(game, 5, 5)} R") == "set-up"
    state = after(game, *SETUP, *EXTRA)
    assert state.sequences == ((*SETUP[0::2], *EXTRA[0::2]), (*SETUP[1::2], *EXTRA[1::2]))
    assert refused(game, state, "RYG") == "play", "six each, then the field"
    standard = rules()
    assert refused(standard, after(standard, *SETUP), "YYY") == "play"

    def coloured(cells: dict[tuple[int, int], str], turn: int) -> KleeState:
        field = [""] * len(game.ids)
        for (row, col), colour in cells.items():
            field[game.index[space(game, row, col)]] = colour
        return KleeState(state.sequences, tuple(field), (0, 0), turn)

    # Ann completes R R G (her sixth) along row 5; Bob G B Y (his sixth) along row 7.
    ann = coloured({(5, 5): "R", (5, 6): "R"}, 0)
    assert after(game, f"{space(game, 5, 7)} G", state=ann).scores == (1, 0)
    bob = coloured({(7, 1): "G", (7, 2): "B"}, 1)
    assert after(game, f"{space(game, 7, 3)} Y", state=bob).scores == (0, 1)
    # The fifth sequences, Y Y Y and B B B, down column 2 and column 9.
    ann = coloured({(1, 2): "Y", (2, 2): "Y"}, 0)
    assert after(game, f"{space(game, 3, 2)} Y", state=ann).scores == (1, 0)
    bob = coloured({(1, 9): "B", (2, 9): "B"}, 1)
    assert after(game, f"{space(game, 3, 9)} B", state=bob).scores == (0, 1)


def test_a_track_cut_short_ends_the_game_at_the_agreed_box() -> None:
    game = rules(track="12")
    assert game.goal == 12
    field = [""] * len(game.ids)
    field[game.index[space(game, 1, 1)]] = "R"
    field[game.index[space(game, 1, 2)]] = "Y"
    state = KleeState((SETUP[0::2], SETUP[1::2]), tuple(field), (11, 8), 0)
    move = f"{space(game, 1, 3)} B"
    won = after(game, move, state=state)
    assert won.scores == (12, 8) and game.winners(won) == [0], "12 reached, only 4 ahead"
    whole = rules()
    assert not whole.is_over(after(whole, move, state=state)), "the whole track goes on"
    with pytest.raises(SpecError, match="only cut the track short"):
        rules(track="31")
    text = "sheet: klee seed=1\nplayers: Ann, Bob\noptions: track=12\n" + "\n".join(SETUP) + "\n"
    verdict = check_text(text)
    assert not isinstance(verdict, FinalVerdict) and verdict.illegal is None


def final_text(game: KleeRules, marks: dict[tuple[int, str], str]) -> str:
    final = [FinalMark(item, colour, Place(), page) for (page, item), colour in marks.items()]
    transcript = Transcript(game.sheet.spec, list(game.players), final=final, final_given=True)
    return format_transcript(transcript)


@pytest.mark.parametrize("options", [{}, {"all_areas": "on"}])
def test_a_finished_game_reads_back_as_a_final_state_transcript(options: dict[str, str]) -> None:
    game = rules("klee seed=2", **options)
    for seed in range(3):
        state, _ = random_game(game, seed)
        marks = game.final_marks(state)
        words = {"red", "yellow", "blue", "green"}
        spaces = {k: c for (_, k), c in marks.items() if k.startswith("space-")}
        assert len(spaces) == sum(1 for c in state.field if c) and set(spaces.values()) <= words
        text = final_text(game, marks)
        assert read_position(parse_text(text), game).marks == marks
        verdict = check_text(text)
        assert isinstance(verdict, FinalVerdict) and verdict.ok, verdict.lines()
        assert any("does not show whether the moves were legal" in n for n in verdict.report.notes)
        for p, lane in enumerate(game.lanes):
            marked = [box for box in lane if (1, box) in marks]
            assert marked == lane[: state.scores[p]]
    areas = {int(item.split("-")[2]) for (_, item) in marks if item.startswith("box-seq1-")}
    assert areas == ({1, 2, 3, 4, 5, 6} if options else {2, 3, 4, 5})
