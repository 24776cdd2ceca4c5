"""Class lists on the web page: the pack form takes one and names every group's sheet; the
checker, given a class's scanned PDF and the list, shows a row per group with its verdict,
scores and winner, the missing group flagged, and the CSV to download.

The scans are made as :mod:`test_class_loop` makes them (the synthetic pencil and scanner of
:mod:`papergames.photo`), two sheets only, so the reading takes a few seconds.
"""

from __future__ import annotations

import csv
import html
import io
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from PIL import Image
from test_web_pack import finish, start
from test_web_photo import message_of, upload
from typer.testing import CliRunner

from papergames.cli import app as cli_app
from papergames.photo.camera import TIERS, photograph
from papergames.photo.synthetic import FinishedSheet, finished_sheet
from papergames.sheets.spec import SheetSpec

if TYPE_CHECKING:
    from starlette.testclient import TestClient

CLASS = "class: 5B\nAnn, Bob\nCy, Dee\nEve, Fay\n"
"""A class of three groups of two."""


def pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def textarea(page: str, name: str) -> str:
    """What a textarea of the page holds, as a browser reads it (the first newline dropped)."""
    found = re.search(rf'<textarea[^>]*name="{name}"[^>]*>(.*?)</textarea>', page, re.S)
    assert found, page
    return html.unescape(found.group(1)).removeprefix("\n")


# The pack form ---------------------------------------------------------------------------------


def test_a_pack_from_a_class_list_names_each_groups_sheet(
    client: TestClient, tmp_path: Path
) -> None:
    fields = {"games": ["springer"], "copies": "10", "seed": "4", "rules": "none"}
    code, job = start(client, **fields, class_list=CLASS)
    assert code == 202, job
    assert job["command"].startswith("papergames pack springer --class class.txt --seed 4")
    status = finish(client, job["id"])[-1]
    assert status["ready"] and status["total"] == 3  # one sheet a group, not ten copies
    made = client.get(f"/api/pack/{job['id']}/file").content
    text = pdf_text(made)
    for number, names in ((1, "Ann, Bob"), (2, "Cy, Dee"), (3, "Eve, Fay")):
        assert f"group {number}: {names}" in text
    assert "5B" in text
    roster = tmp_path / "class.txt"
    roster.write_text(CLASS, encoding="utf-8")
    out = tmp_path / "cli.pdf"
    words = job["command"].replace("class.txt", str(roster)).split()[1:]
    result = CliRunner().invoke(cli_app, [*words, "-o", str(out), "-q"])
    assert result.exit_code == 0, result.stderr
    assert made == out.read_bytes()


