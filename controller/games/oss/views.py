"""What Oss shows: the typed snapshot, the replay report and the score sheet."""

from __future__ import annotations

from controller.games.base import (
    JSON,
    best_seats,
)
from controller.games.oss import cards
from controller.games.oss.actions import (
    Phase,
)
from controller.games.oss.snapshot import (
    AttemptView,
    ChallengeView,
    OssSnapshot,
    PlacementMode,
    PlacementView,
    SeatState,
    TrickView,
)
from controller.games.oss.state import (
    OssState,
)
from controller.games.words import Items, Player, Verbatim, Words, say


class Views(OssState):
    """The snapshot, the report and the score sheet of a game of Oss."""

    def snapshot(self) -> OssSnapshot:
        totals = self.totals()
        tricks = []
        for index, name in enumerate(self.solo_tricks):
            below = [p for p in self._placements if p.trick == name]
            placements = [
                PlacementView(p.seat, p.value, self._mode(i, len(below)))
                for i, p in enumerate(below)
            ]
            tricks.append(TrickView.named(name, index, placements))
        attempts = []
        if self._attempts and self._phase not in (Phase.HAND, Phase.REVEAL, Phase.TRIBE):
            for i, attempt in enumerate(self._attempts):
                current = i == self._index and self.current_attempt is not None
                attempts.append(
                    AttemptView(
                        attempt.kind,
                        self._attempt_trick(attempt),
                        attempt.trick,
                        attempt.seats,
                        attempt.values,
                        self._outcomes[i] or ("current" if current else "waiting"),
                    )
                )
        duel = None
        if self.solo_tricks and self._duel is not None:
            duel = TrickView.named(self._duel)
        challenge = None
        if self._challenge is not None and self._phase is Phase.CHALLENGE_RESULT:
            card = cards.CHALLENGES_BY_NAME[self._challenge]
            challenge = ChallengeView(
                card.name, card.setup, card.do, card.note, tuple(self._remaining)
            )
        seats = tuple(
            SeatState(
                s,
                s == self._chief,
                sum(self._hands[s].values()),
                sum(self._decks[s].values()),
                tuple(w.card.value for w in self._won[s]),
                tuple(name for _, name in self._challenges[s]),
                totals[s],
                self.replays_left(s),
            )
            for s in range(self.players)
        )
        return OssSnapshot(
            round=self._round,
            rounds=self.rounds,
            phase=self._phase,
            chief=self._chief,
            next=self.expected,
            rounds_option=self.rounds,
            replays_per_round=self.replays_per_round,
            replay_scope=self.replay_scope,
            tricks=tuple(tricks),
            duel=duel,
            attempts=tuple(attempts),
            current=self._index if self.current_attempt else None,
            duel_winner=self._winner,
            replaying=self._loser,
            challenge=challenge,
            challenges_left=len(self.available_challenges()),
            seats=seats,
            winners=tuple(best_seats(totals)),
            last_attempts=self._results,
        )

    def _mode(self, position: int, count: int) -> PlacementMode:
        if count == 1 and self._phase is Phase.TRIBE:
            return PlacementMode.ALONE
        return PlacementMode.DUEL if position < 2 and count >= 2 else PlacementMode.SOLO

    def sheet_notes(self, round_report: JSON) -> list[Words]:
        notes: list[Words] = []
        tricks = round_report["tricks"]
        if tricks:
            notes.append(
                say(
                    "Solo tricks {solo}; duel trick {duel}",
                    solo=Items(tuple(Verbatim(t) for t in tricks["solo"])),
                    duel=Verbatim(tricks["duel"]),
                )
            )
        challenge = round_report["challenge"]
        if challenge:
            winner, card = challenge["winner"], Verbatim(challenge["card"])
            if winner is None:
                notes.append(say("Challenge {challenge}: nobody won it", challenge=card))
            else:
                notes.append(
                    say(
                        "Challenge {challenge} won by {player}",
                        challenge=card,
                        player=Player(winner),
                    )
                )
        return notes

    def sheet_rows(self, round_report: JSON) -> list[tuple[Words, list[Words]]]:
        won: list[Words] = [" ".join(map(str, values)) or "-" for values in round_report["won"]]
        challenge = round_report["challenge"]
        winner = challenge["winner"] if challenge else None
        # A challenge card's name is a proper name, the same in every language.
        card = challenge["card"] if challenge else ""
        chief: list[Words] = [
            say("chief") if s == round_report["chief"] else "" for s in range(self.players)
        ]
        taken: list[Words] = [card if s == winner else "-" for s in range(self.players)]
        replays: list[Words] = [str(n) for n in round_report["replays"]]
        return [
            (say("chief"), chief),
            (say("tribe cards"), won),
            (say("challenge"), taken),
            (say("replays"), replays),
        ]

    def report(self) -> JSON:
        rounds = []
        for number, info in enumerate(self._info, start=1):
            rounds.append(
                {
                    "scores": self._round_scores(number),
                    "chief": info.chief,
                    "tricks": {"solo": list(info.solo), "duel": info.duel} if info.duel else None,
                    "won": [
                        [w.card.value for w in self._won[s] if w.round == number]
                        for s in range(self.players)
                    ],
                    "replays": list(info.replays),
                    "challenge": (
                        {"card": info.challenge, "winner": info.challenge_winner}
                        if info.challenge
                        else None
                    ),
                }
            )
        totals = self.totals()
        expected = self.expected
        return {
            "finished": expected is None,
            "rounds": rounds,
            "totals": totals,
            "winners": best_seats(totals),
            "next": expected.to_json() if expected else None,
        }
