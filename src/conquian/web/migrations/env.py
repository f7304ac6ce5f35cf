"""Alembic's environment: the migrations run on the connection :mod:`conquian.web.upgrade`
hands over (inside its transaction, under the lock that guards the schema)."""

from alembic import context

from conquian.web.schema import metadata


def run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters by copying a table
    )
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:  # run by Alembic, not merely imported
    run()
