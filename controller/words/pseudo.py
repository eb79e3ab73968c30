"""The pseudo-locale: every translated sentence comes out bracketed and accented.

"Seat {number}" becomes "⟦Šéáť {number}⟧". A screen drawn in this language
shows at a glance, and the "nothing untranslated" test checks by machine,
that every word went through the catalog: a string without the brackets
reached the screen without a key. The accents and the longer vowels also
show where a longer language would not fit.
"""

from __future__ import annotations

import gettext
import string

OPEN, CLOSE = "⟦", "⟧"

_ACCENTED = str.maketrans("aeiouyAEIOUYcsznCSZN", "áéíóúýÁÉÍÓÚÝčšžňČŠŽŇ")


def pseudo(sentence: str) -> str:
    """``sentence`` accented outside its ``{fields}`` and bracketed."""
    out: list[str] = []
    for literal, name, spec, _conversion in string.Formatter().parse(sentence):
        out.append(literal.translate(_ACCENTED))
        if name is not None:
            out.append("{" + name + (":" + spec if spec else "") + "}")
    return OPEN + "".join(out) + CLOSE


def is_pseudo(text: str) -> bool:
    """Whether ``text`` came out of the pseudo catalog (a bracketed sentence)."""
    return text.startswith(OPEN) and text.endswith(CLOSE)


class PseudoTranslations(gettext.NullTranslations):
    """gettext's interface, answering every key with its pseudo-translation."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)
