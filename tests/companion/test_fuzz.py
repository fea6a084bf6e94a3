"""Every POST endpoint, fuzzed (issue 10, item 3): one field of a valid request replaced by hostile text (digits
``int()`` refuses, control and bidi characters, 10 kB strings, empty, missing), sent with and without htmx.
Never a 5xx; and on a 4xx, nothing in the database changed. Every address by GET too: hostile query parameters
under odd headers, and forged tokens in the path. CI runs this on SQLite and on PostgreSQL (there a
quarter of the examples, new each run: :func:`fuzz_settings`). Coverage leaves these tests untraced (the ``fuzz``
marker, tests/conftest.py): each line they reach has an example test of its own.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django.db import connection
from django.test import Client
from django.urls import get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.forms import BIDI_CONTROLS
from companion.models.games import Game
from companion.models.results import Group
from companion.models.scoresheets import ScoreSheet
from companion.scorepad.services import start_sheet
from companion.services.osaka import NewPlayer
from companion.services.osaka import create_game as create_osaka_game
from companion.services.results import file_result, record_result
from companion.services.tracker.changes import apply_change
from companion.setup_query import new_table
from scoring.examples import WORKED_EXAMPLE
from scoring.osaka.examples import CONTRACT_PAYDAY, RANKING
from scoring.reading import MAX_NUMBER
from tests.companion.osaka.test_calculator import CONTRACT as OSAKA_CALCULATOR
from tests.companion.osaka.test_games import _begin
from tests.companion.test_urls import _addresses
from tests.conftest import DATABASE_ONLY
from tests.factories import db_snapshot, make_game, stored_rows

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


def fuzz_settings(examples: int) -> settings:
    """``examples`` examples, the same each run. In CI's PostgreSQL pass (:data:`tests.conftest.DATABASE_ONLY`), run
    after the SQLite pass has sent every example, the same examples again would find only what that pass found:
    there a quarter of them, new ones each run, look for what PostgreSQL alone refuses (a NUL in a text, a number
    beyond a column), and the pass costs about 40 s less of the two cores' time."""
    return settings(
        max_examples=max(examples // 4, 1) if DATABASE_ONLY else examples,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        derandomize=not DATABASE_ONLY,
    )


FUZZ = fuzz_settings(40)
#: How many requests the fuzz tests sent in this process (the issue note reports it).
SENT = {"requests": 0}


@dataclass
class Target:
    url: str
    form: dict[str, Any]


def _replace(
    form: dict[str, Any], field: str, value: object, part: int | None, twice: bool = False
) -> dict[str, Any]:
    """``form`` with ``field`` replaced by ``value`` (or left out); with ``part``, only that ``|``-separated part
    of a button's op (``add|0|characters|monk``) is replaced; ``twice``: the field sent twice, its valid value and
    then ``value`` (a form read by ``get`` takes the last, one read by ``getlist`` both)."""
    sent = dict(form)
    if value is MISSING:
        sent.pop(field, None)
    elif twice:
        sent[field] = [form[field], value]
    elif part is not None and "|" in str(form[field]):
        parts = str(form[field]).split("|")
        parts[part % len(parts)] = str(value)
        sent[field] = "|".join(parts)
    else:
        sent[field] = value
    return sent


def _send(client: Client, url: str, form: dict[str, Any]) -> None:
    before = None  # the database as the request finds it: after a refusal, the same as before it (asserted)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        before = db_snapshot() if before is None else before
        response = client.post(url, form, **headers)
        SENT["requests"] += 1
        assert response.status_code < 500, (url, form, response.status_code)
        if 400 <= response.status_code < 500:
            assert db_snapshot() == before, (url, form, response.status_code)
            assert said(response), (url, form, response.status_code)
        else:  # what was stored holds nothing a page cannot show (PostgreSQL refuses a NUL with a 500)
            assert not _hidden_characters(), (url, form)
            before = None


#: Where a page says what went wrong: the error page's and the forms' messages (``message error``, ``errorlist``),
#: the answer beside the control tapped (``answer``) and every ``role="alert"``.
_SAID = re.compile(
    r"<(\w+)\b[^>]*?(?:class=\"[^\"]*\b(?:message|errorlist|answer)\b[^\"]*\"|role=\"alert\")[^>]*>(.*?)</\1>",
    re.S,
)


def said(response: Any) -> str:
    """The words a refused request's answer gives the person: the API's ``error.message``, or the text of the
    page's (or the partial's) messages; empty when it says nothing."""
    if response["Content-Type"].startswith("application/json"):
        return str(response.json().get("error", {}).get("message", "")).strip()
    html = response.content.decode(errors="replace")
    words = " ".join(re.sub(r"<[^>]+>", " ", inner) for _, inner in _SAID.findall(html))
    return " ".join(unescape(words).split())


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
    """Every stored text holding a control character or a bidi override (companion.forms.clean_text refuses them),
    inside a JSON value too (stored escaped: read back as the model reads it)."""
    found = []
    for model, fields, rows in stored_rows():
        for row in rows:
            values = [
                f.from_db_value(v, None, connection) if hasattr(f, "from_db_value") else v
                for f, v in zip(fields, row, strict=True)
            ]
            for text in _strings(values):
                if any(unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS for ch in text):
                    found.append(f"{model.__name__}: {text[:40]!r}")
    return found


def test_the_measures_find_what_they_look_for() -> None:
    """A change to one column, and a control character or a bidi override stored as text or inside a JSON value
    (stored escaped), are each seen; a refusal's words are found, and none on a page that refuses nothing."""
    game = _game()
    before = db_snapshot()
    assert not _hidden_characters() and db_snapshot() == before
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)
    assert db_snapshot() != before
    Group.objects.create(name="bell\x07")
    assert _hidden_characters() == ["Group: 'bell\\x07'"]
    Group.objects.all().delete()
    Game.objects.filter(pk=game.pk).update(revealed=["fire-1\u202e"])
    assert _hidden_characters() == ["Game: 'fire-1\\u202e'"]
    page = Client().get(f"/games/{game.edit_token}/")
    refused = Client().post(
        f"/games/{game.edit_token}/change", {"op": "score-add", "seat": "9", "value": "1"}
    )
    assert page.status_code == 200 and not said(page)
    assert refused.status_code == 400 and said(refused) == "Choose one of the game's players."


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
        apply_change(game_id=game.pk, op="record-add", who="t", seat=1, field="tokens", key="fish-spring")
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


