"""``conquian serve``: run the web server with uvicorn."""

from __future__ import annotations

import argparse
import logging
import sys

import uvicorn
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from .app import MAX_MESSAGE, create_app
from .store import Store, default_db_url


def serve(args: argparse.Namespace) -> int:
    """Start the server and print the address to open; returns when it stops."""
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
    app = create_app(db, bot_delay=args.bot_delay)
    host = args.host
    shown = f"[{host}]" if ":" in host else host
    print(f"Conquian is served at http://{shown}:{args.port}/ (open it in a browser)", flush=True)
    print(f"Games are stored in {shown_db}; Ctrl-C stops the server.", flush=True)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    uvicorn.run(
        app,
        host=host,
        port=args.port,
        log_level="warning",
        ws="websockets-sansio",
        ws_max_size=max(MAX_MESSAGE * 16, 65536),
        ws_ping_interval=20,
        ws_per_message_deflate=False,  # small messages: compressing costs more than it saves
    )
    return 0
