"""Hints and reviews: a bot's view of one player's position, or of his finished deal.

Each is worked out from what that player saw only (his observation; a deal's record judged
from his seat), in the bots' worker threads, off the event loop, and sent to the connection
that asked and no other.  The same position always gets the same hint (the search's budget is
a number of sampled deals and its generator is seeded from the position), however busy the
server is.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from concurrent.futures import Executor
from functools import partial

from ..bots import Budget, make_bot
from ..bots.review import IN_GAME_SAMPLES, ReviewSettings, review_deals
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

HINT_BOT = "search"
"""The bot that gives hints (a search with a short budget)."""
HINT_BUDGET = Budget(iterations=50)
"""The hint's budget: a number of sampled deals and no time limit, so the same position
always gets the same hint, however busy the server is."""
REVIEW_SAMPLES = IN_GAME_SAMPLES
"""Sampled deals per decision of a review asked for in the browser (the command line's
default is 200): a two-player deal is reviewed in a few seconds."""


class Coach:
    """Hints and reviews, worked out in ``pool`` (the bots' threads)."""

    def __init__(self, pool: Executor) -> None:
        self.pool = pool

    async def hint(self, room: Room, conn: Conn) -> None:
        """Suggest a move to the player to act (to that connection only).

        :raises UserError: for a spectator, in a match without hints, when it is not the
            player's turn, or while a hint is on its way.
        """
        if conn.seat is None:
            raise UserError(_("Hints are for the players, not for spectators."))
        live = room.live
        if not live.hints:
            raise UserError(_("Hints are off in this game: the player who made it chose so."))
        async with room.lock:
            if not live.ready or live.match.is_over or live.game.state.to_act != conn.seat:
                raise UserError(_("A hint is given when it is your turn to move."))
            if conn.hinting:
                raise UserError(_("A hint is on its way."))
            obs = live.game.observation(conn.seat)
            seq = live.seq
        bot = make_bot(
            HINT_BOT, rng=random.Random(f"hint:{live.bot_seed}:{seq}"), budget=HINT_BUDGET
        )
        bot.new_deal(conn.seat, live.rules)
        conn.hinting = True
        try:
            action = await asyncio.get_running_loop().run_in_executor(self.pool, bot.act, obs)
        finally:
            conn.hinting = False
        look = room.views.look
        with speaking(conn.lang):
            move = describe_action(action, obs, look)
            conn.send(
                messages.hint(seq, str(action), move, reason_words(bot.why, look), bot.reason)
            )

    async def review(self, room: Room, conn: Conn, deal: int) -> None:
        """Judge the decisions of this connection's player in finished deal ``deal`` (to that
        connection only): ``review_progress`` messages while it is worked out, then
        ``review``.  In a match without hints, the deals are reviewed once it is over.

        :raises UserError: for a spectator, a deal that has not ended, a match with no hints
            still being played, or while a review is on its way.
        """
        if conn.seat is None:
            raise UserError(_("Reviews are for the players, not for spectators."))
        seat = conn.seat
        live = room.live
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
            if conn.reviewing:
                raise UserError(_("A review is on its way."))
            game = live.finished[deal - 1][0]
            done = room.reviews.get((deal, seat))
        if done is None:
            record = GameRecord.from_game(game, event="conquian serve", game=live.id)
            seed = int.from_bytes(hashlib.sha256(f"review:{live.id}:{deal}".encode()).digest()[:4])
            settings = ReviewSettings(samples=REVIEW_SAMPLES, seed=seed)
            loop = asyncio.get_running_loop()

            def progress(count: int, total: int) -> None:  # in the review's thread
                with speaking(conn.lang):
                    said = messages.review_progress(deal, count, total)
                loop.call_soon_threadsafe(conn.send, said)

            conn.reviewing = True
            try:
                done = await loop.run_in_executor(
                    self.pool, partial(review_deals, [record], seat, settings, progress=progress)
                )
            finally:
                conn.reviewing = False
            room.reviews[deal, seat] = done
        with speaking(conn.lang):
            conn.send(messages.review(done, deal, live.rules))
