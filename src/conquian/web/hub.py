"""Live games on the server: seats, connections, bot moves, and what each client may see.

The hub holds every game being played.  A game is a :class:`~conquian.match.Match`
rebuilt from its stored actions; an action is checked by the engine, committed to
the database, and only then acknowledged and shown to the clients.  Each client is
sent the observation of its own seat (or, for a spectator, the public part of
one), never the opponent's hand, the stock or the seeds.

Every deal of a game comes from a provably fair shuffle (:mod:`conquian.fair`).  The
shuffle of a deal is drawn, and its commitment published, before the deal before it
starts (the first one when the game is made); each seated person may add a seed of their
own until the deal is dealt.  The first deal is dealt once every human seat has said
hello (with a seed or without); each later one as soon as the deal before it is settled,
with the seeds given by then.  The server seed is revealed with the deal's end.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import math
import random
import re
import secrets
import unicodedata
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from ..actions import Action, ActionKind
from ..bots import LEVELS, Bot, Budget, make_bot
from ..bots.review import IN_GAME_SAMPLES, Review, ReviewSettings, review_deals
from ..cards import CARDS, mask_indices, mask_labels
from ..errors import ConquianError, IllegalActionError, InvalidNotationError
from ..fair import ALGORITHM, MAX_CLIENT_SEED_BYTES, FairShuffle, commitment, new_server_seed
from ..game import Game
from ..match import DealResult, Match
from ..observation import Observation, PublicEvent, observe
from ..present import review as review_words
from ..present.errors import illegal_action_words
from ..present.hints import reason_words
from ..present.i18n import LANGUAGES, current_language, negotiate, speaking
from ..present.spans import CardLook, Line, Span
from ..present.words import (
    DealLog,
    Names,
    centre_origin,
    describe_action,
    outcome_lines,
    payment_lines,
    situation,
    take_forms,
)
from ..records import GameRecord, format_result
from ..rules import Rules, find_rules
from ..seats import Seat, Table
from . import words
from .languages import WEB_WORDS
from .notify import Listener
from .security import dumps
from .store import ActionRow, DealRow, MatchRow, SeatRow, Store, hash_token

log = logging.getLogger("conquian.web")

MAX_NAME = 24
HINT_BOT = "search"
"""The bot that gives hints (a search with a short budget)."""
HINT_BUDGET = Budget(iterations=50)
"""The hint's budget: a number of sampled deals and no time limit, so the same position
always gets the same hint, however busy the server is."""
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
_T = TypeVar("_T")
_ = WEB_WORDS.gettext


class UserError(ConquianError):
    """Bad input from one client: the message goes to that client only."""

    def __init__(
        self,
        message: str,
        status: int = 400,
        headers: dict[str, str] | None = None,
        words: list[Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers
        """Extra headers of the HTTP answer (``Retry-After``, ``Connection``)."""
        self.words = words
        """The message as :func:`segments` (its cards as ``{"card": "Kh"}``), when it names
        cards: the browser draws them in the deck it shows."""


DB_THREADS = 4
"""Threads that talk to a PostgreSQL database (commits of different games overlap)."""
BOT_STANDBY = 3.0
COMMIT_TRIES = 5
"""Times one move is judged and stored again after other processes' moves got in first."""
"""Seconds a process that learnt of an action from another process waits (beyond the bot
delay) before moving the computer seat itself: the other process should have moved it."""

OUTBOX_MESSAGES = 256
"""The most messages waiting to be sent to one connection; past that it is closed."""
OUTBOX_CHARS = 1 << 20
"""The most characters (1 MiB) waiting to be sent to one connection; past that it is closed."""


@dataclass(eq=False)
class Conn:
    """One open connection to a game: its seat (None for a spectator) and its outbox.

    The outbox is bounded: a client that does not read what it is sent while more keeps
    coming (:data:`OUTBOX_MESSAGES` messages or :data:`OUTBOX_CHARS` characters waiting)
    is marked :attr:`behind`; its outbox is dropped and the server closes the connection.
    Every state message is the whole view (but for the moves of the deal the client already
    has, if it asked for :attr:`deltas`), so a new connection catches up at once.
    """

    seat: int | None
    lang: str = "en"
    """The language the words sent to this connection are written in."""
    outbox: deque[str] = field(default_factory=deque)
    waiting: int = 0
    """Characters in the outbox."""
    behind: bool = False
    """The client fell too far behind: nothing more is queued, the connection is closing."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the outbox has a message, or the client fell behind."""
    fell_behind: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the client fell behind."""
    hinting: bool = False
    reviewing: bool = False
    invites: dict[int, str] = field(default_factory=dict)
    """The creator's connection: the invitation code of each seat that has one (sent, in
    each state message to this connection only, while the seat is free)."""
    max_messages: int = OUTBOX_MESSAGES
    max_chars: int = OUTBOX_CHARS
    deltas: bool = False
    """The client asked (``"deltas": true`` in its hello) for the moves of the deal from where
    its last state differs only (:meth:`send_state`)."""
    sent_log: list[Any] | None = None
    sent_history: list[str] | None = None
    """The log and the history of the last state sent (with :attr:`deltas`)."""

    def send_state(self, view: dict[str, Any]) -> None:
        """Queue a state message.  With :attr:`deltas`, its ``log`` and its observation's
        ``history`` hold only the items from ``log_from`` and ``history_from`` on: the client
        keeps the items before those from the last state it was sent on this connection.
        (A move adds lines to the log or changes its last one; a new deal, another language
        or another name starts it again from 0.)"""
        if self.deltas:
            log, obs = view["log"], view["obs"]
            log_from = _same_start(self.sent_log, log)
            self.sent_log = log
            view = {**view, "log": log[log_from:], "log_from": log_from}
            if obs is None:
                self.sent_history = None
            else:
                history = obs["history"]
                history_from = _same_start(self.sent_history, history)
                self.sent_history = history
                view["obs"] = {**obs, "history": history[history_from:]}
                view["history_from"] = history_from
        self.send(view)

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message (never ``NaN`` or ``Infinity``: :func:`.security.dumps` writes them as ``null``)."""
        if self.behind:
            return
        text = dumps(message)
        if len(self.outbox) >= self.max_messages or self.waiting + len(text) > self.max_chars:
            self.behind = True
            self.outbox.clear()
            self.waiting = 0
            self.fell_behind.set()
        else:
            self.outbox.append(text)
            self.waiting += len(text)
        self.wake.set()

    async def next_message(self) -> str | None:
        """The next message to send, waiting for one; None once the client fell behind."""
        while not self.outbox and not self.behind:
            self.wake.clear()
            await self.wake.wait()
        if self.behind:
            return None
        text = self.outbox.popleft()
        self.waiting -= len(text)
        return text


def _same_start(before: list[Any] | None, now: list[Any]) -> int:
    """How many items ``now`` starts with that are the very objects ``before`` starts with
    (the kept log replaces an item that changed, and starts a new list for a new deal)."""
    if before is None:
        return 0
    same = 0
    for old, new in zip(before, now, strict=False):
        if old is not new:
            break
        same += 1
    return same


_MARKED = re.compile("\ue000([0-9]+)\ue001")


class MarkedLook(CardLook):
    """A look that writes each card as a mark (two private-use characters around its index),
    so that :func:`segments` finds the cards that words write as text: an action such as
    ``discard Kh`` in a hint, a bot's reason.  The browser then draws each one in the deck it
    shows, as it does the card spans."""

    __slots__ = ()

    def label(self, index: int) -> str:
        return f"\ue000{index}\ue001"

    def text(self, index: int) -> str:
        return self.label(index)

    def typed(self, mask: int) -> str:
        return " ".join(self.label(i) for i in mask_indices(mask))


MARKED = MarkedLook()


