"""Strict reading of decoded JSON, shared by the IKI table (:mod:`scoring.table`) and Traders of Osaka
(:mod:`scoring.osaka.read`): each helper raises an :class:`~scoring.errors.InputError` naming the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from scoring.errors import UnknownFieldError, WrongTypeError, clip, quote

JSON_TYPE: Final = {dict: "an object", list: "a list", str: "a string", int: "a whole number"}


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
