"""A finished Traders of Osaka game as a kept result (issue 23): filed in a group, its statistics beside IKI's,
its CSV and JSON, its BG Stats push link, its group file; no result while the game runs (RULINGS O6, O8)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from companion.models.osaka import OsakaGame
from companion.models.results import Group, Result
from companion.services.osaka import record
from companion.services.results import record_osaka_result, results_of
from companion.services.stats import group_stats
from tests.companion.osaka.test_games import HX, _begin, _game, _payday, _seat, _take, _url, text
from tests.companion.test_results import known_group

pytestmark = pytest.mark.django_db


def ended(client: Client) -> OsakaGame:
    """The game of tests/companion/osaka/test_games.py's end: David 3 VP first, Anaïs 1 VP (8 tokens) second,
    Dominique 0 VP third."""
    game = _begin(_game(), first=["red", "green", "green"])
    for colour in ("blue", "yellow", "green", "red", "blue", "yellow"):
        _take(client, game, 1, colour)
    _payday(client, game, {"edo1": "green", "p1-goods_green_5": 2})
    _payday(
        client, game, {"edo1": "yellow", "edo2": "red", "p0-goods_yellow_3": 1, "p1-goods_red_5": 3}, **HX
    )
    game.refresh_from_db()
    assert game.finished
    return game


def filed_with_iki(client: Client) -> tuple[OsakaGame, Group]:
    """The ended game's result filed in a group with two IKI games and one IKI + Akebono game."""
    game = ended(client)
    client.get(_url(game))
    group = known_group()
    Result.objects.filter(osaka_game=game).update(group=group)
    return game, group


def test_no_result_while_the_game_runs(client: Client) -> None:
    game = _begin(_game())
    page = client.get(_url(game)).content.decode()
    assert 'id="keep"' not in page and "Send to BG Stats" not in page
    assert record_osaka_result(game=game) is None and not Result.objects.exists()


@pytest.mark.parametrize("htmx", [False, True])
def test_the_end_keeps_the_ranking_and_files_it_in_a_group(client: Client, htmx: bool) -> None:
    game = ended(client)
    # The page, or the poll's partial once the game changed, shows the panel and keeps the result.
    response = client.get(_url(game, "state") + "?v=1", **HX) if htmx else client.get(_url(game))
    assert response.status_code == 200
    body = text(response)
    assert "Keep it, send it on" in body and "File it" in body and "Send to BG Stats" in body
    result = Result.objects.get(osaka_game=game)
    assert (result.edition, result.edition_label, result.sheet_version) == (
        "osaka",
        "Traders of Osaka",
        game.version,
    )
    assert [(p["name"], p["total"], p["rank"], p["colour"]) for p in result.players] == [
        ("Anaïs", 1, 2, "white"), ("David", 3, 1, "pink"), ("Dominique", 0, 3, "gray"),
    ]  # fmt: skip
    filed = client.post(f"/results/{result.edit_token}/group", {"group": "Thursday"})
    assert filed.status_code == 302 and filed["Location"] == game.edit_url() + "#keep"
    group = Group.objects.get(name="Thursday")
    assert results_of(group) == [result]
    assert "Kept in your group Thursday" in text(client.get(_url(game)))
    page = text(client.get(group.get_absolute_url()))
    assert "Traders of Osaka: 1 game" in page
    assert "1 David 3 VP · 2 Anaïs 1 VP · 3 Dominique 0 VP" in page
    assert "Average of each line" not in page


def test_only_the_edit_link_files_it(client: Client) -> None:
    game = ended(client)
    client.get(_url(game))
    result = Result.objects.get(osaka_game=game)
    for token in (game.view_token, _seat(game, 1).private_token):
        page = client.get(_url(game, token=token)).content.decode()
        assert "Send to BG Stats" in page and result.token not in page and "File it" not in page
    assert client.post(f"/results/{game.view_token}/group", {"group": "X"}).status_code == 404


def test_an_undone_end_hides_the_result_until_the_game_ends_again(client: Client) -> None:
    game = ended(client)
    client.get(_url(game))
    result = Result.objects.get(osaka_game=game)
    group = Group.objects.create(name="Thursday")
    client.post(f"/results/{result.edit_token}/group", {"group": group.get_absolute_url()})
    last = game.events.filter(kind="payday").order_by("-version").first()
    assert last is not None
    record(game.pk, kind="undo", data={"target": last.version}, who="t")
    assert results_of(group) == []
    assert "Traders of Osaka" not in text(client.get(group.get_absolute_url()))
    assert client.get(f"/results/{result.edit_token}/").status_code == 404
    record(game.pk, kind="undo", data={"target": last.version}, who="t")  # restored: the game ends again
    assert [r.pk for r in results_of(group)] == [result.pk]


