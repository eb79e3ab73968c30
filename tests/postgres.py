"""A real PostgreSQL for the hub's tests, beside SQLite.

``.ci/run`` starts Debian's PostgreSQL on a temporary data directory and
exports its URL as ``CAFE_TEST_POSTGRES``; without it, these fixtures start
a server of their own the same way (``initdb`` and ``pg_ctl``, as the
``postgres`` user when the tests run as root). Each test gets a schema of
its own (an empty database as far as it can tell), dropped afterwards. With
CI=true a missing PostgreSQL fails the tests; elsewhere they skip saying how
to install it.

Under xdist the workers share one server: the first worker whose test needs
it starts it in a folder the controller made for the run, the others find
its URL there, and the controller stops it when the run ends. A server of
its own in each worker cost some 1 s of CPU and 40 MB of data directory each.

``storage_url`` runs a test once on SQLite and once on PostgreSQL.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.broker import free_port

ENV = "CAFE_TEST_POSTGRES"


def _binaries() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: p.parts[-3])
    return found[-1].parent if found else None


def _as_server_user() -> list[str]:
    """The prefix that runs a command as PostgreSQL's own user (it refuses to run as root)."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


#: Set by the xdist controller for its workers: the folder of the run's shared server.
SHARED = "CAFE_TEST_POSTGRES_SHARED"


def _start(data: Path) -> str:
    """Start a throw-away PostgreSQL server with its files in ``data`` (a new folder);
    its admin URL. ``_stop(data)`` stops it."""
    binaries = _binaries()
    if binaries is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not installed; .ci/run must apt-get install postgresql")
        pytest.skip("PostgreSQL is not installed here (apt-get install postgresql); CI runs these")
    data.mkdir()
    if os.geteuid() == 0:
        data.parent.chmod(0o711)  # a temporary folder of root's: the server's user passes
        shutil.chown(data, user="postgres")
    port = free_port()
    run = _as_server_user()
    subprocess.run(
        [*run, str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "cafe", "-N"],
        check=True,
        capture_output=True,
    )
    # A test server: nothing in it must outlive a crash, so it never waits for the disk.
    listen = f"-h 127.0.0.1 -p {port} -k {data} -c fsync=off -c full_page_writes=off"
    pg_ctl = [*run, str(binaries / "pg_ctl"), "-D", str(data)]
    subprocess.run(
        [*pg_ctl, "-l", str(data / "log"), "-w", "-o", listen, "start"],
        check=True,
        capture_output=True,
    )
    return f"postgresql+psycopg://cafe@127.0.0.1:{port}/postgres"


def _stop(data: Path) -> None:
    """Stop the server ``_start(data)`` started, and delete its files."""
    binaries = _binaries()
    if binaries is not None and (data / "postmaster.pid").exists():
        pg_ctl = [*_as_server_user(), str(binaries / "pg_ctl"), "-D", str(data)]
        subprocess.run(
            [*pg_ctl, "-m", "immediate", "stop"],
            check=False,
            capture_output=True,
        )
    shutil.rmtree(data, ignore_errors=True)


@contextlib.contextmanager
def own_server() -> Iterator[str]:
    """Start a throw-away PostgreSQL server; yield its admin URL; stop and delete it after."""
    folder = Path(tempfile.mkdtemp(prefix="cafe-pg-"))
    try:
        yield _start(folder / "data")
    finally:
        _stop(folder / "data")
        shutil.rmtree(folder, ignore_errors=True)


def shared_server(folder: Path) -> str:
    """The admin URL of the run's one server in ``folder``, started by whichever worker
    asks first (the others wait on the lock meanwhile)."""
    with (folder / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        url_file = folder / "url"
        if not url_file.exists():
            _stop(folder / "data")  # what a worker's failed start left, if one did
            url_file.write_text(_start(folder / "data"), encoding="utf-8")
        return url_file.read_text(encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    # The xdist controller (it has workers, and is not one): a folder for the workers'
    # shared server, which they inherit with the environment they are started with.
    if os.environ.get(ENV) or hasattr(config, "workerinput"):
        return
    if not getattr(config.option, "numprocesses", None):
        return
    os.environ[SHARED] = tempfile.mkdtemp(prefix="cafe-pg-shared-")


def pytest_unconfigure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return
    folder = os.environ.pop(SHARED, None)
    if folder is not None:  # the controller: stop the server a worker started, if any did
        _stop(Path(folder) / "data")
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The admin URL of a running PostgreSQL (``.ci/run``'s, the workers' shared one, or
    one started here)."""
    given = os.environ.get(ENV)
    if given:
        yield given
        return
    shared = os.environ.get(SHARED)
    if shared:
        yield shared_server(Path(shared))
        return
    with own_server() as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A new, empty schema on the test PostgreSQL, dropped after the test: the URL's
    ``search_path`` makes it the database's only schema for whoever connects with it.

    A schema costs a few milliseconds; a database of its own cost a second and a half
    to create and drop, for each of some thirty tests that each start from nothing.
    """
    name = f"hub_test_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(postgres_server, isolation_level="AUTOCOMMIT")
    with admin.connect() as db:
        db.exec_driver_sql(f'CREATE SCHEMA "{name}"')
    try:
        # The application name tells this test's connections apart, to end them after it.
        yield f"{postgres_server}?options=-csearch_path%3D{name}&application_name={name}"
    finally:
        with admin.connect() as db:
            db.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                f" WHERE application_name = '{name}'"
            )
            db.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def storage_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new hub database: once SQLite, once PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'hub.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url
