"""``search``: determinized Monte Carlo search, and the ``oracle`` that sees everything.

The search bot deals the cards it cannot see many times over, each time consistent
with everything it knows and drawn in proportion to how well the opponent's hand
(with three or four players, each other player's hand, by his own model) explains his play (a hand that could have melded a card he refused, that held a
lonelier card than one he discarded, or that still holds a meld he could have laid is
unlikely), plays every candidate action in each deal, finishes the deal with a fast
greedy policy for both players, and chooses the action with the best average result.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from ..actions import Action, ActionKind
from ..cards import ALL_CARDS_MASK, mask_indices
from ..melds import meld_table, partition_mask
from ..observation import Observation
from ..reasons import Reason
from ..sample import determinize
from ..state import GameState, Phase
from .base import Bot, Budget
from .features import (
    CLOSE,
    PARTNERS,
    THIRDS,
    Knowledge,
    Rival,
    keep_score,
)
from .hand_prior import card_chances
from .heuristic import HeuristicBot

REFUSED_NEIGHBOUR_WEIGHT = 0.6
"""Relative chance a card is in the opponent's hand, per card next to it that he refused."""
DISCARDED_NEIGHBOUR_WEIGHT = 0.8
"""The same, per card next to it that he discarded."""
CONFLICT_WEIGHT = 0.05
"""Relative odds of a sampled opponent hand, per refused card it could have melded."""
HELD_MELD_WEIGHT = 0.05
"""Relative odds of a sampled opponent hand that holds a whole meld he could have laid."""
HIDER_MELD_ODDS = 6.0
"""How much likelier a hand holding a whole meld is for a player who hides his melds."""
DISCARD_WEIGHT = 0.05
"""Relative odds of a sampled opponent hand, per card it held with fewer partners in the
hand than a card he chose to discard (he would rather have thrown that one)."""

ROLLOUT_FEED_OUT_COST = 100.0
"""Rollout cost of discarding a card that fits the table of a player with an empty hand
(he takes it and goes out), against 2.0 for a card that fits any other table."""

_FORCE = Action(ActionKind.FORCE)
_NO_FORCE = Action(ActionKind.NO_FORCE)


def rollout_action(state: GameState, rng: random.Random) -> Action:
    """A fast greedy choice for finishing a deal (uses only the mover's own hand).

    Takes whenever it can (going out first, else laying the most cards), forces when
    the opponent holds three cards or more, and discards the card with the fewest
    partners that does not fit the opponent's table (never, if it can help it, one that
    fits the table of an opponent with an empty hand, who would go out with it).
    """
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    p = state.to_act
    if phase is Phase.FORCE:
        return _FORCE if state.hands[state.offeree].bit_count() >= 3 else _NO_FORCE
    if phase is Phase.DISCARD:
        hand = state.hands[p]
        nxt = (p + 1) % len(state.tables)  # who is offered it first
        opp_table = state.tables[nxt]
        # a fitting card lets a player with an empty hand go out at once
        fit_cost = ROLLOUT_FEED_OUT_COST if not state.hands[nxt] else 2.0
        valid = state.melds.valid
        melded = state.dead_mask
        for mask in state.table_masks:
            melded |= mask
        available = ALL_CARDS_MASK & ~melded
        best = legal[0]
        best_cost = 1e9
        for action in legal:
            card = action.card
            bit = 1 << card
            cost = keep_score(card, hand, available) + rng.random() * 0.2
            for m in opp_table:
                if m | bit in valid:
                    cost += fit_cost
                    break
            if cost < best_cost:
                best_cost = cost
                best = action
        return best
    chosen: Action | None = None
    best_size = -1
    best_keep = -1.0
    hand = state.hands[p]
    available = 0
    for action in legal:
        if action.kind is not ActionKind.TAKE:
            continue
        laid = partition_mask(action.melds)
        rest = hand & ~laid
        if not rest:
            return action
        size = laid.bit_count()
        if size < best_size:
            continue
        if not available:
            melded = state.dead_mask
            for mask in state.table_masks:
                melded |= mask
            available = ALL_CARDS_MASK & ~melded
        keep = sum(keep_score(card, rest, available) for card in mask_indices(rest))
        if size > best_size or keep > best_keep:
            best_size = size
            best_keep = keep
            chosen = action
    if chosen is not None:
        return chosen
    for action in legal:
        if not action.melds:
            return action
    return legal[-1]


