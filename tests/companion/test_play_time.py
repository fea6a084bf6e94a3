"""Issue 25: a tracked game's length from its log, and the BG Stats push link with every field the companion
knows (the format of BG Stats' "Push plays to BG Stats from other apps or websites")."""

from __future__ import annotations

import copy
import csv
import io
import json
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client

from companion.models.games import Change, Game
from companion.models.results import Group, Result
from companion.models.scoresheets import ScoreSheet
from companion.services.play_time import duration_words, play_time
from companion.services.result_export import BGSTATS_PUSH, BGSTATS_SOURCE, bgstats_url
from companion.services.tracker.changes import apply_change
from scoring.examples import TIED_ON_SHARED_SPACES, WORKED_EXAMPLE
from tests.factories import make_game

pytestmark = pytest.mark.django_db

STARTED = datetime(2026, 11, 20, 19, 5, 30, tzinfo=UTC)
ENDED = datetime(2026, 11, 20, 20, 37, 10, tzinfo=UTC)  # 91 min 40 s later: 92 minutes


def play_to_the_end(game: Game) -> Game:
    """Tap "next" until New Year's Day is over, as the table does; the log's first and last entries are then set
    to known times."""
    while not game.finished:
        game = apply_change(
            game_id=game.pk, op="next", who="test", seen=game.version, was=f"{game.month}{game.phase}"
        )
    Change.objects.filter(game=game, op="create").update(at=STARTED)
    end = game.changes.filter(op="next").order_by("-version").first()
    assert end is not None and end.summary == "New Year's Day over: the game has ended"
    Change.objects.filter(pk=end.pk).update(at=ENDED)
    # the months between: any time before the end (not the end entry)
    game.changes.filter(op="next").exclude(pk=end.pk).update(at=STARTED + timedelta(minutes=30))
    return game


def scored(client: Client, game: Game) -> Result:
    """Score the tracked game ("Score the game") and reach its result page: the result is kept."""
    assert client.post(f"/games/{game.edit_token}/end").status_code == 302
    game.refresh_from_db()
    assert game.scoresheet is not None
    assert client.get(f"/score/{game.scoresheet.token}/result/").status_code == 200
    return Result.objects.get(sheet=game.scoresheet)


def decoded(url: str) -> dict[str, Any]:
    assert url.startswith(BGSTATS_PUSH + "?data=")
    (data,) = parse_qs(urlparse(url).query)["data"]
    decoded_data: dict[str, Any] = json.loads(data)
    return decoded_data


# --- play length ---------------------------------------------------------------------------------------------------


def test_a_tracked_game_knows_when_it_started_and_ended(client: Client) -> None:
    game = play_to_the_end(make_game())
    result = scored(client, game)
    time = play_time(result)
    assert (time.started, time.ended, time.minutes) == (STARTED, ENDED, 92)
    assert time.first_player == game.first_player


def test_an_undone_end_is_not_the_end(client: Client) -> None:
    game = play_to_the_end(make_game())
    game = apply_change(game_id=game.pk, op="undo", who="test", seen=game.version)
    assert not game.finished
    redone_at = ENDED + timedelta(minutes=10)
    game = apply_change(
        game_id=game.pk, op="next", who="test", seen=game.version, was=f"{game.month}{game.phase}"
    )
    last = game.changes.filter(op="next").order_by("-version").first()
    assert last is not None
    Change.objects.filter(pk=last.pk).update(at=redone_at)
    assert play_time(scored(client, game)).minutes == 102


def test_a_game_with_no_end_entry_has_no_length(client: Client) -> None:
    game = make_game(finished=True)  # finished without the table's "next" (no end entry in its log)
    result = scored(client, game)
    time = play_time(result)
    assert time.minutes is None and time.started is None
    assert result.sheet is not None and time.ended == result.sheet.created


def test_the_result_page_shows_the_length(client: Client) -> None:
    game = play_to_the_end(make_game())
    result = scored(client, game)
    assert result.sheet is not None
    for url in (f"/score/{result.sheet.token}/result/", result.sheet.view_url()):
        page = client.get(url).content.decode()
        assert "Game length: <strong>1 h 32 min</strong>" in page


