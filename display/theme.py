"""The look of the table: colours, fonts, sizes, and the drawing primitives scenes share.

Everything is sized from the canvas (``Metrics``), so one layout serves
800x480 up to 1920x1080. Text is drawn with Debian's Noto Sans, and Noto Sans
CJK for Japanese and the suit symbols (``Fonts``; pygame's default font, which
draws English only, when they are missing), and always fitted to its box
(``display/fitting.py``): wrapped, shrunk, or cut at a word with "…".

A ``Painter`` draws on one surface and collects the hit boxes of what it drew
(cards of the simulator's hand, buttons, menu entries), so the renderer can
map a click back to a UI action.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Generic, TypeVar

import pygame
import pygame.freetype

from controller.games import deck_of_card
from controller.games.cards import CardFace, FaceColour
from controller.games.words import Arg, Items, Words
from controller.view import MessageKind
from controller.words import Presenter
from controller.words.catalogs import ENGLISH, PSEUDO
from controller.words.presenter import SECONDS_PATTERN
from display import fitting, legibility
from display.fitting import Fitted
from display.layout import Turn, turn_surface
from display.legibility import DrawnText, Role
from display.motion import STILL, Motion
from display.ui import UiAction

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]
V = TypeVar("V")

# --- palette -------------------------------------------------------------------

TABLE: Colour = (14, 52, 42)  # felt green behind everything
CENTRE: Colour = (20, 66, 54)
PANEL: Colour = (28, 38, 48)
PANEL_EMPTY: Colour = (22, 28, 34)
PANEL_EDGE: Colour = (70, 86, 100)
TEXT: Colour = (236, 238, 240)
TEXT_DIM: Colour = (150, 160, 170)
TEXT_DARK: Colour = (20, 20, 24)
TEXT_COLOUR = TEXT
TURN: Colour = (255, 206, 48)  # the strong "your turn" highlight
ACCENT: Colour = (120, 200, 255)
BOT: Colour = (160, 130, 230)
JOINED: Colour = (90, 210, 120)
WINNER: Colour = (255, 215, 90)
BUTTON: Colour = (52, 70, 88)
BUTTON_EDGE: Colour = (150, 180, 210)
SELECTED: Colour = (48, 110, 160)

# The paint of each card colour a game's faces name (``CardFace.colour``).
CARD_COLOURS: dict[FaceColour, Colour] = {
    FaceColour.PLAIN: (240, 236, 226),
    FaceColour.RED: (212, 52, 52),
    FaceColour.BLUE: (40, 108, 214),
    FaceColour.GREEN: (40, 150, 70),
    FaceColour.YELLOW: (236, 196, 36),
    FaceColour.LILAC: (168, 120, 210),  # Oskar's lilac
    FaceColour.NAVY: (36, 32, 110),  # Oh Pshaw's Wizards
    FaceColour.SAGE: (200, 214, 200),  # and its Jesters
}
CARD_NEUTRAL: Colour = CARD_COLOURS[FaceColour.PLAIN]
CARD_RED_INK: Colour = (190, 20, 30)
CARD_BACK: Colour = (90, 60, 120)

MESSAGE_COLOURS: dict[MessageKind, Colour] = {
    MessageKind.INFO: TEXT,
    MessageKind.REFUSED: (255, 84, 84),
    MessageKind.PENALTY: (255, 150, 30),
    MessageKind.WON: (90, 220, 110),
    MessageKind.PROBLEM: (255, 70, 230),
}


# Inks other than white on a coloured card: dark on yellow, gold on a Wizard's navy,
# dark green on a Jester's sage (so neither add-on card is mistaken for a suit card).
CARD_INKS: dict[FaceColour, Colour] = {
    FaceColour.YELLOW: TEXT_DARK,
    FaceColour.NAVY: (250, 206, 70),
    FaceColour.SAGE: (70, 90, 70),
}


def card_paint(face: CardFace) -> tuple[Colour, Colour]:
    """Fill and ink colour of a card face: white ink on a coloured card (or its own ink,
    ``CARD_INKS``), dark or red ink on a plain one. The game says what the face shows;
    this, how it looks."""
    fill = CARD_COLOURS[face.colour]
    if face.colour is FaceColour.PLAIN:
        return fill, CARD_RED_INK if face.red_ink else TEXT_DARK
    return fill, CARD_INKS.get(face.colour, (255, 255, 255))


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

    # Each size is worked out once per Metrics (``cached_property``): a frame asks for
    # them a few hundred times.
    # pygame's default font draws glyphs about 0.7 of the requested size tall,
    # hence sizes that look large next to other toolkits' point sizes.

    @cached_property
    def small(self) -> int:
        return self._scaled(0.042, 16)

    @cached_property
    def body(self) -> int:
        return self._scaled(0.05, 18)

    @cached_property
    def big(self) -> int:
        return self._scaled(0.072, 24)

    @cached_property
    def title(self) -> int:
        return self._scaled(0.12, 36)

    @cached_property
    def pad(self) -> int:
        return self._scaled(0.012, 3)

    def narrow(self, width: int) -> bool:
        """True when a box ``width`` wide is narrower than the canvas's short side: the
        centre of a portrait canvas between a left and a right panel (or a column of a
        centre). What stands side by side on a wide centre (a label beside its buttons,
        a row's label beside its value, the games' tiles) is stacked there, and a line
        that would be cut is wrapped, so that no word is cut."""
        return width < self.unit

    @staticmethod
    def leading(size: int) -> int:
        """The distance from one line of ``size`` text to the next."""
        return round(size * 0.82)

    @cached_property
    def line(self) -> int:
        """The height of a line of small text."""
        return self.leading(self.small)

    @cached_property
    def hand_card(self) -> int:
        """The height of a card of the simulator's hand (and of a seat button)."""
        return self._scaled(0.08, 30)


# --- fonts ---------------------------------------------------------------------------

# Debian's Noto fonts (fonts-noto-core, fonts-noto-cjk): Latin, Greek and Cyrillic
# from Noto Sans; Japanese, and the suit symbols Noto Sans lacks, from Noto Sans CJK.
FONT_FILES: dict[bool, tuple[Path, ...]] = {
    False: (
        Path("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"),
        Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    ),
    True: (
        Path("/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf"),
        Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
    ),
}
FONT_PACKAGES = "fonts-noto-core fonts-noto-cjk"

# The scenes' sizes were chosen for pygame's default font, whose glyphs come out
# about 0.6 of the asked size: Noto's at 0.6 of it look the same and keep a line
# of text inside ``Metrics.leading``.
FONT_SCALE = 0.6


def missing_font_files(files: Mapping[bool, Sequence[Path]] = FONT_FILES) -> list[Path]:
    """The font files the display wants and cannot find (the doctor reports them too)."""
    return [path for paths in files.values() for path in paths if not path.is_file()]


