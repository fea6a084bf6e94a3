"""The check pages after issue 19 (RULINGS R20-R24, E4-E5): Grand Master seeds on ``/check/``, its walk and its
keep; what an empty pad says; a consequence shown with its root; the 2015 pad's plain fish and blank power.
Each view as a full page and as the htmx partial."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.test import Client

from companion.models.results import Result
from companion.models.scoresheets import ScoreSheet
from tests.companion.test_checks_views import HTMX, PAD_2015, PLAYERS, RULEBOOK_PAD, get, keep, messages

pytestmark = pytest.mark.django_db

#: Seed QQQQ4444, 2 players, Akebono, Ferry boat on side A either way. With Grand Master its end-game
#: personalities are Ikku Jippensha (6) and Kazan Watanabe (2 x boats and buildings); without, Hiroshige (7),
#: Gennai Hiraga (5) and Issa Kobayashi (5), which cannot make 6 (setupgen's draws).
GM_PAD = {
    **PLAYERS, "edition": "akebono", "seed": "QQQQ4444", "p0-personalities": "6",
}  # fmt: skip
FULL_GM_PAD = {
    **GM_PAD,
    "p0-score_track": "30", "p0-variety": "9", "p0-fish": "3", "p0-tobacco": "4", "p0-buildings": "26",
    "p0-resources": "2", "p0-total": "80", "p0-rank": "1", "p1-total": "50", "p1-rank": "2",
}  # fmt: skip


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_grand_master_seed_is_read_with_its_variant(client: Client, headers: dict[str, str]) -> None:
    """RULINGS R24: without grand_master=1 the seed's other setup flags the line (as it did for every Grand
    Master game before)."""
    _, plain = get(client, GM_PAD, **headers)
    status, gm = get(client, {**GM_PAD, "grand_master": "1"}, **headers)
    assert status == 200
    assert any("personalities 6 is impossible" in m for m in messages(plain))
    assert messages(gm) == []
    assert "Every number can be right" in gm


def test_the_form_offers_grand_master_and_keeps_it_ticked(client: Client) -> None:
    _, page = get(client, {**GM_PAD, "grand_master": "true"})
    assert 'name="grand_master" value="1" checked' in page
    _, plain = get(client, GM_PAD)
    assert 'name="grand_master" value="1">' in plain
    assert 'name="grand_master"' in get(client, {})[1]  # offered before the players are known


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"grand_master": "maybe"}, "grand_master must be 1 or 0 (or true/false), not 'maybe'"),
        ({"grand_master": "1", "edition": "base"}, "the Grand Master variant needs the Akebono expansion"),
        ({"grand_master": "1", "name-2": "Chloé", "colour-2": "green"}, "the Grand Master variant is for 2"),
    ],
)
def test_a_grand_master_the_setup_page_refuses_is_a_400(
    client: Client, extra: dict[str, str], words: str
) -> None:
    for headers in ({}, HTMX):
        status, html = get(client, {**GM_PAD, **extra}, **headers)
        assert status == 400
        assert words in html.replace("&#x27;", "'")


def test_the_walk_builds_the_grand_master_setup(client: Client) -> None:
    query = urlencode({**GM_PAD, "grand_master": "1", "p0-variety": "12"})
    assert client.post("/check/walk/", {"q": query, "line": "0:variety"}).status_code == 302
    sheet = ScoreSheet.objects.get()
    assert "ikku-jippensha" in sheet.table["setup"]["personalities"]


def test_a_kept_grand_master_pad_remembers_it(client: Client) -> None:
    data = {**FULL_GM_PAD, "grand_master": "1"}
    assert keep(client, FULL_GM_PAD).status_code == 400  # without the variant the line is flagged
    response = keep(client, data)
    assert response.status_code == 302
    result = Result.objects.get()
    assert result.seed == "QQQQ4444"
    assert "grand_master=1" in result.query
    page = client.get(response["Location"]).content.decode()
    assert "grand_master=1" in page  # "Edit the numbers" reopens the check with it


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_an_empty_pad_says_what_to_type_and_warns_of_nothing(client: Client, headers: dict[str, str]) -> None:
    """RULINGS R20: four players, nothing typed: four "ties on 0 IKI" warnings before."""
    four = {**PLAYERS, "name-2": "Chloé", "colour-2": "green", "name-3": "Dai", "colour-3": "yellow"}
    status, html = get(client, four, **headers)
    assert status == 200
    assert messages(html) == []
    assert "Type your pad's numbers" in html
    assert "Every number can be right" not in html and 'id="keep-pad"' not in html


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_totals_and_places_only_can_be_right_but_not_kept_without_every_total(
    client: Client, headers: dict[str, str]
) -> None:
    status, html = get(client, {**PLAYERS, "p0-total": "80", "p0-rank": "1", "p1-total": "60"}, **headers)
    assert status == 200
    assert "Every number can be right" in html and messages(html) == []
    assert 'id="keep-pad"' in html
    status, partial = get(client, {**PLAYERS, "p0-total": "80", "p0-rank": "1"}, **headers)
    assert "Every number can be right" in partial and 'id="keep-needs-totals"' in partial
    assert keep(client, {**PLAYERS, "p0-total": "80"}).status_code == 400
    assert keep(client, {**PLAYERS, "p0-total": "80", "p0-fish": "10", "p1-total": "60"}).status_code == 302
    kept = Result.objects.get()
    assert [(p["lines"], p["total"], p["rank"]) for p in kept.players] == [({"fish": 10}, 80, 1), ({}, 60, 2)]


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_one_mistake_is_one_number_in_doubt(client: Client, headers: dict[str, str]) -> None:
    """The fish line typed 2 on the rulebook's pad (its total stays 100): "1 number cannot be right", and the
    total is listed as following from Anaïs's fish (3 errors before)."""
    status, html = get(client, {**RULEBOOK_PAD, "p0-fish": "2"}, **headers)
    assert status == 200
    assert "1 number cannot be right" in html
    assert "Numbers that follow from those" in html
    assert "It follows from Anaïs&#x27;s fish" in html
    assert html.count('name="line"') == 1  # one walk-through button


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_tie_written_at_the_table_is_a_warning(client: Client, headers: dict[str, str]) -> None:
    """RULINGS R21: 50 and 50 written 1 and 2, no position typed: a warning, no error ("placed 1, not 2")."""
    tie = {**PLAYERS, "p0-total": "50", "p0-rank": "1", "p1-total": "50", "p1-rank": "2"}
    status, html = get(client, tie, **headers)
    assert status == 200
    assert "Every number can be right" in html
    assert any("give every tied player's firefighting position" in m for m in messages(html))


