"""The "check our pad" page (``GET /check/``), its walk into the walk-through (``POST /check/walk/``), and the
2015 pad (``GET /check/2015/``): full pages, htmx partials, and bad input answered 400."""

from __future__ import annotations

import re
from html import unescape
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.models.results import Group, Result
from companion.models.scoresheets import ScoreSheet

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TRIGGER_NAME": "p0-variety"}
PLAYERS = {"name-0": "Anaïs", "colour-0": "red", "name-1": "David", "colour-1": "blue"}
#: iki-rulebook.txt "END OF THE GAME AND SCORING": Anaïs's pad, 100 IKI; David 41 (scoring.examples).
RULEBOOK_PAD = {
    **PLAYERS,
    "edition": "base",
    "p0-score_track": "28", "p0-variety": "16", "p0-fish": "18", "p0-tobacco": "16", "p0-buildings": "18",
    "p0-resources": "4", "p0-total": "100", "p0-rank": "1", "p0-pipe": "yes", "p0-firefighting": "6",
    "p1-score_track": "40", "p1-variety": "1", "p1-total": "41", "p1-firefighting": "3", "p1-pipe": "no",
}  # fmt: skip


def messages(html: str) -> list[str]:
    found = re.findall(r'class="message (?:error|warning)[^"]*"[^>]*>(.*?)</p>', html)
    return [unescape(m) for m in found]


def get(client: Client, data: dict[str, str], **headers: str) -> tuple[int, str]:
    response = client.get("/check/?" + urlencode(data), **headers)
    return response.status_code, response.content.decode()


def test_the_empty_page_asks_for_the_players(client: Client) -> None:
    status, html = get(client, {})
    assert status == 200
    assert 'method="get" action="/check/"' in html
    assert "Start checking" in html
    assert "ck-player" not in html


def test_the_rulebook_example_checks_clean(client: Client) -> None:
    status, html = get(client, RULEBOOK_PAD)
    assert status == 200
    assert "Every number can be right" in html
    assert messages(html) == []
    assert re.search(r"ck-place\">1</span> Anaïs <strong>100</strong>", html)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("p0-variety", "12", "variety 12 is impossible: 1, 4, 9, 16 or 25 for 1-5 types"),
        ("p0-fish", "2", "fish 2 is impossible"),
        ("p0-tobacco", "15", "with a pipe the pouches' sum is doubled: an even number"),
        ("p0-total", "99", "total 99 is not the sum of the lines: they add up to 100."),
        ("p0-rank", "2", "Anaïs is placed 1, not 2"),
    ],
)
def test_each_impossible_number_is_said_with_its_reason(
    client: Client, field: str, value: str, words: str
) -> None:
    status, html = get(client, {**RULEBOOK_PAD, field: value})
    assert status == 200
    assert "cannot be right" in html
    assert any(words in m for m in messages(html)), messages(html)
    # a button into the walk-through, but for a place: its message says the right one
    assert ('name="line"' in html) == (field != "p0-rank")


def test_a_wrong_place_offers_no_walk_through(client: Client) -> None:
    """A walk-through started from a pad holds only its score tracks and firefighting positions: for a place it
    showed every player on their score track, tied where the pad's totals were not. The place's message gives the
    right place (or the range the totals leave) instead, and the walk refuses a place."""
    pad = {**PLAYERS, "edition": "base", "p0-total": "90", "p0-rank": "2", "p1-total": "80", "p1-rank": "1"}
    status, html = get(client, pad)
    assert status == 200
    assert any("Anaïs is placed 1 and David 2" in m for m in messages(html)), messages(html)
    assert 'name="line"' not in html
    query = urlencode(pad)
    response = client.post("/check/walk/", {"q": query, "line": "0:rank"})
    assert response.status_code == 400
    assert ScoreSheet.objects.count() == 0


