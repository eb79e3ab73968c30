"""The table's sounds: which cue each event plays, quiet hours, the silent fallback, [sound].

The table is driven through its real input path (mock readers and buttons, the
loop) with a recording speaker in place of pygame's mixer; the mixer itself is
opened with SDL's dummy audio driver (``tests/conftest.py``).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator

import pygame
import pytest

from controller.config.opening_hours import SleepWindow
from controller.config.reading import ConfigError
from controller.config.table_config import SoundConfig, TimerConfig, parse
from controller.games.base import GameOver, TurnPassed
from controller.table import SoundDirector
from controller.tags.registry import SIMULATED_STAFF_UID, simulated_uid
from controller.view import Screen
from hardware.cues import Cue, Sound
from hardware.events import (
    Button,
    ButtonPressed,
    ButtonReleased,
    TagPresented,
    TossStarted,
    TossStopped,
)
from hardware.speakers import TUNES, MixerSounds, open_sounds, pan_volumes, samples
from tests.rigs import TableRig
from tests.words import shown

PAN = (-1.0, -0.5, 0.5, 1.0)  # seats 0..3 from the left speaker to the right


class Speakers:
    """A ``SoundSink`` that keeps what it was asked to play, as (sound, pan)."""

    def __init__(self) -> None:
        self.played: list[tuple[Sound, float]] = []

    def play(self, sound: Sound, pan: float) -> None:
        self.played.append((sound, pan))

    def sounds(self) -> list[Sound]:
        return [sound for sound, _ in self.played]


class Rig(TableRig):
    """A table with recording speakers, every seat a person unless ``bots`` says."""

    def __init__(self, sound: SoundConfig | None = None, **kw: object) -> None:
        self.speakers = Speakers()
        super().__init__(
            sounds=self.speakers,
            sound=sound or SoundConfig(pan=PAN),
            timer=TimerConfig(limit=10.0),
            **kw,  # type: ignore[arg-type]
        )


@pytest.fixture
def rig() -> Iterator[Rig]:
    with Rig().running() as r:
        yield r


def test_a_refused_play_sounds_at_the_refused_seat(rig: Rig) -> None:
    engine = rig.start_oshaka()
    wrong_seat = (engine.turn + 1) % 4
    card = str(engine.registered_hand(wrong_seat)[0])  # type: ignore[index]
    rig.speakers.played.clear()
    rig.tap_uid(wrong_seat, simulated_uid("oshaka", card))
    assert rig.speakers.played == [(Sound.REFUSED, PAN[wrong_seat])]


def test_the_next_seat_hears_its_turn_from_its_side(rig: Rig) -> None:
    engine = rig.start_oshaka()
    rig.speakers.played.clear()
    seat = rig.play_first_legal()
    assert engine.turn == (seat + 1) % 4
    assert rig.speakers.played == [(Sound.YOUR_TURN, PAN[engine.turn])]


def test_a_won_trick_is_heard_instead_of_the_turn_it_passes(rig: Rig) -> None:
    rig.start_oshaka()
    for _ in range(3):
        rig.play_first_legal()
    rig.speakers.played.clear()
    rig.play_first_legal()  # the fourth card completes the trick
    assert rig.speakers.played == [(Sound.TRICK_WON, 0.0)]


def test_a_bot_game_sounds_its_rounds_and_its_end_but_no_bot_turns() -> None:
    rig = Rig(bots=4)
    with rig.devices:
        sim = rig.bots("oshaka-trick")
        rig.loop.drain()
        rig.play_to_results(sim)
    heard = rig.speakers.sounds()
    assert Sound.YOUR_TURN not in heard  # bots sit at every seat
    assert heard[-1] is Sound.GAME_WON and heard.count(Sound.GAME_WON) == 1
    assert Sound.ROUND_OVER in heard and Sound.TRICK_WON in heard


def test_the_toss_timer_starts_warns_and_stops_in_a_game(rig: Rig) -> None:
    rig.table.handle(TossStarted("toss", at=rig.now))  # between games it times nothing
    assert rig.speakers.played == []
    rig.start_oshaka()
    rig.speakers.played.clear()
    rig.table.handle(TossStarted("toss", at=rig.now))
    rig.now += 6.9
    rig.table.tick(rig.now)  # the limit is 10 s: not yet the last seconds
    rig.now += 0.2
    rig.table.tick(rig.now)
    rig.now += 1.0
    rig.table.tick(rig.now)  # warned once only
    rig.table.handle(TossStopped("toss", rig.now - 8.1, rig.now, 8.1, rig.now))
    assert rig.speakers.sounds() == [Sound.TIMER_START, Sound.TIMER_WARNING, Sound.TIMER_STOP]


def test_staff_answering_a_call_is_heard_at_the_calling_seat(rig: Rig) -> None:
    rig.table.handle(ButtonPressed(2, Button.OK, 20.0))
    rig.table.handle(ButtonReleased(2, Button.OK, 23.5))  # held: a call for staff
    rig.speakers.played.clear()
    rig.table.handle(TagPresented(2, SIMULATED_STAFF_UID, 24.0))
    assert "Staff answered the call of Seat 3" in [shown(m.text) for m in rig.table.messages]
    assert (Sound.STAFF_ANSWERED, PAN[2]) in rig.speakers.played


def test_only_the_listed_cues_play() -> None:
    rig = Rig(SoundConfig(cues=frozenset({Sound.REFUSED})))
    with rig.devices:
        engine = rig.start_oshaka()
        rig.play_first_legal()  # its turn passes: not listed
        assert rig.speakers.played == []
        rig.tap_uid(engine.turn, simulated_uid("standard-52", "AS"))  # refused
        assert rig.speakers.played == [(Sound.REFUSED, 0.0)]  # no pan set: the middle


def test_quiet_hours_keep_the_table_silent() -> None:
    rig = Rig(SoundConfig(quiet=SleepWindow.parse("00:00-24:00")))  # quiet all day
    with rig.devices:
        engine = rig.start_oshaka()
        rig.play_first_legal()
        rig.tap_uid(engine.turn, simulated_uid("standard-52", "AS"))
        assert rig.table.screen is Screen.PLAY and rig.speakers.played == []


def director(
    settings: SoundConfig, wall: dt.datetime, people: tuple[int, ...] = (0, 1)
) -> tuple[SoundDirector, Speakers]:
    speakers = Speakers()
    return SoundDirector(lambda: speakers, lambda: settings, people, lambda: wall), speakers


def test_quiet_hours_are_a_daily_window() -> None:
    quiet = SoundConfig(quiet=SleepWindow.parse("23:00-09:00"))
    for hour, heard in ((22, True), (23, False), (3, False), (9, True)):
        sounds, speakers = director(quiet, dt.datetime(2026, 12, 1, hour, 30))
        sounds.flashed(0, Cue.REFUSED)
        assert sounds.flush(0.0) is (Sound.REFUSED if heard else None)
        assert len(speakers.played) == int(heard)


def test_the_most_important_sound_due_plays_alone() -> None:
    sounds, speakers = director(SoundConfig(), dt.datetime(2026, 12, 1, 20, 0))
    sounds.waiting([1])
    sounds.events({TurnPassed: Sound.TRICK_WON, GameOver: Sound.GAME_WON}, [TurnPassed(1)])
    sounds.flashed(0, Cue.REFUSED)
    assert sounds.flush(0.0) is Sound.TRICK_WON
    sounds.events({GameOver: Sound.GAME_WON}, [GameOver((1, 2), (1,))])
    sounds.flashed(1, Cue.TRICK_WON)  # a flash that is only seen
    assert sounds.flush(0.0) is Sound.GAME_WON
    assert sounds.flush(0.0) is None  # nothing left over for later
    assert speakers.sounds() == [Sound.TRICK_WON, Sound.GAME_WON]


def test_a_turn_is_heard_when_it_comes_not_while_it_stays() -> None:
    sounds, speakers = director(SoundConfig(), dt.datetime(2026, 12, 1, 20, 0), people=(0, 1))
    for waiting in ([0], [0], [2], [1], []):
        sounds.waiting(waiting)
        sounds.flush(0.0)
    assert speakers.sounds() == [Sound.YOUR_TURN, Sound.YOUR_TURN]  # seat 0, then seat 1


def test_a_short_limit_warns_half_way() -> None:
    sounds, speakers = director(SoundConfig(), dt.datetime(2026, 12, 1, 20, 0))
    sounds.timer(TossStarted("toss", at=50.0), limit=4.0)
    sounds.flush(50.0)
    assert sounds.flush(51.9) is None
    assert sounds.flush(52.0) is Sound.TIMER_WARNING
    assert speakers.sounds() == [Sound.TIMER_START, Sound.TIMER_WARNING]


# --- the mixer ------------------------------------------------------------------------


@pytest.fixture
def no_mixer() -> Iterator[None]:
    pygame.mixer.quit()
    yield
    pygame.mixer.quit()


def test_every_sound_is_synthesised_short_and_below_full_scale() -> None:
    assert set(TUNES) == set(Sound)
    for sound, notes in TUNES.items():
        data = samples(notes, rate=8000)
        end = max(n.start + n.length for n in notes)
        assert len(data) == int(end * 8000) + 1 and end <= 1.0, sound
        assert 0.3 * 32767 < max(abs(v) for v in data) <= 0.45 * 32767, sound


def test_the_mixer_plays_every_sound_without_waiting(no_mixer: None) -> None:
    speakers = open_sounds(0.5, set(Sound))
    assert isinstance(speakers, MixerSounds)
    for sound in Sound:
        speakers.play(sound, pan=-1.0)
        assert pygame.mixer.Sound.get_volume(speakers.sounds[sound]) == pytest.approx(0.5, 0.01)
    speakers.close()
    speakers.close()  # twice is harmless
    assert pygame.mixer.get_init() is None


def test_sounds_are_synthesised_after_start_up_not_before(no_mixer: None) -> None:
    # Made at start-up they cost the kiosk's start 0.15 s of CPU before READY=1.
    speakers = open_sounds(0.5, set(Sound))
    assert isinstance(speakers, MixerSounds)
    assert speakers._made == {}
    speakers.play(Sound.REFUSED, pan=1.0)  # one asked for before the rest: made then
    assert set(speakers._made) == {Sound.REFUSED}
    speakers.prepare_in_background()
    assert speakers._preparing is not None
    speakers._preparing.join(timeout=30)
    assert set(speakers._made) == set(Sound)
    speakers.close()


def test_pan_keeps_the_loudness_and_places_the_sound() -> None:
    left, right = pan_volumes(-1.0)
    assert left == pytest.approx(1.0) and right == pytest.approx(0.0, abs=1e-9)
    middle = pan_volumes(0.0)
    assert middle[0] == pytest.approx(middle[1]) and sum(v * v for v in middle) == pytest.approx(1)


def test_no_audio_device_is_one_line_and_a_silent_table(
    no_mixer: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    with caplog.at_level(logging.INFO, logger="hardware.speakers"):
        assert open_sounds(0.7, set(Sound)) is None
    assert [r.getMessage() for r in caplog.records] == [
        "no sound: Audio target 'no-such-driver' not available; the table runs silent"
    ]
    assert pygame.mixer.get_init() is None


def test_sound_turned_off_never_opens_the_mixer(
    no_mixer: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="hardware.speakers"):
        assert open_sounds(0.0, set(Sound)) is None
        assert open_sounds(0.7, ()) is None
    assert len(caplog.records) == 2 and pygame.mixer.get_init() is None


# --- [sound] in table.toml --------------------------------------------------------------


def test_sound_section_read() -> None:
    config = parse(
        {
            "display": {"sleep": "02:00-10:00"},
            "sound": {"volume": 0.4, "cues": ["your_turn", "game_won"], "pan": [-1, 0, 0.5, 1]},
        }
    )
    assert config.sound == SoundConfig(
        volume=0.4,
        cues=frozenset({Sound.YOUR_TURN, Sound.GAME_WON}),
        quiet=SleepWindow.parse("02:00-10:00"),  # follows [display] sleep
        pan=(-1.0, 0.0, 0.5, 1.0),
    )
    assert parse({}).sound == SoundConfig()  # every cue, never quiet, from the middle
    assert (
        parse({"display": {"sleep": "02:00-10:00"}, "sound": {"quiet": "never"}}).sound.quiet
        is None
    )
    quiet = parse({"sound": {"quiet": "22:00-11:00"}}).sound.quiet
    assert quiet == SleepWindow.parse("22:00-11:00")


@pytest.mark.parametrize(
    ("sound", "message"),
    [
        (
            {"volume": 2},
            "table.toml: sound.volume must be a number 0.0..1.0, not 2; fix it",
        ),
        (
            {"cues": ["your_turn", "bell"]},
            "table.toml: sound.cues is ['your_turn', 'bell']; list the sounds that play, from: "
            "game_won, round_over, trick_won, refused, staff_answered, timer_warning, "
            "timer_stop, timer_start, your_turn (an empty list [] plays none)",
        ),
        (
            {"quiet": "late"},
            "table.toml: sound.quiet is 'late' (write the start and end joined by '-'); "
            'write e.g. "02:00-10:00"',
        ),
        (
            {"pan": [-1, 1]},
            "table.toml: sound.pan is [-1, 1]; give one number per seat (4 in all), "
            "from -1 (left speaker) to 1 (right speaker)",
        ),
        (
            {"pan": [-1, 0, 1, 3]},
            "table.toml: sound.pan is [-1, 0, 1, 3]; give one number per seat (4 in all), "
            "from -1 (left speaker) to 1 (right speaker)",
        ),
        (
            {"loud": True},
            "table.toml: sound.loud is not a setting the table knows; "
            "use one of: cues, pan, quiet, volume",
        ),
    ],
)
def test_sound_section_refusals_say_what_to_write(sound: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse({"sound": sound})
    assert shown(refused.value.text) == message
