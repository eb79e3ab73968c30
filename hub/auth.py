"""Staff and owner logins: memory-hard password hashes, sessions, CSRF tokens, rate limits.

Passwords are hashed with scrypt (``hashlib.scrypt``, memory-hard: 16 MiB per
hash with n=2**14, r=8), salted, and compared in constant time. A login for a
name that does not exist costs the same scrypt (against ``dummy_hash``), so
the answer's time does not tell which names exist.

Sessions live on the server (``hub.storage``): the browser's cookie holds a
random token, the database only its HMAC under the hub's secret
(``session_key``), so a copy of the database opens no session. Logging out,
or a change of the user's password or role, ends them. A session carries a
random CSRF token that every form posts back.

Failed logins are counted per user name (``USER_ATTEMPTS``) and, more
loosely, per client address (``ADDRESS_ATTEMPTS``: a café's counter is one
address for every member of staff) in a sliding window; past a limit the
login answers "too many tries, wait" without checking the password.
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
USER_ATTEMPTS = 5  # failed logins per user name in the window
ADDRESS_ATTEMPTS = 20  # failed logins per client address in the window
_dummy: list[str] = []


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


def dummy_hash() -> str:
    """A hash of no one's password, checked for unknown names so they cost the same time."""
    if not _dummy:
        _dummy.append(hash_password(secrets.token_urlsafe(16)))
    return _dummy[0]


def session_key(secret: str, token: str) -> str:
    """What the database keeps of a session token: its HMAC-SHA256 under the hub's secret."""
    return hmac.new(secret.encode(), token.encode(), hashlib.sha256).hexdigest()


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
