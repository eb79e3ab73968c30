"""The Oss scene: the three solo tricks and the duel trick, placements, attempts, the toss timer.

It draws what the snapshot says: the engine's ``Oss.snapshot()`` (tricks with
their set-up and do texts, placements, attempts, seats, scores) and, when the
table passes the adapter's snapshot (``OssAdapter.snapshot()``), the table's
side as well: ``timer`` (running clock, attempt log, bests), ``chosen_trick``,
``counts`` and ``help``. Without those keys the timer box says the timer is idle and
the times still appear in the messages.

The help line shows the first of the snapshot's ``help`` texts: the rulings
that matter in the current phase, chosen by the adapter (the display knows
no rules).
"""

from __future__ import annotations

import time
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
    int_list,
    player_name,
)
from display.theme import Colour, Painter

TRIBE_COLOURS: tuple[Colour, ...] = (
    (212, 52, 52),
    (40, 108, 214),
    (40, 150, 70),
    (236, 196, 36),
    (150, 80, 200),
    (230, 120, 40),
)
DUEL_COLOUR: Colour = (200, 70, 70)
SOLO_COLOUR: Colour = (232, 226, 210)
PENALTY_COLOUR = theme.MESSAGE_COLOURS[MessageKind.PENALTY]
WON_COLOUR = theme.MESSAGE_COLOURS[MessageKind.WON]


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def seconds(millis: int) -> str:
    return f"{millis // 1000}.{millis % 1000:03d} s"


def current_attempt(game: Mapping[str, Any]) -> Mapping[str, Any] | None:
    index = game.get("current")
    attempts = _list(game.get("attempts"))
    if isinstance(index, int) and 0 <= index < len(attempts):
        return _mapping(attempts[index])
    return None


