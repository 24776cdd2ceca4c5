"""Checking a photo or a PDF of scans on the web page: the same reading as ``papergames read``.

The committed photos (tests/data/photos, made by tests/make_photos.py) are uploaded to ``/check``
and what the page shows is compared with what the command line reads from the same file: the
verdict, the lines, the position (a final-state file), the class list, and the items the page
outlines. Uploads are untrusted: broken images, a spec that disagrees with the QR code, too many
pages and too many bytes each get a message and a 4xx.
"""

from __future__ import annotations

import csv
import html
import io
import re
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from typer.testing import CliRunner

from papergames.cli import app as cli_app
from papergames.photo.batch import read_photos, state_text
from papergames.web import photos
from papergames.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PHOTOS = Path(__file__).parent / "data" / "photos"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def upload(client: TestClient, name: str, data: bytes, spec: str = "") -> tuple[int, str]:
    """Send a file to the check page, and for a file of several sheets follow its reading
    (a redirect to its page, its progress) until every sheet is read."""
    response = client.post(
        "/check",
        files={"transcript": (name, data, "application/octet-stream")},
        data={"spec": spec},
        follow_redirects=False,
    )
    if response.status_code != 303:
        return response.status_code, response.text
    return followed(client, response.headers["location"])


def followed(client: TestClient, location: str) -> tuple[int, str]:
    """The page of a reading started at ``location``, once every sheet is read, its progress
    never going back."""
    job = location.rsplit("/", 1)[1]
    seen = []
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        state = client.get(f"/api/check/{job}").json()
        seen.append(state["done"])
        if state["ready"] or state["error"]:
            break
        time.sleep(0.1)
    assert seen == sorted(seen)
    page = client.get(location)
    return page.status_code, page.text


def message_of(page: str) -> str:
    found = re.search(r'id="message"[^>]*>(.*?)</p>', page, re.S)
    assert found, page
    return html.unescape(found.group(1))


def sheet_titles(page: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r"<h3>(.*?)</h3>", page)]


def attribute(page: str, name: str) -> list[Any]:
    import json

    return [json.loads(html.unescape(v)) for v in re.findall(rf'data-{name}="([^"]*)"', page)]


def scan_pdf(*games: str) -> bytes:
    """A copier's PDF: the committed 120 dpi scans, one per page."""
    pages = [Image.open(PHOTOS / f"{game}-scan.jpg").convert("RGB") for game in games]
    out = io.BytesIO()
    pages[0].save(out, format="PDF", save_all=True, append_images=pages[1:], resolution=120)
    return out.getvalue()


@pytest.mark.parametrize("photo", ["springer-neighbour.jpg", "mondrian-phone.jpg"])
def test_a_photo_gets_the_commands_reading(client: TestClient, photo: str) -> None:
    data = (PHOTOS / photo).read_bytes()
    status, page = upload(client, photo, data)
    assert status == 200
    [result] = read_photos([PHOTOS / photo], jobs=1)
    [outcome] = result.outcomes
    assert sheet_titles(page) == [f"{photo}: {outcome.outcome}"]
    shown = html.unescape(re.findall(r"<pre>(.*?)</pre>", page, re.S)[0]).splitlines()
    assert shown[1:] == outcome.lines()[1:]
    assert shown[0] == f"photo: {photo}"
    state = re.search(r'href="(/check/file/[\w-]+)" download="position.txt"', page)
    assert state is not None
    assert client.get(state.group(1)).text == state_text([outcome])
    picture = re.search(r'<img src="(/check/file/[\w-]+)"', page)
    assert picture is not None
    got = client.get(picture.group(1))
    assert got.headers["content-type"] == "image/jpeg"
    assert Image.open(io.BytesIO(got.content)).size[0] > 500


def test_the_drawn_sheet_outlines_the_broken_rule_and_the_doubts(client: TestClient) -> None:
    for photo in ("springer-neighbour.jpg", "mondrian-phone.jpg", "delaunay-scan.jpg"):
        status, page = upload(client, photo, (PHOTOS / photo).read_bytes())
        assert status == 200
        [outcome] = read_photos([PHOTOS / photo], jobs=1)[0].outcomes
        reading = outcome.reading
        assert attribute(page, "doubtful") == [[i.id for i in reading.items if i.low]]
        [painted] = attribute(page, "paint")
        assert {item for item, _ in painted} == {i.id for i in reading.items if i.colour}
        [flagged] = attribute(page, "flagged")
        breaches = outcome.sure_breaches()
        assert bool(flagged) == bool(breaches)
        for breach in breaches:
            assert set(flagged) >= {i for i in breach.items if i.startswith("space-")}


def test_a_pdf_of_scans_is_read_page_by_page_with_the_commands_class_list(
    client: TestClient, tmp_path: Path
) -> None:
    data = scan_pdf("maze", "springer", "arp")
    first = client.post(
        "/check",
        files={"transcript": ("class.pdf", data, "application/pdf")},
        follow_redirects=False,
    )
    assert first.status_code == 303 and first.headers["location"].startswith("/check/job/")
    waiting = client.get(first.headers["location"])
    assert waiting.status_code == 200
    assert 'id="reading-job"' in waiting.text or "class.pdf, page 3" in waiting.text
    status, page = followed(client, first.headers["location"])
    assert status == 200
    assert [t.split(":")[0] for t in sheet_titles(page)] == [
        f"class.pdf, page {n}" for n in (1, 2, 3)
    ]
    link = re.search(r'id="class-csv" href="([^"]+)"', page)
    assert link is not None
    shown = list(csv.reader(io.StringIO(client.get(link.group(1)).text)))
    (tmp_path / "class.pdf").write_bytes(data)
    result = CliRunner().invoke(
        cli_app, ["read", str(tmp_path / "class.pdf"), "--csv", str(tmp_path / "c.csv"), "-q"]
    )
    assert result.exit_code in (0, 1, 3), result.output
    written = list(csv.reader(io.StringIO((tmp_path / "c.csv").read_text(encoding="utf-8"))))
    assert [row[1] for row in shown[1:]] == ["1", "2", "3"]
    timing = shown[0].index("seconds")

    def untimed(rows: list[list[str]]) -> list[list[str]]:
        return [row[1:timing] + row[timing + 1 :] for row in rows]

    assert untimed(shown) == untimed(written)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\xff\xd8\xff\xe0 cut short", "truncated"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "a damaged PNG image that cannot be read"),
        (b"%PDF-1.4\n%%EOF\n", "PDF"),
        (b"GIF89a" + b"\xff" * 40, "a damaged GIF image that cannot be read"),
    ],
)
def test_a_broken_photo_is_a_message_and_a_400(client: TestClient, data: bytes, words: str) -> None:
    status, page = upload(client, "photo.jpg", data)
    assert status == 400
    assert words in message_of(page)
    assert "Traceback" not in page


