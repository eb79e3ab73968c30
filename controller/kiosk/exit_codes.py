"""What the kiosk's exit status tells systemd: stop for good, or try again later.

The unit (``deploy/cafe-table.service``) restarts the kiosk after every exit
but ``CONFIG``: ``RestartPreventExitStatus=2``. A fault that fixes itself (a
reader board, the LED strip or the display not there yet, a disk that is full
for now) must therefore never use 2, or the table stays dark until someone
comes; a mistake in ``table.toml`` must use it, or the kiosk restarts for
ever with the same mistake. docs/raspberry-pi.md has this table for owners.

* 0 ``STOPPED``: stopped on purpose (a stop signal, the staff desk, a
  finished demo). systemd restarts it (``Restart=always``) unless it was
  ``systemctl stop``.
* 1 (Python's own): a bug, an exception nobody expected, with its
  traceback in the log. Restarted.
* 2 ``CONFIG``: a setup mistake (``table.toml``, a command-line option, a
  journal folder that a power cut empties). Never restarted: fix it, then
  ``systemctl restart``.
* 69 ``DEVICE``: a device failed in a way a restart may cure (the LED strip,
  GPIO, a display that will not open). Restarted after ``RestartSec``; the
  unit never gives up (``StartLimitIntervalSec=0``).
* 75 ``TEMPORARY``: at start, the journal cannot be written now (a full
  disk, another process holding it); the game in it is kept. Restarted
  after ``RestartSec``, never giving up, and the game resumes once the cause
  is gone. (A journal the table may not write at all, a read-only disk or a
  path that cannot be a file, is a setup mistake: 2.) A disk that fills up
  while the window runs is no exit: play halts in place and goes on by
  itself (``controller.kiosk.disk_full``).

69 and 75 are ``sysexits.h``'s ``EX_UNAVAILABLE`` and ``EX_TEMPFAIL``.
What can be waited for inside the process is not an exit at all: no display
yet (the DRM driver still loading at boot) is waited for in the kiosk
(``controller.kiosk.display_wait``) and a reader that is missing is reconnected by
its supervisor.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["ExitCode"]


class ExitCode(IntEnum):
    """The kiosk's exit statuses (see the module's table)."""

    STOPPED = 0
    CONFIG = 2
    DEVICE = 69
    TEMPORARY = 75
