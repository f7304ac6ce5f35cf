"""The words of the guided first hand (*Aprende a jugar*): what the lesson says before each
of the learner's moves, when he tries another move, and at its start and end.

Each step is named by its topic (the lesson's deal and moves are
:mod:`conquian.bots.lesson`'s); the cards a step names are read from the learner's
observation and the move the lesson wants, so each front end draws them its own way.

>>> from conquian.actions import Action
>>> from conquian.present.spans import CardLook, plain
>>> from conquian.bots.lesson import lesson_game, expected_action
>>> game = lesson_game()
>>> step = lesson_step("exchange", game.observation(0), expected_action(game), "Bot", CardLook())
>>> plain(step)[:40]
'First, the exchange: each player passes '
>>> plain(step)[-41:]
'Pass 6c: it goes with none of your cards.'
"""

from __future__ import annotations

from ..actions import Action, ActionKind
from ..cards import NUM_RANKS, mask_indices
from ..melds import MeldKind, meld_kind, partition_mask
from ..observation import Observation
from .i18n import GAME_WORDS, Part, fill
from .spans import GOOD, CardLook, Line, card_span, cards_spans

__all__ = ["LESSON_TOPICS", "lesson_end", "lesson_intro", "lesson_refusal", "lesson_step"]

_ = GAME_WORDS.gettext
pgettext = GAME_WORDS.pgettext

LESSON_TOPICS = (
    "exchange",
    "take_turned",
    "pay",
    "decline",
    "pass",
    "force",
    "take_paid",
    "pay_again",
    "go_out",
)
"""What the lesson teaches, one learner's move each, in the order they come."""


def lesson_intro(cards_to_win: int) -> list[Line]:
    """The lesson's opening words: what it is and what wins."""
    return [
        fill(
            _(
                "Learn to play: one hand against the computer, step by step. Do what each "
                "step says; the computer plays its part."
            ),
            GOOD,
        ),
        fill(
            _(
                "You win by laying down {count} cards in melds: sets (three or four cards of "
                "one rank) and runs (three or more cards in a row of one suit; the 10 comes "
                "right after the 7). A card you take is laid down at once: it never goes into "
                "your hand."
            ),
            count=cards_to_win,
        ),
    ]


def _hand_cards(obs: Observation, action: Action) -> int:
    """The hand cards a take lays down with the centre card."""
    return (
        partition_mask(action.melds) & ~partition_mask(obs.tables[obs.viewer]) & ~(1 << obs.centre)
    )


def _goes_with(card: int, hand: int) -> int:
    """The hand cards next to ``card``: of its rank, or of its suit one rank away."""
    rank, suit = card % NUM_RANKS, card // NUM_RANKS
    near = 0
    for other in mask_indices(hand & ~(1 << card)):
        same_rank = other % NUM_RANKS == rank
        if same_rank or (other // NUM_RANKS == suit and abs(other % NUM_RANKS - rank) == 1):
            near |= 1 << other
    return near


def _meld_of(action: Action, card: int) -> int:
    return next(m for m in action.melds if m >> card & 1)


def _is_set(meld: int) -> bool:
    return meld_kind(meld) is MeldKind.SET


def lesson_step(
    topic: str, obs: Observation, action: Action, computer: str, look: CardLook
) -> Line:
    """What the lesson says before the learner's move ``action`` on ``topic``.

    ``computer`` is the other player's name as the learner reads it.
    """
    centre: Part = card_span(look, obs.centre) if obs.centre >= 0 else ""
    if topic == "exchange":
        return fill(
            _(
                "First, the exchange: each player passes one card face down to the player on "
                "his right, and gets one from the player on his left. Pass {card}: it goes "
                "with none of your cards."
            ),
            card=card_span(look, action.card),
        )
    if topic in ("take_turned", "take_paid", "go_out"):
        hand = _hand_cards(obs, action)
        cards = cards_spans(look, hand)
        made_set = _is_set(_meld_of(action, obs.centre))
        if topic == "take_turned":
            received = card_span(look, obs.received)
            near = cards_spans(look, _goes_with(obs.received, obs.hand_mask))
            sentence = (
                _(
                    "{name} passed you {received} in the exchange: it goes with your {near}. "
                    "You turned {card} from the stock: with your {cards} it makes a set. Take "
                    "it: a card you take is laid down at once, with the cards it goes with."
                )
                if made_set
                else _(
                    "{name} passed you {received} in the exchange: it goes with your {near}. "
                    "You turned {card} from the stock: with your {cards} it makes a run. Take "
                    "it: a card you take is laid down at once, with the cards it goes with."
                )
            )
            return fill(
                sentence, received=received, near=near, card=centre, cards=cards, name=computer
            )
        if topic == "take_paid":
            return fill(
                _(
                    "{name} had to lay it down and pay a card: {card}. A paid card is offered "
                    "to the others in turn, and it goes with your {cards}: take it."
                ),
                card=centre,
                cards=cards,
                name=computer,
            )
        return fill(
            _(
                "{name} turned {card} and passed it. With your {cards} it makes a run, and "
                "then all your cards are down: take it and you win."
            ),
            card=centre,
            cards=cards,
            name=computer,
        )
    if topic == "pay":
        return fill(
            _(
                "After every take you pay: you throw one card from your hand, face up, and it "
                "is offered to the others. Pay {card}: it goes with none of your cards."
            ),
            card=card_span(look, action.card),
        )
    if topic == "pay_again":
        kept = obs.hand_mask & ~(1 << action.card)
        return fill(
            _("Pay again after your take. Pay {card} and keep {cards}: they wait for one card."),
            card=card_span(look, action.card),
            cards=cards_spans(look, kept),
        )
    if topic == "decline":
        return fill(
            _(
                "{name} paid {card}. It goes with none of your cards: let it go. A card nobody "
                "takes is dead, face down and out of the game."
            ),
            name=computer,
            card=centre,
        )
    if topic == "pass":
        return fill(
            _(
                "Your turn: you turned {card} from the stock. It goes with none of your "
                "cards: pass it, and it is offered to {name}."
            ),
            name=computer,
            card=centre,
        )
    if topic == "force":
        return fill(
            _(
                "{name} did not want {card}, but it fits one of its melds. You turned it, so "
                "you may force it: it must lay it down and pay a card from its hand. Force it."
            ),
            name=computer,
            card=centre,
        )
    raise ValueError(f"No lesson step is about {topic!r}.")


def lesson_refusal(topic: str, action: Action, obs: Observation, look: CardLook) -> Line:
    """What the lesson says when the learner tries another move than ``action``."""
    centre: Part = card_span(look, obs.centre) if obs.centre >= 0 else ""
    if action.kind is ActionKind.EXCHANGE:
        return fill(
            _("Not this one: the lesson asks you to pass {card}."),
            card=card_span(look, action.card),
        )
    if action.kind is ActionKind.DISCARD:
        return fill(
            _("Not this one: the lesson asks you to pay {card}."), card=card_span(look, action.card)
        )
    if action.kind is ActionKind.TAKE:
        return fill(_("Not now: the lesson asks you to take {card}."), card=centre)
    if action.kind is ActionKind.FORCE:
        return fill(_("Not now: the lesson asks you to force it."))
    return fill(_("Not now: the lesson asks you to let {card} go."), card=centre)


def lesson_end(cards_to_win: int) -> list[Line]:
    """The lesson's last words."""
    return [
        fill(_("You won! You laid down {count} cards."), GOOD, count=cards_to_win),
        fill(
            _(
                "Now you know how to exchange, take, pay, pass, force and go out. Play a real "
                "game now: against the computer, or with friends."
            )
        ),
    ]
