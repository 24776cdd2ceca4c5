"""Form fields built from a game's declared parameters, so no game needs a form of its own.

Each :class:`~papergames.params.Param` says its kind, default, range or choices; this module
turns that into what a template needs to draw one input. The values a form sends back are the
parameters' own text forms (``on``/``off`` for a yes-or-no), parsed by the library exactly as a
spec's words are, so the form accepts and refuses what the command line does.

Example:
    >>> from papergames.params import Param
    >>> field = form_field(Param.int("size", 6, 3, 12, "squares on a side"))
    >>> field.widget, field.value, field.low, field.high
    ('number', '6', '3', '12')
    >>> form_field(Param.bool("tints", True, "grey tints")).options
    ('on', 'off')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from papergames.errors import SpecError
from papergames.params import Param, ParamSet
from papergames.spec import SHEET_PARAMS


@dataclass(frozen=True)
class FormField:
    """One input of the sheet form.

    Attributes:
        name: the parameter's key, which is also the input's name.
        widget: ``number``, ``select`` or ``text``.
        value: the default, in the parameter's text form.
        help: the parameter's one line of help.
        range_text: the allowed values, as ``papergames list`` prints them.
        low, high: a number's bounds as text (empty for other kinds).
        step: ``1`` for whole numbers, ``any`` for other numbers.
        options: the words a select offers.
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


def form_field(param: Param, value: object = None) -> FormField:
    """The input for ``param``, showing ``value`` (its default when ``None``)."""
    shown = param.format(param.default if value is None else value)
    base = FormField(param.name, "text", shown, param.help, param.range_text())
    if param.kind in ("int", "float"):
        return dataclasses.replace(
            base,
            widget="number",
            low=_bound(param, param.low),
            high=_bound(param, param.high),
            step="1" if param.kind == "int" else "any",
        )
    if param.kind == "bool":
        return dataclasses.replace(base, widget="select", options=("on", "off"))
    if param.kind == "choice":
        return dataclasses.replace(base, widget="select", options=param.choices)
    return base


def _bound(param: Param, bound: float | None) -> str:
    """A number's bound as the input's ``min`` or ``max`` (empty when it has none)."""
    if bound is None:
        return ""
    return str(int(bound)) if param.kind == "int" else param.format(bound)


def game_fields(params: ParamSet) -> list[FormField]:
    """The inputs for every parameter a game declares, in declared order."""
    return [form_field(p) for p in params]


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


def sheet_fields() -> list[FormField]:
    """The inputs for the spec's own keys but the seed (paper, orientation, markers, labels and
    any the spec comes to declare), from the spec's declaration; the seed has an input of its
    own, with a button for a new one."""
    return [form_field(p) for p in SHEET_PARAMS if p.name != "seed"]
