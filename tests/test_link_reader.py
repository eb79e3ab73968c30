"""The host side of the reader link: the pure decoder, and the reader over real
pseudo-terminals against a simulated board running the firmware's own logic."""

from __future__ import annotations

import queue
import random
import sys
from pathlib import Path

import pytest

from firmware.board import Board, Debouncer
from firmware.link import ACK, GONE, HELLO, PLACED, QUERY, Link, decode, encode
from hardware.events import (
    EventQueue,
    InputEvent,
    ReaderOffline,
    ReaderOnline,
    ReaderProblem,
    TagPresented,
    TagRemoved,
)
from hardware.link_reader import LinkDecoder, LinkReader
from hardware.serial_stream import LinkLost
from hardware.simulated_board import ScriptedTags, SimulatedBoard, tap_script
from hardware.supervisor import Backoff, SupervisedReader

WAIT = 5.0
BOOT = "3F2A9C1B"
UID = "04A1B2C3D4E5F6"
HELLO_0 = encode(HELLO, 0, f"cafe-reader/1.0 board=AB boot={BOOT}")

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


def fresh(**kwargs: float) -> LinkDecoder:
    decoder = LinkDecoder(2, "/dev/serial/by-id/seat2", **kwargs)
    decoder.reset()
    assert decode(decoder.take_output().rstrip(b"\n")) == (QUERY, 0, "")
    return decoder


def acks(out: bytes) -> list[int]:
    return [decode(line)[1] for line in out.split(b"\n") if line and decode(line)[0] == ACK]


# --- the pure decoder -------------------------------------------------------------------


def test_hello_then_events_give_tags_and_cumulative_acks() -> None:
    decoder = fresh()
    stream = HELLO_0 + encode(PLACED, 0, UID) + encode(GONE, 1, UID)
    assert decoder.feed(stream, 5.0) == [TagPresented(2, UID, 5.0), TagRemoved(2, 5.0)]
    assert acks(decoder.take_output()) == [1]
    assert decoder.take_output() == b""  # one acknowledgement per read
    assert decoder.board == "AB" and decoder.firmware == "cafe-reader/1.0"


def test_events_before_the_hello_are_not_acknowledged_so_the_board_resends_them() -> None:
    decoder = fresh()
    assert decoder.feed(encode(PLACED, 0, UID), 1.0) == []
    assert decoder.take_output() == b""
    assert decoder.feed(HELLO_0 + encode(PLACED, 0, UID), 2.0) == [TagPresented(2, UID, 2.0)]


def test_a_retransmitted_event_is_not_delivered_twice_but_is_acknowledged_again() -> None:
    decoder = fresh()
    decoder.feed(HELLO_0 + encode(PLACED, 0, UID), 1.0)
    decoder.take_output()
    assert decoder.feed(encode(PLACED, 0, UID), 2.0) == []
    assert acks(decoder.take_output()) == [0]
    assert decoder.duplicates == 1 and decoder.delivered == 1


def test_an_event_after_a_gap_waits_for_the_missing_one() -> None:
    decoder = fresh()
    decoder.feed(HELLO_0, 1.0)
    assert decoder.feed(encode(GONE, 1, UID), 1.0) == []
    assert decoder.gaps == 1
    assert decoder.feed(encode(PLACED, 0, UID) + encode(GONE, 1, UID), 2.0) == [
        TagPresented(2, UID, 2.0),
        TagRemoved(2, 2.0),
    ]


def test_the_session_survives_a_reconnection_to_the_same_boot() -> None:
    decoder = fresh()
    decoder.feed(HELLO_0 + encode(PLACED, 0, UID), 1.0)
    decoder.reset()  # cable pulled and plugged back in; the board kept running
    decoder.take_output()
    # The board's acknowledgement was lost: it resends seq 0 after its hello.
    again = encode(HELLO, 0, f"cafe-reader/1.0 board=AB boot={BOOT}") + encode(PLACED, 0, UID)
    assert decoder.feed(again, 2.0) == []
    assert decoder.duplicates == 1
    assert decoder.feed(encode(GONE, 1, UID) + encode(PLACED, 2, "0A0B0C0D"), 3.0) == [
        TagPresented(2, "0A0B0C0D", 3.0)  # the tag state was forgotten at the reconnection
    ]


