"""Results and groups (issue 14): a sheet kept as a result at its result page, filed under a group, taken out,
removed; a group's statistics from known results; renames and merges; CSV, JSON and the API; BG Stats' link."""

from __future__ import annotations

import copy
import csv
import datetime
import io
import json
import re
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from companion.models.results import RESTORE_DAYS, Group, Result
from companion.models.scoresheets import ScoreSheet
from companion.scorepad.entries import EntryChange
from companion.scorepad.services import record_entries
from companion.services.result_export import BGSTATS_PUSH, bgstats_url
from companion.services.results import file_result, keep_checked_pad, player_names, results_of, with_aliases
from companion.services.stats import edition_stats, group_stats
from scoring.examples import AKEBONO_FOUR_PLAYERS, WORKED_EXAMPLE
from tests.factories import once_of

pytestmark = pytest.mark.django_db


def sheet_of(example: dict[str, Any] = WORKED_EXAMPLE, **fields: Any) -> ScoreSheet:
    colours = ["red", "blue", "green", "yellow"][: len(example["players"])]
    return ScoreSheet.objects.create(table=copy.deepcopy(example), colours=colours, **fields)


def visit_result(client: Client, sheet: ScoreSheet) -> str:
    response = client.get(f"/score/{sheet.token}/result/")
    assert response.status_code == 200
    return response.content.decode()


# --- kept at the result page ---------------------------------------------------------------------------------------


def test_reaching_the_result_page_keeps_the_result(client: Client) -> None:
    sheet = sheet_of(seed="K7MX2QPA")
    html = visit_result(client, sheet)
    result = Result.objects.get()
    assert result.edition == "iki"
    assert result.played == sheet.created.date()
    assert result.seed == "K7MX2QPA"
    anais, david = result.players
    assert (anais["name"], anais["colour"], anais["total"], anais["rank"]) == ("Anaïs", "red", 100, 1)
    assert anais["lines"] == {"score_track": 28, "variety": 16, "fish": 18, "tobacco": 16, "buildings": 18,
                              "resources": 4}  # fmt: skip
    assert anais["buildings"] == ["restaurant"]
    assert (david["total"], david["rank"]) == (41, 2)
    assert 'id="keep"' in html and "Send to BG Stats" in html


def test_a_sheet_with_errors_is_not_kept(client: Client) -> None:
    table = copy.deepcopy(WORKED_EXAMPLE)
    table["players"][1]["fish"] = ["fish-spring-bonus"]  # Anaïs holds it too (RULINGS R13)
    visit_result(client, sheet_of(table))
    assert not Result.objects.exists()


def test_editing_the_sheet_later_updates_its_result(client: Client) -> None:
    sheet = sheet_of()
    visit_result(client, sheet)
    record_entries(token=sheet.token, changes=[EntryChange("set", 1, "score_track", value=50)])
    visit_result(client, sheet)
    result = Result.objects.get()
    assert [p["total"] for p in result.players] == [100, 51]
    assert result.sheet_version == 2


def test_a_tie_the_stack_breaks_is_kept_as_the_page_ranks_it(client: Client) -> None:
    """Two players tied on 100 IKI on one firefighting space, David on top of its stack (RULINGS R12): the kept
    result (the group's wins, BG Stats, the CSV, the API) ranks them as the result page does, 1 and 2."""
    table = copy.deepcopy(WORKED_EXAMPLE)
    table["players"][1].update(score_track=99, firefighting=6)  # 41 + 59: Anaïs's 100, on her space 6
    sheet = sheet_of(table, stack={"David": 0, "Anaïs": 1})
    html = visit_result(client, sheet)
    assert "David above Anaïs" in html
    ranks = {p["name"]: (p["total"], p["rank"]) for p in Result.objects.get().players}
    assert ranks == {"David": (100, 1), "Anaïs": (100, 2)}
    data = json.loads(parse_qs(urlparse(bgstats_url(Result.objects.get())).query)["data"][0])
    assert [(p["name"], p["rank"], p["winner"]) for p in data["players"]] == [
        ("Anaïs", 2, False), ("David", 1, True),
    ]  # fmt: skip


def test_a_result_kept_before_the_stack_was_read_is_scored_again() -> None:
    """companion/migrations/0014: a result kept with both tied players in one place, where the stack puts them
    apart, is read with its sheet's ranking (RULINGS R12) and written down at its result page's next visit."""
    import importlib

    from django.apps import apps

    from companion.services.results import current

    table = copy.deepcopy(WORKED_EXAMPLE)
    table["players"][1].update(score_track=99, firefighting=6)
    sheet = sheet_of(table, stack={"David": 0, "Anaïs": 1})
    wrong = [{"name": n, "total": 100, "rank": 1} for n in ("Anaïs", "David")]
    kept = Result.objects.create(
        sheet=sheet, sheet_version=sheet.version, players=wrong, edition="iki", played=sheet.created.date()
    )
    assert current(kept).players == wrong  # as kept: nothing told it the sheet scores otherwise
    importlib.import_module("companion.migrations.0014_results_rescored").rescore(apps, None)
    ranks = {p["name"]: p["rank"] for p in current(Result.objects.get(pk=kept.pk)).players}
    assert ranks == {"David": 1, "Anaïs": 2}


