"""The fitting rules (display/fitting.py) with a simple measure: every character 10 px wide."""

from __future__ import annotations

from display.fitting import Fitted, distinct, fit, tokens, with_ellipsis, wrap


def width(text: str, size: int) -> int:
    return len(text) * size // 2


def leading(size: int) -> int:
    return size


def test_wrapping_keeps_words_whole() -> None:
    assert wrap("place a card face up", 100, 20, width) == ["place a", "card face", "up"]
    assert wrap("extraordinarily long", 100, 20, width) == ["extraordinarily", "long"]


def test_japanese_breaks_between_characters_but_never_before_a_closing_mark() -> None:
    pieces = [t.text for t in tokens("カードを出す。「切り札」は♠")]
    assert "す。" in pieces and "「切" in pieces and "札」" in pieces
    for line in wrap("あいうえおかきくけこ、さしすせそ。", 100, 20, width):
        assert line[0] not in "、。"


def test_a_short_japanese_word_between_spaces_stays_whole() -> None:
    # A language's own name in a German label: "Sprache: 日" / "本語" read as two words.
    assert wrap("Sprache: 日本語", 100, 20, width) == ["Sprache:", "日本語"]
    assert [t.text for t in tokens("言語 日本語 です")] == ["言語", "日本語", "です"]
    # A longer run is a sentence, broken between characters as before; so is a run
    # that a space does not open or close.
    assert len(tokens("あいうえお")) == 5
    assert [t.text for t in tokens("Seat 3の席")] == ["Seat", "3", "の", "席"]


def test_long_text_shrinks_before_it_is_cut() -> None:
    fitted = fit("place a card face up", 170, 20, 20, width, leading)
    assert fitted == Fitted(("place a card face up",), 17, False)


def test_text_too_long_ends_with_an_ellipsis_after_a_whole_word() -> None:
    fitted = fit("place a card face up now please", 100, 20, 20, width, leading)
    assert fitted.cut and fitted.size == 14
    assert fitted.lines == ("place a card…",)
    assert with_ellipsis("a b c d e f", 50, 20, width) == "a b…"


def test_a_box_of_two_lines_cuts_its_second() -> None:
    fitted = fit("one two three four five six seven", 100, 40, 20, width, leading, max_lines=2)
    assert len(fitted.lines) == 2 and fitted.lines[-1].endswith("…")


def test_labels_that_would_read_the_same_keep_the_word_that_differs() -> None:
    def one(text: str, keep: int) -> Fitted:
        return fit(text, 70, 20, 20, width, leading, keep=keep)

    plain = [one("B11 face up now", 1), one("B11 face down now", 1)]
    assert plain[0].lines == plain[1].lines  # the problem
    up, down = distinct(["B11 face up now", "B11 face down now"], one)
    assert up.lines != down.lines
    assert up.lines[0].startswith("B11 face up") and down.lines[0].startswith("B11 face down")


def test_a_line_whose_summed_width_fits_but_whose_own_width_does_not_is_broken_again() -> None:
    """Lines are broken by adding up word widths, then each is measured whole: a pair
    that kerns wider than its parts ("AV" here) must not overflow."""

    def kerning(text: str, size: int) -> int:
        return len(text) * 10 + 25 * text.count("A V")

    lines = wrap("A V B", 50, 10, kerning)
    assert lines == ["A", "V B"]
    assert all(kerning(line, 10) <= 50 for line in lines)


def test_words_are_measured_once_each_when_the_sums_fit() -> None:
    asked: list[str] = []

    def measure(text: str, size: int) -> int:
        asked.append(text)
        return len(text) * 10

    assert wrap("one two three four", 90, 10, measure) == ["one two", "three", "four"]
    # The lines found are measured whole once; no longer trial line is.
    assert "one two three" not in asked
    assert "three four" not in asked


def test_the_largest_size_that_fits_is_found_by_halving() -> None:
    """The size chosen is the largest at which the text fits whole, found with a handful
    of wraps rather than one per size."""
    sizes_asked: set[int] = set()

    def measure(text: str, size: int) -> int:
        sizes_asked.add(size)
        return len(text) * size // 2

    text = "a longer message about who won the trick and why"
    got = fit(text, 200, 60, 40, measure, leading, least=0.5)
    assert not got.cut
    expected = max(
        size
        for size in range(20, 41)
        if len(wrap(text, 200, size, width)) * size <= 60
        and all(width(line, size) <= 200 for line in wrap(text, 200, size, width))
    )
    assert got.size == expected
    assert len(sizes_asked) <= 7  # 21 sizes to choose from


def test_a_text_too_long_at_the_smallest_size_is_cut_without_trying_every_size() -> None:
    sizes_asked: set[int] = set()

    def measure(text: str, size: int) -> int:
        sizes_asked.add(size)
        return len(text) * size // 2

    got = fit("word " * 40, 100, 20, 20, measure, leading)
    assert got.cut and got.lines[-1].endswith("…")
    assert sizes_asked <= {20, 14, 13, 12, 11, 10, 9, 8, 7, 6}  # the largest, then the smallest
    assert 19 not in sizes_asked and 15 not in sizes_asked


def test_with_cut_words_a_word_too_wide_is_cut_not_shrunk() -> None:
    shrunk = fit("Wilhelmina-Maximiliane", 60, 20, 20, width, leading)
    cut = fit("Wilhelmina-Maximiliane", 60, 20, 20, width, leading, cut_words=True)
    assert shrunk.size < 14  # below the floor of 70%
    assert cut.size == 14 and cut.cut
    assert len(cut.lines) == 1 and cut.lines[0].endswith("…")
    assert width(cut.lines[0], cut.size) <= 60
    assert "Wilhelmina-Maximiliane".startswith(cut.lines[0].removesuffix("…"))


def test_japanese_keeps_a_number_with_its_counter_and_a_short_katakana_word_whole() -> None:
    # "7" / "枚" at a line's end read as two things; so did "トリッ" / "ク".
    assert [t.text for t in tokens("カードを1枚タッチ")] == ["カード", "を", "1枚", "タッチ"]
    assert [t.text for t in tokens("第2ラウンドへ")] == ["第2ラウンド", "へ"]
    assert "7トリック" in [t.text for t in tokens("ビッド合計7と7トリック")]
    # A range of numbers is not broken after its hyphen as a compound word is.
    assert [t.text for t in tokens("ホイスト 7-1-7枚")] == ["ホイスト", "7-1-7枚"]
    assert [t.text for t in tokens("Keine-Trumpf-Runde")] == ["Keine-", "Trumpf-", "Runde"]
    # A long katakana word still breaks, after every sixth character (a narrow panel's line
    # holds about six at the least size).
    assert [t.text for t in tokens("アイウエオカキクケコ")] == ["アイウエオカ", "キクケコ"]
    for line in wrap("カードを1枚タッチします", 60, 20, width):
        assert not line.startswith("枚") and not line.startswith("ッ")
