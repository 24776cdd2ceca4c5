"""Time the web page's live preview for each game on a warm server; print a Markdown table.

Run: ``.venv/bin/python bench/web.py [--runs N]``. It starts ``papergames serve --no-browser``
on a free loopback port in its own process, asks each game's preview once to warm it, then
asks N previews of fresh seeds (so no answer comes from the server's cache, as when a user
changes a value) and reports the median and the worst round trip. Beside them is the time the
library takes in this process to build the same sheets and write them as SVG, which the server
cannot beat. Then ``--users`` simulated pupils (30 by default) record Springer games at once,
each on a sheet of its own, each clicking spaces at random over its own kept-alive connection
(a refused click is a round trip too): the table gives the clicks, the errors and the median
and 95th-percentile round trip. Targets (issue 13): previews under 150 ms for the board games
(grids, rings and the other fixed boards), and under that build time plus 50 ms for the art
games, whose fields are drawn at random; for the class, no errors and a median click under
50 ms. ``--photos N`` then sends N phone photos (the committed phone photo of a Mondrian
sheet, enlarged to 12 MP) to the check page at once, as a class handing in its sheets, and
reports the wall time, the answers and the server's peak memory (its ``VmHWM``) against the
photo reader's 1 GB. ``--packs N`` (50 by default; 0 skips it) has N teachers ask the pack page
for small class packs that build (``--pack-copies`` sheets of one quick game each, rules
behind, each teacher another seed) at once, each polling its job and downloading its PDF as
the page does, while one more user asks for previews of fresh seeds over and over: the table
gives the packs delivered, their times, the server's resident memory (its ``VmRSS`` sampled
every 50 ms, and its peak) and the previews' median and worst round trip meanwhile.
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from papergames.games import game_names
from papergames.output import render
from papergames.sheets.sheet import make_sheet
from papergames.sheets.spec import SheetSpec

ART_GAMES = {"vasarely", "miro", "mondrian", "arp", "delaunay", "klee", "springer"}
"""The games whose fields are drawn at random, as in the Makefile's gallery."""

GRID_TARGET_MS = 150.0
ART_MARGIN_MS = 50.0
CLICK_TARGET_MS = 50.0


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


def pupil(port: int, seat: int, clicks: int, times: list[float], errors: list[str]) -> None:
    """One pupil recording a Springer game: random clicks on spaces, every answer checked."""
    rng = random.Random(seat)
    spec = f"springer seed={100 + seat}"
    spaces = [f"space-{n}" for n in range(1, 61)]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    moves: list[str] = []
    for _ in range(clicks):
        body = {"spec": spec, "players": ["Ann", "Bob"], "moves": moves, "item": rng.choice(spaces)}
        start = time.perf_counter()
        try:
            connection.request(
                "POST",
                "/api/record/springer",
                json.dumps(body),
                {"content-type": "application/json"},
            )
            response = connection.getresponse()
            answer = json.loads(response.read())
        except (OSError, ValueError) as exc:
            errors.append(f"pupil {seat}: {exc}")
            return
        times.append((time.perf_counter() - start) * 1000)
        if response.status != 200:
            errors.append(f"pupil {seat}: {response.status} {answer.get('error')}")
            return
        if answer["moves"][: len(moves)] != moves:
            errors.append(f"pupil {seat}: the server's game is not this pupil's")
            return
        moves = answer["moves"]


def together(threads: Iterable[threading.Thread]) -> float:
    """Start the threads at once and wait for them all; the seconds it took."""
    started = list(threads)
    start = time.perf_counter()
    for thread in started:
        thread.start()
    for thread in started:
        thread.join()
    return time.perf_counter() - start


def class_of(port: int, users: int, clicks: int) -> None:
    """``users`` pupils recording at once; print their clicks' round trips."""
    times: list[float] = []
    errors: list[str] = []
    elapsed = together(
        threading.Thread(target=pupil, args=(port, seat, clicks, times, errors))
        for seat in range(users)
    )
    ordered = sorted(times)
    p95 = ordered[int(0.95 * (len(ordered) - 1))] if ordered else 0.0
    median = statistics.median(ordered) if ordered else 0.0
    verdict = "met" if not errors and median < CLICK_TARGET_MS else "MISSED"
    print(f"\n{users} pupils recording Springer games at once, {clicks} clicks each\n")
    print("| clicks | errors | median click (ms) | 95th percentile (ms) | clicks/s | target |")
    print("|---:|---:|---:|---:|---:|---|")
    print(
        f"| {len(times)} | {len(errors)} | {median:.0f} | {p95:.0f} | "
        f"{len(times) / elapsed:.0f} | no errors, median < {CLICK_TARGET_MS:.0f}: {verdict} |"
    )
    for error in errors[:5]:
        print(error)


