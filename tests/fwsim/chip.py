"""An MFRC522 emulated at register level, with ISO 14443-A tags that come and go.

It understands what ``firmware/mfrc522.py`` does over SPI: register reads
and writes, the FIFO, the Transceive command started by ``StartSend``, and
the timer. A tag in the field answers WUPA (also when halted), REQA (unless
halted), anticollision and SELECT on each cascade level (4, 7 and 10 byte
uids, with the cascade tag and BCC), and goes quiet after HLTA. When nothing
answers, the chip raises TimerIRq after the timeout the driver programmed
(datasheet 8.5: (2 * TPrescaler + 1) * (TReload + 1) / 13.56 MHz) and the
board's clock moves on by exactly that long, so a driver with a long timeout
really polls slowly here, as on a real board.

``field(uid_or_None)`` changes what is on the antenna; ``script`` (a list of
(at_ms, uid_or_None)) changes it as the clock passes those times.
"""

TYPE_CHECKING = False  # no ``typing`` on MicroPython; mypy takes the branch below as true
if TYPE_CHECKING:
    from tests.fwsim.world import SimClock

_COMMAND = 0x01
_COM_IRQ = 0x04
_ERROR = 0x06
_FIFO_DATA = 0x09
_FIFO_LEVEL = 0x0A
_BIT_FRAMING = 0x0D
_COLL = 0x0E
_T_MODE = 0x2A
_T_PRESCALER = 0x2B
_T_RELOAD_H = 0x2C
_T_RELOAD_L = 0x2D

_TRANSCEIVE = 0x0C
_SOFT_RESET = 0x0F

_IDLE_STATE = 0
_READY = 1
_HALT = 2

# ISO 14443-A at 106 kbit/s: a bit lasts 128 / fc = 9.44 us; a byte goes out as 9 bits (with
# parity), a frame adds start and end; a tag starts its answer 1236 / fc = 91 us after ours.
_BIT_NS = 9440
_FDT_US = 91


def air_us(n_bytes: int, last_bits: int = 0) -> int:
    """Microseconds on the air for a frame of ``n_bytes`` (or a short frame of ``last_bits``)."""
    bits = (last_bits if last_bits else 9 * n_bytes) + 2
    return bits * _BIT_NS // 1000


def crc_a(data: list[int]) -> int:
    crc = 0x6363
    for b in data:
        b = b ^ (crc & 0xFF)
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc


