"""The reader firmware's pure logic under CPython: framing, the board's link state machine,
debounce, and end-to-end exactly-once delivery over a lossy, corrupting channel."""

from __future__ import annotations

import random
import zlib

import pytest

from firmware.board import Board, Debouncer, Reader
from firmware.link import (
    ACK,
    BEAT,
    GONE,
    HELLO,
    MAX_FRAME,
    PLACED,
    QUERY,
    SEQ_MOD,
    Link,
    Splitter,
    crc,
    crc32_pure,
    decode,
    encode,
    seq_after,
)
from firmware.mfrc522 import crc_a
from hardware.events import TagPresented, TagRemoved
from hardware.link_reader import LinkDecoder
from hardware.simulated_board import ScriptedTags, tap_script

BOOT = "3F2A9C1B"
UID = "04A1B2C3D4E5F6"
GOLDEN = b"$P 17 04A1B2C3D4E5F6*4ECA08A5\n"


def frames_of(out: list[bytes]) -> list[tuple[str, int, str]]:
    return [decode(f.rstrip(b"\n")) for f in out]


# --- codec ---------------------------------------------------------------------


def test_crc_is_crc32_ieee_with_its_check_value() -> None:
    assert crc(b"123456789") == 0xCBF43926
    assert crc32_pure(b"123456789") == 0xCBF43926
    rng = random.Random(7)
    for _ in range(50):
        data = rng.randbytes(rng.randrange(0, 80))
        assert crc32_pure(data) == zlib.crc32(data) == crc(data)


def test_encode_matches_the_documented_example() -> None:
    assert encode(PLACED, 17, UID) == GOLDEN
    assert decode(GOLDEN.rstrip(b"\n")) == (PLACED, 17, UID)
    assert decode(GOLDEN.rstrip(b"\n") + b"\r") == (PLACED, 17, UID)


