"""Backups (issue 24): a whole server's backup restored into an empty database is the same server; a group's file
restored makes a new group with the same results; a file of another kind or a changed one is refused whole."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from companion.errors import UserError
from companion.forms import once_key
from companion.models.results import Group, Result
from companion.services.backup import _checksum, group_file, restore_group, restore_server, server_backup
from companion.services.result_export import bgstats_data, result_json
from companion.services.results import file_result, keep_checked_pad, results_of
from tests.companion.test_settings import run
from tests.concurrency import at_once
from tests.factories import db_snapshot, every_kind, once_of

pytestmark = pytest.mark.django_db


def _delete_everything() -> None:
    from companion.models.games import Game
    from companion.models.osaka import OsakaGame
    from companion.models.scoresheets import ScoreSheet
    from companion.models.setup_progress import SetupProgress

    for model in (Result, Group, Game, OsakaGame, ScoreSheet, SetupProgress):
        model.objects.all().delete()
    assert all(not rows for rows in db_snapshot().values())


def test_a_server_restored_from_its_backup_is_the_same_server() -> None:
    every_kind()
    before = db_snapshot()
    backup = json.loads(json.dumps(server_backup()))  # through JSON text, as the file holds it
    _delete_everything()
    assert restore_server(backup) == sum(len(rows) for rows in before.values())
    assert db_snapshot() == before
    # new rows after a restore get new ids (the sequences moved past the restored ones)
    assert every_kind().game.pk > max(int(row[0]) for row in before["Game"])


def test_the_commands_restore_into_a_fresh_database(tmp_path: Path) -> None:
    """backup on this server, then migrate, restore and backup again in a fresh database of another process."""
    every_kind()
    file = tmp_path / "backup.json"
    call_command("backup", str(file), stderr=io.StringIO())
    assert oct(file.stat().st_mode & 0o777) == "0o600"
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    for args in (("migrate", "-v", "0"), ("restore", str(file))):
        done = run(fresh, "manage.py", *args)
        assert done.returncode == 0, done.stderr
    again = run(fresh, "manage.py", "backup", "-")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["objects"] == json.loads(file.read_text())["objects"]
    refused = run(fresh, "manage.py", "restore", str(file))  # not empty any more
    assert refused.returncode == 1 and "restore a server into an empty one" in refused.stderr


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda b: b["objects"][0]["fields"].update(name="Mallory"), "was changed after it was made"),
        (lambda b: b.update(kind="iki-companion-group"), "a group's file, not a whole server's backup"),
        (lambda b: b.update(version=9), "another version"),
        (lambda b: b.pop("kind"), "not a whole server's backup"),
    ],
)
def test_a_changed_or_other_backup_is_refused_and_nothing_restored(
    tmp_path: Path, change: Any, words: str
) -> None:
    every_kind()
    backup = server_backup()
    change(backup)
    _delete_everything()
    file = tmp_path / "backup.json"
    file.write_text(json.dumps(backup))
    with pytest.raises(CommandError, match=words) as refused:
        call_command("restore", str(file), stderr=io.StringIO())
    assert refused.value.returncode == 2
    assert all(not rows for rows in db_snapshot().values())


def test_a_broken_backup_with_a_right_checksum_restores_nothing() -> None:
    every_kind()
    backup = server_backup()
    del backup["checksum"]
    backup["objects"][-1]["model"] = "companion.nosuchmodel"
    backup["checksum"] = _checksum(backup)
    _delete_everything()
    with pytest.raises(UserError, match="nothing was restored"):
        restore_server(backup)
    assert all(not rows for rows in db_snapshot().values())


# --- a group's file ------------------------------------------------------------------------------------------------


def _without_links(group: Group) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in result_json(r).items() if k not in ("view_url", "group")} for r in results_of(group)
    ]


def _restore(client: Client, data: Any, name: str = "iki-group.json", **fields: str) -> Any:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    upload = SimpleUploadedFile(name, raw, "application/json")
    return client.post("/groups/restore", {"file": upload, **fields})


def test_restore_tapped_twice_makes_one_group(client: Client) -> None:
    """A double tap on "Restore as a new group" sends the form, its file and its one-time code twice: the second
    finds the group the first made. The same page sent again with another file (back, then a new choice) makes
    that one."""
    made = every_kind()
    once = once_of(client.get(made.group.get_absolute_url()).content.decode())
    data = json.loads(client.get(f"/groups/{made.group.token}/everything.json").content)
    first, second = (_restore(client, data, once=once) for _ in range(2))
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert Group.objects.filter(name="Thursday").count() == 2  # the group and one copy
    data["group"]["name"] = "Friday"
    assert _restore(client, _resealed(data), once=once).status_code == 302
    assert Group.objects.filter(name="Friday").count() == 1


def test_download_everything_then_restore_makes_a_new_group_with_the_same_results(client: Client) -> None:
    made = every_kind()
    Group.objects.filter(pk=made.group.pk).update(aliases={"Anais": "Anaïs"})
    page = client.get(made.group.get_absolute_url()).content.decode()
    assert "Download everything" in page and "Restore a group from its file" in page
    view_only = client.get(made.group.view_url()).content.decode()
    assert "Download everything" in view_only and "Restore a group" not in view_only
    download = client.get(f"/groups/{made.group.view_token}/everything.json")
    assert download.status_code == 200 and "attachment" in download["Content-Disposition"]
    text = download.content.decode()
    for secret in (
        made.group.token,
        made.group.view_token,
        made.sheet.token,
        made.pad.token,
        made.pad.view_token,
    ):
        assert secret not in text
    response = _restore(client, json.loads(text))
    assert response.status_code == 302
    copy_ = Group.objects.exclude(pk=made.group.pk).get()
    assert response["Location"] == copy_.get_absolute_url() + "?restored=1"
    assert (copy_.name, copy_.aliases) == ("Thursday", {"Anais": "Anaïs"})
    assert _without_links(copy_) == _without_links(made.group)
    assert copy_.token != made.group.token
    # the new group's page says what it is, its rename open: the original may be here too, under the same name
    restored = client.get(response["Location"]).content.decode()
    assert 'id="restored"' in restored and "rename this one to tell them apart" in restored
    assert '<details class="rs-name" open>' in restored
    for other in (copy_.get_absolute_url(), copy_.view_url() + "?restored=1"):  # no news on a later visit
        assert 'id="restored"' not in client.get(other).content.decode()


@pytest.mark.django_db(transaction=True)
def test_one_forms_file_sent_six_times_at_once_makes_one_group() -> None:
    """Taps at the same moment (a phone that sends again as another tap lands) meet at the group's unique
    ``made_by``: each answer is the one group the first made."""
    made = every_kind()
    data = group_file(made.group)
    once = once_key("k" * 24, json.dumps(data))
    answers = at_once(lambda i: restore_group(copy.deepcopy(data), once=once).pk)
    assert [a for a in answers if isinstance(a, BaseException)] == []
    assert len(set(answers)) == 1 and Group.objects.count() == 2


def _bgstats_ids(group: Group) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each game's BG Stats play id, with its players' names and ids, as "Send to BG Stats" sends them."""
    sent = [bgstats_data(r) for r in results_of(group)]
    return [(d["sourcePlayId"], [(p["name"], p["sourcePlayerId"]) for p in d["players"]]) for d in sent]


