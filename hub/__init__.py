"""The café hub: one process that collects every table's state, records and alerts.

It subscribes to the café's MQTT broker (``controller.fleet.topics``), keeps
tables, games, records, alerts and leaderboards in a database
(``hub.storage``: SQLite by default, any SQLAlchemy URL such as PostgreSQL
instead), and serves the staff dashboard (``hub.web``, FastAPI). Run it with
``cafe-table hub run --config hub.toml``; ``cafe-table hub setup`` writes the
broker's configuration, passwords and ACL.
"""
