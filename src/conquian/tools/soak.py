"""Soak test: random legal deals with every invariant checked at every step.

``conquian soak --games N`` plays ``N`` deals with random (and partly greedy) legal
moves and checks, before the first action and after each one:

* ``validate``: :meth:`GameState.validate` accepts the position;
* ``conservation``: the 40 cards are each in exactly one place (both hands, both
  tables, the dead pile, the centre, the unturned stock);
* ``counts``: hand + table is ``hand_size`` for each player (one more for the player
  who must discard or has gone out);
* ``tables``: every table is a partition into melds, by a meld definition of this
  module's own (3-4 of a rank, or 3 to ``max_seq_len`` consecutive cards of a suit);
* ``phase``: legal actions exist exactly while the deal is not over, without
  duplicates; the centre card agrees with the phase; the outcome agrees with the
  position (a win by going out, or an exhausted stock);
* ``monotone``: table cards never leave the tables, the dead pile only grows, the
  stock is only turned forwards;
* ``legal``: every legal action applies to a copy, leaving the original unchanged,
  and gives a valid position;
* ``illegal``: a sample of illegal actions is refused with an
  :class:`~conquian.errors.IllegalActionError` and changes nothing (state, history);
* ``action_text``: every legal action's text reads back as the same action
  (``Action.parse``), and one of them through ``parse_action(state, text)``;
* ``position``: the position string reads back to the same position with the same
  legal actions;
* ``leak``: each player's observation (with the history, and as JSON) is unchanged
  when the cards hidden from him are dealt again, shows no hidden card, and reads
  back through ``Observation.from_dict``; the new public event names no hidden card;
* ``length``: the deal ends within :data:`MAX_ACTIONS` actions;

and, once the deal is over, ``record``: its game record (and each player's redacted
record) is written, read back and replayed to the same end.

Game ``i`` of a run uses rules ``specs[i % len(specs)]`` and seed ``seed + i``; the seed
alone chooses the deck, dealer, stake and every move, so a failure is reproduced by
``conquian soak --games 1 --rules SPEC --seed GAME_SEED``.

>>> result = run_soak(4, ["standard", "wikipedia"], seed=1)
>>> result.games, result.failures, result.games_by_rules
(4, {}, {'standard': 2, 'wikipedia': 2})
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, ActionKind
from ..cards import ALL_CARDS_MASK, CARDS, NUM_CARDS, NUM_RANKS, SUIT_MASKS
from ..errors import ConquianError, GameOverError, IllegalActionError
from ..game import Game
from ..melds import partition_mask
from ..notation import format_position, parse_action, parse_position
from ..observation import Observation, observe
from ..records import GameRecord, format_result
from ..rules import PRESETS, Exhaustion, Rules, find_rules
from ..state import GameState, Phase, Source, Termination
from .arena import run_parallel

MAX_ACTIONS = 400
"""A deal that has not ended after this many actions is a failure (real deals take < 100)."""
GREEDS = (0.0, 0.7, 1.0)
"""How often a game takes the biggest take on offer; chosen per game from its seed."""
KEEP_FAILURES = 20
"""How many failures (the first ones) a run keeps with their details."""
STEP_CHECKS = (
    "validate",
    "conservation",
    "counts",
    "tables",
    "phase",
    "monotone",
    "legal",
    "illegal",
    "action_text",
    "position",
    "leak",
    "length",
)
"""The checks made at every step, in order."""
END_CHECKS = ("record",)
"""The checks made once a deal is over."""


class CheckFailed(AssertionError):
    """An invariant that does not hold."""


def _require(condition: object, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


# ------------------------------------------------------------------ results


@dataclass(frozen=True)
class Failure:
    """One failed check: which, where, and how to reproduce it."""

    kind: str
    rules: str
    seed: int
    action: int
    """How many actions had been played when the check failed."""
    position: str
    message: str

    @property
    def reproduce(self) -> str:
        return f"conquian soak --games 1 --rules {self.rules} --seed {self.seed}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "rules": self.rules,
            "seed": self.seed,
            "action": self.action,
            "position": self.position,
            "message": self.message,
            "reproduce": self.reproduce,
        }


@dataclass
class SoakResult:
    """The counts of a soak run (or of one chunk of it)."""

    games: int = 0
    actions: int = 0
    steps: int = 0
    """Positions checked (each game's deal and every position after an action)."""
    failures: dict[str, int] = field(default_factory=dict)
    """Failed checks by kind (at most one per game: a game stops at its first failure)."""
    first_failures: list[Failure] = field(default_factory=list)
    games_by_rules: dict[str, int] = field(default_factory=dict)
    endings: dict[str, int] = field(default_factory=dict)
    """``p0 wins: out``, ``draw: stock_exhausted``, ... over all finished games."""
    longest: int = 0
    """The most actions in one deal."""
    elapsed_s: float = 0.0
    jobs: int = 1
    seed: int = 0
    rules: tuple[str, ...] = ()
    games_requested: int = 0
    interrupted: bool = False

    @property
    def failed(self) -> int:
        return sum(self.failures.values())

    @property
    def games_per_s(self) -> float:
        return self.games / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def add(self, other: SoakResult) -> None:
        self.games += other.games
        self.actions += other.actions
        self.steps += other.steps
        for target, source in (
            (self.failures, other.failures),
            (self.games_by_rules, other.games_by_rules),
            (self.endings, other.endings),
        ):
            for key, count in source.items():
                target[key] = target.get(key, 0) + count
        room = KEEP_FAILURES - len(self.first_failures)
        self.first_failures += other.first_failures[: max(room, 0)]
        self.longest = max(self.longest, other.longest)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "games_requested": self.games_requested,
            "actions": self.actions,
            "positions_checked": self.steps,
            "failed": self.failed,
            "failures": dict(sorted(self.failures.items())),
            "first_failures": [f.to_dict() for f in self.first_failures],
            "games_by_rules": self.games_by_rules,
            "endings": dict(sorted(self.endings.items())),
            "longest_deal": self.longest,
            "elapsed_s": round(self.elapsed_s, 3),
            "games_per_s": round(self.games_per_s, 1),
            "jobs": self.jobs,
            "seed": self.seed,
            "rules": list(self.rules),
            "step_checks": list(STEP_CHECKS),
            "end_checks": list(END_CHECKS),
            "interrupted": self.interrupted,
        }


