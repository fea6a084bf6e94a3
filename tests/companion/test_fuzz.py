"""Every POST endpoint, fuzzed (issue 10, item 3): one field of a valid request replaced by hostile text (digits
``int()`` refuses, control and bidi characters, 10 kB strings, empty, missing), sent with and without htmx.
Never a 5xx; and on a 4xx, nothing in the database changed. CI runs this on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import copy
import json
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.forms import BIDI_CONTROLS
from companion.models.games import Game, apply_change
from companion.models.results import Group
from companion.models.scoresheets import ScoreSheet
from companion.scorepad.services import start_sheet
from companion.services.results import file_result, record_result
from companion.views.setup import new_table
from scoring.examples import WORKED_EXAMPLE
from tests.factories import db_snapshot, make_game

pytestmark = pytest.mark.django_db

MISSING = object()
#: What the table's phones and strangers were seen to send: characters ``isdigit()`` accepts and ``int()`` refuses,
#: digits ``int()`` reads, control and bidi characters, huge and empty text.
HOSTILE = st.one_of(
    st.sampled_from(
        [
            "²",
            "³",
            "¹",
            "⑤",
            "３",
            "٣",
            "\x00",
            "A\x00B",
            "\x1f",
            "\u202e",
            "Ann\u2066a",
            "\t",
            "",
            " ",
            "-1",
            "99999999999999999999",
            "x" * 10_000,
            "漢" * 5_000,
            "<script>alert(1)</script>",
            "' OR 1=1 --",
            MISSING,
        ]
    ),
    st.text(max_size=60),
)
FUZZ = settings(
    max_examples=40,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)
#: How many requests the fuzz tests sent in this process (the issue note reports it).
SENT = {"requests": 0}


@dataclass
class Target:
    url: str
    form: dict[str, Any]


def _replace(form: dict[str, Any], field: str, value: object, part: int | None) -> dict[str, Any]:
    """``form`` with ``field`` replaced by ``value`` (or left out); with ``part``, only that ``|``-separated part
    of a button's op (``add|0|characters|monk``) is replaced."""
    sent = dict(form)
    if value is MISSING:
        sent.pop(field, None)
    elif part is not None and "|" in str(form[field]):
        parts = str(form[field]).split("|")
        parts[part % len(parts)] = str(value)
        sent[field] = "|".join(parts)
    else:
        sent[field] = value
    return sent


def _send(client: Client, url: str, form: dict[str, Any]) -> None:
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        before = db_snapshot()
        response = client.post(url, form, **headers)
        SENT["requests"] += 1
        assert response.status_code < 500, (url, form, response.status_code)
        if 400 <= response.status_code < 500:
            assert db_snapshot() == before, (url, form, response.status_code)
        else:  # what was stored holds nothing a page cannot show (PostgreSQL refuses a NUL with a 500)
            assert not _hidden_characters(), (url, form)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _hidden_characters() -> list[str]:
    """Every stored text holding a control character or a bidi override (companion.forms.clean_text refuses them)."""
    found = []
    for model in apps.get_app_config("companion").get_models():
        for row in model.objects.values_list():
            for text in _strings(list(row)):
                if any(unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS for ch in text):
                    found.append(f"{model.__name__}: {text[:40]!r}")
    return found


def _game(finished: bool = False) -> Game:
    return make_game(akebono=True, finished=finished)


PLAYERS = {"name-0": "Anaïs", "colour-0": "red", "name-1": "Ben", "colour-1": "blue"}


