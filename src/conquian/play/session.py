"""The game loop of ``conquian play``: a match against a bot, or two people at one screen.

The session talks to the engine only through :class:`~conquian.match.Match`,
:class:`~conquian.game.Game`, observations, legal actions and
:func:`~conquian.notation.parse_action`; it knows no rule of its own.  It saves
the match after every action, so a quit, Ctrl-C or a closed terminal loses nothing.
"""

from __future__ import annotations

import datetime as _dt
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..actions import Action, ActionKind
from ..bots import LEVEL_RATINGS, LEVELS, Bot, make_bot
from ..bots.coach import hint as coach_hint
from ..cards import parse_cards_mask
from ..errors import (
    AmbiguousActionError,
    ConquianError,
    IllegalActionError,
    InvalidNotationError,
)
from ..game import Game
from ..match import Match
from ..notation import parse_action, small_number
from ..observation import Observation
from ..present.errors import illegal_action_words
from ..present.hints import reason_words
from ..present.letters import readings
from ..present.review import review_lines
from ..present.rules_text import describe
from ..present.spans import DIM, Line, Span, melds_spans, plain
from ..present.words import (
    Names,
    count_line,
    deal_heading,
    describe_action,
    describe_events,
    layoff_short_forms,
    level_word,
    match_line,
    match_result_line,
    outcome_lines,
    payment_lines,
    read_command,
    situation,
    take_short_forms,
)
from ..records import GameRecord, MatchRecord
from ..rules import Rules, find_rules
from ..seats import Seat, SeatDriver
from ..state import Phase
from .board import Board, board_lines
from .storage import PlayError, SavedMatch, Store
from .terminal_words import (
    BOT_NAME,
    PERSON_NAME,
    also_spans,
    answer_yes_or_no,
    bot_label,
    bot_seat_name,
    bot_sees_everything,
    bot_thinking,
    cannot_resume,
    cannot_take,
    choice_line,
    choose_number,
    choose_prompt,
    count_goes_on_line,
    game_title,
    goes_out,
    help_text,
    hint_lines,
    hint_thinking,
    hotseat_prompt,
    illegal_bot_action,
    layoff_result,
    layoff_ways_heading,
    level_menu,
    level_not_understood,
    level_prompt,
    log_heading,
    name_list,
    new_match_prompt,
    next_deal_prompt,
    no_card_to_take,
    no_moves_yet,
    no_opponent_saved,
    no_take_lays,
    no_words,
    not_understood,
    numbered,
    options_line,
    other_rules_saved,
    pass_device_lines,
    person_label,
    players_menu,
    players_not_understood,
    players_prompt,
    prompt_for,
    ready_prompt,
    record_lines,
    resumed_line,
    review_offer_line,
    review_stopped_line,
    review_words,
    reviewing_text,
    thanks,
    turn_line,
    typing_error,
    ways_heading,
    welcome_line,
    which_card,
    wrong_match_saved,
    yes_words,
    you_label,
)
from .terminal_words import resume_command as default_resume_command
from .terminal_words import saved_message as saved_message_line
from .ui import Screen

__all__ = ["QuitRequest", "Session", "ask_level", "pick_default_level", "read_level"]

SLOW_BOTS = frozenset({"search"})
"""Bots that think long enough to show a spinner."""
QUIT_WORDS = frozenset({"quit", "q", "exit", "save"})
HELP_WORDS = frozenset({"help", "h", "?"})
TABLE_WORDS = frozenset({"table", "t", "show", "board"})
ACTION_WORDS = frozenset(
    {"take", "decline", "pass", "force", "noforce", "no-force", "discard", "yes", "no", "layoff"}
)


def _in_english(text: str) -> str:
    """A typed line with its first word, a command in the language in use, in English (the
    commands the program reads); anything else unchanged."""
    words = text.split(None, 1)
    if not words:
        return text
    name = read_command(words[0])
    if name is None or name == words[0].lower():
        return text
    return " ".join([name, *words[1:]])


