"""The rules of a game in words, written from its :class:`~conquian.rules.Rules`.

This is the one place that states rules in prose.  :func:`describe` (shown by
``conquian rules``, the terminal's ``rules`` command and the browser's rules page)
writes every rule of any preset or spec, one sentence per flag
(:func:`flag_sentence`); :func:`help_summary` and :func:`how_to_play` are the short
introductions that the terminal's ``help`` and the browser's rules page open with.
Every number and every variant in them is read from the rules, never assumed, the
number of players too: with three or four at the table the text says who sits where
(play passes to the player on your right), how a card goes round the table and who
may force it; the words of a two-player game do not change with the new flags.

>>> from conquian.rules import find_rules
>>> print(describe(find_rules("standard")).splitlines()[0])
Conquian for two players (standard rules).
>>> flag_sentence(find_rules("standard,hand_size=6"), "hand_size")
'Each player gets 6 cards dealt one at a time, non-dealer first.'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..cards import NUM_RANKS, DeckStyle, card_label
from ..melds import MAX_RUN, RearrangeMode
from ..rules import (
    ALIASES,
    FLAG_NAMES,
    DrawStake,
    Exhaustion,
    ForceBy,
    ForcedTake,
    ForceFit,
    ForceScope,
    Forcing,
    InitialUpcard,
    MatchKind,
    MeldWithoutTake,
    Rules,
    Scoring,
)
from .spans import BOLD, Line, Span, plain

__all__ = [
    "EM",
    "PRESET_SOURCES",
    "Section",
    "describe",
    "flag_sentence",
    "help_summary",
    "how_to_play",
    "rules_heading",
    "rules_lines",
]

EM = "italic"
"""Style of a word in emphasis (a term being defined)."""

_FLAG_WORDS: dict[str, dict[str, str]] = {
    "deck_style": {
        "french": "A 40-card French-suited pack: A 2 3 4 5 6 7 J Q K in spades, hearts, "
        "diamonds and clubs.",
        "spanish": "A 40-card Spanish pack: 1-7, sota (10), caballo (11) and rey (12) in "
        "espadas, copas, oros and bastos.",
        "a_to_10": "A 40-card pack of A to 10 in each suit (Foster's American pack).",
    },
    "deal_packet": {
        "1": "Each player gets 10 cards dealt one at a time, non-dealer first.",
        "2": "Each player gets 10 cards dealt two at a time, non-dealer first.",
    },
    "first_dealer": {
        "random": "The first dealer is chosen at random; then the deal alternates.",
        "low_cut": "Both players cut; the lower card deals first; then the deal alternates.",
    },
    "initial_upcard": {
        "none": "The other 20 cards form the stock; no card is turned up after the deal.",
        "offered_to_both": "After the deal one card is turned up and offered to the non-dealer, "
        "then the dealer; if both refuse it is dead.",
    },
    "rearrange_mode": {
        "free": "When you take a card you may rearrange your own melds in any way, as long as "
        "every table card ends in a valid meld.",
        "foster_borrow": "When you take a card you may only borrow one card of a set into a run, "
        "or end cards of a run into a set; melds are never split in the middle or merged.",
        "none": "When you take a card your existing melds may only be extended, never split, "
        "merged or borrowed from.",
    },
    "meld_without_take": {
        "never": "You lay cards down only when you take a card.",
        "before_rejecting_stock_card": "After turning a stock card you may lay cards from your "
        "hand before passing it (no discard follows).",
    },
    "forcing": {
        "optional": "If a player refuses a card that fits one of his melds, his opponent may "
        "force him to take it.",
        "off": "Nobody can be forced to take a card.",
        "automatic": "A refused card that fits one of the refuser's melds is always forced on him.",
    },
    "force_scope": {
        "any_declined": "Forcing applies to an offered card he declines and to a stock card he "
        "turned and passed.",
        "offered_only": "Forcing applies only to a card offered to him that he declines.",
    },
    "force_fit": {
        "direct": "A card can be forced only if it extends one of his melds as it stands.",
        "with_rearrangement": "A card can be forced if his table plus the card can be rearranged "
        "into melds.",
    },
    "forced_take": {
        "full": "A forced player takes the card as in any take, and may lay other cards too.",
        "minimal": "A forced player only adds the forced card to his table.",
    },
    "exhaustion": {
        "draw": "If a player must turn a stock card and none is left, the deal is a draw.",
        "fewest_hand_cards": "If a player must turn a stock card and none is left, the player "
        "with fewer cards in hand wins (equal is a draw).",
    },
    "draw_stake": {
        "carry": "A drawn deal carries its stake over: the next decided deal is worth one more "
        "unit for each draw just before it.",
        "none": "A drawn deal changes nothing.",
        "double_next": "After one or more drawn deals the next decided deal is worth double.",
        "double_compound": "Each drawn deal doubles the value of the next decided deal.",
    },
    "scoring": {
        "stake": "The loser of a deal pays the winner the deal's stake.",
        "points": "The winner scores the cards left in the loser's hand: 2-7 at face value, "
        "J Q K 10, A 15.",
    },
    "match": {
        "single_deal": "Play ends with the first decided deal.",
        "n_deals": "The match lasts {target}.",
        "first_to": "The match ends when a player's balance reaches {target}.",
    },
}
"""The sentence for each value of each flag that has a fixed set of values."""

_MANY_WORDS: dict[str, dict[str, str]] = {
    "first_dealer": {
        "random": "The first dealer is chosen at random; then the deal passes to the player on "
        "the dealer's right.",
        "low_cut": "Every player cuts; the lowest card deals first; then the deal passes to the "
        "player on the dealer's right.",
    },
    "exhaustion": {
        "fewest_hand_cards": "If a player must turn a stock card and none is left, the player "
        "with the fewest cards in hand wins (a tie for fewest is a draw).",
    },
    "scoring": {
        "stake": "Every other player pays the winner of a deal the deal's stake.",
        "points": "The winner scores the cards left in every other player's hand, each loser "
        "paying him the points of his own hand: 2-7 at face value, J Q K 10, A 15.",
    },
}
"""The sentences of :data:`_FLAG_WORDS` that read otherwise with three or four players."""

_OFFERER_WORDS: dict[str, dict[str, str]] = {
    "forcing": {
        "optional": "If a player refuses a card that fits one of his melds, he may be forced to "
        "take it.",
    },
    "force_by": {
        "optional": "Only the player who turned or paid (discarded) the card may force it, on a "
        "player who refuses it after him; he decides each time a player refuses it, before it "
        "goes on, and a player who passes a card he turned himself cannot be forced with it.",
        "automatic": "Only a card that another player turned or paid is forced on the player "
        "who refuses it; a player who passes a card he turned himself is not forced with it.",
    },
    "force_scope": {
        "any_declined": "",
    },
}
"""The sentences with ``force_by offerer``, where the two-player ones would name the wrong
forcer ("" where :data:`_OFFERER_WORDS` ``force_by`` already says it all)."""

PRESET_SOURCES: dict[str, str] = {
    "standard": "The modern standard rules (pagat, filled in from Foster and Hoyle).",
    "bicycle": "Bicycle's Hoyle-style rules: no run cap, only an offered card can be forced, "
    "a forced player only adds the card, and cards may be laid before passing a turned card.",
    "foster": "R. F. Foster's Complete Hoyle (1897): A-10 pack dealt in twos, cut for deal, "
    "no run cap, restricted borrowing, a forced player only adds the card.",
    "wikipedia": "Wikipedia's description: dealt in twos, with an upcard offered to both players.",
    "mexican": "The Mexican game (conquián mexicano; with three players also called "
    "tercerilla), from pagat's Spanish page and other Spanish-language rules: Spanish pack, "
    "three players, eight cards dealt and nine to go out, one card exchanged after the deal, "
    "every card offered round the table, and only the player who turned or paid a card may "
    "force it.",
}
PRESET_SOURCES.update({alias: PRESET_SOURCES[name] for alias, name in ALIASES.items()})
"""Where each preset of :data:`~conquian.rules.PRESETS` comes from, in a sentence (under
each of its names, :data:`~conquian.rules.ALIASES` too)."""

_TAKE = (
    "On your turn you may take the card your opponent discarded or passed, laying it at once "
    "with cards from your hand or onto your own melds; a taken card never goes into your "
    "hand. If you decline it, it is dead and you turn the top stock card, which you may take "
    "or pass to your opponent. After taking you discard one card."
)

_ROUND_FIRST = "The player on the dealer's right begins by turning the top stock card."
_ROUND = (
    "A card turned from the stock is offered first to the player who turned it, then to each "
    "other player in turn, round to the right; a paid card (a discard) is offered to each "
    "other player in turn, starting with the player on the right of the one who paid it, and "
    "never comes back to him."
)
_ROUND_TAKE = (
    "The first player who takes the card lays it at once with cards from his hand or onto his "
    "own melds (a taken card never goes into the hand), then pays (discards) one card, which "
    "goes round in the same way."
)
_ROUND_DEAD = (
    "A card nobody takes is dead, and the player on the right of the one who turned or paid it "
    "turns the next stock card."
)
"""How a take goes with three or four players (:data:`_TAKE` is the two-player one)."""

_RIGHT = "play passes to the player on your right"
_OFFERER = "the player who turned or paid it"
_OWN_CARD = "a card you turned yourself is never forced on you"

_NUMBER_WORDS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
)


def _word(n: int) -> str:
    """A small number in words (``ten``), larger ones in digits."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def _value(value: object) -> str:
    return value.value if isinstance(value, StrEnum) else str(value)


