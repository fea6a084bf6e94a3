"""The JSON API (docs/api.md): POST /api/v1/score and GET /api/v1/catalogue. Nothing ever answers 500."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.test import Client

from scoring import catalogue as cat
from scoring.examples import AKEBONO_FOUR_PLAYERS, TIED_ON_SHARED_SPACES, WORKED_EXAMPLE


def post(client: Client, body: Any, content_type: str = "application/json") -> Any:
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post("/api/v1/score", data, content_type=content_type)


def test_worked_example_scores_100(client: Client) -> None:
    response = post(client, WORKED_EXAMPLE)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    answer = response.json()
    assert answer["valid"] is True
    assert answer["errors"] == [] and answer["warnings"] == []
    anais = answer["players"][0]
    assert anais["name"] == "Anaïs"
    assert anais["total"] == 100
    assert anais["lines"] == {"score_track": 28, "variety": 16, "fish": 18, "tobacco": 16, "buildings": 18,
                              "resources": 4}  # fmt: skip
    assert anais["rank"] == 1
    assert anais["explanations"]["fish"] == "3 fish 10 + spring bonus 1 + summer bonus 7 = 18"


def test_akebono_adds_the_personalities_line(client: Client) -> None:
    answer = post(client, AKEBONO_FOUR_PLAYERS).json()
    assert answer["valid"]
    assert all(list(p["lines"])[-1] == "personalities" for p in answer["players"])
    assert sorted(p["rank"] for p in answer["players"]) == [1, 2, 3, 4]


def test_rules_errors_answer_422_without_scores(client: Client) -> None:
    table = copy.deepcopy(WORKED_EXAMPLE)
    table["players"][0]["fish"] = ["fish-spring-bonus", "fish-autumn"]
    table["players"][1]["fish"] = ["fish-summer", "fish-summer-bonus"]
    response = post(client, table)
    assert response.status_code == 422
    answer = response.json()
    assert answer["valid"] is False
    assert "players" not in answer
    (error,) = answer["errors"]
    assert error == {
        "code": "fish-same-season",
        "player": "David",
        "field": "players[1].fish[1]",
        "message": "David has two summer fish (Summer fish and Summer fish (+7)): at most one fish can be bought "
        "each season.",
    }


@pytest.mark.parametrize(
    ("who", "change", "code"),
    [
        (1, {"fish": ["fish-winter", "fish-winter-bonus"]}, "two-winter-fish"),  # RULINGS R14: New Year's Day
        (0, {"wild_types": {}}, "wild-type-missing"),  # the retired Puppeteer's type not chosen
        (
            1,
            {"firefighting": 6, "score_track": 99},
            "firefighting-order-needed",
        ),  # tied with Anaïs on space 6
    ],
)
def test_an_incomplete_or_doubtful_table_answers_200_with_warnings(
    client: Client, who: int, change: dict[str, Any], code: str
) -> None:
    """RULINGS R13 as amended: what is missing is a warning, R14 a doubt; the table is scored with what is
    known (an unset wild card counts as no type, a tie on one space without its stack shares the place)."""
    table = copy.deepcopy(WORKED_EXAMPLE)
    table["players"][who].update(change)
    response = post(client, table)
    assert response.status_code == 200
    answer = response.json()
    assert answer["valid"] and answer["errors"] == [] and len(answer["players"]) == 2
    assert code in [w["code"] for w in answer["warnings"]]


def stacked(stacks: Any, order: list[str] | None = None) -> dict[str, Any]:
    """Issue 10 item 6: Ben and Aiko tie on 178 IKI on space 5; Chie and Dai share space 0."""
    table: dict[str, Any] = {**copy.deepcopy(TIED_ON_SHARED_SPACES), "stacks": stacks}
    if order is not None:
        table["firefighting_order"] = order
    return table


def test_stacks_decide_ties_space_by_space(client: Client) -> None:
    response = post(client, stacked({"5": ["Ben", "Aiko"]}))
    assert response.status_code == 200
    ranks = {p["name"]: p["rank"] for p in response.json()["players"]}
    assert ranks == {"Ben": 1, "Aiko": 2, "Chie": 3, "Dai": 3}


@pytest.mark.parametrize(
    ("stacks", "order", "status", "code"),
    [
        ({"5": ["Ben", "Aiko"]}, ["Aiko", "Ben", "Chie", "Dai"], 422, "stack-order"),  # they disagree
        ({"5": ["Ben", "Aiko"]}, ["Ben", "Aiko", "Dai", "Chie"], 200, None),
        ({"0": ["Ben"]}, None, 422, "stack-order"),  # Ben is on space 5
        ({"5": ["Ben"]}, None, 200, "stack-incomplete"),
        ({"five": ["Ben"]}, None, 400, "wrong-type"),
        ({"5": "Ben"}, None, 400, "wrong-type"),
    ],
)
def test_stacks_and_the_firefighting_order(
    client: Client, stacks: Any, order: list[str] | None, status: int, code: str | None
) -> None:
    response = post(client, stacked(stacks, order))
    assert response.status_code == status
    answer = response.json()
    codes = (
        [answer["error"]["code"]]
        if status == 400
        else [p["code"] for p in (*answer["errors"], *answer["warnings"])]
    )
    assert (code in codes) if code else not answer["errors"]


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ("{not json", "malformed-json", ""),
        ("", "malformed-json", ""),
        (b"\xff\xfe", "malformed-json", ""),
        ("[]", "wrong-type", ""),
        ('{"players": [{"name": "A", "colour": "red"}]}', "unknown-field", "players[0].colour"),
        ('{"players": [{"name": "A", "mon": "3"}]}', "wrong-type", "players[0].mon"),
        ('{"players": [{"name": "A", "characters": ["wizard"]}]}', "unknown-id", "players[0].characters[0]"),
        ('{"expansions": ["osaka"], "players": []}', "unknown-id", "expansions[0]"),
        ('{"players": [{"mon": 3}]}', "missing-field", "players[0].name"),
        ("[" * 100_000, "malformed-json", ""),
    ],
)
def test_malformed_input_answers_400_naming_the_field(
    client: Client, body: str, code: str, field: str
) -> None:
    response = post(client, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["field"]) == (code, field)
    assert error["message"]


def test_score_accepts_only_post(client: Client) -> None:
    response = client.get("/api/v1/score")
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert response.json()["error"]["code"] == "method-not-allowed"


def test_too_large_body_is_refused_cleanly(client: Client) -> None:
    response = post(client, json.dumps({"players": [{"name": "x" * 400_000}]}))
    assert response.status_code in (400, 413)


def test_unknown_api_address_answers_json_404(client: Client) -> None:
    response = client.get("/api/v1/nothing")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not-found"


def test_catalogue_lists_every_component_with_its_id(client: Client) -> None:
    response = client.get("/api/v1/catalogue")
    assert response.status_code == 200
    data = response.json()
    ids = {item["id"] for key in ("characters", "unnamed_characters", "buildings", "tokens", "retirement_tokens",
                                  "starting_tiles", "personalities", "boats", "boat_tokens")
           for item in data[key]}  # fmt: skip
    assert ids == set(cat.KINDS_OF_ID)
    ryokan = next(p for p in data["personalities"] if p["id"] == "ryokan")
    assert ryokan["name"] == "Ryōkan"
    assert ryokan["season"] == "autumn"
    assert "last on the Firefighting track" in ryokan["scoring"]
    monk = next(c for c in data["characters"] if c["id"] == "monk")
    assert (monk["kind"], monk["season"], monk["type"], monk["retirement_token"]) == (
        "character", "spring", "special", "hire-discount")  # fmt: skip
    assert next(c for c in data["characters"] if c["id"] == "taiko-seller")["month"] == 1
    assert all(item.get("scoring") for key in ("buildings", "tokens", "personalities") for item in data[key])
    assert "blocking-tiles" in data["inferred"]
    firefighter = next(c for c in data["characters"] if c["id"] == "firefighter")
    assert (firefighter["firefighting_gain"], firefighter["trade_gain"]) == (2, 0)  # RULINGS R13
    pipe = next(t for t in data["tokens"] if t["id"] == "pipe-summer-akebono")
    assert (pipe["firefighting_gain"], pipe["trade_gain"]) == (1, 1)
    assert next(b for b in data["buildings"] if b["id"] == "inn")["cost"] == "1 koban + 1 wood"


def test_catalogue_refuses_post(client: Client) -> None:
    assert client.post("/api/v1/catalogue").status_code == 405
    assert client.get("/api/v1/catalogue").status_code == 200  # there, for a GET
