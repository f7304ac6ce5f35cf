"""Play now: a quick match with strangers, computers filling the seats nobody takes.

A player asks for a table of a game form (``POST /api/quick``) and gets a ticket; the queue
is in the database (:mod:`.queue`), and every server process seats from it: at once when the
ticket is made, and each :data:`TICK` seconds after, so that the windows of rating widen and
a table whose oldest player has waited ``bots_after`` seconds (``serve --quick-bots-after``)
is filled with computer players of a level near its people's rating, named as computers.
The player's page asks ``GET /api/quick/{ticket}?wait=S`` until he is seated: the request
waits (at most :data:`WAIT_MOST` seconds) and is woken as soon as his ticket is seated, by
this process or by another one (the seating's transaction notifies the others, PostgreSQL's
``LISTEN``/``NOTIFY``: :mod:`.notify`).  The answer then holds his seat's token, worked out
from the ticket with the server's key (nothing secret is stored).  Every quick table is rated:
a computer counts as a player of its level's rating, which the game does not change.

>>> from conquian.web.ratings import FORMS
>>> sorted(SEATS) == sorted(FORMS)
True
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import math
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..rules import find_rules
from . import words
from .http import check_fields, count_request, hub_of, json_body, refuse_other_sites
from .identity import current_player, me
from .languages import WEB_WORDS
from .live import QUICK, LiveMatch, new_match_id, new_match_row
from .pairing import LEAVES_COUNTED, Table, computer_level, kept_out_until
from .periodic import Periodic
from .queue import SEATED, WAITING, TableRows
from .ratings import FORMS
from .requests import UserError, check_name
from .schema import SeatRow, hash_token
from .store import Store

_ = WEB_WORDS.gettext
log = logging.getLogger("conquian.web")

TICK = 1.0
"""Seconds between two rounds of seating (the windows widen, the computers come)."""
BOTS_AFTER = 20.0
"""Seconds a table's oldest player waits for people before computers fill its seats."""
SEATS = {form: find_rules(spec).num_players for form, spec in FORMS.items()}
"""How many sit at a table of each form."""
WAIT_MOST = 25.0
"""The longest a request for a ticket waits for it to be seated (``?wait=S``)."""


