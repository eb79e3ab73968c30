"""The Oh Pshaw scene: bid, tricks won and total per seat; trump, trick and bids in the centre.

It draws only what ``OhPshaw.snapshot()`` says (an ``OhPshawSnapshot``; see
``docs/oh-pshaw-table.md``) and the table's overlay on it (``OhPshawOverlay``):
``bid_cursor``, the number the bidding seat's OK button would bid, so the cursor
a person moves with PREV/NEXT shows in their panel and in the centre. Which
card wins, what scores, how many tricks a seat still needs and what "over" or
"under" means are the engine's business; suit words come from its vocabulary.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pygame

from controller.games.base import TrickCard
from controller.games.oh_pshaw.actions import Verb
from controller.games.oh_pshaw.events import BidStatus
from controller.games.oh_pshaw.snapshot import OhPshawOverlay, OhPshawSnapshot
from controller.games.oh_pshaw.spec import VOCABULARY
from controller.games.oh_pshaw.state import Phase
from controller.games.words import Card, Items, Signed, Text, Words, as_arg, say, say_plural
from controller.view import AnyGameView, GameView, MessageKind, TableView
from display import theme
from display.generic import (
    MESSAGE_PAGE_SECONDS,
    TRICK_AREA,
    Toward,
    draw_foot_score_table,
    draw_last_trick,
    draw_messages,
    draw_page_mark,
    draw_status,
    draw_title_block,
    draw_trick_picture,
    draw_turn_glow,
    newest_message_height,
    player_name,
    split_centre,
    text_page,
    wrapped_if_cut,
)
from display.legibility import Role
from display.screen_parts import pieces_in_rows
from display.theme import Colour, Painter

SUIT_WORDS: Mapping[str, Text] = dict(zip(VOCABULARY.suits, VOCABULARY.suit_names, strict=True))
# The over/under/equal announcement's colours: over and under both mean someone
# must miss or be forced, so they stand out; equal is calm.
STATUS_COLOURS: Mapping[BidStatus, Colour] = {
    BidStatus.OVER: (255, 130, 90),
    BidStatus.UNDER: theme.ACCENT,
    BidStatus.EQUAL: theme.JOINED,
}
PENALTY_COLOUR = theme.MESSAGE_COLOURS[MessageKind.PENALTY]
MISSED_COLOUR = theme.MESSAGE_COLOURS[MessageKind.REFUSED]
PROMPTS: Mapping[str, Text] = {
    Verb.TRUMP: say("tap the turned card"),
    Verb.BID: say("make your bid"),
    Verb.PLAY: say("play a card"),
    Verb.TRUMP_SUIT: say("tap a card of the suit you choose as trump"),
}
# A seat panel's figures: the chip's label and, for a panel too low for chips, the
# figure in one line ("Bid 2").
BID_ASKED, BID, WON, TOTAL = say("BID?"), say("BID"), say("WON"), say("TOTAL")
DEALER, RENEGE = say("dealer"), say("renege")
# TRANSLATORS: the game's name, as the centre's title shows it (a name: keep it, or write it
# in your script).
TITLE = say("Oh Pshaw")


def in_line(label: Text, value: str) -> Text:
    """A chip's figure as one line of text ("Bid 2"), for a panel too low for chips."""
    if label == BID_ASKED:
        return say("Bid? {value}", value=as_arg(value))
    if label == WON:
        return say("Won {value}", value=as_arg(value))
    if label == TOTAL:
        return say("Total {value}", value=as_arg(value))
    return say("Bid {value}", value=as_arg(value))


def needs_words(need: int) -> Text:
    """How a seat stands against its bid during play (the engine's ``tricks_needed``):
    tricks still needed, on target, or tricks too many."""
    if need > 0:
        return say_plural("needs {n} more trick", "needs {n} more tricks", need)
    if need == 0:
        return say("on target")
    return say_plural("{n} trick too many", "{n} tricks too many", -need)


OhPshawView = GameView[OhPshawSnapshot, OhPshawOverlay]


def game_of(game: AnyGameView | None) -> OhPshawView:
    """The view's game with Oh Pshaw's own types (the scene only draws a game in play)."""
    if game is None:
        raise ValueError("the Oh Pshaw scene was asked to draw no game")
    return game.narrowed(OhPshawSnapshot, OhPshawOverlay)


def snapshot_of(view: TableView) -> OhPshawSnapshot:
    """The view's game as the engine's typed snapshot."""
    return game_of(view.game).snapshot