def _capital(text: str) -> str:
    """``text`` with its first letter in capitals (the rest as it is)."""
    return text[:1].upper() + text[1:]


def _many(rules: Rules) -> bool:
    """More than two players: the words of the table round and the player on your right."""
    return rules.num_players > 2


def _first(rules: Rules) -> str:
    """The player who receives, picks and plays first: the one after the dealer."""
    return "the player on the dealer's right" if _many(rules) else "the non-dealer"


def _exchange_to(rules: Rules) -> str:
    """Whom a player passes his exchanged card to."""
    return "the player on his right" if _many(rules) else "his opponent"


def _exchange_short(rules: Rules) -> str:
    """The exchange in a sentence of the short forms ("" when it is off)."""
    if not rules.exchange_one_card:
        return ""
    return (
        f"After the deal each player passes one hand card face down to {_exchange_to(rules)}, "
        "all at once, and sees only the card he receives."
    )


def _exchange(rules: Rules) -> str:
    """The sentence of ``exchange_one_card`` (when it is on)."""
    to = _exchange_to(rules)
    if _many(rules):
        order, swap = f"in turn from {_first(rules)} round to the dealer", ""
    else:
        order, swap = f"{_first(rules)} first", " (so the two players swap one card)"
    return (
        f"After the deal, before play, each player picks one card of his hand to pass face "
        f"down to {to}, {order}; nobody learns another player's pick, all the picked cards "
        f"move at once when everyone has picked, and each player sees only the card he "
        f"receives{swap}."
    )