def segments(line: Line) -> list[Any]:
    """A line of words as JSON: plain strings and ``{"card": "Kh"}`` items.

    A card span gives its card (in the canonical French token); the browser labels
    it for the chosen deck, so the span's text, written for a text screen, is unused.
    So are the cards :data:`MARKED` wrote into words.
    """
    out: list[Any] = []

    def add(text: str) -> None:
        if out and isinstance(out[-1], str):
            out[-1] += text
        elif text:
            out.append(text)

    for span in line:
        if span.card is not None:
            out.append({"card": str(CARDS[span.card])})
            continue
        for at, part in enumerate(_MARKED.split(span.text)):
            if at % 2:
                out.append({"card": str(CARDS[int(part)])})
            else:
                add(part)
    return out


def unmarked(text: str, look: CardLook) -> str:
    """Words :data:`MARKED` wrote, with each card as ``look`` writes it."""
    return _MARKED.sub(lambda m: look.text(int(m[1])), text)


_CARD_RUN = re.compile(r"(?<![A-Za-z0-9])((?:[A2-7JQK][shdc])+)(?![A-Za-z0-9])")


def refusal(exc: IllegalActionError, names: Names, look: CardLook) -> UserError:
    """An action the engine refused, in words for ``names.me``, with its cards as ``look``
    writes them (the rules' deck) and as segments (for the deck the browser shows)."""
    text = illegal_action_words(exc, names)
    known = set(mask_indices(exc.cards))
    if exc.card is not None:
        known.add(exc.card)
    if isinstance(exc.action, Action):
        for meld in exc.action.melds:
            known |= set(mask_indices(meld))
        if exc.action.card >= 0:
            known.add(exc.action.card)
    tokens = {str(CARDS[i]): i for i in known if 0 <= i < len(CARDS)}

    def cards_of(run: str) -> list[int] | None:
        found = [tokens.get(run[k : k + 2]) for k in range(0, len(run), 2)]
        return None if None in found else [i for i in found if i is not None]

    marked = _CARD_RUN.sub(
        lambda m: "".join(MARKED.label(i) for i in cards) if (cards := cards_of(m[1])) else m[1],
        text,
    )
    return UserError(unmarked(marked, look), words=segments([Span(marked)]))


def _melds(partition: Sequence[int]) -> list[list[str]]:
    return [mask_labels(m) for m in partition]


def check_name(name: Any, default: str) -> str:
    """A player's name: trimmed, at most 24 characters, no control characters.

    (PostgreSQL cannot store a NUL character, and nothing can store a lone surrogate.)

    :raises UserError: if it is not text, too long, or holds a control character.
    """
    if name is None:
        return default
    if not isinstance(name, str):
        raise UserError(_("The name must be text."))
    name = " ".join(name.split())
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise UserError(_("The name must be printable text, without control characters."))
    if len(name) > MAX_NAME:
        raise UserError(
            _("The name is {length} characters long; at most {most} please.").format(
                length=len(name), most=MAX_NAME
            )
        )
    return name or default


@dataclass(eq=False)
class _KeptLog:
    """The moves of a deal as one viewer saw them, in one language (see
    :meth:`LiveMatch._deal_so_far`)."""

    game: Game
    names: tuple[str, ...]
    log: DealLog
    last: PublicEvent | None = None
    """The deal's last event described (the game's own object)."""
    texts: list[str] = field(default_factory=list)
    items: list[Any] = field(default_factory=list)


