"""Every answer says who did what (issue 23, "Plain words everywhere a player looks"): the live answer to each
change, beside the control it was made with, names the player and the change in the log's own words (the change's
summary), at the level it is given today; the htmx answer likewise; a refusal stays as it was."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.test import Client

from companion.models.games import Change, Game
from companion.services.tracker.changes import apply_change
from companion.services.tracker.games import setup_steps
from companion.services.tracker.ops import WHOM
from companion.views.tracker.history import said_of
from tests.companion.test_games_record_taps import _phone, _post
from tests.factories import make_game, play_to

pytestmark = pytest.mark.django_db


def _v(game: Game) -> int:
    return Game.objects.get(pk=game.pk).version


def _by_table(game: Game, op: str, **kw: Any) -> Game:
    """A change another phone made first (through the service)."""
    return apply_change(game_id=game.pk, op=op, who="Dominique", seen=_v(game), **kw)


def _first_step(game: Game) -> str:
    return next(iter(setup_steps(game)))


def _new_year(game: Game) -> Game:
    return play_to(game, 13)


# (op, what the table did first, the form (a callable of the game for what it reads), slot, what the answer says)
_Row = tuple[str, Callable[[Game], Any] | None, Callable[[Game], dict[str, Any]], str, str]
ROWS: list[_Row] = [
    ("score-add", None, lambda g: {"seat": 2, "value": 3}, "row-2", "Saved: +3 IKI for Ben (now 3)."),
    ("score-add -1", lambda g: _by_table(g, "score-add", seat=2, value=5), lambda g: {"seat": 2, "value": -1},
     "row-2", "Saved: -1 IKI for Ben (now 4)."),
    ("score-set", None, lambda g: {"seat": 3, "value": 12, "v": _v(g)}, "exact-3",
     "Saved: Chie's score set to 12."),
    ("fire-add", None, lambda g: {"seat": 1}, "row-1", "Saved: Anaïs +1 firefighting (now 1, on top)."),
    ("fire-set", None, lambda g: {"seat": 1, "value": 4, "v": _v(g)}, "exact-1",
     "Saved: Anaïs's firefighting marker moved to 4 (on top)."),
    ("fire-top", lambda g: (_by_table(g, "fire-add", seat=1), _by_table(g, "fire-add", seat=2)),
     lambda g: {"seat": 1, "v": _v(g)}, "exact-1", "Saved: Anaïs's firefighting marker put on top of space 1."),
    ("trade-add", None, lambda g: {"seat": 3}, "row-3", "Saved: Chie +1 trade (now 1)."),
    ("trade-set", None, lambda g: {"seat": 3, "value": 2, "v": _v(g)}, "exact-3",
     "Saved: Chie's trade marker moved to 2."),
    ("next", None, lambda g: {"v": _v(g)}, "controls", "Saved: Ben moved the game on to month 1, Phase B · Actions."),
    ("tick", None, lambda g: {"key": _first_step(g)}, "ticks", "Saved: Ben ticked “Main board”."),
    ("untick", lambda g: _by_table(g, "tick", key=_first_step(g)), lambda g: {"key": _first_step(g)}, "ticks",
     "Saved: Ben unticked “Main board”."),
    ("record-remove", lambda g: _by_table(g, "record-add", seat=2, field="characters", key="monk"),
     lambda g: {"seat": 2, "field": "characters", "key": "monk"}, "record-2", "Saved: Ben removed Monk (characters) from Ben's record."),
    ("lost", lambda g: _by_table(g, "record-add", seat=2, field="characters", key="monk"),
     lambda g: {"seat": 2, "field": "fire", "key": "monk"}, "record-2", "Saved: Ben lost Monk in a fire."),
    ("lost another's", lambda g: _by_table(g, "record-add", seat=3, field="characters", key="monk"),
     lambda g: {"seat": 3, "field": "fire", "key": "monk"}, "record-3",
     "Saved: Chie lost Monk in a fire, recorded by Ben."),
    ("resources", _new_year, lambda g: {"seat": 2, "v": _v(g), "was": "0,0,0,0,0", "blank": "0", "mon": 7},
     "res-2", "Saved: Ben's resources: 7 mon, 0 koban, 0 wood."),
    ("resources another's", _new_year,
     lambda g: {"seat": 1, "v": _v(g), "was": "0,0,0,0,0", "blank": "0", "mon": 7},
     "res-1", "Saved: Anaïs's resources: 7 mon, 0 koban, 0 wood, recorded by Ben."),
    ("undo", lambda g: _by_table(g, "score-add", seat=2, value=2), lambda g: {"v": _v(g)}, "controls",
     "Saved: Ben undid “+2 IKI for Ben (now 2)”."),
    ("undo-mine", lambda g: _post(_phone("Ben"), g, op="score-add", seat=3, value=5), lambda g: {}, "controls",
     "Saved: Ben undid “+5 IKI for Chie (now 5)”."),
]  # fmt: skip


NAMED_BY_THE_ANSWER = (
    "next", "tick", "untick", "record-remove", "lost another's", "resources another's", "undo", "undo-mine"
)  # fmt: skip
"""The changes whose log line does not name who made them, or names another player than the phone's: their
answer names the phone's player (the others are answered the log's line)."""


def _said(body: str, slot: str) -> tuple[str, str]:
    """The answer written in ``slot`` (its words, its level)."""
    found = re.search(rf'<p [^>]*class="answer small ?([a-z]*)"[^>]*id="answer-{slot}">(.*?)</p>', body, re.S)
    assert found is not None, f"no answer slot {slot}"
    return unescape(found.group(2)), found.group(1)


@pytest.mark.parametrize(("op", "before", "form", "slot", "words"), ROWS, ids=[r[0] for r in ROWS])
def test_each_changes_live_answer_names_the_player_and_the_change(
    op: str,
    before: Callable[[Game], Any] | None,
    form: Callable[[Game], dict[str, Any]],
    slot: str,
    words: str,
) -> None:
    game = make_game()
    if before is not None:
        before(game)
    answer = _post(_phone("Ben"), game, op=op.split()[0], **form(game))
    assert answer.status_code == 200
    said, level = _said(answer.content.decode(), slot)
    assert said == words
    made = Game.objects.get(pk=game.pk).changes.first()
    assert made is not None and made.who == "Ben"
    # The log's line names what (and whom it happened to), the answer who did it too (the history's "Ben: …");
    # the others are answered the log's words, which name the player.
    assert (said == f"Saved: {made.summary}.") is (op not in NAMED_BY_THE_ANSWER)
    assert level == "ok"
    assert len(answer.content) < 64_000


def test_a_tick_names_who_ticked_which_step() -> None:
    game = make_game()
    step, title = list(setup_steps(game).items())[-1]
    said, _ = _said(_post(_phone("Ben"), game, op="tick", key=step).content.decode(), "ticks")
    assert said == f"Saved: Ben ticked “{title}”."


@pytest.mark.parametrize(
    ("who", "words"),
    [
        (None, "Saved: month 1: Phase B · Actions."),  # a phone that signs as nobody: the log's line
        ("The table", "Saved: The table moved the game on to month 1, Phase B · Actions."),
    ],
)
def test_a_phone_that_signs_as_nobody_keeps_the_logs_words(who: str | None, words: str) -> None:
    game = make_game()
    phone = Client() if who is None else _phone(who)
    said, _ = _said(_post(phone, game, op="next", v=_v(game)).content.decode(), "controls")
    assert said == words


def test_reveal_and_go_on_names_who_revealed_what_and_where_the_table_went() -> None:
    """RULINGS R17: month 1's New Character is revealed at its start; "Reveal and go on" does both."""
    game = make_game(akebono=True)
    answer = _post(_phone("Ben"), game, op="reveal-next", key="new-character-1", v=_v(game), was="1A")
    said, level = _said(answer.content.decode(), "controls")
    assert said == (
        "Saved: Ben revealed the New Character of month 1 and moved the game on to month 1, Phase B · Actions."
    )
    assert level == "ok"
    made = Game.objects.get(pk=game.pk).changes.first()
    assert made is not None and (made.who, made.op) == ("Ben", "reveal-next")


