"""Tests of one game: oh_pshaw."""
