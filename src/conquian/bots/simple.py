"""The two baseline bots: ``random`` and ``greedy``."""

from __future__ import annotations

from ..actions import Action, ActionKind
from ..cards import NUM_RANKS, mask_indices
from ..errors import ConquianError
from ..melds import partition_mask
from ..observation import Observation
from ..reasons import Reason
from .base import Bot


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name = "random"

    def act(self, obs: Observation) -> Action:
        _check_legal(obs, self.name)
        self.why = Reason("random")
        return self.rng.choice(obs.legal_actions)


def _check_legal(obs: Observation, name: str) -> None:
    """:raises ConquianError: if the observation offers no action to choose from."""
    if not obs.legal_actions:
        raise ConquianError(
            f"The {name} bot has no legal action to choose from in this observation."
        )


def neighbour_count(card: int, hand: int) -> int:
    """Hand cards of the same rank, or of the same suit one or two ranks away."""
    rank, suit = card % NUM_RANKS, card // NUM_RANKS
    count = 0
    for other in mask_indices(hand & ~(1 << card)):
        other_rank, other_suit = other % NUM_RANKS, other // NUM_RANKS
        if other_rank == rank or (other_suit == suit and abs(other_rank - rank) <= 2):
            count += 1
    return count


class GreedyBot(Bot):
    """The typical existing Conquian bot, kept as a baseline.

    Takes whenever the card melds (laying as many hand cards as it can), forces
    whenever allowed, and discards the hand card with the fewest neighbours.
    """

    name = "greedy"

    def act(self, obs: Observation) -> Action:
        _check_legal(obs, self.name)
        legal = obs.legal_actions
        kinds = {a.kind for a in legal}
        if ActionKind.FORCE in kinds:
            self.why = Reason("greedy_force")
            return Action(ActionKind.FORCE)
        takes = [a for a in legal if a.kind is ActionKind.TAKE]
        if takes:
            self.why = Reason("greedy_take")
            return max(takes, key=lambda a: (partition_mask(a.melds).bit_count(), -len(a.melds)))
        if ActionKind.DISCARD in kinds:
            hand = obs.hand_mask
            discards = [a for a in legal if a.kind is ActionKind.DISCARD]
            self.why = Reason("greedy_discard")
            return min(discards, key=lambda a: (neighbour_count(a.card, hand), -(a.card % 10)))
        self.why = Reason("no_meld")
        return next((a for a in legal if not a.melds), legal[0])
