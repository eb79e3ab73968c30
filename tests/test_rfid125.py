"""125 kHz readers (RDM6300, ID-12LA): frames, split anywhere, checksums, the two-frame rule,
repeat suppression, removal by silence, fuzzing, and a live reader over a pseudo-terminal."""

from __future__ import annotations

import queue
import random
import sys

import pytest

from hardware.errors import HardwareConfigError
from hardware.events import (
    EventQueue,
    InputEvent,
    ReaderOnline,
    ReaderProblem,
    TagPresented,
    TagRemoved,
)
from hardware.rfid125 import (
    ID12LA,
    RDM6300,
    Rfid125Bad,
    Rfid125Decoder,
    Rfid125Frame,
    Rfid125Parser,
    Rfid125Reader,
    frame_for,
)

WAIT = 5.0
TAG = "0F00A1B2C3"
OTHER = "1300ABCDEF"


def test_frame_formats_match_the_datasheets() -> None:
    # 0F ^ 00 ^ A1 ^ B2 ^ C3 = 0xDF
    assert frame_for(RDM6300, TAG) == b"\x020F00A1B2C3DF\x03"
    assert len(frame_for(RDM6300, TAG)) == 14
    assert frame_for(ID12LA, TAG) == b"\x020F00A1B2C3DF\r\n\x03"
    assert len(frame_for(ID12LA, TAG)) == 16
    with pytest.raises(HardwareConfigError):
        frame_for(RDM6300, "0F00A1")


@pytest.mark.parametrize("kind", [RDM6300, ID12LA])
def test_parser_reads_frames_split_at_every_byte_boundary(kind: str) -> None:
    stream = frame_for(kind, TAG) + frame_for(kind, OTHER) + frame_for(kind, TAG)
    expected = [Rfid125Frame(TAG), Rfid125Frame(OTHER), Rfid125Frame(TAG)]
    assert Rfid125Parser(kind).feed(stream) == expected
    for cut in range(len(stream) + 1):
        parser = Rfid125Parser(kind)
        assert parser.feed(stream[:cut]) + parser.feed(stream[cut:]) == expected, cut
    parser = Rfid125Parser(kind)
    assert [f for i in range(len(stream)) for f in parser.feed(stream[i : i + 1])] == expected


@pytest.mark.parametrize("kind", [RDM6300, ID12LA])
def test_parser_refuses_bad_checksums_and_malformed_frames(kind: str) -> None:
    parser = Rfid125Parser(kind)
    bad_sum = frame_for(kind, TAG, checksum=0x00)
    out = parser.feed(bad_sum + b"\x02NOTHEXDIGITS" + b"\x03" * 4 + frame_for(kind, TAG))
    assert isinstance(out[0], Rfid125Bad) and "checksum" in out[0].message
    assert out[-1] == Rfid125Frame(TAG)
    assert all(isinstance(item, Rfid125Bad) for item in out[:-1])


def test_parser_resynchronises_at_stx_after_a_cut_frame() -> None:
    out = Rfid125Parser(RDM6300).feed(b"\x020F00A1" + frame_for(RDM6300, TAG))
    assert isinstance(out[0], Rfid125Bad) and "cut short" in out[0].message
    assert out[1] == Rfid125Frame(TAG)


def test_id12la_needs_its_cr_lf_tail() -> None:
    out = Rfid125Parser(ID12LA).feed(frame_for(RDM6300, TAG) + b"\x03\x03\x03")
    assert not [item for item in out if isinstance(item, Rfid125Frame)]


def test_unknown_kind_is_a_config_error() -> None:
    with pytest.raises(HardwareConfigError):
        Rfid125Parser("em4100")


# --- the decoder --------------------------------------------------------------------


def tags(events: list[InputEvent]) -> list[InputEvent]:
    return [e for e in events if isinstance(e, TagPresented | TagRemoved)]


def test_rdm6300_needs_two_matching_frames_and_repeats_are_one_tap() -> None:
    decoder = Rfid125Decoder(0, "p", RDM6300, gone_after=0.5)
    frame = frame_for(RDM6300, TAG)
    assert decoder.feed(frame, 1.0) == []  # one frame is not yet a tag
    assert decoder.feed(frame, 1.1) == [TagPresented(0, TAG, 1.1)]
    for i in range(20):  # the reader repeats while the tag stays
        assert decoder.feed(frame, 1.2 + i * 0.1) == []
        assert decoder.tick(1.25 + i * 0.1) == []
    assert decoder.tick(3.5) == []
    assert decoder.tick(3.7) == [TagRemoved(0, 3.7)]  # over 0.5 s without a frame
    assert decoder.feed(frame, 4.0) == []
    assert decoder.feed(frame, 4.1) == [TagPresented(0, TAG, 4.1)]


