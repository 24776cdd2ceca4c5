"""Shared fixtures: sheets are cached per spec so the many invariant tests stay fast."""

from __future__ import annotations

from functools import cache

from papergames.model import Sheet
from papergames.sheet import make_sheet
from papergames.spec import SheetSpec


@cache
def sheet_for(game: str, seed: int = 1, paper: str = "a4", orientation: str = "auto") -> Sheet:
    """A sheet with default parameters, built once per test session."""
    return make_sheet(SheetSpec.create(game, seed=seed, paper=paper, orientation=orientation))
