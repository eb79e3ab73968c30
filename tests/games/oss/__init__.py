"""Tests of one game: oss."""
