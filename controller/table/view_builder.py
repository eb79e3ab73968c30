"""The view builder: the table's parts turned into one immutable ``TableView``.

The display and the simulator read only the view; building it is the one
place that decides what is visible (a human seat's hand on the simulator's
screen, the staff desk, the menu), so the table's other parts never format
anything for the display.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from controller.config.table_config import TableConfig
from controller.games.base import JSON
from controller.games.words import Verbatim, Words, say
from controller.table.context import ScreenContext
from controller.table.lobby import Lobby, menu_note
from controller.table.pages import Pages
from controller.table.play import undo_target
from controller.table.readers import ReaderStatus
from controller.table.screens import (
    CutScreen,
    OptionsScreen,
    ScreenState,
    StaffDeskScreen,
    StarterScreen,
)
from controller.table.session import GameSession
from controller.view import ButtonHint, GameChoice, Message, Screen, SeatView, StaffView, TableView
from controller.view.seat_colours import seat_colour


def seat_label(seat: int, nicknames: Mapping[int, str]) -> Words:
    """A seat's label: the nickname of the member card tapped there, or "Seat 3" counted
    from 1 (the presenter's own words for a seat, so labels and messages agree)."""
    name = nicknames.get(seat)
    if name:
        return say("{name}", name=Verbatim(name))
    return say("Seat {number}", number=Verbatim(str(seat + 1)))


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
    cuts: Mapping[int, str] | None = None,
    cutting: Sequence[int] = (),
    options: Sequence[tuple[Words, Words, Words]] = (),
    options_cursor: int = 0,
    results_page: int = 0,
    help: Mapping[int, tuple[Words, tuple[Words, ...]]] | None = None,
    recall: tuple[int, ...] = (),
    seat_languages: Mapping[int, str] | None = None,
    nicknames: Mapping[int, str] | None = None,
) -> TableView:
    """A complete picture of the table at one moment (``version`` numbers it).

    Words are not turned into text here: the view carries what the presenter
    needs (the table's language, each seat's own, who sits where, nicknames)
    and each panel presents its words for its reader.
    """
    playing = session is not None and screen is Screen.PLAY
    # Member cards tapped at the join screen name their seats (the lobby keeps them).
    names = {**lobby.names, **dict(nicknames or {})}
    seats = tuple(
        SeatView(
            seat=s.index,
            joined=s.index in lobby.joined,
            player=None if session is None else session.player_at(s.index),
            is_bot=s.bot,
            reader_online=reader_online.get(s.index, True),
            label=seat_label(s.index, names),
            colour=seat_colour(s.index),
        )
        for s in config.seats
    )
    choices = tuple(
        GameChoice(
            e.spec.id,
            e.title,
            e.spec.min_players,
            e.spec.max_players,
            menu_note(e.spec, config, len(lobby.joined)),
            name=e.spec.title,
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
        # Who sits where, so a message naming engine players names their physical seats.
        game=None if session is None else session.adapter.presentation.game_view(),
        result=result,
        messages=tuple(messages),
        buttons=tuple(buttons),
        hands=hands,
        human_seats=tuple(humans),
        staff=staff,
        staff_overlay=staff_overlay,
        prompt=prompt,
        cuts=dict(cuts or {}),
        cutting=tuple(cutting),
        options=tuple(options),
        options_cursor=options_cursor,
        results_page=results_page,
        help=dict(help or {}),
        recall=recall,
        game_title=None if session is None else session.title,
        result_rule=""
        if session is None or result is None
        else session.adapter.presentation.result_rule(result),
        result_rows=()
        if session is None or result is None
        else tuple(
            (heading, tuple(values))
            for heading, values in session.adapter.presentation.result_rows(result)
        ),
        result_sheet=None
        if session is None or result is None
        else session.adapter.presentation.result_sheet(result),
        language=config.language,
        seat_languages=dict(seat_languages or {}),
        players=() if session is None else tuple(session.players),
        nicknames=names,
    )


def table_view(
    version: int, state: ScreenState, ctx: ScreenContext, pages: Pages, readers: ReaderStatus
) -> TableView:
    """The view of the table on screen ``state``: what each part shows, numbered ``version``."""
    form = state.form if isinstance(state, OptionsScreen) else None
    return build_view(
        version=version,
        screen=state.screen,
        config=ctx.config,
        lobby=ctx.lobby,
        session=state.session,
        result=state.result,
        messages=state.shown(ctx.out.messages),
        buttons=state.hints(ctx),
        reader_online=readers.online(),
        staff=state.desk.view() if isinstance(state, StaffDeskScreen) else None,
        staff_overlay=ctx.staff.overlay(
            None if state.session is None else functools.partial(undo_target, state.session)
        )
        if state.screen is Screen.PLAY
        else None,
        prompt=state.prompt if isinstance(state, StarterScreen | CutScreen) else None,
        cuts=state.cut.cards if isinstance(state, CutScreen) else None,
        cutting=state.cut.waiting() if isinstance(state, CutScreen) else (),
        options=()
        if form is None
        else [(line.label, line.value, line.explanation) for line in form.lines()],
        options_cursor=0 if form is None else form.cursor,
        results_page=pages.page,
        help=pages.help(),
        recall=pages.recalls() if state.playing is not None else (),
        seat_languages=ctx.languages.chosen(),
    )