def test_next_on_the_last_steps_names_new_years_day_and_the_end() -> None:
    game = play_to(make_game(), 12)
    ben = _phone("Ben")
    for phase in ("Phase B · Actions", "Phase C · Event"):
        said, _ = _said(_post(ben, game, op="next", v=_v(game)).content.decode(), "controls")
        assert said == f"Saved: Ben moved the game on to month 12, {phase}."
    said, _ = _said(_post(ben, game, op="next", v=_v(game)).content.decode(), "controls")
    assert said == "Saved: Ben moved the game on to New Year's Day."
    said, _ = _said(_post(ben, game, op="next", v=_v(game)).content.decode(), "controls")
    assert said == "Saved: Ben ended the game."


def test_a_removal_names_who_took_what_from_whom() -> None:
    game = make_game(("Anaïs", "Ben", "Chie: the second"))  # a colon in a name reads as well
    _by_table(game, "record-add", seat=3, field="characters", key="monk")
    answer = _post(_phone("Anaïs"), game, op="record-remove", seat=3, field="characters", key="monk")
    said, _ = _said(answer.content.decode(), "record-3")
    assert said == "Saved: Anaïs removed Monk (characters) from Chie: the second's record."


@pytest.mark.parametrize(
    "summary",
    ["Removed from Chie: Ox Cart (characters)", "Removed from : Monk (characters)", "Removed from Ch"],
)
def test_a_removal_whose_line_reads_otherwise_keeps_the_logs_words(summary: str) -> None:
    """A removal saved before its data named whom (old-shaped: read from its line): a line that does not name
    this entry (cut at the log's length, another entry) is said as it is."""
    game = make_game()
    _by_table(game, "record-add", seat=3, field="characters", key="monk")
    _post(_phone("Anaïs"), game, op="record-remove", seat=3, field="characters", key="monk")
    made = Game.objects.get(pk=game.pk).changes.first()
    assert made is not None and made.op == "record-remove"
    del made.undo[WHOM]
    made.summary = summary
    assert said_of(made) == f"Saved: {summary}."


