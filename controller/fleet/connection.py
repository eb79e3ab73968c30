"""``CafeConnection``: how the kiosk wires a table with ``[cafe]`` to the café.

The kiosk (``controller/kiosk/app.py``, the composition root) makes one when the
configuration has ``[cafe]`` and calls it from the table loop's thread:

- ``after_turn(table)`` after every turn of the loop: the hub's messages that
  arrived meanwhile are acted on (a call for staff answered; a configuration
  pushed, checked like table.toml and applied between games; the member
  cards enrolled on the dashboard), the nicknames of the game in progress are
  kept in the outbox's file (so a resumed game keeps them and its record
  reaches the hub with them), and the table's view, if it changed, is reported;
- ``record_finished()`` when a game's record is written: the journal's
  finished games go to the outbox and the link sends them;
- ``staff_call(call, seat, opened)`` when a player calls for staff (an alert)
  or staff answer at the table (an event the hub uses to close the alert).

The network runs on the link's threads; nothing here waits on it.
"""

from __future__ import annotations

import logging
import queue
import time
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.config import table_config
from controller.config.cafe import CafeSettings
from controller.config.reading import ConfigError
from controller.config.table_config import TableConfig
from controller.fleet.link import (
    AlertAcknowledged,
    ConfigRequested,
    FleetLink,
    HubMessage,
    MembersChanged,
)
from controller.fleet.outbox import Outbox
from controller.fleet.reporter import FleetReporter
from controller.games.words import Items, Seat, Verbatim, say
from controller.tags.registry import TagRegistry, decks
from controller.view import Screen
from controller.words import Presenter
from controller.words.catalogs import ENGLISH
from controller.words.safe_text import one_line
from controller.words.terminal import table_language

if TYPE_CHECKING:
    from controller.table import Table

logger = logging.getLogger(__name__)

# What the hub may change from afar (section -> keys; "*" for any key of it):
# settings that take effect between games. Seats, readers, LEDs and the
# broker itself stay in the table's own file.
REMOTE_SETTINGS: Mapping[str, frozenset[str] | str] = {
    "table": frozenset({"deal", "dice", "language"}),
    "display": frozenset({"sleep"}),
    "games": "*",
}


