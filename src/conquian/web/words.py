"""What the web server says about seats, invitations and the lobby, in one place.

The error messages of a create or join request that names its seats or brings an
invitation, and the names of the computer seats, each one message of the ``conquian-web``
catalogue (:data:`~.languages.WEB_WORDS`), written in the language of the request or
connection.  (The browser's own sentences are in ``static/app.js``, in its ``SEAT_WORDS``.)

A name is stored in English (``Computer (hard)``, ``Player 2``: data, as the player's own
name is); :func:`shown_names` writes the names the server made in the reader's language.

>>> from conquian.present.i18n import speaking
>>> computer_name(1, 1, "hard"), stored_name(computer_name, 1, 1, "hard")
('Computer (hard)', 'Computer (hard)')
>>> with speaking("es"):
...     computer_name(2, 1, "easy"), stored_name(default_player, 1)
('Computadora 1 (fácil)', 'Player 2')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from ..present.i18n import SOURCE_LANGUAGE, speaking
from ..present.words import level_word
from .languages import WEB_WORDS
from .live import Refusal, Refused

PERSON_KINDS = ("person", "human")
"""The ``kind`` of a person's seat in a create request (``human``, as the game's facts say it,
is taken too)."""
BOT_KIND = "bot"

_ = WEB_WORDS.gettext
ngettext = WEB_WORDS.ngettext
_T = TypeVar("_T")


def _choices(names: Iterable[str]) -> str:
    return ", ".join(names)


def stored_name(fn: Callable[..., _T], *args: object) -> _T:
    """``fn(*args)`` in English: a name as it is stored (the words of the source language)."""
    with speaking(SOURCE_LANGUAGE):
        return fn(*args)


def computer_name(computers: int, number: int, level: str) -> str:
    """The name of a computer seat: ``Computer (hard)`` when it is the table's only one, else
    numbered among the computer players in seat order (``Computer 2 (hard)``); the guided
    first hand's is ``Computer``."""
    if level == "lesson":
        # Translators: the computer player of the guided first hand ("Learn to play")
        return _("Computer")
    if computers == 1:
        # Translators: the name of the table's only computer player; {level}: easy, hard...
        return _("Computer ({level})").format(level=level_word(level))
    # Translators: the name of one of several computer players, numbered in seat order.
    return _("Computer {number} ({level})").format(number=number, level=level_word(level))


def default_player(seat: int) -> str:
    """The name of a person who gave none: ``Player 1`` in the first seat."""
    return _("Player {number}").format(number=seat + 1)


def shown_names(seats: Sequence[tuple[str, str, str | None]]) -> list[str]:
    """The names of a table's seats, each ``(kind, stored name, level)``, in the language in
    use: a name the server made (a computer's, a default) is written again, any other name is
    the player's own."""
    computers = sum(kind == "bot" for kind, _name, _level in seats)
    out: list[str] = []
    number = 0
    for seat, (kind, name, level) in enumerate(seats):
        if kind == "bot":
            number += 1
            made = stored_name(computer_name, computers, number, level or "medium")
            out.append(
                computer_name(computers, number, level or "medium") if name == made else name
            )
        elif name and name == stored_name(default_player, seat):
            out.append(default_player(seat))
        else:
            out.append(name)
    return out


# ---------------------------------------------------------------- create


def unknown_mode(mode: object) -> str:
    return _(
        "Unknown mode {mode}: choose 'bot' or 'friend', or list the other seats in 'seats'."
    ).format(mode=repr(str(mode)[:20]))


def rated_with_computer() -> str:
    return _("A game with a computer seat is not rated: rate games between people only.")


def rated_rules(forms: Sequence[str]) -> str:
    return _(
        "Only the games of the usual rules are rated ({forms}, of any length); these rules are not."
    ).format(forms=", ".join(forms))


def lesson_is_set() -> str:
    return _("The lesson's game is always the same: send no rules, level or seats with it.")


def unknown_level(level: object, levels: Iterable[str]) -> str:
    return _("Unknown level {level}: choose one of {levels}.").format(
        level=repr(str(level)[:20]), levels=_choices(levels)
    )


def seats_and_mode() -> str:
    return _(
        "Give either 'seats' (each other seat a person or a computer player) or "
        "'mode' and 'level', not both."
    )


def seats_not_a_list() -> str:
    return _("'seats' must be a list of the seats after yours, each {person} or {bot}.").format(
        person='{"kind": "person"}', bot='{"kind": "bot", "level": "hard"}'
    )


def seats_count(spec: str, players: int, got: int) -> str:
    """A ``seats`` list of the wrong length for the rules."""
    return ngettext(
        "The rules {spec} seat {players} players: 'seats' must list the {count} seat "
        "after yours, not {got}.",
        "The rules {spec} seat {players} players: 'seats' must list the {count} seats "
        "after yours, not {got}.",
        players - 1,
    ).format(spec=repr(spec), players=players, count=players - 1, got=got)