def test_a_restarted_board_starts_a_new_sequence() -> None:
    decoder = fresh()
    decoder.feed(HELLO_0 + encode(PLACED, 0, UID) + encode(GONE, 1, UID), 1.0)
    reboot = encode(HELLO, 0, "cafe-reader/1.0 board=AB boot=00000002")
    assert decoder.feed(reboot + encode(PLACED, 0, UID), 2.0) == [TagPresented(2, UID, 2.0)]
    assert decoder.boot == "00000002"


def test_a_restart_while_a_tag_is_present_removes_it_first() -> None:
    decoder = fresh()
    decoder.feed(HELLO_0 + encode(PLACED, 0, UID), 1.0)
    reboot = encode(HELLO, 0, "cafe-reader/1.0 board=AB boot=00000002")
    assert decoder.feed(reboot, 2.0) == [TagRemoved(2, 2.0)]


def test_the_decoder_asks_for_a_hello_until_it_gets_one() -> None:
    decoder = fresh(hello_retry=0.5)
    decoder.tick(10.0)
    assert decoder.take_output() == b""
    decoder.tick(10.6)
    assert decoder.take_output() == encode(QUERY, 0)
    decoder.feed(HELLO_0, 10.7)
    decoder.take_output()
    decoder.tick(12.0)
    assert decoder.take_output() == b""


def test_silence_longer_than_the_heartbeat_timeout_drops_the_link() -> None:
    decoder = fresh(heartbeat_timeout=3.0)
    decoder.tick(100.0)
    decoder.feed(HELLO_0, 102.0)
    decoder.tick(104.9)
    with pytest.raises(LinkLost, match="stopped answering"):
        decoder.tick(105.1)


def test_problems_are_reported_at_most_once_a_second_with_a_count() -> None:
    decoder = fresh()
    bad = b"$P 0 04A1B2C3*00000000\n"
    first = decoder.feed(bad * 5, 1.0)
    assert len(first) == 1 and isinstance(first[0], ReaderProblem)
    assert "corrupt frame (CRC mismatch)" in first[0].message
    assert "seat 2's reader at /dev/serial/by-id/seat2" in first[0].message
    assert decoder.feed(bad, 1.5) == []
    later = decoder.feed(bad, 2.1)
    assert len(later) == 1 and "(and 5 more since)" in later[0].message  # type: ignore[union-attr]


def test_a_beat_reporting_dropped_events_is_a_problem() -> None:
    decoder = fresh()
    decoder.feed(HELLO_0, 1.0)
    events = decoder.feed(encode("B", 0, "drop=3"), 2.0)
    assert len(events) == 1 and "dropped 3 card events" in events[0].message  # type: ignore[union-attr]


STREAM = (
    HELLO_0
    + encode(PLACED, 0, UID)
    + b"\x00noise\n"
    + encode(GONE, 1, UID)
    + encode(PLACED, 2, "0A0B0C0D")
    + encode(GONE, 3, "0A0B0C0D")
)


def test_frames_split_at_every_byte_boundary_give_the_same_taps() -> None:
    def taps(chunks: list[bytes]) -> list[InputEvent]:
        decoder = fresh(problem_every=1e9)
        out: list[InputEvent] = []
        for chunk in chunks:
            out += decoder.feed(chunk, 1.0)
        return [e for e in out if not isinstance(e, ReaderProblem)]

    whole = taps([STREAM])
    assert [type(e) for e in whole] == [TagPresented, TagRemoved, TagPresented, TagRemoved]
    for cut in range(len(STREAM) + 1):
        assert taps([STREAM[:cut], STREAM[cut:]]) == whole, cut
    assert taps([STREAM[i : i + 1] for i in range(len(STREAM))]) == whole