def test_htmx_gets_the_verdict_and_each_line_out_of_band(client: Client) -> None:
    status, html = get(client, {**RULEBOOK_PAD, "p0-variety": "12"}, **HTMX)
    assert status == 200
    assert "<html" not in html
    assert html.lstrip().startswith('<section id="verdict"')
    assert 'id="p0-variety-msg" class="ck-msg" aria-live="polite" hx-swap-oob="true"' in html
    assert 'id="p0-flag" class="ck-flag" hx-swap-oob="true"' in html


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({**RULEBOOK_PAD, "p0-fish": "abc"}, "Anaïs, fish: write a whole number, not 'abc'"),
        ({**RULEBOOK_PAD, "p0-firefighting": "11"}, "Anaïs, firefighting space: 11 is outside 0-10"),
        ({**RULEBOOK_PAD, "p1-pipe": "maybe"}, "David, pipe: answer yes or no"),
        ({**RULEBOOK_PAD, "name-1": ""}, "IKI is played by 2 to 4 players"),
        ({**RULEBOOK_PAD, "edition": "2015"}, "Choose IKI or IKI + Akebono."),
    ],
)
def test_bad_input_is_a_400_with_a_message(client: Client, data: dict[str, str], words: str) -> None:
    for headers in ({}, HTMX):
        status, html = get(client, data, **headers)
        assert status == 400
        assert words in unescape(html)


def test_full_width_digits_count(client: Client) -> None:
    status, html = get(client, {**RULEBOOK_PAD, "p0-variety": "１６"})
    assert status == 200
    assert "Every number can be right" in html


def test_akebono_adds_the_personalities_line(client: Client) -> None:
    _, base = get(client, RULEBOOK_PAD)
    _, akebono = get(client, {**RULEBOOK_PAD, "edition": "akebono", "p0-personalities": "3"})
    assert 'name="p0-personalities"' not in base
    assert 'name="p0-personalities"' in akebono
    assert "personalities 3 is impossible" in akebono


def test_a_line_in_doubt_opens_the_walk_through_at_its_step(client: Client) -> None:
    query = urlencode({**RULEBOOK_PAD, "p0-variety": "12"})
    response = client.post("/check/walk/", {"q": query, "line": "0:variety"})
    assert response.status_code == 302
    url = urlparse(response["Location"])
    sheet = ScoreSheet.objects.get()
    assert url.path == f"/score/{sheet.token}/characters/"
    assert parse_qs(url.query) == {"target": ["variety:12"], "who": ["Anaïs"]}
    assert sheet.names == ["Anaïs", "David"]
    assert sheet.table["players"][0]["score_track"] == 28  # the pad's score track comes along
    assert sheet.table["players"][0]["firefighting"] == 6
    step = client.get(response["Location"]).content.decode()
    assert 'id="check-target"' in step
    assert "Anaïs's variety was written as <strong>12</strong>" in step


def test_a_second_players_line_in_doubt_opens_on_that_players_tab(client: Client) -> None:
    """David's fish opened on Anaïs's tab: the step's ``?p=`` was missing."""
    query = urlencode({**RULEBOOK_PAD, "p1-fish": "2"})
    response = client.post("/check/walk/", {"q": query, "line": "1:fish"})
    url = urlparse(response["Location"])
    assert parse_qs(url.query) == {"p": ["1"], "target": ["fish:2"], "who": ["David"]}
    step = client.get(response["Location"]).content.decode()
    assert "David's fish was written as <strong>2</strong>" in step
    assert re.search(
        r'aria-selected="true"[^>]*>(?:(?!</a>).)*<span class="visually-hidden">David</span>', step
    )


def test_the_step_shows_no_target_for_a_made_up_line(client: Client) -> None:
    query = urlencode(RULEBOOK_PAD)
    response = client.post("/check/walk/", {"q": query, "line": "1:fish"})
    step = client.get(response["Location"].split("?")[0] + "?target=<script>:1").content.decode()
    assert 'id="check-target"' not in step


