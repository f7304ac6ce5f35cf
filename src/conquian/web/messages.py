"""Every message the server sends a client, typed here, and built from a live match and the
words layer.

============================  ==================================================================
message                       when
============================  ==================================================================
:class:`StateMessage`         after every change of the match, to every connection (with
                              ``ack`` to the client whose move it was)
:class:`HintMessage`          the move the hint bot would make, to the player who asked
:class:`ReviewProgress`       while a review is worked out
:class:`ReviewMessage`        a finished deal's review, to the player who asked
:class:`ErrorMessage`         a request refused (nothing changed), to the client that made it
:class:`Pong`                 the answer to ``ping``
============================  ==================================================================

Words come in the language in use (the caller says which: ``with speaking(code)``).  A line of
words is a list of :data:`Segment`: plain text, and ``{"card": "Kh"}`` for each card it names,
which the browser draws in the deck it shows; nothing here writes a card into text and finds it
again.  A seat's view comes from the core's :func:`~conquian.observation.observe`, a
spectator's from :func:`~conquian.observation.observe_public`, and each move of the deal goes
out as its event (:meth:`~conquian.observation.PublicEvent.to_dict`: player, verb, cards).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict, cast

from ..actions import ActionKind
from ..bots.review import Review
from ..cards import CARDS, mask_labels
from ..errors import IllegalActionError
from ..fair import ALGORITHM
from ..game import Game
from ..observation import Observation, PublicEvent, PublicView, observe, observe_public
from ..present import review as review_words
from ..present.errors import illegal_action_words
from ..present.i18n import current_language
from ..present.spans import CardLook, Line, plain
from ..present.words import (
    DealLog,
    Names,
    centre_origin,
    outcome_lines,
    payment_lines,
    situation,
    take_forms,
)
from ..rules import Rules
from . import words
from .languages import WEB_WORDS
from .live import LiveMatch
from .requests import UserError

_ = WEB_WORDS.gettext

LOOK = CardLook()
"""How the words sent as segments write cards: their text is unused (a card goes out as
``{"card": ...}``), so any look does; this one writes the canonical labels."""


# ------------------------------------------------------------------ the types


class CardItem(TypedDict):
    """A card named in words, as its canonical label (``Kh``)."""

    card: str


Segment = str | CardItem
"""A piece of a line of words: text, or a card."""
Words = list[Segment]
"""A line of words."""


class MatchFacts(TypedDict):
    """Public facts about a match (the ``game`` of a state; ``GET /api/games/ID``)."""

    id: str
    mode: str
    level: str | None
    status: str
    names: list[str]
    kinds: list[str]
    levels: list[str | None]
    joined: list[bool]
    free: int
    by_invitation: bool
    rematch: str | None
    rules: str
    deck: str
    cards_to_win: int
    hints: bool


class Score(TypedDict):
    """The match so far (the ``match`` of a state)."""

    deal: int
    balance: list[int]
    stake: int
    over: bool
    leader: int | None
    scoring: str


class Commitment(TypedDict):
    deal: int
    commitment: str


class NextCommitment(Commitment):
    seeded: list[bool]
    """Which seats have given their seed to this shuffle."""


class Commitments(TypedDict):
    """The commitments published so far (the ``fair`` of a state)."""

    algorithm: str
    current: NotRequired[Commitment]
    next: NotRequired[NextCommitment]


class Event(TypedDict):
    """One move of the deal (see :meth:`~conquian.observation.PublicEvent.to_dict`)."""

    player: int
    verb: str
    card: str | None
    source: NotRequired[str]
    owner: NotRequired[int]
    melds: NotRequired[list[list[str]]]


class Exchange(TypedDict):
    passed: str | None
    received: str | None


class Outcome(TypedDict):
    winner: int | None
    termination: str


class View(TypedDict):
    """A seat's observation, or a spectator's public view (the ``obs`` of a state)."""

    player: int | None
    rules: str
    phase: str
    to_act: int
    dealer: int
    tables: list[list[list[str]]]
    centre: str | None
    centre_source: str | None
    dead: list[str]
    seen: list[str]
    stock_count: int
    hand_counts: list[int]
    stake: int
    legal_actions: list[str]
    """The seat's legal actions while it is to act (otherwise, and for a spectator, none)."""
    history: list[Event]
    outcome: Outcome | None
    hand: NotRequired[list[str]]
    """A seat's own hand (never a spectator's)."""
    exchange: NotRequired[Exchange]
    centre_owner: NotRequired[int | None]
    offeree: NotRequired[int | None]


