"""Reporting what a reader sent wrongly, shared by the serial protocols."""

from __future__ import annotations

__all__ = ["show_bytes"]


def show_bytes(raw: bytes, limit: int = 24) -> str:
    """A short printable rendering of bad bytes for a message (the first ``limit`` bytes)."""
    shown = repr(bytes(raw[:limit]))
    return shown + ("..." if len(raw) > limit else "")