# ------------------------------------------------------------------ every rule


def flag_sentence(rules: Rules, name: str) -> str:
    """The sentence of :func:`describe` that states the flag ``name`` of ``rules``.

    Every flag has one except ``num_players`` of two (said in the title), the
    ``force_*`` flags when forcing is off (they must keep their defaults then), a
    ``base_stake`` of 1, ``exchange_one_card`` off and ``force_by opponent`` (the
    two-player words of forcing say it).  ``hand_size`` is stated with the deal.

    >>> from conquian.rules import find_rules
    >>> flag_sentence(find_rules("mexican"), "num_players")
    'Three players sit round the table, and play passes to the player on your right.'

    :raises KeyError: for an unknown flag name.
    """
    words = _FLAG_WORDS
    offerer = rules.force_by is ForceBy.OFFERER
    if name in ("deal_packet", "hand_size"):
        text = words["deal_packet"][str(rules.deal_packet)].replace(
            "10 cards", f"{rules.hand_size} cards"
        )
        if _many(rules):
            text = text.replace("non-dealer first", f"starting with {_first(rules)}")
        return text
    if name == "num_players":
        if not _many(rules):
            return ""
        return f"{_capital(_word(rules.num_players))} players sit round the table, and {_RIGHT}."
    if name == "exchange_one_card":
        return _exchange(rules) if rules.exchange_one_card else ""
    if name == "initial_upcard":
        return words["initial_upcard"][rules.initial_upcard.value].replace(
            "20 cards", f"{rules.stock_size} cards"
        )
    if name == "max_seq_len":
        return (
            "Melds are sets of 3 or 4 cards of one rank, and runs of 3 to "
            f"{rules.max_seq_len} cards of one suit in order (ace low, 7 next to J, "
            "no wrap-around)."
        )
    if (
        name in ("force_scope", "force_fit", "forced_take", "force_by")
        and rules.forcing is Forcing.OFF
    ):
        return ""
    if name == "force_by":
        return _OFFERER_WORDS["force_by"][rules.forcing.value] if offerer else ""
    value = _value(getattr(rules, name)) if name in FLAG_NAMES else ""
    if offerer and value in _OFFERER_WORDS.get(name, {}):
        return _OFFERER_WORDS[name][value]
    if _many(rules) and value in _MANY_WORDS.get(name, {}):
        return _MANY_WORDS[name][value]
    if name in ("match", "match_target"):
        n = rules.match_target
        target = {
            MatchKind.N_DEALS: f"{n} deal{'s' if n != 1 else ''}",
            MatchKind.FIRST_TO: str(n),
        }.get(rules.match, "")
        return words["match"][rules.match.value].format(target=target)
    if name == "draw_stake":
        text = words["draw_stake"][rules.draw_stake.value]
        if rules.base_stake != 1:
            text = text.replace("one more unit", f"{rules.base_stake} more units")
        return text
    if name == "base_stake":
        if rules.base_stake == 1:
            return ""
        return f"A deal is worth {rules.base_stake} units before any drawn deals add to it."
    if name not in FLAG_NAMES:
        raise KeyError(name)
    return words[name][value]


