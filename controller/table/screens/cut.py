"""Cutting for the deal: the joined seats cut, the lowest card starts (Oh Pshaw)."""

from __future__ import annotations

from controller.games.base import JSON
from controller.games.words import Card, Items, Seat, Verbatim, Words, as_arg, say, say_plural
from controller.table.context import ScreenContext
from controller.table.cut import Cut
from controller.table.screens.base import STARTER_TIMEOUT, Next, ScreenState
from controller.table.screens.play import begin_game
from controller.view import ButtonHint, MessageKind, Screen
from hardware.cues import Cue
from hardware.events import Button


class CutScreen(ScreenState):
    """Cutting for the deal (Oh Pshaw: "the first dealer is chosen by cutting for the
    lowest card"): each joined seat taps one card from the shuffled deck, the lowest
    starts, tied seats cut again (``controller.table.cut``).

    The table cuts for a seat that cannot tap: a bot's, one whose reader is
    offline, one that presses OK, every seat still waiting after
    ``STARTER_TIMEOUT`` seconds, and every seat with the virtual deal; it says
    each card so cut. The cut's cards are not in play: only the chosen seat
    reaches the game (the header's starter key).

    While seats are still to cut, the cut is journaled after every card
    (``cut_state``; the journal keeps it until its game starts), so a table that
    crashes mid-cut comes back to it (``resumed_cut``, ``resumed``), the cards
    already cut kept.
    """

    screen = Screen.STARTER
    timeout = STARTER_TIMEOUT
    about_chosen_game = True

    def __init__(self, prompt: Words, options: JSON, cut: Cut, *, resumed: bool = False) -> None:
        self.prompt = prompt
        self.options = options  # the options chosen for the game about to begin
        self.cut = cut
        self.resumed = resumed  # rebuilt from the journal after a crash
        self.said: list[Words] = []  # how the cut went, for the game's first lines

    def enter(self, ctx: ScreenContext) -> Next:
        if ctx.config.deal == "virtual":
            self.said.append(say("The table cut for the deal with its virtual deck: lowest deals"))
        if self.resumed:
            self._say_resumed(ctx)
        if ctx.config.deal == "virtual":
            return self._draw(ctx, self.cut.waiting())
        ctx.out.say(
            say(
                "{game}: cut for the deal. Each seat taps one card from the shuffled deck "
                "(OK: the table cuts for you); the lowest card deals, ace high, ties cut again",
                game=as_arg(ctx.lobby.chosen.title),
            )
        )
        return self._draw(ctx, self._cannot_tap(ctx))

    def _say_resumed(self, ctx: ScreenContext) -> None:
        """A cut rebuilt from the journal: say so, and how it had gone (for the game too)."""
        cut = self.cut
        for cards in cut.earlier:
            self.said.append(say("Cut for the deal: {cuts}", cuts=cut.shown(cards)))
            low = min(cut.rank(card) for card in cards.values())
            self.said.append(tie_line([s for s in sorted(cards) if cut.rank(cards[s]) == low]))
        ctx.out.say(
            say(
                "{game}: the cut for the deal resumed where it stopped",
                game=as_arg(ctx.lobby.chosen.title),
            )
        )
        for seat, card in sorted(cut.cards.items()):
            ctx.out.say(say("{seat} cut {card}", seat=Seat(seat), card=Card(card)))

    def _cannot_tap(self, ctx: ScreenContext) -> list[int]:
        """The waiting seats the table cuts for: bots' seats and seats whose reader is offline."""
        bots = {seat.index for seat in ctx.config.seats if seat.bot}
        return [s for s in self.cut.waiting() if s in bots or not ctx.reader_online(s)]

    def _draw(self, ctx: ScreenContext, seats: list[int]) -> Next:
        """The table cuts for ``seats`` (saying which card each got); then settle."""
        for seat in seats:
            card = self.cut.draw(seat, ctx.rng)
            ctx.out.say(
                say("The table cut {card} for {seat}", card=Card(card), seat=Seat(seat)),
                MessageKind.INFO,
                seat,
            )
        return self._settle(ctx)

    def _settle(self, ctx: ScreenContext) -> Next:
        """Every contender has cut: the lowest starts, or the tied seats cut again."""
        cut = self.cut
        ctx.out.changed()
        if cut.waiting():
            if ctx.journal is not None:  # before anyone sees the card (the game clears it)
                ctx.journal.cut_pending(cut_state(ctx, self))
            return None
        lowest = cut.lowest()
        self.said.append(say("Cut for the deal: {cuts}", cuts=cut.shown()))
        if len(lowest) == 1:
            seat = lowest[0]
            starter = ctx.lobby.chosen.spec.starter
            assert starter is not None
            self.said.append(
                say(
                    "{seat} cut the lowest card ({card}) and {role}",
                    seat=Seat(seat),
                    card=Card(cut.cards[seat]),
                    role=as_arg(starter.role),
                )
            )
            return begin_game(ctx, self.options, seat, self.said)
        tie = tie_line(lowest)
        self.said.append(tie)
        ctx.out.say(tie)
        cut.again(lowest)
        if ctx.config.deal == "virtual":
            return self._draw(ctx, cut.waiting())
        return self._draw(ctx, self._cannot_tap(ctx))

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> Next:
        if ctx.is_staff_tag(uid):
            return None
        why = self._refusal(ctx, seat, uid)
        if why is not None:
            ctx.out.say(why, MessageKind.REFUSED, seat)
            ctx.out.flash(seat, Cue.REFUSED)
            return None
        entry = ctx.registry.lookup(uid)
        assert entry is not None
        self.cut.take(seat, entry.card)
        ctx.out.say(say("{seat} cut {card}", seat=Seat(seat), card=Card(entry.card)))
        return self._settle(ctx)

    def _refusal(self, ctx: ScreenContext, seat: int, uid: str) -> Words | None:
        """Why the tag ``uid`` tapped at ``seat`` is no cut, or None when it is."""
        if seat not in ctx.lobby.joined:
            return say("{seat} has not joined this game", seat=Seat(seat))
        entry = ctx.registry.lookup(uid)
        if entry is None and (nickname := ctx.registry.member(uid)) is not None:
            return say(
                "that is {name}'s member card: to cut for the deal, tap one card of the deck",
                name=Verbatim(nickname),
            )
        if entry is None:
            return say(
                "{seat}: this tag ({tag}) is not enrolled in any deck; cut with a card of "
                "this game's deck, or press OK and the table cuts for you",
                seat=Seat(seat),
                tag=Verbatim(uid),
            )
        if entry.deck != ctx.lobby.chosen.spec.deck.id:
            return say(
                "that card belongs to the {deck} deck, not this game's: cut with one of its cards",
                deck=Verbatim(entry.deck),
            )
        return self.cut.refusal(seat, entry.card)

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> Next:
        if button != Button.OK or seat not in self.cut.waiting():
            return None
        return self._draw(ctx, [seat])  # OK: the table cuts for this seat

    def on_reader_offline(self, ctx: ScreenContext, seat: int) -> Next:
        return self._draw(ctx, [seat]) if seat in self.cut.waiting() else None

    def on_idle(self, ctx: ScreenContext) -> Next:
        waiting = self.cut.waiting()
        timed_out = say_plural(
            "Nobody cut for {n} second, so the table cuts for the seats still waiting",
            "Nobody cut for {n} seconds, so the table cuts for the seats still waiting",
            int(STARTER_TIMEOUT),
        )
        self.said.append(timed_out)  # said again as the game begins
        ctx.out.say(timed_out)
        return self._draw(ctx, waiting)

    def hints(self, ctx: ScreenContext) -> list[ButtonHint]:
        return [ButtonHint(seat, Button.OK, say("cut for me")) for seat in self.cut.waiting()]


