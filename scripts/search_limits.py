"""Where the strength of ``search`` comes from: variants of it against ``greedy``.

Each variant plays duplicate deals against ``greedy`` (each shuffle twice, seats
swapped, the same shuffles as ``conquian arena --seed S``) and prints one JSON line:
wins, losses, draws, the win rate over decided games and its 95% interval.

Variants (N is the number of sampled deals per candidate action):

* ``search:N``   the search bot as shipped, with budget N (no time limit);
* ``uniform:N``  the same, but drawing the opponent's hand uniformly (no inference);
* ``handset:N``  the same, its sampler's card weights the hand-set ones of before the learned
  chances (:func:`conquian.bots.search.hidden_card_weights`);
* ``posterior:N`` the same, but drawing ``greedy``'s hand from its exact chances, the best
  any hand model could guess it (:mod:`greedy_posterior`; right only against ``greedy``);
* ``joint:N``    the same, but each take judged by the best of its three likeliest discards
  after it, over the same sampled deals (the bot's own next decision searched with it);
* ``told:N``     the same, but told the opponent's true hand (the stock stays hidden);
* ``oracle:N``   the oracle: sees the opponent's hand and the stock order.

Example (about 2.5 minutes on 2 cores)::

    python scripts/search_limits.py search:20 uniform:20 told:20 --deals 2000 --seed 14

The ``told`` and ``oracle`` variants see hidden cards; they exist only here, for
measurement.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from multiprocessing import Pool

from greedy_posterior import greedy_hands

from conquian.actions import Action, ActionKind
from conquian.bots import make_bot
from conquian.bots.base import Bot, Budget
from conquian.bots.features import Knowledge, keep_score
from conquian.bots.search import (
    ROLLOUT_FEED_OUT_COST,
    HandModel,
    HandSampler,
    OracleBot,
    SearchBot,
    _clearly_better,
    _race,
    determinize,
    hidden_card_weights,
    rollout,
)
from conquian.cards import ALL_CARDS_MASK, mask_indices
from conquian.game import Game
from conquian.observation import Observation
from conquian.state import GameState, Phase
from conquian.tools.arena import derive_seed, wilson_interval


class UniformSearch(SearchBot):
    """``search`` without inference: every live card equally likely in the opponent's hand."""

    def opponent_hands(self, obs: Observation) -> Callable[[], int]:
        weights = dict.fromkeys(mask_indices(obs.unknown_mask), 1.0)
        model = HandModel(obs)
        model.refusals, model.discards, model.took = [], [], False  # explains nothing
        return HandSampler(obs, weights, model, self.rng).draw


class HandSetSearch(SearchBot):
    """``search`` whose sampler weighs the cards by the hand-set weights (a card less likely
    for each neighbour the opponent refused or discarded) instead of the learned chances."""

    def opponent_hands(self, obs: Observation) -> Callable[[], int]:
        weights = hidden_card_weights(Knowledge.from_observation(obs))
        return HandSampler(obs, weights, HandModel(obs), self.rng).draw


class PosteriorSearch(SearchBot):
    """``search`` drawing ``greedy``'s hand from its exact chances: every hand with which
    he would have played as he did, each equally likely (the chain starts at a hand drawn
    by the shipped sampler)."""

    def opponent_hands(self, obs: Observation) -> Callable[[], int]:
        start = super().opponent_hands(obs)()
        assert isinstance(start, int)
        return greedy_hands(obs, start, self.rng)


class ToldSearch(SearchBot):
    """``search`` told the opponent's hand; the stock order is still re-dealt each time."""

    sees_everything = True

    def act_with_state(self, obs: Observation, state: GameState) -> Action:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        hand = state.hands[1 - obs.viewer]
        return self._search(obs, self.candidates(obs), lambda: determinize(obs, hand, self.rng))