def test_a_lone_phantom_frame_never_counts() -> None:
    decoder = Rfid125Decoder(0, "p", RDM6300)
    assert decoder.feed(frame_for(RDM6300, OTHER), 1.0) == []
    assert decoder.feed(frame_for(RDM6300, TAG), 1.1) == []  # a different id resets the count
    assert decoder.feed(frame_for(RDM6300, OTHER), 1.2) == []
    assert decoder.feed(frame_for(RDM6300, OTHER), 2.0) == []  # too long after the first
    assert decoder.feed(frame_for(RDM6300, OTHER), 2.1) == [TagPresented(0, OTHER, 2.1)]


def test_a_new_tag_while_one_is_present_removes_the_first() -> None:
    decoder = Rfid125Decoder(0, "p", RDM6300)
    decoder.feed(frame_for(RDM6300, TAG) * 2, 1.0)
    assert decoder.feed(frame_for(RDM6300, OTHER) * 2, 1.1) == [
        TagRemoved(0, 1.1),
        TagPresented(0, OTHER, 1.1),
    ]


def test_id12la_counts_its_single_frame_and_removes_by_silence() -> None:
    decoder = Rfid125Decoder(1, "p", ID12LA)
    assert decoder.confirm == 1
    assert decoder.feed(frame_for(ID12LA, TAG), 1.0) == [TagPresented(1, TAG, 1.0)]
    assert decoder.tick(1.6) == [TagRemoved(1, 1.6)]


def test_bad_frames_are_rate_limited_problems() -> None:
    decoder = Rfid125Decoder(2, "/dev/ttyAMA0", RDM6300)
    events = decoder.feed(frame_for(RDM6300, TAG, checksum=0) * 10, 1.0)
    assert len(events) == 1 and isinstance(events[0], ReaderProblem)
    assert "seat 2's RDM6300 reader at /dev/ttyAMA0" in events[0].message
    assert decoder.bad_frames == 10


@pytest.mark.parametrize("kind", [RDM6300, ID12LA])
def test_100000_fuzzed_bytes_never_make_a_card(kind: str) -> None:
    rng = random.Random(125)
    decoder = Rfid125Decoder(0, "p", kind)
    alphabet = bytes(range(256)) + b"\x02\x03\r\n0123456789ABCDEF" * 8
    events: list[InputEvent] = []
    fed = 0
    while fed < 100_000:
        chunk = bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 300)))
        events += decoder.feed(chunk, fed / 1000)
        fed += len(chunk)
    assert tags(events) == []
    assert decoder.bad_frames > 100


@pytest.mark.parametrize("kind", [RDM6300, ID12LA])
def test_corrupted_frames_never_make_a_wrong_card(kind: str) -> None:
    rng = random.Random(6300)
    decoder = Rfid125Decoder(0, "p", kind, confirm=2)
    stream = frame_for(kind, TAG) * 5000
    noisy = bytearray(stream)
    for _ in range(len(noisy) // 20):  # one byte in twenty replaced
        noisy[rng.randrange(len(noisy))] = rng.randrange(256)
    uids = {e.uid for e in decoder.feed(bytes(noisy), 1.0) if isinstance(e, TagPresented)}
    assert uids <= {TAG}


# --- a live reader over a pseudo-terminal ------------------------------------------------------

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


@posix_only
@pytest.mark.parametrize("kind", [RDM6300, ID12LA])
def test_live_reader_over_a_pseudo_terminal_survives_fuzz(kind: str) -> None:
    from hardware.ptys import PtyPair

    rng = random.Random(12)
    events: EventQueue = queue.SimpleQueue()
    with PtyPair() as board, Rfid125Reader(4, board.slave_path, events, kind=kind) as reader:
        assert isinstance(events.get(timeout=WAIT), ReaderOnline)
        alphabet = bytes(range(256)) + b"\x02\x03\r\n0123456789ABCDEF" * 8
        for _ in range(100):
            board.write(bytes(rng.choice(alphabet) for _ in range(1000)))
        frame = frame_for(kind, TAG)
        board.write(frame[:5])  # split across writes
        board.write(frame[5:] + frame)
        while True:
            event = events.get(timeout=WAIT)
            if isinstance(event, TagPresented | TagRemoved):
                break
        assert event == TagPresented(4, TAG, event.at)
        assert reader.is_open
        assert isinstance(events.get(timeout=WAIT), TagRemoved | ReaderProblem)