def test_an_unchanged_sheet_writes_nothing(client: Client) -> None:
    sheet = sheet_of()
    visit_result(client, sheet)
    stamp = Result.objects.get().updated
    visit_result(client, sheet)
    assert Result.objects.get().updated == stamp


def test_the_view_only_page_keeps_nothing(client: Client) -> None:
    sheet = sheet_of()
    assert client.get(sheet.view_url()).status_code == 200
    assert not Result.objects.exists()


def test_a_removed_result_stays_removed(client: Client) -> None:
    sheet = sheet_of()
    visit_result(client, sheet)
    assert client.post(f"/results/{sheet.token}/remove").status_code == 302
    record_entries(token=sheet.token, changes=[EntryChange("set", 1, "score_track", value=50)])
    html = visit_result(client, sheet)
    assert Result.objects.get().removed
    assert "This result was removed" in html


def test_a_removed_result_is_restored_from_its_link_for_a_while(client: Client) -> None:
    """Issue 20: "Remove from the results" is not final: the result's edit link offers "Restore it" for
    RESTORE_DAYS days, back into its group; every tap is idempotent; the view-only link offers nothing."""
    sheet = sheet_of()
    visit_result(client, sheet)
    group = Group.objects.create(name="Thursdays")
    Result.objects.update(group=group)
    assert "restored from this page for 30 days" in visit_result(client, sheet)
    for _ in range(2):  # a second tap finds it removed and changes nothing
        assert client.post(f"/results/{sheet.token}/remove").status_code == 302
    result = Result.objects.get()
    assert result.removed and result.group == group
    assert client.get(f"/groups/{group.token}/").content.decode().count("The result</a>") == 0
    html = visit_result(client, sheet)
    until = (result.updated + datetime.timedelta(days=RESTORE_DAYS)).strftime("%-d %b %Y")
    assert f"It can be restored until {until} (30 days after its removal)" in html
    assert 'id="restore-result"' in html
    view = client.get(sheet.view_url()).content.decode()
    assert "This result was removed" in view and "restore-result" not in view
    assert client.post(f"/results/{sheet.view_token}/restore").status_code == 404
    for _ in range(2):
        response = client.post(f"/results/{sheet.token}/restore")
        assert response.status_code == 302 and response["Location"].endswith("/result/#keep")
    result.refresh_from_db()
    assert not result.removed and result.group == group
    assert client.get(f"/groups/{group.token}/").content.decode().count("The result</a>") == 1


def test_a_result_removed_too_long_ago_is_not_restored(client: Client) -> None:
    sheet = sheet_of()
    visit_result(client, sheet)
    client.post(f"/results/{sheet.token}/remove")
    Result.objects.update(updated=timezone.now() - datetime.timedelta(days=RESTORE_DAYS, minutes=1))
    html = visit_result(client, sheet)
    assert "This result was removed" in html and 'id="restore-result"' not in html
    response = client.post(f"/results/{sheet.token}/restore")
    assert response.status_code == 400 and "no longer be restored" in response.content.decode()
    assert Result.objects.get().removed


PAD_PLAYERS = [
    {
        "name": n,
        "colour": c,
        "lines": {"score_track": t},
        "total": t,
        "rank": r,
        "buildings": [],
        "personalities": [],
    }
    for n, c, t, r in (("Anaïs", "red", 40, 1), ("David", "blue", 30, 2))
]


def test_a_removed_checked_pad_keeps_its_edit_page_with_restore(client: Client) -> None:
    result = keep_checked_pad(edition="iki", players=PAD_PLAYERS, query="")
    assert client.post(f"/results/{result.token}/remove").status_code == 302
    page = client.get(f"/results/{result.token}/")
    assert page.status_code == 200 and 'id="restore-result"' in page.content.decode()
    assert "Edit the numbers" not in page.content.decode()
    assert client.get(f"/results/view/{result.view_token}/").status_code == 404
    assert client.post(f"/results/{result.token}/restore").status_code == 302
    assert client.get(f"/results/view/{result.view_token}/").status_code == 200


# --- groups ----------------------------------------------------------------------------------------------------


