"""Draw docs/layers.svg: papergames' packages in their layers, with the imports between them.

Run: ``.venv/bin/python docs/layers.py`` (``--check`` says whether the picture is current, as
``tests/test_layers.py`` does). The graph is grimp's, the one ``lint-imports`` checks: imports
made only for type hints are left out, and so is an arrow that a path of other arrows already
implies, so the picture shows the layering and not every import. The layers are the ones
written down in pyproject.toml's contract.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

import grimp
import svgwrite

ROOT = Path(__file__).resolve().parent.parent
PICTURE = ROOT / "docs" / "layers.svg"
BOX_W, BOX_H, GAP_X, GAP_Y, MARGIN, LANE_GAP = 150, 44, 30, 46, 20, 16


def layers() -> list[list[str]]:
    """The layers contract's packages, top layer first, siblings side by side."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract["type"] == "layers":
            return [[name.strip() for name in layer.split("|")] for layer in contract["layers"]]
    raise SystemExit("pyproject.toml has no layers contract")


def package_edges(packages: list[str]) -> set[tuple[str, str]]:
    """Which package imports which, at run time, between the packages drawn."""
    graph = grimp.build_graph(
        "papergames", include_external_packages=False, exclude_type_checking_imports=True
    )
    owner: dict[str, str] = {}
    for module in graph.modules:
        found = [p for p in packages if module == p or module.startswith(p + ".")]
        if found:
            owner[module] = max(found, key=len)
    edges = set()
    for module, package in owner.items():
        for imported in graph.find_modules_directly_imported_by(module):
            target = owner.get(imported)
            if target is not None and target != package:
                edges.add((package, target))
    return edges


def reduced(edges: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """The edges that no longer path between the same two packages already implies."""
    after: dict[str, set[str]] = {}
    for a, b in edges:
        after.setdefault(a, set()).add(b)

    def reaches(start: str, goal: str, skip: tuple[str, str]) -> bool:
        seen, todo = {start}, [start]
        while todo:
            here = todo.pop()
            for nxt in after.get(here, ()):
                if (here, nxt) == skip or nxt in seen:
                    continue
                if nxt == goal:
                    return True
                seen.add(nxt)
                todo.append(nxt)
        return False

    return sorted(e for e in edges if not reaches(e[0], e[1], e))


def drawing() -> str:
    """The picture as SVG text."""
    rows = layers()
    packages = [p for row in rows for p in row]
    widest = max(len(row) for row in rows)
    width = 2 * MARGIN + widest * BOX_W + (widest - 1) * GAP_X + LANE_GAP * 12
    height = 2 * MARGIN + len(rows) * BOX_H + (len(rows) - 1) * GAP_Y + 20
    svg = svgwrite.Drawing(size=(f"{width}px", f"{height}px"), viewBox=f"0 0 {width} {height}")
    marker = svg.marker(id="head", insert=(8, 4), size=(8, 8), orient="auto")
    marker.add(svg.path(d="M0,0 L8,4 L0,8 z", fill="#444"))
    svg.defs.add(marker)
    place: dict[str, tuple[float, float]] = {}
    for r, row in enumerate(rows):
        span = len(row) * BOX_W + (len(row) - 1) * GAP_X
        left = MARGIN + (widest * BOX_W + (widest - 1) * GAP_X - span) / 2
        for c, package in enumerate(row):
            place[package] = (left + c * (BOX_W + GAP_X), MARGIN + r * (BOX_H + GAP_Y))
    row_of = {package: r for r, row in enumerate(rows) for package in row}
    right = max(x for x, _ in place.values()) + BOX_W
    lane = 0
    for a, b in reduced(package_edges(packages)):
        (ax, ay), (bx, by) = place[a], place[b]
        if row_of[b] - row_of[a] == 1:
            path = svg.polyline(
                [(ax + BOX_W / 2, ay + BOX_H), (bx + BOX_W / 2, by - 2)],
                stroke="#444",
                stroke_width=1.2,
                fill="none",
            )
        else:
            lane += 1
            out = right + LANE_GAP * lane
            path = svg.polyline(
                [
                    (ax + BOX_W / 2 + 6 * (lane % 3) + 12, ay + BOX_H),
                    (ax + BOX_W / 2 + 6 * (lane % 3) + 12, ay + BOX_H + 8 + 5 * (lane % 3)),
                    (out, ay + BOX_H + 8 + 5 * (lane % 3)),
                    (out, by - 10 - 5 * (lane % 3)),
                    (bx + BOX_W / 2 + 6 * (lane % 3), by - 10 - 5 * (lane % 3)),
                    (bx + BOX_W / 2 + 6 * (lane % 3), by - 2),
                ],
                stroke="#444",
                stroke_width=1.2,
                fill="none",
            )
        path["marker-end"] = "url(#head)"
        svg.add(path)
    for package, (x, y) in place.items():
        svg.add(svg.rect((x, y), (BOX_W, BOX_H), rx=6, fill="#f2f2f2", stroke="#222"))
        label = package.removeprefix("papergames.")
        svg.add(
            svg.text(
                label,
                insert=(x + BOX_W / 2, y + BOX_H / 2 + 5),
                text_anchor="middle",
                font_family="DejaVu Sans, sans-serif",
                font_size=15,
            )
        )
    note = "an arrow: imports at run time (arrows that others imply are left out)"
    svg.add(svg.text(note, insert=(MARGIN, height - 10), font_family="sans-serif", font_size=12))
    return str(svg.tostring()) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    args = parser.parse_args()
    text = drawing()
    if args.check:
        current = PICTURE.exists() and PICTURE.read_text() == text
        print("docs/layers.svg is current" if current else "docs/layers.svg is out of date")
        sys.exit(0 if current else 1)
    PICTURE.write_text(text)
    print(f"wrote {PICTURE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