def rollout(state: GameState, player: int, rng: random.Random, limit: int = 400) -> float:
    """Finish a deal with :func:`rollout_action`; +1 if ``player`` wins, -1 if he loses."""
    over = Phase.OVER
    steps = 0
    while state.phase is not over and steps < limit:
        state.apply_unchecked(rollout_action(state, rng))
        steps += 1
    winner = state.winner
    if winner is None:
        return 0.0
    return 1.0 if winner == player else -1.0


def hidden_card_weights(k: Knowledge, rival: Rival | None = None) -> dict[int, float]:
    """Relative chance that each live card is in the opponent's hand (or ``rival``'s).

    Each card he refused or discarded makes the cards that would have melded with it
    less likely to be his.
    """
    refused, discarded = (
        (k.opp_refused, k.opp_discarded) if rival is None else (rival.refused, rival.discarded)
    )
    weights = dict.fromkeys(mask_indices(k.live), 1.0)
    for card in mask_indices(refused):
        for other in mask_indices(CLOSE[card] & k.live):
            weights[other] *= REFUSED_NEIGHBOUR_WEIGHT
    for card in mask_indices(discarded):
        for other in mask_indices(CLOSE[card] & k.live):
            weights[other] *= DISCARDED_NEIGHBOUR_WEIGHT
    return weights


def opponent_card_weights(obs: Observation) -> dict[int, float]:
    """Relative chance that each card the viewer has not seen is in the opponent's hand,
    with two players: the odds of the learned chances of :mod:`.hand_prior`."""
    weights = {}
    for card, p in card_chances(obs).items():
        p = min(max(p, 1e-6), 1.0 - 1e-6)
        weights[card] = p / (1.0 - p)
    return weights


def melds_with_pair(card: int, hand: int) -> bool:
    """Whether two cards of ``hand`` make a meld with ``card``."""
    partners = PARTNERS[card] & hand
    if partners.bit_count() < 2:
        return False
    row = THIRDS[card]
    return any(row[a] & partners for a in mask_indices(partners))


def refusal_conflicts(hand: int, refused: int) -> int:
    """How many refused cards ``hand`` could have melded with two of its own cards."""
    return sum(melds_with_pair(card, hand) for card in mask_indices(refused))


