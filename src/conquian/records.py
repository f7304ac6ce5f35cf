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
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from .actions import Action, ActionKind
from .cards import CARDS, NUM_CARDS, format_mask, iter_card_tokens, parse_cards_mask
from .errors import ConquianError, InvalidNotationError, RecordError
from .fair import MAX_CLIENT_SEED_BYTES, FairnessError, FairShuffle
from .game import Game
from .match import Match
from .observation import COUNT_WORDS
from .rules import MAX_STAKE, find_rules
from .state import GameState, Outcome

FORMAT = "conquian-record/1"
HIDDEN = "??"
MAX_SEED = 2**128
"""A seed in a record lies strictly between ``-MAX_SEED`` and ``MAX_SEED`` (128 bits)."""
MAX_BALANCE = 2**128
"""A balance in a match record lies strictly between ``-MAX_BALANCE`` and ``MAX_BALANCE``."""


_HIDDEN_EXCHANGE = re.compile(r"p([0-9]) exchange \?\?")
"""Another player's exchange choice in a redacted record."""


def format_action_line(player: int, action: Action) -> str:
    """An action as a record writes it: ``p1 take 5h5d5c``."""
    return f"p{player} {action}"


def parse_action_line(line: str) -> tuple[int, Action]:
    """Read a record's action line back: the player and the action.

    >>> parse_action_line("p1 discard Kh")
    (1, Action.parse('discard Kh'))

    :raises InvalidNotationError: if it is not ``p<player> <action>``.
    """
    player_text, _, action_text = line.strip().partition(" ")
    number = player_text[1:]
    canonical = (
        number.isascii() and number.isdigit() and len(number) <= 9 and str(int(number)) == number
    )
    if not (player_text[:1] == "p" and canonical and action_text):
        raise InvalidNotationError("it must read 'p0 <action>' or 'p1 <action>'")
    return int(number), Action.parse(action_text)


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
    fair: FairShuffle | None = None
    """How the deck was shuffled, when it was shuffled provably fairly (see :mod:`conquian.fair`)."""

    @classmethod
    def from_game(cls, game: Game, /, **meta: str) -> GameRecord:
        """The record of a game so far."""
        return cls(
            rules=game.rules.to_spec(),
            deck=game.deck,
            actions=tuple(format_action_line(e.player, e.action) for e in game.history),
            dealer=game.dealer,
            stake=game.stake,
            players=game.players,
            seed=game.seed,
            result=format_result(game.state.outcome()),
            meta=dict(meta),
            fair=game.fair,
        )

    def verify_shuffle(self) -> None:
        """Check that the deck is the one its fair shuffle's seeds give, and that the revealed
        server seed is the one committed to before the deal.

        :raises RecordError: naming what does not hold (or that the record has no fair shuffle).
        """
        if self.fair is None:
            raise RecordError("The record has no fair shuffle to check (no [fair] entry).")
        if -1 in self.deck:
            raise RecordError("A redacted record hides cards of its deck: it cannot be checked.")
        try:
            self.fair.verify(self.deck, self.dealer, len(self.players))
        except FairnessError as exc:
            raise RecordError(str(exc)) from None

    # ------------------------------------------------------------------ text

    def dumps(self) -> str:
        """The record as TOML text."""
        q = toml_value
        lines = [
            "# Conquian game record",
            f"format = {q(FORMAT)}",
            f"rules = {q(self.rules)}",
            f"players = [{', '.join(q(p) for p in self.players)}]",
            *self._deal_lines(),
        ]
        if self.meta:
            lines.append("")
            lines.append("[meta]")
            lines += _meta_lines(self.meta)
        return "\n".join(lines) + "\n"

    def _deal_lines(self) -> list[str]:
        """The fields of the deal itself (what a match record writes for each deal)."""
        q = toml_value
        lines = []
        if self.seed is not None:
            lines.append(f"seed = {self.seed}")
        lines += [
            f"dealer = {self.dealer}",
            f"stake = {self.stake}",
        ]
        if self.viewpoint is not None:
            lines.append(f"viewpoint = {self.viewpoint}")
        if self.fair is not None:
            lines.append(f"fair = {_fair_text(self.fair)}")
        deck = " ".join(str(CARDS[i]) if i >= 0 else HIDDEN for i in self.deck)
        lines.append(f"deck = {q(deck)}")
        lines.append(f"result = {q(self.result)}")
        lines.append("actions = [")
        lines += [f"  {q(a)}," for a in self.actions]
        lines.append("]")
        return lines

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Read a record.

        :raises RecordError: naming what is wrong.
        """
        return cls.from_dict(_load_toml(text, "record"))

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
        n = find_rules(rules).num_players
        seats = "0 or 1" if n == 2 else f"0 to {n - 1}"
        players = _typed(data, "players", list, [f"player {p}" for p in range(n)])
        if len(players) != n or not all(isinstance(p, str) for p in players):
            raise RecordError(f"'players' must be a list of {COUNT_WORDS[n]} names.")
        dealer = _typed(data, "dealer", int, 0)
        if type(dealer) is not int or not 0 <= dealer < n:
            raise RecordError(f"'dealer' must be {seats}, got {_show(dealer)}.")
        stake = _typed(data, "stake", int, 1)
        if not 1 <= stake <= MAX_STAKE:
            raise RecordError(f"'stake' must be from 1 to {MAX_STAKE}, got {_show(stake)}.")
        viewpoint = data.get("viewpoint")
        if viewpoint is not None and (type(viewpoint) is not int or not 0 <= viewpoint < n):
            raise RecordError(f"'viewpoint' must be {seats}, got {_show(viewpoint)}.")
        seed = _seed(data)
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
            meta=_meta(meta),
            fair=_read_fair(data.get("fair")),
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
        game = self._new_game()
        yield 0, None, game.state.copy()
        for number, action in self._push_actions(game):
            yield number, action, game.state.copy()

    def to_game(self) -> Game:
        """The deal as a :class:`Game`, every action re-checked and in its history.

        >>> game = Game(seed=2)
        >>> game.push(game.legal_actions()[0])
        >>> again = GameRecord.from_game(game).to_game()
        >>> again.history == game.history and again.deck == game.deck
        True

        :raises RecordError: naming the action number and the reason.
        """
        game = self._new_game()
        for _ in self._push_actions(game):
            pass
        return game

    def _new_game(self) -> Game:
        try:
            game = Game(
                self.rules,
                deck=self._full_deck(),
                dealer=self.dealer,
                stake=self.stake,
                players=self.players,
                seed=self.seed if self.viewpoint is None else None,
            )
        except ConquianError as exc:
            raise RecordError(f"The record's deal cannot be set up: {exc}") from None
        game.fair = self.fair
        return game

    def _push_actions(self, game: Game) -> Iterator[tuple[int, Action]]:
        """Play the record's actions on ``game``; yields each number and action once played."""
        for number, line in enumerate(self.actions, start=1):
            try:
                hidden = self.viewpoint is not None and _HIDDEN_EXCHANGE.fullmatch(line.strip())
                if hidden:  # another player's choice, hidden: pass a card hidden here too
                    player = int(hidden.group(1))
                    action = self._stand_in_exchange(game, player)
                else:
                    player, action = parse_action_line(line)
                if player >= len(self.players):
                    seats = " or ".join(f"'p{p} <action>'" for p in range(len(self.players)))
                    raise InvalidNotationError(f"it must read {seats}")
                game.check_player(player)
                game.push(action)
            except ConquianError as exc:
                raise RecordError(
                    f"Action {number} ({_show(line, 100)}): {_reason(exc)}", number
                ) from None
            yield number, action
        actual = format_result(game.state.outcome())
        if self.result not in ("*", actual):
            raise RecordError(f"The record says {self.result!r} but the replay ends {actual!r}.")

    def _stand_in_exchange(self, game: Game, player: int) -> Action:
        """For a redacted record's ``exchange ??``: the lowest card of ``player``'s hand that
        the record hides.  The card really passed was hidden too, so it never showed, and
        neither will this one: the replay sees what the viewer saw."""
        known = 0
        for index in self.deck:
            if index >= 0:
                known |= 1 << index
        unseen = game.state.hands[player] & ~known
        if not unseen:
            raise InvalidNotationError("a hidden exchange needs a hidden card in that hand")
        return Action(ActionKind.EXCHANGE, (unseen & -unseen).bit_length() - 1)

    def replay(self) -> list[GameState]:
        """Every state of the deal, checked (see :meth:`iter_replay`)."""
        return [state for _, _, state in self.iter_replay()]

    def final_state(self) -> GameState:
        """The last state of the replay."""
        return self.replay()[-1]

    def for_player(self, player: int) -> GameRecord:
        """The record as ``player`` may see it: cards never shown to him are ``??``, also in
        another player's exchange choice.

        The seed is dropped (it would reveal the deck).

        :raises RecordError: if the record has no such player.
        """
        if not 0 <= player < len(self.players):
            raise RecordError(
                f"The record has no player p{player}: its players are p0 to "
                f"p{len(self.players) - 1}."
            )
        states = self.replay()
        seen = states[0].hands[player]
        for state in states:
            seen |= state.hands[player] | state.dead_mask
            for mask in state.table_masks:
                seen |= mask
            if state.centre >= 0:
                seen |= 1 << state.centre
        deck = tuple(i if seen >> i & 1 else -1 for i in self._full_deck())
        fair = None if self.fair is None else replace(self.fair, server_seed=None)
        # another player's exchange choice stays hidden unless the card showed later
        actions = tuple(
            f"{line.split()[0]} exchange {HIDDEN}"
            if line.split()[1:2] == ["exchange"]
            and line.split()[0] != f"p{player}"
            and not seen & parse_cards_mask(line.split()[2])
            else line
            for line in self.actions
        )
        return replace(self, deck=deck, seed=None, viewpoint=player, fair=fair, actions=actions)


