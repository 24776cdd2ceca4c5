"""The photo reader's files, made safe: an iPhone's HEIC is read, a picture papergames cannot
read is named, a PDF made to inflate to gigabytes is refused in bounded memory, and ``read``
never writes over one of the photos it reads."""

from __future__ import annotations

import html
import io
import json
import os
import re
import subprocess
import sys
import time
import warnings
import zlib
from pathlib import Path

import numpy as np
import pillow_heif
import pytest
from PIL import Image, ImageOps
from typer.testing import CliRunner

from papergames.cli import app
from papergames.photo import image
from papergames.photo.formats import image_format
from papergames.photo.image import (
    PDF_MEMORY,
    PhotoFileError,
    images_from_bytes,
    page_count,
    page_from_bytes,
)

PHOTOS = Path(__file__).parent / "data" / "photos"
TRUTH = json.loads((PHOTOS / "truth.json").read_text())
runner = CliRunner()
GIB = 2**30


def heic(picture: Image.Image, **save: object) -> bytes:
    pillow_heif.register_heif_opener()
    buf = io.BytesIO()
    picture.save(buf, "HEIF", **save)
    return buf.getvalue()


def one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("papergames: error: ")
    return lines[0]


# iPhone photos -------------------------------------------------------------------------------


def test_a_heic_photo_is_decoded_upright_as_a_jpeg_would_be() -> None:
    # A landscape picture, dark on the left, turned by its EXIF orientation (6: a phone held
    # upright): decoded, it must stand as Pillow stands the same picture from a PNG.
    pixels = np.full((40, 64, 3), 230, np.uint8)
    pixels[:, :32] = 20
    picture = Image.fromarray(pixels)
    exif = Image.Exif()
    exif[0x0112] = 6
    data = heic(picture, exif=exif.tobytes(), quality=95)
    assert image_format(data) == "HEIC"
    (page,) = images_from_bytes(data, "iphone.heic")
    png = io.BytesIO()
    picture.save(png, "PNG", exif=exif)
    expected = np.asarray(ImageOps.exif_transpose(Image.open(png)).convert("RGB"))
    assert page.pixels.shape == expected.shape == (64, 40, 3)
    assert np.abs(page.pixels.astype(int) - expected).mean() < 6
    assert page.pixels[:32].mean() < 60 < 180 < page.pixels[32:].mean()


def test_a_committed_photo_saved_as_heic_reads_as_the_same_sheet(tmp_path: Path) -> None:
    name = "maze-scan.jpg"
    photo = tmp_path / "maze.heic"
    photo.write_bytes(heic(Image.open(PHOTOS / name), quality=90))
    result = runner.invoke(app, ["read", str(photo), "--json"])
    assert result.exit_code in (0, 1, 3), result.stderr
    read = json.loads(result.stdout)
    assert read["source"] == str(photo)
    assert read["spec"] == TRUTH[name]["spec"]
    assert read["retake"] is None
    assert {item["id"] for item in read["items"]} == set(TRUTH[name]["items"])


def test_a_heic_upload_goes_to_the_photo_reader() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        from papergames.web.app import create_app
        from papergames.web.photos import is_photo

    data = heic(Image.open(PHOTOS / "maze-scan.jpg"), quality=90)
    assert is_photo(data)
    client = TestClient(create_app())
    response = client.post("/check", files={"transcript": ("maze.heic", data, "image/heic")})
    assert response.status_code == 200, response.text
    titles = [html.unescape(t) for t in re.findall(r"<h3>(.*?)</h3>", response.text)]
    assert len(titles) == 1 and titles[0].startswith("maze.heic: ")
    assert TRUTH["maze-scan.jpg"]["spec"] in html.unescape(response.text)


def pillow_file(fmt: str) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (60, 40), "white").save(buf, fmt)
    return buf.getvalue()


UNREADABLE = [
    ("x.jxl", b"\xff\x0a" + bytes(64), "an image in JPEG XL format"),
    ("x.ppm", pillow_file("PPM"), "an image in PPM format"),
    ("x.eps", pillow_file("EPS"), "an image in PostScript format"),
    (
        "x.svg",
        b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>',
        "an image in SVG format",
    ),
    ("x.mov", b"\x00\x00\x00\x14ftypqt  \x00\x00\x00\x00qt  " + bytes(64), "a video, not a photo"),
]


@pytest.mark.parametrize(("name", "data", "named"), UNREADABLE)
def test_a_picture_papergames_cannot_read_is_named(name: str, data: bytes, named: str) -> None:
    with pytest.raises(PhotoFileError) as caught:
        images_from_bytes(data, name)
    message = str(caught.value)
    assert message.startswith(f"{name}: {named}")
    assert message.endswith(": give a JPEG, PNG, HEIC or a PDF")
    assert "\n" not in message


