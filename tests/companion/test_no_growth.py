"""No request can grow a process (issue 10, item 2): no cache keyed by request data, and a message quotes at most
40 characters of what was sent (scoring.errors.quote). The memory itself is measured by ``bench memory``."""

from __future__ import annotations

import importlib
import json
import pkgutil
import secrets
from typing import Any

import pytest
from django.test import Client

import companion
import scoring
import setupgen
from companion.scorepad.services import start_sheet
from companion.services.tracker.games import NewPlayer, create_game
from scoring.errors import QUOTE_MAX, quote
from setupgen import Options, generate

pytestmark = pytest.mark.django_db

#: Caches of what the code alone decides (the catalogue, steps, blank pads, fonts): bounded by the code.
CODE_CACHES = {
    "companion.pdf.fonts.fonts",
    "companion.pdf.fonts._fallback",
    "companion.pdf.pad_text.pad_lines",
    "companion.pdf.pad_text.reference",
    "companion.pdf.pad_text.colour_of",
    "companion.views.api._catalogue_bytes",
    "companion.views.pads._blank_pdf",
    "companion.scorepad.steps.steps_for",
    "companion.scorepad.offers.card_groups",
    "companion.scorepad.offers.token_groups",
    "scoring.catalogue.type_supply",
    "scoring.export.catalogue_json",
    "scoring.osaka.rules.possible_draws",
    "companion.views.osaka.sheet._blank",
}


def _cached_functions() -> dict[str, Any]:
    found = {}
    for package in (companion, scoring, setupgen):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if ".migrations" in info.name or ".management" in info.name:
                continue
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if callable(value) and hasattr(value, "cache_info") and value.__module__ == info.name:
                    found[f"{info.name}.{name}"] = value
    return found


def test_every_cache_holds_only_what_the_code_decides() -> None:
    assert set(_cached_functions()) <= CODE_CACHES


def _junk() -> str:
    return secrets.token_hex(20) * 250  # 10 kB


def test_bad_entries_with_junk_grow_no_cache_and_quote_at_most_40_characters(client: Client) -> None:
    sheet = start_sheet(names=["Anaïs", "David"], colours=["red", "blue"], akebono=True)
    setup = generate(Options(players=2), "K7MX2QPA").to_json()
    game = create_game(
        players=[NewPlayer("Anaïs", "red"), NewPlayer("David", "blue")],
        akebono=False,
        grand_master=False,
        setup=setup,
        who="t",
    )
    sizes: dict[str, int] = {}
    for round in range(5):
        if round == 1:  # the caches of what the code decides are filled by the first round, and stay so
            sizes = {name: fn.cache_info().currsize for name, fn in _cached_functions().items()}
        sends = [
            ("post", f"/score/{sheet.token}/characters/entry/", {"op": f"add|0|characters|{_junk()}"}),
            ("post", f"/score/{sheet.token}/resources/entry/", {"p0-mon": _junk(), "was-p0-mon": "0"}),
            ("post", f"/score/{sheet.token}/track/entry/", {"op": f"bump|{_junk()}|mon|1"}),
            ("post", f"/games/{game.edit_token}/who", {"who": _junk()}),
            ("get", f"/setup/game?players=3&seed={_junk()}", {}),
            ("get", f"/score/pads/?size={_junk()}", {}),
        ]
        for method, url, form in sends:
            junk = next(iter(form.values()), url.rsplit("=", 1)[-1])
            response = getattr(client, method)(url, form)
            assert response.status_code == 400, url
            body = response.content.decode()
            assert junk[: QUOTE_MAX + 1] not in body
        response = client.post(
            "/api/v1/score",
            json.dumps({"players": [{"name": "A", "characters": [_junk()]}, {"name": "B"}]}),
            content_type="application/json",
        )
        assert response.status_code == 400
        assert len(response.content) < 1000
    assert {name: fn.cache_info().currsize for name, fn in _cached_functions().items()} == sizes


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("monk", "'monk'"),
        ("x" * 40, repr("x" * 40)),
        ("x" * 41, repr("x" * 40) + "…"),
        ("漢" * 100, repr("漢" * 40) + "…"),
        (12, "12"),
        (["a"] * 50, repr(["a"] * 50)[:40] + "…"),
    ],
)
def test_a_message_quotes_at_most_40_characters(value: object, shown: str) -> None:
    assert quote(value) == shown