def ask_yes(screen: Screen, prompt: str) -> bool:
    """A yes-or-no answer at ``prompt`` (Enter: yes; quitting: no)."""
    while True:
        text = screen.ask(prompt).strip().lower()
        if text == "" or text in yes_words():
            return True
        if text in no_words() or _in_english(text) in QUIT_WORDS:
            return False
        screen.error(answer_yes_or_no())


class QuitRequest(Exception):
    """The user asked to stop; the game is saved."""


def pick_default_level(rules: Rules, limit_s: float = 1.0) -> tuple[str, float]:
    """``expert`` if it answers a real decision within ``limit_s`` on this machine, else ``hard``.

    Returns the level and the seconds the probe took.
    """
    game = Game(rules, seed=1234, dealer=0)
    greedy = make_bot("greedy")
    for _ in range(60):
        if game.state.is_over:
            break
        obs = game.observation(game.state.to_act)
        if obs.phase is Phase.DISCARD and len(obs.legal_actions) >= 3:
            break
        game.push(greedy.act(obs))
    if game.state.is_over:  # pragma: no cover - the fixed seed always reaches a discard
        return "expert", 0.0
    player = game.state.to_act
    bot = make_bot("expert", rng=random.Random(1))
    bot.new_deal(player, rules)
    start = time.perf_counter()
    bot.act(game.observation(player))
    elapsed = time.perf_counter() - start
    return ("expert" if elapsed <= limit_s else "hard"), elapsed


def read_level(typed: str, levels: Sequence[str], default: str) -> str | None:
    """The level typed at the level menu: its number, its name (English or in the language in
    use) or nothing (``default``); None if it is none of them.

    >>> read_level(" 2 ", ["easy", "hard"], "hard"), read_level("", ["easy", "hard"], "hard")
    ('hard', 'hard')
    >>> read_level("EASY", ["easy", "hard"], "hard"), read_level("3", ["easy", "hard"], "hard")
    ('easy', None)
    """
    text = typed.strip().casefold()
    if not text:
        return default
    if text.isascii() and text.isdigit():
        number = small_number(text)
        return levels[number - 1] if number is not None and 1 <= number <= len(levels) else None
    for level in levels:
        if text in (level, level_word(level).casefold()):
            return level
    return None


def ask_level(screen: Screen, default: str, *, rated: bool) -> str | None:
    """Show the level menu and read the level chosen (Enter, or the end of input: ``default``);
    None if the person asked to quit.  ``rated``: show the two-player ratings."""
    levels = list(LEVELS)
    screen.say(*level_menu(levels, LEVEL_RATINGS if rated else None, default))
    while True:
        try:
            typed = screen.ask(level_prompt(len(levels), default))
        except EOFError:
            return default
        if _in_english(typed.strip()).lower() in QUIT_WORDS:
            return None
        level = read_level(typed, levels, default)
        if level is not None:
            return level
        screen.error(level_not_understood(typed.strip(), len(levels), default))


def ask_players(screen: Screen) -> int | None:
    """How many play, asked before a new game of the Mexican form (Enter, or the end of
    input: three, the tercerilla); None if the person asked to quit."""
    screen.say(*players_menu())
    while True:
        try:
            typed = screen.ask(players_prompt()).strip()
        except EOFError:
            return 3
        if _in_english(typed).lower() in QUIT_WORDS:
            return None
        if typed in ("", "2", "3", "4"):
            return int(typed or 3)
        screen.error(players_not_understood(typed))


def check_opponent(name: str) -> Bot:
    """The bot for a name or level; an error for unknown names and for bots that cheat."""
    bot = make_bot(name, rng=random.Random())
    if bot.sees_everything:
        raise PlayError(bot_sees_everything(name))
    return bot


@dataclass
class _Seat:
    name: str
    """Short name used in sentences ("Bot", "Ana")."""
    label: str
    """Name as headed on the table ("Bot (hard)")."""
    bot: Bot | None = None


