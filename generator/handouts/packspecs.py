"""Which sheets a class pack holds: its games, each with its own settings, and the pack's seed.

``papergames pack`` and the web page's class pack both ask here, so a pack typed as a command
and one chosen in the browser are the same sheets. Each game is named as a spec without a seed
(``rings rounds=2``): its settings are that game's alone. Settings given for the whole pack
(``--set``) go to every game that takes them. The seed and the paper belong to the pack: the
first game's seed is the pack's, and every game uses it, so one number makes the pack again.

Example:
    >>> [str(s) for s in pack_specs(["rings rounds=2", "maze"], seed=7, paper="a4")]
    ['rings rounds=2 seed=7', 'maze seed=7']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from papergames.errors import SpecError
from papergames.sheets.spec import RESERVED, SheetSpec, split_spec

PACK_KEYS = ("seed", "paper")
"""Settings that belong to the whole pack, never to one of its games."""


def pack_specs(
    games: Sequence[str],
    *,
    shared: Mapping[str, str] | None = None,
    seed: int | None = None,
    paper: str = "a4",
) -> list[SheetSpec]:
    """The specs of a pack's games.

    Args:
        games: each game's name, alone or followed by its own ``key=value`` settings.
        shared: settings for every game that takes them (a one-game pack: for that game).
        seed: the pack's seed; a fresh one is drawn when it is ``None`` and ``shared`` has none.
        paper: the paper of every sheet.

    Raises:
        SpecError: for no game, an unknown game or key, a value out of range, a game's own
            ``seed`` or ``paper``, or a shared key that no game of the pack takes.
    """
    if not games:
        raise SpecError("choose at least one game for the pack")
    named = [_game_words(text) for text in games]
    shared = dict(shared or {})
    for name, own in named:
        for key in PACK_KEYS:
            if key in own:
                raise SpecError(
                    f"'{name} {key}={own[key]}': the {key} is the whole pack's, not one game's"
                )
    from papergames.games import get_layout

    layouts = [get_layout(name) for name, _ in named]
    if len(layouts) > 1:
        for key in shared:
            if key not in RESERVED and not any(key in layout.params for layout in layouts):
                names = ", ".join(layout.name for layout in layouts)
                raise SpecError(f"--set {key}: none of {names} takes '{key}'")
    specs: list[SheetSpec] = []
    for layout, text, (_, own) in zip(layouts, games, named, strict=True):
        mine = {k: v for k, v in shared.items() if len(layouts) == 1 or k in RESERVED}
        mine.update({k: v for k, v in shared.items() if k in layout.params})
        mine.update(own)
        chosen = specs[0].seed if specs else seed
        try:
            specs.append(SheetSpec.create(layout.name, mine, seed=chosen, paper=paper.lower()))
        except SpecError as exc:
            if not own:
                raise
            raise SpecError(f"'{text.strip()}': {exc}") from None
    return specs


def _game_words(text: str) -> tuple[str, dict[str, str]]:
    """A pack's game and its own settings; an error in them names the game's words.

    Example:
        >>> _game_words("rings rounds=2")
        ('rings', {'rounds': '2'})
    """
    try:
        return split_spec(text)
    except SpecError as exc:
        if len(text.split()) < 2:
            raise
        raise SpecError(f"'{text.strip()}': {exc}") from None
