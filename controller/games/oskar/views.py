"""What Oskar shows: the replay report, the score sheet's rows and notes, the snapshot."""

from __future__ import annotations

from controller.games.base import (
    JSON,
    best_seats,
)
from controller.games.oskar.cards import (
    stock_size,
    trick_winner,
)
from controller.games.oskar.scoring import (
    RoundResult,
    genre_text,
)
from controller.games.oskar.snapshot import (
    GENRES,
    NextUp,
    OskarSnapshot,
    Phase,
    RerollView,
    RoundView,
    SeatView,
    StockResult,
    StockView,
    TrickCard,
    Verb,
    genre_columns,
)
from controller.games.oskar.state import (
    OskarState,
)
from controller.games.words import Items, Player, Words, say, say_plural


class Views(OskarState):
    """The report, the score sheet and the typed snapshot of a game of Oskar."""

    def totals(self) -> list[int]:
        """Oskar tokens per seat."""
        return list(self.tokens)

    def sheet_rows(self, round_report: JSON) -> list[tuple[Words, list[Words]]]:
        points: list[Words] = [str(p) for p in round_report["points"]]
        return [(say("film points"), points)]

    def sheet_notes(self, round_report: JSON) -> list[Words]:
        notes: list[Words] = []
        if round_report["trendy"]:
            trendy = Items(tuple(genre_text(g) for g in round_report["trendy"]))
            notes.append(say("Trendy genres: {genres}", genres=trendy))
        if round_report.get("genres"):
            per_genre = Items(
                tuple(
                    say("{genre} {points}", genre=genre_text(g), points=t)
                    for g, t in round_report["genres"].items()
                )
            )
            notes.append(say("Points per genre: {points}", points=per_genre))
        stock = round_report.get("stock")
        if stock is not None:
            won_by, value = stock["won_by"], stock["value"]
            if won_by is None:
                notes.append(
                    say_plural(
                        "Nobody took the stock ({n} point)",
                        "Nobody took the stock ({n} points)",
                        value,
                    )
                )
            else:
                notes.append(
                    say_plural(
                        "The stock ({n} point) went to {player}",
                        "The stock ({n} points) went to {player}",
                        value,
                        player=Player(won_by),
                    )
                )
        return notes

    def round_json(self, result: RoundResult) -> JSON:
        return {
            "scores": list(result.score.tokens),
            "points": list(result.points),
            "trendy": list(result.score.trendy),
            "genres": {g: t for g, t in result.score.genre_totals.items() if t},
            "stock": {
                "value": result.stock_value,
                "won_by": result.stock_winner,
            },
        }

    def _running_round_json(self) -> JSON:
        # Tokens are handed out only when the round is scored, so a round in
        # progress adds none yet; its points are the tricks won so far.
        return {
            "scores": [0] * self.players,
            "points": list(self.round.points),
            "trendy": [],
        }

    def report(self) -> JSON:
        rounds = [self.round_json(result) for result in self.results]
        if self.round_in_progress():
            rounds.append(self._running_round_json())
        expected = self.expected
        return {
            "finished": self.phase is Phase.OVER,
            "rounds": rounds,
            "totals": self.totals(),
            "winners": best_seats(self.tokens),
            "next": None if expected is None else expected.to_json(),
        }

    def snapshot(self) -> OskarSnapshot:
        # The base contract still says JSON; OskarSnapshot.to_json() is that JSON.
        rnd = self.round
        expected = self.expected
        genre_totals: dict[str, int] = dict.fromkeys(GENRES, 0)
        for seat, faces in enumerate(self.dice):
            if faces is not None:
                for genre in set(faces):
                    genre_totals[genre] += rnd.points[seat]
        seats = tuple(
            SeatView(
                seat=seat,
                dice=self.dice[seat],
                tokens=self.tokens[seat],
                points=rnd.points[seat],
                tricks_won=rnd.tricks_won[seat],
                cards_left=self.hand_size - rnd.cards_played[seat],
                stock=rnd.stock_winner == seat,
                rolled=self.dice[seat] is not None,
                hand_registered=rnd.hands[seat] is not None and self.round_in_progress(),
            )
            for seat in range(self.players)
        )
        last = self._round_view(self.results[-1]) if self.results else None
        # Once a round is scored (rerolls, or the game over) the columns show its
        # scored totals, stock included; while it is played, the running ones.
        scored = self.phase in (Phase.REROLL, Phase.OVER) and last is not None
        if scored:
            assert last is not None
            columns = genre_columns(last.genres, last.trendy)
        else:
            columns = genre_columns(genre_totals, None)
        rule = self.rule
        return OskarSnapshot(
            game=self.game_id,
            title=self.title,
            players=self.players,
            phase=self.phase,
            round=rnd.number,
            dealer=rnd.dealer,
            lead=rnd.lead,
            hand_size=self.hand_size,
            tokens_to_win=self.tokens_to_win,
            trick_number=rnd.trick_number,
            trick_lead=rnd.trick_lead,
            trick=tuple(TrickCard(s, str(c)) for s, c in rnd.trick),
            trick_winner=trick_winner(rnd.trick) if rnd.trick else None,
            zeros_in_trick=sum(1 for _, c in rnd.trick if c.is_zero),
            played=tuple(sorted(str(c) for c in rnd.played.elements())),
            # The stock lies face down: its size and its winner are public, its
            # value only once the round is scored (in "last_round").
            stock=StockView(stock_size(self.players), rnd.stock_winner),
            genre_totals=genre_totals,
            trend_threshold=self.trend_threshold,
            seats=seats,
            doubles=self.doubles,
            rerolls=None
            if rule is None
            else RerollView(rule.order, rule.most, rule.fewest, self.rerolls_done),
            last_round=last,
            next=None if expected is None else NextUp(expected.seat, Verb(expected.expects)),
            tokens=tuple(self.tokens),
            winners=tuple(best_seats(self.tokens)) if self.phase is Phase.OVER else (),
            columns=columns,
            columns_scored=scored,
            decides=self.decides,
            last_trick=tuple(TrickCard(s, str(c)) for s, c in rnd.last_trick),
            last_trick_winner=rnd.last_winner,
            last_rolls=self.last_rolls,
        )

    def _round_view(self, result: RoundResult) -> RoundView:
        report = self.round_json(result)
        return RoundView(
            scores=tuple(report["scores"]),
            points=tuple(report["points"]),
            trendy=tuple(report["trendy"]),
            genres=report["genres"],
            stock=StockResult(result.stock_value, result.stock_winner),
        )
