"""What one player may know: the only view of a deal that bots and front ends get.

An :class:`Observation` holds the player's own hand, every table with its
partition, the centre card with its source and who turned or paid it, the dead
pile, every card seen face up, the stock size, every hand size, whose turn it is,
the stake, and (with the exchange) the card the player passed and the one he
received.  It never holds another player's hand, another player's exchange choice
or the stock order.

>>> from conquian.state import GameState
>>> from conquian.rules import Rules
>>> obs = observe(GameState.deal(Rules(), seed=3, dealer=0), 1)
>>> obs.stock_count, obs.hand_counts, obs.to_act
(19, (10, 10), 1)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

from .actions import KIND_WORDS, Action, ActionKind
from .cards import (
    ALL_CARDS_MASK,
    CARDS,
    LABEL_BITS,
    Card,
    CardSet,
    format_mask,
    mask_labels,
    parse_cards_mask,
)
from .errors import ConquianError, InvalidNotationError
from .melds import Partition, format_partition, partition_mask
from .rules import Rules, find_rules
from .state import GameState, Outcome, Phase, Source, Termination, two_player_roles


class PublicEvent(NamedTuple):
    """One action as both players saw it.

    ``card`` is the centre card the action concerned (the card taken, declined,
    passed or forced) or the discarded card; ``source`` is where the centre card
    came from when the action was taken (``Source.NONE`` for a discard).
    """

    player: int
    """The player who acted."""
    action: Action
    card: int
    source: Source
    owner: int = -1
    """With more than two players, who turned or paid the centre card (-1 otherwise)."""

    def __str__(self) -> str:
        kind = self.action.kind
        if kind is ActionKind.EXCHANGE and self.action.card < 0:
            return f"p{self.player} exchange ?"  # someone else's choice, not shown
        if kind in (ActionKind.DISCARD, ActionKind.EXCHANGE):
            return f"p{self.player} {self.action}"
        owner = str(self.owner) if self.owner >= 0 else ""
        return f"p{self.player} {self.action} ({CARDS[self.card]}:{self.source.value}{owner})"

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data: who acted (``player``), the action's ``verb`` (its
        first word: ``take``, ``decline``, ``pass``, ``force``, ``noforce``, ``discard``,
        ``exchange``, ``layoff``) and the card it concerned (``card``: the centre card, or the
        card discarded or passed on; None for another player's exchange choice); for a centre
        card, where it came from (``source``, as in the text) and, with more than two players,
        who turned or paid it (``owner``); for a take, the player's new table (``melds``); for
        a layoff, the player whose meld the card went on (``seat``) and that meld as it lay
        before (``melds``, one meld).

        >>> event = parse_public_event("p1 take 5d6d7d (7d:t)", 2)
        >>> event.to_dict()
        {'player': 1, 'verb': 'take', 'card': '7d', 'source': 't', 'melds': [['5d', '6d', '7d']]}
        >>> parse_public_event("p2 exchange ?").to_dict()
        {'player': 2, 'verb': 'exchange', 'card': None}
        >>> parse_public_event("p0 layoff 2 5c6c7c (4c:d1)", 3).to_dict()
        {'player': 0, 'verb': 'layoff', 'card': '4c', 'source': 'd', 'owner': 1, 'melds': [['5c', '6c', '7c']], 'seat': 2}
        """
        kind = self.action.kind
        data: dict[str, Any] = {
            "player": self.player,
            "verb": KIND_WORDS[kind],
            "card": str(CARDS[self.card]) if self.card >= 0 else None,
        }
        if kind is not ActionKind.DISCARD and kind is not ActionKind.EXCHANGE:
            data["source"] = self.source.value
        if self.owner >= 0:
            data["owner"] = self.owner
        if self.action.melds:
            data["melds"] = [mask_labels(m) for m in self.action.melds]
        if kind is ActionKind.LAYOFF:
            data["seat"] = self.action.seat
        return data

    def seen_by(self, viewer: int) -> PublicEvent:
        """The event as ``viewer`` saw it: another player's exchange choice is hidden."""
        if self.action.kind is ActionKind.EXCHANGE and self.player != viewer:
            return PublicEvent(self.player, Action(ActionKind.EXCHANGE), -1, Source.NONE)
        return self


