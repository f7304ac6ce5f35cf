"""The hub: every match this process serves, its connections, and what a client asks of it.

A match in play is a :class:`~.room.Room` around a :class:`~.live.LiveMatch`, loaded from the
store when a client first asks for it and dropped from memory when nobody is connected (the
database has all of it).  An action is checked by the engine, stored, and only then
acknowledged and shown to the clients; each client is sent the view of its own seat (a
spectator, the public view), never another player's hand, the stock or the seeds.

Several processes may serve the same matches from one PostgreSQL database.  Each keeps the
matches its clients use in memory; an action is stored with its number, which the database
accepts once (a process whose copy was behind is refused, brings its copy up to date and
judges the move again), and every commit notifies the other processes, which read the change,
apply it and show it to their own clients (:mod:`.sync`).  A computer seat is moved by the
process that stored the action before its turn; a process that only learnt of that action
stands by and moves it only if nobody did within :data:`BOT_STANDBY` seconds (the database
takes one of two moves at one number, so the seat moves once either way).

How a move flows: :meth:`Hub.handle` → :meth:`Hub.act` → ``LiveMatch.push`` (the engine) →
``await Store.add_action`` → ``LiveMatch.settle`` → ``Room.broadcast`` (the messages of
:mod:`.messages`) → each connection's outbox (:mod:`.conn`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy.exc import IntegrityError

from ..actions import Action, ActionKind
from ..errors import IllegalActionError
from ..present.i18n import speaking
from ..seats import BotTurn
from . import requests, words
from .absence import Absence
from .clock import GRACE
from .coach import Coach
from .conn import Conn
from .languages import WEB_WORDS
from .live import (
    LiveMatch,
    Refusal,
    Refused,
    invite_code,
    new_match_id,
    new_match_row,
    new_token,
)
from .messages import Commitment
from .requests import Hello, NewMatch, UserError
from .room import Room, rate, save_shuffles
from .schema import PlayerRow, SeatRow, hash_token
from .store import Store
from .sync import Sync

log = logging.getLogger("conquian.web")
_ = WEB_WORDS.gettext

BOT_STANDBY = 3.0
"""Seconds a process that learnt of an action from another process waits (beyond the bot
delay) before moving the computer seat itself: the other process should have moved it."""
COMMIT_TRIES = 5
"""Times one move is judged and stored again after other processes' moves got in first."""
_MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def shuffle_offer(live: LiveMatch) -> Commitment | None:
    """The deal being shuffled and the commitment to its shuffle (None if none is): what a
    client's seed in its hello goes to."""
    number = live.collecting
    if number is None:
        return None
    row = live.shuffle_for(number)
    return {"deal": number, "commitment": row.commitment, "dealer": live.match.dealer_of(number)}


TAKE_PAUSE = 2.5
"""After a take the computer waits this many times its delay before its next move."""


