"""Tests of one game: oskar."""
