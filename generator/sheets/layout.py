"""The base every game's layout builds on.

A layout is a small object found by name in :mod:`papergames.games`. It declares its
parameters and builds page bodies (the playing field and score areas) inside the frame it is
given; :func:`papergames.sheets.sheet.make_sheet` adds the page furniture around them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from shapely.geometry import Polygon

from papergames.sheets.compose import Frame
from papergames.sheets.model import Item
from papergames.sheets.params import ParamSet
from papergames.sheets.rng import Rng
from papergames.sheets.spec import SheetSpec

if TYPE_CHECKING:
    from papergames.games import Game


@dataclass
class BuildContext:
    """What a layout gets to build one orientation of a sheet.

    Attributes:
        spec: the sheet spec (parameters with defaults filled in, seed, paper).
        frame: the content area in page mm.
        page_width, page_height: the paper in the chosen orientation.
        landscape: whether the page is turned.
    """

    spec: SheetSpec
    frame: Frame
    page_width: float
    page_height: float
    landscape: bool

    @property
    def params(self) -> Mapping[str, Any]:
        return self.spec.params

    def rng(self, *names: object) -> Rng:
        """A random stream of its own for one part of the layout, derived from the seed."""
        return Rng(self.spec.seed, self.spec.game, *names)


@dataclass
class PageBody:
    """The content of one page, before the furniture is added.

    Attributes:
        items: features and texts, all inside the frame.
        subtitle: a line under the title (a round number, a short instruction).
        field: outline of the playing field; its area decides the orientation.
        data: facts about the page kept in the model (a round's section counts).
    """

    items: list[Item]
    subtitle: str = ""
    field: Polygon | None = None
    data: dict[str, Any] = dataclasses.field(default_factory=dict)


class Layout:
    """One game's sheet.

    Subclasses set the class attributes and implement :meth:`build`.

    Attributes:
        name: the game's command-line name; its record in :mod:`papergames.games` gives the rest,
            the parameters among it (:attr:`params`).
        param_shape: the frozen dataclass the layout and its engine read the parameters as,
            through :meth:`~papergames.sheets.params.ParamSet.read` (``None`` when there are none).
        how_to_play: the rules in a few short paragraphs, for the rules page and
            ``papergames rules``.
    """

    name: ClassVar[str]
    param_shape: ClassVar[type[Any] | None] = None
    how_to_play: ClassVar[str] = ""

    @property
    def game(self) -> Game:
        """The game's record: title, author, players."""
        from papergames.games import get_game

        return get_game(self.name)

    @property
    def params(self) -> ParamSet:
        """The sheet's parameters and their notes, declared once in the game's ``params``
        module and named by its record, so that listing the games need not import the layout."""
        return self.game.params()

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def author(self) -> str:
        return self.game.author

    def validate(self, params: Mapping[str, Any]) -> None:
        """Check rules between parameters; raise :class:`SpecError` naming the keys."""

    def notes(self) -> list[str]:
        """Remarks for ``papergames list`` (a cap on a range, a known limit): the params' notes."""
        return list(self.params.notes)

    def field_area(self, ctx: BuildContext) -> float | None:
        """The area the first page's field would have in ``ctx``, when it is cheap to know.

        ``make_sheet`` builds both orientations to pick the one with the larger field; a layout
        that can tell the area without building the page (its labels, its random field) saves
        building the orientation that loses. It must rank orientations exactly as the built
        fields would. ``None`` (the default) means: build both and compare.
        """
        return None

    def build(self, ctx: BuildContext) -> list[PageBody]:
        """Build the page bodies for ``ctx.frame``; raise :class:`FitError` if it cannot fit."""
        raise NotImplementedError

    def page_title(self) -> str:
        return self.title