def font_problem(files: Mapping[bool, Sequence[Path]] = FONT_FILES) -> str | None:
    """One line saying which fonts are missing and what to do, or None when all are there."""
    gone = missing_font_files(files)
    if not gone:
        return None
    return (
        f"font {gone[0]} is missing: run `sudo apt-get install {FONT_PACKAGES}`"
        " (showing English in pygame's default font until then)"
    )


class Face:
    """The fonts of one size and weight, drawing each string in the first font that has its glyphs.

    Offers what scenes use of ``pygame.font.Font`` (``size``, ``render``,
    ``get_linesize``, ``get_height``). Glyph coverage comes from
    ``pygame.freetype``, which, unlike ``pygame.font``, says when a font lacks a
    glyph (``get_metrics`` gives None); measuring and drawing go through
    ``pygame.font`` with the same files, some fifty times faster than freetype
    with Noto Sans. A string whose characters Noto Sans lacks (Japanese, ♠♥♦♣)
    is drawn wholly in Noto Sans CJK, so one string never mixes two fonts' baselines.
    """

    # For the pseudo-locale test: every string drawn, unless drawn as a picture (a card
    # face: ``Painter.card`` counts ``pictures`` up while it draws one).
    drawn: list[str] | None = None
    pictures = 0

    def __init__(
        self,
        files: Sequence[Path | None],
        points: int,
        bold: bool,
        coverage: Coverage,
        fallbacks: FallbackFonts | None = None,
    ):
        # ``files``: the chain, first choice first (None: pygame's own font, bold by styling).
        # ``fallbacks``: where the chain's later fonts are kept open (a bounded few), if given.
        self._files = tuple(files)
        self._points = points
        self._bold = bold
        self._coverage = coverage
        self._fallbacks = fallbacks
        # Each font is opened when a string first needs it: Noto Sans CJK takes megabytes
        # per size, and an English table never needs it.
        self._fonts: list[pygame.font.Font | None] = [None] * len(self._files)
        self._height = self._font(0).get_height()
        self._chosen: dict[str, int] = {}
        self._sizes: dict[str, tuple[int, int]] = {}

    def _font(self, index: int) -> pygame.font.Font:
        path = self._files[index]
        if index > 0 and path is not None and self._fallbacks is not None:
            return self._fallbacks.get(path, self._points)
        font = self._fonts[index]
        if font is None:
            path = self._files[index]
            font = pygame.font.Font(None if path is None else str(path), self._points)
            if path is None:
                font.set_bold(self._bold)
            self._fonts[index] = font
        return font

    def _choice(self, text: str) -> int:
        """The index of the first font of the chain with every glyph ``text`` needs (else 0)."""
        if len(self._files) == 1 or text.isascii():
            return 0  # Noto Sans has every ASCII glyph
        chosen = self._chosen.get(text)
        if chosen is None:
            chosen = next(
                (i for i, path in enumerate(self._files) if not self._coverage.lacks(path, text)),
                0,
            )
            if len(self._chosen) > 5000:
                self._chosen.clear()  # fitting tries many lines: keep the memory bounded
            self._chosen[text] = chosen
        return chosen

    def font_for(self, text: str) -> pygame.font.Font:
        """The first font of the chain with every glyph ``text`` needs (else the first)."""
        return self._font(self._choice(text))

    def missing(self, text: str) -> str:
        """The characters of ``text`` that the font chosen for it cannot draw."""
        return self._coverage.lacks(self._files[self._choice(text)], text)

    def size(self, text: str) -> tuple[int, int]:
        """The (width, height) ``render`` gives ``text``."""
        known = self._sizes.get(text)
        if known is None:
            width, height = self.font_for(text).size(text)
            known = width, max(height, self._height)
            if len(self._sizes) > 5000:
                self._sizes.clear()  # fitting measures many trial lines: keep it bounded
            self._sizes[text] = known
        return known

    def render(
        self,
        text: str,
        antialias: bool = True,
        colour: Colour | tuple[int, int, int, int] = TEXT_COLOUR,
        background: Colour | None = None,
    ) -> pygame.Surface:
        """``text`` on a surface a line high."""
        if Face.drawn is not None and not Face.pictures:
            Face.drawn.append(text)
        return self.font_for(text).render(text, antialias, colour, background)

    def get_linesize(self) -> int:
        return self._height

    def get_height(self) -> int:
        return self._height


class FallbackFonts:
    """The fallback fonts (Noto Sans CJK) open, by file and size; the least recently used closed.

    Each size of Noto Sans CJK takes about 2.6 MB once opened (FreeType's tables
    for that face), and fitting texts with suit symbols asks for many sizes: kept
    open for good, a few games of Oh Pshaw grew the kiosk by over 50 MB. One
    closed is opened again when a string needs it (about 1 ms here); what was
    drawn with it stays in the ``ImageCache`` and each face remembers its sizes.
    """

    def __init__(self, limit: int = 6) -> None:
        self.limit = limit
        self._open: dict[tuple[Path, int], pygame.font.Font] = {}

    def get(self, path: Path, points: int) -> pygame.font.Font:
        key = (path, points)
        font = self._open.pop(key, None)
        if font is None:
            font = pygame.font.Font(str(path), points)
            if len(self._open) >= self.limit:
                del self._open[next(iter(self._open))]  # closed when nothing holds it
        self._open[key] = font  # now the most recently used
        return font

    def __len__(self) -> int:
        return len(self._open)


class Coverage:
    """Which characters each font file lacks, asked of ``pygame.freetype`` once per character."""

    def __init__(self) -> None:
        self._fonts: dict[Path | None, pygame.freetype.Font] = {}
        # Per font file, the characters asked about so far: those it has and those it lacks.
        # A text is checked as a set against them, not character by character: every new
        # line a fitting measures asks, and most of its characters were asked before.
        self._has: dict[Path | None, set[str]] = {}
        self._lacks: dict[Path | None, set[str]] = {}

    def lacks(self, path: Path | None, text: str) -> str:
        """The characters of ``text`` (whitespace aside) that the font at ``path`` cannot draw."""
        has = self._has.setdefault(path, set())
        lacking = self._lacks.setdefault(path, set())
        unknown = set(text) - has - lacking
        if unknown:
            font = self._fonts.get(path)
            if font is None:
                font = self._fonts[path] = pygame.freetype.Font(
                    None if path is None else str(path), 12
                )
            for char in unknown:
                if char.isspace() or font.get_metrics(char)[0] is not None:
                    has.add(char)
                else:
                    lacking.add(char)
        if not lacking or lacking.isdisjoint(text):
            return ""
        return "".join(char for char in text if char in lacking)


