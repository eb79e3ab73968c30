"""Words for people: the presenter, the gettext catalogs and the pseudo-locale.

Messages are data (``controller.games.words``: ``say``, ``say_plural`` and the
typed arguments); this package turns them into a reader's language. See
docs/words.md for how to write a message and how to add a translation.
"""

from controller.words.catalogs import LANGUAGE_NAMES, LANGUAGES, PSEUDO
from controller.words.presenter import Presenter, french_card

__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "PSEUDO", "Presenter", "french_card"]
