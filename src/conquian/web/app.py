"""The web server's routes: the browser client, a small JSON API and one websocket per match.

What the URLs and the JSON call a game (``/api/games``, ``/ws/{id}``, a state's ``game``) is a
match, a series of deals: the names stay, for the clients that use them; the code says match.

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
``GET /api/me``                               the visitor's player (a guest made on his
                                              first visit): ``{"id", "name", "guest",
                                              "ratings"}``
``POST /api/me``                              ``{"name"}``: the player's name, changed
``GET /api/leaderboard?form=F&period=P``      the best players of a form (``classic``,
                                              ``mexican2``, ``tercerilla``, ``mexican4``)
                                              this ``week``, ``month`` or ``all`` time
``GET /api/players/{id}/games?before=T``      a player's finished games, newest first
``GET /api/games/{id}/records``               the finished deals (once the match is over)
``GET /api/games/{id}/records/{deal}``        one deal's record (TOML) to download
``GET /api/games/{id}/replay/{deal}``         the positions of a finished deal, for the replay
``GET /api/rules?rules=SPEC``                 the rules in words: every rule, how to play
``GET /api/words?lang=CODE``                  the page's words in a language (the catalogue
                                              ``conquian-web`` as JSON: :mod:`.languages`)
``GET /manifest.webmanifest``                 the web app manifest (to add the page to a
                                              phone's home screen)
``GET /sw.js``                                the service worker: the page's files kept for
                                              a visit without a network
``WS /ws/{id}``                               play (first message ``{"type": "hello",
                                              "token": …}``) or watch (``{"type": "hello"}``)
============================================  =============================================

Every answer's words (errors, the rules, the moves, the names of the computer seats) are
written in the request's language (:func:`.languages.request_language`: ``?lang=``, the
``conquian_lang`` cookie, ``Accept-Language``); data (cards, actions, codes) never is.  A
websocket connection starts in its handshake's language, or the ``lang`` of its ``hello``,
and changes it with ``{"type": "lang", "lang": "es"}``; each connection to a game is sent
its words in its own language.

``shuffle`` is ``{"deal", "commitment"}``: the commitment to the shuffle of the deal that the
seed of the client's ``hello`` goes to, published before the client gives its seed.

An invitation code is a secret like a seat token: it travels in the create answer, in the
body of a join (never in a URL) and, to the creator's own connections only, in the state
messages (``invitations``, the free seats'), worked out again from the creator's token.

Websocket messages from the client: first ``{"type": "hello", "token": "…", "seed": "…"}``
(the seat token travels in this message, never in the URL, where a proxy's log would keep
it; ``seed``, optional, is the client's hexadecimal seed for the shuffle of the deal being
shuffled; ``lang``, optional, the language of the words it is sent), then
``{"type": "act", "action": "discard Kh", "id": 7}``,
``{"type": "seed", "deal": 2, "seed": "…"}`` (a seed for the next deal's shuffle, whose
commitment the state's ``fair.next`` shows), ``{"type": "hint"}``, ``{"type": "rematch"}``,
``{"type": "lang", "lang": "es"}``, ``{"type": "ping"}``.  The server sends ``{"type": "state", ...}``
after every change (with ``"ack": id`` to the client whose action it was),
``{"type": "hint", ...}`` and ``{"type": "error", "message": ...}`` (with ``words``, the
message as segments, when it names cards).

Before a request reaches a route (:mod:`.security`): a websocket or POST from a page of
another site is refused; a POST must be JSON of at most :data:`MAX_MESSAGE` bytes (refused by
its ``Content-Length``, or once that many bytes have arrived, without reading the rest); game
creation and joins are rate-limited per client address; every HTTP answer carries the
security headers.  A client that does not read its messages is disconnected (code
:data:`CLOSE_BEHIND`) once :data:`~.hub.OUTBOX_MESSAGES` messages wait for it.
"""

from __future__ import annotations

import contextlib
import html
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
)
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from ..bots import LEVEL_RATINGS
from ..cards import mask_labels
from ..errors import ConquianError
from ..notation import small_number
from ..observation import observe_public
from ..present.i18n import current_language, speaking
from ..present.rules_text import EM, describe, flag_lines, how_to_play, rules_heading
from ..present.spans import BOLD, Line, plain
from ..present.words import Names, describe_events
from ..records import GameRecord
from ..rules import find_rules
from ..state import GameState
from . import conduct, messages, quick, signin, words
from .clock import GRACE
from .database import default_db_url, open_store
from .http import hub_of, json_body
from .hub import Hub, shuffle_offer
from .identity import Sessions, me, shown_name
from .languages import WEB_WORDS, Speaking, catalogue
from .quick import BOTS_AFTER, QuickMatch
from .ratings import FORMS
from .requests import UserError, read_join, read_new_match
from .security import (
    OriginPolicy,
    RateLimits,
    SecurityHeaders,
)
from .timeouts import TICK, Timeouts
from .websocket import match_socket

