"""One player's observation tensor kept up to date in place (the adapters' fast path).

An :class:`ObservationTracker` holds a player's observation tensor (int8 0/1, the
layout of :func:`~conquian.envs.spaces.encode_observation`) together with the
values it was last written from.  Each :meth:`~ObservationTracker.update` reads
those values again and rewrites only the entries that changed since the player's
previous update; most actions change a handful (the centre card and its source,
the phase, whose turn it is, the stock count, a hand or table card, one history
bit).  A new tracker starts from the all-zero tensor, so its first update writes
every entry that is set; so does an update after the public history was replaced.
The from-scratch encoder :func:`~conquian.envs.spaces.observation_bits` stays the
reference: the tests check that both agree at every step of many random deals.

What an update reads is all part of the player's own observation: his hand, every
table, the centre card, its source and (more players) who turned or paid it and
whom it is offered to, the dead pile, the stock size, the other hands' *sizes*,
the phase, whose turn it is, the dealer, the public history, his own unfinished
take and (under the exchange) the card he chose to pass and the one he received.
Never another player's hand, another player's exchange choice (exchange events of
the history are skipped) or the stock order.

>>> from conquian.envs.episode import Episode
>>> from conquian.rules import Rules
>>> episode = Episode.deal(Rules(), seed=4, dealer=0)
>>> tracker = ObservationTracker(episode.layout, 1)
>>> tracker.update(episode.state, episode.history, episode.pending(1))
>>> from conquian.envs.spaces import observation_bits
>>> reference = observation_bits(episode.layout, episode.observation(1), episode.pending(1))
>>> tracker.bits() == reference
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..actions import ActionKind
from ..melds import Partition
from ..observation import PublicEvent
from ..state import GameState, Phase, Source
from .spaces import MELD_BASE, TAKE, Mask, Pending, TensorLayout

_SOURCE_INDEX = {Source.DISCARD: 0, Source.PASSED: 1, Source.TURNED: 2, Source.UPCARD: 3}
_PHASE_INDEX = {phase: i for i, phase in enumerate(Phase)}
# Where another player's event is recorded: slice name (after the seat's prefix) by kind.
_SEAT_SLICE = {
    ActionKind.TAKE: "taken",
    ActionKind.DECLINE: "declined",
    ActionKind.PASS: "passed",
    ActionKind.DISCARD: "discarded",
}
# The one-hot slices of the N-player game and of the exchange, in the order update reads them.
_EXTRA_SLICES = (
    "to_act_seat",
    "dealer_seat",
    "centre_owner",
    "offeree",
    "exchange_passed",
    "exchange_received",
)


class _Offsets(NamedTuple):
    """Where the slices that :meth:`ObservationTracker.update` rewrites begin."""

    hand: int
    centre: int
    centre_source: int
    dead: int
    seen: int
    stock_count: int
    phase: int
    to_act: int
    dealer: int
    pending_mode: int
    pending_melds: int


def _write(buffer: bytearray, base: int, old: int, new: int) -> None:
    """Rewrite the entries ``base + i`` for every bit ``i`` where ``old`` and ``new`` differ."""
    diff = old ^ new
    if diff and not diff & (diff - 1):  # one entry, the usual case
        buffer[base + diff.bit_length() - 1] = 1 if new & diff else 0
        return
    while diff:
        low = diff & -diff
        buffer[base + low.bit_length() - 1] = 1 if new & low else 0
        diff ^= low


_SLOTS = (
    "_at",
    "_centre",
    "_counts",
    "_dead",
    "_dealer",
    "_extra",
    "_extra_at",
    "_forced_at",
    "_hand",
    "_last",
    "_length",
    "_others",
    "_pending",
    "_phase",
    "_seat_slices",
    "_seen",
    "_source",
    "_stock",
    "_table_bits",
    "_tables",
    "_to_act",
    "buffer",
    "layout",
    "player",
    "view",
)
"""The attributes of an :class:`ObservationTracker` (its ``__slots__``), which its copy copies
one by one: a class compiled with mypyc has no ``__slots__`` to read."""


class ObservationTracker:
    """One player's observation tensor, rewritten in place from what changed.

    :param layout: the tensor layout of the rules.
    :param player: the observing player (0 to ``layout.num_players - 1``).
    """

    __slots__ = _SLOTS

    _hand: int
    _dead: int
    _seen: int
    _table_bits: int
    _centre: int
    _source: int
    _stock: int
    _to_act: int
    _dealer: int
    _length: int
    _counts: list[int]
    _extra: list[int]

    def __new__(cls, *args: object, **kwargs: object) -> ObservationTracker:
        return object.__new__(cls)  # for mypyc, as GameState.__new__

    def __init__(self, layout: TensorLayout, player: int) -> None:
        self.layout = layout
        self.player = player
        self.buffer = bytearray(layout.observation_size)
        """The tensor's entries, one byte each (0 or 1)."""
        self.view: Mask = np.frombuffer(self.buffer, dtype=np.int8)
        """A read-only int8 view of :attr:`buffer`; it changes at every update."""
        self.view.flags.writeable = False
        off = layout.offsets
        n = layout.num_players
        self._at = _Offsets(*(off[name] for name in _Offsets._fields))
        prefixes = [layout.seat_prefix(k) for k in range(n)]
        # Per seat offset (0, the player himself, has none): where its events go.
        self._seat_slices: list[dict[ActionKind, int]] = [{}] + [
            {kind: off[f"{prefixes[k]}_{name}"] for kind, name in _SEAT_SLICE.items()}
            for k in range(1, n)
        ]
        self._forced_at = [-1] + [off[f"{prefixes[k]}_forced"] for k in range(1, n)]
        # (seat, hand count slice) of every other player, next seat first.
        self._others = [((player + k) % n, off[f"{prefixes[k]}_hand_count"]) for k in range(1, n)]
        self._extra_at = [off[name] for name in _EXTRA_SLICES if name in off]
        self._tables: tuple[Partition, ...] | None = None
        self._phase: Phase | None = None
        self._pending: Pending | None = None
        self._last: PublicEvent | None = None
        self.clear()

    def copy(self) -> ObservationTracker:
        """An independent copy (its own buffer)."""
        new = ObservationTracker.__new__(ObservationTracker)
        for name in _SLOTS:
            setattr(new, name, getattr(self, name))
        new.buffer = bytearray(self.buffer)
        new.view = np.frombuffer(new.buffer, dtype=np.int8)
        new.view.flags.writeable = False
        new._counts = list(self._counts)
        new._extra = list(self._extra)
        return new

    def array(self) -> Mask:
        """A copy of the tensor (int8) that the caller owns; later updates leave it alone."""
        return self.view.copy()

    def bits(self) -> int:
        """The tensor as the bits of one int, as :func:`observation_bits` gives it."""
        packed = np.packbits(self.view.astype(np.uint8), bitorder="little")
        return int.from_bytes(packed.tobytes(), "little")

    def update(
        self, state: GameState, history: Sequence[PublicEvent], pending: Pending | None
    ) -> None:
        """Bring the tensor up to date with ``state`` and ``history`` as the player sees them.

        ``pending``: the player's unfinished take or lay, if he is choosing one.
        ``history`` may hold every player's exchange choice: only the player's own is read
        (from ``state``); the exchange events themselves are skipped.
        """
        length = self._length
        if length and (len(history) < length or history[length - 1] is not self._last):
            self.clear()  # a different history: write everything again
            length = 0
        buffer = self.buffer
        (
            hand_at,
            centre_at,
            centre_source_at,
            dead_at,
            seen_at,
            stock_count_at,
            phase_at,
            to_act_at,
            dealer_at,
            _,
            _,
        ) = self._at
        me = self.player
        hands = state.hands
        n = len(hands)
        hand = hands[me]
        if hand != self._hand:
            _write(buffer, hand_at, self._hand, hand)
            self._hand = hand
        tables = state.tables
        if tables is not self._tables:
            table_bits = self.layout.table_bits
            if n == 2:
                bits = table_bits(tables[me], 0)[1] | table_bits(tables[1 - me], 1)[1]
            else:
                bits = 0
                for k in range(n):
                    bits |= table_bits(tables[(me + k) % n], k)[1]
            _write(buffer, 0, self._table_bits, bits)
            self._table_bits = bits
            self._tables = tables
        centre = state.centre
        dead = state.dead_mask
        masks = state.table_masks
        seen = masks[0] | masks[1] | dead
        if n > 2:
            for mask in masks[2:]:
                seen |= mask
        if centre >= 0:
            seen |= 1 << centre
            source = _SOURCE_INDEX[state.source]
        else:
            source = -1
        if centre != self._centre or source != self._source:
            if self._centre >= 0:
                buffer[centre_at + self._centre] = 0
                buffer[centre_source_at + self._source] = 0
            if centre >= 0:
                buffer[centre_at + centre] = 1
                buffer[centre_source_at + source] = 1
            self._centre = centre
            self._source = source
        if dead != self._dead:
            _write(buffer, dead_at, self._dead, dead)
            self._dead = dead
        if seen != self._seen:
            _write(buffer, seen_at, self._seen, seen)
            self._seen = seen
        end = len(history)
        if end > length:
            # Other players' takes, refusals and discards, and the cards the player forced.
            slices = self._seat_slices
            for i in range(length, end):
                event = history[i]
                actor = event.player
                kind = event.action.kind
                if actor != me:
                    base = slices[(actor - me) % n].get(kind)
                    if base is not None:
                        buffer[base + event.card] = 1
                elif kind is ActionKind.FORCE:
                    # the refuser: the other player, or (more players) who acted just before
                    refuser = 1 - me if n == 2 else history[i - 1].player if i else -1
                    if refuser >= 0:
                        buffer[self._forced_at[(refuser - me) % n] + event.card] = 1
            self._length = end
            self._last = history[-1]
        stock = len(state.stock) - state.stock_pos
        if stock > self.layout.max_stock:
            stock = self.layout.max_stock
        if stock != self._stock:
            if self._stock >= 0:
                buffer[stock_count_at + self._stock] = 0
            buffer[stock_count_at + stock] = 1
            self._stock = stock
        counts = self._counts
        for i, (seat, count_at) in enumerate(self._others):
            count = hands[seat].bit_count()
            old = counts[i]
            if count != old:
                if old >= 0:
                    buffer[count_at + old] = 0
                buffer[count_at + count] = 1
                counts[i] = count
        phase = state.phase
        if phase is not self._phase:
            if self._phase is not None:
                buffer[phase_at + _PHASE_INDEX[self._phase]] = 0
            buffer[phase_at + _PHASE_INDEX[phase]] = 1
            self._phase = phase
        to_act = 1 if state.to_act == me and phase is not Phase.OVER else 0
        if to_act != self._to_act:
            buffer[to_act_at] = self._to_act = to_act
        dealer = 1 if state.dealer == me else 0
        if dealer != self._dealer:
            buffer[dealer_at] = self._dealer = dealer
        if pending != self._pending:
            self._write_pending(self._pending, 0)
            self._write_pending(pending, 1)
            self._pending = pending
        if self._extra_at:
            self._update_extra(state)

    def _update_extra(self, state: GameState) -> None:
        """The one-hot slices of the N-player game (seats as offsets from the player) and
        of the exchange (only the player's own choice, and the card he received)."""
        me = self.player
        n = len(state.hands)
        values: list[int] = []
        if n > 2:
            over = state.phase is Phase.OVER
            values += [
                -1 if over else (state.to_act - me) % n,
                (state.dealer - me) % n,
                -1 if state.owner < 0 else (state.owner - me) % n,
                -1 if state.offeree < 0 else (state.offeree - me) % n,
            ]
        if state.rules.exchange_one_card:
            values += [state.exchange[me] if state.exchange else -1, state.received(me)]
        buffer = self.buffer
        extra = self._extra
        for i, at in enumerate(self._extra_at):
            old = extra[i]
            value = values[i]
            if value != old:
                if old >= 0:
                    buffer[at + old] = 0
                if value >= 0:
                    buffer[at + value] = 1
                extra[i] = value

    def _write_pending(self, pending: Pending | None, value: int) -> None:
        if pending is None:
            return
        at = self._at
        buffer = self.buffer
        buffer[at.pending_mode + (0 if pending.mode == TAKE else 1)] = value
        base = at.pending_melds - MELD_BASE
        for action_id in pending.chosen:
            buffer[base + action_id] = value

    def clear(self) -> None:
        """Back to the all-zero tensor; the next update writes every entry that is set."""
        self.buffer[:] = bytes(len(self.buffer))
        self._hand = self._dead = self._seen = self._table_bits = 0
        self._tables = None
        self._centre = self._source = -1
        self._stock = -1
        self._counts = [-1] * len(self._others)
        self._extra = [-1] * len(self._extra_at)
        self._phase = None
        self._to_act = self._dealer = 0
        self._pending = None
        self._length = 0
        self._last = None
