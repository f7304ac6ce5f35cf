"""The routes of who you are: your player, your account and how you sign in, your settings,
your archive, and anyone's profile.

A visitor is a guest (:mod:`.identity`) until he gives his player a way to sign in: a
password under a login name of his own, or a passkey.  The first one makes the guest an
account, keeping his name, ratings and games; the answer then holds his ten recovery codes,
shown once (they stand in for e-mail: each signs in once, when every device is lost).

Every POST here passes the checks of :func:`.http.json_body` (same site, JSON, size, rate);
sign-in attempts and new passwords are counted under their own, stricter limit
(:data:`.security.SIGN_IN_RATE`).  A failed sign-in says the same whether or not the login
name exists, and takes as long.  Nothing here writes a password, a session id, a code or a
passkey's secret to the log.
"""

from __future__ import annotations

import asyncio
import io
import threading
import time
import zipfile
from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..present.i18n import LANGUAGES
from . import words
from .credentials import (
    Passkey,
    code_hash,
    credential_id,
    hash_password,
    login_key,
    login_problem,
    needs_rehash,
    new_challenge,
    new_recovery_codes,
    password_matches,
    password_problem,
    registered_passkey,
    registration_options,
    sign_in_options,
    signed_in_count,
)
from .http import check_fields, count_request, hub_of, json_body
from .identity import (
    PLAYER_KEY,
    SETTINGS,
    about,
    current_player,
    me,
    read_settings,
    session_id,
    shown_name,
    sign_in,
    sign_out,
)
from .languages import WEB_WORDS
from .requests import UserError, check_name
from .schema import PlayerRow
from .store import Store

_ = WEB_WORDS.gettext

CHALLENGE_KEY = "passkey"
"""The session's key for the passkey challenge given and not yet answered."""
_hashing = threading.BoundedSemaphore(2)
"""Argon2 takes 64 MiB a hash: at most two at once, whatever the number of sign-ins."""


def _store(request: Request) -> Store:
    return hub_of(request).store


async def _slowly(fn: Any, *args: Any) -> Any:
    """A password hash or check, in a thread of its own (it takes tens of milliseconds)."""

    def bounded() -> Any:
        with _hashing:
            return fn(*args)

    return await asyncio.to_thread(bounded)


async def me_answer(store: Store, player: PlayerRow) -> Response:
    """What ``/api/me`` answers: the player, with his ratings and settings, to himself only."""
    facts = {**about(player), "ratings": await store.player_ratings(player.id)}
    return JSONResponse(facts, headers={"Cache-Control": "no-store"})


async def _signed_in(request: Request) -> PlayerRow:
    """The account of this request.

    :raises UserError: 403 if the visitor is a guest, or not signed in.
    """
    player = await current_player(request, _store(request))
    if player is None or player.guest:
        raise UserError(_("Sign in first."), 403)
    return player


# ------------------------------------------------------------------ your player


async def about_me(request: Request) -> Response:
    """``GET /api/me``: the visitor's player (a new guest on his first visit)."""
    if request.session.get(PLAYER_KEY) is None:
        count_request(request, "guest")
    store = _store(request)
    return await me_answer(store, await me(request, store))


async def rename_me(request: Request) -> Response:
    """``POST /api/me`` with ``{"name"}``: the visitor's player's name, changed."""
    body = await json_body(request, "me")
    check_fields(body, {"name"}, {"name"})
    name = check_name(body["name"], "")
    if not name:
        raise UserError(_("The name may not be empty."))
    store = _store(request)
    player = await me(request, store)
    await store.rename_player(player.id, name)
    return await me_answer(store, replace(player, name=name))


async def save_settings(request: Request) -> Response:
    """``POST /api/me/settings`` with any of ``language``, ``deck``, ``sound``, ``autoplay``:
    kept with the player (the others as they were)."""
    body = await json_body(request, "settings")
    check_fields(body, set(SETTINGS), set())
    for name, value in body.items():
        kind = SETTINGS[name]
        good = (
            value in LANGUAGES
            if name == "language"
            else value in kind
            if isinstance(kind, tuple)
            else isinstance(value, bool)
        )
        if not good:
            choices = LANGUAGES if name == "language" else kind if isinstance(kind, tuple) else ()
            raise UserError(
                _("{field} cannot be {value}.").format(
                    field=repr(name), value=repr(str(value)[:20])
                )
                + (" " + ", ".join(choices) if choices else " true, false")
            )
    store = _store(request)
    player = await me(request, store)
    settings = {**read_settings(player.settings), **body}
    await store.save_settings(player.id, settings)
    return JSONResponse({"settings": settings}, headers={"Cache-Control": "no-store"})


