"""Seat LEDs: one segment of a NeoPixel strip per seat, showing cues.

One WS2812 ("NeoPixel") strip runs round the table; each seat owns a range
of its pixels. The table tells ``SeatLeds`` what a seat should show with a
``Cue`` (``JOINED``, ``YOUR_TURN``, ``REFUSED``...); it holds no rules.

* Steady cues (``OFF``, ``JOINED``, ``WAITING``, ``YOUR_TURN``) last until
  the next steady cue for that seat.
* Transient cues (``REFUSED``, ``TRICK_WON``, ``PENALTY``, ``MADE_BID``,
  ``MISSED_BID``) show for their ``Look.duration`` and then the seat falls
  back to its steady cue; a steady cue set meanwhile takes effect when the
  transient ends.

There are no threads and no sleeps: the owner loop calls ``tick(now)`` with
``time.monotonic()`` (30 times a second is plenty); blinking and pulsing are
worked out from ``now``, and ``show()`` is called on the strip only when a
pixel actually changed. Colours are scaled by a brightness cap (default
0.25) because a full-white strip dazzles players and overloads a small
supply.

Backends, side by side, behind the ``Strip`` protocol (the subset of
``adafruit_pixelbuf.PixelBuf`` used here):

* ``RecordingStrip``: a ``PixelBuf`` whose ``_transmit`` keeps each frame in
  ``frames`` (tests, the simulator);
* ``open_neopixel()``: the real ``neopixel.NeoPixel``, imported only when
  called because ``import neopixel`` fails off a Pi.
"""

from __future__ import annotations

import enum
import importlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType, TracebackType
from typing import Any, Final, Protocol, Self, TypeAlias, runtime_checkable

import adafruit_pixelbuf

from hardware.cues import Cue
from hardware.errors import DeviceClosed, HardwareConfigError, StripUnavailable

__all__ = [
    "DEFAULT_BRIGHTNESS",
    "DEFAULT_LOOKS",
    "RGB",
    "Cue",
    "Look",
    "Pattern",
    "RecordingStrip",
    "SeatLeds",
    "Strip",
    "open_neopixel",
]

logger = logging.getLogger(__name__)

RGB: TypeAlias = tuple[int, int, int]
"""A colour as (red, green, blue), each 0 to 255."""

BLACK: Final[RGB] = (0, 0, 0)

DEFAULT_BRIGHTNESS: Final = 0.25
"""Fraction of full power a pixel may reach (every colour is scaled by it)."""

_PULSE_FLOOR = 0.2  # a pulsing seat never goes fully dark, so it still reads as "lit"
# Distinct pulse levels between full and the floor. Six give the turn pulse
# (1.2 s) 10 frames a second and the waiting pulse (2 s) 6: a slow breathing
# still reads as smooth at that rate, and every frame costs the strip's
# refresh and a wake-up of the table loop on a Pi core.
_PULSE_STEPS = 6


@runtime_checkable
class Strip(Protocol):
    """The part of ``adafruit_pixelbuf.PixelBuf`` that ``SeatLeds`` uses.

    ``neopixel.NeoPixel`` and ``RecordingStrip`` both provide it. The strip
    must be built with ``auto_write=False`` so that nothing is sent before
    ``show()``.
    """

    @property
    def n(self) -> int:
        """Number of pixels on the strip."""
        ...

    def __setitem__(self, index: int, value: RGB) -> None:
        """Set one pixel's colour in the buffer (not yet sent)."""
        ...

    def fill(self, color: RGB) -> None:
        """Set every pixel's colour in the buffer (not yet sent)."""
        ...

    def show(self) -> None:
        """Send the buffer to the pixels."""
        ...