class Fonts:
    """The text faces cached per (size, bold): creating a font is slow, drawing with one is not.

    ``files`` are the font files by weight, the first for most text and the
    next ones for strings it lacks glyphs for. When one is missing the display
    says so once (``font_problem``) and draws with pygame's default font,
    which still shows English.

    It also keeps the pictures drawn with them (``images``): a line of text or
    a card face is the same picture every time it is asked for with the same
    arguments, and a Pi core should draw it once.
    """

    _warned = False

    def __init__(self, files: Mapping[bool, Sequence[Path]] = FONT_FILES) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        problem = font_problem(files)
        if problem is not None and not Fonts._warned:
            Fonts._warned = True  # one line per program, not one per renderer
            log.error("%s", problem)
        self._files: Mapping[bool, Sequence[Path]] | None = None if problem else files
        self._cache: dict[tuple[int, bool], Face] = {}
        self.coverage = Coverage()
        self.fallbacks = FallbackFonts()
        self.images = ImageCache()
        # How each large rounded box's edge is put together from fills and corner
        # pictures (``EdgeRecipe``): small, and dropped with the rest.
        self.edges: Memo[EdgeRecipe] = Memo(EDGE_LIMIT)
        # Words as each reader reads them, and texts fitted to boxes: a redraw asks for
        # the same ones again, and presenting (Babel's numbers) and fitting (wrapping,
        # measuring) cost more on a Pi core than drawing the cached picture.
        self.presented: Memo[str] = Memo()
        self.fitted: Memo[Fitted] = Memo()
        # What each card shows, by game and notation (parsing a notation and asking its
        # deck costs more than drawing the kept face), and the legible width of a card
        # for each set of ranks and height (``Painter.legible_card_width``).
        self.faces: Memo[CardFace] = Memo()
        self.card_widths: Memo[int] = Memo(256)
        self.wrapped: Memo[tuple[str, ...]] = Memo()
        # Where the letters are in each text picture (``Painter.ink``).
        self.inks: Memo[tuple[int, int, int, int]] = Memo()

    @classmethod
    def for_window(cls, size: tuple[int, int]) -> Fonts:
        """Fonts whose kept pictures are bounded for a window of ``size`` (``image_budget``)."""
        fonts = cls()
        fonts.images.budget = image_budget(size)
        return fonts

    def forget(self) -> None:
        """Drop every remembered picture, word, fit and open font (they are made again
        when asked for): for when a game has ended and the table is back to idling."""
        self._cache.clear()
        self.fallbacks = FallbackFonts(self.fallbacks.limit)
        self.images = ImageCache(self.images.limit, self.images.budget)
        self.edges = Memo(self.edges.limit)
        self.presented = Memo(self.presented.limit)
        self.fitted = Memo(self.fitted.limit)
        self.faces = Memo(self.faces.limit)
        self.card_widths = Memo(self.card_widths.limit)
        self.wrapped = Memo(self.wrapped.limit)
        self.inks = Memo(self.inks.limit)

    @property
    def fallback(self) -> bool:
        """Whether the display draws with pygame's default font (the Noto fonts are missing)."""
        return self._files is None

    def get(self, size: int, bold: bool = False) -> Face:
        key = (max(6, size), bold)
        face = self._cache.get(key)
        if face is None:
            if self._files is None:
                # pygame's own font draws small for its size: the scenes' sizes suit it as is.
                face = Face((None,), key[0], bold, self.coverage)
            else:
                points = max(5, round(key[0] * FONT_SCALE))
                face = Face(self._files[bold], points, bold, self.coverage, self.fallbacks)
            self._cache[key] = face
        return face

    def __len__(self) -> int:
        return len(self._cache)


# Rounded edges whose recipes are kept: a screen has a few dozen box sizes at most.
EDGE_LIMIT = 256
# Edges of fewer pixels than this are drawn by pygame each time: pygame's cost grows
# with the edge's pixels, the recipe's is about a dozen calls, and below this the
# recipes measured no cheaper in whole frames (at 800x480 and 1024x600 they cost
# 1-2 % more, at 1920x1080 they saved 5-6 %).
EDGE_LEAST_PIXELS = 12_000
# Colours that mark what an edge leaves uncovered while its recipe is made and
# checked (the first that is not the edge's own).
EDGE_CLEAR: tuple[Colour, ...] = ((255, 0, 255), (0, 255, 255))


@dataclass(frozen=True)
class EdgeRecipe:
    """A rounded box's edge as four plain fills (its straight bands) and its four corners
    as small colour-keyed pictures.

    pygame draws a rounded edge ``width`` pixels wide as thick lines, a line of
    pixels at a time with a bounds check on each, and thick quarter circles:
    about 0.16 ms for a 1080p seat panel's turn edge in a frame, and a panel's
    edge is drawn on every repaint of it (twice when the turn moves: the old edge
    is painted over, then the new drawn). Its straight bands are plain
    rectangles, which ``Surface.fill`` (SDL's fill) paints in one call each;
    only the corners' squares need pixels drawn by pygame, kept as pictures.
    Every recipe is checked once against ``pygame.draw.rect`` itself
    (``edge_recipe``), so it gives exactly the pixels drawing would.
    """

    colour: Colour
    bands: tuple[pygame.Rect, ...]  # relative to the box's top left
    corners: tuple[tuple[pygame.Surface, tuple[int, int]], ...]

    def paint(self, surface: pygame.Surface, at: tuple[int, int]) -> None:
        """Paint the edge with the box's top left at ``at`` (inside ``surface``'s clip)."""
        x, y = at
        for band in self.bands:
            surface.fill(self.colour, band.move(x, y))
        for corner, (dx, dy) in self.corners:
            surface.blit(corner, (x + dx, y + dy))


# The recipe of an edge that is drawn by pygame (kept, so it is not tried again).
DRAWN = EdgeRecipe((0, 0, 0), (), ())


