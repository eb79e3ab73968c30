"""The staff PIN: entered as a sequence of seat buttons, stored only as a scrypt hash.

A staff tag is only a UID, and a UID is not a secret: a "magic" card or a
T5577 tag clones it in seconds. The PIN is what a cloned tag does not carry.
It is a sequence of 4 to 12 presses of a seat's PREV / OK / NEXT buttons,
written ``P`` / ``O`` / ``N`` (e.g. ``PNNOPN``). ``table.toml`` holds only
``[staff] pin_hash = "scrypt$..."`` (written by ``cafe-table staff set-pin``);
the hash names the PIN's length, so the table knows when the last press came.

``PinGuard`` counts wrong entries: after ``tries`` wrong ones in a row the PIN
is locked for ``lockout`` seconds, and every wrong entry and lock is reported
to a callback (the table journals it).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.games.base import TableError
from controller.games.words import Verbatim, say
from controller.view import Button

PREFIX = "scrypt"
MIN_PRESSES, MAX_PRESSES = 4, 12
SYMBOLS: dict[Button, str] = {Button.PREV: "P", Button.OK: "O", Button.NEXT: "N"}
# scrypt cost: about 50 ms on a Raspberry Pi 4, too slow to try all 3^12 sequences offline quickly.
_N, _R, _P = 2**14, 8, 1


class PinError(TableError, ValueError):
    """A PIN or a stored hash that cannot be used; the message says what to write instead."""


def parse_pin(text: str) -> str:
    """A PIN typed as letters (``PNNO``) or button names (``prev next next ok``), as letters."""
    words = text.replace(",", " ").split()
    if len(words) > 1:
        unknown = [w for w in words if w.lower() not in SYMBOLS]
        if unknown:
            raise PinError(
                say(
                    "{word} is not a seat button; use prev, ok and next",
                    word=Verbatim(repr(unknown[0])),
                )
            )
        letters = "".join(SYMBOLS[Button(w.lower())] for w in words)
    else:
        letters = text.strip().upper()
        bad = sorted({c for c in letters if c not in "PON"})
        if bad:
            raise PinError(
                say(
                    "a PIN is a sequence of seat buttons: P (prev), O (ok), N (next); not {letter}",
                    letter=Verbatim(repr(bad[0])),
                )
            )
    if not MIN_PRESSES <= len(letters) <= MAX_PRESSES:
        raise PinError(
            say(
                "a PIN has {low} to {high} button presses, not {count}",
                low=MIN_PRESSES,
                high=MAX_PRESSES,
                count=len(letters),
            )
        )
    return letters


def _digest(letters: str, salt: bytes) -> bytes:
    return hashlib.scrypt(letters.encode("ascii"), salt=salt, n=_N, r=_R, p=_P, dklen=32)


def hash_pin(letters: str) -> str:
    """The stored form of a PIN: ``scrypt$<presses>$<salt hex>$<hash hex>``."""
    letters = parse_pin(letters)
    salt = secrets.token_bytes(16)
    return f"{PREFIX}${len(letters)}${salt.hex()}${_digest(letters, salt).hex()}"


@dataclass(frozen=True)
class PinHash:
    """A checked ``pin_hash`` value."""

    presses: int
    salt: bytes
    digest: bytes

    @classmethod
    def parse(cls, text: str) -> PinHash:
        parts = text.split("$")
        try:
            if len(parts) != 4 or parts[0] != PREFIX:
                raise ValueError
            presses = int(parts[1])
            salt, digest = bytes.fromhex(parts[2]), bytes.fromhex(parts[3])
        except ValueError:
            raise PinError(
                say("pin_hash is not a stored PIN; write it with: cafe-table staff set-pin")
            ) from None
        if not MIN_PRESSES <= presses <= MAX_PRESSES or len(digest) != 32 or not salt:
            raise PinError(
                say("pin_hash is damaged; write it again with: cafe-table staff set-pin")
            )
        return cls(presses, salt, digest)

    def matches(self, letters: str) -> bool:
        return len(letters) == self.presses and hmac.compare_digest(
            _digest(letters, self.salt), self.digest
        )


@dataclass
class PinGuard:
    """Checks PIN entries; locks after ``tries`` wrong ones in a row for ``lockout`` seconds."""

    pin: PinHash
    clock: Callable[[], float]
    tries: int = 3
    lockout: float = 300.0
    report: Callable[[str, dict[str, object]], None] | None = None  # (event, detail): journaled
    wrong: int = 0
    locked_until: float = 0.0
    _entry: list[str] = field(default_factory=list)

    def locked_for(self) -> float:
        """Seconds the PIN stays locked (0 when it is not)."""
        return max(0.0, self.locked_until - self.clock())

    def start(self) -> None:
        """Forget a half-entered PIN."""
        self._entry = []

    @property
    def entered(self) -> int:
        return len(self._entry)

    def press(self, button: Button, seat: int) -> bool | None:
        """One press of a PIN entry: None while more are due, then whether the PIN was right."""
        self._entry.append(SYMBOLS[button])
        if len(self._entry) < self.pin.presses:
            return None
        letters, self._entry = "".join(self._entry), []
        if self.locked_for() > 0:
            return False
        if self.pin.matches(letters):
            self.wrong = 0
            return True
        self.wrong += 1
        if self.report is not None:
            self.report("staff-pin-wrong", {"seat": seat, "wrong": self.wrong})
        if self.wrong >= self.tries:
            self.wrong = 0
            self.locked_until = self.clock() + self.lockout
            if self.report is not None:
                self.report("staff-pin-locked", {"seat": seat, "seconds": self.lockout})
        return False