def test_a_restored_group_sends_its_games_to_bg_stats_with_the_ids_they_had(client: Client) -> None:
    """Sent again from the restored copy (on this server or another), a game is the play BG Stats has, not a
    second one, and its players are the players BG Stats knows; a game filed there later keeps them too."""
    made = every_kind()
    file = client.get(f"/groups/{made.group.token}/everything.json").content
    assert _restore(client, json.loads(file)).status_code == 302
    copy_ = Group.objects.exclude(pk=made.group.pk).get()
    assert _bgstats_ids(copy_) == _bgstats_ids(made.group)
    again = client.get(f"/groups/{copy_.token}/everything.json").content  # a copy of the copy keeps them too
    assert _restore(client, json.loads(again)).status_code == 302
    third = Group.objects.exclude(pk__in=[made.group.pk, copy_.pk]).get()
    assert _bgstats_ids(third) == _bgstats_ids(made.group)
    later = keep_checked_pad(
        edition="iki-2015", players=copy.deepcopy(made.pad.players), query="edition=2015"
    )
    file_result(result=later, group=copy_)
    ids = dict(_bgstats_ids(made.group)[0][1])
    assert [(p["name"], p["sourcePlayerId"]) for p in bgstats_data(later)["players"]] == [
        (name, ids[name]) for name in ("Anaïs", "David")
    ]
    assert bgstats_data(later)["sourcePlayId"] not in {play for play, _ in _bgstats_ids(made.group)}


def test_a_file_without_bg_stats_ids_restores_with_new_ones(client: Client) -> None:
    """A group's file made before the ids travelled: its games get ids of their own, as any new result."""
    made = every_kind()
    data = json.loads(client.get(f"/groups/{made.group.token}/everything.json").content)
    del data["group"]["bgstats_players"]
    for result in data["results"]:
        del result["bgstats"]
    assert _restore(client, _resealed(data)).status_code == 302
    copy_ = Group.objects.exclude(pk=made.group.pk).get()
    plays = {play for play, _ in _bgstats_ids(copy_)}
    assert len(plays) == 2 and not plays & {play for play, _ in _bgstats_ids(made.group)}