class HandModel:
    """How likely a hand is for the opponent (or ``player``), given what his play revealed.

    Hands never gain cards after the deal, so the hand he held at any earlier moment is
    his hand now plus the cards he has laid or discarded since.  A hand is less likely if,
    at a moment he refused a card, it held two cards that would have melded with it
    (:data:`CONFLICT_WEIGHT` each); if, when he discarded, it held cards less connected
    than the one he threw (:data:`DISCARD_WEIGHT` each); or if it holds a whole meld
    although he has taken cards since the deal and could have laid it
    (:data:`HELD_MELD_WEIGHT`).

    ``hidden_melds`` is the share of players taken to keep whole melds in hand on purpose,
    who lay only what a take needs and the rest to go out: for them a hand holding a whole
    meld is :data:`HIDER_MELD_ODDS` times likelier.  The odds of such a hand are those of the
    mixture of the two styles, until the player lays a meld that his take did not need (he
    is then no hider).

    >>> from conquian.game import Game
    >>> obs = Game(seed=4).observation(0)
    >>> HandModel(obs).held_meld_odds, HandModel(obs, hidden_melds=0.5).held_meld_odds
    (1.0, 3.5)
    """

    def __init__(
        self, obs: Observation, player: int | None = None, *, hidden_melds: float = 0.0
    ) -> None:
        opp = obs.opponent if player is None else player
        self.refusals: list[tuple[int, int]] = []
        """(refused card, cards the hand held then besides today's)"""
        self.discards: list[tuple[int, int]] = []
        """(discarded card, cards the hand held then besides today's and that card)"""
        self.took = False
        self.laid_unneeded = False
        """Whether he laid, with a card taken, a meld that the card did not need."""
        left = 0
        tables_before: list[int] = []
        table = 0
        for event in obs.history:
            tables_before.append(table)
            kind = event.action.kind
            if kind is ActionKind.LAYOFF:  # a card laid on his table came from the centre
                if event.action.seat == opp:
                    table |= 1 << event.card
            elif event.player == opp and event.action.melds:
                table = partition_mask(event.action.melds)
        for event, before in zip(reversed(obs.history), reversed(tables_before), strict=True):
            if event.player != opp:
                continue
            kind = event.action.kind
            if kind is ActionKind.DISCARD:
                self.discards.append((event.card, left))
                left |= 1 << event.card
                continue
            if kind is ActionKind.LAYOFF:  # the centre card went on another table
                continue
            if event.action.melds:
                laid = partition_mask(event.action.melds) & ~before
                if kind is ActionKind.TAKE:
                    laid &= ~(1 << event.card)
                    self.took = True
                    needed = next(m for m in event.action.melds if m >> event.card & 1)
                    self.laid_unneeded |= bool(laid & ~needed)
                left |= laid
            if kind in (ActionKind.DECLINE, ActionKind.PASS):
                self.refusals.append((event.card, left))
        self.melds = meld_table(obs.rules.max_seq_len)
        share = 0.0 if self.laid_unneeded else hidden_melds
        layer = HELD_MELD_WEIGHT if self.took else 1.0
        self.held_meld_odds = (1.0 - share) * layer + share * HIDER_MELD_ODDS
        """The odds of a hand that holds a whole meld, against one that does not."""

    def odds(self, hand: int) -> float:
        """Relative likelihood of ``hand`` as the opponent's current hand."""
        odds = 1.0
        for card, left in self.refusals:
            if melds_with_pair(card, hand | left):
                odds *= CONFLICT_WEIGHT
        for card, left in self.discards:
            held = hand | left | 1 << card
            thrown = (PARTNERS[card] & held).bit_count()
            for other in mask_indices(held & ~(1 << card)):
                if (PARTNERS[other] & held).bit_count() < thrown:
                    odds *= DISCARD_WEIGHT
        if self.held_meld_odds != 1.0 and self.melds.melds_within(hand):
            odds *= self.held_meld_odds
        return odds


