"""Seat readers: the pure line parser, the decoder, the mock, and a real pseudo-terminal."""

from __future__ import annotations

import itertools
import queue
import random
import sys
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.errors import DeviceClosed, HardwareConfigError, HardwareError, ReaderUnavailable
from hardware.events import (
    EventQueue,
    InputEvent,
    ReaderOffline,
    ReaderOnline,
    ReaderProblem,
    TagPresented,
    TagRemoved,
)
from hardware.line_protocol import (
    MAX_LINE,
    BadLine,
    GoneLine,
    HelloLine,
    LineParser,
    ReaderFrame,
    SeatLineDecoder,
    SerialLineReader,
    TagLine,
)
from hardware.mock_reader import MockReader
from hardware.reader_factory import reader_from_setting
from hardware.uids import normalize_uid

WAIT = 5.0  # seconds to wait for a thread's event before failing

STREAM = b"HELLO cafe-reader 1.0\r\nTAG 04a1b2c3d4e5f6\nGONE\n\nTAG 0A0B0C0D\r\nGONE\n"
STREAM_FRAMES: list[ReaderFrame] = [
    HelloLine("cafe-reader 1.0"),
    TagLine("04A1B2C3D4E5F6"),
    GoneLine(),
    TagLine("0A0B0C0D"),
    GoneLine(),
]


def feed_all(parser: LineParser, chunks: list[bytes]) -> list[ReaderFrame]:
    frames: list[ReaderFrame] = []
    for chunk in chunks:
        frames.extend(parser.feed(chunk))
    return frames


# --- normalize_uid -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "uid"),
    [("04a1b2c3", "04A1B2C3"), (" 04A1B2C3D4E5F6 ", "04A1B2C3D4E5F6"), ("00" * 10, "00" * 10)],
)
def test_normalize_uid_accepts_4_to_10_bytes(text: str, uid: str) -> None:
    assert normalize_uid(text) == uid


@pytest.mark.parametrize("text", ["", "04A1B2", "04A1B2C", "04A1B2CZ", "00" * 11, "04:A1:B2:C3"])
def test_normalize_uid_refuses_bad_uids(text: str) -> None:
    with pytest.raises(HardwareConfigError):
        normalize_uid(text)
    with pytest.raises(ValueError):  # the builtin a generic caller expects
        normalize_uid(text)


# --- LineParser ----------------------------------------------------------------------


def test_parser_reads_a_whole_stream() -> None:
    assert LineParser().feed(STREAM) == STREAM_FRAMES


def test_parser_gives_the_same_frames_for_a_split_at_every_byte_boundary() -> None:
    for cut in range(len(STREAM) + 1):
        frames = feed_all(LineParser(), [STREAM[:cut], STREAM[cut:]])
        assert frames == STREAM_FRAMES, f"split at byte {cut}"


def test_parser_gives_the_same_frames_for_every_pair_of_split_points() -> None:
    for first, second in itertools.combinations(range(len(STREAM) + 1), 2):
        chunks = [STREAM[:first], STREAM[first:second], STREAM[second:]]
        assert feed_all(LineParser(), chunks) == STREAM_FRAMES, f"splits at {first}, {second}"


def test_parser_reads_one_byte_at_a_time() -> None:
    chunks = [STREAM[i : i + 1] for i in range(len(STREAM))]
    assert feed_all(LineParser(), chunks) == STREAM_FRAMES


@given(st.lists(st.integers(min_value=0, max_value=len(STREAM)), max_size=12))
def test_parser_is_indifferent_to_any_chunking(cuts: list[int]) -> None:
    points = [0, *sorted(cuts), len(STREAM)]
    chunks = [STREAM[a:b] for a, b in itertools.pairwise(points)]
    assert feed_all(LineParser(), chunks) == STREAM_FRAMES


def test_parser_waits_for_the_newline() -> None:
    parser = LineParser()
    assert parser.feed(b"TAG 04A1B2C3") == []
    assert parser.feed(b"\n") == [TagLine("04A1B2C3")]


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (b"\xff\xfeTAG 04A1B2C3\n", "not ASCII"),
        (b"TAG 04A1\x00B2C3\n", "control characters"),
        (b"TAG 04A1B2CZ\n", "bad uid"),
        (b"TAG\n", "bad uid"),
        (b"TAGG 04A1B2C3\n", "unknown line"),
        (b"GONE now\n", "unknown line"),
        (b"tag 04A1B2C3\n", "unknown line"),
    ],
)
def test_parser_reports_corrupt_lines_and_never_makes_a_tag(line: bytes, words: str) -> None:
    frames = LineParser().feed(line)
    assert len(frames) == 1
    assert isinstance(frames[0], BadLine)
    assert words in frames[0].message


