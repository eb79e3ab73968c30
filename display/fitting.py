"""Making text fit its box: wrapping, shrinking, and an ellipsis at a word boundary.

One algorithm for every text the display draws (``Painter.text`` with a
``max_width``, ``Painter.fit_text`` for boxes of several lines, ``Painter.wrap``):

1. wrap the text into lines at word boundaries (Japanese, written without
   spaces, between characters, but never before a closing mark such as 、。」
   nor after an opening one such as 「);
2. if the lines do not fit the box, try smaller sizes down to ``least`` of the
   asked size (about 70%: smaller would be hard to read across a table);
3. if they still do not fit, keep the lines that do and end the last one
   with "…" after its last whole word. A word is never cut in the middle
   (a compound may break after its hyphen, as in print); only a single word
   too wide for the box even at the smallest size is shrunk further, or,
   with ``cut_words`` (the display's legibility floor, ``display/legibility.py``),
   cut between letters and ended with "…" instead.

Pure: it measures through a function it is given, so tests can use it
without pygame and ``display/theme.py`` with its fonts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

ELLIPSIS = "…"

# Japanese line breaking (kinsoku): no line starts with these ...
NO_BREAK_BEFORE = frozenset(
    "、。\uff0c\uff0e・\uff1a\uff1b\uff1f\uff01ー」』\uff09\u3015\uff3d\uff5d〉》】\u2019\u201d"
    "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々…‥,.!?:;)]}%"
)
# ... and none ends with these.
NO_BREAK_AFTER = frozenset("「『\uff08\u3014\uff3b\uff5b〈《【\u2018\u201c([{")

# Inside a word, a line may also break after these (the mark stays at the line's end).
BREAK_AFTER = frozenset("-_/")

Measure = Callable[[str, int], int]
"""The width of a string at a size (pixels)."""


def is_wide(char: str) -> bool:
    """Whether ``char`` is written without spaces around it (CJK ideographs, kana, full-width)."""
    code = ord(char)
    return (
        0x3000 <= code <= 0x30FF  # CJK punctuation, hiragana, katakana
        or 0x3400 <= code <= 0x4DBF
        or 0x4E00 <= code <= 0x9FFF  # CJK ideographs
        or 0xF900 <= code <= 0xFAFF
        or 0xFF00 <= code <= 0xFFEF  # full-width forms
    )


@dataclass(frozen=True)
class Token:
    """A piece a line may break before: a word, or one Japanese character with its marks."""

    text: str
    space_before: bool


# Fitting a new text wraps it at some six sizes, and each wrap asks for its pieces: the
# last texts' pieces are kept (a few hundred short tuples) so they are split once.
TOKENS_KEPT = 256


@functools.lru_cache(maxsize=TOKENS_KEPT)
def tokens(text: str) -> tuple[Token, ...]:
    """``text`` as the pieces lines are made of (whitespace collapsed to single spaces)."""
    return tuple(_split(text))


def _split(text: str) -> list[Token]:
    found: list[Token] = []
    current = ""
    space = False
    wide = False
    any_wide = False

    def flush() -> None:
        nonlocal current, space
        if current:
            found.append(Token(current, space))
            current = ""
            space = False

    for char in text:
        if char.isspace():
            flush()
            space = bool(found)
            wide = False
            continue
        this_wide = is_wide(char)
        if not current:
            if found and not space and char in NO_BREAK_BEFORE:
                # A closing mark stays with what it closes.
                last = found.pop()
                current, space = last.text, last.space_before
            elif this_wide:
                any_wide = True  # a piece that starts wide (all the second pass looks at)
            current += char
        elif char in NO_BREAK_BEFORE or current[-1] in NO_BREAK_AFTER:
            current += char
        elif (this_wide or wide) and not _one_word(current, char):
            flush()
            current = char
            any_wide = any_wide or this_wide
        elif current[-1] in BREAK_AFTER and not _in_a_number(current, char):
            # A compound ("Keine-Trumpf-Runde", "Maximilianus-Leo") may break after its
            # hyphen: the hyphen ends the line, nothing is left out.
            flush()
            current = char
        else:
            current += char
        wide = this_wide
    flush()
    # Most texts have no wide character: they skip the second pass (a tap's frame wraps
    # dozens of texts, several sizes each).
    return _short_wide_words_whole(found) if any_wide else found


# Japanese lines may break between any two characters, but not inside a number with its
# counter ("7" / "枚", "第" / "2", "7" / "トリック") nor inside a short katakana word
# ("トリッ" / "ク"): these read as one word. A katakana word longer than this breaks
# after every sixth character (a narrow panel's line holds about six at the least size).
KATAKANA_WORD = 6
NUMBER_PREFIXES = frozenset("第全約")


def _is_kanji(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf"


def _is_katakana(char: str) -> bool:
    # The katakana block but its middle dot "・", which separates words.
    return "\u30a1" <= char <= "\u30ff" and char != "・"


def _one_word(current: str, char: str) -> bool:
    """Whether ``char`` continues the piece ``current`` across a Japanese character
    boundary: a counter after a number, a number after its prefix, a short katakana word."""
    last = current[-1]
    if last.isascii() and last.isdigit():
        return _is_kanji(char) or _is_katakana(char)
    if char.isascii() and char.isdigit():
        return last in NUMBER_PREFIXES
    return _is_katakana(last) and _is_katakana(char) and len(current) < KATAKANA_WORD


def _in_a_number(current: str, char: str) -> bool:
    """Whether a hyphen ending ``current`` stands between two digits ("7-1-7枚"): a
    range of numbers is not broken after its hyphen as a compound word is."""
    return char.isdigit() and len(current) >= 2 and current[-2].isdigit()


# A run of Japanese characters between spaces this short is a word to keep whole: a
# language's own name in another language's label ("Sprache: 日本語" broke as
# "Sprache: 日" / "本語"). Longer runs are sentences, broken between characters.
SHORT_WIDE_WORD = 4


def _short_wide_words_whole(found: list[Token]) -> list[Token]:
    """``found`` with each short run of wide-character tokens between spaces made one."""
    out: list[Token] = []
    index = 0
    while index < len(found):
        end = index + 1
        if is_wide(found[index].text[0]):
            while end < len(found) and not found[end].space_before and is_wide(found[end].text[0]):
                end += 1
        run = found[index:end]
        opened = index == 0 or run[0].space_before
        closed = end == len(found) or found[end].space_before
        short = sum(len(t.text) for t in run) <= SHORT_WIDE_WORD
        if len(run) > 1 and opened and closed and short:
            out.append(Token("".join(t.text for t in run), run[0].space_before))
        else:
            out.extend(run)
        index = end
    return out


def join(pieces: Sequence[Token]) -> str:
    """Tokens as the text of one line."""
    out = ""
    for index, token in enumerate(pieces):
        out += (" " if token.space_before and index else "") + token.text
    return out


def wrap(text: str, width: int, size: int, measure: Measure) -> list[str]:
    """``text`` in lines no wider than ``width`` (a word wider than that gets a line of its own)."""
    single = " ".join(text.split())
    if measure(single, size) <= width:
        return [single] if single else []
    pieces = tokens(text)
    # Lines are first broken by adding up the pieces' widths: each piece is measured
    # once (and the fonts remember it: words recur from message to message), where
    # measuring every longer trial line costs a tap's frame a millisecond on a Pi
    # core. A sum may differ from the line's own width by a pixel or two (kerning,
    # the last glyph's overhang), so every line is measured once more, and should
    # one not fit, the lines are broken again by measuring each trial line.
    space = measure(" ", size)
    lines: list[list[Token]] = []
    current: list[Token] = []
    used = 0
    for token in pieces:
        piece = measure(token.text, size)
        extra = piece + (space if token.space_before and current else 0)
        if current and used + extra > width:
            lines.append(current)
            current, used = [Token(token.text, False)], piece
        else:
            current.append(token)
            used += extra
    if current:
        lines.append(current)
    found = [join(line) for line in lines]
    pairs = zip(lines, found, strict=True)
    if all(len(line) == 1 or measure(out, size) <= width for line, out in pairs):
        return found
    return _wrap_measuring(pieces, width, size, measure)


def _wrap_measuring(pieces: Sequence[Token], width: int, size: int, measure: Measure) -> list[str]:
    """``pieces`` in lines, each trial line measured whole (exact, and slower)."""
    lines: list[list[Token]] = []
    current: list[Token] = []
    for token in pieces:
        if current and measure(join([*current, token]), size) > width:
            lines.append(current)
            current = [Token(token.text, False)]
        else:
            current.append(token)
    if current:
        lines.append(current)
    return [join(line) for line in lines]


def with_ellipsis(line: str, width: int, size: int, measure: Measure, keep: int = 1) -> str:
    """``line`` shortened at a word boundary so that it and "…" fit ``width``.

    At least ``keep`` pieces stay (even if they overflow: the caller shrinks
    then); a line that fits as it is is returned unchanged.
    """
    if measure(line, size) <= width:
        return line
    pieces = tokens(line)
    for count in range(len(pieces) - 1, max(0, keep - 1), -1):
        shorter = join(pieces[:count]) + ELLIPSIS
        if measure(shorter, size) <= width:
            return shorter
    if len(pieces) <= max(1, keep):
        return line  # nothing to leave out: the caller shrinks it
    return join(pieces[: max(1, keep)]) + ELLIPSIS


@dataclass(frozen=True)
class Fitted:
    """Text fitted to a box: its lines, the size they are drawn at, and whether it was cut."""

    lines: tuple[str, ...]
    size: int
    cut: bool


def fit(
    text: str,
    width: int,
    height: int,
    size: int,
    measure: Measure,
    leading: Callable[[int], int],
    *,
    least: float = 0.7,
    max_lines: int = 0,
    keep: int = 1,
    cut_words: bool = False,
) -> Fitted:
    """``text`` fitted into a ``width`` x ``height`` box (see the module docstring).

    ``max_lines`` (0: as many as the height holds) limits the lines; ``keep``
    is how many pieces a cut must keep (``distinct`` asks for more).
    ``cut_words``: never smaller than ``least``; a word still too wide is cut.
    """
    floor = max(6, round(size * least))

    def room(step: int) -> int:
        lines = max(1, height // max(1, leading(step)))
        return min(lines, max_lines) if max_lines else lines

    def uncut(words: str, step: int) -> Fitted | None:
        lines = wrap(words, width, step, measure)
        if len(lines) <= room(step) and all(measure(ln, step) <= width for ln in lines):
            return Fitted(tuple(lines), step, False)
        return None

    def whole(words: str, sizes: range) -> Fitted | None:
        """``words`` uncut at the largest of ``sizes`` (largest first) where it fits, if any.

        A text that fits at a size fits at the smaller ones, so the largest is
        found by halving: a new message is wrapped some 6 times, not at each of
        the 15-odd sizes down to the smallest (each a dozen measurements).
        """
        if not sizes:
            return None
        best = uncut(words, sizes[0])
        if best is not None or len(sizes) == 1:
            return best
        best = uncut(words, sizes[-1])
        if best is None:
            return None  # not even at the smallest size
        fits, fails = len(sizes) - 1, 0  # indices into sizes
        while fits - fails > 1:
            middle = (fits + fails) // 2
            found = uncut(words, sizes[middle])
            if found is None:
                fails = middle
            else:
                fits, best = middle, found
        return best

    if "\n" not in text and measure(text, size) <= width and room(size) >= 1:
        return Fitted((" ".join(text.split()),), size, False)  # most texts: at once
    found = whole(text, range(size, floor - 1, -1))
    if found is not None:
        return found
    # Too long even at the smallest size: the lines that fit, the last one cut.
    step = floor
    lines = wrap(text, width, step, measure)
    kept = lines[: room(step)]
    if len(lines) > len(kept):
        kept[-1] = kept[-1] + " " + ELLIPSIS  # measured and shortened below
    last = with_ellipsis(kept[-1], width, step, measure, keep)
    if last.endswith(" " + ELLIPSIS):
        last = last[: -len(ELLIPSIS) - 1] + ELLIPSIS
    kept[-1] = last
    if keep > 1:
        pieces = tokens(text)
        shown = sum(len(tokens(line.removesuffix(ELLIPSIS))) for line in kept)
        if shown < keep < len(pieces):
            # Labels that must differ: keep the words up to where they differ, smaller.
            smallest = step - 1 if cut_words else 5
            short = whole(join(pieces[:keep]) + ELLIPSIS, range(step, smallest, -1))
            if short is not None:
                return Fitted(short.lines, short.size, True)
    if cut_words:
        # A single piece wider than the box even so: cut between its letters, and the
        # text ends there ("…" inside the text, with lines after it, would read as a gap).
        for index, line in enumerate(kept):
            if measure(line, step) > width:
                kept = [*kept[:index], letters_cut(line, width, step, measure)]
                break
        return Fitted(tuple(line for line in kept if line), step, True)
    # A single piece wider than the box even so: smaller still, down to a legible minimum.
    while step > 6 and any(measure(line, step) > width for line in kept):
        step -= 1
    return Fitted(tuple(kept), step, True)


def letters_cut(line: str, width: int, size: int, measure: Measure) -> str:
    """``line`` as it is when it fits ``width``, else its first letters and "…" that do;
    nothing in a box too narrow for one letter and "…" (a sliver of a letter says less)."""
    if measure(line, size) <= width:
        return line
    body = line.removesuffix(ELLIPSIS)
    for end in range(len(body) - 1, 0, -1):
        shorter = body[:end].rstrip() + ELLIPSIS
        if measure(shorter, size) <= width:
            return shorter
    return ""


def distinct(
    texts: Sequence[str],
    fit_one: Callable[[str, int], Fitted],
) -> list[Fitted]:
    """Each of ``texts`` fitted, keeping different texts different once cut.

    ``fit_one(text, keep)`` fits one text keeping at least ``keep`` pieces.
    When two different texts come out the same ("B11 face …" twice), each is
    fitted again keeping the pieces up to the first one where they differ.
    """
    fitted = [fit_one(text, 1) for text in texts]
    for a in range(len(texts)):
        for b in range(a + 1, len(texts)):
            if texts[a] == texts[b] or fitted[a].lines != fitted[b].lines:
                continue
            ta, tb = tokens(texts[a]), tokens(texts[b])
            differ = next(
                (i for i, (x, y) in enumerate(zip(ta, tb, strict=False)) if x.text != y.text),
                min(len(ta), len(tb)),
            )
            fitted[a] = fit_one(texts[a], differ + 1)
            fitted[b] = fit_one(texts[b], differ + 1)
    return fitted
