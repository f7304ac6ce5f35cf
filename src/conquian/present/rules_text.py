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

Every sentence is one message of the game's catalogue (:data:`~.i18n.GAME_WORDS`),
translated when it is written; the names of flags, values and presets are code and
stay as they are typed.  In the sentences of :func:`how_to_play` a word between
``**`` is shown in bold and one between ``*`` in :data:`EM` (a term being defined).

>>> from conquian.rules import find_rules
>>> print(describe(find_rules("standard")).splitlines()[0])
Conquian for two players (standard rules).
>>> flag_sentence(find_rules("standard,hand_size=6"), "hand_size")
'Each player gets 6 cards dealt one at a time, non-dealer first.'
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum

from ..cards import NUM_RANKS, DeckStyle, card_label
from ..melds import MAX_RUN, RearrangeMode
from ..rules import (
    ALIASES,
    FLAG_NAMES,
    PRESETS,
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
from .i18n import GAME_WORDS, Part, fill
from .spans import BOLD, Line, Span, plain

__all__ = [
    "EM",
    "PRESET_SOURCES",
    "Section",
    "describe",
    "flag_sentence",
    "help_summary",
    "how_to_play",
    "presets_note",
    "rules_heading",
    "rules_lines",
]

_ = GAME_WORDS.gettext
ngettext = GAME_WORDS.ngettext
pgettext = GAME_WORDS.pgettext

EM = "italic"
"""Style of a word in emphasis (a term being defined)."""

_MARK = re.compile(r"\*\*(.+?)\*\*|\*(.+?)\*")


def _marked(template: str, **parts: Part) -> Line:
    """A translated sentence as spans: ``**word**`` in bold, ``*word*`` in :data:`EM`,
    and ``{name}`` placeholders filled as :func:`~.i18n.fill` does (words of one style
    side by side in one span).

    >>> _marked("Be the first to have **{count} cards**.", count=9)
    [Span(text='Be the first to have ', style='', card=None), Span(text='9 cards', style='bold', card=None), Span(text='.', style='', card=None)]
    """
    line: Line = []
    start = 0
    for mark in _MARK.finditer(template):
        if mark.start() > start:
            line += fill(template[start : mark.start()], "", **parts)
        bold, em = mark.groups()
        line += fill(bold, BOLD, **parts) if bold is not None else fill(em, EM, **parts)
        start = mark.end()
    if start < len(template):
        line += fill(template[start:], "", **parts)
    merged: Line = []
    for span in line:
        last = merged[-1] if merged else None
        if (
            last is not None
            and last.card is None
            and span.card is None
            and last.style == span.style
        ):
            merged[-1] = Span(last.text + span.text, span.style)
            continue
        merged.append(span)
    return merged


def _flag_words(name: str) -> dict[str, str]:
    """The sentence for each value of a flag that has a fixed set of values ({} for a
    flag whose sentence is written from numbers; see :func:`flag_sentence`)."""
    if name == "deck_style":
        return {
            "french": _(
                "A 40-card French-suited pack: A 2 3 4 5 6 7 J Q K in spades, hearts, "
                "diamonds and clubs."
            ),
            # Translators: the Spanish names of the ranks and suits (sota, caballo, rey,
            # espadas, copas, oros, bastos) are the names of the cards: keep them.
            "spanish": _(
                "A 40-card Spanish pack: 1-7, sota (10), caballo (11) and rey (12) in "
                "espadas, copas, oros and bastos."
            ),
            "a_to_10": _("A 40-card pack of A to 10 in each suit (Foster's American pack)."),
        }
    if name == "first_dealer":
        return {
            "random": _("The first dealer is chosen at random; then the deal alternates."),
            "low_cut": _("Both players cut; the lower card deals first; then the deal alternates."),
        }
    if name == "initial_upcard":
        return {
            "offered_to_both": _(
                "After the deal one card is turned up and offered to the non-dealer, then the "
                "dealer; if both refuse it is dead."
            ),
        }
    if name == "rearrange_mode":
        return {
            "free": _(
                "When you take a card you may rearrange your own melds in any way, as long as "
                "every table card ends in a valid meld."
            ),
            "foster_borrow": _(
                "When you take a card you may only borrow one card of a set into a run, or end "
                "cards of a run into a set; melds are never split in the middle or merged."
            ),
            "none": _(
                "When you take a card your existing melds may only be extended, never split, "
                "merged or borrowed from."
            ),
        }
    if name == "meld_without_take":
        return {
            "never": _("You lay cards down only when you take a card."),
            # Translators: "passing it": declining the stock card you turned.
            "before_rejecting_stock_card": _(
                "After turning a stock card you may lay cards from your hand before passing it "
                "(no discard follows)."
            ),
        }
    if name == "forcing":
        return {
            "optional": _(
                "If a player refuses a card that fits one of his melds, his opponent may force "
                "him to take it."
            ),
            "off": _("Nobody can be forced to take a card."),
            "automatic": _(
                "A refused card that fits one of the refuser's melds is always forced on him."
            ),
        }
    if name == "force_scope":
        return {
            "any_declined": _(
                "Forcing applies to an offered card he declines and to a stock card he turned "
                "and passed."
            ),
            "offered_only": _("Forcing applies only to a card offered to him that he declines."),
        }
    if name == "force_fit":
        return {
            "direct": _("A card can be forced only if it extends one of his melds as it stands."),
            "with_rearrangement": _(
                "A card can be forced if his table plus the card can be rearranged into melds."
            ),
        }
    if name == "forced_take":
        return {
            "full": _(
                "A forced player takes the card as in any take, and may lay other cards too."
            ),
            "minimal": _("A forced player only adds the forced card to his table."),
        }
    if name == "exhaustion":
        return {
            "draw": _("If a player must turn a stock card and none is left, the deal is a draw."),
            "fewest_hand_cards": _(
                "If a player must turn a stock card and none is left, the player with fewer "
                "cards in hand wins (equal is a draw)."
            ),
        }
    if name == "draw_stake":
        return {
            "none": _("A drawn deal changes nothing."),
            "double_next": _(
                "After one or more drawn deals the next decided deal is worth double."
            ),
            "double_compound": _("Each drawn deal doubles the value of the next decided deal."),
        }
    if name == "scoring":
        return {
            "stake": _("The loser of a deal pays the winner the deal's stake."),
            # Translators: J Q K and A are the ranks as the cards are labelled.
            "points": _(
                "The winner scores the cards left in the loser's hand: 2-7 at face value, "
                "J Q K 10, A 15."
            ),
        }
    return {}


def _many_words(name: str) -> dict[str, str]:
    """The sentences of :func:`_flag_words` that read otherwise with three or four players."""
    if name == "first_dealer":
        return {
            "random": _(
                "The first dealer is chosen at random; then the deal passes to the player on the "
                "dealer's right."
            ),
            "low_cut": _(
                "Every player cuts; the lowest card deals first; then the deal passes to the "
                "player on the dealer's right."
            ),
        }
    if name == "exhaustion":
        return {
            "fewest_hand_cards": _(
                "If a player must turn a stock card and none is left, the player with the fewest "
                "cards in hand wins (a tie for fewest is a draw)."
            ),
        }
    if name == "scoring":
        return {
            "stake": _("Every other player pays the winner of a deal the deal's stake."),
            "points": _(
                "The winner scores the cards left in every other player's hand, each loser "
                "paying him the points of his own hand: 2-7 at face value, J Q K 10, A 15."
            ),
        }
    return {}


def _offerer_words(name: str) -> dict[str, str]:
    """The sentences with ``force_by offerer``, where the two-player ones would name the
    wrong forcer ("" where the sentence of ``force_by`` already says it all)."""
    if name == "forcing":
        return {
            "optional": _(
                "If a player refuses a card that fits one of his melds, he may be forced to "
                "take it."
            ),
        }
    if name == "force_by":
        return {
            # Translators: "paid" is the Mexican word for discarding after a take (pagar);
            # "passes a card he turned": declines the stock card he turned himself.
            "optional": _(
                "Only the player who turned or paid (discarded) the card may force it, on a "
                "player who refuses it after him; he decides each time a player refuses it, "
                "before it goes on, and a player who passes a card he turned himself cannot be "
                "forced with it."
            ),
            "automatic": _(
                "Only a card that another player turned or paid is forced on the player who "
                "refuses it; a player who passes a card he turned himself is not forced with it."
            ),
        }
    if name == "force_scope":
        return {"any_declined": ""}
    return {}


def _preset_sources() -> dict[str, str]:
    """Where each preset comes from, in a sentence (translated now)."""
    return {
        "standard": _("The modern standard rules (pagat, filled in from Foster and Hoyle)."),
        "bicycle": _(
            "Bicycle's Hoyle-style rules: no run cap, only an offered card can be forced, a "
            "forced player only adds the card, and cards may be laid before passing a turned "
            "card."
        ),
        "foster": _(
            "R. F. Foster's Complete Hoyle (1897): A-10 pack dealt in twos, cut for deal, no "
            "run cap, restricted borrowing, a forced player only adds the card."
        ),
        "wikipedia": _(
            "Wikipedia's description: dealt in twos, with an upcard offered to both players."
        ),
        # Translators: "conquián mexicano" and "tercerilla" are the game's Spanish names.
        "mexican": _(
            "The Mexican game (conquián mexicano; with three players also called tercerilla), "
            "from pagat's Spanish page and other Spanish-language rules: Spanish pack, three "
            "players, eight cards dealt and nine to go out, one card exchanged after the deal, "
            "every card offered round the table, and only the player who turned or paid a "
            "card may force it."
        ),
    }


class _PresetSources(Mapping[str, str]):
    """:data:`PRESET_SOURCES`: each sentence translated when it is read."""

    def __getitem__(self, name: str) -> str:
        return _preset_sources()[ALIASES.get(name, name)]

    def __iter__(self) -> Iterator[str]:
        return iter([*_preset_sources(), *ALIASES])

    def __len__(self) -> int:
        return len(_preset_sources()) + len(ALIASES)


PRESET_SOURCES: Mapping[str, str] = _PresetSources()
"""Where each preset of :data:`~conquian.rules.PRESETS` comes from, in a sentence (under
each of its names, :data:`~conquian.rules.ALIASES` too), in the language in use."""


def _take_words() -> str:
    """How a take goes with two players (:func:`_round_words` is the table round)."""
    return _(
        "On your turn you may take the card your opponent discarded or passed, laying it at "
        "once with cards from your hand or onto your own melds; a taken card never goes into "
        "your hand. If you decline it, it is dead and you turn the top stock card, which you "
        "may take or pass to your opponent. After taking you discard one card."
    )


def _round_first() -> str:
    return _("The player on the dealer's right begins by turning the top stock card.")


def _round() -> str:
    # Translators: "paid card": a card discarded after a take (la carta pagada).
    return _(
        "A card turned from the stock is offered first to the player who turned it, then to "
        "each other player in turn, round to the right; a paid card (a discard) is offered to "
        "each other player in turn, starting with the player on the right of the one who paid "
        "it, and never comes back to him."
    )


def _round_take() -> str:
    return _(
        "The first player who takes the card lays it at once with cards from his hand or onto "
        "his own melds (a taken card never goes into the hand), then pays (discards) one card, "
        "which goes round in the same way."
    )


def _round_dead() -> str:
    return _(
        "A card nobody takes is dead, and the player on the right of the one who turned or "
        "paid it turns the next stock card."
    )


def _round_words() -> str:
    """How a take goes with three or four players (:func:`_take_words` is the two-player one)."""
    return " ".join((_round_first(), _round(), _round_take(), _round_dead()))


def _layoff(rules: Rules) -> str:
    """The sentence of ``layoff_on_opponent`` (when it is on)."""
    if _many(rules):
        # Translators: a layoff (rule layoff_on_opponent): the centre card put on another
        # player's meld, e.g. "ponerle la carta a la corrida de otro"; "pay": discard (pagar)
        return _(
            "When you may take the centre card (not when you are forced), you may instead lay "
            "it on one meld of another player that it extends as the meld lies; it stays on his "
            "table, and you then pay "
            "(discard) a card from your hand, so you need one to pay with. Laying a card on "
            "another player's meld never puts you out, and a card that fits only another "
            "player's meld is never forced on you."
        )
    # Translators: a layoff (rule layoff_on_opponent) with two players
    return _(
        "When you may take the centre card (not when you are forced), you may instead lay it "
        "on one of your opponent's melds that it extends as the meld lies; it stays on his "
        "table, and you then discard a card "
        "from your hand, so you need one to discard. Laying a card on your opponent's meld "
        "never puts you out, and a card that fits only his meld is never forced on you."
    )


def _win_with_layoffs(rules: Rules) -> str:
    """The sentence of going out under ``layoff_on_opponent`` (the count of cards to win
    changes with the cards laid on and off a table)."""
    win = rules.cards_to_win
    # Translators: {count} cards melded win when nobody lays cards on another player's meld
    return ngettext(
        "You win when a take empties your hand, the last card melded being the centre card: "
        "{count} card on your table, one more for each card others laid on your melds and one "
        "fewer for each you laid on theirs; an empty hand after a discard is not out.",
        "You win when a take empties your hand, the last card melded being the centre card: "
        "{count} cards on your table, one more for each card others laid on your melds and one "
        "fewer for each you laid on theirs; an empty hand after a discard is not out.",
        win,
    ).format(count=win)


def _number(n: int) -> str:
    """A number of cards in words (``ten``), from one to eleven; larger ones in digits."""
    words = (
        # Translators: a number of cards in words, put into sentences such as "Your {hand}
        # hand cards plus one card taken from the centre make the {win}."; write it in digits
        # where your language's number words change with the sentence.
        pgettext("number of cards", "one"),
        pgettext("number of cards", "two"),
        pgettext("number of cards", "three"),
        pgettext("number of cards", "four"),
        pgettext("number of cards", "five"),
        pgettext("number of cards", "six"),
        pgettext("number of cards", "seven"),
        pgettext("number of cards", "eight"),
        pgettext("number of cards", "nine"),
        pgettext("number of cards", "ten"),
        pgettext("number of cards", "eleven"),
    )
    return words[n - 1] if 1 <= n <= len(words) else str(n)


def _value(value: object) -> str:
    return value.value if isinstance(value, StrEnum) else str(value)


def _many(rules: Rules) -> bool:
    """More than two players: the words of the table round and the player on your right."""
    return rules.num_players > 2


def _exchange_short(rules: Rules) -> str:
    """The exchange in a sentence of the short forms ("" when it is off)."""
    if not rules.exchange_one_card:
        return ""
    if _many(rules):
        return _(
            "After the deal each player passes one hand card face down to the player on his "
            "right, all at once, and sees only the card he receives."
        )
    return _(
        "After the deal each player passes one hand card face down to his opponent, all at "
        "once, and sees only the card he receives."
    )


def _exchange(rules: Rules) -> str:
    """The sentence of ``exchange_one_card`` (when it is on)."""
    if _many(rules):
        return _(
            "After the deal, before play, each player picks one card of his hand to pass face "
            "down to the player on his right, in turn from the player on the dealer's right "
            "round to the dealer; nobody learns another player's pick, all the picked cards "
            "move at once when everyone has picked, and each player sees only the card he "
            "receives."
        )
    return _(
        "After the deal, before play, each player picks one card of his hand to pass face down "
        "to his opponent, the non-dealer first; nobody learns another player's pick, all the "
        "picked cards move at once when everyone has picked, and each player sees only the "
        "card he receives (so the two players swap one card)."
    )


def _deal(rules: Rules) -> str:
    """The sentence of ``deal_packet`` and ``hand_size``."""
    n = rules.hand_size
    if _many(rules) and rules.deal_packet == 2:
        text = ngettext(
            "Each player gets {count} card dealt two at a time, starting with the player on "
            "the dealer's right.",
            "Each player gets {count} cards dealt two at a time, starting with the player on "
            "the dealer's right.",
            n,
        )
    elif _many(rules):
        text = ngettext(
            "Each player gets {count} card dealt one at a time, starting with the player on "
            "the dealer's right.",
            "Each player gets {count} cards dealt one at a time, starting with the player on "
            "the dealer's right.",
            n,
        )
    elif rules.deal_packet == 2:
        text = ngettext(
            "Each player gets {count} card dealt two at a time, non-dealer first.",
            "Each player gets {count} cards dealt two at a time, non-dealer first.",
            n,
        )
    else:
        text = ngettext(
            "Each player gets {count} card dealt one at a time, non-dealer first.",
            "Each player gets {count} cards dealt one at a time, non-dealer first.",
            n,
        )
    return text.format(count=n)


def _table(rules: Rules) -> str:
    """The sentence of ``num_players`` ("" for two, said in the title)."""
    return {
        2: "",
        3: _("Three players sit round the table, and play passes to the player on your right."),
        4: _("Four players sit round the table, and play passes to the player on your right."),
    }[rules.num_players]


# ------------------------------------------------------------------ every rule


def flag_sentence(rules: Rules, name: str) -> str:
    """The sentence of :func:`describe` that states the flag ``name`` of ``rules``.

    Every flag has one except ``num_players`` of two (said in the title), the
    ``force_*`` flags when forcing is off (they must keep their defaults then), a
    ``base_stake`` of 1, ``exchange_one_card`` and ``layoff_on_opponent`` off, and ``force_by
    opponent`` (the two-player words of forcing say it).  ``hand_size`` is stated with the deal.

    >>> from conquian.rules import find_rules
    >>> flag_sentence(find_rules("mexican"), "num_players")
    'Three players sit round the table, and play passes to the player on your right.'

    :raises KeyError: for an unknown flag name.
    """
    offerer = rules.force_by is ForceBy.OFFERER
    if name in ("deal_packet", "hand_size"):
        return _deal(rules)
    if name == "num_players":
        return _table(rules)
    if name == "exchange_one_card":
        return _exchange(rules) if rules.exchange_one_card else ""
    if name == "layoff_on_opponent":
        return _layoff(rules) if rules.layoff_on_opponent else ""
    if name == "initial_upcard":
        if rules.initial_upcard is InitialUpcard.NONE:
            n = rules.stock_size
            return ngettext(
                "The other {count} card forms the stock; no card is turned up after the deal.",
                "The other {count} cards form the stock; no card is turned up after the deal.",
                n,
            ).format(count=n)
        return _flag_words(name)[rules.initial_upcard.value]
    if name == "max_seq_len":
        n = rules.max_seq_len
        # Translators: J is the jack as the cards are labelled (the sota of the Spanish pack).
        return ngettext(
            "Melds are sets of 3 or 4 cards of one rank, and runs of 3 to {count} card of one "
            "suit in order (ace low, 7 next to J, no wrap-around).",
            "Melds are sets of 3 or 4 cards of one rank, and runs of 3 to {count} cards of one "
            "suit in order (ace low, 7 next to J, no wrap-around).",
            n,
        ).format(count=n)
    if (
        name in ("force_scope", "force_fit", "forced_take", "force_by")
        and rules.forcing is Forcing.OFF
    ):
        return ""
    if name == "force_by":
        return _offerer_words("force_by")[rules.forcing.value] if offerer else ""
    value = _value(getattr(rules, name)) if name in FLAG_NAMES else ""
    if offerer and value in _offerer_words(name):
        return _offerer_words(name)[value]
    if _many(rules) and value in _many_words(name):
        return _many_words(name)[value]
    if name in ("match", "match_target"):
        n = rules.match_target
        if rules.match is MatchKind.N_DEALS:
            return ngettext(
                "The match lasts {count} deal.", "The match lasts {count} deals.", n
            ).format(count=n)
        if rules.match is MatchKind.FIRST_TO:
            return _("The match ends when a player's balance reaches {target}.").format(target=n)
        return _("Play ends with the first decided deal.")
    if name == "draw_stake" and rules.draw_stake is DrawStake.CARRY:
        n = rules.base_stake
        if n == 1:
            return _(
                "A drawn deal carries its stake over: the next decided deal is worth one more "
                "unit for each draw just before it."
            )
        return ngettext(
            "A drawn deal carries its stake over: the next decided deal is worth {count} more "
            "unit for each draw just before it.",
            "A drawn deal carries its stake over: the next decided deal is worth {count} more "
            "units for each draw just before it.",
            n,
        ).format(count=n)
    if name == "base_stake":
        n = rules.base_stake
        if n == 1:
            return ""
        return ngettext(
            "A deal is worth {count} unit before any drawn deals add to it.",
            "A deal is worth {count} units before any drawn deals add to it.",
            n,
        ).format(count=n)
    if name not in FLAG_NAMES:
        raise KeyError(name)
    return _flag_words(name)[value]


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
    "layoff_on_opponent",
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


def _title(rules: Rules) -> str:
    """The first line of :func:`describe`: the players and the spec (code, not words)."""
    spec = rules.to_spec()
    return {
        # Translators: {spec} is the rules as typed (e.g. "mexican" or "standard,hand_size=6").
        2: _("Conquian for two players ({spec} rules)."),
        3: _("Conquian for three players ({spec} rules)."),
        4: _("Conquian for four players ({spec} rules)."),
    }[rules.num_players].format(spec=spec)


def rules_lines(rules: Rules, flags: bool = True) -> list[Line]:
    """Every rule of ``rules`` in plain words, then (with ``flags``) every flag with its
    value: the lines of :func:`describe`."""
    lines: list[Line] = [[Span(_title(rules))], []]
    for name in _ORDER:
        if not name:
            text = _round_words() if _many(rules) else _take_words()
        elif name == "cards_to_win" and rules.layoff_on_opponent:
            text = _win_with_layoffs(rules)
        elif name == "cards_to_win":
            win = rules.cards_to_win
            # Translators: {count} cards melded win; {hand} is one fewer (the cards dealt).
            text = ngettext(
                "You win by melding exactly {count} card, the last one being the centre card; "
                "{hand} melded and an empty hand after a discard is not out.",
                "You win by melding exactly {count} cards, the last one being the centre card; "
                "{hand} melded and an empty hand after a discard is not out.",
                win,
            ).format(count=win, hand=rules.hand_size)
        else:
            text = flag_sentence(rules, name)
        if text:
            lines.append([Span(text)])
    return [*lines, [], *flag_lines(rules)] if flags else lines


def flag_lines(rules: Rules) -> list[Line]:
    """Every flag of ``rules`` with its value, under a heading: for a player who sets up a
    game of his own (the words above say the same for one who plays)."""
    # Translators: the heading over the table of flags (flag names and values are code).
    lines: list[Line] = [[Span(_("Flags:"))]]
    width = max(len(n) for n in FLAG_NAMES if n != "layoff_on_opponent")
    # (the longest name before layoff_on_opponent: the lines of the other flags read as they
    # always did, and that one, a letter longer, stands out by a letter)
    for flag in FLAG_NAMES:
        lines.append([Span(f"  {flag.ljust(width)}  {_value(getattr(rules, flag))}")])
    return lines


def describe(rules: Rules, flags: bool = True) -> str:
    """The rules in plain words, followed (with ``flags``) by every flag (:func:`rules_lines`
    as text).

    >>> from conquian.rules import find_rules
    >>> "runs of 3 to 10 cards" in describe(find_rules("bicycle"))
    True
    >>> "Flags:" in describe(find_rules("bicycle"), flags=False)
    False
    """
    return "\n".join(plain(line) for line in rules_lines(rules, flags))


def presets_note() -> str:
    """After ``conquian rules``: the presets, and how to change a flag."""
    return _("Presets: {presets}.  Change a flag with e.g. {example}.").format(
        presets=", ".join(PRESETS), example="'standard,max_seq_len=10'"
    )


def rules_heading(rules: Rules) -> str:
    """The heading over :func:`describe` on a page about one game."""
    spec = rules.to_spec()
    if "," in spec:
        # Translators: {spec} is the rules as typed, e.g. "standard,max_seq_len=10".
        return _("Every rule of this game ({spec} rules)").format(spec=spec)
    # Translators: {spec} is the name of a preset, e.g. "standard" or "mexican".
    return _("Every rule of the {spec} game").format(spec=spec)


# ------------------------------------------------------------------ short forms


def _rank_order(rules: Rules) -> str:
    """The ranks in order as they are labelled, e.g. ``A 2 3 4 5 6 7 J Q K``."""
    return " ".join(card_label(r, rules.deck_style)[:-1] for r in range(NUM_RANKS))


def _jack(rules: Rules) -> str:
    """The label of the rank after the 7 (``J``, or ``10`` for the sota)."""
    return card_label(7, rules.deck_style)[:-1]


def _win_and_runs(rules: Rules) -> str:
    """The second sentence of :func:`help_summary`: the goal, sets and runs."""
    win = rules.cards_to_win
    capped = rules.max_seq_len < MAX_RUN
    if rules.deck_style is DeckStyle.A_TO_10:
        if capped:
            text = ngettext(
                "Win by having {count} card face up in melds on your own table: sets (3 or 4 of "
                "a rank) and runs (3 to {most} of one suit in order: {ranks}).",
                "Win by having {count} cards face up in melds on your own table: sets (3 or 4 "
                "of a rank) and runs (3 to {most} of one suit in order: {ranks}).",
                win,
            )
        else:
            text = ngettext(
                "Win by having {count} card face up in melds on your own table: sets (3 or 4 of "
                "a rank) and runs (3 or more of one suit in order: {ranks}).",
                "Win by having {count} cards face up in melds on your own table: sets (3 or 4 "
                "of a rank) and runs (3 or more of one suit in order: {ranks}).",
                win,
            )
    elif capped:
        # Translators: {ranks} are the ranks as labelled (A 2 3 4 5 6 7 J Q K); {jack} is
        # the label of the rank after the 7 (J, or 10 for the sota).
        text = ngettext(
            "Win by having {count} card face up in melds on your own table: sets (3 or 4 of a "
            "rank) and runs (3 to {most} of one suit in order: {ranks}, the 7 is next to the "
            "{jack}).",
            "Win by having {count} cards face up in melds on your own table: sets (3 or 4 of a "
            "rank) and runs (3 to {most} of one suit in order: {ranks}, the 7 is next to the "
            "{jack}).",
            win,
        )
    else:
        text = ngettext(
            "Win by having {count} card face up in melds on your own table: sets (3 or 4 of a "
            "rank) and runs (3 or more of one suit in order: {ranks}, the 7 is next to the "
            "{jack}).",
            "Win by having {count} cards face up in melds on your own table: sets (3 or 4 of a "
            "rank) and runs (3 or more of one suit in order: {ranks}, the 7 is next to the "
            "{jack}).",
            win,
        )
    return text.format(
        count=win, most=rules.max_seq_len, ranks=_rank_order(rules), jack=_jack(rules)
    )


def _help_forcing(rules: Rules) -> str:
    """The sentence of forcing in :func:`help_summary` (when forcing is on)."""
    offerer = rules.force_by is ForceBy.OFFERER
    minimal = rules.forced_take is ForcedTake.MINIMAL
    if rules.forcing is Forcing.AUTOMATIC:
        then = {
            (False, False): _("you must take it after all"),
            (True, False): _("you must take it after all, adding only that card"),
            (False, True): _(
                "you must take it after all; a card you turned yourself is never forced on you"
            ),
            (True, True): _(
                "you must take it after all, adding only that card; a card you turned yourself "
                "is never forced on you"
            ),
        }[minimal, offerer]
    elif offerer:
        then = (
            _(
                "the player who turned or paid it may force you to take it, adding only that "
                "card; a card you turned yourself is never forced on you"
            )
            if minimal
            else _(
                "the player who turned or paid it may force you to take it; a card you turned "
                "yourself is never forced on you"
            )
        )
    else:
        then = (
            _("your opponent may force you to take it, adding only that card")
            if minimal
            else _("your opponent may force you to take it")
        )
    offered_only = rules.force_scope is ForceScope.OFFERED_ONLY
    rearranged = rules.force_fit is ForceFit.WITH_REARRANGEMENT
    condition = {
        # Translators: {then}: what follows, e.g. "your opponent may force you to take it".
        (True, True): _(
            "If you decline an offered card that could fit your melds once rearranged, {then}."
        ),
        # Translators: {then}: what follows, e.g. "your opponent may force you to take it".
        (True, False): _(
            "If you decline an offered card that fits your melds as they lie, {then}."
        ),
        # Translators: {then}: what follows, e.g. "your opponent may force you to take it".
        (False, True): _("If you refuse a card that could fit your melds once rearranged, {then}."),
        # Translators: {then}: what follows, e.g. "your opponent may force you to take it".
        (False, False): _("If you refuse a card that fits your melds as they lie, {then}."),
    }[offered_only, rearranged]
    return condition.format(then=then)


def help_summary(rules: Rules) -> list[str]:
    """How to play, in three short paragraphs (the opening of the terminal's ``help``)."""
    many = _many(rules)
    hand = rules.hand_size
    rearrange = {
        RearrangeMode.FREE: _(
            "A card you take never goes into your hand: you lay it at once, with cards from "
            "your hand or onto your melds (you may rearrange your own melds)."
        ),
        RearrangeMode.FOSTER_BORROW: _(
            "A card you take never goes into your hand: you lay it at once, with cards from "
            "your hand or onto your melds (you may only borrow a card of a set into a run, or "
            "an end card of a run into a set)."
        ),
        RearrangeMode.NONE: _(
            "A card you take never goes into your hand: you lay it at once, with cards from "
            "your hand or onto your melds (your own melds may only be extended)."
        ),
    }[rules.rearrange_mode]
    first = [
        ngettext(
            "Each of you holds {count} card.", "Each of you holds {count} cards.", hand
        ).format(count=hand),
        _win_and_runs(rules),
        rearrange,
    ]
    turn: list[str] = []
    if rules.initial_upcard is InitialUpcard.OFFERED_TO_BOTH:
        turn.append(
            _("After the deal a card is turned up and offered to the non-dealer, then the dealer.")
        )
    if rules.exchange_one_card:
        turn.append(_exchange_short(rules))
    if many:
        # Translators: "pass it": let the card go on to the next player (pasar).
        turn += [_round(), _("When it is offered to you, take it or pass it."), _round_dead()]
    else:
        turn.append(
            # Translators: "decline it" refuses the card offered; "pass" the stock card you
            # turned.
            _(
                "On your turn you are offered your opponent's discard (or the stock card he "
                "passed): take it, or decline it and turn the next stock card, which you may "
                "take or pass."
            )
        )
    if rules.meld_without_take is MeldWithoutTake.BEFORE_REJECTING_STOCK_CARD:
        turn.append(_("Before passing it you may lay cards from your hand."))
    if rules.layoff_on_opponent:
        turn.append(
            _(
                "Instead of taking a card you may lay it on another player's meld that it "
                "extends, then pay a card from your hand."
            )
            if many
            else _(
                "Instead of taking a card you may lay it on one of your opponent's melds that "
                "it extends, then discard a card from your hand."
            )
        )
    if many:
        after = [_("After a take you pay (discard) one card, which goes round in the same way.")]
    else:
        after = [_("After a take you discard one card.")]
    if rules.forcing is Forcing.OFF:
        after.append(_("Nobody can be forced to take a card."))
    else:
        after.append(_help_forcing(rules))
    if rules.exhaustion is Exhaustion.FEWEST_HAND_CARDS:
        after.append(
            _("If the stock runs out, the player with the fewest cards in hand wins.")
            if many
            else _("If the stock runs out, the player with fewer cards in hand wins.")
        )
    if many and rules.scoring is Scoring.STAKE:
        after.append(_("Every other player pays the winner."))
    return [" ".join(first), " ".join(turn), " ".join(after)]


@dataclass(frozen=True, slots=True)
class Section:
    """A part of a page about the rules: a heading and its paragraphs (or steps)."""

    heading: str
    lines: tuple[Line, ...]
    steps: bool = False
    """The lines are the steps of a numbered list."""


def _players(rules: Rules) -> str:
    """The players at the table, at the start of a sentence (``Three players``)."""
    return {
        2: _("Two players"),
        3: _("Three players"),
        4: _("Four players"),
    }[rules.num_players]


def _goal(rules: Rules) -> Line:
    """The goal of :func:`how_to_play`: how many cards, sets and runs."""
    hand, win = rules.hand_size, rules.cards_to_win
    if rules.max_seq_len >= MAX_RUN:
        # Translators: **...** is shown in bold and *...* in italics (a term being
        # defined): keep the marks around the words that mean them. {ranks}: A 2 3 ... K.
        goal = ngettext(
            "Be the first to have **{count} card** face up on your own table in melds: *sets* "
            "of three or four cards of one rank, and *runs* of three or more cards of one "
            "suit in order ({ranks}; no wrap-around).",
            "Be the first to have **{count} cards** face up on your own table in melds: *sets* "
            "of three or four cards of one rank, and *runs* of three or more cards of one "
            "suit in order ({ranks}; no wrap-around).",
            win,
        )
    else:
        # Translators: **...** is shown in bold and *...* in italics (a term being
        # defined): keep the marks. {most} is a number of cards in words ("eight").
        goal = ngettext(
            "Be the first to have **{count} card** face up on your own table in melds: *sets* "
            "of three or four cards of one rank, and *runs* of three to {most} cards of one "
            "suit in order ({ranks}; no wrap-around).",
            "Be the first to have **{count} cards** face up on your own table in melds: *sets* "
            "of three or four cards of one rank, and *runs* of three to {most} cards of one "
            "suit in order ({ranks}; no wrap-around).",
            win,
        )
    line = _marked(goal, count=win, most=_number(rules.max_seq_len), ranks=_rank_order(rules))
    # Translators: {hand} and {win} are numbers of cards in words ("eight", "nine").
    make = ngettext(
        "Your {hand} hand card plus one card taken from the centre make the {win}.",
        "Your {hand} hand cards plus one card taken from the centre make the {win}.",
        hand,
    )
    return [*line, Span(" " + make.format(hand=_number(hand), win=_number(win)))]


def _page_deal(rules: Rules) -> str:
    """The first step of a turn in :func:`how_to_play`: the deal."""
    hand = rules.hand_size
    if rules.deal_packet == 2:
        deal = ngettext(
            "Each player is dealt {count} card, two at a time; the other {stock} form the "
            "stock, face down.",
            "Each player is dealt {count} cards, two at a time; the other {stock} form the "
            "stock, face down.",
            hand,
        )
    else:
        deal = ngettext(
            "Each player is dealt {count} card; the other {stock} form the stock, face down.",
            "Each player is dealt {count} cards; the other {stock} form the stock, face down.",
            hand,
        )
    words = [deal.format(count=hand, stock=rules.stock_size)]
    if rules.initial_upcard is InitialUpcard.OFFERED_TO_BOTH:
        words.append(
            _(
                "Then one card is turned up and offered to the non-dealer, then to the dealer; "
                "if both refuse it, it is dead."
            )
        )
    if rules.exchange_one_card:
        words.append(_exchange_short(rules))
    if _many(rules):
        words.append(_("The player on the dealer's right plays first."))
    else:
        words.append(_("The non-dealer plays first."))
    return " ".join(words)


def _page_forcing(rules: Rules) -> Line:
    """The forcing sentences of :func:`how_to_play` (when forcing is on)."""
    if rules.forcing is Forcing.AUTOMATIC:
        # Translators: **...** is shown in bold: keep the marks around the word "forced".
        then = _marked(_("you are **forced** to take it"))
    elif rules.force_by is ForceBy.OFFERER:
        # Translators: **...** is shown in bold: keep the marks around the word "force".
        then = _marked(_("the player who turned or paid it may **force** you to take it"))
    else:
        # Translators: **...** is shown in bold: keep the marks around the word "force".
        then = _marked(_("your opponent may **force** you to take it"))
    offered_only = rules.force_scope is ForceScope.OFFERED_ONLY
    rearranged = rules.force_fit is ForceFit.WITH_REARRANGEMENT
    condition = {
        # Translators: {then}: what follows, e.g. "your opponent may force you to take it".
        (True, True): _(
            "If you decline an offered card that could fit your melds once they are "
            "rearranged, {then}."
        ),
        # Translators: {then}: what follows, e.g. "your opponent may force you to take it".
        (True, False): _("If you decline an offered card that fits your melds, {then}."),
        # Translators: {then}: what follows, e.g. "your opponent may force you to take it".
        (False, True): _(
            "If you refuse a card that could fit your melds once they are rearranged, {then}."
        ),
        # Translators: {then}: what follows, e.g. "your opponent may force you to take it".
        (False, False): _("If you refuse a card that fits your melds, {then}."),
    }[offered_only, rearranged]
    line = fill(condition, then=then)
    if rules.force_by is ForceBy.OFFERER:
        line.append(Span(" " + _("But a card you turned yourself is never forced on you.")))
    if rules.forced_take is ForcedTake.MINIMAL:
        line.append(Span(" " + _("You then only add that card to your table.")))
    return line


def _page_layoff(rules: Rules) -> str:
    """The layoff in :func:`how_to_play` (``layoff_on_opponent``), with its ``**`` marks."""
    if _many(rules):
        # Translators: **...** is shown in bold: keep the marks around the word "lay"; a
        # layoff puts the centre card on another player's meld (layoff_on_opponent)
        return _(
            "Instead of taking a card you may **lay** it on another player's meld that it "
            "extends; it stays on his table, and you pay a card as after a take (you never go "
            "out so)."
        )
    # Translators: **...** is shown in bold: keep the marks around the word "lay"
    return _(
        "Instead of taking a card you may **lay** it on one of your opponent's melds that it "
        "extends; it stays on his table, and you discard a card as after a take (you never go "
        "out so)."
    )


def _page_out(rules: Rules) -> str:
    """The last step of a turn in :func:`how_to_play`: the stock runs out."""
    drawn = {
        # Translators: {drawn} in "If the stock runs out before anyone goes out, {drawn}."
        DrawStake.CARRY: _("the deal is drawn and the stake carries over to the next deal"),
        # Translators: {drawn} in "If the stock runs out before anyone goes out, {drawn}."
        DrawStake.NONE: _("the deal is drawn"),
        # Translators: {drawn} in "If the stock runs out before anyone goes out, {drawn}."
        DrawStake.DOUBLE_NEXT: _("the deal is drawn and the next decided deal is worth double"),
        # Translators: {drawn} in "If the stock runs out before anyone goes out, {drawn}."
        DrawStake.DOUBLE_COMPOUND: _(
            "the deal is drawn and each drawn deal doubles the value of the next decided deal"
        ),
    }[rules.draw_stake]
    if rules.exhaustion is Exhaustion.FEWEST_HAND_CARDS and _many(rules):
        # Translators: {drawn} is e.g. "the deal is drawn and the stake carries over ...".
        out = _(
            "If the stock runs out before anyone goes out, the player with the fewest cards in "
            "hand wins the deal; if several tie for fewest {drawn}."
        )
    elif rules.exhaustion is Exhaustion.FEWEST_HAND_CARDS:
        # Translators: {drawn} is e.g. "the deal is drawn and the stake carries over ...".
        out = _(
            "If the stock runs out before anyone goes out, the player with fewer cards in hand "
            "wins the deal; with equal hands {drawn}."
        )
    else:
        # Translators: {drawn} is e.g. "the deal is drawn and the stake carries over ...".
        out = _("If the stock runs out before anyone goes out, {drawn}.")
    return out.format(drawn=drawn)


def how_to_play(rules: Rules) -> list[Section]:
    """How to play, for a page (the browser's rules page opens with it): the cards, the
    goal and a turn, from ``rules``.  Terms defined are in :data:`EM`, key words in bold."""
    many = _many(rules)
    if rules.deck_style is DeckStyle.A_TO_10:
        # Translators: {players} is e.g. "Three players".
        deck = [_("{players}, a 40-card deck: ace to 10 in four suits, in that order.")]
    else:
        deck = [
            # Translators: {players} is e.g. "Three players". The Spanish names of the ranks
            # and suits (sota, caballo, rey, oros, copas, espadas, bastos) are card names.
            _(
                "{players}, a 40-card deck: ace to 7, then jack, queen and king, in four suits "
                "(the Spanish deck: 1 to 7, sota, caballo and rey of oros, copas, espadas and "
                "bastos)."
            ),
            _("The 7 and the jack are next to each other."),
        ]
    if many:
        deck.append(_("Play passes to the player on your right."))
    deck[0] = deck[0].format(players=_players(rules))
    deck_line = [Span(" ".join(deck))]
    upcard = rules.initial_upcard is InitialUpcard.OFFERED_TO_BOTH
    if many:
        offered = _marked(
            # Translators: **...** is shown in bold: keep the marks around the words that
            # mean them ("offered", and the commands "take" and "decline"). "paid":
            # discarded.
            _(
                "If a card is **offered** to you (a card another player paid, or a stock card "
                "he turned and passed), **take** it or **decline** it."
            )
        )
        offered.append(Span(" " + _round()))
        # Translators: **...** is shown in bold: keep the marks around the words that mean
        # them (the commands "take" and "pass").
        when = _(
            "When nobody takes a card that the player on your left turned or paid (and on the "
            "very first turn, if you sit on the dealer's right), you turn the top card of the "
            "stock: **take** it or **pass** it."
        )
    else:
        offered = _marked(
            # Translators: **...** is shown in bold: keep the marks around the words that
            # mean them ("offered", and the commands "take" and "decline").
            _(
                "If a card is **offered** to you (your opponent's discard, or a stock card he "
                "turned and passed), **take** it or **decline** it."
            )
        )
        if upcard:
            # Translators: **...** is shown in bold: keep the marks around the words that
            # mean them (the commands "take" and "pass").
            when = _(
                "After declining you turn the top card of the stock: **take** it or **pass** it."
            )
        else:
            # Translators: **...** is shown in bold: keep the marks around the words that
            # mean them (the commands "take" and "pass").
            when = _(
                "After declining (and on the very first turn) you turn the top card of the "
                "stock: **take** it or **pass** it."
            )
    turned = _marked(when)
    passed = (
        _("A passed card is offered to each other player in turn.")
        if many
        else _("A passed card is offered to your opponent.")
    )
    turned.append(Span(" " + passed))
    if rules.meld_without_take is MeldWithoutTake.BEFORE_REJECTING_STOCK_CARD:
        turned.append(
            Span(" " + _("Before passing it you may lay cards from your hand on your table."))
        )
    rearrange = {
        RearrangeMode.FREE: _(
            "To take a card you meld it at once, with cards from your hand or onto your melds; "
            "you may rearrange your own melds while you do."
        ),
        RearrangeMode.FOSTER_BORROW: _(
            "To take a card you meld it at once, with cards from your hand or onto your melds; "
            "you may borrow one card of a set into a run, or an end card of a run into a set, "
            "while you do (melds are never split or merged)."
        ),
        RearrangeMode.NONE: _(
            "To take a card you meld it at once, with cards from your hand or onto your melds; "
            "your melds may only be extended, never rearranged."
        ),
    }[rules.rearrange_mode]
    if many:
        # Translators: **...** is shown in bold: keep the marks around the word "discard"
        # (the command); "pay" is the Mexican word for it (pagar).
        discard = _(
            "After a take you **discard** (pay) a card, which goes round the other players, "
            "starting with the player on your right."
        )
    else:
        # Translators: **...** is shown in bold: keep the marks around the word "discard".
        discard = _("After a take you **discard** a card, which is offered to your opponent.")
    take = [
        Span(" ".join((rearrange, _("A taken card never goes into your hand."), ""))),
        *_marked(discard),
    ]
    if rules.layoff_on_opponent:
        take += [Span(" "), *_marked(_page_layoff(rules))]
    refused: Line = [
        Span(
            _("A card that nobody takes goes to the dead pile for good.")
            if many
            else _("A refused card goes to the dead pile for good.")
        ),
        Span(" "),
    ]
    if rules.forcing is Forcing.OFF:
        refused.append(Span(_("Nobody can be forced to take a card.")))
    else:
        refused += _page_forcing(rules)
    # Translators: a heading of the rules page: what a player tries to do.
    goal_heading = _("Goal")
    # Translators: a heading of the rules page, over the steps of one turn of play.
    turn_heading = _("A turn")
    return [
        Section("", (deck_line,)),
        Section(goal_heading, (_goal(rules),)),
        Section(
            turn_heading,
            ([Span(_page_deal(rules))], offered, turned, take, refused, [Span(_page_out(rules))]),
            steps=True,
        ),
    ]
