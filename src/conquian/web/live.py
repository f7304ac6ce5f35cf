"""One match being played, in memory: the rules of a live match, testable without a server.

A :class:`LiveMatch` is a :class:`~conquian.match.Match` played through the seat driver
(:class:`~conquian.seats.SeatDriver`), rebuilt from the rows the store keeps: its seats (people,
with the hashes of their tokens and invitations, and computer players), the fair shuffle of
each deal, and the accepted actions, each checked again by the engine.  It knows whose turn
it is, who may join, which seeds may still go into a shuffle, and what one action changes;
it keeps no connection, waits for nothing, and says nothing in words: a refusal is a
:class:`Refused` with a :class:`Refusal` code, which the server words for its reader.

Every deal of a match comes from a provably fair shuffle (:mod:`conquian.fair`).  The shuffle
of a deal is drawn, and its commitment published, before the deal before it starts (the
first one when the match is made); each seated person may add a seed of their own until the
deal is dealt.  The first deal is dealt once every person's seat has said hello (with a seed
or without); each later one as soon as the deal before it is settled, with the seeds given by
then.  The server seed is revealed with the deal's end.

>>> row = new_match_row(
...     "m1",
...     (SeatRow(0, "human", "Ana", hash_token("t"), True), SeatRow(1, "bot", "Bot", None, True, "easy")),
...     mode="bot", level="easy", rules="standard", public=False, invite_only=False, hints=True)
>>> live = LiveMatch(row)
>>> live.dealt, live.refusal_to_act(0).reason.value
(False, 'shuffling')
>>> live.give_seed(0, "", None).deal   # the person says hello without a seed: dealt
1
>>> live.dealt, live.seat_for("t")
(True, 0)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from ..actions import Action, ActionKind
from ..bots import Bot, make_bot
from ..bots.lesson import LEARNER, LESSON_DECK, LESSON_MATCH_SEED, expected_action
from ..errors import ConquianError, IllegalActionError
from ..fair import (
    ALGORITHM,
    FIRST_ALGORITHM,
    FairShuffle,
    commitment,
    first_version,
    new_server_seed,
)
from ..game import Game
from ..match import DealResult, Match
from ..records import GameRecord, format_result
from ..rules import Rules, find_rules
from ..seats import Seat, SeatDriver
from .clock import NOBODY, SHUFFLE, Clock
from .schema import ActionRow, DealRow, MatchRow, SeatRow, hash_token

__all__ = [
    "LiveMatch",
    "Pushed",
    "Refusal",
    "Refused",
    "invite_code",
    "new_match_id",
    "new_match_row",
    "new_token",
]


class Refusal(StrEnum):
    """Why something a seat asked for cannot be done now."""

    WAITING_FOR_PLAYERS = "waiting_for_players"
    """A person's seat is still free."""
    SHUFFLING = "shuffling"
    """The first deal waits for every person's seed (or hello)."""
    MATCH_OVER = "match_over"
    MATCH_NOT_OVER = "match_not_over"
    """A rematch is asked for while the match is being played."""
    INVITE_UNKNOWN = "invite_unknown"
    INVITE_USED = "invite_used"
    INVITE_NEEDED = "invite_needed"
    """The match's seats are taken only by invitation."""
    SEATS_FULL = "seats_full"
    NO_SHUFFLE = "no_shuffle"
    """A seed, but no deal is being shuffled (the match is over)."""
    OTHER_DEAL = "other_deal"
    """A seed for another deal than the one being shuffled (``deal`` and ``asked``)."""
    SEED_GIVEN = "seed_given"
    """The seat gave its seed to this deal's shuffle already (``deal``)."""
    LESSON_MOVE = "lesson_move"
    """In the guided first hand, another move than the one the lesson asks for."""
    CLAIM_TWO = "claim_two"
    """A claim at a table that is not of two people (a computer takes a seat left there)."""


class Refused(ConquianError):
    """A seat asked for something the live match does not allow now; nothing changed."""

    def __init__(self, reason: Refusal, *, deal: int = 0, asked: object = None) -> None:
        super().__init__(f"refused: {reason.value}")
        self.reason = reason
        self.deal = deal
        """The deal a seed refusal is about (the one being shuffled)."""
        self.asked = asked
        """What the client asked for, where the refusal quotes it (a deal number)."""


