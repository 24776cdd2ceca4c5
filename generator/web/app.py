"""The routes of the local web page: thin adapters over the library, as the command line is.

Pages are Jinja2 templates; the sheet form is drawn from the game's declared parameters
(:mod:`papergames.web.fields`) and the sheets, rules pages and verdicts come from the same
library calls as ``papergames sheet``, ``rules`` and ``check``. Whatever the library refuses
(a :class:`~papergames.errors.PapergamesError`) becomes its message and a 4xx status; anything
else is a short apology and a 500, never a traceback.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
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
    MAX_PHOTO,
    MAX_PHOTO_REQUEST,
    MAX_REQUEST,
    MAX_UPLOAD,
    UploadError,
    decode_text,
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
            f"{MAX_PHOTO // 2**20} MB"
        )
    return f"the file is too large: the checker takes text files of at most {MAX_UPLOAD // 1024} KB"


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
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

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

        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin")
        if scope["method"] == "POST" and origin is not None:
            own = f"{scope.get('scheme', 'http')}://".encode() + headers.get(b"host", b"")
            if origin != own:
                message = "the page takes forms only from itself, not from another web site"
                response = page_error(Request(scope), message, 403)
                await response(scope, receive, send_with_headers)
                return
        length = headers.get(b"content-length", b"0")
        limit = request_limit(scope["path"])
        photo = limit > MAX_REQUEST
        if not length.isdigit() or int(length) > limit:
            response = page_error(Request(scope), too_large_message(photo), 413)
            await response(scope, receive, send_with_headers)
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


def page_error(request: Request, message: str, status: int) -> Response:
    """The error page: the library's message, and the status that says whose fault it is."""
    return TEMPLATES.TemplateResponse(
        request, "error.html", {"message": message, "status": status}, status_code=status
    )


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
    from papergames.games import GAMES

    return TEMPLATES.TemplateResponse(request, "gallery.html", {"games": list(GAMES.values())})


def thumbnail(request: Request) -> Response:
    record = _game(request.path_params["game"])
    data = making.thumbnail(record.name)
    return Response(data, media_type="image/png", headers={"cache-control": "max-age=3600"})


def game_page(request: Request) -> Response:
    from papergames.spec import new_seed

    record = _game(request.path_params["game"])
    layout = record.layout()
    own = set(layout.params.params)
    context = {
        "game": record,
        "fields": game_fields(layout.params),
        "sheet_fields": [f for f in sheet_fields() if f.name not in own],
        "seed": new_seed(),
        "rules": rules_blocks(record.how_to_play),
        "notes": layout.notes(),
    }
    return TEMPLATES.TemplateResponse(request, "game.html", context)


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
    headers = {"x-spec": made.spec, "x-pages": str(made.pages), "cache-control": "no-store"}
    return Response(made.data, media_type=made.media_type, headers=headers)


def download(request: Request) -> Response:
    """The sheet as the file ``papergames sheet`` writes, or the refusal on an error page."""
    record = _game(request.path_params["game"])
    values = dict(request.query_params)
    try:
        spec = making.spec_from_values(record.name, values)
        fmt, page, dpi = making.parse_file_choice(values)
        made = making.sheet_file(spec, fmt, page, dpi)
    except PapergamesError as exc:
        return page_error(request, str(exc), 400)
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
) -> tuple[str, bytes, str | None]:
    """The uploaded ``transcript`` file's shown name and bytes, read within the limits, and
    the form's ``spec`` (the sheet's spec for a photo whose QR code is torn), if given.

    Raises:
        UploadError: for a missing file, or one too large (:class:`TooLargeError`): a text
            file of more than :data:`MAX_UPLOAD` bytes, or with ``photos`` a photo or PDF of
            more than :data:`MAX_PHOTO`.
    """
    from papergames.web.photos import is_photo

    limit = MAX_PHOTO if photos else MAX_UPLOAD
    form = await request.form(max_files=1, max_fields=8, max_part_size=4096)
    try:
        upload = form.get("transcript")
        what = "a transcript, a final-state file or a photo" if photos else "a transcript"
        if not isinstance(upload, UploadFile):
            raise UploadError(f"choose {what} to {purpose}")
        name = shown_name(upload.filename)
        data = await upload.read(limit + 1)
        spec = form.get("spec")
    finally:
        await form.close()
    photo = photos and is_photo(data)
    if len(data) > (MAX_PHOTO if photo else MAX_UPLOAD):
        raise TooLargeError(too_large_message(photo))
    return name, data, (spec.strip() or None) if isinstance(spec, str) else None