async def download_archive(request: Request) -> Response:
    """``GET /api/me/archive``: every finished deal of the visitor's games, one record each,
    in one zip file."""
    store = _store(request)
    player = await current_player(request, store)
    found = [] if player is None else await store.archive(player.id)
    if not found:
        raise UserError(_("You have no finished games yet."), 404)

    def pack() -> bytes:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for game_id, deal, text in found:
                archive.writestr(f"conquian-{game_id}-deal{deal}.toml", text)
        return out.getvalue()

    data = await asyncio.to_thread(pack)
    day = time.strftime("%Y-%m-%d")
    return Response(
        data,
        media_type="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="conquian-games-{day}.zip"',
            "Cache-Control": "no-store",
        },
    )


async def profile(request: Request) -> Response:
    """``GET /api/players/{id}``: what anyone may see of a player (his name, ratings, games)."""
    player_id = request.path_params["player_id"]
    found = None if len(player_id) > 32 else await _store(request).profile(player_id)
    if found is None:
        raise UserError(_("There is no such player."), 404)
    found["name"] = shown_name(found["id"], found["name"])
    return JSONResponse(found)


async def block_player(request: Request) -> Response:
    """``POST /api/players/{id}/block`` with ``{"block": true}`` (or ``false``): the visitor
    is never seated with that player in a quick match (or may be again)."""
    body = await json_body(request, "me")
    check_fields(body, {"block"}, set())
    on = body.get("block")
    if not isinstance(on, bool):
        raise UserError(_("Send {field} as true or false.").format(field="'block'"))
    store = _store(request)
    other = request.path_params["player_id"]
    player = await me(request, store)
    if other == player.id or len(other) > 32 or await store.player(other, seen=False) is None:
        raise UserError(_("There is no such player."), 404)
    await store.block(player.id, other, on=on)
    return await my_blocks(request)


async def my_blocks(request: Request) -> Response:
    """``GET /api/me/blocks``: the players the visitor blocked (only he is told)."""
    store = _store(request)
    player = await me(request, store)
    found = await store.blocked_by(player.id)
    for row in found:
        row["name"] = shown_name(row["id"], row["name"])
    return JSONResponse({"blocked": found}, headers={"Cache-Control": "no-store"})


# ------------------------------------------------------------------ your account


async def _account_answer(store: Store, player: PlayerRow, **extra: Any) -> Response:
    facts = {**await store.account(player.id), **extra}
    return JSONResponse(facts, headers={"Cache-Control": "no-store"})


async def _became_account(request: Request, store: Store, player: PlayerRow) -> dict[str, Any]:
    """A guest's first way to sign in: his browser signed in, and his recovery codes (shown
    in this answer only).  Nothing for an account."""
    if not player.guest:
        return {}
    await sign_in(request, store, player.id)
    codes = new_recovery_codes()
    await store.replace_recovery_codes(player.id, [code_hash(c) for c in codes])
    return {"recovery_codes_new": codes}


async def account_page(request: Request) -> Response:
    """``GET /api/account``: the visitor's ways to sign in (a guest: none)."""
    store = _store(request)
    player = await me(request, store)
    return await _account_answer(store, player, guest=player.guest)


async def set_password(request: Request) -> Response:
    """``POST /api/account/password`` with ``{"login", "password"}`` (and ``"current"``, the
    password now, when the account has one): sign in with these from now on."""
    body = await json_body(request, "signin")
    check_fields(body, {"login", "password", "current"}, {"login", "password"})
    login, password = body["login"], body["password"]
    problem = login_problem(login)
    if problem == "length":
        raise UserError(_("A login name has 3 to 32 characters."))
    if problem == "characters":
        raise UserError(_("A login name has only letters, digits, '.', '-' and '_'."))
    if password_problem(password):
        raise UserError(_("A password has 8 to 128 characters."))
    store = _store(request)
    player = await me(request, store)
    if not player.guest:
        player = await _signed_in(request)
        before = await store.password_of_player(player.id)
        current = body.get("current")
        if before is not None and not (
            isinstance(current, str) and await _slowly(password_matches, before[1], current)
        ):
            raise UserError(_("To change your password, give the one you have now."), 403)
    hashed = await _slowly(hash_password, password)
    if not await store.set_password(player.id, login_key(login), hashed):
        raise UserError(_("That login name is taken: choose another."), 409)
    extra = await _became_account(request, store, player)
    return await _account_answer(store, replace(player, guest=False), guest=False, **extra)