class Hub:
    """Every match in this process's memory, the store, and the bots' worker threads."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.0,
        bot_threads: int = 2,
        grace: float = GRACE,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._bot_pool = ThreadPoolExecutor(bot_threads, thread_name_prefix="conquian-bot")
        self._review_pool = ThreadPoolExecutor(1, thread_name_prefix="conquian-review")
        self.coach = Coach(self._bot_pool, self._review_pool)
        self.sync = Sync(store, self.rooms, self._loading, self._changed_elsewhere)
        self.absence = Absence(store, self.rooms, self.sync, grace)

    async def start(self) -> None:
        """Hear the other processes' changes (PostgreSQL); before serving."""
        await self.sync.start()

    async def close(self) -> None:
        await self.sync.close()
        for room in self.rooms.values():
            if room.bot_task is not None:
                room.bot_task.cancel()
        self._bot_pool.shutdown(wait=False, cancel_futures=True)
        self._review_pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ the registry

    async def get(self, match_id: str, *, current: bool = False) -> Room:
        """The match, loaded from the store when needed.

        ``current``: a match already in memory is first brought up to date with what other
        processes stored (for an answer that must not lag behind a change made through
        another process a moment ago; their notifications come a few milliseconds later).

        :raises UserError: (404) if there is no such match.
        """
        room = self.rooms.get(match_id)
        if room is not None:
            if current and self.sync.shared:
                async with room.lock:
                    await self.sync.catch_up_and_show(room)
            return room
        if not isinstance(match_id, str) or not _MATCH_ID.fullmatch(match_id):
            raise UserError(words.no_such_match(str(match_id)[:40]), 404)
        waiting = self._loading.get(match_id)
        if waiting is None:
            waiting = asyncio.get_running_loop().create_future()
            self._loading[match_id] = waiting
            try:
                self.sync.forget_loading(match_id)
                loaded = await self.store.load(match_id)
                found = None if loaded is None else Room.of(LiveMatch(*loaded))
                if found is not None:
                    await save_shuffles(self.store, found.live)
                    if found.live.clocked:
                        found.live.clock = await self.store.clock(match_id)
                    self.rooms[match_id] = found
                    if found.live.status != "over" and found.live.match.is_over:
                        found.live.status = "over"
                waiting.set_result(found)
            except Exception as exc:
                waiting.set_exception(exc)
                raise
            finally:
                del self._loading[match_id]
            if found is not None:
                self.sync.loaded(found)
                self.kick_bot(found)
        room = await asyncio.shield(waiting)
        if room is None:
            raise UserError(words.no_such_match(match_id), 404)
        return room

    def release(self, room: Room) -> None:
        """Done with a match loaded for an HTTP request: drop it if no one is connected."""
        self._evict(room)

    def forget_names(self, match_ids: list[str]) -> None:
        """The stored names of these matches changed (a player was erased): those in memory
        that nobody is connected to are dropped, to be read again (one being played keeps
        the names it has until it is dropped)."""
        for match_id in match_ids:
            room = self.rooms.get(match_id)
            if room is not None:
                self._evict(room)

    def _evict(self, room: Room) -> None:
        """Drop a match nobody is connected to from memory (the database has all of it)."""
        busy = room.bot_task is not None and not room.bot_task.done()
        if room.conns or busy or room.lock.locked():
            return
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        room.evicted = True

    def _changed_elsewhere(self, room: Room) -> None:
        """Another process changed a match (shown already): a computer seat to move now gets
        a stand-in."""
        self.kick_bot(room, standby=True)

    # ------------------------------------------------------------------ making and joining

    async def create(
        self, asked: NewMatch, player: PlayerRow | None = None
    ) -> tuple[Room, str, dict[int, str]]:
        """A new match with the caller in seat 0; returns it, the caller's secret token and
        the invitation code of each person's seat.

        Each person's seat is taken with its invitation (or, in a match made with ``mode``,
        by the match's id; in a public match, from the lobby).  ``public``: listed in the
        lobby (default: only a match without a person's seat to fill, so that only the
        friends the invitations were sent to take the seats).  ``hints``: the players may ask
        for hints (default: only in a match without another person's seat).
        """
        token = new_token()
        match_id = new_match_id()
        computers = sum(kind == "bot" for kind, _level in asked.others)
        others: list[SeatRow] = []
        for p, (kind, level) in enumerate(asked.others, start=1):
            if kind == "bot":
                number = sum(s.kind == "bot" for s in others) + 1
                name = words.stored_name(words.computer_name, computers, number, level or "medium")
                others.append(SeatRow(p, "bot", name, None, True, level))
            else:
                invite = hash_token(invite_code(token, match_id, p))
                others.append(SeatRow(p, "human", "", None, False, None, invite))
        name = await self._seat_name(asked.name, player, 0)
        free = any(not s.joined for s in others)
        row = new_match_row(
            match_id,
            (
                SeatRow(
                    0,
                    "human",
                    name,
                    hash_token(token),
                    True,
                    player_id=player.id if player else None,
                ),
                *others,
            ),
            mode=asked.mode,
            level=asked.level,
            rules=asked.rules,
            public=not free if asked.public is None else asked.public,
            invite_only=asked.invite_only,
            rated=asked.rated,
            clock=asked.clock,
            chat=asked.chat,
            # hints against the computer, none between people
            hints=not any(s.kind == "human" for s in others)
            if asked.hints is None
            else asked.hints,
        )
        live = LiveMatch(row)
        await self.store.create_match(row, live.unsaved.pop(0) if live.unsaved else None)
        # not kept in memory: the process its players connect to loads it (with --workers,
        # seldom this one; a copy kept here would follow every move of it for nothing)
        return Room.of(live), token, live.invitations(token)

    async def _seat_name(self, name: str | None, player: PlayerRow | None, seat: int) -> str:
        """The name a person sits down with: the one he gave (his player's name from now on),
        else the one his player gave before, else the seat's number."""
        if player is not None and name and name != player.name:
            await self.store.rename_player(player.id, name)
        chosen = name or (player.name if player is not None else "")
        return chosen or words.stored_name(words.default_player, seat)

    async def join(
        self, match_id: str, name: str, invite: str | None, player: PlayerRow | None = None
    ) -> tuple[Room, int, str]:
        """Take a free person's seat; returns the match, the seat and its token.

        With ``invite`` (an invitation code), the seat of that invitation; without, the next
        free seat of a public match or of one made with ``mode`` (taken by its id).

        :raises UserError: if the match is unknown (404), the invitation is not one of its
            own (404) or used already (409), the match's seats are taken only by invitation
            (403), or it is full (409); nothing changes.
        """
        room = await self.get(match_id)
        live = room.live
        async with room.lock:
            try:
                seat = live.seat_to_join(invite)
            except Refused as refused:
                raise UserError.of(refused) from None
            sitting = await self._seat_name(name, player, seat.seat)
            token = new_token()
            player_id = None if player is None else player.id
            if not await self.store.join(live.id, seat.seat, sitting, hash_token(token), player_id):
                raise UserError(words.seat_just_taken(), 409)
            live.seat_taken(seat.seat, sitting, hash_token(token), player_id)
            room.broadcast()
        self.release(room)
        return room, seat.seat, token

    async def lobby(self) -> dict[str, list[dict[str, Any]]]:
        return await self.store.lobby()

    async def records(self, match_id: str) -> list[tuple[int, str, str]]:
        """The records of a finished match.

        :raises UserError: (403) while the match is being played.
        """
        room = await self.get(match_id, current=True)
        over = room.live.match.is_over
        self.release(room)
        if not over:
            raise UserError(
                _("The records of a game can be downloaded once the match is over."), 403
            )
        return await self.store.records(match_id)

    async def rematch(self, room: Room, conn: Conn, keep_count: bool = True) -> None:
        """Start a new match with the same players (seat tokens carry over), la cuenta
        carried on unless ``keep_count`` is False (the first to ask chooses)."""
        if conn.seat is None:
            raise UserError(_("Only the players can ask for a rematch."))
        live = room.live
        async with room.lock:
            if live.rematch_id is None:
                try:
                    row = live.rematch_row(keep_count)
                except Refused as refused:
                    raise UserError.of(refused) from None
                fresh = LiveMatch(row)
                # stored, not kept in memory: its players' pages connect to it and load it
                if await self.store.set_rematch(
                    live.id, row, fresh.unsaved.pop(0) if fresh.unsaved else None
                ):
                    live.rematch_id = row.id
                else:  # made by another server process: read it back
                    loaded = await self.store.load(live.id)
                    if loaded is not None:
                        live.rematch_id = loaded[0].rematch_id
            room.broadcast()

    # ------------------------------------------------------------------ connections

    async def hello(
        self, room: Room, conn: Conn, hello: Hello, player_id: str | None = None
    ) -> Room:
        """Seat a connection by its token, or (``hello.mine``) by the visitor's player
        ``player_id`` (a spectator without either), take its seed for the shuffle, and send
        it the match; returns the room it joined (the match may have been loaded again
        meanwhile)."""
        if hello.lang is not None:
            conn.lang = hello.lang
        conn.deltas = hello.deltas
        with speaking(conn.lang):
            if hello.token or not hello.mine:
                conn.seat = await self.seat_of(room, hello.token)
            else:
                conn.seat = await self.seat_of_player(room, player_id)
            if conn.seat == 0 and hello.token:  # the creator: told the invitations
                conn.invites = room.live.invitations(hello.token, taken=True)
            if hello.token and conn.seat is None:
                said = _("This link's seat token is not valid for this game; you are watching it.")
                conn.send({"type": "error", "message": said})
            elif hello.mine and conn.seat is None:
                said = _(
                    "You have no seat at this game (or you are not signed in as the player who sat there); you are watching it."
                )
                conn.send({"type": "error", "message": said})
        room = await self.greet(room, conn.seat, hello.seed)
        if conn.seat is not None:
            await self.absence.returned(room, conn.seat)
        return await self.connect(room, conn)

    async def seat_of(self, room: Room, token: str | None) -> int | None:
        """The seat whose secret is ``token`` (None: none), reading the match again first if
        this copy does not know it (the seat may have been taken on another process)."""
        seat = room.live.seat_for(token)
        if seat is None and token and self.sync.shared:
            async with room.lock:
                await self.sync.catch_up_and_show(room)
            seat = room.live.seat_for(token)
        return seat

    async def seat_of_player(self, room: Room, player_id: str | None) -> int | None:
        """The seat this player sat in (None: none, or no player), reading the match again
        first if this copy does not know it."""
        if player_id is None:
            return None
        seat = room.live.seat_of_player(player_id)
        if seat is None and self.sync.shared:
            async with room.lock:
                await self.sync.catch_up_and_show(room)
            seat = room.live.seat_of_player(player_id)
        return seat

    async def greet(self, room: Room, seat: int | None, seed: str | None) -> Room:
        """A client said hello from ``seat``: its seed (or, for the first deal, the lack of
        one) goes to the deal being shuffled."""
        while True:
            async with room.lock:
                if not room.evicted:
                    changed = False
                    number = room.live.collecting
                    if seat is not None and number is not None:
                        row = room.live.shuffle_for(number)
                        if row.client_seeds[seat] is None and (seed or number == 1):
                            # (refused if another connection of the seat, on another
                            # process, gave one first: this copy has caught up then)
                            with contextlib.suppress(UserError):
                                await self._give_seed(room, seat, seed or "", number)
                            changed = True
                    break
            room = await self.get(room.id)
        if changed:
            room.broadcast()
            self.kick_bot(room)
        return room

    async def connect(self, room: Room, conn: Conn) -> Room:
        """Add a connection and send it the match; returns the room it was added to."""
        while True:
            async with room.lock:
                if not room.evicted:
                    room.conns.add(conn)
                    conn.send_state(room.view(conn))
                    # a client may come from a process that died before its bot moved
                    self.kick_bot(room)
                    return room
            room = await self.get(room.id)

    def disconnect(self, room: Room, conn: Conn) -> None:
        room.conns.discard(conn)
        self._evict(room)

    # ------------------------------------------------------------------ commands

    async def handle(self, room: Room, conn: Conn, data: Any) -> None:
        """One message from a client (after its hello).

        :raises UserError: for anything wrong with it; nothing changes.
        """
        if not isinstance(data, dict):
            raise UserError(
                _("A message must be a JSON object such as {example}.").format(
                    example='{"type": "act", ...}'
                )
            )
        kind = data.get("type")
        if kind == "act":
            await self.act(room, conn, requests.read_action(data.get("action")), data.get("id"))
        elif kind == "hint":
            await self.coach.hint(room, conn)
        elif kind == "rematch":
            await self.rematch(room, conn, requests.read_keep_count(data.get("count")))
        elif kind == "review":
            await self.coach.review(room, conn, requests.read_review_deal(data.get("deal")))
        elif kind == "seed":
            if conn.seat is None:
                raise UserError(_("Only the players add seeds to the shuffle, not spectators."))
            seed = requests.check_seed(data.get("seed"))
            deal = requests.read_seed_deal(data.get("deal"))
            async with room.lock:
                await self._give_seed(room, conn.seat, seed, deal)
            room.broadcast()
            self.kick_bot(room)
        elif kind == "claim":
            await self.absence.claim(room, conn)
        elif kind == "say":
            if "text" in data:
                room.talk(conn, time.monotonic(), text=requests.read_text(data.get("text")))
            else:
                room.talk(conn, time.monotonic(), requests.read_phrase(data.get("phrase")))
        elif kind == "ping":
            conn.send({"type": "pong", "id": requests.echo_id(data.get("id"))})
        elif kind == "lang":
            conn.lang = requests.read_language(data.get("lang"))
            async with room.lock:
                conn.send_state(room.view(conn))
        else:
            raise UserError(
                _(
                    "Unknown message type {kind}: use act, seed, hint, review, rematch, lang, "
                    "say, claim or ping."
                ).format(kind=repr(str(kind)[:20]))
            )

    async def _give_seed(self, room: Room, seat: int, seed: str, deal: int | None) -> None:
        """Store ``seat``'s seed for the deal being shuffled (the match's lock is held).

        :raises UserError: if no deal is being shuffled, ``deal`` is another one, or the
            seat has given its seed already; nothing changes.
        """
        live = room.live
        try:
            number = live.seed_deal(seat, deal)
        except Refused as refused:
            raise UserError.of(refused) from None
        await save_shuffles(self.store, live)
        stored = await self.store.add_client_seed(live.id, number, seat, seed)
        if stored is None:  # given from another process, or the deal was dealt meanwhile
            await self.sync.catch_up_and_show(room)
            raise UserError(words.seed_given(number))
        live.add_seed(stored)
        await save_shuffles(self.store, live)
        await self.absence.keep_clock(room)

    async def act(self, room: Room, conn: Conn, action: Action, msg_id: Any = None) -> None:
        """A player's action (``take 5c6c7c``, ``decline``, ``discard Kh``)."""
        msg_id = requests.echo_id(msg_id)
        if conn.seat is None:
            raise UserError(_("You are watching this game; only its players can move."))
        async with room.lock:
            # a copy that may be behind another process's is brought up to date before a
            # refusal, and the move judged again after another process's got in first
            caught_up = not self.sync.shared
            for _attempt in range(COMMIT_TRIES):
                problem = self._why_not(room, conn.seat)
                if problem is None:
                    if await self._commit(room, conn.seat, action, conn, msg_id):
                        return
                elif caught_up:
                    raise problem
                else:
                    await self.sync.catch_up_and_show(room)
                caught_up = True
        raise UserError(_("The server could not save that move; please try again."), 500)

    @staticmethod
    def _why_not(room: Room, seat: int) -> UserError | None:
        """Why ``seat`` cannot move now, in words (None: it may)."""
        problem = room.live.refusal_to_act(seat)
        if isinstance(problem, Refused):
            return UserError.of(problem)
        if isinstance(problem, IllegalActionError):
            return room.views.not_your_turn(problem, seat)
        return None

    async def _commit(
        self,
        room: Room,
        player: int,
        action: Action,
        conn: Conn | None,
        msg_id: Any,
        timed_out: bool | None = False,
    ) -> bool:
        """Check, store, then acknowledge and show one action (the match's lock is held).

        False if another process stored an action with that number first: nothing was
        stored, and this copy of the match is brought up to date (and shown) instead.
        """
        live = room.live
        try:
            pushed = live.push(player, action)
        except IllegalActionError as exc:
            raise room.views.illegal(exc, player) from None
        except Refused as refused:
            if refused.reason is Refusal.LESSON_MOVE:  # said with its cards
                raise room.views.lesson_refusal(player) from None
            raise UserError.of(refused) from None
        try:
            stored = await self.store.add_action(
                live.id,
                pushed.row,
                record=pushed.record,
                status=pushed.status,
                next_deal=pushed.next_deal,
                # every player sees it (not an exchange choice), and it ends no deal: the
                # others are told it
                announce=action.kind is not ActionKind.EXCHANGE and pushed.record is None,
            )
        except IntegrityError:
            live.undo()
            log.info(
                "match %s: action %s was stored by another process first", live.id, pushed.row.seq
            )
            if await self.sync.catch_up(room, full=False):
                room.broadcast()
            return False
        except Exception:
            live.undo()
            log.exception("match %s: could not store action %s", live.id, pushed.row.seq)
            raise UserError(
                _("The server could not save that move; please try again."), 500
            ) from None
        if stored is not None:
            live.adopt_shuffle(stored)
        live.settle(pushed)
        await save_shuffles(self.store, live)
        if pushed.status == "over":
            await rate(self.store, live)
        await self.absence.keep_clock(room, timed_out=timed_out)
        room.broadcast(conn, msg_id)
        self.kick_bot(room)
        return True

    async def stand_in(
        self, room: Room, seat: int, action: Action, *, timed_out: bool | None
    ) -> bool:
        """Make ``seat``'s decision for him, his time having run out (the lock is held)."""
        return await self._commit(room, seat, action, None, None, timed_out)

    async def no_seed(self, room: Room, seat: int, number: int) -> None:
        """``seat`` gave no seed to deal ``number``'s shuffle in time (the lock is held)."""
        await self._give_seed(room, seat, "", number)

    async def decide(self, turn: BotTurn) -> Action:
        """A computer's decision, worked out in the bots' threads."""
        return await asyncio.get_running_loop().run_in_executor(self._bot_pool, turn.decide)

    # ------------------------------------------------------------------ computer players

    def kick_bot(self, room: Room, *, standby: bool = False) -> None:
        """Move the computer seat whose turn it is, or make a clocked match's decision with
        one choice (``standby``: only if the process that should move it has not,
        :data:`BOT_STANDBY` seconds on)."""
        if room.live.bot_to_act() is None and room.live.forced_to_act() is None:
            return
        task = room.bot_task
        if task is not None and not task.done():
            if standby or not (room.bot_backup and room.bot_waiting):
                return
            task.cancel()  # a stand-in still waiting: this process moves it now
        room.bot_backup = standby
        room.bot_task = asyncio.get_running_loop().create_task(self._bot_moves(room))

    async def _bot_moves(self, room: Room) -> None:
        """Move the computer seats, and make a clocked match's decisions with one choice (a
        person's, made for him at once), until a person is to decide."""
        loop = asyncio.get_running_loop()
        live = room.live
        try:
            while True:
                async with room.lock:
                    p = live.forced_to_act()
                    turn = None
                    if p is None:
                        p = live.bot_to_act()
                        if p is None:
                            return
                        turn = live.driver.bot_turn(p)  # seeded: a reload gets the same move
                    seq = live.seq
                if room.bot_backup:
                    room.bot_waiting = True
                    try:
                        await asyncio.sleep(self.bot_delay + BOT_STANDBY)
                    finally:
                        room.bot_waiting = False
                    if live.seq != seq:
                        continue  # the other process moved it
                    room.bot_backup = False
                elif self.bot_delay and turn is not None:  # paced; longer after a take
                    await asyncio.sleep(self.bot_delay * (TAKE_PAUSE if live.just_took else 1))
                if turn is None:  # the one choice there is
                    action, timed_out = live.game.legal_actions()[0], None
                else:
                    action, timed_out = (
                        await loop.run_in_executor(self._bot_pool, turn.decide),
                        False,
                    )
                async with room.lock:
                    if live.seq != seq:
                        continue
                    await self._commit(room, p, action, None, None, timed_out)
        except UserError as exc:
            log.error("match %s: the bot's move failed: %s", live.id, exc)
        finally:
            if room.bot_task is asyncio.current_task():  # not a stand-in replaced
                room.bot_task = None
                self._evict(room)