class LiveMatch:
    """One match in memory, rebuilt from the stored actions."""

    def __init__(
        self, row: MatchRow, stored: Sequence[ActionRow] = (), deals: Sequence[DealRow] = ()
    ) -> None:
        self.id = row.id
        self.mode = row.mode
        self.level = row.level
        self.rules: Rules = find_rules(row.rules)
        self.bot_seed = row.bot_seed
        self.status = row.status
        self.rematch_id = row.rematch_id
        self.public = row.public
        self.invite_only = row.invite_only
        self.hints = row.hints
        self.seats: list[SeatRow] = list(row.seats)
        self.match = Match(self.rules, seed=row.match_seed, players=self.names)
        self.table = Table(
            [
                Seat(
                    s.name,
                    _server_bot(s.level or self.level or "medium") if s.kind == "bot" else None,
                )
                for s in self.seats
            ],
            match=self.match,
            bot_seed=row.bot_seed,
        )
        self.finished: list[tuple[Game, DealResult]] = []
        self.seq = 0
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.evicted = False
        """Dropped from the hub's memory; a new connection loads the game again."""
        self.bot_backup = False
        """The bot task stands in for another process: it moves only if that one did not."""
        self.bot_waiting = False
        """The bot task is waiting (as a stand-in) to see whether another process moves."""
        self.stale_rows = False
        """Another process changed a seat, a seed or the rematch: read the game's rows again."""
        self.unread = False
        """Another process stored a seed: read the shuffles (and the new actions) again."""
        self.heard = 0
        """The highest action number other processes have told of."""
        self.announced: dict[int, ActionRow] = {}
        """The actions other processes' notifications carried, by number, not yet applied."""
        self._shown: dict[Any, tuple[str, ...]] = {}
        self._logs: dict[tuple[int | None, str], _KeptLog] = {}
        self.reviews: dict[tuple[int, int], Review] = {}
        """The review of each (deal, seat) asked for (reviews are data; words per message)."""
        self._last: dict[Any, dict[str, Any] | None] = {}
        self.fair = row.fair
        self.shuffles: dict[int, DealRow] = {d.deal: d for d in deals}
        """The fair shuffle of each deal drawn so far (with its secret server seed)."""
        self.unsaved: list[DealRow] = []
        """Shuffles drawn in memory that the hub has still to store."""
        self._deal_if_due()
        for action_row in stored:
            self._replay(action_row)

    # ------------------------------------------------------------ shuffles

    def _deal_if_due(self) -> None:
        """Deal the next deal if it may be dealt now (see the module's description)."""
        if self.match.is_over or self.match.deal is not None:
            return
        if not self.fair:  # stored by an earlier version: dealt from the match seed
            self.table.start()
            return
        number = self.match.deal_number + 1
        row = self.shuffle_for(number)
        if number == 1 and any(
            seed is None and seat.kind == "human"
            for seed, seat in zip(row.client_seeds, self.seats, strict=True)
        ):
            return
        shuffle = FairShuffle(
            commitment=row.commitment,
            client_seeds=tuple(bytes.fromhex(c) for c in row.client_seeds if c),
            server_seed=bytes.fromhex(row.server_seed),
        )
        self.table.start(fair=shuffle)
        self.shuffle_for(number + 1)  # its commitment is published during this deal

    def shuffle_for(self, number: int) -> DealRow:
        """The shuffle of deal ``number``, drawn now if it has none yet."""
        row = self.shuffles.get(number)
        if row is None:
            server = new_server_seed()
            row = DealRow(number, server.hex(), commitment(server), (None,) * len(self.seats))
            self.shuffles[number] = row
            self.unsaved.append(row)
        return row

    @property
    def collecting(self) -> int | None:
        """The deal whose seeds are being collected (the next one to be dealt), if any."""
        if not self.fair or self.match.is_over:
            return None
        return self.match.deal_number + 1

    def next_shuffle(self) -> dict[str, Any] | None:
        """The deal being shuffled and the commitment to its shuffle (None if none is)."""
        number = self.collecting
        if number is None:
            return None
        return {"deal": number, "commitment": self.shuffle_for(number).commitment}

    def add_seed(self, stored: DealRow) -> None:
        """The shuffle of a deal as stored with a new seed (and every seed stored before it,
        by any process); deals if now due."""
        self.adopt_shuffle(stored)
        self._deal_if_due()

    def adopt_shuffle(self, stored: DealRow) -> None:
        """Use the shuffle of a deal as the database has it (another process may have drawn
        and stored it first): a shuffle drawn here for that deal is dropped unstored."""
        self.shuffles[stored.deal] = stored
        self.unsaved = [row for row in self.unsaved if row.deal != stored.deal]

    def catch_up(
        self, row: MatchRow | None, stored: Sequence[ActionRow], deals: Sequence[DealRow]
    ) -> bool:
        """Bring this copy up to date with what other processes stored: the seats, the
        rematch (from ``row``, if given), the shuffles and their seeds, and the actions after
        :attr:`seq` (each one checked again by the engine).  Returns whether anything changed.

        :raises ConquianError: if a stored action is out of order or not legal.
        """
        changed = False
        if row is not None and list(row.seats) != self.seats:
            self.seats = list(row.seats)
            self.set_names()
            changed = True
        if row is not None and self.status == "open" and row.status != "open":
            self.status = row.status
            changed = True
        if row is not None and self.rematch_id is None and row.rematch_id is not None:
            self.rematch_id = row.rematch_id
            changed = True
        for deal in deals:
            if self.shuffles.get(deal.deal) != deal:
                self.adopt_shuffle(deal)
                changed = True
        dealt = self.dealt
        self._deal_if_due()
        changed = changed or self.dealt != dealt
        for action_row in stored:
            if action_row.seq > self.seq:
                self._replay(action_row)
                changed = True
        return changed

    def take_announced(self) -> list[ActionRow] | None:
        """The actions after :attr:`seq` up to the last one heard of, if the notifications
        carried every one of them; None if some must be read from the database."""
        rows: list[ActionRow] = []
        while self.seq + len(rows) < self.heard:
            row = self.announced.get(self.seq + len(rows) + 1)
            if row is None:
                break
            rows.append(row)
        done = self.seq + len(rows)
        for number in [n for n in self.announced if n <= done]:
            del self.announced[number]
        if not rows or done < self.heard:
            return None
        return rows

    # ------------------------------------------------------------ engine

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names as stored (the computer's in English)."""
        return tuple(s.name for s in self.seats)

    def shown_names(self) -> tuple[str, ...]:
        """The players' names in the language in use (:func:`.words.shown_names`)."""
        key = (current_language(), tuple(self.seats), self.level)
        found = self._shown.get(key)
        if found is None:
            found = tuple(
                words.shown_names([(s.kind, s.name, self.level_of(s.seat)) for s in self.seats])
            )
            if len(self._shown) > 16:
                self._shown.clear()
            self._shown[key] = found
        return found

    @property
    def look(self) -> CardLook:
        """How cards are written in words sent as text (errors, a hint's reason): with the
        labels of the rules' deck, as the browser shows them by default."""
        return CardLook(deck=self.rules.deck_style)

    @property
    def joined(self) -> bool:
        """Every seat is filled."""
        return all(s.joined for s in self.seats)

    def level_of(self, seat: int) -> str | None:
        """The level of a computer seat (None for a person's)."""
        row = self.seats[seat]
        if row.kind != "bot":
            return None
        return row.level or self.level or "medium"

    @property
    def dealt(self) -> bool:
        """The first deal has been dealt."""
        return bool(self.match.games)

    @property
    def ready(self) -> bool:
        """Every seat is filled and the first deal is dealt."""
        return self.joined and self.dealt

    @property
    def game(self) -> Game:
        """The deal in play, or the last deal once the match is over.

        :raises ConquianError: before the first deal is dealt.
        """
        game = self.match.deal or (self.match.games[-1] if self.match.games else None)
        if game is None:
            raise ConquianError("The first deal has not been dealt yet.")
        return game

    @property
    def deal_number(self) -> int:
        return self.match.deal_number

    def set_names(self) -> None:
        """After a seat changed hands: the match, its deal and the table use the new names."""
        names = self.names
        self.match.players = names
        if self.dealt:
            self.game.players = names
        for seat, name in zip(self.table.seats, names, strict=True):
            seat.name = name

    def _replay(self, row: ActionRow) -> None:
        if row.seq != self.seq + 1 or row.deal != self.deal_number:
            raise ConquianError(f"Game {self.id}: stored action {row.seq} is out of order.")
        pending = self.push(row.player, Action.parse(row.action))
        self.settle(pending)

    def push(self, player: int, action: Action) -> tuple[ActionRow, Any, str | None]:
        """Play ``action`` in memory; returns what must be committed.

        :raises IllegalActionError: with the reason; nothing changes.
        """
        if self.match.is_over:
            raise IllegalActionError("The match is over; no more moves can be made.")
        self.table.push(player, action)
        deal = self.deal_number
        row = ActionRow(self.seq + 1, deal, player, str(action))
        record = None
        status = None
        state = self.game.state
        if state.is_over:
            rec = GameRecord.from_game(self.game, event="conquian serve", game=self.id)
            record = (deal, format_result(state.outcome()), rec.dumps())
            status = "over" if self.table.would_end_match() else None
        return row, record, status

    def undo(self) -> None:
        """Take back the action of a :meth:`push` that could not be committed."""
        self.table.undo()

    def settle(self, pending: tuple[ActionRow, Any, str | None]) -> None:
        """After the commit: count the action, and settle a finished deal."""
        self.seq = pending[0].seq
        if not self.table.deal_is_over:
            return
        game = self.game
        result = self.table.settle()
        assert result is not None
        self.finished.append((game, result))
        if self.match.is_over:
            self.status = "over"
        else:
            self._deal_if_due()

    def bot_to_act(self) -> int | None:
        """The bot seat to act now, if any."""
        if self.match.is_over or not self.ready:
            return None
        return self.table.bot_to_act()

    def invitations(self, token: str, *, taken: bool = False) -> list[dict[str, Any]]:
        """The invitations of the free seats (``taken``: of the taken ones too), for the
        creator whose token is ``token``: ``{"seat", "code"}`` each (none for another token)."""
        out = []
        for s in self.seats:
            if (s.joined and not taken) or s.invite_hash is None:
                continue
            code = invite_code(token, self.id, s.seat)
            if secrets.compare_digest(hash_token(code), s.invite_hash):
                out.append({"seat": s.seat, "code": code})
        return out

    def invited_seat(self, code: str) -> SeatRow | None:
        """The seat whose invitation is ``code``, taken or not; None if none is."""
        hashed = hash_token(code)
        for s in self.seats:
            if s.invite_hash is not None and secrets.compare_digest(s.invite_hash, hashed):
                return s
        return None

    def seat_for(self, token: str | None) -> int | None:
        """The seat whose secret is ``token``, or None."""
        if not token:
            return None
        hashed = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, hashed):
                return s.seat
        return None

    # ------------------------------------------------------------ views

    def summary(self) -> dict[str, Any]:
        """Public facts about the game (the names in the language in use)."""
        return {
            "id": self.id,
            "mode": self.mode,
            "level": self.level,
            "status": self.status,
            "names": list(self.shown_names()),
            "kinds": [s.kind for s in self.seats],
            "levels": [self.level_of(s.seat) for s in self.seats],
            "joined": [s.joined for s in self.seats],
            "free": sum(not s.joined for s in self.seats),
            "by_invitation": self.invite_only and not self.public,
            "rematch": self.rematch_id,
            "rules": self.rules.to_spec(),
            "deck": self.rules.deck_style.value,
            "cards_to_win": self.rules.cards_to_win,
            "hints": self.hints,
        }

    def _fair_view(self) -> dict[str, Any] | None:
        """The commitments published so far: of the deal in play, and of the next deal with
        which seats have given their seed."""
        if not self.fair:
            return None
        out: dict[str, Any] = {"algorithm": ALGORITHM}
        game = self.match.deal
        if game is not None and game.fair is not None:
            out["current"] = {"deal": self.match.deal_number, "commitment": game.fair.commitment}
        number = self.collecting
        row = None if number is None else self.shuffles.get(number)
        if row is not None:
            out["next"] = {
                "deal": row.deal,
                "commitment": row.commitment,
                "seeded": [c is not None for c in row.client_seeds],
            }
        return out

    def shared_view(self) -> dict[str, Any]:
        """The parts of a state message that are the same for every seat and spectator (in
        the language in use): the game's summary, the match and the commitments.  A
        broadcast works them out once for each language and passes them to :meth:`view`."""
        if not self.dealt:
            return {
                "game": self.summary(),
                "match": {
                    "deal": 0,
                    "balance": list(self.match.balance),
                    "stake": self.match.deal_value(),
                    "over": False,
                    "leader": None,
                    "scoring": self.rules.scoring.value,
                },
                "fair": self._fair_view(),
            }
        over = self.match.is_over
        return {
            "game": self.summary(),
            "match": {
                "deal": self.deal_number if not over else len(self.match.results),
                "balance": list(self.match.balance),
                "stake": self.game.state.stake,
                "over": over,
                "leader": self.match.leader,
                "scoring": self.rules.scoring.value,
            },
            "fair": self._fair_view(),
        }

    def view(self, seat: int | None, shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """Everything the client at ``seat`` (None: a spectator) may see now, its words in
        the language in use (the caller says which: ``with speaking(code)``); ``shared``:
        :meth:`shared_view`, if the caller has it already."""
        if shared is None:
            shared = self.shared_view()
        if not self.dealt:
            return {
                "type": "state",
                "game": shared["game"],
                "seat": seat,
                "obs": None,
                "seq": self.seq,
                "log": [],
                "match": shared["match"],
                "last": None,
                "fair": shared["fair"],
            }
        look = MARKED
        names = Names(self.shown_names(), me=seat)
        game = self.game
        obs = observe(game.state, 0 if seat is None else seat)  # the history: below
        data = obs.to_dict()
        data["history"], log = self._deal_so_far(seat, names, look)
        if seat is None:  # only what every player saw: no hand, no exchange choice
            del data["hand"]
            data.pop("exchange", None)
            data["player"] = None
            data["legal_actions"] = []
        my_turn = seat is not None and obs.my_turn and self.ready and not shared["match"]["over"]
        if not my_turn:
            data["legal_actions"] = []
        return {
            "type": "state",
            "game": shared["game"],
            "seat": seat,
            "obs": data,
            "seq": self.seq,
            "log": log,
            "origin": centre_origin(obs, names) if obs.centre >= 0 else "",
            "situation": segments(situation(obs, names, look)) if my_turn else [],
            "takes": _forms(obs, ActionKind.TAKE) if my_turn else [],
            "lays": _forms(obs, ActionKind.PASS) if my_turn else [],
            "match": shared["match"],
            "last": self._last_deal_once(seat),
            "fair": shared["fair"],
        }

    def _deal_so_far(
        self, seat: int | None, names: Names, look: CardLook
    ) -> tuple[list[str], list[Any]]:
        """The moves of the deal in play as ``seat`` (None: a spectator) saw them, as text
        (the observation's history) and in words (the log's lines as JSON items).

        Both are kept for each viewer and language, and extended by the moves made since the
        last message rather than written from the start of the deal for each one (a move
        adds lines or changes the last one)."""
        game = self.game
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
            log = DealLog(names, look, self.rules.cards_to_win)
            kept = self._logs[key] = _KeptLog(game, names.names, log)
            done = 0
        if done < len(events):
            seen = [e.seen_by(viewer) for e in events[done:]]
            first = kept.log.extend(seen)
            kept.items[first:] = [segments(line) for line in kept.log.lines[first:]]
            kept.texts.extend(str(e) for e in seen)
            kept.last = events[-1]
        return list(kept.texts), list(kept.items)

    def _last_deal_once(self, seat: int | None) -> dict[str, Any] | None:
        """:meth:`_last_deal`, worked out once for each viewer, language and finished deal
        (it changes only when a deal is settled or a seat's name does)."""
        key = (seat, current_language(), len(self.finished), self.match.is_over, self.names)
        if key not in self._last:
            if len(self._last) > 32:
                self._last.clear()
            self._last[key] = self._last_deal(seat)
        return self._last[key]

    def _last_deal(self, seat: int | None) -> dict[str, Any] | None:
        if not self.finished:
            return None
        game, result = self.finished[-1]
        names = Names(self.shown_names(), me=seat)
        obs = game.observation(0 if seat is None else seat)
        # only the viewer's own remaining hand; the opponent's stays hidden
        hands = tuple(obs.hand_mask if seat == p else 0 for p in range(len(obs.tables)))
        said = outcome_lines(result.outcome, obs.tables, hands, names, MARKED)
        said += payment_lines(
            result.outcome,
            result.value,
            self.rules.scoring,
            names,
            match_over=self.match.is_over,
            next_value=self.match.deal_value(),
        )
        lines = [segments(line) for line in said]
        winner = result.outcome.winner
        out: dict[str, Any] = {
            "deal": result.number,
            "winner": winner,
            "termination": result.outcome.termination.value,
            "value": result.value,
            "lines": lines,
            "tables": [_melds(t) for t in obs.tables],
            # every hand as the deal ended: public now that the deal is over
            "hands": [mask_labels(h) for h in game.state.hands],
        }
        if game.fair is not None and game.fair.server_seed is not None:
            # revealed now that the deal is over: anyone may deal the same deck again
            out["fair"] = {
                "algorithm": game.fair.algorithm,
                "commitment": game.fair.commitment,
                "server_seed": game.fair.server_seed.hex(),
                "client_seeds": [c.hex() for c in game.fair.client_seeds],
                "dealer": game.dealer,
                "hand_size": self.rules.hand_size,
                "packet": self.rules.deal_packet,
                "players": self.rules.num_players,
            }
        return out


def _cannot_act(live: LiveMatch, seat: int) -> UserError | None:
    """Why ``seat`` cannot move now (None: it may)."""
    if not live.joined:
        return UserError(words.waiting_to_join())
    if not live.dealt:
        return UserError(_("The first deal is being shuffled: waiting for every player's seed."))
    if live.match.is_over:
        return UserError(_("The match is over; no more moves can be made."))
    to_act = live.game.state.to_act
    if to_act != seat:
        turn = IllegalActionError.not_your_turn(seat, to_act)
        shown = (name or _("your opponent") for name in live.shown_names())
        return refusal(turn, Names(tuple(shown), me=seat), live.look)
    return None


def _with_invitations(live: LiveMatch, conn: Conn, view: dict[str, Any]) -> dict[str, Any]:
    """The view, with the invitations of the free seats for the creator's connection."""
    if not conn.invites:
        return view
    free = [
        {"seat": seat, "code": code}
        for seat, code in sorted(conn.invites.items())
        if not live.seats[seat].joined
    ]
    return {**view, "invitations": free}


def _forms(obs: Observation, kind: ActionKind) -> list[dict[str, Any]]:
    """The legal takes (or lay-and-pass moves), grouped by the hand cards they lay."""
    return [
        {
            "played": mask_labels(played),
            "actions": [{"text": str(a), "melds": _melds(a.melds)} for a in actions],
        }
        for played, actions in take_forms(obs, kind)
    ]


def check_seed(seed: Any) -> str:
    """A client's seed for the shuffle: hexadecimal text of at most 64 bytes (lower case).

    :raises UserError: naming what is wrong.
    """
    most = 2 * MAX_CLIENT_SEED_BYTES
    if not isinstance(seed, str) or len(seed) > most:
        raise UserError(
            _("A seed must be hexadecimal text of at most {most} digits.").format(most=most)
        )
    try:
        return bytes.fromhex(seed).hex()
    except ValueError:
        raise UserError(
            _(
                "A seed must be hexadecimal text of at most {most} digits (an even number of them)."
            ).format(most=most)
        ) from None


def _server_bot(level: str) -> Bot:
    return make_bot(level, rng=random.Random())


def new_token() -> str:
    return secrets.token_urlsafe(18)


def invite_code(token: str, game_id: str, seat: int) -> str:
    """The invitation code of ``seat``, drawn from the creator's secret ``token``.

    Only its hash is stored; the server works the codes out again from the creator's token
    when the creator's page says hello, so that page can show the links again (after a
    restart, or in another browser).  144 bits, as a seat token: nobody guesses one.
    """
    message = f"conquian invitation {game_id} {seat}".encode()
    digest = hmac.new(token.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def seat_choices(seats: Any, players: int, spec: str) -> list[tuple[str, str | None]]:
    """The ``seats`` of a create request: (``human`` or ``bot``, level) for each seat after
    the creator's.

    :raises UserError: naming the seat and what is wrong with it.
    """
    if not isinstance(seats, list):
        raise UserError(words.seats_not_a_list())
    if len(seats) != players - 1:
        raise UserError(words.seats_count(spec[:60], players, len(seats)))
    out: list[tuple[str, str | None]] = []
    for index, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise UserError(words.seat_not_an_object(index))
        unknown = set(seat) - {"kind", "level"}
        if unknown:
            raise UserError(words.seat_unknown_fields(index, (str(u)[:20] for u in unknown)))
        kind = seat.get("kind")
        level = seat.get("level")
        if kind in words.PERSON_KINDS:
            if level is not None:
                raise UserError(words.seat_person_level(index))
            out.append(("human", None))
        elif kind == words.BOT_KIND:
            level = "medium" if level is None else level
            if not isinstance(level, str) or level not in LEVELS:
                raise UserError(words.seat_unknown_level(index, level, LEVELS))
            out.append(("bot", level))
        else:
            raise UserError(words.seat_unknown_kind(index, kind))
    return out


class Hub:
    """Every live game, the database, and the worker threads for storage and bots.

    Several processes may serve the same games from one PostgreSQL database.  Each keeps
    the games its clients use in memory; an action is committed with its number, which the
    database accepts once (a process whose copy was behind is refused, brings its copy up
    to date and judges the move again), and every commit notifies the other processes
    (:mod:`.notify`), which read the change, apply it and show it to their own clients
    (:meth:`refresh`).  A computer seat is moved by the process that committed the action
    before its turn; a process that only learnt of that action stands by and moves it only
    if nobody did within :data:`BOT_STANDBY` seconds (the database takes one of two moves at
    one number, so the seat moves once either way).
    """

    def __init__(self, store: Store, *, bot_delay: float = 0.0, bot_threads: int = 2) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.live: dict[str, LiveMatch] = {}
        self._loading: dict[str, asyncio.Future[LiveMatch | None]] = {}
        # SQLite has one writer; PostgreSQL commits several games' actions at once
        threads = DB_THREADS if store.postgres else 1
        self._db_pool = ThreadPoolExecutor(threads, thread_name_prefix="conquian-db")
        self._bot_pool = ThreadPoolExecutor(bot_threads, thread_name_prefix="conquian-bot")
        self._tasks: set[asyncio.Task[None]] = set()
        self._listener: Listener | None = None
        self._refreshing: set[str] = set()
        """Games being brought up to date now."""
        self._stale: set[str] = set()
        """Games that changed again while being brought up to date, or while being loaded."""

    async def start(self) -> None:
        """Listen for the other processes' changes (PostgreSQL); before serving."""
        if self.store.channel is not None and self._listener is None:
            self._listener = Listener(
                self.store.url, self.store.channel, self._notified, self._refresh_all
            )
            await self._listener.start()

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
        for task in list(self._tasks):
            task.cancel()
        for live in self.live.values():
            if live.bot_task is not None:
                live.bot_task.cancel()
        self._bot_pool.shutdown(wait=False, cancel_futures=True)
        self._db_pool.shutdown(wait=True)
        await self.store.close_async()

    async def _db(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, partial(fn, *args, **kwargs))

    # ----------------------------------------------------------- games

    async def get(self, game_id: str, *, current: bool = False) -> LiveMatch:
        """The live game, loaded from the database when needed.

        ``current``: a game already in memory is first brought up to date with what other
        processes stored (for an answer that must not lag behind a change made through
        another process a moment ago; their notifications come a few milliseconds later).

        :raises UserError: (404) if there is no such game.
        """
        live = self.live.get(game_id)
        if live is not None:
            if current and self.store.channel is not None:
                async with live.lock:
                    if await self._catch_up(live):
                        self._broadcast(live)
            return live
        if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
            raise UserError(_("There is no game {game}.").format(game=repr(str(game_id)[:40])), 404)
        waiting = self._loading.get(game_id)
        if waiting is None:
            waiting = asyncio.get_running_loop().create_future()
            self._loading[game_id] = waiting
            try:
                self._stale.discard(game_id)
                loaded = await self._db(self.store.load, game_id)
                found = None if loaded is None else LiveMatch(*loaded)
                if found is not None:
                    await self.save_shuffles(found)
                    self.live[game_id] = found
                    if found.status != "over" and found.match.is_over:
                        found.status = "over"
                waiting.set_result(found)
            except Exception as exc:
                waiting.set_exception(exc)
                raise
            finally:
                del self._loading[game_id]
            if found is not None:
                if game_id in self._stale:  # changed by another process while being read
                    self._refresh_soon(found)
                self._kick_bot(found)
        result = await asyncio.shield(waiting)
        if result is None:
            raise UserError(_("There is no game {game}.").format(game=repr(game_id)), 404)
        return result

    async def create(
        self,
        mode: Any,
        *,
        level: Any = None,
        name: Any = None,
        rules: Any = None,
        public: Any = None,
        seats: Any = None,
        hints: Any = None,
    ) -> tuple[LiveMatch, str, list[dict[str, Any]]]:
        """A new game with the caller in seat 0; returns it, the caller's secret token and the
        invitation of each person's seat (``{"seat", "code"}``).

        Either ``mode`` (``bot``: every other seat a computer player of ``level``;
        ``friend``: every other seat a person, taken by the game's id or an invitation) or
        ``seats``: the seats after the caller's, each ``{"kind": "person"}`` or ``{"kind":
        "bot", "level": ...}``; each person's seat is then taken only with its invitation
        (or, in a public game, from the lobby).  ``public``: list the game in the lobby
        (default: only a game without a person's seat to fill, so that only the friends
        the invitations were sent to take the seats).  ``hints``: the players may ask for
        hints (default: only in a game without another person's seat).

        :raises UserError: naming the bad field; nothing is stored.
        """
        if seats is not None and (mode is not None or level is not None):
            raise UserError(words.seats_and_mode())
        if seats is None:
            if mode not in ("bot", "friend"):
                raise UserError(words.unknown_mode(mode))
            if mode == "bot":
                level = "medium" if level is None else level
                if not isinstance(level, str) or level not in LEVELS:
                    raise UserError(words.unknown_level(level, LEVELS))
            else:
                level = None
        if public is not None and not isinstance(public, bool):
            raise UserError(_("'public' must be true or false."))
        if hints is not None and not isinstance(hints, bool):
            raise UserError(_("'hints' must be true or false."))
        if rules is None:
            rules = "standard"
        if not isinstance(rules, str) or len(rules) > 400:
            raise UserError(_("The rules must be a preset name or a short rules spec."))
        try:
            chosen = find_rules(rules)
        except ConquianError as exc:
            raise UserError(_("Bad rules: {error}").format(error=exc)) from None
        spec = chosen.to_spec()
        n = chosen.num_players
        if seats is None:
            choices: list[tuple[str, str | None]] = [
                ("bot", level) if mode == "bot" else ("human", None) for _ in range(1, n)
            ]
        else:
            choices = seat_choices(seats, n, rules)
            levels = {lv for kind, lv in choices if kind == "bot"}
            people = sum(kind == "human" for kind, _ in choices)
            mode = "friend" if people == n - 1 else "bot" if not people else "mixed"
            level = levels.pop() if len(levels) == 1 else None
        player = check_name(name, words.stored_name(words.default_player, 0))
        token = new_token()
        game_id = secrets.token_urlsafe(8)
        computers = sum(kind == "bot" for kind, _ in choices)
        others: list[SeatRow] = []
        for p, (kind, lv) in enumerate(choices, start=1):
            if kind == "bot":
                number = sum(s.kind == "bot" for s in others) + 1
                bot = words.stored_name(words.computer_name, computers, number, lv or "medium")
                others.append(SeatRow(p, "bot", bot, None, True, lv))
            else:
                invite = hash_token(invite_code(token, game_id, p))
                others.append(SeatRow(p, "human", "", None, False, None, invite))
        free = any(not s.joined for s in others)
        if public is None:
            public = not free
        if hints is None:  # hints against the computer, none between people
            hints = not any(s.kind == "human" for s in others)
        seeds = random.SystemRandom()
        row = MatchRow(
            id=game_id,
            created=0.0,
            mode=mode,
            level=level,
            rules=spec,
            match_seed=seeds.randrange(2**63),
            bot_seed=seeds.randrange(2**63),
            status="open" if free else "playing",
            rematch_id=None,
            rematch_of=None,
            seats=(SeatRow(0, "human", player, hash_token(token), True), *others),
            public=public,
            fair=True,
            invite_only=seats is not None,
            hints=hints,
        )
        live = LiveMatch(row)
        await self._db(self.store.create_game, row, live.unsaved.pop(0))
        self.live[row.id] = live
        self._kick_bot(live)
        return live, token, live.invitations(token)

    async def join(self, game_id: str, name: Any, invite: Any = None) -> tuple[LiveMatch, int, str]:
        """Take a free person's seat; returns the game, the seat and its token.

        With ``invite`` (an invitation code), the seat of that invitation; without, the next
        free seat of a public game or of one made with ``mode`` (taken by its id).

        :raises UserError: if the game is unknown (404), the invitation is not one of its
            own (404) or used already (409), the game's seats are taken only by invitation
            (403), or it is full (409); nothing changes.
        """
        live = await self.get(game_id)
        if invite is not None and (not isinstance(invite, str) or len(invite) > 64):
            raise UserError(words.invite_not_text())
        player = check_name(name, "")
        async with live.lock:
            if invite:
                seat = live.invited_seat(invite)
                if seat is None:
                    raise UserError(words.invite_unknown(), 404)
                if seat.joined:
                    raise UserError(words.invite_used(), 409)
            else:
                if live.invite_only and not live.public:
                    raise UserError(words.invite_needed(), 403)
                free = [s for s in live.seats if s.kind == "human" and not s.joined]
                if not free:
                    raise UserError(words.seats_full(), 409)
                seat = free[0]
            player = player or words.stored_name(words.default_player, seat.seat)
            token = new_token()
            done = await self._db(self.store.join, live.id, seat.seat, player, hash_token(token))
            if not done:
                raise UserError(words.seat_just_taken(), 409)
            live.seats[seat.seat] = replace(
                seat, name=player, token_hash=hash_token(token), joined=True
            )
            if live.joined:
                live.status = "playing"
            live.set_names()
            self._broadcast(live)
        return live, seat.seat, token

    async def lobby(self) -> dict[str, list[dict[str, Any]]]:
        return await self._db(self.store.lobby)

    async def records(self, game_id: str) -> list[tuple[int, str, str]]:
        """The records of a finished match.

        :raises UserError: (403) while the match is being played.
        """
        live = await self.get(game_id, current=True)
        over = live.match.is_over
        self.release(live)
        if not over:
            raise UserError(
                _("The records of a game can be downloaded once the match is over."), 403
            )
        return await self._db(self.store.records, game_id)

    def release(self, live: LiveMatch) -> None:
        """Done with a game loaded for an HTTP request: drop it if no one is connected."""
        self._evict(live)

    # ------------------------------------------- other processes' changes

    def _notified(
        self,
        game_id: str,
        kind: str,
        number: int,
        origin: str,
        action: tuple[int, int, str] | None = None,
    ) -> None:
        """Another process committed a change to a game (:mod:`.notify`); ``action``: the
        action it stored (deal, player, text), when the notification carries it."""
        if origin == self.store.origin:
            return
        if game_id in self._loading:
            self._stale.add(game_id)  # read again once loaded: the load may predate it
            return
        live = self.live.get(game_id)
        if live is None or (kind == "a" and number <= live.seq):
            return
        if kind == "a":
            live.heard = max(live.heard, number)
            if action is not None:
                live.announced[number] = ActionRow(number, *action)
        elif kind == "s":
            live.unread = True  # a seed: the shuffles' rows are read with the new actions
        else:
            live.stale_rows = True  # a seat or the rematch: read the game's rows too
        self._refresh_soon(live)

    def _refresh_all(self) -> None:
        """After notifications may have been lost: bring every game in memory up to date."""
        for live in list(self.live.values()):
            self._refresh_soon(live)

    def _refresh_soon(self, live: LiveMatch) -> None:
        """Bring a game up to date in the background (one refresh at a time per game; changes
        that come meanwhile are read by one more)."""
        if live.id in self._refreshing:
            self._stale.add(live.id)
            return
        self._refreshing.add(live.id)
        task = asyncio.get_running_loop().create_task(self._refreshes(live))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refreshes(self, live: LiveMatch) -> None:
        try:
            while True:
                self._stale.discard(live.id)
                await self.refresh(live)
                if live.id not in self._stale:
                    return
        finally:
            self._refreshing.discard(live.id)

    async def refresh(self, live: LiveMatch) -> None:
        """Read what other processes stored for a game, apply it, and show it to this
        process's connections; a computer seat to move now gets a stand-in (see :class:`Hub`)."""
        async with live.lock:
            if live.evicted:
                return
            try:
                changed = await self._catch_up(live, full=live.stale_rows)
            except Exception:
                log.exception("game %s: could not bring it up to date", live.id)
                return
            if changed:
                self._broadcast(live)
        if changed:
            self._kick_bot(live, standby=True)

    async def _catch_up(self, live: LiveMatch, *, full: bool = True) -> bool:
        """Apply what other processes stored (the game's lock is held); whether it changed.

        ``full``: the game's rows too (its seats, its rematch), not only the new actions and
        the shuffles of the deals from the one in play on."""
        if full:
            live.stale_rows = live.unread = False
            loaded = await self._db(self.store.load, live.id, live.seq)
            if loaded is None:
                return False
            changed = live.catch_up(*loaded)
        elif not live.unread and (announced := live.take_announced()) is not None:
            changed = live.catch_up(None, announced, ())  # no need to read them back
        else:
            live.unread = False
            if self.store.postgres:
                news, deals = await self.store.since_async(live.id, live.seq, live.deal_number)
            else:
                news, deals = await self._db(self.store.since, live.id, live.seq, live.deal_number)
            changed = live.catch_up(None, news, deals)
        await self.save_shuffles(live)
        return changed

    # ------------------------------------------------------ connections

    async def connect(self, live: LiveMatch, conn: Conn) -> LiveMatch:
        """Add a connection and send it the game; returns the live game it was added to."""
        while True:
            async with live.lock:
                if not live.evicted:
                    live.conns.add(conn)
                    with speaking(conn.lang):
                        conn.send_state(_with_invitations(live, conn, live.view(conn.seat)))
                    # a client may come from a process that died before its bot moved
                    self._kick_bot(live)
                    return live
            live = await self.get(live.id)

    def disconnect(self, live: LiveMatch, conn: Conn) -> None:
        live.conns.discard(conn)
        self._evict(live)

    def _evict(self, live: LiveMatch) -> None:
        """Drop a game nobody is connected to from memory (the database has all of it)."""
        busy = live.bot_task is not None and not live.bot_task.done()
        if live.conns or busy or live.lock.locked():
            return
        if self.live.get(live.id) is live:
            del self.live[live.id]
        live.evicted = True

    def _broadcast(self, live: LiveMatch, actor: Conn | None = None, ack: Any = None) -> None:
        """Send every connection its view, written in its own language."""
        cache: dict[tuple[int | None, str], dict[str, Any]] = {}
        shared: dict[str, dict[str, Any]] = {}
        for conn in list(live.conns):
            view = cache.get((conn.seat, conn.lang))
            if view is None:
                with speaking(conn.lang):
                    common = shared.get(conn.lang)
                    if common is None:
                        common = shared[conn.lang] = live.shared_view()
                    view = cache[conn.seat, conn.lang] = live.view(conn.seat, common)
            view = _with_invitations(live, conn, view)
            if conn is actor:
                conn.send_state({**view, "ack": ack})
            else:
                conn.send_state(view)

    async def handle(self, live: LiveMatch, conn: Conn, data: Any) -> None:
        """One message from a client.

        :raises UserError: for anything wrong with it; nothing changes.
        """
        if not isinstance(data, dict):
            raise UserError(
                _("A message must be a JSON object such as {example}.").format(
                    example='{"type": "act", ...}'
                )
            )
        kind = data.get("type")
        if kind == "act":
            await self.act(live, conn, data.get("action"), data.get("id"))
        elif kind == "hint":
            await self.hint(live, conn)
        elif kind == "rematch":
            await self.rematch(live, conn)
        elif kind == "review":
            await self.review(live, conn, data.get("deal"))
        elif kind == "seed":
            if conn.seat is None:
                raise UserError(_("Only the players add seeds to the shuffle, not spectators."))
            seed = check_seed(data.get("seed"))
            deal = data.get("deal")
            if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int)):
                raise UserError(_("'deal' must be the number of the deal the seed is for."))
            async with live.lock:
                await self._give_seed(live, conn.seat, seed, deal)
            self._broadcast(live)
            self._kick_bot(live)
        elif kind == "ping":
            conn.send({"type": "pong", "id": echo_id(data.get("id"))})
        elif kind == "lang":
            await self.relanguage(live, conn, data.get("lang"))
        else:
            raise UserError(
                _(
                    "Unknown message type {kind}: use act, seed, hint, review, rematch, lang "
                    "or ping."
                ).format(kind=repr(str(kind)[:20]))
            )

    async def relanguage(self, live: LiveMatch, conn: Conn, code: Any) -> None:
        """Write this connection's words in ``code`` from now on, and send it the game again
        (a ``state`` message without ``ack``)."""
        base = code.strip().replace("_", "-").split("-")[0].lower() if isinstance(code, str) else ""
        if base not in LANGUAGES:
            offered = ", ".join(LANGUAGES)
            raise UserError(
                _("'lang' must be one of the languages offered: {languages}.").format(
                    languages=offered
                )
            )
        conn.lang = negotiate([base])
        async with live.lock:
            with speaking(conn.lang):
                conn.send_state(_with_invitations(live, conn, live.view(conn.seat)))

    async def greet(self, live: LiveMatch, seat: int | None, seed: str | None) -> LiveMatch:
        """A client said hello from ``seat``: its seed (or, for the first deal, the lack of
        one) goes to the deal being shuffled.  Returns the live game."""
        while True:
            async with live.lock:
                if not live.evicted:
                    changed = False
                    number = live.collecting
                    if seat is not None and number is not None:
                        row = live.shuffle_for(number)
                        if row.client_seeds[seat] is None and (seed or number == 1):
                            # (refused if another connection of the seat, on another
                            # process, gave one first: this copy has caught up then)
                            with contextlib.suppress(UserError):
                                await self._give_seed(live, seat, seed or "", number)
                            changed = True
                    break
            live = await self.get(live.id)
        if changed:
            self._broadcast(live)
            self._kick_bot(live)
        return live

    async def _give_seed(self, live: LiveMatch, seat: int, seed: str, deal: int | None) -> None:
        """Store ``seat``'s seed for the deal being shuffled (the game's lock is held).

        :raises UserError: if no deal is being shuffled, ``deal`` is another one, or the
            seat has given its seed already; nothing changes.
        """
        number = live.collecting
        if number is None:
            raise UserError(_("No deal is being shuffled: the match is over."))
        if deal is not None and deal != number:
            raise UserError(
                _("Seeds are being taken for deal {number}, not for deal {deal}.").format(
                    number=number, deal=str(deal)[:12]
                )
            )
        again = _("You have added your seed to the shuffle of deal {number} already.")
        if live.shuffle_for(number).client_seeds[seat] is not None:
            raise UserError(again.format(number=number))
        await self.save_shuffles(live)
        if self.store.postgres:
            stored = await self.store.add_client_seed_async(live.id, number, seat, seed)
        else:
            stored = await self._db(self.store.add_client_seed, live.id, number, seat, seed)
        if stored is None:  # given from another process, or the deal was dealt meanwhile
            if await self._catch_up(live):
                self._broadcast(live)
            raise UserError(again.format(number=number))
        live.add_seed(stored)
        await self.save_shuffles(live)

    async def save_shuffles(self, live: LiveMatch) -> None:
        """Store the shuffles the game drew in memory (a failure is logged and retried later).

        Where another process stored a deal's shuffle first, that one is used."""
        while live.unsaved:
            row = live.unsaved[0]
            try:
                if self.store.postgres:
                    stored = await self.store.add_deal_async(live.id, row)
                else:
                    stored = await self._db(self.store.add_deal, live.id, row)
            except Exception:
                log.exception("game %s: could not store the shuffle of deal %s", live.id, row.deal)
                return
            live.adopt_shuffle(stored)

    async def act(self, live: LiveMatch, conn: Conn, text: Any, msg_id: Any = None) -> None:
        """A player's action, as text (``take 5c6c7c``, ``decline``, ``discard Kh``)."""
        msg_id = echo_id(msg_id)
        if conn.seat is None:
            raise UserError(_("You are watching this game; only its players can move."))
        if not isinstance(text, str) or not text.strip():
            raise UserError(
                _("An 'act' message needs the action as text, e.g. {example}.").format(
                    example="'discard Kh'"
                )
            )
        if len(text) > 200:
            raise UserError(_("That action is too long to be a move."))
        try:
            action = Action.parse(text)
        except InvalidNotationError as exc:
            raise UserError(
                _("Cannot read the action {action}: {error}").format(
                    action=repr(text[:60]), error=exc
                )
            ) from None
        async with live.lock:
            # a copy that may be behind another process's is brought up to date before a
            # refusal, and the move judged again after another process's got in first
            caught_up = self.store.channel is None
            for _attempt in range(COMMIT_TRIES):
                problem = _cannot_act(live, conn.seat)
                if problem is not None:
                    if caught_up:
                        raise problem
                elif await self._commit(live, conn.seat, action, conn, msg_id):
                    return
                if problem is not None and await self._catch_up(live):
                    self._broadcast(live)
                caught_up = True
        raise UserError(_("The server could not save that move; please try again."), 500)

    async def seat_of(self, live: LiveMatch, token: str | None) -> int | None:
        """The seat whose secret is ``token`` (None: none), reading the game again first if
        this copy does not know it (the seat may have been taken on another process)."""
        seat = live.seat_for(token)
        if seat is None and token and self.store.channel is not None:
            async with live.lock:
                if await self._catch_up(live):
                    self._broadcast(live)
            seat = live.seat_for(token)
        return seat

    async def _commit(
        self, live: LiveMatch, player: int, action: Action, conn: Conn | None, msg_id: Any
    ) -> bool:
        """Check, store, then acknowledge and show one action (the game's lock is held).

        False if another process stored an action with that number first: nothing was
        stored, and this copy of the game is brought up to date (and shown) instead.
        """
        try:
            pending = live.push(player, action)
        except IllegalActionError as exc:
            raise refusal(exc, Names(live.shown_names(), me=player), live.look) from None
        row, record, status = pending
        # the action that ends a deal fixes the next deal's shuffle and seeds
        following = live.shuffles.get(row.deal + 1) if record and status is None else None
        try:
            if self.store.postgres:
                stored = await self.store.add_action_async(
                    live.id,
                    row,
                    record=record,
                    status=status,
                    next_deal=following,
                    # every player sees it (not an exchange choice), and it ends no deal:
                    # the others are told it
                    announce=action.kind is not ActionKind.EXCHANGE and record is None,
                )
            else:
                stored = await self._db(
                    self.store.add_action,
                    live.id,
                    row,
                    record=record,
                    status=status,
                    next_deal=following,
                )
        except IntegrityError:
            live.undo()
            log.info("game %s: action %s was stored by another process first", live.id, row.seq)
            if await self._catch_up(live, full=False):
                self._broadcast(live)
            return False
        except Exception:
            live.undo()
            log.exception("game %s: could not store action %s", live.id, row.seq)
            raise UserError(
                _("The server could not save that move; please try again."), 500
            ) from None
        if stored is not None:
            live.adopt_shuffle(stored)
        live.settle(pending)
        await self.save_shuffles(live)
        self._broadcast(live, conn, msg_id)
        self._kick_bot(live)
        return True

    # --------------------------------------------------------- bots

    def _kick_bot(self, live: LiveMatch, *, standby: bool = False) -> None:
        """Move the computer seat whose turn it is (``standby``: only if the process that
        should move it has not, :data:`BOT_STANDBY` seconds on)."""
        if live.bot_to_act() is None:
            return
        task = live.bot_task
        if task is not None and not task.done():
            if standby or not (live.bot_backup and live.bot_waiting):
                return
            task.cancel()  # a stand-in still waiting: this process moves it now
        live.bot_backup = standby
        live.bot_task = asyncio.get_running_loop().create_task(self._bot_moves(live))

    async def _bot_moves(self, live: LiveMatch) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                async with live.lock:
                    p = live.bot_to_act()
                    if p is None:
                        return
                    turn = live.table.bot_turn(p)  # seeded: a reload gets the same move
                    seq = live.seq
                if live.bot_backup:
                    live.bot_waiting = True
                    try:
                        await asyncio.sleep(self.bot_delay + BOT_STANDBY)
                    finally:
                        live.bot_waiting = False
                    if live.seq != seq:
                        continue  # the other process moved it
                    live.bot_backup = False
                elif self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                action = await loop.run_in_executor(self._bot_pool, turn.decide)
                async with live.lock:
                    if live.seq != seq:
                        continue
                    await self._commit(live, p, action, None, None)
        except UserError as exc:
            log.error("game %s: the bot's move failed: %s", live.id, exc)
        finally:
            if live.bot_task is asyncio.current_task():  # not a stand-in replaced
                live.bot_task = None
                self._evict(live)

    async def hint(self, live: LiveMatch, conn: Conn) -> None:
        """Suggest a move to the player to act (to that client only)."""
        if conn.seat is None:
            raise UserError(_("Hints are for the players, not for spectators."))
        if not live.hints:
            raise UserError(_("Hints are off in this game: the player who made it chose so."))
        async with live.lock:
            if not live.ready or live.match.is_over or live.game.state.to_act != conn.seat:
                raise UserError(_("A hint is given when it is your turn to move."))
            if conn.hinting:
                raise UserError(_("A hint is on its way."))
            obs = live.game.observation(conn.seat)
            seq = live.seq
        bot = make_bot(
            HINT_BOT, rng=random.Random(f"hint:{live.bot_seed}:{seq}"), budget=HINT_BUDGET
        )
        bot.new_deal(conn.seat, live.rules)
        conn.hinting = True
        try:
            action = await asyncio.get_running_loop().run_in_executor(self._bot_pool, bot.act, obs)
        finally:
            conn.hinting = False
        with speaking(conn.lang):
            why = reason_words(bot.why, MARKED)
            conn.send(
                {
                    "type": "hint",
                    "seq": seq,
                    "action": str(action),
                    "words": segments(describe_action(action, obs, MARKED)),
                    "why": unmarked(why, live.look),
                    "why_words": segments([Span(why)]),
                    "reason": bot.reason,
                }
            )

    async def review(self, live: LiveMatch, conn: Conn, deal: Any) -> None:
        """Judge the decisions of this connection's player in a finished deal (to that
        client only): ``review_progress`` messages while it is worked out, then ``review``.
        The review sees what the player saw only; in a game without hints, the deals are
        reviewed once the match is over."""
        if conn.seat is None:
            raise UserError(_("Reviews are for the players, not for spectators."))
        seat = conn.seat
        if isinstance(deal, bool) or not isinstance(deal, int):
            raise UserError(_("'deal' must be the number of a deal that has ended."))
        async with live.lock:
            if not 1 <= deal <= len(live.finished):
                raise UserError(
                    _("Deal {number} has not ended: only a finished deal is reviewed.").format(
                        number=deal
                    )
                )
            if not live.hints and not live.match.is_over:
                raise UserError(
                    _("In a game without hints, the deals are reviewed once the match is over.")
                )
            if conn.reviewing:
                raise UserError(_("A review is on its way."))
            game = live.finished[deal - 1][0]
            done = live.reviews.get((deal, seat))
        if done is None:
            record = GameRecord.from_game(game, event="conquian serve", game=live.id)
            seed = int.from_bytes(hashlib.sha256(f"review:{live.id}:{deal}".encode()).digest()[:4])
            settings = ReviewSettings(samples=REVIEW_SAMPLES, seed=seed)
            loop = asyncio.get_running_loop()

            def progress(count: int, total: int) -> None:  # in the review's thread
                with speaking(conn.lang):
                    said = review_words.progress_text(count, total)
                message = {
                    "type": "review_progress",
                    "deal": deal,
                    "done": count,
                    "total": total,
                    "words": said,
                }
                loop.call_soon_threadsafe(conn.send, message)

            conn.reviewing = True
            try:
                done = await loop.run_in_executor(
                    self._bot_pool,
                    partial(review_deals, [record], seat, settings, progress=progress),
                )
            finally:
                conn.reviewing = False
            live.reviews[deal, seat] = done
        with speaking(conn.lang):
            conn.send(review_message(done, deal, live.rules))

    async def rematch(self, live: LiveMatch, conn: Conn) -> None:
        """Start a new match with the same players (seat tokens carry over)."""
        if conn.seat is None:
            raise UserError(_("Only the players can ask for a rematch."))
        async with live.lock:
            if not live.match.is_over:
                raise UserError(_("A rematch can start once this match is over."))
            if live.rematch_id is None:
                seeds = random.SystemRandom()
                row = MatchRow(
                    id=secrets.token_urlsafe(8),
                    created=0.0,
                    mode=live.mode,
                    level=live.level,
                    rules=live.rules.to_spec(),
                    match_seed=seeds.randrange(2**63),
                    bot_seed=seeds.randrange(2**63),
                    status="playing",
                    rematch_id=None,
                    rematch_of=live.id,
                    # the seats and their tokens carry over; the invitations were used
                    seats=tuple(replace(s, invite_hash=None) for s in live.seats),
                    public=live.public,
                    fair=True,
                    invite_only=live.invite_only,
                    hints=live.hints,
                )
                fresh = LiveMatch(row)
                if await self._db(self.store.set_rematch, live.id, row, fresh.unsaved.pop(0)):
                    self.live[row.id] = fresh
                    self._kick_bot(fresh)
                    live.rematch_id = row.id
                else:  # made by another server process: read it back
                    loaded = await self._db(self.store.load, live.id)
                    if loaded is not None:
                        live.rematch_id = loaded[0].rematch_id
            self._broadcast(live)


