"""The routes of the local web page: thin adapters over the library, as the command line is.

Pages are Jinja2 templates; the sheet form is drawn from the game's declared parameters
(:mod:`papergames.web.fields`) and the sheets, rules pages and verdicts come from the same
library calls as ``papergames sheet``, ``rules`` and ``check``. Whatever the library refuses
(a :class:`~papergames.errors.PapergamesError`) becomes its message and a 4xx status; anything
else is a short apology and a 500, never a traceback.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from papergames.errors import PapergamesError
from papergames.web import making
from papergames.web.fields import game_fields, sheet_fields
from papergames.web.record import COLOURS as RECORD_COLOURS
from papergames.web.uploads import (
    CHECK_TAKES,
    MAX_PHOTO,
    MAX_PHOTO_REQUEST,
    MAX_REQUEST,
    MAX_UPLOAD,
    TEXT_TAKES,
    UploadError,
    decode_text,
    file_kind,
    looks_like_text,
    not_taken,
    not_text_message,
    shown_name,
)

HERE = Path(__file__).parent
TEMPLATES = Jinja2Templates(directory=HERE / "templates")

SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; img-src 'self' blob: data:; font-src 'self' data:; "
        "style-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'self'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}
"""Sent with every response: the page loads nothing from elsewhere and runs only its own script.
The referrer policy is ``same-origin``, not ``no-referrer``: under ``no-referrer`` a browser
names the page's own forms' origin ``null``, which :class:`GuardMiddleware` could not tell from
another site's."""


class TooLargeError(UploadError):
    """A request body over :data:`MAX_REQUEST` bytes."""


def too_large_message(photo: bool = False) -> str:
    if photo:
        return (
            "the file is too large: the checker takes photos and PDFs of at most "
            f"{MAX_PHOTO // 2**20} MB, and transcripts of at most {MAX_UPLOAD // 1024} KB"
        )
    return f"the file is too large: the checker takes text files of at most {MAX_UPLOAD // 1024} KB"


def too_large_for_text(name: str, data: bytes, takes: str, whole: bool) -> UploadError:
    """The refusal of a file that is no picture and is larger than a transcript may be, naming
    what it is: a kind :func:`~papergames.web.uploads.file_kind` knows (a ZIP, a Word
    document) or bytes that are no text are refused for what they are (a 400), text for its
    size (a :class:`TooLargeError`, 413). ``whole``: ``data`` is the whole file, so its size is
    known; else it is the first bytes of a larger one."""
    kind = file_kind(data)
    if kind is not None:
        return UploadError(not_taken(name, kind, takes))
    if not looks_like_text(data):
        return UploadError(not_text_message(name, takes))
    size = f"{len(data) // 1024} KB" if whole else f"more than {MAX_UPLOAD // 1024} KB"
    return TooLargeError(
        f"{name} is a text file of {size}, too large for a transcript: the checker takes text "
        f"files of at most {MAX_UPLOAD // 1024} KB"
    )


def request_limit(path: str) -> int:
    """The most bytes a request's body may hold: the checker's form takes photos."""
    return MAX_PHOTO_REQUEST if path == "/check" else MAX_REQUEST


class GuardMiddleware:
    """Adds the security headers, refuses forms sent from other sites, and stops a request body
    at its route's limit (:func:`request_limit`).

    A browser names the page a POST comes from (``Origin``): one from another web site, which
    a visited site could send to this computer's page behind its user's back, is refused. A
    body announced as larger than the limit is refused before it is read; one that grows past
    it while it arrives raises :class:`TooLargeError` in the route reading it.

    Given ``allowed_hosts``, a request addressed to any other host name (``Host``) is refused
    too. Each refusal is the error page, or for the page's script (a path under ``/api/``)
    JSON ``{"error": message}``, with the same status.
    """

    def __init__(self, app: ASGIApp, allowed_hosts: list[str] | None = None) -> None:
        self.app = app
        self.hosts = None if allowed_hosts is None else {h.lower() for h in allowed_hosts}

    @staticmethod
    def refusal(request: Request, message: str, status: int) -> Response:
        """The error page, or ``{"error": message}`` for a request to a path under ``/api/``."""
        if request.scope["path"].startswith("/api/"):
            return JSONResponse({"error": message}, status)
        return page_error(request, message, status)

    @staticmethod
    def host_name(host: bytes) -> str:
        """The name a ``Host`` header gives, without its port, lower-cased.

        Example:
            >>> GuardMiddleware.host_name(b"LocalHost:8765"), GuardMiddleware.host_name(b"[::1]:80")
            ('localhost', '[::1]')
        """
        name = host.decode("latin-1").strip().lower()
        if name.startswith("["):
            return name[: name.find("]") + 1]
        return name.rsplit(":", 1)[0] if name.count(":") == 1 else name

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                given = {key.lower() for key, _ in headers}
                headers += [
                    (k.encode(), v.encode())
                    for k, v in SECURITY_HEADERS.items()
                    if k.encode() not in given
                ]
                message["headers"] = headers
            await send(message)

        async def refuse(message: str, status: int) -> None:
            response = self.refusal(Request(scope), message, status)
            await response(scope, receive, send_with_headers)

        headers = dict(scope.get("headers", []))
        if self.hosts is not None:
            host = self.host_name(headers.get(b"host", b""))
            if host not in self.hosts:
                names = ", ".join(sorted(n for n in self.hosts if not n.startswith("[")))
                await refuse(f"the page answers only to this computer's own names ({names})", 400)
                return
        origin = headers.get(b"origin")
        if scope["method"] == "POST" and origin is not None:
            own = f"{scope.get('scheme', 'http')}://".encode() + headers.get(b"host", b"")
            if origin != own:
                message = "the page takes forms only from itself, not from another web site"
                await refuse(message, 403)
                return
        length = headers.get(b"content-length", b"0")
        limit = request_limit(scope["path"])
        photo = limit > MAX_REQUEST
        if not length.isdigit() or int(length) > limit:
            await refuse(too_large_message(photo), 413)
            return
        received = 0

        async def bounded_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:
                raise TooLargeError(too_large_message(photo))
            return message

        await self.app(scope, bounded_receive, send_with_headers)