class QuickMatch:
    """The seating of quick matches in one server process (see the module's words)."""

    def __init__(self, store: Store, secret: str, bots_after: float = BOTS_AFTER) -> None:
        self.store = store
        self.secret = secret.encode()
        self.bots_after = bots_after
        self.rounds = Periodic(TICK, "quick match: a round of seating", self._round)
        self._waiting: dict[str, asyncio.Event] = {}
        """The tickets whose requests wait here to be woken once seated."""

    def wake(self, ticket_id: str) -> None:
        """A ticket was seated (here, or by another process): its waiting request answers."""
        event = self._waiting.get(ticket_id)
        if event is not None:
            event.set()

    async def seated_within(
        self, ticket_id: str, seconds: float, read: Callable[[], Awaitable[Any]]
    ) -> Any:
        """The ticket as ``read()`` reads it once it is no longer waiting (woken by
        :meth:`wake`), or after ``seconds``.  The wake is expected before the first read, so
        that a seating between the two is not missed."""
        event = self._waiting.setdefault(ticket_id, asyncio.Event())
        try:
            ticket = await read()
            if ticket is not None and ticket.status == WAITING:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), seconds)
                ticket = await read()
            return ticket
        finally:
            self._waiting.pop(ticket_id, None)

    async def _round(self) -> None:
        for form in await self.store.waiting_forms():
            await self.seat(form)

    async def seat(self, form: str, *, wait: bool = False) -> None:
        """Seat the waiting players of ``form`` who make tables now, and wake their requests
        (``wait``: for another process's seating of them, see :meth:`.Store.seat_waiting`)."""
        seated = await self.store.seat_waiting(
            form,
            SEATS[form],
            self.bots_after,
            lambda table, names: self._rows(form, table, names),
            wait,
        )
        for ticket_id in seated:
            self.wake(ticket_id)

    def token(self, ticket_id: str) -> str:
        """The seat token of a ticket once it is seated (only the server can work it out)."""
        digest = hmac.new(self.secret, f"conquian quick {ticket_id}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(digest.digest()[:18]).decode()

    def _rows(self, form: str, table: Table, names: dict[str, str]) -> TableRows:
        """A table's match: its people and computers in a random order of seats."""
        order: list[Any] = [*table.people, *([None] * table.computers)]
        random.SystemRandom().shuffle(order)
        level = computer_level(table.rating)
        seats: list[SeatRow] = []
        seated: dict[str, int] = {}
        number = 0
        for seat, ticket in enumerate(order):
            if ticket is None:
                number += 1
                name = words.stored_name(words.computer_name, table.computers, number, level)
                seats.append(SeatRow(seat, "bot", name, None, True, level))
                continue
            name = names.get(ticket.player) or words.stored_name(words.default_player, seat)
            token_hash = hash_token(self.token(ticket.id))
            seats.append(SeatRow(seat, "human", name, token_hash, True, player_id=ticket.player))
            seated[ticket.id] = seat
        row = new_match_row(
            new_match_id(),
            seats,
            mode=QUICK,
            level=level if table.computers else None,
            rules=find_rules(FORMS[form]).to_spec(),
            public=False,
            invite_only=True,
            hints=False,
            rated=True,  # a computer counts as a player of its level's rating
        )
        live = LiveMatch(row)
        return row, live.unsaved.pop(0) if live.unsaved else None, seated


def _quick(request: Request) -> QuickMatch:
    found: QuickMatch = request.app.state.quick
    return found


async def _own_ticket(request: Request) -> tuple[Store, Any]:
    """The ticket of the path, if it is the visitor's.

    :raises UserError: 404 for a ticket that is not his (or none).
    """
    store = hub_of(request).store
    ticket_id = request.path_params["ticket"]
    player = await current_player(request, store)
    ticket = None if len(ticket_id) > 32 else await store.ticket(ticket_id)
    if ticket is None or player is None or ticket.player_id != player.id:
        raise UserError(_("There is no such ticket."), 404)
    return store, ticket


def _answer(quick: QuickMatch, ticket: Any) -> Response:
    said: dict[str, Any] = {
        "ticket": ticket.id,
        "form": ticket.form,
        "status": ticket.status,
        "since": ticket.created,
        "bots_after": quick.bots_after,
    }
    if ticket.status == SEATED:
        said.update(
            game=ticket.game_id,
            seat=ticket.seat,
            token=quick.token(ticket.id),
            computers=ticket.computers,
        )
    return JSONResponse(said, headers={"Cache-Control": "no-store"})


async def ask(request: Request) -> Response:
    """``POST /api/quick`` with ``{"form"}`` (and ``"anyone": true`` to meet guests and
    accounts alike; ``"name"``, the player's name from now on): a ticket for the next table
    of that form."""
    body = await json_body(request, "create")
    check_fields(body, {"form", "anyone", "name"}, set())
    form, anyone = body.get("form"), body.get("anyone", False)
    if form not in FORMS:
        raise UserError(
            _("Unknown form {form}: choose one of {forms}.").format(
                form=repr(str(form)[:20]), forms=", ".join(FORMS)
            )
        )
    if not isinstance(anyone, bool):
        raise UserError(_("Send {field} as true or false.").format(field="'anyone'"))
    name = check_name(body.get("name"), "")
    store = hub_of(request).store
    player = await me(request, store)
    left = await store.leaves_of(player.id)
    until = kept_out_until(left, time.time())
    if until is not None:
        raise UserError(
            _(
                "You left {count} quick games this week: you may play now again in {minutes} "
                "min. Friends' tables and the computer are open."
            ).format(
                count=sum(time.time() - t < LEAVES_COUNTED for t in left),
                minutes=math.ceil((until - time.time()) / 60),
            ),
            403,
        )
    if name and name != player.name:
        await store.rename_player(player.id, name)
    ticket = await store.add_ticket(
        secrets.token_urlsafe(16), player.id, form, player.guest, anyone
    )
    quick = _quick(request)
    await quick.seat(form, wait=True)  # a table may be ready at once
    return _answer(quick, await store.ticket(ticket.id) or ticket)


async def look(request: Request) -> Response:
    """``GET /api/quick/{ticket}``: waiting, cancelled, or seated (with the seat's token);
    with ``?wait=S`` (seconds, at most :data:`WAIT_MOST`), a waiting ticket's answer waits
    until it is seated, or S seconds."""
    store, ticket = await _own_ticket(request)
    wait = _wait(request.query_params.get("wait"))
    if wait and ticket.status == WAITING:
        quick = _quick(request)
        ticket_id = ticket.id
        read = await quick.seated_within(ticket_id, wait, lambda: store.ticket(ticket_id))
        ticket = read or ticket
    return _answer(_quick(request), ticket)


def _wait(asked: str | None) -> float:
    """How long a request for a ticket may wait (``?wait=S``; none: 0).

    >>> _wait(None), _wait("10"), _wait("999")
    (0.0, 10.0, 25.0)

    :raises UserError: for a wait that is not a number of seconds.
    """
    if asked is None:
        return 0.0
    try:
        seconds = float(asked)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds < math.inf:
        raise UserError(_("'wait' must be a number of seconds."))
    return min(seconds, WAIT_MOST)


async def cancel(request: Request) -> Response:
    """``DELETE /api/quick/{ticket}``: stop waiting (a seated ticket stays seated)."""
    refuse_other_sites(request)
    count_request(request, "me")
    store, ticket = await _own_ticket(request)
    answer = _answer(_quick(request), await store.cancel_ticket(ticket.id) or ticket)
    _quick(request).wake(ticket.id)  # its waiting request answers, cancelled
    return answer


ROUTES = [
    Route("/api/quick", ask, methods=["POST"]),
    Route("/api/quick/{ticket}", look),
    Route("/api/quick/{ticket}", cancel, methods=["DELETE"]),
]
"""The routes of this file, in the application's table (:func:`.app.create_app`)."""
