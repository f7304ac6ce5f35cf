"""Who a visitor is: a player kept from one visit to the next by a signed session cookie.

Every visitor is a guest player from the first request that needs one (``GET /api/me``,
making or joining a game).  Until he gives a name (stored empty) he is shown by a name made
up from his id, in the reader's language (*Guest 4821*, *Invitado 4821*), and a seat he takes
without a name is named by its number, as before.  The cookie
(Starlette's session middleware: signed with the server's secret, HttpOnly, SameSite=Lax,
Secure on a request that came over https) holds only the player's id; the player's row is in
the database (``players``).  A cookie that does not verify, or names no player, counts as
none: a new guest is made.

>>> guest_name(4821)
'Guest 4821'
>>> shown_name(PlayerRow("k3J", "", True, 0.0, 0.0)) == shown_name(PlayerRow("k3J", "", True, 1.0, 1.0))
True
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import Any

from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from .languages import WEB_WORDS
from .schema import PlayerRow
from .store import Store

_ = WEB_WORDS.gettext

SESSION_COOKIE = "conquian_session"
PLAYER_KEY = "player"
"""The session's key for the player's id."""
SESSION_DAYS = 400
"""How long the cookie is kept (the most a browser keeps one)."""


def guest_name(number: int) -> str:
    """The name made up for a new guest, in the language in use."""
    # Translators: the name made up for a visitor who has given none; he may change it
    return _("Guest {number}").format(number=number)


def shown_name(player: PlayerRow) -> str:
    """The player's name, or the one made up from his id while he has given none."""
    if player.name:
        return player.name
    digest = hashlib.sha256(player.id.encode()).digest()
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


async def current_player(request: Request, store: Store) -> PlayerRow | None:
    """The player of this request's cookie (None: no cookie, or one that names nobody)."""
    found = request.session.get(PLAYER_KEY)
    if not isinstance(found, str) or len(found) > 32:
        return None
    return await store.player(found)


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
    """What ``GET /api/me`` answers: the player's own, to himself only."""
    return {"id": player.id, "name": shown_name(player), "guest": player.guest, "ratings": {}}
