"""Every message fits every text box (issue 12, item 5).

Each key of every catalog domain, in English, German and Japanese, with
worst-case arguments (a 16-character nickname, four-digit numbers, lists of
seven seats), is fitted into each kind of text box the display draws
(``display/text_boxes.py``) at 800x480, 1280x720 and 1920x1080. It fails when
the fitted text overflows its box, is cut in the middle of a word, or uses a
character its font has no glyph for. Labels that must differ (Oshaka's
face-up and face-down placement buttons) must still differ once fitted.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pygame
import pytest

from controller.games import words as w
from controller.games.words import Arg, Items, Player, Text, fields
from controller.words import Presenter
from controller.words.catalogs import domains
from controller.words.extract import template
from display.fitting import BREAK_AFTER, ELLIPSIS, NO_BREAK_BEFORE, is_wide, tokens
from display.text_boxes import RESOLUTIONS, TextBox, text_boxes
from display.theme import Fonts, Metrics, Painter

LANGUAGES = ("en", "de", "ja")
NICKNAME = "Maximilianus-Leo"  # 16 characters, one word: the longest a member card holds
assert len(NICKNAME) == 16
BIG = 8888  # four digits: the widest number a score or count reaches
ENGINE_PLAYERS = tuple(range(7))


def worst(name: str) -> Arg:
    """The widest plausible argument for a field called ``name``."""
    base = name.rstrip("s")
    plural = name.endswith("s") and name not in ("seconds",)
    one: Arg
    if base in ("player", "winner", "dealer", "chief", "leader"):
        one = Player(6)
    elif base == "seat":
        one = w.Seat(6)
    elif base == "card":
        one = w.Card("TH")
    elif base == "suit":
        one = w.Suit("S")
    elif name == "seconds":
        return w.Seconds(88.888)
    elif base in ("change", "delta"):
        one = w.Signed(-BIG)
    elif base in ("name", "nickname"):
        one = w.Verbatim(NICKNAME)
    else:
        one = BIG
    if plural and not isinstance(one, int):
        return Items(tuple(Player(p) if isinstance(one, Player) else one for p in range(7)))
    return one


def messages() -> Iterator[tuple[str, Text]]:
    """(domain, message) for every key of every domain, with worst-case arguments."""
    for domain in domains():
        for message in template(domain):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
            names = set().union(*(fields(str(i)) for i in ids))
            args = tuple((n, worst(n)) for n in sorted(names) if n != "n")
            if len(ids) > 1:
                yield domain.name, Text(str(ids[0]), args, str(ids[1]), BIG)
            else:
                yield domain.name, Text(str(ids[0]), args)


def check(text: str, lines: tuple[str, ...], language: str) -> str | None:
    """Why ``lines`` is not ``text`` cut at a word (or Japanese character) boundary, or None."""
    kept = [line.removesuffix(ELLIPSIS) for line in lines]
    if language == "ja" or any(is_wide(c) for c in text):
        for line in lines[1:]:
            if line[:1] in NO_BREAK_BEFORE:
                return f"a line starts with {line[:1]!r}"
    source = " ".join(text.split())
    shown = " ".join(" ".join(k.split()) for k in kept).strip()
    # Wrapping may take out the spaces between Japanese characters' lines.
    if not source.replace(" ", "").startswith(shown.replace(" ", "")):
        return f"{shown!r} is not the start of {source!r}"
    if " ".join(lines) == source:
        return None  # shown whole (an ellipsis of the sentence's own is no cut)
    if lines and lines[-1].endswith(ELLIPSIS) and not any(is_wide(c) for c in text):
        rest = source.replace(" ", "")[len(shown.replace(" ", "")) :]
        words = source.split()
        # The kept text must end where a word of the source ends.
        ends = {len("".join(words[: i + 1])) for i in range(len(words))}
        # A compound may break after its hyphen (display/fitting.py BREAK_AFTER).
        joined = "".join(words)
        ends |= {i + 1 for i, c in enumerate(joined) if c in BREAK_AFTER}
        if rest and len(shown.replace(" ", "")) not in ends:
            return f"cut mid-word: {lines[-1]!r}"
    return None


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.init()
    found = Fonts()
    if found.fallback:
        pytest.fail(
            "the Noto fonts are missing: sudo apt-get install fonts-noto-core fonts-noto-cjk"
        )
    return found


@pytest.fixture(scope="module")
def all_messages() -> tuple[tuple[str, Text], ...]:
    """``messages()`` read once for the module's tests: Babel's extraction of every domain's
    sources takes some 2-5 s, and each size's tests and each language's face-up/face-down
    pairs read it again."""
    found = tuple(messages())
    assert len(found) > 40  # the catalogs were read
    return found


# 12-16 s a size on 2 busy cores: the quick run keeps the smallest screen (where labels
# are squeezed most), --runslow the others.
RESOLUTIONS_QUICK_FIRST = [
    min(RESOLUTIONS),
    *(pytest.param(size, marks=pytest.mark.slow) for size in sorted(RESOLUTIONS)[1:]),
]


# About 1 ms per fitting: 6 s on one core for the 59 keys of the first catalogs
# (x 3 languages x 9 boxes x 3 sizes), growing with every key the games add: slow.
@pytest.mark.slow
@pytest.mark.parametrize("size", RESOLUTIONS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_message_fits_every_box_in_every_language(
    fonts: Fonts, all_messages: tuple[tuple[str, Text], ...], size: tuple[int, int]
) -> None:
    boxes = text_boxes(size)
    problems: list[str] = []
    for language in LANGUAGES:
        reader = Presenter(language, ENGINE_PLAYERS, {6: NICKNAME})
        p = Painter(pygame.Surface((8, 8)), fonts, Metrics.for_size(size), words=reader)
        # Some 6-8 % of the texts are another key's text word for word (a sentence
        # several games say): fitted once, each key is still named where it misfits.
        fitted: dict[tuple[str, str], str | None] = {}
        for domain, message in all_messages:
            text = reader(message)
            for box in boxes:
                if (text, box.name) not in fitted:
                    fitted[text, box.name] = fitted_problem(p, text, box, language)
                problem = fitted[text, box.name]
                if problem is not None:
                    problems.append(f"{language} {box.name} [{domain}] {message.key!r}: {problem}")
    assert not problems, f"{len(problems)} misfits, e.g.:\n" + "\n".join(problems[:25])


def fitted_problem(p: Painter, text: str, box: TextBox, language: str) -> str | None:
    fitted = p.fit(text, box.width, box.height, box.size, bold=box.bold, max_lines=box.max_lines)
    face = p.fonts.get(fitted.size, box.bold)
    for line in fitted.lines:
        width = face.size(line)[0]
        if width > box.width:
            return f"{line!r} is {width} px wide in a box of {box.width}"
        lacking = face.missing(line)
        if lacking:
            return f"no glyph for {lacking!r}"
    used = len(fitted.lines) * p.metrics.leading(fitted.size)
    if used > max(box.height, p.metrics.leading(fitted.size)):
        return f"{len(fitted.lines)} lines take {used} px of {box.height}"
    if box.max_lines and len(fitted.lines) > box.max_lines:
        return f"{len(fitted.lines)} lines where {box.max_lines} fit"
    if fitted.lines and word_wider_than_box(text, fitted.lines[-1], lambda w: face.size(w)[0], box):
        return None  # at the least size one word is wider than the box: cut between letters
    return check(text, fitted.lines, language)


def word_wider_than_box(text: str, last: str, measure: Callable[[str], int], box: TextBox) -> bool:
    """Whether ``last`` (the fitted text's last line) is the start of one word of ``text``
    that, with "…" after it, is wider than ``box``: the legibility floor cuts such a word
    between its letters rather than shrink it (display/fitting.py)."""
    body = last.removesuffix(ELLIPSIS).strip()
    if last == body or not body or " " in body:
        return False
    # A word, or a piece of a compound where a line may break (after "-", "/", "_", ...).
    pieces = [*text.split(), *(token.text.strip() for token in tokens(text))]
    word = next((w for w in pieces if w.startswith(body)), None)
    return word is not None and measure(word + ELLIPSIS) > box.width


def face_up_down_pairs(
    language: str, all_messages: tuple[tuple[str, Text], ...]
) -> list[tuple[str, str]]:
    """The placement buttons' labels, from the catalogs where they are keys, and one example."""
    reader = Presenter(language, ENGINE_PLAYERS, {}, "oshaka-trick")
    pairs = [("B11 face up", "B11 face down")] if language == "en" else []
    keys = [m for _, m in all_messages]
    ups = [m for m in keys if "face up" in m.key and len(m.key) < 30]
    downs = [m for m in keys if "face down" in m.key and len(m.key) < 30]
    for up in ups:
        for down in downs:
            if up.key.replace("face up", "face down") == down.key:
                pairs.append((reader(up), reader(down)))
    return pairs


@pytest.mark.parametrize("size", RESOLUTIONS_QUICK_FIRST, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.slow  # over 5 s in the quick run on 2 cores (quiet, -n 4)
def test_labels_that_must_differ_stay_different(
    fonts: Fonts, all_messages: tuple[tuple[str, Text], ...], size: tuple[int, int]
) -> None:
    box = next(b for b in text_boxes(size) if b.name == "button label")
    checked = 0
    for language in LANGUAGES:
        p = Painter(pygame.Surface((8, 8)), fonts, Metrics.for_size(size))
        for up, down in face_up_down_pairs(language, all_messages):
            # Narrower than any real button too: the words that differ must survive the cut.
            for width in (box.width, box.width * 2 // 3):
                a, b = p.distinct_labels([up, down], width, box.height, box.size, bold=True)
                assert a.lines != b.lines, f"{language}: {up!r} and {down!r} both read {a.lines}"
                checked += 1
    assert checked >= 2


def test_the_check_finds_a_word_cut_in_the_middle_and_a_misplaced_mark() -> None:
    assert check("place a card face up", ("place a card…",), "en") is None
    assert check("place a card face up", ("place a ca…",), "en") is not None
    assert check("place a card face up", ("place a", "card face up"), "en") is None
    assert check("カードを出してください。", ("カードを出してください", "。"), "ja") is not None
    assert check("カードを出してください。", ("カードを出して", "ください。"), "ja") is None
