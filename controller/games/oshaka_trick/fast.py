"""FAST PATH. Oshaka Trick's one round on plain integers, for the bots' simulated playouts.

Like Oh Pshaw's ``fast``: the engine (``engine.OshakaTrick``) validates,
explains and emits events for the table; a search bot's imagined rounds need
none of that. This module keeps what decides one round's scores: the hands,
the current trick, the cards waiting to be placed and each seat's area (the top
of each face-up column, the face-down count, the Oshaka penalties).

A card is ``colour * 16 + number`` (colour 0..3 in ``COLOURS`` order, number
1..13): ``card >> 4`` is its colour, ``card & 15`` its number. Every seat's hand
is known, so must-follow always holds and there are no reneges. Actions are
ints: a card to play, or for a placement 1 (face up) or 0 (face down).

``tests/games/oshaka_trick/test_oshaka_trick_fast.py`` plays the same deals and actions through
this and the engine and compares legal actions, turns and scores.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from controller.games.oshaka_trick.cards import COLOURS, TRICKS_PER_ROUND, Card, top_number
from controller.games.oshaka_trick.engine import OshakaTrick
from controller.games.oshaka_trick.state import Phase

FACE_UP, FACE_DOWN = 1, 0


def to_int(card: Card) -> int:
    return COLOURS.index(card.colour) << 4 | card.number


def to_card(card: int) -> Card:
    return Card(COLOURS[card >> 4], card & 15)


class FastRound:
    """One Oshaka Trick round in integers."""

    __slots__ = (
        "down",
        "hands",
        "lead",
        "left",
        "ncolumns",
        "oshaka",
        "placing",
        "played",
        "players",
        "round2",
        "to_place",
        "tops",
        "trick",
        "turn",
        "winner",
    )

    def __init__(
        self, players: int, hands: Sequence[Sequence[int]], lead: int, round_number: int = 1
    ) -> None:
        """A round about to be played: ``hands[seat]`` the dealt cards, ``lead`` the first lead."""
        self.players = players
        self.round2 = round_number == 2
        self.hands = [list(hand) for hand in hands]
        self.lead = lead
        self.turn = lead
        self.trick: list[int] = []  # cards of the current trick, in play order from ``lead``
        self.placing = False
        self.to_place: list[int] = []  # cards the winner still places, next first
        self.winner = -1
        self.left = TRICKS_PER_ROUND  # tricks not yet complete
        self.tops = [[0, 0, 0, 0] for _ in range(players)]  # face-up column tops (0: none)
        self.ncolumns = [0] * players
        self.down = [0] * players  # face-down cards
        self.oshaka = [0] * players  # sum of the forced penalties' numbers
        self.played: set[int] = set()  # every card played this round

    @classmethod
    def from_engine(cls, engine: OshakaTrick, hands: Sequence[Sequence[int]]) -> FastRound:
        """The engine's current round (playing or placing), with ``hands`` as every seat's cards."""
        rnd = engine.round
        fast = cls(engine.players, hands, rnd.trick.lead_seat, rnd.number)
        fast.trick = [to_int(c) for _, c in rnd.trick.plays]
        fast.turn = (fast.lead + len(fast.trick)) % fast.players
        fast.played = {to_int(c) for c in rnd.played}
        fast.left = TRICKS_PER_ROUND - rnd.trick_number + 1
        for seat, area in enumerate(rnd.areas):
            for colour, column in area.columns.items():
                if column:
                    fast.tops[seat][COLOURS.index(colour)] = column[-1].number
                    fast.ncolumns[seat] += 1
            fast.down[seat] = len(area.face_down)
            fast.oshaka[seat] = sum(c.number for c in area.oshaka)
        if engine.phase is Phase.PLACE:
            # The engine keeps the won trick on the table until its cards are placed.
            assert rnd.winner is not None
            fast.trick = []
            fast.left -= 1
            fast.placing = True
            fast.winner = fast.turn = rnd.winner
            fast.to_place = [to_int(c) for c in rnd.to_place]
        return fast

    def copy(self) -> FastRound:
        other = FastRound.__new__(FastRound)
        other.players, other.round2, other.lead, other.turn = (
            self.players,
            self.round2,
            self.lead,
            self.turn,
        )
        other.placing, other.winner, other.left = self.placing, self.winner, self.left
        other.hands = [list(h) for h in self.hands]
        other.trick = list(self.trick)
        other.to_place = list(self.to_place)
        other.tops = [list(t) for t in self.tops]
        other.ncolumns = list(self.ncolumns)
        other.down = list(self.down)
        other.oshaka = list(self.oshaka)
        other.played = set(self.played)
        return other

    @property
    def over(self) -> bool:
        return self.left == 0 and not self.placing

    def legal(self) -> list[int]:
        """Cards the seat to play may play, or ``[FACE_UP, FACE_DOWN]`` while placing."""
        if self.placing:
            return [FACE_UP, FACE_DOWN]
        hand = self.hands[self.turn]
        if self.trick:
            lead = self.trick[0] >> 4
            follow = [c for c in hand if c >> 4 == lead]
            if follow:
                return follow
        return list(hand)

    def apply(self, action: int) -> None:
        if self.placing:
            self.place(action == FACE_UP)
        else:
            self.play(action)

    def play(self, card: int) -> None:
        self.hands[self.turn].remove(card)
        self.played.add(card)
        trick = self.trick
        trick.append(card)
        players = self.players
        if len(trick) < players:
            self.turn = (self.turn + 1) % players
            return
        winner = self.lead + self.trick_winner(trick)
        self.winner = winner % players
        # Smallest number first; equal numbers in the order played (a stable sort).
        self.to_place = sorted(trick, key=lambda c: c & 15)
        self.trick = []
        self.left -= 1
        self.placing = True
        self.turn = self.winner
        self._resolve()

    @staticmethod
    def trick_winner(trick: Sequence[int]) -> int:
        """The index in ``trick`` of the winning card (the kernel's ``Trick.winner``, lowest)."""
        lead = trick[0] >> 4
        best = -1
        best_number = 99
        for i, card in enumerate(trick):
            # Off-lead cards: the smallest number, equal numbers to the later player (<=).
            if card >> 4 != lead and (card & 15) <= best_number:
                best, best_number = i, card & 15
        if best >= 0:
            return best
        return min(range(len(trick)), key=lambda i: trick[i] & 15)

    def forced(self, seat: int, card: int) -> bool:
        """Whether ``card`` would be a forced Oshaka penalty for ``seat`` now."""
        top = self.tops[seat][card >> 4]
        if top:
            return (card & 15) < top
        return self.round2 and self.ncolumns[seat] >= 3

    def _resolve(self) -> None:
        """Place forced penalties until a card needs the winner's choice, or none is left."""
        seat = self.winner
        to_place = self.to_place
        while to_place:
            card = to_place[0]
            if not self.forced(seat, card):
                return
            to_place.pop(0)
            self.oshaka[seat] += card & 15
        self.placing = False
        self.turn = self.lead = seat

    def place(self, face_up: bool) -> None:
        seat = self.winner
        card = self.to_place.pop(0)
        if face_up:
            tops = self.tops[seat]
            if not tops[card >> 4]:
                self.ncolumns[seat] += 1
            tops[card >> 4] = card & 15
        else:
            self.down[seat] += 1
        self._resolve()

    def scores(self) -> list[int]:
        """Each seat's round score: column tops, -1 per face-down card, minus its Oshaka cards."""
        return [sum(self.tops[s]) - self.down[s] - self.oshaka[s] for s in range(self.players)]


def deck(players: int) -> list[int]:
    top = top_number(players)
    return [colour << 4 | n for colour in range(4) for n in range(1, top + 1)]


def deal_round(players: int, rng: random.Random) -> list[list[int]]:
    """A random deal in integers: 13 cards per seat (3 players: one card stays out)."""
    cards = rng.sample(deck(players), 13 * players)
    return [cards[s * 13 : (s + 1) * 13] for s in range(players)]


def random_playout(fast: FastRound, rng: random.Random) -> list[int]:
    """Play ``fast`` to its end with uniformly random legal actions; its scores."""
    choice = rng.choice
    while not fast.over:
        fast.apply(choice(fast.legal()))
    return fast.scores()