def test_an_unreadable_picture_is_named_on_the_command_line_and_on_the_page(
    tmp_path: Path,
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        from papergames.web.app import create_app

    name, data, named = UNREADABLE[0]
    (tmp_path / name).write_bytes(data)
    result = runner.invoke(app, ["read", str(tmp_path / name)])
    assert result.exit_code == 2
    assert named in one_error_line(result.stderr)
    response = TestClient(create_app()).post("/check", files={"transcript": (name, data)})
    assert response.status_code == 400
    shown = html.unescape(response.text)
    assert f"{name}: {named}" in shown
    assert "not text" not in shown and "too large" not in shown


def test_damaged_photos_of_a_readable_format_are_called_damaged_not_foreign() -> None:
    data = heic(Image.new("RGB", (300, 200), "white"))
    with pytest.raises(PhotoFileError, match=r"^cut\.heic: a damaged HEIC image"):
        images_from_bytes(data[:200], "cut.heic")
    with pytest.raises(PhotoFileError, match=r"^cut\.png: a damaged PNG image"):
        images_from_bytes(b"\x89PNG\r\n\x1a\n" + bytes(30), "cut.png")


# PDF bombs -----------------------------------------------------------------------------------


def pdf(objects: list[bytes]) -> bytes:
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def stream(entries: bytes, data: bytes) -> bytes:
    """A stream deflated twice over, so a gibibyte of zeros takes a few kilobytes."""
    filters = b"/Filter [/FlateDecode /FlateDecode]"
    return b"<< %s %s /Length %d >>\nstream\n%s\nendstream" % (entries, filters, len(data), data)


@pytest.fixture(scope="module")
def zeros() -> bytes:
    """A gibibyte of zero bytes, deflated twice."""
    squeeze = zlib.compressobj(1)
    chunk = bytes(2**24)
    once = b"".join([squeeze.compress(chunk) for _ in range(GIB // len(chunk))])
    return zlib.compress(once + squeeze.flush(), 9)


def page_pdf(contents: bytes, resources: bytes = b"") -> list[bytes]:
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] %s /Contents 4 0 R >>" % resources,
        contents,
    ]


@pytest.fixture(scope="module")
def content_bomb(zeros: bytes) -> bytes:
    """A page whose content stream inflates to a gibibyte (it made ``read`` take 2.2 GB)."""
    return pdf(page_pdf(stream(b"", zeros)))


@pytest.fixture(scope="module")
def image_bomb(zeros: bytes) -> bytes:
    """A page showing an image that declares 30,000 x 30,000 pixels."""
    draw = b"q 500 0 0 700 50 50 cm /Im0 Do Q"
    image = b"/Type /XObject /Subtype /Image /Width 30000 /Height 30000 /ColorSpace /DeviceGray"
    objects = page_pdf(
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(draw), draw),
        b"/Resources << /XObject << /Im0 5 0 R >> >>",
    )
    return pdf([*objects, stream(image + b" /BitsPerComponent 8", zeros)])


def test_the_bombs_are_small_files(content_bomb: bytes, image_bomb: bytes) -> None:
    assert len(content_bomb) < 50_000 and len(image_bomb) < 50_000
    assert page_count(content_bomb, "bomb.pdf") == 1


def test_a_page_that_inflates_to_a_gibibyte_is_refused_naming_the_file_and_page(
    content_bomb: bytes,
) -> None:
    with pytest.raises(PhotoFileError) as caught:
        page_from_bytes(content_bomb, "bomb.pdf", 0)
    assert str(caught.value) == (
        f"bomb.pdf: page 1 needs more than {PDF_MEMORY // 2**20} MB of memory to draw, far more "
        "than a scanned sheet; papergames does not read it"
    )


MEASURE = """
import json, resource, sys
sys.argv = ["papergames", "read", *sys.argv[1:]]
from papergames.cli import main
try:
    main()
    code = 0
except SystemExit as exc:
    code = exc.code
# ru_maxrss of this process would carry over the peak of the process that started it (Linux
# keeps it across exec, and pytest may have grown large): VmHWM is this process's own peak.
status = open("/proc/self/status").read().split("VmHWM:")[1].split()[0]
peak = {
    "self": int(status) * 1024,
    "children": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024,
}
print(json.dumps({"code": code, **peak}))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="memory limits need /proc")
@pytest.mark.parametrize("bomb", ["content_bomb", "image_bomb"])
def test_reading_a_pdf_bomb_stays_under_a_gigabyte(
    bomb: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    path = tmp_path / "bomb.pdf"
    path.write_bytes(request.getfixturevalue(bomb))
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path), "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    measured = json.loads(done.stdout.splitlines()[-1])
    assert measured["self"] < GIB and measured["children"] < GIB, measured
    if bomb == "content_bomb":
        assert measured["code"] == 2
        line = one_error_line(done.stderr)
        assert line.startswith(f"papergames: error: {path}: page 1 needs more than ")
    else:  # PDFium draws a huge image a line at a time: read or refused, within the bound
        assert "Traceback" not in done.stderr


@pytest.mark.skipif(not hasattr(os, "fork"), reason="PDFs are drawn apart only where fork is")
def test_a_page_that_takes_too_long_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    def forever(data: bytes, source: str, index: int) -> bytes:
        time.sleep(60)
        return b""

    monkeypatch.setattr(image, "_pdf_page_drawn", forever)
    monkeypatch.setattr(image, "PDF_SECONDS", 0.5)
    start = time.monotonic()
    with pytest.raises(PhotoFileError, match=r"^slow\.pdf: page 2 takes too long to draw"):
        page_from_bytes(b"%PDF-1.7", "slow.pdf", 1)
    assert time.monotonic() - start < 10


@pytest.mark.skipif(not hasattr(os, "fork"), reason="PDFs are drawn apart only where fork is")
def test_a_crash_or_a_memory_error_while_drawing_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def crash(data: bytes, source: str, index: int) -> bytes:
        os.abort()

    def exhaust(data: bytes, source: str, index: int) -> bytes:
        raise MemoryError

    monkeypatch.setattr(image, "_pdf_page_drawn", crash)
    with pytest.raises(PhotoFileError, match=r"^x\.pdf: page 1 could not be drawn"):
        page_from_bytes(b"%PDF-1.7", "x.pdf", 0)
    monkeypatch.setattr(image, "_pdf_page_drawn", exhaust)
    with pytest.raises(PhotoFileError, match=r"^x\.pdf: page 1 needs more than"):
        page_from_bytes(b"%PDF-1.7", "x.pdf", 0)


def test_a_scanned_pdf_drawn_apart_is_the_page_drawn_here() -> None:
    pages = [Image.open(PHOTOS / "maze-scan.jpg").convert("RGB")]
    buf = io.BytesIO()
    pages[0].save(buf, format="PDF", resolution=120)
    data = buf.getvalue()
    page = page_from_bytes(data, "scan.pdf", 0)
    with image._pdf(data, "scan.pdf") as document:
        here = image._pdf_page(document, "scan.pdf", 0)
    assert page.source == here.source == "scan.pdf page 1"
    assert (page.scale, page.px_per_mm) == (here.scale, here.px_per_mm)
    assert np.array_equal(page.pixels, here.pixels)
    with pytest.raises(PhotoFileError, match=r"^scan\.pdf: the PDF has no page 2$"):
        page_from_bytes(data, "scan.pdf", 1)


# Outputs that are inputs ---------------------------------------------------------------------


@pytest.fixture
def photo_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    data = (PHOTOS / "maze-scan.jpg").read_bytes()
    for name in ("v.png", "v-2.png"):
        (tmp_path / name).write_bytes(data)
    (tmp_path / "link.png").symlink_to("v.png")
    os.link(tmp_path / "v.png", tmp_path / "hard.png")
    return tmp_path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir()}


CHOOSE = ": choose another file name"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["v.png", "--state", "v.png"], "--state v.png is one of the photos"),
        (["v.png", "--csv", "v.png"], "--csv v.png is one of the photos"),
        (["v.png", "--debug", "v.png"], "--debug v.png is one of the photos"),
        (["v.png", "--state", "link.png"], "--state link.png is one of the photos"),
        (["link.png", "--csv", "v.png"], "--csv v.png is one of the photos"),
        (["v.png", "--csv", "hard.png"], "--csv hard.png is one of the photos"),
        (["v.png", "--state", "../{dir}/v.png"], "--state ../{dir}/v.png is one of the photos"),
        (["v.png", "v-2.png", "--debug", "v.png"], "--debug v.png is one of the photos"),
        (
            ["v-2.png", "--debug", "v.png"],
            "--debug v.png writes v-2.png when there are several sheets, and v-2.png is one of "
            "the photos",
        ),
    ],
)
def test_an_output_that_is_one_of_the_photos_is_refused_before_anything_is_read(
    photo_folder: Path, args: list[str], line: str
) -> None:
    args = [arg.format(dir=photo_folder.name) for arg in args]
    before = snapshot(photo_folder)
    result = runner.invoke(app, ["read", *args])
    assert result.exit_code == 2
    expected = line.format(dir=photo_folder.name)
    assert one_error_line(result.stderr) == f"papergames: error: {expected} being read{CHOOSE}"
    assert result.stdout == ""
    assert snapshot(photo_folder) == before


def test_an_output_beside_the_photos_is_written(photo_folder: Path) -> None:
    result = runner.invoke(app, ["read", "v.png", "--state", "v.txt", "--quiet"])
    assert result.exit_code in (0, 1, 3), result.stderr
    assert (photo_folder / "v.txt").read_text().startswith("sheet: ")


def test_a_photo_that_cannot_be_opened_is_said_once_and_no_state_is_written(
    photo_folder: Path,
) -> None:
    result = runner.invoke(app, ["read", "missing.jpg", "--state", "out.txt"])
    assert result.exit_code == 2
    assert "missing.jpg" in one_error_line(result.stderr)
    assert not (photo_folder / "out.txt").exists()
