"""The café hub: one process that collects every table's state, records and alerts.

It subscribes to the café's MQTT broker (``controller.fleet.topics``), checks
every message at the edge (``hub.messages``), keeps tables, games, records,
alerts and leaderboards in a database (``hub.storage``: SQLite by default or
PostgreSQL, its schema kept by Alembic migrations in ``hub/migrations``), and
serves the staff dashboard (``hub.web``, FastAPI). Run it with ``cafe-table
hub run --config hub.toml``; ``cafe-table hub setup`` writes the broker's
configuration, passwords and ACL (``hub.broker``).
"""