class Way(TypedDict):
    text: str
    """The action, as it is sent back."""
    melds: list[list[str]]
    """The table it makes."""


class Form(TypedDict):
    """The legal takes (or ways to lay cards and pass) that lay the same hand cards."""

    played: list[str]
    actions: list[Way]


class DealShuffle(TypedDict):
    """A finished deal's shuffle, revealed: anyone may deal the same deck again."""

    algorithm: str
    commitment: str
    server_seed: str
    client_seeds: list[str]
    dealer: int
    hand_size: int
    packet: int
    players: int


class DealEnd(TypedDict):
    """The last finished deal (the ``last`` of a state)."""

    deal: int
    winner: int | None
    termination: str
    value: int
    lines: list[Words]
    tables: list[list[list[str]]]
    hands: list[list[str]]
    """Every hand as the deal ended: public once the deal is over."""
    fair: NotRequired[DealShuffle]


class Invitation(TypedDict):
    seat: int
    code: str


class StateMessage(TypedDict):
    """What one connection may see now."""

    type: Literal["state"]
    game: MatchFacts
    seat: int | None
    obs: View | None
    seq: int
    log: list[Words]
    origin: str
    """Where the centre card came from, in words ("" for none)."""
    situation: Words
    """What the player to act must decide (his own connection only)."""
    takes: list[Form]
    lays: list[Form]
    match: Score
    last: DealEnd | None
    fair: Commitments | None
    ack: NotRequired[Any]
    """The id of the client's own move this state follows."""
    invitations: NotRequired[list[Invitation]]
    """The creator's connection: the invitations of the free seats."""
    log_from: NotRequired[int]
    history_from: NotRequired[int]


class HintMessage(TypedDict):
    type: Literal["hint"]
    seq: int
    action: str
    words: Words
    """The move in words, as the player would type it, with the table it makes."""
    why: str
    why_words: Words
    reason: str
    """The bot's reason in language-neutral tokens."""


class ReviewProgress(TypedDict):
    type: Literal["review_progress"]
    deal: int
    done: int
    total: int
    words: str


class ReviewMessage(TypedDict):
    type: Literal["review"]
    deal: int
    player: int
    rules: str
    samples: int
    seed: int
    decisions: list[dict[str, Any]]
    """Each decision (:meth:`~conquian.bots.review.Decision.to_dict`), the judged ones with
    ``words`` and ``mark_word``."""
    summary: dict[str, Any]
    summary_words: list[Words]


class ErrorMessage(TypedDict):
    type: Literal["error"]
    message: str
    words: NotRequired[Words]
    """The message as segments, when it names cards."""
    id: NotRequired[Any]
    """The id of the message refused."""


class Pong(TypedDict):
    type: Literal["pong"]
    id: Any


ServerMessage = StateMessage | HintMessage | ReviewProgress | ReviewMessage | ErrorMessage | Pong
"""Any message a client is sent."""


# ------------------------------------------------------------------ words as segments


def segments(line: Sequence[Any]) -> Words:
    """A line of words as JSON: plain strings, and ``{"card": "Kh"}`` for each card span.

    >>> from conquian.present.spans import Span
    >>> segments([Span("take "), Span("5♥", "bold", 14), Span(" now")])
    ['take ', {'card': '5h'}, ' now']
    """
    out: Words = []
    for span in line:
        if span.card is not None:
            out.append({"card": _LABELS[span.card]})
        elif out and isinstance(out[-1], str):
            out[-1] += span.text
        elif span.text:
            out.append(span.text)
    return out


_LABELS = tuple(str(card) for card in CARDS)


def error(exc: UserError, msg_id: Any = None, *, with_id: bool = False) -> ErrorMessage:
    """The error message of a refused request (``with_id``: it echoes the request's id)."""
    # a message may quote the request, which may hold a lone surrogate ("\ud800"): written
    # out as its escape, since it cannot be UTF-8
    said: ErrorMessage = {"type": "error", "message": str(exc)}
    if exc.words is not None:
        said["words"] = exc.words
    if with_id:
        said["id"] = msg_id
    return said


