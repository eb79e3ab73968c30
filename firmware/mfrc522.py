"""A minimal MFRC522 driver for the seat reader board (MicroPython, SPI).

Just enough ISO 14443-A to read a tag's uid: wake-up (WUPA), anticollision
and select through up to three cascade levels (4, 7 or 10 byte uids), then
halt, so that a card held still answers the next poll's wake-up again
instead of flickering. Buffers are allocated once in the constructor; nothing
is allocated per poll except the uid string that is returned.

It needs an SPI bus and two pins (chip select, reset) from ``machine``; it
imports nothing from ``machine`` itself, so it can be handed fakes.
"""

from firmware.board import Reader
from firmware.link import const

# Registers (datasheet section 9).
_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)

# Commands.
_IDLE = const(0x00)
_TRANSCEIVE = const(0x0C)
_SOFT_RESET = const(0x0F)

# ISO 14443-A.
_WUPA = const(0x52)
_HLTA = const(0x50)
_SEL = (0x93, 0x95, 0x97)
_CASCADE_TAG = const(0x88)

_WAIT_LOOPS = const(2000)

# The receive timeout. The timer counts at 13.56 MHz / (2 * TPrescaler + 1) and
# times out after TReload + 1 counts (datasheet 8.5: t = (2 * TPrescaler + 1) *
# (TReload + 1) / 13.56 MHz). TPrescaler 169 gives 40 kHz (25 us a count); a
# reload of 39 gives 40 counts: 1.0 ms. With TAuto the timer starts at the end
# of our frame and stops when the tag's answer begins, and an ISO 14443-A tag
# must begin its answer to WUPA, anticollision and SELECT within 1236 / fc
# (91 us, ISO/IEC 14443-3 6.2.1.1): 1 ms is ten times that. (The common 25 ms,
# reload 999, is meant for MIFARE writes, which this reader never does; it made
# every poll without a card, and every halt, wait 25 ms.)
_T_PRESCALER_VALUE = const(169)
_T_RELOAD_VALUE = const(39)
TIMEOUT_US = (2 * _T_PRESCALER_VALUE + 1) * (_T_RELOAD_VALUE + 1) * 1000 // 13560
"""The chip's receive timeout in microseconds (1000)."""


def crc_a(data: bytes | bytearray, n: int) -> int:
    """ISO 14443-A CRC of the first ``n`` bytes (sent low byte first)."""
    crc = 0x6363
    for i in range(n):
        b = data[i] ^ (crc & 0xFF)
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc


