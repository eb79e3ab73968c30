"""``cafe-table tags ...``: look at the tag registry and enroll the first staff tag.

A new table has no registry, and the staff desk (where decks are enrolled)
opens only for a staff tag that is already in it. ``tags add-staff`` breaks
that circle: with the kiosk stopped it opens the configured seat readers,
waits for one tag to be tapped at any of them and writes it to the registry as
a staff tag, creating the registry file when there is none. ``tags read``
prints the UID of the next tag tapped; ``tags show UID`` and ``tags list`` say
what the registry holds. ``tags member UID NICKNAME`` enrolls a player card
(``controller.tags.members``) at a table without the café's hub.
"""

from __future__ import annotations

import argparse
import queue
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from controller.config import table_config
from controller.config.reading import ConfigError
from controller.config.table_config import MOCK, TableConfig
from controller.games.base import TableError
from controller.games.words import Card, Items, Seat, Text, Verbatim, as_arg, say, say_plural
from controller.tags.members import check_member_uid
from controller.tags.registry import STAFF, RegistryError, TagRegistry, decks
from controller.words import Presenter
from controller.words import terminal as terminal_words
from controller.words.commands import command
from controller.words.safe_text import one_line
from hardware.events import EventQueue, InputEvent, TagPresented
from hardware.seat_reader import SeatReader

USAGE_ERROR = 2
DEFAULT_WAIT = 60.0
ENGLISH = Presenter()

ReaderFactory = Callable[[int, str, str, EventQueue], SeatReader]


def _open_reader(seat: int, port: str, protocol: str, events: EventQueue) -> SeatReader:
    # The reader drivers (pyserial, the boards' protocols) load only when a reader opens:
    # the command line's other subcommands start without them.
    from hardware.reader_factory import reader_for

    return reader_for(seat, port, protocol, events, supervise=False)


class TagsError(TableError):
    """A problem the command reports in one line (exit status 2)."""


def _load_config(path: str | None) -> TableConfig:
    if path is None:
        raise TagsError(
            say(
                "name the table's configuration with --config table.toml: it says where the "
                "tag registry is and which readers to listen to"
            )
        )
    if not Path(path).exists():
        raise TagsError(
            say(
                "{file}: no such file; write the table's configuration first (it names the "
                "readers and the registry file: docs/first-evening.md)",
                file=_file(path),
            )
        )
    try:
        return table_config.load(Path(path))
    except ConfigError as exc:
        raise TagsError(exc.text) from None


def _registry_path(config: TableConfig) -> Path:
    if config.tags is None:
        raise TagsError(
            say(
                'the configuration has no [tags] registry = "..."; add one (e.g. '
                'registry = "tags.json") so the table keeps real tags'
            )
        )
    return config.tags


def _load_or_new(path: Path) -> TagRegistry:
    if not path.exists():
        return TagRegistry()
    try:
        return TagRegistry.load(path)
    except RegistryError as exc:
        raise TagsError(exc.text) from None


def _file(path: str | Path) -> Verbatim:
    return Verbatim(one_line(str(path)))


def wait_for_tag(
    config: TableConfig,
    *,
    timeout: float,
    tell: Callable[[str], None],
    open_reader: ReaderFactory = _open_reader,
    present: Presenter = ENGLISH,
) -> tuple[int, str]:
    """Open every configured real reader and return (seat, UID) of the first tag tapped."""
    seats = [seat for seat in config.seats if seat.reader != MOCK]
    if not seats:
        raise TagsError(
            say(
                "this configuration has only simulated readers, so there is nothing to tap; "
                "give a seat a reader port, or name the tag with --uid"
            )
        )
    events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    readers = [open_reader(s.index, s.reader, s.protocol, events) for s in seats]
    try:
        for reader in readers:
            reader.open()
        names = Items(tuple(Seat(s.index) for s in seats), either=True)
        waiting = terminal_words.seconds(timeout)
        tell(
            present(
                say(
                    "Tap the tag at any reader ({seats}); waiting up to {seconds} ...",
                    seats=names,
                    seconds=waiting,
                )
            )
        )
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TagsError(
                    say(
                        "no tag was tapped within {seconds}; check that the kiosk is stopped "
                        "(it holds the readers) and that the readers' protocol in the "
                        "configuration matches the boards",
                        seconds=waiting,
                    )
                )
            try:
                event = events.get(timeout=left)
            except queue.Empty:
                continue
            if isinstance(event, TagPresented):
                return event.seat, TagRegistry.normalize(event.uid)
    except OSError as exc:  # a reader that cannot be opened (HardwareError is an OSError)
        raise TagsError(
            say("cannot open a reader: {problem}", problem=Verbatim(str(exc)))
        ) from None
    finally:
        for reader in readers:
            reader.close()


