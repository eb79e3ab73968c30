"""Oshaka Trick's table side: the adapter's three roles sharing the lead cursor, buttons
mapped onto the engine's own placements, and the typed snapshot the scene reads."""

from __future__ import annotations

import random

from controller.adapters import GameAdapter, Presentation, Press, SeatInput, new_adapter
from controller.games.oshaka_trick.actions import ChooseLead, Place, Verb
from controller.games.oshaka_trick.bots import OshakaBot
from controller.games.oshaka_trick.engine import OshakaTrick
from controller.games.oshaka_trick.snapshot import OshakaOverlay, OshakaSnapshot
from controller.games.oshaka_trick.state import Phase
from controller.games.oshaka_trick.table import OshakaAdapter
from controller.games.words import Text
from controller.view import Screen, TableView
from display.scenes.oshaka_trick import OshakaScene, game_of, snapshot_of
from hardware.events import Button
from tests.words import shown as words


def _adapter(seed: int = 3) -> OshakaAdapter:
    adapter = new_adapter("oshaka-trick", 4, random.Random(seed))
    assert isinstance(adapter, OshakaAdapter)
    return adapter


def _play_until(adapter: OshakaAdapter, phase: Phase, seed: int = 1) -> OshakaTrick:
    """Deal virtually and let bots play until the engine is in ``phase``."""
    engine = adapter.engine
    bot = OshakaBot(random.Random(seed))
    rng = random.Random(seed)
    for _ in range(2000):
        for action in adapter.chance(rng):
            engine.apply(action)
        if engine.phase is phase:
            return engine
        expected = engine.expected
        assert expected is not None, f"the game ended before reaching {phase}"
        engine.apply(bot.choose(engine, expected.seat))
    raise AssertionError(f"never reached {phase}")


def test_the_adapter_is_three_roles_not_one_class() -> None:
    adapter = _adapter()
    assert isinstance(adapter, GameAdapter)
    assert not isinstance(adapter, SeatInput | Presentation)  # the roles are separate objects
    roles = {type(adapter.input), type(adapter.presentation), type(adapter.simulation)}
    assert len(roles) == 3
    assert adapter.input.cursor is adapter.presentation.cursor is adapter.simulation.cursor  # type: ignore[attr-defined]


def test_placement_buttons_choose_among_the_engine_s_own_placements() -> None:
    adapter = _adapter()
    engine = _play_until(adapter, Phase.PLACE)
    expected = engine.expected
    assert expected is not None and expected.expects == Verb.PLACE
    winner = expected.seat
    legal = engine.legal_actions(winner)
    up, down = (
        adapter.input.on_button(winner, Button.PREV),
        adapter.input.on_button(winner, Button.NEXT),
    )
    assert isinstance(up, Place) and up.face_up and up in legal
    assert isinstance(down, Place) and not down.face_up and down in legal
    explained = adapter.input.on_button(winner, Button.OK)
    assert isinstance(explained, Text) and "PREV" in words(explained)


def test_the_lead_cursor_is_shared_by_input_presentation_and_simulation() -> None:
    adapter = _adapter()
    engine = _play_until(adapter, Phase.LEAD)
    chooser = engine.lead_choosers[0]
    assert adapter.presentation.waiting_players() == list(engine.lead_choosers)
    assert adapter.presentation.game_view().overlay == OshakaOverlay(lead_cursor=0)
    assert adapter.input.on_button(chooser, Button.NEXT) is None
    assert adapter.input.on_button(chooser, Button.NEXT) is None
    shown = adapter.presentation.game_view()
    assert shown.overlay == OshakaOverlay(lead_cursor=2)
    assert shown.to_json()["lead_cursor"] == 2  # the JSON picture keeps the cursor's key
    labels = {(p, b): words(label) for p, b, label in adapter.input.hints()}
    assert labels[(chooser, Button.OK)] == "Seat 3 leads"  # engine player 2, counted from 1
    # The simulation walks from where the cursor is now: 2 -> 3 is one step.
    assert adapter.simulation.gestures(ChooseLead(chooser, 3)) == [
        Press(Button.NEXT),
        Press(Button.OK),
    ]
    assert adapter.input.on_button(chooser, Button.PREV) is None
    assert adapter.input.on_button(chooser, Button.OK) == ChooseLead(chooser, 1)
    # The display reads the cursor as a field of the typed overlay, beside the snapshot.
    view = TableView(1, Screen.PLAY, (), game_id="oshaka-trick", game=shown)
    assert snapshot_of(view).phase is Phase.LEAD
    assert game_of(view.game).overlay.lead_cursor == 2
    assert words(OshakaScene().turn_prompt(shown, chooser)) == "choose who leads round 2"
    assert "lead_cursor" not in engine.snapshot().to_json()  # the engine has no cursor


def test_the_typed_snapshot_reads_back_from_its_json_and_forgives_a_partial_one() -> None:
    adapter = _adapter(seed=8)
    engine = adapter.engine
    for phase in (Phase.PLAY, Phase.PLACE, Phase.LEAD):
        _play_until(adapter, phase, seed=8)
        snap = engine.snapshot()
        assert snap.phase is phase
        assert OshakaSnapshot.from_json(snap.to_json()) == snap
        assert OshakaSnapshot.of(snap) is snap
    partial = OshakaSnapshot.from_json({"phase": "nonsense", "seats": [{"seat": 1}], "next": 3})
    assert partial.phase is Phase.PLAY and partial.next is None
    seat = partial.seat(1)
    assert seat is not None and seat.columns == {} and seat.total == 0
