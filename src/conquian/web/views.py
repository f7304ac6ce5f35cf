"""A match's state messages: what each seat, and a spectator, may see now, in words.

:class:`Views` builds the :class:`~.messages.StateMessage` of one connection from the live
match, the core's views (a seat's :func:`~conquian.observation.observe`, a spectator's
:func:`~conquian.observation.observe_public`) and the words layer, and keeps between messages
what they are made of: the players' names in each language, the deal's log as each viewer saw
it (extended by the moves made since the last message rather than written again from the start
of the deal), and the end of the last deal.  A broadcast works out the parts the same for
every connection of a language once (:meth:`Views.shared`).

>>> from conquian.web.live import new_match_row
>>> from conquian.web.schema import SeatRow
>>> seats = (SeatRow(0, "human", "Ana", None, True), SeatRow(1, "bot", "Computer (easy)", None, True, "easy"))
>>> live = LiveMatch(new_match_row("m1", seats, mode="bot", level="easy", rules="standard",
...     public=False, invite_only=False, hints=True))
>>> live.give_seed(0, "", None).deal
1
>>> views = Views(live)
>>> spectator, player = views.state(None), views.state(0)
>>> "hand" in spectator["obs"], len(player["obs"]["hand"])
(False, 10)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from ..actions import ActionKind
from ..bots.lesson import COMPUTER, LEARNER, expected_action, lesson_move
from ..cards import mask_labels
from ..errors import IllegalActionError
from ..fair import ALGORITHM
from ..game import Game
from ..observation import Observation, PublicEvent, PublicView, observe, observe_public, seat_part
from ..present.i18n import current_language
from ..present.lesson import lesson_end, lesson_intro, lesson_refusal, lesson_step
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
from . import words
from .clock import part
from .languages import WEB_WORDS
from .live import LESSON, LiveMatch
from .messages import (
    LOOK,
    ClockPart,
    Commitments,
    DealEnd,
    Event,
    Form,
    Invitation,
    Layoff,
    MatchFacts,
    Score,
    StateMessage,
    View,
    Words,
    refusal,
    segments,
)
from .requests import UserError

_ = WEB_WORDS.gettext


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
        self._kept_facts: tuple[Any, MatchFacts] | None = None
        self._public: tuple[Game, int, PublicEvent | None, PublicView, dict[str, Any]] | None = None

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
            "rated": live.rated,
            "clock": live.clocked,
            "chat": live.chat,
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
        out: Commitments = {"algorithm": ALGORITHM}  # the shuffles drawn from now on
        game = live.match.deal
        if game is not None and game.fair is not None:
            out["current"] = {
                "deal": live.match.deal_number,
                "commitment": game.fair.commitment,
                "dealer": game.dealer,
            }
        number = live.collecting
        row = None if number is None else live.shuffles.get(number)
        if row is not None:
            out["next"] = {
                "deal": row.deal,
                "commitment": row.commitment,
                "dealer": live.match.dealer_of(row.deal),
                "seeded": [c is not None for c in row.client_seeds],
            }
        return out

    def shared(self) -> Shared:
        """The parts of a state that are the same for every seat and spectator (in the
        language in use): the match's facts, the score, the commitments and the position's
        public view.  A broadcast works them out once for each language and passes them to
        :meth:`state`."""
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
            "count": live.count,
            "count_matches": live.count_matches + 1,
            "abandoned": match.abandoned_by,
        }
        public = self._public_now() if live.dealt else None
        return Shared(self._facts(), score, self._commitments(), public)

    def _facts(self) -> MatchFacts:
        """:meth:`summary`, kept until the seats, the status or the language change."""
        live = self.live
        key = (current_language(), live.status, live.rematch_id, tuple(live.seats))
        if self._kept_facts is None or self._kept_facts[0] != key:
            self._kept_facts = (key, self.summary())
        return self._kept_facts[1]

    def _public_now(self) -> tuple[PublicView, dict[str, Any]]:
        """The public view of the position in play and its data (without the history, which
        each viewer's kept log gives), kept until the next move."""
        game = self.live.game
        history = game.history
        last = history[-1] if history else None
        kept = self._public
        if kept is None or kept[0] is not game or kept[1] != len(history) or kept[2] is not last:
            view = observe_public(game.state)
            kept = self._public = (game, len(history), last, view, view.to_dict())
        return kept[3], kept[4]

    def state(self, seat: int | None, shared: Shared | None = None) -> StateMessage:
        """Everything the client at ``seat`` (None: a spectator) may see now, its words in
        the language in use; ``shared``: :meth:`shared`, if the caller has it already; a
        quick-match game's clock too (public: whom it waits for, until when)."""
        message = self._state(seat, shared)
        live = self.live
        if live.clock is not None:
            shown = part(live.clock, time.time(), live.gone, live.left)
            message["clock"] = cast(ClockPart, shown)
        return message

    def _state(self, seat: int | None, shared: Shared | None) -> StateMessage:
        live = self.live
        if shared is None:
            shared = self.shared()
        if shared.public is None:
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
        state = live.game.state
        public, public_data = shared.public
        # the seat's view: the public part and its own (:func:`~conquian.observation.seat_part`)
        data = (
            {**public_data, "legal_actions": []}
            if seat is None
            else {**public_data, **seat_part(state, seat)}
        )
        obs: Observation | None = None
        if seat is not None and data["legal_actions"]:
            if live.ready and not shared.score["over"]:
                obs = observe(state, seat)  # to act: what he must decide, in words
            else:
                data["legal_actions"] = []
        data["history"], log = self._deal_so_far(seat, names)
        message: StateMessage = {
            "type": "state",
            "game": shared.facts,
            "seat": seat,
            "obs": cast(View, data),
            "seq": live.seq,
            "log": log,
            "origin": centre_origin(public, names) if public.centre >= 0 else "",
            "situation": [] if obs is None else segments(situation(obs, names, LOOK)),
            "takes": [] if obs is None else _forms(obs, ActionKind.TAKE),
            "lays": [] if obs is None else _forms(obs, ActionKind.PASS),
            "match": shared.score,
            "last": self._last_deal_once(seat),
            "fair": shared.commitments,
        }
        if obs is not None and (offs := _layoffs(obs)):
            message["layoffs"] = offs
        if live.mode == LESSON and seat == LEARNER:
            message["lesson"] = [segments(line) for line in self._lesson_lines()]
        return message

    def _lesson_lines(self) -> list[Line]:
        """What the guided first hand says to the learner now: its opening and first step, the
        step of his move, nothing while the computer plays, its last words at the end."""
        game = self.live.game
        rules = self.live.rules
        if game.state.is_over:
            return lesson_end(rules.cards_to_win)
        move = lesson_move(len(game.history))
        expected = expected_action(game)
        if move is None or expected is None or move.seat != LEARNER:
            return []
        obs = game.observation(LEARNER)
        step = lesson_step(move.topic, obs, expected, self.shown_names()[COMPUTER], LOOK)
        if not game.history:
            return [*lesson_intro(rules.cards_to_win), step]
        return [step]

    def lesson_refusal(self, seat: int) -> UserError:
        """The learner's move is not the lesson's: what the lesson asks instead."""
        game = self.live.game
        move = lesson_move(len(game.history))
        expected = expected_action(game)
        assert move is not None and expected is not None
        line = lesson_refusal(move.topic, expected, game.observation(seat), self.look)
        return UserError(plain(line), words=segments(line))

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
            if seat is not None:  # the card passed to this seat, told once all have chosen
                kept.log.received = game.state.received(seat)
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
    public: tuple[PublicView, dict[str, Any]] | None
    """The position's public view and its data (None before the first deal)."""


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


def _layoffs(obs: Observation) -> list[Layoff]:
    """The legal layoffs, each with the meld it makes."""
    return [
        {"text": str(a), "seat": a.seat, "meld": mask_labels(a.melds[0] | 1 << obs.centre)}
        for a in obs.legal_actions
        if a.kind is ActionKind.LAYOFF
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
