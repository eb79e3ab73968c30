"""Oss's record verbs, in a module of their own.

The spec words the prompts of two of them (``VOCABULARY``'s ``verb_prompts``) and
is read at every start-up; the actions and events beside the verbs (``actions``,
some thirty dataclasses) are the rules', imported when a game of Oss is played.
"""

from __future__ import annotations

from enum import StrEnum


class Verb(StrEnum):
    """The record verbs of Oss (``docs/oss-records.md``); a ``StrEnum``, so they are their JSON."""

    HAND = "hand"
    DRAW = "draw"
    REVEAL = "reveal"
    TRIBE = "tribe"
    RESULT = "result"
    COUNTS = "counts"
    COUNT = "count"
    TIMED = "timed"
    REPLAY = "replay"
    PASS = "pass"
    KEEP = "keep"
    CHALLENGE = "challenge"
