"""What the web server checks before it lets a request in, and what it adds to every answer.

* :func:`loads` reads a client's JSON strictly: ``NaN``, ``Infinity`` and numbers too large
  for a float (``1e999``) are refused, and so is nesting too deep to parse.
* :func:`cross_site` decides whether a browser request comes from another site (the
  ``Sec-Fetch-Site`` header where the browser sends it, else ``Origin`` against ``Host``).
* :class:`RateLimits` counts, per client address, the games created and the seats taken
  (the `limits <https://limits.readthedocs.io>`_ library, in memory).
* :class:`SecurityHeaders` is the ASGI middleware that puts the security headers
  (:data:`HEADERS`, with the content security policy :data:`CSP`) on every HTTP answer.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .languages import WEB_WORDS

_ = WEB_WORDS.gettext
ngettext = WEB_WORDS.ngettext

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",  # the favicon is a data: URL; the card faces blob: URLs
        "connect-src 'self'",  # the API and the game's websocket
        "worker-src 'self'",  # the service worker (/sw.js) that keeps the page offline
        "manifest-src 'self'",  # the web app manifest (/manifest.webmanifest)
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
"""The content security policy: the page runs only the server's own scripts and style
sheets (it has no inline script, style or event handler) and may not be framed."""

HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
"""The headers added to every HTTP answer."""


class JsonError(ValueError):
    """A client's text is not strict JSON; :meth:`words` says so for that client.

    ``why``: ``""`` (not JSON at all), ``constant`` (``NaN`` or ``Infinity``: ``detail``),
    ``large`` (a number too large for a float: ``detail``) or ``deep`` (nested too deeply).
    """

    def __init__(self, why: str = "", detail: str = "") -> None:
        super().__init__(why, detail)
        self.why = why
        self.detail = detail

    def words(self, what: str) -> str:
        """What is wrong with ``what`` (``body``: a request's body, or ``message``: a
        websocket message), in the language in use: ``The message is not valid JSON: it is
        nested too deeply.``"""
        body = what == "body"
        if self.why == "constant":
            text = (
                _("The request body is not valid JSON: {name} is not a JSON number.")
                if body
                else _("The message is not valid JSON: {name} is not a JSON number.")
            )
        elif self.why == "large":
            text = (
                _("The request body is not valid JSON: the number {number} is too large.")
                if body
                else _("The message is not valid JSON: the number {number} is too large.")
            )
        elif self.why == "deep":
            text = (
                _("The request body is not valid JSON: it is nested too deeply.")
                if body
                else _("The message is not valid JSON: it is nested too deeply.")
            )
        else:
            text = (
                _("The request body is not valid JSON.")
                if body
                else _("The message is not valid JSON.")
            )
        return text.format(name=self.detail, number=self.detail)


def _refuse_constant(name: str) -> Any:
    raise JsonError("constant", name)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonError("large", text[:20])
    return value


def loads(text: str | bytes) -> Any:
    """Parse a client's JSON, strictly.

    :raises JsonError: if it is not JSON, holds ``NaN`` / ``Infinity`` or a number too
        large for a float, is nested too deeply, or (bytes) is not UTF-8.
    """
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite)
    except JsonError:
        raise
    except RecursionError:
        raise JsonError("deep") from None
    except (ValueError, UnicodeDecodeError):  # JSONDecodeError, an integer too long
        raise JsonError() from None


def dumps(data: Any) -> str:
    """JSON text as the server sends it: compact, never ``NaN`` or ``Infinity`` (JSON has
    neither: orjson writes them as ``null``).

    orjson writes it, several times faster than the standard library (the state messages are
    a few kilobytes each, one for every connection after every move); text that orjson
    refuses (a lone surrogate) is written by the standard library instead, escaped.

    >>> dumps({"seat": 1, "name": "Ana", "chance": float("nan")})
    '{"seat":1,"name":"Ana","chance":null}'
    >>> dumps({"name": chr(0xD800)}) == '{"name":"' + chr(92) + 'ud800"}'
    True
    """
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(data, separators=(",", ":"), allow_nan=False)


# --------------------------------------------------------------------- origins


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of a URL, lower case, without the scheme's default port."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{host}" + (f":{port}" if port and port != default else "")


def _host_of(value: str) -> str:
    """A ``Host`` header (or the host part of an origin) without a default port."""
    value = value.strip().lower()
    for default in (":80", ":443"):
        if value.endswith(default):
            return value[: -len(default)]
    return value


@dataclass(frozen=True)
class OriginPolicy:
    """Which browser pages may use the server: its own, and the ``allowed`` origins."""

    allowed: frozenset[str] = frozenset()
    """Origins (``https://games.example``) also allowed; ``*`` allows any page."""

    @classmethod
    def of(cls, origins: Iterable[str]) -> OriginPolicy:
        """The policy for ``conquian serve --allow-origin`` values.

        :raises ValueError: for a value that is neither ``*`` nor an http(s) origin.
        """
        allowed = set()
        for value in origins:
            if value.strip() == "*":
                allowed.add("*")
                continue
            origin = origin_of(value)
            if origin is None or urlsplit(value.strip()).path not in ("", "/"):
                raise ValueError(f"{value!r} is not an origin such as https://games.example")
            allowed.add(origin)
        return cls(frozenset(allowed))

    def cross_site(self, headers: Mapping[str, str]) -> str | None:
        """Why a request with these headers comes from a page of another site, or None.

        A request without ``Origin`` or ``Sec-Fetch-Site`` (a program, not a browser page)
        passes: the checks guard people's browsers, and a program can send any header.
        """
        origin = headers.get("origin")
        if origin is not None and ("*" in self.allowed or origin_of(origin) in self.allowed):
            return None
        site = headers.get("sec-fetch-site")
        if site is not None:  # the browser's own judgement, right even behind a proxy
            if site.strip().lower() in ("same-origin", "none"):
                return None
            return _("a page of another site ({site})").format(site=site.strip()[:20])
        if origin is None:
            return None
        own = origin_of(origin)
        host = headers.get("host", "")
        if own is not None and host and _host_of(own.split("://", 1)[1]) == _host_of(host):
            return None
        return _("a page of another site ({site})").format(site=origin.strip()[:80])


# ------------------------------------------------------------------ rate limits


@dataclass(frozen=True)
class Refused:
    """A request over its rate limit: the limit, and the seconds until it passes again."""

    limit: str
    retry_after: int


MAX_SOCKETS = 64
"""Websocket connections one address may have open at once (a family at one table and its
spectators fit many times over)."""
MESSAGE_RATE = parse_many("20/second")[0]
"""Messages one websocket connection may send in a second (a player sends a few a minute)."""


SIGN_IN_RATE = "10/minute;60/hour"
"""Per client address: sign-in attempts (with a password, a passkey or a recovery code) and
new passwords, while the limits are on."""


class RateLimits:
    """Per client address: how many games it may create, and seats it may take, in a while.

    ``spec`` is a rate in the notation of the ``limits`` library (``30/minute``; several
    separated by ``;``: ``10/minute;100/hour``), applied to game creation and joins each
    on its own; ``None`` (or ``off``) disables the limits.  The counts are kept in memory,
    in a moving window, so a burst right after a window boundary is counted too.
    """

    def __init__(self, spec: str | None) -> None:
        self.items: list[RateLimitItem] = []
        if spec is not None and spec.strip().lower() not in ("", "off", "none", "0"):
            try:
                self.items = list(parse_many(spec))
            except ValueError:
                raise ValueError(
                    f"{spec!r} is not a rate such as 30/minute or 10/minute;100/hour"
                ) from None
        self.sign_in_items = list(parse_many(SIGN_IN_RATE)) if self.items else []
        """The limits of sign-in attempts (and new accounts), whatever ``spec`` says."""
        self.words = ", ".join(_rate_words(item) for item in self.items) or "off"
        """The limits in words (``30 per minute``)."""
        storage = MemoryStorage()
        self._limiter = MovingWindowRateLimiter(storage) if self.items else None
        self._messages = FixedWindowRateLimiter(storage)
        self.sockets: dict[str, int] = {}
        """Each address's websocket connections open now (counted while limits are on)."""

    def open_socket(self, client: str) -> bool:
        """Count a new websocket connection from ``client``: False (and not counted) if it
        has :data:`MAX_SOCKETS` open already and the limits are on.

        >>> limits = RateLimits("20/minute")
        >>> [limits.open_socket("a") for _ in range(MAX_SOCKETS + 1)][-2:]
        [True, False]
        >>> limits.close_socket("a"); limits.open_socket("a")
        True
        """
        if self._limiter is None:
            return True
        count = self.sockets.get(client, 0)
        if count >= MAX_SOCKETS:
            return False
        self.sockets[client] = count + 1
        return True

    def close_socket(self, client: str) -> None:
        """A websocket connection that :meth:`open_socket` counted has closed."""
        count = self.sockets.pop(client, 0) - 1
        if count > 0:
            self.sockets[client] = count

    def message(self, connection: str) -> bool:
        """Count one websocket message on ``connection`` (a key of its own): False if it is
        over :data:`MESSAGE_RATE` and the limits are on.

        >>> limits = RateLimits("20/minute")
        >>> sum(limits.message("c1") for _ in range(MESSAGE_RATE.amount + 5))
        20
        >>> RateLimits("off").message("c1")
        True
        """
        return self._limiter is None or self._messages.hit(MESSAGE_RATE, "message", connection)

    def hit(self, what: str, client: str) -> Refused | None:
        """Count one ``what`` (``create``, ``join``, ``signin``...) by ``client``; a
        :class:`Refused` if over.

        >>> limits = RateLimits("100/minute")
        >>> [limits.hit("signin", "a") is None for _ in range(11)][-2:]
        [True, False]
        """
        if self._limiter is None:
            return None
        for item in self.sign_in_items if what == "signin" else self.items:
            if not self._limiter.hit(item, what, client):
                stats = self._limiter.get_window_stats(item, what, client)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                return Refused(_rate_words(item), wait)
        return None


def _rate_words(item: RateLimitItem) -> str:
    """A rate in words, in the language in use: ``20 per minute``, ``5 per 10 minutes``."""
    unit = item.GRANULARITY.name
    count = item.multiples
    units = {
        "second": ngettext("{amount} per second", "{amount} per {count} seconds", count),
        "minute": ngettext("{amount} per minute", "{amount} per {count} minutes", count),
        "hour": ngettext("{amount} per hour", "{amount} per {count} hours", count),
        "day": ngettext("{amount} per day", "{amount} per {count} days", count),
        "month": ngettext("{amount} per month", "{amount} per {count} months", count),
        "year": ngettext("{amount} per year", "{amount} per {count} years", count),
    }
    if unit not in units:
        return f"{item.amount}/{count} {unit}"
    return units[unit].format(amount=item.amount, count=count)


# -------------------------------------------------------------------- headers


class SecurityHeaders:
    """ASGI middleware: the :data:`HEADERS` on every HTTP answer (not on websockets)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in HEADERS if name not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
