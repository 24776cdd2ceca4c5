"""What the reader could not settle, said once the players' pencils have names.

The reader knows a pencil by its colour box (``1``..``4``, ``neutral``); a person knows it as
red or light blue. A note is written with a place for each colour it names, and said with the
names the judging gives the pencils (:func:`papergames.photo.outcome.seat_players`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Note:
    """A remark on a read sheet for the person who photographed it.

    Attributes:
        text: the remark, with ``{0}``, ``{1}``.. where the colours are named.
        colours: the colour keys named, in the order of their places.

    Example:
        >>> note = Note("colours {0} and {1} look alike", ("1", "2"))
        >>> note.said({"1": "red", "2": "orange"})
        'colours red and orange look alike'
        >>> note.said({"1": "red"})
        'colours red and the colour of box 2 look alike'
    """

    text: str
    colours: tuple[str, ...] = ()

    def said(self, words: Mapping[str, str]) -> str:
        """The remark with each colour named by ``words`` (by its box where it has no name)."""
        return self.text.format(
            *(words.get(key, f"the colour of box {key}") for key in self.colours)
        )
