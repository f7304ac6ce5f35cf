"""``conquian serve``: run the web server with uvicorn, in one process or several.

With ``--workers N`` (N > 1) this process binds the listening socket, forks N worker
processes that each run the whole server, and supervises them: it accepts each connection
and hands it to a worker, all of a game's to the same one (:mod:`.dispatch`); a worker that
dies is started again, and Ctrl-C or SIGTERM stops every worker once (each finishes its
connections) before this process exits.  Several processes need PostgreSQL, which tells each process of the others'
changes (:mod:`.notify`); SQLite serves one process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import secrets
import signal
import socket
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import FrameType

import uvicorn
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette

from ..userdata import default_data_dir
from .app import create_app
from .database import default_db_url, open_store
from .deadlines import HeaderDeadline
from .dispatch import Dispatcher, HandedServer
from .languages import WEB_WORDS
from .upgrade import DatabaseBehind
from .websocket import MAX_MESSAGE

_ = WEB_WORDS.gettext

SEND_BUFFER = 128 * 1024
"""Bytes of each connection's kernel send buffer (the kernel doubles it for its own use):
plenty for the game's messages, and a bound on what a client that does not read holds."""
QUICK_FAILURE = 10.0
"""A worker that fails within this many seconds of its start is not started again: the
supervisor stops (a wrong setting, an unreachable database)."""


SECRET_ENV = "CONQUIAN_SESSION_SECRET"
"""The key that signs the players' cookies, where several machines serve one site."""


def session_secret(directory: Path | None = None) -> str:
    """The key that signs the players' cookies: ``$CONQUIAN_SESSION_SECRET``, else the one kept
    in ``session-secret`` in the data directory (made on the first start, readable by its
    owner only), so that a player stays the same player across restarts.

    :raises OSError: naming the file, if it cannot be read or made.
    """
    from_env = os.environ.get(SECRET_ENV, "").strip()
    if from_env:
        return from_env
    path = (directory or default_data_dir()) / "session-secret"
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        pass
    except (OSError, UnicodeError) as exc:
        raise OSError(f"cannot read the session key {path}: {exc}") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_urlsafe(32)
    try:  # made readable by its owner alone, and never overwritten if another process won
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(secret)
    return secret


def serve(args: argparse.Namespace) -> int:
    """Start the server and print the address to open; returns when it stops.

    ``args``: ``host``, ``port``, ``db``, ``bot_delay``, ``rate_limit``, ``allow_origin``
    (a list) and ``workers``, as ``conquian serve`` reads them.  Behind a reverse proxy,
    uvicorn takes the client's address from ``X-Forwarded-For`` when the proxy's address is
    in ``FORWARDED_ALLOW_IPS`` (default: this computer), so rate limits count real clients.
    """
    db = args.db or default_db_url()
    workers = getattr(args, "workers", 1) or 1
    _allow_connections()
    try:
        parsed = make_url(db)
        shown_db = parsed.render_as_string(hide_password=True)
    except SQLAlchemyError:
        print(f"conquian serve: {db!r} is not a database URL", file=sys.stderr)
        return 1
    if workers < 1:
        print("conquian serve: --workers must be at least 1", file=sys.stderr)
        return 1
    if workers > 1 and parsed.get_backend_name() != "postgresql":
        print(
            f"conquian serve: --workers {workers} needs a PostgreSQL database "
            "(--db postgresql+psycopg://user:password@host/database), which tells each "
            f"process of the others' moves; {parsed.get_backend_name()} serves one process",
            file=sys.stderr,
        )
        return 1
    try:
        # reach the database (and make its tables) before serving
        asyncio.run(open_store(db).close())
    except DatabaseBehind as behind:
        said = _(
            "the database {db} is at revision {found} and this release needs {wanted}: run "
            "conquian db upgrade --db URL first, with the same URL"
        ).format(db=shown_db, found=behind.found or "-", wanted=behind.wanted)
        print(f"conquian serve: {said}", file=sys.stderr)
        return 1
    except (SQLAlchemyError, OSError) as exc:
        why = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        print(f"conquian serve: cannot use the database {shown_db}: {why}", file=sys.stderr)
        return 1
    except ModuleNotFoundError as exc:
        print(
            f"conquian serve: the database driver {exc.name} is missing; "
            "for PostgreSQL install the 'postgres' extra: pip install 'conquian[postgres]'",
            file=sys.stderr,
        )
        return 1

    try:
        secret = session_secret()
    except OSError as exc:
        print(f"conquian serve: {exc}", file=sys.stderr)
        return 1

    def make_app() -> Starlette:
        return create_app(
            db,
            session_secret=secret,
            bot_delay=args.bot_delay,
            quick_bots_after=args.quick_bots_after,
            grace=args.grace,
            rate_limit=args.rate_limit,
            allowed_origins=tuple(args.allow_origin or ()),
        )

    try:
        app = make_app()  # each worker makes its own; this one checks the options
    except ValueError as exc:
        print(f"conquian serve: {exc}", file=sys.stderr)
        return 1
    host = args.host
    shown = f"[{host}]" if ":" in host else host
    # in the language of the command line (--lang, or LANG)
    address = f"http://{shown}:{args.port}/"
    print(
        _("Conquian is served at {address} (open it in a browser)").format(address=address),
        flush=True,
    )
    print(_("Games are stored in {db}; Ctrl-C stops the server.").format(db=shown_db), flush=True)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    sock = _config(app, host, args.port).bind_socket()
    # every connection gets a send buffer of a fixed size (inherited from the listening
    # socket) rather than one the kernel may grow to megabytes for a client that does not read
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)

    if workers == 1:
        server = uvicorn.Server(_config(app, host, args.port))
        server.run(sockets=[sock])
        return 0 if server.started else 1
    sock.listen(2048)  # now: a connection made while the workers start waits for one of them
    dispatcher = Dispatcher(sock, workers)

    def run(channel: socket.socket) -> int:
        server = HandedServer(_config(make_app(), host, args.port), channel)
        server.run(sockets=[])
        return 0 if server.started else 1

    print(
        _(
            "{workers} worker processes share the port (each game's connections go to one of them)."
        ).format(workers=workers),
        flush=True,
    )
    try:
        return supervise(run, workers, dispatcher)
    finally:
        dispatcher.close()
        sock.close()


