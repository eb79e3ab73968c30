"""The table's controller: engines, table state machine, records, journal and app."""