def refusal(exc: IllegalActionError, names: Names, look: CardLook) -> UserError:
    """An action the engine refused, in words for ``names.me``, its cards written as ``look``
    writes them (the rules' deck) and as segments (for the deck the browser shows)."""
    line = illegal_action_words(exc, names, look)
    return UserError(plain(line), words=segments(line))


# ------------------------------------------------------------------ one match's views


@dataclass(eq=False)
class _KeptLog:
    """The moves of a deal as one viewer saw them, in one language (see :meth:`Views.state`)."""

    game: Game
    names: tuple[str, ...]
    log: DealLog
    last: PublicEvent | None = None
    """The deal's last event described (the game's own object)."""
    events: list[Event] = field(default_factory=list)
    items: list[Words] = field(default_factory=list)


class Views:
    """The state messages of one match, and what they are made of, kept between messages:
    the names in each language, the deal's log as each viewer saw it (extended by the moves
    made since the last message, rather than written again from the start of the deal), and
    the end of the last deal."""

    def __init__(self, live: LiveMatch) -> None:
        self.live = live
        self._shown: dict[Any, tuple[str, ...]] = {}
        self._logs: dict[tuple[int | None, str], _KeptLog] = {}
        self._last: dict[Any, DealEnd | None] = {}

    def shown_names(self) -> tuple[str, ...]:
        """The players' names in the language in use (:func:`.words.shown_names`)."""
        live = self.live
        key = (current_language(), tuple(live.seats), live.level)
        found = self._shown.get(key)
        if found is None:
            found = tuple(
                words.shown_names([(s.kind, s.name, live.level_of(s.seat)) for s in live.seats])
            )
            if len(self._shown) > 16:
                self._shown.clear()
            self._shown[key] = found
        return found

    @property
    def look(self) -> CardLook:
        """How cards are written in words sent as text (errors): with the labels of the
        rules' deck, as the browser shows them by default."""
        return CardLook(deck=self.live.rules.deck_style)

    def summary(self) -> MatchFacts:
        """Public facts about the match (the names in the language in use)."""
        live = self.live
        return {
            "id": live.id,
            "mode": live.mode,
            "level": live.level,
            "status": live.status,
            "names": list(self.shown_names()),
            "kinds": [s.kind for s in live.seats],
            "levels": [live.level_of(s.seat) for s in live.seats],
            "joined": [s.joined for s in live.seats],
            "free": sum(not s.joined for s in live.seats),
            "by_invitation": live.invite_only and not live.public,
            "rematch": live.rematch_id,
            "rules": live.rules.to_spec(),
            "deck": live.rules.deck_style.value,
            "cards_to_win": live.rules.cards_to_win,
            "hints": live.hints,
        }

    def not_your_turn(self, exc: IllegalActionError, seat: int) -> UserError:
        """A move out of turn, in words (a free seat named "your opponent")."""
        shown = (name or _("your opponent") for name in self.shown_names())
        return refusal(exc, Names(tuple(shown), me=seat), self.look)

    def illegal(self, exc: IllegalActionError, seat: int) -> UserError:
        """A move the engine refused, in words for the player who made it."""
        return refusal(exc, Names(self.shown_names(), me=seat), self.look)

    def _commitments(self) -> Commitments | None:
        """The commitments published so far: of the deal in play, and of the next deal with
        which seats have given their seed."""
        live = self.live
        if not live.fair:
            return None
        out: Commitments = {"algorithm": ALGORITHM}
        game = live.match.deal
        if game is not None and game.fair is not None:
            out["current"] = {"deal": live.match.deal_number, "commitment": game.fair.commitment}
        number = live.collecting
        row = None if number is None else live.shuffles.get(number)
        if row is not None:
            out["next"] = {
                "deal": row.deal,
                "commitment": row.commitment,
                "seeded": [c is not None for c in row.client_seeds],
            }
        return out

    def shared(self) -> Shared:
        """The parts of a state that are the same for every seat and spectator (in the
        language in use): the match's facts, the score and the commitments.  A broadcast
        works them out once for each language and passes them to :meth:`state`."""
        live = self.live
        match = live.match
        over = match.is_over
        score: Score = {
            "deal": 0 if not live.dealt else len(match.results) if over else live.deal_number,
            "balance": list(match.balance),
            "stake": live.game.state.stake if live.dealt else match.deal_value(),
            "over": live.dealt and over,
            "leader": match.leader if live.dealt else None,
            "scoring": live.rules.scoring.value,
        }
        return Shared(self.summary(), score, self._commitments())

    def state(self, seat: int | None, shared: Shared | None = None) -> StateMessage:
        """Everything the client at ``seat`` (None: a spectator) may see now, its words in
        the language in use; ``shared``: :meth:`shared`, if the caller has it already."""
        live = self.live
        if shared is None:
            shared = self.shared()
        if not live.dealt:
            return {
                "type": "state",
                "game": shared.facts,
                "seat": seat,
                "obs": None,
                "seq": live.seq,
                "log": [],
                "origin": "",
                "situation": [],
                "takes": [],
                "lays": [],
                "match": shared.score,
                "last": None,
                "fair": shared.commitments,
            }
        names = Names(self.shown_names(), me=seat)
        game = live.game
        obs: Observation | None = None
        seen: Observation | PublicView
        if seat is None:
            seen = observe_public(game.state)  # the history: below, as kept
            data = seen.to_dict()
            data["legal_actions"] = []
        else:
            obs = seen = observe(game.state, seat)
            data = obs.to_dict()
            if not (obs.my_turn and live.ready and not shared.score["over"]):
                obs = None  # not to act: no legal action, no situation
                data["legal_actions"] = []
        data["history"], log = self._deal_so_far(seat, names)
        return {
            "type": "state",
            "game": shared.facts,
            "seat": seat,
            "obs": cast(View, data),
            "seq": live.seq,
            "log": log,
            "origin": centre_origin(seen, names) if seen.centre >= 0 else "",
            "situation": [] if obs is None else segments(situation(obs, names, LOOK)),
            "takes": [] if obs is None else _forms(obs, ActionKind.TAKE),
            "lays": [] if obs is None else _forms(obs, ActionKind.PASS),
            "match": shared.score,
            "last": self._last_deal_once(seat),
            "fair": shared.commitments,
        }

    def _deal_so_far(self, seat: int | None, names: Names) -> tuple[list[Event], list[Words]]:
        """The moves of the deal in play as ``seat`` (None: a spectator) saw them, as events
        and in words (the log's lines), kept for each viewer and language."""
        game = self.live.game
        events = game.history
        viewer = -1 if seat is None else seat
        key = (seat, current_language())
        kept = self._logs.get(key)
        done = 0 if kept is None else kept.log.count
        if (
            kept is None
            or kept.game is not game
            or kept.names != names.names
            or done > len(events)
            or (done and events[done - 1] is not kept.last)  # a move was taken back
        ):
            if len(self._logs) > 32:
                self._logs.clear()
            log = DealLog(names, LOOK, self.live.rules.cards_to_win)
            kept = self._logs[key] = _KeptLog(game, names.names, log)
            done = 0
        if done < len(events):
            seen = [e.seen_by(viewer) for e in events[done:]]
            first = kept.log.extend(seen)
            kept.items[first:] = [segments(line) for line in kept.log.lines[first:]]
            kept.events.extend(cast(Event, e.to_dict()) for e in seen)
            kept.last = events[-1]
        return list(kept.events), list(kept.items)

    def _last_deal_once(self, seat: int | None) -> DealEnd | None:
        """The last finished deal, worked out once for each viewer, language and finished
        deal (it changes only when a deal is settled or a seat's name does)."""
        live = self.live
        key = (seat, current_language(), len(live.finished), live.match.is_over, live.names)
        if key not in self._last:
            if len(self._last) > 32:
                self._last.clear()
            self._last[key] = self._last_deal(seat)
        return self._last[key]

    def _last_deal(self, seat: int | None) -> DealEnd | None:
        live = self.live
        if not live.finished:
            return None
        game, result = live.finished[-1]
        names = Names(self.shown_names(), me=seat)
        state = game.state
        # only the viewer's own remaining hand; the others' stay hidden in the words
        hands = tuple(state.hands[p] if seat == p else 0 for p in range(len(state.hands)))
        said: list[Line] = outcome_lines(result.outcome, state.tables, hands, names, LOOK)
        said += payment_lines(
            result.outcome,
            result.value,
            live.rules.scoring,
            names,
            match_over=live.match.is_over,
            next_value=live.match.deal_value(),
        )
        out: DealEnd = {
            "deal": result.number,
            "winner": result.outcome.winner,
            "termination": result.outcome.termination.value,
            "value": result.value,
            "lines": [segments(line) for line in said],
            "tables": [_melds(t) for t in state.tables],
            "hands": [mask_labels(h) for h in state.hands],
        }
        if game.fair is not None and game.fair.server_seed is not None:
            out["fair"] = {
                "algorithm": game.fair.algorithm,
                "commitment": game.fair.commitment,
                "server_seed": game.fair.server_seed.hex(),
                "client_seeds": [c.hex() for c in game.fair.client_seeds],
                "dealer": game.dealer,
                "hand_size": live.rules.hand_size,
                "packet": live.rules.deal_packet,
                "players": live.rules.num_players,
            }
        return out