def _fair_text(fair: FairShuffle) -> str:
    """A fair shuffle as a TOML inline table."""
    q = toml_value
    parts = [f"algorithm = {q(fair.algorithm)}", f"commitment = {q(fair.commitment)}"]
    parts.append(f"client_seeds = [{', '.join(q(c.hex()) for c in fair.client_seeds)}]")
    if fair.server_seed is not None:
        parts.append(f"server_seed = {q(fair.server_seed.hex())}")
    return "{ " + ", ".join(parts) + " }"


def _hex(value: Any, what: str, most: int) -> bytes:
    if not isinstance(value, str) or len(value) > 2 * most:
        raise RecordError(f"'fair' {what} must be hexadecimal text of at most {most} bytes.")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise RecordError(f"'fair' {what} must be hexadecimal text, got {_show(value)}.") from None


def _read_fair(value: Any) -> FairShuffle | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecordError(
            "'fair' must be a table (algorithm, commitment, client_seeds, server_seed)."
        )
    algorithm, published = value.get("algorithm"), value.get("commitment")
    if not isinstance(algorithm, str) or len(algorithm) > 60:
        raise RecordError("'fair' needs the name of its algorithm.")
    if not isinstance(published, str) or len(published) != 64:
        raise RecordError("'fair' needs its commitment: 64 hexadecimal digits (SHA-256).")
    _hex(published, "commitment", 32)
    clients = value.get("client_seeds", [])
    if not isinstance(clients, list) or len(clients) > 8:
        raise RecordError("'fair' client_seeds must be a list of at most 8 seeds.")
    server = value.get("server_seed")
    return FairShuffle(
        commitment=published.lower(),
        client_seeds=tuple(_hex(c, "client seed", MAX_CLIENT_SEED_BYTES) for c in clients),
        server_seed=None if server is None else _hex(server, "server_seed", 32),
        algorithm=algorithm,
    )


