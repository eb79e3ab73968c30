"""The Oss cards: the 20 trick cards and the 5 challenge cards, with the rulebook's texts.

The texts are the rulebook's own (``shared/rules/oss.txt``, "List of Tricks &
Challenges"), split into what to set up, what to do, and the card's extra
note (how it is won or lost, or what a tie means). The display shows them as
the help for the trick being attempted; the engine uses only the names and
families. Standard library only, like everything in ``controller/games``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from controller.games.base import describe
from controller.games.cards import BadCard, CardFace, FaceColour
from controller.games.words import Verbatim, Words, say

#: The family number of the duel tricks (the solo families are 1, 2 and 3).
DUEL = 4

#: Every tribe holds these eight values (the number of jacks a solo attempt needs).
TRIBE_VALUES: tuple[int, ...] = (1, 1, 2, 2, 3, 3, 4, 4)

#: What one challenge card is worth at the end of the game.
CHALLENGE_POINTS = 4


@dataclass(frozen=True)
class TrickCard:
    """One trick card: a solo trick (families 1..3) or a duel trick (family ``DUEL``).

    ``throw`` is the card's jack symbol: ``"classic"``, ``"unusual"`` or
    ``"none"`` (no throwing up of the Jack). ``style`` is how a duel is played,
    ``"simultaneously"`` or ``"consecutively"``; it is empty for solo tricks.
    """

    name: str
    family: int
    throw: str
    # The rulebook's instructions, as messages (the display shows them in the reader's language).
    setup: Words
    do: Words
    note: Words = ""
    style: str = ""

    @property
    def kind(self) -> str:
        """``"solo"`` or ``"duel"``."""
        return "duel" if self.family == DUEL else "solo"

    def to_json(self) -> dict[str, Any]:
        """The card as plain data for the display."""
        data: dict[str, Any] = {
            "name": self.name,
            "family": self.family,
            "kind": self.kind,
            "throw": self.throw,
            "setup": str(self.setup),
            "do": str(self.do),
            "note": str(self.note),
        }
        if self.style:
            data["style"] = self.style
        return data


@dataclass(frozen=True)
class ChallengeCard:
    """One challenge card, attempted by all the players together; worth 4 points."""

    name: str
    do: Words
    setup: Words = ""
    note: Words = ""
    #: WarnOss is removed from the deck in a 2-player game.
    min_players: int = 2

    def to_json(self) -> dict[str, Any]:
        """The card as plain data for the display."""
        return {
            "name": self.name,
            "setup": str(self.setup),
            "do": str(self.do),
            "note": str(self.note),
        }


TRICKS: tuple[TrickCard, ...] = (
    TrickCard(
        name="Aslik",
        family=1,
        throw="classic",
        setup=say("toss the jacks on the table. Throw up/Grab the Jack in the classic way."),
        do=say("pick up one by one the jacks on the table."),
    ),
    TrickCard(
        name="Ehfel",
        family=1,
        throw="classic",
        setup=say("take all the jacks in the hand. Throw up/Grab the Jack in the classic way."),
        do=say("put down one jack on the table while keeping the others in your hand."),
    ),
    TrickCard(
        name="Kuda-Kuda",
        family=1,
        throw="unusual",
        setup=say(
            "toss the jacks on the table. Throw up the Jack the classic way, but always "
            "grab with the other hand."
        ),
        do=say(
            "pick up one by one the jacks on the table with the hand that hasn't been used "
            "to throw up the Jack. Reverse the hands each time you succeed in a throw."
        ),
    ),
    TrickCard(
        name="Takh-Takh",
        family=1,
        throw="classic",
        setup=say("toss the jacks on the table. Throw up/Grab the Jack in the classic way."),
        do=say("set upright one by one the jacks on the edge."),
        note=say(
            "Won: the number of jacks set upright on the edge corresponds to the number of "
            "the card played OR all the jacks are on the edge."
        ),
    ),
    TrickCard(
        name="Wollo",
        family=1,
        throw="classic",
        setup=say(
            'put your "second" hand on the table to form a wall. Toss the jacks close to '
            "your hand. Throw up/Grab the Jack in the classic way."
        ),
        do=say("throw one by one the jacks over the wall."),
    ),
    TrickCard(
        name="Cumi-Cumi",
        family=2,
        throw="none",
        setup=say(
            "toss the jacks on the table. Then join the hands, fingers crossed except the "
            "index fingers. No throwing up of the Jack."
        ),
        do=say(
            "by using the index fingers as pliers, take a jack off the table, throw it up "
            "and grab it between your hands crossed."
        ),
    ),
    TrickCard(
        name="Gurnia",
        family=2,
        throw="classic",
        setup=say(
            "put the other hand with the fingers apart on the table and place a jack on the"
            " table in between each finger and close to the base of the figures. Throw "
            "up/Grab the Jack in the classic way."
        ),
        do=say("push under the hand the jacks one by one."),
    ),
    TrickCard(
        name="Nampan",
        family=2,
        throw="none",
        setup=say(
            "put together the palms of the hands, holding 4 jacks between them. No throwing"
            " up of the Jack."
        ),
        do=say(
            "throw up the jacks by opening the hands and grab the maximum of jacks into the"
            " main hand."
        ),
    ),
    TrickCard(
        name="Numa",
        family=2,
        throw="none",
        setup=say("put 5 jacks on the back of the hand. No throwing up of the Jack."),
        do=say(
            "throw up the 5 jacks together and catch as many as possible in the palm of the"
            " same hand."
        ),
    ),
    TrickCard(
        name="Polopo",
        family=2,
        throw="none",
        setup=say("put 4 jacks between the fingers, palm face down. No throwing up of the Jack."),
        do=say(
            "by moving only the fingers, transfer all of the jacks into the palm of the same hand."
        ),
        note=say("Lost: a jack falls."),
    ),
    TrickCard(
        name="Ariac",
        family=3,
        throw="classic",
        setup=say(
            "put the 4 jacks in a row on a table, spaced out a hand's width. Throw up/Grab "
            "the Jack in the classic way."
        ),
        do=say("hit with the edge of the hand on both sides of a jack to win it."),
    ),
    TrickCard(
        name="Glodoc",
        family=3,
        throw="classic",
        setup=say(
            "toss the jacks on the table. And then put the hand into the bag. Throw up/Grab"
            " the Jack in the classic way."
        ),
        do=say("pick up one by one the jacks on the table."),
        note=say("Note: Glodoc is like Aslik with the hand in the bag!"),
    ),
    TrickCard(
        name="Labah",
        family=3,
        throw="unusual",
        setup=say(
            "throw up the father and grab it on the back of your hand. Start again if it falls."
        ),
        do=say(
            "take one of the jacks on the table and put it in the palm of the hand without "
            "allowing the Jack to land. Start again until you get as many as the number on "
            "the card played."
        ),
    ),
    TrickCard(
        name="Maradono",
        family=3,
        throw="classic",
        setup=say(
            "put on the table 2 drum cards spaced out a hand's width \u2013 this is the goal. "
            "Toss the jacks at about one hand's length from the goal. Throw up/Grab the "
            "Jack in the classic way."
        ),
        do=say("throw one by one the jacks in the goal."),
    ),
    TrickCard(
        name="Meja",
        family=3,
        throw="classic",
        setup=say(
            "put on the table 2 drum cards side by side. Toss the jacks at about one hand's"
            " length from these cards. Throw up/Grab the Jack in the classic way."
        ),
        do=say("put down one by one the jacks on one of the two drum cards."),
    ),
    TrickCard(
        name="Bagi!",
        family=DUEL,
        throw="classic",
        style="simultaneously",
        setup=say(
            "each player takes a Jack (the white Jack or the black Jack) in his hand. The "
            "1st player of the duel tosses 4 jacks on the table between the two players. "
            "Throw up/Grab the Jack in the classic way."
        ),
        do=say(
            "simultaneously, but by throwing up / grabbing each time his Jack, each player "
            "tries to put the jacks one by one on the side of his choice (left or right)."
        ),
        note=say(
            "Winner: the player that grabbed his Jack while the other failed. Or, if there "
            "are no more jacks at the centre, the player that put aside the most jacks on "
            "his side is the winner. If a tie: start again."
        ),
    ),
    TrickCard(
        name="Bola-Bola!",
        family=DUEL,
        throw="classic",
        style="consecutively",
        setup=say(
            "put on the table between the players 2 drum cards spaced out a hand's width, "
            "this is the net. Put a jack other than the Jack (the ball) in front of the 1st"
            " player of the Duel. Throw up/Grab the Jack in the classic way."
        ),
        do=say("hit the ball over the net one after the other."),
        note=say("Winner: as soon as the other fails."),
    ),
    TrickCard(
        name="Kat!",
        family=DUEL,
        throw="classic",
        style="simultaneously",
        setup=say(
            "toss the jacks between the two players. Each takes a Jack (the white Jack or "
            "the black Jack) in hand. At the top, throw up/Grab the Jack in the classic "
            "way."
        ),
        do=say("pick up the maximum of jacks on the table."),
        note=say("Winner: the most jacks. If it is a tie: start again."),
    ),
    TrickCard(
        name="Manu!",
        family=DUEL,
        throw="none",
        style="consecutively",
        setup=say("take 5 jacks in the hand. No throwing up of the Jack."),
        do=say("one after the other, throw up the jacks and get them on the back of the hand."),
        note=say("Winner: the player that grabs the most. A tie: start again."),
    ),
    TrickCard(
        name="Naik!",
        family=DUEL,
        throw="classic",
        style="consecutively",
        setup=say("toss 5 jacks on the table. Throw up / Grab the Jack in the classic way."),
        do=say("pick up in one time jacks the Aslik way. 1st round: 1 jack, 2nd round: 2 jacks …"),
        note=say("Winner: as soon as the other fails. If a tie: continue starting back at 1."),
    ),
)

CHALLENGES: tuple[ChallengeCard, ...] = (
    ChallengeCard(
        name="BadabOss",
        do=say(
            "the first player puts a jack at the centre of the table. The next player has "
            "to balance a jack on the jack placed by the previous player. And so on until "
            "one player brings down the tower of jacks by trying to balance a jack. This "
            "player is eliminated. We start again until there's only one player left: he's "
            "the winner."
        ),
    ),
    ChallengeCard(
        name="Kiri KanOss",
        setup=say("every player places a jack on the back of his hand."),
        do=say(
            "at the top, each player throws up his jack and tries to grab it on the back of"
            " the other hand. All who have failed are eliminated. Start again."
        ),
        note=say("Winner: the last survivor."),
    ),
    ChallengeCard(
        name="Los LobOss",
        setup=say(
            "the Chief tosses the 6 jacks on the table and announces at the same time "
            '"Hollow" or "Bump".'
        ),
        do=say(
            'the players have to locate how many jacks have their edge on the "Hollow" or '
            'the "Bump" side, depending on what the Chief said. As soon as a player said a '
            "number, we check: if true, he eliminates the player of his choice, if false: "
            "he's eliminated. Start again."
        ),
        note=say("Winner: the last survivor."),
    ),
    ChallengeCard(
        name="TargOss",
        setup=say(
            "place the TargOss card at the centre of the table and place one jack in front "
            "of each player."
        ),
        do=say(
            "at the top, each player kicks his jack with flick toward the target. The "
            "closest eliminates the player of his choice. We start again without him."
        ),
        note=say("Winner: the last survivor."),
    ),
    ChallengeCard(
        name="WarnOss",
        min_players=3,
        setup=say("toss at the centre of the table as many jacks as there are players."),
        do=say(
            "the Chief announces a colour of jacks. Straight away, the players attempt to "
            "take a jack on the table. The player that has no jack or takes the jack with "
            "the colour announced is eliminated. Start again (the player eliminated "
            "announces the colour)."
        ),
        note=say("Winner: the last survivor."),
    ),
)

TRICKS_BY_NAME: dict[str, TrickCard] = {card.name: card for card in TRICKS}
CHALLENGES_BY_NAME: dict[str, ChallengeCard] = {card.name: card for card in CHALLENGES}


def family(number: int) -> tuple[TrickCard, ...]:
    """The five trick cards of one family (1, 2, 3 or ``DUEL``)."""
    return tuple(card for card in TRICKS if card.family == number)


def challenges_for(players: int) -> tuple[ChallengeCard, ...]:
    """The challenge deck for a game of this many players (no WarnOss with 2)."""
    return tuple(card for card in CHALLENGES if players >= card.min_players)


def _fold(name: str) -> str:
    return "".join(ch for ch in name.casefold() if ch.isalnum())


_TRICK_KEYS = {_fold(card.name): card.name for card in TRICKS}
_CHALLENGE_KEYS = {_fold(card.name): card.name for card in CHALLENGES}


def trick_name(text: str) -> str | None:
    """The canonical name of a trick card written loosely ("kat", "KUDA KUDA"), or None."""
    return _TRICK_KEYS.get(_fold(text))


def challenge_name(text: str) -> str | None:
    """The canonical name of a challenge card written loosely ("targoss"), or None."""
    return _CHALLENGE_KEYS.get(_fold(text))


# --- the tribe cards' notation (the ``oss-tribes`` deck of the tag registry) ------------

#: A tribe card's notation: tribe 1..6, value 1..4, and which of the two copies (a or b).
_CARD = re.compile(r"^T([1-6])-([1-4])([ab])$")

#: Every tribe card of the six tribes, in a fixed order.
TRIBE_CARDS: tuple[str, ...] = tuple(
    f"T{tribe}-{value}{copy}" for tribe in range(1, 7) for value in (1, 2, 3, 4) for copy in "ab"
)


def parse_tribe_card(card: object) -> tuple[int, int]:
    """``"T3-2a"`` -> (tribe 3, value 2); BadCard for anything else."""
    found = _CARD.match(card) if isinstance(card, str) else None
    if found is None:
        raise BadCard(
            say(
                "{card} is not an Oss tribe card (they read like T3-2a)",
                card=Verbatim(describe(card)),
            )
        )
    return int(found.group(1)), int(found.group(2))


def tribe_card(player: int, value: int, copy_letter: str = "a") -> str:
    """The notation of player ``player``'s tribe card of ``value``."""
    return f"T{player + 1}-{value}{copy_letter}"


# A tribe's cards are printed in a colour of its own (a hand holds one tribe's cards).
TRIBE_FACES: tuple[FaceColour, ...] = (
    FaceColour.RED,
    FaceColour.BLUE,
    FaceColour.GREEN,
    FaceColour.YELLOW,
    FaceColour.LILAC,
    FaceColour.NAVY,
)


class TribeCards:
    """Oss's ``CardType``: a tribe card is its notation; its face shows its value large,
    in its tribe's colour (the notation "T1-3b" is no name a player reads).

    The name and the face leave the copy letter (a/b) out: both cards of a value are
    alike in play.
    """

    def parse(self, text: object) -> str:
        parse_tribe_card(text)
        assert isinstance(text, str)  # parse_tribe_card accepts strings only
        return text

    def notation(self, card: str) -> str:
        return card

    def name(self, card: str) -> Words:
        tribe, value = parse_tribe_card(card)
        return say("{value} of tribe {tribe}", value=value, tribe=tribe)

    def face(self, card: str) -> CardFace:
        tribe, value = parse_tribe_card(card)
        return CardFace(str(value), colour=TRIBE_FACES[(tribe - 1) % len(TRIBE_FACES)])


CARD_TYPE = TribeCards()
