"""The Oh Pshaw scene: bid, tricks won and total per seat; trump, trick and bids in the centre.

It draws only what ``OhPshaw.snapshot()`` says (see ``docs/oh-pshaw-table.md``)
and, for the seat that is bidding, the number its OK button would bid: the
adapter labels that button ``"bid N"`` (``view.buttons``), so the cursor a
person moves with PREV/NEXT shows in their panel and in the centre. Which
card wins and what scores are the engine's business.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pygame

from controller.view import MessageKind, TableView
from display import theme
from display.generic import (
    TRICK_AREA,
    Toward,
    draw_messages,
    draw_score_table,
    draw_status,
    draw_title_block,
    draw_trick,
    expected,
    int_list,
    player_name,
    score_table_height,
    seat_of_player,
    split_centre,
    table_room,
    trick_of,
)
from display.theme import Colour, Painter

SUIT_WORDS: Mapping[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
# The over/under/equal announcement's colours: over and under both mean someone
# must miss or be forced, so they stand out; equal is calm.
STATUS_COLOURS: Mapping[str, Colour] = {
    "over": (255, 130, 90),
    "under": theme.ACCENT,
    "equal": theme.JOINED,
}
PENALTY_COLOUR = theme.MESSAGE_COLOURS[MessageKind.PENALTY]
MISSED_COLOUR = theme.MESSAGE_COLOURS[MessageKind.REFUSED]
_BID_LABEL = re.compile(r"^bid (\d+)$")


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _at(values: object, index: int) -> int | None:
    """``values[index]`` when ``values`` is a list holding an int there, else None."""
    if isinstance(values, list) and 0 <= index < len(values):
        value = values[index]
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _bids(game: Mapping[str, Any], players: int) -> list[int | None]:
    return [_at(game.get("bids"), s) for s in range(players)]


def bid_cursor(view: TableView, player: int) -> int | None:
    """The bid ``player``'s OK button would make now, read from its label; None if not bidding."""
    game = view.game or {}
    nxt = expected(game)
    if nxt is None or nxt != (player, "bid"):
        return None
    seat = seat_of_player(view, player)
    if seat is None:
        return None
    for hint in view.buttons:
        if hint.seat == seat.seat and hint.button == "ok":
            found = _BID_LABEL.match(hint.label)
            if found:
                return int(found.group(1))
    return None


def awaiting_turned_card(game: Mapping[str, Any]) -> bool:
    """Whether the round turns a card that the dealer has not tapped yet (the table waits)."""
    return (
        game.get("phase") in ("bid", "trump")
        and bool(game.get("turns_card"))
        and game.get("trump_card") is None
    )


def trump_words(game: Mapping[str, Any]) -> str:
    """What is trump this round, in words."""
    trump = game.get("trump")
    if isinstance(trump, str) and trump in SUIT_WORDS:
        card = game.get("trump_card")
        if isinstance(card, str):
            return f"Trump: {SUIT_WORDS[trump]} ({card} turned)"
        return f"Trump: {SUIT_WORDS[trump]}"
    if awaiting_turned_card(game):
        return "Trump: the dealer turns a card"
    return "No trump this round"


