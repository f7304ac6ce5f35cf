"""The ``--workers`` supervisor's dispatcher, in-process: a connection whose first line
comes in part is looked at a bounded number of times while it waits (the audit's L3: the
supervisor spun on it at a whole core), and is still handed on, whole, when the line ends
or the wait is over."""

from __future__ import annotations

import socket
from contextlib import closing

import pytest

from conquian.web import dispatch
from conquian.web.dispatch import Dispatcher


def handed(channel: socket.socket) -> socket.socket:
    """The connection the dispatcher passed over ``channel`` (the worker's end)."""
    _data, fds, _flags, _address = socket.recv_fds(channel, 16, 1)
    return socket.socket(fileno=fds[0])


@pytest.mark.parametrize("finish", [True, False])
def test_a_part_of_a_first_line_is_looked_at_a_few_times_not_spun_on(
    monkeypatch: pytest.MonkeyPatch, finish: bool
) -> None:
    monkeypatch.setattr(dispatch, "PEEK_SECONDS", 1.0)
    listener = socket.create_server(("127.0.0.1", 0))
    dispatcher = Dispatcher(listener, 1)
    worker_end = dispatcher.channel_for(0)
    peeks = 0
    peek = dispatcher._peek

    def counted(conn: socket.socket) -> None:
        nonlocal peeks
        peeks += 1
        peek(conn)

    monkeypatch.setattr(dispatcher, "_peek", counted)
    with closing(socket.create_connection(listener.getsockname())) as client:
        client.sendall(b"G")
        worker_end.setblocking(False)
        while True:
            dispatcher.step(0.1)
            if finish and peeks >= 3:
                client.sendall(b"ET / HTTP/1.1\r\n")
                finish = False
            try:
                conn = handed(worker_end)
                break
            except BlockingIOError:
                continue
        with closing(conn):
            assert conn.recv(64) in (b"G", b"GET / HTTP/1.1\r\n")
    # a second's wait, pauses doubling from 10 ms to 250 ms: at most about ten looks
    assert peeks <= 12, peeks
    assert not dispatcher.waiting and not dispatcher.resting
    dispatcher.close()
    worker_end.close()
