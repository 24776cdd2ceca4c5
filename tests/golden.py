"""Golden field models: a small JSON model of a sheet's field, kept in tests/data and compared.

The model holds every field feature's id, kind, group, data and geometry (as WKT rounded to
0.01 mm), not rendered bytes, so a change of renderer does not trip it but an unintended change
of geometry or topology does. Set ``PAPERGAMES_UPDATE_GOLDEN=1`` to write the files anew after an
intended change, and look at the diff before committing it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Set
from pathlib import Path
from typing import Any

from shapely import wkt

from papergames.sheets.model import Layer, Sheet

DATA = Path(__file__).parent / "data"


def _plain(value: Any) -> Any:
    """Turn model data into JSON-ready values: sets sorted, tuples as lists, floats rounded."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, Set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, int | str | bool) or value is None:
        return value
    if hasattr(value, "wkt"):
        return wkt.dumps(value, rounding_precision=2, trim=True)
    return str(value)


def field_model(sheet: Sheet) -> dict[str, Any]:
    """The field of every page of ``sheet`` as plain JSON-ready data."""
    pages = []
    for page in sheet.pages:
        features = {
            f.id: {
                "kind": f.kind.value,
                "group": f.group,
                "data": _plain(f.data),
                "wkt": wkt.dumps(f.geometry, rounding_precision=2, trim=True),
            }
            for f in page.features()
            if f.layer in (Layer.FIELD, Layer.TINT)
        }
        pages.append({"data": _plain(page.data), "features": features})
    return {"spec": str(sheet.spec), "pages": pages}


def assert_matches_golden(sheet: Sheet, name: str) -> None:
    """Compare the sheet's field model with ``tests/data/<name>.json``."""
    path = DATA / f"{name}.json"
    model = field_model(sheet)
    if os.environ.get("PAPERGAMES_UPDATE_GOLDEN") == "1":
        DATA.mkdir(exist_ok=True)
        path.write_text(json.dumps(model, indent=1, sort_keys=True) + "\n")
    assert path.exists(), f"no golden file {path}: run with PAPERGAMES_UPDATE_GOLDEN=1 once"
    expected = json.loads(path.read_text())
    assert expected["spec"] == model["spec"]
    assert len(expected["pages"]) == len(model["pages"])
    for number, (want, got) in enumerate(zip(expected["pages"], model["pages"], strict=True), 1):
        assert want["data"] == got["data"], f"page {number}: page data changed"
        assert sorted(want["features"]) == sorted(got["features"]), f"page {number}: ids changed"
        for fid, feature in want["features"].items():
            assert feature == got["features"][fid], f"page {number}: {fid} changed"
