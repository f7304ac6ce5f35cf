"""What a client asks for, read and checked: a bad request gets its words and changes nothing.

Each function reads one part of a request (a websocket message or an HTTP body, already
parsed JSON) and returns it as data the hub acts on, or raises :class:`UserError` with a
sentence in the reader's language that names what was wrong.

>>> read_action("discard Kh")
Action.parse('discard Kh')
>>> try:
...     read_action("discard Zz")
... except UserError as exc:
...     print(exc)
Cannot read the action 'discard Zz': 'Zz' is not a card (french labels, e.g. 'Jh') in 'Zz'.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..bots import LEVELS
from ..bots.lesson import LESSON_RULES
from ..errors import ConquianError, InvalidNotationError
from ..fair import MAX_CLIENT_SEED_BYTES
from ..present.i18n import LANGUAGES, negotiate
from ..rules import Rules, find_rules
from . import words
from .languages import WEB_WORDS
from .live import LESSON, Refused
from .ratings import FORMS, form_of

_ = WEB_WORDS.gettext

MAX_NAME = 24
"""The longest name a player may give."""
MAX_ID = 2**53
"""Larger message ids are not echoed: JavaScript could not read them back exactly."""


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
        """The message as segments (:func:`.messages.segments`: its cards as ``{"card":
        "Kh"}``), when it names cards: the browser draws them in the deck it shows."""

    @classmethod
    def of(cls, refused: Refused) -> UserError:
        """A refusal of the live match, in words."""
        said, status = words.refusal(refused)
        return cls(said, status)


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


def echo_id(value: Any) -> Any:
    """A client's message id, echoed back (short strings and finite numbers only).

    >>> echo_id(7), echo_id(True), echo_id(2**60), echo_id("x" * 41)
    (7, None, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if -MAX_ID <= value <= MAX_ID else None
    if isinstance(value, float):
        return value if math.isfinite(value) and abs(value) <= MAX_ID else None
    if isinstance(value, str) and len(value) <= 40:
        return value
    return None


def read_action(text: Any) -> Action:
    """The action of an ``act`` message, in the engine's notation (``take 5c6c7c``).

    :raises UserError: if it is missing, too long or cannot be read.
    """
    if not isinstance(text, str) or not text.strip():
        raise UserError(
            _("An 'act' message needs the action as text, e.g. {example}.").format(
                example="'discard Kh'"
            )
        )
    if len(text) > 200:
        raise UserError(_("That action is too long to be a move."))
    try:
        return Action.parse(text)
    except InvalidNotationError as exc:
        raise UserError(
            _("Cannot read the action {action}: {error}").format(action=repr(text[:60]), error=exc)
        ) from None


def read_seed_deal(deal: Any) -> int | None:
    """The deal a ``seed`` message names (None: the one being shuffled).

    :raises UserError: if it is not a number.
    """
    if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int)):
        raise UserError(_("'deal' must be the number of the deal the seed is for."))
    return deal


def read_review_deal(deal: Any) -> int:
    """The deal a ``review`` message asks about.

    :raises UserError: if it is not a number.
    """
    if isinstance(deal, bool) or not isinstance(deal, int):
        raise UserError(_("'deal' must be the number of a deal that has ended."))
    return deal


PHRASES = (
    "hello", "luck", "nice", "thanks", "hurry", "oops", "wow", "gg", "bye",
    "clap", "smile", "surprised", "sleepy", "please", "clover",
)  # fmt: skip
"""The set phrases of table talk, by name (each reader's page words them: static/game/talk.js)."""
TEXT_MOST = 200
"""The most characters a player writes to the table at a time (where its host allows it)."""


def read_phrase(phrase: Any) -> str:
    """The phrase a ``say`` message names.

    :raises UserError: naming the phrases there are.
    """
    if phrase not in PHRASES:
        raise UserError(_("'phrase' must be one of {phrases}.").format(phrases=", ".join(PHRASES)))
    return str(phrase)