# ------------------------------------------------------------------- checks


def unturned_mask(state: GameState) -> int:
    mask = 0
    for index in state.stock[state.stock_pos :]:
        mask |= 1 << index
    return mask


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Every field of a state that play can change (cheap to take and compare)."""
    return (
        state.phase,
        state.to_act,
        state.dealer,
        state.hands,
        state.tables,
        state.table_masks,
        state.centre,
        state.source,
        state.dead_mask,
        state.stock,
        state.stock_pos,
        state.winner,
        state.termination,
        state.stake,
    )


def is_meld(mask: int, max_seq_len: int) -> bool:
    """A meld by this module's own definition: 3-4 cards of one rank, or 3 to
    ``max_seq_len`` cards of one suit in consecutive ranks (7 next to J, no wrap)."""
    count = mask.bit_count()
    if count < 3:
        return False
    ranks = {i % NUM_RANKS for i in range(NUM_CARDS) if mask >> i & 1}
    if len(ranks) == 1:
        return count <= 4
    if count > max_seq_len or not any(mask & ~suit == 0 for suit in SUIT_MASKS):
        return False
    low = (mask & -mask).bit_length() - 1
    run = mask >> low
    return run & (run + 1) == 0  # the bits are consecutive


def check_conservation(state: GameState) -> None:
    places = [
        *state.hands,
        *state.table_masks,
        state.dead_mask,
        1 << state.centre if state.centre >= 0 else 0,
        unturned_mask(state),
    ]
    seen = 0
    for mask in places:
        _require(not mask & seen, f"a card is in two places: {mask & seen:#x}")
        seen |= mask
    _require(seen == ALL_CARDS_MASK, f"cards lost: {~seen & ALL_CARDS_MASK:#x}")
    _require(
        len(set(state.stock)) == len(state.stock) and 0 <= state.stock_pos <= len(state.stock),
        "the stock repeats a card or its position is outside it",
    )


def check_counts(state: GameState) -> None:
    size = state.rules.hand_size
    _require(len(state.hands) == state.rules.num_players, "a hand per player")
    out = state.phase is Phase.OVER and state.termination is Termination.OUT
    if state.rules.layoff_on_opponent:  # a layoff moves a card to another player's table
        held = zip(state.hands, state.table_masks, strict=True)
        total = sum(h.bit_count() + t.bit_count() for h, t in held)
        extra = int(state.phase is Phase.DISCARD or out)
        _require(total == len(state.hands) * size + extra, f"the players hold {total} cards")
        if out and state.winner is not None:
            _require(state.hands[state.winner] == 0, f"winner p{state.winner} holds hand cards")
        return
    for p in range(len(state.hands)):
        count = state.hands[p].bit_count() + state.table_masks[p].bit_count()
        if state.phase is Phase.OVER and state.winner == p and state.termination is Termination.OUT:
            _require(count == size + 1 and state.hands[p] == 0, f"winner p{p} holds {count}")
        elif state.phase is Phase.DISCARD and p == state.to_act:
            _require(count == size + 1, f"p{p} must discard but holds {count}")
        else:
            _require(count == size, f"p{p} holds {count} cards, not {size}")


def check_tables(state: GameState) -> None:
    for p in range(len(state.tables)):
        union = 0
        table = state.tables[p]
        _require(table == tuple(sorted(table)), f"p{p}'s table is not sorted")
        for meld in table:
            _require(is_meld(meld, state.rules.max_seq_len), f"p{p} has a non-meld {meld:#x}")
            _require(meld in state.melds.valid, f"the engine's meld table lacks {meld:#x}")
            _require(not meld & union, f"p{p}'s melds share a card")
            union |= meld
        _require(union == state.table_masks[p], f"p{p}'s table mask is not its melds")


def check_phase(state: GameState) -> None:
    legal = state.legal_actions()
    _require((len(legal) == 0) == state.is_over, "legal actions while over, or none in play")
    _require(len(set(legal)) == len(legal), "duplicate legal actions")
    if state.phase in (Phase.OFFER, Phase.TURN, Phase.FORCE, Phase.FORCED):
        _require(state.centre >= 0 and state.source is not Source.NONE, "no centre card")
        if state.source is not Source.UPCARD:
            _require(
                state.offeree != state.owner or state.source is Source.TURNED,
                "a paid or passed card offered back to its owner",
            )
    else:
        _require(state.centre == -1 and state.source is Source.NONE, "a stray centre card")
    if state.phase is Phase.TURN:
        _require(state.source is Source.TURNED, "phase turn without a turned card")
    outcome = state.outcome()
    if state.phase is not Phase.OVER:
        _require(outcome is None, "an outcome while the deal goes on")
        return
    _require(outcome is not None, "a finished deal without an outcome")
    assert outcome is not None
    if outcome.termination is Termination.OUT:
        _require(outcome.winner is not None, "out without a winner")
        assert outcome.winner is not None
        melded = state.table_masks[outcome.winner].bit_count()
        if state.rules.layoff_on_opponent:  # layoffs change how many a table holds
            _require(not state.hands[outcome.winner], "the winner holds hand cards")
        else:
            _require(melded == state.rules.cards_to_win, f"the winner melded {melded} cards")
    else:
        _require(state.stock_count == 0, "stock exhausted with cards in the stock")
        counts = [h.bit_count() for h in state.hands]
        fewest = min(counts)
        if state.rules.exhaustion is Exhaustion.DRAW or counts.count(fewest) > 1:
            _require(outcome.winner is None, "an exhausted stock must be a draw here")
        else:
            _require(outcome.winner == counts.index(fewest), "the fewest hand cards must win")


def check_monotone(before: GameState | None, state: GameState) -> None:
    if before is None:
        return
    for p in range(len(state.tables)):
        _require(not before.table_masks[p] & ~state.table_masks[p], f"a card left p{p}'s table")
    _require(not before.dead_mask & ~state.dead_mask, "a card left the dead pile")
    _require(state.stock_pos >= before.stock_pos, "the stock went backwards")
    _require(state.stock == before.stock, "the stock order changed")


def check_legal(state: GameState) -> None:
    before = snapshot(state)
    for action in state.legal_actions():
        _require(state.is_legal(action), f"{action} is listed but not is_legal")
        child = state.copy()
        child.apply(action)
        _require(snapshot(state) == before, f"applying {action} to a copy changed the original")
        child.validate()
        check_conservation(child)
        check_counts(child)


def illegal_candidates(state: GameState, rng: random.Random) -> list[Action]:
    """A few actions, most of them illegal here (the legal ones are skipped)."""
    p = state.to_act
    not_in_hand = [i for i in range(NUM_CARDS) if not state.hands[p] >> i & 1]
    melds = state.melds.melds
    kind = rng.choice((ActionKind.DECLINE, ActionKind.PASS, ActionKind.FORCE, ActionKind.NO_FORCE))
    exchange = (
        [Action(ActionKind.EXCHANGE, rng.choice(not_in_hand))]
        if state.rules.exchange_one_card  # (drawn only then: two-player soaks stay as they were)
        else []
    )
    return [
        Action.discard(rng.choice(not_in_hand)),
        *exchange,
        Action.take(state.tables[p]),  # the old table, without the centre card
        Action.take((rng.choice(melds),)),
        Action(kind),
    ]


def check_illegal(game: Game, rng: random.Random) -> None:
    state = game.state
    before = snapshot(state)
    legal = set(state.legal_actions())
    history = len(game.history)
    for action in illegal_candidates(state, rng):
        if action in legal:
            continue
        try:
            game.push(action)
        except IllegalActionError as exc:
            _require(str(exc), f"refusing {action} gives an empty message")
            _require(not state.is_over or isinstance(exc, GameOverError), "not GameOverError")
        else:
            raise CheckFailed(f"the illegal {action} was accepted")
        _require(game.state is state and snapshot(state) == before, f"refused {action} changed it")
        _require(len(game.history) == history, f"refused {action} changed the history")
    for text in ("grab", "take Zz", "discard"):
        try:
            game.push_text(text)
        except ConquianError:
            pass
        else:
            raise CheckFailed(f"the text {text!r} was accepted")
        _require(snapshot(state) == before, f"refused text {text!r} changed the state")


def check_action_text(state: GameState, rng: random.Random) -> None:
    legal = state.legal_actions()
    for action in legal:
        text = str(action)
        _require(Action.parse(text) == action, f"{text!r} does not read back")
    if legal:
        action = rng.choice(legal)
        text = str(action)
        spaced = f"  {text.upper()}  " if rng.random() < 0.5 else text
        _require(parse_action(state, spaced) == action, f"parse_action misreads {spaced!r}")


def check_position(state: GameState, text: str) -> None:
    parsed = parse_position(text)
    _require(format_position(parsed) == text, "the position string does not round-trip")
    _require(parsed.legal_actions() == state.legal_actions(), "parsed: other legal actions")
    _require(parsed.outcome() == state.outcome(), "parsed: another outcome")
    if not state.is_over:
        _require(parsed.to_act == state.to_act, "parsed: another player to act")


_CARD_TOKEN = re.compile(r"[A2-7JQK][shdc]")
"""A card in French labels, as observations write them (also inside ``5c6c7c``)."""
_CARD_INDEX = {str(card): index for index, card in enumerate(CARDS)}


def check_leak(game: Game, rng: random.Random) -> None:
    state = game.state
    history = tuple(game.history)
    unturned = unturned_mask(state)
    n = len(state.hands)
    if history and history[-1].action.kind is not ActionKind.EXCHANGE:
        # the newest public event names public cards only (an exchange choice is private)
        event = history[-1]
        named = partition_mask(event.action.melds)
        if event.card >= 0:
            named |= 1 << event.card
        if event.action.card >= 0:
            named |= 1 << event.action.card
        hidden_now = unturned
        for hand in state.hands:
            hidden_now |= hand
        _require(not named & hidden_now, f"the event {event} names a hidden card")
    for player in range(n):
        obs = observe(state, player, history)
        hidden = unturned
        for other in range(n):
            if other != player:
                hidden |= state.hands[other]
        if state.exchange and state.phase is not Phase.EXCHANGE:  # he knows where it went
            hidden &= ~(1 << state.exchange[player])
        for event in obs.history:
            if event.action.kind is ActionKind.EXCHANGE and event.player != player:
                _require(event.action.card < 0, f"p{player} is shown p{event.player}'s exchange")
        _require(obs.hand_mask == state.hands[player], f"p{player} is shown another hand")
        _require(not obs.seen_mask & hidden, f"p{player} sees a hidden card")
        _require(obs.unknown_mask == hidden, f"p{player}'s unknown cards are not the hidden ones")
        # As JSON, with the newest public event only: each earlier one was scanned when it
        # was the newest, and a card once face up never goes back into a hand or the stock.
        latest = observe(state, player, history[-1:]) if len(history) > 1 else obs
        data = latest.to_dict()
        text = json.dumps(data)
        _require(Observation.from_dict(json.loads(text)) == latest, "the JSON does not read back")
        for token in _CARD_TOKEN.findall(text):  # no key or number reads as a card
            _require(
                not hidden >> _CARD_INDEX[token] & 1,
                f"p{player}'s observation JSON names the hidden {token}",
            )
        redealt = state.redeal(player, rng)
        check_conservation(redealt)
        _require(redealt.hands[player] == state.hands[player], "redeal changed the viewer's hand")
        again = observe(redealt, player, history)
        _require(again == obs, f"p{player}'s observation depends on the hidden cards")


def check_record(game: Game) -> None:
    record = GameRecord.from_game(game, event="soak")
    text = record.dumps()
    loaded = GameRecord.loads(text)
    _require(loaded == record, "the record does not read back equal")
    again = loaded.to_game()
    _require(again.history == game.history, "the replayed history differs")
    _require(
        format_position(again.state) == format_position(game.state), "the replay ends elsewhere"
    )
    _require(loaded.result == format_result(game.state.outcome()), "the result line is wrong")
    final = game.state
    for player in range(len(final.hands)):
        redacted = record.for_player(player)
        shown = {str(CARDS[i]) for i in redacted.deck if i >= 0}
        named = set(_CARD_TOKEN.findall(redacted.dumps().split("deck = ", 1)[1]))
        _require(named <= shown, f"p{player}'s record names hidden {sorted(named - shown)}")
        back = GameRecord.loads(redacted.dumps())
        _require(back.seed is None and back.viewpoint == player, "the redacted record keeps it")
        state = back.to_game().state
        _require(
            (state.tables, state.dead_mask, state.hands[player], state.outcome())
            == (final.tables, final.dead_mask, final.hands[player], final.outcome()),
            f"p{player}'s redacted record replays to another end",
        )


# ------------------------------------------------------------------- playing


def choose(state: GameState, rng: random.Random, greed: float) -> Action:
    legal = state.legal_actions()
    if rng.random() >= greed:
        return rng.choice(legal)
    takes = [a for a in legal if a.kind is ActionKind.TAKE]
    if takes:
        best = max(partition_mask(a.melds).bit_count() for a in takes)
        return rng.choice([a for a in takes if partition_mask(a.melds).bit_count() == best])
    if state.phase is Phase.FORCE:
        return Action(ActionKind.FORCE)
    return rng.choice(legal)


class _GameFailed(Exception):
    def __init__(self, kind: str, exc: BaseException) -> None:
        super().__init__(kind)
        self.kind = kind
        self.exc = exc


def _run(kind: str, check: Callable[[], None]) -> None:
    try:
        check()
    except Exception as exc:  # every exception of a check is a failure of that check
        raise _GameFailed(kind, exc) from exc


def check_step(game: Game, before: GameState | None, rng: random.Random) -> str:
    """Every step check on the game's current position; returns its position string."""
    state = game.state
    _run("validate", state.validate)
    _run("conservation", lambda: check_conservation(state))
    _run("counts", lambda: check_counts(state))
    _run("tables", lambda: check_tables(state))
    _run("phase", lambda: check_phase(state))
    _run("monotone", lambda: check_monotone(before, state))
    _run("legal", lambda: check_legal(state))
    _run("illegal", lambda: check_illegal(game, rng))
    _run("action_text", lambda: check_action_text(state, rng))
    text = format_position(state)
    _run("position", lambda: check_position(state, text))
    _run("leak", lambda: check_leak(game, rng))
    return text


