"""What everyone at an Oskar table can see, as typed values: the engine's snapshot.

The engine (``controller.games.oskar.engine``) builds an ``OskarSnapshot``; the
display reads its fields by name. It lives apart from the rules so that the
display can import it without importing the rules (the genres and verbs are
``terms``', which the spec reads). The verbs and phases are ``StrEnum``s, so
they compare equal to the record's words and print as them in JSON.

Standard library only, like every module in ``controller/games``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from controller.games.base import JSON, Overlay, Snapshot
from controller.games.oskar.terms import GENRE_CAPTIONS as GENRE_CAPTIONS
from controller.games.oskar.terms import GENRE_WORDS as GENRE_WORDS
from controller.games.oskar.terms import GENRES as GENRES
from controller.games.oskar.terms import TREND_THRESHOLD as TREND_THRESHOLD
from controller.games.oskar.terms import Verb as Verb
from controller.games.oskar.terms import genre_word as genre_word


class Phase(enum.StrEnum):
    """Where a game stands: first roll of the dice, playing a round, rerolling after it, over."""

    DICE = "dice"
    PLAY = "play"
    REROLL = "reroll"
    OVER = "over"


def _plain(value: object) -> Any:
    """``value`` as plain JSON: tuples as lists, nested snapshots as objects, enums as words."""
    if isinstance(value, enum.StrEnum):
        return str(value)
    if isinstance(value, Snapshot):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


class _Plain(Snapshot):
    """A snapshot part whose JSON form turns tuples into lists (JSON has no tuples)."""

    def to_json(self) -> JSON:
        plain: JSON = _plain(self)
        return plain


@dataclass(frozen=True)
class TrickCard(_Plain):
    """One card in the trick: who played it and its notation."""

    seat: int
    card: str


@dataclass(frozen=True)
class StockView(_Plain):
    """The face-down stock: its size, and the seat that won it this round (if any)."""

    cards: int
    won_by: int | None


@dataclass(frozen=True)
class SeatView(_Plain):
    """One seat's public state."""

    seat: int
    dice: tuple[str, str] | None
    tokens: int
    points: int
    tricks_won: int
    cards_left: int
    stock: bool  # won the stock this round
    rolled: bool
    hand_registered: bool  # its hand for this round is known to the engine


@dataclass(frozen=True)
class RollView(_Plain):
    """A roll of a seat's dice: the game's ``number``-th, the ``faces`` it left, which
    dice were rolled (both at the first roll; none when a seat kept both), the faces
    before (None at the first roll), and whether they show doubles now."""

    number: int
    seat: int
    faces: tuple[str, str]
    rolled: tuple[int, ...]
    before: tuple[str, str] | None
    doubles: bool


@dataclass(frozen=True)
class RerollView(_Plain):
    """After a round: reroll order, seats with the most and the fewest points, how many done."""

    order: tuple[int, ...]
    most: tuple[int, ...]
    fewest: tuple[int, ...]
    done: int


@dataclass(frozen=True)
class StockResult(_Plain):
    """A scored round's stock: its value and who won it."""

    value: int
    won_by: int | None


@dataclass(frozen=True)
class RoundView(_Plain):
    """A scored round as the report shows it (``genres`` lists genres with points only)."""

    scores: tuple[int, ...]
    points: tuple[int, ...]
    trendy: tuple[str, ...]
    genres: Mapping[str, int]
    stock: StockResult


@dataclass(frozen=True)
class GenreColumn(_Plain):
    """One genre's column toward the trend line, as the rules count it now."""

    genre: str
    points: int
    needs: int  # points still missing to reach the trend line (0 once trendy)
    trendy: bool


@dataclass(frozen=True)
class NextUp(_Plain):
    """What the game waits for (the report's ``next``)."""

    seat: int
    expects: Verb