def edge_recipe(
    surface: pygame.Surface, size: tuple[int, int], colour: Colour, width: int, radius: int
) -> EdgeRecipe | None:
    """The fills and corners that paint the edge of a ``size`` box as
    ``pygame.draw.rect(..., width, radius)`` does on ``surface``'s pixel format, or
    None when they would not match (then it is drawn by pygame)."""
    w, h = size
    c = radius + 1  # the corners' squares: everything pygame rounds lies inside them
    if radius < 1 or width < 1 or width >= c or w < 2 * c + 1 or h < 2 * c + 1:
        return None
    clear = next(k for k in EDGE_CLEAR if surface.map_rgb(k) != surface.map_rgb(colour))
    reference = pygame.Surface(size, 0, surface)
    reference.fill(clear)
    pygame.draw.rect(reference, colour, reference.get_rect(), width, radius)
    bands = (
        pygame.Rect(c, 0, w - 2 * c, width),
        pygame.Rect(c, h - width, w - 2 * c, width),
        pygame.Rect(0, c, width, h - 2 * c),
        pygame.Rect(w - width, c, width, h - 2 * c),
    )
    corners = []
    for dx, dy in ((0, 0), (w - c, 0), (0, h - c), (w - c, h - c)):
        corner = reference.subsurface((dx, dy, c, c)).copy()
        corner.set_colorkey(clear, pygame.RLEACCEL)
        corners.append((corner, (dx, dy)))
    recipe = EdgeRecipe(colour, bands, tuple(corners))
    check = pygame.Surface(size, 0, surface)
    check.fill(clear)
    recipe.paint(check, (0, 0))
    if pygame.image.tobytes(check, "RGB") != pygame.image.tobytes(reference, "RGB"):
        return None
    return recipe


class Memo(Generic[V]):
    """Values by the arguments that made them, the least recently used dropped first.

    Bounded, so a long day of different texts cannot grow the kiosk's memory.
    """

    def __init__(self, limit: int = 4000) -> None:
        self.limit = limit
        self._values: dict[Hashable, V] = {}

    def get(self, key: Hashable) -> V | None:
        value = self._values.pop(key, None)
        if value is not None:
            self._values[key] = value  # now the most recently used
        return value

    def put(self, key: Hashable, value: V) -> V:
        self._values[key] = value
        if len(self._values) > self.limit:
            del self._values[next(iter(self._values))]
        return value

    def __len__(self) -> int:
        return len(self._values)


# Bytes of pixels the drawn pictures may hold: a frame at 1920x1080 uses about 2.3 MB of
# them (the busiest play screen), so this keeps several screens' worth.
IMAGE_BUDGET = 16 * 1024 * 1024


