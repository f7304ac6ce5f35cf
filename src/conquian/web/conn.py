"""One client's connection to a match: its seat, its language and its outbox.

The outbox is bounded: a client that does not read what it is sent while more keeps coming
(:data:`OUTBOX_MESSAGES` messages or :data:`OUTBOX_CHARS` characters waiting) is marked
:attr:`Conn.behind`; its outbox is dropped and the server closes the connection.  Every state
message is the whole view (but for the moves of the deal the client already has, if it asked
for :attr:`Conn.deltas`), so a new connection catches up at once.

>>> conn = Conn(0, deltas=True)
>>> first = ["a", "b"]
>>> conn.send_state({"type": "state", "log": first, "obs": None})
>>> conn.send_state({"type": "state", "log": [*first, "c"], "obs": None})
>>> conn.outbox[-1]
'{"type":"state","log":["c"],"obs":null,"log_from":2}'
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .security import dumps

OUTBOX_MESSAGES = 256
"""The most messages waiting to be sent to one connection; past that it is closed."""
OUTBOX_CHARS = 1 << 20
"""The most characters (1 MiB) waiting to be sent to one connection; past that it is closed."""


@dataclass(eq=False)
class Conn:
    """One open connection to a match: its seat (None for a spectator) and its outbox."""

    seat: int | None
    lang: str = "en"
    """The language the words sent to this connection are written in."""
    deltas: bool = False
    """The client asked (``"deltas": true`` in its hello) for the moves of the deal from where
    its last state differs only (:meth:`send_state`)."""
    invites: dict[int, str] = field(default_factory=dict)
    """The creator's connection: the invitation code of each seat that has one (sent, in
    each state message to this connection only, while the seat is free)."""
    outbox: deque[str] = field(default_factory=deque)
    waiting: int = 0
    """Characters in the outbox."""
    behind: bool = False
    """The client fell too far behind: nothing more is queued, the connection is closing."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the outbox has a message, or the client fell behind."""
    on_behind: Callable[[], None] | None = None
    """Called once the client fell behind (the server stops reading from it then)."""
    max_messages: int = OUTBOX_MESSAGES
    max_chars: int = OUTBOX_CHARS
    said_at: float = float("-inf")
    """When (the loop's time) this connection's player last said a phrase of table talk."""
    sent_log: Sequence[Any] | None = None
    sent_history: Sequence[Any] | None = None
    """The log and the history of the last state sent (with :attr:`deltas`)."""

    def send_state(self, view: Mapping[str, Any]) -> None:
        """Queue a state message.  With :attr:`deltas`, its ``log`` and its observation's
        ``history`` hold only the items from ``log_from`` and ``history_from`` on: the client
        keeps the items before those from the last state it was sent on this connection.
        (A move adds lines to the log or changes its last one; a new deal, another language
        or another name starts it again from 0.)"""
        if self.deltas:
            log, obs = view["log"], view["obs"]
            log_from = same_start(self.sent_log, log)
            self.sent_log = log
            view = {**view, "log": log[log_from:], "log_from": log_from}
            if obs is None:
                self.sent_history = None
            else:
                history = obs["history"]
                history_from = same_start(self.sent_history, history)
                self.sent_history = history
                view["obs"] = {**obs, "history": history[history_from:]}
                view["history_from"] = history_from
        self.send(view)

    def send(self, message: Mapping[str, Any]) -> None:
        """Queue a message (never ``NaN`` or ``Infinity``: :func:`.security.dumps` writes
        them as ``null``)."""
        if self.behind:
            return
        text = dumps(message)
        if len(self.outbox) >= self.max_messages or self.waiting + len(text) > self.max_chars:
            self.behind = True
            self.outbox.clear()
            self.waiting = 0
            if self.on_behind is not None:
                self.on_behind()
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


def same_start(before: Sequence[Any] | None, now: Sequence[Any]) -> int:
    """How many items ``now`` starts with that are the very objects ``before`` starts with.

    The lists are a deal's log or history as kept for one viewer, which only ever replaces
    items from some place to its end (a move adds items or changes the last one; a new deal,
    another language or another name makes a new list of new items): so when the last item
    of ``before`` is still in its place, every item before it is too.

    >>> a, b = ["x"], ["y"]
    >>> same_start([a, b], [a, ["y"]]), same_start([a, b], [a, b, ["z"]]), same_start(None, [a])
    (1, 2, 0)
    """
    if not before:
        return 0
    count = len(before)
    if count <= len(now) and before[-1] is now[count - 1]:
        return count
    same = 0
    for old, new in zip(before, now, strict=False):
        if old is not new:
            break
        same += 1
    return same