def _where(index: int) -> str:
    # Translators: a seat of a create request: "seats[1] (seat 3)".
    return _("seats[{index}] (seat {number})").format(index=index, number=index + 2)


def seat_not_an_object(index: int) -> str:
    return _("{seat} must be an object such as {example}.").format(
        seat=_where(index), example='{"kind": "person"}'
    )


def seat_unknown_fields(index: int, fields: Iterable[str]) -> str:
    return _("{seat}: unknown field(s) {fields}; a seat has 'kind' and 'level'.").format(
        seat=_where(index), fields=_choices(sorted(fields))
    )


def seat_unknown_kind(index: int, kind: object) -> str:
    return _("{seat}: unknown kind {kind}: choose 'person' or 'bot'.").format(
        seat=_where(index), kind=repr(str(kind)[:20])
    )


def seat_unknown_level(index: int, level: object, levels: Iterable[str]) -> str:
    return _("{seat}: unknown level {level}: choose one of {levels}.").format(
        seat=_where(index), level=repr(str(level)[:20]), levels=_choices(levels)
    )


def seat_person_level(index: int) -> str:
    return _("{seat} is a person's seat: only a computer seat ('bot') has a level.").format(
        seat=_where(index)
    )


# ---------------------------------------------------------------- join


def invite_not_text() -> str:
    return _("The invitation code must be text (the last part of the invitation link).")


def invite_unknown() -> str:
    return _(
        "This invitation is not one of this game's: check that the whole link was copied. "
        "Nothing was changed."
    )


def invite_used() -> str:
    return _(
        "This invitation has been used already: its seat is taken (each invitation seats "
        "one person, once). You can watch the game."
    )


def invite_needed() -> str:
    return _(
        "The seats of this game are taken by invitation: open the invitation link you were sent."
    )


def join_unknown_fields(fields: Iterable[str]) -> str:
    return _("Unknown field(s): {fields}; a join has 'name' and 'invite'.").format(
        fields=_choices(sorted(fields))
    )


def seats_full() -> str:
    return _("Every seat of this game is taken; you can watch it.")


def seat_just_taken() -> str:
    return _("Someone else just took this seat; you can watch the game.")


def waiting_to_join() -> str:
    """A move before every person's seat is taken."""
    return _("Waiting for every player to join.")


# ---------------------------------------------------------------- the live match's refusals


def no_such_match(match_id: str) -> str:
    """A match id that names no match (quoted as it came, cut short)."""
    return _("There is no game {game}.").format(game=repr(match_id))


def seed_given(deal: int) -> str:
    """A seat's second seed for one deal's shuffle."""
    return _("You have added your seed to the shuffle of deal {number} already.").format(
        number=deal
    )


def refusal(refused: Refused) -> tuple[str, int]:
    """A refusal of the live match in words, with the HTTP status of an answer that carries it.

    >>> refusal(Refused(Refusal.SEATS_FULL))
    ('Every seat of this game is taken; you can watch it.', 409)
    """
    reason = refused.reason
    if reason is Refusal.OTHER_DEAL:
        said = _("Seeds are being taken for deal {number}, not for deal {deal}.").format(
            number=refused.deal, deal=str(refused.asked)[:12]
        )
        return said, 400
    if reason is Refusal.SEED_GIVEN:
        return seed_given(refused.deal), 400
    words: dict[Refusal, tuple[Callable[[], str], int]] = {
        Refusal.WAITING_FOR_PLAYERS: (waiting_to_join, 400),
        Refusal.SHUFFLING: (
            lambda: _("The first deal is being shuffled: waiting for every player's seed."),
            400,
        ),
        Refusal.MATCH_OVER: (lambda: _("The match is over; no more moves can be made."), 400),
        Refusal.MATCH_NOT_OVER: (lambda: _("A rematch can start once this match is over."), 400),
        Refusal.INVITE_UNKNOWN: (invite_unknown, 404),
        Refusal.INVITE_USED: (invite_used, 409),
        Refusal.INVITE_NEEDED: (invite_needed, 403),
        Refusal.SEATS_FULL: (seats_full, 409),
        Refusal.NO_SHUFFLE: (lambda: _("No deal is being shuffled: the match is over."), 400),
        Refusal.LESSON_MOVE: (lambda: _("The lesson asks for another move here."), 400),
        Refusal.CLAIM_TWO: (
            lambda: _(
                "Only a table of two people can be claimed; at a larger table a computer takes the seat of someone who left."
            ),
            400,
        ),
    }
    say, status = words[reason]
    return say(), status
