"""A place typed as the table wrote it on the paper pad (``GET /check/``, ``/check/2015/``): "1st", "2nd", "1.",
and a shared place's marks "=1", "1=", "T1" (RULINGS R12: a tie left open shares its place, 1, 1, 3) read as
their number; anything else is still refused with a message naming the field."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.test import Client

from tests.companion.test_checks_views import messages

pytestmark = pytest.mark.django_db
PLAYERS = {"name-0": "Anaïs", "colour-0": "red", "name-1": "David", "colour-1": "blue",
           "name-2": "Dominique", "colour-2": "green"}  # fmt: skip


@pytest.mark.parametrize("page", ["/check/", "/check/2015/"])
@pytest.mark.parametrize(
    ("first", "second", "third"),
    [("1st", "2nd", "3rd"), ("1.", "2.", "3."), ("=1", "=1", "3"), ("1=", "1=", "3rd"), ("T1", "t1", "3")],
)
def test_a_place_written_as_on_paper_is_read(
    client: Client, page: str, first: str, second: str, third: str
) -> None:
    """Anaïs and David tie on 50 (their positions not typed), Dominique 40: each writing is legal."""
    typed = {**PLAYERS, "p0-total": "50", "p1-total": "50", "p2-total": "40",
             "p0-rank": first, "p1-rank": second, "p2-rank": third}  # fmt: skip
    response = client.get(page + "?" + urlencode(typed))
    assert response.status_code == 200, messages(response.content.decode())
    html = response.content.decode()
    assert "Every number can be right" in html
    assert all("tie on 50 IKI" in m for m in messages(html))  # only the tie's warning


@pytest.mark.parametrize("written", ["#1", "first", "1/2"])
def test_a_place_no_table_writes_is_refused_naming_it(client: Client, written: str) -> None:
    response = client.get("/check/?" + urlencode({**PLAYERS, "p0-rank": written}))
    assert response.status_code == 400
    assert any("Anaïs, place: write a whole number" in m for m in messages(response.content.decode()))


def test_a_wrong_place_written_as_an_ordinal_is_still_wrong(client: Client) -> None:
    typed = {**PLAYERS, "p0-total": "50", "p1-total": "60", "p0-rank": "1st"}
    html = client.get("/check/?" + urlencode(typed)).content.decode()
    assert "Anaïs cannot be placed 1: with 50 IKI the place is 2 to 3." in messages(html)
