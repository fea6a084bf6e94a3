"""Seeds: short codes a person can read aloud across the table (RULINGS R19).

A seed is 8 characters from :data:`ALPHABET`: digits 2-9 and capital letters, without the look-alikes 0/O, 1/I/L
and U/V. Seeds are normalized before use: surrounding blanks are stripped, letters upper-cased, and the spaces or
hyphens a person may put in when writing one down (``K7MX-2QPA``) are dropped.
"""

from __future__ import annotations

import secrets
from typing import Final

from scoring.errors import quote

#: 30 symbols: no 0/O, 1/I/L, U (read as V) look-alikes.
ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
SEED_LENGTH: Final = 8
_SEPARATORS: Final = " -_"


class SeedError(ValueError):
    """A seed that is not 8 characters of :data:`ALPHABET`; the message says what is wrong, for a person."""


def new_seed() -> str:
    """A fresh seed from :mod:`secrets` (30**8, about 6.6e11, possible seeds)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(SEED_LENGTH))


def normalize_seed(seed: str) -> str:
    """The canonical form of ``seed``; :class:`SeedError` with a clear message if it is malformed."""
    if not isinstance(seed, str):
        raise SeedError(f"a setup code is a text code of {SEED_LENGTH} characters, not {type(seed).__name__}")
    code = "".join(ch for ch in seed.strip().upper() if ch not in _SEPARATORS)
    if not code:
        raise SeedError(f"the setup code is empty: give {SEED_LENGTH} characters such as K7MX2QPA")
    wrong = sorted({ch for ch in code if ch not in ALPHABET})
    if wrong:
        shown = ", ".join(repr(ch) for ch in wrong[:8]) + (", …" if len(wrong) > 8 else "")
        hint = ""
        if any(ch in "01OILU" for ch in wrong):
            hint = " (setup codes never use 0, O, 1, I, L or U, which are easy to mistake for one another)"
        raise SeedError(
            f"the setup code {quote(seed.strip())} has characters a setup code never uses: {shown}{hint}; "
            f"a setup code uses only {ALPHABET}"
        )
    if len(code) != SEED_LENGTH:
        raise SeedError(
            f"the setup code {quote(seed.strip())} has {len(code)} characters; a setup code has exactly {SEED_LENGTH}, "
            "such as K7MX2QPA"
        )
    return code
