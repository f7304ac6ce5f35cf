"""Game records: save a deal, replay it with every action checked, redact it per player.

A record is a small TOML file::

    format = "conquian-record/1"
    rules = "standard"
    players = ["alice", "greedy"]
    seed = 42                      # optional: the deck below is what counts
    dealer = 0
    stake = 1
    deck = "7h Qs ... Kd"          # 40 cards, top first; ?? marks a hidden card
    result = "p1 wins: out"        # or "draw: stock_exhausted", or "*" if unfinished
    actions = [
      "p1 take 5h5d5c",
      "p1 discard Kh",
    ]

>>> from conquian.game import Game
>>> game = Game(seed=11, players=("a", "b"))
>>> for _ in range(6):
...     game.push(game.legal_actions()[-1])
>>> record = GameRecord.from_game(game)
>>> GameRecord.loads(record.dumps()) == record
True
>>> len(record.replay()) == 7
True
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from .actions import Action
from .cards import CARDS, NUM_CARDS, format_mask, iter_card_tokens
from .errors import ConquianError, RecordError
from .game import Game
from .rules import find_rules
from .state import GameState, Outcome

FORMAT = "conquian-record/1"
HIDDEN = "??"


def format_result(outcome: Outcome | None) -> str:
    """Text of a result: ``p1 wins: out``, ``draw: stock_exhausted`` or ``*``."""
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return f"draw: {outcome.termination.value}"
    return f"p{outcome.winner} wins: {outcome.termination.value}"


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay one deal."""

    rules: str
    deck: tuple[int, ...]
    """The 40 cards, top first; -1 for a card hidden from ``viewpoint``."""
    actions: tuple[str, ...]
    """Each action as ``p<player> <action text>``."""
    dealer: int = 0
    stake: int = 1
    players: tuple[str, ...] = ("player 0", "player 1")
    seed: int | None = None
    result: str = "*"
    viewpoint: int | None = None
    """Set in a redacted record: the player whose view it is."""
    meta: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_game(cls, game: Game, /, **meta: str) -> GameRecord:
        """The record of a game so far."""
        return cls(
            rules=game.rules.to_spec(),
            deck=game.deck,
            actions=tuple(f"p{e.player} {e.action}" for e in game.history),
            dealer=game.dealer,
            stake=game.stake,
            players=game.players,
            seed=game.seed,
            result=format_result(game.state.outcome()),
            meta=dict(meta),
        )

    # ------------------------------------------------------------------ text

    def dumps(self) -> str:
        """The record as TOML text."""
        q = json.dumps
        lines = [
            "# Conquian game record",
            f"format = {q(FORMAT)}",
            f"rules = {q(self.rules)}",
            f"players = [{', '.join(q(p) for p in self.players)}]",
        ]
        if self.seed is not None:
            lines.append(f"seed = {self.seed}")
        lines += [
            f"dealer = {self.dealer}",
            f"stake = {self.stake}",
        ]
        if self.viewpoint is not None:
            lines.append(f"viewpoint = {self.viewpoint}")
        deck = " ".join(str(CARDS[i]) if i >= 0 else HIDDEN for i in self.deck)
        lines.append(f"deck = {q(deck)}")
        lines.append(f"result = {q(self.result)}")
        lines.append("actions = [")
        lines += [f"  {q(a)}," for a in self.actions]
        lines.append("]")
        if self.meta:
            lines.append("")
            lines.append("[meta]")
            lines += [f"{k} = {q(v)}" for k, v in sorted(self.meta.items()) if k.isidentifier()]
        return "\n".join(lines) + "\n"

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Read a record.

        :raises RecordError: naming what is wrong.
        """
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RecordError(f"Not a valid record file (TOML): {exc}.") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        """A record from parsed data.

        :raises RecordError: naming the missing or malformed field.
        """
        if data.get("format") != FORMAT:
            raise RecordError(f"Not a Conquian record: format must be {FORMAT!r}.")
        for key in ("rules", "deck", "actions"):
            if key not in data:
                raise RecordError(f"The record has no {key!r} field.")
        rules = _typed(data, "rules", str)
        try:
            find_rules(rules)
        except ConquianError as exc:
            raise RecordError(f"Bad rules in record: {exc}") from None
        actions = _typed(data, "actions", list)
        if not all(isinstance(a, str) for a in actions):
            raise RecordError("Every action in 'actions' must be a string.")
        players = _typed(data, "players", list, ["player 0", "player 1"])
        if len(players) != 2 or not all(isinstance(p, str) for p in players):
            raise RecordError("'players' must be a list of two names.")
        dealer = _typed(data, "dealer", int, 0)
        if dealer not in (0, 1):
            raise RecordError(f"'dealer' must be 0 or 1, got {dealer}.")
        stake = _typed(data, "stake", int, 1)
        if stake < 1:
            raise RecordError(f"'stake' must be at least 1, got {stake}.")
        viewpoint = data.get("viewpoint")
        if viewpoint is not None and viewpoint not in (0, 1):
            raise RecordError(f"'viewpoint' must be 0 or 1, got {viewpoint!r}.")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError(f"'seed' must be a whole number, got {seed!r}.")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("'meta' must be a table.")
        return cls(
            rules=rules,
            deck=_parse_deck(_typed(data, "deck", str)),
            actions=tuple(actions),
            dealer=dealer,
            stake=stake,
            players=tuple(players),
            seed=seed,
            result=_typed(data, "result", str, "*"),
            viewpoint=viewpoint,
            meta={str(k): str(v) for k, v in meta.items()},
        )

    # ---------------------------------------------------------------- replay

    def _full_deck(self) -> list[int]:
        known = 0
        for index in self.deck:
            if index >= 0:
                known |= 1 << index
        missing = iter([i for i in range(NUM_CARDS) if not known >> i & 1])
        return [i if i >= 0 else next(missing) for i in self.deck]

    def iter_replay(self) -> Iterator[tuple[int, Action | None, GameState]]:
        """Yield ``(number, action, state after it)``, starting with ``(0, None, deal)``.

        Hidden cards of a redacted record are filled with the missing cards; they never
        show, so every action still replays.

        :raises RecordError: naming the action number and the reason.
        """
        try:
            game = Game(
                self.rules,
                deck=self._full_deck(),
                dealer=self.dealer,
                stake=self.stake,
                players=self.players,
            )
        except ConquianError as exc:
            raise RecordError(f"The record's deal cannot be set up: {exc}") from None
        yield 0, None, game.state.copy()
        for number, line in enumerate(self.actions, start=1):
            try:
                player_text, _, action_text = line.strip().partition(" ")
                if not (player_text in ("p0", "p1") and action_text):
                    raise RecordError("it must read 'p0 <action>' or 'p1 <action>'")
                action = Action.parse(action_text)
                game.check_player(int(player_text[1]))
                game.push(action)
            except ConquianError as exc:
                raise RecordError(f"Action {number} ({line!r}): {_reason(exc)}", number) from None
            yield number, action, game.state.copy()
        actual = format_result(game.state.outcome())
        if self.result not in ("*", actual):
            raise RecordError(f"The record says {self.result!r} but the replay ends {actual!r}.")

    def replay(self) -> list[GameState]:
        """Every state of the deal, checked (see :meth:`iter_replay`)."""
        return [state for _, _, state in self.iter_replay()]

    def final_state(self) -> GameState:
        """The last state of the replay."""
        return self.replay()[-1]

    def for_player(self, player: int) -> GameRecord:
        """The record as ``player`` may see it: cards never shown to him are ``??``.

        The seed is dropped (it would reveal the deck).
        """
        states = self.replay()
        seen = states[0].hands[player]
        for state in states:
            seen |= (
                state.hands[player] | state.table_masks[0] | state.table_masks[1] | state.dead_mask
            )
            if state.centre >= 0:
                seen |= 1 << state.centre
        deck = tuple(i if seen >> i & 1 else -1 for i in self._full_deck())
        return replace(self, deck=deck, seed=None, viewpoint=player)


def _reason(exc: Exception) -> str:
    text = str(exc)
    return text[:1].lower() + text[1:] if text else type(exc).__name__


def _typed(data: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
    if key not in data:
        if default is None:
            raise RecordError(f"The record has no {key!r} field.")
        return default
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"The record's {key!r} must be a {kind.__name__}, got {value!r}.")
    return value


def _parse_deck(text: str) -> tuple[int, ...]:
    tokens = text.split()
    if len(tokens) != NUM_CARDS:
        raise RecordError(f"The deck must list 40 cards, it lists {len(tokens)}.")
    deck: list[int] = []
    seen = 0
    for token in tokens:
        if token == HIDDEN:
            deck.append(-1)
            continue
        try:
            found = list(iter_card_tokens(token))
        except ConquianError as exc:
            raise RecordError(f"Bad card in deck: {exc}") from None
        if len(found) != 1:
            raise RecordError(f"Bad card in deck: {token!r}.")
        if seen >> found[0] & 1:
            raise RecordError(f"The deck lists {token} twice.")
        seen |= 1 << found[0]
        deck.append(found[0])
    return tuple(deck)


def load_record(path: str) -> GameRecord:
    """Read a record file.

    :raises RecordError: if it cannot be read or is malformed.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise RecordError(f"Cannot read {path}: {exc.strerror}.") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file.") from None
    return GameRecord.loads(text)


__all__ = ["FORMAT", "GameRecord", "format_mask", "format_result", "load_record"]