class MFRC522(Reader):
    """An MFRC522 on an SPI bus; ``read_uid()`` returns the uid in the field or ``None``."""

    def __init__(self, spi: object, cs: object, rst: object) -> None:
        self._spi = spi
        self._cs = cs
        self._rst = rst
        self._tx = bytearray(2)
        self._rx = bytearray(2)
        self._frame = bytearray(9)  # longest frame we send: SELECT with CRC
        self._back = bytearray(16)
        self._uid = bytearray(10)
        self.init()

    # --- registers ---------------------------------------------------------------

    def _write(self, reg: int, value: int) -> None:
        self._tx[0] = (reg << 1) & 0x7E
        self._tx[1] = value
        self._cs.value(0)  # type: ignore[attr-defined]
        self._spi.write(self._tx)  # type: ignore[attr-defined]
        self._cs.value(1)  # type: ignore[attr-defined]

    def _read(self, reg: int) -> int:
        self._tx[0] = ((reg << 1) & 0x7E) | 0x80
        self._tx[1] = 0
        self._cs.value(0)  # type: ignore[attr-defined]
        self._spi.write_readinto(self._tx, self._rx)  # type: ignore[attr-defined]
        self._cs.value(1)  # type: ignore[attr-defined]
        return int(self._rx[1])

    def _set_bits(self, reg: int, mask: int) -> None:
        self._write(reg, self._read(reg) | mask)

    def _clear_bits(self, reg: int, mask: int) -> None:
        self._write(reg, self._read(reg) & (~mask & 0xFF))

    def init(self) -> None:
        """Reset the chip and switch the antenna on (a 1 ms receive timeout: ``TIMEOUT_US``)."""
        self._rst.value(1)  # type: ignore[attr-defined]
        self._write(_COMMAND, _SOFT_RESET)
        self._write(_T_MODE, 0x80 | (_T_PRESCALER_VALUE >> 8))  # TAuto, prescaler bits 11..8
        self._write(_T_PRESCALER, _T_PRESCALER_VALUE & 0xFF)
        self._write(_T_RELOAD_H, _T_RELOAD_VALUE >> 8)
        self._write(_T_RELOAD_L, _T_RELOAD_VALUE & 0xFF)
        self._write(_TX_ASK, 0x40)  # 100% ASK modulation
        self._write(_MODE, 0x3D)  # CRC preset 0x6363
        self._set_bits(_TX_CONTROL, 0x03)  # antenna on

    # --- ISO 14443-A ---------------------------------------------------------------

    def _transceive(self, n: int, last_bits: int = 0) -> int:
        """Send ``n`` bytes of ``_frame``; return the number of bytes back in ``_back``, or -1."""
        self._write(_COMMAND, _IDLE)
        self._write(_COM_IRQ, 0x7F)
        self._write(_FIFO_LEVEL, 0x80)
        for i in range(n):
            self._write(_FIFO_DATA, self._frame[i])
        self._write(_COMMAND, _TRANSCEIVE)
        self._write(_BIT_FRAMING, 0x80 | last_bits)  # StartSend
        irq = 0
        for _ in range(_WAIT_LOOPS):
            irq = self._read(_COM_IRQ)
            if irq & 0x31:  # RxIRq, IdleIRq or TimerIRq
                break
        self._clear_bits(_BIT_FRAMING, 0x80)
        if not irq & 0x30 or irq & 0x01 or self._read(_ERROR) & 0x1B:
            return -1
        count = self._read(_FIFO_LEVEL)
        if count > len(self._back):
            return -1
        for i in range(count):
            self._back[i] = self._read(_FIFO_DATA)
        return int(count)

    def read_uid(self) -> str | None:
        """The uid of one tag in the field as upper-case hex, or ``None``; halts the tag after."""
        try:
            return self._read_uid()
        except OSError:  # an SPI glitch is a misread, not a crash
            return None

    def _read_uid(self) -> str | None:
        self._write(_COLL, 0x80)  # clear bits received after a collision
        self._frame[0] = _WUPA
        if self._transceive(1, last_bits=7) != 2:
            return None
        size = 0
        for level in range(3):
            self._frame[0] = _SEL[level]
            self._frame[1] = 0x20  # anticollision: no known uid bits
            if self._transceive(2) != 5:
                return None
            back = self._back
            if back[0] ^ back[1] ^ back[2] ^ back[3] ^ back[4]:
                return None  # bad BCC: a misread
            self._frame[1] = 0x70  # select
            for i in range(5):
                self._frame[2 + i] = back[i]
            crc = crc_a(self._frame, 7)
            self._frame[7] = crc & 0xFF
            self._frame[8] = crc >> 8
            if self._transceive(9) != 3:
                return None
            sak = self._back[0]
            start = 1 if self._frame[2] == _CASCADE_TAG else 0
            for i in range(start, 4):
                self._uid[size] = self._frame[2 + i]
                size += 1
            if not sak & 0x04:  # uid complete
                break
        self._halt()
        return "".join(f"{self._uid[i]:02X}" for i in range(size))

    def _halt(self) -> None:
        self._frame[0] = _HLTA
        self._frame[1] = 0
        crc = crc_a(self._frame, 2)
        self._frame[2] = crc & 0xFF
        self._frame[3] = crc >> 8
        self._transceive(4)  # a halted tag does not answer: a timeout is success