def test_statistics_csv_and_json_with_mixed_games(client: Client) -> None:
    game, group = filed_with_iki(client)
    iki, akebono, osaka = group_stats(results_of(group))
    assert (iki.label, iki.unit, [k for k, _ in iki.lines]) == ("IKI", "IKI", ["score_track", "variety"])
    assert (akebono.unit, iki.winning_buildings) == ("IKI", [("Inn", 2), ("Restaurant", 1), ("Shrine", 1)])
    assert (osaka.label, osaka.unit, osaka.lines, osaka.winning_buildings) == (
        "Traders of Osaka",
        "VP",
        [],
        [],
    )
    assert [(p.name, p.games, p.wins, p.average, p.best) for p in osaka.players] == [
        ("David", 1, 1, 3.0, 3), ("Anaïs", 1, 0, 1.0, 1), ("Dominique", 1, 0, 0.0, 0),
    ]  # fmt: skip
    page = client.get(group.get_absolute_url()).content.decode()
    assert page.count("Average of each line") == 2 and "Best VP" in page
    rows = list(
        csv.DictReader(io.StringIO(client.get(f"/groups/{group.view_token}/results.csv").content.decode()))
    )
    osaka_rows = [r for r in rows if r["game"] == "Traders of Osaka"]
    assert [(r["player"], r["colour"], r["total"], r["rank"], r["variety"]) for r in osaka_rows] == [
        ("Anaïs", "white", "1", "2", ""), ("David", "pink", "3", "1", ""), ("Dominique", "gray", "0", "3", ""),
    ]  # fmt: skip
    assert osaka_rows[0]["result"] == game.view_url() and osaka_rows[0]["duration_min"] != ""
    data = json.loads(client.get(f"/groups/{group.view_token}/results.json").content)
    games = {r["game"]: r for r in data["results"]}
    assert games["osaka"]["game_name"] == "Traders of Osaka" and games["osaka"]["view_url"] == game.view_url()
    assert [p["total"] for p in games["osaka"]["players"]] == [1, 3, 0]
    assert game.edit_token not in json.dumps(data)
    one = client.get(f"/api/v1/results/{game.view_token}")  # the view link the JSON names answers the API
    assert one.status_code == 200 and one.json()["players"] == games["osaka"]["players"]
    assert client.get(f"/api/v1/results/{game.edit_token}").status_code == 404
    asked = client.post(f"/groups/{group.token}/take-out", {"result": game.view_token, "ask": "1"})
    assert asked.status_code == 200 and "Traders of Osaka" in text(asked)
    client.post(f"/groups/{group.token}/take-out", {"result": game.view_token})
    assert [r.edition for r in results_of(group)] == ["iki", "iki", "iki-akebono"]


def test_the_bg_stats_link_decoded(client: Client) -> None:
    game = ended(client)
    page = client.get(_url(game)).content.decode()
    href = page.split('id="bgstats-link"')[0].rsplit('href="', 1)[1].split('"')[0].replace("&amp;", "&")
    data = json.loads(parse_qs(urlparse(href).query)["data"][0])
    assert data["game"] == {"name": "Traders of Osaka", "highestWins": True, "noPoints": False,
                            "sourceGameId": "osaka"}  # fmt: skip  # no bggId: none confirmed
    assert "board" not in data and data["comments"] == "Tracked with the IKI companion."
    assert [(p["name"], p["score"], p["rank"], p["winner"], p["role"]) for p in data["players"]] == [
        ("Anaïs", 1, 2, False, "white"), ("David", 3, 1, True, "pink"), ("Dominique", 0, 3, False, "gray"),
    ]  # fmt: skip
    assert [p["startPlayer"] for p in data["players"]] == [False, True, False]  # David started
    assert isinstance(data["durationMin"], int)
    assert game.edit_token not in href and game.view_token not in href


def test_a_groups_file_with_an_osaka_result_round_trips(client: Client) -> None:
    game, group = filed_with_iki(client)
    raw = client.get(f"/groups/{group.view_token}/everything.json").content
    assert game.edit_token.encode() not in raw and game.view_token.encode() not in raw
    response = client.post("/groups/restore", {"file": SimpleUploadedFile("g.json", raw, "application/json")})
    assert response.status_code == 302
    copy_ = Group.objects.exclude(pk=group.pk).get()

    def kept(g: Group) -> list[tuple[str, Any]]:
        return [(r.edition, r.players) for r in results_of(g)]

    assert kept(copy_) == kept(group)
    assert "Traders of Osaka: 1 game" in text(client.get(copy_.get_absolute_url()))
    restored = next(r for r in results_of(copy_) if r.edition == "osaka")
    page = text(client.get(restored.view_url()))  # its own page now: the game stayed on the other companion
    assert "3 VP" in page and " IKI" not in page.split("final ranking")[1]  # VP cards, not IKI
    assert "from a checked paper pad" not in page and "from a group's file" in page


def test_each_link_names_itself_for_the_recent_list(client: Client) -> None:
    game = _begin(_game())
    david = _seat(game, 2)
    labels = {}
    for token in (game.edit_token, game.view_token, david.private_token):
        page = client.get(_url(game, token=token)).content.decode()
        entry = json.loads(
            page.split('<script id="recent-entry" type="application/json">')[1].split("</script>")[0]
        )
        labels[token] = (entry["label"], entry["players"], entry["month"])
        assert 'data-recent="finished"' not in page
    assert labels == {
        game.edit_token: ("Osaka game", "Anaïs, David, Dominique", "in play"),
        game.view_token: ("Osaka game (view only)", "Anaïs, David, Dominique", "in play"),
        david.private_token: ("Osaka game, David's own link", "Anaïs, David, Dominique", "in play"),
    }
    ended_game = ended(client)
    state = client.get(_url(ended_game, "state") + "?v=1", **HX).content.decode()
    assert 'data-recent="finished"' in state  # the swapped part marks the end for recent.js