@pytest.mark.parametrize(
    "form",
    [
        {"q": "name-0=A", "line": "0:variety"},
        {"q": urlencode(RULEBOOK_PAD), "line": "7:variety"},
        {"q": urlencode(RULEBOOK_PAD), "line": "0:nonsense"},
        {"q": urlencode({**RULEBOOK_PAD, "p0-fish": "x"}), "line": "0:fish"},
        {},
    ],
)
def test_a_bad_walk_is_a_400_and_starts_nothing(client: Client, form: dict[str, str]) -> None:
    response = client.post("/check/walk/", form)
    assert response.status_code == 400
    assert not ScoreSheet.objects.exists()


def test_a_walk_needs_a_post(client: Client) -> None:
    assert client.get("/check/walk/").status_code == 405


# --- 2015 ----------------------------------------------------------------------------------------------------------

PAD_2015 = {
    **PLAYERS,
    "p0-score_track": "31", "p0-types": "4", "p0-fish_seasons": "3", "p0-bonito": "5", "p0-pouches": "2, 3",
    "p0-pipes": "1", "p0-constructions": "5 8", "p0-koban": "2", "p0-lumber": "1", "p0-mon": "11",
    "p0-firefighting": "4", "p1-score_track": "70", "p1-types": "2", "p1-pouches": "4", "p1-mon": "4",
    "p1-firefighting": "7",
}  # fmt: skip
#: The same pad as written (``/check/2015/``): Anaïs 31 + 16 + 15 + 10 + 13 + 9 = 94, David 70 + 4 + 0 + 4 = 78,
#: with the printed values the table typed (bonito 5, sea bream 7, pouches 2 3 4 5, cards 2 3 4 5 6 8).
PAD_2015_WRITTEN = {
    **PLAYERS, "bonito": "5", "sea_bream": "7", "pouches": "2 3 4 5", "constructions": "2 3 4 5 6 8",
    "p0-score_track": "31", "p0-variety": "16", "p0-fish": "15", "p0-tobacco": "10", "p0-buildings": "13",
    "p0-resources": "9", "p0-total": "94", "p0-rank": "1", "p0-pipe": "yes", "p0-firefighting": "4",
    "p0-koban": "2", "p0-lumber": "1", "p0-mon": "11",
    "p1-score_track": "70", "p1-variety": "4", "p1-fish": "0", "p1-tobacco": "4", "p1-buildings": "0",
    "p1-resources": "0", "p1-total": "78", "p1-rank": "2", "p1-pipe": "no", "p1-firefighting": "7",
}  # fmt: skip


def test_a_2015_pad_is_added_up(client: Client) -> None:
    response = client.get("/check/2015/work/?" + urlencode(PAD_2015))
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r"ck-place\">1</span> Anaïs <strong>94</strong>", html)
    assert "2 + 3 = 5, doubled by a pipe = 10" in html
    assert re.search(r"ck-place\">2</span> David <strong>78</strong>", html)


@pytest.mark.parametrize(
    ("field", "value", "status", "words"),
    [
        ("p0-pouches", "1 2 3 4 5", 400, "at most 4 values"),
        ("p0-types", "6", 400, "6 is outside 0-5"),
        ("p1-pouches", "4 4 4", 200, "The table holds 5 tobacco pouches; the 2015 box has 4."),
    ],
)
def test_a_2015_pad_the_box_refuses(client: Client, field: str, value: str, status: int, words: str) -> None:
    response = client.get("/check/2015/work/?" + urlencode({**PAD_2015, field: value}))
    assert response.status_code == status
    assert words in response.content.decode()


def test_a_seed_narrows_the_buildings_to_its_setup(client: Client) -> None:
    """Seed K7MX2QPA with 2 players: Inn, Restaurant, Storehouse, Farmhouse, Well, Shrine (setupgen's draw). With
    Anaïs on firefighting space 6 her Well is 12, so 94 cannot be made; without the setup the Kabuki Theater
    could make it."""
    pad = {**RULEBOOK_PAD, "p0-buildings": "94", "p0-total": "176"}
    _, free = get(client, pad)
    _, seeded = get(client, {**pad, "seed": "K7MX2QPA"})
    assert "buildings 94 is impossible" not in unescape(free)
    assert "buildings 94 is impossible: the values of at most 4 of the setup's buildings" in unescape(seeded)