def test_a_reveal_names_what_was_revealed_and_by_whom() -> None:
    game = make_game(akebono=True)
    said, level = _said(
        _post(_phone("Ben"), game, op="reveal", key="new-character-1").content.decode(), "month"
    )
    assert said.startswith("Saved: Revealed the New Character of month 1 (by Ben in month 1)"), said
    assert level == "ok"


def test_the_own_undo_says_what_it_undid() -> None:
    game = make_game()
    ben = _phone("Ben")
    _post(ben, game, op="score-add", seat=1, value=5)
    _by_table(game, "trade-add", seat=3)
    said, _ = _said(_post(ben, game, op="undo-mine").content.decode(), "controls")
    assert said == "Saved: Ben undid “+5 IKI for Anaïs (now 5)”."


def test_a_refusal_stays_as_it_was() -> None:
    game = make_game()
    said, level = _said(
        _post(_phone("Ben"), game, op="score-add", seat=2, value=-1).content.decode(), "row-2"
    )
    assert (said, level) == ("Ben's score cannot go below 0.", "error")


# --- without the live script: htmx and a plain form answer beside the control too ---------------------------------


def _state_msg(body: str) -> str:
    found = re.search(r'id="state-msg">(.*?)</div>', body, re.S)
    assert found is not None
    return unescape(found.group(1))