def tie_line(tied: list[int]) -> Words:
    """What the table says when ``tied`` seats share the lowest card."""
    return say(
        "{seats} tie for the lowest card: they cut again",
        seats=Items(tuple(Seat(seat) for seat in tied)),
    )


def cut_state(ctx: ScreenContext, screen: CutScreen) -> JSON:
    """What the journal keeps of a cut in progress: enough to rebuild the table's lobby
    (the menu line chosen, the seats joined, their names and languages), the options
    chosen and the cut itself."""
    lobby = ctx.lobby
    return {
        "game": lobby.chosen.spec.id,
        "selected": lobby.selected,
        "joined": sorted(lobby.joined),
        "names": {str(seat): name for seat, name in lobby.names.items()},
        "languages": {str(seat): lang for seat, lang in ctx.languages.chosen().items()},
        "options": screen.options,
        "cut": screen.cut.to_json(),
    }


def resumed_cut(ctx: ScreenContext, state: JSON) -> CutScreen:
    """The cut ``cut_state`` journaled, its lobby restored; ValueError (or KeyError,
    TypeError) when it does not fit this table (another menu, seats it lacks)."""
    lobby = ctx.lobby
    selected = int(state["selected"])
    if not 0 <= selected < len(lobby.menu) or lobby.menu[selected].spec.id != state["game"]:
        raise ValueError(f"the menu has no line {selected} for {state['game']!r}")
    spec = lobby.menu[selected].spec
    starter = spec.starter
    if starter is None or starter.cut is None:
        raise ValueError(f"{spec.id} does not cut for the deal")
    joined = [int(seat) for seat in state["joined"]]
    if not set(joined) <= set(ctx.seats):
        raise ValueError(f"the cut was at seats {joined}, which this table does not all have")
    cut = Cut.from_json(state["cut"], starter.cut, spec.deck.distinct())
    options = state["options"]
    if not isinstance(options, dict):
        raise ValueError(f"not the options of a game: {options!r}")
    names = {int(seat): str(name) for seat, name in state["names"].items()}
    languages = {int(seat): str(lang) for seat, lang in state["languages"].items()}
    # All read: only now is the lobby changed.
    lobby.selected = selected
    lobby.seat_all(joined)
    lobby.names = names
    ctx.languages.restore(languages, joined)
    return CutScreen(starter.question, options, cut, resumed=True)
