"""The public view of a position (a spectator's, a record's public part), a seat's own part, and
events as data.

The public view is every seat's observation with the private parts taken away, and it names
no card of any hand nor of the stock; each event written as data reads back as the same event.
"""

from __future__ import annotations

import random

import pytest

from conquian import Game, PublicView, observe, observe_public
from conquian.cards import CARDS, mask_indices
from conquian.errors import InvalidNotationError
from conquian.observation import read_public_event, seat_part
from conquian.rules import find_rules

PRESETS = ["standard", "bicycle", "foster", "wikipedia", "mexican", "mexican,num_players=4"]
PRIVATE = {"hand", "legal_actions", "exchange", "player"}


def hidden_labels(game: Game) -> set[str]:
    """The cards nobody may see: every hand and the stock."""
    state = game.state
    face_up = state.dead_mask | (1 << state.centre if state.centre >= 0 else 0)
    for table in state.tables:
        for meld in table:
            face_up |= meld
    hidden = ((1 << 40) - 1) & ~face_up
    return {str(CARDS[i]) for i in mask_indices(hidden)}


@pytest.mark.parametrize("spec", PRESETS)
def test_the_public_view_is_every_seats_view_without_its_private_parts(spec: str) -> None:
    rng = random.Random(7)
    game = Game(find_rules(spec), seed=7)
    checked = 0
    while True:
        public = game.public_view()
        assert isinstance(public, PublicView)
        data = public.to_dict()
        assert data["player"] is None and not PRIVATE - {"player"} & set(data)
        for seat in range(game.rules.num_players):
            seat_view = game.observation(seat).to_dict()
            expected = {k: v for k, v in seat_view.items() if k not in PRIVATE}
            expected["history"] = [str(e.seen_by(-1)) for e in game.history]
            assert {k: v for k, v in data.items() if k != "player"} == expected
            # the public part and the seat's own part make up the seat's whole view
            whole = {**data, **seat_part(game.state, seat), "history": seat_view["history"]}
            assert whole == seat_view
        text = repr(data)
        shown = {label for label in hidden_labels(game) if f"'{label}'" in text}
        assert not shown, f"the public view shows hidden cards {sorted(shown)}"
        assert observe_public(game.state).history == ()  # no history unless given
        checked += 1
        if game.state.is_over:
            break
        game.push(rng.choice(game.legal_actions()))
    assert checked > 10


def test_an_exchange_choice_is_public_only_to_its_player() -> None:
    rules = find_rules("mexican")
    game = Game(rules, seed=3)
    game.push(game.legal_actions()[0])  # the first player's exchange choice
    [event] = game.history
    assert event.action.card >= 0
    assert observe_public(game.state, tuple(game.history)).history[0].action.card == -1
    assert observe(game.state, event.player, tuple(game.history)).history[0] == event
    assert event.seen_by(-1).to_dict() == {"player": event.player, "verb": "exchange", "card": None}


@pytest.mark.parametrize("spec", PRESETS)
def test_every_event_reads_back_from_its_data(spec: str) -> None:
    rng = random.Random(5)
    game = Game(find_rules(spec), seed=5)
    while not game.state.is_over:
        game.push(rng.choice(game.legal_actions()))
    n = game.rules.num_players
    assert game.history
    for event in game.history:
        for seen in (event, event.seen_by(-1)):
            data = seen.to_dict()
            assert read_public_event(data, n) == seen
            assert data["verb"] == str(seen).split()[1]


@pytest.mark.parametrize(
    "data",
    [
        {"player": 5, "verb": "take", "card": "Kh"},
        {"player": 0, "verb": "steal", "card": "Kh"},
        {"player": 0, "verb": "discard", "card": None},
        {"player": 0, "verb": "take", "card": "Kh", "source": "d"},
        {"player": 0, "verb": "decline", "card": "Zz", "source": "d"},
        {"player": True, "verb": "decline", "card": "Kh", "source": "d"},
        {"player": 0, "verb": "decline", "card": "Kh", "source": "d", "owner": True},
        {"player": 0, "verb": "decline", "card": "Kh", "source": "d", "owner": 7},
        {"player": 0, "verb": "decline", "card": "Kh", "source": "?"},
        ["p0", "decline"],
    ],
)
def test_a_bad_event_is_refused_with_a_reason(data: object) -> None:
    with pytest.raises(InvalidNotationError):
        read_public_event(data, 2)  # type: ignore[arg-type]