def _targets() -> Iterator[tuple[str, Callable[[], Target]]]:
    def new_game() -> Target:
        return Target("/games/new/", {**PLAYERS, "akebono": "1", "seed": "K7MX2QPA"})

    def change() -> Target:
        game = _game()
        return Target(
            f"/games/{game.edit_token}/change",
            {"op": "score-add", "seat": "1", "value": "3", "v": "1", "cid": "c0"},
        )

    def set_score() -> Target:
        game = _game()
        return Target(
            f"/games/{game.edit_token}/change",
            {"op": "score-set", "seat": "2", "value": "7", "v": "1", "was": "0", "cid": "c9"},
        )

    def reveal() -> Target:
        game = _game()
        return Target(
            f"/games/{game.edit_token}/change", {"op": "reveal", "key": "new-character-1", "cid": "c1"}
        )

    def tick() -> Target:
        game = _game()
        return Target(f"/games/{game.edit_token}/change", {"op": "tick", "key": "general-board", "cid": "c2"})

    def set_against() -> Target:
        game = _game()
        return Target(
            f"/games/{game.edit_token}/change",
            {"op": "next", "v": "0", "was": "1A", "cid": "c3"},
        )

    def record_add() -> Target:
        game = _game()
        return Target(
            f"/games/{game.edit_token}/change",
            {"op": "record-add", "seat": "1", "field": "characters", "key": "monk", "cid": "c4"},
        )

    def record_remove() -> Target:
        game = _game()
        apply_change(game.pk, op="record-add", who="t", seat=1, field="tokens", key="fish-spring")
        return Target(
            f"/games/{game.edit_token}/change",
            {"op": "record-remove", "seat": "1", "field": "fish", "key": "fish-spring"},
        )

    def resources() -> Target:
        game = _game()
        numbers = {"mon": "7", "koban": "1", "wood": "0", "rice": "2", "sandals": "3"}
        return Target(
            f"/games/{game.edit_token}/change",
            {"op": "resources", "seat": "2", "v": "1", "was": "0,0,0,0,0", **numbers},
        )

    def who() -> Target:
        return Target(f"/games/{_game().edit_token}/who", {"who": "Anaïs"})

    def end() -> Target:
        game = _game(finished=True)
        return Target(
            f"/games/{game.edit_token}/end",
            {"confirm-names": "1", **PLAYERS, "name-2": "Chie", "colour-2": "green"},
        )

    def score_start() -> Target:
        return Target("/score/", {**PLAYERS, "edition": "akebono", "setup_kind": "seed", "seed": "K7MX2QPA"})

    def score_pick() -> Target:
        return Target("/score/", {**PLAYERS, "edition": "base", "setup_kind": "pick", "buildings": "inn"})

    def step_numbers() -> Target:
        sheet = start_sheet(names=["Anaïs", "Ben"], colours=["red", "blue"], akebono=True)
        return Target(
            f"/score/{sheet.token}/resources/entry/",
            {"p0-mon": "7", "was-p0-mon": "0", "p1-koban": "2", "was-p1-koban": "0", "op": "bump|1|wood|1"},
        )

    def step_cards() -> Target:
        sheet = start_sheet(names=["Anaïs", "Ben"], colours=["red", "blue"], akebono=True)
        return Target(
            f"/score/{sheet.token}/characters/entry/", {"op": "add|0|characters|monk", "go": "next"}
        )

    def step_stack() -> Target:
        sheet = start_sheet(names=["Anaïs", "Ben"], colours=["red", "blue"], akebono=True)
        return Target(
            f"/score/{sheet.token}/firefighting/entry/",
            {"stack-p0": "1", "was-stack-p0": "", "op": "bump|0|firefighting|1"},
        )

    def ticks() -> Target:
        return Target(
            f"/setup/ticks?players=3&akebono=1&seed=K7MX2QPA&table={new_table()}",
            {"step": "general-board", "done": "general-board", "seen": "general-calendar"},
        )

    def kept() -> tuple[ScoreSheet, Group]:
        """A kept result (issue 14) filed under a group."""
        sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
        result = record_result(sheet=sheet)
        group = Group.objects.create(name="Thursday")
        assert result is not None
        file_result(result=result, group=group)
        return sheet, group

    def check_walk() -> Target:
        pad = {**PLAYERS, "edition": "base", "p0-variety": "12", "p0-firefighting": "3"}
        return Target("/check/walk/", {"q": urlencode(pad), "line": "0:variety"})

    def check_keep() -> Target:
        pad = {**PLAYERS, "edition": "base", "p0-variety": "16", "p1-score_track": "40", "p1-total": "40"}
        return Target("/check/keep", {"q": urlencode(pad), "result": ""})

    def check_keep_2015() -> Target:
        pad = {**PLAYERS, "p0-types": "4", "p0-pouches": "2 3", "p0-pipes": "1", "p1-mon": "11"}
        return Target("/check/2015/keep", {"q": urlencode(pad), "result": ""})

    def result_group() -> Target:
        sheet, group = kept()
        return Target(f"/results/{sheet.token}/group", {"group": group.get_absolute_url()})

    def result_remove() -> Target:
        return Target(f"/results/{kept()[0].token}/remove", {"confirm": "1"})

    def result_ungroup() -> Target:
        return Target(f"/results/{kept()[0].token}/ungroup", {"confirm": "1"})

    def group_new() -> Target:
        return Target("/groups/new", {"name": "Thursday"})

    def group_rename() -> Target:
        return Target(f"/groups/{kept()[1].token}/rename", {"old": "David", "new": "Dave"})

    def group_take_out() -> Target:
        sheet, group = kept()
        return Target(f"/groups/{group.token}/take-out", {"result": sheet.view_token})

    yield from {
        "check-walk": check_walk,
        "check-keep": check_keep,
        "check-keep-2015": check_keep_2015,
        "result-group": result_group,
        "result-remove": result_remove,
        "result-ungroup": result_ungroup,
        "group-new": group_new,
        "group-rename": group_rename,
        "group-take-out": group_take_out,
        "games-new": new_game,
        "game-change-add": change,
        "game-change-set": set_score,
        "game-who": who,
        "game-reveal": reveal,
        "game-tick": tick,
        "game-next-was": set_against,
        "game-record-add": record_add,
        "game-record-remove": record_remove,
        "game-resources": resources,
        "game-end": end,
        "score-start-seed": score_start,
        "score-start-pick": score_pick,
        "score-step-numbers": step_numbers,
        "score-step-cards": step_cards,
        "score-step-stack": step_stack,
        "setup-ticks": ticks,
    }.items()


