"""The checker's verdict as a referee says it, for people.

:meth:`Verdict.lines <papergames.play.checker.Verdict.lines>` is what ``papergames check``
prints: one line per finding, each with its place in the transcript (``line 18, column 6``) and
the rule's code (``[coloured]``), for a person who edits the file and for a tool that reads the
lines. :func:`referee` tells the same verdict as a referee would tell it to a child who played:
which move went wrong, named by its player and as it is written on the sheet ("Ann's 6th move,
“d10 B”"), and what it did wrong, in sentences; the command line's lines are kept as the
details. It is built from the checker's structured result, never from the printed lines.

Example:
    >>> from papergames.play.checker import check_text
    >>> text = "sheet: vasarely seed=1\\nplayers: Ann, Bob\\nAnn: space-3\\nBob: space-3\\n"
    >>> told = referee(check_text(text))
    >>> told.outcome
    'an illegal move'
    >>> print(told.paragraphs[0].text)
    Bob's 1st move, “space-3”, breaks the rules: space-3 is already filled.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from papergames.play.checker import Verdict
from papergames.play.final import FinalVerdict, scores_text
from papergames.play.game import UnknownClaim
from papergames.play.rules import Breach

# The verdict as a referee says it -------------------------------------------------------------


@dataclass(frozen=True)
class Said:
    """One paragraph of a verdict told in sentences, with the list it introduces, if any."""

    text: str
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class Told:
    """A verdict as a referee says it, and the checker's own lines as its details.

    Attributes:
        ok: whether all is in order (a legal, finished game whose claims hold).
        outcome: a few words for the heading ("all in order", "an illegal move").
        paragraphs: what the referee says, the most important first, in sentences that name
            no line, column or rule code.
        details: the checker's lines as ``papergames check`` prints them, with the places in
            the file and the rules' codes.
    """

    ok: bool
    outcome: str
    paragraphs: tuple[Said, ...]
    details: tuple[str, ...] = field(default=())

    def text(self) -> str:
        """The paragraphs as plain text, one per line, list items indented."""
        lines = []
        for said in self.paragraphs:
            lines.append(said.text)
            lines += [f"  - {item}" for item in said.items]
        return "\n".join(lines)


def referee(result: Any, unsure: Sequence[Breach] = ()) -> Told:
    """Any checker's result told as a referee says it: a transcript's replay
    (:class:`~papergames.play.checker.Verdict`), a finished sheet's judgement
    (:class:`~papergames.play.final.FinalVerdict`, where ``unsure`` are the broken rules that hang
    on an item a photo's reader is unsure of) or a judge's verdict in a form of its own (a Cubist
    installation)."""
    if isinstance(result, Verdict):
        return _told_replay(result)
    if isinstance(result, FinalVerdict):
        return _told_final(result, unsure)
    return _told_judgement(result)


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``...

    Example:
        >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102, 111)]
        ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd', '111th']
    """
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    return f"{number}{({1: 'st', 2: 'nd', 3: 'rd'}).get(number % 10, 'th')}"


def listed(words: Iterable[str]) -> str:
    """Words joined as a sentence lists them: ``a``, ``a and b``, ``a, b and c``."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def quoted(move: str) -> str:
    """A move as written on the sheet, in quotation marks."""
    return f"“{move}”"


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def _result(
    players: Sequence[str], scores: Sequence[int], winners: Sequence[str], label: str
) -> str:
    said = f"{label}: {', '.join(f'{n} {s}' for n, s in zip(players, scores, strict=True))}."
    if len(winners) == 1:
        said += f" Winner: {winners[0]}."
    elif winners:
        said += f" Winners: {listed(winners)}."
    return said


def _claims(
    claims: Sequence[tuple[str, str, str, str]], unknown: Sequence[UnknownClaim], so_far: bool
) -> list[Said]:
    """What the players wrote down, beside the truth: the wrong ones one by one, the right
    ones together. Each claim is (player, what, claimed, actual). In an unfinished game the
    truth is the game so far, and a claim that differs is not called wrong, only different."""
    said = []
    wrong = [c for c in claims if c[2] != c[3]]
    right = [c for c in claims if c[2] == c[3]]
    if wrong and so_far:
        said.append(
            Said(
                "Written on the sheet, beside the game so far:",
                tuple(f"{p}'s {w} is written as {c}; so far it is {a}." for p, w, c, a in wrong),
            )
        )
    elif wrong:
        said.append(
            Said(
                "Written on the sheet, and wrong:",
                tuple(f"{p}'s {w} is written as {c}, but it is {a}." for p, w, c, a in wrong),
            )
        )
    if right:
        what = listed(f"{p}'s {w} {c}" for p, w, c, _ in right)
        lead = (
            "The rest written on the sheet is right" if wrong else "Written on the sheet and right"
        )
        said.append(Said(f"{lead}{' so far' if so_far else ''}: {what}."))
    for claim in unknown:
        why = (
            f"the checker counts {listed(claim.known)} for this game"
            if claim.known
            else "the finished sheet alone does not tell it"
        )
        said.append(
            Said(f"{claim.player}'s {claim.what} ({claim.claimed}) cannot be checked: {why}.")
        )
    return said


def _remarks(notes: Sequence[str]) -> list[Said]:
    if not notes:
        return []
    return [Said("The referee adds:", tuple(sentence(note) for note in notes))]


def _told_replay(verdict: Verdict) -> Told:
    players = verdict.players
    details = tuple(verdict.lines())
    problem = verdict.illegal
    said: list[Said] = []
    if problem is not None:
        said.append(Said(_which_move(verdict) + _what_was_wrong(problem.code, problem.reason)))
        said.append(
            Said(
                "The game is checked only up to that move: what comes after it, and the scores "
                "written on the sheet, cannot be judged."
            )
        )
        if verdict.steps:
            label = f"Scores after the {_moves(len(verdict.steps))} before it"
            said.append(Said(_result(players, verdict.scores, [], label)))
        outcome = "a move that cannot be read" if problem.code == "syntax" else "an illegal move"
        return Told(False, outcome, tuple(said), details)
    played = len(verdict.steps)
    if verdict.over:
        said.append(Said(f"Every move is legal, and the game is over after {_moves(played)}."))
        said.append(Said(_result(players, verdict.scores, verdict.winners, "Final scores")))
    else:
        if played == 0:
            head = "No move is written yet"
        elif played == 1:
            head = "The one move written is legal"
        else:
            head = f"All {played} moves are legal"
        said.append(Said(f"{head}, but {verdict.unfinished or 'the game is not over'}."))
        said.append(Said(_result(players, verdict.scores, [], "Scores so far")))
    claims = [(c.player, c.what, c.claimed, c.actual) for c in verdict.claims]
    said += _claims(claims, verdict.unknown_claims, so_far=not verdict.over)
    said += _remarks(verdict.remarks)
    if verdict.ok:
        outcome = "all in order"
    elif not verdict.over:
        outcome = "the game is not finished"
    else:
        outcome = "something written on the sheet is wrong"
    return Told(verdict.ok, outcome, tuple(said), details)


def _which_move(verdict: Verdict) -> str:
    """The illegal move as a referee names it: its player's how-manieth move, as written."""
    problem = verdict.illegal
    assert problem is not None
    if not problem.player:
        return f"Move {problem.number}, {quoted(problem.move)},"
    own = 1 + sum(1 for step in verdict.steps if step.player == problem.player)
    return f"{problem.player}'s {ordinal(own)} move, {quoted(problem.move)},"


def _what_was_wrong(code: str, reason: str) -> str:
    reason = reason.strip()
    reason += "" if reason.endswith((".", "!", "?")) else "."
    if code == "syntax":
        return f" cannot be read: {reason}"
    if code == "game-over":
        return " comes after the end of the game: the game is already over."
    return f" breaks the rules: {reason}"


def breach_text(breach: Breach) -> str:
    """A broken rule as a sentence: its reason and the items it is about, without its code."""
    items = f" ({', '.join(breach.items)})" if breach.items else ""
    return sentence(f"{breach.reason}{items}")


def _told_final(verdict: FinalVerdict, unsure: Sequence[Breach] = ()) -> Told:
    sure = [b for b in verdict.breaches if b not in unsure]
    maybe = [b for b in verdict.breaches if b in unsure]
    said: list[Said] = []
    if sure:
        said.append(
            Said("The finished sheet breaks the rules:", tuple(breach_text(b) for b in sure))
        )
    if maybe:
        said.append(
            Said(
                "It may break the rules, depending on items to check:",
                tuple(breach_text(b) for b in maybe),
            )
        )
    if not verdict.breaches:
        said.append(Said("The finished sheet breaks no rule that it shows."))
    players = verdict.players
    for kind, per_player in verdict.counts.items():
        counts = ", ".join(f"{n} {c}" for n, c in zip(players, per_player, strict=True))
        said.append(Said(sentence(f"{kind} coloured: {counts}")))
    if verdict.tallies is not None:
        said.append(Said(sentence("tally boxes marked: " + scores_text(players, verdict.tallies))))
    report = verdict.report
    winners = [players[p] for p in report.winners]
    if report.scores is not None:
        said.append(Said(_result(players, report.scores, winners, "Scores")))
    elif winners:
        said.append(
            Said(sentence(f"{'winner' if len(winners) == 1 else 'winners'}: {listed(winners)}"))
        )
    claims = [(p, w, c, a) for p, w, c, a, _ in verdict.claims]
    said += _claims(claims, verdict.unknown_claims, so_far=False)
    # The notes end with one for each claim the sheet does not decide (check_final adds them).
    said += _remarks(report.notes[: len(report.notes) - len(verdict.unknown_claims)])
    if verdict.ok:
        outcome = "all in order"
    elif verdict.breaches:
        outcome = "breaks the rules"
    else:
        outcome = "something written on the sheet is wrong"
    return Told(verdict.ok, outcome, tuple(said), tuple(verdict.lines()))


def _told_judgement(result: Any) -> Told:
    """A judge's verdict in a form of its own, from its JSON: a Cubist installation's problems
    and plan; any other judge's verdict is said in a word, its lines kept as the details."""
    details = tuple(result.lines())
    shown = result.to_json()
    ok = bool(result.ok)
    problems = shown.get("problems") if isinstance(shown, dict) else None
    if not isinstance(problems, list) or "dice" not in shown:
        outcome = "all in order" if ok else "something is wrong"
        return Told(ok, outcome, (Said("The checker's report is in the details."),), details)
    name = f" {quoted(shown['name'])}" if shown.get("name") else ""
    stacks = len(shown.get("stacks", {}))
    said = [
        Said(
            f"The installation{name} has {shown['dice']} dice in {stacks} "
            f"stack{'' if stacks == 1 else 's'}."
        )
    ]
    plan_codes = ("plan-mismatch", "bad-plan")  # about the plan, not the installation's rules
    placement = [sentence(p["message"]) for p in problems if p["code"] not in plan_codes]
    plan = [sentence(p["message"]) for p in problems if p["code"] in plan_codes]
    if placement:
        said.append(Said("It breaks the placement rules:", tuple(placement)))
    else:
        said.append(Said("Every die is placed by the rules."))
    if shown.get("plan_matches") is True:
        said.append(Said(f"It matches the plan turned {shown['rotation']} degrees clockwise."))
    elif shown.get("plan_matches") is False:
        said.append(Said("It does not match the plan, however the plan is turned."))
    if plan:
        said.append(Said("About the plan:", tuple(plan)))
    if ok:
        outcome = "all in order"
    elif placement:
        outcome = "breaks the rules"
    else:
        outcome = "does not match the plan"
    return Told(ok, outcome, tuple(said), details)
