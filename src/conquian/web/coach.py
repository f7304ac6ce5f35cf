"""Hints and reviews: a bot's view of one player's position, or of his finished deal.

Each is worked out from what that player saw only (his observation; a deal's record judged
from his seat), off the event loop, and sent to the connections of that seat that asked and no
other.  The same position always gets the same hint (the coach's samples are a number of sampled
deals seeded from the position as the player sees it), however busy the server is, and the
review of that decision agrees with it (:mod:`conquian.bots.coach`).

Both are bounded, so that no client can make the computer players of other matches wait:

- hints run in the bots' threads, one at a time per seat of a match and at most
  :data:`MAX_HINTS` at once in the process;
- reviews run in a thread of their own (one review at a time in the process), each (match,
  deal, seat) is worked out once however many connections ask (they share it and its progress),
  at most :data:`MAX_REVIEWS` wait their turn, and the last :data:`KEPT_REVIEWS` finished ones
  are kept in the process, apart from the matches in memory.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from concurrent.futures import Executor
from functools import partial

from ..bots.coach import hint as coach_hint
from ..bots.review import IN_GAME_SAMPLES, Review, ReviewSettings, review_deals
from ..present.hints import reason_words
from ..present.i18n import speaking
from ..present.words import describe_action
from ..records import GameRecord
from . import messages
from .conn import Conn
from .languages import WEB_WORDS
from .requests import UserError
from .room import Room

_ = WEB_WORDS.gettext

REVIEW_SAMPLES = IN_GAME_SAMPLES
"""Sampled deals per decision of a review asked for in the browser (the command line's
default is 200): a two-player deal is reviewed in a few seconds."""


MAX_HINTS = 16
"""Hints worked out at once in one process (each takes a bot thread for a moment)."""
MAX_REVIEWS = 8
"""Distinct reviews in one process, the one being worked out and those waiting their turn."""
KEPT_REVIEWS = 256
"""Finished reviews kept in one process's memory (a few kilobytes each)."""

ReviewKey = tuple[str, int, int]
"""A review's (match id, deal, seat)."""


class _Job:
    """A review being worked out and the connections waiting for it."""

    def __init__(self) -> None:
        self.waiting: list[Conn] = []
        self.task: asyncio.Future[Review] | None = None


class Coach:
    """Hints, worked out in ``pool`` (the bots' threads), and reviews, in ``review_pool``
    (a thread of their own).

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> coach = Coach(ThreadPoolExecutor(1), ThreadPoolExecutor(1))
    >>> coach.kept(("m", 1, 0)) is None
    True
    """

    def __init__(self, pool: Executor, review_pool: Executor) -> None:
        self.pool = pool
        self.review_pool = review_pool
        self._hinting: set[tuple[str, int]] = set()
        self._jobs: dict[ReviewKey, _Job] = {}
        self._reviews: OrderedDict[ReviewKey, Review] = OrderedDict()

    def kept(self, key: ReviewKey) -> Review | None:
        """The finished review of (match, deal, seat), if this process keeps it."""
        done = self._reviews.get(key)
        if done is not None:
            self._reviews.move_to_end(key)
        return done

    def _keep(self, key: ReviewKey, done: Review) -> None:
        self._reviews[key] = done
        while len(self._reviews) > KEPT_REVIEWS:
            self._reviews.popitem(last=False)

    async def hint(self, room: Room, conn: Conn) -> None:
        """Suggest a move to the player to act (to that connection only).

        :raises UserError: for a spectator, in a match without hints, when it is not the
            player's turn, while a hint for that seat is on its way, or while the server
            works out too many hints.
        """
        if conn.seat is None:
            raise UserError(_("Hints are for the players, not for spectators."))
        live = room.live
        if not live.hints:
            raise UserError(_("Hints are off in this game: the player who made it chose so."))
        key = (live.id, conn.seat)
        async with room.lock:
            if not live.ready or live.match.is_over or live.game.state.to_act != conn.seat:
                raise UserError(_("A hint is given when it is your turn to move."))
            if key in self._hinting:
                raise UserError(_("A hint is on its way."))
            if len(self._hinting) >= MAX_HINTS:
                raise UserError(_("The server is busy: ask again in a moment."))
            obs = live.game.observation(conn.seat)
            seq = live.seq
        self._hinting.add(key)
        try:
            advice, why = await asyncio.get_running_loop().run_in_executor(
                self.pool, coach_hint, obs
            )
        finally:
            self._hinting.discard(key)
        look = room.views.look
        with speaking(conn.lang):
            move = describe_action(advice.best, obs, look)
            words = reason_words(why, look, room.views.shown_names())
            conn.send(messages.hint(seq, str(advice.best), move, words, why.code))

    async def review(self, room: Room, conn: Conn, deal: int) -> None:
        """Judge the decisions of this connection's player in finished deal ``deal`` (to the
        connections of that seat that asked): ``review_progress`` messages while it is worked
        out, then ``review``.  In a match without hints, the deals are reviewed once it is over.

        :raises UserError: for a spectator, a deal that has not ended, a match with no hints
            still being played, a second ask from the same connection while the review is on
            its way, or while too many reviews wait their turn.
        """
        if conn.seat is None:
            raise UserError(_("Reviews are for the players, not for spectators."))
        seat = conn.seat
        live = room.live
        key = (live.id, deal, seat)
        async with room.lock:
            if not 1 <= deal <= len(live.finished):
                raise UserError(
                    _("Deal {number} has not ended: only a finished deal is reviewed.").format(
                        number=deal
                    )
                )
            if not live.hints and not live.match.is_over:
                raise UserError(
                    _("In a game without hints, the deals are reviewed once the match is over.")
                )
            game = live.finished[deal - 1][0]
        done = self.kept(key)
        if done is None:
            job = self._jobs.get(key)
            if job is None:
                if len(self._jobs) >= MAX_REVIEWS:
                    raise UserError(_("The server is busy: ask again in a moment."))
                record = GameRecord.from_game(game, event="conquian serve", game=live.id)
                job = self._jobs[key] = _Job()
                job.task = asyncio.ensure_future(self._work_out(key, job, record))
            elif conn in job.waiting:
                raise UserError(_("A review is on its way."))
            assert job.task is not None
            job.waiting.append(conn)
            try:
                done = await asyncio.shield(job.task)
            finally:
                job.waiting.remove(conn)
        with speaking(conn.lang):
            conn.send(messages.review(done, deal, live.rules, room.views.shown_names()))

    async def _work_out(self, key: ReviewKey, job: _Job, record: GameRecord) -> Review:
        """Work out one review in the review thread, telling its progress to whoever waits."""
        match_id, deal, seat = key
        seed = int.from_bytes(hashlib.sha256(f"review:{match_id}:{deal}".encode()).digest()[:4])
        settings = ReviewSettings(samples=REVIEW_SAMPLES, seed=seed)
        loop = asyncio.get_running_loop()

        def tell(count: int, total: int) -> None:  # on the loop
            for conn in list(job.waiting):
                with speaking(conn.lang):
                    conn.send(messages.review_progress(deal, count, total))

        def progress(count: int, total: int) -> None:  # in the review's thread
            loop.call_soon_threadsafe(tell, count, total)

        try:
            done = await loop.run_in_executor(
                self.review_pool,
                partial(review_deals, [record], seat, settings, progress=progress),
            )
            self._keep(key, done)
            return done
        finally:
            del self._jobs[key]
