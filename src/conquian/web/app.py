"""The web server's routes: the browser client, a small JSON API and one websocket per game.

============================================  =============================================
route                                         what it does
============================================  =============================================
``GET /``                                     the browser client (``static/index.html``)
``POST /api/games``                           new game: ``{"mode": "bot"|"friend", "level",
                                              "name", "rules"}`` → ``{"id", "seat", "token"}``
``POST /api/games/{id}/join``                 take the free seat: ``{"name"}`` → ``{"seat", "token"}``
``GET /api/games/{id}``                       public facts about a game
``GET /api/lobby``                            open friend games and games being played
``GET /api/games/{id}/records``               the finished deals (once the match is over)
``GET /api/games/{id}/records/{deal}``        one deal's record (TOML) to download
``GET /api/games/{id}/replay/{deal}``         the positions of a finished deal, for the replay
``GET /api/rules?rules=SPEC``                 the rules in words: every rule, how to play
``WS /ws/{id}?token=…``                       play (with a seat token) or watch (without)
============================================  =============================================

Websocket messages from the client: ``{"type": "act", "action": "discard Kh", "id": 7}``,
``{"type": "hint"}``, ``{"type": "rematch"}``, ``{"type": "ping"}``.  The server sends
``{"type": "state", ...}`` after every change (with ``"ack": id`` to the client whose
action it was), ``{"type": "hint", ...}`` and ``{"type": "error", "message": ...}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
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
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import ConquianError
from ..observation import observe
from ..present.rules_text import EM, describe, how_to_play, rules_heading
from ..present.spans import BOLD, CardLook, Line
from ..present.words import Names, describe_events
from ..records import GameRecord
from ..rules import find_rules
from ..state import GameState
from .hub import Conn, Hub, LiveMatch, UserError, segments
from .store import Store, default_db_url

log = logging.getLogger("conquian.web")

MAX_MESSAGE = 4096
"""The longest websocket message or request body accepted, in characters."""
STATIC = Path(str(resources.files("conquian.web") / "static"))


def create_app(db_url: str | None = None, *, bot_delay: float = 0.6) -> Starlette:
    """The ASGI application, storing games at ``db_url`` (a SQLAlchemy URL)."""
    url = db_url or default_db_url()

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
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={UserError: _user_error})
    return app


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _user_error(request: Request, exc: Exception) -> Response:
    status = exc.status if isinstance(exc, UserError) else 400
    return JSONResponse({"error": str(exc)}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_MESSAGE:
        raise UserError(f"The request body is too large (at most {MAX_MESSAGE} bytes).", 413)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise UserError("The request body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise UserError("The request body must be a JSON object.")
    return data


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def create_game(request: Request) -> Response:
    data = await _body(request)
    unknown = set(data) - {"mode", "level", "name", "rules"}
    if unknown:
        raise UserError(f"Unknown field(s): {', '.join(sorted(unknown))}.")
    live, token = await _hub(request).create(
        data.get("mode"), level=data.get("level"), name=data.get("name"), rules=data.get("rules")
    )
    return JSONResponse({"id": live.id, "seat": 0, "token": token}, status_code=201)


async def join_game(request: Request) -> Response:
    data = await _body(request)
    live, seat, token = await _hub(request).join(request.path_params["game_id"], data.get("name"))
    return JSONResponse({"id": live.id, "seat": seat, "token": token})


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
    names = Names((record.players[0], record.players[1]))
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
    hands = [observe(state, p).to_dict()["hand"] for p in (0, 1)]
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


async def game_socket(websocket: WebSocket) -> None:
    """Play or watch one game; every problem is answered with an error message."""
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
    token = websocket.query_params.get("token")
    seat = None if live is None else live.seat_for(token)
    conn = Conn(seat)
    writer = asyncio.get_running_loop().create_task(_writer(websocket, conn))
    if live is None:
        conn.send({"type": "error", "message": missing})
    else:
        if token and seat is None:
            conn.send(
                {
                    "type": "error",
                    "message": "This link's seat token is not valid for this game; "
                    "you are watching it.",
                }
            )
        live = await hub.connect(live, conn)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
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
                data = json.loads(text)
            except ValueError:
                conn.send({"type": "error", "message": "The message is not valid JSON."})
                continue
            if live is None:
                conn.send({"type": "error", "message": missing})
                continue
            try:
                await hub.handle(live, conn, data)
            except UserError as exc:
                reply: dict[str, Any] = {"type": "error", "message": str(exc)}
                if isinstance(data, dict) and "id" in data:
                    reply["id"] = data["id"] if isinstance(data["id"], int | str) else None
                conn.send(reply)
    except WebSocketDisconnect:
        pass
    finally:
        if live is not None:
            hub.disconnect(live, conn)
        writer.cancel()


async def _writer(websocket: WebSocket, conn: Conn) -> None:
    with contextlib.suppress(Exception):
        while True:
            await websocket.send_text(await conn.outbox.get())
