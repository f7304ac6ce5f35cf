"""``heuristic``: a fast rule-based player that remembers and weighs what it has seen.

It always values melding highly (taking is tempo), keeps the hand cards that still
have live ways to complete a meld, discards the card it needs least that helps the
opponent least (never, if it can help it, one that fits the opponent's table),
forces when that hurts the opponent, and picks the table arrangement that leaves it
least forceable.
"""

from __future__ import annotations

from ..actions import Action, ActionKind
from ..cards import mask_indices
from ..melds import MeldTable, Partition, meld_table, partition_mask
from ..observation import Observation
from ..reasons import Reason
from ..state import Phase, Source
from .base import Bot
from .features import FEED_OUT_DANGER, Knowledge, direct_fit_mask, discard_danger, keep_score

WIN = 1000.0


class HeuristicBot(Bot):
    """Rule-based play on keep scores, discard danger and forcing risk (well under 1 ms a move)."""

    name = "heuristic"
    table_weight = 8.0
    """Worth of a melded card relative to the keep scores of hand cards."""
    force_risk = 0.3
    """Cost of each live card that would fit the table directly (and so could be forced)."""
    danger_weight = 1.0
    """Weight of how much a discarded or passed card may help the opponent."""
    stock_option = 0.55
    """Share of a melded card that a useful stock card is worth when declining."""
    layoff_gift = 0.5
    """(``layoff_on_opponent``) Cost of laying the centre card on another player's meld, beside
    the live cards it makes fit there: a take that only extends one's own meld is better."""
    slip = 0.0
    """Chance, at each decision with a choice, of a newcomer's slip (the lower levels): a
    take missed, a careless discard, a force forgotten; never one that loses the deal at
    once (a take that goes out missed, a card thrown or passed that lets an opponent out)."""

    def act(self, obs: Observation) -> Action:
        if len(obs.legal_actions) == 1:
            self.why = Reason("only_legal")
            return obs.legal_actions[0]
        ranked = self.rank(obs)
        if self.slip and self.rng.random() < self.slip:
            slipped = self._slip(obs, ranked)
            if slipped is not None:
                self.why = None  # a slip has no reason to give
                return slipped
        return ranked[0][1]

    def _slip(self, obs: Observation, ranked: list[tuple[float, Action]]) -> Action | None:
        """A newcomer's mistake instead of the best of ``ranked``, or None if none is harmless
        enough: a take that does not go out missed (the best other choice instead; half as often
        as the other slips, since a missed take mostly makes a deal longer), a discard
        at random among those that let no one out, a force left out."""
        best_value, best = ranked[0]
        sane = [action for value, action in ranked if value > best_value - FEED_OUT_DANGER / 2]
        if obs.phase in (Phase.DISCARD, Phase.EXCHANGE):
            return self.rng.choice(sane)
        if obs.phase is Phase.FORCE:
            return Action(ActionKind.NO_FORCE) if best.kind is ActionKind.FORCE else None
        if (best.kind is not ActionKind.TAKE and not best.melds) or best_value >= WIN:
            return None
        if self.rng.random() < 0.5:  # a take is missed half as often as a discard is careless
            return None
        return next((a for a in sane if a.kind is not ActionKind.TAKE and not a.melds), None)

    def rank(self, obs: Observation) -> list[tuple[float, Action]]:
        """Every legal action with its value, best first; sets :attr:`reason` for the best."""
        melds = meld_table(obs.rules.max_seq_len)
        k = Knowledge.from_observation(obs)
        if obs.phase in (Phase.DISCARD, Phase.EXCHANGE):
            # the exchange gives a card to the next seat as a discard offers it to him first:
            # the card it needs least that helps him least
            ranked = self._rank_discards(obs, k, melds)
        elif obs.phase is Phase.FORCE:
            ranked = self._rank_force(obs, k, melds)
        else:
            ranked = self._rank_takes(obs, k, melds)
        return ranked

    # --------------------------------------------------------------- values

    def hand_score(self, hand: int, live: int) -> float:
        """How well a hand holds together: the sum of its cards' keep scores."""
        available = hand | live
        return sum(keep_score(card, hand, available) for card in mask_indices(hand))

    def table_value(self, k: Knowledge, melds: MeldTable, table: Partition, hand: int) -> float:
        """Value of a table and the hand beside it."""
        return (
            self.table_weight * partition_mask(table).bit_count()
            + self.hand_score(hand, k.live)
            - self.force_risk * direct_fit_mask(melds, table, k.live).bit_count()
        )

    def take_value(self, k: Knowledge, melds: MeldTable, action: Action) -> tuple[float, int]:
        """Value of a take after its best discard, and that discard (-1 if it goes out)."""
        hand = k.hand & ~partition_mask(action.melds)
        if not hand:
            return WIN, -1
        discard = self.best_discard(k, melds, hand)
        value = self.table_value(k, melds, action.melds, hand & ~(1 << discard))
        return value - self.danger_weight * discard_danger(k, melds, discard), discard

    def layoff_value(
        self, obs: Observation, k: Knowledge, melds: MeldTable, action: Action
    ) -> float:
        """Value of laying the centre card on another player's meld (``layoff_on_opponent``):
        the player's table stays, and he pays his best discard, one card fewer to go out, as
        after a take that lays nothing from the hand; less what the longer meld gives its
        owner (live cards that fit it now, worth much more to a player with an empty hand,
        who goes out with any of them)."""
        hand = k.hand
        discard = self.best_discard(k, melds, hand)
        value = self.table_value(k, melds, k.my_table, hand & ~(1 << discard))
        value += self.table_weight - self.danger_weight * discard_danger(k, melds, discard)
        meld = action.melds[0]
        longer = meld | 1 << obs.centre
        new_fits = direct_fit_mask(melds, (longer,), k.live) & ~direct_fit_mask(
            melds, (meld,), k.live
        )
        empty = obs.hand_counts[action.seat] == 0
        per_fit = FEED_OUT_DANGER / 20 if empty else self.force_risk
        return value - self.layoff_gift - per_fit * new_fits.bit_count()

    def discard_cost(self, k: Knowledge, melds: MeldTable, hand: int, card: int) -> float:
        """What discarding ``card`` from ``hand`` costs (lower is better)."""
        return (
            keep_score(card, hand, hand | k.live)
            + self.danger_weight * discard_danger(k, melds, card)
            - 0.01 * (card % 10)
        )

    def best_discard(self, k: Knowledge, melds: MeldTable, hand: int) -> int:
        """The hand card to discard: the least connected, least useful to the opponent."""
        return min(mask_indices(hand), key=lambda card: self.discard_cost(k, melds, hand, card))

    def stock_chance(self, k: Knowledge, melds: MeldTable) -> float:
        """Expected worth of turning a stock card instead of taking."""
        if not k.stock_count or not k.live:
            return 0.0
        own = k.hand | partition_mask(k.my_table)
        useful = direct_fit_mask(melds, k.my_table, k.live)
        for meld in melds.melds_within(own | k.live):
            missing = meld & ~own
            if missing.bit_count() == 1 and meld & k.hand:
                useful |= missing
        return self.table_weight * self.stock_option * useful.bit_count() / k.live.bit_count()

    # -------------------------------------------------------------- ranking

    def _rank_takes(
        self, obs: Observation, k: Knowledge, melds: MeldTable
    ) -> list[tuple[float, Action]]:
        centre = obs.centre
        hold = self.table_value(k, melds, k.my_table, k.hand)
        scored: list[tuple[float, int, Action]] = []
        for index, action in enumerate(obs.legal_actions):
            if action.kind is ActionKind.TAKE:
                value, _ = self.take_value(k, melds, action)
            elif action.kind is ActionKind.LAYOFF:  # on another player's meld (variant)
                value = self.layoff_value(obs, k, melds, action)
            elif action.melds:  # lay cards from hand, then pass (variant)
                hand = k.hand & ~partition_mask(action.melds)
                value = self.table_value(k, melds, action.melds, hand)
                value -= self.danger_weight * discard_danger(k, melds, centre)
            elif action.kind is ActionKind.DECLINE:
                value = hold + self.stock_chance(k, melds)
            else:  # pass one's own turned card: it is offered to the opponent
                value = hold - self.danger_weight * discard_danger(k, melds, centre)
            scored.append((value, -index, action))
        scored.sort(reverse=True)
        best_value, _, best = scored[0]
        if best.kind is ActionKind.TAKE:
            self.why = Reason("take_goes_out" if best_value >= WIN else "take_best", card=centre)
        elif best.kind is ActionKind.LAYOFF:
            self.why = Reason("layoff_best", card=centre)
        elif best.melds:
            self.why = Reason("lay_then_pass")
        else:
            self.why = Reason("not_worth_taking", card=centre)
        return [(value, action) for value, _, action in scored]

    def _rank_discards(
        self, obs: Observation, k: Knowledge, melds: MeldTable
    ) -> list[tuple[float, Action]]:
        scored = sorted(
            (self.discard_cost(k, melds, k.hand, a.card), a.card, a) for a in obs.legal_actions
        )
        best = scored[0][2]
        assert best.card >= 0
        if any(r.table and direct_fit_mask(melds, r.table, k.hand) == k.hand for r in k.rivals):
            self.why = Reason("all_fit_others", card=best.card)
        else:
            self.why = Reason("needs_least", card=best.card)
        return [(-cost, action) for cost, _, action in scored]

    def _rank_force(
        self, obs: Observation, k: Knowledge, melds: MeldTable
    ) -> list[tuple[float, Action]]:
        force, no_force = Action(ActionKind.FORCE), Action(ActionKind.NO_FORCE)
        centre = obs.centre
        decision = force
        forced = obs.offeree if len(obs.tables) > 2 else obs.opponent  # who would be forced
        forced_count = obs.hand_counts[forced]
        if forced_count == 0:
            self.why = Reason("force_lets_out")
            decision = no_force
        elif obs.source is Source.TURNED and self._wants(k, melds, centre):
            self.why = Reason("wants_card", card=centre)
            decision = no_force
        elif forced_count <= 2:
            self.why = Reason("opponent_close")
            decision = no_force
        else:
            self.why = Reason("force_breaks_hand")
        other = no_force if decision is force else force
        return [(1.0, decision), (0.0, other)]

    # ------------------------------------------------------------ explaining

    def explain(self, obs: Observation, action: Action) -> Reason:
        """Why ``action`` is a good move at ``obs``, as plain data a sentence is made of
        (:attr:`Reason.because`, the meld it makes, the cards left to go out); any legal
        action may be explained, not only the one this bot would choose."""
        kind = action.kind
        centre = obs.centre
        table = partition_mask(obs.tables[obs.viewer])
        if kind is ActionKind.TAKE:
            after = partition_mask(action.melds)
            to_go = (obs.hand_mask & ~after).bit_count()  # what is left to lay
            meld = next((m for m in action.melds if m >> centre & 1), 0)
            because = "goes_out" if not obs.hand_mask & ~after else "completes"
            return Reason("explained", card=centre, because=because, meld=meld, to_go=to_go)
        if kind is ActionKind.LAYOFF:  # on another player's meld, then pay
            meld = action.melds[0] | 1 << centre if action.melds else 0
            return Reason("explained", card=centre, because="lays_off", meld=meld)
        if kind is ActionKind.PASS and action.melds:  # lay from the hand, then pass
            after = partition_mask(action.melds)
            to_go = (obs.hand_mask & ~after).bit_count() + 1
            return Reason(
                "explained", card=centre, because="lays", meld=after & ~table, to_go=to_go
            )
        if kind in (ActionKind.DECLINE, ActionKind.PASS):
            fits = any(a.kind is ActionKind.TAKE for a in obs.legal_actions)
            return Reason("explained", card=centre, because="waits" if fits else "fits_nothing")
        if kind in (ActionKind.DISCARD, ActionKind.EXCHANGE):
            melds = meld_table(obs.rules.max_seq_len)
            k = Knowledge.from_observation(obs)
            hand = k.hand
            all_fit = kind is ActionKind.DISCARD and any(
                r.table and direct_fit_mask(melds, r.table, hand) == hand for r in k.rivals
            )
            because = "all_fit_others" if all_fit else "needs_least"
            return Reason("explained", card=action.card, because=because)
        forced = obs.offeree if len(obs.tables) > 2 else obs.opponent
        if kind is ActionKind.FORCE:
            return Reason("explained", card=centre, because="force_breaks_hand")
        if obs.hand_counts[forced] == 0:
            because = "force_lets_out"
        elif obs.hand_counts[forced] <= 2:
            because = "opponent_close"
        else:
            because = "wants_card" if obs.source is Source.TURNED else "no_gain"
        return Reason("explained", card=centre, because=because)

    def _wants(self, k: Knowledge, melds: MeldTable, centre: int) -> bool:
        options = melds.partitions(partition_mask(k.my_table) | 1 << centre, k.hand)
        if not options:
            return False
        hold = self.table_value(k, melds, k.my_table, k.hand)
        return max(self.take_value(k, melds, Action.take(p))[0] for p in options) > hold
