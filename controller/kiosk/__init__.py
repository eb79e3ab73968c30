"""The kiosk at run time: the composition root, its devices, the simulator and pacing.

``app`` is the composition root (``Kiosk``: config, devices, table, journal,
simulator and the café link wired together); ``windowed`` runs it in a pygame
window with the paced loop (``Turns``), ``headless`` plays the bots' demo
game; ``arguments`` and ``run`` are ``cafe-table kiosk``'s arguments and entry
(``stop_signals``, ``display_wait``, ``exit_codes``). ``devices`` opens a
table's real or simulated hardware; ``simulation`` is the on-screen table with
bots; ``garbage`` and ``loop_load`` pace the loop; ``sd_notify`` talks to
systemd; ``resume`` hands the journal's unfinished game to the table.
"""