def _origin(request: Request) -> str:
    """The page's origin, which a passkey is bound to (the route's checks let through only
    this site's, or an allowed one)."""
    origin = request.headers.get("origin")
    if not origin or origin == "null":
        raise UserError(
            _("A passkey needs the page's address (the {header} header).").format(header="Origin")
        )
    return origin


async def passkey_options(request: Request) -> Response:
    """``POST /api/account/passkey/options``: what the browser needs to make a passkey for
    the visitor's player."""
    await json_body(request, "signin")
    origin = _origin(request)
    store = _store(request)
    player = await me(request, store)
    if not player.guest:
        player = await _signed_in(request)
    existing = [k["id"] for k in (await store.account(player.id))["passkeys"]]
    challenge = new_challenge()
    request.session[CHALLENGE_KEY] = challenge
    name = shown_name(player.id, player.name)
    options = registration_options(origin, challenge, player.id, name, existing)
    return JSONResponse(options, headers={"Cache-Control": "no-store"})


async def add_passkey(request: Request) -> Response:
    """``POST /api/account/passkey`` with ``{"credential"}`` (what the browser made, as its
    ``toJSON()`` writes it): a new passkey of the visitor's player."""
    body = await json_body(request, "signin")
    check_fields(body, {"credential"}, set())
    origin = _origin(request)
    store = _store(request)
    player = await me(request, store)
    if not player.guest:
        player = await _signed_in(request)
    made = registered_passkey(
        body.get("credential"), request.session.pop(CHALLENGE_KEY, None), origin
    )
    if made is None:
        raise UserError(_("The passkey could not be checked: try again."))
    if not await store.add_passkey(player.id, made.id, made.public_key, made.sign_count):
        raise UserError(_("That passkey is kept already."), 409)
    extra = await _became_account(request, store, player)
    return await _account_answer(store, replace(player, guest=False), guest=False, **extra)


async def remove_passkey(request: Request) -> Response:
    """``POST /api/account/passkey/remove`` with ``{"id"}``: forget one of your passkeys
    (not the last way to sign in)."""
    body = await json_body(request, "me")
    check_fields(body, {"id"}, {"id"})
    player = await _signed_in(request)
    store = _store(request)
    facts = await store.account(player.id)
    if facts["login"] is None and len(facts["passkeys"]) <= 1:
        raise UserError(_("Keep one way to sign in: add a password or another passkey first."))
    if not await store.remove_passkey(player.id, body["id"]):
        raise UserError(_("You have no such passkey."), 404)
    return await _account_answer(store, player, guest=False)


async def renew_codes(request: Request) -> Response:
    """``POST /api/account/recovery-codes``: ten new recovery codes (the old ones stop)."""
    await json_body(request, "me")
    player = await _signed_in(request)
    store = _store(request)
    codes = new_recovery_codes()
    await store.replace_recovery_codes(player.id, [code_hash(c) for c in codes])
    return await _account_answer(store, player, guest=False, recovery_codes_new=codes)


async def delete_account(request: Request) -> Response:
    """``POST /api/account/delete`` with ``{"erase": true}``: the visitor's player erased (his
    name, settings, ways to sign in, ratings); his games stay, under a seat's number."""
    body = await json_body(request, "me")
    if body != {"erase": True}:
        raise UserError(_("To erase your account, send {body}.").format(body='{"erase": true}'))
    store = _store(request)
    player = await current_player(request, store)
    if player is None:
        raise UserError(_("There is no such player."), 404)
    games = await store.erase_player(
        player.id, lambda seat: words.stored_name(words.default_player, seat)
    )
    hub_of(request).forget_names(games)
    request.session.clear()
    return JSONResponse(
        {"erased": True, "games": len(games)}, headers={"Cache-Control": "no-store"}
    )


# ------------------------------------------------------------------ signing in and out


def _refused() -> UserError:
    """The one answer to a failed sign-in, whatever failed (no hint whether the name exists)."""
    return UserError(_("That did not sign you in: check what you typed and try again."), 401)