ERROR_TITLES = {
    404: "Not found",
    413: "That file is too large",
    500: "Something went wrong",
}
"""The error page's heading for a status; any other refusal is "That did not work"."""


def page_error(request: Request, message: str, status: int) -> Response:
    """The error page: the library's message, the status that says whose fault it is, and the
    ways on: the games whose names are close to one asked for that does not exist.

    A refusal of a form's values is not this page: the form is shown again with them
    (:func:`download`, :func:`pack_page`)."""
    context = {
        "message": message,
        "status": status,
        "heading": ERROR_TITLES.get(status, "That did not work"),
        "close": _close_games(request.scope.get("path", "")) if status == 404 else [],
    }
    return TEMPLATES.TemplateResponse(request, "error.html", context, status_code=status)


def _close_games(path: str) -> list[tuple[str, str]]:
    """(title, address) of the games named like the one in a page's address that was not found.

    Example:
        >>> _close_games("/game/mazes"), _close_games("/rules/klea.pdf"), _close_games("/x")
        ([('"Maze" of Polygonal Sections', '/game/maze')], [('Klee', '/rules/klee')], [])
    """
    import difflib

    from papergames.games import GAMES

    parts = path.strip("/").split("/")
    if len(parts) != 2 or parts[0] not in ("game", "rules", "thumb"):
        return []
    asked = parts[1].removesuffix(".pdf").removesuffix(".png").lower()
    where = "rules" if parts[0] == "rules" else "game"
    names = difflib.get_close_matches(asked, list(GAMES), n=3, cutoff=0.6)
    return [(GAMES[name].title, f"/{where}/{name}") for name in names]


def rules_blocks(text: str) -> list[list[str]]:
    """A rules text as blocks of lines: a paragraph is one line, a list of ``-`` items many.

    The command line's ``rules`` prints them the same way: paragraphs joined into single lines,
    and a paragraph that starts with ``-`` kept as one item per line.

    Example:
        >>> rules_blocks("Take turns.\\n\\n- Colour a space.\\n- Score it.")
        [['Take turns.'], ['Colour a space.', 'Score it.']]
    """
    blocks = []
    for para in text.strip().split("\n\n"):
        if para.lstrip().startswith("-"):
            blocks.append([line.strip().removeprefix("-").strip() for line in para.splitlines()])
        elif para.strip():
            blocks.append([" ".join(para.split())])
    return blocks


def _game(name: str) -> Any:
    """The registry's record of a game; an unknown name is a 404 with the library's suggestion."""
    from papergames.games import get_game

    try:
        return get_game(name)
    except PapergamesError as exc:
        raise HTTPException(404, str(exc)) from None


def gallery(request: Request) -> Response:
    """Every game's card; a search (``q``, ``players``) hides the cards it does not find. The
    page's script filters the same way as the search is typed, without asking the server."""
    from papergames.games import GAMES
    from papergames.web.view import finder_text, finds, sheet_alt

    query = request.query_params.get("q", "")[:100]
    players = request.query_params.get("players", "")[:2]
    cards = [
        {
            "game": game,
            "alt": sheet_alt(game),
            "find": finder_text(game),
            "shown": finds(game, query, players),
        }
        for game in GAMES.values()
    ]
    most = max(game.players[1] for game in GAMES.values())
    context = {"cards": cards, "query": query, "players": players, "counts": range(2, most + 1)}
    return TEMPLATES.TemplateResponse(request, "gallery.html", context)


