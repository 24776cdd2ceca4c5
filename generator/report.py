"""The checker's verdict as lines of text for people (the CLI prints them)."""

from __future__ import annotations

from papergames.checker import Verdict


def _scores(players: list[str], scores: tuple[int, ...]) -> str:
    return ", ".join(f"{name} {score}" for name, score in zip(players, scores, strict=True))


def verdict_lines(verdict: Verdict, *, verbose: bool = False) -> list[str]:
    """The verdict in a few lines: the outcome first, then scores, winner, claims and notes."""
    lines = [f"sheet: {verdict.spec}"]
    if verbose:
        width = max((len(s.move) for s in verdict.steps), default=4)
        for step in verdict.steps:
            lines.append(
                f"  {step.number:>3}. {step.player}: {step.move:<{width}}  "
                f"({step.place})  {_scores(verdict.players, step.scores)}"
            )
    problem = verdict.illegal
    if problem is not None:
        lines.append(
            f"ILLEGAL: move {problem.number} at {problem.place} ({problem.player}: "
            f"{problem.move}): {problem.reason} [{problem.code}]"
        )
    elif verdict.over:
        lines.append(f"LEGAL: the game is complete after {len(verdict.steps)} moves")
    else:
        lines.append(f"UNFINISHED after {len(verdict.steps)} legal moves")
    label = "final scores" if verdict.over else "scores so far"
    lines.append(f"{label}: {_scores(verdict.players, verdict.scores)}")
    if verdict.winners:
        # Several winners are a tie or a winning team of partners: the rules decide, not us.
        word = "winner" if len(verdict.winners) == 1 else "winners"
        lines.append(f"{word}: {', '.join(verdict.winners)}")
    for claim in verdict.claims:
        outcome = "holds" if claim.holds else f"is wrong: the true value is {claim.actual}"
        lines.append(
            f"claim at {claim.place}: {claim.player} {claim.what} {claim.claimed} {outcome}"
        )
    lines.extend(f"note: {note}" for note in verdict.notes)
    return lines