async def sign_in_password(request: Request) -> Response:
    """``POST /api/signin/password`` with ``{"login", "password"}``."""
    body = await json_body(request, "signin")
    check_fields(body, {"login", "password"}, {"login", "password"})
    store = _store(request)
    password = body["password"][:256]
    found = await store.password_of_login(login_key(body["login"])[:64])
    if not await _slowly(password_matches, found[1] if found else None, password):
        raise _refused()
    assert found is not None
    player_id, stored = found
    if needs_rehash(stored):
        await store.set_password(
            player_id, login_key(body["login"]), await _slowly(hash_password, password)
        )
    await sign_in(request, store, player_id)
    return await _answer_signed_in(store, player_id)


async def _answer_signed_in(store: Store, player_id: str) -> Response:
    player = await store.player(player_id)
    if player is None:  # erased in between
        raise _refused()
    return await me_answer(store, player)


async def passkey_sign_in_options(request: Request) -> Response:
    """``POST /api/signin/passkey/options``: what the browser needs to sign in with a
    passkey of this site (any: the passkey names its account)."""
    await json_body(request, "signin")
    origin = _origin(request)
    challenge = new_challenge()
    request.session[CHALLENGE_KEY] = challenge
    return JSONResponse(sign_in_options(origin, challenge), headers={"Cache-Control": "no-store"})


async def sign_in_passkey(request: Request) -> Response:
    """``POST /api/signin/passkey`` with ``{"credential"}`` (the browser's answer)."""
    body = await json_body(request, "signin")
    check_fields(body, {"credential"}, set())
    origin = _origin(request)
    store = _store(request)
    kept = request.session.pop(CHALLENGE_KEY, None)
    credential = body.get("credential")
    found_id = credential_id(credential)
    found = None if found_id is None else await store.passkey(found_id)
    if found_id is None or found is None:
        raise _refused()
    player_id, public_key, sign_count = found
    count = signed_in_count(credential, kept, origin, Passkey(found_id, public_key, sign_count))
    if count is None:
        raise _refused()
    await store.passkey_used(found_id, count)
    await sign_in(request, store, player_id)
    return await _answer_signed_in(store, player_id)


async def sign_in_recovery(request: Request) -> Response:
    """``POST /api/signin/recovery`` with ``{"code"}``: one recovery code, used up."""
    body = await json_body(request, "signin")
    check_fields(body, {"code"}, {"code"})
    store = _store(request)
    player_id = await store.use_recovery_code(code_hash(body["code"][:64]))
    if player_id is None:
        raise _refused()
    await sign_in(request, store, player_id)
    return await _answer_signed_in(store, player_id)


async def sign_out_route(request: Request) -> Response:
    """``POST /api/signout`` (``{"everywhere": true}``: every other browser too)."""
    body = await json_body(request, "me")
    check_fields(body, {"everywhere"}, set())
    everywhere = body.get("everywhere", False)
    if not isinstance(everywhere, bool):
        raise UserError(_("Send {field} as true or false.").format(field="'everywhere'"))
    store = _store(request)
    player = await current_player(request, store)
    if player is None or player.guest:
        raise UserError(_("You are not signed in."), 403)
    if everywhere:
        await store.close_sessions(player.id, session_id(request), all=True)
    await sign_out(request, store, player.id)
    return JSONResponse({"signed_out": True}, headers={"Cache-Control": "no-store"})


ROUTES = [
    Route("/api/me", about_me),
    Route("/api/me", rename_me, methods=["POST"]),
    Route("/api/me/settings", save_settings, methods=["POST"]),
    Route("/api/me/archive", download_archive),
    Route("/api/me/blocks", my_blocks),
    Route("/api/players/{player_id}", profile),
    Route("/api/players/{player_id}/block", block_player, methods=["POST"]),
    Route("/api/account", account_page),
    Route("/api/account/password", set_password, methods=["POST"]),
    Route("/api/account/passkey/options", passkey_options, methods=["POST"]),
    Route("/api/account/passkey", add_passkey, methods=["POST"]),
    Route("/api/account/passkey/remove", remove_passkey, methods=["POST"]),
    Route("/api/account/recovery-codes", renew_codes, methods=["POST"]),
    Route("/api/account/delete", delete_account, methods=["POST"]),
    Route("/api/signin/password", sign_in_password, methods=["POST"]),
    Route("/api/signin/passkey/options", passkey_sign_in_options, methods=["POST"]),
    Route("/api/signin/passkey", sign_in_passkey, methods=["POST"]),
    Route("/api/signin/recovery", sign_in_recovery, methods=["POST"]),
    Route("/api/signout", sign_out_route, methods=["POST"]),
]
"""The routes of this file, in the application's table (:func:`.app.create_app`)."""
