"""The table's parts on their own: the replay loop, the game session, lobby, staff mode, LEDs.

The table tests drive these through mock devices; here each part is checked
directly, where a fault is easiest to read.
"""

from __future__ import annotations

import random

import pytest

from controller.adapters import TableSettings, adapter_for
from controller.config.table_config import TableConfig
from controller.games import spec_of
from controller.games.base import JSON, Chance, TableError
from controller.records.record import ActionRefused, RecordError, replay, replay_actions
from controller.table import GameSession, menu_entries
from controller.table.led_director import LedDirector
from controller.table.lobby import Lobby
from controller.table.staff_mode import StaffCommand, StaffMode
from display import scenes
from display.generic import GenericScene
from display.scenes import GENERIC, register_scene, scene_for
from hardware.cues import Cue
from hardware.events import Button
from tests.words import shown

VIRTUAL = TableSettings(chance=Chance(cards=True, dice=True))


class JournalLog:
    """A JournalSink that keeps what it was told, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    def game_started(self, game_id: str, players: list[int], header: JSON, seed: int) -> None:
        self.calls.append(("start", game_id))

    def action_accepted(self, action: JSON, chance: bool) -> None:
        self.calls.append(("action", action))

    def deal_accepted(self, actions: list[JSON]) -> None:
        self.calls.append(("deal", len(actions)))

    def correction(self, kind: str, detail: JSON) -> None:
        self.calls.append((kind, detail))

    def game_finished(self, record: str, report: JSON) -> None:
        self.calls.append(("finished", report["finished"]))

    def cut_pending(self, state: JSON) -> None:
        self.calls.append(("cut", state))


def new_session(journal: JournalLog | None = None, seed: int = 7) -> GameSession:
    spec = spec_of("oshaka-trick")
    header = spec.new_header(4, None, random.Random(seed))
    return GameSession.begin(adapter_for(spec), [0, 1, 2, 3], header, seed, VIRTUAL, journal)


def play_some(session: GameSession, count: int) -> None:
    session.deal()
    for _ in range(count):
        expected = session.engine.expected
        assert expected is not None
        session.act(session.engine.legal_actions(expected.seat)[0])
        session.deal()


# --- the one replay loop -------------------------------------------------------------------


def test_replay_actions_names_the_first_refused_action_and_stops_there() -> None:
    session = new_session()
    play_some(session, 3)
    actions = [a.to_json() for a in session.recorder.actions]
    engine = spec_of("oshaka-trick").engine.from_header(session.engine.header())
    seen: list[JSON] = []
    # The last play played twice: the engine refuses the second, and nothing after it runs.
    broken = [*actions, actions[-1], actions[-1]]
    with pytest.raises(ActionRefused) as caught:
        replay_actions(engine, broken, lambda action: seen.append(action.to_json()))
    assert caught.value.index == len(actions) and caught.value.obj == actions[-1]
    assert seen == actions
    assert isinstance(caught.value, TableError)
    assert str(caught.value).startswith(f"action {len(actions) + 1} (")


def test_a_record_names_the_line_of_the_refused_action() -> None:
    session = new_session()
    play_some(session, 2)
    lines = session.recorder.dumps().splitlines()
    text = "\n".join([lines[0], '{"note": "a comment line"}', *lines[1:], lines[-1]]) + "\n"
    with pytest.raises(RecordError) as caught:
        replay(text)
    # Line 1 the header, line 2 the note, the actions from line 3: the repeat is last.
    assert caught.value.line == len(lines) + 2
    assert replay(session.recorder.dumps()).snapshot() == session.engine.snapshot()


# --- the game session --------------------------------------------------------------------


def test_a_session_journals_before_it_records_and_deals_in_one_entry() -> None:
    log = JournalLog()
    session = new_session(log)
    play_some(session, 1)
    kinds = [kind for kind, _ in log.calls]
    assert kinds[0] == "start" and kinds[1] == "deal" and kinds[2] == "action"
    dealt = [n for kind, n in log.calls if kind == "deal"]
    assert dealt[0] == session.chance.count(True)  # the whole deal, one journal entry
    assert session.chance.count(False) == 1


def test_a_rebuilt_session_equals_the_live_one() -> None:
    session = new_session()
    play_some(session, 9)
    rebuilt = GameSession.rebuild(
        type(session.adapter),
        session.players,
        session.engine.header(),
        session.pairs(),
        session.seed,
        VIRTUAL,
    )
    assert rebuilt.engine.snapshot() == session.engine.snapshot()
    assert rebuilt.pairs() == session.pairs()
    assert rebuilt.deal() == []  # a rebuilt game is never dealt twice


def test_undo_takes_back_the_last_player_action_and_journals_it() -> None:
    log = JournalLog()
    session = new_session(log)
    play_some(session, 5)
    last = [a for a, chance in session.pairs() if not chance][-1]
    undone = session.undo()
    assert undone is not None
    action, rebuilt = undone
    assert action == last and log.calls[-1] == ("undo", {"action": last})
    shorter = new_session()
    play_some(shorter, 4)
    assert rebuilt.engine.snapshot() == shorter.engine.snapshot()


def test_undo_before_anyone_played_changes_nothing() -> None:
    log = JournalLog()
    session = new_session(log)
    session.deal()
    assert session.undo() is None
    assert [kind for kind, _ in log.calls] == ["start", "deal"]


def test_seats_are_named_as_people_sit() -> None:
    spec = spec_of("oshaka-trick")
    header = spec.new_header(3, None, random.Random(1))
    session = GameSession.begin(adapter_for(spec), [0, 2, 3], header, 1, VIRTUAL)
    assert session.players == [0, 2, 3]  # the view's ``players``: the presenter names seats
    assert session.player_at(2) == 1 and session.player_at(1) is None


# --- lobby, staff mode, LEDs ---------------------------------------------------------------


def test_the_lobby_wraps_round_and_says_how_many_may_play() -> None:
    from controller.games import specs

    lobby = Lobby(menu_entries(specs()))
    lobby.move(-1)
    assert lobby.selected == len(lobby.menu) - 1
    lobby.move(1)
    assert lobby.selected == 0
    assert lobby.join(3) and not lobby.join(3)
    shortfall = lobby.shortfall()
    assert shortfall is not None and "1 joined" in shown(shortfall)
    assert lobby.leave(3) and not lobby.leave(3)


def test_staff_mode_confirms_each_action_and_closes_after_one() -> None:
    staff = StaffMode(lambda: 0.0)
    assert "Staff at Seat 3" in shown(staff.tag(2))  # seats counted from 1
    first = staff.press(Button.PREV)
    assert first.command is None and "OK to undo" in shown(first.message) and staff.seat == 2
    assert staff.press(Button.OK).command is StaffCommand.UNDO and staff.seat is None
    staff.tag(1)
    staff.press(Button.NEXT)
    cancelled = staff.press(Button.PREV)
    assert cancelled.command is None and "Cancelled" in shown(cancelled.message)
    assert staff.seat is None
    staff.tag(1)
    assert staff.press(Button.OK).command is None and staff.seat is None  # OK in the menu closes
    staff.tag(0)
    assert shown(staff.tag(0)) == "Staff mode closed" and staff.seat is None


def test_the_led_director_relights_only_seats_whose_colour_changes() -> None:
    lit: list[tuple[int, Cue]] = []

    class Sink:
        def cue(self, seat: int, cue: Cue, now: float) -> None:
            lit.append((seat, cue))

    sink = Sink()
    config = TableConfig.simulated(4)
    director = LedDirector(lambda: sink, lambda: 0.0, [s.index for s in config.seats])
    director.rest([])
    assert lit == [(seat, Cue.OFF) for seat in range(4)]
    lit.clear()
    director.rest([0, 1, 2], waiting=[1])
    assert lit == [(0, Cue.JOINED), (1, Cue.YOUR_TURN), (2, Cue.JOINED)]
    lit.clear()
    director.flash(2, Cue.REFUSED)
    director.rest([0, 1, 2], waiting=[2])
    assert lit == [(2, Cue.REFUSED), (1, Cue.JOINED), (2, Cue.YOUR_TURN)]


# --- scenes found from the spec key ------------------------------------------------------


def test_each_game_is_drawn_by_the_scene_its_key_names() -> None:
    import display.scenes.oh_pshaw
    import display.scenes.oshaka_trick
    import display.scenes.oskar
    import display.scenes.oss

    assert scene_for("oshaka-trick") is display.scenes.oshaka_trick.SCENE
    assert scene_for("oh-pshaw") is display.scenes.oh_pshaw.SCENE
    assert scene_for("oskar") is display.scenes.oskar.SCENE
    assert scene_for("oss") is display.scenes.oss.SCENE
    assert scene_for("no-such-game") is GENERIC and scene_for(None) is GENERIC


def test_a_registered_scene_replaces_the_generic_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scenes, "_SCENES", {})  # the registration ends with the test
    mine = GenericScene()
    assert scene_for("made-up-game") is GENERIC
    register_scene("made-up-game", mine)
    assert scene_for("made-up-game") is mine


class FullDisk(JournalLog):
    """A journal whose disk fills after the deal: the next action cannot be written."""

    def action_accepted(self, action: JSON, chance: bool) -> None:
        raise TableError("could not write to the game journal: the disk is full")


def test_a_journal_that_cannot_write_is_not_a_refused_play() -> None:
    # The engine judged the play legal; the table must stop, not tell the player
    # "refused" while the engine has moved on without the journal.
    from controller.adapters import Tap
    from controller.tags.registry import deck_of, simulated_uid
    from tests.rigs import TableRig

    rig = TableRig(4, journal=FullDisk())
    table = rig.table
    with rig.devices:
        rig.start_game("oshaka-trick", starter=0)  # Oshaka asks who most recently helped someone
        session = table.game
        assert session is not None
        expected = session.engine.expected
        assert expected is not None
        play = session.engine.legal_actions(expected.seat)[0]
        seat = session.players[expected.seat]
        with pytest.raises(TableError, match="disk is full"):
            # The play as the seat makes it: its card tapped, or its buttons pressed.
            for gesture in session.adapter.simulation.gestures(play):
                if isinstance(gesture, Tap):
                    rig.tap_uid(seat, simulated_uid(deck_of(session.game_id), gesture.card))
                else:
                    rig.press(seat, gesture.button)
        assert not any(shown(m.text).endswith("disk is full") for m in table.messages)
