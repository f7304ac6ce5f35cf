"""Fair-play signals for the moderators (``conquian moderate``): patterns in the stored games
that a person should look at.  Nothing here acts on a signal; a signal is not a verdict.

Three signals, each over the games of a window (:data:`WINDOW_DAYS`, the newest first):

- **Feeding pairs.**  At tables of three or four, player A *feeds* player B: the cards A pays
  or passes are taken by B far more often than by the others A offers cards to, and A never
  forces B (rule M12) although the engine let him (:func:`feeding_pairs`).
- **Identities that meet too often.**  Quick match seats strangers at random, so two people
  who keep sitting at the same quick tables, in most of the games each of them plays, may be
  one person with two identities, or two who queue together (:func:`meeting_pairs`).
- **Expert agreement with steady think times.**  A person whose think times are unusually
  even (:func:`think_variation`) and whose decisions agree with the ``expert`` bot far more
  often than players of his rating do (:func:`agrees_far_above`).  The expert is slow, so
  only a bounded, seeded sample of each steady player's decisions is asked
  (:func:`sample_decisions`).

The measures are pure functions over plain rows (:class:`Seating`, :class:`Offer`,
:class:`ForceChance`, :class:`Decision`); :func:`fair_play_signals` reads them from the
database, replaying each game with the engine (:class:`.live.LiveMatch`) to know who offered
which card to whom, when a force was legal, and how many choices each decision had.  The
signals name players by id and games by id, with counts and rates: no cards, seeds or tokens.

>>> seatings = [Seating(f"g{i}", 0.0, True, 3, ("ana", "ben")) for i in range(6)]
>>> [(p.first, p.second, len(p.games)) for p in meeting_pairs(seatings, since=0.0)]
[('ana', 'ben', 6)]
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection, Engine

from ..actions import Action, ActionKind
from ..bots import LEVEL_RATINGS, Budget, make_bot
from ..errors import ConquianError
from ..game import Game
from ..observation import Observation, observe
from ..rules import Rules, find_rules
from ..state import GameState, Phase, Source
from .clock import DECISION
from .live import LESSON, QUICK, LiveMatch
from .ratings import MU, SIGMA, shown
from .schema import ActionRow, actions, deal_row, deals, leaves, match_row, matches, players
from .schema import ratings as rating_rows
from .schema import seats as seat_rows

__all__ = [
    "Decision",
    "FeedingPair",
    "ForceChance",
    "MeetingPair",
    "Offer",
    "Seating",
    "Signals",
    "SteadyExpert",
    "agrees_far_above",
    "expected_agreement",
    "fair_play_signals",
    "feeding_pairs",
    "meeting_pairs",
    "sample_decisions",
    "steady_thinkers",
    "think_variation",
]

# ------------------------------------------------------------------ thresholds

WINDOW_DAYS = 30
"""The signals look at the games created in the last this many days."""

FEED_MIN_GAMES = 5
"""Feeding: games A and B played together at tables of three or four."""
FEED_MIN_TAKEN = 5
"""Feeding: cards of A's that B took (fewer is chance)."""
FEED_MIN_TO_OTHERS = 20
"""Feeding: cards A offered to the others (his usual rate needs that many to mean anything)."""
FEED_RATIO = 2.0
"""Feeding: B takes A's cards at least this many times as often as the others do."""
FORCE_MIN_CHANCES = 3
"""Feeding: A could have forced B at least this many times, and never did."""

MEET_MIN_GAMES = 5
"""Meeting: quick games two people played together."""
MEET_SHARE = 0.5
"""Meeting: the games together are at least this share of each one's quick games."""

STEADY_CV = 0.3
"""Steady: the coefficient of variation of a person's think times at or below this (people
who think vary far more, typically 0.8 or above: an easy choice is quick, a hard one slow)."""
STEADY_MIN_TIMES = 20
"""Steady: timed decisions (with two choices or more) needed to judge."""
EXPERT_SAMPLE = 20
"""Expert: the most decisions of each steady person asked of the expert (``--sample``)."""
EXPERT_MIN_COMPARED = 10
"""Expert: decisions compared before a person is flagged (or all of a smaller sample asked)."""
EXPERT_MOST_PLAYERS = 10
"""Expert: the most people checked in one run, the steadiest first (the run time's bound:
about this times the sample times half a second)."""
AGREEMENT_MARGIN = 0.15
"""Expert: his agreement at least this much above what his rating leads one to expect."""
EXPERT_BUDGET = Budget(iterations=600)
"""The expert's sampled deals per candidate, as at its level, but with no time cap: the same
decision gets the same answer on any machine."""

