"""``python -m controller``: the table's command line (see ``controller.cli``)."""

from controller.cli import main

raise SystemExit(main())
