"""A table's final state (the input of scoring) and its strict reading from JSON.

The JSON contract is documented in ``docs/api.md``. Missing lists mean empty, missing numbers mean 0. Reading
checks shape, field names and ids only; whether the rules allow the table is :mod:`scoring.validate`'s job.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from scoring import catalogue as cat
from scoring import reading
from scoring.components import CharType, Expansion, TokenKind
from scoring.errors import (
    InputError,
    InvalidValueError,
    MissingFieldError,
    UnknownIdError,
    WrongTypeError,
    clip,
    quote,
)
from scoring.names import name_problem
from scoring.reading import check_fields as _check_fields
from scoring.reading import expect as _expect
from scoring.reading import whole_number

NUMBER_FIELDS: Final = ("score_track", "mon", "koban", "wood", "rice", "sandals", "firefighting", "trade")
LIST_FIELDS: Final = (
    "characters",
    "retirement_tokens",
    "buildings",
    "fish",
    "pipes",
    "tobacco",
    "boats",
    "personalities",
)
BOAT_SIDES: Final = ("A", "B")

_EMPTY: Final[Mapping[str, str]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Setup:
    """What was in play, when known: the 6 buildings, the 8 personalities, the side of each boat."""

    buildings: tuple[str, ...] | None = None
    personalities: tuple[str, ...] | None = None
    boat_sides: Mapping[str, str] = field(default_factory=lambda: _EMPTY)


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player's board at the end of the game (after New Year's Day, characters taken back)."""

    name: str
    score_track: int = 0
    characters: tuple[str, ...] = ()
    wild_types: Mapping[str, CharType] = field(default_factory=lambda: MappingProxyType({}))
    retirement_tokens: tuple[str, ...] = ()
    buildings: tuple[str, ...] = ()
    fish: tuple[str, ...] = ()
    pipes: tuple[str, ...] = ()
    tobacco: tuple[str, ...] = ()
    boats: tuple[str, ...] = ()
    personalities: tuple[str, ...] = ()
    mon: int = 0
    koban: int = 0
    wood: int = 0
    rice: int = 0
    sandals: int = 0
    firefighting: int = 0
    trade: int = 0


@dataclass(frozen=True, slots=True)
class StackPlace:
    """A player's place in the stack of markers on one firefighting space, 1 being the top (RULINGS R12)."""

    name: str
    space: int
    place: int


@dataclass(frozen=True, slots=True)
class Table:
    """A finished table. Ties are decided by ``firefighting_order`` (every player) or, space by space, by
    ``stacks`` (RULINGS R12): a space's places count when every player on it has one."""

    players: tuple[PlayerState, ...]
    expansions: frozenset[Expansion] = frozenset({Expansion.BASE})
    setup: Setup | None = None
    firefighting_order: tuple[str, ...] | None = None
    stacks: tuple[StackPlace, ...] = ()

    @property
    def akebono(self) -> bool:
        return Expansion.AKEBONO in self.expansions


# --- reading JSON ----------------------------------------------------------------------------------------------

_TOP_FIELDS: Final = frozenset({"expansions", "setup", "firefighting_order", "stacks", "players"})
_SETUP_FIELDS: Final = frozenset({"buildings", "personalities", "boat_sides"})
_PLAYER_FIELDS: Final = frozenset({"name", "wild_types", *NUMBER_FIELDS, *LIST_FIELDS})

_KIND_WORD: Final = {
    "character": "character",
    "building": "building",
    "fish": "fish token",
    "pipe": "pipe token",
    "tobacco": "tobacco token",
    "retirement-token": "retirement token",
    "personality": "personality",
    "boat": "boat",
    "starting-tile": "starting tile",
    "boat-token": "boat token",
}

#: Which kind of id each player list holds.
LIST_KIND: Final = {
    "characters": "character",
    "retirement_tokens": "retirement-token",
    "buildings": "building",
    "fish": TokenKind.FISH.value,
    "pipes": TokenKind.PIPE.value,
    "tobacco": TokenKind.TOBACCO.value,
    "boats": "boat",
    "personalities": "personality",
}


def _id_list(value: object, kind: str, where: str) -> tuple[str, ...]:
    if type(value) is not list:
        _expect(value, list, where)
    assert isinstance(value, list)
    known = cat.IDS_BY_KIND[kind]
    for i, item in enumerate(value):
        # The first item that is not an id of this kind is refused, with what it is instead.
        if type(item) is not str or item not in known:
            here = f"{where}[{i}]"
            _expect(item, str, here)
            assert isinstance(item, str)
            check_id(item, kind, here)
    return tuple(value)