class HandSampler:
    """Draws opponent hands in proportion to their likelihood under a :class:`HandModel`.

    A Markov chain over hands (Metropolis): each step proposes swapping a card of the
    current hand for a live card outside it and accepts in proportion to the change of
    likelihood, the product of the cards' ``weights`` and the model's odds.  Between two
    draws the chain takes ``steps`` steps, after ``burn_in`` steps at the start.

    >>> from conquian.game import Game
    >>> game = Game(seed=4)
    >>> obs = game.observation(0)
    >>> sampler = HandSampler(obs, hidden_card_weights(Knowledge.from_observation(obs)),
    ...                       HandModel(obs), random.Random(1))
    >>> hand = sampler.draw()
    >>> hand.bit_count(), hand & obs.hand_mask
    (10, 0)
    """

    def __init__(
        self,
        obs: Observation,
        weights: dict[int, float],
        model: HandModel,
        rng: random.Random,
        *,
        steps: int = 15,
        burn_in: int = 60,
    ) -> None:
        self.count = obs.hand_counts[obs.opponent]
        self.weights = weights
        self.model = model
        self.rng = rng
        self.steps = steps
        keyed = sorted(
            ((rng.random() ** (1.0 / w), card) for card, w in weights.items()), reverse=True
        )
        self.inside = [card for _, card in keyed[: self.count]]
        self.outside = [card for _, card in keyed[self.count :]]
        self.hand = 0
        for card in self.inside:
            self.hand |= 1 << card
        self.odds = model.odds(self.hand)
        self._walk(burn_in)

    def _walk(self, steps: int) -> None:
        if not self.inside or not self.outside:
            return
        rng = self.rng
        weights = self.weights
        inside, outside = self.inside, self.outside
        for _ in range(steps):
            i = rng.randrange(len(inside))
            j = rng.randrange(len(outside))
            a, b = inside[i], outside[j]
            hand = self.hand ^ (1 << a) ^ (1 << b)
            odds = self.model.odds(hand)
            ratio = weights[b] / weights[a] * (odds / self.odds if self.odds > 0 else 1.0)
            if ratio >= 1.0 or rng.random() < ratio:
                inside[i], outside[j] = b, a
                self.hand, self.odds = hand, odds

    def draw(self) -> int:
        """The next sampled opponent hand, as a mask."""
        self._walk(self.steps)
        return self.hand


class HandsSampler:
    """Draws the hands of every other player together, each in proportion to its
    likelihood under that player's own :class:`HandModel` and card weights.

    A Markov chain (Metropolis) over the split of the unseen cards between the other
    players and the stock: each step swaps a card of one player's hand with a card held
    by another player or left in the stock, and accepts in proportion to the change of
    the product of both hands' likelihoods.  A card the viewer passed in the exchange
    that has not been seen since stays in the next seat's hand.

    >>> from conquian.game import Game
    >>> game = Game("tercerilla", seed=4)
    >>> obs = game.observation(0)
    >>> hands = HandsSampler(obs, random.Random(1)).draw()
    >>> sorted(hands), [h.bit_count() for h in hands.values()], any(h & obs.hand_mask for h in hands.values())
    ([1, 2], [8, 8], False)
    """

    def __init__(
        self,
        obs: Observation,
        rng: random.Random,
        *,
        steps: int = 15,
        burn_in: int = 60,
        hidden_melds: float = 0.0,
    ) -> None:
        k = Knowledge.from_observation(obs)
        self.rng = rng
        self.steps = steps
        self.players = [r.player for r in k.rivals]
        self.weights = [hidden_card_weights(k, r) for r in k.rivals]
        self.models = [HandModel(obs, r.player, hidden_melds=hidden_melds) for r in k.rivals]
        pinned = [0] * len(self.players)
        pool = k.live
        if obs.passed >= 0 and obs.phase is not Phase.EXCHANGE and pool >> obs.passed & 1:
            pinned[0] = 1 << obs.passed  # the card passed is still with the next seat
            pool &= ~pinned[0]
        self.pinned = pinned
        free = list(mask_indices(pool))
        rng.shuffle(free)
        self.groups: list[list[int]] = []
        for i, rival in enumerate(k.rivals):
            count = max(0, rival.hand_count - pinned[i].bit_count())
            weights = self.weights[i]
            keyed = sorted(((rng.random() ** (1.0 / weights[c]), c) for c in free), reverse=True)
            chosen = [c for _, c in keyed[:count]]
            taken = set(chosen)
            free = [c for c in free if c not in taken]
            self.groups.append(chosen)
        self.groups.append(free)  # the stock
        self.hands = [self._mask(i) for i in range(len(self.players))]
        self.odds = [m.odds(h) for m, h in zip(self.models, self.hands, strict=True)]
        self.size = sum(len(g) for g in self.groups)
        self._walk(burn_in)

    def _mask(self, i: int) -> int:
        mask = self.pinned[i]
        for card in self.groups[i]:
            mask |= 1 << card
        return mask

    def _walk(self, steps: int) -> None:
        rng = self.rng
        groups = self.groups
        stock = len(self.players)
        movable = [i for i in range(stock) if groups[i]]
        if not movable:
            return
        for _ in range(steps):
            i = movable[rng.randrange(len(movable))]
            outside = self.size - len(groups[i])
            if not outside:
                continue
            x = rng.randrange(len(groups[i]))
            y = rng.randrange(outside)
            for j, group in enumerate(groups):
                if j == i:
                    continue
                if y < len(group):
                    break
                y -= len(group)
            a, b = groups[i][x], groups[j][y]
            hand_i = self.hands[i] ^ (1 << a) ^ (1 << b)
            odds_i = self.models[i].odds(hand_i)
            ratio = self.weights[i][b] / self.weights[i][a] * _odds_ratio(odds_i, self.odds[i])
            if j < stock:
                hand_j = self.hands[j] ^ (1 << a) ^ (1 << b)
                odds_j = self.models[j].odds(hand_j)
                ratio *= self.weights[j][a] / self.weights[j][b] * _odds_ratio(odds_j, self.odds[j])
            if ratio >= 1.0 or rng.random() < ratio:
                groups[i][x], groups[j][y] = b, a
                self.hands[i], self.odds[i] = hand_i, odds_i
                if j < stock:
                    self.hands[j], self.odds[j] = hand_j, odds_j

    def draw(self) -> dict[int, int]:
        """The next sampled hands, by player."""
        self._walk(self.steps)
        return dict(zip(self.players, self.hands, strict=True))


