"""Secrecy checks shared by the web tests: which cards a client must never be sent."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from conquian.cards import CARDS, mask_indices
from conquian.state import GameState
from conquian.web.hub import LiveGame
from conquian.web.store import Store

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([A2-7JQK][shdc])(?![A-Za-z0-9])")


def forbidden_for(state: GameState, seat: int | None) -> set[str]:
    """Cards the client at ``seat`` must never be sent: the other hands and the stock."""
    hidden = 0
    for p in (0, 1):
        if p != seat:
            hidden |= state.hands[p]
    seen = state.dead | state.hands[0] | state.hands[1]
    for p in (0, 1):
        for meld in state.tables[p]:
            seen |= meld
    if state.centre >= 0:
        seen |= 1 << state.centre
    stock = (1 << 40) - 1 & ~seen  # nobody has seen these: they are the stock
    return {str(CARDS[i]) for i in mask_indices(hidden | stock)}


def assert_secret(message: dict[str, Any], game: LiveGame, seat: int | None) -> None:
    """No hidden card of the deal in play (nor of the last finished deal) is in the message.

    ``game`` must be the game as it was when the message was sent.
    """
    now = {k: v for k, v in message.items() if k not in ("_raw", "last")}
    leaked = set(CARD_TOKEN.findall(json.dumps(now))) & forbidden_for(game.game.state, seat)
    assert not leaked, f"seat {seat} was sent hidden cards {sorted(leaked)}"
    if message.get("last") is not None:
        finished = game.finished[-1][0].state
        text = json.dumps(message["last"])
        leaked = set(CARD_TOKEN.findall(text)) & forbidden_for(finished, seat)
        assert not leaked, f"seat {seat} was sent hidden cards of the last deal {sorted(leaked)}"
    raw = message.get("_raw") or json.dumps(message)
    seeds = {str(game.match.seed), str(game.bot_seed), str(game.game.seed)}
    assert not any(s in raw for s in seeds), "a seed reached a client"
    if seat is None:
        assert "hand" not in message["obs"]


def check_wire(db: Path, received: Iterable[tuple[int | None, str]]) -> int:
    """Check messages captured on the wire against the true games rebuilt from the database.

    ``received`` holds (seat, raw text) pairs; every state message is checked against
    its game as it was after the message's number of actions.  Returns how many were.
    """
    store = Store(f"sqlite:///{db}")
    games: dict[tuple[str, int], LiveGame] = {}
    loaded: dict[str, Any] = {}
    checked = 0
    try:
        for seat, raw in received:
            message = json.loads(raw)
            if message.get("type") != "state":
                continue
            game_id, seq = message["game"]["id"], message["seq"]
            if game_id not in loaded:
                loaded[game_id] = store.load(game_id)
                assert loaded[game_id] is not None, game_id
            row, actions = loaded[game_id]
            key = (game_id, seq)
            if key not in games:
                games[key] = LiveGame(row, actions[:seq])
            assert message["seat"] == seat
            assert_secret({**message, "_raw": raw}, games[key], seat)
            checked += 1
    finally:
        store.close()
    return checked
