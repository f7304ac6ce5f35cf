"""Why a bot chose its move, in words: the :class:`~conquian.reasons.Reason` a bot
gives as data, written in the language in use and with the cards as the screen shows them.

A hint (the search's reason) says the move, why in plain terms, and the second-best
move with how much less likely to win it is:

>>> from conquian.actions import Action
>>> from conquian.cards import parse_cards_mask
>>> from conquian.reasons import Reason
>>> from conquian.present.spans import plain
>>> plain(reason_words(Reason("needs_least", card=19), CardLook()))
'Kh is the card it needs least and gives away least'
>>> plain(reason_words(Reason("external", text="searched 4000 deals"), CardLook()))
'searched 4000 deals'
>>> line = reason_words(Reason("searched", card=16, action=Action.parse("take 5h6h7h"),
...     because="completes", meld=parse_cards_mask("5h 6h 7h"), to_go=8,
...     second=Action.parse("decline"), drop=0.12), CardLook(symbols=True))
>>> plain(line)
'Take: it completes 5♥ 6♥ 7♥ and leaves you 8 cards from going out. Second best: decline, 12 points less likely to win.'

The words are a line of spans, each card a span that carries it (:class:`~.spans.Span`):

>>> [span.card for span in line if span.card is not None]
[14, 15, 16]
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, ActionKind
from ..melds import partition_mask
from ..reasons import Reason
from .i18n import GAME_WORDS, SOURCE_LANGUAGE, current_language, fill, speaking
from .spans import CardLook, Line, Span, card_span, cards_spans
from .words import action_spans, command

__all__ = ["candidate_line", "feed_words", "hint_heading", "reason_words"]

_ = GAME_WORDS.gettext
ngettext = GAME_WORDS.ngettext


def _messages() -> dict[str, str]:
    """The sentence of each kind of reason (``{card}``: the card it is about)."""
    return {
        "only_legal": _("the only legal action"),
        "only_worth": _("the only action worth playing"),
        "random": _("a random choice"),
        "greedy_force": _("it forces whenever it can"),
        "greedy_take": _("it takes whenever the card melds, laying as much as it can"),
        "greedy_discard": _("it discards its most isolated card"),
        "no_meld": _("the card does not meld"),
        "take_goes_out": _("taking {card} goes out"),
        "take_best": _("taking {card} melds it and leaves the strongest hand"),
        "lay_then_pass": _("it lays cards from its hand before passing"),
        # Translators: a bot's reason: it lays the centre card on another player's meld
        # (layoff_on_opponent), so it pays (discards) a card without taking one
        "layoff_best": _(
            "laying {card} on another player's meld lets it pay a card it needs least"
        ),
        "not_worth_taking": _("{card} does not meld, or taking it would cost more than it gains"),
        "all_fit_others": _("every card fits another player's table; this one costs least"),
        "needs_least": _("{card} is the card it needs least and gives away least"),
        "force_lets_out": _("forcing would let the opponent go out"),
        "wants_card": _("it wants {card} for itself"),
        "opponent_close": _("the opponent is close to going out"),
        "force_breaks_hand": _("forcing makes the opponent break up his hand"),
    }


def reason_words(reason: Reason | None, look: CardLook, names: Sequence[str] = ()) -> Line:
    """The reason in a sentence (none for none); an external bot's own words as it sent them.
    ``names`` are the players' names, for a danger that names whom a card helps."""
    if reason is None:
        return []
    if reason.key == "external":
        return [Span(reason.text)]
    card: Line = [card_span(look, reason.card)] if reason.card >= 0 else []
    if reason.because and reason.action is not None:
        plain_words = _plain(reason, reason.action, look)
        if plain_words is not None:
            second = reason.second
            if second is not None and reason.second_breaks and reason.feeds_card != second.card:
                broken = reason.second_breaks & ~(1 << second.card)
                plain_words = [
                    *plain_words,
                    Span(" "),
                    # Translators: a hint: why not the second-best discard {card}: it goes with
                    # {cards} of the player's hand (a pair, the start of a set or a run)
                    *fill(
                        _("{card} goes with your {cards}."),
                        card=card_span(look, second.card),
                        cards=_cards(broken, look),
                    ),
                ]
            if reason.feeds >= 0 and reason.feeds_card >= 0:
                name = _name(names, reason.feeds)
                danger = feed_words(
                    reason.feeds_card, name, reason.feeds_meld, reason.feeds_count, look
                )
                if reason.feeds_card == reason.action.card:  # the move advised gives it
                    # Translators: a hint's caution before the danger of the move it advises,
                    # e.g. "Even so: A♠ fits Memo's A♥ A♦ A♣ and he holds 3 cards: ..."
                    danger = fill(_("Even so: {danger}"), danger=danger)
                return [*plain_words, Span(" "), *danger]
            return plain_words
    if reason.key == "searched" and reason.action is not None:
        action = _localized(reason.action, look)
        score = f"{reason.mean:+.2f}"
        if reason.card >= 0:
            return fill(
                _("{action} scored {score} over {deals} sampled deals with {card} in the centre"),
                action=action,
                score=score,
                deals=reason.deals,
                card=card,
            )
        return fill(
            _("{action} scored {score} over {deals} sampled deals"),
            action=action,
            score=score,
            deals=reason.deals,
        )
    template = _messages().get(reason.key)
    if template is None:
        return [Span(reason.code)]
    return fill(template, card=card)


