"""Colours that belong to no single player get named colour boxes the photo reader learns from.

Mondrian's neutral colour, Delaunay's four game colours and Klee's four shared pencils each have a
box ``box-legend-<colour>`` with a printed name. These tests check, on several seeds, papers and
player counts, that every such box is there, is big enough to colour, stays inside the margins,
touches nothing else on the sheet, and carries the name the engine uses for that colour.
"""

from __future__ import annotations

import pytest
from shapely.geometry import box

from papergames.games import get_rules
from papergames.sheets.model import Feature, Page, Text
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

MARGIN = 10.0

SMALLEST = 8.0
"""Side in mm under which a box is too small to fill by pencil and for the reader to sample."""

CASES = [
    ("mondrian", {}),
    ("mondrian", {"field": "mini"}),
    ("delaunay", {}),
    ("delaunay", {"rows": "2"}),
    ("delaunay", {"rows": "4", "sections": "4"}),
    ("klee", {}),
]


def _named_boxes(page: Page) -> dict[str, Feature]:
    found = {}
    for item in page.items:
        if isinstance(item, Feature) and item.id.startswith("box-legend-"):
            key = item.id.removeprefix("box-legend-")
            if not key.isdigit():
                found[key] = item
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("game", "params"), CASES, ids=lambda v: str(v))
def test_every_shared_colour_has_a_clear_named_box(
    game: str, params: dict[str, str], seed: int, paper: str
) -> None:
    spec = SheetSpec.create(game, params, seed=seed, paper=paper)
    page = make_sheet(spec).pages[0]
    boxes = _named_boxes(page)
    assert sorted(boxes) == sorted(get_rules(game).extra_colours), "one box per shared colour"
    inside = box(MARGIN, MARGIN, page.width - MARGIN, page.height - MARGIN)
    others = [
        item
        for item in page.items
        if isinstance(item, Feature) and item.id not in {b.id for b in boxes.values()}
    ]
    texts = {item.text for item in page.items if isinstance(item, Text)}
    for name, feature in boxes.items():
        shape = feature.geometry
        minx, miny, maxx, maxy = shape.bounds
        assert min(maxx - minx, maxy - miny) >= SMALLEST, f"{name}'s box is too small to fill"
        assert inside.contains(shape), f"{name}'s box crosses the 10 mm margin"
        clash = [o.id for o in others if o.geometry.intersects(shape.buffer(0.5))]
        assert not clash, f"{name}'s box touches {clash}"
        assert any(name in text for text in texts), f"no printed label names {name}"


@pytest.mark.parametrize("game", ["vasarely", "miro", "arp", "springer"])
def test_games_whose_colours_are_the_players_have_no_named_boxes(game: str) -> None:
    page = make_sheet(SheetSpec.create(game, seed=1)).pages[0]
    assert _named_boxes(page) == {}
    assert any(isinstance(item, Feature) and item.id == "box-legend-1" for item in page.items), (
        "each player's own colour box is still there"
    )