def read_text(text: Any) -> str:
    """What a player writes to the table where its host allows it: one line of at most
    :data:`TEXT_MOST` characters, its spaces trimmed.

    >>> read_text("  ¡Órale, qué suerte!  ")
    '¡Órale, qué suerte!'

    :raises UserError: for no text, one too long, or one with control characters.
    """
    if not isinstance(text, str) or not text.strip():
        raise UserError(_("'text' must be what you write to the table."))
    line = text.strip()
    if len(line) > TEXT_MOST:
        raise UserError(_("Write at most {most} characters at a time.").format(most=TEXT_MOST))
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co") for c in line):
        raise UserError(_("Write plain text: no control or invisible characters."))
    return line


def read_keep_count(count: Any) -> bool:
    """Whether a ``rematch`` message carries la cuenta on (``"keep"``, the default) or starts
    it from zero (``"reset"``).

    >>> read_keep_count(None), read_keep_count("reset")
    (True, False)

    :raises UserError: for anything else.
    """
    if count is None or count == "keep":
        return True
    if count == "reset":
        return False
    raise UserError(_('\'count\' must be "keep" (the count goes on) or "reset" (from zero).'))


def read_language(code: Any) -> str:
    """The language a ``lang`` message asks for, one of those offered.

    :raises UserError: naming the languages offered.
    """
    base = code.strip().replace("_", "-").split("-")[0].lower() if isinstance(code, str) else ""
    if base not in LANGUAGES:
        raise UserError(
            _("'lang' must be one of the languages offered: {languages}.").format(
                languages=", ".join(LANGUAGES)
            )
        )
    return negotiate([base])


@dataclass(frozen=True, slots=True)
class Hello:
    """A connection's first message: who it is and how it wants to be spoken to."""

    token: str | None
    """The seat's secret token (None: a spectator)."""
    seed: str | None
    """Its seed for the shuffle of the deal being shuffled (hex), if it gave one."""
    lang: str | None
    """The language of the words it is sent, if it asked for one."""
    deltas: bool
    """It wants the moves of the deal as what changed (:meth:`.conn.Conn.send_state`)."""
    mine: bool = False
    """Without a token: the seat of the visitor's player (his cookie's), from any browser he
    is signed in on."""


def read_hello(data: dict[str, Any]) -> Hello:
    """A ``hello`` message.

    :raises UserError: for a token that is not text or a bad seed.
    """
    token, seed, lang = data.get("token"), data.get("seed"), data.get("lang")
    if token is not None and not isinstance(token, str):
        raise UserError(_("The seat token must be text."))
    return Hello(
        token=token or None,
        seed=None if seed is None else check_seed(seed),
        lang=negotiate([lang[:40]]) if isinstance(lang, str) and lang.strip() else None,
        deltas=data.get("deltas") is True,
        mine=data.get("mine") is True,
    )


@dataclass(frozen=True, slots=True)
class NewMatch:
    """A request for a new match, checked."""

    rules: str
    """The rules' spec (canonical)."""
    others: list[tuple[str, str | None]]
    """Each seat after the creator's: (``human`` or ``bot``, a computer's level)."""
    mode: str
    """``bot``, ``friend`` or ``mixed``."""
    level: str | None
    """The computer players' level, when they all have one."""
    name: str | None
    public: bool | None
    hints: bool | None
    invite_only: bool
    """The seats were named one by one: a person's is taken only with its invitation."""
    rated: bool = False
    """The players' ratings change when it ends (a game between people, of a rated form)."""
    clock: bool = False
    """Its decisions have a clock (:mod:`.clock`), the host's choice."""
    chat: bool = False
    """Its players may write to each other (free text), the host's choice."""


CREATE_FIELDS = frozenset(
    {"mode", "level", "name", "rules", "public", "seats", "hints", "rated", "clock", "chat"}
)