def thumbnail(request: Request) -> Response:
    record = _game(request.path_params["game"])
    data = making.thumbnail(record.name)
    return Response(data, media_type="image/png", headers={"cache-control": "max-age=3600"})


def game_page(request: Request) -> Response:
    """The game's sheet form, with the settings the address gives (the defaults for the rest)."""
    record = _game(request.path_params["game"])
    return _sheet_page(request, record, dict(request.query_params))


def _sheet_page(
    request: Request, record: Any, values: dict[str, str], error: str = "", status: int = 200
) -> Response:
    """The game's page with its form showing ``values`` as they were typed, and ``error`` beside
    the input it is about (at the top of the form when it is about no single input)."""
    from papergames.sheets.spec import new_seed

    layout = record.layout()
    own = set(layout.params.params)
    field = making.bad_field(record.name, values) if error else None
    if error and field is None and error.startswith("unknown format"):
        field = "format"
    context = {
        "game": record,
        "fields": game_fields(layout.params, values),
        "sheet_fields": [f for f in sheet_fields(values) if f.name not in own],
        "seed": values.get("seed") or new_seed(),
        "format": values.get("format", "pdf"),
        "page": "1",  # the page choice is drawn by the preview, from page 1
        "rules": rules_blocks(record.how_to_play),
        "notes": layout.notes(),
        "error": error,
        "error_field": field,
    }
    return TEMPLATES.TemplateResponse(request, "game.html", context, status_code=status)


def preview(request: Request) -> Response:
    """One page of the sheet as SVG, or the library's refusal as JSON with a 400."""
    record = _game(request.path_params["game"])
    values = dict(request.query_params)
    try:
        spec = making.spec_from_values(record.name, values)
        _, page, _ = making.parse_file_choice({"page": values.get("page", "1")})
        made = making.sheet_file(spec, "svg", page)
    except PapergamesError as exc:
        field = making.bad_field(record.name, values)
        return JSONResponse({"error": str(exc), "field": field}, 400)
    # A header is Latin-1: a named sheet's spec (Łukasz, Анна) travels percent-encoded, and a
    # spec of plain ASCII, every other one, is unchanged by it.
    shown = quote(made.spec, safe=" =+,.-_")
    headers = {"x-spec": shown, "x-pages": str(made.pages), "cache-control": "no-store"}
    return Response(made.data, media_type=made.media_type, headers=headers)


def download(request: Request) -> Response:
    """The sheet as the file ``papergames sheet`` writes; a refusal is the game's page again,
    with the values sent and the message beside the input it is about (400)."""
    record = _game(request.path_params["game"])
    values = dict(request.query_params)
    try:
        spec = making.spec_from_values(record.name, values)
        fmt, page, dpi = making.parse_file_choice(values)
        made = making.sheet_file(spec, fmt, page, dpi)
    except PapergamesError as exc:
        return _sheet_page(request, record, values, str(exc), 400)
    return _attachment(made)


def _attachment(made: making.Made) -> Response:
    headers = {"content-disposition": f'attachment; filename="{made.filename}"'}
    return Response(made.data, media_type=made.media_type, headers=headers)


def rules_page(request: Request) -> Response:
    record = _game(request.path_params["game"])
    context = {"game": record, "rules": rules_blocks(record.how_to_play)}
    return TEMPLATES.TemplateResponse(request, "rules.html", context)


def rules_pdf(request: Request) -> Response:
    record = _game(request.path_params["game"])
    try:
        made = making.rules_file(record.name, request.query_params.get("paper", "a4"))
    except PapergamesError as exc:
        return page_error(request, str(exc), 400)
    return _attachment(made)


RECORD_POLICY = SECURITY_HEADERS["content-security-policy"].replace(
    "style-src 'self'", "style-src 'self' 'unsafe-inline'"
)
"""The recorder and the checker draw the sheet's SVG into the page, and its own style element
sets its font."""


