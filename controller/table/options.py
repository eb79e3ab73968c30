"""The options screen's form: every option of the chosen game, changed with three buttons.

After the seats have joined and NEXT is pressed, a game with options shows
them as lines: "Start the game" (the cursor starts there, so OK starts at
once with the menu's preset), the preset (a shortcut that sets several
options), then every option the café has not hidden, with the rulebook's
name, the current value and a one-line explanation. PREV / NEXT at any seat
move the cursor, OK changes the line under it to its next allowed value (or
starts). Allowed values depend on the joined players: a value the engine
would refuse for them (a hand too large for the deck) is never offered.

Values start from the café's house defaults (``[games.<id>] defaults`` in
table.toml), with the chosen menu preset over them; hidden options keep the
house value and are never shown.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.config import GameHouseRules
from controller.games.base import TableError
from controller.games.spec import GameSpec, OptionKind, OptionSpec
from controller.games.words import Words, as_arg, say

START, PRESET = "start", "preset"
NUMBER_STEPS = 21  # at most this many values of a wide number range are offered


@dataclass(frozen=True)
class OptionLine:
    """One line of the options screen, as the view shows it."""

    key: str  # START, PRESET or an option key
    label: Words
    value: Words
    explanation: Words


@dataclass
class OptionsForm:
    """The options chosen so far for ``players`` seats of ``spec``'s game, and the cursor."""

    spec: GameSpec
    players: int
    house: GameHouseRules = field(default_factory=GameHouseRules)
    values: dict[str, Any] = field(default_factory=dict)
    cursor: int = 0

    @classmethod
    def start(
        cls,
        spec: GameSpec,
        players: int,
        house: GameHouseRules | None,
        preset: Mapping[str, Any] | None,
    ) -> OptionsForm:
        """The form as the menu line left it: house defaults, then the chosen preset."""
        form = cls(spec, players, house or GameHouseRules())
        form.apply(preset or {})
        return form

    # --- what is shown ------------------------------------------------------------

    @property
    def visible(self) -> list[OptionSpec]:
        return [o for o in self.spec.options if o.key not in self.house.hidden]

    @property
    def options(self) -> dict[str, Any]:
        """The options for the record header (only what differs from the rulebook)."""
        return self.spec.changed_options(self.values)

    def value(self, option: OptionSpec) -> Any:
        return self.values.get(option.key, option.default)

    def lines(self) -> list[OptionLine]:
        out = [
            OptionLine(
                START,
                "Start the game",
                self.spec.variant(self.options),
                f"{self.players} players; OK starts, PREV / NEXT choose a line to change",
            )
        ]
        if self.spec.presets:
            out.append(
                OptionLine(
                    PRESET,
                    "Preset",
                    self.preset_label(),
                    "a shortcut: OK sets the next preset's options",
                )
            )
        for option in self.visible:
            out.append(
                OptionLine(
                    option.key,
                    option.label,
                    option.value_text(self.value(option)),
                    self._explain(option),
                )
            )
        return out

    def _explain(self, option: OptionSpec) -> Words:
        if option.kind is not OptionKind.NUMBER:
            return option.explanation
        allowed = [v for v in self.allowed(option) if isinstance(v, int)]
        if not allowed:
            return option.explanation
        return say(
            "{explanation} ({low}-{high} for {players} players)",
            explanation=as_arg(option.explanation),
            low=min(allowed),
            high=max(allowed),
            players=self.players,
        )

    def preset_label(self) -> Words:
        changed = self.options
        for preset in self.spec.presets:
            if self.spec.changed_options(preset.options) == changed:
                return preset.label
        return "your own choice"

    # --- the buttons ----------------------------------------------------------------

    def move(self, step: int) -> None:
        """PREV / NEXT: the previous or next line, wrapping round."""
        self.cursor = (self.cursor + step) % len(self.lines())

    def press_ok(self) -> bool:
        """OK: True when the cursor is on "Start the game"; else change that line's value."""
        key = self.lines()[self.cursor].key
        if key == START:
            return True
        if key == PRESET:
            self._next_preset()
        else:
            self._next_value(self.spec.option(key))
        return False

    def apply(self, options: Mapping[str, Any]) -> None:
        """House defaults, then ``options`` (a preset) over them; hidden keys keep the house."""
        self.values = dict(self.house.defaults)
        for key, value in options.items():
            if key not in self.house.hidden:
                self.values[key] = value

    def _next_preset(self) -> None:
        presets = self.spec.presets
        current = self.preset_label()
        labels = [p.label for p in presets]
        start = labels.index(current) + 1 if current in labels else 0
        for step in range(len(presets)):
            preset = presets[(start + step) % len(presets)]
            saved = self.values
            self.apply(preset.options)
            if self.valid(self.values):
                return
            self.values = saved  # a preset the joined players cannot play is skipped

    def _next_value(self, option: OptionSpec) -> None:
        allowed = self.allowed(option)
        if not allowed:
            return
        current = self.value(option)
        index = allowed.index(current) + 1 if current in allowed else 0
        self.values[option.key] = allowed[index % len(allowed)]

    # --- limits ---------------------------------------------------------------------

    def candidates(self, option: OptionSpec) -> list[Any]:
        """Every value of the option's type and limits, before the players are considered."""
        if option.kind is OptionKind.FLAG:
            return [False, True]
        if option.kind in (OptionKind.CHOICE, OptionKind.SCHEDULE):
            return list(option.choices)
        low = option.low if option.low is not None else 0
        high = option.high if option.high is not None else low + NUMBER_STEPS - 1
        step = max(1, -(-(high - low) // (NUMBER_STEPS - 1)))
        numbers: list[Any] = list(range(low, high + 1, step))
        return ([None] if option.default is None else []) + numbers

    def allowed(self, option: OptionSpec) -> list[Any]:
        """The values the engine accepts for the joined players, with the other options as set."""
        return [v for v in self.candidates(option) if self.valid({**self.values, option.key: v})]

    def valid(self, values: Mapping[str, Any]) -> bool:
        try:
            self.spec.new_header(self.players, self.spec.changed_options(values), random.Random(0))
        except TableError:
            return False
        return True
