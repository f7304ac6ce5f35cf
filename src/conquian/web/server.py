"""``conquian serve``: run the web server with uvicorn."""

from __future__ import annotations

import argparse
import logging

import uvicorn

from .app import MAX_MESSAGE, create_app
from .store import default_db_url


def serve(args: argparse.Namespace) -> int:
    """Start the server and print the address to open; returns when it stops."""
    db = args.db or default_db_url()
    app = create_app(db, bot_delay=args.bot_delay)
    host = args.host
    shown = f"[{host}]" if ":" in host else host
    print(f"Conquian is served at http://{shown}:{args.port}/ (open it in a browser)", flush=True)
    print(f"Games are stored in {db}; Ctrl-C stops the server.", flush=True)
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