class JointSearch(SearchBot):
    """``search`` that judges each take by the best of its likeliest discards after it.

    Nothing is revealed between a take and its discard, so the discard chosen by its mean
    over the same sampled deals is a choice the bot could really make (not one per deal).
    The discards tried are the three that the rollouts' own rule likes best (the fewest
    partners, not fitting the next player's table); the discard itself is searched again
    when it is due."""

    per_take = 3

    def act(self, obs: Observation) -> Action:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        draw = self.opponent_hands(obs)

        def sample() -> GameState:
            return determinize(obs, draw(), self.rng)

        candidates = self.candidates(obs)
        if obs.phase not in (Phase.OFFER, Phase.TURN, Phase.FORCED):
            return self._search(obs, candidates, sample)
        probe = sample()  # a take's discards depend only on the bot's hand and the tables
        plans: list[tuple[Action, ...]] = []
        for action in candidates:
            after = probe.copy()
            after.apply_unchecked(action)
            if action.kind is not ActionKind.TAKE or after.phase is not Phase.DISCARD:
                plans.append((action,))
                continue
            plans += [(action, d) for d in likeliest_discards(after)[: self.per_take]]
        return self._search_plans(obs, plans, sample)[0]

    def _search_plans(
        self, obs: Observation, plans: list[tuple[Action, ...]], sample: Callable[[], GameState]
    ) -> tuple[Action, ...]:
        if len(plans) == 1:
            return plans[0]
        iterations = self.budget.iterations or 600
        results: list[list[float]] = [[] for _ in plans]
        active = list(range(len(plans)))
        rounds = rollouts = 0
        while True:
            state = sample()
            seed = self.rng.random()
            for i in active:
                child = state.copy()
                for action in plans[i]:
                    child.apply_unchecked(action)
                results[i].append(rollout(child, obs.viewer, random.Random(seed)))
            rounds += 1
            rollouts += len(active)
            if rounds % self.race_every == 0 and len(active) > 1:
                active = _race(results, active, self.race_margin)
            if len(active) == 1 or rollouts >= iterations * len(plans):
                break
        best = max(active, key=lambda i: (sum(results[i]), -i))
        first = plans[0][0]  # the heuristic's choice stays unless clearly beaten
        own = [i for i in active if plans[i][0] == first]
        if plans[best][0] != first and own:
            mine = max(own, key=lambda i: sum(results[i]))
            if not _clearly_better(results[best], results[mine], self.override_margin):
                best = mine
        return plans[best]


def likeliest_discards(state: GameState) -> list[Action]:
    """The legal discards, best first by the rollouts' own rule: the fewest live partners,
    and not a card that fits the next player's table (never one that lets him out)."""
    p = state.to_act
    hand = state.hands[p]
    nxt = (p + 1) % len(state.tables)
    melded = state.dead_mask
    for mask in state.table_masks:
        melded |= mask
    available = ALL_CARDS_MASK & ~melded
    valid = state.melds.valid

    def cost(action: Action) -> float:
        bit = 1 << action.card
        fits = any(m | bit in valid for m in state.tables[nxt])
        feed = (ROLLOUT_FEED_OUT_COST if not state.hands[nxt] else 2.0) if fits else 0.0
        return keep_score(action.card, hand, available) + feed

    return sorted(state.legal_actions(), key=cost)


VARIANTS: dict[str, type[SearchBot]] = {
    "joint": JointSearch,
    "search": SearchBot,
    "uniform": UniformSearch,
    "handset": HandSetSearch,
    "posterior": PosteriorSearch,
    "told": ToldSearch,
    "oracle": OracleBot,
}


def make_variant(spec: str, rng: random.Random) -> Bot:
    name, _, n = spec.partition(":")
    cls = VARIANTS[name]
    iterations = int(n) if n else cls.default_budget.iterations
    return cls(rng=rng, budget=Budget(iterations=iterations))


def play_deal(task: tuple[str, int, int]) -> list[int | None]:
    """Both games of one deal; for each, the variant's result (+1, -1, or None: draw)."""
    spec, seed, deal = task
    out: list[int | None] = []
    for game in (0, 1):
        g = Game("standard", seed=derive_seed(seed, "deal", deal), dealer=deal % 2)
        bots = [make_bot("greedy"), make_bot("greedy")]
        rng = random.Random(derive_seed(seed, "bot", deal, game, "a"))
        bots[game] = make_variant(spec, rng)
        for player in (0, 1):
            bots[player].new_deal(player, g.rules)
        while not g.state.is_over:
            player = g.state.to_act
            bot = bots[player]
            obs = g.observation(player)
            if bot.sees_everything:
                g.push(bot.act_with_state(obs, g.state.copy()))
            else:
                g.push(bot.act(obs))
        winner = g.state.winner
        out.append(None if winner is None else (1 if winner == game else -1))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", help="e.g. search:200 uniform:20 told:20 oracle:20")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first-deal", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    for spec in args.variants:
        if spec.partition(":")[0] not in VARIANTS:
            parser.error(f"unknown variant {spec!r}; known: {', '.join(VARIANTS)}")
    with Pool(args.jobs) as pool:
        for spec in args.variants:
            started = time.perf_counter()
            deals = range(args.first_deal - 1, args.first_deal - 1 + args.deals)
            wins = losses = draws = 0
            for results in pool.imap_unordered(play_deal, [(spec, args.seed, d) for d in deals]):
                for result in results:
                    if result is None:
                        draws += 1
                    elif result > 0:
                        wins += 1
                    else:
                        losses += 1
            decided = wins + losses
            low, high = wilson_interval(wins, decided)
            print(
                json.dumps(
                    {
                        "variant": spec,
                        "opponent": "greedy",
                        "seed": args.seed,
                        "deals": args.deals,
                        "wins": wins,
                        "losses": losses,
                        "draws": draws,
                        "win_rate": round(wins / decided, 4) if decided else None,
                        "ci95": [round(low, 4), round(high, 4)],
                        "seconds": round(time.perf_counter() - started, 1),
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