MAX_ID = 2**53
"""Larger message ids are not echoed: JavaScript could not read them back exactly."""


REVIEW_SAMPLES = IN_GAME_SAMPLES
"""Sampled deals per decision of a review asked for in the browser (the command line's
default is 200): a two-player deal is reviewed in a few seconds."""


def review_message(review: Review, deal: int, rules: Rules) -> dict[str, Any]:
    """A deal's review as one message, its words in the language in use: each decision (the
    judged ones with their line of words), its winning chances and the summary."""
    decisions = []
    for d in review.deal_decisions(1):
        item = d.to_dict()
        item["deal"] = deal
        if d.judged:
            played = review_words.move_words(d.played, d.table, d.centre, MARKED)
            best = review_words.move_words(d.best, d.table, d.centre, MARKED)
            mark = None if d.mark is None else d.mark.value
            item["words"] = segments(
                review_words.decision_line(
                    d.move, played, d.chance_played, best, d.chance_best, mark
                )
            )
            item["mark_word"] = None if mark is None else review_words.mark_word(mark)
        decisions.append(item)
    s = review.summary
    return {
        "type": "review",
        "deal": deal,
        "player": review.player,
        "rules": rules.to_spec(),
        "samples": review.settings.samples,
        "seed": review.settings.seed,
        "decisions": decisions,
        "summary": s.to_dict(),
        "summary_words": [
            segments(line)
            for line in review_words.summary_lines(
                s.judged, s.forced, s.inaccuracies, s.mistakes, s.blunders, s.accuracy
            )
        ],
    }


def echo_id(value: Any) -> Any:
    """A client's message id, echoed back (short strings and finite numbers only)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if -MAX_ID <= value <= MAX_ID else None
    if isinstance(value, float):
        return value if math.isfinite(value) and abs(value) <= MAX_ID else None
    if isinstance(value, str) and len(value) <= 40:
        return value
    return None