_ORDER = (
    "deck_style",
    "num_players",
    "deal_packet",
    "first_dealer",
    "initial_upcard",
    "exchange_one_card",
    "max_seq_len",
    "",
    "rearrange_mode",
    "meld_without_take",
    "forcing",
    "force_by",
    "force_scope",
    "force_fit",
    "forced_take",
    "cards_to_win",
    "exhaustion",
    "scoring",
    "base_stake",
    "draw_stake",
    "match",
)
"""The order of the sentences of :func:`rules_lines` ("" is how a take goes)."""


def rules_lines(rules: Rules) -> list[Line]:
    """Every rule of ``rules`` in plain words, then every flag with its value: the lines
    of :func:`describe`."""
    players = _word(rules.num_players)
    lines: list[Line] = [[Span(f"Conquian for {players} players ({rules.to_spec()} rules).")], []]
    for name in _ORDER:
        if not name:
            text = _TAKE
            if _many(rules):
                text = " ".join((_ROUND_FIRST, _ROUND, _ROUND_TAKE, _ROUND_DEAD))
        elif name == "cards_to_win":
            text = (
                f"You win by melding exactly {rules.cards_to_win} cards, the last one being the "
                f"centre card; {rules.hand_size} melded and an empty hand after a discard is not out."
            )
        else:
            text = flag_sentence(rules, name)
        if text:
            lines.append([Span(text)])
    lines += [[], [Span("Flags:")]]
    width = max(len(n) for n in FLAG_NAMES)
    for flag in FLAG_NAMES:
        lines.append([Span(f"  {flag.ljust(width)}  {_value(getattr(rules, flag))}")])
    return lines


