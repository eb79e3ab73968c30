"""One game in progress at the table: ``GameSession``.

A session holds what a game is made of at the table (the engine inside its
adapter, the record being written, which physical seat plays which engine
seat, the journaled seed) and the few things one does to a game: act, deal,
undo, finish, abandon. Every change is journaled before it is recorded and
before anyone sees it. A session is rebuilt (after a staff undo, or from the
journal after a crash) through ``controller.records.record.replay_actions``, the one
replay loop the project has.

The session knows nothing of screens, messages or LEDs: the table turns the
events it returns into those.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from controller.adapters import AdapterContext, GameAdapter, TableSettings
from controller.config.table_config import TableConfig
from controller.games import engine_class
from controller.games.base import JSON, Action, Chance, Engine, Event
from controller.games.words import Words
from controller.records.record import Recorder, replay_actions, undo_last_player_action
from controller.table.sinks import JournalSink


def table_settings(config: TableConfig) -> TableSettings:
    """What an adapter is told of the table's configuration: its chance, its timer."""
    timer = config.timer
    return TableSettings(
        chance=Chance(cards=config.deal == "virtual", dice=config.dice != "manual"),
        has_timer=timer is not None,
        timer_limit=None if timer is None else timer.limit,
    )


@dataclass
class InputChance:
    """The chance generator of each seat input, for adapters that draw (a virtual die).

    One generator per input, the same for all of it, derived from the game's
    seed and length rather than from a running generator, so a game rebuilt
    from its journal draws exactly the same.
    """

    seed: int
    recorder: Recorder
    inputs: int = 0
    _current: tuple[int, random.Random] | None = None

    def next_input(self) -> None:
        self.inputs += 1

    def rng(self) -> random.Random:
        if self._current is None or self._current[0] != self.inputs:
            self._current = (
                self.inputs,
                random.Random(f"{self.seed}/{len(self.recorder.actions)}"),
            )
        return self._current[1]