def test_a_bad_seed_is_a_400(client: Client) -> None:
    status, html = get(client, {**RULEBOOK_PAD, "seed": "nope"})
    assert status == 400
    assert "Setup code:" in html


def test_the_walk_keeps_the_seeds_setup(client: Client) -> None:
    query = urlencode({**RULEBOOK_PAD, "seed": "K7MX2QPA", "p0-variety": "12"})
    assert client.post("/check/walk/", {"q": query, "line": "0:variety"}).status_code == 302
    sheet = ScoreSheet.objects.get()
    assert sheet.seed == "K7MX2QPA"
    assert len(sheet.table["setup"]["buildings"]) == 6


# --- keeping a checked pad as a result ----------------------------------------------------------------------------


def keep(client: Client, data: dict[str, str], url: str = "/check/keep", result: str = "") -> Any:
    return client.post(url, {"q": urlencode(data), "result": result})


def test_a_clean_pad_is_kept_as_a_result_and_corrected_later(client: Client) -> None:
    _, html = get(client, RULEBOOK_PAD)
    assert 'id="keep-pad"' in html
    response = keep(client, RULEBOOK_PAD)
    assert response.status_code == 302
    result = Result.objects.get()
    assert response["Location"] == f"/results/{result.token}/"
    assert (result.edition, result.sheet) == ("iki", None)
    assert [(p["name"], p["total"], p["rank"]) for p in result.players] == [
        ("Anaïs", 100, 1),
        ("David", 41, 2),
    ]
    page = client.get(response["Location"]).content.decode()
    assert "Send to BG Stats" in page and "Edit the numbers" in page
    edit = re.search(r'href="(/check/\?[^"]+)">Edit the numbers', page)
    assert edit is not None
    reopened = client.get(unescape(edit[1])).content.decode()
    assert "Keep the corrected result" in reopened
    corrected = {**RULEBOOK_PAD, "p1-score_track": "60", "p1-total": "61"}
    assert keep(client, corrected, result=result.token).status_code == 302
    result.refresh_from_db()
    assert Result.objects.count() == 1
    assert [p["total"] for p in result.players] == [100, 61]
    view = client.get(result.view_url()).content.decode()
    assert result.token not in view and "Edit the numbers" not in view
    api = client.get(f"/api/v1/results/{result.view_token}").json()
    assert api["game"] == "iki" and api["view_url"] == result.view_url()


def test_a_filed_pad_corrected_after_a_rename_keeps_the_new_name(client: Client) -> None:
    """The pad's query still says "David" after the group renamed him "Dave": "Edit the numbers" then "Keep the
    corrected result" keeps Dave's game, not David's again."""
    group = Group.objects.create(name="Thursday")
    keep(client, RULEBOOK_PAD)
    result = Result.objects.get()
    client.post(f"/results/{result.token}/group", {"group": group.get_absolute_url()})
    assert client.post(f"/groups/{group.token}/rename", {"old": "David", "new": "Dave"}).status_code == 302
    corrected = {**RULEBOOK_PAD, "p1-score_track": "60", "p1-total": "61"}
    assert keep(client, corrected, result=result.token).status_code == 302
    result.refresh_from_db()
    assert [(p["name"], p["total"]) for p in result.players] == [("Anaïs", 100), ("Dave", 61)]


@pytest.mark.parametrize("mangled", ["!", "x" * 64, "<script>"])
def test_a_mangled_result_link_keeps_the_pad_as_a_new_result(client: Client, mangled: str) -> None:
    assert keep(client, RULEBOOK_PAD).status_code == 302
    first = Result.objects.get()
    response = keep(client, {**RULEBOOK_PAD, "p1-score_track": "60", "p1-total": "61"}, result=mangled)
    assert response.status_code == 302
    first.refresh_from_db()
    assert [p["total"] for p in first.players] == [100, 41]  # the first result is never rewritten
    second = Result.objects.exclude(pk=first.pk).get()
    assert response["Location"] == f"/results/{second.token}/"
    assert [p["total"] for p in second.players] == [100, 61]