def test_a_result_is_filed_under_a_new_group_then_an_existing_one(client: Client) -> None:
    first, second = sheet_of(), sheet_of()
    once = once_of(visit_result(client, first))
    visit_result(client, second)
    response = client.post(f"/results/{first.token}/group", {"group": "Thursday table", "once": once})
    assert response.status_code == 302
    group = Group.objects.get()
    assert group.name == "Thursday table"
    link = f"http://testserver{group.get_absolute_url()}"
    assert client.post(f"/results/{second.token}/group", {"group": link}).status_code == 302
    assert Group.objects.count() == 1
    assert group.results.count() == 2
    # "File it" tapped twice with a new name: the second tap sends the form's code again, and makes no group
    again = client.post(f"/results/{first.token}/group", {"group": "Thursday table", "once": once})
    assert again.status_code == 302
    assert Group.objects.count() == 1 and group.results.count() == 2
    html = visit_result(client, first)
    assert "Thursday table" in html and "Take it out of the group" in html
    asked = client.post(f"/results/{first.token}/ungroup", {"ask": "1"})  # the page's button asks once
    assert asked.status_code == 200 and "Take this game out of Thursday table?" in asked.content.decode()
    assert f'action="/results/{first.token}/ungroup"' in asked.content.decode()
    assert (
        f'href="/score/{first.token}/result/#keep"' in asked.content.decode()
    )  # "Keep it": back where it was
    assert group.results.count() == 2
    assert client.post(f"/results/{first.token}/ungroup").status_code == 302
    assert group.results.count() == 1


START = {"name-0": "Anaïs", "name-1": "David", "colour-0": "red", "colour-1": "blue", "edition": "base",
         "setup_kind": "none"}  # fmt: skip


@pytest.mark.parametrize("link", ["edit", "view"])
def test_a_game_scored_for_a_group_is_filed_there(client: Client, link: str) -> None:
    """The group page's "Score a game for this group": the result is in the group once kept, with the group's
    renames, without pasting the group's link (a view-only link starts a sheet and files nothing). Taken out
    later, an edit of the sheet does not file it again."""
    group = Group.objects.create(name="Thursday table", aliases={"David": "Dave"})
    token = group.token if link == "edit" else group.view_token
    assert client.post(f"/score/?group={token}", START).status_code == 302
    sheet = ScoreSheet.objects.get()
    sheet.table = copy.deepcopy(WORKED_EXAMPLE)
    sheet.save()
    html = visit_result(client, sheet)
    if link == "view":
        assert Result.objects.get().group is None and "Your group's link" in html
        return
    assert "Kept in your group <strong>Thursday table</strong>" in html
    assert group_names(client, group) == [["Anaïs", "Dave"]]
    assert client.post(f"/results/{sheet.token}/ungroup").status_code == 302
    record_entries(token=sheet.token, changes=[EntryChange("set", 1, "score_track", value=50)])
    visit_result(client, sheet)
    assert Result.objects.get().group is None


def test_the_next_game_of_the_evening_is_scored_for_the_same_group(client: Client) -> None:
    """ "Score another game" on a result kept in a group starts the next sheet for that group (its names offered,
    its result filed there); the view-only page never names the group's edit link."""
    group = Group.objects.create(name="Thursday table")
    sheet = sheet_of()
    assert 'href="/score/">Score another game' in visit_result(client, sheet)  # kept in no group yet
    client.post(f"/results/{sheet.token}/group", {"group": group.get_absolute_url()})
    assert f'href="/score/?group={group.token}">Score another game' in visit_result(client, sheet)
    view = client.get(sheet.view_url()).content.decode()
    assert 'href="/score/">Score another game' in view and group.token not in view


@pytest.mark.parametrize("tail", ["#games-title", "#names-title", "?from=phone", "/?x=1#games-title"])
def test_a_group_link_copied_from_the_address_bar_files_there(client: Client, tail: str) -> None:
    """After a rename or a take-out the group's page opens at a part of it (``#names-title``): the address a player
    copies from the bar then ends with it, and still names the group."""
    group = Group.objects.create(name="Thursday table")
    sheet = sheet_of()
    visit_result(client, sheet)
    link = f"http://testserver{group.get_absolute_url()}".rstrip("/") + (
        tail if tail[0] == "/" else "/" + tail
    )
    assert client.post(f"/results/{sheet.token}/group", {"group": link}).status_code == 302
    assert group.results.count() == 1 and Group.objects.count() == 1


@pytest.mark.parametrize(
    ("value", "status"),
    [("", 400), ("http://testserver/groups/" + "A" * 24 + "/", 404), ("   ", 400), ("http://[x/#y", 404)],
)
def test_filing_under_a_bad_group_is_refused(client: Client, value: str, status: int) -> None:
    sheet = sheet_of()
    visit_result(client, sheet)
    assert client.post(f"/results/{sheet.token}/group", {"group": value}).status_code == status
    assert Result.objects.get().group is None


