"""Final-state transcripts: a finished sheet, written down or read from a photo, judged as it is."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from papergames.cli import app
from papergames.play.checker import check_text
from papergames.play.final import FinalVerdict, check_final
from papergames.play.rules import Rules
from papergames.play.transcript import (
    FinalMark,
    Place,
    Transcript,
    TranscriptError,
    format_transcript,
    parse_transcript,
)

from playout import new_game, random_game

MINI = "mondrian field=mini seed=1"


def final_transcript(game: Rules[Any, Any], marks: dict[tuple[int, str], str]) -> Transcript:
    final = [FinalMark(item, colour, Place(), page) for (page, item), colour in marks.items()]
    return Transcript(game.sheet.spec, list(game.players), final=final, final_given=True)


def judged(game: Rules[Any, Any], marks: dict[tuple[int, str], str]) -> FinalVerdict:
    text = format_transcript(final_transcript(game, marks))
    verdict = check_text(text)
    assert isinstance(verdict, FinalVerdict)
    return verdict


def codes(verdict: FinalVerdict) -> list[str]:
    return [b.code for b in verdict.breaches]


def test_final_lines_read_items_pages_and_colours() -> None:
    text = (
        "sheet: mondrian seed=1\nplayers: Ann (red), Bob\n"
        "final: space-1 red, p1/space-2 Bob\nfinal: box-tally1-1 marked\n"
    )
    t = parse_transcript(text)
    assert t.is_final_state and not t.moves
    assert [(m.item, m.colour, m.page) for m in t.final] == [
        ("space-1", "red", 1),
        ("space-2", "Bob", 1),
        ("box-tally1-1", "marked", 1),
    ]
    again = parse_transcript(format_transcript(t)).final
    assert [(m.item, m.colour, m.page) for m in again] == [
        (m.item, m.colour, m.page) for m in t.final
    ]


def test_the_json_form_gives_the_same_position() -> None:
    data = {"sheet": MINI, "players": ["Ann", "Bob"], "final": {"A": "ann", "C": "bob"}}
    t = parse_transcript(json.dumps(data))
    assert [(m.item, m.colour) for m in t.final] == [("A", "ann"), ("C", "bob")]
    with pytest.raises(TranscriptError, match=r"final\[\"A\"\]"):
        parse_transcript(json.dumps({**data, "final": {"A": ["red"]}}))


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ("final: space-999 red", "'space-999' is not an item"),
        ("final: space-1 green", "'green' is not a colour here"),
        ("final: space-1 red, space-1 blue", "given twice"),
        ("final: p3/space-1 red", "no page 3"),
        ("final: space-1", "is not an item and its colour"),
    ],
)
def test_bad_final_lines_name_the_problem_and_place(lines: str, message: str) -> None:
    text = f"sheet: mondrian seed=1\nplayers: Ann (red), Bob (blue)\n{lines}\n"
    with pytest.raises(TranscriptError, match=message) as caught:
        check_text(text, "f.txt")
    assert "f.txt: line 3" in str(caught.value)


def test_moves_and_a_final_position_do_not_mix() -> None:
    text = f"sheet: {MINI}\nplayers: Ann, Bob\nfinal: A ann\nB\n"
    with pytest.raises(TranscriptError, match="either the moves or the finished sheet"):
        parse_transcript(text)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_end_of_every_random_legal_mondrian_game_is_consistent(players: int) -> None:
    for seed in range(6):
        game = new_game(MINI, players)
        state, _ = random_game(game, seed)
        marks = game.final_marks(state)
        assert marks is not None
        verdict = judged(game, marks)
        assert verdict.ok, (seed, verdict.lines())
        assert verdict.tallies == [min(s, 80) for s in state.scores]


def test_a_colour_next_to_itself_is_named_with_both_spaces() -> None:
    game = new_game(MINI, 2)
    state, _ = random_game(game, 3)
    marks = dict(game.final_marks(state) or {})
    board = game.board
    owners = state.owners
    a, b = next(
        (a, b)
        for a in range(len(owners))
        for b in board.neighbours[a]
        if owners[a] >= 0 and owners[b] >= 0 and owners[a] != owners[b]
    )
    marks[(1, board.ids[b])] = marks[(1, board.ids[a])]
    verdict = judged(game, marks)
    assert "own-colour" in codes(verdict) or "neutral-next" in codes(verdict)
    assert any(board.ids[a] in " ".join(x.items) for x in verdict.breaches)


def test_an_empty_field_is_unfinished_and_apart_regions_are_found() -> None:
    game = new_game(MINI, 2)
    assert codes(judged(game, {})) == ["unfinished"]
    board = game.board
    lonely = [k for k in range(1, len(board.ids)) if 0 not in board.neighbours[k]]
    verdict = judged(game, {(1, board.ids[0]): "ann", (1, board.ids[lonely[-1]]): "bob"})
    assert "apart" in codes(verdict)
    apart = next(b for b in verdict.breaches if b.code == "apart")
    assert apart.items[0].startswith(board.ids[lonely[-1]])


def test_tallies_are_counted_per_area_and_claims_checked() -> None:
    game = new_game(MINI, 2)
    state, _ = random_game(game, 1)
    marks = dict(game.final_marks(state) or {})
    text = format_transcript(final_transcript(game, marks))
    text += "claim: Ann score 999\n"
    verdict = check_text(text)
    assert isinstance(verdict, FinalVerdict)
    assert any("cannot check 'score'" in note for note in verdict.report.notes)


def test_a_game_without_finished_sheet_rules_reports_tallies_and_asks_for_moves() -> None:
    text = (
        "sheet: vasarely seed=1\nplayers: Ann (red), Bob (blue)\n"
        "final: space-1 red, box-tally1-1 red, box-tally1-2 red, box-tally2-1 blue\n"
    )
    verdict = check_text(text)
    assert isinstance(verdict, FinalVerdict) and verdict.ok
    assert verdict.tallies == [2, 1]
    assert any("transcript of the moves" in note for note in verdict.report.notes)


def test_the_cli_checks_a_final_state_file(tmp_path: Any) -> None:
    path = tmp_path / "final.txt"
    path.write_text(f"sheet: {MINI}\nplayers: Ann (red), Bob (blue)\nfinal: A red, B red\n")
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    assert "BREAKS THE RULES" in result.output and "space-1 (A)" in result.output
    result = CliRunner().invoke(app, ["check", str(path), "--json"])
    data = json.loads(result.output)
    assert data["verdict"] == "breaks the rules"
    assert {b["code"] for b in data["breaches"]} == {"own-colour", "unfinished"}


def test_check_final_accepts_an_engine_built_elsewhere() -> None:
    game = new_game(MINI, 2)
    verdict = check_final(final_transcript(game, {}), game)
    assert codes(verdict) == ["unfinished"]


@pytest.mark.parametrize("players", [2, 3])
def test_the_end_of_every_random_legal_springer_game_is_consistent(players: int) -> None:
    for seed in range(3):
        game = new_game("springer seed=7", players)
        state, _ = random_game(game, seed)
        verdict = judged(game, game.final_marks(state) or {})
        assert verdict.ok, (seed, verdict.lines())
        assert verdict.report.scores == state.totals
        assert verdict.report.winners == game.winners(state)
        assert verdict.report.facts["chain"] == game.claims(state)["chain"]


def test_springer_refuses_two_triangles_on_one_edge_and_a_colour_beside_itself() -> None:
    game = new_game("springer seed=7", 2)
    state, _ = random_game(game, 0)
    marks = dict(game.final_marks(state) or {})
    mine = [t for t, o in enumerate(state.triangles) if o == 0]
    other = next(
        t for t, o in enumerate(state.triangles) if o != 0 and game.edges[t] == game.edges[mine[0]]
    )
    marks[(1, game.tri_ids[other])] = "ann"
    space = next(s for s, o in enumerate(state.owners) if o == 0)
    near = next(iter(game.base_field.neighbours[space]))
    marks[(1, game.base_field.ids[near])] = "ann"
    found = set(codes(judged(game, marks)))
    assert {"edge-used", "own-colour"} <= found


@pytest.mark.parametrize(
    ("spec", "players"), [("arp lines=10 spaces=13 seed=1", 2), ("arp seed=2", 3)]
)
def test_the_end_of_every_random_legal_arp_game_is_consistent(spec: str, players: int) -> None:
    for seed in range(3):
        game = new_game(spec, players)
        state, _ = random_game(game, seed)
        verdict = judged(game, game.final_marks(state))
        assert verdict.ok, (seed, verdict.lines())
        assert verdict.report.scores == state.scores


def test_arp_names_uncaptured_spaces_strangers_and_a_wrong_tally() -> None:
    game = new_game("arp lines=10 spaces=13 seed=1", 2)
    state, _ = random_game(game, 1)
    marks = dict(game.final_marks(state))
    captured = next(k for k, o in enumerate(state.spaces) if o >= 0)
    del marks[(1, game.space_ids[captured])]
    assert "not-captured" in codes(judged(game, marks))
    game = new_game("arp lines=10 spaces=13 seed=1", 3)
    state, _ = random_game(game, 1)
    marks = dict(game.final_marks(state))
    space, stranger = next(
        (k, p)
        for k, o in enumerate(state.spaces)
        if o >= 0
        for p in range(3)
        if p not in {state.segments[t] for t in game.space_segments[k]}
    )
    marks[(1, game.space_ids[space])] = game.colour_word(stranger)
    found = codes(judged(game, marks))
    assert "captured-by-stranger" in found and "tally" in found


def rings_marks(game: Any, moves: list[Any]) -> dict[tuple[int, str], str]:
    """The finished sheet of a Rings game: each round's owners, kept before the next page."""
    marks: dict[tuple[int, str], str] = {}
    state = game.initial()
    for move in moves:
        before = state
        state = game.apply(state, move)
        if state.round != before.round:
            for k, owner in enumerate(_round_end(game, before, move)):
                if owner >= 0:
                    marks[(before.round + 1, f"space-{k}")] = game.colour_word(owner)
    return marks


