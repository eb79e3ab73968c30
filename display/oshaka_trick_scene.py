"""The Oshaka Trick scene: seat areas with colour columns, the trick, placements, scores.

It draws only what ``OshakaTrick.snapshot()`` says (see the field list in
``docs/display.md``); which card wins, what is a penalty and what scores are
the engine's business. Engine seats in the snapshot are engine player
numbers; the scene is handed the player a panel belongs to.
"""

from __future__ import annotations

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
    int_list,
    player_name,
    score_table_height,
    split_centre,
    table_room,
    trick_of,
)
from display.theme import Painter

# The order the colour columns are drawn in, left to right (the rulebook's order).
COLUMN_ORDER: tuple[str, ...] = ("R", "B", "G", "Y")
COLOUR_WORDS: dict[str, str] = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}
PENALTY_COLOUR = theme.MESSAGE_COLOURS[MessageKind.PENALTY]


def _seat_entry(game: Mapping[str, Any], player: int) -> Mapping[str, Any]:
    seats = game.get("seats")
    if isinstance(seats, list):
        for entry in seats:
            if isinstance(entry, Mapping) and entry.get("seat") == player:
                return entry
    return {}


def _str_list(value: object) -> list[str]:
    return [str(x) for x in value] if isinstance(value, list) else []


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