log = logging.getLogger("conquian.web")

RATE_LIMIT = "20/minute;200/hour"
"""Per client address: games it may create, and (counted apart) seats it may take."""
STATIC = Path(str(resources.files("conquian.web") / "static"))
_ = WEB_WORDS.gettext


class _App(Starlette):
    def build_middleware_stack(self) -> ASGIApp:
        # outermost, so that even the answer of an unexpected error has the headers; then
        # the language, so that every word of an answer (its errors too) is in the reader's;
        # compression between them (HTTP answers only: websockets pass through untouched)
        stack = Speaking(Sessions(super().build_middleware_stack(), self.state.session_secret))
        return SecurityHeaders(GZipMiddleware(stack, minimum_size=600))


class _Static(StaticFiles):
    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"  # a new version is seen at once
        return response


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    quick_bots_after: float = BOTS_AFTER,
    clocks_every: float = TICK,
    grace: float = GRACE,
    rate_limit: str | None = None,
    allowed_origins: tuple[str, ...] = (),
    session_secret: str | None = None,
) -> Starlette:
    """The ASGI application, storing games at ``db_url`` (a SQLAlchemy URL).

    ``rate_limit``: games one client address may create, and seats it may take, such as
    :data:`RATE_LIMIT` (``conquian serve``'s default); None (the default here) or ``off``: no
    limit.  ``allowed_origins``: origins of other sites whose pages may use the server
    (``https://games.example``; ``*``: any).  ``session_secret``: the key that signs the
    players' cookies (None: one made for this application alone, so that a cookie does not
    outlive it; ``conquian serve`` keeps one, see :func:`.server.session_secret`).
    ``quick_bots_after``: seconds a quick-match table waits for people before computers fill
    its seats; ``clocks_every``: seconds between two looks for what the clocks say is due;
    ``grace``: seconds a clocked table waits for a person with no connection before another
    may claim the match (two people) or a computer takes his seat (three or four).

    :raises ValueError: for a rate or an origin that cannot be read.
    """
    url = db_url or default_db_url()
    origins = OriginPolicy.of(allowed_origins)
    limits = RateLimits(rate_limit)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = open_store(url)
        app.state.hub = Hub(store, bot_delay=bot_delay, grace=grace)
        app.state.quick = QuickMatch(store, app.state.session_secret, quick_bots_after)
        app.state.timeouts = Timeouts(app.state.hub, clocks_every)
        app.state.hub.sync.on_ticket = app.state.quick.wake  # seated by another process
        try:
            await app.state.hub.start()  # hear other processes' changes before serving
            app.state.quick.rounds.start()
            app.state.timeouts.looks.start()
            yield
        finally:
            await app.state.timeouts.close()
            await app.state.quick.rounds.close()
            await app.state.hub.close()
            await store.close()

    routes = [
        Route("/", index),
        Route("/api/games", create_match, methods=["POST"]),
        Route("/api/games/{match_id}", match_info),
        Route("/api/games/{match_id}/join", join_match, methods=["POST"]),
        Route("/api/games/{match_id}/records", list_records),
        Route("/api/games/{match_id}/records/{deal}", download_record),
        Route("/api/games/{match_id}/replay/{deal}", replay),
        Route("/api/lobby", lobby),
        Route("/api/leaderboard", leaderboard),
        Route("/api/players/{player_id}/games", player_games),
        *signin.ROUTES,
        *quick.ROUTES,
        *conduct.ROUTES,
        Route("/api/rules", rules_text),
        Route("/api/words", page_words),
        Route("/manifest.webmanifest", manifest),
        Route("/sw.js", service_worker),
        WebSocketRoute("/ws/{match_id}", match_socket),
        Mount("/static", _Static(directory=STATIC), name="static"),
    ]
    app = _App(routes=routes, lifespan=lifespan, exception_handlers={UserError: _user_error})
    app.state.origins = origins
    app.state.limits = limits
    app.state.session_secret = session_secret or secrets.token_urlsafe(32)
    return app


