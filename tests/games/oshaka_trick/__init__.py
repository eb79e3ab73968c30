"""Tests of one game: oshaka_trick."""