LEVELS = ("beginner", "easy", "medium", "hard", "expert")
LEVEL_AGREEMENT: dict[int, tuple[float, ...]] = {
    2: (0.42, 0.52, 0.61, 0.75, 0.86),
    3: (0.48, 0.47, 0.59, 0.67, 0.79),
    4: (0.38, 0.49, 0.51, 0.59, 0.74),
}
"""How often each level's choice (:data:`LEVELS`) is the expert's (:data:`EXPERT_BUDGET`,
another seed), at decisions with two choices or more, by the players at the table: measured
over positions of games between the levels, 150 of each of classic and two-player Mexican
(averaged), three- and four-player Mexican (each within about 0.04; the expert agrees with
itself only so often because its search samples the hidden cards)."""
START_RATING = shown(MU, SIGMA)
"""The rating a new player shows (and a player with no rating is taken to have)."""
LEVEL_PLACES = tuple(START_RATING + LEVEL_RATINGS[lv] - LEVEL_RATINGS["medium"] for lv in LEVELS)
"""The rating each level is taken to play at: a new player (1500) is taken to play like
``medium``, and each level sits above or below him by its rating's distance (docs/strength.md)."""


# ------------------------------------------------------------------ the rows measured


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sat at one game: its id, when it was made, whether quick match seated it, its
    seats, and the people seated (their player ids, each once)."""

    game: str
    created: float
    quick: bool
    seats: int
    people: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Offer:
    """A card one person paid or passed, offered to another seat (``to``: its person, None for
    a computer), and whether that seat took it (or laid it off)."""

    game: str
    giver: str
    to: str | None
    taken: bool


@dataclass(frozen=True, slots=True)
class ForceChance:
    """A force decision (rule M12): ``forcer`` could make ``refuser`` (None: a computer) take
    the card he refused, and ``forced`` says whether he did."""

    game: str
    forcer: str
    refuser: str | None
    forced: bool


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a person with two legal choices or more: its game and action number,
    how many choices, and the seconds since the action before it in the deal (None for a
    deal's first)."""

    player: str
    game: str
    seq: int
    choices: int
    think: float | None


# ------------------------------------------------------------------ the signals


@dataclass(frozen=True, slots=True)
class FeedingPair:
    """``giver``'s cards went to ``taker`` (see :func:`feeding_pairs`)."""

    giver: str
    taker: str
    games: tuple[str, ...]
    offered: int
    """Cards the giver paid or passed that were offered to the taker."""
    taken: int
    others_offered: int
    others_taken: int
    chances: int
    """Times the giver could force the taker (he never did)."""

    @property
    def rate(self) -> float:
        return self.taken / self.offered

    @property
    def others_rate(self) -> float:
        return self.others_taken / self.others_offered


@dataclass(frozen=True, slots=True)
class MeetingPair:
    """Two people who sat at many quick games together (see :func:`meeting_pairs`)."""

    first: str
    second: str
    games: tuple[str, ...]
    first_games: int
    """The first one's quick games in the window."""
    second_games: int


@dataclass(frozen=True, slots=True)
class SteadyExpert:
    """A person who decides at an even pace and agrees with the expert far above his rating."""

    player: str
    games: tuple[str, ...]
    """The games of the decisions compared."""
    agreed: int
    compared: int
    rating: int
    expected: float
    """The agreement expected at his rating (at the tables of those decisions)."""
    variation: float
    """His think times' coefficient of variation."""
    timed: int
    """How many think times it was worked out from."""

    @property
    def rate(self) -> float:
        return self.agreed / self.compared


@dataclass
class Signals:
    """Everything ``conquian moderate`` lists, with the players' names by id."""

    feeding: list[FeedingPair] = field(default_factory=list)
    meeting: list[MeetingPair] = field(default_factory=list)
    expert: list[SteadyExpert] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    games: int = 0
    """Games looked at."""

    def __bool__(self) -> bool:
        return bool(self.feeding or self.meeting or self.expert)


# ------------------------------------------------------------------ the pure measures