def _name(names: Sequence[str], player: int) -> str:
    """A player's name, or "player N" when the names are not known."""
    if 0 <= player < len(names) and names[player]:
        return names[player]
    # Translators: a player named by his seat number, when his name is not known
    return _("player {number}").format(number=player)


def feed_words(card: int, name: str, meld: int, count: int, look: CardLook) -> Line:
    """The danger of giving away ``card``: it fits ``name``'s ``meld`` and he holds
    ``count`` cards.

    >>> from conquian.cards import parse_cards_mask
    >>> from conquian.present.spans import plain
    >>> look = CardLook(symbols=True)
    >>> print(plain(feed_words(6, "Memo", parse_cards_mask("4s 5s 6s"), 2, look)))
    7♠ fits Memo's 4♠ 5♠ 6♠ and he holds 2 cards: he may go out with it.
    >>> print(plain(feed_words(6, "Memo", parse_cards_mask("4s 5s 6s"), 0, look)))
    7♠ fits Memo's 4♠ 5♠ 6♠ and his hand is empty: he goes out with it.
    """
    if count == 0:
        template = _(
            # Translators: a hint's danger: {card} fits {name}'s meld {meld}; he has no card left
            "{card} fits {name}'s {meld} and his hand is empty: he goes out with it."
        )
    elif count <= 4:
        template = ngettext(
            # Translators: a hint's danger: {card} fits {name}'s meld {meld}, and he holds so
            # few cards that they may all be melds he has not shown
            "{card} fits {name}'s {meld} and he holds {count} card: he may go out with it.",
            "{card} fits {name}'s {meld} and he holds {count} cards: he may go out with it.",
            count,
        )
    else:
        template = ngettext(
            # Translators: a hint's danger: {card} fits {name}'s meld {meld}; he takes it
            "{card} fits {name}'s {meld}: he takes it ({count} card left in his hand).",
            "{card} fits {name}'s {meld}: he takes it ({count} cards left in his hand).",
            count,
        )
    return fill(
        template, card=card_span(look, card), name=name, meld=_cards(meld, look), count=count
    )


def _localized(action: Action, look: CardLook) -> Line:
    """An action written with the commands in use (``toma 5h5d5c``), its cards as typed."""
    line = action_spans(action, look)
    word, _rest = f"{action} ".split(" ", 1)
    name = {"noforce": "no"}.get(word, word)
    return [Span(line[0].text.replace(word, command(name), 1)), *line[1:]]


def _cards(mask: int, look: CardLook) -> Line:
    return cards_spans(look, mask)


def _move(action: Action, look: CardLook) -> Line:
    """A move as the player types it, without the table: ``take``, ``discard K♥``,
    ``no (do not force)``."""
    kind = action.kind
    if kind is ActionKind.TAKE:
        return [Span(command("take"))]
    if kind is ActionKind.PASS:
        return [Span(command("pass"))]
    if kind is ActionKind.LAYOFF:
        return [Span(command("layoff"))]
    if kind in (ActionKind.DISCARD, ActionKind.EXCHANGE):
        word = command("discard" if kind is ActionKind.DISCARD else "exchange")
        return [Span(f"{word} "), card_span(look, action.card)]
    if kind is ActionKind.NO_FORCE:
        return [Span(command("no") + _(" (do not force)"))]
    return _localized(action, look)


def _capital(line: Line) -> Line:
    """The line with its first letter in capitals."""
    if not line:
        return line
    first = line[0]
    return [first._replace(text=first.text[:1].upper() + first.text[1:]), *line[1:]]


