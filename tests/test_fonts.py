"""Text measurement: every layout places its labels by these widths, and the PDF sets its text by
the font's own advances, so the two must agree to the last unit of every character."""

from __future__ import annotations

import threading

import pytest
from fontTools.ttLib import TTFont

from papergames.fonts import font_path, text_width


@pytest.mark.parametrize("bold", [False, True])
def test_every_character_measures_as_the_fonts_metrics_table_says(bold: bool) -> None:
    font = TTFont(font_path(bold))
    units = float(font["head"].unitsPerEm)
    advances = font["hmtx"].metrics
    missing = advances[".notdef"][0] / units
    mapped = font.getBestCmap()
    for code, glyph in mapped.items():
        assert text_width(chr(code), 1.0, bold) == advances[glyph][0] / units, hex(code)
    # Characters the font lacks (a control character, a private-use one, a Japanese kana) take
    # the width of the missing-glyph box, which is what a viewer draws for them.
    for code in (0x0A, 0xE000, 0x3042):
        assert code not in mapped
        assert text_width(chr(code), 1.0, bold) == missing


def test_a_word_measures_as_the_sum_of_its_characters_times_the_size() -> None:
    word = "Ivo Jansen's 3rd sheet"
    assert text_width(word, 4.2) == pytest.approx(4.2 * sum(text_width(c, 1.0) for c in word))
    assert text_width(word, 4.2, bold=True) > text_width(word, 4.2)
    assert text_width("", 4.2) == 0.0


def test_threads_measuring_at_once_all_get_the_same_widths() -> None:
    text = "".join(chr(code) for code in range(0x400, 0x4FF))
    expected = sum(text_width(c, 1.0, True) for c in text)
    seen: list[float] = []

    def measure() -> None:
        seen.append(text_width(text, 1.0, True))

    threads = [threading.Thread(target=measure) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == pytest.approx([expected] * 8)
