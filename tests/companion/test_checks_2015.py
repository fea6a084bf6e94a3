"""The 2015 pad checked as written (``GET /check/2015/``, issue 23; RULINGS E1-E5, R20-R22): the page and its
htmx partial, every problem at once, bad input answered 400, keeping a clean pad, "work it out" (the
calculator, ``/check/2015/work/``) both ways; and the tabs' short labels of both checks."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.test import Client

from companion.models.results import Result
from scoring.names import short_labels
from tests.companion.test_checks_views import (
    HTMX,
    PAD_2015,
    PAD_2015_WRITTEN,
    PLAYERS,
    RULEBOOK_PAD,
    get,
    keep,
    messages,
)

pytestmark = pytest.mark.django_db


def check(client: Client, data: dict[str, str], **headers: str) -> tuple[int, str]:
    response = client.get("/check/2015/?" + urlencode(data), **headers)
    return response.status_code, response.content.decode()


def test_the_written_2015_pad_checks_clean_and_offers_to_keep_it(client: Client) -> None:
    status, html = check(client, PAD_2015_WRITTEN)
    assert status == 200
    assert "Every number can be right" in html
    assert messages(html) == []
    assert 'id="keep-pad"' in html
    assert re.search(r"ck-place\">1</span> Anaïs <strong>94</strong>", html)
    # each tab: a short unique label, the whole name for a screen reader, the total
    assert re.search(r'aria-hidden="true">A</span><span class="visually-hidden">Anaïs </span>'
                     r'<span id="p0-tab-total" class="ck-tab-total">94</span>', html)  # fmt: skip
    assert 'href="/check/2015/work/?' in html  # "work it out" with the same players


def test_every_2015_problem_comes_at_once(client: Client) -> None:
    """Three slips, three errors on one page (the calculator stopped at the first); the total off only because
    of the variety follows from it."""
    slips = {**PAD_2015_WRITTEN, "p0-variety": "12", "p0-fish": "2", "p1-tobacco": "15", "p1-total": "89"}
    status, html = check(client, slips)
    assert status == 200
    assert "3 numbers cannot be right" in html
    found = messages(html)
    assert any("variety 12 is impossible: 1, 4, 9, 16 or 25" in m for m in found)
    assert any("fish 2 is impossible" in m and "nearest possible: 0 or 3" in m for m in found)
    assert any("tobacco 15 is impossible: the sum of the pouches held (of 2, 3, 4 and 5), not doubled (no pipe)" in m
               for m in found)  # fmt: skip
    assert "It follows from Anaïs&#x27;s variety" in html
    assert 'id="keep-pad"' not in html
    assert 'class="button" href="/check/2015/work/?' in html  # find it: work it out


def test_the_supply_across_the_2015_table_is_checked(client: Client) -> None:
    """One bonus bonito exists: fish 20 (4 seasons and the bonito) for both players cannot both be right."""
    pad = {**PAD_2015_WRITTEN, "p0-fish": "20", "p0-total": "99", "p1-fish": "20", "p1-total": "98"}
    status, html = check(client, pad)
    assert status == 200
    assert "Anaïs&#x27;s fish 20 and David&#x27;s fish 20 cannot both be right" in html


def test_without_the_printed_values_their_lines_are_not_judged(client: Client) -> None:
    blank = {k: v for k, v in PAD_2015_WRITTEN.items() if k not in ("pouches", "constructions")}
    status, html = check(client, {**blank, "p0-buildings": "61", "p0-total": "142"})
    assert status == 200
    assert "Every number can be right" in html


def test_the_2015_htmx_partial_is_the_verdict_with_each_line_out_of_band(client: Client) -> None:
    status, html = check(client, {**PAD_2015_WRITTEN, "p0-variety": "12", "p0-total": "90"}, **HTMX)
    assert status == 200
    assert html.lstrip().startswith('<section id="verdict"')
    assert "<h1>" not in html
    assert re.search(
        r'id="p0-variety-msg" class="ck-msg" aria-live="polite" hx-swap-oob="true">.*variety 12', html
    )
    assert 'id="p0-flag" class="ck-flag" hx-swap-oob="true">' in html
    assert 'id="p0-tab-total" class="ck-tab-total" hx-swap-oob="true">90</span>' in html


@pytest.mark.parametrize("page", ["/check/", "/check/2015/"])
def test_before_anything_is_typed_the_check_says_what_to_type(client: Client, page: str) -> None:
    html = client.get(
        page + "?" + urlencode({**PLAYERS, "edition": "base"} if page == "/check/" else PLAYERS)
    )
    text = html.content.decode()
    assert html.status_code == 200
    assert "Type your pad's numbers" in text
    assert "Every number can be right" not in text and 'id="keep-pad"' not in text


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        (
            "pouches",
            "2 3",
            "The 4 tobacco pouches&#x27; values: type all 4 values (2 given), or leave it blank",
        ),
        ("constructions", "x", "write the printed values as whole numbers"),
        ("bonito", "0", "The bonus summer bonito&#x27;s value: 0 is outside 1-999"),
        ("p0-fish", "many", "Anaïs, fish bonus: write a whole number"),
        ("p1-rank", "5", "David, place: 5 is outside 1-4"),
        ("p0-mon", "-2", "Anaïs, mon: -2 is outside 0-999"),
    ],
)
def test_bad_2015_input_is_a_400_with_its_message(client: Client, field: str, value: str, words: str) -> None:
    status, html = check(client, {**PAD_2015_WRITTEN, field: value})
    assert status == 400
    assert words in html
    assert "Fix the numbers above first" in html


def test_a_refused_players_form_is_a_400_saying_why_before_any_line(client: Client) -> None:
    status, html = check(
        client, {"name-0": "Anaïs", "colour-0": "red", "name-1": "Anaïs", "colour-1": "blue"}
    )
    assert status == 400
    assert '<p class="message error" role="alert">Give each player a different name.</p>' in html


def test_a_clean_written_2015_pad_is_kept_with_its_typed_lines(client: Client) -> None:
    response = keep(client, PAD_2015_WRITTEN, url="/check/2015/keep")
    assert response.status_code == 302
    result = Result.objects.get()
    assert result.edition == "iki-2015"
    anais, david = result.players
    assert (anais["total"], anais["rank"], anais["lines"]["fish"]) == (94, 1, 15)
    assert (david["total"], david["rank"]) == (78, 2)
    # its "Edit the numbers" reopens the check as written
    page = client.get(response["Location"]).content.decode()
    assert "/check/2015/?" in page and "p0-variety=16" in page


def test_a_2015_pad_in_doubt_or_without_totals_is_not_kept(client: Client) -> None:
    assert keep(client, {**PAD_2015_WRITTEN, "p0-variety": "12"}, url="/check/2015/keep").status_code == 400
    no_total = {k: v for k, v in PAD_2015_WRITTEN.items() if k not in ("p1-total", "p1-resources")}
    assert keep(client, no_total, url="/check/2015/keep").status_code == 400
    assert not Result.objects.exists()


def test_work_it_out_is_the_calculator_and_leads_back(client: Client) -> None:
    response = client.get("/check/2015/work/?" + urlencode(PAD_2015))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Work out a 2015 pad" in html and "Result (2015 edition)" in html
    back = re.search(r'href="(/check/2015/\?[^"]*)">Check the pad you wrote instead', html)
    assert back is not None and "p0-types" not in back.group(1) and "name-0" in back.group(1)
    # a calculator's query (a result kept from it before) opens the calculator
    redirect = client.get("/check/2015/?" + urlencode(PAD_2015))
    assert redirect.status_code == 302 and redirect["Location"].startswith("/check/2015/work/?")


def test_a_wrong_total_names_the_walk_through_plainly(client: Client) -> None:
    _, html = get(client, {**RULEBOOK_PAD, "p0-total": "101"})
    assert "Find it: work it out line by line in the walk-through" in html
    assert "walk through Score track" not in html


@pytest.mark.parametrize(
    ("names", "labels"),
    [
        (["Anaïs", "David"], ["A", "D"]),
        (["Dominique", "David", "Anaïs"], ["Do", "Da", "A"]),
        (["Ann", "Anna", "bob"], ["Ann", "Anna", "b"]),
        (["Alexandrinea", "Alexandrineb", "Bartholomews", "Bartholomewz"],
         ["Alexandrinea", "Alexandrineb", "Bartholomews", "Bartholomewz"]),
        (["anne", "Anneke"], ["anne", "Annek"]),
    ],
)  # fmt: skip
def test_each_tab_shows_the_first_letters_until_unique(names: list[str], labels: list[str]) -> None:
    assert short_labels(names) == labels


def test_the_calculators_tabs_show_the_same_short_labels(client: Client) -> None:
    """Issue 23: "work it out" has the check's tabs (David and Dominique are Da and Do), the whole name for screen
    readers."""
    query = urlencode({"name-0": "David", "colour-0": "red", "name-1": "Dominique", "colour-1": "blue"})
    html = client.get(f"/check/2015/work/?{query}").content.decode()
    for seat, short, name in [(0, "Da", "David"), (1, "Do", "Dominique")]:
        assert f'data-seat="{seat}"><span class="ck-tab-name" aria-hidden="true">{short}</span>' in html
        assert f'<span class="visually-hidden">{name} </span>' in html
