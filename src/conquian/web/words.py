"""What the web server says about seats, invitations and the lobby, in one place.

The error messages of a create or join request that names its seats or brings an
invitation, and the names of the computer seats.  (The browser's own sentences are in
``static/app.js``, in its ``SEAT_WORDS``.)
"""

from __future__ import annotations

from collections.abc import Iterable

PERSON_KINDS = ("person", "human")
"""The ``kind`` of a person's seat in a create request (``human``, as the game's facts say it,
is taken too)."""
BOT_KIND = "bot"


def _choices(names: Iterable[str]) -> str:
    return ", ".join(names)


def computer_name(computers: int, number: int, level: str) -> str:
    """The name of a computer seat: ``Computer (hard)`` when it is the table's only one, else
    numbered among the computer players in seat order (``Computer 2 (hard)``)."""
    return f"Computer ({level})" if computers == 1 else f"Computer {number} ({level})"


def default_player(seat: int) -> str:
    """The name of a person who gave none: ``Player 1`` in the first seat."""
    return f"Player {seat + 1}"


# ---------------------------------------------------------------- create


def unknown_mode(mode: object) -> str:
    return (
        f"Unknown mode {str(mode)[:20]!r}: choose 'bot' or 'friend', "
        "or list the other seats in 'seats'."
    )


def unknown_level(level: object, levels: Iterable[str]) -> str:
    return f"Unknown level {str(level)[:20]!r}: choose one of {_choices(levels)}."


def seats_and_mode() -> str:
    return (
        "Give either 'seats' (each other seat a person or a computer player) or "
        "'mode' and 'level', not both."
    )


def seats_not_a_list() -> str:
    return (
        "'seats' must be a list of the seats after yours, each "
        '{"kind": "person"} or {"kind": "bot", "level": "hard"}.'
    )


def seats_count(spec: str, players: int, got: int) -> str:
    """A ``seats`` list of the wrong length for the rules."""
    return (
        f"The rules {spec!r} seat {players} players: 'seats' must list the "
        f"{players - 1} seat{'s' if players > 2 else ''} after yours, not {got}."
    )


def _where(index: int) -> str:
    return f"seats[{index}] (seat {index + 2})"


def seat_not_an_object(index: int) -> str:
    return f'{_where(index)} must be an object such as {{"kind": "person"}}.'


def seat_unknown_fields(index: int, fields: Iterable[str]) -> str:
    return f"{_where(index)}: unknown field(s) {_choices(sorted(fields))}; a seat has 'kind' and 'level'."


def seat_unknown_kind(index: int, kind: object) -> str:
    return f"{_where(index)}: unknown kind {str(kind)[:20]!r}: choose 'person' or 'bot'."


def seat_unknown_level(index: int, level: object, levels: Iterable[str]) -> str:
    return f"{_where(index)}: unknown level {str(level)[:20]!r}: choose one of {_choices(levels)}."


def seat_person_level(index: int) -> str:
    return f"{_where(index)} is a person's seat: only a computer seat ('bot') has a level."


# ---------------------------------------------------------------- join


def invite_not_text() -> str:
    return "The invitation code must be text (the last part of the invitation link)."


def invite_unknown() -> str:
    return (
        "This invitation is not one of this game's: check that the whole link was copied. "
        "Nothing was changed."
    )


def invite_used() -> str:
    return (
        "This invitation has been used already: its seat is taken (each invitation seats "
        "one person, once). You can watch the game."
    )


def invite_needed() -> str:
    return "The seats of this game are taken by invitation: open the invitation link you were sent."


def join_unknown_fields(fields: Iterable[str]) -> str:
    return f"Unknown field(s): {_choices(sorted(fields))}; a join has 'name' and 'invite'."


def seats_full() -> str:
    return "Every seat of this game is taken; you can watch it."


def seat_just_taken() -> str:
    return "Someone else just took this seat; you can watch the game."


def waiting_to_join() -> str:
    """A move before every person's seat is taken."""
    return "Waiting for every player to join."