@pytest.mark.parametrize(
    ("kind", "seq", "payload"),
    [
        (PLACED, 0, "04A1B2C3"),
        (GONE, 65535, "00" * 10),
        (HELLO, 3, f"cafe-reader/1.0 board=E66141040355A52B boot={BOOT}"),
        (BEAT, 9, "drop=0"),
        (ACK, 17, BOOT),
        (QUERY, 0, ""),
    ],
)
def test_every_frame_type_round_trips(kind: str, seq: int, payload: str) -> None:
    line = encode(kind, seq, payload)
    assert line.endswith(b"\n") and len(line) - 1 <= MAX_FRAME
    assert decode(line[:-1]) == (kind, seq, payload)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"$P 17 04A1B2C3D4E5F6*4ECA08A6", "CRC mismatch"),
        (b"P 17 04A1B2C3D4E5F6*4ECA08A5", "not a frame"),
        (b"$P 17 04A1B2C3D4E5F6", "not a frame"),
        (b"$P 17 04A1B2C3D4E5F6*4eca08a5", "bad CRC digits"),
        (encode("X", 1, "")[:-1], "unknown type"),
        (encode(PLACED, 1, "04A1B2C")[:-1], "bad uid"),
        (encode(PLACED, 1, "04a1b2c3")[:-1], "bad uid"),
        (encode(QUERY, 0, "x")[:-1], "unexpected payload"),
        (b"$" + b"A" * 90 + b"*00000000", "longer than"),
    ],
)
def test_decode_refuses_bad_frames_with_a_reason(line: bytes, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        decode(line)


def test_decode_refuses_a_seq_out_of_range_even_with_a_good_crc() -> None:
    body = b"P 65536 04A1B2C3"
    line = b"$" + body + b"*" + f"{zlib.crc32(body):08X}".encode()
    with pytest.raises(ValueError, match="bad seq"):
        decode(line)


def test_every_single_byte_corruption_of_a_frame_is_refused() -> None:
    line = GOLDEN.rstrip(b"\n")
    for pos in range(len(line)):
        for value in range(256):
            if value == line[pos]:
                continue
            bad = line[:pos] + bytes([value]) + line[pos + 1 :]
            with pytest.raises(ValueError):
                decode(bad)


def test_encode_refuses_a_frame_too_long() -> None:
    with pytest.raises(ValueError):
        encode(HELLO, 1, "x" * MAX_FRAME)


def test_seq_after_wraps() -> None:
    assert seq_after(1, 0) and not seq_after(0, 1) and not seq_after(5, 5)
    assert seq_after(0, SEQ_MOD - 1)
    assert seq_after(10, SEQ_MOD - 10)
    assert not seq_after(SEQ_MOD - 10, 10)


# --- splitter --------------------------------------------------------------------

STREAM = (
    encode(HELLO, 0, f"cafe-reader/1.0 board=AB boot={BOOT}")
    + b"noise\r\n"
    + encode(PLACED, 0, UID)
    + b"\x00\xff$junk"
    + encode(GONE, 1, UID).replace(b"\n", b"\r\n")
)
STREAM_LINES = 3


def test_splitter_cuts_lines_from_dollar_to_newline() -> None:
    lines = Splitter().feed(STREAM)
    assert [decode(line)[0] for line in lines] == [HELLO, PLACED, GONE]


def test_splitter_gives_the_same_lines_for_a_split_at_every_byte_boundary() -> None:
    whole = Splitter().feed(STREAM)
    assert len(whole) == STREAM_LINES
    for cut in range(len(STREAM) + 1):
        splitter = Splitter()
        assert splitter.feed(STREAM[:cut]) + splitter.feed(STREAM[cut:]) == whole, cut


def test_splitter_drops_overlong_lines_and_counts_noise() -> None:
    splitter = Splitter()
    assert splitter.feed(b"$" + b"A" * 500 + b"\n" + encode(QUERY, 0)) == [encode(QUERY, 0)[:-1]]
    assert splitter.junk >= 1
    assert splitter.feed(b"abc\n") == []


# --- the board's link ---------------------------------------------------------------


def ack(seq: int, boot: str = BOOT) -> bytes:
    return encode(ACK, seq, boot)


def test_link_says_hello_at_boot_and_beats() -> None:
    link = Link("AB", BOOT, heartbeat_ms=1000)
    first = frames_of(link.poll(0))
    assert first[0] == (HELLO, 0, f"cafe-reader/1.0 board=AB boot={BOOT}")
    assert first[1] == (BEAT, 0, "drop=0")
    assert link.poll(999) == []
    assert frames_of(link.poll(1000)) == [(BEAT, 0, "drop=0")]


def test_link_sends_events_until_acknowledged_and_resends_after_the_timeout() -> None:
    link = Link("AB", BOOT, retransmit_ms=250)
    link.poll(0)
    link.push(PLACED, UID)
    link.push(GONE, UID)
    assert frames_of(link.poll(10)) == [(PLACED, 0, UID), (GONE, 1, UID)]
    assert link.poll(200) == []  # in flight, not yet timed out
    assert frames_of(link.poll(260)) == [(PLACED, 0, UID), (GONE, 1, UID)]  # go back N
    link.receive(ack(0))
    assert link.queued == 1 and link.acked == 1
    assert link.poll(300) == []  # the timer restarted on progress
    assert frames_of(link.poll(560)) == [(GONE, 1, UID)]
    link.receive(ack(1))
    assert link.queued == 0
    assert link.poll(2000) == frames_of_none(link)


def frames_of_none(link: Link) -> list[bytes]:
    # Only a heartbeat is left to send.
    return [encode(BEAT, 2, "drop=0")]


def test_link_ignores_acks_for_another_boot_and_corrupt_acks() -> None:
    link = Link("AB", BOOT)
    link.poll(0)
    link.push(PLACED, UID)
    link.poll(1)
    link.receive(ack(0, boot="DEADBEEF"))
    link.receive(ack(0)[:-3] + b"X\n")  # corrupted
    assert link.queued == 1
    link.receive(ack(0))
    assert link.queued == 0


def test_link_keeps_at_most_a_window_in_flight() -> None:
    link = Link("AB", BOOT, window=3)
    link.poll(0)
    for _ in range(5):
        link.push(PLACED, UID)
    assert [seq for _, seq, _ in frames_of(link.poll(1))] == [0, 1, 2]
    link.receive(ack(1))
    assert [seq for _, seq, _ in frames_of(link.poll(2))] == [3, 4]


def test_a_hello_request_gets_a_hello_naming_the_oldest_unacked_event_and_a_resend() -> None:
    link = Link("AB", BOOT)
    link.poll(0)
    link.push(PLACED, UID)
    link.push(GONE, UID)
    link.poll(1)
    link.receive(ack(0))
    link.receive(encode(QUERY, 0))
    out = frames_of(link.poll(2))
    assert out[0][:2] == (HELLO, 1)
    assert out[1] == (GONE, 1, UID)


def test_a_full_queue_drops_and_counts_and_the_heartbeat_says_so() -> None:
    link = Link("AB", BOOT, capacity=2, heartbeat_ms=100)
    link.poll(0)
    assert link.push(PLACED, UID) and link.push(GONE, UID)
    assert not link.push(PLACED, UID)
    assert link.dropped == 1
    assert (BEAT, 2, "drop=1") in frames_of(link.poll(100))


def test_seq_numbers_wrap_and_the_host_follows() -> None:
    link = Link("AB", BOOT)
    link._next_seq = SEQ_MOD - 2  # start near the wrap
    host = LinkDecoder(0, "p")
    host.reset()
    host.take_output()
    events = []
    for i in range(4):
        link.push(PLACED, f"0000000{i}")
        link.push(GONE, f"0000000{i}")
    for now in range(0, 3000, 50):
        for frame in link.poll(now):
            events += host.feed(frame, now / 1000)
        link.receive(host.take_output())
    presented = [e.uid for e in events if isinstance(e, TagPresented)]
    assert presented == [f"0000000{i}" for i in range(4)]
    assert link.queued == 0 and host.expected == 6


# --- debounce and the board ---------------------------------------------------------


def run_debouncer(debouncer: Debouncer, reads: list[str | None]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for read in reads:
        out += debouncer.update(read)
    return out


def test_a_card_held_still_with_a_flickering_radio_is_one_tap() -> None:
    reads: list[str | None] = [UID, None] * 20 + [None] * 6
    assert run_debouncer(Debouncer(confirm=2, release=3), reads) == [
        (PLACED, UID),
        (GONE, UID),
    ]


def test_a_single_stray_read_is_not_a_card() -> None:
    reads: list[str | None] = [None, UID, None, None, None, None, "0A0B0C0D", None, None, None]
    assert run_debouncer(Debouncer(confirm=2, release=3), reads) == []


def test_swapping_cards_without_a_gap_gives_gone_then_placed() -> None:
    reads: list[str | None] = [UID, UID, "0A0B0C0D", "0A0B0C0D"]
    assert run_debouncer(Debouncer(confirm=2, release=3), reads) == [
        (PLACED, UID),
        (GONE, UID),
        (PLACED, "0A0B0C0D"),
    ]


class BrokenReader(Reader):
    def read_uid(self) -> str | None:
        raise OSError("SPI glitch")


def test_board_counts_reader_errors_as_nothing_seen() -> None:
    board = Board(BrokenReader(), Link("AB", BOOT))
    frames = frames_of(board.step(0))
    assert [kind for kind, _, _ in frames] == [HELLO, BEAT]
    assert board.read_errors == 1


def test_mfrc522_crc_a_matches_the_iso14443_halt_frame() -> None:
    # HLTA is 50 00 57 CD on the air (ISO/IEC 14443-3).
    assert crc_a(bytes([0x50, 0x00]), 2) == 0xCD57


def test_main_imports_without_micropython() -> None:
    import firmware.main

    assert callable(firmware.main.run)


# --- exactly once over a bad channel -------------------------------------------------------


def corrupt(data: bytes, rng: random.Random, p_drop: float, p_flip: float) -> bytes:
    """Drop whole writes and flip bytes, as a bad cable or a reset might."""
    if rng.random() < p_drop:
        return b""
    out = bytearray(data)
    for i in range(len(out)):
        if rng.random() < p_flip:
            out[i] = rng.randrange(256)
    return bytes(out)


@pytest.mark.parametrize("seed", range(6))
def test_every_tap_arrives_exactly_once_in_order_over_a_lossy_corrupting_link(seed: int) -> None:
    rng = random.Random(seed)
    uids = [f"04{n:012X}" for n in range(60)]
    board = Board(
        ScriptedTags(tap_script(uids, hold=2, gap=3)),
        Link("AB", BOOT, retransmit_ms=100, capacity=256),
        Debouncer(confirm=2, release=3),
    )
    host = LinkDecoder(1, "p", heartbeat_timeout=1e9)
    host.reset()
    events: list[object] = []
    for now in range(0, 60_000, 10):
        if rng.random() < 0.005:
            host.reset()  # the cable was pulled and plugged back in
            events.append("reconnected")
        for frame in board.step(now):
            events += host.feed(corrupt(frame, rng, 0.1, 0.01), now / 1000)
        host.tick(now / 1000)
        board.receive(corrupt(host.take_output(), rng, 0.1, 0.01))
        if board.link.queued == 0 and board.debouncer.present is None and now > 5000:
            break
    presented = [e.uid for e in events if isinstance(e, TagPresented)]
    assert presented == uids
    assert board.link.dropped == 0
    # Within one connection placements and removals alternate, starting with a placement
    # (a reconnection forgets the tag on the reader, as ReaderOffline does).
    expect: type = TagPresented
    for event in events:
        if event == "reconnected":
            expect = TagPresented
        elif isinstance(event, TagPresented | TagRemoved):
            assert type(event) is expect
            expect = TagRemoved if expect is TagPresented else TagPresented
    assert host.duplicates + host.gaps > 0  # the channel really did lose and repeat things