def play_game(spec: str, seed: int, result: SoakResult) -> None:
    """Play and check one game, adding it to ``result``."""
    rules: Rules = find_rules(spec)
    rng = random.Random(seed)
    actions = 0
    game: Game | None = None
    try:
        try:
            game = Game(
                rules,
                seed=rng.randrange(2**32),
                dealer=rng.randrange(rules.num_players),
                stake=rng.randint(1, 4),
            )
        except Exception as exc:
            raise _GameFailed("crash", exc) from exc
        greed = rng.choice(GREEDS)
        before: GameState | None = None
        while True:
            check_step(game, before, rng)
            if game.state.is_over:
                break
            if actions >= MAX_ACTIONS:
                raise _GameFailed("length", CheckFailed(f"no end after {actions} actions"))
            before = game.state.copy()
            try:
                game.push(choose(game.state, rng, greed))
            except Exception as exc:
                raise _GameFailed("crash", exc) from exc
            actions += 1
        final = game
        _run("record", lambda: check_record(final))
        ending = format_result(game.state.outcome())
        result.endings[ending] = result.endings.get(ending, 0) + 1
    except _GameFailed as failed:
        result.failures[failed.kind] = result.failures.get(failed.kind, 0) + 1
        if len(result.first_failures) < KEEP_FAILURES:
            try:
                position = format_position(game.state) if game is not None else "-"
            except Exception as exc:
                position = f"(cannot be written: {type(exc).__name__})"
            message = f"{type(failed.exc).__name__}: {failed.exc}"
            if len(message) > 500:
                message = message[:500] + "..."
            result.first_failures.append(
                Failure(failed.kind, spec, seed, actions, position, message)
            )
    result.games += 1
    result.actions += actions
    result.steps += actions + 1
    result.longest = max(result.longest, actions)
    result.games_by_rules[spec] = result.games_by_rules.get(spec, 0) + 1


