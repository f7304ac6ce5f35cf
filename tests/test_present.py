"""The words layer (``conquian.present``): rule prose from the rules themselves, card
spans that carry their card, the browser's JSON built from them, and the layering.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any

import pytest

import conquian
from conquian.actions import ActionKind
from conquian.cards import DeckStyle, card_label, parse_cards_mask
from conquian.game import Game
from conquian.play.terminal_words import help_text
from conquian.present.i18n import speaking
from conquian.present.rules_text import (
    describe,
    flag_sentence,
    help_summary,
    how_to_play,
    rules_heading,
)
from conquian.present.spans import (
    CardLook,
    Line,
    Span,
    card_span,
    cards_spans,
    hand_spans,
    melds_spans,
    plain,
)
from conquian.present.words import (
    Names,
    describe_action,
    describe_events,
    outcome_lines,
    payment_lines,
    situation,
    take_forms,
    take_short_forms,
    to_play_note,
)
from conquian.rules import FLAG_NAMES, PRESETS, Rules, Scoring, find_rules
from conquian.state import Outcome, Termination
from conquian.web.messages import segments

SRC = Path(conquian.__file__).parent

SPECS = [
    *PRESETS,
    "standard,hand_size=6",
    "standard,forcing=off,rearrange_mode=none",
    "standard,forcing=automatic,force_fit=with_rearrangement,exhaustion=fewest_hand_cards",
    "standard,scoring=points,draw_stake=none,match=first_to,match_target=50",
    "bicycle,deck_style=spanish,match=n_deals,match_target=3,base_stake=2,draw_stake=double_next",
    "foster,first_dealer=random,deal_packet=1,draw_stake=double_compound",
]

# What names each flag value in words: a phrase of its sentence, written by hand.  Every
# non-default flag of every spec above must be here, and its phrase in the rules text.
NAMED: dict[tuple[str, str], str] = {
    ("deck_style", "a_to_10"): "pack of A to 10",
    ("deck_style", "spanish"): "Spanish pack",
    ("deal_packet", "2"): "dealt two at a time",
    ("first_dealer", "low_cut"): "the lower card deals first",
    ("initial_upcard", "offered_to_both"): "one card is turned up and offered",
    ("max_seq_len", "10"): "runs of 3 to 10 cards",
    ("rearrange_mode", "foster_borrow"): "only borrow one card of a set into a run",
    ("rearrange_mode", "none"): "may only be extended",
    ("meld_without_take", "before_rejecting_stock_card"): "lay cards from your hand before passing",
    ("forcing", "off"): "Nobody can be forced",
    ("forcing", "automatic"): "always forced on him",
    ("force_scope", "offered_only"): "only to a card offered to him",
    ("force_fit", "with_rearrangement"): "can be rearranged into melds",
    ("forced_take", "minimal"): "only adds the forced card",
    ("exhaustion", "fewest_hand_cards"): "with fewer cards in hand wins",
    ("scoring", "points"): "The winner scores the cards left in the loser's hand",
    ("draw_stake", "none"): "A drawn deal changes nothing",
    ("draw_stake", "double_next"): "worth double",
    ("draw_stake", "double_compound"): "Each drawn deal doubles",
    ("match", "first_to"): "balance reaches 50",
    ("match", "n_deals"): "The match lasts 3 deals",
    ("match_target", "50"): "balance reaches 50",
    ("match_target", "3"): "The match lasts 3 deals",
    ("base_stake", "2"): "A deal is worth 2 units",
    ("hand_size", "6"): "Each player gets 6 cards",
    ("hand_size", "8"): "Each player gets 8 cards",
    ("num_players", "3"): "Three players sit round the table",
    ("exchange_one_card", "True"): "pass face down to the player on his right",
    ("force_by", "offerer"): "Only the player who turned or paid",
}


def _prose(text: str) -> str:
    """The rules text without its table of flags (which names every flag anyway)."""
    return text[: text.index("\nFlags:")]


def _value(value: object) -> str:
    return str(getattr(value, "value", value))


# ------------------------------------------------------------------ rule prose


@pytest.mark.parametrize("spec", SPECS)
def test_rules_text_names_every_non_default_flag(spec: str) -> None:
    rules = find_rules(spec)
    prose = _prose(describe(rules))
    differences = rules.differences(Rules())
    assert differences or spec == "standard"
    for flag, value in differences.items():
        sentence = flag_sentence(rules, flag)
        assert sentence, flag
        assert sentence in prose, flag
        assert sentence != flag_sentence(Rules(), flag), flag  # it states *this* value
        phrase = NAMED[(flag, _value(value))]
        assert phrase in prose, (flag, phrase)
        # the default's words for that flag are gone
        default = flag_sentence(Rules(), flag)
        if default:
            assert default not in prose, flag


def test_every_flag_but_num_players_has_words() -> None:
    for flag in FLAG_NAMES:
        if flag in ("num_players", "base_stake"):
            continue
        assert flag_sentence(Rules(), flag) in describe(Rules()), flag
    assert flag_sentence(Rules(), "num_players") == ""
    with pytest.raises(KeyError):
        flag_sentence(Rules(), "colour")


def test_standard_rules_text_is_unchanged() -> None:
    text = describe(Rules())
    assert text.splitlines()[:3] == [
        "Conquian for two players (standard rules).",
        "",
        "A 40-card French-suited pack: A 2 3 4 5 6 7 J Q K in spades, hearts, diamonds and clubs.",
    ]
    assert "Each player gets 10 cards dealt one at a time, non-dealer first." in text
    assert "The other 20 cards form the stock; no card is turned up after the deal." in text
    assert (
        "runs of 3 to 8 cards of one suit in order (ace low, 7 next to J, no wrap-around)" in text
    )
    assert "You win by melding exactly 11 cards, the last one being the centre card" in text
    assert "Play ends with the first decided deal.\n\nFlags:\n  deck_style" in text
    assert len(text.splitlines()) == 2 + 17 + 2 + len(FLAG_NAMES)


def test_rules_heading() -> None:
    assert rules_heading(find_rules("standard")) == "Every rule of the standard game"
    assert rules_heading(find_rules("foster")) == "Every rule of the foster game"
    spec = "standard,max_seq_len=10"
    assert rules_heading(find_rules(spec)) == f"Every rule of this game ({spec} rules)"


# ------------------------------------------------------------------ help


STANDARD_HELP = """\
How to play Conquian
  Each of you holds 10 cards. Win by having 11 cards face up in melds on your own table:
  sets (3 or 4 of a rank) and runs (3 to 8 of one suit in order: A 2 3 4 5 6 7 J Q K, the
  7 is next to the J). A card you take never goes into your hand: you lay it at once,
  with cards from your hand or onto your melds (you may rearrange your own melds).
  On your turn you are offered your opponent's discard (or the stock card he passed):
  take it, or decline it and turn the next stock card, which you may take or pass.
  After a take you discard one card. If you refuse a card that fits your melds as they
  lie, your opponent may force you to take it.

