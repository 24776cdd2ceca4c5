"""Players' names: what may name a player, and how a name is written inside a sheet's spec.

One rule serves every place a name comes from (a transcript's ``players:`` line, the recorder,
a class list, a spec read back from a QR code), so a name printed on a sheet can always be
typed in a transcript. A name starts with a letter of any script (``Zoë``, ``Łukasz``,
``Анна``, ``Νίκος``); then letters, digits and ``' . - _``; its words are parted by single
spaces; it has at most :data:`MAX_NAME` characters. Names are kept in Unicode's composed form
(NFC), so the same name typed two ways is one name.

A spec's words are parted by spaces, so inside a spec a name writes its spaces as ``+`` and the
names are parted by commas: ``names=Mia+Rose,Leo``. Neither ``+`` nor ``,`` can be part of a
name, so the text form reads back to exactly the names it was made from.

Example:
    >>> name_problem("Mia Rose") is None, name_problem("Łukasz") is None
    (True, True)
    >>> format_names(("Mia Rose", "Leo")), parse_names("Mia+Rose, Leo")
    ('Mia+Rose,Leo', ('Mia Rose', 'Leo'))
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

MAX_NAME = 24
"""The longest player's name, in characters (spaces included)."""
KEYWORDS = ("sheet", "players", "options", "claim", "final")
"""The transcript's keywords: a player named so could not be told from a header line."""
NAME_PATTERN = r"[^\W\d_](?:[\w'.-]| (?=[\w'.-])){0,23}"
NAME = re.compile(NAME_PATTERN)
"""A player's name: a letter, then letters, digits and ``' . - _``, words parted by single
spaces (``Mia Rose``), at most :data:`MAX_NAME` characters in all."""
MAX_PLAYERS_NAMED = 6
"""The most names one sheet carries: the most players any game takes."""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a player, or ``None`` when it can.

    Example:
        >>> name_problem("players")
        "'players' is a keyword and cannot name a player"
        >>> name_problem("7up")
        "'7up' is not a player's name: write letters and digits, starting with a letter"
    """
    if len(name) > MAX_NAME:
        return f"'{name[:40]}' is longer than a player's name may be ({MAX_NAME} characters)"
    if not NAME.fullmatch(name):
        shown = name if name.isprintable() else ascii(name)
        return f"'{shown}' is not a player's name: write letters and digits, starting with a letter"
    if name.lower() in KEYWORDS:
        return f"'{name}' is a keyword and cannot name a player"
    return None


def tidy_name(text: str) -> str:
    """A name as typed, in composed form with its runs of spaces made single.

    Example:
        >>> tidy_name("  Zoe\\u0308   Martin ")
        'Zoë Martin'
    """
    return " ".join(unicodedata.normalize("NFC", text).split())


def format_names(names: Sequence[str]) -> str:
    """The names as a spec writes them: spaces as ``+``, parted by commas."""
    return ",".join(name.replace(" ", "+") for name in names)


def parse_names(text: str) -> tuple[str, ...]:
    """The names a spec's ``names=`` text holds, each checked by :func:`name_problem`.

    Raises:
        ValueError: naming the first name that cannot name a player, or a name given twice.
    """
    names: list[str] = []
    for word in text.split(","):
        name = tidy_name(word.replace("+", " "))
        if not name:
            continue
        problem = name_problem(name)
        if problem:
            raise ValueError(problem)
        if name in names:
            raise ValueError(f"'{name}' is named twice")
        names.append(name)
    if len(names) > MAX_PLAYERS_NAMED:
        raise ValueError(f"{len(names)} names, where a sheet has at most {MAX_PLAYERS_NAMED}")
    return tuple(names)


def initials(name: str) -> str:
    """The initials printed in a named player's X box: a letter from each of up to 3 words.

    Example:
        >>> initials("Mia Rose"), initials("Łukasz"), initials("Anna Maria de la Cruz")
        ('MR', 'Ł', 'AMD')
    """
    return "".join([word[0] for word in name.split() if word[0].isalpha()][:3]).upper()