@dataclass
class Session:
    """One ``conquian play`` run: rebuilds the match from ``saved`` and plays on."""

    screen: Screen
    store: Store
    saved: SavedMatch
    resume_command: str = field(default_factory=default_resume_command)
    notes: list[Line] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rules = find_rules(self.saved.rules)
        self.look = self.screen.look
        self.seats = self._make_seats()
        self.hotseat = len(self.saved.humans) >= 2
        self.shown: int | None = None
        self.last_record: GameRecord | None = None
        """The deal just played, whose review the person may ask for (not between two)."""
        """In hot-seat play, the player whose hand the screen may show now."""
        self.driver = self._rebuild()

    @property
    def match(self) -> Match:
        assert self.driver.match is not None
        return self.driver.match

    @property
    def game(self) -> Game | None:
        """The deal in play (None between deals)."""
        return self.driver.deal

    # ------------------------------------------------------------ set up

    def _make_seats(self) -> list[_Seat]:
        seats = []
        bots = len(self.saved.names) - len(self.saved.humans)
        for p, record_name in enumerate(self.saved.names):
            if p in self.saved.humans:
                label = person_label() if record_name == PERSON_NAME else record_name
                seats.append(_Seat(record_name, label))
            else:
                if self.saved.opponent is None:
                    raise PlayError(no_opponent_saved())
                name = BOT_NAME if bots == 1 else bot_seat_name(p)
                label = bot_label(record_name, self.saved.opponent)
                seats.append(_Seat(name, label, check_opponent(self.saved.opponent)))
        return seats

    def _rebuild(self) -> SeatDriver:
        """The match as saved, every deal replayed and checked."""
        saved = self.saved
        try:
            if saved.match is None:
                match = Match(self.rules, seed=saved.match_seed, players=saved.names)
            else:
                record = MatchRecord.loads(saved.match)
                if (record.seed, record.players) != (saved.match_seed, saved.names):
                    raise PlayError(wrong_match_saved())
                if find_rules(record.rules) != self.rules:
                    raise PlayError(other_rules_saved())
                match = record.to_match()
        except (ConquianError, ValueError) as exc:
            raise PlayError(cannot_resume(exc)) from None
        driver = self._driver(match)
        if match.deal is not None:
            driver.resume_bots()
        return driver

    def _driver(self, match: Match) -> SeatDriver:
        names = self.saved.names
        seats = [Seat(name, s.bot) for name, s in zip(names, self.seats, strict=True)]
        return SeatDriver(seats, match=match, bot_seed=self.saved.bot_seed)

    # -------------------------------------------------------------- save

    def save(self) -> None:
        self.saved.match = MatchRecord.from_match(self.match).dumps()
        self.store.save(self.saved)

    def saved_message(self) -> Line:
        return saved_message_line(self.resume_command)

    # -------------------------------------------------------------- loop

    def run(self) -> int:
        """Play until the user stops; returns the exit status."""
        try:
            return self._loop()
        except (QuitRequest, EOFError):
            self._stop()
            return 0
        except KeyboardInterrupt:
            self._stop()
            return 130

    def _stop(self) -> None:
        self.save()
        self.screen.say("", self.saved_message())

    def _loop(self) -> int:
        while True:
            if self.game is None:
                if self.match.is_over:
                    names = self._names(None if self.hotseat else self.saved.humans[0])
                    self.screen.say(count_goes_on_line(names, self.count))
                    answer = self._ask_yes(new_match_prompt(), review=True, zero=True)
                    if not answer:
                        self.store.delete()
                        self.screen.say(thanks())
                        return 0
                    self._new_match(keep_count=answer != "zero")
                self._start_deal()
            self._play_deal()
            self._end_deal()
            if self.match.is_over:
                self._show_match_result()
            elif not self._ask_yes(next_deal_prompt(), review=True):
                self.screen.say(self.saved_message())
                return 0

    @property
    def count(self) -> list[int]:
        """La cuenta: each seat's total over the matches of this sitting, this one included."""
        before = self.saved.count or (0,) * len(self.match.balance)
        return [a + b for a, b in zip(before, self.match.balance, strict=True)]

    def _new_match(self, keep_count: bool = True) -> None:
        old = self.saved
        self.saved = SavedMatch(  # fresh seeds: the last match's records may show its own
            rules=old.rules,
            match_seed=secrets.randbelow(2**63),
            bot_seed=secrets.randbelow(2**63),
            opponent=old.opponent,
            names=old.names,
            humans=old.humans,
            lang=old.lang,
            count=tuple(self.count) if keep_count else (),
            matches=old.matches + 1 if keep_count else 0,
        )
        self.driver = self._driver(Match(self.rules, seed=self.saved.match_seed, players=old.names))

    def _start_deal(self) -> None:
        self.driver.start()
        self.shown = None
        self.save()

    @property
    def deal_number(self) -> int:
        return self.match.deal_number

    def _play_deal(self) -> None:
        game = self.game
        assert game is not None
        while not game.state.is_over:
            p = game.state.to_act
            if self.driver.bot_to_act() is not None:
                action = self._bot_action(p)
            else:
                if self.hotseat and self.shown != p:
                    self._pass_device(p)
                action = self._human_action(p)
            try:
                self.driver.push(p, action)
            except IllegalActionError:
                if self.driver.bot_to_act() is None:
                    raise
                raise PlayError(illegal_bot_action(action)) from None
            self.save()

    def _bot_action(self, p: int) -> Action:
        turn = self.driver.bot_turn(p)  # seeded: the same position gets the same choice
        if turn.bot.name in SLOW_BOTS:
            with self.screen.thinking(bot_thinking(self.seats[p].name, self.look)):
                return turn.decide()
        return turn.decide()

    # ------------------------------------------------------- the screen

    def _names(self, viewer: int | None) -> Names:
        return Names(tuple(seat.name for seat in self.seats), me=viewer)

    def _labels(self, viewer: int | None) -> tuple[str, ...]:
        labels = [seat.label for seat in self.seats]
        if self.hotseat and viewer is not None:
            labels[viewer] = you_label(labels[viewer])
        return tuple(labels)

    def _header(self, viewer: int | None, stake: int) -> list[Line]:
        match = self.match
        names = self._names(None if self.hotseat else viewer)
        return [
            deal_heading(
                self.rules,
                self.deal_number,
                stake,
                match.draws_in_a_row,
                match.balance,
                names,
                self.look,
                self.count if self.saved.matches else (),
            )
        ]

    def _board(
        self, viewer: int, hands: tuple[int | None, ...], *, neutral: bool = False
    ) -> list[Line]:
        """The table as ``viewer`` sees it; ``neutral`` names both players (seen by both)."""
        game = self.game
        assert game is not None
        obs = game.observation(viewer)
        me = None if neutral else viewer
        names = self._names(me)
        # as the viewer saw it (another player's exchange choice is hidden)
        history = obs.history if not neutral else tuple(e.seen_by(-1) for e in game.history)
        received = -1 if neutral else obs.received
        log = describe_events(history, names, self.look, self.rules.cards_to_win, received)
        board = Board(
            obs=obs,
            names=names,
            labels=self._labels(me),
            hands=hands,
            bottom=viewer,
            header=self._header(viewer, obs.stake),
            log=log,
        )
        return board_lines(board, self.look)

    def _title(self) -> Line:
        return game_title(self.rules.to_spec())

    def _draw(self, p: int) -> None:
        game = self.game
        assert game is not None
        obs = game.observation(p)
        hands: list[int | None] = [None] * len(self.seats)
        hands[p] = obs.hand_mask
        self.screen.new_screen()
        self.screen.board(self._title(), self._board(p, tuple(hands)))
        if self.notes:
            self.screen.say(*self.notes)
            self.notes = []
        name = self.seats[p].name if self.hotseat else None
        self.screen.say(turn_line(name, situation(obs, self._names(p), self.look)))
        self._show_options(obs)

    def _show_options(self, obs: Observation) -> None:
        self.screen.say([*options_line(obs, self.look), *also_spans()])

    def _pass_device(self, p: int) -> None:
        """Hide the hand on screen until the next player is at the device."""
        self.screen.clear()
        others = [self.seats[q].name for q in self.saved.humans if q != p]
        other = name_list(others)
        name = self.seats[p].name
        self.screen.say(*pass_device_lines(name, other))
        self.shown = None
        self.screen.ask(ready_prompt(name))
        self.shown = p

    # ------------------------------------------------------------ input

    def _prompt(self, p: int, obs: Observation) -> str:
        prompt = prompt_for(obs.phase)
        return hotseat_prompt(self.seats[p].name, prompt) if self.hotseat else prompt

    def _human_action(self, p: int) -> Action:
        game = self.game
        assert game is not None
        self._draw(p)
        obs = game.observation(p)
        while True:
            text = _in_english(self.screen.ask(self._prompt(p, obs)).strip())
            low = text.lower()
            if not low:
                self._show_options(obs)
                continue
            if low in QUIT_WORDS:
                raise QuitRequest
            if low in HELP_WORDS:
                self.screen.say(help_text(self.rules, self.look))
                self._show_options(obs)
                continue
            if low == "rules":  # in words: the flags are for conquian rules SPEC
                self.screen.say(describe(self.rules, flags=False))
                continue
            if low == "log":
                self._show_log(p)
                continue
            if low in TABLE_WORDS:
                self._draw(p)
                continue
            if low == "hint":
                self._hint(p, obs)
                continue
            action = self._read_action(p, obs, text)
            if action is not None:
                return action

    def _read_action(self, p: int, obs: Observation, text: str) -> Action | None:
        """The action typed in the language's card letters (a lone rank read as each card of
        the hand it can be); None, having said why, where it is none or several."""
        game = self.game
        assert game is not None
        words = text.lower().split()
        if words[0] == "take" and not any(a.kind is ActionKind.TAKE for a in obs.legal_actions):
            if obs.phase in (Phase.OFFER, Phase.TURN):
                centre = self.look.label(obs.centre)
                self.screen.error(cannot_take(centre))
            else:
                self.screen.error(no_card_to_take())
            self._show_options(obs)
            return None
        try:
            texts = readings(text, self.look, obs.hand_mask)
        except InvalidNotationError as exc:
            if words[0] in ACTION_WORDS:
                self.screen.error(typing_error(exc, self.look))
            else:
                self.screen.error(not_understood(text))
            self._show_options(obs)
            return None
        found: list[Action] = []
        refusals: list[InvalidNotationError | IllegalActionError] = []
        for reading in texts:
            try:
                action = parse_action(game.state, reading)
            except AmbiguousActionError as exc:
                found += [a for a in exc.candidates if isinstance(a, Action) and a not in found]
            except (InvalidNotationError, IllegalActionError) as exc:
                refusals.append(exc)
            else:
                if action not in found:
                    found.append(action)
        outs = [a for a in found if a.kind is ActionKind.TAKE and goes_out(a, obs)]
        if outs:  # going out needs no choice: every way out wins, the first is taken
            found = [outs[0], *(a for a in found if a not in outs)]
        if len(found) == 1:
            return found[0]
        if found:
            if all(a.kind in (ActionKind.TAKE, ActionKind.PASS, ActionKind.LAYOFF) for a in found):
                chosen = self._choose(obs, found)
            else:  # a lone rank that is two cards one could pay (or pass)
                chosen = None
                cards = sum(1 << a.card for a in found if a.card >= 0)
                self.screen.error(which_card(self.look.typed(cards)))
            if chosen is None:
                self._show_options(obs)
            return chosen
        self._refused(p, obs, text, texts[0], refusals[0])
        return None

    def _refused(
        self,
        p: int,
        obs: Observation,
        text: str,
        reading: str,
        exc: InvalidNotationError | IllegalActionError,
    ) -> None:
        """Say why the move typed as ``text`` (read as ``reading``) cannot be played."""
        words = text.lower().split()
        if isinstance(exc, IllegalActionError):
            self.screen.error(plain(illegal_action_words(exc, self._names(p), self.look)))
        elif (named := self._cards_named(reading)) and words[0] == "take":
            # cards that are fine, but no meld reading of them works
            self.screen.error(no_take_lays(self.look.typed(named)))
        elif words[0] in ACTION_WORDS:
            if exc.fault in ("one_card", "needs_card", "nothing_after"):
                rest = text.split(None, 1)  # the player's own text, not the engine's
                exc = InvalidNotationError(
                    str(exc), exc.fault, rest[1] if rest[1:] else "", exc.word
                )
            self.screen.error(typing_error(exc, self.look))
        else:
            self.screen.error(not_understood(text))
        self._show_options(obs)

    @staticmethod
    def _cards_named(reading: str) -> int:
        """The cards after the first word of a reading, or 0 if that is not all cards."""
        try:
            return parse_cards_mask(reading.split(None, 1)[1])
        except (InvalidNotationError, IndexError):
            return 0

    def _choose(self, obs: Observation, actions: Sequence[Action]) -> Action | None:
        """A numbered list of takes; the chosen one, or None to go back."""
        if not actions:
            return None
        look = self.look
        forms = {
            id(a): text
            for kind in (ActionKind.TAKE, ActionKind.PASS)
            for text, group in take_short_forms(obs, look, kind)
            for a in group
        }
        forms.update({id(a): text for text, a in layoff_short_forms(obs, look)})
        width = max(len(forms.get(id(a), str(a))) for a in actions)
        take = actions[0].kind is ActionKind.TAKE
        layoff = actions[0].kind is ActionKind.LAYOFF
        self.screen.say(
            layoff_ways_heading(len(actions)) if layoff else ways_heading(len(actions), take)
        )
        for i, action in enumerate(actions, start=1):
            form = forms.get(id(action), str(action))
            table = (
                layoff_result(action, obs, self._names(obs.viewer), look)
                if layoff
                else melds_spans(look, action.melds)
            )
            self.screen.say(choice_line(i, form, width, table, look, goes_out(action, obs)))
        while True:
            prompt = choose_prompt(len(actions))
            if self.hotseat:
                prompt = hotseat_prompt(self.seats[obs.viewer].name, prompt)
            text = _in_english(self.screen.ask(prompt).strip()).lower()
            if text in ("", "back", "b", "cancel", "c"):
                return None
            if text in QUIT_WORDS:
                raise QuitRequest
            number = small_number(text)
            if number is not None and 1 <= number <= len(actions):
                return actions[number - 1]
            self.screen.error(choose_number(len(actions)))

    def _show_log(self, p: int) -> None:
        game = self.game
        assert game is not None
        obs = game.observation(p)  # as he saw it
        lines = describe_events(
            obs.history, self._names(p), self.look, self.rules.cards_to_win, obs.received
        )
        self.screen.say(log_heading(self.deal_number))
        if not lines:
            self.screen.say(no_moves_yet())
        for i, line in enumerate(lines, start=1):
            self.screen.say(numbered(i, line))

    def _hint(self, p: int, obs: Observation) -> None:
        """The coach's move and why (the same for the same position, as ``conquian hint``
        and the review judge it)."""
        with self.screen.thinking(hint_thinking(self.look)):
            advice, why = coach_hint(obs)
        names = tuple(seat.name for seat in self.seats)
        self.screen.say(
            *hint_lines(
                describe_action(advice.best, obs, self.look),
                plain(reason_words(why, self.look, names)),
            )
        )

    def _ask_yes(self, prompt: str, review: bool = False, zero: bool = False) -> bool | str:
        """A yes-or-no answer; with ``review``, the answer that asks for the review of the
        deal just played shows it and asks again; with ``zero``, the answer ``0`` (a new
        match with the count from zero) is "zero"."""
        if not review:
            return ask_yes(self.screen, prompt)
        while True:
            text = self.screen.ask(prompt).strip().lower()
            if self.last_record is not None and text in review_words():
                self._review_last_deal()
                continue
            if zero and small_number(text) == 0:
                return "zero"
            if text == "" or text in yes_words():
                return True
            if text in no_words() or _in_english(text) in QUIT_WORDS:
                return False
            self.screen.error(answer_yes_or_no())

    # --------------------------------------------------- end of a deal

    def _end_deal(self) -> None:
        game = self.game
        assert game is not None
        viewer = self.saved.humans[0] if not self.hotseat or self.shown is None else self.shown
        obs = [game.observation(p) for p in range(len(self.seats))]
        hands = tuple(o.hand_mask for o in obs)
        # drawn before settling, with this deal's number and stake
        board = self._board(viewer, hands, neutral=self.hotseat)
        result = self.driver.settle()
        assert result is not None
        number = len(self.match.results)
        record = GameRecord.from_game(
            game, event="conquian play", date=_dt.date.today().isoformat(), deal=str(number)
        )
        if self.match.is_over:  # the seeds predict nothing more: the next match's are fresh
            record = replace(record, meta={**record.meta, "match_seed": str(self.saved.match_seed)})
        else:  # the match seed deals every later deal, and the deal seeds come from it
            record = replace(record, seed=None)
        path = self.store.write_record(record, number)
        self.saved.records.append(str(path))
        self.last_record = None if self.hotseat else record
        self.screen.new_screen()
        self.screen.board(self._title(), board)
        self.save()
        names = self._names(None if self.hotseat else viewer)
        outcome = result.outcome
        self.screen.say(*outcome_lines(outcome, obs[viewer].tables, hands, names, self.look))
        self.screen.say(
            *payment_lines(
                outcome,
                result.value,
                self.rules.scoring,
                names,
                match_over=self.match.is_over,
                next_value=self.match.deal_value(),
            )
        )
        self.screen.say(match_line(names, self.match.balance))
        if self.saved.matches:
            self.screen.say(count_line(names, self.count, self.saved.matches + 1))
        self.screen.say(*record_lines(path))
        if self.last_record is not None:
            self.screen.say(review_offer_line(path, viewer))

    def _review_last_deal(self) -> None:
        """The review of the person's moves in the deal just played (from what he saw only)."""
        from ..bots.review import IN_GAME_SAMPLES, ReviewSettings, review_deals

        record = self.last_record
        assert record is not None
        player = self.saved.humans[0]
        try:
            with self.screen.busy(reviewing_text()):
                review = review_deals([record], player, ReviewSettings(samples=IN_GAME_SAMPLES))
        except KeyboardInterrupt:  # stops the review only, not the game
            self.screen.say(review_stopped_line())
            return
        lines = review_lines(
            [review.deal_decisions(1)],
            review.summary,
            self.look,
            self.look.symbols,
            [seat.label for seat in self.seats],  # as `conquian review` names them
        )
        self.screen.say("", *lines, "")

    def _show_match_result(self) -> None:
        leader = self.match.leader
        names = self._names(None if self.hotseat else self.saved.humans[0])
        self.screen.say(match_result_line(leader, names))

    def welcome(self, resumed: bool, opponent_note: str = "") -> None:
        """Notes shown under the first table."""
        if resumed:
            when = self.saved.saved_at.replace("T", " ")
            self.notes.append(resumed_line(when))
        else:
            self.notes.append(welcome_line())
        if opponent_note:
            self.notes.append([Span(opponent_note, DIM)])
