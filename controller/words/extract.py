"""Extracting, merging, compiling and checking the catalogs with Babel.

Babel's own Python extractor reads the sources (keywords ``say`` and
``say_plural``), so a key is whatever the code passes: nothing is listed by
hand. Merging never guesses ("fuzzy" matches are off): a changed sentence
arrives untranslated, and the catalog test says so.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from controller.games.words import fields
from controller.words.catalogs import (
    KEYWORDS,
    ROOT,
    TRANSLATED,
    Domain,
    domain_files,
)

PROJECT = "cafe-table"


def template(domain: Domain, root: Path = ROOT) -> Catalog:
    """The domain's keys as found in its sources now (a fresh template catalog)."""
    catalog = Catalog(project=PROJECT, fuzzy=False)
    for path in domain_files(domain, root):
        relative = path.relative_to(root).as_posix()
        for lineno, message, comments, context in extract_from_file(
            "python", path, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
        ):
            catalog.add(
                message,
                locations=[(relative, lineno)],
                auto_comments=comments,
                context=context,
            )
    return catalog


def update(domain: Domain) -> int:
    """Rewrite the domain's template and merge it into each language; the number of keys."""
    fresh = template(domain)
    pot = domain.pot
    pot.parent.mkdir(parents=True, exist_ok=True)
    with pot.open("wb") as handle:
        write_po(handle, fresh, omit_header=False, sort_output=True)
    for language in TRANSLATED:
        po = domain.po(language)
        if po.exists():
            with po.open("rb") as handle:
                catalog = read_po(handle, locale=language)
        else:
            catalog = Catalog(locale=language, project=PROJECT, domain=domain.name, fuzzy=False)
        catalog.update(fresh, no_fuzzy_matching=True)
        po.parent.mkdir(parents=True, exist_ok=True)
        with po.open("wb") as handle:
            write_po(handle, catalog, ignore_obsolete=True, sort_output=True, width=100)
    return len(fresh)


def compile_all(domains: Sequence[Domain]) -> list[Path]:
    """Write every language's ``.mo`` for ``domains``; the files written."""
    written: list[Path] = []
    for domain in domains:
        for language in TRANSLATED:
            po = domain.po(language)
            if not po.exists():
                continue
            with po.open("rb") as handle:
                catalog = read_po(handle, locale=language)
            mo = po.with_suffix(".mo")
            with mo.open("wb") as handle:
                write_mo(handle, catalog, use_fuzzy=False)
            written.append(mo)
    return written


def missing(
    domain: Domain, language: str, root: Path = ROOT, keys: Catalog | None = None
) -> Iterator[tuple[str, str]]:
    """Keys of the domain's sources that ``language`` lacks, leaves fuzzy, or breaks.

    Checked against the sources themselves (not the stored template), so a
    sentence added without running ``update`` is found as well. A translation
    whose ``{fields}`` differ from the key's would show a wrong or empty value.
    ``keys`` is ``template(domain, root)`` when the caller has it already (one
    extraction for every language).
    """
    po = domain.po(language)
    translated: dict[str, Message] = {}
    if po.exists():
        with po.open("rb") as handle:
            for message in read_po(handle, locale=language):
                if message.id:
                    key = message.id[0] if isinstance(message.id, tuple | list) else message.id
                    translated[str(key)] = message
    for message in keys if keys is not None else template(domain, root):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        key = str(ids[0])
        found = translated.get(key)
        if found is None:
            yield key, "missing"
            continue
        if found.fuzzy:
            yield key, "fuzzy"
            continue
        strings = found.string if isinstance(found.string, tuple | list) else (found.string,)
        if not all(strings):
            yield key, "untranslated"
            continue
        wanted = set().union(*(fields(str(i)) for i in ids))
        for text in strings:
            if fields(str(text)) - wanted:
                yield key, f"has fields the key does not: {sorted(fields(str(text)) - wanted)}"
                break
