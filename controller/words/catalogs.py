"""The gettext catalogs: which sources feed which domain, and loading a language.

Each room owns one domain, so the people who write a game's sentences also
keep its translations, in files nobody else edits. The table, the display and
the staff's words live here; each game's live in its own folder, and its
domain (named by the game's key) is derived from its spec, so a new game's
folder brings its catalogs with it:

    <locale>/<domain>.pot                      the template (extracted)
    <locale>/<lang>/LC_MESSAGES/<domain>.po    a language's translations
    <locale>/<lang>/LC_MESSAGES/<domain>.mo    compiled (not in git)

where ``<locale>`` is ``controller/words/locale`` or ``controller/games/<key>/locale``.

``.venv/bin/python -m controller.words update`` extracts the templates from the sources
(Babel, keywords ``say`` and ``say_plural``) and merges them into every
language's ``.po``; ``.venv/bin/python -m controller.words compile`` writes the ``.mo``
files (the Pi installer and CI run it). A table started from a checkout
without ``.mo`` files, or with ``.po`` files newer than them, compiles the
``.po`` in memory instead, so a translation edited on a laptop shows at once.
"""

from __future__ import annotations

import functools
import gettext
import io
import logging
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path

log = logging.getLogger(__name__)

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
ROOT = Path(__file__).resolve().parents[2]

ENGLISH = "en"
PSEUDO = "qps"  # the pseudo-locale of the "nothing untranslated" test (never offered to players)
LANGUAGES: tuple[str, ...] = ("en", "de", "ja")  # what a table and a seat may choose
TRANSLATED: tuple[str, ...] = ("de", "ja")  # languages with catalogs (English is the source)

# A language's own name, for the join screen's language switch (never translated).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "de": "Deutsch", "ja": "日本語"}

# Keywords the extractor looks for: say(key, ...), say_plural(singular, plural, n, ...).
KEYWORDS: dict[str, tuple[int, ...]] = {"say": (1,), "say_plural": (1, 2)}


@dataclass(frozen=True)
class Domain:
    """One catalog and the source files (globs relative to the repository) it is extracted from."""

    name: str
    sources: tuple[str, ...]
    locale: Path = field(default=LOCALE_DIR, compare=False)  # where its .pot and .po files lie

    @property
    def pot(self) -> Path:
        """The domain's template."""
        return self.locale / f"{self.name}.pot"

    def po(self, language: str) -> Path:
        """The domain's ``.po`` file for ``language``."""
        return self.locale / language / "LC_MESSAGES" / f"{self.name}.po"


# The rooms' own domains. Every source file that writes player- or staff-facing
# words belongs to one domain; a game's folder and its scene form the game's
# domain (``game_domain``), which claims its files before these do.
ROOM_DOMAINS: tuple[Domain, ...] = (
    Domain(
        "table",
        (
            "controller/games/*.py",
            "controller/adapters/*.py",
            "controller/bots/*.py",
            "controller/table/*.py",
            "controller/table/screens/*.py",
            "controller/view/*.py",
            # The presenter and the catalogs; the terminal's words are the staff's (below).
            "controller/words/[!ct]*.py",
            "controller/words/catalogs.py",
        ),
    ),
    Domain("display", ("display/*.py", "display/scenes/__init__.py")),
    Domain(
        "staff",
        (
            "controller/cli/*.py",
            "controller/config/*.py",
            "controller/kiosk/*.py",
            "controller/records/*.py",
            "controller/tags/*.py",
            "controller/fleet/*.py",
            "controller/words/terminal.py",
            "controller/words/commands.py",
            "hardware/*.py",
        ),
    ),
)


def game_domain(key: str, package: str) -> Domain | None:
    """The domain of the game in ``package`` (its folder), or None if it has no folder here."""
    try:
        module = import_module(package)
    except ModuleNotFoundError:
        return None  # a game registered from outside with no catalogs of its own
    if module.__file__ is None:
        return None
    folder = Path(module.__file__).resolve().parent
    sources: list[str] = []
    if folder.is_relative_to(ROOT):
        relative = folder.relative_to(ROOT).as_posix()
        sources = [f"{relative}/*.py", f"display/scenes/{key}.py"]
    return Domain(key, tuple(sources), folder / "locale")


@functools.cache
def domains() -> tuple[Domain, ...]:
    """Every domain: one per registered game with a folder, then the rooms' own."""
    from controller.games import specs

    found = [game_domain(spec.key, spec.package) for spec in specs().values()]
    return (*(d for d in found if d is not None), *ROOM_DOMAINS)


def domain_named(name: str) -> Domain:
    """The domain called ``name``; KeyError names the known ones."""
    for domain in domains():
        if domain.name == name:
            return domain
    raise KeyError(f"unknown domain {name!r}; the domains are {[d.name for d in domains()]}")


def domain_files(domain: Domain, root: Path = ROOT) -> list[Path]:
    """The source files of ``domain``: its globs, without files an earlier domain claimed."""
    claimed: set[Path] = set()
    for other in domains():
        if other.name == domain.name:
            break
        claimed.update(p for pattern in other.sources for p in root.glob(pattern))
    found = sorted({p for pattern in domain.sources for p in root.glob(pattern)})
    return [p for p in found if p not in claimed]


def po_path(language: str, domain: str) -> Path:
    """The ``.po`` file of ``language`` for the domain called ``domain``."""
    return domain_named(domain).po(language)


def pot_path(domain: str) -> Path:
    """The template of the domain called ``domain``."""
    return domain_named(domain).pot


@functools.cache
def game_domain_name(game_id: str | None) -> str | None:
    """The catalog domain of the game whose record key is ``game_id`` ("oh-pshaw":
    "oh_pshaw"), or None for no game, an unknown one, or one without catalogs here."""
    from controller.games import specs

    spec = None if game_id is None else specs().get(game_id)
    if spec is None:
        return None
    return spec.key if any(d.name == spec.key for d in domains()) else None


@functools.cache
def translations(language: str, first: tuple[str, ...] = ()) -> gettext.NullTranslations:
    """All domains of ``language`` as one translations object (English: none at all).

    The domains named in ``first`` are searched first, in that order, then the
    others: the same English key can be in two games' catalogs with different
    words (Oh Pshaw's rulebook "spielt an" where Oshaka Trick's "spielt aus"),
    and a game's screen must read its own. A missing catalog is logged once and
    falls back to English, so a table whose locale files were lost still runs.
    """
    if language == PSEUDO:
        from controller.words.pseudo import PseudoTranslations

        return PseudoTranslations()
    if language not in TRANSLATED:
        return gettext.NullTranslations()
    everyone = domains()
    ordered = [d for name in first for d in everyone if d.name == name]
    ordered += [d for d in everyone if d not in ordered]
    chain: gettext.NullTranslations | None = None
    for domain in ordered:
        # Each chain loads its own objects: add_fallback links them, so sharing one
        # between two orders would splice the orders together.
        loaded = _load(language, domain.name)
        if loaded is None:
            continue
        if chain is None:
            chain = loaded
        else:
            chain.add_fallback(loaded)
    if chain is None:
        log.warning("no %s catalogs under %s: showing English", language, LOCALE_DIR)
        return gettext.NullTranslations()
    return chain


def _load(language: str, domain: str) -> gettext.GNUTranslations | None:
    po = po_path(language, domain)
    mo = po.with_suffix(".mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    if not po.exists():
        return None
    return gettext.GNUTranslations(io.BytesIO(compile_po(po)))


def compile_po(po: Path) -> bytes:
    """A ``.po`` file compiled to ``.mo`` bytes (fuzzy entries left out, as msgfmt does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()
