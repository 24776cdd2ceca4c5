"""Time the web page's live preview for each game on a warm server; print a Markdown table.

Run: ``.venv/bin/python bench/web.py [--runs N]``. It starts ``papergames serve --no-browser``
on a free loopback port in its own process, asks each game's preview once to warm it, then
asks N previews of fresh seeds (so no answer comes from the server's cache, as when a user
changes a value) and reports the median and the worst round trip. Beside them is the time the
library takes in this process to build the same sheets and write them as SVG, which the server
cannot beat. Targets (issue 13): under 150 ms for the board games (grids, rings and the other
fixed boards), and under that build time plus 50 ms for the art games, whose fields are drawn at
random.
"""

from __future__ import annotations

import argparse
import http.client
import io
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

from papergames.games import game_names
from papergames.output import render
from papergames.sheet import make_sheet
from papergames.spec import SheetSpec

ART_GAMES = {"vasarely", "miro", "mondrian", "arp", "delaunay", "klee", "springer"}
"""The games whose fields are drawn at random, as in the Makefile's gallery."""

GRID_TARGET_MS = 150.0
ART_MARGIN_MS = 50.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(port: int) -> subprocess.Popen[bytes]:
    """``papergames serve`` in a process of its own, once it answers."""
    command = [str(Path(sys.executable).with_name("papergames")), "serve"]
    process = subprocess.Popen(
        [*command, "--no-browser", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/check")
            if connection.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    errors = process.stderr.read().decode() if process.stderr else ""
    raise SystemExit(f"the server did not start: {errors}")


def preview_ms(connection: http.client.HTTPConnection, game: str, seed: int) -> float:
    """One preview's round trip, in ms, over a kept-alive connection."""
    start = time.perf_counter()
    connection.request("GET", f"/api/preview/{game}?seed={seed}")
    response = connection.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - start) * 1000
    if response.status != 200 or not body.startswith(b"<?xml"):
        raise SystemExit(f"{game} seed {seed}: the preview failed ({response.status})")
    return elapsed


def build_ms(game: str, seed: int) -> float:
    """The library's time to build the sheet and write its first page as SVG, in this process."""
    start = time.perf_counter()
    render(make_sheet(SheetSpec.create(game, seed=seed)), io.BytesIO(), format="svg")
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="previews per game (default 9)")
    args = parser.parse_args()
    port = free_port()
    server = start_server(port)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        print(f"preview round trip on a warm server, median of {args.runs} fresh seeds\n")
        print("| game | kind | build + SVG here (ms) | preview median (ms) | worst | target |")
        print("|---|---|---:|---:|---:|---|")
        for game in game_names():
            preview_ms(connection, game, 999_999)  # warm: imports, fonts, first build
            build_ms(game, 999_998)
            seeds = range(1000, 1000 + args.runs)
            builds = statistics.median(build_ms(game, seed) for seed in seeds)
            times = [preview_ms(connection, game, seed + 5000) for seed in seeds]
            median = statistics.median(times)
            art = game in ART_GAMES
            target = builds + ART_MARGIN_MS if art else GRID_TARGET_MS
            verdict = "met" if median < target else "MISSED"
            print(
                f"| {game} | {'art' if art else 'board'} | {builds:.0f} | {median:.0f} | "
                f"{max(times):.0f} | < {target:.0f}: {verdict} |"
            )
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
