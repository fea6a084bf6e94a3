"""Malformed input: one exception class per kind of failure (python-chess style).

These are raised while *reading* a table (wrong JSON shape, unknown field or id). A well-formed table that the
rules do not allow is not an exception: :func:`scoring.validate.validate` reports it as a list of problems.
"""

from __future__ import annotations


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