@dataclass
class GameSession:
    """A game in progress: engine and adapter, record, seat map and seed, and its journal.

    Make one with ``begin`` (a new game, journaled) or ``rebuild`` (a game
    replayed from its actions); ``act`` and ``deal`` change it, ``undo``
    returns a rebuilt session without the last player action.
    """

    adapter: GameAdapter
    recorder: Recorder
    players: list[int]  # physical seat of each engine player
    seed: int  # the virtual deck's shuffles derive from it, so a resumed game deals the same
    settings: TableSettings
    draws: InputChance  # the adapter's chance while it turns one input into actions
    journal: JournalSink | None = None
    chance: list[bool] = field(default_factory=list)  # per recorded action: supplied by chance?

    # --- making one -------------------------------------------------------------------

    @classmethod
    def _at_start(
        cls,
        adapter_type: type[GameAdapter],
        players: list[int],
        header: JSON,
        seed: int,
        settings: TableSettings,
        journal: JournalSink | None,
    ) -> GameSession:
        engine = engine_class(header.get("game")).from_header(header)
        recorder = Recorder(engine)
        draws = InputChance(seed, recorder)
        adapter = adapter_type(AdapterContext(engine, seed, settings, draws.rng))
        return cls(adapter, recorder, list(players), seed, settings, draws, journal)

    @classmethod
    def begin(
        cls,
        adapter_type: type[GameAdapter],
        players: list[int],
        header: JSON,
        seed: int,
        settings: TableSettings,
        journal: JournalSink | None = None,
    ) -> GameSession:
        """A new game at its start, journaled as started."""
        session = cls._at_start(adapter_type, players, header, seed, settings, journal)
        if journal is not None:
            journal.game_started(adapter_type.spec.id, session.players, header, seed)
        return session

    @classmethod
    def rebuild(
        cls,
        adapter_type: type[GameAdapter],
        players: list[int],
        header: JSON,
        actions: list[tuple[JSON, bool]],
        seed: int,
        settings: TableSettings,
        journal: JournalSink | None = None,
    ) -> GameSession:
        """A game replayed from its (action, supplied by chance) pairs; nothing is journaled.

        Raises TableError (``ActionRefused``) if an action no longer replays.
        """
        session = cls._at_start(adapter_type, players, header, seed, settings, journal)
        chance = iter([flag for _, flag in actions])

        def accepted(action: Action) -> None:
            session.recorder.accepted(action)
            session.chance.append(next(chance))

        replay_actions(session.engine, (obj for obj, _ in actions), accepted)
        return session

    # --- what it is -------------------------------------------------------------------

    @property
    def engine(self) -> Engine:
        return self.adapter.engine

    @property
    def game_id(self) -> str:
        return self.adapter.game_id

    @property
    def title(self) -> Words:
        """The game and the variant its options play, e.g. "Oskar: first to 8 tokens"."""
        return self.adapter.spec.title_words(self.engine.header().get("options") or {})

    @property
    def finished(self) -> bool:
        return self.engine.finished

    def player_at(self, seat: int) -> int | None:
        """The engine player at a physical seat, or None if that seat does not play."""
        return self.players.index(seat) if seat in self.players else None

    def pairs(self) -> list[tuple[JSON, bool]]:
        """The game's actions as they stand, with whether chance supplied each."""
        return list(zip([a.to_json() for a in self.recorder.actions], self.chance, strict=True))

    # --- changing it --------------------------------------------------------------------

    def act(self, action: Action) -> list[Event]:
        """Apply a player's action; journaled before it is recorded.

        ``IllegalAction`` (or another refusal) comes from the engine only, and
        leaves everything as it was. The journal's own failure (a full disk) is
        raised by ``accept``, after the engine took the action, and must never be
        mistaken for a refusal: the table stops, and the journal, which does not
        hold the action, is what a restart resumes from.
        """
        events = self.engine.apply(action)
        self.accept(action)
        return events

    def judge(self, action: Action) -> list[Event]:
        """The engine's part of ``act``: TableError if the rules refuse the action."""
        return self.engine.apply(action)

    def accept(self, action: Action) -> None:
        """The journal's and the record's part of ``act``: on disk before it is shown."""
        if self.journal is not None:
            self.journal.action_accepted(action.to_json(), False)
        self.recorder.accepted(action)
        self.chance.append(False)

    def deal(self) -> list[Event]:
        """Whatever a virtual deck supplies now (dealt hands, a turned card), applied.

        The engine decides from its state alone (``chance_actions``), so a
        rebuilt game is never dealt twice. A deal is journaled in one
        transaction, so a crash never leaves half of one.
        """
        if not self.settings.chance.cards:
            return []
        # Derived from the game's seed and its length, not from a running generator,
        # so a game rebuilt from its journal draws exactly the same deal.
        rng = random.Random(f"{self.seed}/{len(self.recorder.actions)}")
        dealt = self.adapter.chance(rng)
        events: list[Event] = []
        for action in dealt:
            events += self.engine.apply(action)
        if dealt and self.journal is not None:
            self.journal.deal_accepted([action.to_json() for action in dealt])
        for action in dealt:
            self.recorder.accepted(action)
            self.chance.append(True)
        return events

    def undo(self) -> tuple[JSON, GameSession] | None:
        """Take back the last player action (and any deal after it), journaled as a correction.

        Returns the action taken back and the rebuilt session, or None when no
        player has acted yet.
        """
        pairs = self.pairs()
        undone = undo_last_player_action(pairs)
        if undone is None:
            return None
        if self.journal is not None:
            self.journal.correction("undo", {"action": undone})
        rebuilt = GameSession.rebuild(
            type(self.adapter),
            self.players,
            self.engine.header(),
            pairs,
            self.seed,
            self.settings,
            self.journal,
        )
        return undone, rebuilt

    def abandon(self) -> None:
        """Journal that staff ended the game without a result."""
        if self.journal is not None:
            self.journal.correction("abandon", {"game": self.game_id})

    def finish(self) -> JSON:
        """The finished game's report, journaled with its record."""
        report = self.engine.report()
        if self.journal is not None:
            self.journal.game_finished(self.recorder.dumps(), report)
        return report
