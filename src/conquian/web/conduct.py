"""The routes of conduct at a table: a player blocks, or reports, another he sat with.

Both name a seat of a game (``/api/games/{id}/seats/{seat}/...``), never a player's id: a
game's answers carry none, and the server finds who sat there.  Only a player of that game
may; the seat must be another person's.  A blocked player is never seated with the blocker
in a quick match; a report is kept for the moderators (``conquian moderate``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..notation import small_number
from .http import check_fields, hub_of, json_body
from .identity import me
from .languages import WEB_WORDS
from .reports import NOTE_MOST, REASONS
from .requests import UserError
from .store import Store

_ = WEB_WORDS.gettext


async def _other_at_table(request: Request, body: dict[str, Any]) -> tuple[Store, str, str]:
    """The store, the visitor's player and the player of the path's seat.

    :raises UserError: 404 unless the visitor sat at that game and the seat is another
        person's.
    """
    store = hub_of(request).store
    game_id = request.path_params["match_id"]
    seat = small_number(request.path_params["seat"])
    player = await me(request, store)
    sat = [] if len(game_id) > 32 else await store.seat_players(game_id)
    if seat is None or seat >= len(sat) or player.id not in sat:
        raise UserError(_("You did not play at that table."), 404)
    other = sat[seat]
    if other is None or other == player.id:
        raise UserError(_("That seat is not another person's."), 404)
    return store, player.id, other


async def report(request: Request) -> Response:
    """``POST /api/games/{id}/seats/{seat}/report`` with ``{"reason"}`` (one of
    :data:`.reports.REASONS`), ``"note"`` (optional, 500 characters at most) and
    ``"block": true`` to block him too."""
    body = await json_body(request, "me")
    check_fields(body, {"reason", "note", "block"}, set())
    reason, note, block = body.get("reason"), body.get("note", ""), body.get("block", False)
    if reason not in REASONS:
        raise UserError(_("'reason' must be one of {reasons}.").format(reasons=", ".join(REASONS)))
    if not isinstance(note, str) or len(note) > NOTE_MOST:
        raise UserError(_("The note is text of {most} characters at most.").format(most=NOTE_MOST))
    if not isinstance(block, bool):
        raise UserError(_("Send {field} as true or false.").format(field="'block'"))
    store, player, other = await _other_at_table(request, body)
    number = await store.add_report(
        player, other, request.path_params["match_id"], int(request.path_params["seat"]),
        str(reason), note.strip(),
    )  # fmt: skip
    if block:
        await store.block(player, other, on=True)
    return JSONResponse({"report": number, "blocked": block}, headers={"Cache-Control": "no-store"})


async def block(request: Request) -> Response:
    """``POST /api/games/{id}/seats/{seat}/block`` with ``{"block": true}`` (or false)."""
    body = await json_body(request, "me")
    if set(body) != {"block"} or not isinstance(body["block"], bool):
        raise UserError(_("Send {field} as true or false.").format(field="'block'"))
    store, player, other = await _other_at_table(request, body)
    await store.block(player, other, on=body["block"])
    return JSONResponse({"blocked": body["block"]}, headers={"Cache-Control": "no-store"})


ROUTES = [
    Route("/api/games/{match_id}/seats/{seat}/report", report, methods=["POST"]),
    Route("/api/games/{match_id}/seats/{seat}/block", block, methods=["POST"]),
]
"""The routes of this file, in the application's table (:func:`.app.create_app`)."""