def _allow_connections() -> None:
    """Let this process and its workers hold as many connections as the system lets them:
    the soft limit on open files (often 1,024, the sockets of some 500 games) raised to the
    hard one, as a service manager's default leaves it."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _config(app: Starlette, host: str, port: int) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=HeaderDeadline,
        ws="websockets-sansio",
        ws_max_size=max(MAX_MESSAGE * 16, 65536),
        ws_ping_interval=20,
        ws_per_message_deflate=False,  # small messages: compressing costs more than it saves
        server_header=False,
        # a request that waits (a quick-match ticket's, ?wait=S) is cut at a stop: its page
        # asks again, of the server that comes next
        timeout_graceful_shutdown=3,
    )


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def supervise(run: Callable[[socket.socket], int], workers: int, dispatcher: Dispatcher) -> int:
    """Run ``run`` in ``workers`` forked processes until this one is told to stop, handing
    them the connections (``dispatcher``); a worker that dies is started again (one that
    fails at once stops them all).  ``run`` gets the worker's end of its channel.  Returns
    the exit status: 0 once stopped by a signal, 1 if a worker failed at its start."""
    children: dict[int, tuple[int, float]] = {}  # pid: (worker number, when it started)
    stopping = False
    failed = False
    # signals wake the dispatcher's wait through this pipe (the handlers only set flags)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)

    stop_asked = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stop_asked
        stop_asked = True  # acted on by the loop, woken by the signal's byte in the pipe

    def stop_all() -> None:
        nonlocal stopping
        if stopping:
            return
        stopping = True
        dispatcher.stop_accepting()
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    def drain() -> None:
        with contextlib.suppress(BlockingIOError):
            while os.read(wake_read, 512):
                pass

    def spawn(number: int) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        channel = dispatcher.channel_for(number - 1)
        # no stop signal between the fork and the new worker's pid being known (it would
        # never be told to stop), nor in the worker before it has its own handlers
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        pid = os.fork()
        if pid == 0:  # the worker
            code = 1
            try:
                signal.set_wakeup_fd(-1)
                os.close(wake_read)
                os.close(wake_write)
                dispatcher.close()  # the supervisor's sockets, the other workers' channels
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
                os.setpgid(0, 0)  # Ctrl-C reaches the supervisor, which stops each worker once
                _end_with_parent()
                code = run(channel)
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        channel.close()
        children[pid] = (number, time.monotonic())
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        print(f"worker {number} started (pid {pid})", flush=True)

    def reap() -> None:
        nonlocal failed
        while children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                children.clear()
                return
            if pid == 0:
                return
            if pid not in children:
                continue
            number, began = children.pop(pid)
            dispatcher.worker_gone(number - 1)
            if stopping:
                continue
            code = os.waitstatus_to_exitcode(status)
            how = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
            if code > 0 and time.monotonic() - began < QUICK_FAILURE:
                print(f"conquian serve: worker {number} {how} at its start", file=sys.stderr)
                failed = True
                stop_all()
                continue
            print(f"conquian serve: worker {number} {how}; starting it again", file=sys.stderr)
            spawn(number)

    dispatcher.register(wake_read, drain)
    previous = {s: signal.signal(s, stop) for s in STOP_SIGNALS}
    previous[signal.SIGCHLD] = signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    previous_wakeup = signal.set_wakeup_fd(wake_write)
    try:
        for number in range(1, workers + 1):
            spawn(number)
        while children:
            dispatcher.step(1.0)
            if stop_asked:
                stop_all()
            reap()
    finally:
        signal.set_wakeup_fd(previous_wakeup)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        os.close(wake_read)
        os.close(wake_write)
    return 1 if failed else 0


def _end_with_parent() -> None:
    """Ask Linux to stop this worker (SIGTERM) if the supervisor dies, even by SIGKILL."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
        if os.getppid() == 1:  # the supervisor died before that took effect
            os.kill(os.getpid(), signal.SIGTERM)