def test_a_sheet_scored_without_the_tracker_shows_no_length(client: Client) -> None:
    sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    page = client.get(f"/score/{sheet.token}/result/").content.decode()
    assert "Game length" not in page and "Send to BG Stats" in page


@pytest.mark.parametrize(
    ("minutes", "words"), [(None, ""), (0, "0 min"), (40, "40 min"), (60, "1 h"), (85, "1 h 25 min")]
)
def test_duration_words(minutes: int | None, words: str) -> None:
    assert duration_words(minutes) == words


def test_the_csv_and_json_carry_the_length(client: Client) -> None:
    game = play_to_the_end(make_game())
    result = scored(client, game)
    group = Group.objects.create(name="Thursday")
    Result.objects.filter(pk=result.pk).update(group=group)
    other = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    client.get(f"/score/{other.token}/result/")
    Result.objects.filter(sheet=other).update(group=group)

    rows = list(
        csv.DictReader(io.StringIO(client.get(f"/groups/{group.token}/results.csv").content.decode()))
    )
    tracked = [r for r in rows if r["result"] == result.view_url()]
    assert {(r["ended"], r["duration_min"]) for r in tracked} == {("2026-11-20T20:37:10Z", "92")}
    untracked = [r for r in rows if r["result"] != result.view_url()]
    assert untracked and {r["duration_min"] for r in untracked} == {""}

    results = client.get(f"/groups/{group.token}/results.json").json()["results"]
    by_url = {r["view_url"]: r for r in results}
    assert (by_url[result.view_url()]["ended"], by_url[result.view_url()]["duration_min"]) == (
        "2026-11-20T20:37:10Z",
        92,
    )
    assert by_url[other.view_url()]["duration_min"] is None
    api = client.get(f"/api/v1/results/{result.public_token}").json()
    assert api["duration_min"] == 92 and api["ended"] == "2026-11-20T20:37:10Z"


# --- BG Stats --------------------------------------------------------------------------------------------------


def test_the_bgstats_link_of_a_tracked_game_decodes_to_every_field(client: Client) -> None:
    game = play_to_the_end(make_game(("Anaïs", "Ben", "Chie")))
    result = scored(client, game)
    group = Group.objects.create(name="Thursday")
    Result.objects.filter(pk=result.pk).update(group=group)
    result.refresh_from_db()
    data = decoded(bgstats_url(result))
    assert set(data) == {
        "sourceName", "sourcePlayId", "playDate", "durationMin", "board", "comments", "game", "players",
    }  # fmt: skip
    assert data["sourceName"] == BGSTATS_SOURCE
    assert data["playDate"] == "2026-11-20 20:37:10"  # the time the game ended (UTC), not 00:00
    assert data["durationMin"] == 92
    assert data["board"] == "3-4 player side"
    assert data["comments"] == "Scored with the IKI companion, setup code K7MX2QPA."
    assert data["game"] == {"name": "IKI", "highestWins": True, "noPoints": False, "sourceGameId": "iki"}
    seats = [s.name for s in game.seats.order_by("seat")]
    assert [p["name"] for p in data["players"]] == seats
    starts = [p["name"] for p in data["players"] if p["startPlayer"]]
    assert starts == [seats[game.first_player - 1]]
    by_name = {p["name"]: p for p in result.players}
    for p in data["players"]:
        assert set(p) == {"name", "score", "rank", "winner", "startPlayer", "role", "sourcePlayerId"}
        kept = by_name[p["name"]]
        assert (p["score"], p["rank"], p["role"]) == (kept["total"], kept["rank"], kept["colour"])
        assert p["winner"] is (kept["rank"] == 1)
    assert len({p["sourcePlayerId"] for p in data["players"]}) == 3
    # no token of the result or the group travels to BG Stats
    for secret in (result.public_token, result.edit_token, group.token, group.view_token):
        assert secret not in json.dumps(data)


