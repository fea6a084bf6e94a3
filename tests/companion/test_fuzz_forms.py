"""Every form, fuzzed through its own view (the product owner's "property-based fuzzing of every form").

:data:`FORMS` lists every Django form class of ``companion/`` with the requests that carry it; a form added
without one fails :func:`test_every_form_has_a_fuzzed_request`. Each request (with the requests of
tests/companion/test_fuzz.py's :data:`TARGETS`, fuzzed there) is first sent as it is and accepted, then with one
field replaced by hostile text or an out-of-bounds number, left out, sent twice, or joined by a stranger: never a
5xx; a 4xx says what went wrong in words (:func:`tests.companion.test_fuzz.said`) and changes nothing saved; a GET
changes nothing at all. A group's file (an upload, its JSON read like a form) is fuzzed value by value, resealed.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django import forms
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

import companion
from companion.models.games import Game
from companion.models.osaka import OsakaGame
from companion.models.results import Group, Result
from companion.services.osaka import NewPlayer
from companion.services.osaka import create_game as create_osaka_game
from companion.services.results import remove_result
from tests.companion.osaka.test_calculator import CONTRACT as OSAKA_CALCULATOR
from tests.companion.test_checks_views import PAD_2015, PAD_2015_WRITTEN, RULEBOOK_PAD
from tests.companion.test_fuzz import (
    FORM_NUMBERS,
    HOSTILE,
    JSON_VALUES,
    MISSING,
    TARGETS,
    WRITES_BY_GET,
    Target,
    _osaka_targets,
    _paths,
    _send,
    _set,
    fuzz_settings,
    said,
)
from tests.factories import db_snapshot, every_kind, make_game

pytestmark = pytest.mark.django_db

FUZZ = fuzz_settings(40)
#: Text and numbers a field meets (not "left out": :func:`_mutated` does that).
VALUES = st.one_of(HOSTILE, FORM_NUMBERS).filter(lambda value: value is not MISSING)
STRANGER = "zz-not-a-field"


def _osaka_game() -> OsakaGame:
    players = [NewPlayer("Anaïs", "white"), NewPlayer("David", "pink"), NewPlayer("Dominique", "gray")]
    return create_osaka_game(players=players)


def _game_url(game: Game, what: str = "") -> str:
    return f"/games/{game.edit_token}/{what}"


def _post_targets() -> Iterator[tuple[str, Callable[[], Target]]]:
    """The POSTs test_fuzz.py's targets leave out: Traders of Osaka's forms with hostile text (there: numbers only),
    its new game and its start, a result's restore and the ask before a take-out, a group's new name, and the fields a form carries
    beside its own (a tracked game's ``h``/``open`` pull, a new game's ``table``)."""

    def osaka_new() -> Target:
        form = {"name1": "Anaïs", "trader1": "white", "name2": "David", "trader2": "pink"}
        return Target("/osaka/games/new/", form)

    def osaka_start() -> Target:
        game = _osaka_game()
        form = {"op": "start", "v": str(game.version), "cid": "cid-0005"}
        form |= {f"total{i}": total for i, total in enumerate(("9", "8", "8"), start=1)}
        form |= {f"cards{i}": cards for i, cards in enumerate(("3", "3", "2"), start=1)}
        return Target(f"/osaka/games/{game.edit_token}/change", form)

    def result_restore() -> Target:
        sheet = every_kind().sheet
        remove_result(result=Result.objects.get(sheet=sheet))
        return Target(f"/results/{sheet.token}/restore", {"confirm": "1"})

    def result_ask() -> Target:
        return Target(f"/results/{every_kind().sheet.token}/ungroup", {"ask": "1"})

    def group_name() -> Target:
        group = Group.objects.create(name="Thursday crew")
        return Target(f"/groups/{group.token}/name", {"name": "Thursday games"})

    def game_pull() -> Target:
        game = make_game(akebono=True)
        form = {"op": "score-add", "seat": "1", "value": "2", "h": "1f9603593e", "open": "record-1 log"}
        return Target(_game_url(game, "change"), form)

    def games_new_table() -> Target:
        form = {"name-0": "Anaïs", "colour-0": "red", "name-1": "Ben", "colour-1": "blue", "seed": "K7MX2QPA"}
        return Target("/games/new/", {**form, "table": "table-" + "k" * 22})

    yield from dict(_osaka_targets()).items()
    yield from {
        "osaka-new": osaka_new,
        "osaka-start": osaka_start,
        "result-restore": result_restore,
        "result-ungroup-ask": result_ask,
        "group-name": group_name,
        "game-change-pull": game_pull,
        "games-new-table": games_new_table,
    }.items()


POSTS = dict(_post_targets())


def _get_targets() -> Iterator[tuple[str, Callable[[], Target]]]:
    """Every form read from a query string, with a query its page accepts."""

    def find() -> Target:
        return Target("/find/", {"q": make_game().view_token})

    def game_did() -> Target:
        game = make_game()
        return Target(_game_url(game), {"did": str(game.version), "at": "row-1"})

    def game_pull() -> Target:
        return Target(_game_url(make_game(), "state"), {"v": "1"})

    def osaka_did() -> Target:
        game = _osaka_game()
        return Target(f"/osaka/games/{game.edit_token}/", {"did": str(game.version)})

    yield from {
        "find": find,
        "game-did": game_did,
        "game-pull": game_pull,
        "osaka-did": osaka_did,
        "osaka-sheet": lambda: Target("/osaka/sheet.pdf", {"size": "letter", "players": "3"}),
        "osaka-calculator": lambda: Target("/osaka/payday/", dict(OSAKA_CALCULATOR)),
        "check": lambda: Target("/check/", dict(RULEBOOK_PAD)),
        "check-2015": lambda: Target("/check/2015/", dict(PAD_2015_WRITTEN)),
        "check-2015-work": lambda: Target("/check/2015/work/", dict(PAD_2015)),
        "score-start": lambda: Target("/score/", {"name-0": "Anaïs", "colour-0": "red", "seed": "K7MX2QPA"}),
        "setup-options": lambda: Target("/setup/", {"players": "3", "akebono": "1", "seed": "K7MX2QPA"}),
        "pads": lambda: Target("/score/pads/", {"akebono": "1", "players": "3", "size": "a4"}),
    }.items()


GETS = dict(_get_targets())

#: Every form class of companion/ and the requests (test_fuzz.py's TARGETS, POSTS and GETS here) that carry it.
FORMS: dict[str, set[str]] = {
    "companion.forms.PlayersForm": {"game-end"},
    "companion.forms.WhoForm": {"game-who"},
    "companion.forms.NewGameForm": {"games-new", "games-new-table"},
    "companion.forms.ScoreStartForm": {"score-start-seed", "score-start-pick", "score-start"},
    "companion.live.query.PullQuery": {"game-pull"},
    "companion.views.home.FindForm": {"find"},
    "companion.views.checks.forms.CheckStartForm": {"check", "check-2015", "check-walk"},
    "companion.views.checks.forms.Messages": {"check-2015-work", "check"},
    "companion.views.checks.forms.WrittenPadForm": {"check", "check-2015"},
    "companion.views.checks.forms.PadForm": {"check", "check-walk", "check-keep"},
    "companion.views.checks.forms.Form2015": {"check-2015-work"},
    "companion.views.checks.forms.Check2015Form": {"check-2015", "check-keep-2015"},
    "companion.views.tracker.history.DidForm": {"game-did"},
    "companion.views.tracker.forms.ChangeForm": {"game-change-add", "game-resources", "game-change-pull"},
    "companion.views.results.FileForm": {"result-group"},
    "companion.views.results.NewGroupForm": {"group-new"},
    "companion.views.results.GroupNameForm": {"group-name"},
    "companion.views.results.RenameForm": {"group-rename"},
    "companion.views.results.TakeOutForm": {"group-take-out"},
    "companion.views.results.RestoreForm": {"group-restore"},
    "companion.views.osaka.forms_games.NewOsakaGameForm": {"osaka-new"},
    "companion.views.osaka.forms_games.TokenForm": {"osaka-token"},
    "companion.views.osaka.forms_games.UndoForm": {"osaka-undo"},
    "companion.views.osaka.forms_games.VersionedForm": {"osaka-payday"},
    "companion.views.osaka.forms_games.StartForm": {"osaka-start"},
    "companion.views.osaka.forms_games.RenewForm": {"osaka-renew"},
    "companion.views.osaka.sheet.SheetForm": {"osaka-sheet"},
    "companion.views.osaka.answers.DidForm": {"osaka-did"},
    "companion.views.osaka.forms.ShipsForm": {"osaka-calculator", "osaka-payday"},
    "companion.views.osaka.forms.HoldingForm": {"osaka-calculator", "osaka-payday"},
}


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_form_has_a_fuzzed_request() -> None:
    """Each form class of companion/ (every module imported) is carried by a request fuzzed here or in
    test_fuzz.py; each request named exists."""
    import importlib
    import pkgutil

    for module in pkgutil.walk_packages(companion.__path__, "companion."):
        if ".management." not in module.name and not module.name.endswith((".wsgi", ".asgi")):
            importlib.import_module(module.name)
    found = {
        f"{cls.__module__}.{cls.__qualname__}"
        for cls in _subclasses(forms.Form)
        if cls.__module__.startswith("companion.")
    }
    assert found == set(FORMS)
    requests = {*TARGETS, *POSTS, *GETS, "group-restore"}
    assert set().union(*FORMS.values()) <= requests


def _mutated(form: dict[str, Any], field: str, how: str, value: object) -> dict[str, Any]:
    """``form`` with ``field``: replaced by ``value``, left out, sent twice (its value, then ``value``, or the
    other way), or a stranger ``field`` added."""
    sent = dict(form)
    if how == "drop":
        sent.pop(field, None)
    elif how == "twice":
        sent[field] = [form.get(field, ""), value]
    elif how == "twice-first":
        sent[field] = [value, form.get(field, "")]
    elif how == "stranger":
        sent[STRANGER] = value
    else:
        sent[field] = value
    return sent


HOW = st.sampled_from(["replace", "drop", "twice", "twice-first", "stranger"])


@pytest.mark.parametrize("name", sorted(POSTS) + sorted(GETS))
def test_each_request_as_sent_is_accepted(client: Client, name: str) -> None:
    """The valid point each fuzz starts from is valid: fuzzing around a refused request would test nothing."""
    send, target = (client.post, POSTS[name]()) if name in POSTS else (client.get, GETS[name]())
    response = send(target.url, target.form)
    assert response.status_code in (200, 204, 302), (name, response.status_code, said(response))


@pytest.mark.fuzz
@pytest.mark.parametrize("name", sorted(POSTS))
def test_a_hostile_field_never_breaks_a_post(client: Client, name: str) -> None:
    target = POSTS[name]()

    @FUZZ
    @given(field=st.sampled_from(sorted(target.form)), how=HOW, value=VALUES)
    def run(field: str, how: str, value: object) -> None:
        _send(client, target.url, _mutated(target.form, field, how, value))

    run()


@pytest.mark.fuzz
@pytest.mark.parametrize("name", sorted(GETS))
def test_a_hostile_field_never_breaks_a_query(client: Client, name: str) -> None:
    """A form read from the query: never a 5xx, a 4xx says why, and nothing saved changes (these pages write
    nothing by GET)."""
    target = GETS[name]()
    assert not any(target.url.startswith(f"/{n}") for n in WRITES_BY_GET)
    before = db_snapshot()

    @FUZZ
    @given(field=st.sampled_from(sorted(target.form)), how=HOW, value=VALUES, htmx=st.booleans())
    def run(field: str, how: str, value: object, htmx: bool) -> None:
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = client.get(target.url, _mutated(target.form, field, how, value), **headers)
        assert response.status_code < 500, (field, how, value, response.status_code)
        if response.status_code >= 400:
            assert said(response), (field, how, value, response.status_code)
        assert db_snapshot() == before

    run()


# --- a group's file: an upload, its JSON read as strictly as a form ------------------------------------------------


def _resealed(body: dict[str, Any]) -> dict[str, Any]:
    from companion.services.backup import _checksum

    body = {k: v for k, v in body.items() if k != "checksum"}
    return {**body, "checksum": _checksum(body)}


def _upload(client: Client, data: Any) -> Any:
    raw = json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return client.post(
        "/groups/restore", {"file": SimpleUploadedFile("iki-group.json", raw, "application/json")}
    )


@pytest.mark.fuzz
def test_a_hostile_value_in_a_groups_file_never_breaks_the_restore(client: Client) -> None:
    """Each value of a downloaded group's file replaced (or left out), the file resealed with a right checksum:
    restored (302) or refused whole with a 400 saying why, never a 5xx, nothing half restored."""
    made = every_kind()
    document = json.loads(client.get(f"/groups/{made.group.token}/everything.json").content)
    body = {k: v for k, v in document.items() if k != "checksum"}
    places = [p for p in _paths(body) if p]
    assert _upload(client, _resealed(copy.deepcopy(body))).status_code == 302

    @FUZZ
    @given(path=st.sampled_from(places), value=JSON_VALUES | st.sampled_from([MISSING, 10**4299, -1]))
    def run(path: tuple[Any, ...], value: object) -> None:
        before = db_snapshot()
        response = _upload(client, _resealed(_set(body, path, value)))
        assert response.status_code in (302, 400), (path, value, response.status_code)
        if response.status_code == 400:
            assert said(response), (path, value)
            assert db_snapshot() == before, (path, value)

    run()
