"""A match being served: the live match and what the server keeps around it.

A :class:`Room` holds one :class:`~.live.LiveMatch` with the lock that serialises every change
to it (as one actor per game would), the connections that see it, the task that moves its
computer players, its views (:class:`~.views.Views`), and what
other processes have told of it and this one has not read yet.

>>> from conquian.web.live import new_match_row
>>> from conquian.web.schema import SeatRow
>>> seats = (SeatRow(0, "human", "Ana", None, True), SeatRow(1, "human", "", None, False))
>>> room = Room.of(LiveMatch(new_match_row("m1", seats, mode="friend", level=None,
...     rules="standard", public=False, invite_only=False, hints=False)))
>>> room.id, room.live.status
('m1', 'open')
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from ..present.i18n import speaking
from .conn import Conn
from .languages import WEB_WORDS
from .live import LiveMatch
from .messages import SaidMessage, StateMessage
from .ratings import COMPUTER, form_of
from .requests import UserError
from .schema import ActionRow
from .store import Store
from .views import Views, with_invitations

_ = WEB_WORDS.gettext

TALK_EVERY = 3.0
"""Seconds between two phrases of table talk from one connection."""

log = logging.getLogger("conquian.web")


@dataclass(eq=False)
class Room:
    """One match in this process's memory (see the module's description)."""

    live: LiveMatch
    views: Views
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the match changes (a move, a seed, a seat, catching up)."""
    conns: set[Conn] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    """The task that moves the computer seats, while one is to act."""
    bot_backup: bool = False
    """The bot task stands in for another process: it moves only if that one did not."""
    bot_waiting: bool = False
    """The bot task is waiting (as a stand-in) to see whether another process moves."""
    evicted: bool = False
    """Dropped from the hub's memory; a new connection loads the match again."""
    heard: int = 0
    """The highest action number other processes have told of."""
    announced: dict[int, ActionRow] = field(default_factory=dict)
    """The actions other processes' notifications carried, by number, not yet applied."""
    stale_rows: bool = False
    """Another process changed a seat, a seed or the rematch: read the match's rows again."""
    unread: bool = False
    """Another process stored a seed: read the shuffles (and the new actions) again."""

    @classmethod
    def of(cls, live: LiveMatch) -> Room:
        return cls(live, Views(live))

    @property
    def id(self) -> str:
        return self.live.id

    def view(self, conn: Conn) -> StateMessage:
        """What ``conn`` may see now, in its language (with its invitations, if any)."""
        with speaking(conn.lang):
            return with_invitations(self.views.state(conn.seat), conn.invites, self.live)

    def talk(self, conn: Conn, now: float, phrase: str | None = None, text: str = "") -> None:
        """``conn``'s player says a set phrase, or writes ``text``, to the table (to every
        connection, the spectators' too): at most one each :data:`TALK_EVERY` seconds.

        :raises UserError: for a spectator, text where the host does not allow it, or a
            phrase too soon after the last.
        """
        if conn.seat is None:
            raise UserError(_("Only the players talk at the table, not spectators."))
        if text and not self.live.chat:
            raise UserError(_("At this table the players say the set phrases only."))
        if now - conn.said_at < TALK_EVERY:
            raise UserError(
                _("One phrase every {seconds} seconds, please.").format(seconds=round(TALK_EVERY))
            )
        conn.said_at = now
        said: SaidMessage = {"type": "said", "seat": conn.seat}
        if phrase is not None:
            said["phrase"] = phrase
        else:
            said["text"] = text
        for other in self.conns:
            other.send(said)

    def broadcast(self, actor: Conn | None = None, ack: Any = None) -> None:
        """Send every connection its view, in its own language; ``actor``, whose move it was,
        gets ``ack`` with it.  The parts the same for every seat are worked out once per
        language, and each (seat, language) once."""
        by_language: dict[str, list[Conn]] = {}
        for conn in self.conns:
            by_language.setdefault(conn.lang, []).append(conn)
        for lang, conns in by_language.items():
            states: dict[int | None, StateMessage] = {}
            with speaking(lang):
                shared = self.views.shared()
                for conn in conns:
                    if conn.seat not in states:
                        states[conn.seat] = self.views.state(conn.seat, shared)
            for conn in conns:
                state = with_invitations(states[conn.seat], conn.invites, self.live)
                conn.send_state({**state, "ack": ack} if conn is actor else state)

    def take_announced(self) -> list[ActionRow] | None:
        """The actions after the live match's last up to the last one heard of, if the
        notifications carried every one of them; None if some must be read from the
        database."""
        seq = self.live.seq
        rows: list[ActionRow] = []
        while seq + len(rows) < self.heard:
            row = self.announced.get(seq + len(rows) + 1)
            if row is None:
                break
            rows.append(row)
        done = seq + len(rows)
        for number in [n for n in self.announced if n <= done]:
            del self.announced[number]
        if not rows or done < self.heard:
            return None
        return rows


async def rate(store: Store, live: LiveMatch) -> None:
    """A rated match just ended (its last action, or its claim, stored): its people's
    ratings move, by their places (one who abandoned it last); a computer counts as a player
    of its level's rating."""
    form = form_of(live.rules)
    ids = [
        s.player_id if s.kind != "bot" else f"{COMPUTER}{live.level_of(s.seat)}" for s in live.seats
    ]
    people = [s.player_id for s in live.seats if s.kind != "bot"]
    if not live.rated or form is None or any(i is None for i in ids):
        return
    if len(set(people)) < len(people):  # one player in two seats (one browser): not rated
        log.info("match %s: one player sat in two seats; not rated", live.id)
        return
    results = [(str(i), -place) for i, place in zip(ids, live.match.places(), strict=True)]
    try:
        await store.rate_match(live.id, form, results)
    except Exception:  # the match is stored; a rating that failed is said in the log
        log.exception("match %s: could not rate it", live.id)


async def save_shuffles(store: Store, live: LiveMatch) -> None:
    """Store the shuffles the match drew in memory (a failure is logged and retried later).

    Where another process stored a deal's shuffle first, that one is used."""
    while live.unsaved:
        row = live.unsaved[0]
        try:
            stored = await store.add_deal(live.id, row)
        except Exception:
            log.exception("match %s: could not store the shuffle of deal %s", live.id, row.deal)
            return
        live.adopt_shuffle(stored)