PHOTO = Path(__file__).resolve().parent.parent / "tests" / "data" / "photos" / "mondrian-phone.jpg"
MEMORY_TARGET_MB = 1024.0


def twelve_megapixels() -> bytes:
    """The committed phone photo enlarged to 4000 x 3000, as a phone's JPEG."""
    from PIL import Image

    with Image.open(PHOTO) as image:
        upright = image.convert("RGB")
    size = (4000, 3000) if upright.width > upright.height else (3000, 4000)
    out = io.BytesIO()
    upright.resize(size, Image.Resampling.LANCZOS).save(out, format="JPEG", quality=88)
    return out.getvalue()


def send_photo(port: int, data: bytes, statuses: list[int]) -> None:
    boundary = "papergamesbench"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="transcript"; '
        'filename="sheet.jpg"\r\nContent-Type: image/jpeg\r\n\r\n'
    ).encode()
    body = head + data + f"\r\n--{boundary}--\r\n".encode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request(
        "POST", "/check", body, {"content-type": f"multipart/form-data; boundary={boundary}"}
    )
    response = connection.getresponse()
    response.read()
    statuses.append(response.status)


def peak_mb(pid: int) -> float:
    """A process's peak resident memory so far (Linux), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def photo_class(port: int, pid: int, count: int) -> None:
    """``count`` photos sent to the check page at once; print the time and the peak memory."""
    data = twelve_megapixels()
    statuses: list[int] = []
    send_photo(port, data, statuses)  # warm the reader
    elapsed = together(
        threading.Thread(target=send_photo, args=(port, data, statuses)) for _ in range(count)
    )
    peak = peak_mb(pid)
    good = sum(1 for s in statuses[1:] if s == 200)
    verdict = "met" if good == count and peak < MEMORY_TARGET_MB else "MISSED"
    print(f"\n{count} photos of 12 MP ({len(data) / 1e6:.1f} MB) sent to the check page at once\n")
    print("| photos | answered 200 | wall s | s per photo | server peak MB | target |")
    print("|---:|---:|---:|---:|---:|---|")
    print(
        f"| {count} | {good} | {elapsed:.1f} | {elapsed / count:.2f} | {peak:.0f} | "
        f"all read, < {MEMORY_TARGET_MB:.0f} MB: {verdict} |"
    )


PACK_GAMES = ("maze", "spaghetti", "cocomposite", "palindromes", "rings", "klee")
"""Quick games for the teachers' packs, taken in turn: small packs that build."""


def resident_mb(pid: int) -> tuple[float, float]:
    """A process's resident memory now and its peak so far (``VmRSS``, ``VmHWM``; Linux), MB."""
    values = {"VmRSS:": 0.0, "VmHWM:": 0.0}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key = line.split(":")[0] + ":"
        if key in values:
            values[key] = int(line.split()[1]) / 1024
    return values["VmRSS:"], values["VmHWM:"]


def teacher(port: int, seat: int, copies: int, results: list[tuple[str, float]]) -> None:
    """One teacher asking for a pack as the pack page does: start it, poll it, download it.

    Appends ``("ok", seconds)`` for a PDF received, else the failure and the seconds it took.
    """
    from urllib.parse import urlencode

    game = PACK_GAMES[seat % len(PACK_GAMES)]
    form = {"games": game, "copies": copies, "seed": 500 + seat, "paper": "a4"}
    form |= {"rules": "back", "per_page": 1}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    start = time.perf_counter()

    def ask(method: str, url: str, body: str | None = None) -> tuple[int, bytes]:
        headers = {"content-type": "application/x-www-form-urlencoded"} if body else {}
        connection.request(method, url, body, headers)
        response = connection.getresponse()
        return response.status, response.read()

    try:
        status, body = ask("POST", "/api/pack", urlencode(form))
        if status != 202:
            results.append((f"start {status}: {body[:80]!r}", time.perf_counter() - start))
            return
        job = json.loads(body)["id"]
        while True:
            time.sleep(0.25)
            status, body = ask("GET", f"/api/pack/{job}")
            answer = json.loads(body) if status == 200 else {}
            if status != 200 or answer.get("error"):
                why = answer.get("error") or body[:80].decode(errors="replace")
                results.append((f"status {status}: {why}", time.perf_counter() - start))
                return
            if answer["ready"]:
                break
        status, body = ask("GET", f"/api/pack/{job}/file")
    except (OSError, ValueError) as exc:
        results.append((f"{type(exc).__name__}: {exc}", time.perf_counter() - start))
        return
    ok = status == 200 and body.startswith(b"%PDF")
    results.append(("ok" if ok else f"file {status}", time.perf_counter() - start))


