"""A teacher's loop with a class list, end to end: list in, named pack out, scans read by name.

A pack is made from a class list of 15 groups; every sheet is played to its end and scanned at
300 dpi (the synthetic pencil and scanner of :mod:`papergames.photo`); one page goes missing
and another is scanned twice; the whole PDF is read back with the list.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from papergames.cli import app
from papergames.errors import SpecError
from papergames.handouts.classlist import ClassList, make_groups, parse_class_list, read_class_list
from papergames.handouts.pack import make_pack
from papergames.photo.camera import TIERS, photograph
from papergames.photo.synthetic import FinishedSheet, finished_sheet
from papergames.sheets.model import Feature
from papergames.sheets.spec import SheetSpec

runner = CliRunner()
PENCILS = ("red", "blue", "green", "orange")
PUPILS = (
    "Mia Rose", "Leo", "Zoë", "Łukasz", "Анна", "Νίκος", "Ana María", "Tom", "Ife", "Sam",
    "Yusuf", "Chloé", "Oskar", "Priya", "Jonas", "Wiktoria", "Dmitri", "Eleni", "Noor", "Kai",
    "Aoife", "Mateo", "Léa", "Finn", "Sofía", "Ben", "Hana", "Ola", "Rui", "Ida", "Max", "Lina",
    "Omar", "Eva", "Ugo", "Pia", "Jan", "Ella", "Ravi",
)  # fmt: skip


def class_text(groups: int = 15) -> str:
    lines = ["class: 5B Smith"]
    start = 0
    for k in range(groups):
        size = 2 + k % 2  # groups of 2 and 3
        lines.append(", ".join(PUPILS[start : start + size]))
        start += size
    return "\n".join(lines) + "\n"


def pack_specs(roll: ClassList) -> list[SheetSpec]:
    pack = make_pack(SheetSpec.create("springer", seed=11), 1, roll=roll, rules="none")
    specs = []
    for page in pack.pages:
        qr = [f for f in page.features() if f.id == "qr-spec"]
        if page.data.get("kind") == "sheet" and qr and isinstance(qr[0], Feature):
            specs.append(SheetSpec.parse(qr[0].data["text"]))
    return specs


@pytest.fixture(scope="module")
def scanned(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, Path, list[FinishedSheet], list[Image.Image]]:
    folder = tmp_path_factory.mktemp("class")
    roster = folder / "class.txt"
    roster.write_text(class_text(), encoding="utf-8")
    specs = pack_specs(read_class_list(roster))
    assert [s.group for s in specs] == list(range(1, 16))
    rng = np.random.default_rng(23)
    finished = [finished_sheet(spec, rng, pencils=PENCILS) for spec in specs]
    pages = []
    for sheet in finished:
        photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS["scan"], rng)
        pages.append(Image.open(io.BytesIO(photo.data)).convert("RGB"))
    order = [k for k in range(15) if k != 4]  # group 5's sheet is lost
    order.insert(10, 9)  # group 10's sheet goes through the scanner twice
    scans = folder / "scans.pdf"
    first, *rest = [pages[k] for k in order]
    first.save(scans, save_all=True, append_images=rest, resolution=300.0)
    return scans, roster, finished, pages


def test_a_class_pack_scanned_reads_back_by_name_with_the_missing_and_the_doubled_sheet(
    scanned: tuple[Path, Path, list[FinishedSheet], list[Image.Image]], tmp_path: Path
) -> None:
    scans, roster, finished, _ = scanned
    table = tmp_path / "class.csv"
    result = runner.invoke(
        app, ["read", str(scans), "--class", str(roster), "-q", "--csv", str(table)]
    )
    assert result.exit_code in (0, 3), result.stderr
    roll = read_class_list(roster)
    by_group = {g.number: g for g in roll.groups}
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    read = [r for r in rows if r["verdict"] != "missing"]
    assert sorted(int(r["group"]) for r in read) == sorted(
        [k for k in range(1, 16) if k != 5] + [10]
    )
    for row in read:
        group = by_group[int(row["group"])]
        assert row["class"] == "5B Smith"
        names = [row[f"player {k}"] for k in range(1, 7) if row[f"player {k}"]]
        assert names == list(group.names)
        played = finished[group.number - 1]
        assert played.scores is not None
        scores = [int(row[f"score {k}"]) for k in range(1, len(names) + 1)]
        assert scores == list(played.scores)
        best = max(played.scores)
        assert row["winner"] == ", ".join(
            n for n, s in zip(names, played.scores, strict=True) if s == best
        )
    missing = [r for r in rows if r["verdict"] == "missing"]
    assert [(r["group"], r["player 1"]) for r in missing] == [("5", by_group[5].names[0])]
    doubled = [r for r in rows if "scanned twice" in r["check"]]
    assert {r["group"] for r in doubled} == {"10"} and len(doubled) == 2
    said = result.stdout
    third = by_group[3]
    assert f"made for: class 5B Smith, group 3: {', '.join(third.names)}" in said
    assert f"missing: group 5 ({', '.join(by_group[5].names)})" in said
    assert f"scanned twice: group 10, at {scans} page 9 and {scans} page 11" in said


def test_read_json_names_the_class_group_and_players_and_what_is_missing(
    scanned: tuple[Path, Path, list[FinishedSheet], list[Image.Image]], tmp_path: Path
) -> None:
    _, roster, _, pages = scanned
    few = tmp_path / "few.pdf"
    pages[0].save(few, save_all=True, append_images=[pages[0], pages[1]], resolution=300.0)
    result = runner.invoke(app, ["read", str(few), "--class", str(roster), "--json", "-q"])
    shown = json.loads(result.stdout)
    roll = read_class_list(roster)
    assert [s["group"] for s in shown["sheets"]] == [1, 1, 2]
    assert [p["name"] for p in shown["sheets"][2]["players"]] == list(roll.groups[1].names)
    assert [m["group"] for m in shown["class"]["missing"]] == list(range(3, 16))
    assert shown["class"]["twice"] == [{"group": 1, "places": [f"{few} page 1", f"{few} page 2"]}]


def test_a_class_list_line_the_game_cannot_seat_is_refused_naming_the_line(tmp_path: Path) -> None:
    roster = tmp_path / "class.txt"
    roster.write_text("Mia, Leo\nZoë, Łukasz, Ana\n", encoding="utf-8")
    out = tmp_path / "pack.pdf"
    result = runner.invoke(app, ["pack", "klee", "--class", str(roster), "-o", str(out)])
    assert result.exit_code == 2
    assert f"{roster}, line 2: 3 names (Zoë, Łukasz, Ana), but Klee takes 2 players" in (
        result.stderr
    )
    assert not out.exists()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Mia, 7up\n", "line 1: '7up' is not a player's name"),
        ("Mia,, Leo\n", "line 1: a name is missing between two commas"),
        ("Mia, Mia\n", "line 1: 'Mia' is named twice in one group"),
        ("# only a comment\n\n", "has no groups"),
        ("Mia, Leo\nclass: 5B\n", "line 2: the class: line comes once, before the groups"),
        ("class: 5B, 6A\nMia, Leo\n", "line 1: a class's name is up to 40 characters"),
        ("Mia, " + "x" * 400 + "\n", "line 1: the line is longer than 400 characters"),
    ],
)
def test_a_bad_class_list_is_refused_naming_its_line(text: str, problem: str) -> None:
    with pytest.raises(SpecError) as caught:
        parse_class_list(text, "class.txt")
    assert problem in str(caught.value)


def test_a_class_list_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    roster = tmp_path / "class.txt"
    roster.write_bytes("Mia, Leo\nZo\u00eb, Ana\n".encode("latin-1"))
    with pytest.raises(SpecError, match="line 2: not UTF-8 text"):
        read_class_list(roster)


@pytest.mark.parametrize("pupils", [5, 7, 12, 13])
@pytest.mark.parametrize("size", [2, 3, 4])
def test_groups_of_n_seat_every_pupil_once_and_no_one_alone(pupils: int, size: int) -> None:
    roll = parse_class_list("\n".join(PUPILS[:pupils]))
    groups = make_groups(roll, size, seed=5).groups
    seated = [name for g in groups for name in g.names]
    assert sorted(seated) == sorted(PUPILS[:pupils])
    sizes = [len(g.names) for g in groups]
    assert min(sizes) >= 2 and max(sizes) - min(sizes) <= 1
    assert max(sizes) <= size or len(groups) == pupils // size
    assert make_groups(roll, size, seed=5).groups == groups
    assert make_groups(roll, size, seed=6).groups != groups


def test_a_pack_from_groups_of_n_prints_the_groups_on_its_key_page(tmp_path: Path) -> None:
    roster = tmp_path / "pupils.txt"
    roster.write_text("\n".join(PUPILS[:9]), encoding="utf-8")
    roll = make_groups(read_class_list(roster), 3, seed=8)
    pack = make_pack(SheetSpec.create("maze", seed=8), 1, roll=roll, rules="none")
    key = [t.text for p in pack.pages if p.data.get("kind") == "key" for t in p.items]
    for group in roll.groups:
        assert any(f"group {group.number}: {', '.join(group.names)}" in line for line in key)
