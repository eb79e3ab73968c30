"""The table's devices: seat readers, buttons, the toss timer and seat LEDs, each beside its mock.

Layered without import cycles and never importing ``controller`` or
``display``: names (``protocols``, ``cues``) and basics (``errors``,
``events``, ``device``) at the bottom, then the reader base
(``seat_reader``), the serial stream, one module per reader protocol, and
``reader_factory`` on top. docs/hardware.md ("Modules") has the table;
tests/test_hardware_layers.py enforces it.
"""
