"""Hints in plain words: the move, why, and the second-best move with its cost."""

from __future__ import annotations

import random

import pytest

from conquian.actions import Action, ActionKind
from conquian.bots import make_bot
from conquian.bots.base import Budget
from conquian.bots.heuristic import HeuristicBot
from conquian.bots.search import SearchBot
from conquian.cards import Card, DeckStyle, mask_indices, parse_cards_mask
from conquian.game import Game
from conquian.melds import partition_mask
from conquian.notation import parse_position
from conquian.observation import Observation, observe
from conquian.present.hints import reason_words as reason_line
from conquian.present.i18n import LANGUAGES, speaking
from conquian.present.spans import CardLook, plain
from conquian.present.words import command
from conquian.reasons import Reason

LOOK = CardLook(symbols=True)

# Player 0 holds 5h 6h and is offered the 7h: taking it makes 5h 6h 7h.
OBVIOUS_TAKE = "standard offer 0 1 5h6hKsQdJc2c3d4s7dAc * - - 7h:d - * 1"


def reason_words(reason: Reason | None, look: CardLook) -> str:
    """The reason's words as text (a line's spans joined)."""
    return plain(reason_line(reason, look))


def hint(position: str, seed: int = 1) -> tuple[Action, Reason, Observation]:
    obs = observe(parse_position(position), 0)
    bot = SearchBot(rng=random.Random(seed), budget=Budget(iterations=120))
    action = bot.act(obs)
    assert bot.why is not None
    return action, bot.why, obs


def test_an_obvious_take_names_the_meld_and_the_second_best() -> None:
    action, why, obs = hint(OBVIOUS_TAKE)
    assert action == Action.parse("take 5h6h7h")
    assert why.meld == parse_cards_mask("5h 6h 7h")
    assert why.to_go == obs.rules.cards_to_win - 3
    assert why.second == Action.parse("decline") and 0.0 <= why.drop <= 1.0
    words = reason_words(why, LOOK)
    first, second = words.split(". ", 1)
    assert first == f"Take: it completes 5♥ 6♥ 7♥ and leaves you {why.to_go} cards from going out"
    points = round(100 * why.drop)
    if points:
        assert second == f"Second best: decline, {points} points less likely to win."
    else:
        assert second == "Second best: decline, about as likely to win."
    # the search's code for the protocol and logs is what it was
    assert why.code.startswith("searched take 5h6h7h; ")


def test_the_cards_are_written_in_the_deck_shown() -> None:
    _, why, _ = hint(OBVIOUS_TAKE)
    assert "5h 6h 7h" in reason_words(why, CardLook())
    assert "5c 6c 7c" in reason_words(why, CardLook(deck=DeckStyle.SPANISH))  # copas


def test_a_card_that_fits_nothing_is_declined_in_words() -> None:
    action, why, _ = hint("standard offer 0 1 5h6hKsQdJc2c3d4s7dAc * - - Kh:d - * 1")
    assert action.kind is ActionKind.DECLINE
    assert reason_words(why, LOOK) == "Decline: K♥ fits nothing of yours."


def test_the_second_best_take_is_named_by_its_cards() -> None:
    reason = Reason(
        "searched",
        card=Card.parse("5s").index,
        action=Action.parse("decline"),
        because="waits",
        second=Action.parse("take 4s5s6s"),
        second_laid=parse_cards_mask("4s 6s"),
        drop=0.01,
    )
    assert reason_words(reason, LOOK) == (
        "Decline: taking 5♠ helps you less than the cards still to come. "
        "Second best: take with 4♠ 6♠, 1 point less likely to win."
    )


def test_two_takes_of_the_same_meld_are_told_apart_by_what_else_they_lay() -> None:
    # the best lays As Ac with the centre card; the second best lays the three kings too
    reason = Reason(
        "searched",
        card=Card.parse("Ad").index,
        action=Action.parse("take AsAdAc"),
        because="completes",
        meld=parse_cards_mask("As Ad Ac"),
        to_go=8,
        second=Action.parse("take AsAdAc/KsKhKd"),
        second_laid=parse_cards_mask("As Ac Ks Kh Kd"),
        drop=0.01,
    )
    assert reason_words(reason, LOOK) == (
        "Take: it completes A♠ A♦ A♣ and leaves you 8 cards from going out. "
        "Second best: take with A♠ K♠ K♥ K♦ A♣, 1 point less likely to win."
    )
    # the same cards laid in other melds: the melds are named
    other = reason._replace(
        action=Action.parse("take 2h3h4h5h6h7h"),
        meld=parse_cards_mask("2h 3h 4h 5h 6h 7h"),
        second=Action.parse("take 2h3h4h/5h6h7h"),
        second_laid=parse_cards_mask("2h 3h 4h 5h 6h"),
        card=Card.parse("7h").index,
    )
    words = reason_words(other, LOOK)
    assert words.endswith("Second best: take 2h3h4h/5h6h7h, 1 point less likely to win."), words


def test_the_search_names_the_cards_its_second_best_take_lays() -> None:
    # Ad passed to a hand with As Ac and four kings: every way to take it makes As Ad Ac,
    # and they differ in the kings they lay besides
    action, why, obs = hint("standard offer 0 1 As3s7sKsKhKdAc2cJcKc * - - Ad:d - * 1")
    assert action.kind is ActionKind.TAKE and why.meld == parse_cards_mask("As Ad Ac")
    second = why.second
    assert second is not None and second.kind is ActionKind.TAKE
    assert why.second_laid == partition_mask(second.melds) & obs.hand_mask
    assert partition_mask(second.melds) != partition_mask(action.melds)
    cards = " ".join(LOOK.text(c) for c in mask_indices(why.second_laid))
    assert f"Second best: take with {cards}, " in reason_words(why, LOOK)


def explained_positions() -> list[tuple[Observation, Action, Reason]]:
    """Every legal action of every decision of a few bot games, each explained."""
    found = []
    explainer = HeuristicBot(rng=random.Random(0))
    for rules, seed in (("standard", 1), ("standard", 2), ("bicycle", 3), ("mexican", 4)):
        game = Game(rules, seed=seed)
        bots = [make_bot("heuristic", rng=random.Random(p)) for p in range(game.rules.num_players)]
        while not game.state.is_over:
            p = game.state.to_act
            obs = game.observation(p)
            for action in obs.legal_actions:
                found.append((obs, action, explainer.explain(obs, action)))
            game.push(bots[p].act(obs))
    return found


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_explanation_has_words_in_every_language(code: str) -> None:
    seen = set()
    for obs, action, why in explained_positions():
        reason = why._replace(key="searched", action=action, second=obs.legal_actions[0])
        with speaking(code):
            words = reason_words(reason, LOOK)
            move_word = command("take" if action.kind is ActionKind.TAKE else "discard")
        assert words and "{" not in words and reason.code not in words
        if action.kind in (ActionKind.TAKE, ActionKind.DISCARD):
            assert move_word[1:] in words  # the command in the language in use
        seen.add(why.because)
    assert {"completes", "waits", "needs_least", "fits_nothing"} <= seen


@pytest.mark.parametrize("code", sorted(set(LANGUAGES) - {"en"}))
def test_a_hint_is_never_an_english_sentence_in_another_language(code: str) -> None:
    """Until a language has the plain words, its hint keeps the words it has (no English
    sentence in a Spanish game); once translated, the plain words in that language."""
    _, why, _ = hint(OBVIOUS_TAKE)
    english = reason_words(why, LOOK)
    with speaking(code):
        words = reason_words(why, LOOK)
    assert words and words != english and "{" not in words
    assert not words.startswith("Take:") and "Second best" not in words
