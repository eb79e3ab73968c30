"""The table's side of a café of many tables: state, events and records to an MQTT broker.

A table whose ``table.toml`` has a ``[cafe]`` section publishes to the café's
broker (Mosquitto): a retained ``status`` with a last will, a retained
``state`` on change, ``event`` and ``alert`` messages, and every finished
game's record through an outbox kept in the journal, so a record reaches the
hub exactly once through broker, Wi-Fi and hub outages. Without ``[cafe]``
nothing here is imported and no network code runs.

The table loop never waits on the network: it hands messages to ``FleetLink``
through a queue; one thread of its own owns the MQTT client (paho-mqtt 2.x).
"""