def image_budget(size: tuple[int, int]) -> int:
    """The image cache's byte budget for a window of ``size``: ``IMAGE_BUDGET`` up to
    1280x720, more in proportion to the area above it (at 1920x1080 a text or card
    picture takes 2.25 times the bytes; with 16 MB there a game drew its card faces
    twice over, 2,324 times for 861 faces in 300 taps, against 1,684 with 36 MB)."""
    return max(IMAGE_BUDGET, IMAGE_BUDGET * size[0] * size[1] // (1280 * 720))


class ImageCache(Memo[pygame.Surface]):
    """Drawn pictures by the arguments that drew them (a ``Memo`` of surfaces).

    Callers only blit what they get, never draw on it. Bounded by the bytes of
    its pictures as well as by their number: a game draws thousands of texts
    once each (every message, count and score), and 4,000 of them held 87 MB
    at 1280x720 after a few games (``benchmarks/table_speed.py --measure games``).
    """

    def __init__(self, limit: int = 4000, budget: int = IMAGE_BUDGET) -> None:
        super().__init__(limit)
        self.budget = budget
        self.held = 0  # bytes of pixels of the pictures kept, turned copies included
        self._keys: dict[int, Hashable] = {}  # a kept picture (by identity) -> its key
        self._turns: dict[Hashable, dict[int, pygame.Surface]] = {}

    def put(self, key: Hashable, value: pygame.Surface) -> pygame.Surface:
        replaced = self._values.pop(key, None)
        if replaced is not None:
            self._forget(key, replaced)
        self._values[key] = value
        self._keys[id(value)] = key
        self.held += picture_bytes(value)
        self._trim(key)
        return value

    def turned(self, picture: pygame.Surface, rotation: int) -> pygame.Surface:
        """``picture`` turned clockwise by ``rotation``, kept beside it while it is kept.

        A panel facing a seat blits its texts and cards turned: each is turned
        once, and the turned copy counts in the budget and goes with its picture.
        A picture this cache does not hold is turned every time.
        """
        key = self._keys.get(id(picture))
        if key is None or self._values.get(key) is not picture:
            return turn_surface(picture, rotation)
        turns = self._turns.setdefault(key, {})
        turned = turns.get(rotation)
        if turned is None:
            turned = turns[rotation] = turn_surface(picture, rotation)
            self.held += picture_bytes(turned)
            self._trim(key)
        return turned

    def _trim(self, keep: Hashable) -> None:
        """Drop the least recently used pictures until within bounds, never ``keep``."""
        while len(self._values) > 1 and (len(self._values) > self.limit or self.held > self.budget):
            oldest = next(iter(self._values))
            if oldest == keep:
                break
            self._forget(oldest, self._values.pop(oldest))

    def _forget(self, key: Hashable, picture: pygame.Surface) -> None:
        self.held -= picture_bytes(picture)
        if self._keys.get(id(picture)) == key:
            del self._keys[id(picture)]
        for turned in self._turns.pop(key, {}).values():
            self.held -= picture_bytes(turned)


def picture_bytes(surface: pygame.Surface) -> int:
    """The bytes a surface's pixels take (its rows, padding included)."""
    return surface.get_pitch() * surface.get_height()


# --- drawing primitives ------------------------------------------------------------


# The decimal mark of each language of the table in seconds (CLDR's, as Babel gives
# them: ``tests/test_display_memory.py`` checks they agree).
DECIMAL_MARKS: dict[str, str] = {"en": ".", "de": ",", "ja": "."}


def thousandths(value: float) -> str:
    """``value`` with three decimals, rounded as Babel rounds: its shortest decimal
    (``repr``), half to even ("0.0005" -> "0.000", "0.0015" -> "0.002").

    In integers rather than ``decimal.Decimal``: Oss's toss timer was the only
    user of ``Decimal`` on the table, and its C library's code then stayed in
    the kiosk's memory (some 0.1 MB of it, read in for that one sum).
    """
    text = repr(value)
    sign = "-" if text.startswith("-") else ""
    mantissa, _, exponent = text.lstrip("-").partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = int(whole + fraction)  # value = digits * 10 ** shift
    shift = (int(exponent) if exponent else 0) - len(fraction) + 3  # in thousandths
    if shift >= 0:
        units = digits * 10**shift
    else:
        units, rest = divmod(digits, 10**-shift)
        if 2 * rest > 10**-shift or (2 * rest == 10**-shift and units % 2):
            units += 1
    return f"{sign}{units // 1000}.{units % 1000:03d}"


# CLDR's list patterns (as Babel 2.19 gives them) for the languages the table speaks,
# by (language, either): "A, B, and C" / "A, B, or C" and their German and Japanese.
LIST_PATTERNS: dict[tuple[str, bool], dict[str, str]] = {
    ("en", False): {
        "start": "{0}, {1}",
        "middle": "{0}, {1}",
        "end": "{0}, and {1}",
        "2": "{0} and {1}",
    },
    ("en", True): {
        "start": "{0}, {1}",
        "middle": "{0}, {1}",
        "end": "{0}, or {1}",
        "2": "{0} or {1}",
    },
    ("de", False): {
        "start": "{0}, {1}",
        "middle": "{0}, {1}",
        "end": "{0} und {1}",
        "2": "{0} und {1}",
    },
    ("de", True): {
        "start": "{0}, {1}",
        "middle": "{0}, {1}",
        "end": "{0} oder {1}",
        "2": "{0} oder {1}",
    },
    ("ja", False): {"start": "{0}、{1}", "middle": "{0}、{1}", "end": "{0}、{1}", "2": "{0}、{1}"},
    ("ja", True): {
        "start": "{0}、{1}",
        "middle": "{0}、{1}",
        "end": "{0}、または{1}",
        "2": "{0}または{1}",
    },
}


def join_list(parts: Sequence[str], patterns: Mapping[str, str]) -> str:
    """``parts`` joined with CLDR list ``patterns``, as ``babel.lists.format_list`` joins them."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        return patterns["2"].format(*parts)
    joined = patterns["start"].format(parts[0], parts[1])
    for part in parts[2:-1]:
        joined = patterns["middle"].format(joined, part)
    return patterns["end"].format(joined, parts[-1])


@dataclass(frozen=True)
class RememberingPresenter(Presenter):
    """A ``Presenter`` that remembers what it presented in a ``Memo`` shared by its renderer.

    A redraw presents the same messages again; presenting (catalog lookups,
    Babel's numbers and lists) costs more on a Pi core than drawing the cached
    picture of the result. The memo is keyed by everything that makes one
    presenter's words differ from another's (language, seating, nicknames, game,
    room).
    """

    memo: Memo[str] | None = field(default=None, compare=False, repr=False)
    _reader: Hashable = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        names = tuple(sorted(self.names.items()))
        key = (self.language, tuple(self.players), names, self.game_id, self.domain)
        object.__setattr__(self, "_reader", key)

    @classmethod
    def of(cls, words: Presenter, memo: Memo[str]) -> RememberingPresenter:
        """``words``'s reader, remembering in ``memo``."""
        return cls(
            words.language, words.players, words.names, words.game_id, words.domain, memo=memo
        )

    def number(self, value: float, pattern: str | None = None) -> str:
        """As ``Presenter.number``; a whole number under 1,000, and seconds (Oss's toss
        timer, "0.372 s") in the table's languages, without asking Babel.

        Every language of the table writes those as Python does ("-5", "999": no
        grouping, ASCII digits and minus), and asking Babel the first time loads
        its locale data: some 6 MB that an idle table does
        not need (``tests/test_display_memory.py`` checks both agree).
        """
        if pattern is None and type(value) is int and -1000 < value < 1000:
            return str(value)
        if pattern == SECONDS_PATTERN and type(value) in (int, float) and abs(value) < 1000:
            mark = DECIMAL_MARKS.get(ENGLISH if self.language == PSEUDO else self.language)
            if mark is not None:
                return thousandths(value).replace(".", mark)
        return super().number(value, pattern)

    def argument(self, value: Arg) -> str:
        """As ``Presenter.argument``; lists joined without Babel in the table's languages.

        Babel's list patterns come with its whole locale data (some 6 MB, and the
        attract screen lists the games): ``LIST_PATTERNS`` holds CLDR's patterns
        for the table's languages (``tests/test_display_memory.py`` checks they
        are Babel's). Other languages ask Babel.
        """
        if isinstance(value, Items):
            language = ENGLISH if self.language == PSEUDO else self.language
            patterns = LIST_PATTERNS.get((language, value.either))
            if patterns is not None:
                return join_list([self.argument(v) for v in value.values], patterns)
        return super().argument(value)

    def __call__(self, words: Words) -> str:
        if isinstance(words, str) or self.memo is None:
            return super().__call__(words)
        key = (self._reader, words)
        text = self.memo.get(key)
        if text is None:
            text = self.memo.put(key, super().__call__(words))
        return text


def card_label_size(width: int, height: int, label: str) -> int:
    """The size of the rank on a ``width`` x ``height`` card face."""
    return max(9, round(min(height * 0.6, width * (0.8 if len(label) <= 2 else 0.55))))


def card_corner_size(width: int, height: int) -> int:
    """The size of the small rank in the corner of a stacked card's visible strip."""
    return max(9, round(min(width, height * 0.4) * 0.5))


@dataclass
class Painter:
    """Draws with the shared look, upright, and records hit boxes where they land.

    Scenes draw upright, in their own coordinates: the painter's ``turn`` says
    where that lands on ``surface`` (a seat panel faces its seat, so it is
    turned). Every drawing goes through the painter's methods, which turn
    rectangles and points and blit pictures already turned, so a panel needs
    no upright copy turned pixel by pixel. Code that draws on ``surface``
    itself must only do so for a painter whose turn is ``straight``.
    """

    surface: pygame.Surface
    fonts: Fonts
    metrics: Metrics
    hits: list[tuple[pygame.Rect, UiAction]] = field(default_factory=list)
    # Whose words this painter writes: the panel's seat language, or the table's for
    # the centre. Every ``Text`` drawn goes through it; a plain str is drawn as it is.
    words: Presenter = field(default_factory=Presenter)
    # Where the upright drawing lands on ``surface``; hit boxes are kept where they land.
    turn: Turn = field(default_factory=Turn)
    # Where things that move are at this moment (the renderer's; a one-off picture's
    # stand still).
    motion: Motion = STILL
    # What the text drawn now is to its reader (``secondary()`` lowers it for a while):
    # the legibility standard's least size depends on it, and fitting never goes below.
    role: Role = Role.PRIMARY

    def __post_init__(self) -> None:
        # Scenes call ``words`` directly too: all of it goes through the fonts' memo.
        if not isinstance(self.words, RememberingPresenter):
            self.words = RememberingPresenter.of(self.words, self.fonts.presented)

    def present(self, words: Words) -> str:
        """``words`` as this painter's reader reads them (the same as ``self.words(words)``)."""
        return self.words(words)

    @property
    def area(self) -> pygame.Rect:
        """The upright area this painter draws in, in its own coordinates."""
        if self.turn.straight:
            return self.surface.get_rect()
        return pygame.Rect((0, 0), self.turn.size)

    def hit(self, rect: pygame.Rect, action: UiAction) -> None:
        """Make ``rect`` clickable: a click inside it means ``action``."""
        placed = self.turn.rect(rect)
        self.hits.append((placed, action))
        drawing = legibility.active()
        if drawing is not None:
            drawing.controls.append(placed)

    @contextmanager
    def secondary(self) -> Iterator[None]:
        """Text drawn in this block is secondary (hints, small print): ``display/legibility``."""
        before = self.role
        self.role = Role.SECONDARY
        try:
            yield
        finally:
            self.role = before

    @property
    def least_size(self) -> int:
        """The smallest size text of the painter's current role may have on this screen."""
        return legibility.least_size(self.metrics.unit, self.role)

    def place_text(
        self,
        image: pygame.Surface,
        rect: pygame.Rect,
        text: str,
        size: int,
        *,
        cut: bool = False,
        overflow: bool = False,
        group: int | None = None,
    ) -> None:
        """Blit a rendered line of ``text`` (``size``) at the upright ``rect``; the one way
        text reaches the canvas, so that a legibility recording sees all of it.

        ``cut``: it was shortened with "…"; ``overflow``: it is wider than its box.
        ``group`` ties the lines of one text block together (they may touch).
        """
        self.blit(image, rect, still=True)
        drawing = legibility.active()
        if drawing is None:
            return
        ink = image.get_bounding_rect().move(rect.topleft)
        placed = self.turn.rect(ink)
        clipped = overflow or (ink.w > 0 and not self.surface.get_clip().contains(placed))
        drawing.texts.append(
            DrawnText(
                text,
                placed,
                size,
                self.role,
                cut or text in drawing.shortened,
                clipped,
                group=len(drawing.texts) if group is None else group,
            )
        )

    # --- primitives, turned -------------------------------------------------------

    def rect(self, colour: Colour, rect: pygame.Rect, width: int = 0, radius: int = 0) -> None:
        """``pygame.draw.rect`` of an upright ``rect``, where it lands."""
        pygame.draw.rect(self.surface, colour, self.turn.rect(rect), width, radius)

    def fill(self, colour: Colour, rect: pygame.Rect) -> None:
        """Fill an upright ``rect`` with ``colour`` (no blending), where it lands."""
        self.surface.fill(colour, self.turn.rect(rect))

    def circle(self, colour: Colour, centre: tuple[int, int], radius: int, width: int = 0) -> None:
        """``pygame.draw.circle`` about the upright ``centre``, where it lands.

        pygame's circle of radius r about (x, y) covers pixels x - r to x + r - 1:
        its middle is the grid point (x, y), a pixel's corner, so that point is turned.
        """
        x, y = self.turn.point(centre)
        mount = self.turn.mount
        if width <= 0 or mount == 0:
            pygame.draw.circle(self.surface, colour, (x, y), radius, width)
            return
        # pygame's ring is not the same turned a quarter: drawn as the table's picture
        # had it (before the mounting turn, ``Turn.mount``) and turned as a picture.
        side = 2 * radius + 2  # a pixel to spare around the ring's 2 * radius square
        key = ("ring", colour, radius, width)
        ring = self.fonts.images.get(key)
        if ring is None:
            ring = pygame.Surface((side, side), pygame.SRCALPHA)
            pygame.draw.circle(ring, colour, (radius + 1, radius + 1), radius, width)
            ring = self.fonts.images.put(key, ring)
        self.surface.blit(self.fonts.images.turned(ring, mount), (x - radius - 1, y - radius - 1))

    def blit(self, image: pygame.Surface, rect: pygame.Rect, *, still: bool = False) -> None:
        """Put an upright ``image`` at the upright ``rect`` (its size), turned as the painter is.

        ``still`` says ``image`` is never drawn on again (the image cache's
        pictures): the cache then keeps its turned copy beside it.
        """
        rotation = self.turn.rotation
        if rotation:
            image = (
                self.fonts.images.turned(image, rotation)
                if still
                else turn_surface(image, rotation)
            )
        self.surface.blit(image, self.turn.rect(rect))

    def picture(
        self,
        key: Hashable,
        rect: pygame.Rect,
        draw: Callable[[pygame.Surface, pygame.Rect], None],
    ) -> None:
        """A drawing made of shapes (a die, a symbol) at the upright ``rect``.

        ``draw(image, where)`` draws it on a transparent ``rect``-sized image,
        in the image's coordinates ``where`` (``rect`` moved to the corner);
        the picture is kept by ``key`` (and turned once per turn), so it is
        drawn once however often it is shown.
        """
        image = self.fonts.images.get(("picture", key, rect.size))
        if image is None:
            image = pygame.Surface(rect.size, pygame.SRCALPHA)
            draw(image, pygame.Rect((0, 0), rect.size))
            image = self.fonts.images.put(("picture", key, rect.size), image)
        self.blit(image, rect, still=True)

    @contextmanager
    def clip(self, rect: pygame.Rect) -> Iterator[None]:
        """Draw only inside the upright ``rect`` (and inside any clip already set) for a while."""
        before = self.surface.get_clip()
        self.surface.set_clip(self.turn.rect(rect).clip(before))
        try:
            yield
        finally:
            self.surface.set_clip(before)

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
            self.rect(fill, rect, 0, r)
        if edge is not None and width > 0:
            # Most edges are small: drawn by pygame without asking for a recipe.
            large = 2 * (rect.w + rect.h) * width >= EDGE_LEAST_PIXELS
            recipe = self._edge_recipe(rect, edge, width, r) if large else None
            if recipe is None:
                self.rect(edge, rect, width, r)
            else:
                recipe.paint(self.surface, self.turn.rect(rect).topleft)

    def _edge_recipe(
        self, rect: pygame.Rect, edge: Colour, width: int, radius: int
    ) -> EdgeRecipe | None:
        """The kept recipe of a large box's edge where it lands, or None to draw it.

        Made at the turned size, so its pixels are those of drawing the turned
        rectangle. Only on an opaque surface: on one with alpha, colour keys differ.
        """
        placed = self.turn.rect(rect)
        surface = self.surface
        if surface.get_flags() & pygame.SRCALPHA:
            return None
        key = (placed.size, edge, width, radius, surface.get_bitsize(), surface.get_masks())
        edges = self.fonts.edges
        recipe = edges.get(key)
        if recipe is None:
            made = edge_recipe(surface, placed.size, edge, width, radius)
            recipe = edges.put(key, DRAWN if made is None else made)
        return None if recipe is DRAWN else recipe

    def render_text(
        self, words: Words, size: int, colour: Colour, bold: bool = False, max_width: int = 0
    ) -> pygame.Surface:
        """``words`` as a one-line surface; with ``max_width``, fitted (shrunk, then "…").

        Kept by what is drawn (the fitted line, its size, colour and weight), not by
        ``max_width``: a line drawn into boxes of different widths that it fits in
        either way (a seat's count in a narrow and a wide panel) is one picture,
        not one per width.
        """
        key = self._text_key(words, size, colour, bold, max_width)
        cached = self.fonts.images.get(key)
        if cached is not None:
            return cached
        _, text, size, _, _ = key
        return self.fonts.images.put(key, self.fonts.get(size, bold).render(text, True, colour))

    def _text_key(
        self, words: Words, size: int, colour: Colour, bold: bool, max_width: int
    ) -> tuple[str, str, int, Colour, bool]:
        """What ``render_text`` draws for these arguments (the fitted line, its size,
        colour and weight): the key its picture is kept by."""
        text = self.present(words)
        if max_width > 0:
            fitted = self.fit(text, max_width, 1 << 16, size, bold=bold, max_lines=1)
            size, text = fitted.size, fitted.lines[0] if fitted.lines else ""
        return ("text", text, size, colour, bold)

    def ink(
        self, words: Words, size: int, colour: Colour, bold: bool = False, max_width: int = 0
    ) -> pygame.Rect:
        """Where the letters of ``render_text``'s picture of these arguments are in it (its
        ``get_bounding_rect``), worked out once per picture drawn: a panel asks on every
        paint whether a line's feet fit, and scanning a picture's pixels costs more than
        blitting it."""
        key = self._text_key(words, size, colour, bold, max_width)
        known = self.fonts.inks.get(key)
        if known is None:
            found = self.render_text(words, size, colour, bold, max_width).get_bounding_rect()
            known = self.fonts.inks.put(key, (found.x, found.y, found.w, found.h))
        return pygame.Rect(known)

    def measure(self, text: str, size: int, bold: bool = False) -> int:
        """The width of ``text`` drawn at ``size``."""
        return self.fonts.get(size, bold).size(text)[0]

    def fit(
        self,
        words: Words,
        width: int,
        height: int,
        size: int,
        *,
        bold: bool = False,
        max_lines: int = 0,
        least: float = 0.7,
        keep: int = 1,
    ) -> Fitted:
        """``words`` fitted into a ``width`` x ``height`` box (see ``display/fitting.py``).

        It shrinks no further than the legibility standard allows for the
        painter's current ``role``: below that it is cut with "…" instead.
        """
        text = self.present(words)
        least = max(least, min(1.0, self.least_size / max(1, size)))
        key = (text, width, height, size, bold, max_lines, least, keep)
        fitted = self.fonts.fitted.get(key)
        if fitted is None:
            fitted = fitting.fit(
                text,
                width,
                height,
                size,
                lambda line, at: self.measure(line, at, bold),
                self.metrics.leading,
                least=least,
                max_lines=max_lines,
                keep=keep,
                cut_words=True,
            )
            self.fonts.fitted.put(key, fitted)
        return fitted

    def ellipsis(self, line: str, size: int, width: int, bold: bool = False) -> str:
        """``line`` ended with "…" after its last whole word that leaves room for it, or
        between letters when even its first word does not fit."""

        def measure(text: str, at: int) -> int:
            return self.measure(text, at, bold)

        cut = fitting.with_ellipsis(
            line.removesuffix(fitting.ELLIPSIS).rstrip() + " " + fitting.ELLIPSIS,
            width,
            size,
            measure,
        )
        cut = cut.replace(" " + fitting.ELLIPSIS, fitting.ELLIPSIS)
        # One word longer than the width (a long nickname) is cut between its letters,
        # never left to run into what stands beside it.
        cut = fitting.letters_cut(cut, width, size, measure)
        drawing = legibility.active()
        if drawing is not None and cut != line:
            drawing.shortened.add(cut)  # drawn later as a plain line: the recording knows
        return cut

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
        """Draw one line of text anchored at ``pos``; returns where it went.

        With ``max_width`` it is fitted to that width: shrunk to 70% at most,
        then ended with "…" after its last whole word.
        """
        shown, used, cut = self.present(text), size, False
        if max_width > 0:
            fitted = self.fit(shown, max_width, 1 << 16, size, bold=bold, max_lines=1)
            used, cut = fitted.size, fitted.cut
            shown = fitted.lines[0] if fitted.lines else ""
        image = self.render_text(shown, used, colour, bold)
        rect = image.get_rect(**{anchor: pos})
        overflow = 0 < max_width < image.get_width()
        self.place_text(image, rect, shown, used, cut=cut, overflow=overflow)
        return rect

    def centred_text(
        self,
        text: Words,
        rect: pygame.Rect,
        top: int,
        size: int,
        colour: Colour = TEXT,
        *,
        bold: bool = False,
    ) -> pygame.Rect:
        """One line centred across ``rect`` with its top at ``top``, fitted to ``rect``'s
        width (as ``text`` fits); returns where it went. The screens' headings and the
        lines under them."""
        return self.text(
            text, (rect.centerx, top), size, colour, bold=bold, anchor="midtop", max_width=rect.w
        )

    def fit_text(
        self,
        words: Words,
        rect: pygame.Rect,
        size: int,
        colour: Colour = TEXT,
        *,
        bold: bool = False,
        align: str = "center",
        valign: str = "center",
        max_lines: int = 0,
        fitted: Fitted | None = None,
    ) -> pygame.Rect:
        """Draw ``words`` inside ``rect`` on as many lines as it needs, fitted; where it went.

        ``align`` is "left", "center" or "right"; ``valign`` "top", "center" or
        "bottom". ``fitted`` draws an already fitted text (``distinct_labels``).
        """
        if fitted is None:
            fitted = self.fit(words, rect.w, rect.h, size, bold=bold, max_lines=max_lines)
        line = self.metrics.leading(fitted.size)
        total = len(fitted.lines) * line
        top = {"top": rect.top, "bottom": rect.bottom - total}.get(
            valign, rect.centery - total // 2
        )
        used = pygame.Rect(rect.centerx, top, 0, 0)
        drawing = legibility.active()
        group = len(drawing.texts) if drawing is not None else None
        for index, piece in enumerate(fitted.lines):
            image = self.render_text(piece, fitted.size, colour, bold)
            y = top + index * line + line // 2
            if align == "left":
                where = image.get_rect(midleft=(rect.left, y))
            elif align == "right":
                where = image.get_rect(midright=(rect.right, y))
            else:
                where = image.get_rect(center=(rect.centerx, y))
            self.place_text(
                image,
                where,
                piece,
                fitted.size,
                cut=fitted.cut and index == len(fitted.lines) - 1,
                overflow=image.get_width() > rect.w,
                group=group,
            )
            used = where if index == 0 else used.union(where)
        return used

    def distinct_labels(
        self, labels: Sequence[Words], width: int, height: int, size: int, *, bold: bool = False
    ) -> list[Fitted]:
        """``labels`` fitted to equal boxes, different labels kept different after cutting."""
        texts = [self.present(label) for label in labels]
        return fitting.distinct(
            texts,
            lambda text, keep: self.fit(text, width, height, size, bold=bold, keep=keep),
        )

    def wrap(self, words: Words, size: int, width: int, bold: bool = False) -> list[str]:
        """``words`` split into lines no wider than ``width`` (words kept whole when they fit).

        Japanese breaks between characters (never before 、。」); a word wider
        than ``width`` gets a line of its own, for ``text`` to fit.
        """
        text = self.present(words)
        key = ("wrap", text, width, size, bold)
        lines = self.fonts.wrapped.get(key)
        if lines is None:
            measure = self.measure
            found = fitting.wrap(text, width, size, lambda line, at: measure(line, at, bold))
            lines = self.fonts.wrapped.put(key, tuple(found))
        return list(lines)

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
        """The face of the card ``notation`` names in this painter's game, turned clockwise
        by ``rotation`` about the centre of ``rect``.

        ``rect`` is the card's upright size; ``number_at_top`` draws a small
        number in the corner as well, for stacked cards of which only a strip shows.
        """
        face = self.card_face(notation)
        key = ("card", rect.size, face, rotation, emphasis, dim, outline, number_at_top)
        placed = self.card_picture(
            key,
            rect,
            lambda: self._card_image(
                rect.size, face, rotation, emphasis, dim, outline, number_at_top
            ),
        )
        drawing = legibility.active()
        if drawing is not None:
            w, h = rect.size
            size = self.card_rank_size(face.text, w, h, emphasis)
            if number_at_top:
                size = min(size, card_corner_size(w, h))
            where = self.turn.rect(placed)
            clipped = not self.surface.get_clip().contains(where)
            group = len(drawing.texts)
            drawing.texts.append(
                DrawnText(face.text, where, size, self.role, False, clipped, group, card=True)
            )
        return placed

    def card_rank_size(self, label: str, width: int, height: int, emphasis: bool) -> int:
        """The size of the rank on a ``width`` x ``height`` face: ``card_label_size``, or
        smaller so that it fits whole (a rank is never cut; the legibility test reports
        a card too small for its rank)."""
        border = max(1, min(width, height) // (10 if emphasis else 18))
        room = width - 2 * border - 2
        size = card_label_size(width, height, label)
        while size > 9 and self.measure(label, size, True) > room:
            size -= 1
        return size

    def legible_card_width(self, notations: Sequence[str], height: int) -> int:
        """The narrowest card ``height`` tall (at least a card's proportion, 0.7 of it)
        on which every one of ``notations`` shows its rank at the legible size."""
        ranks = frozenset(self.card_face(notation).text for notation in notations)
        least = self.least_size
        key = (ranks, height, least)
        known = self.fonts.card_widths.get(key)
        if known is not None:
            return known
        width = round(height * 0.7)
        while width < height * 2 and any(
            self.card_rank_size(rank, width, height, False) < least for rank in ranks
        ):
            width += 1
        return self.fonts.card_widths.put(key, width)

    def card_face(self, notation: str) -> CardFace:
        """What the card ``notation`` shows, as the game this painter draws describes it
        (its deck's ``CardType``); without a game, the notation on a plain card."""
        key = (self.words.game_id, notation)
        face = self.fonts.faces.get(key)
        if face is None:
            deck = deck_of_card(self.words.game_id, notation)
            face = CardFace(notation) if deck is None else deck.face(notation)
            self.fonts.faces.put(key, face)
        return face

    def card_picture(
        self, key: Hashable, rect: pygame.Rect, draw: Callable[[], pygame.Surface]
    ) -> pygame.Rect:
        """A card face kept by ``key`` (``draw`` makes it the first time), centred on
        ``rect``; where it went. For a game's own faces as well as ``card``'s."""
        image = self.fonts.images.get(key)
        if image is None:
            Face.pictures += 1  # a card face is a picture, not words (the pseudo-locale test)
            try:
                image = self.fonts.images.put(key, draw())
            finally:
                Face.pictures -= 1
        placed = image.get_rect(center=rect.center)
        self.blit(image, placed, still=True)
        return placed

    def _card_image(
        self,
        size: tuple[int, int],
        face: CardFace,
        rotation: int,
        emphasis: bool,
        dim: bool,
        outline: Colour | None,
        number_at_top: bool,
    ) -> pygame.Surface:
        w, h = size
        image = pygame.Surface((w, h), pygame.SRCALPHA)
        fill, ink = card_paint(face)
        label = face.text
        if dim:
            fill, ink = blend(fill, PANEL, 0.55), blend(ink, PANEL, 0.45)
        radius = max(2, min(w, h) // 8)
        pygame.draw.rect(image, fill, image.get_rect(), 0, radius)
        edge = outline or ((255, 255, 255) if emphasis else blend(fill, (0, 0, 0), 0.45))
        border = max(1, min(w, h) // (10 if emphasis else 18))
        pygame.draw.rect(image, edge, image.get_rect(), border, radius)
        if number_at_top:
            corner = self.render_text(label, card_corner_size(w, h), ink, True, w - 4)
            image.blit(corner, (border + 2, border + 1))
        big = self.card_rank_size(label, w, h, emphasis)
        text = self.render_text(label, big, ink, True)
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

    def card_back(self, rect: pygame.Rect, count: int, size: int) -> pygame.Rect:
        """A face-down card with the count of face-down cards beside it (a times sign and the count)
        (on a card back small enough to fit a panel the count would be a few pixels
        tall); where both went."""
        self.box(rect, CARD_BACK, blend(CARD_BACK, (255, 255, 255), 0.4), max(1, rect.w // 14))
        count_at = (rect.right + self.metrics.pad, rect.centery)
        drawn = self.text(f"×{count}", count_at, size, TEXT, bold=True, anchor="midleft")  # noqa: RUF001
        return rect.union(drawn)

    def label_box(self, button: pygame.Rect) -> pygame.Rect:
        """Where a button's label goes inside the button."""
        return button.inflate(-2 * self.metrics.pad, -max(2, button.h // 14) * 2)

    def button(
        self,
        rect: pygame.Rect,
        label: Words,
        action: UiAction | None = None,
        *,
        selected: bool = False,
        size: int = 0,
        fitted: Fitted | None = None,
    ) -> None:
        """An on-screen button, clickable when ``action`` is given; its label on up to two lines.

        ``fitted`` is the label already fitted (``distinct_labels``, for a column of buttons).
        """
        fill = SELECTED if selected else BUTTON
        self.box(rect, fill, TURN if selected else BUTTON_EDGE, max(1, rect.h // 14))
        self.fit_text(
            label,
            self.label_box(rect),
            size or self.metrics.small,
            TEXT,
            bold=True,
            max_lines=2,
            fitted=fitted,
        )
        if action is not None:
            self.hit(rect, action)
