"""Text for one-line messages: values a user wrote, shown so they cannot break the line.

Every refusal the table prints is exactly one line (a record's ``line N: ...``
above all). A value quoted in it may hold a newline, a carriage return, a
Unicode line or paragraph separator (U+2028, U+2029, U+0085) or other control
characters; printed raw, those would start a second, possibly forged, line.
``one_line`` writes every such character as its Python escape instead.
"""

from __future__ import annotations


def one_line(text: str) -> str:
    """``text`` with every character that is not printable written as an escape (``\\n``)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def shorten(text: str, limit: int = 60) -> str:
    """At most ``limit`` characters of ``text``, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"