def _record_said(body: str, field: str) -> str:
    found = re.search(rf'<div [^>]*id="answer-record-add-{field}"[^>]*>(.*?)</div>', body, re.S)
    assert found is not None
    return unescape(found.group(1))


def test_the_htmx_answer_stands_beside_the_row_tapped_its_undo_at_the_top() -> None:
    game = make_game()
    body = _phone("Ben").post(
        f"/games/{game.edit_token}/change", {"op": "score-add", "seat": 3, "value": 2}, HTTP_HX_REQUEST="true"
    )
    assert body.status_code == 200
    html = body.content.decode()
    assert _said(html, "row-3") == ("Saved: +2 IKI for Chie (now 2).", "ok")
    assert _said(html, "row-1") == ("", "")  # the other rows say nothing
    top = _state_msg(html)
    assert "Saved: +2 IKI for Chie (now 2)." in top and f'id="undo-history-{_v(game)}"' in top
    assert 'role="alert"' not in top  # read out once, beside the row


@pytest.mark.parametrize("htmx", [True, False])
def test_a_record_without_the_live_script_answers_under_its_form_with_its_undo(htmx: bool) -> None:
    game = make_game()
    ben = _phone("Ben")
    form = {"op": "record-add", "seat": 2, "field": "characters", "key": "monk"}
    answer = ben.post(
        f"/games/{game.edit_token}/change", form, **({"HTTP_HX_REQUEST": "true"} if htmx else {})
    )
    version = _v(game)
    if htmx:
        html = answer.content.decode()
    else:
        assert answer.status_code == 302
        url = f"{game.edit_url()}?did={version}&at=record-add-characters"
        assert answer["Location"] == f"{url}#answer-record-add-characters"
        html = ben.get(url).content.decode()
    said = _record_said(html, "characters")
    assert (
        "Saved: Ben hired Monk (now firefighting 1)." in said
        and f'name="key" value="{version}"' in said
        and "undo-entry" in said
    )
    assert _record_said(html, "tokens").strip() == ""
    assert "Ben hired Monk" not in _state_msg(html)  # once, where the thumb is
    undone = ben.post(
        f"/games/{game.edit_token}/change", {"op": "undo-entry", "field": "characters", "key": version}
    )
    assert undone["Location"].endswith("&at=record-add-characters#answer-record-add-characters")
    page = ben.get(undone["Location"].split("#")[0]).content.decode()
    assert "Saved: Ben undid “Ben hired Monk (now firefighting 1)”." in _record_said(page, "characters")


@pytest.mark.parametrize("query", ["?did=1&at=Row%201", "?did=1&at=" + "x" * 41, "?did=x&at=row-1"])
def test_a_malformed_answer_address_is_a_400(query: str) -> None:
    game = make_game()
    assert Client().get(game.edit_url() + query).status_code == 400


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize(
    ("op", "slot", "words"),
    [
        ("next", "controls", "Saved: Ben moved the game on to month 1, Phase B · Actions."),
        ("tick", "ticks", "Saved: Ben ticked “Main board”."),
    ],
)
def test_next_and_a_tick_name_who_without_the_live_script(htmx: bool, op: str, slot: str, words: str) -> None:
    game = make_game()
    ben = _phone("Ben")
    form = {"op": op, "v": _v(game), "key": _first_step(game) if op == "tick" else ""}
    answer = ben.post(
        f"/games/{game.edit_token}/change", form, **({"HTTP_HX_REQUEST": "true"} if htmx else {})
    )
    if htmx:
        html = answer.content.decode()
    else:
        assert answer.status_code == 302
        assert answer["Location"].endswith(f"?did={_v(game)}&at={slot}#answer-{slot}")
        html = ben.get(answer["Location"].split("#")[0]).content.decode()
    assert _said(html, slot)[0] == words
    assert words in _state_msg(html) and f'id="undo-history-{_v(game)}"' in _state_msg(html)  # its Undo