def _round_end(game: Any, before: Any, move: Any) -> tuple[int, ...]:
    """The owners a round ends with (apply starts the next page blank)."""
    geometry = game.rounds[before.round]
    passed, _ = geometry.crossing(geometry.index[move[0]], geometry.index[move[1]])
    owners = list(before.owners)
    mover = game.to_move(before)
    for space in passed:
        if owners[space] < 0:
            owners[space] = mover
    return tuple(owners)


@pytest.mark.parametrize("players", [2, 3])
def test_a_finished_rings_sheet_gives_every_rounds_scores(players: int) -> None:
    for seed in range(3):
        game = new_game(f"rings rounds={players} players={players} seed=11", players)
        state, moves = random_game(game, seed)
        verdict = judged(game, rings_marks(game, moves))
        assert verdict.ok, verdict.lines()
        assert verdict.report.scores == state.scores
        assert len([n for n in verdict.report.notes if n.startswith("round ")]) == players


@pytest.mark.parametrize("players", [2, 3])
def test_the_end_of_every_random_legal_delaunay_game_is_consistent(players: int) -> None:
    for seed in range(2):
        game = new_game("delaunay seed=1", players)
        state, _ = random_game(game, seed)
        verdict = judged(game, game.final_marks(state))
        assert verdict.ok, (seed, verdict.lines())


