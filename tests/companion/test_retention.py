"""Retention and limits of a public server (issue 24; companion/services/retention.py, companion/limits.py):
what no one changed for DJANGO_KEEP_DAYS is purged, a used group's results are kept; creates are limited per
client address, the front server's X-Forwarded-For trusted from the proxy only."""

from __future__ import annotations

import copy
import datetime
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client, RequestFactory, override_settings
from django.urls import resolve
from django.utils import timezone

from companion.limits import CREATE_VIEWS, client_address
from companion.models.games import Change, Game
from companion.models.osaka import OsakaEvent, OsakaGame
from companion.models.results import Group, Result
from companion.models.scoresheets import ScoreSheet
from companion.models.setup_progress import SetupProgress
from companion.services.results import record_result, rename_group
from companion.services.retention import purge
from scoring.examples import WORKED_EXAMPLE
from tests.factories import db_snapshot, every_kind

pytestmark = pytest.mark.django_db

LONG_AGO = timezone.now() - datetime.timedelta(days=500)


def _age_everything() -> None:
    """Every row last changed 500 days ago."""
    Game.objects.update(created=LONG_AGO)
    Change.objects.update(at=LONG_AGO)
    OsakaGame.objects.update(created=LONG_AGO)
    OsakaEvent.objects.update(at=LONG_AGO)
    ScoreSheet.objects.update(updated=LONG_AGO, created=LONG_AGO)
    Result.objects.update(updated=LONG_AGO)
    Group.objects.update(created=LONG_AGO)
    SetupProgress.objects.update(updated=LONG_AGO)


def test_what_no_one_changed_for_the_kept_days_is_purged() -> None:
    every_kind()
    _age_everything()
    done = purge(400)
    assert (done.games, done.osaka_games, done.sheets, done.results, done.groups, done.setups) == (
        1,
        1,
        2,
        2,
        1,
        1,
    )
    assert all(not rows for rows in db_snapshot().values())


def test_fresh_things_are_kept() -> None:
    every_kind()
    before = db_snapshot()
    assert str(purge(400)).startswith("0 games, 0 Traders")
    assert db_snapshot() == before


def test_a_used_groups_results_are_kept_with_their_sheets_however_old() -> None:
    made = every_kind()
    _age_everything()
    # this week, a new game's pad was checked and filed under the group: the group is in use
    fresh = every_kind()
    Result.objects.filter(pk=fresh.pad.pk).update(group=made.group)
    purge(400)
    group = Group.objects.get(pk=made.group.pk)
    assert set(group.results.values_list("pk", flat=True)) == {
        made.result.pk,
        made.pad.pk,
        fresh.pad.pk,
    }
    assert ScoreSheet.objects.filter(pk=made.sheet.pk).exists()
    assert not ScoreSheet.objects.filter(pk=made.lone.pk).exists()
    assert not Game.objects.filter(pk=made.game.pk).exists()


def test_a_group_renamed_lately_is_used_and_keeps_its_results() -> None:
    """README, DJANGO_KEEP_DAYS: a rename is a use of the group, as a result filed or edited is."""
    made = every_kind()
    _age_everything()
    rename_group(group=made.group, name="Thursday games")
    purge(400)
    group = Group.objects.get(pk=made.group.pk)
    assert group.name == "Thursday games"
    assert set(group.results.values_list("pk", flat=True)) == {made.result.pk, made.pad.pk}
    Group.objects.update(renamed=LONG_AGO)
    assert purge(400).groups == 1 and not Group.objects.exists()


def test_a_game_changed_lately_is_kept_however_old() -> None:
    made = every_kind()
    _age_everything()
    Change.objects.filter(game=made.game).update(at=timezone.now())
    purge(400)
    assert Game.objects.filter(pk=made.game.pk).exists()
    assert not OsakaGame.objects.exists()


def test_the_command() -> None:
    every_kind()
    _age_everything()
    before = db_snapshot()
    out = io.StringIO()
    call_command("purge", stdout=out)  # a LAN: DJANGO_KEEP_DAYS is 0 by default
    assert "Nothing deleted: DJANGO_KEEP_DAYS is 0" in out.getvalue()
    call_command("purge", "--days", "400", "--dry-run", stdout=out)
    assert "Would delete 1 games" in out.getvalue() and db_snapshot() == before
    with override_settings(KEEP_DAYS=400):
        call_command("purge", stdout=out)
    assert "Deleted 1 games" in out.getvalue() and not Game.objects.exists()
    with pytest.raises(CommandError) as refused:
        call_command("purge", "--days", "0")
    assert refused.value.returncode == 2