def feeding_pairs(
    seatings: Iterable[Seating], offers: Iterable[Offer], chances: Iterable[ForceChance]
) -> list[FeedingPair]:
    """The ordered pairs (giver, taker) of people where the giver feeds the taker: they sat
    together at :data:`FEED_MIN_GAMES` or more tables of three or four, the taker took at
    least :data:`FEED_MIN_TAKEN` of the giver's cards, at :data:`FEED_RATIO` times the rate of
    every other seat the giver offered cards to (:data:`FEED_MIN_TO_OTHERS` cards or more),
    and the giver never forced the taker in :data:`FORCE_MIN_CHANCES` chances or more.  The
    most cards taken first.

    >>> games = [Seating(f"g{i}", 0.0, True, 3, ("ana", "ben")) for i in range(5)]
    >>> offers = [Offer("g0", "ana", "ben", i < 6) for i in range(10)]
    >>> offers += [Offer("g0", "ana", None, i < 3) for i in range(30)]
    >>> chances = [ForceChance("g1", "ana", "ben", False)] * 3
    >>> [(p.giver, p.taker, p.taken, p.offered, p.chances) for p in feeding_pairs(games, offers, chances)]
    [('ana', 'ben', 6, 10, 3)]
    >>> feeding_pairs(games, offers, chances[:2])  # he could force him only twice
    []
    """
    together: dict[tuple[str, str], list[str]] = defaultdict(list)
    for seating in seatings:
        if seating.seats >= 3:
            for giver in seating.people:
                for taker in seating.people:
                    if giver != taker:
                        together[giver, taker].append(seating.game)
    offered: Counter[tuple[str, str]] = Counter()
    taken: Counter[tuple[str, str]] = Counter()
    gave: Counter[str] = Counter()
    gave_taken: Counter[str] = Counter()
    for offer in offers:
        gave[offer.giver] += 1
        gave_taken[offer.giver] += offer.taken
        if offer.to is not None:
            offered[offer.giver, offer.to] += 1
            taken[offer.giver, offer.to] += offer.taken
    could: Counter[tuple[str, str]] = Counter()
    forced: Counter[tuple[str, str]] = Counter()
    for chance in chances:
        if chance.refuser is not None:
            could[chance.forcer, chance.refuser] += 1
            forced[chance.forcer, chance.refuser] += chance.forced
    found = []
    for (giver, taker), games in together.items():
        pair = giver, taker
        others = gave[giver] - offered[pair]
        others_taken = gave_taken[giver] - taken[pair]
        if (
            len(set(games)) >= FEED_MIN_GAMES
            and taken[pair] >= FEED_MIN_TAKEN
            and others >= FEED_MIN_TO_OTHERS
            and taken[pair] * others >= FEED_RATIO * others_taken * offered[pair]
            and could[pair] >= FORCE_MIN_CHANCES
            and forced[pair] == 0
        ):
            found.append(
                FeedingPair(
                    giver,
                    taker,
                    tuple(dict.fromkeys(games)),
                    offered[pair],
                    taken[pair],
                    others,
                    others_taken,
                    could[pair],
                )
            )
    return sorted(found, key=lambda p: (-p.taken, p.giver, p.taker))


def meeting_pairs(seatings: Iterable[Seating], since: float) -> list[MeetingPair]:
    """The pairs of people who sat together at :data:`MEET_MIN_GAMES` quick games or more made
    since ``since``, being at least :data:`MEET_SHARE` of each one's quick games then.  The
    most games together first.

    >>> met = [Seating(f"g{i}", 10.0, True, 2, ("ana", "ben")) for i in range(5)]
    >>> alone = [Seating(f"h{i}", 10.0, True, 2, ("ben", f"p{i}")) for i in range(6)]
    >>> meeting_pairs(met, since=0.0)[0].games
    ('g0', 'g1', 'g2', 'g3', 'g4')
    >>> meeting_pairs(met + alone, since=0.0)  # five of Ben's eleven games: chance
    []
    >>> meeting_pairs(met, since=20.0)  # before the window
    []
    """
    played: Counter[str] = Counter()
    together: dict[tuple[str, str], list[str]] = defaultdict(list)
    for seating in seatings:
        if not seating.quick or seating.created < since:
            continue
        people = sorted(set(seating.people))
        played.update(people)
        for pair in combinations(people, 2):
            together[pair].append(seating.game)
    found = [
        MeetingPair(first, second, tuple(games), played[first], played[second])
        for (first, second), games in together.items()
        if len(games) >= MEET_MIN_GAMES
        and len(games) >= MEET_SHARE * played[first]
        and len(games) >= MEET_SHARE * played[second]
    ]
    return sorted(found, key=lambda p: (-len(p.games), p.first, p.second))


