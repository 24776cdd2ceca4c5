"""The sheet spec: which game, which parameters, which seed, which paper.

A spec has one canonical text form, printed in every sheet's footer and in its QR code, so a
sheet can always be made again and a transcript can name it. Parameters equal to their default
are left out; ``seed`` always appears; ``paper``, ``orientation`` and ``markers`` appear when not
the default.

Example:
    >>> spec = SheetSpec.parse("rings circles=7 seed=42")
    >>> spec.params["circles"], spec.seed, spec.paper
    (7, 42, 'a4')
    >>> str(spec)
    'rings circles=7 seed=42'
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from papergames.errors import SpecError
from papergames.rng import MAX_SEED
from papergames.units import PAPERS

ORIENTATIONS = ("auto", "portrait", "landscape")
RESERVED = ("seed", "paper", "orientation", "markers")
SWITCHES = {"on": True, "off": False}


def new_seed() -> int:
    """A fresh seed short enough to type from a printed sheet."""
    return secrets.randbelow(1_000_000)


def parse_seed(text: str) -> int:
    """Parse a seed, naming the problem when it is not a whole number in range."""
    try:
        seed = int(text)
    except ValueError:
        raise SpecError(f"seed={text} is not allowed: seed takes a whole number") from None
    if not 0 <= seed <= MAX_SEED:
        raise SpecError(
            f"seed={text} is not allowed: seed takes a whole number from 0 to {MAX_SEED}"
        )
    return seed


def parse_switch(key: str, text: str) -> bool:
    """Parse ``on`` or ``off``, naming the key when it is neither."""
    try:
        return SWITCHES[text.lower()]
    except KeyError:
        raise SpecError(f"{key}={text} is not allowed: {key} takes on or off") from None


@dataclass(frozen=True)
class SheetSpec:
    """Everything needed to make one sheet again, exactly.

    Attributes:
        game: the game's command-line name.
        params: every layout parameter, defaults filled in.
        seed: the random seed.
        paper: a key of :data:`papergames.units.PAPERS`.
        orientation: ``auto``, ``portrait`` or ``landscape``.
        markers: whether the corner markers the photo reader finds the sheet by are printed.
    """

    game: str
    params: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    paper: str = "a4"
    orientation: str = "auto"
    markers: bool = True

    @classmethod
    def create(
        cls,
        game: str,
        settings: Mapping[str, str] | None = None,
        *,
        seed: int | None = None,
        paper: str = "a4",
        orientation: str = "auto",
        markers: bool = True,
    ) -> SheetSpec:
        """Build a spec from text settings (as given to ``--set``), validating every value."""
        from papergames.games import get_layout

        layout = get_layout(game)
        paper = paper.lower()
        if paper not in PAPERS:
            raise SpecError(f"paper={paper} is not allowed: paper takes one of {', '.join(PAPERS)}")
        if orientation not in ORIENTATIONS:
            raise SpecError(
                f"orientation={orientation} is not allowed: orientation takes one of "
                + ", ".join(ORIENTATIONS)
            )
        values = layout.params.parse_items(dict(settings or {}), layout.name)
        params = layout.params.resolve(values)
        layout.validate(params)
        return cls(
            layout.name,
            params,
            new_seed() if seed is None else seed,
            paper,
            orientation,
            markers,
        )

    @classmethod
    def parse(cls, text: str) -> SheetSpec:
        """Parse the canonical text form (as printed in a sheet's footer)."""
        words = text.split()
        if not words:
            raise SpecError("empty sheet spec: expected a game name, for example 'rings seed=42'")
        game = words[0]
        settings: dict[str, str] = {}
        extra: dict[str, str] = {}
        for word in words[1:]:
            key, sep, value = word.partition("=")
            if not sep or not key:
                raise SpecError(f"'{word}' in the sheet spec is not of the form key=value")
            if key in settings or key in extra:
                raise SpecError(f"'{key}' is given twice in the sheet spec")
            (extra if key in RESERVED else settings)[key] = value
        seed = parse_seed(extra["seed"]) if "seed" in extra else None
        if seed is None:
            raise SpecError("the sheet spec has no seed (add seed=N)")
        return cls.create(
            game,
            settings,
            seed=seed,
            paper=extra.get("paper", "a4"),
            orientation=extra.get("orientation", "auto"),
            markers=parse_switch("markers", extra.get("markers", "on")),
        )

    def settings(self) -> dict[str, str]:
        """The non-default parameters in canonical text form."""
        from papergames.games import get_layout

        return get_layout(self.game).params.non_default(self.params)

    def __str__(self) -> str:
        words = [self.game]
        words += [f"{k}={v}" for k, v in self.settings().items()]
        words.append(f"seed={self.seed}")
        if self.paper != "a4":
            words.append(f"paper={self.paper}")
        if self.orientation != "auto":
            words.append(f"orientation={self.orientation}")
        if not self.markers:
            words.append("markers=off")
        return " ".join(words)

    def with_seed(self, seed: int) -> SheetSpec:
        """The same spec with another seed."""
        return SheetSpec(self.game, self.params, seed, self.paper, self.orientation, self.markers)