def _plays(trick: Sequence[TrickCard]) -> list[tuple[int, str]]:
    return [(t.seat, t.card) for t in trick]


def _at(values: Sequence[int | None], index: int) -> int | None:
    """``values[index]``, or None when the snapshot has no such seat."""
    return values[index] if 0 <= index < len(values) else None


def bid_cursor(view: TableView, player: int) -> int | None:
    """The bid ``player``'s OK button would make now; None if ``player`` is not bidding."""
    game = game_of(view.game)
    nxt = game.snapshot.next
    if nxt is None or nxt.seat != player or nxt.expects != Verb.BID:
        return None
    return game.overlay.bid_cursor


def trump_words(snap: OhPshawSnapshot) -> Text:
    """What is trump this round, in words."""
    if snap.trump is not None and snap.trump in SUIT_WORDS:
        suit = SUIT_WORDS[snap.trump]
        if snap.trump_card is not None:
            return say("Trump: {suit} ({card} turned)", suit=suit, card=Card(snap.trump_card))
        return say("Trump: {suit}", suit=suit)
    if snap.awaiting_turned_card:
        return say("Trump: the dealer turns a card")
    if snap.awaiting_trump_choice and snap.trump_card is not None:  # the Wizard variant
        return say("Trump: the dealer chooses ({card} turned)", card=Card(snap.trump_card))
    return say("No trump this round")


# A portrait centre's trick area, stacked over the information column, is no taller
# than this share of its width: its cards are sized by the width there
# (``generic.draw_trick``: 0.28 of the width, where 0.4 of the height is no less), so
# more height only spreads them apart; as tall as wide leaves the turned card's trump
# words under it clear of the turn glow at the area's edge. Nor is it taller than
# ``TRICK_AREA_SHARE`` of the centre (``generic.split_centre`` gives it 0.45): the
# column under it needs the lines for the trump, the bids and a message that explains
# them (a seven-seat table's squat centre, where the cards grow a little smaller).
TRICK_AREA_HEIGHT_PER_WIDTH = 1.0
TRICK_AREA_SHARE = 0.4


def centre_areas(rect: pygame.Rect, pad: int) -> tuple[pygame.Rect, pygame.Rect]:
    """The centre's trick area and information column (``generic.split_centre``); on a
    portrait centre, where they are stacked, the trick area gives the column the height
    its cards can spare (``TRICK_AREA_HEIGHT_PER_WIDTH``, ``TRICK_AREA_SHARE``)."""
    trick, info = split_centre(rect, pad)
    if info.top > trick.top:
        most = min(trick.w * TRICK_AREA_HEIGHT_PER_WIDTH, rect.h * TRICK_AREA_SHARE)
        spare = trick.h - min(trick.h, round(most))
        trick.h -= spare
        info.top -= spare
        info.h += spare
    return trick, info


def chip_rows(widths: Sequence[int], room: int, gap: int) -> list[list[int]]:
    """The chips (by index) in rows ``room`` wide, ``gap`` apart, in order: a new row where
    the next does not fit beside the last (a chip wider than ``room`` gets a row alone)."""
    rows: list[list[int]] = []
    x = room + 1  # the first chip starts a row
    for index, width in enumerate(widths):
        if rows and x + width <= room:
            rows[-1].append(index)
        else:
            rows.append([index])
            x = 0
        x += width + gap
    return rows