async def check_page(request: Request) -> Response:
    """The checker's form, and on POST the verdict on the uploaded file."""
    if request.method == "GET":
        return TEMPLATES.TemplateResponse(request, "check.html", _limits({}))
    from papergames.web import photos
    from papergames.web.view import checked_views

    spec: str | None = None
    try:
        name, data, spec = await read_upload(request, "check", photos=True)
        if photos.is_photo(data):
            count = await run_in_threadpool(photos.sheet_count, data, name, spec)
            if count > 1:
                job = photos.start_reading(data, name, spec, count)
                return RedirectResponse(f"/check/job/{job.id}", status_code=303)
            upload = await run_in_threadpool(photos.read_upload_sheets, data, name, spec, count)
            context: dict[str, Any] = {"upload": upload, "spec": spec}
        else:
            text = decode_text(data)
            result = await run_in_threadpool(_check, text, name)
            views = await run_in_threadpool(checked_views, text, result)
            context = {"name": name, "ok": result.ok, "lines": result.lines(), "views": views}
    except TooLargeError as exc:
        return page_error(request, str(exc), 413)
    except PapergamesError as exc:
        context = {"error": str(exc), "spec": spec}
        return TEMPLATES.TemplateResponse(request, "check.html", _limits(context), 400)
    response = TEMPLATES.TemplateResponse(request, "check.html", _limits(context))
    response.headers["content-security-policy"] = RECORD_POLICY
    return response


def _limits(context: dict[str, Any]) -> dict[str, Any]:
    """The check form's limits, for its help text."""
    from papergames.web.photos import MAX_SHEETS

    limits = {
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
    if job.error:
        return TEMPLATES.TemplateResponse(request, "check.html", _limits({"error": job.error}), 400)
    context = {"upload": job.result} if job.result is not None else {"job": job}
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
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][: record.players[0]]
    return _recorder(request, record, str(spec), names, [], {})


def _recorder(
    request: Request,
    record: Any,
    spec: str,
    players: list[str],
    moves: list[str],
    options: dict[str, str],
) -> Response:
    from papergames.web.fields import option_fields

    rules = record.rules()
    context = {
        "game": record,
        "spec": spec,
        "players": ", ".join(players),
        "moves": moves,
        "colours": RECORD_COLOURS,
        "notation": rules.notation,
        "options": option_fields(rules.options, options),
        "targets": list(rules.click_targets),
    }
    response = TEMPLATES.TemplateResponse(request, "record.html", context)
    response.headers["content-security-policy"] = RECORD_POLICY
    return response


async def load_game(request: Request) -> Response:
    """The recorder with an uploaded transcript's game, replayed, to go on with or undo."""
    from papergames.games import get_game
    from papergames.transcript import parse_transcript
    from papergames.web.record import play

    try:
        name, data, _ = await read_upload(request, "load")
        transcript = parse_transcript(decode_text(data), name)
        if transcript.is_final_state:
            raise UploadError(f"{name} gives a finished sheet, not moves: check it instead")
        spec = str(transcript.spec)
        players = [p.name for p in transcript.players]
        moves = [line.text for line in transcript.moves]
        options = dict(transcript.options)
        turn = await run_in_threadpool(partial(play, spec, players, moves, options=options))
    except TooLargeError as exc:
        return page_error(request, str(exc), 413)
    except PapergamesError as exc:
        return page_error(request, str(exc), 400)
    record = get_game(transcript.spec.game)
    return _recorder(request, record, spec, players, turn.moves, options)


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


