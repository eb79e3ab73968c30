"""The replay loop pauses the cyclic garbage collector and always gives it back."""

from __future__ import annotations

import gc
import random

import pytest

from controller.games import spec_of
from controller.games.base import Chance
from controller.records.record import ActionRefused, replay_actions


def _header() -> dict[str, object]:
    return spec_of("oh-pshaw").new_header(3, {}, random.Random(1))


def test_the_collector_is_paused_during_a_replay_and_enabled_after() -> None:
    seen: list[bool] = []
    engine = spec_of("oh-pshaw").engine.from_header(_header())
    replay_actions(engine, [], accepted=lambda _a: seen.append(gc.isenabled()))
    assert gc.isenabled()
    chance = engine.chance_actions(random.Random(2), Chance(cards=True))
    fresh = spec_of("oh-pshaw").engine.from_header(_header())
    replay_actions(
        fresh, [a.to_json() for a in chance], accepted=lambda _a: seen.append(gc.isenabled())
    )
    assert seen and not any(seen)  # paused while each action was applied
    assert gc.isenabled()


def test_a_refused_action_gives_the_collector_back() -> None:
    engine = spec_of("oh-pshaw").engine.from_header(_header())
    with pytest.raises(ActionRefused):
        replay_actions(engine, [{"seat": 0, "play": "ZZ"}])
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    try:
        replay_actions(spec_of("oh-pshaw").engine.from_header(_header()), [])
        assert not gc.isenabled()
    finally:
        gc.enable()
