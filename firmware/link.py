"""The seat reader link: framing and the board's side of the protocol.

Pure Python that runs both on the reader board (MicroPython) and under
CPython, where the host (``hardware/link_reader.py``) shares the codec and the
tests run the board's own state machine. No I/O, no clock: time comes in as
``now_ms`` arguments, bytes go in through ``receive()`` and come out of
``poll()``. Written for MicroPython: ``const()``, no ``typing`` import at run
time (variable types are type comments), the event queue is a ring of slots
allocated once.

A frame is one ASCII line (see docs/reader-link.md for the full spec)::

    $<type> <seq> [<payload>]*<crc>\\n

``crc`` is CRC-32 (IEEE, as zlib) of the text between ``$`` and ``*``, as 8
upper-case hex digits. ``seq`` is a decimal in 0..65535 that wraps. A frame is
at most ``MAX_FRAME`` bytes without its newline. Types:

board -> host
    ``H`` hello: seq = oldest unacknowledged event (or the next seq);
          payload ``cafe-reader/<version> board=<id> boot=<8 hex>``
    ``P`` card placed: payload = the tag uid (8..20 hex digits)
    ``G`` card gone: payload = the uid that was taken away
    ``B`` heartbeat: seq = next seq; payload ``drop=<n>`` (events lost to a full queue)
host -> board
    ``A`` acknowledge every event up to and including seq; payload = the board's boot id
    ``Q`` ask for a hello (the host just opened the port); seq 0, no payload

Events (``P``/``G``) are queued with consecutive seq numbers and sent until the
host acknowledges them (go-back-N: at most ``window`` in flight, all resent
after ``retransmit_ms`` without progress). The host accepts only the next seq
it expects, so a retransmitted event is never delivered twice.
"""

try:
    from micropython import const
except ImportError:  # CPython: const is only a hint to MicroPython's compiler
    from typing import TypeVar

    _T = TypeVar("_T")

    def const(x: _T) -> _T:
        """Return ``x``; on MicroPython the compiler folds it into a constant."""
        return x


try:
    from binascii import crc32 as _crc32
except ImportError:  # pragma: no cover - a MicroPython build without binascii.crc32
    _crc32 = None  # type: ignore[assignment]

__all__ = [
    "ACK",
    "BEAT",
    "GONE",
    "HELLO",
    "MAX_FRAME",
    "PLACED",
    "QUERY",
    "SEQ_MOD",
    "VERSION",
    "Link",
    "Splitter",
    "const",
    "crc",
    "crc32_pure",
    "decode",
    "encode",
    "is_uid",
    "seq_after",
]

VERSION = "1.0"
MAX_FRAME = const(80)
SEQ_MOD = const(65536)
HALF_SEQ = const(32768)

HELLO = "H"
PLACED = "P"
GONE = "G"
BEAT = "B"
ACK = "A"
QUERY = "Q"
BOARD_KINDS = "HPGB"
HOST_KINDS = "AQ"

_HEX = "0123456789ABCDEF"
_UID_MIN = const(8)  # hex digits: 4 bytes
_UID_MAX = const(20)  # hex digits: 10 bytes


def crc32_pure(data: bytes, crc: int = 0) -> int:
    """CRC-32 (IEEE 802.3, reflected, as zlib.crc32) without a table, for boards lacking it."""
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def crc(data: bytes) -> int:
    """CRC-32 of ``data``, using binascii's C version when the platform has one."""
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    return crc32_pure(data)  # pragma: no cover


def seq_after(a: int, b: int) -> bool:
    """Whether seq ``a`` comes after seq ``b`` on the wrapping 16-bit circle."""
    return 0 < (a - b) % SEQ_MOD < HALF_SEQ


def is_uid(text: str) -> bool:
    """Whether ``text`` is a tag uid as the link writes it: 8..20 upper-case hex digits, even."""
    n = len(text)
    if n < _UID_MIN or n > _UID_MAX or n % 2:
        return False
    return all(ch in _HEX for ch in text)


def encode(kind: str, seq: int, payload: str = "") -> bytes:
    """One frame as bytes, newline included. Raises ``ValueError`` if it would be too long."""
    body = kind + " " + str(seq % SEQ_MOD)
    if payload:
        body = body + " " + payload
    raw = body.encode()
    line = b"$" + raw + b"*" + f"{crc(raw):08X}".encode()
    if len(line) > MAX_FRAME:
        raise ValueError(f"frame longer than {MAX_FRAME} bytes")
    return line + b"\n"


