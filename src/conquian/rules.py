"""The rules of a Conquian game: every variant flag, validated, with named presets.

The rules in words are written by :mod:`conquian.present.rules_text` (its ``describe``).

>>> rules = find_rules("standard")
>>> rules.max_seq_len, rules.forcing
(8, <Forcing.OPTIONAL: 'optional'>)
>>> find_rules("standard,max_seq_len=10").to_spec()
'standard,max_seq_len=10'
>>> find_rules("bicycle").to_spec()
'bicycle'
>>> find_rules("mexican,layoff_on_opponent=true").to_spec()
'mexican,layoff_on_opponent=true'
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from .cards import DeckStyle
from .errors import InvalidRulesError
from .melds import MAX_RUN, RearrangeMode

MAX_PLAYERS = 4
MAX_STAKE = 2**63 - 1
"""The largest stake a deal may have: what a record holds (a signed 64-bit integer).  A
``base_stake`` above it is refused; a stake that draws raise past it stays at it."""
MAX_STAKE_DIGITS = len(str(MAX_STAKE))
"""Most players at one table."""
MIN_STOCK = 4
"""Fewest stock cards a deal may leave."""


class FirstDealer(StrEnum):
    RANDOM = "random"
    LOW_CUT = "low_cut"


class InitialUpcard(StrEnum):
    NONE = "none"
    OFFERED_TO_BOTH = "offered_to_both"


class MeldWithoutTake(StrEnum):
    NEVER = "never"
    BEFORE_REJECTING_STOCK_CARD = "before_rejecting_stock_card"


class Forcing(StrEnum):
    OPTIONAL = "optional"
    OFF = "off"
    AUTOMATIC = "automatic"


class ForceScope(StrEnum):
    ANY_DECLINED = "any_declined"
    OFFERED_ONLY = "offered_only"


class ForceBy(StrEnum):
    OPPONENT = "opponent"
    """The two-player rule: the other player forces (also a turned card its turner passed)."""
    OFFERER = "offerer"
    """The player who turned or paid the card forces whoever refuses it after him."""


_ELSEWHERE = {
    (name, value): " To play without forcing, use forcing=off."
    for name in ("force_by", "force_scope", "force_fit", "forced_take")
    for value in ("none", "off", "no", "nobody", "never")
}
"""A hint for a value that belongs to another flag: ``force_by=none`` means ``forcing=off``."""


class ForceFit(StrEnum):
    DIRECT = "direct"
    WITH_REARRANGEMENT = "with_rearrangement"


class ForcedTake(StrEnum):
    FULL = "full"
    MINIMAL = "minimal"


class Exhaustion(StrEnum):
    DRAW = "draw"
    FEWEST_HAND_CARDS = "fewest_hand_cards"


class DrawStake(StrEnum):
    CARRY = "carry"
    NONE = "none"
    DOUBLE_NEXT = "double_next"
    DOUBLE_COMPOUND = "double_compound"


class Scoring(StrEnum):
    STAKE = "stake"
    POINTS = "points"


class MatchKind(StrEnum):
    SINGLE_DEAL = "single_deal"
    N_DEALS = "n_deals"
    FIRST_TO = "first_to"


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule that can vary, validated on construction.

    >>> Rules(max_seq_len=11)
    Traceback (most recent call last):
    ...
    conquian.errors.InvalidRulesError: max_seq_len must be between 3 and 10, got 11.
    """

    deck_style: DeckStyle = DeckStyle.FRENCH
    """Card labels: french (A..7 J Q K), spanish (1..7 10 11 12), a_to_10 (A..10)."""
    deal_packet: int = 1
    """Cards dealt to a player at a time: 1, or 2 (five rounds of two)."""
    first_dealer: FirstDealer = FirstDealer.RANDOM
    """Who deals first in a match: random, or low_cut (lower cut card deals)."""
    initial_upcard: InitialUpcard = InitialUpcard.NONE
    """none, or offered_to_both: a card turned after the deal goes to non-dealer then dealer."""
    max_seq_len: int = 8
    """Longest run allowed (3..10)."""
    rearrange_mode: RearrangeMode = RearrangeMode.FREE
    """How own melds may change during a take: free, foster_borrow or none."""
    meld_without_take: MeldWithoutTake = MeldWithoutTake.NEVER
    """never, or before_rejecting_stock_card: lay cards from hand before passing a turned card."""
    forcing: Forcing = Forcing.OPTIONAL
    """optional (the opponent chooses), off, or automatic."""
    force_scope: ForceScope = ForceScope.ANY_DECLINED
    """any_declined (offered or own passed card) or offered_only."""
    force_fit: ForceFit = ForceFit.DIRECT
    """direct (extends one existing meld) or with_rearrangement."""
    forced_take: ForcedTake = ForcedTake.FULL
    """full (a forced take is a normal take) or minimal (only the forced card is added)."""
    exhaustion: Exhaustion = Exhaustion.DRAW
    """What an exhausted stock means: draw, or fewest_hand_cards wins."""
    draw_stake: DrawStake = DrawStake.CARRY
    """What a drawn deal does to the next stake: carry, none, double_next, double_compound."""
    scoring: Scoring = Scoring.STAKE
    """stake (loser pays the stake) or points (winner scores the loser's hand)."""
    match: MatchKind = MatchKind.SINGLE_DEAL
    """single_deal, n_deals (match_target deals) or first_to (match_target balance)."""
    match_target: int = 1
    """Deals in an n_deals match, or the balance to reach in a first_to match."""
    base_stake: int = 1
    """Stake of a deal that follows a decided deal."""
    hand_size: int = 10
    """Cards dealt to each player; a player goes out with hand_size + 1 melded."""
    num_players: int = 2
    """Players at the table: 2 to 4, seated in play order (the next seat plays next)."""
    exchange_one_card: bool = False
    """After the deal each player passes one hand card face down to the next seat."""
    force_by: ForceBy = ForceBy.OPPONENT
    """Who may force a refused card: opponent (two players) or offerer (who turned or paid it)."""
    layoff_on_opponent: bool = False
    """A player who may take the centre card may instead lay it on one meld of another
    player's table that it extends as the meld lies, then pays (discards) a hand card."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            kind = field.type if isinstance(field.type, type) else _FIELD_TYPES[field.name]
            if kind is bool:
                if not isinstance(value, bool):
                    raise InvalidRulesError(f"{field.name} must be true or false, got {value!r}.")
            elif issubclass(kind, StrEnum):
                try:
                    object.__setattr__(self, field.name, kind(value))
                except ValueError:
                    choices = ", ".join(v.value for v in kind)
                    hint = _ELSEWHERE.get((field.name, str(value)), "")
                    raise InvalidRulesError(
                        f"{field.name} must be one of {choices}; got {value!r}.{hint}"
                    ) from None
            elif not isinstance(value, int) or isinstance(value, bool):
                raise InvalidRulesError(f"{field.name} must be a whole number, got {value!r}.")
        if not 3 <= self.max_seq_len <= MAX_RUN:
            raise InvalidRulesError(
                f"max_seq_len must be between 3 and {MAX_RUN}, got {self.max_seq_len}."
            )
        if self.deal_packet not in (1, 2):
            raise InvalidRulesError(f"deal_packet must be 1 or 2, got {self.deal_packet}.")
        if not 2 <= self.num_players <= MAX_PLAYERS:
            raise InvalidRulesError(
                f"num_players must be 2 to {MAX_PLAYERS}, got {self.num_players}."
            )
        if not 1 <= self.hand_size <= 10 or self.hand_size % self.deal_packet:
            raise InvalidRulesError(
                f"hand_size must be 1..10 and a multiple of deal_packet, got {self.hand_size}."
            )
        if self.stock_size < MIN_STOCK:
            raise InvalidRulesError(
                f"num_players={self.num_players} with hand_size={self.hand_size} leaves "
                f"{self.stock_size} cards in the stock; at least {MIN_STOCK} are needed."
            )
        if (
            self.num_players > 2
            and self.force_by is ForceBy.OPPONENT
            and self.forcing is not Forcing.OFF
        ):
            raise InvalidRulesError(
                f"force_by=opponent is the two-player rule; with num_players={self.num_players} "
                "use force_by=offerer (or forcing=off)."
            )
        if self.num_players > 2 and self.initial_upcard is not InitialUpcard.NONE:
            raise InvalidRulesError(
                f"initial_upcard={self.initial_upcard.value} is a two-player rule; "
                f"with num_players={self.num_players} use initial_upcard=none."
            )
        if not 1 <= self.base_stake <= MAX_STAKE:
            raise InvalidRulesError(
                f"base_stake must be from 1 to {MAX_STAKE} (the largest stake a record holds), "
                f"got {self.base_stake}."
            )
        if self.match_target < 1:
            raise InvalidRulesError(f"match_target must be at least 1, got {self.match_target}.")
        if self.match is MatchKind.SINGLE_DEAL and self.match_target != 1:
            raise InvalidRulesError("match_target needs match n_deals or first_to.")
        if (
            self.rearrange_mode is RearrangeMode.NONE
            and self.force_fit is ForceFit.WITH_REARRANGEMENT
        ):
            raise InvalidRulesError(
                "force_fit with_rearrangement needs a rearrange_mode that allows rearranging "
                "(free or foster_borrow), not none."
            )
        if self.scoring is Scoring.POINTS and self.draw_stake is not DrawStake.NONE:
            raise InvalidRulesError(
                "scoring points scores cards, not stakes: it needs draw_stake none, "
                f"not {self.draw_stake.value}."
            )
        if self.forcing is Forcing.OFF and (
            self.force_scope is not ForceScope.ANY_DECLINED
            or self.force_fit is not ForceFit.DIRECT
            or self.forced_take is not ForcedTake.FULL
        ):
            raise InvalidRulesError(
                "force_scope, force_fit and forced_take have no meaning with forcing off; "
                "leave them at their defaults."
            )

    @property
    def cards_to_win(self) -> int:
        """Cards on the table that win a deal (hand_size + 1)."""
        return self.hand_size + 1

    @property
    def stock_size(self) -> int:
        """Stock cards after the deal (before any upcard is turned)."""
        return 40 - self.num_players * self.hand_size

    def with_flags(self, **flags: Any) -> Rules:
        """A copy with some flags changed (validated).

        :raises InvalidRulesError: for an unknown flag or a bad value.
        """
        unknown = sorted(set(flags) - set(FLAG_NAMES))
        if unknown:
            raise InvalidRulesError(
                f"Unknown rules flag {unknown[0]!r}; flags are: {', '.join(FLAG_NAMES)}."
            )
        return replace(self, **flags)

    def differences(self, other: Rules) -> dict[str, Any]:
        """Flags whose values differ from ``other``, with this object's values."""
        return {
            name: getattr(self, name)
            for name in FLAG_NAMES
            if getattr(self, name) != getattr(other, name)
        }

    def to_spec(self) -> str:
        """The shortest text ``preset[,flag=value...]`` naming these rules."""
        return _spec(self)

    def to_dict(self) -> dict[str, str | int]:
        """Every flag as plain JSON values."""
        return {name: _flag_json(getattr(self, name)) for name in FLAG_NAMES}

    def _shortest_spec(self) -> str:
        best = ""
        for name, preset in PRESETS.items():
            diff = self.differences(preset)
            spec = ",".join([name] + [f"{k}={_flag_text(v)}" for k, v in diff.items()])
            if not best or spec.count(",") < best.count(","):
                best = spec
        return best