def think_variation(times: Sequence[float]) -> float:
    """The coefficient of variation of think times (their standard deviation over their
    mean): 0 for a metronome, about 1 for people.

    >>> think_variation([4.0, 4.0, 4.0])
    0.0
    >>> think_variation([1.0, 3.0])
    0.5
    >>> think_variation([0.0, 0.0])
    0.0
    """
    mean = statistics.fmean(times)
    return statistics.pstdev(times) / mean if mean > 0 else 0.0


def steady_thinkers(decisions: Iterable[Decision]) -> list[tuple[str, float, int]]:
    """The people whose think times are steady: (player, variation, times), with at least
    :data:`STEADY_MIN_TIMES` timed decisions and a variation of :data:`STEADY_CV` or less; the
    steadiest first.

    >>> metronome = [Decision("bot", "g", i, 2, 2.0 + 0.1 * (i % 2)) for i in range(20)]
    >>> human = [Decision("ana", "g", i, 2, [1.0, 9.0, 3.0, 20.0][i % 4]) for i in range(20)]
    >>> [(p, round(v, 3), n) for p, v, n in steady_thinkers(metronome + human)]
    [('bot', 0.024, 20)]
    """
    times: dict[str, list[float]] = defaultdict(list)
    for decision in decisions:
        if decision.think is not None:
            times[decision.player].append(decision.think)
    found = [
        (player, think_variation(seconds), len(seconds))
        for player, seconds in times.items()
        if len(seconds) >= STEADY_MIN_TIMES
    ]
    steady = [row for row in found if row[1] <= STEADY_CV]
    return sorted(steady, key=lambda row: (row[1], row[0]))


def sample_decisions(decisions: Iterable[Decision], player: str, most: int) -> list[Decision]:
    """At most ``most`` of ``player``'s decisions, drawn with a generator seeded by his id
    (the same ones at every run), in the order played.  A decision that may have been a
    computer's (made :data:`~.clock.DECISION` seconds or more after the one before it, when a
    quick match's clock makes it for him) is left out.

    >>> mine = [Decision("ana", "g", i, 2, 1.0) for i in range(50)]
    >>> picked = sample_decisions(mine, "ana", 5)
    >>> len(picked), picked == sample_decisions(mine, "ana", 5)
    (5, True)
    >>> sample_decisions([Decision("ana", "g", 1, 3, 45.0)], "ana", 5)
    []
    """
    candidates = [
        d
        for d in decisions
        if d.player == player and d.choices >= 2 and (d.think is None or d.think < DECISION)
    ]
    if len(candidates) > most:
        candidates = random.Random(f"fairplay:{player}").sample(candidates, most)
    return sorted(candidates, key=lambda d: (d.game, d.seq))


def expected_agreement(rating: float, players: int = 2) -> float:
    """How often a player of this rating, at a table of ``players``, is expected to choose
    the expert's move: between the levels' agreements (:data:`LEVEL_AGREEMENT` at
    :data:`LEVEL_PLACES`), and no further than the weakest's and the strongest's.

    >>> expected_agreement(1500), expected_agreement(0, 3), expected_agreement(3000, 4)
    (0.61, 0.48, 0.74)
    """
    points = list(zip(LEVEL_PLACES, LEVEL_AGREEMENT[min(max(players, 2), 4)], strict=True))
    if rating <= points[0][0]:
        return points[0][1]
    for (low, at_low), (high, at_high) in pairwise(points):
        if rating <= high:
            return round(at_low + (at_high - at_low) * (rating - low) / (high - low), 4)
    return points[-1][1]


def agrees_far_above(agreed: int, compared: int, expected: float) -> bool:
    """Whether ``agreed`` of ``compared`` decisions is :data:`AGREEMENT_MARGIN` or more above
    the ``expected`` agreement.

    >>> agrees_far_above(18, 20, 0.61), agrees_far_above(15, 20, 0.61)
    (True, False)
    """
    return compared > 0 and agreed / compared >= expected + AGREEMENT_MARGIN


