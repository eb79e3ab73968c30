"""Oskar: everything about the game, in one folder.

``spec`` is its manifest (``SPEC``, found by the registry); ``engine`` and its
modules are the rules (the standard library only); ``table`` is its table side
(``ADAPTER``: seat input, presentation, simulation); ``bots`` its bot; ``locale/``
its translations. Its scene, if it has one, is ``display/scenes/oskar.py``.
"""