def describe(registry: TagRegistry, uid: str) -> Text:
    """What a tag is, in one line."""
    key = TagRegistry.normalize(uid)
    tag = Verbatim(key)
    entry = registry.lookup(key)
    nickname = registry.member(key)
    if entry is None and nickname is not None:
        return say("{tag}: the member card of {name}", tag=tag, name=Verbatim(nickname))
    if entry is None:
        return say("{tag}: not enrolled", tag=tag)
    if entry.is_staff:
        return say("{tag}: a staff tag", tag=tag)
    title = decks().get(entry.deck)
    return say(
        "{tag}: card {card} of the {deck} deck ({id})",
        tag=tag,
        card=Card(entry.card),
        deck=as_arg(title.title) if title is not None else Verbatim(entry.deck),
        id=Verbatim(entry.deck),
    )


def cmd_add_staff(args: argparse.Namespace, open_reader: ReaderFactory = _open_reader) -> int:
    present = terminal_words.presenter(args)
    config = _load_config(args.config)
    path = _registry_path(config)
    registry = _load_or_new(path)
    if args.uid is not None:
        uid = TagRegistry.normalize(args.uid)
    else:
        seat, uid = wait_for_tag(
            config, timeout=args.wait, tell=print, open_reader=open_reader, present=present
        )
        print(present(say("Read tag {tag} at {seat}", tag=Verbatim(uid), seat=Seat(seat))))
    try:
        registry.enroll(STAFF, STAFF, uid)
    except RegistryError as exc:
        raise TagsError(exc.text) from None
    created = not path.exists()
    try:
        registry.save(path)
    except OSError as exc:
        raise TagsError(
            say(
                "cannot write the tag registry {file}: {problem}",
                file=_file(path),
                problem=Verbatim(str(exc.strerror)),
            )
        ) from None
    staff = sum(1 for _ in _staff_uids(registry))
    done = (
        say("created {file}", file=_file(path))
        if created
        else say("updated {file}", file=_file(path))
    )
    print(
        present(
            say_plural(
                "{tag} is a staff tag now ({done}; {n} staff tag). Start the kiosk ({command}) "
                "and tap it on the attract screen to open the staff desk, then enroll each "
                "deck there.",
                "{tag} is a staff tag now ({done}; {n} staff tags). Start the kiosk ({command}) "
                "and tap it on the attract screen to open the staff desk, then enroll each "
                "deck there.",
                staff,
                tag=Verbatim(uid),
                done=done,
                command=Verbatim(command("kiosk", "--config", args.config)),
            )
        )
    )
    return 0


def _staff_uids(registry: TagRegistry) -> list[str]:
    data = registry.to_json()
    staff = data["staff"]
    assert isinstance(staff, list)
    return [str(uid) for uid in staff]


def cmd_read(args: argparse.Namespace, open_reader: ReaderFactory = _open_reader) -> int:
    present = terminal_words.presenter(args)
    config = _load_config(args.config)
    seat, uid = wait_for_tag(
        config, timeout=args.wait, tell=print, open_reader=open_reader, present=present
    )
    registry = _load_or_new(config.tags) if config.tags is not None else TagRegistry()
    print(present(say("{seat}: {what}", seat=Seat(seat), what=describe(registry, uid))))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    config = _load_config(args.config)
    registry = _load_or_new(_registry_path(config))
    print(terminal_words.presenter(args)(describe(registry, args.uid)))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    present = terminal_words.presenter(args)
    config = _load_config(args.config)
    path = _registry_path(config)
    if not path.exists():
        enroll = Verbatim(command("tags", "add-staff", "--config", args.config))
        print(
            present(
                say(
                    "{file}: no registry yet; enroll a staff tag with {command}",
                    file=_file(path),
                    command=enroll,
                )
            )
        )
        return 0
    registry = _load_or_new(path)
    staff = _staff_uids(registry)
    print(
        present(say_plural("{file}: {n} tag", "{file}: {n} tags", len(registry), file=_file(path)))
    )
    uids = Items(tuple(Verbatim(uid) for uid in staff)) if staff else say("none")
    print("  " + present(say("staff: {count} ({tags})", count=len(staff), tags=uids)))
    for deck_id, deck in decks().items():
        enrolled = len(registry.cards_of(deck_id))
        line = say(
            "{deck} ({id}): {enrolled} of {total} cards",
            deck=as_arg(deck.title),
            id=Verbatim(deck_id),
            enrolled=enrolled,
            total=len(deck.cards),
        )
        print("  " + present(line))
    members = registry.members()
    if members:
        print("  " + present(say("member cards: {count}", count=len(members))))
    return 0