class RecordingStrip(adafruit_pixelbuf.PixelBuf):  # type: ignore[misc]
    """A pixel strip that keeps its transmitted frames instead of driving wires.

    ``frames`` holds the bytes of each ``show()`` in the strip's byte order
    (``"RGB"`` by default, so they read naturally); ``pixels(i)`` decodes frame
    ``i`` back into RGB tuples. Only the latest frames are kept (at least
    ``keep``, fewer than ``2 * keep``; use negative indices), so a simulated
    table that runs for months keeps a flat memory; ``sent`` counts them all.
    """

    def __init__(
        self, n: int, *, byteorder: str = "RGB", brightness: float = 1.0, keep: int = 512
    ) -> None:
        if keep < 1:
            raise HardwareConfigError(f"a recording strip keeps at least 1 frame, not {keep}")
        self.frames: list[bytes] = []
        self.sent = 0
        self._keep = keep
        super().__init__(n, byteorder=byteorder, brightness=brightness, auto_write=False)
        order = byteorder.upper()
        self._rgb_offsets = (order.index("R"), order.index("G"), order.index("B"))
        self._step = len(order)

    @property
    def n(self) -> int:
        """Number of pixels on the strip (as ``neopixel.NeoPixel.n``)."""
        return len(self)

    def _transmit(self, buffer: bytearray) -> None:
        self.frames.append(bytes(buffer))
        self.sent += 1
        if len(self.frames) >= 2 * self._keep:  # trimmed in batches: appends stay O(1)
            del self.frames[: -self._keep]

    def pixels(self, frame: int = -1) -> list[RGB]:
        """Frame number ``frame`` (default: the last one sent) as one RGB tuple per pixel."""
        data = self.frames[frame]
        r, g, b = self._rgb_offsets
        return [(data[i + r], data[i + g], data[i + b]) for i in range(0, len(data), self._step)]

    def deinit(self) -> None:
        """Nothing to release; present so the strip can stand in for a ``NeoPixel``."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.deinit()


def open_neopixel(n: int, *, pin: str = "D18", pixel_order: str = "GRB") -> Any:
    """Open the real NeoPixel strip: ``n`` pixels on ``board.<pin>`` (GPIO18 by default).

    Imports ``board``/``neopixel`` only now, because off a Raspberry Pi the
    import itself fails (``NotImplementedError("Board not supported")``);
    that and any other failure to drive the strip raise ``StripUnavailable``.
    The strip is built with ``auto_write=False`` and full brightness
    (``SeatLeds`` applies its own cap). Close it with ``deinit()`` or ``with``.
    """
    advice = 'run the table on its Raspberry Pi, or set the LEDs to "mock" in table.toml'
    try:
        board = importlib.import_module("board")
        neopixel = importlib.import_module("neopixel")
    except (ImportError, NotImplementedError, RuntimeError, OSError) as exc:
        raise StripUnavailable(
            f"the NeoPixel strip cannot be driven on this machine ({exc}): {advice}"
        ) from exc
    board_pin = getattr(board, pin, None)
    if board_pin is None:
        raise HardwareConfigError(
            f"the LED data pin {pin!r} is not a pin of this board: use a name such as 'D18'"
        )
    try:
        return neopixel.NeoPixel(
            board_pin, n, brightness=1.0, auto_write=False, pixel_order=pixel_order
        )
    except Exception as exc:  # the driver raises RuntimeError, OSError, ValueError...
        raise StripUnavailable(
            f"the NeoPixel strip on {pin} cannot be started ({exc}): the kiosk may need "
            f"root for the PWM/DMA driver, or {advice}"
        ) from exc


class Pattern(enum.Enum):
    """How a cue's colour varies over time."""

    SOLID = "solid"
    """Always on."""
    BLINK = "blink"
    """On for the first half of each period, off for the second."""
    PULSE = "pulse"
    """Fades from full to 20% and back once per period."""


@dataclass(frozen=True, slots=True)
class Look:
    """What a cue looks like: colour, pattern, and for a transient cue how long it lasts."""

    colour: RGB
    pattern: Pattern = Pattern.SOLID
    period: float = 1.0
    duration: float | None = None
    """Seconds a transient cue lasts; ``None`` for a steady cue."""

    @property
    def transient(self) -> bool:
        """Whether the cue ends by itself and falls back to the seat's steady cue."""
        return self.duration is not None

    def level(self, elapsed: float) -> float:
        """Intensity from 0 to 1, ``elapsed`` seconds after the cue started."""
        if self.pattern is Pattern.SOLID:
            return 1.0
        phase = (elapsed % self.period) / self.period
        if self.pattern is Pattern.BLINK:
            return 1.0 if phase < 0.5 else 0.0
        dip = 1.0 - abs(1.0 - 2.0 * phase)  # 0 at the start of a period, 1 half-way
        # Quantised so that a pulse sends a bounded number of distinct frames.
        return 1.0 - (1.0 - _PULSE_FLOOR) * round(dip * _PULSE_STEPS) / _PULSE_STEPS

    def next_change(self, elapsed: float) -> float | None:
        """Seconds from ``elapsed`` until ``level`` next changes; None for a solid look."""
        if self.pattern is Pattern.SOLID:
            return None
        if self.pattern is Pattern.BLINK:
            half = self.period / 2
            return half - elapsed % half
        # Pulse levels change where dip * steps crosses k + 0.5: every
        # period / (2 * steps) seconds, starting half such a step into the period.
        step = self.period / (2 * _PULSE_STEPS)
        return step - (elapsed - step / 2) % step


