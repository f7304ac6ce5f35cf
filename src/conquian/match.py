"""A match: a series of deals with dealer rotation, stakes and a running balance.

A :class:`Match` deals its deals from one seed and keeps each as a
:class:`~conquian.game.Game` (with its history), so the whole match can be saved as a
:class:`~conquian.records.MatchRecord` and set up again.

>>> match = Match("standard", seed=4)
>>> state = match.new_deal()
>>> state.stake
1
>>> match.deal_value(previous_draws=2)
3
>>> game = match.deal
>>> while not game.state.is_over:
...     game.push(game.legal_actions()[-1])
>>> match.would_end(game.state.outcome()), match.settle().number, match.deal is None
(False, 1, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import NUM_CARDS, NUM_RANKS, mask_indices
from .errors import ConquianError
from .fair import FairShuffle
from .game import Game
from .rules import MAX_STAKE, DrawStake, FirstDealer, MatchKind, Rules, Scoring, find_rules
from .state import GameState, Outcome, shuffled_deck

"""Seats at the table (the two-player game)."""

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

    def __init__(
        self,
        rules: Rules | str = "standard",
        *,
        seed: int | None = None,
        players: Sequence[str] | None = None,
    ) -> None:
        self.rules = find_rules(rules)
        self.seed = seed
        n = self.rules.num_players
        if players is None:
            players = [f"player {p}" for p in range(n)]
        self.players: tuple[str, ...] = tuple(players)
        """The players' names, seat 0 first (given to each deal's :class:`Game`)."""
        self._rng = random.Random(seed)
        self.balance = [0] * n
        self.results: list[DealResult] = []
        self.games: list[Game] = []
        """Every deal dealt, in order: the finished ones, then the deal in play (if any)."""
        self.deal: Game | None = None
        """The deal in play: dealt by :meth:`new_game` and not yet settled."""
        self.draws_in_a_row = 0
        self.abandoned_by: int | None = None
        """The player who left the match unfinished (see :meth:`abandon`), or None."""
        self.first_dealer = self._choose_first_dealer()
        self.dealer = self.first_dealer
        self._deal_seed: int | None = None

    def dealer_of(self, number: int) -> int:
        """The seat that deals deal ``number`` (1 for the first): the dealer turns round
        the table one seat a deal, from the first dealer, so it is known before any deal."""
        return (self.first_dealer + number - 1) % self.rules.num_players

    def _choose_first_dealer(self) -> int:
        n = self.rules.num_players
        if self.rules.first_dealer is FirstDealer.RANDOM:
            return self._rng.randrange(n)
        while True:  # low_cut: each player cuts a card, the lowest rank deals (a tie cuts again)
            deck = shuffled_deck(self._rng.randrange(2**32))
            cuts = [deck[p * NUM_CARDS // n] % NUM_RANKS for p in range(n)]
            low = min(cuts)
            if cuts.count(low) == 1:
                return cuts.index(low)

    def deal_value(self, previous_draws: int | None = None) -> int:
        """Stake of the next deal, given the drawn deals just before it: at most
        :data:`~conquian.rules.MAX_STAKE`, where draws that would raise it further leave it.

        >>> match = Match("standard,draw_stake=double_compound,base_stake=3", seed=1)
        >>> match.deal_value(previous_draws=2), match.deal_value(previous_draws=100) == MAX_STAKE
        (12, True)
        """
        k = self.draws_in_a_row if previous_draws is None else previous_draws
        base = self.rules.base_stake
        mode = self.rules.draw_stake
        if mode is DrawStake.CARRY:
            value = base * (1 + k)
        elif mode is DrawStake.DOUBLE_NEXT:
            value = base * (2 if k else 1)
        elif mode is DrawStake.DOUBLE_COMPOUND:
            value = base << min(k, MAX_STAKE.bit_length())
        else:
            value = base
        return min(value, MAX_STAKE)

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (a single-deal match ends at its first decided deal),
        or a player abandoned it."""
        return self.abandoned_by is not None or self._ends(self.results, self.balance)

    def abandon(self, player: int) -> None:
        """End the match unfinished because ``player`` left it: the deal in play stays as it
        was (undecided, its hands unshown), and the match is over with him last.

        >>> match = Match("standard", seed=4)
        >>> _ = match.new_deal()
        >>> match.abandon(1)
        >>> match.is_over, match.abandoned_by, match.places()
        (True, 1, [1, 2])

        :raises ConquianError: if the match is over already or there is no such player.
        """
        if self.is_over:
            raise ConquianError("The match is over.")
        if not 0 <= player < self.rules.num_players:
            raise ConquianError(f"There is no player {player} in this match.")
        self.abandoned_by = player

    def places(self) -> list[int]:
        """Each player's place in the match (1 first; equal balances share a place), the
        player who abandoned it last.

        >>> match = Match("tercerilla", seed=1)
        >>> match.balance = [2, -1, -1]
        >>> match.places()
        [1, 2, 2]
        """
        scores = [(0 if p != self.abandoned_by else 1, -b) for p, b in enumerate(self.balance)]
        return [1 + sum(other < mine for other in scores) for mine in scores]

    def _ends(self, results: Sequence[DealResult], balance: Sequence[int]) -> bool:
        kind = self.rules.match
        if kind is MatchKind.SINGLE_DEAL:
            return any(r.outcome.winner is not None for r in results)
        if kind is MatchKind.N_DEALS:
            return len(results) >= self.rules.match_target
        return max(balance) >= self.rules.match_target

    @property
    def deal_number(self) -> int:
        """The number of the deal in play, or of the last deal between deals (0 before any)."""
        return len(self.games)

    def would_end(self, outcome: Outcome) -> bool:
        """Whether settling the deal in play with ``outcome`` would end the match.

        :raises ConquianError: if no deal is in play.
        """
        if self.deal is None:
            raise ConquianError("No deal of this match is in play.")
        balance = list(self.balance)
        value = self._value(self.deal.state, outcome)
        if outcome.winner is not None:
            self._pay(balance, self.deal.state, outcome.winner, value)
        result = DealResult(len(self.results) + 1, self.dealer, outcome, value, 0)
        return self._ends([*self.results, result], balance)

    def _value(self, state: GameState, outcome: Outcome) -> int:
        """What the winner of ``state`` receives (0 for a draw)."""
        if outcome.winner is None:
            return 0
        if self.rules.scoring is Scoring.POINTS:
            return sum(hand_points(h) for p, h in enumerate(state.hands) if p != outcome.winner)
        return state.stake

    def _pay(self, balance: list[int], state: GameState, winner: int, value: int) -> None:
        """Every loser pays the winner: the stake, or under points scoring the points of his
        own hand.  With two players under points scoring the winner just scores the loser's
        points (the loser's balance stays)."""
        if self.rules.scoring is Scoring.POINTS:
            if len(balance) == 2:
                balance[winner] += value
                return
            for p, hand in enumerate(state.hands):
                if p != winner:
                    balance[p] -= hand_points(hand)
                    balance[winner] += hand_points(hand)
            return
        for p in range(len(balance)):
            if p != winner:
                balance[p] -= value
                balance[winner] += value

    @property
    def leader(self) -> int | None:
        """The player ahead (on balance; the other one where a player abandoned a match of
        two), or None when two or more share the lead."""
        firsts = [p for p, place in enumerate(self.places()) if place == 1]
        return firsts[0] if len(firsts) == 1 else None

    def new_deal(self) -> GameState:
        """Deal the next deal of the match."""
        return self.new_game().state

    def new_game(
        self,
        players: Sequence[str] | None = None,
        *,
        deck: Sequence[int] | None = None,
        seed: int | None = None,
        fair: FairShuffle | None = None,
    ) -> Game:
        """Deal the next deal as a :class:`Game` (with history, for records); it becomes
        :attr:`deal`.  ``players`` overrides the match's names for this deal; ``deck``
        (with the ``seed`` it came from, if known) replaces the deck the match would deal,
        for a match set up again from a record that has no match seed.  ``fair`` deals the
        deck of a provably fair shuffle instead (its server seed must be known); the game
        then has no seed, and its :attr:`~conquian.game.Game.fair` holds the server seed,
        a secret until the deal is over.

        :raises ConquianError: if the match is over.
        :raises FairnessError: if ``fair`` cannot give a deck.
        """
        if self.is_over:
            raise ConquianError("The match is over.")
        if fair is not None:
            deck = fair.deck(self.dealer, self.rules.num_players)
        self._deal_seed = self._rng.randrange(2**63)
        if deck is not None:
            self._deal_seed = seed if seed is not None else self._deal_seed
        game = Game(
            self.rules,
            deck=deck,
            seed=None if fair is not None else self._deal_seed,
            dealer=self.dealer,
            stake=self.deal_value(),
            players=self.players if players is None else players,
        )
        game.fair = fair
        self.deal = game
        self.games.append(game)
        return game

    def settle(self) -> DealResult:
        """Settle the finished deal in play (see :meth:`finish_deal`).

        :raises ConquianError: if no deal is in play or it is not over.
        """
        if self.deal is None:
            raise ConquianError("No deal of this match is in play.")
        return self.finish_deal(self.deal.state)

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
        value = self._value(state, outcome)
        if outcome.winner is not None:
            self._pay(self.balance, state, outcome.winner, value)
            self.draws_in_a_row = 0
        else:
            self.draws_in_a_row += 1
        result = DealResult(len(self.results) + 1, self.dealer, outcome, value, self._deal_seed)
        self.results.append(result)
        self._deal_seed = None
        self.deal = None
        self.dealer = (self.dealer + 1) % self.rules.num_players
        return result