@dataclass(frozen=True, slots=True)
class Shared:
    """The parts of a state message that are the same for every connection of a language."""

    facts: MatchFacts
    score: Score
    commitments: Commitments | None


def _melds(partition: Sequence[int]) -> list[list[str]]:
    return [mask_labels(m) for m in partition]


def _forms(obs: Observation, kind: ActionKind) -> list[Form]:
    """The legal takes (or lay-and-pass moves), grouped by the hand cards they lay."""
    return [
        {
            "played": mask_labels(played),
            "actions": [{"text": str(a), "melds": _melds(a.melds)} for a in actions],
        }
        for played, actions in take_forms(obs, kind)
    ]


def with_invitations(state: StateMessage, invites: dict[int, str], live: LiveMatch) -> StateMessage:
    """The state, with the invitations of the free seats for the creator's connection."""
    if not invites:
        return state
    free: list[Invitation] = [
        {"seat": seat, "code": code}
        for seat, code in sorted(invites.items())
        if not live.seats[seat].joined
    ]
    return {**state, "invitations": free}


# ------------------------------------------------------------------ hints and reviews


def hint(seq: int, action_text: str, move: Line, why: Line, reason: str) -> HintMessage:
    """The hint bot's move (``move``, in words) and why."""
    return {
        "type": "hint",
        "seq": seq,
        "action": action_text,
        "words": segments(move),
        "why": plain(why),
        "why_words": segments(why),
        "reason": reason,
    }