def decode(line: bytes) -> tuple[str, int, str]:
    """Parse one line (without ``\\n``; a trailing ``\\r`` is allowed) into (type, seq, payload).

    Raises ``ValueError`` with a short reason for anything that is not a
    well-formed frame with a matching CRC and a payload valid for its type.
    """
    if line.endswith(b"\r"):
        line = line[:-1]
    n = len(line)
    if n > MAX_FRAME:
        raise ValueError(f"longer than {MAX_FRAME} bytes")
    if n < 13 or line[0] != 0x24 or line[n - 9] != 0x2A:  # '$' ... '*' + 8 hex
        raise ValueError("not a frame")
    body = line[1 : n - 9]
    for byte in body:
        if byte < 0x20 or byte > 0x7E:
            raise ValueError("control or non-ASCII bytes")
    try:
        text_crc = line[n - 8 :].decode()
    except UnicodeError:
        raise ValueError("bad CRC digits") from None
    for ch in text_crc:
        if ch not in _HEX:
            raise ValueError("bad CRC digits")
    if int(text_crc, 16) != crc(body):
        raise ValueError("CRC mismatch")
    parts = body.decode().split(" ", 2)
    kind = parts[0]
    if len(kind) != 1 or (kind not in BOARD_KINDS and kind not in HOST_KINDS):
        raise ValueError("unknown type")
    if len(parts) < 2 or not parts[1] or len(parts[1]) > 5:
        raise ValueError("bad seq")
    for ch in parts[1]:
        if ch < "0" or ch > "9":
            raise ValueError("bad seq")
    seq = int(parts[1])
    if seq >= SEQ_MOD:
        raise ValueError("bad seq")
    payload = parts[2] if len(parts) > 2 else ""
    if kind in (PLACED, GONE) and not is_uid(payload):
        raise ValueError("bad uid")
    if kind == QUERY and payload:
        raise ValueError("unexpected payload")
    return kind, seq, payload


class Splitter:
    """Cuts a byte stream, split at any point, into candidate frame lines.

    A line starts at ``$`` and ends at ``\\n``; a ``$`` inside a line starts
    over (a frame is never split by noise it follows). Bytes outside a frame
    and lines longer than ``max_len`` are dropped and counted in ``junk``, so
    line noise cannot make the buffer grow. The buffer is allocated once.
    """

    def __init__(self, max_len: int = MAX_FRAME) -> None:
        self._buf = bytearray(max_len + 1)  # +1 for a '\r' before the '\n'
        self._len = 0
        self._in_frame = False
        self._overflow = False
        self.junk = 0

    def feed(self, chunk: bytes) -> list[bytes]:
        """Take the next bytes; return the complete lines (without ``\\n``) they end."""
        lines = []  # type: list[bytes]
        buf = self._buf
        cap = len(buf)
        for byte in chunk:
            if byte == 0x24:  # '$'
                if (self._in_frame and self._len > 0) or self._overflow:
                    self.junk += 1
                buf[0] = byte
                self._len = 1
                self._in_frame = True
                self._overflow = False
            elif byte == 0x0A:  # '\n'
                if self._in_frame:
                    lines.append(bytes(buf[: self._len]))
                elif self._overflow:
                    self.junk += 1
                self._in_frame = False
                self._overflow = False
                self._len = 0
            elif self._in_frame:
                if self._len < cap:
                    buf[self._len] = byte
                    self._len += 1
                else:
                    self._in_frame = False
                    self._overflow = True
            elif not self._overflow and byte not in (0x0D, 0x20):
                # Noise between frames: count it once per run of noise.
                self._overflow = True
        return lines

    def reset(self) -> None:
        """Forget any unfinished line."""
        self._len = 0
        self._in_frame = False
        self._overflow = False


