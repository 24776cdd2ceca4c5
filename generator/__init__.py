"""papergames: printable sheets for pencil-and-paper games, and a checker for finished games.

The core builds a sheet as geometry with stable ids (:mod:`papergames.sheets.model`) from a spec
(:mod:`papergames.sheets.spec`); renderers in :mod:`papergames.output` turn it into PDF, SVG or
PNG. The names most users need are here, each loaded only when first used (so that
``papergames --help`` pays for no geometry): a sheet (:class:`SheetSpec`, :func:`make_sheet`),
a game checked from its text (:func:`check_text`), and a class's handouts (:func:`make_pack`,
:func:`make_book`).

Example:
    >>> from papergames import SheetSpec, make_sheet
    >>> sheet = make_sheet(SheetSpec.create("rings", {"circles": "5"}, seed=7))
    >>> len(sheet.pages)
    1
    >>> from papergames import check_text
    >>> check_text("sheet: cocomposite size=4 seed=1\\nplayers: Ann, Bob\\nb2\\nb2\\n").legal
    False
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from papergames.version import __version__

if TYPE_CHECKING:
    from papergames.handouts.book import make_book
    from papergames.handouts.pack import make_pack
    from papergames.play.checker import check_text
    from papergames.sheets.sheet import make_sheet
    from papergames.sheets.spec import SheetSpec

_HOMES = {
    "SheetSpec": "papergames.sheets.spec",
    "make_sheet": "papergames.sheets.sheet",
    "check_text": "papergames.play.checker",
    "make_pack": "papergames.handouts.pack",
    "make_book": "papergames.handouts.book",
}

__all__ = ["SheetSpec", "__version__", "check_text", "make_book", "make_pack", "make_sheet"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'papergames' has no attribute {name!r}")
