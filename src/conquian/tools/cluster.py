"""The deals of an arena match as Ray tasks, on a Ray cluster or a local Ray instance.

This is the optional extra ``cluster`` (``pip install 'conquian[cluster]'``); nothing else
of conquian imports Ray.  :func:`run_on_ray` plays a match's deals in chunks, each chunk a
Ray task that plays it exactly as a worker process of ``--jobs`` does (``config.player()``
and its ``play_deals``), so the same seed gives the same games as a local run: the games
depend on the seed and the deal's number only, never on where or in which order the
chunks are played.  The records of the games (``records_dir``) are written by this
process, which receives them from the tasks, so they land on this machine even when the
deals are played on other ones.

``address`` is :data:`LOCAL` to start a Ray instance of this process's own, on the
loopback interface, stopped when the match ends; any other value is the address of a
running cluster (``ray.init(address=...)``: ``HOST:PORT`` of its head, or ``auto``), of
which this machine is a node, with this version of conquian installed on every node.

External bots (``cmd:``) are programs on this machine: they cannot be played as Ray tasks.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import ipaddress
import logging
import os
import secrets
import signal
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from ..errors import ConquianError
from ..notation import small_number

LOCAL = "local"
"""The ``address`` that starts a Ray instance of this process's own."""
EXTRA_HINT = "pip install 'conquian[cluster]'"


class _MatchConfig(Protocol):
    def player(self) -> Any: ...


class _Results(Protocol):
    first_deal: int
    deals_requested: int
    elapsed_s: float
    jobs: int

    @property
    def deals(self) -> int: ...
    def add(self, games: Sequence[Any]) -> None: ...


def import_ray(address: str | None = None) -> Any:
    """The ``ray`` module, set up first (its environment variables, which it reads when
    imported) for a match on a local instance or a loopback ``address``.

    :raises ConquianError: naming the extra to install if Ray is missing.
    """
    if address is not None:
        _prepare(address)
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ConquianError(
            f"Playing the deals on Ray needs the Ray library: {EXTRA_HINT}."
        ) from None


def is_loopback(address: str) -> bool:
    """Whether a Ray address names this machine's loopback interface.

    >>> is_loopback("127.0.0.1:6379"), is_loopback("localhost:1"), is_loopback("10.0.0.5:6379")
    (True, True, False)
    """
    host = address.removeprefix("ray://").rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _prepare(address: str) -> None:
    """Ray's environment for a match at ``address``, unless the caller set it: on a
    loopback address or a local instance, keep Ray's node on the loopback interface
    (as Ray does where it supports no multi-node cluster); a local instance also sends
    no usage reports and has a token of its own (so Ray writes none to the home
    directory)."""
    local = address == LOCAL
    if local or is_loopback(address):
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    if local:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        if "RAY_AUTH_MODE" not in os.environ and "RAY_AUTH_TOKEN" not in os.environ:
            os.environ["RAY_AUTH_MODE"] = "token"
            os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)


@contextlib.contextmanager
def connected(address: str, jobs: int) -> Iterator[tuple[Any, int]]:
    """Ray, initialised for a match, and the number of tasks to keep running at once.

    With :data:`LOCAL`, a Ray instance of this process's own with ``jobs`` CPUs (0: one
    per core) on the loopback interface, without dashboard or usage reports, stopped at
    the end; else a connection to the cluster at ``address`` (closed at the end), where
    ``jobs`` limits the tasks running at once (0: as many as the cluster has CPUs).  If
    this process has initialised Ray itself, that is used as it is.

    :raises ConquianError: if Ray is missing or the cluster cannot be reached.
    """
    local = address == LOCAL
    ray = import_ray(address)
    ours = not ray.is_initialized()
    if ours:
        main = threading.current_thread() is threading.main_thread()
        previous = signal.getsignal(signal.SIGTERM) if main else None
        options: dict[str, Any] = {
            "logging_level": logging.ERROR,
            "log_to_driver": False,
        }
        if local:
            options.update(address="local", include_dashboard=False)
            if jobs:
                options["num_cpus"] = jobs
        else:
            _check_reachable(address)
            options["address"] = address
        try:
            ray.init(**options)
        except (ConnectionError, RuntimeError, ValueError, ray.exceptions.RayError) as exc:
            where = "start a local Ray instance" if local else f"connect to Ray at {address}"
            raise ConquianError(f"Cannot {where}: {exc}") from None
        finally:
            if main:  # Ray sets a handler of its own; keep the caller's (the CLI's: stop)
                signal.signal(signal.SIGTERM, previous)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        yield ray, max(1, jobs if jobs and not local else cpus)
    finally:
        if ours:
            ray.shutdown()


