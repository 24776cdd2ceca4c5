"""The referee: replays a transcript on its sheet and says whether the game was legal.

:func:`check` makes the sheet the transcript names, builds the game's rules for it, and plays
the moves one by one. It stops at the first illegal move (with its place and the rules' reason),
keeps the scores after every move, and at the end compares what the players claimed (totals,
counts) with the truth.

Example:
    >>> from papergames.play.transcript import parse_transcript
    >>> t = parse_transcript("sheet: cocomposite size=4 seed=1\\nplayers: Ann, Bob\\nb2\\nb2\\n")
    >>> verdict = check(t)
    >>> verdict.legal, verdict.illegal.code if verdict.illegal else None
    (False, 'not-adjacent')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from papergames.games import Judgement, find_judge
from papergames.play.final import check_final, scores_text
from papergames.play.game import UnknownClaim, build_game
from papergames.play.rules import IllegalMove, MoveSyntaxError, Rules
from papergames.play.transcript import Place, Transcript, parse_transcript, require_text


@dataclass(frozen=True)
class Step:
    """One legal move as replayed: who played what, where it stands, the scores after it."""

    number: int
    player: str
    move: str
    place: Place
    scores: tuple[int, ...]


@dataclass(frozen=True)
class Problem:
    """The first move that broke the rules (or could not be read)."""

    number: int
    place: Place
    move: str
    player: str
    code: str
    reason: str


@dataclass(frozen=True)
class ClaimCheck:
    """A claim from the transcript beside the truth."""

    player: str
    what: str
    claimed: str
    actual: str
    place: Place

    @property
    def holds(self) -> bool:
        return self.claimed == self.actual


@dataclass
class Verdict:
    """Everything the checker found about one transcript."""

    spec: str
    players: list[str]
    steps: list[Step] = field(default_factory=list)
    illegal: Problem | None = None
    over: bool = False
    scores: tuple[int, ...] = ()
    winners: list[str] = field(default_factory=list)
    claims: list[ClaimCheck] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unfinished: str = ""
    unknown_claims: list[UnknownClaim] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    """The notes by kind, for a verdict told in sentences (:func:`papergames.play.report.referee`):
    why an unfinished game is not over, the claims of something the game does not count, and
    what the rules add about the end (:meth:`~papergames.play.rules.Rules.describe`). :attr:`notes`
    holds them all as the command line prints them."""

    @property
    def legal(self) -> bool:
        """No illegal move, and the game reached its end."""
        return self.illegal is None and self.over

    @property
    def ok(self) -> bool:
        """Legal, and every claim holds."""
        return self.legal and all(c.holds for c in self.claims)

    def lines(self, *, verbose: bool = False) -> list[str]:
        """The verdict in a few lines: the outcome first, then scores, winner, claims and notes.

        After an illegal move the claims are not judged: the game is checked only up to that move,
        so what the players wrote for its end cannot be held against the truth.
        """
        lines = [f"sheet: {self.spec}"]
        if verbose:
            width = max((len(s.move) for s in self.steps), default=4)
            for step in self.steps:
                lines.append(
                    f"  {step.number:>3}. {step.player}: {step.move:<{width}}  "
                    f"({step.place})  {scores_text(self.players, step.scores)}"
                )
        problem = self.illegal
        if problem is not None:
            lines.append(
                f"ILLEGAL: move {problem.number} at {problem.place} ({problem.player}: "
                f"{problem.move}): {problem.reason} [{problem.code}]"
            )
            label = f"scores before move {problem.number}"
        elif self.over:
            lines.append(f"LEGAL: the game is complete after {len(self.steps)} moves")
            label = "final scores"
        else:
            lines.append(f"UNFINISHED after {len(self.steps)} legal moves")
            label = "scores so far"
        lines.append(f"{label}: {scores_text(self.players, self.scores)}")
        if self.winners:
            # Several winners are a tie or a winning team of partners: the rules decide, not us.
            word = "winner" if len(self.winners) == 1 else "winners"
            lines.append(f"{word}: {', '.join(self.winners)}")
        for claim in self.claims:
            if problem is not None:
                outcome = f"not checked: the game is checked only up to move {problem.number}"
            elif claim.holds:
                outcome = "holds"
            else:
                outcome = f"is wrong: the true value is {claim.actual}"
            lines.append(
                f"claim at {claim.place}: {claim.player} {claim.what} {claim.claimed} {outcome}"
            )
        lines.extend(f"note: {note}" for note in self.notes)
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "sheet": self.spec,
            "players": self.players,
            "legal": self.legal,
            "ok": self.ok,
            "over": self.over,
            "illegal": None
            if self.illegal is None
            else {
                "move": self.illegal.number,
                "where": str(self.illegal.place),
                "line": self.illegal.place.line or None,
                "text": self.illegal.move,
                "player": self.illegal.player,
                "code": self.illegal.code,
                "reason": self.illegal.reason,
            },
            "moves": [
                {
                    "move": s.number,
                    "where": str(s.place),
                    "player": s.player,
                    "text": s.move,
                    "scores": dict(zip(self.players, s.scores, strict=True)),
                }
                for s in self.steps
            ],
            "scores": dict(zip(self.players, self.scores, strict=True)),
            "winners": self.winners,
            "claims": [
                {
                    "player": c.player,
                    "what": c.what,
                    "claimed": c.claimed,
                    "actual": c.actual,
                    "holds": c.holds,
                    "where": str(c.place),
                }
                for c in self.claims
            ],
            "notes": self.notes,
        }


def check(transcript: Transcript, game: Rules[Any, Any] | None = None) -> Verdict:
    """Replay ``transcript`` and judge it."""
    game = game or build_game(transcript)
    names = [p.name for p in transcript.players]
    verdict = Verdict(str(transcript.spec), names)
    state = game.initial()
    for number, line in enumerate(transcript.moves, start=1):
        mover = game.to_move(state)
        player = line.player or (names[mover] if mover is not None else "")
        try:
            if mover is None:
                raise IllegalMove("game-over", "the game is already over")
            if line.player is not None and line.player != names[mover]:
                raise IllegalMove("wrong-player", f"it is {names[mover]}'s turn, not {player}'s")
            move = game.parse_move(line.text, state)
            state = game.apply(state, move)
        except MoveSyntaxError as exc:
            place = Place(line.place.line, line.place.column + exc.column - 1, line.place.path)
            verdict.illegal = Problem(number, place, line.text, player, "syntax", str(exc))
            break
        except IllegalMove as exc:
            verdict.illegal = Problem(number, line.place, line.text, player, exc.code, exc.reason)
            break
        verdict.steps.append(Step(number, player, line.text, line.place, game.scores(state)))
    verdict.over = game.is_over(state)
    verdict.scores = game.scores(state)
    verdict.winners = [names[p] for p in game.winners(state)]
    if verdict.illegal is None and not verdict.over:
        verdict.unfinished = _not_over(game, state, names)
        verdict.notes.append(verdict.unfinished)
    truth = {"score": game.scores(state), **game.claims(state)}
    for claim in transcript.claims:
        values = truth.get(claim.what)
        if values is None:
            known = ", ".join(truth)
            verdict.notes.append(f"{claim.place}: cannot check '{claim.what}' (known: {known})")
            verdict.unknown_claims.append(
                UnknownClaim(claim.player, claim.what, claim.value, claim.place, tuple(truth))
            )
            continue
        actual = str(values[names.index(claim.player)])
        verdict.claims.append(
            ClaimCheck(claim.player, claim.what, claim.value, actual, claim.place)
        )
    verdict.remarks = game.describe(state)
    verdict.notes.extend(verdict.remarks)
    return verdict


def _not_over(game: Rules[Any, Any], state: Any, names: list[str]) -> str:
    mover = game.to_move(state)
    assert mover is not None
    moves = game.legal_moves(state)
    example = next(moves, None)
    if example is None:
        return f"the game is not over, but {names[mover]} has no legal move"
    return (
        f"the game is not over: {names[mover]} is to move and can still play, "
        f"for example {game.format_move(example)}"
    )


def check_text(text: str, source: str = "<transcript>") -> Verdict | Judgement:
    """Judge a game given as text: a transcript (either form), or a position in a form of its own.

    A game whose record names a judge (a Cubist installation) recognises its own form; anything
    else is read as a transcript and replayed, or, when it gives the finished sheet (``final:``
    lines), judged as a finished position.

    Raises:
        PapergamesError: when the text cannot be read (the message says where); a
            :class:`~papergames.play.transcript.TranscriptError` for ``text`` that is not a string.
    """
    require_text(text, source)
    judge = find_judge(text)
    if judge is not None:
        return judge.judge(text, source)
    transcript = parse_transcript(text, source)
    if transcript.is_final_state:
        return check_final(transcript)
    return check(transcript)