def toml_value(value: str | int) -> str:
    """A string (or integer) written as a TOML value, in ASCII. It is JSON's escaping but for
    two things TOML reads otherwise: a character beyond U+FFFF is one ``\\U`` escape (not
    JSON's pair of surrogates), and a lone surrogate, which no UTF-8 file can hold, is
    written as U+FFFD.

    >>> print(toml_value('Ana "la" 🂡'), toml_value(7))
    "Ana \\"la\\" \\U0001F0A1" 7
    """
    text = json.dumps(value)
    if "\\ud" not in text:  # no surrogates written (the common case)
        return text
    assert isinstance(value, str)
    parts = []
    for char in value:
        code = ord(char)
        if code > 0xFFFF:
            parts.append(f"\\U{code:08X}")
        elif 0xD800 <= code <= 0xDFFF:
            parts.append("\\uFFFD")
        else:
            parts.append(json.dumps(char)[1:-1])
    return '"' + "".join(parts) + '"'


def _meta_lines(meta: dict[str, str]) -> list[str]:
    return [f"{k} = {toml_value(v)}" for k, v in sorted(meta.items()) if k.isidentifier()]


def _reason(exc: Exception) -> str:
    text = str(exc)
    return text[:1].lower() + text[1:] if text else type(exc).__name__