def describe(rules: Rules) -> str:
    """The rules in plain words, followed by every flag (:func:`rules_lines` as text).

    >>> from conquian.rules import find_rules
    >>> "runs of 3 to 10 cards" in describe(find_rules("bicycle"))
    True
    """
    return "\n".join(plain(line) for line in rules_lines(rules))


def rules_heading(rules: Rules) -> str:
    """The heading over :func:`describe` on a page about one game."""
    spec = rules.to_spec()
    if "," in spec:
        return f"Every rule of this game ({spec} rules)"
    return f"Every rule of the {spec} game"


# ------------------------------------------------------------------ short forms


def _rank_order(rules: Rules) -> str:
    """The ranks in order as they are labelled, e.g. ``A 2 3 4 5 6 7 J Q K``."""
    return " ".join(card_label(r, rules.deck_style)[:-1] for r in range(NUM_RANKS))


def _next_to(rules: Rules) -> str:
    """Which ranks are next to each other although their labels are not (7 and J)."""
    if rules.deck_style is DeckStyle.A_TO_10:
        return ""
    return f", the 7 is next to the {card_label(7, rules.deck_style)[:-1]}"


def _runs(rules: Rules, words: bool = False) -> str:
    """How long a run may be: ``3 or more``, or ``3 to 8`` under a cap (or in words)."""
    say = _word if words else str
    if rules.max_seq_len >= MAX_RUN:
        return f"{say(3)} or more"
    return f"{say(3)} to {say(rules.max_seq_len)}"


def help_summary(rules: Rules) -> list[str]:
    """How to play, in three short paragraphs (the opening of the terminal's ``help``)."""
    rearrange = {
        RearrangeMode.FREE: " (you may rearrange your own melds)",
        RearrangeMode.FOSTER_BORROW: " (you may only borrow a card of a set into a run, "
        "or an end card of a run into a set)",
        RearrangeMode.NONE: " (your own melds may only be extended)",
    }[rules.rearrange_mode]
    first = (
        f"Each of you holds {_cards(rules.hand_size)}. Win by having {rules.cards_to_win} cards "
        "face up in melds on your own table: sets (3 or 4 of a rank) and runs "
        f"({_runs(rules)} of one suit in order: {_rank_order(rules)}{_next_to(rules)}). "
        "A card you take never goes into your hand: you lay it at once, with cards from your "
        f"hand or onto your melds{rearrange}."
    )
    turn = ""
    if rules.initial_upcard is InitialUpcard.OFFERED_TO_BOTH:
        turn = "After the deal a card is turned up and offered to the non-dealer, then the dealer. "
    if rules.exchange_one_card:
        turn += f"{_exchange_short(rules)} "
    if _many(rules):
        turn += f"{_ROUND} When it is offered to you, take it or pass it. {_ROUND_DEAD}"
    else:
        turn += (
            "On your turn you are offered your opponent's discard (or the stock card he passed): "
            "take it, or decline it and turn the next stock card, which you may take or pass."
        )
    if rules.meld_without_take is MeldWithoutTake.BEFORE_REJECTING_STOCK_CARD:
        turn += " Before passing it you may lay cards from your hand."
    after = "After a take you discard one card."
    if _many(rules):
        after = "After a take you pay (discard) one card, which goes round in the same way."
    if rules.forcing is Forcing.OFF:
        after += " Nobody can be forced to take a card."
    else:
        refuse = (
            "decline an offered card"
            if rules.force_scope is ForceScope.OFFERED_ONLY
            else "refuse a card"
        )
        fits = (
            "could fit your melds once rearranged"
            if rules.force_fit is ForceFit.WITH_REARRANGEMENT
            else "fits your melds as they lie"
        )
        forcer = _OFFERER if rules.force_by is ForceBy.OFFERER else "your opponent"
        then = (
            "you must take it after all"
            if rules.forcing is Forcing.AUTOMATIC
            else f"{forcer} may force you to take it"
        )
        if rules.forced_take is ForcedTake.MINIMAL:
            then += ", adding only that card"
        if rules.force_by is ForceBy.OFFERER:
            then += f"; {_OWN_CARD}"
        after += f" If you {refuse} that {fits}, {then}."
    if rules.exhaustion is Exhaustion.FEWEST_HAND_CARDS:
        fewer = "the fewest" if _many(rules) else "fewer"
        after += f" If the stock runs out, the player with {fewer} cards in hand wins."
    if _many(rules) and rules.scoring is Scoring.STAKE:
        after += " Every other player pays the winner."
    return [first, turn, after]


