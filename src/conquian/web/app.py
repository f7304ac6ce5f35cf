"""The web server's routes: the browser client, a small JSON API and one websocket per game.

============================================  =============================================
route                                         what it does
============================================  =============================================
``GET /``                                     the browser client (``static/index.html``)
``POST /api/games``                           new game: ``{"mode": "bot"|"friend", "level",
                                              "name", "rules", "public"}``, or ``{"seats":
                                              [{"kind": "person"}, {"kind": "bot",
                                              "level"}, …], "name", "rules", "public"}`` →
                                              ``{"id", "seat", "token", "shuffle",
                                              "invitations": [{"seat", "code"}]}``
``POST /api/games/{id}/join``                 take a seat: ``{"name", "invite"}`` (the seat
                                              of that invitation; without one, the next
                                              free seat of a public game) →
                                              ``{"seat", "token", "shuffle"}``
``GET /api/games/{id}``                       public facts about a game
``GET /api/lobby``                            public games: open, and being played
``GET /api/games/{id}/records``               the finished deals (once the match is over)
``GET /api/games/{id}/records/{deal}``        one deal's record (TOML) to download
``GET /api/games/{id}/replay/{deal}``         the positions of a finished deal, for the replay
``GET /api/rules?rules=SPEC``                 the rules in words: every rule, how to play
``WS /ws/{id}``                               play (first message ``{"type": "hello",
                                              "token": …}``) or watch (``{"type": "hello"}``)
============================================  =============================================

``shuffle`` is ``{"deal", "commitment"}``: the commitment to the shuffle of the deal that the
seed of the client's ``hello`` goes to, published before the client gives its seed.

An invitation code is a secret like a seat token: it travels in the create answer, in the
body of a join (never in a URL) and, to the creator's own connections only, in the state
messages (``invitations``, the free seats'), worked out again from the creator's token.

Websocket messages from the client: first ``{"type": "hello", "token": "…", "seed": "…"}``
(the seat token travels in this message, never in the URL, where a proxy's log would keep
it; ``seed``, optional, is the client's hexadecimal seed for the shuffle of the deal being
shuffled), then ``{"type": "act", "action": "discard Kh", "id": 7}``,
``{"type": "seed", "deal": 2, "seed": "…"}`` (a seed for the next deal's shuffle, whose
commitment the state's ``fair.next`` shows), ``{"type": "hint"}``, ``{"type": "rematch"}``,
``{"type": "ping"}``.  The server sends ``{"type": "state", ...}``
after every change (with ``"ack": id`` to the client whose action it was),
``{"type": "hint", ...}`` and ``{"type": "error", "message": ...}``.

Before a request reaches a route (:mod:`.security`): a websocket or POST from a page of
another site is refused; a POST must be JSON of at most :data:`MAX_MESSAGE` bytes (refused by
its ``Content-Length``, or once that many bytes have arrived, without reading the rest); game
creation and joins are rate-limited per client address; every HTTP answer carries the
security headers.  A client that does not read its messages is disconnected (code
:data:`CLOSE_BEHIND`) once :data:`~.hub.OUTBOX_MESSAGES` messages wait for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import ConquianError
from ..observation import observe
from ..present.rules_text import EM, describe, how_to_play, rules_heading
from ..present.spans import BOLD, CardLook, Line
from ..present.words import Names, describe_events
from ..records import GameRecord
from ..rules import find_rules
from ..state import GameState
from . import words
from .hub import Conn, Hub, LiveMatch, UserError, check_seed, echo_id, segments
from .security import JsonError, OriginPolicy, RateLimits, SecurityHeaders, dumps, loads
from .store import Store, default_db_url

log = logging.getLogger("conquian.web")

MAX_MESSAGE = 4096
"""The longest websocket message (in characters) or request body (in bytes) accepted."""
RATE_LIMIT = "20/minute;200/hour"
"""Per client address: games it may create, and (counted apart) seats it may take."""
CLOSE_BEHIND = 1008
"""The websocket close code for a client that fell too far behind (policy violation)."""
CLOSE_WAIT = 30.0
"""Seconds to wait for the close frame to get through to a client that fell behind."""
STATIC = Path(str(resources.files("conquian.web") / "static"))


class _App(Starlette):
    def build_middleware_stack(self) -> ASGIApp:
        # outermost, so that even the answer of an unexpected error has the headers
        return SecurityHeaders(super().build_middleware_stack())


class _Static(StaticFiles):
    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"  # a new version is seen at once
        return response


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    rate_limit: str | None = None,
    allowed_origins: tuple[str, ...] = (),
) -> Starlette:
    """The ASGI application, storing games at ``db_url`` (a SQLAlchemy URL).

    ``rate_limit``: games one client address may create, and seats it may take, such as
    :data:`RATE_LIMIT` (``conquian serve``'s default); None (the default here) or ``off``: no
    limit.  ``allowed_origins``: origins of other sites whose pages may use the server
    (``https://games.example``; ``*``: any).

    :raises ValueError: for a rate or an origin that cannot be read.
    """
    url = db_url or default_db_url()
    origins = OriginPolicy.of(allowed_origins)
    limits = RateLimits(rate_limit)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(url)
        app.state.hub = Hub(store, bot_delay=bot_delay)
        try:
            yield
        finally:
            await app.state.hub.close()
            store.close()

    routes = [
        Route("/", index),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game_id}", game_info),
        Route("/api/games/{game_id}/join", join_game, methods=["POST"]),
        Route("/api/games/{game_id}/records", list_records),
        Route("/api/games/{game_id}/records/{deal}", download_record),
        Route("/api/games/{game_id}/replay/{deal}", replay),
        Route("/api/lobby", lobby),
        Route("/api/rules", rules_text),
        WebSocketRoute("/ws/{game_id}", game_socket),
        Mount("/static", _Static(directory=STATIC), name="static"),
    ]
    app = _App(routes=routes, lifespan=lifespan, exception_handlers={UserError: _user_error})
    app.state.origins = origins
    app.state.limits = limits
    return app


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _user_error(request: Request, exc: Exception) -> Response:
    status = exc.status if isinstance(exc, UserError) else 400
    headers = exc.headers if isinstance(exc, UserError) else None
    return JSONResponse({"error": str(exc)}, status_code=status, headers=headers)


def _client(request: Request) -> str:
    """The client's address (behind a proxy, the one it forwarded: see server.py)."""
    return request.client.host if request.client else "unknown"


async def _body(request: Request, what: str) -> dict[str, Any]:
    """The JSON object of a POST that ``what`` (``create``, ``join``) a game, once checked.

    :raises UserError: 403 from a page of another site, 415 not JSON, 429 over the rate
        limit, 413 too large (the rest of the body is not read), 400 not a JSON object.
    """
    problem = request.app.state.origins.cross_site(request.headers)
    if problem is not None:
        raise UserError(f"Refused: this request comes from {problem}.", 403)
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        raise UserError("Send the request body as JSON (Content-Type: application/json).", 415)
    refused = request.app.state.limits.hit(what, _client(request))
    if refused is not None:
        verb = "new games" if what == "create" else "joins"
        raise UserError(
            f"Too many {verb} from your address (at most {refused.limit}); "
            f"try again in {refused.retry_after} s.",
            429,
            {"Retry-After": str(refused.retry_after)},
        )
    too_large = UserError(
        f"The request body is too large (at most {MAX_MESSAGE} bytes).",
        413,
        {"Connection": "close"},  # the rest of the body is never read
    )
    length = request.headers.get("content-length")
    if length is not None:
        if not length.strip().isdigit():
            raise UserError(
                "The Content-Length header is not a number.", 400, {"Connection": "close"}
            )
        if int(length) > MAX_MESSAGE:
            raise too_large
    raw = bytearray()
    async for chunk in request.stream():  # chunked bodies too: stop at the limit
        raw += chunk
        if len(raw) > MAX_MESSAGE:
            raise too_large
    if not raw.strip():
        return {}
    try:
        data = loads(bytes(raw))
    except JsonError as exc:
        raise UserError(exc.words("The request body")) from None
    if not isinstance(data, dict):
        raise UserError("The request body must be a JSON object.")
    return data


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def create_game(request: Request) -> Response:
    data = await _body(request, "create")
    unknown = set(data) - {"mode", "level", "name", "rules", "public", "seats"}
    if unknown:
        raise UserError(f"Unknown field(s): {', '.join(sorted(unknown))}.")
    live, token, invitations = await _hub(request).create(
        data.get("mode"),
        level=data.get("level"),
        name=data.get("name"),
        rules=data.get("rules"),
        public=data.get("public"),
        seats=data.get("seats"),
    )
    answer = {
        "id": live.id,
        "seat": 0,
        "token": token,
        "shuffle": live.next_shuffle(),
        "invitations": invitations,
    }
    return JSONResponse(answer, status_code=201)


async def join_game(request: Request) -> Response:
    data = await _body(request, "join")
    unknown = set(data) - {"name", "invite"}
    if unknown:
        raise UserError(words.join_unknown_fields(str(u)[:20] for u in unknown))
    live, seat, token = await _hub(request).join(
        request.path_params["game_id"], data.get("name"), data.get("invite")
    )
    return JSONResponse(
        {"id": live.id, "seat": seat, "token": token, "shuffle": live.next_shuffle()}
    )


async def game_info(request: Request) -> Response:
    hub = _hub(request)
    live = await hub.get(request.path_params["game_id"])
    summary = live.summary()
    hub.release(live)
    return JSONResponse(summary)


async def lobby(request: Request) -> Response:
    return JSONResponse(await _hub(request).lobby())


async def list_records(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    found = await _hub(request).records(game_id)
    return JSONResponse({"deals": [{"deal": deal, "result": result} for deal, result, _ in found]})


async def _record(request: Request) -> tuple[int, str]:
    game_id = request.path_params["game_id"]
    deal_text = request.path_params["deal"]
    if not deal_text.isdigit():
        raise UserError(f"The deal must be a number, got {deal_text[:20]!r}.")
    for deal, _, text in await _hub(request).records(game_id):
        if deal == int(deal_text):
            return deal, text
    raise UserError(f"Game {game_id} has no finished deal {deal_text}.", 404)


async def download_record(request: Request) -> Response:
    deal, text = await _record(request)
    name = f"conquian-{request.path_params['game_id']}-deal{deal}.toml"
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


async def replay(request: Request) -> Response:
    """Every position of a finished deal, both hands shown, with the move in words."""
    deal, text = await _record(request)
    record = GameRecord.loads(text)
    game = record.to_game()
    look = CardLook()
    names = Names(tuple(record.players))
    states = game.states()
    frames = [_frame(states[0], [])]
    for number, state in enumerate(states[1:]):
        words = describe_events(
            game.history[number : number + 1], names, look, game.rules.cards_to_win
        )
        frames.append(_frame(state, segments(words[0]) if words else []))
    return JSONResponse(
        {
            "deal": deal,
            "players": list(record.players),
            "result": record.result,
            "frames": frames,
        }
    )


def _frame(state: GameState, words: list[Any]) -> dict[str, Any]:
    public = observe(state, 0).to_dict()
    del public["hand"], public["legal_actions"], public["history"]
    hands = [observe(state, p).to_dict()["hand"] for p in range(len(state.hands))]
    return {**public, "hands": hands, "words": words}


async def rules_text(request: Request) -> Response:
    """The rules of a preset or spec in words: ``text``, every rule (as ``conquian
    rules`` prints it) under ``heading``; ``how``, the sections of how to play, each a
    ``heading`` with ``paragraphs`` or numbered ``steps`` (lines of :func:`_marked`)."""
    spec = request.query_params.get("rules", "standard")
    try:
        rules = find_rules(spec[:400])
    except ConquianError as exc:
        raise UserError(f"Bad rules: {exc}") from None
    how = [
        {
            "heading": section.heading,
            "steps" if section.steps else "paragraphs": [_marked(ln) for ln in section.lines],
        }
        for section in how_to_play(rules)
    ]
    return JSONResponse(
        {
            "rules": rules.to_spec(),
            "text": describe(rules),
            "heading": rules_heading(rules),
            "how": how,
        }
    )


def _marked(line: Line) -> list[str | dict[str, str]]:
    """A line of words as JSON: strings, and ``{"strong": ...}`` or ``{"em": ...}``."""
    out: list[str | dict[str, str]] = []
    for span in line:
        mark = {BOLD: "strong", EM: "em"}.get(span.style)
        if mark:
            out.append({mark: span.text})
        elif out and isinstance(out[-1], str):
            out[-1] += span.text
        elif span.text:
            out.append(span.text)
    return out


HELLO = 'first send {"type": "hello", "token": "<your seat token>"} (or {"type": "hello"} to watch)'


async def game_socket(websocket: WebSocket) -> None:
    """Play or watch one game; every problem is answered with an error message.

    The client's first message says who it is: ``{"type": "hello", "token": ...}`` for a
    seat, ``{"type": "hello"}`` to watch.  A client that falls too far behind reading what
    it is sent is closed with :data:`CLOSE_BEHIND`; it may connect again to resume.
    """
    problem = websocket.app.state.origins.cross_site(websocket.headers)
    if problem is not None:
        await websocket.close(code=1008)  # before the handshake: an HTTP 403
        return
    hub = _hub(websocket)
    game_id = websocket.path_params["game_id"]
    live: LiveMatch | None
    missing = ""
    try:
        live = await hub.get(game_id)
    except UserError as exc:
        live = None
        missing = str(exc)
    await websocket.accept()
    if "token" in websocket.query_params:
        words = "Send the seat token in the first message, not in the URL: " + HELLO
        await websocket.send_text(dumps({"type": "error", "message": words}))
        await websocket.close(code=1008, reason="token in the URL")
        if live is not None:
            hub.release(live)
        return
    conn = Conn(None)
    greeted = False
    loop = asyncio.get_running_loop()
    writer = loop.create_task(_writer(websocket, conn))
    behind = loop.create_task(conn.fell_behind.wait())
    if live is None:
        conn.send({"type": "error", "message": missing})
    try:
        while True:
            message = await _receive(websocket, behind)
            if message is None or message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                conn.send({"type": "error", "message": "Send JSON text messages, not binary."})
                continue
            if len(text) > MAX_MESSAGE:
                conn.send(
                    {
                        "type": "error",
                        "message": f"The message is too long ({len(text)} characters; "
                        f"at most {MAX_MESSAGE}).",
                    }
                )
                continue
            try:
                data = loads(text)
            except JsonError as exc:
                conn.send({"type": "error", "message": exc.words("The message")})
                continue
            if live is None:
                conn.send({"type": "error", "message": missing})
                continue
            try:
                if isinstance(data, dict) and data.get("type") == "hello":
                    if greeted:
                        raise UserError("This connection has said hello already.")
                    live = await _hello(hub, live, conn, data.get("token"), data.get("seed"))
                    greeted = True
                elif not greeted:
                    raise UserError("Say who you are: " + HELLO + ".")
                else:
                    await hub.handle(live, conn, data)
            except UserError as exc:
                reply: dict[str, Any] = {"type": "error", "message": str(exc)}
                if isinstance(data, dict) and "id" in data:
                    reply["id"] = echo_id(data["id"])
                conn.send(reply)
    except WebSocketDisconnect:
        pass
    finally:
        if live is not None:
            if greeted:
                hub.disconnect(live, conn)
            else:
                hub.release(live)
        writer.cancel()
        behind.cancel()
    if conn.behind:
        log.warning(
            "game %r: a client fell too far behind reading its messages; closing its connection",
            game_id[:40],
        )
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                websocket.close(code=CLOSE_BEHIND, reason="too far behind: connect again"),
                CLOSE_WAIT,
            )


async def _hello(hub: Hub, live: LiveMatch, conn: Conn, token: Any, seed: Any) -> LiveMatch:
    """Seat the connection by its token (or as a spectator), take its seed for the shuffle,
    and send it the game."""
    if token is not None and not isinstance(token, str):
        raise UserError("The seat token must be text.")
    seed = None if seed is None else check_seed(seed)
    conn.seat = live.seat_for(token) if token else None
    if conn.seat == 0 and token:  # the creator: told the invitations of the seats still free
        conn.invites = {i["seat"]: i["code"] for i in live.invitations(token, taken=True)}
    if token and conn.seat is None:
        conn.send(
            {
                "type": "error",
                "message": "This link's seat token is not valid for this game; you are watching it.",
            }
        )
    live = await hub.greet(live, conn.seat, seed)
    return await hub.connect(live, conn)


async def _receive(websocket: WebSocket, behind: asyncio.Task[Any]) -> Message | None:
    """The next message from the client; None as soon as it fell behind (``behind`` done)."""
    if behind.done():
        return None
    receiving = asyncio.ensure_future(websocket.receive())
    await asyncio.wait((receiving, behind), return_when=asyncio.FIRST_COMPLETED)
    if receiving.done():
        return receiving.result()
    receiving.cancel()
    return None


async def _writer(websocket: WebSocket, conn: Conn) -> None:
    with contextlib.suppress(Exception):
        while (text := await conn.next_message()) is not None:
            await websocket.send_text(text)