def test_parser_recovers_after_a_corrupt_line() -> None:
    frames = LineParser().feed(b"TA\xffG 1234\nTAG 04A1B2C3\n")
    assert [type(f) for f in frames] == [BadLine, TagLine]
    assert frames[1] == TagLine("04A1B2C3")


def test_parser_reports_an_overlong_line_once_and_drops_the_rest_of_it() -> None:
    parser = LineParser()
    babble = b"X" * (MAX_LINE * 3)
    frames = parser.feed(babble[:100]) + parser.feed(babble[100:]) + parser.feed(b"\nGONE\n")
    assert len(frames) == 2
    assert isinstance(frames[0], BadLine)
    assert "longer than" in frames[0].message
    assert frames[1] == GoneLine()


def test_parser_accepts_a_line_of_exactly_max_length_and_refuses_one_more() -> None:
    tag = b"TAG " + b"A" * 20
    padded_ok = tag + b" " * (MAX_LINE - len(tag))
    assert LineParser().feed(padded_ok + b"\r\n") == [TagLine("A" * 20)]
    frames = LineParser().feed(padded_ok + b" \n")
    assert len(frames) == 1 and isinstance(frames[0], BadLine)


def test_parser_reset_forgets_an_unfinished_line() -> None:
    parser = LineParser()
    parser.feed(b"TAG 04A1")
    parser.reset()
    assert parser.feed(b"GONE\n") == [GoneLine()]


# --- SeatLineDecoder -------------------------------------------------------------------


def test_decoder_makes_events_with_the_given_time() -> None:
    decoder = SeatLineDecoder(seat=2, port="/dev/ttyUSB3")
    assert decoder.feed(b"TAG 04a1b2c3\n", at=10.0) == [TagPresented(2, "04A1B2C3", 10.0)]
    assert decoder.feed(b"GONE\n", at=11.5) == [TagRemoved(2, 11.5)]


def test_decoder_keeps_presented_and_removed_alternating() -> None:
    decoder = SeatLineDecoder(seat=1, port="p")
    assert decoder.feed(b"GONE\n", 1.0) == []  # nothing was present
    assert decoder.feed(b"TAG 04A1B2C3\n", 2.0) == [TagPresented(1, "04A1B2C3", 2.0)]
    assert decoder.feed(b"TAG 04A1B2C3\n", 3.0) == []  # a repeat is not a new tag
    assert decoder.feed(b"TAG 0A0B0C0D\n", 4.0) == [
        TagRemoved(1, 4.0),
        TagPresented(1, "0A0B0C0D", 4.0),
    ]
    assert decoder.present_uid == "0A0B0C0D"


def test_decoder_turns_bad_lines_into_problems_naming_seat_and_port() -> None:
    decoder = SeatLineDecoder(seat=2, port="/dev/ttyUSB3")
    events = decoder.feed(b"HELLO x\nWHAT\n", 5.0)
    assert len(events) == 1
    problem = events[0]
    assert isinstance(problem, ReaderProblem)
    assert problem.seat == 2 and problem.at == 5.0
    assert "seat 2's reader at /dev/ttyUSB3" in problem.message
    assert "WHAT" in problem.message


def test_80_kb_of_noise_is_one_problem_a_second_and_tags_still_get_through() -> None:
    # Issue 14: a babbling board made one problem per bad line (327 for 80 KB).
    rng = random.Random(14)
    decoder = SeatLineDecoder(seat=1, port="/dev/ttyUSB1")
    events: list[InputEvent] = []
    fed = 0
    while fed < 80_000:
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        events += decoder.feed(noise + b"\n", fed / 40_000)  # 80 KB over 2 simulated seconds
        fed += len(noise) + 1
    events += decoder.feed(b"TAG 04A1B2C3\n", 2.5)
    problems = [e for e in events if isinstance(e, ReaderProblem)]
    assert [e for e in events if not isinstance(e, ReaderProblem)] == [
        TagPresented(1, "04A1B2C3", 2.5)
    ]
    assert decoder.bad_lines > 300
    assert [p.at for p in problems] == sorted(p.at for p in problems)
    assert len(problems) == 2  # at 0 s and once a second after: the 2 s one lies ahead
    assert all(b.at - a.at >= 1.0 for a, b in itertools.pairwise(problems))
    assert "more since" not in problems[0].message
    assert "more since)" in problems[1].message