def _odds_ratio(new: float, old: float) -> float:
    return new / old if old > 0 else 1.0


def _clearly_better(a: list[float], b: list[float], margin: float) -> bool:
    """Whether paired results ``a`` beat ``b`` by more than ``margin`` standard errors."""
    diffs = [x - y for x, y in zip(a, b, strict=False)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return bool(mean > margin * math.sqrt(var / n))


def _race(results: list[list[float]], active: list[int], margin: float) -> list[int]:
    """Drop candidates whose paired results trail the leader's by ``margin`` standard errors."""
    leader = max(active, key=lambda i: sum(results[i]))
    lead = results[leader]
    keep = []
    for i in active:
        if i == leader:
            keep.append(i)
            continue
        diffs = [a - b for a, b in zip(lead, results[i], strict=False)]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        if mean <= margin * math.sqrt(var / n):
            keep.append(i)
    return keep


class SearchBot(Bot):
    """Determinized (PIMC) search with greedy rollouts and inference from the opponent's play."""

    name = "search"
    default_budget = Budget(iterations=600, seconds=0.8)
    max_candidates = 5
    race_every = 8
    """Rounds between checks that drop clearly worse candidates."""
    race_margin = 2.0
    """Standard errors by which a candidate must trail the leader to be dropped."""
    override_margin = 1.0
    """Standard errors by which the search must beat the heuristic's choice to overrule it."""
    hidden_melds = 0.1
    """Share of opponents its hand model takes to keep whole melds hidden (:class:`HandModel`),
    until one lays a meld his take did not need: against ``greedy`` (300 duplicate deals) and
    the meld hider (150) it won as often as with none, 343 and 153 games against 341 and 151,
    so it assumes no one style at no measured cost."""

    def __init__(self, *, rng: random.Random | None = None, budget: Budget | None = None) -> None:
        super().__init__(rng=rng, budget=budget)
        self._heuristic = HeuristicBot(rng=self.rng)

    def candidates(self, obs: Observation) -> list[Action]:
        """The legal actions worth searching, the heuristic's choice first."""
        ranked = self._heuristic.rank(obs)
        return [action for _, action in ranked[: self.max_candidates]]

    def act(self, obs: Observation) -> Action:
        legal = obs.legal_actions
        if len(legal) == 1:
            self.why = self._heuristic.explain(obs, legal[0])._replace(
                key="only_legal", action=legal[0]
            )
            return legal[0]
        rng = self.rng
        draw = self.opponent_hands(obs)
        return self._search(obs, self.candidates(obs), lambda: determinize(obs, draw(), rng))

    def opponent_hands(self, obs: Observation) -> Callable[[], int | dict[int, int]]:
        """A source of opponent hands drawn in proportion to how well they explain his play:
        with two players the opponent's hand (a mask); with more, every other player's
        hand, each by his own model (masks by player)."""
        share = self.hidden_melds
        if len(obs.tables) > 2:
            return HandsSampler(obs, self.rng, hidden_melds=share).draw
        model = HandModel(obs, hidden_melds=share)
        return HandSampler(obs, opponent_card_weights(obs), model, self.rng).draw

    def _search(
        self, obs: Observation, candidates: list[Action], sample: Callable[[], GameState]
    ) -> Action:
        if len(candidates) == 1:
            self.why = Reason("only_worth")
            return candidates[0]
        budget = self.budget
        deadline = budget.deadline()
        count = len(candidates)
        rollout_limit = None if budget.iterations is None else budget.iterations * count
        results: list[list[float]] = [[] for _ in candidates]
        active = list(range(count))
        rounds = rollouts = 0
        player = obs.viewer
        rng = self.rng
        while True:
            state = sample()
            seed = rng.random()
            for i in active:
                child = state.copy()
                child.apply_unchecked(candidates[i])
                results[i].append(rollout(child, player, random.Random(seed)))
            rounds += 1
            rollouts += len(active)
            if rounds % self.race_every == 0 and len(active) > 1:
                active = _race(results, active, self.race_margin)
            if len(active) == 1:
                break
            if rollout_limit is not None and rollouts >= rollout_limit:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        best = max(active, key=lambda i: (sum(results[i]), -i))
        if (
            best != 0
            and 0 in active
            and not _clearly_better(results[best], results[0], self.override_margin)
        ):
            best = 0
        action = candidates[best]
        mean = sum(results[best]) / len(results[best])
        rounds = len(results[best])
        self.why = self._reason(obs, candidates, results, best)._replace(
            key="searched", card=obs.centre, action=action, mean=mean, deals=rounds
        )
        return action

    def _reason(
        self, obs: Observation, candidates: list[Action], results: list[list[float]], best: int
    ) -> Reason:
        """Why the search's choice is good, in plain data, with the second-best candidate
        and how much less likely to win it is (half the gap of the mean results, which run
        from -1 to +1)."""
        why = self._heuristic.explain(obs, candidates[best])
        means = {i: sum(r) / len(r) for i, r in enumerate(results) if r and i != best}
        if not means:
            return why
        second = max(means, key=lambda i: (means[i], -i))
        drop = max(0.0, (sum(results[best]) / len(results[best]) - means[second]) / 2)
        action = candidates[second]
        laid = partition_mask(action.melds) & obs.hand_mask  # none for a layoff
        return why._replace(second=action, second_laid=laid, drop=drop)


class OracleBot(SearchBot):
    """Sees every card, including the opponent's hand and the stock order.

    Used only to measure how far the other bots are from perfect-information play;
    never offered as an opponent.
    """

    name = "oracle"
    sees_everything = True
    default_budget = Budget(iterations=200, seconds=0.8)
    """Kept at 200 when the search's default rose to 600, so that the oracle rows stay comparable."""

    def act(self, obs: Observation) -> Action:
        raise RuntimeError("The oracle bot must be given the full state (act_with_state).")

    def act_with_state(self, obs: Observation, state: GameState) -> Action:
        legal = obs.legal_actions
        if len(legal) == 1:
            self.why = Reason("only_legal")
            return legal[0]
        return self._search(obs, self.candidates(obs), state.copy)