Commands
  take 6c 7c     take the centre card, laying 6c and 7c from your hand with it
  take           take it; if there are several ways, choose from a numbered list
  decline, pass  refuse the centre card (no also works)
  Kh             discard Kh after a take (or: discard Kh)
  force, no      force your opponent to take the card he refused, or let it go
  hint           what the strongest bot would do, and why
  log            every move of this deal
  table          show the table again
  rules          the rules in full
  quit           save and stop (play --resume)
  Cards are typed rank then suit: A 2 3 4 5 6 7 J Q K and s h d c, e.g. Jh. A rank alone
  will do where one card of your hand has it: take 5 7 lays your 5 and your 7. Upper or
  lower case; suit symbols work too."""


def test_standard_help() -> None:
    assert help_text(Rules(), CardLook()) == STANDARD_HELP
    fancy = help_text(Rules(), CardLook(symbols=True))
    assert fancy == STANDARD_HELP.replace(
        "Upper or\n  lower case; suit symbols work too.",
        "Upper or\n  lower case; suit symbols such as 7\u2665 work too.",
    )


@pytest.mark.parametrize("hand", [1, 4, 6, 9])
def test_help_states_the_hand_size_and_cards_to_win(hand: str) -> None:
    rules = find_rules(f"standard,hand_size={hand}")
    text = " ".join(help_text(rules, CardLook()).split())
    cards = "card" if hand == 1 else "cards"
    assert f"Each of you holds {hand} {cards}. Win by having {hand + 1} cards face up" in text
    assert "holds 10" not in text and "having 11" not in text
    page = " ".join(plain(line) for s in how_to_play(rules) for line in s.lines)
    assert f"Be the first to have {hand + 1} cards" in page
    assert f"Each player is dealt {hand} {cards}; the other {40 - 2 * hand} form the stock" in page
    assert "11" not in page.replace("11 12", "") and "20" not in page


def test_help_follows_the_flags() -> None:
    def said(spec: str) -> str:
        return " ".join(help_text(find_rules(spec), CardLook(find_rules(spec).deck_style)).split())

    assert "(you may rearrange your own melds)" in said("standard")
    off = said("standard,forcing=off,rearrange_mode=none")
    assert "force" not in off.replace("Nobody can be forced", "")
    assert "Nobody can be forced to take a card." in off
    assert "rearrange" not in off and "(your own melds may only be extended)" in off
    foster = said("foster")
    assert "only borrow a card of a set into a run" in foster
    assert "A 2 3 4 5 6 7 8 9 10)" in foster and "next to the J" not in foster
    assert "discard 10h after a take" in foster and "Kh" not in foster
    assert "adding only that card" in foster
    bicycle = said("bicycle")
    assert "If you decline an offered card that fits" in bicycle
    assert "Before passing it you may lay cards from your hand." in bicycle
    assert "pass 6c 7c lay 6c and 7c from your hand, then pass the turned card" in bicycle
    assert "(3 or more of one suit" in bicycle
    assert "turned up and offered to the non-dealer" in said("wikipedia")
    assert "you must take it after all" in said("standard,forcing=automatic")
    assert "force, no" not in said("standard,forcing=automatic")
    spanish = said("standard,deck_style=spanish")
    assert "1 2 3 4 5 6 7 10 11 12, the 7 is next to the 10" in spanish
    assert "12c discard 12c after a take" in spanish
    assert "fewer cards in hand wins" in said("standard,exhaustion=fewest_hand_cards")


def test_help_summary_and_page_state_the_rules_facts() -> None:
    for spec in SPECS:
        rules = find_rules(spec)
        summary = " ".join(help_summary(rules))
        page = " ".join(plain(line) for s in how_to_play(rules) for line in s.lines)
        for text in (summary, page):
            assert str(rules.cards_to_win) in text, spec
        assert (
            "rearrange your own melds" in page
            if rules.rearrange_mode.value == "free"
            else ("rearrange your own melds" not in page)
        )


def test_standard_page_reads_as_before() -> None:
    sections = how_to_play(Rules())
    assert [s.heading for s in sections] == ["", "Goal", "A turn"]
    assert [s.steps for s in sections] == [False, False, True]
    goal = plain(sections[1].lines[0])
    assert goal.startswith("Be the first to have 11 cards face up on your own table in melds")
    assert goal.endswith("Your ten hand cards plus one card taken from the centre make the eleven.")
    steps = [plain(line) for line in sections[2].lines]
    assert steps[0] == (
        "Each player is dealt 10 cards; the other 20 form the stock, face down. "
        "The non-dealer plays first."
    )
    assert steps[-1] == (
        "If the stock runs out before anyone goes out, the deal is drawn and the stake "
        "carries over to the next deal."
    )
    assert "your opponent may force you to take it." in steps[4]
    assert "ace to 10" in plain(how_to_play(find_rules("foster"))[0].lines[0])


# ------------------------------------------------------------------ who pays


def test_payment_lines() -> None:
    me = Names(("Ana", "Ben"), me=0)
    watch = Names(("Ana", "Ben"))

    def said(outcome: Outcome, names: Names, **kw: Any) -> list[str]:
        args: dict[str, Any] = {"match_over": False, "next_value": 2, **kw}
        scoring = args.pop("scoring", Scoring.STAKE)
        return [plain(line) for line in payment_lines(outcome, 3, scoring, names, **args)]

    won, lost = Outcome(0, Termination.OUT), Outcome(1, Termination.OUT)
    drawn = Outcome(None, Termination.STOCK_EXHAUSTED)
    assert said(won, me) == ["Ben pays you 3."]
    assert said(lost, me) == ["You pay Ben 3."]
    assert said(lost, watch) == ["Ana pays Ben 3."]
    assert said(drawn, me) == ["Nobody pays; the next deal is worth 2."]
    assert said(drawn, me, match_over=True) == []
    assert said(won, me, scoring=Scoring.POINTS) == ["You scored 3 points."]
    assert said(lost, watch, scoring=Scoring.POINTS) == ["Ben scored 3 points."]
    with speaking("es"):  # NEWCOMER-ES: "te paga", not "le paga 3 a ti"
        assert said(won, me) == ["Ben te paga 3."]
        assert said(lost, watch) == ["Ana le paga 3 a Ben."]
        assert (to_play_note(True), to_play_note()) == ("te toca", "le toca")


# ------------------------------------------------------------------ cards carry the card


def test_card_spans_carry_their_card() -> None:
    for deck in DeckStyle:
        for symbols in (False, True):
            look = CardLook(deck, symbols=symbols)
            for index in range(40):
                span = card_span(look, index)
                assert span.card == index
                assert span.text == look.text(index)
    look = CardLook(DeckStyle.SPANISH)
    assert card_span(look, 19) == Span("12c", look.style(19), 19)
    mask = parse_cards_mask("As 5s 2h Kd 7c")
    for line in (cards_spans(look, mask), hand_spans(look, mask), melds_spans(look, [mask])):
        cards = [span.card for span in line if span.card is not None]
        assert cards == [0, 4, 11, 29, 36]
        assert all(span.text.strip() for span in line if span.card is not None)
        words = [span for span in line if span.card is None]
        assert all(not re.search(r"\d", span.text) for span in words)
    assert all(span.card is None for span in melds_spans(look, []))


def _old_segments(line: Line) -> list[Any]:
    """``segments`` as it was, finding cards in the text with a regular expression."""
    card = re.compile(r"(?:[A2-7JQK]|1[0-2]|[1-7])[shdceob]")
    out: list[Any] = []
    for span in line:
        if span.style and card.fullmatch(span.text):
            out.append({"card": span.text})
        elif out and isinstance(out[-1], str):
            out[-1] += span.text
        elif span.text:
            out.append(span.text)
    return out


def test_segments_by_hand() -> None:
    look = CardLook()
    game = Game(seed=3, dealer=0)
    game.push(game.legal_actions()[-1])
    (line,) = describe_events(game.history, Names(("You", "Bot"), me=1), look)
    assert segments(line) == ["You turned ", {"card": "Ad"}, " and passed it"]
    table = parse_cards_mask("3h 4h 5h"), parse_cards_mask("Js Jh Jc")
    outcome = outcome_lines(
        Outcome(0, Termination.OUT),
        (table, ()),
        (0, parse_cards_mask("Kd")),
        Names(("Ana", "Ben"), me=1),
        look,
    )
    assert [segments(line) for line in outcome] == [
        ["Ana went out and wins the deal!"],
        [
            "  6 cards melded: ",
            {"card": "3h"},
            " ",
            {"card": "4h"},
            " ",
            {"card": "5h"},
            "  |  ",
            {"card": "Js"},
            " ",
            {"card": "Jh"},
            " ",
            {"card": "Jc"},
        ],
        ["  Your hand still held: ", {"card": "Kd"}],
    ]
    # the browser gets the canonical card whatever the look (the old regex read the text)
    spanish = [Span("Ben discarded "), card_span(CardLook(DeckStyle.SPANISH, symbols=True), 19)]
    assert segments(spanish) == ["Ben discarded ", {"card": "Kh"}]


def test_segments_equal_the_old_regex_reading() -> None:
    """Every line the web sends, over random games: the same JSON as before."""
    look = CardLook()
    checked = 0
    for seed in range(12):
        rules = ("standard", "bicycle", "wikipedia")[seed % 3]
        game = Game(rules, seed=seed, dealer=seed % 2)
        rng = random.Random(seed)
        while not game.state.is_over:
            p = game.state.to_act
            obs = game.observation(p)
            names = Names(("Ana", "Ben"), me=p)
            lines = [situation(obs, names, look)]
            lines += [describe_action(a, obs, look) for a in obs.legal_actions[:6]]
            for line in lines:
                assert segments(line) == _old_segments(line)
                checked += 1
            game.push(rng.choice(obs.legal_actions))
        names = Names(("Ana", "Ben"), me=0)
        obs = game.observation(0)
        outcome = game.state.outcome()
        assert outcome is not None
        lines = describe_events(game.history, names, look, game.rules.cards_to_win)
        lines += outcome_lines(outcome, obs.tables, (obs.hand_mask, 0), names, look)
        for line in lines:
            assert segments(line) == _old_segments(line)
            checked += 1
    assert checked > 500


def test_take_forms_group_by_the_cards_laid() -> None:
    for seed in range(30):
        game = Game(seed=seed, dealer=0)
        rng = random.Random(seed)
        while not game.state.is_over:
            obs = game.observation(game.state.to_act)
            for kind in (ActionKind.TAKE, ActionKind.PASS):
                forms = take_forms(obs, kind)
                short = take_short_forms(obs, CardLook(), kind)
                assert [a for _, a in forms] == [a for _, a in short]
                for (played, _), (text, _) in zip(forms, short, strict=True):
                    assert text.split()[1:] == [card_label(i) for i in range(40) if played >> i & 1]
            game.push(rng.choice(obs.legal_actions))


# ------------------------------------------------------------------ layers


CORE = {
    "cards",
    "melds",
    "rules",
    "actions",
    "state",
    "notation",
    "reasons",
    "observation",
    "game",
    "match",
    "records",
    "errors",
}


def _imports(folder: str) -> set[str]:
    """The conquian modules that the modules of ``folder`` import (relative or absolute)."""
    found: set[str] = set()
    for path in (SRC / folder).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                if node.level == 2:
                    found.add(node.module.split(".")[0])
                elif node.level == 0 and node.module.startswith("conquian."):
                    found.add(node.module.split(".")[1])
            elif isinstance(node, ast.ImportFrom) and node.level == 2:
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("conquian."):
                        found.add(alias.name.split(".")[1])
    return found


def test_present_imports_only_the_core() -> None:
    assert _imports("present") <= CORE, _imports("present") - CORE


def test_web_and_play_do_not_import_each_other() -> None:
    assert "play" not in _imports("web")
    assert "web" not in _imports("play")


# ------------------------------------------------------------------ the browser's rules


def test_api_rules_gives_the_games_rules(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from conquian.web.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path}/web.db", bot_delay=0)) as client:
        data = client.get("/api/rules").json()
        assert data["rules"] == "standard" and data["text"] == describe(Rules(), flags=False)
        assert data["flags"] == describe(Rules())[len(data["text"]) :].strip()  # apart
        assert data["heading"] == "Every rule of the standard game"
        assert [s["heading"] for s in data["how"]] == ["", "Goal", "A turn"]
        goal = data["how"][1]["paragraphs"][0]
        assert goal[:2] == ["Be the first to have ", {"strong": "11 cards"}]
        assert {"em": "runs"} in goal
        assert len(data["how"][2]["steps"]) == 6

        spec = "foster,hand_size=6"
        data = client.get("/api/rules", params={"rules": spec}).json()
        assert data["rules"] == spec and data["text"] == describe(find_rules(spec), flags=False)
        words = str(data["how"])
        assert "ace to 10" in words and "Each player is dealt 6 cards, two at a time" in words
        assert "{'strong': '7 cards'}" in words and "six hand cards" in words
        assert "borrow one card of a set into a run" in words