def test_held_back_problems_are_counted_in_the_next_report() -> None:
    decoder = SeatLineDecoder(seat=0, port="p")
    assert len(decoder.feed(b"WHAT\n", 0.0)) == 1
    for tenth in range(1, 10):
        assert decoder.feed(b"WHAT\n", tenth / 10) == []
    (problem,) = decoder.feed(b"WHAT\n", 1.0)
    assert isinstance(problem, ReaderProblem)
    assert problem.message.endswith("(and 9 more since)")
    assert decoder.bad_lines == 11
    assert decoder.feed(b"WHAT\n", 1.5) == []
    (problem,) = decoder.feed(b"WHAT\n", 2.0)
    assert isinstance(problem, ReaderProblem)
    assert problem.message.endswith("(and 1 more since)")


# --- MockReader ------------------------------------------------------------------------------


def drain(events: EventQueue) -> list[InputEvent]:
    out: list[InputEvent] = []
    while True:
        try:
            out.append(events.get_nowait())
        except queue.Empty:
            return out


def test_mock_reader_scripts_a_tag_and_records_what_it_sent() -> None:
    events: EventQueue = queue.SimpleQueue()
    clock = itertools.count(100.0).__next__
    with MockReader(3, events, clock=clock) as reader:
        reader.present("04a1b2c3")
        assert reader.present_uid == "04A1B2C3"
        reader.remove()
    expected: list[InputEvent] = [
        ReaderOnline(3, "mock", 100.0),
        TagPresented(3, "04A1B2C3", 101.0),
        TagRemoved(3, 102.0),
        ReaderOffline(3, "mock", "closed", 103.0),
    ]
    assert drain(events) == expected
    assert list(reader.sent) == expected


def test_mock_reader_follows_the_real_readers_ordering_rules() -> None:
    events: EventQueue = queue.SimpleQueue()
    reader = MockReader(0, events, clock=lambda: 1.0)
    reader.open()
    reader.open()  # idempotent: no second ReaderOnline
    reader.remove()  # nothing present: nothing sent
    reader.present("04A1B2C3")
    reader.present("04A1B2C3")  # repeat: nothing sent
    reader.present("0A0B0C0D")  # swap: removed, then presented
    assert drain(events) == [
        ReaderOnline(0, "mock", 1.0),
        TagPresented(0, "04A1B2C3", 1.0),
        TagRemoved(0, 1.0),
        TagPresented(0, "0A0B0C0D", 1.0),
    ]
    reader.close()
    reader.close()  # idempotent: one ReaderOffline
    assert drain(events) == [ReaderOffline(0, "mock", "closed", 1.0)]


def test_mock_reader_refuses_scripting_while_closed_and_bad_uids() -> None:
    events: EventQueue = queue.SimpleQueue()
    reader = MockReader(1, events)
    with pytest.raises(DeviceClosed, match="seat 1's mock reader"):
        reader.present("04A1B2C3")
    with reader, pytest.raises(HardwareConfigError):
        reader.present("not-a-uid")
    assert [type(e) for e in reader.sent] == [ReaderOnline, ReaderOffline]


def test_mock_reader_can_report_problems_and_be_unplugged() -> None:
    events: EventQueue = queue.SimpleQueue()
    reader = MockReader(4, events, clock=lambda: 7.0)
    reader.open()
    reader.present("04A1B2C3")
    reader.report_problem("sent garbage")
    reader.unplug()
    assert not reader.is_open
    assert reader.present_uid is None
    assert list(reader.sent)[-2:] == [
        ReaderProblem(4, "sent garbage", 7.0),
        ReaderOffline(4, "mock", "lost the connection: unplugged", 7.0),
    ]


def test_reader_from_setting_picks_the_backend() -> None:
    events: EventQueue = queue.SimpleQueue()
    assert isinstance(reader_from_setting(0, "mock", events), MockReader)
    serial_reader = reader_from_setting(1, "/dev/ttyUSB0", events)
    assert isinstance(serial_reader, SerialLineReader)
    assert serial_reader.port == "/dev/ttyUSB0" and not serial_reader.is_open
    assert events.empty()  # building a reader claims and sends nothing


# --- SerialLineReader over a real pseudo-terminal --------------------------------------------

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


def next_event(events: EventQueue) -> InputEvent:
    return events.get(timeout=WAIT)


