"""Times and dates in the phone's own time zone (companion/timezones.py): the ``tz`` cookie recent.js keeps."""

from __future__ import annotations

import copy
import datetime

import pytest
from django.test import Client

from companion.models.games import Change
from companion.models.results import Result
from companion.models.scoresheets import ScoreSheet
from companion.timezones import COOKIE, zone_of
from scoring.examples import WORKED_EXAMPLE
from tests.factories import make_game

pytestmark = pytest.mark.django_db

#: A Californian evening: 20:30 on 14 January there is 04:30 on the 15th in UTC.
EVENING = datetime.datetime(2026, 1, 15, 4, 30, 5, tzinfo=datetime.UTC)


@pytest.mark.parametrize("name", ["Europe/Paris", "America/Argentina/Buenos_Aires", "UTC", "Etc/GMT+5"])
def test_a_zones_name_is_its_zone(name: str) -> None:
    zone = zone_of(name)
    assert zone is not None and zone.key == name


@pytest.mark.parametrize(
    "name",
    ["", "Nowhere/City", "../../etc/passwd", "/etc/localtime", "Europe/Paris\x00", "Europe/" + "x" * 80],
)
def test_anything_else_names_none(name: str) -> None:
    assert zone_of(name) is None


def _log(client: Client) -> str:
    game = make_game()
    Change.objects.filter(game=game).update(at=EVENING)
    page = client.get(f"/games/{game.edit_token}/log")
    assert page.status_code == 200
    return page.content.decode()


def test_a_games_times_are_the_phones_local_times() -> None:
    client = Client()
    client.cookies[COOKIE] = "America/Los_Angeles"
    assert "2026-01-14 20:30:05" in _log(client)


@pytest.mark.parametrize("cookie", [None, "Mars/Olympus_Mons", "<script>", "x" * 5000])
def test_without_a_zone_or_with_a_bad_one_times_are_utc(cookie: str | None) -> None:
    client = Client()
    if cookie is not None:
        client.cookies[COOKIE] = cookie
    assert "2026-01-15 04:30:05" in _log(client)


@pytest.mark.parametrize(
    ("zone", "day"), [("America/Los_Angeles", "2026-01-14"), ("Asia/Tokyo", "2026-01-15")]
)
def test_a_result_is_dated_on_the_tables_day(zone: str, day: str) -> None:
    """A sheet started on a Californian evening keeps that evening's date, not the next day's in UTC."""
    sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    ScoreSheet.objects.filter(pk=sheet.pk).update(created=EVENING)
    client = Client()
    client.cookies[COOKIE] = zone
    assert client.get(f"/score/{sheet.token}/result/").status_code == 200  # kept when its page is seen
    assert str(Result.objects.get(sheet=sheet).played) == day