def _because(reason: Reason) -> str | None:
    """The template of the first sentence, the move and why (None: no words for it)."""
    sentences = {
        # Translators: a hint: {move} is the command (Take), {meld} the cards of the meld
        "goes_out": lambda: _("{move}: it completes {meld} and you go out."),
        "completes": lambda: ngettext(
            "{move}: it completes {meld} and leaves you {count} card from going out.",
            "{move}: it completes {meld} and leaves you {count} cards from going out.",
            max(0, reason.to_go),
        ),
        "lays": lambda: ngettext(
            "{move}: lay {meld} from your hand first; {count} card from going out.",
            "{move}: lay {meld} from your hand first; {count} cards from going out.",
            max(0, reason.to_go),
        ),
        # Translators: a hint to lay the centre card {card} on another player's meld, which
        # becomes {meld}; then one pays (discards) a hand card
        "lays_off": lambda: _(
            "{move}: put {card} on another player's meld (making {meld}) and pay a card."
        ),
        # Translators: a hint to decline or pass the centre card {card}
        "fits_nothing": lambda: _("{move}: {card} fits nothing of yours."),
        "waits": lambda: _("{move}: taking {card} helps you less than the cards still to come."),
        # Translators: a hint: {move} is the command with the card, e.g. "Discard K♥"
        "needs_least": lambda: _("{move}: it is the card you need least."),
        "all_fit_others": lambda: _(
            "{move}: every card of yours fits another player's table, and this one helps least."
        ),
        "force_breaks_hand": lambda: _("{move}: taking {card} makes him break up his hand."),
        "force_lets_out": lambda: _("{move}: with {card} he would go out."),
        "opponent_close": lambda: _("{move}: he is close to going out; forcing helps him."),
        "wants_card": lambda: _("{move}: you want {card} for yourself."),
        "no_gain": lambda: _("{move}: forcing would help him more than it hurts him."),
    }
    sentence = sentences.get(reason.because)
    return None if sentence is None else sentence()


def _second(reason: Reason) -> tuple[str, str]:
    """The templates of the second sentence (the second-best move and how much less likely
    to win it is) and of a take named by its cards; "" for none."""
    if reason.second is None:
        return "", ""
    # Translators: a take named by the cards it lays from the hand with the centre card
    take_with = _("{take} with {cards}")
    if round(100 * reason.drop) <= 0:
        return _("Second best: {move}, about as likely to win."), take_with
    return ngettext(
        # Translators: {points} points of winning chance (percentage points)
        "Second best: {move}, {points} point less likely to win.",
        "Second best: {move}, {points} points less likely to win.",
        round(100 * reason.drop),
    ), take_with


def _same_cards(first: Action, second: Action) -> bool:
    """Whether two takes lay the same cards (their tables hold the same cards)."""
    return first.kind is second.kind and partition_mask(first.melds) == partition_mask(second.melds)


def _plain(reason: Reason, action: Action, look: CardLook) -> Line | None:
    """A hint in plain words: the move and why, then the second-best move.  None when there
    are no such words for it, or the language in use has not translated them yet (the
    earlier words, which it has, are said instead of English ones)."""
    first = _because(reason)
    if first is None:
        return None
    second, take_with = _second(reason)
    if current_language() != SOURCE_LANGUAGE:
        with speaking(SOURCE_LANGUAGE):
            english = (_because(reason), *_second(reason))
        if any(t and t == e for t, e in zip((first, second, take_with), english, strict=True)):
            return None
    card: Line = [card_span(look, reason.card)] if reason.card >= 0 else []
    words = fill(
        first,
        move=_capital(_move(action, look)),
        meld=_cards(reason.meld, look),
        count=max(0, reason.to_go),
        card=card,
    )
    if reason.second is None:
        return words
    move = _move(reason.second, look)
    if reason.second.kind is ActionKind.TAKE:
        if reason.second_laid and not _same_cards(action, reason.second):
            move = fill(take_with, take=move, cards=_cards(reason.second_laid, look))
        else:  # the same cards laid another way: its melds say how
            move = _localized(reason.second, look)
    return [
        *words,
        Span(" "),
        *fill(second, move=move, points=round(100 * reason.drop)),
    ]


def hint_heading(player: int, samples: int) -> Line:
    """The first line of ``conquian hint``.

    >>> from conquian.present.spans import plain
    >>> plain(hint_heading(0, 200))
    'Hint for player 0, from 200 sampled deals of the cards he cannot see:'
    """
    return fill(
        ngettext(
            "Hint for player {player}, from {samples} sampled deal of the cards he cannot see:",
            "Hint for player {player}, from {samples} sampled deals of the cards he cannot see:",
            samples,
        ),
        player=player,
        samples=samples,
    )


def candidate_line(move: Line, chance: float, close: bool) -> Line:
    """One move the coach weighed and its winning chance; ``close``: within the estimate's
    noise of the best.

    >>> from conquian.present.spans import plain
    >>> plain(candidate_line([Span("discard 5c")], 0.714, False))
    '  discard 5c: 71% to win'
    >>> plain(candidate_line([Span("discard As")], 0.70, True))
    '  discard As: 70% to win (about as good as the best)'
    """
    percent = round(100 * chance)
    if close:
        # Translators: a move weighed by a hint and its winning chance, e.g. "discard 5c: 71%
        # to win"; it is within the estimate's noise of the best move
        template = _("{move}: {percent}% to win (about as good as the best)")
    else:
        # Translators: a move weighed by a hint and its winning chance, e.g. "discard 5c: 71% to win"
        template = _("{move}: {percent}% to win")
    return [Span("  "), *fill(template, move=move, percent=percent)]