def test_a_pack_of_pupils_in_groups_of_n_is_the_commands(client: TestClient) -> None:
    pupils = "\n".join(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"])
    fields = {"games": ["springer"], "seed": "4", "rules": "none"}
    code, job = start(client, **fields, class_list=pupils, groups_of="2")
    assert code == 202, job
    assert "--class class.txt --groups-of 2 --seed 4" in job["command"]
    assert finish(client, job["id"])[-1]["total"] == 3


def test_a_bad_class_list_line_is_refused_beside_the_list_which_keeps_its_text(
    client: TestClient,
) -> None:
    typed = "class: 5B\nAnn, Bob\nCy, 7up\n"
    sent = {"games": ["springer"], "copies": "3", "seed": "4", "class_list": typed}
    response = client.post("/pack", data=sent)  # as a browser without script sends it
    assert response.status_code == 400
    page = response.text
    assert "the class list, line 3: '7up' is not a player's name" in message_of(page)
    assert textarea(page, "class_list") == typed
    start_at = page.index('id="field-class_list"')
    field = page[start_at : page.index("</div>", start_at)]
    assert 'aria-invalid="true"' in field and 'id="message"' in field
    answer = client.post("/api/pack", data=sent)  # and for the page's script
    assert answer.status_code == 400 and answer.json()["field"] == "class_list"


@pytest.mark.parametrize(
    ("fields", "words", "where"),
    [
        ({"class_list": "Ann, Bob, Cy\n", "games": ["klee"]}, "line 1: 3 names", "class_list"),
        ({"class_list": "Ann, Bob\n" * 3000}, "at most 20,000", "class_list"),
        ({"class_list": "Ann\nBob\nCy\n", "groups_of": "9"}, "from 2 to 6", "groups_of"),
        ({"groups_of": "2"}, "write the pupils in the class list", "groups_of"),
    ],
)
def test_a_class_list_the_pack_cannot_use_is_refused_where_it_was_typed(
    client: TestClient, fields: dict[str, object], words: str, where: str
) -> None:
    sent = {"games": ["springer"], "copies": "3", "seed": "4", **fields}
    code, answer = start(client, **sent)
    assert code == 400 and words in answer["error"] and answer["field"] == where


# The checker ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scans() -> tuple[bytes, list[FinishedSheet]]:
    """Groups 1 and 2 of :data:`CLASS` played and scanned into one PDF; group 3's is lost."""
    rng = np.random.default_rng(7)
    finished, pages = [], []
    for number, names in ((1, "Ann,Bob"), (2, "Cy,Dee")):
        spec = SheetSpec.create(
            "springer", {"names": names, "group": str(number), "class": "5B"}, seed=4 + number
        )
        sheet = finished_sheet(spec, rng, pencils=("red", "blue"))
        photo = photograph(sheet.pixels, sheet.px_per_mm, TIERS["scan"], rng)
        pages.append(Image.open(io.BytesIO(photo.data)).convert("RGB"))
        finished.append(sheet)
    out = io.BytesIO()
    pages[0].save(out, format="PDF", save_all=True, append_images=pages[1:], resolution=300.0)
    return out.getvalue(), finished


def send(client: TestClient, data: bytes, class_list: str) -> tuple[int, str]:
    """Upload the scans with the class list, following the reading to its page."""
    response = client.post(
        "/check",
        files={"transcript": ("5b.pdf", data, "application/pdf")},
        data={"class_list": class_list},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    job = response.headers["location"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = client.get("/api/check/" + job.rsplit("/", 1)[1]).json()
        if state["ready"] or state["error"]:
            break
        time.sleep(0.1)
    page = client.get(job)
    return page.status_code, page.text


def table_rows(page: str) -> dict[int, list[str]]:
    """The class table's rows: each group's cells, as text."""
    rows = {}
    for number, cells in re.findall(r'<tr id="group-(\d+)"[^>]*>(.*?)</tr>', page, re.S):
        texts = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", cells, re.S)
        rows[int(number)] = [
            " ".join(html.unescape(re.sub(r"<[^>]+>", " ", t)).split()) for t in texts
        ]
    return rows


def test_a_classs_scans_with_its_list_show_a_row_per_group_and_the_missing_one(
    client: TestClient, scans: tuple[bytes, list[FinishedSheet]]
) -> None:
    data, finished = scans
    status, page = send(client, data, CLASS)
    assert status == 200, page
    assert "Class 5B: 3 groups" in page
    rows = table_rows(page)
    assert list(rows) == [1, 2, 3]
    for number, names, sheet in ((1, ("Ann", "Bob"), finished[0]), (2, ("Cy", "Dee"), finished[1])):
        group, players, verdict, scores, winner, where = rows[number]
        assert (group, players, where) == (str(number), ", ".join(names), str(number))
        assert verdict in ("consistent", "check these"), rows[number]
        assert sheet.scores is not None
        assert scores == ", ".join(f"{n}: {s}" for n, s in zip(names, sheet.scores, strict=True))
        best = max(sheet.scores)
        assert winner == ", ".join(n for n, s in zip(names, sheet.scores, strict=True) if s == best)
    assert rows[3][:3] == ["3", "Eve, Fay", "✗ missing"]
    assert "1 group has no sheet among the scans" in page
    assert textarea(page, "class_list") == CLASS  # the form keeps the list for the next scans
    link = re.search(r'id="class-csv" href="([^"]+)"', page)
    assert link is not None
    got = client.get(link.group(1))
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/csv")
    shown = list(csv.DictReader(io.StringIO(got.text)))
    assert [(r["group"], r["verdict"] == "missing") for r in shown] == [
        ("1", False),
        ("2", False),
        ("3", True),
    ]
    assert [(r["player 1"], r["player 2"]) for r in shown] == [
        ("Ann", "Bob"),
        ("Cy", "Dee"),
        ("Eve", "Fay"),
    ]
    assert all(r["class"] == "5B" for r in shown)


def test_a_sheet_scanned_twice_is_flagged(
    client: TestClient, scans: tuple[bytes, list[FinishedSheet]]
) -> None:
    from pypdf import PdfReader, PdfWriter

    data, _ = scans
    writer = PdfWriter()
    reader = PdfReader(io.BytesIO(data))
    for index in (0, 1, 0):
        writer.add_page(reader.pages[index])
    out = io.BytesIO()
    writer.write(out)
    status, page = send(client, out.getvalue(), CLASS)
    assert status == 200
    rows = table_rows(page)
    assert "scanned twice" in rows[1][2] and rows[1][5] == "1 and 3"
    assert "scanned twice" not in rows[2][2]


def test_a_bad_class_list_on_the_check_page_is_told_beside_it_before_any_reading(
    client: TestClient, scans: tuple[bytes, list[FinishedSheet]]
) -> None:
    typed = "Ann, Bob\nCy,, Dee\n"
    status, page = upload_with_list(client, scans[0], typed)
    assert status == 400
    assert "the class list, line 2: a name is missing between two commas" in message_of(page)
    assert textarea(page, "class_list") == typed
    start_at = page.index('id="field-class_list"')
    assert 'id="message"' in page[start_at : page.index("</div>", start_at)]


def upload_with_list(client: TestClient, data: bytes, class_list: str) -> tuple[int, str]:
    response = client.post(
        "/check",
        files={"transcript": ("5b.pdf", data, "application/pdf")},
        data={"class_list": class_list},
        follow_redirects=False,
    )
    return response.status_code, response.text


def test_without_a_list_a_named_sheet_still_shows_its_players(
    client: TestClient, scans: tuple[bytes, list[FinishedSheet]]
) -> None:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    writer.add_page(PdfReader(io.BytesIO(scans[0])).pages[1])
    out = io.BytesIO()
    writer.write(out)
    status, page = upload(client, "one.pdf", out.getvalue())
    assert status == 200
    assert 'id="class-table"' not in page
    assert "Players found: Cy (red), Dee (blue)." in html.unescape(page)


def test_the_preview_of_a_named_sheet_carries_its_spec_whatever_the_alphabet(
    client: TestClient,
) -> None:
    from urllib.parse import unquote

    answer = client.get("/api/preview/springer", params={"seed": "4", "names": "Łukasz, Анна"})
    assert answer.status_code == 200
    spec = SheetSpec.create("springer", {"names": "Łukasz,Анна"}, seed=4)
    assert unquote(answer.headers["x-spec"]) == str(spec)
    assert "Łukasz" in answer.text and "Анна" in answer.text


@pytest.mark.parametrize(
    ("game", "names"), [("springer", ("Mia Rose", "Leo")), ("rings", ("Zoë", "Łukasz", "Ana"))]
)
def test_the_recorder_of_a_named_sheet_starts_with_its_names_and_keeps_them(
    client: TestClient, game: str, names: tuple[str, ...]
) -> None:
    from papergames.sheets.names import format_names
    from papergames.web.record import seating

    page = client.get(f"/record/{game}", params={"seed": "4", "names": format_names(names)}).text
    found = re.search(r'<input id="players"[^>]*>', page)
    assert found is not None and "readonly" in found.group(0)
    listed = html.unescape(re.search(r'value="([^"]*)"', found.group(0)).group(1)).split(", ")
    assert sorted(listed) == sorted(names)
    spec = str(SheetSpec.create(game, {"names": format_names(names)}, seed=4))
    head = seating(spec, listed).head  # the transcript the recorder writes, in seat order
    seats = head.splitlines()[1].removeprefix("players: ")
    assert [seat.split(" (")[0] for seat in seats.split(", ")] == list(names)