@dataclass(frozen=True)
class OskarSnapshot(_Plain):
    """Everything public about an Oskar game (never a hand).

    ``columns`` are the genre columns the display fills: the running totals
    while a round is played, the scored ones (stock included) once it is
    scored (``columns_scored``). ``doubles`` is the seat whose doubles offer
    is open; ``decides`` is the seat the table waits for first (the open
    offer, else ``next``).
    """

    game: str
    title: str
    players: int
    phase: Phase
    round: int
    dealer: int
    lead: int
    hand_size: int
    tokens_to_win: int
    trick_number: int
    trick_lead: int
    trick: tuple[TrickCard, ...]
    trick_winner: int | None
    zeros_in_trick: int
    played: tuple[str, ...]
    stock: StockView
    genre_totals: Mapping[str, int]
    trend_threshold: int
    seats: tuple[SeatView, ...]
    doubles: int | None
    rerolls: RerollView | None
    last_round: RoundView | None
    next: NextUp | None
    tokens: tuple[int, ...]
    winners: tuple[int, ...]
    columns: tuple[GenreColumn, ...]
    columns_scored: bool
    decides: int | None
    # The round's last completed trick and its winner, and the game's latest rolls of the
    # dice: what the centre holds a moment and a seat brings back with a long NEXT.
    last_trick: tuple[TrickCard, ...] = ()
    last_trick_winner: int | None = None
    last_rolls: tuple[RollView, ...] = ()  # newest last

    def seat(self, seat: int) -> SeatView | None:
        """The seat's public state, or None for a seat not in the game."""
        return self.seats[seat] if 0 <= seat < len(self.seats) else None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> OskarSnapshot:
        """Read the JSON form back (a log, a golden file); KeyError if incomplete."""
        last = obj["last_round"]
        rerolls = obj["rerolls"]
        nxt = obj["next"]

        return cls(
            game=obj["game"],
            title=obj["title"],
            players=obj["players"],
            phase=Phase(obj["phase"]),
            round=obj["round"],
            dealer=obj["dealer"],
            lead=obj["lead"],
            hand_size=obj["hand_size"],
            tokens_to_win=obj["tokens_to_win"],
            trick_number=obj["trick_number"],
            trick_lead=obj["trick_lead"],
            trick=tuple(TrickCard(t["seat"], t["card"]) for t in obj["trick"]),
            trick_winner=obj["trick_winner"],
            zeros_in_trick=obj["zeros_in_trick"],
            played=tuple(obj["played"]),
            stock=StockView(obj["stock"]["cards"], obj["stock"]["won_by"]),
            genre_totals=dict(obj["genre_totals"]),
            trend_threshold=obj["trend_threshold"],
            seats=tuple(
                SeatView(
                    seat=s["seat"],
                    dice=None if s["dice"] is None else (s["dice"][0], s["dice"][1]),
                    tokens=s["tokens"],
                    points=s["points"],
                    tricks_won=s["tricks_won"],
                    cards_left=s["cards_left"],
                    stock=s["stock"],
                    rolled=s["rolled"],
                    hand_registered=s["hand_registered"],
                )
                for s in obj["seats"]
            ),
            doubles=obj["doubles"],
            rerolls=None
            if rerolls is None
            else RerollView(
                tuple(rerolls["order"]),
                tuple(rerolls["most"]),
                tuple(rerolls["fewest"]),
                rerolls["done"],
            ),
            last_round=None
            if last is None
            else RoundView(
                tuple(last["scores"]),
                tuple(last["points"]),
                tuple(last["trendy"]),
                dict(last["genres"]),
                StockResult(last["stock"]["value"], last["stock"]["won_by"]),
            ),
            next=None if nxt is None else NextUp(nxt["seat"], Verb(nxt["expects"])),
            tokens=tuple(obj["tokens"]),
            winners=tuple(obj["winners"]),
            columns=tuple(
                GenreColumn(c["genre"], c["points"], c["needs"], c["trendy"])
                for c in obj["columns"]
            ),
            columns_scored=obj["columns_scored"],
            decides=obj["decides"],
            last_trick=tuple(TrickCard(t["seat"], t["card"]) for t in obj.get("last_trick", ())),
            last_trick_winner=obj.get("last_trick_winner"),
            last_rolls=tuple(
                RollView(
                    roll["number"],
                    roll["seat"],
                    (roll["faces"][0], roll["faces"][1]),
                    tuple(roll["rolled"]),
                    None if roll["before"] is None else (roll["before"][0], roll["before"][1]),
                    roll["doubles"],
                )
                for roll in obj.get("last_rolls", ())
            ),
        )


@dataclass(frozen=True)
class OskarOverlay(Overlay):
    """What the table shows over an Oskar snapshot: the dice each seat has picked.

    ``picked`` holds, per engine seat, the dice it has picked with its buttons to
    reroll. The engine never sees them: what a person points at is no rule.
    """

    picked: tuple[tuple[int, ...], ...] = ()

    def picked_by(self, seat: int) -> tuple[int, ...]:
        """The dice ``seat`` has picked (none for a seat the overlay does not list)."""
        return self.picked[seat] if 0 <= seat < len(self.picked) else ()

    def to_json(self) -> JSON:
        return {"picked": [list(dice) for dice in self.picked]}


def genre_columns(
    totals: Mapping[str, int], trendy: tuple[str, ...] | None, threshold: int = TREND_THRESHOLD
) -> tuple[GenreColumn, ...]:
    """The columns for ``totals``; ``trendy`` as scored, or None to judge by the threshold."""
    out = []
    for genre in GENRES:
        points = totals.get(genre, 0)
        is_trendy = points >= threshold if trendy is None else genre in trendy
        out.append(GenreColumn(genre, points, max(0, threshold - points), is_trendy))
    return tuple(out)
