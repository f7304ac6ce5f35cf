"""Who a visitor is: a player kept from one visit to the next by a signed session cookie.

Every visitor is a guest player from the first request that needs one (``GET /api/me``,
making or joining a game).  Until he gives a name (stored empty) he is shown by a name made
up from his id, in the reader's language (*Guest 4821*, *Invitado 4821*), and a seat he takes
without a name is named by its number, as before.  The cookie
(Starlette's session middleware: signed with the server's secret, HttpOnly, SameSite=Lax,
Secure on a request that came over https) holds only the player's id; the player's row is in
the database (``players``).  A cookie that does not verify, or names no player, counts as
none: a new guest is made.

A player with an account (:mod:`.signin`) is signed in on a browser by a *session*: the
cookie holds a random session id beside the player's id, and the database a hash of it
(``sessions``).  A cookie of an account whose session has ended (signed out, signed out
everywhere, erased) counts as none.  Each sign-in starts a new session: the cookie a browser
had before never carries over.

>>> guest_name(4821)
'Guest 4821'
>>> shown_name("k3J", "") == shown_name("k3J", "")
True
>>> shown_name("k3J", "Ana")
'Ana'
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from typing import Any

from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.types import ASGIApp, Receive, Scope, Send

from .languages import WEB_WORDS
from .schema import PlayerRow
from .store import Store

_ = WEB_WORDS.gettext

SESSION_COOKIE = "conquian_session"
PLAYER_KEY = "player"
"""The session's key for the player's id."""
SESSION_KEY = "sid"
"""The session's key for an account's session id."""
SESSION_DAYS = 400
"""How long the cookie is kept (the most a browser keeps one)."""


def guest_name(number: int) -> str:
    """The name made up for a new guest, in the language in use."""
    # Translators: the name made up for a visitor who has given none; he may change it
    return _("Guest {number}").format(number=number)


def shown_name(player_id: str, name: str) -> str:
    """The player's name, or the one made up from his id while he has given none."""
    if name:
        return name
    digest = hashlib.sha256(player_id.encode()).digest()
    return guest_name(1000 + int.from_bytes(digest[:4], "big") % 9000)


def new_player_id() -> str:
    """A new player's id: random, and no secret (the cookie that holds it is signed)."""
    return secrets.token_urlsafe(12)


class Sessions:
    """The session middleware, its cookie Secure on a request that came over https (as the
    reverse proxy says) and not on a plain one (a server on this computer)."""

    def __init__(self, app: ASGIApp, secret: str) -> None:
        options: dict[str, Any] = {
            "secret_key": secret,
            "session_cookie": SESSION_COOKIE,
            "max_age": SESSION_DAYS * 24 * 3600,
            "same_site": "lax",
        }
        self.plain = SessionMiddleware(app, https_only=False, **options)
        self.secure = SessionMiddleware(app, https_only=True, **options)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        secure = scope.get("scheme") in ("https", "wss")
        await (self.secure if secure else self.plain)(scope, receive, send)


async def current_player(request: HTTPConnection, store: Store) -> PlayerRow | None:
    """The player of this request's cookie (None: no cookie, one that names nobody, or an
    account's whose session has ended: that cookie is cleared)."""
    found = request.session.get(PLAYER_KEY)
    if not isinstance(found, str) or len(found) > 32:
        return None
    player = await store.player(found)
    if player is None or player.guest:
        return player
    session = request.session.get(SESSION_KEY)
    if isinstance(session, str) and await store.session_valid(player.id, session):
        return player
    request.session.clear()
    return None


async def sign_in(request: Request, store: Store, player_id: str) -> None:
    """Sign this browser in to an account, under a new session (the one before ends)."""
    before = request.session.get(SESSION_KEY)
    session = secrets.token_urlsafe(24)
    await store.open_session(player_id, session, before if isinstance(before, str) else None)
    request.session.clear()
    request.session.update({PLAYER_KEY: player_id, SESSION_KEY: session})


async def sign_out(request: Request, store: Store, player_id: str) -> None:
    """End this browser's session: it is a new guest at its next request."""
    session = request.session.get(SESSION_KEY)
    await store.close_sessions(player_id, session if isinstance(session, str) else None, all=False)
    request.session.clear()


def session_id(request: Request) -> str | None:
    """This browser's session id (None: a guest's cookie)."""
    found = request.session.get(SESSION_KEY)
    return found if isinstance(found, str) else None


async def me(request: Request, store: Store) -> PlayerRow:
    """The player of this request, made (a guest) if there is none yet."""
    player = await current_player(request, store)
    if player is not None:
        return player
    now = time.time()
    player = PlayerRow(
        id=new_player_id(),
        name="",  # none given yet
        guest=True,
        created=now,
        seen=now,
    )
    await store.add_player(player)
    request.session[PLAYER_KEY] = player.id
    return player


def about(player: PlayerRow) -> dict[str, Any]:
    """What ``GET /api/me`` answers: the player's own, to himself only (his settings too)."""
    return {
        "id": player.id,
        "name": shown_name(player.id, player.name),
        "named": bool(player.name),
        "guest": player.guest,
        "ratings": {},
        "settings": read_settings(player.settings),
    }


SETTINGS = {
    "language": str,
    "deck": ("french", "spanish"),
    "sound": bool,
    "autoplay": bool,
}
"""The settings kept with a player: the page's language, the deck its cards are drawn in,
its sounds, and its automatic moves (declining what he cannot use, and the forced moves)."""


def read_settings(stored: str | None) -> dict[str, Any]:
    """A player's stored settings (``{}``: none kept).

    >>> read_settings('{"deck": "spanish"}'), read_settings(None)
    ({'deck': 'spanish'}, {})
    """
    if not stored:
        return {}
    try:
        found = json.loads(stored)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}