async def _user_error(request: Request, exc: Exception) -> Response:
    status = exc.status if isinstance(exc, UserError) else 400
    headers = exc.headers if isinstance(exc, UserError) else None
    # a message may quote the request (an unknown field's name), which may hold a lone
    # surrogate ("\ud800"): written out as its escape, since it cannot be UTF-8
    message = str(exc).encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": message}, status_code=status, headers=headers)


_MARKED_ELEMENT = re.compile(r'(<(\w+)\b[^>]*\sdata-t="([^"]*)"[^>]*>)(.*?)(</\2>)', re.S)
_MARKED_ATTR = re.compile(r'(\s([a-z-]+)=")([^"]*)("[^>]*?\sdata-t-\2="([^"]*)")')


@cache
def page_html(code: str, pace: float = 0.0) -> str:
    """``index.html`` in language ``code``: ``<html lang>``, each element marked
    ``data-t="English"`` holding its translation, each attribute ``ATTR`` of an element
    marked ``data-t-ATTR="English"`` too.  The page's script translates them again when the
    language changes (``static/words.js``).  ``<body data-ratings>`` holds each level's
    rating (:data:`conquian.bots.LEVEL_RATINGS`), which the level picker shows, and
    ``data-pace`` the computer's delay before a move (``serve --bot-delay``), at which the
    page makes its own automatic moves too."""
    source = (STATIC / "index.html").read_text(encoding="utf-8")
    with speaking(code):
        text = _MARKED_ELEMENT.sub(
            lambda m: m[1] + html.escape(_(html.unescape(m[3])), quote=False) + m[5], source
        )
        text = _MARKED_ATTR.sub(lambda m: m[1] + html.escape(_(html.unescape(m[5]))) + m[4], text)
    text = re.sub(r'<html lang="[^"]*"', f'<html lang="{code}"', text, count=1)
    ratings = " ".join(f"{level}:{rating}" for level, rating in LEVEL_RATINGS.items())
    return text.replace("<body>", f'<body data-ratings="{ratings}" data-pace="{pace:g}">', 1)


async def index(request: Request) -> Response:
    return HTMLResponse(
        page_html(current_language(), request.app.state.hub.bot_delay),
        headers={"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"},
    )


