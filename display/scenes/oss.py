"""The Oss scene: the three solo tricks and the duel trick, placements, attempts, the toss timer.

It draws what the snapshot says, read by attribute from an ``OssSnapshot``
(``controller/games/oss/snapshot.py``): tricks with their cards' set-up and do
texts, placements, attempts, seats, scores and, from the table's overlay on it
(``TableSide``, from ``OssAdapter.presentation``), the toss timer (running clock, attempt log,
bests), the chosen trick, the counts and the help. Without the table's side
the timer box is left out and the times still appear in the messages.

The help line shows the first of the table side's ``help`` texts: the rulings
that matter in the current phase, chosen by the adapter (the display knows
no rules).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pygame

from controller.games.oss.actions import AttemptKind, Phase, Verb
from controller.games.oss.snapshot import (
    AttemptView,
    Ending,
    OssSnapshot,
    PlacementMode,
    ResultView,
    SeatState,
    TableSide,
    TrickView,
)
from controller.games.oss.spec import VOCABULARY
from controller.games.words import (
    Items,
    Seconds,
    Text,
    Verbatim,
    Words,
    as_arg,
    say,
    say_plural,
)
from controller.view import AnyGameView, GameView, MessageKind, TableView
from display import legibility, theme
from display.fitting import ELLIPSIS, Fitted
from display.generic import (
    TRICK_AREA,
    Toward,
    draw_messages,
    draw_page_mark,
    draw_score_table,
    draw_status,
    headings_stacked,
    newest_message_height,
    player_name,
    text_page,
    wrapped_if_cut,
)
from display.legibility import Role
from display.screen_parts import line_or_rows, line_or_rows_height, pieces_in_rows
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
# The most lines a ruling takes at the foot of the column, where the column has the room.
HELP_LINES = 8
# The fewest lines a page of a ruling too long for its room is worth showing.
HELP_PAGE_LINES = 2


def seconds(millis: int) -> Seconds:
    """A toss time of the attempt log (milliseconds) as a duration the presenter writes."""
    return Seconds(millis / 1000)


# What a seat is asked to do, by expected verb: the game's vocabulary, not restated here.
PROMPTS: Mapping[str, Words] = VOCABULARY.verb_prompts


def ruling(text: Words) -> Words:
    """A ruling the snapshot names by its English words, as its message (else as it is)."""
    return VOCABULARY.rulings.get(text, text) if isinstance(text, str) else text


def _head_height(p: Painter, name_lines: int) -> int:
    """How tall a trick's head is: its name on ``name_lines`` lines and its caption."""
    m = p.metrics
    caption = p.fonts.get(m.small, False).get_height()
    return name_lines * m.leading(m.body) + caption + 2 * m.pad


def _name_lines(p: Painter, name: str, width: int) -> Fitted:
    """A trick's name fitted to its column: whole, on a second line if it must be (a
    compound breaks after its hyphen: "Takh-" / "Takh"), never smaller than legible."""
    return p.fit(name, width, 1 << 16, p.metrics.body, bold=True, max_lines=2)


def _column_width(width: int, columns: int, pad: int) -> int:
    """How wide each of ``columns`` trick columns side by side in ``width`` is."""
    return (width - pad * (columns - 1)) // columns


@dataclass(frozen=True)
class PageCount:
    """Which page of the tricks shows ("1/2"), its text size, and the strip it takes."""

    words: Words
    size: int
    w: int


def game_of(game: AnyGameView | None) -> GameView[OssSnapshot, TableSide]:
    """The view's game with Oss's own types (the scene only draws a game in play)."""
    if game is None:
        raise ValueError("the Oss scene was asked to draw no game")
    return game.narrowed(OssSnapshot, TableSide)


def has_table_side(view: TableView) -> bool:
    """Whether the table handed its side over the snapshot (else the timer box is left out)."""
    return view.game is not None and isinstance(view.game.overlay, TableSide)


#: The clock the running toss timer is shown against: the table's clock
#: (``time.monotonic``), since the timer's start is the table's reading; tests put a
#: fixed one here to compare pictures. (The tricks' pages turn on the display's clock.)
clock = time.monotonic
#: How often the running toss timer's figures move on screen: ten a second is
#: smooth enough to read as running and cheap for a Pi core.
TIMER_FRAME = 0.1
#: How long a page of tricks shows when they do not fit one row whole: as long as a
#: page of the results screen (``controller/table/pages.py``).
TRICK_PAGE_SECONDS = 6.0
#: The tricks' pages as the display's motion knows them (``Motion.page``).
TRICK_PAGES = "trick pages"
#: How long a page of a trick's instructions shows where the box does not hold them
#: all: a few lines of rules take longer to read than a row of names.
CARD_PAGE_SECONDS = 10.0
# A look back shows for ``pages.RECALL_SECONDS`` (8 s): a last attempt too long for its
# panel turns its pages within that, two of them at least.
RECALL_PAGE_SECONDS = 4.0
#: The fewest lines a page of a trick's instructions is worth showing: fewer would turn
#: a paragraph into a flicker of pages (the trick card on the table says it whole).
CARD_PAGE_LINES = 3

NO_ATTEMPT_YET = say("No attempt reported yet")
#: How a trick card's Jack is thrown, in words.
_THROWS: dict[str, Text] = {
    "classic": say("classic Jack"),
    "unusual": say("unusual Jack"),
    "none": say("no Jack"),
}
#: How a duel trick is played, in words.
_STYLES: dict[str, Text] = {
    "simultaneously": say("simultaneously"),
    "consecutively": say("consecutively"),
}