def test_a_group_view_link_cannot_file(client: Client) -> None:
    sheet = sheet_of()
    visit_result(client, sheet)
    group = Group.objects.create(name="Ours")
    response = client.post(f"/results/{sheet.token}/group", {"group": group.view_url()})
    assert response.status_code == 403
    assert Result.objects.get().group is None


def test_result_writes_need_a_kept_result_and_the_edit_token(client: Client) -> None:
    sheet = sheet_of()
    for url in (f"/results/{sheet.token}/remove", f"/results/{sheet.view_token}/remove"):
        assert client.post(url).status_code == 404
    visit_result(client, sheet)
    assert client.post(f"/results/{sheet.view_token}/remove").status_code == 404
    assert client.get(f"/results/{sheet.token}/remove").status_code == 405


def known_group() -> Group:
    """Three known results: two base games and one Akebono game."""
    group = Group.objects.create(name="Known")
    rows = [
        ("iki", datetime.date(2026, 1, 8), [("Anaïs", 100, 1, ["restaurant", "inn"]), ("David", 41, 2, [])]),
        ("iki", datetime.date(2026, 1, 15), [("Anaïs", 60, 2, ["inn"]), ("David", 80, 1, ["inn", "shrine"])]),
        ("iki-akebono", datetime.date(2026, 1, 22), [("Anaïs", 93, 1, ["temple"]), ("David", 90, 2, [])]),
    ]
    for edition, day, players in rows:
        Result.objects.create(
            sheet=sheet_of(),
            group=group,
            edition=edition,
            played=day,
            sheet_version=1,
            players=[
                {
                    "name": n,
                    "colour": c,
                    "lines": {"score_track": t - 10, "variety": 10},
                    "total": t,
                    "rank": r,
                    "buildings": b,
                    "personalities": [],
                }
                for (n, t, r, b), c in zip(players, ("red", "blue"), strict=True)
            ],
        )
    return group


def test_a_groups_statistics_from_known_results() -> None:
    group = known_group()
    base, akebono = group_stats(list(group.results.all()))
    assert (base.label, base.games, akebono.label, akebono.games) == ("IKI", 2, "IKI + Akebono", 1)
    by_name = {p.name: p for p in base.players}
    assert (by_name["Anaïs"].games, by_name["Anaïs"].wins, by_name["Anaïs"].average, by_name["Anaïs"].best) == (
        2, 1, 80.0, 100,
    )  # fmt: skip
    assert (by_name["David"].wins, by_name["David"].average, by_name["David"].best) == (1, 60.5, 80)
    assert by_name["Anaïs"].lines == {"score_track": 70.0, "variety": 10.0}
    assert base.winning_buildings == [("Inn", 2), ("Restaurant", 1), ("Shrine", 1)]
    assert [s.name for s in base.series] == ["Anaïs", "David"]
    assert base.series[0].points.count(",") == 2  # one point per game
    assert (base.low, base.high) == (41, 100)


def _on(days: list[datetime.date]) -> list[Result]:
    player = {
        "name": "A",
        "colour": "red",
        "lines": {},
        "total": 50,
        "rank": 1,
        "buildings": [],
        "personalities": [],
    }
    return [Result(edition="iki", played=d, sheet_version=1, players=[player]) for d in days]


JAN = [datetime.date(2026, 1, d) for d in range(1, 13)]


@pytest.mark.parametrize(
    ("days", "ticks", "form"),
    [
        (JAN[:1], [(JAN[0], False)], "j M"),  # one game: its date, under its dot in the middle
        (JAN[:4], [(JAN[0], False), (JAN[1], True), (JAN[2], False), (JAN[3], False)], "j M"),
        # twelve games: five dates, first, middle and last to stay; the evening of two games named once
        (
            JAN,
            [(d, i in (3, 8)) if i in (0, 3, 6, 8, 11) else (None, False) for i, d in enumerate(JAN)],
            "j M",
        ),
        ([JAN[0], JAN[0], JAN[1]], [(JAN[0], False), (None, False), (JAN[1], False)], "j M"),
        ([JAN[0], datetime.date(2027, 2, 1)], [(JAN[0], False), (datetime.date(2027, 2, 1), False)], "M Y"),
    ],
)
def test_the_chart_names_its_games_by_their_dates(days: list[datetime.date], ticks: Any, form: str) -> None:
    stats = edition_stats("iki", _on(days))
    assert (stats.ticks, stats.tick_format) == (ticks, form)
    xs = [x for x, _, _ in stats.series[0].dots]
    assert xs == [round((i + 0.5) * 360 / len(days), 1) for i in range(len(days))]  # a dot mid-column