async def manifest(request: Request) -> Response:
    """The web app manifest, so that the page can be added to a phone's home screen."""
    return FileResponse(
        STATIC / "manifest.webmanifest",
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


async def service_worker(request: Request) -> Response:
    """The service worker (``static/sw.js``), served from the root so that its scope is the
    whole site: it keeps the page's files for a visit without a network."""
    return FileResponse(
        STATIC / "sw.js",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


async def page_words(request: Request) -> Response:
    """The page's words in ``?lang=`` (else the request's language): see :func:`catalogue`."""
    return JSONResponse(
        catalogue(current_language()),
        headers={"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"},
    )


PERIODS = {"week": 7 * 86400.0, "month": 30 * 86400.0, "all": None}
"""The leaderboards' periods: who played a rated game in the last week, month, or ever."""


async def leaderboard(request: Request) -> Response:
    """``GET /api/leaderboard?form=F&period=P``: the best players of a form."""
    form = request.query_params.get("form", "")
    period = request.query_params.get("period", "all")
    if form not in FORMS:
        raise UserError(
            _("Unknown form {form}: choose one of {forms}.").format(
                form=repr(form[:20]), forms=", ".join(FORMS)
            )
        )
    if period not in PERIODS:
        raise UserError(
            _("Unknown period {period}: choose one of {periods}.").format(
                period=repr(period[:20]), periods=", ".join(PERIODS)
            )
        )
    span = PERIODS[period]
    since = None if span is None else time.time() - span
    found = await hub_of(request).store.leaderboard(form, since)
    for row in found:
        row["name"] = shown_name(row["id"], row["name"])
    return JSONResponse({"form": form, "period": period, "players": found})


async def player_games(request: Request) -> Response:
    """``GET /api/players/{id}/games?before=T``: a player's finished games, newest first, by
    pages of 20 (``next``: the ``before`` of the next page, or null)."""
    player_id = request.path_params["player_id"]
    before_text = request.query_params.get("before")
    before: float | None = None
    if before_text is not None:
        try:
            before = float(before_text)
        except ValueError:
            raise UserError(_("'before' must be a time, as 'next' gives it.")) from None
    store = hub_of(request).store
    if len(player_id) > 32 or await store.player(player_id, seen=False) is None:
        raise UserError(_("There is no such player."), 404)
    games = await store.player_games(player_id, before)
    for game in games:  # the names the server made (the computers') in the reader's words
        game["players"] = words.shown_names(game.pop("seats"))
    after = games[-1]["ended"] if len(games) == 20 else None
    return JSONResponse({"player": player_id, "games": games, "next": after})


async def create_match(request: Request) -> Response:
    asked = read_new_match(await json_body(request, "create"))
    player = await me(request, hub_of(request).store)
    room, token, invitations = await hub_of(request).create(asked, player)
    answer = {
        "id": room.id,
        "seat": 0,
        "token": token,
        "shuffle": shuffle_offer(room.live),
        "invitations": [{"seat": seat, "code": code} for seat, code in invitations.items()],
    }
    return JSONResponse(answer, status_code=201)


async def join_match(request: Request) -> Response:
    name, invite = read_join(await json_body(request, "join"))
    player = await me(request, hub_of(request).store)
    room, seat, token = await hub_of(request).join(
        request.path_params["match_id"], name, invite, player
    )
    return JSONResponse(
        {"id": room.id, "seat": seat, "token": token, "shuffle": shuffle_offer(room.live)}
    )


async def match_info(request: Request) -> Response:
    hub = hub_of(request)
    room = await hub.get(request.path_params["match_id"], current=True)
    summary = room.views.summary()
    hub.release(room)
    return JSONResponse(summary)


async def lobby(request: Request) -> Response:
    """The public games; the names the server made (the computers') in the reader's words."""
    found = await hub_of(request).lobby()
    for games in found.values():
        for game in games:
            seats = game["seats"]
            shown = words.shown_names([(s["kind"], s["name"], s["level"]) for s in seats])
            for seat, name in zip(seats, shown, strict=True):
                if not seat["free"]:
                    seat["name"] = name
            game["players"] = [s["name"] for s in seats]
    return JSONResponse(found)


async def list_records(request: Request) -> Response:
    match_id = request.path_params["match_id"]
    found = await hub_of(request).records(match_id)
    return JSONResponse({"deals": [{"deal": deal, "result": result} for deal, result, _ in found]})


async def _record(request: Request) -> tuple[int, str]:
    match_id = request.path_params["match_id"]
    deal_text = request.path_params["deal"]
    number = small_number(deal_text)
    if number is None:
        raise UserError(
            _("The deal must be a number, got {deal}.").format(deal=repr(deal_text[:20]))
        )
    for deal, _result, text in await hub_of(request).records(match_id):
        if deal == number:
            return deal, text
    raise UserError(
        _("Game {game} has no finished deal {deal}.").format(game=match_id, deal=deal_text), 404
    )


async def download_record(request: Request) -> Response:
    deal, text = await _record(request)
    name = f"conquian-{request.path_params['match_id']}-deal{deal}.toml"
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


async def replay(request: Request) -> Response:
    """Every position of a finished deal, both hands shown, with the move in words."""
    deal, text = await _record(request)
    record = GameRecord.loads(text)
    game = record.to_game()
    hub = hub_of(request)
    room = await hub.get(request.path_params["match_id"])
    shown = room.views.shown_names()
    hub.release(room)
    players = list(shown) if len(shown) == len(record.players) else list(record.players)
    names = Names(tuple(players))
    states = game.states()
    frames = [_frame(states[0], [])]
    for number, state in enumerate(states[1:]):
        said = describe_events(
            game.history[number : number + 1], names, messages.LOOK, game.rules.cards_to_win
        )
        frames.append(_frame(state, messages.segments(said[0]) if said else []))
    return JSONResponse(
        {
            "deal": deal,
            "players": players,
            "result": record.result,
            "frames": frames,
        }
    )


def _frame(state: GameState, said: list[Any]) -> dict[str, Any]:
    """A position of a finished deal: its public view with every hand (public now)."""
    public = observe_public(state).to_dict()
    del public["history"]
    hands = [mask_labels(mask) for mask in state.hands]
    return {**public, "hands": hands, "words": said}


async def rules_text(request: Request) -> Response:
    """The rules of a preset or spec in words: ``text``, every rule (as ``conquian
    rules`` prints it) under ``heading``; ``how``, the sections of how to play, each a
    ``heading`` with ``paragraphs`` or numbered ``steps`` (lines of :func:`_marked`)."""
    spec = request.query_params.get("rules", "standard")
    try:
        rules = find_rules(spec[:400])
    except ConquianError as exc:
        raise UserError(_("Bad rules: {error}").format(error=exc)) from None
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
            "text": describe(rules, flags=False),
            "flags": "\n".join(plain(line) for line in flag_lines(rules)),
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