class CafeConnection:
    """The kiosk's side of the café: the link, the outbox, the reporter, the hub's inbox."""

    def __init__(
        self,
        settings: CafeSettings,
        journal_path: Path | None,
        registry: TagRegistry,
        *,
        config_path: Path | None = None,
        link_factory: Callable[..., FleetLink] = FleetLink,
        elapsed: Callable[[], float | None] | None = None,
    ) -> None:
        self.settings = settings
        self.config_path = config_path
        self.inbox: queue.Queue[HubMessage] = queue.Queue()
        self.outbox = None if journal_path is None else Outbox(journal_path, settings.table)
        if self.outbox is None:
            logger.warning("the table keeps no journal, so no game record reaches the café's hub")
        self.link = link_factory(settings, self.outbox, self.inbox.put)
        self.reporter = FleetReporter(self.link, elapsed=elapsed)
        self.registry = registry
        self.decks = deck_counts(registry)
        self.pending_config: tuple[str, TableConfig] | None = None
        self._names_game: tuple[int, dict[int, str]] | None = None  # the last names kept
        self.language = ENGLISH  # the table's, kept from the last turn (for alert texts)

    def start(self) -> None:
        if self.outbox is not None:
            self.outbox.add_finished_games()  # any record a crash or an outage left behind
        self.link.start()

    def close(self, flush: float = 5.0) -> None:
        """Give pending records and messages a moment to reach the hub, then disconnect.

        What is still pending stays in the outbox and goes at the next start.
        """
        if self.outbox is not None and self.link.connected:
            self.link.record_ready()
            deadline = time.monotonic() + flush
            while self.outbox.unconfirmed_count() and time.monotonic() < deadline:
                time.sleep(0.05)
        self.link.close()
        if self.outbox is not None:
            self.outbox.close()

    # --- from the table loop ----------------------------------------------------------

    def record_finished(self) -> None:
        if self.outbox is not None and self.outbox.add_finished_games():
            self.link.record_ready()

    def staff_call(self, call: str, seat: int, opened: bool) -> None:
        if opened:
            # The alert's text is for café staff on the dashboard: the seat counted
            # from 1, in the table's language; its "seat" field stays 0-based data.
            text = Presenter(self.language)(say("{seat} calls for staff", seat=Seat(seat)))
            self.link.alert(call, "call-staff", text, seat=seat)
        else:
            self.link.event("staff-call-answered", alert=call, seat=seat)

    def after_turn(self, table: Table) -> None:
        while True:
            try:
                message = self.inbox.get_nowait()
            except queue.Empty:
                break
            self._hub_message(table, message)
        self._apply_pending(table)
        self._keep_names(table)
        self.language = table_language(table.config)
        view = table.view
        # The facts cost a replay report: gathered only for a view not reported yet,
        # not on every turn of the loop.
        if self.reporter.is_new(view):
            self.reporter.observe(view, **self._facts(table))

    def _hub_message(self, table: Table, message: HubMessage) -> None:
        if isinstance(message, AlertAcknowledged):
            table.staff_call_answered(message.alert_id)
        elif isinstance(message, ConfigRequested):
            try:
                config = self.checked(message.settings, table.config)
            except ConfigError as exc:
                # Staff read the refusal on the dashboard: in the table's language, one line.
                refusal = one_line(Presenter(self.language)(exc.text))
                self.link.config_result(message.request_id, False, refusal)
                return
            self.pending_config = (message.request_id, config)
            if table.screen is not Screen.ATTRACT:
                logger.info("a configuration from the hub waits for the game to end")
        elif isinstance(message, MembersChanged):
            for problem in self.registry.set_hub_members(message.members):
                logger.warning("the hub's member cards: %s", problem)

    def _keep_names(self, table: Table) -> None:
        """The nicknames of the game in progress, kept beside the journal (see the module).

        A game that starts with names has them written once; a game resumed
        after a restart, whose lobby has forgotten them, gets them back.
        """
        if self.outbox is None or table.game is None or table.screen is not Screen.PLAY:
            return
        names = dict(table.view.nicknames)
        kept = self._names_game
        if kept is not None and kept[1] == names:
            return  # this game's names are kept already (or it has none)
        game = self.outbox.playing_game()
        if game is None:
            return
        if names:
            self.outbox.set_names(game, names)
        elif kept is None or kept[0] != game:
            names = self.outbox.names_of(game)
            table.name_seats(names)
        self._names_game = (game, names)

    def _apply_pending(self, table: Table) -> None:
        if self.pending_config is None or table.screen is not Screen.ATTRACT:
            return
        request, config = self.pending_config
        self.pending_config = None
        table.reconfigure(config)
        self.link.config_result(request, True, "applied")

    def checked(self, settings: Mapping[str, Any], current: TableConfig) -> TableConfig:
        """The configuration with the hub's ``settings`` over the table's file; ConfigError."""
        for section, values in settings.items():
            allowed = REMOTE_SETTINGS.get(section)
            if allowed is None or not isinstance(values, dict):
                raise ConfigError(
                    say(
                        "[{section}] cannot be set from the hub; it may set {sections}",
                        section=Verbatim(str(section)),
                        sections=Items(tuple(Verbatim(s) for s in sorted(REMOTE_SETTINGS))),
                    )
                )
            for key in values:
                if allowed != "*" and key not in allowed:
                    raise ConfigError(
                        say(
                            "{setting} cannot be set from the hub",
                            setting=Verbatim(f"{section}.{key}"),
                        )
                    )
        if self.config_path is None:
            raise ConfigError(say("this table runs without a table.toml, so it takes no settings"))
        try:
            data = tomllib.loads(self.config_path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(
                say(
                    "{file} cannot be read again: {problem}",
                    file=Verbatim(str(self.config_path)),
                    problem=Verbatim(str(exc)),
                )
            ) from None
        for section, values in settings.items():
            merged = dict(data.get(section, {}))
            merged.update(values)
            data[section] = merged
        return table_config.parse(data, "the hub's settings", self.config_path.parent)

    def _facts(self, table: Table) -> dict[str, Any]:
        session = table.game
        totals = None
        round_number = None
        waiting: list[int] = []
        if session is not None and table.screen in (Screen.PLAY, Screen.RESULTS):
            engine = session.adapter.engine
            report = engine.report()
            totals = list(report.get("totals", []))
            round_number = len(report.get("rounds", [])) or None
            if table.screen is Screen.PLAY:
                waiting = [
                    session.players[p] for p in session.adapter.presentation.waiting_players()
                ]
        return {
            "waiting": waiting,
            "totals": totals,
            "round_number": round_number,
            "decks": self.decks,
        }


def deck_counts(registry: TagRegistry) -> dict[str, tuple[int, int]]:
    """Per deck: (tags enrolled, cards in the deck), for the dashboard's enrollment page."""
    return {
        deck_id: (len(registry.cards_of(deck_id)), len(deck.cards))
        for deck_id, deck in decks().items()
    }
