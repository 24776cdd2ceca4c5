"""The games, found by name; their modules are imported only when needed."""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

from papergames.errors import SpecError

if TYPE_CHECKING:
    from papergames.layout import Layout

LAYOUTS: dict[str, str] = {
    "vasarely": "papergames.layouts.vasarely:LAYOUT",
    "miro": "papergames.layouts.miro:LAYOUT",
    "mondrian": "papergames.layouts.mondrian:LAYOUT",
    "arp": "papergames.layouts.arp:LAYOUT",
    "delaunay": "papergames.layouts.delaunay:LAYOUT",
    "klee": "papergames.layouts.klee:LAYOUT",
    "springer": "papergames.layouts.springer:LAYOUT",
    "rings": "papergames.layouts.rings:LAYOUT",
    "spaghetti": "papergames.layouts.spaghetti:LAYOUT",
    "maze": "papergames.layouts.maze:LAYOUT",
    "cocomposite": "papergames.layouts.cocomposite:LAYOUT",
    "palindromes": "papergames.layouts.palindromes:LAYOUT",
    "compositie": "papergames.layouts.compositie:BOARD",
    "plan-a-head": "papergames.layouts.compositie:PLAN_A_HEAD",
    "pick-two-one": "papergames.layouts.compositie:PICK_TWO_ONE",
    "cannon-ball": "papergames.layouts.compositie:CANNON_BALL",
    "cubist-studio": "papergames.layouts.cubist:STUDIO",
    "cubist-score": "papergames.layouts.cubist:SCORE",
}
"""Command-line name -> ``module:attribute`` of the layout object."""


def game_names() -> list[str]:
    return list(LAYOUTS)


@cache
def get_layout(name: str) -> Layout:
    """The layout of a game by its command-line name.

    Raises:
        SpecError: when no game has that name (the message lists the known ones).
    """
    target = LAYOUTS.get(name.lower())
    if target is None:
        raise SpecError(f"unknown game '{name}' (known: {', '.join(LAYOUTS)})")
    module_name, attr = target.split(":")
    layout: Layout = getattr(importlib.import_module(module_name), attr)
    return layout