def test_100000_fuzzed_bytes_never_make_a_card() -> None:
    rng = random.Random(2024)
    decoder = fresh()
    decoder.feed(HELLO_0, 0.0)
    # Random bytes, with plenty of '$' and newlines so the parser sees many "frames".
    alphabet = bytes(range(256)) + b"$$$$\n\n\n\nP 0123456789ABCDEF*" * 4
    events: list[InputEvent] = []
    fed = 0
    while fed < 100_000:
        chunk = bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 200)))
        events += decoder.feed(chunk, fed / 1000)
        fed += len(chunk)
    assert not [e for e in events if isinstance(e, TagPresented | TagRemoved)]
    assert decoder.bad_frames > 100
    # And the decoder still works (the unfinished noise before the newline is one more problem).
    after = decoder.feed(b"\n" + encode(PLACED, 0, UID), 200.0)
    assert [e for e in after if not isinstance(e, ReaderProblem)] == [TagPresented(2, UID, 200.0)]


def test_corrupted_copies_of_real_frames_never_make_a_wrong_card() -> None:
    rng = random.Random(99)
    decoder = fresh()
    decoder.feed(HELLO_0, 0.0)
    genuine = [f"04{n:012X}" for n in range(200)]
    stream = b"".join(
        encode(PLACED, 2 * i, uid) + encode(GONE, 2 * i + 1, uid) for i, uid in enumerate(genuine)
    )
    presented: list[str] = []
    for _ in range(40):  # 40 corrupted replays of the same stream
        noisy = bytearray(stream)
        for _ in range(200):
            noisy[rng.randrange(len(noisy))] = rng.randrange(256)
        for event in decoder.feed(bytes(noisy), 1.0):
            if isinstance(event, TagPresented):
                presented.append(event.uid)
    assert set(presented) <= set(genuine)
    assert len(presented) == len(set(presented))  # never twice: seq numbers dedup
    assert presented == genuine[: len(presented)]  # and in order


# --- over pseudo-terminals ------------------------------------------------------------------


def next_event(events: EventQueue) -> InputEvent:
    return events.get(timeout=WAIT)


def collect_taps(events: EventQueue, count: int, seen: list[InputEvent]) -> list[str]:
    """Take events until ``count`` tags were presented; return their uids."""
    uids: list[str] = []
    while len(uids) < count:
        event = next_event(events)
        seen.append(event)
        if isinstance(event, TagPresented):
            uids.append(event.uid)
    return uids


def simulated(
    tmp_path: Path, uids: list[str], *, hold: int = 3, gap: int = 4, poll: float = 0.001
) -> SimulatedBoard:
    board = Board(
        ScriptedTags(tap_script(uids, hold=hold, gap=gap)),
        Link("E66141040355A52B", BOOT, retransmit_ms=100, capacity=256),
        Debouncer(confirm=2, release=3),
    )
    return SimulatedBoard(board, tmp_path / "usb-cafe-reader-seat0", poll_interval=poll)


@posix_only
def test_link_reader_over_a_pseudo_terminal(tmp_path: Path) -> None:
    uids = [f"04{n:012X}" for n in range(20)]
    events: EventQueue = queue.SimpleQueue()
    with simulated(tmp_path, uids) as sim:
        port = str(sim.link_path)
        with LinkReader(0, port, events) as reader:
            online = next_event(events)
            assert online == ReaderOnline(0, port, online.at)
            seen: list[InputEvent] = []
            assert collect_taps(events, len(uids), seen) == uids
            assert reader.link.firmware == "cafe-reader/1.0"
            assert reader.link.board == "E66141040355A52B"
        assert isinstance(drain_until(events, ReaderOffline), ReaderOffline)
    assert sim.board.link.queued <= 1  # everything delivered was acknowledged


