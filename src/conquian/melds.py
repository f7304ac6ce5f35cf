"""Melds (sets and runs), precomputed meld tables and partition enumeration.

A meld is held as a card mask.  A *set* is 3 or 4 cards of one rank; a *run* is
3 to ``max_seq_len`` cards of one suit in consecutive ranks (ace low, 7 next to
J, no wrap-around).  A *partition* is a tuple of disjoint meld masks, sorted
ascending, and is how a player's table is stored.

>>> table = meld_table(8)
>>> len(table.melds)
182
>>> is_meld(parse_cards_mask("6h 7h Jh")), is_meld(parse_cards_mask("Qh Kh Ah"))
(True, False)
>>> [format_partition(p) for p in table.partitions(parse_cards_mask("6c 7c Jc 5c"), 0)]
['5c6c7cJc']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from .cards import (
    NUM_RANKS,
    NUM_SUITS,
    RANK_MASKS,
    SUIT_MASKS,
    CardSet,
    DeckStyle,
    format_mask,
    mask_indices,
    parse_cards_mask,
)
from .errors import InvalidMeldError

MAX_RUN = NUM_RANKS
_SUIT_BITS = (1 << NUM_RANKS) - 1

Partition = tuple[int, ...]
"""A table's melds as sorted, disjoint meld masks."""


class MeldKind(StrEnum):
    """The two kinds of meld."""

    SET = "set"
    RUN = "run"


class RearrangeMode(StrEnum):
    """How a player may change his own table while taking a card."""

    FREE = "free"
    FOSTER_BORROW = "foster_borrow"
    NONE = "none"


def meld_kind(mask: int) -> MeldKind | None:
    """The kind of meld ``mask`` is with no length cap on runs, or None.

    >>> meld_kind(parse_cards_mask("Kc Kd Ks")), meld_kind(parse_cards_mask("5h 5d 6h"))
    (<MeldKind.SET: 'set'>, None)
    """
    count = mask.bit_count()
    if count < 3:
        return None
    for rank_mask in RANK_MASKS:
        if not mask & ~rank_mask:
            return MeldKind.SET
    for suit_index, suit_mask in enumerate(SUIT_MASKS):
        if not mask & ~suit_mask:
            local = mask >> (NUM_RANKS * suit_index)
            low = local & -local
            return MeldKind.RUN if local == low * ((1 << count) - 1) else None
    return None


def is_meld(mask: int, max_seq_len: int = 8) -> bool:
    """True if ``mask`` is a valid meld under a run length cap."""
    return mask in meld_table(max_seq_len).valid


def run_length_ok(mask: int, max_seq_len: int) -> bool:
    return mask.bit_count() <= max_seq_len


