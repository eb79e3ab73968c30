"""The look of the table: colours, fonts, sizes, and the drawing primitives scenes share.

Everything is sized from the canvas (``Metrics``), so one layout serves
800x480 up to 1920x1080. Fonts are pygame's bundled default font (present on
every install, so the kiosk does not depend on system fonts), cached per size.

A ``Painter`` draws on one surface and collects the hit boxes of what it drew
(cards of the simulator's hand, buttons, menu entries), so the renderer can
map a click back to a UI action.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from controller.games.words import Words
from controller.view import MessageKind
from controller.words import Presenter
from display.ui import UiAction

Colour = tuple[int, int, int]

# --- palette -------------------------------------------------------------------

TABLE: Colour = (14, 52, 42)  # felt green behind everything
CENTRE: Colour = (20, 66, 54)
PANEL: Colour = (28, 38, 48)
PANEL_EMPTY: Colour = (22, 28, 34)
PANEL_EDGE: Colour = (70, 86, 100)
TEXT: Colour = (236, 238, 240)
TEXT_DIM: Colour = (150, 160, 170)
TEXT_DARK: Colour = (20, 20, 24)
TURN: Colour = (255, 206, 48)  # the strong "your turn" highlight
ACCENT: Colour = (120, 200, 255)
BOT: Colour = (160, 130, 230)
JOINED: Colour = (90, 210, 120)
WINNER: Colour = (255, 215, 90)
BUTTON: Colour = (52, 70, 88)
BUTTON_EDGE: Colour = (150, 180, 210)
SELECTED: Colour = (48, 110, 160)

CARD_COLOURS: dict[str, Colour] = {
    "R": (212, 52, 52),
    "B": (40, 108, 214),
    "G": (40, 150, 70),
    "Y": (236, 196, 36),
    "L": (168, 120, 210),  # Oskar's lilac
}
CARD_NEUTRAL: Colour = (240, 236, 226)
CARD_BACK: Colour = (90, 60, 120)

MESSAGE_COLOURS: dict[MessageKind, Colour] = {
    MessageKind.INFO: TEXT,
    MessageKind.REFUSED: (255, 84, 84),
    MessageKind.PENALTY: (255, 150, 30),
    MessageKind.WON: (90, 220, 110),
    MessageKind.PROBLEM: (255, 70, 230),
}


def card_face(notation: str) -> tuple[Colour, Colour, str]:
    """Fill colour, ink colour and the big text for a card notation.

    Oshaka-style notation (colour letter + number, ``R7``) becomes a coloured
    card showing the number; anything else (``QH``, ``7S``) a light card with
    its notation, red for hearts and diamonds. Only the look, never the rules.
    """
    head, rest = notation[:1], notation[1:]
    if head in CARD_COLOURS and rest.isdigit():
        ink = TEXT_DARK if head == "Y" else (255, 255, 255)
        return CARD_COLOURS[head], ink, rest
    red = notation[-1:].upper() in ("H", "D")
    return CARD_NEUTRAL, (190, 20, 30) if red else TEXT_DARK, notation


def blend(a: Colour, b: Colour, share: float) -> Colour:
    """``a`` moved ``share`` of the way towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * share),
        round(a[1] + (b[1] - a[1]) * share),
        round(a[2] + (b[2] - a[2]) * share),
    )


# --- sizes and fonts ---------------------------------------------------------------


@dataclass(frozen=True)
class Metrics:
    """Sizes derived from the canvas, so every resolution keeps the same proportions."""

    unit: int  # the canvas's short side

    @classmethod
    def for_size(cls, size: tuple[int, int]) -> Metrics:
        return cls(max(240, min(size)))

    def _scaled(self, share: float, least: int) -> int:
        return max(least, round(self.unit * share))

    # pygame's default font draws glyphs about 0.7 of the requested size tall,
    # hence sizes that look large next to other toolkits' point sizes.

    @property
    def small(self) -> int:
        return self._scaled(0.042, 16)

    @property
    def body(self) -> int:
        return self._scaled(0.05, 18)

    @property
    def big(self) -> int:
        return self._scaled(0.072, 24)

    @property
    def title(self) -> int:
        return self._scaled(0.12, 36)

    @property
    def pad(self) -> int:
        return self._scaled(0.012, 3)

    @staticmethod
    def leading(size: int) -> int:
        """The distance from one line of ``size`` text to the next."""
        return round(size * 0.82)

    @property
    def line(self) -> int:
        """The height of a line of small text."""
        return self.leading(self.small)

    @property
    def hand_card(self) -> int:
        """The height of a card of the simulator's hand (and of a seat button)."""
        return self._scaled(0.08, 30)