DEFAULT_LOOKS: Final[Mapping[Cue, Look]] = MappingProxyType(
    {
        # steady
        Cue.OFF: Look(BLACK),
        Cue.JOINED: Look((255, 255, 255)),
        Cue.WAITING: Look((255, 120, 0), Pattern.PULSE, period=2.0),
        Cue.YOUR_TURN: Look((0, 255, 0), Pattern.PULSE, period=1.2),
        Cue.CALL_STAFF: Look((0, 120, 255), Pattern.BLINK, period=1.0),
        # transient
        Cue.REFUSED: Look((255, 0, 0), Pattern.BLINK, period=0.2, duration=0.8),
        Cue.TRICK_WON: Look((255, 180, 0), duration=1.5),
        Cue.PENALTY: Look((160, 0, 255), Pattern.BLINK, period=0.5, duration=2.0),
        Cue.MADE_BID: Look((0, 255, 0), duration=2.0),
        Cue.MISSED_BID: Look((255, 0, 0), duration=2.0),
    }
)
"""The cue table (also in docs/hardware.md); ``SeatLeds(looks=...)`` overrides entries."""


def _channel(value: float) -> int:
    """One colour channel, rounded and held to 0-255."""
    return min(255, max(0, round(value)))


@dataclass(slots=True)
class _SeatState:
    """One seat's segment and cues (mutable, owned by ``SeatLeds``)."""

    pixels: range
    identity: RGB | None = None  # the seat's own colour: its JOINED glow
    steady: Cue = Cue.OFF
    steady_since: float = 0.0
    transient: Cue | None = None
    transient_since: float = 0.0
    shown: RGB | None = None  # what the strip holds for the segment; None: never sent