def play_chunk(specs: Sequence[str], seed: int, start: int, stop: int) -> SoakResult:
    """Games ``start`` .. ``stop - 1`` of a run."""
    result = SoakResult()
    for index in range(start, stop):
        play_game(specs[index % len(specs)], seed + index, result)
    return result


@dataclass(frozen=True)
class _Chunks:
    """The games of a run, as a player that :func:`conquian.tools.arena.run_parallel`'s
    worker processes play, a chunk at a time (a chunk's result is one :class:`SoakResult`)."""

    specs: tuple[str, ...]
    seed: int

    def player(self) -> _Chunks:
        return self

    def play_deals(self, start: int, stop: int) -> list[SoakResult]:
        return [play_chunk(self.specs, self.seed, start, stop)]

    def close(self, *, now: bool = False) -> None:
        pass


@dataclass
class _Collected:
    """A run's result as :func:`conquian.tools.arena.run_parallel` fills it in."""

    result: SoakResult
    first_deal: int = 0

    @property
    def deals_requested(self) -> int:
        return self.result.games_requested

    @property
    def deals(self) -> int:
        return self.result.games

    @property
    def elapsed_s(self) -> float:
        return self.result.elapsed_s

    @elapsed_s.setter
    def elapsed_s(self, value: float) -> None:
        self.result.elapsed_s = value

    def add(self, parts: Sequence[SoakResult]) -> None:
        for part in parts:
            self.result.add(part)


