"""Collecting cyclic garbage while the table waits for a player, not in the middle of a tap.

CPython's collector runs when allocations pass a threshold, so it runs inside
whatever allocates: the handling of a tap and the frame that shows it. On this
project's benchmark machine its young passes take 0.3-0.5 ms, its middle ones
2-4 ms and a full pass 10-30 ms; a Pi core takes 3-6 times as long, added to
the tap the pass lands in. A game engine collects between frames; the kiosk
collects when its loop is about to wait for input, which it does for seconds
between players' taps.

``GarbagePacer`` does the same passes CPython would (a young pass every
``YOUNG`` objects, a middle pass every ``MIDDLE_EVERY`` young ones), only at
those moments. CPython's own collection stays on as a backstop with a higher
threshold, for a loop that allocates a lot without waiting (a game being
dealt, bots thinking on their threads). Full passes are left to CPython's
rules and to the display's ``release_memory`` when the table goes back to
idling.
"""

from __future__ import annotations

import gc

# CPython's own first threshold: the same amount of work, at a better moment.
YOUNG = 700
# CPython's second threshold: a middle pass after this many young ones.
MIDDLE_EVERY = 10
# Automatic collection only once this many objects were made without the loop waiting.
BACKSTOP = 20 * YOUNG


class GarbagePacer:
    """Moves the collector's passes to the moments the table loop waits for input.

    Nothing changes until ``start()``; ``stop()`` puts CPython's settings back.
    The kiosk starts it once start-up is done and calls ``idle()`` each time its
    loop is about to wait.
    """

    def __init__(self) -> None:
        self.running = False
        self.passes = [0, 0]  # young and middle passes made while the loop waited
        self._thresholds = gc.get_threshold()

    def start(self) -> None:
        """Freeze what start-up built and leave automatic collection as a backstop.

        Start-up's objects (modules, catalogs, fonts, the resumed game) live as
        long as the kiosk: frozen, the collector's full passes no longer walk
        them (15-20 ms a pass here), and they rarely freed any of them.
        """
        if self.running:
            return
        gc.collect()
        gc.freeze()
        self._thresholds = gc.get_threshold()
        _, middle, old = self._thresholds
        gc.set_threshold(BACKSTOP, middle, old)
        self.running = True

    def stop(self) -> None:
        """CPython's thresholds back, and start-up's objects collectable again."""
        if not self.running:
            return
        gc.set_threshold(*self._thresholds)
        gc.unfreeze()
        self.running = False

    def idle(self) -> int | None:
        """The loop is about to wait: run the pass CPython would have run by now.

        Returns the generation collected, or None when none was due (or the
        pacer is not running).
        """
        if not self.running:
            return None
        young, middle, _ = gc.get_count()
        if young < YOUNG:
            return None
        generation = 1 if middle >= MIDDLE_EVERY else 0
        gc.collect(generation)
        self.passes[generation] += 1
        return generation

    def __enter__(self) -> GarbagePacer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
