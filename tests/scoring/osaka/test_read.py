"""Reading the Traders of Osaka JSON (scoring/osaka/read.py): malformed input raises an InputError naming the field
(a 400 through the API, exit 2 through the CLI); nothing else is raised."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.errors import InputError
from scoring.osaka import evaluate_payday, evaluate_ranking
from scoring.osaka.components import Colour
from scoring.osaka.read import read_moment

TWO = [{"name": "Ann"}, {"name": "Bo"}]

# (case, payday JSON, error code, field)
MALFORMED: list[tuple[str, Any, str, str]] = [
    ("not an object", [], "wrong-type", ""),
    ("an unknown top field", {"arrived": ["red"], "players": TWO, "sunken": []}, "unknown-field", "sunken"),
    ("arrived missing", {"players": TWO}, "missing-field", "arrived"),
    ("arrived empty", {"arrived": [], "players": TWO}, "invalid-value", "arrived"),
    ("arrived repeating a colour", {"arrived": ["red", "red"], "players": TWO}, "repeated", "arrived[1]"),
    ("sunk repeating a colour", {"arrived": ["red"], "sunk": ["blue", "blue"], "players": TWO}, "repeated",
     "sunk[1]"),
    ("an unknown colour", {"arrived": ["purple"], "players": TWO}, "unknown-id", "arrived[0]"),
    ("a colour in capitals", {"arrived": ["Red"], "players": TWO}, "unknown-id", "arrived[0]"),
    ("arrived not a list", {"arrived": "red", "players": TWO}, "wrong-type", "arrived"),
    ("players missing", {"arrived": ["red"]}, "missing-field", "players"),
    ("one player", {"arrived": ["red"], "players": TWO[:1]}, "invalid-value", "players"),
    ("five players", {"arrived": ["red"], "players": [{"name": n} for n in "ABCDE"]}, "invalid-value", "players"),
    ("a repeated name", {"arrived": ["red"], "players": [{"name": "Ann"}, {"name": " ann "}]}, "repeated",
     "players[1].name"),
    ("a blank name", {"arrived": ["red"], "players": [{"name": "  "}, {"name": "Bo"}]}, "invalid-value",
     "players[0].name"),
    ("a name missing", {"arrived": ["red"], "players": [{}, {"name": "Bo"}]}, "missing-field", "players[0].name"),
    ("a number as name", {"arrived": ["red"], "players": [{"name": 3}, {"name": "Bo"}]}, "wrong-type",
     "players[0].name"),
    ("a player not an object", {"arrived": ["red"], "players": ["Ann", "Bo"]}, "wrong-type", "players[0]"),
    ("an unknown player field", {"arrived": ["red"], "players": [{"name": "A", "vp": 3}, {"name": "B"}]},
     "unknown-field", "players[0].vp"),
    ("a card value 4", {"arrived": ["red"], "players": [{"name": "A", "goods": {"red": [2, 4]}}, {"name": "B"}]},
     "invalid-value", "players[0].goods.red[1]"),
    ("a card as text", {"arrived": ["red"], "players": [{"name": "A", "goods": {"red": ["5"]}}, {"name": "B"}]},
     "wrong-type", "players[0].goods.red[0]"),
    ("a card as true", {"arrived": ["red"], "players": [{"name": "A", "insured": {"red": [True]}}, {"name": "B"}]},
     "wrong-type", "players[0].insured.red[0]"),
    ("a card as 5.0", {"arrived": ["red"], "players": [{"name": "A", "insurance": {"red": [5.0]}}, {"name": "B"}]},
     "wrong-type", "players[0].insurance.red[0]"),
    ("goods as a list", {"arrived": ["red"], "players": [{"name": "A", "goods": [5]}, {"name": "B"}]},
     "wrong-type", "players[0].goods"),
    ("goods of an unknown colour", {"arrived": ["red"], "players": [{"name": "A", "goods": {"pink": [5]}},
     {"name": "B"}]}, "unknown-id", "players[0].goods.pink"),
    ("tokens as a list", {"arrived": ["red"], "players": [{"name": "A", "tokens": [1]}, {"name": "B"}]},
     "wrong-type", "players[0].tokens"),
    ("a token count as text", {"arrived": ["red"], "players": [{"name": "A", "tokens": {"red": "1"}},
     {"name": "B"}]}, "wrong-type", "players[0].tokens.red"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "code", "field"), [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED])
def test_malformed_payday(data: Any, code: str, field: str) -> None:
    with pytest.raises(InputError) as raised:
        evaluate_payday(data)
    assert (raised.value.code, raised.value.field) == (code, field)
    assert raised.value.message


# (case, ranking JSON, error code, field)
MALFORMED_RANKING: list[tuple[str, Any, str, str]] = [
    ("vp missing", {"players": [{"name": "A"}, {"name": "B", "vp": 1}]}, "missing-field", "players[0].vp"),
    ("vp as text", {"players": [{"name": "A", "vp": "3"}, {"name": "B", "vp": 1}]}, "wrong-type", "players[0].vp"),
    ("goods in a ranking", {"players": [{"name": "A", "vp": 3, "goods": {}}, {"name": "B", "vp": 1}]},
     "unknown-field", "players[0].goods"),
    ("a payday's field", {"arrived": ["red"], "players": []}, "unknown-field", "arrived"),
    ("one player", {"players": [{"name": "A", "vp": 3}]}, "invalid-value", "players"),
    ("a repeated name", {"players": [{"name": "A", "vp": 3}, {"name": "A", "vp": 1}]}, "repeated",
     "players[1].name"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("data", "code", "field"), [c[1:] for c in MALFORMED_RANKING], ids=[c[0] for c in MALFORMED_RANKING]
)
def test_malformed_ranking(data: Any, code: str, field: str) -> None:
    with pytest.raises(InputError) as raised:
        evaluate_ranking(data)
    assert (raised.value.code, raised.value.field) == (code, field)


def test_names_are_trimmed_and_zero_counts_may_be_left_out() -> None:
    moment = read_moment({"arrived": ["red"], "players": [{"name": "  Ann \n Lee "}, {"name": "Bo", "goods": {
        "red": [], "blue": [2]}, "tokens": {"red": 0}}]})  # fmt: skip
    assert moment.players[0].name == "Ann Lee"
    assert moment.players[1].goods[Colour.RED] == () and moment.players[1].goods[Colour.BLUE] == (2,)
    assert moment.sunk == ()
