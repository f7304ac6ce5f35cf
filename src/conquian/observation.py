"""What one player may know: the only view of a deal that bots and front ends get.

An :class:`Observation` holds the player's own hand, both tables with their
partitions, the centre card and its source, the dead pile, every card seen face
up, the stock size, both hand sizes, whose turn it is and the stake.  It never
holds the opponent's hand or the stock order.

>>> from conquian.state import GameState
>>> from conquian.rules import Rules
>>> obs = observe(GameState.deal(Rules(), seed=3, dealer=0), 1)
>>> obs.stock_count, obs.hand_counts, obs.to_act
(19, (10, 10), 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action
from .cards import ALL_CARDS_MASK, CARDS, CardSet, format_mask
from .melds import Partition, format_partition, partition_mask
from .rules import Rules
from .state import GameState, Outcome, Phase, Source


@dataclass(frozen=True, slots=True)
class Observation:
    """One player's view of a position."""

    player: int
    """Whose view this is."""
    rules: Rules
    phase: Phase
    to_act: int
    """The player who must act now (meaningless once the deal is over)."""
    dealer: int
    hand_mask: int
    """This player's hand."""
    tables: tuple[Partition, Partition]
    """Both tables, as partitions into melds."""
    centre: int
    """The centre card index, or -1."""
    source: Source
    dead_mask: int
    stock_count: int
    hand_counts: tuple[int, int]
    stake: int
    legal_actions: tuple[Action, ...]
    """This player's legal actions (empty when it is not his turn)."""
    outcome: Outcome | None

    @property
    def opponent(self) -> int:
        return 1 - self.player

    @property
    def hand(self) -> CardSet:
        return CardSet(self.hand_mask)

    @property
    def dead(self) -> CardSet:
        return CardSet(self.dead_mask)

    @property
    def seen_mask(self) -> int:
        """Every card that has been face up: both tables, the dead pile and the centre."""
        seen = partition_mask(self.tables[0]) | partition_mask(self.tables[1]) | self.dead_mask
        if self.centre >= 0:
            seen |= 1 << self.centre
        return seen

    @property
    def unknown_mask(self) -> int:
        """Cards this player cannot locate: the opponent's hand and the stock together."""
        return ALL_CARDS_MASK & ~self.seen_mask & ~self.hand_mask

    @property
    def my_turn(self) -> bool:
        return self.phase is not Phase.OVER and self.to_act == self.player

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (cards as canonical text)."""
        return {
            "player": self.player,
            "rules": self.rules.to_spec(),
            "phase": self.phase.value,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "hand": format_mask(self.hand_mask).split(),
            "tables": [[format_mask(m).split() for m in self.tables[p]] for p in (0, 1)],
            "centre": str(CARDS[self.centre]) if self.centre >= 0 else None,
            "centre_source": self.source.value if self.centre >= 0 else None,
            "dead": format_mask(self.dead_mask).split(),
            "seen": format_mask(self.seen_mask).split(),
            "stock_count": self.stock_count,
            "hand_counts": list(self.hand_counts),
            "stake": self.stake,
            "legal_actions": [str(a) for a in self.legal_actions],
            "outcome": None
            if self.outcome is None
            else {
                "winner": self.outcome.winner,
                "termination": self.outcome.termination.value,
            },
        }

    def __str__(self) -> str:
        me, them = self.player, 1 - self.player
        centre = f"{CARDS[self.centre]} ({self.source.value})" if self.centre >= 0 else "-"
        lines = [
            f"player {me} view, phase {self.phase.value}, to act: {self.to_act}",
            f"hand: {format_mask(self.hand_mask) or '-'}",
            f"my table: {format_partition(self.tables[me], ' | ')}",
            f"opponent table: {format_partition(self.tables[them], ' | ')}"
            f" (hand {self.hand_counts[them]})",
            f"centre: {centre}   stock: {self.stock_count}   stake: {self.stake}",
            f"dead: {format_mask(self.dead_mask) or '-'}",
        ]
        return "\n".join(lines)


def observe(state: GameState, player: int) -> Observation:
    """The observation of ``state`` for ``player`` (0 or 1)."""
    hands = state.hands
    return Observation(
        player=player,
        rules=state.rules,
        phase=state.phase,
        to_act=state.player,
        dealer=state.dealer,
        hand_mask=hands[player],
        tables=(state.tables[0], state.tables[1]),
        centre=state.centre,
        source=state.source,
        dead_mask=state.dead,
        stock_count=state.stock_count,
        hand_counts=(hands[0].bit_count(), hands[1].bit_count()),
        stake=state.stake,
        legal_actions=state.legal_actions()
        if state.player == player and state.phase is not Phase.OVER
        else (),
        outcome=state.outcome(),
    )
