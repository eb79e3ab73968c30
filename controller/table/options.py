"""The options screen's form: every option of the chosen game, changed with three buttons.

After the seats have joined and NEXT is pressed, a game with options shows
them as lines: "Start the game" (the cursor starts there, so OK starts at
once with the menu's preset), the preset (a shortcut that sets several
options), then every option the café has not hidden, with the rulebook's
name, the current value and a one-line explanation. PREV / NEXT at any seat
move the cursor, OK changes the line under it to its next allowed value (or
starts).

A hand-size schedule (``OptionKind.SCHEDULE``, Oh Pshaw's) cycles its named
schedules, then "N..1" from the largest hand, then "your own list": OK there
opens a small editor. In it PREV / NEXT choose the next hand's size (below 1
comes "remove the last hand", past the largest comes "done"), OK adds that
hand, or on "done" keeps the list ("5, 5, 5" is three rounds of five cards).

Allowed values depend on the joined players: a value the engine would refuse
for them (a hand too large for the deck) is never offered.

Values start from the café's house defaults (``[games.<id>] defaults`` in
table.toml), with the chosen menu preset over them; hidden options keep the
house value and are never shown.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.config.table_config import GameHouseRules
from controller.games.base import TableError
from controller.games.spec import GameSpec, OptionKind, OptionSpec
from controller.games.words import Verbatim, Words, as_arg, say
from hardware.events import Button

START, PRESET = "start", "preset"
NUMBER_STEPS = 21  # at most this many values of a wide number range are offered
LONGEST_SCHEDULE = 30  # hands an edited schedule may list (a game of 30 rounds is long enough)
DONE, REMOVE = "done", "remove"  # the editor's two steps beyond the hand sizes


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
    # The hand-size editor, while open: the hands entered so far and the step under the
    # cursor (a hand size, DONE or REMOVE).
    editing: list[int] | None = None
    edit_step: int | str = 1

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
                say("Start the game"),
                self.spec.variant_words(self.options),
                say(
                    "{players} players; OK starts, PREV / NEXT choose a line to change",
                    players=self.players,
                ),
            )
        ]
        if self.spec.presets:
            out.append(
                OptionLine(
                    PRESET,
                    say("Preset"),
                    self.preset_label(),
                    say("a shortcut: OK sets the next preset's options"),
                )
            )
        for option in self.visible:
            if self.editing is not None and option.kind is OptionKind.SCHEDULE:
                out.append(self._editor_line(option))
                continue
            out.append(
                OptionLine(
                    option.key,
                    option.label,
                    option.value_words(self.value(option)),
                    self._explain(option),
                )
            )
        return out

    def _editor_line(self, option: OptionSpec) -> OptionLine:
        hands = ", ".join(str(n) for n in self.editing or ()) or "-"
        step = self.edit_step
        if step == DONE:
            value = say("{hands}: done", hands=Verbatim(hands))
        elif step == REMOVE:
            value = say("{hands}: remove the last hand", hands=Verbatim(hands))
        else:
            value = say("{hands}, then {size}?", hands=Verbatim(hands), size=int(step))
        return OptionLine(
            option.key,
            option.label,
            value,
            say(
                "PREV / NEXT: the next hand's size (1-{high}); OK adds it; "
                'OK on "done" keeps the list',
                high=self.largest_hand(option),
            ),
        )

    def button_labels(self) -> dict[Button, Words]:
        """What PREV / OK / NEXT do on the options screen now, for every seat's labels."""
        if self.editing is not None:
            step = self.edit_step
            if step == DONE:
                ok = say("keep this list")
            elif step == REMOVE:
                ok = say("remove last hand")
            else:
                ok = say("add a hand of {size}", size=int(step))
            return {
                Button.PREV: say("smaller hand"),
                Button.OK: ok,
                Button.NEXT: say("larger hand"),
            }
        key = self.lines()[self.cursor].key
        ok = say("start") if key == START else say("change")
        return {Button.PREV: say("previous line"), Button.OK: ok, Button.NEXT: say("next line")}

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
        return say("your own choice")

    # --- the buttons ----------------------------------------------------------------

    def move(self, step: int) -> None:
        """PREV / NEXT: the previous or next line (wrapping round), or in the hand-size
        editor the next hand's size."""
        if self.editing is not None:
            steps = self._edit_steps()
            index = steps.index(self.edit_step) if self.edit_step in steps else 0
            self.edit_step = steps[(index + step) % len(steps)]
            return
        self.cursor = (self.cursor + step) % len(self.lines())

    def press_ok(self) -> bool:
        """OK: True when the cursor is on "Start the game"; else change that line's value."""
        if self.editing is not None:
            self._edit_ok()
            return False
        key = self.lines()[self.cursor].key
        if key == START:
            return True
        if key == PRESET:
            self._next_preset()
        else:
            self._next_value(self.spec.option(key))
        return False

    # --- the hand-size editor -------------------------------------------------------

    def largest_hand(self, option: OptionSpec) -> int:
        """The largest hand the engine accepts in a listed schedule, with the other options."""
        largest = 1
        for size in range(1, 53):
            if self.valid({**self.values, option.key: [size]}):
                largest = size
        return largest

    def _schedule_option(self) -> OptionSpec:
        return next(o for o in self.visible if o.kind is OptionKind.SCHEDULE)

    def _edit_steps(self) -> list[int | str]:
        sizes: list[int | str] = list(range(1, self.largest_hand(self._schedule_option()) + 1))
        return [REMOVE, *sizes, DONE]

    def _open_editor(self) -> None:
        self.editing = []
        self.edit_step = 1

    def _edit_ok(self) -> None:
        assert self.editing is not None
        step = self.edit_step
        if step == REMOVE:
            if self.editing:
                self.editing.pop()
        elif step == DONE:
            option = self._schedule_option()
            if self.editing and self.valid({**self.values, option.key: list(self.editing)}):
                self.values[option.key] = list(self.editing)
            self.editing = None  # an empty list keeps the schedule as it was
        elif isinstance(step, int) and len(self.editing) < LONGEST_SCHEDULE:
            self.editing.append(step)

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
        if option.kind is OptionKind.SCHEDULE and allowed and current == allowed[-1]:
            self._open_editor()  # after the offered schedules: the players' own list
            return
        index = allowed.index(current) + 1 if current in allowed else 0
        self.values[option.key] = allowed[index % len(allowed)]

    # --- limits ---------------------------------------------------------------------

    def candidates(self, option: OptionSpec) -> list[Any]:
        """Every value of the option's type and limits, before the players are considered."""
        if option.kind is OptionKind.FLAG:
            return [False, True]
        if option.kind is OptionKind.CHOICE:
            return list(option.choices)
        if option.kind is OptionKind.SCHEDULE:
            # The named schedules, then N..1 from the largest hand (1..N and 1..N..1
            # are named already); the editor offers any other list.
            largest = self.largest_hand(option)
            return [*option.choices, list(range(largest, 0, -1))]
        low = option.low if option.low is not None else 0
        high = option.high if option.high is not None else low + (NUMBER_STEPS - 1) * option.step
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