def drain_until(events: EventQueue, kind: type, taps: list[str] | None = None) -> InputEvent:
    """Take events until one of ``kind``; tags presented meanwhile are added to ``taps``."""
    while True:
        event = next_event(events)
        if isinstance(event, kind):
            return event
        if isinstance(event, TagPresented):
            assert taps is not None, f"unexpected {event}"
            taps.append(event.uid)


@posix_only
def test_unplugging_and_replugging_mid_game_loses_no_tap_and_duplicates_none(
    tmp_path: Path,
) -> None:
    uids = [f"04{n:012X}" for n in range(150)]
    events: EventQueue = queue.SimpleQueue()
    sim = simulated(tmp_path, uids, poll=0.002)
    port = str(sim.link_path)
    reader = SupervisedReader(
        0,
        port,
        events,
        lambda q: LinkReader(0, port, q),
        backoff=Backoff(first=0.01, factor=2.0, cap=0.05),
    )
    seen: list[InputEvent] = []
    try:
        sim.plug()
        sim.start()
        reader.open()
        assert isinstance(next_event(events), ReaderOnline)
        got = collect_taps(events, 30, seen)
        for _ in range(3):  # three pulls of the cable while the board keeps reading taps
            sim.unplug()
            offline = drain_until(events, ReaderOffline, got)
            assert isinstance(offline, ReaderOffline)
            assert offline.reason.startswith("lost the connection")
            # The board goes on reading taps while its cable is out; then it comes back.
            sim.plug()
            online = drain_until(events, ReaderOnline, got)
            assert isinstance(online, ReaderOnline) and online.seat == 0
            got += collect_taps(events, 25, seen)
        got += collect_taps(events, len(uids) - len(got), seen)
    finally:
        reader.close()
        sim.close()
    assert got == uids  # every tap, once, in order
    decoder = reader.inner.link  # type: ignore[attr-defined]
    assert decoder.delivered == 2 * len(uids) or decoder.delivered == 2 * len(uids) - 1
    assert sim.plugs == 4
    assert sim.board.link.dropped == 0


@posix_only
def test_a_silent_board_is_reported_offline(tmp_path: Path) -> None:
    from hardware.ptys import PtyPair

    events: EventQueue = queue.SimpleQueue()
    with PtyPair() as board, LinkReader(3, board.slave_path, events, heartbeat_timeout=0.3):
        assert isinstance(next_event(events), ReaderOnline)
        board.write(HELLO_0)  # then nothing more: no heartbeat
        offline = drain_until(events, ReaderOffline)
        assert isinstance(offline, ReaderOffline)
        assert "stopped answering" in offline.reason


@posix_only
def test_a_live_reader_survives_100000_fuzzed_bytes_and_makes_no_card() -> None:
    from hardware.ptys import PtyPair

    rng = random.Random(7)
    events: EventQueue = queue.SimpleQueue()
    with PtyPair() as board, LinkReader(1, board.slave_path, events, heartbeat_timeout=60) as r:
        assert isinstance(next_event(events), ReaderOnline)
        board.write(HELLO_0)
        alphabet = bytes(range(256)) + b"$$$$\n\n\n\nP 0123456789ABCDEF*" * 4
        for _ in range(100):
            board.write(bytes(rng.choice(alphabet) for _ in range(1000)))
        # A good frame after the noise: the thread is alive and still decoding.
        board.write(b"\n" + encode(PLACED, 0, UID))
        event = drain_until(events, TagPresented | ReaderOffline)  # type: ignore[arg-type]
        assert event == TagPresented(1, UID, event.at)
        assert r.is_open
        assert r.link.bad_frames > 100
    leftovers = []
    while not events.empty():
        leftovers.append(events.get_nowait())
    assert not [e for e in leftovers if isinstance(e, TagPresented)]
