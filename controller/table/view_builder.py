"""The view builder: the table's parts turned into one immutable ``TableView``.

The display and the simulator read only the view; building it is the one
place that decides what is visible (a human seat's hand on the simulator's
screen, the staff desk, the menu), so the table's other parts never format
anything for the display.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from controller.config import TableConfig
from controller.games import spec_of
from controller.games.base import JSON
from controller.games.words import Words
from controller.table.lobby import Lobby, menu_note
from controller.table.session import GameSession
from controller.view import ButtonHint, GameChoice, Message, Screen, SeatView, StaffView, TableView


def rules_page(game_id: str) -> tuple[Words, tuple[Words, ...]]:
    """A game's rules page for a seat: its title and the lines of ``GameSpec.rules``."""
    spec = spec_of(game_id)
    return f"{spec.title}: the rules at this table", spec.rules


def build_view(
    *,
    version: int,
    screen: Screen,
    config: TableConfig,
    lobby: Lobby,
    session: GameSession | None,
    result: JSON | None,
    messages: Sequence[Message],
    buttons: Sequence[ButtonHint],
    reader_online: Mapping[int, bool],
    staff: StaffView | None,
    staff_overlay: StaffView | None = None,
    prompt: Words | None = None,
    options: Sequence[tuple[Words, Words, Words]] = (),
    options_cursor: int = 0,
    results_page: int = 0,
    help: Mapping[int, tuple[Words, tuple[Words, ...]]] | None = None,
) -> TableView:
    """A complete picture of the table at one moment (``version`` numbers it)."""
    playing = session is not None and screen is Screen.PLAY
    seats = tuple(
        SeatView(
            seat=s.index,
            joined=s.index in lobby.joined,
            player=None if session is None else session.player_at(s.index),
            is_bot=s.bot,
            reader_online=reader_online.get(s.index, True),
            label=f"Seat {s.index}",
        )
        for s in config.seats
    )
    choices = tuple(
        GameChoice(
            e.spec.id,
            e.title,
            e.spec.min_players,
            e.spec.max_players,
            menu_note(e.spec, config),
        )
        for e in lobby.menu
    )
    hands: dict[int, tuple[str, ...]] = {}
    humans: list[int] = []
    if playing and session is not None:
        for player, seat in enumerate(session.players):
            if not config.seats[seat].bot:
                humans.append(player)
                if config.deal == "virtual":
                    hands[player] = session.adapter.simulation.hand(player)
    return TableView(
        version=version,
        screen=screen,
        seats=seats,
        games=choices,
        selected_game=lobby.selected,
        game_id=None if session is None else session.game_id,
        game=None if session is None else session.adapter.presentation.snapshot(),
        result=result,
        messages=tuple(messages),
        buttons=tuple(buttons),
        hands=hands,
        human_seats=tuple(humans),
        staff=staff,
        staff_overlay=staff_overlay,
        prompt=prompt,
        options=tuple(options),
        options_cursor=options_cursor,
        results_page=results_page,
        help=dict(help or {}),
        game_title=None if session is None else session.title,
        result_rule=""
        if session is None or result is None
        else session.seats_named(session.adapter.presentation.result_rule(result)),
        result_rows=()
        if session is None or result is None
        else tuple(
            (heading, tuple(values))
            for heading, values in session.adapter.presentation.result_rows(result)
        ),
        nicknames=dict(lobby.names),
    )