def test_a_spec_that_disagrees_with_the_qr_code_is_refused(client: TestClient) -> None:
    data = (PHOTOS / "maze-scan.jpg").read_bytes()
    status, page = upload(client, "maze.jpg", data, spec="maze seed=4000")
    assert status == 400
    assert "is not the sheet photographed" in message_of(page)
    assert "maze seed=4000" in page  # the form keeps what was typed
    status, page = upload(client, "maze.jpg", data, spec="no such game")
    assert status == 400
    assert "not a papergames sheet spec" in message_of(page)


def test_too_many_pages_are_refused_before_any_is_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(photos, "MAX_SHEETS", 1)
    read: list[int] = []
    monkeypatch.setattr(photos, "_read_one", lambda *args: read.append(1))
    status, page = upload(client, "class.pdf", scan_pdf("maze", "maze"))
    assert status == 400
    assert "2 pages" in message_of(page) and "at most 1" in message_of(page)
    assert read == []


def test_a_photo_over_the_limit_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import papergames.web.app as web_app

    monkeypatch.setattr(web_app, "MAX_PHOTO", 100_000)
    data = (PHOTOS / "mondrian-phone.jpg").read_bytes()
    assert len(data) > 100_000
    status, page = upload(client, "big.jpg", data)
    assert status == 413
    assert "too large" in message_of(page) and "MB" in message_of(page)


def test_a_text_file_keeps_its_own_smaller_limit(client: TestClient) -> None:
    status, page = upload(client, "big.txt", b"sheet: maze seed=1\n" + b"#" * 300_000)
    assert status == 413
    assert "text files" in message_of(page)


def test_a_kept_file_is_found_only_by_its_key(client: TestClient) -> None:
    key = photos.keep(b"position", "text/plain")
    assert client.get(f"/check/file/{key}").content == b"position"
    assert client.get("/check/file/not-a-key").status_code == 404
    assert client.get("/check/file/..%2F..%2Fetc%2Fpasswd").status_code == 404


def test_old_kept_files_go_when_the_memory_budget_is_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(photos, "KEPT_BYTES", 1000)
    first = photos.keep(b"a" * 600, "text/plain")
    second = photos.keep(b"b" * 600, "text/plain")
    assert photos.kept(first) is None
    assert photos.kept(second) == (b"b" * 600, "text/plain")


def test_no_more_sheets_are_read_at_once_than_the_machine_has_readers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    busy = 0
    most = 0
    lock = threading.Lock()

    def slow_read(*args: Any) -> Any:
        nonlocal busy, most
        with lock:
            busy += 1
            most = max(most, busy)
        time.sleep(0.05)
        with lock:
            busy -= 1
        raise photos.PapergamesError("stop here")

    monkeypatch.setattr(photos, "_read_one", slow_read)
    data = (PHOTOS / "maze-scan.jpg").read_bytes()

    def one() -> None:
        with pytest.raises(photos.PapergamesError):
            photos.read_upload_sheets(data, "maze.jpg", None, 1)

    threads = [threading.Thread(target=one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == photos.READERS


def test_an_unreadable_page_of_a_pdf_is_shown_and_the_others_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = photos._read_one

    def second_page_torn(data: bytes, name: str, index: int, spec: str | None) -> Any:
        if index == 1:
            raise photos.PapergamesError(f"{name}: page {index + 1} is torn")
        return real(data, name, index, spec)

    monkeypatch.setattr(photos, "_read_one", second_page_torn)
    status, page = upload(client, "class.pdf", scan_pdf("maze", "maze", "spaghetti"))
    assert status == 200
    titles = sheet_titles(page)
    assert titles[1] == "class.pdf, page 2: unreadable"
    assert titles[0].endswith("consistent") and titles[2].endswith("consistent")
    assert "page 2 is torn" in html.unescape(page)


def test_an_unknown_reading_is_a_404(client: TestClient) -> None:
    assert client.get("/check/job/nothing").status_code == 404
    assert client.get("/api/check/nothing").status_code == 404


def test_a_class_pdf_of_one_handout_builds_its_sheet_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader's thread keeps the sheets it builds (perhaps this one, for an earlier test)."""
    import papergames.sheets.sheet as sheet_module

    built: list[str] = []
    real_build = sheet_module._built

    def counting(spec: Any) -> Any:
        built.append(str(spec))
        return real_build(spec)

    monkeypatch.setattr(sheet_module, "_built", counting)
    read = photos.read_upload_sheets(scan_pdf("maze", "maze", "maze"), "class.pdf", None, 3)
    assert [sheet.outcome for sheet in read.sheets] == ["consistent"] * 3
    assert len(built) <= 1 and len(set(built)) == len(built)
