"""Alembic's environment for the hub's database (``hub/migrations``).

The hub runs the migrations itself when it opens its database
(``hub.storage.migrate``), handing its own connection over in
``config.attributes["connection"]``. A developer can also run Alembic by hand
with ``-x url=...``: ``alembic -c hub/migrations/alembic.ini -x url=sqlite:///hub.sqlite3
upgrade head`` (or ``revision --autogenerate -m "..."`` for a new migration).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from hub.storage import engine_url, metadata

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise SystemExit("give the database: alembic ... -x url=sqlite:///hub.sqlite3 ...")
    engine = sa.create_engine(engine_url(url))
    with engine.begin() as connection:
        _migrate(connection)


def _migrate(connection: sa.Connection) -> None:
    # Batch mode lets SQLite, which alters little in place, take column changes too.
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


run()