# How a result reads: good news in the "won" colour, bad in the penalty's, a tie plain.
ENDING_COLOURS: Mapping[Ending, Colour] = {
    Ending.SUCCEEDED: WON_COLOUR,
    Ending.DUEL_WON: WON_COLOUR,
    Ending.CHALLENGE_WON: WON_COLOUR,
    Ending.FAILED: PENALTY_COLOUR,
    Ending.OUT: PENALTY_COLOUR,
    Ending.TIED: theme.TEXT,
}


def result_words(view: TableView, result: ResultView) -> Text:
    """A reported result in one sentence, with the tosses the timer measured in it."""
    names = [as_arg(player_name(view, seat)) for seat in result.seats] or [Verbatim("?")]
    trick = Verbatim(result.trick)
    ending = result.ending
    text: Text
    if ending is Ending.SUCCEEDED:
        text = say("{player} succeeded at {trick}", player=names[0], trick=trick)
    elif ending is Ending.FAILED:
        text = say("{player} failed at {trick}", player=names[0], trick=trick)
    elif ending is Ending.DUEL_WON and len(names) > 1:
        text = say(
            "{winner} won the duel {trick} against {loser}",
            winner=names[0],
            trick=trick,
            loser=names[1],
        )
    elif ending is Ending.TIED and len(names) > 1:
        text = say(
            "Duel {trick}: {first} and {second} tied", trick=trick, first=names[0], second=names[1]
        )
    elif ending is Ending.OUT:
        text = say("{player} is out of the challenge {card}", player=names[0], card=trick)
    else:
        text = say("{player} won the challenge {card}", player=names[0], card=trick)
    if result.times:
        timed = Items(tuple(seconds(millis) for millis in result.times))
        return say("{result} · {times}", result=text, times=timed)
    return text