class Link:
    """The board's side of the link: a queue of events sent until acknowledged.

    ``push(kind, uid)`` queues a card event; ``receive(data)`` takes bytes from
    the host (acknowledgements, hello requests); ``poll(now_ms)`` returns the
    frames to write now: a hello when due, new or retransmitted events, and a
    heartbeat every ``heartbeat_ms``. ``now_ms`` only has to increase (it may
    be ``time.ticks_ms()`` unwrapped or a test's counter).

    The queue holds ``capacity`` events; if the host stays away long enough
    for it to fill, further events are dropped and counted in ``dropped``
    (reported in every heartbeat), never silently.
    """

    def __init__(
        self,
        board_id: str,
        boot_id: str,
        *,
        capacity: int = 64,
        window: int = 8,
        retransmit_ms: int = 250,
        heartbeat_ms: int = 1000,
        version: str = VERSION,
    ) -> None:
        self.board_id = board_id
        self.boot_id = boot_id
        self.version = version
        self._capacity = capacity
        self._window = window
        self._retransmit_ms = retransmit_ms
        self._heartbeat_ms = heartbeat_ms
        # The ring of queued events, allocated once.
        self._kinds = [""] * capacity  # type: list[str]
        self._uids = [""] * capacity  # type: list[str]
        self._seqs = [0] * capacity  # type: list[int]
        self._head = 0  # index of the oldest unacknowledged event
        self._count = 0  # events queued (acknowledged ones are gone)
        self._inflight = 0  # events from the head sent since the last (re)transmission
        self._next_seq = 0
        self._progress_ms = -1  # last send or acknowledgement; -1: nothing yet
        self._beat_ms = -1
        self._hello_due = True  # a hello goes out at boot
        self._rx = Splitter(MAX_FRAME)
        self.dropped = 0
        self.acked = 0

    @property
    def queued(self) -> int:
        """Events waiting for the host's acknowledgement."""
        return self._count

    @property
    def oldest_seq(self) -> int:
        """The seq of the oldest unacknowledged event, or the next seq if none."""
        if self._count:
            return self._seqs[self._head]
        return self._next_seq

    def push(self, kind: str, uid: str) -> bool:
        """Queue a ``PLACED`` or ``GONE`` event; False (and counted in ``dropped``) if full."""
        if self._count >= self._capacity:
            self.dropped += 1
            return False
        slot = (self._head + self._count) % self._capacity
        self._kinds[slot] = kind
        self._uids[slot] = uid
        self._seqs[slot] = self._next_seq
        self._next_seq = (self._next_seq + 1) % SEQ_MOD
        self._count += 1
        return True

    def receive(self, data: bytes) -> None:
        """Take bytes from the host; bad frames are ignored (the host will ask again)."""
        for line in self._rx.feed(data):
            try:
                kind, seq, payload = decode(line)
            except ValueError:
                continue
            if kind == ACK and payload == self.boot_id:
                self._acknowledge(seq)
            elif kind == QUERY:
                # The host (re)opened the port: say hello and resend at once.
                self._hello_due = True
                self._inflight = 0

    def _acknowledge(self, seq: int) -> None:
        """Drop every in-flight event up to and including ``seq``."""
        progressed = False
        while self._inflight > 0 and not seq_after(self._seqs[self._head], seq):
            self._head = (self._head + 1) % self._capacity
            self._count -= 1
            self._inflight -= 1
            self.acked += 1
            progressed = True
        if progressed:
            self._progress_ms = -2  # restart the retransmission timer at the next poll

    def poll(self, now_ms: int) -> list[bytes]:
        """The frames to write now, in order."""
        out = []  # type: list[bytes]
        if self._progress_ms == -2:
            self._progress_ms = now_ms
        if self._hello_due:
            self._hello_due = False
            payload = f"cafe-reader/{self.version} board={self.board_id} boot={self.boot_id}"
            out.append(encode(HELLO, self.oldest_seq, payload))
        if self._inflight > 0 and now_ms - self._progress_ms >= self._retransmit_ms:
            self._inflight = 0  # go back N: resend everything unacknowledged
        limit = self._count if self._count < self._window else self._window
        while self._inflight < limit:
            slot = (self._head + self._inflight) % self._capacity
            out.append(encode(self._kinds[slot], self._seqs[slot], self._uids[slot]))
            self._inflight += 1
            self._progress_ms = now_ms
        if self._beat_ms < 0 or now_ms - self._beat_ms >= self._heartbeat_ms:
            self._beat_ms = now_ms
            out.append(encode(BEAT, self._next_seq, f"drop={self.dropped}"))
        return out
