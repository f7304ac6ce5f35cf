"""What every HTTP route does with its request before its own work: the hub it serves from,
the client's address, the rate limits, and a POST's JSON body, checked.

>>> BODY_SECONDS
20.0
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.websockets import WebSocket

from .hub import Hub
from .languages import WEB_WORDS
from .requests import UserError
from .security import JsonError, loads
from .websocket import MAX_MESSAGE

_ = WEB_WORDS.gettext

BODY_SECONDS = 20.0
"""Seconds a request's body has to arrive whole (4 KiB at most: a slow phone takes well
under one)."""


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def client_address(request: Request) -> str:
    """The client's address (behind a proxy, the one it forwarded: see server.py)."""
    return request.client.host if request.client else "unknown"


def count_request(request: Request, what: str) -> None:
    """Count one ``what`` (``create``, ``join``, ``me``: a new name, ``guest``: a new player)
    by the request's address.

    :raises UserError: 429 over the rate limit.
    """
    refused = request.app.state.limits.hit(what, client_address(request))
    if refused is None:
        return
    said = {
        "create": _(
            "Too many new games from your address (at most {limit}); try again in {seconds} s."
        ),
        "join": _("Too many joins from your address (at most {limit}); try again in {seconds} s."),
    }.get(
        what,
        _("Too many requests from your address (at most {limit}); try again in {seconds} s."),
    )
    raise UserError(
        said.format(limit=refused.limit, seconds=refused.retry_after),
        429,
        {"Retry-After": str(refused.retry_after)},
    )


def check_fields(body: dict[str, Any], allowed: set[str], texts: set[str]) -> None:
    """Refuse a body with a field not in ``allowed``, or a field of ``texts`` not a string.

    :raises UserError: naming the field.
    """
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise UserError(_("Unknown field {field}.").format(field=repr(unknown[0][:20])))
    for name in sorted(texts):
        if not isinstance(body.get(name), str):
            raise UserError(_("Send {field} as text.").format(field=repr(name)))


def refuse_other_sites(request: Request) -> None:
    """:raises UserError: 403 for a request from a page of another site."""
    problem = request.app.state.origins.cross_site(request.headers)
    if problem is not None:
        raise UserError(_("Refused: this request comes from {origin}.").format(origin=problem), 403)


async def json_body(request: Request, what: str) -> dict[str, Any]:
    """The JSON object of a POST that ``what`` (``create``, ``join``) a game, once checked.

    :raises UserError: 403 from a page of another site, 415 not JSON, 429 over the rate
        limit, 413 too large (the rest of the body is not read), 400 not a JSON object.
    """
    refuse_other_sites(request)
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        raise UserError(
            _("Send the request body as JSON ({header}).").format(
                header="Content-Type: application/json"
            ),
            415,
        )
    count_request(request, what)
    too_large = UserError(
        _("The request body is too large (at most {most} bytes).").format(most=MAX_MESSAGE),
        413,
        {"Connection": "close"},  # the rest of the body is never read
    )
    length = request.headers.get("content-length")
    if length is not None:
        length = length.strip()
        if not (length.isascii() and length.isdigit()):
            raise UserError(
                _("The {header} header is not a number.").format(header="Content-Length"),
                400,
                {"Connection": "close"},
            )
        if len(length) > 9 or int(length) > MAX_MESSAGE:
            raise too_large
    raw = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():  # chunked bodies too: stop at the limit
                raw += chunk
                if len(raw) > MAX_MESSAGE:
                    raise too_large
    except ClientDisconnect:  # nobody is left to answer: no traceback in the log
        raise UserError(_("The request body did not arrive whole."), 400) from None
    except TimeoutError:
        raise UserError(
            _("The request body did not arrive whole in {seconds} s.").format(
                seconds=round(BODY_SECONDS)
            ),
            408,
            {"Connection": "close"},
        ) from None
    if not raw.strip():
        return {}
    try:
        data = loads(bytes(raw))
    except JsonError as exc:
        raise UserError(exc.words("body")) from None
    if not isinstance(data, dict):
        raise UserError(_("The request body must be a JSON object."))
    return data
