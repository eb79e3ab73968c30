"""Staff commands over the game journal: ``history``, ``export`` and ``recover``.

``add_commands(subparsers)`` adds them to the table's command line. They
only read the journal (safe while the kiosk runs: the journal is in WAL
mode); they never create, repair or move it. Every failure a user can cause
ends with one clear line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.config.reading import ConfigError
from controller.config.table_config import TableConfig, load
from controller.games.base import TableError
from controller.games.words import Items, Seat, Verbatim, Words, as_arg, say, say_plural
from controller.records.files import DEMO_OUT, write_atomically, write_missing_records
from controller.records.history import (
    export_record,
    history_lines,
    status_words,
    summaries,
    summarize,
    write_csv,
)
from controller.records.journal import (
    ABANDONED,
    FINISHED,
    JOURNAL_NAME,
    PLAYING,
    STATUSES,
    Journal,
    JournalDamaged,
    check_replays,
    default_path,
)
from controller.records.scoresheet import waiting_for
from controller.words import terminal as terminal_words
from controller.words.safe_text import one_line

USAGE_ERROR = 2

Command = Callable[[argparse.Namespace], int]


def add_commands(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``history``, ``export`` and ``recover`` to a command line's subcommands."""
    history = subparsers.add_parser(
        "history",
        help="list the finished games in the journal (or export them as CSV)",
        description="List finished games: date, game, seats and scores.",
    )
    _journal_options(history)
    history.add_argument(
        "--all", action="store_true", help="also list abandoned games and the game in progress"
    )
    history.add_argument("--csv", metavar="FILE", help="write the list as CSV to FILE (- = stdout)")
    history.set_defaults(func=_guarded(cmd_history))

    export = subparsers.add_parser(
        "export",
        help="write a journaled game as a game record",
        description="Write one game of the journal as a table-record/1 file "
        "(finished or not; corrections applied).",
    )
    _journal_options(export)
    export.add_argument("game", metavar="GAME_ID", help="the game's number in `history`, or last")
    export.add_argument(
        "file", metavar="FILE", nargs="?", default="-", help="where to write it (default: stdout)"
    )
    export.set_defaults(func=_guarded(cmd_export))

    recover = subparsers.add_parser(
        "recover",
        help="say what the journal holds and which game the kiosk would resume",
        description="Check the journal and describe the game the kiosk would resume at start.",
    )
    _journal_options(recover)
    recover.add_argument(
        "--write-records",
        action="store_true",
        help="write the record file of every finished game that lacks one (the kiosk also "
        "does this at its start; refused while a kiosk runs on the journal)",
    )
    recover.add_argument(
        "--records",
        metavar="FOLDER",
        help="where record files go (default: the journal's folder)",
    )
    recover.set_defaults(func=_guarded(cmd_recover))


def _journal_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--journal",
        metavar="FILE",
        help=f"the journal file (default: {JOURNAL_NAME} in the records folder of --config, "
        f"else {default_path(TableConfig.simulated())}, else the headless demo's "
        f"{DEMO_OUT / JOURNAL_NAME})",
    )
    parser.add_argument("--config", metavar="FILE", help="table.toml, to find the records folder")
    parser.add_argument(
        "--out",
        metavar="FOLDER",
        help="the folder a headless kiosk wrote to (its --out): the journal there",
    )


def journal_path(args: argparse.Namespace) -> Path:
    """The journal the user means: --journal, --out's, --config's records folder's;
    with none of them the simulated kiosk's, or else the headless demo's (in ``out``)."""
    if args.journal:
        return Path(args.journal)
    if args.out:
        return Path(args.out) / JOURNAL_NAME
    if args.config:
        return default_path(load(Path(args.config)))
    kiosk = default_path(TableConfig.simulated())
    demo = DEMO_OUT / JOURNAL_NAME
    # The README's first command is the headless demo, which keeps its journal
    # beside its picture and record; find it when the windowed kiosk kept none.
    return demo if not kiosk.exists() and demo.exists() else kiosk


def _guarded(command: Command) -> Command:
    """Turn every error a user can cause into one line on stderr and exit status 2."""

    def run(args: argparse.Namespace) -> int:
        message: Words
        try:
            return command(args)
        except JournalDamaged as exc:
            message = say(
                "the journal {path} is damaged: {problem}. "
                "The kiosk moves it aside at its next start.",
                path=Verbatim(str(journal_path(args))),
                problem=Verbatim(str(exc)),
            )
        except (TableError, ConfigError) as exc:
            message = exc.text
        except OSError as exc:
            message = f"{exc.strerror or exc}: {exc.filename or ''}"
        # One line in the run's language (paths quoted in it cannot break the line).
        terminal_words.complain(args, args.command, message)
        return USAGE_ERROR

    run.__doc__ = command.__doc__
    return run


