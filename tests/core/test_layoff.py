"""The rule flag ``layoff_on_opponent``: the centre card laid on another player's meld.

A player who may take the centre card (his own turned card, or a card offered to him; never a
forced take) may instead lay it on one meld of another player that it extends as the meld
lies; that player's table keeps it, and the layer pays a hand card as after a take.  The flag
is off in every preset, and every rule set without it plays as before.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from conquian import (
    Action,
    ActionKind,
    AmbiguousActionError,
    Game,
    GameRecord,
    IllegalActionError,
    IllegalReason,
    InvalidNotationError,
    Phase,
    format_position,
    parse_action,
    parse_position,
)
from conquian.cards import CARDS, parse_cards_mask
from conquian.observation import (
    observe,
    observe_public,
    parse_public_event,
    read_public_event,
)
from conquian.rules import PRESETS, Rules, find_rules
from conquian.state import GameState, Source, Termination

SPEC = "mexican,layoff_on_opponent=true"
"""Three players; player 1's table holds 5c6c7c, which 4c extends."""


def position(
    *,
    rules: str = SPEC,
    phase: str = "offer",
    hand: str = "*",
    table: str = "-",
    others: tuple[str, str] = ("5c6c7c", "-"),
    centre: str = "4c:d2",
) -> str:
    """A position of three players with player 0 to act (player 2 dealt)."""
    return f"{rules} {phase} 0 2 {hand} * * {table} {others[0]} {others[1]} {centre} - * 1 -"


def state_of(**parts: str) -> GameState:
    return parse_position(position(**parts))


def layoffs(state: GameState) -> list[Action]:
    return [a for a in state.legal_actions() if a.kind is ActionKind.LAYOFF]


# ------------------------------------------------------------------ the flag


def test_the_flag_is_off_in_every_preset_and_not_written_when_off() -> None:
    assert Rules().layoff_on_opponent is False
    assert not any(rules.layoff_on_opponent for rules in PRESETS.values())
    assert find_rules("mexican,layoff_on_opponent=false").to_spec() == "mexican"
    assert find_rules(SPEC).to_spec() == SPEC
    assert find_rules("standard,layoff_on_opponent=true").to_spec() == (
        "standard,layoff_on_opponent=true"
    )


# ------------------------------------------------------------------ legality


@pytest.mark.parametrize(("phase", "centre"), [("offer", "4c:d2"), ("turn", "4c:t0")])
def test_layoffs_are_legal_with_the_flag_after_the_takes_and_never_without(
    phase: str, centre: str
) -> None:
    hand = "2c3cKsQdJhAh5d7s"  # 4c also melds with 2c 3c: a take
    on = parse_position(position(phase=phase, centre=centre, hand=hand))
    legal = [str(a) for a in on.legal_actions()]
    refusal = "decline" if phase == "offer" else "pass"
    assert legal == ["take 2c3c4c", "layoff 1 5c6c7c", refusal]
    off = parse_position(position(rules="mexican", phase=phase, centre=centre, hand=hand))
    assert [str(a) for a in off.legal_actions()] == ["take 2c3c4c", refusal]
    with pytest.raises(IllegalActionError) as info:
        off.apply(Action.parse("layoff 1 5c6c7c"))
    assert info.value.reason is IllegalReason.LAYOFF_NOT_ALLOWED


def test_a_card_that_extends_no_other_meld_has_no_layoff() -> None:
    assert layoffs(state_of(others=("KsKhKd", "-"))) == []
    assert [str(a) for a in layoffs(state_of(others=("5c6c7c/Ac2c3c", "AhAdAs")))] == [
        "layoff 1 Ac2c3c",
        "layoff 1 5c6c7c",
    ]


def test_a_run_at_its_longest_takes_no_layoff() -> None:
    capped = f"{SPEC},max_seq_len=3"
    assert layoffs(state_of(rules=capped)) == []
    assert len(layoffs(state_of(rules=f"{SPEC},max_seq_len=4"))) == 1


@pytest.mark.parametrize(("phase", "centre"), [("offer", "4c:d2"), ("turn", "4c:t0")])
def test_the_layoff_moves_the_card_to_the_other_table_and_the_layer_pays(
    phase: str, centre: str
) -> None:
    state = parse_position(position(phase=phase, centre=centre))
    hand_before = state.hands[0]
    state.apply(Action.parse("layoff 1 5c6c7c"))
    assert state.tables[1] == (parse_cards_mask("4c5c6c7c"),)
    assert state.table_masks[1] == parse_cards_mask("4c5c6c7c")
    assert state.tables[0] == () and state.tables[2] == ()
    assert state.hands[0] == hand_before  # nothing laid from the hand
    assert (state.phase, state.to_act, state.centre) == (Phase.DISCARD, 0, -1)
    paid = state.legal_actions()[0]
    assert paid.kind is ActionKind.DISCARD
    state.apply(paid)  # the paid card starts a new offer round, from the next seat
    assert (state.phase, state.to_act, state.owner, state.source) == (
        Phase.OFFER,
        1,
        0,
        Source.DISCARD,
    )
    assert state.hands[0] == hand_before & ~(1 << paid.card)
    state.validate()