def check_id(item: str, kind: str, where: str) -> None:
    """Raise :class:`UnknownIdError` unless ``item`` is the id of a component of ``kind``."""
    kinds = cat.KINDS_OF_ID.get(item, ())
    if kind in kinds:
        return
    word = _KIND_WORD[kind]
    if not kinds:
        raise UnknownIdError(where, f"{quote(item)} is not a known {word} id (see GET /api/v1/catalogue)")
    raise UnknownIdError(where, f"{quote(item)} is a {_KIND_WORD[kinds[0]]}, not a {word}")


def _read_setup(value: object) -> Setup:
    _expect(value, dict, "setup")
    assert isinstance(value, dict)
    _check_fields(value, _SETUP_FIELDS, "setup")
    buildings = _id_list(value["buildings"], "building", "setup.buildings") if "buildings" in value else None
    personalities = (
        _id_list(value["personalities"], "personality", "setup.personalities")
        if "personalities" in value
        else None
    )
    sides: dict[str, str] = {}
    if "boat_sides" in value:
        raw = value["boat_sides"]
        _expect(raw, dict, "setup.boat_sides")
        assert isinstance(raw, dict)
        for boat, side in raw.items():
            here = f"setup.boat_sides.{clip(boat)}"
            check_id(boat, "boat", here)
            if side not in BOAT_SIDES:
                raise WrongTypeError(here, f"a boat side is 'A' or 'B', got {quote(side)}")
            sides[boat] = side
    return Setup(buildings, personalities, MappingProxyType(sides))


def _read_stacks(value: object) -> tuple[StackPlace, ...]:
    """``{"5": ["Ben", "Aiko"]}``: each firefighting space's markers, top first (RULINGS R12)."""
    _expect(value, dict, "stacks")
    assert isinstance(value, dict)
    out: list[StackPlace] = []
    for key, names in value.items():
        if not (
            isinstance(key, str)
            and len(key) <= 2
            and key.isascii()
            and key.isdigit()
            and str(int(key)) == key
        ):
            shown = str(key)[:40]
            raise WrongTypeError(
                "stacks",
                f'a stack\'s key is its firefighting space, a whole number such as "5", not {shown!r}',
            )
        here = f"stacks.{key}"
        _expect(names, list, here)
        assert isinstance(names, list)
        for j, name in enumerate(names):
            _expect(name, str, f"{here}[{j}]")
            out.append(StackPlace(name.strip(), int(key), j + 1))
    return tuple(out)


def stack_places(players: Sequence[PlayerState], ranks: Mapping[str, int]) -> tuple[StackPlace, ...]:
    """The places given on the shared spaces, from each player's rank in its space's stack (0 = top; the score
    sheets keep them so): ranks beyond the stack on a player's space now, or on a space of one, are not places."""
    by_space: dict[int, list[str]] = {}
    for p in players:
        by_space.setdefault(p.firefighting, []).append(p.name)
    return tuple(
        StackPlace(name, space, ranks[name] + 1)
        for space, names in by_space.items()
        if len(names) > 1
        for name in names
        if name in ranks and 0 <= ranks[name] < len(names)
    )


def read_player(value: object, where: str = "players[0]") -> PlayerState:
    """One player's JSON (as in ``players`` of :func:`read_table`), read alone: the score sheets read only the
    player an entry changed. Raises :class:`InputError` naming ``where`` as the player's place."""
    _expect(value, dict, where)
    assert isinstance(value, dict)
    _check_fields(value, _PLAYER_FIELDS, where)
    if "name" not in value:
        raise MissingFieldError(f"{where}.name", "every player needs a name")
    name = value["name"]
    _expect(name, str, f"{where}.name")
    assert isinstance(name, str)
    if not name.strip():
        raise WrongTypeError(f"{where}.name", "a player's name cannot be blank")
    problem = name_problem(name.strip())
    if problem:
        raise InvalidValueError(f"{where}.name", problem)
    lists = {
        key: _id_list(value[key], LIST_KIND[key], f"{where}.{key}") for key in LIST_FIELDS if key in value
    }
    numbers = {key: whole_number(value[key], f"{where}.{key}") for key in NUMBER_FIELDS if key in value}
    wild: dict[str, CharType] = {}
    if "wild_types" in value:
        raw = value["wild_types"]
        _expect(raw, dict, f"{where}.wild_types")
        assert isinstance(raw, dict)
        for card, chosen in raw.items():
            here = f"{where}.wild_types.{clip(card)}"
            check_id(card, "character", here)
            _expect(chosen, str, here)
            try:
                wild[card] = CharType(chosen)
            except ValueError:
                types = ", ".join(t.value for t in CharType)
                raise UnknownIdError(
                    here, f"{quote(chosen)} is not a character type (one of {types})"
                ) from None
    return PlayerState(name=name.strip(), wild_types=MappingProxyType(wild), **lists, **numbers)  # type: ignore[arg-type]


