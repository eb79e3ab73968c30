"""The Oshaka Trick scene: seat areas with colour columns, the trick, placements, scores.

It draws only what ``OshakaTrick.snapshot()`` says, with the table's lead cursor over it
(``OshakaOverlay``; see the field list in
``docs/display.md``); which card wins, what is a penalty and what scores are
the engine's business. Engine seats in the snapshot are engine player
numbers; the scene is handed the player a panel belongs to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple

import pygame

from controller.games.oshaka_trick.actions import Verb
from controller.games.oshaka_trick.snapshot import OshakaOverlay, OshakaSnapshot, SeatSnapshot
from controller.games.oshaka_trick.spec import VOCABULARY
from controller.games.oshaka_trick.state import Phase, Placed
from controller.games.words import Card, Items, Text, Words, as_arg, say, say_plural
from controller.view import AnyGameView, GameView, MessageKind, TableView
from display import theme
from display.generic import (
    TRICK_AREA,
    Toward,
    draw_foot_score_table,
    draw_last_trick,
    draw_messages,
    draw_score_table,
    draw_status,
    draw_title_block,
    draw_trick_picture,
    draw_turn_glow,
    player_name,
    split_centre,
    verb_prompt,
)
from display.theme import Painter

# The order the colour columns are drawn in, left to right (the rulebook's order),
# and the colours' words: the game's vocabulary, not restated here.
COLUMN_ORDER: tuple[str, ...] = VOCABULARY.colours
COLOUR_WORDS: Mapping[str, Text] = VOCABULARY.colour_names
PENALTY_COLOUR = theme.MESSAGE_COLOURS[MessageKind.PENALTY]
# The game's name as the reader's language writes it (Japanese: katakana).
TITLE = say("Oshaka Trick")
NO_SEAT = SeatSnapshot(0, {}, 0, (), 0, 0, 0, False)
# Where the winner put each card of the last trick, in words and colour (under the card
# on a seat's look back).
PLACED_WORDS: Mapping[Placed, tuple[Text, theme.Colour]] = {
    Placed.UP: (say("face up"), theme.JOINED),
    Placed.DOWN: (say("face down"), theme.TEXT_DIM),
    Placed.OSHAKA: (say("Oshaka"), PENALTY_COLOUR),
}
TO_PLACE = say("to place")


class _Stats(NamedTuple):
    """A seat's figures laid out (``OshakaScene._stats_layout``): the score lines and
    their sizes, the hand's count in words, and the count's line (up to the row of small
    cards under it)."""

    figures: tuple[tuple[Words, int], ...]
    left: Words
    count_line: pygame.Rect


def game_of(game: AnyGameView | None) -> GameView[OshakaSnapshot, OshakaOverlay]:
    """The view's game with Oshaka Trick's own types (the scene only draws a game in play)."""
    if game is None:
        raise ValueError("the Oshaka Trick scene was asked to draw no game")
    return game.narrowed(OshakaSnapshot, OshakaOverlay)


def snapshot_of(view: TableView) -> OshakaSnapshot:
    """The view's game as the engine's typed snapshot."""
    return game_of(view.game).snapshot


def _plays(snap: OshakaSnapshot) -> list[tuple[int, str]]:
    return [(t.seat, t.card) for t in snap.trick]


def _last(snap: OshakaSnapshot) -> list[tuple[int, str]]:
    return [(t.seat, t.card) for t in snap.last_trick]


def placement_notes(snap: OshakaSnapshot) -> dict[str, tuple[Words, theme.Colour]]:
    """Where each card of the last trick went so far (``to place`` for those still due)."""
    notes: dict[str, tuple[Words, theme.Colour]] = {
        card: (TO_PLACE, theme.TURN) for _, card in _last(snap)
    }
    notes.update({placed.card: PLACED_WORDS[placed.placed] for placed in snap.last_placement})
    return notes


class OshakaScene:
    """Draws an Oshaka Trick snapshot; see the module docstring."""

    def seat_key(self, game: AnyGameView, player: int) -> object:
        """What ``draw_seat`` shows of ``player``: their own entry of the snapshot only."""
        return game_of(game).snapshot.seat(player)

    # --- whose turn --------------------------------------------------------------

    def turn_prompt(self, game: AnyGameView, player: int) -> Words | None:
        snap = game_of(game).snapshot
        if snap.phase is Phase.LEAD:
            return say("choose who leads round 2") if player in snap.lead_choosers else None
        nxt = snap.next
        if nxt is None or nxt.seat != player:
            return None
        if nxt.expects == Verb.PLACE:
            if not snap.to_place:
                return say("place the card: face up or face down")
            return say("place {card}: face up or face down", card=Card(snap.to_place[0]))
        if nxt.expects == Verb.PLAY:
            return say("play a card")
        return verb_prompt(nxt.expects)

    # --- a seat's area -------------------------------------------------------------

    def draw_seat(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        entry = snapshot_of(view).seat(player) or NO_SEAT
        card_w, card_h, stats = self._seat_layout(p, rect, entry)
        x = rect.left
        for colour in COLUMN_ORDER:
            cards = entry.columns.get(colour, ())
            slot = pygame.Rect(x, rect.top, card_w, rect.h)
            self._draw_column(p, slot, colour, cards, card_h)
            x += card_w + p.metrics.pad
        self._draw_stats(p, stats, entry, card_h)

    def repaint_seat(
        self,
        p: Painter,
        rect: pygame.Rect,
        view: TableView,
        player: int,
        before: object,
        after: object,
        fill: theme.Colour,
    ) -> list[pygame.Rect] | None:
        """Only the hand's count, when a play changed nothing else of the seat's area
        (``scenes.BodyRepainter``): the play that took a card from a hand and put it in
        the trick. Any other change (a column, a score) draws the body whole."""
        if not isinstance(before, SeatSnapshot) or not isinstance(after, SeatSnapshot):
            return None
        counted = replace(
            before, cards_left=after.cards_left, hand_registered=after.hand_registered
        )
        if counted != after:
            return None
        _, _, stats_rect = self._seat_layout(p, rect, after)
        stats = self._stats_layout(p, stats_rect, after)
        p.fill(fill, stats.count_line)
        self._draw_count(p, stats)
        return [stats.count_line]

    def _seat_layout(
        self, p: Painter, rect: pygame.Rect, entry: SeatSnapshot
    ) -> tuple[int, int, pygame.Rect]:
        """A seat's area in the body ``rect``: its colour columns' card width and height,
        and the rectangle of its figures on their right."""
        pad = p.metrics.pad
        # Colour columns on the left, numbers on the right.
        slot_w = min(rect.w * 0.48 / 4, rect.h * 0.5)
        card_w = max(12, round(slot_w - pad))
        # The top cards as tall as the body allows, less the older cards' edges above them.
        deepest = max((len(entry.columns.get(c, ())) for c in COLUMN_ORDER), default=1)
        card_h = max(16, min(round(card_w * 1.4), rect.h - 2 * max(0, deepest - 1)))
        # A short body (the demo's hand below it): cards as wide as their number needs.
        card_w = max(card_w, p.legible_card_width(["R10"], card_h))
        x = rect.left + len(COLUMN_ORDER) * (card_w + pad)
        return card_w, card_h, pygame.Rect(x + pad, rect.top, rect.right - x - pad, rect.h)

    def _draw_column(
        self, p: Painter, slot: pygame.Rect, colour: str, cards: Sequence[str], card_h: int
    ) -> None:
        """A colour column: the top card whole, the older cards as edges peeking above it.

        Only the top card counts (a round scores it, and a smaller card on it is an
        Oshaka): its number is drawn large. The older ones show how deep the column
        is; numbers on their strips would be a few pixels tall in a panel.
        """
        if not cards:
            empty = pygame.Rect(slot.left, slot.top, slot.w, card_h)
            faint = theme.blend(
                theme.CARD_COLOURS[VOCABULARY.colour_faces[colour]], theme.PANEL, 0.6
            )
            p.box(empty, None, faint, max(1, slot.w // 16))
            return
        edge = max(2, min(round(card_h * 0.08), slot.h - card_h))
        if len(cards) > 1:
            edge = min(edge, (slot.h - card_h) // (len(cards) - 1))
        edge = max(1, edge)
        for index, card in enumerate(cards):
            top = index == len(cards) - 1
            rect = pygame.Rect(slot.left, slot.top + index * edge, slot.w, card_h)
            p.card(rect, card, emphasis=top, dim=not top)

    def _stats_layout(self, p: Painter, rect: pygame.Rect, entry: SeatSnapshot) -> _Stats:
        """Where the seat's figures go in ``rect``: the scores, then the hand's count."""
        m = p.metrics
        score = p.motion.figure(f"round score of {entry.seat}", entry.round_score)
        total = p.motion.figure(f"total of {entry.seat}", entry.total)
        wide = say("This round {score} · Total {total}", score=score, total=total)
        figures: tuple[tuple[Words, int], ...]
        left: Words
        if p.measure(p.words(wide), m.body, True) <= rect.w:
            figures = ((wide, m.body),)
            n = entry.cards_left
            if entry.hand_registered:
                # The table knows the hand (tapped in, or dealt by it): it checks each play.
                left = say_plural("{n} card left · hand known", "{n} cards left · hand known", n)
            else:
                left = say_plural("{n} card left", "{n} cards left", n)
        else:
            # A narrow panel: one number a line, in the small size.
            figures = (
                (say("This round {score}", score=score), m.small),
                (say("Total {total}", total=total), m.small),
            )
            left = say("{count} left", count=entry.cards_left)
        y = rect.top + sum(m.leading(size) for _, size in figures)
        count_line = pygame.Rect(rect.left, y, rect.w, m.leading(m.small) + m.pad // 2)
        return _Stats(figures, left, count_line)

    def _draw_count(self, p: Painter, stats: _Stats) -> None:
        """The hand's count, clipped to its line so that it can be repainted alone."""
        with p.clip(stats.count_line):
            p.text(
                stats.left,
                stats.count_line.topleft,
                p.metrics.small,
                theme.TEXT_DIM,
                max_width=stats.count_line.w,
            )

    def _draw_stats(self, p: Painter, rect: pygame.Rect, entry: SeatSnapshot, card_h: int) -> None:
        m = p.metrics
        stats = self._stats_layout(p, rect, entry)
        y = rect.top
        for text, size in stats.figures:
            p.text(text, (rect.left, y), size, theme.TEXT, bold=True, max_width=rect.w)
            y += m.leading(size)
        self._draw_count(p, stats)
        y = stats.count_line.bottom
        # Face-down cards and Oshaka penalties share one row of small cards.
        small_h = max(14, min(round(card_h * 0.8), rect.bottom - y))
        small_w = round(small_h * 0.7)
        x = rect.left
        face_down = entry.face_down
        if face_down:
            back = p.card_back(pygame.Rect(x, y, small_w, small_h), face_down, m.small)
            x = back.right + m.pad * 2
        oshaka = entry.oshaka
        if oshaka:
            label = p.text(
                say("Oshaka"),
                (x, y + small_h // 2),
                m.small,
                PENALTY_COLOUR,
                bold=True,
                anchor="midleft",
            )
            x = label.right + m.pad
            # Each penalty as its number on a chip of its colour, at the legible size (a
            # card small enough for the row showed a number a few pixels tall).
            chip_h = m.leading(m.small) + m.pad
            for card in oshaka:
                face = p.card_face(card)
                fill, ink = theme.card_paint(face)
                chip = pygame.Rect(x, 0, p.measure(face.text, m.small, True) + 2 * m.pad, chip_h)
                chip.centery = y + small_h // 2
                if chip.right > rect.right:
                    break
                p.box(chip, fill, PENALTY_COLOUR, max(1, m.pad // 3))
                p.text(face.text, chip.center, m.small, ink, bold=True, anchor="center")
                x = chip.right + m.pad // 2

    # --- the centre ------------------------------------------------------------------

    def draw_centre(
        self, p: Painter, rect: pygame.Rect, view: TableView, toward: Mapping[int, Toward]
    ) -> None:
        snap = snapshot_of(view)
        m = p.metrics
        phase = snap.phase
        numbers = {
            "round": snap.round,
            "rounds": snap.rounds,
            "trick": snap.trick_number,
            "tricks": snap.tricks_per_round,
        }
        led = snap.lead_colour if phase in (Phase.PLAY, Phase.PLACE) else None
        if led is not None and led in COLOUR_WORDS:
            detail = say(
                "Round {round}/{rounds} · Trick {trick}/{tricks} · {colour} led",
                colour=COLOUR_WORDS[led],
                **numbers,
            )
        else:
            detail = say("Round {round}/{rounds} · Trick {trick}/{tricks}", **numbers)
        trick_area, info = split_centre(rect, m.pad)

        plays = _plays(snap)
        to_place = snap.to_place
        highlight: dict[str, theme.Colour] = {}
        dimmed: frozenset[str] = frozenset()
        if phase is Phase.PLACE and to_place:
            highlight[to_place[0]] = theme.TURN
            dimmed = frozenset(card for _, card in plays if card not in to_place)
        p.box(trick_area, TRICK_AREA, None)
        last, last_winner = _last(snap), snap.last_trick_winner
        held = p.motion.held(last, last_winner) if phase is Phase.LEAD else None
        if held is not None:
            # Round 1's last trick stays (at least ``motion.HOLD_SECONDS``) before the
            # round's summary takes its place.
            draw_trick_picture(p, trick_area, view, held, toward)
        elif phase is Phase.LEAD:
            # Between the rounds the trick area shows how round 1 scored, seat by seat,
            # while the lowest scorer chooses who leads round 2.
            self._round_summary(p, trick_area, view, snap)
        elif phase is Phase.PLACE:
            # Each card travels in from its seat as it is played (``Motion.trick``); the
            # trick stays through the placing, the card to place lit, those placed dimmed.
            picture = p.motion.trick(plays, (), None)
            draw_trick_picture(
                p, trick_area, view, picture, toward, highlight=highlight, dimmed=dimmed
            )
        else:
            # Once placed, the trick stays with its winner named, until the next card
            # is played and for at least the hold; then it slides to its winner. At the
            # game's end it stays. (Where its cards went is on each seat's look back.)
            shown = plays if phase is Phase.PLAY else []
            picture = p.motion.trick(shown, last, last_winner)
            draw_trick_picture(p, trick_area, view, picture, toward)
        if phase in (Phase.PLAY, Phase.PLACE) and snap.next is not None:
            # The glow at the trick area's edge goes to the seat to play or place.
            draw_turn_glow(p, trick_area, toward, snap.next.seat)

        # The generic blocks take ready words: this painter's presenter writes them.
        y = info.top + draw_title_block(p, info, p.words(TITLE), p.words(detail))
        status, colour = self._status(view, snap)
        # Up to three lines: the messages under it give way ("… choose who leads round 2
        # (showing …)" is what the table waits for, not to be cut with "…").
        where = pygame.Rect(info.left, y, info.w, info.h)
        y += draw_status(p, where, p.words(status), colour, lines=3)

        current = [(snap.seat(s) or NO_SEAT).round_score for s in range(len(snap.totals))]
        columns: list[tuple[Words, Sequence[int | None]]] = []
        for index, scores in enumerate(snap.round_scores):
            columns.append((say("R{round}", round=index + 1), scores))
        if phase in (Phase.PLAY, Phase.PLACE):
            columns.append((say("now"), current))
        columns.append((say("total"), p.motion.count("totals", snap.totals)))
        table_h = draw_foot_score_table(
            p,
            info,
            y,
            view,
            columns,
            turn=None if snap.next is None else snap.next.seat,
            winners=list(snap.winners),
        )
        messages = pygame.Rect(info.left, y + m.pad, info.w, info.bottom - table_h - y - 2 * m.pad)
        draw_messages(p, messages, view)

    def draw_recall(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        """The last trick on a seat's panel (a long NEXT): its cards in the order played,
        the winning card lit, who won it, and under each card where it was placed."""
        snap = snapshot_of(view)
        draw_last_trick(p, rect, view, _last(snap), snap.last_trick_winner, placement_notes(snap))

    def _round_summary(
        self, p: Painter, rect: pygame.Rect, view: TableView, snap: OshakaSnapshot
    ) -> None:
        """Round 1's score per seat and what made it: columns, face-down and Oshaka cards."""
        m = p.metrics
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        y = p.centred_text(
            say("Round {round} scored", round=snap.round),
            inner,
            inner.top,
            m.body,
            theme.TEXT,
            bold=True,
        ).bottom
        seats = [snap.seat(s) or NO_SEAT for s in range(len(snap.totals))]
        last = snap.round_scores[-1] if snap.round_scores else tuple(a.round_score for a in seats)
        rows: list[tuple[Words, Sequence[int | None]]] = [
            (say("Columns"), [len(a.columns) for a in seats]),
            (say("Face down"), [-a.face_down for a in seats]),
            (say("Oshaka"), [len(a.oshaka) for a in seats]),
            (say("Round {round}", round=snap.round), list(last)),
        ]
        draw_score_table(
            p,
            pygame.Rect(inner.left, y + m.pad, inner.w, inner.bottom - y - m.pad),
            view,
            rows,
            turn=snap.lead_choosers[0] if snap.lead_choosers else None,  # lowest: chooses
        )

    def _status(self, view: TableView, snap: OshakaSnapshot) -> tuple[Words, theme.Colour]:
        """The one line that says what the table waits for."""

        def names(players: Sequence[int], either: bool = False) -> Items:
            return Items(tuple(as_arg(player_name(view, s)) for s in players), either=either)

        if snap.phase is Phase.OVER:
            if not snap.winners:
                return say("Game over: nobody won"), theme.WINNER
            return say("Game over: {players} won", players=names(snap.winners)), theme.WINNER
        if snap.phase is Phase.LEAD:
            choosers = names(snap.lead_choosers, either=True)
            showing = game_of(view.game).overlay.lead_cursor
            if showing is not None:
                return say(
                    "{choosers}: choose who leads round 2 (showing {player})",
                    choosers=choosers,
                    player=as_arg(player_name(view, showing)),
                ), theme.TURN
            return say("{choosers}: choose who leads round 2", choosers=choosers), theme.TURN
        winner, to_place = snap.trick_winner, snap.to_place
        if snap.phase is Phase.PLACE and winner is not None and to_place:
            who, card = as_arg(player_name(view, winner)), Card(to_place[0])
            if len(to_place) > 1:
                return say(
                    "{player} places {card} (then {rest})",
                    player=who,
                    card=card,
                    rest=Items(tuple(Card(c) for c in to_place[1:])),
                ), theme.TURN
            return say("{player} places {card}", player=who, card=card), theme.TURN
        if snap.next is not None:
            who = as_arg(player_name(view, snap.next.seat))
            if not snap.trick:
                return say("{player} leads: play a card", player=who), theme.TURN
            return say("{player}: play a card", player=who), theme.TURN
        return "", theme.TEXT


SCENE = OshakaScene()
