"""Time cold starts of the command line against a bare reportlab script drawing the same grid.

Run: ``.venv/bin/python bench/startup.py [--runs 7]``. Each run starts every command as a fresh
process (no bytecode writing turned off, as a user's shell has it), in turns, so that the
machine's moods fall on all of them alike; the table gives each command's median wall time and
its ratio to the bare script's median in the same run. The bare script is what a person would
write with reportlab alone for the Spaghetti sheet: the 8 by 8 grid, its coordinates, a title,
the four corner squares and the bundled font embedded, written to a PDF (as papergames embeds
it); the same script with reportlab's built-in Helvetica, embedding nothing, is timed beside
it. The issue's targets:
``papergames sheet spaghetti`` under 0.3 s and at most 4 times the bare script, ``papergames
list`` under 0.3 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE = """
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

{register}
page = canvas.Canvas({out!r}, pagesize=(210 * mm, 297 * mm))
page.setFont({face!r}, 16)
page.drawCentredString(105 * mm, 280 * mm, "Uncooked Spaghetti and Square Meatballs")
left, top, side, n = 25 * mm, 255 * mm, 20 * mm, 8
page.setLineWidth(0.35 * mm)
for k in range(n + 1):
    page.line(left + k * side, top, left + k * side, top - n * side)
    page.line(left, top - k * side, left + n * side, top - k * side)
page.setFont({face!r}, 9)
for k in range(n):
    page.drawCentredString(left + (k + 0.5) * side, top - n * side - 6 * mm, "abcdefgh"[k])
    page.drawString(left - 6 * mm, top - (k + 0.5) * side, str(n - k))
for x, y in ((12, 272), (186, 272), (12, 12), (186, 12)):
    page.rect(x * mm, y * mm, 12 * mm, 12 * mm, fill=1)
page.showPage()
page.save()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    program = str(Path(sys.executable).parent / "papergames")
    font = str(root / "fonts" / "DejaVuSans.ttf")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        script = out / "bare.py"
        register = f"pdfmetrics.registerFont(TTFont('DejaVu', {font!r}))"
        script.write_text(BARE.format(register=register, face="DejaVu", out=str(out / "bare.pdf")))
        plain = out / "plain.py"
        plain.write_text(BARE.format(register="", face="Helvetica", out=str(out / "plain.pdf")))
        commands = {
            "bare reportlab script": [sys.executable, str(script)],
            "the same with Helvetica, no font embedded": [sys.executable, str(plain)],
            "papergames sheet spaghetti -o x.pdf": [
                program,
                "sheet",
                "spaghetti",
                "--seed",
                "1",
                "-o",
                str(out / "x.pdf"),
            ],
            "papergames list": [program, "list"],
            "papergames --help": [program, "--help"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs + 1):  # the first round warms the disk cache and is dropped
            for name, command in commands.items():
                start = time.perf_counter()
                subprocess.run(command, env=env, capture_output=True, check=True)
                times[name].append(time.perf_counter() - start)
    bare = statistics.median(times["bare reportlab script"][1:])
    print(f"Cold starts, median of {args.runs} paired runs\n")
    plain_median = statistics.median(times["the same with Helvetica, no font embedded"][1:])
    print("| command | median s | times the bare script | times the Helvetica script |")
    print("|---|---:|---:|---:|")
    for name, seen in times.items():
        median = statistics.median(seen[1:])
        print(f"| `{name}` | {median:.3f} | {median / bare:.1f} | {median / plain_median:.1f} |")


if __name__ == "__main__":
    main()
