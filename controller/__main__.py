"""``python -m controller``: the table's command line (see ``controller.cli.main``)."""

from controller.cli.main import program

program()
