"""The words of a deal with three or four players name the right people: who paid or turned
the centre card, who refused it, who forces whom, who pays the winner."""

from __future__ import annotations

import random

import pytest

from conquian.actions import ActionKind
from conquian.game import Game
from conquian.play.board import Board, board_lines
from conquian.present.spans import CardLook, plain
from conquian.present.words import (
    Names,
    centre_origin,
    describe_events,
    outcome_lines,
    payment_lines,
    situation,
)
from conquian.rules import Scoring, find_rules
from conquian.state import Outcome, Phase, Source, Termination

NAMES = ("Ana", "Ben", "Cy", "Dee")


def games(spec: str, count: int) -> list[Game]:
    """Finished random games (greedy enough to meld, force and go out now and then)."""
    rules = find_rules(spec)
    n = rules.num_players
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        game = Game(rules, seed=seed, dealer=seed % n, players=NAMES[:n])
        while not game.state.is_over:
            legal = game.legal_actions()
            takes = [a for a in legal if a.kind is ActionKind.TAKE]
            forces = [a for a in legal if a.kind is ActionKind.FORCE]
            game.push((takes or forces or legal)[0] if rng.random() < 0.7 else rng.choice(legal))
        out.append(game)
    return out


@pytest.mark.parametrize("spec", ["mexican", "mexican,num_players=4"])
def test_every_position_names_the_owner_and_the_refuser(spec: str) -> None:
    look = CardLook()
    checked = {"offer": 0, "force": 0, "forced": 0}
    for game in games(spec, 25):
        n = game.rules.num_players
        replay = Game(game.rules, deck=game.deck, dealer=game.dealer, players=NAMES[:n])
        for event in game.history:
            state = replay.state
            me = state.to_act
            obs = replay.observation(me)
            names = Names(NAMES[:n], me=me)
            origin = centre_origin(obs, names)
            said = plain(situation(obs, names, look))
            if state.phase is Phase.OFFER and state.source is not Source.UPCARD:
                assert names.obj(state.owner) in origin, (origin, state.owner)
                assert said.startswith(names.subj(state.owner)), said
                checked["offer"] += 1
            elif state.phase is Phase.FORCE:
                refuser = NAMES[state.offeree]
                assert said.startswith(f"{refuser} refused") and f"Force {refuser}" in said
                assert refuser in origin
                checked["force"] += 1
            elif state.phase is Phase.FORCED:
                assert said.startswith(NAMES[state.owner]), said  # the offerer forced him
                checked["forced"] += 1
            replay.push(event.action)
    assert all(checked.values()), checked


def test_the_move_log_says_who_was_forced_and_hides_exchange_choices() -> None:
    for game in games("mexican", 25):
        history = game.observation(0).history  # as player 0 saw it
        lines = [
            plain(line) for line in describe_events(history, Names(NAMES[:3], me=0), CardLook())
        ]
        assert sum("chose a card to pass on" in line for line in lines) == 2  # Ben's and Cy's
        assert sum(line.startswith("You chose") for line in lines) == 1
        for before, event in zip(game.history, game.history[1:], strict=False):
            if event.action.kind is ActionKind.FORCE:
                forced = "you" if before.player == 0 else NAMES[before.player]
                assert any(f"forced {forced} to take" in line for line in lines), lines


def test_every_other_player_pays_the_winner() -> None:
    names = Names(NAMES[:3], me=1)
    said = [
        plain(line)
        for line in payment_lines(
            Outcome(2, Termination.OUT), 3, Scoring.STAKE, names, match_over=False, next_value=1
        )
    ]
    assert said == ["Ana pays Cy 3.", "You pay Cy 3."]
    four = Names(NAMES, me=None)
    paid = payment_lines(
        Outcome(0, Termination.OUT), 1, Scoring.STAKE, four, match_over=True, next_value=1
    )
    assert [plain(line) for line in paid] == [
        "Ben pays Ana 1.",
        "Cy pays Ana 1.",
        "Dee pays Ana 1.",
    ]


def test_the_outcome_shows_every_hand_it_is_given() -> None:
    lines = outcome_lines(
        Outcome(None, Termination.STOCK_EXHAUSTED),
        ((), (), ()),
        (0b1, 0, 0b10),
        Names(NAMES[:3], me=0),
        CardLook(),
    )
    text = [plain(line) for line in lines]
    assert text[0].startswith("Drawn")
    assert any(t.strip().startswith("Your hand still held") for t in text)
    assert any(t.strip().startswith("Cy's hand still held") for t in text)
    assert not any("Ben's" in t for t in text)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_exchange_says_what_you_received_and_from_whom(players: int) -> None:
    """NEWCOMER-ES F6: once every player has chosen, each player's log says who passed him
    which card (the card his neighbour before him chose), and his hand marks it until he
    moves; nobody is told what another seat chose or received."""
    names = tuple(f"P{p}" for p in range(players))
    game = Game(f"mexican,num_players={players}", seed=8, players=names)
    rng = random.Random(8)
    while game.state.phase is Phase.EXCHANGE:
        game.push(rng.choice(game.legal_actions()))
    chosen = {p: game.observation(p).passed for p in range(players)}
    for me in range(players):
        obs = game.observation(me)
        giver = (me - 1) % players
        assert obs.received == chosen[giver] >= 0
        look = CardLook(deck=game.rules.deck_style)
        lines = [
            plain(line)
            for line in describe_events(
                obs.history, Names(names, me=me), look, game.rules.cards_to_win, obs.received
            )
        ]
        told = [line for line in lines if "passed you" in line]
        assert told == [f"P{giver} passed you {look.label(obs.received)}"]
        others = {look.label(chosen[p]) for p in range(players) if p not in (me, giver)}
        assert not any(label in line for line in lines for label in others)
        board = Board(
            obs=obs,
            names=Names(names, me=me),
            labels=names,
            hands=tuple(obs.hand_mask if p == me else None for p in range(players)),
            bottom=me,
        )
        marked = [
            span for line in board_lines(board, look) for span in line if "underline" in span.style
        ]
        assert [span.card for span in marked] == [obs.received]  # nobody has moved since
