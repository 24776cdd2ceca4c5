"""Co-Compositeness's sheet: the sizes its note promises are the ones the grid plan allows."""

from __future__ import annotations

import pytest

from papergames.games import get_layout
from papergames.layouts.cocomposite.params import LARGEST_SIZE, MIN_CELL
from papergames.layouts.cocomposite.sheet import largest_size


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_declared_largest_size_is_the_one_the_grid_plan_allows(paper: str) -> None:
    assert largest_size(paper) == LARGEST_SIZE[paper]


def test_the_note_names_the_least_square_and_the_largest_sizes() -> None:
    assert get_layout("cocomposite").notes() == [
        f"squares are at least {MIN_CELL:g} mm wide, so the largest size is 19 on a4, 20 on letter"
    ]
