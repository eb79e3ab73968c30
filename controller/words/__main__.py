"""Keep the catalogs in step with the sources: ``python -m controller.words COMMAND``.

    update    extract every ``say``/``say_plural`` key into the domain's template and
              merge it into each language's .po (new keys arrive empty, gone keys leave)
    compile   write the .mo files the table loads (the installer and CI run this)
    check     list keys a language has not translated (or left fuzzy); exit 1 if any

Without DOMAIN names, every domain (``controller/words/catalogs.py`` lists them).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from controller.words.catalogs import TRANSLATED, domains, po_path, pot_path
from controller.words.extract import compile_all, missing, update


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m controller.words", description=__doc__.splitlines()[0]
    )
    parser.add_argument("command", choices=("update", "compile", "check"))
    parser.add_argument("domains", nargs="*", help="domains to work on (default: all)")
    args = parser.parse_args(argv)
    known = {d.name for d in domains()}
    unknown = [d for d in args.domains if d not in known]
    if unknown:
        print(
            f"unknown domain {unknown[0]!r}; the domains are: {', '.join(sorted(known))}",
            file=sys.stderr,
        )
        return 2
    chosen = [d for d in domains() if not args.domains or d.name in args.domains]
    if args.command == "update":
        for domain in chosen:
            keys = update(domain)
            print(f"{pot_path(domain.name).name}: {keys} keys")
        return 0
    if args.command == "compile":
        for path in compile_all(chosen):
            print(f"compiled {path}")
        return 0
    problems = 0
    for domain in chosen:
        for language in TRANSLATED:
            for key, why in missing(domain, language):
                problems += 1
                print(f"{po_path(language, domain.name)}: {why}: {key!r}")
    print(f"{problems} untranslated or fuzzy keys" if problems else "every key is translated")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
