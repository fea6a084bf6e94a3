"""The unguessable tokens in shared links (games, score sheets, a setup's ticks): one maker, one shape."""

from __future__ import annotations

import re
import secrets
from typing import Final

TOKEN_BYTES: Final = 18
"""secrets.token_urlsafe(18): 24 characters, 144 random bits (at least 128 are required)."""
TOKEN_RE: Final = re.compile(r"[A-Za-z0-9_-]{22,64}")
"""What a token looks like; anything else is refused before the database is asked."""
ANY_TOKEN_RE: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""What any link's token looks like, of every kind: a score sheet's (as short as 16 characters) and a setup's
stream (16 hex digits) too. Refused before the database: PostgreSQL answers a NUL in a query with an error."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def is_token(text: str) -> bool:
    return TOKEN_RE.fullmatch(text) is not None
