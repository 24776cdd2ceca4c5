"""Running the web page: a uvicorn server on this computer, and the browser opened on it.

On the loopback (the default) only this computer reaches the page, and requests must name it
by one of its own names, so a web site cannot point a name of its own at 127.0.0.1 and use it.
Opened to the network (``--host 0.0.0.0``), anyone on the network can make sheets and upload
files, which is why the command line prints a warning first.

Example:
    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
import webbrowser

from papergames.errors import PapergamesError

LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]", "::1"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` can be reached only from this computer."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def page_url(host: str, port: int) -> str:
    """The address to open in a browser (an open-to-all host is opened on the loopback)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def check_port(host: str, port: int) -> None:
    """Refuse a port that cannot be listened on, before the server starts and fails noisily.

    Raises:
        PapergamesError: naming the port (or the host) and the reason.
    """
    if not 1 <= port <= 65535:
        raise PapergamesError(f"--port {port} is out of range 1..65535")
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise PapergamesError(f"--host {host}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise PapergamesError(
                f"--port {port}: cannot listen on {host} ({exc.strerror}); choose another port"
            ) from None


def warm() -> None:
    """Make every game's gallery picture while the browser opens, so the gallery comes at once.

    A game whose picture cannot be made is left for the gallery's request, which reports it.
    """
    from papergames.games import game_names
    from papergames.web.making import thumbnail

    for name in game_names():
        with contextlib.suppress(Exception):
            thumbnail(name)


def serve(host: str, port: int, *, open_browser: bool) -> None:
    """Run the page until Ctrl-C.

    Raises:
        PapergamesError: when the host or port cannot be used.
    """
    import uvicorn

    from papergames.web.app import create_app

    check_port(host, port)
    allowed = LOOPBACK_NAMES if is_loopback(host) else None
    app = create_app(allowed_hosts=allowed)
    threading.Thread(target=warm, daemon=True).start()
    if open_browser:
        threading.Timer(1.0, webbrowser.open, [page_url(host, port)]).start()
    uvicorn.run(app, host=host.strip("[]"), port=port, log_level="warning", server_header=False)