def review_progress(deal: int, done: int, total: int) -> ReviewProgress:
    return {
        "type": "review_progress",
        "deal": deal,
        "done": done,
        "total": total,
        "words": review_words.progress_text(done, total),
    }


def review(done: Review, deal: int, rules: Rules) -> ReviewMessage:
    """A deal's review as one message, its words in the language in use: each decision (the
    judged ones with their line of words), its winning chances and the summary."""
    decisions = []
    for d in done.deal_decisions(1):
        item = d.to_dict()
        item["deal"] = deal
        if d.judged:
            played = review_words.move_words(d.played, d.table, d.centre, LOOK)
            best = review_words.move_words(d.best, d.table, d.centre, LOOK)
            mark = None if d.mark is None else d.mark.value
            item["words"] = segments(
                review_words.decision_line(
                    d.move, played, d.chance_played, best, d.chance_best, mark
                )
            )
            item["mark_word"] = None if mark is None else review_words.mark_word(mark)
        decisions.append(item)
    s = done.summary
    return {
        "type": "review",
        "deal": deal,
        "player": done.player,
        "rules": rules.to_spec(),
        "samples": done.settings.samples,
        "seed": done.settings.seed,
        "decisions": decisions,
        "summary": s.to_dict(),
        "summary_words": [
            segments(line)
            for line in review_words.summary_lines(
                s.judged, s.forced, s.inaccuracies, s.mistakes, s.blunders, s.accuracy
            )
        ],
    }
