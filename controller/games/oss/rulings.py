"""Oss's limits and the project's rulings where the rulebook leaves a choice.

``RULINGS`` are the engine's, ``TABLE_RULINGS`` the table's; the display shows
them as help, the phase's most useful first.
"""

from __future__ import annotations

from controller.games.words import Text, say

HAND_SIZE = 5


#: The project's rulings where the rulebook leaves a choice; the display shows them as help.
RULINGS: list[Text] = [
    say(
        "Replays: a player may replay at most 2 times per round (option replays per round); "
        "when replays count for the table, the limit counts every replay at the table in "
        "that round."
    ),
    say(
        "A replay is offered only after a failure (a lost solo attempt or a lost duel): "
        "a success is already the best result, so replaying it could only lose the card."
    ),
    say(
        "To replay, the player discards one tribe card from their hand; it is out of the "
        "game. A player with no card in hand, or no replay left, is not asked and their "
        "card is lost."
    ),
    say(
        "The loser of a duel may replay: the duel restarts from the beginning and the new "
        "result replaces the old one. Each duelist's replays count separately."
    ),
    say("A tie in a duel restarts it; a tie is not a replay and costs nothing."),
    say(
        "The duel is fought at the turn of its first player (the one who placed first); the "
        "second duelist has no turn of their own. Several tricks can each start a duel in "
        "the same round; every duel uses the revealed duel trick."
    ),
    say(
        "The duel winner keeps one of the two tribe cards; when both show the same value "
        "the winner keeps their own card without being asked."
    ),
    say(
        "Challenges cannot be replayed. Report each elimination, or the winner outright; "
        "the last player standing wins the card (4 points) and becomes the chief."
    ),
    say("The new chief starts the next round: reveals the tricks, plays first and attempts first."),
    say(
        "Hands are registered (5 cards at the start, then one draw per player after each "
        "round but the last) so the table can refuse a card a player does not hold; hands "
        "stay private."
    ),
    say("There is no draw after the last round: the game is over."),
    say(
        "Score: the values of the tribe cards won (whatever tribe they come from) plus 4 "
        "per challenge card. Tied players share the victory."
    ),
]

#: How the table plays Oss where the rulebook leaves it open (its buttons, its toss timer);
#: the adapter picks the ones that matter now as the display's help.
TABLE_RULINGS: list[Text] = [
    say(
        "The most big-boned player is the first chief: the table asks, "
        "and draws only when nobody answers."
    ),
    say(
        "Each player plays their own tribe's cards; a card of another tribe is refused, "
        "except the duel card a duel winner keeps."
    ),
    say("Choose the trick with PREV/NEXT first, then tap the tribe card: the tap plays it."),
    say(
        "Kat!, Manu! and Bagi! are won by the most jacks: each count is entered (PREV/NEXT "
        "then OK; below 0 is failed, which any count beats; equal counts are a tie and the "
        "duel starts again). One duelist may enter both counts."
    ),
    say(
        "Other duels: either duelist reports OK (I won), NEXT (I lost) or PREV (tie: start again)."
    ),
    say(
        "Challenges: each player still in presses NEXT when eliminated, or OK to take the "
        "challenge outright; the last one left wins it."
    ),
    say(
        "The toss timer only measures: the players still report every result. A time over "
        "the countdown limit is flagged; the best time is a player's fastest."
    ),
    say("In a duel the timer's times go to the two duelists in turn, first duelist first."),
]
