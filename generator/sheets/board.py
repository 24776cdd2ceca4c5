"""The spaces of a page as a rules engine sees them: numbered, named, and who is next to whom.

Every engine that plays on spaces starts the same way: list the page's features of one kind,
number them, accept the names a transcript may use for them, and know which ones share a border
and which touch only at a corner. :class:`Board` does that once per page, from the page's
:class:`~papergames.sheets.topology.Topology`, so every engine reads "next to" the same way.

Example:
    >>> from shapely.geometry import box
    >>> from papergames.sheets.model import Feature, Kind, Page
    >>> page = Page(100, 100)
    >>> for n, x in enumerate((0, 10, 20), start=1):
    ...     page.add(Feature(f"space-{n}", Kind.SPACE, box(x, 0, x + 10, 10), label=f"s{n}"))
    >>> board = Board.of(page)
    >>> board.ids, board.neighbours[1], board.lookup("S3"), board.lookup("space-1")
    (('space-1', 'space-2', 'space-3'), (0, 2), 2, 0)
    >>> board.named({"a1": "space-2"}).lookup("A1")
    1
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from papergames.sheets.model import Feature, Kind, Page

if TYPE_CHECKING:
    from papergames.sheets.topology import Topology


@dataclass(frozen=True, eq=False)
class Board:
    """The features of one kind on a page, numbered in page order, with their contacts.

    Attributes:
        features: the features, in the order the page holds them.
        ids: their ids, in the same order; a feature's number is its place here.
    """

    features: tuple[Feature, ...]
    page: Page
    kind: Kind = Kind.SPACE
    names: tuple[tuple[str, str], ...] = ()
    """More names a transcript may use, each with the id it names: the names a game prints
    beside its items (Klee's grid coordinates), given by :meth:`named`."""

    @classmethod
    def of(cls, page: Page, kind: Kind = Kind.SPACE) -> Board:
        """The board of ``page``'s features of ``kind``, built once and kept on the page."""
        if kind not in page.boards:
            page.boards[kind] = cls(tuple(page.features(kind)), page, kind)
        return page.boards[kind]

    def named(self, names: Mapping[str, str]) -> Board:
        """This board accepting ``names`` too (each a printed name and the id it names).

        A game whose printed names are not the ids' numbers (grid coordinates, a triangle's
        ``T3``) hands them here, so its engine reads them through the same :meth:`lookup`.

        Raises:
            KeyError: when a name is given for an id the board does not hold.
        """
        for fid in names.values():
            self.index[fid]
        return dataclasses.replace(self, names=(*self.names, *names.items()))

    @cached_property
    def ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.features)

    @cached_property
    def index(self) -> Mapping[str, int]:
        """Each id's number."""
        return {fid: k for k, fid in enumerate(self.ids)}

    @cached_property
    def aliases(self) -> Mapping[str, int]:
        """Every name a transcript may use, upper-cased: the id, the id without its kind
        (``17`` for ``space-17``, ``3-7`` for ``point-3-7``), the feature's label, and the
        names given with :meth:`named` (which win over the others)."""
        names: dict[str, int] = {}
        for k, feature in enumerate(self.features):
            names[feature.id.upper()] = k
            names[feature.id.partition("-")[2].upper()] = k
            if feature.label:
                names[feature.label.upper()] = k
        for name, fid in self.names:
            names[name.upper()] = self.index[fid]
        return names

    def lookup(self, name: str) -> int | None:
        """The number of the feature a transcript names (any alias, any case), if one exists."""
        return self.aliases.get(name.strip().upper())

    @cached_property
    def topology(self) -> Topology:
        """The page's topology for spaces; for another kind, one of these features alone."""
        if self.kind == Kind.SPACE:
            return self.page.topology
        from papergames.sheets.topology import Topology

        return Topology({f.id: f.geometry for f in self.features})

    def _numbers(self, relation: Mapping[str, frozenset[str]]) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(sorted(self.index[n] for n in relation[fid])) for fid in self.ids)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each feature, in ascending order, those sharing a border of positive length."""
        return self._numbers(self.topology.neighbours)

    @cached_property
    def corners(self) -> tuple[tuple[int, ...], ...]:
        """For each feature, in ascending order, those it touches only at corners."""
        return self._numbers(self.topology.corner_neighbours)

    @cached_property
    def touching(self) -> tuple[tuple[int, ...], ...]:
        """For each feature, in ascending order, those it touches at all (border or corner)."""
        return tuple(
            tuple(sorted((*edge, *corner)))
            for edge, corner in zip(self.neighbours, self.corners, strict=True)
        )

    def are_neighbours(self, a: int, b: int) -> bool:
        return b in self.neighbours[a]

    def __len__(self) -> int:
        return len(self.features)
