"""The ``cafe-table`` command line: one module per group of subcommands.

``main`` parses the arguments and dispatches; ``doctor``, ``assign``,
``journal``, ``staff`` and ``tags`` are the subcommands of those names;
``commands`` and ``terminal_words`` are what they share.
"""
