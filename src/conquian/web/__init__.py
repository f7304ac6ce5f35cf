"""Play Conquian in the browser: ``conquian serve`` (needs the ``web`` extra).

The server holds every game and stores it in a database (SQLite by default);
browsers only ever receive the observation of their own seat.  See
:mod:`conquian.web.app` for the routes and messages and
:mod:`conquian.web.store` for the tables.
"""
