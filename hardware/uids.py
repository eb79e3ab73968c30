"""Tag uids as every reader reports them: upper-case hex, 4 to 10 bytes."""

from __future__ import annotations

import string

from hardware.errors import HardwareConfigError

__all__ = ["normalize_uid"]

_HEX_DIGITS = frozenset(string.hexdigits)
_UID_MIN_BYTES = 4  # ISO 14443 single-size UID (MIFARE Classic)
_UID_MAX_BYTES = 10  # ISO 14443 triple-size UID


def normalize_uid(text: str) -> str:
    """Return a tag uid as upper-case hex without separators, or raise ``HardwareConfigError``.

    Accepts 4 to 10 bytes written as an even number of hex digits, in either case.
    """
    uid = text.strip().upper()
    if not uid or any(ch not in _HEX_DIGITS for ch in uid):
        raise HardwareConfigError(f"tag uid {text!r} is not hexadecimal")
    if len(uid) % 2 or not _UID_MIN_BYTES * 2 <= len(uid) <= _UID_MAX_BYTES * 2:
        raise HardwareConfigError(
            f"tag uid {text!r} should be {_UID_MIN_BYTES} to {_UID_MAX_BYTES} bytes "
            f"({_UID_MIN_BYTES * 2} to {_UID_MAX_BYTES * 2} hex digits, an even count)"
        )
    return uid