async def read_upload(
    request: Request, purpose: str, photos: bool = False
) -> tuple[str, bytes, str | None, str]:
    """The uploaded ``transcript`` file's shown name and bytes, read within the limits, the
    form's ``spec`` (the sheet's spec for a photo whose QR code is torn), if given, and its
    ``class_list`` as typed (empty when none).

    Raises:
        UploadError: for a missing file, or one too large (:class:`TooLargeError`): a text
            file of more than :data:`MAX_UPLOAD` bytes, or with ``photos`` a photo or PDF of
            more than :data:`MAX_PHOTO`; a larger file of another kind is named
            (:func:`too_large_for_text`).
    """
    from papergames.web.photos import is_photo

    limit = MAX_PHOTO if photos else MAX_UPLOAD
    form = await request.form(max_files=1, max_fields=8, max_part_size=MAX_REQUEST)
    try:
        upload = form.get("transcript")
        what = "a transcript, a final-state file or a photo" if photos else "a transcript"
        if not isinstance(upload, UploadFile):
            raise UploadError(f"choose {what} to {purpose}")
        name = shown_name(upload.filename)
        data = await upload.read(limit + 1)
        spec = form.get("spec")
        listed = form.get("class_list")
    finally:
        await form.close()
    photo = photos and is_photo(data)
    if photo and len(data) > MAX_PHOTO:
        raise TooLargeError(too_large_message(photo))
    if not photo and len(data) > MAX_UPLOAD:
        takes = CHECK_TAKES if photos else TEXT_TAKES
        raise too_large_for_text(name, data, takes, whole=len(data) <= limit)
    spec_text = (spec.strip() or None) if isinstance(spec, str) else None
    return name, data, spec_text, listed if isinstance(listed, str) else ""


async def check_page(request: Request) -> Response:
    """The checker's form, and on POST the verdict on the uploaded file: said as a referee
    says it (:func:`papergames.play.report.referee`), with the command line's lines as its details.
    """
    if request.method == "GET":
        return TEMPLATES.TemplateResponse(request, "check.html", _limits({}))
    from papergames.play.report import referee
    from papergames.web import packs, photos

    spec: str | None = None
    listed = ""
    field = None
    try:
        name, data, spec, listed = await read_upload(request, "check", photos=True)
        if photos.is_photo(data):
            try:
                roll = packs.typed_class_list(listed)
            except PapergamesError:
                field = "class_list"  # told beside the class list, which keeps its text
                raise
            count = await run_in_threadpool(photos.sheet_count, data, name, spec)
            if count > 1:
                job = photos.start_reading(data, name, spec, count, roll, listed)
                return RedirectResponse(f"/check/job/{job.id}", status_code=303)
            upload = await run_in_threadpool(
                partial(photos.read_upload_sheets, data, name, spec, count, roll=roll)
            )
            context: dict[str, Any] = {"upload": upload, "spec": spec, "class_list": listed}
        else:
            text = decode_text(data, name, CHECK_TAKES)
            result, views = await run_in_threadpool(_check, text, name)
            context = {"name": name, "told": referee(result), "views": views}
            context["class_list"] = listed
    except PapergamesError as exc:
        # Refused on the checker's own page, its form below the message to choose another file.
        status = 413 if isinstance(exc, TooLargeError) else 400
        context = {"error": str(exc), "spec": spec, "class_list": listed, "error_field": field}
        return TEMPLATES.TemplateResponse(request, "check.html", _limits(context), status)
    response = TEMPLATES.TemplateResponse(request, "check.html", _limits(context))
    response.headers["content-security-policy"] = RECORD_POLICY
    return response


def _limits(context: dict[str, Any]) -> dict[str, Any]:
    """The check form's limits, for its help text."""
    from papergames.web.packs import MAX_CLASS_CHARS
    from papergames.web.photos import MAX_SHEETS

    limits = {
        "max_class": MAX_CLASS_CHARS,
        "max_text_kb": MAX_UPLOAD // 1024,
        "max_photo_mb": MAX_PHOTO // 2**20,
        "max_sheets": MAX_SHEETS,
    }
    return limits | context


def reading_page(request: Request) -> Response:
    """An upload of several sheets: its progress while it is read, then every sheet's result."""
    from papergames.web.photos import reading_job

    job = reading_job(request.path_params["job"])
    if job is None:
        raise HTTPException(404, "no such upload: it may have been read long ago; check it again")
    context: dict[str, Any] = {"class_list": job.class_list}
    if job.error:
        context["error"] = job.error
        return TEMPLATES.TemplateResponse(request, "check.html", _limits(context), 400)
    context.update({"upload": job.result} if job.result is not None else {"job": job})
    response = TEMPLATES.TemplateResponse(request, "check.html", _limits(context))
    response.headers["content-security-policy"] = RECORD_POLICY
    response.headers["cache-control"] = "no-store"
    return response


def reading_status(request: Request) -> Response:
    from papergames.web.photos import reading_job

    job = reading_job(request.path_params["job"])
    if job is None:
        return JSONResponse({"error": "no such upload: check it again"}, 404)
    return JSONResponse(job.to_json(), headers={"cache-control": "no-store"})


def checked_file(request: Request) -> Response:
    """A picture, position or class list the checker kept for its page."""
    from papergames.web.photos import kept

    found = kept(request.path_params["key"])
    if found is None:
        raise HTTPException(404, "that file is no longer kept: check the photo again")
    data, media_type = found
    return Response(data, media_type=media_type, headers={"cache-control": "private, max-age=3600"})


