"""Form fields built from a game's declared parameters, so no game needs a form of its own.

Each :class:`~papergames.sheets.params.Param` says its kind, default, range or choices; this module
turns that into what a template needs to draw one input, with its help in words for people
("a whole number from 3 to 12", "A4 or Letter") rather than the command line's ``3..12`` or
``a4|letter``. The values a form sends back are the parameters' own text forms (``on``/``off``
for a yes-or-no), parsed by the library exactly as a spec's words are, so the form accepts and
refuses what the command line does.

A number is typed in a text input that brings up the phone's number keys (``inputmode``), not
in a ``type=number`` input: a browser sends an empty value for ``abc`` typed there, and the
refusal could not name what was typed.

Example:
    >>> from papergames.sheets.params import Param
    >>> field = form_field(Param.int("size", 6, 3, 12, "squares on a side"))
    >>> field.widget, field.value, field.low, field.high, field.allowed
    ('number', '6', '3', '12', 'a whole number from 3 to 12')
    >>> form_field(Param.bool("tints", True, "grey tints")).options
    ('on', 'off')
    >>> form_field(Param.int("size", 6, 3, 12, "squares on a side"), raw="abc").value
    'abc'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from papergames.errors import SpecError
from papergames.sheets.params import Param, ParamSet
from papergames.sheets.spec import SHEET_PARAMS

CHOICE_LABELS = {
    "a4": "A4",
    "a3": "A3",
    "a5": "A5",
    "a6": "A6",
    "letter": "Letter",
    "half-letter": "Half Letter",
    "quarter-letter": "Quarter Letter",
}
"""How a select shows a choice whose word is not how people write it (paper sizes)."""


@dataclass(frozen=True)
class FormField:
    """One input of the sheet form.

    Attributes:
        name: the parameter's key, which is also the input's name.
        widget: ``number``, ``select`` or ``text``.
        value: the value shown: the default in the parameter's text form, or what was typed.
        help: the parameter's one line of help.
        range_text: the allowed values, as ``papergames list`` prints them.
        low, high: a number's bounds as text (empty for other kinds).
        step: ``1`` for whole numbers, ``any`` for other numbers.
        options: the words a select offers.
        label: the input's label: the key with spaces for underscores.
        allowed: the allowed values in words, for the help (empty for a select, whose options
            show them).
        inputmode: the keys a phone brings up for a number (``numeric`` or ``decimal``).
        option_labels: how a select shows each of its ``options``.
    """

    name: str
    widget: str
    value: str
    help: str
    range_text: str
    low: str = ""
    high: str = ""
    step: str = ""
    options: tuple[str, ...] = ()
    label: str = ""
    allowed: str = ""
    inputmode: str = ""
    option_labels: tuple[str, ...] = ()

    @property
    def choices(self) -> list[tuple[str, str]]:
        """A select's (value, shown label) pairs."""
        labels = self.option_labels or self.options
        return list(zip(self.options, labels, strict=True))


def allowed_words(param: Param) -> str:
    """What ``param`` takes, in words for people, never with the command line's ``|``.

    Example:
        >>> from papergames.sheets.params import Param
        >>> allowed_words(Param.choice("paper", "a4", ("a4", "letter", "a5"), "the paper"))
        'A4, Letter or A5'
        >>> allowed_words(Param.float("cell", 20.0, 15.0, 30.0, "a cell's side"))
        'a number from 15 to 30'
    """
    if param.kind in ("int", "float"):
        return param.takes()
    if param.kind == "bool":
        return "on or off"
    if param.kind == "choice":
        words = [CHOICE_LABELS.get(c, c) for c in param.choices]
        return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
    if param.kind == "names":
        return "names separated by commas, without spaces"
    if param.kind == "players":
        return "names separated by commas, in the order the players sit (Mia Rose, Leo)"
    return param.takes().replace("|", " or ")


def form_field(param: Param, value: object = None, raw: str | None = None) -> FormField:
    """The input for ``param``, showing ``value`` (its default when ``None``), or the text
    ``raw`` as it was typed (kept even when it is refused, so the form shows what was sent)."""
    shown = param.format(param.default if value is None else value)
    if raw is not None:
        shown = raw
    base = FormField(
        param.name,
        "text",
        shown,
        param.help,
        param.range_text(),
        label=param.name.replace("_", " "),
        allowed=allowed_words(param),
    )
    if param.kind in ("int", "float"):
        return dataclasses.replace(
            base,
            widget="number",
            low=_bound(param, param.low),
            high=_bound(param, param.high),
            step="1" if param.kind == "int" else "any",
            inputmode="numeric" if param.kind == "int" else "decimal",
        )
    if param.kind in ("bool", "choice"):
        options = ("on", "off") if param.kind == "bool" else tuple(param.choices)
        if raw is not None and raw not in options:
            shown = param.format(param.default if value is None else value)
        labels = tuple(CHOICE_LABELS.get(o, o) for o in options)
        return dataclasses.replace(
            base, widget="select", value=shown, options=options, option_labels=labels, allowed=""
        )
    return base


def _bound(param: Param, bound: float | None) -> str:
    """A number's bound as the input's ``min`` or ``max`` (empty when it has none)."""
    if bound is None:
        return ""
    return str(int(bound)) if param.kind == "int" else param.format(bound)


def game_fields(params: ParamSet, typed: Mapping[str, str] | None = None) -> list[FormField]:
    """The inputs for every parameter a game declares, in declared order, showing the values
    ``typed`` for them as they were typed."""
    typed = typed or {}
    return [form_field(p, raw=typed.get(p.name)) for p in params]


def option_fields(params: ParamSet, given: Mapping[str, str]) -> list[FormField]:
    """The inputs for a rules engine's options, showing the values a transcript gave (the
    default for one not given or not valid: the engine refuses that one with its reason)."""
    fields = []
    for param in params:
        try:
            value = param.parse(given[param.name]) if param.name in given else None
        except SpecError:
            value = None
        fields.append(form_field(param, value))
    return fields


def sheet_fields(typed: Mapping[str, str] | None = None) -> list[FormField]:
    """The inputs for the spec's own keys but the seed (paper, orientation, markers, labels and
    any the spec comes to declare), from the spec's declaration; the seed has an input of its
    own, with a button for a new one."""
    typed = typed or {}
    # A class and group number belong to a class list's pack; a sheet made here may still
    # carry its players' names.
    hidden = ("seed", "class", "group")
    return [form_field(p, raw=typed.get(p.name)) for p in SHEET_PARAMS if p.name not in hidden]
