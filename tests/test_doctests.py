"""Every docstring example in the package runs, as shapely's do: they are part of the docs.

One test per module, found by walking the installed package, so a new module's examples run
without anyone listing it here.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("papergames", "papergames.layouts", "papergames.output")
"""The package and its subpackages that live in folders of their own (see pyproject.toml)."""


def _modules() -> list[str]:
    names = set(PACKAGES)
    for package in PACKAGES:
        path = importlib.import_module(package).__path__
        names.update(info.name for info in pkgutil.walk_packages(path, f"{package}."))
    return sorted(names)


MODULES = _modules()


def test_the_walk_finds_the_core_the_layouts_and_the_renderers() -> None:
    assert {
        "papergames.sheets.topology",
        "papergames.layouts.rings",
        "papergames.output.svg",
    } <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring examples of {name} failed"