# --- the create limit ------------------------------------------------------------------------------------------


def _new_group(client: Client, **headers: str) -> int:
    return client.post("/groups/new", {"name": "Thursday"}, **headers).status_code


@override_settings(CREATES_PER_MINUTE=3)
def test_creates_beyond_the_limit_get_a_429_page_and_create_nothing(client: Client) -> None:
    assert [_new_group(client) for _ in range(3)] == [302, 302, 302]
    refused = client.post("/groups/new", {"name": "Thursday"})
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    page = refused.content.decode()
    assert "Too many at once" in page and "at most 3" in page and "Nothing was created" in page
    assert Group.objects.count() == 3
    # what does not create is not counted: a rename, a page
    assert client.get("/").status_code == 200


@override_settings(CREATES_PER_MINUTE=2)
def test_the_limit_counts_clients_behind_the_proxy_not_the_proxy(client: Client) -> None:
    one, two = {"HTTP_X_FORWARDED_FOR": "198.51.100.1"}, {"HTTP_X_FORWARDED_FOR": "198.51.100.2"}
    assert [_new_group(client, **one) for _ in range(3)] == [302, 302, 429]
    assert [_new_group(client, **two) for _ in range(2)] == [302, 302]
    # a client reaching the app directly cannot pick a fresh address with the header
    direct = {"REMOTE_ADDR": "203.0.113.9"}
    sent = [_new_group(client, **direct, HTTP_X_FORWARDED_FOR=f"10.0.0.{i}") for i in range(3)]
    assert sent == [302, 302, 429]


#: The kinds of thing a request can create (a change, a tick or a log line belongs to one of them).
THINGS = (Game, ScoreSheet, Group, Result, OsakaGame, SetupProgress)
#: Writes that create a thing at most once for a thing made under the limit: a game's end makes its score sheet.
ONCE_PER_THING = frozenset({"game-end"})


def _writes() -> list[str]:
    from tests.companion.test_fuzz import NUMBER_TARGETS

    return sorted(NUMBER_TARGETS)


@pytest.mark.parametrize("name", [*_writes(), "result-group-new"])
def test_every_write_that_creates_a_thing_is_under_the_limit(client: Client, name: str) -> None:
    """Each POST endpoint sent a valid form (tests/companion/test_fuzz.py): one that made a new game, sheet,
    group, result or setup's ticks is counted by the limit. ``/check/walk/`` made a score sheet and filing a result
    under a new group's name made a group, each without limit: a stranger could fill a public server's database."""
    from tests.companion.test_fuzz import NUMBER_TARGETS, Target

    if name == "result-group-new":
        sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
        target = Target(f"/results/{sheet.token}/group", {"group": "Thursday"})
        assert record_result(sheet=sheet) is not None
    else:
        target = NUMBER_TARGETS[name]()
    before = {model: model._default_manager.count() for model in THINGS}
    client.post(target.url, target.form)
    made = [model.__name__ for model in THINGS if model._default_manager.count() > before[model]]
    view = resolve(target.url.split("?")[0]).url_name
    if made and view not in ONCE_PER_THING:
        assert view in CREATE_VIEWS, (view, made)


@override_settings(CREATES_PER_MINUTE=0)
def test_no_limit_on_a_lan(client: Client) -> None:
    assert {_new_group(client) for _ in range(30)} == {302}


@pytest.mark.parametrize(
    ("peer", "forwarded", "address"),
    [
        ("127.0.0.1", "198.51.100.7", "198.51.100.7"),
        ("127.0.0.1", "10.1.1.1, 198.51.100.7", "198.51.100.7"),  # the hop the front server saw
        ("::1", "2001:db8::5", "2001:db8::5"),
        ("127.0.0.1", "", "127.0.0.1"),
        ("203.0.113.9", "198.51.100.7", "203.0.113.9"),  # not from the proxy: the header is ignored
    ],
)
def test_client_address(peer: str, forwarded: str, address: str) -> None:
    request = RequestFactory().get("/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == address