@dataclass(frozen=True, slots=True)
class Pushed:
    """What one action played in memory must store before anyone sees it."""

    row: ActionRow
    record: tuple[int, str, str] | None = None
    """The deal it ended: its number, its result and its record's text."""
    status: str | None = None
    """The match's new status (``over`` when the action ends the match)."""
    next_deal: DealRow | None = None
    """With an action that ends a deal of a match that goes on: the next deal's shuffle, whose
    seeds are fixed by storing it with the action."""


def new_token() -> str:
    """A seat's secret token (144 bits)."""
    return secrets.token_urlsafe(18)


def new_match_id() -> str:
    """A new match's id (64 bits, URL-safe)."""
    return secrets.token_urlsafe(8)


def invite_code(token: str, match_id: str, seat: int) -> str:
    """The invitation code of ``seat``, drawn from the creator's secret ``token``.

    Only its hash is stored; the server works the codes out again from the creator's token
    when the creator's page says hello, so that page can show the links again (after a
    restart, or in another browser).  144 bits, as a seat token: nobody guesses one.

    >>> len(invite_code("token", "m1", 1)), invite_code("token", "m1", 1) == invite_code("token", "m1", 2)
    (24, False)
    """
    message = f"conquian invitation {match_id} {seat}".encode()
    digest = hmac.new(token.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


LESSON = "lesson"
"""The mode of the guided first hand (and the level of its computer)."""
QUICK = "quick"
"""The mode of a quick match's games (play now): they have a clock."""


def new_match_row(
    match_id: str,
    seats: Sequence[SeatRow],
    *,
    mode: str,
    level: str | None,
    rules: str,
    public: bool,
    invite_only: bool,
    hints: bool,
    rematch_of: str | None = None,
    rated: bool = False,
    clock: bool = False,
    chat: bool = False,
) -> MatchRow:
    """A new match's row, with fresh secret seeds: open while a seat is free.  The guided
    first hand (``mode`` ``lesson``) is dealt the lesson's deck, not a fair shuffle."""
    seeds = random.SystemRandom()
    lesson = mode == LESSON
    return MatchRow(
        id=match_id,
        created=0.0,
        mode=mode,
        level=level,
        rules=rules,
        match_seed=LESSON_MATCH_SEED if lesson else seeds.randrange(2**63),
        bot_seed=seeds.randrange(2**63),
        status="open" if any(not s.joined for s in seats) else "playing",
        rematch_id=None,
        rematch_of=rematch_of,
        seats=tuple(seats),
        public=public,
        fair=not lesson,
        invite_only=invite_only,
        hints=hints,
        rated=rated,
        clock=clock,
        chat=chat,
    )


def _server_bot(level: str) -> Bot:
    return make_bot(level, rng=random.Random())


class LiveMatch:
    """One match in memory, rebuilt from the stored rows (see the module's description)."""

    def __init__(
        self, row: MatchRow, stored: Sequence[ActionRow] = (), deals: Sequence[DealRow] = ()
    ) -> None:
        self.id = row.id
        self.mode = row.mode
        self.clock: Clock | None = None
        """A quick-match game's clock, as this process knows it (:mod:`.clock`)."""
        self.gone: tuple[float | None, ...] = ()
        """Each seat of a clocked match whose person has no connection: when his grace ends
        (None: he is here, or it is a computer's seat; ``()``: nobody looked yet)."""
        self.left: tuple[bool, ...] = ()
        """Each seat: its person's grace ran out (:mod:`.absence`)."""
        self.level = row.level
        self.rules: Rules = find_rules(row.rules)
        self.bot_seed = row.bot_seed
        self.status = row.status
        self.rematch_id = row.rematch_id
        self.public = row.public
        self.invite_only = row.invite_only
        self.hints = row.hints
        self.rated = row.rated
        self.clocked = row.clock or row.mode == QUICK
        """Its decisions have a clock (a quick-match game, or a host's choice)."""
        self.chat = row.chat
        """Its players may write to each other, not only say the set phrases."""
        self.count_before = row.count
        """La cuenta before this match (``()``: none), and how many matches it holds."""
        self.count_matches = row.count_matches
        self.fair = row.fair
        self.seats: list[SeatRow] = list(row.seats)
        self.match = Match(self.rules, seed=row.match_seed, players=self.names)
        self.driver = SeatDriver(
            [
                Seat(
                    s.name,
                    _server_bot(self.level_of(s.seat) or "medium") if s.kind == "bot" else None,
                )
                for s in self.seats
            ],
            match=self.match,
            bot_seed=row.bot_seed,
        )
        self.finished: list[tuple[Game, DealResult]] = []
        """Each finished deal with its result, in order."""
        self.seq = 0
        """The number of the last action played (actions are numbered from 1)."""
        self.shuffles: dict[int, DealRow] = {d.deal: d for d in deals}
        """The fair shuffle of each deal drawn so far (with its secret server seed)."""
        self.unsaved: list[DealRow] = []
        """Shuffles drawn in memory that are still to be stored."""
        self._deal_if_due()
        for action_row in stored:
            self._replay(action_row)
        self._abandon(row.abandoned)

    # ------------------------------------------------------------------ the match

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names as stored (a computer's in English)."""
        return tuple(s.name for s in self.seats)

    @property
    def joined(self) -> bool:
        """Every seat is filled."""
        return all(s.joined for s in self.seats)

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

    def level_of(self, seat: int) -> str | None:
        """The level of a computer seat (None for a person's)."""
        row = self.seats[seat]
        if row.kind != "bot":
            return None
        return row.level or self.level or "medium"

    def awaited(self) -> tuple[int, bool]:
        """Whom the match waits for: a person's seat, and whether his decision has one
        choice; :data:`~.clock.SHUFFLE` while the first deal's seeds are awaited;
        :data:`~.clock.NOBODY` otherwise (a computer's turn, a free seat, the match over)."""
        if self.match.is_over or not self.joined:
            return NOBODY, False
        if not self.dealt:
            return SHUFFLE, False
        player = self.driver.to_act
        if player is None or self.seats[player].kind == "bot":
            return NOBODY, False
        return player, len(self.game.legal_actions()) == 1

    def bot_to_act(self) -> int | None:
        """The computer seat to act now, if any."""
        if self.match.is_over or not self.ready:
            return None
        return self.driver.bot_to_act()

    def forced_to_act(self) -> int | None:
        """The person's seat to act now with one choice only, in a match with a clock (the
        server makes that decision at once, see :mod:`.clock`); None if there is none."""
        if not self.clocked or self.match.is_over or not self.ready:
            return None
        player = self.driver.to_act
        if player is None or self.seats[player].kind == "bot":
            return None
        return player if len(self.game.legal_actions()) == 1 else None

    def refusal_to_act(self, seat: int) -> Refused | IllegalActionError | None:
        """Why ``seat`` cannot move now (None: it may): a seat is free, the first deal is
        being shuffled, the match is over, or it is another seat's turn."""
        if not self.joined:
            return Refused(Refusal.WAITING_FOR_PLAYERS)
        if not self.dealt:
            return Refused(Refusal.SHUFFLING)
        if self.match.is_over:
            return Refused(Refusal.MATCH_OVER)
        to_act = self.game.state.to_act
        if to_act != seat:
            return IllegalActionError.not_your_turn(seat, to_act)
        return None

    def push(self, player: int, action: Action) -> Pushed:
        """Play ``action`` in memory; returns what must be stored before it is shown (then
        :meth:`settle`, or :meth:`undo` if it could not be stored).

        :raises Refused: once the match is over.
        :raises IllegalActionError: with the reason; nothing changes.
        """
        if self.match.is_over:
            raise Refused(Refusal.MATCH_OVER)
        expected = self.lesson_expects(player)
        if expected is not None and action != expected and self.game.state.to_act == player:
            raise Refused(Refusal.LESSON_MOVE)
        self.driver.push(player, action)
        deal = self.deal_number
        row = ActionRow(self.seq + 1, deal, player, str(action))
        state = self.game.state
        if not state.is_over:
            return Pushed(row)
        record = GameRecord.from_game(self.game, event="conquian serve", game=self.id)
        ends_match = self.driver.would_end_match()
        return Pushed(
            row,
            record=(deal, format_result(state.outcome()), record.dumps()),
            status="over" if ends_match else None,
            next_deal=None if ends_match else self.shuffles.get(deal + 1),
        )

    def undo(self) -> None:
        """Take back the action of a :meth:`push` that could not be stored."""
        self.driver.undo()

    def settle(self, pushed: Pushed) -> None:
        """After the action is stored: count it, settle a finished deal and deal the next."""
        self.seq = pushed.row.seq
        if not self.driver.deal_is_over:
            return
        game = self.game
        result = self.driver.settle()
        assert result is not None
        self.finished.append((game, result))
        if self.match.is_over:
            self.status = "over"
        else:
            self._deal_if_due()

    def _replay(self, row: ActionRow) -> None:
        if row.seq != self.seq + 1 or row.deal != self.deal_number:
            raise ConquianError(f"Match {self.id}: stored action {row.seq} is out of order.")
        self.settle(self.push(row.player, Action.parse(row.action)))

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
            self._rename()
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
        if row is not None and row.abandoned is not None and self.match.abandoned_by is None:
            self._abandon(row.abandoned)
            changed = True
        return changed

    def _abandon(self, seat: int | None) -> None:
        """``seat``'s player left the match, and it was claimed (None: nobody did)."""
        if seat is not None and not self.match.is_over:
            self.match.abandon(seat)
            self.status = "over"
            self.clock = None

    def claimable(self, seat: int) -> int:
        """The seat ``seat`` would claim the match from (the other of a table of two people;
        whether he is gone, the caller knows).

        :raises Refused: once the match is over, or where the table is not of two people.
        """
        if self.match.is_over:
            raise Refused(Refusal.MATCH_OVER)
        if len(self.seats) != 2 or any(s.kind == "bot" for s in self.seats):
            raise Refused(Refusal.CLAIM_TWO)
        return 1 - seat

    def abandoned(self, seat: int) -> None:
        """``seat``'s player left the match and the other claimed it (stored already)."""
        self._abandon(seat)

    # ------------------------------------------------------------------ seats

    def seat_for(self, token: str | None) -> int | None:
        """The seat whose secret is ``token``, or None."""
        if not token:
            return None
        hashed = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, hashed):
                return s.seat
        return None

    def seat_of_player(self, player_id: str) -> int | None:
        """The (first) seat this player sat in, or None."""
        for s in self.seats:
            if s.player_id == player_id:
                return s.seat
        return None

    def invitations(self, token: str, *, taken: bool = False) -> dict[int, str]:
        """The invitation code of each free seat (``taken``: of the taken ones too), for the
        creator whose token is ``token`` (none for another token)."""
        out = {}
        for s in self.seats:
            if (s.joined and not taken) or s.invite_hash is None:
                continue
            code = invite_code(token, self.id, s.seat)
            if secrets.compare_digest(hash_token(code), s.invite_hash):
                out[s.seat] = code
        return out

    def seat_to_join(self, invite: str | None) -> SeatRow:
        """The seat a join takes: the seat of invitation ``invite``, or without one the next
        free person's seat of a match whose seats are not taken only by invitation.

        :raises Refused: the invitation is unknown or used, one is needed, or no seat is free.
        """
        if invite:
            hashed = hash_token(invite)
            for s in self.seats:
                if s.invite_hash is not None and secrets.compare_digest(s.invite_hash, hashed):
                    if s.joined:
                        raise Refused(Refusal.INVITE_USED)
                    return s
            raise Refused(Refusal.INVITE_UNKNOWN)
        if self.invite_only and not self.public:
            raise Refused(Refusal.INVITE_NEEDED)
        for s in self.seats:
            if s.kind == "human" and not s.joined:
                return s
        raise Refused(Refusal.SEATS_FULL)

    def seat_taken(
        self, seat: int, name: str, token_hash: str, player_id: str | None = None
    ) -> None:
        """A person took ``seat`` (once stored): the match is played when every seat is."""
        self.seats[seat] = replace(
            self.seats[seat], name=name, token_hash=token_hash, joined=True, player_id=player_id
        )
        if self.joined:
            self.status = "playing"
        self._rename()

    def _rename(self) -> None:
        """After a seat changed hands: the match, its deal and the table use the new names."""
        names = self.names
        self.match.players = names
        if self.dealt:
            self.game.players = names
        for seat, name in zip(self.driver.seats, names, strict=True):
            seat.name = name

    @property
    def count(self) -> list[int]:
        """La cuenta: each seat's total over the matches before this one and this one."""
        before = self.count_before or (0,) * len(self.seats)
        return [a + b for a, b in zip(before, self.match.balance, strict=True)]

    def lesson_expects(self, player: int) -> Action | None:
        """In the guided first hand, the learner's move the lesson wants now (None: any
        move, or not a lesson)."""
        if self.mode != LESSON or player != LEARNER or not self.dealt:
            return None
        return expected_action(self.game)

    @property
    def just_took(self) -> bool:
        """Whether a player took a card in one of the last two moves (the table changed: the
        computer pauses longer before its next move, so a person sees what was laid)."""
        if not self.dealt:
            return False
        return any(e.action.kind is ActionKind.TAKE for e in self.game.history[-2:])

    def rematch_row(self, keep_count: bool = True) -> MatchRow:
        """The row of a new match with the same players (their tokens carry over, the
        invitations were used), carrying la cuenta on unless ``keep_count`` is False.

        :raises Refused: while this match is being played.
        """
        if not self.match.is_over:
            raise Refused(Refusal.MATCH_NOT_OVER)
        row = new_match_row(
            new_match_id(),
            [replace(s, invite_hash=None) for s in self.seats],
            mode=self.mode,
            level=self.level,
            rules=self.rules.to_spec(),
            public=self.public,
            invite_only=self.invite_only,
            hints=self.hints,
            rated=self.rated,
            clock=self.clocked and self.mode != QUICK,
            chat=self.chat,
            rematch_of=self.id,
        )
        if not keep_count:
            return row
        return replace(row, count=tuple(self.count), count_matches=self.count_matches + 1)

    # ------------------------------------------------------------------ shuffles

    @property
    def collecting(self) -> int | None:
        """The deal whose seeds are being collected (the next one to be dealt), if any."""
        if not self.fair or self.match.is_over:
            return None
        return self.match.deal_number + 1

    def shuffle_for(self, number: int) -> DealRow:
        """The shuffle of deal ``number``, drawn now if it has none yet."""
        row = self.shuffles.get(number)
        if row is None:
            server = new_server_seed()
            dealer, players = self.match.dealer_of(number), self.rules.num_players
            published = commitment(server, dealer, players)
            row = DealRow(number, server.hex(), published, (None,) * len(self.seats))
            self.shuffles[number] = row
            self.unsaved.append(row)
        return row

    def seed_deal(self, seat: int, asked: int | None) -> int:
        """The deal that ``seat``'s seed would go to now (``asked``: the deal the client
        means, if it said).

        :raises Refused: no deal is being shuffled, ``asked`` is another one, or the seat
            gave its seed to this one already.
        """
        number = self.collecting
        if number is None:
            raise Refused(Refusal.NO_SHUFFLE)
        if asked is not None and asked != number:
            raise Refused(Refusal.OTHER_DEAL, deal=number, asked=asked)
        if self.shuffle_for(number).client_seeds[seat] is not None:
            raise Refused(Refusal.SEED_GIVEN, deal=number)
        return number

    def give_seed(self, seat: int, seed: str, asked: int | None) -> DealRow:
        """Put ``seat``'s seed (hex, ``""`` for none) into the shuffle being drawn, in memory
        only (a match that is not stored: the server stores the seed first and then calls
        :meth:`add_seed` with the stored shuffle); deals if now due.

        :raises Refused: as :meth:`seed_deal`.
        """
        number = self.seed_deal(seat, asked)
        row = self.shuffle_for(number).with_seed(seat, seed)
        self.add_seed(row)
        return row

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

    def _deal_if_due(self) -> None:
        """Deal the next deal if it may be dealt now (see the module's description)."""
        if self.match.is_over or self.match.deal is not None:
            return
        if self.mode == LESSON:
            self.driver.start(deck=LESSON_DECK)
            return
        if not self.fair:  # stored by an earlier version: dealt from the match seed
            self.driver.start()
            return
        number = self.match.deal_number + 1
        row = self.shuffle_for(number)
        if number == 1 and any(
            seed is None and seat.kind == "human"
            for seed, seat in zip(row.client_seeds, self.seats, strict=True)
        ):
            return
        server = bytes.fromhex(row.server_seed)
        shuffle = FairShuffle(
            commitment=row.commitment,
            client_seeds=tuple(bytes.fromhex(c) for c in row.client_seeds if c),
            server_seed=server,
            # a shuffle stored before the commitment bound the dealer is dealt as it was drawn
            algorithm=FIRST_ALGORITHM if first_version(server, row.commitment) else ALGORITHM,
        )
        self.driver.start(fair=shuffle)
        self.shuffle_for(number + 1)  # its commitment is published during this deal
