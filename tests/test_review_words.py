"""The in-context review script (docs/review_words.py) draws the screens in a language and
lists the sentences each shows beside their English keys."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from docs import review_words


@pytest.mark.slow  # walks the table's screens and draws 15 pictures: some 10 s on 2 cores
def test_it_draws_the_table_s_screens_in_german_with_their_sentences(tmp_path: Path) -> None:
    assert review_words.main(["--language", "de", "--only", "table", "--out", str(tmp_path)]) == 0
    pictures = sorted(tmp_path.glob("*.png"))
    sentences = (tmp_path / "sentences.txt").read_text(encoding="utf-8")
    assert len(pictures) > 10 and sentences.count("## ") == len(pictures)
    assert pygame.image.load(str(pictures[0])).get_size() == (1280, 720)
    assert f"## {pictures[1].name}: menu" in sentences
    # The menu's title in German, with the key it came from under it.
    assert "  Wähle ein Spiel\n      <- Choose a game\n" in sentences


def test_it_refuses_a_size_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert review_words.main(["--language", "ja", "--size", "big", "--out", str(tmp_path)]) == 2
    assert "WIDTHxHEIGHT" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())
