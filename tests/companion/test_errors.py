"""One refusal, one answer (issue 22): a view raises ``companion.errors.UserError`` and ``handler400`` answers its
sentence with its status, the error page for a phone (htmx or not) and JSON under ``/api/``, never cached."""

from __future__ import annotations

import pytest
from django.test import Client

from companion.models.scoresheets import ScoreSheet
from companion.setup_query import new_table
from tests.factories import make_game

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
QR = "/setup/qr.svg?players=3&seed=K7MX2QPA"


# (address, status, the sentence the page shows): one row per kind of refusal, from a view of each feature.
ROWS = [
    (QR, 400, "This address has no table code of a setup page (table=)."),
    ("/setup/game?players=3&seed=K7MX2QPA&watch=0123456789abcdef", 403, "This view-only link is not one of"),
    ("/games/" + "x" * 24 + "/screen", 404, "There is no game at this address."),
    ("/osaka/games/" + "x" * 24 + "/", 404, "There is no game at this address."),
    ("/games/" + "x" * 24 + "/state?v=x", 400, "The version (?v=) must be a whole number."),
]


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("url", "status", "sentence"), ROWS)
def test_a_refusal_is_the_error_page_with_its_status(
    client: Client, url: str, status: int, sentence: str, htmx: bool
) -> None:
    response = client.get(url, **(HX if htmx else {}))
    assert response.status_code == status
    body = response.content.decode()
    assert sentence in body.replace("&#x27;", "'")
    assert 'role="alert"' in body
    assert "no-store" in response["Cache-Control"]


def test_the_setup_qr_answers_200_with_a_table_code(client: Client) -> None:
    """The positive anchor of the first row: the same address with its table code."""
    response = client.get(f"{QR}&table={new_table()}")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"


def test_a_refusal_under_the_api_is_json_naming_the_field(client: Client) -> None:
    response = client.get("/api/v1/setup?players=9")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == "players"
    assert "players" in error["message"]


def test_a_refused_write_saves_nothing(client: Client) -> None:
    """A view-only link's write: 403 with its sentence, and the game unchanged."""
    game = make_game()
    version = game.version
    response = client.post(f"/games/{game.view_token}/change", {"op": "score", "seat": "0", "delta": "3"})
    assert response.status_code == 403
    assert "view-only link" in response.content.decode()
    game.refresh_from_db()
    assert game.version == version
    assert ScoreSheet.objects.count() == 0


def test_opening_a_forms_address_shows_the_error_page_not_a_blank_one(client: Client) -> None:
    """Every address that only takes a POST, opened as a page (a refused tap's page reloaded, its address shared):
    405 with the error page saying what to do, and its ``Allow``; under /api/ the same as JSON."""
    from tests.companion.test_urls import _addresses

    refused = 0
    for name, url in _addresses().items():
        response = client.get(url)
        if response.status_code != 405:
            continue
        refused += 1
        assert "POST" in response["Allow"], name
        if url.startswith("/api/"):
            assert response.json()["error"]["message"], name
        else:
            assert "no-store" in response["Cache-Control"], name
            body = response.content.decode()
            assert 'role="alert"' in body and "Go back to the page and tap again." in body, name
    assert refused >= 15