def test_a_restored_game_is_removed_from_its_own_page_reached_from_the_group(client: Client) -> None:
    """A restored game has no sheet or pad of its own: the group's edit link leads to its page, where it can be
    removed (and restored) as any kept result; the view-only link leads to its view-only page only."""
    made = every_kind()
    data = json.loads(client.get(f"/groups/{made.group.token}/everything.json").content)
    assert _restore(client, data).status_code == 302
    copy_ = Group.objects.exclude(pk=made.group.pk).get()
    restored = results_of(copy_)[0]
    page = client.get(copy_.get_absolute_url()).content.decode()
    assert f'href="/results/{restored.token}/"' in page
    assert restored.token not in client.get(copy_.view_url()).content.decode()
    asked = client.post(f"/groups/{copy_.token}/take-out", {"result": restored.view_token, "ask": "1"})
    assert f'href="/results/{restored.token}/">its own page</a>' in asked.content.decode()  # taking out asks
    own = client.get(f"/results/{restored.token}/").content.decode()
    assert "Remove from the results" in own
    assert "restored from a group's file · Thursday" in own
    assert "Edit the numbers" not in own  # no pad to reopen
    assert client.post(f"/results/{restored.token}/remove").status_code == 302
    assert restored.pk not in [r.pk for r in results_of(copy_)]
    removed = client.get(f"/results/{restored.token}/").content.decode()
    assert 'id="restore-result"' in removed
    assert f'href="{copy_.get_absolute_url()}" id="open-group"' in removed  # and the way back to the group
    # the originals' pages are theirs: the group's page sends a sheet's and a pad's result to their view pages
    original = client.get(made.group.get_absolute_url()).content.decode()
    assert made.pad.token not in original and made.sheet.token not in original


def test_a_refused_file_is_said_beside_the_restore_form_to_choose_again(client: Client) -> None:
    """A bad file sent from a group's page brings back that page (a 400), its restore form with why, at the
    form: the player chooses another file there. From a view-only link (which has no such form) or none, the
    plain error page says it."""
    made = every_kind()
    before = db_snapshot()
    refused = _restore(client, b"not json", back=made.group.token)
    assert refused.status_code == 400 and db_snapshot() == before
    page = refused.content.decode()
    assert "<h1>Thursday</h1>" in page and 'id="restore-refused"' in page
    assert (
        "This file is not JSON" in page and "Nothing was restored. Choose another file to try again." in page
    )
    assert 'action="/groups/restore"' in page and 'autofocus aria-describedby="restore-refused"' in page
    assert "Back to the start" not in page
    for back in (made.group.view_token, "x" * 30):
        plain = _restore(client, b"not json", back=back)
        assert plain.status_code == 400 and 'id="restore-refused"' not in plain.content.decode()
        assert "This file is not JSON" in plain.content.decode()


def test_a_phone_with_no_group_restores_from_the_home_page(client: Client) -> None:
    """A new phone, or another server, has no group's page to restore from: the home page leads to the form on a
    page of its own, where a refused file is said beside it too."""
    made = every_kind()
    data = json.loads(client.get(f"/groups/{made.group.token}/everything.json").content)
    assert 'href="/groups/restore"' in client.get("/").content.decode()
    page = client.get("/groups/restore").content.decode()
    assert "<h1>Restore a group</h1>" in page and 'name="file"' in page and 'name="back"' not in page
    refused = _restore(client, b"not json")
    assert refused.status_code == 400 and "<h1>Restore a group</h1>" in refused.content.decode()
    assert (
        'id="restore-refused"' in refused.content.decode()
        and "Choose another file" in refused.content.decode()
    )
    once = once_of(page)
    assert _restore(client, data, once=once)["Location"] == _restore(client, data, once=once)["Location"]
    assert Group.objects.filter(name="Thursday").count() == 2


def _resealed(body: dict[str, Any]) -> dict[str, Any]:
    body = {k: v for k, v in body.items() if k != "checksum"}
    return {**body, "checksum": _checksum(body)}


