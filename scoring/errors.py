"""Malformed input: one exception class per kind of failure (python-chess style).

These are raised while *reading* a table (wrong JSON shape, unknown field or id). A well-formed table that the
rules do not allow is not an exception: :func:`scoring.validate.validate` reports it as a list of problems.
"""

from __future__ import annotations

from typing import Final

QUOTE_MAX: Final = 40
"""A message quotes at most this many characters of what was sent: enough to recognise it, never a request's
whole text (a 10 kB field would otherwise come back in the answer, the log and the page)."""


def quote(value: object) -> str:
    """What was sent, as a message quotes it: ``'abc'`` for text (at most :data:`QUOTE_MAX` characters, then
    ``…``), the value's own spelling for anything else, shortened the same way."""
    text = value if isinstance(value, str) else repr(value)
    short = text[:QUOTE_MAX]
    shown = repr(short) if isinstance(value, str) else short
    return shown + ("…" if len(text) > QUOTE_MAX else "")


def clip(key: object) -> str:
    """A key of the request inside a field path (``setup.boat_sides.KEY``), at most :data:`QUOTE_MAX` characters."""
    text = str(key)
    return text[:QUOTE_MAX] + ("…" if len(text) > QUOTE_MAX else "")


class InputError(ValueError):
    """Base class: the input cannot be read as a table. ``field`` names the offending request field."""

    code = "invalid-input"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "field": self.field, "message": self.message}


class MalformedJSONError(InputError):
    """The text is not JSON at all."""

    code = "malformed-json"


class WrongTypeError(InputError):
    """A field holds the wrong JSON type (a string where a number belongs, ...)."""

    code = "wrong-type"


class UnknownFieldError(InputError):
    """A field the contract does not define (often a typo)."""

    code = "unknown-field"


class MissingFieldError(InputError):
    """A field the contract requires is absent."""

    code = "missing-field"


class UnknownIdError(InputError):
    """An id that names no component of the catalogue, or a component of another kind."""

    code = "unknown-id"


class InvalidValueError(InputError):
    """A value of the right type that the field never takes (a card value other than 2, 3 or 5; 5 players)."""

    code = "invalid-value"


class RepeatedError(InputError):
    """A list that names the same thing twice where each may appear once (a player's name, a ship)."""

    code = "repeated"