def test_a_pad_with_a_doubt_is_not_kept(client: Client) -> None:
    response = keep(client, {**RULEBOOK_PAD, "p0-variety": "12"})
    assert response.status_code == 400
    assert not Result.objects.exists()


def test_a_2015_pad_is_kept_and_filed(client: Client) -> None:
    response = keep(client, PAD_2015, url="/check/2015/keep")
    assert response.status_code == 302
    result = Result.objects.get()
    assert result.edition == "iki-2015"
    assert [(p["name"], p["total"]) for p in result.players] == [("Anaïs", 94), ("David", 78)]
    assert client.post(f"/results/{result.token}/group", {"group": "Old box"}).status_code == 302
    group = Group.objects.get()
    html = client.get(group.get_absolute_url()).content.decode()
    assert "IKI 2015: 1 game" in html
    assert keep(client, {**PAD_2015, "p0-types": "9"}, url="/check/2015/keep").status_code == 400


def test_a_groups_names_are_offered_and_its_kept_pads_filed_there(client: Client) -> None:
    group = Group.objects.create(name="Thursday")
    assert keep(client, RULEBOOK_PAD).status_code == 302
    first = Result.objects.get()
    client.post(f"/results/{first.token}/group", {"group": group.get_absolute_url()})
    opened = client.get(f"/check/?group={group.token}")  # the group page's "Check a pad for this group"
    html = opened.content.decode()
    assert opened.status_code == 200 and 'role="alert"' not in html  # nothing typed yet: nothing refused
    assert '<option value="Anaïs">' in html and 'list="group-names"' in html
    assert "For the group <strong>Thursday</strong>" in html
    response = client.post("/check/keep", {"q": urlencode(RULEBOOK_PAD), "group": group.token})
    assert response.status_code == 302
    assert group.results.count() == 2
    view_only = client.get(f"/check/?group={group.view_token}").content.decode()
    assert "group-names" not in view_only  # a view-only link offers nothing and files nothing
    mangled = client.get(f"/check/?group={group.token[:-3]}!!!")  # a link cut or mistyped: the plain page
    assert mangled.status_code == 200 and "group-names" not in mangled.content.decode()
    assert client.get(f"/check/2015/?group={group.token}").status_code == 200


def test_a_kept_2015_pad_speaks_the_2015_lines(client: Client) -> None:
    response = keep(client, PAD_2015, url="/check/2015/keep")
    html = client.get(response["Location"]).content.decode()
    assert "Construction cards" in html and "Set collection (occupation types)" in html
    assert "Characters variety" not in html


HOSTILE = st.one_of(
    st.sampled_from(
        ["²", "３", "\x00", "\u202e", "", " ", "-1", "99999999999999999999", "x" * 5000, "1 2 3 4 5 6 7"]
    ),
    st.text(max_size=30),
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    field=st.sampled_from(
        sorted({*RULEBOOK_PAD, *PAD_2015_WRITTEN, "seed", "grand_master", "group", "result", "p2-fish"})
    ),
    value=HOSTILE,
    page=st.sampled_from(["/check/", "/check/2015/", "/check/2015/work/"]),
    htmx=st.booleans(),
)
def test_any_field_of_the_check_forms_never_breaks_them(
    client: Client, field: str, value: str, page: str, htmx: bool
) -> None:
    data = {**RULEBOOK_PAD, **(PAD_2015 if page.endswith("work/") else PAD_2015_WRITTEN), field: value}
    response = client.get(page + "?" + urlencode(data), **(HTMX if htmx else {}))
    assert response.status_code in (200, 400)


