"""``layoff_on_opponent`` above the core: the bots play it legally (and the heuristic lays a
card off when that sheds a card it needs least), a review and a hint word it, the research
environments refuse it by name, and the terminal lists and reads a layoff, in Spanish too."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from conquian.actions import Action, ActionKind
from conquian.bots import make_bot
from conquian.bots.base import Budget
from conquian.bots.heuristic import HeuristicBot
from conquian.bots.review import ReviewSettings, review_deals
from conquian.cards import parse_cards_mask
from conquian.errors import InvalidRulesError
from conquian.game import Game
from conquian.notation import parse_position
from conquian.present.hints import reason_words
from conquian.present.i18n import speaking
from conquian.present.letters import card_letters
from conquian.present.review import review_lines
from conquian.present.rules_text import describe, help_summary
from conquian.present.spans import CardLook, plain
from conquian.present.words import Names, describe_events, situation
from conquian.records import GameRecord
from conquian.rules import find_rules
from conquian.state import Phase

SPEC = "mexican,layoff_on_opponent=true"
NAMES = ("Ana", "Beto", "Cata")
LAYOFF_POSITION = f"{SPEC} offer 0 2 KsQd2hJh5d7sAhJs * * - 5c6c7c Ac2c3c/KhKdKc 4c:d2 - * 1 -"
"""Player 0 is offered 4c, paid by player 2; it fits nothing of his (an empty table and a
hand without clubs), but extends player 1's 5c6c7c and player 2's Ac2c3c."""


# ------------------------------------------------------------------ bots


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "beginner", "search"])
@pytest.mark.parametrize("spec", [SPEC, "standard,layoff_on_opponent=true"])
def test_bots_play_whole_deals_with_layoffs_without_an_illegal_move(name: str, spec: str) -> None:
    deals = 2 if name == "search" else 6
    budget = Budget(iterations=8) if name == "search" else None
    laid = 0
    for seed in range(deals):
        game = Game(spec, seed=seed, dealer=seed % find_rules(spec).num_players)
        bots = [
            make_bot(name, rng=random.Random(f"{seed}:{p}"), budget=budget)
            for p in range(game.rules.num_players)
        ]
        for p, bot in enumerate(bots):
            bot.new_deal(p, game.rules)
        while not game.state.is_over:
            p = game.state.to_act
            game.push(bots[p].act(game.observation(p)))  # raises on an illegal action
        laid += sum(e.action.kind is ActionKind.LAYOFF for e in game.history)
    if name == "heuristic":  # random play seldom melds, so seldom has a meld to lay on
        assert laid > 0


def test_the_heuristic_lays_off_a_card_that_fits_nothing_of_its_own() -> None:
    state = parse_position(LAYOFF_POSITION)
    bot = HeuristicBot(rng=random.Random(1))
    bot.new_deal(0, state.rules)
    game = Game(SPEC)
    game.state = state
    obs = game.observation(0)
    action = bot.act(obs)
    assert action.kind is ActionKind.LAYOFF
    assert bot.why is not None and bot.why.key == "layoff_best"
    why = bot.explain(obs, action)
    assert why.because == "lays_off" and why.meld == action.melds[0] | 1 << state.centre
    look = CardLook(state.rules.deck_style)
    assert "another player's meld" in plain(reason_words(bot.why, look))
    searched = why._replace(key="searched", action=action)
    assert "put 4" in plain(reason_words(searched, look)).lower()
    with speaking("es"):
        words = plain(
            reason_words(searched, CardLook(state.rules.deck_style, letters=card_letters()))
        )
    assert words.startswith("Pon: ponle ") and "juego de otro" in words


def test_the_heuristic_prefers_a_take_to_laying_the_same_card_off() -> None:
    # 4c extends player 0's own 5c6c7c as well as player 1's Ac2c3c
    state = parse_position(f"{SPEC} offer 0 2 KsQd2hJh5d * * 5c6c7c Ac2c3c - 4c:d2 - * 1 -")
    game = Game(SPEC)
    game.state = state
    action = HeuristicBot(rng=random.Random(1)).act(game.observation(0))
    assert action.kind is ActionKind.TAKE


def test_a_review_of_a_deal_with_layoffs_judges_and_words_them() -> None:
    for seed in range(30):
        game = Game(SPEC, seed=seed)
        rng = random.Random(seed)
        while not game.state.is_over:
            legal = game.legal_actions()
            lays = [a for a in legal if a.kind is ActionKind.LAYOFF]
            game.push(lays[0] if lays and game.state.to_act == 0 else rng.choice(legal))
        if any(e.action.kind is ActionKind.LAYOFF and e.player == 0 for e in game.history):
            break
    else:
        raise AssertionError("no deal with a layoff by player 0")
    record = GameRecord.from_game(game)
    review = review_deals([record], 0, ReviewSettings(samples=2, candidates=1))
    played = [d for d in review.decisions if d.played.kind is ActionKind.LAYOFF]
    assert played
    look = CardLook(game.rules.deck_style)
    text = "\n".join(plain(line) for line in review_lines([review.decisions], review.summary, look))
    assert "layoff " in text or not any(d.judged for d in played)


# ------------------------------------------------------------------ words


def test_the_log_says_who_laid_which_card_on_whose_meld_to_each_viewer() -> None:
    game = Game(SPEC)
    game.state = parse_position(LAYOFF_POSITION)
    game.push(Action.parse("layoff 1 5c6c7c"))
    game.push(Action.parse("discard Ks"))
    look = CardLook()
    said = {
        me: plain(describe_events(game.history, Names(NAMES, me=me), look)[0])
        for me in (0, 1, 2, None)
    }
    assert said[0] == "You laid 4c on Beto's meld 5c 6c 7c, discarded Ks"
    assert said[1] == "Ana laid 4c on your meld 5c 6c 7c, discarded Ks"
    assert said[2] == said[None] == "Ana laid 4c on Beto's meld 5c 6c 7c, discarded Ks"
    with speaking("es"):
        spanish = plain(describe_events(game.history, Names(NAMES, me=0), look)[0])
    assert spanish == "Le pusiste 4c al juego 5c 6c 7c de Beto, pagaste Ks"


@pytest.mark.parametrize("spec", [SPEC, f"{SPEC},num_players=2"])
def test_the_log_says_went_out_only_of_the_take_that_ends_the_deal(spec: str) -> None:
    """A table that others laid cards on holds more than ``hand_size + 1`` cards before its
    player goes out, and a layer's fewer: the log counts the hand, not the table."""
    checked = 0
    for seed in range(40):
        game = Game(spec, seed=seed, dealer=seed % find_rules(spec).num_players)
        rng = random.Random(seed)
        while not game.state.is_over:
            legal = game.legal_actions()
            lays = [a for a in legal if a.kind is ActionKind.LAYOFF]
            takes = [a for a in legal if a.kind is ActionKind.TAKE]
            game.push(
                rng.choice(lays or takes or legal) if rng.random() < 0.9 else rng.choice(legal)
            )
        if not any(e.action.kind is ActionKind.LAYOFF for e in game.history):
            continue
        checked += 1
        text = "\n".join(
            plain(line)
            for line in describe_events(
                game.history,
                Names(NAMES[: game.rules.num_players]),
                CardLook(),
                game.rules.cards_to_win,
            )
        )
        outcome = game.state.outcome()
        assert outcome is not None
        went_out = outcome.termination.value == "out"
        assert text.count("went out") == int(went_out), (seed, text)
    assert checked > 10


