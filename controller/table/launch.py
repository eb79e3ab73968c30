"""Starting the game chosen in the lobby: its options, then its session.

The join screen asks for the options form (``options_form``); once the
options are settled (and the rulebook's starter question answered, or left
to the table), ``begin`` makes the journaled ``GameSession`` and the lines
the play screen opens with. The screens decide which screen comes next.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.base import JSON, TableError
from controller.games.words import Seat, Words, as_arg, say
from controller.table.context import ScreenContext
from controller.table.options import OptionsForm
from controller.table.session import GameSession, table_settings
from controller.view import MessageKind


def options_form(ctx: ScreenContext) -> OptionsForm | None:
    """The chosen game's options for the joined seats; None (said why) if it cannot start."""
    chosen = ctx.lobby.chosen
    shortfall = ctx.lobby.shortfall()
    if shortfall is not None:
        ctx.out.say(shortfall, MessageKind.REFUSED)
        return None
    house = ctx.config.games.get(chosen.spec.id)
    return OptionsForm.start(chosen.spec, len(ctx.lobby.joined), house, chosen.options)


def begin(
    ctx: ScreenContext, options: JSON, starter_seat: int | None, how: Sequence[Words] = ()
) -> tuple[GameSession, list[Words]] | None:
    """Begin the chosen game with the joined seats, journaled; and what the table says first.

    ``starter_seat`` answered the rulebook's starter question (None: nobody did,
    or the game has none: drawn); ``how`` says how it was chosen (a cut for the
    deal), in place of the plain line naming it. None (said why) when the options
    do not fit.
    """
    chosen = ctx.lobby.chosen
    players = sorted(ctx.lobby.joined)
    try:
        header = chosen.spec.new_header(len(players), options, ctx.rng)
    except TableError as exc:
        ctx.out.say(
            say("{game} cannot start so: {why}", game=as_arg(chosen.title), why=as_arg(exc.text)),
            MessageKind.REFUSED,
        )
        return None
    starter = chosen.spec.starter
    if starter is not None and starter_seat in players:
        header[starter.key] = players.index(starter_seat)
    seed = ctx.rng.getrandbits(62)
    session = GameSession.begin(
        chosen.adapter, players, header, seed, table_settings(ctx.config), ctx.journal
    )
    languages = ctx.languages.chosen()
    if ctx.journal is not None and languages:
        # Journaled with the game, so a resumed game shows every panel as before.
        ctx.journal.correction(
            "languages", {"seats": {str(seat): lang for seat, lang in languages.items()}}
        )
    intro: list[Words] = [say("{game} begins", game=as_arg(session.title))]
    if starter is not None:
        seat = Seat(players[int(header[starter.key])])
        role = as_arg(starter.role)
        if how:
            intro.extend(how)
        elif starter_seat is None:
            intro.append(
                say("Nobody answered, so the table drew: {seat} {role}", seat=seat, role=role)
            )
        else:
            intro.append(say("{seat} {role}", seat=seat, role=role))
    return session, intro