@posix_only
def test_serial_reader_over_a_pseudo_terminal() -> None:
    from hardware.ptys import PtyPair

    events: EventQueue = queue.SimpleQueue()
    with PtyPair() as board, SerialLineReader(2, board.slave_path, events) as reader:
        online = next_event(events)
        assert online == ReaderOnline(2, board.slave_path, online.at)
        assert reader.is_open

        before = time.monotonic()
        board.write(b"TAG 04a1b2c3d4e5f6\r\n")
        presented = next_event(events)
        assert isinstance(presented, TagPresented)
        assert (presented.seat, presented.uid) == (2, "04A1B2C3D4E5F6")
        assert before <= presented.at <= time.monotonic()

        board.write(b"GO")  # a frame split across two writes
        board.write(b"NE\n")
        assert isinstance(next_event(events), TagRemoved)

        board.write(b"\xff\xfe\x00garbage TAG 04A1B2C3\nTAG 0A0B0C0D\n")
        problem = next_event(events)
        assert isinstance(problem, ReaderProblem)
        assert f"seat 2's reader at {board.slave_path}" in problem.message
        # The corrupt line made no tag: the next event is the valid line's tag.
        follow = next_event(events)
        assert isinstance(follow, TagPresented) and follow.uid == "0A0B0C0D"

    offline = next_event(events)
    assert isinstance(offline, ReaderOffline)
    assert offline.reason == "closed"
    assert not reader.is_open
    reader.close()  # idempotent
    assert events.empty()


@posix_only
def test_serial_reader_reports_a_pulled_cable_and_can_be_reopened() -> None:
    from hardware.ptys import PtyPair

    events: EventQueue = queue.SimpleQueue()
    board = PtyPair().open()
    reader = SerialLineReader(0, board.slave_path, events)
    try:
        reader.open()
        assert isinstance(next_event(events), ReaderOnline)
        board.hang_up()
        offline = next_event(events)
        assert isinstance(offline, ReaderOffline)
        assert offline.reason.startswith("lost the connection")

        board.close()
        board = PtyPair().open()  # a new board, as after replugging on a new port
        reader.port = board.slave_path
        # Retry after the thread ended: it reports the loss before it finishes, and an
        # open() while it still runs does nothing (the reader is still open). On a
        # loaded machine the test got there first and waited in vain for ReaderOnline.
        deadline = time.monotonic() + WAIT
        while reader.is_open and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not reader.is_open
        reader.open()
        assert isinstance(next_event(events), ReaderOnline)
        board.write(b"TAG 04A1B2C3\n")
        presented = next_event(events)
        assert isinstance(presented, TagPresented) and presented.uid == "04A1B2C3"
    finally:
        reader.close()
        board.close()


@posix_only
def test_serial_reader_claims_its_port_exclusively() -> None:
    from hardware.ptys import PtyPair

    events: EventQueue = queue.SimpleQueue()
    with PtyPair() as board, SerialLineReader(0, board.slave_path, events):
        second = SerialLineReader(1, board.slave_path, events)
        with pytest.raises(ReaderUnavailable, match="in use by another program"):
            second.open()
        assert not second.is_open
        second.close()  # closing a reader that never opened is fine


def test_opening_a_missing_port_says_what_to_do() -> None:
    events: EventQueue = queue.SimpleQueue()
    reader = SerialLineReader(2, "/dev/ttyUSB-cafe-table-missing", events)
    with pytest.raises(ReaderUnavailable) as caught:
        reader.open()
    message = str(caught.value)
    assert "seat 2's reader at /dev/ttyUSB-cafe-table-missing is not there" in message
    assert "check its USB cable" in message and '"mock"' in message
    assert isinstance(caught.value, HardwareError) and isinstance(caught.value, OSError)
    assert not reader.is_open
    assert events.empty()


class VanishingPort:
    """A stand-in serial port whose in_waiting fails as a vanished USB adapter's does."""

    is_open = True

    @property
    def in_waiting(self) -> int:
        raise OSError(5, "Input/output error")

    def read(self, size: int) -> bytes:
        raise AssertionError("read() should not be reached")

    def cancel_read(self) -> None:
        pass

    def close(self) -> None:
        self.is_open = False


def test_a_bare_oserror_from_in_waiting_still_reports_the_reader_offline() -> None:
    # pyserial's own ReaderThread dies silently here (pyserial issue #401).
    from hardware.serial_stream import _ReaderThread, _SerialProtocol

    events: EventQueue = queue.SimpleQueue()
    decoder = SeatLineDecoder(seat=5, port="/dev/ttyUSB5")
    thread = _ReaderThread(VanishingPort(), lambda: _SerialProtocol(decoder, events, lambda: 1.0))
    thread.start()
    assert next_event(events) == ReaderOnline(5, "/dev/ttyUSB5", 1.0)
    offline = next_event(events)
    assert isinstance(offline, ReaderOffline)
    assert offline.reason == "lost the connection: [Errno 5] Input/output error"
    thread.close()
    assert not thread.is_alive()