@functools.lru_cache(maxsize=64)
def _spec(rules: Rules) -> str:
    """:meth:`Rules.to_spec`, remembered (servers ask for it with every message)."""
    return rules._shortest_spec()


_FIELD_TYPES: dict[str, type] = {
    "deck_style": DeckStyle,
    "deal_packet": int,
    "first_dealer": FirstDealer,
    "initial_upcard": InitialUpcard,
    "max_seq_len": int,
    "rearrange_mode": RearrangeMode,
    "meld_without_take": MeldWithoutTake,
    "forcing": Forcing,
    "force_scope": ForceScope,
    "force_fit": ForceFit,
    "forced_take": ForcedTake,
    "exhaustion": Exhaustion,
    "draw_stake": DrawStake,
    "scoring": Scoring,
    "match": MatchKind,
    "match_target": int,
    "base_stake": int,
    "hand_size": int,
    "num_players": int,
    "exchange_one_card": bool,
    "force_by": ForceBy,
    "layoff_on_opponent": bool,
}
FLAG_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))


def _flag_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value.value if isinstance(value, StrEnum) else str(value)


def _flag_json(value: object) -> str | int | bool:
    if isinstance(value, StrEnum):
        return value.value
    assert isinstance(value, int)
    return value


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "bicycle": Rules(
        max_seq_len=10,
        force_scope=ForceScope.OFFERED_ONLY,
        forced_take=ForcedTake.MINIMAL,
        meld_without_take=MeldWithoutTake.BEFORE_REJECTING_STOCK_CARD,
    ),
    "foster": Rules(
        deck_style=DeckStyle.A_TO_10,
        deal_packet=2,
        first_dealer=FirstDealer.LOW_CUT,
        max_seq_len=10,
        rearrange_mode=RearrangeMode.FOSTER_BORROW,
        forced_take=ForcedTake.MINIMAL,
    ),
    "wikipedia": Rules(deal_packet=2, initial_upcard=InitialUpcard.OFFERED_TO_BOTH),
    "mexican": Rules(
        deck_style=DeckStyle.SPANISH,
        num_players=3,
        hand_size=8,
        exchange_one_card=True,
        force_by=ForceBy.OFFERER,
    ),
}
"""The named rule sets."""
ALIASES: dict[str, str] = {"tercerilla": "mexican"}
"""Other names of presets: *tercerilla* is the Mexican game for three, as ``mexican`` is."""