def test_ranks_and_winners_have_the_tie_break_applied(client: Client) -> None:
    # Ben on top of space 5, as the firefighting step keeps it (0 = top); space 0's stack is not given.
    sheet = ScoreSheet.objects.create(
        table=copy.deepcopy(TIED_ON_SHARED_SPACES),
        colours=["red", "blue", "green", "yellow"],
        stack={"Ben": 0, "Aiko": 1},
    )
    assert client.get(f"/score/{sheet.token}/result/").status_code == 200
    data = decoded(bgstats_url(Result.objects.get()))
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in data["players"]] == [
        ("Aiko", 178, 2, False), ("Ben", 178, 1, True), ("Chie", 90, 3, False), ("Dai", 90, 3, False),
    ]  # fmt: skip
    assert data["board"] == "3-4 player side" and "durationMin" not in data
    assert not any(p["startPlayer"] for p in data["players"])  # no tracked game: no first player known
    assert data["playDate"] == sheet.created.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def test_the_play_id_is_stable_and_one_per_result(client: Client) -> None:
    first = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    second = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    for sheet in (first, second):
        client.get(f"/score/{sheet.token}/result/")
    one, two = Result.objects.order_by("pk")
    tapped_twice = {decoded(bgstats_url(one))["sourcePlayId"] for _ in range(2)}
    assert len(tapped_twice) == 1
    # rewritten after an edit: still the same play
    ScoreSheet.objects.filter(pk=first.pk).update(version=first.version + 1)
    client.get(f"/score/{first.token}/result/")
    assert decoded(bgstats_url(Result.objects.get(pk=one.pk)))["sourcePlayId"] in tapped_twice
    assert decoded(bgstats_url(two))["sourcePlayId"] not in tapped_twice


def test_a_player_id_is_stable_per_name_in_a_group(client: Client) -> None:
    sheets = [
        ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"]) for _ in "ab"
    ]
    for sheet in sheets:
        client.get(f"/score/{sheet.token}/result/")
    ours, theirs = Group.objects.create(name="Ours"), Group.objects.create(name="Theirs")
    a, b = Result.objects.order_by("pk")

    def ids(result: Result) -> dict[str, str]:
        result.refresh_from_db()
        return {p["name"]: p["sourcePlayerId"] for p in decoded(bgstats_url(result))["players"]}

    assert ids(a) == ids(b)  # no group: by name
    Result.objects.filter(pk__in=[a.pk, b.pk]).update(group=ours)
    in_ours = ids(a)
    assert in_ours == ids(b) and in_ours["Anaïs"] != in_ours["David"]
    Result.objects.filter(pk=b.pk).update(group=theirs)
    assert ids(b)["Anaïs"] != in_ours["Anaïs"]  # another group's Anaïs is another player
    # a rename in the group moves the player's id with the name
    client.post(f"/groups/{ours.token}/rename", {"old": "David", "new": "Dave"})
    assert ids(a)["Dave"] != in_ours["David"]


def test_a_two_player_game_is_on_the_two_player_side(client: Client) -> None:
    sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    page = client.get(f"/score/{sheet.token}/result/").content.decode()
    data = decoded(bgstats_url(Result.objects.get()))
    assert data["board"] == "2-player side"
    assert 'id="bgstats-link"' in page
    href = page.split('id="bgstats-link"')[0].rsplit('href="', 1)[1].split('"', 1)[0]
    assert decoded(href.replace("&amp;", "&")) == data


def test_the_group_page_shows_each_games_length(client: Client) -> None:
    scored(client, play_to_the_end(make_game()))
    other = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    client.get(f"/score/{other.token}/result/")
    group = Group.objects.create(name="Thursday")
    Result.objects.update(group=group)
    for url in (group.get_absolute_url(), group.view_url()):
        page = client.get(url).content.decode()
        assert page.count('class="rs-length"') == 1 and '<span class="rs-length">1 h 32 min</span>' in page
