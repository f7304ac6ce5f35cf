"""``conquian serve``: run the web server with uvicorn."""

from __future__ import annotations

import argparse
import logging
import socket
import sys

import uvicorn
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from .app import MAX_MESSAGE, create_app
from .store import Store, default_db_url

SEND_BUFFER = 128 * 1024
"""Bytes of each connection's kernel send buffer (the kernel doubles it for its own use):
plenty for the game's messages, and a bound on what a client that does not read holds."""


def serve(args: argparse.Namespace) -> int:
    """Start the server and print the address to open; returns when it stops.

    ``args``: ``host``, ``port``, ``db``, ``bot_delay``, ``rate_limit`` and ``allow_origin``
    (a list), as ``conquian serve`` reads them.  Behind a reverse proxy, uvicorn takes the
    client's address from ``X-Forwarded-For`` when the proxy's address is in
    ``FORWARDED_ALLOW_IPS`` (default: this computer), so rate limits count real clients.
    """
    db = args.db or default_db_url()
    try:
        shown_db = make_url(db).render_as_string(hide_password=True)
    except SQLAlchemyError:
        print(f"conquian serve: {db!r} is not a database URL", file=sys.stderr)
        return 1
    try:
        Store(db).close()  # reach the database (and create its tables) before serving
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
        app = create_app(
            db,
            bot_delay=args.bot_delay,
            rate_limit=args.rate_limit,
            allowed_origins=tuple(args.allow_origin or ()),
        )
    except ValueError as exc:
        print(f"conquian serve: {exc}", file=sys.stderr)
        return 1
    host = args.host
    shown = f"[{host}]" if ":" in host else host
    print(f"Conquian is served at http://{shown}:{args.port}/ (open it in a browser)", flush=True)
    print(f"Games are stored in {shown_db}; Ctrl-C stops the server.", flush=True)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    config = uvicorn.Config(
        app,
        host=host,
        port=args.port,
        log_level="warning",
        ws="websockets-sansio",
        ws_max_size=max(MAX_MESSAGE * 16, 65536),
        ws_ping_interval=20,
        ws_per_message_deflate=False,  # small messages: compressing costs more than it saves
        server_header=False,
    )
    sock = config.bind_socket()
    # every connection gets a send buffer of a fixed size (inherited from the listening
    # socket) rather than one the kernel may grow to megabytes for a client that does not read
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    if not server.started:
        return 1
    return 0