def test_the_layoff_keeps_the_other_melds_as_they_lie() -> None:
    state = state_of(others=("KsKhKd/5c6c7c", "-"))
    state.apply(Action.parse("layoff 1 5c6c7c"))
    assert state.tables[1] == tuple(sorted(parse_cards_mask(m) for m in ("KsKhKd", "4c5c6c7c")))


def test_no_layoff_with_an_empty_hand() -> None:
    state = state_of(hand="-", table="AsAhAdAc/2s2h2d2c")
    assert layoffs(state) == []
    assert [str(a) for a in state.legal_actions()] == ["decline"]
    with pytest.raises(IllegalActionError) as info:
        state.apply(Action.parse("layoff 1 5c6c7c"))
    assert info.value.reason is IllegalReason.LAYOFF_EMPTY_HAND


def test_no_layoff_in_a_forced_take() -> None:
    # 6c, paid by player 2 and declined by player 0, fits his 3c4c5c: forced; it would also
    # extend player 1's 7cJcQc
    state = state_of(phase="forced", table="3c4c5c", others=("7cJcQc", "-"), centre="6c:d2")
    assert state.legal_actions() and all(a.kind is ActionKind.TAKE for a in state.legal_actions())
    with pytest.raises(IllegalActionError) as info:
        state.apply(Action.parse("layoff 1 7cJcQc"))
    assert info.value.reason is IllegalReason.NOT_POSSIBLE_NOW
    assert info.value.expected == ("take",)


def test_a_layoff_never_goes_out() -> None:
    state = state_of(hand="Ks", table="AsAhAd/2s2h2d2c")  # one card in hand
    state.apply(Action.parse("layoff 1 5c6c7c"))
    assert state.phase is Phase.DISCARD and state.winner is None
    state.apply(Action.parse("discard Ks"))  # an empty hand after paying is not out
    assert state.phase is Phase.OFFER and state.hands[0] == 0 and not state.is_over
    # a take that empties the hand still goes out
    taker = state_of(hand="6c", table="3c4c5c/2s2h2d2c", others=("KsKhKd", "-"), centre="7c:d2")
    assert layoffs(taker) == []
    taker.apply(Action.parse("take 3c4c5c6c7c/2s2h2d2c"))
    assert taker.outcome() == (0, Termination.OUT)


def test_forcing_ignores_fits_on_other_tables() -> None:
    # 4c fits only player 1's 5c6c7c: declining it cannot be forced; it goes on to player 1
    state = state_of(table="KsKhKd")
    state.apply(Action.parse("decline"))
    assert (state.phase, state.to_act) == (Phase.OFFER, 1)
    # Kc fits player 0's own KsKhKd: declining it can be forced by its payer
    own = state_of(table="KsKhKd", centre="Kc:d2")
    own.apply(Action.parse("decline"))
    assert (own.phase, own.to_act) == (Phase.FORCE, 2)


# ------------------------------------------------------------------ text


def test_a_layoff_s_text_reads_back_as_the_same_action() -> None:
    action = Action.layoff(2, parse_cards_mask("7c5c6c"))
    assert str(action) == "layoff 2 5c6c7c"
    assert Action.parse(str(action)) == action
    assert Action.parse("LAYOFF 2 5c 6c 7c") == action
    for bad in ("layoff", "layoff 2", "layoff x 5c6c7c", "layoff 2 5c6c", "layoff 12 5c6c7c"):
        with pytest.raises(InvalidNotationError):
            Action.parse(bad)


def test_short_forms_of_a_layoff_are_read_or_listed() -> None:
    state = state_of(others=("5c6c7c", "Ac2c3c"))
    first, second = layoffs(state)
    assert parse_action(state, "layoff 6c") == first
    assert parse_action(state, "layoff 2") == second
    assert parse_action(state, "layoff 1 5c6c7c") == first
    with pytest.raises(AmbiguousActionError) as info:
        parse_action(state, "layoff")
    assert set(info.value.candidates) == {first, second}
    with pytest.raises(IllegalActionError) as refused:
        parse_action(state, "layoff Kh")
    assert refused.value.reason is IllegalReason.NO_MATCHING_LAYOFF


