"""The lobby: the game menu (derived from the game specs) and who has joined.

Outside a game the table shows the menu (PREV / NEXT choose a game, OK picks
it) and then the join screen (OK joins or leaves, NEXT starts). ``Lobby`` is
that state; the screens in ``controller.table.screens`` drive it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.adapters import GameAdapter, adapter_for
from controller.config.table_config import TableConfig
from controller.games.spec import GameSpec, Requirement
from controller.games.words import Verbatim, Words, as_arg, say


@dataclass(frozen=True)
class MenuEntry:
    """One line of the game menu: a game, possibly in one of its option presets."""

    spec: GameSpec
    label: Words = ""
    options: Mapping[str, Any] | None = None

    @property
    def adapter(self) -> type[GameAdapter]:
        """The game's table side, imported when the game is chosen: the menu needs only
        the spec, and start-up does not wait for every game's table side and rules."""
        return adapter_for(self.spec)

    @property
    def title(self) -> Words:
        if not self.label:
            return self.spec.title
        return say("{game}: {variant}", game=Verbatim(self.spec.title), variant=as_arg(self.label))


def menu_entries(
    games: Mapping[str, GameSpec], config: TableConfig | None = None
) -> list[MenuEntry]:
    """The menu: every game, once per option preset it offers (its default first).

    With the table's ``config``, the games it offers come first and those it cannot
    (too few seats, a deal it does not have) after them, each still listed with its
    note (``menu_note``): a two-seat table opens on a game two can play, not on nine
    lines that say "not offered".
    """
    entries: list[MenuEntry] = []
    for spec in games.values():
        if not spec.presets:
            entries.append(MenuEntry(spec))
        entries += [MenuEntry(spec, p.label, p.options) for p in spec.presets]
    if config is not None:
        # A stable sort: the order of the registry within each group.
        entries.sort(key=lambda entry: unmet_requirement(entry.spec, config) is not None)
    return entries


def unmet_requirement(spec: GameSpec, config: TableConfig) -> Words | None:
    """Why this table cannot offer ``spec``'s game, or None when it can."""
    if Requirement.VIRTUAL_DEAL in spec.requirements and config.deal != "virtual":
        return say(
            "{game} needs the table's virtual deal: its hands cannot be entered by tap "
            'yet (staff: set [table] deal = "virtual")',
            game=Verbatim(spec.title),
        )
    seats = len(config.seats)
    if seats < spec.min_players:
        return say(
            "{game} needs at least {low} players, but this table has only {seats} seats",
            game=Verbatim(spec.title),
            low=spec.min_players,
            seats=seats,
        )
    return None


def menu_note(spec: GameSpec, config: TableConfig, joined: int = 0) -> Words:
    """A short menu note saying why ``spec``'s game cannot be played here, or "".

    The table's own limits first (its deal, its number of seats); then, when
    seats have joined already (they stay joined when they go back to the menu to
    choose another game), whether those seats are a number the game can start with.
    """
    if Requirement.VIRTUAL_DEAL in spec.requirements and config.deal != "virtual":
        return say("not offered: hands cannot be entered by tap yet (needs the virtual deal)")
    low, high = spec.min_players, spec.max_players
    seats = len(config.seats)
    if seats < low:
        return say(
            "not offered: {low}-{high} players, {seats} seats here",
            low=low,
            high=high,
            seats=seats,
        )
    if joined and not low <= joined <= high:
        return say(
            "not for {joined} joined: {low}-{high} players",
            joined=joined,
            low=low,
            high=high,
        )
    return ""


@dataclass
class Lobby:
    """The menu's cursor and the seats that joined the chosen game."""

    menu: list[MenuEntry]
    selected: int = 0
    joined: list[int] = field(default_factory=list)
    # Seats named by a member card (controller.tags.members): physical seat -> nickname.
    names: dict[int, str] = field(default_factory=dict)

    @property
    def chosen(self) -> MenuEntry:
        return self.menu[self.selected]

    def move(self, step: int) -> None:
        """PREV / NEXT on the menu: the previous or next line, wrapping round."""
        self.selected = (self.selected + step) % len(self.menu)

    def join(self, seat: int) -> bool:
        """A seat joins; False if it had already joined."""
        if seat in self.joined:
            return False
        self.joined.append(seat)
        return True

    def leave(self, seat: int) -> bool:
        """A seat leaves; False if it had not joined."""
        if seat not in self.joined:
            return False
        self.joined.remove(seat)
        self.names.pop(seat, None)
        return True

    def name_seat(self, seat: int, nickname: str) -> None:
        """A member card tapped at ``seat`` names it (and no other seat: the member moved)."""
        self.names = {s: n for s, n in self.names.items() if n != nickname}
        self.names[seat] = nickname

    def clear(self) -> None:
        self.joined = []
        self.names = {}

    def seat_all(self, seats: list[int]) -> None:
        """The seats of a game resumed from the journal, as if they had joined."""
        self.joined = list(seats)

    def shortfall(self) -> Words | None:
        """Why the chosen game cannot start with the joined seats, or None when it can."""
        chosen = self.chosen
        count = len(self.joined)
        low, high = chosen.spec.min_players, chosen.spec.max_players
        if low <= count <= high:
            return None
        return say(
            "{game} needs {low}-{high} players; {joined} joined",
            game=as_arg(chosen.title),
            low=low,
            high=high,
            joined=count,
        )