def reset_peak(pid: int) -> bool:
    """Start a process's ``VmHWM`` afresh (Linux 4.0 or later); whether that could be done."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def pack_rush(port: int, pid: int, count: int, copies: int) -> None:
    """``count`` teachers asking for packs at once while a user previews; print one table.

    The peak is the server's ``VmHWM`` counted from the start of the rush when the kernel lets
    it be reset, else the highest ``VmRSS`` sampled every 50 ms.
    """
    before, _ = resident_mb(pid)
    fresh_peak = reset_peak(pid)
    results: list[tuple[str, float]] = []
    previews: list[float] = []
    samples: list[float] = []
    done = threading.Event()

    def previewer() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        seed = 20_000
        while not done.is_set():
            seed += 1
            previews.append(preview_ms(connection, "maze", seed))

    def sampler() -> None:
        while not done.is_set():
            samples.append(resident_mb(pid)[0])
            time.sleep(0.05)

    watchers = [threading.Thread(target=previewer), threading.Thread(target=sampler)]
    for thread in watchers:
        thread.start()
    try:
        elapsed = together(
            threading.Thread(target=teacher, args=(port, seat, copies, results))
            for seat in range(count)
        )
    finally:
        done.set()
        for thread in watchers:
            thread.join()
    peak = max([resident_mb(pid)[1] if fresh_peak else 0.0, *samples])
    delivered = sorted(seconds for outcome, seconds in results if outcome == "ok")
    failures = [outcome for outcome, _ in results if outcome != "ok"]
    median = statistics.median(delivered) if delivered else 0.0
    worst = max(delivered, default=0.0)
    print(
        f"\n{count} teachers asking for packs at once ({copies} sheets of one game each, rules "
        "behind), and previews asked meanwhile\n"
    )
    print(
        "| packs at once | delivered | wall s | pack median / worst s | server RSS before MB "
        "| server peak RSS MB | previews meanwhile | preview median / worst ms |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {count} | {len(delivered)} | {elapsed:.1f} | {median:.1f} / {worst:.1f} | "
        f"{before:.0f} | {peak:.0f} | {len(previews)} | "
        f"{statistics.median(previews) if previews else 0:.0f} / {max(previews, default=0):.0f} |"
    )
    for outcome in sorted(set(failures)):
        print(f"{failures.count(outcome)} x {outcome}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="previews per game (default 9)")
    parser.add_argument("--users", type=int, default=30, help="pupils recording at once")
    parser.add_argument("--clicks", type=int, default=40, help="clicks per pupil (default 40)")
    parser.add_argument("--class-only", action="store_true", help="skip the preview table")
    parser.add_argument(
        "--photos", type=int, default=0, help="photos sent to the check page at once (default 0)"
    )
    parser.add_argument(
        "--packs", type=int, default=50, help="teachers asking for packs at once (default 50)"
    )
    parser.add_argument(
        "--pack-copies", type=int, default=3, help="sheets in each teacher's pack (default 3)"
    )
    args = parser.parse_args()
    port = free_port()
    server = start_server(port)
    try:
        if not args.class_only:
            previews(port, args.runs)
        class_of(port, args.users, args.clicks)
        if args.photos:
            photo_class(port, server.pid, args.photos)
        if args.packs:
            pack_rush(port, server.pid, args.packs, args.pack_copies)
    finally:
        server.terminate()
        server.wait(timeout=10)


def previews(port: int, runs: int) -> None:
    """Print each game's preview round trip against the library's own build time."""
    print(f"preview round trip on a warm server, median of {runs} fresh seeds\n")
    print("| game | kind | build + SVG here (ms) | preview median (ms) | worst | target |")
    print("|---|---|---:|---:|---:|---|")
    for game in game_names():
        build_ms(game, 999_998)  # warm this process's imports and fonts
        seeds = range(1000, 1000 + runs)
        builds = statistics.median(build_ms(game, seed) for seed in seeds)
        # A fresh connection per game: the server closes one left idle for 5 s.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        preview_ms(connection, game, 999_999)  # warm the server: imports, first build
        times = [preview_ms(connection, game, seed + 5000) for seed in seeds]
        connection.close()
        median = statistics.median(times)
        art = game in ART_GAMES
        target = builds + ART_MARGIN_MS if art else GRID_TARGET_MS
        verdict = "met" if median < target else "MISSED"
        print(
            f"| {game} | {'art' if art else 'board'} | {builds:.0f} | {median:.0f} | "
            f"{max(times):.0f} | < {target:.0f}: {verdict} |"
        )


if __name__ == "__main__":
    main()