def test_delaunay_names_same_colours_and_too_few_losses() -> None:
    game = new_game("delaunay seed=1", 3)
    state, _ = random_game(game, 0)
    marks = {k: v for k, v in game.final_marks(state).items() if not k[1].startswith("box-")}
    a = next(k for k, c in enumerate(state.colours) if c >= 0)
    b = next(n for n in game.neighbours[a] if state.colours[n] >= 0)
    marks[(1, game.ids[b])] = marks[(1, game.ids[a])]
    found = codes(judged(game, marks))
    assert "losses" in found
    assert "same-colour" in found or "border-colour" in found


@pytest.mark.parametrize("spec", ["springer seed=7", "klee seed=2"])
def test_final_lines_may_name_items_as_the_labelled_sheet_prints_them(spec: str) -> None:
    game = new_game(spec)
    state, _ = random_game(game, 1)
    marks = game.final_marks(state) or {}
    by_id = {fid: name for name, fid in game.printed_names().items()}
    assert by_id, "the game prints names of its own"
    printed = {(page, by_id.get(item, item)): colour for (page, item), colour in marks.items()}
    assert printed != marks, "some final lines use printed names"
    as_ids, as_printed = judged(game, marks), judged(game, printed)
    assert as_printed.lines() == as_ids.lines()
    assert as_printed.report.scores == as_ids.report.scores