def expert_choice(obs: Observation, rules: Rules, seed: str) -> Action:
    """The expert's choice at a decision (the same at every run for the same ``seed``)."""
    bot = make_bot("expert", rng=random.Random(seed), budget=EXPERT_BUDGET)
    bot.new_deal(obs.viewer, rules)
    return bot.act(obs)


# ------------------------------------------------------------------ reading the database


@dataclass
class _Game:
    """A game as read back for the signals."""

    row: Any
    """Its ``games`` row."""
    seats: list[Any]
    actions: list[Any] = field(default_factory=list)
    deals: list[Any] = field(default_factory=list)

    @property
    def id(self) -> str:
        return str(self.row.id)

    def person(self, seat: int) -> str | None:
        """The player who sat in ``seat``, if a person."""
        found = self.seats[seat]
        return found.player_id if found.kind == "human" and found.player_id else None

    @property
    def people(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p for s in range(len(self.seats)) if (p := self.person(s))))


def _positions(game: _Game) -> Iterator[tuple[GameState, Any, Game, int, float | None]]:
    """Each stored action of ``game`` (its row) with the position it was played in, its deal
    and its index there, and the seconds since the action before it in the deal (None: the
    deal's first): the match replayed as the server rebuilds it (nothing for a game the engine
    cannot replay)."""
    try:
        live = LiveMatch(
            match_row(game.row, game.seats),
            [ActionRow(a.seq, a.deal, a.player, a.action) for a in game.actions],
            [deal_row(d) for d in game.deals],
        )
    except ConquianError:
        return
    by_deal: dict[int, list[Any]] = defaultdict(list)
    for stored in game.actions:
        by_deal[stored.deal].append(stored)
    for number, deal in enumerate(live.match.games, start=1):
        rows, states = by_deal[number], deal.states()
        for i in range(len(deal.history)):
            think = rows[i].at - rows[i - 1].at if i else None
            yield states[i], rows[i], deal, i, think


def _read_games(conn: Connection, since: float) -> list[_Game]:
    """The games made since ``since`` (lessons and open games left out), newest first."""
    found = conn.execute(
        select(matches)
        .where(matches.c.created >= since, matches.c.mode != LESSON, matches.c.status != "open")
        .order_by(matches.c.created.desc())
    ).all()
    games = {row.id: _Game(row, []) for row in found}
    query = select(seat_rows).join(matches, matches.c.id == seat_rows.c.game_id)
    for seat in conn.execute(query.where(matches.c.created >= since).order_by(seat_rows.c.seat)):
        if seat.game_id in games:
            games[seat.game_id].seats.append(seat)
    return list(games.values())


def _load_play(conn: Connection, game: _Game) -> None:
    """Read a game's actions and shuffles into it."""
    game.actions = list(
        conn.execute(select(actions).where(actions.c.game_id == game.id).order_by(actions.c.seq))
    )
    game.deals = list(
        conn.execute(
            select(deals.c.deal, deals.c.server_seed, deals.c.commitment, deals.c.client_seeds)
            .where(deals.c.game_id == game.id)
            .order_by(deals.c.deal)
        )
    )


def _best_ratings(conn: Connection, ids: Iterable[str]) -> dict[str, int]:
    """Each player's best shown rating over the game forms (the start for none)."""
    wanted = list(ids)
    best = dict.fromkeys(wanted, START_RATING)
    query = select(rating_rows).where(rating_rows.c.player_id.in_(wanted))
    for row in conn.execute(query):
        best[row.player_id] = max(best[row.player_id], shown(row.mu, row.sigma))
    return best


