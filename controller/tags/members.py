"""Player cards: a member tag, enrolled with a nickname, names the seat it is tapped at.

Member cards are optional. A café enrolls them on the hub's dashboard (the
hub sends every table the list, ``controller.fleet``); a table without a hub
enrolls them locally (``cafe-table tags member UID NICKNAME``, kept in the
tag registry). Tapped at a seat's reader on the join screen, a member card
joins that seat and names it: every message then says "Mika" where it said
"Seat 3" (``TableView.nicknames``, read by the presenter), and the finished
game's record reaches the hub with the nicknames beside it, for the
leaderboards by nickname. Games without member cards stay anonymous.

A nickname is 1 to 16 printable characters, shown verbatim (never
translated); ``check_nickname`` refuses anything else with a clear message.
"""

from __future__ import annotations

from controller.games.base import TableError
from controller.games.words import Text, Verbatim, say

NICKNAME_MAX = 16


class NicknameError(TableError, ValueError):
    """A nickname that is empty, too long or holds characters that cannot be shown."""


def check_nickname(text: str) -> str:
    """``text`` as a nickname (surrounding spaces dropped); NicknameError says what is wrong."""
    name = text.strip()
    if not name:
        raise NicknameError(say("A nickname needs at least one character"))
    if len(name) > NICKNAME_MAX:
        raise NicknameError(
            say(
                "A nickname has at most {most} characters; this one has {count}",
                most=NICKNAME_MAX,
                count=len(name),
            )
        )
    if not name.isprintable():
        raise NicknameError(
            say("A nickname may hold letters, digits, spaces and signs, but no line breaks or tabs")
        )
    return name


def check_member_uid(text: str) -> str:
    """A member card's tag UID as the table writes it (upper-case hex, no separators).

    Spaces, colons and dashes between the bytes are allowed ("04:A1:B2:C3");
    anything else, or a length that is no tag's, is refused (NicknameError's
    sibling: a TableError with the reason).
    """
    digits = "".join(ch for ch in text.strip().upper() if ch not in " :-")
    if not digits or any(ch not in "0123456789ABCDEF" for ch in digits):
        raise MemberUidError(
            say("A member card's tag UID is written in hex digits, e.g. 04A1B2C3D4E5F6")
        )
    if not 8 <= len(digits) <= 20 or len(digits) % 2:
        raise MemberUidError(
            say("A tag UID is 4 to 10 bytes: 8 to 20 hex digits, e.g. 04A1B2C3D4E5F6")
        )
    return digits


class MemberUidError(TableError, ValueError):
    """Text that is not a member card's tag UID."""


def welcome(nickname: str) -> Text:
    """What the table says when a member card names the seat it was tapped at."""
    return say("Welcome, {name}!", name=Verbatim(nickname))


# A tag the table does not know at all, tapped at the join screen of a table that
# knows member cards: the seat plays on, anonymous.
NOT_A_MEMBER = say("This card is not a member card here: staff can enroll it. You play unnamed")