def _load_toml(text: str, what: str) -> dict[str, Any]:
    """Parsed TOML; nothing but a :class:`RecordError` for any text.

    :raises RecordError: for text that is not TOML, nests deeper than the parser can go,
        or holds an integer of more digits than Python reads, or a character that is not
        Unicode text (a lone surrogate: TOML is UTF-8, and no record can write it back).
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        raise RecordError(
            f"Not a valid {what} file (TOML): line {line} holds a character that is not "
            "Unicode text."
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RecordError(f"Not a valid {what} file (TOML): {exc}.") from None
    except RecursionError:
        raise RecordError(f"Not a valid {what} file (TOML): it nests too deeply.") from None
    except ValueError as exc:  # an integer of more digits than int() reads
        if "integer string conversion" in str(exc):
            limit = sys.get_int_max_str_digits()
            reason = f"it holds a number of more than {limit} digits"
        else:
            reason = _show(str(exc))
        raise RecordError(f"Not a valid {what} file (TOML): {reason}.") from None


def _show(value: object, limit: int = 60) -> str:
    """A short text of a record's value for a message, whatever its size or depth."""
    if isinstance(value, int) and value.bit_length() > 4 * limit:
        return f"a number of {value.bit_length()} bits"  # too long to show, maybe to write
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        text = type(value).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _meta(meta: dict[str, Any]) -> dict[str, str]:
    """The ``[meta]`` table as text, each value a string (other values written as text).

    :raises RecordError: for a value that cannot be written as text (a number too long,
        nesting too deep).
    """
    texts = {}
    for key, value in meta.items():
        try:
            texts[str(key)] = str(value)
        except (RecursionError, ValueError):
            raise RecordError(
                f"The record's meta field {_show(key)} cannot be read as text."
            ) from None
    return texts


def _seed(data: dict[str, Any]) -> int | None:
    seed = data.get("seed")
    if seed is not None and (type(seed) is not int or not -MAX_SEED < seed < MAX_SEED):
        raise RecordError(f"'seed' must be a whole number of at most 128 bits, got {_show(seed)}.")
    return seed


def _typed(data: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
    if key not in data:
        if default is None:
            raise RecordError(f"The record has no {key!r} field.")
        return default
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"The record's {key!r} must be a {kind.__name__}, got {_show(value)}.")
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
    return GameRecord.loads(_read_text(path))


