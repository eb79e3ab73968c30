"""A game in progress, as the play screen drives it: act, show what followed, refuse.

These are the steps the play screen (and staff mode on it) take with a
``GameSession``; they report back (the finished game's result, the new
session after an undo) and leave the choice of the next screen to the
screen. The adapter turns seat input into actions and engine events into
messages and LED cues (``Feedback``); nothing here re-derives the rules.
"""

from __future__ import annotations

from controller.adapters import Feedback
from controller.games.base import JSON, Action, Event, TableError
from controller.games.words import Card, Player, Seat, Text, Verbatim, Words, as_arg, say
from controller.table.context import ScreenContext
from controller.table.session import GameSession
from controller.view import MessageKind
from hardware.cues import Cue


def act(ctx: ScreenContext, session: GameSession, action: Action, seat: int) -> JSON | None:
    """A seat's action: the engine judges it; accepted, it is journaled, then shown.

    Returns the game's result when this action finished it.
    """
    try:
        events = session.judge(action)
    except TableError as exc:
        refuse(ctx, session, seat, exc.text)
        return None
    # Outside the try: a journal that cannot write is not a refused play.
    session.accept(action)
    return after(ctx, session, events)


def after(ctx: ScreenContext, session: GameSession, events: list[Event]) -> JSON | None:
    """After a change of the game: the virtual deal, feedback, LEDs, sounds; the result last."""
    events = events + session.deal()
    presentation = session.adapter.presentation
    for event in events:
        for fb in presentation.feedback(event):
            feedback(ctx, session, fb)
    ctx.out.sounds.events(presentation.event_sounds, events)
    ctx.rest_leds(session)
    ctx.out.changed()
    return session.finish() if session.finished else None


def feedback(ctx: ScreenContext, session: GameSession, fb: Feedback) -> None:
    """An adapter's message and LED cue, at the physical seat of its engine player."""
    seat = None if fb.player is None else session.players[fb.player]
    if fb.message is not None:
        ctx.out.say(fb.message, fb.kind, seat)
    if fb.cue is not None and seat is not None:
        ctx.out.flash(seat, fb.cue)


def refuse(ctx: ScreenContext, session: GameSession | None, seat: int, why: Words) -> None:
    """A refusal at ``seat``: said once who it is about ("Seat 3: ..."), then only why."""
    ctx.out.say(about_seat(session, seat, why), MessageKind.REFUSED, seat)
    ctx.out.flash(seat, Cue.REFUSED)


def about_seat(session: GameSession | None, seat: int, words: Words) -> Words:
    """``words`` with the seat named in front, unless they already name it.

    An engine's refusal names its player itself ("Seat 3 cannot play Red 5: it
    is Seat 4's turn", the same sentence a replay prints for the record), so the
    table adds nothing; an adapter's answer ("tap the card you play") gets
    "Seat 3: " in front. Either way the seat is said exactly once.
    """
    players = () if session is None else tuple(session.players)
    if isinstance(words, Text) and names_seat(words, seat, players):
        return words
    return say("{seat}: {why}", seat=Seat(seat), why=as_arg(words))


def names_seat(text: Text, seat: int, players: tuple[int, ...]) -> bool:
    """Whether ``text`` is said of physical ``seat``: its sentence starts with that seat.

    "{player} cannot play {card}: ..." with the player sitting at ``seat`` is; "cannot
    play {card}: ... ({player} bids next)" is not, even when that player sits there.
    The English key decides, so every language gets the same prefix or none.
    """
    if not text.key.startswith("{"):
        return False
    first = text.key[1:].split("}", 1)[0]
    value = dict(text.args).get(first)
    if value == Seat(seat):
        return True
    if isinstance(value, Player):
        where = players[value.index] if 0 <= value.index < len(players) else value.index
        return where == seat
    return False


def undo(ctx: ScreenContext, session: GameSession) -> tuple[GameSession, Text] | None:
    """Staff: take back the last action a player took (and any deal that followed it).

    Returns the rebuilt session and what staff took back, or None (said why).
    """
    undone = session.undo()
    if undone is None:
        ctx.out.say(say("Staff: there is no player action to undo"), MessageKind.INFO)
        return None
    action, rebuilt = undone
    return rebuilt, describe_undo(action)


