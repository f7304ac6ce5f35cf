"""The migrations of the database of web matches, run by Alembic (:mod:`conquian.web.upgrade`)."""
