"""Every game's field for one seed, compared with its golden model in tests/data."""

from __future__ import annotations

import pytest

from papergames.games import game_names

from conftest import sheet_for
from golden import assert_matches_golden


@pytest.mark.parametrize("game", game_names())
def test_field_matches_its_golden_model(game: str) -> None:
    assert_matches_golden(sheet_for(game, 1), f"{game}-seed1")