def fair_play_signals(
    engine: Engine,
    *,
    days: float = WINDOW_DAYS,
    sample: int = EXPERT_SAMPLE,
    now: float | None = None,
) -> Signals:
    """The fair-play signals of the games made in the last ``days`` days (see the module's
    description), asking the expert about at most ``sample`` decisions of each steady player
    (0: the expert is left out).

    Reads the tables only; the replays and the expert's answers are worked out here, in the
    calling thread.
    """
    since = (time.time() if now is None else now) - days * 86400
    with engine.connect() as conn:
        games = _read_games(conn, since)
        gone = select(leaves.c.player_id, leaves.c.game_id).where(leaves.c.at >= since)
        left = {(r.player_id, r.game_id) for r in conn.execute(gone)}
        replayed = [
            g
            for g in games
            if (len(g.seats) >= 3 and len(g.people) >= 2) or (sample > 0 and g.people)
        ]
        for game in replayed:
            _load_play(conn, game)
    seatings = [
        Seating(g.id, float(g.row.created), g.row.mode == QUICK, len(g.seats), g.people)
        for g in games
    ]
    offers: list[Offer] = []
    chances: list[ForceChance] = []
    decisions: list[Decision] = []
    for game in replayed:
        _measure(game, left, offers, chances, decisions, timed=sample > 0 and not game.row.hints)
    signals = Signals(
        feeding=feeding_pairs(seatings, offers, chances),
        meeting=meeting_pairs(seatings, since),
        games=len(games),
    )
    if sample > 0:
        by_id = {g.id: g for g in replayed}
        steady = steady_thinkers(decisions)[:EXPERT_MOST_PLAYERS]
        with engine.connect() as conn:
            ratings = _best_ratings(conn, [player for player, _, _ in steady])
        for player, variation, timed in steady:
            picked = sample_decisions(decisions, player, sample)
            agreed = _agreements(by_id, picked)
            rating = ratings[player]
            expected = statistics.fmean(
                [expected_agreement(rating, len(by_id[game].seats)) for game, _ in agreed] or [1.0]
            )
            if len(agreed) >= min(EXPERT_MIN_COMPARED, sample) and agrees_far_above(
                sum(agreed.values()), len(agreed), expected
            ):
                signals.expert.append(
                    SteadyExpert(
                        player,
                        tuple(dict.fromkeys(game for game, _ in agreed)),
                        sum(agreed.values()),
                        len(agreed),
                        rating,
                        round(expected, 4),
                        variation,
                        timed,
                    )
                )
    named = {p for s in signals.feeding for p in (s.giver, s.taker)}
    named |= {p for s in signals.meeting for p in (s.first, s.second)}
    named |= {s.player for s in signals.expert}
    if named:
        with engine.connect() as conn:
            query = select(players.c.id, players.c.name).where(players.c.id.in_(named))
            signals.names = {r.id: r.name for r in conn.execute(query)}
    return signals


def _measure(
    game: _Game,
    left: set[tuple[str, str]],
    offers: list[Offer],
    chances: list[ForceChance],
    decisions: list[Decision],
    *,
    timed: bool,
) -> None:
    """Replay ``game``, adding its offers and force decisions (at a table of three or four
    with two people or more) and, if ``timed``, its people's decisions with two choices or more
    (not those of a person who left it: a computer played for him)."""
    table = len(game.seats) >= 3 and len(game.people) >= 2
    for state, stored, _, _, think in _positions(game):
        seat = state.to_act
        person = game.person(seat)
        kind = Action.parse(stored.action).kind
        if table and state.phase is Phase.OFFER and state.source in (Source.DISCARD, Source.PASSED):
            giver = game.person(state.owner) if state.owner >= 0 else None
            if giver is not None:
                taken = kind in (ActionKind.TAKE, ActionKind.LAYOFF)
                offers.append(Offer(game.id, giver, person, taken))
        if table and state.phase is Phase.FORCE and person is not None:
            forced = kind is ActionKind.FORCE
            chances.append(ForceChance(game.id, person, game.person(state.offeree), forced))
        choices = len(state.legal_actions())
        if timed and person is not None and choices >= 2 and (person, game.id) not in left:
            decisions.append(Decision(person, game.id, stored.seq, choices, think))


def _agreements(games: dict[str, _Game], picked: Sequence[Decision]) -> dict[tuple[str, int], bool]:
    """Whether each picked decision was the expert's choice, by (game, action number)."""
    wanted: dict[str, set[int]] = defaultdict(set)
    for decision in picked:
        wanted[decision.game].add(decision.seq)
    agreed: dict[tuple[str, int], bool] = {}
    for game_id, seqs in wanted.items():
        game = games[game_id]
        rules = find_rules(game.row.rules)
        for state, stored, deal, index, _ in _positions(game):
            seq = stored.seq
            if seq not in seqs:
                continue
            obs = observe(state, state.to_act, tuple(deal.history[:index]))
            choice = expert_choice(obs, rules, f"fairplay:{game_id}:{seq}")
            agreed[game_id, seq] = choice == Action.parse(stored.action)
            seqs.discard(seq)
            if not seqs:
                break
    return agreed
