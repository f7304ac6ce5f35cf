"""Card features shared by the bots: partners, outs, danger, and what the opponent revealed.

All functions work on 40-bit masks.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import ActionKind
from ..cards import ALL_CARDS_MASK, NUM_CARDS, NUM_RANKS, RANK_MASKS
from ..melds import MeldTable, Partition
from ..observation import Observation


def _partners(card: int, distance: int) -> int:
    rank, suit = card % NUM_RANKS, card // NUM_RANKS
    mask = RANK_MASKS[rank] & ~(1 << card)
    for step in range(1, distance + 1):
        for r in (rank - step, rank + step):
            if 0 <= r < NUM_RANKS:
                mask |= 1 << (suit * NUM_RANKS + r)
    return mask


PARTNERS: tuple[int, ...] = tuple(_partners(c, 2) for c in range(NUM_CARDS))
"""Cards that can share a meld with a card as one of its two nearest companions:
the same rank, or the same suit up to two ranks away."""
CLOSE: tuple[int, ...] = tuple(_partners(c, 1) for c in range(NUM_CARDS))
"""The same rank, or the same suit one rank away."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a player knows, distilled from his observation and the public history."""

    player: int
    hand: int
    my_table: Partition
    opp_table: Partition
    live: int
    """Cards that may still come into play: the opponent's hand and the stock."""
    opp_hand_count: int
    stock_count: int
    opp_refused: int
    """Cards offered to the opponent (or turned by him) that he did not take."""
    opp_discarded: int
    opp_took: int
    """Centre cards the opponent took."""

    @classmethod
    def from_observation(cls, obs: Observation) -> Knowledge:
        me = obs.viewer
        opp = 1 - me
        refused = discarded = took = 0
        for event in obs.history:
            if event.player != opp:
                continue
            kind = event.action.kind
            if kind in (ActionKind.DECLINE, ActionKind.PASS):
                refused |= 1 << event.card
            elif kind is ActionKind.DISCARD:
                discarded |= 1 << event.card
            elif kind is ActionKind.TAKE:
                took |= 1 << event.card
        live = ALL_CARDS_MASK & ~obs.seen_mask & ~obs.hand_mask
        return cls(
            player=me,
            hand=obs.hand_mask,
            my_table=obs.tables[me],
            opp_table=obs.tables[opp],
            live=live,
            opp_hand_count=obs.hand_counts[opp],
            stock_count=obs.stock_count,
            opp_refused=refused,
            opp_discarded=discarded,
            opp_took=took,
        )


def direct_fit_mask(melds: MeldTable, partition: Partition, candidates: int) -> int:
    """The cards among ``candidates`` that fit one meld of ``partition`` directly."""
    out = 0
    valid = melds.valid
    rest = candidates
    while rest:
        low = rest & -rest
        for m in partition:
            if m | low in valid:
                out |= low
                break
        rest ^= low
    return out


def discard_danger(k: Knowledge, melds: MeldTable, card: int) -> float:
    """How much discarding ``card`` may help the opponent."""
    bit = 1 << card
    if k.opp_table and direct_fit_mask(melds, k.opp_table, bit):
        return 0.9
    partners = PARTNERS[card] & k.live & ~k.opp_refused & ~k.opp_discarded
    danger = 0.07 * min(partners.bit_count(), 5)
    if PARTNERS[card] & (k.opp_refused | k.opp_discarded):
        danger *= 0.5
    if CLOSE[card] & k.opp_took:
        danger += 0.1
    return danger * min(1.0, k.opp_hand_count / 4)


__all__ = [
    "CLOSE",
    "PARTNERS",
    "Knowledge",
    "direct_fit_mask",
    "discard_danger",
]


def _third_cards(a: int, b: int) -> int:
    """Cards that would complete a meld with the two cards ``a`` and ``b`` (0 if none)."""
    ra, sa = a % NUM_RANKS, a // NUM_RANKS
    rb, sb = b % NUM_RANKS, b // NUM_RANKS
    if ra == rb:
        return RANK_MASKS[ra] & ~(1 << a) & ~(1 << b)
    if sa != sb:
        return 0
    lo, hi = min(ra, rb), max(ra, rb)
    base = sa * NUM_RANKS
    if hi - lo == 1:
        out = 0
        if lo > 0:
            out |= 1 << (base + lo - 1)
        if hi < NUM_RANKS - 1:
            out |= 1 << (base + hi + 1)
        return out
    if hi - lo == 2:
        return 1 << (base + lo + 1)
    return 0


THIRDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_third_cards(a, b) for b in range(NUM_CARDS)) for a in range(NUM_CARDS)
)
"""``THIRDS[a][b]``: the cards that complete a meld with ``a`` and ``b``."""


def keep_score(card: int, hand: int, available: int) -> float:
    """How much a hand card is worth keeping: partners in hand whose meld can still be
    completed from ``available`` cards (hand or live), plus live partners.

    >>> from conquian.cards import parse_cards_mask as m, ALL_CARDS_MASK
    >>> hand = m("5h 5d Kc")
    >>> keep_score(15, hand, ALL_CARDS_MASK) > keep_score(39, hand, ALL_CARDS_MASK)
    True
    """
    score = 0.0
    partners = PARTNERS[card] & hand
    row = THIRDS[card]
    while partners:
        low = partners & -partners
        other = low.bit_length() - 1
        thirds = row[other] & available
        if thirds:
            score += 1.0 + THIRD_WEIGHT * min(thirds.bit_count(), 2)
        partners ^= low
    score += LIVE_PARTNER_WEIGHT * (PARTNERS[card] & available & ~hand).bit_count()
    return score


THIRD_WEIGHT = 0.5
"""Extra keep score for each way (up to two) a pair can still be completed."""
LIVE_PARTNER_WEIGHT = 0.15
"""Keep score for each live card that could pair with a hand card."""