def record_page(request: Request) -> Response:
    """The sheet on screen to record a game on, for a game the checker knows."""
    record = _game(request.path_params["game"])
    if not record.has_rules:
        raise HTTPException(404, f"{record.name} has no rules engine, so it cannot be recorded")
    values = dict(request.query_params)
    try:
        spec = making.spec_from_values(record.name, values)
    except PapergamesError as exc:
        return page_error(request, str(exc), 400)
    if spec.names:  # the names printed on the sheet, listed from the one who moves first
        from papergames.web.record import first_seat

        first = first_seat(str(spec), len(spec.names))
        players = list(spec.names[first:] + spec.names[:first])
        return _recorder(request, record, str(spec), players, [], {})
    fewest, most = record.players
    seats = spec.params.get("players")
    count = seats if isinstance(seats, int) and fewest <= seats <= most else fewest
    return _recorder(request, record, str(spec), list(DEFAULT_NAMES[:count]), [], {})


DEFAULT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
"""The names the recorder starts with, as many as the sheet's players (``players=3``)."""


def _recorder(
    request: Request,
    record: Any,
    spec: str,
    players: list[str],
    moves: list[str],
    options: dict[str, str],
    loaded: bool = False,
) -> Response:
    """The recorder's page: ``players`` in playing order (see
    :func:`papergames.web.record.seating`), the items its moves are clicked on, named;
    ``loaded`` for a game from a transcript, which the page goes on with rather than a game it
    kept for the sheet."""
    from papergames.web.fields import option_fields
    from papergames.web.record import clicked_kinds, header, item_labels

    rules = record.rules()
    try:
        head = header(spec, players, options)
        kinds = clicked_kinds(head)
        labels = item_labels(head, kinds)
    except PapergamesError:
        kinds, labels = frozenset(), []
    context = {
        "game": record,
        "spec": spec,
        "players": ", ".join(players),
        "named": any(word.startswith("names=") for word in spec.split()),
        "moves": moves,
        "colours": RECORD_COLOURS,
        "notation": rules.notation,
        "options": option_fields(rules.options, options),
        "targets": list(rules.click_targets),
        "kinds": " ".join(sorted(kinds)),
        "labels": labels,
        "loaded": loaded,
    }
    response = TEMPLATES.TemplateResponse(request, "record.html", context)
    response.headers["content-security-policy"] = RECORD_POLICY
    return response


async def load_game(request: Request) -> Response:
    """The recorder with an uploaded transcript's game, replayed, to go on with or undo."""
    from papergames.games import get_game
    from papergames.play.transcript import parse_transcript
    from papergames.web.record import page_order, play

    try:
        name, data, _, _ = await read_upload(request, "load")
        transcript = parse_transcript(decode_text(data), name)
        if transcript.is_final_state:
            raise UploadError(f"{name} gives a finished sheet, not moves: check it instead")
        spec = str(transcript.spec)
        seats = [p.name for p in transcript.players]
        moves = [line.text for line in transcript.moves]
        options = dict(transcript.options)
        players = await run_in_threadpool(partial(page_order, spec, seats, options))
        turn = await run_in_threadpool(partial(play, spec, players, moves, options=options))
    except TooLargeError as exc:
        return page_error(request, str(exc), 413)
    except PapergamesError as exc:
        return page_error(request, str(exc), 400)
    record = get_game(transcript.spec.game)
    return await run_in_threadpool(
        partial(_recorder, request, record, spec, players, turn.moves, options, loaded=True)
    )


async def record_move(request: Request) -> Response:
    """Replay the moves sent and try the new one; answer the game as JSON."""
    from papergames.web.record import play

    record = _game(request.path_params["game"])
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        return JSONResponse({"error": "the request is not JSON"}, 400)
    except TooLargeError as exc:
        return JSONResponse({"error": str(exc)}, 413)
    try:
        spec, players, moves, text, item = _record_request(body)
        pending = _texts(body.get("pending", []), "pending")
        options = _options(body.get("options", {}))
        building = body.get("building", False) is True
        if spec.split()[:1] != [record.name]:
            raise UploadError(f"the spec is not a {record.name} sheet")
        turn = await run_in_threadpool(
            partial(
                play,
                spec,
                players,
                moves,
                text=text,
                item=item,
                pending=pending,
                options=options,
                building=building,
            )
        )
    except PapergamesError as exc:
        return JSONResponse({"error": str(exc)}, 400)
    return JSONResponse(turn.to_json())


