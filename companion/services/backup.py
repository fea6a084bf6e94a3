"""Backups a person can run and restore (issue 24; README, "Serving the public"; docs/api.md "Backups").

Two files, each JSON with a ``kind``, a ``version`` and a ``checksum`` (SHA-256 of the rest, written canonically:
sorted keys, no spaces) so that a file of another kind, a damaged one or one changed by hand is refused whole:

- **A server's backup** (``manage.py backup FILE``, ``manage.py restore FILE``): every row of the app (games,
  sheets, results, groups, Traders of Osaka games, setups' ticks) with its links, in Django's serialized form.
  It restores into an empty database only, all or nothing. It holds every edit link: keep it private.
- **A group's file** ("Download everything" on a group's page): the group's name, renames and results, without
  any link. "Restore a group from its file" makes a new group, with new links, holding the same results (as
  kept results of their own, not score sheets); every field is read as strictly as a form's, all or nothing.
  The BG Stats ids travel with it (each game's ``sourcePlayId``, each player's ``sourcePlayerId``) and are kept:
  a game sent to BG Stats from the copy is the play BG Stats already has, not a second one. They are kept even
  where the group the file came from is still on this server: both groups then hold the same evenings, and one
  play in BG Stats for one evening is right; nothing on the server is keyed by these ids, so they clash with
  nothing there (a second group from one form's double tap is :func:`made_once`'s to prevent).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
from typing import Any, Final

from django.apps import apps
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, connection, transaction
from django.db.models import Model

from companion.errors import UserError
from companion.forms import clean_text
from companion.models.results import EDITION_LABELS, GROUP_NAME_MAX, Group, Result
from companion.models.scoresheets import NAME_MAX
from companion.services.play_time import PlayTime, play_times
from companion.services.result_export import (
    BGSTATS_PLAY_ID,
    BGSTATS_PLAYER_ID,
    LINE_ORDER,
    bgstats_play_id,
    bgstats_player_id,
)
from companion.services.results import made_once, results_of
from scoring import catalogue as cat
from scoring import reading
from scoring.errors import MalformedJSONError
from scoring.names import name_key, name_problem
from scoring.reading import MAX_NUMBER

SERVER_KIND: Final = "iki-companion-backup"
GROUP_KIND: Final = "iki-companion-group"
VERSION: Final = 1
MAX_RESULTS: Final = 5_000
"""The most results a group's file may hold (a group playing weekly for 50 years fits)."""