def public_event(state: GameState, action: Action) -> PublicEvent:
    """The record of ``action`` about to be played in ``state`` (an exchange choice is
    private to its player: see :meth:`PublicEvent.seen_by`)."""
    if action.kind in (ActionKind.DISCARD, ActionKind.EXCHANGE):
        return PublicEvent(state.to_act, action, action.card, Source.NONE)
    owner = state.owner if len(state.hands) > 2 else -1
    return PublicEvent(state.to_act, action, state.centre, state.source, owner)


@dataclass(frozen=True, slots=True)
class Observation:
    """One player's view of a position."""

    viewer: int
    """Whose view this is."""
    rules: Rules
    phase: Phase
    to_act: int
    """The player who must act now (meaningless once the deal is over)."""
    dealer: int
    hand_mask: int
    """This player's hand."""
    tables: tuple[Partition, ...]
    """Every player's table, as partitions into melds."""
    centre: int
    """The centre card index, or -1."""
    source: Source
    dead_mask: int
    stock_count: int
    hand_counts: tuple[int, ...]
    stake: int
    legal_actions: tuple[Action, ...]
    """This player's legal actions (empty when it is not his turn)."""
    outcome: Outcome | None
    history: tuple[PublicEvent, ...] = ()
    """Every action of the deal so far, as this player saw it (when known)."""
    owner: int = -1
    """Who turned or paid the centre card (-1: none, or an initial upcard)."""
    offeree: int = -1
    """Whom the centre card is offered to (in a force decision: who refused it)."""
    passed: int = -1
    """The card this player chose to pass in the exchange (-1: none yet, or no exchange)."""
    received: int = -1
    """The card this player received in the exchange (-1 before it, or without one)."""

    def __reduce__(self) -> tuple[type[Observation], tuple[object, ...]]:
        # for mypyc, as cards.Card.__reduce__
        return Observation, tuple(getattr(self, field.name) for field in fields(self))

    @property
    def num_players(self) -> int:
        return len(self.tables)

    @property
    def opponent(self) -> int:
        """The next player (in the two-player game, the opponent)."""
        return (self.viewer + 1) % len(self.tables)

    @property
    def others(self) -> tuple[int, ...]:
        """The other players, in play order from the next seat."""
        n = len(self.tables)
        return tuple((self.viewer + k) % n for k in range(1, n))

    @property
    def hand(self) -> CardSet:
        return CardSet(self.hand_mask)

    @property
    def dead(self) -> CardSet:
        return CardSet(self.dead_mask)

    @property
    def seen_mask(self) -> int:
        """Every card that has been face up: both tables, the dead pile and the centre."""
        seen = self.dead_mask
        for table in self.tables:
            seen |= partition_mask(table)
        if self.centre >= 0:
            seen |= 1 << self.centre
        return seen

    @property
    def unknown_mask(self) -> int:
        """Cards this player cannot locate: the other hands and the stock together (the card
        he passed in the exchange is not among them while it may be in its receiver's hand)."""
        unknown = ALL_CARDS_MASK & ~self.seen_mask & ~self.hand_mask
        if self.passed >= 0 and self.phase is not Phase.EXCHANGE:
            unknown &= ~(1 << self.passed)
        return unknown

    @property
    def my_turn(self) -> bool:
        return self.phase is not Phase.OVER and self.to_act == self.viewer

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (cards as canonical text).

        With more than two players it adds ``centre_owner`` and ``offeree``; with the
        exchange, ``exchange`` (``passed`` and ``received``, each a card or None).
        """
        data = self._to_dict()
        if len(self.tables) > 2:
            data["centre_owner"] = self.owner if self.owner >= 0 else None
            data["offeree"] = self.offeree if self.offeree >= 0 else None
        if self.rules.exchange_one_card:
            data["exchange"] = {
                "passed": str(CARDS[self.passed]) if self.passed >= 0 else None,
                "received": str(CARDS[self.received]) if self.received >= 0 else None,
            }
        return data

    def _to_dict(self) -> dict[str, Any]:
        return {
            "player": self.viewer,
            "rules": self.rules.to_spec(),
            "phase": self.phase.value,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "hand": mask_labels(self.hand_mask),
            "tables": [[mask_labels(m) for m in table] for table in self.tables],
            "centre": str(CARDS[self.centre]) if self.centre >= 0 else None,
            "centre_source": self.source.value if self.centre >= 0 else None,
            "dead": mask_labels(self.dead_mask),
            "seen": mask_labels(self.seen_mask),
            "stock_count": self.stock_count,
            "hand_counts": list(self.hand_counts),
            "stake": self.stake,
            "legal_actions": [str(a) for a in self.legal_actions],
            "history": [str(e) for e in self.history],
            "outcome": None
            if self.outcome is None
            else {
                "winner": self.outcome.winner,
                "termination": self.outcome.termination.value,
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Observation:
        """Read back the output of :meth:`to_dict` (``seen`` is derived, so it is ignored).

        >>> from conquian.game import Game
        >>> game = Game(seed=2)
        >>> obs = game.observation(game.state.to_act)
        >>> Observation.from_dict(obs.to_dict()) == obs
        True

        :raises InvalidNotationError: naming the missing or malformed field.
        """
        if not isinstance(data, Mapping):
            raise InvalidNotationError("An observation must be a JSON object.")
        try:
            rules = find_rules(_get(data, "rules", str))
        except ConquianError as exc:
            raise InvalidNotationError(f"Observation field 'rules': {exc}") from None
        centre_text = _get(data, "centre", str, optional=True)
        centre = -1 if centre_text is None else _card(centre_text, "centre")
        source = Source.NONE
        if centre >= 0:
            source = _enum(Source, _get(data, "centre_source", str), "centre_source")
        n = rules.num_players
        tables = _get(data, "tables", list)
        if len(tables) != n:
            raise InvalidNotationError(
                f"Observation field 'tables' must list {COUNT_WORDS[n]} tables."
            )
        counts = _get(data, "hand_counts", list)
        if len(counts) != n or not all(_is_int(c) for c in counts):
            raise InvalidNotationError(
                f"Observation field 'hand_counts' must be {COUNT_WORDS[n]} numbers."
            )
        phase = _enum(Phase, _get(data, "phase", str), "phase")
        to_act = _player(data, "to_act", n)
        if n > 2:
            owner = _player(data, "centre_owner", n, optional=True)
            offeree = _player(data, "offeree", n, optional=True)
        else:  # implied by the two-player position
            owner, offeree = two_player_roles(phase, to_act, source, centre)
        passed = received = -1
        if rules.exchange_one_card:
            exchange = _get(data, "exchange", Mapping)
            given, got = exchange.get("passed"), exchange.get("received")
            passed = -1 if given is None else _card(str(given), "exchange")
            received = -1 if got is None else _card(str(got), "exchange")
        try:
            legal = tuple(Action.parse(t) for t in _strings(data, "legal_actions"))
            history = tuple(parse_public_event(t, n) for t in _strings(data, "history"))
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"Observation: {exc}") from None
        return cls(
            viewer=_player(data, "player", n),
            rules=rules,
            phase=phase,
            to_act=to_act,
            dealer=_player(data, "dealer", n),
            hand_mask=_mask(data, "hand"),
            tables=tuple(_partition(t, "tables") for t in tables),
            centre=centre,
            source=source,
            dead_mask=_mask(data, "dead"),
            stock_count=_get(data, "stock_count", int),
            hand_counts=tuple(counts),
            stake=_get(data, "stake", int),
            legal_actions=legal,
            outcome=_outcome(data.get("outcome"), n),
            history=history,
            owner=owner,
            offeree=offeree,
            passed=passed,
            received=received,
        )

    def __str__(self) -> str:
        me = self.viewer
        centre = f"{CARDS[self.centre]} ({self.source.value})" if self.centre >= 0 else "-"
        lines = [
            f"player {me} view, phase {self.phase.value}, to act: {self.to_act}",
            f"hand: {format_mask(self.hand_mask) or '-'}",
            f"my table: {format_partition(self.tables[me], ' | ')}",
        ]
        for them in self.others:
            name = "opponent" if len(self.tables) == 2 else f"player {them}"
            lines.append(
                f"{name} table: {format_partition(self.tables[them], ' | ')}"
                f" (hand {self.hand_counts[them]})"
            )
        lines += [
            f"centre: {centre}   stock: {self.stock_count}   stake: {self.stake}",
            f"dead: {format_mask(self.dead_mask) or '-'}",
        ]
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everyone at the table may know of a position: a spectator's view, and the public
    part of a record.  It holds no hand, no legal action, no exchange choice and nothing of the
    stock but its size (:func:`observe_public`)."""

    rules: Rules
    phase: Phase
    to_act: int
    dealer: int
    tables: tuple[Partition, ...]
    centre: int
    source: Source
    dead_mask: int
    stock_count: int
    hand_counts: tuple[int, ...]
    stake: int
    outcome: Outcome | None
    history: tuple[PublicEvent, ...] = ()
    """Every action of the deal so far, as every player saw it (no exchange choice)."""
    owner: int = -1
    offeree: int = -1

    def __reduce__(self) -> tuple[type[PublicView], tuple[object, ...]]:
        return PublicView, tuple(getattr(self, field.name) for field in fields(self))

    @property
    def num_players(self) -> int:
        return len(self.tables)

    @property
    def seen_mask(self) -> int:
        """Every card that has been face up: the tables, the dead pile and the centre."""
        seen = self.dead_mask
        for table in self.tables:
            seen |= partition_mask(table)
        if self.centre >= 0:
            seen |= 1 << self.centre
        return seen

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data, the keys of :meth:`Observation.to_dict` but the private ones
        (``hand``, ``legal_actions``, ``exchange``), with ``player`` None.

        >>> from conquian.state import GameState
        >>> data = observe_public(GameState.deal(Rules(), seed=3, dealer=0)).to_dict()
        >>> data["player"], "hand" in data, data["hand_counts"]
        (None, False, [10, 10])
        """
        data: dict[str, Any] = {
            "player": None,
            "rules": self.rules.to_spec(),
            "phase": self.phase.value,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "tables": [[mask_labels(m) for m in table] for table in self.tables],
            "centre": str(CARDS[self.centre]) if self.centre >= 0 else None,
            "centre_source": self.source.value if self.centre >= 0 else None,
            "dead": mask_labels(self.dead_mask),
            "seen": mask_labels(self.seen_mask),
            "stock_count": self.stock_count,
            "hand_counts": list(self.hand_counts),
            "stake": self.stake,
            "history": [str(e) for e in self.history],
            "outcome": None
            if self.outcome is None
            else {
                "winner": self.outcome.winner,
                "termination": self.outcome.termination.value,
            },
        }
        if len(self.tables) > 2:
            data["centre_owner"] = self.owner if self.owner >= 0 else None
            data["offeree"] = self.offeree if self.offeree >= 0 else None
        return data


_EVENT = re.compile(r"p([0-3]) (.+?)(?: \((\S+):(\S)([0-3])?\))?")


COUNT_WORDS = {2: "two", 3: "three", 4: "four"}
"""Player counts as the error messages write them."""


@functools.lru_cache(maxsize=4096)
def parse_public_event(text: str, num_players: int = 4) -> PublicEvent:
    """Read the text of a :class:`PublicEvent` (``p0 discard Kh``, ``p1 take 5c6c7c (7c:d)``).

    Remembers its answers (events are immutable): a client that reads every observation of a
    deal reads the same moves again each time, and a hit costs a tenth of a parse.

    >>> str(parse_public_event("p1 decline (Kh:d)"))
    'p1 decline (Kh:d)'

    :raises InvalidNotationError: if the text is not an event.
    """
    match = _EVENT.fullmatch(text.strip())
    if match is None or int(match.group(1)) >= num_players:
        raise InvalidNotationError(f"{text!r} is not an event such as 'p0 discard Kh'.")
    player = int(match.group(1))
    if match.group(2) == "exchange ?" and match.group(3) is None:
        return PublicEvent(player, Action(ActionKind.EXCHANGE), -1, Source.NONE)
    action = Action.parse(match.group(2))
    if action.kind is ActionKind.LAYOFF and (
        not 0 <= action.seat < num_players or action.seat == player
    ):
        raise InvalidNotationError(f"{text!r} lays off on no other player's meld.")
    if action.kind in (ActionKind.DISCARD, ActionKind.EXCHANGE):
        if match.group(3) is not None:
            raise InvalidNotationError(
                f"A {action.kind.name.lower()} names no centre card: {text!r}."
            )
        return PublicEvent(player, action, action.card, Source.NONE)
    if match.group(3) is None:
        raise InvalidNotationError(
            f"The event {text!r} must end with the centre card, e.g. (Kh:d)."
        )
    card = _card(match.group(3), "history")
    owner = -1 if match.group(5) is None else int(match.group(5))
    return PublicEvent(player, action, card, _enum(Source, match.group(4), "history"), owner)


_VERBS = {word: kind for kind, word in KIND_WORDS.items()}


def read_public_event(data: Mapping[str, Any], num_players: int = 4) -> PublicEvent:
    """Read an event written by :meth:`PublicEvent.to_dict`.

    >>> event = parse_public_event("p1 take 5d6d7d (7d:t)", 2)
    >>> read_public_event(event.to_dict(), 2) == event
    True

    :raises InvalidNotationError: naming what is wrong.
    """
    if not isinstance(data, Mapping):
        raise InvalidNotationError(f"An event must be an object, got {data!r}.")
    raw_player = data.get("player")  # checked before it is an int: a compiled int takes True
    if not isinstance(raw_player, int) or isinstance(raw_player, bool):
        raise InvalidNotationError(f"An event's 'player' must be a seat, got {raw_player!r}.")
    if not 0 <= raw_player < num_players:
        raise InvalidNotationError(f"An event's 'player' must be a seat, got {raw_player!r}.")
    player: int = raw_player
    kind = _VERBS.get(str(data.get("verb")))
    if kind is None:
        raise InvalidNotationError(f"Unknown verb in the event {data!r}.")
    label = data.get("card")
    card = -1 if label is None else _card(str(label), "history")
    if kind is ActionKind.DISCARD or kind is ActionKind.EXCHANGE:
        if card < 0 and kind is ActionKind.DISCARD:
            raise InvalidNotationError(f"A discard names its card: {data!r}.")
        return PublicEvent(player, Action(kind, card), card, Source.NONE)
    if card < 0:
        raise InvalidNotationError(f"The event {data!r} must name the centre card.")
    melds = _partition(data.get("melds", []), "history")
    if kind is ActionKind.TAKE and not melds:
        raise InvalidNotationError(f"A take names the table it makes: {data!r}.")
    seat = -1
    if kind is ActionKind.LAYOFF:
        raw_seat = data.get("seat")
        if not isinstance(raw_seat, int) or isinstance(raw_seat, bool):
            raise InvalidNotationError(f"A layoff's 'seat' must be a seat, got {raw_seat!r}.")
        if not 0 <= raw_seat < num_players or raw_seat == player or len(melds) != 1:
            raise InvalidNotationError(
                f"A layoff names another player's seat and one meld of his: {data!r}."
            )
        seat = raw_seat
    raw_owner = data.get("owner", -1)
    if not isinstance(raw_owner, int) or isinstance(raw_owner, bool):
        raise InvalidNotationError(f"An event's 'owner' must be a seat, got {raw_owner!r}.")
    if not -1 <= raw_owner < num_players:
        raise InvalidNotationError(f"An event's 'owner' must be a seat, got {raw_owner!r}.")
    owner: int = raw_owner
    source = _enum(Source, str(data.get("source")), "history")
    return PublicEvent(player, Action(kind, -1, tuple(sorted(melds)), seat), card, source, owner)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _get(data: Mapping[str, Any], key: str, kind: type, *, optional: bool = False) -> Any:
    if key not in data:
        raise InvalidNotationError(f"The observation has no {key!r} field.")
    value = data[key]
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidNotationError(
            f"Observation field {key!r} must be a {kind.__name__}, got {value!r}."
        )
    return value


def _player(data: Mapping[str, Any], key: str, n: int = 2, *, optional: bool = False) -> int:
    value: int | None = _get(data, key, int, optional=optional)
    if value is None:
        return -1
    if not 0 <= value < n:
        seats = "0 or 1" if n == 2 else f"a player 0 to {n - 1}"
        raise InvalidNotationError(f"Observation field {key!r} must be {seats}, got {value}.")
    return value


def _strings(data: Mapping[str, Any], key: str) -> list[str]:
    values: list[Any] = _get(data, key, list)
    if not all(isinstance(v, str) for v in values):
        raise InvalidNotationError(f"Observation field {key!r} must be a list of strings.")
    return values


def _card(text: str, key: str) -> int:
    try:
        return Card.parse(text).index
    except InvalidNotationError as exc:
        raise InvalidNotationError(f"Observation field {key!r}: {exc}") from None


def _cards(values: Any, key: str) -> int:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise InvalidNotationError(f"Observation field {key!r} must hold lists of cards.")
    mask = 0
    for value in values:  # the canonical labels that to_dict writes, looked up at once
        bit = LABEL_BITS.get(value)
        if bit is None:
            break
        mask |= bit
    else:
        if mask.bit_count() != len(values):
            raise InvalidNotationError(f"Observation field {key!r}: a card written twice.")
        return mask
    try:
        mask = parse_cards_mask(" ".join(values))
    except InvalidNotationError as exc:
        raise InvalidNotationError(f"Observation field {key!r}: {exc}") from None
    if mask.bit_count() != len(values):
        raise InvalidNotationError(f"Observation field {key!r}: one card per list item.")
    return mask


def _mask(data: Mapping[str, Any], key: str) -> int:
    return _cards(_get(data, key, list), key)


def _partition(melds: Any, key: str) -> Partition:
    if not isinstance(melds, list):
        raise InvalidNotationError(f"Observation field {key!r} must hold lists of melds.")
    return tuple(sorted(_cards(meld, key) for meld in melds))


_E = TypeVar("_E", bound=StrEnum)


def _enum(kind: type[_E], value: str, key: str) -> _E:
    try:
        return kind(value)
    except ValueError:
        raise InvalidNotationError(f"Observation field {key!r}: unknown value {value!r}.") from None


def _outcome(value: Any, n: int = 2) -> Outcome | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise InvalidNotationError("Observation field 'outcome' must be an object or null.")
    winner = value.get("winner")
    seats = (*range(n), None)  # a name of its own: mypyc cannot compile the starred tuple in `in`
    if winner not in seats or isinstance(winner, bool):
        raise InvalidNotationError(f"Observation outcome: bad winner {winner!r}.")
    termination = value.get("termination")
    if not isinstance(termination, str):
        raise InvalidNotationError("Observation outcome: 'termination' must be a string.")
    return Outcome(winner, _enum(Termination, termination, "outcome"))


def observe(state: GameState, player: int, history: tuple[PublicEvent, ...] = ()) -> Observation:
    """The observation of ``state`` for ``player``, with the history as he saw it if given."""
    hands = state.hands
    if state.rules.exchange_one_card:
        history = tuple(e.seen_by(player) for e in history)
    return Observation(
        viewer=player,
        rules=state.rules,
        phase=state.phase,
        to_act=state.to_act,
        dealer=state.dealer,
        hand_mask=hands[player],
        tables=state.tables,
        centre=state.centre,
        source=state.source,
        dead_mask=state.dead_mask,
        stock_count=state.stock_count,
        hand_counts=tuple([h.bit_count() for h in hands]),
        stake=state.stake,
        legal_actions=state.legal_actions()
        if state.to_act == player and state.phase is not Phase.OVER
        else (),
        outcome=state.outcome(),
        history=history,
        owner=state.owner,
        offeree=state.offeree,
        passed=state.exchange[player] if state.exchange else -1,
        received=state.received(player),
    )


def observe_public(state: GameState, history: tuple[PublicEvent, ...] = ()) -> PublicView:
    """The public view of ``state`` (a spectator's), with the history as every player saw it
    if given (another player's exchange choice hidden)."""
    if state.rules.exchange_one_card:
        history = tuple(e.seen_by(-1) for e in history)
    return PublicView(
        rules=state.rules,
        phase=state.phase,
        to_act=state.to_act,
        dealer=state.dealer,
        tables=state.tables,
        centre=state.centre,
        source=state.source,
        dead_mask=state.dead_mask,
        stock_count=state.stock_count,
        hand_counts=tuple([h.bit_count() for h in state.hands]),
        stake=state.stake,
        outcome=state.outcome(),
        history=history,
        owner=state.owner,
        offeree=state.offeree,
    )


def seat_part(state: GameState, player: int) -> dict[str, Any]:
    """What only ``player`` may know of ``state``, as :meth:`Observation.to_dict` writes it:
    ``player``, ``hand``, ``legal_actions`` (while he is to act) and, with the exchange,
    ``exchange``.  With the public view's keys, it is his whole observation (but the history):
    a server showing one position to every seat builds the public part once.

    >>> state = GameState.deal(Rules(), seed=3, dealer=0)
    >>> whole = observe(state, 1).to_dict()
    >>> {**observe_public(state).to_dict(), **seat_part(state, 1)} == whole
    True
    """
    data: dict[str, Any] = {
        "player": player,
        "hand": mask_labels(state.hands[player]),
        "legal_actions": [str(a) for a in state.legal_actions()]
        if state.to_act == player and state.phase is not Phase.OVER
        else [],
    }
    if state.rules.exchange_one_card:
        passed = state.exchange[player] if state.exchange else -1
        received = state.received(player)
        data["exchange"] = {
            "passed": str(CARDS[passed]) if passed >= 0 else None,
            "received": str(CARDS[received]) if received >= 0 else None,
        }
    return data
