"""papergames: printable sheets for pencil-and-paper games, and a checker for finished games.

The core builds a sheet as geometry with stable ids (:mod:`papergames.sheets.model`) from a spec
(:mod:`papergames.sheets.spec`); renderers in :mod:`papergames.output` turn it into PDF, SVG or PNG.

Example:
    >>> from papergames import SheetSpec, make_sheet
    >>> sheet = make_sheet(SheetSpec.create("rings", {"circles": "5"}, seed=7))
    >>> len(sheet.pages)
    1
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from papergames.version import __version__

if TYPE_CHECKING:
    from papergames.sheets.sheet import make_sheet
    from papergames.sheets.spec import SheetSpec

__all__ = ["SheetSpec", "__version__", "make_sheet"]


def __getattr__(name: str) -> Any:
    # Lazy so that `papergames --help` does not pay for shapely and the layouts.
    if name == "make_sheet":
        from papergames.sheets.sheet import make_sheet

        return make_sheet
    if name == "SheetSpec":
        from papergames.sheets.spec import SheetSpec

        return SheetSpec
    raise AttributeError(name)
