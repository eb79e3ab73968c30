"""The tag registry: which RFID tag UID is which card of which deck.

Every physical card carries a tag. The registry is a JSON file::

    {"format": "tag-registry/1",
     "decks": {"oshaka": {"04A1B2C3D4E5F6": "R7", ...}, "standard-52": {...}},
     "staff": ["04FFEEDDCCBBAA"],
     "members": {"04C0FFEE000001": "Mika"}}

A UID belongs to at most one card of one deck (or is a staff tag, or a
member card: ``controller.tags.members``; ``members`` is left out while empty).
Member cards enrolled on the café's hub reach the table over the network and
are held beside the file's own (``set_hub_members``), never written to it. The table
ships a simulated registry for the demo (``simulated()``): every card of every
deck gets a made-up, stable UID, so simulated readers can "tap" real-looking
tags and the whole path from reader to engine is exercised.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.games import spec_of, specs
from controller.games.base import TableError
from controller.games.spec import DeckSpec
from controller.games.words import Card, Text, Verbatim, Words, as_arg, say
from controller.tags.members import NicknameError, check_nickname
from controller.words.safe_text import one_line, shorten

FORMAT = "tag-registry/1"


def decks() -> dict[str, DeckSpec]:
    """Every deck the table's games are played with, by registry name (from the game specs),
    add-on decks included."""
    known: dict[str, DeckSpec] = {}
    for spec in specs().values():
        for deck in (spec.deck, *spec.addon_decks):
            known[deck.id] = deck
    return known


def deck_of(game_id: str) -> str:
    """The registry deck the game ``game_id`` is played with."""
    return spec_of(game_id).deck.id


def decks_of(game_id: str) -> tuple[str, ...]:
    """The registry decks whose cards the game ``game_id`` reads: its deck and any add-ons."""
    spec = spec_of(game_id)
    return (spec.deck.id, *(deck.id for deck in spec.addon_decks))


def deck_holding(game_id: str, card: str) -> str:
    """The deck of the game ``game_id`` that holds ``card`` (its own deck if none does)."""
    spec = spec_of(game_id)
    for deck in spec.addon_decks:
        if card in deck.cards:
            return deck.id
    return spec.deck.id


def deck_cards(deck: str) -> list[str]:
    """The card notations of a deck, in a fixed order (as the records write them)."""
    known = decks()
    if deck not in known:
        raise RegistryError(
            say(
                'there is no deck "{deck}"; the table knows {decks}',
                deck=_quoted(deck),
                decks=_quoted(", ".join(known)),
            )
        )
    return list(known[deck].cards)


class RegistryError(TableError, ValueError):
    """The tag registry file is bad, or an enrollment would make it ambiguous."""

    def __init__(self, message: Words) -> None:
        # UIDs, decks and cards quoted from the file must not break the one-line message
        # (a Text's quoted values are ``_quoted``: one line each).
        super().__init__(one_line(message) if isinstance(message, str) else message)


def _quoted(text: str) -> Verbatim:
    """A name or value quoted from the registry file, on one line, never translated."""
    return Verbatim(one_line(text))


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's keys, refusing one written twice (json would keep the last silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


@dataclass(frozen=True)
class TagEntry:
    """What a tag is: a card of a deck (``card`` in that deck's notation), or a staff tag."""

    deck: str
    card: str

    @property
    def is_staff(self) -> bool:
        return self.deck == "staff"

    def words(self) -> Text:
        """What the tag is, for a person: "a staff tag" or "R5 of oshaka"."""
        if self.is_staff:
            return say("a staff tag")
        return say("{card} of {deck}", card=Card(self.card), deck=_quoted(self.deck))


STAFF = "staff"


class TagRegistry:
    """UID -> card, per deck; refuses a UID enrolled twice."""

    def __init__(self) -> None:
        self._by_uid: dict[str, TagEntry] = {}
        self._members: dict[str, str] = {}  # member cards enrolled at this table: UID -> nickname
        self._hub_members: dict[str, str] = {}  # the café hub's member cards (not saved)

    # --- reading and writing ----------------------------------------------------

    @classmethod
    def load(cls, path: Path) -> TagRegistry:
        try:
            data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_duplicates)
        except FileNotFoundError:
            raise RegistryError(
                say(
                    "the tag registry {file} does not exist; enroll a deck or use the "
                    "simulated deck",
                    file=_quoted(str(path)),
                )
            ) from None
        except IsADirectoryError:
            raise RegistryError(
                say(
                    "the tag registry {file} is a folder; name the registry file (e.g. tags.json)",
                    file=_quoted(str(path)),
                )
            ) from None
        except _DuplicateKey as exc:
            raise RegistryError(
                say(
                    "the tag registry {file} has {key} twice in one object (a tag enrolled twice "
                    "keeps only one card); remove one of them",
                    file=_quoted(str(path)),
                    key=_quoted(repr(str(exc))),
                )
            ) from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RegistryError(
                say(
                    "the tag registry {file} is not valid JSON ({problem})",
                    file=_quoted(str(path)),
                    problem=_quoted(str(exc)),
                )
            ) from None
        except RecursionError:
            raise RegistryError(
                say(
                    "the tag registry {file} nests too deep; it is a flat map of decks to tags",
                    file=_quoted(str(path)),
                )
            ) from None
        except ValueError as exc:  # e.g. an integer of thousands of digits
            raise RegistryError(
                say(
                    "the tag registry {file} cannot be read ({problem})",
                    file=_quoted(str(path)),
                    problem=_quoted(str(exc)),
                )
            ) from None
        except OSError as exc:
            raise RegistryError(
                say(
                    "cannot read the tag registry {file} ({problem})",
                    file=_quoted(str(path)),
                    problem=_quoted(str(exc.strerror)),
                )
            ) from None
        return cls.from_json(data, str(path))

    @classmethod
    def from_json(cls, data: object, source: str = "registry") -> TagRegistry:
        file = _quoted(source)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RegistryError(
                say('{file}: "format" must be "{format}"', file=file, format=Verbatim(FORMAT))
            )
        registry = cls()
        listed = data.get("decks", {})
        if not isinstance(listed, dict):
            raise RegistryError(
                say('{file}: "decks" must map deck names to {{uid: card}}', file=file)
            )
        known = sorted(decks())
        for deck, tags in listed.items():
            if deck not in known:
                raise RegistryError(
                    say(
                        "{file}: there is no deck {deck}; the table knows {decks}",
                        file=file,
                        deck=_quoted(repr(deck)),
                        decks=Verbatim(", ".join(known)),
                    )
                )
            if not isinstance(tags, dict):
                raise RegistryError(
                    say(
                        '{file}: deck "{deck}" must map tag UIDs to cards',
                        file=file,
                        deck=Verbatim(deck),
                    )
                )
            cards = set(deck_cards(deck))
            for uid, card in tags.items():
                tag = _quoted(shorten(repr(uid)))
                if not isinstance(card, str):
                    raise RegistryError(
                        say(
                            '{file}: tag {tag} in deck "{deck}" must name a card',
                            file=file,
                            tag=tag,
                            deck=Verbatim(deck),
                        )
                    )
                if card not in cards:
                    raise RegistryError(
                        say(
                            '{file}: tag {tag} in deck "{deck}" names {card}, '
                            "which is not a card of that deck (e.g. {example})",
                            file=file,
                            tag=tag,
                            deck=Verbatim(deck),
                            card=_quoted(shorten(repr(card))),
                            example=Verbatim(deck_cards(deck)[0]),
                        )
                    )
                registry.enroll(deck, card, uid)
        staff = data.get("staff", [])
        if not isinstance(staff, list):
            raise RegistryError(say('{file}: "staff" must be a list of tag UIDs', file=file))
        for uid in staff:
            registry.enroll(STAFF, STAFF, str(uid))
        members = data.get("members", {})
        if not isinstance(members, dict):
            raise RegistryError(say('{file}: "members" must map tag UIDs to nicknames', file=file))
        for uid, nickname in members.items():
            tag = _quoted(shorten(repr(uid)))
            if not isinstance(nickname, str):
                raise RegistryError(
                    say("{file}: member tag {tag} must have a nickname", file=file, tag=tag)
                )
            try:
                registry.enroll_member(uid, nickname)
            except NicknameError as exc:
                raise RegistryError(
                    say(
                        "{file}: member tag {tag}: {problem}",
                        file=file,
                        tag=tag,
                        problem=as_arg(exc.text),
                    )
                ) from None
        return registry

    def to_json(self) -> dict[str, object]:
        decks: dict[str, dict[str, str]] = {}
        staff: list[str] = []
        for uid, entry in sorted(self._by_uid.items()):
            if entry.is_staff:
                staff.append(uid)
            else:
                decks.setdefault(entry.deck, {})[uid] = entry.card
        data: dict[str, object] = {"format": FORMAT, "decks": decks, "staff": staff}
        if self._members:
            data["members"] = dict(sorted(self._members.items()))
        return data

    def save(self, path: Path) -> None:
        """Write atomically: a crash mid-save leaves the old file intact."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name, dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(self.to_json(), handle, indent=1, sort_keys=True)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)

    # --- lookups and enrollment -------------------------------------------------

    @staticmethod
    def normalize(uid: str) -> str:
        return "".join(ch for ch in uid.upper() if ch in "0123456789ABCDEF")

    def lookup(self, uid: str) -> TagEntry | None:
        return self._by_uid.get(self.normalize(uid))

    def uid_for(self, deck: str, card: str) -> str | None:
        """The first UID enrolled for a card (the simulator taps it)."""
        for uid, entry in self._by_uid.items():
            if entry.deck == deck and entry.card == card:
                return uid
        return None

    def enroll(self, deck: str, card: str, uid: str) -> TagEntry:
        key = self.normalize(uid)
        if not 4 <= len(key) <= 20:
            raise RegistryError(
                say(
                    "{uid} is not a tag UID (4 to 10 bytes in hex)",
                    uid=_quoted(shorten(repr(uid))),
                )
            )
        member = self.member(key)  # the hub's member cards too: a deck never swallows one
        if member is not None:
            raise RegistryError(
                say(
                    "tag {uid} is already enrolled as the member card of {name}",
                    uid=Verbatim(key),
                    name=Verbatim(member),
                )
            )
        existing = self._by_uid.get(key)
        entry = TagEntry(deck, card)
        if existing is not None and existing != entry:
            raise RegistryError(
                say(
                    "tag {tag} is already enrolled as {what}",
                    tag=_quoted(key),
                    what=existing.words(),
                )
            )
        self._by_uid[key] = entry
        return entry

    # --- member cards (controller.tags.members) -------------------------------------------

    def member(self, uid: str) -> str | None:
        """The nickname of a member card (this table's own enrollment first), or None."""
        key = self.normalize(uid)
        return self._members.get(key) or self._hub_members.get(key)

    def has_members(self) -> bool:
        """Whether the table knows any member card (then an unknown tag at the join screen
        is told it is no member card)."""
        return bool(self._members or self._hub_members)

    def members(self) -> dict[str, str]:
        """Every member card the table knows: UID -> nickname (its own over the hub's)."""
        return {**self._hub_members, **self._members}

    def enroll_member(self, uid: str, nickname: str) -> str:
        """Enroll (or rename) a member card at this table; its checked nickname."""
        key = self._member_key(uid)
        name = check_nickname(nickname)
        self._members[key] = name
        return name

    def retire_member(self, uid: str) -> bool:
        """Forget a member card enrolled at this table; False if it was not one."""
        return self._members.pop(self.normalize(uid), None) is not None

    def set_hub_members(self, members: dict[str, str]) -> list[str]:
        """The café hub's member cards, replacing the ones it sent before.

        An entry the table cannot take (a bad UID or nickname, a UID that is a
        card or staff tag here) is left out; the returned lines say which and why.
        """
        taken: dict[str, str] = {}
        problems: list[str] = []
        for uid, nickname in members.items():
            try:
                key = self._member_key(str(uid))
                taken[key] = check_nickname(str(nickname))
            except TableError as exc:
                problems.append(f"member tag {shorten(repr(uid))}: {exc}")
        self._hub_members = taken
        return problems

    def _member_key(self, uid: str) -> str:
        key = self.normalize(uid)
        if not 4 <= len(key) <= 20:
            raise RegistryError(
                say(
                    "{tag} is not a tag UID (4 to 10 bytes in hex)", tag=_quoted(shorten(repr(uid)))
                )
            )
        entry = self._by_uid.get(key)
        if entry is not None:
            if entry.is_staff:
                raise RegistryError(
                    say("tag {tag} is already enrolled as a staff tag", tag=Verbatim(key))
                )
            raise RegistryError(
                say(
                    "tag {tag} is already enrolled as {card} of {deck}",
                    tag=Verbatim(key),
                    card=Verbatim(entry.card),
                    deck=Verbatim(entry.deck),
                )
            )
        return key

    def has_staff_tag(self) -> bool:
        """Whether any staff tag is enrolled (without one the staff desk cannot open)."""
        return any(entry.is_staff for entry in self._by_uid.values())

    def cards_of(self, deck: str) -> list[tuple[str, str]]:
        return [(uid, e.card) for uid, e in self._by_uid.items() if e.deck == deck]

    def __len__(self) -> int:
        return len(self._by_uid)


def simulated_uid(deck: str, card: str, copy: int = 0) -> str:
    """A stable, made-up 7-byte UID for a simulated card (NTAG-like, starting 04)."""
    digest = hashlib.sha256(f"{deck}/{card}/{copy}".encode()).hexdigest().upper()
    return "04" + digest[:12]


def simulated(deck_ids: Iterable[str] | None = None) -> TagRegistry:
    """The bundled simulated registry: every card of every deck, plus one staff tag."""
    registry = TagRegistry()
    for deck in decks() if deck_ids is None else deck_ids:
        seen: dict[str, int] = {}
        for card in deck_cards(deck):
            copy = seen.get(card, 0)
            seen[card] = copy + 1
            registry.enroll(deck, card, simulated_uid(deck, card, copy))
    registry.enroll(STAFF, STAFF, SIMULATED_STAFF_UID)
    return registry


SIMULATED_STAFF_UID = "04517AFF0000AA"