TARGETS = dict(_targets())


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_one_hostile_field_never_breaks_an_endpoint(client: Client, name: str) -> None:
    target = TARGETS[name]()

    @FUZZ
    @given(field=st.sampled_from(sorted(target.form)), value=HOSTILE, part=st.none() | st.integers(0, 3))
    def run(field: str, value: object, part: int | None) -> None:
        _send(client, target.url, _replace(target.form, field, value, part))

    run()


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON document (dict keys and list indexes), the document's root first."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))


def _set(document: Any, path: tuple[Any, ...], value: object) -> Any:
    if not path:
        return value
    doc = copy.deepcopy(document)
    node = doc
    for key in path[:-1]:
        node = node[key]
    if value is MISSING:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


JSON_VALUES = st.one_of(
    HOSTILE,
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False),
    st.lists(st.text(max_size=5), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


@FUZZ
@given(path=st.sampled_from(list(_paths(WORKED_EXAMPLE))), value=JSON_VALUES)
def test_one_hostile_value_never_breaks_the_json_api(
    client: Client, path: tuple[Any, ...], value: object
) -> None:
    document = _set(WORKED_EXAMPLE, path, value)
    body = "" if document is MISSING else json.dumps(document, ensure_ascii=False)
    response = client.post("/api/v1/score", body, content_type="application/json")
    SENT["requests"] += 1
    assert response.status_code in (200, 400, 422), (path, value, response.status_code)
    assert "error" in response.json() or "valid" in response.json()


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"\x00",
        b"\xff\xfe",
        b"{",
        b"[]",
        b"null",
        b'"x"',
        b"1e999",
        b"[" * 5000 + b"]" * 5000,
        b'{"players": 1}',
    ],
)
def test_broken_json_bodies_get_a_400(client: Client, body: bytes) -> None:
    response = client.post("/api/v1/score", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["message"]