def test_the_group_page_says_games_and_only_games(client: Client) -> None:
    """One word for a game kept by a group, wherever the group's page speaks of them ("game"), never "play"."""
    group = known_group()
    for link in (group.get_absolute_url(), group.view_url()):
        html = client.get(link).content.decode()
        words = re.sub(r"<[^>]+>", " ", html.split("</header>")[1])  # what a player reads (and hears)
        assert re.findall(r"\bplays?\b", words, re.IGNORECASE) == [], link
        assert "3 games kept" in words and "Games" in words


def test_the_group_page_shows_statistics_and_a_chart(client: Client) -> None:
    group = known_group()
    html = client.get(group.get_absolute_url()).content.decode()
    assert "IKI: 2 games" in html and "IKI + Akebono: 1 game" in html
    assert html.count("<polyline") == 4  # two players in each edition
    assert "Rename" in html and group.token in html
    view = client.get(group.view_url()).content.decode()
    assert "IKI: 2 games" in view
    assert "<form" not in view.split("</header>")[1]
    assert group.token not in view


def test_rename_and_merge_players(client: Client) -> None:
    group = known_group()
    url = f"/groups/{group.token}/rename"
    assert client.post(url, {"old": "David", "new": "Dave"}).status_code == 302
    assert all(p["name"] in ("Anaïs", "Dave") for r in group.results.all() for p in r.players)
    refused = client.post(url, {"old": "Dave", "new": "Anaïs"})  # they played together: two players
    assert refused.status_code == 400
    assert "two players" in refused.content.decode()
    assert client.post(url, {"old": "Nobody", "new": "X"}).status_code == 400
    blank = client.post(url, {"old": "Dave", "new": "  "})
    assert blank.status_code == 400
    assert "New name: give a name" in blank.content.decode()
    assert all(p["name"] in ("Anaïs", "Dave") for r in group.results.all() for p in r.players)


def test_a_refused_rename_is_said_beside_its_form_with_what_was_typed(client: Client) -> None:
    group = known_group()
    refused = client.post(f"/groups/{group.token}/rename", {"old": "David", "new": "Anaïs"})
    assert refused.status_code == 400
    html = refused.content.decode()
    names = html.split('id="names-title"')[1]  # the group's page, at its names
    assert '<p class="message error" role="alert">' in names and "they are two players" in names
    assert '<option value="David" selected>David</option>' in names
    assert 'value="Anaïs"' in names.split('id="new"')[1].split(">")[0]  # what was typed, kept
    assert f'action="/groups/{group.token}/rename#names-title"' in names  # the answer opens at the names
    assert "IKI: 2 games" in html  # the rest of the page as ever
    fine = client.get(group.get_absolute_url()).content.decode()
    assert 'role="alert"' not in fine and " selected>" not in fine.split('id="names-title"')[1]


def test_a_rename_says_it_was_done_beside_its_form(client: Client) -> None:
    """After "Rename" (or a merge) the page opens at the names with a word that it was done: the form alone,
    empty again, left the player wondering whether the tap landed."""
    group = known_group()
    done = client.post(f"/groups/{group.token}/rename", {"old": "David", "new": "Dave  M"})
    assert done.status_code == 302
    assert done["Location"] == f"{group.get_absolute_url()}?renamed=Dave+M#names-title"
    names = client.get(done["Location"]).content.decode().split('id="names-title"')[1]
    assert 'id="renamed">Done: those games are now Dave M\'s.</p>' in names
    for link, said in (
        (f"{group.get_absolute_url()}?renamed=Nobody", "Nobody"),
        (f"{group.view_url()}?renamed=Dave+M", ""),
    ):
        page = client.get(
            link
        ).content.decode()  # a name the group has not, or the view-only link: nothing said
        assert 'id="renamed"' not in page and (not said or said not in page)


def test_a_rename_a_merge_and_a_take_out_tapped_twice_are_done_once_without_a_refusal(client: Client) -> None:
    """The second tap of a double tap finds its work done: the page it lands on is the first's, not an error."""
    group = known_group()
    first, second = (
        client.post(f"/groups/{group.token}/rename", {"old": "David", "new": "Dave"}) for _ in "12"
    )
    assert first.status_code == second.status_code == 302 and first["Location"] == second["Location"]
    assert "David" not in player_names(group) and "Dave" in player_names(group)
    result = results_of(group)[0]
    taps = [client.post(f"/groups/{group.token}/take-out", {"result": result.public_token}) for _ in "12"]
    assert [t.status_code for t in taps] == [302, 302] and taps[0]["Location"] == taps[1]["Location"]
    assert result.pk not in [r.pk for r in results_of(group)]
    other = Group.objects.create(name="Friday")  # taken out and filed elsewhere: not this group's to take out
    file_result(result=result, group=other)
    late = client.post(f"/groups/{group.token}/take-out", {"result": result.public_token})
    assert late.status_code == 404


