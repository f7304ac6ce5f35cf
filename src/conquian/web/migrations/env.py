"""Alembic's environment: the migrations run on the connection :mod:`conquian.web.upgrade`
hands over (inside its transaction, under the lock that guards the schema)."""

from alembic import context

from conquian.web.schema import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters a table by copying it
)
with context.begin_transaction():
    context.run_migrations()
