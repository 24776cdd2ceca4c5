"""Shared fixtures: sheets are cached per spec so the many invariant tests stay fast."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING

import pytest

from papergames.sheets.model import Sheet
from papergames.sheets.sheet import make_sheet, sheets_reused
from papergames.sheets.spec import SheetSpec

if TYPE_CHECKING:
    from starlette.testclient import TestClient


@cache
def sheet_for(game: str, seed: int = 1, paper: str = "a4", orientation: str = "auto") -> Sheet:
    """A sheet with default parameters, built once per test session."""
    return make_sheet(SheetSpec.create(game, seed=seed, paper=paper, orientation=orientation))


@pytest.fixture(scope="module")
def sheets_built_once() -> Iterator[None]:
    """Each sheet built once for the module that asks for this (``pytestmark``): for modules
    that judge the same sheets many times (every check and every second look asks for the
    sheet again) and change none of them. A module that counts builds, or makes packs (which
    shift a sheet's pages), must not."""
    with sheets_reused():
        yield


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The web page's app behind Starlette's test client, started once per test module.

    Starlette warns that its test client's use of httpx is deprecated; the tests do not care.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        from papergames.web.app import create_app

        with TestClient(create_app(), raise_server_exceptions=True) as made:
            yield made