def read_new_match(data: dict[str, Any]) -> NewMatch:
    """A create request: either ``mode`` (``bot``: every other seat a computer player of
    ``level``; ``friend``: every other seat a person) or ``seats`` (each seat after the
    creator's, ``{"kind": "person"}`` or ``{"kind": "bot", "level": ...}``), with ``rules``,
    ``name``, ``public`` and ``hints``.

    :raises UserError: naming the bad field; nothing is stored.
    """
    unknown = set(data) - CREATE_FIELDS
    if unknown:
        raise UserError(
            _("Unknown field(s): {fields}.").format(fields=", ".join(sorted(map(str, unknown))))
        )
    mode, level, seats = data.get("mode"), data.get("level"), data.get("seats")
    public, hints, rules = data.get("public"), data.get("hints"), data.get("rules")
    if mode == LESSON:
        if seats is not None or level is not None or rules is not None:
            raise UserError(words.lesson_is_set())
        return NewMatch(
            rules=find_rules(LESSON_RULES).to_spec(),
            others=[("bot", LESSON)],
            mode=LESSON,
            level=LESSON,
            name=check_name(data.get("name"), "") or None,
            public=False,
            hints=False,  # the lesson says each move itself
            invite_only=False,
        )
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
    n = chosen.num_players
    if seats is None:
        others: list[tuple[str, str | None]] = [
            ("bot", level) if mode == "bot" else ("human", None) for _ in range(1, n)
        ]
    else:
        others = seat_choices(seats, n, rules)
        levels = {lv for kind, lv in others if kind == "bot"}
        people = sum(kind == "human" for kind, _ in others)
        mode = "friend" if people == n - 1 else "bot" if not people else "mixed"
        level = levels.pop() if len(levels) == 1 else None
    name = data.get("name")
    return NewMatch(
        rules=chosen.to_spec(),
        others=others,
        mode=str(mode),
        level=level,
        name=check_name(name, "") or None,
        public=public,
        hints=hints,
        invite_only=seats is not None,
        rated=_rated(data.get("rated"), chosen, others),
        clock=_clock(data.get("clock")),
        chat=_chat(data.get("chat"), mode),
    )


def _clock(asked: Any) -> bool:
    """Whether a new match has a clock (off unless asked).

    :raises UserError: unless it is true or false.
    """
    if asked is None:
        return False
    if not isinstance(asked, bool):
        raise UserError(_("'clock' must be true or false."))
    return asked


def _chat(asked: Any, mode: Any) -> bool:
    """Whether a new match's players may write to each other (off unless asked; a friends'
    table's only).

    :raises UserError: unless it is true or false, or asked of a game against the computer.
    """
    if asked is None or asked is False:
        return False
    if not isinstance(asked, bool):
        raise UserError(_("'chat' must be true or false."))
    if mode == "bot":
        raise UserError(_("Writing to each other is for a table of friends, not the computer."))
    return True


def _rated(asked: Any, rules: Rules, others: list[tuple[str, str | None]]) -> bool:
    """Whether a new match is rated: only if asked, between people, in a rated form.

    :raises UserError: for a rated match with a computer seat, or rules no form has.
    """
    if asked is None or asked is False:
        return False
    if asked is not True:
        raise UserError(_("'rated' must be true or false."))
    if any(kind == "bot" for kind, _level in others):
        raise UserError(words.rated_with_computer())
    if form_of(rules) is None:
        raise UserError(words.rated_rules(sorted(FORMS)))
    return True


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


JOIN_FIELDS = frozenset({"name", "invite"})


def read_join(data: dict[str, Any]) -> tuple[str, str | None]:
    """A join request: the name given (``""``: none) and the invitation code, if any.

    :raises UserError: for an unknown field, a bad name or an invitation that is not text.
    """
    unknown = set(data) - JOIN_FIELDS
    if unknown:
        raise UserError(words.join_unknown_fields(str(u)[:20] for u in unknown))
    invite = data.get("invite")
    if invite is not None and (not isinstance(invite, str) or len(invite) > 64):
        raise UserError(words.invite_not_text())
    return check_name(data.get("name"), ""), invite or None
