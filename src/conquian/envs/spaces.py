"""The fixed action space and the observation tensors shared by every adapter.

Action ids
----------

An engine decision is turned into one or more small steps, each with a fixed
set of integer ids, so that every step's mask stays short.  With ``M`` melds in
the rules' meld table (182 under the standard rules, ids in the table's order):

===================  ===========================================================
id                   meaning
===================  ===========================================================
``0 .. 39``          discard the card with this index (``suit * 10 + rank - 1``)
``40`` TAKE          take the centre card: start choosing the new melds
``41`` DECLINE       refuse the offered card
``42`` PASS          refuse the card turned from the stock
``43`` FORCE         force the opponent to take the card he refused
``44`` NO_FORCE      let the refused card go
``45`` LAY           (variant ``meld_without_take``) start laying cards, then pass
``46`` FINISH        the melds chosen so far complete the take (or the lay)
``47 .. 47+M-1``     choose meld ``id - 47`` of the meld table
``47+M .. 47+M+39``  (variant ``exchange_one_card`` only) pass the card with index
                     ``id - 47 - M`` to the next seat in the exchange
===================  ===========================================================

A take is ``TAKE``, then the melds of the new table that are not already on
the player's table, in increasing id order, then ``FINISH``; the table's other
melds stay as they are.  A forced player skips ``TAKE`` (taking is his only
choice).  Every legal engine action has exactly one id sequence, and at every
step the mask shows exactly the ids that lead on to at least one legal action.
The exchange ids exist only under rules with the exchange, so every other
rules set keeps the ids (and the size) it always had, whatever the number of
players; ``FORCE`` forces the player who has just refused the card.

Rules with ``layoff_on_opponent`` (a centre card laid on another player's meld) have
no ids: an action space for them is refused (:class:`~conquian.errors.InvalidRulesError`),
and so is every adapter built on one.

>>> from conquian.state import GameState
>>> from conquian.rules import Rules
>>> space = ActionSpace(Rules())
>>> space.size, space.meld_id(0)
(229, 47)
>>> state = GameState.deal(Rules(), deck=list(range(40)), dealer=0)
>>> [space.describe(i) for i in Decision(space, state.legal_actions(), state.tables[1], state.phase).legal_ids()]
['take', 'pass']
>>> space.ids_of(state.legal_actions()[0], state.tables[1], state.phase)
(40, 179, 46)

Observation tensors
-------------------

:func:`encode_observation` and :func:`encode_info_state` turn a player's
:class:`~conquian.observation.Observation` (and nothing else) into a flat 0/1
vector whose named slices are listed by :meth:`TensorLayout.slices`; see
``docs/research.md`` for the table.

With two players (and no exchange) the layout is the two-player one, unchanged:
``own_*`` slices for the observer and ``opp_*`` slices for the opponent.  With
``N`` players every other seat is written relative to the observer, by its seat
offset ``k = 1 .. N-1`` (``k = 1`` is the next seat, who plays after him): the
``opp_*`` slices become ``opp1_*``, ``opp2_*`` ... in that order (tables and melds,
then taken / declined / passed / discarded / forced, then hand counts), and four
one-hot slices of ``N`` entries (offset 0 = the observer) are added at the end of
the observation: ``to_act_seat``, ``dealer_seat``, ``centre_owner`` (who turned or
paid the centre card) and ``offeree`` (whom it is offered to; in a force decision,
who refused it).  Under the exchange the ``phase`` slice has a seventh entry
(exchange) and two card slices follow: ``exchange_passed`` (the card the observer
chose to pass) and ``exchange_received`` (the card he received, once the cards
have moved).  :meth:`TensorLayout.seat_prefix` names the slices of a seat offset.

>>> layout = TensorLayout(Rules(num_players=3, force_by="offerer"))
>>> [name for name, _, _ in layout.slices()][3:7]
['opp1_table', 'opp1_melds', 'opp2_table', 'opp2_melds']
>>> [name for name, _, _ in layout.slices()][-4:]
['to_act_seat', 'dealer_seat', 'centre_owner', 'offeree']
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..actions import Action, ActionKind
from ..cards import NUM_CARDS, format_mask
from ..errors import IllegalActionError, InvalidRulesError
from ..melds import Partition, meld_table, partition_mask
from ..observation import Observation, PublicEvent
from ..rules import Rules
from ..state import Phase, Source

DISCARD_BASE = 0
TAKE = 40
DECLINE = 41
PASS = 42
FORCE = 43
NO_FORCE = 44
LAY = 45
FINISH = 46
MELD_BASE = 47

_SIMPLE_IDS = {
    ActionKind.DECLINE: DECLINE,
    ActionKind.PASS: PASS,
    ActionKind.FORCE: FORCE,
    ActionKind.NO_FORCE: NO_FORCE,
}
_NAMES = {
    TAKE: "take",
    DECLINE: "decline",
    PASS: "pass",
    FORCE: "force",
    NO_FORCE: "noforce",
    LAY: "lay",
    FINISH: "finish",
}

Mask = npt.NDArray[np.int8]
Tensor = npt.NDArray[np.float32]


class ActionSpace:
    """The action ids of one set of rules (the meld table fixes the size)."""

    def __init__(self, rules: Rules) -> None:
        if rules.layoff_on_opponent:
            raise InvalidRulesError(
                "The research environments have no action ids for layoff_on_opponent=true "
                "(laying the centre card on another player's meld); use rules without it."
            )
        self.rules = rules
        self.melds = meld_table(rules.max_seq_len)
        self.num_melds = len(self.melds.melds)
        self.exchange_base = MELD_BASE + self.num_melds if rules.exchange_one_card else -1
        """The first exchange id (``exchange_base + card``), or -1 without the exchange."""
        self.size = MELD_BASE + self.num_melds + (NUM_CARDS if rules.exchange_one_card else 0)
        """How many ids there are; constant for the rules."""
        self._meld_ids = self.melds.ids
        self._masks: dict[tuple[int, ...], Mask] = {}

    def __reduce__(self) -> tuple[type[ActionSpace], tuple[Rules]]:
        return ActionSpace, (self.rules,)  # for mypyc, as melds.MeldTable.__reduce__

    def mask_of(self, ids: tuple[int, ...]) -> Mask:
        """The read-only int8 mask with 1 at ``ids`` (memoized: the same sets come back often)."""
        found = self._masks.get(ids)
        if found is None:
            if len(self._masks) > 100_000:
                self._masks.clear()
            found = np.zeros(self.size, dtype=np.int8)
            found[list(ids)] = 1
            found.flags.writeable = False
            self._masks[ids] = found
        return found

    def meld_id(self, index: int) -> int:
        """The action id that chooses meld ``index`` of the meld table."""
        return MELD_BASE + index

    def exchange_id(self, card: int) -> int:
        """The action id that passes ``card`` in the exchange (rules with the exchange only).

        >>> ActionSpace(Rules(exchange_one_card=True)).exchange_id(0)
        229
        """
        if self.exchange_base < 0:
            raise ValueError("These rules have no exchange, so no exchange ids.")
        return self.exchange_base + card

    def describe(self, action_id: int) -> str:
        """A short text for an id (``discard Kh``, ``take``, ``meld 5c6c7c``, ``exchange Kh``).

        >>> ActionSpace(Rules()).describe(FINISH)
        'finish'
        """
        self.check(action_id)
        if action_id < TAKE:
            return f"discard {format_mask(1 << action_id)}"
        if action_id < MELD_BASE:
            return _NAMES[action_id]
        if 0 <= self.exchange_base <= action_id:
            return f"exchange {format_mask(1 << (action_id - self.exchange_base))}"
        return f"meld {format_mask(self.melds.melds[action_id - MELD_BASE], '')}"

    def check(self, action_id: object) -> int:
        """The id as an int, or an error naming what is wrong with it.

        :raises IllegalActionError: if ``action_id`` is not an id of this space.
        """
        if isinstance(action_id, np.integer):
            action_id = int(action_id)
        if not isinstance(action_id, int) or isinstance(action_id, bool):
            raise IllegalActionError(f"An action id must be an integer, got {action_id!r}.")
        if not 0 <= action_id < self.size:
            raise IllegalActionError(
                f"Action id {action_id} is outside the action space 0..{self.size - 1}."
            )
        return action_id

    def new_meld_ids(self, melds: Partition, old_table: Partition) -> tuple[int, ...]:
        """The ids choosing the melds of ``melds`` that are not on ``old_table``, in order."""
        old = set(old_table)
        ids = self._meld_ids
        return tuple(sorted([MELD_BASE + ids[m] for m in melds if m not in old]))

    def ids_of(self, action: Action, own_table: Partition, phase: Phase) -> tuple[int, ...]:
        """The id sequence that plays the engine ``action`` (``own_table``: the actor's table)."""
        kind = action.kind
        if kind is ActionKind.DISCARD:
            return (DISCARD_BASE + action.card,)
        if kind is ActionKind.EXCHANGE:
            return (self.exchange_id(action.card),)
        if kind is ActionKind.TAKE:
            start = () if phase is Phase.FORCED else (TAKE,)
            return (*start, *self.new_meld_ids(action.melds, own_table), FINISH)
        if kind is ActionKind.PASS and action.melds:
            return (LAY, *self.new_meld_ids(action.melds, own_table), FINISH)
        return (_SIMPLE_IDS[kind],)


class Decision:
    """One engine decision taken as a sequence of id steps.

    Built from the legal actions and the actor's table only (both in his
    observation).  :meth:`step` returns the engine action once it is complete.
    """

    __slots__ = (
        "_complete",
        "_next",
        "_simple",
        "_simple_ids",
        "_table",
        "_whole",
        "chosen",
        "mode",
        "space",
    )

    def __new__(cls, *args: object, **kwargs: object) -> Decision:
        return object.__new__(cls)  # for mypyc, as GameState.__new__

    def __init__(
        self, space: ActionSpace, legal: tuple[Action, ...], own_table: Partition, phase: Phase
    ) -> None:
        self.space = space
        self._table = own_table
        takes: list[Action] = []
        lays: list[Action] = []
        if phase is Phase.DISCARD:  # the usual case, made quick: discard ids are card indexes
            self._simple: dict[int, Action] = {action.card: action for action in legal}
            legal = ()
        elif phase is Phase.EXCHANGE:
            base = space.exchange_base
            self._simple = {base + action.card: action for action in legal}
            legal = ()
        else:
            self._simple = {}
        for action in legal:
            kind = action.kind
            if kind is ActionKind.TAKE:
                takes.append(action)
            elif kind is ActionKind.DISCARD:
                self._simple[action.card] = action
            elif kind is ActionKind.PASS and action.melds:
                lays.append(action)
            else:
                self._simple[_SIMPLE_IDS[kind]] = action
        self._whole = {TAKE: takes, LAY: lays}
        if takes:
            self._simple[TAKE] = takes[0]
        if lays:
            self._simple[LAY] = lays[0]
        self.mode = -1
        """TAKE or LAY while melds are being chosen, else -1."""
        self.chosen: tuple[int, ...] = ()
        """The meld ids chosen so far."""
        self._simple_ids: list[int] | None = None
        self._next: dict[tuple[int, ...], list[int]] = {}
        self._complete: dict[tuple[int, ...], Action] = {}
        if phase is Phase.FORCED:
            self._start(TAKE)

    def _start(self, mode: int) -> None:
        self.mode = mode
        new_meld_ids = self.space.new_meld_ids
        table = self._table
        follow: dict[tuple[int, ...], set[int]] = {}
        complete: dict[tuple[int, ...], Action] = {}
        for action in self._whole[mode]:
            seq = new_meld_ids(action.melds, table)
            complete[seq] = action
            for i in range(len(seq)):
                follow.setdefault(seq[:i], set()).add(seq[i])
            follow.setdefault(seq, set()).add(FINISH)
        self._next = {prefix: sorted(ids) for prefix, ids in follow.items()}
        self._complete = complete

    def copy(self) -> Decision:
        """A copy that can go on independently (the legal lists are shared, never changed)."""
        new = Decision.__new__(Decision)
        new.space = self.space
        new._table = self._table
        new._simple = self._simple
        new._simple_ids = self._simple_ids
        new._whole = self._whole
        new.mode = self.mode
        new.chosen = self.chosen
        new._next = self._next
        new._complete = self._complete
        return new

    def legal_ids(self) -> list[int]:
        """The ids allowed at this step, ascending (a list shared with later calls: do not change it)."""
        if self.mode < 0:
            ids = self._simple_ids
            if ids is None:
                ids = self._simple_ids = sorted(self._simple)
            return ids
        return self._next[self.chosen]

    def mask(self) -> Mask:
        """The legal ids as a read-only int8 0/1 vector (shared: copy it to change it)."""
        return self.space.mask_of(tuple(self.legal_ids()))

    def step(self, action_id: object) -> Action | None:
        """Play one id: the finished engine action, or None while melds are being chosen.

        :raises IllegalActionError: naming the id and the legal ones; nothing changes.
        """
        if self.mode < 0:
            action = self._simple.get(action_id) if type(action_id) is int else None
            if action is None:
                action_id = self._refuse(action_id)
                action = self._simple[action_id]
            if action_id in (TAKE, LAY):
                self._start(action_id)
                return None
            return action
        if type(action_id) is not int or action_id not in self._next[self.chosen]:
            action_id = self._refuse(action_id)
        if action_id == FINISH:
            return self._complete[self.chosen]
        self.chosen = (*self.chosen, action_id)
        return None

    def _refuse(self, action_id: object) -> int:
        """The id as an int if it is legal after all (a NumPy integer), else the error."""
        action_id = self.space.check(action_id)
        legal_ids = self.legal_ids()
        if action_id not in legal_ids:
            legal = ", ".join(f"{i} ({self.space.describe(i)})" for i in legal_ids)
            raise IllegalActionError(
                f"Action id {action_id} ({self.space.describe(action_id)}) is not legal at "
                f"this step; the legal ids are: {legal}."
            )
        return action_id


# ----------------------------------------------------------------- tensors

_SEAT_CARD_SLICES = ("taken", "declined", "passed", "discarded", "forced")
"""The per-seat card slices of the history, in layout order."""
_SEAT_KIND = {
    ActionKind.TAKE: 0,
    ActionKind.DECLINE: 1,
    ActionKind.PASS: 2,
    ActionKind.DISCARD: 3,
}
"""Which per-seat slice records another player's event, by its kind (index 4: forced)."""


class TensorLayout:
    """Named slices of the observation and information-state tensors for one rules set."""

    def __init__(self, rules: Rules, history_rows: int | None = None) -> None:
        space = ActionSpace(rules)
        self.space = space
        m = space.num_melds
        n = rules.num_players
        self.num_players = n
        """Players at the table; the other seats are written by offsets 1 .. n-1."""
        exchange = rules.exchange_one_card
        self.max_stock = NUM_CARDS - n * rules.hand_size
        hand_max = rules.hand_size + 1
        others = [self.seat_prefix(k) for k in range(1, n)]
        pieces: list[tuple[str, int]] = [
            ("hand", NUM_CARDS),
            ("own_table", NUM_CARDS),
            ("own_melds", m),
        ]
        for prefix in others:
            pieces += [(f"{prefix}_table", NUM_CARDS), (f"{prefix}_melds", m)]
        pieces += [
            ("centre", NUM_CARDS),
            ("centre_source", 4),
            ("dead", NUM_CARDS),
            ("seen", NUM_CARDS),
        ]
        for prefix in others:
            pieces += [(f"{prefix}_{what}", NUM_CARDS) for what in _SEAT_CARD_SLICES]
        pieces.append(("stock_count", self.max_stock + 1))
        pieces += [(f"{prefix}_hand_count", hand_max + 1) for prefix in others]
        pieces += [
            ("phase", 7 if exchange else 6),
            ("to_act", 1),
            ("dealer", 1),
            ("pending_mode", 2),
            ("pending_melds", m),
        ]
        if n > 2:
            pieces += [
                (name, n) for name in ("to_act_seat", "dealer_seat", "centre_owner", "offeree")
            ]
        if exchange:
            pieces += [("exchange_passed", NUM_CARDS), ("exchange_received", NUM_CARDS)]
        self.observation_pieces = pieces
        self.actor_width = 1 if n == 2 else n
        """History row: "the actor is the player" (two players), else the actor's seat offset."""
        self.kind_width = 8 if exchange else 7
        """History row: the kinds of event (an eighth, the exchange, under the exchange)."""
        self.row_width = self.actor_width + self.kind_width + NUM_CARDS + 5 + m
        # Takes: each puts at least one card on a table, at most hand_size per player plus
        # the winning one.  Discards: one per non-winning take.  Each stock card is refused
        # at most once by every player and each discard by every player but its payer, and
        # each refusal may be followed by one force decision.  Then one choice per player in
        # the exchange.
        takes = n * rules.hand_size + 1
        refusals = n * (self.max_stock + 1) + (n - 1) * (takes - 1)
        exchanges = n if exchange else 0
        self.history_rows = history_rows or takes + (takes - 1) + 2 * refusals + exchanges
        self.info_pieces: list[tuple[str, int]] = [
            *self.observation_pieces,
            ("dealt_hand", NUM_CARDS),
            ("history", self.history_rows * self.row_width),
        ]
        self.offsets: dict[str, int] = {}
        offset = 0
        for name, size in self.info_pieces:
            self.offsets[name] = offset
            offset += size
        self.observation_size = sum(size for _, size in self.observation_pieces)
        self._table_bits: dict[tuple[Partition, int], tuple[int, int]] = {}
        self._table_at = [self.offsets[f"{self.seat_prefix(k)}_table"] for k in range(n)]
        self._melds_at = [self.offsets[f"{self.seat_prefix(k)}_melds"] for k in range(n)]
        self.info_size = offset

    def seat_prefix(self, offset: int) -> str:
        """The name prefix of the slices of the seat ``offset`` places after the observer:
        ``own`` for himself, ``opp`` for the opponent of a two-player game, else ``opp<offset>``.

        >>> TensorLayout(Rules()).seat_prefix(1)
        'opp'
        """
        if offset == 0:
            return "own"
        return "opp" if self.num_players == 2 else f"opp{offset}"

    def table_bits(self, table: Partition, offset: int) -> tuple[int, int]:
        """A table's card mask, and its bits in the table and melds slices of the seat
        ``offset`` places after the observer (0: his own; memoized)."""
        key = (table, offset)
        found = self._table_bits.get(key)
        if found is None:
            if len(self._table_bits) > 100_000:
                self._table_bits.clear()
            mask = partition_mask(table)
            bits = mask << self._table_at[offset]
            base = self._melds_at[offset]
            ids = self.space.melds.ids
            for meld in table:
                bits |= 1 << (base + ids[meld])
            found = self._table_bits[key] = (mask, bits)
        return found

    def __deepcopy__(self, memo: dict[int, object]) -> TensorLayout:
        return self  # never changed after it is built

    def __reduce__(self) -> tuple[type[TensorLayout], tuple[Rules, int]]:
        # for mypyc, as melds.MeldTable.__reduce__
        return TensorLayout, (self.space.rules, self.history_rows)

    def slices(self, info_state: bool = False) -> list[tuple[str, int, int]]:
        """``(name, start, stop)`` of every named slice.

        >>> TensorLayout(Rules()).slices()[:2]
        [('hand', 0, 40), ('own_table', 40, 80)]
        """
        pieces = self.info_pieces if info_state else self.observation_pieces
        return [(name, self.offsets[name], self.offsets[name] + size) for name, size in pieces]


_SOURCE_INDEX = {Source.DISCARD: 0, Source.PASSED: 1, Source.TURNED: 2, Source.UPCARD: 3}
_SOURCE_ROW = {
    Source.NONE: 0,
    Source.DISCARD: 1,
    Source.PASSED: 2,
    Source.TURNED: 3,
    Source.UPCARD: 4,
}
_PHASE_INDEX = {phase: i for i, phase in enumerate(Phase)}
_KIND_ROW = {
    ActionKind.TAKE: 0,
    ActionKind.DECLINE: 1,
    ActionKind.PASS: 2,
    ActionKind.FORCE: 3,
    ActionKind.NO_FORCE: 4,
    ActionKind.DISCARD: 5,
    ActionKind.EXCHANGE: 7,
}
"""History row kind index (6 is a lay-and-pass, 7 the exchange)."""


class Pending(NamedTuple):
    """Melds the acting player has chosen in an unfinished take or lay."""

    mode: int
    """TAKE or LAY."""
    chosen: tuple[int, ...]
    """Action ids of the chosen melds."""


def bits_to_array(bits: int, size: int) -> Tensor:
    """The ``size`` lowest bits of ``bits`` as a float32 0/1 vector (bit 0 first).

    >>> bits_to_array(0b101, 4).tolist()
    [1.0, 0.0, 1.0, 0.0]
    """
    raw = np.frombuffer(bits.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=size, bitorder="little").astype(np.float32)


def mask_array(bits: int, size: int) -> Mask:
    """The ``size`` lowest bits of ``bits`` as an int8 0/1 vector."""
    raw = np.frombuffer(bits.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=size, bitorder="little").view(np.int8)


def observation_bits(
    layout: TensorLayout,
    obs: Observation,
    pending: Pending | None,
) -> int:
    """The observation tensor of ``obs`` as the bits of one int (see :func:`encode_observation`).

    Built from scratch: the reference for :class:`~conquian.envs.tracker.ObservationTracker`.
    """
    off = layout.offsets
    me = obs.viewer
    n = len(obs.tables)
    seen = obs.dead_mask
    bits = obs.hand_mask
    for k in range(n):
        mask, table_bits = layout.table_bits(obs.tables[(me + k) % n], k)
        seen |= mask
        bits |= table_bits
    if obs.centre >= 0:
        seen |= 1 << obs.centre
        bits |= 1 << (off["centre"] + obs.centre)
        bits |= 1 << (off["centre_source"] + _SOURCE_INDEX[obs.source])
    bits |= obs.dead_mask << off["dead"] | seen << off["seen"]
    history = seat_history(obs)
    for k in range(1, n):
        prefix = layout.seat_prefix(k)
        for what, cards in zip(_SEAT_CARD_SLICES, history[k], strict=True):
            bits |= cards << off[f"{prefix}_{what}"]
        bits |= 1 << (off[f"{prefix}_hand_count"] + obs.hand_counts[(me + k) % n])
    bits |= 1 << (off["stock_count"] + min(obs.stock_count, layout.max_stock))
    bits |= 1 << (off["phase"] + _PHASE_INDEX[obs.phase])
    if obs.to_act == me and obs.phase is not Phase.OVER:
        bits |= 1 << off["to_act"]
    if obs.dealer == me:
        bits |= 1 << off["dealer"]
    if pending is not None:
        bits |= 1 << (off["pending_mode"] + (0 if pending.mode == TAKE else 1))
        base = off["pending_melds"] - MELD_BASE
        for action_id in pending.chosen:
            bits |= 1 << (base + action_id)
    if n > 2:
        if obs.phase is not Phase.OVER:
            bits |= 1 << (off["to_act_seat"] + (obs.to_act - me) % n)
        bits |= 1 << (off["dealer_seat"] + (obs.dealer - me) % n)
        if obs.owner >= 0:
            bits |= 1 << (off["centre_owner"] + (obs.owner - me) % n)
        if obs.offeree >= 0:
            bits |= 1 << (off["offeree"] + (obs.offeree - me) % n)
    if obs.rules.exchange_one_card:
        if obs.passed >= 0:
            bits |= 1 << (off["exchange_passed"] + obs.passed)
        if obs.received >= 0:
            bits |= 1 << (off["exchange_received"] + obs.received)
    return bits


def seat_history(obs: Observation) -> list[list[int]]:
    """Per seat offset ``k`` (0 unused): the cards that seat took, declined, passed and
    discarded, and those the observer forced on it (see ``_SEAT_CARD_SLICES``).

    Another player's exchange choice is never read: exchange events are skipped.
    """
    n = len(obs.tables)
    me = obs.viewer
    found = [[0] * len(_SEAT_CARD_SLICES) for _ in range(n)]
    previous = -1
    for event in obs.history:
        kind = event.action.kind
        k = (event.player - me) % n
        if k:
            index = _SEAT_KIND.get(kind)
            if index is not None:
                found[k][index] |= 1 << event.card
        elif kind is ActionKind.FORCE:
            # the refuser is the other player, or (more players) who acted just before
            refuser = 1 - me if n == 2 else previous
            if refuser >= 0:
                found[(refuser - me) % n][4] |= 1 << event.card
        previous = event.player
    return found


def encode_observation(
    layout: TensorLayout, obs: Observation, pending: Pending | None = None
) -> Tensor:
    """The current-observation tensor of ``obs`` (float32 0/1, ``layout.observation_size`` long).

    >>> from conquian.game import Game
    >>> game = Game(seed=1)
    >>> layout = TensorLayout(game.rules)
    >>> vector = encode_observation(layout, game.observation(0))
    >>> vector.shape, int(vector[:40].sum())
    ((1033,), 10)
    """
    return bits_to_array(observation_bits(layout, obs, pending), layout.observation_size)


def dealt_hand(obs: Observation) -> int:
    """The hand the player was dealt, worked out from his observation and its history
    (before the exchange, if there is one)."""
    me = obs.viewer
    taken = discarded = 0
    for event in obs.history:
        if event.player == me:
            if event.action.kind is ActionKind.TAKE:
                taken |= 1 << event.card
            elif event.action.kind is ActionKind.DISCARD:
                discarded |= 1 << event.card
    hand = obs.hand_mask | (partition_mask(obs.tables[me]) & ~taken) | discarded
    if obs.received >= 0 and obs.passed >= 0:  # the cards have moved: undo the exchange
        hand = (hand & ~(1 << obs.received)) | 1 << obs.passed
    return hand


def info_state_bits(layout: TensorLayout, obs: Observation, pending: Pending | None) -> int:
    """The perfect-recall information state of ``obs`` as the bits of one int."""
    bits = observation_bits(layout, obs, pending)
    bits |= dealt_hand(obs) << layout.offsets["dealt_hand"]
    if len(obs.history) > layout.history_rows:
        raise ValueError(
            f"The history has {len(obs.history)} events, more than the "
            f"{layout.history_rows} rows of the information-state tensor."
        )
    width = layout.row_width
    base = layout.offsets["history"]
    tables: list[Partition] = [()] * len(obs.tables)
    for row, event in enumerate(obs.history):
        bits |= _row_bits(layout, event, tables, obs.viewer) << (base + row * width)
    return bits


def _row_bits(layout: TensorLayout, event: PublicEvent, tables: list[Partition], me: int) -> int:
    action = event.action
    kind = action.kind
    n = len(tables)
    bits = (1 if event.player == me else 0) if n == 2 else 1 << (event.player - me) % n
    at = layout.actor_width
    kind_index = 6 if kind is ActionKind.PASS and action.melds else _KIND_ROW[kind]
    bits |= 1 << (at + kind_index)
    at += layout.kind_width
    if event.card >= 0:  # (another player's exchange choice is hidden: no card)
        bits |= 1 << (at + event.card)
    at += NUM_CARDS
    bits |= 1 << (at + _SOURCE_ROW[event.source])
    at += 5
    if action.melds:
        for action_id in layout.space.new_meld_ids(action.melds, tables[event.player]):
            bits |= 1 << (at + action_id - MELD_BASE)
        tables[event.player] = action.melds
    return bits


def encode_info_state(
    layout: TensorLayout, obs: Observation, pending: Pending | None = None
) -> Tensor:
    """The perfect-recall information-state tensor: the observation, the dealt hand and
    one row per public event (actor, kind, card, source, new melds of a take).

    >>> from conquian.game import Game
    >>> game = Game(seed=1)
    >>> layout = TensorLayout(game.rules)
    >>> encode_info_state(layout, game.observation(0)).shape == (layout.info_size,)
    True
    """
    return bits_to_array(info_state_bits(layout, obs, pending), layout.info_size)