def _check(text: str, name: str) -> Any:
    from papergames.checker import check_text

    return check_text(text, name)


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


def pack_page(request: Request) -> Response:
    """The class pack form: games, copies, sheets per page, rules, paper and seed."""
    from papergames.games import GAMES
    from papergames.pack import PER_PAGE, RULES_PLACES
    from papergames.spec import new_seed
    from papergames.web.fields import option_fields

    asked = dict(request.query_params)
    chosen = asked.pop("game", "")
    fields = {
        name: option_fields(game.layout().params, asked if name == chosen else {})
        for name, game in GAMES.items()
    }
    context = {
        "games": list(GAMES.values()),
        "fields": fields,
        "chosen": chosen,
        "settled": chosen if set(asked) & {p.name for p in fields.get(chosen, [])} else "",
        "paper": next(f for f in sheet_fields() if f.name == "paper"),
        "per_page": PER_PAGE,
        "rules": RULES_PLACES,
        "seed": new_seed(),
    }
    return TEMPLATES.TemplateResponse(request, "pack.html", context)


def pack_game_texts(games: list[str], values: dict[str, str]) -> list[str]:
    """Each chosen game as the pack command names it: alone, or with the settings of its own
    that differ from the defaults (``rings rounds=2``); a form field is ``GAME:KEY``.

    Raises:
        UploadError: for a value with a space in it (a setting is one word).
    """
    from papergames.games import get_layout

    texts = []
    for game in games:
        words = [game]
        try:
            params = list(get_layout(game).params)
        except PapergamesError:
            params = []  # the pack's own check names the unknown game
        for param in params:
            value = values.get(f"{game}:{param.name}", "").strip()
            if not value or value == param.format(param.default):
                continue
            if any(c.isspace() for c in value):
                raise UploadError(f"{game} {param.name}: a setting is one word, not '{value}'")
            words.append(f"{param.name}={value}")
        texts.append(" ".join(words))
    return texts


async def pack_start(request: Request) -> Response:
    """Start making a pack; answer its job (202), or the refusal (400)."""
    from papergames.spec import parse_seed
    from papergames.web import packs

    try:
        form = await request.form(max_files=0, max_fields=400, max_part_size=4096)
        games = [str(g) for g in form.getlist("games")]
        fields = {k: str(form.get(k, "")) for k in ("copies", "seed", "paper", "rules", "per_page")}
        values = {k: str(v) for k, v in form.multi_items() if ":" in k}
        await form.close()
        texts = pack_game_texts(games, values)
        job = await run_in_threadpool(
            partial(
                packs.start,
                texts,
                copies=making.whole(fields["copies"], "copies"),
                seed=parse_seed(fields["seed"]),
                paper=fields["paper"] or "a4",
                rules=fields["rules"] or "back",
                per_page=making.whole(fields["per_page"] or "1", "per_page"),
            )
        )
    except TooLargeError as exc:
        return JSONResponse({"error": str(exc)}, 413)
    except PapergamesError as exc:
        return JSONResponse({"error": str(exc)}, 400)
    return JSONResponse({"id": job.id, **job.to_json()}, 202)


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
        Route("/pack", pack_page),
        Route("/api/pack", pack_start, methods=["POST"]),
        Route("/api/pack/{job}", pack_status),
        Route("/api/pack/{job}/file", pack_file),
        Route("/record", load_game, methods=["POST"]),
        Route("/record/{game}", record_page),
        Route("/api/record/{game}", record_move, methods=["POST"]),
        Route("/static/{name}", static_file),
        Route("/favicon.ico", lambda request: RedirectResponse("/static/favicon.svg")),
    ]
    middleware = [Middleware(GuardMiddleware)]
    if allowed_hosts is not None:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    return Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