class Chip:
    """The emulated MFRC522 on the board's SPI bus."""

    def __init__(
        self, clock: "SimClock", script: list[tuple[int, str | None]] | None = None
    ) -> None:
        self.clock = clock
        self.regs = bytearray(64)
        self.fifo = []  # type: list[int]
        self.uid = None  # type: bytes | None  # bytes of the tag in the field, or None
        self.state = _IDLE_STATE
        self.script = list(script or [])
        self.transceives = 0
        self.timeouts = 0
        self.resets = 0

    # --- the field ------------------------------------------------------------------------

    def field(self, uid_hex: str | None) -> None:
        """Put the tag with this uid (hex) on the antenna, or take it away (None)."""
        uid = None if uid_hex is None else bytes.fromhex(uid_hex)
        if uid != self.uid:
            self.uid = uid
            self.state = _IDLE_STATE  # a tag entering the field powers up idle

    def _follow_script(self) -> None:
        now_ms = self.clock.now_us() // 1000
        while self.script and self.script[0][0] <= now_ms:
            self.field(self.script.pop(0)[1])

    # --- SPI --------------------------------------------------------------------------------

    def transfer(self, tx: bytes | bytearray, rx: bytearray | None) -> None:
        addr = tx[0]
        reg = (addr >> 1) & 0x3F
        if addr & 0x80:
            value = self._read(reg)
            if rx is not None:
                rx[0] = 0
                rx[1] = value
        else:
            self._write(reg, tx[1])

    def _read(self, reg: int) -> int:
        if reg == _FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == _FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def _write(self, reg: int, value: int) -> None:
        if reg == _FIFO_DATA:
            self.fifo.append(value)
        elif reg == _FIFO_LEVEL:
            if value & 0x80:
                self.fifo = []
        elif reg == _COM_IRQ:
            if value & 0x80:
                self.regs[_COM_IRQ] |= value & 0x7F
            else:
                self.regs[_COM_IRQ] &= ~value & 0x7F
        elif reg == _COMMAND:
            self.regs[_COMMAND] = value & 0x0F
            if value & 0x0F == _SOFT_RESET:
                self.resets += 1
                self.regs = bytearray(64)
                self.fifo = []
        elif reg == _BIT_FRAMING:
            self.regs[_BIT_FRAMING] = value
            if value & 0x80 and self.regs[_COMMAND] == _TRANSCEIVE:
                self._transceive(value & 0x07)
        else:
            self.regs[reg] = value

    # --- the radio ----------------------------------------------------------------------------

    def timeout_us(self) -> int:
        """The receive timeout the driver programmed, in microseconds."""
        prescaler = ((self.regs[_T_MODE] & 0x0F) << 8) | self.regs[_T_PRESCALER]
        reload = (self.regs[_T_RELOAD_H] << 8) | self.regs[_T_RELOAD_L]
        return (2 * prescaler + 1) * (reload + 1) * 1000 // 13560

    def _transceive(self, last_bits: int) -> None:
        self.transceives += 1
        self._follow_script()
        frame = self.fifo
        self.fifo = []
        answer = self._answer(frame, last_bits)
        self.regs[_ERROR] = 0
        sent_us = air_us(len(frame), last_bits if len(frame) == 1 else 0)
        if answer is None:
            # The timer starts when our frame has gone out (TAuto) and runs out unanswered.
            self.timeouts += 1
            self.clock.advance_us(sent_us + self.timeout_us())
            self.regs[_COM_IRQ] |= 0x01  # TimerIRq
            return
        self.clock.advance_us(sent_us + _FDT_US + air_us(len(answer)))
        self.fifo = list(answer)
        self.regs[_COM_IRQ] |= 0x30  # RxIRq | IdleIRq

    def _cascade(self, level: int) -> tuple[bytes, bool]:
        """The 4 bytes the tag sends at cascade ``level`` (0..2), and whether its uid goes on."""
        uid = self.uid
        assert uid is not None  # only asked while a tag is in the field
        if len(uid) == 4:
            return uid, False
        if len(uid) == 7:
            return (b"\x88" + uid[0:3], True) if level == 0 else (uid[3:7], False)
        if level == 0:
            return b"\x88" + uid[0:3], True
        if level == 1:
            return b"\x88" + uid[3:6], True
        return uid[6:10], False

    def _answer(self, frame: list[int], last_bits: int) -> bytes | None:
        if self.uid is None or not frame:
            return None
        cmd = frame[0]
        if last_bits == 7 and len(frame) == 1:
            if cmd == 0x52 or (cmd == 0x26 and self.state != _HALT):  # WUPA, REQA
                self.state = _READY
                return b"\x44\x00" if len(self.uid) == 7 else b"\x04\x00"
            return None
        if self.state == _HALT:
            return None
        if cmd == 0x50 and len(frame) == 4:  # HLTA: no answer
            self.state = _HALT
            return None
        if cmd in (0x93, 0x95, 0x97) and self.state == _READY:
            level = (cmd - 0x93) // 2
            part, more = self._cascade(level)
            if len(frame) == 2 and frame[1] == 0x20:  # anticollision
                bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
                return part + bytes([bcc])
            if len(frame) == 9 and frame[1] == 0x70:  # select
                if bytes(frame[2:6]) != part or crc_a(frame[:7]) != frame[7] | (frame[8] << 8):
                    return None
                sak = 0x04 if more else 0x08
                crc = crc_a([sak])
                return bytes([sak, crc & 0xFF, crc >> 8])
        return None
