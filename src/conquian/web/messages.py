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
from typing import Any, Literal, NotRequired, TypedDict

from ..actions import ActionKind
from ..bots.review import Decision, Review
from ..cards import CARDS
from ..errors import IllegalActionError
from ..present import review as review_words
from ..present.errors import illegal_action_words
from ..present.hints import feed_words
from ..present.spans import CardLook, Line, plain
from ..present.words import (
    Names,
    centre_origin,
)
from ..rules import Rules
from .languages import WEB_WORDS
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
    rated: bool
    """A game between people that changes their ratings when it ends."""
    clock: bool
    """Its decisions have a clock (a quick-match game, or the host's choice)."""
    chat: bool
    """Its players may write to each other (the host's choice), not only say set phrases."""


class Score(TypedDict):
    """The match so far (the ``match`` of a state)."""

    deal: int
    balance: list[int]
    stake: int
    over: bool
    leader: int | None
    scoring: str
    count: list[int]
    """La cuenta: each seat's total over this match and the matches before it, one the
    rematch of the other (the same as ``balance`` where there were none)."""
    count_matches: int
    """How many matches the count holds (1: this one only)."""
    abandoned: int | None
    """The seat of the person who left the match unfinished, the other claiming it."""


class Commitment(TypedDict):
    deal: int
    commitment: str
    dealer: int
    """The seat that deals it: the commitment binds it (see :mod:`conquian.fair`)."""


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


class Layoff(TypedDict):
    """A legal layoff (rules with ``layoff_on_opponent``): the centre card laid on another
    player's meld."""

    text: str
    """The action (``layoff 2 5c6c7c``)."""
    seat: int
    """Whose meld."""
    meld: list[str]
    """The meld with the centre card on it."""


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
    layoffs: NotRequired[list[Layoff]]
    """The player's legal layoffs, where the rules allow them and there are some."""
    lesson: NotRequired[list[Words]]
    """The guided first hand (the learner's connection): what the lesson says now."""
    clock: NotRequired[ClockPart]
    """A quick-match game's clock (:mod:`.clock`)."""


class ClockPart(TypedDict):
    """Whom a quick-match game waits for, and until when."""

    seat: int
    """The person to decide; -1 while the seats' seeds are awaited; -2: nobody."""
    due: float | None
    """When (the server's time, seconds since the epoch); None: nothing is due."""
    now: float
    """The server's time as it sent this (the page counts down from it)."""
    banks: list[float]
    away: list[bool]
    """Each seat: a computer plays for him until he decides himself."""
    gone: list[float | None]
    """Each seat whose person has no connection: when his grace ends (the server's time);
    None: he is here (or a computer sits there)."""
    left: list[bool]
    """Each seat: its person's grace ran out (at a table of two the other may claim the
    match; at a larger one a computer plays for him)."""


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
    """Each decision (:meth:`~conquian.bots.review.Decision.to_dict`): what was played and
    the best move, their winning chances and the mark; ``position``, the position string of
    what the player saw (the cards he could not see written ``*``); ``board``, the same as
    data for a small board (``player``, his ``hand``, every player's ``tables``, the
    ``centre`` card and its ``centre_source``, the ``dead`` cards, the ``hand_counts`` and
    the ``stock_count``: nothing he could not see); ``feeds``, null or, when the card he
    gave away fits another player's meld, that ``player``, the ``meld`` and his
    ``hand_count``.  Added here: ``centre_words``, where the centre card came from in
    words (``discarded by Ana``; null without a centre card); and for the judged ones
    (more than one legal action) ``words``, the decision's line, ``mark_word``, its mark
    in words (null: none), and ``feeds_words``, the danger of the card given away in
    words (:func:`~conquian.present.hints.feed_words`; null where ``feeds`` is)."""
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


class SaidMessage(TypedDict):
    """A player's table talk: a set phrase's name (each page words it), or, at a table whose
    host allows it, what he wrote."""

    type: Literal["said"]
    seat: int
    phrase: NotRequired[str]
    text: NotRequired[str]


ServerMessage = (
    StateMessage | HintMessage | ReviewProgress | ReviewMessage | ErrorMessage | Pong | SaidMessage
)
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


def review(done: Review, deal: int, rules: Rules, names: Sequence[str]) -> ReviewMessage:
    """A deal's review as one message, its words in the language in use: each decision (the
    judged ones with their line of words and the danger of a card given away), the
    position the player saw, its winning chances and the summary.  ``names``: the
    players' names as shown (in the language in use)."""
    said = Names(tuple(names), me=done.player)
    decisions = []
    for d in done.deal_decisions(1):
        item = d.to_dict()
        item["deal"] = deal
        obs = d.observation
        item["centre_words"] = centre_origin(obs, said) if obs and obs.centre >= 0 else None
        if d.judged:
            item["feeds_words"] = _feeds_words(d, said)
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


def _feeds_words(d: Decision, names: Names) -> Words | None:
    """The danger of the card a decision gave away (a discard's, an exchange's, or the
    centre card a pass let go), when it fits another player's meld: None where it fits
    none."""
    fed = d.fed
    if fed is None:
        return None
    player, meld, count = fed
    played = d.played
    card = played.card if played.kind in (ActionKind.DISCARD, ActionKind.EXCHANGE) else d.centre
    return segments(feed_words(card, names.names[player], meld, count, LOOK))