def test_the_situation_and_the_rules_say_a_layoff_may_be_made() -> None:
    game = Game(SPEC)
    game.state = parse_position(LAYOFF_POSITION)
    obs = game.observation(0)
    line = plain(situation(obs, Names(NAMES, me=0), CardLook()))
    assert line.endswith("lay it on another player's meld, or decline it?")
    rules = find_rules(SPEC)
    assert "one meld of another player" in describe(rules)
    assert "layoff_on_opponent  True" in describe(rules)
    assert "another player's meld" in help_summary(rules)[1]
    assert "another player's meld" not in describe(find_rules("mexican"), flags=False)
    for code in ("es", "hr", "kn", "ru", "tr"):
        with speaking(code):
            text = describe(rules, flags=False)
        assert "another player" not in text, code


# ------------------------------------------------------------------ research environments


def test_the_action_space_refuses_layoffs_by_name() -> None:
    from conquian.envs.spaces import ActionSpace, TensorLayout

    for make in (ActionSpace, TensorLayout):
        with pytest.raises(InvalidRulesError, match="layoff_on_opponent"):
            make(find_rules(SPEC))
    assert ActionSpace(find_rules("mexican")).size == ActionSpace(find_rules("mexican")).size


def test_every_environment_refuses_layoffs_by_name() -> None:
    pettingzoo_env = pytest.importorskip("conquian.envs.pettingzoo_env")
    with pytest.raises(InvalidRulesError, match="layoff_on_opponent"):
        pettingzoo_env.env(rules=SPEC)
    gymnasium = pytest.importorskip("gymnasium")
    import conquian.envs

    with pytest.raises(InvalidRulesError, match="layoff_on_opponent"):
        gymnasium.make(conquian.envs.GYM_ID, rules="standard,layoff_on_opponent=true")
    pyspiel = pytest.importorskip("pyspiel")
    import conquian.envs.openspiel

    with pytest.raises(Exception, match="layoff_on_opponent"):
        pyspiel.load_game("python_conquian", {"rules": SPEC})


