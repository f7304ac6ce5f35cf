"""A match: a series of deals with dealer rotation, stakes and a running balance.

>>> match = Match("standard", seed=4)
>>> state = match.new_deal()
>>> state.stake
1
>>> match.deal_value(previous_draws=2)
3
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import NUM_RANKS, mask_indices
from .errors import ConquianError
from .game import Game
from .rules import DrawStake, FirstDealer, MatchKind, Rules, Scoring, find_rules
from .state import GameState, Outcome, shuffled_deck

CARD_POINTS = (15, 2, 3, 4, 5, 6, 7, 10, 10, 10)
"""Points of each rank (A, 2..7, J, Q, K) under ``scoring points``."""


def hand_points(mask: int) -> int:
    """Points of the cards in a hand under ``scoring points``.

    >>> from conquian.cards import parse_cards_mask
    >>> hand_points(parse_cards_mask("As 7h Kd"))
    32
    """
    return sum(CARD_POINTS[i % NUM_RANKS] for i in mask_indices(mask))


@dataclass(frozen=True, slots=True)
class DealResult:
    """One finished deal of a match."""

    number: int
    dealer: int
    outcome: Outcome
    value: int
    """Stake units (or points) the winner received; 0 for a draw."""
    seed: int


class Match:
    """Deals of one match, dealt from one seed, with the running balance.

    ``balance[p]`` is player p's net stake units (or, with points scoring, his points).
    """

    def __init__(self, rules: Rules | str = "standard", *, seed: int | None = None) -> None:
        self.rules = find_rules(rules)
        self.seed = seed
        self._rng = random.Random(seed)
        self.balance = [0, 0]
        self.results: list[DealResult] = []
        self.draws_in_a_row = 0
        self.first_dealer = self._choose_first_dealer()
        self.dealer = self.first_dealer
        self._deal_seed: int | None = None

    def _choose_first_dealer(self) -> int:
        if self.rules.first_dealer is FirstDealer.RANDOM:
            return self._rng.randrange(2)
        while True:  # low_cut: each player cuts a card, the lower rank deals
            deck = shuffled_deck(self._rng.randrange(2**32))
            cut0, cut1 = deck[0] % NUM_RANKS, deck[20] % NUM_RANKS
            if cut0 != cut1:
                return 0 if cut0 < cut1 else 1

    def deal_value(self, previous_draws: int | None = None) -> int:
        """Stake of the next deal, given the drawn deals just before it."""
        k = self.draws_in_a_row if previous_draws is None else previous_draws
        base = self.rules.base_stake
        mode = self.rules.draw_stake
        if mode is DrawStake.CARRY:
            return base * (1 + k)
        if mode is DrawStake.DOUBLE_NEXT:
            return base * (2 if k else 1)
        if mode is DrawStake.DOUBLE_COMPOUND:
            return base << k
        return base

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (a single-deal match ends at its first decided deal)."""
        kind = self.rules.match
        if kind is MatchKind.SINGLE_DEAL:
            return any(r.outcome.winner is not None for r in self.results)
        if kind is MatchKind.N_DEALS:
            return len(self.results) >= self.rules.match_target
        return max(self.balance) >= self.rules.match_target

    @property
    def leader(self) -> int | None:
        """The player ahead on balance, or None when level."""
        if self.balance[0] == self.balance[1]:
            return None
        return 0 if self.balance[0] > self.balance[1] else 1

    def new_deal(self) -> GameState:
        """Deal the next deal of the match."""
        return self.new_game().state

    def new_game(self, players: tuple[str, str] = ("player 0", "player 1")) -> Game:
        """The next deal as a :class:`Game` (with history, for records)."""
        if self.is_over:
            raise ConquianError("The match is over.")
        self._deal_seed = self._rng.randrange(2**63)
        return Game(
            self.rules,
            seed=self._deal_seed,
            dealer=self.dealer,
            stake=self.deal_value(),
            players=players,
        )

    def finish_deal(self, state: GameState) -> DealResult:
        """Settle a finished deal: pay the stake, rotate the dealer.

        :raises ConquianError: if the deal is not over.
        """
        outcome = state.outcome()
        if outcome is None or self._deal_seed is None:
            raise ConquianError("Only a finished deal of this match can be settled.")
        if state.dealer != self.dealer or state.stake != self.deal_value():
            raise ConquianError(
                "This deal does not belong to the match: its dealer or stake differs "
                f"(expected dealer {self.dealer}, stake {self.deal_value()})."
            )
        value = 0
        if outcome.winner is not None:
            if self.rules.scoring is Scoring.POINTS:
                value = hand_points(state.hands[1 - outcome.winner])
                self.balance[outcome.winner] += value
            else:
                value = state.stake
                self.balance[outcome.winner] += value
                self.balance[1 - outcome.winner] -= value
            self.draws_in_a_row = 0
        else:
            self.draws_in_a_row += 1
        result = DealResult(len(self.results) + 1, self.dealer, outcome, value, self._deal_seed)
        self.results.append(result)
        self._deal_seed = None
        self.dealer = 1 - self.dealer
        return result