# ------------------------------------------------------------------- the run


def expand_rules(values: Iterable[str]) -> tuple[str, ...]:
    """Rules specs from ``--rules`` values (``all``: every preset), canonical and unique.

    >>> expand_rules(["all", "standard,forcing=off"])
    ('standard', 'bicycle', 'foster', 'wikipedia', 'mexican', 'standard,forcing=off')

    :raises InvalidRulesError: for a spec that does not read.
    """
    specs: list[str] = []
    for value in values:
        names = list(PRESETS) if value.strip().lower() == "all" else [value]
        for name in names:
            spec = find_rules(name).to_spec()
            if spec not in specs:
                specs.append(spec)
    return tuple(specs) or ("standard",)


ProgressFn = Callable[[SoakResult], None]


def run_soak(
    games: int,
    rules: Sequence[str] = ("standard",),
    *,
    seed: int = 0,
    jobs: int = 1,
    progress: ProgressFn | None = None,
    chunk: int = 0,
) -> SoakResult:
    """Play and check ``games`` games (see the module's docstring).

    With ``jobs > 1`` the games are played in spawned worker processes, so a script must
    call this under ``if __name__ == "__main__":``.  Ctrl-C stops the run: the result
    then holds the games finished so far and ``interrupted`` is set.

    :raises ConquianError: for bad counts or rules.
    """
    if games < 0:
        raise ConquianError(f"--games must not be negative, got {games}.")
    if jobs < 1:
        raise ConquianError(f"--jobs must be at least 1, got {jobs}.")
    specs = expand_rules(rules)
    result = SoakResult(jobs=jobs, seed=seed, rules=specs, games_requested=games)
    size = chunk or max(1, min(50, games // (jobs * 8) or 1))
    started = time.perf_counter()
    try:
        if jobs == 1 or games <= size:
            for start in range(0, games, size):
                result.add(play_chunk(specs, seed, start, min(start + size, games)))
                result.elapsed_s = time.perf_counter() - started
                if progress is not None:
                    progress(result)
        else:
            # a worker that dies (a crash of the compiled build, say) is reported, not
            # waited for
            run_parallel(
                _Chunks(specs, seed),
                _Collected(result),
                jobs,
                started,
                None if progress is None else lambda done, total, _: progress(result),
                size=size,
            )
    except KeyboardInterrupt:
        result.interrupted = True
    result.elapsed_s = time.perf_counter() - started
    return result


def format_soak(result: SoakResult, *, show: int = 10) -> str:
    """The report of a run, as ``conquian soak`` prints it."""
    order = [*result.rules, *(s for s in result.games_by_rules if s not in result.rules)]
    by_rules = ", ".join(
        f"{spec} {result.games_by_rules[spec]:,}" for spec in order if spec in result.games_by_rules
    )
    lines = [
        f"Soak: {result.games:,} games ({by_rules or 'none'}), {result.actions:,} actions, "
        f"{result.steps:,} positions checked",
        f"  seed {result.seed} (game i: seed {result.seed} + i), {result.jobs} "
        f"job{'s' if result.jobs != 1 else ''}, {result.elapsed_s:.1f} s, "
        f"{result.games_per_s:,.1f} games/s",
        f"  checks at every step: {', '.join(STEP_CHECKS)}; at the end: {', '.join(END_CHECKS)}",
        "  endings: "
        + (", ".join(f"{k} {v:,}" for k, v in sorted(result.endings.items())) or "none")
        + f"; longest deal {result.longest} actions",
    ]
    if result.interrupted:
        lines.append(
            f"Interrupted: {result.games:,} of {result.games_requested:,} games played; "
            "the counts are those of the games finished."
        )
    if not result.failures:
        lines.append("Failures: none")
        return "\n".join(lines)
    kinds = ", ".join(f"{kind} {n:,}" for kind, n in sorted(result.failures.items()))
    lines.append(f"Failures: {result.failed:,} games ({kinds})")
    for failure in result.first_failures[:show]:
        lines += [
            f"  {failure.kind}: rules {failure.rules}, seed {failure.seed}, "
            f"after {failure.action} actions: {failure.message}",
            f"    position:  {failure.position}",
            f"    reproduce: {failure.reproduce}",
        ]
    if result.failed > show:
        lines.append(f"  ... and {result.failed - show:,} more")
    return "\n".join(lines)


__all__ = [
    "END_CHECKS",
    "MAX_ACTIONS",
    "STEP_CHECKS",
    "Failure",
    "SoakResult",
    "expand_rules",
    "format_soak",
    "play_game",
    "run_soak",
]
