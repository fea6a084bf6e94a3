"""Strict reading of the Traders of Osaka JSON contract (docs/api.md "Traders of Osaka").

Reading checks shape, names, colours and card values, and raises an :class:`~scoring.errors.InputError` (a 400)
naming the field; whether the rules allow what was read is :mod:`scoring.osaka.validate`'s job (a 422).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, TypeVar

from scoring.errors import InvalidValueError, MissingFieldError, RepeatedError, UnknownIdError
from scoring.names import name_key, name_problem
from scoring.osaka.components import (
    CARD_VALUES,
    COLOURS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ByColour,
    Colour,
    no_cards,
    no_tokens,
)
from scoring.osaka.rules import Holding, Moment, Standing
from scoring.problems import join
from scoring.reading import check_fields, expect, whole_number

_PAYDAY_FIELDS: Final = frozenset({"arrived", "sunk", "players"})
_HOLDING_FIELDS: Final = frozenset({"name", "goods", "tokens", "insured", "insurance"})
_RANKING_FIELDS: Final = frozenset({"players"})
_STANDING_FIELDS: Final = frozenset({"name", "vp", "tokens"})
_BY_VALUE: Final = {c.value: c for c in COLOURS}
_COLOUR_WORDS: Final = join([c.value for c in COLOURS])
_VALUE_WORDS: Final = join([str(v) for v in CARD_VALUES])

T = TypeVar("T")


def _object(value: object, where: str) -> dict[str, object]:
    expect(value, dict, where)
    assert isinstance(value, dict)
    return value


def _list(value: object, where: str) -> list[object]:
    expect(value, list, where)
    assert isinstance(value, list)
    return value


def colour(value: object, where: str) -> Colour:
    """A goods colour by its name; anything else is a 400 naming the colours there are."""
    expect(value, str, where)
    assert isinstance(value, str)
    found = _BY_VALUE.get(value)
    if found is None:
        raise UnknownIdError(where, f"{value!r} is not a goods colour ({_COLOUR_WORDS})")
    return found


def _ships(value: object, where: str) -> tuple[Colour, ...]:
    ships: list[Colour] = []
    for i, item in enumerate(_list(value, where)):
        c = colour(item, f"{where}[{i}]")
        if c in ships:
            raise RepeatedError(
                f"{where}[{i}]", f"the {c.value} ship is listed twice; there is one ship a colour"
            )
        ships.append(c)
    return tuple(ships)


def _cards(value: object, where: str) -> tuple[int, ...]:
    cards = []
    for i, item in enumerate(_list(value, where)):
        card = whole_number(item, f"{where}[{i}]")
        if card not in CARD_VALUES:
            raise InvalidValueError(f"{where}[{i}]", f"a card's value is {_VALUE_WORDS}, not {card}")
        cards.append(card)
    return tuple(cards)


def _by_colour(value: object, where: str, read: Callable[[object, str], T], default: T) -> ByColour[T]:
    read_values: dict[Colour, T] = {}
    for key, item in _object(value, where).items():
        here = f"{where}.{key}"
        read_values[colour(key, here)] = read(item, here)
    return ByColour.of(read_values, default)


def _name(player: Mapping[str, object], where: str) -> str:
    if "name" not in player:
        raise MissingFieldError(f"{where}.name", "every player needs a name")
    name = player["name"]
    expect(name, str, f"{where}.name")
    assert isinstance(name, str)
    name = " ".join(name.split())
    if not name:
        raise InvalidValueError(f"{where}.name", "a player's name cannot be blank")
    problem = name_problem(name)
    if problem:
        raise InvalidValueError(f"{where}.name", problem)
    return name


def _players(data: Mapping[str, object], read: Callable[[object, str], T]) -> tuple[T, ...]:
    """The ``players`` list: 2-4 players with different names (RULINGS O1), each read by ``read``."""
    if "players" not in data:
        raise MissingFieldError("players", "the players are missing")
    raw = _list(data["players"], "players")
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise InvalidValueError(
            "players", f"Traders of Osaka is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(raw)}"
        )
    seen: set[str] = set()
    for i, item in enumerate(raw):
        name = name_key(_name(_object(item, f"players[{i}]"), f"players[{i}]"))
        if name in seen:
            raise RepeatedError(f"players[{i}].name", "two players have this name: give each a different one")
        seen.add(name)
    return tuple(read(item, f"players[{i}]") for i, item in enumerate(raw))


def _holding(value: object, where: str) -> Holding:
    player = _object(value, where)
    check_fields(player, _HOLDING_FIELDS, where)
    tokens = no_tokens()
    if "tokens" in player:
        tokens = _by_colour(player["tokens"], f"{where}.tokens", whole_number, 0)
    empty: tuple[int, ...] = ()
    cards = {
        key: _by_colour(player[key], f"{where}.{key}", _cards, empty) if key in player else no_cards()
        for key in ("goods", "insured", "insurance")
    }
    return Holding(
        _name(player, where), cards["goods"], tokens, insured=cards["insured"], insurance=cards["insurance"]
    )


def read_moment(data: object) -> Moment:
    """A payday's JSON: ``arrived`` (at least one ship, none twice), ``sunk`` and 2-4 ``players``."""
    top = _object(data, "")
    check_fields(top, _PAYDAY_FIELDS, "")
    if "arrived" not in top:
        raise MissingFieldError("arrived", "name the ships reaching Edo, in order")
    arrived = _ships(top["arrived"], "arrived")
    if not arrived:
        raise InvalidValueError("arrived", "a payday needs at least one ship reaching Edo")
    sunk = _ships(top["sunk"], "sunk") if "sunk" in top else ()
    return Moment(arrived, sunk, _players(top, _holding))


def _standing(value: object, where: str) -> Standing:
    player = _object(value, where)
    check_fields(player, _STANDING_FIELDS, where)
    if "vp" not in player:
        raise MissingFieldError(f"{where}.vp", "every player needs the number of VP cards")
    vp = whole_number(player["vp"], f"{where}.vp")
    tokens = (
        _by_colour(player["tokens"], f"{where}.tokens", whole_number, 0)
        if "tokens" in player
        else no_tokens()
    )
    return Standing(_name(player, where), vp, tokens)


def read_standings(data: object) -> tuple[Standing, ...]:
    """A ranking's JSON: ``players``, each with ``name``, ``vp`` and ``tokens`` by colour."""
    top = _object(data, "")
    check_fields(top, _RANKING_FIELDS, "")
    return _players(top, _standing)
