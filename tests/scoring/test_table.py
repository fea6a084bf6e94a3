"""Reading a table from JSON: shape, field names and ids (docs/api.md). Each failure kind has its class."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.errors import (
    InputError,
    MalformedJSONError,
    MissingFieldError,
    UnknownFieldError,
    UnknownIdError,
    WrongTypeError,
)
from scoring.table import StackPlace, read_json, read_player, read_table, table_to_json


def two(**first: Any) -> dict[str, Any]:
    return {"players": [{"name": "Anaïs", **first}, {"name": "David"}]}


@pytest.mark.parametrize(
    ("data", "error", "field", "words"),
    [
        ([], WrongTypeError, "", "expected an object"),
        ({}, MissingFieldError, "players", "needs its players"),
        ({"players": {}}, WrongTypeError, "players", "expected a list"),
        ({"players": [], "extra": 1}, UnknownFieldError, "extra", "unknown field 'extra'"),
        ({"players": [{"mon": 1}]}, MissingFieldError, "players[0].name", "needs a name"),
        ({"players": [{"name": "  "}]}, WrongTypeError, "players[0].name", "cannot be blank"),
        (two(fsh=[]), UnknownFieldError, "players[0].fsh", "unknown field 'fsh'"),
        (two(mon="5"), WrongTypeError, "players[0].mon", "expected a whole number, got a string"),
        (two(mon=5.5), WrongTypeError, "players[0].mon", "got a decimal number"),
        (two(mon=True), WrongTypeError, "players[0].mon", "got true/false"),
        (two(mon=None), WrongTypeError, "players[0].mon", "got null"),
        (two(fish="fish-spring"), WrongTypeError, "players[0].fish", "expected a list"),
        (two(fish=[3]), WrongTypeError, "players[0].fish[0]", "expected a string"),
        (two(fish=[{"id": "fish-spring"}]), WrongTypeError, "players[0].fish[0]", "expected a string, got an object"),
        (two(fish=["fish-sprung"]), UnknownIdError, "players[0].fish[0]", "not a known fish token id"),
        (two(fish=["pipe-spring-1"]), UnknownIdError, "players[0].fish[0]", "is a pipe token, not a fish token"),
        (two(characters=["monkey"]), UnknownIdError, "players[0].characters[0]", "not a known character"),
        (two(retirement_tokens=["fish-fisherman"]), UnknownIdError, "players[0].retirement_tokens[0]", "is a fish"),
        (two(wild_types={"puppeteer": "clown"}), UnknownIdError, "players[0].wild_types.puppeteer", "not a character type"),
        (two(wild_types={"nobody": "artisan"}), UnknownIdError, "players[0].wild_types.nobody", "not a known character"),
        (two(wild_types=["puppeteer"]), WrongTypeError, "players[0].wild_types", "expected an object"),
        ({**two(), "expansions": ["akebono", "osaka"]}, UnknownIdError, "expansions[1]", "not an expansion"),
        ({**two(), "setup": {"buildings": ["inn"], "boats": []}}, UnknownFieldError, "setup.boats", "unknown field"),
        ({**two(), "setup": {"boat_sides": {"ferry-boat": "C"}}}, WrongTypeError, "setup.boat_sides.ferry-boat", "'A' or 'B'"),
        ({**two(), "setup": {"boat_sides": {"rowboat": "A"}}}, UnknownIdError, "setup.boat_sides.rowboat", "not a known boat"),
        ({**two(), "firefighting_order": "Anaïs"}, WrongTypeError, "firefighting_order", "expected a list"),
        ({**two(), "firefighting_order": [1]}, WrongTypeError, "firefighting_order[0]", "expected a string"),
        ({**two(), "stacks": ["Anaïs"]}, WrongTypeError, "stacks", "expected an object"),
        ({**two(), "stacks": {"top": ["Anaïs"]}}, WrongTypeError, "stacks", "not 'top'"),
        ({**two(), "stacks": {"05": ["Anaïs"]}}, WrongTypeError, "stacks", "a whole number such as \"5\""),
        ({**two(), "stacks": {"²": ["Anaïs"]}}, WrongTypeError, "stacks", "firefighting space"),
        ({**two(), "stacks": {"9" * 5000: ["Anaïs"]}}, WrongTypeError, "stacks", "not '9999999999"),
        ({**two(), "stacks": {"5": "Anaïs"}}, WrongTypeError, "stacks.5", "expected a list"),
        ({**two(), "stacks": {"5": ["Anaïs", 2]}}, WrongTypeError, "stacks.5[1]", "expected a string"),
    ],
)  # fmt: skip
def test_malformed_input_names_the_field(data: Any, error: type[Exception], field: str, words: str) -> None:
    with pytest.raises(error) as raised:
        read_table(data)
    assert raised.value.field == field  # type: ignore[attr-defined]
    assert words in raised.value.message  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("player", "field"),
    [
        ([], "players[2]"),
        ({"mon": 1}, "players[2].name"),
        ({"name": "Anaïs", "mon": 5.5}, "players[2].mon"),
        ({"name": "Anaïs", "fish": ["pipe-spring-1"]}, "players[2].fish[0]"),
        ({"name": "Anaïs", "wild_types": {"puppeteer": "clown"}}, "players[2].wild_types.puppeteer"),
    ],
)
def test_one_player_read_alone_names_its_place(player: Any, field: str) -> None:
    """read_player (a score sheet reads only the player an entry changed) fails as read_table does."""
    with pytest.raises(InputError) as raised:
        read_player(player, "players[2]")
    assert raised.value.field == field


def test_one_player_read_alone_is_the_tables_player() -> None:
    data = two(
        characters=["puppeteer", "any-artisan"], wild_types={"puppeteer": "artisan"}, fish=["fish-spring"]
    )
    assert read_player(data["players"][0]) == read_table(data).players[0]
    assert read_player({"name": " David "}) == read_table(two()).players[1]


@pytest.mark.parametrize("text", ["", "{", "[1,", '{"players": [}', "nan"])
def test_malformed_json(text: str) -> None:
    with pytest.raises(MalformedJSONError, match="not valid JSON"):
        read_json(text)


def test_missing_lists_are_empty_and_missing_numbers_zero() -> None:
    table = read_table({"players": [{"name": "Anaïs"}, {"name": "David"}]})
    anais = table.players[0]
    assert anais.fish == () and anais.characters == () and anais.wild_types == {}
    assert anais.mon == 0 and anais.score_track == 0 and anais.trade == 0
    assert table.setup is None and table.firefighting_order is None and not table.akebono


def test_round_trip() -> None:
    data = {
        "expansions": ["akebono"],
        "setup": {"buildings": ["inn"], "personalities": ["ryokan"], "boat_sides": {"ferry-boat": "B"}},
        "firefighting_order": ["Anaïs", "David"],
        "stacks": {"0": ["Anaïs", "David"]},
        "players": [{"name": "Anaïs", "characters": ["puppeteer"], "wild_types": {"puppeteer": "artisan"}, "mon": 3},
                    {"name": "David", "fish": ["fish-spring"]}],
    }  # fmt: skip
    table = read_table(data)
    assert read_table(table_to_json(table)) == table


def test_stacks_are_read_top_first() -> None:
    """RULINGS R12: ``{"5": ["Ben", "Aiko"]}`` puts Ben on top of space 5."""
    table = read_table({**two(), "stacks": {"5": [" Ben ", "Aiko"], "0": []}})
    assert table.stacks == (StackPlace("Ben", 5, 1), StackPlace("Aiko", 5, 2))
    assert read_table(two()).stacks == ()
