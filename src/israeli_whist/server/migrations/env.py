"""Alembic's entry point for the server's database (see ``israeli_whist.server.db.migrate``)."""

from __future__ import annotations

from alembic import context

from israeli_whist.server.db import make_engine, metadata

config = context.config
url = config.get_main_option("sqlalchemy.url")
assert url is not None, "migrate() sets the database URL"

if context.is_offline_mode():
    context.configure(url=url, target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    engine = make_engine(url)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()
