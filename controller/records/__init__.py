"""Everything a finished or running game leaves behind, and reading it back.

``record`` is the game record format and its replay (a contract: see the
spec); ``files`` names and writes record files; ``journal`` is the crash-safe
log a game resumes from; ``history`` lists past games; ``scoresheet`` turns a
record into the score sheet a person reads; ``durable`` tells whether the
journal's folder survives a power cut.
"""