def test_a_plain_bonito_typed_0_is_not_the_bonus_one(client: Client) -> None:
    """2015 E4: David typed 0 for his plain bonito; Anaïs holds the bonus one (5). "both hold it" before."""
    response = client.get(
        "/check/2015/work/?" + urlencode({**PAD_2015, "p1-fish_seasons": "1", "p1-bonito": "0"})
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "both hold it" not in html
    assert "Result (2015 edition)" in html
    assert "leave blank for a plain one" in html


def test_a_2015_tie_with_a_blank_power_is_a_warning(client: Client) -> None:
    """2015 E5: David's power left blank, Anaïs and David tied on 94: they share the place, with a warning."""
    tied = {**PAD_2015, "p1-score_track": "86", "p1-firefighting": ""}
    html = client.get("/check/2015/work/?" + urlencode(tied)).content.decode()
    assert "type every tied player&#x27;s firefighting power" in html
    assert html.count('ck-place">1</span>') == 2


def test_five_2015_construction_cards_are_a_warning(client: Client) -> None:
    html = client.get(
        "/check/2015/work/?" + urlencode({**PAD_2015, "p0-constructions": "1 1 1 1 1"})
    ).content.decode()
    assert "5 construction cards" in html
    assert "Result (2015 edition)" in html


def test_the_page_says_what_is_checked_and_what_is_only_warned(client: Client) -> None:
    for data in ({}, RULEBOOK_PAD):
        html = get(client, data)[1]
        assert 'id="check-help"' in html
        assert "Cannot be right" in html and "Worth a second look" in html
        assert "RULINGS" not in html  # no ruling numbers in what a player reads


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_tie_written_the_wrong_way_round_is_one_mistake(client: Client, headers: dict[str, str]) -> None:
    """RULINGS R12, R21: 50 and 50, Anaïs higher on the firefighting track, written 2 and 1: one swap, one
    mistake ("2 numbers cannot be right" before), the other place listed as following from it."""
    swapped = {
        **PLAYERS, "p0-total": "50", "p0-rank": "2", "p0-firefighting": "6",
        "p1-total": "50", "p1-rank": "1", "p1-firefighting": "3",
    }  # fmt: skip
    status, html = get(client, swapped, **headers)
    assert status == 200
    assert "1 number cannot be right" in html
    assert "places are the wrong way round: Anaïs is placed 1 and David 2" in html
    assert "Numbers that follow from those" in html
    doubts = re.search(r'<ul class="ck-doubts">(.*?)</ul>', html, re.S)
    assert doubts is not None and doubts.group(1).count("<li>") == 1  # one mistake listed
    assert 'name="line"' not in html  # a place offers no walk-through: its message says the right one
    # the same places written the right way: no mistake at all
    _, right = get(client, {**swapped, "p0-rank": "1", "p1-rank": "2"}, **headers)
    assert "Every number can be right" in right