def read_table(data: object) -> Table:
    """Read a table from decoded JSON. Raises an :class:`~scoring.errors.InputError` naming the field."""
    _expect(data, dict, "")
    assert isinstance(data, dict)
    _check_fields(data, _TOP_FIELDS, "")
    expansions: set[Expansion] = {Expansion.BASE}
    if "expansions" in data:
        raw = data["expansions"]
        _expect(raw, list, "expansions")
        assert isinstance(raw, list)
        for i, name in enumerate(raw):
            _expect(name, str, f"expansions[{i}]")
            if name not in cat.EXPANSIONS:
                raise UnknownIdError(
                    f"expansions[{i}]", f"{quote(name)} is not an expansion (known: akebono)"
                )
            expansions.add(Expansion(name))
    setup = _read_setup(data["setup"]) if "setup" in data else None
    order: tuple[str, ...] | None = None
    if "firefighting_order" in data:
        raw = data["firefighting_order"]
        _expect(raw, list, "firefighting_order")
        assert isinstance(raw, list)
        for i, name in enumerate(raw):
            _expect(name, str, f"firefighting_order[{i}]")
        order = tuple(n.strip() for n in raw)
    stacks = _read_stacks(data["stacks"]) if "stacks" in data else ()
    if "players" not in data:
        raise MissingFieldError("players", "a table needs its players")
    raw_players = data["players"]
    _expect(raw_players, list, "players")
    assert isinstance(raw_players, list)
    players = tuple(read_player(p, f"players[{i}]") for i, p in enumerate(raw_players))
    return Table(
        players=players,
        expansions=frozenset(expansions),
        setup=setup,
        firefighting_order=order,
        stacks=stacks,
    )


def read_json(text: str | bytes) -> Table:
    """Read a table from JSON text; malformed JSON raises :class:`MalformedJSONError`."""
    return read_table(reading.read_json(text, "the body"))


def table_to_json(table: Table) -> dict[str, object]:
    """The inverse of :func:`read_table` (used to store and replay tables)."""
    out: dict[str, object] = {
        "expansions": sorted(e.value for e in table.expansions if e is not Expansion.BASE),
        "players": [_player_to_json(p) for p in table.players],
    }
    if table.setup is not None:
        setup: dict[str, object] = {}
        if table.setup.buildings is not None:
            setup["buildings"] = list(table.setup.buildings)
        if table.setup.personalities is not None:
            setup["personalities"] = list(table.setup.personalities)
        if table.setup.boat_sides:
            setup["boat_sides"] = dict(table.setup.boat_sides)
        out["setup"] = setup
    if table.firefighting_order is not None:
        out["firefighting_order"] = list(table.firefighting_order)
    if table.stacks:
        by_space: dict[int, list[StackPlace]] = {}
        for sp in table.stacks:
            by_space.setdefault(sp.space, []).append(sp)
        out["stacks"] = {
            str(space): [sp.name for sp in sorted(places, key=lambda sp: sp.place)]
            for space, places in by_space.items()
        }
    return out


def _player_to_json(player: PlayerState) -> dict[str, object]:
    out: dict[str, object] = {"name": player.name}
    get: Callable[[str], object] = lambda key: getattr(player, key)  # noqa: E731
    for key in NUMBER_FIELDS:
        out[key] = get(key)
    for key in LIST_FIELDS:
        out[key] = list(get(key))  # type: ignore[call-overload]
    out["wild_types"] = {card: t.value for card, t in player.wild_types.items()}
    return out


__all__ = [
    "InputError",
    "PlayerState",
    "Setup",
    "StackPlace",
    "Table",
    "read_json",
    "read_player",
    "read_table",
    "stack_places",
    "table_to_json",
]
