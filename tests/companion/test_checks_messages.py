"""Each message of the pad check sits next to the number it is about (``GET /check/``): a refused firefighting
space under that field, two players in one stack place under the stack field, not only in the verdict below or
under the place."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlencode

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TRIGGER_NAME": "p1-stack"}
PLAYERS = {"name-0": "Anaïs", "colour-0": "red", "name-1": "David", "colour-1": "blue", "edition": "base"}
#: Tied on 50 IKI, both on space 3, both typed first in its stack (RULINGS R12, R13).
STACK_TWICE = {**PLAYERS, "p0-total": "50", "p1-total": "50", "p0-firefighting": "3", "p1-firefighting": "3",
               "p0-stack": "1", "p1-stack": "1"}  # fmt: skip


def under(html: str, slot: str) -> list[str]:
    """The messages in the message slot ``slot`` (``p1-stack-msg``)."""
    found = re.search(rf'<div id="{slot}"[^>]*>(.*?)</div>', html, re.S)
    assert found is not None, slot
    return [
        unescape(m).strip() for m in re.findall(r'class="message [^"]*"[^>]*>(.*?)</p>', found.group(1), re.S)
    ]


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_two_players_in_one_stack_place_is_said_under_the_stack_field(
    client: Client, headers: dict[str, str]
) -> None:
    html = client.get("/check/?" + urlencode(STACK_TWICE), **headers).content.decode()
    said = "Anaïs and David cannot both be place 1 in the stack on space 3."
    assert under(html, "p1-stack-msg") == [said]
    assert under(html, "p1-rank-msg") == []
    assert 'aria-describedby="p1-stack-msg p1-stack-help"' in html or headers


@pytest.mark.parametrize("field", ["firefighting", "stack"])
def test_a_refused_fact_is_said_under_its_field(client: Client, field: str) -> None:
    response = client.get("/check/?" + urlencode({**PLAYERS, f"p1-{field}": "12"}))
    assert response.status_code == 400
    html = response.content.decode()
    words = (
        "firefighting space: 12 is outside 0-10" if field == "firefighting" else "place in the stack: 12 is"
    )
    assert any(words in m for m in under(html, f"p1-{field}-msg")), under(html, f"p1-{field}-msg")
