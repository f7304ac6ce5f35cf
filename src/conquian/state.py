"""The state machine of one deal.

A :class:`GameState` is one position of a deal: hands, each table with its
partition into melds, the centre card and where it came from, the dead pile and
the stock.  Every position is a decision of one player; :meth:`GameState.legal_actions`
lists the choices and :meth:`GameState.apply` plays one (checking it first).

Two to four players sit in play order: after player ``p`` comes ``(p + 1) % n``.  A
card turned from the stock is offered first to the player who turned it, then to each
other player in play order; a discarded (paid) card to each other player in play order
from the seat after the one who paid it.  A card nobody takes is dead, and the seat
after the player who turned or paid it turns the next stock card.  With two players
this is the two-player game exactly.

>>> state = GameState.deal(Rules(), deck=list(range(40)), dealer=0)
>>> state.phase, state.to_act, str(state.centre_card)
(<Phase.TURN: 'turn'>, 1, 'Ad')
>>> [str(a) for a in state.legal_actions()]
['take AsAhAd', 'pass']
>>> state.apply(Action.parse("take AsAhAd"))
>>> state.phase, str(state.hand(1))
(<Phase.DISCARD: 'discard'>, '3s 5s 7s Qs 3h 5h 7h Qh')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from typing import NamedTuple

from .actions import Action, ActionKind
from .cards import ALL_CARDS_MASK, CARDS, NUM_CARDS, Card, CardSet, format_mask, mask_indices
from .errors import GameOverError, IllegalActionError, IllegalReason, InvalidStateError
from .melds import (
    MeldTable,
    Partition,
    RearrangeMode,
    format_partition,
    is_rearrangement_allowed,
    meld_kind,
    meld_table,
    partition_mask,
)
from .rules import (
    Exhaustion,
    ForceBy,
    ForcedTake,
    ForceFit,
    ForceScope,
    Forcing,
    InitialUpcard,
    MeldWithoutTake,
    Rules,
)


class Phase(StrEnum):
    """The kind of decision the player to act faces."""

    OFFER = "offer"
    """Take or decline the card the opponent discarded or passed (or the initial upcard)."""
    TURN = "turn"
    """Take or pass the card the player just turned from the stock."""
    FORCE = "force"
    """The opponent refused a card that fits his table: force him to take it, or not."""
    FORCED = "forced"
    """The player was forced: he must take the centre card."""
    DISCARD = "discard"
    """Discard a hand card after taking."""
    OVER = "over"
    """The deal has ended."""
    EXCHANGE = "exchange"
    """(Variant ``exchange_one_card``) choose the hand card to pass to the next seat; it comes
    right after the deal (listed last so that the two-player phases keep their numbers)."""


class Source(StrEnum):
    """Where the centre card came from."""

    NONE = "-"
    DISCARD = "d"
    """Discarded (paid) by its owner, another player than the one it is offered to."""
    PASSED = "p"
    """Turned from the stock by its owner, who passed it."""
    TURNED = "t"
    """Turned from the stock by the player it is offered to, its owner."""
    UPCARD = "u"
    """Turned up after the deal (variant ``initial_upcard``)."""


class Termination(StrEnum):
    """How a deal ended."""

    OUT = "out"
    """A player melded hand_size + 1 cards."""
    STOCK_EXHAUSTED = "stock_exhausted"
    """A player had to turn a stock card and none was left."""


class Outcome(NamedTuple):
    """The end of a deal: the winner (None for a draw) and how it ended."""

    winner: int | None
    termination: Termination

    def __str__(self) -> str:
        if self.winner is None:
            return "draw (stock exhausted)"
        how = "went out" if self.termination is Termination.OUT else "held fewer cards"
        return f"player {self.winner} wins ({how})"


_OFFERED_SOURCES = (Source.DISCARD, Source.PASSED, Source.UPCARD)


class GameState:
    """One position of a deal.  Mutable: :meth:`apply` changes it in place.

    Use :meth:`copy` (cheap) or :meth:`child` to keep the original.
    """

    __slots__ = (
        "_legal",
        "centre",
        "dead_mask",
        "dealer",
        "exchange",
        "hands",
        "melds",
        "offeree",
        "owner",
        "phase",
        "rules",
        "source",
        "stake",
        "stock",
        "stock_pos",
        "table_masks",
        "tables",
        "termination",
        "to_act",
        "winner",
    )

    rules: Rules
    melds: MeldTable
    dealer: int
    phase: Phase
    to_act: int
    hands: tuple[int, ...]
    tables: tuple[Partition, ...]
    table_masks: tuple[int, ...]
    centre: int
    source: Source
    owner: int
    """Who turned or paid the centre card (-1 for none, and for an initial upcard)."""
    offeree: int
    """Whom the centre card is offered to now (in a force decision: who refused it)."""
    exchange: tuple[int, ...]
    """(Variant ``exchange_one_card``) the card each player passes to the next seat, -1 while
    not chosen; empty without the exchange, or when a position did not record it."""
    dead_mask: int
    stock: tuple[int, ...]
    stock_pos: int
    winner: int | None
    """The winner of a finished deal; None while it is being played and for a draw."""
    termination: Termination | None
    stake: int
    _legal: tuple[Action, ...] | None

    # ----------------------------------------------------------------- setup

    def __new__(cls, *args: object, **kwargs: object) -> GameState:
        # Spelled out for mypyc: a compiled class makes an instance without running
        # __init__ (as copy(), copy.copy, deepcopy and pickle do) only through
        # object.__new__ inside its own __new__.
        return object.__new__(cls)

    def __init__(
        self,
        rules: Rules,
        *,
        dealer: int,
        phase: Phase,
        to_act: int,
        hands: tuple[int, ...],
        tables: tuple[Partition, ...],
        centre: int = -1,
        source: Source = Source.NONE,
        owner: int | None = None,
        offeree: int | None = None,
        exchange: tuple[int, ...] = (),
        dead_mask: int = 0,
        stock: tuple[int, ...] = (),
        stock_pos: int = 0,
        winner: int | None = None,
        termination: Termination | None = None,
        stake: int = 1,
        validate: bool = True,
    ) -> None:
        self.rules = rules
        self.melds = meld_table(rules.max_seq_len)
        self.dealer = dealer
        self.phase = phase
        self.to_act = to_act
        self.hands = tuple(hands)
        self.tables = tuple(tuple(sorted(t)) for t in tables)
        self.table_masks = tuple(partition_mask(t) for t in self.tables)
        self.centre = centre
        self.source = source
        self.exchange = tuple(exchange)
        if owner is None or offeree is None:
            derived = two_player_roles(phase, to_act, source, centre)
            owner = derived[0] if owner is None else owner
            offeree = derived[1] if offeree is None else offeree
        self.owner = owner
        self.offeree = offeree
        self.dead_mask = dead_mask
        self.stock = tuple(stock)
        self.stock_pos = stock_pos
        self.winner = winner
        self.termination = termination
        self.stake = stake
        self._legal = None
        if validate:
            self.validate()

    @property
    def num_players(self) -> int:
        return len(self.hands)

    def next_seat(self, player: int) -> int:
        """The seat that plays after ``player``."""
        return (player + 1) % len(self.hands)

    @classmethod
    def deal(
        cls,
        rules: Rules,
        *,
        deck: list[int] | tuple[int, ...] | None = None,
        seed: int | None = None,
        dealer: int = 0,
        stake: int = 1,
    ) -> GameState:
        """Deal a new deal from an explicit deck order (top card first) or a seed.

        >>> a = GameState.deal(Rules(), seed=7)
        >>> b = GameState.deal(Rules(), deck=shuffled_deck(7))
        >>> a.hands == b.hands and a.stock == b.stock
        True

        :raises InvalidStateError: if the deck is not the 40 cards, each once.
        """
        if deck is None:
            deck = shuffled_deck(seed)
        order = tuple(deck)
        if sorted(order) != list(range(NUM_CARDS)):
            raise InvalidStateError("A deck must hold each of the 40 cards exactly once.")
        n = rules.num_players
        if not 0 <= dealer < n:
            raise InvalidStateError(
                f"The dealer must be one of players 0 to {n - 1}, got {dealer}."
            )
        hands = [0] * n
        pos = 0
        packet = rules.deal_packet
        receiver = (dealer + 1) % n
        while pos < n * rules.hand_size:
            for _ in range(packet):
                hands[receiver] |= 1 << order[pos]
                pos += 1
            receiver = (receiver + 1) % n
        state = cls(
            rules,
            dealer=dealer,
            phase=Phase.TURN,
            to_act=(dealer + 1) % n,
            hands=tuple(hands),
            tables=((),) * n,
            stock=order[pos:],
            stake=stake,
            owner=-1,
            offeree=-1,
            validate=False,
        )
        if rules.exchange_one_card:
            state.phase = Phase.EXCHANGE
            state.exchange = (-1,) * n
        else:
            state._open_play()
        return state

    def _open_play(self) -> None:
        """After the deal (and the exchange): the upcard is offered, or the seat after the
        dealer turns the first stock card."""
        first = (self.dealer + 1) % len(self.hands)
        if self.rules.initial_upcard is InitialUpcard.OFFERED_TO_BOTH:
            self.to_act = self.offeree = first
            self.centre = self.stock[0]
            self.stock_pos = 1
            self.source = Source.UPCARD
            self.phase = Phase.OFFER
        else:
            self._turn_stock(first)

    def validate(self) -> None:
        """Check that the position could arise in a game.

        :raises InvalidStateError: naming the first problem found.
        """
        rules = self.rules
        n = len(self.hands)
        if n != rules.num_players or len(self.tables) != n:
            raise InvalidStateError(
                f"The rules seat {rules.num_players} players; the position has "
                f"{n} hands and {len(self.tables)} tables."
            )
        seen = 0
        places: list[tuple[str, int]] = [(f"player {p}'s hand", self.hands[p]) for p in range(n)]
        places += [(f"player {p}'s table", self.table_masks[p]) for p in range(n)]
        places += [
            ("the dead pile", self.dead_mask),
            ("the centre", 1 << self.centre if self.centre >= 0 else 0),
        ]
        if not 0 <= self.stock_pos <= len(self.stock):
            raise InvalidStateError("The stock position is outside the stock.")
        whole_stock = 0
        for index in self.stock:
            if not 0 <= index < NUM_CARDS or whole_stock >> index & 1:
                raise InvalidStateError("The stock repeats a card or holds a non-card.")
            whole_stock |= 1 << index
        places.append(("the stock", self._unturned_mask()))
        for name, mask in places:
            if mask & seen:
                raise InvalidStateError(f"{format_mask(mask & seen)} is in {name} and elsewhere.")
            seen |= mask
        if seen != ALL_CARDS_MASK:
            raise InvalidStateError(
                f"Cards missing from the position: {format_mask(~seen & ALL_CARDS_MASK)}."
            )
        for p in range(n):
            total = 0
            for m in self.tables[p]:
                if m not in self.melds.valid:
                    raise InvalidStateError(
                        f"{format_mask(m, '')} on player {p}'s table is not a meld under these rules."
                    )
                total += m.bit_count()
            if total != self.table_masks[p].bit_count():
                raise InvalidStateError(f"Player {p}'s melds share a card.")
        if not (0 <= self.dealer < n and 0 <= self.to_act < n):
            raise InvalidStateError(f"Players are numbered 0 to {n - 1}.")
        if rules.layoff_on_opponent:
            self._validate_counts_with_layoffs()
        else:
            for p in range(n):
                count = self.hands[p].bit_count() + self.table_masks[p].bit_count()
                expected = rules.hand_size
                if self.phase is Phase.DISCARD and p == self.to_act:
                    expected += 1
                if (
                    self.phase is Phase.OVER
                    and p == self.winner
                    and self.termination is Termination.OUT
                ):
                    expected += 1
                if count != expected:
                    raise InvalidStateError(
                        f"Player {p} holds {count} cards in hand and on the table; "
                        f"expected {expected}."
                    )
        self._validate_exchange()
        needs_centre = self.phase in (Phase.OFFER, Phase.TURN, Phase.FORCE, Phase.FORCED)
        if needs_centre != (self.centre >= 0) or needs_centre == (self.source is Source.NONE):
            raise InvalidStateError(f"Phase {self.phase.value} and the centre card do not agree.")
        if needs_centre:
            self._validate_offer()
        if self.phase is Phase.TURN and self.source is not Source.TURNED:
            raise InvalidStateError(
                "In phase turn the centre card must be one the player turned (t)."
            )
        if self.phase is Phase.OFFER and self.source not in _OFFERED_SOURCES:
            raise InvalidStateError("In phase offer the centre card must be offered (d, p or u).")
        if self.source is Source.UPCARD and any(self.table_masks):
            raise InvalidStateError(
                "An initial upcard can only be offered before anyone has melded."
            )
        if self.phase in (Phase.FORCE, Phase.FORCED):
            refuser = self.offeree
            offered = self.source is not Source.TURNED
            if (
                self.source is Source.UPCARD
                or self._forcer(refuser) is None
                or not self.is_forceable(refuser, self.centre, offered=offered)
            ):
                raise InvalidStateError(
                    f"Phase {self.phase.value}: {CARDS[self.centre]} cannot be forced on "
                    f"player {refuser} under these rules."
                )
        if self.phase is Phase.OVER:
            if self.termination is None:
                raise InvalidStateError("A finished deal needs a termination.")
        elif self.termination is not None or self.winner is not None:
            raise InvalidStateError("Only a finished deal has a winner or termination.")

    def _validate_counts_with_layoffs(self) -> None:
        """The counts of :meth:`validate` under ``layoff_on_opponent``: a layoff moves a card
        to another player's table while its layer pays from his hand, so only the sum over
        the players is fixed (``hand_size`` each, one more while a taker or layer is to pay
        and for a winner who went out), and a winner who went out has no hand card."""
        n = len(self.hands)
        total = sum(self.hands[p].bit_count() + self.table_masks[p].bit_count() for p in range(n))
        expected = n * self.rules.hand_size
        out = self.phase is Phase.OVER and self.termination is Termination.OUT
        if self.phase is Phase.DISCARD or (out and self.winner is not None):
            expected += 1
        if total != expected:
            raise InvalidStateError(
                f"The players hold {total} cards in their hands and on their tables; "
                f"expected {expected}."
            )
        if out and self.winner is not None and self.hands[self.winner]:
            raise InvalidStateError(f"Player {self.winner} went out with cards in his hand.")

    def _validate_exchange(self) -> None:
        n = len(self.hands)
        picks = self.exchange
        if not self.rules.exchange_one_card:
            if picks or self.phase is Phase.EXCHANGE:
                raise InvalidStateError("These rules have no exchange (exchange_one_card false).")
            return
        if self.phase is not Phase.EXCHANGE:
            if picks and (len(picks) != n or -1 in picks or len(set(picks)) != n):
                raise InvalidStateError(
                    f"The exchange must name {n} different cards, one passed by each player."
                )
            return
        if len(picks) != n:
            raise InvalidStateError(f"The exchange must have an entry for each of {n} players.")
        if self.centre >= 0 or self.stock_pos or any(self.table_masks) or self.dead_mask:
            raise InvalidStateError("The exchange comes right after the deal, before any play.")
        chosen = chosen_in_exchange(self.dealer, self.to_act, n)
        for p in range(n):
            if (p in chosen) != (picks[p] >= 0):
                raise InvalidStateError(
                    f"In the exchange, the players before player {self.to_act} (from the seat "
                    "after the dealer) have chosen their card, and no one else."
                )
            if picks[p] >= 0 and not self.hands[p] >> picks[p] & 1:
                raise InvalidStateError(
                    f"Player {p} passes {CARDS[picks[p]]}, which is not in his hand."
                )

    def _validate_offer(self) -> None:
        """The owner and the offeree of the centre card fit the phase and its source."""
        n = len(self.hands)
        owner, offeree, source = self.owner, self.offeree, self.source
        if source is Source.UPCARD:
            if owner != -1 or offeree != self.to_act:
                raise InvalidStateError(
                    "An initial upcard has no owner; it is offered to the player to act."
                )
            return
        if not (0 <= owner < n and 0 <= offeree < n):
            raise InvalidStateError(
                f"The centre card needs the player who turned or paid it (0 to {n - 1})."
            )
        if self.phase is Phase.FORCE:
            if self._forcer(offeree) != self.to_act:
                raise InvalidStateError(
                    f"Player {self.to_act} cannot force player {offeree} to take this card."
                )
        elif offeree != self.to_act:
            raise InvalidStateError("The centre card is offered to the player to act.")
        if source is Source.TURNED:
            if offeree != owner:
                raise InvalidStateError("A card just turned is the turner's to take or pass.")
        elif offeree == owner:
            raise InvalidStateError(
                "A card turned and passed, or paid, is offered to the other players, "
                "never back to its owner."
            )

    def _unturned_mask(self) -> int:
        mask = 0
        for index in self.stock[self.stock_pos :]:
            mask |= 1 << index
        return mask

    # --------------------------------------------------------------- copying

    def copy(self) -> GameState:
        """A copy that shares nothing mutable with this state."""
        new = GameState.__new__(GameState)
        new.rules = self.rules
        new.melds = self.melds
        new.dealer = self.dealer
        new.phase = self.phase
        new.to_act = self.to_act
        new.hands = self.hands
        new.tables = self.tables
        new.table_masks = self.table_masks
        new.centre = self.centre
        new.source = self.source
        new.owner = self.owner
        new.offeree = self.offeree
        new.exchange = self.exchange
        new.dead_mask = self.dead_mask
        new.stock = self.stock
        new.stock_pos = self.stock_pos
        new.winner = self.winner
        new.termination = self.termination
        new.stake = self.stake
        new._legal = self._legal
        return new

    def child(self, action: Action) -> GameState:
        """A copy with ``action`` applied."""
        new = self.copy()
        new.apply(action)
        return new

    def redeal(self, player: int, rng: random.Random) -> GameState:
        """A copy in which the cards hidden from ``player`` are dealt again at random.

        The other hands and the unturned stock are shuffled together and dealt back in
        the same sizes; everything ``player`` can see is unchanged (also the card he
        passed in the exchange, which stays with its receiver while in hand).  Other
        players' exchange choices not yet made known are dropped.
        """
        n = len(self.hands)
        known = [0] * n  # cards player knows to be in a hand
        if self.exchange and self.phase is not Phase.EXCHANGE:
            receiver = (player + 1) % n
            known[receiver] = self.hands[receiver] & 1 << self.exchange[player]
        hidden = self._unturned_mask()
        for p in range(n):
            if p != player:
                hidden |= self.hands[p] & ~known[p]
        cards = mask_indices(hidden)
        rng.shuffle(cards)
        hands = list(self.hands)
        at = 0
        for p in range(n):
            if p == player:
                continue
            count = (self.hands[p] & ~known[p]).bit_count()
            hand = known[p]
            for index in cards[at : at + count]:
                hand |= 1 << index
            hands[p] = hand
            at += count
        new = self.copy()
        new.hands = tuple(hands)
        new.stock = self.stock[: self.stock_pos] + tuple(cards[at:])
        if self.phase is Phase.EXCHANGE:  # the others' choices are hidden: chosen again
            new.exchange = tuple(
                c if p == player or c < 0 else rng.choice(mask_indices(new.hands[p]))
                for p, c in enumerate(self.exchange)
            )
        new._legal = None
        return new

    # ---------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def outcome(self) -> Outcome | None:
        """The result, or None while the deal goes on."""
        if self.termination is None:
            return None
        return Outcome(self.winner, self.termination)

    @property
    def stock_count(self) -> int:
        """Cards left in the stock."""
        return len(self.stock) - self.stock_pos

    def hand(self, player: int) -> CardSet:
        return CardSet(self.hands[player])

    def table(self, player: int) -> CardSet:
        return CardSet(self.table_masks[player])

    @property
    def centre_card(self) -> Card | None:
        return CARDS[self.centre] if self.centre >= 0 else None

    @property
    def dead(self) -> CardSet:
        return CardSet(self.dead_mask)

    @property
    def refuser(self) -> int:
        """In a force decision, the player who refused the centre card."""
        return self.offeree

    def received(self, player: int) -> int:
        """The card ``player`` received in the exchange (-1 before it, or without one)."""
        if not self.exchange or self.phase is Phase.EXCHANGE:
            return -1
        return self.exchange[(player - 1) % len(self.hands)]

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action, in a fixed order (takes sorted, then the refusals)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def _generate(self) -> tuple[Action, ...]:
        phase = self.phase
        p = self.to_act
        if phase is Phase.OFFER:
            return (*self._takes(p, False), *self._layoffs(p), Action(ActionKind.DECLINE))
        if phase is Phase.TURN:
            out = [*self._takes(p, False), *self._layoffs(p), Action(ActionKind.PASS)]
            if self.rules.meld_without_take is MeldWithoutTake.BEFORE_REJECTING_STOCK_CARD:
                out.extend(self._lays(p))
            return tuple(out)
        if phase is Phase.DISCARD:
            return tuple([Action(ActionKind.DISCARD, i) for i in mask_indices(self.hands[p])])
        if phase is Phase.FORCE:
            return (Action(ActionKind.FORCE), Action(ActionKind.NO_FORCE))
        if phase is Phase.FORCED:
            return self._takes(p, True)
        if phase is Phase.EXCHANGE:
            return tuple([Action(ActionKind.EXCHANGE, i) for i in mask_indices(self.hands[p])])
        return ()

    def _allowed(self, old: Partition, options: Sequence[Partition]) -> Sequence[Partition]:
        mode = self.rules.rearrange_mode
        if mode is RearrangeMode.FREE or not old:
            return options
        cap = self.rules.max_seq_len
        return [new for new in options if is_rearrangement_allowed(old, new, mode, max_seq_len=cap)]

    def _takes(self, p: int, forced: bool) -> tuple[Action, ...]:
        bit = 1 << self.centre
        if not self.melds.can_meld(self.centre, self.table_masks[p] | self.hands[p] | bit):
            return ()
        old = self.tables[p]
        options: Sequence[Partition]
        if forced and self.rules.forced_take is ForcedTake.MINIMAL:
            if self.rules.force_fit is ForceFit.DIRECT:
                options = self.melds.direct_fits(bit, old)
            else:
                options = self._allowed(old, self.melds.partitions(self.table_masks[p] | bit, 0))
        else:
            options = self._allowed(
                old, self.melds.partitions(self.table_masks[p] | bit, self.hands[p])
            )
        return tuple([Action(ActionKind.TAKE, -1, part) for part in options])

    def _layoffs(self, p: int) -> list[Action]:
        """(Variant ``layoff_on_opponent``) the ways ``p`` may lay the centre card on another
        player's meld, which it extends as the meld lies, in seat order and each table's
        order; none while ``p`` has no hand card to pay with afterwards."""
        if not self.rules.layoff_on_opponent or not self.hands[p]:
            return []
        bit = 1 << self.centre
        valid = self.melds.valid
        return [
            Action(ActionKind.LAYOFF, -1, (meld,), q)
            for q in range(len(self.hands))
            if q != p
            for meld in self.tables[q]
            if meld | bit in valid
        ]

    def _lays(self, p: int) -> list[Action]:
        table_mask = self.table_masks[p]
        old = self.tables[p]
        options = self._allowed(old, self.melds.partitions(table_mask, self.hands[p]))
        return [
            Action(ActionKind.PASS, -1, part)
            for part in options
            if partition_mask(part) != table_mask
        ]

    def _forcer(self, refuser: int) -> int | None:
        """Who may force the centre card on ``refuser`` (None: nobody)."""
        if self.source is Source.TURNED:  # the turner refused the card he turned
            if self.rules.force_by is ForceBy.OPPONENT:
                return (refuser + 1) % len(self.hands)
            return None
        return self.owner if self.owner >= 0 else None

    def is_forceable(self, player: int, card: int, *, offered: bool) -> bool:
        """Whether ``card``, just refused by ``player``, may be forced on him."""
        rules = self.rules
        if rules.forcing is Forcing.OFF or not self.table_masks[player]:
            return False
        if not offered and rules.force_scope is ForceScope.OFFERED_ONLY:
            return False
        bit = 1 << card
        if rules.force_fit is ForceFit.DIRECT:
            return self.melds.fits_directly(bit, self.tables[player])
        options = self.melds.partitions(self.table_masks[player] | bit, 0)
        return bool(self._allowed(self.tables[player], options))

    # ------------------------------------------------------------- applying

    def apply(self, action: Action) -> None:
        """Play a legal action, changing this state.

        :raises IllegalActionError: (or :class:`GameOverError`) with the reason;
            the state is then unchanged.
        """
        if action not in self.legal_actions():
            raise self.explain_illegal(action)
        self._apply(action)

    def apply_unchecked(self, action: Action) -> None:
        """Play an action known to be legal (for search code that took it from legal_actions)."""
        self._apply(action)

    def _apply(self, action: Action) -> None:
        kind = action.kind
        p = self.to_act
        self._legal = None
        n = len(self.hands)
        if kind is ActionKind.TAKE:
            self._take(p, action.melds)
        elif kind is ActionKind.LAYOFF:
            self._layoff(action.seat, action.melds[0])
        elif kind is ActionKind.DISCARD:
            hands = list(self.hands)
            hands[p] &= ~(1 << action.card)
            self.hands = tuple(hands)
            self.centre = action.card
            self.source = Source.DISCARD
            self.owner = p
            self.offeree = self.to_act = (p + 1) % n
            self.phase = Phase.OFFER
        elif kind is ActionKind.DECLINE:
            if self.source is Source.UPCARD:
                if p != self.dealer:
                    self.offeree = self.to_act = self.dealer
                else:
                    self.dead_mask |= 1 << self.centre
                    self.centre = -1
                    self.source = Source.NONE
                    self._turn_stock((self.dealer + 1) % n)
            elif self.is_forceable(p, self.centre, offered=True):  # its owner may force
                self._to_force(p)
            else:
                self._offer_on(p)
        elif kind is ActionKind.PASS:
            if action.melds:
                self._lay(p, action.melds)
            if self.rules.force_by is ForceBy.OPPONENT and self.is_forceable(
                p, self.centre, offered=False
            ):  # (under offerer nobody forces a turner his own card)
                self._to_force(p)
            else:
                self.source = Source.PASSED
                self.offeree = self.to_act = (p + 1) % n
                self.phase = Phase.OFFER
        elif kind is ActionKind.FORCE:
            self.to_act = self.offeree
            self.phase = Phase.FORCED
        elif kind is ActionKind.NO_FORCE:
            refuser = self.offeree
            if self.source is Source.TURNED:  # the turner keeps it no more: it goes round
                self.source = Source.PASSED
                self.offeree = self.to_act = (refuser + 1) % n
                self.phase = Phase.OFFER
            else:
                self._offer_on(refuser)
        else:  # EXCHANGE
            picks = list(self.exchange)
            picks[p] = action.card
            self.exchange = tuple(picks)
            if p != self.dealer:
                self.to_act = (p + 1) % n
            else:  # the dealer chooses last: every chosen card moves on at once
                hands = list(self.hands)
                for q in range(n):
                    hands[q] &= ~(1 << picks[q])
                for q in range(n):
                    hands[(q + 1) % n] |= 1 << picks[q]
                self.hands = tuple(hands)
                self._open_play()

    def _offer_on(self, refuser: int) -> None:
        """``refuser`` let the centre card go: offer it to the next player in the round, or,
        when it has been round, make it dead and let the seat after its owner turn."""
        n = len(self.hands)
        nxt = (refuser + 1) % n
        if nxt == self.owner:
            self.dead_mask |= 1 << self.centre
            self._turn_stock(nxt + 1 if nxt + 1 < n else 0)
        else:
            self.offeree = self.to_act = nxt
            self.phase = Phase.OFFER

    def _to_force(self, refuser: int) -> None:
        self.offeree = refuser
        if self.rules.forcing is Forcing.AUTOMATIC:
            self.to_act = refuser
            self.phase = Phase.FORCED
        else:
            forcer = self._forcer(refuser)
            assert forcer is not None
            self.to_act = forcer
            self.phase = Phase.FORCE

    def _lay(self, p: int, melds: Partition) -> int:
        new_mask = partition_mask(melds)
        played = new_mask & ~self.table_masks[p]
        hands = list(self.hands)
        hands[p] &= ~played
        self.hands = tuple(hands)
        tables = list(self.tables)
        tables[p] = melds
        self.tables = tuple(tables)
        masks = list(self.table_masks)
        masks[p] = new_mask
        self.table_masks = tuple(masks)
        return hands[p]

    def _take(self, p: int, melds: Partition) -> None:
        self.centre = -1
        self.source = Source.NONE
        self.owner = self.offeree = -1
        if not self._lay(p, melds):
            self.phase = Phase.OVER
            self.winner = p
            self.termination = Termination.OUT
        else:
            self.phase = Phase.DISCARD

    def _layoff(self, q: int, meld: int) -> None:
        """The centre card goes on ``meld`` of player ``q``'s table; the player to act pays
        next (he never goes out so: he keeps his hand)."""
        bit = 1 << self.centre
        tables = list(self.tables)
        tables[q] = tuple(sorted(m | bit if m == meld else m for m in tables[q]))
        self.tables = tuple(tables)
        masks = list(self.table_masks)
        masks[q] |= bit
        self.table_masks = tuple(masks)
        self.centre = -1
        self.source = Source.NONE
        self.owner = self.offeree = -1
        self.phase = Phase.DISCARD

    def _turn_stock(self, p: int) -> None:
        self.to_act = p
        if self.stock_pos >= len(self.stock):
            self.centre = -1
            self.source = Source.NONE
            self.owner = self.offeree = -1
            self.phase = Phase.OVER
            self.termination = Termination.STOCK_EXHAUSTED
            if self.rules.exhaustion is Exhaustion.FEWEST_HAND_CARDS:
                counts = [h.bit_count() for h in self.hands]
                fewest = min(counts)
                if counts.count(fewest) == 1:  # a tie for fewest is a draw
                    self.winner = counts.index(fewest)
            return
        self.centre = self.stock[self.stock_pos]
        self.stock_pos += 1
        self.source = Source.TURNED
        self.owner = self.offeree = p
        self.phase = Phase.TURN

    # ------------------------------------------------------------ diagnosis

    def explain_illegal(self, action: Action) -> IllegalActionError:
        """The error to raise for an action that is not legal here, with the reason."""
        card_ok = 0 <= action.card < NUM_CARDS or (
            action.card == -1 and action.kind not in (ActionKind.DISCARD, ActionKind.EXCHANGE)
        )
        if not card_ok or any(m <= 0 or m & ~ALL_CARDS_MASK for m in action.melds):
            shown = tuple(action) if action.seat >= 0 else tuple(action)[:3]
            return IllegalActionError(
                f"{shown} does not name real cards.",
                action,
                player=self.to_act,
                reason=IllegalReason.NOT_REAL_CARDS,
                text=str(shown),
            )
        text = str(action)
        p = self.to_act
        if self.phase is Phase.OVER:
            return GameOverError(
                f"The deal is over; {text!r} cannot be played.",
                action,
                reason=IllegalReason.GAME_OVER,
                text=text,
            )
        kind = action.kind
        layoffs = self.rules.layoff_on_opponent
        if kind is ActionKind.LAYOFF and not layoffs:
            return IllegalActionError(
                "Laying the centre card on another player's meld is not allowed under these "
                "rules (layoff_on_opponent false).",
                action,
                player=p,
                reason=IllegalReason.LAYOFF_NOT_ALLOWED,
            )
        expected = {
            Phase.OFFER: "take or decline the offered card",
            Phase.TURN: "take or pass the card they turned",
            Phase.FORCE: "force or noforce",
            Phase.FORCED: "take the card they were forced with",
            Phase.DISCARD: "discard a hand card",
            Phase.EXCHANGE: "choose the hand card to pass to the next player",
        }[self.phase]
        lay = (ActionKind.LAYOFF,) if layoffs else ()
        wanted = {
            Phase.OFFER: (ActionKind.TAKE, *lay, ActionKind.DECLINE),
            Phase.TURN: (ActionKind.TAKE, *lay, ActionKind.PASS),
            Phase.FORCE: (ActionKind.FORCE, ActionKind.NO_FORCE),
            Phase.FORCED: (ActionKind.TAKE,),
            Phase.DISCARD: (ActionKind.DISCARD,),
            Phase.EXCHANGE: (ActionKind.EXCHANGE,),
        }[self.phase]
        if kind not in wanted:
            return IllegalActionError(
                f"{text!r} is not possible now: player {p} must {expected}.",
                action,
                player=p,
                reason=IllegalReason.NOT_POSSIBLE_NOW,
                text=text,
                phase=self.phase.value,
                expected=tuple(k.name.lower().replace("_", "") for k in wanted),
            )
        if kind in (ActionKind.DISCARD, ActionKind.EXCHANGE):
            verb = "discard" if kind is ActionKind.DISCARD else "pass on"
            return IllegalActionError(
                f"Cannot {verb} {CARDS[action.card]}: it is not in player {p}'s hand.",
                action,
                player=p,
                reason=IllegalReason.CARD_NOT_IN_HAND,
                card=action.card,
            )
        if kind is ActionKind.LAYOFF:
            return self._explain_layoff(action, p)
        if kind is ActionKind.PASS:
            if self.rules.meld_without_take is MeldWithoutTake.NEVER:
                return IllegalActionError(
                    "Laying cards down without taking is not allowed under these rules.",
                    action,
                    player=p,
                    reason=IllegalReason.LAYING_NOT_ALLOWED,
                )
            return self._explain_table(action, p, 0) or IllegalActionError(
                f"{text!r} is not a legal way to lay cards before passing.",
                action,
                player=p,
                reason=IllegalReason.NOT_A_LEGAL_LAY,
                text=text,
            )
        if kind is ActionKind.TAKE:
            reason = self._explain_table(action, p, 1 << self.centre)
            if reason:
                return reason
            if not self._takes(p, self.phase is Phase.FORCED):
                bit = 1 << self.centre
                if self.rules.rearrange_mode is not RearrangeMode.FREE and self.melds.partitions(
                    self.table_masks[p] | bit, self.hands[p]
                ):
                    return IllegalActionError(
                        f"{CARDS[self.centre]} could only be melded by rearranging player {p}'s "
                        f"table, which rearrange_mode {self.rules.rearrange_mode.value} "
                        "does not allow.",
                        action,
                        player=p,
                        reason=IllegalReason.WOULD_NEED_REARRANGING,
                        card=self.centre,
                        rearrange_mode=self.rules.rearrange_mode.value,
                    )
                return IllegalActionError(
                    f"{CARDS[self.centre]} cannot be melded by player {p} at all.",
                    action,
                    player=p,
                    reason=IllegalReason.CANNOT_MELD_CENTRE,
                    card=self.centre,
                )
            if self.phase is Phase.FORCED and self.rules.forced_take is ForcedTake.MINIMAL:
                return IllegalActionError(
                    "A forced player may only add the forced card to his table "
                    "(forced_take minimal).",
                    action,
                    player=p,
                    reason=IllegalReason.FORCED_ADD_ONLY,
                    card=self.centre,
                )
            return IllegalActionError(
                f"{text!r} rearranges player {p}'s table in a way rearrange_mode "
                f"{self.rules.rearrange_mode.value} does not allow.",
                action,
                player=p,
                reason=IllegalReason.REARRANGE_NOT_ALLOWED,
                text=text,
                rearrange_mode=self.rules.rearrange_mode.value,
            )
        return IllegalActionError(
            f"{text!r} is not legal here.",
            action,
            player=p,
            reason=IllegalReason.NOT_LEGAL,
            text=text,
        )

    def _explain_layoff(self, action: Action, p: int) -> IllegalActionError:
        """Why a layoff of the centre card is not legal (the rules allow layoffs, and the phase
        is one where the player may take the card).  A seat of -1 or no meld names none
        (a short form's question: why no layoff at all)."""
        text = str(action) if len(action.melds) == 1 and action.seat >= 0 else ""
        q = action.seat
        card = self.centre
        if q != -1 and not 0 <= q < len(self.hands):
            return IllegalActionError(
                f"There is no player {q} to lay {CARDS[card]} on (players are 0 to "
                f"{len(self.hands) - 1}).",
                action,
                player=p,
                reason=IllegalReason.LAYOFF_NO_SUCH_PLAYER,
                card=card,
                seat=q,
            )
        if q == p:
            return IllegalActionError(
                f"A layoff goes on another player's meld; to put {CARDS[card]} on player "
                f"{p}'s own table, take it.",
                action,
                player=p,
                reason=IllegalReason.LAYOFF_OWN_TABLE,
                card=card,
                seat=q,
            )
        if len(action.melds) == 1 and q >= 0:
            meld = action.melds[0]
            if meld not in self.tables[q]:
                return IllegalActionError(
                    f"{format_mask(meld, '')} is not one of player {q}'s melds.",
                    action,
                    player=p,
                    reason=IllegalReason.LAYOFF_NOT_THEIR_MELD,
                    cards=meld,
                    seat=q,
                )
            if meld | 1 << card not in self.melds.valid:
                return IllegalActionError(
                    f"{CARDS[card]} does not extend player {q}'s meld {format_mask(meld, '')}.",
                    action,
                    player=p,
                    reason=IllegalReason.LAYOFF_DOES_NOT_FIT,
                    card=card,
                    cards=meld,
                    seat=q,
                )
        if not self.hands[p]:
            return IllegalActionError(
                f"Player {p} has no hand card to pay with after laying {CARDS[card]} off.",
                action,
                player=p,
                reason=IllegalReason.LAYOFF_EMPTY_HAND,
                card=card,
            )
        return IllegalActionError(
            f"{text or repr(action)} is not legal here.",
            action,
            player=p,
            reason=IllegalReason.NOT_LEGAL,
            text=text or repr(action),
        )

    def _explain_table(self, action: Action, p: int, centre_bit: int) -> IllegalActionError | None:
        new_mask = 0
        for m in action.melds:
            if new_mask & m:
                return IllegalActionError(
                    f"{format_mask(new_mask & m)} is used in two melds.",
                    action,
                    player=p,
                    reason=IllegalReason.CARDS_IN_TWO_MELDS,
                    cards=new_mask & m,
                )
            new_mask |= m
            if m not in self.melds.valid:
                if meld_kind(m) is not None:
                    return IllegalActionError(
                        f"{format_mask(m, '')} is a run longer than {self.rules.max_seq_len}.",
                        action,
                        player=p,
                        reason=IllegalReason.RUN_TOO_LONG,
                        cards=m,
                        max_seq_len=self.rules.max_seq_len,
                    )
                return IllegalActionError(
                    f"{format_mask(m, '')} is not a set or run.",
                    action,
                    player=p,
                    reason=IllegalReason.NOT_A_MELD,
                    cards=m,
                )
        old_mask = self.table_masks[p]
        if centre_bit and not new_mask & centre_bit:
            return IllegalActionError(
                f"The centre card {format_mask(centre_bit)} must be melded when taking it.",
                action,
                player=p,
                reason=IllegalReason.CENTRE_NOT_MELDED,
                card=self.centre,
            )
        missing = old_mask & ~new_mask
        if missing:
            return IllegalActionError(
                f"Table cards cannot leave the table: {format_mask(missing)} "
                f"{'is' if missing.bit_count() == 1 else 'are'} missing.",
                action,
                player=p,
                reason=IllegalReason.TABLE_CARDS_MISSING,
                cards=missing,
            )
        foreign = new_mask & ~(old_mask | centre_bit | self.hands[p])
        if foreign:
            return IllegalActionError(
                f"{format_mask(foreign)} {'is' if foreign.bit_count() == 1 else 'are'} not "
                f"in player {p}'s hand{' or the centre' if centre_bit else ''}.",
                action,
                player=p,
                reason=IllegalReason.CARDS_NOT_AVAILABLE,
                cards=foreign,
                card=self.centre if centre_bit else None,
            )
        return None

    # --------------------------------------------------------------- display

    def __repr__(self) -> str:
        return f"<GameState {self.phase.value} player={self.to_act} {self.summary()}>"

    def summary(self) -> str:
        """A compact one-line description (not a position string)."""
        parts = []
        for p in range(len(self.hands)):
            parts.append(
                f"p{p}: hand {format_mask(self.hands[p], '') or '-'} "
                f"table {format_partition(self.tables[p])}"
            )
        centre = f"{CARDS[self.centre]}:{self.source.value}" if self.centre >= 0 else "-"
        return f"{'; '.join(parts)}; centre {centre}; stock {self.stock_count}"


def chosen_in_exchange(dealer: int, to_act: int, num_players: int) -> list[int]:
    """The players who have chosen their exchange card when ``to_act`` is to choose: those
    from the seat after the dealer up to him.

    >>> chosen_in_exchange(0, 0, 3)
    [1, 2]
    """
    first = (dealer + 1) % num_players
    order = [(first + k) % num_players for k in range(num_players)]
    return order[: order.index(to_act)]


def two_player_roles(phase: Phase, to_act: int, source: Source, centre: int) -> tuple[int, int]:
    """The owner and the offeree of the centre card as a two-player position implies them."""
    if centre < 0 or source is Source.NONE:
        return -1, -1
    if source is Source.UPCARD:
        return -1, to_act
    if source is Source.TURNED:
        turner = 1 - to_act if phase is Phase.FORCE else to_act
        return turner, turner
    if phase is Phase.FORCE:  # the owner decides whether to force the other player
        return to_act, 1 - to_act
    return 1 - to_act, to_act


def shuffled_deck(seed: int | None = None) -> list[int]:
    """The 40 card indices in the order a seeded shuffle gives (top card first).

    >>> shuffled_deck(1) == shuffled_deck(1), len(shuffled_deck(2))
    (True, 40)
    """
    deck = list(range(NUM_CARDS))
    random.Random(seed).shuffle(deck)
    return deck