class OshakaScene:
    """Draws an Oshaka Trick snapshot; see the module docstring."""

    # --- whose turn --------------------------------------------------------------

    def turn_prompt(self, game: Mapping[str, Any], player: int) -> str | None:
        phase = game.get("phase")
        if phase == "lead":
            choosers = int_list(game.get("lead_choosers")) or []
            return "choose who leads round 2" if player in choosers else None
        nxt = game.get("next")
        if not isinstance(nxt, Mapping) or nxt.get("seat") != player:
            return None
        expects = nxt.get("expects")
        if expects == "place":
            to_place = _str_list(game.get("to_place"))
            card = to_place[0] if to_place else "the card"
            return f"place {card}: face up or face down"
        if expects == "play":
            return "play a card"
        return str(expects)

    # --- a seat's area -------------------------------------------------------------

    def draw_seat(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        game = view.game or {}
        entry = _seat_entry(game, player)
        m = p.metrics
        pad = m.pad
        # Colour columns on the left, numbers on the right.
        slot_w = min(rect.w * 0.48 / 4, rect.h * 0.5)
        card_w = max(12, round(slot_w - pad))
        card_h = max(16, min(round(card_w * 1.4), round(rect.h * 0.62)))
        columns = entry.get("columns")
        columns = columns if isinstance(columns, Mapping) else {}
        x = rect.left
        for colour in COLUMN_ORDER:
            cards = _str_list(columns.get(colour))
            slot = pygame.Rect(x, rect.top, card_w, rect.h)
            self._draw_column(p, slot, colour, cards, card_h)
            x += card_w + pad
        stats = pygame.Rect(x + pad, rect.top, rect.right - x - pad, rect.h)
        self._draw_stats(p, stats, entry, card_h)

    def _draw_column(
        self, p: Painter, slot: pygame.Rect, colour: str, cards: Sequence[str], card_h: int
    ) -> None:
        """A colour column: older cards as strips showing their numbers, the top card whole."""
        if not cards:
            empty = pygame.Rect(slot.left, slot.top, slot.w, card_h)
            faint = theme.blend(theme.CARD_COLOURS[colour], theme.PANEL, 0.6)
            p.box(empty, None, faint, max(1, slot.w // 16))
            return
        strip = round(card_h * 0.34)
        if len(cards) > 1:
            strip = min(strip, (slot.h - card_h) // (len(cards) - 1))
        strip = max(2, strip)
        for index, card in enumerate(cards):
            top = index == len(cards) - 1
            rect = pygame.Rect(slot.left, slot.top + index * strip, slot.w, card_h)
            p.card(rect, card, emphasis=top, dim=not top, number_at_top=not top and strip >= 9)

    def _draw_stats(
        self, p: Painter, rect: pygame.Rect, entry: Mapping[str, Any], card_h: int
    ) -> None:
        m = p.metrics
        size = m.body
        line = m.leading(size)
        score = _int(entry.get("round_score"))
        total = _int(entry.get("total"))
        y = rect.top
        wide = f"Round {score}   Total {total}"
        if p.fonts.get(size, True).size(wide)[0] <= rect.w:
            p.text(wide, (rect.left, y), size, theme.TEXT, bold=True, max_width=rect.w)
            y += line
            left = f"{_int(entry.get('cards_left'))} cards left"
            if entry.get("hand_registered"):
                left += " · hand registered"
        else:
            # A narrow panel: one number a line, in the small size.
            for text in (f"Round {score}", f"Total {total}"):
                p.text(text, (rect.left, y), m.small, theme.TEXT, bold=True, max_width=rect.w)
                y += m.leading(m.small)
            left = f"{_int(entry.get('cards_left'))} left"
        p.text(left, (rect.left, y), m.small, theme.TEXT_DIM, max_width=rect.w)
        y += m.leading(m.small) + m.pad // 2
        # Face-down cards and Oshaka penalties share one row of small cards.
        small_h = max(14, min(round(card_h * 0.8), rect.bottom - y))
        small_w = round(small_h * 0.7)
        x = rect.left
        face_down = _int(entry.get("face_down"))
        if face_down:
            p.card_back(pygame.Rect(x, y, small_w, small_h), face_down)
            x += small_w + m.pad * 2
        oshaka = _str_list(entry.get("oshaka"))
        if oshaka:
            label = p.text(
                "Oshaka",
                (x, y + small_h // 2),
                m.small,
                PENALTY_COLOUR,
                bold=True,
                anchor="midleft",
            )
            x = label.right + m.pad
            room = rect.right - x
            step = small_w + m.pad // 2
            if len(oshaka) * step > room and len(oshaka) > 1:
                step = max(4, (room - small_w) // (len(oshaka) - 1))
            for card in oshaka:
                p.card(
                    pygame.Rect(x, y, small_w, small_h),
                    card,
                    outline=PENALTY_COLOUR,
                )
                x += step

    # --- the centre ------------------------------------------------------------------

    def draw_centre(
        self, p: Painter, rect: pygame.Rect, view: TableView, toward: Mapping[int, Toward]
    ) -> None:
        game = view.game or {}
        m = p.metrics
        phase = str(game.get("phase", ""))
        detail = (
            f"Round {_int(game.get('round'), 1)}/{_int(game.get('rounds'), 2)}"
            f" · Trick {_int(game.get('trick_number'), 1)}/{_int(game.get('tricks_per_round'), 13)}"
        )
        lead_colour = game.get("lead_colour")
        if isinstance(lead_colour, str) and lead_colour in COLOUR_WORDS:
            detail += f" · {COLOUR_WORDS[lead_colour]} led"
        title = str(game.get("title") or "Oshaka Trick")
        trick_area, info = split_centre(rect, m.pad)

        plays = trick_of(game)
        to_place = _str_list(game.get("to_place"))
        highlight: dict[str, theme.Colour] = {}
        dimmed: frozenset[str] = frozenset()
        if phase == "place" and to_place:
            highlight[to_place[0]] = theme.TURN
            dimmed = frozenset(card for _, card in plays if card not in to_place)
        elif phase in ("lead", "over"):
            dimmed = frozenset(card for _, card in plays)
        p.box(trick_area, TRICK_AREA, None)
        if plays:
            draw_trick(p, trick_area, plays, toward, highlight=highlight, dimmed=dimmed)

        y = info.top + draw_title_block(p, info, title, detail)
        status, colour = self._status(view, game, phase, to_place)
        y += draw_status(p, pygame.Rect(info.left, y, info.w, info.h), status, colour)

        totals = int_list(game.get("totals")) or []
        rounds = game.get("round_scores")
        round_rows = [int_list(r) or [] for r in rounds] if isinstance(rounds, list) else []
        current = [_int(_seat_entry(game, s).get("round_score")) for s in range(len(totals))]
        columns: list[tuple[str, Sequence[int | None]]] = []
        for index, scores in enumerate(round_rows):
            columns.append((f"R{index + 1}", scores))
        if phase in ("play", "place"):
            columns.append(("now", current))
        columns.append(("total", totals))
        table_h = table_room(p, info, y, score_table_height(p, len(columns)), view)
        if not table_h:
            columns = columns[-1:]  # short of room: the totals alone
            table_h = table_room(p, info, y, score_table_height(p, 1), view)
        nxt = game.get("next")
        turn = nxt.get("seat") if isinstance(nxt, Mapping) else None
        winners = int_list(game.get("winners")) or []
        if table_h:
            draw_score_table(
                p,
                pygame.Rect(info.left, info.bottom - table_h, info.w, table_h),
                view,
                columns,
                turn=turn if isinstance(turn, int) else None,
                winners=winners,
            )
        messages = pygame.Rect(info.left, y + m.pad, info.w, info.bottom - table_h - y - 2 * m.pad)
        draw_messages(p, messages, view)

    def _status(
        self, view: TableView, game: Mapping[str, Any], phase: str, to_place: Sequence[str]
    ) -> tuple[str, theme.Colour]:
        """The one line that says what the table waits for."""
        if phase == "over":
            winners = int_list(game.get("winners")) or []
            names = ", ".join(player_name(view, w) for w in winners) or "nobody"
            return f"Game over: {names} won", theme.WINNER
        if phase == "lead":
            choosers = int_list(game.get("lead_choosers")) or []
            names = " or ".join(player_name(view, s) for s in choosers)
            return f"{names}: choose who leads round 2", theme.TURN
        winner = game.get("trick_winner")
        if phase == "place" and isinstance(winner, int) and to_place:
            then = f" (then {' '.join(to_place[1:])})" if len(to_place) > 1 else ""
            return (
                f"{player_name(view, winner)} won the trick and places {to_place[0]}{then}",
                theme.TURN,
            )
        nxt = game.get("next")
        if isinstance(nxt, Mapping) and isinstance(nxt.get("seat"), int):
            who = player_name(view, int(nxt["seat"]))
            if not trick_of(game):
                return f"{who} leads: play a card", theme.TURN
            return f"{who}: play a card", theme.TURN
        return "", theme.TEXT


SCENE = OshakaScene()