def take_back(
    ctx: ScreenContext, session: GameSession, seat: int, action: Action
) -> tuple[GameSession, list[JSON]]:
    """A player takes back ``action`` as its rulebook allows (Oh Pshaw: a renege noticed
    before the next trick, "nimmt der Verursacher die unerlaubte Karte zurück").

    The action and every player action after it are taken back one by one, each
    journaled as an undo correction like staff's; the record keeps none of them.
    Returns the rebuilt session and the later actions (the other seats' cards, which
    stand: the play screen puts them back once the player has played again).
    """
    target = action.to_json()
    pairs = session.pairs()
    at = max(i for i, (obj, chance) in enumerate(pairs) if obj == target and not chance)
    later = [obj for obj, chance in pairs[at + 1 :] if not chance]
    rebuilt = session
    for _ in range(len(later) + 1):
        undone = rebuilt.undo()
        assert undone is not None  # the actions are there: we just listed them
        rebuilt = undone[1]
    journal_replays(rebuilt, later)
    ctx.out.say(
        say(
            "{seat} takes back {action} (a renege noticed before the next trick): "
            "play a card of the suit led; the cards played after it stand",
            seat=Seat(seat),
            action=Card(str(target["play"]))
            if "play" in target
            else Verbatim(describe_action(target)),
        ),
        MessageKind.INFO,
        seat,
    )
    return rebuilt, later


def journal_replays(session: GameSession, replays: list[JSON]) -> None:
    """Journal the cards a take-back left waiting to be put back (``[]``: none any more).

    A ``replays`` correction: not an action, so no replay and no record sees it; a
    resume reads it back (``controller.records.journal.pending_replays``) so the
    others need not tap again after a crash.
    """
    if session.journal is not None:
        session.journal.correction("replays", {"actions": replays})


def describe_action(obj: JSON) -> str:
    """A record action as its JSON writes it, without the seat: "play 7H"."""
    verb = next((k for k in obj if k not in ("seat", "card")), "?")
    return f"{verb} {obj.get(verb)}"


def describe_undo(obj: JSON) -> Text:
    """What staff took back: whose action (named by seat), and the record's own words for it."""
    seat = obj.get("seat")
    action = Verbatim(describe_action(obj))  # the record's action, as its JSON writes it
    card = obj.get("play")
    if isinstance(seat, int) and not isinstance(seat, bool) and isinstance(card, str):
        # A card played, the most common undo: the card as the game names it ("7♥").
        return say("Undone: {player}'s {card}", player=Player(seat), card=Card(card))
    if isinstance(seat, int) and not isinstance(seat, bool):
        return say(
            "Staff undid the action of {player}: {action}", player=Player(seat), action=action
        )
    return say("Staff undid the action {action}", action=action)


def undo_target(session: GameSession) -> Words | None:
    """The player action a staff undo would take back now, in words ("Seat 3: Q♥"), or None.

    Staff mode's question names it, so staff know what they confirm.
    """
    pairs = session.pairs()
    while pairs and pairs[-1][1]:
        pairs.pop()  # a deal after the action goes with it
    if not pairs:
        return None
    obj = pairs[-1][0]
    verb = next((k for k in obj if k not in ("seat", "card")), "?")
    value = obj.get(verb)
    # A card is named as its deck reads it; any other action as the record writes it.
    action = Card(value) if verb == "play" and isinstance(value, str) else None
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        return None  # the general question stays
    return say(
        "{player}: {action}",
        player=Player(seat),
        action=action if action is not None else Verbatim(describe_action(obj)),
    )


def end_now(ctx: ScreenContext, session: GameSession, seat: int) -> JSON | None:
    """Staff: end the game now under its rulebook's early end (the leaders win), recorded."""
    expected = session.engine.expected
    player = 0 if expected is None else expected.seat
    action = session.engine.early_end(player)
    if action is None:
        ctx.out.say(
            say("Staff: this game has no early end; NEXT abandons it"), MessageKind.INFO, seat
        )
        return None
    return act(ctx, session, action, seat)