def _check_reachable(address: str) -> None:
    """Fail at once if nothing answers at a ``HOST:PORT`` address (Ray would retry for
    minutes).

    :raises ConquianError: if the connection is refused or times out.
    """
    host, _, port = address.rpartition(":")
    port_number = small_number(port)
    if not host or port_number is None:
        return  # "auto", or an address only Ray understands
    try:
        socket.create_connection((host.strip("[]"), port_number), timeout=10).close()
    except OSError as exc:
        raise ConquianError(
            f"Cannot connect to Ray at {address}: {exc.strerror or exc}. Is a Ray head "
            "running there (ray start --head)?"
        ) from None


def play_chunk(config: Any, start: int, stop: int) -> tuple[list[Any], list[tuple[str, bytes]]]:
    """A Ray task: play deals ``start`` to ``stop`` (excluded) as a worker process does,
    returning the games and, if the match keeps records, each record's file name and
    contents (written in a directory of the task's own, then removed)."""
    records_dir: str | None = getattr(config, "records_dir", None)
    if records_dir is None:
        player = config.player()
        try:
            return player.play_deals(start, stop), []
        finally:
            player.close()
    with tempfile.TemporaryDirectory(prefix="conquian-records-") as scratch:
        player = dataclasses.replace(config, records_dir=scratch).player()
        try:
            games = player.play_deals(start, stop)
        finally:
            player.close()
        files = []
        for name in sorted(os.listdir(scratch)):
            with open(os.path.join(scratch, name), "rb") as handle:
                files.append((name, handle.read()))
        return games, files


def chunks_of(first: int, deals: int, jobs: int) -> list[tuple[int, int]]:
    """The deals ``first`` … ``first + deals - 1`` in chunks, as the worker processes
    take them: about four per job, at most ten deals each.

    >>> chunks_of(0, 5, 1)
    [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]
    >>> chunks_of(10, 25, 2)[:2], len(chunks_of(10, 25, 2))
    ([(10, 13), (13, 16)], 9)
    """
    stop = first + deals
    size = max(1, min(10, deals // (jobs * 4)))
    return [(start, min(start + size, stop)) for start in range(first, stop, size)]


def run_on_ray(
    config: _MatchConfig,
    result: _Results,
    address: str,
    jobs: int,
    started: float,
    progress: Callable[[int, int, Any], None] | None,
) -> None:
    """Play a match's deals as Ray tasks (``play_chunk``), counting each chunk as it
    finishes (``result.add``) and setting ``result.jobs`` to the tasks run at once.

    Ctrl-C (KeyboardInterrupt) passes on, the chunks finished counted; the tasks not
    finished end on their own, their results dropped.  A task's exception is raised here as it was raised there.

    :raises ConquianError: if Ray is missing, cannot start or connect, or loses a task.
    """
    with connected(address, jobs) as (ray, parallel):
        result.jobs = parallel
        first, deals = result.first_deal, result.deals_requested
        todo = iter(chunks_of(first, deals, parallel))
        task = ray.remote(play_chunk)
        config_ref = ray.put(config)
        records_dir: str | None = getattr(config, "records_dir", None)
        pending: list[Any] = []

        def submit() -> None:
            chunk = next(todo, None)
            if chunk is not None:
                pending.append(task.remote(config_ref, *chunk))

        try:
            for _ in range(parallel):
                submit()
            while pending:
                ready, _ = ray.wait(pending, num_returns=1)
                for ref in ready:
                    pending.remove(ref)
                    games, files = _outcome(ray, ref)
                    if records_dir is not None:
                        for name, data in files:
                            with open(os.path.join(records_dir, name), "wb") as handle:
                                handle.write(data)
                    result.add(games)
                    submit()
                    result.elapsed_s = time.perf_counter() - started
                    if progress is not None:
                        progress(result.deals, deals, result)
        finally:
            # The tasks not finished are left to end on their own (at most one chunk of ten
            # deals per task running); their results are dropped.  Not ray.cancel: cancelling
            # a task that is just finishing crashes this driver inside Ray ("Tried to complete
            # task that was not pending"), with force=True or (less often) without.
            pending.clear()


def _outcome(ray: Any, ref: Any) -> Any:
    """A finished task's value; its exception raised as it was raised in the task."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, Exception):
            cause.add_note(f"In a Ray task:\n{exc}")
            raise cause from None
        raise ConquianError(f"A Ray task failed: {exc}") from None
    except ray.exceptions.RayError as exc:
        raise ConquianError(f"Ray lost a task of the match: {exc}") from None


__all__ = ["LOCAL", "connected", "import_ray", "play_chunk", "run_on_ray"]
