"""Card features shared by the bots: partners, outs, danger, and what the opponent revealed.

All functions work on 40-bit masks.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import ActionKind
from ..cards import ALL_CARDS_MASK, NUM_CARDS, NUM_RANKS, RANK_MASKS
from ..melds import MeldTable, Partition, partition_mask
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
class Rival:
    """What one other player revealed by his play."""

    player: int
    table: Partition
    hand_count: int
    refused: int
    """Cards offered to him (or turned by him) that he did not take."""
    discarded: int
    took: int
    """Centre cards he took."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a player knows, distilled from his observation and the public history.

    The ``opp_*`` fields are of the opponent: the next seat, the first offered the
    player's discards; :attr:`rivals` holds every other player, the next seat first.
    """

    player: int
    hand: int
    my_table: Partition
    opp_table: Partition
    live: int
    """Cards that may still come into play: the other players' hands and the stock."""
    opp_hand_count: int
    stock_count: int
    opp_refused: int
    """Cards offered to the opponent (or turned by him) that he did not take."""
    opp_discarded: int
    opp_took: int
    """Centre cards the opponent took."""
    rivals: tuple[Rival, ...] = ()
    """Every other player in play order from the next seat (the opponent first)."""

    @classmethod
    def from_observation(cls, obs: Observation) -> Knowledge:
        me = obs.viewer
        others = obs.others
        refused = dict.fromkeys(others, 0)
        discarded = dict.fromkeys(others, 0)
        took = dict.fromkeys(others, 0)
        for event in obs.history:
            p = event.player
            if p not in refused:
                continue
            kind = event.action.kind
            if kind in (ActionKind.DECLINE, ActionKind.PASS):
                refused[p] |= 1 << event.card
            elif kind is ActionKind.DISCARD:
                discarded[p] |= 1 << event.card
            elif kind is ActionKind.TAKE:
                took[p] |= 1 << event.card
        rivals = tuple(
            Rival(p, obs.tables[p], obs.hand_counts[p], refused[p], discarded[p], took[p])
            for p in others
        )
        opp = rivals[0]
        live = ALL_CARDS_MASK & ~obs.seen_mask & ~obs.hand_mask
        return cls(
            player=me,
            hand=obs.hand_mask,
            my_table=obs.tables[me],
            opp_table=opp.table,
            live=live,
            opp_hand_count=opp.hand_count,
            stock_count=obs.stock_count,
            opp_refused=opp.refused,
            opp_discarded=opp.discarded,
            opp_took=opp.took,
            rivals=rivals,
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
    """How much discarding ``card`` may help the other players: with two players, the
    opponent; with more, the one it may help most (it is offered to each in turn)."""
    if len(k.rivals) <= 1:
        if _goes_out_with(k, melds, card):
            return FEED_OUT_DANGER
        return _danger(k.live, k.opp_table, k.opp_refused, k.opp_discarded, k.opp_took,
                       k.opp_hand_count, melds, card)  # fmt: skip
    return max(
        _danger(k.live, r.table, r.refused, r.discarded, r.took, r.hand_count, melds, card)
        for r in k.rivals
    )


def _goes_out_with(k: Knowledge, melds: MeldTable, card: int) -> bool:
    """Whether the opponent surely goes out with ``card``: the stock is empty, so the cards
    unseen are his hand, and with ``card`` they and his table make melds he can lay (a hand
    of melds he kept hidden)."""
    if k.stock_count or not k.live or k.live.bit_count() != k.opp_hand_count:
        return False
    bit = 1 << card
    if not direct_fit_mask(melds, k.opp_table, bit) and not melds.can_meld(card, k.live | bit):
        return False
    return bool(melds.partitions(partition_mask(k.opp_table) | bit | k.live, 0))


def _danger(
    live: int,
    table: Partition,
    refused: int,
    discarded: int,
    took: int,
    hand_count: int,
    melds: MeldTable,
    card: int,
) -> float:
    """How much ``card`` may help one other player, from what he revealed."""
    bit = 1 << card
    if table and direct_fit_mask(melds, table, bit):
        # a player with no card in hand goes out with any card that fits his table
        return FEED_OUT_DANGER if hand_count == 0 else 0.9
    partners = PARTNERS[card] & live & ~refused & ~discarded
    danger = 0.07 * min(partners.bit_count(), 5)
    if PARTNERS[card] & (refused | discarded):
        danger *= 0.5
    if CLOSE[card] & took:
        danger += 0.1
    return danger * min(1.0, hand_count / 4)


FEED_OUT_DANGER = 100.0
"""Danger of a card that fits the table of a player with an empty hand: he takes it and
goes out at once, so it outweighs anything a hand card is worth keeping."""


__all__ = [
    "CLOSE",
    "FEED_OUT_DANGER",
    "PARTNERS",
    "Knowledge",
    "Rival",
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