class OssScene:
    """Draws an Oss snapshot; see the module docstring."""

    # --- whose turn --------------------------------------------------------------------

    def turn_prompt(self, game: Mapping[str, Any], player: int) -> str | None:
        phase = game.get("phase")
        if phase == "result":
            attempt = current_attempt(game)
            if attempt is None or player not in _list(attempt.get("seats")):
                return None
            if attempt.get("kind") == "solo":
                values = _list(attempt.get("values"))
                jacks = values[0] if values else "?"
                return f"{attempt.get('trick')} with {jacks} jacks"
            return f"duel {attempt.get('trick')}"
        if phase == "challenge-result":
            remaining = _list(_mapping(game.get("challenge")).get("remaining"))
            return "challenge: NEXT if out" if player in remaining else None
        nxt = _mapping(game.get("next"))
        if nxt.get("seat") != player:
            return None
        expects = nxt.get("expects")
        if expects == "tribe":
            chosen = game.get("chosen_trick")
            return f"tap a card for {chosen}" if chosen else "choose a trick, tap a card"
        if expects == "replay":
            return "replay or pass"
        if expects == "keep":
            return "keep a duel card"
        return None  # chance: the virtual deck does it

    # --- a seat's area ---------------------------------------------------------------------

    def draw_seat(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        game = view.game or {}
        seats = _list(game.get("seats"))
        entry = _mapping(seats[player]) if player < len(seats) else {}
        m = p.metrics
        size = m.small
        line = m.leading(size)
        y = rect.top
        head = f"Score {_int(entry.get('score'))}"
        if entry.get("chief"):
            head += "  · CHIEF"
        p.text(head, (rect.left, y), m.body, theme.TEXT, bold=True, max_width=rect.w)
        y += m.leading(m.body)
        parts = [
            f"tribe T{player + 1}",
            f"hand {_int(entry.get('hand_size'))}",
            f"deck {_int(entry.get('deck_size'))}",
            f"replays left {_int(entry.get('replays_left'))}",
        ]
        for text in p.wrap("   ".join(parts), size, rect.w):
            if y + line > rect.bottom:
                return
            p.text(text, (rect.left, y), size, theme.TEXT_DIM, max_width=rect.w)
            y += line
        won = [str(v) for v in _list(entry.get("won"))]
        challenges = [str(c) for c in _list(entry.get("challenges"))]
        extra = f"won {' '.join(won) or '-'}"
        if challenges:
            extra += f"   challenges {', '.join(challenges)}"
        best = _mapping(_mapping(game.get("timer")).get("bests")).get(str(player))
        if isinstance(best, int):
            extra += f"   best {seconds(best)}"
        if y + line <= rect.bottom:
            p.text(extra, (rect.left, y), size, theme.TEXT, max_width=rect.w)

    # --- the centre ----------------------------------------------------------------------------

    def draw_centre(
        self, p: Painter, rect: pygame.Rect, view: TableView, toward: Mapping[int, Toward]
    ) -> None:
        game = view.game or {}
        m = p.metrics
        pad = m.pad
        # Tricks on the left (or on top when the centre is tall), information beside.
        if rect.w >= rect.h * 1.25:
            tricks_w = round(rect.w * 0.56)
            area = pygame.Rect(rect.left, rect.top, tricks_w, rect.h)
            info = pygame.Rect(area.right + pad, rect.top, rect.w - tricks_w - pad, rect.h)
        else:
            tricks_h = round(rect.h * 0.5)
            area = pygame.Rect(rect.left, rect.top, rect.w, tricks_h)
            info = pygame.Rect(rect.left, area.bottom + pad, rect.w, rect.h - tricks_h - pad)
        p.box(area, TRICK_AREA, None)
        self._draw_tricks(p, area.inflate(-2 * pad, -2 * pad), view, game)
        self._draw_info(p, info, view, game)

    def _focus(self, game: Mapping[str, Any]) -> str | None:
        """The trick whose instructions are shown: the one being attempted or chosen."""
        attempt = current_attempt(game)
        if attempt is not None:
            return str(attempt.get("trick"))
        chosen = game.get("chosen_trick")
        return str(chosen) if isinstance(chosen, str) else None

    def _draw_tricks(
        self, p: Painter, area: pygame.Rect, view: TableView, game: Mapping[str, Any]
    ) -> None:
        m = p.metrics
        pad = m.pad
        tricks = [_mapping(t) for t in _list(game.get("tricks"))]
        duel = _mapping(game.get("duel"))
        challenge = _mapping(game.get("challenge"))
        if not tricks:
            p.text(
                "The chief reveals the tricks…",
                area.center,
                m.body,
                theme.TEXT_DIM,
                anchor="center",
                max_width=area.w,
            )
            return
        focus = self._focus(game)
        columns = [*tricks, duel] if duel else tricks
        # The cards take what their placements need; the instructions get the rest.
        most = max(1, *(len(_list(t.get("placements"))) for t in tricks))
        chip = m.leading(m.small) + 2 + max(1, pad // 2)
        head = min(round(area.h * 0.58 * 0.42), m.leading(m.body) * 2 + pad)
        cards_h = min(round(area.h * 0.58), head + pad + most * chip + pad)
        text_h = area.h - cards_h - pad
        col_w = (area.w - pad * (len(columns) - 1)) // len(columns)
        attempt = current_attempt(game)
        for index, trick in enumerate(columns):
            box = pygame.Rect(area.left + index * (col_w + pad), area.top, col_w, cards_h)
            self._draw_trick_column(p, box, view, trick, focus, attempt)
        text_box = pygame.Rect(area.left, area.bottom - text_h, area.w, text_h)
        if challenge:
            self._draw_card_text(p, text_box, f"Challenge: {challenge.get('name')}", challenge)
            return
        shown = next((t for t in columns if t.get("name") == focus), None)
        if shown is None:
            shown = duel or tricks[0]
        kind = "Duel trick" if shown.get("kind") == "duel" else "Trick"
        style = f" ({shown['style']})" if shown.get("style") else ""
        self._draw_card_text(p, text_box, f"{kind}: {shown.get('name')}{style}", shown)

    def _draw_trick_column(
        self,
        p: Painter,
        box: pygame.Rect,
        view: TableView,
        trick: Mapping[str, Any],
        focus: str | None,
        attempt: Mapping[str, Any] | None,
    ) -> None:
        m = p.metrics
        pad = m.pad
        is_duel = trick.get("kind") == "duel"
        name = str(trick.get("name", "?"))
        focused = name == focus
        head_h = min(round(box.h * 0.7), m.leading(m.body) * 2 + pad)
        head = pygame.Rect(box.left, box.top, box.w, head_h)
        fill = DUEL_COLOUR if is_duel else SOLO_COLOUR
        ink = (255, 255, 255) if is_duel else theme.TEXT_DARK
        p.box(head, fill, theme.TURN if focused else None, max(2, pad // 2) if focused else 1)
        p.text(
            name,
            (head.centerx, head.top + pad),
            m.body,
            ink,
            bold=True,
            anchor="midtop",
            max_width=head.w - 2 * pad,
        )
        family = "duel" if is_duel else f"family {trick.get('family')}"
        throw = {"classic": "classic Jack", "unusual": "unusual Jack", "none": "no Jack"}.get(
            str(trick.get("throw")), ""
        )
        p.text(
            f"{family} · {throw}",
            (head.centerx, head.bottom - pad // 2),
            max(9, round(m.small * 0.8)),
            ink,
            anchor="midbottom",
            max_width=head.w - 2 * pad,
        )
        # Placements below a solo trick, in playing order: the first two duel.
        y = head.bottom + pad
        chip_h = m.leading(m.small) + 2
        if is_duel:
            if attempt is not None and attempt.get("kind") == "duel":
                seats = _list(attempt.get("seats"))
                text = " vs ".join(player_name(view, int(s)) for s in seats)
                p.text(
                    text, (box.centerx, y), m.small, theme.TEXT, anchor="midtop", max_width=box.w
                )
            return
        for placement in _list(trick.get("placements")):
            entry = _mapping(placement)
            seat = _int(entry.get("seat"))
            mode = str(entry.get("mode", ""))
            chip = pygame.Rect(box.left, y, box.w, chip_h)
            if chip.bottom > box.bottom:
                break
            colour = TRIBE_COLOURS[seat % len(TRIBE_COLOURS)]
            edge = DUEL_COLOUR if mode == "duel" else None
            current = attempt is not None and seat in _list(attempt.get("seats"))
            if current and (mode == "duel" or (attempt or {}).get("trick") == name):
                edge = theme.TURN
            p.box(chip, theme.blend(colour, theme.PANEL, 0.35), edge, max(1, pad // 2))
            label = f"{entry.get('value')}  {player_name(view, seat)}"
            small = max(9, round(m.small * 0.85))
            drawn = p.text(
                label,
                (chip.left + pad, chip.centery),
                small,
                theme.TEXT,
                bold=True,
                anchor="midleft",
                max_width=chip.w - 2 * pad,
            )
            if mode == "duel" and p.fonts.get(small).size(" duel")[0] < chip.right - drawn.right:
                p.text(
                    "duel", (chip.right - pad, chip.centery), small, theme.TURN, anchor="midright"
                )
            y = chip.bottom + max(1, pad // 2)

    def _draw_card_text(
        self, p: Painter, rect: pygame.Rect, title: str, card: Mapping[str, Any]
    ) -> None:
        """A card's instructions: set-up, do, and its note."""
        m = p.metrics
        pad = m.pad
        p.box(rect, theme.blend(theme.PANEL, TRICK_AREA, 0.3), theme.PANEL_EDGE)
        inner = rect.inflate(-2 * pad, -2 * pad)
        y = inner.top
        p.text(title, (inner.left, y), m.small, theme.ACCENT, bold=True, max_width=inner.w)
        y += m.leading(m.small) + pad // 2
        size = max(10, round(m.small * 0.82))
        line = m.leading(size)
        for label, key in (("Set up", "setup"), ("Do", "do"), ("", "note")):
            text = str(card.get(key) or "")
            if not text:
                continue
            full = f"{label}: {text}" if label else text
            for piece in p.wrap(full, size, inner.w):
                if y + line > inner.bottom:
                    return
                p.text(piece, (inner.left, y), size, theme.TEXT, max_width=inner.w)
                y += line

    def _draw_info(
        self, p: Painter, info: pygame.Rect, view: TableView, game: Mapping[str, Any]
    ) -> None:
        m = p.metrics
        pad = m.pad
        y = info.top
        chief = game.get("chief")
        detail = f"Round {_int(game.get('round'), 1)}/{_int(game.get('rounds'), 4)}"
        if isinstance(chief, int):
            detail += f" · chief {player_name(view, chief)}"
        title = p.text("Oss", (info.left, y), m.big, theme.TEXT, bold=True, max_width=info.w)
        p.text(
            detail,
            (title.right + 2 * pad, title.centery),
            m.small,
            theme.TEXT_DIM,
            anchor="midleft",
            max_width=max(10, info.right - title.right - 2 * pad),
        )
        y = title.bottom + pad // 2
        status, colour = self._status(view, game)
        y += draw_status(p, pygame.Rect(info.left, y, info.w, info.h), status, colour)
        y += self._draw_timer(p, pygame.Rect(info.left, y, info.w, info.h), view, game)

        totals = [_int(_mapping(s).get("score")) for s in _list(game.get("seats"))]
        replays = [_int(_mapping(s).get("replays_left")) for s in _list(game.get("seats"))]
        rows: list[tuple[str, Sequence[int | None]]] = [
            ("replays left", replays),
            ("score", totals),
        ]
        line = m.leading(m.small) + pad // 2
        table_h = 3 * line if totals else 0
        help_texts = [str(text) for text in _list(game.get("help"))]
        help_h = m.leading(max(10, round(m.small * 0.8))) * 2 + pad if help_texts else 0
        room = info.bottom - y
        if room - table_h - help_h < 2 * m.leading(m.small) + 2 * pad:
            help_h = 0
        if room - table_h < 2 * m.leading(m.small) + 2 * pad:
            table_h = 2 * line if room - 2 * line >= m.leading(m.small) else 0
            rows = rows[-1:]
        bottom = info.bottom
        if help_h:
            self._draw_help(p, pygame.Rect(info.left, bottom - help_h, info.w, help_h), help_texts)
            bottom -= help_h + pad // 2
        nxt = _mapping(game.get("next"))
        turn = nxt.get("seat") if isinstance(nxt.get("seat"), int) else None
        if table_h and totals:
            draw_score_table(
                p,
                pygame.Rect(info.left, bottom - table_h, info.w, table_h),
                view,
                rows,
                turn=turn,
                winners=(int_list(game.get("winners")) or [])
                if game.get("phase") == "over"
                else [],
            )
            bottom -= table_h
        messages = pygame.Rect(info.left, y + pad // 2, info.w, bottom - y - pad)
        if messages.h > 0:
            draw_messages(p, messages, view)

    def _draw_help(self, p: Painter, rect: pygame.Rect, texts: Sequence[str]) -> None:
        size = max(10, round(p.metrics.small * 0.8))
        lines = p.wrap(f"Ruling: {texts[0]}", size, rect.w)
        line = p.metrics.leading(size)
        for index, piece in enumerate(lines[: max(1, rect.h // line)]):
            if index == rect.h // line - 1 and index < len(lines) - 1:
                piece += " …"
            p.text(
                piece, (rect.left, rect.top + index * line), size, theme.ACCENT, max_width=rect.w
            )

    def _draw_timer(
        self, p: Painter, rect: pygame.Rect, view: TableView, game: Mapping[str, Any]
    ) -> int:
        """The toss timer: the running clock or the last time, to the millisecond."""
        timer = _mapping(game.get("timer"))
        if not timer:
            return 0
        m = p.metrics
        pad = m.pad
        limit = timer.get("limit")
        size = m.body
        y = rect.top + pad // 2
        started = timer.get("started_at")
        seat = timer.get("seat")
        who = player_name(view, seat) if isinstance(seat, int) else "Timer"
        if timer.get("running") and isinstance(started, int | float):
            elapsed = max(0.0, time.monotonic() - float(started))
            text = f"{who}: timing {elapsed:.3f} s"
            colour = theme.TURN
            if isinstance(limit, int | float):
                left = float(limit) - elapsed
                text += f" · {max(0.0, left):.1f} s left" if left > 0 else " · TIME!"
                colour = theme.TURN if left > 0 else PENALTY_COLOUR
        else:
            last = _mapping(timer.get("last"))
            if last:
                last_seat = last.get("seat")
                name = player_name(view, last_seat) if isinstance(last_seat, int) else "Timer"
                text = f"{name}: {seconds(_int(last.get('millis')))}"
                colour = PENALTY_COLOUR if last.get("over_limit") else WON_COLOUR
            else:
                text = "Toss timer ready: press to start"
                colour = theme.TEXT_DIM
            if isinstance(limit, int | float):
                text += f" · limit {float(limit):g} s"
        drawn = p.text(text, (rect.left, y), size, colour, bold=True, max_width=rect.w)
        y = drawn.bottom
        log = [_mapping(e) for e in _list(timer.get("log"))]
        if len(log) > 1:
            recent = "  ".join(seconds(_int(e.get("millis"))) for e in log[-5:-1][::-1])
            y = p.text(
                f"earlier: {recent}",
                (rect.left, y),
                max(10, round(m.small * 0.85)),
                theme.TEXT_DIM,
                max_width=rect.w,
            ).bottom
        return y - rect.top + pad // 2

    def _status(self, view: TableView, game: Mapping[str, Any]) -> tuple[str, Colour]:
        """Who attempts what next, in one line."""
        phase = game.get("phase")
        if phase == "over":
            winners = int_list(game.get("winners")) or []
            names = ", ".join(player_name(view, w) for w in winners) or "nobody"
            return f"Game over: {names} Big Chief", theme.WINNER
        nxt = _mapping(game.get("next"))
        seat = nxt.get("seat")
        who = player_name(view, seat) if isinstance(seat, int) else ""
        if phase == "tribe":
            chosen = game.get("chosen_trick")
            where = f" below {chosen}" if chosen else ": choose a trick (PREV/NEXT), then tap"
            return f"{who} plays a tribe card{where}", theme.TURN
        if phase == "result":
            attempt = current_attempt(game) or {}
            seats = [int(s) for s in _list(attempt.get("seats")) if isinstance(s, int)]
            values = _list(attempt.get("values"))
            if attempt.get("kind") == "solo" and seats:
                jacks = values[0] if values else "?"
                return (
                    f"{player_name(view, seats[0])} attempts {attempt.get('trick')} "
                    f"with {jacks} jacks: OK success, NEXT failure",
                    theme.TURN,
                )
            names = " vs ".join(player_name(view, s) for s in seats)
            how = "enter the counts" if game.get("counting_duel") else "OK won, NEXT lost, PREV tie"
            return f"Duel {attempt.get('trick')}: {names}: {how}", theme.TURN
        if phase == "replay":
            return f"{who} failed: replay (discard a card) or pass", theme.TURN
        if phase == "keep":
            return f"{who} won the duel: keep one of the two cards", theme.TURN
        if phase == "challenge-result":
            challenge = _mapping(game.get("challenge"))
            left = [player_name(view, s) for s in _list(challenge.get("remaining"))]
            return f"Challenge {challenge.get('name')}: {', '.join(left)} still in", theme.TURN
        return "The table deals…", theme.TEXT_DIM


SCENE = OssScene()