def cmd_member(args: argparse.Namespace) -> int:
    """Enroll, rename (the same UID again) or ``--retire`` a member card in the registry."""
    config = _load_config(args.config)
    path = _registry_path(config)
    registry = _load_or_new(path)
    english = terminal_words.presenter(args)
    if args.retire:
        if not registry.retire_member(args.uid):
            raise TagsError(
                english(say("{uid} is no member card here", uid=Verbatim(args.uid.strip())))
            )
        said = say("{uid} is no member card any more", uid=Verbatim(args.uid.strip()))
    else:
        if args.nickname is None:
            raise TagsError(english(say("give the member's nickname after the UID, or --retire")))
        try:
            uid = check_member_uid(args.uid)
            name = registry.enroll_member(uid, args.nickname)
        except TableError as exc:
            raise TagsError(english(exc.text)) from None
        said = say(
            "{uid} is the member card of {name}: tapped at the join screen, it names the seat",
            uid=Verbatim(uid),
            name=Verbatim(name),
        )
    try:
        registry.save(path)
    except OSError as exc:
        raise TagsError(f"cannot write the tag registry {path}: {exc.strerror}") from None
    print(english(said))
    return 0


def run(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run one tags command; a problem the user can fix is one line on stderr, exit 2."""
    try:
        return command(args)
    except TagsError as exc:
        terminal_words.complain(args, f"tags {args.tags_command}", exc.text)
        return USAGE_ERROR


def add_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tags",
        help="the tag registry: enroll the first staff tag, read a tag, show what a tag is",
        description=(__doc__ or "").split("\n\n")[1],
    )
    commands = parser.add_subparsers(dest="tags_command", required=True, metavar="TAGS_COMMAND")

    def common(sub: argparse.ArgumentParser, waits: bool) -> None:
        sub.add_argument("--config", metavar="TOML", help="the table's table.toml")
        if waits:
            sub.add_argument(
                "--wait", type=float, default=DEFAULT_WAIT, help="seconds to wait for a tap"
            )

    add = commands.add_parser("add-staff", help="make the next tag tapped (or --uid) a staff tag")
    common(add, waits=True)
    add.add_argument("--uid", help="the tag's UID in hex, instead of tapping it")
    add.set_defaults(func=lambda a: run(cmd_add_staff, a))

    read = commands.add_parser("read", help="print the UID of the next tag tapped, and what it is")
    common(read, waits=True)
    read.set_defaults(func=lambda a: run(cmd_read, a))

    show = commands.add_parser("show", help="what a tag is")
    common(show, waits=False)
    show.add_argument("uid", metavar="UID")
    show.set_defaults(func=lambda a: run(cmd_show, a))

    member = commands.add_parser(
        "member", help="enroll a member card with a nickname (or rename, or --retire it)"
    )
    common(member, waits=False)
    member.add_argument("uid", metavar="UID", help="the card's tag UID in hex (tags read shows it)")
    member.add_argument("nickname", metavar="NICKNAME", nargs="?", help="1 to 16 characters")
    member.add_argument("--retire", action="store_true", help="forget this member card")
    member.set_defaults(func=lambda a: run(cmd_member, a))

    listing = commands.add_parser("list", help="how many tags of each deck are enrolled")
    common(listing, waits=False)
    listing.set_defaults(func=lambda a: run(cmd_list, a))


def main(argv: Sequence[str]) -> int:
    """Run ``tags`` with ``argv`` (for tests)."""
    parser = argparse.ArgumentParser(prog="cafe-table")
    add_command(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status
