"""Partnership play for four: partners sit opposite (players 1+3 against 2+4).

Sackson's Miro gives two ways to score a team besides adding the partners' points (double the
lower, or the higher, partner's score), and Arp borrows them; Mondrian and Delaunay simply add.
The rules engines share these pieces, through :class:`TeamPlay`, so every game counts a team the
same way.

Example:
    >>> team_scores((10, 3, 4, 8), "add"), team_scores((10, 3, 4, 8), "double-lower")
    ((14, 11), (18, 14))
    >>> team_winners((10, 3, 4, 8), "add")
    [0, 2]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from papergames.errors import SpecError
from papergames.sheets.params import Param

PARTNERSHIP = ("add", "double-lower", "double-higher")
TEAM_PLAYERS = 4

TEAMS_OPTION = Param.bool("teams", False, "four players in two teams, partners 1+3 and 2+4")
PARTNERSHIP_OPTION = Param.choice(
    "partnership",
    "add",
    PARTNERSHIP,
    "team score: add, or double the lower or the higher partner's score",
)


def team_total(a: int, b: int, mode: str = "add") -> int:
    """Two partners' team score: their sum, or with the lower (higher) score counted twice.

    Example:
        >>> [team_total(10, 4, mode) for mode in PARTNERSHIP]
        [14, 18, 24]
    """
    if mode == "double-lower":
        return a + b + min(a, b)
    if mode == "double-higher":
        return a + b + max(a, b)
    return a + b


def team_scores(scores: Sequence[int], mode: str = "add") -> tuple[int, int]:
    """The two teams' totals: players 1+3, then 2+4."""
    return team_total(scores[0], scores[2], mode), team_total(scores[1], scores[3], mode)


def team_winners(scores: Sequence[int], mode: str = "add", *, lowest: bool = False) -> list[int]:
    """The players of the winning team (both teams on a tie); ``lowest`` when fewer is better."""
    teams = team_scores(scores, mode)
    best = min(teams) if lowest else max(teams)
    return [p for p in range(TEAM_PLAYERS) if teams[p % 2] == best]


def check_team_options(options: Mapping[str, Any], players: int) -> None:
    """Refuse team options that do not fit the table.

    Raises:
        SpecError: teams without four players, or partnership scoring without teams.
    """
    teams = bool(options.get("teams"))
    if teams and players != TEAM_PLAYERS:
        raise SpecError("teams=on needs four players")
    if options.get("partnership", "add") != "add" and not teams:
        raise SpecError("partnership scoring needs teams=on")


def team_line(names: Sequence[str], totals: tuple[int, int], what: str = "teams") -> str:
    """A referee's line naming both teams and their totals."""
    return f"{what}: {names[0]} + {names[2]} {totals[0]}, {names[1]} + {names[3]} {totals[1]}"


@dataclass(frozen=True)
class TeamPlay:
    """How a table of players scores: each for themselves, or in two teams of partners.

    An engine makes one from its options and asks it for winners, team claims and the referee's
    team line; with ``teams`` off each of these gives what a game without teams gives.

    Example:
        >>> table = TeamPlay.of(True, "double-lower", players=4)
        >>> table.winners((10, 3, 4, 8)), table.claims((10, 3, 4, 8))
        ([0, 2], {'team': (18, 14, 18, 14)})
        >>> table.describe(["Ann", "Bob", "Cy", "Di"], (10, 3, 4, 8))
        ['teams (double-lower): Ann + Cy 18, Bob + Di 14']
        >>> TeamPlay.of(False, "add", players=3).winners((1, 2, 3))
    """

    teams: bool
    partnership: str = "add"

    @classmethod
    def of(cls, teams: bool, partnership: str, *, players: int) -> TeamPlay:
        """The table's team play, refusing options that do not fit it.

        Raises:
            SpecError: teams without four players, or partnership scoring without teams.
        """
        check_team_options({"teams": teams, "partnership": partnership}, players)
        return cls(teams, partnership)

    def scores(self, scores: Sequence[int]) -> tuple[int, int]:
        """The two teams' totals: players 1+3, then 2+4."""
        return team_scores(scores, self.partnership)

    def winners(self, scores: Sequence[int], *, lowest: bool = False) -> list[int] | None:
        """The winning team's players, or ``None`` when everyone plays for themselves."""
        return team_winners(scores, self.partnership, lowest=lowest) if self.teams else None

    def claims(self, scores: Sequence[int]) -> dict[str, tuple[int, ...]]:
        """``team``: each player's team total, for a transcript to claim; nothing without teams."""
        if not self.teams:
            return {}
        totals = self.scores(scores)
        return {"team": tuple(totals[p % 2] for p in range(TEAM_PLAYERS))}

    def describe(self, names: Sequence[str], scores: Sequence[int]) -> list[str]:
        """The referee's line on the teams' totals; nothing without teams."""
        if not self.teams:
            return []
        return [team_line(names, self.scores(scores), f"teams ({self.partnership})")]
