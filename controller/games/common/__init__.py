"""What the trick-taking games share: their hand, play and trick events, the trick, dispatch.

``tricks`` is the trick-taking kernel: the ``hand`` action (``RegisterHand``),
the events every trick game answers (``HandRegistered``, ``CardPlayed``,
``TrickWon``) and ``Trick``, the cards on the table with the game's rules for
following suit and winning (``TrickRules``). ``dispatch`` is the one way an
engine here dispatches: a table per phase from the kind of action to the
method that takes it, and tables from the phase to the method that answers
``expected`` or ``legal_actions``.

No game lives here (there is no ``spec.py``, so the registry passes it by), and
like every rule it imports the standard library and ``controller.games`` only.
"""