def _bad_name(f: dict[str, Any]) -> None:
    f["results"][1]["players"][0]["name"] = "\u200bAnn"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda f: f["results"][0]["players"][0].update(total=999), "was changed after it was downloaded"),
        (lambda f: f.update(kind="iki-companion-backup"), "a whole server's backup, not a group's file"),
        (lambda f: f.pop("checksum"), "was changed after it was downloaded"),
    ],
)
def test_a_changed_or_other_file_is_refused_and_nothing_restored(
    client: Client, change: Any, words: str
) -> None:
    made = every_kind()
    data = json.loads(client.get(f"/groups/{made.group.token}/everything.json").content)
    change(data)
    before = db_snapshot()
    response = _restore(client, data)
    assert response.status_code == 400
    assert words.replace("downloaded", "made") in response.content.decode().replace("&#x27;", "'")
    assert db_snapshot() == before


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (_bad_name, "Result 2, player 1: the name: the name starts with a character that cannot be seen"),
        (lambda f: f["results"][1]["players"][1].update(total=10**4299), "is not a whole number"),
        (lambda f: f["results"][1].update(edition="chess"), "is not a game the companion keeps"),
        (lambda f: f["results"][1].update(edition=["base"]), "is not a game the companion keeps"),
        (lambda f: f["results"][1]["players"][0].update(buildings=["castle"]), "is not a known building"),
        (lambda f: f["results"][1].update(players=[]), "a result has 2 to 4 players"),
        (lambda f: f["results"][1]["players"][0].update(name="DAVID"), "two players have one name"),
        (lambda f: f["group"].update(name="A\x00B"), "control character"),
        (
            lambda f: f["results"][1].update(bgstats="result-1"),
            "Result 2: the BG Stats id is not one the companion",
        ),
        (
            lambda f: f["group"]["bgstats_players"].update(David=7),
            "A player's BG Stats id is not one the companion",
        ),
        (lambda f: f["group"].update(bgstats_players=[]), "The players' BG Stats ids cannot be read"),
    ],
)
def test_a_resealed_file_with_a_bad_field_restores_nothing(client: Client, change: Any, words: str) -> None:
    """A file changed and given a right checksum again is read as strictly as a form: all or nothing."""
    made = every_kind()
    data = copy.deepcopy(json.loads(client.get(f"/groups/{made.group.token}/everything.json").content))
    change(data)
    before = db_snapshot()
    response = _restore(client, _resealed(data))
    assert response.status_code == 400, response.content
    assert words in response.content.decode().replace("&#x27;", "'")
    assert "Nothing was restored" in response.content.decode()
    assert db_snapshot() == before


#: A group's file whose name is half of a character (JSON's escape of a lone surrogate): Python's reader takes it,
#: and the checksum, written as UTF-8, could not be.
HALF_A_CHARACTER = (
    b'{"kind": "iki-companion-group", "version": 1, "group": {"name": "\\ud800"}, "results": []}'
)


@pytest.mark.parametrize(
    "raw", [b"", b"not json", b"[]", b"\xff\xfe", json.dumps({"results": []}).encode(), HALF_A_CHARACTER]
)
def test_files_that_are_not_a_groups_file_are_refused(client: Client, raw: bytes) -> None:
    before = db_snapshot()
    response = _restore(client, raw)
    assert response.status_code == 400
    assert db_snapshot() == before


def test_the_groups_results_json_is_not_a_groups_file(client: Client) -> None:
    made = every_kind()
    other = json.loads(client.get(f"/groups/{made.group.token}/results.json").content)
    response = _restore(client, other)
    assert response.status_code == 400 and "not a group" in response.content.decode()


def test_the_command_refuses_a_missing_file() -> None:
    with pytest.raises(CommandError, match="cannot read") as refused:
        call_command("restore", "/nonexistent/backup.json")
    assert refused.value.returncode == 2


def test_a_restored_result_keeps_when_its_game_ended_and_how_long_it_lasted() -> None:
    """The group file carries each result's times: a restore made later keeps them, and a file without them (the
    first version) still restores, timed by its restore."""
    from datetime import UTC, datetime

    from companion.services.backup import group_file, restore_group
    from companion.services.play_time import play_time

    made = every_kind()
    kept = [r for r in results_of(made.group) if r.sheet is None]
    assert kept, "every_kind files a checked pad's result"
    Result.objects.filter(pk=kept[0].pk).update(
        ended=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC), started=datetime(2025, 1, 2, 1, 54, 5, tzinfo=UTC)
    )
    original = [play_time(r) for r in results_of(made.group)]
    copy_ = restore_group(group_file(made.group))
    restored = [play_time(r) for r in results_of(copy_)]
    assert [(t.ended, t.minutes) for t in restored] == [(t.ended, t.minutes) for t in original]
    assert 70 in [t.minutes for t in restored]
    older = group_file(made.group)
    for row in older["results"]:
        del row["ended"], row["started"]
    assert len(results_of(restore_group(_resealed(older)))) == len(original)