# --- an undo, a loss and the resources name the phone that did it too ----------------------------------------------


def page_after(phone: Client, game: Game, transport: str, slot: str, **form: Any) -> str:
    """What the phone shows after a change posted by the live script, htmx or a plain form (then the page it is
    sent back to, opened at ``slot``)."""
    url = f"/games/{game.edit_token}/change"
    if transport == "live":
        return str(_post(phone, game, **form).content.decode())
    if transport == "htmx":
        answer = phone.post(url, form, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200
        return str(answer.content.decode())
    answer = phone.post(url, form)
    assert answer.status_code == 302 and answer["Location"].endswith(f"#answer-{slot}")
    return str(phone.get(answer["Location"].split("#")[0]).content.decode())


def _answered(phone: Client, game: Game, transport: str, slot: str, **form: Any) -> str:
    """The answer in ``slot`` to a change posted by the live script, htmx or a plain form."""
    return _said(page_after(phone, game, transport, slot, **form), slot)[0]


def _removed_by_table(game: Game) -> Game:
    _by_table(game, "record-add", seat=3, field="characters", key="monk")
    return _by_table(game, "record-remove", seat=3, field="characters", key="monk")


# (how, what the table did first (its version is the key undone), the form, slot, the answer, the log's line)
UNDOS = [
    ("undo-mine", lambda g: _post(_phone("Ben"), g, op="score-add", seat=3, value=5) and g, {}, "controls",
     "Saved: Ben undid “+5 IKI for Chie (now 5)”.", "Undid: +5 IKI for Chie (now 5)"),
    ("undo", lambda g: _by_table(g, "score-add", seat=2, value=2), {}, "controls",
     "Saved: Ben undid “+2 IKI for Ben (now 2)”.", "Undid: +2 IKI for Ben (now 2)"),
    ("history", lambda g: _by_table(g, "score-add", seat=3, value=3), {"field": "history", "sure": "1"},
     "history", "Saved: Ben undid “+3 IKI for Chie (now 3)”.", "Undid: +3 IKI for Chie (now 3)"),
    ("removed", _removed_by_table, {"field": "record-3", "sure": "1"}, "record-3",
     "Saved: Ben undid “Removed from Chie: Monk (characters)”.",
     "Undid: Removed from Chie: Monk (characters)"),
]  # fmt: skip


@pytest.mark.parametrize("transport", ["live", "htmx", "plain"])
@pytest.mark.parametrize(("how", "before", "form", "slot", "words", "line"), UNDOS, ids=[u[0] for u in UNDOS])
def test_every_undo_names_who_undid_what_and_the_log_keeps_its_line(
    transport: str,
    how: str,
    before: Callable[[Game], Any],
    form: dict[str, str],
    slot: str,
    words: str,
    line: str,
) -> None:
    game = make_game()
    before(game)
    version = _v(game)
    op = {"history": "undo-entry", "removed": "undo-entry"}.get(how, how)
    sent = (
        form
        | {"op": op}
        | ({"v": version} if op == "undo" else {"key": version} if op == "undo-entry" else {})
    )
    assert _answered(_phone("Ben"), game, transport, slot, **sent) == words
    made = Game.objects.get(pk=game.pk).changes.first()
    assert made is not None and (made.op, made.who, made.summary) == ("undo", "Ben", line)
    assert Game.objects.get(pk=game.pk).changes.get(version=version).undone


def _holding(game: Game, seat: int, *entries: tuple[str, str]) -> None:
    for field, key in entries:
        _by_table(game, "record-add", seat=seat, field=field, key=key)


#: (how, what Chie holds, the entry lost, the log's line). RULINGS R26 (a loss), R29 (the Doctor token).
LOSSES = [
    ("fire", [("characters", "monk")], "monk", "Chie: the second lost Monk in a fire"),
    ("unfed", [("characters", "monk")], "monk", "Chie: the second lost Monk (not fed)"),
    ("burnt", [("buildings", "well")], "well", "Chie: the second lost Well: burnt in a fire"),
    ("doctor", [("characters", "monk"), ("retirement_tokens", "doctor")], "monk",
     "Chie: the second discarded the Doctor token: Monk retires instead (record its token if taken: Hire -1 (Monk))"),
]  # fmt: skip


@pytest.mark.parametrize(("how", "held", "key", "line"), LOSSES, ids=[x[0] for x in LOSSES])
@pytest.mark.parametrize("who", ["Anaïs", "Chie: the second", None])
def test_a_loss_names_who_recorded_it_when_it_is_another_players(
    how: str, held: list[tuple[str, str]], key: str, line: str, who: str | None
) -> None:
    """Another phone's: "Chie lost …, recorded by Anaïs"; the player's own phone, or a phone that signs as
    nobody: the log's line, which names the player."""
    game = make_game(("Anaïs", "Ben", "Chie: the second"), akebono=True)
    _holding(game, 3, *held)
    phone = Client() if who is None else _phone(who)
    said = _answered(phone, game, "live", "record-3", op="lost", seat=3, field=how, key=key)
    assert said == (f"Saved: {line}, recorded by Anaïs." if who == "Anaïs" else f"Saved: {line}.")
    made = Game.objects.get(pk=game.pk).changes.first()
    assert made is not None and (made.op, made.summary) == ("lost", line)


@pytest.mark.parametrize("transport", ["htmx", "plain"])
def test_a_loss_and_the_resources_name_both_without_the_live_script(transport: str) -> None:
    game = make_game(("Anaïs", "Ben", "Chie's kid"))
    _holding(game, 3, ("characters", "monk"))
    anais = _phone("Anaïs")
    said = _answered(anais, game, transport, "record-3", op="lost", seat=3, field="unfed", key="monk")
    assert said == "Saved: Chie's kid lost Monk (not fed), recorded by Anaïs."
    play_to(game, 13)
    form = {"op": "resources", "seat": 3, "v": _v(game), "was": "0,0,0,0,0", "blank": "0", "koban": 2}
    said = _answered(anais, game, transport, "res-3", **form)
    assert said == "Saved: Chie's kid's resources: 0 mon, 2 koban, 0 wood, recorded by Anaïs."
    made = Game.objects.get(pk=game.pk).changes.first()
    assert made is not None and made.summary == "Chie's kid's resources: 0 mon, 2 koban, 0 wood"


@pytest.mark.parametrize(
    ("op", "before", "form", "slot", "words"),
    [
        ("undo-mine", lambda g: _post(Client(), g, op="score-add", seat=2, value=3), {}, "controls",
         "Undid: +3 IKI for Ben (now 3)."),
        ("resources", _new_year, {"seat": 1, "was": "0,0,0,0,0", "blank": "0", "mon": 7}, "res-1",
         "Saved: Anaïs's resources: 7 mon, 0 koban, 0 wood."),
    ],
)  # fmt: skip
def test_a_phone_that_signs_as_nobody_keeps_todays_words(
    op: str, before: Callable[[Game], Any], form: dict[str, Any], slot: str, words: str
) -> None:
    game = make_game()
    before(game)
    assert _answered(Client(), game, "live", slot, op=op, v=_v(game), **form) == words


def _made_by_anais(op: str, summary: str, undo: dict[str, Any]) -> Change:
    """A change of Anaïs's phone as it may have been saved (its op, line and data as given), not stored."""
    game = make_game()
    _by_table(game, "trade-add", seat=1)
    made = Game.objects.get(pk=game.pk).changes.first()
    assert made is not None
    made.op, made.summary, made.undo, made.who = op, summary, undo, "Anaïs"
    return made


@pytest.mark.parametrize(
    ("op", "summary", "undo"),
    [
        ("lost", "Chie lost Mo", {"seat": 3, "delta": {"+": [["lost", "monk"]]}}),  # cut at the log's length
        (
            "lost",
            "Chie lost Monk in a fire",
            {"seat": 3, "delta": {"+": [["burnt", "monk"]]}},
        ),  # another entry
        ("lost", "Chie lost Monk in a fire", {"seat": 3, "delta": {"+": "lost"}}),
        ("lost", "Chie lost Monk in a fire", {"seat": 3}),
        (
            "lost",
            " discarded the Doctor token: Monk retires instead",
            {"delta": {"+": [["spent", "doctor"]]}},
        ),
        ("resources", "Chie's resources", {}),
        ("resources", "'s resources: 7 mon", {}),
    ],
)
def test_a_loss_or_resources_line_that_reads_otherwise_keeps_the_logs_words(
    op: str, summary: str, undo: dict[str, Any]
) -> None:
    assert said_of(_made_by_anais(op, summary, undo)) == f"Saved: {summary}."


def test_an_undo_line_that_reads_otherwise_keeps_the_logs_words() -> None:
    game = make_game()
    _by_table(game, "trade-add", seat=1)
    made = Game.objects.get(pk=game.pk).changes.first()
    assert made is not None
    made.op, made.summary, made.who = "undo", "Restored: Anaïs +1 trade (now 1)", "Anaïs"
    assert said_of(made) == "Restored: Anaïs +1 trade (now 1)."


# --- a record from another player's phone names both (issue 23) ----------------------------------------------------


def _record_said_words(body: str) -> str:
    found = re.search(r'id="answer-record-add-characters"[^>]*>\s*<p [^>]*>(.*?)</p>', body, re.S)
    assert found is not None
    return unescape(found.group(1))


@pytest.mark.parametrize("transport", ["live", "htmx", "plain"])
@pytest.mark.parametrize(
    ("who", "words"),
    [
        ("Anaïs", "Saved: Ben hired Monk (now firefighting 1), recorded by Anaïs."),
        ("Ben", "Saved: Ben hired Monk (now firefighting 1)."),  # his own phone: the log's line names him
        (None, "Saved: Ben hired Monk (now firefighting 1)."),  # a phone that signs as nobody
    ],
)
def test_a_record_from_another_players_phone_names_who_recorded_it(
    transport: str, who: str | None, words: str
) -> None:
    game = make_game()
    phone = Client() if who is None else _phone(who)
    form = {"op": "record-add", "seat": 2, "field": "characters", "key": "monk"}
    body = page_after(phone, game, transport, "record-add-characters", **form)
    assert _record_said_words(body) == words
    assert f'name="key" value="{_v(game)}"' in body  # its Undo beside it
    made = Game.objects.get(pk=game.pk).changes.first()
    assert (
        made is not None and made.summary == "Ben hired Monk (now firefighting 1)"
    )  # the log keeps its line


def test_a_pipe_spent_for_another_player_names_both() -> None:
    """RULINGS R25: the Mounted Samurai's owner spends a pipe (+6 IKI); recorded by another phone."""
    game = make_game(akebono=True)
    Game.objects.filter(pk=game.pk).update(month=12, revealed=["new-character-12"])  # the Samurai is out
    _holding(game, 2, ("characters", "mounted-samurai"), ("pipes", "pipe-winter-1"))
    answer = _post(_phone("Chie"), game, op="record-add", seat=2, field="spend-pipe", key="mounted-samurai")
    said, _ = _said(answer.content.decode(), "record-add")
    assert said.startswith("Saved: Ben spent ") and said.endswith(", recorded by Chie."), said


# --- the facts an answer names are stored with the change, not read back from its line (issue 23) ------------------


def test_each_change_stores_whom_the_title_and_the_line_undone() -> None:
    game = make_game()
    anais = _phone("Anaïs")
    _post(anais, game, op="record-add", seat=2, field="characters", key="monk")
    _post(anais, game, op="tick", key=_first_step(game))
    _post(anais, game, op="undo-mine")
    undo, tick, added = Game.objects.get(pk=game.pk).changes.all()[:3]
    assert added.undo["whom"] == "Ben"
    assert tick.undo["title"] == "Main board"
    assert undo.undo == {"undid": tick.version, "line": "Setup: Main board ticked"}


@pytest.mark.parametrize(
    ("op", "form", "line", "words"),
    [
        ("record-add", {"seat": 2, "field": "characters", "key": "ox-cart"}, "Ben hi",
         "Saved: Ben hi, recorded by Anaïs."),
        ("record-remove", {"seat": 3, "field": "characters", "key": "monk"}, "Removed from Ch",
         "Saved: Anaïs removed Monk (characters) from Chie's record."),
        ("lost", {"seat": 3, "field": "fire", "key": "monk"}, "Chie lost Mo", "Saved: Chie lost Mo, recorded by Anaïs."),
        ("tick", {"key": "main-board"}, "Setup: Main bo", "Saved: Anaïs ticked “Main board”."),
    ],
)  # fmt: skip
def test_the_answer_reads_the_stored_facts_whatever_the_line_says(
    op: str, form: dict[str, Any], line: str, words: str
) -> None:
    """A line cut at the log's length no longer reads back, yet the answer names whom and what: from the data."""
    game = make_game()
    _by_table(game, "record-add", seat=3, field="characters", key="monk")
    _post(_phone("Anaïs"), game, op=op, **({"key": _first_step(game)} if op == "tick" else form))
    made = Game.objects.get(pk=game.pk).changes.first()
    assert made is not None and made.op == op
    made.summary = line
    assert said_of(made) == words


def test_an_undo_reads_the_line_it_undid_from_its_data() -> None:
    game = make_game()
    _by_table(game, "score-add", seat=2, value=3)
    _post(_phone("Anaïs"), game, op="undo-entry", key=_v(game), sure="1")
    made = Game.objects.get(pk=game.pk).changes.first()
    assert made is not None and made.op == "undo"
    made.summary = "Undid: +3 IKI for B"  # cut
    assert said_of(made) == "Saved: Anaïs undid “+3 IKI for Ben (now 3)”."


@pytest.mark.parametrize(
    ("op", "summary", "undo", "words"),
    [
        # Saved before changes stored their facts: read back from the line, as before.
        ("tick", "Setup: Main board ticked", {"tick": "main-board", "done": False},
         "Saved: Anaïs ticked “Main board”."),
        ("undo", "Undid: +3 IKI for Ben (now 3)", {"undid": 2}, "Saved: Anaïs undid “+3 IKI for Ben (now 3)”."),
        ("record-remove", "Removed from Chie: Monk (characters)",
         {"seat": 3, "delta": {"-": [["characters", "monk", 0]]}, "at": ["characters", "monk", 0]},
         "Saved: Anaïs removed Monk (characters) from Chie's record."),
        ("lost", "Chie lost Monk in a fire", {"seat": 3, "delta": {"+": [["lost", "monk"]]}},
         "Saved: Chie lost Monk in a fire, recorded by Anaïs."),
        ("resources", "Chie's resources: 7 mon, 0 koban, 0 wood", {"seat": 3},
         "Saved: Chie's resources: 7 mon, 0 koban, 0 wood, recorded by Anaïs."),
        # A record saved before it stored its player has no line to read it from: the log's words.
        ("record-add", "Ben hired Monk (now firefighting 1)", {"seat": 2, "delta": {"+": [["characters", "monk"]]}},
         "Saved: Ben hired Monk (now firefighting 1)."),
    ],
)  # fmt: skip
def test_an_old_shaped_change_is_read_from_its_line(
    op: str, summary: str, undo: dict[str, Any], words: str
) -> None:
    assert said_of(_made_by_anais(op, summary, undo)) == words