class MeldTable:
    """Precomputed melds for one run length cap.

    ``melds`` lists every meld with a stable order: runs by suit, start, length,
    then sets by rank and suits.  A meld's position in it is its id.
    """

    def __init__(self, max_seq_len: int) -> None:
        if not 3 <= max_seq_len <= MAX_RUN:
            raise InvalidMeldError(f"max_seq_len must be 3..{MAX_RUN}, got {max_seq_len}.")
        self.max_seq_len = max_seq_len
        runs: list[int] = []
        for suit in range(NUM_SUITS):
            for start in range(NUM_RANKS):
                for length in range(3, max_seq_len + 1):
                    if start + length <= NUM_RANKS:
                        runs.append(((1 << length) - 1) << (NUM_RANKS * suit + start))
        sets: list[int] = []
        self._sets_by_rank_presence: list[list[tuple[int, ...]]] = []
        for rank in range(NUM_RANKS):
            per_presence: list[tuple[int, ...]] = []
            for presence in range(16):
                found = []
                for subset in range(16):
                    if subset & ~presence or subset.bit_count() < 3:
                        continue
                    found.append(
                        sum(
                            1 << (NUM_RANKS * s + rank) for s in range(NUM_SUITS) if subset >> s & 1
                        )
                    )
                per_presence.append(tuple(found))
            self._sets_by_rank_presence.append(per_presence)
            sets.extend(per_presence[15])
        self.melds: tuple[int, ...] = tuple(runs + sets)
        self.ids: dict[int, int] = {m: i for i, m in enumerate(self.melds)}
        self.valid: frozenset[int] = frozenset(self.melds)
        self._runs_by_pattern: list[tuple[int, ...]] = []
        for pattern in range(1 << NUM_RANKS):
            found = []
            for start in range(NUM_RANKS):
                for length in range(3, max_seq_len + 1):
                    run = ((1 << length) - 1) << start
                    if start + length <= NUM_RANKS and not run & ~pattern:
                        found.append(run)
            self._runs_by_pattern.append(tuple(found))
        self._run_cover: list[int] = []
        for runs_here in self._runs_by_pattern:
            cover = 0
            for run in runs_here:
                cover |= run
            self._run_cover.append(cover)
        self._partitions_memo: dict[tuple[int, int], tuple[Partition, ...]] = {}

    def __reduce__(self) -> tuple[type[MeldTable], tuple[int]]:
        # rebuilt by the constructor, for copy and pickle of the compiled (mypyc) build,
        # whose classes cannot be made without their __init__ otherwise
        return MeldTable, (self.max_seq_len,)

    def can_meld(self, card: int, avail: int) -> bool:
        """True if some meld made of cards in ``avail`` contains ``card`` (a fast test).

        >>> meld_table(8).can_meld(15, parse_cards_mask("5h 6h 7h"))
        True
        """
        rank = card % NUM_RANKS
        suit_shift = card - rank
        if self._run_cover[(avail >> suit_shift) & _SUIT_BITS] >> rank & 1:
            return True
        return (avail & RANK_MASKS[rank]).bit_count() >= 3

    def melds_within(self, avail: int) -> list[int]:
        """Every meld made only of cards in ``avail``.

        >>> [format_mask(m, "") for m in meld_table(8).melds_within(parse_cards_mask("5h6h7h5c5s"))]
        ['5h6h7h', '5s5h5c']
        """
        out: list[int] = []
        runs = self._runs_by_pattern
        a = avail & _SUIT_BITS
        b = (avail >> 10) & _SUIT_BITS
        c = (avail >> 20) & _SUIT_BITS
        d = avail >> 30
        if a:
            out.extend(runs[a])
        if b:
            out.extend([m << 10 for m in runs[b]])
        if c:
            out.extend([m << 20 for m in runs[c]])
        if d:
            out.extend([m << 30 for m in runs[d]])
        three = (a & b & (c | d)) | ((a | b) & c & d)
        while three:
            low = three & -three
            rank = low.bit_length() - 1
            presence = (
                (a >> rank & 1) | (b >> rank & 1) << 1 | (c >> rank & 1) << 2 | (d >> rank & 1) << 3
            )
            out.extend(self._sets_by_rank_presence[rank][presence])
            three ^= low
        return out

    def fits_directly(self, card_mask: int, partition: Partition) -> bool:
        """True if the card extends one meld of ``partition`` into a valid meld by itself.

        >>> t = meld_table(8)
        >>> t.fits_directly(parse_cards_mask("7c"), (parse_cards_mask("3c4c5c6c"),))
        True
        >>> t.fits_directly(parse_cards_mask("7c"), (parse_cards_mask("3c4c5c"),))
        False
        """
        valid = self.valid
        return any(m | card_mask in valid for m in partition)

    def direct_fits(self, card_mask: int, partition: Partition) -> list[Partition]:
        """Each partition obtained by adding the card to one fitting meld, nothing else changed."""
        valid = self.valid
        out = []
        for i, m in enumerate(partition):
            if m | card_mask in valid:
                out.append(tuple(sorted((*partition[:i], m | card_mask, *partition[i + 1 :]))))
        return out

    def partitions(self, required: int, optional: int) -> tuple[Partition, ...]:
        """Every partition into melds of ``required`` plus any cards of ``optional``.

        Each result covers all required cards and some (possibly no) optional cards;
        melds made only of optional cards are included too.  Results are sorted.
        Answers are remembered (up to :data:`PARTITIONS_MEMO_SIZE` of them, then the
        memory starts afresh), since play and search ask the same questions often.

        >>> t = meld_table(8)
        >>> req = parse_cards_mask("6c 7c Jc 5c")
        >>> [" ".join(format_mask(m, "") for m in p) for p in t.partitions(req, parse_cards_mask("Jh Jd"))]
        ['5c6c7c JhJdJc', '5c6c7cJc']
        """
        key = (required, optional)
        memo = self._partitions_memo
        found = memo.get(key)
        if found is None:
            if len(memo) >= PARTITIONS_MEMO_SIZE:
                memo.clear()
            found = memo[key] = tuple(self._partitions(required, optional))
        return found

    def _partitions(self, required: int, optional: int) -> list[Partition]:
        avail = required | optional
        melds = self.melds_within(avail)
        if not melds:
            return [] if required else [()]
        covered = 0
        for m in melds:
            covered |= m
        if required & ~covered:
            return []
        covers = _cover(required, avail, melds) if required else [()]
        if not covers:
            return []
        extra = [m for m in melds if not m & required]
        out: list[Partition] = []
        for cover in covers:
            if extra:
                used = 0
                for m in cover:
                    used |= m
                free = optional & ~used
                usable = [m for m in extra if not m & ~free]
                if usable:
                    for more in _disjoint_subsets(usable, 0, free):
                        out.append(tuple(sorted(cover + more)))
                    continue
            out.append(tuple(sorted(cover)))
        out.sort()
        return out