#: The tracker's ops, all posted to one view (companion/views/tracker/writes.py), which reads every op through the
#: same form and answers each accepted post with the whole tracker, ten times the cost of another endpoint's answer.
#: Each op gets half the examples (:func:`_examples`): its three to seven fields still meet several hostile values
#: each (derandomized: the same ones every run), and the view itself meets eight ops' worth of examples.
TRACKER_OPS = frozenset(
    {
        "game-change-add",
        "game-change-set",
        "game-reveal",
        "game-tick",
        "game-next-was",
        "game-record-add",
        "game-record-remove",
        "game-resources",
    }
)
assert TARGETS.keys() >= TRACKER_OPS  # each a tracker op of _targets()


def _examples(name: str, runs: settings) -> settings:
    """``runs``, halved for one of the tracker's ops (:data:`TRACKER_OPS`)."""
    return settings(runs, max_examples=runs.max_examples // 2) if name in TRACKER_OPS else runs


def _fuzz_fields(client: Client, target: Target, values: st.SearchStrategy[Any], runs: settings) -> None:
    """One field of ``target``'s form (or one part of a button's op) replaced by each of ``values``."""

    @runs
    @given(
        field=st.sampled_from(sorted(target.form)),
        value=values,
        part=st.none() | st.integers(0, 3),
        twice=st.booleans(),
    )
    def run(field: str, value: object, part: int | None, twice: bool) -> None:
        _send(client, target.url, _replace(target.form, field, value, part, twice))

    run()


@pytest.mark.fuzz
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_one_hostile_field_never_breaks_an_endpoint(client: Client, name: str) -> None:
    _fuzz_fields(client, TARGETS[name](), HOSTILE, _examples(name, FUZZ))


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


# --- numbers out of bounds (issue 24, item 1) ----------------------------------------------------------------------

#: Number-like text a form field may receive: beyond every bound (a 4,300-digit number is the longest Python prints),
#: negative, decimal, exponent, NaN and infinity in the spellings ``float()`` and ``int()`` accept.
FORM_NUMBERS = st.one_of(
    st.sampled_from(
        [
            "9" * 4300,
            "9" * 5000,
            "-" + "9" * 4300,
            f"{MAX_NUMBER + 1}",
            f"-{MAX_NUMBER + 1}",
            "99999999999999999999",
            "-1",
            "-0",
            "+5",
            "1_000",
            "1.5",
            "1e3",
            "1e999",
            "-1e999",
            "NaN",
            "nan",
            "inf",
            "-Infinity",
            "0x10",
        ]
    ),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats().map(str),
)
NOT_FINITE = (float("nan"), float("inf"), float("-inf"))
#: The same as JSON values (``json.dumps`` writes NaN and Infinity, which Python's reader takes back as floats).
JSON_NUMBERS = st.one_of(
    st.sampled_from(
        [10**4299, -(10**4299), 10**100, MAX_NUMBER + 1, -(MAX_NUMBER + 1), 1.5, -0.0, 1e308, *NOT_FINITE]
    ),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(),
)
NUMBERS_FUZZ = fuzz_settings(25)


def _osaka_targets() -> Iterator[tuple[str, Callable[[], Target]]]:
    """The Traders of Osaka tracker's forms (each answered by its own view, bounds included)."""

    def osaka_game() -> Any:
        players = [NewPlayer("Anaïs", "white"), NewPlayer("David", "pink"), NewPlayer("Dominique", "gray")]
        return create_osaka_game(players=players)

    def token() -> Target:
        form = {"op": "token", "seat": "1", "colour": "red", "delta": "1", "cid": "cid-0001"}
        return Target(f"/osaka/games/{osaka_game().edit_token}/change", form)

    def undo() -> Target:
        game = _begin(osaka_game())
        last = game.events.order_by("-version").first()
        assert last is not None
        form = {"op": "undo", "target": str(last.version), "cid": "cid-0002"}
        return Target(f"/osaka/games/{game.edit_token}/change", form)

    def payday() -> Target:
        game = _begin(osaka_game())  # no payday before the start (RULINGS O7)
        form = {
            "v": str(game.version),
            "edo1": "red",
            "p0-goods_red_5": "3",
            "p1-goods_red_2": "1",
            "cid": "cid-0003",
        }
        return Target(f"/osaka/games/{game.edit_token}/payday", form)

    def renew() -> Target:
        return Target(f"/osaka/games/{osaka_game().edit_token}/renew", {"seat": "2"})

    yield from {
        "osaka-token": token,
        "osaka-undo": undo,
        "osaka-payday": payday,
        "osaka-renew": renew,
    }.items()


NUMBER_TARGETS = {**TARGETS, **dict(_osaka_targets())}


@pytest.mark.fuzz
@pytest.mark.parametrize("name", sorted(NUMBER_TARGETS))
def test_numbers_out_of_bounds_never_break_a_form(client: Client, name: str) -> None:
    _fuzz_fields(client, NUMBER_TARGETS[name](), FORM_NUMBERS, _examples(name, NUMBERS_FUZZ))


@NUMBERS_FUZZ
@given(field=st.sampled_from(sorted(OSAKA_CALCULATOR)), value=FORM_NUMBERS)
def test_numbers_out_of_bounds_never_break_the_payday_calculator(
    client: Client, field: str, value: str
) -> None:
    for headers in ({}, {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "osaka-result"}):
        response = client.get("/osaka/payday/", {**OSAKA_CALCULATOR, field: value}, **headers)
        assert response.status_code in (200, 400), (field, value, response.status_code)


#: Each JSON endpoint with a valid document: its number fields are fuzzed.
JSON_DOCUMENTS = {
    "/api/v1/score": WORKED_EXAMPLE,
    "/api/v1/osaka/payday": CONTRACT_PAYDAY,
    "/api/v1/osaka/ranking": RANKING,
}


@pytest.mark.fuzz
@pytest.mark.parametrize("url", sorted(JSON_DOCUMENTS))
def test_numbers_out_of_bounds_never_break_the_json_api(client: Client, url: str) -> None:
    document = JSON_DOCUMENTS[url]
    places = [p for p in _paths(document) if p and not isinstance(_get(document, p), dict | list)]

    @NUMBERS_FUZZ
    @given(path=st.sampled_from(places), value=JSON_NUMBERS)
    def run(path: tuple[Any, ...], value: object) -> None:
        body = json.dumps(_set(document, path, value), ensure_ascii=False)
        response = client.post(url, body, content_type="application/json")
        SENT["requests"] += 1
        assert response.status_code in (200, 400, 422), (path, value, response.status_code)
        if isinstance(value, int) and abs(value) > MAX_NUMBER:
            assert response.status_code == 400, (path, value)

    run()


def _get(document: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        document = document[key]
    return document


@pytest.mark.parametrize(
    ("url", "path", "field"),
    [
        ("/api/v1/score", ("players", 0, "koban"), "players[0].koban"),
        ("/api/v1/score", ("players", 1, "score_track"), "players[1].score_track"),
        ("/api/v1/osaka/ranking", ("players", 0, "vp"), "players[0].vp"),
        ("/api/v1/osaka/payday", ("players", 0, "tokens", "yellow"), "players[0].tokens.yellow"),
    ],
)
@pytest.mark.parametrize("value", [10**4299, -(10**4299), MAX_NUMBER + 1])
def test_a_number_beyond_the_bound_is_a_400_naming_its_field(
    client: Client, url: str, path: tuple[Any, ...], field: str, value: int
) -> None:
    """Issue 24's 500s: a 4,300-digit koban (or score track beside another number) made the total unprintable."""
    body = json.dumps(_set(JSON_DOCUMENTS[url], path, value))
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == field
    assert f"{MAX_NUMBER:,}" in response.json()["error"]["message"]
    inside = json.dumps(_set(JSON_DOCUMENTS[url], path, MAX_NUMBER))
    assert client.post(url, inside, content_type="application/json").status_code in (200, 422)


@pytest.mark.parametrize(("url", "path"), [(url, ("players", 0, "name")) for url in sorted(JSON_DOCUMENTS)])
@pytest.mark.parametrize("name", ["\ud800", "Ann\udcff"])
def test_half_a_character_in_a_json_string_is_a_400(
    client: Client, url: str, path: tuple[Any, ...], name: str
) -> None:
    """JSON may escape half of a UTF-16 pair alone (``"\\ud800"``); Python reads it into a string no text can hold,
    and the answer echoing the player's name could not be written: a 500. Now a 400 saying so."""
    body = json.dumps(_set(JSON_DOCUMENTS[url], path, name))
    assert "\\ud" in body.lower()  # sent escaped, as any JSON writer sends it
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "malformed-json" and "half of a character" in error["message"]


@pytest.mark.parametrize(
    ("command", "document", "path"),
    [
        ("score", WORKED_EXAMPLE, ("players", 0, "koban")),
        ("osaka-payday", CONTRACT_PAYDAY, ("players", 1, "tokens", "red")),
        ("osaka-ranking", RANKING, ("players", 1, "vp")),
    ],
)
def test_the_commands_exit_2_without_a_traceback(
    tmp_path: Path, command: str, document: Any, path: tuple[Any, ...]
) -> None:
    """Exit 1 means refused by the rules; a number beyond the bound is malformed: exit 2, one line, no traceback."""
    file = tmp_path / "in.json"
    file.write_text(json.dumps(_set(document, path, 10**4299)))
    done = subprocess.run(
        [sys.executable, "manage.py", command, str(file)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and f"{MAX_NUMBER:,}" in done.stderr


def test_a_command_given_half_a_character_exits_2_without_a_traceback(tmp_path: Path) -> None:
    """The name ``"\\ud800"`` made ``score`` print a traceback as it wrote its answer."""
    file = tmp_path / "in.json"
    file.write_text(json.dumps(_set(WORKED_EXAMPLE, ("players", 0, "name"), "\ud800")))
    done = subprocess.run(
        [sys.executable, "manage.py", "score", str(file)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "half of a character" in done.stderr


# --- every address, by GET: hostile query strings, headers and tokens -----------------------------------------------

#: Every query parameter a view reads (``request.GET``), the live engine's pull and the htmx headers' among them.
QUERY_NAMES = sorted(
    {
        "v", "h", "lc", "p", "open", "table", "watch", "size", "players", "seed", "akebono", "grand_master",
        "reroll", "drawn", "show", "hide", "saved", "who", "target", "group", "result", "did", "q", "edition",
        "setup_kind", "buildings", "name-0", "colour-0", "edo1", "step", "renamed", "named",
    }
)  # fmt: skip
#: Headers the live engine and htmx read, and caches' conditions: odd values of each.
HOSTILE_HEADERS = [
    {},
    {"HTTP_X_LIVE": "1"},
    {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "osaka-result"},
    {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "x" * 5000},
    {"HTTP_IF_NONE_MATCH": '"' + "x" * 5000, "HTTP_IF_MODIFIED_SINCE": "Sat, 01 Jan 99999 00:00:00 GMT"},
    {"HTTP_COOKIE": "iki_who=" + "%E2%80%AE%FF" * 500, "HTTP_LAST_EVENT_ID": "1e400", "HTTP_ACCEPT": "\x00"},
]
QUERY_VALUES = st.one_of(
    st.sampled_from(["1e400", "-0", "NaN", "1e9", "999", "a.b.c..", "-" + "9" * 30]), HOSTILE, FORM_NUMBERS
).filter(lambda value: value is not MISSING)


#: Every address of companion/urls.py, by its name (tests/companion/test_urls.py makes a real one of each).
ADDRESS_NAMES = sorted(str(pattern.name) for pattern in get_resolver().url_patterns)
#: Those holding a token.
TOKEN_ADDRESS_NAMES = sorted(
    str(pattern.name) for pattern in get_resolver().url_patterns if "token>" in str(pattern.pattern)
)


@pytest.mark.fuzz
@pytest.mark.parametrize("name", ADDRESS_NAMES)
def test_a_hostile_query_or_header_never_breaks_an_address(client: Client, name: str) -> None:
    """Each address by GET with one query parameter (or a repeated one) set to hostile text, under each set of
    odd headers: never a 5xx, and nothing saved changes."""
    url = _addresses()[name]
    joiner = "&" if "?" in url else "?"
    before = db_snapshot()

    @fuzz_settings(8)
    @given(field=st.sampled_from(QUERY_NAMES), value=QUERY_VALUES, twice=st.booleans())
    def run(field: str, value: str, twice: bool) -> None:
        query = urlencode([(field, "1")] * twice + [(field, value)])
        for headers in HOSTILE_HEADERS:
            response = client.get(f"{url}{joiner}{query}", **headers)
            SENT["requests"] += 1
            assert response.status_code < 500, (url, query, headers, response.status_code)

    run()
    if name not in WRITES_BY_GET:
        assert db_snapshot() == before, name


#: The addresses whose GET writes by design: a score sheet's result page keeps the result, a player's own Traders
#: of Osaka link marks itself opened.
WRITES_BY_GET = frozenset({"scorepad-result", "osaka-game", "osaka-game-state", "osaka-game-share"})

#: Tokens no link has: a NUL (PostgreSQL refuses it in a query), lookalike digits, a bidi override, too long.
FORGED_TOKENS = ["A\x00" * 12, "\u0663" * 24, "\u202e" * 24, "x" * 65, "a.b" * 8]


@pytest.mark.parametrize("name", TOKEN_ADDRESS_NAMES)
def test_a_forged_token_in_an_address_is_refused(client: Client, name: str) -> None:
    """Each address holding a token, with the token replaced by text no link has: 4xx, never a 5xx (on
    PostgreSQL a NUL reaching a query was a 500: the live streams)."""
    url = _addresses()[name].split("?")[0]
    token = re.search(r"/([A-Za-z0-9_-]{16,64})(?=/|$)", url)
    assert token is not None, url
    for forged in FORGED_TOKENS:
        path = url.replace(token.group(1), quote(forged))
        for method in ("get", "post"):
            response = getattr(client, method)(path)
            assert 400 <= response.status_code < 500, (method, path, response.status_code)
