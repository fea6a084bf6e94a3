"""Every pull and poll reads ``?v=`` with one form (companion.live.query, docs/sync.md "Pull"): a bad version is
the same 400 on every shared thing's address (an empty one too), nothing is written, and none asks for everything."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import db_snapshot, every_kind

pytestmark = pytest.mark.django_db

LIVE = {"HTTP_X_LIVE": "1"}


def _addresses() -> list[str]:
    made = every_kind()
    game, osaka, sheet = made.game, made.osaka, made.sheet
    return [
        f"/games/{game.edit_token}/state",
        f"/games/{game.view_token}/screen/state",
        f"/osaka/games/{osaka.edit_token}/state",
        f"/osaka/games/{osaka.view_token}/screen/state",
        f"/score/{sheet.token}/characters/",
        f"/score/{sheet.token}/result/",
    ]


@pytest.mark.parametrize("bad", ["", "x", "-1", "1.0", "٣", "1000000000", "1e3", " 2"])
def test_a_bad_version_is_the_same_400_everywhere(client: Client, bad: str) -> None:
    addresses = _addresses()
    before = db_snapshot()
    for address in addresses:
        response = client.get(address, {"v": bad}, **LIVE)
        assert response.status_code == 400, address
        assert "The version (?v=) must be a whole number. Reload the page." in response.content.decode(), (
            address
        )
    assert db_snapshot() == before


def test_no_version_asks_for_everything(client: Client) -> None:
    for address in _addresses():
        assert client.get(address, **LIVE).status_code == 200, address