def test_a_new_group_offers_no_names_to_change(client: Client) -> None:
    """A group with no game yet has no player: no empty list to pick from and a Rename that can only refuse."""
    group = Group.objects.create(name="Thursday")
    page = client.get(group.get_absolute_url()).content.decode()
    assert 'id="names-title"' not in page and f"/groups/{group.token}/rename" not in page
    assert 'id="group-edit-link"' in page  # its links all the same
    assert 'id="names-title"' in client.get(known_group().get_absolute_url()).content.decode()


@pytest.mark.parametrize(("name", "words"), [("", "Give the group a name."), ("x" * 201, "Group name")])
def test_a_new_group_needs_a_name(client: Client, name: str, words: str) -> None:
    refused = client.post("/groups/new", {"name": name})
    assert refused.status_code == 400
    assert words in refused.content.decode()
    assert not Group.objects.exists()
    made = client.post("/groups/new", {"name": "Thursday"})
    assert made.status_code == 302
    assert made["Location"] == Group.objects.get(name="Thursday").get_absolute_url()


def test_the_edit_link_renames_the_group_and_says_so_at_the_top(client: Client) -> None:
    """From the edit link "Thursday crew" becomes "Thursday games": the page opens at its top, the heading and the
    form's word say the new name. A restored copy keeps its name, so this is how a table tells the two apart."""
    group = known_group()
    page = client.get(group.get_absolute_url()).content.decode()
    assert f'action="/groups/{group.token}/name"' in page and "Rename the group" in page
    done = client.post(f"/groups/{group.token}/name", {"name": "  Thursday   games "})
    assert done.status_code == 302
    assert done["Location"] == f"{group.get_absolute_url()}?named=Thursday+games"  # the top: no #part
    group.refresh_from_db()
    assert group.name == "Thursday games"
    html = client.get(done["Location"]).content.decode()
    assert "<h1>Thursday games</h1>" in html and "<title>Thursday games ·" in html
    assert 'id="named">Done: the group is now called Thursday games.</p>' in html
    assert (
        html.index("<h1>") < html.index('id="named"') < html.index('id="stats-iki"')
    )  # beside the form, up top
    assert "<h1>Thursday games</h1>" in client.get(group.view_url()).content.decode()
    for link in (f"{group.get_absolute_url()}?named=Known", f"{group.view_url()}?named=Thursday+games"):
        assert 'id="named"' not in client.get(link).content.decode()  # an old name, or the view-only link


def test_renaming_the_group_twice_is_harmless(client: Client) -> None:
    group = known_group()
    taps = [client.post(f"/groups/{group.token}/name", {"name": "Thursday games"}) for _ in "12"]
    assert [t.status_code for t in taps] == [302, 302] and taps[0]["Location"] == taps[1]["Location"]
    group.refresh_from_db()
    assert group.name == "Thursday games" and group.results.count() == 3


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "Group name: Give the group a name."),
        ("   ", "Group name: Give the group a name."),
        ("x" * 41, "Group name: a name has at most 40 characters (this one has 41)."),
        ("\u200b\u200b", "Group name: a name needs letters or signs a person can see."),
        ("Thu\u202ersday", "direction-override character (U+202E)"),
    ],
)
def test_a_refused_group_name_is_said_beside_its_form_and_saves_nothing(
    client: Client, name: str, words: str
) -> None:
    group = known_group()
    before = list(Group.objects.values_list("pk", "name", "aliases"))
    refused = client.post(f"/groups/{group.token}/name", {"name": name})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert '<p class="message error" role="alert" id="name-refused">' in html and words in html
    field = html.split('id="group-new-name"')[1].split(">")[0]
    assert f'value="{escape(name)}"' in field and "autofocus" in field  # what was typed, kept
    assert "<h1>Known</h1>" in html and "IKI: 2 games" in html  # the page as ever, its name unchanged
    assert list(Group.objects.values_list("pk", "name", "aliases")) == before


def test_a_new_group_name_ends_its_sentence_once(client: Client) -> None:
    refused = client.post("/groups/new", {"name": ""}).content.decode()
    assert "Group name: Give the group a name." in refused and "name.." not in refused


def test_the_view_only_link_cannot_rename_the_group(client: Client) -> None:
    """The view-only link shows no such form, and its address refuses the write: nothing changes."""
    group = known_group()
    page = client.get(group.view_url()).content.decode()
    assert "Rename the group" not in page and "/name" not in page
    for token in (group.view_token, "B" * 24):
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.post(f"/groups/{token}/name", {"name": "Mallory's"}, **headers)
            assert response.status_code == (403 if token == group.view_token else 404)
            assert (
                "view-only link of a group" if token == group.view_token else "nothing at this address"
            ) in (response.content.decode())
    assert client.get(f"/groups/{group.token}/name").status_code == 405
    group.refresh_from_db()
    assert group.name == "Known"


