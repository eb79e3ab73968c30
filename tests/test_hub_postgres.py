"""The hub's database on SQLite and on a real PostgreSQL: Alembic migrations make the schema
the code expects, a database from before migrations is upgraded with its rows, and the
command line works against PostgreSQL as it does against SQLite."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from hub import auth
from hub.storage import MIGRATIONS, Storage, engine_url, metadata
from tests.conftest import run_cli_here


def alembic_config(db: sa.Connection | None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = db
    return config


def test_the_migrations_build_the_schema_the_code_expects(storage_url: str) -> None:
    storage = Storage(storage_url)
    try:
        with storage.engine.connect() as db:
            differences = compare_metadata(MigrationContext.configure(db), metadata)
            version = MigrationContext.configure(db).get_current_revision()
        assert differences == []
        head = ScriptDirectory.from_config(alembic_config(None)).get_current_head()
        assert version == head == "0004"
    finally:
        storage.close()


def test_a_database_from_before_migrations_is_upgraded_with_its_rows(storage_url: str) -> None:
    engine = sa.create_engine(engine_url(storage_url))
    with engine.begin() as db:
        # What a hub from before Alembic made: its tables, no alembic_version.
        command.upgrade(alembic_config(db), "0001")
        db.exec_driver_sql("DROP TABLE alembic_version")
        db.execute(
            sa.text("INSERT INTO users (name, role, password) VALUES ('olga', 'owner', :p)"),
            {"p": auth.hash_password("a long owner password")},
        )
        db.execute(
            sa.text(
                "INSERT INTO tables (id, online, status_at) VALUES ('table-1', true, '2026-11-30')"
            )
        )
    engine.dispose()
    storage = Storage(storage_url)
    try:
        owner = storage.user("olga")
        assert owner is not None and owner[0] == "owner"
        assert [t.id for t in storage.tables()] == ["table-1"]
        storage.add_refusal("table-1", "state", "state: totals: Input should be a valid array")
        assert storage.refusals()["table-1"].count == 1
        storage.add_session("k" * 64, "olga", "c" * 43, dt.timedelta(hours=1))
        assert storage.session("k" * 64) == ("olga", "owner", "c" * 43)
        # 0003: an event from a table's outbox is stored once however often it comes.
        event = {"kind": "game-started", "uid": "table-1/m/1"}
        assert [storage.add_event("table-1", event) for _ in range(2)] == [True, False]
        with storage.engine.connect() as db:
            assert MigrationContext.configure(db).get_current_revision() == "0004"
    finally:
        storage.close()


def test_a_plain_postgresql_url_goes_through_psycopg() -> None:
    assert engine_url("postgresql://cafe:pw@db/cafe") == "postgresql+psycopg://cafe:pw@db/cafe"
    assert engine_url("postgres://cafe@db/cafe") == "postgresql+psycopg://cafe@db/cafe"
    assert engine_url("sqlite:///hub.sqlite3") == "sqlite:///hub.sqlite3"


def test_hub_adduser_works_against_postgresql(postgres_url: str, tmp_path: Path) -> None:
    plain = postgres_url.replace("postgresql+psycopg://", "postgresql://")
    (tmp_path / "hub.toml").write_text(f'[storage]\nurl = "{plain}"\n')
    (tmp_path / "pw").write_text("a long staff password")
    added = run_cli_here(
        "hub", "adduser", "sam", "--config", str(tmp_path / "hub.toml"),
        "--password-file", str(tmp_path / "pw"),
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    storage = Storage(postgres_url)
    try:
        found = storage.user("sam")
        assert found is not None and auth.verify_password("a long staff password", found[1])
    finally:
        storage.close()
