"""The store's part that keeps the players' ratings (``ratings``, ``rating_events``): a rated
match's end moves its people's ratings (:mod:`.ratings`, openskill), in one transaction that
rates a match once whichever process ends it; each player's ratings; the leaderboards.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import insert, select, update

from .ratings import (
    COMPUTER,
    MU,
    PROVISIONAL_GAMES,
    SIGMA,
    computer_rating,
    places,
    rated,
    rating_facts,
    shown,
)
from .schema import players, rating_events, ratings
from .storepart import StorePart


class RatingStorage(StorePart):
    """Ratings in the store (a base of :class:`.store.Store`)."""

    async def rate_match(self, match_id: str, form: str, results: list[tuple[str, int]]) -> bool:
        """Rate a finished match: each ``(player id, final balance)``, in seat order.  False
        if it was rated already (by this process or another), or a player was erased since,
        and nothing changes."""
        return await self._in_thread(self._rate_now, match_id, form, results)

    def _rate_now(self, match_id: str, form: str, results: list[tuple[str, int]]) -> bool:
        now = time.time()
        ids = [player for player, _balance in results]
        people = [p for p in ids if not p.startswith(COMPUTER)]
        with self.engine.begin() as conn:
            done = conn.execute(
                select(rating_events.c.game_id).where(rating_events.c.game_id == match_id)
            ).first()
            if done is not None:
                return False
            known = conn.execute(select(players.c.id).where(players.c.id.in_(people))).all()
            if len(known) < len(set(people)):  # a player erased since he sat down: not rated
                return False
            found = {
                r.player_id: r
                for r in conn.execute(
                    select(ratings)
                    .where(ratings.c.form == form, ratings.c.player_id.in_(ids))
                    .with_for_update()
                )
            }
            before = [
                computer_rating(p.removeprefix(COMPUTER))
                if p.startswith(COMPUTER)
                else (found[p].mu, found[p].sigma)
                if p in found
                else (MU, SIGMA)
                for p in ids
            ]
            balances = [balance for _player, balance in results]
            after = rated(before, balances)
            for player, place, old, new in zip(ids, places(balances), before, after, strict=True):
                if player.startswith(COMPUTER):
                    continue  # a computer's rating is its level's
                row = found.get(player)
                values = {"mu": new[0], "sigma": new[1], "updated": now}
                won = int(place == 1 and balances.count(max(balances)) == 1)
                if row is None:
                    conn.execute(
                        insert(ratings).values(
                            player_id=player, form=form, games=1, wins=won, **values
                        )
                    )
                else:
                    conn.execute(
                        update(ratings)
                        .where(ratings.c.player_id == player, ratings.c.form == form)
                        .values(games=row.games + 1, wins=row.wins + won, **values)
                    )
                conn.execute(
                    insert(rating_events).values(
                        game_id=match_id,
                        player_id=player,
                        form=form,
                        at=now,
                        place=place,
                        before=shown(*old),
                        after=shown(*new),
                    )
                )
        return True

    async def player_ratings(self, player_id: str) -> dict[str, dict[str, Any]]:
        """A player's rating in each form he played rated games in."""
        return await self._in_thread(self._player_ratings_now, player_id)

    def _player_ratings_now(self, player_id: str) -> dict[str, dict[str, Any]]:
        with self.engine.connect() as conn:
            found = conn.execute(select(ratings).where(ratings.c.player_id == player_id))
            return {r.form: rating_facts(r) for r in found}

    async def leaderboard(
        self, form: str, since: float | None, limit: int = 50
    ) -> list[dict[str, Any]]:
        """The best players of a form (no provisional rating), by their rating now; ``since``:
        only those who played a rated game of it since then."""
        return await self._in_thread(self._leaderboard_now, form, since, limit)

    def _leaderboard_now(self, form: str, since: float | None, limit: int) -> list[dict[str, Any]]:
        query = (
            select(ratings, players.c.name)
            .join(players, players.c.id == ratings.c.player_id)
            .where(ratings.c.form == form, ratings.c.games >= PROVISIONAL_GAMES)
        )
        if since is not None:
            recent = select(rating_events.c.player_id).where(
                rating_events.c.form == form, rating_events.c.at >= since
            )
            query = query.where(ratings.c.player_id.in_(recent))
        query = query.order_by((ratings.c.mu - 3 * ratings.c.sigma).desc()).limit(limit)
        with self.engine.connect() as conn:
            return [
                {"id": r.player_id, "name": r.name, **rating_facts(r)} for r in conn.execute(query)
            ]