def _checksum(body: dict[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _sealed(body: dict[str, Any]) -> dict[str, Any]:
    return {**body, "checksum": _checksum(body)}


def _opened(data: object, kind: str, what: str) -> dict[str, Any]:
    """The body of a sealed file of ``kind``, or :class:`UserError` saying what is wrong with it."""
    if not isinstance(data, dict) or "kind" not in data:
        raise UserError(f"This is not {what} made by the IKI companion.")
    if data["kind"] != kind:
        other = {SERVER_KIND: "a whole server's backup", GROUP_KIND: "a group's file"}.get(str(data["kind"]))
        raise UserError(f"This is {other or 'another kind of file'}, not {what}.")
    if data.get("version") != VERSION:
        raise UserError(
            f"This file is of another version of the companion; this one reads version {VERSION}."
        )
    body = {k: v for k, v in data.items() if k != "checksum"}
    if data.get("checksum") != _checksum(body):
        raise UserError(f"This file was changed after it was made: use {what} exactly as it was downloaded.")
    return body


def read_json(raw: bytes | str) -> object:
    try:
        return reading.read_json(raw, "the file")
    except MalformedJSONError:
        raise UserError("This file is not JSON: choose the file the companion downloaded.") from None


# --- a whole server -------------------------------------------------------------------------------------------


def _models() -> list[type[Model]]:
    """Every model of the app, each after those it refers to (so that a restore can create them in order)."""
    return serializers.sort_dependencies([(apps.get_app_config("companion"), None)])


def server_backup() -> dict[str, Any]:
    """Every row of the app, sealed (see the module)."""
    objects: list[dict[str, Any]] = []
    for model in _models():
        objects.extend(serializers.serialize("python", model._default_manager.order_by("pk")))
    for row in objects:
        for key, value in row["fields"].items():  # dates and times as text, as JSON holds them
            if isinstance(value, datetime.date | datetime.datetime):
                row["fields"][key] = value.isoformat()
    return _sealed({"kind": SERVER_KIND, "version": VERSION, "objects": objects})


def rows_present() -> int:
    return sum(model._default_manager.count() for model in _models())


def restore_server(data: object) -> int:
    """Restore a server's backup into an empty database: the number of rows. All or nothing."""
    body = _opened(data, SERVER_KIND, "a whole server's backup")
    if rows_present():
        raise UserError("This database already holds games or results: restore a server into an empty one.")
    models = _models()
    try:
        with transaction.atomic():
            count = 0
            for obj in serializers.deserialize("python", body["objects"]):
                obj.save()
                count += 1
            with connection.cursor() as cursor:
                for sql in connection.ops.sequence_reset_sql(no_style(), models):
                    cursor.execute(sql)
    except (DeserializationError, DatabaseError, KeyError, TypeError, ValueError) as exc:
        raise UserError(
            f"This backup could not be restored ({type(exc).__name__}); nothing was restored."
        ) from None
    return count


# --- a group ---------------------------------------------------------------------------------------------------


def _result_json(result: Result, time: PlayTime) -> dict[str, Any]:
    return {
        "bgstats": bgstats_play_id(result),
        "edition": result.edition,
        "played": result.played.isoformat(),
        "seed": result.seed,
        "players": result.players,
        "ended": time.ended.isoformat(),
        "started": time.started.isoformat() if time.started else None,
    }


#: A kept result's keys in a group's file; the times and the BG Stats id are optional (a file written before they
#: were kept).
RESULT_KEYS: Final = frozenset({"edition", "played", "seed", "players"})
RESULT_OPTIONAL: Final = frozenset({"ended", "started", "bgstats"})


def _moment(value: object, where: str) -> datetime.datetime | None:
    """A time of the file (ISO 8601 with its offset), or None."""
    if value is None:
        return None
    try:
        moment = datetime.datetime.fromisoformat(str(value)[:40])
    except ValueError:
        raise UserError(f"{where} is not a time.") from None
    if moment.tzinfo is None:
        raise UserError(f"{where} has no time zone.")
    return moment


def group_file(group: Group) -> dict[str, Any]:
    """A group's name, renames and results, sealed, without a link (see the module)."""
    results = list(results_of(group))
    times = play_times(results)
    players = {p["name"]: bgstats_player_id(r, p["name"]) for r in results for p in r.players}
    return _sealed(
        {
            "kind": GROUP_KIND,
            "version": VERSION,
            "group": {"name": group.name, "aliases": group.aliases, "bgstats_players": players},
            "results": [_result_json(r, times[r.pk]) for r in results],
        }
    )


def _text(value: object, where: str, most: int, *, name: bool = False) -> str:
    if not isinstance(value, str):
        raise UserError(f"{where} is not text.")
    try:
        text = clean_text(value)
    except ValidationError as exc:  # a control character or a direction override
        raise UserError(f"{where}: {' '.join(exc.messages)}.") from None
    if len(text) > most:
        raise UserError(f"{where} is longer than {most} characters.")
    problem = name_problem(text) if name else None
    if problem:
        raise UserError(f"{where}: {problem}.")
    return text


def _number(value: object, where: str, low: int = -MAX_NUMBER) -> int:
    if type(value) is not int or not low <= value <= MAX_NUMBER:
        raise UserError(f"{where} is not a whole number from {low} to {MAX_NUMBER}.")
    return value


def _ids(value: object, where: str, kind: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(i, str) for i in value):
        raise UserError(f"{where} is not a list of ids.")
    unknown = [i for i in value if i not in cat.IDS_BY_KIND[kind]]
    if unknown:
        raise UserError(f"{where}: {unknown[0][:40]!r} is not a known {kind}.")
    return list(value)


def _bgstats_id(value: object, where: str, shape: re.Pattern[str]) -> str:
    """A BG Stats id of the file ("" when it has none): kept, so that a game sent again is not sent twice."""
    if value == "":
        return ""
    if not isinstance(value, str) or not shape.fullmatch(value):
        raise UserError(f"{where} is not one the companion makes.")
    return value


def _player(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict) or set(value) != {"name", "colour", "lines", "total", "rank", "buildings",
                                                     "personalities"}:  # fmt: skip
        raise UserError(f"{where} is not a player of a kept result.")
    lines = value["lines"]
    if not isinstance(lines, dict) or not set(lines) <= set(LINE_ORDER):
        raise UserError(f"{where}: the lines are not the score pad's.")
    return {
        "name": _text(value["name"], f"{where}: the name", NAME_MAX, name=True),
        "colour": _text(value["colour"], f"{where}: the colour", 16),
        "lines": {key: _number(points, f"{where}: the line {key}") for key, points in lines.items()},
        "total": _number(value["total"], f"{where}: the total"),
        "rank": _number(value["rank"], f"{where}: the rank", low=1),
        "buildings": _ids(value["buildings"], f"{where}: the buildings", "building"),
        "personalities": _ids(value["personalities"], f"{where}: the personalities", "personality"),
    }


def _result(value: object, where: str) -> Result:
    if not isinstance(value, dict) or not RESULT_KEYS <= set(value) <= RESULT_KEYS | RESULT_OPTIONAL:
        raise UserError(f"{where} is not a kept result.")
    if not isinstance(value["edition"], str) or value["edition"] not in EDITION_LABELS:
        raise UserError(f"{where}: {str(value['edition'])[:40]!r} is not a game the companion keeps.")
    try:
        played = datetime.date.fromisoformat(str(value["played"]))
    except ValueError:
        raise UserError(f"{where}: the date is not a date.") from None
    players = value["players"]
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise UserError(f"{where}: a result has 2 to 4 players.")
    read = [_player(p, f"{where}, player {i + 1}") for i, p in enumerate(players)]
    if len({name_key(p["name"]) for p in read}) != len(read):
        raise UserError(f"{where}: two players have one name.")
    seed = _text(value["seed"], f"{where}: the setup code", 64)
    bgstats = _bgstats_id(value.get("bgstats", ""), f"{where}: the BG Stats id", BGSTATS_PLAY_ID)
    ended = _moment(value.get("ended"), f"{where}: the end")
    started = _moment(value.get("started"), f"{where}: the start") if ended else None
    return Result(
        edition=value["edition"],
        played=played,
        seed=seed,
        players=read,
        sheet_version=1,
        started=started,
        ended=ended,
        bgstats_id=bgstats,
    )


def restore_group(data: object, *, once: str = "") -> Group:
    """A new group, with new links, holding the results of a group's file. All or nothing. ``once``: the form's
    (:func:`companion.services.results.made_once`): sent twice, the file makes one group."""
    body = _opened(data, GROUP_KIND, "a group's file")
    group, results = body.get("group"), body.get("results")
    if not isinstance(group, dict) or not isinstance(results, list) or len(results) > MAX_RESULTS:
        raise UserError("This group's file holds no group, or too many results to be one.")
    name = _text(group.get("name"), "The group's name", GROUP_NAME_MAX)
    aliases = group.get("aliases", {})
    if not isinstance(aliases, dict) or len(aliases) > 1000:
        raise UserError("The group's renames cannot be read.")
    renames = {
        _text(old, "A renamed player", NAME_MAX): _text(new, "A renamed player", NAME_MAX, name=True)
        for old, new in aliases.items()
    }
    ids = group.get("bgstats_players", {})
    if not isinstance(ids, dict) or len(ids) > 1000:
        raise UserError("The players' BG Stats ids cannot be read.")
    players = {
        _text(player, "A player of BG Stats", NAME_MAX): _bgstats_id(
            id_, "A player's BG Stats id", BGSTATS_PLAYER_ID
        )
        for player, id_ in ids.items()
    }
    rows = [_result(r, f"Result {i + 1}") for i, r in enumerate(results)]
    if not name:
        raise UserError("The group's name is empty.")

    def make(made_by: str | None) -> Group:
        made = Group.objects.create(name=name, aliases=renames, bgstats_players=players, made_by=made_by)
        for row in rows:
            row.group = made
        Result.objects.bulk_create(rows)
        return made

    return made_once(once, make)


__all__ = [
    "GROUP_KIND",
    "SERVER_KIND",
    "group_file",
    "read_json",
    "restore_group",
    "restore_server",
    "rows_present",
    "server_backup",
]
