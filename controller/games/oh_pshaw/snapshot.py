"""What everyone at an Oh Pshaw table sees: the snapshot the display draws.

``OhPshawSnapshot`` is frozen and typed, per-seat tuples indexed by engine
seat; its ``to_json``/``from_json`` are the JSON form logs and the golden
files keep. The engine's ``snapshot()`` fills it; ``OhPshawOverlay`` is what
the table shows on top (the bid cursor).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from controller.games.base import (
    JSON,
    Expectation,
    Overlay,
    Snapshot,
    TrickCard,
    json_expectation,
    json_int,
    json_ints,
    json_opt_int,
    json_trick,
)
from controller.games.oh_pshaw.actions import Verb
from controller.games.oh_pshaw.cards import SUITS
from controller.games.oh_pshaw.events import BidStatus
from controller.games.oh_pshaw.state import GAME_ID, TITLE, Phase


@dataclass(frozen=True)
class Renege:
    """A proven renege: ``seat`` failed to follow in ``trick`` (from 1) while holding the suit."""

    seat: int
    trick: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, "trick": self.trick}


@dataclass(frozen=True)
class OhPshawSnapshot(Snapshot):
    """What everyone at an Oh Pshaw table can see; the display reads its fields.

    Per-seat tuples are indexed by engine seat. The table's bid cursor is not
    here but in ``OhPshawOverlay``.
    """

    game: str
    title: str
    players: int
    phase: Phase
    round: int
    rounds_scheduled: int
    tie_break: bool
    tied: tuple[int, ...]
    dealer: int
    eldest: int
    hand_size: int
    turns_card: bool
    trump_card: str | None
    trump: str | None  # suit letter
    bids: tuple[int | None, ...]
    bid_total: int
    status: BidStatus | None
    hook_forbids: int | None
    tricks: tuple[int, ...]
    trick_number: int
    leader: int
    led_suit: str | None
    trick: tuple[TrickCard, ...]
    last_trick: tuple[TrickCard, ...]
    last_trick_winner: int | None
    hand_registered: tuple[bool, ...]
    reneges: tuple[Renege, ...]
    round_scores: tuple[int, ...]
    totals: tuple[int, ...]
    leaders: tuple[int, ...]
    next: Expectation | None
    winners: tuple[int, ...]
    # The round turns a card that is not turned yet (a table dealing as the
    # rulebook does waits for it before the bidding).
    awaiting_turned_card: bool = False
    # Per seat during play: tricks still needed to make the bid (negative: too
    # many taken), None without a bid.
    tricks_needed: tuple[int | None, ...] = ()
    ended_early: bool = False  # staff ended the game early: the leaders won
    # The previous round's scores per seat (empty in round 1): the round summary the
    # table shows while the next round is bid.
    last_round: tuple[int, ...] = ()
    # The Wizard variant: the dealer turned a Wizard and has yet to choose trump.
    awaiting_trump_choice: bool = False

    def reneged(self, seat: int) -> bool:
        return any(r.seat == seat for r in self.reneges)

    def to_json(self) -> JSON:
        out: JSON = {
            "game": self.game,
            "title": self.title,
            "players": self.players,
            "phase": self.phase.value,
            "round": self.round,
            "rounds_scheduled": self.rounds_scheduled,
            "tie_break": self.tie_break,
            "tied": list(self.tied),
            "dealer": self.dealer,
            "eldest": self.eldest,
            "hand_size": self.hand_size,
            "turns_card": self.turns_card,
            "trump_card": self.trump_card,
            "trump": self.trump,
            "bids": list(self.bids),
            "bid_total": self.bid_total,
            "status": self.status,
            "hook_forbids": self.hook_forbids,
            "tricks": list(self.tricks),
            "trick_number": self.trick_number,
            "leader": self.leader,
            "led_suit": self.led_suit,
            "trick": [t.to_json() for t in self.trick],
            "last_trick": [t.to_json() for t in self.last_trick],
            "last_trick_winner": self.last_trick_winner,
            "hand_registered": list(self.hand_registered),
            "reneges": [r.to_json() for r in self.reneges],
            "round_scores": list(self.round_scores),
            "totals": list(self.totals),
            "leaders": list(self.leaders),
            "next": None if self.next is None else self.next.to_json(),
            "winners": list(self.winners),
            "awaiting_turned_card": self.awaiting_turned_card,
            "tricks_needed": list(self.tricks_needed),
        }
        if self.ended_early:
            out["ended_early"] = True
        if self.last_round:
            out["last_round"] = list(self.last_round)
        if self.awaiting_trump_choice:
            out["awaiting_trump_choice"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        totals = json_ints(data.get("totals"))
        players = json_int(data.get("players"), len(totals))
        phase, status = data.get("phase"), data.get("status")
        trump, led = data.get("trump"), data.get("led_suit")
        card = data.get("trump_card")
        reneges = data.get("reneges")
        return cls(
            game=str(data.get("game", GAME_ID)),
            title=str(data.get("title") or TITLE),
            players=players,
            phase=Phase(phase) if phase in set(Phase) else Phase.BID,
            round=json_int(data.get("round"), 1),
            rounds_scheduled=json_int(data.get("rounds_scheduled"), 1),
            tie_break=data.get("tie_break") is True,
            tied=json_ints(data.get("tied")),
            dealer=json_int(data.get("dealer")),
            eldest=json_int(data.get("eldest")),
            hand_size=json_int(data.get("hand_size"), 1),
            turns_card=data.get("turns_card") is True,
            trump_card=card if isinstance(card, str) else None,
            trump=trump if isinstance(trump, str) and trump in SUITS else None,
            bids=_per_seat(data.get("bids"), players),
            bid_total=json_int(data.get("bid_total")),
            status=BidStatus(status) if status in set(BidStatus) else None,
            hook_forbids=json_opt_int(data.get("hook_forbids")),
            tricks=tuple(v or 0 for v in _per_seat(data.get("tricks"), players)),
            trick_number=json_int(data.get("trick_number"), 1),
            leader=json_int(data.get("leader")),
            led_suit=led if isinstance(led, str) and led in SUITS else None,
            trick=json_trick(data.get("trick")),
            last_trick=json_trick(data.get("last_trick")),
            last_trick_winner=json_opt_int(data.get("last_trick_winner")),
            hand_registered=tuple(v is True for v in (data.get("hand_registered") or [])),
            reneges=tuple(
                Renege(json_int(r.get("seat")), json_int(r.get("trick")))
                for r in (reneges if isinstance(reneges, list) else [])
                if isinstance(r, Mapping)
            ),
            round_scores=json_ints(data.get("round_scores")),
            totals=totals,
            leaders=json_ints(data.get("leaders")),
            next=json_expectation(data.get("next"), Verb),
            winners=json_ints(data.get("winners")),
            awaiting_turned_card=data.get("awaiting_turned_card") is True,
            tricks_needed=_per_seat(data.get("tricks_needed"), players),
            ended_early=data.get("ended_early") is True,
            last_round=json_ints(data.get("last_round")),
            awaiting_trump_choice=data.get("awaiting_trump_choice") is True,
        )


@dataclass(frozen=True)
class OhPshawOverlay(Overlay):
    """What the table shows over an Oh Pshaw snapshot: the bidding seat's bid cursor.

    ``bid_cursor`` is the bid the bidding seat's OK button would make now (None
    outside the bidding); the seat moves it with its buttons, the engine never sees it.
    """

    bid_cursor: int | None = None

    def to_json(self) -> JSON:
        return {} if self.bid_cursor is None else {"bid_cursor": self.bid_cursor}


def _per_seat(value: object, players: int) -> tuple[int | None, ...]:
    """A per-seat list of whole numbers or nulls, ``players`` long."""
    items = list(value) if isinstance(value, list | tuple) else []
    items += [None] * (players - len(items))
    return tuple(json_opt_int(v) for v in items[:players])