def _read_text(path: str) -> str:
    """A record file's text.

    :raises RecordError: if it cannot be read as text.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise RecordError(f"Cannot read {path}: {exc.strerror}.") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file.") from None
    return text


__all__ = ["FORMAT", "GameRecord", "format_mask", "format_result", "load_record"]


MATCH_FORMAT = "conquian-match/1"


@dataclass(frozen=True)
class MatchRecord:
    """Everything needed to set a match up again: its rules, seed and players, and every
    deal dealt so far (the finished ones, then the deal in play, if any, with result ``*``).

    A match record is TOML, one ``[[deal]]`` table per deal (the fields of a game
    record; rules and players are the match's)::

        format = "conquian-match/1"
        rules = "standard"
        players = ["You", "Bot (easy)"]
        seed = 17
        balance = [1, -1]       # after the finished deals; checked when read back

        [[deal]]
        seed = 8112046370417186931
        dealer = 1
        ...

    >>> from conquian.match import Match
    >>> match = Match(seed=17, players=("ana", "ben"))
    >>> game = match.new_game()
    >>> while not game.state.is_over:
    ...     game.push(game.legal_actions()[-1])
    >>> _ = match.settle()
    >>> _ = match.new_game().push(match.deal.legal_actions()[0])
    >>> record = MatchRecord.from_match(match)
    >>> again = MatchRecord.loads(record.dumps()).to_match()
    >>> again.balance == match.balance, again.deal.history == match.deal.history
    (True, True)
    """

    rules: str
    players: tuple[str, ...]
    seed: int | None
    deals: tuple[GameRecord, ...]
    balance: tuple[int, ...] | None = None
    """The balance after the finished deals, as written (None: not written)."""
    meta: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_match(cls, match: Match, /, **meta: str) -> MatchRecord:
        """The record of a match so far."""
        return cls(
            rules=match.rules.to_spec(),
            players=match.players,
            seed=match.seed,
            deals=tuple(GameRecord.from_game(game) for game in match.games),
            balance=tuple(match.balance),
            meta=dict(meta),
        )

    def dumps(self) -> str:
        """The record as TOML text."""
        q = toml_value
        lines = [
            "# Conquian match record",
            f"format = {q(MATCH_FORMAT)}",
            f"rules = {q(self.rules)}",
            f"players = [{', '.join(q(p) for p in self.players)}]",
        ]
        if self.seed is not None:
            lines.append(f"seed = {self.seed}")
        if self.balance is not None:
            lines.append(f"balance = [{', '.join(str(b) for b in self.balance)}]")
        if self.meta:
            lines += ["", "[meta]", *_meta_lines(self.meta)]
        for deal in self.deals:
            lines += ["", "[[deal]]", *deal._deal_lines()]
        return "\n".join(lines) + "\n"

    @classmethod
    def loads(cls, text: str) -> MatchRecord:
        """Read a match record.

        :raises RecordError: naming what is wrong.
        """
        return cls.from_dict(_load_toml(text, "match record"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchRecord:
        """A match record from parsed data.

        :raises RecordError: naming the missing or malformed field.
        """
        if data.get("format") != MATCH_FORMAT:
            raise RecordError(f"Not a Conquian match record: format must be {MATCH_FORMAT!r}.")
        deals = data.get("deal", [])
        if not isinstance(deals, list) or not all(isinstance(d, dict) for d in deals):
            raise RecordError("'deal' must be an array of tables ([[deal]]).")
        shared: dict[str, Any] = {k: data[k] for k in ("rules", "players") if k in data}
        records = []
        for number, deal in enumerate(deals, start=1):
            try:
                records.append(GameRecord.from_dict({**deal, **shared, "format": FORMAT}))
            except RecordError as exc:
                raise RecordError(f"Deal {number}: {_reason(exc)}") from None
        if "rules" not in data:
            raise RecordError("The match record has no 'rules' field.")
        rules = _typed(data, "rules", str)
        try:
            find_rules(rules)
        except ConquianError as exc:
            raise RecordError(f"Bad rules in match record: {exc}") from None
        n = find_rules(rules).num_players
        players = _typed(data, "players", list, [f"player {p}" for p in range(n)])
        if len(players) != n or not all(isinstance(p, str) for p in players):
            raise RecordError(f"'players' must be a list of {COUNT_WORDS[n]} names.")
        seed = _seed(data)
        balance = data.get("balance")
        if balance is not None and (
            not isinstance(balance, list)
            or len(balance) != len(players)
            or not all(type(b) is int and -MAX_BALANCE < b < MAX_BALANCE for b in balance)
        ):
            raise RecordError(
                "'balance' must list one whole number per player, each of at most 128 bits."
            )
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("'meta' must be a table.")
        return cls(
            rules=rules,
            players=tuple(players),
            seed=seed,
            deals=tuple(records),
            balance=None if balance is None else tuple(balance),
            meta=_meta(meta),
        )

    def to_match(self) -> Match:
        """The match set up again: every deal replayed with every action re-checked and
        settled in turn; the last deal stays in play if its record is unfinished.

        With a seed, each deal must be the one the match's seed deals (a record cannot
        swap in a deck of its choice); the written balance must be the replayed one.

        :raises RecordError: naming the deal and what is wrong.
        """
        match = Match(self.rules, seed=self.seed, players=self.players)
        if self.seed is None and self.deals:  # nothing to draw the first dealer from
            match.first_dealer = match.dealer = self.deals[0].dealer
        last = len(self.deals)
        for number, deal in enumerate(self.deals, start=1):
            if match.is_over:
                raise RecordError(f"Deal {number}: the match was already over.")
            try:
                if deal.fair is not None:  # the deck is the fair shuffle's, checked once revealed
                    if deal.fair.server_seed is not None:
                        deal.verify_shuffle()
                    game = match.new_game(deal.players, deck=deal._full_deck(), seed=deal.seed)
                elif self.seed is None:  # no seed to check against: the deck is the record's
                    game = match.new_game(deal.players, deck=deal._full_deck(), seed=deal.seed)
                else:
                    game = match.new_game(deal.players)
                game.fair = deal.fair
                if self.seed is not None and deal.fair is None and game.deck != deal.deck:
                    raise RecordError("it was not dealt from this match's seed")
                if (game.dealer, game.stake) != (deal.dealer, deal.stake):
                    raise RecordError(
                        f"its dealer and stake ({deal.dealer}, {deal.stake}) are not the "
                        f"match's ({game.dealer}, {game.stake})"
                    )
                for _ in deal._push_actions(game):
                    pass
                if game.state.is_over:
                    match.settle()
                elif number != last:
                    raise RecordError("it is unfinished, yet another deal follows it")
            except ConquianError as exc:
                raise RecordError(f"Deal {number}: {_reason(exc)}") from None
        if self.balance is not None and tuple(match.balance) != self.balance:
            raise RecordError(
                f"The record says the balance is {list(self.balance)}, "
                f"but its deals give {match.balance}."
            )
        return match


def load_match_record(path: str) -> MatchRecord:
    """Read a match record file.

    :raises RecordError: if it cannot be read or is malformed.
    """
    return MatchRecord.loads(_read_text(path))


def read_any_record(text: str) -> GameRecord | MatchRecord:
    r"""A game or a match record, told apart by its ``format`` field (TOML keeps no order:
    ``format`` may come anywhere).  Nothing is replayed.

    >>> from conquian.match import Match
    >>> text = MatchRecord.from_match(Match(seed=1)).dumps()
    >>> moved = text.replace('format = "conquian-match/1"\n', "") + 'format = "conquian-match/1"\n'
    >>> type(read_any_record(moved)).__name__
    'MatchRecord'

    :raises RecordError: naming what is wrong (for neither format: as a game record).
    """
    data = _load_toml(text, "record")
    if data.get("format") == MATCH_FORMAT:
        return MatchRecord.from_dict(data)
    return GameRecord.from_dict(data)


def load_any_record(path: str) -> GameRecord | MatchRecord:
    """Read a game or a match record file (see :func:`read_any_record`).

    :raises RecordError: if it cannot be read or is malformed.
    """
    return read_any_record(_read_text(path))