def test_the_public_event_of_a_layoff_reads_back() -> None:
    event = parse_public_event("p0 layoff 1 5c6c7c (4c:d2)", 3)
    assert event.action == Action.parse("layoff 1 5c6c7c")
    assert str(CARDS[event.card]) == "4c" and event.owner == 2
    data = event.to_dict()
    assert data["verb"] == "layoff" and data["seat"] == 1 and data["melds"] == [["5c", "6c", "7c"]]
    assert read_public_event(data, 3) == event
    with pytest.raises(InvalidNotationError):
        read_public_event({**data, "seat": 0}, 3)  # one's own seat
    with pytest.raises(InvalidNotationError):
        read_public_event({k: v for k, v in data.items() if k != "seat"}, 3)
    with pytest.raises(InvalidNotationError):
        parse_public_event("p1 layoff 1 5c6c7c (4c:d2)", 3)


# ------------------------------------------------------------------ whole deals


def play(spec: str, seed: int, layoff_share: float = 0.7) -> Game:
    """A deal played at random, laying off when it can most of the time and taking when it
    can most of the rest (so that some deals are won)."""
    game = Game(spec, seed=seed, dealer=seed % find_rules(spec).num_players)
    rng = random.Random(seed)
    while not game.state.is_over:
        legal = game.legal_actions()
        lays = [a for a in legal if a.kind is ActionKind.LAYOFF]
        takes = [a for a in legal if a.kind is ActionKind.TAKE]
        if lays and rng.random() < layoff_share:
            action = rng.choice(lays)
        elif takes and rng.random() < 0.8:
            action = rng.choice(takes)
        else:
            action = rng.choice(legal)
        game.push(action)
    return game


SPECS = [
    SPEC,
    f"{SPEC},num_players=4",
    f"{SPEC},num_players=2",
    "standard,layoff_on_opponent=true",
    f"{SPEC},exhaustion=fewest_hand_cards",
]


@pytest.mark.parametrize("spec", SPECS)
def test_whole_deals_replay_from_their_records_and_positions(spec: str) -> None:
    laid = outs = 0
    for seed in range(12):
        game = play(spec, seed)
        for state in game.states():
            text = format_position(state)
            back = parse_position(text)
            assert format_position(back) == text
            assert back.outcome() == state.outcome()
        laid += sum(e.action.kind is ActionKind.LAYOFF for e in game.history)
        outcome = game.state.outcome()
        assert outcome is not None
        outs += outcome.termination is Termination.OUT
        record = GameRecord.from_game(game).dumps()
        replayed = GameRecord.loads(record).to_game()
        assert format_position(replayed.state) == format_position(game.state)
        assert replayed.history == game.history
    assert laid > 0
    assert outs > 0


def test_a_winner_with_cards_laid_on_his_table_goes_out_with_more_than_usual() -> None:
    found = False
    for seed in range(200):
        game = play(SPEC, seed, layoff_share=0.9)
        outcome = game.state.outcome()
        if outcome is None or outcome.termination is not Termination.OUT:
            continue
        winner = outcome.winner
        assert winner is not None and game.state.hands[winner] == 0
        if game.state.table_masks[winner].bit_count() != game.rules.cards_to_win:
            found = True
            back = parse_position(format_position(game.state))
            assert back.outcome() == outcome
            break
    assert found


_CARD = re.compile(r"[A2-7JQK][shdc]")


@pytest.mark.parametrize("spec", [SPEC, "standard,layoff_on_opponent=true"])
def test_a_layoff_shows_no_hidden_card(spec: str) -> None:
    """Every layoff's event, and every view after it, names only cards face up (the centre
    card and the tables) besides the viewer's own hand."""
    seen_layoffs = 0
    for seed in range(6):
        game = play(spec, seed)
        replay = Game(spec, seed=seed, dealer=seed % game.rules.num_players)
        for event in game.history:
            replay.push(event.action)
            if event.action.kind is not ActionKind.LAYOFF:
                continue
            seen_layoffs += 1
            state = replay.state
            n = state.num_players
            stock = 0
            for index in state.stock[state.stock_pos :]:
                stock |= 1 << index
            hidden_from_all = stock
            for hand in state.hands:
                hidden_from_all |= hand
            named = {_index(t) for t in _CARD.findall(str(event) + json.dumps(event.to_dict()))}
            assert not any(hidden_from_all >> i & 1 for i in named), event
            public = json.dumps(observe_public(state, tuple(replay.history)).to_dict())
            assert not any(hidden_from_all >> _index(t) & 1 for t in _CARD.findall(public))
            for viewer in range(n):
                hidden = stock
                for other in range(n):
                    if other != viewer:
                        hidden |= state.hands[other]
                if state.exchange:  # the card he passed he knows
                    hidden &= ~(1 << state.exchange[viewer])
                obs = observe(state, viewer, tuple(replay.history))
                text = json.dumps(obs.to_dict())
                assert not any(hidden >> _index(t) & 1 for t in _CARD.findall(text))
    assert seen_layoffs > 0


def _index(token: str) -> int:
    return next(i for i, card in enumerate(CARDS) if str(card) == token)
