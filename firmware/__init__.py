"""firmware package."""
