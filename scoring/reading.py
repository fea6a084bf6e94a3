"""Strict reading of decoded JSON, shared by the IKI table (:mod:`scoring.table`) and Traders of Osaka
(:mod:`scoring.osaka.read`): each helper raises an :class:`~scoring.errors.InputError` naming the field."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final

from scoring.errors import (
    InvalidValueError,
    MalformedJSONError,
    UnknownFieldError,
    WrongTypeError,
    clip,
    quote,
)

JSON_TYPE: Final = {dict: "an object", list: "a list", str: "a string", int: "a whole number"}

MAX_NUMBER: Final = 9_999
"""The largest count or score any number field takes, either way (-9,999 to 9,999; docs/api.md "Limits"):
far beyond any game, and small enough that every sum of them prints (Python refuses to print an int of more
than 4,300 digits, so a 4,300-digit ``koban`` once made the total a 500). Beyond it: a 400 naming the field."""


def read_json(raw: str | bytes, what: str) -> object:
    """``raw`` decoded as JSON, or a :class:`MalformedJSONError` saying why ``what`` (the body, the input) is not:
    not JSON at all, or a string holding half of a character (``"\\ud800"`` alone), which Python's reader takes but
    no text can hold, so an answer echoing it (a player's name) could not be written out."""
    try:
        data = json.loads(raw)
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        raise MalformedJSONError(
            "", f"{what} holds half of a character (an escape such as \\ud800 without its pair)"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise MalformedJSONError("", f"{what} is not valid JSON ({exc})") from None
    return data


def type_name(value: object) -> str:
    """How a person would call the JSON type of ``value`` ("a string", "true/false", "null"...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, float):
        return "a decimal number"
    return JSON_TYPE.get(type(value), type(value).__name__)


def expect(value: object, kind: type, where: str) -> None:
    """Raise :class:`WrongTypeError` unless ``value`` is of the JSON type ``kind`` (true/false is no number)."""
    if not isinstance(value, kind) or isinstance(value, bool):
        raise WrongTypeError(where, f"expected {JSON_TYPE[kind]}, got {type_name(value)}")


def whole_number(value: object, where: str) -> int:
    """``value`` as a whole number within :data:`MAX_NUMBER` either way; otherwise a :class:`WrongTypeError` or
    :class:`InvalidValueError` naming ``where`` (the message never prints the number: it may be too long to)."""
    if type(value) is not int:
        expect(value, int, where)
    assert isinstance(value, int)
    if not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise InvalidValueError(
            where, f"a number here is at most {MAX_NUMBER:,} either way; this one is beyond it"
        )
    return value


def check_fields(obj: Mapping[str, object], allowed: frozenset[str], where: str) -> None:
    """Raise :class:`UnknownFieldError` for the first key of ``obj`` that is not ``allowed`` (often a typo)."""
    if obj.keys() <= allowed:
        return
    for key in obj:
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise UnknownFieldError(
                f"{where}.{clip(key)}" if where else clip(key), f"unknown field {quote(key)} (known: {known})"
            )
