"""Staff and owner logins: memory-hard password hashes, CSRF tokens, a login rate limit.

Passwords are hashed with scrypt (``hashlib.scrypt``, memory-hard: 16 MiB per
hash with n=2**14, r=8), salted, and compared in constant time. A session
carries a random CSRF token that every form posts back. Failed logins are
counted per client address and per user name in a sliding window; past the
limit the login answers "too many tries, wait" without checking the password.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable

N, R, P, DKLEN = 2**14, 8, 1, 32
ROLES = ("staff", "owner")


def hash_password(password: str) -> str:
    """``scrypt$n$r$p$salt$hash`` (base64), for the users table."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=N, r=R, p=P, dklen=DKLEN)
    return "$".join(["scrypt", str(N), str(R), str(P), _b64(salt), _b64(digest)])


def verify_password(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest)
        actual = hashlib.scrypt(
            password.encode(),
            salt=base64.b64decode(salt),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(expected),
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, expected)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def tokens_match(given: str | None, expected: str | None) -> bool:
    return bool(given) and bool(expected) and hmac.compare_digest(str(given), str(expected))


class LoginLimiter:
    """At most ``attempts`` failed logins per key in ``window`` seconds."""

    def __init__(
        self, attempts: int = 5, window: float = 300.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.attempts = attempts
        self.window = window
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def blocked(self, *keys: str) -> bool:
        now = self.clock()
        with self._lock:
            return any(len(self._recent(key, now)) >= self.attempts for key in keys)

    def failed(self, *keys: str) -> None:
        now = self.clock()
        with self._lock:
            for key in keys:
                self._recent(key, now).append(now)

    def succeeded(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                self._failures.pop(key, None)

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures.setdefault(key, deque())
        while times and now - times[0] > self.window:
            times.popleft()
        return times


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()