class OssScene:
    """Draws an Oss snapshot; see the module docstring."""

    # --- whose turn --------------------------------------------------------------------

    def turn_prompt(self, game: AnyGameView, player: int) -> Words | None:
        shown = game_of(game)
        snap, side = shown.snapshot, shown.overlay
        if snap.phase is Phase.RESULT:
            attempt = snap.current_attempt
            if attempt is None or player not in attempt.seats:
                return None
            if attempt.kind is AttemptKind.SOLO:
                jacks = attempt.values[0] if attempt.values else 0
                return say_plural(
                    "{trick} with {n} jack",
                    "{trick} with {n} jacks",
                    jacks,
                    trick=Verbatim(attempt.trick),
                )
            return say("duel {trick}", trick=Verbatim(attempt.trick))
        if snap.phase is Phase.CHALLENGE_RESULT:
            remaining = snap.challenge.remaining if snap.challenge else ()
            return say("challenge: NEXT if out") if player in remaining else None
        if snap.next is None or snap.next.seat != player:
            return None
        expects = snap.next.expects
        if expects == Verb.TRIBE:
            chosen = side.chosen_trick
            if chosen:
                return say("tap a card for {trick}", trick=Verbatim(chosen))
            return say("choose a trick, tap a card")
        # Replay or pass, keep a duel card: the game's words; chance has none (the deck deals).
        return PROMPTS.get(expects)

    def seat_key(self, game: AnyGameView, player: int) -> object:
        """What ``draw_seat`` shows of ``player``: their entry and their best toss time."""
        shown = game_of(game)
        seats = shown.snapshot.seats
        entry = seats[player] if 0 <= player < len(seats) else None
        return entry, shown.overlay.timer.bests.get(player)

    def animation_step(self, game: AnyGameView) -> float | None:
        """Seconds until the centre moves: the running timer's next frame, else None.

        The tricks' pages (when a name would not fit its column whole) turn on the
        display's clock and ask for their frames themselves (``Motion.page``): a
        table whose tricks fit asks for none."""
        return TIMER_FRAME if game_of(game).overlay.timer.running else None

    # --- a seat's area ---------------------------------------------------------------------

    def draw_seat(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        snap = game_of(view.game).snapshot
        entry = (
            snap.seats[player]
            if player < len(snap.seats)
            else SeatState(player, False, 0, 0, (), (), 0, 0)
        )
        m = p.metrics
        size = m.small
        line = m.leading(size)
        y = rect.top
        score = p.motion.figure(f"score of {player}", entry.score)
        # "Score 4" and "CHIEF" on two lines where the one does not fit (6 seats).
        head = say("Score {score} · CHIEF", score=score) if entry.chief else None
        pieces = [say("Score {score}", score=score), *([say("CHIEF")] if entry.chief else [])]
        line_or_rows(p, rect, head or pieces[0], pieces, m.body, theme.TEXT, bold=True)
        y += line_or_rows_height(p, rect.w, head or pieces[0], pieces, m.body, bold=True)
        parts = say(
            "tribe {tribe}   hand {hand}   deck {deck}   replays left {replays}",
            tribe=entry.tribe,
            hand=entry.hand_size,
            deck=entry.deck_size,
            replays=entry.replays_left,
        )
        for text in p.wrap(parts, size, rect.w):
            if y + line > rect.bottom:
                return
            p.text(text, (rect.left, y), size, theme.TEXT_DIM, max_width=rect.w)
            y += line
        won = " ".join(str(v) for v in entry.won) or "-"
        extra: list[Text] = [say("won {values}", values=Verbatim(won))]
        if entry.challenges:
            names = Items(tuple(Verbatim(c) for c in entry.challenges))
            challenges = say("challenges {names}", names=names)
            if any(p.measure(word, size) > rect.w for word in p.words(challenges).split()):
                # TRANSLATORS: "challenges …" where a panel is narrower than the word.
                challenges = say("chall. {names}", names=names)
            extra.append(challenges)
        best = game_of(view.game).overlay.timer.bests.get(player)
        if best is not None:
            extra.append(say("best {time}", time=seconds(best)))
        # Separate facts side by side, each a whole phrase of its own, in rows where
        # one line would cut them (a 6-seat table's panel); a phrase wider than the
        # panel (the challenges a seat won) on lines of its own.
        lines = [line for text in extra for line in self._wrapped_piece(p, text, size, rect.w)]
        below = pygame.Rect(rect.left, y, rect.w, rect.bottom - y)
        pieces_in_rows(p, below, [(text, theme.TEXT) for text in lines], size, bold=False)

    @staticmethod
    def _wrapped_piece(p: Painter, text: Words, size: int, width: int) -> list[Words]:
        """``text`` as one piece where it fits ``width``, else its wrapped lines."""
        if p.measure(p.words(text), size) <= width:
            return [text]
        return list(p.wrap(text, size, width))

    # --- the centre ----------------------------------------------------------------------------

    def draw_centre(
        self, p: Painter, rect: pygame.Rect, view: TableView, toward: Mapping[int, Toward]
    ) -> None:
        snap = game_of(view.game).snapshot
        m = p.metrics
        pad = m.pad
        # Tricks on the left (or on top when the centre is tall), information beside.
        if rect.w >= rect.h * 1.25:
            tricks_w = round(rect.w * 0.56)
            area = pygame.Rect(rect.left, rect.top, tricks_w, rect.h)
            info = pygame.Rect(area.right + pad, rect.top, rect.w - tricks_w - pad, rect.h)
        else:
            tricks_h = round(rect.h * 0.5)
            if m.narrow(rect.w):
                tricks_h = self._narrow_tricks_height(p, snap, tricks_h)
            area = pygame.Rect(rect.left, rect.top, rect.w, tricks_h)
            info = pygame.Rect(rect.left, area.bottom + pad, rect.w, rect.h - tricks_h - pad)
        p.box(area, TRICK_AREA, None)
        self._draw_tricks(p, area.inflate(-2 * pad, -2 * pad), view, snap)
        self._draw_info(p, info, view, snap)

    @staticmethod
    def _narrow_tricks_height(p: Painter, snap: OssSnapshot, half: int) -> int:
        """How tall the tricks are in a narrow centre (a screen turned a quarter at six
        seats): ``half`` the centre where a readable page of the focused trick's
        instructions fits under the cards, else what the cards and their placements
        need, at most ``half``: the instructions would be left out (the trick cards on
        the table say them), and the status, the timer and the messages get the room."""
        m = p.metrics
        pad = m.pad
        small = m.leading(m.small)
        chip = small + 2 + max(1, pad // 2)
        # The most placements under a trick, or the duel's "A vs B" on up to two lines.
        dueling = snap.current_attempt is not None and snap.current_attempt.kind is AttemptKind.DUEL
        most = max(2 if dueling else 0, *(len(t.placements) for t in snap.tricks), 0)
        cards = 2 * pad + _head_height(p, 2) + pad + most * chip + pad
        # The instructions' box: its padding, a title of two lines and the fewest lines
        # of a page.
        text = 2 * pad + 2 * small + pad // 2 + CARD_PAGE_LINES * small
        if half - cards - pad >= text:
            return half
        return min(half, cards)

    def _focus(self, snap: OssSnapshot, side: TableSide) -> str | None:
        """The trick whose instructions are shown: the one being attempted or chosen."""
        attempt = snap.current_attempt
        if attempt is not None:
            return attempt.trick
        return side.chosen_trick

    def _draw_tricks(
        self, p: Painter, area: pygame.Rect, view: TableView, snap: OssSnapshot
    ) -> None:
        m = p.metrics
        pad = m.pad
        tricks = list(snap.tricks)
        if not tricks:
            p.text(
                say("The chief reveals the tricks…"),
                area.center,
                m.body,
                theme.TEXT_DIM,
                anchor="center",
                max_width=area.w,
            )
            return
        focus = self._focus(snap, game_of(view.game).overlay)
        columns = [*tricks, snap.duel] if snap.duel else tricks
        # The cards take what their placements need; the instructions get the rest.
        most = max(1, *(len(t.placements) for t in tricks))
        chip = m.leading(m.small) + 2 + max(1, pad // 2)
        placed = any(t.placements for t in tricks)

        def arranged(rows: int) -> tuple[int, int, list[Fitted], int, int]:
            per_row = -(-len(columns) // rows)
            col_w = _column_width(area.w, per_row, pad)
            names = [_name_lines(p, t.name, col_w - 2 * pad) for t in columns]
            head = _head_height(p, max(len(n.lines) for n in names))
            # The heads whole and, in one row, a row of placements, at least.
            least = head + (pad + chip + pad if placed and rows == 1 else 0)
            return per_row, col_w, names, head, least

        # One row of tricks, or two when a name would not fit its column whole and the
        # centre is tall enough for both rows with every placement (the placements are
        # the game's state), else pages of fewer, wider columns (``_trick_pages``).
        rows = 1
        per_row, col_w, names, head, least = arranged(1)
        if any(n.cut for n in names):
            two = arranged(2)
            fits = 2 * (two[3] + pad + most * chip + pad) + pad <= area.h
            if fits and not any(n.cut for n in two[2]):
                rows = 2
                per_row, col_w, names, head, least = two
        if any(n.cut for n in names):
            chosen = game_of(view.game).overlay.chosen_trick
            columns, count = self._trick_pages(p, area, columns, chosen)
            marker = pygame.Rect(area.right - count.w, area.top, count.w, area.h)
            with p.secondary():
                p.text(count.words, marker.midtop, count.size, theme.TEXT_DIM, anchor="midtop")
            area = pygame.Rect(area.left, area.top, area.w - count.w - pad, area.h)
            per_row, col_w, names, head, least = arranged(1)
        else:
            p.motion.page(TRICK_PAGES, 1, TRICK_PAGE_SECONDS)  # one page: none to turn
        # The placements take what they need (the cards on the table are the game's
        # state; the instructions are printed on the trick cards too): the instructions
        # get the rest, and chips beyond the room are counted on a last chip.
        wanted = head + pad + most * chip + pad
        share = (area.h - (rows - 1) * pad) // rows
        row_h = max(min(share, wanted), least)
        cards_h = rows * row_h + (rows - 1) * pad
        text_h = area.h - cards_h - pad
        attempt = snap.current_attempt
        for index, trick in enumerate(columns):
            row, column = divmod(index, per_row)
            left = area.left + column * (col_w + pad)
            box = pygame.Rect(left, area.top + row * (row_h + pad), col_w, row_h)
            self._draw_trick_column(p, box, view, trick, focus, attempt, (head, names[index]))
        text_box = pygame.Rect(area.left, area.bottom - text_h, area.w, text_h)
        challenge = snap.challenge
        if challenge is not None:
            self._draw_card_text(
                p,
                text_box,
                say("Challenge: {card}", card=Verbatim(challenge.name)),
                (challenge.setup, challenge.do, challenge.note),
            )
            return
        shown = next((t for t in columns if t.name == focus), None)
        if shown is None:
            shown = snap.duel or tricks[0]
        card = shown.card
        name = Verbatim(card.name)
        if shown.kind is not AttemptKind.DUEL:
            title = say("Trick: {trick}", trick=name)
        elif card.style in _STYLES:
            title = say("Duel trick: {trick} ({style})", trick=name, style=_STYLES[card.style])
        else:
            title = say("Duel trick: {trick}", trick=name)
        self._draw_card_text(p, text_box, title, (card.setup, card.do, card.note))

    def _trick_pages(
        self, p: Painter, area: pygame.Rect, columns: list[TrickView], chosen: str | None
    ) -> tuple[list[TrickView], PageCount]:
        """The tricks of the page shown, when one row of them cuts a name, and its count.

        Pages of as many tricks as fit with every name whole ("Maradono", "Kiri
        KanOss": four seats or more): the page of the trick a seat is choosing with
        PREV/NEXT (the list follows its cursor), else they turn every
        ``TRICK_PAGE_SECONDS`` on the display's clock (``Motion.page``), so that every
        trick's placements come round while one is attempted (its name is in the status
        and its text).
        """
        m = p.metrics
        pad = m.pad
        count_size = legibility.least_size(m.unit, Role.SECONDARY)
        total = len(columns)
        widest = f"{total}/{total}"
        marker_w = p.measure(widest, count_size, True) + pad
        room = area.w - marker_w - pad
        per_page = 1
        for per in range(total - 1, 0, -1):
            width = _column_width(room, per, pad) - 2 * pad
            if not any(_name_lines(p, t.name, width).cut for t in columns):
                per_page = per
                break
        pages = -(-total // per_page)
        per_page = -(-total // pages)  # the pages evened out: 2 and 2 rather than 3 and 1
        names = [t.name for t in columns]
        held = names.index(chosen) // per_page if chosen in names else None
        page = p.motion.page(TRICK_PAGES, pages, TRICK_PAGE_SECONDS, held)
        shown = columns[page * per_page : (page + 1) * per_page]
        count = PageCount(say("{page}/{pages}", page=page + 1, pages=pages), count_size, marker_w)
        return shown, count

    def _draw_trick_column(
        self,
        p: Painter,
        box: pygame.Rect,
        view: TableView,
        trick: TrickView,
        focus: str | None,
        attempt: AttemptView | None,
        heading: tuple[int, Fitted],
    ) -> None:
        """One trick: its head (``heading``: its height and the name fitted) and the
        tribe cards placed under it."""
        m = p.metrics
        pad = m.pad
        is_duel = trick.kind is AttemptKind.DUEL
        name = trick.name
        focused = name == focus
        head_h, fitted = heading
        head = pygame.Rect(box.left, box.top, box.w, min(box.h, head_h))
        fill = DUEL_COLOUR if is_duel else SOLO_COLOUR
        ink = (255, 255, 255) if is_duel else theme.TEXT_DARK
        p.box(head, fill, theme.TURN if focused else None, max(2, pad // 2) if focused else 1)
        # The trick's name whole at the legible size, on two lines in a narrow column.
        name_box = pygame.Rect(
            head.left + pad, head.top + pad, head.w - 2 * pad, len(fitted.lines) * m.leading(m.body)
        )
        p.fit_text(name, name_box, m.body, ink, bold=True, valign="top", fitted=fitted)
        throw = _THROWS.get(trick.card.throw, say("Jack"))
        kind = (
            say("duel · {throw}", throw=throw)
            if is_duel
            else say("family {family} · {throw}", family=trick.card.family, throw=throw)
        )
        caption = m.small
        # A narrow card (800x480) says what sorts it, not "family 1 · ..." cut short (the
        # throw is in the focused trick's text below), in a short form if need be; a card
        # too narrow for even that leaves it out: the tricks stand in family order.
        shorter = (
            [say("duel")]
            if is_duel
            else [
                say("family {family}", family=trick.card.family),
                # TRANSLATORS: "family 1" cut short for a narrow trick card (5 letters or so).
                say("fam. {family}", family=trick.card.family),
            ]
        )
        for candidate in [kind, *shorter]:
            if p.measure(p.words(candidate), caption) <= head.w - 2 * pad:
                p.text(
                    candidate,
                    (head.centerx, head.bottom - pad // 2),
                    caption,
                    ink,
                    anchor="midbottom",
                )
                break
        # Placements below a solo trick, in playing order: the first two duel.
        y = head.bottom + pad
        chip_h = m.leading(m.small) + 2
        gap = max(1, pad // 2)
        placements = list(trick.placements)
        fit = max(0, (box.bottom - y + gap) // (chip_h + gap))
        hidden = 0
        if len(placements) > fit and not is_duel:
            # Chips keep a legible size: the latest cards show, and a last chip counts
            # the earlier ones left out ("+3").
            hidden = len(placements) - (fit - 1)
            placements = placements[hidden:]
        if is_duel:
            if attempt is not None and attempt.kind is AttemptKind.DUEL:
                first, second = (as_arg(player_name(view, s)) for s in attempt.seats[:2])
                text = say("{first} vs {second}", first=first, second=second)
                lines = max(1, min(3, (box.bottom - y) // m.leading(m.small)))
                wrapped_if_cut(p, text, box, y, m.small, theme.TEXT, max_lines=lines)
            return
        if hidden and fit:
            chip = pygame.Rect(box.left, y, box.w, chip_h)
            p.box(chip, theme.PANEL, theme.PANEL_EDGE, 1)
            p.text(f"+{hidden}", chip.center, m.small, theme.TEXT_DIM, anchor="center")
            y = chip.bottom + gap
        for placement in placements:
            seat = placement.seat
            dueling = placement.mode is PlacementMode.DUEL
            chip = pygame.Rect(box.left, y, box.w, chip_h)
            if chip.bottom > box.bottom:
                break
            colour = TRIBE_COLOURS[seat % len(TRIBE_COLOURS)]
            edge = DUEL_COLOUR if dueling else None
            current = attempt is not None and seat in attempt.seats
            if current and attempt is not None and (dueling or attempt.trick == name):
                edge = theme.TURN
            p.box(chip, theme.blend(colour, theme.PANEL, 0.35), edge, max(1, pad // 2))
            small = m.small
            label = self._chip_label(p, placement.value, p.words(player_name(view, seat)), chip)
            drawn = p.text(
                label,
                (chip.left + pad, chip.centery),
                small,
                theme.TEXT,
                bold=True,
                anchor="midleft",
                max_width=chip.w - 2 * pad,
            )
            # "duel" at the chip's right end, a space clear of the label, only where it fits
            # whole (the red edge marks the duel anyway); in the label's ink, since a
            # tribe's colour may be the accent's (Seat 4's yellow).
            if dueling:
                duel = p.words(say("duel"))
                room = chip.right - pad - drawn.right - p.measure(" ", small)
                if p.measure(duel, small) <= room:
                    right = (chip.right - pad, chip.centery)
                    p.text(duel, right, small, theme.TEXT, anchor="midright")
            y = chip.bottom + gap

    @staticmethod
    def _chip_label(p: Painter, value: int, name: str, chip: pygame.Rect) -> Words:
        """A placement chip's label: the card's value and who placed it, the name cut
        between its letters where the chip is narrow ("4  Wilhel…"), the value alone
        where not even a few letters fit (the chip's colour is the seat's tribe's)."""
        room = chip.w - 2 * p.metrics.pad

        def with_name(shown: str) -> Words:
            return say("{value}  {player}", value=value, player=Verbatim(shown))

        for keep in range(len(name), 2, -1):
            shown = name if keep == len(name) else name[:keep] + ELLIPSIS
            if p.measure(p.words(with_name(shown)), p.metrics.small, True) <= room:
                return with_name(shown)
        return str(value)

    def _draw_card_text(
        self, p: Painter, rect: pygame.Rect, title: Words, texts: tuple[Words, Words, Words]
    ) -> None:
        """A card's instructions: what to do, its note (how it is won), and its set-up.

        Every line whole: where the box does not hold them all, they are paged ("1/2"
        beside the title), turning every ``CARD_PAGE_SECONDS``; a box too small for the
        title and a few lines (a 6-seat table's centre turned a quarter) leaves the text
        out: the same words are printed on the trick card lying on the table."""
        m = p.metrics
        pad = m.pad
        inner = rect.inflate(-2 * pad, -2 * pad)
        size = m.small
        line = m.leading(size)
        setup, do, note = texts
        # What to do first, then how it is won, then the set-up: "Do" is what a player
        # needs most, so it is on the first page.
        lines: list[Words] = []
        if do:
            lines.append(say("Do: {text}", text=as_arg(do)))
        if note:
            lines.append(note)
        if setup:
            lines.append(say("Set up: {text}", text=as_arg(setup)))
        pieces = [piece for full in lines for piece in p.wrap(full, size, inner.w)]
        count_size = legibility.least_size(m.unit, Role.SECONDARY)
        marker, marker_w = "", 0
        heading = p.wrap(title, size, inner.w, bold=True)
        room = (inner.h - len(heading) * line - pad // 2) // line
        if len(pieces) > room:
            # Pages: the title's lines leave room for the count beside them.
            most = -(-len(pieces) // max(1, room))
            marker_w = p.measure(f"{most}/{most}", count_size, True) + pad
            heading = p.wrap(title, size, inner.w - marker_w, bold=True)
            room = (inner.h - len(heading) * line - pad // 2) // line
            if room < CARD_PAGE_LINES:
                return  # no room to read it by pages: the trick card on the table says it
            pages = -(-len(pieces) // room)
            page = p.motion.page(f"oss card text {p.words(title)}", pages, CARD_PAGE_SECONDS)
            marker = f"{page + 1}/{pages}"
            pieces = pieces[page * room : (page + 1) * room]
        if room < 1 or any(p.measure(h, size, True) > inner.w - marker_w for h in heading):
            return  # a word of the title wider than the box: the text goes with it
        p.box(rect, theme.blend(theme.PANEL, TRICK_AREA, 0.3), theme.PANEL_EDGE)
        y = inner.top
        if marker:
            with p.secondary():
                p.text(marker, (inner.right, y), count_size, theme.TEXT_DIM, anchor="topright")
        for piece in heading:
            p.text(piece, (inner.left, y), size, theme.ACCENT, bold=True)
            y += line
        y += pad // 2
        for piece in pieces:
            p.text(piece, (inner.left, y), size, theme.TEXT, max_width=inner.w)
            y += line

    def _draw_info(self, p: Painter, info: pygame.Rect, view: TableView, snap: OssSnapshot) -> None:
        m = p.metrics
        pad = m.pad
        y = info.top
        detail = say(
            "Round {round}/{rounds} · chief {player}",
            round=snap.round,
            rounds=snap.rounds,
            player=as_arg(player_name(view, snap.chief)),
        )
        title = p.text(say("Oss"), (info.left, y), m.big, theme.TEXT, bold=True, max_width=info.w)
        room = info.right - title.right - 2 * pad
        if p.measure(p.words(detail), m.small) > room:
            # A narrow centre keeps the round whole; the chief is named on its own panel.
            detail = say("Round {round}/{rounds}", round=snap.round, rounds=snap.rounds)
        p.text(
            detail,
            (title.right + 2 * pad, title.centery),
            m.small,
            theme.TEXT_DIM,
            anchor="midleft",
            max_width=max(10, info.right - title.right - 2 * pad),
        )
        y = title.bottom + pad // 2
        status, colour = self._status(view, snap)
        # Three lines where two would cut it (a 6-seat table's narrow centre: "Duel Manu!:
        # Seat 1 against Seat 2: …"); the messages under it give way. Where three do not
        # hold it, the brief form: what each seat's own buttons and prompt say is left out.
        lines = 3
        if p.fit(status, info.w, lines * m.leading(m.body), m.body, bold=True, max_lines=3).cut:
            status, colour = self._status(view, snap, brief=True)
        where = pygame.Rect(info.left, y, info.w, info.h)
        y += draw_status(p, where, p.words(status), colour, lines=lines)
        y = self._draw_results(p, pygame.Rect(info.left, y, info.w, info.bottom - y), view, snap)
        side = game_of(view.game).overlay
        if has_table_side(view):
            # The timer leaves the newest message its room where it can (a narrow centre:
            # the timer's brief form, the earlier tosses left out).
            wanted = newest_message_height(p, view, info.w) + pad
            keep = wanted if info.bottom - y - wanted >= m.leading(m.body) else 0
            timer = pygame.Rect(info.left, y, info.w, info.bottom - y - keep)
            y += self._draw_timer(p, timer, view, side)

        totals = [s.score for s in snap.seats]
        replays = [s.replays_left for s in snap.seats]
        rows: list[tuple[Words, Sequence[int | None]]] = [
            (say("replays left"), replays),
            (say("score"), totals),
        ]
        # What stays whole first: the newest message (what just happened), then the score
        # table (its replays row gives way first: each seat's panel says it too), then
        # the ruling, paged where it does not fit whole and left out where not even
        # ``HELP_PAGE_LINES`` of it would show (the rules pages say it); older messages
        # take what is left.
        small = m.leading(m.small)
        line = small + pad // 2
        room = info.bottom - y - pad
        newest = newest_message_height(p, view, info.w)
        # A row is a line, or two where the headings stand over their figures.
        per_row = 2 if headings_stacked(p, info.w, rows) else 1
        table_h = (2 * per_row + 1) * line if totals else 0
        if room - newest < table_h:
            table_h, rows = (per_row + 1) * line, rows[-1:]
            if room - newest < table_h:
                table_h = 0
        help_texts = side.help
        help_h = 0
        if help_texts:
            wanted = len(p.wrap(self._ruling_words(help_texts), m.small, info.w))
            spare = (room - newest - table_h - pad // 2 - pad) // small
            if wanted > min(spare, HELP_LINES) and len(rows) > 1 and wanted <= spare + per_row:
                # The ruling whole, the replays give way.
                table_h, rows = (per_row + 1) * line, rows[-1:]
                spare += per_row
            shown = min(wanted, spare, HELP_LINES)
            if shown == wanted or shown >= HELP_PAGE_LINES:
                help_h = small * shown + pad
        bottom = info.bottom
        if help_h:
            self._draw_help(p, pygame.Rect(info.left, bottom - help_h, info.w, help_h), help_texts)
            bottom -= help_h + pad // 2
        turn = snap.next.seat if snap.next is not None else None
        if table_h and totals:
            draw_score_table(
                p,
                pygame.Rect(info.left, bottom - table_h, info.w, table_h),
                view,
                rows,
                turn=turn,
                winners=list(snap.winners) if snap.phase is Phase.OVER else [],
            )
            bottom -= table_h
        messages = pygame.Rect(info.left, y + pad // 2, info.w, bottom - y - pad)
        if messages.h > 0 and not (m.narrow(info.w) and newest > messages.h):
            draw_messages(p, messages, view)
        # A narrow centre (six seats, turned a quarter) leaves out a message it cannot
        # show whole rather than cut it: what Oss's messages say stands on the table too
        # (the status and the seats' buttons: what to do; the tricks: the round's tricks;
        # a seat's own panel: its messages whole where they fit).

    def _draw_results(
        self, p: Painter, rect: pygame.Rect, view: TableView, snap: OssSnapshot
    ) -> int:
        """Each reported result a moment (``motion.RESULT_SECONDS``) under the status,
        even when the next attempt begins at once: who, what, how it ended, the time.
        Returns where the column goes on."""
        results = p.motion.results("oss-attempt", snap.last_attempts)
        m = p.metrics
        leading = m.leading(m.small)
        y = rect.top
        for result in reversed(results[-2:]):  # the newest first, where the eye is
            # Whole (two lines where the column is wide: the names and the trick, the time
            # after them), or not at all where the column has no room (the messages say it).
            pieces = p.wrap(result_words(view, result), m.small, rect.w - 2 * m.pad, bold=True)
            box = pygame.Rect(rect.left, y, rect.w, len(pieces) * leading + m.pad)
            if box.bottom > rect.bottom:
                break
            colour = ENDING_COLOURS[result.ending]
            p.box(box, theme.PANEL, colour, max(1, m.pad // 3))
            for index, piece in enumerate(pieces):
                p.text(
                    piece,
                    (box.left + m.pad, box.top + m.pad // 2 + index * leading),
                    m.small,
                    colour,
                    bold=True,
                    max_width=box.w - 2 * m.pad,
                )
            y = box.bottom + m.pad // 2
        return y

    def draw_recall(self, p: Painter, rect: pygame.Rect, view: TableView, player: int) -> None:
        """The last reported attempt on a seat's panel (a long NEXT): who, what, how it
        ended and the time, whole or in pages ("1/2"); the one before it under it when
        it fits whole."""
        snap = game_of(view.game).snapshot
        m = p.metrics
        if not snap.last_attempts:
            p.text(NO_ATTEMPT_YET, (rect.left, rect.top), m.body, theme.TEXT_DIM, max_width=rect.w)
            return
        newest, *before = reversed(snap.last_attempts[-2:])
        words = say("Last attempt: {result}", result=result_words(view, newest))
        line = m.leading(m.body)
        # Where the panel is too small for the whole of it, its lines come in pages
        # turning within the look back's time, never some of them left out.
        name = f"oss recall {p.words(words)}"
        page = text_page(
            p, words, m.body, rect.w, max(1, rect.h // line), name, RECALL_PAGE_SECONDS, bold=True
        )
        draw_page_mark(p, page, rect.topright, "topright")
        y = rect.top
        colour = ENDING_COLOURS[newest.ending]
        for piece in page.lines:
            p.text(piece, (rect.left, y), m.body, colour, bold=True, max_width=rect.w)
            y += line
        if page.mark is not None or not before:
            return
        lines = p.wrap(result_words(view, before[0]), m.small, rect.w)
        if y + len(lines) * m.leading(m.small) > rect.bottom:
            return  # the attempt before it is extra: shown whole or not at all
        for piece in lines:
            p.text(piece, (rect.left, y), m.small, theme.TEXT_DIM, max_width=rect.w)
            y += m.leading(m.small)

    @staticmethod
    def _ruling_words(texts: Sequence[Words]) -> Words:
        return say("Ruling: {text}", text=as_arg(ruling(texts[0])))

    def _draw_help(self, p: Painter, rect: pygame.Rect, texts: Sequence[Words]) -> None:
        """The ruling across ``rect``: whole, or in pages of whole lines ("1/2" at the
        first line's end) turning every ``CARD_PAGE_SECONDS``."""
        m = p.metrics
        size = m.small
        words = self._ruling_words(texts)
        line = m.leading(size)
        per_page = max(1, rect.h // line)
        key = f"oss ruling {p.words(words)}"
        page = text_page(p, words, size, rect.w, per_page, key, CARD_PAGE_SECONDS)
        draw_page_mark(p, page, rect.topright, "topright")
        for index, piece in enumerate(page.lines):
            p.text(
                piece, (rect.left, rect.top + index * line), size, theme.ACCENT, max_width=rect.w
            )

    def _draw_timer(self, p: Painter, rect: pygame.Rect, view: TableView, side: TableSide) -> int:
        """The toss timer: the running clock or the last time, to the millisecond."""
        timer = side.timer
        m = p.metrics
        pad = m.pad
        limit = timer.limit
        size = m.body
        y = rect.top + pad // 2
        # The facts of the timer line, each a whole phrase, shown side by side.
        parts: list[Text] = []
        # The first fact without the seat's name, where the name would cut it (a 6-seat
        # table's centre turned a quarter): the status and the results say whose it is.
        brief: Text | None = None
        if timer.running and timer.started_at is not None:
            elapsed = Seconds(max(0.0, clock() - timer.started_at))
            brief = say("Timer: timing {time}", time=elapsed)
            if timer.seat is not None:
                who = as_arg(player_name(view, timer.seat))
                parts.append(say("{player}: timing {time}", player=who, time=elapsed))
            else:
                parts.append(brief)
            colour = theme.TURN
            if limit is not None:
                left = limit - elapsed.value
                if left > 0:
                    parts.append(say("{time} left", time=Seconds(left)))
                else:
                    parts.append(say("TIME!"))
                colour = theme.TURN if left > 0 else PENALTY_COLOUR
        else:
            last = timer.last
            if last is not None:
                who = as_arg(player_name(view, last.seat))
                parts.append(say("{player}: {time}", player=who, time=seconds(last.millis)))
                brief = say("Timer: {time}", time=seconds(last.millis))
                colour = PENALTY_COLOUR if last.over_limit else WON_COLOUR
            elif timer.present:
                parts.append(TIMER_READY)
                brief = TIMER_READY_BRIEF
                colour = theme.TEXT_DIM
            else:
                parts.append(say("No toss timer: report each result with your buttons"))
                colour = theme.TEXT_DIM
            if limit is not None:
                parts.append(say("limit {time}", time=Seconds(limit)))
        log = timer.log
        # More lines where one would cut it, as many as the column has room for beside the
        # earlier times' line and two lines for what follows (at least two where the column
        # has them); where even they cut it, the brief form ("Toss timer ready": the press
        # to start is the timer's own), with the limit, then alone.
        below = (m.leading(m.small) if len(log) > 1 else 0) + 2 * m.leading(m.small)
        room = (rect.bottom - y) // m.leading(size)
        lines = max(min(2, room), min(3, (rect.bottom - y - below) // m.leading(size)), 1)
        block = pygame.Rect(rect.left, y, rect.w, lines * m.leading(size))
        forms = [parts, *([[brief, *parts[1:]], [brief]] if brief is not None else [])]
        for form in forms:
            text = " · ".join(p.words(part) for part in form)
            fitted = p.fit(text, block.w, block.h, size, bold=True, max_lines=lines)
            if not fitted.cut:
                break
        block.h = len(fitted.lines) * m.leading(fitted.size)
        drawn = p.fit_text(text, block, size, colour, bold=True, align="left", fitted=fitted)
        y = max(drawn.bottom, block.bottom)
        if len(log) > 1:
            with p.secondary():  # the earlier tosses: history, beside the time that counts
                earlier_size = max(p.least_size, round(m.small * 0.85))
                earlier = self._earlier(
                    p, [e.millis for e in log[-5:-1][::-1]], earlier_size, rect.w
                )
                if earlier is not None:
                    ink = p.ink(earlier, earlier_size, theme.TEXT_DIM, max_width=rect.w)
                    if y + ink.bottom <= rect.bottom:  # where there is room
                        y = p.text(earlier, (rect.left, y), earlier_size, theme.TEXT_DIM).bottom
        return y - rect.top + pad // 2

    @staticmethod
    def _earlier(p: Painter, millis: Sequence[int], size: int, width: int) -> Words | None:
        """The earlier tosses, newest first, as many as fit ``width`` whole (a narrow
        centre shows the latest ones: history; the time that counts stands above)."""
        for count in range(len(millis), 0, -1):
            times = Items(tuple(seconds(value) for value in millis[:count]))
            earlier = say("earlier: {times}", times=times)
            if p.measure(p.words(earlier), size) <= width:
                return earlier
        return None

    def _status(
        self, view: TableView, snap: OssSnapshot, *, brief: bool = False
    ) -> tuple[Words, Colour]:
        """Who attempts what next, in one line; ``brief``: without the buttons to press
        (each seat's panel says them) and, in a challenge, how many are still in rather
        than who (their panels are lit)."""
        phase = snap.phase

        def name(player: int) -> Words:
            return player_name(view, player)

        if phase is Phase.OVER:
            winners = [as_arg(name(w)) for w in snap.winners]
            if len(winners) == 1:
                return say("Game over: {player} is Big Chief", player=winners[0]), theme.WINNER
            if winners:
                players = Items(tuple(winners))
                return say("Game over: {players} share the victory", players=players), theme.WINNER
            return say("Game over"), theme.WINNER
        who = as_arg(name(snap.next.seat)) if snap.next is not None else Verbatim("")
        side = game_of(view.game).overlay
        if phase is Phase.TRIBE:
            chosen = side.chosen_trick
            if chosen:
                text = say(
                    "{player} plays a tribe card below {trick}", player=who, trick=Verbatim(chosen)
                )
            else:
                text = say("{player}: choose a trick (PREV/NEXT), tap a card", player=who)
            return text, theme.TURN
        attempt = snap.current_attempt
        if phase is Phase.RESULT and attempt is not None:
            trick = Verbatim(attempt.trick)
            if attempt.kind is AttemptKind.SOLO and attempt.seats:
                jacks = attempt.values[0] if attempt.values else 0
                text = say_plural(
                    "{player} attempts {trick} with {n} jack: OK success, NEXT failure",
                    "{player} attempts {trick} with {n} jacks: OK success, NEXT failure",
                    jacks,
                    player=as_arg(name(attempt.seats[0])),
                    trick=trick,
                )
                return text, theme.TURN
            first, second = (as_arg(name(s)) for s in attempt.seats[:2])
            if side.counting_duel:
                text = say(
                    "Duel {duel}: {first} against {second}: enter the counts",
                    duel=trick,
                    first=first,
                    second=second,
                )
            elif brief:
                text = say(
                    "Duel {duel}: {first} against {second}", duel=trick, first=first, second=second
                )
            else:
                text = say(
                    "Duel {duel}: {first} against {second}: OK I won, NEXT I lost, PREV tie",
                    duel=trick,
                    first=first,
                    second=second,
                )
            return text, theme.TURN
        if phase is Phase.REPLAY:
            return say("{player} failed: replay (discard a card) or pass", player=who), theme.TURN
        if phase is Phase.KEEP:
            return say("{player} won the duel: keep one of the two cards", player=who), theme.TURN
        if phase is Phase.CHALLENGE_RESULT and snap.challenge is not None:
            remaining = snap.challenge.remaining
            card = Verbatim(snap.challenge.name)
            if brief:
                text = say_plural(
                    "Challenge {card}: {n} player still in",
                    "Challenge {card}: {n} players still in",
                    len(remaining),
                    card=card,
                )
                return text, theme.TURN
            left = Items(tuple(as_arg(name(s)) for s in remaining))
            text = say("Challenge {card}: {players} still in", card=card, players=left)
            return text, theme.TURN
        return say("The table deals…"), theme.TEXT_DIM


TIMER_READY = say("Toss timer ready: press to start")
# TRANSLATORS: "Toss timer ready: press to start" where the centre has no room for it.
TIMER_READY_BRIEF = say("Toss timer ready")

SCENE = OssScene()
