"""``cafe-table assign-readers``: learn which reader is which seat by tapping.

Staff plug in every seat's reader, run the command (with the kiosk stopped:
the kiosk opens each port exclusively), and tap any card at Seat 1's reader,
then Seat 2's, and so on. The command prints the ``[[seat]]`` tables for
``table.toml``, each naming its reader by a stable ``/dev/serial/by-id`` (or
``by-path``) name, so the seats keep their readers across reboots.
"""

from __future__ import annotations

import argparse
import queue
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from controller.config.reading import ConfigError
from controller.config.table_config import MOCK, SeatConfig, load
from controller.games.base import TableError
from controller.games.words import Items, Text, Verbatim, say, say_plural
from controller.tags.enrollment import SeatAssignment
from controller.words import Presenter
from controller.words import terminal as terminal_words
from hardware.events import EventQueue, InputEvent, ReaderOffline, ReaderProblem, TagPresented
from hardware.port_names import serial_ports
from hardware.protocols import READER_PROTOCOLS
from hardware.reader_factory import reader_for
from hardware.seat_reader import SeatReader

ReaderFactory = Callable[[int, str, str, EventQueue], SeatReader]
COMMAND = "assign-readers"
ENGLISH = Presenter()


def _open_reader(seat: int, port: str, protocol: str, events: EventQueue) -> SeatReader:
    return reader_for(seat, port, protocol, events, supervise=False)


def assign(
    ports: Sequence[str],
    seats: int,
    protocol: str,
    *,
    tell: Callable[[str], None] = print,
    timeout: float = 300.0,
    open_reader: ReaderFactory = _open_reader,
    present: Presenter = ENGLISH,
) -> SeatAssignment:
    """Open every port, then assign seats from the taps; stops when done or idle for ``timeout``."""
    assignment = SeatAssignment(ports, seats)
    events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    readers = [open_reader(i, port, protocol, events) for i, port in enumerate(ports)]
    try:
        for reader in readers:
            reader.open()
        tell(present(assignment.prompt))
        deadline = time.monotonic() + timeout
        while not assignment.done:
            try:
                event = events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                tell(
                    present(
                        say(
                            "No tap for {seconds}; stopping",
                            seconds=terminal_words.seconds(timeout),
                        )
                    )
                )
                break
            if isinstance(event, TagPresented):
                deadline = time.monotonic() + timeout
                result = assignment.tap(ports[event.seat])
                tell(present(result.message))
            elif isinstance(event, ReaderOffline):
                # A board that speaks another protocol never answers this one: say
                # so within the reader's own few seconds, not after the whole wait.
                reason = event.reason.removeprefix("lost the connection: ")
                raise AssignError(
                    say(
                        "the reader at {port} went silent ({reason}); {advice}",
                        port=Verbatim(event.port),
                        reason=Verbatim(reason),
                        advice=_other_protocol(protocol),
                    )
                )
            elif isinstance(event, ReaderProblem):
                tell(
                    present(
                        say(
                            "{problem}; {advice}",
                            problem=Verbatim(event.message),
                            advice=_other_protocol(protocol),
                        )
                    )
                )
    finally:
        for reader in readers:
            reader.close()
    return assignment


class AssignError(TableError):
    """A reader cannot be assigned (e.g. it speaks another protocol): one line, exit 2."""


def _other_protocol(protocol: str) -> Text:
    others = Items(tuple(Verbatim(p) for p in READER_PROTOCOLS if p != protocol), either=True)
    return say(
        "is its board speaking another protocol than {protocol}? Give the boards' "
        "protocol with --protocol ({others}) or --config table.toml",
        protocol=Verbatim(repr(protocol)),
        others=others,
    )


def chosen_protocol(args: argparse.Namespace) -> str:
    """--protocol, else the one the configured seats use, else the seats' default (line)."""
    if args.protocol:
        return str(args.protocol)
    if args.config:
        config = load(Path(args.config))
        used = sorted({s.protocol for s in config.seats if s.reader != MOCK})
        if len(used) > 1:
            raise ConfigError(
                say(
                    "the seats of {config} use several protocols ({protocols}); "
                    "assign each kind with its own --protocol and --port",
                    config=Verbatim(str(args.config)),
                    protocols=Items(tuple(Verbatim(p) for p in used)),
                )
            )
        if used:
            return used[0]
    return SeatConfig(index=0).protocol


def cmd_assign(args: argparse.Namespace) -> int:
    present = terminal_words.presenter(args)
    ports: list[str] = args.port or serial_ports()
    if not ports:
        terminal_words.complain(
            args,
            COMMAND,
            say(
                "no serial reader is connected (nothing in /dev/serial/by-id or by-path); "
                "plug in the seat readers, or name them with --port"
            ),
        )
        return 2
    seats = args.seats or len(ports)
    if seats > len(ports):
        terminal_words.complain(
            args,
            COMMAND,
            say_plural(
                "{seats} seats need {seats} readers; only {n} is connected",
                "{seats} seats need {seats} readers; only {n} are connected",
                len(ports),
                seats=seats,
            ),
        )
        return 2
    try:
        protocol = chosen_protocol(args)
        result = assign(ports, seats, protocol, timeout=args.timeout, present=present)
    except (AssignError, ConfigError) as exc:
        terminal_words.complain(args, COMMAND, exc.text)
        return 2
    except OSError as exc:  # HardwareErrors are OSErrors too
        terminal_words.complain(args, COMMAND, str(exc))
        return 2
    if not result.done:
        terminal_words.complain(args, COMMAND, say("not every seat was assigned; run it again"))
        return 1
    heading = present(say("Paste into table.toml, then add each seat's buttons and pixels:"))
    print(f"\n# {heading}\n")
    print(result.toml(protocol), end="")
    return 0


def add_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "assign-readers",
        help="learn which reader is which seat by tapping a card at each seat in turn",
        description=__doc__.split("\n\n")[1].replace("``", "") if __doc__ else None,
    )
    parser.add_argument(
        "--protocol",
        choices=READER_PROTOCOLS,
        help="the reader boards' protocol (default: the seats' in --config, else line)",
    )
    parser.add_argument(
        "--config", metavar="FILE", help="table.toml, whose seats say the readers' protocol"
    )
    parser.add_argument("--seats", type=int, help="how many seats (default: one per reader)")
    parser.add_argument(
        "--port", action="append", help="a reader port (repeat; default: every one connected)"
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for a tap")
    parser.set_defaults(func=cmd_assign)