def cmd_history(args: argparse.Namespace) -> int:
    """Print the finished games (or write them as CSV)."""
    statuses = STATUSES if args.all else (FINISHED,)
    present = terminal_words.presenter(args)
    with Journal.open_existing(journal_path(args)) as journal:
        games = summaries(journal, statuses)
    if args.csv is None:
        print("\n".join(history_lines(games, present)))
    elif args.csv == "-":
        write_csv(games, sys.stdout)
    else:
        with open(args.csv, "w", encoding="utf-8", newline="") as out:
            write_csv(games, out)
        wrote = say_plural(
            "wrote {n} game to {file}",
            "wrote {n} games to {file}",
            len(games),
            file=_file(args.csv),
        )
        print(present(wrote), file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Write one game as a table-record/1 record."""
    with Journal.open_existing(journal_path(args)) as journal:
        game_id = _game_id(journal, args.game)
        text = export_record(journal, game_id)
        row = journal.game(game_id)
    assert row is not None
    if args.file == "-":
        sys.stdout.write(text)
    else:
        write_atomically(Path(args.file), text)  # never a half-written record
        wrote = say(
            "wrote game {game} ({name}, {status}) to {file}",
            game=game_id,
            name=Verbatim(row.game),
            status=as_arg(status_words(row.status)),
            file=_file(args.file),
        )
        print(terminal_words.presenter(args)(wrote), file=sys.stderr)
    return 0


def _game_id(journal: Journal, given: str) -> int:
    if given == "last":
        games = journal.games()
        if not games:
            raise TableError(say("the journal holds no games yet"))
        return games[-1].id
    try:
        return int(given)
    except ValueError:
        raise TableError(
            say(
                "{given} is not a game number; give the number `history --all` shows, or last",
                given=Verbatim(repr(given)),
            )
        ) from None


def cmd_recover(args: argparse.Namespace) -> int:
    """Describe the journal and the game the kiosk would resume."""
    path = journal_path(args)
    present = terminal_words.presenter(args)
    writer = "recover --write-records" if args.write_records else None
    with Journal.open_existing(path, writer=writer) as journal:
        games = journal.games()
        counts = {s: sum(1 for g in games if g.status == s) for s in STATUSES}
        lines: list[Words] = [
            say(
                "Journal {path}: {games} ({finished} finished, {abandoned} abandoned, "
                "{playing} in progress), {entries}.",
                path=_file(path),
                games=say_plural("{n} game", "{n} games", len(games)),
                finished=counts[FINISHED],
                abandoned=counts[ABANDONED],
                playing=counts[PLAYING],
                entries=say_plural("{n} entry", "{n} entries", journal.entry_count()),
            )
        ]
        row = journal.unfinished()
        if row is None:
            lines.append(say("No unfinished game: the kiosk starts on its attract screen."))
        else:
            summary = summarize(journal, row)
            entries = journal.entries(row.id)
            undos = sum(
                1 for e in entries if e.kind == "correction" and e.data.get("kind") == "undo"
            )
            actions = journal.actions(row.id)
            players = sum(1 for _, chance in actions if not chance)
            started = summary.when
            lines.append(
                say(
                    "Unfinished game {game}: {title}, started {date}, played at {seats}, "
                    "{actions} ({players} by players, {dealt} dealt), {undos} undone by staff.",
                    game=row.id,
                    title=Verbatim(summary.title),
                    date=Verbatim(
                        summary.date if started is None else present.date(started, "short")
                    ),
                    seats=Items(tuple(Seat(s) for s in row.players)),
                    actions=say_plural("{n} action", "{n} actions", len(actions)),
                    players=players,
                    dealt=len(actions) - players,
                    undos=undos,
                )
            )
            config = load(Path(args.config)) if args.config else None
            seats = {s.index for s in config.seats} if config is not None else set(row.players)
            try:
                engine = check_replays(row, actions, seats)
            except TableError as exc:
                lines.append(
                    say(
                        "It cannot be resumed ({problem}); the kiosk will move the journal aside "
                        "and start fresh.",
                        problem=as_arg(exc.text),
                    )
                )
            else:
                expected = engine.expected
                if expected is None:
                    lines.append(say("All its actions are in: the kiosk will show its results."))
                else:
                    seat = row.players[expected.seat]
                    lines.append(
                        say(
                            "The kiosk will resume it: {waiting}; scores so far {scores}.",
                            waiting=waiting_for(Seat(seat), expected.expects),
                            scores=Verbatim(" ".join(present.number(s) for s in summary.scores)),
                        )
                    )
        lines.extend(_missing_records(journal, args))
    print("\n".join(present(line) for line in lines))
    return 0


def _missing_records(journal: Journal, args: argparse.Namespace) -> list[Words]:
    """Say which finished games lack their record file; write them with --write-records."""
    missing = journal.records_missing()
    if not missing:
        return []
    if not args.write_records:
        return [
            say_plural(
                "Finished {n} game {games} without a record file: the kiosk writes them at its "
                "next start (or run recover --write-records).",
                "Finished {n} games {games} without a record file: the kiosk writes them at its "
                "next start (or run recover --write-records).",
                len(missing),
                games=Verbatim(", ".join(str(row.id) for row in missing)),
            )
        ]
    folder = Path(args.records) if args.records else journal.path.parent
    written = write_missing_records(journal, folder)
    return [
        say("Wrote the record of game {game}: {file}", game=row.id, file=_file(path))
        for row, path in zip(missing, written, strict=True)
    ]


def _file(path: str | Path) -> Verbatim:
    """A file name as a message shows it: on one line, never translated."""
    return Verbatim(one_line(str(path)))