class OhPshawScene:
    """Draws an Oh Pshaw snapshot; see the module docstring."""

    # --- whose turn --------------------------------------------------------------

    def turn_prompt(self, game: Mapping[str, Any], player: int) -> str | None:
        if awaiting_turned_card(game):
            # The bidding waits for the turned card: only the dealer has something to do.
            return "tap the turned card" if game.get("dealer") == player else None
        nxt = expected(game)
        if nxt is None or nxt[0] != player:
            return None
        return {
            "trump": "tap the turned card",
            "bid": "make your bid",
            "play": "play a card",
        }.get(nxt[1], nxt[1])

    # --- a seat's panel --------------------------------------------------------------

    def draw_seat(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        game = view.game or {}
        m = p.metrics
        bid = _at(game.get("bids"), player)
        won = _at(game.get("tricks"), player) or 0
        total = _at(game.get("totals"), player) or 0
        cursor = bid_cursor(view, player)
        phase = game.get("phase")
        reneged = any(
            isinstance(r, Mapping) and r.get("seat") == player for r in (game.get("reneges") or [])
        )

        chips: list[tuple[str, str, Colour, bool]] = []  # label, value, ink, lit
        if cursor is not None:
            chips.append(("BID?", str(cursor), theme.TEXT_DARK, True))
        else:
            chips.append(("BID", "-" if bid is None else str(bid), theme.TEXT, False))
        if phase in ("play", "over"):
            # Nobody has won a trick before play: the room goes to the bid and total.
            chips.append(("WON", str(won), theme.TEXT, False))
        chips.append(("TOTAL", str(total), theme.TEXT, False))

        notes: list[tuple[str, Colour]] = []
        if game.get("dealer") == player and phase != "over":
            notes.append(("dealer", theme.ACCENT))
        if reneged:
            notes.append(("renege", PENALTY_COLOUR))
        elif bid is not None and phase == "play":
            need = bid - won
            if need > 0:
                notes.append((f"needs {need} more", theme.TEXT))
            elif need == 0:
                notes.append(("on target", theme.JOINED))
            else:
                notes.append((f"{-need} too many", MISSED_COLOUR))

        value_size = m.big
        chip_h = m.leading(m.small) + m.leading(value_size) + m.pad
        if rect.h < chip_h:
            # Too little height for chips: one line of text.
            text = "   ".join(f"{label.title()} {value}" for label, value, _, _ in chips)
            text += "".join(f"   {note}" for note, _ in notes)
            p.text(text, (rect.left, rect.top), m.small, theme.TEXT, bold=True, max_width=rect.w)
            return
        label_size = m.small
        widths = self._chip_widths(p, chips, label_size, value_size)
        if sum(widths) + m.pad * (len(chips) - 1) > rect.w:
            # A narrow panel (the bidding seat's buttons take a column): smaller chips.
            label_size, value_size = round(m.small * 0.8), m.body
            widths = self._chip_widths(p, chips, label_size, value_size)
        x = rect.left
        for (label, value, ink, lit), width in zip(chips, widths, strict=True):
            chip = pygame.Rect(x, rect.top, width, chip_h)
            if chip.right > rect.right:
                break
            p.box(chip, theme.TURN if lit else theme.CENTRE, theme.PANEL_EDGE, 1)
            p.text(
                label,
                (chip.centerx, chip.top + m.pad // 2),
                label_size,
                theme.TEXT_DARK if lit else theme.TEXT_DIM,
                bold=True,
                anchor="midtop",
            )
            p.text(
                value,
                (chip.centerx, chip.bottom - m.pad // 2),
                value_size,
                ink,
                bold=True,
                anchor="midbottom",
            )
            x = chip.right + m.pad
        # Notes beside the chips when there is room, else under them.
        y = rect.top + m.pad
        line = m.leading(m.body)
        note_x = x + m.pad
        if notes and rect.right - note_x < p.fonts.get(m.body, True).size("needs 9 more")[0]:
            note_x, y = rect.left, rect.top + chip_h + m.pad
        for text, colour in notes:
            if y + line > rect.bottom + m.pad:
                break
            p.text(text, (note_x, y), m.body, colour, bold=True, max_width=rect.right - note_x)
            y += line

    @staticmethod
    def _chip_widths(
        p: Painter, chips: Sequence[tuple[str, str, Colour, bool]], label_size: int, value_size: int
    ) -> list[int]:
        """Each chip's width: its label or its value (at least two digits), plus padding."""
        label_font = p.fonts.get(label_size, True)
        value_font = p.fonts.get(value_size, True)
        return [
            max(label_font.size(label)[0], value_font.size(value)[0], value_font.size("00")[0])
            + 3 * p.metrics.pad
            for label, value, _, _ in chips
        ]

    # --- the centre ------------------------------------------------------------------

    def draw_centre(
        self, p: Painter, rect: pygame.Rect, view: TableView, toward: Mapping[int, Toward]
    ) -> None:
        game = view.game or {}
        m = p.metrics
        phase = str(game.get("phase", ""))
        totals = int_list(game.get("totals")) or []
        players = _int(game.get("players"), len(totals))
        hand = _int(game.get("hand_size"), 1)
        trick_area, info = split_centre(rect, m.pad)
        p.box(trick_area, TRICK_AREA, None)
        self._draw_table_cards(p, trick_area, view, game, phase, toward)

        detail = f"Round {_int(game.get('round'), 1)}/{_int(game.get('rounds_scheduled'), 1)}"
        detail += f" · {hand} card{'s' if hand != 1 else ''}"
        if phase == "play":
            detail += f" · trick {_int(game.get('trick_number'), 1)}/{hand}"
        if game.get("tie_break"):
            detail += " · tie-break"
        # The turned card sits at the top right of the column, the trump in words under
        # the title: the trick area stays free for the trick.
        turned = game.get("trump_card")
        head = pygame.Rect(info)
        playing = phase in ("play", "over")  # before play the trick area shows the trump
        if playing and isinstance(turned, str):
            card_h = m.big + m.small
            card = pygame.Rect(0, info.top, round(card_h * 0.7), card_h)
            card.right = info.right
            p.card(card, turned, emphasis=True)
            head.w -= card.w + m.pad
        title = str(game.get("title") or "Oh Pshaw")
        y = info.top + draw_title_block(p, head, title, detail)
        if playing:
            words = trump_words(game)
            y = p.text(
                words, (info.left, y - m.pad), m.small, theme.TEXT, bold=True, max_width=head.w
            ).bottom
            y += m.pad
        status, colour = self._status(view, game, phase)
        y += draw_status(p, pygame.Rect(info.left, y, info.w, info.h), status, colour)
        bids_line, bids_colour = self._bids_line(game, phase, hand)
        if bids_line:
            y = (
                p.text(
                    bids_line, (info.left, y), m.body, bids_colour, bold=True, max_width=info.w
                ).bottom
                + m.pad // 2
            )

        nxt = expected(game)
        turn = nxt[0] if nxt is not None else None
        if awaiting_turned_card(game):
            turn = _int(game.get("dealer"))
        winners = int_list(game.get("winners")) or []
        columns: list[tuple[str, Sequence[int | None]]] = []
        if phase != "over":
            columns.append(("bid", _bids(game, players)))
            columns.append(("won", int_list(game.get("tricks")) or []))
        columns.append(("total", totals))
        table_h = table_room(p, info, y, score_table_height(p, len(columns)), view)
        if not table_h:
            columns = columns[-1:]  # short of room: the totals alone
            table_h = table_room(p, info, y, score_table_height(p, 1), view)
        if table_h:
            draw_score_table(
                p,
                pygame.Rect(info.left, info.bottom - table_h, info.w, table_h),
                view,
                columns,
                turn=turn,
                winners=winners,
            )
        messages = pygame.Rect(info.left, y + m.pad, info.w, info.bottom - table_h - y - 2 * m.pad)
        draw_messages(p, messages, view)

    def _draw_table_cards(
        self,
        p: Painter,
        area: pygame.Rect,
        view: TableView,
        game: Mapping[str, Any],
        phase: str,
        toward: Mapping[int, Toward],
    ) -> None:
        """The trick area: the turned card before play; the trick (or the last one) in play."""
        m = p.metrics
        turned = game.get("trump_card")
        if phase in ("trump", "bid"):
            # Before play the turned card is what everyone bids by: big, in the middle.
            card_h = max(30, min(round(area.h * 0.55), round(area.w * 0.4)))
            card = pygame.Rect(0, 0, round(card_h * 0.7), card_h)
            card.center = (area.centerx, area.centery - m.small // 2)
            if isinstance(turned, str):
                p.card(card, turned, emphasis=True)
            elif awaiting_turned_card(game):
                # A face-down card: the dealer is about to turn it.
                p.box(card, theme.CARD_BACK, theme.TEXT_DIM, max(1, card.w // 14))
                p.text("?", card.center, card_h // 2, theme.TEXT, bold=True, anchor="center")
            p.text(
                trump_words(game),
                (area.centerx, min(area.bottom - m.pad, card.bottom + m.pad + m.small)),
                m.small,
                theme.TEXT,
                bold=True,
                anchor="midbottom",
                max_width=area.w - 2 * m.pad,
            )
            return

        plays = trick_of(game)
        if plays:
            draw_trick(p, area, plays, toward)
            return
        # Between tricks: the last trick stays, dimmed, its winning card lit in gold.
        plays = trick_of(game, "last_trick")
        winner = game.get("last_trick_winner")
        if not plays or not isinstance(winner, int):
            return
        won = next((c for s, c in plays if s == winner), "")
        dimmed = frozenset(c for _, c in plays if c != won)
        draw_trick(
            p, area, plays, toward, highlight={won: theme.WINNER}, dimmed=dimmed, lead_mark=False
        )
        p.text(
            "last trick",
            (area.left + m.pad, area.top + m.pad),
            m.small,
            theme.TEXT_DIM,
            max_width=area.w // 3,
        )

    def _status(self, view: TableView, game: Mapping[str, Any], phase: str) -> tuple[str, Colour]:
        """The one line that says what the table waits for."""
        if phase == "over":
            winners = int_list(game.get("winners")) or []
            names = ", ".join(player_name(view, w) for w in winners) or "nobody"
            return f"Game over: {names} won", theme.WINNER
        nxt = expected(game)
        if nxt is None:
            return "", theme.TEXT
        if awaiting_turned_card(game):
            dealer = _int(game.get("dealer"))
            return f"{player_name(view, dealer)} deals: tap the turned card", theme.TURN
        who = player_name(view, nxt[0])
        if nxt[1] == "bid":
            cursor = bid_cursor(view, nxt[0])
            shown = f" (showing {cursor})" if cursor is not None else ""
            return f"{who} bids{shown}", theme.TURN
        if not trick_of(game):
            return f"{who} leads: play a card", theme.TURN
        return f"{who}: play a card", theme.TURN

    @staticmethod
    def _bids_line(game: Mapping[str, Any], phase: str, hand: int) -> tuple[str, Colour]:
        """The bid total against the tricks, with over/under/equal once all have bid."""
        if phase not in ("bid", "play"):
            return "", theme.TEXT
        total = _int(game.get("bid_total"))
        tricks = f"{hand} trick{'s' if hand != 1 else ''}"
        status = game.get("status")
        if isinstance(status, str) and status in STATUS_COLOURS:
            return f"Bids {total} for {tricks}: {status.upper()}", STATUS_COLOURS[status]
        forbids = game.get("hook_forbids")
        hook = f" · dealer may not bid {forbids}" if isinstance(forbids, int) else ""
        return f"Bids so far {total} of {tricks}{hook}", theme.TEXT_DIM


SCENE = OhPshawScene()
