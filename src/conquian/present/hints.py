"""Why a bot chose its move, in words: the :class:`~conquian.reasons.Reason` a bot
gives as data, written in the language in use and with the cards as the screen shows them.

>>> from conquian.reasons import Reason
>>> reason_words(Reason("needs_least", card=19), CardLook())
'Kh is the card it needs least and gives away least'
>>> reason_words(Reason("external", text="searched 4000 deals"), CardLook())
'searched 4000 deals'
"""

from __future__ import annotations

from ..reasons import Reason
from .i18n import GAME_WORDS
from .spans import CardLook
from .words import action_text

__all__ = ["reason_words"]

_ = GAME_WORDS.gettext


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
        "not_worth_taking": _("{card} does not meld, or taking it would cost more than it gains"),
        "all_fit_others": _("every card fits another player's table; this one costs least"),
        "needs_least": _("{card} is the card it needs least and gives away least"),
        "force_lets_out": _("forcing would let the opponent go out"),
        "wants_card": _("it wants {card} for itself"),
        "opponent_close": _("the opponent is close to going out"),
        "force_breaks_hand": _("forcing makes the opponent break up his hand"),
    }


def reason_words(reason: Reason | None, look: CardLook) -> str:
    """The reason in a sentence ("" for none); an external bot's own words as it sent them."""
    if reason is None:
        return ""
    if reason.key == "external":
        return reason.text
    card = look.text(reason.card) if reason.card >= 0 else ""
    if reason.key == "searched" and reason.action is not None:
        action = action_text(reason.action, look)
        score = f"{reason.mean:+.2f}"
        if reason.card >= 0:
            return _(
                "{action} scored {score} over {deals} sampled deals with {card} in the centre"
            ).format(action=action, score=score, deals=reason.deals, card=card)
        return _("{action} scored {score} over {deals} sampled deals").format(
            action=action, score=score, deals=reason.deals
        )
    template = _messages().get(reason.key)
    if template is None:
        return reason.code
    return template.format(card=card)
