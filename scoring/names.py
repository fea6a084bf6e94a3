"""Players' names that a person can see and tell apart (issue 24, "Headers and names"), for every reader of a name:
the start pages' forms (companion.forms), the JSON readers (:mod:`scoring.table`, :mod:`scoring.osaka.read`) and the
validator's "two players of one name" (:mod:`scoring.validate`).

A name that shows nothing, or begins with a character that shows nothing (a zero-width space, a word joiner, a
Hangul filler...), is refused: two players could look alike, or a name could look empty. Inside a name such
characters are allowed (the joiners U+200C and U+200D are part of Persian and Indic spelling and of emoji
sequences such as a family or a flag), but two names of one table that differ only by them, or by case, are the
same name (:func:`name_key`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Final

JOINERS: Final = frozenset("\u200c\u200d")
"""ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER: spelling in Persian and Indic scripts, glue in emoji sequences."""

#: Letters and symbols that draw nothing: the combining grapheme joiner, the Hangul fillers, the Braille blank,
#: Khmer's inherent vowels, Mongolian's free variation selectors.
_BLANK_GLYPHS: Final = frozenset("\u034f\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180b\u180c\u180d\u180f")


def _is_selector(ch: str) -> bool:
    """A variation selector or an emoji tag: drawn only as a change to the character before it."""
    code = ord(ch)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0xE0020 <= code <= 0xE007F


def invisible(ch: str) -> bool:
    """True for a character that draws nothing by itself (spaces, format characters, fillers, selectors)."""
    return (
        unicodedata.category(ch) in ("Cf", "Cc", "Zs", "Zl", "Zp") or ch in _BLANK_GLYPHS or _is_selector(ch)
    )


def name_problem(name: str) -> str | None:
    """Why ``name`` (trimmed) cannot be a player's name, or None: it shows nothing, or starts with a character
    that shows nothing. The message names the character by its code point, the only way to show it."""
    if not name or all(invisible(ch) for ch in name):
        return "a name needs letters or signs a person can see"
    if invisible(name[0]):
        return f"the name starts with a character that cannot be seen (U+{ord(name[0]):04X}): type it again without it"
    return None


def _joinable(ch: str) -> bool:
    """A character a joiner changes the drawing of: visible, and not Latin, Greek or Cyrillic (which never join)."""
    return not invisible(ch) and not unicodedata.name(ch, "").startswith(
        ("LATIN", "GREEK", "CYRILLIC", "DIGIT")
    )


def name_key(name: str) -> str:
    """What two names must differ by: case, letters and visible signs. Characters that draw nothing are left out,
    joiners unless they sit between two characters they can join (Persian, Indic, emoji), and selectors after a letter (where neither changes
    how the name is drawn); the text is compared composed (NFC) and case-folded."""
    text = unicodedata.normalize("NFC", name)
    kept = []
    for i, ch in enumerate(text):
        if ch in JOINERS:
            if 0 < i < len(text) - 1 and _joinable(text[i - 1]) and _joinable(text[i + 1]):
                kept.append(ch)
        elif _is_selector(ch):  # an emoji's variation or a flag's tags: nothing after a letter
            if kept and not unicodedata.category(kept[-1]).startswith("L"):
                kept.append(ch)
        elif not invisible(ch) or ch == " ":
            kept.append(ch)
    return " ".join("".join(kept).casefold().split())


def short_labels(names: Sequence[str]) -> list[str]:
    """Each name's first letters, as few as make it unique among the others (case ignored): ``Dominique`` and
    ``David`` are ``Do`` and ``Da``; a name that begins another is whole. What a phone's player tabs show (the pad
    check, the walk-through), beside the whole total."""
    folded = [n.casefold() for n in names]
    out = []
    for i, name in enumerate(names):
        others = [f for j, f in enumerate(folded) if j != i]
        k = next(
            (k for k in range(1, len(name) + 1) if all(not o.startswith(folded[i][:k]) for o in others)), None
        )
        out.append(name[:k] if k else name)
    return out


__all__ = ["JOINERS", "invisible", "name_key", "name_problem", "short_labels"]