def _parse_value(name: str, text: str) -> Any:
    kind = _FIELD_TYPES[name]
    if kind is bool:
        if text in ("true", "yes", "1"):
            return True
        if text in ("false", "no", "0"):
            return False
        raise InvalidRulesError(f"{name} must be true or false, got {text[:30]!r}.")
    if kind is int:
        digits = text.removeprefix("-")
        if not (digits.isascii() and digits.isdigit()):
            raise InvalidRulesError(f"{name} must be a whole number, got {text[:30]!r}.")
        if len(digits) > _MAX_DIGITS:
            raise InvalidRulesError(
                f"{name} must be a whole number of at most {_MAX_DIGITS} digits, "
                f"got one of {len(digits)}."
            )
        return int(text)
    return text


_MAX_DIGITS = 100
"""The longest whole number a rules spec's flag is read from: a longer one is refused before
``int`` (which reads at most 4,300 digits); a shorter one too large for its flag is refused
by the flag's own range check, which names the limit."""


def find_rules(spec: str | Rules) -> Rules:
    """Rules from a spec ``preset[,flag=value...]``, e.g. ``foster,max_seq_len=8``.

    >>> find_rules("standart")
    Traceback (most recent call last):
    ...
    conquian.errors.InvalidRulesError: Unknown rules preset 'standart'; presets are: standard, bicycle, foster, wikipedia, mexican, tercerilla.

    :raises InvalidRulesError: for an unknown preset or flag, a bad value or combination.
    """
    if isinstance(spec, Rules):
        return spec
    parts = [p.strip() for p in spec.strip().split(",")]
    name = parts[0].lower()
    name = ALIASES.get(name, name)
    if name not in PRESETS:
        raise InvalidRulesError(
            f"Unknown rules preset {parts[0][:40]!r}; presets are: {', '.join([*PRESETS, *ALIASES])}."
        )
    flags: dict[str, Any] = {}
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not sep:
            raise InvalidRulesError(f"Expected flag=value in rules spec, got {part[:40]!r}.")
        if key not in _FIELD_TYPES:
            raise InvalidRulesError(
                f"Unknown rules flag {key[:40]!r}; flags are: {', '.join(FLAG_NAMES)}."
            )
        flags[key] = _parse_value(key, value.strip().lower())
    return PRESETS[name].with_flags(**flags) if flags else PRESETS[name]