PARTITIONS_MEMO_SIZE = 50_000
"""How many :meth:`MeldTable.partitions` answers a table remembers at most."""


def _cover(required: int, avail: int, melds: list[int]) -> list[Partition]:
    low = required & -required
    out: list[Partition] = []
    for m in melds:
        if m & low and not m & ~avail:
            rest = required & ~m
            if rest:
                for tail in _cover(rest, avail & ~m, melds):
                    out.append((m, *tail))
            else:
                out.append((m,))
    return out


def _disjoint_subsets(melds: list[int], start: int, free: int) -> list[Partition]:
    out: list[Partition] = [()]
    for i in range(start, len(melds)):
        m = melds[i]
        if not m & ~free:
            for tail in _disjoint_subsets(melds, i + 1, free & ~m):
                out.append((m, *tail))
    return out


@cache
def meld_table(max_seq_len: int = 8) -> MeldTable:
    """The (cached) :class:`MeldTable` for a run length cap."""
    return MeldTable(max_seq_len)


def is_rearrangement_allowed(
    old: Partition, new: Partition, mode: RearrangeMode, *, max_seq_len: int = MAX_RUN
) -> bool:
    """Whether a player may turn table ``old`` into ``new`` (a superset) in one take.

    ``free`` allows anything.  ``none`` only extends existing melds or adds new ones:
    every old meld stays whole inside one new meld, and no two old melds merge.
    ``foster_borrow`` (docs/rules.md §10.1) also lets one card of a set move into a run,
    the rest staying one set, and end cards of a run move into sets, the rest staying one
    run; no two old melds merge.  Cards laid off in the same take count first, so a set of
    three that the take refills may give a card, and so may a run of three that the take
    lengthens, but only if a run of four fits under ``max_seq_len``.

    >>> m = parse_cards_mask
    >>> old = (m("4h 4s 4d 4c"),)
    >>> new = tuple(sorted((m("2h 3h 4h 5h"), m("4s 4d 4c"))))
    >>> [is_rearrangement_allowed(old, new, mode) for mode in RearrangeMode]
    [True, True, False]
    >>> old = (m("5c 6c 7c"),)
    >>> new = tuple(sorted((m("5h 5d 5c"), m("6h 6d 6c"), m("7s 7h 7c"))))
    >>> is_rearrangement_allowed(old, new, RearrangeMode.FOSTER_BORROW)
    False
    """
    if mode is RearrangeMode.FREE or not old:
        return True
    core_holders: set[int] = set()
    if mode is RearrangeMode.NONE:
        for x in old:
            holder = 0
            for y in new:
                if x & y:
                    if holder:
                        return False
                    holder = y
            if holder in core_holders:
                return False
            core_holders.add(holder)
        return True
    runs_may_give = max_seq_len >= 4
    for x in old:
        # The new meld that holds the rest of x: for a run, the one new meld of x's suit
        # (a set holds one card of a suit, a run holding a card of x's suit is of that
        # suit); for a set, the one new meld holding two or more of its cards.  Every other
        # piece of x is a single card: in a set for a run, in a run for a set.
        low = x & -x
        suit_mask = SUIT_MASKS[(low.bit_length() - 1) // NUM_RANKS]
        is_run = not x & ~suit_mask
        holder = 0
        pieces = 0
        for y in new:
            piece = x & y
            if not piece:
                continue
            pieces += 1
            if is_run:
                if y & ~suit_mask:
                    continue  # an end card borrowed into a set
            elif piece & (piece - 1) == 0:
                continue  # a single card, borrowed into a run
            if holder:
                return False  # split in two, or (for a set) two cards borrowed
            holder = y
        if not holder:
            return False  # broken up entirely
        if pieces > 1:
            if is_run:
                if not runs_may_give:
                    return False
            elif pieces > 2:
                return False
        if holder in core_holders:
            return False
        core_holders.add(holder)
    return True


@dataclass(frozen=True, slots=True)
class Meld:
    """A validated meld.

    >>> Meld.parse("Jh 6h 7h")
    Meld.parse('6h7hJh')
    >>> Meld.parse("5h 5d 6h")
    Traceback (most recent call last):
    ...
    conquian.errors.InvalidMeldError: 5h 6h 5d is not a meld (a set of 3-4 of one rank, or a run of 3-8 of one suit).
    """

    mask: int
    kind: MeldKind

    def __reduce__(self) -> tuple[type[Meld], tuple[int, MeldKind]]:
        return Meld, (self.mask, self.kind)  # for mypyc, as cards.Card.__reduce__

    @classmethod
    def from_mask(cls, mask: int, max_seq_len: int = 8) -> Meld:
        """Validate a mask as a meld.

        :raises InvalidMeldError: if the cards are not a meld under the cap.
        """
        kind = meld_kind(mask)
        if kind is None or (kind is MeldKind.RUN and mask.bit_count() > max_seq_len):
            raise InvalidMeldError(
                f"{format_mask(mask)} is not a meld (a set of 3-4 of one rank, "
                f"or a run of 3-{max_seq_len} of one suit)."
            )
        return cls(mask, kind)

    @classmethod
    def parse(
        cls, text: str, max_seq_len: int = 8, deck: DeckStyle | str = DeckStyle.FRENCH
    ) -> Meld:
        """Read and validate a meld (labels of any deck style)."""
        return cls.from_mask(parse_cards_mask(text, deck), max_seq_len)

    @property
    def cards(self) -> CardSet:
        return CardSet(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __str__(self) -> str:
        return format_mask(self.mask, "")

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"


def format_partition(partition: Partition, sep: str = "/") -> str:
    """Text of a partition: melds' cards run together, melds separated by ``sep``.

    >>> format_partition((parse_cards_mask("3c4c5c"), parse_cards_mask("Kh Kd Ks")))
    '3c4c5c/KsKhKd'
    """
    return sep.join(format_mask(m, "") for m in partition) if partition else "-"


def partition_mask(partition: Partition) -> int:
    """All cards of a partition."""
    total = 0
    for m in partition:
        total |= m
    return total


__all__ = [
    "MAX_RUN",
    "Meld",
    "MeldKind",
    "MeldTable",
    "Partition",
    "RearrangeMode",
    "format_partition",
    "is_meld",
    "is_rearrangement_allowed",
    "mask_indices",
    "meld_kind",
    "meld_table",
    "partition_mask",
]