class SeatLeds:
    """Shows each seat's cue on its segment of one strip.

    ``segments`` maps seat numbers to pixel ranges, e.g. ``{0: range(0, 8),
    1: range(8, 16)}``; ranges must be non-empty, step 1, on the strip and not
    overlapping (``HardwareConfigError`` otherwise). Pixels outside every
    segment are never written. Not thread-safe: call it from the table loop
    only. ``close()`` blanks the segments once; it does not deinit the strip,
    whose owner closes it.

    ``identity`` gives seats their own colour (``controller.view.seat_colours``): a
    joined seat glows in it, so players find their panel by the colour their
    LEDs show; a seat without one glows in the ``JOINED`` look's colour.
    """

    def __init__(
        self,
        strip: Strip,
        segments: Mapping[int, range],
        *,
        brightness: float = DEFAULT_BRIGHTNESS,
        looks: Mapping[Cue, Look] | None = None,
        identity: Mapping[int, RGB] | None = None,
    ) -> None:
        if not 0.0 <= brightness <= 1.0:
            raise HardwareConfigError(f"LED brightness {brightness} should be from 0 to 1")
        taken: dict[int, int] = {}
        for seat, pixels in segments.items():
            if not pixels or pixels.step != 1 or pixels.start < 0 or pixels.stop > strip.n:
                raise HardwareConfigError(
                    f"seat {seat}'s LED pixels {pixels} should be a non-empty run of "
                    f"pixels within 0..{strip.n - 1}"
                )
            for index in pixels:
                if index in taken:
                    raise HardwareConfigError(
                        f"LED pixel {index} is in both seat {taken[index]}'s and "
                        f"seat {seat}'s segments"
                    )
                taken[index] = seat
        self._strip = strip
        self._brightness = brightness
        self._looks = {**DEFAULT_LOOKS, **(looks or {})}
        colours = identity or {}
        self._seats = {
            seat: _SeatState(pixels, colours.get(seat)) for seat, pixels in segments.items()
        }
        self._closed = False

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats that have a segment."""
        return tuple(self._seats)

    def look(self, cue: Cue) -> Look:
        """How ``cue`` is shown."""
        return self._looks[cue]

    def cue(self, seat: int, cue: Cue, now: float) -> None:
        """Show ``cue`` on ``seat``'s segment from monotonic time ``now``; renders at once.

        A steady cue replaces the seat's steady cue (setting the same one again
        keeps its pulse phase); a transient cue starts (or restarts) now.
        """
        if self._closed:
            raise DeviceClosed(f"cannot show {cue.name} on seat {seat}'s LEDs: they are closed")
        state = self._state(seat)
        if self._looks[cue].transient:
            state.transient, state.transient_since = cue, now
        elif cue is not state.steady:
            state.steady, state.steady_since = cue, now
        self.tick(now)

    def clear(self, now: float) -> None:
        """Every seat back to ``OFF``, transients cancelled; renders at once."""
        for state in self._seats.values():
            state.steady, state.steady_since, state.transient = Cue.OFF, now, None
        self.tick(now)

    def showing(self, seat: int, now: float) -> Cue:
        """The cue ``seat`` shows at ``now`` (its transient if one is running, else its steady)."""
        state = self._state(seat)
        self._expire(state, now)
        return state.transient or state.steady

    def tick(self, now: float) -> bool:
        """Advance patterns and expire transients; ``show()`` only if a pixel changed.

        Returns whether a frame was sent. Does nothing after ``close()``.
        """
        if self._closed:
            return False
        # Compared per segment, not per pixel: a pulse's loop turn does little else.
        changed = []
        for state in self._seats.values():
            colour = self._colour(state, now)
            if colour != state.shown:
                changed.append((state, colour))
        return self._send(changed)

    def next_change(self, now: float) -> float | None:
        """Seconds from ``now`` until a segment may change by itself (a pattern's next
        level, a transient cue ending); None when every segment is still.

        The table loop sleeps until then instead of ticking at a fixed rate.
        """
        if self._closed:
            return None
        waits: list[float] = []
        for state in self._seats.values():
            self._expire(state, now)
            if state.transient is not None:
                look = self._looks[state.transient]
                waits.append(state.transient_since + (look.duration or 0.0) - now)
                since = state.transient_since
            else:
                look, since = self._looks[state.steady], state.steady_since
            wait = look.next_change(max(0.0, now - since))
            if wait is not None:
                waits.append(wait)
        return max(0.0, min(waits)) if waits else None

    def close(self) -> None:
        """Blank every segment (one frame) and stop. Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            self._send([(state, BLACK) for state in self._seats.values() if state.shown != BLACK])
        except Exception:  # the strip may already be gone at shutdown; nothing else to do
            logger.exception("could not blank the seat LEDs on close")

    def _state(self, seat: int) -> _SeatState:
        try:
            return self._seats[seat]
        except KeyError:
            raise HardwareConfigError(f"seat {seat} has no LED segment") from None

    def _expire(self, state: _SeatState, now: float) -> None:
        if state.transient is not None:
            duration = self._looks[state.transient].duration or 0.0
            if now >= state.transient_since + duration:
                state.transient = None

    def _colour(self, state: _SeatState, now: float) -> RGB:
        self._expire(state, now)
        if state.transient is not None:
            cue, since = state.transient, state.transient_since
        else:
            cue, since = state.steady, state.steady_since
        look = self._looks[cue]
        scale = look.level(max(0.0, now - since)) * self._brightness
        base = state.identity if cue is Cue.JOINED and state.identity is not None else look.colour
        r, g, b = base
        return (_channel(r * scale), _channel(g * scale), _channel(b * scale))

    def _send(self, changed: list[tuple[_SeatState, RGB]]) -> bool:
        """Write each changed segment's colour, then one ``show()``; False if none changed."""
        if not changed:
            return False
        strip = self._strip
        for state, colour in changed:
            for index in state.pixels:
                strip[index] = colour
        strip.show()
        # Marked shown only once sent: a strip that fails is written again next tick.
        for state, colour in changed:
            state.shown = colour
        return True

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