def test_the_target_stays_shown_through_entries_and_next_without_javascript(client: Client) -> None:
    """The line in doubt rides the step's form from page to page (no JavaScript: redirects after each post)."""
    query = urlencode({**RULEBOOK_PAD, "p0-variety": "12"})
    location = client.post("/check/walk/", {"q": query, "line": "0:variety"})["Location"]
    step = client.get(location).content.decode()
    assert 'name="target" value="variety:12"' in step
    sheet = ScoreSheet.objects.get()
    entry = f"/score/{sheet.token}/characters/entry/"
    after_entry = client.post(entry, {"target": "variety:12", "who": "Anaïs", "op": "add|0|characters|monk"})
    assert after_entry.status_code == 302
    assert parse_qs(urlparse(after_entry["Location"]).query)["target"] == ["variety:12"]
    assert (
        "variety was written as <strong>12</strong>" in client.get(after_entry["Location"]).content.decode()
    )
    after_next = client.post(entry, {"target": "variety:12", "who": "Anaïs", "go": "next"})
    assert parse_qs(urlparse(after_next["Location"]).query)["target"] == ["variety:12"]


def test_the_walk_through_start_offers_a_groups_names_so_anais_stays_anais(client: Client) -> None:
    group = Group.objects.create(name="Thursday")
    assert keep(client, RULEBOOK_PAD).status_code == 302
    client.post(f"/results/{Result.objects.get().token}/group", {"group": group.get_absolute_url()})
    assert f"/score/?group={group.token}" in client.get(group.get_absolute_url()).content.decode()
    html = client.get(f"/score/?group={group.token}").content.decode()
    assert '<option value="Anaïs">' in html and html.count('list="group-names"') == 4
    assert f'action="/score/?group={group.token}"' in html  # a refused start offers them again
    refused = client.post(f"/score/?group={group.token}", {"name-0": "Anaïs"}).content.decode()
    assert '<option value="Anaïs">' in refused
    assert "group-names" not in client.get(f"/score/?group={group.view_token}").content.decode()


def test_a_tie_with_a_position_missing_shows_the_places_it_leaves_open(client: Client) -> None:
    """RULINGS R12, R21: four players on 100, Hana's firefighting position blank. Anaïs and David (7) are surely
    above Ben (5), so Ben cannot be 1st: the ranking says 3-4 for him, as the error does, and names no space
    for the blank position (it showed "1 Ben" and "same firefighting space (-1)")."""
    names = ("Anaïs", "David", "Ben", "Hana")
    pad = {"edition": "base"}
    for i, (name, place, firefighting) in enumerate(zip(names, "2314", ("7", "7", "5", ""), strict=True)):
        pad |= {f"name-{i}": name, f"colour-{i}": ("red", "blue", "green", "yellow")[i]}
        pad |= {f"p{i}-total": "100", f"p{i}-rank": place, f"p{i}-firefighting": firefighting}
    status, html = get(client, pad)
    assert status == 200
    assert "Ben cannot be placed 1: with 100 IKI the place is 3 to 4." in messages(html)
    assert re.search(r"ck-place\">3\u20134</span> Ben <strong>100</strong>", html)
    assert re.search(r"ck-place\">1\u20133</span> Anaïs <strong>100</strong>", html)
    assert "-1" not in re.sub(r"<[^>]*>", "", html)
    assert "their order is open" in html


@pytest.mark.parametrize("url", ["/check/", "/check/2015/"])
def test_a_live_check_keeps_the_pad_in_the_address(client: Client, url: str) -> None:
    """A reload (a phone that slept) or Back finds the pad as typed: the live answer replaces the address with
    the whole pad, and varies on HX-Request, so the browser never shows the partial as the page."""
    query = urlencode({**RULEBOOK_PAD, "p0-variety": "12"})
    response = client.get(f"{url}?{query}", HTTP_HX_REQUEST="true")
    assert response["HX-Replace-Url"] == f"{url}?{query}"
    assert "HX-Request" in response["Vary"]
    assert "HX-Replace-Url" not in client.get(f"{url}?{query}")  # the page itself is already at its address


