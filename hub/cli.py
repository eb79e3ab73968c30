"""``cafe-table hub ...``: set up the café's broker files, add dashboard users, run the hub."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

USAGE_ERROR = 2

HUB_TOML = """# The café hub (see docs/cafe.md). Relative paths are relative to this file.
[broker]
host = "127.0.0.1"
port = {port}
username = "hub"
password_file = "hub-password"

[storage]
url = "sqlite:///hub.sqlite3"

[web]
host = "0.0.0.0"
port = 8080
secret_file = "hub-secret"
"""


def cmd_setup(args: argparse.Namespace) -> int:
    from hub.broker import BrokerSetupError, setup

    folder = Path(args.dir)
    try:
        files = setup(folder, args.table, port=args.port, listen=args.listen)
    except (BrokerSetupError, OSError) as exc:
        print(f"hub setup: {exc}", file=sys.stderr)
        return USAGE_ERROR
    hub_toml = folder / "hub.toml"
    if not hub_toml.exists():
        hub_toml.write_text(HUB_TOML.format(port=args.port), encoding="utf-8")
    print(f"Wrote {files.conf}, {files.passwords}, {files.acl} and {hub_toml}.")
    print(f"Start the broker:   mosquitto -c {files.conf.resolve()}")
    print("  (or copy mosquitto.conf to /etc/mosquitto/conf.d/ and restart mosquitto)")
    print(f"Add a dashboard user: cafe-table hub adduser NAME --role owner --config {hub_toml}")
    print(f"Run the hub:        cafe-table hub run --config {hub_toml}")
    for table_id in args.table:
        print(f"\nFor {table_id}: copy {files.table_password(table_id)} to the table and add")
        print(f'[cafe]\nbroker = "HUB-ADDRESS"\nport = {args.port}\ntable = "{table_id}"')
        print('password_file = "/etc/cafe-table/broker-password"')
    return 0


def cmd_adduser(args: argparse.Namespace) -> int:
    from hub import auth, settings
    from hub.storage import Storage

    try:
        config = settings.load(Path(args.config))
    except settings.HubConfigError as exc:
        print(f"hub adduser: {exc}", file=sys.stderr)
        return USAGE_ERROR
    if not 0 < len(args.name) <= 80 or not args.name.isprintable():
        print("hub adduser: a name is 1 to 80 printable characters", file=sys.stderr)
        return USAGE_ERROR
    try:
        if args.password_file:
            password = Path(args.password_file).read_text(encoding="utf-8").strip()
        elif not sys.stdin.isatty():
            print(
                "hub adduser: there is no terminal to type a password in; "
                "give it with --password-file FILE",
                file=sys.stderr,
            )
            return USAGE_ERROR
        else:
            password = getpass.getpass(f"Password for {args.name}: ")
    except OSError as exc:
        print(f"hub adduser: cannot read {args.password_file}: {exc.strerror}", file=sys.stderr)
        return USAGE_ERROR
    except (EOFError, KeyboardInterrupt):
        print("hub adduser: no password given; nothing changed", file=sys.stderr)
        return USAGE_ERROR
    if len(password) < 10:
        print("hub adduser: use a password of at least 10 characters", file=sys.stderr)
        return USAGE_ERROR
    storage = Storage(config.storage_url)
    storage.set_user(args.name, args.role, auth.hash_password(password))
    storage.close()
    print(f"{args.name} can log in as {args.role}; any session they had is ended.")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    import uvicorn

    from hub import settings
    from hub.ingest import Ingest
    from hub.storage import Storage
    from hub.web import create_app

    try:
        config = settings.load(Path(args.config))
    except settings.HubConfigError as exc:
        print(f"hub run: {exc}", file=sys.stderr)
        return USAGE_ERROR
    storage = Storage(config.storage_url)
    ingest = Ingest(config, storage)
    ingest.start()
    app = create_app(storage, ingest, config.secret)
    try:
        uvicorn.run(
            app,
            host=config.web_host,
            port=config.web_port,
            log_level="warning",
            # With web.certfile and web.keyfile the dashboard speaks HTTPS itself; behind
            # a reverse proxy on this machine (127.0.0.1), its X-Forwarded-Proto tells the
            # hub the browser used HTTPS. Either way, session cookies are then Secure.
            ssl_certfile=None if config.certfile is None else str(config.certfile),
            ssl_keyfile=None if config.keyfile is None else str(config.keyfile),
            proxy_headers=True,
            forwarded_allow_ips="127.0.0.1",
        )
    finally:
        ingest.close()
        storage.close()
    return 0


def add_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "hub",
        help="the café hub: broker setup, dashboard users, run the hub",
        description="The café hub collects every table's state, records and alerts.",
    )
    commands = parser.add_subparsers(dest="hub_command", required=True, metavar="HUB_COMMAND")
    setup = commands.add_parser("setup", help="write the broker's config, passwords and ACL")
    setup.add_argument("--dir", default="cafe-hub", help="folder for the files (default cafe-hub)")
    setup.add_argument("--table", action="append", default=[], help="a table id (repeat)")
    setup.add_argument("--port", type=int, default=1883)
    setup.add_argument("--listen", default="0.0.0.0", help="the broker's listen address")
    setup.set_defaults(func=cmd_setup)
    adduser = commands.add_parser("adduser", help="add or change a dashboard login")
    adduser.add_argument("name")
    adduser.add_argument("--role", choices=("staff", "owner"), default="staff")
    adduser.add_argument("--config", required=True, help="hub.toml")
    adduser.add_argument("--password-file", help="read the password from a file")
    adduser.set_defaults(func=cmd_adduser)
    run = commands.add_parser("run", help="run the hub and its dashboard")
    run.add_argument("--config", required=True, help="hub.toml")
    run.set_defaults(func=cmd_run)