# ------------------------------------------------------------------ the terminal


def spanish_session(tmp_path: Path, typed: str) -> tuple[object, io.StringIO]:
    """A terminal session in Spanish at :data:`LAYOFF_POSITION`, ``typed`` waiting as input."""
    from conquian.play.session import Session
    from conquian.play.storage import SavedMatch, Store
    from conquian.play.ui import PlainScreen

    saved = SavedMatch(
        rules=SPEC,
        match_seed=1,
        bot_seed=1,
        opponent="easy",
        names=NAMES,
        humans=(0,),
        lang="es",
    )
    out = io.StringIO()
    session = Session(PlainScreen(out=out, inp=io.StringIO(typed)), Store(tmp_path), saved)
    session.driver.start()
    assert session.game is not None
    session.game.state = parse_position(LAYOFF_POSITION)
    return session, out


def test_the_terminal_lists_and_reads_a_layoff_typed_in_spanish(tmp_path: Path) -> None:
    with speaking("es"):
        session, out = spanish_session(tmp_path, "pon\n1\n")
        look = session.look  # type: ignore[attr-defined]
        # 'pon' alone: two ways, a numbered list naming whose meld each is; 1 is chosen
        chosen = session._human_action(0)  # type: ignore[attr-defined]
        shown = out.getvalue()
        first = look.typed(parse_cards_mask("5c6c7c"))
        assert f"pon {first} (pónsela a ese juego y luego paga)" in shown  # the options
        assert "2 maneras de ponérsela al juego de otro; ese juego quedaría así:" in shown
        assert "Bot 1: " in shown and "Bot 2: " in shown  # whose meld each is
        assert chosen == Action.parse("layoff 1 5c6c7c")
        # a card on no meld it extends is refused in Spanish; a card of the meld picks it
        king, six = look.typed(parse_cards_mask("Kh")), look.typed(parse_cards_mask("6c"))
        session, out = spanish_session(tmp_path, f"pon {king}\npon {six}\n")
        chosen = session._human_action(0)  # type: ignore[attr-defined]
        assert "no le queda a ningún juego de otro jugador que tenga" in out.getvalue()
        assert chosen == Action.parse("layoff 1 5c6c7c")
        game = session.game  # type: ignore[attr-defined]
        game.push(chosen)
        assert game.state.phase is Phase.DISCARD
        assert game.state.tables[1] == (parse_cards_mask("4c5c6c7c"),)


def test_the_terminal_help_names_the_layoff_command_in_spanish(tmp_path: Path) -> None:
    from conquian.play.terminal_words import help_text

    rules = find_rules(SPEC)
    with speaking("es"):
        text = help_text(rules, CardLook(rules.deck_style, letters=card_letters()))
    assert "pon " in text and "ponerle la carta del centro al juego de otro" in text
    assert "pon " not in help_text(find_rules("mexican"), CardLook())
