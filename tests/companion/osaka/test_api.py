"""The Traders of Osaka JSON API and commands (docs/api.md): 200/422/400 over HTTP, exit 0/1/2 from the CLI, and
never a 500 whatever the body (hypothesis)."""

from __future__ import annotations

import copy
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.osaka.examples import CONTRACT_PAYDAY, FOUR_PLAYERS, RANKING

PAYDAY = "/api/v1/osaka/payday"
RANK = "/api/v1/osaka/ranking"


def post(client: Client, url: str, body: Any) -> Any:
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data, content_type="application/json")


def test_the_contract_example(client: Client) -> None:
    """Issue 15's contract, field by field: other clients depend on these names and values."""
    response = post(client, PAYDAY, CONTRACT_PAYDAY)
    assert response.status_code == 200
    answer = response.json()
    assert (answer["valid"], answer["errors"], answer["warnings"], answer["game_over"]) == (
        True,
        [],
        [],
        False,
    )
    ann = answer["players"][0]
    assert ann["name"] == "Ann"
    yellow = ann["paydays"]["yellow"]
    assert (yellow["value"], yellow["vp"], yellow["vp_cards"], yellow["from_pile"]) == (20, 4, [2, 3, 5], 1)
    assert set(ann["paydays"]) == {"yellow"}  # no red goods: no entry for red
    assert ann["vp"] == 4
    assert ann["tokens_gained"]["yellow"] == 1 and ann["tokens_gained"].get("red", 0) == 0
    assert ann["goods_lost"] == {"blue": 0}
    bo = answer["players"][1]
    assert bo["paydays"]["red"]["value"] == 20  # (3 + 2 tokens) x 4 = 20, a multiple of 5 already
    assert bo["goods_lost"] == {"blue": 1}


def test_four_players_two_paydays_and_a_sinking(client: Client) -> None:
    answer = post(client, PAYDAY, FOUR_PLAYERS).json()
    assert answer["paydays"] == ["green", "yellow"] and answer["sank"] == ["red", "blue"]
    assert [p["vp"] for p in answer["players"]] == [6, 5, 3, 2]
    david = answer["players"][1]
    assert david["goods_lost"] == {"red": 0, "blue": 2}
    assert david["explanations"][1].startswith("Yellow: 2 cards, highest (5 + 3 tokens) × 2 = 16 → 20")


def test_the_end_is_announced(client: Client) -> None:
    body = copy.deepcopy(CONTRACT_PAYDAY)
    body["players"][0]["tokens"] = {"yellow": 1, "green": 6}
    answer = post(client, PAYDAY, body).json()
    assert (
        answer["game_over"] is True and answer["ended_after"] == "yellow" and answer["paydays"] == ["yellow"]
    )
    assert answer["skipped"] == ["red"] and answer["sank"] == []
    assert "Ann has 8 or more achievement tokens" in answer["end"]
    assert answer["players"][1]["paydays"] == {}  # Bo's red goods were never sold
    assert answer["players"][0]["goods_lost"] == {}


# (case, change to the contract example, error code, field)
RULES = [
    ("a colour both arriving and sinking", {"sunk": ["blue", "red"]}, "arriving-and-sinking", "sunk[1]"),
    ("more cards than exist", {"players": [{"name": "A", "goods": {"red": [5] * 8}}, {"name": "B"}]},
     "over-supply", "players[0].goods.red[7]"),
    ("insured goods not among the goods", {"players": [{"name": "A", "insured": {"blue": [3]}}, {"name": "B"}]},
     "insured-not-held", "players[0].insured.blue"),
    ("insurance for a colour not sinking", {"players": [{"name": "A", "insurance": {"red": [2]}}, {"name": "B"}]},
     "insurance-not-sinking", "players[0].insurance.red"),
    ('insurance with a "5"', {"players": [{"name": "A", "insurance": {"blue": [5]}}, {"name": "B"}]},
     "insurance-without-icons", "players[0].insurance.blue[0]"),
    ("a player already holding 8 tokens", {"players": [{"name": "A", "tokens": {"red": 8}}, {"name": "B"}]},
     "game-already-over", "players[0].tokens"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "code", "field"), [r[1:] for r in RULES], ids=[r[0] for r in RULES])
def test_against_the_rules_422(client: Client, change: dict[str, Any], code: str, field: str) -> None:
    response = post(client, PAYDAY, {**CONTRACT_PAYDAY, **change})
    assert response.status_code == 422
    answer = response.json()
    assert answer["valid"] is False and "players" not in answer
    assert [(e["code"], e["field"]) for e in answer["errors"]] == [(code, field)]


