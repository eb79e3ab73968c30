"""A table's configuration: ``table.toml`` read, checked and typed.

``table_config`` reads every section a table has; ``cafe`` reads the
``[cafe]`` section that joins a table to a café's broker.
"""