class OhPshawScene:
    """Draws an Oh Pshaw snapshot; see the module docstring."""

    def seat_key(self, game: AnyGameView, player: int) -> object:
        """What ``draw_seat`` shows of ``player``: their figures, the phase, the dealer,
        reneges, and the bid cursor while it is their bid.

        The cursor alone, not whose turn it is: the body does not show the turn, so a
        play that passes it on (a new prompt, repainted with the heading) leaves the
        body as it is (``bid_cursor``)."""
        shown = game_of(game)
        snap = shown.snapshot
        nxt = snap.next
        bidding = nxt is not None and nxt.seat == player and nxt.expects == Verb.BID
        return (
            *(_at(values, player) for values in (snap.bids, snap.tricks, snap.totals)),
            _at(snap.tricks_needed, player),
            snap.phase,
            snap.dealer == player,
            snap.reneges,
            shown.overlay.bid_cursor if bidding else None,
        )

    # --- whose turn --------------------------------------------------------------

    def turn_prompt(self, game: AnyGameView, player: int) -> Words | None:
        snap = game_of(game).snapshot
        if snap.awaiting_turned_card:
            # The bidding waits for the turned card: only the dealer has something to do.
            return PROMPTS[Verb.TRUMP] if snap.dealer == player else None
        if snap.awaiting_trump_choice:  # the Wizard variant: the dealer names trump first
            return PROMPTS[Verb.TRUMP_SUIT] if snap.dealer == player else None
        nxt = snap.next
        if nxt is None or nxt.seat != player:
            return None
        return PROMPTS.get(nxt.expects)

    # --- a seat's panel --------------------------------------------------------------

    def draw_seat(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        snap = snapshot_of(view)
        m = p.metrics
        bid = _at(snap.bids, player)
        won = _at(snap.tricks, player) or 0
        final = _at(snap.totals, player) or 0
        total = p.motion.figure(f"total of {player}", final)
        # The TOTAL chip is as wide as the widest figure its count passes (99 -> 105), so
        # nothing beside it moves while it counts.
        counted = tuple(str(v) for v in p.motion.span(f"total of {player}", final))
        cursor = bid_cursor(view, player)
        phase = snap.phase

        # label, value, ink, lit, and the figures the chip is sized for
        chips: list[tuple[Text, str, Colour, bool, tuple[str, ...]]] = []
        if cursor is not None:
            chips.append((BID_ASKED, str(cursor), theme.TEXT_DARK, True, ()))
        else:
            chips.append((BID, "-" if bid is None else str(bid), theme.TEXT, False, ()))
        if phase in (Phase.PLAY, Phase.OVER):
            # Nobody has won a trick before play: the room goes to the bid and total.
            chips.append((WON, str(won), theme.TEXT, False, ()))
        chips.append((TOTAL, str(total), theme.TEXT, False, counted))

        notes: list[tuple[Text, Colour]] = []
        if snap.dealer == player and phase is not Phase.OVER:
            notes.append((DEALER, theme.ACCENT))
        need = _at(snap.tricks_needed, player)
        if snap.reneged(player):
            notes.append((RENEGE, PENALTY_COLOUR))
        elif need is not None:
            colour = theme.TEXT if need > 0 else theme.JOINED if need == 0 else MISSED_COLOUR
            notes.append((needs_words(need), colour))

        value_size = m.big
        chip_h = m.leading(m.small) + m.leading(value_size) + m.pad
        words = [(in_line(label, value), theme.TEXT) for label, value, _, _, _ in chips]
        if rect.h < chip_h:
            # Too little height for chips: the figures and notes as words, each whole, in
            # as many rows as there is room for.
            pieces_in_rows(p, rect, [*words, *notes], m.small)
            return
        label_size = m.small
        label_role = Role.PRIMARY
        widths = self._chip_widths(p, chips, label_size, value_size)
        if sum(widths) + m.pad * (len(chips) - 1) > rect.w:
            # A narrow panel (the bidding seat's buttons take a column): smaller chips,
            # whose captions ("BID", "TOTAL") are secondary to the numbers they name.
            label_size, value_size = round(m.small * 0.8), m.body
            label_role = Role.SECONDARY
            widths = self._chip_widths(p, chips, label_size, value_size)
        rows = chip_rows(widths, rect.w, m.pad)
        line = m.leading(m.body)
        if len(rows) > 1 and (
            max(widths) > rect.w or len(rows) * (chip_h + m.pad) + len(notes) * line > rect.h
        ):
            # Too narrow for the chips in a row and too low for them in rows (a seven
            # seat table's panels turned a quarter): every figure and note as words,
            # rather than a chip left out.
            pieces_in_rows(p, rect, [*words, *notes], m.small)
            return
        x = y = 0
        for row_number, row in enumerate(rows):
            x, y = rect.left, rect.top + row_number * (chip_h + m.pad)
            for index in row:
                label, value, ink, lit, _ = chips[index]
                chip = pygame.Rect(x, y, widths[index], chip_h)
                self._draw_chip(p, chip, label, value, ink, lit, label_size, value_size, label_role)
                x = chip.right + m.pad
        # Notes beside the last row of chips when there is room, else under them.
        note_x, y = x + m.pad, y + m.pad
        widest = max((p.measure(p.words(n), m.body, True) for n, _ in notes), default=0)
        if notes and rect.right - note_x < widest:
            note_x, y = rect.left, y - m.pad + chip_h + m.pad
        width = rect.right - note_x
        for text, colour in notes:
            # Only a note whose letters (their feet too) are inside the body: the body
            # is clipped, and a note cut at its foot reads as another word.
            letters = p.ink(text, m.body, colour, True, width)
            if y + letters.bottom > rect.bottom:
                break
            p.text(text, (note_x, y), m.body, colour, bold=True, max_width=width)
            y += line

    @staticmethod
    def _draw_chip(
        p: Painter,
        chip: pygame.Rect,
        label: Text,
        value: str,
        ink: Colour,
        lit: bool,
        label_size: int,
        value_size: int,
        label_role: Role,
    ) -> None:
        """One figure's chip: its caption ("BID") on top, the figure under it."""
        m = p.metrics
        p.box(chip, theme.TURN if lit else theme.CENTRE, theme.PANEL_EDGE, 1)
        before, p.role = p.role, label_role
        p.text(
            label,
            (chip.centerx, chip.top + m.pad // 2),
            max(label_size, p.least_size),
            theme.TEXT_DARK if lit else theme.TEXT_DIM,
            bold=True,
            anchor="midtop",
        )
        p.role = before
        p.text(
            value,
            (chip.centerx, chip.bottom - m.pad // 2),
            value_size,
            ink,
            bold=True,
            anchor="midbottom",
        )

    def draw_recall(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        """The last trick on a seat's panel (a long NEXT): its cards in the order played,
        the winning card lit, and who won it."""
        snap = snapshot_of(view)
        draw_last_trick(p, rect, view, _plays(snap.last_trick), snap.last_trick_winner)

    @staticmethod
    def _chip_widths(
        p: Painter,
        chips: Sequence[tuple[Text, str, Colour, bool, tuple[str, ...]]],
        label_size: int,
        value_size: int,
    ) -> list[int]:
        """Each chip's width: its label or the widest of its value, the figures it is sized
        for and two digits, plus padding."""
        label_font = p.fonts.get(label_size, True)
        value_font = p.fonts.get(value_size, True)
        return [
            max(
                label_font.size(p.words(label))[0],
                *(value_font.size(figure)[0] for figure in (value, "00", *sized_for)),
            )
            + 3 * p.metrics.pad
            for label, value, _, _, sized_for in chips
        ]

    # --- the centre ------------------------------------------------------------------

    def draw_centre(
        self, p: Painter, rect: pygame.Rect, view: TableView, toward: Mapping[int, Toward]
    ) -> None:
        snap = snapshot_of(view)
        m = p.metrics
        phase = snap.phase
        trick_area, info = centre_areas(rect, m.pad)
        p.box(trick_area, TRICK_AREA, None)
        self._draw_table_cards(p, trick_area, view, snap, toward)

        detail = self._detail(snap)
        # The turned card sits at the top right of the column, the trump in words under
        # the title: the trick area stays free for the trick.
        turned = snap.trump_card
        head = pygame.Rect(info)
        playing = phase in (Phase.PLAY, Phase.OVER)  # before play the trick area shows trump
        if playing and turned is not None:
            card_h = m.big + m.small
            card = pygame.Rect(0, info.top, round(card_h * 0.7), card_h)
            card.right = info.right
            p.card(card, turned, emphasis=True)
            head.w -= card.w + m.pad
        y = info.top + draw_title_block(p, head, p.words(TITLE), p.words(detail))
        if playing:
            words = trump_words(snap)
            where = pygame.Rect(info.left, y - m.pad, head.w, 0)
            y = wrapped_if_cut(
                p, words, where, where.top, m.small, theme.TEXT, bold=True, align="left"
            ).bottom
            y += m.pad
        status, colour = self._status(view, snap)
        y += draw_status(p, pygame.Rect(info.left, y, info.w, info.h), p.words(status), colour)
        bids_line, bids_colour = self._bids_line(snap)
        if bids_line and y + m.leading(m.body) <= info.bottom:
            y = (
                wrapped_if_cut(
                    p, bids_line, info, y, m.body, bids_colour, bold=True, align="left"
                ).bottom
                + m.pad // 2
            )

        if phase in (Phase.TRUMP, Phase.BID) and snap.last_round:
            # The round summary while the next round is bid: what each seat scored.
            summary = say(
                "Round {round} scored: {scores}",
                round=snap.round - 1,
                scores=Items(
                    tuple(
                        say(
                            "{player} {points}",
                            player=as_arg(player_name(view, s)),
                            points=Signed(v),
                        )
                        for s, v in enumerate(snap.last_round)
                    )
                ),
            )
            pieces = p.wrap(summary, m.small, info.w)
            line = m.leading(m.small)
            free = max(0, (info.bottom - y) // line)
            if not m.narrow(info.w):
                room = min(2, free)
            elif len(pieces) * line <= info.bottom - y - newest_message_height(p, view, info.w):
                # A narrow centre's lines hold fewer words: all the summary's, where the
                # newest message keeps its lines whole under it (a portrait centre).
                room = len(pieces)
            else:
                room = min(4, free)
            if len(pieces) > room > 0:
                # More than fits: the whole summary in pages of the lines that fit, which
                # page shows ("1/2") at the first line's end.
                key = f"round summary: {p.words(summary)}"
                page = text_page(p, summary, m.small, info.w, room, key, MESSAGE_PAGE_SECONDS)
                draw_page_mark(p, page, (info.right, y + line // 2), "midright")
                pieces = page.lines
            for piece in pieces[:room]:
                y = p.text(piece, (info.left, y), m.small, theme.TEXT, max_width=info.w).bottom
            y += m.pad // 2

        turn = snap.next.seat if snap.next is not None else None
        if snap.awaiting_turned_card or snap.awaiting_trump_choice:
            turn = snap.dealer
        columns: list[tuple[Words, Sequence[int | None]]] = []
        if phase in (Phase.TRUMP, Phase.BID) and snap.last_round:
            # The round summary: what the last round scored, while the next one is bid.
            # TRANSLATORS: a score table's column heading: round {round}'s scores, kept short.
            columns.append((say("R{round}", round=snap.round - 1), snap.last_round))
        if phase is not Phase.OVER:
            columns.append((say("bid"), snap.bids))
            columns.append((say("won"), snap.tricks))
        columns.append((say("total"), p.motion.count("totals", snap.totals)))
        # The newest message whole before the table: it says what just happened (the
        # bids' sum explained, why a trick was won), the seats' chips say the scores.
        table_h = draw_foot_score_table(
            p,
            info,
            y,
            view,
            columns,
            turn=turn,
            winners=list(snap.winners),
            keep=newest_message_height(p, view, info.w),
        )
        messages = pygame.Rect(info.left, y + m.pad, info.w, info.bottom - table_h - y - 2 * m.pad)
        draw_messages(p, messages, view)

    def _draw_table_cards(
        self,
        p: Painter,
        area: pygame.Rect,
        view: TableView,
        snap: OhPshawSnapshot,
        toward: Mapping[int, Toward],
    ) -> None:
        """The trick area: the turned card before play; the trick (or the last one) in play.

        The trick won last stays, its winning card lit and its winner named, until
        the next card is played and for at least ``motion.HOLD_SECONDS`` (over the
        turned card of the next round too); then it slides to its winner while the
        new cards travel in from their seats.
        """
        m = p.metrics
        turned = snap.trump_card
        turn = snap.next.seat if snap.next is not None else None
        if snap.awaiting_turned_card or snap.awaiting_trump_choice:
            turn = snap.dealer
        if snap.phase in (Phase.TRUMP, Phase.BID):
            held = p.motion.held()
            if held is not None:
                # The round's last trick, still staying before the next round's turned card.
                draw_trick_picture(p, area, view, held, toward)
                draw_turn_glow(p, area, toward, turn)
                return
            # Before play the turned card is what everyone bids by: big, in the middle.
            card_h = max(30, min(round(area.h * 0.55), round(area.w * 0.4)))
            card = pygame.Rect(0, 0, round(card_h * 0.7), card_h)
            card.center = (area.centerx, area.centery - m.small // 2)
            words = trump_words(snap)
            width = area.w - 2 * m.pad
            if (
                m.narrow(area.w)
                and p.fit(words, width, 1 << 16, m.small, bold=True, max_lines=1).cut
            ):
                # A narrow centre: the trump in words on two lines under the card, whole.
                fitted = p.fit(words, width, 2 * m.leading(m.small), m.small, bold=True)
                card.bottom = min(card.bottom, area.bottom - 2 * m.pad - 2 * m.leading(m.small))
                if turned is not None:
                    p.card(card, turned, emphasis=True)
                box = pygame.Rect(area.left + m.pad, card.bottom + m.pad, width, area.h)
                p.fit_text(words, box, m.small, theme.TEXT, bold=True, valign="top", fitted=fitted)
                draw_turn_glow(p, area, toward, turn)
                return
            if turned is not None:
                p.card(card, turned, emphasis=True)
            elif snap.awaiting_turned_card:
                # A face-down card: the dealer is about to turn it.
                p.box(card, theme.CARD_BACK, theme.TEXT_DIM, max(1, card.w // 14))
                p.text("?", card.center, card_h // 2, theme.TEXT, bold=True, anchor="center")
            p.text(
                words,
                (area.centerx, min(area.bottom - m.pad, card.bottom + m.pad + m.small)),
                m.small,
                theme.TEXT,
                bold=True,
                anchor="midbottom",
                max_width=area.w - 2 * m.pad,
            )
            draw_turn_glow(p, area, toward, turn)
            return
        picture = p.motion.trick(
            _plays(snap.trick), _plays(snap.last_trick), snap.last_trick_winner
        )
        draw_trick_picture(p, area, view, picture, toward)
        draw_turn_glow(p, area, toward, turn)

    @staticmethod
    def _detail(snap: OhPshawSnapshot) -> Text:
        """The line under the title: round, cards dealt, the trick in play, a tie-break."""
        args = {"round": snap.round, "rounds": snap.rounds_scheduled}
        hand = snap.hand_size
        if snap.phase is Phase.PLAY:
            trick = snap.trick_number
            if snap.tie_break:
                return say_plural(
                    "Round {round}/{rounds} · {n} card · trick {trick}/{n} · tie-break",
                    "Round {round}/{rounds} · {n} cards · trick {trick}/{n} · tie-break",
                    hand,
                    trick=trick,
                    **args,
                )
            return say_plural(
                "Round {round}/{rounds} · {n} card · trick {trick}/{n}",
                "Round {round}/{rounds} · {n} cards · trick {trick}/{n}",
                hand,
                trick=trick,
                **args,
            )
        if snap.tie_break:
            return say_plural(
                "Round {round}/{rounds} · {n} card · tie-break",
                "Round {round}/{rounds} · {n} cards · tie-break",
                hand,
                **args,
            )
        return say_plural(
            "Round {round}/{rounds} · {n} card",
            "Round {round}/{rounds} · {n} cards",
            hand,
            **args,
        )

    def _status(self, view: TableView, snap: OhPshawSnapshot) -> tuple[Words, Colour]:
        """The one line that says what the table waits for."""
        if snap.phase is Phase.OVER:
            if not snap.winners:
                return say("Game over: nobody won"), theme.WINNER
            names = Items(tuple(as_arg(player_name(view, w)) for w in snap.winners))
            return say("Game over: {winners} won", winners=names), theme.WINNER
        nxt = snap.next
        if nxt is None:
            return "", theme.TEXT
        if snap.awaiting_turned_card:
            dealer = as_arg(player_name(view, snap.dealer))
            return say("{dealer} deals: tap the turned card", dealer=dealer), theme.TURN
        if snap.awaiting_trump_choice:  # the Wizard variant: a Wizard turned
            dealer = as_arg(player_name(view, snap.dealer))
            return say("{dealer} turned a Wizard and chooses trump", dealer=dealer), theme.TURN
        who = as_arg(player_name(view, nxt.seat))
        if nxt.expects == Verb.BID:
            showing = game_of(view.game).overlay.bid_cursor
            if showing is not None:
                text = say("{player} bids (showing {bid})", player=who, bid=showing)
                return text, theme.TURN
            return say("{player} bids", player=who), theme.TURN
        if not snap.trick:
            return say("{player} leads: play a card", player=who), theme.TURN
        return say("{player}: play a card", player=who), theme.TURN

    @staticmethod
    def _bids_line(snap: OhPshawSnapshot) -> tuple[Words, Colour]:
        """The bid total against the tricks, with over/under/equal once all have bid."""
        if snap.phase not in (Phase.BID, Phase.PLAY):
            return "", theme.TEXT
        hand = snap.hand_size
        if snap.status is not None:
            text = say_plural(
                "Bids {total} for {n} trick: {status}",
                "Bids {total} for {n} tricks: {status}",
                hand,
                total=snap.bid_total,
                status=snap.status.word,
            )
            return text, STATUS_COLOURS[snap.status]
        forbids = snap.hook_forbids
        if forbids is not None:
            text = say_plural(
                "Bids so far {total} of {n} trick · dealer may not bid {forbidden}",
                "Bids so far {total} of {n} tricks · dealer may not bid {forbidden}",
                hand,
                total=snap.bid_total,
                forbidden=forbids,
            )
        else:
            text = say_plural(
                "Bids so far {total} of {n} trick",
                "Bids so far {total} of {n} tricks",
                hand,
                total=snap.bid_total,
            )
        return text, theme.TEXT_DIM


SCENE = OhPshawScene()