# (case, body, error code, field)
MALFORMED = [
    ("not JSON", "{arrived", "malformed-json", ""),
    ("unknown colour", {**CONTRACT_PAYDAY, "arrived": ["purple"]}, "unknown-id", "arrived[0]"),
    ("a value not 2/3/5", {"arrived": ["red"], "players": [{"name": "A", "goods": {"red": [4]}}, {"name": "B"}]},
     "invalid-value", "players[0].goods.red[0]"),
    ("wrong types", {"arrived": "red", "players": []}, "wrong-type", "arrived"),
    ("a repeated name", {"arrived": ["red"], "players": [{"name": "A"}, {"name": "A"}]}, "repeated",
     "players[1].name"),
    ("one player", {"arrived": ["red"], "players": [{"name": "A"}]}, "invalid-value", "players"),
    ("five players", {"arrived": ["red"], "players": [{"name": n} for n in "ABCDE"]}, "invalid-value", "players"),
    ("arrived empty", {"arrived": [], "players": [{"name": "A"}, {"name": "B"}]}, "invalid-value", "arrived"),
    ("arrived repeating", {"arrived": ["red", "red"], "players": [{"name": "A"}, {"name": "B"}]}, "repeated",
     "arrived[1]"),
    ("deep nesting", "[" * 100_000, "malformed-json", ""),
]  # fmt: skip


@pytest.mark.parametrize(("body", "code", "field"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_malformed_400(client: Client, body: Any, code: str, field: str) -> None:
    response = post(client, PAYDAY, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["field"]) == (code, field) and error["message"]


def test_ranking(client: Client) -> None:
    response = post(client, RANK, RANKING)
    assert response.status_code == 200
    answer = response.json()
    assert [p["rank"] for p in answer["players"]] == [1, 2, 3, 3]
    assert answer["winners"] == ["Anaïs"]
    assert answer["players"][0]["tie_break"].startswith("Tied with David on 24 VP; more achievement tokens")
    assert "share 3rd place" in answer["players"][3]["tie_break"]
    bad = post(client, RANK, {"players": [{"name": "A", "vp": -1}, {"name": "B", "vp": 3}]})
    assert bad.status_code == 422 and bad.json()["errors"][0]["code"] == "negative-number"
    assert post(client, RANK, {"players": [{"name": "A"}, {"name": "B", "vp": 3}]}).status_code == 400


def test_a_ninth_token_is_a_422_in_the_ranking(client: Client) -> None:
    """RULINGS O7: as in a payday; before, a warning that could decide a tie on VP."""
    body = {
        "players": [
            {"name": "A", "vp": 20, "tokens": {"red": 9}},
            {"name": "B", "vp": 20, "tokens": {"red": 8}},
        ]
    }
    response = post(client, RANK, body)
    assert response.status_code == 422
    assert [e["code"] for e in response.json()["errors"]] == ["tokens-past-end"]


@pytest.mark.parametrize("url", [PAYDAY, RANK])
def test_only_post(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert response.json()["error"]["code"] == "method-not-allowed"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 9) | st.text(max_size=5) | st.sampled_from(["red", "blue", "Ann"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["arrived", "sunk", "players", "name", "goods", "tokens", "insured", "insurance", "vp", "red", "blue"]),
        inner, max_size=4),
    max_leaves=24,
)  # fmt: skip


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values | st.binary(max_size=40).map(lambda b: b.decode("latin-1")))
def test_any_body_gets_a_clear_answer_never_a_500(client: Client, body: Any) -> None:
    for url in (PAYDAY, RANK):
        response = post(client, url, body if isinstance(body, str) else json.dumps(body))
        assert response.status_code in (200, 400, 422), response.content
        data = response.json()
        assert ("error" in data and data["error"]["message"]) or isinstance(data["valid"], bool)


# --- the commands -------------------------------------------------------------------------------------------------


def run(
    command: str, *args: str, stdin: str | None = None, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out = io.StringIO()
    try:
        call_command(command, *args, stdout=out)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue()
    return 0, out.getvalue()


def test_payday_command_reads_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "payday.json"
    path.write_text(json.dumps(FOUR_PLAYERS), encoding="utf-8")
    code, out = run("osaka-payday", str(path), monkeypatch=monkeypatch)
    assert code == 0 and json.loads(out)["players"][0]["name"] == "Anaïs"
    assert "Anaïs" in out  # not escaped


@pytest.mark.parametrize(
    ("command", "body", "exit_code"),
    [
        ("osaka-payday", CONTRACT_PAYDAY, 0),
        ("osaka-payday", {**CONTRACT_PAYDAY, "sunk": ["red"]}, 1),
        ("osaka-ranking", RANKING, 0),
        ("osaka-ranking", {"players": [{"name": "A", "vp": -1}, {"name": "B", "vp": 0}]}, 1),
    ],
)
def test_commands_exit_0_valid_1_refused(
    command: str, body: Any, exit_code: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = run(command, "-", stdin=json.dumps(body), monkeypatch=monkeypatch)
    assert code == exit_code
    assert json.loads(out)["valid"] is (exit_code == 0)


@pytest.mark.parametrize(
    ("command", "stdin", "words"),
    [
        ("osaka-payday", "{", "not valid JSON"),
        ("osaka-payday", '{"arrived": ["pink"], "players": []}', "arrived[0]: 'pink' is not a goods colour"),
        (
            "osaka-ranking",
            '{"players": [{"name": "A", "vp": 1}]}',
            "players: Traders of Osaka is played by 2 to 4",
        ),
    ],
)
def test_commands_exit_2_malformed(
    command: str, stdin: str, words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(CommandError) as raised:
        call_command(command, "-")
    assert raised.value.returncode == 2 and words in str(raised.value)


def test_commands_exit_2_for_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="cannot read") as raised:
        call_command("osaka-ranking", str(tmp_path / "nope.json"))
    assert raised.value.returncode == 2