def _record_request(body: Any) -> tuple[str, list[str], list[str], str | None, str | None]:
    """The recorder's request, its types checked: nothing in it is trusted."""
    if not isinstance(body, dict):
        raise UploadError("the request is a JSON object")
    spec = body.get("spec")
    if not isinstance(spec, str) or len(spec) > 1000:
        raise UploadError("the request names no sheet spec")
    players = _texts(body.get("players"), "players")
    moves = _texts(body.get("moves", []), "moves")
    return spec, players, moves, _text(body.get("text"), "text"), _text(body.get("item"), "item")


def _options(value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise UploadError("the request's options are names with texts")
    return {str(k): str(v) for k, v in value.items()}


def _texts(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UploadError(f"the request's {what} are a list of texts")
    return [str(v) for v in value]


def _text(value: Any, what: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise UploadError(f"the request's {what} is a text")
    return value


def _check(text: str, name: str) -> tuple[Any, list[Any]]:
    """The verdict on a file and the drawings of its sheet, on one build of the sheet."""
    from papergames.play.checker import check_text
    from papergames.sheets.sheet import sheets_reused
    from papergames.web.view import checked_views

    with sheets_reused():
        result = check_text(text, name)
        return result, checked_views(text, result)


STATIC_TYPES = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}


def _static_files() -> dict[str, tuple[bytes, str]]:
    """The page's own files, read once: only these names are ever served, never a path."""
    files = {}
    for path in sorted((HERE / "static").iterdir()):
        if path.suffix in STATIC_TYPES:
            files[path.name] = (path.read_bytes(), STATIC_TYPES[path.suffix])
    return files


STATIC = _static_files()


def static_file(request: Request) -> Response:
    found = STATIC.get(request.path_params["name"])
    if found is None:
        raise HTTPException(404, "no such file")
    data, media_type = found
    return Response(data, media_type=media_type, headers={"cache-control": "no-cache"})


def _pack_fields(form: Any) -> dict[str, Any]:
    """The whole pack's inputs, showing what ``form`` (a :class:`~papergames.web.packs.PackForm`)
    holds: copies, sheets per page, where the rules go, paper and seed."""
    import dataclasses

    from papergames.handouts.pack import MAX_COPIES, PER_PAGE, RULES_PLACES
    from papergames.sheets.params import Param
    from papergames.sheets.rng import MAX_SEED
    from papergames.sheets.spec import SHEET_PARAMS
    from papergames.web.fields import form_field

    per_page = [str(n) for n in PER_PAGE]
    declared = [
        Param.int(
            "copies", 10, 1, MAX_COPIES, "sheets of each game (with a class list: one a group)"
        ),
        Param.choice("per_page", "1", per_page, "sheets on each page (2 or 4 on A4, Letter or A3)"),
        Param.choice("rules", "back", RULES_PLACES, "where each game's rules are printed"),
        SHEET_PARAMS["paper"],
        Param.int("seed", 0, 0, MAX_SEED, "the same seed and settings make the same pack again"),
    ]
    fields = {p.name: form_field(p, raw=form.values.get(p.name)) for p in declared}
    fields["per_page"] = dataclasses.replace(
        fields["per_page"], option_labels=tuple(f"{n} to a page" for n in per_page)
    )
    places = {
        "back": "behind every sheet (print on both sides)",
        "first": "once, at the front",
        "none": "none",
    }
    fields["rules"] = dataclasses.replace(
        fields["rules"], option_labels=tuple(places.get(r, r) for r in RULES_PLACES)
    )
    fields["seed"] = dataclasses.replace(fields["seed"], allowed="a whole number, 0 or more")
    return fields


def _game_settings(name: str, typed: dict[str, str]) -> list[Any]:
    """A game's settings in the pack form: its own, then the sheet's but the pack's seed and
    paper (orientation, markers, labels, colour), showing the values ``typed`` for them."""
    from papergames.games import get_layout

    params = get_layout(name).params
    own = game_fields(params, typed)
    kept = {f.name for f in own} | {"paper"}
    return own + [f for f in sheet_fields(typed) if f.name not in kept]


def _pack_form_page(
    request: Request, form: Any, error: str = "", field: str | None = None, status: int = 200
) -> Response:
    """The class pack form showing ``form`` as it was typed, and ``error`` beside the input it
    is about (``field``; at the top of the form for none)."""
    from papergames.games import GAMES
    from papergames.web import packs

    settings: dict[str, list[Any]] = {}
    opened = set()
    for name in GAMES:
        prefix = f"{name}:"
        typed = {k[len(prefix) :]: v for k, v in form.settings.items() if k.startswith(prefix)}
        settings[name] = _game_settings(name, typed)
        defaults = {f.name: f.value for f in _game_settings(name, {})}
        if any(defaults.get(k) != v for k, v in typed.items()) or (field or "").startswith(prefix):
            opened.add(name)
    context = {
        "games": list(GAMES.values()),
        "fields": settings,
        "chosen": set(form.games),
        "opened": opened,
        "pack": _pack_fields(form),
        "class_list": form.values.get("class_list", ""),
        "groups_of": form.values.get("groups_of", ""),
        "max_class": packs.MAX_CLASS_CHARS,
        "error": error,
        "error_field": field,
    }
    return TEMPLATES.TemplateResponse(request, "pack.html", context, status_code=status)


async def pack_page(request: Request) -> Response:
    """The class pack form: games, copies, sheets per page, rules, paper and seed.

    Opened from a game's page (``?game=NAME&KEY=VALUE...``), that game is ticked with every
    setting the sheet had: its own and the sheet's in its settings, the paper and the seed as
    the pack's. Opened with ``?from=JOB``, it shows the form that pack was made from. A POST
    is the form sent without the page's script: :func:`pack_submit`.
    """
    from papergames.handouts.packspecs import PACK_KEYS
    from papergames.sheets.spec import GROUP_KEYS, SHEET_PARAMS, new_seed
    from papergames.web import packs

    if request.method == "POST":
        return await pack_submit(request)
    asked = dict(request.query_params)
    job = packs.get(asked.get("from", ""))
    if job is not None and job.form is not None:
        return _pack_form_page(request, job.form)
    chosen = asked.pop("game", "")
    form = packs.PackForm(games=[chosen] if chosen else [])
    for key in PACK_KEYS:
        if asked.get(key):
            form.values[key] = asked[key]
    form.values.setdefault("seed", str(new_seed()))
    if chosen:
        try:
            own = _game(chosen).layout().params.params
        except HTTPException:
            own = {}
        for key, value in asked.items():
            shared = key not in PACK_KEYS and key not in GROUP_KEYS
            if key in own or (key in SHEET_PARAMS.params and shared):
                form.settings[f"{chosen}:{key}"] = value
    return _pack_form_page(request, form)


def pack_game_texts(games: list[str], values: dict[str, str]) -> list[str]:
    """Each chosen game as the pack command names it: alone, or with the settings of its own
    that differ from the defaults (``rings rounds=2``); a form field is ``GAME:KEY``.

    A game's settings are its own parameters and the sheet's keys but the pack's seed and
    paper (``maze markers=off``).

    Raises:
        UploadError: for a value with a space in it (a setting is one word).
    """
    from papergames.games import get_layout
    from papergames.handouts.packspecs import PACK_KEYS
    from papergames.sheets.spec import GROUP_KEYS, SHEET_PARAMS

    texts = []
    for game in games:
        words = [game]
        try:
            params = list(get_layout(game).params)
        except PapergamesError:
            params = []  # the pack's own check names the unknown game
        own = {p.name for p in params}
        if params:
            params += [
                p
                for p in SHEET_PARAMS
                if p.name not in own and p.name not in PACK_KEYS and p.name not in GROUP_KEYS
            ]
        for param in params:
            value = values.get(f"{game}:{param.name}", "").strip()
            if not value or value == param.format(param.default):
                continue
            if any(c.isspace() for c in value):
                raise UploadError(f"{game} {param.name}: a setting is one word, not '{value}'")
            words.append(f"{param.name}={value}")
        texts.append(" ".join(words))
    return texts


async def _read_pack_form(request: Request) -> Any:
    """The pack form as sent (:class:`~papergames.web.packs.PackForm`)."""
    from papergames.web import packs

    form = await request.form(max_files=0, max_fields=600, max_part_size=MAX_REQUEST)
    try:
        return packs.PackForm.from_items((k, str(v)) for k, v in form.multi_items())
    finally:
        await form.close()


async def _start_pack(form: Any) -> Any:
    """Start making the pack ``form`` asks for.

    Raises:
        PapergamesError: what can be refused before the making starts.
    """
    from papergames.sheets.spec import parse_seed
    from papergames.web import packs

    texts = pack_game_texts(form.games, form.settings)
    listed = form.values.get("class_list", "")
    copies = making.whole(form.values.get("copies", ""), "copies") if not listed.strip() else 0
    return await run_in_threadpool(
        partial(
            packs.start,
            texts,
            copies=copies,
            seed=parse_seed(form.values.get("seed", "")),
            paper=form.value("paper", "a4"),
            rules=form.value("rules", "back"),
            per_page=making.whole(form.value("per_page", "1"), "per_page"),
            form=form,
            class_list=listed,
            groups_of=form.values.get("groups_of", ""),
        )
    )


async def pack_start(request: Request) -> Response:
    """Start making a pack for the page's script; answer its job (202), or the refusal and the
    input it is about (400)."""
    from papergames.web import packs

    form = None
    try:
        form = await _read_pack_form(request)
        job = await _start_pack(form)
    except TooLargeError as exc:
        return JSONResponse({"error": str(exc)}, 413)
    except packs.PacksBusyError as exc:
        return JSONResponse({"error": str(exc)}, 503)
    except PapergamesError as exc:
        field = packs.bad_field(form, str(exc)) if form is not None else None
        return JSONResponse({"error": str(exc), "field": field}, 400)
    return JSONResponse({"id": job.id, **job.to_json()}, 202)


async def pack_submit(request: Request) -> Response:
    """The pack form sent without the page's script: start the pack and go to its page
    (:func:`pack_job_page`), or show the form again with the refusal beside its input (400)."""
    from papergames.web import packs

    try:
        form = await _read_pack_form(request)
    except TooLargeError as exc:
        return page_error(request, str(exc), 413)
    try:
        job = await _start_pack(form)
    except packs.PacksBusyError as exc:
        return _pack_form_page(request, form, str(exc), None, 503)
    except PapergamesError as exc:
        return _pack_form_page(request, form, str(exc), packs.bad_field(form, str(exc)), 400)
    return RedirectResponse(f"/pack/job/{job.id}", status_code=303)


def pack_job_page(request: Request) -> Response:
    """A pack being made, for a page without script: its progress, refreshing itself every
    second, then its download link; a pack refused while it was made shows the form again."""
    from papergames.web import packs

    job = packs.get(request.path_params["job"])
    if job is None:
        raise HTTPException(404, "no such pack: it may have been made long ago; make it again")
    if job.error:
        form = job.form or packs.PackForm()
        return _pack_form_page(request, form, job.error, job.field, 400)
    response = TEMPLATES.TemplateResponse(request, "pack.html", {"job": job})
    response.headers["cache-control"] = "no-store"
    return response


def pack_status(request: Request) -> Response:
    from papergames.web import packs

    job = packs.get(request.path_params["job"])
    if job is None:
        return JSONResponse({"error": "no such pack: it may have been made long ago"}, 404)
    return JSONResponse(job.to_json(), headers={"cache-control": "no-store"})


def pack_file(request: Request) -> Response:
    from papergames.web import packs

    job = packs.get(request.path_params["job"])
    if job is None:
        raise HTTPException(404, "no such pack: it may have been made long ago; make it again")
    if job.data is None:
        raise HTTPException(409, job.error or "the pack is not made yet")
    made = making.Made(job.data, "application/pdf", job.filename, "", 0)
    return _attachment(made)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return page_error(request, str(exc.detail), exc.status_code)


async def server_error(request: Request, exc: Exception) -> Response:
    return page_error(request, "something went wrong on this computer's side; try again", 500)


def create_app(allowed_hosts: list[str] | None = None) -> Starlette:
    """The web application.

    Args:
        allowed_hosts: the host names a request may be addressed to; ``papergames serve`` on
            the loopback gives its own names, so a web site that points a name of its own at
            127.0.0.1 cannot reach the page. ``None`` takes any (a server open to the network).
    """
    routes = [
        Route("/", gallery),
        Route("/thumb/{game}.png", thumbnail),
        Route("/game/{game}", game_page),
        Route("/api/preview/{game}", preview),
        Route("/download/{game}", download),
        Route("/rules/{game}.pdf", rules_pdf),
        Route("/rules/{game}", rules_page),
        Route("/check", check_page, methods=["GET", "POST"]),
        Route("/check/file/{key}", checked_file),
        Route("/check/job/{job}", reading_page),
        Route("/api/check/{job}", reading_status),
        Route("/pack", pack_page, methods=["GET", "POST"]),
        Route("/pack/job/{job}", pack_job_page),
        Route("/api/pack", pack_start, methods=["POST"]),
        Route("/api/pack/{job}", pack_status),
        Route("/api/pack/{job}/file", pack_file),
        Route("/record", load_game, methods=["POST"]),
        Route("/record/{game}", record_page),
        Route("/api/record/{game}", record_move, methods=["POST"]),
        Route("/static/{name}", static_file),
        Route("/favicon.ico", lambda request: RedirectResponse("/static/favicon.svg")),
    ]

    def for_api(
        handler: Callable[[Request, Exception], Awaitable[Response]],
    ) -> Callable[[Request, Exception], Awaitable[Response]]:
        """``handler``'s error page, or the same message as JSON for a path under ``/api/``."""

        async def handle(request: Request, exc: Exception) -> Response:
            response = await handler(request, exc)
            message = getattr(response, "context", {}).get("message")
            if request.scope["path"].startswith("/api/") and isinstance(message, str):
                return JSONResponse({"error": message}, response.status_code)
            return response

        return handle

    return Starlette(
        routes=routes,
        middleware=[Middleware(GuardMiddleware, allowed_hosts=allowed_hosts)],
        exception_handlers={HTTPException: for_api(http_error), Exception: for_api(server_error)},
    )