class Fonts:
    """pygame fonts cached per (size, bold): creating a Font is slow, drawing with one is not.

    It also keeps the pictures drawn with them (``images``): a line of text or
    a card face is the same picture every time it is asked for with the same
    arguments, and a Pi core should draw it once.
    """

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._cache: dict[tuple[int, bool], pygame.font.Font] = {}
        self.images = ImageCache()

    def get(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (max(6, size), bold)
        font = self._cache.get(key)
        if font is None:
            font = pygame.font.Font(None, key[0])
            font.set_bold(bold)
            self._cache[key] = font
        return font

    def __len__(self) -> int:
        return len(self._cache)


class ImageCache:
    """Drawn pictures by the arguments that drew them, the least recently used dropped first.

    Bounded, so a long day of different texts cannot grow the kiosk's memory.
    Callers only blit what they get, never draw on it.
    """

    def __init__(self, limit: int = 4000) -> None:
        self.limit = limit
        self._images: dict[tuple[object, ...], pygame.Surface] = {}

    def get(self, key: tuple[object, ...]) -> pygame.Surface | None:
        image = self._images.pop(key, None)
        if image is not None:
            self._images[key] = image  # now the most recently used
        return image

    def put(self, key: tuple[object, ...], image: pygame.Surface) -> pygame.Surface:
        self._images[key] = image
        if len(self._images) > self.limit:
            del self._images[next(iter(self._images))]
        return image

    def __len__(self) -> int:
        return len(self._images)


# --- drawing primitives ------------------------------------------------------------


@dataclass
class Painter:
    """Draws on one surface with the shared look and records hit boxes in its coordinates."""

    surface: pygame.Surface
    fonts: Fonts
    metrics: Metrics
    hits: list[tuple[pygame.Rect, UiAction]] = field(default_factory=list)
    # Whose words this painter writes: the panel's seat language, or the table's for
    # the centre. Every ``Text`` drawn goes through it; a plain str is drawn as it is.
    words: Presenter = field(default_factory=Presenter)

    def hit(self, rect: pygame.Rect, action: UiAction) -> None:
        """Make ``rect`` clickable: a click inside it means ``action``."""
        self.hits.append((pygame.Rect(rect), action))

    def box(
        self,
        rect: pygame.Rect,
        fill: Colour | None,
        edge: Colour | None = None,
        width: int = 1,
        radius: int = -1,
    ) -> None:
        """A filled and/or outlined rounded rectangle."""
        r = radius if radius >= 0 else max(2, self.metrics.pad)
        if fill is not None:
            pygame.draw.rect(self.surface, fill, rect, 0, r)
        if edge is not None and width > 0:
            pygame.draw.rect(self.surface, edge, rect, width, r)

    def render_text(
        self, words: Words, size: int, colour: Colour, bold: bool = False, max_width: int = 0
    ) -> pygame.Surface:
        """``words`` as a surface; shrunk (to 70%) and then cut with an ellipsis to fit."""
        text = self.words(words)
        key = ("text", text, size, colour, bold, max_width)
        cached = self.fonts.images.get(key)
        if cached is not None:
            return cached
        return self.fonts.images.put(key, self._render_text(text, size, colour, bold, max_width))

    def _render_text(
        self, text: str, size: int, colour: Colour, bold: bool, max_width: int
    ) -> pygame.Surface:
        font = self.fonts.get(size, bold)
        if max_width > 0 and font.size(text)[0] > max_width:
            least = max(9, round(size * 0.7))
            for step in range(size - 1, least - 1, -1):
                font = self.fonts.get(step, bold)
                if font.size(text)[0] <= max_width:
                    break
            else:
                cut = text
                while cut and font.size(cut + "…")[0] > max_width:
                    cut = cut[:-1]
                text = cut + "…"
        return font.render(text, True, colour)

    def text(
        self,
        text: Words,
        pos: tuple[int, int],
        size: int,
        colour: Colour = TEXT,
        *,
        bold: bool = False,
        anchor: str = "topleft",
        max_width: int = 0,
    ) -> pygame.Rect:
        """Draw one line of text anchored at ``pos``; returns where it went."""
        image = self.render_text(text, size, colour, bold, max_width)
        rect = image.get_rect(**{anchor: pos})
        self.surface.blit(image, rect)
        return rect

    def wrap(self, words: Words, size: int, width: int, bold: bool = False) -> list[str]:
        """``words`` split into lines no wider than ``width`` (words kept whole when they fit)."""
        text = self.words(words)
        font = self.fonts.get(size, bold)
        lines: list[str] = []
        current = ""
        for word in text.split():
            trial = f"{current} {word}" if current else word
            if font.size(trial)[0] <= width or not current:
                current = trial
            else:
                lines.append(current)
                current = word
        if current:
            lines.append(current)
        return lines

    def card(
        self,
        rect: pygame.Rect,
        notation: str,
        *,
        rotation: int = 0,
        emphasis: bool = False,
        dim: bool = False,
        outline: Colour | None = None,
        number_at_top: bool = False,
    ) -> pygame.Rect:
        """A card face, turned clockwise by ``rotation`` about the centre of ``rect``.

        ``rect`` is the card's upright size; ``number_at_top`` draws a small
        number in the corner as well, for stacked cards of which only a strip shows.
        """
        key = ("card", rect.size, notation, rotation, emphasis, dim, outline, number_at_top)
        image = self.fonts.images.get(key)
        if image is None:
            image = self.fonts.images.put(
                key,
                self._card_image(
                    rect.size, notation, rotation, emphasis, dim, outline, number_at_top
                ),
            )
        placed = image.get_rect(center=rect.center)
        self.surface.blit(image, placed)
        return placed

    def _card_image(
        self,
        size: tuple[int, int],
        notation: str,
        rotation: int,
        emphasis: bool,
        dim: bool,
        outline: Colour | None,
        number_at_top: bool,
    ) -> pygame.Surface:
        w, h = size
        image = pygame.Surface((w, h), pygame.SRCALPHA)
        fill, ink, label = card_face(notation)
        if dim:
            fill, ink = blend(fill, PANEL, 0.55), blend(ink, PANEL, 0.45)
        radius = max(2, min(w, h) // 8)
        pygame.draw.rect(image, fill, image.get_rect(), 0, radius)
        edge = outline or ((255, 255, 255) if emphasis else blend(fill, (0, 0, 0), 0.45))
        border = max(1, min(w, h) // (10 if emphasis else 18))
        pygame.draw.rect(image, edge, image.get_rect(), border, radius)
        if number_at_top:
            corner = self.render_text(label, max(9, round(min(w, h * 0.4) * 0.5)), ink, True, w - 4)
            image.blit(corner, (border + 2, border + 1))
        big = max(9, round(min(h * 0.55, w * (0.8 if len(label) <= 2 else 0.55))))
        text = self.render_text(label, big, ink, True, w - 2 * border - 2)
        where = text.get_rect(center=(w // 2, h // 2 + (h // 8 if number_at_top else 0)))
        image.blit(text, where)
        if label in ("6", "9"):
            # Cards lie turned toward every seat: underline 6 and 9 so they cannot be confused.
            thick = max(1, big // 12)
            pygame.draw.line(
                image, ink, (where.left, where.bottom), (where.right - 1, where.bottom), thick
            )
        if rotation:
            image = pygame.transform.rotate(image, -rotation)
        return image

    def card_back(self, rect: pygame.Rect, count: int) -> None:
        """A face-down card with the count of face-down cards on it."""
        self.box(rect, CARD_BACK, blend(CARD_BACK, (255, 255, 255), 0.4), max(1, rect.w // 14))
        self.text(
            str(count),
            rect.center,
            max(9, round(rect.h * 0.5)),
            TEXT,
            bold=True,
            anchor="center",
            max_width=rect.w - 2,
        )

    def button(
        self,
        rect: pygame.Rect,
        label: Words,
        action: UiAction | None = None,
        *,
        selected: bool = False,
        size: int = 0,
    ) -> None:
        """An on-screen button, clickable when ``action`` is given."""
        fill = SELECTED if selected else BUTTON
        self.box(rect, fill, TURN if selected else BUTTON_EDGE, max(1, rect.h // 14))
        self.text(
            label,
            rect.center,
            size or self.metrics.small,
            TEXT,
            bold=True,
            anchor="center",
            max_width=rect.w - 2 * self.metrics.pad,
        )
        if action is not None:
            self.hit(rect, action)