def test_a_merge_is_suggested_and_survives_a_later_edit(client: Client) -> None:
    group = known_group()
    sheet = sheet_of(AKEBONO_FOUR_PLAYERS)
    table = copy.deepcopy(AKEBONO_FOUR_PLAYERS)
    sheet.table = table
    sheet.save()
    visit_result(client, sheet)
    client.post(f"/results/{sheet.token}/group", {"group": group.get_absolute_url()})
    html = client.get(group.get_absolute_url()).content.decode()
    assert "Merge" not in html  # "Anaïs" is Anaïs already
    client.post(f"/groups/{group.token}/rename", {"old": "Ulric", "new": "Ulrich"})
    record_entries(token=sheet.token, changes=[EntryChange("set", 3, "score_track", value=67)])
    visit_result(client, sheet)
    names = [p["name"] for p in Result.objects.get(sheet=sheet).players]
    assert "Ulrich" in names and "Ulric" not in names


def group_names(client: Client, group: Group) -> list[list[str]]:
    """Each game's player names as the group's API reads them, oldest first."""
    answer = client.get(f"/api/v1/groups/{group.view_token}/results").json()
    return [[p["name"] for p in r["players"]] for r in answer["results"]]


def test_a_game_filed_after_a_merge_counts_for_the_name_kept(client: Client) -> None:
    """The table merged "Anais" into "Anaïs"; next week's sheet, typed "Anais" again, is filed in the group:
    its game counts for Anaïs, not for a player of its own that the group had done away with."""
    group = known_group()
    table = copy.deepcopy(WORKED_EXAMPLE)
    table["players"][0]["name"] = "Anais"
    for week in (1, 2):
        sheet = sheet_of(table)
        visit_result(client, sheet)
        client.post(f"/results/{sheet.token}/group", {"group": group.get_absolute_url()})
        if week == 1:
            merge = {"old": "Anais", "new": "Anaïs"}
            assert client.post(f"/groups/{group.token}/rename", merge).status_code == 302
    assert group_names(client, group)[-2:] == [["Anaïs", "David"], ["Anaïs", "David"]]
    html = client.get(group.get_absolute_url()).content.decode()
    assert "Merge Anais into" not in html and ">Anais<" not in html


def test_a_game_restored_after_a_rename_counts_for_the_new_name(client: Client) -> None:
    """A result removed while the table renamed David to Dave comes back as Dave's game, not David's."""
    group = known_group()
    sheet = sheet_of()
    visit_result(client, sheet)
    client.post(f"/results/{sheet.token}/group", {"group": group.get_absolute_url()})
    client.post(f"/results/{sheet.token}/remove")
    assert client.post(f"/groups/{group.token}/rename", {"old": "David", "new": "Dave"}).status_code == 302
    client.post(f"/results/{sheet.token}/restore")
    assert all("David" not in names for names in group_names(client, group))
    assert group_names(client, group)[-1] == ["Anaïs", "Dave"]


def test_a_merge_never_makes_two_players_of_one_game_one() -> None:
    """Filed in a group that merged "Anais" into "Anaïs", a game where both played keeps both names."""
    group = Group(name="Merged", aliases={"Anais": "Anaïs", "Dom": "Dominique"})
    players = [{"name": "Anais"}, {"name": "Anaïs"}, {"name": "Dom"}]
    assert [p["name"] for p in with_aliases(players, group)] == ["Anais", "Anaïs", "Dominique"]


def test_a_near_name_is_offered_as_a_merge(client: Client) -> None:
    group = known_group()
    result = group.results.first()
    assert result is not None
    result.players[1]["name"] = "anais"
    result.players[0]["name"] = "Zoé"
    result.save()
    html = client.get(group.get_absolute_url()).content.decode()
    assert "Merge anais into Anaïs" in html


def test_a_group_view_link_never_writes(client: Client) -> None:
    group = known_group()
    for url, form in (
        (f"/groups/{group.view_token}/rename", {"old": "David", "new": "Dave"}),
        (f"/groups/{group.view_token}/take-out", {"result": group.results.first().sheet.view_token}),  # type: ignore[union-attr]
    ):
        response = client.post(url, form)
        assert response.status_code == 403
        assert "view-only link of a group" in response.content.decode()
    assert group.results.count() == 3


