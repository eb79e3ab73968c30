"""The board's ``boot.py`` (copied to the board's root): a watchdog feeder for maintenance.

MicroPython runs ``boot.py`` at every boot and at every soft reset, before
``main.py`` (which only runs after a hard reset or a soft reset from the
normal REPL). ``mpremote`` soft-resets the board into its raw REPL before it
copies files; the watchdog armed by ``main.py`` survives that reset and can
never be stopped, so this file starts a timer that feeds it (see
``firmware/keeper.py``). ``main.py`` stops the timer when its loop takes over.
"""


def _boot() -> None:
    try:
        import machine

        from firmware import keeper
    except ImportError as exc:  # the firmware package is missing: nothing armed a watchdog
        print("cafe-reader boot:", exc)
        return
    keeper.start(machine)


_boot()
