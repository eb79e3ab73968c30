"""The kiosk at run time: the composition root, its devices, the simulator and pacing.

``app`` wires the table, the display, the hardware, the journal and the fleet
link together and runs the loop; ``devices`` opens a table's real or simulated
hardware; ``simulation`` is the on-screen table with bots; ``garbage`` and
``loop_load`` pace the loop; ``sd_notify`` talks to systemd; ``opening_hours``
decides when the display sleeps.
"""