def test_a_line_refused_by_the_setup_names_it_and_asks_to_check_the_code(client: Client) -> None:
    """A 2-player Akebono game set up with the Grand Master variant, checked with its code but the box not
    ticked: the code then makes another setup (RULINGS R24), whose buildings cannot make the Pub's 5. The message
    names the buildings it judged by, and the verdict asks to check the code and the box, so the table can see
    the check is judging another game."""
    pad = {**PLAYERS, "edition": "akebono", "seed": "K7MX2QPA", "p0-buildings": "5"}
    status, html = get(client, pad)
    assert status == 200
    assert any(
        "buildings 5 is impossible: the values of at most 4 of the setup's buildings (Imperial Villa, Inn, Shrine, "
        "Storehouse, Temple, Wholesale Shipping Agency)" in m
        for m in messages(html)
    ), messages(html)
    note = (
        "Not the buildings and personalities you played with? Check the setup code and the Grand Master box."
    )
    assert note in unescape(html)
    _, ticked = get(client, {**pad, "grand_master": "1"})
    assert "buildings 5 is impossible" not in unescape(ticked)  # the Grand Master setup has the Pub
    _, three = get(client, {**pad, "name-2": "Chie", "colour-2": "green", "p0-buildings": "999"})
    assert "Check the setup code." in unescape(three)  # no Grand Master with 3 players
    _, free = get(client, {**pad, "seed": ""})
    assert "Check the setup code" not in unescape(free)


def test_a_high_score_track_is_said_with_whose_it_is(client: Client) -> None:
    """The verdict lists the warnings apart from the players' tabs: each says whose number it is."""
    _, html = get(client, {**RULEBOOK_PAD, "p1-score_track": "160", "p1-total": "161"})
    verdict = re.search(r'<section id="verdict".*?</section>', html, re.S)
    assert verdict is not None
    assert "David's score track 160 is over 150: legal, but worth a second look." in messages(
        verdict.group(0)
    )


@pytest.mark.parametrize(
    ("facts", "words"),
    [
        ({}, "Anaïs, David and Chie tie on 90 IKI: give every tied player's firefighting position"),
        (
            {f"p{i}-firefighting": "4" for i in range(3)},
            "Anaïs, David and Chie tie on 90 IKI on firefighting space 4: give the places in that stack",
        ),
    ],
)
def test_a_tie_is_one_warning_naming_the_tied_players(
    client: Client, facts: dict[str, str], words: str
) -> None:
    """RULINGS R21: three players written 1, 2, 3 on 90 IKI each, the tie-break facts not typed: the order may
    stand. The verdict says so once, naming the three, not once a player."""
    three = {**PLAYERS, "name-2": "Chie", "colour-2": "green", **facts}
    pad = {**three, **{f"p{i}-total": "90" for i in range(3)}, **{f"p{i}-rank": str(i + 1) for i in range(3)}}
    _, html = get(client, pad)
    verdict = re.search(r'<section id="verdict".*?</section>', html, re.S)
    assert verdict is not None
    assert "Every number can be right" in verdict.group(0)
    warned = messages(verdict.group(0))
    assert len(warned) == 1 and warned[0].startswith(words), warned
    assert sum(words in m for m in messages(html)) == 4  # and under each tied player's place


def test_a_base_game_line_in_doubt_names_only_the_base_games_steps(client: Client) -> None:
    """Base IKI has no boats and no personalities: its walk-through has no such steps, so a buildings line in
    doubt names only the steps it has."""
    _, base = get(client, {**RULEBOOK_PAD, "p0-buildings": "1"})
    said = re.search(r"This line also counts what the steps ([^<]*) hold", base)
    assert said is not None and said.group(1) == "Fish, Resources, Firefighting, Characters", said
    _, akebono = get(client, {**RULEBOOK_PAD, "edition": "akebono", "p0-buildings": "1"})
    assert "Boats" in unescape(akebono)
