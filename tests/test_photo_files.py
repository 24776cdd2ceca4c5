"""Opening photos and scans: every bad file is one clear error, read within bounded memory."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageOps
from reportlab.pdfgen.canvas import Canvas

from papergames.photo.image import (
    MAX_PIXELS,
    WORKING_SIDE,
    PhotoFileError,
    images_from_bytes,
    read_images,
)


def jpeg(width: int, height: int, **save: object) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (200, 180, 160)).save(buf, "JPEG", **save)
    return buf.getvalue()


def pdf(pages: int) -> bytes:
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(595, 842))
    for _ in range(pages):
        canvas.rect(100, 100, 200, 200, fill=1)
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


def test_a_large_photo_is_reduced_to_the_working_size_keeping_its_shape() -> None:
    (page,) = images_from_bytes(jpeg(4000, 3000), "big.jpg")
    assert page.pixels.shape == (2400, WORKING_SIDE, 3)
    assert page.scale == pytest.approx(WORKING_SIDE / 4000)


def test_exif_orientation_is_applied() -> None:
    buf = io.BytesIO()
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.new("RGB", (60, 40), "white").save(buf, "JPEG", exif=exif)
    (page,) = images_from_bytes(buf.getvalue(), "turned.jpg")
    assert page.pixels.shape[:2] == (60, 40)


def test_every_page_of_a_scanned_pdf_is_read() -> None:
    pages = images_from_bytes(pdf(3), "scans.pdf")
    assert [p.source for p in pages] == [f"scans.pdf page {n}" for n in (1, 2, 3)]
    grey = pages[0].pixels.mean(axis=2)
    assert grey.min() < 50 and grey.max() > 200


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not an image at all", "not an image or PDF"),
        (b"", "not an image or PDF"),
        (jpeg(300, 200)[:400], "truncated"),
        (b"%PDF-1.7\nrubbish", "damaged PDF"),
    ],
)
def test_bad_files_are_refused_with_their_name_and_the_reason(data: bytes, message: str) -> None:
    with pytest.raises(PhotoFileError, match=message) as caught:
        images_from_bytes(data, "upload.bin")
    assert str(caught.value).startswith("upload.bin: ")


def test_a_pdf_with_no_pages_is_refused() -> None:
    buf = io.BytesIO()
    import pypdf

    pypdf.PdfWriter().write(buf)
    with pytest.raises(PhotoFileError, match="no pages"):
        images_from_bytes(buf.getvalue(), "empty.pdf")


def test_an_image_claiming_too_many_pixels_is_refused_from_its_header() -> None:
    side = 20_000
    assert side * side > MAX_PIXELS
    buf = io.BytesIO()
    # A PNG whose header claims 20,000 x 20,000 but whose data is a few bytes: a bomb.
    Image.new("1", (side, side)).save(buf, "PNG")
    data = buf.getvalue()
    assert len(data) < 200_000
    with pytest.raises(PhotoFileError, match=r"20000 x 20000|too many pixels"):
        images_from_bytes(data, "bomb.png")


def test_missing_files_and_folders_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PhotoFileError, match=r"missing\.jpg"):
        read_images(tmp_path / "missing.jpg")
    with pytest.raises(PhotoFileError):
        read_images(tmp_path)


def test_pixels_come_back_as_rgb_bytes() -> None:
    (page,) = images_from_bytes(jpeg(50, 30, quality=95), "small.jpg")
    assert page.pixels.dtype == np.uint8 and page.pixels.shape == (30, 50, 3)
    assert page.scale == 1.0


@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_jpeg_is_decoded_upright_as_pillow_decodes_it(orientation: int) -> None:
    rng = np.random.default_rng(orientation)
    picture = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)
    picture[:8, :8] = (255, 0, 0)  # a red corner, so that every turn shows
    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    Image.fromarray(picture).save(buf, "JPEG", quality=95, exif=exif)
    (page,) = images_from_bytes(buf.getvalue(), "turned.jpg")
    expected = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(buf.getvalue()))))
    assert page.pixels.shape == expected.shape
    assert np.abs(page.pixels.astype(int) - expected).max() <= 2


def test_a_jpeg_with_bytes_after_its_end_is_read_whole() -> None:
    data = jpeg(300, 200) + b"\x00" * 16
    (page,) = images_from_bytes(data, "padded.jpg")
    assert page.pixels.shape == (200, 300, 3)
    assert np.abs(page.pixels.astype(int) - (200, 180, 160)).max() <= 3