@dataclass(frozen=True, slots=True)
class Section:
    """A part of a page about the rules: a heading and its paragraphs (or steps)."""

    heading: str
    lines: tuple[Line, ...]
    steps: bool = False
    """The lines are the steps of a numbered list."""


def how_to_play(rules: Rules) -> list[Section]:
    """How to play, for a page (the browser's rules page opens with it): the cards, the
    goal and a turn, from ``rules``.  Terms defined are in :data:`EM`, key words in bold."""
    hand, win = rules.hand_size, rules.cards_to_win
    players = _capital(_word(rules.num_players))
    if rules.deck_style is DeckStyle.A_TO_10:
        deck = f"{players} players, a 40-card deck: ace to 10 in four suits, in that order."
    else:
        deck = (
            f"{players} players, a 40-card deck: ace to 7, then jack, queen and king, in four "
            "suits (the Spanish deck: 1 to 7, sota, caballo and rey of oros, copas, espadas and "
            "bastos). The 7 and the jack are next to each other."
        )
    if _many(rules):
        deck += f" {_capital(_RIGHT)}."
    goal: Line = [
        Span("Be the first to have "),
        Span(f"{win} cards", BOLD),
        Span(" face up on your own table in melds: "),
        Span("sets", EM),
        Span(" of three or four cards of one rank, and "),
        Span("runs", EM),
        Span(
            f" of {_runs(rules, words=True)} cards of one suit in order "
            f"({_rank_order(rules)}; no wrap-around). Your {_word(hand)} hand "
            f"card{'s' if hand != 1 else ''} plus one card taken from the centre make the "
            f"{_word(win)}."
        ),
    ]
    upcard = rules.initial_upcard is InitialUpcard.OFFERED_TO_BOTH
    packet = ", two at a time" if rules.deal_packet == 2 else ""
    deal = (
        f"Each player is dealt {_cards(hand)}{packet}; the other {rules.stock_size} form the "
        "stock, face down."
    )
    if upcard:
        deal += (
            " Then one card is turned up and offered to the non-dealer, then to the dealer; "
            "if both refuse it, it is dead."
        )
    if rules.exchange_one_card:
        deal += f" {_exchange_short(rules)}"
    deal += f" {_capital(_first(rules))} plays first."
    many = _many(rules)
    offered: Line = [
        Span("If a card is "),
        Span("offered", BOLD),
        Span(
            " to you (a card another player paid, or a stock card he turned and passed), "
            if many
            else " to you (your opponent's discard, or a stock card he turned and passed), "
        ),
        Span("take", BOLD),
        Span(" it or "),
        Span("decline", BOLD),
        Span(" it."),
    ]
    if many:
        offered.append(Span(f" {_ROUND}"))
        when = (
            "When nobody takes a card that the player on your left turned or paid (and on the "
            "very first turn, if you sit on the dealer's right), you turn"
        )
    elif upcard:
        when = "After declining you turn"
    else:
        when = "After declining (and on the very first turn) you turn"
    turned: Line = [
        Span(when),
        Span(" the top card of the stock: "),
        Span("take", BOLD),
        Span(" it or "),
        Span("pass", BOLD),
        Span(
            " it. A passed card is offered to each other player in turn."
            if many
            else " it. A passed card is offered to your opponent."
        ),
    ]
    if rules.meld_without_take is MeldWithoutTake.BEFORE_REJECTING_STOCK_CARD:
        turned.append(Span(" Before passing it you may lay cards from your hand on your table."))
    rearrange = {
        RearrangeMode.FREE: "you may rearrange your own melds while you do.",
        RearrangeMode.FOSTER_BORROW: "you may borrow one card of a set into a run, or an end "
        "card of a run into a set, while you do (melds are never split or merged).",
        RearrangeMode.NONE: "your melds may only be extended, never rearranged.",
    }[rules.rearrange_mode]
    take: Line = [
        Span(
            "To take a card you meld it at once, with cards from your hand or onto your melds; "
            f"{rearrange} A taken card never goes into your hand. After a take you "
        ),
        Span("discard", BOLD),
        Span(
            " (pay) a card, which goes round the other players, starting with the player on "
            "your right."
            if many
            else " a card, which is offered to your opponent."
        ),
    ]
    refused: Line = [
        Span(
            "A card that nobody takes goes to the dead pile for good. "
            if many
            else "A refused card goes to the dead pile for good. "
        )
    ]
    if rules.forcing is Forcing.OFF:
        refused.append(Span("Nobody can be forced to take a card."))
    else:
        refuse = (
            "decline an offered card"
            if rules.force_scope is ForceScope.OFFERED_ONLY
            else "refuse a card"
        )
        fits = (
            "could fit your melds once they are rearranged"
            if rules.force_fit is ForceFit.WITH_REARRANGEMENT
            else "fits your melds"
        )
        refused.append(Span(f"If you {refuse} that {fits}, "))
        if rules.forcing is Forcing.AUTOMATIC:
            refused += [Span("you are "), Span("forced", BOLD), Span(" to take it.")]
        else:
            forcer = _OFFERER if rules.force_by is ForceBy.OFFERER else "your opponent"
            refused += [Span(f"{forcer} may "), Span("force", BOLD), Span(" you to take it.")]
        if rules.force_by is ForceBy.OFFERER:
            refused.append(Span(f" But {_OWN_CARD}."))
        if rules.forced_take is ForcedTake.MINIMAL:
            refused.append(Span(" You then only add that card to your table."))
    drawn = {
        DrawStake.CARRY: " and the stake carries over to the next deal.",
        DrawStake.NONE: ".",
        DrawStake.DOUBLE_NEXT: " and the next decided deal is worth double.",
        DrawStake.DOUBLE_COMPOUND: " and each drawn deal doubles the value of the next "
        "decided deal.",
    }[rules.draw_stake]
    if rules.exhaustion is Exhaustion.FEWEST_HAND_CARDS and many:
        out = (
            "If the stock runs out before anyone goes out, the player with the fewest cards in "
            f"hand wins the deal; if several tie for fewest the deal is drawn{drawn}"
        )
    elif rules.exhaustion is Exhaustion.FEWEST_HAND_CARDS:
        out = (
            "If the stock runs out before anyone goes out, the player with fewer cards in hand "
            f"wins the deal; with equal hands the deal is drawn{drawn}"
        )
    else:
        out = f"If the stock runs out before anyone goes out, the deal is drawn{drawn}"
    return [
        Section("", ([Span(deck)],)),
        Section("Goal", (goal,)),
        Section(
            "A turn",
            ([Span(deal)], offered, turned, take, refused, [Span(out)]),
            steps=True,
        ),
    ]