def test_take_out_from_the_group_page(client: Client) -> None:
    group = known_group()
    first = group.results.first()
    assert first is not None
    page = client.get(f"/groups/{group.token}/").content.decode()
    assert 'name="ask" value="1"' in page  # the group page's button asks first (issue 20)
    asked = client.post(f"/groups/{group.token}/take-out", {"result": first.sheet.view_token, "ask": "1"})
    assert asked.status_code == 200 and group.results.count() == 3  # asking writes nothing
    question = asked.content.decode()
    assert "Take this game out of Known?" in question and "8 Jan 2026" in question
    assert 'id="take-out-yes"' in question and f'href="/groups/{group.token}/#games-title"' in question
    assert 'name="ask"' not in question.split('id="take-out-confirm"')[1]  # its answer acts
    response = client.post(f"/groups/{group.token}/take-out", {"result": first.sheet.view_token})
    assert response.status_code == 302
    assert response["Location"] == f"/groups/{group.token}/#games-title"  # back at the games, not the top
    assert group.results.count() == 2
    assert client.post(f"/groups/{group.token}/take-out", {"result": "x"}).status_code == 404


def test_unknown_groups_are_404(client: Client) -> None:
    assert client.get("/groups/" + "B" * 24 + "/").status_code == 404
    assert client.get("/groups/short/").status_code == 404
    group = Group.objects.create(name="Known")
    assert client.get(f"/groups/{group.token}/").status_code == 200  # a real group's page is there


# --- downloads and the API -------------------------------------------------------------------------------------


def test_csv_and_json_downloads(client: Client) -> None:
    group = known_group()
    for token in (group.token, group.view_token):
        text = client.get(f"/groups/{token}/results.csv").content.decode()
        rows = list(csv.DictReader(io.StringIO(text)))
        assert len(rows) == 6
        assert rows[0]["date"] == "2026-01-08" and rows[0]["player"] == "Anaïs" and rows[0]["total"] == "100"
        data = json.loads(client.get(f"/groups/{token}/results.json").content)
        assert [r["date"] for r in data["results"]] == ["2026-01-08", "2026-01-15", "2026-01-22"]
        assert group.token not in json.dumps(data)


def test_the_api_answers_view_tokens_and_never_shows_an_edit_token(client: Client) -> None:
    group = known_group()
    sheet = sheet_of()
    visit_result(client, sheet)
    client.post(f"/results/{sheet.token}/group", {"group": group.get_absolute_url()})
    one = client.get(f"/api/v1/results/{sheet.view_token}")
    assert one.status_code == 200
    body = one.content.decode()
    assert json.loads(body)["players"][0]["total"] == 100
    assert sheet.token not in body and group.token not in body
    many = client.get(f"/api/v1/groups/{group.view_token}/results")
    assert many.status_code == 200
    text = many.content.decode()
    assert len(json.loads(text)["results"]) == 4
    assert group.token not in text and sheet.token not in text
    assert client.get(f"/api/v1/groups/{group.token}/results").status_code == 404  # an edit token is refused
    assert client.get(f"/api/v1/results/{sheet.token}").status_code == 404
    missing = client.get("/api/v1/results/" + "C" * 24)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not-found"


def test_the_bgstats_link_follows_its_published_format(client: Client) -> None:
    """The whole format is checked in tests/companion/test_play_time.py (issue 25)."""
    sheet = sheet_of(seed="K7MX2QPA")
    visit_result(client, sheet)
    url = bgstats_url(Result.objects.get())
    assert url.startswith(BGSTATS_PUSH + "?data=")
    data = json.loads(parse_qs(urlparse(url).query)["data"][0])
    assert data["game"] == {"name": "IKI", "highestWins": True, "noPoints": False, "sourceGameId": "iki"}
    assert data["playDate"] == sheet.created.strftime("%Y-%m-%d %H:%M:%S")
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in data["players"]] == [
        ("Anaïs", 100, 1, True), ("David", 41, 2, False),
    ]  # fmt: skip


def test_a_filed_sheet_edited_later_reads_its_new_numbers_everywhere(client: Client) -> None:
    sheet = sheet_of()
    visit_result(client, sheet)
    group = Group.objects.create(name="Ours")
    client.post(f"/results/{sheet.token}/group", {"group": group.get_absolute_url()})
    record_entries(
        token=sheet.token, changes=[EntryChange("set", 1, "score_track", value=90)]
    )  # no visit to the result page
    before = Result.objects.get().updated
    totals = [p["total"] for p in client.get(f"/api/v1/results/{sheet.view_token}").json()["players"]]
    assert totals == [100, 91]
    assert "David <strong>91</strong>" in client.get(group.view_url()).content.decode()
    assert Result.objects.get().updated == before  # reading wrote nothing


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x")', "+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"])
def test_a_csv_cell_that_starts_like_a_formula_is_quoted(client: Client, name: str) -> None:
    """Issue 24: a spreadsheet runs a cell starting with =, +, -, @, tab or CR; a leading ' makes it text."""
    group = known_group()
    result = Result.objects.filter(group=group).first()
    assert result is not None
    result.players[0]["name"] = name
    result.save()
    text = client.get(f"/groups/{group.view_token}/results.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert rows[0]["player"] == "'" + name
    assert rows[0]["total"] == "100" and rows[1]["player"] == "David"
